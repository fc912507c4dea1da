//! A [`Warning`]: its stable [`WarningCode`] and a typed [`WarningDetail`] carrying the
//! warning's parts as data. Producers never write prose: `render` words every detail in
//! English and Japanese (one exhaustive `match`), and writes the English into the JSON's
//! `message` when a report is serialized. Warnings are compared, sorted and
//! de-duplicated by their code and detail, never by their text.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

use jiff::civil::Date;
use serde::{Deserialize, Serialize};

use crate::event::Shell;
use crate::report::WarningCode;

/// Something that could not be read or done; the rest of the report is still there.
///
/// Equality, order and hashing look at the code, the detail and the machine only.
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(from = "WarningForm")]
pub struct Warning {
    /// The English text: written by `render` when the report is serialized (empty
    /// before); what an older report said, when read from one.
    message: String,
    /// What happened, as data: `kind` names the shape, the other fields its parts.
    pub detail: WarningDetail,
    /// The machine whose report carried the warning (`standup daily --machines`), for a
    /// warning another machine reported.
    pub machine: Option<String>,
}

/// The JSON form: `code`, `message`, `detail`, and `machine` when there is one.
impl Serialize for Warning {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let fields = if self.machine.is_some() { 4 } else { 3 };
        let mut state = serializer.serialize_struct("Warning", fields)?;
        state.serialize_field("code", &self.code())?;
        state.serialize_field("message", &self.message)?;
        state.serialize_field("detail", &self.detail)?;
        if let Some(machine) = &self.machine {
            state.serialize_field("machine", machine)?;
        }
        state.end()
    }
}

impl Warning {
    /// The warning for a detail.
    pub fn new(detail: WarningDetail) -> Warning {
        Warning { message: String::new(), detail, machine: None }
    }

    /// The stable code (the detail's).
    pub fn code(&self) -> WarningCode {
        self.detail.code()
    }

    /// The English text as last written by `render` (or read from an older report);
    /// empty for a warning not yet rendered. Never compare warnings by it.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Sets the English text that the JSON form carries; `render` calls it with its own
    /// wording of the detail.
    pub fn set_message(&mut self, english: String) {
        self.message = english;
    }

    /// The machine the warning names or came from, if any.
    pub fn machine_name(&self) -> Option<&str> {
        self.detail.machine().or(self.machine.as_deref())
    }
}

impl From<WarningDetail> for Warning {
    fn from(detail: WarningDetail) -> Warning {
        Warning::new(detail)
    }
}

impl PartialEq for Warning {
    fn eq(&self, other: &Warning) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Warning {}

impl PartialOrd for Warning {
    fn partial_cmp(&self, other: &Warning) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Warning {
    fn cmp(&self, other: &Warning) -> Ordering {
        self.key().cmp(&other.key())
    }
}

impl Hash for Warning {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl Warning {
    fn key(&self) -> (WarningCode, &WarningDetail, Option<&String>) {
        (self.code(), &self.detail, self.machine.as_ref())
    }
}

/// The JSON form read back: this version's (`detail`), or an older report's
/// (`message` and `params`), which becomes [`WarningDetail::Legacy`].
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
struct WarningForm {
    /// Stable code.
    code: WarningCode,
    /// Human message in English (never holds a secret), worded from the detail.
    #[serde(default)]
    message: String,
    /// Written by older versions only: the message's parts as strings.
    #[serde(default)]
    params: BTreeMap<String, String>,
    /// What happened, as data: `kind` names the shape, the other fields its parts
    /// (absent in reports of older versions).
    #[serde(default)]
    detail: Option<WarningDetail>,
    /// The machine whose report carried the warning (`standup daily --machines`).
    #[serde(default)]
    machine: Option<String>,
}

impl From<WarningForm> for Warning {
    fn from(form: WarningForm) -> Warning {
        let WarningForm { code, message, mut params, detail, machine } = form;
        let machine = machine.or_else(|| params.remove("machine"));
        let detail = match detail {
            Some(detail) if detail != WarningDetail::Unknown => detail,
            _ => WarningDetail::Legacy { code, message: message.clone(), params },
        };
        Warning { message, detail, machine }
    }
}

/// What kind of file sits at a path that is not a regular file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FileKind {
    /// A named pipe.
    Fifo,
    /// A character device (`/dev/zero`, a terminal).
    CharDevice,
    /// A block device.
    BlockDevice,
    /// A Unix socket.
    Socket,
    /// A folder.
    Directory,
    /// Anything else.
    Other,
}

/// Why a model's whole reply was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Rejection {
    /// Not in the report's language.
    WrongLanguage,
    /// Code instead of prose.
    Code,
    /// Headings, lists, tables or quotes instead of prose.
    Markup,
    /// A JSON dump instead of prose.
    JsonDump,
    /// The reply repeats itself.
    Repetition,
    /// The reply repeats the instructions.
    InstructionEcho,
    /// No sentence is supported by the data.
    NothingSupported,
    /// More than half of the sentences are not supported by the data.
    MostDropped,
    /// The reply is empty.
    Empty,
}

impl Rejection {
    /// The reason as `NarrativeCheck::reason` names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Rejection::WrongLanguage => "wrong_language",
            Rejection::Code => "code",
            Rejection::Markup => "markup",
            Rejection::JsonDump => "json_dump",
            Rejection::Repetition => "repetition",
            Rejection::InstructionEcho => "instruction_echo",
            Rejection::NothingSupported => "nothing_supported",
            Rejection::MostDropped => "most_dropped",
            Rejection::Empty => "empty",
        }
    }
}

