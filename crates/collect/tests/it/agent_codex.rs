//! Tests of the codex reader (see crates/collect/src/sessions/codex.rs).
//!
//! The rollouts are written as Codex writes them: `{timestamp, ordinal, type, payload}`
//! lines in the shapes of 0.171.0 (`fixtures/agents/codex/0.171.0`, recorded from the
//! real CLI) and of older releases (`user_message` events, no ordinals).

use std::path::Path;

use report_model::{Agent, WarningCode};
use serde_json::{Value, json};

use crate::support::{
    Home, en, fixtures, recorded_failure, recorded_todos, scripted, session, set_mtime, status,
    times, ts,
};

const SINCE: &str = "2026-03-02T00:00:00Z";
const DAY: &str = ".codex/sessions/2026/03/02";
const ID: &str = "01a00000-0000-7000-8000-000000000001";
const PARENT: &str = "01a00000-0000-7000-8000-0000000000aa";

/// One rollout line.
fn line(time: &str, ordinal: Option<u64>, kind: &str, payload: &Value) -> String {
    let mut record = json!({"timestamp": time, "type": kind, "payload": payload});
    if let Some(ordinal) = ordinal {
        record["ordinal"] = json!(ordinal);
    }
    record.to_string()
}

/// A `session_meta` payload as 0.171.0 writes it.
fn meta(id: &str, time: &str, cwd: &str) -> Value {
    json!({
        "session_id": id, "id": id, "timestamp": time, "cwd": cwd,
        "originator": "codex_tui", "cli_version": "0.171.0", "source": "cli",
        "thread_source": "user", "model_provider": "openai", "history_mode": "paginated",
        "git": {"commit_hash": "2cf508b93ef4e8b633c9e8222f9b44ced9eea463", "branch": "feature/login"}
    })
}

fn user_item(text: &str) -> Value {
    json!({"type": "message", "id": "msg_1", "role": "user",
           "content": [{"type": "input_text", "text": text}]})
}

fn user_completed(text: &str) -> Value {
    json!({"type": "item_completed", "thread_id": ID, "turn_id": "t1",
           "item": {"type": "UserMessage", "id": "u1",
                    "content": [{"type": "text", "text": text, "text_elements": []}]}})
}

fn turn_context(cwd: &str, model: &str) -> Value {
    json!({"turn_id": "t1", "cwd": cwd, "approval_policy": "never", "model": model,
           "summary": "none", "sandbox_policy": {"type": "workspace-write"}})
}

fn assistant(text: &str) -> Value {
    json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]})
}

const ENVIRONMENT: &str = "<environment_context>\n  <cwd>/home/dev/app</cwd>\n  <shell>bash</shell>\n</environment_context>";
const AGENTS_MD: &str =
    "# AGENTS.md instructions for /home/dev/app\n\n<INSTRUCTIONS>\nRun the tests.\n</INSTRUCTIONS>";

/// A 0.171.0 rollout of `id` with these typed prompts, each as Codex records one: the
/// `response_item` and its `item_completed` echo.
fn new_rollout(id: &str, start: &str, prompts: &[(&str, &str)]) -> String {
    let mut lines = vec![
        line(start, Some(0), "session_meta", &meta(id, start, "/home/dev/app")),
        line(start, Some(1), "event_msg", &json!({"type": "task_started", "turn_id": "t1"})),
        line(
            start,
            Some(2),
            "response_item",
            &json!({"type": "message", "role": "developer",
            "content": [{"type": "input_text", "text": "<permissions instructions>\nsandboxed\n</permissions instructions>"}]}),
        ),
        line(start, Some(3), "response_item", &user_item(ENVIRONMENT)),
        line(start, Some(4), "world_state", &json!({"agents_md": null})),
        line(start, Some(5), "turn_context", &turn_context("/home/dev/app", "gpt-5.5-codex")),
    ];
    let mut ordinal = 6;
    for (time, text) in prompts {
        lines.push(line(time, Some(ordinal), "response_item", &user_item(text)));
        lines.push(line(time, Some(ordinal + 1), "event_msg", &user_completed(text)));
        lines.push(line(time, Some(ordinal + 2), "response_item", &assistant("Done.")));
        lines.push(line(
            time,
            Some(ordinal + 3),
            "token_usage_record",
            &json!({"total_tokens": 120}),
        ));
        ordinal += 4;
    }
    lines.join("\n") + "\n"
}

fn rollout_path(id: &str) -> String {
    format!("{DAY}/rollout-2026-03-02T10-00-00-{id}.jsonl")
}

#[test]
fn recorded_0171_sessions_come_out_as_expected() {
    let root = fixtures().join("agents/codex/0.171.0");
    let expected: Value = serde_json::from_str(
        &fs_err::read_to_string(root.join("expected.json")).expect("expected.json"),
    )
    .expect("expected.json is JSON");
    let since = ts(expected["since"].as_str().expect("since"));
    let home = Home::new();
    home.copy_fixture("agents/codex/0.171.0/home", "", since);
    let output = home.read(Agent::Codex, since);
    assert!(output.warnings.is_empty(), "{:#?}", output.warnings);
    for wanted in expected["sessions"].as_array().expect("sessions") {
        let id = wanted["id"].as_str().expect("id");
        let found = session(&output, Agent::Codex, id);
        assert_eq!(
            found.prompts.len() as u64,
            wanted["prompts_count"].as_u64().expect("count"),
            "{id}"
        );
        assert_eq!(found.title, wanted["title"].as_str().expect("title"), "{id}");
        assert_eq!(found.cwd.as_deref(), wanted["cwd"].as_str().map(Path::new), "{id}");
        assert!(found.models.iter().any(|model| model == wanted["model"].as_str().expect("model")));
        assert_eq!(found.branch.as_deref(), Some("main"));
    }
    let codex = status(&output, Agent::Codex);
    assert_eq!(codex.versions, ["0.171.0"]);
    // Every record and payload type 0.171.0 wrote is known to the reader.
    assert!(codex.unknown.is_empty(), "{:?}", codex.unknown);
}

