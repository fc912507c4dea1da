use super::{dedup_paths, failed_commands, markdown_todos, shorten_title};
use report_model::{FAILED_COMMANDS_MAX, FAILED_RUNS_MAX, FailedCommand, FailedRun, TodoStatus};

fn at(second: i64) -> jiff::Timestamp {
    jiff::Timestamp::from_second(1_800_000_000 + second).expect("in range")
}

#[test]
fn short_titles_only_lose_extra_whitespace() {
    assert_eq!(shorten_title("  Fix the\n\tparser  "), ("Fix the parser".to_owned(), false));
    let exactly = "x".repeat(80);
    assert_eq!(shorten_title(&exactly), (exactly.clone(), false));
}

#[test]
fn long_titles_are_cut_at_a_word_boundary() {
    let (title, truncated) = shorten_title(&"alpha beta gamma delta ".repeat(10));
    assert!(truncated);
    assert_eq!(
        title,
        "alpha beta gamma delta alpha beta gamma delta alpha beta gamma delta alpha beta…"
    );
    assert!(title.chars().count() <= 80);
}

#[test]
fn long_words_and_cjk_are_cut_hard() {
    let (title, truncated) = shorten_title(&"日本語".repeat(40));
    assert!(truncated);
    assert_eq!(title.chars().count(), 80);
    assert!(title.ends_with('…'));
}

#[test]
fn a_transcript_name_is_told_from_its_bytes_as_a_path_would_tell_it() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt as _;
    use std::path::Path;
    let names: [&[u8]; 9] = [
        b"a.jsonl",
        b".jsonl",
        b"..jsonl",
        b"a.b.jsonl",
        b"a.json",
        b"jsonl",
        b"a.jsonl.bak",
        b"agent-1.jsonl",
        b"caf\xe9.jsonl",
    ];
    for name in names {
        let name = Path::new(OsStr::from_bytes(name));
        let by_path = super::has_extension(name, "jsonl").then(|| super::file_stem(name)).flatten();
        assert_eq!(super::jsonl_stem(name), by_path, "{}", name.display());
    }
    assert_eq!(super::jsonl_stem(Path::new("a.jsonl")).as_deref(), Some("a"));
}

#[test]
fn a_rollout_name_is_told_from_its_bytes_as_a_path_would_tell_it() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt as _;
    use std::path::Path;
    let names: [&[u8]; 9] = [
        b"rollout-2026-11-27T09-00-00-0.jsonl",
        b"rollout-.jsonl",
        b"rollout-a.json",
        b"rollout-a.jsonl.bak",
        b"rollout-a.JSONL",
        b"Rollout-a.jsonl",
        b"x-rollout-a.jsonl",
        b"rollout-caf\xe9.jsonl",
        b"rollout.jsonl",
    ];
    for name in names {
        let path = Path::new(OsStr::from_bytes(name));
        let by_path =
            super::has_extension(path, "jsonl") && super::name_starts_with(path, "rollout-");
        assert_eq!(super::codex::is_rollout_name(name), by_path, "{}", path.display());
    }
    assert!(super::codex::is_rollout_name(b"rollout-1.jsonl"));
}

#[test]
fn a_passing_run_clears_the_failures_of_the_same_command_line() {
    let runs = vec![
        (at(3), "cargo test".to_owned(), 0),
        (at(1), "cargo test".to_owned(), 101),
        (at(2), "cargo test".to_owned(), 101),
        (at(4), "sh check.sh".to_owned(), 3),
        (at(5), "sh check.sh".to_owned(), 2),
        (at(6), "ls".to_owned(), 0),
    ];
    assert_eq!(
        failed_commands(runs),
        [FailedCommand {
            command: "sh check.sh".to_owned(),
            runs: vec![FailedRun { time: at(4), exit: 3 }, FailedRun { time: at(5), exit: 2 }],
            last: false,
        }]
    );
    // A failure after the pass starts a new streak.
    let again = vec![
        (at(1), "make".to_owned(), 2),
        (at(2), "make".to_owned(), 0),
        (at(3), "make".to_owned(), 2),
    ];
    let failed = failed_commands(again);
    assert_eq!(failed[0].runs, [FailedRun { time: at(3), exit: 2 }]);
    // The session's last run.
    assert!(failed[0].last);
}

#[test]
fn failed_commands_keep_the_latest_few() {
    let runs: Vec<_> = (0..15).map(|n| (at(n), format!("false {n}"), 1)).collect();
    let failed = failed_commands(runs);
    assert_eq!(failed.len(), FAILED_COMMANDS_MAX);
    assert_eq!(failed[0].command, "false 5");
    assert_eq!(failed[FAILED_COMMANDS_MAX - 1].command, "false 14");
    let many: Vec<_> = (0..30).map(|n| (at(n), "make".to_owned(), 2)).collect();
    let failed = failed_commands(many);
    assert_eq!(failed[0].runs.len(), FAILED_RUNS_MAX);
    assert_eq!(failed[0].runs[0].time, at(10));
}

#[test]
fn paths_are_deduplicated_in_order_as_paths_compare() {
    use std::path::PathBuf;
    let paths: Vec<PathBuf> = ["/r/b", "/r/a", "/r/b/", "/r//a", "/r/c", "/r/b", "/r/./c", "/r/A"]
        .into_iter()
        .map(PathBuf::from)
        .collect();
    // `/r/b/`, `/r//a` and `/r/./c` are the paths `/r/b`, `/r/a` and `/r/c`; case counts.
    let expected: Vec<PathBuf> =
        ["/r/b", "/r/a", "/r/c", "/r/A"].into_iter().map(PathBuf::from).collect();
    let unique = dedup_paths(paths.clone());
    assert_eq!(unique, expected);
    // The first of equal paths is the one kept, as it was written.
    assert_eq!(unique[0].as_os_str(), "/r/b");
    // The scan it replaces gives the same answer.
    let mut scanned: Vec<PathBuf> = Vec::new();
    for path in paths {
        if !scanned.contains(&path) {
            scanned.push(path);
        }
    }
    assert_eq!(
        unique.iter().map(|p| p.as_os_str()).collect::<Vec<_>>(),
        scanned.iter().map(|p| p.as_os_str()).collect::<Vec<_>>()
    );
}
#[test]
fn a_checklist_is_read_line_by_line() {
    let todos = markdown_todos("- [x] Read the README\n- [ ] Add a test\n  * [X] nested done\nnot an item\n- [ ]   \n+ [ ] plus")
            .expect("items");
    let read: Vec<(&str, TodoStatus)> =
        todos.iter().map(|todo| (todo.text.as_str(), todo.status)).collect();
    assert_eq!(
        read,
        [
            ("Read the README", TodoStatus::Completed),
            ("Add a test", TodoStatus::Pending),
            ("nested done", TodoStatus::Completed),
            ("plus", TodoStatus::Pending),
        ]
    );
    assert!(markdown_todos("# Plan\nno boxes here").is_none());
}
