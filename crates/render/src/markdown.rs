//! The Markdown form.
//!
//! Every string that came from a source goes through `sanitize::markdown`: titles,
//! commands and shell heads as code spans; commit subjects, folder names and warning
//! messages escaped as text, so none of them can open a block, a link, an image or raw
//! HTML.

use std::fmt::Write as _;

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use report_model::{
    Blocker, BlockerKind, Bucket, BucketKind, Commit, Evidence, FollowUpStatus, NoteKind, Outlook,
    Project, Report, ReportKind, ShellGroup, Ticket, TimeSpent, TodoStatus, Totals,
};
use sanitize::markdown::{code_span, escape_text};

use crate::labels::{LangText as _, Noun, OutlookText as _, RangeText as _};
use report_model::Lang;

/// At most this many branches are named on a commit line, then `+N`.
const BRANCHES_SHOWN: usize = 3;

/// How many characters of a session id cite it on a next-steps line.
const SESSION_ID_SHOWN: usize = 8;

/// Session ids at most this long are shown whole: Goose's `<yyyymmdd>_<n>` would be cut
/// to its date, the same for every session of a day.
const SESSION_ID_WHOLE: usize = 12;

/// The longest rest of an id after its day that is shown whole (`014112_9dacfd`).
const DATED_REST_MAX: usize = 16;

/// The part of a session id that cites it: the whole of a short one, else its start.
/// A leading `session_` (Kimi Code's `session_<uuid>`) is skipped: it is the same for
/// every session. So is the day a long id starts with (Hermes Agent's
/// `<yyyymmdd>_<hhmmss>_<hex>`): the rest is shown whole, up to [`DATED_REST_MAX`].
fn shown_session_id(id: &str) -> String {
    let id = ["session_", "session-"]
        .iter()
        .find_map(|prefix| id.strip_prefix(prefix))
        .filter(|rest| !rest.is_empty())
        .unwrap_or(id);
    if id.chars().count() > SESSION_ID_WHOLE {
        let dated = id.split_once('_').filter(|(day, rest)| {
            day.len() == 8
                && day.bytes().all(|byte| byte.is_ascii_digit())
                && (1..=DATED_REST_MAX).contains(&rest.chars().count())
        });
        if let Some((_, rest)) = dated {
            return rest.to_owned();
        }
    }
    let keep =
        if id.chars().count() <= SESSION_ID_WHOLE { SESSION_ID_WHOLE } else { SESSION_ID_SHOWN };
    id.chars().take(keep).collect()
}

/// At most this many uncommitted files are named on a project, then `N more`.
const WIP_FILES_SHOWN: usize = 5;

/// At most this many local branches ahead of their upstream get a line of the open work
/// (those with the newest commits), then one line for the rest.
const BRANCHES_AHEAD_SHOWN: usize = 10;

/// The report as Markdown in `lang`, with times shown in `time_zone`.
pub fn markdown(report: &Report, lang: Lang, time_zone: &TimeZone) -> String {
    document(report, lang, time_zone, false)
}

