//! Tests of the droid reader (see crates/collect/src/sessions/droid.rs).
//!
//! The lines are shaped as Factory Droid 0.225 writes them (`session_start` first, then
//! `message`, `todo_state` and `compaction_state` records, one JSON object a line).

use std::path::PathBuf;

use report_model::{Agent, WarningCode};

use crate::fifo::Fifo;
use crate::support::{
    Home, assert_one_warning_naming, en, failed_runs, recorded_failure, scripted, session,
    set_mtime, status, times, ts,
};

const SINCE: &str = "2026-03-02T00:00:00Z";
const ID: &str = "0b7e4a52-1c3d-4e5f-8a9b-000000000001";
const PROJECT: &str = ".factory/sessions/-home-dev-app";

fn start(id: &str, title: &str) -> String {
    format!(
        r#"{{"type":"session_start","id":"{id}","title":"{title}","owner":"dev","version":2,"cwd":"/home/dev/app"}}"#
    )
}

/// The first lines of a session titled `title`: its start and that prompt, typed at
/// 10:00.
fn opened(title: &str) -> Vec<String> {
    vec![
        start(ID, title),
        format!(
            r#"{{"type":"message","id":"p1","timestamp":"2026-03-02T10:00:00.000Z","message":{{"role":"user","content":[{{"type":"text","text":"{title}"}}]}}}}"#
        ),
    ]
}

/// A session: a typed prompt behind an injected reminder, a reply with a tool call,
/// the tool's result, a hook's message, an automation's message, a hidden message, a
/// to-do update, a compaction, a reminder-only message, and a second typed prompt.
fn transcript(id: &str, title: &str) -> String {
    [
        start(id, title),
        r#"{"type":"message","id":"m1","timestamp":"2026-03-02T10:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":"<system-reminder>\nThe user opened src/login.ts in the IDE.\n</system-reminder>"},{"type":"text","text":"Fix the   login redirect"}],"userMessageSource":"cli_tui"}}"#.to_owned(),
        r#"{"type":"message","id":"m2","timestamp":"2026-03-02T10:00:04.000Z","parentId":"m1","message":{"role":"assistant","content":[{"type":"thinking","thinking":"read it","signature":"s"},{"type":"text","text":"Reading the file."},{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"src/login.ts"}}],"modelId":"claude-opus-4-5-20251101","apiProvider":"anthropic"}}"#.to_owned(),
        r#"{"type":"message","id":"m3","timestamp":"2026-03-02T10:00:05.000Z","parentId":"m2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"export function login() {}"}]}}"#.to_owned(),
        r#"{"type":"message","id":"m4","timestamp":"2026-03-02T10:00:06.000Z","parentId":"m3","message":{"role":"user","content":[{"type":"text","text":"Hook: branch is main"}],"visibility":"llm_only","hookEventName":"UserPromptSubmit"}}"#.to_owned(),
        r#"{"type":"message","id":"m5","timestamp":"2026-03-02T10:00:07.000Z","parentId":"m4","message":{"role":"user","content":[{"type":"text","text":"Nightly check"}],"userMessageSource":"automation"}}"#.to_owned(),
        r#"{"type":"message","id":"m6","timestamp":"2026-03-02T10:00:08.000Z","parentId":"m5","message":{"role":"user","content":[{"type":"text","text":"Continue"}],"hiddenFromUserViews":true}}"#.to_owned(),
        r#"{"type":"todo_state","id":"t1","timestamp":"2026-03-02T10:01:00.000Z","todos":[{"id":"1","content":"fix redirect","status":"in_progress"}],"messageIndex":6}"#.to_owned(),
        r#"{"type":"compaction_state","id":"c1","timestamp":"2026-03-02T10:02:00.000Z","summaryText":"The user asked…","summaryTokens":120,"summaryKind":"auto","removedCount":4}"#.to_owned(),
        r#"{"type":"message","id":"m7","timestamp":"2026-03-02T10:03:00.000Z","message":{"role":"user","content":[{"type":"text","text":"<system-reminder>Todo list changed</system-reminder>"}]}}"#.to_owned(),
        r#"{"type":"message","id":"m8","timestamp":"2026-03-02T10:05:00.000Z","parentId":"m7","message":{"role":"user","content":"and add a test","userMessageSource":"cli_tui"}}"#.to_owned(),
        r#"{"type":"message","id":"m9","timestamp":"2026-03-02T10:05:09.000Z","parentId":"m8","message":{"role":"assistant","content":[{"type":"text","text":"Done."}],"modelId":"gpt-5.1-codex"}}"#.to_owned(),
    ]
    .join("\n")
        + "\n"
}

