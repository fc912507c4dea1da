//! Blockers from an agent's own failed shell commands, through the real binary: a Monday
//! standup on a home where the last Claude Code session of `api` ran `cargo test -p api`
//! twice through its `Bash` tool and both runs failed, and the last Codex session of
//! `app` ended on a failed `sh check.sh`, shows each under its project as "Blocked?: …"
//! in English, Japanese and the JSON, citing the session; a command the agent later ran
//! again and passed, an interrupted run (130), `grep`'s "no match" (1), a failure in an
//! earlier session and a single failure followed by other work show none.

use serde_json::{Value, json};

use crate::next_steps::{project, standup};
use crate::support::{Home, ME, report_json};
use crate::support::{at, jsonl};

const TOKYO: &str = "Asia/Tokyo";
/// Monday 2026-11-30, 09:00 in Tokyo: the standup covers Friday 2026-11-27.
const MONDAY_MORNING: &str = "2026-11-30T09:00:00+09:00";
const CLAUDE_ID: &str = "70d0c1a0-0000-4000-8000-00000000000a";
const EARLIER_ID: &str = "70d0c1a0-0000-4000-8000-00000000000b";
const CODEX_ID: &str = "0199c0de-0000-7000-8000-00000000000c";

/// One step of a Claude Code session: a `Bash` call and its result (exit status), or
/// the agent's closing text.
enum Step<'a> {
    Bash(&'a str, &'a str, i64),
    Text(&'a str),
}

/// A Claude Code transcript in `src/<repo>` as Claude Code writes it: a prompt, then each
/// `Bash` call (an assistant `tool_use`) and its `tool_result` (`is_error` and `Exit
/// code N` when N is not 0), then text.
fn write_claude(home: &Home, repo: &str, id: &str, prompt_at: &str, steps: &[Step]) {
    let cwd = home.path().join("src").join(repo).display().to_string();
    let record = |kind: &str, n: usize, time: &str, message: Value| {
        json!({
            "parentUuid": null, "isSidechain": false, "userType": "external", "cwd": cwd,
            "sessionId": id, "version": "2.1.197", "gitBranch": "main", "type": kind,
            "message": message, "uuid": format!("00000000-0000-4000-8000-{n:012}"),
            "timestamp": at(time),
        })
    };
    let mut lines = vec![record(
        "user",
        1,
        prompt_at,
        json!({"role": "user", "content": "Make the tests pass"}),
    )];
    for (index, step) in steps.iter().enumerate() {
        let n = 2 + 2 * index;
        match step {
            Step::Bash(time, command, exit) => {
                let tool_id = format!("toolu_{n}");
                lines.push(record("assistant", n, time, json!({
                    "model": "claude-sonnet-4-5", "id": format!("msg_{n}"), "type": "message", "role": "assistant",
                    "content": [{"type": "tool_use", "id": tool_id, "name": "Bash",
                                 "input": {"command": command, "description": "Run it"}}]})));
                let result = if *exit == 0 {
                    json!({"type": "tool_result", "tool_use_id": tool_id, "content": "ok"})
                } else {
                    json!({"type": "tool_result", "tool_use_id": tool_id, "is_error": true,
                           "content": format!("Exit code {exit}\nerror: test failed")})
                };
                lines.push(record(
                    "user",
                    n + 1,
                    time,
                    json!({"role": "user", "content": [result]}),
                ));
            }
            Step::Text(time) => lines.push(record("assistant", n, time, json!({
                "model": "claude-sonnet-4-5", "id": format!("msg_{n}"), "type": "message", "role": "assistant",
                "content": [{"type": "text", "text": "Done for now."}]}))),
        }
    }
    let folder = format!("-x-src-{repo}");
    home.write(&format!(".claude/projects/{folder}/{id}.jsonl"), &jsonl(&lines));
}

/// A Codex rollout in `src/app` as 0.171.0 writes it, whose last command (`sh
/// check.sh`, exit 3) failed: an `item_completed` `CommandExecution` event.
fn write_codex(home: &Home) {
    let cwd = home.path().join("src/app").display().to_string();
    let command = |id: &str, time: &str, line: &str, exit: i64| {
        json!({"timestamp": at(time), "type": "event_msg", "payload": {"type": "item_completed",
            "item": {"type": "CommandExecution", "id": id, "command": ["/bin/bash", "-lc", line],
                     "status": if exit == 0 { "completed" } else { "failed" }, "exit_code": exit}}})
    };
    home.write(
        &format!(".codex/sessions/2026/11/27/rollout-2026-11-27T12-00-00-{CODEX_ID}.jsonl"),
        &jsonl(&[
            json!({"timestamp": at("12:00:00"), "type": "session_meta", "payload": {"id": CODEX_ID, "timestamp": at("12:00:00"), "cwd": cwd, "originator": "codex_cli_rs", "cli_version": "0.171.0"}}),
            json!({"timestamp": at("12:00:02"), "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Run the checks"}]}}),
            command("call_1", "12:01:00", "grep -r TODO src", 1),
            command("call_2", "12:02:00", "sh check.sh", 3),
        ]),
    );
}

