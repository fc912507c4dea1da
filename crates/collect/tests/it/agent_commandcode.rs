//! Tests of the Command Code reader (see crates/collect/src/sessions/commandcode.rs).
//!
//! The lines are shaped as Command Code 1.64.0 writes them (a `session` header, then
//! entries `{type, id, parentId, timestamp, …}`), as in its recordings:
//! `fixtures/agents/commandcode/1.64.0/` (print mode, by `cargo xtask record-agents`) and
//! `fixtures/commandcode-interactive/1.64.0/` (by that folder's `record.sh`: an
//! interactive session with a to-do list and a rename, and a print session continued
//! twice).

use std::path::{Path, PathBuf};

use report_model::{Agent, TodoStatus, WarningCode};
use serde_json::{Value, json};

use crate::support::{
    Home, assert_one_warning_naming, failed_runs, fixtures, read_with_home, session, status, times,
    todo_items, ts,
};

const SINCE: &str = "2026-03-02T00:00:00Z";
const ID: &str = "5d0c1e2a-7b3f-4c5d-9e8f-0a1b2c3d4e5f";
const PROJECT: &str = ".commandcode/projects/home-dev-app";

fn ms(time: &str) -> i64 {
    ts(time).as_millisecond()
}

fn header(id: &str) -> Value {
    json!({"type": "session", "version": 3, "id": id, "timestamp": "2026-03-02T09:59:59.000Z",
        "cwd": "/home/dev/app"})
}

/// A message entry saved at `saved`, made at `made` (none: no `createdAt`).
fn message(saved: &str, role: &str, meta: &Value, content: &Value) -> Value {
    json!({"type": "message", "id": "e", "parentId": null, "timestamp": saved,
        "message": {"role": role, "content": content, "meta": meta}})
}

fn typed(saved: &str, made: &str, source: &str, text: &str) -> Value {
    message(
        saved,
        "user",
        &json!({"source": source, "createdAt": ms(made)}),
        &json!([{"type": "text", "text": text}]),
    )
}

fn reply(saved: &str, blocks: &Value) -> Value {
    let mut entry =
        message(saved, "assistant", &json!({"source": "model", "createdAt": ms(saved)}), blocks);
    entry["model"] = json!("anthropic/claude-sonnet-4-6");
    entry
}

fn shell(id: &str, command: &str) -> Value {
    json!({"type": "tool_use", "id": id, "name": "shell_command",
        "input": {"command": command, "description": "run it"}})
}

fn results(saved: &str, results: &[(&str, &str)]) -> Value {
    let blocks: Vec<Value> = results
        .iter()
        .map(|(id, text)| {
            json!({"type": "tool_result", "tool_use_id": id,
                "content": [{"type": "text", "text": text}]})
        })
        .collect();
    message(saved, "user", &json!({"source": "tool"}), &Value::Array(blocks))
}

fn lines(entries: &[Value]) -> String {
    entries.iter().map(|entry| entry.to_string() + "\n").collect()
}

