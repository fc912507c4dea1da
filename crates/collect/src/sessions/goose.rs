//! Goose (the AAIF's `goose`, formerly Block's): its CLI, desktop app, terminal
//! integration and ACP server keep every session in one SQLite database,
//! `<data>/sessions/sessions.db`, where `<data>` is the config's `goose_home`, else
//! `$GOOSE_PATH_ROOT/data` (an absolute value only, as Goose takes it), else
//! `$XDG_DATA_HOME/goose`, else `~/.local/share/goose` (Goose's `Paths::data_dir`).
//!
//! Verified against the database `goose` 1.52.0 wrote when recorded (the binary of the
//! npm package `@aaif/goose-binary-linux-x64` 1.52.0, `goose run --text`,
//! `fixtures/agents/goose/1.52.0/`; its rows sit in the `-wal`), and the source of
//! `block/goose` (`crates/goose/src/session/session_manager.rs`,
//! `config/paths.rs`, `agents/platform_extensions/todo.rs`):
//!
//! - `sessions`: `id` (`<yyyymmdd>_<n>`), `name` (before schema 4 `description`, which
//!   Goose still falls back to), `session_type` (`user`, `terminal`, `acp`, `gateway`,
//!   `scheduled`, `sub_agent`, `hidden`), `working_dir`, `model_config_json`
//!   (`model_name`), `extension_data` (JSON: the `todo` extension's list under
//!   `todo.v0.content`), `parent_session_id` (newer schemas).
//! - `messages`: `session_id`, `role` (`user` or `assistant`), `content_json` (a list of
//!   items: `{type: "text", text}`, `{type: "toolRequest", id, toolCall: {status,
//!   value: {name, arguments}}}`, `{type: "toolResponse", id, toolResult: {status,
//!   value: {content, structuredContent, isError}}}`, …), `created_timestamp` (the
//!   message's own time, epoch **seconds**: 1796502930 in the recording; a value that can
//!   only be milliseconds is read as such), `metadata_json` (`userVisible`,
//!   `agentVisible`, `turnContext`; `inference.requestedModel` on replies).
//!
//! So: only the messages created since the window began are queried (through the index of
//! `timestamp`, the time each row was written, which is not before the message's), then the rows of
//! their sessions (and the sessions' parents). A prompt is a `user` message with a text
//! item, that holds no tool result and is visible to the person: Goose adds each turn's
//! context (`<turn-context>`, `userVisible: false`) and compaction summaries as user
//! messages the person never typed. Prompts are counted only in the sessions the person
//! types in (`user`, `terminal`, `acp`); a scheduled job's, a gateway's (messages from a
//! chat platform, which may be other people's) and an unknown type's messages are
//! activity, `hidden` sessions (Goose's own) are not read, and a sub-agent's session
//! (`sub_agent`, or any with a parent) is activity and models of the session it was
//! started from. Goose records seconds: prompts of one session within one second are put
//! a millisecond apart, in the table's order, so that each is counted.
//!
//! A fork (`goose session --resume --fork`, the desktop's edit-and-branch, ACP's
//! `session/fork`) and an import (`goose session import`, of a Goose export or of a
//! Claude Code, Codex or pi log) make a new session, `created_at` now, no parent, whose
//! messages are copies: `message_id` and `created_timestamp` kept, only `timestamp` new
//! (recorded from 1.52.0 in `fixtures/goose-fork/`). A message created before its session
//! was made is such a copy, counted where it was made (for an import, by the other agent's
//! own reader), as is a user message of that very second whose `message_id` an earlier
//! row of another session holds (a fork made within a second of the copied prompt,
//! `fixtures/goose-fork/same-second/`), and, the copies being written together first,
//! any row of such a session before its first own user message; a fork's list written by
//! a copied call only is the other session's too. Where a session's `created_at` is no
//! time (or none), each of its user messages is looked up by its `message_id` so, and
//! the copies are still told.
//!
//! The title is the session's name, unless it is the placeholder Goose gives until it has
//! generated one (`CLI Session`, `ACP Session`, `New Chat`); else the first prompt. The
//! working directory is `working_dir`; models are the replies' `inference.model` (else
//! `requestedModel`), else the session's `model_config_json.model_name`.
//!
//! Tools: the `developer` extension's `shell` (`developer__shell` in older versions)
//! runs a command; its result's `structuredContent.exit_code` is the exit status (3 for
//! the recorded `sh check.sh`), else the text's `Command exited with code N`, else 0 when
//! the result is not an error. The `todo` extension's `todo_write` (offered to the model
//! as `todo__todo_write`) replaces the session's list, one Markdown checklist kept in
//! `extension_data`; that list is read, at the time of the session's newest call of the
//! tool (whenever it was). The JSON Lines files of Goose before its database
//! (`sessions/<name>.jsonl`, imported into it once) are not read.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;

