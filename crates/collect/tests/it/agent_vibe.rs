//! Tests of the Mistral Vibe reader (see crates/collect/src/sessions/vibe.rs).
//!
//! The stores are written as Mistral Vibe 3.0.3 writes them
//! (`fixtures/agents/vibe/3.0.3/`): `meta.json`, `CURRENT` naming a generation whose
//! manifest lists the snapshot's chunks and the journal segment written since.

use std::path::Path;

use report_model::{Agent, TodoStatus, WarningCode};
use serde_json::{Value, json};

use crate::support::{
    Home, assert_recorded_sessions, failed_runs, read_with_home, session, status, times,
    todo_items, ts, warning_texts,
};

const SINCE: &str = "2026-03-02T00:00:00Z";
const ROOT: &str = ".vibe/logs/session/unified";
const ID: &str = "b0948276-e488-0881-ec5e-dfef863c6a99";
const CHUNK: &str = "cb101e897ab2fc7df4ef5c818566459077732cd452b468e671750dbbe8a996b3";

fn ms(time: &str) -> i64 {
    ts(time).as_millisecond()
}

fn message(id: &str, role: &str, source: &str, time: &str, text: &str) -> Value {
    json!({"id": id, "type": "message", "role": role, "source": source, "createdAt": ms(time),
        "updatedAt": ms(time), "content": [{"type": "text", "text": text}], "sessionId": ID})
}

fn effect(id: &str, time: &str, tool: &str, input: &Value, state: &Value, updated: &str) -> Value {
    json!({"id": id, "type": "effect", "createdAt": ms(time), "updatedAt": ms(updated),
        "detail": {"kind": "tool", "toolName": tool, "input": input}, "state": state})
}

fn bash_state(status: &str, code: Option<i64>) -> Value {
    let mut state = json!({"status": status, "output": {"content": [], "structured_content":
        {"command": "sh check.sh", "stderr": "", "stdout": "", "timed_out": false}}});
    if let Some(code) = code {
        state["output"]["structured_content"]["returncode"] = json!(code);
    }
    state
}

/// A journal record carrying entry operations.
fn record(sequence: u64, ops: &[(&str, Value)]) -> String {
    let delta: Vec<Value> =
        ops.iter().map(|(op, entry)| json!({"op": op, "entry": entry})).collect();
    json!({"payload": {"delta": delta}, "sequence": sequence, "type": "projection_delta"})
        .to_string()
}

fn meta(fields: &Value) -> String {
    let mut meta = json!({"session_id": ID, "parent_session_id": null, "title": null,
        "environment": {"working_directory": "/work/app"}, "config": {"model_name": "devstral-2"}});
    if let (Some(meta), Some(fields)) = (meta.as_object_mut(), fields.as_object()) {
        meta.extend(fields.clone());
    }
    meta.to_string()
}

/// A session whose snapshot (generation 8) holds yesterday's prompt, the day's first
/// prompt, its to-do list and a running `bash`; the journal since replaces the `bash`
/// with its finished run, adds a reply, a message Vibe wrote as the user's and a second
/// prompt.
fn write_store(home: &Home, folder: &str, meta_fields: &Value) {
    let base = format!("{ROOT}/{folder}");
    home.write(&format!("{base}/meta.json"), meta(meta_fields));
    home.write(
        &format!("{base}/CURRENT"),
        json!({"generation": "0000000000000008", "session_id": ID, "snapshot_sequence": 8})
            .to_string(),
    );
    home.write(
        &format!("{base}/generations/0000000000000008/manifest.json"),
        json!({"generation": "0000000000000008",
            "projection_state": {"chunks": [CHUNK], "path": "projection-state.json"},
            "recovery_journal_segment": {"first_sequence": 9, "path": "journal/0000000000000009.jsonl"}})
        .to_string(),
    );
    let todos = json!({"action": "write", "todos": [
        {"id": "1", "content": "Read check.sh", "status": "completed"},
        {"id": "2", "content": "Fix it", "status": "in_progress"}]});
    let snapshot = json!([
        message(
            "user-turn-0",
            "user",
            "turn_start",
            "2026-03-01T23:00:00Z",
            "yesterday's question"
        ),
        message(
            "user-turn-1",
            "user",
            "turn_start",
            "2026-03-02T09:00:00.250Z",
            "why does check.sh fail?"
        ),
        effect(
            "effect-todo",
            "2026-03-02T09:00:01Z",
            "vibe.todo",
            &todos,
            &json!({"status": "completed"}),
            "2026-03-02T09:00:01Z"
        ),
        effect(
            "effect-bash",
            "2026-03-02T09:00:02Z",
            "file_system.bash",
            &json!({"command": "sh check.sh"}),
            &bash_state("running", None),
            "2026-03-02T09:00:02Z"
        ),
    ]);
    home.write(&format!("{base}/chunks/{CHUNK}.json"), snapshot.to_string());
    // An older journal, replaced by the snapshot: never read while `CURRENT` is.
    home.write(
        &format!("{base}/journal/0000000000000001.jsonl"),
        record(
            1,
            &[(
                "append_entry",
                message("user-turn-x", "user", "turn_start", "2026-03-02T08:00:00Z", "superseded"),
            )],
        ) + "\n",
    );
    home.write(
        &format!("{base}/journal/0000000000000009.jsonl"),
        [
            json!({"payload": {"request": {"model_input": {"messages": []}}}, "sequence": 9, "type": "action_intent"}).to_string(),
            record(10, &[("replace_entry", effect("effect-bash", "2026-03-02T09:00:02Z", "file_system.bash", &json!({"command": "sh check.sh"}), &bash_state("completed", Some(3)), "2026-03-02T09:00:03Z"))]),
            record(11, &[
                ("append_entry", message("assistant-1", "assistant", "harness", "2026-03-02T09:00:04Z", "It exits 3.")),
                ("append_entry", message("user-compact", "user", "compaction", "2026-03-02T09:05:00Z", "summary of the session")),
                ("set_envelope", json!({})),
            ]),
            record(12, &[("append_entry", message("user-turn-2", "user", "turn_start", "2026-03-02T09:10:00Z", "then make it pass"))]),
            // A plugin's tool of the same shape, later: not the session's list.
            record(13, &[("append_entry", effect("effect-plugin", "2026-03-02T09:10:01Z", "tracker.todo", &json!({"action": "write", "todos": [{"id": "p", "content": "Plugin's item"}]}), &json!({"status": "completed"}), "2026-03-02T09:10:01Z"))]),
        ]
        .join("\n")
            + "\n",
    );
}

