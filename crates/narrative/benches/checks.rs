//! Times the grounding checks (`narrative::check_reply`) on a 1,200-character reply, in
//! English and in Japanese, as plain text and as JSON of the cited schema (each sentence
//! with its evidence ids, bound to them by the checks of issue 25), against the payload of
//! a busy day fitted to the default 12,000-character budget, and prints the median and the
//! slowest run. The bar is at most 2 ms per reply (issue 25; 1 ms before the binding
//! checks).
//!
//! Run with `cargo bench -p standup-narrative`. Plain `std::time`, no benchmark framework.

#![allow(clippy::print_stdout, reason = "a benchmark reports on stdout")]
#![allow(missing_docs, reason = "a benchmark binary has no public API")]

use std::hint::black_box;
use std::time::{Duration, Instant};

use narrative::{Lang, Limits, build_prompt, check_reply};
use report_model::{Agent, Commit, Project, Report, Session, ShellGroup, Totals};

const RUNS: usize = 500;

/// The crate's one `Report` fixture (`tests/support/report.rs`).
#[path = "../tests/support/report.rs"]
#[allow(dead_code, reason = "the benchmark uses a part of the builders")]
mod fixture;

use fixture::at;

fn busy_day() -> Report {
    let subjects = [
        "parser: accept trailing commas",
        "lexer: track spans across lines",
        "collect: decode zsh metafied bytes",
        "render: Japanese dates with weekday",
        "ci: retry the flaky integration job",
        "fix: round VAT per line item (#482)",
    ];
    let projects: Vec<Project> = (0..8_u64)
        .map(|p| {
            let commits: Vec<Commit> = (0..6_u64)
                .map(|c| Commit {
                    machines: Vec::new(),
                    hash: format!(
                        "{:010x}{:030x}",
                        (p * 16 + c + 1) * 0x9e37_79b9 % 0xff_ffff_ffff,
                        c
                    ),
                    subject: format!(
                        "{} in module {p}",
                        subjects[usize::try_from(c).unwrap() % subjects.len()]
                    ),
                    truncated: false,
                    author_time: at(30_000),
                    files_changed: 1 + c,
                    insertions: 10 * c + p,
                    deletions: c,
                    merge: false,
                    branches: Vec::new(),
                    remote_branches: Vec::new(),
                    unpushed: false,
                })
                .collect();
            let sessions = vec![Session {
                machines: Vec::new(),
                agent: Agent::ClaudeCode,
                session_id: format!("session-{p}"),
                title: format!("Investigate the flaky CI job of service {p}"),
                truncated: false,
                prompts: 3 + p,
                first: at(30_000),
                last: at(31_000),
                models: Vec::new(),
                branch: None,
            }];
            Project {
                remote: None,
                name: format!("service-{p}"),
                qualifier: None,
                path: format!("/home/dev/src/service-{p}").into(),
                last_activity: at(40_000),
                totals: Totals { projects: 1, commits: 6, sessions: 1, ..Totals::default() },
                commits,
                sessions,
                commands: 0,
                shell: Vec::new(),
                time_spent: report_model::TimeSpent::default(),
                wip: None,
                next: Vec::new(),
                blockers: Vec::new(),
            }
        })
        .collect();
    let shell: Vec<ShellGroup> =
        ["cargo test", "git commit", "docker compose", "kubectl get", "make"]
            .iter()
            .enumerate()
            .map(|(idx, head)| ShellGroup {
                machines: Vec::new(),
                head: (*head).to_owned(),
                count: 20 - idx as u64,
                examples: vec![format!("{head} --all"), format!("{head} -p core")],
                truncated: false,
                failed: 0,
                agent: false,
            })
            .collect();
    fixture::daily(projects, shell)
}

/// `sentences` repeated with variations until the reply is 1,200 characters.
fn reply(sentences: &[&str], separator: &str) -> String {
    let mut text = String::new();
    let mut idx = 0;
    while text.chars().count() < 1_200 {
        if !text.is_empty() {
            text.push_str(separator);
        }
        let round = idx / sentences.len();
        text.push_str(&sentences[idx % sentences.len()].replace("{n}", &(round % 8).to_string()));
        idx += 1;
    }
    text.chars().take(1_200).collect()
}