/// The Markdown; `compact` leaves out the Window lines, Totals, the warnings and the
/// footer (the body only, for a chat message).
pub(crate) fn document(report: &Report, lang: Lang, time_zone: &TimeZone, compact: bool) -> String {
    let mut out = String::new();
    let labels = lang.labels();
    // A day with only the person's notes (or a standup with only carried plans) is not
    // empty: the notes are shown.
    if report.is_empty() && report.outlook.is_empty() {
        let dates: Vec<_> = report.buckets.iter().map(|bucket| bucket.window.date).collect();
        match (report.kind, dates.as_slice()) {
            (ReportKind::Week | ReportKind::Range, [first, .., last]) => {
                out.push_str(&lang.no_activity_range(*first, *last));
            }
            _ => out.push_str(&lang.no_activity(&dates)),
        }
        out.push('\n');
        if !report.warnings.is_empty() && !compact {
            out.push('\n');
            warnings(&mut out, report, lang);
        }
        return out;
    }

    let title = match report.kind {
        ReportKind::Daily => labels.daily_title,
        ReportKind::Standup => labels.standup_title,
        ReportKind::Week => lang.week_title(),
        ReportKind::Range => lang.range_title(),
    };
    let date = match (report.kind, report.buckets.first(), report.buckets.last()) {
        (ReportKind::Week | ReportKind::Range, Some(first), Some(last)) => {
            lang.date_range(first.window.date, last.window.date)
        }
        _ => report.buckets.last().map(|bucket| lang.date(bucket.window.date)).unwrap_or_default(),
    };
    let _ = writeln!(out, "# {title} — {date}");
    if let (false, [bucket]) = (compact, report.buckets.as_slice()) {
        let _ = writeln!(
            out,
            "{}: {}",
            labels.window,
            window(bucket, &report.meta.time_zone, time_zone)
        );
    }

    if let Some(narrative) = &report.narrative {
        // Untrusted text: one escaped paragraph, so no reply can open a block (a fence, a
        // heading, a list, a quote, raw HTML) that swallows the sections after it.
        let _ =
            write!(out, "\n## {}\n\n{}\n", labels.summary, escape_text(narrative.text.trim_end()));
    }

    match report.kind {
        ReportKind::Daily => {
            for bucket in &report.buckets {
                body(&mut out, bucket, &report.outlook, lang, "##", time_zone);
            }
        }
        ReportKind::Week | ReportKind::Range => {
            days(&mut out, report, lang, time_zone);
            if report.kind == ReportKind::Week {
                still_open(&mut out, report, lang, time_zone);
            }
        }
        ReportKind::Standup => {
            for bucket in &report.buckets {
                let heading = match (bucket.kind, bucket.through) {
                    (BucketKind::PreviousWorkday, Some(through)) => {
                        lang.since_previous(bucket.window.date, through)
                    }
                    (BucketKind::PreviousWorkday, None) => {
                        lang.previous_workday(bucket.window.date)
                    }
                    (BucketKind::Today | BucketKind::Day, _) => lang.today(bucket.window.date),
                };
                let _ = write!(out, "\n## {heading}\n");
                if !compact {
                    let _ = writeln!(
                        out,
                        "{}: {}",
                        labels.window,
                        window(bucket, &report.meta.time_zone, time_zone)
                    );
                }
                if bucket.is_empty() {
                    let _ = write!(out, "\n{}\n", labels.no_activity_bucket);
                }
                // The evidence's blockers are in the one "Blockers" list below.
                body(&mut out, &without_blockers(bucket), &report.outlook, lang, "###", time_zone);
            }
            next_section(&mut out, report, lang, time_zone);
            standup_blockers(&mut out, report, lang, time_zone);
        }
    }

    if compact {
        return out;
    }
    let mut totals_line = totals(&report.totals, lang, true);
    if let Some(spent) = time_spent(&report.time_spent, lang, time_zone) {
        let _ = write!(totals_line, " · {spent}");
    }
    let _ = write!(out, "\n{}: {totals_line}\n\n", labels.totals);
    warnings(&mut out, report, lang);
    out.push('\n');
    footer(&mut out, report, lang, time_zone);
    out
}

/// A bucket without its blockers found in the evidence (a standup lists them all in its
/// "Blockers").
fn without_blockers(bucket: &Bucket) -> Bucket {
    let mut bucket = bucket.clone();
    bucket.blockers.clear();
    for project in &mut bucket.projects {
        project.blockers.clear();
    }
    bucket
}

/// A standup's "Blockers", the one list: the blockers found in the evidence (each with its
/// project; the same one found on two days once, the later), the blockers noted on the
/// previous working day and not closed, then the model's, except those citing what an
/// evidence blocker rests on (it is shown already); nothing when there are none.
fn standup_blockers(out: &mut String, report: &Report, lang: Lang, time_zone: &TimeZone) {
    let labels = lang.labels();
    let today = report.buckets.last().map(|bucket| bucket.window.date).unwrap_or_default();
    // (project, blocker), in bucket then project order; a later one of the same project,
    // kind and text replaces an earlier one.
    let mut found: Vec<(Option<&Project>, &Blocker)> = Vec::new();
    for bucket in &report.buckets {
        let here = bucket
            .projects
            .iter()
            .flat_map(|project| {
                project.blockers.iter().map(move |blocker| (Some(project), blocker))
            })
            .chain(bucket.blockers.iter().map(|blocker| (None, blocker)));
        for (project, blocker) in here {
            let same = |(other, earlier): &(Option<&Project>, &Blocker)| {
                other.map(|p| &p.path) == project.map(|p| &p.path)
                    && earlier.kind == blocker.kind
                    && earlier.text == blocker.text
            };
            found.retain(|entry| !same(entry));
            found.push((project, blocker));
        }
    }
    let mut lines: Vec<String> = found
        .iter()
        .map(|(project, blocker)| {
            let line = blocker_line(blocker, lang, time_zone, today);
            match project {
                Some(project) => format!(
                    "{} — {line}",
                    project_name(
                        lang,
                        (&project.name, project.qualifier.as_deref()),
                        &project.path
                    )
                ),
                None => line,
            }
        })
        .collect();
    lines.extend(
        report
            .outlook
            .follow_up
            .iter()
            .filter(|follow| {
                follow.note.kind == NoteKind::Blocker && follow.status == FollowUpStatus::Open
            })
            .map(|follow| {
                lang.carried_blocker(
                    &escape_text(&follow.note.text),
                    &lang.short_date(follow.note.date),
                )
            }),
    );
    let shown: Vec<String> = found.iter().flat_map(|(_, blocker)| cited_as(blocker)).collect();
    if let Some(narrative) = &report.narrative {
        let checked = report.narrative_check.as_ref().map_or(&[][..], |check| &check.blockers[..]);
        for blocker in &narrative.blockers {
            let cites = checked
                .iter()
                .find(|checked| checked.kept && checked.text == *blocker)
                .map_or(&[][..], |checked| &checked.evidence[..]);
            if !cites.iter().any(|id| shown.contains(id)) {
                lines.push(escape_text(blocker));
            }
        }
    }
    if lines.is_empty() {
        return;
    }
    let _ = write!(out, "\n## {}\n\n", labels.blockers);
    for line in lines {
        let _ = writeln!(out, "- {line}");
    }
}

