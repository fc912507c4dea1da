//! Tests of the OpenHands CLI reader (see crates/collect/src/sessions/openhands.rs).
//!
//! The conversations are written as `openhands` 1.2.1 writes them
//! (`fixtures/agents/openhands/1.2.1/`): `conversations/<hex id>/base_state.json` and one
//! file per event in `events/`, times without a zone.

use std::path::Path;

use report_model::{Agent, TodoStatus, WarningCode};
use serde_json::{Value, json};

use crate::support::{
    Home, assert_one_warning_naming, assert_recorded_sessions_of, assert_unreadable_times,
    failed_runs, read_with_home, session, set_mtime, status, times, todo_items, ts,
};

const SINCE: &str = "2026-03-02T00:00:00Z";
const ROOT: &str = ".openhands/conversations";
const ID: &str = "37bb7096-9c4a-466b-a7af-dcc185af7ed5";
const FOLDER: &str = "37bb70969c4a466ba7afdcc185af7ed5";

fn state() -> String {
    json!({
        "id": ID,
        "agent": {"kind": "Agent", "llm": {"model": "openai/gpt-5.1", "api_key": "**********"}},
        "workspace": {"kind": "LocalWorkspace", "working_dir": "/work/app"},
        "execution_status": "finished",
        "stats": {"usage_to_metrics": {}},
    })
    .to_string()
}

fn user(time: &str, text: &str) -> Value {
    json!({"kind": "MessageEvent", "timestamp": time, "source": "user",
        "llm_message": {"role": "user", "content": [{"type": "text", "text": text}]},
        "activated_skills": [], "extended_content": []})
}

fn agent_says(time: &str, text: &str) -> Value {
    json!({"kind": "MessageEvent", "timestamp": time, "source": "agent",
        "llm_message": {"role": "assistant", "content": [{"type": "text", "text": text}]}})
}

fn terminal(time: &str, command: &str, exit: i64) -> Value {
    json!({"kind": "ObservationEvent", "timestamp": time, "source": "environment",
        "tool_name": "terminal",
        "observation": {"kind": "ExecuteBashObservation", "command": command,
            "content": [{"type": "text", "text": "out"}], "is_error": false, "timeout": exit < 0,
            "metadata": {"exit_code": exit, "working_dir": "/work/app"}}})
}

fn tasks(time: &str, items: &[(&str, &str)]) -> Value {
    let list: Vec<Value> = items
        .iter()
        .map(|(title, status)| json!({"title": title, "notes": "", "status": status}))
        .collect();
    json!({"kind": "ObservationEvent", "timestamp": time, "source": "environment",
        "tool_name": "task_tracker",
        "observation": {"kind": "TaskTrackerObservation", "command": "plan", "task_list": list}})
}

/// Writes a conversation: its state and its events in order, in `folder`.
fn conversation(home: &Home, folder: &str, events: &[Value]) {
    home.write(&format!("{ROOT}/{folder}/base_state.json"), state());
    for (index, event) in events.iter().enumerate() {
        home.write(
            &format!("{ROOT}/{folder}/events/event-{index:05}-{index:08x}-0000.json"),
            event.to_string(),
        );
    }
}

/// A day in UTC: the system prompt and a prompt of the day before, then the day's
/// prompt, a to-do list written twice, a command that failed, one that passed, one that
/// timed out (no status), a reply and a second prompt.
fn day() -> Vec<Value> {
    vec![
        json!({"kind": "SystemPromptEvent", "timestamp": "2026-03-01T22:59:59.5", "source": "agent",
            "system_prompt": {"type": "text", "text": "You are OpenHands agent"}, "tools": []}),
        user("2026-03-01T23:00:00.000001", "yesterday's question"),
        user("2026-03-02T09:00:00.250000", "why does check.sh fail?"),
        tasks("2026-03-02T09:00:01", &[("Read check.sh", "in_progress")]),
        tasks("2026-03-02T09:00:02", &[("Read check.sh", "done"), ("Fix it", "todo")]),
        terminal("2026-03-02T09:00:06", "sh check.sh", 3),
        terminal("2026-03-02T09:00:07", "cargo fmt --check", 0),
        terminal("2026-03-02T09:00:08", "sleep 999", -1),
        agent_says("2026-03-02T09:00:09", "It exits 3 on purpose."),
        user("2026-03-02T09:10:00", "then make it pass"),
    ]
}

fn utc_home() -> Home {
    Home::new().var("TZ", "UTC")
}

