//! Every source at once, joined per project: agent sessions and shell histories are read
//! while the repositories are discovered; their working directories resolve to
//! repositories (worktrees folded) and feed discovery, so a repository outside the roots
//! that the user worked in still shows its commits; then the commits are read.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use jiff::Timestamp;
use report_model::{Activity, Agent, CommitEvent, ProjectRef, Warning, WarningDetail};

use crate::git::{self, GitConfig, Identity, ReadOptions, Repo, RepoRead, RepoScan, WipState};
use crate::sessions::{self, SessionsConfig};
use crate::shell::{self, ShellConfig};
use crate::{Env, SourceOutput, SourceStatus};

/// What to read.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    /// The git source.
    pub git: GitConfig,
    /// The configured identity; git's global one and each repository's own are added.
    pub identity: Identity,
    /// The agent-session sources.
    pub sessions: SessionsConfig,
    /// The shell-history sources.
    pub shell: ShellConfig,
}

/// Everything the sources produced, joined per project.
#[derive(Debug, Default)]
pub struct Gathered {
    /// Commits, sessions and commands, with `project` set on sessions and commands.
    pub activity: Activity,
    /// Warnings from every source.
    pub warnings: Vec<Warning>,
    /// One status per source, for `standup doctor`.
    pub statuses: Vec<SourceStatus>,
    /// The identity whose commits were read.
    pub identity: Identity,
    /// The repositories found.
    pub repos: Vec<Repo>,
    /// Wall time of each stage, in the order they ran (for `--timings`).
    pub timings: Vec<(String, Duration)>,
    /// What each repository read told: its identities, commits left out as other
    /// people's (for `standup doctor`).
    pub repo_reads: Vec<RepoRead>,
}

/// The project of a shell command run in `cwd`: the repository the directory is in, or
/// the folder of a session (outside any repository) that contains it. Elsewhere (the
/// home folder, `/tmp`) a command is in no project and stays in the Shell section.
fn command_project(
    cwd: &Path,
    resolve_repo: &mut impl FnMut(&Path) -> Option<ProjectRef>,
    folders: &[ProjectRef],
) -> Option<ProjectRef> {
    resolve_repo(cwd).or_else(|| {
        folders
            .iter()
            .filter(|folder| cwd.starts_with(&folder.path))
            .max_by_key(|folder| folder.path.as_os_str().len())
            .cloned()
    })
}

