//! Next steps: which session's to-do list a project's next steps come from, and on
//! which bucket they are shown.

use aggregate::{NEXT_STEPS_MAX, Options};
use report_model::{Activity, Agent, BucketKind, Report, SessionEvent, Todo, TodoStatus, Window};

mod support;
use support::*;

fn todo(text: &str, status: TodoStatus) -> Todo {
    Todo { text: text.to_owned(), status }
}

fn session(
    agent: Agent,
    id: &str,
    project_name: &str,
    activity: &[&str],
    todos: Vec<Todo>,
    written: Option<&str>,
) -> SessionEvent {
    SessionEvent {
        agent,
        session_id: id.to_owned(),
        title: format!("title of {id}"),
        truncated: false,
        cwd: None,
        project: Some(project(project_name)),
        prompts: Vec::new(),
        activity: activity.iter().map(|time| ts(time)).collect(),
        models: Vec::new(),
        branch: None,
        todos,
        todos_time: written.map(ts),
        interrupted: None,
        failed_commands: Vec::new(),
    }
}

fn report(windows: &[(BucketKind, Window)], sessions: Vec<SessionEvent>) -> Report {
    standup(windows, Activity { sessions, ..Activity::default() }, &Options::default())
}

/// The next steps of a project on each bucket, as `(text, session)`.
fn next_of(report: &Report, name: &str) -> Vec<Vec<(String, String)>> {
    per_bucket(report, name, |project| {
        project.next.iter().map(|step| (step.text.clone(), step.session_id.clone())).collect()
    })
}

fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items.iter().map(|(text, id)| ((*text).to_owned(), (*id).to_owned())).collect()
}

#[test]
fn the_last_sessions_open_items_go_on_the_last_bucket_of_the_project() {
    let sessions = vec![
        // Friday: Claude Code left two pending items and one done.
        session(
            Agent::ClaudeCode,
            "claude-1",
            "app",
            &["2026-03-06T10:00:00Z", "2026-03-06T11:00:00Z"],
            vec![
                todo("write the client", TodoStatus::Completed),
                todo("add the retry test", TodoStatus::Pending),
                todo("wire the Slack output", TodoStatus::InProgress),
            ],
            Some("2026-03-06T10:30:00Z"),
        ),
        // An older session of the same project with a list: not the last one.
        session(
            Agent::Codex,
            "codex-old",
            "app",
            &["2026-03-06T08:00:00Z"],
            vec![todo("stale step", TodoStatus::Pending)],
            Some("2026-03-06T08:00:00Z"),
        ),
        // Another project, active on Friday and Monday: its steps are on Monday.
        session(
            Agent::Codex,
            "codex-2",
            "api",
            &["2026-03-06T12:00:00Z", "2026-03-09T08:00:00Z"],
            vec![todo("ship it", TodoStatus::Pending)],
            Some("2026-03-09T08:00:00Z"),
        ),
    ];
    let report = report(&standup_windows(), sessions);
    assert_eq!(
        next_of(&report, "app"),
        [
            pairs(&[("add the retry test", "claude-1"), ("wire the Slack output", "claude-1")]),
            vec![]
        ]
    );
    assert_eq!(next_of(&report, "api"), [vec![], pairs(&[("ship it", "codex-2")])]);
    let app = &report.buckets[0].projects.iter().find(|p| p.name == "app").expect("app").next;
    assert_eq!(app[1].status, TodoStatus::InProgress);
    assert_eq!(app[0].agent, Agent::ClaudeCode);
    assert_eq!(app[0].time, ts("2026-03-06T10:30:00Z"));
}

#[test]
fn a_finished_newest_list_leaves_no_next_steps_and_none_are_empty() {
    let sessions = vec![
        session(
            Agent::Codex,
            "old",
            "app",
            &["2026-03-09T01:00:00Z"],
            vec![todo("left over", TodoStatus::Pending)],
            Some("2026-03-09T01:00:00Z"),
        ),
        // The last session finished its list: nothing is left, whatever older ones said.
        session(
            Agent::ClaudeCode,
            "new",
            "app",
            &["2026-03-09T02:00:00Z"],
            vec![todo("done", TodoStatus::Completed), todo("dropped", TodoStatus::Cancelled)],
            Some("2026-03-09T02:00:00Z"),
        ),
        // No list at all.
        session(Agent::ClaudeCode, "plain", "web", &["2026-03-09T03:00:00Z"], Vec::new(), None),
    ];
    let report = report(&standup_windows(), sessions);
    for bucket in &report.buckets {
        assert!(bucket.projects.iter().all(|project| project.next.is_empty()));
    }
    let json = serde_json::to_string(&report).expect("json");
    assert!(!json.contains("\"next\""), "{json}");
}

#[test]
fn next_steps_are_capped_and_lists_after_the_report_are_not_read() {
    let many: Vec<Todo> =
        (0..9).map(|index| todo(&format!("step {index}"), TodoStatus::Pending)).collect();
    let windows = vec![(
        BucketKind::Day,
        window("2026-03-06", "2026-03-06T00:00:00Z", "2026-03-07T00:00:00Z"),
    )];
    let sessions = vec![
        session(
            Agent::ClaudeCode,
            "capped",
            "app",
            &["2026-03-06T10:00:00Z"],
            many,
            Some("2026-03-06T10:00:00Z"),
        ),
        // Its list was written after the day: a report of that day does not show it.
        session(
            Agent::Codex,
            "later",
            "web",
            &["2026-03-06T10:00:00Z", "2026-03-08T10:00:00Z"],
            vec![todo("future", TodoStatus::Pending)],
            Some("2026-03-08T10:00:00Z"),
        ),
        // Written at the very end of the day: the window's end is not in it.
        session(
            Agent::Codex,
            "at-the-end",
            "cli",
            &["2026-03-06T10:00:00Z"],
            vec![todo("tomorrow", TodoStatus::Pending)],
            Some("2026-03-07T00:00:00Z"),
        ),
    ];
    let report = report(&windows, sessions);
    let app = &report.buckets[0].projects.iter().find(|p| p.name == "app").expect("app").next;
    assert_eq!(app.len(), NEXT_STEPS_MAX);
    assert_eq!(app[0].text, "step 0");
    let web = &report.buckets[0].projects.iter().find(|p| p.name == "web").expect("web").next;
    assert!(web.is_empty());
    let cli = &report.buckets[0].projects.iter().find(|p| p.name == "cli").expect("cli").next;
    assert!(cli.is_empty(), "{cli:?}");
}
