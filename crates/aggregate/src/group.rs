//! Events into buckets, projects and shell groups, with totals.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use report_model::{
    Activity, Bucket, BucketKind, Commit, CommitEvent, Meta, NextStep, Project, ProjectRef, Report,
    ReportKind, SCHEMA_VERSION, Session, SessionEvent, ShellEvent, ShellGroup, Totals, Warning,
    Window, Wip, WipEvent,
};

use crate::blockers::add_blockers;
use crate::shell::{ShellGrouping, head};
use crate::time::{TimeRules, sum, time_spent};

/// How events are grouped.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Shell grouping rules.
    pub shell: ShellGrouping,
    /// How active time is estimated.
    pub time: TimeRules,
    /// How ticket keys are found, linked and grouped.
    pub tickets: crate::tickets::TicketRules,
}

/// Builds the report: each event goes into the window its own timestamp falls in (a
/// commit by its author date); projects are ordered by most recent activity, commits
/// newest first, shell groups by count. Warnings are sorted and de-duplicated.
pub fn aggregate(
    kind: ReportKind,
    windows: &[(BucketKind, Window)],
    activity: Activity,
    mut warnings: Vec<Warning>,
    meta: Meta,
    options: &Options,
) -> Report {
    // Each commit moves into the window holding its author date (windows do not overlap;
    // if they did, the earlier ones would get a copy).
    let Activity { commits, sessions, shell, wip, notes } = activity;
    let mut commits_per_window: Vec<Vec<CommitEvent>> =
        windows.iter().map(|_| Vec::new()).collect();
    for commit in commits {
        let time = commit.commit.author_time;
        let inside: Vec<usize> =
            (0..windows.len()).filter(|&i| windows[i].1.contains(time)).collect();
        if let Some((&last, earlier)) = inside.split_last() {
            for &index in earlier {
                commits_per_window[index].push(commit.clone());
            }
            commits_per_window[last].push(commit);
        }
    }
    let mut buckets: Vec<Bucket> = windows
        .iter()
        .zip(commits_per_window)
        .map(|((bucket_kind, window), commits)| {
            bucket(*bucket_kind, *window, commits, &sessions, &shell, &wip, options)
        })
        .collect();
    add_next_steps(&mut buckets, &sessions);
    add_blockers(&mut buckets, &shell, &sessions, &options.shell);
    let mut totals = Totals::default();
    let mut projects = BTreeSet::new();
    for bucket in &buckets {
        totals += &bucket.totals;
        projects.extend(bucket.projects.iter().map(|project| project.path.clone()));
    }
    totals.projects = projects.len() as u64;
    warnings.sort();
    warnings.dedup();
    let time_spent = sum(buckets.iter().map(|bucket| &bucket.time_spent));
    let outlook = crate::outlook::outlook(kind, &buckets, &sessions, notes, &wip, &options.tickets);
    let mut report = Report {
        schema_version: SCHEMA_VERSION,
        kind,
        buckets,
        totals,
        narrative: None,
        warnings,
        meta,
        time_spent,
        narrative_check: None,
        outlook,
    };
    crate::names::qualify(&mut report);
    report
}

/// A project's events while they are being gathered.
#[derive(Default)]
struct ProjectParts {
    name: String,
    last_activity: Option<Timestamp>,
    commits: BTreeMap<String, Commit>,
    sessions: Vec<Session>,
    commands: u64,
    /// The times of every event, for the time spent.
    times: Vec<Timestamp>,
    wip: Wip,
    agent_commands: u64,
    /// The project's own shell commands, grouped like the bucket's.
    groups: Groups,
}

impl ProjectParts {
    fn touch(&mut self, time: Timestamp) {
        self.last_activity = Some(self.last_activity.map_or(time, |last| last.max(time)));
        self.times.push(time);
    }

