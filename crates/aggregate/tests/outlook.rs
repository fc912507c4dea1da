//! The outlook of a standup: the previous working day's plans, done only by work after
//! the note that mentions them, closed by the person, else open; its blockers cleared
//! only by the person; open work per project; tickets by the narrowest branch.

use aggregate::{Options, TicketRules};
use report_model::{Activity, CommitEvent, Evidence, FollowUpStatus, Note, NoteKind, Report};

mod support;
use support::*;

/// A commit in `app` on `branches`, not pushed.
fn commit(hash: &str, subject: &str, time: &str, branches: &[&str]) -> CommitEvent {
    let mut event = support::commit("app", hash, subject, time);
    event.commit.branches = branches.iter().map(|name| (*name).to_owned()).collect();
    event.commit.unpushed = true;
    event
}

fn note(number: u32, kind: NoteKind, text: &str, time: &str, done: bool) -> Note {
    Note {
        date: "2026-03-06".parse().expect("date"),
        number,
        kind,
        text: text.to_owned(),
        time: ts(time),
        done,
    }
}

fn report(activity: Activity, options: &Options) -> Report {
    standup(&standup_windows(), activity, options)
}

#[test]
fn plans_are_done_by_later_work_closed_by_the_person_or_open() {
    let activity = Activity {
        commits: vec![
            // Before the note: it cannot show the plan done.
            commit("a1", "parser: retry test for 503", "2026-03-06T10:00:00Z", &["main"]),
            commit("b2", "api: wire the Slack output", "2026-03-09T08:00:00Z", &["main"]),
        ],
        notes: vec![
            note(1, NoteKind::Plan, "add the retry test", "2026-03-06T17:00:00Z", false),
            note(2, NoteKind::Plan, "Wire the Slack output", "2026-03-06T17:00:00Z", false),
            note(3, NoteKind::Plan, "write the docs", "2026-03-06T17:00:00Z", true),
            note(
                4,
                NoteKind::Blocker,
                "waiting on the Slack API keys",
                "2026-03-06T17:01:00Z",
                false,
            ),
            note(5, NoteKind::Note, "demo went well", "2026-03-06T17:02:00Z", false),
        ],
        ..Activity::default()
    };
    let report = report(activity, &Options::default());
    let statuses: Vec<(u32, FollowUpStatus)> =
        report.outlook.follow_up.iter().map(|follow| (follow.note.number, follow.status)).collect();
    assert_eq!(
        statuses,
        [
            (1, FollowUpStatus::Open),
            (2, FollowUpStatus::Done),
            (3, FollowUpStatus::Closed),
            // A commit naming the Slack output does not clear a blocker: the person does.
            (4, FollowUpStatus::Open),
        ]
    );
    assert_eq!(
        report.outlook.follow_up[1].evidence,
        [Evidence::Commit { hash: "b2".to_owned(), time: ts("2026-03-09T08:00:00Z") }]
    );
    assert_eq!(report.outlook.notes.len(), 5);
    let open = &report.outlook.open_work[0];
    assert_eq!((open.name.as_str(), open.unpushed.len()), ("app", 2));
    assert_eq!(open.branches, ["main"]);
}

#[test]
fn a_ticket_belongs_to_the_commits_of_its_narrowest_branch() {
    let activity = Activity {
        commits: vec![
            commit("a1", "client: first cut", "2026-03-06T10:00:00Z", &["feature/PAY-7", "main"]),
            commit("b2", "client: retry", "2026-03-06T11:00:00Z", &["feature/PAY-7"]),
            commit("c3", "docs: see #12", "2026-03-06T12:00:00Z", &["feature/PAY-7"]),
        ],
        ..Activity::default()
    };
    let options = Options {
        tickets: TicketRules::new(&[], Some("https://t.example/{key}".to_owned()), false)
            .expect("no pattern"),
        ..Options::default()
    };
    let report = report(activity, &options);
    let tickets: Vec<(&str, Vec<&str>, Option<&str>)> = report
        .outlook
        .tickets
        .iter()
        .map(|ticket| {
            (
                ticket.key.as_str(),
                ticket.commits.iter().map(String::as_str).collect(),
                ticket.url.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        tickets,
        [
            ("#12", vec!["c3"], Some("https://t.example/12")),
            ("PAY-7", vec!["b2", "c3"], Some("https://t.example/PAY-7")),
        ]
    );
}

#[test]
fn nothing_gives_an_empty_outlook_left_out_of_the_json() {
    let report = report(Activity::default(), &Options::default());
    assert!(report.outlook.is_empty());
    let json = serde_json::to_value(&report).expect("json");
    assert!(json.get("outlook").is_none());
}
