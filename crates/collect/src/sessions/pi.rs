//! pi (`@mariozechner/pi-coding-agent`): `<agent dir>/sessions/--<cwd>--/<time>_<id>.jsonl`,
//! where the agent dir is `$PI_CODING_AGENT_DIR` (`~` expanded), else `~/.pi/agent`.
//!
//! Verified against the published 0.73.1 package (`dist/config.js` `getAgentDir`,
//! `dist/core/session-manager.{js,d.ts}`, `dist/core/messages.d.ts`) and the source at
//! `github:badlogic/pi-mono` `packages/coding-agent/src/core/session-manager.ts`
//! (0.58.3), and against session files of 0.82.0 published by others:
//!
//! - The folder of a cwd is `--` + the cwd without its leading `/`, with `/`, `\` and
//!   `:` replaced by `-`, + `--` (lossy: the cwd comes from the header, not the name).
//! - The first line is the header `{type: "session", version, id, timestamp, cwd,
//!   parentSession?}`; `version` is the session *format* version (3), not pi's, and pi
//!   names its own version nowhere in the file, so nothing is noted as a version.
//! - Every other line is an entry `{type, id, parentId, timestamp, …}` (a tree by
//!   `id`/`parentId`): `message` (`message.role` `user`, `assistant`, `toolResult`,
//!   `bashExecution`, `custom`, `branchSummary`, `compactionSummary`),
//!   `thinking_level_change`, `model_change` (`provider`, `modelId`), `compaction`,
//!   `branch_summary`, `custom`, `custom_message` (an extension's message), `label` and
//!   `session_info` (`name`). Unknown entry types and roles are noted.
//! - Prompts are the `message` entries of role `user`; tool results, `!` shell runs
//!   (`bashExecution`), extensions' messages and summaries are not. A message carries its
//!   own `timestamp` (epoch milliseconds, when it was typed or queued) besides the
//!   entry's (ISO, when it was written): a message queued while the agent worked is
//!   written up to several seconds later. It is counted once, at the entry's time,
//!   which is also its activity time; the message's own time is not used.
//! - Models: the assistant messages' `model` and `model_change` `modelId`, in the window.
//! - Title: the latest `session_info` `name` (an empty one clears it, as `/name` does),
//!   else the first prompt.
//! - Failed commands: an assistant message's `toolCall` block named `bash` (`id`,
//!   `arguments.command`) and the `toolResult` message with that `toolCallId`
//!   (`toolName: "bash"`): not `isError`, the command passed; `isError` with a text
//!   ending `Command exited with code N`, it exited with N (verified in
//!   `fixtures/agents/pi/0.73.1/`, the third session's `sh check.sh`, and in the bundle's
//!   `bash` tool); another error tells no status. The person's own `!` runs
//!   (`bashExecution`) are not the agent's and are not read.
//! - A fork (`/fork`, a branch of the tree, `--fork` from another folder: `newSession`,
//!   `createBranchedSession`, `forkFrom`) is a new file whose header names the session it
//!   was made from (`parentSession`, a path) and is dated when it was made; it copies that
//!   session's entries, times and all (0.73.1's `session-manager.js`). The entries dated
//!   before such a header are the other session's, read in its own file: only a copied
//!   prompt's text is used (for the title), and a copied name still names the fork.
//! - Not read: a `sessionDir` set in pi's `settings.json` (or `--session-dir`), which
//!   moves sessions elsewhere.

use std::path::{Path, PathBuf};

use report_model::Agent;
use serde::Deserialize;

use super::jsonl::{self, LineError, Stats};
use super::lenient::{self, LBool, LNum, LStr, Object, Text};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, agent_home, config_path};
use crate::{Env, SourceStatus};
use serde_json::value::RawValue;

/// One line of a session file: the header or an entry.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Line<'a> {
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    #[serde(borrow)]
    id: LStr<'a>,
    #[serde(borrow)]
    timestamp: LStr<'a>,
    #[serde(borrow)]
    cwd: LStr<'a>,
    /// The header of a fork: the file of the session it was made from.
    #[serde(borrow)]
    parent_session: LStr<'a>,
    /// `session_info`'s name.
    name: Option<LStr<'a>>,
    /// `model_change`'s model.
    #[serde(borrow)]
    model_id: LStr<'a>,
    #[serde(borrow)]
    message: Option<Message<'a>>,
}

