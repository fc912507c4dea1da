//! git repositories: finding them, skipping the ones that cannot hold new commits, and
//! reading the user's commits from the rest.
//!
//! Every git process goes through [`command`], which pins the locale, turns off pagers,
//! colors, signatures, external diffs and lazy fetching, so the output is parseable and
//! git never touches the network.

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::SystemTime;

use globset::{Glob, GlobSet, GlobSetBuilder};
use jiff::{SignedDuration, Timestamp};
use report_model::{CommitEvent, ProjectRef, Warning, WarningCode};

use crate::{Env, SourceOutput, SourceStatus};

/// The folders under `~` searched for repositories when no roots are configured.
pub const DEFAULT_ROOTS: [&str; 7] = ["src", "code", "projects", "dev", "work", "repos", "git"];

/// How far below each root the walk looks for repositories, by default.
pub const DEFAULT_MAX_DEPTH: usize = 3;

/// Folder names the walk never enters (besides hidden folders).
const SKIPPED_DIRS: [&str; 3] = ["node_modules", "target", ".venv"];

/// What the git source reads.
#[derive(Debug, Clone)]
pub struct GitConfig {
    /// Folders searched for repositories; `None` means the existing ones of
    /// [`DEFAULT_ROOTS`] under the home directory.
    pub roots: Option<Vec<PathBuf>>,
    /// How many folder levels below a root are searched.
    pub max_depth: usize,
    /// Globs of folders to skip. A glob with a `/` matches the absolute path, one
    /// without matches the folder name. A leading `~/` is the home directory.
    pub exclude: Vec<String>,
    /// Whether merge commits are reported.
    pub include_merges: bool,
}

impl Default for GitConfig {
    fn default() -> Self {
        GitConfig {
            roots: None,
            max_depth: DEFAULT_MAX_DEPTH,
            exclude: Vec::new(),
            include_merges: false,
        }
    }
}

/// Whose commits count. Empty means everyone's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Identity {
    /// E-mail addresses, compared without regard to ASCII case.
    pub emails: Vec<String>,
    /// Author names, compared exactly.
    pub names: Vec<String>,
}

impl Identity {
    /// Whether no e-mail and no name is known.
    pub fn is_empty(&self) -> bool {
        self.emails.is_empty() && self.names.is_empty()
    }

    /// Whether a commit by this author is the user's.
    pub fn matches(&self, email: &str, name: &str) -> bool {
        self.is_empty()
            || self.emails.iter().any(|known| known.eq_ignore_ascii_case(email))
            || self.names.iter().any(|known| known == name)
    }
}

/// One repository: worktrees are folded into it by their common git dir.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repo {
    /// The project the repository is (its main work tree).
    pub project: ProjectRef,
    /// The common git dir (`.git` of the main work tree, or a submodule's git dir).
    pub git_dir: PathBuf,
}

/// Builds a git command with a pinned, quiet, offline environment. Every git process
/// of standup starts here.
pub fn command(env: &Env) -> Command {
    #[expect(clippy::disallowed_methods, reason = "this is the one place that spawns git")]
    let mut command = Command::new("git");
    command
        .env("LC_ALL", "C")
        .env("LANG", "C")
        .env("HOME", &env.home)
        .env("GIT_PAGER", "cat")
        .env("PAGER", "cat")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_NO_LAZY_FETCH", "1")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_EXTERNAL_DIFF")
        .args(["--no-pager", "-c", "color.ui=never", "-c", "log.showSignature=false"])
        .args(["-c", "core.fsmonitor=false", "-c", "diff.external=", "-c", "core.quotePath=true"])
        .stdin(Stdio::null());
    if let Some(config_home) = env.var("XDG_CONFIG_HOME") {
        command.env("XDG_CONFIG_HOME", config_home);
    }
    command
}

/// The identity from git's global configuration (`user.email`, `user.name`).
pub fn global_identity(env: &Env) -> Identity {
    let read = |key: &str| -> Option<String> {
        let output = command(env).args(["config", "--global", "--get", key]).output().ok()?;
        let value = String::from_utf8_lossy(&output.stdout).trim().to_owned();
        (output.status.success() && !value.is_empty()).then_some(value)
    };
    Identity {
        emails: read("user.email").into_iter().collect(),
        names: read("user.name").into_iter().collect(),
    }
}

/// Finds the repository that contains `path` (worktrees folded), if any.
pub fn repo_containing(path: &Path) -> Option<Repo> {
    canonical(path).ancestors().find_map(repo_at)
}

