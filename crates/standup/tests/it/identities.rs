//! Whose commits count, per repository: identities from `includeIf`-included and
//! repository-local git configuration, `.mailmap`, and `doctor`'s explanation of the
//! commits it left out. Also the default roots the repositories are searched in.

use crate::support::{COLLEAGUE, Home, ME, Who, subjects_by_bucket};

const TOKYO: &str = "Asia/Tokyo";
/// Friday 2026-11-27, 18:00 in Tokyo.
const FRIDAY_EVENING: &str = "2026-11-27T18:00:00+09:00";
const FRIDAY_10: &str = "2026-11-27T10:00:00+09:00";

fn subjects_in(home: &Home, cwd: &std::path::Path) -> Vec<String> {
    let run = home.run_in(cwd, FRIDAY_EVENING, TOKYO, &["daily", "--format", "json", "--no-llm"]);
    subjects_by_bucket(&serde_json::from_str(run.success()).unwrap()).swap_remove(0)
}

/// A global identity for home, and a work one for repositories under `~/src/corp/`.
fn home_with_work_identity() -> Home {
    let home = Home::new();
    home.write(
        ".gitconfig",
        "[user]\n\temail = me@example.com\n\tname = Me\n[includeIf \"gitdir:~/src/corp/\"]\n\tpath = ~/.gitconfig-corp\n",
    );
    home.write(".gitconfig-corp", "[user]\n\temail = me@corp.example\n\tname = Me at Corp\n");
    home
}

const AT_CORP: Who<'static> = Who { email: "me@corp.example", name: "Me at Corp" };

#[test]
fn an_include_if_work_identity_counts_inside_and_outside_the_repository() {
    let home = home_with_work_identity();
    let corp = home.repo("corp/app");
    corp.commit_as(AT_CORP, "a", "x", "corp work", FRIDAY_10, FRIDAY_10);
    corp.commit_as(COLLEAGUE, "b", "y", "colleague's", FRIDAY_10, FRIDAY_10);
    // The work e-mail counts only where the include applies.
    let personal = home.repo("personal");
    personal.commit_as(AT_CORP, "a", "x", "not under corp", FRIDAY_10, FRIDAY_10);
    assert_eq!(subjects_in(&home, home.path()), ["corp work"]);
    assert_eq!(subjects_in(&home, &corp.path), ["corp work"]);
}

#[test]
fn a_repository_local_user_email_counts_there() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let side = home.repo("side");
    side.git(&["config", "user.email", "me@side.example"]);
    side.git(&["config", "user.name", "Side Me"]);
    let me_there = Who { email: "me@side.example", name: "Side Me" };
    side.commit_as(me_there, "a", "x", "side project", FRIDAY_10, FRIDAY_10);
    side.commit("b", "global me", "2026-11-27T11:00:00+09:00");
    assert_eq!(subjects_in(&home, home.path()), ["global me", "side project"]);
}

#[test]
fn the_mailmap_maps_an_old_email_to_mine() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    let old = Who { email: "me@old-job.example", name: "Old Name" };
    repo.commit_as(old, "a", "x", "under the old address", FRIDAY_10, FRIDAY_10);
    repo.commit_as(COLLEAGUE, "b", "y", "colleague's", FRIDAY_10, FRIDAY_10);
    fs_err::write(repo.path.join(".mailmap"), "Me <me@example.com> <me@old-job.example>\n")
        .unwrap();
    assert_eq!(subjects_in(&home, home.path()), ["under the old address"]);
}

#[test]
fn doctor_explains_the_commits_it_left_out_and_the_identities_of_repositories() {
    let home = home_with_work_identity();
    let corp = home.repo("corp/app");
    corp.commit_as(AT_CORP, "a", "x", "corp work", FRIDAY_10, FRIDAY_10);
    let shared = home.repo("shared");
    let other = Who { email: "Other@Example.com", name: "Other" };
    shared.commit_as(COLLEAGUE, "a", "x", "one", FRIDAY_10, FRIDAY_10);
    shared.commit_as(other, "b", "y", "two", FRIDAY_10, FRIDAY_10);
    shared.commit_as(COLLEAGUE, "c", "z", "three", FRIDAY_10, FRIDAY_10);
    // Yesterday's commit by a colleague is not today's.
    shared.commit_as(
        COLLEAGUE,
        "d",
        "w",
        "thursday",
        "2026-11-26T10:00:00+09:00",
        "2026-11-26T10:00:00+09:00",
    );
    let run = home.run(FRIDAY_EVENING, TOKYO, &["doctor"]);
    let out = run.success();
    assert!(out.contains("git: found · 2 repositories · 1 commit today"), "{out}");
    assert!(
        out.contains(
            "  identities of their own (counted there as yours):\n    [HOME]/src/corp/app: me@corp.example, Me at Corp\n"
        ),
        "{out}"
    );
    assert!(!out.contains("[HOME]/src/shared:"), "{out}");
    assert!(
        out.contains(
            "  left out: 3 commits today by other authors: colleague@example.com (2), other@example.com (1)\n"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "  if some are yours, add to the config: [identity] emails = [\"colleague@example.com\", \"other@example.com\"]\n"
        ),
        "{out}"
    );
}

#[test]
fn the_new_default_roots_are_searched() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    fs_err::remove_dir_all(home.path().join("src")).unwrap();
    for (folder, subject) in [
        ("workspace/a", "in workspace"),
        ("Developer/b", "in Developer"),
        ("github/c", "in github"),
        ("source/repos/d", "in source/repos"),
    ] {
        let path = home.path().join(folder);
        fs_err::create_dir_all(&path).unwrap();
        let repo = home.repo_handle(&path);
        repo.git(&["init", "-q", "-b", "main"]);
        repo.commit("f", subject, FRIDAY_10);
    }
    let mut subjects = subjects_in(&home, home.path());
    subjects.sort();
    assert_eq!(subjects, ["in Developer", "in github", "in source/repos", "in workspace"]);
}

#[test]
fn doctor_without_any_root_says_where_it_looked_and_what_to_add() {
    let home = Home::new();
    fs_err::remove_dir_all(home.path().join("src")).unwrap();
    let run = home.run(FRIDAY_EVENING, TOKYO, &["doctor"]);
    let out = run.success();
    assert!(
        out.contains(
            "git: not found\n  no repository root exists; tried: ~/src, ~/code, ~/projects, ~/dev, ~/work, ~/repos, ~/git, ~/workspace, ~/Developer, ~/github, ~/source/repos\n  to search the folder that holds your repositories, add to the config: [git] roots = [\"~/path\"]\n"
        ),
        "{out}"
    );
    // With a root present, nothing of the kind is said.
    fs_err::create_dir_all(home.path().join("github")).unwrap();
    let run = home.run(FRIDAY_EVENING, TOKYO, &["doctor"]);
    assert!(!run.success().contains("no repository root exists"), "{}", run.stdout);
}

#[test]
fn the_mailmap_of_the_folder_standup_runs_from_applies_to_no_other_repository() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit_as(COLLEAGUE, "a", "x", "colleague's", FRIDAY_10, FRIDAY_10);
    // Run from a folder whose .mailmap would map the colleague to me.
    let elsewhere = home.path().join("notes");
    fs_err::create_dir_all(&elsewhere).unwrap();
    fs_err::write(elsewhere.join(".mailmap"), "Me <me@example.com> <colleague@example.com>\n")
        .unwrap();
    assert!(subjects_in(&home, &elsewhere).is_empty());
}
