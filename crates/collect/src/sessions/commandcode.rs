//! Command Code (`command-code` on npm, the `cmd` command):
//! `<home>/projects/<slug of the cwd>/<session id>.jsonl`, where `<home>` is the config's
//! `commandcode` folder, else `~/.commandcode` (the agent itself has no variable that
//! moves it: `getProjectsBasePath` joins the home folder and `.commandcode`).
//!
//! Verified in the 1.64.0 bundle (`dist/cli.mjs`) and recorded from it
//! (`fixtures/agents/commandcode/1.64.0/`, print mode against the stand-in; and
//! `fixtures/commandcode-interactive/1.64.0/`, the interactive CLI in tmux with a to-do
//! list, a shell run it asked about first and a rename, by that folder's `record.sh`):
//!
//! - The slug (`@sindresorhus/slugify` of the cwd) loses characters, so the cwd comes
//!   from the file's first line, the header `{type: "session", version: 3, id,
//!   timestamp, cwd, parentSession?}` (`version` is the file format's, not Command
//!   Code's, which no session file names). Beside each transcript,
//!   `<id>.checkpoints.jsonl` (one line per turn) and `<id>.meta.json` (`title`: the
//!   generated title of an interactive session, or the person's `/rename`) are written;
//!   `<id>.prompts.jsonl` sometimes. Only `<id>.jsonl` is a transcript.
//! - Every other line is an entry `{type, id, parentId, timestamp, …}` (a tree, as pi's):
//!   `message`, `model_change` (`model`), `effort_change`, `compaction`,
//!   `branch_summary`, `custom`, `custom_message`, `label`, `session_info` (`name`, a
//!   rename). Unknown types are noted.
//! - An entry's `timestamp` (ISO, UTC) is when it was saved: a step's messages are saved
//!   together when the step ends (`createSessionRecorder`), seconds or minutes after the
//!   prompt was typed. A message's `meta.createdAt` (epoch milliseconds) is when it was
//!   made; a tool result has none.
//! - A message is `{role, content: [blocks], meta: {source, createdAt, isMeta?,
//!   isAutomated?}}`. The person typed it when `role` is `user` and `meta.source` is
//!   `user`, `steering` or `followup` (the last two queued while the agent worked), and
//!   it is neither `isMeta` nor `isAutomated`; `tool` (tool results), `stop_hook`,
//!   `scheduled-cron:<id>`, `scheduled-loop:<id>`, `branch-summary`, `mod:<name>` are
//!   not the person's. An assistant entry names its model in the entry's `model`
//!   (`<provider>/<model>` for a provider of one's own).
//! - The shell tool is `shell_command` (`input.command`, `input.args`); its
//!   `tool_result` block (by `tool_use_id`, in the next `source: "tool"` message) has no
//!   error flag (the runner drops it): a non-zero exit starts the text with `Exit code:
//!   N` (`formatShellCommandResult`), a signal with `Signal: …`, a background run with
//!   `Started shell command in the background.`; a run refused or cut short is
//!   `Error: …`, `Permission denied by the user.` or `Skipped — the run was
//!   interrupted.`; any other text is an exit status of 0. Recorded: `sh check.sh`
//!   failing with `Exit code: 3`.
//! - The to-do list is the newest `todo_write` call's `input.todos` (`content`,
//!   `status`: `pending`, `in_progress`, `completed`, `activeForm`), each call the whole
//!   list. Only the interactive CLI offers it (the hand recording); print mode offers the
//!   task tools (`task_create`, …), whose files are kept under the system's temporary
//!   folder (`$TMPDIR/commandcode/tasks/<list id>/`), not read: the list id is
//!   `$COMMAND_CODE_TASK_LIST_ID`, else `session` for every session, so the list belongs
//!   to no one session or folder.
//!
//! - A fork copies the other session's entries, times and all, into a file of its own,
//!   and its `meta.json` names that session (`parentSessionId`) and when the fork was made
//!   (`forkedAt`). A branch made in the interactive CLI (`createBranchedSession`) writes
//!   a header of its own; `--continue --fork-session` (`cloneSessionFile`) keeps the other
//!   session's header, `id` and all, and adds the fork's own id as `sessionId`. Recorded:
//!   the latter (the interactive recording's fourth print run).
//!
//! So: a prompt is placed at its `meta.createdAt` (its entry's time when it has none);
//! activity is every entry's time and every prompt's; the title is `meta.json`'s, else the
//! latest `session_info` name, else the first prompt; models are those of the window's
//! assistant entries and model changes; a command's run is its call with the status its
//! result tells, at the result's time. A fork's entries saved before its `forkedAt` are
//! the other session's: only a copied prompt's text is used (for the title), and the fork
//! is named by its `sessionId`, else its header's `id`. Older files of the version 2
//! layout (one message per line, without `type`), which the CLI converts when it opens
//! them, were not recorded: their lines are noted as unknown, not read.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use report_model::Agent;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::jsonl::{self, Stats};
use super::lenient::{self, LBool, LNum, LStr, Object, Objects};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, agent_home};
use crate::{Env, SourceStatus};

