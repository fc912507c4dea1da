//! The payload: the Report's activity as compact JSON with sorted keys, fitted into the
//! character budget by the tiers of DESIGN §8.3, with `<`, `>` and `&` escaped.

use std::io;

use prompt_budget::{Fitted, Tier};
use redact::Redactor;
use report_model::{
    Blocker, BlockerKind, Bucket, BucketKind, Evidence, FollowUpStatus, NoteKind, Outlook, Project,
    Report, ReportKind, ShellGroup, Totals,
};
use serde_json::ser::Formatter;
use serde_json::{Map, Value, json};

use crate::Error;

/// How many shell groups survive the `shell_groups` tier.
const KEEP_SHELL_GROUPS: usize = 10;
/// How many sessions per project survive the `session_titles` tier.
const KEEP_SESSIONS: usize = 10;
/// How many commits per project survive the `commit_subjects` tier.
const KEEP_COMMITS: usize = 15;

/// The evidence id of a shell group is this prefix and the group's head.
pub(crate) const SHELL_ID_PREFIX: &str = "sh:";
/// The evidence id of a blocker found in the evidence: this prefix and the failing command,
/// or the reverted commit's id.
pub(crate) const BLOCKER_ID_PREFIX: &str = "blocker:";
/// The evidence id of a next step: this prefix, its session's id and its place in the list.
pub(crate) const NEXT_ID_PREFIX: &str = "next:";
/// The evidence id of a ticket key: this prefix and the key (`ticket:PAY-7`).
pub(crate) const TICKET_ID_PREFIX: &str = "ticket:";
/// A commit's evidence id is this many leading characters of its hash.
const COMMIT_ID_CHARS: usize = 10;

/// A commit's evidence id: the first 10 hex characters of its hash.
fn commit_id(hash: &str) -> String {
    hash.chars().take(COMMIT_ID_CHARS).collect()
}

/// The names of the budget tiers, in the order they are applied.
pub const TIERS: [&str; 6] =
    ["shell_examples", "shell_groups", "session_titles", "commit_subjects", "shell", "projects"];

/// The payload of `report`, with every string passed through `redactor`; also returns
/// how many secrets were masked.
pub(crate) fn build(report: &Report, redactor: &Redactor) -> (Value, usize) {
    let mut masked = 0;
    let mut redact = |text: &str| {
        let (text, n_masked) = redactor.redact(text);
        masked += n_masked;
        Value::String(text.into_owned())
    };
    let value = match (report.kind, report.buckets.as_slice()) {
        (ReportKind::Daily, [bucket]) => {
            let mut day = bucket_object(bucket, &report.outlook, &mut redact);
            day.insert("kind".into(), json!("daily"));
            Value::Object(day)
        }
        (kind, buckets) => {
            let buckets: Vec<Value> = buckets
                .iter()
                .map(|bucket| {
                    let mut object = bucket_object(bucket, &report.outlook, &mut redact);
                    object.insert("kind".into(), json!(bucket_kind(bucket.kind)));
                    Value::Object(object)
                })
                .collect();
            let kind = match kind {
                ReportKind::Daily => "daily",
                ReportKind::Standup => "standup",
                ReportKind::Week => "week",
                ReportKind::Range => "range",
            };
            json!({"kind": kind, "buckets": buckets, "totals": totals(&report.totals, true)})
        }
    };
    let mut value = value;
    if let (Some(outlook), Value::Object(map)) =
        (outlook_object(&report.outlook, &mut redact), &mut value)
    {
        map.insert("outlook".into(), outlook);
    }
    (value, masked)
}

/// The evidence id of a plan or blocker the person noted: this prefix, its day and number.
pub(crate) const NOTE_ID_PREFIX: &str = "note:";
/// The evidence id of a project's work left open: this prefix and the project's name.
pub(crate) const OPEN_ID_PREFIX: &str = "open:";

