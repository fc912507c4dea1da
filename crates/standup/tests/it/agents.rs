//! A home with every agent's recorded sessions (`fixtures/agents/`, written by the real
//! agents), read through the real binary by `daily`, `standup`, `week`, `--format json`
//! and `doctor`, as a new user with all of them installed would.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde_json::Value;

use crate::support::Home;

/// After the recordings made from 2026-12-01 22:00 to 2026-12-02 05:00 UTC, in the same
/// day in Tokyo.
const NOW: &str = "2026-12-02T18:00:00+09:00";
/// The Monday after the later recordings (Cline's, Kilo Code's and Continue's, 2026-12-05
/// 16:31, 17:22 and 18:10 UTC: Sunday the 6th in Tokyo; Aider's, 18:46 local time with
/// `TZ=UTC`, read here as Tokyo's local time on Saturday the 5th).
const LATER: &str = "2026-12-07T09:00:00+09:00";
const TOKYO: &str = "Asia/Tokyo";

fn recordings() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/agents");
    let mut found = Vec::new();
    for agent in fs_err::read_dir(&root).unwrap() {
        for version in fs_err::read_dir(agent.unwrap().path()).unwrap() {
            found.push(version.unwrap().path());
        }
    }
    found.sort();
    found
}

/// Copies a recording's files, each last modified when the recording ended (as the agent
/// left them): Continue places a session's end by its file's time.
fn copy_tree(source: &Path, target: &Path, modified: SystemTime) {
    fs_err::create_dir_all(target).unwrap();
    for entry in fs_err::read_dir(source).unwrap() {
        let entry = entry.unwrap();
        let to = target.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &to, modified);
        } else {
            fs_err::copy(entry.path(), &to).unwrap();
            fs_err::File::options().write(true).open(&to).unwrap().set_modified(modified).unwrap();
        }
    }
}

/// The scratch repository the agents ran in (`xtask/src/record/mod.rs` `REPO`).
const SCRATCH_REPO: &str = "/tmp/standup-agents/repo";
/// Where a home keeps the files an agent wrote in that repository (Aider's histories).
const AGENT_REPO: &str = "agent-repo";

/// A home holding every recording's files; those an agent wrote in the repository it
/// ran in are in the repository `~/src/agent-repo`.
fn home_with_every_agent() -> Home {
    let home = Home::new();
    for recording in recordings() {
        let until: jiff::Timestamp =
            expected(&recording)["until"].as_str().unwrap().parse().unwrap();
        if recording.join("home").is_dir() {
            copy_tree(&recording.join("home"), home.path(), SystemTime::from(until));
        }
        if recording.join("repo").is_dir() {
            let repo = home.repo(AGENT_REPO);
            copy_tree(&recording.join("repo"), &repo.path, SystemTime::from(until));
        }
    }
    home
}

/// A recorded session's id as the report names it (Aider's holds the repository it ran
/// in, which is `~/src/agent-repo` here; the test's output writes the home `[HOME]`).
fn id_in_report(id: &str) -> String {
    id.replace(SCRATCH_REPO, &format!("[HOME]/src/{AGENT_REPO}"))
}

fn expected(recording: &Path) -> Value {
    serde_json::from_str(&fs_err::read_to_string(recording.join("expected.json")).unwrap()).unwrap()
}

