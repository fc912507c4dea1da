//! Tests of the Goose reader (see crates/collect/src/sessions/goose.rs).
//!
//! The databases are built with the tables Goose 1.52.0 created in its recording
//! (`fixtures/agents/goose/1.52.0/`, copied from its `sqlite_master`), in WAL mode with
//! the writer kept open, as while Goose runs; one test uses the older schema (version 3:
//! `description`, no `name`, `session_type` or `parent_session_id`).

use std::path::Path;

use report_model::{Agent, TodoStatus, WarningCode};
use rusqlite::{Connection, params};
use serde_json::{Value, json};

use crate::support::{
    Home, failed_runs, recorded_failure, recorded_todos, scripted, session, status, times,
    todo_items, ts,
};

const SINCE: &str = "2026-03-02T00:00:00Z";
const DB: &str = ".local/share/goose/sessions/sessions.db";

/// The tables Goose 1.52.0 writes sessions and messages to (the columns it has).
const SCHEMA: &str = "
CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
    user_set_name BOOLEAN DEFAULT FALSE, session_type TEXT NOT NULL DEFAULT 'user',
    working_dir TEXT NOT NULL, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, extension_data TEXT DEFAULT '{}',
    total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER, cache_read_tokens INTEGER,
    cache_write_tokens INTEGER, accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER,
    accumulated_output_tokens INTEGER, accumulated_cache_read_tokens INTEGER,
    accumulated_cache_write_tokens INTEGER, accumulated_cost REAL, schedule_id TEXT,
    recipe_json TEXT, user_recipe_values_json TEXT, provider_name TEXT, model_config_json TEXT,
    goose_mode TEXT NOT NULL DEFAULT 'auto', archived_at TIMESTAMP, project_id TEXT,
    parent_session_id TEXT
);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT, message_id TEXT,
    session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL,
    content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL,
    timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT
);
CREATE INDEX idx_messages_session ON messages(session_id);
";

/// The same tables at schema version 3 (before `name`, `session_type` and
/// `parent_session_id`).
const OLD_SCHEMA: &str = "
CREATE TABLE sessions (
    id TEXT PRIMARY KEY, description TEXT NOT NULL DEFAULT '', working_dir TEXT NOT NULL,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    extension_data TEXT DEFAULT '{}', total_tokens INTEGER, input_tokens INTEGER,
    output_tokens INTEGER, accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER,
    accumulated_output_tokens INTEGER, schedule_id TEXT, recipe_json TEXT,
    user_recipe_values_json TEXT
);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL, content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL,
    timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT
);
";

/// A Goose database being written: WAL mode, the writer open.
struct Db {
    conn: Connection,
}

impl Db {
    fn create(path: &Path, schema: &str) -> Db {
        let conn = crate::support::wal_database(path, schema);
        Db { conn }
    }

    /// A session row: id, type, name, working dir, its `extension_data`, its parent; made
    /// (`created_at`) at the start of the day its id names, as Goose names it.
    fn session(&self, id: &str, kind: &str, name: &str, dir: &str, data: &Value, parent: &str) {
        let made = format!("{}-{}-{} 00:00:00", &id[..4], &id[4..6], &id[6..8]);
        self.session_made(id, kind, name, dir, data, parent, &made);
    }

