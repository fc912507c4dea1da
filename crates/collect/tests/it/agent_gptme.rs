//! Tests of the gptme reader (see crates/collect/src/sessions/gptme.rs).
//!
//! The logs are written as gptme 0.35.1 writes them (`fixtures/agents/gptme/0.35.1/`):
//! one folder per conversation with `conversation.jsonl` and `config.toml`, times
//! without a zone.

use std::path::Path;

use report_model::{Agent, WarningCode};
use serde_json::{Value, json};

use crate::support::{
    Home, assert_one_warning_naming, failed_runs, read_with_home, recorded_failure, scripted,
    session, status, times, ts,
};

const SINCE: &str = "2026-03-02T00:00:00Z";
const LOGS: &str = ".local/share/gptme/logs";
const ID: &str = "2026-03-02-dancing-sleepy-dragon";

fn line(role: &str, time: &str, content: &str, extra: &Value) -> String {
    let mut message = json!({"role": role, "content": content, "timestamp": time});
    if let (Some(message), Some(extra)) = (message.as_object_mut(), extra.as_object()) {
        message.extend(extra.clone());
    }
    message.to_string()
}

/// A conversation in UTC local time: gptme's hidden context, yesterday's prompt, a
/// prompt with a file gptme appended, its nudge, a reply, a command that failed, one that
/// passed, and a second prompt.
fn conversation() -> String {
    [
        line(
            "system",
            "2026-03-01T23:00:00.000001",
            "## System Information\n\n**OS:** Debian\n**Working Directory:** /work/ctx",
            &json!({"hide": true, "pinned": true}),
        ),
        line("user", "2026-03-01T23:00:01.5", "yesterday's question", &json!({})),
        line(
            "user",
            "2026-03-02T09:00:00.250000",
            "why does check.sh fail?\n\n````check.sh\n#!/bin/sh\nexit 3\n````",
            &json!({}),
        ),
        line(
            "assistant",
            "2026-03-02T09:00:05",
            "\n@shell(call_1): {\"command\": \"sh check.sh\"}",
            &json!({"metadata": {"model": "anthropic/claude-sonnet-4-5"}}),
        ),
        line(
            "system",
            "2026-03-02T09:00:06",
            "Ran command: `sh check.sh`\n\n`check: 1 test failed`\n\nReturn code: 3\n",
            &json!({"call_id": "call_1"}),
        ),
        line(
            "system",
            "2026-03-02T09:00:07",
            "Ran command: `cargo fmt --check`\n\nNo output\n",
            &json!({"call_id": "call_2"}),
        ),
        line(
            "user",
            "2026-03-02T09:00:08",
            "<system>No tool call detected in last message.</system>",
            &json!({}),
        ),
        line(
            "assistant",
            "2026-03-02T09:00:09",
            "It exits 3 on purpose.",
            &json!({"metadata": {"model": "openai/gpt-5.1"}}),
        ),
        line("user", "2026-03-02T09:10:00", "then make it pass", &json!({})),
    ]
    .join("\n")
        + "\n"
}

fn utc_home() -> Home {
    Home::new().var("TZ", "UTC")
}

#[test]
fn gptme_a_conversation_s_prompts_title_models_and_failed_command_are_read() {
    let home = utc_home();
    home.write(&format!("{LOGS}/{ID}/conversation.jsonl"), conversation());
    home.write(
        &format!("{LOGS}/{ID}/config.toml"),
        "[chat]\nmodel = \"anthropic/claude-sonnet-4-5\"\nworkspace = \"/work/app\"\nname = \"Why check fails\"\n\n[env]\n",
    );
    let output = home.read(Agent::Gptme, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::Gptme, ID);
    // Not yesterday's, not the nudge.
    assert_eq!(event.prompts, times(&["2026-03-02T09:00:00.25Z", "2026-03-02T09:10:00Z"]));
    assert_eq!(event.title, "Why check fails");
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/work/app")));
    assert_eq!(event.models, ["anthropic/claude-sonnet-4-5", "openai/gpt-5.1"]);
    assert_eq!(failed_runs(event), [("sh check.sh", vec![(3, ts("2026-03-02T09:00:06Z"))])]);
    assert_eq!(event.activity.first(), Some(&ts("2026-03-02T09:00:00.25Z")));
    let status = status(&output, Agent::Gptme);
    assert!(status.found);
    assert_eq!((status.files, status.entries), (1, 1));
    assert_eq!(status.locations, [home.path().join(LOGS)]);
}

