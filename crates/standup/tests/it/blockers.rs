//! Blockers from the evidence, without a model, through the real binary: a Monday standup
//! on a home whose atuin history has `cargo test` failing three times in a row, and a
//! commit reverted the same day, lists each in its one "Blockers" list with its project
//! as "Blocked?: …" in English, Japanese and the JSON, with the evidence (the daily report
//! keeps them under their projects); a model's blocker joins the list, once when it cites
//! what an evidence blocker rests on; a command that later passed, and a home with nothing
//! of the kind, show no line at all.

use serde_json::json;

use crate::next_steps::{project, section, standup};
use crate::support::{self, Home, ME, report_json};

const TOKYO: &str = "Asia/Tokyo";
/// Monday 2026-11-30, 09:00 in Tokyo: the standup covers Friday 2026-11-27.
const MONDAY_MORNING: &str = "2026-11-30T09:00:00+09:00";

/// The list under the heading that starts with `heading`: its lines up to the first blank
/// line after them.
fn list<'a>(markdown: &'a str, heading: &str) -> Vec<&'a str> {
    let mut lines = markdown.lines().skip_while(|line| !line.starts_with(heading));
    lines.next();
    lines.skip_while(|line| line.is_empty()).take_while(|line| !line.is_empty()).collect()
}

/// Two repositories: `app` (a commit, and its revert later that day) and `api`.
fn home_with_repos() -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let app = home.repo("app");
    app.commit("client.rs", "client: first cut", "2026-11-27T10:00:00+09:00");
    app.commit("retry.rs", "client: retry on 503", "2026-11-27T11:00:00+09:00");
    app.commit("retry2.rs", "Revert \"client: retry on 503\"", "2026-11-27T16:40:00+09:00");
    let api = home.repo("api");
    api.commit("ci.yml", "ci: pin the runner", "2026-11-27T13:00:00+09:00");
    home
}

/// An atuin history of commands run in `api` on Friday: each `(time, command, exit)`.
fn write_atuin(home: &Home, runs: &[(&str, &str, i64)]) {
    let db_path = home.path().join(".local/share/atuin/history.db");
    support::write_atuin(&db_path, &home.path().join("src/api"), runs);
}

#[test]
fn a_monday_standup_lists_a_failing_command_and_a_revert_with_their_projects() {
    let home = home_with_repos();
    write_atuin(
        &home,
        &[
            ("15:00:00", "cargo test -p api", 0),
            ("16:10:00", "cargo test -p api", 101),
            ("16:20:00", "cargo test -p api", 101),
            ("16:45:00", "cargo test -p api", 101),
            ("16:50:00", "cargo build", 0),
        ],
    );

    let en = standup(&home, "en");
    assert_eq!(
        list(&en, "## Blockers"),
        [
            "- api — Blocked?: `cargo test -p api` failed 3 times since 2026-11-27 16:10, no passing run after",
            "- app — Blocked?: `client: retry on 503` was reverted at 2026-11-27 16:40",
        ],
        "{en}"
    );
    // Listed once: not also under their projects.
    assert_eq!(en.matches("Blocked?").count(), 2, "{en}");
    assert!(!section(&en, "api").iter().any(|line| line.contains("Blocked?")), "{en}");

    let ja = standup(&home, "ja");
    assert_eq!(
        list(&ja, "## 課題・懸念"),
        [
            "- api — 要確認: `cargo test -p api` が2026-11-27 16:10以降3回失敗し、その後成功していません",
            "- app — 要確認: `client: retry on 503` が2026-11-27 16:40に取り消されました（revert）",
        ],
        "{ja}"
    );

    // Friday's own daily report keeps each under its project.
    let friday = ["daily", "--no-llm", "--date", "2026-11-27"];
    let daily = home.run(MONDAY_MORNING, TOKYO, &friday).success().to_owned();
    assert!(
        list(&daily, "## api ·").contains(
            &"- Blocked?: `cargo test -p api` failed 3 times since 16:10, no passing run after"
        ),
        "{daily}"
    );
    assert!(
        list(&daily, "## app ·")
            .contains(&"- Blocked?: `client: retry on 503` was reverted at 16:40"),
        "{daily}"
    );
    assert!(!daily.contains("## Blockers"), "{daily}");

    let report = report_json(&home, MONDAY_MORNING, TOKYO, &["standup"]);
    assert_eq!(
        project(&report, 0, "api")["blockers"],
        json!([{
            "kind": "failing_command",
            "text": "cargo test -p api",
            "evidence": [
                {"type": "command", "time": "2026-11-27T07:10:00Z", "exit": 101},
                {"type": "command", "time": "2026-11-27T07:20:00Z", "exit": 101},
                {"type": "command", "time": "2026-11-27T07:45:00Z", "exit": 101},
            ],
            "time": "2026-11-27T07:10:00Z",
        }])
    );
    let app = &project(&report, 0, "app")["blockers"];
    assert_eq!(app[0]["kind"], "reverted_commit");
    assert_eq!(app[0]["text"], "client: retry on 503");
    assert_eq!(app[0]["time"], "2026-11-27T07:40:00Z");
    let commits = project(&report, 0, "app")["commits"].as_array().unwrap();
    let hash = |subject: &str| {
        commits.iter().find(|commit| commit["subject"] == subject).unwrap()["hash"].clone()
    };
    assert_eq!(app[0]["evidence"][0]["hash"], hash("client: retry on 503"));
    assert_eq!(app[0]["evidence"][1]["hash"], hash("Revert \"client: retry on 503\""));

    // Slack, text and HTML carry the lines too (written from the Markdown).
    for format in ["slack", "text", "html"] {
        let out = home
            .run(MONDAY_MORNING, TOKYO, &["standup", "--no-llm", "--format", format])
            .success()
            .to_owned();
        assert!(
            out.contains("failed 3 times since 2026-11-27 16:10")
                && out.contains("was reverted at"),
            "{format}: {out}"
        );
        assert_eq!(out.matches("Blocked?").count(), 2, "{format}: {out}");
    }
}

