//! Tests of the Hermes Agent reader (see crates/collect/src/sessions/hermes.rs).
//!
//! The databases are built with the tables `hermes-agent` 0.19.0 created in its
//! recording (`fixtures/agents/hermes/0.19.0/`, the columns read, from its
//! `sqlite_master`), in WAL mode with the writer kept open, as while Hermes runs.

use std::path::Path;

use report_model::{Agent, TodoStatus, WarningCode};
use rusqlite::{Connection, params};
use serde_json::json;

use crate::support::{
    Home, failed_runs, read_with_home, recorded_failure, recorded_todos, scripted, session, status,
    times, todo_items, ts, warning_texts,
};

const SINCE: &str = "2026-03-02T00:00:00Z";
const DB: &str = ".hermes/state.db";
/// 2026-03-02T09:00:00Z in epoch seconds.
const NINE: f64 = 1_772_442_000.0;

/// The tables Hermes Agent 0.19.0 writes sessions and messages to (the columns read, and
/// a few beside them).
const SCHEMA: &str = "
CREATE TABLE sessions (
    id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT, model TEXT, model_config TEXT,
    system_prompt TEXT, parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL,
    end_reason TEXT, message_count INTEGER DEFAULT 0, cwd TEXT, git_branch TEXT,
    git_repo_root TEXT, title TEXT, archived INTEGER NOT NULL DEFAULT 0,
    FOREIGN KEY (parent_session_id) REFERENCES sessions(id)
);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT,
    timestamp REAL NOT NULL, token_count INTEGER, finish_reason TEXT,
    active INTEGER NOT NULL DEFAULT 1, compacted INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX idx_messages_session ON messages(session_id, timestamp);
";

/// A Hermes database being written: WAL mode, the writer open.
struct Db {
    conn: Connection,
}

impl Db {
    fn create(path: &Path) -> Db {
        let conn = crate::support::wal_database(path, SCHEMA);
        Db { conn }
    }

    /// A session: id, source, model, its `model_config`, parent, end reason, cwd, title.
    #[expect(clippy::too_many_arguments, reason = "one row's columns, spelled out")]
    fn session(
        &self,
        id: &str,
        source: &str,
        config: &str,
        parent: Option<&str>,
        end_reason: Option<&str>,
        cwd: Option<&str>,
        title: Option<&str>,
    ) {
        self.conn
            .execute(
                "INSERT INTO sessions (id, source, model, model_config, system_prompt, parent_session_id, started_at, end_reason, cwd, title) VALUES (?1, ?2, 'claude-sonnet-4-5', ?3, 'You are Hermes Agent', ?4, ?5, ?6, ?7, ?8)",
                params![id, source, config, parent, NINE - 3600.0, end_reason, cwd, title],
            )
            .expect("session");
    }

    /// A message `offset` seconds after 09:00 UTC.
    fn message(
        &self,
        session: &str,
        role: &str,
        offset: f64,
        content: &str,
        tool: (&str, &str, &str),
    ) {
        let (calls, call_id, name) = tool;
        let none = |text: &str| (!text.is_empty()).then(|| text.to_owned());
        self.conn
            .execute(
                "INSERT INTO messages (session_id, role, content, tool_calls, tool_call_id, tool_name, timestamp) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![session, role, content, none(calls), none(call_id), none(name), NINE + offset],
            )
            .expect("message");
    }
}

const NO_TOOL: (&str, &str, &str) = ("", "", "");

fn call(id: &str, name: &str, arguments: &serde_json::Value) -> String {
    json!([{"id": id, "type": "function", "function": {"name": name, "arguments": arguments.to_string()}}])
        .to_string()
}