    /// [`Db::session`], made at `made` (SQLite's `CURRENT_TIMESTAMP` form, UTC).
    #[expect(clippy::too_many_arguments, reason = "one column each")]
    fn session_made(
        &self,
        id: &str,
        kind: &str,
        name: &str,
        dir: &str,
        data: &Value,
        parent: &str,
        made: &str,
    ) {
        let parent = (!parent.is_empty()).then_some(parent);
        self.conn
            .execute(
                "INSERT INTO sessions (id, name, session_type, working_dir, extension_data, \
                 model_config_json, parent_session_id, created_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    id,
                    name,
                    kind,
                    dir,
                    data.to_string(),
                    r#"{"model_name":"gpt-5.1","temperature":null}"#,
                    parent,
                    made
                ],
            )
            .expect("session");
    }

    /// A message at `time` (seconds are what Goose stores).
    fn message(&self, session: &str, role: &str, time: &str, content: &Value, meta: &Value) {
        let meta = (!meta.is_null()).then(|| meta.to_string());
        self.conn
            .execute(
                "INSERT INTO messages (session_id, role, content_json, created_timestamp, \
                 metadata_json) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![session, role, content.to_string(), ts(time).as_second(), meta],
            )
            .expect("message");
    }

    fn prompt(&self, session: &str, time: &str, text: &str) {
        self.message(
            session,
            "user",
            time,
            &json!([{"type": "text", "text": text}]),
            &json!({"userVisible": true, "agentVisible": true}),
        );
    }

    /// Goose's context for a turn: a user message the person never sees.
    fn turn_context(&self, session: &str, time: &str) {
        self.message(
            session,
            "user",
            time,
            &json!([{"type": "text", "text": "<turn-context>\n<working-directory>/w</working-directory>\n</turn-context>"}]),
            &json!({"userVisible": false, "agentVisible": true, "turnContext": true}),
        );
    }

    fn reply(&self, session: &str, time: &str, text: &str, model: &str) {
        self.message(
            session,
            "assistant",
            time,
            &json!([{"type": "text", "text": text}]),
            &json!({"userVisible": true, "inference": {"provider": "openai", "requestedModel": model}}),
        );
    }

    /// A call of `tool` with `arguments`, and its result at the same time.
    fn call(
        &self,
        session: &str,
        time: &str,
        (id, tool): (&str, &str),
        arguments: &Value,
        result: &Value,
    ) {
        self.message(
            session,
            "assistant",
            time,
            &json!([{"type": "toolRequest", "id": id, "toolCall": {"status": "success", "value": {"name": tool, "arguments": arguments}}}]),
            &json!({"userVisible": true}),
        );
        self.message(
            session,
            "user",
            time,
            &json!([{"type": "toolResponse", "id": id, "toolResult": {"status": "success", "value": result}}]),
            &json!({"userVisible": true, "agentVisible": true}),
        );
    }

    /// A `shell` call of `command` that exits with `exit`, as Goose 1.52.0 records it.
    fn shell(&self, session: &str, time: &str, id: &str, command: &str, exit: i64) {
        let text = if exit == 0 {
            "ok".to_owned()
        } else {
            format!("boom\n\nCommand exited with code {exit}")
        };
        self.call(
            session,
            time,
            (id, "shell"),
            &json!({"command": command}),
            &json!({"resultType": "complete", "content": [{"type": "text", "text": text}],
                    "structuredContent": {"stdout": "", "stderr": "", "exit_code": exit},
                    "isError": exit != 0}),
        );
    }
}

fn todo_data(markdown: &str) -> Value {
    json!({"enabled_extensions.v0": {"extensions": []}, "todo.v0": {"content": markdown}})
}

/// A session of the window: a prompt before it, two typed prompts in it with their
/// turn contexts, a reply, the to-do tool, a command that failed and one that passed.
fn busy_home() -> (Home, Db) {
    let home = Home::new();
    let db = Db::create(&home.path().join(DB), SCHEMA);
    db.session(
        "20260302_1",
        "user",
        "Fix the flaky retry test",
        "/work/app",
        &todo_data("- [x] Reproduce\n- [ ] Pin the clock"),
        "",
    );
    db.prompt("20260302_1", "2026-03-01T23:50:00Z", "yesterday's question");
    db.prompt("20260302_1", "2026-03-02T09:00:00Z", "why does the retry test flake?");
    db.turn_context("20260302_1", "2026-03-02T09:00:00Z");
    db.reply("20260302_1", "2026-03-02T09:00:20Z", "Looking.", "gpt-5.1-codex");
    db.call(
        "20260302_1",
        "2026-03-02T09:01:00Z",
        ("call_1", "todo__todo_write"),
        &json!({"content": "- [x] Reproduce\n- [ ] Pin the clock"}),
        &json!({"resultType": "complete", "content": [{"type": "text", "text": "Updated (36 chars)"}], "isError": false}),
    );
    db.shell("20260302_1", "2026-03-02T09:02:00Z", "call_2", "cargo test retry", 101);
    db.shell("20260302_1", "2026-03-02T09:03:00Z", "call_3", "cargo fmt --check", 0);
    db.prompt("20260302_1", "2026-03-02T09:10:00Z", "pin the clock then");
    db.turn_context("20260302_1", "2026-03-02T09:10:00Z");
    (home, db)
}

