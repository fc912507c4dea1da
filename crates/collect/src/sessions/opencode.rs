//! opencode: the SQLite databases `<data>/opencode/opencode*.db` (`<data>` is
//! `$XDG_DATA_HOME`, else `~/.local/share`), and the JSON files of the older `storage/`
//! layout.
//!
//! Verified against the code bundled in `opencode-linux-x64` 1.18.33 (the binary of the
//! npm package `opencode-ai` 1.18.33: its SQL migrations, the drizzle table definitions,
//! the message and part schemas, `SessionPrompt`, `Storage.migration.*`), and the
//! `packages/opencode/src/storage/` sources of `anomalyco/opencode` (formerly
//! `sst/opencode`); and run on the databases opencode 1.18.33 wrote when recorded
//! (`fixtures/agents/opencode/1.18.33/`, rows in the `-wal`), which it reads as expected:
//!
//! - The database is `opencode.db` for the `latest`, `beta` and `prod` channels and
//!   `opencode-<channel>.db` for the others; every `opencode*.db` in the folder is read.
//!   opencode keeps it in WAL mode and checkpoints rarely, so most rows sit in the `-wal`
//!   file: the database is opened read-only through [`crate::sqlite::read`] (never
//!   checkpointed), and only when it or its `-wal` was modified since the window began.
//! - Tables: `session` (`id`, `parent_id` for a sub-agent's session, `directory`,
//!   `title`, `version`, times in ms), `message` (`id`, `session_id`, `time_created`,
//!   `time_updated`, `data`: the message without its ids, `role`, `time.created`,
//!   `time.completed`, `modelID` on replies, `model.modelID` on user messages,
//!   `path.cwd`), `part` (`message_id`, `data`: `type`, `text`, `synthetic`, `ignored`).
//!   Only messages updated since the window began are queried; the parts of their user
//!   messages and the rows of their sessions are then looked up by id.
//! - Prompts: user messages with a text part that is neither `synthetic` (opencode adds
//!   such parts for attached files, MCP resources, `!` shell commands, plan switches,
//!   continuation after compaction) nor `ignored`. A slash command's message holds the
//!   command's expanded template as a plain text part, which the stored rows do not
//!   tell from typed text: it counts as a prompt. Activity: every message's creation and
//!   completion times.
//! - Title: the session's `title`, unless it is the placeholder opencode sets until it
//!   has generated one (`New session - <ISO time>`, `Child session - <ISO time>`); else
//!   the first prompt. The working directory is the session's `directory` (else a reply's
//!   `path.cwd`), its version `version`, models each reply's `modelID` and each user
//!   message's `model.modelID`.
//! - Sub-agent sessions (`parent_id` set) are not sessions of the person: their messages
//!   are activity (and models) of the root session they were started from, never prompts.
//! - A fork (`run --continue --fork`, the TUI's fork; `Session.fork`) is a new session,
//!   made now, holding copies of the other session's messages and parts: new ids, the
//!   rest kept, their times too (recorded from 1.18.33 in `fixtures/opencode-fork/`). A
//!   message created before its session (`session.time_created`, a session file's
//!   `time.created`) is such a copy, counted in the session it came from: neither prompt,
//!   activity nor model of the fork, and only a copied prompt's text is used (for the
//!   fork's title, when it has none). The fork's copies of `todowrite` and `bash` calls,
//!   dated before it too, are that session's as well. Kilo Code's CLI 7.7.7 forks the same
//!   way (`fixtures/kilo-fork/`); a fork of a session still under its placeholder title
//!   is titled `<placeholder> (fork #N)`, a placeholder too.
//! - To-do list: the newest completed `todowrite` call of a root session's own messages,
//!   whenever it was written (a `part` whose `data` is a `ToolPart`: `type: "tool"`,
//!   `tool: "todowrite"`, `state.status: "completed"`, `state.input.todos[]` with
//!   `content`, `status`, `priority`; `state.time.end`, else `start`, is when it was
//!   written). The tool replaces the session's rows of the `todo` table with the whole
//!   list, so that table only ever holds the newest list and cannot tell an emptied list
//!   from none: the calls are read instead. A sub-agent may not call `todowrite` unless
//!   its own permissions allow it; such a list is the sub-agent's plan and is not read.
//!   The older `storage/` layout's lists (`storage/todo/<sessionID>.json`) are not read.
//! - Failed commands: the completed `bash` calls of a root session's own messages (a
//!   `ToolPart` with `tool: "bash"`, `state.status: "completed"`,
//!   `state.input.command`, `state.metadata.exit`; 3 for the recorded `sh check.sh` in
//!   `fixtures/agents/opencode/1.18.33/`, run with `--dangerously-skip-permissions`).
//!   The storage layout's are not read.
//! - The event-sourced `session_message` table (a projection used by newer code paths) is
//!   not read; when it holds rows of the window while `message` holds none, it is named as
//!   unknown for `doctor`. So are message roles and part types of user messages the
//!   reader does not know.
//! - The older layout (before the database; opencode migrates it once and leaves it):
//!   `storage/session/<projectID>/<id>.json` (`id`, `parentID`, `directory`, `title`,
//!   `version`), `storage/message/<sessionID>/<messageID>.json` (the message, ids
//!   included), `storage/part/<messageID>/<partID>.json`, and `storage/project/<id>.json`
//!   (`worktree`, the cwd when a session names no `directory`). The oldest layout, also
//!   found below `project/<name>/storage/`, is `session/info/<id>.json`,
//!   `session/message/<sessionID>/` and `session/part/<sessionID>/<messageID>/`; its
//!   sessions record no directory, so the cwd is a reply's `path.cwd`. Message and part
//!   files are small JSON documents, each parsed from a stream; a message file is read
//!   only when modified since the window began (its folder too), a session's own file
//!   whenever it has such messages.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use report_model::{Agent, Todo};
use rusqlite::{Connection, OptionalExtension as _, params};
use serde::Deserialize;

