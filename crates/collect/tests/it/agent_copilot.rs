//! Tests of the copilot reader (see crates/collect/src/sessions/copilot.rs).
//!
//! The lines are in the shape GitHub Copilot CLI 1.0.x writes them (`{type, data, id,
//! timestamp, parentId}`, fields as in its `session-events.schema.json`).

use std::path::PathBuf;

use report_model::{Agent, WarningCode};

use crate::support::{
    Home, assert_unreadable_times, failed_runs, recorded_failure, scripted, session, set_mtime,
    status, times, ts,
};

const ID: &str = "381474ec-066a-4e9b-8a13-14b602e419dd";

fn line(kind: &str, time: &str, data: &str) -> String {
    format!(
        r#"{{"type":"{kind}","data":{data},"id":"e-{time}","timestamp":"{time}","parentId":null}}"#
    ) + "\n"
}

/// A session: started, a model chosen, typed and injected messages, replies, shut down.
fn events() -> String {
    [
        line(
            "session.start",
            "2026-06-18T09:00:00.000Z",
            &format!(
                r#"{{"sessionId":"{ID}","version":1,"producer":"copilot-agent","copilotVersion":"1.0.102","startTime":"2026-06-18T09:00:00.000Z","selectedModel":"claude-sonnet-4.5","context":{{"cwd":"/work/app","gitRoot":"/work/app","branch":"main","repository":"me/app"}},"alreadyInUse":false}}"#
            ),
        ),
        line("session.model_change", "2026-06-18T09:00:01.000Z", r#"{"newModel":"gpt-5.4","reasoningEffort":null}"#),
        line("system.message", "2026-06-18T09:00:02.000Z", r#"{"role":"system","content":"You are the GitHub Copilot CLI"}"#),
        line(
            "user.message",
            "2026-06-18T09:01:00.000Z",
            r#"{"content":"Fix the flaky parser test","transformedContent":"<current_datetime>2026-06-18</current_datetime>\n\nFix the flaky parser test","attachments":[],"agentMode":"interactive","interactionId":"i1"}"#,
        ),
        line("assistant.turn_start", "2026-06-18T09:01:01.000Z", r#"{"turnId":"0"}"#),
        line(
            "assistant.message",
            "2026-06-18T09:01:05.000Z",
            r#"{"messageId":"m1","content":"Looking.","toolRequests":[],"model":"gpt-5.4"}"#,
        ),
        // Injected: a skill's hidden message, an autopilot continuation, a sub-agent's.
        line("user.message", "2026-06-18T09:02:00.000Z", r#"{"content":"Skill context","source":"skill-pdf"}"#),
        line("user.message", "2026-06-18T09:03:00.000Z", r#"{"content":"","isAutopilotContinuation":true,"agentMode":"autopilot"}"#),
        line("user.message", "2026-06-18T09:04:00.000Z", r#"{"content":"Search the repo","parentToolCallId":"call-1"}"#),
        r#"{"type":"assistant.message","data":{"messageId":"m2","content":"found","model":"claude-haiku-4.5"},"id":"e-s","timestamp":"2026-06-18T09:04:30.000Z","parentId":null,"agentId":"explore-1"}"#.to_owned()
            + "\n",
        line("user.message", "2026-06-18T10:00:00.000Z", r#"{"content":"Now run the tests","source":"user","delivery":"queued"}"#),
        line("session.future_thing", "2026-06-18T10:00:30.000Z", "{}"),
        line("session.shutdown", "2026-06-18T10:01:00.000Z", r#"{"shutdownType":"routine","totalApiDurationMs":10,"sessionStartTime":1781773200000,"codeChanges":{"linesAdded":0,"linesRemoved":0,"filesModified":[]},"modelMetrics":{},"currentModel":"gpt-5.4"}"#),
    ]
    .concat()
}

fn workspace(name: &str, user_named: bool) -> String {
    format!(
        "id: {ID}\ncwd: /work/elsewhere\ngit_root: /work/elsewhere\nbranch: other\nname: {name}\nuser_named: {user_named}\nsummary_count: 0\ncreated_at: 2026-06-18T09:00:00.000Z\nupdated_at: 2026-06-18T10:01:00.000Z\n"
    )
}

#[test]
fn copilot_reads_typed_prompts_title_cwd_branch_models_and_version() {
    let home = Home::new();
    home.write(&format!(".copilot/session-state/{ID}/events.jsonl"), events());
    home.write(
        &format!(".copilot/session-state/{ID}/workspace.yaml"),
        workspace("Parser fixes", true),
    );
    let output = home.read(Agent::Copilot, ts("2026-06-18T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::Copilot, ID);
    assert_eq!(event.prompts, times(&["2026-06-18T09:01:00Z", "2026-06-18T10:00:00Z"]));
    assert_eq!(event.activity.len(), 13);
    assert_eq!(event.title, "Parser fixes");
    assert_eq!(event.cwd, Some(PathBuf::from("/work/app")));
    assert_eq!(event.branch.as_deref(), Some("main"));
    assert_eq!(event.models, ["claude-sonnet-4.5", "gpt-5.4"]);
    let status = status(&output, Agent::Copilot);
    assert!(status.found);
    assert_eq!((status.files, status.entries), (1, 1));
    assert_eq!(status.versions, ["1.0.102"]);
    assert_eq!(status.unknown, ["session.future_thing"]);
}

#[test]
fn copilot_title_falls_back_to_the_summary_then_the_first_prompt() {
    let home = Home::new();
    // A non-interactive run's name is the prompt cut short: no title.
    home.write(&format!(".copilot/session-state/{ID}/events.jsonl"), events());
    home.write(
        &format!(".copilot/session-state/{ID}/workspace.yaml"),
        workspace("Fix the flaky...", false),
    );
    let output = home.read(Agent::Copilot, ts("2026-06-18T00:00:00Z"));
    assert_eq!(session(&output, Agent::Copilot, ID).title, "Fix the flaky parser test");

    // A model-given name (`user_named: false`, not cut from the prompt) is a title.
    home.write(
        &format!(".copilot/session-state/{ID}/workspace.yaml"),
        workspace("Stabilise parser tests", false),
    );
    let output = home.read(Agent::Copilot, ts("2026-06-18T00:00:00Z"));
    assert_eq!(session(&output, Agent::Copilot, ID).title, "Stabilise parser tests");

    // No name: the summary.
    home.write(
        &format!(".copilot/session-state/{ID}/workspace.yaml"),
        "id: x\nsummary: Parser work\n",
    );
    let output = home.read(Agent::Copilot, ts("2026-06-18T00:00:00Z"));
    assert_eq!(session(&output, Agent::Copilot, ID).title, "Parser work");
}

#[test]
fn copilot_workspace_gives_cwd_when_the_events_do_not() {
    let home = Home::new();
    home.write(
        &format!(".copilot/session-state/{ID}/events.jsonl"),
        line("user.message", "2026-06-18T09:01:00.000Z", r#"{"content":"hello"}"#),
    );
    home.write(&format!(".copilot/session-state/{ID}/workspace.yaml"), workspace("Greeting", true));
    let output = home.read(Agent::Copilot, ts("2026-06-18T00:00:00Z"));
    let event = session(&output, Agent::Copilot, ID);
    assert_eq!(event.cwd, Some(PathBuf::from("/work/elsewhere")));
    assert_eq!(event.branch.as_deref(), Some("other"));
    assert_eq!(event.prompts.len(), 1);
}

#[test]
fn copilot_honours_copilot_home_and_skips_folders_without_events() {
    let home = Home::new();
    let root = home.path().join("elsewhere");
    home.write(&format!("elsewhere/session-state/{ID}/events.jsonl"), events());
    // Folders the CLI left without events (e.g. by `--resume`): silent.
    home.write(
        "elsewhere/session-state/f35d8fc1-f713-4ecd-bad6-ca09a07cb1f6/workspace.yaml",
        "id: f\n",
    );
    // Not read: `~/.copilot` when `COPILOT_HOME` names another folder.
    home.write(".copilot/session-state/other/events.jsonl", events().replace(ID, "other-id"));
    let home = home.var("COPILOT_HOME", root.to_string_lossy());
    let output = home.read(Agent::Copilot, ts("2026-06-18T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(output.events.len(), 1);
    session(&output, Agent::Copilot, ID);
    let status = status(&output, Agent::Copilot);
    assert_eq!(status.locations, [root]);
    assert_eq!(status.files, 1);
}

#[test]
fn copilot_reads_the_flat_files_of_older_versions() {
    let home = Home::new();
    home.write(&format!(".copilot/session-state/{ID}.jsonl"), events());
    let output = home.read(Agent::Copilot, ts("2026-06-18T00:00:00Z"));
    let event = session(&output, Agent::Copilot, ID);
    assert_eq!(event.prompts.len(), 2);
    assert_eq!(event.title, "Fix the flaky parser test");
    assert_eq!(status(&output, Agent::Copilot).files, 1);
}

/// The first `session.start` names the session, whatever its folder is called; a later
/// one does not rename it. A sub-agent's model change is not the session's model.
#[test]
fn copilot_names_the_session_by_its_first_start() {
    let home = Home::new();
    let mut text = events();
    text.push_str(&line(
        "session.start",
        "2026-06-18T10:02:00.000Z",
        r#"{"sessionId":"not-this-one","copilotVersion":"1.0.102","selectedModel":"gpt-5.4"}"#,
    ));
    text.push_str(
        &(r#"{"type":"session.model_change","data":{"newModel":"o9-mini"},"id":"e-a","timestamp":"2026-06-18T10:03:00.000Z","parentId":null,"agentId":"explore-1"}"#.to_owned() + "\n"),
    );
    text.push_str(&line(
        "session.model_change",
        "2026-06-18T10:04:00.000Z",
        r#"{"newModel":"o8-mini","agentId":"explore-2"}"#,
    ));
    home.write(".copilot/session-state/renamed-folder/events.jsonl", text);
    let output = home.read(Agent::Copilot, ts("2026-06-18T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(output.events.len(), 1);
    let event = session(&output, Agent::Copilot, ID);
    assert_eq!(event.models, ["claude-sonnet-4.5", "gpt-5.4"]);
}

#[test]
fn copilot_opens_only_files_modified_since_the_window_began() {
    let home = Home::new();
    let path = home.write(&format!(".copilot/session-state/{ID}/events.jsonl"), events());
    set_mtime(&path, ts("2026-06-17T00:00:00Z"));
    let output = home.read(Agent::Copilot, ts("2026-06-18T00:00:00Z"));
    assert!(output.events.is_empty());
    let status = status(&output, Agent::Copilot);
    assert_eq!((status.files, status.entries), (1, 0));
    // The records say nothing either: the version is not noted from an unread file.
    assert!(status.versions.is_empty());
}

#[test]
fn copilot_places_records_by_their_own_times() {
    let home = Home::new();
    home.write(&format!(".copilot/session-state/{ID}/events.jsonl"), events());
    let output = home.read(Agent::Copilot, ts("2026-06-18T09:30:00Z"));
    let event = session(&output, Agent::Copilot, ID);
    assert_eq!(event.prompts, times(&["2026-06-18T10:00:00Z"]));
    assert_eq!(
        event.activity,
        times(&["2026-06-18T10:00:00Z", "2026-06-18T10:00:30Z", "2026-06-18T10:01:00Z"])
    );
    // The first prompt is still the title, though before the window.
    assert_eq!(event.title, "Fix the flaky parser test");
}

#[test]
fn copilot_warns_about_malformed_lines_and_unreadable_files() {
    let home = Home::new();
    let mut text = events();
    text.insert_str(0, "{not json\n");
    home.write(&format!(".copilot/session-state/{ID}/events.jsonl"), text);
    // An `events.jsonl` that is not a regular file.
    fs_err::create_dir_all(home.path().join(".copilot/session-state/broken/events.jsonl"))
        .expect("make folder");
    // An `events.jsonl` whose `stat` fails for another reason than its absence: a link
    // to itself. Named in a warning, never taken for a folder without events.
    let looped = home.path().join(".copilot/session-state/looped/events.jsonl");
    fs_err::create_dir_all(looped.parent().expect("parent")).expect("make folder");
    std::os::unix::fs::symlink(&looped, &looped).expect("link");
    let output = home.read(Agent::Copilot, ts("2026-06-18T00:00:00Z"));
    let codes: Vec<WarningCode> = output.warnings.iter().map(report_model::Warning::code).collect();
    assert!(codes.contains(&WarningCode::MalformedLines), "{:?}", output.warnings);
    assert!(codes.contains(&WarningCode::SourceUnreadable), "{:?}", output.warnings);
    let named = |folder: &str| {
        output
            .warnings
            .iter()
            .any(|warning| crate::support::en(warning).contains(&format!("{folder}/events.jsonl")))
    };
    assert!(named("broken") && named("looped"), "{:?}", output.warnings);
    assert_eq!(session(&output, Agent::Copilot, ID).prompts.len(), 2);
    assert_eq!(status(&output, Agent::Copilot).limits, ["1 malformed line skipped in 1 file"]);
}

#[test]
fn copilot_reads_legacy_history_session_state() {
    let home = Home::new();
    home.write(
        ".copilot/history-session-state/session_1759958416398.json",
        r#"{"sessionId":"legacy-1","startTime":"2025-10-08T21:10:16.398Z","chatMessages":[{"role":"user","content":"please add mcp servers"},{"role":"assistant","content":"ok"}],"timeline":[{"id":"t1","timestamp":"2025-10-08T21:10:20.000Z","type":"user","text":"please add mcp servers","mentions":[]},{"id":"t2","timestamp":"2025-10-08T21:10:30.000Z","type":"copilot","text":"ok"},{"id":"t3","timestamp":"2025-10-08T21:10:40.000Z","type":"tool_call_completed","callId":"c","name":"bash","result":{"type":"success","log":"x"}},{"id":"t4","timestamp":"2025-10-08T21:11:00.000Z","type":"info","text":"done"}]}"#,
    );
    home.write(".copilot/history-session-state/session_broken.json", "{");
    // Not a session: neither counted nor read.
    home.write(".copilot/history-session-state/notes.txt", "{");
    fs_err::create_dir_all(home.path().join(".copilot/history-session-state/folder.json"))
        .expect("make folder");
    let output = home.read(Agent::Copilot, ts("2025-10-08T00:00:00Z"));
    let event = session(&output, Agent::Copilot, "legacy-1");
    assert_eq!(event.prompts, times(&["2025-10-08T21:10:20Z"]));
    assert_eq!(event.activity.len(), 4);
    assert_eq!(event.title, "please add mcp servers");
    assert_eq!(event.cwd, None);
    assert_eq!(output.warnings.len(), 1, "{:?}", output.warnings);
    assert_eq!(output.warnings[0].code(), WarningCode::MalformedLines);
    assert_eq!(status(&output, Agent::Copilot).files, 2);
}

#[test]
fn copilot_missing_is_silent() {
    let home = Home::new();
    let output = home.read(Agent::Copilot, ts("2026-06-18T00:00:00Z"));
    assert!(output.warnings.is_empty() && output.events.is_empty());
    assert!(!status(&output, Agent::Copilot).found);
}

#[test]
fn copilot_reads_the_recorded_fixture_as_expected() {
    let recorded = crate::support::fixtures().join("agents/copilot/1.0.102");
    let expected: serde_json::Value = serde_json::from_slice(
        &fs_err::read(recorded.join("expected.json")).expect("read expected.json"),
    )
    .expect("expected.json is JSON");
    let since = ts(expected["since"].as_str().expect("since"));
    let home = Home::new();
    home.copy_fixture("agents/copilot/1.0.102/home", "", since);
    let output = home.read(Agent::Copilot, since);
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let sessions = expected["sessions"].as_array().expect("sessions");
    assert_eq!(output.events.len(), sessions.len());
    for want in sessions {
        let event = session(&output, Agent::Copilot, want["id"].as_str().expect("id"));
        assert_eq!(event.prompts.len() as u64, want["prompts_count"].as_u64().expect("count"));
        assert_eq!(event.title, want["title"].as_str().expect("title"));
        assert_eq!(event.cwd, want["cwd"].as_str().map(PathBuf::from));
        assert_eq!(event.models, [want["model"].as_str().expect("model")]);
        assert_eq!(event.branch.as_deref(), Some("main"));
    }
    let status = status(&output, Agent::Copilot);
    assert_eq!(status.versions, [expected["version"].as_str().expect("version")]);
    assert_eq!(status.unknown, Vec::<String>::new());
    // The third session ran `sh check.sh` through `bash` (Copilot offers no to-do tool
    // with `-p`): exit code 3, the session's last command.
    assert_eq!(scripted(&output), [(Vec::new(), recorded_failure())]);
}

/// A shell tool's start and completion, as 1.0.102 writes them.
fn shell_run(call: &str, at: &str, tool: &str, command: &str, completion: &str) -> String {
    let args = serde_json::json!({ "command": command, "description": "Run it" });
    line(
        "tool.execution_start",
        at,
        &format!(
            r#"{{"toolCallId":"{call}","toolName":"{tool}","arguments":{args},"turnId":"0"}}"#
        ),
    ) + &line("tool.execution_complete", at, &format!(r#"{{"toolCallId":"{call}",{completion}}}"#))
}

#[test]
fn copilot_shell_runs_are_read_with_their_exit_codes() {
    let home = Home::new();
    let exit = |code: i64| {
        format!(
            r#""success":true,"shellExecution":{{"exitCode":{code}}},"result":{{"content":"<shellId: 0 completed with exit code {code}>"}}"#
        )
    };
    let mut text = events();
    text += &shell_run("c1", "2026-06-18T09:02:00.000Z", "bash", "cargo   test", &exit(101));
    text += &shell_run("c2", "2026-06-18T09:03:00.000Z", "bash", "cargo test", &exit(0));
    text += &shell_run("c3", "2026-06-18T09:04:00.000Z", "powershell", "npm run lint", &exit(2));
    // No exit code (a detached run): no status. The person's own command: not the agent's.
    text += &shell_run("c4", "2026-06-18T09:05:00.000Z", "bash", "make watch", r#""success":true"#);
    text += &shell_run(
        "c5",
        "2026-06-18T09:06:00.000Z",
        "bash",
        "make deploy",
        &format!(r#""isUserRequested":true,{}"#, exit(1)),
    );
    // Another tool, and a sub-agent's shell run.
    text += &shell_run("c6", "2026-06-18T09:07:00.000Z", "view", "make view", &exit(1));
    text += &line(
        "tool.execution_start",
        "2026-06-18T09:08:00.000Z",
        r#"{"toolCallId":"c7","toolName":"bash","arguments":{"command":"make sub"},"parentToolCallId":"t1"}"#,
    );
    text += &line(
        "tool.execution_complete",
        "2026-06-18T09:08:00.000Z",
        &format!(r#"{{"toolCallId":"c7",{}}}"#, exit(1)),
    );
    let path = home.write(&format!(".copilot/session-state/{ID}/events.jsonl"), &text);
    set_mtime(&path, ts("2026-06-18T12:00:00Z"));
    let output = home.read(Agent::Copilot, ts("2026-06-18T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let found = session(&output, Agent::Copilot, ID);
    assert_eq!(failed_runs(found), [("npm run lint", vec![(2, ts("2026-06-18T09:04:00Z"))])]);
}

/// The fork the GitHub Copilot CLI 1.0.102 made with its interactive `/fork`
/// (`fixtures/copilot-fork/1.0.102/`, by its `record.sh`): the fork's file starts with a
/// `session.start` dated when it was made, then the other session's events copied with
/// their ids and times, then its own. The copied prompt is counted once, in the session
/// it was typed in; the fork has its two own.
#[test]
fn copilot_a_fork_s_copies_of_the_other_session_are_not_counted_twice() {
    let (original, fork) =
        ("e7a5ddfb-69b7-499b-9f18-b7f7b4e658fd", "420f58e1-7325-4f7e-83c8-91f1b9a1a0f4");
    let home = Home::new();
    home.copy_fixture("copilot-fork/1.0.102/home", "", ts("2026-12-06T15:15:00Z"));
    let output = home.read(Agent::Copilot, ts("2026-12-06T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let original = session(&output, Agent::Copilot, original);
    assert_eq!(original.prompts, times(&["2026-12-06T15:14:06.673Z"]));
    let fork = session(&output, Agent::Copilot, fork);
    assert_eq!(fork.prompts, times(&["2026-12-06T15:14:17.152Z", "2026-12-06T15:14:37.285Z"]));
    let made = ts("2026-12-06T15:14:12.765Z");
    assert!(fork.activity.iter().all(|time| *time >= made), "{:?}", fork.activity);
    assert_eq!(fork.title, "first prompt (fork)");
}

/// An event dated at its file's `session.start` to the millisecond is the session's own;
/// one dated before it is a copy, whose prompt is no prompt of the session but is its
/// title when it has no name (the copied conversation began with it).
#[test]
fn copilot_an_event_at_the_session_s_start_is_its_own_and_one_before_a_copy() {
    let start = "2026-06-18T09:00:00.000Z";
    let text = [
        line(
            "session.start",
            start,
            &format!(r#"{{"sessionId":"{ID}","copilotVersion":"1.0.102","startTime":"{start}","context":{{"cwd":"/work/app"}}}}"#),
        ),
        line("user.message", "2026-06-18T08:00:00.000Z", r#"{"content":"Plan the release","interactionId":"i0"}"#),
        r#"{"type":"user.message","data":{"content":"Now the changelog","interactionId":"i1"},"id":"e-own","timestamp":"2026-06-18T09:00:00.000Z","parentId":null}"#.to_owned() + "\n",
    ]
    .concat();
    let home = Home::new();
    home.write(&format!(".copilot/session-state/{ID}/events.jsonl"), text);
    let output = home.read(Agent::Copilot, ts("2026-06-18T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::Copilot, ID);
    assert_eq!(event.prompts, times(&[start]));
    assert_eq!(event.activity, times(&[start]));
    assert_eq!(event.title, "Plan the release");
}

#[test]
fn copilot_a_legacy_entry_whose_time_is_no_time_is_warned_and_not_counted() {
    let home = Home::new();
    let path = home.write(
        ".copilot/history-session-state/session_1759958416398.json",
        r#"{"sessionId":"legacy-1","timeline":[{"id":"t1","timestamp":"then","type":"user","text":"please add mcp servers"},{"id":"t2","timestamp":"2025-10-08T21:10:30.000Z","type":"user","text":"and a test"}]}"#,
    );
    let output = home.read(Agent::Copilot, ts("2025-10-08T00:00:00Z"));
    assert_unreadable_times(&output, &path, "timestamp", 1);
    assert_eq!(
        session(&output, Agent::Copilot, "legacy-1").prompts,
        times(&["2025-10-08T21:10:30Z"])
    );
}