/// A day: yesterday's prompt, the day's prompt, a list written twice, a command that
/// failed, one that passed, one with no status, a reply and a second prompt.
fn day(db: &Db, id: &str) {
    db.session(
        id,
        "cli",
        "{\"max_iterations\": 90}",
        None,
        None,
        Some("/work/app"),
        Some("Fix check.sh"),
    );
    db.message(id, "user", -40_000.0, "yesterday's question", NO_TOOL);
    db.message(id, "user", 0.25, "why does check.sh fail?", NO_TOOL);
    let todos = |items: serde_json::Value| json!({"todos": items}).to_string();
    db.message(id, "assistant", 1.0, "", (&call("c1", "todo", &json!({})), "", ""));
    db.message(
        id,
        "tool",
        1.1,
        &todos(json!([{"id": "1", "content": "Read check.sh", "status": "in_progress"}])),
        ("", "c1", "todo"),
    );
    db.message(id, "assistant", 2.0, "", (&call("c2", "todo", &json!({})), "", ""));
    db.message(
        id,
        "tool",
        2.1,
        &todos(json!([{"id": "1", "content": "Read check.sh", "status": "completed"}, {"id": "2", "content": "Fix it", "status": "pending"}])),
        ("", "c2", "todo"),
    );
    for (n, command, exit) in [
        (3, "sh check.sh", json!(3)),
        (4, "cargo fmt --check", json!(0)),
        (5, "sleep 999", json!(-1)),
    ] {
        let id_n = format!("t{n}");
        let at = f64::from(n);
        db.message(
            id,
            "assistant",
            at,
            "",
            (&call(&id_n, "terminal", &json!({"command": command})), "", ""),
        );
        db.message(
            id,
            "tool",
            at + 0.5,
            &json!({"output": "x", "exit_code": exit, "error": null}).to_string(),
            ("", &id_n, "terminal"),
        );
    }
    db.message(id, "assistant", 9.0, "It exits 3 on purpose.", NO_TOOL);
    db.message(id, "user", 600.0, "then make it pass", NO_TOOL);
}

#[test]
fn hermes_a_session_s_prompts_title_folder_model_list_and_failed_command_are_read() {
    let home = Home::new();
    let db = Db::create(&home.path().join(DB));
    day(&db, "20260302_090000_abc123");
    let output = home.read(Agent::Hermes, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::Hermes, "20260302_090000_abc123");
    assert_eq!(event.prompts, times(&["2026-03-02T09:00:00.25Z", "2026-03-02T09:10:00Z"]));
    assert_eq!(event.title, "Fix check.sh");
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/work/app")));
    assert_eq!(event.models, ["claude-sonnet-4-5"]);
    assert_eq!(
        todo_items(event),
        [("Read check.sh", TodoStatus::Completed), ("Fix it", TodoStatus::Pending)]
    );
    assert_eq!(failed_runs(event), [("sh check.sh", vec![(3, ts("2026-03-02T09:00:03.5Z"))])]);
    assert_eq!(event.activity.first(), Some(&ts("2026-03-02T09:00:00.25Z")));
    let status = status(&output, Agent::Hermes);
    assert!(status.found);
    assert_eq!((status.files, status.entries), (1, 1));
    assert_eq!(status.locations, [home.path().join(DB)]);
}

#[test]
fn hermes_without_a_title_or_folder_the_first_prompt_and_the_repository_root() {
    let home = Home::new();
    let db = Db::create(&home.path().join(DB));
    db.session("s1", "tui", "{}", None, None, None, None);
    db.conn.execute("UPDATE sessions SET git_repo_root = '/work/repo'", []).expect("root");
    db.message("s1", "user", 0.0, "  add a test  ", NO_TOOL);
    let output = home.read(Agent::Hermes, ts(SINCE));
    let event = session(&output, Agent::Hermes, "s1");
    assert_eq!(event.title, "add a test");
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/work/repo")));
}