/// The fields of a `message` entry's message that the reader uses.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Message<'a> {
    #[serde(borrow)]
    role: LStr<'a>,
    #[serde(borrow)]
    model: LStr<'a>,
    /// A string or a list of blocks: decoded as text for a prompt or a tool result, as
    /// blocks for an assistant's `bash` calls.
    #[serde(borrow)]
    content: Option<&'a RawValue>,
    /// A `toolResult`'s call id, tool and whether it is an error.
    #[serde(borrow)]
    tool_call_id: LStr<'a>,
    #[serde(borrow)]
    tool_name: LStr<'a>,
    is_error: LBool,
    /// OpenClaw's own fields of a message (`senderIsOwner` on a user message).
    #[serde(rename = "__openclaw")]
    openclaw: Object<OpenClawFields>,
    /// Where a user message came from when it was not typed (OpenClaw: another
    /// session, a hand-off).
    #[serde(borrow)]
    provenance: Option<&'a RawValue>,
    /// A tool result's details (OpenClaw's `exec`: `exitCode`).
    details: Object<Details>,
}

/// OpenClaw's `__openclaw` of a message.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct OpenClawFields {
    /// Whether the sender is the owner (the person): `false` for someone else writing
    /// on a chat channel.
    sender_is_owner: Option<LBool>,
}

/// A tool result's `details`.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Details {
    exit_code: LNum,
}

impl Message<'_> {
    /// The content as text (blank when absent or unreadable).
    fn text(&self) -> Text {
        self.content.and_then(|raw| serde_json::from_str(raw.get()).ok()).unwrap_or_default()
    }
}

/// A block of an assistant message: a `toolCall` names its tool and carries its
/// arguments.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Block<'a> {
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    #[serde(borrow)]
    id: LStr<'a>,
    #[serde(borrow)]
    name: LStr<'a>,
    #[serde(borrow)]
    arguments: Option<&'a RawValue>,
}

/// The arguments of a shell call: `{"command", "timeout"?}` (pi's `bash`, OpenClaw's
/// `exec`, which has more).
#[derive(Deserialize, Default)]
#[serde(default)]
struct BashArgs<'a> {
    #[serde(borrow)]
    command: LStr<'a>,
}

/// The calls of the shell tool `tool` in an assistant message's blocks (call id,
/// command), found by a byte scan first.
fn shell_calls(content: Option<&RawValue>, tool: &str) -> Vec<(String, String)> {
    let quoted = format!("\"{tool}\"");
    let Some(content) = content.filter(|raw| raw.get().contains(&quoted)) else {
        return Vec::new();
    };
    let Ok(blocks) = serde_json::from_str::<Vec<Block>>(content.get()) else {
        return Vec::new();
    };
    blocks
        .iter()
        .filter(|block| block.kind.is("toolCall") && block.name.is(tool))
        .filter_map(|block| {
            let args: BashArgs = serde_json::from_str(block.arguments?.get()).ok()?;
            Some((block.id.get()?.to_owned(), args.command.get()?.to_owned()))
        })
        .collect()
}

/// The exit status a `bash` tool result tells: 0 when it is no error; N when its text
/// ends with `Command exited with code N` (pi's `bash` tool throws that on a non-zero
/// exit); none for another error (a cancel, a timeout).
fn bash_exit(message: &Message) -> Option<i64> {
    if !message.is_error.0 {
        return Some(0);
    }
    let text = message.text().value;
    let (_, code) = text.rsplit_once("Command exited with code ")?;
    code.trim().parse().ok()
}

/// The entry types of 0.73.1.
const KNOWN_TYPES: [&str; 10] = [
    "session",
    "message",
    "thinking_level_change",
    "model_change",
    "compaction",
    "branch_summary",
    "custom",
    "custom_message",
    "label",
    "session_info",
];