#[test]
fn goose_a_session_s_prompts_title_model_list_and_failed_command_are_read() {
    let (home, _db) = busy_home();
    let output = home.read(Agent::Goose, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::Goose, "20260302_1");
    // The turn contexts and tool results are not prompts; yesterday's is not in the window.
    assert_eq!(event.prompts, times(&["2026-03-02T09:00:00Z", "2026-03-02T09:10:00Z"]));
    assert_eq!(event.title, "Fix the flaky retry test");
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/work/app")));
    // The reply's model, not the session's configured one.
    assert_eq!(event.models, ["gpt-5.1-codex"]);
    assert_eq!(
        todo_items(event),
        [("Reproduce", TodoStatus::Completed), ("Pin the clock", TodoStatus::Pending)]
    );
    assert_eq!(event.todos_time, Some(ts("2026-03-02T09:01:00Z")));
    assert_eq!(failed_runs(event), [("cargo test retry", vec![(101, ts("2026-03-02T09:02:00Z"))])]);
    assert_eq!(event.activity.first(), Some(&ts("2026-03-02T09:00:00Z")));
    assert_eq!(event.activity.last(), Some(&ts("2026-03-02T09:10:00Z")));
    let status = status(&output, Agent::Goose);
    assert!(status.found);
    assert_eq!((status.files, status.entries), (1, 1));
    assert_eq!(status.locations, [home.path().join(DB)]);
}

#[test]
fn goose_a_message_whose_time_is_no_time_is_skipped_with_a_warning_and_the_rest_is_read() {
    let (home, db) = busy_home();
    // A prompt and a call of the to-do tool whose `created_timestamp` holds text, as no
    // Goose writes it (an INTEGER column keeps a text that is no number). Read as an
    // integer, one such row failed the whole database.
    for (role, content) in [
        ("user", json!([{"type": "text", "text": "a prompt at no time"}])),
        (
            "assistant",
            json!([{"type": "toolRequest", "id": "c", "toolCall": {"status": "success", "value": {"name": "todo__todo_write", "arguments": {}}}}]),
        ),
    ] {
        db.conn
            .execute(
                "INSERT INTO messages (session_id, role, content_json, created_timestamp) \
                 VALUES ('20260302_1', ?1, ?2, 'yesterday')",
                params![role, content.to_string()],
            )
            .expect("message");
    }
    let output = home.read(Agent::Goose, ts(SINCE));
    let event = session(&output, Agent::Goose, "20260302_1");
    assert_eq!(event.prompts, times(&["2026-03-02T09:00:00Z", "2026-03-02T09:10:00Z"]));
    assert_eq!(event.todos_time, Some(ts("2026-03-02T09:01:00Z")));
    crate::support::assert_unreadable_times(&output, &home.path().join(DB), "created_timestamp", 2);
    assert_eq!(status(&output, Agent::Goose).limits, ["2 malformed lines skipped in 1 file"]);
}