use super::jsonl::{self, Stats};
use super::lenient::{LBool, LNum, OStr, Text};
use super::{Ctx, Drafts, SessionsConfig, agent_home};
use crate::sqlite::{self, Failure, Outcome};
use crate::{Env, SourceStatus};

/// How many parents are followed from a sub-agent's session to its root.
const MAX_NESTING: usize = 16;

/// Part types opencode writes (`TextPart`, `FilePart`, …); another one on a user
/// message is named for `doctor`.
const KNOWN_PART_TYPES: &[&str] = &[
    "text",
    "file",
    "agent",
    "subtask",
    "compaction",
    "reasoning",
    "tool",
    "step-start",
    "step-finish",
    "snapshot",
    "patch",
    "retry",
];

/// A session's own record.
#[derive(Debug, Default, Clone)]
struct Info {
    directory: Option<String>,
    title: Option<String>,
    parent: Option<String>,
    version: Option<String>,
    /// When the session was made: a message created before it is a fork's copy.
    created: Option<Timestamp>,
}

/// One message, as both layouts give it.
#[derive(Debug, Default)]
struct Msg {
    session: String,
    created: Option<Timestamp>,
    completed: Option<Timestamp>,
    role: Option<String>,
    /// What the person typed, when this is a user message with a typed text part.
    typed: Option<String>,
    models: Vec<String>,
    cwd: Option<String>,
}

/// The fields of a message's JSON (`message.data`, or a message file) the reader uses.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct MessageData {
    id: OStr,
    #[serde(rename = "sessionID")]
    session_id: OStr,
    role: OStr,
    time: Times,
    #[serde(rename = "modelID")]
    model_id: OStr,
    model: ModelRef,
    path: PathInfo,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Times {
    created: LNum,
    completed: LNum,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ModelRef {
    #[serde(rename = "modelID")]
    model_id: OStr,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct PathInfo {
    cwd: OStr,
}

/// The fields of a part the reader uses.
#[derive(Deserialize, Default)]
#[serde(default)]
struct PartData {
    #[serde(rename = "type")]
    kind: OStr,
    text: Text,
    synthetic: LBool,
    ignored: LBool,
}

/// A session file of the `storage/` layout.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct SessionFile {
    #[serde(rename = "projectID")]
    project_id: OStr,
    #[serde(rename = "parentID")]
    parent_id: OStr,
    directory: OStr,
    title: OStr,
    version: OStr,
    time: SessionTimes,
}

/// A session file's `time`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct SessionTimes {
    created: LNum,
}

/// `storage/project/<id>.json`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ProjectFile {
    worktree: OStr,
}

