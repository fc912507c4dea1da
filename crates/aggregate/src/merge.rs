//! One day across several machines: reports of the same kind and dates merged into one.
//!
//! Projects are matched by their normalized remote URL, else by name; commits are one
//! per hash (the same commit pushed on one machine and fetched on another is one
//! commit), sessions one per agent and id; shell commands of the same head are added
//! up (each machine ran its own). Time spans are unioned, not added; every total is
//! recomputed. Each commit, session and shell group names the machines it was seen
//! on. Timestamps are instants, so machines in other time zones need nothing more.

use std::collections::BTreeSet;

use report_model::{
    Blocker, Bucket, Commit, MaskedCount, NextStep, Project, Report, Session, ShellGroup, Span,
    TimeSpent, Totals, Wip,
};

use crate::TimeRules;

/// One machine's report, named by the machine.
#[derive(Debug, Clone)]
pub struct MachineReport {
    /// The machine's name (`[[machines]] name`, a ledger folder, or the host name).
    pub machine: String,
    /// Its report, of the same kind and dates as the others.
    pub report: Report,
}

/// Merges `others` into `local`'s report: `local` gives the kind, the windows and the
/// narrative; a bucket of another machine joins the local bucket of the same date (a
/// date the local report does not have is left out). With no others, `local`'s report
/// is returned unchanged. Warnings of another machine name it (`Warning::machine`).
pub fn merge(local: MachineReport, others: Vec<MachineReport>, rules: TimeRules) -> Report {
    let MachineReport { machine: local_machine, mut report } = local;
    if others.is_empty() {
        return report;
    }
    mark(&mut report, &local_machine);
    let mut machines = vec![local_machine];
    for other in others {
        let MachineReport { machine, report: mut theirs } = other;
        mark(&mut theirs, &machine);
        for mut warning in theirs.warnings {
            if warning.machine_name().is_none() {
                warning.machine = Some(machine.clone());
            }
            report.warnings.push(warning);
        }
        for bucket in theirs.buckets {
            if let Some(ours) =
                report.buckets.iter_mut().find(|ours| ours.window.date == bucket.window.date)
            {
                merge_bucket(ours, bucket, rules);
            }
        }
        add_masked(&mut report.meta.secrets_masked, &theirs.meta.secrets_masked);
        if !machines.contains(&machine) {
            machines.push(machine);
        }
    }
    report.warnings.sort();
    report.warnings.dedup();
    report.meta.machines = machines;
    recompute_report(&mut report);
    crate::names::qualify(&mut report);
    report
}

/// One machine's clones of one repository made one project: in each bucket, the
/// projects of one repository (the same remote: a second clone for reviews, a copy of
/// the work tree; or a clone whose remote is the folder of another project here, as
/// `git clone ~/src/app /tmp/app-try` makes) are merged as two machines' projects are,
/// into the first of them in the bucket's order (the most recently active; but a clone
/// of a folder here folds into that folder's project), so a commit found in both is one
/// commit. Projects without a remote are otherwise left as they are (nothing says two
/// folders are one repository), and so is the open work, which belongs to each work
/// tree. Totals are recomputed; with nothing to fold, `report` is unchanged.
pub fn fold_clones(report: &mut Report, rules: TimeRules) {
    let mut folded = false;
    for bucket in &mut report.buckets {
        let keys = repository_keys(&bucket.projects);
        // Each project kept, with its key and whether its remote is a folder here.
        let mut kept: Vec<(Option<String>, bool, Project)> =
            Vec::with_capacity(bucket.projects.len());
        let mut here = false;
        for ((key, mut local), mut project) in
            keys.into_iter().zip(std::mem::take(&mut bucket.projects))
        {
            match kept.iter_mut().find(|(known, _, _)| key.is_some() && *known == key) {
                Some((_, known_local, known)) => {
                    // The folder a clone was made from names the project, not the clone.
                    if *known_local && !local {
                        std::mem::swap(known, &mut project);
                        *known_local = false;
                        local = true;
                    }
                    if local {
                        // A folder here is no remote for the project it folds into.
                        project.remote = None;
                    }
                    merge_project(known, project, rules);
                    here = true;
                }
                None => kept.push((key, local, project)),
            }
        }
        bucket.projects = kept.into_iter().map(|(_, _, project)| project).collect();
        if here {
            recompute_bucket(bucket);
            folded = true;
        }
    }
    if !folded {
        return;
    }
    let mut totals = Totals::default();
    let mut projects = BTreeSet::new();
    for bucket in &report.buckets {
        totals += &bucket.totals;
        projects.extend(bucket.projects.iter().map(|project| project.path.clone()));
    }
    totals.projects = projects.len() as u64;
    report.totals = totals;
    crate::names::qualify(report);
}

