//! Work in progress: which repositories are asked, and what they answer. Everything that
//! decides it is in this file:
//!
//! - [`worked_on`]: the skip check's `stat`s of the index, the stash reflog and linked
//!   worktrees ([`super::Moved::work`]).
//! - [`ask_with_listing`]: asked on the git worker, right after the commits are listed
//!   (the user's commits there, or worked on), while the agents' logs are still read.
//! - [`ask_after_join`]: asked once the sessions and commands are joined to their
//!   repositories (one ran there); [`ask_ahead_after_join`]: asked then for the branches
//!   ahead alone, where the listing's answer did not look for them.
//! - [`read_wip`]: the answer. Files not committed come from
//!   `git status --porcelain=v2 -z`, each dated by its own modification time, answered
//!   in process ([`super::inproc::Reader::status`]) where that is provably git's
//!   answer ([`status_mode`] says how far), else by git; stashes come from the stash
//!   reflog, and the local branches ahead of their upstream from [`super::ahead`].
//!   Unpushed commits of the window come from [`super::branches`].

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use jiff::{SignedDuration, Timestamp};
use report_model::{Operation, Stopped, WipEvent, WipFile, WipStash};

use std::os::fd::OwnedFd;

use rustix::fs::{AtFlags, statat};

use super::inproc::Status;
use super::{Moved, Outcome, RepoScan, WipState};
use super::{Repo, command, output};
use crate::error::GitFailure;
use crate::{Env, fsread};

/// The largest stash reflog read (about 5,000 stashes); a larger one shows no stash.
const MAX_STASH_LOG_BYTES: u64 = 1 << 20;

/// Whether the repository was worked on at or after `since` (less two seconds, for file
/// systems with coarse times): its index changed (git rewrites it on `add`, `commit`,
/// `checkout`, `reset` and when `status` refreshes it), or its stash did, or a linked
/// worktree's index or HEAD. `base` is the git dir, opened by the skip check, and
/// `worktrees` the names under its `worktrees/`. Stat-based, no process.
pub(crate) fn worked_on(
    base: &OwnedFd,
    repo: &Repo,
    worktrees: &Result<Vec<PathBuf>, std::io::Error>,
    since: Timestamp,
) -> bool {
    let bound = bound(since);
    let newer = |file: &str| {
        statat(base, file, AtFlags::empty()).is_ok_and(|stat| fsread::stat_modified(&stat) >= bound)
    };
    newer("index")
        || newer("logs/refs/stash")
        || (worktrees.as_ref().is_ok_and(|names| !names.is_empty())
            && !linked_worktrees(repo, since).is_empty())
}

/// Whether the git worker that listed the repository's commits asks for its work in
/// progress too: it holds commits of the user's in the window, or was worked on.
pub(crate) fn ask_with_listing(has_commits: bool, moved: Moved) -> bool {
    has_commits || moved.work
}

/// Whether a repository the git stage did not ask is asked once the logs are joined: a
/// session or command of the window ran in it (`worked_in`), or it holds commits of the
/// user's or was worked on (a repository only the logs revealed, read after the join).
/// Never one git could not read.
pub(crate) fn ask_after_join(scan: &RepoScan, worked_in: bool) -> bool {
    if scan.wip != WipState::NotAsked {
        return false;
    }
    match &scan.outcome {
        Outcome::Failed => false,
        Outcome::Read(read) => worked_in || ask_with_listing(read.commits > 0, scan.moved),
        Outcome::Unchanged => worked_in || scan.moved.work,
    }
}

/// Whether a repository whose work in progress was read with the listing, with nothing
/// open and no commit of the person's there (so its branches ahead were not looked for:
/// [`read_wip`]'s `engaged`), is asked for its branches ahead once the logs are joined:
/// a session or command of the window ran in it (`worked_in`). Decided on the states the
/// listing left, so that a repository [`ask_after_join`] chooses is not asked twice.
pub(crate) fn ask_ahead_after_join(scan: &RepoScan, worked_in: bool) -> bool {
    worked_in
        && scan.wip == WipState::Read(None)
        && scan.read().is_some_and(|read| read.commits == 0)
}