#[test]
fn every_recorded_agent_is_in_every_report() {
    let home = home_with_every_agent();
    let json = home.run(NOW, TOKYO, &["daily", "--no-llm", "--format", "json"]);
    assert_eq!(json.code, 0, "{}", json.snapshot());
    let report: Value = serde_json::from_str(&json.stdout).unwrap();
    // Every day of every recording.
    let range =
        home.run(LATER, TOKYO, &["daily", "--no-llm", "--format", "json", "--since", "2026-12-01"]);
    assert_eq!(range.code, 0, "{}", range.snapshot());
    let range: Value = serde_json::from_str(&range.stdout).unwrap();
    let sessions: Vec<&Value> = range["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|bucket| bucket["projects"].as_array().unwrap())
        .flat_map(|project| project["sessions"].as_array().unwrap())
        .collect();
    let mut missing = Vec::new();
    for recording in recordings() {
        let expected = expected(&recording);
        for session in expected["sessions"].as_array().unwrap() {
            let id = id_in_report(session["id"].as_str().unwrap());
            let found = sessions.iter().find(|found| found["session_id"] == id.as_str());
            match found {
                Some(found) => {
                    assert_eq!(found["title"], session["title"], "{}", recording.display());
                    assert_eq!(
                        found["prompts"],
                        session["prompts_count"],
                        "{}",
                        recording.display()
                    );
                    assert!(
                        found["models"].as_array().unwrap().contains(&session["model"]),
                        "{}: {found}",
                        recording.display()
                    );
                }
                None => missing.push(format!("{}: {}", recording.display(), session["id"])),
            }
        }
    }
    assert!(missing.is_empty(), "sessions not in the report: {missing:#?}");

    // Gemini's, Copilot's and Qwen Code's recordings were made again on the Sunday
    // (below).
    let names = ["Claude Code", "Codex", "opencode", "pi"];
    for (command, lang) in [("daily", "en"), ("standup", "en"), ("week", "en"), ("daily", "ja")] {
        let run = home.run(NOW, TOKYO, &[command, "--no-llm", "--lang", lang]);
        assert_eq!(run.code, 0, "{command}: {}", run.snapshot());
        for name in names {
            assert!(
                run.stdout.contains(&format!("AI: {name} `")),
                "{command} {lang}: {name}\n{}",
                run.stdout
            );
        }
        assert!(!run.stdout.contains("session_context"), "{}", run.stdout);
    }

    // The last recorded session (pi's third) ended on the `sh check.sh` the stand-in made
    // it run, which exited with 3: a blocker citing that session.
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm"]);
    let line =
        run.stdout.lines().find(|line| line.starts_with("- Blocked?: `sh check.sh` failed at "));
    assert!(
        line.is_some_and(|line| line.ends_with(" (pi session), and the session ended there")),
        "{}",
        run.stdout
    );
    let blockers: Vec<&Value> = report["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|bucket| bucket["projects"].as_array().unwrap())
        .flat_map(|project| project["blockers"].as_array().into_iter().flatten())
        .collect();
    assert_eq!(blockers.len(), 1, "{blockers:#?}");
    assert_eq!(blockers[0]["kind"], "agent_failing_command");
    assert_eq!(blockers[0]["evidence"][0]["agent"], "pi");
    assert_eq!(blockers[0]["evidence"][1]["exit"], 3);
}

#[test]
fn the_agents_recorded_on_a_sunday_are_in_that_day_s_reports() {
    let home = home_with_every_agent();
    // Cline's, Kilo Code's, Continue's, Goose's, Kimi Code's, Mistral Vibe's, OpenHands'
    // (its zone-less times, 01:34 with `TZ=UTC`, read as Tokyo's), Hermes Agent's,
    // Droid's, Copilot's, Qwen Code's and Gemini's (the last three recorded again, with
    // the scripted third session), OpenClaw's and Command Code's, recorded on another day:
    // in that day's reports and Monday's standup.
    for (args, lang) in [
        (&["daily", "--date", "2026-12-06"][..], "en"),
        (&["daily", "--date", "2026-12-06"][..], "ja"),
        (&["standup"][..], "en"),
        (&["week", "--date", "2026-12-06"][..], "en"),
    ] {
        let mut all = args.to_vec();
        all.extend(["--no-llm", "--lang", lang]);
        let run = home.run(LATER, TOKYO, &all);
        assert_eq!(run.code, 0, "{args:?}: {}", run.snapshot());
        for name in [
            "Cline",
            "Kilo Code",
            "Continue",
            "Goose",
            "Kimi Code",
            "Mistral Vibe",
            "OpenHands",
            "Hermes Agent",
            "Droid",
            "Copilot",
            "Qwen Code",
            "Gemini",
            "OpenClaw",
            "Command Code",
        ] {
            let line = format!("AI: {name} `");
            assert!(run.stdout.contains(&line), "{args:?} {lang} {name}\n{}", run.stdout);
        }
    }
    let run = home.run(LATER, TOKYO, &["daily", "--date", "2026-12-06", "--no-llm"]);
    // All fourteen ended on it; one blocker for the one command, citing the latest session
    // (Command Code's, recorded last, at 19:26 Tokyo time; OpenHands', recorded before it,
    // is placed at 01:34). Gemini's session wrote the newest list: the next steps cite it
    // (Droid, Copilot, Qwen Code, OpenClaw and Command Code wrote none; OpenClaw has no
    // to-do tool, Command Code's print mode offers none).
    let blockers: Vec<&str> =
        run.stdout.lines().filter(|line| line.starts_with("- Blocked?: ")).collect();
    assert_eq!(
        blockers,
        [
            "- Blocked?: `sh check.sh` failed at 19:26 (Command Code session), and the session ended there"
        ],
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "- Next: Add a test for hello.sh · Wire check.sh into CI (Gemini `599af097`)"
        ),
        "{}",
        run.stdout
    );
    // Kimi Code's list, recorded before it, is cited by the distinct part of its id, not
    // the `session_` all its ids share.
    let run =
        home.run(LATER, TOKYO, &["daily", "--date", "2026-12-06", "--no-llm", "--format", "json"]);
    assert!(
        run.stdout.contains("\"session_bc24452d-1868-4e16-91b9-ed60a2343947\""),
        "{}",
        run.stdout
    );
}

#[test]
fn doctor_names_each_agent_with_its_versions_and_drift() {
    let home = home_with_every_agent();
    let run = home.run(NOW, TOKYO, &["doctor"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    for line in [
        // Three sessions of each version (the third writes a to-do list and runs a
        // failing command), two of the agents not recorded again since.
        "claude: found · 6 transcripts · 6 sessions today",
        "codex: found · 3 transcripts · 3 sessions today",
        "gemini: found",
        "copilot: found",
        "opencode: found · 1 database · 3 sessions today",
        "copilot: found · 3 files · 3 sessions today",
        "pi: found",
        "qwen: found",
        "cursor: not found",
        "amp: not found",
        "droid: found · 3 files",
        "cline: found · 3 files",
        "kilo: found · 1 database",
        "goose: found · 1 database",
        "gptme: found · 3 files",
        "kimi: found · 3 files",
        "vibe: found · 3 files",
        "openhands: found · 6 files",
        "hermes: found · 1 database",
        "openclaw: found · 4 files",
        "continue: found · 3 files",
        "aider: found · 1 file",
        "  versions seen: 7.7.7",
        "  versions seen: 2.1.197, 2.1.332",
        "  versions seen: 0.171.0",
    ] {
        assert!(run.stdout.contains(line), "{line}\n{}", run.stdout);
    }
    assert!(!run.stdout.contains("newer than the newest recorded fixture"), "{}", run.stdout);
    assert!(!run.stdout.contains("does not know"), "{}", run.stdout);

    // A release newer than any recording, with a record type no reader knows.
    let rollouts = home.path().join(".codex/sessions/2026/12/02");
    let rollout = fs_err::read_dir(&rollouts).unwrap().next().unwrap().unwrap().path();
    let text = fs_err::read_to_string(&rollout).unwrap().replace("\"0.171.0\"", "\"9.1.0\"");
    let extra =
        "{\"timestamp\":\"2026-12-01T22:30:00.000Z\",\"type\":\"hologram\",\"payload\":{}}\n";
    fs_err::write(&rollout, format!("{text}{extra}")).unwrap();
    let run = home.run(NOW, TOKYO, &["doctor"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stdout.contains(
            "  note: written by version 9.1.0, newer than the newest recorded fixture (0.171.0): the format may have changed"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("  note: records the reader does not know: hologram"),
        "{}",
        run.stdout
    );
}

/// Roo Code's task, as its extension writes it (`ui_messages.json`,
/// `api_conversation_history.json`, `history_item.json`), under `storage`.
fn write_roo_task(home: &Home, storage: &str) {
    // 2026-12-02 10:00 Tokyo, in epoch milliseconds.
    let t0: i64 = 1_796_173_200_000;
    let todos = r#"{\"tool\":\"updateTodoList\",\"todos\":[{\"id\":\"1\",\"content\":\"Add backoff\",\"status\":\"completed\"},{\"id\":\"2\",\"content\":\"Test the timeout path\",\"status\":\"pending\"}]}"#;
    let task = format!("{storage}/tasks/019c-roo");
    home.write(
        &format!("{task}/ui_messages.json"),
        &format!(
            r#"[{{"ts":{t0},"type":"say","say":"text","text":"Add retries to the HTTP client"}},
{{"ts":{},"type":"ask","ask":"tool","text":"{todos}"}},
{{"ts":{},"type":"ask","ask":"command","text":"cargo test -p client"}}]"#,
            t0 + 5_000,
            t0 + 9_000
        ),
    );
    home.write(
        &format!("{task}/api_conversation_history.json"),
        &format!(
            r#"[{{"role":"user","content":[{{"type":"text","text":"<environment_details>\n<model>claude-sonnet-4-5</model>\n</environment_details>"}}],"ts":{t0}}},
{{"role":"assistant","content":[{{"type":"tool_use","id":"t1","name":"execute_command","input":{{"command":"cargo test -p client"}}}}]}},
{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"t1","content":"Command executed in terminal within working directory '/w'. Exit code: 101\nOutput:\nfailed"}}],"ts":{}}}]"#,
            t0 + 20_000
        ),
    );
    let workspace = home.path().join("src/client");
    home.write(
        &format!("{task}/history_item.json"),
        &format!(r#"{{"id":"019c-roo","workspace":"{}"}}"#, workspace.display()),
    );
}

