//! Continue (continue.dev): its CLI `cn` (the `@continuedev/cli` npm package) and its
//! editor extensions keep their chats in one folder, `<continue>/sessions/`, where
//! `<continue>` is the config's `continue_home`, else `$CONTINUE_GLOBAL_DIR` (absolute
//! values only: Continue resolves a relative one against the folder it ran in), else
//! `~/.continue`.
//!
//! Verified in `@continuedev/cli` 1.5.47 (`src/session.ts`, `src/env.ts`, and in its
//! bundle the `core/util/history.ts` history manager it shares with the extensions) and
//! in the files it wrote against the stand-in (`fixtures/agents/continue/1.5.47/`):
//!
//! - `sessions/<id>.json`, rewritten whole on every change of the chat: `{sessionId,
//!   title, workspaceDirectory, history[], mode?, chatModelTitle?, usage?}`. Each
//!   history item is `{message: {role, content, toolCalls?, usage?}, contextItems,
//!   editorState?, toolCallStates?, conversationSummary?}`; `content` is a string or a
//!   list of parts (`{type: "text", text}`); the CLI saves no `system` message. An
//!   assistant message names its model in `usage.model`.
//! - `sessions/sessions.json`, the index: a list of `{sessionId, title, dateCreated,
//!   workspaceDirectory, messageCount}`, `dateCreated` being `String(Date.now())` (epoch
//!   milliseconds as text) written when the session is first saved.
//! - The title is `Untitled Session` (the CLI's) or `New Session` (the history
//!   manager's) until one is generated: neither is a title.
//! - Tools: `Checklist` writes the to-do list as one Markdown string of task-list lines
//!   (`- [ ] …`, `- [x] …`); `Bash` runs a shell command. Each call's outcome is in the
//!   item's `toolCallStates[]` (`status` `done`, `errored`, `canceled`, …;
//!   `parsedArgs`; `output[].content`); a command that exits non-zero with output on
//!   stderr is `errored` with `Error (exit code N): …`, one that exits non-zero
//!   silently is `done`, as Continue itself reports it.
//! - A command the person types in shell mode (`!ls`, seen in the interactive CLI) is
//!   saved as an assistant message with one `Bash` call whose id is
//!   `shell-<epoch ms>-<random>`: the one time the format records. It is read as the
//!   session's command, at that time.
//!
//! **No time is recorded per message.** A session starts at its `dateCreated` and was
//! last active when its file was last written; its prompts are spread evenly over that
//! span, the first at the start (the estimate Cursor's reader makes, for the same
//! reason), and each turn's to-do list and commands are placed at its prompt's time. A
//! session missing from the index starts when its file was created (its birth time, when
//! the file system keeps one and it is not after the last write), else when it was last
//! written; prompts that would fall at one instant are put a millisecond apart, ending
//! at the last, so that each is counted.
//!
//! So: prompts are the `user` messages with text; the title is the session's when it is
//! not a placeholder, else the first prompt; models are the assistant messages'
//! `usage.model`, else `chatModelTitle` when it is a plain name; the working directory
//! is `workspaceDirectory` (a path, or the `file://` URI an editor writes). The
//! extensions' own tools (other names than `Checklist` and `Bash`) were not verified
//! and are not read.

use std::collections::HashMap;
use std::path::Path;

use jiff::Timestamp;
use report_model::Agent;
use serde::Deserialize;

use super::jsonl::{self, Stats};
use super::lenient::{OStr, Objects, Text};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, config_path};
use crate::{Env, SourceStatus, fsread};

/// Titles Continue gives a session before it has one.
const PLACEHOLDER_TITLES: [&str; 2] = ["Untitled Session", "New Session"];

/// One entry of `sessions.json`.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct IndexEntry {
    session_id: OStr,
    date_created: serde_json::Value,
}

/// The fields of a session file the reader uses.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Session {
    #[serde(rename = "sessionId")]
    id: OStr,
    title: OStr,
    workspace_directory: OStr,
    chat_model_title: OStr,
    history: Objects<Item>,
}

/// One history item.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Item {
    message: Message,
    tool_call_states: Objects<ToolCallState>,
}

/// An item's message.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Message {
    role: OStr,
    content: Text,
    usage: Usage,
}

/// An assistant message's `usage`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Usage {
    model: OStr,
}

/// The state of one tool call.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct ToolCallState {
    tool_call_id: OStr,
    tool_call: ToolCall,
    status: OStr,
    parsed_args: Args,
    output: Objects<Output>,
}

/// `toolCall`: the call as the model made it.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ToolCall {
    function: Function,
}

