//! Possible blockers read from the evidence alone, without a model: a command that kept
//! failing with no passing run after, a commit reverted the same day, a project's last
//! agent session interrupted and not resumed, a shell command the agent of a project's
//! last session ran that failed with no passing run after. No evidence, no blocker.

use std::collections::BTreeMap;
use std::path::PathBuf;

use jiff::Timestamp;
use report_model::{
    Blocker, BlockerKind, Bucket, Commit, Evidence, SessionEvent, ShellEvent, Window,
};

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
    // Blockers only go to projects a bucket already holds, so the last sessions found
    // before any is added serve both kinds.
    let last = last_sessions(buckets, sessions);
    interrupted_sessions(buckets, &last);
    agent_failing_commands(buckets, &last, shell, grouping);
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
    outcome_of(event.exit, head)
}

/// What an exit status says about a run of a command whose head is `head`.
fn outcome_of(exit: Option<i64>, head: &str) -> Outcome {
    match exit {
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

/// A project's last agent session ([`last_sessions`]): the index of the last bucket the
/// project appears in, its path, the report's windows up to that bucket, the session.
type LastSession<'s> = (usize, PathBuf, Vec<Window>, &'s SessionEvent);

/// For each project: the bucket it last appears in, the windows of the report up to that
/// bucket, and its last agent session there (the one with the latest record in those
/// windows).
fn last_sessions<'s>(buckets: &[Bucket], sessions: &'s [SessionEvent]) -> Vec<LastSession<'s>> {
    let by_project = crate::group::sessions_by_project(sessions);
    let mut found = Vec::new();
    for (path, index) in crate::group::last_buckets(buckets) {
        let windows: Vec<Window> = buckets[..=index].iter().map(|bucket| bucket.window).collect();
        let inside = |time: &Timestamp| windows.iter().any(|window| window.contains(*time));
        let newest = by_project
            .get(path.as_path())
            .into_iter()
            .flatten()
            .filter_map(|&session| {
                let latest =
                    session.activity.iter().chain(&session.prompts).filter(|t| inside(t)).max()?;
                Some((*latest, session))
            })
            .max_by(|a, b| {
                a.0.cmp(&b.0)
                    .then_with(|| b.1.agent.cmp(&a.1.agent))
                    .then_with(|| b.1.session_id.cmp(&a.1.session_id))
            });
        if let Some((_, session)) = newest {
            found.push((index, path, windows, session));
        }
    }
    found
}

/// For each project, on the last bucket it appears in: its last agent session, when the
/// person interrupted it inside the report's windows and typed nothing after.
fn interrupted_sessions(buckets: &mut [Bucket], last: &[LastSession<'_>]) {
    for (index, path, windows, session) in last {
        let index = *index;
        let inside = |time: &Timestamp| windows.iter().any(|window| window.contains(*time));
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
        if let Some(project) = buckets[index].projects.iter_mut().find(|p| p.path == *path) {
            project.blockers.push(blocker);
        }
    }
}

/// For each project, on the last bucket it appears in: each shell command the agent of
/// its last session ran that failed with no passing run after in that session, when it
/// failed [`FAILURES_MIN`] times in a row inside the report's windows, or once as the
/// last command the agent ran (the session ended on it). The rules of the person's
/// commands apply: exit status 130 (interrupted) and a status-1 answer (`grep`, `diff`…)
/// are no failures, ignored heads are not looked at, and a passing run of the same
/// command line by the person in the project after the last failure clears it; one the
/// person's own failing commands already show is not repeated.
fn agent_failing_commands(
    buckets: &mut [Bucket],
    last: &[LastSession<'_>],
    shell: &[ShellEvent],
    grouping: &ShellGrouping,
) {
    for (index, path, windows, session) in last {
        let index = *index;
        let inside = |time: &Timestamp| windows.iter().any(|window| window.contains(*time));
        let mut found = Vec::new();
        for failed in &session.failed_commands {
            let Some(head) = crate::group::grouped_head(&failed.command, grouping) else {
                continue;
            };
            let runs: Vec<_> = failed
                .runs
                .iter()
                .filter(|run| inside(&run.time))
                .filter(|run| outcome_of(Some(run.exit), &head) == Outcome::Failed)
                .collect();
            let (Some(first), Some(latest)) = (runs.first(), runs.last()) else { continue };
            let ended_on_it = failed.last && failed.runs.last() == Some(*latest);
            if runs.len() < FAILURES_MIN && !ended_on_it {
                continue;
            }
            let command = normalized(&failed.command);
            let passed_after = shell.iter().any(|event| {
                event.exit == Some(0)
                    && event.time > latest.time
                    && event.project.as_ref().is_some_and(|project| project.path == *path)
                    && normalized(&event.command) == command
            });
            if passed_after {
                continue;
            }
            let evidence = std::iter::once(Evidence::Session {
                agent: session.agent,
                session_id: session.session_id.clone(),
                time: first.time,
            })
            .chain(runs.iter().map(|run| Evidence::Command { time: run.time, exit: run.exit }))
            .collect();
            found.push(Blocker {
                kind: BlockerKind::AgentFailingCommand,
                text: failed.command.clone(),
                evidence,
                time: first.time,
            });
        }
        let Some(project) = buckets[index].projects.iter_mut().find(|p| p.path == *path) else {
            continue;
        };
        for blocker in found {
            let shown = project.blockers.iter().any(|known| {
                known.kind == BlockerKind::FailingCommand
                    && normalized(&known.text) == normalized(&blocker.text)
            });
            if !shown {
                project.blockers.push(blocker);
            }
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