#[test]
fn hermes_gateway_and_cron_messages_are_activity_and_a_sub_agent_is_its_parent_s() {
    let home = Home::new();
    let db = Db::create(&home.path().join(DB));
    db.session("chat", "telegram", "{}", None, None, None, None);
    db.message("chat", "user", 0.0, "someone in the group", NO_TOOL);
    db.session("job", "cron", "{}", None, None, None, None);
    db.message("job", "user", 1.0, "the nightly job", NO_TOOL);
    db.session("main", "cli", "{}", None, None, Some("/work/app"), None);
    db.message("main", "user", 2.0, "split the work", NO_TOOL);
    db.session("sub", "cli", "{\"_delegate_from\": \"main\"}", Some("main"), None, None, None);
    db.message("sub", "user", 3.0, "the delegated task", NO_TOOL);
    db.message("sub", "assistant", 4.0, "done", NO_TOOL);
    // A session that split off when its context was compressed goes on with the same
    // conversation; one branched off is a conversation of its own.
    db.session("long", "cli", "{}", None, Some("compression"), None, None);
    db.message("long", "user", 5.0, "first half", NO_TOOL);
    db.session("long2", "cli", "{}", Some("long"), None, None, None);
    db.message("long2", "user", 6.0, "second half", NO_TOOL);
    db.session("fork", "cli", "{}", Some("main"), None, None, None);
    db.message("fork", "user", 7.0, "another way", NO_TOOL);
    let output = home.read(Agent::Hermes, ts(SINCE));
    assert!(session(&output, Agent::Hermes, "chat").prompts.is_empty());
    assert!(session(&output, Agent::Hermes, "job").prompts.is_empty());
    let main = session(&output, Agent::Hermes, "main");
    assert_eq!(main.prompts, times(&["2026-03-02T09:00:02Z"]));
    assert_eq!(main.activity.last(), Some(&ts("2026-03-02T09:00:04Z")));
    let long = session(&output, Agent::Hermes, "long");
    assert_eq!(long.prompts, times(&["2026-03-02T09:00:05Z", "2026-03-02T09:00:06Z"]));
    assert_eq!(session(&output, Agent::Hermes, "fork").prompts.len(), 1);
    let ids: Vec<&str> = output.events.iter().map(|event| event.session_id.as_str()).collect();
    assert!(!ids.contains(&"sub") && !ids.contains(&"long2"), "{ids:?}");
}

#[test]
fn hermes_a_database_not_written_since_is_not_opened() {
    let home = Home::new();
    let path = home.path().join(DB);
    {
        let db = Db::create(&path);
        day(&db, "s1");
        db.conn.pragma_update(None, "wal_checkpoint", "TRUNCATE").expect("checkpoint");
    }
    let old = ts("2026-03-01T12:00:00Z");
    crate::support::set_mtime(&path, old);
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    if Path::new(&wal).exists() {
        crate::support::set_mtime(Path::new(&wal), old);
    }
    let output = home.read(Agent::Hermes, ts(SINCE));
    assert!(output.events.is_empty());
    assert_eq!(status(&output, Agent::Hermes).files, 1);
}

#[test]
fn hermes_s_folder_moves_with_its_variable_and_the_config() {
    let home = Home::new();
    let db = Db::create(&home.path().join("elsewhere/state.db"));
    day(&db, "s1");
    let moved = Home::new().var("HERMES_HOME", home.path().join("elsewhere").to_string_lossy());
    let output = moved.read(Agent::Hermes, ts(SINCE));
    assert_eq!(session(&output, Agent::Hermes, "s1").prompts.len(), 2);
    let output = read_with_home(&home, Agent::Hermes, home.path().join("elsewhere"), ts(SINCE));
    assert_eq!(status(&output, Agent::Hermes).locations, [home.path().join("elsewhere/state.db")]);
    assert_eq!(session(&output, Agent::Hermes, "s1").prompts.len(), 2);
    // An empty home folder is found, with nothing in it.
    fs_err::create_dir_all(home.path().join(".hermes")).expect("folder");
    let output = home.read(Agent::Hermes, ts(SINCE));
    assert!(status(&output, Agent::Hermes).found);
    assert_eq!(status(&output, Agent::Hermes).files, 0);
}

#[test]
fn hermes_an_older_database_without_some_columns_is_read() {
    let home = Home::new();
    let path = home.path().join(DB);
    fs_err::create_dir_all(path.parent().expect("parent")).expect("folder");
    let conn = Connection::open(&path).expect("db");
    conn.execute_batch(
        "CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL, cwd TEXT);
         CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, timestamp REAL NOT NULL);",
    )
    .expect("schema");
    conn.execute("INSERT INTO sessions VALUES ('old', 'cli', 'gpt-5', ?1, '/work/old')", [NINE])
        .expect("session");
    conn.execute(
        "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('old', 'user', 'an old prompt', ?1)",
        [NINE],
    )
    .expect("message");
    let output = home.read(Agent::Hermes, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::Hermes, "old");
    assert_eq!(event.title, "an old prompt");
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/work/old")));
    assert_eq!(event.models, ["gpt-5"]);
}

