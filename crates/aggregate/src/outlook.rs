//! What looks forward beside the activity: the person's notes, the plans and blockers
//! carried into a standup (done when later work mentions them), the work left open per
//! project, and ticket keys. Everything cites what it rests on; no evidence, no mark.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use jiff::Timestamp;
use report_model::{
    Agent, Bucket, Evidence, FollowUp, FollowUpStatus, Note, NoteKind, OpenWork, Outlook,
    ReportKind, SessionEvent, WipEvent,
};

use crate::tickets::TicketRules;

/// Builds the report's outlook from its buckets, the sessions and the notes.
pub(crate) fn outlook(
    kind: ReportKind,
    buckets: &[Bucket],
    sessions: &[SessionEvent],
    mut notes: Vec<Note>,
    wip: &[WipEvent],
    tickets: &TicketRules,
) -> Outlook {
    notes.sort_by(|a, b| a.date.cmp(&b.date).then_with(|| a.number.cmp(&b.number)));
    let work = later_work(buckets, sessions);
    let follow_up = match kind {
        ReportKind::Standup => standup_follow_up(buckets, &notes, &work),
        ReportKind::Week => notes
            .iter()
            .filter(|note| note.kind != NoteKind::Note)
            .map(|note| follow(note, &work))
            .filter(|follow| follow.status == FollowUpStatus::Open)
            .collect(),
        ReportKind::Daily | ReportKind::Range => Vec::new(),
    };
    let open_work = match kind {
        ReportKind::Standup | ReportKind::Week => open_work(buckets, wip),
        ReportKind::Daily | ReportKind::Range => Vec::new(),
    };
    Outlook {
        notes,
        follow_up,
        open_work,
        tickets: crate::tickets::find(buckets, tickets),
        group_by_ticket: tickets.group_by,
    }
}

/// A standup: the plans and blockers noted on the previous working day and the days off
/// since (the dates before today's bucket), each with where it stands.
fn standup_follow_up(buckets: &[Bucket], notes: &[Note], work: &[Work]) -> Vec<FollowUp> {
    let (Some(first), Some(last)) = (buckets.first(), buckets.last()) else { return Vec::new() };
    if buckets.len() < 2 {
        return Vec::new();
    }
    notes
        .iter()
        .filter(|note| note.kind != NoteKind::Note)
        .filter(|note| first.window.date <= note.date && note.date < last.window.date)
        .map(|note| follow(note, work))
        .collect()
}

/// One piece of work that can show a plan done: a commit subject or a session title, with
/// its time.
struct Work {
    time: Timestamp,
    words: Words,
    evidence: Evidence,
}

/// The commits and sessions of the report, with the words of their subjects and titles.
fn later_work(buckets: &[Bucket], sessions: &[SessionEvent]) -> Vec<Work> {
    let mut work = Vec::new();
    let mut seen_commits = BTreeSet::new();
    let mut seen_sessions: BTreeMap<(Agent, &str), Timestamp> = BTreeMap::new();
    for bucket in buckets {
        for project in &bucket.projects {
            for commit in &project.commits {
                if seen_commits.insert(commit.hash.as_str()) {
                    work.push(Work {
                        time: commit.author_time,
                        words: words(&commit.subject),
                        evidence: Evidence::Commit {
                            hash: commit.hash.clone(),
                            time: commit.author_time,
                        },
                    });
                }
            }
            for session in &project.sessions {
                let last = seen_sessions.entry((session.agent, &session.session_id)).or_default();
                *last = (*last).max(session.last);
            }
        }
    }
    for session in sessions {
        let Some(&last) = seen_sessions.get(&(session.agent, session.session_id.as_str())) else {
            continue;
        };
        work.push(Work {
            time: last,
            words: words(&session.title),
            evidence: Evidence::Session {
                agent: session.agent,
                session_id: session.session_id.clone(),
                time: last,
            },
        });
    }
    work
}

/// Where a plan or blocker stands: closed by the person, done when later work mentions
/// it (plans only: a blocker is cleared by the person alone), else open.
fn follow(note: &Note, work: &[Work]) -> FollowUp {
    if note.done {
        return FollowUp {
            note: note.clone(),
            status: FollowUpStatus::Closed,
            evidence: Vec::new(),
        };
    }
    let mut evidence: Vec<Evidence> = Vec::new();
    if note.kind == NoteKind::Plan {
        let plan = words(&note.text);
        let mut found: Vec<(Timestamp, &Evidence)> = work
            .iter()
            .filter(|work| work.time > note.time && mentions(&work.words, &plan))
            .map(|work| (work.time, &work.evidence))
            .collect();
        found.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| evidence_key(a.1).cmp(&evidence_key(b.1))));
        evidence = found.into_iter().take(EVIDENCE_MAX).map(|(_, e)| e.clone()).collect();
    }
    let status = if evidence.is_empty() { FollowUpStatus::Open } else { FollowUpStatus::Done };
    FollowUp { note: note.clone(), status, evidence }
}

/// At most this many pieces of work are cited for a plan done.
const EVIDENCE_MAX: usize = 3;

fn evidence_key(evidence: &Evidence) -> String {
    match evidence {
        Evidence::Commit { hash, .. } => format!("c{hash}"),
        Evidence::Session { agent, session_id, .. } => {
            format!("s{}{session_id}", agent.config_name())
        }
        Evidence::Command { exit, .. } => format!("x{exit}"),
    }
}

