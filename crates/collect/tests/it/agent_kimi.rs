//! Tests of the Kimi Code reader (see crates/collect/src/sessions/kimi.rs).
//!
//! The files are written as Kimi Code 2.1.0 writes them (`fixtures/agents/kimi/2.1.0/`):
//! `sessions/<bucket>/<session id>/state.json` and `agents/<agent>/wire.jsonl`, one
//! event per line with its `type` and `time` in epoch milliseconds.

use std::path::Path;

use report_model::{Agent, TodoStatus, WarningCode};
use serde_json::{Value, json};

use crate::support::{
    Home, assert_one_warning_naming, assert_recorded_sessions, failed_runs, read_with_home,
    session, status, times, todo_items, ts,
};

const SINCE: &str = "2026-03-02T00:00:00Z";
const BUCKET: &str = ".kimi-code/sessions/wd_app_0123456789ab";
const ID: &str = "session_7d1f0c1e-1111-4222-8333-944455556666";

/// Epoch milliseconds of an RFC 3339 time.
fn ms(time: &str) -> i64 {
    ts(time).as_millisecond()
}

fn record(kind: &str, time: &str, fields: &Value) -> String {
    let mut line = json!({"type": kind, "agentId": "main", "time": ms(time)});
    if let (Some(line), Some(fields)) = (line.as_object_mut(), fields.as_object()) {
        line.extend(fields.clone());
    }
    line.to_string()
}

fn prompt(time: &str, text: &str, origin: &str, id: &str) -> String {
    record(
        "turn.prompt",
        time,
        &json!({"input": [{"type": "text", "text": text}], "origin": {"kind": origin}, "promptId": id}),
    )
}

fn loop_event(time: &str, inner: &Value) -> String {
    record("context.append_loop_event", time, &json!({"event": inner}))
}

fn bash(time: &str, call: &str, command: &str) -> String {
    loop_event(
        time,
        &json!({"type": "tool.call", "toolCallId": call, "name": "Bash", "args": {"command": command}}),
    )
}

fn result(time: &str, call: &str, output: &str, error: bool) -> String {
    let mut result = json!({"output": output, "durationMs": 8});
    if error {
        result["isError"] = json!(true);
    }
    loop_event(time, &json!({"type": "tool.result", "toolCallId": call, "result": result}))
}

fn todos(time: &str, items: &[(&str, &str)]) -> String {
    let value: Vec<Value> =
        items.iter().map(|(title, status)| json!({"title": title, "status": status})).collect();
    record("tools.update_store", time, &json!({"key": "todo", "value": value}))
}

/// The main agent's wire: yesterday's prompt, the day's prompt, the reminders Kimi Code
/// injects and a cron job's turn (not the person's), a steer typed while it worked, a
/// steer repeating a queued prompt, two models, two to-do lists, a command that failed
/// and one that passed.
fn main_wire() -> String {
    [
        r#"{"type": "metadata", "protocol_version": "1.5", "created_at": 1772405999000}"#.to_owned(),
        prompt("2026-03-01T23:59:00Z", "yesterday's question", "user", "msg_0"),
        prompt("2026-03-02T09:00:00.250Z", "why does check.sh fail?", "user", "msg_1"),
        record(
            "context.append_message",
            "2026-03-02T09:00:00.300Z",
            &json!({"message": {"role": "user", "content": [{"type": "text", "text": "<system-reminder>Today's date</system-reminder>"}], "origin": {"kind": "injection"}}}),
        ),
        record(
            "llm.request",
            "2026-03-02T09:00:01Z",
            &json!({"provider": "kimi", "model": "kimi-k2.6", "modelAlias": "kimi-code/kimi-for-coding"}),
        ),
        todos("2026-03-02T09:00:02Z", &[("Read check.sh", "in_progress"), ("Fix it", "pending")]),
        bash("2026-03-02T09:00:03Z", "call_1", "sh check.sh"),
        result(
            "2026-03-02T09:00:04Z",
            "call_1",
            "check: 1 test failed\nCommand failed with exit code: 3.",
            true,
        ),
        bash("2026-03-02T09:00:05Z", "call_2", "cargo fmt --check"),
        result("2026-03-02T09:00:06Z", "call_2", "", false),
        record(
            "turn.steer",
            "2026-03-02T09:00:07Z",
            &json!({"input": [{"type": "text", "text": "also check hello.sh"}], "origin": {"kind": "user"}, "messageId": "msg_2", "promptIds": ["msg_2"]}),
        ),
        record(
            "turn.steer",
            "2026-03-02T09:00:08Z",
            &json!({"input": [{"type": "text", "text": "why does check.sh fail?"}], "origin": {"kind": "user"}, "messageId": "msg_1", "promptIds": ["msg_1"]}),
        ),
        prompt("2026-03-02T09:05:00Z", "daily check-in", "cron", "msg_3"),
        prompt("2026-03-02T09:10:00Z", "then make it pass", "user", "msg_4"),
        record("llm.request", "2026-03-02T09:10:01Z", &json!({"model": "kimi-k2.5"})),
        todos("2026-03-02T09:10:02Z", &[("Read check.sh", "done"), ("Fix it", "in_progress")]),
    ]
    .join("\n")
        + "\n"
}