#[test]
fn hermes_a_database_without_its_tables_is_a_warning_naming_it() {
    for schema in [
        "CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT);",
        "CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, timestamp REAL);",
        "CREATE TABLE other (x);",
    ] {
        let home = Home::new();
        let path = home.path().join(DB);
        let _writer = crate::support::wal_database(&path, schema);
        let output = home.read(Agent::Hermes, ts(SINCE));
        assert!(output.events.is_empty());
        let texts = warning_texts(&output, WarningCode::SourceUnreadable);
        assert_eq!(texts.len(), 1, "{schema}: {:?}", output.warnings);
        assert!(texts[0].contains(&path.display().to_string()), "{texts:?}");
        assert!(texts[0].contains("no `sessions` and `messages` tables"), "{texts:?}");
    }
}

#[test]
fn hermes_a_fifo_in_place_of_the_database_is_named_not_waited_on() {
    let home = Home::new();
    let path = home.path().join(DB);
    fs_err::create_dir_all(path.parent().expect("parent")).expect("folder");
    let _fifo = crate::fifo::Fifo::make(&path);
    let output = home.read(Agent::Hermes, ts(SINCE));
    assert!(output.events.is_empty());
    crate::support::assert_one_warning_naming(&output, WarningCode::SourceUnreadable, &path);
}

#[test]
fn hermes_a_message_whose_time_is_no_time_is_skipped_with_a_warning_and_the_rest_is_read() {
    let home = Home::new();
    let db = Db::create(&home.path().join(DB));
    day(&db, "s1");
    // Two prompts of the day whose `timestamp` holds text, as no Hermes writes it (a
    // REAL column keeps a text that is no number).
    for text in ["a prompt at no time", "another one"] {
        db.conn
            .execute(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s1', 'user', ?1, 'yesterday')",
                [text],
            )
            .expect("message");
    }
    let output = home.read(Agent::Hermes, ts(SINCE));
    let event = session(&output, Agent::Hermes, "s1");
    assert_eq!(event.prompts, times(&["2026-03-02T09:00:00.25Z", "2026-03-02T09:10:00Z"]));
    crate::support::assert_unreadable_times(&output, &home.path().join(DB), "timestamp", 2);
    assert_eq!(status(&output, Agent::Hermes).limits, ["2 malformed lines skipped in 1 file"]);
}

#[test]
fn hermes_messages_at_the_window_s_start_count_whatever_the_float_rounding() {
    let home = Home::new();
    let db = Db::create(&home.path().join(DB));
    db.session("s1", "cli", "{}", None, None, None, None);
    // Midnight UTC as the float just below it (a quarter of a microsecond early, as a
    // sum of floats may hold it), and half a second later.
    let midnight = NINE - 9.0 * 3600.0;
    let just_below = f64::from_bits(midnight.to_bits() - 1);
    for (at, text) in [(just_below, "at midnight"), (midnight + 0.5, "half a second later")] {
        db.conn
            .execute(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s1', 'user', ?1, ?2)",
                params![text, at],
            )
            .expect("message");
    }
    let output = home.read(Agent::Hermes, ts(SINCE));
    let event = session(&output, Agent::Hermes, "s1");
    assert_eq!(event.prompts, times(&[SINCE, "2026-03-02T00:00:00.5Z"]));
}

#[test]
fn hermes_the_recorded_list_and_failed_command_are_read() {
    let home = Home::new();
    home.copy_fixture("agents/hermes/0.19.0/home", "", ts("2026-12-06T01:41:17Z"));
    let output = home.read(Agent::Hermes, ts("2026-12-06T00:00:00Z"));
    crate::support::assert_recorded_sessions(&output);
    let scripted = scripted(&output);
    assert_eq!(scripted[0], (recorded_todos(), recorded_failure()));
}
