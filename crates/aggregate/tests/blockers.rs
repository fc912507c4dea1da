//! Blockers from the evidence alone: commands that kept failing with no passing run
//! after, commits reverted the same day; where each is placed; nothing without evidence.

use aggregate::Options;
use report_model::{
    Activity, Blocker, BlockerKind, BucketKind, Evidence, Report, ShellEvent, Window,
};

mod support;
use support::*;

fn report(windows: &[(BucketKind, Window)], activity: Activity) -> Report {
    standup(windows, activity, &Options::default())
}

fn shell_report(shell: Vec<ShellEvent>) -> Report {
    report(&standup_windows(), Activity { shell, ..Activity::default() })
}

/// The blockers of a project on each bucket.
fn blockers_of(report: &Report, name: &str) -> Vec<Vec<Blocker>> {
    per_bucket(report, name, |project| project.blockers.clone())
}

fn failed(time: &str, exit: i64) -> Evidence {
    Evidence::Command { time: ts(time), exit }
}

#[test]
fn a_command_failing_three_times_in_a_row_is_a_blocker_with_each_run_as_evidence() {
    let report = shell_report(vec![
        run(Some("api"), "2026-03-06T15:00:00Z", "cargo test -p api", Some(0)),
        run(Some("api"), "2026-03-06T16:10:00Z", "cargo test -p api", Some(101)),
        run(Some("api"), "2026-03-06T16:20:00Z", "cargo  test -p api", Some(101)),
        // Another command in between does not break the run.
        run(Some("api"), "2026-03-06T16:25:00Z", "cargo build", Some(0)),
        run(Some("api"), "2026-03-06T16:40:00Z", "cargo test -p api", Some(1)),
    ]);
    let expected = Blocker {
        kind: BlockerKind::FailingCommand,
        text: "cargo test -p api".to_owned(),
        evidence: vec![
            failed("2026-03-06T16:10:00Z", 101),
            failed("2026-03-06T16:20:00Z", 101),
            failed("2026-03-06T16:40:00Z", 1),
        ],
        time: ts("2026-03-06T16:10:00Z"),
    };
    assert_eq!(blockers_of(&report, "api"), [vec![expected], vec![]]);
    let json = serde_json::to_value(&report).expect("json");
    assert_eq!(
        json["buckets"][0]["projects"][0]["blockers"][0]["evidence"][0],
        serde_json::json!({"type": "command", "time": "2026-03-06T16:10:00Z", "exit": 101})
    );
    assert_eq!(json["buckets"][0]["projects"][0]["blockers"][0]["kind"], "failing_command");
}

#[test]
fn a_later_pass_one_failure_or_no_exit_status_gives_nothing() {
    let report = shell_report(vec![
        // Failed twice, then passed on Monday.
        run(Some("api"), "2026-03-06T16:10:00Z", "cargo test", Some(101)),
        run(Some("api"), "2026-03-06T16:20:00Z", "cargo test", Some(101)),
        run(Some("api"), "2026-03-09T08:00:00Z", "cargo test", Some(0)),
        // Failed once.
        run(Some("api"), "2026-03-09T08:10:00Z", "cargo clippy", Some(101)),
        // A history without exit statuses (zsh) never fails.
        run(Some("api"), "2026-03-09T08:20:00Z", "make", None),
        run(Some("api"), "2026-03-09T08:21:00Z", "make", None),
        // Stopped by the person, and grep's "no match": not failures.
        run(Some("api"), "2026-03-09T08:30:00Z", "cargo watch", Some(130)),
        run(Some("api"), "2026-03-09T08:31:00Z", "cargo watch", Some(130)),
        run(Some("api"), "2026-03-09T08:40:00Z", "grep -r TODO src", Some(1)),
        run(Some("api"), "2026-03-09T08:41:00Z", "grep -r TODO src", Some(1)),
        // Same head, other arguments: a different command.
        run(Some("api"), "2026-03-09T08:50:00Z", "cargo run -- a", Some(1)),
        run(Some("api"), "2026-03-09T08:51:00Z", "cargo run -- b", Some(1)),
        // Ignored heads are not looked at.
        run(Some("api"), "2026-03-09T08:52:00Z", "cd nowhere", Some(1)),
        run(Some("api"), "2026-03-09T08:53:00Z", "cd nowhere", Some(1)),
    ]);
    assert_eq!(blockers_of(&report, "api"), [vec![], vec![]]);
    let json = serde_json::to_string(&report).expect("json");
    assert!(!json.contains("\"blockers\""), "{json}");
}

