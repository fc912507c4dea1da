//! Tests of the reader of Cline's, Roo Code's and Kilo Code's editor extension tasks (see
//! crates/collect/src/sessions/cline_tasks.rs).
//!
//! No editor runs here, so the files are written after the extensions' source (the
//! commits the module names): `tasks/<id>/ui_messages.json` and
//! `api_conversation_history.json`, Cline's `state/taskHistory.json`, Roo's
//! `history_item.json` and `_index.json`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use collect::sessions::{SessionsConfig, read_sessions};
use report_model::{Agent, TodoStatus, WarningCode};

use crate::support::{
    Home, assert_unreadable_times, failed_runs, session, set_mtime, spoil_first, status, times,
    todo_items, ts,
};

const SINCE: &str = "2026-03-02T00:00:00Z";
const CLINE: &str = ".config/Code/User/globalStorage/saoudrizwan.claude-dev";
const ROO: &str = ".config/Code/User/globalStorage/rooveterinaryinc.roo-cline";
const KILO: &str = ".vscode-server/data/User/globalStorage/kilocode.kilo-code";
/// 2026-03-02 10:00:00 UTC, in epoch milliseconds.
const T0: i64 = 1_772_445_600_000;

/// `T0` plus `seconds`, in epoch milliseconds.
fn at(seconds: i64) -> i64 {
    T0 + seconds * 1000
}

/// Writes a task's files (name, text), each modified in the window.
fn write_task(home: &Home, storage: &str, id: &str, files: &[(&str, String)]) {
    for (name, text) in files {
        let path = home.write(&format!("{storage}/tasks/{id}/{name}"), text);
        set_mtime(&path, ts("2026-03-02T12:00:00Z"));
    }
}

/// A Cline task: the task, a command shown for approval (with `REQ_APP`) that failed,
/// one auto-approved that passed, two focus-chain lists, a partial message, feedback.
fn cline_ui() -> String {
    format!(
        r#"[
{{"ts":{},"type":"say","say":"task","text":"Fix the   login redirect","modelInfo":{{"modelId":"claude-sonnet-4-5","providerId":"anthropic","mode":"act"}}}},
{{"ts":{},"type":"say","say":"api_req_started","text":"{{\"tokensIn\":10}}","modelInfo":{{"modelId":"claude-sonnet-4-5"}}}},
{{"ts":{},"type":"say","say":"task_progress","text":"- [ ] Reproduce\n- [ ] Fix"}},
{{"ts":{},"type":"ask","ask":"command","text":"npm run lintREQ_APP"}},
{{"ts":{},"type":"say","say":"command_output","text":"2 problems"}},
{{"ts":{},"type":"say","say":"command","text":"npm test"}},
{{"ts":{},"type":"say","say":"text","text":"Lint fails.","partial":true}},
{{"ts":{},"type":"say","say":"user_feedback","text":"then fix the lint","modelInfo":{{"modelId":"gpt-5.1"}}}},
{{"ts":{},"type":"say","say":"task_progress","text":"- [x] Reproduce\n- [ ] Fix\n- [ ] Lint"}},
{{"ts":{},"type":"say","say":"command","text":"cargo build"}},
{{"ts":{},"type":"ask","ask":"command","text":"make docsREQ_APP"}},
{{"ts":{},"type":"say","say":"text","text":"Left for later:\n- [ ] not a plan, words of the reply"}},
{{"ts":{},"type":"ask","ask":"resume_task","text":""}}
]"#,
        at(0),
        at(5),
        at(6),
        at(10),
        at(20),
        at(30),
        at(40),
        at(300),
        at(310),
        at(320),
        at(325),
        at(330),
        at(600),
    )
}

/// Cline's history of the same task: the lint's result (XML tools: a text block) with
/// its time, `npm test`'s (a `tool_result`) without one.
fn cline_api() -> String {
    format!(
        r#"[
{{"role":"user","content":[{{"type":"text","text":"<task>\nFix the login redirect\n</task>"}},{{"type":"text","text":"<environment_details>\n# Current Working Directory (/home/dev/elsewhere) Files\n</environment_details>"}}],"ts":{}}},
{{"role":"assistant","content":[{{"type":"text","text":"<execute_command><command>npm run lint</command></execute_command>"}}],"ts":{}}},
{{"role":"user","content":[{{"type":"text","text":"[execute_command for 'npm run lint'] Result:\nCommand failed with exit code 2.\nOutput:\n2 problems"}}],"ts":{}}},
{{"role":"assistant","content":[{{"type":"tool_use","id":"toolu_1","name":"execute_command","input":{{"command":"npm test"}}}}]}},
{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"toolu_1","content":"[execute_command for 'npm test'] Result:\nCommand executed successfully (exit code 0).\nOutput:\nok"}}]}},
{{"role":"user","content":"[execute_command for 'cargo build'] Result:\nCommand failed with exit code 101.\n<environment_details>\n<model>not-cline-s-record</model>\n</environment_details>"}},
{{"role":"user","content":[{{"type":"text","text":"[execute_command for 'make docs'] Result:\nCommand failed with exit code 2."}}]}}
]"#,
        at(0),
        at(8),
        at(25),
    )
}

