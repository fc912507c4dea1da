//! Local branches with commits not pushed, whenever those commits were made: each branch
//! under `refs/heads` compared with its upstream (`branch.<name>.merge` through the
//! remote's fetch refspec, as git's `%(upstream)`), or, without one, with every
//! remote-tracking branch. A branch whose upstream is gone (deleted on the remote and
//! pruned here, most often once its pull request was merged by squash or rebase, whose
//! commits are new ones) is not ahead: its commits were pushed when the upstream was
//! there, and git tells it `[gone]`, not `ahead N`. A repository with no remote-tracking
//! branch has nothing to push to and shows nothing.
//!
//! Read in process with gitoxide when the repository opens for the in-process reader
//! ([`super::inproc::Reader`]): the branches whose tips their comparison does not already
//! hold, grouped by what hides their commits (their upstream, or every remote-tracking
//! branch), one painting per group ([`paint`], as git's `limit_list`: the hidden side's
//! history painted once, each commit decoded once and checked against loose-object
//! FIFOs, or read from the commit-graph where the repository has one). A branch counted
//! against its upstream has that upstream's merge bases with it hidden too
//! ([`merge_bases`]), as `git for-each-ref`'s `ours...theirs` hides them: where commits
//! are dated before their parents (a clock set wrong), the painting alone can stop before
//! the upstream's side reaches the branch's tip, and count as unpushed what was pushed
//! (found round 28). Otherwise git is
//! asked: one `git for-each-ref` (the upstream's `ahead N`), and, only when some branch
//! has no upstream, one `git log --source` over those branches `--not --remotes`, where
//! a commit two such branches share is counted for the first that reaches it.

use std::collections::{BTreeMap, BinaryHeap};
use std::time::Duration;

// Maps by object id hash the id's first bytes, as gitoxide's own walks (and git's `oidhash`)
// do: an id is already a hash.
use gix::hashtable::HashMap;
use jiff::Timestamp;
use report_model::AheadBranch;

use super::{Repo, command, output, work_dir};
use crate::Env;
use crate::error::GitFailure;

/// The most commits counted per branch (a branch never pushed in a repository with a long
/// history shows this many); the in-process painting reads at most `MAX_READ` commits
/// per repository, and git is asked beyond.
pub(crate) const MAX_AHEAD: u64 = 10_000;

/// The repository's local branches ahead of their upstream (or of every remote-tracking
/// branch), by name.
pub(crate) fn read_ahead(
    env: &Env,
    repo: &Repo,
    timeout: Duration,
    reader: Option<&super::inproc::Reader<'_>>,
) -> Result<Vec<AheadBranch>, GitFailure> {
    let opened = reader.is_none().then(|| super::inproc::Reader::open_in(env, repo)).flatten();
    let reader = reader.or(opened.as_ref());
    if let Some(found) = reader.and_then(in_process) {
        return Ok(found);
    }
    with_git(env, repo, timeout)
}

/// The local branches whose upstream is gone (git's `[gone]`), by short name: their
/// commits were pushed once, whatever remote-tracking branch holds them now. Read from
/// the refs `reader` has (its configuration names each branch's upstream), else asked of
/// git (one `git for-each-ref`).
pub(crate) fn gone_upstreams(
    env: &Env,
    repo: &Repo,
    timeout: Duration,
    reader: Option<&super::inproc::Reader<'_>>,
) -> Result<std::collections::BTreeSet<String>, GitFailure> {
    let read =
        reader.and_then(|reader| branches(reader.repository(), reader.loose(), reader.refs()));
    if let Some(Branches { locals, .. }) = read {
        return Ok(locals
            .iter()
            .filter(|(_, _, upstream)| *upstream == Upstream::Gone)
            .map(|(name, _, _)| name.as_ref().shorten().to_string())
            .collect());
    }
    Ok(for_each_ref(env, repo, timeout, &["refs/heads"])?
        .into_iter()
        .filter(|line| line.track == "gone")
        .map(|line| line.short)
        .collect())
}

