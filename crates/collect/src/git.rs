//! git repositories: finding them, skipping the ones that cannot hold new commits, and
//! reading the user's commits from the rest.
//!
//! Every git process is built by [`command`], which pins the locale, turns off pagers,
//! colors, signatures, external diffs and lazy fetching, so the output is parseable and
//! git never touches the network, and is run by [`output`], which kills it at its
//! deadline (`[git] timeout_secs`).
//!
//! Discovery and the skip check only `stat` and list folders; the one file they read,
//! a `.git` file (and a git dir's `commondir`), goes through the regular-file-only,
//! size-capped reader of `collect`, so a FIFO or `/dev/zero` there is refused and named
//! in a warning.

mod process;

pub use process::{DEFAULT_TIMEOUT, output};

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use globset::{Glob, GlobSet, GlobSetBuilder};
use jiff::{SignedDuration, Timestamp};
use report_model::{Commit, CommitEvent, ProjectRef, Warning, WarningDetail};

use crate::error::GitFailure;
use crate::{Env, Error, SourceOutput, SourceStatus, fsread};

mod ahead;
mod branches;
mod identity;
mod inproc;
mod listed;
mod skip;
mod wip;

pub(crate) use listed::Listed;
use listed::{HEADER_MARK, LOG_FORMAT, records};

pub use identity::{LeftOut, OutsideConfig, outside_config};
pub use skip::changed_since;

/// The folders under `~` searched for repositories when no roots are configured.
pub const DEFAULT_ROOTS: [&str; 11] = [
    "src",
    "code",
    "projects",
    "dev",
    "work",
    "repos",
    "git",
    "workspace",
    "Developer",
    "github",
    "source/repos",
];

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
    /// How long one git process may run before it is killed ([`DEFAULT_TIMEOUT`]).
    pub timeout: Duration,
}

