//! Work in progress (uncommitted files modified in the window, stashes, unpushed
//! commits) and the branches holding each commit, through the real binary on real
//! repositories.

use std::path::Path;

use crate::support::{Home, ME, Repo, touch};

const TOKYO: &str = "Asia/Tokyo";
/// Friday 2026-11-27, 18:00 in Tokyo.
const FRIDAY_EVENING: &str = "2026-11-27T18:00:00+09:00";

fn run_json(home: &Home, args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json", "--no-llm"]);
    serde_json::from_str(home.run(FRIDAY_EVENING, TOKYO, &all).success()).unwrap()
}

fn markdown(home: &Home, lang: &str) -> String {
    home.run(FRIDAY_EVENING, TOKYO, &["daily", "--no-llm", "--lang", lang]).success().to_owned()
}

fn write_at(repo: &Repo, file: &str, text: &str, when: &str) {
    let path = repo.path.join(file);
    fs_err::create_dir_all(path.parent().unwrap()).unwrap();
    fs_err::write(&path, text).unwrap();
    touch(&path, when);
}

fn project<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["buckets"][0]["projects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|project| project["name"] == name)
        .unwrap_or_else(|| panic!("no project {name} in {report:#}"))
}

#[test]
fn uncommitted_files_modified_in_the_window_are_in_progress() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit("a.txt", "start", "2026-11-26T10:00:00+09:00");
    repo.commit_as(
        ME,
        "src/f.txt",
        "v1\n",
        "friday work",
        "2026-11-27T10:00:00+09:00",
        "2026-11-27T10:00:00+09:00",
    );
    write_at(&repo, "src/f.txt", "v2\n", "2026-11-27T15:00:00+09:00");
    // Modified before the window: not today's work.
    write_at(&repo, "a.txt", "changed thursday\n", "2026-11-26T15:00:00+09:00");
    write_at(&repo, "draft-notes.md", "notes\n", "2026-11-27T16:00:00+09:00");

    let report = run_json(&home, &["daily"]);
    let wip = &project(&report, "app")["wip"];
    assert_eq!(wip["files"], serde_json::json!(["draft-notes.md", "src/f.txt"]), "{wip:#}");
    assert_eq!(wip["unpushed_commits"], 0, "no remote: nothing to push to");
    assert!(
        markdown(&home, "en")
            .contains("- In progress: 2 files not committed (draft-notes.md, src/f.txt)\n"),
        "{}",
        markdown(&home, "en")
    );
    assert!(
        markdown(&home, "ja")
            .contains("- 作業中: 未コミット2ファイル（draft-notes.md、src/f.txt）\n"),
        "{}",
        markdown(&home, "ja")
    );
    // Thursday's report shows Thursday's change only.
    let thursday = run_json(&home, &["daily", "--date", "2026-11-26"]);
    assert_eq!(project(&thursday, "app")["wip"]["files"], serde_json::json!(["a.txt"]));
}

/// git's global ignore and attributes files in their default place
/// (`~/.config/git/ignore`, `~/.config/git/attributes`) change what `git status`
/// reports, and no configuration key names them: the answer is still git's, a log file
/// they ignore not listed and a file whose `ident` keyword they collapse not modified.
#[test]
fn the_global_ignore_and_attributes_files_are_obeyed() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    // Committed with `ident` on: the blob holds `$Id$`, the index the file's own size.
    home.write(".config/git/attributes", "*.txt ident\n");
    let repo = home.repo("app");
    let thursday = "2026-11-26T10:00:00+09:00";
    repo.commit_as(ME, "id.txt", "$Id: 1111 $\n", "keyword", thursday, thursday);
    repo.commit_as(
        ME,
        "a.txt",
        "v1\n",
        "friday work",
        "2026-11-27T10:00:00+09:00",
        "2026-11-27T10:00:00+09:00",
    );
    write_at(&repo, "debug.log", "noise\n", "2026-11-27T15:00:00+09:00");
    write_at(&repo, "notes.md", "notes\n", "2026-11-27T15:00:00+09:00");
    // Another expansion of the keyword, of the same size: git collapses it before
    // comparing, so the file is not modified.
    write_at(&repo, "id.txt", "$Id: 2222 $\n", "2026-11-27T15:30:00+09:00");
    let files = |home: &Home| project(&run_json(home, &["daily"]), "app")["wip"]["files"].clone();
    assert_eq!(files(&home), serde_json::json!(["debug.log", "notes.md"]), "the attributes file");
    home.write(".config/git/ignore", "*.log\n");
    assert_eq!(files(&home), serde_json::json!(["notes.md"]), "the ignore file");
    fs_err::remove_file(home.path().join(".config/git/attributes")).unwrap();
    // Without it the keyword is compared as written: the file is modified.
    assert_eq!(files(&home), serde_json::json!(["id.txt", "notes.md"]), "the ignore file alone");
}