/// What tells each project's repository in [`fold_clones`]: its remote, where that
/// remote is not the folder of another project (then that project's own key); its
/// folder without a remote (a clone may name it); `None` for the sessions without a
/// project. With it, whether the remote is such a folder.
fn repository_keys(projects: &[Project]) -> Vec<(Option<String>, bool)> {
    let own = |project: &Project| {
        project.remote.clone().or_else(|| {
            let path = project.path.to_str().filter(|path| !path.is_empty())?;
            Some(path.to_owned())
        })
    };
    let by_path: std::collections::BTreeMap<&str, Option<String>> = projects
        .iter()
        .filter_map(|project| Some((project.path.to_str()?, own(project))))
        .collect();
    projects
        .iter()
        .map(|project| match project.remote.as_deref().and_then(|remote| by_path.get(remote)) {
            Some(key) => (key.clone(), true),
            None => (own(project), false),
        })
        .collect()
}

/// Names `machine` on every commit, session and shell group of `report`.
fn mark(report: &mut Report, machine: &str) {
    let add = |machines: &mut Vec<String>| {
        if !machines.iter().any(|name| name == machine) {
            machines.push(machine.to_owned());
            machines.sort();
        }
    };
    for bucket in &mut report.buckets {
        for project in &mut bucket.projects {
            project.commits.iter_mut().for_each(|commit| add(&mut commit.machines));
            project.sessions.iter_mut().for_each(|session| add(&mut session.machines));
            project.shell.iter_mut().for_each(|group| add(&mut group.machines));
        }
        bucket.shell.iter_mut().for_each(|group| add(&mut group.machines));
    }
}

fn merge_bucket(ours: &mut Bucket, theirs: Bucket, rules: TimeRules) {
    for project in theirs.projects {
        match ours.projects.iter_mut().find(|candidate| same_project(candidate, &project)) {
            Some(found) => merge_project(found, project, rules),
            None => ours.projects.push(project),
        }
    }
    ours.projects.sort_by(|a, b| {
        b.last_activity
            .cmp(&a.last_activity)
            .then_with(|| a.name.cmp(&b.name))
            .then_with(|| a.path.cmp(&b.path))
    });
    merge_groups(&mut ours.shell, theirs.shell);
    merge_blockers(&mut ours.blockers, theirs.blockers);
    ours.time_spent = union(&[&ours.time_spent, &theirs.time_spent], rules);
    ours.through = ours.through.max(theirs.through);
    recompute_bucket(ours);
}

/// The same repository on two machines: the same remote, else (when either has none)
/// the same name; the sessions without a project are one project everywhere.
fn same_project(a: &Project, b: &Project) -> bool {
    if let (Some(a_remote), Some(b_remote)) = (&a.remote, &b.remote) {
        return a_remote == b_remote;
    }
    let unknown = |project: &Project| project.path.as_os_str().is_empty();
    if unknown(a) || unknown(b) { unknown(a) && unknown(b) } else { a.name == b.name }
}

