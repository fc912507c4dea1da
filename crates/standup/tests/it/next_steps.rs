//! Next steps from the agents' own to-do lists (Claude Code's `TodoWrite`, Codex's
//! `update_plan`, Gemini CLI's `write_todos`), through the real binary: a Monday standup
//! shows each open item under its project, in English, Japanese and the JSON, citing its
//! session, beside the work left open; a home without any list shows no "Next" line at all.

use serde_json::{Value, json};

use crate::support::{Home, ME, at, jsonl, report_json};

const TOKYO: &str = "Asia/Tokyo";
/// Monday 2026-11-30, 09:00 in Tokyo: the standup covers Friday 2026-11-27.
const MONDAY_MORNING: &str = "2026-11-30T09:00:00+09:00";
const CLAUDE_ID: &str = "70d0c1a0-0000-4000-8000-000000000001";
const CODEX_ID: &str = "0199c0de-0000-7000-8000-000000000002";

/// Two repositories, `app` (with a remote and a commit not pushed) and `api`.
fn home_with_repos() -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let remote = home.path().join("remote.git");
    let app = home.repo("app");
    app.git(&["init", "-q", "--bare", remote.to_str().unwrap()]);
    app.git(&["remote", "add", "origin", remote.to_str().unwrap()]);
    app.commit("client.rs", "client: first cut", "2026-11-27T10:00:00+09:00");
    app.git(&["push", "-q", "origin", "main"]);
    app.commit("retry.rs", "client: retry on 503", "2026-11-27T15:00:00+09:00");
    let api = home.repo("api");
    api.commit("ci.yml", "ci: pin the runner", "2026-11-27T13:00:00+09:00");
    home
}

/// A Claude Code transcript in `app` whose newest `TodoWrite` left two items pending and
/// one done (an older list is superseded).
fn write_claude(home: &Home) {
    let cwd = home.path().join("src/app").display().to_string();
    let record = |kind: &str, uuid: &str, time: &str, message: Value| {
        json!({
            "parentUuid": null, "isSidechain": false, "userType": "external", "cwd": cwd,
            "sessionId": CLAUDE_ID, "version": "2.1.50", "gitBranch": "main", "type": kind,
            "message": message, "uuid": uuid, "timestamp": at(time),
        })
    };
    let todo_write = |todos: Value| {
        json!({"model": "claude-sonnet-4-5", "id": "msg_t", "type": "message", "role": "assistant",
               "content": [{"type": "tool_use", "id": "toolu_1", "name": "TodoWrite", "input": {"todos": todos}}]})
    };
    home.write(
        &format!(".claude/projects/-x-src-app/{CLAUDE_ID}.jsonl"),
        &jsonl(&[
            record("user", "00000000-0000-4000-8000-000000000001", "09:30:00",
                json!({"role": "user", "content": "Write the HTTP client with retries"})),
            record("assistant", "00000000-0000-4000-8000-000000000002", "09:31:00", todo_write(json!([
                {"content": "write the client", "status": "in_progress", "activeForm": "Writing the client"},
                {"content": "an old plan step", "status": "pending", "activeForm": "Planning"},
            ]))),
            record("assistant", "00000000-0000-4000-8000-000000000003", "15:10:00", todo_write(json!([
                {"content": "write the client", "status": "completed", "activeForm": "Writing the client"},
                {"content": "add the retry test", "status": "pending", "activeForm": "Adding the retry test"},
                {"content": "wire the *Slack* output", "status": "pending", "activeForm": "Wiring the Slack output"},
            ]))),
        ]),
    );
}