/// A repository `quiet` whose one commit is from October, with `b.txt` written in the
/// window and staged. Staging rewrites the index: the cheap sign that the work tree was
/// worked on.
fn quiet_repo_with_staged_work() -> (Home, Repo) {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("quiet");
    repo.commit("a.txt", "long ago", "2026-10-01T10:00:00+09:00");
    write_at(&repo, "b.txt", "new\n", "2026-11-27T11:00:00+09:00");
    repo.git(&["add", "b.txt"]);
    (home, repo)
}

#[test]
fn a_repository_with_only_uncommitted_work_shows_it() {
    let (home, _repo) = quiet_repo_with_staged_work();
    let report = run_json(&home, &["daily"]);
    let quiet = project(&report, "quiet");
    assert_eq!(quiet["totals"]["commits"], 0);
    assert_eq!(quiet["wip"]["files"], serde_json::json!(["b.txt"]));
}

#[test]
fn a_repository_skipped_for_its_refs_still_shows_work_staged_in_the_window() {
    let (home, repo) = quiet_repo_with_staged_work();
    // Every ref, reflog and folder of the git dir dates from October, so the skip check
    // leaves the repository unread; only the index moved in the window.
    let git_dir = repo.path.join(".git");
    age_except(&git_dir, &git_dir.join("index"), "2026-10-01T10:00:00+09:00");
    touch(&git_dir.join("index"), "2026-11-27T11:00:05+09:00");
    let report = run_json(&home, &["daily"]);
    assert_eq!(project(&report, "quiet")["wip"]["files"], serde_json::json!(["b.txt"]));
    // With the index old too, nothing says the work tree was worked on.
    touch(&git_dir.join("index"), "2026-10-01T10:00:00+09:00");
    let report = run_json(&home, &["daily"]);
    assert!(report["buckets"][0]["projects"].as_array().unwrap().is_empty(), "{report:#}");
}

/// Sets the time of every file and folder under `dir` (and `dir`) but `keep`.
fn age_except(dir: &Path, keep: &Path, when: &str) {
    for entry in fs_err::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            age_except(&path, keep, when);
        } else if path != keep {
            touch(&path, when);
        }
    }
    let time: jiff::Timestamp = when.parse().unwrap();
    fs_err::File::open(dir).unwrap().set_modified(std::time::SystemTime::from(time)).unwrap();
}

#[test]
fn a_stash_made_in_the_window_is_in_progress() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit("a", "real work", "2026-11-27T10:00:00+09:00");
    fs_err::write(repo.path.join("a"), "uncommitted\n").unwrap();
    let output = repo
        .git_command(&["stash", "push", "-q", "-m", "half-done parser"])
        .env("GIT_COMMITTER_DATE", "2026-11-27T11:00:00+09:00")
        .output()
        .unwrap();
    assert!(output.status.success());
    let report = run_json(&home, &["daily"]);
    assert_eq!(
        project(&report, "app")["wip"]["stashes"],
        serde_json::json!(["On main: half-done parser"])
    );
    assert!(markdown(&home, "en").contains("- In progress: 1 stash\n"));
    assert!(markdown(&home, "ja").contains("- 作業中: スタッシュ1件\n"));
    // Not on the day before.
    let thursday = run_json(&home, &["daily", "--date", "2026-11-26"]);
    assert!(thursday["buckets"][0]["projects"].as_array().unwrap().is_empty());
}

