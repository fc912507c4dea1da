//! Tests of the Continue reader (see crates/collect/src/sessions/continue_dev.rs).
//!
//! The files are shaped as `cn` 1.5.47 writes them (`fixtures/agents/continue/1.5.47/`):
//! `~/.continue/sessions/<id>.json` per session and the index `sessions.json`.

use std::path::PathBuf;

use report_model::{Agent, TodoStatus, WarningCode};

use crate::support::{
    Home, failed_runs, recorded_todos, scripted, session, set_mtime, status, times, todo_items, ts,
};

const SINCE: &str = "2026-03-02T00:00:00Z";
const ID: &str = "3f1c2a9e-0b7d-4e61-9a55-2c1f0d6b7e11";
const SESSIONS: &str = ".continue/sessions";

/// A session: three typed prompts (a string, a list of parts, a string), between them a
/// `Checklist` written twice, a `Bash` run that passed and one that failed with its exit
/// code, a context-only user message (no text), and replies naming their model.
fn session_file(id: &str, title: &str, workspace: &str) -> String {
    format!(
        r#"{{"sessionId":"{id}","title":"{title}","workspaceDirectory":"{workspace}","history":[
{{"message":{{"role":"user","content":"Fix the   login redirect"}},"contextItems":[],"editorState":"Fix the login redirect"}},
{{"message":{{"role":"assistant","content":"","toolCalls":[{{"id":"c1","type":"function","function":{{"name":"Checklist","arguments":"{{}}"}}}}],"usage":{{"model":"claude-sonnet-4-5"}}}},"contextItems":[],"toolCallStates":[{{"toolCallId":"c1","toolCall":{{"id":"c1","type":"function","function":{{"name":"Checklist","arguments":"{{\"checklist\":\"- [ ] Reproduce\\n- [ ] Fix\"}}"}}}},"status":"done","parsedArgs":{{"checklist":"- [ ] Reproduce\n- [ ] Fix"}},"output":[{{"content":"Task list status"}}]}}]}},
{{"message":{{"role":"assistant","content":"","usage":{{"model":"claude-sonnet-4-5"}}}},"contextItems":[],"toolCallStates":[{{"toolCallId":"c2","toolCall":{{"id":"c2","type":"function","function":{{"name":"Bash","arguments":"{{\"command\":\"npm test\"}}"}}}},"status":"done","parsedArgs":{{"command":"npm test"}},"output":[{{"content":"ok"}}]}}]}},
{{"message":{{"role":"user","content":[{{"type":"text","text":"now run"}},{{"type":"imageUrl","imageUrl":{{"url":"data:"}}}},{{"type":"text","text":"the lint"}}]}},"contextItems":[]}},
{{"message":{{"role":"assistant","content":"","usage":{{"model":"gpt-5.1"}}}},"contextItems":[],"toolCallStates":[{{"toolCallId":"c3","toolCall":{{"id":"c3","type":"function","function":{{"name":"Bash","arguments":"{{\"command\":\"npm run lint\"}}"}}}},"status":"errored","output":[{{"content":"Error executing tool Bash: Error (exit code 1): 2 problems\n"}}]}},{{"toolCallId":"c4","toolCall":{{"id":"c4","type":"function","function":{{"name":"Bash","arguments":"{{\"command\":\"rm -rf build\"}}"}}}},"status":"canceled","parsedArgs":{{"command":"rm -rf build"}}}}]}},
{{"message":{{"role":"user","content":""}},"contextItems":[{{"name":"file.ts","content":"x"}}]}},
{{"message":{{"role":"user","content":"and update the list"}},"contextItems":[]}},
{{"message":{{"role":"assistant","content":"Done.","usage":{{"model":"gpt-5.1"}}}},"contextItems":[],"toolCallStates":[{{"toolCallId":"c5","toolCall":{{"id":"c5","type":"function","function":{{"name":"Checklist","arguments":""}}}},"status":"done","parsedArgs":{{"checklist":"- [x] Reproduce\n- [x] Fix\n- [ ] Lint"}}}}]}}
],"usage":{{"totalCost":0.01}}}}"#
    )
}