impl Default for GitConfig {
    fn default() -> Self {
        GitConfig {
            roots: None,
            max_depth: DEFAULT_MAX_DEPTH,
            exclude: Vec::new(),
            include_merges: false,
            timeout: DEFAULT_TIMEOUT,
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

/// The identity from git's global configuration (`user.email`, `user.name`), each git
/// process killed after `timeout`.
pub fn global_identity(env: &Env, timeout: Duration) -> Identity {
    // One process for both keys; as with `--get`, the last value of a key wins.
    let mut git = command(env);
    git.args(["config", "--global", "--null", "--get-regexp", r"^user\.(email|name)$"]);
    let Ok(done) = output(git, timeout) else { return Identity::default() };
    if !done.status.success() {
        return Identity::default();
    }
    let (mut email, mut name) = (None, None);
    for entry in done.stdout.split(|&byte| byte == 0) {
        let mut parts = entry.splitn(2, |&byte| byte == b'\n');
        let key = String::from_utf8_lossy(parts.next().unwrap_or_default()).to_ascii_lowercase();
        let value = String::from_utf8_lossy(parts.next().unwrap_or_default()).trim().to_owned();
        let slot = match key.as_str() {
            "user.email" => &mut email,
            "user.name" => &mut name,
            _ => continue,
        };
        *slot = (!value.is_empty()).then_some(value);
    }
    Identity { emails: email.into_iter().collect(), names: name.into_iter().collect() }
}

/// The folders a search for the repository of a directory does not go up into: git's
/// `GIT_CEILING_DIRECTORIES` (absolute paths separated by `:`), read as git reads it, so
/// that a directory belongs to the repository git would find for it. The folder a
/// search starts from is always looked at: a ceiling equal to it does not count. An
/// empty entry stops the entries after it from being resolved (git's way to spare the
/// `realpath` of slow mounts); a relative entry is ignored, as git ignores it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ceilings(Vec<PathBuf>);

impl Ceilings {
    /// The ceilings of `GIT_CEILING_DIRECTORIES`; none when it is unset.
    pub fn from_env(env: &Env) -> Ceilings {
        let Some(list) = env.var("GIT_CEILING_DIRECTORIES") else { return Ceilings::default() };
        let mut resolve = true;
        let mut dirs = Vec::new();
        for entry in list.split(':') {
            if entry.is_empty() {
                resolve = false;
                continue;
            }
            let path = Path::new(entry);
            if path.is_absolute() {
                dirs.push(if resolve { canonical(path) } else { path.to_path_buf() });
            }
        }
        Ceilings(dirs)
    }

    /// The folders a search from `start` (canonical) looks at, nearest first: `start`
    /// and its ancestors below the nearest ceiling above it.
    fn search<'p>(&self, start: &'p Path) -> impl Iterator<Item = &'p Path> + use<'p> {
        let floor = self
            .0
            .iter()
            .filter(|ceiling| start != ceiling.as_path() && start.starts_with(ceiling))
            .map(|ceiling| ceiling.components().count())
            .max();
        start
            .ancestors()
            .take_while(move |dir| floor.is_none_or(|depth| dir.components().count() > depth))
    }
}

/// Finds the repository that contains `path` (worktrees folded), if any. A `.git` that
/// cannot be read ends the search with `None`; [`find_repo`] says why.
pub fn repo_containing(path: &Path, ceilings: &Ceilings) -> Option<Repo> {
    find_repo(path, ceilings).ok().flatten()
}

/// Finds the repository that contains `path` (worktrees folded): the nearest folder
/// holding a `.git`, below the nearest of the `ceilings` above `path`. An error names a
/// `.git` (or `commondir`) that is there but cannot be read: a FIFO, a device, an
/// oversized or unreadable file.
pub fn find_repo(path: &Path, ceilings: &Ceilings) -> Result<Option<Repo>, Error> {
    let start = canonical(path);
    for dir in ceilings.search(&start) {
        if let Some(repo) = repo_at(dir)? {
            return Ok(Some(repo));
        }
    }
    Ok(None)
}

/// The project a working directory belongs to: its repository, or else the folder itself.
pub fn project_for(path: &Path, ceilings: &Ceilings) -> ProjectRef {
    repo_containing(path, ceilings).map_or_else(|| project_ref(path), |repo| repo.project)
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
fn repo_at(dir: &Path) -> Result<Option<Repo>, Error> {
    repo_listed_at(dir, false)
}

/// [`repo_at`], told by the listing of `dir` whether its `.git` is a real folder (the
/// entry's type; not a link), which then needs no `stat`.
fn repo_listed_at(dir: &Path, listed_folder: bool) -> Result<Option<Repo>, Error> {
    let dot_git = dir.join(".git");
    // `stat` only (links followed): a `.git` that is a FIFO or a device is never opened.
    // A folder that cannot be searched (a working directory of someone else's, such as
    // `/root` in a history) tells nothing about a repository, and is not one to read.
    let is_dir = listed_folder
        || match fs_err::metadata(&dot_git) {
            Ok(metadata) => metadata.is_dir(),
            Err(error)
                if matches!(
                    error.kind(),
                    io::ErrorKind::NotFound
                        | io::ErrorKind::PermissionDenied
                        | io::ErrorKind::NotADirectory
                ) =>
            {
                return Ok(None);
            }
            Err(error) => return Err(Error::io(&dot_git, error)),
        };
    if is_dir {
        // `dir` is canonical, so `.git` below it is too; only a `commondir` can lead
        // elsewhere.
        let common = read_commondir(&dot_git)?.map_or(dot_git, |common| canonical(&common));
        return Ok(Some(Repo { project: main_worktree(&common, dir), git_dir: common }));
    }
    // A `.git` file: a linked worktree (its git dir has a `commondir`) or a submodule.
    let text = fsread::read_small_text(&dot_git, fsread::PATH_FILE_MAX)?;
    let Some(target) = text.lines().find_map(|line| line.strip_prefix("gitdir:")) else {
        return Err(Error::NotGitFile { path: dot_git });
    };
    let git_dir = canonical(&dir.join(target.trim()));
    match read_commondir(&git_dir)? {
        Some(common) => {
            let common = canonical(&common);
            Ok(Some(Repo { project: main_worktree(&common, dir), git_dir: common }))
        }
        None => Ok(Some(Repo { project: project_ref(dir), git_dir })),
    }
}

/// The common git dir a git dir's `commondir` names; `None` when it has none. A git dir
/// that cannot be looked into (no permission) has none as far as discovery knows: git
/// itself reports it when the repository is read.
fn read_commondir(git_dir: &Path) -> Result<Option<PathBuf>, Error> {
    let path = git_dir.join("commondir");
    // Most git dirs have none: a `stat` tells so without making an error to drop.
    if let Err(rustix::io::Errno::NOENT | rustix::io::Errno::ACCESS | rustix::io::Errno::NOTDIR) =
        rustix::fs::stat(&path)
    {
        return Ok(None);
    }
    match fsread::read_small_text(&path, fsread::PATH_FILE_MAX) {
        Ok(text) => Ok(Some(git_dir.join(text.trim()))),
        Err(Error::Io { source, .. })
            if matches!(
                source.kind(),
                io::ErrorKind::NotFound
                    | io::ErrorKind::PermissionDenied
                    | io::ErrorKind::NotADirectory
            ) =>
        {
            Ok(None)
        }
        Err(error) => Err(error),
    }
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
/// Symbolic links to folders are followed (each folder is entered once, so a link loop
/// ends); a `.git` that cannot be read is named in a warning.
pub fn discover(env: &Env, config: &GitConfig, extra: &[PathBuf]) -> (Vec<Repo>, Vec<Warning>) {
    let mut warnings = Vec::new();
    let exclude = build_excludes(env, &config.exclude, &mut warnings);
    let roots = roots(env, config);
    let mut walk = Walk {
        exclude: &exclude,
        found: BTreeMap::new(),
        entered: HashSet::default(),
        errors: Vec::new(),
    };
    for root in &roots {
        let root = canonical(root);
        let children = walk.visit(&root, config.max_depth);
        // The root's folders are walked in parallel (on a cold cache each listing waits
        // for the disk), each by a walk of its own that knows the folders entered so far;
        // their finds are merged in the folders' order. A folder that two of them reach
        // (through a link) is walked by both, and found once.
        let walks = crate::pool::map_ordered(&children, crate::pool::threads(), |child| {
            let mut sub = Walk {
                exclude: &exclude,
                found: BTreeMap::new(),
                entered: walk.entered.clone(),
                errors: Vec::new(),
            };
            sub.enter(child, config.max_depth - 1);
            sub
        });
        for sub in walks {
            for (git_dir, repo) in sub.found {
                walk.found.entry(git_dir).or_insert(repo);
            }
            walk.entered.extend(sub.entered);
            walk.errors.extend(sub.errors);
        }
    }
    let ceilings = Ceilings::from_env(env);
    for path in extra {
        match find_repo(path, &ceilings) {
            Ok(Some(repo)) => {
                walk.found.entry(repo.git_dir.clone()).or_insert(repo);
            }
            Ok(None) => {}
            Err(error) => walk.errors.push(error),
        }
    }
    let mut seen = BTreeSet::new();
    for error in walk.errors {
        let warning = error.warning();
        if seen.insert(warning.clone()) {
            warnings.push(warning);
        }
    }
    (walk.found.into_values().collect(), warnings)
}

/// The roots the walk would start from, each with whether it is a folder that exists:
/// the configured ones, or every one of [`DEFAULT_ROOTS`] under the home directory.
pub fn candidate_roots(env: &Env, config: &GitConfig) -> Vec<(PathBuf, bool)> {
    let all: Vec<PathBuf> = match &config.roots {
        Some(roots) => roots.iter().map(|root| env.expand_tilde(root)).collect(),
        None => DEFAULT_ROOTS.iter().map(|name| env.home.join(name)).collect(),
    };
    all.into_iter()
        .map(|path| {
            let exists = path.is_dir();
            (path, exists)
        })
        .collect()
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
            Err(error) => warnings.push(Warning::new(WarningDetail::ExcludeGlob {
                pattern: pattern.clone(),
                error: error.to_string(),
            })),
        }
    }
    let empty = || GlobSet::empty();
    Excludes {
        by_path: by_path.build().unwrap_or_else(|_| empty()),
        by_name: by_name.build().unwrap_or_else(|_| empty()),
    }
}

/// The state of a walk of the roots.
struct Walk<'a> {
    exclude: &'a Excludes,
    /// Repositories by common git dir.
    found: BTreeMap<PathBuf, Repo>,
    /// Canonical folders already entered, so a folder reached twice (through a symbolic
    /// link, or a link loop) is walked once. Only asked, never iterated: hashed, not
    /// ordered (comparing paths goes component by component).
    entered: HashSet<PathBuf, foldhash::fast::FixedState>,
    errors: Vec<Error>,
}

impl Walk<'_> {
    /// Walks the canonical folder `dir`, `depth_left` levels down.
    fn enter(&mut self, dir: &Path, depth_left: usize) {
        for child in self.visit(dir, depth_left) {
            self.enter(&child, depth_left - 1);
        }
    }