fn merge_project(ours: &mut Project, theirs: Project, rules: TimeRules) {
    ours.last_activity = ours.last_activity.max(theirs.last_activity);
    if ours.remote.is_none() {
        ours.remote = theirs.remote;
    }
    for commit in theirs.commits {
        match ours.commits.iter_mut().find(|known| known.hash == commit.hash) {
            Some(known) => merge_commit(known, commit),
            None => ours.commits.push(commit),
        }
    }
    ours.commits
        .sort_by(|a, b| b.author_time.cmp(&a.author_time).then_with(|| a.hash.cmp(&b.hash)));
    for session in theirs.sessions {
        match ours
            .sessions
            .iter_mut()
            .find(|known| known.agent == session.agent && known.session_id == session.session_id)
        {
            Some(known) => merge_session(known, session),
            None => ours.sessions.push(session),
        }
    }
    ours.sessions.sort_by(|a, b| {
        b.last
            .cmp(&a.last)
            .then_with(|| a.agent.cmp(&b.agent))
            .then_with(|| a.session_id.cmp(&b.session_id))
    });
    ours.commands += theirs.commands;
    let agent_commands = ours.totals.agent_commands + theirs.totals.agent_commands;
    merge_groups(&mut ours.shell, theirs.shell);
    ours.time_spent = union(&[&ours.time_spent, &theirs.time_spent], rules);
    ours.wip = merge_wip(ours.wip.take(), theirs.wip);
    // The newer to-do list is the one that says what is next.
    let newest = |next: &[NextStep]| next.iter().map(|step| step.time).max();
    if newest(&theirs.next) > newest(&ours.next) {
        ours.next = theirs.next;
    }
    merge_blockers(&mut ours.blockers, theirs.blockers);
    recompute_project(ours, agent_commands);
}

fn merge_commit(known: &mut Commit, other: Commit) {
    union_names(&mut known.machines, other.machines);
    union_names(&mut known.branches, other.branches);
    union_names(&mut known.remote_branches, other.remote_branches);
    // Pushed as soon as one machine sees it on a remote.
    known.unpushed = known.unpushed && other.unpushed;
    if known.unpushed && !known.remote_branches.is_empty() {
        known.unpushed = false;
    }
}

fn merge_session(known: &mut Session, other: Session) {
    known.prompts = known.prompts.max(other.prompts);
    known.first = known.first.min(other.first);
    known.last = known.last.max(other.last);
    for model in other.models {
        if !known.models.contains(&model) {
            known.models.push(model);
        }
    }
    if known.branch.is_none() {
        known.branch = other.branch;
    }
    union_names(&mut known.machines, other.machines);
}

fn merge_wip(ours: Option<Wip>, theirs: Option<Wip>) -> Option<Wip> {
    match (ours, theirs) {
        (Some(mut ours), Some(theirs)) => {
            union_names(&mut ours.files, theirs.files);
            for stash in theirs.stashes {
                if !ours.stashes.contains(&stash) {
                    ours.stashes.push(stash);
                }
            }
            ours.stopped = ours.stopped.or(theirs.stopped);
            Some(ours)
        }
        (ours, theirs) => ours.or(theirs),
    }
}

/// Groups of the same head (and the same runner: a person or an agent) add up, since
/// each machine ran its own commands; examples are joined, at most as many as the
/// larger side kept.
fn merge_groups(ours: &mut Vec<ShellGroup>, theirs: Vec<ShellGroup>) {
    for group in theirs {
        match ours.iter_mut().find(|known| known.head == group.head && known.agent == group.agent) {
            Some(known) => {
                let cap = known.examples.len().max(group.examples.len());
                known.count += group.count;
                known.failed += group.failed;
                known.truncated |= group.truncated;
                for example in group.examples {
                    if known.examples.len() < cap && !known.examples.contains(&example) {
                        known.examples.push(example);
                    }
                }
                union_names(&mut known.machines, group.machines);
            }
            None => ours.push(group),
        }
    }
    ours.sort_by(|a, b| {
        a.agent.cmp(&b.agent).then_with(|| b.count.cmp(&a.count)).then_with(|| a.head.cmp(&b.head))
    });
}

fn merge_blockers(ours: &mut Vec<Blocker>, theirs: Vec<Blocker>) {
    for blocker in theirs {
        if !ours.iter().any(|known| known.kind == blocker.kind && known.text == blocker.text) {
            ours.push(blocker);
        }
    }
    ours.sort_by(|a, b| a.time.cmp(&b.time).then_with(|| a.text.cmp(&b.text)));
}