fn state(fields: &Value) -> String {
    let mut state = json!({"id": ID, "version": 2, "createdAt": ms("2026-03-01T23:58:00Z"), "archived": false, "agents": {"main": {"type": "main"}}});
    if let (Some(state), Some(fields)) = (state.as_object_mut(), fields.as_object()) {
        state.extend(fields.clone());
    }
    state.to_string()
}

fn write_session(home: &Home, state_fields: &Value) {
    home.write(&format!("{BUCKET}/{ID}/agents/main/wire.jsonl"), main_wire());
    home.write(&format!("{BUCKET}/{ID}/state.json"), state(state_fields));
}

#[test]
fn kimi_a_session_s_prompts_title_models_list_and_failed_command_are_read() {
    let home = Home::new();
    write_session(
        &home,
        &json!({"cwd": "/work/app", "title": "Why check fails", "titleKind": "generated"}),
    );
    let output = home.read(Agent::Kimi, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::Kimi, ID);
    // Not yesterday's, not the cron job's, not the steer that repeats a prompt.
    assert_eq!(
        event.prompts,
        times(&["2026-03-02T09:00:00.25Z", "2026-03-02T09:00:07Z", "2026-03-02T09:10:00Z"])
    );
    assert_eq!(event.title, "Why check fails");
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/work/app")));
    assert_eq!(event.models, ["kimi-k2.6", "kimi-k2.5"]);
    assert_eq!(
        todo_items(event),
        [("Read check.sh", TodoStatus::Completed), ("Fix it", TodoStatus::InProgress)]
    );
    assert_eq!(event.todos_time, Some(ts("2026-03-02T09:10:02Z")));
    assert_eq!(failed_runs(event), [("sh check.sh", vec![(3, ts("2026-03-02T09:00:04Z"))])]);
    assert_eq!(event.activity.first(), Some(&ts("2026-03-02T09:00:00.25Z")));
    let status = status(&output, Agent::Kimi);
    assert!(status.found);
    assert_eq!((status.files, status.entries), (1, 1));
    assert_eq!(status.locations, [home.path().join(".kimi-code/sessions")]);
}

#[test]
fn kimi_without_a_title_the_first_prompt_names_it_and_an_old_state_s_work_dir_places_it() {
    let home = Home::new();
    write_session(&home, &json!({"workDir": "/work/old"}));
    let output = home.read(Agent::Kimi, ts(SINCE));
    let event = session(&output, Agent::Kimi, ID);
    assert_eq!(event.title, "why does check.sh fail?");
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/work/old")));
}

#[test]
fn kimi_a_sub_agent_s_wire_is_activity_of_its_session_not_prompts() {
    let home = Home::new();
    write_session(&home, &json!({"cwd": "/work/app"}));
    home.write(
        &format!("{BUCKET}/{ID}/agents/agent_explore_1/wire.jsonl"),
        [
            prompt("2026-03-02T11:00:00Z", "look for the failing test", "user", "msg_s1"),
            record("llm.request", "2026-03-02T11:00:01Z", &json!({"model": "kimi-k2-turbo"})),
            bash("2026-03-02T11:00:02Z", "call_s1", "false"),
            result("2026-03-02T11:00:03Z", "call_s1", "Command failed with exit code: 1.", true),
        ]
        .join("\n")
            + "\n",
    );
    let output = home.read(Agent::Kimi, ts(SINCE));
    let event = session(&output, Agent::Kimi, ID);
    assert_eq!(event.prompts.len(), 3);
    assert_eq!(event.activity.last(), Some(&ts("2026-03-02T11:00:03Z")));
    assert_eq!(event.models, ["kimi-k2.6", "kimi-k2.5"]);
    assert_eq!(failed_runs(event).len(), 1);
    // A session whose main wire is old but whose sub-agent worked in the window.
    let home = Home::new();
    home.write(
        &format!("{BUCKET}/{ID}/agents/main/wire.jsonl"),
        prompt("2026-03-01T10:00:00Z", "old", "user", "msg_0") + "\n",
    );
    home.write(
        &format!("{BUCKET}/{ID}/agents/agent_1/wire.jsonl"),
        record("llm.request", "2026-03-02T08:00:00Z", &json!({"model": "kimi-k2.6"})) + "\n",
    );
    let output = home.read(Agent::Kimi, ts(SINCE));
    let event = session(&output, Agent::Kimi, ID);
    assert!(event.prompts.is_empty());
    assert_eq!(event.activity, times(&["2026-03-02T08:00:00Z"]));
}