/// Why the LLM client gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LlmCause {
    /// The endpoint's host is not a loopback address.
    NonLoopback {
        /// The host.
        host: String,
    },
    /// The endpoint's host is a non-standard numeric address.
    AmbiguousHost {
        /// The host.
        host: String,
    },
    /// The endpoint's host is a name other than `localhost`.
    HostName {
        /// The host.
        host: String,
    },
    /// The endpoint is not a valid `http://` URL.
    InvalidEndpoint,
    /// The model command could not be run or failed.
    Command,
    /// The server answered with a redirect.
    Redirect {
        /// The HTTP status.
        status: u16,
    },
    /// The server answered with an error status.
    Status {
        /// The HTTP status.
        status: u16,
    },
    /// No answer within a time-out.
    Timeout {
        /// Which: `connect` or `overall`.
        which: String,
    },
    /// The server could not be reached.
    Connection,
    /// No model is configured and the server has none.
    NoModels,
    /// The reply is larger than the cap.
    TooLarge {
        /// The cap, in bytes.
        limit: u64,
    },
    /// The reply is malformed.
    Malformed,
    /// The reply is empty.
    Empty,
}

impl LlmCause {
    /// The warning code of the cause.
    pub fn code(&self) -> WarningCode {
        match self {
            LlmCause::NonLoopback { .. }
            | LlmCause::AmbiguousHost { .. }
            | LlmCause::HostName { .. } => WarningCode::LlmBlockedNonloopback,
            LlmCause::InvalidEndpoint
            | LlmCause::Command
            | LlmCause::Redirect { .. }
            | LlmCause::Status { .. }
            | LlmCause::Timeout { .. }
            | LlmCause::Connection
            | LlmCause::NoModels => WarningCode::LlmUnavailable,
            LlmCause::TooLarge { .. } | LlmCause::Malformed | LlmCause::Empty => {
                WarningCode::LlmFailed
            }
        }
    }
}

