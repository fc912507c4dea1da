//! Tests of the OpenClaw reader (see crates/collect/src/sessions/openclaw.rs).
//!
//! The databases are built with the two tables the reader reads, as `openclaw` 2026.9.6
//! created them in its recording (`fixtures/agents/openclaw/2026.9.6/`, from its
//! `sqlite_master`, the columns read and the constraints that matter), in WAL mode with
//! the writer kept open, as while OpenClaw runs. The entries are written as 2026.9.6
//! writes them (the recording's shapes).

use std::path::Path;

use report_model::{Agent, WarningCode};
use rusqlite::{Connection, params};
use serde_json::json;

use crate::support::{
    Home, assert_one_warning_naming, failed_runs, fixtures, read_with_home, recorded_failure,
    scripted, session, status, times, ts, warning_texts,
};

const SINCE: &str = "2026-03-02T00:00:00Z";
const DB: &str = ".openclaw/agents/main/agent/openclaw-agent.sqlite";
/// 2026-03-02T09:00:00Z in epoch milliseconds.
const NINE: i64 = 1_772_442_000_000;
const ID: &str = "0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b";

/// The tables of 2026.9.6 the reader reads (their columns; the others are not read).
const SCHEMA: &str = "
CREATE TABLE session_nodes (
  session_key TEXT NOT NULL PRIMARY KEY, current_session_id TEXT NOT NULL,
  entry_json TEXT NOT NULL, updated_at INTEGER NOT NULL, label TEXT, display_name TEXT
) STRICT;
CREATE TABLE session_windows (
  session_id TEXT NOT NULL PRIMARY KEY, session_key TEXT NOT NULL,
  session_scope TEXT NOT NULL DEFAULT 'conversation', created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL, transcript_updated_at INTEGER DEFAULT NULL,
  model TEXT, display_name TEXT,
  FOREIGN KEY (session_key) REFERENCES session_nodes(session_key) ON DELETE CASCADE
) STRICT;
CREATE TABLE transcript_events (
  session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT,
  created_at INTEGER NOT NULL, event_zstd BLOB, event_utf8_bytes INTEGER,
  navigation_json TEXT,
  PRIMARY KEY (session_id, seq),
  FOREIGN KEY (session_id) REFERENCES session_windows(session_id) ON DELETE CASCADE,
  CHECK ((event_json IS NOT NULL AND event_zstd IS NULL)
      OR (event_json IS NULL AND event_zstd IS NOT NULL AND event_utf8_bytes IS NOT NULL))
) STRICT;
";

/// An OpenClaw agent database being written: WAL mode, the writer open.
struct Db {
    conn: Connection,
}

impl Db {
    fn create(path: &Path) -> Db {
        Db { conn: crate::support::wal_database(path, SCHEMA) }
    }

    /// A session of conversation `key`, last updated `updated` ms after 09:00 UTC.
    fn session(&self, id: &str, key: &str, updated: i64, name: Option<&str>) {
        self.conn
            .execute(
                "INSERT OR IGNORE INTO session_nodes (session_key, current_session_id, entry_json, updated_at) VALUES (?1, ?2, '{}', ?3)",
                params![key, id, NINE + updated],
            )
            .expect("node");
        self.conn
            .execute(
                "INSERT INTO session_windows (session_id, session_key, created_at, updated_at, display_name) VALUES (?1, ?2, ?3, ?3, ?4)",
                params![id, key, NINE + updated, name],
            )
            .expect("window");
    }

    /// An entry of session `id` at `seq`, written at `written` ms after 09:00 UTC.
    fn event(&self, id: &str, seq: i64, written: i64, entry: &serde_json::Value) {
        self.conn
            .execute(
                "INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?1, ?2, ?3, ?4)",
                params![id, seq, entry.to_string(), NINE + written],
            )
            .expect("event");
    }

    /// The `schema_meta` row naming the OpenClaw that wrote the schema.
    fn version(&self, version: &str) {
        self.conn
            .execute_batch(&format!(
                "CREATE TABLE schema_meta (meta_key TEXT NOT NULL PRIMARY KEY, role TEXT NOT NULL, schema_version INTEGER NOT NULL, agent_id TEXT, app_version TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL) STRICT;
                 INSERT INTO schema_meta VALUES ('primary', 'agent', 24, 'main', '{version}', 0, 0);"
            ))
            .expect("schema_meta");
    }