/// What every source of one opencode home gave.
#[derive(Default)]
struct Found {
    infos: HashMap<String, Info>,
    messages: Vec<Msg>,
    /// The newest to-do list each session (of the messages found) wrote, with its time.
    todos: HashMap<String, (Timestamp, Vec<Todo>)>,
    /// The `bash` runs each session (of the messages found) made: time, command, exit.
    commands: HashMap<String, Vec<super::ShellRun>>,
}

/// An agent that keeps opencode's stores: opencode, and Kilo Code's CLI, a fork of it
/// (`@kilocode/cli` 7.7.7 writes the same tables to `<data>/kilo/kilo.db`, recorded in
/// `fixtures/agents/kilo/7.7.7/`, plus tables of its own that are not read).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Flavor {
    agent: Agent,
    /// The folder under `<data>`, and the start of its databases' names.
    name: &'static str,
}

/// opencode itself.
pub(crate) const OPENCODE: Flavor = Flavor { agent: Agent::Opencode, name: "opencode" };
/// Kilo Code's CLI.
pub(crate) const KILO: Flavor = Flavor { agent: Agent::Kilo, name: "kilo" };

pub(crate) fn read_as(
    env: &Env,
    config: &SessionsConfig,
    ctx: &mut Ctx,
    flavor: Flavor,
) -> (Drafts, SourceStatus) {
    let home: PathBuf = agent_home(env, config, flavor.agent, || env.data_home().join(flavor.name));
    let mut status = SourceStatus {
        locations: vec![home.clone()],
        ..SourceStatus::new(report_model::Source::from(flavor.agent))
    };
    let mut drafts = Drafts::new();
    if !home.is_dir() {
        return (drafts, status);
    }
    status.found = true;
    let mut found = Found::default();
    for (path, _) in ctx.list_dir_typed(&home) {
        let name = super::file_name(&path).unwrap_or_default();
        if !(name.starts_with(flavor.name) && super::has_extension(&path, "db")) {
            continue;
        }
        status.files += 1;
        let wal = sibling(&path, "-wal");
        if !(ctx.modified_since(&path) || ctx.modified_since(&wal)) {
            continue;
        }
        let since = ctx.since;
        match sqlite::read(&path, |conn| query(conn, since)) {
            Outcome::Missing => {}
            Outcome::Unreadable(error) => ctx.fail(error),
            Outcome::Read(read) => {
                for unknown in &read.unknown {
                    status.note_unknown(unknown);
                }
                found.infos.extend(read.found.infos);
                found.messages.extend(read.found.messages);
                for (id, (time, todos)) in read.found.todos {
                    let newer = found.todos.get(&id).is_none_or(|(known, _)| time >= *known);
                    if newer {
                        found.todos.insert(id, (time, todos));
                    }
                }
                for (id, runs) in read.found.commands {
                    found.commands.entry(id).or_default().extend(runs);
                }
            }
        }
    }
    let mut counts = Stats::default();
    let mut roots = vec![home.join("storage")];
    for (project, kind) in ctx.list_dir_typed(&home.join("project")) {
        if kind.is_dir() {
            roots.push(project.join("storage"));
        }
    }
    for root in &roots {
        read_storage(ctx, &mut counts, &mut status, root, &mut found);
    }
    assemble(found, (ctx.since, flavor.agent), &mut status, &mut drafts);
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// A prompt's text without the pair of double quotes `run` puts around each argument
/// that holds a space (`opencode run "fix the tests"` stores `"fix the tests"`, in
/// opencode 1.18.33 and Kilo's CLI 7.7.7 alike): the person typed the words, the shell
/// took their quotes.
fn unquoted(text: &str) -> &str {
    text.strip_prefix('"').and_then(|rest| rest.strip_suffix('"')).unwrap_or(text)
}

/// `path` with `suffix` appended to its name (`-wal`, `-shm`).
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Milliseconds since the epoch as a timestamp.
fn from_ms(ms: Option<i64>) -> Option<Timestamp> {
    ms.and_then(|ms| Timestamp::from_millisecond(ms).ok())
}

/// Whether a title is opencode's placeholder, `New session - <ISO time>` or `Child
/// session - <ISO time>` (the time as `Date.toISOString` writes it), or a fork's of a
/// session so titled (`Session.fork` appends ` (fork #N)`; Kilo Code's CLI 7.7.7, which
/// generated no title in `run`, wrote `New session - 2026-12-06T13:59:21.395Z (fork #1)`).
fn is_placeholder_title(title: &str) -> bool {
    let fork_of = title
        .strip_suffix(')')
        .and_then(|rest| rest.rsplit_once(" (fork #"))
        .filter(|(_, number)| !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()));
    let title = fork_of.map_or(title, |(stem, _)| stem);
    ["New session - ", "Child session - "].iter().any(|prefix| {
        title.strip_prefix(prefix).is_some_and(|time| {
            time.len() == 24 && time.ends_with('Z') && time.parse::<Timestamp>().is_ok()
        })
    })
}