/// A session of the day: a prompt typed at 10:00 and saved at 10:02 (the step's end),
/// a reply with a to-do list and two shell calls, their results (one failed, one
/// passed), a stop hook's message, a scheduled loop's, a meta message, a steer typed
/// while the agent worked, a background run, a refused run, and a rename.
fn transcript() -> String {
    lines(&[
        header(ID),
        typed("2026-03-02T10:02:00.000Z", "2026-03-02T10:00:00.000Z", "user", "fix the login bug"),
        reply(
            "2026-03-02T10:02:00.000Z",
            &json!([
                {"type": "text", "text": "On it."},
                {"type": "tool_use", "id": "t1", "name": "todo_write", "input": {"todos": [
                    {"content": "Reproduce the bug", "status": "completed", "activeForm": "Reproducing"},
                    {"content": "Fix the session check", "status": "in_progress", "activeForm": "Fixing"},
                ]}},
                shell("s1", "cargo test"),
                {"type": "tool_use", "id": "s2", "name": "shell_command",
                    "input": {"command": "cargo", "args": ["fmt", "--check"]}},
            ]),
        ),
        results(
            "2026-03-02T10:02:00.000Z",
            &[
                ("t1", "Todos have been modified successfully."),
                ("s1", "Exit code: 101\nfailures:\n"),
                ("s2", ""),
            ],
        ),
        message(
            "2026-03-02T10:03:00.000Z",
            "user",
            &json!({"source": "stop_hook", "isAutomated": true, "createdAt": ms("2026-03-02T10:03:00Z")}),
            &json!([{"type": "text", "text": "a hook said so"}]),
        ),
        message(
            "2026-03-02T10:04:00.000Z",
            "user",
            &json!({"source": "scheduled-loop:abc", "isMeta": true, "isAutomated": true,
                "createdAt": ms("2026-03-02T10:04:00Z")}),
            &json!([{"type": "text", "text": "check again"}]),
        ),
        message(
            "2026-03-02T10:05:00.000Z",
            "user",
            &json!({"source": "user", "isMeta": true, "createdAt": ms("2026-03-02T10:05:00Z")}),
            &json!([{"type": "text", "text": "skill text"}]),
        ),
        typed(
            "2026-03-02T10:07:00.000Z",
            "2026-03-02T10:06:00.000Z",
            "steering",
            "use the new API",
        ),
        reply(
            "2026-03-02T10:07:00.000Z",
            &json!([
                {"type": "tool_use", "id": "s3", "name": "shell_command",
                    "input": {"command": "npm run dev", "run_in_background": true}},
                shell("s4", "rm -rf target"),
            ]),
        ),
        results(
            "2026-03-02T10:07:00.000Z",
            &[
                ("s3", "Started shell command in the background.\nTask: t9"),
                ("s4", "Permission denied by the user."),
            ],
        ),
        json!({"type": "session_info", "id": "i", "parentId": "e", "timestamp": "2026-03-02T10:08:00.000Z",
            "name": "  Login bug  "}),
        json!({"type": "model_change", "id": "m", "parentId": "i", "timestamp": "2026-03-02T10:09:00.000Z",
            "model": "openai/gpt-5.2"}),
        json!({"type": "effort_change", "id": "f", "parentId": "m", "timestamp": "2026-03-02T10:09:00.000Z",
            "effort": "high"}),
        json!({"type": "label", "id": "l", "parentId": "f", "timestamp": "2026-03-02T10:09:00.000Z",
            "targetId": "e", "label": "here"}),
        // A second header (none is written; a file joined by hand): the first one names
        // the session.
        json!({"type": "session", "version": 3, "id": "other", "timestamp": "2026-03-02T10:09:00.000Z",
            "cwd": "/elsewhere"}),
    ])
}

#[test]
fn commandcode_prompts_are_placed_when_typed_and_only_the_person_s_count() {
    let home = Home::new();
    home.write(&format!("{PROJECT}/{ID}.jsonl"), transcript());
    let output = home.read(Agent::CommandCode, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::CommandCode, ID);
    // When typed (`meta.createdAt`), not when saved; the steer is the person's too.
    assert_eq!(event.prompts, times(&["2026-03-02T10:00:00Z", "2026-03-02T10:06:00Z"]));
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/home/dev/app")));
    // No `meta.json`: the rename's name, trimmed.
    assert_eq!(event.title, "Login bug");
    assert_eq!(event.models, ["anthropic/claude-sonnet-4-6", "openai/gpt-5.2"]);
    assert_eq!(
        todo_items(event),
        [
            ("Reproduce the bug", TodoStatus::Completed),
            ("Fix the session check", TodoStatus::InProgress)
        ]
    );
    assert_eq!(event.todos_time, Some(ts("2026-03-02T10:02:00Z")));
    // `cargo test` failed; `cargo fmt --check` passed; the background run and the
    // refused one tell no status.
    assert_eq!(failed_runs(event), [("cargo test", vec![(101, ts("2026-03-02T10:02:00Z"))])]);
    assert!(event.activity.contains(&ts("2026-03-02T10:00:00Z")));
    assert_eq!(event.activity.last(), Some(&ts("2026-03-02T10:09:00Z")));
    assert_eq!(output.events.len(), 1);
    // Every entry type is one 1.64.0 writes: none is noted as unknown.
    assert!(status(&output, Agent::CommandCode).unknown.is_empty());
}

#[test]
fn commandcode_a_line_without_type_or_role_is_not_called_the_older_layout() {
    let home = Home::new();
    home.write(&format!("{PROJECT}/{ID}.jsonl"), lines(&[header(ID), json!({"id": "x"})]));
    let output = home.read(Agent::CommandCode, ts(SINCE));
    assert!(status(&output, Agent::CommandCode).unknown.is_empty());
    assert_eq!(output.events.len(), 1);
}