/// A Codex rollout in `api` whose `update_plan` is unfinished.
pub(crate) fn write_codex(home: &Home) {
    let cwd = home.path().join("src/api").display().to_string();
    let arguments = json!({"explanation": "Fixing CI", "plan": [
        {"step": "Reproduce the flaky job", "status": "completed"},
        {"step": "Fix the retry backoff", "status": "in_progress"},
        {"step": "Add a regression test", "status": "pending"},
    ]})
    .to_string();
    home.write(
        &format!(".codex/sessions/2026/11/27/rollout-2026-11-27T12-00-00-{CODEX_ID}.jsonl"),
        &jsonl(&[
            json!({"timestamp": at("12:00:00"), "type": "session_meta", "payload": {"id": CODEX_ID, "timestamp": at("12:00:00"), "cwd": cwd, "originator": "codex_cli_rs", "cli_version": "0.171.0"}}),
            json!({"timestamp": at("12:00:02"), "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Why is the CI job flaky?"}]}}),
            json!({"timestamp": at("12:01:00"), "type": "response_item", "payload": {"type": "function_call", "name": "update_plan", "arguments": arguments, "call_id": "call_1"}}),
            json!({"timestamp": at("12:01:01"), "type": "response_item", "payload": {"type": "function_call_output", "call_id": "call_1", "output": "Plan updated"}}),
        ]),
    );
}

pub(crate) fn standup(home: &Home, lang: &str) -> String {
    home.run(MONDAY_MORNING, TOKYO, &["standup", "--no-llm", "--lang", lang]).success().to_owned()
}

pub(crate) fn project<'a>(report: &'a Value, bucket: usize, name: &str) -> &'a Value {
    report["buckets"][bucket]["projects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|project| project["name"] == name)
        .unwrap_or_else(|| panic!("no project {name} in {report:#}"))
}

/// The lines of the section of `project` (from its heading to the next blank line).
pub(crate) fn section<'a>(markdown: &'a str, project: &str) -> Vec<&'a str> {
    let mut lines =
        markdown.lines().skip_while(|line| !line.starts_with(&format!("### {project} ·")));
    lines.next();
    lines.skip_while(|line| line.is_empty()).take_while(|line| !line.is_empty()).collect()
}

#[test]
fn a_monday_standup_shows_the_agents_open_items_under_their_projects() {
    let home = home_with_repos();
    write_claude(&home);
    write_codex(&home);

    let en = standup(&home, "en");
    let app = section(&en, "app");
    assert!(
        app.contains(
            &"- Next: add the retry test · wire the \\*Slack\\* output (Claude Code `70d0c1a0`)"
        ),
        "{en}"
    );
    // The work left open is in the same project section.
    assert!(app.contains(&"- In progress: 1 commit not pushed"), "{en}");
    assert!(
        section(&en, "api").contains(
            &"- Next: Fix the retry backoff (in progress) · Add a regression test (Codex `0199c0de`)"
        ),
        "{en}"
    );
    // Done items and superseded lists are not shown.
    assert!(!en.contains("write the client") && !en.contains("old plan"), "{en}");
    assert!(!en.contains("Reproduce the flaky job"), "{en}");

    let ja = standup(&home, "ja");
    assert!(
        section(&ja, "app").contains(
            &"- 次: add the retry test · wire the \\*Slack\\* output（Claude Code `70d0c1a0`）"
        ),
        "{ja}"
    );
    assert!(section(&ja, "app").contains(&"- 作業中: 未プッシュ1コミット"), "{ja}");
    assert!(
        section(&ja, "api").contains(
            &"- 次: Fix the retry backoff（作業中） · Add a regression test（Codex `0199c0de`）"
        ),
        "{ja}"
    );

    let report = report_json(&home, MONDAY_MORNING, TOKYO, &["standup"]);
    // Friday is the last bucket both projects appear in; Monday has no activity.
    assert!(report["buckets"][1]["projects"].as_array().unwrap().is_empty(), "{report:#}");
    assert_eq!(
        project(&report, 0, "app")["next"],
        json!([
            {"text": "add the retry test", "status": "pending", "agent": "claude_code",
             "session_id": CLAUDE_ID, "time": "2026-11-27T06:10:00Z"},
            {"text": "wire the *Slack* output", "status": "pending", "agent": "claude_code",
             "session_id": CLAUDE_ID, "time": "2026-11-27T06:10:00Z"},
        ])
    );
    assert_eq!(project(&report, 0, "app")["wip"]["unpushed_commits"], 1);
    let api_next = &project(&report, 0, "api")["next"];
    assert_eq!(api_next[0]["status"], "in_progress");
    assert_eq!(api_next[1]["text"], "Add a regression test");
    assert_eq!(api_next[1]["agent"], "codex");
    assert_eq!(api_next[1]["session_id"], CODEX_ID);

    // Slack, text and HTML carry the line too (written from the Markdown).
    for format in ["slack", "text", "html"] {
        let out = home
            .run(MONDAY_MORNING, TOKYO, &["standup", "--no-llm", "--format", format])
            .success()
            .to_owned();
        assert!(
            out.contains("add the retry test") && out.contains("Fix the retry backoff"),
            "{format}: {out}"
        );
    }
}

