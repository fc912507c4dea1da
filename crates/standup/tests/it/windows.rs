//! Windows through the real binary: the standup's previous bucket over weekends and
//! holidays (the built-in `jp` calendar), reports that end at now, time spent per
//! project, and multi-day reports (`standup week`, `daily --since/--until`).

use std::fmt::Write as _;

use serde_json::json;

use crate::support::{Home, ME, at, report_json, subjects_by_bucket as subjects};

const TOKYO: &str = "Asia/Tokyo";

fn json(home: &Home, now: &str, args: &[&str]) -> serde_json::Value {
    report_json(home, now, TOKYO, args)
}

fn headings(markdown: &str) -> Vec<&str> {
    markdown.lines().filter(|line| line.starts_with("## ")).collect()
}

/// A repository with Friday, Saturday and Monday work.
fn weekend_home() -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit("a", "friday work", "2026-11-27T10:00:00+09:00");
    repo.commit("b", "saturday hack", "2026-11-28T15:00:00+09:00");
    repo.commit("c", "monday morning", "2026-11-30T09:00:00+09:00");
    home
}

const MONDAY: &str = "2026-11-30T09:30:00+09:00";

#[test]
fn a_saturday_commit_is_in_mondays_standup_under_since_friday() {
    let home = weekend_home();
    let run = home.run(MONDAY, TOKYO, &["standup", "--no-llm", "--lang", "en"]);
    let text = run.success();
    assert_eq!(
        headings(text),
        ["## Since Friday (Fri 27 – Sun 29)", "## Today — 2026-11-30 (Mon)"],
        "{text}"
    );
    assert!(text.contains("Window: 2026-11-27 00:00 – 2026-11-30 00:00 (Asia/Tokyo)"), "{text}");
    let saturday = text.find("- saturday hack (+1").expect(text);
    assert!(saturday < text.find("## Today").unwrap(), "{text}");

    let run = home.run(MONDAY, TOKYO, &["standup", "--no-llm", "--lang", "ja"]);
    let text = run.success();
    assert_eq!(headings(text), ["## 金曜日以降（11月27日〜29日）", "## 本日（11月30日（月））"]);
    assert!(text.contains("- saturday hack（+1"), "{text}");

    let report = json(&home, MONDAY, &["standup"]);
    assert_eq!(subjects(&report), [vec!["saturday hack", "friday work"], vec!["monday morning"]]);
    assert_eq!(report["buckets"][0]["through"], "2026-11-29");
}

#[test]
fn a_one_day_previous_bucket_keeps_its_heading() {
    let home = weekend_home();
    home.repo_handle(&home.path().join("src/app")).commit(
        "d",
        "tuesday",
        "2026-12-01T09:00:00+09:00",
    );
    let run = home.run("2026-12-01T09:30:00+09:00", TOKYO, &["standup", "--no-llm"]);
    assert_eq!(
        headings(run.success()),
        ["## Previous working day — 2026-11-30 (Mon)", "## Today — 2026-12-01 (Tue)"]
    );
    let report = json(&home, "2026-12-01T09:30:00+09:00", &["standup"]);
    assert!(report["buckets"][0].get("through").is_none(), "{report:#}");
}

#[test]
fn a_holiday_monday_with_the_jp_calendar() {
    // Monday 2026-11-23 is 勤労感謝の日: on Tuesday the previous bucket starts on Friday
    // the 20th and holds the holiday's work.
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    home.config("holidays = [\"jp\"]\n");
    let repo = home.repo("app");
    repo.commit("a", "friday 20th", "2026-11-20T10:00:00+09:00");
    repo.commit("b", "holiday tinkering", "2026-11-23T11:00:00+09:00");
    repo.commit("c", "tuesday", "2026-11-24T09:00:00+09:00");
    let now = "2026-11-24T09:30:00+09:00";
    let run = home.run(now, TOKYO, &["standup", "--no-llm"]);
    assert_eq!(
        headings(run.success()),
        ["## Since Friday (Fri 20 – Mon 23)", "## Today — 2026-11-24 (Tue)"]
    );
    let run = home.run(now, TOKYO, &["standup", "--no-llm", "--lang", "ja"]);
    assert_eq!(headings(run.success())[0], "## 金曜日以降（11月20日〜23日）");
    let report = json(&home, now, &["standup"]);
    assert_eq!(report["buckets"][0]["window"]["date"], "2026-11-20");
    assert_eq!(subjects(&report), [vec!["holiday tinkering", "friday 20th"], vec!["tuesday"]]);

    // Golden Week 2026: May 3 (Sun) to 6 (振替休日); on Thursday the 7th the previous
    // working day is Friday May 1.
    let report = json(&home, "2026-05-07T09:00:00+09:00", &["standup"]);
    assert_eq!(report["buckets"][0]["window"]["date"], "2026-05-01");
    assert_eq!(report["buckets"][0]["through"], "2026-05-06");
}

