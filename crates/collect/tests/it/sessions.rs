//! AI coding-agent session readers, over the fixture home in `fixtures/sessions/home`
//! (copied to a temp dir per test) and over small logs written by the tests.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use collect::sessions::{SessionsConfig, read_sessions};
use collect::{Env, SourceOutput};
use jiff::Timestamp;
use jiff::tz::TimeZone;
use report_model::{Agent, SessionEvent, Source, Warning, WarningDetail};

use crate::support::en;

use crate::support;

const APP: &str = "/home/dev/work/my_app v2.0";
const APP_FOLDER: &str = ".claude/projects/-home-dev-work-my-app-v2-0";
const CLAUDE_1: &str = "aaaaaaaa-0000-4000-8000-000000000001";
const CLAUDE_2: &str = "aaaaaaaa-0000-4000-8000-000000000002";
const CLAUDE_3: &str = "aaaaaaaa-0000-4000-8000-000000000003";
/// A session from the VS Code extension (`-home-dev-work-ledger`).
const CLAUDE_IDE: &str = "ffffffff-0000-4000-8000-000000000006";
const CODEX_1: &str = "11111111-1111-4111-8111-111111111111";
const CODEX_2: &str = "22222222-2222-4222-8222-222222222222";
const CODEX_3: &str = "33333333-3333-4333-8333-333333333333";

/// A temp home holding a copy of the fixture home.
struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn fixture() -> Home {
        let home = Home::empty();
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/sessions/home");
        copy_tree(&source, home.path());
        home
    }

    fn empty() -> Home {
        Home { dir: tempfile::tempdir().expect("temp dir") }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn env(&self) -> Env {
        Env::new(self.path())
    }

    fn read(&self) -> SourceOutput<SessionEvent> {
        read_sessions(&self.env(), &SessionsConfig::default(), since())
    }

    /// Moves the folder at `relative` out to `~/archive` and puts a symbolic link to it
    /// in its place.
    fn move_and_link_back(&self, relative: &str) {
        let folder = self.path().join(relative);
        let moved = self.path().join("archive").join(relative);
        fs_err::create_dir_all(moved.parent().expect("parent")).expect("create archive");
        fs_err::rename(&folder, &moved).expect("move the folder");
        std::os::unix::fs::symlink(&moved, &folder).expect("link the folder back");
    }

    /// Writes a file (creating its folders) under the home.
    fn write(&self, relative: &str, content: &[u8]) -> PathBuf {
        let path = self.path().join(relative);
        fs_err::create_dir_all(path.parent().expect("file has a parent")).expect("create folders");
        fs_err::write(&path, content).expect("write file");
        path
    }
}

fn copy_tree(source: &Path, target: &Path) {
    fs_err::create_dir_all(target).expect("create target");
    for entry in fs_err::read_dir(source).expect("read fixture folder") {
        let entry = entry.expect("fixture entry");
        let to = target.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_tree(&entry.path(), &to);
        } else {
            fs_err::copy(entry.path(), &to).expect("copy fixture file");
            // A fixed time after `since`, so that the tests do not depend on the clock.
            set_mtime(&to, SystemTime::UNIX_EPOCH + Duration::from_secs(1_772_582_400)); // 2026-03-04
        }
    }
}

/// The start of the earliest report window in every test.
fn since() -> Timestamp {
    ts("2026-03-02T00:00:00Z")
}

fn ts(text: &str) -> Timestamp {
    text.parse().expect("test timestamp")
}

fn times(texts: &[&str]) -> Vec<Timestamp> {
    texts.iter().map(|text| ts(text)).collect()
}

fn ids(output: &SourceOutput<SessionEvent>) -> Vec<(Agent, String)> {
    output.events.iter().map(|event| (event.agent, event.session_id.clone())).collect()
}

/// Sets a file's modification time far before `since`.
fn make_old(path: &Path) {
    set_mtime(path, SystemTime::UNIX_EPOCH + Duration::from_secs(1_577_836_800)); // 2020-01-01
}

fn set_mtime(path: &Path, time: SystemTime) {
    let file = fs_err::File::options().write(true).open(path).expect("open to set time");
    file.set_modified(time).expect("set modification time");
}