#[test]
fn vibe_a_session_s_prompts_title_model_list_and_failed_command_are_read() {
    let home = Home::new();
    write_store(&home, ID, &json!({"title": "Why check fails"}));
    let output = home.read(Agent::Vibe, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::Vibe, ID);
    // Not yesterday's, not the compaction's, not the superseded journal's.
    assert_eq!(event.prompts, times(&["2026-03-02T09:00:00.25Z", "2026-03-02T09:10:00Z"]));
    assert_eq!(event.title, "Why check fails");
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/work/app")));
    assert_eq!(event.models, ["devstral-2"]);
    assert_eq!(
        todo_items(event),
        [("Read check.sh", TodoStatus::Completed), ("Fix it", TodoStatus::InProgress)]
    );
    // The finished run replaced the running one.
    assert_eq!(failed_runs(event), [("sh check.sh", vec![(3, ts("2026-03-02T09:00:02Z"))])]);
    assert_eq!(event.activity.first(), Some(&ts("2026-03-02T09:00:00.25Z")));
    assert_eq!(event.activity.last(), Some(&ts("2026-03-02T09:10:01Z")));
    let status = status(&output, Agent::Vibe);
    assert!(status.found);
    assert_eq!((status.files, status.entries), (1, 1));
    assert_eq!(status.locations, [home.path().join(ROOT)]);
}

#[test]
fn vibe_without_a_current_generation_every_journal_is_read() {
    let home = Home::new();
    write_store(&home, ID, &json!({}));
    fs_err::remove_file(home.path().join(format!("{ROOT}/{ID}/CURRENT"))).expect("remove");
    // A file beside the journals that is not one (a segment being written under another
    // name): not read.
    home.write(
        &format!("{ROOT}/{ID}/journal/0000000000000013.jsonl.tmp"),
        record(
            13,
            &[(
                "append_entry",
                message("user-turn-t", "user", "turn_start", "2026-03-02T12:00:00Z", "not yet"),
            )],
        ) + "\n",
    );
    let output = home.read(Agent::Vibe, ts(SINCE));
    let event = session(&output, Agent::Vibe, ID);
    // The journals alone: the old one's prompt and the segment's, not the snapshot's.
    assert_eq!(event.prompts, times(&["2026-03-02T08:00:00Z", "2026-03-02T09:10:00Z"]));
    assert_eq!(event.title, "superseded");
    assert_eq!(failed_runs(event).len(), 1);
}

#[test]
fn vibe_a_sub_agent_s_session_is_activity_of_its_parent() {
    let home = Home::new();
    write_store(&home, ID, &json!({}));
    let child = "c0c0c0c0-0000-0000-0000-000000000001";
    home.write(
        &format!("{ROOT}/{child}/meta.json"),
        meta(&json!({"session_id": child, "parent_session_id": ID, "title": "Child title",
            "config": {"model_name": "devstral-small"}})),
    );
    let asked = message("user-turn-s", "user", "turn_start", "2026-03-02T11:00:00Z", "look");
    let list = json!({"action": "write", "todos": [{"id": "9", "content": "Child's list"}]});
    let done = json!({"status": "completed"});
    let listed = effect(
        "effect-s",
        "2026-03-02T11:00:01Z",
        "vibe.todo",
        &list,
        &done,
        "2026-03-02T11:00:01Z",
    );
    home.write(
        &format!("{ROOT}/{child}/journal/0000000000000001.jsonl"),
        [record(1, &[("append_entry", asked)]), record(2, &[("append_entry", listed)])].join("\n")
            + "\n",
    );
    let output = home.read(Agent::Vibe, ts(SINCE));
    assert_eq!(output.events.len(), 1);
    let event = session(&output, Agent::Vibe, ID);
    assert_eq!(event.prompts.len(), 2);
    assert_eq!(event.activity.last(), Some(&ts("2026-03-02T11:00:01Z")));
    assert_eq!(status(&output, Agent::Vibe).files, 2);
    // Nothing of the child's but its activity: not its title, model or list.
    assert_eq!(event.title, "why does check.sh fail?");
    assert_eq!(event.models, ["devstral-2"]);
    assert_eq!(todo_items(event).len(), 2);
}