#[test]
fn a_commit_after_now_is_not_in_the_report() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit("a", "ten to nine", "2026-11-27T08:50:00+09:00");
    repo.commit("b", "five past nine", "2026-11-27T09:05:00+09:00");
    let now = "2026-11-27T09:00:00+09:00";
    let run = home.run(now, TOKYO, &["daily", "--no-llm"]);
    let text = run.success();
    assert!(!text.contains("five past nine"), "{text}");
    assert!(text.contains("- ten to nine (+1"), "{text}");
    assert!(text.contains("Window: 2026-11-27 00:00 – 2026-11-27 09:00 (Asia/Tokyo)"), "{text}");
    assert!(text.contains("generated 2026-11-27 09:00 +09:00"), "{text}");
    let later = json(&home, "2026-11-27T09:06:00+09:00", &["daily"]);
    assert_eq!(subjects(&later), [vec!["five past nine", "ten to nine"]]);

    // The standup's today ends at now too.
    let report = json(&home, "2026-11-27T09:01:00+09:00", &["standup"]);
    assert_eq!(subjects(&report)[1], ["ten to nine"]);
    assert_eq!(report["buckets"][1]["window"]["end"], "2026-11-27T00:01:00Z");
}

#[test]
fn a_date_in_the_future_says_so_in_one_line() {
    let home = weekend_home();
    let run = home.run(MONDAY, TOKYO, &["daily", "--no-llm", "--date", "2026-12-03"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let warning =
        "2026-12-03 is in the future (now is 2026-11-30 09:30): nothing after now is reported";
    assert!(run.stdout.contains(warning), "{}", run.snapshot());
    assert_eq!(run.stderr.matches("date_in_future").count(), 1, "{}", run.stderr);
    // Today is not in the future.
    let run = home.run(MONDAY, TOKYO, &["daily", "--no-llm"]);
    assert!(!run.success().contains("date_in_future"));
}

/// Commits at 09:12 and 09:40, a Codex session in the same repository at 10:05 and
/// 10:34, and a lone commit at 18:05.
fn busy_day() -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit("a", "first", "2026-11-27T09:12:00+09:00");
    repo.commit("b", "second", "2026-11-27T09:40:00+09:00");
    repo.commit("c", "evening", "2026-11-27T18:05:00+09:00");
    let id = "0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee";
    let cwd = repo.path.display().to_string();
    let lines = [
        json!({"timestamp": at("10:05:00"), "type": "session_meta", "payload": {"id": id, "timestamp": at("10:05:00"), "cwd": cwd, "originator": "codex_cli_rs", "cli_version": "0.58.0"}}),
        json!({"timestamp": at("10:05:00"), "type": "event_msg", "payload": {"type": "user_message", "message": "Why is the build slow?", "kind": "plain"}}),
        json!({"timestamp": at("10:34:00"), "type": "event_msg", "payload": {"type": "user_message", "message": "Try caching", "kind": "plain"}}),
    ];
    let text = lines.iter().fold(String::new(), |mut text, line| {
        let _ = writeln!(text, "{line}");
        text
    });
    home.write(
        &format!(".codex/sessions/2026/11/27/rollout-2026-11-27T10-05-00-{id}.jsonl"),
        &text,
    );
    home
}

const EVENING: &str = "2026-11-27T19:00:00+09:00";

#[test]
fn time_spent_from_commits_and_session_times() {
    let home = busy_day();
    // 09:12–10:34 is one span (gaps of 28, 25 and 29 minutes): 82 minutes; 18:05 is
    // alone: 10 minutes.
    let text =
        home.run(EVENING, TOKYO, &["daily", "--no-llm", "--lang", "en"]).success().to_owned();
    assert!(
        text.contains("## app · 3 commits (+3 −0, 3 files) · 1 AI session, 2 prompts · ≈ 1 h 32 min, 09:12–18:05\n"),
        "{text}"
    );
    assert!(text.contains("· ≈ 1 h 32 min, 09:12–18:05\n\nWarnings"), "{text}");
    let text =
        home.run(EVENING, TOKYO, &["daily", "--no-llm", "--lang", "ja"]).success().to_owned();
    assert!(text.contains("約1時間32分（9:12〜18:05）"), "{text}");

    let report = json(&home, EVENING, &["daily"]);
    let spent = &report["buckets"][0]["projects"][0]["time_spent"];
    assert_eq!(spent["minutes"], 92);
    assert_eq!(
        spent["spans"],
        json!([
            {"start": "2026-11-27T00:12:00Z", "end": "2026-11-27T01:34:00Z", "events": 4, "minutes": 82},
            {"start": "2026-11-27T09:05:00Z", "end": "2026-11-27T09:05:00Z", "events": 1, "minutes": 10},
        ])
    );
    assert_eq!(report["time_spent"]["minutes"], 92);

    // A shorter idle gap splits every moment apart (09:12, 09:40, 10:05, 10:34, 18:05):
    // five lone moments of 15 minutes.
    home.config("idle_minutes = 20\nmin_span_minutes = 15\n");
    let report = json(&home, EVENING, &["daily"]);
    assert_eq!(report["buckets"][0]["projects"][0]["time_spent"]["minutes"], 75);
}

/// Work on Monday, Wednesday and Saturday of the week of 2026-11-23, and the Monday
/// after.
fn week_home() -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit("a", "monday", "2026-11-23T10:00:00+09:00");
    repo.commit("b", "wednesday", "2026-11-25T10:00:00+09:00");
    repo.commit("c", "saturday", "2026-11-28T10:00:00+09:00");
    repo.commit("d", "next monday", "2026-11-30T10:00:00+09:00");
    home
}