/// A repository the person neither committed in nor ran a session or command in over
/// the standup's days, but left work in: a stash, or a file changed and staged. Its
/// branches ahead are looked for then (an old branch is news where work was left), and
/// not where nothing was left.
#[test]
fn branches_ahead_are_looked_for_where_work_was_left_open_without_a_commit() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let remote = home.path().join("lib.git");
    let repo = home.repo("lib");
    repo.git(&["init", "-q", "--bare", remote.to_str().unwrap()]);
    repo.git(&["remote", "add", "origin", remote.to_str().unwrap()]);
    repo.commit("a.rs", "lib: first cut", "2026-11-20T10:00:00+09:00");
    repo.git(&["push", "-q", "-u", "origin", "main"]);
    repo.git(&["checkout", "-q", "-b", "feature/x"]);
    repo.commit("x.rs", "lib: parse the header", "2026-11-20T14:00:00+09:00");
    repo.git(&["checkout", "-q", "main"]);
    let next = |home: &Home| {
        let run = home.run("2026-11-30T09:00:00+09:00", TOKYO, &["standup", "--no-llm"]);
        let text = run.success().to_owned();
        text.lines()
            .filter(|line| line.starts_with("- lib — "))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    let branch = "- lib — branch `feature/x`: 1 commit not pushed (latest 2026-11-20 (Fri))";
    assert_eq!(next(&home), Vec::<String>::new(), "nothing left open: not looked for");
    // A stash made on Friday, nothing else.
    fs_err::write(repo.path.join("a.rs"), "half done\n").unwrap();
    let stash = repo
        .git_command(&["stash", "push", "-q", "-m", "half-done parser"])
        .env("GIT_COMMITTER_DATE", "2026-11-27T11:00:00+09:00")
        .output()
        .unwrap();
    assert!(stash.status.success());
    assert_eq!(next(&home), ["- lib — left open: 1 stash", branch]);
    // A file changed and staged on Saturday, no stash.
    repo.git(&["stash", "drop", "-q"]);
    write_at(&repo, "a.rs", "changed\n", "2026-11-28T10:00:00+09:00");
    repo.git(&["add", "a.rs"]);
    assert_eq!(next(&home), ["- lib — left open: 1 file not committed", branch]);
}

/// A work tree whose index git cannot read: the commits are still reported, and the
/// warning gives git's own first words.
#[test]
fn a_work_tree_git_cannot_read_is_a_warning_in_git_s_words() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit("a.txt", "friday work", "2026-11-27T10:00:00+09:00");
    fs_err::write(repo.path.join(".git/index"), b"not an index at all, twelve+ bytes").unwrap();
    let report = run_json(&home, &["daily"]);
    assert_eq!(project(&report, "app")["commits"][0]["subject"], "friday work");
    let warnings: Vec<&str> = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|warning| warning["code"] == "git_failed")
        .filter_map(|warning| warning["message"].as_str())
        .collect();
    assert_eq!(
        warnings,
        [
            "git: cannot check `[HOME]/src/app` for work in progress: error: bad signature 0x20746f6e"
        ],
        "{report:#}"
    );
}

#[test]
fn commits_no_remote_tracking_branch_holds_are_not_pushed() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let remote = home.path().join("remote.git");
    let repo = home.repo("app");
    repo.git(&["init", "-q", "--bare", remote.to_str().unwrap()]);
    repo.git(&["remote", "add", "origin", remote.to_str().unwrap()]);
    let pushed = repo.commit("a", "pushed", "2026-11-27T09:00:00+09:00");
    repo.git(&["push", "-q", "origin", "main"]);
    repo.commit("b", "local one", "2026-11-27T10:00:00+09:00");
    repo.commit("c", "local two", "2026-11-27T11:00:00+09:00");

    let report = run_json(&home, &["daily"]);
    let app = project(&report, "app");
    assert_eq!(app["wip"]["unpushed_commits"], 2, "{app:#}");
    let commits = app["commits"].as_array().unwrap();
    let flags: Vec<(&str, bool)> = commits
        .iter()
        .map(|commit| (commit["subject"].as_str().unwrap(), commit["unpushed"] == true))
        .collect();
    assert_eq!(flags, [("local two", true), ("local one", true), ("pushed", false)]);
    let first = commits.iter().find(|commit| commit["hash"] == pushed.as_str()).unwrap();
    assert_eq!(first["branches"], serde_json::json!(["main"]));
    assert_eq!(first["remote_branches"], serde_json::json!(["origin/main"]));
    assert!(markdown(&home, "en").contains("- In progress: 2 commits not pushed\n"));
    assert!(markdown(&home, "ja").contains("- 作業中: 未プッシュ2コミット\n"));

    repo.git(&["push", "-q", "origin", "main"]);
    let report = run_json(&home, &["daily"]);
    assert!(project(&report, "app").get("wip").is_none(), "{report:#}");
}

