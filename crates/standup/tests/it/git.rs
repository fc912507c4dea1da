//! The git source through the real binary: windows, identities, refs, worktrees,
//! broken repositories.

use crate::support::{
    COLLEAGUE, Home, ME, Who, report_json as json, subjects_by_bucket as subjects,
};

const TOKYO: &str = "Asia/Tokyo";
/// Friday 2026-11-27, 18:00 in Tokyo.
const FRIDAY_EVENING: &str = "2026-11-27T18:00:00+09:00";

fn warning_codes(report: &serde_json::Value) -> Vec<String> {
    report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|warning| warning["code"].as_str().unwrap().to_owned())
        .collect()
}

fn daily_subjects(home: &Home, now: &str, tz: &str, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["daily"];
    args.extend(extra);
    subjects(&json(home, now, tz, &args)).concat()
}

#[test]
fn window_edges_are_local_calendar_days() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit("a", "before the day", "2026-11-26T23:59:59+09:00");
    repo.commit("b", "first second of the day", "2026-11-27T00:00:00+09:00");
    repo.commit("c", "last second of the day", "2026-11-27T23:59:59+09:00");
    repo.commit("d", "first second of the next day", "2026-11-28T00:00:00+09:00");
    // Run on Saturday about Friday, so the whole day lies before the clock.
    assert_eq!(
        daily_subjects(&home, "2026-11-28T12:00:00+09:00", TOKYO, &["--date", "2026-11-27"]),
        ["last second of the day", "first second of the day"]
    );
}

#[test]
fn a_commit_is_placed_by_its_author_date_not_its_committer_date() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    // Written on Thursday, rebased (committed again) on Friday.
    repo.commit_as(
        ME,
        "a",
        "x",
        "written thursday",
        "2026-11-26T15:00:00+09:00",
        "2026-11-27T09:00:00+09:00",
    );
    assert!(daily_subjects(&home, FRIDAY_EVENING, TOKYO, &[]).is_empty());
    assert_eq!(
        daily_subjects(&home, FRIDAY_EVENING, TOKYO, &["--date", "yesterday"]),
        ["written thursday"]
    );
}

#[test]
fn dst_transition_day_in_new_york() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    // 2026-03-08 is 23 hours long in New York: 00:00 EST (05:00Z) to 00:00 EDT (04:00Z).
    repo.commit("a", "before", "2026-03-08T04:59:59Z");
    repo.commit("b", "start", "2026-03-08T05:00:00Z");
    repo.commit("c", "end", "2026-03-09T03:59:59Z");
    repo.commit("d", "next day", "2026-03-09T04:00:00Z");
    let now = "2026-03-09T12:00:00-04:00";
    let args = ["--date", "2026-03-08"];
    assert_eq!(daily_subjects(&home, now, "America/New_York", &args), ["end", "start"]);
    let report = json(&home, now, "America/New_York", &["daily", "--date", "2026-03-08"]);
    assert_eq!(report["buckets"][0]["window"]["start"], "2026-03-08T05:00:00Z");
    assert_eq!(report["buckets"][0]["window"]["end"], "2026-03-09T04:00:00Z");
}

#[test]
fn monday_standup_goes_back_to_friday_and_keeps_the_weekend() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit("a", "thursday work", "2026-11-26T10:00:00+09:00");
    repo.commit("b", "friday work", "2026-11-27T10:00:00+09:00");
    repo.commit("c", "saturday hack", "2026-11-28T10:00:00+09:00");
    repo.commit("d", "monday morning", "2026-11-30T09:00:00+09:00");
    let report = json(&home, "2026-11-30T09:30:00+09:00", TOKYO, &["standup"]);
    assert_eq!(subjects(&report), [vec!["saturday hack", "friday work"], vec!["monday morning"]]);
    assert_eq!(report["buckets"][0]["kind"], "previous_workday");
    assert_eq!(report["buckets"][0]["window"]["date"], "2026-11-27");
    assert_eq!(report["buckets"][0]["through"], "2026-11-29");
}

#[test]
fn the_day_after_a_holiday_goes_back_to_the_working_day_before_it() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    home.config("holidays = [\"2026-11-23\"]\n");
    let repo = home.repo("app");
    repo.commit("a", "friday 20th", "2026-11-20T10:00:00+09:00");
    repo.commit("b", "holiday tinkering", "2026-11-23T10:00:00+09:00");
    let report = json(&home, "2026-11-24T09:00:00+09:00", TOKYO, &["standup"]);
    assert_eq!(report["buckets"][0]["window"]["date"], "2026-11-20");
    // The holiday's work is in the previous bucket, which runs up to Tuesday.
    assert_eq!(subjects(&report), [vec!["holiday tinkering", "friday 20th"], vec![]]);
}