#[test]
fn cline_extension_tasks_are_read_beside_the_cli_sessions() {
    let home = Home::new();
    let id = T0.to_string();
    write_task(
        &home,
        CLINE,
        &id,
        &[("ui_messages.json", cline_ui()), ("api_conversation_history.json", cline_api())],
    );
    home.write(
        &format!("{CLINE}/state/taskHistory.json"),
        format!(r#"[{{"id":"{id}","ts":{},"task":"Fix the login redirect","cwdOnTaskInitialization":"/home/dev/app"}}]"#, at(600)),
    );
    let output = home.read(Agent::Cline, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let found = session(&output, Agent::Cline, &id);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:00Z", "2026-03-02T10:05:00Z"]));
    assert_eq!(
        found.activity.len(),
        13,
        "every message, the partial one too: {:?}",
        found.activity
    );
    assert_eq!(found.title, "Fix the login redirect");
    assert_eq!(found.cwd, Some(PathBuf::from("/home/dev/app")), "the index before the details");
    assert_eq!(found.models, ["claude-sonnet-4-5", "gpt-5.1"]);
    let todos = todo_items(found);
    assert_eq!(
        todos,
        [
            ("Reproduce", TodoStatus::Completed),
            ("Fix", TodoStatus::Pending),
            ("Lint", TodoStatus::Pending)
        ]
    );
    // The lint failed at its result's time; `npm test` passed (at the time it was shown);
    // the build's result has no time of its own: it failed when it was shown. Cline's
    // model is its messages', not the environment details'.
    let failed = failed_runs(found);
    assert_eq!(
        failed,
        [
            ("npm run lint", vec![(2, ts("2026-03-02T10:00:25Z"))]),
            ("cargo build", vec![(101, ts("2026-03-02T10:05:20Z"))]),
            ("make docs", vec![(2, ts("2026-03-02T10:05:25Z"))])
        ]
    );
    let cline = status(&output, Agent::Cline);
    assert!(cline.found);
    assert_eq!(cline.files, 1);
    assert_eq!(
        cline.locations,
        [home.path().join(".cline/data/sessions"), home.path().join(CLINE).join("tasks")]
    );
    assert!(cline.unknown.is_empty(), "{:?}", cline.unknown);

    // Without the index, the environment details name the folder; a CLI session is read
    // beside the task.
    fs_err::remove_file(home.path().join(format!("{CLINE}/state/taskHistory.json"))).unwrap();
    let manifest = r#"{"version":1,"session_id":"1772445600000_ab12c","source":"vscode","started_at":"2026-03-02T10:00:00.000Z","model":"m","cwd":"/home/dev/app","metadata":{"title":"From the SDK build"}}"#;
    let path =
        home.write(".cline/data/sessions/1772445600000_ab12c/1772445600000_ab12c.json", manifest);
    set_mtime(&path, ts("2026-03-02T12:00:00Z"));
    let output = home.read(Agent::Cline, ts(SINCE));
    let found = session(&output, Agent::Cline, &id);
    assert_eq!(found.cwd, Some(PathBuf::from("/home/dev/elsewhere")));
    let sdk = session(&output, Agent::Cline, "1772445600000_ab12c");
    assert_eq!(sdk.title, "From the SDK build");
    let cline = status(&output, Agent::Cline);
    assert_eq!((cline.files, cline.entries), (2, 2));
    assert!(cline.unknown.is_empty(), "`vscode` is a source Cline writes: {:?}", cline.unknown);
}

/// A Roo task: the first `text` is the person's, later ones the assistant's; a to-do
/// list through `updateTodoList` and the person's edit of it; a native `execute_command`
/// whose result names no command; the model in the environment details.
fn roo_ui(first: &str) -> String {
    format!(
        r#"[
{{"ts":{},"type":"say","say":"text","text":"{first}"}},
{{"ts":{},"type":"say","say":"text","text":"I will add the test."}},
{{"ts":{},"type":"ask","ask":"tool","text":"{{\"tool\":\"updateTodoList\",\"todos\":[{{\"id\":\"1\",\"content\":\"Write the test\",\"status\":\"in_progress\"}}]}}"}},
{{"ts":{},"type":"say","say":"user_edit_todos","text":"{{\"tool\":\"updateTodoList\",\"todos\":[{{\"id\":\"1\",\"content\":\"Write the test\",\"status\":\"completed\"}},{{\"id\":\"2\",\"content\":\"Run it\",\"status\":\"pending\"}}]}}"}},
{{"ts":{},"type":"ask","ask":"command","text":"cargo test"}},
{{"ts":{},"type":"say","say":"user_feedback","text":"and the docs"}},
{{"ts":{},"type":"say","say":"tool","text":"{{\"tool\":\"readFile\"}}"}}
]"#,
        at(0),
        at(10),
        at(20),
        at(30),
        at(40),
        at(120),
        at(130),
    )
}

fn roo_api() -> String {
    format!(
        r#"[
{{"role":"user","content":[{{"type":"text","text":"<user_message>\nAdd a test\n</user_message>"}},{{"type":"text","text":"<environment_details>\n# Current Workspace Directory (/home/dev/roo) Files\n# Current Mode\n<slug>code</slug>\n<model>claude-opus-4-5</model>\n</environment_details>"}}],"ts":{}}},
{{"role":"assistant","content":[{{"type":"tool_use","id":"tu_9","name":"execute_command","input":{{"command":"cargo test"}}}}],"ts":{}}},
{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"tu_9","content":[{{"type":"text","text":"Command executed in terminal within working directory '/home/dev/roo'. Command execution was not successful, inspect the cause and adjust as needed.\nExit code: 101\nOutput:\nfailed"}}]}}],"ts":{}}}
]"#,
        at(0),
        at(41),
        at(60),
    )
}