#[test]
fn kimi_an_empty_home_is_found_and_folders_without_a_main_wire_are_not_sessions() {
    let home = Home::new();
    fs_err::create_dir_all(home.path().join(".kimi-code/sessions/.index-dirty"))
        .expect("sessions folder");
    home.write(".kimi-code/sessions/.index-dirty/session_x.1796511972137", "");
    home.write(&format!("{BUCKET}/session_y/state.json"), state(&json!({})));
    let output = home.read(Agent::Kimi, ts(SINCE));
    let found = status(&output, Agent::Kimi);
    assert!(found.found);
    assert_eq!(found.files, 0);
    assert!(output.events.is_empty());
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    // Nothing at all: not found; an empty sessions folder: found.
    let empty = Home::new();
    let output = empty.read(Agent::Kimi, ts(SINCE));
    assert!(!status(&output, Agent::Kimi).found);
    fs_err::create_dir_all(empty.path().join(".kimi-code/sessions")).expect("sessions folder");
    let output = empty.read(Agent::Kimi, ts(SINCE));
    assert!(status(&output, Agent::Kimi).found);
}

#[test]
fn kimi_s_home_moves_with_its_variable_and_the_config() {
    let home = Home::new();
    home.write(
        &format!("elsewhere/sessions/wd_app_0123456789ab/{ID}/agents/main/wire.jsonl"),
        main_wire(),
    );
    let moved = Home::new().var("KIMI_CODE_HOME", home.path().join("elsewhere").to_string_lossy());
    let output = moved.read(Agent::Kimi, ts(SINCE));
    assert_eq!(session(&output, Agent::Kimi, ID).prompts.len(), 3);
    let output = read_with_home(&home, Agent::Kimi, home.path().join("elsewhere"), ts(SINCE));
    assert_eq!(status(&output, Agent::Kimi).locations, [home.path().join("elsewhere/sessions")]);
    assert_eq!(session(&output, Agent::Kimi, ID).prompts.len(), 3);
}

#[test]
fn kimi_a_malformed_line_is_counted_and_the_rest_read() {
    let home = Home::new();
    let path = home.write(
        &format!("{BUCKET}/{ID}/agents/main/wire.jsonl"),
        format!("{}{{\"type\": \"turn.prompt\", \"time\": \n", main_wire()),
    );
    let output = home.read(Agent::Kimi, ts(SINCE));
    assert_eq!(session(&output, Agent::Kimi, ID).prompts.len(), 3);
    assert_one_warning_naming(&output, WarningCode::MalformedLines, &path);
    assert_eq!(status(&output, Agent::Kimi).limits, ["1 malformed line skipped in 1 file"]);
}

#[test]
fn kimi_the_recorded_list_and_failed_command_are_read() {
    let home = Home::new();
    home.copy_fixture("agents/kimi/2.1.0/home", "", ts("2026-12-05T23:06:49Z"));
    assert_recorded_sessions(&home.read(Agent::Kimi, ts("2026-12-05T00:00:00Z")));
}

#[test]
fn kimi_a_state_it_cannot_read_is_named_and_the_workspace_list_places_the_session() {
    let home = Home::new();
    home.write(&format!("{BUCKET}/{ID}/agents/main/wire.jsonl"), main_wire());
    let state = home.path().join(format!("{BUCKET}/{ID}/state.json"));
    #[expect(clippy::disallowed_methods, reason = "the test makes a FIFO with coreutils")]
    let made = std::process::Command::new("mkfifo").arg(&state).status().expect("mkfifo runs");
    assert!(made.success());
    home.write(
        ".kimi-code/workspaces.json",
        json!({"version": 1, "workspaces": {
            "wd_app_0123456789ab": {"root": "/work/app", "name": "app"},
            "wd_other_ba9876543210": {"root": "/work/other", "name": "other"},
        }, "deleted_workspace_ids": []})
        .to_string(),
    );
    let output = home.read(Agent::Kimi, ts(SINCE));
    let event = session(&output, Agent::Kimi, ID);
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/work/app")));
    assert_eq!(event.title, "why does check.sh fail?");
    assert_one_warning_naming(&output, WarningCode::SourceUnreadable, &state);
}