/// Turns a message's JSON into a [`Msg`] (parts are looked at by the caller).
fn message_from(data: MessageData, session: String) -> Msg {
    let mut models = Vec::new();
    models.extend(data.model_id.0.into_owned());
    models.extend(data.model.model_id.0.into_owned());
    Msg {
        session,
        created: from_ms(data.time.created.as_i64()),
        completed: from_ms(data.time.completed.as_i64()),
        role: data.role.0.into_owned(),
        typed: None,
        models,
        cwd: data.path.cwd.0.into_owned(),
    }
}

/// The parts of a user message, in order: the first typed text, and the types the
/// reader does not know.
#[derive(Default)]
struct Parts {
    typed: Option<String>,
    unknown: Vec<String>,
}

impl Parts {
    fn add(&mut self, kind: Option<&str>, text: Option<&str>, synthetic: bool, ignored: bool) {
        match kind {
            Some("text") if !synthetic && !ignored && self.typed.is_none() => {
                self.typed = text.map(str::trim).filter(|text| !text.is_empty()).map(str::to_owned);
            }
            Some(other) if !KNOWN_PART_TYPES.contains(&other) => {
                self.unknown.push(format!("part type {other}"));
            }
            _ => {}
        }
    }
}

/// What one database gave.
struct DbRead {
    found: Found,
    unknown: Vec<String>,
}

/// Reads the messages updated since `since`, the parts of their user messages and their
/// sessions (and the sessions' parents).
fn query(conn: &Connection, since: Timestamp) -> Result<DbRead, Failure> {
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")?
        .query_map([], |row| row.get::<_, String>(0))?
        .collect::<Result<_, _>>()?;
    let has = |name: &str| tables.iter().any(|table| table == name);
    if !(has("session") && has("message") && has("part")) {
        return Err(Failure::Schema("it has no `session`, `message` and `part` tables".to_owned()));
    }
    let since_ms = since.as_millisecond();
    let mut read = DbRead { found: Found::default(), unknown: Vec::new() };
    let mut user_ids = Vec::new();
    {
        let mut statement = conn.prepare(
            "SELECT id, session_id, time_created, data FROM message \
             WHERE time_updated >= ?1 ORDER BY session_id, time_created, id",
        )?;
        let mut rows = statement.query([since_ms])?;
        while let Some(row) = rows.next()? {
            let id: String = row.get(0)?;
            let session: String = row.get(1)?;
            let created: Option<i64> = row.get(2).ok();
            let data = match row.get_ref(3)? {
                rusqlite::types::ValueRef::Text(bytes) | rusqlite::types::ValueRef::Blob(bytes) => {
                    serde_json::from_slice::<MessageData>(bytes).unwrap_or_default()
                }
                _ => MessageData::default(),
            };
            let mut message = message_from(data, session);
            message.created = message.created.or_else(|| from_ms(created));
            if message.role.as_deref() == Some("user") {
                user_ids.push((read.found.messages.len(), id));
            }
            read.found.messages.push(message);
        }
    }
    if read.found.messages.is_empty() && has("session_message") {
        let count: i64 = conn.query_row(
            "SELECT COUNT(*) FROM session_message WHERE time_created >= ?1",
            [since_ms],
            |row| row.get(0),
        )?;
        if count > 0 {
            read.unknown.push("table session_message".to_owned());
        }
    }
    let mut parts = conn.prepare(
        "SELECT t, substr(CASE WHEN t = 'text' THEN json_extract(data, '$.text') END, 1, 4096), \
         CASE WHEN t = 'text' THEN json_extract(data, '$.synthetic') END, \
         CASE WHEN t = 'text' THEN json_extract(data, '$.ignored') END \
         FROM (SELECT id, data, CASE WHEN json_valid(data) THEN json_extract(data, '$.type') END AS t \
         FROM part WHERE message_id = ?1) ORDER BY id",
    )?;
    for (index, id) in user_ids {
        let mut found = Parts::default();
        let mut rows = parts.query([&id])?;
        while let Some(row) = rows.next()? {
            let kind: Option<String> = row.get(0).ok().flatten();
            let text: Option<String> = row.get(1).ok().flatten();
            let flag = |column: usize| row.get::<_, Option<i64>>(column).ok().flatten() == Some(1);
            found.add(kind.as_deref(), text.as_deref(), flag(2), flag(3));
        }
        read.unknown.extend(found.unknown);
        if let Some(message) = read.found.messages.get_mut(index) {
            message.typed = found.typed;
        }
    }
    let mut pending: Vec<String> =
        read.found.messages.iter().map(|message| message.session.clone()).collect();
    pending.sort_unstable();
    pending.dedup();
    read.found.todos = todo_writes(conn, &pending)?;
    read.found.commands = shell_runs(conn, &pending)?;
    session_infos(conn, pending, &mut read.found.infos)?;
    Ok(read)
}