#[test]
fn day_start_moves_late_night_work_to_the_previous_day() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    home.config("day_start = \"04:00\"\n");
    let repo = home.repo("app");
    repo.commit("a", "early friday (thursday's night)", "2026-11-27T03:00:00+09:00");
    repo.commit("b", "friday", "2026-11-27T10:00:00+09:00");
    repo.commit("c", "saturday 2am (still friday)", "2026-11-28T02:00:00+09:00");
    // At 03:00 on Saturday it is still Friday.
    let subjects = daily_subjects(&home, "2026-11-28T03:00:00+09:00", TOKYO, &[]);
    assert_eq!(subjects, ["saturday 2am (still friday)", "friday"]);
}

#[test]
fn a_stash_is_not_reported() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit("a", "real work", "2026-11-27T10:00:00+09:00");
    fs_err::write(repo.path.join("a"), "uncommitted\n").unwrap();
    let output = repo
        .git_command(&["stash", "push", "-q", "-m", "wip stash"])
        .env("GIT_AUTHOR_DATE", "2026-11-27T11:00:00+09:00")
        .env("GIT_COMMITTER_DATE", "2026-11-27T11:00:00+09:00")
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(repo.git(&["stash", "list"]).contains("wip stash"));
    assert_eq!(daily_subjects(&home, FRIDAY_EVENING, TOKYO, &[]), ["real work"]);
}

fn repo_with_merge(home: &Home) {
    let repo = home.repo("app");
    repo.commit("a", "base", "2026-11-27T09:00:00+09:00");
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.commit("b", "feature work", "2026-11-27T10:00:00+09:00");
    repo.git(&["checkout", "-q", "main"]);
    repo.commit("c", "main work", "2026-11-27T11:00:00+09:00");
    let output = repo
        .git_command(&["merge", "-q", "--no-ff", "-m", "Merge branch 'feature'", "feature"])
        .env("GIT_AUTHOR_DATE", "2026-11-27T12:00:00+09:00")
        .env("GIT_COMMITTER_DATE", "2026-11-27T12:00:00+09:00")
        .output()
        .unwrap();
    assert!(output.status.success());
}

#[test]
fn merges_are_excluded_by_default() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    repo_with_merge(&home);
    assert_eq!(
        daily_subjects(&home, FRIDAY_EVENING, TOKYO, &[]),
        ["main work", "feature work", "base"]
    );
}

#[test]
fn merges_are_included_when_configured() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    home.config("[git]\ninclude_merges = true\n");
    repo_with_merge(&home);
    let report = json(&home, FRIDAY_EVENING, TOKYO, &["daily"]);
    assert_eq!(
        subjects(&report).concat(),
        ["Merge branch 'feature'", "main work", "feature work", "base"]
    );
    assert_eq!(report["buckets"][0]["projects"][0]["commits"][0]["merge"], true);
}

#[test]
fn two_emails_for_one_person_and_a_colleague_left_out() {
    let home = Home::new();
    home.config("[identity]\nemails = [\"me@example.com\", \"Me@Work.Example\"]\n");
    let repo = home.repo("app");
    let work = Who { email: "me@work.example", name: "Me at work" };
    repo.commit_as(
        ME,
        "a",
        "x",
        "from home",
        "2026-11-27T09:00:00+09:00",
        "2026-11-27T09:00:00+09:00",
    );
    repo.commit_as(
        work,
        "b",
        "y",
        "from work",
        "2026-11-27T10:00:00+09:00",
        "2026-11-27T10:00:00+09:00",
    );
    repo.commit_as(
        COLLEAGUE,
        "c",
        "z",
        "colleague's",
        "2026-11-27T11:00:00+09:00",
        "2026-11-27T11:00:00+09:00",
    );
    let report = json(&home, FRIDAY_EVENING, TOKYO, &["daily"]);
    assert_eq!(subjects(&report).concat(), ["from work", "from home"]);
    assert!(warning_codes(&report).is_empty());
}