/// The evidence ids a narrative cites a blocker by (the payload's, see `narrative`'s
/// `payload.rs`): its own id (`blocker:` and the failing command, the reverted commit's
/// id or the interrupted session's id), and the ids of the commits and sessions it rests
/// on (a commit's first 10 characters, a session's id).
fn cited_as(blocker: &Blocker) -> Vec<String> {
    let commit_id = |hash: &str| hash.chars().take(10).collect::<String>();
    let mut ids: Vec<String> = blocker
        .evidence
        .iter()
        .filter_map(|evidence| match evidence {
            Evidence::Commit { hash, .. } => Some(commit_id(hash)),
            Evidence::Session { session_id, .. } => Some(session_id.clone()),
            Evidence::Command { .. } => None,
        })
        .collect();
    let own = match blocker.kind {
        BlockerKind::FailingCommand | BlockerKind::AgentFailingCommand => {
            Some(blocker.text.clone())
        }
        BlockerKind::RevertedCommit | BlockerKind::InterruptedSession => ids.first().cloned(),
    };
    if let Some(own) = own {
        ids.push(format!("blocker:{own}"));
    }
    ids
}

/// The days of a week or a range: a heading and a body per day.
fn days(out: &mut String, report: &Report, lang: Lang, time_zone: &TimeZone) {
    let labels = lang.labels();
    for bucket in &report.buckets {
        let _ = write!(
            out,
            "\n## {}\n{}: {}\n",
            lang.day_heading(bucket.window.date),
            labels.window,
            window(bucket, &report.meta.time_zone, time_zone)
        );
        if bucket.is_empty() {
            let _ = write!(out, "\n{}\n", labels.no_activity_bucket);
        }
        body(out, bucket, &report.outlook, lang, "###", time_zone);
    }
}

fn window(bucket: &Bucket, zone_name: &str, time_zone: &TimeZone) -> String {
    let format =
        |time: Timestamp| time.to_zoned(time_zone.clone()).strftime("%Y-%m-%d %H:%M").to_string();
    format!("{} – {} ({zone_name})", format(bucket.window.start), format(bucket.window.end))
}

/// `≈ 2 h 40 min, 09:12–18:05`, or nothing when there was no activity.
fn time_spent(spent: &TimeSpent, lang: Lang, time_zone: &TimeZone) -> Option<String> {
    let first = spent.spans.first()?.start.to_zoned(time_zone.clone());
    let last = spent.spans.iter().map(|span| span.end).max()?.to_zoned(time_zone.clone());
    Some(lang.time_spent(spent.minutes, &first, &last))
}

fn body(
    out: &mut String,
    bucket: &Bucket,
    outlook: &Outlook,
    lang: Lang,
    level: &str,
    time_zone: &TimeZone,
) {
    let date = bucket.window.date;
    for project in &bucket.projects {
        project_section(out, project, outlook, lang, level, time_zone, date);
    }
    if !bucket.shell.is_empty() {
        let labels = lang.labels();
        let _ = write!(out, "\n{level} {}\n\n", labels.shell);
        for group in &bucket.shell {
            shell_group(out, group, lang);
        }
        blockers(out, &bucket.blockers, lang, time_zone, date);
    }
    notes(out, bucket, outlook, lang, level);
}

