//! Merging machines' reports: reports built by `aggregate` from events, as each machine
//! builds its own.

use std::path::PathBuf;

use jiff::Timestamp;
use report_model::{
    Activity, Agent, BucketKind, Commit, CommitEvent, Meta, ProjectRef, Report, ReportKind,
    SessionEvent, Shell, Warning, WarningDetail, Window,
};

use super::{MachineReport, merge};
use crate::{Options, TimeRules, aggregate};

fn ts(text: &str) -> Timestamp {
    text.parse().expect("test timestamp")
}

fn day() -> Vec<(BucketKind, Window)> {
    vec![(
        BucketKind::Day,
        Window {
            date: "2026-11-27".parse().unwrap(),
            start: ts("2026-11-26T15:00:00Z"),
            end: ts("2026-11-27T15:00:00Z"),
        },
    )]
}

fn project(name: &str, path: &str) -> ProjectRef {
    ProjectRef { name: name.to_owned(), path: PathBuf::from(path) }
}

fn commit(project: &ProjectRef, hash: &str, subject: &str, time: &str, lines: u64) -> CommitEvent {
    CommitEvent {
        project: project.clone(),
        commit: Commit {
            hash: hash.to_owned(),
            subject: subject.to_owned(),
            truncated: false,
            author_time: ts(time),
            files_changed: 1,
            insertions: lines,
            deletions: 0,
            merge: false,
            branches: vec!["main".to_owned()],
            remote_branches: Vec::new(),
            unpushed: false,
            machines: Vec::new(),
        },
    }
}

fn session(project: &ProjectRef, id: &str, activity: &[&str]) -> SessionEvent {
    SessionEvent {
        agent: Agent::ClaudeCode,
        session_id: id.to_owned(),
        title: format!("title of {id}"),
        truncated: false,
        cwd: None,
        project: Some(project.clone()),
        prompts: activity.iter().map(|time| ts(time)).collect(),
        activity: activity.iter().map(|time| ts(time)).collect(),
        models: Vec::new(),
        branch: None,
        todos: Vec::new(),
        todos_time: None,
        interrupted: None,
        failed_commands: Vec::new(),
    }
}

/// A machine's day report, with `remotes` (project name → normalized remote) set as the
/// binary sets them from what collect read.
fn machine(
    name: &str,
    commits: Vec<CommitEvent>,
    sessions: Vec<SessionEvent>,
    remotes: &[(&str, &str)],
    warnings: Vec<Warning>,
) -> MachineReport {
    let meta = Meta {
        version: "test".to_owned(),
        generated_at: ts("2026-11-27T09:00:00Z"),
        time_zone: "Asia/Tokyo".to_owned(),
        llm_model: None,
        secrets_masked: Vec::new(),
        machines: Vec::new(),
    };
    let activity = Activity { commits, sessions, ..Activity::default() };
    let mut report: Report =
        aggregate(ReportKind::Daily, &day(), activity, warnings, meta, &Options::default());
    for project in report.buckets.iter_mut().flat_map(|bucket| &mut bucket.projects) {
        if let Some((_, remote)) = remotes.iter().find(|(name, _)| *name == project.name) {
            project.remote = Some((*remote).to_owned());
        }
    }
    MachineReport { machine: name.to_owned(), report }
}