/// The refs under `prefixes`, as one `git for-each-ref` lists them (name, short name,
/// upstream, its tracking state, committer time).
fn for_each_ref(
    env: &Env,
    repo: &Repo,
    timeout: Duration,
    prefixes: &[&str],
) -> Result<Vec<RefLine>, GitFailure> {
    let mut git = command(env);
    git.current_dir(work_dir(repo)).arg("--git-dir").arg(&repo.git_dir);
    git.args([
        "for-each-ref",
        "--format=%(refname)%00%(refname:short)%00%(upstream)%00%(upstream:track,nobracket)%00%(committerdate:unix)",
    ]);
    git.args(prefixes);
    Ok(parse_refs(&String::from_utf8_lossy(&run(git, timeout)?)))
}

/// The in-process answer, or `None` when anything fails (git is then asked).
fn in_process(reader: &super::inproc::Reader<'_>) -> Option<Vec<AheadBranch>> {
    in_process_counted(reader.repository(), reader.loose(), reader.refs()).map(|(found, _)| found)
}

/// The branches a painting compares: the remote-tracking branches' peeled ids, and the
/// local branches in gix's order, each by full name with its peeled id and its
/// upstream's.
struct Branches {
    remotes: Vec<gix::ObjectId>,
    locals: Vec<(gix::refs::FullName, gix::ObjectId, Upstream)>,
}

/// A local branch's upstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Upstream {
    /// None configured, or one the remote's fetch refspec maps to no remote-tracking
    /// branch (as git's `%(upstream)` is empty).
    None,
    /// Configured, and its remote-tracking branch is not there (git's `[gone]`).
    Gone,
    /// The remote-tracking branch's commit.
    At(gix::ObjectId),
}

/// The [`Branches`], from the refs the listing read on the same reader (`tips`), or else
/// read here. `None` when a ref cannot be read or peeled.
fn branches(
    repository: &gix::Repository,
    loose: &super::inproc::Loose,
    tips: Option<&super::inproc::Tips>,
) -> Option<Branches> {
    let upstream_name = |name: &gix::refs::FullNameRef| match repository
        .branch_remote_tracking_ref_name(name, gix::remote::Direction::Fetch)
    {
        Some(Ok(upstream)) => Some(upstream),
        _ => None,
    };
    if let Some(tips) = tips {
        // The refs come sorted by name (git's order, bytewise), so each upstream is found
        // without a scan of them all; an unsorted `packed-refs` read by gix is scanned.
        let find = |name: &gix::refs::FullNameRef| {
            let name: &[u8] = name.as_bstr();
            let at = tips
                .refs
                .binary_search_by(|(known, _)| known.as_bytes().cmp(name))
                .ok()
                .or_else(|| tips.refs.iter().position(|(known, _)| known.as_bytes() == name))?;
            Some(tips.refs[at].1)
        };
        let under = |prefix: &'static str| {
            tips.refs.iter().filter(move |(name, _)| name.starts_with(prefix))
        };
        let remotes = under("refs/remotes/").map(|(_, id)| *id).collect();
        let mut locals = Vec::new();
        for (name, tip) in under("refs/heads/") {
            let name = gix::refs::FullName::try_from(name.as_str()).ok()?;
            let upstream = match upstream_name(name.as_ref()) {
                Some(upstream) => find(upstream.as_ref()).map_or(Upstream::Gone, Upstream::At),
                None => Upstream::None,
            };
            locals.push((name, *tip, upstream));
        }
        return Some(Branches { remotes, locals });
    }
    let references = repository.references().ok()?;
    // `packed-refs` read once for all the refs (`peel_to_id` would look at it again for
    // each, a `stat` and an `open` per ref).
    let packed = repository.refs.cached_packed_buffer().ok()?;
    let packed = packed.as_ref().map(|buffer| &***buffer);
    let mut remotes = Vec::new();
    for reference in references.remote_branches().ok()? {
        let mut reference = reference.ok()?;
        // `origin/HEAD` points at another remote-tracking branch: the same commit.
        let Some(id) = super::inproc::peeled(repository, loose, &mut reference, packed) else {
            continue;
        };
        remotes.push(id);
    }
    let mut locals = Vec::new();
    if remotes.is_empty() {
        // Nothing to push to: the local branches are not read.
        return Some(Branches { remotes, locals });
    }
    for reference in references.local_branches().ok()? {
        let mut reference = reference.ok()?;
        let tip = super::inproc::peeled(repository, loose, &mut reference, packed)?;
        let upstream = match upstream_name(reference.name()) {
            Some(upstream) => repository
                .try_find_reference(upstream.as_ref())
                .ok()?
                .map(|mut upstream| {
                    super::inproc::peeled(repository, loose, &mut upstream, packed).ok_or(())
                })
                .transpose()
                .ok()?
                .map_or(Upstream::Gone, Upstream::At),
            None => Upstream::None,
        };
        locals.push((reference.name().to_owned(), tip, upstream));
    }
    Some(Branches { remotes, locals })
}