/// The person's notes of the bucket's days (`standup note`), under a heading of their
/// own; nothing when there are none.
fn notes(out: &mut String, bucket: &Bucket, outlook: &Outlook, lang: Lang, level: &str) {
    let first = bucket.window.date;
    let last = bucket.through.unwrap_or(first).max(first);
    let mut notes =
        outlook.notes.iter().filter(|note| first <= note.date && note.date <= last).peekable();
    if notes.peek().is_none() {
        return;
    }
    let _ = write!(out, "\n{level} {}\n\n", lang.notes_heading());
    for note in notes {
        let _ = writeln!(out, "- {}", lang.note(note.kind, &escape_text(&note.text), note.done));
    }
}

/// A standup's "Next": the plans noted on the previous working day, each done (with the
/// work that shows it), open or closed, then each project's work left open; nothing when
/// there is none of these.
fn next_section(out: &mut String, report: &Report, lang: Lang, time_zone: &TimeZone) {
    let outlook = &report.outlook;
    let plans: Vec<String> = outlook
        .follow_up
        .iter()
        .filter(|follow| follow.note.kind == NoteKind::Plan)
        .map(|follow| {
            let evidence: Vec<String> = follow.evidence.iter().map(cite).collect();
            lang.follow_up(
                follow.status,
                &escape_text(&follow.note.text),
                &evidence.join(lang.list_separator()),
            )
        })
        .collect();
    if plans.is_empty() && outlook.open_work.is_empty() {
        return;
    }
    let _ = write!(out, "\n## {}\n\n", lang.next_heading());
    for line in plans {
        let _ = writeln!(out, "- {line}");
    }
    open_work(out, report, lang, time_zone);
}

/// How a project is named: its folder name, followed by what tells it apart from another
/// of the same name in the report (`api (acme/web)`, `api（acme/web）` in Japanese), or
/// the unknown project's label when it has no folder.
fn project_name(
    lang: Lang,
    (name, qualifier): (&str, Option<&str>),
    path: &std::path::Path,
) -> String {
    if path.as_os_str().is_empty() {
        return lang.labels().unknown_project.to_owned();
    }
    match (qualifier, lang) {
        (None, _) => escape_text(name),
        (Some(qualifier), Lang::En) => {
            format!("{} ({})", escape_text(name), escape_text(qualifier))
        }
        (Some(qualifier), Lang::Ja) => {
            format!("{}（{}）", escape_text(name), escape_text(qualifier))
        }
    }
}

/// One line per project with work left open, then one per local branch of it with
/// commits not pushed. A project whose branches ahead are known counts its unpushed
/// commits there, not again on its own line. A branch with commits in the report's days
/// always gets its line; of the older ones, only as many as make [`BRANCHES_AHEAD_SHOWN`]
/// lines with the newest commits, and the rest one line at the end (a machine with
/// months of old branches would fill the standup with them; the JSON keeps every one).
fn open_work(out: &mut String, report: &Report, lang: Lang, time_zone: &TimeZone) {
    let outlook = &report.outlook;
    let days_from = report.buckets.first().map_or(Timestamp::MIN, |bucket| bucket.window.start);
    // Every branch ahead by project and place, newest first.
    let mut branches: Vec<(Timestamp, usize, usize)> = outlook
        .open_work
        .iter()
        .enumerate()
        .flat_map(|(project, open)| {
            open.ahead.iter().enumerate().map(move |(at, branch)| (branch.newest, project, at))
        })
        .collect();
    branches.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| (a.1, a.2).cmp(&(b.1, b.2))));
    let hidden: Vec<(Timestamp, usize, usize)> = branches
        .into_iter()
        .enumerate()
        .filter(|&(rank, (newest, _, _))| rank >= BRANCHES_AHEAD_SHOWN && newest < days_from)
        .map(|(_, branch)| branch)
        .collect();
    let hidden_at: std::collections::BTreeSet<(usize, usize)> =
        hidden.iter().map(|&(_, project, at)| (project, at)).collect();
    for (project, open) in outlook.open_work.iter().enumerate() {
        let name = project_name(lang, (&open.name, open.qualifier.as_deref()), &open.path);
        let unpushed = if open.ahead.is_empty() { open.unpushed.len() } else { 0 };
        if open.uncommitted_files > 0 || open.stashes > 0 || unpushed > 0 {
            let branches: Vec<String> = if unpushed > 0 {
                open.branches.iter().take(BRANCHES_SHOWN).map(|name| code_span(name)).collect()
            } else {
                Vec::new()
            };
            let on = if branches.is_empty() { String::new() } else { lang.on_branches(&branches) };
            let _ = writeln!(
                out,
                "- {}{on}",
                lang.open_work(&name, open.uncommitted_files, open.stashes, unpushed)
            );
        }
        if let Some(stopped) = &open.stopped {
            let since = lang.short_date(stopped.since.to_zoned(time_zone.clone()).date());
            let _ =
                writeln!(out, "- {}", lang.stopped_since(&name, &lang.stopped(stopped), &since));
        }
        for (at, branch) in open.ahead.iter().enumerate() {
            if hidden_at.contains(&(project, at)) {
                continue;
            }
            let newest = branch.newest.to_zoned(time_zone.clone()).date();
            let _ = writeln!(
                out,
                "- {}",
                lang.branch_ahead(
                    &name,
                    &code_span(&branch.name),
                    branch.commits,
                    &lang.short_date(newest)
                )
            );
        }
    }
    if let Some(&(newest, _, _)) = hidden.first() {
        let newest = lang.short_date(newest.to_zoned(time_zone.clone()).date());
        let _ = writeln!(out, "- {}", lang.more_branches_ahead(hidden.len(), &newest));
    }
}