/// The project a working directory belongs to: its repository, or else the folder itself.
pub fn project_for(path: &Path) -> ProjectRef {
    repo_containing(path).map_or_else(|| project_ref(path), |repo| repo.project)
}

fn project_ref(path: &Path) -> ProjectRef {
    let name = path
        .file_name()
        .map_or_else(|| path.display().to_string(), |name| name.to_string_lossy().into_owned());
    ProjectRef { name, path: path.to_path_buf() }
}

/// The repository whose work tree (or submodule) is exactly `dir`, if `dir` holds a `.git`.
/// `dir` must be canonical (the walk starts from canonical roots and never follows a
/// symbolic link; `repo_containing` canonicalizes first).
fn repo_at(dir: &Path) -> Option<Repo> {
    let dot_git = dir.join(".git");
    let metadata = fs_err::symlink_metadata(&dot_git).ok()?;
    if metadata.is_dir() {
        // `dir` is canonical, so `.git` below it is too; only a `commondir` can lead
        // elsewhere.
        let common = read_commondir(&dot_git).map_or(dot_git, |common| canonical(&common));
        return Some(Repo { project: main_worktree(&common, dir), git_dir: common });
    }
    // A `.git` file: a linked worktree (its git dir has a `commondir`) or a submodule.
    let text = fs_err::read_to_string(&dot_git).ok()?;
    let target = text.lines().find_map(|line| line.strip_prefix("gitdir:"))?.trim();
    let git_dir = canonical(&dir.join(target));
    match read_commondir(&git_dir) {
        Some(common) => {
            let common = canonical(&common);
            Some(Repo { project: main_worktree(&common, dir), git_dir: common })
        }
        None => Some(Repo { project: project_ref(dir), git_dir }),
    }
}

fn read_commondir(git_dir: &Path) -> Option<PathBuf> {
    let text = fs_err::read_to_string(git_dir.join("commondir")).ok()?;
    Some(git_dir.join(text.trim()))
}

/// The main work tree of a common git dir: the parent of a `.git` folder; for a bare
/// repository with worktrees, the folder of the worktree we came from.
fn main_worktree(common: &Path, fallback: &Path) -> ProjectRef {
    match (common.file_name(), common.parent()) {
        (Some(name), Some(parent)) if name == ".git" => project_ref(parent),
        _ => project_ref(fallback),
    }
}

