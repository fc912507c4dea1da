//! Tests of the qwen reader (see crates/collect/src/sessions/qwen.rs).
//!
//! The records are in the shape Qwen Code 0.24 writes them (`ChatRecordingService`:
//! `uuid`/`parentUuid`, `type`, `subtype`, `provenance`, Gemini-style `message`).

use std::path::PathBuf;

use report_model::{Agent, WarningCode};

use crate::support::{
    Home, assert_unreadable_times, failed_runs, recorded_failure, scripted, session, set_mtime,
    status, times, ts,
};

const ID: &str = "6f1c2e7a-2b4d-4c1e-9a8b-0d1e2f3a4b5c";
const CHATS: &str = ".qwen/projects/-work-app/chats";

fn record(uuid: &str, time: &str, kind: &str, extra: &str) -> String {
    format!(
        r#"{{"uuid":"{uuid}","parentUuid":null,"sessionId":"{ID}","timestamp":"{time}","type":"{kind}","cwd":"/work/app","version":"0.24.4","gitBranch":"main"{extra}}}"#
    ) + "\n"
}

fn records() -> String {
    [
        record("u1", "2026-05-02T09:00:00.000Z", "user", r#","provenance":"real_user","message":{"role":"user","parts":[{"text":"Explain @src/a.rs"},{"text":"--- Content from referenced files ---\nfn a() {}"}]},"systemPayload":{"displayText":"Explain @src/a.rs"}"#),
        record("a1", "2026-05-02T09:00:05.000Z", "assistant", r#","provenance":"assistant_output","model":"qwen3-coder-plus","message":{"role":"model","parts":[{"functionCall":{"name":"read_file","args":{"path":"src/a.rs"}}}]}"#),
        record("t1", "2026-05-02T09:00:06.000Z", "tool_result", r#","provenance":"tool_result","message":{"role":"user","parts":[{"functionResponse":{"name":"read_file","response":{"output":"fn a() {}"}}}]}"#),
        record("a2", "2026-05-02T09:00:10.000Z", "assistant", r#","model":"qwen3-coder-plus","message":{"role":"model","parts":[{"text":"It defines a."}]}"#),
        record("s1", "2026-05-02T09:01:00.000Z", "system", r#","subtype":"slash_command","systemPayload":{"phase":"invocation","rawCommand":"/stats"}"#),
        record("n1", "2026-05-02T09:02:00.000Z", "user", r#","subtype":"notification","provenance":"system","message":{"role":"user","parts":[{"text":"Background task finished"}]}"#),
        record("c1", "2026-05-02T09:03:00.000Z", "user", r#","subtype":"cron","message":{"role":"user","parts":[{"text":"check CI"}]}"#),
        record("m1", "2026-05-02T09:04:00.000Z", "user", r#","subtype":"mid_turn_user_message","message":{"role":"user","parts":[{"text":"also the docs"}]},"systemPayload":{"displayText":"also the docs"}"#),
        record("u2", "2026-05-02T10:00:00.000Z", "user", r#","message":{"role":"user","parts":[{"text":"Add a test"}]}"#),
        record("a3", "2026-05-02T10:00:09.000Z", "assistant", r#","model":"qwen3.5-plus","message":{"role":"model","parts":[{"text":"ok"}]}"#),
        record("x1", "2026-05-02T10:00:20.000Z", "system", r#","subtype":"future_kind","systemPayload":{}"#),
        record("t2", "2026-05-02T10:01:00.000Z", "system", r#","subtype":"custom_title","systemPayload":{"customTitle":"Explain module a","titleSource":"auto"}"#),
    ]
    .concat()
}

#[test]
fn qwen_counts_only_typed_prompts_and_reads_title_cwd_models_version() {
    let home = Home::new();
    home.write(&format!("{CHATS}/{ID}.jsonl"), records());
    // Not session files.
    home.write(&format!("{CHATS}/{ID}.ledger.jsonl"), "not read\n");
    home.write(&format!("{CHATS}/{ID}.runtime.json"), "{}");
    // Named like a session in one way only: hex but short, or uuid-long but not hex.
    home.write(&format!("{CHATS}/abc123.jsonl"), "not read\n");
    home.write(&format!("{CHATS}/{:z<36}.jsonl", "notes-"), "not read\n");
    let output = home.read(Agent::Qwen, ts("2026-05-02T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::Qwen, ID);
    assert_eq!(
        event.prompts,
        times(&["2026-05-02T09:00:00Z", "2026-05-02T09:04:00Z", "2026-05-02T10:00:00Z"])
    );
    assert_eq!(event.activity.len(), 12);
    assert_eq!(event.title, "Explain module a");
    assert_eq!(event.cwd, Some(PathBuf::from("/work/app")));
    assert_eq!(event.branch.as_deref(), Some("main"));
    assert_eq!(event.models, ["qwen3-coder-plus", "qwen3.5-plus"]);
    let status = status(&output, Agent::Qwen);
    assert_eq!((status.files, status.entries), (1, 1));
    assert_eq!(status.versions, ["0.24.4"]);
    assert_eq!(status.unknown, ["system/future_kind"]);
    // Every session has a chat file: no limit about `logs.json`.
    assert!(status.limits.is_empty(), "{:?}", status.limits);
}

#[test]
fn qwen_title_without_a_custom_title_is_what_was_typed() {
    let home = Home::new();
    let text: String = records()
        .lines()
        .filter(|line| !line.contains("custom_title"))
        .flat_map(|line| [line, "\n"])
        .chain([
            record("u-new", "2026-05-02T11:00:00.000Z", "checkpoint", "").as_str(),
            // What a command sent to the model: a user record of another provenance.
            record(
                "u-cmd",
                "2026-05-02T11:30:00.000Z",
                "user",
                r#","provenance":"system","message":{"role":"user","parts":[{"text":"Summarize the session"}]}"#,
            )
            .as_str(),
        ])
        .collect();
    home.write(&format!("{CHATS}/{ID}.jsonl"), text);
    let output = home.read(Agent::Qwen, ts("2026-05-02T00:00:00Z"));
    // The display text, not the message with the referenced file's content.
    assert_eq!(session(&output, Agent::Qwen, ID).title, "Explain @src/a.rs");
    assert_eq!(
        session(&output, Agent::Qwen, ID).prompts,
        times(&["2026-05-02T09:00:00Z", "2026-05-02T09:04:00Z", "2026-05-02T10:00:00Z"])
    );
    // A record type of a newer version is noted.
    assert_eq!(status(&output, Agent::Qwen).unknown, ["checkpoint", "system/future_kind"]);
}

#[test]
fn qwen_runtime_dir_wins_over_qwen_home() {
    let home = Home::new();
    home.write(&format!("runtime/projects/-work-app/chats/{ID}.jsonl"), records());
    home.write(
        &format!("qhome/projects/-work-app/chats/{ID}.jsonl"),
        records().replace("Explain module a", "Other"),
    );
    let runtime = home.path().join("runtime");
    let qhome = home.path().join("qhome");
    let home = home.var("QWEN_HOME", qhome.to_string_lossy());
    let output = home.read(Agent::Qwen, ts("2026-05-02T00:00:00Z"));
    assert_eq!(session(&output, Agent::Qwen, ID).title, "Other");
    let home = home.var("QWEN_RUNTIME_DIR", runtime.to_string_lossy());
    let output = home.read(Agent::Qwen, ts("2026-05-02T00:00:00Z"));
    assert_eq!(session(&output, Agent::Qwen, ID).title, "Explain module a");
    assert_eq!(status(&output, Agent::Qwen).locations, [runtime]);
}

#[test]
fn qwen_reads_archived_chats_and_skips_old_files() {
    let home = Home::new();
    let path = home.write(&format!("{CHATS}/archive/{ID}.jsonl"), records());
    let output = home.read(Agent::Qwen, ts("2026-05-02T09:30:00Z"));
    let event = session(&output, Agent::Qwen, ID);
    assert_eq!(event.prompts, times(&["2026-05-02T10:00:00Z"]));
    assert_eq!(event.models, ["qwen3.5-plus"]);
    set_mtime(&path, ts("2026-05-01T00:00:00Z"));
    let output = home.read(Agent::Qwen, ts("2026-05-02T00:00:00Z"));
    assert!(output.events.is_empty());
    assert_eq!(status(&output, Agent::Qwen).files, 1);
}

#[test]
fn qwen_reads_logs_json_for_sessions_without_a_chat() {
    let home = Home::new();
    home.write(&format!("{CHATS}/{ID}.jsonl"), records());
    home.write(
        ".qwen/tmp/3f2a9c0b7e5d4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192/logs.json",
        format!(
            r#"[
  {{"sessionId": "old-session", "messageId": 0, "type": "user", "message": "/help", "timestamp": "2026-05-02T08:00:00.000Z"}},
  {{"sessionId": "old-session", "messageId": 1, "type": "user", "message": "refactor the   loader", "timestamp": "2026-05-02T08:01:00.000Z"}},
  {{"sessionId": "old-session", "messageId": 2, "type": "user", "message": "and its tests", "timestamp": "2026-05-02T08:05:00.000Z"}},
  {{"sessionId": "{ID}", "messageId": 0, "type": "user", "message": "Explain @src/a.rs", "timestamp": "2026-05-02T09:00:00.000Z"}}
]"#
        ),
    );
    let output = home.read(Agent::Qwen, ts("2026-05-02T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let old = session(&output, Agent::Qwen, "old-session");
    assert_eq!(old.prompts, times(&["2026-05-02T08:01:00Z", "2026-05-02T08:05:00Z"]));
    assert_eq!(old.activity.len(), 3);
    assert_eq!(old.title, "refactor the loader");
    assert_eq!(old.cwd, None);
    // The session with a chat is read from the chat alone.
    assert_eq!(session(&output, Agent::Qwen, ID).prompts.len(), 3);
    let status = status(&output, Agent::Qwen);
    assert_eq!(status.files, 2);
    assert_eq!(
        status.limits,
        ["1 session from `logs.json` only, without a known working directory"]
    );
}

#[test]
fn qwen_warns_about_malformed_lines_and_documents() {
    let home = Home::new();
    home.write(&format!("{CHATS}/{ID}.jsonl"), format!("{}{{oops\n", records()));
    home.write(".qwen/tmp/abc/logs.json", "[{");
    let output = home.read(Agent::Qwen, ts("2026-05-02T00:00:00Z"));
    assert_eq!(output.warnings.len(), 2, "{:?}", output.warnings);
    assert!(output.warnings.iter().all(|warning| warning.code() == WarningCode::MalformedLines));
    assert_eq!(session(&output, Agent::Qwen, ID).prompts.len(), 3);
}

#[test]
fn qwen_missing_is_silent() {
    let home = Home::new();
    let output = home.read(Agent::Qwen, ts("2026-05-02T00:00:00Z"));
    assert!(output.warnings.is_empty() && output.events.is_empty());
    assert!(!status(&output, Agent::Qwen).found);
}

/// A `run_shell_command` call and its result record, as 0.24.4 writes them.
fn shell_run(id: &str, at: &str, command: &str, exit: &str) -> String {
    let args = serde_json::json!({"command": command, "description": "Run it"});
    record(
        &format!("a-{id}"),
        at,
        "assistant",
        &format!(
            r#","model":"qwen3-coder-plus","message":{{"role":"model","parts":[{{"functionCall":{{"id":"{id}","name":"run_shell_command","args":{args}}}}}]}}"#
        ),
    ) + &record(
        &format!("r-{id}"),
        at,
        "tool_result",
        &format!(
            r#","message":{{"role":"user","parts":[{{"functionResponse":{{"id":"{id}","name":"run_shell_command","response":{{"output":"x"}}}}}}]}},"toolCallResult":{{"callId":"{id}","status":"error","resultDisplay":{{"type":"shell_result","version":1,"exitCode":{exit},"outcome":"failed"}}}}"#
        ),
    )
}

#[test]
fn qwen_shell_runs_are_read_with_their_exit_codes() {
    let home = Home::new();
    let mut text = records();
    text += &shell_run("c1", "2026-05-02T10:02:00.000Z", "npm   test", "1");
    text += &shell_run("c2", "2026-05-02T10:03:00.000Z", "npm test", "0");
    text += &shell_run("c3", "2026-05-02T10:04:00.000Z", "cargo build", "101");
    // No exit code (killed by a signal): no status.
    text += &shell_run("c4", "2026-05-02T10:05:00.000Z", "sleep 99", "null");
    // Another tool's result, and a result that answers no call.
    text += &record(
        "r5",
        "2026-05-02T10:06:00.000Z",
        "tool_result",
        r#","toolCallResult":{"callId":"a1","resultDisplay":"read 1 file"}"#,
    );
    text += &record(
        "r6",
        "2026-05-02T10:06:00.000Z",
        "tool_result",
        r#","toolCallResult":{"callId":"nobody","resultDisplay":{"type":"shell_result","exitCode":2}}"#,
    );
    home.write(&format!("{CHATS}/{ID}.jsonl"), text);
    let output = home.read(Agent::Qwen, ts("2026-05-02T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let found = session(&output, Agent::Qwen, ID);
    assert_eq!(failed_runs(found), [("cargo build", vec![(101, ts("2026-05-02T10:04:00Z"))])]);
}

#[test]
fn qwen_the_recorded_failed_command_is_read() {
    let home = Home::new();
    let since = ts("2026-12-06T00:00:00Z");
    home.copy_fixture("agents/qwen/0.24.4/home", "", ts("2026-12-06T04:50:37Z"));
    let output = home.read(Agent::Qwen, since);
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(output.events.len(), 3);
    // `-p` offers no to-do tool: the third session ran the failing command only.
    assert_eq!(scripted(&output), [(Vec::new(), recorded_failure())]);
}

/// The fork Qwen Code 0.24.4 made (`qwen -p … --continue --fork-session`,
/// `fixtures/qwen-fork/0.24.4/`, by its `record.sh`): a new chat whose first records are
/// the other session's, `uuid` and `timestamp` kept, each with `forkedFrom`; then its own.
/// The copied prompt is counted once, in the session it was typed in.
#[test]
fn qwen_a_fork_s_copies_of_the_other_session_are_not_counted_twice() {
    let (original, fork) =
        ("94798aab-17cc-4519-88da-231def66dc9a", "eb76fbcc-33a9-418b-8926-15f138e6b93c");
    let home = Home::new();
    home.copy_fixture("qwen-fork/0.24.4/home", "", ts("2026-12-06T15:18:00Z"));
    let output = home.read(Agent::Qwen, ts("2026-12-06T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let original = session(&output, Agent::Qwen, original);
    assert_eq!(original.prompts, times(&["2026-12-06T15:17:20.903Z"]));
    let fork = session(&output, Agent::Qwen, fork);
    assert_eq!(fork.prompts, times(&["2026-12-06T15:17:26.803Z", "2026-12-06T15:17:32.566Z"]));
    assert!(
        fork.activity.iter().all(|time| *time >= ts("2026-12-06T15:17:26.803Z")),
        "{:?}",
        fork.activity
    );
    // The copied prompt is the fork's first: its title, as the conversation began there.
    assert_eq!(fork.title, "first prompt");
}

#[test]
fn qwen_a_logs_json_entry_whose_time_is_no_time_is_warned_and_not_counted() {
    let home = Home::new();
    let path = home.write(
        ".qwen/tmp/abc/logs.json",
        r#"[{"sessionId": "old", "messageId": 0, "type": "user", "message": "refactor", "timestamp": "then"},
{"sessionId": "old", "messageId": 1, "type": "user", "message": "and test", "timestamp": "2026-05-02T08:05:00.000Z"}]"#,
    );
    let output = home.read(Agent::Qwen, ts("2026-05-02T00:00:00Z"));
    assert_unreadable_times(&output, &path, "timestamp", 1);
    assert_eq!(session(&output, Agent::Qwen, "old").prompts, times(&["2026-05-02T08:05:00Z"]));
}
