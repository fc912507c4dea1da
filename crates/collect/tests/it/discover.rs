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

/// The work tree git itself finds for `dir` with `GIT_CEILING_DIRECTORIES` set to
/// `ceilings`, or `None` when it finds none.
fn git_toplevel(dir: &Path, home: &Path, ceilings: &str) -> Option<PathBuf> {
    #[expect(clippy::disallowed_methods, reason = "the test asks the real git")]
    let output = std::process::Command::new("git")
        .args(["rev-parse", "--show-toplevel"])
        .current_dir(dir)
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CEILING_DIRECTORIES", ceilings)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .output()
        .unwrap();
    output.status.success().then(|| PathBuf::from(String::from_utf8(output.stdout).unwrap().trim()))
}

#[test]
fn the_repository_of_a_folder_is_the_one_git_finds_under_its_ceilings() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    // A checkout holding a home (as a benchmark home under `target/`), whose `notes` is
    // no repository and whose `src/app` is one.
    let outer = root.join("checkout");
    let home = outer.join("target/bench/home");
    let notes = home.join("notes/2026");
    let app = home.join("src/app");
    let app_sub = app.join("sub");
    for path in [&notes, &app_sub] {
        fs_err::create_dir_all(path).unwrap();
    }
    git(&outer, &root, &["init", "-q", "-b", "main"]);
    git(&app, &root, &["init", "-q", "-b", "main"]);
    // A link to the home's parent, as a ceiling written through a symbolic link.
    let link = root.join("bench-link");
    std::os::unix::fs::symlink(outer.join("target/bench"), &link).unwrap();

    let bench = outer.join("target/bench");
    let cases: Vec<(&Path, String)> = vec![
        (&notes, String::new()),
        (&notes, bench.display().to_string()),
        // A ceiling equal to the folder searched from does not count.
        (&home, home.display().to_string()),
        (&notes, home.display().to_string()),
        // The nearest ceiling above wins, in any order.
        (&notes, format!("{}:{}", outer.display(), bench.display())),
        (&notes, format!("{}:{}", bench.display(), root.display())),
        // Relative entries are ignored; a link is resolved unless an empty entry came first.
        (&notes, "target/bench".to_owned()),
        (&notes, link.display().to_string()),
        (&notes, format!(":{}", link.display())),
        // A repository below the ceiling is found as before.
        (&app_sub, bench.display().to_string()),
        (&app, app.display().to_string()),
        // The root as ceiling: everything below it is still searched.
        (&notes, "/".to_owned()),
    ];
    for (start, ceilings) in cases {
        let env = collect::Env::new(&root).with_var("GIT_CEILING_DIRECTORIES", ceilings.as_str());
        let ours = git::find_repo(start, &git::Ceilings::from_env(&env))
            .unwrap()
            .map(|repo| repo.project.path);
        assert_eq!(
            ours,
            git_toplevel(start, &root, &ceilings),
            "from {} with GIT_CEILING_DIRECTORIES={ceilings:?}",
            start.display()
        );
    }
    // The cases above are not all alike: the checkout is found without a ceiling and
    // hidden by one.
    let unset = git::Ceilings::default();
    assert_eq!(git::find_repo(&notes, &unset).unwrap().map(|repo| repo.project.path), Some(outer));
    let env =
        collect::Env::new(&root).with_var("GIT_CEILING_DIRECTORIES", bench.display().to_string());
    assert_eq!(git::find_repo(&notes, &git::Ceilings::from_env(&env)).unwrap(), None);
}