/// The whole output as plain data, with the temp home shown as `[HOME]`.
fn to_value(output: &SourceOutput<SessionEvent>, home: &Path) -> serde_json::Value {
    let statuses: Vec<serde_json::Value> = output
        .statuses
        .iter()
        .map(|status| {
            serde_json::json!({
                "source": status.source,
                "found": status.found,
                "locations": status.locations,
                "files": status.files,
                "entries": status.entries,
                "limits": status.limits,
            })
        })
        .collect();
    let value = serde_json::json!({
        "events": output.events,
        "warnings": output.warnings.iter().map(|warning| serde_json::json!({
            "code": warning.code(),
            "message": en(warning),
            "detail": warning.detail,
        })).collect::<Vec<_>>(),
        "statuses": statuses,
    });
    let text = serde_json::to_string(&value).expect("serialize output");
    let home_text = serde_json::to_string(&home.display().to_string()).expect("serialize home");
    let home_text = &home_text[1..home_text.len() - 1];
    serde_json::from_str(&text.replace(home_text, "[HOME]")).expect("reparse output")
}

#[test]
fn fixture_home_snapshot() {
    let home = Home::fixture();
    let output = home.read();
    insta::assert_yaml_snapshot!("sessions_fixture_home", to_value(&output, home.path()));
}

#[test]
fn fixture_home_gives_the_expected_sessions_in_order() {
    let output = Home::fixture().read();
    let expected = [
        (Agent::ClaudeCode, CLAUDE_1),
        (Agent::ClaudeCode, CLAUDE_2),
        (Agent::ClaudeCode, CLAUDE_3),
        (Agent::ClaudeCode, "cccccccc-0000-4000-8000-000000000001"),
        (Agent::ClaudeCode, "dddddddd-0000-4000-8000-000000000004"),
        (Agent::ClaudeCode, CLAUDE_IDE),
        (Agent::ClaudeCode, "history:2026-03-02:/home/dev/notes"),
        (Agent::Codex, CODEX_1),
        (Agent::Codex, CODEX_2),
        (Agent::Codex, CODEX_3),
        (Agent::Gemini, "aaaa1111-0000-4000-8000-000000000001"),
        (Agent::Gemini, "bbbb2222-0000-4000-8000-000000000002"),
        (Agent::Gemini, "cccc3333-0000-4000-8000-000000000003"),
    ];
    let expected: Vec<(Agent, String)> =
        expected.iter().map(|(agent, id)| (*agent, (*id).to_owned())).collect();
    assert_eq!(ids(&output), expected);
    assert!(output.events.iter().all(|event| event.project.is_none()));
    // The same files give the same output.
    let home = Home::fixture();
    assert_eq!(to_value(&home.read(), home.path()), to_value(&home.read(), home.path()));
}

#[test]
fn claude_ide_session_is_titled_and_counted_by_what_was_typed() {
    let output = Home::fixture().read();
    let session = support::session(&output, Agent::ClaudeCode, CLAUDE_IDE);
    // The first record's first block is `<ide_opened_file>`: the title is the typed text.
    assert_eq!(session.title, "Why does the CSV parser drop the last row?");
    // Typed text after `<ide_opened_file>`, after `<ide_selection>` (with a hook's
    // `<system-reminder>` after it), after `<ide_diagnostics>`. A record holding only a
    // `<system-reminder>`, an interruption, a `<task-notification>`, an `isMeta` caveat
    // and a `/model` command with its output are not prompts.
    assert_eq!(
        session.prompts,
        times(&["2026-03-02T05:00:00Z", "2026-03-02T05:01:00Z", "2026-03-02T05:04:00Z"])
    );
    assert_eq!(session.activity.len(), 13);
}

#[test]
fn claude_and_codex_sessions_keep_their_models() {
    let output = Home::fixture().read();
    // Two models in the order first used; Claude Code's `<synthetic>` stand-in is not one.
    assert_eq!(
        support::session(&output, Agent::ClaudeCode, CLAUDE_IDE).models,
        ["claude-opus-4-5-20251101", "claude-sonnet-4-5-20250929"]
    );
    assert_eq!(
        support::session(&output, Agent::ClaudeCode, CLAUDE_1).models,
        ["claude-sonnet-4-5"]
    );
    // Codex: `turn_context.model`; Gemini: its replies' `model`.
    assert_eq!(support::session(&output, Agent::Codex, CODEX_1).models, ["gpt-5-codex"]);
    assert_eq!(
        support::session(&output, Agent::Gemini, "aaaa1111-0000-4000-8000-000000000001").models,
        ["gemini-2.5-pro"]
    );
    // History-only sessions have no replies, so no model.
    assert!(
        support::session(&output, Agent::ClaudeCode, "history:2026-03-02:/home/dev/notes")
            .models
            .is_empty()
    );
}

