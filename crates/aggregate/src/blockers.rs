//! Possible blockers read from the evidence alone, without a model: a command that kept
//! failing with no passing run after, a commit reverted the same day, a project's last
//! agent session interrupted and not resumed. No evidence, no blocker.

use std::collections::BTreeMap;
use std::path::PathBuf;

use jiff::Timestamp;
use report_model::{Blocker, BlockerKind, Bucket, Commit, Evidence, SessionEvent, ShellEvent};

use crate::shell::ShellGrouping;

/// A command is a blocker once it failed this many times in a row.
pub const FAILURES_MIN: usize = 2;

/// Test runners: one that passed with fewer arguments (filters) than a failing run of it
/// (`cargo test` after `cargo test parse`) ran those tests too, so it clears the failure.
const TEST_HEADS: [&str; 8] = [
    "cargo test",
    "cargo nextest",
    "go test",
    "pytest",
    "npm test",
    "pnpm test",
    "yarn test",
    "just test",
];

/// The exit status of a command the person stopped (Ctrl-C, SIGINT): not a failure.
const INTERRUPTED: i64 = 130;

/// Programs whose exit status 1 is an answer ("no match", "differs", "false"), not a
/// failure; their status 2 and above still is.
const STATUS_ONE_ANSWERS: [&str; 11] =
    ["grep", "egrep", "fgrep", "rg", "ag", "diff", "cmp", "test", "[", "pgrep", "which"];

/// Gives the buckets' projects (and the last bucket with shell commands outside any
/// project) their blockers.
pub(crate) fn add_blockers(
    buckets: &mut [Bucket],
    shell: &[ShellEvent],
    sessions: &[SessionEvent],
    grouping: &ShellGrouping,
) {
    failing_commands(buckets, shell, grouping);
    reverted_commits(buckets);
    interrupted_sessions(buckets, sessions);
    for bucket in buckets.iter_mut() {
        sort(&mut bucket.blockers);
        for project in &mut bucket.projects {
            sort(&mut project.blockers);
        }
    }
}

fn sort(blockers: &mut [Blocker]) {
    blockers.sort_by(|a, b| {
        a.time.cmp(&b.time).then_with(|| a.kind.cmp(&b.kind)).then_with(|| a.text.cmp(&b.text))
    });
}

/// What a run of a command says about it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    /// A non-zero status that means it did not work.
    Failed,
    /// Neither: no status recorded, interrupted by the person, or an answer (`grep`'s 1).
    Neither,
    /// Status 0.
    Passed,
}

fn outcome(event: &ShellEvent, head: &str) -> Outcome {
    match event.exit {
        None | Some(INTERRUPTED) => Outcome::Neither,
        Some(0) => Outcome::Passed,
        Some(1) if STATUS_ONE_ANSWERS.contains(&head) => Outcome::Neither,
        Some(_) => Outcome::Failed,
    }
}

/// One run of a command: its time, outcome, exit status and text.
type Run<'a> = (Timestamp, Outcome, i64, &'a str);

/// The same command line: its words, blanks collapsed.
fn normalized(command: &str) -> String {
    command.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Per project (and for commands outside any project), each command line the person ran
/// in the report's windows whose last runs failed [`FAILURES_MIN`] or more times in a row
/// with no passing run after. An AI agent's commands are not looked at.
fn failing_commands(buckets: &mut [Bucket], shell: &[ShellEvent], grouping: &ShellGrouping) {
    // (project path, normalized command) → its runs.
    let mut runs: BTreeMap<(Option<PathBuf>, String), Vec<Run<'_>>> = BTreeMap::new();
    // Passing runs of test commands: (project path, head, normalized command, time).
    let mut test_passes: Vec<(Option<PathBuf>, String, String, Timestamp)> = Vec::new();
    for event in shell {
        if event.agent.is_some() || !buckets.iter().any(|bucket| bucket.window.contains(event.time))
        {
            continue;
        }
        let Some(head) = crate::group::grouped_head(&event.command, grouping) else { continue };
        let project = event.project.as_ref().map(|project| project.path.clone());
        let outcome = outcome(event, &head);
        if outcome == Outcome::Passed && TEST_HEADS.contains(&head.as_str()) {
            test_passes.push((
                project.clone(),
                head.clone(),
                normalized(&event.command),
                event.time,
            ));
        }
        runs.entry((project, normalized(&event.command))).or_default().push((
            event.time,
            outcome,
            event.exit.unwrap_or_default(),
            event.command.as_str(),
        ));
    }
    for ((project, command), mut runs) in runs {
        // In time order; at the same instant a failure comes first, so a pass ends it.
        runs.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)).then_with(|| a.3.cmp(b.3)));
        let mut streak: Vec<(Timestamp, i64, &str)> = Vec::new();
        for (time, outcome, exit, text) in runs {
            match outcome {
                Outcome::Passed => streak.clear(),
                Outcome::Failed => streak.push((time, exit, text)),
                Outcome::Neither => {}
            }
        }
        let (Some(first), Some(last)) = (streak.first(), streak.last()) else { continue };
        if streak.len() < FAILURES_MIN {
            continue;
        }
        // `cargo test` passing after `cargo test parse` failed ran those tests too.
        let broader_passed = test_passes.iter().any(|(pass_project, head, pass, time)| {
            *pass_project == project
                && *time > last.0
                && pass.len() < command.len()
                && command.starts_with(&format!("{pass} "))
                && crate::group::grouped_head(&command, grouping).as_deref() == Some(head)
        });
        if broader_passed {
            continue;
        }
        let blocker = Blocker {
            kind: BlockerKind::FailingCommand,
            text: last.2.to_owned(),
            evidence: streak
                .iter()
                .map(|&(time, exit, _)| Evidence::Command { time, exit })
                .collect(),
            time: first.0,
        };
        place(buckets, project.as_deref(), blocker);
    }
}

