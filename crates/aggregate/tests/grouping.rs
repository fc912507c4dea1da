//! What a bucket makes of shell commands and work in progress: the person's and the
//! agents' commands counted apart, failures counted per group, a group's few distinct
//! examples, ignored heads, and work in progress kept by its own time.

use aggregate::{Options, ShellGrouping};
use report_model::{
    Activity, BucketKind, Operation, Report, ShellEvent, Stopped, WipEvent, WipFile, WipStash,
};

mod support;
use support::*;

fn day() -> Vec<(BucketKind, report_model::Window)> {
    vec![(BucketKind::Day, window("2026-03-06", "2026-03-06T00:00:00Z", "2026-03-07T00:00:00Z"))]
}

fn by_agent(mut event: ShellEvent) -> ShellEvent {
    event.agent = Some("claude".to_owned());
    event
}

fn report(activity: Activity, options: &Options) -> Report {
    standup(&day(), activity, options)
}

#[test]
fn commands_are_counted_by_whom_and_where_with_their_failures() {
    let shell = vec![
        run(Some("api"), "2026-03-06T10:00:00Z", "cargo test", Some(0)),
        run(Some("api"), "2026-03-06T10:05:00Z", "cargo test", Some(101)),
        run(Some("api"), "2026-03-06T10:10:00Z", "cargo build", None),
        by_agent(run(Some("api"), "2026-03-06T10:15:00Z", "cargo test", Some(0))),
        run(None, "2026-03-06T11:00:00Z", "make", Some(2)),
        by_agent(run(None, "2026-03-06T11:05:00Z", "make", Some(0))),
        // Outside the day: not counted.
        run(Some("api"), "2026-03-07T10:00:00Z", "cargo test", Some(101)),
    ];
    let report = report(Activity { shell, ..Activity::default() }, &Options::default());
    let bucket = &report.buckets[0];
    assert_eq!((bucket.totals.commands, bucket.totals.agent_commands), (4, 2));
    let api = bucket.projects.iter().find(|project| project.name == "api").expect("api");
    assert_eq!((api.totals.commands, api.totals.agent_commands), (3, 1));
    let group = |groups: &[report_model::ShellGroup], head: &str, agent: bool| {
        groups
            .iter()
            .find(|group| group.head == head && group.agent == agent)
            .map(|group| (group.count, group.failed))
    };
    assert_eq!(group(&api.shell, "cargo test", false), Some((2, 1)));
    assert_eq!(group(&api.shell, "cargo build", false), Some((1, 0)));
    assert_eq!(group(&api.shell, "cargo test", true), Some((1, 0)));
    assert_eq!(group(&bucket.shell, "make", false), Some((1, 1)));
    assert_eq!(group(&bucket.shell, "make", true), Some((1, 0)));
}

#[test]
fn a_group_keeps_its_newest_distinct_examples_and_says_when_one_was_cut() {
    let mut cut = run(Some("api"), "2026-03-06T10:20:00Z", "cargo test -p a …", Some(0));
    cut.truncated = true;
    let shell = vec![
        run(Some("api"), "2026-03-06T10:00:00Z", "cargo test -p c", Some(0)),
        run(Some("api"), "2026-03-06T10:05:00Z", "cargo test -p b", Some(0)),
        run(Some("api"), "2026-03-06T10:10:00Z", "cargo test -p b", Some(0)),
        cut,
    ];
    let options = Options {
        shell: ShellGrouping { examples: 2, ..ShellGrouping::default() },
        ..Options::default()
    };
    let cut_one = report(Activity { shell: shell.clone(), ..Activity::default() }, &options);
    let group = &cut_one.buckets[0].projects[0].shell[0];
    assert_eq!(group.count, 4);
    assert_eq!(group.examples, ["cargo test -p a …", "cargo test -p b"]);
    assert!(group.truncated);
    // Without the cut one, nothing was cut.
    let whole =
        report(Activity { shell: shell[..3].to_vec(), ..Activity::default() }, &Options::default());
    let group = &whole.buckets[0].projects[0].shell[0];
    assert_eq!(group.examples, ["cargo test -p b", "cargo test -p c"]);
    assert!(!group.truncated);
}