#[test]
fn commits_on_more_than_one_branch_are_labelled_by_branch() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("billing");
    repo.commit("a", "base", "2026-11-27T09:00:00+09:00");
    repo.git(&["checkout", "-q", "-b", "feature/postal-codes"]);
    repo.commit("b", "postal codes: parse", "2026-11-27T10:00:00+09:00");
    repo.commit("b2", "postal codes: format", "2026-11-27T10:30:00+09:00");
    repo.git(&["checkout", "-q", "main"]);
    repo.commit("c", "fix rounding", "2026-11-27T11:00:00+09:00");
    // A Claude Code session on the feature branch, as its records say.
    let record = serde_json::json!({
        "type": "user", "uuid": "7d1e0a52-0000-4000-8000-000000000001",
        "timestamp": "2026-11-27T01:30:00.000Z",
        "sessionId": "5b7c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d",
        "cwd": repo.path, "gitBranch": "feature/postal-codes",
        "message": {"role": "user", "content": "Add postal code parsing"}
    });
    home.write(
        ".claude/projects/-x-billing/5b7c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d.jsonl",
        &format!("{record}\n"),
    );
    // A single-branch project is not labelled.
    let solo = home.repo("solo");
    solo.commit("a", "solo work", "2026-11-27T12:00:00+09:00");

    let en = markdown(&home, "en");
    assert!(en.contains("- fix rounding (+1 −0, 1 file) · on `main`\n"), "{en}");
    assert!(
        en.contains("- postal codes: parse (+1 −0, 1 file) · on `feature/postal-codes`\n"),
        "{en}"
    );
    // In both branches, shown on the narrower one (main holds 2 of the 4, the feature 3).
    assert!(en.contains("- base (+1 −0, 1 file) · on `main`\n"), "{en}");
    assert!(en.contains("- solo work (+1 −0, 1 file)\n"), "{en}");
    assert!(
        en.contains(
            "- AI: Claude Code `Add postal code parsing` (1 prompt) · on `feature/postal-codes`\n"
        ),
        "{en}"
    );
    let ja = markdown(&home, "ja");
    assert!(
        ja.contains("- postal codes: parse（+1 −0、1ファイル）・ブランチ `feature/postal-codes`\n"),
        "{ja}"
    );
    let report = run_json(&home, &["daily"]);
    let branches: Vec<&serde_json::Value> = project(&report, "billing")["commits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|commit| &commit["branches"])
        .collect();
    assert_eq!(
        branches,
        [
            &serde_json::json!(["main"]),
            &serde_json::json!(["feature/postal-codes"]),
            &serde_json::json!(["feature/postal-codes"]),
            &serde_json::json!(["feature/postal-codes", "main"]),
        ]
    );
}

#[test]
fn sessions_keep_the_branch_their_agent_recorded() {
    let home = crate::full_home::full_home();
    let run = home.run(crate::full_home::NOW, TOKYO, &["daily", "--no-llm", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(run.success()).unwrap();
    let mut branches: Vec<(String, String)> = report["buckets"][0]["projects"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|project| project["sessions"].as_array().unwrap().iter())
        .filter_map(|session| {
            Some((session["agent"].as_str()?.to_owned(), session["branch"].as_str()?.to_owned()))
        })
        .collect();
    branches.sort();
    // Claude Code's `gitBranch`, Codex's `session_meta.payload.git.branch`.
    assert_eq!(
        branches,
        [("claude_code".to_owned(), "main".to_owned()), ("codex".to_owned(), "main".to_owned())]
    );
}

#[test]
fn uncommitted_files_of_a_linked_worktree_are_in_progress_of_its_repository() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit("a.txt", "on main", "2026-11-27T09:00:00+09:00");
    let worktree = home.path().join("src/app-feature");
    repo.git(&["worktree", "add", "-q", "-b", "feature", worktree.to_str().unwrap()]);
    let linked = home.repo_handle(&worktree);
    write_at(&linked, "a.txt", "changed in the worktree\n", "2026-11-27T14:00:00+09:00");
    let report = run_json(&home, &["daily"]);
    assert_eq!(
        project(&report, "app")["wip"]["files"],
        serde_json::json!(["app-feature:a.txt"]),
        "{report:#}"
    );
}

#[test]
fn a_stash_of_a_reftable_repository_is_in_progress() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.reftable_repo("tables");
    repo.commit("a", "work", "2026-11-27T10:00:00+09:00");
    fs_err::write(repo.path.join("a"), "uncommitted\n").unwrap();
    let output = repo
        .git_command(&["stash", "push", "-q", "-m", "in a reftable"])
        .env("GIT_COMMITTER_DATE", "2026-11-27T11:00:00+09:00")
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(!repo.path.join(".git/logs/refs/stash").exists());
    let report = run_json(&home, &["daily"]);
    assert_eq!(
        project(&report, "tables")["wip"]["stashes"],
        serde_json::json!(["On main: in a reftable"]),
        "{report:#}"
    );
}

