//! Tests of the amp reader (see crates/collect/src/sessions/amp.rs).
//!
//! The threads are written as Amp 0.0.1767830505 writes them (`JSON.stringify(thread,
//! null, 2)` of the shape its thread reducer builds).

use std::path::PathBuf;

use report_model::{Agent, WarningCode};

use crate::fifo::Fifo;
use crate::support::{
    Home, assert_one_warning_naming, assert_unreadable_times, en, session, set_mtime, spoil_first,
    status, times, ts,
};

const SINCE: &str = "2026-03-02T00:00:00Z";
const THREAD: &str = "T-5f6c1a2e-0000-4000-8000-000000000001";

/// 2026-03-02T10:00:00Z in epoch milliseconds.
const T0: i64 = 1_772_445_600_000;

/// A thread as Amp writes it: a typed prompt, a tool call and its result, a hook's
/// message, a course correction, an info message, a second typed prompt, and a reply
/// cut off mid-turn.
fn thread(id: &str, title: Option<&str>) -> String {
    let title = title.map_or(String::new(), |title| format!("  \"title\": {title:?},\n"));
    format!(
        r#"{{
  "v": 17,
  "id": "{id}",
  "created": {created},
  "messages": [
    {{
      "role": "user",
      "messageId": 0,
      "content": [{{"type": "text", "text": "Fix the flaky   login test"}}],
      "agentMode": "smart",
      "userState": {{"currentlyVisibleFiles": ["file:///home/dev/my%20app/src/login.rs"]}},
      "fileMentions": {{"files": [{{"uri": "file:///home/dev/my%20app/AGENTS.md", "content": "be nice"}}], "mentions": []}},
      "meta": {{"sentAt": {t0}}}
    }},
    {{
      "role": "assistant",
      "messageId": 1,
      "content": [
        {{"type": "thinking", "thinking": "run the tests", "signature": "sig", "provider": "anthropic"}},
        {{"type": "tool_use", "complete": true, "id": "toolu_01", "name": "Bash", "input": {{"cmd": "cargo test"}}}}
      ],
      "state": {{"type": "complete", "stopReason": "tool_use"}},
      "usage": {{"model": "claude-sonnet-4-5-20250929", "inputTokens": 10, "outputTokens": 20, "credits": 0}}
    }},
    {{
      "role": "user",
      "messageId": 2,
      "content": [{{"type": "tool_result", "toolUseID": "toolu_01", "run": {{"status": "done", "result": {{"output": "test result: ok", "exitCode": 0}}}}}}]
    }},
    {{
      "role": "user",
      "messageId": 3,
      "content": [{{"type": "text", "text": "Hook says: run the linter"}}],
      "source": {{"type": "hook", "hook": "lint-hook"}}
    }},
    {{
      "role": "user",
      "messageId": 4,
      "content": [{{"type": "text", "text": "You are going in circles"}}],
      "source": {{"type": "course-correction"}}
    }},
    {{
      "role": "info",
      "messageId": 5,
      "content": [{{"type": "manual_bash_invocation", "args": {{"cmd": "ls"}}, "hidden": false}}]
    }},
    {{
      "role": "user",
      "messageId": 6,
      "content": [{{"type": "text", "text": "now update the docs"}}],
      "agentMode": "smart",
      "meta": {{"sentAt": {t1}}}
    }},
    {{
      "role": "assistant",
      "messageId": 7,
      "content": [{{"type": "text", "text": "Updating the d"}}],
      "state": {{"type": "streaming"}}
    }}
  ],
  "agentMode": "smart",
  "nextMessageId": 8,
  "env": {{
    "initial": {{
      "trees": [
        {{
          "displayName": "my app",
          "uri": "file:///home/dev/my%20app",
          "repository": {{"type": "git", "url": "https://github.com/acme/app", "ref": "refs/heads/fix-login", "sha": "0123abcd"}}
        }}
      ],
      "platform": {{"os": "linux", "osVersion": "6.8.0", "cpuArchitecture": "x64", "client": "CLI", "clientVersion": "0.0.1767830505-ga62310", "clientType": "cli"}},
      "tags": ["model:claude-sonnet-4-5-20250929"]
    }}
  }},
{title}  "usageLedger": {{
    "events": [
      {{"id": "e1", "timestamp": "2026-03-02T10:00:05.000Z", "model": "claude-sonnet-4-5-20250929", "credits": 1, "tokens": {{"input": 10, "output": 20}}, "operationType": "inference", "fromMessageId": 0, "toMessageId": 1}},
      {{"id": "e2", "timestamp": "2026-03-02T10:00:06.000Z", "model": "claude-haiku-4-5", "credits": 0, "tokens": {{"input": 5, "output": 5}}, "operationType": "title-generation", "fromMessageId": 0, "toMessageId": 0}}
    ]
  }}
}}
"#,
        created = T0 - 1_000,
        t0 = T0,
        t1 = T0 + 300_000,
    )
}