#[test]
fn claude_session_crossing_local_midnight_keeps_prompts_on_both_sides() {
    let output = Home::fixture().read();
    let session = support::session(&output, Agent::ClaudeCode, CLAUDE_1);
    assert_eq!(session.prompts, times(&["2026-03-02T14:50:00Z", "2026-03-02T15:10:00Z"]));
    // Local midnight in Tokyo is 15:00 UTC: one prompt on each local day.
    let tokyo = TimeZone::get("Asia/Tokyo").expect("bundled time zone");
    let days: Vec<String> = session
        .prompts
        .iter()
        .map(|time| time.to_zoned(tokyo.clone()).date().to_string())
        .collect();
    assert_eq!(days, ["2026-03-02", "2026-03-03"]);
}

#[test]
fn claude_meta_command_tool_result_and_sidechain_records_are_activity_not_prompts() {
    let output = Home::fixture().read();
    let session = support::session(&output, Agent::ClaudeCode, CLAUDE_1);
    assert_eq!(
        session.activity,
        times(&[
            "2026-03-02T14:49:00Z", // isMeta caveat
            "2026-03-02T14:49:01Z", // <command-name>
            "2026-03-02T14:49:02Z", // <local-command-stdout>
            "2026-03-02T14:50:00Z",
            "2026-03-02T14:50:05Z", // one reply on two lines sharing message.id
            "2026-03-02T14:50:06Z",
            "2026-03-02T14:50:07Z", // tool result
            "2026-03-02T14:50:10Z",
            "2026-03-02T14:52:00Z", // sub-agent log
            "2026-03-02T14:53:00Z",
            "2026-03-02T15:10:00Z",
            "2026-03-02T15:10:30Z",
            "2026-03-02T15:10:31Z", // system turn_duration
        ])
    );
    assert_eq!(session.prompts.len(), 2);
}

#[test]
fn claude_subagent_log_is_part_of_its_parent_session() {
    let output = Home::fixture().read();
    let claude_ids: Vec<&str> = output
        .events
        .iter()
        .filter(|event| event.agent == Agent::ClaudeCode)
        .map(|event| event.session_id.as_str())
        .collect();
    assert!(!claude_ids.iter().any(|id| id.contains("agent-")), "{claude_ids:?}");
    let session = support::session(&output, Agent::ClaudeCode, CLAUDE_1);
    assert!(session.activity.contains(&ts("2026-03-02T14:52:00Z")));
    assert!(!session.prompts.contains(&ts("2026-03-02T14:52:00Z")));
}

#[test]
fn claude_titles_follow_custom_then_ai_then_summary() {
    let output = Home::fixture().read();
    // Several ai-title and custom-title records: the last custom-title wins.
    assert_eq!(
        support::session(&output, Agent::ClaudeCode, CLAUDE_2).title,
        "Release checklist v2"
    );
    // Only ai-title records: the last one.
    assert_eq!(
        support::session(&output, Agent::ClaudeCode, CLAUDE_1).title,
        "Retry loop for the upload client"
    );
    // A legacy summary in session 2's file, whose leafUuid is a record of session 3.
    assert_eq!(
        support::session(&output, Agent::ClaudeCode, CLAUDE_3).title,
        "Investigate the flaky upload test"
    );
    // No title record: the first prompt.
    assert_eq!(
        support::session(&output, Agent::ClaudeCode, "dddddddd-0000-4000-8000-000000000004").title,
        "Tidy my zshrc"
    );
}

#[test]
fn claude_cwd_comes_from_the_records_not_the_folder_name() {
    let output = Home::fixture().read();
    assert_eq!(
        support::session(&output, Agent::ClaudeCode, CLAUDE_1).cwd.as_deref(),
        Some(Path::new(APP))
    );
    // The last directory a record names.
    assert_eq!(
        support::session(&output, Agent::ClaudeCode, CLAUDE_2).cwd,
        Some(PathBuf::from(APP).join("server"))
    );
}