#[test]
fn without_any_identity_every_author_is_shown_with_a_warning() {
    let home = Home::new();
    let repo = home.repo("app");
    repo.commit_as(
        COLLEAGUE,
        "c",
        "z",
        "colleague's",
        "2026-11-27T11:00:00+09:00",
        "2026-11-27T11:00:00+09:00",
    );
    let report = json(&home, FRIDAY_EVENING, TOKYO, &["daily"]);
    assert_eq!(subjects(&report).concat(), ["colleague's"]);
    assert_eq!(warning_codes(&report), ["identity_unknown"]);
}

/// A commit whose message is in a legacy encoding, as git writes it where
/// `i18n.commitEncoding` names one: the message bytes in that encoding and an `encoding`
/// header naming it.
fn commit_encoded(repo: &crate::support::Repo, encoding: &str, message: &[u8], date: &str) {
    let file = repo.path.join(".git/message");
    fs_err::write(&file, message).unwrap();
    repo.git(&["config", "i18n.commitEncoding", encoding]);
    let output = repo
        .git_command(&["commit", "-q", "--allow-empty", "-F", file.to_str().unwrap()])
        .env("GIT_AUTHOR_DATE", date)
        .env("GIT_COMMITTER_DATE", date)
        .output()
        .unwrap();
    assert!(output.status.success(), "commit: {}", String::from_utf8_lossy(&output.stderr));
}

#[test]
fn a_message_in_a_legacy_encoding_is_shown_in_utf8() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    // Where the repository's configuration names the encoding, git writes its log in it
    // unless asked for UTF-8: the report showed `caf\u{fffd} au lait`.
    let latin = home.repo("latin");
    commit_encoded(&latin, "ISO-8859-1", b"caf\xe9 au lait\n", "2026-11-27T10:00:00+09:00");
    let sjis = home.repo("sjis");
    commit_encoded(
        &sjis,
        "Shift_JIS",
        b"\x93\xfa\x95\xf1\x82\xcc\x8f\x43\x90\xb3\n",
        "2026-11-27T11:00:00+09:00",
    );
    assert_eq!(daily_subjects(&home, FRIDAY_EVENING, TOKYO, &[]), ["日報の修正", "café au lait"]);
}

#[test]
fn clones_of_one_remote_are_one_project_and_a_commit_in_both_is_counted_once() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let origin = home.path().join("origin.git");
    let work = home.repo("app");
    work.git(&["init", "-q", "--bare", origin.to_str().unwrap()]);
    work.git(&["remote", "add", "origin", origin.to_str().unwrap()]);
    work.commit("a", "ABC-1: retry on 503", "2026-11-27T09:00:00+09:00");
    work.git(&["push", "-q", "origin", "main"]);
    // A second clone for reviews, where the pushed commit arrives with a pull.
    let review = home.path().join("src/app-review");
    work.git(&["clone", "-q", origin.to_str().unwrap(), review.to_str().unwrap()]);
    let review = home.repo_handle(&review);
    review.commit("b", "review: tidy the test", "2026-11-27T10:00:00+09:00");
    // And a clone of the work tree's folder, to try something: its remote is that folder.
    let trial = home.path().join("src/app-try");
    work.git(&["clone", "-q", work.path.to_str().unwrap(), trial.to_str().unwrap()]);
    home.repo_handle(&trial).commit("c", "try: a bigger pool", "2026-11-27T08:00:00+09:00");
    let report = json(&home, FRIDAY_EVENING, TOKYO, &["daily"]);
    let projects = report["buckets"][0]["projects"].as_array().unwrap();
    assert_eq!(projects.len(), 1, "{projects:#?}");
    // The most recently active clone names the project.
    assert_eq!(projects[0]["name"], "app-review");
    assert_eq!(
        subjects(&report).concat(),
        ["review: tidy the test", "ABC-1: retry on 503", "try: a bigger pool"]
    );
    assert_eq!(report["totals"]["commits"], 3);
    assert_eq!(report["totals"]["projects"], 1);
    let tickets = &report["outlook"]["tickets"];
    assert_eq!(tickets[0]["key"], "ABC-1");
    assert_eq!(tickets[0]["commits"].as_array().unwrap().len(), 1, "{tickets:#}");
    // `doctor` counts the day's commits as the report does.
    let doctor = home.run(FRIDAY_EVENING, TOKYO, &["doctor"]);
    let git = doctor.success().lines().find(|line| line.starts_with("git:")).unwrap();
    assert_eq!(git, "git: found · 3 repositories · 3 commits today");
}

