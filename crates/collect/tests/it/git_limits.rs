//! `git::read_commits` at the limits of time: a `since` at the first or last instant
//! jiff can hold reads (or skips) a real repository without overflowing.

use std::path::Path;

use collect::git::{self, GitConfig, Identity, ReadOptions};
use jiff::Timestamp;

/// Runs git in `dir` with a pinned identity and clock (shared with `discover`).
pub(crate) fn git(dir: &Path, home: &Path, args: &[&str]) {
    #[expect(clippy::disallowed_methods, reason = "the test builds a real repository")]
    let status = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Me")
        .env("GIT_AUTHOR_EMAIL", "me@example.com")
        .env("GIT_COMMITTER_NAME", "Me")
        .env("GIT_COMMITTER_EMAIL", "me@example.com")
        .env("GIT_AUTHOR_DATE", "2026-11-27T10:00:00+09:00")
        .env("GIT_COMMITTER_DATE", "2026-11-27T10:00:00+09:00")
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

#[test]
fn since_at_the_ends_of_time_does_not_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().canonicalize().unwrap();
    let repo = home.join("src/app");
    fs_err::create_dir_all(&repo).unwrap();
    git(&repo, &home, &["init", "-q", "-b", "main"]);
    git(&repo, &home, &["commit", "-q", "--allow-empty", "-m", "first"]);

    let env = collect::Env::new(&home);
    let config = GitConfig { roots: Some(vec![home.join("src")]), ..GitConfig::default() };
    let (repos, warnings) = git::discover(&env, &config, &[]);
    assert_eq!((repos.len(), warnings.len()), (1, 0), "{warnings:?}");
    let identity = Identity::default();
    let read = |since| {
        git::read_commits(
            &env,
            &repos,
            &ReadOptions {
                identity: &identity,
                since,
                include_merges: false,
                workers: 2,
                timeout: git::DEFAULT_TIMEOUT,
                outside: None,
            },
        )
    };
    // The 24-hour margin before `since` once overflowed here.
    let all = read(Timestamp::MIN);
    assert!(all.warnings.is_empty(), "{:?}", all.warnings);
    assert_eq!(all.events.len(), 1);
    assert_eq!(all.events[0].commit.subject, "first");
    let none = read(Timestamp::MAX);
    assert!(none.events.is_empty() && none.warnings.is_empty(), "{:?}", none.warnings);
}
