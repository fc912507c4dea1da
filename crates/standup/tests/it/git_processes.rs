//! Which repositories cost a git process: the in-process reader lists commits, counts
//! lines where git's counts are forced and checks clean work trees, and git is asked only
//! where the reader cannot tell (here: a repository whose configuration names a mailmap
//! file, and a work tree with a file modified in the window). A `git` first on `PATH` logs each call, then runs the real
//! git, so the report is the real one.

use std::path::Path;

use crate::support::{Home, report_json};

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
    let when: jiff::Timestamp = "2026-11-27T08:00:00Z".parse().unwrap();
    fs_err::File::options()
        .append(true)
        .open(dirty.path.join("a.txt"))
        .unwrap()
        .set_modified(std::time::SystemTime::from(when))
        .unwrap();

    let bin = home.path().join(".test-bin");
    let log = home.path().join("git-calls.log");
    logging_git(&bin, &log);
    let path = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let mut command = home.command(
        home.path(),
        FRIDAY_EVENING,
        TOKYO,
        &["daily", "--format", "json", "--no-llm"],
    );
    command.env("PATH", path);
    let run = home.run_command(&mut command);
    let report: serde_json::Value = serde_json::from_str(run.success()).unwrap();
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

    let calls = fs_err::read_to_string(&log).unwrap();
    let asked = |repo: &Path, what: &str| {
        calls.lines().any(|line| {
            line.split_once('\t')
                .is_some_and(|(cwd, args)| Path::new(cwd) == repo && args.contains(what))
        })
    };
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