#[test]
fn a_linked_worktree_folds_into_its_repository() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit("a", "on main", "2026-11-27T09:00:00+09:00");
    let worktree = home.path().join("src/app-feature");
    repo.git(&["worktree", "add", "-q", "-b", "feature", worktree.to_str().unwrap()]);
    let linked = home.repo_handle(&worktree);
    linked.commit("b", "in the worktree", "2026-11-27T10:00:00+09:00");
    // Run from inside the worktree too: it still is the same one project.
    let run =
        home.run_in(&worktree, FRIDAY_EVENING, TOKYO, &["daily", "--format", "json", "--no-llm"]);
    let report: serde_json::Value = serde_json::from_str(run.success()).unwrap();
    let projects = report["buckets"][0]["projects"].as_array().unwrap();
    assert_eq!(projects.len(), 1, "{projects:#?}");
    assert_eq!(projects[0]["name"], "app");
    assert_eq!(subjects(&report).concat(), ["in the worktree", "on main"]);
}

#[test]
fn a_submodule_is_a_repository_of_its_own() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let library = home.repo("library");
    library.commit("lib", "library work", "2026-11-27T08:00:00+09:00");
    let app = home.repo("app");
    app.commit("a", "app work", "2026-11-27T09:00:00+09:00");
    app.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        library.path.to_str().unwrap(),
        "vendor-lib",
    ]);
    let inner = home.repo_handle(&app.path.join("vendor-lib"));
    inner.commit("inner", "work inside the submodule", "2026-11-27T10:00:00+09:00");
    let report = json(&home, FRIDAY_EVENING, TOKYO, &["daily"]);
    let mut projects: Vec<(String, Vec<String>)> = report["buckets"][0]["projects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|project| {
            let subjects = project["commits"].as_array().unwrap().iter();
            let subjects = subjects.map(|commit| commit["subject"].as_str().unwrap().to_owned());
            (project["name"].as_str().unwrap().to_owned(), subjects.collect())
        })
        .collect();
    projects.sort();
    // Not the superproject's work: the submodule's own repository's. Cloned from
    // `library` here, it is that repository (the clones of one repository are one
    // project), so its commit is the library's.
    assert_eq!(
        projects,
        [
            ("app".to_owned(), vec!["app work".to_owned()]),
            (
                "library".to_owned(),
                vec!["work inside the submodule".to_owned(), "library work".to_owned()]
            ),
        ]
    );
}

#[test]
fn a_corrupt_repository_is_a_warning_and_the_rest_still_comes_out() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let good = home.repo("good");
    good.commit("a", "good work", "2026-11-27T10:00:00+09:00");
    let broken = home.repo("broken");
    broken.commit("a", "lost work", "2026-11-27T10:00:00+09:00");
    fs_err::write(broken.path.join(".git/HEAD"), "garbage\n").unwrap();
    let run = home.run(FRIDAY_EVENING, TOKYO, &["daily", "--format", "json", "--no-llm"]);
    let report: serde_json::Value = serde_json::from_str(run.success()).unwrap();
    assert_eq!(subjects(&report).concat(), ["good work"]);
    assert_eq!(warning_codes(&report), ["git_failed"]);
    let message = report["warnings"][0]["message"].as_str().unwrap();
    assert!(message.contains("src/broken"), "{message}");
    assert!(run.stderr.contains("standup: warning: git_failed"), "{}", run.stderr);
}

#[test]
fn a_subject_with_invalid_utf8_is_decoded_lossily() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit("base", "base", "2026-11-26T10:00:00+09:00");
    let tree = repo.git(&["rev-parse", "HEAD^{tree}"]);
    let parent = repo.git(&["rev-parse", "HEAD"]);
    let mut object = format!(
        "tree {}\nparent {}\nauthor Me <me@example.com> 1795741200 +0900\ncommitter Me <me@example.com> 1795741200 +0900\n\n",
        tree.trim(),
        parent.trim()
    )
    .into_bytes();
    object.extend_from_slice(b"caf\xe9 \xff fix\n");
    let mut child = repo
        .git_command(&["hash-object", "-t", "commit", "-w", "--stdin", "--literally"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &object).unwrap();
    let output = child.wait_with_output().unwrap();
    let hash = String::from_utf8(output.stdout).unwrap();
    repo.git(&["update-ref", "refs/heads/main", hash.trim()]);
    // 1795741200 is 2026-11-27T01:00:00Z, 10:00 in Tokyo. (The repository's refs are
    // written now, so the window must not lie in the future of the real clock.)
    let subjects = daily_subjects(&home, FRIDAY_EVENING, TOKYO, &[]);
    assert_eq!(subjects, ["caf\u{fffd} \u{fffd} fix"]);
}