/// Reads every source for activity at or after `since`. `cwd` is the directory the
/// command runs from: its repository is always read.
pub fn gather(
    env: &Env,
    sources: &Sources,
    since: Timestamp,
    cwd: Option<&Path>,
    workers: usize,
) -> Gathered {
    let extra: Vec<PathBuf> = cwd.map(Path::to_path_buf).into_iter().collect();
    // The repositories under the roots are read while the logs are parsed: git runs in
    // processes of its own, so on two cores both go at once. Repositories that only the
    // logs' working directories reveal are read after the join.
    let (found, (mut sessions, shell, mut timings)) = std::thread::scope(|scope| {
        let git_side = scope.spawn(|| read_git_side(env, sources, since, &extra, workers));
        let logs = read_logs(env, sources, since);
        // A panic on the git side is a bug; re-raise it rather than hide it.
        let found = git_side.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (found, logs)
    });
    timings.insert(0, ("discover".to_owned(), found.discover_time));
    timings.insert(1, ("git: repositories under the roots".to_owned(), found.git_time));
    // Aider keeps its history in the work tree it ran in: read once they are known.
    if sources.sessions.agents.contains(&Agent::Aider) {
        let start = Instant::now();
        let work_trees: Vec<PathBuf> =
            found.repos.iter().map(|repo| repo.project.path.clone()).collect();
        merge(&mut sessions, sessions::read_aider(env, &sources.sessions, &work_trees, since));
        timings.push(("sessions: Aider".to_owned(), start.elapsed()));
    }

    let mut gathered = Gathered { identity: found.identity, timings, ..Gathered::default() };
    gathered.warnings.extend(found.warnings);

    // Join: every working directory resolves to its repository (or its folder).
    let start = Instant::now();
    let known: BTreeSet<PathBuf> = found.repos.iter().map(|repo| repo.git_dir.clone()).collect();
    let mut revealed: BTreeMap<PathBuf, Repo> = BTreeMap::new();
    let mut resolved: BTreeMap<PathBuf, Option<ProjectRef>> = BTreeMap::new();
    // The repositories a session or command ran in: asked for work in progress.
    let mut worked_in: BTreeSet<PathBuf> = BTreeSet::new();
    let ceilings = git::Ceilings::from_env(env);
    let mut unreadable = Unreadable::new(&gathered.warnings, &ceilings);
    // A working directory's repository, or `None` outside any.
    let mut resolve_repo = |path: &Path| -> Option<ProjectRef> {
        if let Some(project) = resolved.get(path) {
            return project.clone();
        }
        let project = unreadable.find_repo(path).map(|repo| {
            worked_in.insert(repo.git_dir.clone());
            let project = repo.project.clone();
            if !known.contains(&repo.git_dir) {
                revealed.entry(repo.git_dir.clone()).or_insert(repo);
            }
            project
        });
        resolved.insert(path.to_path_buf(), project.clone());
        project
    };
    // A session outside any repository makes its folder a project.
    let mut folders: Vec<ProjectRef> = Vec::new();
    for session in &mut sessions.events {
        session.project = session.cwd.as_deref().map(|cwd| {
            resolve_repo(cwd).unwrap_or_else(|| {
                let project = git::project_for(cwd, &ceilings);
                if !folders.contains(&project) {
                    folders.push(project.clone());
                }
                project
            })
        });
    }
    let mut shell = shell;
    for command in &mut shell.events {
        command.project = command
            .cwd
            .as_deref()
            .and_then(|cwd| command_project(cwd, &mut resolve_repo, &folders));
    }
    gathered.warnings.extend(unreadable.warnings);
    gathered.timings.push(("join".to_owned(), start.elapsed()));

    let mut reads = found.commits;
    let revealed: Vec<Repo> = revealed.into_values().collect();
    if !revealed.is_empty() {
        let start = Instant::now();
        let options = ReadOptions {
            outside: Some(found.outside),
            ..read_options(sources, &gathered.identity, since, workers)
        };
        merge_reads(&mut reads, git::read_repos(env, &revealed, &options));
        gathered.timings.push(("git: repositories of session folders".to_owned(), start.elapsed()));
    }
    gathered.repos = found.repos.into_iter().chain(revealed).collect();
    let repo_reads: Vec<RepoRead> =
        reads.scans.iter().filter_map(RepoScan::read).cloned().collect();
    gathered.warnings.extend(identity_unknown(&gathered.identity, &repo_reads));
    let pool = (workers, sources.git.timeout);
    let wip =
        work_in_progress(env, &mut gathered, &mut reads, &worked_in, (since, found.outside), pool);
    gathered.repo_reads = repo_reads;
    let commits = reads.output;

    gathered.activity = Activity {
        commits: commits.events,
        sessions: sessions.events,
        shell: shell.events,
        wip,
        notes: Vec::new(),
    };
    for output in [commits.warnings, sessions.warnings, shell.warnings] {
        gathered.warnings.extend(output);
    }
    gathered.statuses.extend(commits.statuses);
    gathered.statuses.extend(sessions.statuses);
    gathered.statuses.extend(shell.statuses);
    gathered
}