#[test]
fn new_rollouts_count_each_typed_prompt_once_and_skip_injected_context() {
    let home = Home::new();
    let mut text = new_rollout(
        ID,
        "2026-03-02T10:00:00.000Z",
        &[
            ("2026-03-02T10:00:05.000Z", "Add a login page"),
            ("2026-03-02T10:10:00.000Z", "Now test it"),
        ],
    );
    // Injected user messages of other kinds, and a prompt written as an item alone.
    for (second, injected) in [
        (11, AGENTS_MD),
        (
            12,
            "<user_shell_command>\n<command>ls</command>\n<result>a</result>\n</user_shell_command>",
        ),
        (13, "<turn_aborted>\nThe user interrupted the previous turn.\n</turn_aborted>"),
        (14, "<skill>\n<name>deploy</name>\n<path>/s/SKILL.md</path>\nsteps\n</skill>"),
        (15, "<subagent_notification>\n{\"agent_path\":\"/root/a\"}\n</subagent_notification>"),
    ] {
        text += &line(
            &format!("2026-03-02T10:20:{second}.000Z"),
            None,
            "response_item",
            &user_item(injected),
        );
        text.push('\n');
    }
    text += &line(
        "2026-03-02T10:30:00.000Z",
        None,
        "response_item",
        &user_item("Why does <environment_context> show up in my logs?"),
    );
    text.push('\n');
    home.write(&rollout_path(ID), text);
    let output = home.read(Agent::Codex, ts(SINCE));
    let found = session(&output, Agent::Codex, ID);
    assert_eq!(
        found.prompts,
        times(&["2026-03-02T10:00:05Z", "2026-03-02T10:10:00Z", "2026-03-02T10:30:00Z"])
    );
    assert_eq!(found.title, "Add a login page");
}

