//! VS Code's own Chat (GitHub Copilot Chat, agent mode; any model behind it): the
//! sessions VS Code saves in its user folder (`$XDG_CONFIG_HOME/Code/User`, `Code -
//! Insiders`, `VSCodium`, a remote host's `~/.vscode-server/data/User`;
//! `~/Library/Application Support/<editor>/User` on macOS).
//!
//! Read from VS Code's source through a code index (`microsoft/vscode`, too large to
//! fetch whole here; no VS Code runs here, so nothing was recorded), corroborated by
//! third-party readers of the same files. What is relied on (`docs/agents.md`, and
//! `docs/decisions.md` round 33):
//!
//! - Where (`chat/common/model/chatSessionStore.ts`): one file per session, in three
//!   layouts read alike — `workspaceStorage/<workspace id>/chatSessions/<id>.json`, and
//!   since 1.109 a `<id>.jsonl` operation log beside it (read first);
//!   `globalStorage/emptyWindowChatSessions/` (windows without a folder); and in newer
//!   code `globalStorage/chatSessions/<workspace id>/`, where the workspace's files are
//!   copied (the same session in two places is one). The folder a workspace opened is
//!   `workspaceStorage/<workspace id>/workspace.json` (`{"folder": "<file URI>"}`).
//! - The operation log (`model/objectMutationLog.ts`): a JSON object a line —
//!   `{"kind": 0, "v": state}`, `{"kind": 1, "k": [path], "v": value}` (set, a missing
//!   `v` unsets), `{"kind": 2, "k": [path], "v": [items], "i": n}` (the list cut to `n`
//!   when `i` is given, then the items appended), `{"kind": 3, "k": [path]}` (delete). A
//!   last line cut short (VS Code killed while writing) is skipped and noted.
//! - A session (`ISerializableChatData`, versions 1 to 3): `sessionId`, `creationDate`,
//!   `customTitle`, `requests[]`; a request `{requestId, timestamp (epoch ms), message:
//!   {text, parts} (a plain string in old files), modelId, isHidden,
//!   shouldBeRemovedOnSend, response: [parts]}`. A response part `{kind:
//!   "toolInvocationSerialized", toolId, toolSpecificData}` is a tool call: `run_in_terminal`'s
//!   data is `{kind: "terminal", commandLine: {original}, terminalCommandState:
//!   {exitCode, timestamp}}`, the to-do tool's `{kind: "todoList", todoList: [{title,
//!   status: "not-started" | "in-progress" | "completed"}]}`.
//!
//! So: prompts are the requests with text, at their `timestamp`, except those hidden or
//! undone (`isHidden`, `shouldBeRemovedOnSend`); `message.text` is the whole input, an
//! `@agent` or `/command` in it included. The title is `customTitle`, else the first
//! prompt; the model each request's `modelId`; the folder the workspace's. Failed
//! commands are terminal calls with a non-zero exit code, at the state's own time, else
//! the request's. Not read: the session index in each workspace's `state.vscdb` (its
//! titles; a session the index dropped still has its file), a request a `/clear`
//! replaced (not verified), the chat of editors other than those above (Cursor's is
//! read by its own reader).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use report_model::{Agent, Todo, TodoStatus};
use serde_json::Value;

use super::jsonl::{self, Malformed, Stats};
use super::lenient::NotATime;
use super::{Ctx, Draft, Drafts, SessionsConfig, TODOS_MAX, add_draft};
use crate::{Env, SourceStatus, fsread};

/// The editors whose user folders hold VS Code's chat sessions.
const EDITORS: [&str; 3] = ["Code", "Code - Insiders", "VSCodium"];
/// The largest session file read (a chat with its tools' output is megabytes at most).
const SESSION_MAX: u64 = 256 << 20;

