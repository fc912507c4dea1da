//! Tests of the reader of VS Code's own Chat sessions (see
//! crates/collect/src/sessions/vscode_chat.rs).
//!
//! No VS Code runs here, so the files are written after VS Code's types (the module
//! names the source): a session document, `<id>.json`, and since 1.109 an operation
//! log, `<id>.jsonl`, in `workspaceStorage/<id>/chatSessions/`, in
//! `globalStorage/emptyWindowChatSessions/` and in `globalStorage/chatSessions/<id>/`.

use std::path::PathBuf;

use report_model::{Agent, TodoStatus, WarningCode};

use crate::support::{
    Home, assert_unreadable_times, failed_runs, session, set_mtime, spoil_first, status, times,
    todo_items, ts,
};

const SINCE: &str = "2026-03-02T00:00:00Z";
const USER: &str = ".config/Code/User";
/// 2026-03-02 10:00:00 UTC, in epoch milliseconds.
const T0: i64 = 1_772_445_600_000;

fn at(seconds: i64) -> i64 {
    T0 + seconds * 1000
}

/// Writes a file under the user folder, modified in the window.
fn write(home: &Home, relative: &str, text: &str) -> PathBuf {
    let path = home.write(&format!("{USER}/{relative}"), text);
    set_mtime(&path, ts("2026-03-02T12:00:00Z"));
    path
}

/// A session document: a prompt whose agent ran a failing terminal command and wrote a
/// to-do list, a hidden (undone) request, a second prompt as an old file's plain string.
fn document(id: &str) -> String {
    format!(
        r#"{{"version":3,"sessionId":"{id}","creationDate":{},"customTitle":"Login redirect","initialLocation":"panel","responderUsername":"GitHub Copilot","requests":[
{{"requestId":"r1","timestamp":{},"message":{{"text":"@workspace fix the   login redirect","parts":[]}},"modelId":"copilot/claude-sonnet-4","response":[
  {{"value":"Running the tests."}},
  {{"kind":"toolInvocationSerialized","toolId":"manage_todo_list","toolCallId":"c1","isComplete":true,"toolSpecificData":{{"kind":"todoList","todoList":[{{"id":1,"title":"Reproduce","status":"completed"}},{{"id":2,"title":"Fix the redirect","status":"in-progress"}},{{"id":3,"title":"Add a test","status":"not-started"}}]}}}},
  {{"kind":"toolInvocationSerialized","toolId":"run_in_terminal","toolCallId":"c2","isComplete":true,"toolSpecificData":{{"kind":"terminal","commandLine":{{"original":"npm test"}},"terminalCommandState":{{"exitCode":1,"timestamp":{}}}}}}},
  {{"kind":"toolInvocationSerialized","toolId":"run_in_terminal","toolCallId":"c3","isComplete":true,"toolSpecificData":{{"kind":"terminal","commandLine":{{"original":"npm run lint"}},"terminalCommandState":{{"exitCode":0}}}}}}
]}},
{{"requestId":"r2","timestamp":{},"message":{{"text":"undone request"}},"isHidden":true}},
{{"requestId":"r3","timestamp":{},"message":"and add a test","modelId":"copilot/gpt-4.1"}}
]}}"#,
        at(-60),
        at(0),
        at(30),
        at(120),
        at(300),
    )
}