/// What a warning says, as data; one variant per shape of message. `render` words each
/// in every language (`render::warning_text`). Paths and error texts are the cleaned,
/// redacted strings; `shell` names the history a warning is about.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WarningDetail {
    /// No identity is known, so commits by every author are shown.
    IdentityUnknown,
    /// git could not read a repository.
    Git {
        /// The repository's work tree (or git dir).
        path: String,
        /// What git (or running it) said.
        error: String,
    },
    /// git could not tell a repository's work in progress (`git status`); its commits
    /// were read, or had nothing to read.
    GitWip {
        /// The repository's work tree.
        path: String,
        /// What git (or running it) said.
        error: String,
    },
    /// A file or folder could not be read.
    Unreadable {
        /// The shell history it is, if one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        shell: Option<Shell>,
        /// The file or folder.
        path: String,
        /// What the system (or SQLite) said.
        error: String,
    },
    /// Something other than a regular file sits where a file is expected.
    NotRegular {
        /// The shell history it is, if one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        shell: Option<Shell>,
        /// The path.
        path: String,
        /// What is there.
        file: FileKind,
    },
    /// A small metadata file larger than it can legitimately be.
    TooLarge {
        /// The shell history it is, if one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        shell: Option<Shell>,
        /// The file.
        path: String,
        /// The cap, in bytes.
        limit: u64,
    },
    /// A `.git` file that does not name a git dir.
    NotGitFile {
        /// The shell history it is, if one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        shell: Option<Shell>,
        /// The `.git` file.
        path: String,
    },
    /// Lines longer than the cap were skipped.
    LinesTooLong {
        /// The shell history it is, if one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        shell: Option<Shell>,
        /// The file.
        path: String,
        /// Lines skipped.
        count: u64,
        /// The 1-based number of the first.
        line: u64,
        /// The cap, in bytes.
        limit: u64,
    },
    /// Malformed lines of a JSON Lines file were skipped.
    MalformedLines {
        /// The file.
        path: String,
        /// Lines skipped.
        count: u64,
        /// The 1-based number of the first.
        line: u64,
    },
    /// Records of an agent's log whose time is there but is not a time were skipped.
    UnreadableTimes {
        /// The file.
        path: String,
        /// The field that held no time (of the first such record).
        key: String,
        /// Records skipped.
        count: u64,
        /// The 1-based line of the first, for a JSON Lines file.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        line: Option<u64>,
    },
    /// A JSON file that is not valid JSON was skipped.
    MalformedFile {
        /// The file.
        path: String,
    },
    /// Malformed entries of a shell history were skipped.
    MalformedEntries {
        /// The shell.
        shell: Shell,
        /// The history file.
        path: String,
        /// Entries skipped.
        count: u64,
        /// The 1-based line of the first, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        line: Option<u64>,
    },
    /// A shell history holds entries without a time.
    UndatedEntries {
        /// The shell.
        shell: Shell,
        /// The history file.
        path: String,
        /// Entries without a time.
        count: u64,
        /// They all come before the file's first dated entry, which is older than the
        /// window: written before the shell recorded times (it does now), and older than
        /// the window. `doctor` notes them; the report does not warn.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        before_times: bool,
    },
    /// A shell history was not written since the window began.
    HistoryStale {
        /// The shell.
        shell: Shell,
        /// The history file.
        path: String,
    },
    /// Reading a shell history stopped before its end.
    StoppedEarly {
        /// The shell.
        shell: Shell,
        /// The history file.
        path: String,
        /// What the system said.
        error: String,
    },
    /// atuin's config file could not be read; the database is looked for in the
    /// default place.
    AtuinConfig {
        /// What was wrong (naming the file).
        error: String,
    },
    /// Rows of atuin's database without a usable time or command were skipped.
    AtuinRows {
        /// The database.
        path: String,
        /// Rows skipped.
        count: u64,
    },
    /// A `[git] exclude` glob is not valid and was ignored.
    ExcludeGlob {
        /// The glob.
        pattern: String,
        /// Why it is not valid.
        error: String,
    },
    /// `HOME` is not set; the user database's home folder is used.
    HomeUnset {
        /// The home folder used.
        path: String,
    },
    /// `HOME` is not set and the user database names no home folder.
    HomeMissing,
    /// `HOME` names no folder (a service or a container given one that is not there):
    /// nothing under it can be read.
    HomeNotFound {
        /// `HOME`'s value.
        path: String,
    },
    /// A day's notes file could not be read.
    NotesUnreadable {
        /// The file.
        path: String,
        /// What was wrong.
        error: String,
    },
    /// `TZ` names no usable time zone; the system's is used.
    TimeZoneUnusable {
        /// `TZ` as set.
        tz: String,
        /// The system's time zone used instead.
        zone: String,
    },
    /// The report's last day is after today.
    DateInFuture {
        /// The last day asked for.
        date: Date,
        /// Now, local (`YYYY-MM-DD HH:MM`).
        now: String,
    },
    /// The LLM client gave no answer.
    Llm {
        /// Why.
        cause: LlmCause,
        /// The client's own words (the operating system's included).
        error: String,
    },
    /// The prompt could not be built; nothing was sent.
    PromptFailed {
        /// Why.
        error: String,
    },
    /// The model's reply was empty after cleaning.
    EmptyReply,
    /// The model's reply failed the checks as a whole.
    Rejected {
        /// Why.
        reason: Rejection,
    },
    /// Sentences (and possible blockers) of the narrative were left out.
    SentencesDropped {
        /// Sentences left out.
        dropped: u32,
        /// Sentences in the reply.
        total: u32,
        /// Why they were left out: reason and count.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        reasons: BTreeMap<String, u64>,
        /// Possible blockers left out.
        #[serde(default)]
        blockers_dropped: u32,
        /// Possible blockers offered.
        #[serde(default)]
        blockers: u32,
        /// Why they were left out: reason and count.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        blocker_reasons: BTreeMap<String, u64>,
    },
    /// A machine could not be reached over ssh.
    MachineUnreachable {
        /// The machine.
        machine: String,
        /// What ssh said.
        error: String,
    },
    /// A machine did not answer within its deadline.
    MachineTimedOut {
        /// The machine.
        machine: String,
        /// The deadline, in seconds.
        seconds: u64,
    },
    /// A machine has no `standup` on its `PATH`.
    MachineNoStandup {
        /// The machine.
        machine: String,
        /// The command asked for.
        command: String,
    },
    /// A machine's (or a ledger entry's) report has another schema version.
    MachineSchemaMismatch {
        /// The machine.
        machine: String,
        /// Whether the report is a ledger entry (else a machine's answer).
        #[serde(default)]
        ledger: bool,
        /// The version found.
        found: String,
        /// The version this standup reads.
        expected: u32,
    },
    /// A machine's answer was not a report.
    MachineFailed {
        /// The machine.
        machine: String,
        /// What was wrong.
        error: String,
    },
    /// A machine answered with a report of another kind.
    MachineOtherKind {
        /// The machine.
        machine: String,
    },
    /// The ledger folder could not be read.
    LedgerFolderUnreadable {
        /// The folder.
        path: String,
        /// What the system said.
        error: String,
    },
    /// A ledger entry could not be read.
    LedgerEntryUnreadable {
        /// The entry, `<machine>/<date>.json`.
        path: String,
        /// What was wrong.
        error: String,
    },
    /// A ledger entry is not a report of its day.
    LedgerWrongDate {
        /// The entry, `<machine>/<date>.json`.
        path: String,
        /// The day it should cover.
        date: Date,
        /// The days it covers.
        found: String,
    },
    /// A warning read from an older report: its code, English message and parameters.
    Legacy {
        /// Its code.
        code: WarningCode,
        /// Its English message.
        message: String,
        /// Its parameters.
        #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
        params: BTreeMap<String, String>,
    },
    /// A detail of a newer version, read back as [`WarningDetail::Legacy`]; never made.
    #[doc(hidden)]
    #[serde(other)]
    #[cfg_attr(feature = "schema", schemars(skip))]
    Unknown,
}