/// The shell tool.
const SHELL_TOOL: &str = "shell_command";

/// The to-do tool.
const TODO_TOOL: &str = "todo_write";

/// The entry types of 1.64.0 (`vf` in the bundle), besides the header.
const KNOWN_TYPES: [&str; 9] = [
    "message",
    "model_change",
    "effort_change",
    "compaction",
    "branch_summary",
    "custom",
    "custom_message",
    "label",
    "session_info",
];

/// The `meta.source` of a message the person typed: at the prompt, or queued while the
/// agent worked (a steer, a follow-up).
const TYPED_SOURCES: [&str; 3] = ["user", "steering", "followup"];

/// The texts of a shell result that tell no exit status: a refusal, an interruption.
const NO_STATUS: [&str; 4] = [
    "Error:",
    "Permission denied by the user.",
    "Skipped — the run was interrupted.",
    "Started shell command in the background.",
];

/// One line of a transcript: the header or an entry.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Line<'a> {
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    #[serde(borrow)]
    id: LStr<'a>,
    /// A forked session's own id, in the header it copied from the session it forked
    /// (whose `id` it keeps).
    #[serde(rename = "sessionId", borrow)]
    session_id: LStr<'a>,
    #[serde(borrow)]
    timestamp: LStr<'a>,
    #[serde(borrow)]
    cwd: LStr<'a>,
    /// `session_info`'s name.
    name: Option<LStr<'a>>,
    /// An assistant entry's model, or `model_change`'s.
    #[serde(borrow)]
    model: LStr<'a>,
    /// A version 2 line's role (that layout has no `type`).
    #[serde(borrow)]
    role: LStr<'a>,
    #[serde(borrow)]
    message: Object<Message<'a>>,
}

/// A `message` entry's message.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Message<'a> {
    #[serde(borrow)]
    role: LStr<'a>,
    #[serde(borrow)]
    content: Objects<Block<'a>>,
    meta: Object<MessageMeta<'a>>,
}

/// A message's `meta`.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct MessageMeta<'a> {
    #[serde(borrow)]
    source: LStr<'a>,
    created_at: LNum,
    is_meta: LBool,
    is_automated: LBool,
}

/// A content block: text, a tool call or a tool result.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Block<'a> {
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    #[serde(borrow)]
    text: LStr<'a>,
    #[serde(borrow)]
    id: LStr<'a>,
    #[serde(borrow)]
    name: LStr<'a>,
    #[serde(borrow)]
    input: Object<Input<'a>>,
    #[serde(borrow)]
    tool_use_id: LStr<'a>,
    /// A result's output: a list of text blocks, or a string.
    #[serde(borrow)]
    content: Option<&'a RawValue>,
}

/// The shell tool's or the to-do tool's input.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Input<'a> {
    #[serde(borrow)]
    command: LStr<'a>,
    #[serde(borrow)]
    args: Option<&'a RawValue>,
    run_in_background: LBool,
    #[serde(borrow)]
    todos: Option<&'a RawValue>,
}

/// A text block of a result given as a list.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ResultText<'a> {
    #[serde(borrow)]
    text: LStr<'a>,
}

/// The part of `<id>.meta.json` the reader uses.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct SessionMeta<'a> {
    #[serde(borrow)]
    title: LStr<'a>,
    /// The session a fork was made from.
    #[serde(borrow)]
    parent_session_id: LStr<'a>,
    /// When the fork was made: its entries saved before then are copies of the other
    /// session's.
    #[serde(borrow)]
    forked_at: LStr<'a>,
}