    /// A compressed entry, as OpenClaw stores one of 1,024 bytes and more.
    fn compressed(&self, id: &str, seq: i64, written: i64, frame: &[u8], bytes: i64) {
        self.conn
            .execute(
                "INSERT INTO transcript_events (session_id, seq, event_zstd, event_utf8_bytes, navigation_json, created_at) VALUES (?1, ?2, ?3, ?4, '{}', ?5)",
                params![id, seq, frame, bytes, NINE + written],
            )
            .expect("compressed event");
    }
}

/// The ISO time `offset` seconds after 09:00 UTC.
fn at(offset: i64) -> String {
    ts("2026-03-02T09:00:00Z")
        .checked_add(jiff::SignedDuration::from_secs(offset))
        .expect("time")
        .to_string()
}

/// The `session` header in `cwd`.
fn header(id: &str, cwd: &str, offset: i64) -> serde_json::Value {
    json!({"type": "session", "version": 4, "id": id, "timestamp": at(offset), "cwd": cwd})
}

/// A user message with its `__openclaw` fields.
fn user(text: &str, offset: i64, fields: &serde_json::Value) -> serde_json::Value {
    json!({"type": "message", "id": format!("u{offset}"), "parentId": null, "timestamp": at(offset),
        "message": {"role": "user", "content": text, "timestamp": 0, "__openclaw": fields}})
}

/// An assistant message on `model` calling `exec` with `command`.
fn exec_call(call: &str, command: &str, offset: i64) -> serde_json::Value {
    json!({"type": "message", "id": format!("a{offset}"), "parentId": null, "timestamp": at(offset),
        "message": {"role": "assistant", "model": "claude-sonnet-4-5", "provider": "anthropic",
            "content": [{"type": "toolCall", "id": call, "name": "exec", "arguments": {"command": command}}],
            "stopReason": "toolUse"}})
}

/// `exec`'s result as 2026.9.6 writes it: `details.exitCode` (`null` while running).
fn exec_result(call: &str, exit: &serde_json::Value, offset: i64) -> serde_json::Value {
    json!({"type": "message", "id": format!("r{offset}"), "parentId": null, "timestamp": at(offset),
        "message": {"role": "toolResult", "toolCallId": call, "toolName": "exec",
            "content": [{"type": "text", "text": "check: 1 test failed\n\n(Command exited with code 3)"}],
            "details": {"status": "completed", "exitCode": exit, "cwd": "/home/dev/api"},
            "isError": false}})
}