/// `toolCall.function`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Function {
    name: OStr,
    /// The arguments as JSON text.
    arguments: OStr,
}

/// The arguments of the tools read.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Args {
    command: OStr,
    checklist: OStr,
}

/// One piece of a tool call's output.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Output {
    content: OStr,
}

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let folder = match config.homes.get(&Agent::Continue) {
        Some(home) => config_path(env, home).join("sessions"),
        None => env
            .abs_var("CONTINUE_GLOBAL_DIR")
            .unwrap_or_else(|| env.home.join(".continue"))
            .join("sessions"),
    };
    let mut status = SourceStatus {
        locations: vec![folder.clone()],
        ..SourceStatus::new(report_model::Source::Continue)
    };
    let mut drafts = Drafts::new();
    let listed = super::list_fresh_warned(ctx, &folder);
    status.found = listed.len() > 0 || folder.is_dir();
    let mut counts = Stats::default();
    let mut created: Option<HashMap<String, Timestamp>> = None;
    for (name, kind, fresh) in listed.iter() {
        let Some(id) = name.to_str().and_then(|name| name.strip_suffix(".json")) else {
            continue;
        };
        if id == "sessions" || id.starts_with('.') || super::is_folder(kind, || folder.join(name)) {
            continue;
        }
        status.files += 1;
        if !fresh {
            continue;
        }
        let path = folder.join(name);
        let Some(session) =
            jsonl::read_document::<Session>(ctx, &mut counts, &path, fsread::DOCUMENT_MAX)
        else {
            continue;
        };
        let created = created.get_or_insert_with(|| read_index(ctx, &mut counts, &folder));
        let meta = fs_err::metadata(&path).ok();
        let time = |time: std::io::Result<std::time::SystemTime>| {
            time.ok().and_then(|time| Timestamp::try_from(time).ok())
        };
        let written = meta.as_ref().and_then(|meta| time(meta.modified()));
        let born = meta.as_ref().and_then(|meta| time(meta.created()));
        let own_id = session.id.0.get().unwrap_or(id).to_owned();
        let listed = created.get(&own_id).copied();
        let Some(end) = written.or(listed) else { continue };
        // Missing from the index: the file's birth, when it is known and not after its
        // last write (a copied file is born after it was last written).
        let start = listed.or(born.filter(|born| *born <= end)).unwrap_or(end);
        add_draft(
            &mut drafts,
            session_draft(ctx.since, &mut status, &own_id, &session, (start, end)),
        );
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// When each session of the index was created, by id (empty when there is no index).
fn read_index(ctx: &mut Ctx, counts: &mut Stats, folder: &Path) -> HashMap<String, Timestamp> {
    let path = folder.join("sessions.json");
    if !path.exists() {
        return HashMap::new();
    }
    let index: Objects<IndexEntry> =
        jsonl::read_document(ctx, counts, &path, fsread::DOCUMENT_MAX).unwrap_or_default();
    index
        .items
        .iter()
        .filter_map(|entry| {
            Some((
                entry.session_id.0.get()?.to_owned(),
                super::cursor::json_time(&entry.date_created)?,
            ))
        })
        .collect()
}

/// The session one file gives, placed between its creation and its last write.
fn session_draft(
    since: Timestamp,
    status: &mut SourceStatus,
    id: &str,
    session: &Session,
    (start, end): (Timestamp, Timestamp),
) -> Draft {
    let end = end.max(start);
    let mut draft = Draft::new(Agent::Continue, id);
    if session.history.other {
        status.note_unknown("history item that is not an object");
    }
    // Each turn: the person's prompt, then what the assistant did until the next one.
    let mut turns: Vec<(&str, Vec<&Item>)> = Vec::new();
    let mut before_first: Vec<&Item> = Vec::new();
    for item in &session.history.items {
        match item.message.role.0.get() {
            Some("user") => {
                let text = item.message.content.value.trim();
                if text.is_empty() {
                    continue;
                }
                turns.push((text, Vec::new()));
            }
            Some("assistant" | "tool" | "system" | "thinking") => match turns.last_mut() {
                Some((_, items)) => items.push(item),
                None => before_first.push(item),
            },
            Some(other) => status.note_unknown(&format!("message role {other}")),
            None => {}
        }
    }
    let times = apart(super::cursor::spread(turns.len(), start, end));
    let in_window = |time: Timestamp| time >= since;
    for &time in times.iter().chain([&start, &end]) {
        if in_window(time) {
            draft.activity.push(time);
        }
    }
    let mut models_seen = false;
    let mut note_items = |draft: &mut Draft, time: Timestamp, items: &[&Item]| {
        for item in items {
            if let Some(model) = item.message.usage.model.0.get() {
                models_seen = true;
                if in_window(time) {
                    draft.note_model(model);
                }
            }
            note_tools(draft, time, &item.tool_call_states.items);
        }
    };
    note_items(&mut draft, start, &before_first);
    for ((text, items), time) in turns.iter().zip(times) {
        if in_window(time) {
            draft.prompts.push(time);
        }
        draft.note_prompt_text(time, text);
        note_items(&mut draft, time, items);
    }
    if draft.activity.is_empty() {
        draft.models.clear();
        return draft;
    }
    if !models_seen {
        if let Some(model) = session.chat_model_title.0.get() {
            draft.note_model(model);
        }
    }
    draft.title = session
        .title
        .0
        .get()
        .map(str::trim)
        .filter(|title| !title.is_empty() && !PLACEHOLDER_TITLES.contains(title))
        .map(str::to_owned);
    draft.cwd = session.workspace_directory.0.get().and_then(super::amp::folder_path);
    draft
}

/// The prompts' times a millisecond apart at least, the last kept: prompts at one
/// instant would count as one, and a session missing from the index, or written within
/// the millisecond it was created, has no span to spread them over.
fn apart(mut times: Vec<Timestamp>) -> Vec<Timestamp> {
    for index in (1..times.len()).rev() {
        let before = times[index].saturating_sub(jiff::SignedDuration::from_millis(1));
        if let Ok(before) = before {
            times[index - 1] = times[index - 1].min(before);
        }
    }
    times
}

/// Notes the to-do lists `Checklist` wrote and the commands `Bash` ran whose outcome is
/// told.
fn note_tools(draft: &mut Draft, time: Timestamp, states: &[ToolCallState]) {
    for state in states {
        let function = &state.tool_call.function;
        let args = if state.parsed_args.command.0.get().is_some()
            || state.parsed_args.checklist.0.get().is_some()
        {
            None
        } else {
            function.arguments.0.get().and_then(|text| serde_json::from_str::<Args>(text).ok())
        };
        let args = args.as_ref().unwrap_or(&state.parsed_args);
        match function.name.0.get() {
            Some("Checklist") if !state.status.0.is("errored") => {
                if let Some(todos) = args.checklist.0.get().and_then(super::markdown_todos) {
                    draft.note_todos(time, todos);
                }
            }
            Some("Bash") => {
                let Some(command) = args.command.0.get() else { continue };
                // Typed in shell mode (`!`): the call's id tells when.
                let time = state.tool_call_id.0.get().and_then(shell_mode_time).unwrap_or(time);
                let exit = match state.status.0.get() {
                    Some("done") => Some(0),
                    Some("errored") => state
                        .output
                        .items
                        .iter()
                        .find_map(|output| output.content.0.get().and_then(exit_code)),
                    _ => None,
                };
                if let Some(exit) = exit {
                    draft.note_command(time, command, exit);
                }
            }
            _ => {}
        }
    }
}

/// When a command typed in shell mode ran: its call's id is `shell-<epoch ms>-<random>`.
fn shell_mode_time(id: &str) -> Option<Timestamp> {
    let (millis, _) = id.strip_prefix("shell-")?.split_once('-')?;
    Timestamp::from_millisecond(millis.parse().ok()?).ok()
}

/// The exit code in a failed `Bash` call's output: `Error (exit code N)`.
fn exit_code(output: &str) -> Option<i64> {
    let (_, rest) = output.split_once("(exit code ")?;
    let (code, _) = rest.split_once(')')?;
    code.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shell_mode_call_s_id_tells_its_time() {
        assert_eq!(
            shell_mode_time("shell-1796494946619-3klq94"),
            Some(Timestamp::from_millisecond(1_796_494_946_619).expect("in range"))
        );
        assert_eq!(shell_mode_time("call_standin_0003"), None);
        assert_eq!(shell_mode_time("shell-soon-x"), None);
        assert_eq!(shell_mode_time("shell-1796494946619"), None);
    }

    #[test]
    fn exit_codes_are_read_from_the_error_text() {
        assert_eq!(
            exit_code("Error executing tool Bash: Error (exit code 3): check: 1 test failed\n"),
            Some(3)
        );
        assert_eq!(exit_code("Error (exit code 127): sh: nope: not found"), Some(127));
        assert_eq!(exit_code("Error: spawn ENOENT"), None);
        assert_eq!(exit_code("Error (exit code x): what"), None);
    }
}