/// The rows of the sessions `pending` and of their parents, into `infos`.
fn session_infos(
    conn: &Connection,
    mut pending: Vec<String>,
    infos: &mut HashMap<String, Info>,
) -> Result<(), Failure> {
    let mut session = conn.prepare(
        "SELECT directory, title, parent_id, version, time_created FROM session WHERE id = ?1",
    )?;
    let mut steps = 0;
    while let Some(id) = pending.pop() {
        if infos.contains_key(&id) {
            continue;
        }
        let info = session
            .query_row(params![id], |row| {
                Ok(Info {
                    directory: row.get(0).ok().flatten(),
                    title: row.get(1).ok().flatten(),
                    parent: row.get(2).ok().flatten(),
                    version: row.get(3).ok().flatten(),
                    created: from_ms(row.get(4).ok().flatten()),
                })
            })
            .optional()?;
        if let Some(info) = info {
            if let Some(parent) = &info.parent {
                // A chain of parents is bounded, so a cycle cannot loop.
                steps += 1;
                if steps <= MAX_NESTING * 64 {
                    pending.push(parent.clone());
                }
            }
            infos.insert(id, info);
        }
    }
    Ok(())
}

/// The newest list each of these sessions wrote with a completed `todowrite` call, any
/// time: it is what was left. Parts are found through their messages (`part.session_id`
/// is newer than `part`).
fn todo_writes(
    conn: &Connection,
    sessions: &[String],
) -> Result<HashMap<String, (Timestamp, Vec<Todo>)>, Failure> {
    let mut found: HashMap<String, (Timestamp, Vec<Todo>)> = HashMap::new();
    let mut todo_writes = conn.prepare(
        "SELECT json_extract(data, '$.state.input.todos'), \
         json_extract(data, '$.state.time.end'), json_extract(data, '$.state.time.start') \
         FROM part WHERE message_id IN (SELECT id FROM message WHERE session_id = ?1) \
         AND instr(data, '\"todowrite\"') > 0 AND json_valid(data) \
         AND json_extract(data, '$.type') = 'tool' AND json_extract(data, '$.tool') = 'todowrite' \
         AND json_extract(data, '$.state.status') = 'completed' ORDER BY id",
    )?;
    for id in sessions {
        let mut rows = todo_writes.query([id])?;
        while let Some(row) = rows.next()? {
            let todos: Option<String> = row.get(0).ok().flatten();
            let end: Option<i64> = row.get(1).ok().flatten();
            let start: Option<i64> = row.get(2).ok().flatten();
            let (Some(time), Some(todos)) =
                (from_ms(end.or(start)), todos.as_deref().and_then(todo_list))
            else {
                continue;
            };
            let newer = found.get(id).is_none_or(|(known, _)| time >= *known);
            if newer {
                found.insert(id.clone(), (time, todos));
            }
        }
    }
    Ok(found)
}