fn dates(report: &serde_json::Value) -> Vec<String> {
    report["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|bucket| bucket["window"]["date"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn week_report_has_a_body_per_working_day_and_weekend_work() {
    let home = week_home();
    let now = "2026-11-30T12:00:00+09:00";
    let report = json(&home, now, &["week", "--date", "2026-11-25"]);
    assert_eq!(report["kind"], "week");
    // Sunday had no activity and is not a working day: left out.
    assert_eq!(
        dates(&report),
        ["2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28"]
    );
    assert_eq!(
        subjects(&report),
        [vec!["monday"], vec![], vec!["wednesday"], vec![], vec![], vec!["saturday"]]
    );
    assert_eq!(report["totals"]["commits"], 3);
    assert_eq!(report["time_spent"]["minutes"], 30);

    let text =
        home.run(now, TOKYO, &["week", "--no-llm", "--date", "2026-11-25"]).success().to_owned();
    assert!(text.starts_with("# Weekly report — 2026-11-23 (Mon) – 2026-11-28 (Sat)\n"), "{text}");
    assert_eq!(headings(&text)[1], "## 2026-11-24 (Tue)");
    assert!(text.contains("## 2026-11-24 (Tue)\nWindow: 2026-11-24 00:00 – 2026-11-25 00:00 (Asia/Tokyo)\n\nNo recorded activity.\n"), "{text}");
    assert!(
        text.contains(
            "Totals: 1 project · 3 commits (+3 −0, 3 files) · ≈ 30 min, Mon 10:00–Sat 10:00"
        ),
        "{text}"
    );
    let text = home
        .run(now, TOKYO, &["week", "--no-llm", "--date", "2026-11-25", "--lang", "ja"])
        .success()
        .to_owned();
    assert!(text.starts_with("# 週報 — 2026年11月23日（月）〜11月28日（土）\n"), "{text}");

    // This week so far: Monday the 30th only, ending at now.
    let report = json(&home, now, &["week"]);
    assert_eq!(dates(&report), ["2026-11-30"]);
    assert_eq!(report["buckets"][0]["window"]["end"], "2026-11-30T03:00:00Z");
}

#[test]
fn daily_since_until_gives_a_body_per_day_and_totals_over_the_range() {
    let home = week_home();
    let now = "2026-11-30T12:00:00+09:00";
    let report = json(&home, now, &["daily", "--since", "2026-11-25", "--until", "2026-11-29"]);
    assert_eq!(report["kind"], "range");
    assert_eq!(dates(&report), ["2026-11-25", "2026-11-26", "2026-11-27", "2026-11-28"]);
    assert_eq!(subjects(&report).concat(), ["wednesday", "saturday"]);
    assert_eq!(report["totals"]["commits"], 2);

    // --until defaults to today, which ends at now.
    let report = json(&home, now, &["daily", "--since", "2026-11-27"]);
    assert_eq!(dates(&report), ["2026-11-27", "2026-11-28", "2026-11-30"]);
    assert_eq!(subjects(&report).concat(), ["saturday", "next monday"]);

    let text = home
        .run(now, TOKYO, &["daily", "--no-llm", "--since", "2026-11-27", "--lang", "ja"])
        .success()
        .to_owned();
    assert!(text.starts_with("# 日報 — 2026年11月27日（金）〜11月30日（月）\n"), "{text}");
    assert_eq!(headings(&text), ["## 11月27日（金）", "## 11月28日（土）", "## 11月30日（月）"]);

    let run = home.run(now, TOKYO, &["daily", "--since", "2026-11-29", "--until", "2026-11-25"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(run.stderr.contains("before it starts"), "{}", run.stderr);
    let run = home.run(now, TOKYO, &["standup", "--since", "2026-11-25"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
}
