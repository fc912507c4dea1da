//! Local branches with commits not pushed, whenever those commits were made: each branch
//! under `refs/heads` compared with its upstream (`branch.<name>.merge` through the
//! remote's fetch refspec, as git's `%(upstream)`), or, without one (or with one that is
//! gone), with every remote-tracking branch. A repository with no remote-tracking branch
//! has nothing to push to and shows nothing.
//!
//! Read in process with gitoxide when the repository opens for the in-process reader
//! ([`super::inproc::Reader`]): the branches whose tips their comparison does not already
//! hold, grouped by what hides their commits (their upstream, or every remote-tracking
//! branch), one walk per group (each branch then counts the commits its own tip reaches
//! among those the walk read). Otherwise git is asked: one `git for-each-ref` (the upstream's
//! `ahead N`), and, only when some branch has no upstream, one `git log --source` over
//! those branches `--not --remotes`, where a commit two such branches share is counted
//! for the first that reaches it.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Duration;

use jiff::Timestamp;
use report_model::AheadBranch;

use super::{Repo, command, output, work_dir};
use crate::Env;
use crate::error::GitFailure;

/// The most commits counted per branch: a branch never pushed in a repository with a
/// long history stops here rather than walking all of it.
pub(crate) const MAX_AHEAD: u64 = 10_000;

/// The repository's local branches ahead of their upstream (or of every remote-tracking
/// branch), by name.
pub(crate) fn read_ahead(
    env: &Env,
    repo: &Repo,
    timeout: Duration,
    reader: Option<&super::inproc::Reader<'_>>,
) -> Result<Vec<AheadBranch>, GitFailure> {
    let opened;
    let reader = if let Some(reader) = reader {
        Some(reader)
    } else {
        opened = super::inproc::environment_allows(env)
            .then(|| super::inproc::Reader::open(repo))
            .flatten();
        opened.as_ref()
    };
    if let Some(found) = reader.and_then(|reader| in_process(reader.repository())) {
        return Ok(found);
    }
    with_git(env, repo, timeout)
}

/// The in-process answer, or `None` when anything fails (git is then asked).
fn in_process(repository: &gix::Repository) -> Option<Vec<AheadBranch>> {
    let references = repository.references().ok()?;
    // `packed-refs` read once for all the refs (`peel_to_id` would look at it again for
    // each, a `stat` and an `open` per ref).
    let packed = repository.refs.cached_packed_buffer().ok()?;
    let packed = packed.as_ref().map(|buffer| &***buffer);
    let mut remotes = Vec::new();
    for reference in references.remote_branches().ok()? {
        let mut reference = reference.ok()?;
        // `origin/HEAD` points at another remote-tracking branch: the same commit.
        let Ok(id) = reference.peel_to_id_packed(packed) else { continue };
        remotes.push(id.detach());
    }
    if remotes.is_empty() {
        return Some(Vec::new());
    }
    remotes.sort();
    remotes.dedup();
    // Each branch by what hides its commits (its upstream, or every remote-tracking
    // branch): the branches hidden by the same tips are walked together.
    let mut groups: BTreeMap<Vec<gix::ObjectId>, Vec<(String, gix::ObjectId)>> = BTreeMap::new();
    for reference in references.local_branches().ok()? {
        let mut reference = reference.ok()?;
        let name = reference.name().shorten().to_string();
        let tip = reference.peel_to_id_packed(packed).ok()?.detach();
        let upstream = match repository
            .branch_remote_tracking_ref_name(reference.name(), gix::remote::Direction::Fetch)
        {
            Some(Ok(upstream)) => repository
                .try_find_reference(upstream.as_ref())
                .ok()?
                .map(|mut upstream| upstream.peel_to_id_packed(packed).map(gix::Id::detach))
                .transpose()
                .ok()?,
            // No upstream configured (or one that names no fetched branch).
            _ => None,
        };
        let hidden: Vec<gix::ObjectId> = match upstream {
            Some(upstream) => vec![upstream],
            None => remotes.clone(),
        };
        if hidden.contains(&tip) {
            continue;
        }
        groups.entry(hidden).or_default().push((name, tip));
    }
    let mut found = Vec::new();
    for (hidden, branches) in groups {
        let together =
            if branches.len() > 1 { walk_together(repository, &hidden, &branches) } else { None };
        match together {
            Some(ahead) => found.extend(ahead),
            None => {
                for (name, tip) in branches {
                    if let Some((commits, newest)) = walk_one(repository, tip, &hidden)? {
                        found.push(AheadBranch { name, commits, newest });
                    }
                }
            }
        }
    }
    found.sort();
    Some(found)
}