#[test]
fn openhands_a_conversation_s_prompts_folder_model_list_and_failed_command_are_read() {
    let home = utc_home();
    conversation(&home, FOLDER, &day());
    // The task tracker's own copy of the list and a half-written event are not events.
    home.write(&format!("{ROOT}/{FOLDER}/TASKS.json"), "[]");
    home.write(&format!("{ROOT}/{FOLDER}/events/event-00099-x.json.tmp"), "{");
    let output = home.read(Agent::OpenHands, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::OpenHands, ID);
    // Not yesterday's prompt, and not the agent's reply.
    assert_eq!(event.prompts, times(&["2026-03-02T09:00:00.25Z", "2026-03-02T09:10:00Z"]));
    assert_eq!(event.title, "why does check.sh fail?");
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/work/app")));
    assert_eq!(event.models, ["openai/gpt-5.1"]);
    assert_eq!(
        todo_items(event),
        [("Read check.sh", TodoStatus::Completed), ("Fix it", TodoStatus::Pending)]
    );
    // The command that passed and the one with no status are not failures.
    assert_eq!(failed_runs(event), [("sh check.sh", vec![(3, ts("2026-03-02T09:00:06Z"))])]);
    assert_eq!(event.activity.first(), Some(&ts("2026-03-02T09:00:00.25Z")));
    assert_eq!(event.activity.last(), Some(&ts("2026-03-02T09:10:00Z")));
    let status = status(&output, Agent::OpenHands);
    assert!(status.found);
    assert_eq!((status.files, status.entries), (1, 1));
    assert_eq!(status.locations, [home.path().join(ROOT)]);
}

#[test]
fn openhands_events_are_taken_in_the_order_of_their_index() {
    let home = utc_home();
    // Two lists at the same second: the later event's is the one kept, whatever the
    // names' order as text (index 100000 sorts before 99999 as text).
    home.write(&format!("{ROOT}/{FOLDER}/base_state.json"), state());
    let at = "2026-03-02T09:00:00";
    home.write(
        &format!("{ROOT}/{FOLDER}/events/event-99999-a.json"),
        tasks(at, &[("First", "todo")]).to_string(),
    );
    home.write(
        &format!("{ROOT}/{FOLDER}/events/event-100000-b.json"),
        tasks(at, &[("Second", "todo")]).to_string(),
    );
    let output = home.read(Agent::OpenHands, ts(SINCE));
    let event = session(&output, Agent::OpenHands, ID);
    assert_eq!(todo_items(event), [("Second", TodoStatus::Pending)]);
}

#[test]
fn openhands_times_without_a_zone_are_the_machine_s_local_time() {
    let home = Home::new().var("TZ", "Asia/Tokyo");
    conversation(&home, FOLDER, &day());
    let output = home.read(Agent::OpenHands, ts(SINCE));
    let event = session(&output, Agent::OpenHands, ID);
    // 09:00 in Tokyo is 00:00 UTC, and 08:00 the day before in Tokyo is before it.
    assert_eq!(event.prompts, times(&["2026-03-02T00:00:00.25Z", "2026-03-02T00:10:00Z"]));
}

#[test]
fn openhands_a_conversation_is_read_when_its_state_or_its_events_changed_in_the_window() {
    let home = utc_home();
    conversation(&home, FOLDER, &day());
    let folder = home.path().join(ROOT).join(FOLDER);
    let old = ts("2026-03-01T12:00:00Z");
    set_mtime(&folder.join("base_state.json"), old);
    // A new event in the window changed the events' folder: read.
    let output = home.read(Agent::OpenHands, ts(SINCE));
    assert_eq!(session(&output, Agent::OpenHands, ID).prompts.len(), 2);
    // Neither changed since: counted, not read.
    set_mtime(&folder.join("events"), old);
    let output = home.read(Agent::OpenHands, ts(SINCE));
    assert!(output.events.is_empty());
    assert_eq!(status(&output, Agent::OpenHands).files, 1);
}

#[test]
fn openhands_a_malformed_event_is_named_and_the_others_read() {
    let home = utc_home();
    conversation(&home, FOLDER, &day());
    let broken =
        home.write(&format!("{ROOT}/{FOLDER}/events/event-00010-broken.json"), "{\"kind\": ");
    let output = home.read(Agent::OpenHands, ts(SINCE));
    assert_eq!(session(&output, Agent::OpenHands, ID).prompts.len(), 2);
    assert_one_warning_naming(&output, WarningCode::MalformedLines, &broken);
}

#[test]
fn openhands_a_fifo_in_place_of_an_event_is_named_not_waited_on() {
    let home = utc_home();
    conversation(&home, FOLDER, &day());
    let fifo = home.path().join(ROOT).join(FOLDER).join("events/event-00010-fifo.json");
    let _fifo = crate::fifo::Fifo::make(&fifo);
    let output = home.read(Agent::OpenHands, ts(SINCE));
    assert_eq!(session(&output, Agent::OpenHands, ID).prompts.len(), 2);
    assert_one_warning_naming(&output, WarningCode::SourceUnreadable, &fifo);
}

#[test]
fn openhands_a_state_it_cannot_parse_is_named_and_the_conversation_still_reported() {
    let home = utc_home();
    conversation(&home, FOLDER, &day());
    let state = home.write(&format!("{ROOT}/{FOLDER}/base_state.json"), "{\"id\": ");
    let output = home.read(Agent::OpenHands, ts(SINCE));
    assert_one_warning_naming(&output, WarningCode::MalformedLines, &state);
    // Named by its folder, with no folder or model of its own.
    let event = session(&output, Agent::OpenHands, FOLDER);
    assert_eq!(event.prompts.len(), 2);
    assert_eq!(event.cwd, None);
    assert!(event.models.is_empty());
}

