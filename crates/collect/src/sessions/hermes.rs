//! Hermes Agent (Nous Research): its CLI, terminal UI, editor integration (ACP), cron
//! jobs and chat gateways keep every session in one SQLite database, `<home>/state.db`,
//! where `<home>` is the config's `hermes_home`, else `$HERMES_HOME` (an absolute value),
//! else `~/.hermes` (`hermes_constants.py`, `get_hermes_home`).
//!
//! Verified in `hermes-agent` 0.19.0 (its PyPI wheel: `hermes_state.py`,
//! `tools/todo_tool.py`, `tools/terminal_tool.py`) and in the database it wrote against
//! the stand-in (`hermes chat -q … --yolo`, `fixtures/agents/hermes/0.19.0/`):
//!
//! - `sessions`: `id` (`<yyyymmdd>_<hhmmss>_<hex>`, what `hermes --resume` takes),
//!   `source` (`cli`, `tui`, `acp`, `cron`, or a chat platform's name), `model`,
//!   `model_config` (JSON; `_delegate_from` marks a sub-agent's session),
//!   `parent_session_id`, `end_reason` (`compression` when the session was split because
//!   its context was compressed: the child goes on with the same conversation), `cwd`,
//!   `git_repo_root`, `title` (Hermes generates one).
//! - `messages`: `session_id`, `role` (`user`, `assistant`, `tool`), `content`,
//!   `tool_calls` (the assistant's calls, OpenAI's JSON: `id`, `function.name`,
//!   `function.arguments`), `tool_call_id` and `tool_name` on a tool's result,
//!   `timestamp` (epoch **seconds**, with a fraction). Indexed by `(session_id,
//!   timestamp)`: each session's messages of the window are found without a scan of the
//!   table, whose rows hold every tool's output; the session ids come from the primary
//!   key's index, and only the rows of the sessions with messages in the window (and of
//!   their parents) are read, each of which holds its whole system prompt.
//!
//! So: a prompt is a `user` message of a session the person types in (`cli`, `tui`,
//! `acp`); a cron job's and a chat gateway's messages (which may be other people's) are
//! activity. A sub-agent's session, and the session a compression split off, are read as
//! the session they came from (its id, its prompts). The terminal tool's result is
//! JSON with `exit_code`, its command the `command` argument of the call it answers (a
//! negative or missing code is no status); the `todo` tool's result is the whole list
//! (`todos`: `id`, `content`, `status`), the newest one kept. The title is `title`, else
//! the first prompt; the folder `cwd`, else `git_repo_root`; the model `model`.

use std::collections::HashMap;
use std::path::PathBuf;

use jiff::Timestamp;
use report_model::Agent;
use rusqlite::Connection;
use serde_json::Value;

use super::goose::text;
use super::jsonl;
use super::lenient::{self, NotATime};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, agent_home};
use crate::sqlite::Failure;
use crate::{Env, SourceStatus};

/// Sources whose user messages the person typed.
const TYPED: [&str; 3] = ["cli", "tui", "acp"];

/// How many parents are followed from a session to the one it continues.
const MAX_NESTING: usize = 16;

/// A session's row: what the report takes from it.
#[derive(Default)]
struct SessionRow {
    source: Option<String>,
    model: Option<String>,
    delegated: bool,
    parent: Option<String>,
    end_reason: Option<String>,
    cwd: Option<String>,
    title: Option<String>,
}

/// A message of the window.
struct Msg {
    session: String,
    time: Timestamp,
    role: Option<String>,
    content: Option<String>,
    /// The assistant's calls: id, tool name, `command` argument.
    calls: Vec<(String, String, Option<String>)>,
    call_id: Option<String>,
    tool: Option<String>,
}

/// What the database holds for the window.
struct DbRead {
    sessions: HashMap<String, SessionRow>,
    messages: Vec<Msg>,
    /// The messages skipped because their `timestamp` is no time.
    bad_times: jsonl::BadTimes,
}

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let home: PathBuf = agent_home(env, config, Agent::Hermes, || {
        env.abs_var("HERMES_HOME").unwrap_or_else(|| env.home.join(".hermes"))
    });
    let path = home.join("state.db");
    let mut status = SourceStatus {
        locations: vec![path.clone()],
        ..SourceStatus::new(report_model::Source::Hermes)
    };
    let mut drafts = Drafts::new();
    let since = ctx.since;
    if let Some(mut read) =
        ctx.read_database(&mut status, (&path, &home), |conn| query(conn, since))
    {
        super::report_bad_rows(ctx, &mut status, &path, std::mem::take(&mut read.bad_times));
        assemble(read, &mut drafts);
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    (drafts, status)
}

/// A message's time: epoch seconds with a fraction, kept to the microsecond.
fn message_time(seconds: f64) -> Option<Timestamp> {
    if !seconds.is_finite() {
        return None;
    }
    #[expect(clippy::cast_possible_truncation, reason = "bounded by the check on the result")]
    let micros = (seconds * 1e6).round() as i64;
    Timestamp::from_microsecond(micros).ok()
}

