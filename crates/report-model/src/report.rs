//! The `Report`: what aggregation builds and what render prints.

use std::path::PathBuf;

use jiff::{Timestamp, civil::Date};
use serde::{Deserialize, Serialize};

use crate::event::{Agent, TodoStatus, is_false, is_zero};
use crate::kinds::MaskedSource;
use crate::outlook::Outlook;
use crate::warning::Warning;

/// Version of the JSON form of [`Report`]. Bumped on any incompatible change.
pub const SCHEMA_VERSION: u32 = 1;

/// Which report this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReportKind {
    /// One calendar day.
    Daily,
    /// The previous working day and today.
    Standup,
    /// The days of one week (`standup week`), one bucket per day.
    Week,
    /// The days from `--since` to `--until` (`standup daily --since`), one bucket per day.
    Range,
}

/// A half-open time range `[start, end)` covering one local day (a standup's previous
/// bucket: from its working day up to today; a bucket of today: up to now).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Window {
    /// The local calendar date the window covers.
    pub date: Date,
    /// First instant inside the window.
    pub start: Timestamp,
    /// First instant after the window.
    pub end: Timestamp,
}

impl Window {
    /// Whether `time` falls inside `[start, end)`.
    pub fn contains(&self, time: Timestamp) -> bool {
        self.start <= time && time < self.end
    }
}

/// Which part of a report a bucket is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum BucketKind {
    /// The single day of a daily report.
    Day,
    /// The standup's previous working day.
    PreviousWorkday,
    /// The standup's today.
    Today,
}

/// The activity of one window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Bucket {
    /// Which part of the report this is.
    pub kind: BucketKind,
    /// The window the activity falls in.
    pub window: Window,
    /// Projects, most recent activity first.
    pub projects: Vec<Project>,
    /// Shell commands grouped by head, most frequent first.
    pub shell: Vec<ShellGroup>,
    /// Sums over the bucket.
    pub totals: Totals,
    /// The last local date the window covers, when it spans more than one day (a
    /// standup's previous working day followed by a weekend or holidays).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub through: Option<Date>,
    /// Estimated active time over every project of the bucket taken together.
    #[serde(default)]
    pub time_spent: TimeSpent,
    /// Possible blockers found in the evidence of commands run outside any project (shown
    /// with the bucket's shell commands); only on the last bucket with such commands.
    /// Empty when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blockers: Vec<Blocker>,
}

impl Bucket {
    /// Whether the bucket holds no activity at all.
    pub fn is_empty(&self) -> bool {
        self.projects.is_empty() && self.shell.is_empty()
    }
}

/// One project: a repository (worktrees folded in) or a working folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Project {
    /// Folder name of the repository's main work tree; empty (with an empty `path`) for
    /// sessions whose working directory is unknown.
    pub name: String,
    /// The parent folders that tell this project apart from another of the report with
    /// the same `name` (`acme/web` for `~/src/acme/web/api` beside `~/src/oss/web/api`):
    /// the fewest last folders of the path's parent, as many for each project of that
    /// name, that differ between them all, joined by `/`. Absent when the name is the
    /// report's only one; the report shows `name (qualifier)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qualifier: Option<String>,
    /// Absolute path of the project.
    pub path: PathBuf,
    /// The repository's remote URL, normalized (`host/owner/name`: no scheme, user,
    /// port or `.git` suffix), when it has one: how the same repository is recognized
    /// on another machine (`origin`'s, else the first remote's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remote: Option<String>,
    /// Time of the latest activity in the window.
    pub last_activity: Timestamp,
    /// Commits, newest first.
    pub commits: Vec<Commit>,
    /// Agent sessions, most recent activity first.
    pub sessions: Vec<Session>,
    /// Shell commands the person ran in the project (from histories that record a
    /// directory); an AI agent's are counted in `totals.agent_commands`.
    pub commands: u64,
    /// Sums over this project.
    pub totals: Totals,
    /// The project's shell commands (those whose working directory is inside it),
    /// grouped by head like the bucket's `shell`, which holds only the others.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shell: Vec<ShellGroup>,
    /// Estimated active time from the times of the project's events.
    #[serde(default)]
    pub time_spent: TimeSpent,
    /// Work in progress at report time, when the project's repository has any that
    /// belongs to this window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wip: Option<Wip>,
    /// Next steps: the open items (pending or in progress) of the newest to-do list of the
    /// project's last agent session that wrote one, in the agent's order, capped; only on
    /// the last bucket the project appears in. Empty when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub next: Vec<NextStep>,
    /// Possible blockers found in the evidence, without a model: a command that kept
    /// failing with no passing run after (on the last bucket the project appears in), a
    /// commit reverted the same day (on that day's bucket). Empty when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blockers: Vec<Blocker>,
}