#[test]
fn a_failing_command_that_later_passed_and_a_quiet_home_show_no_blocker_line() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    home.repo("api").commit("ci.yml", "ci: pin the runner", "2026-11-27T13:00:00+09:00");
    write_atuin(
        &home,
        &[
            ("16:10:00", "cargo test", 101),
            ("16:20:00", "cargo test", 101),
            ("16:30:00", "cargo test", 101),
            ("16:40:00", "cargo test", 0),
            // Failed once only.
            ("16:50:00", "cargo clippy", 101),
        ],
    );
    for lang in ["en", "ja"] {
        let markdown = standup(&home, lang);
        assert!(markdown.contains("cargo test"), "{markdown}");
        assert!(!markdown.contains("Blocked?") && !markdown.contains("要確認"), "{markdown}");
        assert!(!markdown.contains("Blockers") && !markdown.contains("課題・懸念"), "{markdown}");
    }
    let report = report_json(&home, MONDAY_MORNING, TOKYO, &["standup"]);
    assert!(!report.to_string().contains("\"blockers\""), "{report:#}");
}

/// The model's possible blockers join the one list: one citing the failing command's own
/// id and one citing the reverted commit are what the evidence already shows, so each is
/// shown once (as the evidence's line); one about other work is added after the noted
/// ones. The JSON keeps the model's list as it was checked.
#[test]
fn the_models_blockers_join_the_list_and_one_citing_an_evidence_blocker_is_shown_once() {
    use httpmock::prelude::*;
    let home = home_with_repos();
    write_atuin(
        &home,
        &[
            ("16:10:00", "cargo test -p api", 101),
            ("16:20:00", "cargo test -p api", 101),
            ("16:45:00", "cargo test -p api", 101),
        ],
    );
    let plain = report_json(&home, MONDAY_MORNING, TOKYO, &["standup"]);
    let commit_id = |name: &str, subject: &str| -> String {
        let commits = project(&plain, 0, name)["commits"].as_array().unwrap().clone();
        let commit = commits.iter().find(|commit| commit["subject"] == subject).unwrap();
        commit["hash"].as_str().unwrap()[..10].to_owned()
    };
    let pin = commit_id("api", "ci: pin the runner");
    let retry = commit_id("app", "client: retry on 503");
    let reply = json!({
        "summary": [{"text": "The api project pinned the CI runner.", "evidence": [pin]}],
        "blockers": [
            {"text": "cargo test -p api keeps failing.", "evidence": ["blocker:cargo test -p api"]},
            {"text": "The retry on 503 in app was reverted.", "evidence": [retry]},
            {"text": "The CI runner pin in api may need a follow-up.", "evidence": [pin]},
        ],
    });
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(200).json_body(json!({
            "message": {"role": "assistant", "content": reply.to_string()}, "done": true,
        }));
    });
    home.config(&format!(
        "[llm]\napi = \"ollama\"\nendpoint = \"{}\"\nmodel = \"m\"\n",
        server.base_url()
    ));

    let en = home.run(MONDAY_MORNING, TOKYO, &["standup", "--no-cache"]).success().to_owned();
    assert_eq!(
        list(&en, "## Blockers"),
        [
            "- api — Blocked?: `cargo test -p api` failed 3 times since 2026-11-27 16:10, no passing run after",
            "- app — Blocked?: `client: retry on 503` was reverted at 2026-11-27 16:40",
            "- The CI runner pin in api may need a follow-up.",
        ],
        "{en}"
    );
    for format in ["slack", "text", "html"] {
        let out = home
            .run(MONDAY_MORNING, TOKYO, &["standup", "--no-cache", "--format", format])
            .success()
            .to_owned();
        assert!(out.contains("may need a follow-up"), "{format}: {out}");
        assert!(
            !out.contains("keeps failing") && !out.contains("in app was reverted"),
            "{format}: {out}"
        );
    }
    let run = home.run(MONDAY_MORNING, TOKYO, &["standup", "--no-cache", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(run.success()).unwrap();
    assert_eq!(report["narrative"]["blockers"].as_array().unwrap().len(), 3, "{report:#}");
}