/// The bound of the `stat`s: `since` less two seconds of slack for file systems with
/// coarse times.
fn bound(since: Timestamp) -> SystemTime {
    SystemTime::from(since.checked_sub(SignedDuration::from_secs(2)).unwrap_or(Timestamp::MIN))
}

/// The linked worktrees of the repository (`git worktree add`) whose own index or HEAD
/// reflog changed at or after `since`: each one's folder (`worktrees/<name>/gitdir`
/// names its `.git` file) and the folder git keeps its state in (`worktrees/<name>`),
/// by folder. Stat-based, no process.
pub(crate) fn linked_worktrees(repo: &Repo, since: Timestamp) -> Vec<(PathBuf, PathBuf)> {
    let bound = bound(since);
    let newer = |path: &Path| {
        fs_err::metadata(path).and_then(|meta| meta.modified()).is_ok_and(|time| time >= bound)
    };
    let admin = repo.git_dir.join("worktrees");
    let Ok(listing) = crate::listing::list(&admin) else { return Vec::new() };
    let mut found: Vec<(PathBuf, PathBuf)> = listing
        .entries
        .iter()
        .map(|entry| entry.path_in(&admin))
        .filter(|admin| newer(&admin.join("index")) || newer(&admin.join("logs/HEAD")))
        .filter_map(|admin| {
            let text = fsread::read_small_text(&admin.join("gitdir"), 4096).ok()?;
            let folder = Path::new(text.trim()).parent()?.to_path_buf();
            (folder != repo.project.path && folder.is_dir()).then_some((folder, admin))
        })
        .collect();
    found.sort();
    found
}

/// How far `git status` may be answered in process ([`super::inproc::Reader::status`]):
/// the paths themselves only where nothing outside the repository changes what `status`
/// compares or ignores — no such key in git's configuration outside the repositories
/// (`outside`), and no global attributes or ignore file in their default place; else
/// only the proof that a work tree has nothing to name.
pub(crate) fn status_mode(env: &Env, outside: super::OutsideConfig) -> Status {
    let global = env.config_home().join("git");
    if outside.changes_status
        || global.join("attributes").exists()
        || global.join("ignore").exists()
    {
        Status::CleanOnly
    } else {
        Status::Paths
    }
}

