//! Which repositories cost a git process: the in-process reader lists commits, counts
//! lines where git's counts are forced and checks clean work trees, and git is asked only
//! where the reader cannot tell (here: a repository whose configuration names a mailmap
//! file, and a work tree with a file modified in the window). A `git` first on `PATH` logs each call, then runs the real
//! git, so the report is the real one.

use std::path::Path;

use crate::support::{COLLEAGUE, Home, ME, report_json, touch};

const TOKYO: &str = "Asia/Tokyo";
const FRIDAY_EVENING: &str = "2026-11-27T18:00:00+09:00";

/// The real git's path, found on `PATH` before the logging one is put in front.
fn real_git() -> std::path::PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|dir| dir.join("git"))
        .find(|path| path.is_file())
        .expect("git on PATH")
}

fn logging_git(bin: &Path, log: &Path) {
    let script = format!(
        "#!/bin/sh\nprintf '%s\\t%s\\n' \"$PWD\" \"$*\" >> '{}'\nexec '{}' \"$@\"\n",
        log.display(),
        real_git().display()
    );
    fs_err::create_dir_all(bin).unwrap();
    let path = bin.join("git");
    crate::support::write_executable(&path, &script);
}

/// Runs `standup <report> --format json --no-llm` in `home` with the logging `git` first
/// on `PATH`: the report, and the git calls it logged (`cwd\targs` lines).
fn run_logged(home: &Home, report: &str) -> (serde_json::Value, String) {
    let bin = home.path().join(".test-bin");
    let log = home.path().join("git-calls.log");
    logging_git(&bin, &log);
    let path = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let mut command =
        home.command(home.path(), FRIDAY_EVENING, TOKYO, &[report, "--format", "json", "--no-llm"]);
    command.env("PATH", path);
    let run = home.run_command(&mut command);
    let report = serde_json::from_str(run.success()).unwrap();
    (report, fs_err::read_to_string(&log).unwrap())
}

/// How many of the logged `calls` ran in `repo` with `what` in their arguments.
fn calls_in(calls: &str, repo: &Path, what: &str) -> usize {
    calls
        .lines()
        .filter(|line| {
            line.split_once('\t')
                .is_some_and(|(cwd, args)| Path::new(cwd) == repo && args.contains(what))
        })
        .count()
}

#[test]
fn git_is_asked_only_where_the_in_process_reader_cannot_tell() {
    let home = Home::new();
    home.git_identity("me@example.com", "Me");
    let plain = home.repo("plain");
    plain.commit("a.txt", "Commit in a plain repository", "2026-11-27T10:00:00+09:00");
    let mapped = home.repo("mapped");
    mapped.commit("a.txt", "Commit under a configured mailmap", "2026-11-27T11:00:00+09:00");
    mapped.git(&["config", "mailmap.file", "/nonexistent/mailmap"]);
    let dirty = home.repo("dirty");
    dirty.commit("a.txt", "Commit, then more edits", "2026-11-27T12:00:00+09:00");
    fs_err::write(dirty.path.join("a.txt"), "edited after the commit\n").unwrap();
    touch(&dirty.path.join("a.txt"), "2026-11-27T08:00:00Z");

    let (report, calls) = run_logged(&home, "daily");
    // The report is complete whichever way each repository was read.
    assert_eq!(report, report_json(&home, FRIDAY_EVENING, TOKYO, &["daily"]));
    assert_eq!(report["totals"]["commits"], 3, "{report:#}");
    let projects = report["buckets"][0]["projects"].as_array().unwrap();
    let wip = |name: &str| {
        projects
            .iter()
            .find(|project| project["name"] == name)
            .map(|project| project["wip"].clone())
    };
    assert_eq!(wip("dirty").unwrap()["files"], serde_json::json!(["a.txt"]), "{report:#}");
    assert_eq!(wip("plain"), Some(serde_json::Value::Null), "{report:#}");

    let asked = |repo: &Path, what: &str| calls_in(&calls, repo, what) > 0;
    assert!(!asked(&plain.path, " --all"), "plain listed by git:\n{calls}");
    assert!(asked(&mapped.path, " --all"), "mapped not listed by git:\n{calls}");
    assert!(!asked(&plain.path, "status"), "clean work tree asked of git:\n{calls}");
    // A dirty work tree's status is answered in process too (its file is in the report
    // above); the repository left to git is asked by git.
    assert!(!asked(&dirty.path, "status"), "dirty work tree asked of git:\n{calls}");
    assert!(asked(&mapped.path, "status"), "mapped work tree not asked of git:\n{calls}");
    // Line counts: in process for the plain repository's one-block commit, by git where
    // the repository is left to git.
    assert!(!asked(&plain.path, "--numstat"), "plain counted by git:\n{calls}");
    assert!(asked(&mapped.path, "--numstat"), "mapped not counted by git:\n{calls}");
}