/// A week's "Still open": its plans not done, its noted blockers not closed, the
/// blockers the evidence still shows, and each project's work left open; nothing when
/// all is clear.
fn still_open(out: &mut String, report: &Report, lang: Lang, time_zone: &TimeZone) {
    let mut lines: Vec<String> = Vec::new();
    for follow in &report.outlook.follow_up {
        let text = escape_text(&follow.note.text);
        let noted = lang.short_date(follow.note.date);
        lines.push(match follow.note.kind {
            NoteKind::Blocker => lang.carried_blocker(&text, &noted),
            NoteKind::Plan | NoteKind::Note => lang.open_plan(&text, &noted),
        });
    }
    for bucket in &report.buckets {
        let date = bucket.window.date;
        for project in &bucket.projects {
            for blocker in &project.blockers {
                let name = project_name(
                    lang,
                    (&project.name, project.qualifier.as_deref()),
                    &project.path,
                );
                lines.push(format!("{name} — {}", blocker_line(blocker, lang, time_zone, date)));
            }
        }
        for blocker in &bucket.blockers {
            lines.push(blocker_line(blocker, lang, time_zone, date));
        }
    }
    if lines.is_empty() && report.outlook.open_work.is_empty() {
        return;
    }
    let _ = write!(out, "\n## {}\n\n", lang.still_open_heading());
    for line in lines {
        let _ = writeln!(out, "- {line}");
    }
    open_work(out, report, lang, time_zone);
}

/// A piece of evidence as a code span: a commit's short hash, a session's agent and id.
fn cite(evidence: &Evidence) -> String {
    match evidence {
        Evidence::Commit { hash, .. } => code_span(&hash.chars().take(8).collect::<String>()),
        Evidence::Session { agent, session_id, .. } => {
            format!("{} {}", agent.display_name(), code_span(&shown_session_id(session_id)))
        }
        Evidence::Command { exit, .. } => code_span(&exit.to_string()),
    }
}

/// A ticket key, linked when `[tickets] url` gives it an address.
fn ticket_label(ticket: &Ticket) -> String {
    // The key matched a pattern over cleaned text; escaped like any text all the same.
    let key = escape_text(&ticket.key);
    match &ticket.url {
        Some(url) => format!("[{key}](<{}>)", url.replace(['<', '>', '\\'], "")),
        None => key,
    }
}

/// ` · ABC-123`: the tickets a line names that its own text does not already show, or
/// that have a link.
fn tickets_suffix<'a>(tickets: impl Iterator<Item = &'a Ticket>, shown: &str) -> String {
    let mut suffix = String::new();
    for ticket in tickets {
        if ticket.url.is_some() || !shown.contains(&ticket.key) {
            let _ = write!(suffix, " · {}", ticket_label(ticket));
        }
    }
    suffix
}

/// - `cargo test` ×18, 3 failed — e.g. …`; an agent's group is labelled so.
fn shell_group(out: &mut String, group: &ShellGroup, lang: Lang) {
    let labels = lang.labels();
    out.push_str("- ");
    if group.agent {
        out.push_str(lang.agent_label());
    }
    let _ = write!(out, "{} ×{}", code_span(&group.head), group.count);
    if group.failed > 0 {
        let _ = write!(out, "{}{}", lang.list_separator(), lang.failed(group.failed));
    }
    if !group.examples.is_empty() {
        let examples: Vec<String> =
            group.examples.iter().map(|example| code_span(example)).collect();
        let _ = write!(out, " — {}{}", labels.example, examples.join(lang.list_separator()));
    }
    out.push_str(&machine_tag(&group.machines));
    out.push('\n');
}

/// A commit's subject as escaped text, or what stands for it when it has none.
fn subject(subject: &str, lang: Lang) -> String {
    if subject.trim().is_empty() { lang.no_message().to_owned() } else { escape_text(subject) }
}