/// What hides a group of branches' commits: the tips (their upstream, or every
/// remote-tracking branch), and whether that is the branches' upstream.
type Group = (Vec<gix::ObjectId>, bool);

/// [`in_process`], with how many commits were decoded from their objects (the others
/// came from the commit-graph).
fn in_process_counted(
    repository: &gix::Repository,
    loose: &super::inproc::Loose,
    tips: Option<&super::inproc::Tips>,
) -> Option<(Vec<AheadBranch>, usize)> {
    let Branches { mut remotes, locals } = branches(repository, loose, tips)?;
    if remotes.is_empty() {
        return Some((Vec::new(), 0));
    }
    remotes.sort();
    remotes.dedup();
    // Each branch by what hides its commits (its upstream, or every remote-tracking
    // branch): the branches hidden by the same tips are walked together.
    // A group is also told by whether its hidden tip is the branches' upstream: git
    // counts those as `ours...theirs` (their merge bases hidden as well), the others
    // as `--not --remotes`, even where the only remote-tracking branch is the upstream.
    let mut groups: BTreeMap<Group, Vec<(String, gix::ObjectId)>> = BTreeMap::new();
    for (name, tip, upstream) in locals {
        let (hidden, tracked) = match upstream {
            Upstream::At(upstream) => (vec![upstream], true),
            Upstream::None => (remotes.clone(), false),
            Upstream::Gone => continue,
        };
        if hidden.contains(&tip) {
            continue;
        }
        let branch = (name.as_ref().shorten().to_string(), tip);
        groups.entry((hidden, tracked)).or_default().push(branch);
    }
    let mut found = Vec::new();
    let mut read = Commits::default();
    let mut buffer = Vec::new();
    // Opened only when there is something to paint.
    let graph = if groups.is_empty() { None } else { super::inproc::commit_graph(repository) };
    let objects = Objects { repository, loose, graph: graph.as_ref() };
    for ((mut hidden, tracked), branches) in groups {
        if tracked {
            // Each branch's merge bases with its upstream, as `ours...theirs` hides them:
            // reached from the upstream, so hiding them changes no count where dates
            // follow the parents, and where a clock was wrong they end the painting
            // where git's count ends.
            let upstream = hidden[0];
            for (_, tip) in &branches {
                hidden.extend(merge_bases(&objects, (&mut read, &mut buffer), *tip, upstream)?);
            }
            hidden.sort();
            hidden.dedup();
        }
        for some in branches.chunks(VISIBLE_BITS) {
            found.extend(paint(&objects, (&mut read, &mut buffer), &hidden, some)?);
        }
    }
    found.sort();
    Some((found, read.decoded))
}

/// Where the painting reads commits: the commit-graph first, when the repository has one
/// (a commit's date and parents without inflating it: the graph is git's own index of
/// them), else the objects, each checked by `loose` first.
struct Objects<'r> {
    repository: &'r gix::Repository,
    loose: &'r super::inproc::Loose,
    graph: Option<&'r gix::commitgraph::Graph>,
}

/// The commits the painting read: each one's committer date and parents, read once per
/// repository, and how many of them were decoded from their objects.
#[derive(Default)]
struct Commits {
    known: HashMap<gix::ObjectId, (i64, Vec<gix::ObjectId>)>,
    decoded: usize,
}

/// The flag of the commits the hidden tips reach; the bits below it are the branches'.
const HIDDEN: u64 = 1 << 63;

/// How many branches one painting tells apart (one bit each below [`HIDDEN`]).
const VISIBLE_BITS: usize = 63;

/// The most commits decoded per repository before git is asked instead.
const MAX_READ: usize = 100_000;

/// How many commits the painting goes on taking once only the hidden side is queued, for
/// commits dated out of order (git's `limit_list` allows five).
const SLOP: u32 = 5;