/// What the report carries forward (issue 21, item 6): the plans and blockers the person
/// noted, with where each stands, and each project's work left open; `None` when there is
/// neither. Notes are the person's words: redacted like every string.
fn outlook_object(outlook: &Outlook, redact: &mut impl FnMut(&str) -> Value) -> Option<Value> {
    let mut object = Map::new();
    if !outlook.follow_up.is_empty() {
        let items: Vec<Value> = outlook
            .follow_up
            .iter()
            .map(|follow_up| {
                let note = &follow_up.note;
                let kind = match note.kind {
                    NoteKind::Plan => "plan",
                    NoteKind::Blocker => "blocker",
                    NoteKind::Note => "note",
                };
                let status = match follow_up.status {
                    FollowUpStatus::Open => "open",
                    FollowUpStatus::Done => "done",
                    FollowUpStatus::Closed => "closed",
                };
                json!({
                    "id": format!("{NOTE_ID_PREFIX}{}:{}", note.date, note.number),
                    "kind": kind,
                    "status": status,
                    "text": redact(&note.text),
                })
            })
            .collect();
        object.insert("follow_up".into(), json!({"items": items}));
    }
    if !outlook.open_work.is_empty() {
        let items: Vec<Value> = outlook
            .open_work
            .iter()
            .map(|open| {
                let mut item = Map::new();
                let name = qualified(&open.name, open.qualifier.as_deref());
                item.insert("id".into(), redact(&format!("{OPEN_ID_PREFIX}{name}")));
                item.insert("project".into(), redact(&name));
                if open.uncommitted_files > 0 {
                    item.insert("uncommitted_files".into(), json!(open.uncommitted_files));
                }
                if open.stashes > 0 {
                    item.insert("stashes".into(), json!(open.stashes));
                }
                // The branches ahead, when known, hold every commit not pushed, older
                // ones included; else the report's own commits not pushed.
                let ahead: u64 = open.ahead.iter().map(|branch| branch.commits).sum();
                let unpushed =
                    if open.ahead.is_empty() { open.unpushed.len() as u64 } else { ahead };
                if unpushed > 0 {
                    item.insert("unpushed_commits".into(), json!(unpushed));
                }
                if !open.ahead.is_empty() {
                    let branches: Vec<Value> = open
                        .ahead
                        .iter()
                        .map(|branch| {
                            json!({
                                "branch": redact(&branch.name),
                                "commits": branch.commits,
                            })
                        })
                        .collect();
                    item.insert("branches_ahead".into(), Value::Array(branches));
                }
                if let Some(stopped) = &open.stopped {
                    let mut value = json!({"operation": stopped.operation});
                    if stopped.conflicts > 0 {
                        value["conflicts"] = json!(stopped.conflicts);
                    }
                    if let Some(worktree) = &stopped.worktree {
                        value["worktree"] = json!(redact(worktree));
                    }
                    item.insert("stopped".into(), value);
                }
                Value::Object(item)
            })
            .collect();
        object.insert("open_work".into(), json!({"items": items}));
    }
    (!object.is_empty()).then_some(Value::Object(object))
}

fn bucket_kind(kind: BucketKind) -> &'static str {
    match kind {
        BucketKind::Day => "day",
        BucketKind::PreviousWorkday => "previous_workday",
        BucketKind::Today => "today",
    }
}

/// One bucket: date, projects, shell and totals (the caller adds `kind`).
fn bucket_object(
    bucket: &Bucket,
    outlook: &Outlook,
    redact: &mut impl FnMut(&str) -> Value,
) -> Map<String, Value> {
    let mut object = Map::new();
    object.insert("date".into(), json!(bucket.window.date.to_string()));
    if !bucket.projects.is_empty() {
        let items: Vec<Value> = bucket
            .projects
            .iter()
            .map(|project| project_object(project, outlook, redact))
            .collect();
        object.insert("projects".into(), json!({"items": items}));
    }
    if !bucket.shell.is_empty() {
        let groups: Vec<Value> =
            bucket.shell.iter().map(|group| shell_group(group, redact)).collect();
        object.insert("shell".into(), json!({"groups": groups}));
    }
    // A command failing outside any project (a project's are in its own object).
    if !bucket.blockers.is_empty() {
        let items: Vec<Value> =
            bucket.blockers.iter().map(|blocker| blocker_object(blocker, redact)).collect();
        object.insert("blockers".into(), json!({"items": items}));
    }
    object.insert("totals".into(), totals(&bucket.totals, true));
    object
}