/// Writes a thread under `~/.local/share/amp/threads/`, modified in the window.
fn write_thread(home: &Home, id: &str, content: &str) -> PathBuf {
    let path = home.write(&format!(".local/share/amp/threads/{id}.json"), content);
    set_mtime(&path, ts("2026-03-02T12:00:00Z"));
    path
}

#[test]
fn amp_typed_messages_are_prompts_and_tool_results_hooks_and_corrections_are_not() {
    let home = Home::new();
    write_thread(&home, THREAD, &thread(THREAD, Some("Fix flaky login test")));
    let output = home.read(Agent::Amp, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let found = session(&output, Agent::Amp, THREAD);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:00Z", "2026-03-02T10:05:00Z"]));
    // `created`, the prompts and the ledger's events: the reply cut mid-turn has no time.
    assert_eq!(
        found.activity,
        times(&[
            "2026-03-02T09:59:59Z",
            "2026-03-02T10:00:00Z",
            "2026-03-02T10:00:05Z",
            "2026-03-02T10:00:06Z",
            "2026-03-02T10:05:00Z",
        ])
    );
    let amp = status(&output, Agent::Amp);
    assert!(amp.found);
    assert_eq!((amp.files, amp.entries), (1, 1));
    assert_eq!(amp.versions, ["0.0.1767830505-ga62310"]);
    assert!(amp.unknown.is_empty(), "{:?}", amp.unknown);
}

#[test]
fn amp_title_is_the_threads_unless_blank_then_the_first_prompt() {
    let home = Home::new();
    let blank = "T-5f6c1a2e-0000-4000-8000-000000000002";
    let untitled = "T-5f6c1a2e-0000-4000-8000-000000000003";
    write_thread(&home, THREAD, &thread(THREAD, Some("Fix flaky login test")));
    write_thread(&home, blank, &thread(blank, Some("  ")));
    write_thread(&home, untitled, &thread(untitled, None));
    let output = home.read(Agent::Amp, ts(SINCE));
    assert_eq!(session(&output, Agent::Amp, THREAD).title, "Fix flaky login test");
    assert_eq!(session(&output, Agent::Amp, blank).title, "Fix the flaky login test");
    assert_eq!(session(&output, Agent::Amp, untitled).title, "Fix the flaky login test");
}

#[test]
fn amp_cwd_and_branch_come_from_the_first_tree() {
    let home = Home::new();
    write_thread(&home, THREAD, &thread(THREAD, None));
    let output = home.read(Agent::Amp, ts(SINCE));
    let found = session(&output, Agent::Amp, THREAD);
    assert_eq!(found.cwd, Some(PathBuf::from("/home/dev/my app")));
    assert_eq!(found.branch.as_deref(), Some("fix-login"));
}

#[test]
fn amp_newer_working_directory_wins_over_the_tree() {
    let home = Home::new();
    let content = thread(THREAD, None).replace(
        "\"platform\": {",
        "\"workingDirectory\": \"file:///home/dev/my%20app/crates/web\",\n      \"platform\": {",
    );
    write_thread(&home, THREAD, &content);
    let output = home.read(Agent::Amp, ts(SINCE));
    assert_eq!(
        session(&output, Agent::Amp, THREAD).cwd,
        Some(PathBuf::from("/home/dev/my app/crates/web"))
    );
}

#[test]
fn amp_models_are_the_ledgers_inference_events_else_the_replies() {
    let home = Home::new();
    write_thread(&home, THREAD, &thread(THREAD, None));
    let other = "T-5f6c1a2e-0000-4000-8000-000000000004";
    // An older thread without a ledger: the replies' `usage.model`.
    let start = thread(other, None);
    let ledger_at = start.find("  \"usageLedger\"").expect("ledger in the thread");
    let without_ledger = format!("{}  \"v2\": 1\n}}\n", &start[..ledger_at]);
    write_thread(&home, other, &without_ledger);
    let output = home.read(Agent::Amp, ts(SINCE));
    // The title model (`claude-haiku-4-5`) is not the session's.
    assert_eq!(session(&output, Agent::Amp, THREAD).models, ["claude-sonnet-4-5-20250929"]);
    assert_eq!(session(&output, Agent::Amp, other).models, ["claude-sonnet-4-5-20250929"]);
    assert_eq!(
        session(&output, Agent::Amp, other).activity,
        times(&["2026-03-02T09:59:59Z", "2026-03-02T10:00:00Z", "2026-03-02T10:05:00Z"])
    );
}

#[test]
fn amp_sub_thread_is_activity_of_its_main_thread_never_prompts() {
    let home = Home::new();
    write_thread(&home, THREAD, &thread(THREAD, Some("Main")));
    let sub = "T-5f6c1a2e-0000-4000-8000-0000000000aa";
    let content = thread(sub, Some("repl(python): explore"))
        .replacen("\"v\": 17,", &format!("\"v\": 3,\n  \"mainThreadID\": \"{THREAD}\","), 1)
        .replace(&T0.to_string(), &(T0 + 3_600_000).to_string());
    write_thread(&home, sub, &content);
    let output = home.read(Agent::Amp, ts(SINCE));
    assert!(output.events.iter().all(|event| event.session_id != sub));
    let main = session(&output, Agent::Amp, THREAD);
    assert_eq!(main.title, "Main");
    assert_eq!(main.prompts, times(&["2026-03-02T10:00:00Z", "2026-03-02T10:05:00Z"]));
    assert!(main.activity.contains(&ts("2026-03-02T11:00:00Z")), "{:?}", main.activity);
}

#[test]
fn amp_honours_xdg_data_home() {
    let home = Home::new();
    let data = home.path().join("data");
    let home = home.var("XDG_DATA_HOME", data.display().to_string());
    let path = home.write(&format!("data/amp/threads/{THREAD}.json"), thread(THREAD, None));
    set_mtime(&path, ts("2026-03-02T12:00:00Z"));
    // A thread in the default place is not read when XDG_DATA_HOME points elsewhere.
    write_thread(&home, "T-5f6c1a2e-0000-4000-8000-0000000000bb", &thread("T-other", None));
    let output = home.read(Agent::Amp, ts(SINCE));
    let ids: Vec<&str> = output.events.iter().map(|event| event.session_id.as_str()).collect();
    assert_eq!(ids, [THREAD]);
    assert_eq!(status(&output, Agent::Amp).locations, [data.join("amp")]);
}

#[test]
fn amp_old_threads_are_not_opened_and_prompts_before_the_window_do_not_count() {
    let home = Home::new();
    let old = write_thread(&home, "T-5f6c1a2e-0000-4000-8000-000000000005", "not json at all");
    set_mtime(&old, ts("2026-03-01T12:00:00Z"));
    write_thread(&home, THREAD, &thread(THREAD, None));
    let output = home.read(Agent::Amp, ts("2026-03-02T10:01:00Z"));
    // The old file is counted but never opened: no warning for its content.
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(status(&output, Agent::Amp).files, 2);
    let found = session(&output, Agent::Amp, THREAD);
    assert_eq!(found.prompts, times(&["2026-03-02T10:05:00Z"]));
    // The title still comes from the first prompt, sent before the window.
    assert_eq!(found.title, "Fix the flaky login test");
}

#[test]
fn amp_malformed_and_unreadable_threads_are_warned_and_the_rest_read() {
    let home = Home::new();
    let broken = write_thread(&home, "T-5f6c1a2e-0000-4000-8000-000000000006", "{\"id\": ");
    let fifo =
        home.path().join(".local/share/amp/threads/T-5f6c1a2e-0000-4000-8000-000000000007.json");
    let _fifo = Fifo::make(&fifo);
    write_thread(&home, THREAD, &thread(THREAD, None));
    let output = home.read(Agent::Amp, ts(SINCE));
    assert_eq!(output.events.len(), 1);
    session(&output, Agent::Amp, THREAD);
    assert_one_warning_naming(&output, WarningCode::MalformedLines, &broken);
    assert!(
        output.warnings.iter().any(|w| en(w).contains(&fifo.display().to_string())),
        "{:?}",
        output.warnings
    );
    assert_eq!(status(&output, Agent::Amp).limits, ["1 malformed line skipped in 1 file"]);
}

#[test]
fn amp_missing_folder_is_silent() {
    let home = Home::new();
    let output = home.read(Agent::Amp, ts(SINCE));
    assert!(output.events.is_empty() && output.warnings.is_empty());
    assert!(!status(&output, Agent::Amp).found);
}

#[test]
fn amp_unknown_roles_are_noted() {
    let home = Home::new();
    let content = thread(THREAD, None).replace("\"role\": \"info\"", "\"role\": \"narrator\"");
    write_thread(&home, THREAD, &content);
    let output = home.read(Agent::Amp, ts(SINCE));
    assert_eq!(status(&output, Agent::Amp).unknown, ["message role narrator"]);
}

#[test]
fn amp_empty_threads_folder_is_found_with_nothing_in_it() {
    let home = Home::new();
    fs_err::create_dir_all(home.path().join(".local/share/amp/threads")).unwrap();
    let output = home.read(Agent::Amp, ts(SINCE));
    assert!(output.events.is_empty() && output.warnings.is_empty(), "{:?}", output.warnings);
    let amp = status(&output, Agent::Amp);
    assert!(amp.found, "an Amp folder with no thread yet is found");
    assert_eq!((amp.files, amp.entries), (0, 0));
}

#[test]
fn amp_only_thread_files_are_read_not_files_being_written_nor_folders() {
    let home = Home::new();
    write_thread(&home, THREAD, &thread(THREAD, None));
    // Amp writes a thread to `<id>.json.amptmp` and renames it: half written, not JSON.
    let threads = ".local/share/amp/threads";
    for (name, text) in [(format!("{THREAD}.json.amptmp"), "{\"id\": "), ("notes.json".into(), "{")]
    {
        let path = home.write(&format!("{threads}/{name}"), text);
        set_mtime(&path, ts("2026-03-02T12:00:00Z"));
    }
    // A folder named like a thread is not one.
    let folder = "T-5f6c1a2e-0000-4000-8000-0000000000cc.json";
    fs_err::create_dir_all(home.path().join(threads).join(folder)).unwrap();
    let output = home.read(Agent::Amp, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let ids: Vec<&str> = output.events.iter().map(|event| event.session_id.as_str()).collect();
    assert_eq!(ids, [THREAD]);
    assert_eq!(status(&output, Agent::Amp).files, 1);
}

#[test]
fn amp_models_are_those_of_the_windows_inferences() {
    let home = Home::new();
    // The thread ran on another model the day before the window.
    let earlier = r#"{"id": "e0", "timestamp": "2026-03-01T09:00:00.000Z", "model": "gpt-5", "credits": 1, "tokens": {"input": 1, "output": 1}, "operationType": "inference", "fromMessageId": 0, "toMessageId": 1},
      {"id": "e1""#;
    let content = thread(THREAD, None).replacen(r#"{"id": "e1""#, earlier, 1);
    write_thread(&home, THREAD, &content);
    let output = home.read(Agent::Amp, ts(SINCE));
    let found = session(&output, Agent::Amp, THREAD);
    assert_eq!(found.models, ["claude-sonnet-4-5-20250929"]);
    assert!(!found.activity.contains(&ts("2026-03-01T09:00:00Z")), "{:?}", found.activity);
}

/// `(messageId, meta)`: each message's `meta` put first in it, as a sent time would be.
fn with_meta(content: &str, metas: &[(u32, String)]) -> String {
    let mut content = content.to_owned();
    for (id, meta) in metas {
        let at = format!("\"messageId\": {id},");
        assert!(content.contains(&at), "message {id} in the thread");
        content = content.replacen(&at, &format!("{at}\n      \"meta\": {meta},"), 1);
    }
    content
}

#[test]
fn amp_sent_tool_results_hooks_corrections_and_automations_are_not_prompts() {
    let home = Home::new();
    let sent = |ms: i64| format!("{{\"sentAt\": {}}}", T0 + ms);
    // The tool result, the hook's message and the correction with a time of their own;
    // the second typed prompt sent by an automation.
    let content =
        with_meta(&thread(THREAD, None), &[(2, sent(1_000)), (3, sent(2_000)), (4, sent(3_000))])
            .replace(
                &format!("\"meta\": {{\"sentAt\": {}}}", T0 + 300_000),
                &format!("\"meta\": {{\"sentAt\": {}, \"fromAutomation\": true}}", T0 + 300_000),
            );
    write_thread(&home, THREAD, &content);
    let output = home.read(Agent::Amp, ts(SINCE));
    let found = session(&output, Agent::Amp, THREAD);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:00Z"]));
    // Still the thread's activity.
    assert!(found.activity.contains(&ts("2026-03-02T10:00:02Z")), "{:?}", found.activity);
    assert!(status(&output, Agent::Amp).unknown.is_empty());
}

#[test]
fn amp_a_user_message_from_an_unknown_source_is_a_prompt_and_noted() {
    let home = Home::new();
    let content =
        with_meta(&thread(THREAD, None), &[(4, format!("{{\"sentAt\": {}}}", T0 + 3_000))])
            .replace("{\"type\": \"course-correction\"}", "{\"type\": \"scheduler\"}");
    write_thread(&home, THREAD, &content);
    let output = home.read(Agent::Amp, ts(SINCE));
    let found = session(&output, Agent::Amp, THREAD);
    assert_eq!(
        found.prompts,
        times(&["2026-03-02T10:00:00Z", "2026-03-02T10:00:03Z", "2026-03-02T10:05:00Z"])
    );
    assert_eq!(status(&output, Agent::Amp).unknown, ["user message source scheduler"]);
}

#[test]
fn amp_with_a_ledger_the_replies_models_are_not_added() {
    let home = Home::new();
    let content = thread(THREAD, None).replace(
        "\"usage\": {\"model\": \"claude-sonnet-4-5-20250929\"",
        "\"usage\": {\"model\": \"claude-opus-4-1\"",
    );
    assert!(content.contains("claude-opus-4-1"));
    write_thread(&home, THREAD, &content);
    let output = home.read(Agent::Amp, ts(SINCE));
    assert_eq!(session(&output, Agent::Amp, THREAD).models, ["claude-sonnet-4-5-20250929"]);
}

/// A thread as Amp (up to 0.0.1768018268) writes a fork (`thread: fork`,
/// `createForkedThread`): made now, the messages up to `forkPointIndex` deep copies of
/// the other thread's (`meta.sentAt` kept), then its own.
fn fork(id: &str, of: &str) -> String {
    let (before, created, own) = (T0 - 3_600_000, T0, T0 + 60_000);
    format!(
        r#"{{
  "v": 3,
  "id": "{id}",
  "created": {created},
  "title": "Forked: Plan the release",
  "originThreadID": "{of}",
  "forkPointIndex": 1,
  "relationships": [{{"threadID": "{of}", "type": "fork", "role": "child", "messageIndex": 1, "createdAt": {created}}}],
  "messages": [
    {{"role": "user", "messageId": 0, "content": [{{"type": "text", "text": "Plan the release"}}], "meta": {{"sentAt": {before}}}}},
    {{"role": "assistant", "messageId": 1, "content": [{{"type": "text", "text": "Here is a plan."}}], "usage": {{"model": "claude-opus-4-1"}}}},
    {{"role": "user", "messageId": 2, "content": [{{"type": "text", "text": "Now the changelog"}}], "meta": {{"sentAt": {own}}}}},
    {{"role": "assistant", "messageId": 3, "content": [{{"type": "text", "text": "Done."}}], "usage": {{"model": "claude-sonnet-4-5"}}}}
  ]
}}"#
    )
}

/// A fork's copies of the other thread's messages are counted in that thread only: not a
/// prompt, activity or model of the fork. Made from Amp's source (the fork is gone from
/// Amp since 0.0.1769314944, and Amp runs only against its own servers: not recorded).
#[test]
fn amp_a_fork_s_copies_of_the_other_thread_are_not_counted_twice() {
    let home = Home::new();
    let origin = "T-5f6c1a2e-0000-4000-8000-0000000000aa";
    let forked = "T-5f6c1a2e-0000-4000-8000-0000000000bb";
    write_thread(&home, forked, &fork(forked, origin));
    let output = home.read(Agent::Amp, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::Amp, forked);
    assert_eq!(event.prompts, times(&["2026-03-02T10:01:00Z"]));
    assert_eq!(event.activity, times(&["2026-03-02T10:00:00Z", "2026-03-02T10:01:00Z"]));
    assert_eq!(event.models, ["claude-sonnet-4-5"]);
    assert_eq!(event.title, "Forked: Plan the release");
}

/// Without `forkPointIndex` (a fork's thread as a newer or older Amp may write it), a user
/// message sent before its thread was created is a copy too, and one sent at that very
/// time is the thread's own; an untitled fork takes the copied prompt as its title.
#[test]
fn amp_a_message_sent_before_its_thread_was_made_is_a_copy() {
    let home = Home::new();
    let id = "T-5f6c1a2e-0000-4000-8000-0000000000cc";
    let text = fork(id, "T-5f6c1a2e-0000-4000-8000-0000000000aa")
        .replace("  \"forkPointIndex\": 1,\n", "")
        .replace("  \"title\": \"Forked: Plan the release\",\n", "")
        .replace(&(T0 + 60_000).to_string(), &T0.to_string());
    write_thread(&home, id, &text);
    let output = home.read(Agent::Amp, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let event = session(&output, Agent::Amp, id);
    assert_eq!(event.prompts, times(&["2026-03-02T10:00:00Z"]));
    assert_eq!(event.title, "Plan the release");
}

#[test]
fn amp_a_prompt_whose_sent_at_is_no_time_is_warned_and_not_counted() {
    let home = Home::new();
    let path = write_thread(&home, THREAD, &spoil_first(&thread(THREAD, None), "sentAt"));
    let output = home.read(Agent::Amp, ts(SINCE));
    assert_unreadable_times(&output, &path, "sentAt", 1);
    assert_eq!(session(&output, Agent::Amp, THREAD).prompts, times(&["2026-03-02T10:05:00Z"]));
}