/// The completed `bash` calls of these sessions, any time (a later pass clears an
/// earlier failure): time (`state.time.end`, else `start`), `state.input.command`,
/// `state.metadata.exit`.
fn shell_runs(
    conn: &Connection,
    sessions: &[String],
) -> Result<HashMap<String, Vec<super::ShellRun>>, Failure> {
    let mut found: HashMap<String, Vec<super::ShellRun>> = HashMap::new();
    let mut runs = conn.prepare(
        "SELECT substr(json_extract(data, '$.state.input.command'), 1, 4096), \
         json_extract(data, '$.state.metadata.exit'), \
         json_extract(data, '$.state.time.end'), json_extract(data, '$.state.time.start') \
         FROM part WHERE message_id IN (SELECT id FROM message WHERE session_id = ?1) \
         AND instr(data, '\"bash\"') > 0 AND json_valid(data) \
         AND json_extract(data, '$.type') = 'tool' AND json_extract(data, '$.tool') = 'bash' \
         AND json_extract(data, '$.state.status') = 'completed' ORDER BY id",
    )?;
    for id in sessions {
        let mut rows = runs.query([id])?;
        while let Some(row) = rows.next()? {
            let command: Option<String> = row.get(0).ok().flatten();
            let exit: Option<i64> = row.get(1).ok().flatten();
            let end: Option<i64> = row.get(2).ok().flatten();
            let start: Option<i64> = row.get(3).ok().flatten();
            if let (Some(command), Some(exit), Some(time)) = (command, exit, from_ms(end.or(start)))
            {
                found.entry(id.clone()).or_default().push((time, command, exit));
            }
        }
    }
    Ok(found)
}

/// A to-do list from the JSON text of a `todowrite` call's `todos`.
fn todo_list(json: &str) -> Option<Vec<Todo>> {
    let items: &serde_json::value::RawValue = serde_json::from_str(json).ok()?;
    super::todo_list(items)
}

/// Reads the JSON files of one `storage/` folder: messages modified since the window
/// began, the parts of their user messages, and their sessions.
fn read_storage(
    ctx: &mut Ctx,
    counts: &mut Stats,
    status: &mut SourceStatus,
    root: &Path,
    found: &mut Found,
) {
    if !root.is_dir() {
        return;
    }
    // (messages folder, parts folder for a session and message, whether old layout)
    for old in [false, true] {
        let messages = if old { root.join("session/message") } else { root.join("message") };
        let mut listed = super::list_fresh(&messages, ctx.since).unwrap_or_else(|error| {
            ctx.fail(error);
            super::Fresh::default()
        });
        if let Some(error) = listed.broken.take() {
            ctx.fail(error);
        }
        for (name, kind, fresh) in listed.iter() {
            if !super::is_folder(kind, || messages.join(name)) {
                continue;
            }
            status.files += 1;
            if !fresh {
                continue;
            }
            let session_id = name.to_string_lossy().into_owned();
            read_session_messages(
                ctx,
                counts,
                status,
                root,
                old,
                &messages.join(name),
                &session_id,
                found,
            );
        }
    }
    // The sessions whose messages were read: their own files.
    let mut wanted: Vec<String> = found
        .messages
        .iter()
        .map(|message| message.session.clone())
        .filter(|id| !found.infos.contains_key(id))
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    if wanted.is_empty() {
        return;
    }
    let folders: Vec<PathBuf> = ctx
        .list_dir_typed(&root.join("session"))
        .into_iter()
        .filter(|(path, kind)| {
            kind.is_dir() && !matches!(super::file_name(path).as_deref(), Some("message" | "part"))
        })
        .map(|(path, _)| path)
        .collect();
    let mut steps = 0;
    while let Some(id) = wanted.pop() {
        if found.infos.contains_key(&id) {
            continue;
        }
        let Some((info, project)) = folders.iter().find_map(|folder| {
            let path = folder.join(format!("{id}.json"));
            read_json::<SessionFile>(ctx, counts, &path).map(|file| {
                (
                    Info {
                        directory: file.directory.0.into_owned(),
                        title: file.title.0.into_owned(),
                        parent: file.parent_id.0.into_owned(),
                        version: file.version.0.into_owned(),
                        created: from_ms(file.time.created.as_i64()),
                    },
                    file.project_id.0.into_owned(),
                )
            })
        }) else {
            continue;
        };
        let mut info = info;
        if info.directory.is_none() {
            if let Some(project) = project {
                let path = root.join("project").join(format!("{project}.json"));
                info.directory = read_json::<ProjectFile>(ctx, counts, &path)
                    .and_then(|file| file.worktree.0.into_owned());
            }
        }
        if let Some(parent) = &info.parent {
            steps += 1;
            if steps <= MAX_NESTING * 64 {
                wanted.push(parent.clone());
            }
        }
        found.infos.insert(id, info);
    }
}