#[test]
fn an_editor_extension_s_tasks_are_in_the_report() {
    let home = Home::new();
    home.repo("src/client");
    write_roo_task(&home, ".config/Code/User/globalStorage/rooveterinaryinc.roo-cline");
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    for line in [
        "## client · no commits · 1 AI session, 1 prompt",
        "- AI: Roo Code `Add retries to the HTTP client` (1 prompt, claude-sonnet-4-5)",
        "- Blocked?: `cargo test -p client` failed at 10:00 (Roo Code session), and the session ended there",
        "- Next: Test the timeout path (Roo Code `019c-roo`)",
    ] {
        assert!(run.stdout.lines().any(|got| got.starts_with(line)), "{line}\n{}", run.stdout);
    }
    // Switched off by name; moved with `roo_home` (its `customStoragePath`).
    home.config("[sessions]\nagents = [\"claude\"]\n");
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm"]);
    assert!(!run.stdout.contains("Roo Code"), "{}", run.stdout);
    let home = Home::new();
    home.repo("src/client");
    write_roo_task(&home, "roo-storage");
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm"]);
    assert!(!run.stdout.contains("Roo Code"), "{}", run.stdout);
    home.config("[sessions]\nroo_home = \"~/roo-storage\"\n");
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm"]);
    assert!(run.stdout.contains("- AI: Roo Code `Add retries"), "{}", run.stdout);
    let doctor = home.run(NOW, TOKYO, &["doctor"]);
    assert!(doctor.stdout.contains("roo: found · 1 file · 1 session today"), "{}", doctor.stdout);
}