/// The commit `id`'s committer date, from the commit-graph or its header decoded on
/// first use (parents kept), each object checked by `loose` first. `None` when it cannot
/// be read or is not a commit.
fn commit_time(
    objects: &Objects<'_>,
    (read, buffer): (&mut Commits, &mut Vec<u8>),
    id: gix::ObjectId,
) -> Option<i64> {
    if let Some((time, _)) = read.known.get(&id) {
        return Some(*time);
    }
    if read.known.len() >= MAX_READ {
        return None;
    }
    if let Some((time, parents)) = objects.graph.and_then(|graph| from_graph(graph, &id)) {
        read.known.insert(id, (time, parents));
        return Some(time);
    }
    let (kind, data) = super::inproc::find(objects.repository, objects.loose, &id, buffer)?;
    if kind != gix::object::Kind::Commit {
        return None;
    }
    let commit = gix::objs::CommitRefIter::from_bytes(data, gix::hash::Kind::Sha1);
    let parents: Vec<gix::ObjectId> = commit.parent_ids().collect();
    let time = commit.committer().ok()?.time().ok()?.seconds;
    read.known.insert(id, (time, parents));
    read.decoded += 1;
    Some(time)
}

/// The committer date and parents the commit-graph holds for `id` (see
/// [`super::inproc::graph_commit`]); `None` also when its parents cannot be read (the
/// object is then decoded).
fn from_graph(
    graph: &gix::commitgraph::Graph,
    id: &gix::ObjectId,
) -> Option<(i64, Vec<gix::ObjectId>)> {
    let (time, commit) = super::inproc::graph_commit(graph, id)?;
    let parents = commit
        .iter_parents()
        .map(|parent| parent.ok().map(|position| graph.id_at(position).to_owned()))
        .collect::<Option<Vec<_>>>()?;
    Some((time, parents))
}

/// git's `still_interesting` (`revision.c`), after a commit the hidden side reaches was
/// taken: the slop left. The walk goes on ([`SLOP`] again) while the newest commit queued
/// is dated no earlier than the last one taken that the hidden side did not reach
/// (`date`: commits of one second, as a rebase makes them, are all taken), and while a
/// queued commit is not reached by the hidden side; then it takes [`SLOP`] more.
fn still_interesting(
    queue: &BinaryHeap<(i64, gix::ObjectId)>,
    flags: &HashMap<gix::ObjectId, u64>,
    date: i64,
    slop: u32,
) -> u32 {
    let Some(&(newest, _)) = queue.peek() else { return 0 };
    if date <= newest || queue.iter().any(|(_, queued)| flags[queued] & HIDDEN == 0) {
        return SLOP;
    }
    slop.saturating_sub(1)
}

/// The merge bases of `one` and `two`, as git's `paint_down_to_common` finds them: both
/// painted down, newest first, each commit reached from both a base (its parents then
/// stale), until every commit queued is stale. Exact whatever the dates (they only order
/// the walk). `None` when a commit cannot be read.
fn merge_bases(
    objects: &Objects<'_>,
    (read, buffer): (&mut Commits, &mut Vec<u8>),
    one: gix::ObjectId,
    two: gix::ObjectId,
) -> Option<Vec<gix::ObjectId>> {
    const ONE: u8 = 1;
    const TWO: u8 = 2;
    const STALE: u8 = 4;
    let mut flags: HashMap<gix::ObjectId, u8> = HashMap::default();
    let mut queue: BinaryHeap<(i64, gix::ObjectId)> = BinaryHeap::new();
    for (id, flag) in [(one, ONE), (two, TWO)] {
        let time = commit_time(objects, (read, buffer), id)?;
        *flags.entry(id).or_insert(0) |= flag;
        queue.push((time, id));
    }
    let mut bases = Vec::new();
    while queue.iter().any(|(_, id)| flags[id] & STALE == 0) {
        let (_, id) = queue.pop()?;
        let mut flag = flags[&id];
        if flag == ONE | TWO {
            bases.push(id);
            flag |= STALE;
        }
        let parents = std::mem::take(&mut read.known.get_mut(&id)?.1);
        for &parent in &parents {
            let time = commit_time(objects, (read, buffer), parent)?;
            let old = flags.entry(parent).or_insert(0);
            if *old & flag != flag {
                *old |= flag;
                queue.push((time, parent));
            }
        }
        read.known.get_mut(&id)?.1 = parents;
    }
    Some(bases)
}

