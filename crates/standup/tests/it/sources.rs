//! Sources as real users' machines have them: a Claude Code session from the IDE
//! extension, and a shell history written by the real atuin 18.24 in its default place
//! (`fixtures/shell/atuin-18/`, made by its `make.sh`).

use std::path::Path;

use crate::support::Home;

const TOKYO: &str = "Asia/Tokyo";

/// The fixture folder of the repository.
fn fixtures() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures"))
}

/// Copies the IDE-extension session of the fixture home into `home`.
fn ide_session(home: &Home) {
    let relative =
        ".claude/projects/-home-dev-work-ledger/ffffffff-0000-4000-8000-000000000006.jsonl";
    let text = fs_err::read_to_string(fixtures().join("sessions/home").join(relative)).unwrap();
    home.write(relative, &text);
}

/// The session's line in the report.
fn session_line(report: &str) -> &str {
    report.lines().find(|line| line.starts_with("- AI: Claude Code")).unwrap_or_else(|| {
        panic!("no session line in:\n{report}");
    })
}

#[test]
fn an_ide_session_is_titled_and_counted_by_what_the_person_typed_with_its_models() {
    let home = Home::new();
    ide_session(&home);

    let run = home.run("2026-03-02T18:00:00+09:00", TOKYO, &["daily", "--no-llm"]);

    let report = run.success();
    assert!(
        report.contains(
            "\n## ledger · no commits · 1 AI session, 3 prompts · ≈ 10 min, 14:00–14:04\n"
        ),
        "{report}"
    );
    assert_eq!(
        session_line(report),
        "- AI: Claude Code `Why does the CSV parser drop the last row?` (3 prompts, claude-opus-4-5-20251101, claude-sonnet-4-5-20250929)"
    );
    assert!(!report.contains("ide_opened_file"), "{report}");
}

#[test]
fn an_ide_session_in_japanese_and_json() {
    let home = Home::new();
    ide_session(&home);
    let now = "2026-03-02T18:00:00+09:00";

    let ja = home.run(now, TOKYO, &["daily", "--no-llm", "--lang", "ja"]);
    assert_eq!(
        session_line(ja.success()),
        "- AI: Claude Code `Why does the CSV parser drop the last row?`（プロンプト3件、claude-opus-4-5-20251101、claude-sonnet-4-5-20250929）"
    );

    let json = home.run(now, TOKYO, &["daily", "--no-llm", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(json.success()).unwrap();
    let session = &report["buckets"][0]["projects"][0]["sessions"][0];
    assert_eq!(session["title"], "Why does the CSV parser drop the last row?");
    assert_eq!(session["prompts"], 3);
    assert_eq!(
        session["models"],
        serde_json::json!(["claude-opus-4-5-20251101", "claude-sonnet-4-5-20250929"])
    );
}

/// The working directories `make.sh` ran its commands in are under this home.
const FIXTURE_HOME: &str = "/tmp/atuin-18-fixture/home";

/// A home with the history the real atuin 18.24 wrote, in atuin's default place
/// (`~/.atuin/data/history.db`), its working directories moved into this home, and the
/// `ledger` repository its commands ran in (no commits).
fn atuin_home() -> Home {
    let home = Home::new();
    home.repo("ledger");
    let db = home.path().join(".atuin/data/history.db");
    fs_err::create_dir_all(db.parent().unwrap()).unwrap();
    fs_err::copy(fixtures().join("shell/atuin-18/history.db"), &db).unwrap();
    let conn = rusqlite::Connection::open(&db).unwrap();
    let moved = conn
        .execute(
            "UPDATE history SET cwd = ?1 || substr(cwd, ?2) WHERE cwd LIKE ?3",
            rusqlite::params![
                home.path().display().to_string(),
                FIXTURE_HOME.len() + 1,
                format!("{FIXTURE_HOME}%")
            ],
        )
        .unwrap();
    assert_eq!(moved, 11, "every fixture row ran under {FIXTURE_HOME}");
    drop(conn);
    home
}

const FRIDAY_EVENING: &str = "2026-11-27T18:00:00+09:00";

/// The lines of a report's section, from its heading to the next blank line after its
/// list.
fn section<'r>(report: &'r str, heading: &str) -> Vec<&'r str> {
    let mut lines = report.lines().skip_while(|line| !line.starts_with(heading));
    let first = lines.next().unwrap_or_else(|| panic!("no `{heading}` in:\n{report}"));
    let mut section = vec![first];
    section.extend(lines.skip(1).take_while(|line| !line.is_empty()));
    section
}