#[test]
fn kimi_a_malformed_state_is_counted_and_the_session_still_read() {
    let home = Home::new();
    home.write(&format!("{BUCKET}/{ID}/agents/main/wire.jsonl"), main_wire());
    let path = home.write(&format!("{BUCKET}/{ID}/state.json"), "{\"title\": ");
    let output = home.read(Agent::Kimi, ts(SINCE));
    let event = session(&output, Agent::Kimi, ID);
    assert_eq!(event.prompts.len(), 3);
    assert_eq!(event.cwd, None);
    assert_one_warning_naming(&output, WarningCode::MalformedLines, &path);
}

#[test]
fn kimi_the_edges_of_prompts_lists_and_commands() {
    let home = Home::new();
    let wire = [
        // At the window's first instant: counted.
        prompt(SINCE, "right at midnight", "user", "msg_a"),
        // A completion naming a prompt no `turn.prompt` wrote: the steer that delivers it
        // is still the person's.
        record("prompt.completed", "2026-03-02T09:00:00Z", &json!({"promptId": "msg_q"})),
        record(
            "turn.steer",
            "2026-03-02T09:00:01Z",
            &json!({"input": [{"type": "text", "text": "queued words"}], "origin": {"kind": "user"}, "promptIds": ["msg_q"]}),
        ),
        todos("2026-03-02T09:00:02Z", &[("The real list", "pending")]),
        // Another key of the tool store, later: not the to-do list.
        record(
            "tools.update_store",
            "2026-03-02T09:00:03Z",
            &json!({"key": "goal", "value": [{"title": "Ship it", "status": "pending"}]}),
        ),
        // Another tool with a `command` argument: not a shell run.
        loop_event(
            "2026-03-02T09:00:04Z",
            &json!({"type": "tool.call", "toolCallId": "call_c", "name": "CronCreate", "args": {"command": "make nightly", "cron": "0 3 * * *"}}),
        ),
        result("2026-03-02T09:00:05Z", "call_c", "Command failed with exit code: 2.", true),
    ]
    .join("\n")
        + "\n";
    home.write(&format!("{BUCKET}/{ID}/agents/main/wire.jsonl"), wire);
    let output = home.read(Agent::Kimi, ts(SINCE));
    let event = session(&output, Agent::Kimi, ID);
    assert_eq!(event.prompts, times(&[SINCE, "2026-03-02T09:00:01Z"]));
    assert_eq!(todo_items(event), [("The real list", TodoStatus::Pending)]);
    assert!(event.failed_commands.is_empty(), "{:?}", event.failed_commands);
}

/// The forks Kimi Code 2.1.0 made (`fixtures/kimi-fork/2.1.0/`, by its `record.sh`): a
/// session, a fork of it (`kimi fork -y`) with two prompts of its own, and a fork of the
/// fork with one. Each fork's wire is its source's, then a `forked` record, then its own:
/// every prompt is counted once, and a fork of an untitled session (`Fork: session_…`)
/// takes its first own prompt as title.
#[test]
fn kimi_a_fork_s_copies_are_counted_once_and_a_fork_of_a_fork_cuts_at_its_last_marker() {
    let home = Home::new();
    home.copy_fixture("kimi-fork/2.1.0/home", "", ts("2026-12-06T15:10:00Z"));
    let output = home.read(Agent::Kimi, ts("2026-12-06T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let original = session(&output, Agent::Kimi, "session_9ec76db2-8b01-4316-ad1a-ed5245d8b5da");
    assert_eq!(original.prompts, times(&["2026-12-06T15:08:53.062Z"]));
    assert_eq!(original.title, "first prompt");
    let fork = session(&output, Agent::Kimi, "session_c2ad74b8-841f-48ab-b88a-05f49b6adaba");
    assert_eq!(fork.prompts, times(&["2026-12-06T15:09:06.823Z", "2026-12-06T15:09:13.244Z"]));
    assert!(
        fork.activity.iter().all(|time| *time > ts("2026-12-06T15:08:59Z")),
        "{:?}",
        fork.activity
    );
    assert_eq!(fork.title, "second prompt");
    let again = session(&output, Agent::Kimi, "session_a42d35e3-0d93-4cb2-b961-b8a5d5613362");
    assert_eq!(again.prompts, times(&["2026-12-06T15:09:19.926Z"]));
    assert_eq!(again.title, "fourth prompt");
}