#[test]
fn a_broader_test_run_that_passed_clears_a_narrower_ones_failures() {
    let report = shell_report(vec![
        run(Some("api"), "2026-03-06T10:05:00Z", "cargo test parse", Some(101)),
        run(Some("api"), "2026-03-06T10:10:00Z", "cargo test parse", Some(101)),
        run(Some("api"), "2026-03-06T10:20:00Z", "cargo test", Some(0)),
        // Not a test runner: `make` passing says nothing about `make docs`.
        run(Some("api"), "2026-03-06T11:00:00Z", "make docs", Some(2)),
        run(Some("api"), "2026-03-06T11:05:00Z", "make docs", Some(2)),
        run(Some("api"), "2026-03-06T11:10:00Z", "make", Some(0)),
        // A broader run before the failures does not clear them.
        run(Some("api"), "2026-03-06T12:00:00Z", "cargo test -p api", Some(101)),
        run(Some("api"), "2026-03-06T12:05:00Z", "cargo test -p api", Some(101)),
    ]);
    let texts: Vec<Vec<String>> = blockers_of(&report, "api")
        .iter()
        .map(|bucket| bucket.iter().map(|blocker| blocker.text.clone()).collect())
        .collect();
    assert_eq!(texts, [vec!["make docs".to_owned(), "cargo test -p api".to_owned()], vec![]]);
}

#[test]
fn an_agents_failures_and_runs_outside_the_windows_are_not_looked_at() {
    let mut agent_runs = vec![
        run(Some("api"), "2026-03-06T16:10:00Z", "cargo test", Some(101)),
        run(Some("api"), "2026-03-06T16:20:00Z", "cargo test", Some(101)),
    ];
    for event in &mut agent_runs {
        event.agent = Some("claude-code".to_owned());
    }
    // Before the report: the failures that count are in its windows.
    agent_runs.push(run(Some("api"), "2026-03-05T16:10:00Z", "make", Some(2)));
    agent_runs.push(run(Some("api"), "2026-03-06T16:30:00Z", "make", Some(2)));
    let report = shell_report(agent_runs);
    assert_eq!(blockers_of(&report, "api"), [vec![], vec![]]);
}

#[test]
fn a_still_failing_command_goes_on_the_last_bucket_of_its_project_and_outside_ones_on_the_shell() {
    let report = shell_report(vec![
        run(Some("api"), "2026-03-06T16:10:00Z", "cargo test", Some(101)),
        run(Some("api"), "2026-03-09T08:00:00Z", "cargo test", Some(101)),
        run(None, "2026-03-06T10:00:00Z", "kubectl apply -f x.yaml", Some(1)),
        run(None, "2026-03-06T10:05:00Z", "kubectl apply -f x.yaml", Some(1)),
    ]);
    let api = blockers_of(&report, "api");
    assert!(api[0].is_empty());
    assert_eq!(api[1].len(), 1);
    assert_eq!(api[1][0].time, ts("2026-03-06T16:10:00Z"));
    // Outside any project: the Friday bucket's, the last one with shell commands.
    assert_eq!(report.buckets[0].blockers.len(), 1);
    assert_eq!(report.buckets[0].blockers[0].text, "kubectl apply -f x.yaml");
    assert!(report.buckets[1].blockers.is_empty());
}

#[test]
fn a_commit_reverted_the_same_day_is_a_blocker_citing_both_commits() {
    let commits = vec![
        commit("app", "aaaa", "api: retry on 503", "2026-03-06T10:00:00Z"),
        commit("app", "bbbb", "Revert \"api: retry on 503\"", "2026-03-06T16:40:00Z"),
        // Reverted, then made again: not a blocker.
        commit("app", "cccc", "ui: dark mode", "2026-03-06T11:00:00Z"),
        commit("app", "dddd", "Revert \"ui: dark mode\"", "2026-03-06T12:00:00Z"),
        commit("app", "eeee", "ui: dark mode", "2026-03-06T13:00:00Z"),
        // A revert of a commit not in the window: nothing to cite.
        commit("app", "ffff", "Revert \"older work\"", "2026-03-06T14:00:00Z"),
        // Reverted on another day: not the same day.
        commit("app", "1111", "web: cache", "2026-03-06T15:00:00Z"),
        commit("app", "2222", "Revert \"web: cache\"", "2026-03-09T08:00:00Z"),
    ];
    let report = report(&standup_windows(), Activity { commits, ..Activity::default() });
    let expected = Blocker {
        kind: BlockerKind::RevertedCommit,
        text: "api: retry on 503".to_owned(),
        evidence: vec![
            Evidence::Commit { hash: "aaaa".to_owned(), time: ts("2026-03-06T10:00:00Z") },
            Evidence::Commit { hash: "bbbb".to_owned(), time: ts("2026-03-06T16:40:00Z") },
        ],
        time: ts("2026-03-06T16:40:00Z"),
    };
    assert_eq!(blockers_of(&report, "app"), [vec![expected], vec![]]);
}