#[test]
fn work_in_progress_is_not_counted_in_the_time_spent() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit("a.txt", "one commit", "2026-11-27T10:00:00+09:00");
    write_at(&repo, "a.txt", "edited later\n", "2026-11-27T15:00:00+09:00");
    let report = run_json(&home, &["daily"]);
    let app = project(&report, "app");
    assert_eq!(app["wip"]["files"], serde_json::json!(["a.txt"]));
    // One lone commit: one span of the minimum length; the edit is no moment of its own.
    assert_eq!(app["time_spent"]["spans"].as_array().unwrap().len(), 1, "{app:#}");
    assert_eq!(app["time_spent"]["minutes"], 10);
    // It still places the project: its latest activity is the edit.
    assert_eq!(app["last_activity"], "2026-11-27T06:00:00Z");
}

#[test]
fn a_rebase_or_merge_stopped_midway_is_in_progress_and_left_open() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    // A rebase of `topic` onto `main` stopped at a conflict in f.txt.
    let repo = home.repo("app");
    repo.commit("f.txt", "base", "2026-11-26T10:00:00+09:00");
    repo.git(&["checkout", "-q", "-b", "topic"]);
    repo.commit_as(
        ME,
        "f.txt",
        "topic\n",
        "topic change",
        "2026-11-27T09:00:00+09:00",
        "2026-11-27T09:00:00+09:00",
    );
    repo.git(&["checkout", "-q", "main"]);
    repo.commit_as(
        ME,
        "f.txt",
        "main\n",
        "main change",
        "2026-11-27T09:30:00+09:00",
        "2026-11-27T09:30:00+09:00",
    );
    repo.git(&["checkout", "-q", "topic"]);
    let rebase = repo.git_command(&["rebase", "main"]).output().unwrap();
    assert!(!rebase.status.success(), "the rebase stops at the conflict");
    touch(&repo.path.join(".git/rebase-merge"), "2026-11-27T10:00:00+09:00");
    touch(&repo.path.join("f.txt"), "2026-11-27T10:00:00+09:00");
    // A merge stopped before its commit (`--no-commit`), nothing to resolve.
    let other = home.repo("web");
    other.commit("a.txt", "base", "2026-11-26T10:00:00+09:00");
    other.git(&["checkout", "-q", "-b", "feature"]);
    other.commit("b.txt", "feature work", "2026-11-27T11:00:00+09:00");
    other.git(&["checkout", "-q", "main"]);
    other.commit("c.txt", "main work", "2026-11-27T11:30:00+09:00");
    other.git(&["merge", "-q", "--no-ff", "--no-commit", "feature"]);
    // Written at a fraction of a second: the report says the second.
    touch(&other.path.join(".git/MERGE_HEAD"), "2026-11-27T12:00:00.75+09:00");

    let report = run_json(&home, &["daily"]);
    let stopped = &project(&report, "app")["wip"]["stopped"];
    assert_eq!(
        stopped,
        &serde_json::json!({"operation": "rebase", "conflicts": 1, "since": "2026-11-27T01:00:00Z"})
    );
    assert_eq!(
        project(&report, "web")["wip"]["stopped"],
        serde_json::json!({"operation": "merge", "since": "2026-11-27T03:00:00Z"})
    );
    let en = markdown(&home, "en");
    assert!(
        en.contains("- In progress: a rebase stopped with 1 conflict to resolve · 1 file not committed (f.txt)\n"),
        "{en}"
    );
    assert!(
        en.contains("- In progress: a merge stopped, waiting for `git merge --continue`"),
        "{en}"
    );
    let ja = markdown(&home, "ja");
    assert!(
        ja.contains(
            "- 作業中: リベースが中断（未解決のコンフリクト1件）・未コミット1ファイル（f.txt）\n"
        ),
        "{ja}"
    );
    // Monday's standup carries it as work left open, whenever it stopped.
    let monday = home.run("2026-11-30T09:00:00+09:00", TOKYO, &["standup", "--no-llm"]);
    let monday = monday.success();
    assert!(
        monday.contains(
            "- app — a rebase stopped with 1 conflict to resolve (since 2026-11-27 (Fri))\n"
        ),
        "{monday}"
    );
    // Aborted: nothing stopped any more.
    repo.git(&["rebase", "--abort"]);
    let report = run_json(&home, &["daily"]);
    let app = report["buckets"][0]["projects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|project| project["name"] == "app")
        .cloned()
        .unwrap_or_default();
    assert!(app["wip"]["stopped"].is_null(), "{app:#}");
}