#[test]
fn a_repository_whose_refs_did_not_move_is_skipped_without_running_git() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("old");
    repo.commit("a", "old work", "2026-10-01T10:00:00+09:00");
    // Break it, then age every file as a machine would have left it: if git ran on it,
    // the report would carry a git_failed warning.
    fs_err::write(repo.path.join(".git/HEAD"), "garbage\n").unwrap();
    age_git_dir(&repo.path.join(".git"), "2026-10-01T10:00:00+09:00");
    let report = json(&home, FRIDAY_EVENING, TOKYO, &["daily"]);
    assert!(warning_codes(&report).is_empty(), "{report:#}");
}

#[test]
fn the_skip_check_never_misses_a_commit_made_in_the_window() {
    // Realistic mtimes: every ref file carries the time of the commit that moved it.
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit("a", "long ago", "2026-10-01T10:00:00+09:00");
    repo.git(&["checkout", "-q", "-b", "topic"]);
    repo.commit("b", "friday morning", "2026-11-27T00:00:05+09:00");
    repo.git(&["tag", "v1"]);
    repo.git(&["pack-refs", "--all"]);
    age_git_dir(&repo.path.join(".git"), "2026-11-27T00:00:05+09:00");
    assert_eq!(daily_subjects(&home, FRIDAY_EVENING, TOKYO, &[]), ["friday morning"]);
    // The same repository aged to before the window is skipped, and nothing is lost
    // that could have been found: its only commits are older than the window.
    age_git_dir(&repo.path.join(".git"), "2026-11-26T23:59:00+09:00");
    assert!(daily_subjects(&home, FRIDAY_EVENING, TOKYO, &[]).is_empty());
}

#[test]
fn the_skip_check_reads_a_reftable_repository_whose_tables_moved() {
    // `refs/heads` is a file there; the refs live in `reftable/`.
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.reftable_repo("tables");
    repo.commit("a", "long ago", "2026-10-01T10:00:00+09:00");
    age_git_dir(&repo.path.join(".git"), "2026-10-01T10:00:00+09:00");
    assert!(daily_subjects(&home, FRIDAY_EVENING, TOKYO, &[]).is_empty());
    repo.commit("b", "friday morning", "2026-11-27T09:00:00+09:00");
    age_git_dir(&repo.path.join(".git"), "2026-10-01T10:00:00+09:00");
    let tables = repo.path.join(".git/reftable");
    let friday = std::time::SystemTime::from(
        "2026-11-27T09:00:00+09:00".parse::<jiff::Timestamp>().unwrap(),
    );
    fs_err::File::open(&tables).unwrap().set_modified(friday).unwrap();
    assert_eq!(daily_subjects(&home, FRIDAY_EVENING, TOKYO, &[]), ["friday morning"]);
}

/// Sets the mtime of every file and folder of a git dir.
fn age_git_dir(dir: &std::path::Path, when: &str) {
    let time: jiff::Timestamp = when.parse().unwrap();
    let time = std::time::SystemTime::from(time);
    for entry in walk(dir) {
        let file = fs_err::File::open(&entry).unwrap();
        file.set_modified(time).unwrap();
    }
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut paths = vec![];
    for entry in fs_err::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            paths.extend(walk(&path));
        }
        paths.push(path);
    }
    paths.push(dir.to_path_buf());
    paths
}

/// A tip committed with a clock two days behind, on top of the day's three commits,
/// hides nothing: the walk goes below it where a parent is dated later, and `doctor`
/// says so. The same with the skewed commit in the middle of the day.
#[test]
fn a_tip_with_an_old_committer_date_hides_nothing() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    skewed_commits_are_found(&home);
}

/// The same where the repositories are read by git's own `git log` (an include in
/// git's global configuration sends every repository to git, as `includeIf` for a
/// work identity does).
#[test]
fn a_tip_with_an_old_committer_date_hides_nothing_when_git_lists() {
    let home = Home::new();
    home.write(".gitconfig-extra", "[core]\n\tautocrlf = false\n");
    home.write(
        ".gitconfig",
        &format!(
            "[user]\n\temail = {}\n\tname = {}\n[include]\n\tpath = ~/.gitconfig-extra\n",
            ME.email, ME.name
        ),
    );
    skewed_commits_are_found(&home);
}