impl WarningDetail {
    /// The warning code of the detail.
    pub fn code(&self) -> WarningCode {
        use WarningDetail as D;
        match self {
            D::IdentityUnknown => WarningCode::IdentityUnknown,
            D::Git { .. } | D::GitWip { .. } => WarningCode::GitFailed,
            D::Unreadable { .. }
            | D::NotRegular { .. }
            | D::TooLarge { .. }
            | D::NotGitFile { .. }
            | D::StoppedEarly { .. }
            | D::ExcludeGlob { .. }
            | D::AtuinConfig { .. }
            | D::HomeUnset { .. }
            | D::HomeMissing
            | D::HomeNotFound { .. }
            | D::NotesUnreadable { .. }
            | D::Unknown => WarningCode::SourceUnreadable,
            D::LinesTooLong { .. }
            | D::MalformedLines { .. }
            | D::MalformedFile { .. }
            | D::UnreadableTimes { .. }
            | D::MalformedEntries { .. }
            | D::AtuinRows { .. } => WarningCode::MalformedLines,
            D::UndatedEntries { .. } => WarningCode::UndatedEntries,
            D::HistoryStale { .. } => WarningCode::HistoryStale,
            D::TimeZoneUnusable { .. } => WarningCode::TimeZoneUnusable,
            D::DateInFuture { .. } => WarningCode::DateInFuture,
            D::Llm { cause, .. } => cause.code(),
            D::PromptFailed { .. } | D::EmptyReply => WarningCode::LlmFailed,
            D::Rejected { .. } => WarningCode::LlmRejected,
            D::SentencesDropped { .. } => WarningCode::LlmSentencesDropped,
            D::MachineUnreachable { .. } => WarningCode::MachineUnreachable,
            D::MachineTimedOut { .. } => WarningCode::MachineTimedOut,
            D::MachineNoStandup { .. } => WarningCode::MachineNoStandup,
            D::MachineSchemaMismatch { .. } => WarningCode::MachineSchemaMismatch,
            D::MachineFailed { .. } | D::MachineOtherKind { .. } => WarningCode::MachineFailed,
            D::LedgerFolderUnreadable { .. }
            | D::LedgerEntryUnreadable { .. }
            | D::LedgerWrongDate { .. } => WarningCode::LedgerUnreadable,
            D::Legacy { code, .. } => *code,
        }
    }