/// The commits of `tip` that `hidden` does not reach, counted up to [`MAX_AHEAD`], and
/// the newest one's committer date; `Ok(None)` when there is none, `None` on an error.
#[expect(clippy::option_option, reason = "an error (ask git) is not an empty answer")]
fn walk_one(
    repository: &gix::Repository,
    tip: gix::ObjectId,
    hidden: &[gix::ObjectId],
) -> Option<Option<(u64, Timestamp)>> {
    let walk = repository
        .rev_walk([tip])
        .sorting(gix::revision::walk::Sorting::ByCommitTime(
            gix::traverse::commit::simple::CommitTimeOrder::default(),
        ))
        .with_hidden(hidden.iter().copied())
        .all()
        .ok()?;
    let (mut commits, mut newest) = (0_u64, None::<i64>);
    for info in walk {
        let info = info.ok()?;
        commits += 1;
        let time = match info.commit_time {
            Some(time) => time,
            None => info.object().ok()?.time().ok()?.seconds,
        };
        newest = Some(newest.map_or(time, |newest| newest.max(time)));
        if commits >= MAX_AHEAD {
            break;
        }
    }
    match newest {
        Some(newest) => Some(Some((commits, Timestamp::from_second(newest).ok()?))),
        None => Some(None),
    }
}

/// The branches hidden by the same tips, walked once: the commits of any of them that
/// `hidden` does not reach are read (each decoded once, where one walk per branch paints
/// the hidden side's history again for each), then each branch counts those its tip
/// reaches, as [`walk_one`] would. `None` when the walk fails or reads more than
/// [`MAX_AHEAD`] commits (one walk per branch then caps each count as before).
fn walk_together(
    repository: &gix::Repository,
    hidden: &[gix::ObjectId],
    branches: &[(String, gix::ObjectId)],
) -> Option<Vec<AheadBranch>> {
    let walk = repository
        .rev_walk(branches.iter().map(|(_, tip)| *tip))
        .sorting(gix::revision::walk::Sorting::ByCommitTime(
            gix::traverse::commit::simple::CommitTimeOrder::default(),
        ))
        .with_hidden(hidden.iter().copied())
        .all()
        .ok()?;
    // Every commit read: its committer date and parents.
    let mut read: HashMap<gix::ObjectId, (i64, gix::traverse::commit::ParentIds)> = HashMap::new();
    for info in walk {
        let info = info.ok()?;
        let time = match info.commit_time {
            Some(time) => time,
            None => info.object().ok()?.time().ok()?.seconds,
        };
        read.insert(info.id, (time, info.parent_ids));
        if read.len() as u64 > MAX_AHEAD {
            return None;
        }
    }
    let mut found = Vec::new();
    for (name, tip) in branches {
        let (mut commits, mut newest) = (0_u64, None::<i64>);
        let mut seen: HashSet<gix::ObjectId> = HashSet::new();
        let mut pending = vec![*tip];
        while let Some(id) = pending.pop() {
            let Some((time, parents)) = read.get(&id) else { continue };
            if !seen.insert(id) {
                continue;
            }
            commits += 1;
            newest = Some(newest.map_or(*time, |newest| newest.max(*time)));
            pending.extend(parents.iter().copied());
        }
        if let Some(newest) = newest {
            let newest = Timestamp::from_second(newest).ok()?;
            found.push(AheadBranch { name: name.clone(), commits, newest });
        }
    }
    Some(found)
}