/// A possible blocker read from the evidence alone (no model): never without evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Blocker {
    /// What was found.
    pub kind: BlockerKind,
    /// What it is about (cleaned and redacted): the command line that kept failing (its
    /// latest form; for an agent's, the command it ran), the subject of the commit that
    /// was reverted, or the title of the session left interrupted.
    pub text: String,
    /// What it rests on, in time order: each failed run of the command since the last
    /// passing one (an agent's: the session, at its first failed run, then each failed
    /// run); the commit and its revert; the session, at its interruption.
    pub evidence: Vec<Evidence>,
    /// Since when: the first of the failed runs; the time of the revert; the time of the
    /// interruption.
    pub time: Timestamp,
}

/// What kind of blocker the evidence shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum BlockerKind {
    /// The same command failed at least twice in a row, with no passing run after.
    FailingCommand,
    /// A commit was reverted in the same window (`Revert "<subject>"`), and not made again.
    RevertedCommit,
    /// The project's last agent session was interrupted by the person and not resumed.
    InterruptedSession,
    /// In the project's last agent session, a shell command the agent ran failed
    /// (at least twice in a row, or once as the last command it ran) with no passing run
    /// after.
    AgentFailingCommand,
}

/// One piece of evidence of a blocker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Evidence {
    /// A run of a shell command, with its exit status.
    Command {
        /// When it ran.
        time: Timestamp,
        /// Its exit status.
        exit: i64,
    },
    /// A commit.
    Commit {
        /// Full object id.
        hash: String,
        /// Author date.
        time: Timestamp,
    },
    /// An agent session.
    Session {
        /// The agent.
        agent: Agent,
        /// The agent's session id.
        session_id: String,
        /// Its last record in the report's windows.
        time: Timestamp,
    },
}

/// One next step of a project: an open item of an agent's to-do list, citing its session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NextStep {
    /// What is to be done (cleaned and redacted).
    pub text: String,
    /// Pending or in progress.
    pub status: TodoStatus,
    /// The agent whose list it is.
    pub agent: Agent,
    /// The session that wrote the list.
    pub session_id: String,
    /// When the list was written.
    pub time: Timestamp,
}

/// An estimate of active time: the spans of activity that events less than an idle gap
/// apart form, each counted at least a minimum length.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TimeSpent {
    /// The estimate, in minutes: the spans' lengths added up.
    pub minutes: u64,
    /// The spans, in time order.
    pub spans: Vec<Span>,
}

/// One span of activity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Span {
    /// The first event of the span.
    pub start: Timestamp,
    /// The last event of the span.
    pub end: Timestamp,
    /// How many events it joins.
    pub events: u64,
    /// What it counts for, in minutes: its length, or the minimum span when shorter.
    pub minutes: u64,
}