#[test]
fn one_commit_seen_on_two_machines_is_one_commit_on_both() {
    let laptop_api = project("api", "/home/me/src/api");
    let devbox_api = project("api", "/srv/work/api");
    let shared = "a".repeat(40);
    let laptop = machine(
        "laptop",
        vec![
            commit(&laptop_api, &shared, "fix the retry", "2026-11-27T01:00:00Z", 10),
            commit(&laptop_api, &"b".repeat(40), "laptop only", "2026-11-27T02:00:00Z", 5),
        ],
        Vec::new(),
        &[("api", "github.com/acme/api")],
        Vec::new(),
    );
    let devbox = machine(
        "devbox",
        vec![
            commit(&devbox_api, &shared, "fix the retry", "2026-11-27T01:00:00Z", 10),
            commit(&devbox_api, &"c".repeat(40), "devbox only", "2026-11-27T03:00:00Z", 7),
        ],
        Vec::new(),
        &[("api", "github.com/acme/api")],
        Vec::new(),
    );
    let merged = merge(laptop, vec![devbox], TimeRules::default());
    let bucket = &merged.buckets[0];
    assert_eq!(bucket.projects.len(), 1);
    let project = &bucket.projects[0];
    // The local path stays.
    assert_eq!(project.path, PathBuf::from("/home/me/src/api"));
    let lines: Vec<(&str, Vec<String>)> = project
        .commits
        .iter()
        .map(|commit| (commit.subject.as_str(), commit.machines.clone()))
        .collect();
    assert_eq!(
        lines,
        vec![
            ("devbox only", vec!["devbox".to_owned()]),
            ("laptop only", vec!["laptop".to_owned()]),
            ("fix the retry", vec!["devbox".to_owned(), "laptop".to_owned()]),
        ]
    );
    assert_eq!(project.totals.commits, 3);
    assert_eq!(project.totals.insertions, 22);
    assert_eq!(merged.totals.commits, 3);
    assert_eq!(merged.totals.projects, 1);
    assert_eq!(merged.meta.machines, vec!["laptop".to_owned(), "devbox".to_owned()]);
}

#[test]
fn projects_match_by_remote_else_by_name() {
    let laptop = machine(
        "laptop",
        vec![
            commit(&project("api", "/a/api"), &"1".repeat(40), "one", "2026-11-27T01:00:00Z", 1),
            commit(
                &project("notes", "/a/notes"),
                &"2".repeat(40),
                "two",
                "2026-11-27T01:00:00Z",
                1,
            ),
        ],
        Vec::new(),
        &[("api", "github.com/acme/api")],
        Vec::new(),
    );
    let devbox = machine(
        "devbox",
        vec![
            // Another folder name, the same remote: the same project.
            commit(
                &project("api-dev", "/b/api-dev"),
                &"3".repeat(40),
                "three",
                "2026-11-27T02:00:00Z",
                1,
            ),
            // The same name, another remote than... none on the laptop: by name.
            commit(
                &project("notes", "/b/notes"),
                &"4".repeat(40),
                "four",
                "2026-11-27T02:00:00Z",
                1,
            ),
            // Same name as the laptop's `api` but another remote: another project.
            commit(&project("api", "/b/api"), &"5".repeat(40), "five", "2026-11-27T03:00:00Z", 1),
        ],
        Vec::new(),
        &[("api-dev", "github.com/acme/api"), ("api", "github.com/other/api")],
        Vec::new(),
    );
    let merged = merge(laptop, vec![devbox], TimeRules::default());
    let projects: Vec<(String, u64)> = merged.buckets[0]
        .projects
        .iter()
        .map(|project| (project.name.clone(), project.totals.commits))
        .collect();
    assert_eq!(
        projects,
        vec![("api".to_owned(), 1), ("api".to_owned(), 2), ("notes".to_owned(), 2)]
    );
    assert_eq!(merged.buckets[0].projects[1].path, PathBuf::from("/a/api"));
    assert_eq!(merged.totals.projects, 3);
    assert_eq!(merged.totals.commits, 5);
}