pub(crate) fn read(env: &Env, _config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let user_dirs = super::editor_user_dirs(env, &EDITORS);
    let mut status = SourceStatus::new(report_model::Source::VsCode);
    let mut drafts = Drafts::new();
    let mut counts = Stats::default();
    for user in &user_dirs {
        if !user.is_dir() {
            continue;
        }
        let workspaces = user.join("workspaceStorage");
        let mut folders: Vec<(PathBuf, Option<String>)> = Vec::new();
        for id in names(ctx, &workspaces) {
            folders.push((workspaces.join(&id).join("chatSessions"), Some(id)));
        }
        let global = user.join("globalStorage");
        folders.push((global.join("emptyWindowChatSessions"), None));
        for id in names(ctx, &global.join("chatSessions")) {
            folders.push((global.join("chatSessions").join(&id), Some(id)));
        }
        let mut found = false;
        for (folder, workspace) in folders {
            let cwd = workspace.as_deref().and_then(|id| workspace_folder(&workspaces.join(id)));
            found |=
                read_folder(ctx, &mut counts, &mut status, &mut drafts, &folder, cwd.as_deref());
        }
        if found {
            status.found = true;
            status.locations.push(user.clone());
        }
    }
    if status.locations.is_empty() {
        status.locations.extend(user_dirs.into_iter().take(1));
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// The names in a folder (none when it is not there; a folder that cannot be listed is
/// a warning).
fn names(ctx: &mut Ctx, folder: &Path) -> Vec<String> {
    match crate::listing::list(folder) {
        Ok(listing) => {
            if let Some(error) = listing.stopped {
                ctx.fail(crate::Error::io(folder, error));
            }
            listing.entries.iter().map(|entry| entry.name.to_string_lossy().into_owned()).collect()
        }
        Err(error) if crate::listing::is_missing(&error) => Vec::new(),
        Err(error) => {
            ctx.fail(crate::Error::io(folder, error));
            Vec::new()
        }
    }
}

/// The folder a workspace opened, from its `workspace.json`.
fn workspace_folder(storage: &Path) -> Option<PathBuf> {
    let text = fsread::read_small(&storage.join("workspace.json"), 1 << 20).ok()?;
    let meta: Value = serde_json::from_slice(&text).ok()?;
    meta.get("folder").and_then(Value::as_str).and_then(super::amp::folder_path)
}

/// Reads the sessions of one `chatSessions` folder modified in the window; whether the
/// folder holds any session file.
fn read_folder(
    ctx: &mut Ctx,
    counts: &mut Stats,
    status: &mut SourceStatus,
    drafts: &mut Drafts,
    folder: &Path,
    cwd: Option<&Path>,
) -> bool {
    let listed = super::list_fresh_warned(ctx, folder);
    // By session id: the log when there is one, else the document.
    let mut files: HashMap<String, (bool, bool)> = HashMap::new();
    for (name, _, fresh) in listed.iter() {
        let Some(name) = name.to_str() else { continue };
        let (id, log) = match (name.strip_suffix(".jsonl"), name.strip_suffix(".json")) {
            (Some(id), _) => (id, true),
            (None, Some(id)) => (id, false),
            _ => continue,
        };
        let seen = files.entry(id.to_owned()).or_insert((false, false));
        seen.0 |= log;
        seen.1 |= fresh;
    }
    let mut ids: Vec<(String, (bool, bool))> = files.into_iter().collect();
    ids.sort();
    for (id, (log, fresh)) in &ids {
        status.files += 1;
        if !fresh {
            continue;
        }
        let path = folder.join(format!("{id}.{}", if *log { "jsonl" } else { "json" }));
        let session = if *log {
            replay(ctx, counts, status, &path)
        } else {
            jsonl::read_document::<Value>(ctx, counts, &path, SESSION_MAX)
        };
        if let Some(session) = session {
            let mut times = jsonl::BadTimes::default();
            let cwd = cwd.map(Path::to_path_buf);
            add_draft(drafts, session_draft((ctx.since, &mut times), id, &session, cwd));
            times.report(ctx, counts, &path);
        }
    }
    !ids.is_empty()
}

/// The state an operation log leaves; `None` when it has no first state.
fn replay(
    ctx: &mut Ctx,
    counts: &mut Stats,
    status: &mut SourceStatus,
    path: &Path,
) -> Option<Value> {
    let mut state: Option<Value> = None;
    let mut malformed = Malformed::default();
    jsonl::for_each_line(ctx, path, |bytes, number, _| {
        let Ok(entry) = serde_json::from_slice::<Value>(bytes) else {
            malformed.count(number);
            return;
        };
        let path: Vec<&Value> =
            entry.get("k").and_then(Value::as_array).into_iter().flatten().collect();
        match (entry.get("kind").and_then(Value::as_u64), state.as_mut()) {
            (Some(0), _) => state = entry.get("v").cloned(),
            (Some(1 | 3), Some(state)) => {
                let value = if entry["kind"] == 1 { entry.get("v").cloned() } else { None };
                set(state, &path, value.unwrap_or(Value::Null));
            }
            (Some(2), Some(state)) => {
                let cut = entry.get("i").and_then(Value::as_u64);
                let items = entry.get("v").and_then(Value::as_array).cloned().unwrap_or_default();
                push(state, &path, cut, items);
            }
            (Some(other @ 4..), _) => status.note_unknown(&format!("log entry kind {other}")),
            _ => malformed.count(number),
        }
    });
    malformed.report(ctx, counts, path);
    state
}

/// The value at `path` below `state`, made (as an object or list) where missing.
fn slot<'v>(state: &'v mut Value, path: &[&Value]) -> Option<&'v mut Value> {
    let mut here = state;
    for key in path {
        here = match (key, here) {
            (Value::String(key), here) => {
                if !here.is_object() {
                    *here = Value::Object(serde_json::Map::new());
                }
                here.as_object_mut()?.entry(key.clone()).or_insert(Value::Null)
            }
            (Value::Number(index), Value::Array(items)) => {
                let index = usize::try_from(index.as_u64()?).ok()?;
                // One past the end appends; further is not a path VS Code writes (and a
                // huge index must not make a huge list).
                if index > items.len() {
                    return None;
                }
                if index == items.len() {
                    items.push(Value::Null);
                }
                &mut items[index]
            }
            _ => return None,
        };
    }
    Some(here)
}

