//! Config errors through the real binary: exit 2, one line naming file, line and key.

use crate::support::Home;

const NOW: &str = "2026-11-27T18:00:00+09:00";

#[track_caller]
fn check(config: &str) -> String {
    let home = Home::new();
    home.config(config);
    let run = home.run(NOW, "Asia/Tokyo", &["daily"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(run.stdout.is_empty());
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    run.stderr
}

#[test]
fn unknown_key() {
    insta::assert_snapshot!(check("lang = \"en\"\n\n[git]\nroot = [\"~/src\"]\n"), @"standup: error: config `[HOME]/.config/standup/config.toml` line 4, key `git.root`: unknown field `root`, expected one of `roots`, `max_depth`, `exclude`, `include_merges`, `timeout_secs`");
}

#[test]
fn wrong_type() {
    insta::assert_snapshot!(check("[git]\ninclude_merges = \"yes\"\n"), @r#"standup: error: config `[HOME]/.config/standup/config.toml` line 2, key `git.include_merges`: invalid type: string "yes", expected a boolean"#);
}

#[test]
fn unknown_time_zone() {
    insta::assert_snapshot!(check("# my config\ntimezone = \"Asia/Atlantis\"\n"), @"standup: error: config `[HOME]/.config/standup/config.toml` line 2, key `timezone`: unknown time zone `Asia/Atlantis` (expected an IANA name such as `Asia/Tokyo`)");
}

#[test]
fn unknown_llm_api_and_agent() {
    insta::assert_snapshot!(check("[llm]\napi = \"anthropic\"\n"), @"standup: error: config `[HOME]/.config/standup/config.toml` line 2, key `llm.api`: `anthropic` is not an API (expected `ollama`, `openai` or `command`)");
    insta::assert_snapshot!(check("[sessions]\nagents = [\"claude\", \"copilot-chat\"]\n"), @"standup: error: config `[HOME]/.config/standup/config.toml` line 2, key `sessions.agents`: `copilot-chat` is not an agent (expected one of `claude`, `codex`, `gemini`, `copilot`, `opencode`, `pi`, `qwen`, `cursor`, `amp`, `aider`, `droid`, `cline`, `kilo`, `continue`, `roo`, `vscode`, `goose`, `gptme`, `kimi`, `vibe`, `openhands`, `hermes`, `openclaw`, `commandcode`)");
}

#[test]
fn explicit_config_that_does_not_exist() {
    let home = Home::new();
    let run = home.run(NOW, "Asia/Tokyo", &["daily", "--config", "/nonexistent/standup.toml"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with("standup: error: cannot read config `/nonexistent/standup.toml`"),
        "{}",
        run.stderr
    );
}

#[test]
fn config_time_zone_beats_tz() {
    let home = Home::new();
    home.config("timezone = \"America/New_York\"\n");
    let run = home.run(NOW, "Asia/Tokyo", &["daily", "--no-llm", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(run.success()).unwrap();
    assert_eq!(report["meta"]["time_zone"], "America/New_York");
    // 18:00 in Tokyo is 04:00 in New York, the same calendar day.
    assert_eq!(report["buckets"][0]["window"]["start"], "2026-11-27T05:00:00Z");
}