/// Writes a file under the home, modified in the window.
fn write(home: &Home, relative: &str, content: &str) -> PathBuf {
    let path = home.write(relative, content);
    set_mtime(&path, ts("2026-03-02T12:00:00Z"));
    path
}

#[test]
fn droid_prompts_are_what_the_person_typed() {
    let home = Home::new();
    write(&home, &format!("{PROJECT}/{ID}.jsonl"), &transcript(ID, "Fix the login redirect"));
    let output = home.read(Agent::Droid, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let found = session(&output, Agent::Droid, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:00Z", "2026-03-02T10:05:00Z"]));
    assert_eq!(
        found.activity,
        times(&[
            "2026-03-02T10:00:00Z",
            "2026-03-02T10:00:04Z",
            "2026-03-02T10:00:05Z",
            "2026-03-02T10:00:06Z",
            "2026-03-02T10:00:07Z",
            "2026-03-02T10:00:08Z",
            "2026-03-02T10:01:00Z",
            "2026-03-02T10:02:00Z",
            "2026-03-02T10:03:00Z",
            "2026-03-02T10:05:00Z",
            "2026-03-02T10:05:09Z",
        ])
    );
    assert_eq!(found.cwd, Some(PathBuf::from("/home/dev/app")));
    assert_eq!(found.models, ["claude-opus-4-5-20251101", "gpt-5.1-codex"]);
    let droid = status(&output, Agent::Droid);
    assert!(droid.found);
    assert_eq!((droid.files, droid.entries), (1, 1));
    assert!(droid.unknown.is_empty() && droid.versions.is_empty());
}

#[test]
fn droid_placeholder_titles_give_way_to_the_first_typed_prompt() {
    let home = Home::new();
    let ids = ["a", "b", "c", "d"].map(|tail| format!("0b7e4a52-1c3d-4e5f-8a9b-00000000000{tail}"));
    write(&home, &format!("{PROJECT}/{}.jsonl", ids[0]), &transcript(&ids[0], "New Session"));
    write(&home, &format!("{PROJECT}/{}.jsonl", ids[1]), &transcript(&ids[1], "Nuova sessione"));
    write(&home, &format!("{PROJECT}/{}.jsonl", ids[2]), &transcript(&ids[2], "Login redirect"));
    // Old files name the title `sessionTitle`.
    let legacy =
        transcript(&ids[3], "x").replace("\"title\":\"x\"", "\"sessionTitle\":\"Old style\"");
    write(&home, &format!(".factory/sessions/{}.jsonl", ids[3]), &legacy);
    let output = home.read(Agent::Droid, ts(SINCE));
    // The injected reminder before the prompt is not part of it.
    assert_eq!(session(&output, Agent::Droid, &ids[0]).title, "Fix the login redirect");
    assert_eq!(session(&output, Agent::Droid, &ids[1]).title, "Fix the login redirect");
    assert_eq!(session(&output, Agent::Droid, &ids[2]).title, "Login redirect");
    assert_eq!(session(&output, Agent::Droid, &ids[3]).title, "Old style");
    assert_eq!(status(&output, Agent::Droid).files, 4);
}

#[test]
fn droid_cwd_is_the_last_one_the_session_moved_to() {
    let home = Home::new();
    let content = transcript(ID, "t").replacen(
        "\"cwd\":\"/home/dev/app\"",
        "\"cwd\":\"/home/dev/app\",\"lastCwd\":\"/home/dev/app/web\"",
        1,
    );
    write(&home, &format!("{PROJECT}/{ID}.jsonl"), &content);
    let output = home.read(Agent::Droid, ts(SINCE));
    assert_eq!(session(&output, Agent::Droid, ID).cwd, Some(PathBuf::from("/home/dev/app/web")));
}

#[test]
fn droid_model_falls_back_to_the_settings_file() {
    let home = Home::new();
    let without_models = transcript(ID, "t")
        .replace(",\"modelId\":\"claude-opus-4-5-20251101\"", "")
        .replace(",\"modelId\":\"gpt-5.1-codex\"", "");
    write(&home, &format!("{PROJECT}/{ID}.jsonl"), &without_models);
    write(
        &home,
        &format!("{PROJECT}/{ID}.settings.json"),
        r#"{"assistantActiveTimeMs":5200,"model":"glm-4.6","reasoningEffort":"none","interactionMode":"auto","autonomyLevel":"off","tokenUsage":{"inputTokens":10,"outputTokens":2}}"#,
    );
    let output = home.read(Agent::Droid, ts(SINCE));
    assert_eq!(session(&output, Agent::Droid, ID).models, ["glm-4.6"]);
    // The settings file is not a session.
    assert_eq!(status(&output, Agent::Droid).files, 1);
}

#[test]
fn droid_sub_agent_sessions_are_activity_of_the_caller() {
    let home = Home::new();
    write(&home, &format!("{PROJECT}/{ID}.jsonl"), &transcript(ID, "Main"));
    let child = "0b7e4a52-1c3d-4e5f-8a9b-0000000000c1";
    let task = [
        format!(
            r#"{{"type":"session_start","id":"{child}","title":"Scout the tree","owner":"dev","callingSessionId":"{ID}","callingToolUseId":"toolu_9","version":2,"cwd":"/home/dev/app"}}"#
        ),
        r##"{"type":"message","id":"s1","timestamp":"2026-03-02T11:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":"# Task Tool Invocation\n\nSubagent type: scout\n\nFind the router"}]}}"##.to_owned(),
    ]
    .join("\n");
    write(&home, &format!("{PROJECT}/{child}.jsonl"), &task);
    // An older sub-agent session names no caller: left out.
    let orphan = "0b7e4a52-1c3d-4e5f-8a9b-0000000000c2";
    let old_task = task
        .replace(&format!(",\"callingSessionId\":\"{ID}\",\"callingToolUseId\":\"toolu_9\""), "")
        .replace(child, orphan);
    write(&home, &format!("{PROJECT}/{orphan}.jsonl"), &old_task);
    let output = home.read(Agent::Droid, ts(SINCE));
    let ids: Vec<&str> = output.events.iter().map(|event| event.session_id.as_str()).collect();
    assert_eq!(ids, [ID]);
    let main = session(&output, Agent::Droid, ID);
    assert_eq!(main.title, "Main");
    assert_eq!(main.prompts.len(), 2);
    assert!(main.activity.contains(&ts("2026-03-02T11:00:00Z")));
}

#[test]
fn droid_honours_factory_home_override() {
    let home = Home::new();
    let elsewhere = home.path().join("elsewhere");
    let home = home.var("FACTORY_HOME_OVERRIDE", elsewhere.display().to_string());
    write(&home, &format!("elsewhere/{PROJECT}/{ID}.jsonl"), &transcript(ID, "t"));
    write(&home, &format!("{PROJECT}/other.jsonl"), &transcript("other", "t"));
    let output = home.read(Agent::Droid, ts(SINCE));
    let ids: Vec<&str> = output.events.iter().map(|event| event.session_id.as_str()).collect();
    assert_eq!(ids, [ID]);
    assert_eq!(status(&output, Agent::Droid).locations, [elsewhere.join(".factory")]);
}

#[test]
fn droid_old_files_are_not_opened() {
    let home = Home::new();
    let old = write(&home, &format!("{PROJECT}/old.jsonl"), "not json\n");
    set_mtime(&old, ts("2026-03-01T00:00:00Z"));
    write(&home, &format!("{PROJECT}/{ID}.jsonl"), &transcript(ID, "t"));
    let output = home.read(Agent::Droid, ts("2026-03-02T10:04:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(status(&output, Agent::Droid).files, 2);
    let found = session(&output, Agent::Droid, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T10:05:00Z"]));
    // Only the reply in the window names its model.
    assert_eq!(found.models, ["gpt-5.1-codex"]);
}

#[test]
fn droid_malformed_lines_are_warned_and_unknown_records_noted() {
    let home = Home::new();
    let content = transcript(ID, "t")
        + "{\"type\":\"message\",\"id\":\"bad\"\n"
        + r#"{"type":"checkpoint","id":"k1","timestamp":"2026-03-02T10:06:00.000Z"}"#
        + "\n";
    let path = write(&home, &format!("{PROJECT}/{ID}.jsonl"), &content);
    let output = home.read(Agent::Droid, ts(SINCE));
    assert_one_warning_naming(&output, WarningCode::MalformedLines, &path);
    let found = session(&output, Agent::Droid, ID);
    assert!(found.activity.contains(&ts("2026-03-02T10:06:00Z")));
    let droid = status(&output, Agent::Droid);
    assert_eq!(droid.unknown, ["record type checkpoint"]);
    assert_eq!(droid.limits, ["1 malformed line skipped in 1 file"]);
}

#[test]
fn droid_unreadable_file_is_warned_and_missing_folder_silent() {
    let empty = Home::new();
    let output = empty.read(Agent::Droid, ts(SINCE));
    assert!(output.events.is_empty() && output.warnings.is_empty());
    assert!(!status(&output, Agent::Droid).found);

    let home = Home::new();
    write(&home, &format!("{PROJECT}/{ID}.jsonl"), &transcript(ID, "t"));
    let fifo = home.path().join(PROJECT).join("fifo.jsonl");
    let _fifo = Fifo::make(&fifo);
    let output = home.read(Agent::Droid, ts(SINCE));
    session(&output, Agent::Droid, ID);
    assert!(
        output.warnings.iter().any(|w| en(w).contains(&fifo.display().to_string())),
        "{:?}",
        output.warnings
    );
}

#[test]
fn droid_only_the_first_session_start_describes_the_session() {
    let home = Home::new();
    // Droid rewrites its one `session_start` in place; a second one further down (two
    // files run together) does not replace the session's id, title or folder.
    let second = start("0b7e4a52-1c3d-4e5f-8a9b-0000000000ff", "Another session")
        .replace("/home/dev/app", "/home/dev/other");
    let content = format!("{}{second}\n", transcript(ID, "Fix the login redirect"));
    write(&home, &format!("{PROJECT}/{ID}.jsonl"), &content);
    let output = home.read(Agent::Droid, ts(SINCE));
    let ids: Vec<&str> = output.events.iter().map(|event| event.session_id.as_str()).collect();
    assert_eq!(ids, [ID]);
    let found = session(&output, Agent::Droid, ID);
    assert_eq!(found.title, "Fix the login redirect");
    assert_eq!(found.cwd, Some(PathBuf::from("/home/dev/app")));
}

#[test]
fn droid_a_session_without_a_typed_prompt_in_the_window_is_still_its_activity() {
    let home = Home::new();
    // The person typed before the window; the replies and the tool ran in it.
    let content = transcript(ID, "Fix the login redirect")
        .replace("2026-03-02T10:00:00.000Z", "2026-03-01T23:00:00.000Z")
        .replace("2026-03-02T10:05:00.000Z", "2026-03-01T23:05:00.000Z");
    write(&home, &format!("{PROJECT}/{ID}.jsonl"), &content);
    // A session that handed a task over and was then typed in is a session of its own.
    let other = "0b7e4a52-1c3d-4e5f-8a9b-0000000000d1";
    let with_task = [
        start(other, "Both"),
        r##"{"type":"message","id":"s1","timestamp":"2026-03-02T11:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":"# Task Tool Invocation\n\nFind the router"}]}}"##.to_owned(),
        r#"{"type":"message","id":"s2","timestamp":"2026-03-02T11:05:00.000Z","message":{"role":"user","content":"now fix it","userMessageSource":"cli_tui"}}"#.to_owned(),
    ]
    .join("\n");
    write(&home, &format!("{PROJECT}/{other}.jsonl"), &with_task);
    let output = home.read(Agent::Droid, ts(SINCE));
    let found = session(&output, Agent::Droid, ID);
    assert!(found.prompts.is_empty(), "{:?}", found.prompts);
    assert!(found.activity.contains(&ts("2026-03-02T10:00:04Z")), "{:?}", found.activity);
    assert_eq!(session(&output, Agent::Droid, other).prompts, times(&["2026-03-02T11:05:00Z"]));
}

#[test]
fn droid_settings_model_only_when_no_reply_names_one() {
    let home = Home::new();
    write(&home, &format!("{PROJECT}/{ID}.jsonl"), &transcript(ID, "t"));
    write(&home, &format!("{PROJECT}/{ID}.settings.json"), r#"{"model":"glm-4.6"}"#);
    let output = home.read(Agent::Droid, ts(SINCE));
    let models = &session(&output, Agent::Droid, ID).models;
    assert!(!models.iter().any(|model| model == "glm-4.6"), "{models:?}");
}

#[test]
fn droid_a_message_the_person_sees_is_a_prompt_one_only_the_model_sees_is_not() {
    let home = Home::new();
    let content = [
        start(ID, "Visibility"),
        r#"{"type":"message","id":"v1","timestamp":"2026-03-02T10:00:00.000Z","message":{"role":"user","content":"shown to both","visibility":"both"}}"#.to_owned(),
        r#"{"type":"message","id":"v2","timestamp":"2026-03-02T10:01:00.000Z","message":{"role":"user","content":"for the model only","visibility":"llm_only"}}"#.to_owned(),
    ]
    .join("\n");
    write(&home, &format!("{PROJECT}/{ID}.jsonl"), &content);
    let output = home.read(Agent::Droid, ts(SINCE));
    assert_eq!(session(&output, Agent::Droid, ID).prompts, times(&["2026-03-02T10:00:00Z"]));
}

/// A tool call and its result, as Droid 0.225.2 writes them (the recording's lines): the
/// call in an assistant message (after a text part), the result in the next user message.
fn tool_exchange(
    call: &str,
    at: &str,
    (name, input): (&str, serde_json::Value),
    is_error: bool,
    output: &str,
) -> [String; 2] {
    let result = serde_json::json!({"type": "tool_result", "tool_use_id": call, "is_error": is_error, "content": output});
    [
        format!(
            r#"{{"type":"message","id":"a-{call}","timestamp":"{at}","message":{{"role":"assistant","content":[{{"type":"text","text":"On it."}},{{"type":"tool_use","id":"{call}","name":"{name}","input":{input}}}],"modelId":"custom:Local-Qwen-0"}}}}"#
        ),
        format!(
            r#"{{"type":"message","id":"r-{call}","timestamp":"{at}","message":{{"role":"user","content":[{result}]}}}}"#
        ),
    ]
}

/// A shell call (`Execute`) and its output, which Droid ends with its exit line.
fn execute(call: &str, at: &str, command: &str, output: &str, is_error: bool) -> [String; 2] {
    let input =
        serde_json::json!({"command": command, "riskLevel": "low", "summary": "Run it now"});
    tool_exchange(call, at, ("Execute", input), is_error, output)
}

#[test]
fn droid_shell_runs_are_read_with_the_exit_line_droid_appends() {
    let home = Home::new();
    let mut lines = opened("Fix the build");
    // `make test` fails, then passes: not failing. `cargo check` fails twice. A command
    // killed by a signal has no exit line; another tool's output with one is not a shell
    // run; a result that answers no call counts for nothing.
    lines.extend(execute(
        "c1",
        "2026-03-02T10:01:00.000Z",
        "make   test",
        "Error: Command failed (exit code: 2)\nFAIL\n\n[Process exited with code 2]",
        true,
    ));
    lines.extend(execute(
        "c2",
        "2026-03-02T10:02:00.000Z",
        "make test",
        "ok\n\n[Process exited with code 0]",
        false,
    ));
    lines.extend(execute(
        "c3",
        "2026-03-02T10:03:00.000Z",
        "cargo check",
        "Error: Command failed (exit code: 101)\nerror[E0308]\n\n[Process exited with code 101]",
        true,
    ));
    lines.extend(execute(
        "c4",
        "2026-03-02T10:04:00.000Z",
        "sleep 100",
        "Command terminated by signal: SIGKILL",
        true,
    ));
    lines.push(r#"{"type":"message","id":"a5","timestamp":"2026-03-02T10:05:00.000Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"c5","name":"Read","input":{"command":"not a shell"}}]}}"#.to_owned());
    lines.push(r#"{"type":"message","id":"r5","timestamp":"2026-03-02T10:05:00.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"c5","is_error":true,"content":"[Process exited with code 1]"},{"type":"tool_result","tool_use_id":"nobody","content":"[Process exited with code 1]"}]}}"#.to_owned());
    lines.extend(execute(
        "c6",
        "2026-03-02T10:06:00.000Z",
        "cargo check",
        "Error: Command failed (exit code: 101)\n\n[Process exited with code 101]",
        true,
    ));
    write(&home, &format!("{PROJECT}/{ID}.jsonl"), &lines.join("\n"));
    let output = home.read(Agent::Droid, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let found = session(&output, Agent::Droid, ID);
    assert_eq!(
        failed_runs(found),
        [(
            "cargo check",
            vec![(101, ts("2026-03-02T10:03:00Z")), (101, ts("2026-03-02T10:06:00Z"))]
        )]
    );
    // A custom model (BYOK) by the display name Droid shows.
    assert_eq!(found.models, ["Local-Qwen"]);
    assert_eq!(found.prompts.len(), 1);
}

#[test]
fn droid_a_sub_agent_s_shell_runs_are_not_its_caller_s() {
    let home = Home::new();
    write(&home, &format!("{PROJECT}/{ID}.jsonl"), &transcript(ID, "Main"));
    let child = "0b7e4a52-1c3d-4e5f-8a9b-0000000000c1";
    let mut task = vec![format!(
        r#"{{"type":"session_start","id":"{child}","title":"Scout","owner":"dev","callingSessionId":"{ID}","version":2,"cwd":"/home/dev/app"}}"#
    )];
    task.extend(execute(
        "c1",
        "2026-03-02T11:00:00.000Z",
        "npm test",
        "Error\n\n[Process exited with code 1]",
        true,
    ));
    write(&home, &format!("{PROJECT}/{child}.jsonl"), &task.join("\n"));
    let output = home.read(Agent::Droid, ts(SINCE));
    let main = session(&output, Agent::Droid, ID);
    assert!(main.failed_commands.is_empty(), "{:?}", main.failed_commands);
    assert!(main.activity.contains(&ts("2026-03-02T11:00:00Z")));
}

#[test]
fn droid_the_recorded_sessions_and_failed_command_are_read() {
    let home = Home::new();
    home.copy_fixture("agents/droid/0.225.2/home", "", ts("2026-12-06T03:37:16Z"));
    let output = home.read(Agent::Droid, ts("2026-12-06T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    // `agent_turn_outcome`, new in these files, is known.
    assert!(status(&output, Agent::Droid).unknown.is_empty());
    assert_eq!(output.events.len(), 3);
    for event in &output.events {
        // The injected context message before each prompt is not one.
        assert_eq!(event.prompts.len(), 1, "{}", event.session_id);
        assert_eq!(event.models, ["standin-model"], "{}", event.session_id);
        assert_eq!(event.cwd.as_deref(), Some(std::path::Path::new("/tmp/standup-agents/repo")));
    }
    // `droid exec` offers no to-do tool (`TodoWrite` is left out of its tools even when
    // asked for): the third session ran the failing command only.
    assert_eq!(scripted(&output), [(Vec::new(), recorded_failure())]);
    let third = session(&output, Agent::Droid, "dd80d29c-1c44-4a9b-8143-d1dd792e08f0");
    assert_eq!(third.title, "Plan the next steps in a to-do list, then run check.sh");
}

/// A `TodoWrite` call and its result, as the bundle's `TodoWrite` takes them
/// (`input.todos`: a string of lines or a list of items).
fn todo_write(call: &str, at: &str, todos: &serde_json::Value, is_error: bool) -> [String; 2] {
    let input = serde_json::json!({ "todos": todos });
    tool_exchange(call, at, ("TodoWrite", input), is_error, "TODO List Updated")
}

#[test]
fn droid_the_to_do_list_is_the_newest_todo_write_that_succeeded() {
    use report_model::TodoStatus::{Completed, InProgress, Pending};
    let home = Home::new();
    let mut lines = opened("Plan the release");
    // A first list as lines, a second as items, a third whose call failed.
    let first = serde_json::json!("1. [completed] Read the changelog\n2. [ ] Bump the version");
    let second = serde_json::json!([
        {"id": "1", "content": "Bump the version", "status": "completed", "priority": "high"},
        {"id": "2", "content": "Tag   the release", "status": "in_progress", "priority": "medium"},
        {"id": "3", "content": "Announce it", "status": "pending", "priority": "low"},
    ]);
    let third = serde_json::json!("[ ] Something the tool refused");
    lines.extend(todo_write("t1", "2026-03-02T10:01:00.000Z", &first, false));
    lines.extend(todo_write("t2", "2026-03-02T10:02:00.000Z", &second, false));
    lines.extend(todo_write("t3", "2026-03-02T10:03:00.000Z", &third, true));
    write(&home, &format!("{PROJECT}/{ID}.jsonl"), &lines.join("\n"));
    let output = home.read(Agent::Droid, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let found = session(&output, Agent::Droid, ID);
    assert_eq!(
        crate::support::todo_items(found),
        [
            ("Bump the version", Completed),
            ("Tag the release", InProgress),
            ("Announce it", Pending)
        ]
    );
}

#[test]
fn droid_a_todo_write_without_a_result_yet_is_the_list_when_none_succeeded() {
    use report_model::TodoStatus::Pending;
    let home = Home::new();
    let mut lines = vec![start(ID, "Plan")];
    let [call, _] =
        todo_write("t1", "2026-03-02T10:01:00.000Z", &serde_json::json!("- Write the spec"), false);
    lines.push(call);
    write(&home, &format!("{PROJECT}/{ID}.jsonl"), &lines.join("\n"));
    let output = home.read(Agent::Droid, ts(SINCE));
    let found = session(&output, Agent::Droid, ID);
    assert_eq!(crate::support::todo_items(found), [("Write the spec", Pending)]);
}