/// A project's name as the report shows it: followed by what tells it apart from another
/// of the same name (`api (acme/web)`), so that the model, and the check of what it
/// writes, see one name per project.
fn qualified<'a>(name: &'a str, qualifier: Option<&str>) -> std::borrow::Cow<'a, str> {
    match qualifier {
        Some(qualifier) => format!("{name} ({qualifier})").into(),
        None => name.into(),
    }
}

fn project_object(
    project: &Project,
    outlook: &Outlook,
    redact: &mut impl FnMut(&str) -> Value,
) -> Value {
    let mut object = Map::new();
    object.insert("name".into(), redact(&qualified(&project.name, project.qualifier.as_deref())));
    if !project.commits.is_empty() {
        let items: Vec<Value> = project
            .commits
            .iter()
            .map(|commit| {
                let mut item = Map::new();
                item.insert("id".into(), json!(commit_id(&commit.hash)));
                item.insert("subject".into(), redact(&commit.subject));
                item.insert("files_changed".into(), json!(commit.files_changed));
                item.insert("insertions".into(), json!(commit.insertions));
                item.insert("deletions".into(), json!(commit.deletions));
                if commit.merge {
                    item.insert("merge".into(), json!(true));
                }
                Value::Object(item)
            })
            .collect();
        object.insert("commits".into(), json!({"items": items}));
    }
    if !project.sessions.is_empty() {
        let items: Vec<Value> = project
            .sessions
            .iter()
            .map(|session| {
                json!({
                    "id": redact(&session.session_id),
                    "agent": session.agent.display_name(),
                    "title": redact(&session.title),
                    "prompts": session.prompts,
                })
            })
            .collect();
        object.insert("sessions".into(), json!({"items": items}));
    }
    // The project's own shell commands (the bucket's `shell` holds only the others), as
    // many groups as the `shell_groups` tier keeps, so no tier needs to trim them.
    if !project.shell.is_empty() {
        let groups: Vec<Value> = project
            .shell
            .iter()
            .take(KEEP_SHELL_GROUPS)
            .map(|group| shell_group(group, redact))
            .collect();
        object.insert("shell".into(), json!({"groups": groups}));
    }
    // What the report derived without a model: blockers from the evidence and next steps
    // from the agents' to-do lists, each with an id a sentence can cite.
    if !project.blockers.is_empty() {
        let items: Vec<Value> =
            project.blockers.iter().map(|blocker| blocker_object(blocker, redact)).collect();
        object.insert("blockers".into(), json!({"items": items}));
    }
    if !project.next.is_empty() {
        let items: Vec<Value> = project
            .next
            .iter()
            .enumerate()
            .map(|(at, step)| {
                json!({
                    "id": redact(&format!("{NEXT_ID_PREFIX}{}:{}", step.session_id, at + 1)),
                    "agent": step.agent.display_name(),
                    "session": redact(&step.session_id),
                    "text": redact(&step.text),
                })
            })
            .collect();
        object.insert("next".into(), json!({"items": items}));
    }
    let tickets = project_tickets(project, outlook, redact);
    if !tickets.is_empty() {
        object.insert("tickets".into(), json!({"items": tickets}));
    }
    object.insert("totals".into(), totals(&project.totals, false));
    Value::Object(object)
}

