//! The totals a report must show, counted from what was generated, by the rules the
//! reports follow: a commit by its author date (the user's, merges left out, never
//! from a repository git refuses), a session when one of its records falls in the
//! window (its prompts by their distinct times), a shell command by its time unless the
//! ignore list drops it, and a project per repository (or folder outside any) with any
//! of these.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::claude::SessionFacts;
use crate::clock::Clock;
use crate::git::Built;
use crate::{Counts, Expected, RepoKind};

pub(crate) struct Expectation<'a> {
    pub(crate) clock: &'a Clock,
    pub(crate) repos: &'a [Built],
    pub(crate) sessions: Vec<&'a SessionFacts>,
    pub(crate) commands: &'a [(i64, bool)],
}

impl Expectation<'_> {
    pub(crate) fn compute(&self) -> Expected {
        let (daily, today_projects) = self.window(self.clock.window(0));
        let (previous_workday, previous_projects) = self.window(self.clock.window(-1));
        let mut standup = add(&daily, &previous_workday);
        standup.projects = today_projects.union(&previous_projects).count() as u64;
        Expected { daily, previous_workday, standup }
    }

    fn window(&self, (start, end): (i64, i64)) -> (Counts, BTreeSet<PathBuf>) {
        let inside = |time: i64| start <= time && time < end;
        let mut counts = Counts::default();
        let mut projects = BTreeSet::new();
        for repo in self.repos.iter().filter(|repo| repo.kind != RepoKind::BrokenHead) {
            for commit in repo.user_commits.iter().filter(|commit| inside(commit.time)) {
                counts.commits += 1;
                counts.files_changed += commit.files;
                counts.insertions += commit.insertions;
                counts.deletions += commit.deletions;
                projects.insert(repo.path.clone());
            }
        }
        for session in &self.sessions {
            if !session.times.iter().chain(&session.prompts).any(|time| inside(*time)) {
                continue;
            }
            counts.sessions += 1;
            let prompts: BTreeSet<i64> =
                session.prompts.iter().copied().filter(|time| inside(*time)).collect();
            counts.prompts += prompts.len() as u64;
            projects.insert(self.project_of(&session.cwd));
        }
        counts.commands =
            self.commands.iter().filter(|(time, counted)| *counted && inside(*time)).count() as u64;
        counts.projects = projects.len() as u64;
        (counts, projects)
    }

    /// The project of a working directory: the nearest repository above it, else the
    /// folder itself (`standup` runs with the output folder as its git ceiling, so a
    /// work tree around it is never found).
    fn project_of(&self, cwd: &Path) -> PathBuf {
        for folder in cwd.ancestors() {
            if self.repos.iter().any(|repo| repo.path == folder) {
                return folder.to_path_buf();
            }
        }
        cwd.to_path_buf()
    }
}

fn add(a: &Counts, b: &Counts) -> Counts {
    Counts {
        projects: a.projects + b.projects,
        commits: a.commits + b.commits,
        files_changed: a.files_changed + b.files_changed,
        insertions: a.insertions + b.insertions,
        deletions: a.deletions + b.deletions,
        sessions: a.sessions + b.sessions,
        prompts: a.prompts + b.prompts,
        commands: a.commands + b.commands,
    }
}