    /// The finished project, or nothing when it had no activity.
    fn finish(self, path: PathBuf, max_examples: usize, rules: TimeRules) -> Option<Project> {
        let last_activity = self.last_activity?;
        let mut commits: Vec<Commit> = self.commits.into_values().collect();
        commits.sort_by(|a, b| b.author_time.cmp(&a.author_time).then_with(|| a.hash.cmp(&b.hash)));
        let mut sessions = self.sessions;
        sessions.sort_by(|a, b| {
            b.last
                .cmp(&a.last)
                .then_with(|| a.agent.cmp(&b.agent))
                .then_with(|| a.session_id.cmp(&b.session_id))
        });
        let mut wip = self.wip;
        wip.unpushed_commits = commits.iter().filter(|commit| commit.unpushed).count() as u64;
        let totals = Totals {
            projects: 1,
            commits: commits.len() as u64,
            files_changed: commits.iter().map(|commit| commit.files_changed).sum(),
            insertions: commits.iter().map(|commit| commit.insertions).sum(),
            deletions: commits.iter().map(|commit| commit.deletions).sum(),
            sessions: sessions.len() as u64,
            prompts: sessions.iter().map(|session| session.prompts).sum(),
            commands: self.commands,
            agent_commands: self.agent_commands,
        };
        Some(Project {
            remote: None,
            name: self.name,
            qualifier: None,
            path,
            last_activity,
            commits,
            sessions,
            commands: self.commands,
            totals,
            time_spent: time_spent(&self.times, rules),
            wip: (!wip.is_empty()).then_some(wip),
            shell: finish_groups(self.groups, max_examples),
            next: Vec::new(),
            blockers: Vec::new(),
        })
    }
}

/// At most this many next steps are given per project.
pub const NEXT_STEPS_MAX: usize = 5;

/// Gives each project its next steps, on the last bucket it appears in (a standup's
/// today when it is there, else its previous working day; a week's or a range's last day
/// of it): the open items of the newest to-do list of the project's last session that
/// wrote one. The last session is the one with the latest record in the report's windows
/// up to that bucket (ties: the newer list, then agent and id); a list written after the
/// bucket's end is not looked at (a report of a past day shows what was left then).
fn add_next_steps(buckets: &mut [Bucket], sessions: &[SessionEvent]) {
    let by_project = sessions_by_project(sessions);
    for (path, index) in last_buckets(buckets) {
        let end = buckets[index].window.end;
        let windows: Vec<Window> = buckets[..=index].iter().map(|bucket| bucket.window).collect();
        let newest = by_project
            .get(path.as_path())
            .into_iter()
            .flatten()
            .filter_map(|&session| {
                let written = session.todos_time.filter(|time| *time < end)?;
                let last = session
                    .activity
                    .iter()
                    .chain(&session.prompts)
                    .copied()
                    .filter(|time| windows.iter().any(|window| window.contains(*time)))
                    .max()?;
                Some((last, written, session))
            })
            .max_by(|a, b| {
                a.0.cmp(&b.0)
                    .then_with(|| a.1.cmp(&b.1))
                    .then_with(|| b.2.agent.cmp(&a.2.agent))
                    .then_with(|| b.2.session_id.cmp(&a.2.session_id))
            });
        let Some((_, written, session)) = newest else { continue };
        let next = session
            .todos
            .iter()
            .filter(|todo| todo.status.is_open() && !todo.text.is_empty())
            .take(NEXT_STEPS_MAX)
            .map(|todo| NextStep {
                text: todo.text.clone(),
                status: todo.status,
                agent: session.agent,
                session_id: session.session_id.clone(),
                time: written,
            })
            .collect();
        if let Some(project) =
            buckets[index].projects.iter_mut().find(|project| project.path == path)
        {
            project.next = next;
        }
    }
}

/// Each project of the report, by its path, with the index of the last bucket it appears
/// in.
pub(crate) fn last_buckets(buckets: &[Bucket]) -> BTreeMap<PathBuf, usize> {
    let mut last: BTreeMap<PathBuf, usize> = BTreeMap::new();
    for (index, bucket) in buckets.iter().enumerate() {
        for project in &bucket.projects {
            last.insert(project.path.clone(), index);
        }
    }
    last
}

/// The sessions of each project, by its path (the empty path for sessions whose working
/// directory is unknown), each project's in the order of `sessions`: looked up once per
/// project instead of every session being compared with every project.
pub(crate) fn sessions_by_project(
    sessions: &[SessionEvent],
) -> BTreeMap<&Path, Vec<&SessionEvent>> {
    let mut by_project: BTreeMap<&Path, Vec<&SessionEvent>> = BTreeMap::new();
    for session in sessions {
        let path = session.project.as_ref().map_or(Path::new(""), |p| p.path.as_path());
        by_project.entry(path).or_default().push(session);
    }
    by_project
}