/// Reads the fresh message files of one session folder, and the parts of its user
/// messages.
#[expect(clippy::too_many_arguments, reason = "one reader's state, passed down once")]
fn read_session_messages(
    ctx: &mut Ctx,
    counts: &mut Stats,
    status: &mut SourceStatus,
    root: &Path,
    old: bool,
    folder: &Path,
    session_id: &str,
    found: &mut Found,
) {
    let mut listed = super::list_fresh(folder, ctx.since).unwrap_or_else(|error| {
        ctx.fail(error);
        super::Fresh::default()
    });
    if let Some(error) = listed.broken.take() {
        ctx.fail(error);
    }
    for (name, _, fresh) in listed.iter() {
        if !fresh || !name.as_encoded_bytes().ends_with(b".json") {
            continue;
        }
        let path = folder.join(name);
        let Some(data) = read_json::<MessageData>(ctx, counts, &path) else { continue };
        let message_id = data.id.0.get().map(str::to_owned).or_else(|| super::file_stem(&path));
        let session = data.session_id.0.get().unwrap_or(session_id).to_owned();
        let mut message = message_from(data, session);
        if message.role.as_deref() == Some("user") {
            if let Some(message_id) = message_id {
                let parts = if old {
                    root.join("session/part").join(session_id).join(&message_id)
                } else {
                    root.join("part").join(&message_id)
                };
                let mut found_parts = Parts::default();
                for (part, kind) in ctx.list_dir_typed(&parts) {
                    if !kind.is_file() || !super::has_extension(&part, "json") {
                        continue;
                    }
                    if let Some(data) = read_json::<PartData>(ctx, counts, &part) {
                        found_parts.add(
                            data.kind.0.get(),
                            Some(&data.text.value),
                            data.synthetic.0,
                            data.ignored.0,
                        );
                    }
                }
                for unknown in &found_parts.unknown {
                    status.note_unknown(unknown);
                }
                message.typed = found_parts.typed;
            }
        }
        found.messages.push(message);
    }
}

/// One JSON file of the `storage/` layout, bounded like every document.
fn read_json<T: for<'de> Deserialize<'de>>(
    ctx: &mut Ctx,
    counts: &mut Stats,
    path: &Path,
) -> Option<T> {
    jsonl::read_document(ctx, counts, path, crate::fsread::DOCUMENT_MAX)
}

