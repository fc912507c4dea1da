//! The budget tiers of DESIGN §8.3: one snapshot per tier, each from a report sized so that
//! the tier is the last one to fire, plus the hard cap.

use narrative::{Lang, Limits, Prompt, TIERS, build_prompt};
use report_model::{Project, Report, ShellGroup};
use serde_json::Value;

use crate::{commit, daily, data_of, group, project, redactor, session, standup};

fn prompt(report: &Report, budget: usize) -> Prompt {
    let limits = Limits { max_input_chars: budget, ..Limits::default() };
    build_prompt(report, redactor(), &limits, Lang::En).unwrap()
}

fn chars(text: &str) -> usize {
    text.chars().count()
}

/// `n_projects` projects with `n_commits` commits and `n_sessions` sessions each, and
/// `n_groups` shell groups with `n_examples` examples each.
fn busy_day(
    n_projects: usize,
    n_commits: usize,
    n_sessions: usize,
    n_groups: usize,
    n_examples: usize,
) -> Report {
    daily(projects(n_projects, n_commits, n_sessions, "p"), groups(n_groups, n_examples))
}

fn projects(n_projects: usize, n_commits: usize, n_sessions: usize, prefix: &str) -> Vec<Project> {
    (0..n_projects)
        .map(|project_idx| {
            let commits = (0..n_commits)
                .map(|commit_idx| {
                    commit(&format!("{prefix}{project_idx} commit {commit_idx}"), commit_idx as u64)
                })
                .collect();
            let sessions = (0..n_sessions)
                .map(|session_idx| {
                    session(&format!("{prefix}{project_idx} session {session_idx}"), 2)
                })
                .collect();
            project(&format!("{prefix}{project_idx}"), commits, sessions)
        })
        .collect()
}

fn groups(n_groups: usize, n_examples: usize) -> Vec<ShellGroup> {
    (0..n_groups)
        .map(|group_idx| {
            let examples: Vec<String> = (0..n_examples)
                .map(|example_idx| format!("tool{group_idx} --example {example_idx}"))
                .collect();
            let examples: Vec<&str> = examples.iter().map(String::as_str).collect();
            group(&format!("tool{group_idx}"), 20 - group_idx as u64, &examples)
        })
        .collect()
}

/// How far fitting went at `budget`: the index in [`TIERS`] of the last tier that fired,
/// `TIERS.len()` for the hard cap, `None` when nothing had to go.
fn depth(report: &Report, budget: usize) -> Option<usize> {
    let fitted = prompt(report, budget);
    if fitted.hard_capped {
        return Some(TIERS.len());
    }
    fitted.trimmed.last().map(|last| TIERS.iter().position(|name| name == last).unwrap())
}

/// The largest budget at which `tier` is the last tier to fire (so every earlier tier
/// fired in full, and `tier` dropped exactly what it had to). The depth only grows as the
/// budget shrinks, so a binary search finds it.
fn budget_where_last(report: &Report, tier: &str) -> usize {
    let target = TIERS.iter().position(|name| *name == tier).unwrap();
    let (mut low, mut high) = (0, chars(data_of(&prompt(report, usize::MAX).user)));
    // Invariant: depth(low) >= target, depth(high) < target.
    assert!(depth(report, low) >= Some(target));
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if depth(report, middle) >= Some(target) {
            low = middle;
        } else {
            high = middle;
        }
    }
    assert_eq!(depth(report, low), Some(target), "no budget makes {tier} the last tier");
    low
}

/// Fits `report` so that `tier` is the last tier to fire and snapshots the payload.
#[track_caller]
fn check_tier(report: &Report, tier: &str) {
    let budget = budget_where_last(report, tier);
    let fitted = prompt(report, budget);
    let data = data_of(&fitted.user);
    assert!(chars(data) <= budget, "{} > {budget}", chars(data));
    let expected: Vec<&str> =
        TIERS.iter().take_while(|name| **name != tier).chain([&tier]).copied().collect();
    let fired: Vec<&str> = fitted.trimmed.iter().map(String::as_str).collect();
    assert!(fired.iter().all(|name| expected.contains(name)), "{fired:?}");
    let value: Value = serde_json::from_str(data).unwrap();
    let pretty = serde_json::to_string_pretty(&value).unwrap();
    let payload = format!(
        "budget: {budget}\nchars: {}\ntiers: {}\n\n{pretty}",
        chars(data),
        fired.join(", ")
    );
    insta::assert_snapshot!(format!("tier_{tier}"), payload);
}

#[test]
fn tier_shell_examples() {
    check_tier(&busy_day(2, 2, 1, 3, 2), "shell_examples");
}

#[test]
fn tier_shell_groups() {
    check_tier(&busy_day(1, 1, 1, 13, 1), "shell_groups");
}

#[test]
fn tier_session_titles() {
    check_tier(&busy_day(2, 1, 12, 2, 1), "session_titles");
}

#[test]
fn tier_commit_subjects() {
    check_tier(&busy_day(2, 17, 1, 2, 1), "commit_subjects");
}

#[test]
fn tier_shell() {
    check_tier(&busy_day(2, 2, 1, 4, 1), "shell");
}

#[test]
fn tier_projects() {
    check_tier(&busy_day(3, 2, 1, 0, 0), "projects");
}

#[test]
fn hard_cap_is_the_last_resort() {
    let report = busy_day(2, 1, 1, 1, 1);
    let fitted = prompt(&report, 60);
    assert!(fitted.hard_capped);
    assert_eq!(fitted.trimmed, ["shell_examples", "shell", "projects"]);
    let data = data_of(&fitted.user);
    assert_eq!(chars(data), 60);
    let payload = data;
    insta::assert_snapshot!("hard_cap", payload);
}

#[test]
fn a_budget_smaller_than_an_empty_payload_still_holds() {
    let report = busy_day(1, 1, 0, 0, 0);
    for budget in [0, 1, 5] {
        let fitted = prompt(&report, budget);
        let data = data_of(&fitted.user);
        assert_eq!(chars(data), budget);
        assert!(!data.contains('<'));
    }
}

#[test]
fn every_budget_holds_and_keeps_the_frame() {
    let report = busy_day(3, 17, 12, 13, 2);
    let full = chars(data_of(&prompt(&report, usize::MAX).user));
    for budget in (0..=full).step_by(97) {
        let fitted = prompt(&report, budget);
        let data = data_of(&fitted.user);
        assert!(chars(data) <= budget);
        assert_eq!(fitted.user.matches("</data>").count(), 1);
        if !fitted.hard_capped {
            serde_json::from_str::<Value>(data).unwrap();
        }
    }
}

#[test]
fn standup_drops_the_previous_workdays_projects_first() {
    let report =
        standup((projects(2, 1, 0, "old"), Vec::new()), (projects(2, 1, 0, "new"), Vec::new()));
    let budget = budget_where_last(&report, "projects");
    let value: Value = serde_json::from_str(data_of(&prompt(&report, budget).user)).unwrap();
    let names = |bucket: usize| -> Vec<String> {
        value["buckets"][bucket]["projects"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|project| project["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(names(0), ["old0"]);
    assert_eq!(names(1), ["new0", "new1"]);
    assert_eq!(value["buckets"][0]["projects"]["truncated"], true);
    assert_eq!(value["buckets"][0]["kind"], "previous_workday");
}