/// The git CLI's answer (see the module doc).
fn with_git(env: &Env, repo: &Repo, timeout: Duration) -> Result<Vec<AheadBranch>, GitFailure> {
    let mut git = command(env);
    git.current_dir(work_dir(repo)).arg("--git-dir").arg(&repo.git_dir);
    git.args([
        "for-each-ref",
        "--format=%(refname)%00%(refname:short)%00%(upstream)%00%(upstream:track,nobracket)%00%(committerdate:unix)",
        "refs/heads",
        "refs/remotes",
    ]);
    let done = run(git, timeout)?;
    let refs = parse_refs(&String::from_utf8_lossy(&done));
    if !refs.iter().any(|line| line.full.starts_with("refs/remotes/")) {
        return Ok(Vec::new());
    }
    let mut found = Vec::new();
    let mut alone = Vec::new();
    for line in refs.iter().filter(|line| line.full.starts_with("refs/heads/")) {
        let tracked = !line.upstream.is_empty() && line.track != "gone";
        if !tracked {
            alone.push(line);
            continue;
        }
        let ahead = line
            .track
            .split(", ")
            .find_map(|part| part.strip_prefix("ahead ")?.parse::<u64>().ok())
            .unwrap_or(0);
        if ahead > 0 {
            let newest = Timestamp::from_second(line.time).unwrap_or(Timestamp::UNIX_EPOCH);
            found.push(AheadBranch { name: line.short.clone(), commits: ahead, newest });
        }
    }
    if !alone.is_empty() {
        let mut git = command(env);
        git.current_dir(work_dir(repo)).arg("--git-dir").arg(&repo.git_dir);
        git.args(["log", "--format=%ct%x00%S", "--source"])
            .arg(format!("--max-count={}", MAX_AHEAD * alone.len() as u64));
        git.args(alone.iter().map(|line| line.full.as_str()));
        git.args(["--not", "--remotes", "--"]);
        let done = run(git, timeout)?;
        let mut per_branch: BTreeMap<String, (u64, i64)> = BTreeMap::new();
        for line in String::from_utf8_lossy(&done).lines() {
            let Some((time, source)) = line.split_once('\0') else { continue };
            let Ok(time) = time.parse::<i64>() else { continue };
            let entry = per_branch.entry(source.to_owned()).or_insert((0, time));
            if entry.0 < MAX_AHEAD {
                entry.0 += 1;
            }
            entry.1 = entry.1.max(time);
        }
        for line in alone {
            if let Some(&(commits, newest)) = per_branch.get(&line.full) {
                let newest = Timestamp::from_second(newest).unwrap_or(Timestamp::UNIX_EPOCH);
                found.push(AheadBranch { name: line.short.clone(), commits, newest });
            }
        }
    }
    found.sort();
    Ok(found)
}

fn run(git: std::process::Command, timeout: Duration) -> Result<Vec<u8>, GitFailure> {
    let done = output(git, timeout)?;
    if !done.status.success() {
        let stderr = String::from_utf8_lossy(&done.stderr);
        let first = stderr.lines().find(|line| !line.trim().is_empty());
        return Err(GitFailure::Failed(first.unwrap_or("git failed").trim().to_owned()));
    }
    Ok(done.stdout)
}

/// One line of the `for-each-ref` listing.
#[derive(Debug, PartialEq, Eq)]
struct RefLine {
    full: String,
    short: String,
    upstream: String,
    track: String,
    time: i64,
}