#[test]
fn an_ignored_program_is_dropped_with_every_sub_command_of_it() {
    let shell = vec![
        run(Some("api"), "2026-03-06T10:00:00Z", "git status", Some(0)),
        run(Some("api"), "2026-03-06T10:05:00Z", "git push", Some(0)),
        run(Some("api"), "2026-03-06T10:10:00Z", "cargo test", Some(0)),
    ];
    let options = Options {
        shell: ShellGrouping {
            ignore: vec!["git".to_owned(), "cargo test".to_owned()],
            ..ShellGrouping::default()
        },
        ..Options::default()
    };
    let report = report(Activity { shell, ..Activity::default() }, &options);
    let bucket = &report.buckets[0];
    assert_eq!(bucket.totals.commands, 0, "{:?}", bucket.projects);
    assert!(bucket.projects.is_empty(), "{:?}", bucket.projects);
}

#[test]
fn work_in_progress_is_kept_by_its_own_time() {
    let file = |path: &str, time: &str| WipFile { path: path.to_owned(), modified: ts(time) };
    let wip = vec![
        // Files only: kept, the old one left out.
        WipEvent {
            project: project("api"),
            files: vec![
                file("src/lib.rs", "2026-03-06T10:00:00Z"),
                file("old.txt", "2026-03-01T10:00:00Z"),
            ],
            stashes: Vec::new(),
            ahead: Vec::new(),
            stopped: None,
        },
        // A stash only.
        WipEvent {
            project: project("web"),
            files: Vec::new(),
            stashes: vec![WipStash {
                time: ts("2026-03-06T12:00:00Z"),
                message: "WIP on main: try".to_owned(),
            }],
            ahead: Vec::new(),
            stopped: None,
        },
        // A rebase that stopped on the day, with a conflict: kept, placed by it.
        WipEvent {
            project: project("db"),
            files: Vec::new(),
            stashes: Vec::new(),
            ahead: Vec::new(),
            stopped: Some(Stopped {
                operation: Operation::Rebase,
                conflicts: 1,
                since: ts("2026-03-06T13:00:00Z"),
                worktree: None,
            }),
        },
        // A merge stopped days before: not the day's (the outlook carries it).
        WipEvent {
            project: project("ops"),
            files: Vec::new(),
            stashes: Vec::new(),
            ahead: Vec::new(),
            stopped: Some(Stopped {
                operation: Operation::Merge,
                conflicts: 0,
                since: ts("2026-03-02T13:00:00Z"),
                worktree: None,
            }),
        },
        // Nothing of the day: no project.
        WipEvent {
            project: project("cli"),
            files: vec![file("notes.md", "2026-03-01T10:00:00Z")],
            stashes: Vec::new(),
            ahead: Vec::new(),
            stopped: None,
        },
    ];
    let report = report(Activity { wip, ..Activity::default() }, &Options::default());
    let projects = &report.buckets[0].projects;
    let wip_of = |name: &str| {
        projects.iter().find(|project| project.name == name).and_then(|project| project.wip.clone())
    };
    let api = wip_of("api").expect("api's work in progress");
    assert_eq!(api.files, ["src/lib.rs"]);
    let web = wip_of("web").expect("web's work in progress");
    assert_eq!(web.stashes, ["WIP on main: try"]);
    assert!(projects.iter().all(|project| project.name != "cli"), "{projects:?}");
    assert!(projects.iter().all(|project| project.name != "ops"), "{projects:?}");
    let db = wip_of("db").expect("db's work in progress");
    assert_eq!(
        db.stopped.map(|stopped| (stopped.operation, stopped.conflicts)),
        Some((Operation::Rebase, 1))
    );
    let db = projects.iter().find(|project| project.name == "db").expect("db");
    assert_eq!(db.last_activity, ts("2026-03-06T13:00:00Z"));
    let api = projects.iter().find(|project| project.name == "api").expect("api");
    assert_eq!(api.last_activity, ts("2026-03-06T10:00:00Z"));
}