/// Reads the recording of `version` and checks its three sessions as the stand-in
/// scripted them: no warning, one prompt each, the stand-in's model, the scratch
/// repository, and the third session's failed command (OpenClaw has no to-do tool).
fn read_recording(version: &str) -> collect::SourceOutput<report_model::SessionEvent> {
    let home = Home::new();
    let recording = fixtures().join(format!("agents/openclaw/{version}/home/.openclaw"));
    let output = read_with_home(&home, Agent::OpenClaw, recording, ts("2026-12-06T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(output.events.len(), 3);
    for event in &output.events {
        assert_eq!(event.prompts.len(), 1, "{}", event.session_id);
        assert_eq!(event.models, ["standin-model"], "{}", event.session_id);
        assert_eq!(event.cwd.as_deref(), Some(Path::new("/tmp/standup-agents/repo")));
    }
    let scripted = scripted(&output);
    assert_eq!(scripted.len(), 1, "{scripted:?}");
    assert!(scripted[0].0.is_empty(), "{scripted:?}");
    assert_eq!(scripted[0].1, recorded_failure());
    output
}

#[test]
fn openclaw_the_recorded_sessions_and_failed_command_are_read() {
    let output = read_recording("2026.9.6");
    let third = session(&output, Agent::OpenClaw, "1152f485-d629-4e98-aaf6-b1afa9af3b0d");
    assert_eq!(third.title, "Plan the next steps in a to-do list, then run check.sh");
    let found = status(&output, Agent::OpenClaw);
    assert_eq!((found.files, found.entries), (1, 3));
    // The version that wrote the schema, for `doctor`.
    assert_eq!(found.versions, ["2026.9.6"]);
}

#[test]
fn the_owners_messages_are_prompts_and_others_are_activity() {
    let home = Home::new();
    let db = Db::create(&home.path().join(DB));
    db.session(ID, "agent:main:main", 900_000, None);
    db.event(ID, 0, 0, &header(ID, "/home/dev/api", 0));
    db.event(
        ID,
        1,
        60_000,
        &user("Fix the flaky upload test", 60, &json!({"senderIsOwner": true})),
    );
    // Someone else on a chat channel the agent is in.
    db.event(ID, 2, 120_000, &user("can you also deploy?", 120, &json!({"senderIsOwner": false})));
    // Not said, handed over from another session.
    let mut handed = user("Result of the sub-task", 180, &json!({}));
    handed["message"]["provenance"] = json!({"kind": "inter_session"});
    db.event(ID, 3, 180_000, &handed);
    // Not said, from nowhere else: typed.
    db.event(ID, 4, 240_000, &user("Now run the tests", 240, &json!({})));
    let output = home.read(Agent::OpenClaw, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    // No `schema_meta` table here: no version, and no warning.
    assert!(status(&output, Agent::OpenClaw).versions.is_empty());
    let event = session(&output, Agent::OpenClaw, ID);
    assert_eq!(event.agent, Agent::OpenClaw);
    assert_eq!(event.prompts, times(&["2026-03-02T09:01:00Z", "2026-03-02T09:04:00Z"]));
    assert_eq!(event.activity.len(), 5, "{:?}", event.activity);
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/home/dev/api")));
    assert_eq!(event.title, "Fix the flaky upload test");
}

#[test]
fn a_failed_exec_is_read_from_its_details_and_a_running_one_tells_nothing() {
    let home = Home::new();
    let db = Db::create(&home.path().join(DB));
    db.version("2026.10.1");
    db.session(ID, "agent:main:main", 900_000, Some("Upload fixes"));
    db.event(ID, 0, 0, &header(ID, "/home/dev/api", 0));
    db.event(ID, 1, 10_000, &user("Run the checks", 10, &json!({"senderIsOwner": true})));
    db.event(ID, 2, 20_000, &exec_call("c1", "sh check.sh", 20));
    db.event(ID, 3, 30_000, &exec_result("c1", &json!(3), 30));
    db.event(ID, 4, 40_000, &exec_call("c2", "npm run watch", 40));
    db.event(ID, 5, 50_000, &exec_result("c2", &serde_json::Value::Null, 50));
    db.event(ID, 6, 60_000, &exec_call("c3", "cargo test", 60));
    db.event(ID, 7, 70_000, &exec_result("c3", &json!(0), 70));
    let output = home.read(Agent::OpenClaw, ts(SINCE));
    let event = session(&output, Agent::OpenClaw, ID);
    assert_eq!(failed_runs(event), [("sh check.sh", vec![(3, ts("2026-03-02T09:00:30Z"))])]);
    assert_eq!(event.models, ["claude-sonnet-4-5"]);
    // The session's own name is its title.
    assert_eq!(event.title, "Upload fixes");
    // A newer OpenClaw than the one recorded: `doctor` says so from this.
    assert_eq!(status(&output, Agent::OpenClaw).versions, ["2026.10.1"]);
}

#[test]
fn a_compressed_event_is_read_as_openclaw_wrote_it() {
    // The frame is a real one: `openclaw agent --local` 2026.9.6 compressed a prompt of
    // 2,315 bytes into these 433 (fixtures/openclaw/long-prompt-event.zst).
    let frame = fs_err::read(fixtures().join("openclaw/long-prompt-event.zst")).expect("frame");
    let home = Home::new();
    let db = Db::create(&home.path().join(DB));
    let id = "dced0624-7bf3-4f07-b08f-f55b0eb50d43";
    db.session(id, "agent:main:long", 0, None);
    db.event(id, 0, 0, &header(id, "/tmp/dh/repo", 0));
    db.compressed(id, 1, 1_000, &frame, 2315);
    // A frame that is not one: a malformed line of the database, the rest still read.
    db.compressed(id, 2, 2_000, b"not zstd", 8);
    let output = home.read(Agent::OpenClaw, ts(SINCE));
    let event = session(&output, Agent::OpenClaw, id);
    assert_eq!(event.prompts, times(&["2026-12-06T06:08:17.208Z"]));
    let title = &event.title;
    assert!(title.starts_with("Please review the following notes"), "{title}");
    assert_one_warning_naming(&output, WarningCode::MalformedLines, &home.path().join(DB));
}

#[test]
fn only_sessions_and_entries_of_the_window_are_read() {
    let home = Home::new();
    let db = Db::create(&home.path().join(DB));
    // A long conversation: its header from last week, an old prompt, one of the window.
    let week = -7 * 24 * 3_600_000;
    db.session(ID, "agent:main:main", 60_000, None);
    db.event(ID, 0, week, &header(ID, "/home/dev/api", week / 1000));
    db.event(
        ID,
        1,
        week + 1000,
        &user("Last week's question", week / 1000 + 1, &json!({"senderIsOwner": true})),
    );
    db.event(ID, 2, 60_000, &user("Today's question", 60, &json!({"senderIsOwner": true})));
    // A session last updated yesterday is not read at all.
    let old = "11111111-2222-4333-8444-555555555555";
    db.session(old, "agent:main:old", -86_400_000, None);
    db.event(old, 0, -86_400_000, &header(old, "/home/dev/old", -86_400));
    let output = home.read(Agent::OpenClaw, ts(SINCE));
    assert_eq!(output.events.len(), 1, "{:?}", output.events);
    let event = session(&output, Agent::OpenClaw, ID);
    assert_eq!(event.prompts, times(&["2026-03-02T09:01:00Z"]));
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/home/dev/api")));
    // The title is the first prompt read: last week's entries are not.
    assert_eq!(event.title, "Today's question");
    assert_eq!(status(&output, Agent::OpenClaw).files, 1);
}

#[test]
fn every_agents_database_is_read_where_openclaws_variables_put_it() {
    let cases: [(&[(&str, &str)], &str); 4] = [
        (&[], ".openclaw"),
        (&[("OPENCLAW_PROFILE", "work")], ".openclaw-work"),
        (&[("OPENCLAW_HOME", "{home}/alt")], "alt/.openclaw"),
        (&[("OPENCLAW_HOME", "{home}/alt"), ("OPENCLAW_STATE_DIR", "~/state")], "alt/state"),
    ];
    for (vars, state) in cases {
        let mut home = Home::new();
        let root = home.path().display().to_string();
        for (name, value) in vars {
            home = home.var(name, value.replace("{home}", &root));
        }
        for (agent, id) in [("main", ID), ("ops", "99999999-8888-4777-8666-555555555555")] {
            let db = Db::create(
                &home.path().join(format!("{state}/agents/{agent}/agent/openclaw-agent.sqlite")),
            );
            db.session(id, &format!("agent:{agent}:main"), 60_000, None);
            db.event(id, 0, 0, &header(id, "/home/dev/api", 0));
            db.event(id, 1, 60_000, &user("Status?", 60, &json!({"senderIsOwner": true})));
        }
        let output = home.read(Agent::OpenClaw, ts(SINCE));
        assert_eq!(output.events.len(), 2, "{state}: {:?}", output.warnings);
        let found = status(&output, Agent::OpenClaw);
        assert_eq!((found.files, found.entries), (2, 2), "{state}");
        assert_eq!(found.locations, [home.path().join(state).join("agents")], "{state}");
    }
    // The older name, where only it is there.
    let home = Home::new();
    let db = Db::create(&home.path().join(".clawdbot/agents/main/agent/openclaw-agent.sqlite"));
    db.session(ID, "agent:main:main", 60_000, None);
    db.event(ID, 0, 0, &header(ID, "/home/dev/api", 0));
    assert_eq!(home.read(Agent::OpenClaw, ts(SINCE)).events.len(), 1);
}

#[test]
fn openclaw_the_transcript_files_of_2026_6_are_read() {
    // 2026.6.11 kept each session's entries in `sessions/<id>.jsonl` (pi's files),
    // no database of transcripts yet.
    let output = read_recording("2026.6.11");
    let found = status(&output, Agent::OpenClaw);
    assert_eq!((found.files, found.entries), (3, 3));
}

#[test]
fn a_trace_is_not_a_session_and_a_session_moved_into_the_database_counts_once() {
    let home = Home::new();
    let lines = |id: &str, text: &str| {
        [header(id, "/home/dev/api", 0), user(text, 60, &json!({}))]
            .iter()
            .map(|entry| entry.to_string() + "\n")
            .collect::<String>()
    };
    let sessions = ".openclaw/agents/main/sessions";
    home.write(&format!("{sessions}/{ID}.jsonl"), lines(ID, "Fix the upload"));
    // The run's trace beside it, whose lines look like entries.
    home.write(&format!("{sessions}/{ID}.trajectory.jsonl"), lines("trace", "Fix the upload"));
    // A session that is in the database too (moved there today).
    let moved = "22222222-3333-4444-8555-666666666666";
    let failed = [exec_call("c1", "sh check.sh", 70), exec_result("c1", &json!(3), 80)];
    let more: String = failed.iter().map(|entry| entry.to_string() + "\n").collect();
    home.write(&format!("{sessions}/{moved}.jsonl"), lines(moved, "Ship it") + &more);
    let db = Db::create(&home.path().join(DB));
    db.session(moved, "agent:main:moved", 80_000, None);
    db.event(moved, 0, 0, &header(moved, "/home/dev/api", 0));
    db.event(moved, 1, 60_000, &user("Ship it", 60, &json!({"senderIsOwner": true})));
    db.event(moved, 2, 70_000, &failed[0]);
    db.event(moved, 3, 80_000, &failed[1]);
    let output = home.read(Agent::OpenClaw, ts(SINCE));
    let ids: Vec<&str> = output.events.iter().map(|event| event.session_id.as_str()).collect();
    assert_eq!(ids.len(), 2, "{ids:?}");
    assert_eq!(session(&output, Agent::OpenClaw, ID).prompts.len(), 1);
    // Its failed command once, not once from each.
    let moved = session(&output, Agent::OpenClaw, moved);
    assert_eq!(failed_runs(moved), [("sh check.sh", vec![(3, ts("2026-03-02T09:01:20Z"))])]);
    // The database and the two transcripts; the trace is not counted.
    assert_eq!(status(&output, Agent::OpenClaw).files, 3);
}

#[test]
fn a_compressed_event_is_read_up_to_openclaws_own_bound() {
    // `zstd -19` frames of a `custom` entry of exactly 4 MiB, OpenClaw's largest, and of
    // one byte more (fixtures/openclaw/).
    let frame = |name: &str| fs_err::read(fixtures().join("openclaw").join(name)).expect("frame");
    let home = Home::new();
    let db = Db::create(&home.path().join(DB));
    db.session(ID, "agent:main:main", 60_000, None);
    db.event(ID, 0, 0, &header(ID, "/home/dev/api", 0));
    db.compressed(ID, 1, 1_000, &frame("event-4-mib.zst"), 4_194_304);
    db.compressed(ID, 2, 2_000, &frame("event-over-4-mib.zst"), 4_194_305);
    db.event(ID, 3, 60_000, &user("Status?", 60, &json!({"senderIsOwner": true})));
    let output = home.read(Agent::OpenClaw, ts(SINCE));
    // The larger one alone is skipped, as a malformed line: the event after `seq` 2.
    let texts = warning_texts(&output, WarningCode::MalformedLines);
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(texts[0].contains("line 3"), "{texts:?}");
    assert_eq!(session(&output, Agent::OpenClaw, ID).prompts.len(), 1);
}

#[test]
fn a_state_folder_is_taken_as_openclaw_takes_it() {
    // `~` alone or before a slash is the home; `~name` is a folder named so.
    for (value, state) in [("~", ""), ("~/state", "state")] {
        let home = Home::new().var("OPENCLAW_STATE_DIR", value);
        let output = home.read(Agent::OpenClaw, ts(SINCE));
        let expected = home.path().join(state).join("agents");
        assert_eq!(status(&output, Agent::OpenClaw).locations, [expected], "{value}");
    }
    let home = Home::new().var("OPENCLAW_STATE_DIR", "~other/state");
    let output = home.read(Agent::OpenClaw, ts(SINCE));
    let expected = Path::new("~other/state/agents");
    assert_eq!(status(&output, Agent::OpenClaw).locations, [expected]);
}

#[test]
fn the_rows_read_begin_with_the_first_written_ten_minutes_before_the_window() {
    // Rows numbered with gaps (`seq` 3, 6, … 60), written a minute apart from 23:40 the
    // day before; every entry's own time is in the window, so each row read is one
    // prompt. Read: the header and the rows written from 23:50 (ten of them, the first
    // exactly at 23:50), found by halving on `seq`.
    let home = Home::new();
    let db = Db::create(&home.path().join(DB));
    db.session(ID, "agent:main:main", 60_000, None);
    db.event(ID, 0, -7 * 86_400_000, &header(ID, "/home/dev/api", 0));
    let nine_hours = 9 * 3_600_000;
    for k in 0..20 {
        let written = -nine_hours - 20 * 60_000 + k * 60_000;
        let entry = user(&format!("question {k}"), 60 + k, &json!({"senderIsOwner": true}));
        db.event(ID, 3 * (k + 1), written, &entry);
    }
    let output = home.read(Agent::OpenClaw, ts(SINCE));
    let event = session(&output, Agent::OpenClaw, ID);
    assert_eq!(event.prompts.len(), 10, "{:?}", event.prompts);
    assert_eq!(event.prompts[0], ts("2026-03-02T09:01:10Z"));
    assert_eq!(event.title, "question 10");
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/home/dev/api")));
    // Nothing written since (an entry dated in the window, written before it, is not
    // read): the old header alone, no activity, so no session.
    let home = Home::new();
    let db = Db::create(&home.path().join(DB));
    db.session(ID, "agent:main:main", 60_000, None);
    db.event(ID, 0, -nine_hours - 3_600_000, &header(ID, "/home/dev/api", -86_400));
    db.event(ID, 1, -nine_hours - 3_600_000, &user("old", 10, &json!({"senderIsOwner": true})));
    assert!(home.read(Agent::OpenClaw, ts(SINCE)).events.is_empty());
}

/// Agents whose folders the config moves (`agents.list[].agentDir`, a `~` path and an
/// absolute one) and one moved by `$OPENCLAW_AGENT_DIR`, as OpenClaw 2026.9.6 ran them
/// (`fixtures/openclaw-agentdir/2026.9.6/`, by its `record.sh`): their sessions stay in
/// `<state>/agents/<id>/agent/openclaw-agent.sqlite`, where the reader looks without
/// reading the config. A release that moved them would be recorded with its databases
/// in the moved folders, and this would fail.
#[test]
fn openclaw_agents_whose_folders_are_moved_keep_their_sessions_where_they_are_read() {
    let recording = fixtures().join("openclaw-agentdir/2026.9.6");
    let expected: serde_json::Value =
        serde_json::from_str(&fs_err::read_to_string(recording.join("expected.json")).unwrap())
            .unwrap();
    assert_eq!(
        expected["databases"],
        json!([
            ".openclaw/agents/main/agent/openclaw-agent.sqlite",
            ".openclaw/agents/work/agent/openclaw-agent.sqlite"
        ])
    );
    let config = fs_err::read_to_string(recording.join("home/.openclaw/openclaw.json")).unwrap();
    assert!(config.contains("agentDir: \"~/moved/main-agent\""), "{config}");

    let home = Home::new();
    home.copy_fixture("openclaw-agentdir/2026.9.6/home", "", ts("2026-12-06T23:00:00Z"));
    let output = home.read(Agent::OpenClaw, ts("2026-12-06T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let mut titles: Vec<&str> = output.events.iter().map(|event| event.title.as_str()).collect();
    titles.sort_unstable();
    assert_eq!(titles, ["first prompt", "second prompt", "third prompt"]);
    let mut prompts: Vec<usize> = output.events.iter().map(|event| event.prompts.len()).collect();
    prompts.sort_unstable();
    let want: Vec<usize> = expected["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|count| usize::try_from(count.as_u64().unwrap()).unwrap())
        .collect();
    assert_eq!(prompts, want);
    // A second agent works in a folder of its id under the default workspace.
    let mut cwds: Vec<&Path> =
        output.events.iter().filter_map(|event| event.cwd.as_deref()).collect();
    cwds.sort_unstable();
    let repo = Path::new("/tmp/openclaw-agentdir/repo");
    assert_eq!(cwds, [repo, repo, &repo.join("work")]);
    let found = status(&output, Agent::OpenClaw);
    assert_eq!(found.files, 2);
    assert_eq!(found.locations, [home.path().join(".openclaw/agents")]);
}