fn parse_refs(text: &str) -> Vec<RefLine> {
    text.lines()
        .filter_map(|line| {
            let mut fields = line.split('\0');
            Some(RefLine {
                full: fields.next()?.to_owned(),
                short: fields.next()?.to_owned(),
                upstream: fields.next()?.to_owned(),
                track: fields.next()?.to_owned(),
                time: fields.next()?.parse().unwrap_or(0),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::process::Command;

    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        #[expect(clippy::disallowed_methods, reason = "the test builds repositories with git")]
        let status = Command::new("git")
            .current_dir(dir)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "A")
            .env("GIT_AUTHOR_EMAIL", "a@example.com")
            .env("GIT_COMMITTER_NAME", "A")
            .env("GIT_COMMITTER_EMAIL", "a@example.com")
            .env("GIT_AUTHOR_DATE", "2026-11-22T10:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-11-22T10:00:00Z")
            .args(args)
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    }

    /// A clone whose `main` is pushed, `feature/x` (tracking `origin/feature/x`) is 2
    /// ahead, `local` (no upstream) 3 ahead of every remote branch, and `gone` 1 ahead of
    /// `main` with an upstream that was deleted.
    fn home() -> (tempfile::TempDir, Repo) {
        let dir = tempfile::tempdir().unwrap();
        let origin = dir.path().join("origin");
        let work = dir.path().join("work");
        fs_err::create_dir_all(&origin).unwrap();
        git(&origin, &["init", "-q", "-b", "main"]);
        git(&origin, &["commit", "-q", "--allow-empty", "-m", "base"]);
        git(&origin, &["branch", "feature/x"]);
        git(&origin, &["branch", "gone"]);
        git(dir.path(), &["clone", "-q", origin.to_str().unwrap(), "work"]);
        git(&work, &["checkout", "-q", "-b", "feature/x", "origin/feature/x"]);
        git(&work, &["commit", "-q", "--allow-empty", "-m", "x1"]);
        git(&work, &["commit", "-q", "--allow-empty", "-m", "x2"]);
        git(&work, &["checkout", "-q", "-b", "local", "main"]);
        for n in 1..=3 {
            git(&work, &["commit", "-q", "--allow-empty", "-m", &format!("l{n}")]);
        }
        git(&work, &["checkout", "-q", "-b", "gone", "origin/gone"]);
        git(&work, &["commit", "-q", "--allow-empty", "-m", "g1"]);
        git(&work, &["checkout", "-q", "main"]);
        git(&origin, &["branch", "-q", "-D", "gone"]);
        git(&work, &["fetch", "-q", "--prune"]);
        let work = fs_err::canonicalize(&work).unwrap();
        let repo = Repo {
            git_dir: work.join(".git"),
            project: report_model::ProjectRef { name: "work".to_owned(), path: work },
        };
        (dir, repo)
    }

    fn expected() -> Vec<AheadBranch> {
        let newest: Timestamp = "2026-11-22T10:00:00Z".parse().unwrap();
        let branch = |name: &str, commits| AheadBranch { name: name.to_owned(), commits, newest };
        vec![branch("feature/x", 2), branch("gone", 1), branch("local", 3)]
    }

    #[test]
    fn both_routes_find_the_branches_ahead() {
        let (dir, repo) = home();
        let env = Env::new(dir.path());
        let reader = super::super::inproc::Reader::open(&repo).expect("a plain clone opens");
        assert_eq!(in_process(reader.repository()), Some(expected()));
        assert_eq!(with_git(&env, &repo, Duration::from_secs(30)).unwrap(), expected());
    }

    /// Branches hidden by the same tips are walked together: two branches without an
    /// upstream, one built on the other, each count the commits its own tip reaches (the
    /// shared ones for both), as one walk per branch counts them.
    #[test]
    fn branches_walked_together_count_as_one_walk_each() {
        let (_dir, repo) = home();
        let work = &repo.project.path;
        git(work, &["checkout", "-q", "-b", "stacked", "local"]);
        git(work, &["commit", "-q", "--allow-empty", "-m", "s1"]);
        git(work, &["checkout", "-q", "main"]);
        let reader = super::super::inproc::Reader::open(&repo).expect("a plain clone opens");
        let repository = reader.repository();
        let found = in_process(repository).unwrap();
        let counts: Vec<(&str, u64)> =
            found.iter().map(|branch| (branch.name.as_str(), branch.commits)).collect();
        assert_eq!(counts, [("feature/x", 2), ("gone", 1), ("local", 3), ("stacked", 4)]);
        let remotes: Vec<gix::ObjectId> = ["origin/main", "origin/feature/x"]
            .iter()
            .map(|name| repository.rev_parse_single(*name).unwrap().detach())
            .collect();
        let tip = |name: &str| repository.rev_parse_single(name).unwrap().detach();
        let branches: Vec<(String, gix::ObjectId)> = ["gone", "local", "stacked"]
            .iter()
            .map(|name| ((*name).to_owned(), tip(name)))
            .collect();
        let together = walk_together(repository, &remotes, &branches).unwrap();
        for (branch, (name, tip)) in together.iter().zip(&branches) {
            let (commits, newest) = walk_one(repository, *tip, &remotes).unwrap().unwrap();
            assert_eq!((&branch.name, branch.commits, branch.newest), (name, commits, newest));
        }
    }

    #[test]
    fn a_repository_without_remotes_shows_nothing() {
        let dir = tempfile::tempdir().unwrap();
        git(dir.path(), &["init", "-q", "-b", "main"]);
        git(dir.path(), &["commit", "-q", "--allow-empty", "-m", "one"]);
        let path = fs_err::canonicalize(dir.path()).unwrap();
        let repo = Repo {
            git_dir: path.join(".git"),
            project: report_model::ProjectRef { name: "solo".to_owned(), path },
        };
        let env = Env::new(dir.path());
        let reader = super::super::inproc::Reader::open(&repo).expect("opens");
        assert_eq!(in_process(reader.repository()), Some(Vec::new()));
        assert_eq!(with_git(&env, &repo, Duration::from_secs(30)).unwrap(), Vec::new());
    }
}
