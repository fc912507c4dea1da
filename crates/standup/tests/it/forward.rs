//! The standup that looks forward (issue 21), through the real binary: `standup note`
//! (add, list, close, edit) kept per day under `$XDG_DATA_HOME/standup/notes`; a Monday
//! standup with a Claude Code to-do list, an unfinished Codex plan, `cargo test` failing
//! three times in atuin, unpushed commits, a Friday `note --plan` and a ticket branch, in
//! English, Japanese and the JSON; ticket links and grouping; a week's "Still open"; and a
//! home with none of these, which shows no empty heading.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::next_steps::write_codex;
use crate::support::{self, Home, ME, Run, at, jsonl};

const TOKYO: &str = "Asia/Tokyo";
/// Monday 2026-11-30, 09:00 in Tokyo: the standup covers Friday 2026-11-27 to Sunday.
const MONDAY_MORNING: &str = "2026-11-30T09:00:00+09:00";
const FRIDAY_EVENING: &str = "2026-11-27T18:00:00+09:00";
const CLAUDE_ID: &str = "70d0c1a0-0000-4000-8000-000000000001";

/// The notes folder the tests pin (`XDG_DATA_HOME` is set to `~/data`).
fn data_home(home: &Home) -> PathBuf {
    home.path().join("data")
}

/// Runs the binary with `XDG_DATA_HOME` pinned (and, when given, `EDITOR`).
fn run(home: &Home, now: &str, args: &[&str], editor: Option<&str>) -> Run {
    let mut command = home.command(home.path(), now, TOKYO, args);
    command.env("XDG_DATA_HOME", data_home(home));
    if let Some(editor) = editor {
        command.env("EDITOR", editor);
    }
    home.run_command(&mut command)
}

fn note(home: &Home, now: &str, args: &[&str]) -> Run {
    run(home, now, &[&["note"], args].concat(), None)
}

fn standup(home: &Home, lang: &str) -> String {
    run(home, MONDAY_MORNING, &["standup", "--no-llm", "--lang", lang], None).success().to_owned()
}

fn json_report(home: &Home, now: &str, args: &[&str]) -> Value {
    let args = [args, &["--no-llm", "--format", "json"]].concat();
    serde_json::from_str(run(home, now, &args, None).success()).unwrap()
}

/// The lines of the section under the heading `heading` (up to the next heading or the
/// totals).
fn section<'a>(markdown: &'a str, heading: &str) -> Vec<&'a str> {
    let mut lines = markdown.lines().skip_while(|line| !line.starts_with(heading));
    lines.next();
    lines
        .take_while(|line| {
            !line.starts_with('#') && !line.starts_with("Totals:") && !line.starts_with("合計:")
        })
        .filter(|line| !line.is_empty())
        .collect()
}

/// `app` (a remote; `client: first cut` pushed on `main`, then `client: retry on 503` on
/// Friday and `client: add the retry test` on Monday morning, both on the ticket branch
/// `feature/PAY-7-retry` and not pushed) and `api` (one commit, no remote).
fn home_with_repos() -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let remote = home.path().join("remote.git");
    let app = home.repo("app");
    app.git(&["init", "-q", "--bare", remote.to_str().unwrap()]);
    app.git(&["remote", "add", "origin", remote.to_str().unwrap()]);
    app.commit("client.rs", "client: first cut", "2026-11-27T10:00:00+09:00");
    app.git(&["push", "-q", "origin", "main"]);
    app.git(&["checkout", "-q", "-b", "feature/PAY-7-retry"]);
    app.commit("retry.rs", "client: retry on 503", "2026-11-27T15:00:00+09:00");
    app.commit("retry_test.rs", "client: add the retry test", "2026-11-30T08:30:00+09:00");
    let api = home.repo("api");
    api.commit("ci.yml", "ci: pin the runner", "2026-11-27T13:00:00+09:00");
    home
}

/// A Claude Code transcript in `app`, on the ticket branch, whose newest `TodoWrite` left
/// two items pending.
fn write_claude(home: &Home) {
    let cwd = home.path().join("src/app").display().to_string();
    let record = |kind: &str, uuid: &str, time: &str, message: Value| {
        json!({
            "parentUuid": null, "isSidechain": false, "userType": "external", "cwd": cwd,
            "sessionId": CLAUDE_ID, "version": "2.1.50", "gitBranch": "feature/PAY-7-retry",
            "type": kind, "message": message, "uuid": uuid, "timestamp": at(time),
        })
    };
    let todos = json!([
        {"content": "write the client", "status": "completed", "activeForm": "Writing"},
        {"content": "add the retry test", "status": "pending", "activeForm": "Adding"},
        {"content": "wire the Slack output", "status": "pending", "activeForm": "Wiring"},
    ]);
    home.write(
        &format!(".claude/projects/-x-src-app/{CLAUDE_ID}.jsonl"),
        &jsonl(&[
            record("user", "00000000-0000-4000-8000-000000000001", "14:30:00",
                json!({"role": "user", "content": "Write the HTTP client with retries"})),
            record("assistant", "00000000-0000-4000-8000-000000000002", "15:10:00",
                json!({"model": "claude-sonnet-4-5", "id": "msg_t", "type": "message", "role": "assistant",
                       "content": [{"type": "tool_use", "id": "toolu_1", "name": "TodoWrite", "input": {"todos": todos}}]})),
        ]),
    );
}