/// The index entry of a session created at `created` (epoch ms, as text).
fn index(entries: &[(&str, &str)]) -> String {
    let items: Vec<String> = entries
        .iter()
        .map(|(id, created)| {
            format!(
                r#"{{"sessionId":"{id}","title":"Untitled Session","dateCreated":"{created}","workspaceDirectory":"/home/dev/app","messageCount":3}}"#
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// Writes a session file last written at `written`.
fn write_session(home: &Home, id: &str, text: &str, written: &str) {
    let path = home.write(&format!("{SESSIONS}/{id}.json"), text);
    set_mtime(&path, ts(written));
}

#[test]
fn continue_prompts_are_spread_from_creation_to_the_last_write() {
    let home = Home::new();
    // Created 10:00 (1772445600000 ms), last written 10:30.
    home.write(&format!("{SESSIONS}/sessions.json"), index(&[(ID, "1772445600000")]));
    write_session(
        &home,
        ID,
        &session_file(ID, "Login redirect", "/home/dev/app"),
        "2026-03-02T10:30:00Z",
    );
    let output = home.read(Agent::Continue, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let found = session(&output, Agent::Continue, ID);
    assert_eq!(
        found.prompts,
        times(&["2026-03-02T10:00:00Z", "2026-03-02T10:15:00Z", "2026-03-02T10:30:00Z"])
    );
    assert_eq!(found.activity, found.prompts);
    assert_eq!(found.title, "Login redirect");
    assert_eq!(found.cwd, Some(PathBuf::from("/home/dev/app")));
    assert_eq!(found.models, ["claude-sonnet-4-5", "gpt-5.1"]);
    // The newest list, written in the third turn.
    let todos = todo_items(found);
    assert_eq!(
        todos,
        [
            ("Reproduce", TodoStatus::Completed),
            ("Fix", TodoStatus::Completed),
            ("Lint", TodoStatus::Pending)
        ]
    );
    assert_eq!(found.todos_time, Some(ts("2026-03-02T10:30:00Z")));
    // `npm test` passed; the lint failed in the second turn (its arguments read from the
    // call, as it has no `parsedArgs`); the cancelled run told nothing.
    assert_eq!(failed_runs(found), [("npm run lint", vec![(1, ts("2026-03-02T10:15:00Z"))])]);
    let continue_ = status(&output, Agent::Continue);
    assert!(continue_.found);
    assert_eq!((continue_.files, continue_.entries), (1, 1));
    assert!(continue_.unknown.is_empty(), "{:?}", continue_.unknown);
}

#[test]
fn continue_placeholder_titles_uris_and_the_model_s_title() {
    let home = Home::new();
    home.write(
        &format!("{SESSIONS}/sessions.json"),
        index(&[(ID, "1772445600000"), ("b", "2026-03-02T11:00:00.000Z")]),
    );
    write_session(
        &home,
        ID,
        &session_file(ID, "Untitled Session", "file:///home/dev/my%20app"),
        "2026-03-02T10:30:00Z",
    );
    let no_usage = session_file("b", "New Session", "relative/dir")
        .replace(r#","usage":{"model":"claude-sonnet-4-5"}"#, "")
        .replace(r#","usage":{"model":"gpt-5.1"}"#, "")
        .replace(r#""history""#, r#""chatModelTitle":"claude-opus-4-1","history""#);
    write_session(&home, "b", &no_usage, "2026-03-02T11:20:00Z");
    let output = home.read(Agent::Continue, ts(SINCE));
    let found = session(&output, Agent::Continue, ID);
    assert_eq!(found.title, "Fix the login redirect", "the first prompt, blanks collapsed");
    assert_eq!(found.cwd, Some(PathBuf::from("/home/dev/my app")));
    let other = session(&output, Agent::Continue, "b");
    assert_eq!(other.title, "Fix the login redirect");
    assert_eq!(other.cwd, None, "a relative folder names no place");
    assert_eq!(other.models, ["claude-opus-4-1"]);
    // An ISO creation time is read too.
    assert_eq!(other.prompts[0], ts("2026-03-02T11:00:00Z"));
}

#[test]
fn continue_without_an_index_starts_at_the_last_write_and_old_files_are_not_opened() {
    let home = Home::new();
    write_session(
        &home,
        ID,
        &session_file(ID, "Login redirect", "/home/dev/app"),
        "2026-03-02T10:30:00Z",
    );
    write_session(&home, "old", "not json", "2026-02-20T00:00:00Z");
    let output = home.read(Agent::Continue, ts(SINCE));
    assert!(output.warnings.is_empty(), "the old file was not opened: {:?}", output.warnings);
    let found = session(&output, Agent::Continue, ID);
    // Born after its last write (written here, then dated back), so no span: the three
    // prompts end at the last write, a millisecond apart, each counted.
    let at_the_write =
        times(&["2026-03-02T10:29:59.998Z", "2026-03-02T10:29:59.999Z", "2026-03-02T10:30:00Z"]);
    assert_eq!(found.prompts, at_the_write);
    assert_eq!(found.activity, at_the_write);
    assert_eq!(status(&output, Agent::Continue).files, 2);
    // Created before the window, written in it: only the prompts placed in it count.
    home.write(&format!("{SESSIONS}/sessions.json"), index(&[(ID, "1772445600000")]));
    set_mtime(&home.path().join(format!("{SESSIONS}/{ID}.json")), ts("2026-03-02T10:30:00Z"));
    let output = home.read(Agent::Continue, ts("2026-03-02T10:10:00Z"));
    let found = session(&output, Agent::Continue, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T10:15:00Z", "2026-03-02T10:30:00Z"]));
    assert_eq!(found.models, ["gpt-5.1"], "the first turn's model is before the window");
}

#[test]
fn continue_broken_files_are_warned_and_odd_shapes_noted() {
    let home = Home::new();
    write_session(
        &home,
        "cut",
        r#"{"sessionId":"cut","history":[{"message""#,
        "2026-03-02T10:30:00Z",
    );
    let odd = r#"{"sessionId":"odd","title":"Odd","history":["stray",{"message":{"role":"critic","content":"x"}},{"message":{"role":"user","content":"still read"}}]}"#;
    write_session(&home, "odd", odd, "2026-03-02T10:40:00Z");
    home.write(&format!("{SESSIONS}/sessions.json"), "not an index");
    let output = home.read(Agent::Continue, ts(SINCE));
    let warnings: Vec<_> = output.warnings.iter().map(report_model::Warning::code).collect();
    assert_eq!(
        warnings,
        [WarningCode::MalformedLines, WarningCode::MalformedLines],
        "{:?}",
        output.warnings
    );
    let text = format!("{:?}", output.warnings);
    assert!(text.contains("cut.json") && text.contains("sessions.json"), "{text}");
    assert!(output.events.iter().all(|event| event.session_id != "cut"));
    let odd = session(&output, Agent::Continue, "odd");
    assert_eq!(odd.prompts, times(&["2026-03-02T10:40:00Z"]));
    assert_eq!(odd.title, "Odd");
    assert_eq!(
        status(&output, Agent::Continue).unknown,
        ["history item that is not an object", "message role critic"]
    );
}

#[test]
fn continue_folders_from_the_variable_and_none_yet() {
    let home = Home::new();
    let output = home.read(Agent::Continue, ts(SINCE));
    assert!(!status(&output, Agent::Continue).found);
    let elsewhere = home.path().join("cfg/continue");
    let home = home.var("CONTINUE_GLOBAL_DIR", elsewhere.to_string_lossy());
    write_session(
        &home,
        ID,
        &session_file(ID, "Login redirect", "/home/dev/app"),
        "2026-03-02T10:30:00Z",
    );
    let output = home.read(Agent::Continue, ts(SINCE));
    assert!(output.events.is_empty(), "the variable moves the folder away from ~/.continue");
    assert_eq!(status(&output, Agent::Continue).locations, [elsewhere.join("sessions")]);
    fs_err::create_dir_all(elsewhere.join("sessions")).unwrap();
    let output = home.read(Agent::Continue, ts(SINCE));
    let continue_ = status(&output, Agent::Continue);
    assert!(continue_.found && output.events.is_empty());
    let path = home.write(
        &format!("cfg/continue/sessions/{ID}.json"),
        session_file(ID, "Login redirect", "/home/dev/app"),
    );
    set_mtime(&path, ts("2026-03-02T10:30:00Z"));
    let output = home.read(Agent::Continue, ts(SINCE));
    session(&output, Agent::Continue, ID);
    // A relative value is not followed (Continue resolves it against where it ran).
    let home = Home::new().var("CONTINUE_GLOBAL_DIR", "cfg/continue");
    let output = home.read(Agent::Continue, ts(SINCE));
    assert_eq!(
        status(&output, Agent::Continue).locations,
        [home.path().join(".continue/sessions")]
    );
}

#[test]
fn continue_recorded_list_and_failed_command_are_read() {
    let home = Home::new();
    home.copy_fixture(
        "agents/continue/1.5.47/home/.continue",
        ".continue",
        ts("2026-12-05T18:10:30Z"),
    );
    let output = home.read(Agent::Continue, ts("2026-12-05T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let scripted = scripted(&output);
    assert_eq!(scripted.len(), 1, "{scripted:?}");
    let (todos, failed) = &scripted[0];
    assert_eq!(todos, &recorded_todos());
    assert_eq!(failed, &vec![("sh check.sh".to_owned(), Some(3), 1, true)]);
}

#[test]
fn continue_a_command_typed_in_shell_mode_is_at_its_own_time() {
    let home = Home::new();
    home.write(&format!("{SESSIONS}/sessions.json"), index(&[(ID, "1772445600000")]));
    // As the interactive `cn` saves `!make check`: an assistant message with one `Bash`
    // call whose id holds the time it ran (10:07:00), after the session's one prompt.
    let text = format!(
        r#"{{"sessionId":"{ID}","title":"Build","workspaceDirectory":"/home/dev/app","history":[
{{"message":{{"role":"user","content":"build it"}},"contextItems":[]}},
{{"message":{{"role":"assistant","content":"ok","usage":{{"model":"m1"}}}},"contextItems":[]}},
{{"message":{{"role":"assistant","content":"","toolCalls":[]}},"contextItems":[],"toolCallStates":[{{"toolCallId":"shell-1772446020000-k3x9q1","toolCall":{{"id":"shell-1772446020000-k3x9q1","type":"function","function":{{"name":"Bash","arguments":"{{\"command\":\"make check\"}}"}}}},"status":"errored","parsedArgs":{{"command":"make check"}},"output":[{{"content":"Error (exit code 2): make: *** [check] Error 1"}}]}}]}}
]}}"#
    );
    write_session(&home, ID, &text, "2026-03-02T10:30:00Z");
    let output = home.read(Agent::Continue, ts(SINCE));
    let found = session(&output, Agent::Continue, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:00Z"]));
    let runs: Vec<(&str, i64, _)> = found
        .failed_commands
        .iter()
        .flat_map(|failed| {
            failed.runs.iter().map(|run| (failed.command.as_str(), run.exit, run.time))
        })
        .collect();
    assert_eq!(runs, [("make check", 2, ts("2026-03-02T10:07:00Z"))]);
}

#[test]
fn continue_a_failure_fixed_later_is_not_open_and_an_errored_list_is_not_kept() {
    let home = Home::new();
    home.write(&format!("{SESSIONS}/sessions.json"), index(&[(ID, "1772445600000")]));
    let bash = |id: &str, status: &str, output: &str| {
        format!(
            r#"{{"toolCallId":"{id}","toolCall":{{"id":"{id}","type":"function","function":{{"name":"Bash","arguments":"{{\"command\":\"npm run lint\"}}"}}}},"status":"{status}","parsedArgs":{{"command":"npm run lint"}},"output":[{{"content":"{output}"}}]}}"#
        )
    };
    let checklist = |id: &str, status: &str, list: &str| {
        format!(
            r#"{{"toolCallId":"{id}","toolCall":{{"id":"{id}","type":"function","function":{{"name":"Checklist","arguments":"{{}}"}}}},"status":"{status}","parsedArgs":{{"checklist":"{list}"}}}}"#
        )
    };
    let text = format!(
        r#"{{"sessionId":"{ID}","title":"Lint","workspaceDirectory":"/home/dev/app","history":[
{{"message":{{"role":"user","content":"fix the lint"}},"contextItems":[]}},
{{"message":{{"role":"assistant","content":""}},"contextItems":[],"toolCallStates":[{},{}]}},
{{"message":{{"role":"user","content":"again"}},"contextItems":[]}},
{{"message":{{"role":"assistant","content":""}},"contextItems":[],"toolCallStates":[{},{}]}}
]}}"#,
        bash("c1", "errored", "Error (exit code 1): 3 problems"),
        checklist("c2", "done", "- [ ] Fix the lint"),
        bash("c3", "done", "ok"),
        checklist("c4", "errored", "- [x] Fix the lint"),
    );
    write_session(&home, ID, &text, "2026-03-02T10:30:00Z");
    // Neither a file hidden by its dot nor a folder named like a session is one.
    write_session(&home, ".draft", "not json", "2026-03-02T10:30:00Z");
    fs_err::create_dir_all(home.path().join(format!("{SESSIONS}/folder.json"))).unwrap();
    let output = home.read(Agent::Continue, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(status(&output, Agent::Continue).files, 1);
    let found = session(&output, Agent::Continue, ID);
    assert!(found.failed_commands.is_empty(), "it passed at 10:30: {:?}", found.failed_commands);
    let todos = todo_items(found);
    assert_eq!(todos, [("Fix the lint", TodoStatus::Pending)], "the errored call wrote nothing");
}