/// `names` plus `more`, sorted, without duplicates.
fn union_names(names: &mut Vec<String>, more: Vec<String>) {
    let all: BTreeSet<String> = names.drain(..).chain(more).collect();
    names.extend(all);
}

fn add_masked(ours: &mut Vec<MaskedCount>, theirs: &[MaskedCount]) {
    for masked in theirs {
        match ours.iter_mut().find(|known| known.source == masked.source) {
            Some(known) => known.count += masked.count,
            None => ours.push(masked.clone()),
        }
    }
}

/// The union of estimates: spans that overlap, or are less than the idle gap apart,
/// become one (its events added up), each counting its length or the minimum span.
/// Time both machines were active in is counted once.
pub fn union(parts: &[&TimeSpent], rules: TimeRules) -> TimeSpent {
    let mut spans: Vec<Span> = parts.iter().flat_map(|part| part.spans.iter().copied()).collect();
    spans.sort_by_key(|span| (span.start, span.end));
    let idle_seconds = i64::try_from(rules.idle_minutes.saturating_mul(60)).unwrap_or(i64::MAX);
    let mut joined: Vec<Span> = Vec::new();
    for span in spans {
        match joined.last_mut() {
            Some(last) if span.start.duration_since(last.end).as_secs() < idle_seconds => {
                last.end = last.end.max(span.end);
                last.events += span.events;
                last.minutes = last.minutes.max(span.minutes);
            }
            _ => joined.push(span),
        }
    }
    let mut minutes = 0u64;
    for span in &mut joined {
        let length = u64::try_from(span.end.duration_since(span.start).as_secs() / 60).unwrap_or(0);
        span.minutes = length.max(rules.min_span_minutes).max(span.minutes);
        minutes = minutes.saturating_add(span.minutes);
    }
    TimeSpent { minutes, spans: joined }
}

/// Recomputes every total of `report` from what its projects and buckets hold (after
/// parts were taken out of it, as `standup publish` does).
pub fn retotal(report: &mut Report) {
    for bucket in &mut report.buckets {
        for project in &mut bucket.projects {
            let agent_commands = project.totals.agent_commands;
            recompute_project(project, agent_commands);
        }
        recompute_bucket(bucket);
    }
    recompute_report(report);
}

fn recompute_project(project: &mut Project, agent_commands: u64) {
    if let Some(wip) = &mut project.wip {
        wip.unpushed_commits =
            project.commits.iter().filter(|commit| commit.unpushed).count() as u64;
    }
    project.wip = project.wip.take().filter(|wip| !wip.is_empty());
    let commits = &project.commits;
    project.totals = Totals {
        projects: 1,
        commits: commits.len() as u64,
        files_changed: commits.iter().map(|commit| commit.files_changed).sum(),
        insertions: commits.iter().map(|commit| commit.insertions).sum(),
        deletions: commits.iter().map(|commit| commit.deletions).sum(),
        sessions: project.sessions.len() as u64,
        prompts: project.sessions.iter().map(|session| session.prompts).sum(),
        commands: project.commands,
        agent_commands,
    };
}

fn recompute_bucket(bucket: &mut Bucket) {
    let mut totals = Totals::default();
    for project in &bucket.projects {
        totals += &project.totals;
    }
    for group in &bucket.shell {
        if group.agent {
            totals.agent_commands += group.count;
        } else {
            totals.commands += group.count;
        }
    }
    bucket.totals = totals;
}

fn recompute_report(report: &mut Report) {
    let mut totals = Totals::default();
    let mut projects = BTreeSet::new();
    for bucket in &report.buckets {
        totals += &bucket.totals;
        projects.extend(bucket.projects.iter().map(project_key));
    }
    totals.projects = projects.len() as u64;
    report.totals = totals;
    report.time_spent = crate::time::sum(report.buckets.iter().map(|bucket| &bucket.time_spent));
}

/// What identifies a project across buckets: its remote, else its name.
fn project_key(project: &Project) -> String {
    project.remote.clone().unwrap_or_else(|| format!("name:{}", project.name))
}

#[cfg(test)]
mod tests;