#[test]
fn time_spans_are_unioned_not_added_and_sessions_are_one_per_id() {
    let api = project("api", "/a/api");
    // The laptop: 09:00–10:00 (UTC) in one session.
    let laptop = machine(
        "laptop",
        Vec::new(),
        vec![session(
            &api,
            "s1",
            &[
                "2026-11-27T00:00:00Z",
                "2026-11-27T00:20:00Z",
                "2026-11-27T00:40:00Z",
                "2026-11-27T01:00:00Z",
            ],
        )],
        &[],
        Vec::new(),
    );
    // The dev box: 09:25–11:00, written with another offset (the same instants).
    let devbox = machine(
        "devbox",
        Vec::new(),
        vec![
            session(
                &api,
                "s2",
                &[
                    "2026-11-27T09:25:00+09:00",
                    "2026-11-27T09:50:00+09:00",
                    "2026-11-27T10:20:00+09:00",
                    "2026-11-27T10:45:00+09:00",
                    "2026-11-27T11:00:00+09:00",
                ],
            ),
            // The laptop's session, synced to the dev box: one session.
            session(&api, "s1", &["2026-11-27T09:00:00+09:00", "2026-11-27T10:00:00+09:00"]),
        ],
        &[],
        Vec::new(),
    );
    let laptop_minutes = laptop.report.time_spent.minutes;
    let devbox_minutes = devbox.report.time_spent.minutes;
    assert_eq!((laptop_minutes, devbox_minutes), (60, 120));
    let merged = merge(laptop, vec![devbox], TimeRules::default());
    // 00:00–02:00 UTC: two hours, not three.
    assert_eq!(merged.time_spent.minutes, 120);
    assert_eq!(merged.buckets[0].time_spent.spans.len(), 1);
    assert_eq!(merged.buckets[0].projects[0].time_spent.minutes, 120);
    let project = &merged.buckets[0].projects[0];
    assert_eq!(project.totals.sessions, 2);
    let s1 = project.sessions.iter().find(|session| session.session_id == "s1").unwrap();
    assert_eq!(s1.machines, vec!["devbox".to_owned(), "laptop".to_owned()]);
    assert_eq!(s1.prompts, 4);
    // Newest first, by instant whatever the offset it was written with.
    assert_eq!(project.sessions[0].session_id, "s2");
}

#[test]
fn warnings_of_another_machine_name_it_and_nothing_is_marked_alone() {
    let api = project("api", "/a/api");
    let alone = machine(
        "laptop",
        vec![commit(&api, &"1".repeat(40), "one", "2026-11-27T01:00:00Z", 1)],
        Vec::new(),
        &[],
        Vec::new(),
    );
    let unchanged = alone.report.clone();
    assert_eq!(merge(alone, Vec::new(), TimeRules::default()), unchanged);

    let laptop = machine(
        "laptop",
        vec![commit(&api, &"1".repeat(40), "one", "2026-11-27T01:00:00Z", 1)],
        Vec::new(),
        &[],
        Vec::new(),
    );
    let devbox = machine(
        "devbox",
        Vec::new(),
        Vec::new(),
        &[],
        vec![Warning::new(WarningDetail::HistoryStale {
            shell: Shell::Zsh,
            path: "/h/.zsh_history".to_owned(),
        })],
    );
    let merged = merge(laptop, vec![devbox], TimeRules::default());
    assert_eq!(merged.warnings.len(), 1);
    assert_eq!(merged.warnings[0].machine.as_deref(), Some("devbox"));
    assert_eq!(merged.buckets[0].projects[0].commits[0].machines, vec!["laptop".to_owned()]);
}

/// The qualifiers of a report's projects, bucket by bucket: `(name, qualifier)`.
fn qualifiers(report: &Report) -> Vec<Vec<(String, Option<String>)>> {
    report
        .buckets
        .iter()
        .map(|bucket| {
            bucket
                .projects
                .iter()
                .map(|project| (project.name.clone(), project.qualifier.clone()))
                .collect()
        })
        .collect()
}

#[test]
fn projects_of_one_name_are_told_apart_by_their_folders_on_every_day() {
    let acme = project("api", "/home/me/src/acme/api");
    let oss = project("api", "/home/me/src/oss/api");
    let tool = project("tool", "/home/me/src/acme/tool");
    let windows = vec![
        (
            BucketKind::PreviousWorkday,
            Window {
                date: "2026-11-26".parse().unwrap(),
                start: ts("2026-11-25T15:00:00Z"),
                end: ts("2026-11-26T15:00:00Z"),
            },
        ),
        day()[0],
    ];
    let commits = vec![
        // Only `acme/api` on the first day: the name is still shared in the report.
        commit(&acme, &"a".repeat(40), "first day", "2026-11-26T01:00:00Z", 1),
        commit(&acme, &"b".repeat(40), "second day", "2026-11-27T01:00:00Z", 1),
        commit(&oss, &"c".repeat(40), "the fork", "2026-11-27T02:00:00Z", 1),
        commit(&tool, &"d".repeat(40), "alone", "2026-11-27T03:00:00Z", 1),
    ];
    let meta = machine("laptop", Vec::new(), Vec::new(), &[], Vec::new()).report.meta;
    let activity = Activity { commits, ..Activity::default() };
    let report =
        aggregate(ReportKind::Standup, &windows, activity, Vec::new(), meta, &Options::default());
    let named =
        |name: &str, qualifier: Option<&str>| (name.to_owned(), qualifier.map(str::to_owned));
    assert_eq!(
        qualifiers(&report),
        vec![
            vec![named("api", Some("acme"))],
            vec![named("tool", None), named("api", Some("oss")), named("api", Some("acme"))],
        ]
    );
}