fn canonical(path: &Path) -> PathBuf {
    fs_err::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Finds repositories: a depth-limited walk of the roots, plus the repositories that
/// contain `extra` paths (the current directory, the working directories of sessions).
/// Worktrees fold into their repository; submodules are repositories of their own.
pub fn discover(env: &Env, config: &GitConfig, extra: &[PathBuf]) -> (Vec<Repo>, Vec<Warning>) {
    let mut warnings = Vec::new();
    let exclude = build_excludes(env, &config.exclude, &mut warnings);
    let roots = roots(env, config);
    let mut found: BTreeMap<PathBuf, Repo> = BTreeMap::new();
    for root in &roots {
        walk(&canonical(root), config.max_depth, &exclude, &mut found);
    }
    for path in extra {
        if let Some(repo) = repo_containing(path) {
            found.entry(repo.git_dir.clone()).or_insert(repo);
        }
    }
    (found.into_values().collect(), warnings)
}

/// The roots the walk starts from.
pub fn roots(env: &Env, config: &GitConfig) -> Vec<PathBuf> {
    match &config.roots {
        Some(roots) => roots.iter().map(|root| env.expand_tilde(root)).collect(),
        None => DEFAULT_ROOTS
            .iter()
            .map(|name| env.home.join(name))
            .filter(|path| path.is_dir())
            .collect(),
    }
}

struct Excludes {
    by_path: GlobSet,
    by_name: GlobSet,
}

fn build_excludes(env: &Env, globs: &[String], warnings: &mut Vec<Warning>) -> Excludes {
    let mut by_path = GlobSetBuilder::new();
    let mut by_name = GlobSetBuilder::new();
    for pattern in globs {
        let expanded = env.expand_tilde(Path::new(pattern)).to_string_lossy().into_owned();
        match Glob::new(&expanded) {
            Ok(glob) if expanded.contains('/') => {
                by_path.add(glob);
            }
            Ok(glob) => {
                by_name.add(glob);
            }
            Err(error) => warnings.push(
                Warning::new(
                    WarningCode::SourceUnreadable,
                    format!("git: exclude glob `{pattern}` is not valid and was ignored: {error}"),
                )
                .with("kind", "exclude_glob")
                .with("pattern", pattern)
                .with("error", &error),
            ),
        }
    }
    let empty = || GlobSet::empty();
    Excludes {
        by_path: by_path.build().unwrap_or_else(|_| empty()),
        by_name: by_name.build().unwrap_or_else(|_| empty()),
    }
}

fn walk(dir: &Path, depth_left: usize, exclude: &Excludes, found: &mut BTreeMap<PathBuf, Repo>) {
    if let Some(repo) = repo_at(dir) {
        found.entry(repo.git_dir.clone()).or_insert(repo);
    }
    if depth_left == 0 {
        return;
    }
    let Ok(entries) = fs_err::read_dir(dir) else { return };
    let mut children: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        // `file_type` does not follow symbolic links, so a link loop cannot trap the walk.
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .map(|entry| entry.path())
        .filter(|path| {
            let name = path.file_name().map(|name| name.to_string_lossy()).unwrap_or_default();
            !name.starts_with('.')
                && !SKIPPED_DIRS.contains(&name.as_ref())
                && !exclude.by_name.is_match(name.as_ref())
                && !exclude.by_path.is_match(path)
        })
        .collect();
    children.sort();
    for child in children {
        walk(&child, depth_left - 1, exclude, found);
    }
}

/// Whether any ref, `packed-refs` or HEAD reflog of the repository changed at or after
/// `since`. A commit made (or rebased, or fetched) in a window moves one of them, so a
/// repository where none moved cannot hold a commit for that window and is skipped
/// without spawning git.
pub fn changed_since(repo: &Repo, since: Timestamp) -> bool {
    let since = SystemTime::from(since - SignedDuration::from_secs(2));
    let newer = |path: &Path| {
        fs_err::metadata(path).and_then(|meta| meta.modified()).is_ok_and(|time| time >= since)
    };
    let git_dir = &repo.git_dir;
    // Not `FETCH_HEAD`: git rewrites it on every fetch, even one that brings nothing; a
    // fetch that moves a remote-tracking ref changes `refs/remotes/…` or `packed-refs`.
    let files = ["HEAD", "packed-refs", "logs/HEAD"];
    if files.iter().any(|file| newer(&git_dir.join(file))) {
        return true;
    }
    if tree_newer(&git_dir.join("refs"), &newer) || tree_newer(&git_dir.join("reftable"), &newer) {
        return true;
    }
    // Linked worktrees keep their own HEAD and reflog under `worktrees/<name>`.
    let Ok(worktrees) = fs_err::read_dir(git_dir.join("worktrees")) else { return false };
    worktrees.filter_map(Result::ok).any(|entry| {
        let path = entry.path();
        newer(&path.join("HEAD")) || newer(&path.join("logs/HEAD"))
    })
}

/// Whether a folder of loose refs, or one below it, changed at or after the bound. git
/// (and libgit2 and JGit) update a loose ref by writing `<name>.lock` and renaming it
/// into place, which changes the folder's mtime; so folders are enough, and the ref
/// files themselves need no `stat`.
fn tree_newer(dir: &Path, newer: &dyn Fn(&Path) -> bool) -> bool {
    if newer(dir) {
        return true;
    }
    // A folder that exists but cannot be listed might hide a change: read the repository.
    let Ok(entries) = fs_err::read_dir(dir) else { return dir.exists() };
    entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .any(|entry| tree_newer(&entry.path(), newer))
}

/// What to read from the repositories.
#[derive(Debug, Clone)]
pub struct ReadOptions<'a> {
    /// Whose commits count.
    pub identity: &'a Identity,
    /// The start of the earliest window: older commits are not read.
    pub since: Timestamp,
    /// Whether merge commits are reported.
    pub include_merges: bool,
    /// How many git processes may run at once.
    pub workers: usize,
}