/// The calls of an assistant message's `tool_calls`: id, tool name, `command` argument.
fn calls(json: &str) -> Vec<(String, String, Option<String>)> {
    let Ok(Value::Array(calls)) = serde_json::from_str::<Value>(json) else { return Vec::new() };
    calls
        .iter()
        .filter_map(|call| {
            let id = call.get("id").and_then(Value::as_str)?;
            let function = call.get("function")?;
            let name = function.get("name").and_then(Value::as_str)?;
            let command = function
                .get("arguments")
                .and_then(Value::as_str)
                .and_then(|arguments| serde_json::from_str::<Value>(arguments).ok())
                .and_then(|arguments| arguments.get("command")?.as_str().map(str::to_owned));
            Some((id.to_owned(), name.to_owned(), command))
        })
        .collect()
}

/// The columns of `table` among `wanted`, as a list for a `SELECT` (older databases lack
/// some: those are read as missing).
fn columns(conn: &Connection, table: &str, wanted: &[&str]) -> Result<String, Failure> {
    let have: Vec<String> = conn
        .prepare(&format!("PRAGMA table_info({table})"))?
        .query_map([], |row| row.get::<_, String>(1))?
        .collect::<Result<_, _>>()?;
    let found: Vec<&str> =
        wanted.iter().copied().filter(|column| have.iter().any(|known| known == column)).collect();
    Ok(found.join(", "))
}

/// The session's row, `None` when there is none.
fn session_row(
    statement: &mut rusqlite::Statement<'_>,
    id: &str,
) -> Result<Option<SessionRow>, Failure> {
    let mut rows = statement.query([id])?;
    let Some(row) = rows.next()? else { return Ok(None) };
    let delegated = text(row, "model_config")
        .and_then(|json| serde_json::from_str::<Value>(&json).ok())
        .is_some_and(|config| config.get("_delegate_from").is_some_and(|from| !from.is_null()));
    let nonempty = |value: Option<String>| value.filter(|value| !value.trim().is_empty());
    Ok(Some(SessionRow {
        source: text(row, "source"),
        model: nonempty(text(row, "model")),
        delegated,
        parent: nonempty(text(row, "parent_session_id")),
        end_reason: text(row, "end_reason"),
        cwd: nonempty(text(row, "cwd")).or_else(|| nonempty(text(row, "git_repo_root"))),
        title: nonempty(text(row, "title")),
    }))
}

/// Reads each session's messages since `since`, then the rows of the sessions that have
/// some, and of their parents. Only the columns read are selected: a session's row
/// holds its whole system prompt, and a message's the model's reasoning, which would
/// otherwise be read too.
fn query(conn: &Connection, since: Timestamp) -> Result<DbRead, Failure> {
    crate::sqlite::require_tables(conn, &["sessions", "messages"])?;
    // The ids alone: read from the primary key's index, not the rows.
    let mut ids: Vec<String> = Vec::new();
    {
        let mut statement = conn.prepare("SELECT id FROM sessions")?;
        let mut rows = statement.query([])?;
        while let Some(row) = rows.next()? {
            ids.extend(text(row, "id"));
        }
    }
    ids.sort();
    let wanted = ["role", "content", "tool_calls", "tool_call_id", "tool_name", "timestamp"];
    let mut statement = conn.prepare(&format!(
        "SELECT {} FROM messages WHERE session_id = ?1 AND timestamp >= ?2 ORDER BY timestamp, id",
        columns(conn, "messages", &wanted)?
    ))?;
    // A second before the bound: the column holds fractions, compared as reals.
    #[expect(clippy::cast_precision_loss, reason = "seconds since 1970 fit an f64's mantissa")]
    let bound = (since.as_second() - 1) as f64;
    let mut messages = Vec::new();
    let mut bad_times = jsonl::BadTimes::default();
    for id in &ids {
        let mut rows = statement.query(rusqlite::params![id, bound])?;
        while let Some(row) = rows.next()? {
            // A text sorts after every number in SQLite, so the bound above keeps a row
            // whose time is no time: it is counted, and warned about.
            let time = lenient::sql_number(row, "timestamp").and_then(|seconds| {
                seconds
                    .map(|seconds| message_time(seconds).ok_or(NotATime("timestamp")))
                    .transpose()
            });
            let Some(time) = bad_times.check(None, time).filter(|time| *time >= since) else {
                continue;
            };
            messages.push(Msg {
                session: id.clone(),
                time,
                role: text(row, "role"),
                content: text(row, "content"),
                calls: text(row, "tool_calls").map(|json| calls(&json)).unwrap_or_default(),
                call_id: text(row, "tool_call_id"),
                tool: text(row, "tool_name"),
            });
        }
    }
    let wanted = [
        "source",
        "model",
        "model_config",
        "parent_session_id",
        "end_reason",
        "cwd",
        "git_repo_root",
        "title",
    ];
    let mut statement = conn.prepare(&format!(
        "SELECT {} FROM sessions WHERE id = ?1",
        columns(conn, "sessions", &wanted)?
    ))?;
    let mut sessions = HashMap::new();
    let mut wanted_ids: Vec<String> =
        messages.iter().map(|message| message.session.clone()).collect();
    wanted_ids.dedup();
    // The sessions with messages, then their parents (for whom they continue).
    for _ in 0..=MAX_NESTING {
        let mut parents = Vec::new();
        for id in wanted_ids {
            if sessions.contains_key(&id) {
                continue;
            }
            if let Some(row) = session_row(&mut statement, &id)? {
                parents.extend(row.parent.clone());
                sessions.insert(id, row);
            }
        }
        if parents.is_empty() {
            break;
        }
        wanted_ids = parents;
    }
    Ok(DbRead { sessions, messages, bad_times })
}