use jiff::Timestamp;
use report_model::Agent;
use rusqlite::{Connection, OptionalExtension as _};
use serde::Deserialize;

use super::jsonl;
use super::lenient::{self, LBool, LNum, NotATime, OStr, Object, Objects};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, agent_home};
use crate::sqlite::Failure;
use crate::{Env, SourceStatus};

/// How many parents are followed from a sub-agent's session to its root.
const MAX_NESTING: usize = 16;

/// Names Goose gives a session until it has generated a title.
const PLACEHOLDER_NAMES: [&str; 3] = ["CLI Session", "ACP Session", "New Chat"];

/// Session types whose user messages the person typed.
const TYPED: [&str; 3] = ["user", "terminal", "acp"];

/// Session types whose messages are activity, not prompts: known, so not named as
/// unknown.
const NOT_TYPED: [&str; 3] = ["scheduled", "gateway", "sub_agent"];

/// The shell tool's names.
const SHELL_TOOLS: [&str; 2] = ["shell", "developer__shell"];

/// One item of a message's `content_json`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Item {
    #[serde(rename = "type")]
    kind: OStr,
    text: OStr,
    id: OStr,
    #[serde(rename = "toolCall")]
    tool_call: Object<ToolCall>,
    #[serde(rename = "toolResult")]
    tool_result: Object<ToolResult>,
}