/// The ticket keys the project's commits and sessions name (issue 21, item 6), each with
/// the ids of those commits and sessions: `{"id": "ticket:PAY-7", "key": "PAY-7",
/// "evidence": ["3adf1ad7c2", "70d0c1a0-…"]}`, in key order.
fn project_tickets(
    project: &Project,
    outlook: &Outlook,
    redact: &mut impl FnMut(&str) -> Value,
) -> Vec<Value> {
    let mut items = Vec::new();
    for ticket in &outlook.tickets {
        let mut evidence: Vec<Value> = project
            .commits
            .iter()
            .filter(|commit| ticket.commits.contains(&commit.hash))
            .map(|commit| json!(commit_id(&commit.hash)))
            .collect();
        evidence.extend(
            project
                .sessions
                .iter()
                .filter(|session| {
                    ticket.sessions.iter().any(|named| {
                        named.agent == session.agent && named.session_id == session.session_id
                    })
                })
                .map(|session| redact(&session.session_id)),
        );
        if evidence.is_empty() {
            continue;
        }
        items.push(json!({
            "id": redact(&format!("{TICKET_ID_PREFIX}{}", ticket.key)),
            "key": redact(&ticket.key),
            "evidence": evidence,
        }));
    }
    items
}

/// A blocker found in the evidence: its id, kind and text, how many failed runs it rests
/// on, and the ids of the commits it rests on.
fn blocker_object(blocker: &Blocker, redact: &mut impl FnMut(&str) -> Value) -> Value {
    let commits: Vec<Value> = blocker
        .evidence
        .iter()
        .filter_map(|evidence| match evidence {
            Evidence::Commit { hash, .. } => Some(json!(commit_id(hash))),
            Evidence::Command { .. } | Evidence::Session { .. } => None,
        })
        .collect();
    let sessions: Vec<&str> = blocker
        .evidence
        .iter()
        .filter_map(|evidence| match evidence {
            Evidence::Session { session_id, .. } => Some(session_id.as_str()),
            Evidence::Command { .. } | Evidence::Commit { .. } => None,
        })
        .collect();
    let (kind, id) = match blocker.kind {
        BlockerKind::FailingCommand => ("failing_command", blocker.text.clone()),
        BlockerKind::AgentFailingCommand => ("agent_failing_command", blocker.text.clone()),
        BlockerKind::RevertedCommit => (
            "reverted_commit",
            commits.first().and_then(Value::as_str).unwrap_or_default().to_owned(),
        ),
        BlockerKind::InterruptedSession => {
            ("interrupted_session", sessions.first().copied().unwrap_or_default().to_owned())
        }
    };
    let mut item = Map::new();
    item.insert("id".into(), redact(&format!("{BLOCKER_ID_PREFIX}{id}")));
    item.insert("kind".into(), json!(kind));
    item.insert("text".into(), redact(&blocker.text));
    let failures = blocker
        .evidence
        .iter()
        .filter(|evidence| matches!(evidence, Evidence::Command { .. }))
        .count();
    if failures > 0 {
        item.insert("failures".into(), json!(failures));
    }
    if !commits.is_empty() {
        item.insert("commits".into(), Value::Array(commits));
    }
    if !sessions.is_empty() {
        let ids = sessions.into_iter().map(&mut *redact).collect();
        item.insert("sessions".into(), Value::Array(ids));
    }
    Value::Object(item)
}

fn shell_group(group: &ShellGroup, redact: &mut impl FnMut(&str) -> Value) -> Value {
    let mut object = Map::new();
    object.insert("id".into(), redact(&format!("{SHELL_ID_PREFIX}{}", group.head)));
    object.insert("head".into(), redact(&group.head));
    object.insert("count".into(), json!(group.count));
    if !group.examples.is_empty() {
        let examples: Vec<Value> = group.examples.iter().map(|example| redact(example)).collect();
        object.insert("examples".into(), Value::Array(examples));
    }
    // Failures (a command failing again and again is a blocker hint), and commands an
    // AI agent ran rather than the person.
    if group.failed > 0 {
        object.insert("failed".into(), json!(group.failed));
    }
    if group.agent {
        object.insert("agent".into(), json!(true));
    }
    Value::Object(object)
}