#[test]
fn openhands_an_empty_folder_is_found_and_an_event_at_the_window_s_start_counts() {
    let home = utc_home();
    fs_err::create_dir_all(home.path().join(ROOT)).expect("conversations folder");
    let output = home.read(Agent::OpenHands, ts(SINCE));
    assert!(status(&output, Agent::OpenHands).found);
    assert!(output.events.is_empty());
    conversation(&home, FOLDER, &[user("2026-03-02T00:00:00", "right at midnight")]);
    let output = home.read(Agent::OpenHands, ts(SINCE));
    assert_eq!(session(&output, Agent::OpenHands, ID).prompts, times(&[SINCE]));
}

#[test]
fn openhands_a_folder_without_a_state_is_not_a_conversation() {
    let home = utc_home();
    home.write(
        &format!("{ROOT}/{FOLDER}/events/event-00000-a.json"),
        user(SINCE, "hi").to_string(),
    );
    home.write(&format!("{ROOT}/stray.json"), "{}");
    let output = home.read(Agent::OpenHands, ts(SINCE));
    assert!(output.events.is_empty());
    let status = status(&output, Agent::OpenHands);
    assert!(status.found);
    assert_eq!(status.files, 0);
}

#[test]
fn openhands_s_folders_move_with_its_variables() {
    let home = utc_home();
    conversation(&home, FOLDER, &day());
    let persistence = home.path().join(".openhands");
    // 1.16's `OPENHANDS_PERSISTENCE_DIR` (conversations in `conversations/`), and its
    // `OPENHANDS_CONVERSATIONS_DIR`, which wins.
    let moved = utc_home().var("OPENHANDS_PERSISTENCE_DIR", persistence.to_string_lossy());
    let output = moved.read(Agent::OpenHands, ts(SINCE));
    assert_eq!(status(&output, Agent::OpenHands).locations, [persistence.join("conversations")]);
    assert_eq!(session(&output, Agent::OpenHands, ID).prompts.len(), 2);
    let moved = utc_home()
        .var("OPENHANDS_PERSISTENCE_DIR", "/nowhere")
        .var("OPENHANDS_CONVERSATIONS_DIR", home.path().join(ROOT).to_string_lossy());
    let output = moved.read(Agent::OpenHands, ts(SINCE));
    assert_eq!(session(&output, Agent::OpenHands, ID).prompts.len(), 2);
}

#[test]
fn openhands_s_folder_moves_with_the_config() {
    let home = utc_home();
    home.write(&format!("data/conversations/{FOLDER}/base_state.json"), state());
    home.write(
        &format!("data/conversations/{FOLDER}/events/event-00000-a.json"),
        user("2026-03-02T10:00:00", "moved").to_string(),
    );
    let output = read_with_home(&home, Agent::OpenHands, home.path().join("data"), ts(SINCE));
    assert_eq!(
        status(&output, Agent::OpenHands).locations,
        [home.path().join("data/conversations")]
    );
    assert_eq!(session(&output, Agent::OpenHands, ID).title, "moved");
}

#[test]
fn openhands_the_recorded_list_and_failed_command_are_read() {
    // 1.16.0 (`--headless`) and 1.2.1 (driven in a terminal), each until its end.
    for (version, until) in [("1.16.0", "2026-12-06T02:49:04Z"), ("1.2.1", "2026-12-06T01:34:25Z")]
    {
        let home = Home::new().var("TZ", "UTC");
        home.copy_fixture(&format!("agents/openhands/{version}/home"), "", ts(until));
        let output = home.read(Agent::OpenHands, ts("2026-12-06T00:00:00Z"));
        assert_recorded_sessions_of(&output, "openai/standin-model");
    }
}

/// Events whose time is no time: one warning for the conversation, naming the event's
/// file when there is one, the events' folder when there are several.
#[test]
fn openhands_events_whose_time_is_no_time_are_warned_once_per_conversation() {
    let home = utc_home();
    let mut events = day();
    events[2]["timestamp"] = json!("later");
    conversation(&home, FOLDER, &events);
    let output = home.read(Agent::OpenHands, ts(SINCE));
    let one = home.path().join(format!("{ROOT}/{FOLDER}/events/event-00002-00000002-0000.json"));
    assert_unreadable_times(&output, &one, "timestamp", 1);
    assert_eq!(session(&output, Agent::OpenHands, ID).prompts, times(&["2026-03-02T09:10:00Z"]));
    events[9]["timestamp"] = json!("");
    events[3]["timestamp"] = json!("soon");
    conversation(&home, FOLDER, &events);
    let output = home.read(Agent::OpenHands, ts(SINCE));
    let folder = home.path().join(format!("{ROOT}/{FOLDER}/events"));
    // An empty time is no fault: that event is only undated.
    assert_unreadable_times(&output, &folder, "timestamp", 2);
    assert!(session(&output, Agent::OpenHands, ID).prompts.is_empty());
}