#[test]
fn claude_records_before_since_are_not_counted_but_still_title() {
    let output = Home::fixture().read();
    let session = support::session(&output, Agent::ClaudeCode, CLAUDE_2);
    assert_eq!(session.prompts, times(&["2026-03-02T09:00:00Z"]));
    assert_eq!(session.activity, times(&["2026-03-02T09:00:00Z", "2026-03-02T09:00:20Z"]));
    // `[Request interrupted by user]` is not a prompt.
    assert_eq!(
        support::session(&output, Agent::ClaudeCode, CLAUDE_3).prompts,
        times(&["2026-03-02T11:00:00Z"])
    );
}

#[test]
fn invalid_utf8_line_is_one_warning_and_a_cut_last_line_is_not_an_error() {
    let home = Home::fixture();
    let output = home.read();
    let path = home.path().join(APP_FOLDER).join(format!("{CLAUDE_2}.jsonl"));
    assert_eq!(
        output.warnings,
        [Warning::new(WarningDetail::MalformedLines {
            path: path.display().to_string(),
            count: 1,
            line: 8
        })]
    );
}

#[test]
fn claude_first_prompt_title_skips_meta_and_command_lines_and_is_shortened() {
    let home = Home::empty();
    let session = "12345678-0000-4000-8000-000000000000";
    let long = "Please   look at the\nimport pipeline because the nightly job keeps timing out on the largest customer accounts";
    let lines = [
        format!(
            r#"{{"type":"user","isMeta":true,"message":{{"role":"user","content":"Caveat: generated by local commands"}},"sessionId":"{session}","cwd":"/w","timestamp":"2026-03-02T10:00:00Z","uuid":"u1"}}"#
        ),
        format!(
            r#"{{"type":"user","message":{{"role":"user","content":"<command-name>/model</command-name>"}},"sessionId":"{session}","cwd":"/w","timestamp":"2026-03-02T10:00:01Z","uuid":"u2"}}"#
        ),
        format!(
            r#"{{"type":"user","message":{{"role":"user","content":"<local-command-stdout>Set model</local-command-stdout>"}},"sessionId":"{session}","cwd":"/w","timestamp":"2026-03-02T10:00:02Z","uuid":"u3"}}"#
        ),
        format!(
            r#"{{"type":"user","message":{{"role":"user","content":{}}},"sessionId":"{session}","cwd":"/w","timestamp":"2026-03-02T10:00:03Z","uuid":"u4"}}"#,
            serde_json::to_string(long).expect("json string")
        ),
    ];
    home.write(
        &format!(".claude/projects/-w/{session}.jsonl"),
        (lines.join("\n") + "\n").as_bytes(),
    );
    let output = home.read();
    let found = support::session(&output, Agent::ClaudeCode, session);
    // The reader keeps the whole prompt (whitespace collapsed); the pipeline shortens it
    // after redaction, so a secret is never cut before it is masked.
    assert_eq!(
        found.title,
        "Please look at the import pipeline because the nightly job keeps timing out on the largest customer accounts"
    );
    assert!(!found.truncated);
    assert_eq!(
        collect::sessions::shorten_title(&found.title),
        (
            "Please look at the import pipeline because the nightly job keeps timing out on…"
                .to_owned(),
            true
        )
    );
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:03Z"]));
}

#[test]
fn claude_history_covers_days_whose_transcripts_are_gone() {
    let output = Home::fixture().read();
    let scratch =
        support::session(&output, Agent::ClaudeCode, "cccccccc-0000-4000-8000-000000000001");
    assert_eq!(scratch.title, "[Pasted text #1 +3 lines] summarize this stack trace");
    assert_eq!(scratch.cwd.as_deref(), Some(Path::new("/home/dev/scratch")));
    // `/clear` is a command, not a prompt.
    assert_eq!(scratch.prompts, times(&["2026-03-02T09:00:00Z", "2026-03-02T09:02:00Z"]));
    assert_eq!(scratch.activity, scratch.prompts);
    let notes = support::session(&output, Agent::ClaudeCode, "history:2026-03-02:/home/dev/notes");
    assert_eq!(notes.title, "write the weekly notes");
    assert_eq!(notes.prompts, times(&["2026-03-02T10:00:00Z"]));
    // Entries of sessions that have a transcript, or (without a session id) of a working
    // directory that a transcript covers that day, are not counted again.
    let session = support::session(&output, Agent::ClaudeCode, CLAUDE_1);
    assert!(!session.prompts.contains(&ts("2026-03-02T14:55:00Z")));
    assert!(output.events.iter().all(|event| !event.session_id.contains(APP)));
    // Pasted contents are never read.
    let all = serde_json::to_string(&output.events).expect("serialize events");
    assert!(!all.contains("PASTED-CONTENT"));
    let status = &output.statuses[0];
    assert_eq!(
        status.limits[0],
        "transcripts are deleted after 45 days (`cleanupPeriodDays`): prompts on 2 days up to 2026-03-02 are only in `history.jsonl` (prompt counts, no replies)"
    );
}