fn time(label: &str, report: &Report, text: &str, lang: Lang) {
    let redactor = redact::Redactor::builtin();
    let limits = Limits::default();
    let prompt = build_prompt(report, &redactor, &limits, lang).unwrap();
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            black_box(check_reply(report.kind, &prompt, black_box(text), &limits, lang, &redactor));
            start.elapsed()
        })
        .collect();
    times.sort();
    let checked = check_reply(report.kind, &prompt, text, &limits, lang, &redactor);
    println!(
        "{label}: {} chars, payload {} chars, {} sentences ({} kept{}): median {:.3} ms, slowest {:.3} ms",
        checked
            .check
            .sentences
            .iter()
            .map(|sentence| sentence.text.chars().count() + 1)
            .sum::<usize>(),
        prompt.user.chars().count(),
        checked.check.sentences.len(),
        checked.check.sentences.iter().filter(|sentence| sentence.kept).count(),
        checked
            .check
            .reason
            .map(|reason| format!(", reply rejected: {reason}"))
            .unwrap_or_default(),
        times[RUNS / 2].as_secs_f64() * 1000.0,
        times[RUNS - 1].as_secs_f64() * 1000.0,
    );
}

fn main() {
    let report = busy_day();
    let en = reply(
        &[
            "Most of the day went into service-0, where the parser now accepts trailing commas.",
            "The flaky CI job of service-1 was investigated in a Claude Code session.",
            "There were 48 commits across 8 projects, and cargo test ran 20 times.",
            "The developer also planned the launch campaign with marketing.",
            "In service-2 the lexer learned to track spans across lines.",
            "Zsh metafied bytes are decoded in service-3 now.",
            "Japanese dates with weekday were rendered for service-4.",
            "VAT is rounded per line item in service-5 (#482).",
            "Docker compose and kubectl get were used while checking service-6.",
            "Ticket Codex_P168437950 was closed after the release.",
            "Service-7 got a retry for its flaky integration job.",
            "A total of 8 AI sessions supported the work.",
            "Make ran as well, next to git commit.",
            "Reviews happened at https://ci.example.com/runs/42 later.",
        ],
        " ",
    );
    time("en", &report, &en, Lang::En);
    let ja = reply(
        &[
            "本日は service-0 で parser が trailing commas を受け付けるようにしました。",
            "Claude Code のセッションで service-1 の flaky CI job を調査しました。",
            "8 つのプロジェクトで 48 件のコミットがあり、cargo test を 20 回実行しました。",
            "新しいログイン画面のデザインを営業チームと相談しました。",
            "service-2 では lexer が spans across lines を追跡するようになりました。",
            "service-3 で zsh の metafied bytes をデコードしました。",
            "service-4 向けに Japanese dates with weekday を描画しました。",
            "service-5 では VAT を line item ごとに丸めました（#482）。",
            "service-6 の確認で docker compose と kubectl get を使いました。",
            "リリース後にチケット JIRA-1234 を閉じました。",
            "service-7 の flaky integration job に retry を入れました。",
            "合計 8 件の AI セッションで作業を進めました。",
            "make と git commit も実行しました。",
            "詳細は https://ci.example.com/42 にあります。",
            "service-0 から service-7 まで 48 件のコミットを確認しました。",
            "午後は営業部との定例会議で来期の予算を話し合いました。",
        ],
        "",
    );
    time("ja", &report, &ja, Lang::Ja);
    time("en, cited", &report, &cited(&en, " "), Lang::En);
    time("ja, cited", &report, &cited(&ja, ""), Lang::Ja);
}

/// The same reply as JSON of the cited schema: each sentence citing the commits and the
/// session of the service it names, or the bucket's cargo test group.
fn cited(text: &str, separator: &str) -> String {
    let ends: &[char] = if separator.is_empty() { &['。'] } else { &['.'] };
    let summary: Vec<serde_json::Value> = text
        .split_inclusive(ends)
        .map(str::trim)
        .filter(|sentence| !sentence.is_empty())
        .map(|sentence| {
            // The commits and the session of the service it names, else the cargo test
            // group.
            let service = sentence
                .split("service-")
                .nth(1)
                .and_then(|rest| rest.chars().next())
                .filter(char::is_ascii_digit);
            let evidence = match service.and_then(|digit| digit.to_digit(10)) {
                Some(p) => {
                    let p = u64::from(p);
                    let mut ids: Vec<String> = (0..6_u64)
                        .map(|c| {
                            format!("{:010x}", (p * 16 + c + 1) * 0x9e37_79b9 % 0xff_ffff_ffff)
                        })
                        .collect();
                    ids.push(format!("session-{p}"));
                    ids
                }
                None => vec!["sh:cargo test".to_owned()],
            };
            serde_json::json!({"text": sentence, "evidence": evidence})
        })
        .collect();
    serde_json::json!({"summary": summary, "blockers": []}).to_string()
}
