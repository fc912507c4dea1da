//! Daily notes: `--daily-note` and `--append-to FILE` put the report between
//! `<!-- standup:begin -->` and `<!-- standup:end -->` in a Markdown note, created when
//! missing, replaced in place when present, every other byte kept, nothing written when
//! nothing changed, and never into something that is not a regular file.

use std::os::unix::fs::MetadataExt as _;
use std::path::Path;

use crate::support::{Home, ME};

/// Monday 2026-11-30, 09:30 in Tokyo.
const MONDAY: &str = "2026-11-30T09:30:00+09:00";
const TOKYO: &str = "Asia/Tokyo";
const BEGIN: &str = "<!-- standup:begin -->";
const END: &str = "<!-- standup:end -->";

fn home_with_work() -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let app = home.repo("app");
    app.commit("a", "parser: accept trailing commas", "2026-11-27T10:00:00+09:00");
    app.commit("b", "lexer: keep 日本語 identifiers", "2026-11-30T09:05:00+09:00");
    home
}

fn read(path: &Path) -> String {
    fs_err::read_to_string(path).unwrap()
}

/// The "done when" of the issue: Monday's standup goes into the existing daily note
/// `Daily/2026-11-30.md` below the user's lines, which stay byte for byte; a second run
/// writes nothing (same inode, same modification time).
#[test]
fn a_monday_standup_goes_into_the_existing_daily_note_and_a_second_run_changes_nothing() {
    let home = home_with_work();
    home.config("[output]\ndaily_note = \"~/Notes/Daily/{date}.md\"\n");
    let mine =
        "# Monday 30 ✨\n\n- [ ] call the bank\n<!-- my own comment -->\nLast line, no newline";
    let note = home.write("Notes/Daily/2026-11-30.md", mine);
    let expected_report = home.run(MONDAY, TOKYO, &["standup", "--no-llm"]).success().to_owned();
    assert!(expected_report.starts_with("# Standup — 2026-11-30 (Mon)"), "{expected_report}");

    let run = home.run(MONDAY, TOKYO, &["standup", "--no-llm", "--daily-note"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "standup: note [HOME]/Notes/Daily/2026-11-30.md: report section written\n"
    );
    let written = read(&note);
    assert_eq!(written, format!("{mine}\n\n{BEGIN}\n{expected_report}{END}\n"));

    // The user's edits around the section survive the next run.
    let edited = written.replace("- [ ] call the bank", "- [x] call the bank") + "\nmore of mine\n";
    fs_err::write(&note, &edited).unwrap();
    let before = fs_err::metadata(&note).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let run = home.run(MONDAY, TOKYO, &["standup", "--no-llm", "--daily-note"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stderr.contains("already up to date (not rewritten)"), "{}", run.stderr);
    let after = fs_err::metadata(&note).unwrap();
    assert_eq!(read(&note), edited);
    assert_eq!(
        (before.ino(), before.mtime(), before.mtime_nsec()),
        (after.ino(), after.mtime(), after.mtime_nsec())
    );
    // No temporary file is left in the folder.
    let names: Vec<String> = fs_err::read_dir(note.parent().unwrap())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["2026-11-30.md"]);
}

/// A note with CRLF lines and an old section: only the lines between the markers change,
/// written with CRLF; the heading level option moves the report under the note's `#`.
#[test]
fn the_section_is_replaced_in_place_with_the_notes_line_endings_and_heading_level() {
    let home = home_with_work();
    home.config("[output]\nheading_level = 2\n");
    let top = "# 2026-11-30\r\n<!-- other comment -->\r\n";
    let bottom = "\r\n## Notes\r\nmine\r\n";
    let note = home.write("notes/today.md", &format!("{top}{BEGIN}\r\nold\r\n{END}\r\n{bottom}"));
    let run = home.run(MONDAY, TOKYO, &["daily", "--no-llm", "--append-to", "notes/today.md"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let written = read(&note);
    let section = written.strip_prefix(top).and_then(|rest| rest.strip_suffix(bottom)).unwrap();
    assert!(
        section.starts_with(&format!("{BEGIN}\r\n## Daily report — 2026-11-30 (Mon)\r\n")),
        "{section}"
    );
    assert!(section.ends_with(&format!("\r\n{END}\r\n")), "{section}");
    assert!(section.contains("\r\n### app · 1 commit"), "{section}");
    assert!(!section.replace("\r\n", "").contains('\n'), "only CRLF line endings: {section:?}");
}

/// A note that does not exist is created with its folders; the path may start with `~/`.
#[test]
fn a_missing_note_is_created_with_its_folders() {
    let home = home_with_work();
    let run = home.run(MONDAY, TOKYO, &["daily", "--no-llm", "--append-to", "~/a/b/c/note.md"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(run.stderr, "standup: note [HOME]/a/b/c/note.md: created with the report\n");
    let report = home.run(MONDAY, TOKYO, &["daily", "--no-llm"]).success().to_owned();
    assert_eq!(read(&home.path().join("a/b/c/note.md")), format!("{BEGIN}\n{report}{END}\n"));
}

/// Logseq's journal names (`yyyy_MM_dd`) and the daily report's own date.
#[test]
fn the_note_is_named_for_the_reports_date() {
    let home = home_with_work();
    home.config("[output]\ndaily_note = \"~/logseq/journals/{date:yyyy_MM_dd}.md\"\n");
    let run =
        home.run(MONDAY, TOKYO, &["daily", "--no-llm", "--date", "2026-11-27", "--daily-note"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let note = read(&home.path().join("logseq/journals/2026_11_27.md"));
    assert!(note.contains("parser: accept trailing commas"), "{note}");
}

#[test]
fn daily_note_without_the_config_key_is_a_usage_error() {
    let home = home_with_work();
    let run = home.run(MONDAY, TOKYO, &["--no-llm", "--daily-note"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(run.stderr.contains("sets no `daily_note` in its `[output]` table"), "{}", run.stderr);
    assert_eq!(run.stdout, "");

    home.config("[output]\ndaily_note = \"Notes/{date:YYYY-QQ}.md\"\n");
    let run = home.run(MONDAY, TOKYO, &["--no-llm", "--daily-note"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(run.stderr.contains("line 2, key `output.daily_note`"), "{}", run.stderr);
    home.config("[output]\nheading_level = 7\n");
    let run = home.run(MONDAY, TOKYO, &["daily", "--no-llm"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(run.stderr.contains("key `output.heading_level`: 7 is out of range"), "{}", run.stderr);

    let run = home.run(MONDAY, TOKYO, &["daily", "--append-to", "x.md", "--format", "json"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(run.stderr.contains("a note holds Markdown"), "{}", run.stderr);
    let run = home.run(MONDAY, TOKYO, &["daily", "--append-to", "x.md", "-o", "y.md"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
}

/// A note that is a link, a folder, a FIFO, too large or unreadable is an error naming
/// it (exit 1), and nothing is written anywhere.
#[test]
fn a_note_that_is_not_a_readable_regular_file_is_an_error() {
    let home = home_with_work();
    let target = home.write("real.md", "mine\n");
    std::os::unix::fs::symlink(&target, home.path().join("link.md")).unwrap();
    fs_err::create_dir_all(home.path().join("folder.md")).unwrap();
    #[expect(clippy::disallowed_methods, reason = "the test makes a FIFO with coreutils")]
    let status = std::process::Command::new("mkfifo").arg(home.path().join("fifo.md")).status();
    assert!(status.unwrap().success());
    let large = fs_err::File::create(home.path().join("large.md")).unwrap();
    large.set_len(17 << 20).unwrap();
    drop(large);
    let mut cases = vec![
        ("link.md", "is a symbolic link"),
        ("folder.md", "is a folder"),
        ("fifo.md", "is not a regular file"),
        ("large.md", "is larger than 16 MiB"),
    ];
    if !rustix::process::geteuid().is_root() {
        let locked = home.write("locked.md", "mine\n");
        fs_err::set_permissions(&locked, std::os::unix::fs::PermissionsExt::from_mode(0o000))
            .unwrap();
        cases.push(("locked.md", "cannot read note"));
    }
    for (name, why) in cases {
        let run = home.run(MONDAY, TOKYO, &["daily", "--no-llm", "--append-to", name]);
        assert_eq!(run.code, 1, "{name}: {}", run.snapshot());
        assert!(
            run.stderr.contains(&format!("standup: error: note `{name}` {why}"))
                || run.stderr.contains(&format!("standup: error: cannot read note `{name}`")),
            "{name}: {}",
            run.stderr
        );
        assert_eq!(run.stdout, "");
    }
    assert_eq!(read(&target), "mine\n");
    assert!(fs_err::symlink_metadata(home.path().join("link.md")).unwrap().is_symlink());
    let stray: Vec<_> = fs_err::read_dir(home.path())
        .unwrap()
        .filter(|entry| {
            entry.as_ref().unwrap().file_name().to_string_lossy().starts_with(".standup-")
        })
        .collect();
    assert!(stray.is_empty());
}

/// Broken markers (a begin without an end) are an error naming the lines; the note is
/// left as it was.
#[test]
fn broken_markers_leave_the_note_alone() {
    let home = home_with_work();
    let text = format!("top\n{BEGIN}\nhalf a section\n");
    let note = home.write("note.md", &text);
    let run = home.run(MONDAY, TOKYO, &["daily", "--no-llm", "--append-to", "note.md"]);
    assert_eq!(run.code, 1, "{}", run.snapshot());
    assert!(
        run.stderr.contains("begin markers on lines [2] and end markers on lines []"),
        "{}",
        run.stderr
    );
    assert_eq!(read(&note), text);
}
