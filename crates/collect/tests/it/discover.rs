//! `git::discover` over a real tree of repositories: what the walk's listings tell
//! (a `.git` folder, none, a link, a file) gives the same repositories as asking each
//! folder with `stat`.

use std::path::{Path, PathBuf};

use collect::git::{self, GitConfig};

use crate::git_limits::git;

/// The repositories found, as (work tree, git dir) relative to `home`.
fn found(home: &Path, max_depth: usize) -> Vec<(PathBuf, PathBuf)> {
    let env = collect::Env::new(home);
    let config =
        GitConfig { roots: Some(vec![home.join("src")]), max_depth, ..GitConfig::default() };
    let (repos, warnings) = git::discover(&env, &config, &[]);
    assert!(warnings.is_empty(), "{warnings:#?}");
    let relative = |path: &Path| path.strip_prefix(home).unwrap().to_path_buf();
    repos.iter().map(|repo| (relative(&repo.project.path), relative(&repo.git_dir))).collect()
}

#[test]
fn every_kind_of_dot_git_is_found_at_every_depth() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().canonicalize().unwrap();
    let init = |relative: &str| {
        let path = home.join(relative);
        fs_err::create_dir_all(&path).unwrap();
        git(&path, &home, &["init", "-q", "-b", "main"]);
        path
    };
    // A `.git` folder one level down (listed) and three levels down (asked by `stat`).
    init("src/plain");
    init("src/org/team/deep");
    // A folder without `.git` holding a repository below it.
    init("src/org/nested");
    // A `.git` that is a link to a git dir outside the roots (taken as it is reached).
    let elsewhere = init("gitdirs/linked");
    let linked = home.join("src/linked");
    fs_err::create_dir_all(&linked).unwrap();
    std::os::unix::fs::symlink(elsewhere.join(".git"), linked.join(".git")).unwrap();
    // A `.git` file naming its git dir, as a submodule's does.
    let other = init("gitdirs/by-file");
    let by_file = home.join("src/org/by-file");
    fs_err::create_dir_all(&by_file).unwrap();
    fs_err::write(by_file.join(".git"), format!("gitdir: {}\n", other.join(".git").display()))
        .unwrap();

    let expected = |pairs: &[(&str, &str)]| -> Vec<(PathBuf, PathBuf)> {
        let mut pairs: Vec<(PathBuf, PathBuf)> =
            pairs.iter().map(|(tree, git_dir)| (tree.into(), git_dir.into())).collect();
        pairs.sort_by(|a, b| a.1.cmp(&b.1));
        pairs
    };
    assert_eq!(
        found(&home, 3),
        expected(&[
            ("src/plain", "src/plain/.git"),
            ("src/org/team/deep", "src/org/team/deep/.git"),
            ("src/org/nested", "src/org/nested/.git"),
            ("src/linked", "src/linked/.git"),
            ("src/org/by-file", "gitdirs/by-file/.git"),
        ])
    );
    // Two levels: the deep one is out of reach, the others are now asked by `stat`
    // (the folders at the last level are not listed).
    assert_eq!(
        found(&home, 2),
        expected(&[
            ("src/plain", "src/plain/.git"),
            ("src/org/nested", "src/org/nested/.git"),
            ("src/linked", "src/linked/.git"),
            ("src/org/by-file", "gitdirs/by-file/.git"),
        ])
    );
}