#[test]
fn old_rollouts_count_user_message_events_once_with_their_echo() {
    let home = Home::new();
    let old_meta = json!({"id": ID, "timestamp": "2026-03-02T09:00:00.000Z", "cwd": "/home/dev/old",
        "originator": "codex_cli_rs", "cli_version": "0.58.0", "instructions": null, "source": "cli"});
    let lines = [
        line("2026-03-02T09:00:00.000Z", None, "session_meta", &old_meta),
        line(
            "2026-03-02T09:00:00.100Z",
            None,
            "response_item",
            &user_item("<user_instructions>\nBe brief.\n</user_instructions>"),
        ),
        line(
            "2026-03-02T09:00:00.200Z",
            None,
            "event_msg",
            &json!({"type": "user_message",
            "message": "<environment_context>\n<cwd>/home/dev/old</cwd>\n</environment_context>", "kind": "environment_context"}),
        ),
        // Injected instructions not closed: still no prompt.
        line(
            "2026-03-02T09:00:00.300Z",
            None,
            "event_msg",
            &json!({"type": "user_message", "message": "<user_instructions>\nBe brief."}),
        ),
        line("2026-03-02T09:00:01.000Z", None, "response_item", &user_item("Rename the module")),
        line(
            "2026-03-02T09:00:01.000Z",
            None,
            "event_msg",
            &json!({"type": "user_message", "message": "Rename the module", "images": []}),
        ),
        line(
            "2026-03-02T09:05:00.000Z",
            None,
            "event_msg",
            &json!({"type": "user_message", "message": "Also the tests", "kind": "plain"}),
        ),
    ];
    home.write(&rollout_path(ID), lines.join("\n") + "\n");
    let output = home.read(Agent::Codex, ts(SINCE));
    let found = session(&output, Agent::Codex, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T09:00:01Z", "2026-03-02T09:05:00Z"]));
    assert_eq!(found.title, "Rename the module");
    assert_eq!(status(&output, Agent::Codex).versions, ["0.58.0"]);
}

#[test]
fn a_session_resumed_by_a_new_release_counts_old_and_new_prompts_once() {
    let home = Home::new();
    let mut text = [
        line(
            "2026-03-02T08:00:00.000Z",
            None,
            "session_meta",
            &meta(ID, "2026-03-02T08:00:00.000Z", "/home/dev/app"),
        ),
        line(
            "2026-03-02T08:00:01.000Z",
            None,
            "response_item",
            &user_item("First, from the old release"),
        ),
        line(
            "2026-03-02T08:00:01.000Z",
            None,
            "event_msg",
            &json!({"type": "user_message", "message": "First, from the old release"}),
        ),
    ]
    .join("\n");
    text.push('\n');
    text += &line(
        "2026-03-02T11:00:00.000Z",
        Some(40),
        "response_item",
        &user_item("Then the new one"),
    );
    text.push('\n');
    text += &line(
        "2026-03-02T11:00:00.001Z",
        Some(41),
        "event_msg",
        &user_completed("Then the new one"),
    );
    text.push('\n');
    home.write(&rollout_path(ID), text);
    let output = home.read(Agent::Codex, ts(SINCE));
    let found = session(&output, Agent::Codex, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T08:00:01Z", "2026-03-02T11:00:00Z"]));
}

/// A sub-agent's rollout as 0.171.0 writes it: its own meta, the parent's meta and a
/// copy of the parent's conversation, then its own records from
/// `subagent_history_start_ordinal`.
fn subagent_rollout() -> String {
    let mut own = meta(ID, "2026-03-02T12:00:00.000Z", "/home/dev/app");
    own["source"] = json!({"subagent": {"thread_spawn": {"parent_thread_id": PARENT, "depth": 1,
        "agent_path": "/root/explorer", "agent_nickname": "explorer"}}});
    own["forked_from_id"] = json!(PARENT);
    own["subagent_history_start_ordinal"] = json!(4);
    let t = "2026-03-02T12:00:00.010Z";
    [
        line("2026-03-02T12:00:00.000Z", Some(0), "session_meta", &own),
        line(
            t,
            Some(1),
            "session_meta",
            &meta(PARENT, "2026-03-02T11:00:00.000Z", "/home/dev/app"),
        ),
        line(t, Some(2), "response_item", &user_item("Refactor the parser (the parent's prompt)")),
        line(t, Some(3), "event_msg", &user_completed("Refactor the parser (the parent's prompt)")),
        line(
            "2026-03-02T12:00:01.000Z",
            Some(4),
            "turn_context",
            &turn_context("/home/dev/app/parser", "gpt-5.5-mini"),
        ),
        line(
            "2026-03-02T12:00:01.000Z",
            Some(5),
            "response_item",
            &user_item("Find every caller of parse()"),
        ),
        line("2026-03-02T12:00:09.000Z", Some(6), "response_item", &assistant("Found 3.")),
    ]
    .join("\n")
        + "\n"
}

#[test]
fn a_subagent_fork_takes_the_first_meta_id_and_counts_no_replayed_prompt() {
    let home = Home::new();
    home.write(&rollout_path(ID), subagent_rollout());
    let output = home.read(Agent::Codex, ts(SINCE));
    assert_eq!(output.events.len(), 1, "{:#?}", output.events);
    let found = session(&output, Agent::Codex, ID);
    // Neither the copied parent prompt nor the parent agent's task is typed.
    assert!(found.prompts.is_empty(), "{:?}", found.prompts);
    assert_eq!(found.title, "");
    // The copied records are the parent's, not this session's activity.
    assert_eq!(
        found.activity,
        times(&["2026-03-02T12:00:00Z", "2026-03-02T12:00:01Z", "2026-03-02T12:00:09Z"])
    );
    assert_eq!(found.cwd.as_deref(), Some(Path::new("/home/dev/app/parser")));
    assert_eq!(found.models, ["gpt-5.5-mini"]);
}

#[test]
fn a_user_fork_counts_only_its_own_prompts() {
    let home = Home::new();
    let mut own = meta(ID, "2026-03-02T12:00:00.000Z", "/home/dev/app");
    own["forked_from_id"] = json!(PARENT);
    own["subagent_history_start_ordinal"] = json!(3);
    let lines = [
        line("2026-03-02T12:00:00.000Z", Some(0), "session_meta", &own),
        line(
            "2026-03-02T12:00:00.001Z",
            Some(1),
            "session_meta",
            &meta(PARENT, "2026-03-01T11:00:00.000Z", "/home/dev/app"),
        ),
        line(
            "2026-03-02T12:00:00.002Z",
            Some(2),
            "response_item",
            &user_item("The parent's prompt"),
        ),
        line(
            "2026-03-02T12:03:00.000Z",
            Some(3),
            "response_item",
            &user_item("Try the other approach"),
        ),
        line(
            "2026-03-02T12:03:00.001Z",
            Some(4),
            "event_msg",
            &user_completed("Try the other approach"),
        ),
    ];
    home.write(&rollout_path(ID), lines.join("\n") + "\n");
    let output = home.read(Agent::Codex, ts(SINCE));
    let found = session(&output, Agent::Codex, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T12:03:00Z"]));
    assert_eq!(found.title, "Try the other approach");
}

#[test]
fn a_fork_without_ordinals_skips_the_copied_burst_and_marked_copies() {
    let home = Home::new();
    let mut own = meta(ID, "2026-03-02T12:00:00.000Z", "/home/dev/app");
    own["forked_from_id"] = json!(PARENT);
    let mut marked: Value = serde_json::from_str(&line(
        "2026-03-02T12:10:00.000Z",
        None,
        "response_item",
        &user_item("A parent message copied later"),
    ))
    .expect("json");
    marked["metadata"] = json!({"inherited_user_message": true});
    let lines = [
        line("2026-03-02T12:00:00.000Z", None, "session_meta", &own),
        line(
            "2026-03-02T12:00:00.004Z",
            None,
            "session_meta",
            &meta(PARENT, "2026-03-01T11:00:00.000Z", "/home/dev/app"),
        ),
        line("2026-03-02T12:00:00.005Z", None, "response_item", &user_item("The parent's prompt")),
        line(
            "2026-03-02T12:00:00.005Z",
            None,
            "event_msg",
            &json!({"type": "user_message", "message": "The parent's prompt"}),
        ),
        marked.to_string(),
        line("2026-03-02T12:05:00.000Z", None, "response_item", &user_item("My own question")),
        line(
            "2026-03-02T12:05:00.000Z",
            None,
            "event_msg",
            &json!({"type": "user_message", "message": "My own question"}),
        ),
    ];
    home.write(&rollout_path(ID), lines.join("\n") + "\n");
    let output = home.read(Agent::Codex, ts(SINCE));
    let found = session(&output, Agent::Codex, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T12:05:00Z"]));
    assert_eq!(found.title, "My own question");
}

#[test]
fn the_index_title_is_the_last_non_empty_name_and_wins() {
    let home = Home::new();
    home.write(
        &rollout_path(ID),
        new_rollout(
            ID,
            "2026-03-02T10:00:00.000Z",
            &[("2026-03-02T10:00:05.000Z", "Add a login page")],
        ),
    );
    let index = [
        json!({"id": ID, "thread_name": "Login page", "updated_at": "2026-03-02T10:01:00Z"}),
        json!({"id": ID, "thread_name": "Login page, with tests", "updated_at": "2026-03-02T09:00:00Z"}),
        json!({"id": ID, "thread_name": "   ", "updated_at": "2026-03-02T10:09:00Z"}),
        json!({"id": "01a00000-0000-7000-8000-00000000ffff", "thread_name": "Another", "updated_at": "2026-03-02T10:09:00Z"}),
    ];
    home.write(
        ".codex/session_index.jsonl",
        index.iter().map(Value::to_string).collect::<Vec<_>>().join("\n") + "\n",
    );
    // The index wins over the database and the rollout's own rename event.
    state_db(
        &home,
        ".codex/state_5.sqlite",
        &[(ID, Some("Db name"), "Db title", "Add a login page")],
    );
    let output = home.read(Agent::Codex, ts(SINCE));
    assert_eq!(session(&output, Agent::Codex, ID).title, "Login page, with tests");
}

#[test]
fn a_thread_name_updated_event_titles_the_session() {
    let home = Home::new();
    let mut text = new_rollout(
        ID,
        "2026-03-02T10:00:00.000Z",
        &[("2026-03-02T10:00:05.000Z", "Add a login page")],
    );
    text += &line(
        "2026-03-02T10:06:00.000Z",
        Some(99),
        "event_msg",
        &json!({"type": "thread_name_updated", "thread_id": ID, "thread_name": "Login work"}),
    );
    text.push('\n');
    home.write(&rollout_path(ID), text);
    let output = home.read(Agent::Codex, ts(SINCE));
    assert_eq!(session(&output, Agent::Codex, ID).title, "Login work");
}

/// A `state_<N>.sqlite` with a `threads` table of 0.171.0's columns (those the reader
/// uses, and a few others); rows are `(id, name, title, first_user_message)`.
fn state_db(
    home: &Home,
    relative: &str,
    rows: &[(&str, Option<&str>, &str, &str)],
) -> std::path::PathBuf {
    let path = home.path().join(relative);
    fs_err::create_dir_all(path.parent().expect("parent")).expect("folders");
    let conn = rusqlite::Connection::open(&path).expect("create db");
    conn.execute_batch(
        "CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL, created_at INTEGER NOT NULL,
         updated_at INTEGER NOT NULL, source TEXT NOT NULL, model_provider TEXT NOT NULL, cwd TEXT NOT NULL,
         title TEXT NOT NULL, sandbox_policy TEXT NOT NULL, approval_mode TEXT NOT NULL,
         tokens_used INTEGER NOT NULL DEFAULT 0, archived INTEGER NOT NULL DEFAULT 0,
         first_user_message TEXT NOT NULL DEFAULT '', name TEXT, preview TEXT NOT NULL DEFAULT '');",
    )
    .expect("schema");
    for (id, name, title, first) in rows {
        conn.execute(
            "INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title,
             sandbox_policy, approval_mode, first_user_message, name, preview)
             VALUES (?1, '/r', 0, 0, 'cli', 'openai', '/home/dev/from-db', ?2, 'read-only', 'never', ?3, ?4, ?3)",
            rusqlite::params![id, title, first, name],
        )
        .expect("row");
    }
    path
}

#[test]
fn the_state_db_name_titles_a_session_and_a_copy_of_its_first_message_does_not() {
    let home = Home::new();
    let other = "01a00000-0000-7000-8000-000000000002";
    let third = "01a00000-0000-7000-8000-000000000003";
    home.write(
        &rollout_path(ID),
        new_rollout(
            ID,
            "2026-03-02T10:00:00.000Z",
            &[("2026-03-02T10:00:05.000Z", "Add a login page")],
        ),
    );
    home.write(
        &rollout_path(other),
        new_rollout(
            other,
            "2026-03-02T10:00:00.000Z",
            &[("2026-03-02T10:00:05.000Z", "Fix the build")],
        ),
    );
    home.write(
        &rollout_path(third),
        new_rollout(third, "2026-03-02T10:00:00.000Z", &[("2026-03-02T10:00:05.000Z", "Ship it")]),
    );
    state_db(
        &home,
        ".codex/state_5.sqlite",
        &[
            (ID, Some("Login page"), "Add a login page", "Add a login page"),
            // `title` derived from the first message is not the agent's own title.
            (other, None, "fix the build   ", "fix the build"),
            // A title unlike the first message is one (a name from before `name` existed).
            (third, None, "Release 2.0", "Ship it"),
        ],
    );
    let output = home.read(Agent::Codex, ts(SINCE));
    assert_eq!(session(&output, Agent::Codex, ID).title, "Login page");
    assert_eq!(session(&output, Agent::Codex, other).title, "Fix the build");
    assert_eq!(session(&output, Agent::Codex, third).title, "Release 2.0");
    // The rollout's cwd wins over the database's.
    assert_eq!(session(&output, Agent::Codex, ID).cwd.as_deref(), Some(Path::new("/home/dev/app")));
    assert!(output.warnings.is_empty(), "{:#?}", output.warnings);
}

#[test]
fn placeholder_and_empty_titles_are_no_titles() {
    let home = Home::new();
    home.write(
        &rollout_path(ID),
        new_rollout(
            ID,
            "2026-03-02T10:00:00.000Z",
            &[("2026-03-02T10:00:05.000Z", "Add a login page")],
        ),
    );
    home.write(
        ".codex/session_index.jsonl",
        json!({"id": ID, "thread_name": "", "updated_at": "2026-03-02T10:01:00Z"}).to_string()
            + "\n",
    );
    state_db(&home, ".codex/state_5.sqlite", &[(ID, Some("[Image]"), "  ", "")]);
    let output = home.read(Agent::Codex, ts(SINCE));
    assert_eq!(session(&output, Agent::Codex, ID).title, "Add a login page");
}

#[test]
fn the_highest_state_db_is_read_only_when_it_or_its_wal_changed_in_the_window() {
    let home = Home::new();
    home.write(
        &rollout_path(ID),
        new_rollout(
            ID,
            "2026-03-02T10:00:00.000Z",
            &[("2026-03-02T10:00:05.000Z", "Add a login page")],
        ),
    );
    state_db(&home, ".codex/state_4.sqlite", &[(ID, Some("From the old schema"), "", "")]);
    let db = state_db(&home, ".codex/state_5.sqlite", &[(ID, Some("From state 5"), "", "")]);
    assert_eq!(
        session(&home.read(Agent::Codex, ts(SINCE)), Agent::Codex, ID).title,
        "From state 5"
    );
    // Untouched since the window began: not opened (even a broken one).
    fs_err::write(&db, b"not a database").expect("break db");
    set_mtime(&db, ts("2026-03-01T00:00:00Z"));
    let output = home.read(Agent::Codex, ts(SINCE));
    assert_eq!(session(&output, Agent::Codex, ID).title, "Add a login page");
    assert!(output.warnings.is_empty(), "{:#?}", output.warnings);
    // A fresh `-wal` means its rows may have changed: it is opened, and a broken one warned.
    home.write(".codex/state_5.sqlite-wal", b"");
    let output = home.read(Agent::Codex, ts(SINCE));
    assert!(
        output.warnings.iter().any(|warning| en(warning).contains("state_5.sqlite")),
        "{:#?}",
        output.warnings
    );
    assert_eq!(session(&output, Agent::Codex, ID).prompts.len(), 1);
}

#[test]
fn codex_sqlite_home_is_honoured() {
    let home = Home::new();
    let home = home.var("CODEX_SQLITE_HOME", "~/state-dbs");
    home.write(
        &rollout_path(ID),
        new_rollout(
            ID,
            "2026-03-02T10:00:00.000Z",
            &[("2026-03-02T10:00:05.000Z", "Add a login page")],
        ),
    );
    state_db(&home, ".codex/state_5.sqlite", &[(ID, Some("In the home: not read"), "", "")]);
    state_db(&home, "state-dbs/state_5.sqlite", &[(ID, Some("Elsewhere"), "", "")]);
    let output = home.read(Agent::Codex, ts(SINCE));
    assert_eq!(session(&output, Agent::Codex, ID).title, "Elsewhere");
}

/// A zstd frame holding `content` in raw blocks (`zstd -19` output is in [`ZSTD_ROLLOUT`]).
fn zstd_raw(content: &[u8]) -> Vec<u8> {
    // Magic, a descriptor with no content size or checksum, a 128 KiB window.
    let mut frame = vec![0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38];
    let chunks: Vec<&[u8]> =
        if content.is_empty() { vec![&[]] } else { content.chunks(100_000).collect() };
    for (index, chunk) in chunks.iter().enumerate() {
        let last = u32::from(index + 1 == chunks.len());
        let header = (u32::try_from(chunk.len()).expect("small") << 3) | last;
        frame.extend_from_slice(&header.to_le_bytes()[..3]);
        frame.extend_from_slice(chunk);
    }
    frame
}

/// `zstd -19` of a three-line 0.171.0 rollout of session `77777777-…` in `/home/dev/zipped`
/// with one prompt, "Compress the old logs", at 2026-03-02T10:00:01Z.
const ZSTD_ROLLOUT: &[u8] = &[
    0x28, 0xb5, 0x2f, 0xfd, 0x64, 0xd1, 0x01, 0x9d, 0x09, 0x00, 0x76, 0x52, 0x37, 0x1d, 0x40, 0x6f,
    0x75, 0x0c, 0x52, 0xfc, 0x45, 0x75, 0x77, 0x93, 0x2c, 0xa7, 0xfd, 0x88, 0xcc, 0xe4, 0x6e, 0xcc,
    0x53, 0x40, 0xcd, 0x9b, 0x43, 0x29, 0x7a, 0xc7, 0x80, 0xf0, 0x8a, 0x2e, 0x00, 0x30, 0x00, 0x2c,
    0x00, 0x15, 0x67, 0x5a, 0xd9, 0xa9, 0x87, 0x2d, 0xca, 0xb7, 0xfb, 0x35, 0xf3, 0x67, 0xa5, 0x5a,
    0x2d, 0xe6, 0xc8, 0x89, 0xcf, 0x51, 0x69, 0x65, 0xc7, 0x5a, 0x6b, 0xb0, 0xd8, 0x62, 0x18, 0xcd,
    0x12, 0x14, 0x96, 0xe0, 0xd0, 0xac, 0xc6, 0xcc, 0x13, 0x3a, 0x75, 0x0f, 0x5f, 0xf5, 0x25, 0x08,
    0x66, 0xb0, 0xcc, 0x4c, 0x2f, 0x69, 0x2f, 0x7a, 0x52, 0x6d, 0x94, 0x3b, 0xf9, 0x98, 0x99, 0xca,
    0xea, 0xc4, 0x07, 0x3d, 0xf7, 0x39, 0x9f, 0x85, 0x20, 0xb9, 0x23, 0x1c, 0xca, 0x08, 0xc1, 0xcc,
    0x6e, 0xf2, 0x58, 0x39, 0x61, 0x10, 0x20, 0xcc, 0xec, 0xde, 0x85, 0xd9, 0x39, 0x32, 0x0a, 0x66,
    0x56, 0xae, 0x94, 0xd7, 0x56, 0xa5, 0x19, 0xdf, 0x83, 0xb9, 0xc6, 0xd7, 0x28, 0xe9, 0x57, 0x8a,
    0x24, 0xb5, 0xf2, 0x21, 0x67, 0xf7, 0x10, 0xbe, 0xbe, 0xf6, 0x8d, 0x72, 0xee, 0x29, 0xc3, 0x00,
    0xa6, 0xc9, 0xcc, 0x7f, 0xa8, 0x24, 0xd7, 0xca, 0x6b, 0xc0, 0x04, 0x80, 0x69, 0x9a, 0x20, 0x13,
    0xe4, 0xc1, 0xbc, 0x35, 0x1e, 0x3e, 0x7a, 0x63, 0xa4, 0x05, 0xfd, 0x36, 0x94, 0xdd, 0xeb, 0xa3,
    0x09, 0xe5, 0xd3, 0xa0, 0x85, 0xad, 0xc6, 0x4b, 0xde, 0x30, 0x90, 0xc9, 0x0b, 0xc9, 0x28, 0xe0,
    0x22, 0x19, 0x78, 0xa4, 0x06, 0x76, 0x4f, 0x27, 0x94, 0x8a, 0x22, 0x20, 0x60, 0x86, 0x4c, 0x5d,
    0xe0, 0x03, 0x42, 0x06, 0xa2, 0x93, 0xe0, 0x6a, 0x8a, 0xf0, 0xdd, 0xb0, 0xa5, 0xe8, 0xa8, 0x05,
    0xe2, 0x12, 0x9a, 0x05, 0x6e, 0xf8, 0x47, 0x71, 0x1f, 0x4c, 0xbb, 0x2e, 0xb8, 0x16, 0xdf, 0x59,
    0x27, 0xe4, 0x20, 0x88, 0xe1, 0x8b, 0xb2, 0x60, 0x47, 0xf2, 0xd3, 0x18, 0xcf, 0x42, 0x27, 0x24,
    0x49, 0xcc, 0x80, 0xd9, 0xa2, 0x5a, 0x0c, 0x74, 0xa1, 0xdf, 0x5c, 0x02, 0x9e, 0x98, 0x21, 0x0d,
    0xb2, 0x3c, 0x30, 0x86, 0x6f, 0xa2, 0x5c, 0xa1, 0x5e, 0x0a, 0xd3, 0x0a, 0x4e, 0xfb, 0x42, 0x56,
    0x8a,
];

#[test]
fn compressed_rollouts_are_read_and_a_plain_sibling_wins() {
    let home = Home::new();
    let zipped = "77777777-7777-4777-8777-777777777777";
    home.write(
        &format!(".codex/archived_sessions/rollout-2026-03-02T10-00-00-{zipped}.jsonl.zst"),
        ZSTD_ROLLOUT,
    );
    // Raw blocks, over several blocks, in a dated folder.
    let long = new_rollout(
        ID,
        "2026-03-02T10:00:00.000Z",
        &[("2026-03-02T10:00:05.000Z", &"word ".repeat(40_000))],
    );
    home.write(&format!("{}.zst", rollout_path(ID)), zstd_raw(long.as_bytes()));
    // A compressed copy beside its plain file is the same rollout: read once.
    let other = "01a00000-0000-7000-8000-000000000002";
    let plain = new_rollout(
        other,
        "2026-03-02T10:00:00.000Z",
        &[("2026-03-02T10:00:05.000Z", "Plain wins")],
    );
    home.write(&rollout_path(other), &plain);
    home.write(
        &format!("{}.zst", rollout_path(other)),
        zstd_raw(plain.replace("Plain wins", "Stale copy").as_bytes()),
    );
    let output = home.read(Agent::Codex, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:#?}", output.warnings);
    let found = session(&output, Agent::Codex, zipped);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:01Z"]));
    assert_eq!(found.title, "Compress the old logs");
    assert_eq!(found.cwd.as_deref(), Some(Path::new("/home/dev/zipped")));
    assert_eq!(session(&output, Agent::Codex, ID).prompts.len(), 1);
    let plain = session(&output, Agent::Codex, other);
    assert_eq!((plain.prompts.len(), plain.title.as_str()), (1, "Plain wins"));
    assert_eq!(status(&output, Agent::Codex).files, 3);
}

#[test]
fn a_corrupt_compressed_rollout_is_warned_and_the_rest_read() {
    let home = Home::new();
    let broken =
        format!(".codex/sessions/2026/03/02/rollout-2026-03-02T09-00-00-{PARENT}.jsonl.zst");
    home.write(&broken, b"\x28\xb5\x2f\xfd\x00\x38\xff\xff\xff garbage");
    home.write(
        &rollout_path(ID),
        new_rollout(
            ID,
            "2026-03-02T10:00:00.000Z",
            &[("2026-03-02T10:00:05.000Z", "Add a login page")],
        ),
    );
    let output = home.read(Agent::Codex, ts(SINCE));
    assert_eq!(session(&output, Agent::Codex, ID).prompts.len(), 1);
    assert!(
        output.warnings.iter().any(|warning| en(warning).contains(&format!("{PARENT}.jsonl.zst"))),
        "{:#?}",
        output.warnings
    );
}

#[test]
fn archived_sessions_flat_and_dated_are_read() {
    let home = Home::new();
    let flat = "01a00000-0000-7000-8000-000000000002";
    home.write(
        &format!(".codex/archived_sessions/rollout-2026-03-02T10-00-00-{flat}.jsonl"),
        new_rollout(flat, "2026-03-02T10:00:00.000Z", &[("2026-03-02T10:00:05.000Z", "Flat")]),
    );
    home.write(
        &format!(".codex/archived_sessions/2026/03/02/rollout-2026-03-02T10-00-00-{ID}.jsonl"),
        new_rollout(ID, "2026-03-02T10:00:00.000Z", &[("2026-03-02T10:00:05.000Z", "Dated")]),
    );
    let output = home.read(Agent::Codex, ts(SINCE));
    assert_eq!(session(&output, Agent::Codex, flat).title, "Flat");
    assert_eq!(session(&output, Agent::Codex, ID).title, "Dated");
}

#[test]
fn cwd_model_and_branch_come_from_the_meta_and_turn_contexts() {
    let home = Home::new();
    let mut text = new_rollout(
        ID,
        "2026-03-02T10:00:00.000Z",
        &[("2026-03-02T10:00:05.000Z", "Add a login page")],
    );
    text += &line(
        "2026-03-02T10:30:00.000Z",
        Some(50),
        "turn_context",
        &turn_context("/home/dev/app/web", "gpt-5.5"),
    );
    text.push('\n');
    home.write(&rollout_path(ID), text);
    let output = home.read(Agent::Codex, ts(SINCE));
    let found = session(&output, Agent::Codex, ID);
    assert_eq!(found.cwd.as_deref(), Some(Path::new("/home/dev/app/web")));
    assert_eq!(found.models, ["gpt-5.5-codex", "gpt-5.5"]);
    assert_eq!(found.branch.as_deref(), Some("feature/login"));
}

#[test]
fn versions_and_unknown_record_types_are_noted() {
    let home = Home::new();
    let mut text = new_rollout(
        ID,
        "2026-03-02T10:00:00.000Z",
        &[("2026-03-02T10:00:05.000Z", "Add a login page")],
    );
    for (kind, payload) in [
        ("hologram_record", json!({})),
        ("response_item", json!({"type": "telepathy_call"})),
        ("event_msg", json!({"type": "mind_meld"})),
        ("event_msg", json!({"type": "task_complete"})),
        ("inter_agent_communication", json!({})),
    ] {
        text += &line("2026-03-02T10:40:00.000Z", None, kind, &payload);
        text.push('\n');
    }
    home.write(&rollout_path(ID), text);
    let output = home.read(Agent::Codex, ts(SINCE));
    let codex = status(&output, Agent::Codex);
    assert_eq!(codex.versions, ["0.171.0"]);
    assert_eq!(
        codex.unknown,
        ["event_msg.mind_meld", "hologram_record", "response_item.telepathy_call"]
    );
}

#[test]
fn old_rollouts_are_not_opened() {
    let home = Home::new();
    let old = home.write(
        &format!(".codex/sessions/2026/02/20/rollout-2026-02-20T10-00-00-{PARENT}.jsonl"),
        b"not json at all\n",
    );
    set_mtime(&old, ts("2026-02-20T11:00:00Z"));
    home.write(
        &rollout_path(ID),
        new_rollout(
            ID,
            "2026-03-02T10:00:00.000Z",
            &[("2026-03-02T10:00:05.000Z", "Add a login page")],
        ),
    );
    let output = home.read(Agent::Codex, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:#?}", output.warnings);
    assert_eq!(output.events.len(), 1);
    let codex = status(&output, Agent::Codex);
    assert_eq!((codex.files, codex.entries), (2, 1));
}

#[test]
fn malformed_lines_and_unreadable_files_are_warned() {
    let home = Home::new();
    let mut text = new_rollout(
        ID,
        "2026-03-02T10:00:00.000Z",
        &[("2026-03-02T10:00:05.000Z", "Add a login page")],
    );
    text += "{\"timestamp\": oops\n";
    home.write(&rollout_path(ID), text);
    let fifo = home
        .path()
        .join(format!(".codex/sessions/2026/03/02/rollout-2026-03-02T11-00-00-{PARENT}.jsonl"));
    #[expect(clippy::disallowed_methods, reason = "the test makes a FIFO with coreutils")]
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let output = home.read(Agent::Codex, ts(SINCE));
    assert_eq!(session(&output, Agent::Codex, ID).prompts.len(), 1);
    let codes: Vec<(WarningCode, bool)> = output
        .warnings
        .iter()
        .map(|warning| (warning.code(), en(warning).contains(&format!("{PARENT}.jsonl"))))
        .collect();
    assert!(codes.contains(&(WarningCode::MalformedLines, false)), "{:#?}", output.warnings);
    assert!(codes.contains(&(WarningCode::SourceUnreadable, true)), "{:#?}", output.warnings);
}

#[test]
fn the_codex_home_comes_from_codex_home() {
    let home = Home::new().var("CODEX_HOME", "~/elsewhere");
    home.write(
        &format!("elsewhere/sessions/2026/03/02/rollout-2026-03-02T10-00-00-{ID}.jsonl"),
        new_rollout(ID, "2026-03-02T10:00:00.000Z", &[("2026-03-02T10:00:05.000Z", "Moved home")]),
    );
    let output = home.read(Agent::Codex, ts(SINCE));
    assert_eq!(session(&output, Agent::Codex, ID).title, "Moved home");
    assert_eq!(status(&output, Agent::Codex).locations[0], home.path().join("elsewhere"));
}

/// An `update_plan` call as Codex records it: a `function_call` whose `arguments` are
/// the JSON text of `UpdatePlanArgs`.
fn update_plan(steps: &[(&str, &str)]) -> Value {
    let plan: Vec<Value> =
        steps.iter().map(|(step, status)| json!({"step": step, "status": status})).collect();
    let arguments = json!({"explanation": "Splitting the work.", "plan": plan}).to_string();
    json!({"type": "function_call", "name": "update_plan", "arguments": arguments, "call_id": "call_plan"})
}

#[test]
fn the_newest_update_plan_is_the_sessions_list() {
    use report_model::{Todo, TodoStatus};
    let home = Home::new();
    let mut text = new_rollout(
        ID,
        "2026-03-02T10:00:00.000Z",
        &[("2026-03-02T10:00:05.000Z", "Add a login page")],
    );
    for (time, ordinal, steps) in [
        ("2026-03-02T10:01:00.000Z", 20, &[("Sketch the form", "in_progress")][..]),
        (
            "2026-03-02T10:05:00.000Z",
            21,
            &[
                ("Sketch the form", "completed"),
                ("Validate the password", "in_progress"),
                ("Add the login test", "pending"),
            ][..],
        ),
    ] {
        text += &line(time, Some(ordinal), "response_item", &update_plan(steps));
        text.push('\n');
    }
    // Another tool's call is not a plan, and arguments that do not parse are no list.
    text += &line(
        "2026-03-02T10:06:00.000Z",
        Some(22),
        "response_item",
        &json!({"type": "function_call", "name": "shell", "arguments": "{\"plan\":[{\"step\":\"x\",\"status\":\"pending\"}]}", "call_id": "c2"}),
    );
    text.push('\n');
    text += &line(
        "2026-03-02T10:07:00.000Z",
        Some(23),
        "response_item",
        &json!({"type": "function_call", "name": "update_plan", "arguments": "not json", "call_id": "c3"}),
    );
    text.push('\n');
    home.write(&rollout_path(ID), text);
    let output = home.read(Agent::Codex, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:#?}", output.warnings);
    let found = session(&output, Agent::Codex, ID);
    let todo = |text: &str, status| Todo { text: text.to_owned(), status };
    assert_eq!(
        found.todos,
        [
            todo("Sketch the form", TodoStatus::Completed),
            todo("Validate the password", TodoStatus::InProgress),
            todo("Add the login test", TodoStatus::Pending),
        ]
    );
    assert_eq!(found.todos_time, Some(ts("2026-03-02T10:05:00Z")));
    assert!(status(&output, Agent::Codex).unknown.is_empty());
}

#[test]
fn the_recorded_plan_and_failed_command_are_read() {
    // Recorded (0.171.0, `[tools.update_plan] enabled = true`): the stand-in called
    // `update_plan` with one step done and two pending, then `exec_command` on `sh
    // check.sh`, which exited with 3 (`item_completed` `CommandExecution`). The first two
    // sessions hold neither.
    let home = Home::new();
    let since = ts("2026-01-01T00:00:00Z");
    home.copy_fixture("agents/codex/0.171.0/home", "", since);
    let output = home.read(Agent::Codex, since);
    assert_eq!(output.events.len(), 3);
    assert_eq!(scripted(&output), vec![(recorded_todos(), recorded_failure())]);
}

#[test]
fn a_message_whose_metadata_says_not_inherited_is_the_sessions_own() {
    let home = Home::new();
    let mut own = meta(ID, "2026-03-02T12:00:00.000Z", "/home/dev/app");
    own["forked_from_id"] = json!(PARENT);
    let mut not_inherited: Value = serde_json::from_str(&line(
        "2026-03-02T12:10:00.000Z",
        None,
        "response_item",
        &user_item("Asked in the fork"),
    ))
    .expect("json");
    not_inherited["metadata"] = json!({"inherited_user_message": false});
    let lines =
        [line("2026-03-02T12:00:00.000Z", None, "session_meta", &own), not_inherited.to_string()];
    home.write(&rollout_path(ID), lines.join("\n") + "\n");
    let output = home.read(Agent::Codex, ts(SINCE));
    assert_eq!(session(&output, Agent::Codex, ID).prompts, times(&["2026-03-02T12:10:00Z"]));
}

#[test]
fn a_forks_copied_turn_context_gives_it_neither_model_nor_folder() {
    let home = Home::new();
    let mut own = meta(ID, "2026-03-02T12:00:00.000Z", "/home/dev/app");
    own["forked_from_id"] = json!(PARENT);
    let lines = [
        line("2026-03-02T12:00:00.000Z", None, "session_meta", &own),
        line(
            "2026-03-02T12:00:00.004Z",
            None,
            "session_meta",
            &meta(PARENT, "2026-03-02T11:00:00.000Z", "/home/dev/parent"),
        ),
        // The parent's turn, copied in the burst after its meta.
        line(
            "2026-03-02T12:00:00.005Z",
            None,
            "turn_context",
            &turn_context("/home/dev/parent", "gpt-4.1"),
        ),
        line("2026-03-02T12:05:00.000Z", None, "response_item", &user_item("My own question")),
        line(
            "2026-03-02T12:05:00.000Z",
            None,
            "turn_context",
            &turn_context("/home/dev/app", "gpt-5-codex"),
        ),
    ];
    home.write(&rollout_path(ID), lines.join("\n") + "\n");
    let output = home.read(Agent::Codex, ts(SINCE));
    let found = session(&output, Agent::Codex, ID);
    assert_eq!(found.models, ["gpt-5-codex"]);
    assert_eq!(found.cwd, Some(std::path::PathBuf::from("/home/dev/app")));
}

/// A finished command as 0.171.0 records it (`item_completed`, `CommandExecution`).
fn command_completed(call: &str, script: &str, exit: i64) -> Value {
    json!({"type": "item_completed", "thread_id": ID, "turn_id": "t1",
           "item": {"type": "CommandExecution", "id": call, "command": ["/bin/bash", "-lc", script],
                    "status": "failed", "exit_code": exit}})
}

/// A finished command as older releases record it (`exec_command_end`).
fn command_ended(call: &str, script: &str, exit: i64) -> Value {
    json!({"type": "exec_command_end", "call_id": call, "command": ["bash", "-lc", script],
           "exit_code": exit, "stdout": "", "stderr": "boom"})
}

fn failed_commands(
    output: &collect::SourceOutput<report_model::SessionEvent>,
) -> Vec<(String, usize)> {
    session(output, Agent::Codex, ID)
        .failed_commands
        .iter()
        .map(|failed| (failed.command.clone(), failed.runs.len()))
        .collect()
}

#[test]
fn an_older_releases_exec_command_end_is_a_run_and_one_call_is_one_run() {
    let home = Home::new();
    let lines = [
        line(
            "2026-03-02T12:00:00.000Z",
            None,
            "session_meta",
            &meta(ID, "2026-03-02T12:00:00.000Z", "/home/dev/app"),
        ),
        line("2026-03-02T12:01:00.000Z", None, "response_item", &user_item("Run the checks")),
        line(
            "2026-03-02T12:02:00.000Z",
            None,
            "event_msg",
            &command_ended("call_1", "sh check.sh", 3),
        ),
        // The same call told twice (an item and its end): one run.
        line(
            "2026-03-02T12:03:00.000Z",
            None,
            "event_msg",
            &command_completed("call_2", "cargo test", 101),
        ),
        line(
            "2026-03-02T12:03:00.000Z",
            None,
            "event_msg",
            &command_ended("call_2", "cargo test", 101),
        ),
    ];
    home.write(&rollout_path(ID), lines.join("\n") + "\n");
    let output = home.read(Agent::Codex, ts(SINCE));
    assert_eq!(
        failed_commands(&output),
        [("sh check.sh".to_owned(), 1), ("cargo test".to_owned(), 1)]
    );
}

#[test]
fn a_subagents_commands_are_not_the_sessions_failures() {
    let home = Home::new();
    let mut own = meta(ID, "2026-03-02T12:00:00.000Z", "/home/dev/app");
    own["source"] = json!({"subagent": {"other": "reviewer"}});
    let lines = [
        line("2026-03-02T12:00:00.000Z", None, "session_meta", &own),
        line(
            "2026-03-02T12:10:00.000Z",
            None,
            "event_msg",
            &command_completed("call_1", "sh check.sh", 3),
        ),
    ];
    home.write(&rollout_path(ID), lines.join("\n") + "\n");
    let output = home.read(Agent::Codex, ts(SINCE));
    assert!(failed_commands(&output).is_empty());
}

#[test]
fn an_event_with_other_text_than_the_item_before_it_is_a_second_prompt() {
    let home = Home::new();
    let lines = [
        line(
            "2026-03-02T12:00:00.000Z",
            None,
            "session_meta",
            &meta(ID, "2026-03-02T12:00:00.000Z", "/home/dev/app"),
        ),
        line("2026-03-02T12:01:00.000Z", None, "response_item", &user_item("First question")),
        line("2026-03-02T12:02:00.000Z", None, "event_msg", &user_completed("A different one")),
    ];
    home.write(&rollout_path(ID), lines.join("\n") + "\n");
    let output = home.read(Agent::Codex, ts(SINCE));
    let found = session(&output, Agent::Codex, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T12:01:00Z", "2026-03-02T12:02:00Z"]));
    assert_eq!(found.title, "First question");
}

#[test]
fn a_state_db_title_copied_from_the_preview_alone_is_no_title() {
    let home = Home::new();
    home.write(
        &rollout_path(ID),
        new_rollout(
            ID,
            "2026-03-02T10:00:00.000Z",
            &[("2026-03-02T10:00:05.000Z", "Add a login page")],
        ),
    );
    let db = state_db(&home, ".codex/state_5.sqlite", &[(ID, None, "add a login pag…", "x")]);
    // No first message recorded; the preview holds what the title was derived from.
    rusqlite::Connection::open(&db)
        .expect("open db")
        .execute("UPDATE threads SET first_user_message = '', preview = title", [])
        .expect("update");
    let output = home.read(Agent::Codex, ts(SINCE));
    assert_eq!(session(&output, Agent::Codex, ID).title, "Add a login page");
}

/// Rollouts are looked for as deep as codex writes them (`sessions/YYYY/MM/DD`) and no
/// deeper: a folder below a day's is not codex's.
#[test]
fn rollouts_deeper_than_codex_writes_them_are_not_looked_for() {
    let home = Home::new();
    let text = |id: &str| {
        [line(
            "2026-03-02T09:00:00.000Z",
            None,
            "session_meta",
            &meta(id, "2026-03-02T09:00:00.000Z", "/home/dev/app"),
        )]
        .join("\n")
            + "\n"
    };
    let deep = "019a0000-0000-7000-8000-00000000d33b";
    home.write(&rollout_path(ID), text(ID));
    home.write(&format!("{DAY}/one/rollout-2026-03-02T10-00-00-{deep}.jsonl"), text(deep));
    home.write(&format!("{DAY}/one/two/rollout-2026-03-02T10-00-00-{deep}.jsonl"), text(deep));
    let output = home.read(Agent::Codex, ts(SINCE));
    let ids: Vec<&str> = output.events.iter().map(|event| event.session_id.as_str()).collect();
    assert_eq!(ids, [ID]);
    assert_eq!(status(&output, Agent::Codex).files, 1);
}