/// A blocker of a project goes on the last bucket the project appears in; one of
/// commands outside any project on the last bucket with shell commands.
fn place(buckets: &mut [Bucket], project: Option<&std::path::Path>, blocker: Blocker) {
    for bucket in buckets.iter_mut().rev() {
        match project {
            Some(path) => {
                if let Some(project) = bucket.projects.iter_mut().find(|p| p.path == path) {
                    project.blockers.push(blocker);
                    return;
                }
            }
            None => {
                if !bucket.shell.is_empty() {
                    bucket.blockers.push(blocker);
                    return;
                }
            }
        }
    }
}

/// The subject a revert's subject names: `Revert "<subject>"` (git's own wording).
fn reverted_subject(subject: &str) -> Option<&str> {
    subject.strip_prefix("Revert \"")?.strip_suffix('"').filter(|inner| !inner.is_empty())
}

/// In each bucket's projects, each commit reverted by another of the same window (`Revert
/// "<subject>"` after a commit with that subject), unless a commit with that subject was
/// made again after the revert.
fn reverted_commits(buckets: &mut [Bucket]) {
    for bucket in buckets.iter_mut() {
        for project in &mut bucket.projects {
            let mut found = Vec::new();
            for revert in &project.commits {
                let Some(subject) = reverted_subject(&revert.subject) else { continue };
                let same = |commit: &&Commit| commit.subject == subject;
                let original = project
                    .commits
                    .iter()
                    .filter(same)
                    .filter(|commit| commit.author_time <= revert.author_time)
                    .max_by(|a, b| {
                        a.author_time.cmp(&b.author_time).then_with(|| b.hash.cmp(&a.hash))
                    });
                let Some(original) = original else { continue };
                let made_again = project
                    .commits
                    .iter()
                    .filter(same)
                    .any(|commit| commit.author_time > revert.author_time);
                if made_again {
                    continue;
                }
                found.push(Blocker {
                    kind: BlockerKind::RevertedCommit,
                    text: subject.to_owned(),
                    evidence: vec![
                        Evidence::Commit {
                            hash: original.hash.clone(),
                            time: original.author_time,
                        },
                        Evidence::Commit { hash: revert.hash.clone(), time: revert.author_time },
                    ],
                    time: revert.author_time,
                });
            }
            project.blockers.extend(found);
        }
    }
}

/// For each project, on the last bucket it appears in: its last agent session (the one
/// with the latest record in the report's windows up to that bucket), when the person
/// interrupted it inside those windows and typed nothing after.
fn interrupted_sessions(buckets: &mut [Bucket], sessions: &[SessionEvent]) {
    let mut last: BTreeMap<PathBuf, usize> = BTreeMap::new();
    for (index, bucket) in buckets.iter().enumerate() {
        for project in &bucket.projects {
            last.insert(project.path.clone(), index);
        }
    }
    for (path, index) in last {
        let windows: Vec<report_model::Window> =
            buckets[..=index].iter().map(|bucket| bucket.window).collect();
        let inside = |time: &Timestamp| windows.iter().any(|window| window.contains(*time));
        let newest = sessions
            .iter()
            .filter(|session| {
                session.project.as_ref().map_or(std::path::Path::new(""), |p| p.path.as_path())
                    == path
            })
            .filter_map(|session| {
                let latest =
                    session.activity.iter().chain(&session.prompts).filter(|t| inside(t)).max()?;
                Some((*latest, session))
            })
            .max_by(|a, b| {
                a.0.cmp(&b.0)
                    .then_with(|| b.1.agent.cmp(&a.1.agent))
                    .then_with(|| b.1.session_id.cmp(&a.1.session_id))
            });
        let Some((_, session)) = newest else { continue };
        let Some(time) = session.interrupted.filter(|time| inside(time)) else { continue };
        let blocker = Blocker {
            kind: BlockerKind::InterruptedSession,
            text: session.title.clone(),
            evidence: vec![Evidence::Session {
                agent: session.agent,
                session_id: session.session_id.clone(),
                time,
            }],
            time,
        };
        if let Some(project) = buckets[index].projects.iter_mut().find(|p| p.path == path) {
            project.blockers.push(blocker);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_revert_subjects() {
        assert_eq!(reverted_subject("Revert \"api: retry\""), Some("api: retry"));
        assert_eq!(reverted_subject("Revert \"Revert \"x\"\""), Some("Revert \"x\""));
        assert_eq!(reverted_subject("Revert \"\""), None);
        assert_eq!(reverted_subject("Revert the retry"), None);
        assert_eq!(reverted_subject("Revert \"cut…"), None);
    }

    #[test]
    fn command_lines_are_compared_by_their_words() {
        assert_eq!(normalized("  cargo   test\t-p api "), "cargo test -p api");
    }
}