    /// The file, folder or repository the detail names, if any.
    pub fn path(&self) -> Option<&str> {
        use WarningDetail as D;
        match self {
            D::Git { path, .. }
            | D::GitWip { path, .. }
            | D::Unreadable { path, .. }
            | D::NotRegular { path, .. }
            | D::TooLarge { path, .. }
            | D::NotGitFile { path, .. }
            | D::LinesTooLong { path, .. }
            | D::MalformedLines { path, .. }
            | D::MalformedFile { path }
            | D::UnreadableTimes { path, .. }
            | D::MalformedEntries { path, .. }
            | D::UndatedEntries { path, .. }
            | D::HistoryStale { path, .. }
            | D::StoppedEarly { path, .. }
            | D::AtuinRows { path, .. }
            | D::HomeUnset { path }
            | D::HomeNotFound { path }
            | D::NotesUnreadable { path, .. }
            | D::LedgerFolderUnreadable { path, .. }
            | D::LedgerEntryUnreadable { path, .. }
            | D::LedgerWrongDate { path, .. } => Some(path),
            D::Legacy { params, .. } => params.get("path").map(String::as_str),
            _ => None,
        }
    }

    /// The machine the detail is about (the `machine_*` codes).
    pub fn machine(&self) -> Option<&str> {
        use WarningDetail as D;
        match self {
            D::MachineUnreachable { machine, .. }
            | D::MachineTimedOut { machine, .. }
            | D::MachineNoStandup { machine, .. }
            | D::MachineSchemaMismatch { machine, .. }
            | D::MachineFailed { machine, .. }
            | D::MachineOtherKind { machine } => Some(machine),
            _ => None,
        }
    }