/// The session a session's messages are reported under: a sub-agent's and a
/// compression's continuation go to the session they came from.
fn root_of<'s>(sessions: &'s HashMap<String, SessionRow>, id: &'s str) -> &'s str {
    let mut at = id;
    for _ in 0..MAX_NESTING {
        let Some(row) = sessions.get(at) else { break };
        let Some(parent) = row.parent.as_deref() else { break };
        let Some(parent_row) = sessions.get(parent) else { break };
        let continues = parent_row.end_reason.as_deref() == Some("compression");
        if !(row.delegated || continues) {
            break;
        }
        at = parent;
    }
    at
}

/// Builds the drafts from the window's messages, in their order.
fn assemble(read: DbRead, drafts: &mut Drafts) {
    // Its skipped messages were reported by `read`.
    let DbRead { sessions, messages, bad_times: _ } = read;
    let mut built: HashMap<&str, Draft> = HashMap::new();
    // Each session's calls by id, for the results that answer them.
    let mut commands: HashMap<(&str, &str), Option<&str>> = HashMap::new();
    for message in &messages {
        let root = root_of(&sessions, &message.session);
        let row = sessions.get(&message.session);
        let draft = built.entry(root).or_insert_with(|| Draft::new(Agent::Hermes, root));
        draft.activity.push(message.time);
        if row.is_some_and(|row| row.delegated) {
            continue;
        }
        let typed =
            row.and_then(|row| row.source.as_deref()).is_some_and(|source| TYPED.contains(&source));
        match message.role.as_deref() {
            Some("user") if typed => {
                draft.prompts.push(message.time);
                draft.note_prompt_text(
                    message.time,
                    message.content.as_deref().unwrap_or("").trim(),
                );
            }
            Some("assistant") => {
                for (id, name, command) in &message.calls {
                    if name == "terminal" {
                        commands.insert((message.session.as_str(), id), command.as_deref());
                    }
                }
            }
            Some("tool") => tool_result(draft, message, &commands),
            _ => {}
        }
    }
    for (root, mut draft) in built {
        if let Some(row) = sessions.get(root) {
            if let Some(model) = &row.model {
                draft.note_model(model);
            }
            draft.title = row.title.as_deref().map(str::trim).map(str::to_owned);
            draft.cwd = row.cwd.as_deref().filter(|dir| dir.starts_with('/')).map(PathBuf::from);
        }
        add_draft(drafts, draft);
    }
}

/// What a tool's result tells: the terminal's exit status, the to-do list.
fn tool_result(draft: &mut Draft, message: &Msg, commands: &HashMap<(&str, &str), Option<&str>>) {
    let Some(result) =
        message.content.as_deref().and_then(|json| serde_json::from_str::<Value>(json).ok())
    else {
        return;
    };
    match message.tool.as_deref() {
        Some("todo") => {
            let todos = result
                .get("todos")
                .and_then(|list| serde_json::value::to_raw_value(list).ok())
                .and_then(|raw| super::todo_list(&raw));
            if let Some(todos) = todos {
                draft.note_todos(message.time, todos);
            }
        }
        Some("terminal") => {
            let call = message.call_id.as_deref().unwrap_or_default();
            let command = commands.get(&(message.session.as_str(), call)).copied().flatten();
            let exit = result.get("exit_code").and_then(Value::as_i64).filter(|exit| *exit >= 0);
            if let (Some(command), Some(exit)) = (command, exit) {
                draft.note_command(message.time, command, exit);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_seconds_with_a_fraction() {
        assert_eq!(
            message_time(1_796_521_179.882_056_7),
            "2026-12-06T01:39:39.882057Z".parse().ok()
        );
        assert_eq!(message_time(f64::NAN), None);
        assert_eq!(message_time(1e300), None);
    }

    #[test]
    fn an_assistant_s_calls_with_their_commands() {
        let json = r#"[{"id": "call_1", "type": "function", "function": {"name": "terminal", "arguments": "{\"command\": \"sh check.sh\"}"}},
            {"id": "call_2", "function": {"name": "todo", "arguments": "{\"todos\": []}"}},
            {"function": {"name": "no_id"}}]"#;
        assert_eq!(
            calls(json),
            [
                ("call_1".to_owned(), "terminal".to_owned(), Some("sh check.sh".to_owned())),
                ("call_2".to_owned(), "todo".to_owned(), None),
            ]
        );
        assert!(calls("not json").is_empty());
    }
}