/// Sets the value at `path` (an empty path is ignored, as VS Code ignores it).
fn set(state: &mut Value, path: &[&Value], value: Value) {
    if path.is_empty() {
        return;
    }
    if let Some(slot) = slot(state, path) {
        *slot = value;
    }
}

/// Cuts the list at `path` to `cut` items when given, then appends `items`.
fn push(state: &mut Value, path: &[&Value], cut: Option<u64>, items: Vec<Value>) {
    let Some(slot) = slot(state, path) else { return };
    if !slot.is_array() {
        *slot = Value::Array(Vec::new());
    }
    if let Value::Array(list) = slot {
        if let Some(cut) = cut.and_then(|cut| usize::try_from(cut).ok()) {
            list.truncate(cut);
        }
        list.extend(items);
    }
}

/// The session one document gives; a request whose `timestamp` is no time is counted in
/// `times`.
fn session_draft(
    (since, times): (Timestamp, &mut jsonl::BadTimes),
    id: &str,
    session: &Value,
    cwd: Option<PathBuf>,
) -> Draft {
    let own_id = session.get("sessionId").and_then(Value::as_str).unwrap_or(id);
    let mut draft = Draft::new(Agent::VsCode, own_id);
    let requests = session.get("requests").and_then(Value::as_array).into_iter().flatten();
    for request in requests {
        let hidden = ["isHidden", "shouldBeRemovedOnSend"]
            .iter()
            .any(|key| request.get(*key).and_then(Value::as_bool) == Some(true));
        let stamp = request.get("timestamp").filter(|value| !value.is_null());
        let checked = stamp
            .map_or(Ok(None), |value| millis(Some(value)).map(Some).ok_or(NotATime("timestamp")));
        let Some(time) = times.check(None, checked) else { continue };
        let in_window = time >= since;
        if in_window {
            draft.activity.push(time);
        }
        if hidden {
            continue;
        }
        let message = request.get("message");
        let text = message
            .and_then(|message| message.get("text").or(Some(message)))
            .and_then(Value::as_str)
            .map(str::trim)
            .unwrap_or_default();
        if !text.is_empty() {
            if in_window {
                draft.prompts.push(time);
            }
            draft.note_prompt_text(time, text);
        }
        if let Some(model) = request.get("modelId").and_then(Value::as_str).filter(|_| in_window) {
            draft.note_model(model);
        }
        let parts = request.get("response").and_then(Value::as_array).into_iter().flatten();
        for part in parts {
            note_tool(&mut draft, time, part);
        }
    }
    if draft.activity.is_empty() {
        draft.models.clear();
        return draft;
    }
    draft.title = session
        .get("customTitle")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|title| !title.is_empty())
        .map(str::to_owned);
    draft.cwd = cwd;
    draft
}