/// Sums; a project's own totals leave out `projects`, which would always be 1.
fn totals(totals: &Totals, with_projects: bool) -> Value {
    let mut object = Map::new();
    if with_projects {
        object.insert("projects".into(), json!(totals.projects));
    }
    object.insert("commits".into(), json!(totals.commits));
    object.insert("files_changed".into(), json!(totals.files_changed));
    object.insert("insertions".into(), json!(totals.insertions));
    object.insert("deletions".into(), json!(totals.deletions));
    object.insert("sessions".into(), json!(totals.sessions));
    object.insert("prompts".into(), json!(totals.prompts));
    object.insert("commands".into(), json!(totals.commands));
    Value::Object(object)
}

/// The tiers of DESIGN §8.3 for a payload whose buckets sit at `prefix` (`""` for a daily
/// payload, `/buckets/*` for a standup).
///
/// Within a tier, the least important place goes first: the least frequent shell group,
/// the project with the oldest activity (projects are listed most recent first). Across the
/// two standup buckets, `shell_examples`, `shell_groups`, `session_titles` and
/// `commit_subjects` trim today's bucket before the previous working day's (they run last
/// match first), while `shell` and `projects` drop the previous working day's first, so that
/// projects go oldest activity first over the whole report.
fn tiers(prefix: &str) -> Result<Vec<Tier>, prompt_budget::Error> {
    let shell = format!("{prefix}/shell");
    let projects = format!("{prefix}/projects");
    let project = format!("{prefix}/projects/items/*");
    Ok(vec![
        Tier::remove(TIERS[0], &format!("{shell}/groups/*/examples"), &shell)?.last_match_first(),
        Tier::trim(TIERS[1], &format!("{shell}/groups"), KEEP_SHELL_GROUPS, &shell)?
            .last_match_first(),
        Tier::trim(
            TIERS[2],
            &format!("{project}/sessions/items"),
            KEEP_SESSIONS,
            &format!("{project}/sessions"),
        )?
        .last_match_first(),
        Tier::trim(
            TIERS[3],
            &format!("{project}/commits/items"),
            KEEP_COMMITS,
            &format!("{project}/commits"),
        )?
        .last_match_first(),
        Tier::remove(TIERS[4], &format!("{shell}/groups"), &shell)?,
        Tier::trim(TIERS[5], &format!("{projects}/items"), 0, &projects)?,
    ])
}

/// Fits `payload` into `budget` characters through [`HtmlSafe`].
pub(crate) fn fit(payload: Value, budget: usize) -> Result<Fitted, Error> {
    let prefix = if payload.get("buckets").is_some() { "/buckets/*" } else { "" };
    let tiers = tiers(prefix).map_err(Error::Budget)?;
    prompt_budget::fit_with(payload, budget, &tiers, HtmlSafe).map_err(Error::Budget)
}

/// The guard: the payload must hold no `<`, so it can never close the `<data>` block.
pub(crate) fn guard(json: &str) -> Result<(), Error> {
    if json.contains('<') {
        return Err(Error::UnsafePayload { reason: "the payload contains `<`" });
    }
    Ok(())
}

/// serde_json's compact formatter, except that `<`, `>` and `&` inside strings are written
/// as `\u003c`, `\u003e` and `\u0026`, so no string in the payload can spell `</data>`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HtmlSafe;

impl Formatter for HtmlSafe {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut start = 0;
        for (idx, byte) in fragment.bytes().enumerate() {
            let escaped: &[u8] = match byte {
                b'<' => b"\\u003c",
                b'>' => b"\\u003e",
                b'&' => b"\\u0026",
                _ => continue,
            };
            writer.write_all(&fragment.as_bytes()[start..idx])?;
            writer.write_all(escaped)?;
            start = idx + 1;
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }
}