#[test]
fn claude_config_dir_takes_a_comma_separated_list_of_roots() {
    let home = Home::fixture();
    let roots = format!(
        "{}, {}",
        home.path().join(".claude").display(),
        home.path().join("claude-alt").display()
    );
    let env = home.env().with_var("CLAUDE_CONFIG_DIR", roots);
    let output = read_sessions(&env, &SessionsConfig::default(), since());
    let claude: Vec<&str> = output
        .events
        .iter()
        .filter(|event| event.agent == Agent::ClaudeCode)
        .map(|event| event.session_id.as_str())
        .collect();
    assert!(claude.contains(&CLAUDE_1));
    assert!(claude.contains(&"eeeeeeee-0000-4000-8000-000000000005"));
    // `~/.config/claude` is not read when `CLAUDE_CONFIG_DIR` is set.
    assert!(!claude.contains(&"dddddddd-0000-4000-8000-000000000004"));
    assert_eq!(
        output.statuses[0].locations,
        [home.path().join(".claude"), home.path().join("claude-alt")]
    );
    let alt = support::session(&output, Agent::ClaudeCode, "eeeeeeee-0000-4000-8000-000000000005");
    assert_eq!(alt.cwd.as_deref(), Some(Path::new("/srv/api")));
}

#[test]
fn files_unchanged_since_the_window_began_are_not_opened() {
    let home = Home::fixture();
    let junk = b"this is not JSON at all\n\xff\xfe\n";
    let planted = [
        home.write(&format!("{APP_FOLDER}/99999999-0000-4000-8000-000000000099.jsonl"), junk),
        home.write(".codex/sessions/2026/03/02/rollout-2026-03-02T09-00-00-99999999-9999-4999-8999-000000000099.jsonl", junk),
        home.write(".gemini/tmp/gemini-proj/chats/session-2026-03-02T09-00-99999999.jsonl", junk),
        home.write(".gemini/tmp/gemini-proj/chats/session-2026-03-02T09-00-99999998.json", junk),
    ];
    for path in &planted {
        make_old(path);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs_err::set_permissions(path, std::fs::Permissions::from_mode(0o000))
                .expect("chmod 000");
        }
    }
    let output = home.read();
    let baseline = Home::fixture().read();
    assert_eq!(output.events, baseline.events);
    assert_eq!(output.warnings.len(), 1, "{:#?}", output.warnings);
    assert!(!en(&output.warnings[0]).contains("99999"));
    // They are still counted as files for `standup doctor`.
    assert_eq!(output.statuses[0].files, baseline.statuses[0].files + 1);
    assert_eq!(output.statuses[1].files, baseline.statuses[1].files + 1);
    assert_eq!(output.statuses[2].files, baseline.statuses[2].files + 2);
}

#[test]
fn codex_places_events_by_utc_timestamps_not_local_folder_dates() {
    let output = Home::fixture().read();
    // The file lives in sessions/2026/03/03 (local time, UTC+9); its records are on
    // 2026-03-02 UTC.
    let session = support::session(&output, Agent::Codex, CODEX_1);
    assert_eq!(session.prompts, times(&["2026-03-02T23:30:01.100Z", "2026-03-02T23:40:00.100Z"]));
    assert_eq!(session.activity.first(), Some(&ts("2026-03-02T23:30:00Z")));
    assert_eq!(session.activity.last(), Some(&ts("2026-03-02T23:41:00Z")));
    assert_eq!(session.activity.len(), 13);
}

