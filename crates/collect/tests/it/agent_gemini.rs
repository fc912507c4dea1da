//! Tests of the gemini reader (see crates/collect/src/sessions/gemini.rs).
//!
//! The chats are written as Gemini CLI writes them (`chatRecordingService.ts`): one JSON
//! object per line, a metadata line, messages by id, `$set` updates.

use std::path::Path;

use report_model::Agent;

use crate::fifo::Fifo;
use crate::support::{
    Home, assert_unreadable_times, en, recorded_failure, recorded_todos, scripted, session,
    set_mtime, status, times, ts,
};

const SINCE: &str = "2026-03-02T00:00:00Z";
const ID: &str = "5e551011-0000-4000-8000-000000000001";
const CHATS: &str = ".gemini/tmp/my-app/chats";

/// The `<session_context>` message Gemini CLI 0.61.0 records first in every chat.
fn session_context(id: &str, time: &str, dir: &str) -> String {
    format!(
        r#"{{"id":"{id}","timestamp":"{time}","type":"user","content":[{{"text":"<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\nToday's date is Monday, March 2, 2026 (formatted according to the user's locale).\nMy operating system is: linux\nThe project's temporary directory is: /home/dev/.gemini/tmp/my-app\n- **Workspace Directories:**\n  - {dir}\n- **Directory Structure:**\n\nShowing up to 200 items (files + folders).\n\n{dir}/\n└───README.md\n\n\n</session_context>"}}]}}"#
    )
}

fn metadata(session_id: &str, hash: &str, start: &str) -> String {
    format!(
        r#"{{"sessionId":"{session_id}","projectHash":"{hash}","startTime":"{start}","lastUpdated":"{start}","kind":"main"}}"#
    )
}

