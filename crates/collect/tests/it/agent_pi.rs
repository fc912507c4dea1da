//! Tests of the pi reader (see crates/collect/src/sessions/pi.rs).
//!
//! The lines are in the shape pi 0.73.1 writes them (a `session` header, then entries
//! with `id`/`parentId`/`timestamp`).

use std::path::PathBuf;

use report_model::{Agent, WarningCode};

use crate::support::{Home, session, set_mtime, status, times, ts};

const ID: &str = "019f94e7-a627-75fa-8509-c8d85654e609";
const FILE: &str = ".pi/agent/sessions/--work-app--/2026-07-24T16-13-57-159Z_019f94e7-a627-75fa-8509-c8d85654e609.jsonl";

fn lines() -> String {
    [
        format!(r#"{{"type":"session","version":3,"id":"{ID}","timestamp":"2026-07-24T16:13:57.159Z","cwd":"/work/app"}}"#),
        r#"{"type":"model_change","id":"a1","parentId":null,"timestamp":"2026-07-24T16:13:57.200Z","provider":"anthropic","modelId":"claude-sonnet-4-5"}"#.to_owned(),
        r#"{"type":"thinking_level_change","id":"a2","parentId":"a1","timestamp":"2026-07-24T16:13:57.201Z","thinkingLevel":"off"}"#.to_owned(),
        r#"{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-07-24T16:14:00.000Z","message":{"role":"user","content":[{"type":"text","text":"Fix the   parser"}],"timestamp":1784909640000}}"#.to_owned(),
        r#"{"type":"message","id":"a4","parentId":"a3","timestamp":"2026-07-24T16:14:05.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"x"}}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":2,"output":3},"stopReason":"toolUse","timestamp":1784909645000}}"#.to_owned(),
        r#"{"type":"message","id":"a5","parentId":"a4","timestamp":"2026-07-24T16:14:06.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"read","content":[{"type":"text","text":"file body"}],"isError":false,"timestamp":1784909646000}}"#.to_owned(),
        // Queued while the agent worked: typed at 16:14:07, written at 16:14:15.
        r#"{"type":"message","id":"a6","parentId":"a5","timestamp":"2026-07-24T16:14:15.000Z","message":{"role":"user","content":"and add a test","timestamp":1784909647000}}"#.to_owned(),
        r#"{"type":"message","id":"a7","parentId":"a6","timestamp":"2026-07-24T16:14:20.000Z","message":{"role":"bashExecution","command":"ls","output":"a","exitCode":0,"cancelled":false,"truncated":false,"timestamp":1784909660000}}"#.to_owned(),
        r#"{"type":"custom_message","id":"a8","parentId":"a7","timestamp":"2026-07-24T16:14:21.000Z","customType":"ext","content":"injected","display":false}"#.to_owned(),
        r#"{"type":"model_change","id":"a9","parentId":"a8","timestamp":"2026-07-24T16:15:00.000Z","provider":"openai","modelId":"gpt-5"}"#.to_owned(),
        r#"{"type":"message","id":"b1","parentId":"a9","timestamp":"2026-07-24T16:15:05.000Z","message":{"role":"assistant","content":[{"type":"text","text":"done"}],"provider":"openai","model":"gpt-5","stopReason":"stop","timestamp":1784909705000}}"#.to_owned(),
        r#"{"type":"compaction","id":"b2","parentId":"b1","timestamp":"2026-07-24T16:16:00.000Z","summary":"s","firstKeptEntryId":"a3","tokensBefore":10}"#.to_owned(),
        r#"{"type":"message","id":"b3","parentId":"b2","timestamp":"2026-07-24T16:16:01.000Z","message":{"role":"compactionSummary","summary":"s","tokensBefore":10,"timestamp":1784909761000}}"#.to_owned(),
        r#"{"type":"session_info","id":"b4","parentId":"b3","timestamp":"2026-07-24T16:17:00.000Z","name":"  Parser work "}"#.to_owned(),
        r#"{"type":"bookmark","id":"b5","parentId":"b4","timestamp":"2026-07-24T16:17:01.000Z"}"#.to_owned(),
    ]
    .join("\n")
        + "\n"
}

#[test]
fn pi_counts_typed_prompts_once_and_reads_title_cwd_models() {
    let home = Home::new();
    home.write(FILE, lines());
    let output = home.read(Agent::Pi, ts("2026-07-24T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::Pi, ID);
    // The queued message counts once, at its entry's time.
    assert_eq!(event.prompts, times(&["2026-07-24T16:14:00Z", "2026-07-24T16:14:15Z"]));
    assert_eq!(event.activity.len(), 15);
    assert_eq!(event.title, "Parser work");
    assert_eq!(event.cwd, Some(PathBuf::from("/work/app")));
    assert_eq!(event.models, ["claude-sonnet-4-5", "gpt-5"]);
    let status = status(&output, Agent::Pi);
    assert_eq!((status.files, status.entries), (1, 1));
    // The header's `version` is the file format's, not pi's.
    assert!(status.versions.is_empty());
    assert_eq!(status.unknown, ["bookmark"]);
}

#[test]
fn pi_title_is_the_first_prompt_without_a_name_or_after_it_is_cleared() {
    let home = Home::new();
    let cleared = lines()
        .replace(r#""name":"  Parser work "}"#, r#""name":"Parser work"}"#.to_owned().as_str())
        + r#"{"type":"session_info","id":"b6","parentId":"b5","timestamp":"2026-07-24T16:18:00.000Z","name":""}"#
        + "\n";
    home.write(FILE, cleared);
    let output = home.read(Agent::Pi, ts("2026-07-24T00:00:00Z"));
    assert_eq!(session(&output, Agent::Pi, ID).title, "Fix the parser");
}

#[test]
fn pi_honours_its_agent_dir_variable() {
    let home = Home::new();
    home.write(&FILE.replace(".pi/agent", "pi-home"), lines());
    home.write(FILE, lines().replace(ID, "not-this-one"));
    let dir = home.path().join("pi-home");
    let home = home.var("PI_CODING_AGENT_DIR", dir.to_string_lossy());
    let output = home.read(Agent::Pi, ts("2026-07-24T00:00:00Z"));
    assert_eq!(output.events.len(), 1);
    session(&output, Agent::Pi, ID);
    assert_eq!(status(&output, Agent::Pi).locations, [dir]);
}

#[test]
fn pi_places_records_by_their_own_times_and_skips_old_files() {
    let home = Home::new();
    let path = home.write(FILE, lines());
    let output = home.read(Agent::Pi, ts("2026-07-24T16:15:00Z"));
    let event = session(&output, Agent::Pi, ID);
    assert!(event.prompts.is_empty());
    assert_eq!(event.models, ["gpt-5"]);
    assert_eq!(event.title, "Parser work");
    set_mtime(&path, ts("2026-07-23T00:00:00Z"));
    let output = home.read(Agent::Pi, ts("2026-07-24T00:00:00Z"));
    assert!(output.events.is_empty());
    assert_eq!(status(&output, Agent::Pi).files, 1);
}

#[test]
fn pi_without_a_header_takes_the_id_from_the_file_name_and_warns_on_bad_lines() {
    let home = Home::new();
    let body: String = lines().lines().skip(1).flat_map(|line| [line, "\n"]).collect();
    home.write(FILE, format!("{{\"type\":\n{body}"));
    let output = home.read(Agent::Pi, ts("2026-07-24T00:00:00Z"));
    let event = session(&output, Agent::Pi, ID);
    assert_eq!(event.cwd, None);
    assert_eq!(event.prompts.len(), 2);
    assert_eq!(output.warnings.len(), 1);
    assert_eq!(output.warnings[0].code(), WarningCode::MalformedLines);
}

#[test]
fn pi_unreadable_file_is_a_warning_and_missing_is_silent() {
    let home = Home::new();
    let output = home.read(Agent::Pi, ts("2026-07-24T00:00:00Z"));
    assert!(output.warnings.is_empty() && !status(&output, Agent::Pi).found);
    fs_err::create_dir_all(home.path().join(".pi/agent/sessions/--w--")).expect("folder");
    // A device where a session file would be: refused, named in a warning.
    let device = home.path().join(".pi/agent/sessions/--w--/2026_x.jsonl");
    std::os::unix::fs::symlink("/dev/null", &device).expect("make link");
    let output = home.read(Agent::Pi, ts("2026-07-24T00:00:00Z"));
    assert_eq!(output.warnings.len(), 1, "{:?}", output.warnings);
    assert_eq!(output.warnings[0].code(), WarningCode::SourceUnreadable);
}

/// The third recorded session (0.73.1) ran `sh check.sh` through `bash`, which exited
/// with 3 (`isError`, `Command exited with code 3`). pi has no to-do tool.
#[test]
fn the_recorded_failed_command_is_read() {
    let home = Home::new();
    let since = ts("2026-01-01T00:00:00Z");
    home.copy_fixture("agents/pi/0.73.1/home", "", since);
    let output = home.read(Agent::Pi, since);
    assert_eq!(output.events.len(), 3);
    assert_eq!(
        crate::support::scripted(&output),
        vec![(Vec::new(), crate::support::recorded_failure())]
    );
}

/// A session with one header and a typed prompt, then `more` lines.
fn session_with(more: &[&str]) -> String {
    let mut lines = vec![
        format!(r#"{{"type":"session","version":3,"id":"{ID}","timestamp":"2026-07-24T16:13:57.159Z","cwd":"/work/app"}}"#),
        r#"{"type":"message","id":"a3","parentId":null,"timestamp":"2026-07-24T16:14:00.000Z","message":{"role":"user","content":"run the checks","timestamp":1784909640000}}"#.to_owned(),
    ];
    lines.extend(more.iter().map(|line| (*line).to_owned()));
    lines.join("\n") + "\n"
}

#[test]
fn pi_only_the_first_session_header_describes_the_session() {
    let home = Home::new();
    let second = r#"{"type":"session","version":3,"id":"019f94e7-0000-7000-8000-0000000000ff","timestamp":"2026-07-24T16:20:00.000Z","cwd":"/work/other"}"#;
    home.write(FILE, session_with(&[second]));
    let output = home.read(Agent::Pi, ts("2026-07-24T00:00:00Z"));
    let ids: Vec<&str> = output.events.iter().map(|event| event.session_id.as_str()).collect();
    assert_eq!(ids, [ID]);
    assert_eq!(session(&output, Agent::Pi, ID).cwd, Some(PathBuf::from("/work/app")));
}

#[test]
fn pi_a_model_change_in_the_window_names_a_model_without_a_reply() {
    let home = Home::new();
    let change = r#"{"type":"model_change","id":"a9","parentId":"a3","timestamp":"2026-07-24T16:15:00.000Z","provider":"openai","modelId":"gpt-5"}"#;
    let before = r#"{"type":"model_change","id":"a8","parentId":"a3","timestamp":"2026-07-23T16:15:00.000Z","provider":"anthropic","modelId":"claude-opus-4-1"}"#;
    home.write(FILE, session_with(&[before, change]));
    let output = home.read(Agent::Pi, ts("2026-07-24T00:00:00Z"));
    assert_eq!(session(&output, Agent::Pi, ID).models, ["gpt-5"]);
}

#[test]
fn pi_only_the_bash_tools_failures_are_failed_commands() {
    let home = Home::new();
    let calls = r#"{"type":"message","id":"a4","parentId":"a3","timestamp":"2026-07-24T16:14:05.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"grep","arguments":{"command":"rg todo"}},{"type":"toolCall","id":"c2","name":"bash","arguments":{"command":"sh check.sh"}}],"provider":"openai","model":"gpt-5","stopReason":"toolUse","timestamp":1784909645000}}"#;
    let grep = r#"{"type":"message","id":"a5","parentId":"a4","timestamp":"2026-07-24T16:14:06.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"grep","content":[{"type":"text","text":"Command exited with code 2"}],"isError":true,"timestamp":1784909646000}}"#;
    let bash = r#"{"type":"message","id":"a6","parentId":"a5","timestamp":"2026-07-24T16:14:07.000Z","message":{"role":"toolResult","toolCallId":"c2","toolName":"bash","content":[{"type":"text","text":"boom\n\nCommand exited with code 3"}],"isError":true,"timestamp":1784909647000}}"#;
    home.write(FILE, session_with(&[calls, grep, bash]));
    let output = home.read(Agent::Pi, ts("2026-07-24T00:00:00Z"));
    assert_eq!(
        crate::support::scripted(&output),
        vec![(Vec::new(), crate::support::recorded_failure())]
    );
}

#[test]
fn pi_a_link_to_a_file_among_the_project_folders_is_passed_over() {
    let home = Home::new();
    home.write(FILE, lines());
    let stray = home.write(".pi/agent/notes.txt", "not a folder");
    let link = home.path().join(".pi/agent/sessions/--link-to-a-file--");
    std::os::unix::fs::symlink(&stray, &link).expect("make link");
    let output = home.read(Agent::Pi, ts("2026-07-24T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(output.events.len(), 1);
}

#[test]
fn pi_an_unknown_message_role_is_noted_and_a_message_without_one_is_not() {
    let home = Home::new();
    let narrator = r#"{"type":"message","id":"a4","parentId":"a3","timestamp":"2026-07-24T16:14:05.000Z","message":{"role":"narrator","content":"meanwhile"}}"#;
    let roleless = r#"{"type":"message","id":"a5","parentId":"a4","timestamp":"2026-07-24T16:14:06.000Z","message":{"content":"no role"}}"#;
    home.write(FILE, session_with(&[narrator, roleless]));
    let output = home.read(Agent::Pi, ts("2026-07-24T00:00:00Z"));
    assert_eq!(status(&output, Agent::Pi).unknown, ["message role narrator"]);
    // Still the session's activity.
    assert!(session(&output, Agent::Pi, ID).activity.contains(&ts("2026-07-24T16:14:05Z")));
}

/// A fork (`/fork`, a branch, `--fork` from another folder) is a new file whose header
/// names the session it was made from (`parentSession`) and is dated when it was made;
/// it copies that session's entries with their own times. Those copies are the other
/// session's, read in its file: the fork counts only what came after.
#[test]
fn pi_a_fork_s_copies_of_the_other_session_are_not_counted_twice() {
    let home = Home::new();
    home.write(FILE, lines());
    let fork = "019f94e7-ffff-75fa-8509-c8d85654e609";
    let mut fork_lines: Vec<String> = vec![format!(
        r#"{{"type":"session","version":3,"id":"{fork}","timestamp":"2026-07-24T17:00:00.000Z","cwd":"/work/app","parentSession":"/home/dev/.pi/agent/sessions/--work-app--/x_{ID}.jsonl"}}"#
    )];
    fork_lines.extend(lines().lines().skip(1).map(str::to_owned));
    // Written at the very time of the fork: the fork's own.
    fork_lines.push(r#"{"type":"model_change","id":"c0","parentId":"b5","timestamp":"2026-07-24T17:00:00.000Z","provider":"openai","modelId":"gpt-5.3"}"#.to_owned());
    fork_lines.push(r#"{"type":"message","id":"c1","parentId":"b5","timestamp":"2026-07-24T17:01:00.000Z","message":{"role":"user","content":"now the docs","timestamp":1784912460000}}"#.to_owned());
    fork_lines.push(r#"{"type":"message","id":"c2","parentId":"c1","timestamp":"2026-07-24T17:01:05.000Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"provider":"openai","model":"gpt-5.2","timestamp":1784912465000}}"#.to_owned());
    home.write(
        &format!(".pi/agent/sessions/--work-app--/2026-07-24T17-00-00-000Z_{fork}.jsonl"),
        fork_lines.join("\n") + "\n",
    );
    let output = home.read(Agent::Pi, ts("2026-07-24T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(session(&output, Agent::Pi, ID).prompts.len(), 2);
    let forked = session(&output, Agent::Pi, fork);
    assert_eq!(forked.prompts, times(&["2026-07-24T17:01:00Z"]));
    assert_eq!(forked.models, ["gpt-5.3", "gpt-5.2"]);
    // Its header and its own three entries, at three times (the model change was written
    // when the header was).
    assert_eq!(forked.activity.len(), 3);
    // Named as the conversation it goes on with (its copied name).
    assert_eq!(forked.title, "Parser work");
}