#[test]
fn claude_project_folders_reached_through_a_link_are_read() {
    let home = Home::fixture();
    home.move_and_link_back(APP_FOLDER);
    let output = home.read();
    let baseline = Home::fixture().read();
    for session in [CLAUDE_1, CLAUDE_2, CLAUDE_3] {
        assert_eq!(
            support::session(&output, Agent::ClaudeCode, session),
            support::session(&baseline, Agent::ClaudeCode, session)
        );
    }
    assert_eq!(output.statuses[0].files, baseline.statuses[0].files);
}

#[test]
fn codex_day_folders_reached_through_a_link_are_read() {
    let home = Home::fixture();
    home.move_and_link_back(".codex/sessions/2026/03/03");
    let output = home.read();
    let baseline = Home::fixture().read();
    assert_eq!(
        support::session(&output, Agent::Codex, CODEX_1),
        support::session(&baseline, Agent::Codex, CODEX_1)
    );
    assert_eq!(output.statuses[1].files, baseline.statuses[1].files);
    assert_eq!(output.warnings.len(), baseline.warnings.len(), "{:#?}", output.warnings);
}

#[test]
fn codex_counts_user_message_events_not_injected_context() {
    let output = Home::fixture().read();
    let session = support::session(&output, Agent::Codex, CODEX_1);
    // Two injected response_item user messages and one echo of the prompt: not counted.
    assert_eq!(session.prompts.len(), 2);
    assert_eq!(session.title, "Investigate the flaky CI job on main");
    // An old user_message event marked as environment context is skipped too.
    let archived = support::session(&output, Agent::Codex, CODEX_3);
    assert_eq!(archived.prompts, times(&["2026-03-02T00:00:01Z"]));
}

#[test]
fn codex_cwd_follows_turn_context_and_the_first_session_meta_wins() {
    let output = Home::fixture().read();
    assert_eq!(
        support::session(&output, Agent::Codex, CODEX_1).cwd.as_deref(),
        Some(Path::new("/home/dev/billing-api/services/web"))
    );
    // A resumed file with two session_meta records: the first one's id and cwd.
    let resumed = support::session(&output, Agent::Codex, CODEX_2);
    assert_eq!(resumed.cwd.as_deref(), Some(Path::new("/home/dev/infra")));
    assert!(!output.events.iter().any(|event| event.session_id.starts_with("99999999")));
    assert_eq!(resumed.prompts, times(&["2026-03-02T12:00:05Z"]));
    assert_eq!(
        resumed.activity,
        times(&["2026-03-02T12:00:00Z", "2026-03-02T12:00:05Z", "2026-03-02T12:01:00Z"])
    );
}

#[test]
fn codex_title_is_the_last_thread_name() {
    let output = Home::fixture().read();
    // Three renames: the index is append-only and Codex reads the last line as the
    // current name (codex-rs/rollout/src/session_index.rs), whatever its updated_at.
    assert_eq!(support::session(&output, Agent::Codex, CODEX_2).title, "Stale name written late");
}

#[test]
fn codex_reads_archived_sessions_and_shortens_long_titles() {
    let output = Home::fixture().read();
    let archived = support::session(&output, Agent::Codex, CODEX_3);
    assert_eq!(
        collect::sessions::shorten_title(&archived.title),
        (
            "Please rewrite the installation guide so that it covers Linux, macOS and…".to_owned(),
            true
        )
    );
    assert!(!archived.truncated);
    assert_eq!(archived.cwd.as_deref(), Some(Path::new("/home/dev/docs site")));
}

#[test]
fn gemini_set_summary_is_the_title_and_rewound_messages_are_dropped() {
    let output = Home::fixture().read();
    let session = support::session(&output, Agent::Gemini, "aaaa1111-0000-4000-8000-000000000001");
    assert_eq!(session.title, "Build script rewrite");
    assert_eq!(session.prompts, times(&["2026-03-02T10:00:00Z", "2026-03-02T10:10:00Z"]));
    assert_eq!(
        session.activity,
        times(&[
            "2026-03-02T10:00:00Z",
            "2026-03-02T10:00:05Z",
            "2026-03-02T10:10:00Z",
            "2026-03-02T10:10:05Z"
        ])
    );
}