#[test]
fn goose_a_failure_fixed_later_is_not_open() {
    let (home, db) = busy_home();
    db.shell("20260302_1", "2026-03-02T09:20:00Z", "call_4", "cargo test retry", 0);
    let output = home.read(Agent::Goose, ts(SINCE));
    let event = session(&output, Agent::Goose, "20260302_1");
    assert!(event.failed_commands.is_empty(), "{:?}", event.failed_commands);
}

#[test]
fn goose_a_list_written_before_the_window_keeps_its_own_time() {
    let home = Home::new();
    let db = Db::create(&home.path().join(DB), SCHEMA);
    db.session("20260301_4", "user", "Plan", "/work/app", &todo_data("- [ ] Ship it"), "");
    db.call(
        "20260301_4",
        "2026-03-01T18:00:00Z",
        ("call_9", "todo__todo_write"),
        &json!({"content": "- [ ] Ship it"}),
        &json!({"resultType": "complete", "content": [], "isError": false}),
    );
    db.prompt("20260301_4", "2026-03-02T08:00:00Z", "ship it");
    let output = home.read(Agent::Goose, ts(SINCE));
    let event = session(&output, Agent::Goose, "20260301_4");
    assert_eq!(todo_items(event), [("Ship it", TodoStatus::Pending)]);
    assert_eq!(event.todos_time, Some(ts("2026-03-01T18:00:00Z")));
}

#[test]
fn goose_a_sub_agent_is_activity_of_the_session_that_started_it() {
    let (home, db) = busy_home();
    db.session("20260302_2", "sub_agent", "Helper", "/work/app", &json!({}), "20260302_1");
    db.prompt("20260302_2", "2026-03-02T11:00:00Z", "the parent's instructions to it");
    db.reply("20260302_2", "2026-03-02T11:00:30Z", "done", "gpt-5-mini");
    db.shell("20260302_2", "2026-03-02T11:00:40Z", "call_s", "rm -rf build", 1);
    // A child typed `user` is the parent's too, by its parent alone.
    db.session("20260302_6", "user", "Child", "/work/app", &json!({}), "20260302_1");
    db.prompt("20260302_6", "2026-03-02T11:05:00Z", "also the parent's words");
    let output = home.read(Agent::Goose, ts(SINCE));
    assert_eq!(output.events.len(), 1, "{:?}", output.events);
    assert!(status(&output, Agent::Goose).unknown.is_empty());
    let event = session(&output, Agent::Goose, "20260302_1");
    assert_eq!(event.prompts.len(), 2);
    assert_eq!(event.activity.last(), Some(&ts("2026-03-02T11:05:00Z")));
    assert_eq!(event.models, ["gpt-5.1-codex", "gpt-5-mini"]);
    // The sub-agent's own commands are its work, not the session's.
    assert_eq!(failed_runs(event).len(), 1);
}

#[test]
fn goose_scheduled_sessions_are_activity_and_hidden_ones_are_not_read() {
    let home = Home::new();
    let db = Db::create(&home.path().join(DB), SCHEMA);
    db.session("20260302_7", "scheduled", "Nightly triage", "/work/app", &json!({}), "");
    db.prompt("20260302_7", "2026-03-02T03:00:00Z", "triage the new issues");
    db.reply("20260302_7", "2026-03-02T03:01:00Z", "done", "gpt-5.1");
    db.session("20260302_8", "hidden", "", "/work/app", &json!({}), "");
    db.prompt("20260302_8", "2026-03-02T03:05:00Z", "internal");
    db.session("20260302_9", "terminal", "CLI Session", "/work/lib", &json!({}), "");
    db.message(
        "20260302_9",
        "user",
        "2026-03-02T04:00:00Z",
        &json!([{"type": "text", "text": "what does this error mean?"}, {"type": "text", "text": "(pasted log)"}]),
        &Value::Null,
    );
    db.session("20260302_10", "teleport", "Odd", "/work/lib", &json!({}), "");
    db.prompt("20260302_10", "2026-03-02T04:30:00Z", "from somewhere new");
    let output = home.read(Agent::Goose, ts(SINCE));
    let ids: Vec<&str> = output.events.iter().map(|event| event.session_id.as_str()).collect();
    assert_eq!(ids, ["20260302_10", "20260302_7", "20260302_9"]);
    let nightly = session(&output, Agent::Goose, "20260302_7");
    assert!(nightly.prompts.is_empty());
    assert_eq!(nightly.title, "Nightly triage");
    // `goose term`'s sessions are typed; the placeholder name is no title.
    let term = session(&output, Agent::Goose, "20260302_9");
    assert_eq!(term.prompts, times(&["2026-03-02T04:00:00Z"]));
    assert_eq!(term.title, "what does this error mean?");
    // An unknown type: activity, and named for `doctor`.
    assert!(session(&output, Agent::Goose, "20260302_10").prompts.is_empty());
    assert_eq!(status(&output, Agent::Goose).unknown, ["session type teleport"]);
}