#[test]
fn roo_tasks_their_sub_tasks_lists_commands_and_models() {
    let home = Home::new();
    let id = "019c5a8e-0000-7000-8000-000000000001";
    write_task(
        &home,
        ROO,
        id,
        &[
            ("ui_messages.json", roo_ui("Add a test")),
            ("api_conversation_history.json", roo_api()),
            (
                "history_item.json",
                format!(
                    r#"{{"id":"{id}","number":1,"ts":{},"task":"Add a test","workspace":"/home/dev/roo"}}"#,
                    at(130)
                ),
            ),
        ],
    );
    // A sub-task: its first message is what the parent's agent wrote.
    let child = "019c5a8e-0000-7000-8000-000000000002";
    write_task(
        &home,
        ROO,
        child,
        &[
            ("ui_messages.json", roo_ui("Subtask: write tests for the parser")),
            (
                "history_item.json",
                format!(
                    r#"{{"id":"{child}","number":2,"ts":{},"task":"x","workspace":"/home/dev/roo","parentTaskId":"{id}"}}"#,
                    at(130)
                ),
            ),
        ],
    );
    let output = home.read(Agent::Roo, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let found = session(&output, Agent::Roo, id);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:00Z", "2026-03-02T10:02:00Z"]));
    assert_eq!(found.title, "Add a test");
    assert_eq!(found.cwd, Some(PathBuf::from("/home/dev/roo")));
    assert_eq!(found.models, ["claude-opus-4-5"]);
    let todos = todo_items(found);
    assert_eq!(todos, [("Write the test", TodoStatus::Completed), ("Run it", TodoStatus::Pending)]);
    let failed: Vec<(&str, Vec<i64>)> = found
        .failed_commands
        .iter()
        .map(|failed| (failed.command.as_str(), failed.runs.iter().map(|run| run.exit).collect()))
        .collect();
    assert_eq!(failed, [("cargo test", vec![101])]);
    let sub = session(&output, Agent::Roo, child);
    assert_eq!(sub.prompts, times(&["2026-03-02T10:02:00Z"]), "only the person's feedback");
    assert_eq!(sub.title, "and the docs");
    let roo = status(&output, Agent::Roo);
    assert_eq!((roo.found, roo.files, roo.entries), (true, 2, 2));
    assert_eq!(roo.locations, [home.path().join(ROO).join("tasks")]);
}

#[test]
fn kilo_extension_tasks_join_the_cli_s_and_the_index_cache_and_details_give_folders() {
    let home = Home::new();
    let id = "7f3c9a10-1111-4222-8333-444455556666";
    // Kilo's XML tools: the result is a text block naming its command, `Exit code` after
    // Kilo's two spaces; its folder only in the environment details.
    let api = format!(
        r#"[
{{"role":"user","content":[{{"type":"text","text":"<task>\nAdd a test\n</task>"}},{{"type":"text","text":"<environment_details>\n# Current Workspace Directory (/home/dev/kilo) Files\n<model>kilo/auto</model>\n</environment_details>"}}],"ts":{}}},
{{"role":"user","content":[{{"type":"text","text":"[execute_command for 'cargo test'] Result:\nCommand executed in terminal  within working directory '/home/dev/kilo'. Exit code: 1\nOutput:\nx"}}],"ts":{}}}
]"#,
        at(0),
        at(60)
    );
    write_task(
        &home,
        KILO,
        id,
        &[("ui_messages.json", roo_ui("Add a test")), ("api_conversation_history.json", api)],
    );
    let output = home.read(Agent::Kilo, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let found = session(&output, Agent::Kilo, id);
    assert_eq!(found.cwd, Some(PathBuf::from("/home/dev/kilo")));
    assert_eq!(found.models, ["kilo/auto"]);
    assert_eq!(found.failed_commands[0].command, "cargo test");
    assert_eq!(found.failed_commands[0].runs[0].time, ts("2026-03-02T10:01:00Z"));
    let kilo = status(&output, Agent::Kilo);
    assert_eq!(
        kilo.locations,
        [home.path().join(".local/share/kilo"), home.path().join(KILO).join("tasks")]
    );

    // Roo's index cache names the folder of a task without its own record.
    let home = Home::new();
    write_task(&home, ROO, id, &[("ui_messages.json", roo_ui("Add a test"))]);
    home.write(
        &format!("{ROO}/tasks/_index.json"),
        format!(r#"{{"version":1,"updatedAt":{},"entries":[{{"id":"{id}","workspace":"/home/dev/cached"}}]}}"#, at(9)),
    );
    let output = home.read(Agent::Roo, ts(SINCE));
    assert_eq!(session(&output, Agent::Roo, id).cwd, Some(PathBuf::from("/home/dev/cached")));
    assert_eq!(status(&output, Agent::Roo).files, 1, "`_index.json` is not a task");
}

#[test]
fn old_tasks_are_not_opened_broken_ones_are_warned_and_roo_home_moves_the_folder() {
    let home = Home::new();
    write_task(&home, ROO, "fresh", &[("ui_messages.json", roo_ui("Add a test"))]);
    write_task(
        &home,
        ROO,
        "broken",
        &[("ui_messages.json", r#"[{"ts":1772445600000,"type""#.to_owned())],
    );
    write_task(&home, ROO, "old", &[("ui_messages.json", "not json".to_owned())]);
    let old = home.path().join(format!("{ROO}/tasks/old"));
    set_mtime(&old.join("ui_messages.json"), ts("2026-02-20T00:00:00Z"));
    filetime::set_file_mtime(
        &old,
        filetime::FileTime::from_unix_time(ts("2026-02-20T00:00:00Z").as_second(), 0),
    )
    .unwrap();
    // A folder without the chat's file is not a task.
    fs_err::create_dir_all(home.path().join(format!("{ROO}/tasks/empty"))).unwrap();
    let output = home.read(Agent::Roo, ts(SINCE));
    let warnings: Vec<_> = output.warnings.iter().map(report_model::Warning::code).collect();
    assert_eq!(warnings, [WarningCode::MalformedLines], "{:?}", output.warnings);
    assert!(format!("{:?}", output.warnings).contains("broken"), "{:?}", output.warnings);
    let ids: Vec<&str> = output.events.iter().map(|event| event.session_id.as_str()).collect();
    assert_eq!(ids, ["fresh"]);
    assert_eq!(status(&output, Agent::Roo).files, 3);
    // Prompts before the window are not counted, nor is the window's model before it.
    let output = home.read(Agent::Roo, ts("2026-03-02T10:01:00Z"));
    assert_eq!(session(&output, Agent::Roo, "fresh").prompts, times(&["2026-03-02T10:02:00Z"]));

    // `roo_home` (Roo's `customStoragePath`) instead of the editors' folders.
    let custom = home.path().join("roo-storage");
    let config = SessionsConfig {
        agents: vec![Agent::Roo],
        homes: BTreeMap::from([(Agent::Roo, custom.clone())]),
        ..SessionsConfig::default()
    };
    let output = read_sessions(&home.env(), &config, ts(SINCE));
    assert!(output.events.is_empty());
    let roo = status(&output, Agent::Roo);
    assert!(!roo.found);
    assert_eq!(roo.locations, [custom.join("tasks")]);
    write_task(&home, "roo-storage", "fresh", &[("ui_messages.json", roo_ui("Add a test"))]);
    let output = read_sessions(&home.env(), &config, ts(SINCE));
    assert_eq!(session(&output, Agent::Roo, "fresh").prompts.len(), 2);
}

#[test]
fn cline_s_standalone_tasks_an_empty_folder_a_task_rewritten_in_place_and_odd_messages() {
    let home = Home::new();
    // Cline's standalone builds and older CLI keep the same tasks in its data folder.
    let id = T0.to_string();
    write_task(&home, ".cline/data", &id, &[("ui_messages.json", cline_ui())]);
    // A chat file rewritten in place: its folder keeps an old time, the reader still
    // opens it.
    let old = filetime::FileTime::from_unix_time(ts("2026-02-20T00:00:00Z").as_second(), 0);
    filetime::set_file_mtime(home.path().join(format!(".cline/data/tasks/{id}")), old).unwrap();
    let output = home.read(Agent::Cline, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(session(&output, Agent::Cline, &id).prompts.len(), 2);
    assert!(
        status(&output, Agent::Cline).locations.contains(&home.path().join(".cline/data/tasks"))
    );
    // Roo Code and Kilo Code do not look there.
    let output = home.read(Agent::Roo, ts(SINCE));
    assert!(output.events.is_empty());

    // An empty tasks folder: Roo Code is there, with no task yet.
    let home = Home::new();
    fs_err::create_dir_all(home.path().join(format!("{ROO}/tasks"))).unwrap();
    let output = home.read(Agent::Roo, ts(SINCE));
    let roo = status(&output, Agent::Roo);
    assert!(roo.found && output.events.is_empty());

    // A chat holding something that is not a message: noted, the rest read.
    let odd = roo_ui("Add a test").replacen('[', "[\"stray\",", 1);
    write_task(&home, ROO, "odd", &[("ui_messages.json", odd)]);
    let output = home.read(Agent::Roo, ts(SINCE));
    assert_eq!(session(&output, Agent::Roo, "odd").prompts.len(), 2);
    assert_eq!(status(&output, Agent::Roo).unknown, ["message that is not an object"]);
}

#[test]
fn roo_s_list_without_an_edit_and_the_models_of_the_window_s_turns_only() {
    let home = Home::new();
    let id = "019c5a8e-0000-7000-8000-000000000003";
    // The list as the tool wrote it, which the person did not edit.
    let ui = roo_ui("Add a test")
        .lines()
        .filter(|line| !line.contains("user_edit_todos"))
        .collect::<Vec<_>>()
        .join("\n");
    // A turn of the day before (a plain string) names another model; a tool's output
    // quotes a `<model>` tag; the window's turn names the model used.
    let api = format!(
        r#"[
{{"role":"user","content":"<environment_details>\n<model>yesterday-model</model>\n</environment_details>","ts":{}}},
{{"role":"user","content":[{{"type":"text","text":"<environment_details>\n<model>claude-opus-4-5</model>\n</environment_details>"}}],"ts":{}}},
{{"role":"assistant","content":[{{"type":"tool_use","id":"r1","name":"read_file","input":{{"path":"a.xml"}}}}],"ts":{}}},
{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"r1","content":"<model>quoted-in-a-file</model>"}}],"ts":{}}}
]"#,
        T0 - 86_400_000,
        at(0),
        at(1),
        at(2)
    );
    write_task(&home, ROO, id, &[("ui_messages.json", ui), ("api_conversation_history.json", api)]);
    let output = home.read(Agent::Roo, ts(SINCE));
    let found = session(&output, Agent::Roo, id);
    assert_eq!(found.models, ["claude-opus-4-5"]);
    let todos = todo_items(found);
    assert_eq!(todos, [("Write the test", TodoStatus::InProgress)]);
}

#[test]
fn a_task_message_whose_ts_is_no_time_is_warned_and_the_rest_read() {
    let home = Home::new();
    let id = T0.to_string();
    let ui = spoil_first(&cline_ui(), "ts");
    write_task(
        &home,
        CLINE,
        &id,
        &[("ui_messages.json", ui), ("api_conversation_history.json", cline_api())],
    );
    let output = home.read(Agent::Cline, ts(SINCE));
    let path = home.path().join(format!("{CLINE}/tasks/{id}/ui_messages.json"));
    assert_unreadable_times(&output, &path, "ts", 1);
    let found = session(&output, Agent::Cline, &id);
    assert_eq!(found.prompts, times(&["2026-03-02T10:05:00Z"]), "the task's own prompt is gone");
}