/// The words of a text that can tell what it is about: lower-cased runs of letters and
/// digits of at least three characters that are not common words, and every pair of
/// neighbouring characters of a run written without spaces (Japanese, Chinese).
#[derive(Debug, Default)]
pub(crate) struct Words {
    words: Vec<String>,
}

/// English words too common to tell what a plan is about.
const STOP_WORDS: [&str; 24] = [
    "the", "and", "for", "with", "from", "into", "onto", "that", "this", "then", "than", "when",
    "add", "fix", "make", "use", "get", "set", "more", "some", "all", "new", "out", "about",
];

pub(crate) fn words(text: &str) -> Words {
    let mut words = Vec::new();
    for run in text.split(|c: char| !c.is_alphanumeric()).filter(|run| !run.is_empty()) {
        let run = run.to_lowercase();
        if run.is_ascii() {
            if run.len() >= 3 && !STOP_WORDS.contains(&run.as_str()) {
                words.push(run);
            }
        } else {
            let chars: Vec<char> = run.chars().collect();
            if chars.len() == 1 {
                words.push(run);
            }
            for pair in chars.windows(2) {
                words.push(pair.iter().collect());
            }
        }
    }
    words.sort();
    words.dedup();
    Words { words }
}

/// Whether `work` mentions `plan`: at least two thirds of the plan's words (and at least
/// one) occur in it, a word matching another that starts with it when the shorter has at
/// least four characters (`test` and `tests`, `retry` and `retrying`).
fn mentions(work: &Words, plan: &Words) -> bool {
    if plan.words.is_empty() {
        return false;
    }
    let same = |a: &str, b: &str| {
        a == b || {
            let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
            short.is_ascii() && short.len() >= 4 && long.starts_with(short)
        }
    };
    let found =
        plan.words.iter().filter(|word| work.words.iter().any(|other| same(word, other))).count();
    found * 3 >= plan.words.len() * 2
}

/// Per project with any, its work left open over the report: uncommitted files and
/// stashes of every bucket, the commits not pushed, and the local branches ahead of their
/// upstream and an operation stopped midway, read at report time (`wip`), whenever their
/// commits were made or it stopped.
fn open_work(buckets: &[Bucket], wip: &[WipEvent]) -> Vec<OpenWork> {
    // Per project: its name, uncommitted files, stashes, unpushed commits and their
    // branches.
    type Open = (String, BTreeSet<String>, BTreeSet<String>, Vec<String>, BTreeSet<String>);
    let mut open: BTreeMap<PathBuf, Open> = BTreeMap::new();
    for bucket in buckets {
        for project in &bucket.projects {
            let entry = open.entry(project.path.clone()).or_default();
            entry.0.clone_from(&project.name);
            if let Some(wip) = &project.wip {
                entry.1.extend(wip.files.iter().cloned());
                entry.2.extend(wip.stashes.iter().cloned());
            }
            for commit in project.commits.iter().filter(|commit| commit.unpushed) {
                if !entry.3.contains(&commit.hash) {
                    entry.3.push(commit.hash.clone());
                }
                entry.4.extend(commit.branches.iter().cloned());
            }
        }
    }
    let mut ahead: BTreeMap<PathBuf, Vec<report_model::AheadBranch>> = BTreeMap::new();
    let mut stopped: BTreeMap<PathBuf, report_model::Stopped> = BTreeMap::new();
    for event in wip.iter().filter(|event| !event.ahead.is_empty() || event.stopped.is_some()) {
        let entry = open.entry(event.project.path.clone()).or_default();
        if entry.0.is_empty() {
            entry.0.clone_from(&event.project.name);
        }
        if let Some(operation) = &event.stopped {
            stopped.insert(event.project.path.clone(), operation.clone());
        }
        let branches = ahead.entry(event.project.path.clone()).or_default();
        branches.extend(event.ahead.iter().cloned());
        branches.sort();
        branches.dedup();
    }
    open.into_iter()
        .map(|(path, (name, files, stashes, unpushed, branches))| OpenWork {
            ahead: ahead.remove(&path).unwrap_or_default(),
            stopped: stopped.remove(&path),
            name,
            qualifier: None,
            path,
            uncommitted_files: files.len() as u64,
            stashes: stashes.len() as u64,
            unpushed,
            branches: branches.into_iter().collect(),
        })
        .filter(|open| {
            open.uncommitted_files > 0
                || open.stashes > 0
                || !open.unpushed.is_empty()
                || !open.ahead.is_empty()
                || open.stopped.is_some()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn done(work: &str, plan: &str) -> bool {
        mentions(&words(work), &words(plan))
    }

    #[test]
    fn a_plan_is_done_when_later_work_names_most_of_its_words() {
        assert!(done("client: add the retry test", "add the retry test"));
        assert!(done("api: retry tests for 503", "Write the retry test"));
        assert!(done("Wire the Slack output", "wire the slack output"));
        assert!(!done("client: first cut", "add the retry test"));
        assert!(!done("retry on 503", "write the retry test for the slack output"));
        // Only common words: nothing to match.
        assert!(!done("add the", "add the"));
    }

    #[test]
    fn japanese_plans_match_by_character_pairs() {
        assert!(done("リトライのテストを追加", "リトライのテストを書く"));
        assert!(!done("ドキュメント更新", "リトライのテストを書く"));
    }
}