/// The key of sessions whose working directory is unknown: an empty name and path,
/// which render words in the report's language.
fn unknown_project() -> ProjectRef {
    ProjectRef { name: String::new(), path: PathBuf::new() }
}

fn entry<'a>(
    parts: &'a mut BTreeMap<PathBuf, ProjectParts>,
    project: &ProjectRef,
) -> &'a mut ProjectParts {
    let entry = parts.entry(project.path.clone()).or_default();
    entry.name.clone_from(&project.name);
    entry
}

/// Each session with a record in the window, under its project; every record of it is
/// a moment of work on the project.
fn add_sessions(
    parts: &mut BTreeMap<PathBuf, ProjectParts>,
    window: Window,
    sessions: &[SessionEvent],
) {
    for session in sessions {
        let mut times: Vec<Timestamp> = session
            .activity
            .iter()
            .chain(&session.prompts)
            .copied()
            .filter(|time| window.contains(*time))
            .collect();
        // A prompt is also a record of the session: each moment counts once.
        times.sort_unstable();
        times.dedup();
        let (Some(&first), Some(&last)) = (times.first(), times.last()) else { continue };
        let prompts = session.prompts.iter().filter(|time| window.contains(**time)).count() as u64;
        let project = session.project.clone().unwrap_or_else(unknown_project);
        let project_parts = entry(parts, &project);
        // Every record of the session is a moment of work on the project.
        for time in times {
            project_parts.touch(time);
        }
        project_parts.sessions.push(Session {
            machines: Vec::new(),
            agent: session.agent,
            session_id: session.session_id.clone(),
            title: session.title.clone(),
            truncated: session.truncated,
            prompts,
            first,
            last,
            branch: session.branch.clone(),
            models: session.models.clone(),
        });
    }
}

/// Work in progress of the window: files modified and stashes made in it, each put on
/// its repository's project (which it makes active when nothing else did).
fn add_work_in_progress(
    parts: &mut BTreeMap<PathBuf, ProjectParts>,
    window: Window,
    wip_events: &[WipEvent],
) {
    for wip in wip_events {
        let files: Vec<&report_model::WipFile> =
            wip.files.iter().filter(|file| window.contains(file.modified)).collect();
        let stashes: Vec<&report_model::WipStash> =
            wip.stashes.iter().filter(|stash| window.contains(stash.time)).collect();
        // An operation stopped midway shows on the day it stopped (the outlook carries it
        // as long as it stays stopped).
        let stopped = wip.stopped.as_ref().filter(|stopped| window.contains(stopped.since));
        if files.is_empty() && stashes.is_empty() && stopped.is_none() {
            continue;
        }
        let project_parts = entry(parts, &wip.project);
        if let Some(stopped) = stopped {
            project_parts.wip.stopped = Some(stopped.clone());
        }
        // Placed by the latest of them; not a moment of the time spent, which counts
        // commits, prompts and commands only.
        let latest = files
            .iter()
            .map(|file| file.modified)
            .chain(stashes.iter().map(|s| s.time))
            .chain(stopped.map(|stopped| stopped.since));
        if let Some(latest) = latest.max() {
            project_parts.last_activity =
                Some(project_parts.last_activity.map_or(latest, |last| last.max(latest)));
        }
        project_parts.wip.files.extend(files.iter().map(|file| file.path.clone()));
        project_parts.wip.stashes.extend(stashes.iter().map(|stash| stash.message.clone()));
    }
}