/// Work in progress of a project in a window: uncommitted files modified in the window,
/// stashes made in it, and the window's commits that no remote-tracking branch contains.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Wip {
    /// Files not committed that were modified in the window, sorted by path.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
    /// Messages of the stashes made in the window, newest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stashes: Vec<String>,
    /// The window's commits (the ones listed) that are not pushed.
    #[serde(default)]
    pub unpushed_commits: u64,
    /// A rebase, merge, cherry-pick or revert that stopped in the window and was still
    /// stopped at report time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<crate::Stopped>,
}

impl Wip {
    /// Whether there is nothing in progress.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
            && self.stashes.is_empty()
            && self.unpushed_commits == 0
            && self.stopped.is_none()
    }
}

/// One commit in a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Commit {
    /// Full object id.
    pub hash: String,
    /// Subject line.
    pub subject: String,
    /// Whether `subject` was shortened by the length cap.
    #[serde(default, skip_serializing_if = "is_false")]
    pub truncated: bool,
    /// Author date.
    pub author_time: Timestamp,
    /// Files changed.
    pub files_changed: u64,
    /// Lines inserted.
    pub insertions: u64,
    /// Lines deleted.
    pub deletions: u64,
    /// Whether this is a merge commit (only present with `include_merges`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub merge: bool,
    /// The local branches that contain the commit at report time (`main`), sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub branches: Vec<String>,
    /// The remote-tracking branches that contain the commit (`origin/main`), sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remote_branches: Vec<String>,
    /// Whether the repository has a remote and no remote-tracking branch contains it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub unpushed: bool,
    /// The machines the commit was seen on, sorted, when the report merges several
    /// (`standup daily --machines`); empty for one machine's report.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub machines: Vec<String>,
}

/// One agent session in a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Session {
    /// Which agent.
    pub agent: Agent,
    /// The agent's session id.
    pub session_id: String,
    /// Title.
    pub title: String,
    /// Whether `title` was shortened by the length cap.
    #[serde(default, skip_serializing_if = "is_false")]
    pub truncated: bool,
    /// User prompts inside the window.
    pub prompts: u64,
    /// First record inside the window.
    pub first: Timestamp,
    /// Last record inside the window.
    pub last: Timestamp,
    /// The models the session used, in the order first used; empty when unknown.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub models: Vec<String>,
    /// The git branch the agent recorded for the session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// The machines the session was seen on, sorted, when the report merges several;
    /// empty for one machine's report.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub machines: Vec<String>,
}

/// Shell commands sharing a head (`cargo test`, `git commit`, `make`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ShellGroup {
    /// The program, plus the sub-command for tools such as git and cargo.
    pub head: String,
    /// How many commands in the window had this head.
    pub count: u64,
    /// Up to a few distinct examples, most recent first.
    pub examples: Vec<String>,
    /// Whether an example was shortened by the length cap.
    #[serde(default, skip_serializing_if = "is_false")]
    pub truncated: bool,
    /// How many of them failed (a non-zero exit status, where the history records it).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub failed: u64,
    /// Whether an AI agent, not the person, ran these commands (they are grouped and
    /// counted apart from the person's).
    #[serde(default, skip_serializing_if = "is_false")]
    pub agent: bool,
    /// The machines the commands were run on, sorted, when the report merges several;
    /// empty for one machine's report.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub machines: Vec<String>,
}

/// Sums over a project, a bucket or a report.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Totals {
    /// Projects with activity.
    pub projects: u64,
    /// Commits.
    pub commits: u64,
    /// Files changed, summed over commits.
    pub files_changed: u64,
    /// Lines inserted.
    pub insertions: u64,
    /// Lines deleted.
    pub deletions: u64,
    /// Agent sessions.
    pub sessions: u64,
    /// User prompts in agent sessions.
    pub prompts: u64,
    /// Shell commands (after the ignore list).
    pub commands: u64,
    /// Shell commands an AI agent ran (after the ignore list), counted apart from
    /// `commands`, which holds only the person's.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub agent_commands: u64,
}