/// A rebase stopped in a linked worktree (`git worktree add`, as people and agents use
/// them for a second task) keeps its state under `.git/worktrees/<name>/`: it is read
/// there and named by the worktree's folder; the main work tree's own goes first.
#[test]
fn a_rebase_stopped_in_a_linked_worktree_is_named_by_it() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit("f.txt", "base", "2026-11-26T10:00:00+09:00");
    let folder = home.path().join("src/app-fix");
    repo.git(&["worktree", "add", "-q", "-b", "fix", folder.to_str().unwrap()]);
    let linked = home.repo_handle(&folder);
    linked.commit("f.txt", "fix change", "2026-11-27T09:00:00+09:00");
    repo.commit("f.txt", "main change", "2026-11-27T09:30:00+09:00");
    let rebase = linked.git_command(&["rebase", "main"]).output().unwrap();
    assert!(!rebase.status.success(), "the rebase stops at the conflict");
    let admin = repo.path.join(".git/worktrees/app-fix");
    assert!(admin.join("rebase-merge").is_dir(), "git keeps the worktree's state there");
    touch(&admin.join("rebase-merge"), "2026-11-27T10:00:00+09:00");
    touch(&folder.join("f.txt"), "2026-11-27T10:00:00+09:00");

    let report = run_json(&home, &["daily"]);
    assert_eq!(
        project(&report, "app")["wip"]["stopped"],
        serde_json::json!({
            "operation": "rebase",
            "conflicts": 1,
            "since": "2026-11-27T01:00:00Z",
            "worktree": "app-fix"
        })
    );
    let en = markdown(&home, "en");
    assert!(
        en.contains(
            "- In progress: a rebase stopped in `app-fix` with 1 conflict to resolve · 1 file not committed (app-fix:f.txt)\n"
        ),
        "{en}"
    );
    let ja = markdown(&home, "ja");
    assert!(
        ja.contains("- 作業中: `app-fix`でリベースが中断（未解決のコンフリクト1件）・"),
        "{ja}"
    );
    let monday = home.run("2026-11-30T09:00:00+09:00", TOKYO, &["standup", "--no-llm"]);
    let monday = monday.success();
    assert!(
        monday.contains(
            "- app — a rebase stopped in `app-fix` with 1 conflict to resolve (since 2026-11-27 (Fri))\n"
        ),
        "{monday}"
    );

    // A merge stopped in the main work tree as well: the main work tree's is the one told.
    repo.git(&["checkout", "-q", "-b", "side"]);
    repo.commit("g.txt", "side work", "2026-11-27T11:00:00+09:00");
    repo.git(&["checkout", "-q", "main"]);
    repo.commit("h.txt", "main again", "2026-11-27T11:30:00+09:00");
    repo.git(&["merge", "-q", "--no-ff", "--no-commit", "side"]);
    // Stopped before the worktree's rebase: first all the same.
    touch(&repo.path.join(".git/MERGE_HEAD"), "2026-11-27T09:45:00+09:00");
    let report = run_json(&home, &["daily"]);
    assert_eq!(
        project(&report, "app")["wip"]["stopped"],
        serde_json::json!({"operation": "merge", "since": "2026-11-27T00:45:00Z"})
    );
}