fn bucket(
    kind: BucketKind,
    window: Window,
    commits: Vec<CommitEvent>,
    sessions: &[SessionEvent],
    shell_events: &[ShellEvent],
    wip_events: &[WipEvent],
    options: &Options,
) -> Bucket {
    let mut parts: BTreeMap<PathBuf, ProjectParts> = BTreeMap::new();

    for CommitEvent { project, commit } in commits {
        let project_parts = entry(&mut parts, &project);
        project_parts.touch(commit.author_time);
        project_parts.commits.entry(commit.hash.clone()).or_insert(commit);
    }

    add_work_in_progress(&mut parts, window, wip_events);
    add_sessions(&mut parts, window, sessions);

    let mut groups = Groups::new();
    let mut commands_total = 0;
    let mut agent_commands_total = 0;
    for command in shell_events.iter().filter(|command| window.contains(command.time)) {
        let Some(head) = grouped_head(&command.command, &options.shell) else { continue };
        // An agent's commands are counted and grouped apart from the person's.
        let agent = command.agent.is_some();
        if agent {
            agent_commands_total += 1;
        } else {
            commands_total += 1;
        }
        // A command run in a project is grouped under it; the bucket keeps the rest.
        let groups = if let Some(project) = &command.project {
            let project_parts = entry(&mut parts, project);
            project_parts.touch(command.time);
            if agent {
                project_parts.agent_commands += 1;
            } else {
                project_parts.commands += 1;
            }
            &mut project_parts.groups
        } else {
            &mut groups
        };
        let group = groups.entry((head, agent)).or_default();
        group.uses.push((command.time, command.command.clone(), command.truncated));
        // A non-zero exit status is a failure (histories without one never fail).
        if command.exit.is_some_and(|exit| exit != 0) {
            group.failed += 1;
        }
    }

    let all_times: Vec<Timestamp> =
        parts.values().flat_map(|parts| parts.times.iter().copied()).collect();
    let bucket_time = time_spent(&all_times, options.time);
    let mut projects: Vec<Project> = parts
        .into_iter()
        .filter_map(|(path, parts)| parts.finish(path, options.shell.examples, options.time))
        .collect();
    projects.sort_by(|a, b| {
        b.last_activity
            .cmp(&a.last_activity)
            .then_with(|| a.name.cmp(&b.name))
            .then_with(|| a.path.cmp(&b.path))
    });

    let shell = finish_groups(groups, options.shell.examples);

    let mut totals = Totals::default();
    for project in &projects {
        totals += &project.totals;
    }
    // Commands without a project are counted too.
    totals.commands = commands_total;
    totals.agent_commands = agent_commands_total;
    Bucket {
        kind,
        window,
        projects,
        shell,
        totals,
        through: None,
        time_spent: bucket_time,
        blockers: Vec::new(),
    }
}

/// The head a command is grouped under, or `None` for a line with no program or a head
/// the grouping ignores.
pub(crate) fn grouped_head(command: &str, grouping: &ShellGrouping) -> Option<String> {
    let head = head(command, &grouping.two_word)?;
    let ignored = grouping
        .ignore
        .iter()
        .any(|ignored| *ignored == head || head.split(' ').next() == Some(ignored));
    (!ignored).then_some(head)
}

/// Shell groups being gathered, by head and whether an agent ran them.
type Groups = BTreeMap<(String, bool), GroupParts>;

/// The finished groups: the person's first, then the agents'; each most frequent first.
fn finish_groups(groups: Groups, max_examples: usize) -> Vec<ShellGroup> {
    let mut shell: Vec<ShellGroup> = groups
        .into_iter()
        .map(|((head, agent), parts)| parts.finish(head, agent, max_examples))
        .collect();
    shell.sort_by(|a, b| {
        a.agent.cmp(&b.agent).then_with(|| b.count.cmp(&a.count)).then_with(|| a.head.cmp(&b.head))
    });
    shell
}

#[derive(Default)]
struct GroupParts {
    uses: Vec<(Timestamp, String, bool)>,
    failed: u64,
}

impl GroupParts {
    fn finish(mut self, head: String, agent: bool, max_examples: usize) -> ShellGroup {
        let count = self.uses.len() as u64;
        // Most recent first; equal times keep a stable order by text.
        self.uses.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        let mut examples: Vec<String> = Vec::new();
        let mut truncated = false;
        for (_, command, command_truncated) in self.uses {
            if examples.len() >= max_examples {
                break;
            }
            if !examples.contains(&command) {
                truncated |= command_truncated;
                examples.push(command);
            }
        }
        ShellGroup {
            head,
            count,
            examples,
            truncated,
            failed: self.failed,
            agent,
            machines: Vec::new(),
        }
    }
}