/// What `<id>.meta.json` tells: the session's title, and, for a fork, when it was made.
#[derive(Default)]
struct Meta {
    title: Option<String>,
    forked_at: Option<Timestamp>,
}

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let home: PathBuf =
        agent_home(env, config, Agent::CommandCode, || env.home.join(".commandcode"));
    let projects = home.join("projects");
    let mut status = SourceStatus {
        locations: vec![home],
        ..SourceStatus::new(report_model::Source::CommandCode)
    };
    let mut drafts = Drafts::new();
    status.found = projects.is_dir();
    if !status.found {
        return (drafts, status);
    }
    let mut counts = Stats::default();
    for (folder, kind) in ctx.list_dir_typed(&projects) {
        if !(kind.is_dir() || (kind.is_symlink() && folder.is_dir())) {
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
            // `<id>.checkpoints.jsonl` and `<id>.prompts.jsonl` are not transcripts.
            let Some(stem) = super::jsonl_stem(Path::new(name)).filter(|stem| !stem.contains('.'))
            else {
                continue;
            };
            if super::is_folder(kind, || folder.join(name)) {
                continue;
            }
            status.files += 1;
            if fresh {
                let path = folder.join(name);
                let draft = read_session(ctx, &mut counts, &mut status, &path, &stem);
                add_draft(&mut drafts, draft);
            }
        }
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// What one transcript's tool calls told so far: the shell calls waiting for their
/// results (call id → command line).
#[derive(Default)]
struct Calls {
    shell: HashMap<String, String>,
}

/// Reads one transcript (`stem`: its file name without `.jsonl`, the session id when
/// the header names none).
fn read_session(
    ctx: &mut Ctx,
    counts: &mut Stats,
    status: &mut SourceStatus,
    path: &Path,
    stem: &str,
) -> Draft {
    let since = ctx.since;
    let meta = read_meta(ctx, path);
    let mut draft = Draft::new(Agent::CommandCode, stem);
    let mut header_seen = false;
    let mut calls = Calls::default();
    let mut renamed: Option<String> = None;
    jsonl::read_lines(ctx, counts, path, |bytes| {
        let line: Line = serde_json::from_slice(bytes)?;
        let (time, not_a_time) = lenient::or_undated(line.timestamp.time("timestamp"));
        // A fork's copies of the other session's entries: that session's, read there.
        let copied = meta.forked_at.is_some_and(|fork| time.is_some_and(|time| time < fork));
        let in_window = !copied && time.is_some_and(|time| time >= since);
        if let (true, Some(time)) = (in_window, time) {
            draft.activity.push(time);
        }
        match line.kind.get().unwrap_or_default() {
            "session" if !header_seen => {
                header_seen = true;
                if let Some(id) = line.session_id.get().or(line.id.get()) {
                    id.clone_into(&mut draft.session_id);
                }
                draft.cwd = line.cwd.get().map(PathBuf::from).filter(|cwd| cwd.is_absolute());
            }
            "session_info" => {
                // The latest name wins; an empty one clears it.
                renamed = line.name.and_then(LStr::into_owned).map(|name| name.trim().to_owned());
                renamed = renamed.take().filter(|name| !name.is_empty());
            }
            "model_change" => {
                if let (true, Some(model)) = (in_window, line.model.get()) {
                    draft.note_model(model);
                }
            }
            "message" => {
                let Some(message) = line.message.0 else { return Ok(()) };
                if copied {
                    // Only a prompt's text, for the title.
                    if let (Some(time), Some(text)) = (time, typed_text(&message)) {
                        draft.note_prompt_text(time, &text);
                    }
                    return Ok(());
                }
                note_message(&mut draft, &mut calls, &message, time, since);
                if let (true, Some(model), true) =
                    (in_window, line.model.get(), message.role.is("assistant"))
                {
                    draft.note_model(model);
                }
            }
            "" if line.role.get().is_some() => status.note_unknown("version 2 line"),
            kind if !kind.is_empty() && kind != "session" && !KNOWN_TYPES.contains(&kind) => {
                status.note_unknown(kind);
            }
            _ => {}
        }
        not_a_time?;
        Ok(())
    });
    draft.title = meta.title.or(renamed);
    draft
}

/// The text of a message the person typed (`None` for any other message).
fn typed_text(message: &Message) -> Option<String> {
    let meta = message.meta.0.as_ref()?;
    let typed = message.role.is("user")
        && meta.source.get().is_some_and(|source| TYPED_SOURCES.contains(&source))
        && !meta.is_meta.0
        && !meta.is_automated.0;
    typed.then(|| {
        let text: Vec<&str> = message
            .content
            .items
            .iter()
            .filter(|block| block.kind.is("text"))
            .filter_map(|block| block.text.get())
            .collect();
        text.join("\n").trim().to_owned()
    })
}

/// Uses one message: a prompt the person typed, the shell and to-do calls of a reply,
/// the shell results of a tool message.
fn note_message(
    draft: &mut Draft,
    calls: &mut Calls,
    message: &Message,
    time: Option<Timestamp>,
    since: Timestamp,
) {
    let meta = message.meta.0.as_ref();
    let created = meta
        .and_then(|meta| meta.created_at.as_i64())
        .and_then(|millis| Timestamp::from_millisecond(millis).ok());
    match message.role.get().unwrap_or_default() {
        "user" => {
            if let Some(text) = typed_text(message) {
                let Some(time) = created.or(time) else { return };
                if time >= since {
                    draft.prompts.push(time);
                    draft.activity.push(time);
                }
                draft.note_prompt_text(time, &text);
                return;
            }
            for block in message.content.items.iter().filter(|block| block.kind.is("tool_result")) {
                let Some(command) = block.tool_use_id.get().and_then(|id| calls.shell.remove(id))
                else {
                    continue;
                };
                let exit = block.content.and_then(result_text).and_then(|text| exit_status(&text));
                if let (Some(time), Some(exit)) = (time, exit) {
                    draft.note_command(time, &command, exit);
                }
            }
        }
        "assistant" => {
            for block in message.content.items.iter().filter(|block| block.kind.is("tool_use")) {
                let (Some(id), Some(input)) = (block.id.get(), block.input.0.as_ref()) else {
                    continue;
                };
                if block.name.is(SHELL_TOOL) && !input.run_in_background.0 {
                    if let Some(command) = command_line(input) {
                        calls.shell.insert(id.to_owned(), command);
                    }
                } else if block.name.is(TODO_TOOL) {
                    let todos = input.todos.and_then(super::todo_list);
                    if let (Some(time), Some(todos)) = (created.or(time), todos) {
                        draft.note_todos(time, todos);
                    }
                }
            }
        }
        _ => {}
    }
}

/// The command line of a shell call: `command`, then its `args` when given as a list of
/// strings.
fn command_line(input: &Input) -> Option<String> {
    let command = input.command.get()?;
    let args: Vec<LStr> = input
        .args
        .and_then(|raw| serde_json::from_str::<Vec<LStr>>(raw.get()).ok())
        .unwrap_or_default();
    let mut line = command.to_owned();
    for arg in args.iter().filter_map(LStr::get) {
        line.push(' ');
        line.push_str(arg);
    }
    Some(line)
}

/// A result's output: the string, or its text blocks joined.
fn result_text(raw: &RawValue) -> Option<String> {
    let text = raw.get();
    if text.starts_with('"') {
        return serde_json::from_str::<LStr>(text).ok()?.into_owned();
    }
    let blocks: Objects<ResultText> = serde_json::from_str(text).ok()?;
    let texts: Vec<&str> = blocks.items.iter().filter_map(|block| block.text.get()).collect();
    Some(texts.join("\n"))
}

/// The exit status a shell result tells: N after `Exit code: ` on its first line; none
/// for a signal, a background run, a refusal or an interruption; else 0.
fn exit_status(output: &str) -> Option<i64> {
    let first = output.lines().next().unwrap_or_default();
    if let Some(rest) = first.strip_prefix("Exit code: ") {
        let digits = rest.split(' ').next().unwrap_or_default();
        return digits.parse().ok();
    }
    if first.starts_with("Signal: ") || NO_STATUS.iter().any(|start| output.starts_with(start)) {
        return None;
    }
    Some(0)
}

/// The session's `<id>.meta.json`; a missing file is silent, an unreadable one a warning,
/// a malformed one ignored (it only names the title and a fork's time).
fn read_meta(ctx: &mut Ctx, transcript: &Path) -> Meta {
    let Some(bytes) = super::side_file(ctx, transcript, "meta.json") else {
        return Meta::default();
    };
    let Ok(parsed) = serde_json::from_slice::<SessionMeta>(&bytes) else {
        return Meta::default();
    };
    let title = parsed.title.get().map(str::trim).filter(|title| !title.is_empty());
    let forked_at =
        parsed.forked_at.timestamp().filter(|_| parsed.parent_session_id.get().is_some());
    Meta { title: title.map(str::to_owned), forked_at }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_statuses_are_read_from_the_first_line() {
        assert_eq!(exit_status("Exit code: 3\nchecking\n"), Some(3));
        assert_eq!(exit_status("Exit code: 1 (no matches found)\n"), Some(1));
        assert_eq!(exit_status("hello\n"), Some(0));
        assert_eq!(exit_status(""), Some(0));
        assert_eq!(exit_status("Signal: SIGTERM\npartial"), None);
        assert_eq!(exit_status("Error: Tool \"shell_command\" requires permissions."), None);
        assert_eq!(exit_status("Permission denied by the user."), None);
        assert_eq!(exit_status("Skipped — the run was interrupted."), None);
        assert_eq!(exit_status("Started shell command in the background.\nTask: t1"), None);
        assert_eq!(exit_status("Exit code: x"), None);
    }

    #[test]
    fn a_call_s_arguments_follow_its_command() {
        let input: Input =
            serde_json::from_str(r#"{"command":"cargo","args":["test","-q"]}"#).unwrap();
        assert_eq!(command_line(&input).as_deref(), Some("cargo test -q"));
        let input: Input = serde_json::from_str(r#"{"command":"sh check.sh"}"#).unwrap();
        assert_eq!(command_line(&input).as_deref(), Some("sh check.sh"));
        let input: Input = serde_json::from_str(r#"{"args":["x"]}"#).unwrap();
        assert_eq!(command_line(&input), None);
    }
}