#[test]
fn gptme_without_its_config_the_title_is_the_typed_prompt_and_the_folder_the_context_s() {
    let home = utc_home();
    home.write(&format!("{LOGS}/{ID}/conversation.jsonl"), conversation());
    let output = home.read(Agent::Gptme, ts(SINCE));
    let event = session(&output, Agent::Gptme, ID);
    // The file gptme appended is not part of what the person typed.
    assert_eq!(event.title, "why does check.sh fail?");
    assert_eq!(event.cwd.as_deref(), Some(Path::new("/work/ctx")));
}

#[test]
fn gptme_an_empty_logs_folder_is_found_and_a_prompt_at_the_window_s_start_counts() {
    let home = utc_home();
    fs_err::create_dir_all(home.path().join(LOGS)).expect("logs folder");
    let output = home.read(Agent::Gptme, ts(SINCE));
    assert!(status(&output, Agent::Gptme).found);
    assert!(output.events.is_empty());
    home.write(
        &format!("{LOGS}/{ID}/conversation.jsonl"),
        line("user", "2026-03-02T00:00:00", "right at midnight", &json!({})) + "\n",
    );
    let output = home.read(Agent::Gptme, ts(SINCE));
    assert_eq!(session(&output, Agent::Gptme, ID).prompts, times(&[SINCE]));
}

#[test]
fn gptme_a_workspace_below_the_home_is_placed_there() {
    // gptme writes a folder below the home as `~/…` (seen running it interactively).
    let home = utc_home();
    home.write(&format!("{LOGS}/{ID}/conversation.jsonl"), conversation());
    home.write(&format!("{LOGS}/{ID}/config.toml"), "[chat]\nworkspace = \"~/src/app\"\n");
    let output = home.read(Agent::Gptme, ts(SINCE));
    let event = session(&output, Agent::Gptme, ID);
    assert_eq!(event.cwd.as_deref(), Some(home.path().join("src/app").as_path()));
}

#[test]
fn gptme_times_without_a_zone_are_the_machine_s_local_time() {
    let home = Home::new().var("TZ", "Asia/Tokyo");
    home.write(&format!("{LOGS}/{ID}/conversation.jsonl"), conversation());
    let output = home.read(Agent::Gptme, ts(SINCE));
    let event = session(&output, Agent::Gptme, ID);
    // 09:00 in Tokyo is 00:00 UTC: both of the day's prompts are after 00:00 UTC.
    assert_eq!(event.prompts, times(&["2026-03-02T00:00:00.25Z", "2026-03-02T00:10:00Z"]));
}

#[test]
fn gptme_s_logs_move_with_its_variable_and_the_config() {
    let home = utc_home();
    home.write(&format!("elsewhere/{ID}/conversation.jsonl"), conversation());
    let logs = home.path().join("elsewhere");
    // Another home whose variable points at the first one's folder.
    let moved = utc_home().var("GPTME_LOGS_HOME", logs.to_string_lossy());
    let output = moved.read(Agent::Gptme, ts(SINCE));
    assert_eq!(session(&output, Agent::Gptme, ID).prompts.len(), 2);
    // `gptme_home` names gptme's data folder; its logs are in `logs/`.
    home.write(&format!("data/logs/{ID}/conversation.jsonl"), conversation());
    let output = read_with_home(&home, Agent::Gptme, home.path().join("data"), ts(SINCE));
    assert_eq!(status(&output, Agent::Gptme).locations, [home.path().join("data/logs")]);
    assert_eq!(session(&output, Agent::Gptme, ID).prompts.len(), 2);
}

#[test]
fn gptme_a_malformed_line_is_counted_and_the_rest_read() {
    let home = utc_home();
    let path = home.write(
        &format!("{LOGS}/{ID}/conversation.jsonl"),
        format!("{}{{\"role\": \"user\", \"content\": \n", conversation()),
    );
    let output = home.read(Agent::Gptme, ts(SINCE));
    assert_eq!(session(&output, Agent::Gptme, ID).prompts.len(), 2);
    assert_one_warning_naming(&output, WarningCode::MalformedLines, &path);
}

#[test]
fn gptme_the_recorded_failed_command_is_read() {
    let home = utc_home();
    home.copy_fixture("agents/gptme/0.35.1/home", "", ts("2026-12-05T21:46:14Z"));
    let output = home.read(Agent::Gptme, ts("2026-12-05T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(output.events.len(), 3);
    let scripted = scripted(&output);
    assert_eq!(scripted.len(), 1, "{scripted:?}");
    let (todos, failed) = &scripted[0];
    assert!(todos.is_empty());
    assert_eq!(failed, &recorded_failure());
}