/// The branches `branches` (at most [`VISIBLE_BITS`]) whose commits `hidden` does not
/// all reach, each with how many of its commits it does not reach (up to [`MAX_AHEAD`])
/// and the newest one's date. As git's `limit_list`: the commits are painted newest
/// first, each branch's bit and the hidden side's flag carried down to the parents,
/// until only commits the hidden side reaches are queued (and a few more, for dates out
/// of order); a branch is ahead by the commits that carry its bit and not the hidden
/// flag. The hidden side's history is painted once for all the branches, every commit is
/// decoded once (its header only), and each read goes through the loose-object check,
/// which gix's own walk would bypass. `None` when a commit cannot be read (git is asked).
fn paint(
    objects: &Objects<'_>,
    (read, buffer): (&mut Commits, &mut Vec<u8>),
    hidden: &[gix::ObjectId],
    branches: &[(String, gix::ObjectId)],
) -> Option<Vec<AheadBranch>> {
    let mut flags: HashMap<gix::ObjectId, u64> = HashMap::default();
    let mut queue: BinaryHeap<(i64, gix::ObjectId)> = BinaryHeap::new();
    let starts = hidden
        .iter()
        .map(|id| (*id, HIDDEN))
        .chain(branches.iter().enumerate().map(|(bit, (_, tip))| (*tip, 1_u64 << bit)));
    for (id, flag) in starts {
        let time = commit_time(objects, (read, buffer), id)?;
        let old = flags.entry(id).or_insert(0);
        if *old | flag != *old {
            *old |= flag;
            queue.push((time, id));
        }
    }
    let mut slop = SLOP;
    // The date of the last commit taken that the hidden side did not reach yet.
    let mut date = i64::MAX;
    while let Some((time, id)) = queue.pop() {
        let flag = flags[&id];
        // Taken out while the parents are read (which adds to `read`), then put back: a
        // commit is taken again when a later path brings it another flag.
        let parents = std::mem::take(&mut read.known.get_mut(&id)?.1);
        for &parent in &parents {
            let time = commit_time(objects, (read, buffer), parent)?;
            let old = flags.entry(parent).or_insert(0);
            if *old | flag != *old {
                *old |= flag;
                queue.push((time, parent));
            }
        }
        read.known.get_mut(&id)?.1 = parents;
        if flag & HIDDEN == 0 {
            date = time;
            continue;
        }
        slop = still_interesting(&queue, &flags, date, slop);
        if slop == 0 {
            break;
        }
    }
    let mut found = Vec::new();
    for (bit, (name, _)) in branches.iter().enumerate() {
        let mine = 1_u64 << bit;
        let (mut commits, mut newest) = (0_u64, None::<i64>);
        for (id, flag) in &flags {
            if flag & mine != 0 && flag & HIDDEN == 0 {
                commits += 1;
                let time = read.known.get(id)?.0;
                newest = Some(newest.map_or(time, |newest| newest.max(time)));
            }
        }
        if let Some(newest) = newest {
            let newest = Timestamp::from_second(newest).ok()?;
            found.push(AheadBranch { name: name.clone(), commits: commits.min(MAX_AHEAD), newest });
        }
    }
    Some(found)
}