fn skewed_commits_are_found(home: &Home) {
    let app = home.repo("app");
    app.commit("a", "parser: accept trailing commas", "2026-11-27T09:00:00+09:00");
    app.commit("b", "parser: reject duplicate keys", "2026-11-27T10:00:00+09:00");
    app.commit("c", "lexer: track columns", "2026-11-27T11:00:00+09:00");
    app.commit_as(
        ME,
        "d",
        "skew\n",
        "skew",
        "2026-11-25T12:00:00+09:00",
        "2026-11-25T12:00:00+09:00",
    );
    let report = json(home, FRIDAY_EVENING, TOKYO, &["daily"]);
    assert_eq!(
        subjects(&report),
        [[
            "lexer: track columns",
            "parser: reject duplicate keys",
            "parser: accept trailing commas"
        ]]
    );
    let doctor = home.run(FRIDAY_EVENING, TOKYO, &["doctor"]);
    assert!(
        doctor.stdout.contains("app: 3 commits found only below a commit dated before the window"),
        "{}",
        doctor.stdout
    );
    // In the middle of the day: the commits above it are found by date, those below by
    // the extra look.
    let lib = home.repo("lib");
    lib.commit("a", "lib: one", "2026-11-27T09:00:00+09:00");
    lib.commit_as(
        ME,
        "b",
        "skew\n",
        "lib: skewed",
        "2026-11-27T09:30:00+09:00",
        "1970-01-02T00:00:00+00:00",
    );
    lib.commit("c", "lib: three", "2026-11-27T10:00:00+09:00");
    let report = json(home, FRIDAY_EVENING, TOKYO, &["daily", "--date", "2026-11-27"]);
    let subjects = subjects(&report).concat();
    for subject in ["lib: one", "lib: skewed", "lib: three"] {
        assert!(subjects.contains(&subject.to_owned()), "{subject}: {subjects:?}");
    }
}

/// A home inside a git work tree (as a benchmark home under `target/`): run from the
/// home, the binary finds the enclosing repository as git would, unless
/// `GIT_CEILING_DIRECTORIES` stops the search below it, as it stops git's.
#[test]
fn the_repository_around_the_home_is_read_unless_a_ceiling_hides_it() {
    let home = Home::new();
    let outer = home.repo_handle(home.path().parent().unwrap());
    outer.git(&["init", "-q", "-b", "main"]);
    outer.commit("notes.md", "Outer work", "2026-11-27T10:00:00+09:00");
    let subjects_with = |ceiling: Option<&std::path::Path>| -> Vec<String> {
        let args = ["daily", "--no-llm", "--format", "json"];
        let mut command = home.command(home.path(), FRIDAY_EVENING, TOKYO, &args);
        if let Some(ceiling) = ceiling {
            command.env("GIT_CEILING_DIRECTORIES", ceiling);
        }
        let run = home.run_command(&mut command);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        subjects(&report).concat()
    };
    assert_eq!(subjects_with(None), ["Outer work"]);
    assert!(subjects_with(Some(&outer.path)).is_empty());
    // A ceiling at the home itself does not count for a search that starts there.
    assert_eq!(subjects_with(Some(home.path())), ["Outer work"]);
}

/// A commit made with `--allow-empty-message` has no subject: the report says so rather
/// than leaving an empty item; the JSON keeps the empty subject.
#[test]
fn a_commit_without_a_message_says_so() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit("a.txt", "first", "2026-11-27T10:00:00+09:00");
    fs_err::write(repo.path.join("a.txt"), "changed\n").unwrap();
    repo.git_command(&["commit", "-q", "-a", "--allow-empty-message", "-m", ""])
        .env("GIT_AUTHOR_DATE", "2026-11-27T11:00:00+09:00")
        .env("GIT_COMMITTER_DATE", "2026-11-27T11:00:00+09:00")
        .status()
        .unwrap();
    assert_eq!(daily_subjects(&home, FRIDAY_EVENING, TOKYO, &[]), ["", "first"]);
    for (lang, line) in [
        ("en", "- (no commit message) (+1 −1, 1 file)\n"),
        ("ja", "- （コミットメッセージなし）（+1 −1、1ファイル）\n"),
    ] {
        let run = home.run(FRIDAY_EVENING, TOKYO, &["daily", "--no-llm", "--lang", lang]);
        assert!(run.success().contains(line), "{}", run.stdout);
    }
}