pub(crate) fn project_section(
    out: &mut String,
    project: &Project,
    outlook: &Outlook,
    lang: Lang,
    level: &str,
    time_zone: &TimeZone,
    date: Date,
) {
    let mut heading = totals(&project.totals, lang, false);
    if let Some(spent) = time_spent(&project.time_spent, lang, time_zone) {
        let _ = write!(heading, " · {spent}");
    }
    let _ = write!(
        out,
        "\n{level} {} · {heading}\n\n",
        project_name(lang, (&project.name, project.qualifier.as_deref()), &project.path)
    );
    // Commits are labelled with their branches only when they are on more than one.
    let labels: Vec<Vec<String>> = narrowest_branches(&project.commits);
    let labelled = labels.iter().flatten().collect::<std::collections::BTreeSet<_>>().len() > 1;
    let on = |names: &[String]| -> String {
        if !labelled || names.is_empty() {
            return String::new();
        }
        let mut spans: Vec<String> =
            names.iter().take(BRANCHES_SHOWN).map(|name| code_span(name)).collect();
        if names.len() > BRANCHES_SHOWN {
            spans.push(format!("+{}", names.len() - BRANCHES_SHOWN));
        }
        lang.on_branches(&spans)
    };
    // Each commit and session as one item, with the first ticket it names.
    let mut items: Vec<(Option<&Ticket>, String)> = Vec::new();
    for (commit, label) in project.commits.iter().zip(&labels) {
        let stats = lang.stats(commit.insertions, commit.deletions, commit.files_changed);
        let separator = if lang == Lang::En { " " } else { "" };
        let branches = on(label);
        let tickets: Vec<&Ticket> = outlook.commit_tickets(&commit.hash).collect();
        let suffix = if outlook.group_by_ticket {
            String::new()
        } else {
            tickets_suffix(tickets.iter().copied(), &commit.subject)
        };
        // A subject is prose (`feat(api): …`, `#123`): escaped text, not a code span.
        let machines = machine_tag(&commit.machines);
        let subject = subject(&commit.subject, lang);
        let item = format!("{subject}{separator}{stats}{branches}{suffix}{machines}");
        items.push((tickets.first().copied(), item));
    }
    for session in &project.sessions {
        let separator = if lang == Lang::En { " " } else { "" };
        let branch = on(session.branch.as_slice());
        let models: Vec<String> = session.models.iter().map(|model| escape_text(model)).collect();
        let tickets: Vec<&Ticket> =
            outlook.session_tickets(session.agent, &session.session_id).collect();
        let suffix = if outlook.group_by_ticket {
            String::new()
        } else {
            tickets_suffix(tickets.iter().copied(), &session.title)
        };
        let item = format!(
            "AI: {} {}{separator}{}{branch}{suffix}{}",
            session.agent.display_name(),
            code_span(&session.title),
            lang.prompts_with_models(session.prompts, &models),
            machine_tag(&session.machines)
        );
        items.push((tickets.first().copied(), item));
    }
    if outlook.group_by_ticket {
        // One line per ticket, in key order, joining the work that names it first; the
        // work naming none keeps a line each.
        for ticket in &outlook.tickets {
            let joined: Vec<&str> = items
                .iter()
                .filter(|(first, _)| first.is_some_and(|first| first.key == ticket.key))
                .map(|(_, item)| item.as_str())
                .collect();
            if !joined.is_empty() {
                let _ = writeln!(out, "- {}: {}", ticket_label(ticket), joined.join(" · "));
            }
        }
        for (_, item) in items.iter().filter(|(first, _)| first.is_none()) {
            let _ = writeln!(out, "- {item}");
        }
    } else {
        for (_, item) in &items {
            let _ = writeln!(out, "- {item}");
        }
    }
    for group in &project.shell {
        shell_group(out, group, lang);
    }
    if let Some(wip) = &project.wip {
        let files: Vec<String> =
            wip.files.iter().take(WIP_FILES_SHOWN).map(|file| escape_text(file)).collect();
        let _ = writeln!(
            out,
            "- {}",
            lang.in_progress(
                wip.files.len(),
                &files,
                wip.stashes.len(),
                wip.unpushed_commits,
                wip.stopped.as_ref()
            )
        );
    }
    blockers(out, &project.blockers, lang, time_zone, date);
    next_steps(out, project, lang);
}

/// ` [devbox]`: the machines a line was seen on, set only when a report merges several
/// machines' days (`standup daily --machines`); nothing otherwise.
pub(crate) fn machine_tag(machines: &[String]) -> String {
    if machines.is_empty() {
        return String::new();
    }
    let names: Vec<String> = machines.iter().map(|name| escape_text(name)).collect();
    format!(" [{}]", names.join(", "))
}