/// Finds the repositories under the roots and reads them: the side of [`gather`] that
/// runs while the logs are parsed.
fn read_git_side(
    env: &Env,
    sources: &Sources,
    since: Timestamp,
    extra: &[PathBuf],
    workers: usize,
) -> FoundRepos {
    let start = Instant::now();
    let read_before = crate::pool::storage_reads();
    let timeout = sources.git.timeout;
    // git is asked for its own configuration (two processes) while the folders are
    // walked, so neither waits for the other.
    let (repos, warnings, global, outside) = std::thread::scope(|scope| {
        let global = scope.spawn(|| git::global_identity(env, timeout));
        let outside = scope.spawn(|| git::outside_config(env, timeout));
        let (repos, warnings) = git::discover(env, &sources.git, extra);
        // A panic on either thread is a bug; re-raise it rather than hide it.
        let global = global.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        let outside = outside.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (repos, warnings, global, outside)
    });
    // The configured identity and git's global one; each repository adds its own.
    let identity = sources.identity.union(&global);
    let discover_time = start.elapsed();
    let start = Instant::now();
    // Walking the folders told whether the cache is cold: then more workers read. What
    // this run read, not what the process did before it (the MCP server lives long).
    let read = crate::pool::storage_reads()
        .zip(read_before)
        .map(|(after, before)| after.saturating_sub(before));
    let workers = crate::pool::for_cache(workers, read);
    let options =
        ReadOptions { outside: Some(outside), ..read_options(sources, &identity, since, workers) };
    let commits = git::read_repos(env, &repos, &options);
    let git_time = start.elapsed();
    FoundRepos { repos, warnings, identity, commits, outside, discover_time, git_time }
}

/// The warning that every author is shown because no identity at all is known: none
/// configured, none global, and none in some repository that was read.
fn identity_unknown(base: &Identity, reads: &[RepoRead]) -> Option<Warning> {
    let unknown =
        base.is_empty() && (reads.is_empty() || reads.iter().any(|read| read.identity.is_empty()));
    unknown.then(|| Warning::new(WarningDetail::IdentityUnknown))
}

/// Work in progress: what the git stage read with the commits, then what
/// [`git::read_work_in_progress`] reads of the repositories asked once the logs are
/// joined (`worked_in`, by git dir: a session or command of the window ran there).
fn work_in_progress(
    env: &Env,
    gathered: &mut Gathered,
    reads: &mut git::ReadOutput,
    worked_in: &BTreeSet<PathBuf>,
    (since, outside): (Timestamp, git::OutsideConfig),
    pool: (usize, Duration),
) -> Vec<report_model::WipEvent> {
    let start = Instant::now();
    let mut events: Vec<report_model::WipEvent> = reads
        .scans
        .iter()
        .filter_map(|scan| match &scan.wip {
            WipState::Read(found) => found.clone(),
            WipState::NotAsked | WipState::Failed => None,
        })
        .collect();
    let wip = git::read_work_in_progress(env, &mut reads.scans, worked_in, (since, outside), pool);
    gathered.timings.push(("git: work in progress".to_owned(), start.elapsed()));
    gathered.warnings.extend(wip.warnings);
    events.extend(wip.events);
    events
}

/// Adds what reading more repositories found to `reads`.
fn merge_reads(reads: &mut git::ReadOutput, more: git::ReadOutput) {
    reads.scans.extend(more.scans);
    merge_commits(&mut reads.output, more.output);
}

/// What to read from the repositories, for `identity`.
fn read_options<'a>(
    sources: &Sources,
    identity: &'a Identity,
    since: Timestamp,
    workers: usize,
) -> ReadOptions<'a> {
    ReadOptions {
        identity,
        since,
        include_merges: sources.git.include_merges,
        workers,
        timeout: sources.git.timeout,
        outside: None,
    }
}

/// The `.git`s of working directories that cannot be read, each named once.
struct Unreadable<'c> {
    seen: BTreeSet<Warning>,
    warnings: Vec<Warning>,
    ceilings: &'c git::Ceilings,
}