#[test]
fn goose_prompts_within_one_second_are_each_counted() {
    let home = Home::new();
    let db = Db::create(&home.path().join(DB), SCHEMA);
    db.session("20260302_3", "user", "Batch", "/work/app", &json!({}), "");
    db.prompt("20260302_3", "2026-03-02T10:00:00Z", "first");
    db.prompt("20260302_3", "2026-03-02T10:00:00Z", "second");
    db.prompt("20260302_3", "2026-03-02T10:00:00Z", "third");
    let output = home.read(Agent::Goose, ts(SINCE));
    let event = session(&output, Agent::Goose, "20260302_3");
    assert_eq!(
        event.prompts,
        times(&["2026-03-02T10:00:00Z", "2026-03-02T10:00:00.001Z", "2026-03-02T10:00:00.002Z"])
    );
}

#[test]
fn goose_an_older_database_is_read() {
    let home = Home::new();
    let db = Db::create(&home.path().join(DB), OLD_SCHEMA);
    db.conn
        .execute(
            "INSERT INTO sessions (id, description, working_dir, created_at) VALUES ('20250601_1', 'Old title', '/work/old', '2025-06-01 00:00:00')",
            [],
        )
        .expect("session");
    db.conn
        .execute(
            "INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES ('20250601_1', 'user', ?1, ?2)",
            params![json!([{"type": "text", "text": "hello"}]).to_string(), ts("2026-03-02T09:00:00Z").as_second()],
        )
        .expect("message");
    let output = home.read(Agent::Goose, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::Goose, "20250601_1");
    assert_eq!(event.title, "Old title");
    assert_eq!(event.prompts, times(&["2026-03-02T09:00:00Z"]));
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/work/old")));
}

#[test]
fn goose_s_folder_moves_with_its_path_root_and_the_config() {
    let home = Home::new();
    let root = home.path().join("goose-root");
    let db = Db::create(&root.join("data/sessions/sessions.db"), SCHEMA);
    db.session("20260302_5", "user", "Rooted", "/work/app", &json!({}), "");
    db.prompt("20260302_5", "2026-03-02T09:00:00Z", "hi");
    let home = home.var("GOOSE_PATH_ROOT", root.to_string_lossy());
    let output = home.read(Agent::Goose, ts(SINCE));
    assert_eq!(session(&output, Agent::Goose, "20260302_5").title, "Rooted");
    assert_eq!(status(&output, Agent::Goose).locations, [root.join("data/sessions/sessions.db")]);
    // A relative root is not Goose's: the default place is read.
    let home = home.var("GOOSE_PATH_ROOT", "goose-root");
    let output = home.read(Agent::Goose, ts(SINCE));
    assert!(output.events.is_empty());
    assert_eq!(status(&output, Agent::Goose).locations, [home.path().join(DB)]);
}