/// `- Blocked?: …`, one line per blocker found in the evidence; nothing when there are
/// none. A time on the bucket's own date is `HH:MM`, else it also names its date.
fn blockers(out: &mut String, blockers: &[Blocker], lang: Lang, time_zone: &TimeZone, date: Date) {
    for blocker in blockers {
        let _ = writeln!(out, "- {}", blocker_line(blocker, lang, time_zone, date));
    }
}

/// `Blocked?: …` for one blocker found in the evidence.
fn blocker_line(blocker: &Blocker, lang: Lang, time_zone: &TimeZone, date: Date) -> String {
    let zoned = blocker.time.to_zoned(time_zone.clone());
    let time = if zoned.date() == date {
        zoned.strftime("%H:%M").to_string()
    } else {
        zoned.strftime("%Y-%m-%d %H:%M").to_string()
    };
    let text = code_span(&blocker.text);
    let agent = blocker.evidence.iter().find_map(|evidence| match evidence {
        Evidence::Session { agent, .. } => Some(agent.display_name()),
        Evidence::Command { .. } | Evidence::Commit { .. } => None,
    });
    match blocker.kind {
        BlockerKind::FailingCommand => lang.failing_command(&text, blocker.evidence.len(), &time),
        BlockerKind::RevertedCommit => lang.reverted_commit(&text, &time),
        BlockerKind::InterruptedSession => {
            lang.interrupted_session(agent.unwrap_or_default(), &text, &time)
        }
        BlockerKind::AgentFailingCommand => {
            let failures = blocker
                .evidence
                .iter()
                .filter(|evidence| matches!(evidence, Evidence::Command { .. }))
                .count();
            lang.agent_failing_command(agent.unwrap_or_default(), &text, failures, &time)
        }
    }
}

/// `- Next: a · b (Claude Code `0b6d1e2a`)`: the project's next steps, citing the session
/// whose to-do list they come from; nothing when there are none.
fn next_steps(out: &mut String, project: &Project, lang: Lang) {
    let Some(first) = project.next.first() else { return };
    let items: Vec<String> = project
        .next
        .iter()
        .map(|step| {
            let mark =
                if step.status == TodoStatus::InProgress { lang.in_progress_mark() } else { "" };
            format!("{}{mark}", escape_text(&step.text))
        })
        .collect();
    let session = shown_session_id(&first.session_id);
    let _ = writeln!(
        out,
        "- {}",
        lang.next_steps(&items, first.agent.display_name(), &code_span(&session))
    );
}

/// The branches a commit is shown on: its local branches, or else its remote-tracking
/// ones.
fn branch_label(commit: &Commit) -> &[String] {
    if commit.branches.is_empty() { &commit.remote_branches } else { &commit.branches }
}

/// For each commit, the narrowest of its branches: the ones holding the fewest of the
/// project's listed commits. A commit made on `main` before `feature/x` branched off is
/// in both, but it is shown on `main`, which holds fewer of the listed commits; ties
/// show every tied branch.
fn narrowest_branches(commits: &[Commit]) -> Vec<Vec<String>> {
    let mut holds: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for commit in commits {
        for name in branch_label(commit) {
            *holds.entry(name.as_str()).or_default() += 1;
        }
    }
    commits
        .iter()
        .map(|commit| {
            let names = branch_label(commit);
            let fewest = names.iter().map(|name| holds[name.as_str()]).min().unwrap_or(0);
            names.iter().filter(|name| holds[name.as_str()] == fewest).cloned().collect()
        })
        .collect()
}

/// `3 commits (+412 −37, 14 files) · 2 AI sessions, 8 prompts · 31 commands`; the report
/// line also leads with the number of projects.
pub(crate) fn totals(totals: &Totals, lang: Lang, with_projects: bool) -> String {
    let mut parts = Vec::new();
    if with_projects {
        parts.push(lang.count(totals.projects, Noun::Project));
    }
    if totals.commits == 0 {
        parts.push(lang.no_commits().to_owned());
    } else {
        let separator = if lang == Lang::En { " " } else { "" };
        parts.push(format!(
            "{}{separator}{}",
            lang.count(totals.commits, Noun::Commit),
            lang.stats(totals.insertions, totals.deletions, totals.files_changed)
        ));
    }
    if totals.sessions > 0 {
        parts.push(format!(
            "{}{}{}",
            lang.count(totals.sessions, Noun::Session),
            lang.list_separator(),
            lang.count(totals.prompts, Noun::Prompt)
        ));
    }
    if totals.commands > 0 {
        parts.push(lang.count(totals.commands, Noun::Command));
    }
    if totals.agent_commands > 0 {
        parts.push(lang.count(totals.agent_commands, Noun::AgentCommand));
    }
    parts.join(" · ")
}