    /// Enters the canonical folder `dir`: notes its repository and returns the folders
    /// to walk next, sorted (none when it was entered before or `depth_left` is 0).
    fn visit(&mut self, dir: &Path, depth_left: usize) -> Vec<PathBuf> {
        if !self.entered.insert(dir.to_path_buf()) {
            return Vec::new();
        }
        // A folder walked further is listed first: the listing tells whether it holds a
        // `.git` at all, and whether that is a real folder, so most folders need no
        // `stat` of their `.git`. One not walked further, or that cannot be listed (a
        // folder may be searchable and not readable), is asked by `stat`.
        let listing = if depth_left == 0 { None } else { crate::listing::list(dir).ok() };
        let Some(listing) = listing else {
            self.note_repo(repo_at(dir));
            return Vec::new();
        };
        // `None`: no `.git` listed; `Some(true)`: a real folder; `Some(false)`: anything
        // else (a file, a link).
        let mut dot_git: Option<bool> = None;
        // A listing that stopped part way might have hidden the `.git`.
        let unsure = listing.stopped.is_some();
        let mut children = Vec::new();
        for entry in &listing.entries {
            let kind = entry.kind;
            if entry.name == ".git" {
                dot_git = Some(kind.is_dir());
                continue;
            }
            // Files are most of a work tree's entries: no path is made for them.
            if !(kind.is_dir() || kind.is_symlink()) {
                continue;
            }
            let path = entry.path_in(dir);
            if self.skipped(&path) {
                continue;
            }
            if kind.is_dir() {
                // Below a canonical folder, a real folder's path is canonical too.
                children.push(path);
                continue;
            }
            // A link: followed when it leads to a folder, walked at its target.
            let Ok(target) = fs_err::canonicalize(&path) else { continue };
            if target.is_dir() && !self.exclude.by_path.is_match(&target) {
                children.push(target);
            }
        }
        match dot_git {
            Some(listed_folder) => self.note_repo(repo_listed_at(dir, listed_folder)),
            None if unsure => self.note_repo(repo_at(dir)),
            None => {}
        }
        children.sort();
        children
    }

    /// Keeps the repository `repo_at` found, or its error.
    fn note_repo(&mut self, found: Result<Option<Repo>, Error>) {
        match found {
            Ok(Some(repo)) => {
                self.found.entry(repo.git_dir.clone()).or_insert(repo);
            }
            Ok(None) => {}
            Err(error) => self.errors.push(error),
        }
    }

    /// Whether the walk stays out of a folder: hidden, a build or package folder, or
    /// excluded by a glob.
    fn skipped(&self, path: &Path) -> bool {
        let name = path.file_name().map(|name| name.to_string_lossy()).unwrap_or_default();
        name.starts_with('.')
            || SKIPPED_DIRS.contains(&name.as_ref())
            || self.exclude.by_name.is_match(name.as_ref())
            || self.exclude.by_path.is_match(path)
    }
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
    /// How long one git process may run before it is killed.
    pub timeout: Duration,
    /// git's configuration outside the repositories, when the caller asked for it
    /// already ([`outside_config`], on a thread of its own while the repositories are
    /// found); `None` to have it asked here, only if some repository is read.
    pub outside: Option<OutsideConfig>,
}

/// What reading one repository found besides its commits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoRead {
    /// The repository.
    pub project: ProjectRef,
    /// Whose commits counted in it: [`ReadOptions::identity`] plus the repository's own.
    pub identity: Identity,
    /// Commits since the window began by other authors, by e-mail.
    pub left_out: LeftOut,
    /// The user's commits found.
    pub commits: u64,
    /// Commits of the window found only below a commit dated before it (a tip
    /// committed with a clock that went back), which `git log --since` would miss.
    pub below_skew: u64,
    /// The repository's remote URL, normalized ([`normalize_remote`]), when it has one and
    /// its configuration was read (it holds a commit of the user's in the window).
    pub remote: Option<String>,
}