#[test]
fn vibe_s_home_moves_with_its_variable_and_the_config_and_an_empty_root_is_found() {
    let home = Home::new();
    let empty = home.read(Agent::Vibe, ts(SINCE));
    assert!(!status(&empty, Agent::Vibe).found);
    fs_err::create_dir_all(home.path().join(ROOT)).expect("root");
    // A folder without `meta.json` (a session being created) is no session.
    fs_err::create_dir_all(home.path().join(ROOT).join("e0e0e0e0/journal")).expect("folder");
    let empty = home.read(Agent::Vibe, ts(SINCE));
    assert!(status(&empty, Agent::Vibe).found);
    assert_eq!(status(&empty, Agent::Vibe).files, 0);
    assert!(empty.events.is_empty());

    let source = Home::new();
    write_store(&source, ID, &json!({}));
    let moved = Home::new().var("VIBE_HOME", source.path().join(".vibe").to_string_lossy());
    let output = moved.read(Agent::Vibe, ts(SINCE));
    assert_eq!(session(&output, Agent::Vibe, ID).prompts.len(), 2);
    let output = read_with_home(&home, Agent::Vibe, source.path().join(".vibe"), ts(SINCE));
    assert_eq!(status(&output, Agent::Vibe).locations, [source.path().join(ROOT)]);
    assert_eq!(session(&output, Agent::Vibe, ID).prompts.len(), 2);
}

#[test]
fn vibe_malformed_files_are_named_and_the_rest_read() {
    let home = Home::new();
    write_store(&home, ID, &json!({}));
    let journal = home.path().join(format!("{ROOT}/{ID}/journal/0000000000000009.jsonl"));
    let text = fs_err::read_to_string(&journal).expect("journal");
    fs_err::write(
        &journal,
        format!("{text}{{\"payload\": {{\"delta\": [{{\"op\": \"append_entry\"\n"),
    )
    .expect("write");
    let broken = "d0d0d0d0-0000-0000-0000-000000000002";
    let meta_path = home.write(&format!("{ROOT}/{broken}/meta.json"), "{\"session_id\": ");
    let output = home.read(Agent::Vibe, ts(SINCE));
    assert_eq!(session(&output, Agent::Vibe, ID).prompts.len(), 2);
    let malformed = warning_texts(&output, WarningCode::MalformedLines);
    assert_eq!(malformed.len(), 2, "{:?}", output.warnings);
    assert!(malformed.iter().any(|w| w.contains(&journal.display().to_string())), "{malformed:?}");
    assert!(
        malformed.iter().any(|w| w.contains(&meta_path.display().to_string())),
        "{malformed:?}"
    );
    assert_eq!(status(&output, Agent::Vibe).limits, ["2 malformed lines skipped in 2 files"]);
}

#[test]
fn vibe_the_recorded_list_and_failed_command_are_read() {
    let home = Home::new();
    home.copy_fixture("agents/vibe/3.0.3/home", "", ts("2026-12-05T23:36:00Z"));
    assert_recorded_sessions(&home.read(Agent::Vibe, ts("2026-12-05T00:00:00Z")));
}

#[test]
fn vibe_a_manifest_naming_a_segment_outside_its_session_is_not_followed() {
    let home = Home::new();
    write_store(&home, ID, &json!({}));
    let manifest = format!("{ROOT}/{ID}/generations/0000000000000008/manifest.json");
    for outside in ["../elsewhere.jsonl", "/tmp/elsewhere.jsonl"] {
        home.write(
            &manifest,
            json!({"projection_state": {"chunks": [CHUNK]},
                "recovery_journal_segment": {"path": outside}})
            .to_string(),
        );
        let asked = message("user-turn-o", "user", "turn_start", "2026-03-02T10:00:00Z", "no");
        home.write(
            &format!("{ROOT}/elsewhere.jsonl"),
            record(1, &[("append_entry", asked)]) + "\n",
        );
        let output = home.read(Agent::Vibe, ts(SINCE));
        // The snapshot's one prompt of the day, nothing from outside.
        let event = session(&output, Agent::Vibe, ID);
        assert_eq!(event.prompts, times(&["2026-03-02T09:00:00.25Z"]), "{outside}");
    }
}