/// A Claude Code session in `api` whose agent ran `cargo test -p api` at each of `times`
/// (failing with 101), and whose last record is at `end`.
fn agent_session(times: &[&str], end: &str, last: bool) -> report_model::SessionEvent {
    report_model::SessionEvent {
        agent: report_model::Agent::ClaudeCode,
        session_id: "s-api".to_owned(),
        title: "Make the tests pass".to_owned(),
        truncated: false,
        cwd: None,
        project: Some(project("api")),
        prompts: Vec::new(),
        activity: vec![ts(times[0]), ts(end)],
        models: Vec::new(),
        branch: None,
        todos: Vec::new(),
        todos_time: None,
        interrupted: None,
        failed_commands: vec![report_model::FailedCommand {
            command: "cargo test -p api".to_owned(),
            runs: times
                .iter()
                .map(|time| report_model::FailedRun { time: ts(time), exit: 101 })
                .collect(),
            last,
        }],
    }
}

#[test]
fn an_agents_failing_command_is_a_blocker_citing_its_session_unless_the_person_fixed_it() {
    let times = ["2026-03-06T16:10:00Z", "2026-03-06T16:20:00Z"];
    let session = agent_session(&times, "2026-03-06T16:21:00Z", false);
    let only_agent = report(
        &standup_windows(),
        Activity { sessions: vec![session.clone()], ..Activity::default() },
    );
    let blockers = &blockers_of(&only_agent, "api")[0];
    assert_eq!(blockers.len(), 1, "{blockers:?}");
    assert_eq!(blockers[0].kind, BlockerKind::AgentFailingCommand);
    assert_eq!(blockers[0].time, ts(times[0]));
    assert_eq!(
        blockers[0].evidence,
        [
            Evidence::Session {
                agent: report_model::Agent::ClaudeCode,
                session_id: "s-api".to_owned(),
                time: ts(times[0]),
            },
            failed(times[0], 101),
            failed(times[1], 101),
        ]
    );

    // Once, not the session's last run: no blocker; once as its last run: a blocker.
    let once = |last: bool| {
        let session = agent_session(&times[..1], "2026-03-06T16:21:00Z", last);
        let report =
            report(&standup_windows(), Activity { sessions: vec![session], ..Activity::default() });
        blockers_of(&report, "api")[0].len()
    };
    assert_eq!((once(false), once(true)), (0, 1));

    // The person ran it after the agent, and it passed.
    let fixed = report(
        &standup_windows(),
        Activity {
            sessions: vec![session.clone()],
            shell: vec![run(Some("api"), "2026-03-06T17:00:00Z", "cargo  test -p api", Some(0))],
            ..Activity::default()
        },
    );
    assert!(blockers_of(&fixed, "api").iter().all(Vec::is_empty));

    // The person's own failures of it already show it: one line, theirs.
    let both = report(
        &standup_windows(),
        Activity {
            sessions: vec![session],
            shell: vec![
                run(Some("api"), "2026-03-06T17:00:00Z", "cargo test -p api", Some(101)),
                run(Some("api"), "2026-03-06T17:05:00Z", "cargo test -p api", Some(101)),
            ],
            ..Activity::default()
        },
    );
    let kinds: Vec<BlockerKind> = blockers_of(&both, "api")[0].iter().map(|b| b.kind).collect();
    assert_eq!(kinds, [BlockerKind::FailingCommand]);
}

/// A session of `project_name` with records at `times`, interrupted at `interrupted`.
fn session_of(
    project_name: &str,
    id: &str,
    times: &[&str],
    interrupted: Option<&str>,
) -> report_model::SessionEvent {
    report_model::SessionEvent {
        session_id: id.to_owned(),
        title: format!("title of {id}"),
        project: Some(project(project_name)),
        activity: times.iter().map(|time| ts(time)).collect(),
        interrupted: interrupted.map(ts),
        failed_commands: Vec::new(),
        ..agent_session(&["2026-03-06T10:00:00Z"], "2026-03-06T10:00:00Z", false)
    }
}