/// A remote URL in the one form that names the same repository everywhere:
/// `host/owner/name` for `git@host:owner/name.git`, `ssh://git@host:22/owner/name`,
/// `https://user:token@host/owner/name.git/` alike (scheme, user and password, port,
/// `.git` and trailing slashes dropped, the host in lower case); a local path keeps its
/// path without `.git`. The user part is dropped before anything else, so a token in
/// an https URL never reaches the report.
pub fn normalize_remote(url: &str) -> Option<String> {
    let url = url.trim();
    if url.is_empty() {
        return None;
    }
    let (host, path) = if let Some((_, rest)) = url.split_once("://") {
        let rest = rest.rsplit_once('@').map_or(rest, |(_, rest)| rest);
        match rest.split_once('/') {
            Some((host, path)) => (host, path),
            None => (rest, ""),
        }
    } else if url.starts_with('/') || url.starts_with('.') {
        ("", url)
    } else if let Some((host, path)) = url.split_once(':') {
        // scp-like `user@host:path`.
        (host.rsplit_once('@').map_or(host, |(_, host)| host), path)
    } else {
        ("", url)
    };
    let host = match host.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        _ => host,
    };
    let path = path.trim_end_matches('/');
    let path = path.strip_suffix(".git").unwrap_or(path).trim_end_matches('/');
    if host.is_empty() {
        return (!path.is_empty()).then(|| path.to_owned());
    }
    let path = path.trim_start_matches('/').trim_start_matches('~');
    Some(format!("{}/{}", host.to_ascii_lowercase(), path.trim_start_matches('/')))
}

/// What the skip check told of a repository, by `stat` alone (`skip::check`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Moved {
    /// A ref, `packed-refs` or the HEAD reflog changed since the window began: it can
    /// hold a commit of the window, so it is read.
    pub refs: bool,
    /// It was worked on since then: its index, its stash, or a linked worktree's index or
    /// HEAD changed (`wip::worked_on`).
    pub work: bool,
}

/// What reading a repository's commits came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Its refs did not move: not read.
    Unchanged,
    /// Read.
    Read(RepoRead),
    /// git could not read it (a warning names it).
    Failed,
}

/// Where a repository's work in progress stands after the git stage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WipState {
    /// Not asked (yet): `wip::ask_after_join` decides.
    NotAsked,
    /// Read, with the commits: what it found (`None`: nothing).
    Read(Option<report_model::WipEvent>),
    /// Asked, and git could not tell (a warning names it).
    Failed,
}

/// Everything the git stage learned of one repository: the one result per repository
/// that [`crate::gather`] consumes.
#[derive(Debug, Clone)]
pub struct RepoScan {
    /// The repository.
    pub repo: Repo,
    /// What the skip check told.
    pub moved: Moved,
    /// Its commits' reading.
    pub outcome: Outcome,
    /// Its work in progress.
    pub wip: WipState,
}

impl RepoScan {
    /// What reading it told, when it was read.
    pub fn read(&self) -> Option<&RepoRead> {
        match &self.outcome {
            Outcome::Read(read) => Some(read),
            Outcome::Unchanged | Outcome::Failed => None,
        }
    }
}

/// The commits of the repositories read, and what the git stage learned of each.
#[derive(Debug, Default)]
pub struct ReadOutput {
    /// Commits, warnings and the git status.
    pub output: SourceOutput<CommitEvent>,
    /// One scan per repository given, in input order.
    pub scans: Vec<RepoScan>,
}

/// Reads the user's commits authored at or after `options.since` from every repository
/// whose refs changed since then, in parallel. A repository git cannot read becomes a
/// warning naming it.
pub fn read_commits(
    env: &Env,
    repos: &[Repo],
    options: &ReadOptions<'_>,
) -> SourceOutput<CommitEvent> {
    read_repos(env, repos, options).output
}

/// [`read_commits`], with what the git stage learned of each repository: the skip
/// check, its identities and the commits left out as other people's, and (where
/// `wip::ask_with_listing` says so) its work in progress.
pub fn read_repos(env: &Env, repos: &[Repo], options: &ReadOptions<'_>) -> ReadOutput {
    // How the moved repositories are read, told once the first of them needs it: with no
    // include outside the repositories, most of them need no `git config`; with nothing
    // there (or in the environment) that changes a listing, they are read in process.
    let how = std::sync::OnceLock::new();
    let how = || {
        *how.get_or_init(|| {
            let outside = options.outside.unwrap_or_else(|| outside_config(env, options.timeout));
            let in_process = !outside.changes_listing && inproc::environment_allows(env);
            // git's attributes file outside the repositories (its default place) can mark
            // files binary or give them a diff driver.
            let global_attributes = env.config_home().join("git/attributes").exists();
            How {
                includes: outside.includes,
                in_process,
                numstat_in_process: in_process && !outside.changes_numstat && !global_attributes,
                status: wip::status_mode(env, outside),
            }
        })
    };
    // Each repository's skip check, then its read when its refs moved, in one pass on the
    // pool: the check only stats, but on a cold cache each stat waits for the disk, and a
    // read need not wait for the last repository's check. Whether a working tree was
    // worked on is told by `stat` too, so it is asked here rather than one repository
    // after another once the logs are joined.
    let scanned = crate::pool::map_ordered(repos, options.workers, |repo| {
        let moved = skip::check(repo, options.since);
        let result = moved.refs.then(|| read_repo(env, repo, options, how(), moved));
        (moved, result)
    });
    let mut output = SourceOutput::default();
    let mut skipped = 0;
    let scans = repos
        .iter()
        .zip(scanned)
        .map(|(repo, (moved, result))| {
            let path = || repo.project.path.clone();
            let (outcome, wip) = match result {
                None => {
                    skipped += 1;
                    (Outcome::Unchanged, WipState::NotAsked)
                }
                Some(Ok((commits, repo_read, wip))) => {
                    output.events.extend(commits);
                    let wip = match wip {
                        None => WipState::NotAsked,
                        Some(Ok(found)) => WipState::Read(found),
                        Some(Err(what)) => {
                            output.warnings.push(Error::GitWip { repo: path(), what }.warning());
                            WipState::Failed
                        }
                    };
                    (Outcome::Read(repo_read), wip)
                }
                Some(Err(what)) => {
                    output.warnings.push(Error::Git { repo: path(), what }.warning());
                    (Outcome::Failed, WipState::NotAsked)
                }
            };
            RepoScan { repo: repo.clone(), moved, outcome, wip }
        })
        .collect();
    let mut read = ReadOutput { output, scans };
    let mut status = SourceStatus {
        source: report_model::Source::Git,
        found: !repos.is_empty(),
        locations: roots_of(repos),
        files: repos.len() as u64,
        entries: distinct_commits(&read.output.events),
        limits: Vec::new(),
        ..SourceStatus::new(report_model::Source::Git)
    };
    if skipped > 0 {
        status
            .limits
            .push(format!("{skipped} repositories unchanged since the window began were not read"));
    }
    read.output.statuses.push(status);
    read
}