#[test]
fn commandcode_meta_json_s_title_comes_first_and_side_files_are_not_transcripts() {
    let home = Home::new();
    home.write(&format!("{PROJECT}/{ID}.jsonl"), transcript());
    home.write(&format!("{PROJECT}/{ID}.meta.json"), r#"{"title":"Fix login","userRenamed":true}"#);
    home.write(
        &format!("{PROJECT}/{ID}.checkpoints.jsonl"),
        r#"{"id":"c","turnNumber":1,"createdAt":"2026-03-02T10:00:00.000Z","prompt":"fix the login bug"}"#,
    );
    home.write(&format!("{PROJECT}/{ID}.prompts.jsonl"), "{}\n");
    let output = home.read(Agent::CommandCode, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(output.events.len(), 1);
    assert_eq!(session(&output, Agent::CommandCode, ID).title, "Fix login");
    assert_eq!(status(&output, Agent::CommandCode).files, 1);
}

#[test]
fn commandcode_a_print_session_without_title_is_named_by_its_first_prompt() {
    let home = Home::new();
    home.write(
        &format!("{PROJECT}/{ID}.jsonl"),
        lines(&[
            header(ID),
            typed(
                "2026-03-02T10:02:00.000Z",
                "2026-03-02T10:00:00.000Z",
                "user",
                "  fix the\nlogin bug ",
            ),
        ]),
    );
    home.write(&format!("{PROJECT}/{ID}.meta.json"), r#"{"entrypoint":"print"}"#);
    let output = home.read(Agent::CommandCode, ts(SINCE));
    assert_eq!(session(&output, Agent::CommandCode, ID).title, "fix the login bug");
}

#[test]
fn commandcode_older_prompts_are_not_counted_and_old_files_not_read() {
    let home = Home::new();
    // A prompt typed before the window, saved in it: not the window's.
    let path = home.write(
        &format!("{PROJECT}/{ID}.jsonl"),
        lines(&[
            header(ID),
            typed("2026-03-02T00:01:00.000Z", "2026-03-01T23:59:00.000Z", "user", "late night"),
        ]),
    );
    let old = home.write(&format!("{PROJECT}/old.jsonl"), lines(&[header("old")]));
    crate::support::set_mtime(&old, ts("2026-03-01T12:00:00Z"));
    crate::support::set_mtime(&path, ts("2026-03-02T00:01:00Z"));
    // A file beside the project folders is not one.
    home.write(".commandcode/projects/.DS_Store", "");
    // Nor is a link to a file.
    std::os::unix::fs::symlink(&old, home.path().join(".commandcode/projects/link")).unwrap();
    let output = home.read(Agent::CommandCode, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::CommandCode, ID);
    assert!(event.prompts.is_empty());
    assert_eq!(event.title, "late night");
    assert_eq!(output.events.len(), 1);
    assert_eq!(status(&output, Agent::CommandCode).files, 2);
    // The session read has records in the window: it is counted as one.
    assert_eq!(status(&output, Agent::CommandCode).entries, 1);
}

#[test]
fn commandcode_a_malformed_line_is_counted_and_unknown_types_noted() {
    let home = Home::new();
    let mut text = transcript();
    text.push_str("{\"type\": \"message\", \"timestamp\": \n");
    text.push_str(
        &json!({"type": "hologram", "id": "h", "timestamp": "2026-03-02T11:00:00Z"}).to_string(),
    );
    text.push('\n');
    // The version 2 layout (a message per line, no `type`), not read.
    text.push_str(
        &json!({"id": "m", "sessionId": ID, "role": "user", "timestamp": "2026-03-02T11:00:00Z",
        "content": "old"})
        .to_string(),
    );
    text.push('\n');
    let path = home.write(&format!("{PROJECT}/{ID}.jsonl"), text);
    let output = home.read(Agent::CommandCode, ts(SINCE));
    assert_eq!(session(&output, Agent::CommandCode, ID).prompts.len(), 2);
    assert_one_warning_naming(&output, WarningCode::MalformedLines, &path);
    let status = status(&output, Agent::CommandCode);
    assert_eq!(status.limits, ["1 malformed line skipped in 1 file"]);
    assert!(
        status.unknown.iter().any(|unknown| unknown.contains("hologram")),
        "{:?}",
        status.unknown
    );
    assert!(
        status.unknown.iter().any(|unknown| unknown.contains("version 2")),
        "{:?}",
        status.unknown
    );
}

#[test]
fn commandcode_is_read_from_the_configured_folder_and_absent_is_not_found() {
    let home = Home::new();
    home.write(&format!("elsewhere/projects/home-dev-app/{ID}.jsonl"), transcript());
    let output =
        read_with_home(&home, Agent::CommandCode, home.path().join("elsewhere"), ts(SINCE));
    assert_eq!(session(&output, Agent::CommandCode, ID).prompts.len(), 2);
    let empty = Home::new();
    let output = empty.read(Agent::CommandCode, ts(SINCE));
    assert!(!status(&output, Agent::CommandCode).found);
    assert!(output.events.is_empty());
}

#[test]
fn commandcode_the_recorded_sessions_are_read() {
    let home = Home::new();
    home.copy_fixture("agents/commandcode/1.64.0/home", "", ts("2026-12-06T10:26:09Z"));
    let output = home.read(Agent::CommandCode, ts("2026-12-06T00:00:00Z"));
    // Print mode offers no `todo_write`: the third session has only its failed command.
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(output.events.len(), 3);
    for event in &output.events {
        assert_eq!(event.prompts.len(), 1, "{}", event.session_id);
        assert_eq!(event.models, ["standin/standin-model"]);
        assert_eq!(event.cwd.as_deref(), Some(Path::new("/tmp/standup-agents/repo")));
    }
    let failed: Vec<_> = output
        .events
        .iter()
        .flat_map(failed_runs)
        .map(|(command, runs)| {
            (command.to_owned(), runs.iter().map(|(exit, _)| *exit).collect::<Vec<_>>())
        })
        .collect();
    assert_eq!(failed, [("sh check.sh".to_owned(), vec![3])]);
}

/// The sessions `fixtures/commandcode-interactive/record.sh` recorded, of every version,
/// each checked against its `expected.json`.
#[test]
fn commandcode_the_interactive_recordings_read_as_expected() {
    let root = fixtures().join("commandcode-interactive");
    let mut versions: Vec<PathBuf> = fs_err::read_dir(&root)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("expected.json").is_file())
        .collect();
    versions.sort();
    assert!(!versions.is_empty(), "no recording in {}", root.display());
    for fixture in versions {
        read_interactive_recording(&fixture);
    }
}

/// Checks one recording of `record.sh` against its `expected.json`.
fn read_interactive_recording(fixture: &Path) {
    let expected: Value =
        serde_json::from_str(&fs_err::read_to_string(fixture.join("expected.json")).unwrap())
            .unwrap();
    let home = Home::new();
    let until = expected["until"].as_str().unwrap();
    crate::support::copy_tree(
        &fixture.join("home"),
        home.path(),
        std::time::SystemTime::from(ts(until)),
    );
    let output =
        home.read(Agent::CommandCode, expected["since"].as_str().unwrap().parse().unwrap());
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let sessions = expected["sessions"].as_array().unwrap();
    assert_eq!(output.events.len(), sessions.len());
    for want in sessions {
        let event = session(&output, Agent::CommandCode, want["id"].as_str().unwrap());
        assert_eq!(event.title, want["title"].as_str().unwrap());
        assert_eq!(event.cwd.as_deref(), Some(Path::new(want["cwd"].as_str().unwrap())));
        assert_eq!(event.models, [want["model"].as_str().unwrap()]);
        let prompts: Vec<&str> =
            want["prompts"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
        assert_eq!(event.prompts, times(&prompts), "{}", event.session_id);
        let todos: Vec<(String, String)> = event
            .todos
            .iter()
            .map(|todo| {
                let status = serde_json::to_value(todo.status).unwrap();
                (todo.text.clone(), status.as_str().unwrap().to_owned())
            })
            .collect();
        let want_todos: Vec<(String, String)> = want["todos"]
            .as_array()
            .unwrap()
            .iter()
            .map(|todo| {
                (
                    todo["text"].as_str().unwrap().to_owned(),
                    todo["status"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        assert_eq!(todos, want_todos, "{}", event.session_id);
        let failed: Vec<(String, i64)> = want["commands"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|command| command["exit_code"].as_i64() != Some(0))
            .map(|command| {
                (
                    command["command"].as_str().unwrap().to_owned(),
                    command["exit_code"].as_i64().unwrap(),
                )
            })
            .collect();
        let read: Vec<(String, i64)> = failed_runs(event)
            .into_iter()
            .flat_map(|(command, runs)| {
                runs.into_iter().map(move |(exit, _)| (command.to_owned(), exit))
            })
            .collect();
        assert_eq!(read, failed, "{}", event.session_id);
    }
}

#[test]
fn commandcode_a_meta_json_that_cannot_be_read_is_named_and_the_session_still_read() {
    let home = Home::new();
    home.write(&format!("{PROJECT}/{ID}.jsonl"), transcript());
    // A folder where the file should be: reading it fails.
    let meta = home.path().join(format!("{PROJECT}/{ID}.meta.json"));
    fs_err::create_dir_all(&meta).unwrap();
    let output = home.read(Agent::CommandCode, ts(SINCE));
    let event = session(&output, Agent::CommandCode, ID);
    assert_eq!(event.title, "Login bug");
    assert_eq!(event.prompts.len(), 2);
    assert_one_warning_naming(&output, WarningCode::SourceUnreadable, &meta);
    // A malformed one only loses its title.
    let home = Home::new();
    home.write(&format!("{PROJECT}/{ID}.jsonl"), transcript());
    home.write(&format!("{PROJECT}/{ID}.meta.json"), "{\"title\": ");
    let output = home.read(Agent::CommandCode, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(session(&output, Agent::CommandCode, ID).title, "Login bug");
}

/// A fork (`--continue --fork-session`, or a branch made in the interactive CLI) copies
/// the other session's entries, with their times, into a file of its own, and its
/// `meta.json` says when (`forkedAt`): the copies are the other session's, read there.
#[test]
fn commandcode_a_fork_s_copies_of_the_other_session_are_not_counted_twice() {
    let home = Home::new();
    home.write(&format!("{PROJECT}/{ID}.jsonl"), transcript());
    let fork = "0f0f0f0f-1111-4222-8333-444455556666";
    // `--fork-session` keeps the other session's header, with the fork's own id beside.
    let mut copied_header = header(ID);
    copied_header["sessionId"] = json!(fork);
    let mut entries = vec![copied_header];
    entries.extend(
        transcript().lines().skip(1).map(|line| serde_json::from_str::<Value>(line).unwrap()),
    );
    // Saved at the very time of the fork: the fork's own.
    entries.push(json!({"type": "model_change", "id": "mc", "parentId": "m",
        "timestamp": "2026-03-02T10:30:00.000Z", "model": "openai/gpt-5.3"}));
    entries.push(typed(
        "2026-03-02T11:00:01.000Z",
        "2026-03-02T11:00:00.000Z",
        "user",
        "now the docs",
    ));
    entries.push(reply("2026-03-02T11:00:02.000Z", &json!([shell("s9", "make docs")])));
    entries.push(results("2026-03-02T11:00:03.000Z", &[("s9", "Exit code: 2\n")]));
    home.write(&format!("{PROJECT}/{fork}.jsonl"), lines(&entries));
    home.write(
        &format!("{PROJECT}/{fork}.meta.json"),
        json!({"userRenamed": false, "parentSessionId": ID, "forkedAt": "2026-03-02T10:30:00.000Z"})
            .to_string(),
    );
    let output = home.read(Agent::CommandCode, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(output.events.len(), 2);
    let original = session(&output, Agent::CommandCode, ID);
    assert_eq!(original.prompts.len(), 2);
    assert_eq!(failed_runs(original), [("cargo test", vec![(101, ts("2026-03-02T10:02:00Z"))])]);
    let forked = session(&output, Agent::CommandCode, fork);
    assert_eq!(forked.prompts, times(&["2026-03-02T11:00:00Z"]));
    assert_eq!(failed_runs(forked), [("make docs", vec![(2, ts("2026-03-02T11:00:03Z"))])]);
    assert!(forked.todos.is_empty());
    assert_eq!(forked.models, ["openai/gpt-5.3", "anthropic/claude-sonnet-4-6"]);
    assert_eq!(forked.activity.first(), Some(&ts("2026-03-02T10:30:00Z")));
    // Named as the conversation it continues: its first prompt, copied, or the rename.
    assert_eq!(forked.title, "Login bug");
    assert_eq!(forked.cwd.as_deref(), Some(Path::new("/home/dev/app")));
}

#[test]
fn commandcode_a_fifo_transcript_or_meta_json_is_named_and_never_blocks() {
    let home = Home::new();
    home.write(&format!("{PROJECT}/{ID}.jsonl"), transcript());
    let fifo = home.path().join(PROJECT).join("fifo.jsonl");
    let _fifo = crate::fifo::Fifo::make(&fifo);
    let meta = home.path().join(PROJECT).join(format!("{ID}.meta.json"));
    let _meta = crate::fifo::Fifo::make(&meta);
    let output = home.read(Agent::CommandCode, ts(SINCE));
    let event = session(&output, Agent::CommandCode, ID);
    assert_eq!(event.prompts.len(), 2);
    // The rename names it: the meta.json that is a FIFO tells nothing.
    assert_eq!(event.title, "Login bug");
    let texts: Vec<String> = output.warnings.iter().map(crate::support::en).collect();
    for path in [&fifo, &meta] {
        assert!(texts.iter().any(|text| text.contains(&path.display().to_string())), "{texts:?}");
    }
}