fn user(id: &str, time: &str, text: &str) -> String {
    format!(r#"{{"id":"{id}","timestamp":"{time}","type":"user","content":[{{"text":"{text}"}}]}}"#)
}

fn reply(id: &str, time: &str, text: &str) -> String {
    format!(
        r#"{{"id":"{id}","timestamp":"{time}","type":"gemini","content":"{text}","thoughts":[],"tokens":{{"input":10,"output":5,"cached":0,"thoughts":0,"tool":0,"total":15}},"model":"gemini-2.5-flash"}}"#
    )
}

fn last_updated(time: &str) -> String {
    format!(r#"{{"$set":{{"lastUpdated":"{time}"}}}}"#)
}

fn lines(lines: &[String]) -> String {
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// A chat folder with `.project_root` and one chat of one typed prompt, as 0.61.0 writes.
fn one_prompt_chat(home: &Home) {
    home.write(".gemini/tmp/my-app/.project_root", "/home/dev/my-app");
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-5e551011.jsonl"),
        lines(&[
            metadata(ID, &"a".repeat(64), "2026-03-02T10:00:00.000Z"),
            session_context("c1", "2026-03-02T10:00:00.100Z", "/home/dev/my-app"),
            last_updated("2026-03-02T10:00:00.100Z"),
            user("u1", "2026-03-02T10:00:05.000Z", "List the files here"),
            last_updated("2026-03-02T10:00:05.000Z"),
            reply("g1", "2026-03-02T10:00:07.000Z", "README.md"),
            last_updated("2026-03-02T10:00:07.000Z"),
        ]),
    );
}

#[test]
fn the_session_context_block_is_no_prompt_and_no_title() {
    let home = Home::new();
    one_prompt_chat(&home);
    let output = home.read(Agent::Gemini, ts(SINCE));
    let found = session(&output, Agent::Gemini, ID);
    assert_eq!(found.title, "List the files here");
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:05Z"]));
    // It is still a record of the session: activity.
    assert_eq!(
        found.activity,
        times(&["2026-03-02T10:00:00.100Z", "2026-03-02T10:00:05Z", "2026-03-02T10:00:07Z"])
    );
    assert_eq!(found.models, ["gemini-2.5-flash"]);
    assert_eq!(found.cwd.as_deref(), Some(Path::new("/home/dev/my-app")));
    assert!(output.warnings.is_empty(), "{:#?}", output.warnings);
    let gemini = status(&output, Agent::Gemini);
    assert_eq!((gemini.found, gemini.files, gemini.entries), (true, 1, 1));
    // Gemini CLI names no version of its own in its files.
    assert!(gemini.versions.is_empty());
    assert!(gemini.unknown.is_empty(), "{:?}", gemini.unknown);
}

#[test]
fn tool_results_nudges_shell_commands_and_hook_context_are_not_prompts() {
    let home = Home::new();
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-5e551011.jsonl"),
        lines(&[
            metadata(ID, &"a".repeat(64), "2026-03-02T10:00:00.000Z"),
            // A hook's context before what was typed (non-interactive mode).
            r#"{"id":"u1","timestamp":"2026-03-02T10:00:01.000Z","type":"user","content":[{"text":"<hook_context>branch: main</hook_context>\n\nfix the failing test"}]}"#.to_owned(),
            r#"{"id":"g1","timestamp":"2026-03-02T10:00:02.000Z","type":"gemini","content":"","toolCalls":[{"id":"read_file-1","name":"read_file","args":{"path":"a.rs"},"status":"success","timestamp":"2026-03-02T10:00:02.500Z"}],"model":"gemini-2.5-pro"}"#.to_owned(),
            // The tool's result, recorded as a `user` message.
            r#"{"id":"u2","timestamp":"2026-03-02T10:00:03.000Z","type":"user","content":[{"functionResponse":{"id":"read_file-1","name":"read_file","response":{"output":"fn main() {}"}}}]}"#.to_owned(),
            // The next-speaker nudge, shown as the original prompt.
            r#"{"id":"u3","timestamp":"2026-03-02T10:00:04.000Z","type":"user","content":[{"text":"Please continue."}],"displayContent":[{"text":"fix the failing test"}]}"#.to_owned(),
            // Shell mode (`!ls`).
            user("u4", "2026-03-02T10:00:05.000Z", "I ran the following shell command:\\n```sh\\nls\\n```\\n\\nThis produced the following result:\\n```\\na.rs\\n```"),
            // Only a hook's context.
            user("u5", "2026-03-02T10:00:06.000Z", "<hook_context>session started</hook_context>"),
            // The IDE's editor context.
            user("u6", "2026-03-02T10:00:07.000Z", "Here is the user's editor context as a JSON object. This is for your information only."),
            user("u7", "2026-03-02T10:00:08.000Z", "now run it"),
        ]),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    let found = session(&output, Agent::Gemini, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:01Z", "2026-03-02T10:00:08Z"]));
    assert_eq!(found.title, "fix the failing test");
    assert_eq!(found.activity.len(), 8);
}

#[test]
fn messages_a_set_checkpoint_rebuilds_are_not_prompts() {
    let home = Home::new();
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-5e551011.jsonl"),
        lines(&[
            metadata(ID, &"a".repeat(64), "2026-03-02T10:00:00.000Z"),
            user("u1", "2026-03-02T10:00:01.000Z", "Refactor the parser"),
            reply("g1", "2026-03-02T10:00:02.000Z", "Done."),
            // History rewritten after compression: the typed message keeps its id (still
            // a prompt), the summary is a new `user` message (no prompt).
            r#"{"$set":{"messages":[{"id":"s1","timestamp":"2026-03-02T11:00:00.000Z","type":"user","content":[{"text":"The user asked to refactor the parser; it was done."}]},{"id":"s2","timestamp":"2026-03-02T11:00:00.000Z","type":"gemini","content":[{"text":"Got it. Thanks for the additional context!"}]},{"id":"u1","timestamp":"2026-03-02T10:00:01.000Z","type":"user","content":[{"text":"Refactor the parser"}]}],"lastUpdated":"2026-03-02T11:00:00.000Z"}}"#.to_owned(),
            user("u2", "2026-03-02T11:00:05.000Z", "Add tests"),
        ]),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    let found = session(&output, Agent::Gemini, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:01Z", "2026-03-02T11:00:05Z"]));
    assert_eq!(found.title, "Refactor the parser");
    // `g1` was dropped by the checkpoint.
    assert_eq!(
        found.activity,
        times(&["2026-03-02T10:00:01Z", "2026-03-02T11:00:00Z", "2026-03-02T11:00:05Z"])
    );
}

#[test]
fn a_subagent_sibling_with_the_same_session_id_adds_activity_not_prompts() {
    let home = Home::new();
    // Before February 2026 a sub-agent wrote a `.json` sibling with its parent's id and
    // no `kind`; its `user` messages were written by the parent agent.
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-5e551011.json"),
        format!(
            r#"{{"sessionId":"{ID}","projectHash":"{hash}","startTime":"2026-03-02T10:00:00.000Z","lastUpdated":"2026-03-02T10:09:00.000Z","messages":[{{"id":"p1","timestamp":"2026-03-02T10:00:00.000Z","type":"user","content":"How is auth done here?"}},{{"id":"p2","timestamp":"2026-03-02T10:00:02.000Z","type":"gemini","content":"","toolCalls":[{{"id":"codebase_investigator-1","name":"codebase_investigator","args":{{"objective":"auth"}},"status":"success","timestamp":"2026-03-02T10:08:00.000Z"}}],"model":"gemini-2.5-pro"}},{{"id":"p3","timestamp":"2026-03-02T10:09:00.000Z","type":"gemini","content":"With JWTs.","model":"gemini-2.5-pro"}}]}}"#,
            hash = "b".repeat(64)
        ),
    );
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-01-5e551011.json"),
        format!(
            r#"{{"sessionId":"{ID}","projectHash":"{hash}","startTime":"2026-03-02T10:01:00.000Z","lastUpdated":"2026-03-02T10:07:00.000Z","messages":[{{"id":"s1","timestamp":"2026-03-02T10:01:00.000Z","type":"user","content":"Your task is to investigate: auth"}},{{"id":"s2","timestamp":"2026-03-02T10:05:00.000Z","type":"gemini","content":"Looking","model":"gemini-2.5-flash"}},{{"id":"s3","timestamp":"2026-03-02T10:06:00.000Z","type":"user","content":"Please keep going"}},{{"id":"s4","timestamp":"2026-03-02T10:07:00.000Z","type":"gemini","content":"Found it","model":"gemini-2.5-flash"}}]}}"#,
            hash = "b".repeat(64)
        ),
    );
    // Since February 2026 the metadata says `kind: "subagent"`.
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-02-5e551011.jsonl"),
        lines(&[
            format!(
                r#"{{"sessionId":"{ID}","projectHash":"{hash}","startTime":"2026-03-02T10:02:00.000Z","lastUpdated":"2026-03-02T10:02:00.000Z","kind":"subagent","directories":["/home/dev/my-app"]}}"#,
                hash = "b".repeat(64)
            ),
            user("k1", "2026-03-02T10:02:00.000Z", "Explain the hooks feature"),
            reply("k2", "2026-03-02T10:02:30.000Z", "Hooks run commands."),
        ]),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    assert_eq!(output.events.len(), 1, "{:#?}", output.events);
    let found = session(&output, Agent::Gemini, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:00Z"]));
    assert_eq!(found.title, "How is auth done here?");
    assert_eq!(found.activity.len(), 9);
    assert!(found.activity.contains(&ts("2026-03-02T10:06:00Z")));
    assert!(found.activity.contains(&ts("2026-03-02T10:02:30Z")));
    // The parent's model only: a sub-agent's are its own.
    assert_eq!(found.models, ["gemini-2.5-pro"]);
}

#[test]
fn other_chats_of_one_session_id_are_continuations_and_merge() {
    let home = Home::new();
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-5e551011.jsonl"),
        lines(&[
            metadata(ID, &"a".repeat(64), "2026-03-02T10:00:00.000Z"),
            user("u1", "2026-03-02T10:00:01.000Z", "Start the migration"),
            reply("g1", "2026-03-02T10:00:02.000Z", "Started."),
            r#"{"$set":{"summary":"Database migration"}}"#.to_owned(),
        ]),
    );
    // Resumed later: a new file of the same session.
    home.write(
        &format!("{CHATS}/session-2026-03-02T15-00-5e551011.jsonl"),
        lines(&[
            metadata(ID, &"a".repeat(64), "2026-03-02T15:00:00.000Z"),
            session_context("c2", "2026-03-02T15:00:00.000Z", "/home/dev/my-app"),
            user("u2", "2026-03-02T15:00:01.000Z", "Finish the migration"),
            reply("g2", "2026-03-02T15:00:02.000Z", "Finished."),
            r#"{"$set":{"summary":"Database migration, finished"}}"#.to_owned(),
        ]),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    assert_eq!(output.events.len(), 1);
    let found = session(&output, Agent::Gemini, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:01Z", "2026-03-02T15:00:01Z"]));
    // The summary of the chat written last.
    assert_eq!(found.title, "Database migration, finished");
}

#[test]
fn a_legacy_chat_and_the_jsonl_it_was_migrated_to_are_one_session() {
    let home = Home::new();
    let legacy = format!(
        r#"{{"sessionId":"{ID}","projectHash":"{hash}","startTime":"2026-03-02T10:00:00.000Z","lastUpdated":"2026-03-02T10:00:02.000Z","messages":[{{"id":"u1","timestamp":"2026-03-02T10:00:01.000Z","type":"user","content":"Why is CI red?"}},{{"id":"g1","timestamp":"2026-03-02T10:00:02.000Z","type":"gemini","content":"A flaky test.","model":"gemini-2.5-pro"}}]}}"#,
        hash = "a".repeat(64)
    );
    home.write(&format!("{CHATS}/session-2026-03-02T10-00-5e551011.json"), legacy);
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-5e551011.jsonl"),
        lines(&[
            metadata(ID, &"a".repeat(64), "2026-03-02T10:00:00.000Z"),
            user("u1", "2026-03-02T10:00:01.000Z", "Why is CI red?"),
            reply("g1", "2026-03-02T10:00:02.000Z", "A flaky test."),
            r#"{"$set":{"sessionId":"5e551011-0000-4000-8000-000000000001"}}"#.to_owned(),
            user("u2", "2026-03-02T12:00:00.000Z", "Fix it"),
        ]),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    let found = session(&output, Agent::Gemini, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:01Z", "2026-03-02T12:00:00Z"]));
    assert_eq!(found.activity.len(), 3);
}

#[test]
fn sessions_are_placed_by_message_times_not_last_updated() {
    let home = Home::new();
    home.write(
        &format!("{CHATS}/session-2026-02-20T10-00-5e551011.jsonl"),
        lines(&[
            metadata(ID, &"a".repeat(64), "2026-02-20T10:00:00.000Z"),
            user("u1", "2026-02-20T10:00:01.000Z", "Old question"),
            reply("g1", "2026-02-20T10:00:02.000Z", "Old answer"),
            // Written days later (a summary generated on the next start).
            r#"{"$set":{"summary":"Old question","lastUpdated":"2026-03-02T09:00:00.000Z"}}"#
                .to_owned(),
        ]),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    assert!(output.events.is_empty(), "{:#?}", output.events);
}

#[test]
fn a_folder_named_by_a_hash_finds_its_working_directory() {
    let home = Home::new();
    // The registry names the path (its folder was renamed by another Gemini home).
    home.write(".gemini/projects.json", r#"{"projects":{"/home/dev/old app":"old-app"}}"#);
    let registry_hash = collect_hash("/home/dev/old app");
    home.write(
        &format!(".gemini/tmp/{registry_hash}/chats/session-2026-03-02T10-00-11111111.jsonl"),
        lines(&[
            metadata(
                "11111111-0000-4000-8000-000000000001",
                &registry_hash,
                "2026-03-02T10:00:00.000Z",
            ),
            user("u1", "2026-03-02T10:00:01.000Z", "one"),
        ]),
    );
    // A `.project_root` in `history/` names the path.
    home.write(".gemini/history/legacy/.project_root", "/srv/legacy\n");
    let history_hash = collect_hash("/srv/legacy");
    home.write(
        &format!(".gemini/tmp/{history_hash}/chats/session-2026-03-02T10-00-22222222.json"),
        format!(
            r#"{{"sessionId":"22222222-0000-4000-8000-000000000002","projectHash":"{history_hash}","startTime":"2026-03-02T10:00:00.000Z","lastUpdated":"2026-03-02T10:00:00.000Z","messages":[{{"id":"u1","timestamp":"2026-03-02T10:00:01.000Z","type":"user","content":"two"}}]}}"#
        ),
    );
    // Only the chat's own session context names it (verified by its hash).
    let context_hash = collect_hash("/opt/ctx");
    home.write(
        &format!(".gemini/tmp/{context_hash}/chats/session-2026-03-02T10-00-33333333.jsonl"),
        lines(&[
            metadata(
                "33333333-0000-4000-8000-000000000003",
                &context_hash,
                "2026-03-02T10:00:00.000Z",
            ),
            session_context("c1", "2026-03-02T10:00:00.000Z", "/opt/ctx"),
            user("u1", "2026-03-02T10:00:01.000Z", "three"),
        ]),
    );
    // Only the metadata's `directories` (`/directory add`) names it, after another one;
    // a `directories` of another shape is skipped, the line still read.
    let dirs_hash = collect_hash("/opt/dirs");
    home.write(
        &format!(".gemini/tmp/{dirs_hash}/chats/session-2026-03-02T10-00-44444444.jsonl"),
        lines(&[
            format!(
                r#"{{"sessionId":"44444444-0000-4000-8000-000000000004","projectHash":"{dirs_hash}","startTime":"2026-03-02T10:00:00.000Z","lastUpdated":"2026-03-02T10:00:00.000Z","kind":"main","directories":["/tmp/scratch","/opt/dirs"]}}"#
            ),
            user("u1", "2026-03-02T10:00:01.000Z", "four"),
            r#"{"$set":{"directories":{"not":"a list"},"lastUpdated":"2026-03-02T10:00:01.000Z"}}"#
                .to_owned(),
        ]),
    );
    // A folder named by a hash no file names, whose chat's own `projectHash` is one a
    // `.project_root` names: both are looked up.
    home.write(".gemini/history/moved/.project_root", "/srv/moved\n");
    let moved_hash = collect_hash("/srv/moved");
    let gone_hash = collect_hash("/gone/path");
    home.write(
        &format!(".gemini/tmp/{gone_hash}/chats/session-2026-03-02T10-00-55555555.jsonl"),
        lines(&[
            metadata(
                "55555555-0000-4000-8000-000000000005",
                &moved_hash,
                "2026-03-02T10:00:00.000Z",
            ),
            user("u1", "2026-03-02T10:00:01.000Z", "five"),
        ]),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:#?}", output.warnings);
    let cwd = |id: &str| session(&output, Agent::Gemini, id).cwd.clone();
    assert_eq!(
        cwd("55555555-0000-4000-8000-000000000005").as_deref(),
        Some(Path::new("/srv/moved"))
    );
    assert_eq!(
        cwd("44444444-0000-4000-8000-000000000004").as_deref(),
        Some(Path::new("/opt/dirs"))
    );
    assert_eq!(
        cwd("11111111-0000-4000-8000-000000000001").as_deref(),
        Some(Path::new("/home/dev/old app"))
    );
    assert_eq!(
        cwd("22222222-0000-4000-8000-000000000002").as_deref(),
        Some(Path::new("/srv/legacy"))
    );
    assert_eq!(cwd("33333333-0000-4000-8000-000000000003").as_deref(), Some(Path::new("/opt/ctx")));
    assert!(status(&output, Agent::Gemini).limits.is_empty());
}

/// Gemini CLI's `getProjectHash`: sha256 of the path, as hex.
fn collect_hash(path: &str) -> String {
    use sha2::Digest as _;
    use std::fmt::Write as _;
    sha2::Sha256::digest(path.as_bytes()).iter().fold(String::new(), |mut hex, byte| {
        let _ = write!(hex, "{byte:02x}");
        hex
    })
}

#[test]
fn old_files_are_not_opened_and_bad_ones_are_warned() {
    let home = Home::new();
    one_prompt_chat(&home);
    let old = home.write(&format!("{CHATS}/session-2026-02-01T10-00-0ld0ld00.jsonl"), "not json\n");
    set_mtime(&old, ts("2026-02-01T10:00:00Z"));
    let broken = home.write(
        &format!("{CHATS}/session-2026-03-02T11-00-b0b0b0b0.jsonl"),
        lines(&[
            metadata(
                "b0b0b0b0-0000-4000-8000-000000000001",
                &"a".repeat(64),
                "2026-03-02T11:00:00.000Z",
            ),
            "{not json".to_owned(),
            user("u1", "2026-03-02T11:00:01.000Z", "still read"),
        ]),
    );
    // Not a chat: its name does not start with `session-`.
    let other = home.write(&format!("{CHATS}/notes.json"), "not json\n");
    let fifo = home.path().join(CHATS).join("session-2026-03-02T12-00-f1f0f1f0.jsonl");
    let _fifo = Fifo::make(&fifo);
    let output = home.read(Agent::Gemini, ts(SINCE));
    assert_eq!(
        session(&output, Agent::Gemini, "b0b0b0b0-0000-4000-8000-000000000001").prompts,
        times(&["2026-03-02T11:00:01Z"])
    );
    session(&output, Agent::Gemini, ID);
    assert_eq!(output.warnings.len(), 2, "{:#?}", output.warnings);
    let named = |path: &Path| {
        let name = path.file_name().and_then(|name| name.to_str()).expect("name");
        output.warnings.iter().any(|warning| en(warning).contains(name))
    };
    assert!(named(&broken));
    assert!(named(&fifo));
    assert!(!named(&old));
    assert!(!named(&other));
    let gemini = status(&output, Agent::Gemini);
    assert_eq!(gemini.files, 4);
    assert_eq!(gemini.limits, ["1 malformed line skipped in 1 file"]);
}

#[test]
fn gemini_cli_home_is_honoured_and_unknown_types_are_noted() {
    let moved = Home::new();
    let home = Home::new().var("GEMINI_CLI_HOME", moved.path().display().to_string());
    // What `~/.gemini` holds is not read when `GEMINI_CLI_HOME` is set.
    one_prompt_chat(&home);
    moved.write(
        &format!("{CHATS}/session-2026-03-02T10-00-5e551011.jsonl"),
        lines(&[
            metadata(ID, &"a".repeat(64), "2026-03-02T10:00:00.000Z"),
            user("u1", "2026-03-02T10:00:01.000Z", "hello"),
            r#"{"id":"x1","timestamp":"2026-03-02T10:00:02.000Z","type":"tool_group","content":"?"}"#
                .to_owned(),
        ]),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    assert_eq!(output.events.len(), 1);
    let found = session(&output, Agent::Gemini, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:01Z"]));
    let gemini = status(&output, Agent::Gemini);
    assert_eq!(gemini.locations, [moved.path().join(".gemini")]);
    assert_eq!(gemini.unknown, ["type:tool_group"]);
}

/// A sub-agent's `.jsonl` chat (since April 2026) in `chats/<parent>/`, one message.
fn subagent_jsonl_chat(home: &Home) {
    home.write(
        &format!("{CHATS}/{ID}/aaaa0002-0000-4000-8000-000000000002.jsonl"),
        lines(&[
            r#"{"sessionId":"aaaa0002-0000-4000-8000-000000000002","projectHash":"x","startTime":"2026-03-02T10:00:06.500Z","lastUpdated":"2026-03-02T10:00:06.500Z","kind":"subagent"}"#.to_owned(),
            user("s1", "2026-03-02T10:00:06.500Z", "Investigate more"),
        ]),
    );
}

#[test]
fn nested_subagent_chats_add_activity_to_their_parent() {
    let home = Home::new();
    one_prompt_chat(&home);
    // March 2026: `.json` in `chats/<parent>/`; since April: `.jsonl`.
    home.write(
        &format!("{CHATS}/{ID}/aaaa0001-0000-4000-8000-000000000001.json"),
        r#"{"sessionId":"aaaa0001-0000-4000-8000-000000000001","projectHash":"x","startTime":"2026-03-02T10:00:06.000Z","lastUpdated":"2026-03-02T10:00:06.000Z","kind":"subagent","messages":[{"id":"s1","timestamp":"2026-03-02T10:00:06.000Z","type":"user","content":"Investigate"}]}"#,
    );
    subagent_jsonl_chat(&home);
    let output = home.read(Agent::Gemini, ts(SINCE));
    assert_eq!(output.events.len(), 1);
    let found = session(&output, Agent::Gemini, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:05Z"]));
    assert_eq!(found.activity.len(), 5);
    assert_eq!(status(&output, Agent::Gemini).files, 3);
}

/// The sessions the real Gemini CLI wrote (`fixtures/agents/gemini/<version>/`) come out
/// as its `expected.json` says: one typed prompt each, titled by it.
#[test]
fn recorded_sessions_read_as_expected() {
    crate::agent_claude::check_recorded(Agent::Gemini, "gemini");
}

/// A `write_todos` call as `recordToolCalls` writes it into a `gemini` message's
/// `toolCalls[]` (`ToolCallRecord`: `args.todos[]` of `description` and `status`, the
/// call's `status` and `timestamp`, and the fields added for display).
fn write_todos_call(call: &str, time: &str, status: &str, todos: &[(&str, &str)]) -> String {
    let todos: Vec<serde_json::Value> = todos
        .iter()
        .map(|(description, status)| {
            serde_json::json!({"description": description, "status": status})
        })
        .collect();
    serde_json::json!({
        "id": call, "name": "write_todos", "args": {"todos": todos},
        "result": [{"functionResponse": {"id": call, "name": "write_todos", "response": {"output": "Successfully updated the todo list."}}}],
        "status": status, "timestamp": time, "resultDisplay": {"todos": todos},
        "displayName": "WriteTodos", "description": format!("Set {} todo(s)", todos.len()),
        "renderOutputAsMarkdown": true
    })
    .to_string()
}

/// A `gemini` message holding tool calls (each a JSON object).
fn tool_message(id: &str, time: &str, calls: &[String]) -> String {
    format!(
        r#"{{"id":"{id}","timestamp":"{time}","type":"gemini","content":"","toolCalls":[{}],"thoughts":[],"model":"gemini-2.5-pro"}}"#,
        calls.join(",")
    )
}

#[test]
fn the_newest_write_todos_is_the_sessions_list() {
    use report_model::{Todo, TodoStatus};
    let home = Home::new();
    let first = write_todos_call(
        "write_todos-1",
        "2026-03-02T10:00:03.000Z",
        "success",
        &[("Read the parser", "in_progress"), ("Add the test", "pending")],
    );
    let second = write_todos_call(
        "write_todos-2",
        "2026-03-02T10:05:00.000Z",
        "success",
        &[
            ("Read the parser", "completed"),
            ("Add the test", "in_progress"),
            ("Wire the\nCLI flag", "pending"),
            ("Ask about the API", "blocked"),
            ("Port to Windows", "cancelled"),
        ],
    );
    // A call Gemini CLI refused (only one item may be in progress) set no list.
    let refused = write_todos_call(
        "write_todos-3",
        "2026-03-02T10:06:00.000Z",
        "error",
        &[("a", "in_progress"), ("b", "in_progress")],
    );
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-5e551011.jsonl"),
        lines(&[
            metadata(ID, &"a".repeat(64), "2026-03-02T10:00:00.000Z"),
            user("u1", "2026-03-02T10:00:01.000Z", "Fix the parser"),
            tool_message("g1", "2026-03-02T10:00:02.000Z", std::slice::from_ref(&first)),
            // The message is written again as its later calls finish, all calls merged.
            tool_message("g1", "2026-03-02T10:00:02.000Z", &[first.clone(), second]),
            user("u2", "2026-03-02T10:05:30.000Z", "go on"),
            tool_message("g2", "2026-03-02T10:05:40.000Z", &[refused]),
        ]),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:#?}", output.warnings);
    let found = session(&output, Agent::Gemini, ID);
    let todo = |text: &str, status| Todo { text: text.to_owned(), status };
    assert_eq!(
        found.todos,
        [
            todo("Read the parser", TodoStatus::Completed),
            todo("Add the test", TodoStatus::InProgress),
            todo("Wire the CLI flag", TodoStatus::Pending),
            todo("Port to Windows", TodoStatus::Cancelled),
        ]
    );
    assert_eq!(found.todos_time, Some(ts("2026-03-02T10:05:00Z")));
    assert!(status(&output, Agent::Gemini).unknown.is_empty());
}

#[test]
fn a_rewound_list_is_gone_and_a_cleared_list_is_empty() {
    let home = Home::new();
    let older = write_todos_call(
        "write_todos-1",
        "2026-03-02T10:00:03.000Z",
        "success",
        &[("Keep me", "pending")],
    );
    let rewound = write_todos_call(
        "write_todos-2",
        "2026-03-02T10:01:03.000Z",
        "success",
        &[("Rewound away", "pending")],
    );
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-5e551011.jsonl"),
        lines(&[
            metadata(ID, &"a".repeat(64), "2026-03-02T10:00:00.000Z"),
            user("u1", "2026-03-02T10:00:01.000Z", "Plan it"),
            tool_message("g1", "2026-03-02T10:00:02.000Z", &[older]),
            user("u2", "2026-03-02T10:01:00.000Z", "Plan it differently"),
            tool_message("g2", "2026-03-02T10:01:02.000Z", &[rewound]),
            r#"{"$rewindTo":"u2"}"#.to_owned(),
        ]),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    let found = session(&output, Agent::Gemini, ID);
    assert_eq!(found.todos.len(), 1);
    assert_eq!(found.todos[0].text, "Keep me");
    assert_eq!(found.todos_time, Some(ts("2026-03-02T10:00:03Z")));

    // A legacy `.json` chat (the tool's first name, `write_todos_list`) whose newest call
    // cleared the list: the session's list is empty, and it was written.
    let legacy_id = "5e551011-0000-4000-8000-000000000002";
    let named = |call: String| call.replace("\"write_todos\"", "\"write_todos_list\"");
    let set = named(write_todos_call(
        "write_todos_list-1",
        "2026-03-02T12:00:03.000Z",
        "success",
        &[("Old step", "pending")],
    ));
    let cleared =
        named(write_todos_call("write_todos_list-2", "2026-03-02T12:00:09.000Z", "success", &[]));
    let legacy = format!(
        r#"{{"sessionId":"{legacy_id}","projectHash":"{hash}","startTime":"2026-03-02T12:00:00.000Z","lastUpdated":"2026-03-02T12:00:10.000Z","messages":[{{"id":"u1","timestamp":"2026-03-02T12:00:01.000Z","type":"user","content":"Tidy up"}},{tool}]}}"#,
        hash = "a".repeat(64),
        tool = tool_message("g1", "2026-03-02T12:00:02.000Z", &[set, cleared]),
    );
    home.write(&format!("{CHATS}/session-2026-03-02T12-00-5e551011.json"), legacy);
    let output = home.read(Agent::Gemini, ts(SINCE));
    let found = session(&output, Agent::Gemini, legacy_id);
    assert!(found.todos.is_empty());
    assert_eq!(found.todos_time, Some(ts("2026-03-02T12:00:09Z")));
}

/// The third recorded session (0.61.0, `--approval-mode yolo`, the model named
/// `gemini-2.5-flash`: Gemini CLI offers `write_todos` to Gemini 2 models only) wrote the
/// stand-in's list with `write_todos`, then ran `sh check.sh` through
/// `run_shell_command`, which exited with 3 (`Exit Code: 3` in the tool's output). The
/// first two sessions, asked for no plan, hold no list.
#[test]
fn the_recorded_list_and_failed_command_are_read() {
    let home = Home::new();
    let since = ts("2026-01-01T00:00:00Z");
    home.copy_fixture("agents/gemini/0.61.0/home", "", since);
    let output = home.read(Agent::Gemini, since);
    assert_eq!(output.events.len(), 3);
    assert_eq!(scripted(&output), vec![(recorded_todos(), recorded_failure())]);
    let without: Vec<_> = output.events.iter().filter(|event| event.todos.is_empty()).collect();
    assert_eq!(without.len(), 2);
    assert!(without.iter().all(|event| event.todos_time.is_none()));
}

/// A `run_shell_command` call as `recordToolCalls` writes it (the fields the reader
/// needs, and the output Gemini CLI's shell tool sends back, as 0.61.0 wraps it).
fn shell_call(call: &str, time: &str, status: &str, command: &str, output: &str) -> String {
    serde_json::json!({
        "id": call, "name": "run_shell_command",
        "args": {"command": command, "description": "Run it"},
        "result": [{"functionResponse": {"id": call, "name": "run_shell_command", "response": {"output": format!("<untrusted_context>\n{output}\n</untrusted_context>")}}}],
        "status": status, "timestamp": time, "displayName": "Shell"
    })
    .to_string()
}

/// The shell tool's output names an exit code other than 0 (`Exit Code: N`), an error
/// (`Error: …`) and a signal (`Signal: N`), each on its own line and in that order. A
/// run it reports only a signal or an error for has no known status and is not counted
/// (it neither fails a command nor clears an earlier failure); a code beside a signal is
/// kept; a call that did not run (`cancelled`, `error`) is not a run at all.
#[test]
fn shell_runs_are_counted_as_the_tool_reported_them() {
    let home = Home::new();
    let call = |id: &str, time: &str, status: &str, command: &str, output: &str| {
        tool_message(
            &format!("g{id}"),
            time,
            &[shell_call(&format!("run_shell_command-{id}"), time, status, command, output)],
        )
    };
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-5e551011.jsonl"),
        lines(&[
            metadata(ID, &"a".repeat(64), "2026-03-02T10:00:00.000Z"),
            user("u1", "2026-03-02T10:00:01.000Z", "Run the tests"),
            call(
                "1",
                "2026-03-02T10:00:02.000Z",
                "success",
                "make test",
                "Output: 1 failed\nExit Code: 2\nProcess Group PGID: 41",
            ),
            // Killed: no status, so the failure above stands.
            call(
                "2",
                "2026-03-02T10:00:03.000Z",
                "success",
                "make test",
                "Output: (empty)\nSignal: 15\nProcess Group PGID: 42",
            ),
            // An error of the tool itself, no code: no status either.
            call(
                "3",
                "2026-03-02T10:00:04.000Z",
                "success",
                "make test",
                "Output: (empty)\nError: spawn /bin/bash ENOENT",
            ),
            call(
                "4",
                "2026-03-02T10:00:05.000Z",
                "success",
                "cargo build",
                "Output: error[E0425]\nExit Code: 101\nSignal: 9\nProcess Group PGID: 43",
            ),
            // Refused before it ran: the output a cancelled call carries is not a run.
            call(
                "5",
                "2026-03-02T10:00:06.000Z",
                "cancelled",
                "rm -rf dist",
                "Output: (empty)\nExit Code: 1",
            ),
            call("6", "2026-03-02T10:00:07.000Z", "error", "rm -rf dist", "Exit Code: 1"),
        ]),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:#?}", output.warnings);
    assert_eq!(
        scripted(&output),
        vec![(
            Vec::new(),
            vec![
                // Its failure was not the last command the agent ran.
                ("make test".to_owned(), Some(2), 1, false),
                ("cargo build".to_owned(), Some(101), 1, true),
            ]
        )]
    );
}

/// An empty `displayContent` shows nothing in its place: the message's `content` is what
/// was typed.
#[test]
fn an_empty_display_content_leaves_the_typed_text() {
    let home = Home::new();
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-5e551011.jsonl"),
        lines(&[
            metadata(ID, &"a".repeat(64), "2026-03-02T10:00:00.000Z"),
            r#"{"id":"u1","timestamp":"2026-03-02T10:00:01.000Z","type":"user","content":[{"text":"Bump the version"}],"displayContent":[]}"#.to_owned(),
        ]),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    let found = session(&output, Agent::Gemini, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:01Z"]));
    assert_eq!(found.title, "Bump the version");
}

/// Of two chats of one session with a summary each, the title is the summary of the chat
/// whose last message is newest, not of the chat listed last.
#[test]
fn the_title_is_the_summary_of_the_chat_that_ended_last() {
    let home = Home::new();
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-5e551011.jsonl"),
        lines(&[
            metadata(ID, &"a".repeat(64), "2026-03-02T10:00:00.000Z"),
            user("u1", "2026-03-02T10:00:01.000Z", "Start the migration"),
            // Resumed into the same file in the evening.
            user("u2", "2026-03-02T18:00:00.000Z", "Finish the migration"),
            r#"{"$set":{"summary":"Database migration, finished"}}"#.to_owned(),
        ]),
    );
    home.write(
        &format!("{CHATS}/session-2026-03-02T15-00-5e551011.jsonl"),
        lines(&[
            metadata(ID, &"a".repeat(64), "2026-03-02T15:00:00.000Z"),
            user("u3", "2026-03-02T15:00:01.000Z", "Check the staging table"),
            r#"{"$set":{"summary":"Staging table check"}}"#.to_owned(),
        ]),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    let found = session(&output, Agent::Gemini, ID);
    assert_eq!(found.prompts.len(), 3);
    assert_eq!(found.title, "Database migration, finished");
}

/// Legacy `.json` chats (before `kind`): a chat of the session's id that began after the
/// session's first chat is a sub-agent's, whichever is listed first, and the first chat
/// begins at its `startTime` while it holds no message; two that began at the same time
/// are both the session's own.
#[test]
fn legacy_sub_agent_siblings_are_told_by_when_they_began() {
    let legacy = |start: &str, messages: &str| {
        format!(
            r#"{{"sessionId":"{ID}","projectHash":"{hash}","startTime":"{start}","lastUpdated":"{start}","messages":[{messages}]}}"#,
            hash = "a".repeat(64)
        )
    };
    let message = |id: &str, time: &str, text: &str| {
        format!(r#"{{"id":"{id}","timestamp":"{time}","type":"user","content":"{text}"}}"#)
    };
    // The sub-agent's chat is listed before its parent's (same minute, its name's hex
    // sorts first).
    let home = Home::new();
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-0a0a0a0a.json"),
        legacy(
            "2026-03-02T10:00:40.000Z",
            &message("s1", "2026-03-02T10:00:40.000Z", "Investigate the parser"),
        ),
    );
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-5e551011.json"),
        legacy(
            "2026-03-02T10:00:00.000Z",
            &message("u1", "2026-03-02T10:00:01.000Z", "Fix the parser"),
        ),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    let found = session(&output, Agent::Gemini, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:01Z"]));
    assert_eq!(found.activity.len(), 2);

    // The parent's chat holds no message yet: it began at its `startTime`.
    let home = Home::new();
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-0a0a0a0a.json"),
        legacy("2026-03-02T10:00:00.000Z", ""),
    );
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-5e551011.json"),
        legacy(
            "2026-03-02T10:00:40.000Z",
            &message("s1", "2026-03-02T10:00:40.000Z", "Investigate the parser"),
        ),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    let found = session(&output, Agent::Gemini, ID);
    assert!(found.prompts.is_empty(), "{:?}", found.prompts);
    assert_eq!(found.activity, times(&["2026-03-02T10:00:40Z"]));

    // Begun at the same time: neither is the other's sub-agent.
    let home = Home::new();
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-0a0a0a0a.json"),
        legacy(
            "2026-03-02T10:00:00.000Z",
            &[
                message("u1", "2026-03-02T10:00:00.000Z", "Fix the parser"),
                message("u3", "2026-03-02T10:00:30.000Z", "And its tests"),
            ]
            .join(","),
        ),
    );
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-5e551011.json"),
        legacy(
            "2026-03-02T10:00:00.000Z",
            &[
                message("u2", "2026-03-02T10:00:00.000Z", "Fix the lexer"),
                message("u4", "2026-03-02T10:00:20.000Z", "And its docs"),
            ]
            .join(","),
        ),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    let found = session(&output, Agent::Gemini, ID);
    assert_eq!(
        found.prompts,
        times(&["2026-03-02T10:00:00Z", "2026-03-02T10:00:20Z", "2026-03-02T10:00:30Z"])
    );
}

/// Only `.json` and `.jsonl` files of a sub-agent folder are chats: another file, or a
/// folder named like a chat, is neither counted nor read.
#[test]
fn a_sub_agent_folder_s_other_entries_are_not_chats() {
    let home = Home::new();
    one_prompt_chat(&home);
    home.write(&format!("{CHATS}/{ID}/notes.txt"), "not json\n");
    home.write(&format!("{CHATS}/{ID}/folder.jsonl/inner.jsonl"), "not json\n");
    subagent_jsonl_chat(&home);
    let output = home.read(Agent::Gemini, ts(SINCE));
    assert!(output.warnings.is_empty(), "{:#?}", output.warnings);
    let found = session(&output, Agent::Gemini, ID);
    assert_eq!(found.activity.len(), 4);
    let gemini = status(&output, Agent::Gemini);
    assert_eq!(gemini.files, 2);
    assert!(gemini.limits.is_empty(), "{:?}", gemini.limits);
}

/// The roots other folders name are read to find a hash-named folder's working directory
/// only when one of its chats has a message in the window: a chat written in the window
/// with older messages only (a summary added on the next start) opens nothing more.
#[test]
fn a_hash_named_folder_is_resolved_only_for_a_chat_active_in_the_window() {
    let home = Home::new();
    let hash = "c".repeat(64);
    home.write(
        &format!(".gemini/tmp/{hash}/chats/session-2026-02-20T10-00-5e551011.jsonl"),
        lines(&[
            metadata(ID, &hash, "2026-02-20T10:00:00.000Z"),
            user("u1", "2026-02-20T10:00:01.000Z", "Old question"),
            r#"{"$set":{"summary":"Old question","lastUpdated":"2026-03-02T09:00:00.000Z"}}"#
                .to_owned(),
        ]),
    );
    // Another folder's `.project_root` that cannot be read: a FIFO.
    let root = home.path().join(".gemini/tmp/other");
    fs_err::create_dir_all(&root).expect("folder");
    let _fifo = Fifo::make(&root.join(".project_root"));
    let output = home.read(Agent::Gemini, ts(SINCE));
    assert!(output.events.is_empty(), "{:#?}", output.events);
    assert!(output.warnings.is_empty(), "{:#?}", output.warnings);

    // Once a message is in the window, the folders are read, and the FIFO is named.
    home.write(
        &format!(".gemini/tmp/{hash}/chats/session-2026-03-02T10-00-5e551011.jsonl"),
        lines(&[
            metadata(ID, &hash, "2026-03-02T10:00:00.000Z"),
            user("u2", "2026-03-02T10:00:01.000Z", "New question"),
        ]),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    assert_eq!(output.events.len(), 1);
    assert_eq!(output.warnings.len(), 1, "{:#?}", output.warnings);
    assert!(en(&output.warnings[0]).contains(".project_root"), "{}", en(&output.warnings[0]));
}

/// A session Gemini CLI 0.61.0 started from another one's chat with `--session-file`
/// (`fixtures/gemini-fork/0.61.0/`, by its `record.sh`): the new chat's metadata, then
/// the other chat's messages copied, ids and times kept, then its own. The copied prompt
/// is counted once, in the session it was typed in, and is not the new one's title.
#[test]
fn gemini_a_fork_by_session_file_does_not_count_the_other_chat_s_copies() {
    let (original, started) =
        ("cc227dae-1745-4a7d-87ea-97dc7eeeffe1", "0b3d46e7-a2d9-443c-9110-0e89bad2851b");
    let home = Home::new();
    home.copy_fixture("gemini-fork/0.61.0/home", "", ts("2026-12-06T15:14:00Z"));
    let output = home.read(Agent::Gemini, ts("2026-12-06T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let original = session(&output, Agent::Gemini, original);
    assert_eq!(original.prompts, times(&["2026-12-06T15:12:55.657Z"]));
    let started = session(&output, Agent::Gemini, started);
    assert_eq!(started.prompts, times(&["2026-12-06T15:13:02.095Z", "2026-12-06T15:13:09.698Z"]));
    let made = ts("2026-12-06T15:13:01.632Z");
    assert!(started.activity.iter().all(|time| *time >= made), "{:?}", started.activity);
    assert_eq!(started.title, "second prompt");
}

/// `/chat save` in one session and `/chat resume` in another (Gemini CLI 0.61.0,
/// `fixtures/gemini-fork/chat-resume-0.61.0/`, by `record-chat-resume.sh`): the loaded
/// turns are recorded again in the second chat, new ids and times, and the messages then
/// set to them alone. They are the first session's prompt, not the second's; the prompts
/// typed in the second before the load still count.
#[test]
fn gemini_a_fork_by_chat_resume_is_not_counted_and_keeps_what_was_typed_before() {
    let (saved, resumed) =
        ("f9c69835-30be-402f-9a26-b499074c7c5d", "150b63cd-fd89-486e-8bca-3d0df39c7dc0");
    let home = Home::new();
    home.copy_fixture("gemini-fork/chat-resume-0.61.0/home", "", ts("2026-12-06T15:14:00Z"));
    let output = home.read(Agent::Gemini, ts("2026-12-06T00:00:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(
        session(&output, Agent::Gemini, saved).prompts,
        times(&["2026-12-06T15:13:27.856Z"])
    );
    let resumed = session(&output, Agent::Gemini, resumed);
    assert_eq!(
        resumed.prompts,
        times(&[
            "2026-12-06T15:13:41.620Z",
            "2026-12-06T15:13:44.173Z",
            "2026-12-06T15:13:49.246Z"
        ])
    );
    assert_eq!(resumed.title, "beta prompt");
}

/// A `$set` `messages` list that keeps older messages and drops the last one (Gemini CLI's
/// rollback after a cancelled prompt) is no history load, even though every id in it was
/// kept before: the chat is rebuilt from it as before, the dropped prompt with it. Nor is
/// a list of the only messages so far (nothing kept before them would be dropped).
#[test]
fn gemini_a_rollback_or_a_first_set_is_not_taken_for_a_loaded_checkpoint() {
    let home = Home::new();
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-5e551011.jsonl"),
        lines(&[
            metadata(ID, &"a".repeat(64), "2026-03-02T10:00:00.000Z"),
            user("u1", "2026-03-02T10:00:01.000Z", "Refactor the parser"),
            reply("g1", "2026-03-02T10:00:02.000Z", "Done."),
            r#"{"$set":{"messages":[{"id":"u1","timestamp":"2026-03-02T10:00:01.000Z","type":"user","content":[{"text":"Refactor the parser"}]},{"id":"g1","timestamp":"2026-03-02T10:00:02.000Z","type":"gemini","content":"Done."}]}}"#.to_owned(),
            user("u2", "2026-03-02T10:05:00.000Z", "Now the tests"),
            r#"{"$set":{"messages":[{"id":"u1","timestamp":"2026-03-02T10:00:01.000Z","type":"user","content":[{"text":"Refactor the parser"}]},{"id":"g1","timestamp":"2026-03-02T10:00:02.000Z","type":"gemini","content":"Done."}]}}"#.to_owned(),
        ]),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    let found = session(&output, Agent::Gemini, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:01Z"]));
    assert_eq!(found.title, "Refactor the parser");
}

/// A message written again with the same id (rewritten in place, as a reply is while its
/// tool calls finish) keeps its first place among the own-line messages: a loaded turn
/// rewritten before the `$set` that loads it is still told as a copy.
#[test]
fn gemini_a_loaded_turn_rewritten_in_place_is_still_a_copy() {
    let set = |ids: &[(&str, &str)]| {
        let list: Vec<String> = ids
            .iter()
            .map(|(id, kind)| format!(r#"{{"id":"{id}","timestamp":"2026-03-02T10:10:00.000Z","type":"{kind}","content":[{{"text":"x"}}]}}"#))
            .collect();
        format!(r#"{{"$set":{{"messages":[{}]}}}}"#, list.join(","))
    };
    let home = Home::new();
    home.write(
        &format!("{CHATS}/session-2026-03-02T10-00-5e551011.jsonl"),
        lines(&[
            metadata(ID, &"a".repeat(64), "2026-03-02T10:00:00.000Z"),
            user("u1", "2026-03-02T10:00:01.000Z", "Refactor the parser"),
            reply("g1", "2026-03-02T10:00:02.000Z", "Done."),
            user("c1", "2026-03-02T10:10:00.000Z", "Plan the release"),
            reply("c2", "2026-03-02T10:10:00.000Z", "A plan."),
            reply("c2", "2026-03-02T10:10:00.000Z", "A plan."),
            set(&[("c1", "user"), ("c2", "gemini")]),
            user("u2", "2026-03-02T10:11:00.000Z", "Now the tests"),
        ]),
    );
    let output = home.read(Agent::Gemini, ts(SINCE));
    let found = session(&output, Agent::Gemini, ID);
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:01Z", "2026-03-02T10:11:00Z"]));
}

/// A message, a checkpoint's message or a chat's start whose time is no time: one
/// warning naming the file and the field, and the rest of the chat read.
#[test]
fn gemini_times_that_are_no_times_are_warned_in_lines_checkpoints_and_legacy_chats() {
    let jsonl = format!("{CHATS}/session-2026-03-02T10-00-5e551011.jsonl");
    let read = |chat: &[String]| {
        let home = Home::new();
        let path = home.write(&jsonl, lines(chat));
        let output = home.read(Agent::Gemini, ts(SINCE));
        (output, path)
    };
    let start = metadata(ID, &"a".repeat(64), "2026-03-02T10:00:00.000Z");
    // A typed message: skipped from the prompts, named.
    let (output, path) = read(&[
        start.clone(),
        user("u1", "yesterday", "Refactor the parser"),
        user("u2", "2026-03-02T11:00:05.000Z", "Add tests"),
    ]);
    assert_unreadable_times(&output, &path, "timestamp", 1);
    assert_eq!(session(&output, Agent::Gemini, ID).prompts, times(&["2026-03-02T11:00:05Z"]));
    // A checkpoint's message.
    let (output, path) = read(&[
        start.clone(),
        user("u1", "2026-03-02T10:00:01.000Z", "Refactor the parser"),
        r#"{"$set":{"messages":[{"id":"s1","timestamp":"soon","type":"user","content":[{"text":"summary"}]},{"id":"u1","timestamp":"2026-03-02T10:00:01.000Z","type":"user","content":[{"text":"Refactor the parser"}]}]}}"#.to_owned(),
    ]);
    assert_unreadable_times(&output, &path, "timestamp", 1);
    assert_eq!(session(&output, Agent::Gemini, ID).prompts, times(&["2026-03-02T10:00:01Z"]));
    // The chat's start.
    let (output, path) = read(&[
        start.replace("2026-03-02T10:00:00.000Z\",\"lastUpdated", "then\",\"lastUpdated"),
        user("u1", "2026-03-02T10:00:01.000Z", "Refactor the parser"),
    ]);
    assert_unreadable_times(&output, &path, "startTime", 1);
    assert_eq!(session(&output, Agent::Gemini, ID).prompts, times(&["2026-03-02T10:00:01Z"]));
    // A legacy chat's message.
    let home = Home::new();
    let legacy = format!(
        r#"{{"sessionId":"{ID}","startTime":"2026-03-02T10:00:00.000Z","messages":[{{"id":"u1","timestamp":"nope","type":"user","content":"Why is CI red?"}},{{"id":"u2","timestamp":"2026-03-02T10:00:03.000Z","type":"user","content":"Fix it"}}]}}"#
    );
    let path = home.write(&format!("{CHATS}/session-2026-03-02T10-00-5e551011.json"), legacy);
    let output = home.read(Agent::Gemini, ts(SINCE));
    assert_unreadable_times(&output, &path, "timestamp", 1);
    assert_eq!(session(&output, Agent::Gemini, ID).prompts, times(&["2026-03-02T10:00:03Z"]));
}
