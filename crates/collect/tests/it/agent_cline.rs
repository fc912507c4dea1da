//! Tests of the Cline reader (see crates/collect/src/sessions/cline.rs).
//!
//! The files are shaped as `cline` 3.0.65 writes them (`fixtures/agents/cline/3.0.65/`):
//! per session a folder holding the manifest `<id>.json` and the conversation
//! `<id>.messages.json`.

use std::path::PathBuf;

use report_model::{Agent, WarningCode};

use crate::support::{Home, session, set_mtime, status, times, ts};

const SINCE: &str = "2026-03-02T00:00:00Z";
const ID: &str = "1772445600000_ab12c";
const SESSIONS: &str = ".cline/data/sessions";

fn manifest(id: &str, extra: &str) -> String {
    format!(
        r#"{{"version":1,"session_id":"{id}","source":"cli","pid":4242,"started_at":"2026-03-02T10:00:00.000Z","ended_at":"2026-03-02T10:09:00.000Z","exit_code":0,"status":"completed","interactive":true,"provider":"anthropic","model":"claude-sonnet-4-5","cwd":"/home/dev/app","workspace_root":"/home/dev/app","prompt":"Fix the login redirect","metadata":{{"sessionHistoryOrigin":{{"mode":"user","version":"3.0.65"}},"git":{{"branch":"fix/login"}},"title":"Login redirect"}}{extra}}}"#
    )
}

/// A conversation: a typed prompt, a reply calling `run_commands` with two lines (one
/// passes, one fails), their results, a `read_files` result (not a command), a reply in
/// another model, a second prompt in plan mode, and a reply before the window's end.
fn conversation(id: &str) -> String {
    format!(
        r#"{{"version":1,"updated_at":"2026-03-02T10:09:00.000Z","agent":"cline","sessionId":"{id}","messages":[
{{"id":"u1","role":"user","content":[{{"type":"text","text":"<user_input mode=\"act\">Fix the   login redirect</user_input>"}}],"ts":1772445600000}},
{{"id":"a1","role":"assistant","content":[{{"type":"text","text":"Running the tests."}},{{"type":"tool_use","id":"call_1","name":"run_commands","input":{{"commands":["npm test","npm run lint"]}}}}],"ts":1772445605000,"modelInfo":{{"id":"claude-sonnet-4-5","provider":"anthropic"}}}},
{{"id":"u2","role":"user","content":[{{"type":"tool_result","tool_use_id":"call_1","name":"run_commands","content":[{{"query":"npm test","result":"ok","success":true}},{{"query":"npm run lint","result":"[Command exited with code 1]","error":"Command exited with code 1","success":false}}]}}],"ts":1772445610000}},
{{"id":"u2b","role":"user","content":[{{"type":"tool_result","tool_use_id":"call_2","name":"read_files","content":[{{"query":"src/login.ts","result":"export {{}}","success":true}}]}}],"ts":1772445612000}},
{{"id":"a2","role":"assistant","content":[{{"type":"text","text":"Lint fails."}}],"ts":1772445615000,"modelInfo":{{"id":"gpt-5.1","provider":"openai"}}}},
{{"id":"u3","role":"user","content":[{{"type":"text","text":"<user_input mode=\"plan\">and plan the test</user_input>"}}],"ts":1772445900000}},
{{"id":"a3","role":"assistant","content":[{{"type":"text","text":"Plan."}}],"ts":1772445905000,"modelInfo":{{"id":"gpt-5.1","provider":"openai"}}}}
],"system_prompt":"You are Cline"}}"#
    )
}

/// Writes a session's two files, modified in the window.
fn write_session(home: &Home, id: &str, manifest: &str, conversation: &str) {
    for (name, text) in
        [(format!("{id}.json"), manifest), (format!("{id}.messages.json"), conversation)]
    {
        let path = home.write(&format!("{SESSIONS}/{id}/{name}"), text);
        set_mtime(&path, ts("2026-03-02T12:00:00Z"));
    }
}

