//! Tests of the opencode reader (see crates/collect/src/sessions/opencode.rs).
//!
//! The databases are built with the tables opencode 1.18.33 creates (copied from its
//! bundled migration), in WAL mode with a writer kept open and automatic checkpoints
//! off, so the rows sit in the `-wal` file as they do while opencode runs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use report_model::Agent;
use rusqlite::{Connection, params};
use serde_json::json;

use crate::support::{
    Home, en, recorded_failure, recorded_todos, scripted, session, set_mtime, status, times, ts,
};

/// The tables opencode 1.18.33 creates (its consolidated migration), the ones read here.
const SCHEMA: &str = "
CREATE TABLE `project` (
  `id` text PRIMARY KEY, `worktree` text NOT NULL, `vcs` text, `name` text, `icon_url` text,
  `icon_url_override` text, `icon_color` text, `time_created` integer NOT NULL,
  `time_updated` integer NOT NULL, `time_initialized` integer, `sandboxes` text NOT NULL,
  `commands` text
);
CREATE TABLE `message` (
  `id` text PRIMARY KEY, `session_id` text NOT NULL, `time_created` integer NOT NULL,
  `time_updated` integer NOT NULL, `data` text NOT NULL,
  CONSTRAINT `fk_message_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
);
CREATE TABLE `part` (
  `id` text PRIMARY KEY, `message_id` text NOT NULL, `session_id` text NOT NULL,
  `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL,
  CONSTRAINT `fk_part_message_id_message_id_fk` FOREIGN KEY (`message_id`) REFERENCES `message`(`id`) ON DELETE CASCADE
);
CREATE TABLE `session_message` (
  `id` text PRIMARY KEY, `session_id` text NOT NULL, `type` text NOT NULL, `seq` integer NOT NULL,
  `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL
);
CREATE TABLE `session` (
  `id` text PRIMARY KEY, `project_id` text NOT NULL, `workspace_id` text, `parent_id` text,
  `slug` text NOT NULL, `directory` text NOT NULL, `path` text, `title` text NOT NULL,
  `version` text NOT NULL, `share_url` text, `summary_additions` integer,
  `summary_deletions` integer, `summary_files` integer, `summary_diffs` text, `metadata` text,
  `cost` real DEFAULT 0 NOT NULL, `tokens_input` integer DEFAULT 0 NOT NULL,
  `tokens_output` integer DEFAULT 0 NOT NULL, `tokens_reasoning` integer DEFAULT 0 NOT NULL,
  `tokens_cache_read` integer DEFAULT 0 NOT NULL, `tokens_cache_write` integer DEFAULT 0 NOT NULL,
  `revert` text, `permission` text, `agent` text, `model` text,
  `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `time_compacting` integer,
  `time_archived` integer,
  CONSTRAINT `fk_session_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE
);
CREATE INDEX `message_session_time_created_id_idx` ON `message` (`session_id`,`time_created`,`id`);
CREATE INDEX `part_message_id_id_idx` ON `part` (`message_id`,`id`);
CREATE INDEX `session_parent_idx` ON `session` (`parent_id`);
";

fn ms(text: &str) -> i64 {
    ts(text).as_millisecond()
}

/// An opencode database being written, as opencode keeps it: WAL mode, the writer open.
struct Db {
    conn: Connection,
    path: PathBuf,
}

impl Db {
    fn create(path: &Path) -> Db {
        let conn = crate::support::wal_database(path, SCHEMA);
        conn.execute(
            "INSERT INTO project (id, worktree, vcs, time_created, time_updated, sandboxes) \
             VALUES ('p1', '/work/proj', 'git', 0, 0, '[]')",
            [],
        )
        .expect("project");
        Db { conn, path: path.to_path_buf() }
    }

    /// Closes the writer without the checkpoint a clean close makes, so the rows stay in
    /// the `-wal` file and the `-shm` index stays beside it.
    fn leave_without_checkpoint(self) {
        self.conn
            .set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)
            .expect("no checkpoint on close");
        drop(self.conn);
    }

    fn session(&self, id: &str, parent: Option<&str>, title: &str, directory: &str, at: &str) {
        self.conn
            .execute(
                "INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, \
                 time_created, time_updated) VALUES (?1, 'p1', ?2, 'slug', ?3, ?4, '1.18.33', ?5, ?5)",
                params![id, parent, directory, title, ms(at)],
            )
            .expect("session");
    }

    /// A message; `data` is the message without `id` and `sessionID`, as opencode stores it.
    fn message(&self, id: &str, session: &str, at: &str, data: &serde_json::Value) {
        self.conn
            .execute(
                "INSERT INTO message (id, session_id, time_created, time_updated, data) \
                 VALUES (?1, ?2, ?3, ?3, ?4)",
                params![id, session, ms(at), data.to_string()],
            )
            .expect("message");
    }

    fn part(&self, id: &str, message: &str, session: &str, at: &str, data: &serde_json::Value) {
        self.conn
            .execute(
                "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) \
                 VALUES (?1, ?2, ?3, ?4, ?4, ?5)",
                params![id, message, session, ms(at), data.to_string()],
            )
            .expect("part");
    }

    /// A user message with its parts (`(text, synthetic)`).
    fn user(&self, id: &str, session: &str, at: &str, texts: &[(&str, bool)]) {
        self.message(
            id,
            session,
            at,
            &json!({"role": "user", "time": {"created": ms(at)}, "agent": "build",
                   "model": {"providerID": "anthropic", "modelID": "claude-sonnet-4-5"}}),
        );
        for (index, (text, synthetic)) in texts.iter().enumerate() {
            let mut part = json!({"type": "text", "text": text});
            if *synthetic {
                part["synthetic"] = json!(true);
            }
            self.part(&format!("{id}-p{index}"), id, session, at, &part);
        }
    }

    fn reply(&self, id: &str, session: &str, at: &str, done: &str, model: &str) {
        self.message(
            id,
            session,
            at,
            &json!({"role": "assistant", "time": {"created": ms(at), "completed": ms(done)},
                   "parentID": "x", "modelID": model, "providerID": "anthropic", "mode": "build",
                   "agent": "build", "path": {"cwd": "/work/proj/sub", "root": "/work/proj"},
                   "cost": 0, "tokens": {"input": 1, "output": 1, "reasoning": 0,
                   "cache": {"read": 0, "write": 0}}}),
        );
        self.part(&format!("{id}-p0"), id, session, at, &json!({"type": "text", "text": "Done."}));
    }
}

/// Type of [`snapshot`].
type Snapshot = BTreeMap<PathBuf, (Vec<u8>, std::time::SystemTime)>;

/// Fails naming the files that appeared, went or changed.
#[track_caller]
fn assert_unchanged(before: &Snapshot, after: &Snapshot, skip: &[&str]) {
    let names = |snapshot: &Snapshot| snapshot.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(after), names(before), "no file created or removed");
    for (path, (bytes, modified)) in before {
        if path.file_name().is_some_and(|name| skip.iter().any(|skip| name == *skip)) {
            continue;
        }
        let (after_bytes, after_modified) = &after[path];
        assert!(after_bytes == bytes, "{} changed", path.display());
        assert_eq!(after_modified, modified, "{} touched", path.display());
    }
}

/// Every file in a folder with its bytes and modification time.
fn snapshot(folder: &Path) -> Snapshot {
    fs_err::read_dir(folder)
        .expect("list")
        .map(|entry| {
            let path = entry.expect("entry").path();
            let bytes = fs_err::read(&path).expect("read");
            let modified = fs_err::metadata(&path).expect("stat").modified().expect("mtime");
            (path, (bytes, modified))
        })
        .collect()
}

fn db_path(home: &Home) -> PathBuf {
    home.path().join(".local/share/opencode/opencode.db")
}

#[test]
fn rows_in_the_wal_are_read_and_nothing_is_written() {
    let home = Home::new();
    let db = Db::create(&db_path(&home));
    db.session("ses_1", None, "Fix the flaky parser test", "/work/proj", "2026-05-04T09:00:00Z");
    db.user(
        "msg_1",
        "ses_1",
        "2026-05-04T09:00:01Z",
        &[("why does the parser test flake?", false)],
    );
    db.reply("msg_2", "ses_1", "2026-05-04T09:00:02Z", "2026-05-04T09:00:09Z", "claude-sonnet-4-5");
    db.user("msg_3", "ses_1", "2026-05-04T09:05:00Z", &[("now fix it", false)]);
    let folder = db.path.parent().expect("folder").to_path_buf();
    // opencode killed mid-session: everything is still in the `-wal` file. (A writer kept
    // open in this process would share its `-shm` mapping with the reader.)
    db.leave_without_checkpoint();
    assert!(
        fs_err::metadata(folder.join("opencode.db-wal")).expect("wal").len() > 0,
        "the rows are in the -wal file"
    );
    let before = snapshot(&folder);

    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));

    // Nothing changes, the `-shm` index included (`readonly_shm=1`: no read mark).
    assert_unchanged(&before, &snapshot(&folder), &[]);
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::Opencode, "ses_1");
    assert_eq!(event.title, "Fix the flaky parser test");
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/work/proj")));
    assert_eq!(event.prompts, times(&["2026-05-04T09:00:01Z", "2026-05-04T09:05:00Z"]));
    assert_eq!(
        event.activity,
        times(&[
            "2026-05-04T09:00:01Z",
            "2026-05-04T09:00:02Z",
            "2026-05-04T09:00:09Z",
            "2026-05-04T09:05:00Z"
        ])
    );
    assert_eq!(event.models, vec!["claude-sonnet-4-5".to_owned()]);
    let status = status(&output, Agent::Opencode);
    assert!(status.found);
    assert_eq!(status.files, 1);
    assert_eq!(status.entries, 1);
    assert_eq!(status.versions, vec!["1.18.33".to_owned()]);
}

#[test]
fn rows_of_a_running_opencode_are_read() {
    let home = Home::new();
    let db = Db::create(&db_path(&home));
    db.session("ses_1", None, "Live", "/work/proj", "2026-05-04T09:00:00Z");
    db.user("msg_1", "ses_1", "2026-05-04T09:00:01Z", &[("still running", false)]);
    let folder = db.path.parent().expect("folder").to_path_buf();
    let before = snapshot(&folder);
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    let after = snapshot(&folder);
    assert_eq!(after.keys().collect::<Vec<_>>(), before.keys().collect::<Vec<_>>());
    for name in ["opencode.db", "opencode.db-wal"] {
        assert!(before[&folder.join(name)] == after[&folder.join(name)], "{name} changed");
    }
    assert_eq!(
        session(&output, Agent::Opencode, "ses_1").prompts,
        times(&["2026-05-04T09:00:01Z"])
    );
    drop(db);
}

#[test]
fn a_placeholder_title_gives_way_to_the_first_typed_prompt() {
    let home = Home::new();
    let db = Db::create(&db_path(&home));
    db.session(
        "ses_1",
        None,
        "New session - 2026-05-04T09:00:00.000Z",
        "/w",
        "2026-05-04T09:00:00Z",
    );
    db.user(
        "msg_1",
        "ses_1",
        "2026-05-04T09:00:01Z",
        &[
            ("Called the Read tool with the following input: {}", true),
            ("explain src/main.rs", false),
        ],
    );
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    assert_eq!(session(&output, Agent::Opencode, "ses_1").title, "explain src/main.rs");
    drop(db);
}

#[test]
fn user_messages_with_only_synthetic_text_are_not_prompts() {
    let home = Home::new();
    let db = Db::create(&db_path(&home));
    db.session("ses_1", None, "Shell work", "/w", "2026-05-04T09:00:00Z");
    db.user("msg_1", "ses_1", "2026-05-04T09:00:01Z", &[("run the tests", false)]);
    // `!cargo test` in opencode: a user message holding only a synthetic part.
    db.user(
        "msg_2",
        "ses_1",
        "2026-05-04T09:01:00Z",
        &[("The following tool was executed by the user", true)],
    );
    // Continuing after compaction.
    db.user("msg_3", "ses_1", "2026-05-04T09:02:00Z", &[("Continue if you have next steps", true)]);
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    let event = session(&output, Agent::Opencode, "ses_1");
    assert_eq!(event.prompts, times(&["2026-05-04T09:00:01Z"]));
    assert_eq!(event.activity.len(), 3, "still activity");
    drop(db);
}

#[test]
fn sub_agent_sessions_are_activity_of_their_parent() {
    let home = Home::new();
    let db = Db::create(&db_path(&home));
    db.session("ses_p", None, "Refactor the cache", "/work/proj", "2026-05-04T09:00:00Z");
    db.session(
        "ses_c",
        Some("ses_p"),
        "Child session - 2026-05-04T09:00:05.000Z",
        "/work/proj",
        "2026-05-04T09:00:05Z",
    );
    db.user("msg_1", "ses_p", "2026-05-04T09:00:01Z", &[("refactor the cache", false)]);
    // The task tool's prompt to the sub-agent: a user message of the child session.
    db.user(
        "msg_2",
        "ses_c",
        "2026-05-04T09:00:05Z",
        &[("Find every caller of Cache::get", false)],
    );
    db.reply("msg_3", "ses_c", "2026-05-04T09:00:06Z", "2026-05-04T09:00:30Z", "claude-haiku-4-5");
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    assert_eq!(output.events.len(), 1, "the child is no session of its own");
    let event = session(&output, Agent::Opencode, "ses_p");
    assert_eq!(event.prompts, times(&["2026-05-04T09:00:01Z"]));
    assert_eq!(event.title, "Refactor the cache");
    assert_eq!(
        event.activity,
        times(&[
            "2026-05-04T09:00:01Z",
            "2026-05-04T09:00:05Z",
            "2026-05-04T09:00:06Z",
            "2026-05-04T09:00:30Z"
        ])
    );
    assert!(event.models.contains(&"claude-haiku-4-5".to_owned()));
    drop(db);
}

#[test]
fn only_messages_of_the_window_count() {
    let home = Home::new();
    let db = Db::create(&db_path(&home));
    db.session("ses_1", None, "Long session", "/w", "2026-05-01T09:00:00Z");
    db.user("msg_1", "ses_1", "2026-05-01T09:00:01Z", &[("yesterday's prompt", false)]);
    db.user("msg_2", "ses_1", "2026-05-04T09:00:01Z", &[("today's prompt", false)]);
    db.session("ses_old", None, "Old session", "/w", "2026-04-01T09:00:00Z");
    db.user("msg_3", "ses_old", "2026-04-01T09:00:01Z", &[("old", false)]);
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    assert_eq!(output.events.len(), 1);
    let event = session(&output, Agent::Opencode, "ses_1");
    assert_eq!(event.prompts, times(&["2026-05-04T09:00:01Z"]));
    assert_eq!(event.activity, times(&["2026-05-04T09:00:01Z"]));
    drop(db);
}

#[test]
fn xdg_data_home_and_channel_databases_are_read() {
    let home = Home::new();
    let data = home.path().join("xdg");
    let home = home.var("XDG_DATA_HOME", data.to_string_lossy());
    let latest = Db::create(&data.join("opencode/opencode.db"));
    latest.session("ses_a", None, "On latest", "/a", "2026-05-04T09:00:00Z");
    latest.user("msg_a", "ses_a", "2026-05-04T09:00:01Z", &[("a", false)]);
    let dev = Db::create(&data.join("opencode/opencode-dev.db"));
    dev.session("ses_b", None, "On dev", "/b", "2026-05-04T10:00:00Z");
    dev.user("msg_b", "ses_b", "2026-05-04T10:00:01Z", &[("b", false)]);
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    assert_eq!(session(&output, Agent::Opencode, "ses_a").title, "On latest");
    assert_eq!(session(&output, Agent::Opencode, "ses_b").title, "On dev");
    assert_eq!(status(&output, Agent::Opencode).files, 2);
    drop((latest, dev));
}

#[test]
fn an_old_database_is_not_opened_and_a_broken_one_is_named() {
    let home = Home::new();
    // Not a database: opening it would warn, so the warning tells whether it was opened.
    let broken =
        home.write(".local/share/opencode/opencode.db", b"not a database at all, just text");
    set_mtime(&broken, ts("2026-04-01T00:00:00Z"));
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    assert!(output.warnings.is_empty(), "an old database is not opened: {:?}", output.warnings);
    assert!(status(&output, Agent::Opencode).found);

    set_mtime(&broken, ts("2026-05-04T08:00:00Z"));
    let good = Db::create(&home.path().join(".local/share/opencode/opencode-dev.db"));
    good.session("ses_1", None, "Still read", "/w", "2026-05-04T09:00:00Z");
    good.user("msg_1", "ses_1", "2026-05-04T09:00:01Z", &[("hello", false)]);
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    assert_eq!(output.warnings.len(), 1, "{:?}", output.warnings);
    assert!(en(&output.warnings[0]).contains("opencode.db"), "{:?}", output.warnings);
    assert_eq!(session(&output, Agent::Opencode, "ses_1").title, "Still read");
    drop(good);
}

#[test]
fn unknown_part_types_are_named_for_doctor() {
    let home = Home::new();
    let db = Db::create(&db_path(&home));
    db.session("ses_1", None, "t", "/w", "2026-05-04T09:00:00Z");
    db.user("msg_1", "ses_1", "2026-05-04T09:00:01Z", &[("hi", false)]);
    db.part("msg_1-z", "msg_1", "ses_1", "2026-05-04T09:00:01Z", &json!({"type": "hologram"}));
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    assert_eq!(status(&output, Agent::Opencode).unknown, vec!["part type hologram".to_owned()]);
    drop(db);
}

#[test]
fn a_missing_folder_is_silent() {
    let home = Home::new();
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    assert!(output.events.is_empty() && output.warnings.is_empty());
    assert!(!status(&output, Agent::Opencode).found);
}

/// The JSON layout before the database (opencode 0.x): session, message and part files.
#[test]
fn the_storage_layout_is_read() {
    let home = Home::new();
    let root = ".local/share/opencode/storage";
    home.write(
        &format!("{root}/project/prj1.json"),
        json!({"id": "prj1", "worktree": "/work/legacy", "vcs": "git", "time": {"created": 1}})
            .to_string(),
    );
    home.write(
        &format!("{root}/session/prj1/ses_1.json"),
        json!({"id": "ses_1", "version": "0.15.8", "projectID": "prj1", "title": "Port the CLI",
               "time": {"created": ms("2026-05-04T09:00:00Z"), "updated": ms("2026-05-04T09:01:00Z")}})
        .to_string(),
    );
    home.write(
        &format!("{root}/message/ses_1/msg_1.json"),
        json!({"id": "msg_1", "sessionID": "ses_1", "role": "user",
               "time": {"created": ms("2026-05-04T09:00:01Z")}})
        .to_string(),
    );
    home.write(
        &format!("{root}/part/msg_1/prt_1.json"),
        json!({"id": "prt_1", "messageID": "msg_1", "sessionID": "ses_1", "type": "text",
               "text": "port the cli to clap"})
        .to_string(),
    );
    home.write(
        &format!("{root}/message/ses_1/msg_2.json"),
        json!({"id": "msg_2", "sessionID": "ses_1", "role": "assistant",
               "time": {"created": ms("2026-05-04T09:00:02Z"), "completed": ms("2026-05-04T09:00:20Z")},
               "modelID": "gpt-5", "providerID": "openai", "path": {"cwd": "/work/legacy", "root": "/work/legacy"}})
        .to_string(),
    );
    home.write(&format!("{root}/message/ses_1/msg_3.json"), "{\"id\": \"msg_3\", \"role\": ");
    // Beside the parts: a file that is no part, and a folder named like one; not read.
    home.write(&format!("{root}/part/msg_1/notes.txt"), "{ not json");
    home.write(&format!("{root}/part/msg_1/prt_2.json/x"), "{ not json");
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    let event = session(&output, Agent::Opencode, "ses_1");
    assert_eq!(event.title, "Port the CLI");
    assert_eq!(
        event.cwd.as_deref(),
        Some(Path::new("/work/legacy")),
        "from the project's worktree"
    );
    assert_eq!(event.prompts, times(&["2026-05-04T09:00:01Z"]));
    assert_eq!(event.models, vec!["gpt-5".to_owned()]);
    assert_eq!(status(&output, Agent::Opencode).versions, vec!["0.15.8".to_owned()]);
    assert_eq!(output.warnings.len(), 1, "the malformed message file: {:?}", output.warnings);
    assert!(en(&output.warnings[0]).contains("msg_3.json"));
}

/// The oldest layout: `session/info`, `session/message`, `session/part`, no directory.
#[test]
fn the_oldest_storage_layout_takes_the_cwd_from_replies() {
    let home = Home::new();
    let root = ".local/share/opencode/project/work-old/storage";
    home.write(
        &format!("{root}/session/info/ses_9.json"),
        json!({"id": "ses_9", "version": "0.3.0", "title": "New session - 2026-05-04T09:00:00.000Z",
               "time": {"created": ms("2026-05-04T09:00:00Z"), "updated": ms("2026-05-04T09:00:00Z")}})
        .to_string(),
    );
    home.write(
        &format!("{root}/session/message/ses_9/msg_1.json"),
        json!({"id": "msg_1", "sessionID": "ses_9", "role": "user",
               "time": {"created": ms("2026-05-04T09:00:01Z")}})
        .to_string(),
    );
    home.write(
        &format!("{root}/session/part/ses_9/msg_1/prt_1.json"),
        json!({"id": "prt_1", "type": "text", "text": "add a readme"}).to_string(),
    );
    home.write(
        &format!("{root}/session/message/ses_9/msg_2.json"),
        json!({"id": "msg_2", "sessionID": "ses_9", "role": "assistant",
               "time": {"created": ms("2026-05-04T09:00:02Z")}, "modelID": "claude-sonnet-4",
               "path": {"cwd": "/work/old", "root": "/work/old"}})
        .to_string(),
    );
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    let event = session(&output, Agent::Opencode, "ses_9");
    assert_eq!(event.title, "add a readme");
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/work/old")));
    assert_eq!(event.prompts, times(&["2026-05-04T09:00:01Z"]));
}

#[test]
fn old_message_files_are_not_opened() {
    let home = Home::new();
    let root = ".local/share/opencode/storage";
    let path = home.write(&format!("{root}/message/ses_1/msg_1.json"), "{ broken");
    set_mtime(&path, ts("2026-04-01T00:00:00Z"));
    set_dir_mtime(&home.path().join(root).join("message/ses_1"), ts("2026-04-01T00:00:00Z"));
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert!(output.events.is_empty());
}

/// Sets a folder's modification time (`set_mtime` opens for writing, which a folder refuses).
fn set_dir_mtime(path: &Path, time: jiff::Timestamp) {
    let when = std::time::SystemTime::UNIX_EPOCH
        + std::time::Duration::from_secs(u64::try_from(time.as_second()).expect("after 1970"));
    fs_err::File::open(path).expect("open folder").set_modified(when).expect("set folder time");
}

/// A `todowrite` call as opencode stores it: a `tool` part of the reply, its `state` with
/// the `input` the model gave (`todos[]` of `content`, `status`, `priority`), the output
/// and metadata the tool returned, and the start and end times.
fn todowrite(state: &str, at: &str, done: &str, todos: &[(&str, &str)]) -> serde_json::Value {
    let todos: Vec<serde_json::Value> = todos
        .iter()
        .map(|(content, status)| json!({"content": content, "status": status, "priority": "high"}))
        .collect();
    let open = todos.iter().filter(|todo| todo["status"] != "completed").count();
    let mut part = json!({
        "type": "tool", "callID": "toolu_01", "tool": "todowrite",
        "state": {"status": state, "input": {"todos": todos}, "time": {"start": ms(at), "end": ms(done)}}
    });
    if state == "completed" {
        part["state"]["output"] = json!(serde_json::to_string_pretty(&todos).expect("json"));
        part["state"]["title"] = json!(format!("{open} todos"));
        part["state"]["metadata"] = json!({"todos": todos});
    } else {
        part["state"]["error"] =
            json!("The user rejected permission to use this specific tool call.");
    }
    part
}

#[test]
fn the_newest_completed_todowrite_is_the_sessions_list() {
    use report_model::{Todo, TodoStatus};
    let home = Home::new();
    let db = Db::create(&db_path(&home));
    db.session("ses_1", None, "Add caching", "/work/proj", "2026-05-03T09:00:00Z");
    // Yesterday's list, then today's: the newest wins, whenever it was written.
    db.user("msg_1", "ses_1", "2026-05-03T09:00:01Z", &[("plan the cache", false)]);
    db.reply("msg_2", "ses_1", "2026-05-03T09:00:02Z", "2026-05-03T09:00:09Z", "gpt-5");
    db.part(
        "prt_a",
        "msg_2",
        "ses_1",
        "2026-05-03T09:00:03Z",
        &todowrite(
            "completed",
            "2026-05-03T09:00:03Z",
            "2026-05-03T09:00:04Z",
            &[("yesterday's step", "pending")],
        ),
    );
    db.user("msg_3", "ses_1", "2026-05-04T10:00:01Z", &[("go on", false)]);
    db.reply("msg_4", "ses_1", "2026-05-04T10:00:02Z", "2026-05-04T10:01:00Z", "gpt-5");
    db.part(
        "prt_b",
        "msg_4",
        "ses_1",
        "2026-05-04T10:00:03Z",
        &todowrite(
            "completed",
            "2026-05-04T10:00:03Z",
            "2026-05-04T10:00:04Z",
            &[
                ("Add the cache type", "completed"),
                ("Wire it into\nthe client", "in_progress"),
                ("Benchmark it", "pending"),
                ("Drop the old map", "cancelled"),
            ],
        ),
    );
    // A call the user refused wrote nothing.
    db.part(
        "prt_c",
        "msg_4",
        "ses_1",
        "2026-05-04T10:00:30Z",
        &todowrite(
            "error",
            "2026-05-04T10:00:30Z",
            "2026-05-04T10:00:31Z",
            &[("refused", "pending")],
        ),
    );
    // A sub-agent allowed to plan: its list is its own.
    db.session(
        "ses_c",
        Some("ses_1"),
        "Benchmark (@general subagent)",
        "/work/proj",
        "2026-05-04T10:00:40Z",
    );
    db.reply("msg_5", "ses_c", "2026-05-04T10:00:41Z", "2026-05-04T10:00:50Z", "gpt-5");
    db.part(
        "prt_d",
        "msg_5",
        "ses_c",
        "2026-05-04T10:00:42Z",
        &todowrite(
            "completed",
            "2026-05-04T10:00:42Z",
            "2026-05-04T10:00:43Z",
            &[("the sub-agent's step", "pending")],
        ),
    );
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::Opencode, "ses_1");
    let todo = |text: &str, status| Todo { text: text.to_owned(), status };
    assert_eq!(
        event.todos,
        [
            todo("Add the cache type", TodoStatus::Completed),
            todo("Wire it into the client", TodoStatus::InProgress),
            todo("Benchmark it", TodoStatus::Pending),
            todo("Drop the old map", TodoStatus::Cancelled),
        ]
    );
    assert_eq!(event.todos_time, Some(ts("2026-05-04T10:00:04Z")));
    assert!(status(&output, Agent::Opencode).unknown.is_empty());
    drop(db);
}

#[test]
fn a_list_from_before_the_window_stands_and_an_emptied_one_is_empty() {
    let home = Home::new();
    let db = Db::create(&db_path(&home));
    db.session("ses_1", None, "Old plan", "/work/proj", "2026-05-03T09:00:00Z");
    db.reply("msg_1", "ses_1", "2026-05-03T09:00:02Z", "2026-05-03T09:00:09Z", "gpt-5");
    db.part(
        "prt_a",
        "msg_1",
        "ses_1",
        "2026-05-03T09:00:03Z",
        &todowrite(
            "completed",
            "2026-05-03T09:00:03Z",
            "2026-05-03T09:00:04Z",
            &[("still to do", "pending")],
        ),
    );
    db.user("msg_2", "ses_1", "2026-05-04T10:00:01Z", &[("hello again", false)]);
    db.session("ses_2", None, "Emptied", "/work/proj", "2026-05-04T11:00:00Z");
    db.reply("msg_3", "ses_2", "2026-05-04T11:00:02Z", "2026-05-04T11:00:09Z", "gpt-5");
    for (part, at, done, todos) in [
        ("prt_b", "2026-05-04T11:00:03Z", "2026-05-04T11:00:04Z", &[("step", "pending")][..]),
        ("prt_c", "2026-05-04T11:00:05Z", "2026-05-04T11:00:06Z", &[][..]),
    ] {
        db.part(part, "msg_3", "ses_2", at, &todowrite("completed", at, done, todos));
    }
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    let old = session(&output, Agent::Opencode, "ses_1");
    assert_eq!(old.todos.len(), 1);
    assert_eq!(old.todos[0].text, "still to do");
    assert_eq!(old.todos_time, Some(ts("2026-05-03T09:00:04Z")));
    let emptied = session(&output, Agent::Opencode, "ses_2");
    assert!(emptied.todos.is_empty());
    assert_eq!(emptied.todos_time, Some(ts("2026-05-04T11:00:06Z")));
    drop(db);
}

#[test]
fn the_recorded_list_and_failed_command_are_read() {
    // Recorded (1.18.33, `run --dangerously-skip-permissions`): the stand-in called
    // `todowrite` with one item done and two pending, then `bash` on `sh check.sh`, which
    // exited with 3 (`state.metadata.exit`). The first two sessions hold neither.
    let home = Home::new();
    let since = ts("2026-01-01T00:00:00Z");
    home.copy_fixture("agents/opencode/1.18.33/home", "", since);
    let output = home.read(Agent::Opencode, since);
    assert_eq!(output.events.len(), 3);
    assert_eq!(scripted(&output), vec![(recorded_todos(), recorded_failure())]);
}

#[test]
fn a_database_whose_rows_are_only_in_a_fresh_wal_is_read() {
    let home = Home::new();
    let db = Db::create(&db_path(&home));
    db.session("ses_1", None, "In the wal", "/work/proj", "2026-05-04T09:00:00Z");
    db.user("msg_1", "ses_1", "2026-05-04T09:00:01Z", &[("still here", false)]);
    let path = db.path.clone();
    db.leave_without_checkpoint();
    // The database file itself last written before the window; its `-wal` today.
    set_mtime(&path, ts("2026-04-01T00:00:00Z"));
    set_mtime(
        &home.path().join(".local/share/opencode/opencode.db-wal"),
        ts("2026-05-04T09:00:02Z"),
    );
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(
        session(&output, Agent::Opencode, "ses_1").prompts,
        times(&["2026-05-04T09:00:01Z"])
    );
}

#[test]
fn of_two_databases_the_newest_list_of_a_session_wins() {
    let home = Home::new();
    let folder = home.path().join(".local/share/opencode");
    // `opencode-beta.db` is listed before `opencode.db`; its list is the newer one here,
    // then the older one.
    for (beta_end, latest_end, want) in [
        ("2026-05-04T11:00:04Z", "2026-05-04T10:00:04Z", "the beta's step"),
        ("2026-05-04T10:00:04Z", "2026-05-04T11:00:04Z", "the latest's step"),
    ] {
        for (name, end, step) in [
            ("opencode-beta.db", beta_end, "the beta's step"),
            ("opencode.db", latest_end, "the latest's step"),
        ] {
            let path = folder.join(name);
            for suffix in ["", "-wal", "-shm"] {
                let _ = fs_err::remove_file(format!("{}{suffix}", path.display()));
            }
            let db = Db::create(&path);
            db.session("ses_1", None, "Add caching", "/work/proj", "2026-05-04T09:00:00Z");
            db.user("msg_1", "ses_1", "2026-05-04T09:00:01Z", &[("plan it", false)]);
            db.reply("msg_2", "ses_1", "2026-05-04T09:00:02Z", "2026-05-04T09:00:09Z", "gpt-5");
            db.part(
                "prt_a",
                "msg_2",
                "ses_1",
                end,
                &todowrite("completed", end, end, &[(step, "pending")]),
            );
            drop(db);
        }
        let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
        let todos: Vec<&str> = session(&output, Agent::Opencode, "ses_1")
            .todos
            .iter()
            .map(|todo| todo.text.as_str())
            .collect();
        assert_eq!(todos, [want]);
    }
}

#[test]
fn a_database_without_opencodes_tables_is_named_as_such() {
    let home = Home::new();
    let folder = home.path().join(".local/share/opencode");
    fs_err::create_dir_all(&folder).expect("folder");
    // One with two of the three tables, one of another program.
    for (name, tables) in [
        ("opencode-partial.db", "CREATE TABLE session (id text); CREATE TABLE message (id text);"),
        ("opencode-other.db", "CREATE TABLE kv (k text); CREATE TABLE meta (v text);"),
    ] {
        let conn = Connection::open(folder.join(name)).expect("open db");
        conn.execute_batch(tables).expect("tables");
    }
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    assert_eq!(output.warnings.len(), 2, "{:?}", output.warnings);
    for (warning, name) in output.warnings.iter().zip(["opencode-other.db", "opencode-partial.db"])
    {
        let text = en(warning);
        assert!(text.contains(name), "{text}");
        assert!(text.contains("it has no `session`, `message` and `part` tables"), "{text}");
    }
}

#[test]
fn session_message_rows_are_named_only_when_message_holds_none() {
    let event = |db: &Db, at: &str| {
        db.conn
            .execute(
                "INSERT INTO session_message (id, session_id, type, seq, time_created, time_updated, data) \
                 VALUES ('sm_1', 'ses_1', 'user', 1, ?1, ?1, '{}')",
                params![ms(at)],
            )
            .expect("session_message");
    };
    let unknown = |home: &Home| {
        status(&home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z")), Agent::Opencode)
            .unknown
            .clone()
    };
    let named = vec!["table session_message".to_owned()];
    // Rows of the window there, none in `message`: named.
    let home = Home::new();
    let db = Db::create(&db_path(&home));
    event(&db, "2026-05-04T09:00:00Z");
    assert_eq!(unknown(&home), named);
    drop(db);
    // Its rows all older than the window: not named.
    let home = Home::new();
    let db = Db::create(&db_path(&home));
    event(&db, "2026-05-03T09:00:00Z");
    assert!(unknown(&home).is_empty());
    drop(db);
    // `message` holds the window's rows: the table is not needed, not named.
    let home = Home::new();
    let db = Db::create(&db_path(&home));
    event(&db, "2026-05-04T09:00:00Z");
    db.session("ses_1", None, "Fix it", "/work/proj", "2026-05-04T09:00:00Z");
    db.user("msg_1", "ses_1", "2026-05-04T09:00:01Z", &[("fix it", false)]);
    assert!(unknown(&home).is_empty());
    drop(db);
}

#[test]
fn a_sub_agent_of_a_sub_agent_finds_its_root_when_only_it_worked_today() {
    let home = Home::new();
    let db = Db::create(&db_path(&home));
    // A hundred roots whose own messages are all from yesterday, each with a child whose
    // own child alone worked today: every root is looked up through two parents.
    for index in 0..100 {
        let (root, child, grandchild) =
            (format!("ses_r{index:03}"), format!("ses_c{index:03}"), format!("ses_g{index:03}"));
        db.session(&root, None, &format!("Root {index}"), "/work/proj", "2026-05-03T09:00:00Z");
        db.user(&format!("msg_r{index:03}"), &root, "2026-05-03T09:00:01Z", &[("plan", false)]);
        db.session(&child, Some(&root), "Child", "/work/proj", "2026-05-03T09:00:02Z");
        db.session(&grandchild, Some(&child), "Grandchild", "/work/proj", "2026-05-03T09:00:03Z");
        db.reply(
            &format!("msg_g{index:03}"),
            &grandchild,
            "2026-05-04T09:00:00Z",
            "2026-05-04T09:00:05Z",
            "claude-haiku-4-5",
        );
    }
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    assert_eq!(output.events.len(), 100);
    for index in [0, 50, 99] {
        let event = session(&output, Agent::Opencode, &format!("ses_r{index:03}"));
        assert_eq!(event.title, format!("Root {index}"));
        assert_eq!(event.activity, times(&["2026-05-04T09:00:00Z", "2026-05-04T09:00:05Z"]));
    }
    drop(db);
}

#[test]
fn the_storage_layout_counts_its_sessions_and_finds_a_sub_agents_parent() {
    let home = Home::new();
    let root = ".local/share/opencode/storage";
    let info = |id: &str, title: &str, parent: Option<&str>| {
        let mut file = json!({"id": id, "version": "0.15.8", "projectID": "prj1", "title": title,
            "directory": "/work/legacy",
            "time": {"created": ms("2026-05-03T09:00:00Z"), "updated": ms("2026-05-03T09:00:00Z")}});
        if let Some(parent) = parent {
            file["parentID"] = json!(parent);
        }
        file.to_string()
    };
    home.write(&format!("{root}/session/prj1/ses_p.json"), info("ses_p", "Port the CLI", None));
    home.write(
        &format!("{root}/session/prj1/ses_c.json"),
        info("ses_c", "Child session - 2026-05-04T09:00:00.000Z", Some("ses_p")),
    );
    // Not a project's folder: the oldest layout's messages live there.
    home.write(&format!("{root}/session/message/ses_c.json"), info("ses_c", "Decoy", None));
    // Only the sub-agent worked today; the parent's messages are from yesterday.
    home.write(
        &format!("{root}/message/ses_c/msg_2.json"),
        json!({"id": "msg_2", "sessionID": "ses_c", "role": "assistant",
               "time": {"created": ms("2026-05-04T09:00:02Z"), "completed": ms("2026-05-04T09:00:20Z")},
               "modelID": "gpt-5-mini", "providerID": "openai"})
        .to_string(),
    );
    let old = home.write(
        &format!("{root}/message/ses_p/msg_1.json"),
        json!({"id": "msg_1", "sessionID": "ses_p", "role": "user",
               "time": {"created": ms("2026-05-03T09:00:01Z")}})
        .to_string(),
    );
    set_mtime(&old, ts("2026-05-03T09:00:01Z"));
    set_dir_mtime(&home.path().join(root).join("message/ses_p"), ts("2026-05-03T09:00:01Z"));
    // In the fresh folder: a file that is no message, and a message file from before the
    // window; neither is opened (either would be a malformed document).
    home.write(&format!("{root}/message/ses_c/notes.txt"), "{ not json");
    let stale = home.write(&format!("{root}/message/ses_c/msg_0.json"), "{ broken");
    set_mtime(&stale, ts("2026-05-03T09:00:00Z"));
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(output.events.len(), 1, "{:?}", output.events);
    let event = session(&output, Agent::Opencode, "ses_p");
    assert_eq!(event.title, "Port the CLI");
    assert_eq!(event.activity, times(&["2026-05-04T09:00:02Z", "2026-05-04T09:00:20Z"]));
    // Both sessions' message folders, the old one too.
    assert_eq!(status(&output, Agent::Opencode).files, 2);
}

#[test]
fn every_sub_agent_of_a_busy_day_in_the_storage_layout_finds_its_root() {
    let home = Home::new();
    let root = ".local/share/opencode/storage";
    // A hundred roots that did not work today, each with a sub-agent that did.
    for index in 0..100 {
        let (parent, child) = (format!("ses_p{index:03}"), format!("ses_c{index:03}"));
        let info = |id: &str, title: String, parent: Option<&str>| {
            json!({"id": id, "version": "0.15.8", "projectID": "prj1", "title": title,
                   "directory": "/work/legacy", "parentID": parent,
                   "time": {"created": ms("2026-05-03T09:00:00Z"), "updated": ms("2026-05-03T09:00:00Z")}})
            .to_string()
        };
        home.write(
            &format!("{root}/session/prj1/{parent}.json"),
            info(&parent, format!("Root {index}"), None),
        );
        home.write(
            &format!("{root}/session/prj1/{child}.json"),
            info(&child, "Child".to_owned(), Some(&parent)),
        );
        home.write(
            &format!("{root}/message/{child}/msg_{index:03}.json"),
            json!({"id": format!("msg_{index:03}"), "sessionID": child, "role": "assistant",
                   "time": {"created": ms("2026-05-04T09:00:02Z")}, "modelID": "gpt-5-mini"})
            .to_string(),
        );
    }
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    assert_eq!(output.events.len(), 100);
    for index in [0, 50, 99] {
        assert_eq!(
            session(&output, Agent::Opencode, &format!("ses_p{index:03}")).title,
            format!("Root {index}")
        );
    }
}

/// A fork recorded from the real opencode 1.18.33 (`fixtures/opencode-fork/record.sh`:
/// `run "first prompt"`, then `run --continue --fork "second prompt"`, then `run
/// --continue "third prompt"`): the fork is a new session holding copies of the other's
/// messages and parts (new ids, times kept), then its own. Each of the three prompts
/// counts once.
#[test]
fn a_fork_s_copies_of_the_other_session_are_not_counted_twice() {
    // The two sessions of the recording.
    let (original, fork) = ("ses_db49f31d6ffeZ1GJGMPOnBTFeO", "ses_db49f19ecffeUkzVHLDJx8CJQx");
    let home = Home::new();
    home.copy_fixture("opencode-fork/1.18.33/home", "", ts("2026-12-06T23:00:00Z"));
    let output = home.read(Agent::Opencode, ts("2026-12-06T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(output.events.len(), 2);
    let original = session(&output, Agent::Opencode, original);
    assert_eq!(original.prompts.len(), 1);
    assert_eq!(original.title, "done");
    let fork = session(&output, Agent::Opencode, fork);
    assert_eq!(fork.prompts.len(), 2, "{:?}", fork.prompts);
    assert!(fork.prompts[0] > original.prompts[0]);
    assert!(fork.activity.iter().all(|time| *time > original.activity[1]), "{:?}", fork.activity);
    assert_eq!(fork.title, "done (fork #1)");
    assert_eq!(fork.models, ["standin-model"]);
}

/// A `bash` call as opencode stores it once it ran: a `tool` part of the reply.
fn bash(command: &str, exit: i64, at: &str) -> serde_json::Value {
    json!({
        "type": "tool", "callID": "call_1", "tool": "bash",
        "state": {"status": "completed", "input": {"command": command, "description": "run it"},
                  "output": "failed", "metadata": {"exit": exit, "output": "failed"},
                  "time": {"start": ms(at), "end": ms(at)}}
    })
}

/// A fork's copies of a failed command and a to-do list are the other session's: the fork
/// neither fails that command again nor shows that list; a message written at the very
/// time the fork was made is the fork's own.
#[test]
fn a_fork_s_copied_command_and_list_stay_with_the_other_session() {
    let home = Home::new();
    let db = Db::create(&db_path(&home));
    db.session("ses_b", None, "Fix the build", "/work/proj", "2026-05-04T09:00:00Z");
    db.user("msg_1", "ses_b", "2026-05-04T09:00:01Z", &[("fix the build", false)]);
    db.reply("msg_2", "ses_b", "2026-05-04T09:00:02Z", "2026-05-04T09:00:09Z", "gpt-5");
    db.part(
        "prt_1",
        "msg_2",
        "ses_b",
        "2026-05-04T09:00:03Z",
        &bash("make", 2, "2026-05-04T09:00:03Z"),
    );
    let list = todowrite(
        "completed",
        "2026-05-04T09:00:04Z",
        "2026-05-04T09:00:05Z",
        &[("fix the linker flags", "pending")],
    );
    db.part("prt_2", "msg_2", "ses_b", "2026-05-04T09:00:04Z", &list);
    // The fork, made at 10:00: the same messages and parts, new ids, times kept; then its
    // own prompt at the very time it was made.
    db.session("ses_a", None, "Fix the build (fork #1)", "/work/proj", "2026-05-04T10:00:00Z");
    db.user("msg_3", "ses_a", "2026-05-04T09:00:01Z", &[("fix the build", false)]);
    db.reply("msg_4", "ses_a", "2026-05-04T09:00:02Z", "2026-05-04T09:00:09Z", "gpt-5");
    db.part(
        "prt_3",
        "msg_4",
        "ses_a",
        "2026-05-04T09:00:03Z",
        &bash("make", 2, "2026-05-04T09:00:03Z"),
    );
    db.part("prt_4", "msg_4", "ses_a", "2026-05-04T09:00:04Z", &list);
    db.user("msg_5", "ses_a", "2026-05-04T10:00:00Z", &[("try it without the cache", false)]);
    db.reply("msg_6", "ses_a", "2026-05-04T10:00:01Z", "2026-05-04T10:00:07Z", "gpt-5-mini");
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let original = session(&output, Agent::Opencode, "ses_b");
    assert_eq!(original.prompts, times(&["2026-05-04T09:00:01Z"]));
    assert_eq!(original.failed_commands.len(), 1);
    assert_eq!(original.todos.len(), 1);
    let fork = session(&output, Agent::Opencode, "ses_a");
    assert_eq!(fork.prompts, times(&["2026-05-04T10:00:00Z"]));
    assert_eq!(
        fork.activity,
        times(&["2026-05-04T10:00:00Z", "2026-05-04T10:00:01Z", "2026-05-04T10:00:07Z"])
    );
    assert!(fork.failed_commands.is_empty(), "{:?}", fork.failed_commands);
    assert!(fork.todos.is_empty(), "{:?}", fork.todos);
    // Its own prompt's model and its own reply's; not the copied reply's `gpt-5`.
    assert_eq!(fork.models, ["claude-sonnet-4-5", "gpt-5-mini"]);
    drop(db);
}

/// The storage layout's fork: the session file's `time.created` tells the copied message
/// files (their own `time.created` kept) from the fork's own.
#[test]
fn the_storage_layout_s_fork_counts_only_its_own_messages() {
    let home = Home::new();
    let root = ".local/share/opencode/storage";
    let file = |path: &str, value: serde_json::Value| {
        home.write(&format!("{root}/{path}"), value.to_string());
    };
    for (session, made) in [("ses_1", "2026-05-04T09:00:00Z"), ("ses_2", "2026-05-04T11:00:00Z")] {
        file(
            &format!("session/prj1/{session}.json"),
            json!({"id": session, "version": "0.15.8", "projectID": "prj1",
                   "directory": "/work/legacy", "title": "Port the CLI", "time": {"created": ms(made)}}),
        );
    }
    // The same prompt in both: written in `ses_1`, copied into `ses_2` by the fork.
    for (session, message) in [("ses_1", "msg_1"), ("ses_2", "msg_9")] {
        file(
            &format!("message/{session}/{message}.json"),
            json!({"id": message, "sessionID": session, "role": "user",
                   "time": {"created": ms("2026-05-04T09:00:01Z")}}),
        );
        file(
            &format!("part/{message}/prt_1.json"),
            json!({"id": "prt_1", "messageID": message, "sessionID": session, "type": "text",
                   "text": "port the cli to clap"}),
        );
    }
    file(
        "message/ses_2/msg_10.json",
        json!({"id": "msg_10", "sessionID": "ses_2", "role": "user",
               "time": {"created": ms("2026-05-04T11:00:05Z")}}),
    );
    file(
        "part/msg_10/prt_1.json",
        json!({"id": "prt_1", "messageID": "msg_10", "sessionID": "ses_2", "type": "text",
               "text": "now the other way"}),
    );
    let output = home.read(Agent::Opencode, ts("2026-05-04T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(
        session(&output, Agent::Opencode, "ses_1").prompts,
        times(&["2026-05-04T09:00:01Z"])
    );
    let fork = session(&output, Agent::Opencode, "ses_2");
    assert_eq!(fork.prompts, times(&["2026-05-04T11:00:05Z"]));
    assert_eq!(fork.activity, times(&["2026-05-04T11:00:05Z"]));
}

/// Kilo Code's CLI forks as opencode does (recorded from the real 7.7.7 by
/// `fixtures/kilo-fork/record.sh`): each of the three prompts counts once. Its `run`
/// generated no title, so the fork is titled `New session - <time> (fork #1)`: a
/// placeholder still, which gives way to the first prompt (the copied one).
#[test]
fn a_kilo_fork_of_an_untitled_session_counts_once_and_takes_the_first_prompt() {
    // The two sessions of the recording.
    let (original, fork) = ("ses_db456f4beffeVHN8vwCdI7VJqQ", "ses_db4568361ffevyno87Q7SfDInx");
    let home = Home::new();
    home.copy_fixture("kilo-fork/7.7.7/home", "", ts("2026-12-06T23:00:00Z"));
    let output = home.read(Agent::Kilo, ts("2026-12-06T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(output.events.len(), 2);
    let original = session(&output, Agent::Kilo, original);
    assert_eq!(original.prompts.len(), 1);
    assert_eq!(original.title, "first prompt");
    let fork = session(&output, Agent::Kilo, fork);
    assert_eq!(fork.prompts.len(), 2, "{:?}", fork.prompts);
    assert!(fork.prompts[0] > original.prompts[0]);
    assert_eq!(fork.title, "first prompt");
}