#[test]
fn a_project_with_only_commands_shows_them_with_failures_and_agents_apart() {
    let home = atuin_home();

    let run = home.run(FRIDAY_EVENING, TOKYO, &["daily", "--no-llm"]);

    let report = run.success();
    assert_eq!(
        section(report, "## ledger"),
        [
            "## ledger · no commits · 5 commands · 3 AI agent commands · ≈ 1 h 9 min, 10:00–11:10",
            "- `cargo test` ×4, 3 failed — e.g. `cargo test`, `cargo test parse`",
            "- `cargo build` ×1 — e.g. `cargo build --release`",
            "- AI agent: `cargo test` ×2, 1 failed — e.g. `cargo test -p ledger`",
            "- AI agent: `git status` ×1 — e.g. `git status`",
        ]
    );
    // The Shell section keeps only the commands outside any project (`ls` is ignored).
    assert_eq!(
        section(report, "## Shell"),
        ["## Shell", "- `make` ×1, 1 failed — e.g. `make docs`"]
    );
    // Each command counted once; the agents' apart.
    assert!(
        report.contains("\nTotals: 1 project · no commits · 6 commands · 3 AI agent commands · ≈ 1 h 9 min, 10:00–11:10\n"),
        "{report}"
    );
}

#[test]
fn failures_and_agent_commands_in_japanese() {
    let home = atuin_home();

    let run = home.run(FRIDAY_EVENING, TOKYO, &["daily", "--no-llm", "--lang", "ja"]);

    let report = run.success();
    assert_eq!(
        section(report, "## ledger"),
        [
            "## ledger · コミットなし · コマンド5件 · AIエージェントのコマンド3件 · 約1時間9分（10:00〜11:10）",
            "- `cargo test` ×4、失敗3件 — 例: `cargo test`、`cargo test parse`",
            "- `cargo build` ×1 — 例: `cargo build --release`",
            "- AIエージェント: `cargo test` ×2、失敗1件 — 例: `cargo test -p ledger`",
            "- AIエージェント: `git status` ×1 — 例: `git status`",
        ]
    );
}

#[test]
fn a_project_s_commands_are_in_its_json_and_counted_once() {
    let home = atuin_home();

    let run = home.run(FRIDAY_EVENING, TOKYO, &["daily", "--no-llm", "--format", "json"]);

    let report: serde_json::Value = serde_json::from_str(run.success()).unwrap();
    let bucket = &report["buckets"][0];
    let project = &bucket["projects"][0];
    assert_eq!(project["name"], "ledger");
    assert_eq!(project["commands"], 5);
    assert_eq!(
        (&project["totals"]["commands"], &project["totals"]["agent_commands"]),
        (&5.into(), &3.into())
    );
    let groups: Vec<(&str, u64, u64, bool)> = project["shell"]
        .as_array()
        .unwrap()
        .iter()
        .map(|group| {
            (
                group["head"].as_str().unwrap(),
                group["count"].as_u64().unwrap(),
                group["failed"].as_u64().unwrap_or(0),
                group["agent"].as_bool().unwrap_or(false),
            )
        })
        .collect();
    assert_eq!(
        groups,
        [
            ("cargo test", 4, 3, false),
            ("cargo build", 1, 0, false),
            ("cargo test", 2, 1, true),
            ("git status", 1, 0, true)
        ]
    );
    assert_eq!(bucket["shell"].as_array().unwrap().len(), 1);
    assert_eq!(bucket["shell"][0]["head"], "make");
    assert_eq!(
        (&report["totals"]["commands"], &report["totals"]["agent_commands"]),
        (&6.into(), &3.into())
    );
}

#[test]
fn doctor_finds_atuin_18_in_its_default_place() {
    let home = atuin_home();

    let run = home.run(FRIDAY_EVENING, TOKYO, &["doctor"]);

    let out = run.success();
    let atuin: Vec<&str> =
        out.lines().skip_while(|line| !line.starts_with("atuin:")).take(2).collect();
    assert_eq!(atuin, ["atuin: found · 11 entries", "  [HOME]/.atuin/data/history.db"]);
}

