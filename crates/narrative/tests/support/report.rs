//! The one `Report` fixture of the narrative crate: the builders its unit tests
//! (`src/tests.rs`), integration tests (`tests/it`) and benchmark (`benches/checks.rs`)
//! make their reports with, included in each by `#[path]` (see docs/decisions.md, round 9).

use jiff::Timestamp;
use jiff::civil::{Date, date};
use report_model::{
    Agent, Bucket, BucketKind, Commit, Meta, Project, Report, ReportKind, SCHEMA_VERSION, Session,
    ShellGroup, Totals, Window,
};

/// The day every test report is about.
pub(crate) const DAY: Date = date(2026, 11, 27);

/// Seconds into `DAY` (UTC), as a timestamp.
pub(crate) fn at(seconds: i64) -> Timestamp {
    Timestamp::from_second(1_795_737_600 + seconds).unwrap()
}

/// A commit; `n` varies its hash and stats.
pub(crate) fn commit(subject: &str, n: u64) -> Commit {
    Commit {
        machines: Vec::new(),
        // Distinct in the first 10 characters, which are the evidence id.
        hash: format!("{:010x}{n:030x}", (n + 1).wrapping_mul(0x9e37_79b9) % 0xff_ffff_ffff),
        subject: subject.to_owned(),
        truncated: false,
        author_time: at(36_000 - i64::try_from(n).unwrap() * 60),
        files_changed: 1 + n % 4,
        insertions: 10 * n + 3,
        deletions: n,
        merge: false,
        branches: Vec::new(),
        remote_branches: Vec::new(),
        unpushed: false,
    }
}

/// A Claude Code session.
pub(crate) fn session(title: &str, prompts: u64) -> Session {
    Session {
        machines: Vec::new(),
        agent: Agent::ClaudeCode,
        session_id: format!("session-{prompts}-{}", title.len()),
        title: title.to_owned(),
        truncated: false,
        prompts,
        first: at(30_000),
        last: at(31_000),
        branch: None,
        models: Vec::new(),
    }
}

/// A shell group.
pub(crate) fn group(head: &str, count: u64, examples: &[&str]) -> ShellGroup {
    ShellGroup {
        machines: Vec::new(),
        head: head.to_owned(),
        count,
        examples: examples.iter().map(|example| (*example).to_owned()).collect(),
        truncated: false,
        failed: 0,
        agent: false,
    }
}

/// A project with totals computed from its commits and sessions.
pub(crate) fn project(name: &str, commits: Vec<Commit>, sessions: Vec<Session>) -> Project {
    let totals = Totals {
        projects: 1,
        commits: commits.len() as u64,
        files_changed: commits.iter().map(|commit| commit.files_changed).sum(),
        insertions: commits.iter().map(|commit| commit.insertions).sum(),
        deletions: commits.iter().map(|commit| commit.deletions).sum(),
        sessions: sessions.len() as u64,
        prompts: sessions.iter().map(|session| session.prompts).sum(),
        commands: 0,
        agent_commands: 0,
    };
    Project {
        remote: None,
        name: name.to_owned(),
        qualifier: None,
        path: format!("/home/dev/src/{name}").into(),
        last_activity: at(40_000),
        commits,
        sessions,
        commands: 0,
        totals,
        wip: None,
        next: Vec::new(),
        blockers: Vec::new(),
        shell: Vec::new(),
        time_spent: report_model::TimeSpent::default(),
    }
}

fn sum(projects: &[Project], shell: &[ShellGroup]) -> Totals {
    let mut totals = Totals { projects: projects.len() as u64, ..Totals::default() };
    for project in projects {
        totals.commits += project.totals.commits;
        totals.files_changed += project.totals.files_changed;
        totals.insertions += project.totals.insertions;
        totals.deletions += project.totals.deletions;
        totals.sessions += project.totals.sessions;
        totals.prompts += project.totals.prompts;
    }
    totals.commands = shell.iter().map(|group| group.count).sum();
    totals
}

/// A bucket of `kind` on `day`.
pub(crate) fn bucket(
    kind: BucketKind,
    day: Date,
    projects: Vec<Project>,
    shell: Vec<ShellGroup>,
) -> Bucket {
    let start = day.to_zoned(jiff::tz::TimeZone::UTC).unwrap().timestamp();
    let end = day.tomorrow().unwrap().to_zoned(jiff::tz::TimeZone::UTC).unwrap().timestamp();
    let totals = sum(&projects, &shell);
    Bucket {
        kind,
        window: Window { date: day, start, end },
        projects,
        shell,
        totals,
        through: None,
        time_spent: report_model::TimeSpent::default(),
        blockers: Vec::new(),
    }
}

fn report(kind: ReportKind, buckets: Vec<Bucket>) -> Report {
    let mut totals = Totals::default();
    for bucket in &buckets {
        totals.projects += bucket.totals.projects;
        totals.commits += bucket.totals.commits;
        totals.files_changed += bucket.totals.files_changed;
        totals.insertions += bucket.totals.insertions;
        totals.deletions += bucket.totals.deletions;
        totals.sessions += bucket.totals.sessions;
        totals.prompts += bucket.totals.prompts;
        totals.commands += bucket.totals.commands;
    }
    Report {
        schema_version: SCHEMA_VERSION,
        kind,
        buckets,
        totals,
        narrative: None,
        warnings: Vec::new(),
        meta: Meta {
            machines: Vec::new(),
            version: "0.1.0".to_owned(),
            generated_at: at(64_800),
            time_zone: "Asia/Tokyo".to_owned(),
            llm_model: None,
            secrets_masked: Vec::new(),
        },
        time_spent: report_model::TimeSpent::default(),
        narrative_check: None,
        outlook: report_model::Outlook::default(),
    }
}

/// A daily report.
pub(crate) fn daily(projects: Vec<Project>, shell: Vec<ShellGroup>) -> Report {
    report(ReportKind::Daily, vec![bucket(BucketKind::Day, DAY, projects, shell)])
}

/// A standup update: the previous working day, then today.
pub(crate) fn standup(
    previous: (Vec<Project>, Vec<ShellGroup>),
    today: (Vec<Project>, Vec<ShellGroup>),
) -> Report {
    let previous_day = DAY.yesterday().unwrap();
    report(
        ReportKind::Standup,
        vec![
            bucket(BucketKind::PreviousWorkday, previous_day, previous.0, previous.1),
            bucket(BucketKind::Today, DAY, today.0, today.1),
        ],
    )
}

/// A small daily report: two projects and a few shell groups.
pub(crate) fn small_daily() -> Report {
    daily(
        vec![
            project(
                "standup",
                vec![
                    commit("collect: decode zsh metafied bytes", 1),
                    commit("collect: join backslash continuations", 2),
                ],
                vec![session("Metafy fix", 6)],
            ),
            project(
                "billing-api",
                Vec::new(),
                vec![Session {
                    agent: Agent::Codex,
                    ..session("Investigate the flaky CI job on main", 9)
                }],
            ),
        ],
        vec![
            group("cargo test", 18, &["cargo test -p collect zsh"]),
            group("git commit", 6, &["git commit -m wip"]),
        ],
    )
}

/// A report with no activity.
pub(crate) fn empty_daily() -> Report {
    daily(Vec::new(), Vec::new())
}