#[test]
fn a_merged_report_is_told_apart_again_as_a_whole() {
    let laptop_api = project("api", "/home/me/src/api");
    let devbox_api = project("api", "/srv/work/api");
    // Two repositories of one name on two machines, with different remotes: two
    // projects, which neither machine's own report qualified.
    let laptop = machine(
        "laptop",
        vec![commit(&laptop_api, &"a".repeat(40), "ours", "2026-11-27T01:00:00Z", 1)],
        Vec::new(),
        &[("api", "github.com/acme/api")],
        Vec::new(),
    );
    let devbox = machine(
        "devbox",
        vec![commit(&devbox_api, &"b".repeat(40), "theirs", "2026-11-27T02:00:00Z", 1)],
        Vec::new(),
        &[("api", "github.com/other/api")],
        Vec::new(),
    );
    assert_eq!(qualifiers(&laptop.report), vec![vec![("api".to_owned(), None)]]);
    let merged = merge(laptop, vec![devbox.clone()], TimeRules::default());
    assert_eq!(
        qualifiers(&merged),
        vec![vec![
            ("api".to_owned(), Some("work".to_owned())),
            ("api".to_owned(), Some("src".to_owned()))
        ]]
    );
    // The same repository on both machines is one project, and one name.
    let again = machine(
        "laptop",
        vec![commit(&laptop_api, &"c".repeat(40), "ours", "2026-11-27T01:00:00Z", 1)],
        Vec::new(),
        &[("api", "github.com/other/api")],
        Vec::new(),
    );
    let merged = merge(again, vec![devbox], TimeRules::default());
    assert_eq!(qualifiers(&merged), vec![vec![("api".to_owned(), None)]]);
}