fn home_with_repos() -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    home.repo("api").commit("ci.yml", "ci: pin the runner", "2026-11-27T09:00:00+09:00");
    home.repo("app").commit("client.rs", "client: first cut", "2026-11-27T10:00:00+09:00");
    home
}

/// The list under the heading `heading`: its lines up to the first blank line after them.
fn blockers<'a>(markdown: &'a str, heading: &str) -> Vec<&'a str> {
    let mut lines = markdown.lines().skip_while(|line| *line != heading);
    lines.next();
    lines.skip_while(|line| line.is_empty()).take_while(|line| !line.is_empty()).collect()
}

#[test]
fn a_monday_standup_lists_an_agents_failing_commands_with_their_projects() {
    let home = home_with_repos();
    // An earlier session of `api` whose failure does not count: it is not the last one.
    write_claude(
        &home,
        "api",
        EARLIER_ID,
        "13:00:00",
        &[Step::Bash("13:05:00", "cargo build", 101), Step::Bash("13:06:00", "cargo build", 101)],
    );
    write_claude(
        &home,
        "api",
        CLAUDE_ID,
        "16:00:00",
        &[
            Step::Bash("16:10:00", "cargo test -p api", 101),
            Step::Bash("16:12:00", "cargo fmt", 0),
            Step::Bash("16:20:00", "cargo test -p api", 101),
            Step::Text("16:21:00"),
        ],
    );
    write_codex(&home);

    // The standup's one list of blockers, each led by its project.
    let en = standup(&home, "en");
    assert_eq!(
        blockers(&en, "## Blockers"),
        [
            "- api — Blocked?: `cargo test -p api` failed 2 times since 2026-11-27 16:10 (Claude Code session), no passing run after",
            "- app — Blocked?: `sh check.sh` failed at 2026-11-27 12:02 (Codex session), and the session ended there",
        ],
        "{en}"
    );
    assert!(!en.contains("cargo build`") && !en.contains("`grep"), "{en}");

    let ja = standup(&home, "ja");
    assert_eq!(
        blockers(&ja, "## 課題・懸念"),
        [
            "- api — 要確認: Claude Code のセッションで `cargo test -p api` が2026-11-27 16:10以降2回失敗し、その後成功していません",
            "- app — 要確認: Codex のセッションで `sh check.sh` が2026-11-27 12:02に失敗し、そのままセッションが終わっています",
        ],
        "{ja}"
    );

    let report = report_json(&home, MONDAY_MORNING, TOKYO, &["standup"]);
    assert_eq!(
        project(&report, 0, "api")["blockers"],
        json!([{
            "kind": "agent_failing_command",
            "text": "cargo test -p api",
            "evidence": [
                {"type": "session", "agent": "claude_code", "session_id": CLAUDE_ID, "time": "2026-11-27T07:10:00Z"},
                {"type": "command", "time": "2026-11-27T07:10:00Z", "exit": 101},
                {"type": "command", "time": "2026-11-27T07:20:00Z", "exit": 101},
            ],
            "time": "2026-11-27T07:10:00Z",
        }])
    );
    let app = &project(&report, 0, "app")["blockers"];
    assert_eq!(app.as_array().map(Vec::len), Some(1), "{app:#}");
    assert_eq!(app[0]["kind"], "agent_failing_command");
    assert_eq!(app[0]["evidence"][0]["session_id"], CODEX_ID);
    assert_eq!(
        app[0]["evidence"][1],
        json!({"type": "command", "time": "2026-11-27T03:02:00Z", "exit": 3})
    );
}

#[test]
fn an_agents_command_that_passed_again_was_interrupted_or_failed_once_mid_session_is_no_blocker() {
    let home = home_with_repos();
    write_claude(
        &home,
        "api",
        CLAUDE_ID,
        "16:00:00",
        &[
            Step::Bash("16:10:00", "cargo test", 101),
            Step::Bash("16:11:00", "cargo test", 101),
            Step::Bash("16:20:00", "cargo test", 0),
            Step::Bash("16:30:00", "cargo run", 130),
            Step::Bash("16:31:00", "cargo run", 130),
            Step::Bash("16:40:00", "grep -r TODO src", 1),
            Step::Bash("16:41:00", "grep -r TODO src", 1),
            // Failed once, then other work came after it.
            Step::Bash("16:50:00", "cargo clippy", 101),
            Step::Bash("16:51:00", "ls", 0),
            Step::Text("16:52:00"),
        ],
    );
    for lang in ["en", "ja"] {
        let markdown = standup(&home, lang);
        assert!(!markdown.contains("Blocked?") && !markdown.contains("要確認"), "{markdown}");
    }
    let report = report_json(&home, MONDAY_MORNING, TOKYO, &["standup"]);
    assert!(!report.to_string().contains("\"blockers\""), "{report:#}");
}