#[test]
fn gemini_project_root_comes_from_the_marker_file_or_projects_json() {
    let output = Home::fixture().read();
    let by_registry =
        support::session(&output, Agent::Gemini, "aaaa1111-0000-4000-8000-000000000001");
    assert_eq!(by_registry.cwd.as_deref(), Some(Path::new("/home/dev/gemini-proj")));
    let by_marker =
        support::session(&output, Agent::Gemini, "bbbb2222-0000-4000-8000-000000000002");
    assert_eq!(by_marker.cwd.as_deref(), Some(Path::new("/home/dev/hash project")));
    // The title is what the user typed, not the expanded @file content.
    assert_eq!(by_marker.title, "Summarize @README.md");
    // The sub-agent chat is activity of its parent, not a session or a prompt.
    assert_eq!(by_marker.prompts, times(&["2026-03-02T11:00:00Z"]));
    assert_eq!(
        by_marker.activity,
        times(&[
            "2026-03-02T11:00:00Z",
            "2026-03-02T11:00:10Z",
            "2026-03-02T11:00:20Z",
            "2026-03-02T11:00:30Z"
        ])
    );
}

#[test]
fn gemini_reads_legacy_json_chats() {
    let output = Home::fixture().read();
    let legacy = support::session(&output, Agent::Gemini, "cccc3333-0000-4000-8000-000000000003");
    assert_eq!(legacy.title, "What does the Makefile do?");
    assert_eq!(legacy.cwd, None);
    assert_eq!(legacy.prompts, times(&["2026-03-02T12:00:00Z"]));
    assert_eq!(legacy.activity.len(), 3);
}

#[test]
fn statuses_say_what_was_found_and_what_limits_it() {
    let home = Home::fixture();
    let output = home.read();
    let summary: Vec<(&str, bool, u64, u64)> = output
        .statuses
        .iter()
        .map(|status| (status.source.as_str(), status.found, status.files, status.entries))
        .collect();
    assert_eq!(
        summary[..3],
        [("claude", true, 6, 7), ("codex", true, 3, 3), ("gemini", true, 4, 3)]
    );
    // Every other agent (but Aider, read with the work trees) is looked for, and absent.
    let others: Vec<Source> = Agent::ALL[3..]
        .iter()
        .filter(|agent| **agent != Agent::Aider)
        .map(|agent| Source::from(*agent))
        .collect();
    assert_eq!(output.statuses[3..].iter().map(|status| status.source).collect::<Vec<_>>(), others);
    assert!(output.statuses[3..].iter().all(|status| !status.found && status.files == 0));
    assert_eq!(output.statuses[0].limits[1], "1 malformed line skipped in 1 file");
    assert_eq!(
        output.statuses[2].limits,
        [
            "1 session without a known working directory (a chat folder named by a hash, with no `.project_root` file and no `projects.json` entry)"
        ]
    );
}

#[test]
fn missing_sources_are_silent() {
    let home = Home::empty();
    let output = home.read();
    assert!(output.events.is_empty());
    assert!(output.warnings.is_empty());
    let found: Vec<(&str, bool)> =
        output.statuses.iter().map(|status| (status.source.as_str(), status.found)).collect();
    let expected: Vec<(&str, bool)> = Agent::ALL
        .iter()
        .filter(|agent| **agent != Agent::Aider)
        .map(|agent| (agent.config_name(), false))
        .collect();
    assert_eq!(found, expected);
    assert_eq!(
        output.statuses[0].locations,
        [home.path().join(".claude"), home.path().join(".config/claude")]
    );
    assert_eq!(output.statuses[1].locations, [home.path().join(".codex")]);
    assert_eq!(output.statuses[2].locations, [home.path().join(".gemini")]);
}

#[test]
fn only_enabled_agents_are_read_and_homes_can_be_configured() {
    let home = Home::fixture();
    let config = SessionsConfig { agents: vec![Agent::Codex], ..SessionsConfig::default() };
    let output = read_sessions(&home.env(), &config, since());
    assert!(output.events.iter().all(|event| event.agent == Agent::Codex));
    assert_eq!(output.statuses.len(), 1);

    let moved = Home::empty();
    copy_tree(&home.path().join(".codex"), &moved.path().join("elsewhere/codex"));
    copy_tree(&home.path().join(".gemini"), &moved.path().join("g/.gemini"));
    let env = moved
        .env()
        .with_var("CODEX_HOME", "~/elsewhere/codex")
        .with_var("GEMINI_CLI_HOME", moved.path().join("g").display().to_string());
    let output = read_sessions(&env, &SessionsConfig::default(), since());
    assert_eq!(output.events.iter().filter(|event| event.agent == Agent::Codex).count(), 3);
    assert_eq!(output.events.iter().filter(|event| event.agent == Agent::Gemini).count(), 3);
    let config = SessionsConfig {
        codex_home: Some(PathBuf::from("/nonexistent/codex")),
        ..SessionsConfig::default()
    };
    let output = read_sessions(&env, &config, since());
    assert!(!output.events.iter().any(|event| event.agent == Agent::Codex));
}