/// The message roles of 0.73.1.
const KNOWN_ROLES: [&str; 7] = [
    "user",
    "assistant",
    "toolResult",
    "bashExecution",
    "custom",
    "branchSummary",
    "compactionSummary",
];

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let home: PathBuf = agent_home(env, config, Agent::Pi, || {
        env.var("PI_CODING_AGENT_DIR").map_or_else(
            || env.home.join(".pi").join("agent"),
            |dir| config_path(env, Path::new(dir)),
        )
    });
    let mut status = SourceStatus {
        locations: vec![home.clone()],
        ..SourceStatus::new(report_model::Source::Pi)
    };
    let mut drafts = Drafts::new();
    let sessions = home.join("sessions");
    if !sessions.is_dir() {
        return (drafts, status);
    }
    status.found = true;
    let mut counts = Stats::default();
    for (folder, kind) in ctx.list_dir_typed(&sessions) {
        let is_dir = kind.is_dir() || (kind.is_symlink() && folder.is_dir());
        if !is_dir {
            continue;
        }
        let mut listed = super::list_fresh(&folder, ctx.since).unwrap_or_else(|error| {
            ctx.fail(error);
            super::Fresh::default()
        });
        if let Some(error) = listed.broken.take() {
            ctx.fail(error);
        }
        for (name, kind, fresh) in listed.iter() {
            let Some(stem) = super::jsonl_stem(Path::new(name)) else { continue };
            if super::is_folder(kind, || folder.join(name)) {
                continue;
            }
            status.files += 1;
            if fresh {
                let session =
                    read_session(ctx, &mut counts, &folder.join(name), &stem, &mut status);
                add_draft(&mut drafts, session);
            }
        }
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// Reads one session file. Without a header, the id is what follows the last `_` of the
/// file name (`<time>_<id>.jsonl`).
fn read_session(
    ctx: &mut Ctx,
    counts: &mut Stats,
    path: &Path,
    stem: &str,
    status: &mut SourceStatus,
) -> Draft {
    let default_id = stem.rsplit_once('_').map_or(stem, |(_, id)| id);
    read_entries_file(ctx, counts, path, Draft::new(Agent::Pi, default_id), Flavor::Pi, status)
}

/// Reads a file of pi's entries into `session` (its id, when the file has no header):
/// pi's own, or OpenClaw's from the releases that kept its transcripts as files.
pub(super) fn read_entries_file(
    ctx: &mut Ctx,
    counts: &mut Stats,
    path: &Path,
    session: Draft,
    flavor: Flavor,
    status: &mut SourceStatus,
) -> Draft {
    let since = ctx.since;
    let mut entries = Entries::new(session, flavor);
    jsonl::read_lines(ctx, counts, path, |bytes| entries.entry(bytes, since, status));
    entries.session
}

/// Whose entries: pi's own, or OpenClaw's (the same entries, in its database), which
/// differ in the shell tool, how its result tells the exit status, and whose messages
/// are the person's.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Flavor {
    Pi,
    OpenClaw,
}

impl Flavor {
    /// Whether a user message is a prompt the person typed: every one in pi; in
    /// OpenClaw the owner's (`senderIsOwner`), or, where that is not said, one that came
    /// from nowhere else (no `provenance`).
    fn typed(self, message: &Message) -> bool {
        match (self, message.openclaw.0.as_ref().and_then(|fields| fields.sender_is_owner)) {
            (Flavor::Pi, _) => true,
            (Flavor::OpenClaw, Some(owner)) => owner.0,
            (Flavor::OpenClaw, None) => message.provenance.is_none(),
        }
    }

    /// The exit status a shell result tells: pi's from its error text ([`bash_exit`]),
    /// OpenClaw's `details.exitCode` (none while the command runs on, or when a signal
    /// ended it).
    fn exit(self, message: &Message) -> Option<i64> {
        match self {
            Flavor::Pi => bash_exit(message),
            Flavor::OpenClaw => message.details.0.as_ref()?.exit_code.as_i64(),
        }
    }

    /// The agent's shell tool: pi's `bash`, OpenClaw's `exec`.
    fn shell_tool(self) -> &'static str {
        match self {
            Flavor::Pi => "bash",
            Flavor::OpenClaw => "exec",
        }
    }
}