#[test]
fn vs_code_s_own_chat_is_in_the_report() {
    let home = Home::new();
    home.repo("src/client");
    // 2026-12-02 10:00 Tokyo, in epoch milliseconds; a session as VS Code's operation log
    // keeps it (its first state, then the request appended).
    let t0: i64 = 1_796_173_200_000;
    let storage = ".config/Code/User/workspaceStorage/4f1c";
    home.write(
        &format!("{storage}/workspace.json"),
        &format!(r#"{{"folder":"file://{}"}}"#, home.path().join("src/client").display()),
    );
    home.write(
        &format!("{storage}/chatSessions/vs-1.jsonl"),
        &format!(
            r#"{{"kind":0,"v":{{"version":3,"sessionId":"vs-1","creationDate":{t0},"requests":[]}}}}
{{"kind":2,"k":["requests"],"v":[{{"requestId":"a","timestamp":{},"message":{{"text":"Why does the retry test flake?"}},"modelId":"copilot/gpt-4.1","response":[{{"kind":"toolInvocationSerialized","toolId":"run_in_terminal","toolSpecificData":{{"kind":"terminal","commandLine":{{"original":"cargo test retry"}},"terminalCommandState":{{"exitCode":101,"timestamp":{}}}}}}},{{"kind":"toolInvocationSerialized","toolId":"manage_todo_list","toolSpecificData":{{"kind":"todoList","todoList":[{{"id":1,"title":"Pin the clock in the retry test","status":"not-started"}}]}}}}]}}]}}
"#,
            t0 + 1_000,
            t0 + 30_000
        ),
    );
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    for line in [
        "## client · no commits · 1 AI session, 1 prompt",
        "- AI: VS Code Chat `Why does the retry test flake?` (1 prompt, copilot/gpt-4.1)",
        "- Blocked?: `cargo test retry` failed at 10:00 (VS Code Chat session), and the session ended there",
        "- Next: Pin the clock in the retry test (VS Code Chat `vs-1`)",
    ] {
        assert!(run.stdout.lines().any(|got| got.starts_with(line)), "{line}\n{}", run.stdout);
    }
    home.config("[sessions]\nagents = [\"claude\"]\n");
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm"]);
    assert!(!run.stdout.contains("VS Code Chat"), "{}", run.stdout);
}

/// Claude Code's task tools (`fixtures/claude-tasks/<version>/`, recorded interactively
/// by `record.sh` there): the list its files hold is the project's next steps, in `daily`
/// and `standup`, in English and Japanese, read an hour after the recording.
#[test]
fn claude_code_s_task_list_is_the_next_step() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/claude-tasks");
    for version in fs_err::read_dir(&root).unwrap() {
        let folder = version.unwrap().path();
        if !folder.is_dir() {
            continue;
        }
        let home = Home::new();
        let expected = expected(&folder);
        let until: jiff::Timestamp = expected["until"].as_str().unwrap().parse().unwrap();
        copy_tree(&folder.join("home"), home.path(), SystemTime::from(until));
        let now = (until + jiff::SignedDuration::from_hours(1))
            .to_zoned(jiff::tz::TimeZone::get(TOKYO).unwrap())
            .strftime("%Y-%m-%dT%H:%M:%S%:z")
            .to_string();
        let short = &expected["session"].as_str().unwrap()[..8];
        let ai = "- AI: Claude Code `Write a to-do list for this repo and run the check` (1 prompt, claude-opus-4-5)";
        let next = format!(
            "- Next: Add a test for hello.sh (in progress) · Wire check.sh into CI (Claude Code `{short}`)"
        );
        for command in ["daily", "standup"] {
            let run = home.run(&now, TOKYO, &[command, "--no-llm"]);
            assert_eq!(run.code, 0, "{}", run.snapshot());
            for line in [ai, next.as_str()] {
                assert!(run.stdout.lines().any(|got| got == line), "{line}\n{}", run.stdout);
            }
        }
        let run = home.run(&now, TOKYO, &["daily", "--no-llm", "--lang", "ja"]);
        let next = format!(
            "- 次: Add a test for hello.sh（作業中） · Wire check.sh into CI（Claude Code `{short}`）"
        );
        assert!(run.stdout.lines().any(|got| got == next), "{}", run.stdout);
    }
}