#[test]
fn sessions_with_no_record_since_the_window_are_not_returned() {
    let output = read_sessions(
        &Home::fixture().env(),
        &SessionsConfig::default(),
        ts("2026-03-03T00:00:00Z"),
    );
    assert!(output.events.is_empty(), "{:#?}", ids(&output));
}

#[test]
fn claude_history_entries_are_prompts_as_typed_too() {
    let home = Home::empty();
    let entry = |display: &str, millis: i64| {
        format!(
            "{}\n",
            serde_json::json!({
                "display": display, "pastedContents": {}, "timestamp": millis,
                "project": "/home/dev/ledger", "sessionId": "99999999-0000-4000-8000-000000000009"
            })
        )
    };
    let text = [
        entry("<system-reminder>\nA hook ran.\n</system-reminder>", 1_772_427_600_000),
        entry(
            "<ide_opened_file>The user opened the file /home/dev/ledger/a.rs in the IDE.</ide_opened_file> rename this type",
            1_772_427_660_000,
        ),
    ]
    .concat();
    home.write(".claude/history.jsonl", text.as_bytes());

    let output = home.read();

    let session =
        support::session(&output, Agent::ClaudeCode, "99999999-0000-4000-8000-000000000009");
    assert_eq!(session.title, "rename this type");
    assert_eq!(session.prompts, times(&["2026-03-02T05:01:00Z"]));
}

#[test]
fn claude_history_lines_are_judged_against_every_session_the_transcripts_told() {
    // The transcript's file is `aaaa…01`, but its records carry `bbbb…02` (a resumed
    // session): history entries of either are the transcript's, not prompts of their own.
    let home = Home::empty();
    let record = serde_json::json!({
        "parentUuid": null, "isSidechain": false, "cwd": "/home/dev/ledger",
        "sessionId": "bbbbbbbb-0000-4000-8000-000000000002", "type": "user",
        "message": {"role": "user", "content": "Why does the parser drop the last row?"},
        "uuid": "00000000-0000-4000-8000-000000000701", "timestamp": "2026-03-02T05:00:00.000Z"
    });
    home.write(
        ".claude/projects/-home-dev-ledger/aaaaaaaa-0000-4000-8000-000000000001.jsonl",
        format!("{record}\n").as_bytes(),
    );
    let entry = |session: &str, millis: i64| {
        serde_json::json!({
            "display": "a prompt", "pastedContents": {}, "timestamp": millis,
            "project": "/home/dev/ledger", "sessionId": session
        })
        .to_string()
    };
    let lines = [
        entry("aaaaaaaa-0000-4000-8000-000000000001", 1_772_427_630_000),
        "{\"display\": oops".to_owned(),
        entry("bbbbbbbb-0000-4000-8000-000000000002", 1_772_427_630_000),
        entry("cccccccc-0000-4000-8000-000000000003", 1_772_431_200_000),
    ];
    home.write(".claude/history.jsonl", format!("{}\n", lines.join("\n")).as_bytes());

    let output = home.read();

    let resumed =
        support::session(&output, Agent::ClaudeCode, "bbbbbbbb-0000-4000-8000-000000000002");
    assert_eq!(resumed.prompts, times(&["2026-03-02T05:00:00Z"]));
    assert!(output.events.iter().all(|event| !event.session_id.starts_with("aaaaaaaa")));
    let orphan =
        support::session(&output, Agent::ClaudeCode, "cccccccc-0000-4000-8000-000000000003");
    assert_eq!(orphan.prompts, times(&["2026-03-02T06:00:00Z"]));
    let messages: Vec<String> = output.warnings.iter().map(en).collect();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(
        messages[0].ends_with("history.jsonl`: 1 malformed line skipped (line 2)"),
        "{messages:?}"
    );
}