#[test]
fn cline_prompts_models_commands_and_title() {
    let home = Home::new();
    write_session(&home, ID, &manifest(ID, ""), &conversation(ID));
    let output = home.read(Agent::Cline, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let found = session(&output, Agent::Cline, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:00Z", "2026-03-02T10:05:00Z"]));
    assert_eq!(
        found.activity,
        times(&[
            "2026-03-02T10:00:00Z",
            "2026-03-02T10:00:05Z",
            "2026-03-02T10:00:10Z",
            "2026-03-02T10:00:12Z",
            "2026-03-02T10:00:15Z",
            "2026-03-02T10:05:00Z",
            "2026-03-02T10:05:05Z",
            "2026-03-02T10:09:00Z",
        ])
    );
    assert_eq!(found.title, "Login redirect");
    assert_eq!(found.cwd, Some(PathBuf::from("/home/dev/app")));
    assert_eq!(found.branch.as_deref(), Some("fix/login"));
    assert_eq!(found.models, ["claude-sonnet-4-5", "gpt-5.1"]);
    let failed: Vec<(&str, Vec<i64>)> = found
        .failed_commands
        .iter()
        .map(|failed| (failed.command.as_str(), failed.runs.iter().map(|run| run.exit).collect()))
        .collect();
    // `npm test` passed; the lint's failure is the last command the session ran (a file
    // read is not one).
    assert_eq!(failed, [("npm run lint", vec![1])]);
    assert!(found.failed_commands[0].last);
    let cline = status(&output, Agent::Cline);
    assert!(cline.found);
    assert_eq!((cline.files, cline.entries), (1, 1));
    assert_eq!(cline.versions, ["3.0.65"]);
    assert!(cline.unknown.is_empty(), "{:?}", cline.unknown);
}

#[test]
fn cline_title_falls_back_to_the_typed_prompt_and_model_to_the_manifest() {
    let home = Home::new();
    let untitled = manifest(ID, "").replace(r#","title":"Login redirect""#, r#","title":"  ""#);
    let no_models = conversation(ID)
        .replace(r#","modelInfo":{"id":"claude-sonnet-4-5","provider":"anthropic"}"#, "")
        .replace(r#","modelInfo":{"id":"gpt-5.1","provider":"openai"}"#, "");
    write_session(&home, ID, &untitled, &no_models);
    let output = home.read(Agent::Cline, ts(SINCE));
    let found = session(&output, Agent::Cline, ID);
    // The wrapper is not part of what the person typed; blanks are collapsed.
    assert_eq!(found.title, "Fix the login redirect");
    assert_eq!(found.models, ["claude-sonnet-4-5"]);
}

#[test]
fn cline_sub_agent_sessions_are_activity_of_their_parent() {
    let home = Home::new();
    write_session(&home, ID, &manifest(ID, ""), &conversation(ID));
    let child = "1772445700000_cd34e";
    let child_manifest =
        manifest(child, &format!(r#","parent_session_id":"{ID}","is_subagent":true"#));
    let child_conversation = conversation(child)
        .replace("1772445600000", "1772449200000")
        .replace("npm run lint", "cargo test");
    write_session(&home, child, &child_manifest, &child_conversation);
    // One naming its parent alone, without the flag: a sub-agent all the same.
    let second = "1772445700001_cd34f";
    let second_manifest = manifest(second, &format!(r#","parent_session_id":"{ID}""#));
    let second_conversation = conversation(second).replace("17724456", "17724528");
    write_session(&home, second, &second_manifest, &second_conversation);
    let output = home.read(Agent::Cline, ts(SINCE));
    let ids: Vec<&str> = output.events.iter().map(|event| event.session_id.as_str()).collect();
    assert_eq!(ids, [ID]);
    let main = session(&output, Agent::Cline, ID);
    // The sub-agent's typed-looking prompt (11:00) is activity, not a prompt; its failed
    // command is not the main chain's.
    assert_eq!(main.prompts.len(), 2);
    assert!(main.activity.contains(&ts("2026-03-02T11:00:00Z")));
    assert_eq!(main.title, "Login redirect");
    assert_eq!(main.failed_commands.len(), 1);
    assert_eq!(status(&output, Agent::Cline).files, 3);
}

#[test]
fn cline_old_sessions_are_not_opened_and_the_window_bounds_prompts_and_models() {
    let home = Home::new();
    write_session(&home, ID, &manifest(ID, ""), &conversation(ID));
    let old = "1772000000000_old00";
    write_session(&home, old, "not json", "not json");
    for name in [format!("{old}.json"), format!("{old}.messages.json")] {
        set_mtime(
            &home.path().join(format!("{SESSIONS}/{old}/{name}")),
            ts("2026-02-20T00:00:00Z"),
        );
    }
    let folder = home.path().join(format!("{SESSIONS}/{old}"));
    let old_time = filetime::FileTime::from_unix_time(ts("2026-02-20T00:00:00Z").as_second(), 0);
    filetime::set_file_mtime(folder, old_time).unwrap();
    // A conversation rewritten in place: its folder and manifest keep their old times.
    let in_place = "1772000000001_inpla";
    write_session(&home, in_place, &manifest(in_place, ""), &conversation(in_place));
    for name in [String::new(), format!("/{in_place}.json")] {
        let path = home.path().join(format!("{SESSIONS}/{in_place}{name}"));
        filetime::set_file_mtime(path, old_time).unwrap();
    }
    let output = home.read(Agent::Cline, ts("2026-03-02T10:04:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(status(&output, Agent::Cline).files, 3);
    assert!(output.events.iter().any(|event| event.session_id == in_place), "read all the same");
    let found = session(&output, Agent::Cline, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T10:05:00Z"]));
    assert_eq!(found.models, ["gpt-5.1"]);
}

#[test]
fn cline_broken_files_are_warned_and_odd_shapes_noted() {
    let home = Home::new();
    // A conversation cut short: the manifest still gives the session.
    write_session(&home, ID, &manifest(ID, ""), r#"{"messages":[{"role":"user""#);
    // Messages of other shapes: a string, a role no reader knows, content not a list.
    let other = "1772445600001_ef56g";
    let odd = r#"{"messages":["stray",{"role":"system","content":[],"ts":1772445600000},{"role":"user","content":"plain","ts":1772445601000}]}"#;
    let scheduled = manifest(other, "").replace(r#""mode":"user""#, r#""mode":"schedule""#);
    write_session(&home, other, &scheduled, odd);
    let output = home.read(Agent::Cline, ts(SINCE));
    let warnings: Vec<_> = output.warnings.iter().map(report_model::Warning::code).collect();
    assert_eq!(warnings, [WarningCode::MalformedLines], "{:?}", output.warnings);
    let broken = session(&output, Agent::Cline, ID);
    assert!(broken.prompts.is_empty());
    assert_eq!(broken.activity, times(&["2026-03-02T10:00:00Z", "2026-03-02T10:09:00Z"]));
    assert_eq!(broken.title, "Login redirect");
    let odd = session(&output, Agent::Cline, other);
    assert!(odd.prompts.is_empty(), "a content that is not a list holds no typed block");
    assert_eq!(
        status(&output, Agent::Cline).unknown,
        ["message role system", "message that is not an object", "session origin schedule"]
    );
}

#[test]
fn cline_with_no_session_yet_is_found() {
    let home = Home::new();
    let output = home.read(Agent::Cline, ts(SINCE));
    assert!(!status(&output, Agent::Cline).found);
    fs_err::create_dir_all(home.path().join(SESSIONS)).unwrap();
    let output = home.read(Agent::Cline, ts(SINCE));
    let cline = status(&output, Agent::Cline);
    assert!(cline.found && output.events.is_empty());
    assert_eq!(cline.files, 0);
}

#[test]
fn cline_folders_follow_its_variables() {
    let home = Home::new();
    let data = home.path().join("cline-data");
    let home = home.var("CLINE_DATA_DIR", data.display().to_string());
    write_session(&home, ID, &manifest(ID, ""), &conversation(ID));
    let moved = "1772445600002_gh78i";
    let path =
        home.write(&format!("cline-data/sessions/{moved}/{moved}.json"), manifest(moved, ""));
    set_mtime(&path, ts("2026-03-02T12:00:00Z"));
    let output = home.read(Agent::Cline, ts(SINCE));
    let ids: Vec<&str> = output.events.iter().map(|event| event.session_id.as_str()).collect();
    assert_eq!(ids, [moved]);
    assert_eq!(status(&output, Agent::Cline).locations, [data.join("sessions")]);
    // A relative folder is not followed (Cline would resolve it where it ran).
    let home = home.var("CLINE_DATA_DIR", "cline-data".to_owned());
    let output = home.read(Agent::Cline, ts(SINCE));
    let ids: Vec<&str> = output.events.iter().map(|event| event.session_id.as_str()).collect();
    assert_eq!(ids, [ID]);
    // `CLINE_SESSION_DATA_DIR` wins over both.
    let sessions = home.path().join("only-sessions");
    let home = home
        .var("CLINE_DATA_DIR", data.display().to_string())
        .var("CLINE_SESSION_DATA_DIR", sessions.display().to_string());
    let output = home.read(Agent::Cline, ts(SINCE));
    assert!(output.events.is_empty());
    assert_eq!(status(&output, Agent::Cline).locations, [sessions]);
}