    /// Calls `clean` on every string of the detail that came from outside (paths, error
    /// texts, globs, hosts, commands, machine names, an older report's message and
    /// parameters), with whether the text shows it `` `quoted` `` (a quoted part is
    /// shortened to one line; an error text is not). The clean step walks them with it.
    pub fn for_each_text(&mut self, mut clean: impl FnMut(&mut String, bool)) {
        use WarningDetail as D;
        match self {
            D::IdentityUnknown
            | D::HomeMissing
            | D::EmptyReply
            | D::Rejected { .. }
            | D::SentencesDropped { .. }
            | D::Unknown => {}
            D::NotRegular { path, .. }
            | D::TooLarge { path, .. }
            | D::NotGitFile { path, .. }
            | D::LinesTooLong { path, .. }
            | D::MalformedLines { path, .. }
            | D::MalformedFile { path }
            | D::MalformedEntries { path, .. }
            | D::UndatedEntries { path, .. }
            | D::HistoryStale { path, .. }
            | D::AtuinRows { path, .. }
            | D::HomeUnset { path }
            | D::HomeNotFound { path } => clean(path, true),
            D::Git { path, error }
            | D::GitWip { path, error }
            | D::Unreadable { path, error, .. }
            | D::StoppedEarly { path, error, .. }
            | D::NotesUnreadable { path, error }
            | D::LedgerFolderUnreadable { path, error }
            | D::LedgerEntryUnreadable { path, error } => {
                clean(path, true);
                clean(error, false);
            }
            D::ExcludeGlob { pattern, error } => {
                clean(pattern, true);
                clean(error, false);
            }
            D::UnreadableTimes { path, key, .. } => {
                clean(path, true);
                clean(key, true);
            }
            D::TimeZoneUnusable { tz, zone } => {
                clean(tz, true);
                clean(zone, false);
            }
            D::DateInFuture { now, .. } => clean(now, false),
            D::Llm { cause, error } => {
                match cause {
                    LlmCause::NonLoopback { host }
                    | LlmCause::AmbiguousHost { host }
                    | LlmCause::HostName { host } => clean(host, true),
                    LlmCause::Timeout { which } => clean(which, false),
                    _ => {}
                }
                clean(error, false);
            }
            D::PromptFailed { error } | D::AtuinConfig { error } => clean(error, false),
            D::MachineUnreachable { machine, error } | D::MachineFailed { machine, error } => {
                clean(machine, true);
                clean(error, false);
            }
            D::MachineTimedOut { machine, .. } | D::MachineOtherKind { machine } => {
                clean(machine, true);
            }
            D::MachineNoStandup { machine, command } => {
                clean(machine, true);
                clean(command, true);
            }
            D::MachineSchemaMismatch { machine, found, .. } => {
                clean(machine, true);
                clean(found, false);
            }
            D::LedgerWrongDate { path, found, .. } => {
                clean(path, true);
                clean(found, false);
            }
            D::Legacy { message, params, .. } => {
                clean(message, false);
                for value in params.values_mut() {
                    clean(value, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_older_reports_warning_is_read_as_legacy_with_its_machine() {
        let old = r#"{"code":"history_stale","message":"zsh: stale","params":{"source":"zsh","machine":"devbox"}}"#;
        let warning: Warning = serde_json::from_str(old).unwrap();
        assert_eq!(warning.code(), WarningCode::HistoryStale);
        assert_eq!(warning.machine.as_deref(), Some("devbox"));
        assert_eq!(
            warning.detail,
            WarningDetail::Legacy {
                code: WarningCode::HistoryStale,
                message: "zsh: stale".to_owned(),
                params: BTreeMap::from([("source".to_owned(), "zsh".to_owned())]),
            }
        );
        let newer = r#"{"code":"git_failed","message":"git: new","detail":{"kind":"from_the_future","x":1}}"#;
        let warning: Warning = serde_json::from_str(newer).unwrap();
        assert!(
            matches!(warning.detail, WarningDetail::Legacy { ref message, .. } if message == "git: new")
        );
        assert_eq!(warning.code(), WarningCode::GitFailed);
    }

    #[test]
    fn a_detail_round_trips_and_equality_ignores_the_message() {
        let mut warning = Warning::new(WarningDetail::UndatedEntries {
            shell: Shell::Zsh,
            path: "/h/.zsh_history".to_owned(),
            count: 3,
            before_times: false,
        });
        let plain = warning.clone();
        warning.set_message("zsh: 3 undated entries …".to_owned());
        assert_eq!(warning, plain);
        let json = serde_json::to_string(&warning).unwrap();
        assert_eq!(
            json,
            r#"{"code":"undated_entries","message":"zsh: 3 undated entries …","detail":{"kind":"undated_entries","shell":"zsh","path":"/h/.zsh_history","count":3}}"#
        );
        let back: Warning = serde_json::from_str(&json).unwrap();
        assert_eq!(back, warning);
        assert_eq!(back.message(), "zsh: 3 undated entries …");
    }
}