impl<'c> Unreadable<'c> {
    /// Knows the warnings already given (discovery names most such `.git`s); searches
    /// stop below the `ceilings`.
    fn new(given: &[Warning], ceilings: &'c git::Ceilings) -> Unreadable<'c> {
        let seen = given.iter().cloned().collect();
        Unreadable { seen, warnings: Vec::new(), ceilings }
    }

    /// The repository containing `path`; a `.git` that cannot be read is a warning, and
    /// the folder is then a project of its own.
    fn find_repo(&mut self, path: &Path) -> Option<Repo> {
        git::find_repo(path, self.ceilings).unwrap_or_else(|error| {
            let warning = error.warning();
            if self.seen.insert(warning.clone()) {
                self.warnings.push(warning);
            }
            None
        })
    }
}

/// Adds the commits of more repositories to `commits`, its one status included.
fn merge_commits(commits: &mut SourceOutput<CommitEvent>, more: SourceOutput<CommitEvent>) {
    commits.events.extend(more.events);
    commits.warnings.extend(more.warnings);
    match (commits.statuses.first_mut(), more.statuses.into_iter().next()) {
        (Some(status), Some(more_status)) => {
            status.found |= more_status.found;
            status.files += more_status.files;
            status.entries = crate::git::distinct_commits(&commits.events);
            status.locations.extend(more_status.locations);
            status.locations.sort();
            status.limits.extend(more_status.limits);
            status.notes.extend(more_status.notes);
        }
        (None, Some(more_status)) => commits.statuses.push(more_status),
        _ => {}
    }
}

/// What the git side found while the logs were read.
struct FoundRepos {
    repos: Vec<Repo>,
    warnings: Vec<Warning>,
    identity: Identity,
    commits: git::ReadOutput,
    outside: git::OutsideConfig,
    discover_time: Duration,
    git_time: Duration,
}

type Logs = (
    SourceOutput<report_model::SessionEvent>,
    SourceOutput<report_model::ShellEvent>,
    Vec<(String, Duration)>,
);

/// Reads each enabled agent on its own, so each has its own timing, and the shells.
/// Claude Code (the biggest, parsed on the pool itself) is read on this thread while
/// the other agents (but Aider, read with the work trees) share one thread and the
/// shells another: the outputs are merged in
/// that fixed order, so the result does not depend on which finished first.
fn read_logs(env: &Env, sources: &Sources, since: Timestamp) -> Logs {
    type Timed<T> = (T, (String, Duration));
    let read_agent = |agent: Agent| -> Option<Timed<SourceOutput<report_model::SessionEvent>>> {
        if !sources.sessions.agents.contains(&agent) {
            return None;
        }
        let start = Instant::now();
        let config = SessionsConfig { agents: vec![agent], ..sources.sessions.clone() };
        let output = sessions::read_sessions(env, &config, since);
        Some((output, (format!("sessions: {}", agent.display_name()), start.elapsed())))
    };
    let (claude, others, shell) = std::thread::scope(|scope| {
        let others = scope.spawn(|| {
            Agent::ALL
                .into_iter()
                .filter(|agent| !matches!(agent, Agent::ClaudeCode | Agent::Aider))
                .map(read_agent)
                .collect::<Vec<_>>()
        });
        // The shells are read together: a command atuin also recorded is counted once.
        let shell = scope.spawn(|| {
            let start = Instant::now();
            let output = shell::read_shell(env, &sources.shell, since);
            let names: Vec<&str> =
                sources.shell.shells.iter().map(|kind| kind.display_name()).collect();
            (output, (format!("shell: {}", names.join(", ")), start.elapsed()))
        });
        let claude = read_agent(Agent::ClaudeCode);
        // A panic in a reader is a bug; re-raise it rather than hide it.
        let others = others.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        let shell = shell.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (claude, others, shell)
    });
    let mut timings = Vec::new();
    let mut sessions_out = SourceOutput::default();
    for (output, timing) in std::iter::once(claude).chain(others).flatten() {
        merge(&mut sessions_out, output);
        timings.push(timing);
    }
    let (shell_out, timing) = shell;
    timings.push(timing);
    (sessions_out, shell_out, timings)
}

fn merge<T>(into: &mut SourceOutput<T>, from: SourceOutput<T>) {
    into.events.extend(from.events);
    into.warnings.extend(from.warnings);
    into.statuses.extend(from.statuses);
}
