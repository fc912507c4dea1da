//! Named snapshots of the whole report, Markdown (en, ja) and JSON, daily and standup,
//! on one fixed fixture.

use crate::support::{Home, ME};

/// Monday 2026-11-30, 09:30 in Tokyo.
const MONDAY: &str = "2026-11-30T09:30:00+09:00";
const TOKYO: &str = "Asia/Tokyo";

fn fixture() -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let api = home.repo("billing-api");
    api.commit("README.md", "docs: explain the retry policy", "2026-11-27T10:15:00+09:00");
    api.commit_as(
        ME,
        "src/retry.rs",
        "fn retry() {}\nfn backoff() {}\nfn jitter() {}\n",
        "retry: add jittered backoff",
        "2026-11-27T16:40:00+09:00",
        "2026-11-27T16:40:00+09:00",
    );
    let tool = home.repo("standup");
    tool.commit("src/zsh.rs", "collect: decode zsh metafied bytes", "2026-11-27T11:00:00+09:00");
    tool.commit(
        "fixtures/zsh_history",
        "fixtures: real zsh history <b>with</b> `ticks`",
        "2026-11-30T09:05:00+09:00",
    );
    home
}

#[test]
fn daily_markdown_en() {
    let home = fixture();
    let run =
        home.run(MONDAY, TOKYO, &["daily", "--no-llm", "--date", "2026-11-27", "--lang", "en"]);
    insta::assert_snapshot!("daily_en", run.success());
}

#[test]
fn daily_markdown_ja() {
    let home = fixture();
    let run =
        home.run(MONDAY, TOKYO, &["daily", "--no-llm", "--date", "2026-11-27", "--lang", "ja"]);
    insta::assert_snapshot!("daily_ja", run.success());
}

#[test]
fn daily_json() {
    let home = fixture();
    let run =
        home.run(MONDAY, TOKYO, &["daily", "--no-llm", "--date", "2026-11-27", "--format", "json"]);
    insta::assert_snapshot!("daily_json", run.success());
}

#[test]
fn standup_markdown_en() {
    let home = fixture();
    let run = home.run(MONDAY, TOKYO, &["standup", "--no-llm"]);
    insta::assert_snapshot!("standup_en", run.success());
}

#[test]
fn standup_markdown_ja() {
    let home = fixture();
    let run = home.run(MONDAY, TOKYO, &["standup", "--no-llm", "--lang", "ja"]);
    insta::assert_snapshot!("standup_ja", run.success());
}

#[test]
fn standup_json() {
    let home = fixture();
    let run = home.run(MONDAY, TOKYO, &["standup", "--no-llm", "--format", "json"]);
    insta::assert_snapshot!("standup_json", run.success());
}

#[test]
fn same_inputs_give_byte_identical_output() {
    let home = fixture();
    let first = home.run(MONDAY, TOKYO, &["standup", "--no-llm", "--format", "json"]);
    let second = home.run(MONDAY, TOKYO, &["standup", "--no-llm", "--format", "json"]);
    assert_eq!(first.stdout, second.stdout);
}

#[test]
fn standup_slack_ja() {
    let home = fixture();
    let run =
        home.run(MONDAY, TOKYO, &["standup", "--no-llm", "--lang", "ja", "--format", "slack"]);
    insta::assert_snapshot!("standup_slack_ja", run.success());
}

#[test]
fn daily_html_en() {
    let home = fixture();
    let run = home.run(
        MONDAY,
        TOKYO,
        &["daily", "--no-llm", "--date", "2026-11-27", "--lang", "en", "--format", "html"],
    );
    insta::assert_snapshot!("daily_html_en", run.success());
}

#[test]
fn standup_text_en_compact() {
    let home = fixture();
    let run = home.run(
        MONDAY,
        TOKYO,
        &["standup", "--no-llm", "--lang", "en", "--format", "text", "--compact"],
    );
    insta::assert_snapshot!("standup_text_en_compact", run.success());
}