#[test]
fn goose_a_corrupt_database_is_a_warning_naming_it() {
    let home = Home::new();
    let path = home.write(DB, b"this is not a database, just text in its place\n".repeat(100));
    let output = home.read(Agent::Goose, ts(SINCE));
    assert!(output.events.is_empty());
    assert_eq!(output.warnings.len(), 1, "{:?}", output.warnings);
    assert_eq!(output.warnings[0].code(), WarningCode::SourceUnreadable);
    assert!(
        crate::support::en(&output.warnings[0]).contains(&path.display().to_string()),
        "{}",
        crate::support::en(&output.warnings[0])
    );
}

#[test]
fn goose_a_sub_agent_whose_parent_is_gone_is_activity_of_its_own() {
    let home = Home::new();
    let db = Db::create(&home.path().join(DB), SCHEMA);
    db.session("20260302_2", "sub_agent", "Helper", "/work/app", &json!({}), "20260301_9");
    db.prompt("20260302_2", "2026-03-02T11:00:00Z", "the parent's instructions to it");
    db.shell("20260302_2", "2026-03-02T11:00:40Z", "call_s", "rm -rf build", 1);
    let output = home.read(Agent::Goose, ts(SINCE));
    let ids: Vec<&str> = output.events.iter().map(|event| event.session_id.as_str()).collect();
    assert_eq!(ids, ["20260302_2"]);
    let event = &output.events[0];
    assert!(event.prompts.is_empty());
    assert!(event.failed_commands.is_empty());
    assert_eq!(event.title, "Helper");
}

#[test]
fn goose_only_the_shell_s_calls_that_ran_are_commands() {
    let home = Home::new();
    let db = Db::create(&home.path().join(DB), SCHEMA);
    db.session("20260302_1", "user", "Tools", "/work/app", &json!({}), "");
    db.prompt("20260302_1", "2026-03-02T09:00:00Z", "go");
    // Another tool with a `command` argument.
    db.call(
        "20260302_1",
        "2026-03-02T09:01:00Z",
        ("call_a", "analyze"),
        &json!({"command": "make lint"}),
        &json!({"structuredContent": {"exit_code": 2}, "isError": true}),
    );
    // A shell call the model made wrongly: Goose answers it with an error.
    db.message(
        "20260302_1",
        "assistant",
        "2026-03-02T09:02:00Z",
        &json!([{"type": "toolRequest", "id": "call_b", "toolCall": {"status": "error", "value": {"name": "shell", "arguments": {"command": "make test"}}}}]),
        &Value::Null,
    );
    db.message(
        "20260302_1",
        "user",
        "2026-03-02T09:02:00Z",
        &json!([{"type": "toolResponse", "id": "call_b", "toolResult": {"status": "error", "value": {"content": [{"type": "text", "text": "Command exited with code 1"}], "isError": true}}}]),
        &Value::Null,
    );
    let output = home.read(Agent::Goose, ts(SINCE));
    let event = session(&output, Agent::Goose, "20260302_1");
    assert!(event.failed_commands.is_empty(), "{:?}", event.failed_commands);
    assert_eq!(event.prompts.len(), 1);
}

#[test]
fn goose_a_database_without_its_tables_is_a_warning_naming_it() {
    for schema in [
        "CREATE TABLE sessions (id TEXT PRIMARY KEY, working_dir TEXT);",
        "CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT);",
        "CREATE TABLE other (id INTEGER);",
    ] {
        let home = Home::new();
        let path = home.path().join(DB);
        Db::create(&path, schema);
        let output = home.read(Agent::Goose, ts(SINCE));
        assert!(output.events.is_empty());
        assert_eq!(output.warnings.len(), 1, "{schema}: {:?}", output.warnings);
        let text = crate::support::en(&output.warnings[0]);
        assert!(text.contains(&path.display().to_string()), "{text}");
        assert!(text.contains("no `sessions` and `messages` tables"), "{text}");
    }
}

