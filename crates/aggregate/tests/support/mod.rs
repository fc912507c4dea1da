//! What the aggregate tests share: times, windows, projects and the report's meta.
#![allow(dead_code, reason = "each test binary uses its own part of the helpers")]

use std::path::PathBuf;

use aggregate::{Options, aggregate};
use jiff::Timestamp;
use report_model::{
    Activity, BucketKind, Commit, CommitEvent, Meta, Project, ProjectRef, Report, ReportKind,
    Shell, ShellEvent, Window,
};

pub(crate) fn ts(text: &str) -> Timestamp {
    text.parse().expect("test timestamp")
}

pub(crate) fn window(date: &str, start: &str, end: &str) -> Window {
    Window { date: date.parse().expect("date"), start: ts(start), end: ts(end) }
}

/// A standup's two windows: Friday 2026-03-06 and Monday 2026-03-09 (UTC).
pub(crate) fn standup_windows() -> Vec<(BucketKind, Window)> {
    vec![
        (
            BucketKind::PreviousWorkday,
            window("2026-03-06", "2026-03-06T00:00:00Z", "2026-03-09T00:00:00Z"),
        ),
        (BucketKind::Today, window("2026-03-09", "2026-03-09T00:00:00Z", "2026-03-09T09:00:00Z")),
    ]
}

pub(crate) fn project(name: &str) -> ProjectRef {
    ProjectRef { name: name.to_owned(), path: PathBuf::from(format!("/src/{name}")) }
}

/// The meta of a report generated on Monday 2026-03-09 09:00 UTC.
pub(crate) fn meta() -> Meta {
    Meta {
        machines: Vec::new(),
        version: "test".to_owned(),
        generated_at: ts("2026-03-09T09:00:00Z"),
        time_zone: "UTC".to_owned(),
        llm_model: None,
        secrets_masked: Vec::new(),
    }
}

/// A commit of mine in `~/src/<project_name>`: one file, one line added, on no branch.
pub(crate) fn commit(project_name: &str, hash: &str, subject: &str, time: &str) -> CommitEvent {
    CommitEvent {
        project: project(project_name),
        commit: Commit {
            machines: Vec::new(),
            hash: hash.to_owned(),
            subject: subject.to_owned(),
            truncated: false,
            author_time: ts(time),
            files_changed: 1,
            insertions: 1,
            deletions: 0,
            merge: false,
            branches: Vec::new(),
            remote_branches: Vec::new(),
            unpushed: false,
        },
    }
}

/// The standup `aggregate` makes of `activity` over `windows`, with [`meta`].
pub(crate) fn standup(
    windows: &[(BucketKind, Window)],
    activity: Activity,
    options: &Options,
) -> Report {
    aggregate(ReportKind::Standup, windows, activity, Vec::new(), meta(), options)
}

/// What `of` gives for the project `name`, bucket by bucket.
pub(crate) fn per_bucket<T>(
    report: &Report,
    name: &str,
    of: impl Fn(&Project) -> Vec<T>,
) -> Vec<Vec<T>> {
    report
        .buckets
        .iter()
        .map(|bucket| {
            bucket.projects.iter().filter(|project| project.name == name).flat_map(&of).collect()
        })
        .collect()
}

/// A command the person ran (in `~/src/<project_name>` when named) at `time`, with its
/// exit status when the history keeps one.
pub(crate) fn run(
    project_name: Option<&str>,
    time: &str,
    command: &str,
    exit: Option<i64>,
) -> ShellEvent {
    ShellEvent {
        shell: Shell::Atuin,
        time: ts(time),
        command: command.to_owned(),
        truncated: false,
        cwd: None,
        project: project_name.map(project),
        exit,
        duration_ns: None,
        agent: None,
    }
}