#[test]
fn clones_of_one_remote_on_one_machine_are_one_project() {
    let review = project("api-review", "/home/me/review/api-review");
    let main = project("api", "/home/me/src/api");
    let local = project("notes", "/home/me/notes");
    let copy = project("notes-copy", "/home/me/notes-copy");
    let notes_try = project("notes-try", "/tmp/notes-try");
    let api_try = project("api-try", "/tmp/api-try");
    let shared = "a".repeat(40);
    let same_local = "d".repeat(40);
    let MachineReport { mut report, .. } = machine(
        "laptop",
        vec![
            // Pushed from `api`, pulled into `api-review`.
            commit(&main, &shared, "fix the retry", "2026-11-27T01:00:00Z", 10),
            commit(&review, &shared, "fix the retry", "2026-11-27T01:00:00Z", 10),
            commit(&review, &"b".repeat(40), "review fixup", "2026-11-27T02:00:00Z", 3),
            // Two folders without a remote: nothing says they are one repository.
            commit(&local, &same_local, "notes", "2026-11-27T00:30:00Z", 1),
            commit(&copy, &same_local, "notes", "2026-11-27T00:30:00Z", 1),
            // Clones of a folder here (`git clone ~/notes /tmp/notes-try`): the same
            // repository as that folder's project, with or without a remote of its own.
            commit(&notes_try, &same_local, "notes", "2026-11-27T00:30:00Z", 1),
            // The clone is the more recently active, yet the folder names the project.
            commit(&notes_try, &"f".repeat(40), "try later", "2026-11-27T05:00:00Z", 1),
            commit(&api_try, &shared, "fix the retry", "2026-11-27T01:00:00Z", 10),
            commit(&api_try, &"e".repeat(40), "an experiment", "2026-11-27T01:30:00Z", 2),
        ],
        vec![session(&main, "s-main", &["2026-11-27T03:00:00Z"])],
        &[
            ("api", "github.com/acme/api"),
            ("api-review", "github.com/acme/api"),
            ("notes-try", "/home/me/notes"),
            ("api-try", "/home/me/src/api"),
        ],
        Vec::new(),
    );
    let before = report.clone();
    super::fold_clones(&mut report, TimeRules::default());
    let projects: Vec<(&str, u64, u64)> = report.buckets[0]
        .projects
        .iter()
        .map(|project| (project.name.as_str(), project.totals.commits, project.totals.sessions))
        .collect();
    // A repository's project keeps the name and path of its most recently active clone
    // (`api`, the session at 03:00), or of the folder its clones were made from (`notes`).
    assert_eq!(projects, vec![("notes", 2, 0), ("api", 3, 1), ("notes-copy", 1, 0)]);
    assert_eq!(report.buckets[0].projects[0].path, PathBuf::from("/home/me/notes"));
    let api = &report.buckets[0].projects[1];
    assert_eq!(api.path, PathBuf::from("/home/me/src/api"));
    let subjects: Vec<&str> = api.commits.iter().map(|commit| commit.subject.as_str()).collect();
    assert_eq!(subjects, ["review fixup", "an experiment", "fix the retry"]);
    assert_eq!(api.totals.insertions, 15);
    // The folder's project keeps its (absent) remote: the clone's is a path here.
    assert_eq!(report.buckets[0].projects[0].remote, None);
    assert_eq!(report.buckets[0].totals.commits, 6);
    assert_eq!(report.totals.commits, 6);
    assert_eq!(report.totals.projects, 3);
    assert_eq!(before.totals.commits, 9);
    // Nothing to fold: nothing changes.
    let MachineReport { report: plain, .. } = machine(
        "laptop",
        vec![commit(&main, &shared, "fix the retry", "2026-11-27T01:00:00Z", 10)],
        Vec::new(),
        &[("api", "github.com/acme/api")],
        Vec::new(),
    );
    let mut folded = plain.clone();
    super::fold_clones(&mut folded, TimeRules::default());
    assert_eq!(folded, plain);
}

#[test]
fn work_in_progress_of_two_machines_is_joined() {
    use report_model::{Operation, Stopped, WipEvent, WipFile, WipStash};
    let api = project("api", "/home/me/src/api");
    let wip = |files: &[&str], stash: &str, stopped: Option<Stopped>| WipEvent {
        project: api.clone(),
        files: files
            .iter()
            .map(|path| WipFile { path: (*path).to_owned(), modified: ts("2026-11-27T02:00:00Z") })
            .collect(),
        stashes: vec![WipStash { time: ts("2026-11-27T02:30:00Z"), message: stash.to_owned() }],
        ahead: Vec::new(),
        stopped,
    };
    let with_wip = |name: &str, event: WipEvent| {
        let MachineReport { mut report, .. } =
            machine(name, Vec::new(), Vec::new(), &[], Vec::new());
        let activity = Activity { wip: vec![event], ..Activity::default() };
        let meta = report.meta.clone();
        report =
            aggregate(ReportKind::Daily, &day(), activity, Vec::new(), meta, &Options::default());
        report.buckets[0].projects[0].remote = Some("github.com/acme/api".to_owned());
        MachineReport { machine: name.to_owned(), report }
    };
    let rebase = Stopped {
        operation: Operation::Rebase,
        conflicts: 1,
        since: ts("2026-11-27T03:00:00Z"),
        worktree: None,
    };
    let laptop = with_wip("laptop", wip(&["src/a.rs"], "WIP on main: a", None));
    let devbox =
        with_wip("devbox", wip(&["src/a.rs", "src/b.rs"], "WIP on main: b", Some(rebase.clone())));
    let merged = merge(laptop, vec![devbox], TimeRules::default());
    let wip = merged.buckets[0].projects[0].wip.clone().expect("the joined work in progress");
    assert_eq!(wip.files, ["src/a.rs", "src/b.rs"]);
    assert_eq!(wip.stashes, ["WIP on main: a", "WIP on main: b"]);
    assert_eq!(wip.stopped, Some(rebase));
}