/// `Warnings: none`, or one list item per warning: a warning added to a report changes
/// exactly one line of it.
fn warnings(out: &mut String, report: &Report, lang: Lang) {
    let labels = lang.labels();
    if report.warnings.is_empty() {
        let _ = writeln!(out, "{}: {}", labels.warnings, labels.none);
        return;
    }
    for warning in &report.warnings {
        let _ = writeln!(
            out,
            "- {}: {} {}",
            labels.warning,
            code_span(warning.code().as_str()),
            with_code_spans(&crate::warnings::text(warning, lang))
        );
    }
}

/// A warning's text with each `` `quoted` `` part (a path, a key, a command) as a code
/// span, which needs no escaping inside, and the rest escaped: read raw in a terminal,
/// `` `/tmp/x/.zsh_history` `` stays as it was written. A backtick without its pair is
/// text.
pub(crate) fn with_code_spans(text: &str) -> String {
    // Past the start, text is escaped as a continuation: behind a `.` that is cut off
    // again, so that no start-of-line rule applies and its spaces stay.
    let continued = |part: &str| escape_text(&format!(".{part}"))[1..].to_owned();
    let mut out = String::with_capacity(text.len() + 8);
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let Some(close) = rest[open + 1..].find('`').map(|close| open + 1 + close) else {
            break;
        };
        let before = &rest[..open];
        out.push_str(&if out.is_empty() { escape_text(before) } else { continued(before) });
        let quoted = &rest[open + 1..close];
        if quoted.is_empty() {
            out.push_str(&escape_text("``"));
        } else {
            out.push_str(&code_span(quoted));
        }
        rest = &rest[close + 1..];
    }
    out.push_str(&if out.is_empty() { escape_text(rest) } else { continued(rest) });
    out
}

fn footer(out: &mut String, report: &Report, lang: Lang, time_zone: &TimeZone) {
    let labels = lang.labels();
    let generated = report
        .meta
        .generated_at
        .to_zoned(time_zone.clone())
        .strftime("%Y-%m-%d %H:%M %:z")
        .to_string();
    let how = match &report.meta.llm_model {
        Some(model) => {
            let cached = report.narrative_check.as_ref().is_some_and(|check| check.cached);
            let cached = if cached { " (cached)" } else { "" };
            format!("{}: {}{cached}", labels.narrative_by, escape_text(model))
        }
        None => labels.deterministic.to_owned(),
    };
    let _ =
        write!(out, "— standup {} · {} {generated} · {how}", report.meta.version, labels.generated);
    for masked in &report.meta.secrets_masked {
        let _ = write!(out, " · {}", lang.secrets_masked(masked.count, masked.source));
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_session_ids_are_shown_whole_and_long_ones_by_their_start() {
        assert_eq!(shown_session_id("20261205_12"), "20261205_12");
        assert_eq!(shown_session_id("123456789012"), "123456789012");
        assert_eq!(shown_session_id("1234567890123"), "12345678");
        assert_eq!(shown_session_id("3f1c2a9e-0b7d-4e61-9a55-2c1f0d6b7e11"), "3f1c2a9e");
        assert_eq!(shown_session_id("session_bc24452d-1868-4e16-91b9-ed60a2343947"), "bc24452d");
        assert_eq!(shown_session_id("session-42"), "42");
        assert_eq!(shown_session_id("session_"), "session_");
        // Hermes Agent's: the day is every session's of that day.
        assert_eq!(shown_session_id("20261206_014112_9dacfd"), "014112_9dacfd");
        assert_eq!(shown_session_id("20261206_0141129dacfd0123456789"), "20261206");
        assert_eq!(shown_session_id("2026120x_014112_9dacfd"), "2026120x");
    }

    #[test]
    fn warnings_quote_paths_and_keys_as_code_spans() {
        assert_eq!(
            with_code_spans("cannot read `/tmp/x/.zsh_history` now"),
            "cannot read `/tmp/x/.zsh_history` now"
        );
        assert_eq!(with_code_spans("set `[identity]` *now*"), "set `[identity]` \\*now\\*");
        // A lone backtick is text; markup outside the quotes is escaped.
        assert_eq!(with_code_spans("a ` b <i>"), escape_text("a ` b <i>"));
        assert_eq!(with_code_spans("`a`b`"), "`a`b\\`");
        assert_eq!(with_code_spans("`a`: # - _b_"), "`a`: # - \\_b\\_");
    }
}