/// An atuin history where `cargo test -p api` failed three times in a row in `api` on
/// Friday.
fn write_atuin(home: &Home) {
    // atuin keeps its database under `$XDG_DATA_HOME`, which the tests pin.
    let runs = [
        ("15:00:00", "cargo test -p api", 0),
        ("16:10:00", "cargo test -p api", 101),
        ("16:20:00", "cargo test -p api", 101),
        ("16:45:00", "cargo test -p api", 101),
    ];
    support::write_atuin(
        &data_home(home).join("atuin/history.db"),
        &home.path().join("src/api"),
        &runs,
    );
}

/// The "Done when" home of issue 21, with Friday evening's notes added through the binary.
fn monday_home() -> Home {
    let home = home_with_repos();
    write_claude(&home);
    write_codex(&home);
    write_atuin(&home);
    for args in [
        &["--plan", "add the retry test"][..],
        &["--plan", "wire the Slack output"],
        &["--blocker", "waiting on the staging API keys"],
    ] {
        note(&home, FRIDAY_EVENING, args).success();
    }
    home
}

fn hash_of(report: &Value, subject: &str) -> String {
    report["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|bucket| bucket["projects"].as_array().unwrap())
        .flat_map(|project| project["commits"].as_array().unwrap())
        .find(|commit| commit["subject"] == subject)
        .unwrap_or_else(|| panic!("no commit {subject}"))["hash"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn the_monday_standup_of_issue_21_shows_each_thing_in_its_place() {
    let home = monday_home();
    let report = json_report(&home, MONDAY_MORNING, &["standup"]);
    let done_by = hash_of(&report, "client: add the retry test");
    let short = &done_by[..8];

    let en = standup(&home, "en");
    // Friday's own notes, in Friday's section.
    assert_eq!(
        section(&en, "### Notes"),
        [
            "- Plan: add the retry test",
            "- Plan: wire the Slack output",
            "- Blocker: waiting on the staging API keys",
        ],
        "{en}"
    );
    // Friday's plans, done or open, and the work left open: the standup's "Next".
    assert_eq!(
        section(&en, "## Next"),
        [
            format!("- Done: add the retry test (`{short}`)").as_str(),
            "- Open: wire the Slack output",
            "- app — branch `feature/PAY-7-retry`: 2 commits not pushed (latest 2026-11-30 (Mon))",
        ],
        "{en}"
    );
    // The one list of blockers: the evidence's, with their project, then the noted ones.
    assert_eq!(
        section(&en, "## Blockers"),
        [
            "- api — Blocked?: `cargo test -p api` failed 3 times since 2026-11-27 16:10, no passing run after",
            "- Blocker: waiting on the staging API keys (noted 2026-11-27 (Fri))",
        ],
        "{en}"
    );
    // The agents' own lists, under their projects.
    assert!(
        en.contains("- Next: add the retry test · wire the Slack output (Claude Code `70d0c1a0`)"),
        "{en}"
    );
    assert!(
        en.contains(
            "- Next: Fix the retry backoff (in progress) · Add a regression test (Codex `0199c0de`)"
        ),
        "{en}"
    );
    // The ticket of the branch, on its commits and its session (not on `main`'s commit).
    assert!(
        en.contains("- client: retry on 503 (+1 −0, 1 file) · on `feature/PAY-7-retry` · PAY-7"),
        "{en}"
    );
    assert!(en.contains("- client: add the retry test (+1 −0, 1 file) · PAY-7"), "{en}");
    assert!(en.contains("- client: first cut (+1 −0, 1 file) · on `main`\n"), "{en}");
    assert!(
        en.contains(
            "- AI: Claude Code `Write the HTTP client with retries` (1 prompt, claude-sonnet-4-5) · on `feature/PAY-7-retry` · PAY-7"
        ),
        "{en}"
    );

    let ja = standup(&home, "ja");
    assert_eq!(
        section(&ja, "### メモ"),
        [
            "- 予定: add the retry test",
            "- 予定: wire the Slack output",
            "- 課題: waiting on the staging API keys",
        ],
        "{ja}"
    );
    assert_eq!(
        section(&ja, "## 今日の予定"),
        [
            format!("- 完了: add the retry test（`{short}`）").as_str(),
            "- 未完了: wire the Slack output",
            "- app — ブランチ `feature/PAY-7-retry`: 未プッシュ2コミット（最新 11月30日（月））",
        ],
        "{ja}"
    );
    assert_eq!(
        section(&ja, "## 課題・懸念"),
        [
            "- api — 要確認: `cargo test -p api` が2026-11-27 16:10以降3回失敗し、その後成功していません",
            "- 課題: waiting on the staging API keys（11月27日（金）のメモ）",
        ],
        "{ja}"
    );
    assert!(ja.contains("- 次: Fix the retry backoff（作業中） · Add a regression test"), "{ja}");
}

#[test]
fn the_monday_standup_of_issue_21_in_json_and_the_other_formats() {
    let home = monday_home();
    let report = json_report(&home, MONDAY_MORNING, &["standup"]);
    let done_by = hash_of(&report, "client: add the retry test");
    // The JSON, with the evidence.
    let outlook = &report["outlook"];
    assert_eq!(outlook["follow_up"][0]["status"], "done");
    assert_eq!(outlook["follow_up"][0]["note"]["number"], 1);
    assert_eq!(outlook["follow_up"][0]["note"]["date"], "2026-11-27");
    assert_eq!(
        outlook["follow_up"][0]["evidence"],
        json!([{"type": "commit", "hash": done_by, "time": "2026-11-29T23:30:00Z"}])
    );
    assert_eq!(outlook["follow_up"][1]["status"], "open");
    assert_eq!(outlook["follow_up"][1]["note"]["text"], "wire the Slack output");
    assert_eq!(outlook["follow_up"][2]["note"]["kind"], "blocker");
    assert_eq!(outlook["follow_up"][2]["status"], "open");
    assert_eq!(outlook["notes"].as_array().unwrap().len(), 3);
    assert_eq!(outlook["notes"][0]["time"], "2026-11-27T09:00:00Z");
    assert_eq!(outlook["open_work"][0]["name"], "app");
    assert_eq!(outlook["open_work"][0]["unpushed"].as_array().unwrap().len(), 2);
    assert_eq!(outlook["open_work"][0]["branches"], json!(["feature/PAY-7-retry"]));
    assert_eq!(
        outlook["open_work"][0]["ahead"],
        json!([{"name": "feature/PAY-7-retry", "commits": 2, "newest": "2026-11-29T23:30:00Z"}])
    );
    let retry = hash_of(&report, "client: retry on 503");
    let mut ticket_commits = vec![retry, done_by.clone()];
    ticket_commits.sort();
    assert_eq!(
        outlook["tickets"],
        json!([{
            "key": "PAY-7",
            "commits": ticket_commits,
            "sessions": [{"agent": "claude_code", "session_id": CLAUDE_ID}],
        }])
    );

    // Slack, text and HTML carry the sections (written from the Markdown).
    for format in ["slack", "text", "html"] {
        let out = run(&home, MONDAY_MORNING, &["standup", "--no-llm", "--format", format], None)
            .success()
            .to_owned();
        for text in ["wire the Slack output", "waiting on the staging API keys", "not pushed"] {
            assert!(out.contains(text), "{format}: {out}");
        }
    }
}

#[test]
fn a_home_with_none_of_these_shows_no_empty_heading() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let app = home.repo("app");
    app.commit("a.rs", "app: first cut", "2026-11-27T10:00:00+09:00");
    for lang in ["en", "ja"] {
        let markdown = standup(&home, lang);
        for heading in ["Notes", "## Next", "## Blockers", "メモ", "今日の予定", "課題・懸念"]
        {
            assert!(!markdown.contains(heading), "{heading}: {markdown}");
        }
        let week = run(&home, MONDAY_MORNING, &["week", "--no-llm", "--lang", lang], None);
        assert!(!week.success().contains("Still open"), "{}", week.stdout);
        assert!(!week.stdout.contains("未完了"), "{}", week.stdout);
    }
    let report = json_report(&home, MONDAY_MORNING, &["standup"]);
    assert!(report.get("outlook").is_none(), "{report:#}");
    // A notes folder with nothing for these days changes nothing either.
    fs_err::create_dir_all(data_home(&home).join("standup/notes")).unwrap();
    assert_eq!(json_report(&home, MONDAY_MORNING, &["standup"]), report);
}

#[test]
fn notes_are_listed_closed_and_edited_and_a_closed_plan_is_not_open() {
    let home = home_with_repos();
    let added = note(&home, FRIDAY_EVENING, &["--plan", "wire", "the", "Slack", "output"]);
    assert_eq!(added.stderr, "standup: added plan 1 to 2026-11-27\n");
    note(&home, FRIDAY_EVENING, &["remember", "the", "demo"]).success();
    let list = note(&home, FRIDAY_EVENING, &["--list"]);
    insta::assert_snapshot!(list.success(), @r"
    2026-11-27:
      1. [plan] wire the Slack output
      2. remember the demo
    ");
    let file = data_home(&home).join("standup/notes/2026-11-27.toml");
    insta::assert_snapshot!(fs_err::read_to_string(&file).unwrap(), @r#"
    # standup notes for 2026-11-27: one [[note]] per note, in order (its number is its place).
    # kind = "note" | "plan" | "blocker"; time is RFC 3339; done = true closes it.

    [[note]]
    kind = "plan"
    text = "wire the Slack output"
    time = "2026-11-27T18:00:00+09:00"

    [[note]]
    text = "remember the demo"
    time = "2026-11-27T18:00:00+09:00"
    "#);

    // On Monday, Friday is `previous`; a number it does not have is a usage error.
    let missing = note(&home, MONDAY_MORNING, &["--done", "3", "--date", "previous"]);
    assert_eq!(missing.code, 2, "{}", missing.stderr);
    assert!(missing.stderr.contains("2026-11-27 has no note 3 (2 notes;"), "{}", missing.stderr);
    note(&home, MONDAY_MORNING, &["--done", "1", "--date", "previous"]).success();
    let en = standup(&home, "en");
    assert_eq!(section(&en, "## Next")[0], "- Closed: wire the Slack output", "{en}");
    assert!(en.contains("- Plan: wire the Slack output (closed)"), "{en}");

    // `--edit` runs $EDITOR on a copy, checks it, then puts it in place.
    let editor = home.write_executable(
        "bin/editor",
        "#!/bin/sh\nprintf '[[note]]\\nkind = \"blocker\"\\ntext = \"edited by hand\"\\n' >> \"$1\"\n",
    );
    let edited = run(
        &home,
        FRIDAY_EVENING,
        &["note", "--edit", "--date", "2026-11-27"],
        Some(editor.to_str().unwrap()),
    );
    assert_eq!(edited.stderr, "standup: saved the notes of 2026-11-27\n");
    let list = note(&home, MONDAY_MORNING, &["--list", "--date", "2026-11-27"]);
    assert!(list.success().ends_with("  3. [blocker] edited by hand\n"), "{}", list.stdout);
    // A note written by hand without a time counts from the start of its day.
    let report = json_report(&home, MONDAY_MORNING, &["standup"]);
    assert_eq!(report["outlook"]["notes"][2]["time"], "2026-11-26T15:00:00Z");
    assert!(!data_home(&home).join("standup/notes/2026-11-27.toml.edit").exists());

    // An edit that is not a notes file leaves the notes as they were, and is kept.
    let before = fs_err::read_to_string(&file).unwrap();
    let breaking = home.write_executable(
        "bin/breaking-editor",
        "#!/bin/sh\nprintf '[[note]]\\ntext = \"x\"\\ncolour = 1\\n' >> \"$1\"\n",
    );
    let broken = run(
        &home,
        FRIDAY_EVENING,
        &["note", "--edit", "--date", "2026-11-27"],
        Some(breaking.to_str().unwrap()),
    );
    assert_eq!(broken.code, 2, "{}", broken.stderr);
    assert!(broken.stderr.contains("unknown field `colour`"), "{}", broken.stderr);
    assert!(broken.stderr.contains("the notes are unchanged"), "{}", broken.stderr);
    assert_eq!(fs_err::read_to_string(&file).unwrap(), before);
    assert!(data_home(&home).join("standup/notes/2026-11-27.toml.edit").exists());
}

#[test]
fn a_broken_notes_file_is_a_warning_naming_its_line_and_the_report_still_comes() {
    let home = home_with_repos();
    let folder = data_home(&home).join("standup/notes");
    fs_err::create_dir_all(&folder).unwrap();
    fs_err::write(folder.join("2026-11-27.toml"), "[[note]]\ntext = \"a\"\nwhen = 3\n").unwrap();
    let out = run(&home, MONDAY_MORNING, &["standup", "--no-llm"], None);
    assert_eq!(out.code, 0);
    assert!(out.stdout.contains("client: first cut"), "{}", out.stdout);
    assert!(
        out.stderr.contains(
            "notes: cannot read `[HOME]/data/standup/notes/2026-11-27.toml`: line 3: unknown field `when`"
        ),
        "{}",
        out.stderr
    );
    let ja = run(&home, MONDAY_MORNING, &["standup", "--no-llm", "--lang", "ja"], None);
    assert!(
        ja.stdout
            .contains("notes: `[HOME]/data/standup/notes/2026-11-27.toml` を読めません: line 3"),
        "{}",
        ja.stdout
    );
}

#[test]
fn notes_are_sanitized_and_redacted_like_every_string() {
    let home = home_with_repos();
    let secret = crate::secrets::GITHUB_PAT;
    note(
        &home,
        FRIDAY_EVENING,
        &["--blocker", &format!("token {secret} \u{1b}[31mred\u{1b}[0m *x*")],
    )
    .success();
    let en = standup(&home, "en");
    assert!(!en.contains("ghp_") && !en.contains('\u{1b}'), "{en}");
    assert!(
        en.contains(
            "- Blocker: token \\[REDACTED:github-pat\\] red \\*x\\* (noted 2026-11-27 (Fri))"
        ),
        "{en}"
    );
    assert!(en.contains("1 secret masked in notes"), "{en}");
    let list = note(&home, MONDAY_MORNING, &["--list", "--date", "previous"]);
    assert!(!list.success().contains("ghp_"), "{}", list.stdout);
}

#[test]
fn ticket_keys_are_linked_and_can_group_the_work() {
    let home = monday_home();
    home.config("[tickets]\nurl = \"https://t.example/browse/{key}\"\ngroup_by = \"ticket\"\n");
    let en = standup(&home, "en");
    let link = "[PAY-7](<https://t.example/browse/PAY-7>)";
    // One line per ticket, joining the work that names it; the rest keeps its lines.
    assert!(
        en.contains(&format!(
            "- {link}: client: retry on 503 (+1 −0, 1 file) · on `feature/PAY-7-retry` · AI: Claude Code"
        )),
        "{en}"
    );
    assert!(en.contains("- client: first cut (+1 −0, 1 file) · on `main`\n"), "{en}");
    let html = run(&home, MONDAY_MORNING, &["standup", "--no-llm", "--format", "html"], None);
    assert!(
        html.success().contains("<a href=\"https://t.example/browse/PAY-7\">PAY-7</a>"),
        "{}",
        html.stdout
    );
    let slack = run(&home, MONDAY_MORNING, &["standup", "--no-llm", "--format", "slack"], None);
    assert!(slack.success().contains("<https://t.example/browse/PAY-7|PAY-7>"), "{}", slack.stdout);
    let report = json_report(&home, MONDAY_MORNING, &["standup"]);
    assert_eq!(report["outlook"]["tickets"][0]["url"], "https://t.example/browse/PAY-7");
    assert_eq!(report["outlook"]["group_by_ticket"], true);

    // Without grouping, a linked key follows each line that names it.
    home.config("[tickets]\nurl = \"https://t.example/browse/{key}\"\n");
    let en = standup(&home, "en");
    assert!(
        en.contains(&format!(
            "- client: retry on 503 (+1 −0, 1 file) · on `feature/PAY-7-retry` · {link}"
        )),
        "{en}"
    );

    // A pattern that is not a regular expression is a config error naming the key.
    home.config("[tickets]\npatterns = [\"(\"]\n");
    let bad = run(&home, MONDAY_MORNING, &["standup", "--no-llm"], None);
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("key `tickets.patterns`: pattern 1 is not a regular expression"),
        "{}",
        bad.stderr
    );
}

#[test]
fn a_week_ends_with_what_is_still_open() {
    let home = monday_home();
    // Friday's week: Monday 23 to Sunday 29, seen on Sunday evening.
    let sunday = "2026-11-29T20:00:00+09:00";
    let en = run(&home, sunday, &["week", "--no-llm"], None).success().to_owned();
    assert_eq!(
        section(&en, "## Still open"),
        [
            "- Plan: add the retry test (noted 2026-11-27 (Fri))",
            "- Plan: wire the Slack output (noted 2026-11-27 (Fri))",
            "- Blocker: waiting on the staging API keys (noted 2026-11-27 (Fri))",
            "- api — Blocked?: `cargo test -p api` failed 3 times since 16:10, no passing run after",
            // The repository as it is now: its branch holds Monday's commit too.
            "- app — branch `feature/PAY-7-retry`: 2 commits not pushed (latest 2026-11-30 (Mon))",
        ],
        "{en}"
    );
    let ja = run(&home, sunday, &["week", "--no-llm", "--lang", "ja"], None).success().to_owned();
    assert_eq!(
        section(&ja, "## 未完了")[0],
        "- 予定: add the retry test（11月27日（金）のメモ）",
        "{ja}"
    );
    let report = json_report(&home, sunday, &["week"]);
    assert_eq!(report["outlook"]["follow_up"].as_array().unwrap().len(), 3);
}

/// A Claude Code session in `app` on Friday: a prompt at 14:30, the person's interruption
/// at 15:20, then, when `resumed`, a prompt that resumes it. (`app` also has a commit on
/// Monday, so its last bucket is today's and the time names its date.)
fn write_interrupted_claude(home: &Home, resumed: bool) {
    let cwd = home.path().join("src/app").display().to_string();
    let record = |uuid: &str, time: &str, content: Value| {
        json!({
            "parentUuid": null, "isSidechain": false, "userType": "external", "cwd": cwd,
            "sessionId": CLAUDE_ID, "version": "2.1.50", "gitBranch": "main", "type": "user",
            "message": {"role": "user", "content": content}, "uuid": uuid, "timestamp": at(time),
        })
    };
    let mut lines = vec![
        record("00000000-0000-4000-8000-000000000001", "14:30:00", json!("Write the HTTP client")),
        record(
            "00000000-0000-4000-8000-000000000002",
            "15:20:00",
            json!([{"type": "text", "text": "[Request interrupted by user for tool use]"}]),
        ),
    ];
    if resumed {
        lines.push(record("00000000-0000-4000-8000-000000000003", "15:25:00", json!("go on")));
    }
    home.write(&format!(".claude/projects/-x-src-app/{CLAUDE_ID}.jsonl"), &jsonl(&lines));
}

#[test]
fn an_agent_session_interrupted_and_not_resumed_is_a_possible_blocker() {
    let home = home_with_repos();
    write_interrupted_claude(&home, false);
    let en = standup(&home, "en");
    assert_eq!(
        section(&en, "## Blockers"),
        [
            "- app — Blocked?: Claude Code `Write the HTTP client` was interrupted at 2026-11-27 15:20 and not resumed"
        ],
        "{en}"
    );
    let ja = standup(&home, "ja");
    assert_eq!(
        section(&ja, "## 課題・懸念"),
        [
            "- app — 要確認: Claude Code `Write the HTTP client` が2026-11-27 15:20に中断され、再開されていません"
        ],
        "{ja}"
    );
    let report = json_report(&home, MONDAY_MORNING, &["standup"]);
    let app = report["buckets"][1]["projects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|project| project["name"] == "app")
        .unwrap();
    assert_eq!(
        app["blockers"],
        json!([{
            "kind": "interrupted_session",
            "text": "Write the HTTP client",
            "evidence": [{"type": "session", "agent": "claude_code", "session_id": CLAUDE_ID,
                          "time": "2026-11-27T06:20:00Z"}],
            "time": "2026-11-27T06:20:00Z",
        }])
    );

    // A prompt after the interruption resumed it: no line.
    write_interrupted_claude(&home, true);
    let en = standup(&home, "en");
    assert!(!en.contains("interrupted"), "{en}");
}

/// A Claude Code session in `~/src/<repo>` on Monday morning (one prompt at 08:20): the
/// person worked in the repository today without committing.
fn write_monday_claude(home: &Home, repo: &str, id: &str) {
    let cwd = home.path().join("src").join(repo).display().to_string();
    home.write(
        &format!(".claude/projects/-x-src-{repo}/{id}.jsonl"),
        &jsonl(&[json!({
            "parentUuid": null, "isSidechain": false, "userType": "external", "cwd": cwd,
            "sessionId": id, "version": "2.1.50", "type": "user",
            "message": {"role": "user", "content": format!("Look at the {repo} branches")},
            "uuid": "00000000-0000-4000-8000-0000000000a1",
            "timestamp": "2026-11-29T23:20:00.000Z",
        })]),
    );
}

/// `lib` has a remote: `main` pushed on the 20th, `feature/x` three commits on Wednesday
/// the 25th (five days before the Monday standup, outside its windows) never pushed, and
/// `shipped` two commits the same day, pushed with its upstream. `solo` has no remote and
/// a branch of its own. Nothing is committed in the standup's windows; a Claude Code
/// session ran in each repository this morning.
fn home_with_old_branches() -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let remote = home.path().join("lib.git");
    let lib = home.repo("lib");
    lib.git(&["init", "-q", "--bare", remote.to_str().unwrap()]);
    lib.git(&["remote", "add", "origin", remote.to_str().unwrap()]);
    lib.commit("a.rs", "lib: first cut", "2026-11-20T10:00:00+09:00");
    lib.git(&["push", "-q", "-u", "origin", "main"]);
    lib.git(&["checkout", "-q", "-b", "shipped"]);
    lib.commit("s1.rs", "lib: shipped one", "2026-11-25T10:00:00+09:00");
    lib.commit("s2.rs", "lib: shipped two", "2026-11-25T10:30:00+09:00");
    lib.git(&["push", "-q", "-u", "origin", "shipped"]);
    lib.git(&["checkout", "-q", "-b", "feature/x", "main"]);
    lib.commit("x1.rs", "lib: parse the header", "2026-11-25T14:00:00+09:00");
    lib.commit("x2.rs", "lib: parse the body", "2026-11-25T15:00:00+09:00");
    lib.commit("x3.rs", "lib: parse the trailer", "2026-11-25T16:00:00+09:00");
    lib.git(&["checkout", "-q", "main"]);
    let solo = home.repo("solo");
    solo.commit("a.rs", "solo: first cut", "2026-11-20T10:00:00+09:00");
    solo.git(&["checkout", "-q", "-b", "feature/y"]);
    solo.commit("y.rs", "solo: try the idea", "2026-11-25T14:00:00+09:00");
    write_monday_claude(&home, "lib", "70d0c1a0-0000-4000-8000-0000000000b1");
    write_monday_claude(&home, "solo", "70d0c1a0-0000-4000-8000-0000000000b2");
    home
}

#[test]
fn a_branch_ahead_of_its_upstream_is_open_work_whatever_day_its_commits_were_made() {
    let home = home_with_old_branches();
    let en = standup(&home, "en");
    // No commit of the standup's days; the branch made on Wednesday is still shown, the
    // pushed one and the repository without a remote are not.
    assert!(!en.contains("lib: parse"), "{en}");
    assert_eq!(
        section(&en, "## Next"),
        ["- lib — branch `feature/x`: 3 commits not pushed (latest 2026-11-25 (Wed))"],
        "{en}"
    );
    let ja = standup(&home, "ja");
    assert_eq!(
        section(&ja, "## 今日の予定"),
        ["- lib — ブランチ `feature/x`: 未プッシュ3コミット（最新 11月25日（水））"],
        "{ja}"
    );
    let report = json_report(&home, MONDAY_MORNING, &["standup"]);
    assert_eq!(
        report["outlook"]["open_work"],
        json!([{
            "name": "lib",
            "path": "[HOME]/src/lib",
            "ahead": [{"name": "feature/x", "commits": 3, "newest": "2026-11-25T07:00:00Z"}],
        }])
    );
    // The week's "Still open" lists it too.
    let week = run(&home, MONDAY_MORNING, &["week", "--no-llm"], None).success().to_owned();
    assert_eq!(
        section(&week, "## Still open"),
        ["- lib — branch `feature/x`: 3 commits not pushed (latest 2026-11-25 (Wed))"],
        "{week}"
    );
    // Once pushed, it is not open any more.
    home.repo_handle(&home.path().join("src/lib")).git(&["push", "-q", "origin", "feature/x"]);
    let en = standup(&home, "en");
    assert!(!en.contains("## Next"), "{en}");
    assert!(json_report(&home, MONDAY_MORNING, &["standup"]).get("outlook").is_none());
}

/// A repository with a linked worktree is not read in process: git is asked (one
/// `for-each-ref`, one `log` for the branches without an upstream), with the same answer.
#[test]
fn a_branch_ahead_is_found_by_git_too_when_the_repository_is_not_read_in_process() {
    let home = home_with_old_branches();
    let lib = home.repo_handle(&home.path().join("src/lib"));
    let worktree = home.path().join("src/lib-wt");
    lib.git(&["worktree", "add", "-q", "-b", "spike", worktree.to_str().unwrap(), "main"]);
    let spike = home.repo_handle(&worktree);
    spike.commit("spike.rs", "lib: try a spike", "2026-11-26T11:00:00+09:00");
    let en = standup(&home, "en");
    assert_eq!(
        section(&en, "## Next"),
        [
            "- lib — branch `feature/x`: 3 commits not pushed (latest 2026-11-25 (Wed))",
            "- lib — branch `spike`: 1 commit not pushed (latest 2026-11-26 (Thu))",
        ],
        "{en}"
    );
}

/// A branch pushed with its upstream, merged on the server by squash (a new commit on
/// `main`) and deleted there, then pruned here (`git pull --prune`): its commits are in
/// no remote-tracking branch, but they were pushed, and git says `[gone]`, not
/// `ahead 3`. It is not open work, on either route (in process; git, asked when the
/// repository has a linked worktree).
#[test]
fn a_branch_merged_by_squash_whose_upstream_is_gone_is_not_open_work() {
    let home = home_with_old_branches();
    let lib = home.repo_handle(&home.path().join("src/lib"));
    // Wednesday's report says what was not pushed that day, as it is now.
    let wednesday = |home: &Home| {
        let args = ["daily", "--date", "2026-11-25", "--no-llm"];
        let report = run(home, MONDAY_MORNING, &args, None).success().to_owned();
        report
            .lines()
            .filter(|line| line.starts_with("- In progress:"))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(wednesday(&home), ["- In progress: 3 commits not pushed"]);
    lib.git(&["push", "-q", "-u", "origin", "feature/x"]);
    assert!(wednesday(&home).is_empty());
    // The server's squash merge, made in a second clone.
    let server = home.path().join("server-side");
    lib.git(&[
        "clone",
        "-q",
        "-b",
        "main",
        home.path().join("lib.git").to_str().unwrap(),
        server.to_str().unwrap(),
    ]);
    let server = home.repo_handle(&server);
    server.git(&["merge", "-q", "--squash", "origin/feature/x"]);
    server.git(&["commit", "-q", "-m", "lib: parse the header, body and trailer (#1)"]);
    server.git(&["push", "-q", "origin", "main", ":feature/x"]);
    lib.git(&["fetch", "-q", "--prune"]);
    let branches = lib.git_command(&["branch", "-vv"]).output().unwrap();
    let branches = String::from_utf8_lossy(&branches.stdout);
    assert!(branches.contains("[origin/feature/x: gone]"), "{branches}");
    let en = standup(&home, "en");
    assert!(!en.contains("## Next"), "{en}");
    // Nor are its commits "not pushed" on the day they were made.
    assert!(wednesday(&home).is_empty());
    // A branch never pushed still is, on git's route as well.
    let worktree = home.path().join("src/lib-wt");
    lib.git(&["worktree", "add", "-q", "-b", "spike", worktree.to_str().unwrap(), "main"]);
    home.repo_handle(&worktree).commit("spike.rs", "lib: try a spike", "2026-11-26T11:00:00+09:00");
    let en = standup(&home, "en");
    assert_eq!(
        section(&en, "## Next"),
        ["- lib — branch `spike`: 1 commit not pushed (latest 2026-11-26 (Thu))"],
        "{en}"
    );
    assert!(wednesday(&home).is_empty(), "git's route: the gone upstream asked of git");
}

/// A note holding newlines (`standup note "$(cat draft)"`, or written with `--edit`) is
/// one line in `--list`, as in the report.
#[test]
fn a_note_written_across_lines_is_listed_on_one() {
    let home = home_with_repos();
    note(&home, FRIDAY_EVENING, &["--plan", "ship the\nretry  test\n\tthen docs"]).success();
    let list = note(&home, FRIDAY_EVENING, &["--list"]);
    assert_eq!(list.success(), "2026-11-27:\n  1. [plan] ship the retry test then docs\n");
    let report = run(&home, FRIDAY_EVENING, &["daily", "--no-llm", "--lang", "en"], None);
    assert!(
        report.success().contains("- Plan: ship the retry test then docs\n"),
        "{}",
        report.stdout
    );
}

/// A branch `name` off `main` with one commit of its own at `date`, never pushed; `main`
/// checked out again.
fn branch_off_main(repo: &crate::support::Repo, name: &str, date: &str) {
    repo.git(&["checkout", "-q", "-b", name, "main"]);
    repo.commit(&format!("{name}.rs"), &format!("lib: {name}"), date);
    repo.git(&["checkout", "-q", "main"]);
}

#[test]
fn branches_ahead_of_the_report_s_days_keep_their_line_and_older_ones_past_ten_are_one() {
    let home = home_with_old_branches();
    let lib = home.repo_handle(&home.path().join("src/lib"));
    // Twelve more branches never pushed, one a day from the 10th to the 21st.
    for day in 10..=21 {
        branch_off_main(&lib, &format!("b{day}"), &format!("2026-11-{day}T10:00:00+09:00"));
    }
    let en = standup(&home, "en");
    let mut expected: Vec<String> = (13..=21)
        .map(|day| {
            format!(
                "- lib — branch `b{day}`: 1 commit not pushed (latest 2026-11-{day} ({}))",
                ["Fri", "Sat", "Sun", "Mon", "Tue", "Wed", "Thu"][(day - 13) % 7]
            )
        })
        .collect();
    expected.push(
        "- lib — branch `feature/x`: 3 commits not pushed (latest 2026-11-25 (Wed))".to_owned(),
    );
    expected
        .push("- 3 older branches with commits not pushed (latest 2026-11-12 (Thu))".to_owned());
    assert_eq!(section(&en, "## Next"), expected, "{en}");
    let ja = standup(&home, "ja");
    assert_eq!(
        section(&ja, "## 今日の予定").last().copied(),
        Some("- ほか未プッシュの古いブランチ3件（最新 11月12日（木））"),
        "{ja}"
    );
    // The JSON keeps every one.
    let report = json_report(&home, MONDAY_MORNING, &["standup"]);
    assert_eq!(report["outlook"]["open_work"][0]["ahead"].as_array().unwrap().len(), 13);
    // Eleven branches with commits of the standup's days (Saturday): each keeps its line,
    // and every older one goes into the last line.
    for hour in 10..=20 {
        branch_off_main(&lib, &format!("r{hour}"), &format!("2026-11-28T{hour}:00:00+09:00"));
    }
    let en = standup(&home, "en");
    let mut expected: Vec<String> = (10..=20)
        .map(|hour| {
            format!("- lib — branch `r{hour}`: 1 commit not pushed (latest 2026-11-28 (Sat))")
        })
        .collect();
    expected
        .push("- 13 older branches with commits not pushed (latest 2026-11-25 (Wed))".to_owned());
    assert_eq!(section(&en, "## Next"), expected, "{en}");
}