/// A tool request's call.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ToolCall {
    status: OStr,
    value: Object<CallValue>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct CallValue {
    name: OStr,
    arguments: Object<Arguments>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Arguments {
    command: OStr,
}

/// A tool response's result.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ToolResult {
    status: OStr,
    value: Object<ResultValue>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ResultValue {
    content: Objects<Part>,
    #[serde(rename = "structuredContent")]
    structured: Object<Structured>,
    #[serde(rename = "isError")]
    is_error: LBool,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Part {
    text: OStr,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Structured {
    exit_code: LNum,
}

/// A message's `metadata_json`.
#[derive(Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Metadata {
    user_visible: serde_json::Value,
    inference: Object<Inference>,
}

impl Default for Metadata {
    fn default() -> Self {
        Metadata { user_visible: serde_json::Value::Null, inference: Object::default() }
    }
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Inference {
    model: OStr,
    requested_model: OStr,
}

/// `model_config_json`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ModelConfig {
    model_name: OStr,
}

/// A session's row.
#[derive(Debug, Default, Clone)]
struct SessionRow {
    name: Option<String>,
    kind: Option<String>,
    working_dir: Option<String>,
    model: Option<String>,
    parent: Option<String>,
    /// The `todo` extension's list, as Markdown.
    todo: Option<String>,
    /// When the session was made (`created_at`): a message created before it is a
    /// fork's or an import's copy.
    created: Option<Timestamp>,
}

/// One message of the window.
struct Msg {
    session: String,
    /// The row's id: the table's order of messages of one second.
    id: i64,
    role: Option<String>,
    time: Timestamp,
    content: Vec<Item>,
    metadata: Metadata,
    /// Its `message_id` (a user message's is Goose's own `msg_<uuid>`; a copy keeps it).
    message_id: Option<String>,
    /// A fork's or an import's copy of a message, counted where it was made (see
    /// [`mark_copies`]).
    copied: bool,
}

/// What the database gave.
struct DbRead {
    messages: Vec<Msg>,
    sessions: HashMap<String, SessionRow>,
    /// When each session with a list last called `todo_write`.
    todo_times: HashMap<String, Timestamp>,
    /// The messages skipped because their `created_timestamp` is no time.
    bad_times: jsonl::BadTimes,
}

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let home: PathBuf =
        agent_home(env, config, Agent::Goose, || match env.abs_var("GOOSE_PATH_ROOT") {
            Some(root) => root.join("data"),
            None => env.data_home().join("goose"),
        });
    let folder = home.join("sessions");
    let path = folder.join("sessions.db");
    let mut status = SourceStatus {
        locations: vec![path.clone()],
        ..SourceStatus::new(report_model::Source::Goose)
    };
    let mut drafts = Drafts::new();
    let since = ctx.since;
    if let Some(mut read) =
        ctx.read_database(&mut status, (&path, &folder), |conn| query(conn, since))
    {
        super::report_bad_rows(ctx, &mut status, &path, std::mem::take(&mut read.bad_times));
        assemble(read, since, &mut status, &mut drafts);
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    (drafts, status)
}

/// A message's time: epoch seconds, or milliseconds when the value can only be those (a
/// second count that large is past the year 5000).
fn message_time(value: i64) -> Option<Timestamp> {
    if value > 100_000_000_000 {
        Timestamp::from_millisecond(value).ok()
    } else {
        Timestamp::from_second(value).ok()
    }
}

/// A message row's `created_timestamp`: `Ok(None)` when it is NULL, [`NotATime`] when it
/// holds something that is no time (a text, or a number out of range).
fn created_timestamp(row: &rusqlite::Row<'_>) -> Result<Option<Timestamp>, NotATime> {
    let Some(value) = lenient::sql_number(row, "created_timestamp")? else { return Ok(None) };
    // `as` saturates: a value out of i64's range is out of `Timestamp`'s too.
    #[expect(clippy::cast_possible_truncation, reason = "checked by `message_time`")]
    message_time(value.trunc() as i64).map(Some).ok_or(NotATime("created_timestamp"))
}

/// The text of a row's column, whatever SQLite stored it as.
pub(super) fn text(row: &rusqlite::Row<'_>, column: &str) -> Option<String> {
    match row.get_ref(column).ok()? {
        rusqlite::types::ValueRef::Text(bytes) | rusqlite::types::ValueRef::Blob(bytes) => {
            Some(String::from_utf8_lossy(bytes).into_owned())
        }
        _ => None,
    }
}

/// Reads the messages created since `since`, their sessions and the sessions' parents.
fn query(conn: &Connection, since: Timestamp) -> Result<DbRead, Failure> {
    crate::sqlite::require_tables(conn, &["sessions", "messages"])?;
    let mut read = DbRead {
        messages: Vec::new(),
        sessions: HashMap::new(),
        todo_times: HashMap::new(),
        bad_times: jsonl::BadTimes::default(),
    };
    {
        // `timestamp` (when the row was written, SQLite's `CURRENT_TIMESTAMP`, never before
        // the message's own time) is indexed: it bounds the rows read without a scan of the
        // whole table, whose rows hold every tool's output.
        let written = since.to_zoned(jiff::tz::TimeZone::UTC).strftime("%Y-%m-%d %H:%M:%S");
        let mut statement = conn
            .prepare("SELECT * FROM messages WHERE timestamp >= ?1 AND created_timestamp >= ?2")?;
        let mut rows =
            statement.query(rusqlite::params![written.to_string(), since.as_second()])?;
        while let Some(row) = rows.next()? {
            let Some(session) = text(row, "session_id") else { continue };
            // A text sorts after every number in SQLite, so the bound above keeps a row
            // whose time is no time: it is counted, and warned about.
            let Some(time) = read.bad_times.check(None, created_timestamp(row)) else {
                continue;
            };
            if time < since {
                continue;
            }
            let content = text(row, "content_json")
                .and_then(|json| serde_json::from_str::<Objects<Item>>(&json).ok())
                .unwrap_or_default()
                .items;
            let metadata = text(row, "metadata_json")
                .and_then(|json| serde_json::from_str::<Metadata>(&json).ok())
                .unwrap_or_default();
            let id: i64 = row.get("id").unwrap_or_default();
            read.messages.push(Msg {
                session,
                id,
                role: text(row, "role"),
                time,
                content,
                metadata,
                message_id: text(row, "message_id"),
                copied: false,
            });
        }
    }
    // In each session's order (sorted here: an `ORDER BY` would have SQLite walk the
    // session index over the whole table instead).
    read.messages.sort_by(|a, b| (&a.session, a.time, a.id).cmp(&(&b.session, b.time, b.id)));
    let mut session = conn.prepare("SELECT * FROM sessions WHERE id = ?1")?;
    let mut wanted: Vec<String> = read.messages.iter().map(|msg| msg.session.clone()).collect();
    wanted.dedup();
    let mut depth = 0;
    while !wanted.is_empty() && depth <= MAX_NESTING {
        let mut parents = Vec::new();
        for id in wanted {
            if read.sessions.contains_key(&id) {
                continue;
            }
            let row = session
                .query_row([&id], |row| {
                    let name = text(row, "name")
                        .filter(|name| !name.trim().is_empty())
                        .or_else(|| text(row, "description"));
                    Ok(SessionRow {
                        name,
                        kind: text(row, "session_type"),
                        working_dir: text(row, "working_dir"),
                        model: text(row, "model_config_json")
                            .and_then(|json| serde_json::from_str::<ModelConfig>(&json).ok())
                            .and_then(|config| config.model_name.0.into_owned()),
                        parent: text(row, "parent_session_id").filter(|id| !id.is_empty()),
                        todo: text(row, "extension_data").and_then(|json| todo_content(&json)),
                        created: text(row, "created_at").and_then(|at| sqlite_time(&at)),
                    })
                })
                .optional()?;
            if let Some(row) = row {
                parents.extend(row.parent.clone());
                read.sessions.insert(id, row);
            }
        }
        wanted = parents;
        depth += 1;
    }
    mark_copies(conn, &mut read)?;
    let mut newest = conn.prepare(
        "SELECT MAX(created_timestamp) FROM messages WHERE session_id = ?1 \
         AND role = 'assistant' AND content_json LIKE '%todo_write%' \
         AND typeof(created_timestamp) = 'integer'",
    )?;
    for (id, row) in &read.sessions {
        if row.todo.is_some() {
            let time: Option<i64> = newest.query_row([id], |row| row.get(0))?;
            if let Some(time) = time.and_then(message_time) {
                read.todo_times.insert(id.clone(), time);
            }
        }
    }
    Ok(read)
}

/// Marks the copies a fork or an import holds (see the module's documentation): the
/// messages created before their session was made, and the user messages dated in the
/// very second it was made that are copies. A fork made within a second of the other
/// session's last message holds copies dated that second too, which their times cannot
/// tell from the fork's first prompt; a copy keeps the `message_id` of the message it
/// copies, written before it (a smaller row id) in another session. Only the messages of
/// that one second are looked up, by the `message_id` index; a database without that
/// column is left as it is.
fn mark_copies(conn: &Connection, read: &mut DbRead) -> Result<(), Failure> {
    for msg in &mut read.messages {
        let made = read.sessions.get(&msg.session).and_then(|row| row.created);
        msg.copied = made.is_some_and(|made| msg.time < made);
    }
    copied_in_the_second_made(conn, read)?;
    copied_with_them(&mut read.messages);
    Ok(())
}

/// Marks the user messages dated in the very second their session was made whose
/// `message_id` an earlier row of another session holds (see [`mark_copies`]); in a
/// session whose `created_at` is no time (or none), every user message is looked up so:
/// the copies are still told, by their ids alone.
fn copied_in_the_second_made(conn: &Connection, read: &mut DbRead) -> Result<(), Failure> {
    let made_then = |msg: &Msg| {
        let made = read.sessions.get(&msg.session).map(|row| row.created);
        msg.role.as_deref() == Some("user")
            && msg.message_id.is_some()
            && (made == Some(None) || made == Some(Some(msg.time)))
    };
    let wanted: Vec<usize> = read
        .messages
        .iter()
        .enumerate()
        .filter(|(_, msg)| made_then(msg))
        .map(|(at, _)| at)
        .collect();
    if wanted.is_empty() {
        return Ok(());
    }
    let Ok(mut earlier) = conn.prepare(
        "SELECT 1 FROM messages WHERE message_id = ?1 AND id < ?2 AND session_id <> ?3 LIMIT 1",
    ) else {
        return Ok(());
    };
    for at in wanted {
        let msg = &read.messages[at];
        let copied =
            earlier.exists(rusqlite::params![msg.message_id.as_deref(), msg.id, msg.session])?;
        read.messages[at].copied = copied;
    }
    Ok(())
}

/// Marks the rest of a fork's copies: they are written together, before anything of the
/// session's own, so a row before its first own user message (a reply copied in the
/// second the fork was made) is one of them.
fn copied_with_them(messages: &mut [Msg]) {
    let mut first_own: HashMap<&str, i64> = HashMap::new();
    let mut forks: HashSet<&str> = HashSet::new();
    for msg in messages.iter() {
        if msg.copied {
            forks.insert(&msg.session);
        } else if msg.role.as_deref() == Some("user") {
            let first = first_own.entry(&msg.session).or_insert(msg.id);
            *first = (*first).min(msg.id);
        }
    }
    let copied: Vec<bool> = messages
        .iter()
        .map(|msg| {
            msg.copied
                || (forks.contains(msg.session.as_str())
                    && first_own.get(msg.session.as_str()).is_none_or(|first| msg.id < *first))
        })
        .collect();
    for (msg, copied) in messages.iter_mut().zip(copied) {
        msg.copied = copied;
    }
}

/// A time as SQLite's `CURRENT_TIMESTAMP` writes it (`2026-12-05 20:42:25`, UTC), or in
/// RFC 3339.
fn sqlite_time(text: &str) -> Option<Timestamp> {
    let text = text.trim();
    text.parse().ok().or_else(|| format!("{}Z", text.replacen(' ', "T", 1)).parse().ok())
}

/// The `todo` extension's list in a session's `extension_data`.
fn todo_content(json: &str) -> Option<String> {
    let data: serde_json::Value = serde_json::from_str(json).ok()?;
    Some(data.get("todo.v0")?.get("content")?.as_str()?.to_owned())
}

/// The session a message counts for: its own, or the root it was started from.
fn root_of<'s>(sessions: &'s HashMap<String, SessionRow>, id: &'s str) -> &'s str {
    let mut current = id;
    for _ in 0..MAX_NESTING {
        match sessions.get(current).and_then(|row| row.parent.as_deref()) {
            Some(parent) if sessions.contains_key(parent) => current = parent,
            _ => break,
        }
    }
    current
}

/// Turns the rows into drafts.
fn assemble(read: DbRead, since: Timestamp, status: &mut SourceStatus, drafts: &mut Drafts) {
    // Its skipped messages were reported by `read`.
    let DbRead { messages, sessions, todo_times, bad_times: _ } = read;
    let mut by_root: BTreeMap<String, Draft> = BTreeMap::new();
    // The shell calls not yet answered, by session and call id: the command.
    let mut calls: HashMap<(&str, &str), String> = HashMap::new();
    // The last prompt of each root, for the one-second ties.
    let mut last_prompt: HashMap<String, Timestamp> = HashMap::new();
    for msg in &messages {
        let own = sessions.get(&msg.session);
        let kind = own.and_then(|row| row.kind.as_deref()).unwrap_or("user");
        if kind == "hidden" {
            continue;
        }
        if msg.copied {
            continue;
        }
        let root = root_of(&sessions, &msg.session).to_owned();
        let sub_agent = root != msg.session || kind == "sub_agent";
        let typed = !sub_agent && TYPED.contains(&kind);
        if !typed && !sub_agent && !NOT_TYPED.contains(&kind) {
            status.note_unknown(&format!("session type {kind}"));
        }
        let draft = by_root.entry(root.clone()).or_insert_with(|| Draft::new(Agent::Goose, &root));
        draft.activity.push(msg.time);
        if msg.role.as_deref() == Some("assistant") {
            let inference = msg.metadata.inference.0.as_ref();
            if let Some(model) = inference.and_then(|inference| {
                inference.model.0.get().or_else(|| inference.requested_model.0.get())
            }) {
                draft.note_model(model);
            }
        }
        let mut prompt: Option<&str> = None;
        let mut result = false;
        for item in &msg.content {
            match item.kind.0.get() {
                Some("text") if prompt.is_none() => {
                    prompt = item.text.0.get().map(str::trim).filter(|text| !text.is_empty());
                }
                Some("toolRequest") if !sub_agent => {
                    let Some(call) = item.tool_call.0.as_ref() else { continue };
                    let Some(value) = call.value.0.as_ref() else { continue };
                    let shell = value.name.0.get().is_some_and(|name| SHELL_TOOLS.contains(&name));
                    let command =
                        value.arguments.0.as_ref().and_then(|arguments| arguments.command.0.get());
                    if let (true, Some(command), Some(id)) =
                        (shell && !call.status.0.is("error"), command, item.id.0.get())
                    {
                        calls.insert((msg.session.as_str(), id), command.to_owned());
                    }
                }
                Some("toolResponse") => {
                    result = true;
                    let Some(command) =
                        item.id.0.get().and_then(|id| calls.remove(&(msg.session.as_str(), id)))
                    else {
                        continue;
                    };
                    if let Some(exit) = item.tool_result.0.as_ref().and_then(exit_status) {
                        draft.note_command(msg.time, &command, exit);
                    }
                }
                _ => {}
            }
        }
        let visible = !matches!(msg.metadata.user_visible, serde_json::Value::Bool(false));
        if let (true, Some("user"), false, true, Some(text)) =
            (typed, msg.role.as_deref(), result, visible, prompt)
        {
            // Seconds only: a prompt in the same second as the one before goes a
            // millisecond after it.
            let time = match last_prompt.get(&root) {
                Some(last) if msg.time <= *last => {
                    last.checked_add(jiff::SignedDuration::from_millis(1)).unwrap_or(msg.time)
                }
                _ => msg.time,
            };
            last_prompt.insert(root.clone(), time);
            draft.prompts.push(time);
            draft.activity.push(time);
            draft.note_prompt_text(time, text);
        }
    }
    for (root, draft) in by_root {
        let row = sessions.get(&root).cloned().unwrap_or_default();
        let time = todo_times.get(&root).copied();
        add_draft(drafts, finish(draft, &row, time, since));
    }
}

/// A root session's draft with what its row tells: its models when no reply named one,
/// its title, working directory and to-do list (written at `todo_time`, when known).
fn finish(
    mut draft: Draft,
    row: &SessionRow,
    todo_time: Option<Timestamp>,
    since: Timestamp,
) -> Draft {
    if draft.models.is_empty() {
        if let Some(model) = &row.model {
            draft.note_model(model);
        }
    }
    draft.title = row
        .name
        .as_deref()
        .map(str::trim)
        .filter(|name| !name.is_empty() && !PLACEHOLDER_NAMES.contains(name))
        .map(str::to_owned);
    draft.cwd = row.working_dir.as_deref().filter(|dir| !dir.is_empty()).map(PathBuf::from);
    if let Some(todos) = row.todo.as_deref().and_then(super::markdown_todos) {
        let time = todo_time.or_else(|| draft.activity.iter().max().copied()).unwrap_or(since);
        // A fork's list, written by a copied call only, is the other session's.
        if row.created.is_none_or(|made| time >= made) {
            draft.note_todos(time, todos);
        }
    }
    draft
}

/// A shell result's exit status: its `structuredContent.exit_code`, else the code its
/// text names, else 0 for a result that is not an error.
fn exit_status(result: &ToolResult) -> Option<i64> {
    let value = result.value.0.as_ref()?;
    if let Some(code) = value.structured.0.as_ref().and_then(|data| data.exit_code.as_i64()) {
        return Some(code);
    }
    let named = value.content.items.iter().find_map(|part| {
        let (_, rest) = part.text.0.get()?.split_once("exited with code ")?;
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '-').collect();
        digits.parse().ok()
    });
    named.or((!value.is_error.0 && !result.status.0.is("error")).then_some(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only the user messages of the second a session was made are looked up by their
    /// `message_id`: a reply's is the provider's (the same `c1` for every reply of the
    /// recorder's stand-in), and a session's own reply in that second is not a copy for
    /// sharing it with an earlier reply of another session.
    #[test]
    fn only_user_messages_of_the_second_made_are_looked_up() {
        let conn = Connection::open_in_memory().expect("a database");
        conn.execute_batch(
            "CREATE TABLE sessions (id TEXT PRIMARY KEY, working_dir TEXT, created_at TEXT);
             CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, message_id TEXT,
                 session_id TEXT, role TEXT, content_json TEXT, created_timestamp INTEGER,
                 timestamp TEXT, metadata_json TEXT);
             INSERT INTO sessions VALUES ('a', '/w', '2026-12-06 10:00:00'),
                 ('b', '/w', '2026-12-06 11:00:00');
             INSERT INTO messages (message_id, session_id, role, content_json,
                 created_timestamp, timestamp) VALUES
                 ('msg_a', 'a', 'user', '[]', 1796551200, '2026-12-06 10:00:00'),
                 ('c1', 'a', 'assistant', '[]', 1796551201, '2026-12-06 10:00:01'),
                 ('msg_b', 'b', 'user', '[]', 1796554800, '2026-12-06 11:00:00'),
                 ('c1', 'b', 'assistant', '[]', 1796554800, '2026-12-06 11:00:00');",
        )
        .expect("the rows");
        let since = Timestamp::from_second(1_796_544_000).expect("a time");
        let Ok(read) = query(&conn, since) else { panic!("the rows do not read") };
        let copied: Vec<(&str, bool)> =
            read.messages.iter().map(|msg| (msg.session.as_str(), msg.copied)).collect();
        assert_eq!(copied, [("a", false), ("a", false), ("b", false), ("b", false)]);
    }

    #[test]
    fn seconds_and_milliseconds_are_told_apart() {
        assert_eq!(message_time(1_796_502_930), Timestamp::from_second(1_796_502_930).ok());
        assert_eq!(
            message_time(1_796_502_930_123),
            Timestamp::from_millisecond(1_796_502_930_123).ok()
        );
        // The bound itself is still seconds (the year 5138).
        assert_eq!(message_time(100_000_000_000), Timestamp::from_second(100_000_000_000).ok());
    }

    fn exit(json: &str) -> Option<i64> {
        exit_status(&serde_json::from_str::<ToolResult>(json).expect("a tool result"))
    }

    #[test]
    fn a_shell_result_s_exit_status() {
        // Goose 1.52.0's result.
        let ok = r#"{"status":"success","value":{"content":[{"type":"text","text":"ok"}],"structuredContent":{"exit_code":0},"isError":false}}"#;
        assert_eq!(exit(ok), Some(0));
        // Without the structured part: the code the text names, else 0 unless an error.
        let named = r#"{"status":"success","value":{"content":[{"type":"text","text":"boom\n\nCommand exited with code 3."}],"isError":true}}"#;
        assert_eq!(exit(named), Some(3));
        let negative = r#"{"status":"success","value":{"content":[{"type":"text","text":"Command exited with code -1 (signal)"}],"isError":true}}"#;
        assert_eq!(exit(negative), Some(-1));
        let passed = r#"{"status":"success","value":{"content":[{"type":"text","text":"ok"}],"isError":false}}"#;
        assert_eq!(exit(passed), Some(0));
        let failed = r#"{"status":"success","value":{"content":[{"type":"text","text":"no such file"}],"isError":true}}"#;
        assert_eq!(exit(failed), None);
        let errored = r#"{"status":"error","value":{"content":[],"isError":false}}"#;
        assert_eq!(exit(errored), None);
        // The older shape (a list of contents): nothing told.
        assert_eq!(exit(r#"{"status":"success","value":[{"type":"text","text":"ok"}]}"#), None);
    }

    #[test]
    fn the_todo_list_is_read_from_the_extension_data() {
        assert_eq!(
            todo_content(r#"{"todo.v0":{"content":"- [ ] a"},"other":1}"#).as_deref(),
            Some("- [ ] a")
        );
        assert_eq!(todo_content(r#"{"enabled_extensions.v0":{}}"#), None);
        assert_eq!(todo_content("not json"), None);
    }
}