/// Turns the sessions and messages found into drafts: a sub-agent's messages go to its
/// root session as activity.
fn assemble(
    found: Found,
    (since, agent): (Timestamp, Agent),
    status: &mut SourceStatus,
    drafts: &mut Drafts,
) {
    let Found { infos, messages, todos, commands } = found;
    for info in infos.values() {
        if let Some(version) = &info.version {
            status.note_version(version);
        }
    }
    let root_of = |id: &str| -> String {
        let mut current = id;
        for _ in 0..MAX_NESTING {
            match infos.get(current).and_then(|info| info.parent.as_deref()) {
                Some(parent) if parent != current => current = parent,
                _ => break,
            }
        }
        current.to_owned()
    };
    // A fork (`run --fork`, the TUI's fork) is a new session holding copies of the other
    // session's messages and parts, new ids but times kept: dated before the fork was made.
    let copied = |id: &str, time: Timestamp| {
        infos.get(id).and_then(|info| info.created).is_some_and(|made| time < made)
    };
    let mut cwd_from_replies: BTreeMap<String, String> = BTreeMap::new();
    for message in messages {
        let root = root_of(&message.session);
        let own = root == message.session;
        let draft = super::draft(drafts, agent, &root);
        if message.created.is_some_and(|time| copied(&message.session, time)) {
            // Counted in the session it was copied from; only a copied prompt's text is
            // used (for the fork's title, when opencode gave it none).
            if let (true, Some(time), Some(text)) = (own, message.created, &message.typed) {
                draft.note_prompt_text(time, unquoted(text));
            }
            continue;
        }
        match message.role.as_deref() {
            Some("user" | "assistant") | None => {}
            Some(other) => status.note_unknown(&format!("message role {other}")),
        }
        let in_window = message.created.is_some_and(|time| time >= since);
        for time in [message.created, message.completed].into_iter().flatten() {
            if time >= since {
                draft.activity.push(time);
            }
        }
        if in_window {
            for model in &message.models {
                draft.note_model(model);
            }
        }
        if own {
            if let (Some(time), Some(text)) = (message.created, &message.typed) {
                if time >= since {
                    draft.prompts.push(time);
                }
                draft.note_prompt_text(time, unquoted(text));
            }
            if let Some(cwd) = message.cwd {
                cwd_from_replies.entry(root).or_insert(cwd);
            }
        }
    }
    for (id, (time, list)) in todos {
        // A sub-agent's list is its own plan, not the session's; a fork's copy of the
        // other session's is that session's.
        if root_of(&id) == id && !copied(&id, time) {
            if let Some(draft) = drafts.get_mut(&id) {
                draft.note_todos(time, list);
            }
        }
    }
    for (id, runs) in commands {
        // A sub-agent's commands are its own, not the main chain's.
        if root_of(&id) == id {
            if let Some(draft) = drafts.get_mut(&id) {
                for (time, command, exit) in runs {
                    if copied(&id, time) {
                        continue;
                    }
                    draft.note_command(time, &command, exit);
                }
            }
        }
    }
    for (id, draft) in drafts.iter_mut() {
        let info = infos.get(id).cloned().unwrap_or_default();
        draft.title =
            info.title.filter(|title| !title.trim().is_empty() && !is_placeholder_title(title));
        draft.cwd = info
            .directory
            .or_else(|| cwd_from_replies.get(id).cloned())
            .map(PathBuf::from)
            .filter(|path| path.is_absolute());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_loses_the_quotes_run_put_around_it() {
        assert_eq!(unquoted("\"fix the tests\""), "fix the tests");
        assert_eq!(unquoted("fix \"the\" tests"), "fix \"the\" tests");
        assert_eq!(unquoted("\"half"), "\"half");
        assert_eq!(unquoted("\""), "\"");
        assert_eq!(unquoted("\"\""), "");
    }

    #[test]
    fn placeholder_titles_are_told_from_real_ones() {
        assert!(is_placeholder_title("New session - 2026-05-04T10:11:12.345Z"));
        assert!(is_placeholder_title("Child session - 2026-05-04T10:11:12.345Z"));
        assert!(!is_placeholder_title("New session - fix the parser"));
        assert!(!is_placeholder_title("Fix the parser"));
        // The time exactly as `toISOString` writes it: 24 characters, milliseconds, `Z`.
        assert!(!is_placeholder_title("New session - twenty-four plain chars."));
        assert!(!is_placeholder_title("New session - twenty-four plain charsZ"));
        assert!(!is_placeholder_title("New session - 2026-05-04T10:11:12Z"));
        assert!(!is_placeholder_title("New session - 2026-05-04T10:11:12.345+00:00"));
        // A fork of a session so titled, and only that.
        assert!(is_placeholder_title("New session - 2026-05-04T10:11:12.345Z (fork #1)"));
        assert!(is_placeholder_title("New session - 2026-05-04T10:11:12.345Z (fork #12)"));
        assert!(!is_placeholder_title("Fix the parser (fork #1)"));
        assert!(!is_placeholder_title("New session - 2026-05-04T10:11:12.345Z (fork #)"));
        assert!(!is_placeholder_title("New session - 2026-05-04T10:11:12.345Z (fork #x)"));
        assert!(!is_placeholder_title("New session - 2026-05-04T10:11:12.345Z (fork #1"));
    }

    #[test]
    fn synthetic_and_ignored_text_is_not_typed() {
        let mut parts = Parts::default();
        parts.add(Some("text"), Some("Called the Read tool"), true, false);
        parts.add(Some("text"), Some("hidden"), false, true);
        parts.add(Some("hologram"), None, false, false);
        assert_eq!(parts.typed, None);
        parts.add(Some("text"), Some("  fix it "), false, false);
        assert_eq!(parts.typed.as_deref(), Some("fix it"));
        assert_eq!(parts.unknown, vec!["part type hologram".to_owned()]);
    }
}