#[test]
fn vscode_chat_documents_prompts_models_commands_lists_and_folders() {
    let home = Home::new();
    let id = "5b2f1c3e-1111-4aaa-9bbb-222233334444";
    write(&home, &format!("workspaceStorage/ws1/chatSessions/{id}.json"), &document(id));
    write(
        &home,
        "workspaceStorage/ws1/workspace.json",
        r#"{"folder":"file:///home/dev/my%20app"}"#,
    );
    let output = home.read(Agent::VsCode, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let found = session(&output, Agent::VsCode, id);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:00Z", "2026-03-02T10:05:00Z"]));
    assert_eq!(
        found.activity,
        times(&["2026-03-02T10:00:00Z", "2026-03-02T10:02:00Z", "2026-03-02T10:05:00Z"]),
        "the hidden request is activity, not a prompt"
    );
    assert_eq!(found.title, "Login redirect");
    assert_eq!(found.cwd, Some(PathBuf::from("/home/dev/my app")));
    assert_eq!(found.models, ["copilot/claude-sonnet-4", "copilot/gpt-4.1"]);
    let todos = todo_items(found);
    assert_eq!(
        todos,
        [
            ("Reproduce", TodoStatus::Completed),
            ("Fix the redirect", TodoStatus::InProgress),
            ("Add a test", TodoStatus::Pending)
        ]
    );
    let failed = failed_runs(found);
    assert_eq!(failed, [("npm test", vec![(1, ts("2026-03-02T10:00:30Z"))])]);
    let vscode = status(&output, Agent::VsCode);
    assert!(vscode.found);
    assert_eq!((vscode.files, vscode.entries), (1, 1));
    assert_eq!(vscode.locations, [home.path().join(USER)]);

    // Without a custom title, the first prompt (blanks collapsed) names it.
    let untitled = document(id).replace(r#""customTitle":"Login redirect","#, "");
    write(&home, &format!("workspaceStorage/ws1/chatSessions/{id}.json"), &untitled);
    let output = home.read(Agent::VsCode, ts(SINCE));
    assert_eq!(session(&output, Agent::VsCode, id).title, "@workspace fix the login redirect");
}

#[test]
fn vscode_chat_logs_are_replayed_and_read_before_their_document() {
    let home = Home::new();
    let id = "log-session";
    // The document is stale; the log beside it holds the session as it is now.
    write(
        &home,
        &format!("globalStorage/chatSessions/ws2/{id}.json"),
        r#"{"sessionId":"log-session","requests":[]}"#,
    );
    let lines = [
        format!(
            r#"{{"kind":0,"v":{{"version":3,"sessionId":"{id}","creationDate":{},"requests":[]}}}}"#,
            at(0)
        ),
        format!(
            r#"{{"kind":2,"k":["requests"],"v":[{{"requestId":"a","timestamp":{},"message":{{"text":"first try"}}}}]}}"#,
            at(10)
        ),
        // The request edited and sent again: the list cut back, the new one appended.
        format!(
            r#"{{"kind":2,"k":["requests"],"v":[{{"requestId":"b","timestamp":{},"message":{{"text":"second try"}},"response":[]}}],"i":0}}"#,
            at(20)
        ),
        r#"{"kind":1,"k":["requests",0,"modelId"],"v":"copilot/gpt-5"}"#.to_owned(),
        r#"{"kind":2,"k":["requests",0,"response"],"v":[{"kind":"toolInvocationSerialized","toolId":"run_in_terminal","toolSpecificData":{"kind":"terminal","commandLine":{"original":"cargo test"},"terminalCommandState":{"exitCode":101}}}]}"#.to_owned(),
        r#"{"kind":1,"k":["customTitle"],"v":"Second try"}"#.to_owned(),
        r#"{"kind":3,"k":["customTitle"]}"#.to_owned(),
    ];
    write(&home, &format!("globalStorage/chatSessions/ws2/{id}.jsonl"), &lines.join("\n"));
    write(&home, "workspaceStorage/ws2/workspace.json", r#"{"folder":"file:///home/dev/api"}"#);
    let output = home.read(Agent::VsCode, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let found = session(&output, Agent::VsCode, id);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:20Z"]));
    assert_eq!(found.title, "second try", "the custom title was deleted");
    assert_eq!(found.models, ["copilot/gpt-5"]);
    assert_eq!(found.cwd, Some(PathBuf::from("/home/dev/api")));
    assert_eq!(found.failed_commands[0].command, "cargo test");
    assert_eq!(found.failed_commands[0].runs[0].time, ts("2026-03-02T10:00:20Z"));
    assert_eq!(status(&output, Agent::VsCode).files, 1, "one session, two files");

    // A last line cut short (VS Code killed while writing): the rest is read, the line
    // is warned about.
    let mut cut = lines.join("\n");
    cut.push_str("\n{\"kind\":2,\"k\":[\"requests\"],\"v\":[{\"requestId\":\"c\"");
    write(&home, &format!("globalStorage/chatSessions/ws2/{id}.jsonl"), &cut);
    let output = home.read(Agent::VsCode, ts(SINCE));
    let warnings: Vec<_> = output.warnings.iter().map(report_model::Warning::code).collect();
    assert_eq!(warnings, [WarningCode::MalformedLines]);
    assert_eq!(session(&output, Agent::VsCode, id).prompts.len(), 1);
}

#[test]
fn vscode_chat_windows_without_a_folder_old_files_other_editors_and_none_yet() {
    let home = Home::new();
    let output = home.read(Agent::VsCode, ts(SINCE));
    let vscode = status(&output, Agent::VsCode);
    assert!(!vscode.found);
    assert_eq!(vscode.locations, [home.path().join(USER)]);

    write(&home, "globalStorage/emptyWindowChatSessions/e1.json", &document("e1"));
    let old = write(&home, "workspaceStorage/ws3/chatSessions/old.json", "not json");
    set_mtime(&old, ts("2026-02-20T00:00:00Z"));
    // VS Code Insiders' and a remote host's sessions are read too.
    let insiders = home.write(
        ".config/Code - Insiders/User/workspaceStorage/w/chatSessions/i1.json",
        document("i1"),
    );
    set_mtime(&insiders, ts("2026-03-02T12:00:00Z"));
    let remote = home
        .write(".vscode-server/data/User/workspaceStorage/w/chatSessions/r1.json", document("r1"));
    set_mtime(&remote, ts("2026-03-02T12:00:00Z"));
    let output = home.read(Agent::VsCode, ts(SINCE));
    assert!(output.warnings.is_empty(), "the old file is not opened: {:?}", output.warnings);
    let ids: Vec<&str> = output.events.iter().map(|event| event.session_id.as_str()).collect();
    assert_eq!(ids, ["e1", "i1", "r1"]);
    assert_eq!(session(&output, Agent::VsCode, "e1").cwd, None, "a window without a folder");
    let vscode = status(&output, Agent::VsCode);
    assert_eq!(vscode.files, 4);
    assert_eq!(vscode.locations.len(), 3);
    // The window bounds prompts and models.
    let output = home.read(Agent::VsCode, ts("2026-03-02T10:01:00Z"));
    let late = session(&output, Agent::VsCode, "e1");
    assert_eq!(late.prompts, times(&["2026-03-02T10:05:00Z"]));
    assert_eq!(late.models, ["copilot/gpt-4.1"]);
}

#[test]
fn vscode_chat_logs_set_past_a_list_s_end_and_note_entries_they_do_not_know() {
    let home = Home::new();
    let id = "sparse";
    let lines = [
        format!(
            r#"{{"kind":0,"v":{{"sessionId":"{id}","requests":[{{"requestId":"a","timestamp":{},"message":{{"text":"one"}}}}]}}}}"#,
            at(0)
        ),
        // A request set by its index, one past the list's end; an entry of a kind this
        // reader does not know.
        format!(
            r#"{{"kind":1,"k":["requests",1],"v":{{"requestId":"b","timestamp":{},"message":{{"text":"two"}}}}}}"#,
            at(60)
        ),
        r#"{"kind":7,"k":["requests"],"v":"whatever a newer VS Code means by it"}"#.to_owned(),
        // An index far past the end is no path VS Code writes: ignored, not a huge list.
        r#"{"kind":1,"k":["requests",999999999999],"v":{"requestId":"z"}}"#.to_owned(),
    ];
    write(&home, &format!("workspaceStorage/w/chatSessions/{id}.jsonl"), &lines.join("\n"));
    let output = home.read(Agent::VsCode, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let found = session(&output, Agent::VsCode, id);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:00Z", "2026-03-02T10:01:00Z"]));
    assert_eq!(status(&output, Agent::VsCode).unknown, ["log entry kind 7"]);
}

#[test]
fn vscode_chat_a_request_whose_time_is_no_time_is_warned_and_not_counted() {
    let home = Home::new();
    let id = "5b2f1c3e-1111-4aaa-9bbb-222233334444";
    let spoiled = spoil_first(&document(id), "timestamp");
    let path = write(&home, &format!("workspaceStorage/ws1/chatSessions/{id}.json"), &spoiled);
    let output = home.read(Agent::VsCode, ts(SINCE));
    assert_unreadable_times(&output, &path, "timestamp", 1);
    assert_eq!(session(&output, Agent::VsCode, id).prompts, times(&["2026-03-02T10:05:00Z"]));
}