#[test]
fn goose_a_fifo_in_place_of_the_database_or_its_log_is_a_warning_not_a_wait() {
    // In place of the database.
    let home = Home::new();
    let path = home.path().join(DB);
    fs_err::create_dir_all(path.parent().expect("parent")).expect("folders");
    let _fifo = crate::fifo::Fifo::make(&path);
    let output = home.read(Agent::Goose, ts(SINCE));
    assert!(output.events.is_empty());
    assert_eq!(output.warnings.len(), 1, "{:?}", output.warnings);
    assert!(crate::support::en(&output.warnings[0]).contains(&path.display().to_string()));
    // In place of its write-ahead log, beside a real database.
    let (home, db) = busy_home();
    drop(db);
    let wal = home.path().join(format!("{DB}-wal"));
    let _ = fs_err::remove_file(&wal);
    let _wal = crate::fifo::Fifo::make(&wal);
    let output = home.read(Agent::Goose, ts(SINCE));
    assert!(
        output
            .warnings
            .iter()
            .any(|warning| crate::support::en(warning).contains(&wal.display().to_string())),
        "{:?}",
        output.warnings
    );
}

#[test]
fn goose_the_recorded_list_and_failed_command_are_read() {
    let home = Home::new();
    home.copy_fixture("agents/goose/1.52.0/home", "", ts("2026-12-05T20:42:28Z"));
    let output = home.read(Agent::Goose, ts("2026-12-05T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(output.events.len(), 3);
    let scripted = scripted(&output);
    assert_eq!(scripted.len(), 1, "{scripted:?}");
    let (todos, failed) = &scripted[0];
    assert_eq!(todos, &recorded_todos());
    assert_eq!(failed, &recorded_failure());
}

/// A fork (`goose session --resume --fork`, the desktop's and ACP's forks) is a new
/// session, made now, whose messages are copies of the other session's, their own times
/// kept (`copy_session`): they count in that session only, the copied failure and list
/// included; the fork's messages after it was made are its own.
#[test]
fn goose_a_fork_s_copies_of_the_other_session_are_not_counted_twice() {
    let (home, db) = busy_home();
    let data = todo_data("- [x] Reproduce\n- [ ] Pin the clock");
    let made = "2026-03-02 10:00:00";
    db.session_made("20260302_2", "user", "Fix the flaky retry test", "/work/app", &data, "", made);
    db.prompt("20260302_2", "2026-03-02T09:00:00Z", "why does the retry test flake?");
    db.reply("20260302_2", "2026-03-02T09:00:20Z", "Looking.", "gpt-5.1-codex");
    db.call(
        "20260302_2",
        "2026-03-02T09:01:00Z",
        ("call_1", "todo__todo_write"),
        &json!({"content": "- [x] Reproduce\n- [ ] Pin the clock"}),
        &json!({"resultType": "complete", "content": [{"type": "text", "text": "Updated (36 chars)"}], "isError": false}),
    );
    db.shell("20260302_2", "2026-03-02T09:02:00Z", "call_2", "cargo test retry", 101);
    db.prompt("20260302_2", "2026-03-02T09:10:00Z", "pin the clock then");
    // The fork's own prompt, in the second it was made, and its reply.
    db.prompt("20260302_2", "2026-03-02T10:00:00Z", "try a fake clock instead");
    db.reply("20260302_2", "2026-03-02T10:00:30Z", "Done.", "gpt-5.1");
    let output = home.read(Agent::Goose, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let original = session(&output, Agent::Goose, "20260302_1");
    assert_eq!(original.prompts, times(&["2026-03-02T09:00:00Z", "2026-03-02T09:10:00Z"]));
    assert_eq!(
        failed_runs(original),
        [("cargo test retry", vec![(101, ts("2026-03-02T09:02:00Z"))])]
    );
    let fork = session(&output, Agent::Goose, "20260302_2");
    assert_eq!(fork.prompts, times(&["2026-03-02T10:00:00Z"]));
    assert_eq!(fork.activity, times(&["2026-03-02T10:00:00Z", "2026-03-02T10:00:30Z"]));
    assert_eq!(fork.models, ["gpt-5.1"]);
    assert!(fork.failed_commands.is_empty(), "{:?}", fork.failed_commands);
    // Its list was written by a copied call: the other session's.
    assert!(fork.todos.is_empty(), "{:?}", fork.todos);
    assert_eq!(fork.title, "Fix the flaky retry test");
}

/// The fork Goose 1.52.0 made (`fixtures/goose-fork/1.52.0/`, by its `record.sh`): a
/// session of one prompt, forked three seconds later, and two prompts of the fork's own.
#[test]
fn goose_the_recorded_fork_counts_each_prompt_once() {
    let home = Home::new();
    home.copy_fixture("goose-fork/1.52.0/home", "", ts("2026-12-06T15:09:00Z"));
    let output = home.read(Agent::Goose, ts("2026-12-06T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let original = session(&output, Agent::Goose, "20261206_1");
    assert_eq!(original.prompts, times(&["2026-12-06T15:08:20Z"]));
    let fork = session(&output, Agent::Goose, "20261206_2");
    assert_eq!(fork.prompts, times(&["2026-12-06T15:08:25Z", "2026-12-06T15:08:27Z"]));
    assert!(
        fork.activity.iter().all(|time| *time >= ts("2026-12-06T15:08:23Z")),
        "{:?}",
        fork.activity
    );
    assert_eq!(fork.title, "done");
}

/// The recorded fork with its `created_at` no time (text a hand or a tool wrote there)
/// or none: the copies are still told from the fork's own prompts, by the `message_id`
/// each keeps of the message it copies, and counted once.
#[test]
fn goose_a_fork_whose_creation_time_is_no_time_still_counts_each_prompt_once() {
    for created in [Some("yesterday"), None] {
        let home = Home::new();
        home.copy_fixture("goose-fork/1.52.0/home", "", ts("2026-12-06T15:09:00Z"));
        let db = home.path().join(".local/share/goose/sessions/sessions.db");
        let conn = Connection::open(&db).unwrap();
        let changed = conn
            .execute("UPDATE sessions SET created_at = ?1 WHERE id = '20261206_2'", [created])
            .unwrap();
        assert_eq!(changed, 1);
        drop(conn);
        let output = home.read(Agent::Goose, ts("2026-12-06T00:00:00Z"));
        assert!(output.warnings.is_empty(), "{created:?}: {:?}", output.warnings);
        let original = session(&output, Agent::Goose, "20261206_1");
        assert_eq!(original.prompts, times(&["2026-12-06T15:08:20Z"]), "{created:?}");
        let fork = session(&output, Agent::Goose, "20261206_2");
        assert_eq!(
            fork.prompts,
            times(&["2026-12-06T15:08:25Z", "2026-12-06T15:08:27Z"]),
            "{created:?}"
        );
        assert!(
            fork.activity.iter().all(|time| *time >= ts("2026-12-06T15:08:23Z")),
            "{created:?}: {:?}",
            fork.activity
        );
    }
}

/// A fork Goose 1.52.0 made in the very second of the other session's last message
/// (`fixtures/goose-fork/same-second/`, made by hand with the same commands): its copied
/// prompt is dated when the fork was made, and only its `message_id`, the one of the
/// other session's prompt, tells it is a copy, and the reply copied after it is one too.
#[test]
fn goose_a_fork_made_in_the_second_of_the_copied_prompt_does_not_count_it() {
    let home = Home::new();
    home.copy_fixture("goose-fork/same-second/home", "", ts("2026-12-06T15:10:00Z"));
    let output = home.read(Agent::Goose, ts("2026-12-06T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let original = session(&output, Agent::Goose, "20261206_1");
    assert_eq!(original.prompts, times(&["2026-12-06T15:09:50Z"]));
    // The fork typed nothing of its own: all it holds is the copies (the reply copied in
    // that second too), so it is no session of the window.
    assert_eq!(output.events.len(), 1, "{:?}", output.events);
}