/// Reads the user's commits authored at or after `options.since` from every repository
/// whose refs changed since then, in parallel. A repository git cannot read becomes a
/// warning naming it.
pub fn read_commits(
    env: &Env,
    repos: &[Repo],
    options: &ReadOptions<'_>,
) -> SourceOutput<CommitEvent> {
    let active: Vec<&Repo> =
        repos.iter().filter(|repo| changed_since(repo, options.since)).collect();
    let results: Mutex<Vec<(usize, LogResult)>> = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let workers = options.workers.clamp(1, active.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(repo) = active.get(index) else { break };
                    let result = log(env, repo, options);
                    results
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push((index, result));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    results.sort_by_key(|(index, _)| *index);

    let mut output = SourceOutput::default();
    for (index, result) in results {
        match result {
            Ok(commits) => output.events.extend(commits),
            Err(message) => output.warnings.push(
                Warning::new(
                    WarningCode::GitFailed,
                    format!(
                        "git: cannot read `{}`: {message}",
                        active[index].project.path.display()
                    ),
                )
                .with("path", active[index].project.path.display())
                .with("error", &message),
            ),
        }
    }
    let mut status = SourceStatus {
        source: "git".to_owned(),
        found: !repos.is_empty(),
        locations: roots_of(repos),
        files: repos.len() as u64,
        entries: output.events.len() as u64,
        limits: Vec::new(),
    };
    let skipped = repos.len() - active.len();
    if skipped > 0 {
        status
            .limits
            .push(format!("{skipped} repositories unchanged since the window began were not read"));
    }
    output.statuses.push(status);
    output
}

fn roots_of(repos: &[Repo]) -> Vec<PathBuf> {
    repos
        .iter()
        .map(|repo| repo.project.path.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

type LogResult = Result<Vec<CommitEvent>, String>;

/// Runs one `git log` over every ref but the stash and parses it.
fn log(env: &Env, repo: &Repo, options: &ReadOptions<'_>) -> LogResult {
    // `--since` filters by committer date and is inclusive; a commit authored in the
    // window has a committer date at or after its author date, so the bound is widened
    // by a day for clock skew and the author date is checked below.
    let since = options.since - SignedDuration::from_hours(24);
    let mut command = command(env);
    command
        .arg("--git-dir")
        .arg(&repo.git_dir)
        .args(["log", "--exclude=refs/stash", "--all", "--numstat", "--find-renames"])
        .args([
            "--no-color",
            "--no-ext-diff",
            "--no-textconv",
            "--no-show-signature",
            "--diff-merges=off",
        ])
        .arg(format!("--since={}", since.strftime("%Y-%m-%dT%H:%M:%SZ")))
        .arg("--format=%x1e%H%x00%P%x00%aI%x00%ae%x00%an%x00%s");
    if !options.include_merges {
        command.arg("--no-merges");
    }
    let output = command.output().map_err(|error| describe_spawn_error(&error))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let first =
            stderr.lines().find(|line| !line.trim().is_empty()).unwrap_or("git log failed").trim();
        return Err(first.to_owned());
    }
    Ok(parse_log(&output.stdout, &repo.project, options))
}

fn describe_spawn_error(error: &io::Error) -> String {
    if error.kind() == io::ErrorKind::NotFound {
        "the git program was not found on PATH".to_owned()
    } else {
        format!("cannot run git: {error}")
    }
}

/// Parses the output of [`log`]'s format.
fn parse_log(stdout: &[u8], project: &ProjectRef, options: &ReadOptions<'_>) -> Vec<CommitEvent> {
    let mut commits = Vec::new();
    for record in stdout.split(|&byte| byte == 0x1e).filter(|record| !record.is_empty()) {
        let mut lines = record.split(|&byte| byte == b'\n');
        let header = lines.next().unwrap_or_default();
        let fields: Vec<&[u8]> = header.splitn(6, |&byte| byte == 0).collect();
        let [hash, parents, date, email, name, subject] = fields.as_slice() else { continue };
        let Ok(author_time) = String::from_utf8_lossy(date).parse::<Timestamp>() else { continue };
        if author_time < options.since {
            continue;
        }
        if !options
            .identity
            .matches(&String::from_utf8_lossy(email), &String::from_utf8_lossy(name))
        {
            continue;
        }
        let (mut files_changed, mut insertions, mut deletions) = (0, 0, 0);
        for line in lines.filter(|line| !line.is_empty()) {
            let mut parts = line.splitn(3, |&byte| byte == b'\t');
            let (Some(added), Some(deleted)) = (parts.next(), parts.next()) else { continue };
            files_changed += 1;
            // A binary file shows `-` for both counts: a changed file, but no lines.
            insertions += parse_count(added);
            deletions += parse_count(deleted);
        }
        commits.push(CommitEvent {
            project: project.clone(),
            hash: String::from_utf8_lossy(hash).into_owned(),
            subject: String::from_utf8_lossy(subject).into_owned(),
            truncated: false,
            author_time,
            files_changed,
            insertions,
            deletions,
            merge: parents.split(|&byte| byte == b' ').filter(|parent| !parent.is_empty()).count()
                > 1,
        });
    }
    commits
}

fn parse_count(field: &[u8]) -> u64 {
    std::str::from_utf8(field).ok().and_then(|text| text.parse().ok()).unwrap_or(0)
}