/// Reads the work in progress of the repository: uncommitted files modified at or after
/// `since` in its main work tree and in each linked worktree whose index or HEAD moved
/// since then (their paths led by the worktree's folder name and `:`), an operation
/// stopped midway in one of those work trees, and stashes made at or after `since`.
/// `Ok(None)` when there is none.
///
/// The main work tree's `git status` is answered in process where that is git's answer
/// (`status`: how far, [`status_mode`]), by `reader` when the caller has the repository
/// open already, else by one opened here when the environment allows; otherwise, and
/// for linked worktrees, git is asked. `engaged`: the person's commits, sessions or
/// commands are in it, so its branches ahead of their upstream are looked for even when
/// nothing else is open.
pub(crate) fn read_wip(
    env: &Env,
    repo: &Repo,
    (since, timeout): (Timestamp, Duration),
    reader: Option<&super::inproc::Reader<'_>>,
    (status, engaged): (Status, bool),
) -> Result<Option<WipEvent>, GitFailure> {
    let mut files = Vec::new();
    // Opened here once, when the caller has none, for the status and the branches ahead.
    let opened = reader.is_none().then(|| super::inproc::Reader::open_in(env, repo)).flatten();
    let reader = reader.or(opened.as_ref());
    let in_process = || reader?.status(since, status);
    let mut stopped = None;
    if repo.project.path.join(".git").exists() {
        // The in-process status leaves a work tree with conflicts to git, so it has none.
        let conflicts = match in_process() {
            Some(named) => {
                keep((&repo.project.path, ""), named, since, &mut files);
                0
            }
            None => status_files(env, (&repo.project.path, ""), since, timeout, &mut files)?,
        };
        stopped = stopped_operation(&repo.git_dir, conflicts);
    }
    for (worktree, admin) in linked_worktrees(repo, since) {
        let name = worktree.file_name().map(|name| name.to_string_lossy().into_owned());
        let name = name.unwrap_or_default();
        let conflicts =
            status_files(env, (&worktree, &format!("{name}:")), since, timeout, &mut files)?;
        if let Some(here) = stopped_operation(&admin, conflicts) {
            let here = Stopped { worktree: Some(name), ..here };
            if told_before(&here, stopped.as_ref()) {
                stopped = Some(here);
            }
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let stashes: Vec<WipStash> =
        read_stashes(env, repo, timeout)?.into_iter().filter(|stash| stash.time >= since).collect();
    // Branches ahead are looked for in a repository the person worked in (`engaged`: their
    // commits, a session or a command there) or that holds work of theirs left open; not
    // in one only a pull or a checkout moved, where an old branch is not today's news.
    let ahead = if engaged || !files.is_empty() || !stashes.is_empty() {
        super::ahead::read_ahead(env, repo, timeout, reader)?
    } else {
        Vec::new()
    };
    if files.is_empty() && stashes.is_empty() && ahead.is_empty() && stopped.is_none() {
        return Ok(None);
    }
    Ok(Some(WipEvent { project: repo.project.clone(), files, stashes, ahead, stopped }))
}

/// The operation stopped midway in the work tree of `git_dir`, by the state git keeps
/// while it waits (as `git status` tells it, and the shell prompts' git helpers), dated
/// by when git last wrote that state; `conflicts`: the work tree's unmerged paths.
fn stopped_operation(git_dir: &Path, conflicts: u64) -> Option<Stopped> {
    let time = |name: &str, folder: bool| {
        let meta = fs_err::symlink_metadata(git_dir.join(name)).ok()?;
        let kind = meta.file_type();
        if (folder && !kind.is_dir()) || (!folder && !kind.is_file()) {
            return None;
        }
        // To the second, as every other time of the report.
        let time = Timestamp::try_from(meta.modified().ok()?).ok()?;
        Timestamp::from_second(time.as_second()).ok()
    };
    // `rebase-apply/applying` is `git am`'s, which is not a rebase.
    let apply =
        time("rebase-apply", true).filter(|_| time("rebase-apply/applying", false).is_none());
    let (operation, since) = [
        (Operation::Rebase, time("rebase-merge", true)),
        (Operation::Rebase, apply),
        (Operation::Merge, time("MERGE_HEAD", false)),
        (Operation::CherryPick, time("CHERRY_PICK_HEAD", false)),
        (Operation::Revert, time("REVERT_HEAD", false)),
    ]
    .into_iter()
    .find_map(|(operation, since)| Some((operation, since?)))?;
    Some(Stopped { operation, conflicts, since, worktree: None })
}

/// Whether the operation stopped in a linked worktree (`here`) is the one to tell rather
/// than the one found so far: the main work tree's goes first, then the most recent.
fn told_before(here: &Stopped, kept: Option<&Stopped>) -> bool {
    kept.is_none_or(|kept| kept.worktree.is_some() && kept.since < here.since)
}

/// The work in progress of a repository whose files and stashes were read already (and
/// found nothing): only its branches ahead of their upstream.
pub(crate) fn read_ahead_only(
    env: &Env,
    repo: &Repo,
    timeout: Duration,
) -> Result<Option<WipEvent>, GitFailure> {
    let ahead = super::ahead::read_ahead(env, repo, timeout, None)?;
    Ok((!ahead.is_empty()).then(|| WipEvent {
        project: repo.project.clone(),
        files: Vec::new(),
        stashes: Vec::new(),
        ahead,
        stopped: None,
    }))
}

/// Adds the files of one work tree's `git status` modified at or after `since`; how
/// many of its paths are unmerged (conflicts), whenever they were modified.
pub(super) fn status_files(
    env: &Env,
    (work_tree, prefix): (&Path, &str),
    since: Timestamp,
    timeout: Duration,
    files: &mut Vec<WipFile>,
) -> Result<u64, GitFailure> {
    let mut git = command(env);
    git.current_dir(work_tree)
        .args(["status", "--porcelain=v2", "-z", "--untracked-files=normal"])
        .arg("--ignore-submodules=all");
    let done = output(git, timeout)?;
    if !done.status.success() {
        let stderr = String::from_utf8_lossy(&done.stderr);
        let first = stderr.lines().find(|line| !line.trim().is_empty());
        return Err(GitFailure::Failed(first.unwrap_or("git status failed").trim().to_owned()));
    }
    let (named, conflicts) = parse_status(&done.stdout);
    keep((work_tree, prefix), named, since, files);
    Ok(conflicts)
}

/// Adds the paths a work tree's status named (each with whether it is deleted in the
/// work tree) that were modified at or after `since`, each dated by its own time.
pub(super) fn keep(
    (work_tree, prefix): (&Path, &str),
    named: Vec<(String, bool)>,
    since: Timestamp,
    files: &mut Vec<WipFile>,
) {
    for (path, deleted) in named {
        let full = work_tree.join(&path);
        // A deleted file has no time of its own; its folder changed when it went.
        let dated = if deleted { full.parent().unwrap_or(work_tree).to_path_buf() } else { full };
        let Some(modified) = modified(&dated) else { continue };
        if modified >= since {
            files.push(WipFile { path: format!("{prefix}{path}"), modified });
        }
    }
}

fn modified(path: &Path) -> Option<Timestamp> {
    let time = fs_err::symlink_metadata(path).and_then(|meta| meta.modified()).ok()?;
    Timestamp::try_from(time).ok()
}

/// The changed paths of `git status --porcelain=v2 -z`, each with whether it is deleted
/// in the work tree, and how many are unmerged. Ignored entries are not asked for; a
/// rename's original path is skipped.
fn parse_status(stdout: &[u8]) -> (Vec<(String, bool)>, u64) {
    let mut paths = Vec::new();
    let mut unmerged = 0;
    let mut entries = stdout.split(|&byte| byte == 0);
    while let Some(entry) = entries.next() {
        let text = String::from_utf8_lossy(entry);
        let mut fields = text.splitn(2, ' ');
        let kind = fields.next().unwrap_or_default();
        let rest = fields.next().unwrap_or_default();
        // Fields before the path: `1` has 7, `2` has 8 (then the original path as the
        // next entry), `u` has 9, `?` none.
        let (skip, xy) = match kind {
            "1" => (7, rest.get(..2)),
            "2" => (8, rest.get(..2)),
            "u" => (9, rest.get(..2)),
            "?" => (0, None),
            _ => continue,
        };
        let path = if skip == 0 {
            rest.to_owned()
        } else {
            rest.splitn(skip + 1, ' ').nth(skip).unwrap_or_default().to_owned()
        };
        if kind == "2" {
            entries.next();
        }
        if path.is_empty() {
            continue;
        }
        if kind == "u" {
            unmerged += 1;
        }
        let deleted = xy.is_some_and(|xy| xy.ends_with('D'));
        paths.push((path, deleted));
    }
    (paths, unmerged)
}

/// The stash entries, newest first: from `logs/refs/stash` (each line
/// `old new ident <time> <tz>\tmsg`, no process), or, in a repository whose refs are in
/// a reftable, from one `git reflog` (`stash@{<time>}\0msg` per line).
fn read_stashes(env: &Env, repo: &Repo, timeout: Duration) -> Result<Vec<WipStash>, GitFailure> {
    if repo.git_dir.join("reftable").is_dir() {
        return reftable_stashes(env, repo, timeout);
    }
    let path = repo.git_dir.join("logs/refs/stash");
    // Regular files only, bounded: a FIFO or a device there is no stash.
    let Ok(bytes) = fsread::read_small(&path, MAX_STASH_LOG_BYTES) else { return Ok(Vec::new()) };
    let text = String::from_utf8_lossy(&bytes);
    let mut stashes: Vec<WipStash> = text
        .lines()
        .filter_map(|line| {
            let (head, message) = line.split_once('\t')?;
            // `… <email> 1795741200 +0900`: the time is the second field from the end.
            let mut fields = head.rsplitn(3, ' ');
            let _zone = fields.next()?;
            let seconds: i64 = fields.next()?.parse().ok()?;
            let time = Timestamp::from_second(seconds).ok()?;
            Some(WipStash { time, message: message.to_owned() })
        })
        .collect();
    stashes.reverse();
    Ok(stashes)
}

/// The stash entries of a reftable repository, from `git reflog`, newest first. No
/// stash is no entry (git prints nothing).
fn reftable_stashes(
    env: &Env,
    repo: &Repo,
    timeout: Duration,
) -> Result<Vec<WipStash>, GitFailure> {
    let mut git = command(env);
    git.current_dir(super::work_dir(repo)).arg("--git-dir").arg(&repo.git_dir);
    git.args(["reflog", "show", "--format=%gd%x00%gs", "--date=unix", "refs/stash", "--"]);
    let done = output(git, timeout)?;
    if !done.status.success() {
        return Ok(Vec::new());
    }
    let text = String::from_utf8_lossy(&done.stdout);
    Ok(text
        .lines()
        .filter_map(|line| {
            let (selector, message) = line.split_once('\0')?;
            let seconds = selector.rsplit_once("@{")?.1.strip_suffix('}')?.parse().ok()?;
            let time = Timestamp::from_second(seconds).ok()?;
            Some(WipStash { time, message: message.to_owned() })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::git::{Identity, LeftOut, RepoRead, project_ref};

    fn repo(path: &Path) -> Repo {
        Repo { project: project_ref(path), git_dir: path.join(".git") }
    }

    fn scan(outcome: Outcome, wip: WipState, work: bool) -> RepoScan {
        let moved = Moved { refs: matches!(outcome, Outcome::Read(_)), work };
        RepoScan { repo: repo(Path::new("/src/api")), moved, outcome, wip }
    }

    fn read(commits: u64) -> Outcome {
        Outcome::Read(RepoRead {
            project: repo(Path::new("/src/api")).project,
            identity: Identity::default(),
            left_out: LeftOut::default(),
            commits,
            below_skew: 0,
            remote: None,
        })
    }

    /// Who is asked for work in progress after the join, and who for branches ahead
    /// alone: the decision [`ask_after_join`] and [`ask_ahead_after_join`] make, case
    /// by case, as the module's documentation states it.
    #[test]
    fn the_join_asks_the_repositories_the_listing_left_and_a_session_or_the_work_names() {
        let project = repo(Path::new("/src/api")).project;
        let found = Some(WipEvent {
            project,
            files: Vec::new(),
            stashes: Vec::new(),
            ahead: Vec::new(),
            stopped: None,
        });
        // (outcome, state after the listing, worked on, a session ran there) →
        // (asked after the join, asked for branches ahead alone)
        let cases = [
            // Not asked by the listing: asked when a session ran there, or it holds the
            // person's commits, or its index or stash moved.
            (read(0), WipState::NotAsked, false, false, (false, false)),
            (read(0), WipState::NotAsked, false, true, (true, false)),
            (read(3), WipState::NotAsked, false, false, (true, false)),
            (read(0), WipState::NotAsked, true, false, (true, false)),
            (Outcome::Unchanged, WipState::NotAsked, false, false, (false, false)),
            (Outcome::Unchanged, WipState::NotAsked, false, true, (true, false)),
            (Outcome::Unchanged, WipState::NotAsked, true, false, (true, false)),
            // git could not read it: never asked, whatever ran there.
            (Outcome::Failed, WipState::NotAsked, true, true, (false, false)),
            // Read with the listing, nothing found and no commit of the person's: the
            // branches ahead were not looked for; a session there asks for them alone.
            (read(0), WipState::Read(None), true, true, (false, true)),
            (read(0), WipState::Read(None), true, false, (false, false)),
            // Found something, or held the person's commits (ahead was looked for), or
            // failed: never asked again.
            (read(0), WipState::Read(found.clone()), true, true, (false, false)),
            (read(2), WipState::Read(None), true, true, (false, false)),
            (read(0), WipState::Failed, true, true, (false, false)),
            (Outcome::Unchanged, WipState::Read(None), true, true, (false, false)),
        ];
        for (index, (outcome, wip, work, worked_in, expected)) in cases.into_iter().enumerate() {
            let scan = scan(outcome, wip, work);
            let got = (ask_after_join(&scan, worked_in), ask_ahead_after_join(&scan, worked_in));
            assert_eq!(got, expected, "case {index}: {scan:?}, worked in: {worked_in}");
        }
        assert!(ask_with_listing(true, Moved::default()));
        assert!(ask_with_listing(false, Moved { refs: false, work: true }));
        assert!(!ask_with_listing(false, Moved { refs: true, work: false }));
    }

    /// The skip check's "worked on": the index or the stash reflog written at or after
    /// the window's start, less two seconds of slack; a file older than that, or none,
    /// is not work.
    #[test]
    fn a_repository_is_worked_on_when_its_index_or_stash_moved_in_the_window() {
        let dir = tempfile::tempdir().unwrap();
        let git_dir = dir.path().join(".git");
        fs_err::create_dir_all(git_dir.join("logs/refs")).unwrap();
        let since = Timestamp::from_second(1_800_000_000).unwrap();
        let at = |seconds: i64| filetime::FileTime::from_unix_time(seconds, 0);
        let repo = Repo { project: repo(dir.path()).project, git_dir: git_dir.clone() };
        let worked = || {
            let base = crate::listing::open_at(rustix::fs::CWD, &git_dir).unwrap();
            worked_on(&base, &repo, &Ok(Vec::new()), since)
        };
        assert!(!worked(), "no index, no stash");
        let index = git_dir.join("index");
        fs_err::write(&index, b"").unwrap();
        filetime::set_file_mtime(&index, at(since.as_second() - 3)).unwrap();
        assert!(!worked(), "an index older than the slack");
        filetime::set_file_mtime(&index, at(since.as_second() - 2)).unwrap();
        assert!(worked(), "an index within the two seconds of slack");
        filetime::set_file_mtime(&index, at(since.as_second() - 3600)).unwrap();
        let stash = git_dir.join("logs/refs/stash");
        fs_err::write(&stash, b"").unwrap();
        filetime::set_file_mtime(&stash, at(since.as_second() + 60)).unwrap();
        assert!(worked(), "a stash made in the window");
        filetime::set_file_mtime(&stash, at(since.as_second() - 60)).unwrap();
        assert!(!worked(), "an old stash and an old index");

        // A linked worktree (`git worktree add ../api-fix`): its own index, under
        // `worktrees/<name>/`, with `gitdir` naming the worktree's `.git` file.
        let linked = dir.path().join("api-fix");
        fs_err::create_dir_all(&linked).unwrap();
        let admin = git_dir.join("worktrees/api-fix");
        fs_err::create_dir_all(&admin).unwrap();
        fs_err::write(admin.join("gitdir"), format!("{}\n", linked.join(".git").display()))
            .unwrap();
        let linked_index = admin.join("index");
        fs_err::write(&linked_index, b"").unwrap();
        let names = Ok(vec![PathBuf::from("api-fix")]);
        let worked_with = |names: &Result<Vec<PathBuf>, std::io::Error>| {
            let base = crate::listing::open_at(rustix::fs::CWD, &git_dir).unwrap();
            worked_on(&base, &repo, names, since)
        };
        filetime::set_file_mtime(&linked_index, at(since.as_second() - 3600)).unwrap();
        assert!(!worked_with(&names), "a linked worktree not touched in the window");
        filetime::set_file_mtime(&linked_index, at(since.as_second() + 60)).unwrap();
        assert!(worked_with(&names), "a linked worktree's index written in the window");
        // A worktree whose folder is gone (`git worktree prune` not run yet), and an entry
        // naming the main work tree itself, are not worktrees to ask.
        for (name, folder) in
            [("gone", dir.path().join("gone")), ("main", dir.path().to_path_buf())]
        {
            let admin = git_dir.join("worktrees").join(name);
            fs_err::create_dir_all(&admin).unwrap();
            fs_err::write(admin.join("gitdir"), format!("{}\n", folder.join(".git").display()))
                .unwrap();
            fs_err::write(admin.join("index"), b"").unwrap();
            filetime::set_file_mtime(admin.join("index"), at(since.as_second() + 60)).unwrap();
        }
        assert_eq!(linked_worktrees(&repo, since), [(linked, admin)]);
        // The skip check listed no worktree: none is looked at.
        assert!(!worked_with(&Ok(Vec::new())), "no worktree listed");
    }

    #[test]
    fn the_main_work_tree_s_stopped_operation_goes_first_then_the_most_recent() {
        let at = |second| Timestamp::from_second(second).unwrap();
        let stopped = |worktree: Option<&str>, second| Stopped {
            operation: Operation::Rebase,
            conflicts: 0,
            since: at(second),
            worktree: worktree.map(str::to_owned),
        };
        let (main, early, late) =
            (stopped(None, 100), stopped(Some("a"), 50), stopped(Some("b"), 200));
        assert!(told_before(&early, None), "nothing found before");
        assert!(!told_before(&late, Some(&main)), "the main work tree's, older, stays");
        assert!(told_before(&late, Some(&early)), "a later one in another worktree");
        assert!(!told_before(&early, Some(&late)), "an earlier one in another worktree");
        assert!(!told_before(&early, Some(&stopped(Some("c"), 50))), "a tie keeps the first");
    }

    #[test]
    fn the_operation_stopped_is_told_by_the_state_git_keeps() {
        let dir = tempfile::tempdir().unwrap();
        let git = dir.path();
        let told = |conflicts| {
            stopped_operation(git, conflicts).map(|stopped| (stopped.operation, stopped.conflicts))
        };
        assert_eq!(told(0), None);
        // A folder named as git's file, a file named as its folder: not git's state.
        fs_err::create_dir(git.join("MERGE_HEAD")).unwrap();
        fs_err::write(git.join("rebase-merge"), "").unwrap();
        assert_eq!(told(0), None);
        fs_err::remove_dir(git.join("MERGE_HEAD")).unwrap();
        fs_err::remove_file(git.join("rebase-merge")).unwrap();
        // `git am` keeps its state in `rebase-apply` too, with `applying`: not a rebase.
        fs_err::create_dir(git.join("rebase-apply")).unwrap();
        fs_err::write(git.join("rebase-apply/applying"), "").unwrap();
        assert_eq!(told(0), None);
        fs_err::remove_file(git.join("rebase-apply/applying")).unwrap();
        assert_eq!(told(2), Some((Operation::Rebase, 2)));
        fs_err::remove_dir(git.join("rebase-apply")).unwrap();
        for (name, operation) in [
            ("CHERRY_PICK_HEAD", Operation::CherryPick),
            ("REVERT_HEAD", Operation::Revert),
            ("MERGE_HEAD", Operation::Merge),
        ] {
            fs_err::write(git.join(name), "0123\n").unwrap();
            assert_eq!(told(1), Some((operation, 1)), "{name}");
            fs_err::remove_file(git.join(name)).unwrap();
        }
        // Both a rebase's state and a cherry-pick's: the rebase is looked at first.
        fs_err::create_dir(git.join("rebase-merge")).unwrap();
        fs_err::write(git.join("CHERRY_PICK_HEAD"), "0123\n").unwrap();
        assert_eq!(told(0), Some((Operation::Rebase, 0)));
    }

    #[test]
    fn status_entries_give_their_paths() {
        let stdout = b"1 .M N... 100644 100644 100644 aaa bbb src/f.txt\x001 .D N... 100644 100644 000000 aaa aaa gone.txt\x002 R. N... 100644 100644 100644 aaa aaa R100 new name.txt\x00old.txt\x00? draft-notes.md\x00u UU N... 100644 100644 100644 100644 a b c both.txt\x00";
        assert_eq!(
            parse_status(stdout),
            (
                vec![
                    ("src/f.txt".to_owned(), false),
                    ("gone.txt".to_owned(), true),
                    ("new name.txt".to_owned(), false),
                    ("draft-notes.md".to_owned(), false),
                    ("both.txt".to_owned(), false),
                ],
                1
            )
        );
    }
}