impl std::ops::AddAssign<&Totals> for Totals {
    /// Adds every count of `part` (projects too: the caller knows whether its parts
    /// can share a project).
    fn add_assign(&mut self, part: &Totals) {
        self.projects += part.projects;
        self.commits += part.commits;
        self.files_changed += part.files_changed;
        self.insertions += part.insertions;
        self.deletions += part.deletions;
        self.sessions += part.sessions;
        self.prompts += part.prompts;
        self.commands += part.commands;
        self.agent_commands += part.agent_commands;
    }
}

/// The stable machine code of a warning. The human message may change; the code may not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum WarningCode {
    /// No identity is configured and git has none: commits by every author are shown.
    IdentityUnknown,
    /// A repository git could not read.
    GitFailed,
    /// A source file or folder that exists could not be read.
    SourceUnreadable,
    /// Lines of a source file that could not be parsed.
    MalformedLines,
    /// History entries without a timestamp, which cannot be placed in a window.
    UndatedEntries,
    /// A history file not written since the window began (shells write on exit).
    HistoryStale,
    /// The LLM endpoint is not on loopback; nothing was sent.
    LlmBlockedNonloopback,
    /// The LLM server could not be reached or answered with an error.
    LlmUnavailable,
    /// The LLM answered with nothing usable.
    LlmFailed,
    /// The report's date lies after now: nothing can have been recorded yet.
    DateInFuture,
    /// The model's reply failed a whole-reply check (the message starts with the reason code);
    /// the report has no narrative.
    LlmRejected,
    /// Sentences (or blockers) of the model's reply failed the grounding checks and were
    /// left out (the message starts with how many).
    LlmSentencesDropped,
    /// `TZ` names no usable time zone; the system's is used instead.
    TimeZoneUnusable,
    /// A machine of `[[machines]]` could not be reached over ssh (or ssh failed).
    MachineUnreachable,
    /// A machine did not answer within its deadline; it was stopped.
    MachineTimedOut,
    /// A machine answered that it has no `standup` to run.
    MachineNoStandup,
    /// A machine's (or a ledger entry's) report has another schema version.
    MachineSchemaMismatch,
    /// A machine's answer was not a report (not JSON of the report's form).
    MachineFailed,
    /// A ledger entry (`<machine>/<date>.json`) or the ledger folder could not be read
    /// or is not a report of that day.
    LedgerUnreadable,
}

impl WarningCode {
    /// The code as it appears in JSON and in `standup: warning:` lines.
    pub fn as_str(self) -> &'static str {
        match self {
            WarningCode::IdentityUnknown => "identity_unknown",
            WarningCode::GitFailed => "git_failed",
            WarningCode::SourceUnreadable => "source_unreadable",
            WarningCode::MalformedLines => "malformed_lines",
            WarningCode::UndatedEntries => "undated_entries",
            WarningCode::HistoryStale => "history_stale",
            WarningCode::LlmBlockedNonloopback => "llm_blocked_nonloopback",
            WarningCode::LlmUnavailable => "llm_unavailable",
            WarningCode::LlmFailed => "llm_failed",
            WarningCode::DateInFuture => "date_in_future",
            WarningCode::LlmRejected => "llm_rejected",
            WarningCode::LlmSentencesDropped => "llm_sentences_dropped",
            WarningCode::TimeZoneUnusable => "time_zone_unusable",
            WarningCode::MachineUnreachable => "machine_unreachable",
            WarningCode::MachineTimedOut => "machine_timed_out",
            WarningCode::MachineNoStandup => "machine_no_standup",
            WarningCode::MachineSchemaMismatch => "machine_schema_mismatch",
            WarningCode::MachineFailed => "machine_failed",
            WarningCode::LedgerUnreadable => "ledger_unreadable",
        }
    }
}

/// The optional narrative a local LLM wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Narrative {
    /// The narrative text (cleaned and capped).
    pub text: String,
    /// Possible blockers the model found (standup only; empty when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blockers: Vec<String>,
    /// The model that wrote it.
    pub model: String,
}