/// What one session's entries told so far, read one at a time.
pub(super) struct Entries {
    pub(super) session: Draft,
    flavor: Flavor,
    header_seen: bool,
    /// A fork's own time (its header's, when the header names the session it was made
    /// from): the entries dated before it are copies of that session's.
    forked_at: Option<jiff::Timestamp>,
    /// The shell calls not yet answered, by call id.
    calls: std::collections::HashMap<String, String>,
}

impl Entries {
    pub(super) fn new(session: Draft, flavor: Flavor) -> Entries {
        Entries {
            session,
            flavor,
            header_seen: false,
            forked_at: None,
            calls: std::collections::HashMap::new(),
        }
    }

    /// Reads one entry (`bytes`, its JSON); records of the window (at or after `since`)
    /// are activity, and what the reader does not know is noted in `status`.
    pub(super) fn entry(
        &mut self,
        bytes: &[u8],
        since: jiff::Timestamp,
        status: &mut SourceStatus,
    ) -> Result<(), LineError> {
        let line: Line = serde_json::from_slice(bytes)?;
        let session = &mut self.session;
        // A time that is no time: read as an undated entry, and warned about.
        let (time, not_a_time) = lenient::or_undated(line.timestamp.time("timestamp"));
        // A fork's copies of the other session's entries, which are that session's (read
        // in its own file): only a prompt's text is used, for the title.
        let copied = self.forked_at.is_some_and(|fork| time.is_some_and(|time| time < fork));
        if copied && line.kind.is("message") {
            let message = line.message.unwrap_or_default();
            if let (true, Some(time)) =
                (message.role.is("user") && self.flavor.typed(&message), time)
            {
                session.note_prompt_text(time, &message.text().value);
            }
            return Ok(());
        }
        let in_window = !copied && time.is_some_and(|time| time >= since);
        match line.kind.get().unwrap_or_default() {
            "session" if !self.header_seen => {
                self.header_seen = true;
                if let Some(id) = line.id.get() {
                    id.clone_into(&mut session.session_id);
                }
                session.cwd = line.cwd.get().map(PathBuf::from);
                if line.parent_session.get().is_some() {
                    self.forked_at = time;
                }
            }
            "session_info" => {
                // The latest name wins; an empty or missing one clears it.
                session.title =
                    line.name.and_then(LStr::into_owned).map(|name| name.trim().to_owned());
                session.title = session.title.take().filter(|name| !name.is_empty());
            }
            "model_change" => {
                if let (true, Some(model)) = (in_window, line.model_id.get()) {
                    session.note_model(model);
                }
            }
            "message" => {
                let message = line.message.unwrap_or_default();
                let shell = self.flavor.shell_tool();
                match message.role.get().unwrap_or_default() {
                    "user" => {
                        if let (Some(time), true) = (time, self.flavor.typed(&message)) {
                            if in_window {
                                session.prompts.push(time);
                            }
                            session.note_prompt_text(time, &message.text().value);
                        }
                    }
                    "assistant" => {
                        if let (true, Some(model)) = (in_window, message.model.get()) {
                            session.note_model(model);
                        }
                        self.calls.extend(shell_calls(message.content, shell));
                    }
                    "toolResult" if message.tool_name.is(shell) => {
                        let id = message.tool_call_id.get();
                        let command = id.and_then(|id| self.calls.remove(id));
                        if let (Some(time), Some(command), Some(exit)) =
                            (time, command, self.flavor.exit(&message))
                        {
                            session.note_command(time, &command, exit);
                        }
                    }
                    role if !role.is_empty() && !KNOWN_ROLES.contains(&role) => {
                        status.note_unknown(&format!("message role {role}"));
                    }
                    _ => {}
                }
            }
            kind if !kind.is_empty() && !KNOWN_TYPES.contains(&kind) => status.note_unknown(kind),
            _ => {}
        }
        if let (true, Some(time)) = (in_window, time) {
            session.activity.push(time);
        }
        not_a_time?;
        Ok(())
    }
}