#[test]
fn a_home_without_any_to_do_list_shows_no_next_line() {
    let home = home_with_repos();
    for lang in ["en", "ja"] {
        let markdown = standup(&home, lang);
        // No project has a "Next:" line (the standup's "Next" section lists the unpushed
        // commit as work left open: tests/it/forward.rs).
        assert!(!markdown.contains("Next:") && !markdown.contains("次:"), "{markdown}");
    }
    let report = report_json(&home, MONDAY_MORNING, TOKYO, &["standup"]);
    let text = report.to_string();
    assert!(!text.contains("\"next\""), "{report:#}");
}

#[test]
fn a_gemini_cli_sessions_write_todos_gives_its_projects_next_line() {
    let home = home_with_repos();
    let id = "5e551011-0000-4000-8000-000000000003";
    let folder = ".gemini/tmp/api";
    home.write(
        &format!("{folder}/.project_root"),
        &home.path().join("src/api").display().to_string(),
    );
    // As Gemini CLI records it: the `gemini` message is written again, calls merged, as
    // each call finishes; the newest successful `write_todos` is the list.
    let call = |call: &str, time: &str, todos: Value| {
        json!({"id": call, "name": "write_todos", "args": {"todos": todos}, "status": "success",
               "timestamp": at(time), "displayName": "WriteTodos", "renderOutputAsMarkdown": true})
    };
    let first = call(
        "write_todos-1",
        "13:05:00",
        json!([
            {"description": "Find the flaky job", "status": "in_progress"},
        ]),
    );
    let second = call(
        "write_todos-2",
        "13:20:00",
        json!([
            {"description": "Find the flaky job", "status": "completed"},
            {"description": "Pin the runner image", "status": "in_progress"},
            {"description": "Re-run the nightly build", "status": "pending"},
        ]),
    );
    let message = |calls: Value| {
        json!({"id": "g1", "timestamp": at("13:04:00"), "type": "gemini", "content": "",
               "toolCalls": calls, "thoughts": [], "model": "gemini-2.5-pro"})
    };
    home.write(
        &format!("{folder}/chats/session-2026-11-27T04-00-5e551011.jsonl"),
        &jsonl(&[
            json!({"sessionId": id, "projectHash": "a".repeat(64), "startTime": at("13:00:00"), "lastUpdated": at("13:00:00"), "kind": "main"}),
            json!({"id": "u1", "timestamp": at("13:00:05"), "type": "user", "content": [{"text": "Why does CI fail on the runner?"}]}),
            message(json!([first.clone()])),
            message(json!([first, second])),
        ]),
    );

    let en = standup(&home, "en");
    assert!(
        section(&en, "api").contains(
            &"- Next: Pin the runner image (in progress) · Re-run the nightly build (Gemini `5e551011`)"
        ),
        "{en}"
    );
    assert!(!en.contains("Find the flaky job"), "{en}");
    let report = report_json(&home, MONDAY_MORNING, TOKYO, &["standup"]);
    let next = &project(&report, 0, "api")["next"];
    assert_eq!(next[0]["text"], "Pin the runner image");
    assert_eq!(next[0]["status"], "in_progress");
    assert_eq!(next[1]["agent"], "gemini");
    assert_eq!(next[1]["session_id"], id);
    assert_eq!(next[1]["time"], "2026-11-27T04:20:00Z");
}