#[test]
fn a_projects_last_session_left_interrupted_is_a_blocker_of_that_project_only() {
    let sessions = vec![
        // `api`: its last session was interrupted on Monday.
        session_of("api", "api-old", &["2026-03-06T10:00:00Z"], None),
        session_of(
            "api",
            "api-last",
            &["2026-03-09T07:00:00Z", "2026-03-09T07:30:00Z"],
            Some("2026-03-09T07:30:00Z"),
        ),
        // `web`: an interrupted session, but a later one was not: no blocker.
        session_of(
            "web",
            "web-interrupted",
            &["2026-03-06T11:00:00Z"],
            Some("2026-03-06T11:00:00Z"),
        ),
        session_of("web", "web-last", &["2026-03-06T15:00:00Z"], None),
        // `cli`: interrupted before the report's windows.
        session_of(
            "cli",
            "cli-last",
            &["2026-03-05T10:00:00Z", "2026-03-06T09:00:00Z"],
            Some("2026-03-05T10:00:00Z"),
        ),
    ];
    let report = report(&standup_windows(), Activity { sessions, ..Activity::default() });
    let expected = Blocker {
        kind: BlockerKind::InterruptedSession,
        text: "title of api-last".to_owned(),
        evidence: vec![Evidence::Session {
            agent: report_model::Agent::ClaudeCode,
            session_id: "api-last".to_owned(),
            time: ts("2026-03-09T07:30:00Z"),
        }],
        time: ts("2026-03-09T07:30:00Z"),
    };
    assert_eq!(blockers_of(&report, "api"), [vec![], vec![expected]]);
    assert!(blockers_of(&report, "web").iter().all(Vec::is_empty), "web");
    assert!(blockers_of(&report, "cli").iter().all(Vec::is_empty), "cli");
}

#[test]
fn an_agents_failure_stays_unless_the_person_passed_that_command_there_after_it() {
    let times = ["2026-03-06T16:10:00Z", "2026-03-06T16:20:00Z"];
    let session = agent_session(&times, "2026-03-06T16:21:00Z", false);
    let kinds = |shell: Vec<ShellEvent>| {
        let report = report(
            &standup_windows(),
            Activity { sessions: vec![session.clone()], shell, ..Activity::default() },
        );
        blockers_of(&report, "api")[0]
            .iter()
            .map(|blocker| (blocker.kind, blocker.text.clone()))
            .collect::<Vec<_>>()
    };
    let agents = (BlockerKind::AgentFailingCommand, "cargo test -p api".to_owned());
    // None of these runs clears the agent's failure: one that passed before the agent's
    // last failure or in the same second, one in another project, one of another
    // command, one after it that failed.
    let not_clearing = [
        run(Some("api"), "2026-03-06T16:15:00Z", "cargo test -p api", Some(0)),
        run(Some("api"), "2026-03-06T16:20:00Z", "cargo test -p api", Some(0)),
        run(Some("web"), "2026-03-06T17:00:00Z", "cargo test -p api", Some(0)),
        run(Some("api"), "2026-03-06T17:00:00Z", "cargo test -p web", Some(0)),
        run(Some("api"), "2026-03-06T17:00:00Z", "cargo test -p api", Some(3)),
    ];
    for shell in not_clearing {
        let command = shell.command.clone();
        assert_eq!(kinds(vec![shell]), std::slice::from_ref(&agents), "{command}");
    }
    // The person's own failures of another command show beside it, not instead of it.
    let own = kinds(vec![
        run(Some("api"), "2026-03-06T17:00:00Z", "cargo build", Some(101)),
        run(Some("api"), "2026-03-06T17:05:00Z", "cargo build", Some(101)),
    ]);
    assert_eq!(own.len(), 2, "{own:?}");
    assert!(own.contains(&agents), "{own:?}");
    assert!(own.contains(&(BlockerKind::FailingCommand, "cargo build".to_owned())), "{own:?}");
}

#[test]
fn a_commit_reverted_in_the_same_second_is_still_a_blocker() {
    let activity = Activity {
        commits: vec![
            commit("app", "aaa", "Add the cache", "2026-03-06T10:00:00Z"),
            commit("app", "bbb", "Revert \"Add the cache\"", "2026-03-06T10:00:00Z"),
        ],
        ..Activity::default()
    };
    let report = report(&standup_windows(), activity);
    let blockers = &blockers_of(&report, "app")[0];
    assert_eq!(blockers.len(), 1, "{blockers:?}");
    assert_eq!(blockers[0].kind, BlockerKind::RevertedCommit);
    assert_eq!(blockers[0].text, "Add the cache");
}