#[test]
fn atuin_home_moves_the_database() {
    let home = atuin_home();
    let elsewhere = home.path().join("profiles/work");
    fs_err::create_dir_all(&elsewhere).unwrap();
    fs_err::rename(home.path().join(".atuin/data"), elsewhere.join("data")).unwrap();

    // Without ATUIN_HOME the default folder is gone: nothing there.
    let run = home.run(FRIDAY_EVENING, TOKYO, &["doctor"]);
    assert!(run.success().contains("atuin: not found"), "{}", run.stdout);

    let run = home.run_command(
        home.command(home.path(), FRIDAY_EVENING, TOKYO, &["doctor"]).env("ATUIN_HOME", &elsewhere),
    );
    let out = run.success();
    let atuin: Vec<&str> =
        out.lines().skip_while(|line| !line.starts_with("atuin:")).take(2).collect();
    assert_eq!(atuin, ["atuin: found · 11 entries", "  [HOME]/profiles/work/data/history.db"]);
}

/// A Claude Code session `session` (its last hex digits) of one prompt, `text` at
/// `time` on Friday, run in `cwd`, in the folder Claude Code names after it.
fn claude_prompt(home: &Home, cwd: &Path, session: &str, time: &str, text: &str) {
    let id = format!("00000000-0000-4000-8000-00000000{session}");
    let record = serde_json::json!({
        "parentUuid": null, "isSidechain": false, "userType": "external",
        "cwd": cwd.display().to_string(), "sessionId": id, "version": "2.1.50",
        "type": "user", "uuid": format!("00000000-0000-4000-8000-0000000{session}01"),
        "timestamp": crate::support::at(time),
        "message": {"role": "user", "content": text},
    });
    let folder = cwd.display().to_string().replace('/', "-");
    home.write(&format!(".claude/projects/{folder}/{id}.jsonl"), &crate::support::jsonl(&[record]));
}

/// A Claude Code session in a folder outside any repository makes that folder a
/// project; the commands atuin recorded in a folder below it are counted under that
/// project, not left in the Shell section.
#[test]
fn commands_run_in_a_session_s_folder_join_its_project() {
    use serde_json::json;
    let home = Home::new();
    home.git_identity(crate::support::ME.email, crate::support::ME.name);
    let notes = home.path().join("notes");
    fs_err::create_dir_all(notes.join("drafts")).unwrap();
    claude_prompt(&home, &notes, "aaaa", "10:00:00", "Outline the talk");
    let db_path = home.path().join(".local/share/atuin/history.db");
    crate::support::write_atuin(
        &db_path,
        &notes.join("drafts"),
        &[("11:00:00", "pandoc talk.md -o talk.pdf", 0), ("11:05:00", "make slides", 0)],
    );
    let report = crate::support::report_json(&home, "2026-11-27T18:00:00+09:00", TOKYO, &["daily"]);
    let bucket = &report["buckets"][0];
    let projects = bucket["projects"].as_array().unwrap();
    let notes_project = projects
        .iter()
        .find(|project| project["name"] == "notes")
        .unwrap_or_else(|| panic!("no `notes` project: {report:#}"));
    assert_eq!(notes_project["commands"], 2, "{report:#}");
    assert_eq!(bucket["shell"], json!([]), "{report:#}");
}

/// A repository outside the configured roots that only a session reveals is read, and
/// `doctor` says git found it (the roots' own read found none).
#[test]
fn doctor_counts_a_repository_only_a_session_revealed() {
    let home = Home::new();
    home.git_identity(crate::support::ME.email, crate::support::ME.name);
    home.config("[git]\nroots = [\"~/src\"]\n");
    let path = home.path().join("elsewhere/tool");
    fs_err::create_dir_all(&path).unwrap();
    let tool = home.repo_handle(&path);
    tool.git(&["init", "-q", "-b", "main"]);
    tool.commit("a.txt", "tool: first cut", "2026-11-27T10:00:00+09:00");
    claude_prompt(&home, &path, "bbbb", "11:00:00", "Add the flag");
    let run = home.run("2026-11-27T18:00:00+09:00", TOKYO, &["doctor"]);
    let git = run.stdout.lines().find(|line| line.trim_start().starts_with("git:"));
    assert_eq!(
        git.map(str::trim),
        Some("git: found · 1 repository · 1 commit today"),
        "{}{}",
        run.stdout,
        run.stderr
    );
}