/// A repository whose refs a fetch moved in the window (a colleague's older commit, the
/// index older), in which a Claude Code session ran: it is asked for its work in
/// progress once the sessions are joined, its branches ahead among it, and not asked
/// for its branches ahead a second time. Its configured mailmap leaves it to git, whose
/// calls the logging `git` counts.
#[test]
fn a_repository_asked_after_the_join_is_asked_for_its_branches_ahead_once() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let remote = home.path().join("app.git");
    let app = home.repo("app");
    app.git(&["init", "-q", "--bare", remote.to_str().unwrap()]);
    app.git(&["remote", "add", "origin", remote.to_str().unwrap()]);
    app.git(&["config", "mailmap.file", "/nonexistent/mailmap"]);
    app.commit("a.txt", "First cut", "2026-11-20T10:00:00+09:00");
    app.git(&["push", "-q", "-u", "origin", "main"]);
    // A colleague's commit of last week, pushed late: the fetch moves `origin/main` in
    // the window and lists no commit.
    let colleague = home.repo("colleague");
    colleague.git(&["remote", "add", "origin", remote.to_str().unwrap()]);
    colleague.git(&["fetch", "-q", "origin"]);
    colleague.git(&["reset", "-q", "--hard", "origin/main"]);
    colleague.commit_as(
        COLLEAGUE,
        "b.txt",
        "theirs\n",
        "Their change",
        "2026-11-21T10:00:00+09:00",
        "2026-11-21T10:00:00+09:00",
    );
    colleague.git(&["push", "-q", "origin", "HEAD:main"]);
    fs_err::remove_dir_all(&colleague.path).unwrap();
    app.git(&["fetch", "-q", "origin"]);
    // Nothing staged or checked out in the window: the index is of last week.
    touch(&app.path.join(".git/index"), "2026-11-20T09:00:00Z");
    let record = serde_json::json!({
        "type": "user", "uuid": "7d1e0a52-0000-4000-8000-0000000000a1",
        "timestamp": "2026-11-27T01:30:00.000Z",
        "sessionId": "5b7c1d2e-3f40-4a5b-8c6d-7e8f9a0b10a1",
        "cwd": app.path,
        "message": {"role": "user", "content": "Read the colleague's change"}
    });
    home.write(
        ".claude/projects/-x-app/5b7c1d2e-3f40-4a5b-8c6d-7e8f9a0b10a1.jsonl",
        &format!("{record}\n"),
    );

    let (report, calls) = run_logged(&home, "standup");
    assert_eq!(report, report_json(&home, FRIDAY_EVENING, TOKYO, &["standup"]));
    assert_eq!(report["totals"]["commits"], 0, "{report:#}");
    let for_each_ref = calls_in(&calls, &app.path, "for-each-ref");
    // Once, by the work-in-progress read after the join (the listing read it with no
    // commit of the person's there, so it did not look for branches ahead).
    assert_eq!(for_each_ref, 1, "{calls}");
}