/// The git CLI's answer (see the module doc).
fn with_git(env: &Env, repo: &Repo, timeout: Duration) -> Result<Vec<AheadBranch>, GitFailure> {
    let refs = for_each_ref(env, repo, timeout, &["refs/heads", "refs/remotes"])?;
    if !refs.iter().any(|line| line.full.starts_with("refs/remotes/")) {
        return Ok(Vec::new());
    }
    let mut found = Vec::new();
    let mut alone = Vec::new();
    for line in refs.iter().filter(|line| line.full.starts_with("refs/heads/")) {
        if line.track == "gone" {
            continue;
        }
        if line.upstream.is_empty() {
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
        git_at(dir, "2026-11-22T10:00:00Z", args);
    }

    /// `git` in `dir`, committing at `date`.
    fn git_at(dir: &Path, date: &str, args: &[&str]) {
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
            .env("GIT_AUTHOR_DATE", date)
            .env("GIT_COMMITTER_DATE", date)
            .args(args)
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    }

    /// A clone whose `main` is pushed, `feature/x` (tracking `origin/feature/x`) is 2
    /// ahead, `local` (no upstream) 3 ahead of every remote branch, and `gone` 1 ahead of
    /// `main` with an upstream that was deleted (not ahead: git says `[gone]`).
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
        vec![branch("feature/x", 2), branch("local", 3)]
    }

    #[test]
    fn both_routes_find_the_branches_ahead() {
        let (dir, repo) = home();
        let env = Env::new(dir.path());
        let reader = super::super::inproc::Reader::open(&repo).expect("a plain clone opens");
        assert_eq!(in_process(&reader), Some(expected()));
        assert_eq!(with_git(&env, &repo, Duration::from_secs(30)).unwrap(), expected());
    }

    /// After the listing on the same reader, the branches and upstreams come from the refs
    /// it read (each peeled already), with the same answer.
    #[test]
    fn the_refs_the_listing_read_give_the_same_branches_ahead() {
        let (_dir, repo) = home();
        let reader = super::super::inproc::Reader::open(&repo).expect("a plain clone opens");
        assert!(reader.tips().is_none());
        // Without a listing the refs are read from the layout check's listing, the stash
        // left out as the listing leaves it.
        let fresh = super::super::inproc::Reader::open(&repo).expect("a plain clone opens");
        let read = fresh.refs().expect("plain refs");
        assert!(read.refs.iter().all(|(name, _)| name != "refs/stash"));
        assert_eq!(in_process(&fresh), Some(expected()));
        reader.log(Timestamp::UNIX_EPOCH).expect("listed in process");
        let tips = reader.tips().expect("the listing keeps its refs");
        let names: Vec<&str> = tips.refs.iter().map(|(name, _)| name.as_str()).collect();
        assert!(names.contains(&"refs/remotes/origin/feature/x"), "{names:?}");
        assert!(names.contains(&"refs/heads/local"), "{names:?}");
        assert!(tips.head.is_some());
        assert_eq!(in_process(&reader), Some(expected()));
    }

    /// gix's own walk of the commits of `tip` that `hidden` does not reach: the oracle
    /// the painting is compared with.
    fn gix_walk(
        repository: &gix::Repository,
        tip: gix::ObjectId,
        hidden: &[gix::ObjectId],
    ) -> Option<(u64, Timestamp)> {
        let walk = repository
            .rev_walk([tip])
            .sorting(gix::revision::walk::Sorting::ByCommitTime(
                gix::traverse::commit::simple::CommitTimeOrder::default(),
            ))
            .with_hidden(hidden.iter().copied())
            .all()
            .unwrap();
        let times: Vec<i64> = walk.map(|info| info.unwrap().commit_time.unwrap()).collect();
        let newest = times.iter().max()?;
        Some((times.len() as u64, Timestamp::from_second(*newest).unwrap()))
    }

    /// The branches hidden by the same tips are painted together: two branches without an
    /// upstream, one built on the other, each count the commits their own tip reaches (the
    /// shared ones for both), as gix's walk of each branch alone counts them; a commit of
    /// another day gives its branch its own newest date.
    #[test]
    fn branches_painted_together_count_as_one_walk_each() {
        let (_dir, repo) = home();
        let work = &repo.project.path;
        git(work, &["checkout", "-q", "-b", "stacked", "local"]);
        git_at(work, "2026-11-23T10:00:00Z", &["commit", "-q", "--allow-empty", "-m", "s1"]);
        git(work, &["checkout", "-q", "main"]);
        let reader = super::super::inproc::Reader::open(&repo).expect("a plain clone opens");
        let repository = reader.repository();
        let found = in_process(&reader).unwrap();
        let counts: Vec<(&str, u64)> =
            found.iter().map(|branch| (branch.name.as_str(), branch.commits)).collect();
        assert_eq!(counts, [("feature/x", 2), ("local", 3), ("stacked", 4)]);
        let remotes: Vec<gix::ObjectId> = ["origin/main", "origin/feature/x"]
            .iter()
            .map(|name| repository.rev_parse_single(*name).unwrap().detach())
            .collect();
        let upstream = repository.rev_parse_single("origin/feature/x").unwrap().detach();
        for branch in &found {
            let tip = repository.rev_parse_single(branch.name.as_str()).unwrap().detach();
            let hidden = if branch.name == "feature/x" { vec![upstream] } else { remotes.clone() };
            let oracle = gix_walk(repository, tip, &hidden).unwrap();
            assert_eq!((branch.commits, branch.newest), oracle, "{}", branch.name);
        }
        let stacked = found.iter().find(|branch| branch.name == "stacked").unwrap();
        assert_eq!(stacked.newest, "2026-11-23T10:00:00Z".parse::<Timestamp>().unwrap());
    }

    /// With a commit-graph, the painting reads the commits it holds from it and decodes
    /// only those made since it was written, and the answer is git's: a branch merged
    /// long ago (its tip 40 commits below `origin/main`, all painted to reach it) shows
    /// nothing, and a branch with a commit made after the graph counts that commit too.
    /// Every commit here is of one second, as a rebase makes them: `main`, 40 such commits
    /// below `origin/main`, is not ahead (the walk goes on through commits of the date of
    /// the last one the hidden side had not reached, as git's does).
    #[test]
    fn a_commit_graph_spares_decoding_what_it_holds() {
        let (dir, repo) = home();
        let work = &repo.project.path;
        let origin = dir.path().join("origin");
        git(work, &["branch", "merged", "main"]);
        for n in 1..=40 {
            git(&origin, &["commit", "-q", "--allow-empty", "-m", &format!("m{n}")]);
        }
        git(work, &["fetch", "-q"]);
        // Every route: the refs gix reads here, those read from the layout check's listing
        // without a listing, and those a listing on the same reader read.
        let counted = |repo: &Repo| {
            let reader = super::super::inproc::Reader::open(repo).expect("a plain clone opens");
            let read = in_process_counted(reader.repository(), reader.loose(), None);
            let fresh = super::super::inproc::Reader::open(repo).expect("a plain clone opens");
            let refs = fresh.refs().expect("plain refs");
            assert_eq!(in_process_counted(fresh.repository(), fresh.loose(), Some(refs)), read);
            reader.log(Timestamp::UNIX_EPOCH).expect("listed in process");
            let listed = in_process_counted(reader.repository(), reader.loose(), reader.tips());
            assert_eq!(read, listed);
            read.expect("read in process")
        };
        let (without_graph, decoded_without) = counted(&repo);
        assert_eq!(without_graph, expected());
        assert!(decoded_without > 40, "the painting walks origin/main: {decoded_without}");

        git(work, &["commit-graph", "write", "--reachable"]);
        assert!(work.join(".git/objects/info/commit-graph").is_file());
        git(work, &["checkout", "-q", "local"]);
        git(work, &["commit", "-q", "--allow-empty", "-m", "l4"]);
        git(work, &["checkout", "-q", "main"]);
        let (with_graph, decoded_with) = counted(&repo);
        let env = Env::new(dir.path());
        assert_eq!(with_graph, with_git(&env, &repo, Duration::from_secs(30)).unwrap());
        let counts: Vec<(&str, u64)> =
            with_graph.iter().map(|branch| (branch.name.as_str(), branch.commits)).collect();
        assert_eq!(counts, [("feature/x", 2), ("local", 4)]);
        assert_eq!(decoded_with, 1, "only the commit made after the graph is decoded");

        // `core.commitGraph=false`: git does not read the graph, nor does the painting.
        git(work, &["config", "core.commitGraph", "false"]);
        let (unread, decoded_unread) = counted(&repo);
        assert_eq!(unread, with_graph);
        assert!(decoded_unread > 40, "{decoded_unread}");
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
        assert_eq!(in_process(&reader), Some(Vec::new()));
        assert_eq!(with_git(&env, &repo, Duration::from_secs(30)).unwrap(), Vec::new());
    }

    /// Commits on the origin of [`home`], one a day at 10:00 for `days` of `month`
    /// (`YYYY-MM`), fetched into the clone.
    fn origin_moves_on(dir: &Path, work: &Path, month: &str, days: std::ops::RangeInclusive<u32>) {
        let origin = dir.join("origin");
        for day in days {
            let date = format!("{month}-{day:02}T10:00:00Z");
            git_at(&origin, &date, &["commit", "-q", "--allow-empty", "-m", &format!("m{day}")]);
        }
        git(work, &["fetch", "-q"]);
    }

    /// The branches ahead read in process, checked equal to git's answer.
    fn in_process_as_git(dir: &Path, repo: &Repo) -> Vec<AheadBranch> {
        let reader = super::super::inproc::Reader::open(repo).expect("a plain clone opens");
        let found = in_process(&reader).expect("read in process");
        let git = with_git(&Env::new(dir), repo, Duration::from_secs(30)).unwrap();
        assert_eq!(found, git);
        found
    }

    /// The way in from outside: the branches ahead of a repository no reader holds open.
    #[test]
    fn read_ahead_opens_the_repository_itself() {
        let (dir, repo) = home();
        let env = Env::new(dir.path());
        assert_eq!(read_ahead(&env, &repo, Duration::from_secs(30), None).unwrap(), expected());
    }

    /// A commit dated before much of `origin/main`'s history (a clock set wrong), in the
    /// middle of a branch without upstream: the painting goes on while it is queued and
    /// not reached by the remote side, however many remote commits come first, so the
    /// commit below it is found and counted, as git counts it.
    #[test]
    fn a_commit_dated_out_of_order_does_not_end_the_painting_early() {
        let (dir, repo) = home();
        let work = &repo.project.path;
        git_at(work, "2026-12-20T10:00:00Z", &["checkout", "-q", "-b", "skewed", "main"]);
        git_at(work, "2026-12-20T10:00:00Z", &["commit", "-q", "--allow-empty", "-m", "w"]);
        git_at(work, "2026-11-10T10:00:00Z", &["commit", "-q", "--allow-empty", "-m", "v"]);
        git_at(work, "2026-12-21T10:00:00Z", &["commit", "-q", "--allow-empty", "-m", "t"]);
        git_at(work, "2026-12-21T10:00:00Z", &["checkout", "-q", "main"]);
        origin_moves_on(dir.path(), work, "2026-12", 1..=16);
        let found = in_process_as_git(dir.path(), &repo);
        let skewed = found.iter().find(|branch| branch.name == "skewed").unwrap();
        assert_eq!(skewed.commits, 3);
    }

    /// `origin/main` moved on by commits dated before `main`'s own tip (a clock set
    /// wrong): `main` is behind, not ahead. Painting alone stops once only remote commits
    /// older than the tip are queued and would count the tip as unpushed; its merge base
    /// with the upstream, hidden as git's `ours...theirs` hides it, says it is not.
    #[test]
    fn a_branch_behind_commits_dated_before_it_is_not_ahead() {
        let (dir, repo) = home();
        origin_moves_on(dir.path(), &repo.project.path, "2026-11", 5..=20);
        // `local` (no upstream) is still counted against every remote-tracking branch,
        // as `git log --not --remotes` counts it.
        assert_eq!(in_process_as_git(dir.path(), &repo), expected());
    }

    /// Refs that gix read from a `packed-refs` not sorted by name: each upstream is still
    /// found, by a scan, and not taken for another ref (the first one here is a local
    /// branch's own tip, which would hide it).
    #[test]
    fn upstreams_are_found_among_unsorted_refs() {
        let (_dir, repo) = home();
        let reader = super::super::inproc::Reader::open(&repo).expect("a plain clone opens");
        let read = reader.refs().expect("plain refs");
        let (first, rest): (Vec<_>, Vec<_>) =
            read.refs.iter().cloned().partition(|(name, _)| name == "refs/heads/feature/x");
        let tips = super::super::inproc::Tips {
            refs: first.into_iter().chain(rest.into_iter().rev()).collect(),
            head: read.head,
        };
        let sorted = in_process_counted(reader.repository(), reader.loose(), reader.refs());
        let unsorted = in_process_counted(reader.repository(), reader.loose(), Some(&tips));
        assert_eq!(unsorted, sorted);
        assert_eq!(unsorted.map(|(found, _)| found), Some(expected()));
    }

    /// git's own words when it fails: its first line that says something.
    #[test]
    fn a_failing_git_is_quoted_by_its_first_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = fs_err::canonicalize(dir.path()).unwrap();
        let repo = Repo {
            git_dir: path.join("no-such-repository"),
            project: report_model::ProjectRef { name: "gone".to_owned(), path },
        };
        let failure = with_git(&Env::new(dir.path()), &repo, Duration::from_secs(30)).unwrap_err();
        let GitFailure::Failed(first) = failure else { panic!("{failure:?}") };
        assert!(first.starts_with("fatal: not a git repository"), "{first}");
    }
}