/// How many commits `events` hold, a commit found in several clones of one repository
/// counted once (as the report counts it).
pub(crate) fn distinct_commits(events: &[CommitEvent]) -> u64 {
    events.iter().map(|event| event.commit.hash.as_str()).collect::<BTreeSet<_>>().len() as u64
}

fn roots_of(repos: &[Repo]) -> Vec<PathBuf> {
    repos
        .iter()
        .map(|repo| repo.project.path.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// A repository's commits, what it told, and (when it has commits of the user) its work
/// in progress.
type LogResult = Result<(Vec<CommitEvent>, RepoRead, Option<WipResult>), GitFailure>;
type WipResult = Result<Option<report_model::WipEvent>, GitFailure>;

/// The folder git runs in for a repository: its work tree, so that the work tree's
/// `.mailmap` applies (and never the one of the folder standup runs from), or the git
/// dir when the work tree is gone.
fn work_dir(repo: &Repo) -> &Path {
    if repo.project.path.is_dir() { &repo.project.path } else { &repo.git_dir }
}

/// How a run reads its repositories, from what is configured outside them.
#[derive(Debug, Clone, Copy)]
struct How {
    /// git's configuration outside the repositories has includes: every repository's
    /// identities are asked of git.
    includes: bool,
    /// Nothing outside the repositories changes a listing: it is read in process where
    /// the repository allows ([`inproc`]).
    in_process: bool,
    /// Nor what `--numstat` counts: line counts are taken in process where git's are
    /// bound to be the same ([`inproc::Reader::numstats`]).
    numstat_in_process: bool,
    /// How far `git status` may be answered in process ([`wip::status_mode`]).
    status: inproc::Status,
}

/// Reads one repository: its commits and the branches containing them (read in
/// process, or one `git log`), and, when it holds a commit of the window, its identities
/// and remotes (one `git config` when its own configuration cannot tell).
fn read_repo(
    env: &Env,
    repo: &Repo,
    options: &ReadOptions<'_>,
    how: How,
    moved: Moved,
) -> LogResult {
    let includes = how.includes;
    let reader = how.in_process.then(|| inproc::Reader::open(repo)).flatten();
    let in_process = reader.as_ref().and_then(|reader| reader.log(listing_bound(options.since)));
    let (listing, below_skew) = match in_process {
        Some(listed) => listed,
        None => log(env, repo, options)?,
    };
    // Without a commit authored in the window there is nothing to match and nothing to
    // push, so the repository's own configuration is not asked (a fetch or a checkout
    // moves refs without making one).
    // Its own `.git/config` tells when it holds no identity and nothing outside includes
    // one (git reads the global identity, which the caller has, and nothing else).
    let config = if listed::authored_since(&listing, options.since) {
        (!includes)
            .then(|| identity::local_config(repo))
            .flatten()
            .unwrap_or_else(|| identity::repo_config(env, repo, options.timeout))
    } else {
        identity::RepoConfig::default()
    };
    let identity = options.identity.union(&config.identity);
    let mut left_out = LeftOut::default();
    let (mut commits, containment) =
        parse_log(&listing, &repo.project, options, &identity, &mut left_out);
    // Line counts in a second pass, for the user's commits only: git computes no diff
    // for a colleague's or a bot's commit (a 1,000-file one costs as much as the rest).
    let hashes: Vec<&str> = commits
        .iter()
        .filter(|event| !event.commit.merge)
        .map(|event| event.commit.hash.as_str())
        .collect();
    let counted = match &reader {
        Some(reader) if how.numstat_in_process && !hashes.is_empty() => reader.numstats(&hashes),
        _ => None,
    };
    let stats = match counted {
        Some(stats) => stats,
        None => numstats(env, repo, &hashes, options.timeout)?,
    };
    for event in &mut commits {
        if let Some(&(files_changed, insertions, deletions)) = stats.get(&event.commit.hash) {
            event.commit.files_changed = files_changed;
            event.commit.insertions = insertions;
            event.commit.deletions = deletions;
        }
    }
    // Only the local branches whose upstream is gone hold a commit no remote-tracking
    // branch has: it was pushed once (merged by squash or rebase, the branch deleted and
    // pruned), as the branches ahead tell it. Asked only when some commit is so held.
    let only_local = |hash: &str| {
        containment
            .by_commit
            .get(hash)
            .is_some_and(|contained| contained.remote.is_empty() && !contained.local.is_empty())
    };
    let gone = if config.has_remote && commits.iter().any(|event| only_local(&event.commit.hash)) {
        ahead::gone_upstreams(env, repo, options.timeout, reader.as_ref())?
    } else {
        BTreeSet::new()
    };
    for event in &mut commits {
        let commit = &mut event.commit;
        match containment.by_commit.get(&commit.hash) {
            Some(contained) => {
                commit.branches.clone_from(&contained.local);
                commit.remote_branches.clone_from(&contained.remote);
                let pushed_once = !contained.local.is_empty()
                    && contained.local.iter().all(|branch| gone.contains(branch));
                commit.unpushed = config.has_remote && contained.remote.is_empty() && !pushed_once;
            }
            None => commit.unpushed = config.has_remote,
        }
    }
    let read = RepoRead {
        project: repo.project.clone(),
        identity,
        left_out,
        commits: commits.len() as u64,
        below_skew,
        remote: config.remote_url.as_deref().and_then(normalize_remote),
    };
    // Asked now, on this worker, rather than after the join, where the listing already
    // tells that it will be.
    let wip = wip::ask_with_listing(!commits.is_empty(), moved).then(|| {
        wip::read_wip(
            env,
            repo,
            (options.since, options.timeout),
            reader.as_ref(),
            (how.status, !commits.is_empty()),
        )
    });
    Ok((commits, read, wip))
}

/// Commits whose line counts one `git log --no-walk` asks for at most: a week's or a
/// range's commits stay far below the command line's limit.
const NUMSTAT_CHUNK: usize = 500;

/// `--numstat` totals (files, insertions, deletions) of the given commits, by hash: one
/// `git log --no-walk` per [`NUMSTAT_CHUNK`] commits, none when there are none.
fn numstats(
    env: &Env,
    repo: &Repo,
    hashes: &[&str],
    timeout: Duration,
) -> Result<HashMap<String, (u64, u64, u64)>, GitFailure> {
    let mut stats = HashMap::new();
    for chunk in hashes.chunks(NUMSTAT_CHUNK) {
        let mut command = command(env);
        command
            .current_dir(work_dir(repo))
            .arg("--git-dir")
            .arg(&repo.git_dir)
            .args(["log", "--no-walk=unsorted", "--numstat", "--find-renames"])
            .args(["--no-color", "--no-ext-diff", "--no-textconv", "--no-show-signature"])
            .args(["--diff-merges=off", "--no-mailmap", "--decorate=no"])
            .arg(format!("--format={HEADER_MARK}%H"))
            .arg("--end-of-options")
            .args(chunk);
        let output = output(command, timeout)?;
        if !output.status.success() {
            return Err(GitFailure::Failed(first_line(&output.stderr)));
        }
        for (header, lines) in records(&output.stdout) {
            let (mut files_changed, mut insertions, mut deletions) = (0, 0, 0);
            for line in lines {
                let mut parts = line.splitn(3, |&byte| byte == b'\t');
                let (Some(added), Some(deleted)) = (parts.next(), parts.next()) else { continue };
                files_changed += 1;
                // A binary file shows `-` for both counts: a changed file, but no lines.
                insertions += parse_count(added);
                deletions += parse_count(deleted);
            }
            stats.insert(
                String::from_utf8_lossy(header).into_owned(),
                (files_changed, insertions, deletions),
            );
        }
    }
    Ok(stats)
}

/// The first non-empty line of git's error output.
fn first_line(stderr: &[u8]) -> String {
    let stderr = String::from_utf8_lossy(stderr);
    stderr
        .lines()
        .find(|line| !line.trim().is_empty())
        .unwrap_or("git log failed")
        .trim()
        .to_owned()
}

/// A `git log` in the repository with the options and the header format [`parse_log`]
/// reads, but no revisions yet.
fn listing_command(env: &Env, repo: &Repo) -> Command {
    let mut command = command(env);
    command
        .current_dir(work_dir(repo))
        .arg("--git-dir")
        .arg(&repo.git_dir)
        .arg("log")
        .args([
            "--no-color",
            "--no-ext-diff",
            "--no-textconv",
            "--no-show-signature",
            "--diff-merges=off",
        ])
        // Messages and names in UTF-8 whatever the commits' `encoding` header: without it
        // git writes them in `i18n.logOutputEncoding`, which defaults to the repository's
        // `i18n.commitEncoding` (Shift_JIS, ISO-8859-1 …), and the report would show
        // replacement characters.
        .arg("--encoding=UTF-8")
        // Branch tips as decorations, for containment; merges are listed (without a
        // diff) for the same reason and left out below unless asked for.
        .args(["--decorate=full", "--decorate-refs=refs/heads/", "--decorate-refs=refs/remotes/"])
        // The author as recorded (`%ae`, `%an`) and as the mailmap maps it (`%aE`, `%aN`).
        .arg(format!("--format={HEADER_MARK}{LOG_FORMAT}"));
    command
}

/// Runs a git command for its output, which must succeed.
fn git_stdout(command: Command, timeout: Duration) -> Result<Vec<u8>, GitFailure> {
    let output = output(command, timeout)?;
    if !output.status.success() {
        return Err(GitFailure::Failed(first_line(&output.stderr)));
    }
    Ok(output.stdout)
}

/// `--since=` the listing bound.
fn since_arg(options: &ReadOptions<'_>) -> String {
    format!("--since={}", listing_bound(options.since).strftime("%Y-%m-%dT%H:%M:%SZ"))
}

/// Runs one `git log` over every ref but the stash, without diffs; its output is for
/// [`parse_log`], and the user's commits get their line counts from [`numstats`].
///
/// `--since` stops below a commit committed before the bound, so a commit made with a
/// clock that went back (at a tip, or in the middle of the day) hides the day's
/// commits below it. So the walk goes on below where it stopped ([`look_below_skew`]):
/// one more `git log` in the common case, which prints nothing. Returns the listing and
/// how many of its commits of the window were found only that way. One level deep (a
/// second skewed commit below the first is not looked through; the in-process reader
/// looks further: its `SKEW_LOOKS`), and a tip is looked below only when its ref was
/// written in the window by the file's own time.
fn log(
    env: &Env,
    repo: &Repo,
    options: &ReadOptions<'_>,
) -> Result<(Vec<Listed>, u64), GitFailure> {
    let mut command = listing_command(env, repo);
    command.args(["--exclude=refs/stash", "--all"]).arg(since_arg(options));
    let listing = listed::from_log(&git_stdout(command, options.timeout)?);
    // The look below is an addition: where git cannot answer it, the listing stands.
    match look_below_skew(env, repo, options, listing.clone()) {
        Ok(found) => Ok(found),
        Err(_) => Ok((listing, 0)),
    }
}

/// The look of [`log`] below the commits where its listing stopped: the parents of
/// listed commits that were not listed, and the branch tips moved in the window that
/// the listing never reached ([`moved_tips`]). One `git log --since` from their parents
/// (`<stop>^@`), which prints nothing where those parents are old; only when it finds
/// commits, one `git log --no-walk` of the stops above them.
fn look_below_skew(
    env: &Env,
    repo: &Repo,
    options: &ReadOptions<'_>,
    mut listing: Vec<Listed>,
) -> Result<(Vec<Listed>, u64), GitFailure> {
    let mut seen: HashSet<String> = HashSet::new();
    let mut boundary: BTreeSet<&str> = BTreeSet::new();
    let mut decorated: HashSet<&str> = HashSet::new();
    for commit in &listing {
        seen.insert(commit.hash.clone());
        boundary.extend(commit.parents.iter().map(String::as_str));
        decorated.extend(commit.refs.iter().map(String::as_str));
    }
    boundary.retain(|hash| !seen.contains(*hash));
    let mut stops: Vec<String> = boundary.into_iter().map(str::to_owned).collect();
    stops.extend(
        moved_tips(repo, options.since)
            .into_iter()
            .filter(|name| !decorated.contains(name.as_str())),
    );
    if stops.is_empty() {
        return Ok((listing, 0));
    }
    // (Where every stop is a root, `<stop>^@` names nothing and git walks `HEAD`: what it
    // prints then was listed already and is dropped below.)
    let mut below = listing_command(env, repo);
    below
        .arg(since_arg(options))
        .arg("--end-of-options")
        .args(stops.iter().map(|stop| format!("{stop}^@")));
    let found: Vec<Listed> = listed::from_log(&git_stdout(below, options.timeout)?)
        .into_iter()
        .filter(|commit| !seen.contains(&commit.hash))
        .collect();
    if found.is_empty() {
        return Ok((listing, 0));
    }
    // The stops above what was found (dated before the window, which is why the listing
    // stopped there): listed too, for containment, and counted when authored in it.
    let found_hashes: HashSet<&str> = found.iter().map(|commit| commit.hash.as_str()).collect();
    let mut above = listing_command(env, repo);
    above.arg("--no-walk=unsorted").arg("--end-of-options").args(&stops);
    let skewed: Vec<Listed> = listed::from_log(&git_stdout(above, options.timeout)?)
        .into_iter()
        .filter(|commit| commit.parents.iter().any(|parent| found_hashes.contains(parent.as_str())))
        .collect();
    let mut below_skew = 0u64;
    for commit in skewed.into_iter().chain(found) {
        if !seen.insert(commit.hash.clone()) {
            continue;
        }
        if commit.authored_since(options.since) {
            below_skew += 1;
        }
        listing.push(commit);
    }
    Ok((listing, below_skew))
}

/// The most loose refs [`moved_tips`] looks at.
const MOVED_TIPS_MAX: usize = 10_000;

/// The branch tips moved at or after `since`, by name: loose refs under `refs/heads/`
/// and `refs/remotes/` written since then (git writes a loose ref on every update), and
/// `HEAD` when it is detached and was written since then. A `stat` each, no process. A
/// repository whose refs are in a reftable tells none this way.
fn moved_tips(repo: &Repo, since: Timestamp) -> Vec<String> {
    let bound = std::time::SystemTime::from(
        since.checked_sub(SignedDuration::from_secs(2)).unwrap_or(Timestamp::MIN),
    );
    let newer = |path: &Path| {
        fs_err::symlink_metadata(path).is_ok_and(|meta| {
            meta.file_type().is_file() && meta.modified().is_ok_and(|time| time >= bound)
        })
    };
    let mut moved = Vec::new();
    let head = repo.git_dir.join("HEAD");
    if newer(&head)
        && fsread::read_small_text(&head, 4096).is_ok_and(|text| !text.starts_with("ref:"))
    {
        moved.push("HEAD".to_owned());
    }
    let mut pending = vec![repo.git_dir.join("refs/heads"), repo.git_dir.join("refs/remotes")];
    let mut looked = 0;
    while let Some(dir) = pending.pop() {
        let Ok(listing) = crate::listing::list(&dir) else { continue };
        for entry in &listing.entries {
            looked += 1;
            if looked > MOVED_TIPS_MAX {
                return moved;
            }
            let path = entry.path_in(&dir);
            if entry.kind.is_dir() {
                pending.push(path);
            } else if entry.kind.is_file() && newer(&path) {
                if let Ok(name) = path.strip_prefix(&repo.git_dir) {
                    moved.push(name.to_string_lossy().into_owned());
                }
            }
        }
    }
    moved.sort();
    moved
}

/// The committer date from which a listing reads. `--since` filters by committer date
/// and is inclusive; a commit authored in the window has a committer date at or after
/// its author date, so the bound is widened by a day for clock skew and the author date
/// is checked by [`parse_log`].
fn listing_bound(since: Timestamp) -> Timestamp {
    since.checked_sub(SignedDuration::from_hours(24)).unwrap_or(Timestamp::MIN)
}

/// Whether a commit's author is the user: by the author as recorded or as the mailmap
/// maps it. The one place identities are matched (a later `--author` filter is built
/// from the same [`Identity`]).
fn is_users(identity: &Identity, recorded: (&str, &str), mapped: (&str, &str)) -> bool {
    identity.matches(recorded.0, recorded.1) || identity.matches(mapped.0, mapped.1)
}

/// The user's commits of a listing, and the branches containing them. Commits by others
/// are counted in `left_out`; every commit listed feeds the branch containment.
fn parse_log(
    listing: &[Listed],
    project: &ProjectRef,
    options: &ReadOptions<'_>,
    identity: &Identity,
    left_out: &mut LeftOut,
) -> (Vec<CommitEvent>, branches::Containment) {
    let mut commits = Vec::new();
    for listed in listing {
        let merge = listed.is_merge();
        if merge && !options.include_merges {
            continue;
        }
        let Some(author_time) = listed.author_time else { continue };
        if author_time < options.since {
            continue;
        }
        let recorded = (listed.email.as_str(), listed.name.as_str());
        if !is_users(identity, recorded, (&listed.mapped_email, &listed.mapped_name)) {
            left_out.add(&listed.mapped_email);
            continue;
        }
        commits.push(CommitEvent {
            project: project.clone(),
            commit: Commit {
                machines: Vec::new(),
                hash: listed.hash.clone(),
                subject: listed.subject.clone(),
                truncated: false,
                author_time,
                // Filled in by `numstats`.
                files_changed: 0,
                insertions: 0,
                deletions: 0,
                merge,
                branches: Vec::new(),
                remote_branches: Vec::new(),
                unpushed: false,
            },
        });
    }
    let containment = if commits.is_empty() {
        branches::Containment::default()
    } else {
        branches::containment(listing)
    };
    (commits, containment)
}

/// The work in progress of the repositories the git stage did not ask yet and
/// `wip::ask_after_join` now asks (`worked_in`: the git dirs a session or command of the
/// window ran in), and the branches ahead of those it asked with the listing where they
/// were not looked for, all read on one pool; each found is also kept in its scan. Each
/// git process is killed after `timeout`.
pub fn read_work_in_progress(
    env: &Env,
    scans: &mut [RepoScan],
    worked_in: &BTreeSet<PathBuf>,
    (since, outside): (Timestamp, OutsideConfig),
    (workers, timeout): (usize, Duration),
) -> SourceOutput<report_model::WipEvent> {
    /// What a repository is asked.
    #[derive(Clone, Copy)]
    enum Ask {
        /// All of its work in progress.
        All,
        /// Its branches ahead alone (`wip::ask_ahead_after_join`).
        AheadOnly,
    }
    let status = wip::status_mode(env, outside);
    let worked = |scan: &RepoScan| worked_in.contains(&scan.repo.git_dir);
    // Both chosen from the states the listing left, before any answer here changes them.
    let all = scans.iter().enumerate().filter(|(_, scan)| wip::ask_after_join(scan, worked(scan)));
    let ahead_only =
        scans.iter().enumerate().filter(|(_, scan)| wip::ask_ahead_after_join(scan, worked(scan)));
    let asked: Vec<(usize, Ask)> = all
        .map(|(index, _)| (index, Ask::All))
        .chain(ahead_only.map(|(index, _)| (index, Ask::AheadOnly)))
        .collect();
    let shared: &[RepoScan] = scans;
    let results = crate::pool::map_ordered(&asked, workers, |&(index, ask)| {
        let scan = &shared[index];
        match ask {
            Ask::All => {
                let engaged = worked(scan) || scan.read().is_some_and(|read| read.commits > 0);
                wip::read_wip(env, &scan.repo, (since, timeout), None, (status, engaged))
            }
            Ask::AheadOnly => wip::read_ahead_only(env, &scan.repo, timeout),
        }
    });
    let mut output = SourceOutput::default();
    for (&(index, _), result) in asked.iter().zip(results) {
        let scan = &mut scans[index];
        scan.wip = match result {
            Ok(found) => {
                output.events.extend(found.clone());
                WipState::Read(found)
            }
            Err(what) => {
                output
                    .warnings
                    .push(Error::GitWip { repo: scan.repo.project.path.clone(), what }.warning());
                WipState::Failed
            }
        };
    }
    output
}

fn parse_count(field: &[u8]) -> u64 {
    std::str::from_utf8(field).ok().and_then(|text| text.parse().ok()).unwrap_or(0)
}

#[cfg(test)]
mod remote_tests {
    use super::normalize_remote;

    #[test]
    fn ssh_and_https_forms_of_one_repository_are_one() {
        let forms = [
            "git@github.com:acme/api.git",
            "ssh://git@github.com/acme/api",
            "ssh://git@GitHub.com:22/acme/api.git/",
            "https://github.com/acme/api.git",
            "https://me:ghp_secret@github.com/acme/api",
            "git://github.com/acme/api.git",
        ];
        for form in forms {
            assert_eq!(normalize_remote(form).as_deref(), Some("github.com/acme/api"), "{form}");
        }
        assert_eq!(normalize_remote("/srv/git/api.git").as_deref(), Some("/srv/git/api"));
        assert_eq!(normalize_remote("   "), None);
        assert_ne!(normalize_remote("git@github.com:acme/web.git"), normalize_remote(forms[0]));
    }
}