/// How many secrets were masked in one kind of source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct MaskedCount {
    /// The source: `git`, `sessions`, `shell` or `warnings`.
    pub source: MaskedSource,
    /// Secrets masked.
    pub count: u64,
}

/// How and when the report was made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Meta {
    /// The version of standup that made it.
    pub version: String,
    /// When it was made.
    pub generated_at: Timestamp,
    /// The time zone windows were computed in (an IANA name, or an offset).
    pub time_zone: String,
    /// The model that wrote the narrative, or nothing for a deterministic report.
    pub llm_model: Option<String>,
    /// Secrets masked, per source; empty when none were.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secrets_masked: Vec<MaskedCount>,
    /// The machines whose days were merged into the report, this one first; empty for
    /// one machine's report.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub machines: Vec<String>,
}

/// A daily report or a standup update.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Report {
    /// Version of this JSON form.
    pub schema_version: u32,
    /// Daily or standup.
    pub kind: ReportKind,
    /// One bucket for a daily report; previous working day then today for a standup; one
    /// per day, in date order, for a week or a range.
    pub buckets: Vec<Bucket>,
    /// Sums over all buckets.
    pub totals: Totals,
    /// The narrative, when a local LLM wrote one.
    pub narrative: Option<Narrative>,
    /// Everything that could not be read or done.
    pub warnings: Vec<Warning>,
    /// Generation metadata.
    pub meta: Meta,
    /// Estimated active time over the whole report: the buckets' estimates added up.
    #[serde(default)]
    pub time_spent: TimeSpent,
    /// What the grounding checks did with the model's reply, when a model answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub narrative_check: Option<NarrativeCheck>,
    /// What looks forward beside the activity: the person's notes, the plans and
    /// blockers carried from earlier days, work left open and ticket keys.
    #[serde(default, skip_serializing_if = "crate::outlook::outlook_is_empty")]
    pub outlook: Outlook,
}

/// What the grounding checks (DESIGN §8.7a) did with a model's reply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NarrativeCheck {
    /// Whether a narrative came out of the reply.
    pub accepted: bool,
    /// Why the whole reply was rejected (`wrong_language`, `code`, `markup`, `json_dump`,
    /// `repetition`, `instruction_echo`, `nothing_supported`, `most_dropped`, `empty`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Whether the reply was JSON of the fixed schema (else it went down the plain-text path).
    pub structured: bool,
    /// Whether the reply came from the narrative cache.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cached: bool,
    /// Every sentence of the summary, in order, kept or dropped.
    pub sentences: Vec<CheckedSentence>,
    /// Every possible blocker the model offered, kept or dropped.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blockers: Vec<CheckedBlocker>,
}

/// One sentence of a model's summary and what the checks found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CheckedSentence {
    /// The sentence (cleaned and redacted).
    pub text: String,
    /// Whether it is in the narrative.
    pub kept: bool,
    /// Why it was dropped: `number`, `identifier`, `url`, `quote`, `unsupported`,
    /// `no_evidence`, `unknown_evidence`, `attribution`, `count`, `negation`, `scope`,
    /// `outcome`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    /// The evidence ids it cites (a structured reply); empty for plain text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<String>,
}

/// One possible blocker of a model's reply and what the checks found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CheckedBlocker {
    /// The blocker (cleaned and redacted).
    pub text: String,
    /// The evidence ids it cited.
    pub evidence: Vec<String>,
    /// Whether it is shown.
    pub kept: bool,
    /// Why it was dropped: `no_evidence`, `unknown_evidence`, `number`, `identifier`, `url`,
    /// `quote`, `too_many`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
}

impl Report {
    /// Whether no bucket holds any activity.
    pub fn is_empty(&self) -> bool {
        self.buckets.iter().all(Bucket::is_empty)
    }
}