/// Notes a terminal command's outcome or a to-do list a response part records.
fn note_tool(draft: &mut Draft, time: Timestamp, part: &Value) {
    if part.get("kind").and_then(Value::as_str) != Some("toolInvocationSerialized") {
        return;
    }
    let Some(data) = part.get("toolSpecificData") else { return };
    match data.get("kind").and_then(Value::as_str) {
        Some("terminal") => {
            let command = data
                .pointer("/commandLine/original")
                .or_else(|| data.get("command"))
                .and_then(Value::as_str);
            let state = data.get("terminalCommandState");
            let exit = state.and_then(|state| state.get("exitCode")).and_then(Value::as_i64);
            let at = millis(state.and_then(|state| state.get("timestamp"))).unwrap_or(time);
            if let (Some(command), Some(exit)) = (command, exit) {
                draft.note_command(at, command, exit);
            }
        }
        Some("todoList") => {
            let items = data.get("todoList").and_then(Value::as_array).into_iter().flatten();
            let todos: Vec<Todo> = items
                .filter_map(|item| {
                    let text = item.get("title").and_then(Value::as_str)?.trim();
                    let status = match item.get("status").and_then(Value::as_str)? {
                        "not-started" => TodoStatus::Pending,
                        other => TodoStatus::parse(other)?,
                    };
                    let text = text.chars().take(super::RAW_TODO_MAX_CHARS).collect::<String>();
                    (!text.is_empty()).then_some(Todo { text, status })
                })
                .take(TODOS_MAX)
                .collect();
            if !todos.is_empty() {
                draft.note_todos(time, todos);
            }
        }
        _ => {}
    }
}

/// A time in epoch milliseconds.
fn millis(value: Option<&Value>) -> Option<Timestamp> {
    value.and_then(Value::as_i64).and_then(|millis| Timestamp::from_millisecond(millis).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replayed(lines: &[Value]) -> Value {
        let mut state = Value::Null;
        for entry in lines {
            let path: Vec<&Value> = entry["k"].as_array().into_iter().flatten().collect();
            match entry["kind"].as_u64() {
                Some(0) => state = entry["v"].clone(),
                Some(1) => set(&mut state, &path, entry["v"].clone()),
                Some(2) => push(
                    &mut state,
                    &path,
                    entry["i"].as_u64(),
                    entry["v"].as_array().cloned().unwrap_or_default(),
                ),
                _ => set(&mut state, &path, Value::Null),
            }
        }
        state
    }

    #[test]
    fn the_log_sets_appends_cuts_and_deletes() {
        let state = replayed(&[
            serde_json::json!({"kind": 0, "v": {"sessionId": "s", "requests": []}}),
            serde_json::json!({"kind": 2, "k": ["requests"], "v": [{"requestId": "a"}, {"requestId": "b"}]}),
            serde_json::json!({"kind": 1, "k": ["requests", 1, "modelState"], "v": {"value": 1}}),
            serde_json::json!({"kind": 2, "k": ["requests"], "v": [{"requestId": "c"}], "i": 1}),
            serde_json::json!({"kind": 1, "k": ["customTitle"], "v": "Fix it"}),
            serde_json::json!({"kind": 3, "k": ["customTitle"]}),
            serde_json::json!({"kind": 2, "k": ["requests", 0, "response"], "v": [{"value": "ok"}]}),
        ]);
        assert_eq!(
            state,
            serde_json::json!({"sessionId": "s", "customTitle": null, "requests": [
                {"requestId": "a", "response": [{"value": "ok"}]}, {"requestId": "c"}
            ]})
        );
    }
}
