//! The commit listing of [`super::log`] read in process, with gitoxide, for the
//! repositories where that gives exactly what git would print: no process per
//! repository, which on a busy machine was most of the time of a report.
//!
//! What is read is the same walk as `git log --all --exclude=refs/stash --since=…`:
//! every ref under `refs/` but the stash, and `HEAD`, walked newest committer date
//! first; a commit older than the bound is not listed, and its parents are followed
//! through it only where a parent is dated later than it (git's `--since` stops there,
//! so a tip committed with a date in the past hides the whole day below it: clock skew,
//! `GIT_COMMITTER_DATE`, imported history). That extra look is bounded
//! ([`SKEW_LOOKS`] parents decoded per repository) and the commits it finds are counted
//! for `standup doctor`. Each commit gives the
//! fields of [`super::log`]'s format, in its byte layout, so [`super::parse_log`] reads
//! both alike, and a test compares the two on real repositories.
//!
//! Anything git would treat in a way this reader does not copy sends the repository to
//! git instead ([`Reader::open`] returns `None`): configuration that changes the listing
//! (`mailmap.*`, `i18n.*`, includes, `core.worktree`, replace refs, grafts, a shallow
//! clone, alternates, linked worktrees, a reftable, a bare repository), a commit in
//! another encoding, a repository not owned by the user (git's `safe.directory` rule), a
//! file that is not a regular file where one is read (a FIFO there would block this
//! process, where a git process is killed at its deadline), and any error at all, whose
//! message git then gives.

use std::collections::{BinaryHeap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::{BStr, ByteSlice as _};
use gix::prelude::{Find as _, FindExt as _};
use jiff::Timestamp;

use super::Repo;
use crate::Env;

/// Whether the environment lets the in-process reader stand in for git at all: none of
/// the variables that make git read objects, refs or the index from elsewhere, or
/// rewrite history, is set.
pub(crate) fn environment_allows(env: &Env) -> bool {
    env.var("GIT_NAMESPACE").is_none()
        && env.var("GIT_OBJECT_DIRECTORY").is_none()
        && env.var("GIT_ALTERNATE_OBJECT_DIRECTORIES").is_none()
        && env.var("GIT_REPLACE_REF_BASE").is_none()
        && env.var("GIT_NO_REPLACE_OBJECTS").is_none()
        && env.var("GIT_SHALLOW_FILE").is_none()
        && env.var("GIT_GRAFT_FILE").is_none()
        && env.var("GIT_INDEX_FILE").is_none()
}

/// Sections of git's configuration that change what the listing shows.
const LISTING_SECTIONS: [&str; 5] = ["mailmap", "i18n", "include", "includeif", "extensions"];

/// A repository opened for reading in process: its layout and configuration allow it
/// (see the module doc), checked once for the listing, the line counts and the
/// work-tree check alike.
pub(crate) struct Reader<'a> {
    repo: &'a Repo,
    repository: gix::Repository,
}

impl<'a> Reader<'a> {
    /// Opens the repository, or `None` when git must be asked.
    pub(crate) fn open(repo: &'a Repo) -> Option<Reader<'a>> {
        let work_tree = repo.project.path.as_path();
        if !plain_layout(work_tree, &repo.git_dir) {
            return None;
        }
        let mut repository = gix::open_opts(work_tree, gix::open::Options::isolated()).ok()?;
        // The repository discovery found, and no other (a `.git` file leading elsewhere).
        // (`repo.git_dir` is canonical, and so is the work tree gix was given: a `.git`
        // folder there is found under that very path, a `.git` file leads elsewhere.)
        let same = repository.common_dir() == repo.git_dir
            || fs_err::canonicalize(repository.common_dir()).is_ok_and(|dir| dir == repo.git_dir);
        if !same || !plain_config(&repository) {
            return None;
        }
        repository.object_cache_size_if_unset(4 << 20);
        Some(Reader { repo, repository })
    }

    /// Lists the commits with committer dates at or after `bound` in the layout of
    /// [`super::log`]'s output, with how many of them were found only below a commit
    /// dated before the bound; or `None` when git must be asked.
    pub(crate) fn log(&self, bound: Timestamp) -> Option<(Vec<u8>, u64)> {
        list(&self.repository, bound.as_second())
    }
}

/// The checks that need no more than `stat`, a folder listing and one small read.
fn plain_layout(work_tree: &Path, git_dir: &Path) -> bool {
    let kind = |path: &Path| fs_err::symlink_metadata(path).map(|meta| meta.file_type());
    let regular = |path: &Path| kind(path).is_ok_and(|kind| kind.is_file());
    let absent =
        |path: &Path| kind(path).is_err_and(|error| error.kind() == std::io::ErrorKind::NotFound);
    let regular_or_absent = |path: &Path| regular(path) || absent(path);
    let owned = |path: &Path| {
        gix::sec::Trust::from_path_ownership(path).is_ok_and(|trust| trust == gix::sec::Trust::Full)
    };
    work_tree.is_dir()
        && work_tree.join(".git").exists()
        && owned(work_tree)
        && owned(git_dir)
        && regular(&git_dir.join("HEAD"))
        && regular_or_absent(&git_dir.join("config"))
        && regular_or_absent(&git_dir.join("packed-refs"))
        && regular_or_absent(&work_tree.join(".mailmap"))
        && [
            "shallow",
            "info/grafts",
            "objects/info/alternates",
            "reftable",
            "refs/replace",
            "commondir",
        ]
        .iter()
        .all(|name| absent(&git_dir.join(name)))
        && no_linked_worktrees(git_dir)
        && valid_head(git_dir)
        && only_regular_files(&git_dir.join("refs"), 8)
        && only_regular_files(&git_dir.join("objects"), 2)
}

fn no_linked_worktrees(git_dir: &Path) -> bool {
    match fs_err::read_dir(git_dir.join("worktrees")) {
        Ok(mut entries) => entries.next().is_none(),
        Err(error) => error.kind() == std::io::ErrorKind::NotFound,
    }
}

/// `HEAD` as git accepts it for a repository: a symbolic ref into `refs/`, or an object
/// id. Anything else git calls "not a git repository", and says so.
fn valid_head(git_dir: &Path) -> bool {
    let Ok(text) = crate::fsread::read_small_text(&git_dir.join("HEAD"), 4096) else {
        return false;
    };
    let text = text.trim_end();
    text.strip_prefix("ref: refs/").is_some_and(|rest| !rest.is_empty() && !rest.contains('\n'))
        || (text.len() == 40 && text.bytes().all(|byte| byte.is_ascii_hexdigit()))
}

/// Whether every entry below `dir` (folders `depth` levels down) is a folder or a
/// regular file: the reader opens them without the non-blocking guard of
/// [`crate::fsread`].
fn only_regular_files(dir: &Path, depth: usize) -> bool {
    let entries = match fs_err::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) => return error.kind() == std::io::ErrorKind::NotFound,
    };
    for entry in entries {
        let Ok(entry) = entry else { return false };
        let Ok(kind) = entry.file_type() else { return false };
        if kind.is_dir() {
            if depth == 0 || !only_regular_files(&entry.path(), depth - 1) {
                return false;
            }
        } else if !kind.is_file() {
            return false;
        }
    }
    true
}

/// The repository's own configuration changes nothing of the listing.
fn plain_config(repository: &gix::Repository) -> bool {
    let config = repository.config_snapshot();
    let file = config.plumbing();
    let listing = file.sections().any(|section| {
        let name = section.header().name().to_str_lossy().to_ascii_lowercase();
        LISTING_SECTIONS.contains(&name.as_str())
    });
    let core = |key: &str| file.string_by("core", None, key).is_some();
    !listing
        && !core("worktree")
        && !core("useReplaceRefs")
        && !config.boolean("core.bare").unwrap_or(false)
        && repository.workdir().is_some()
}

/// How many parents of commits dated before the bound the walk may decode per
/// repository, looking for a parent dated later than its child (a clock that went back).
/// Each boundary commit (an old tip, the last commit of a line before the window) costs
/// one look per parent; a repository with more of them than this has its extra look
/// stop there.
pub(crate) const SKEW_LOOKS: usize = 512;

/// One commit of the walk, decoded once.
struct Node {
    committer_time: i64,
    parents: Vec<ObjectId>,
    line: Line,
    /// Reached only through a commit dated before the bound.
    below_skew: bool,
}

/// The fields of a commit's header line but its hash, parents and decorations.
struct Line {
    author_time: i64,
    email: Vec<u8>,
    name: Vec<u8>,
    mapped_email: Vec<u8>,
    mapped_name: Vec<u8>,
    subject: Vec<u8>,
}

/// The walk of [`list`] from `tips`: the commits listed, in order, every node decoded,
/// and how many listed commits were found only below a commit dated before `bound`.
type Walked = (Vec<ObjectId>, HashMap<ObjectId, Node>, u64);

fn walk(
    repository: &gix::Repository,
    mailmap: &gix::mailmap::Snapshot,
    tips: Vec<ObjectId>,
    bound: i64,
) -> Option<Walked> {
    let mut buffer = Vec::new();
    let mut nodes: HashMap<ObjectId, Node> = HashMap::new();
    // Newest committer date first; equal dates in the order they were queued, as git's
    // date-ordered list does.
    let mut queue: BinaryHeap<(i64, std::cmp::Reverse<u64>, ObjectId)> = BinaryHeap::new();
    let mut queued = 0u64;
    for tip in tips {
        if nodes.contains_key(&tip) {
            continue;
        }
        let object = repository.objects.try_find(&tip, &mut buffer).ok()??;
        if object.kind != gix::object::Kind::Commit {
            // git lists commits only; a ref to a tree or a blob is passed over.
            continue;
        }
        let node = decode(repository, mailmap, tip, &mut buffer)?;
        queue.push((node.committer_time, std::cmp::Reverse(queued), tip));
        queued += 1;
        nodes.insert(tip, node);
    }
    let mut listed: Vec<ObjectId> = Vec::new();
    let mut below_skew = 0u64;
    let mut looks = 0usize;
    // Parents decoded below an old commit and not followed (a later path may want them).
    let mut seen_below: HashMap<ObjectId, Node> = HashMap::new();
    while let Some((time, _, id)) = queue.pop() {
        let old = time < bound;
        let (parents, skewed) = {
            let node = nodes.get(&id)?;
            if !old {
                listed.push(id);
                below_skew += u64::from(node.below_skew);
            } else if node.line.author_time >= bound {
                // Committed with a clock that went back, but authored in the window.
                listed.push(id);
                below_skew += 1;
            }
            (node.parents.clone(), node.below_skew || old)
        };
        for parent in parents {
            if nodes.contains_key(&parent) {
                continue;
            }
            let mut node = match seen_below.remove(&parent) {
                Some(node) => node,
                None if old && looks >= SKEW_LOOKS => continue,
                None => {
                    looks += usize::from(old);
                    decode(repository, mailmap, parent, &mut buffer)?
                }
            };
            // Below an old commit only a parent dated later than it is followed.
            if old && node.committer_time <= time {
                seen_below.insert(parent, node);
                continue;
            }
            node.below_skew = skewed;
            queue.push((node.committer_time, std::cmp::Reverse(queued), parent));
            queued += 1;
            nodes.insert(parent, node);
        }
    }

    Some((listed, nodes, below_skew))
}

fn list(repository: &gix::Repository, bound: i64) -> Option<(Vec<u8>, u64)> {
    let mailmap = repository.open_mailmap();
    // Tips: every ref but the stash, peeled, and HEAD (unborn: none).
    let mut tips: Vec<ObjectId> = Vec::new();
    let mut decorations: HashMap<ObjectId, Vec<String>> = HashMap::new();
    let references = repository.references().ok()?;
    // Read once for all the refs (`peel_to_id` would check `packed-refs` again for each).
    let packed = repository.refs.cached_packed_buffer().ok()?;
    for reference in references.all().ok()? {
        let mut reference = reference.ok()?;
        let name = reference.name().as_bstr().to_str().ok()?.to_owned();
        if name == "refs/stash" {
            continue;
        }
        let id =
            reference.peel_to_id_packed(packed.as_ref().map(|buffer| &***buffer)).ok()?.detach();
        if name.starts_with("refs/heads/") || name.starts_with("refs/remotes/") {
            decorations.entry(id).or_default().push(name);
        }
        tips.push(id);
    }
    let head = repository.head().ok()?;
    if !head.is_unborn() {
        tips.push(head.id()?.detach());
    }

    let (listed, nodes, below_skew) = walk(repository, &mailmap, tips, bound)?;

    let mut out = Vec::new();
    for id in listed {
        let node = nodes.get(&id)?;
        let line = &node.line;
        let author_time = Timestamp::from_second(line.author_time).ok()?;
        let mut refs: Vec<&str> = decorations
            .get(&id)
            .map(|names| names.iter().map(String::as_str).collect())
            .unwrap_or_default();
        refs.sort_unstable();
        let parents: Vec<String> = node.parents.iter().map(ToString::to_string).collect();
        out.extend_from_slice(b"\0\0");
        out.extend_from_slice(id.to_string().as_bytes());
        for field in [
            parents.join(" ").as_bytes(),
            refs.join(", ").as_bytes(),
            author_time.to_string().as_bytes(),
            &line.email,
            &line.name,
            &line.mapped_email,
            &line.mapped_name,
            &line.subject,
        ] {
            out.push(0);
            out.extend_from_slice(field);
        }
        out.push(b'\n');
    }
    Some((out, below_skew))
}

/// Decodes one commit: `None` for anything git would print otherwise (a commit in
/// another encoding, a field holding a NUL or a newline) or cannot be read.
fn decode(
    repository: &gix::Repository,
    mailmap: &gix::mailmap::Snapshot,
    id: ObjectId,
    buffer: &mut Vec<u8>,
) -> Option<Node> {
    let commit = repository.objects.find_commit(&id, buffer).ok()?;
    if commit.encoding.is_some_and(|encoding| {
        !(encoding.eq_ignore_ascii_case(b"utf-8") || encoding.eq_ignore_ascii_case(b"utf8"))
    }) {
        return None;
    }
    let author = commit.author().ok()?;
    let committer = commit.committer().ok()?;
    let author_time = author.time().ok()?.seconds;
    let committer_time = committer.time().ok()?.seconds;
    let mapped = mailmap.resolve(author);
    let subject = subject(commit.message);
    let fields: [&[u8]; 5] = [author.email, author.name, &mapped.email, &mapped.name, &subject];
    if fields.iter().any(|field| field.contains(&0) || field.contains(&b'\n')) {
        return None;
    }
    Some(Node {
        committer_time,
        parents: commit.parents().collect(),
        line: Line {
            author_time,
            email: author.email.to_vec(),
            name: author.name.to_vec(),
            mapped_email: mapped.email.to_vec(),
            mapped_name: mapped.name.to_vec(),
            subject,
        },
        below_skew: false,
    })
}

/// git's `%s`: after any blank lines, the lines of the first paragraph, each without its
/// trailing white space, joined by a space (`format_subject` in git's `pretty.c`).
fn subject(message: &BStr) -> Vec<u8> {
    let mut lines = message.split(|&byte| byte == b'\n').peekable();
    while lines.next_if(|line| is_blank(line)).is_some() {}
    let mut out: Vec<u8> = Vec::new();
    for (index, line) in lines.take_while(|line| !is_blank(line)).enumerate() {
        if index > 0 {
            out.push(b' ');
        }
        out.extend_from_slice(line.trim_end_with(|c| c.is_ascii_whitespace()));
    }
    out
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

impl Reader<'_> {
    /// Whether `git status` of the repository's main work tree would name no file that
    /// [`super::wip`] keeps (one modified at or after `since`), told without a process; `false`
    /// means "ask git" (it may well be clean). True only when all of this holds:
    ///
    /// - every index entry is a plain file or link at stage 0 (no conflict, submodule,
    ///   sparse, skip-worktree or intent-to-add entry), and its `lstat` matches the stat data
    ///   the index recorded in every field git may compare, and was not written in the same
    ///   instant as the index or later (git's "racily clean" case, where git reads the
    ///   content): git then sees no change in the work tree;
    /// - the index's cache tree is valid and is `HEAD`'s tree: nothing is staged;
    /// - every entry of a tracked folder that the index does not hold (an untracked or
    ///   ignored file or folder, which `status` would name as is, or as `folder/`) was
    ///   modified before `since`, so the work-in-progress reader would leave it out anyway.
    ///
    /// Reading the index and a `stat` per file costs a fraction of a `git status` process.
    pub(crate) fn worktree_unchanged_since(&self, since: Timestamp) -> bool {
        use std::os::unix::fs::MetadataExt as _;

        let repo = self.repo;

        let work_tree = repo.project.path.as_path();
        let index_path = repo.git_dir.join("index");
        let index_meta = match fs_err::symlink_metadata(&index_path) {
            Ok(meta) => meta,
            // No index (a clone without a checkout): `status` names every file of `HEAD` as
            // deleted from the index, each dated by its own path, and every file of the work
            // tree as untracked; with nothing in the work tree, nothing is kept.
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return fs_err::read_dir(work_tree).is_ok_and(|entries| {
                    entries.filter_map(Result::ok).all(|entry| entry.file_name() == ".git")
                });
            }
            Err(_) => return false,
        };
        if !index_meta.file_type().is_file() {
            return false;
        }
        let repository = &self.repository;
        if repository.workdir().is_none() {
            return false;
        }
        let options = gix::index::decode::Options { thread_limit: Some(1), ..Default::default() };
        let Ok(index) = gix::index::File::at(&index_path, gix::hash::Kind::Sha1, false, options)
        else {
            return false;
        };
        let Ok(head_tree) = repository.head_tree_id() else { return false };
        let staged_nothing = index.tree().is_some_and(|tree| {
            tree.num_entries.is_some_and(|count| count as usize == index.entries().len())
                && tree.id == head_tree.detach()
        });
        if !staged_nothing || index.link().is_some() || index.is_sparse() {
            return false;
        }
        let index_time = (index_meta.mtime(), index_meta.mtime_nsec());
        let mut tracked: std::collections::HashSet<&[u8]> = std::collections::HashSet::new();
        for entry in index.entries() {
            let unusual = gix::index::entry::Flags::EXTENDED
                | gix::index::entry::Flags::SKIP_WORKTREE
                | gix::index::entry::Flags::INTENT_TO_ADD;
            if entry.flags.intersects(unusual) || entry.stage_raw() != 0 {
                return false;
            }
            let path: &[u8] = entry.path(&index);
            let file =
                work_tree.join(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(path));
            let Ok(meta) = fs_err::symlink_metadata(file) else { return false };
            let kind_matches = match entry.mode {
                gix::index::entry::Mode::FILE => {
                    meta.file_type().is_file() && meta.mode() & 0o100 == 0
                }
                gix::index::entry::Mode::FILE_EXECUTABLE => {
                    meta.file_type().is_file() && meta.mode() & 0o100 != 0
                }
                gix::index::entry::Mode::SYMLINK => meta.file_type().is_symlink(),
                _ => false,
            };
            let stat = &entry.stat;
            // git keeps the low 32 bits of each field.
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "as git stores them"
            )]
            let matches = kind_matches
                && stat.mtime.secs == meta.mtime() as u32
                && stat.mtime.nsecs == meta.mtime_nsec() as u32
                && stat.ctime.secs == meta.ctime() as u32
                && stat.ctime.nsecs == meta.ctime_nsec() as u32
                && stat.ino == meta.ino() as u32
                && stat.uid == meta.uid()
                && stat.gid == meta.gid()
                && stat.size == meta.size() as u32;
            let racy = (i64::from(stat.mtime.secs), i64::from(stat.mtime.nsecs)) >= index_time;
            if !matches || racy {
                return false;
            }
            tracked.insert(path);
            let mut end = path.len();
            while let Some(slash) = path[..end].iter().rposition(|&byte| byte == b'/') {
                if !tracked.insert(&path[..slash]) {
                    break;
                }
                end = slash;
            }
        }
        let bound = std::time::SystemTime::from(since);
        // git's ignore rules (`.gitignore` files, `info/exclude`, the repository's own
        // `core.excludesFile`): an ignored entry is never named by `git status`, however
        // new (build output). Without them every new untracked entry asks git.
        let mut excludes = repository
            .excludes(&index, None, gix::worktree::stack::state::ignore::Source::default())
            .ok();
        untracked_all_older(work_tree, b"", &tracked, bound, &mut excludes)
    }
}

/// Whether every entry of the tracked folder `dir` (relative, `b""` for the top) that
/// the index does not hold was modified before `bound` or is ignored by git's rules
/// (`excludes`, when they could be read); tracked folders are entered.
fn untracked_all_older(
    work_tree: &Path,
    dir: &[u8],
    tracked: &std::collections::HashSet<&[u8]>,
    bound: std::time::SystemTime,
    excludes: &mut Option<gix::AttributeStack<'_>>,
) -> bool {
    use std::os::unix::ffi::OsStrExt as _;

    let folder = if dir.is_empty() {
        work_tree.to_path_buf()
    } else {
        work_tree.join(std::ffi::OsStr::from_bytes(dir))
    };
    let Ok(entries) = fs_err::read_dir(&folder) else { return false };
    for entry in entries {
        let Ok(entry) = entry else { return false };
        let name = entry.file_name();
        let name = name.as_bytes();
        if dir.is_empty() && name == b".git" {
            continue;
        }
        let relative: Vec<u8> =
            if dir.is_empty() { name.to_vec() } else { [dir, b"/", name].concat() };
        let Ok(kind) = entry.file_type() else { return false };
        if tracked.contains(relative.as_slice()) {
            if kind.is_dir() && !untracked_all_older(work_tree, &relative, tracked, bound, excludes)
            {
                return false;
            }
            continue;
        }
        let old = fs_err::symlink_metadata(entry.path())
            .and_then(|meta| meta.modified())
            .is_ok_and(|modified| modified < bound);
        if !old && !ignored(excludes, &relative, kind.is_dir()) {
            return false;
        }
    }
    true
}

/// Whether git's ignore rules exclude the untracked entry `relative` (a folder when
/// `is_dir`); `false` when the rules could not be read or asked, so git is asked.
fn ignored(excludes: &mut Option<gix::AttributeStack<'_>>, relative: &[u8], is_dir: bool) -> bool {
    use gix::bstr::ByteSlice as _;

    let Some(stack) = excludes.as_mut() else { return false };
    let mode = is_dir.then_some(gix::index::entry::Mode::DIR);
    stack.at_entry(relative.as_bstr(), mode).is_ok_and(|platform| platform.is_excluded())
}

impl Reader<'_> {
    /// `--numstat` totals (files, insertions, deletions) of the given commits by hash,
    /// counted in process, or `None` when git must count them. Only counts that git's
    /// `git log --no-walk --numstat --find-renames` is bound to give are counted here; any
    /// other commit sends the whole batch to git:
    ///
    /// - a file added or deleted counts its lines (a binary file, with a NUL in its first
    ///   8,000 bytes as git looks, counts none), and a commit that adds and deletes files is
    ///   left to git, whose rename detection could pair them;
    /// - a modified file is compared line by line after its common first and last lines are
    ///   set aside, as git's diff does first: when what is left is lines added only, lines
    ///   deleted only, or two blocks that share no line, every diff of the two is that many
    ///   lines deleted and added, so git's is too; otherwise (edits in two places of a file,
    ///   say) git counts;
    /// - a mode change alone is a file with no lines; a type change, a submodule, a file
    ///   over 8 MiB, a `.gitattributes` in a tree on the way (its `diff` or `binary`
    ///   attributes change what git counts) or a commit with more than one parent is left to
    ///   git.
    pub(crate) fn numstats(&self, hashes: &[&str]) -> Option<HashMap<String, (u64, u64, u64)>> {
        let repo = self.repo;
        let work_tree = repo.project.path.as_path();
        let kind = |path: &Path| fs_err::symlink_metadata(path).map(|meta| meta.file_type());
        if kind(&repo.git_dir.join("info/attributes")).is_ok() {
            return None;
        }
        let repository = &self.repository;
        if !plain_diff_config(repository) {
            return None;
        }
        let mut stats = HashMap::new();
        let mut buffer = Vec::new();
        let mut plain_dirs = HashSet::new();
        for hash in hashes {
            let id = ObjectId::from_hex(hash.as_bytes()).ok()?;
            let (tree, parents) = {
                let commit = repository.objects.find_commit(&id, &mut buffer).ok()?;
                (commit.tree(), commit.parents().collect::<Vec<_>>())
            };
            let parent_tree = match parents.as_slice() {
                [] => None,
                [parent] => Some(repository.objects.find_commit(parent, &mut buffer).ok()?.tree()),
                _ => return None,
            };
            let mut counts = Counts::default();
            let mut walk = TreeWalk {
                repository,
                work_tree,
                dir: PathBuf::new(),
                counts: &mut counts,
                plain_dirs: &mut plain_dirs,
            };
            walk.diff(parent_tree, Some(tree))?;
            if counts.added && counts.deleted {
                return None;
            }
            stats.insert((*hash).to_owned(), (counts.files, counts.insertions, counts.deletions));
        }
        Some(stats)
    }
}

/// The repository's own configuration changes nothing of what `--numstat` counts.
fn plain_diff_config(repository: &gix::Repository) -> bool {
    let config = repository.config_snapshot();
    let file = config.plumbing();
    let diff = file.sections().any(|section| section.header().name().eq_ignore_ascii_case(b"diff"));
    !diff
        && file.string_by("core", None, "attributesFile").is_none()
        && file.string_by("core", None, "bigFileThreshold").is_none()
        && file.string_by("log", None, "showRoot").is_none()
}

#[derive(Default)]
struct Counts {
    files: u64,
    insertions: u64,
    deletions: u64,
    added: bool,
    deleted: bool,
}

/// The largest blob counted in process.
const BLOB_MAX: u64 = 8 << 20;

/// The deepest folder a tree diff enters before leaving the commit to git.
const TREE_DEPTH_MAX: usize = 256;

/// A diff of two trees of one commit.
struct TreeWalk<'a> {
    repository: &'a gix::Repository,
    work_tree: &'a Path,
    /// The folder of the trees being compared, relative to the top.
    dir: PathBuf,
    counts: &'a mut Counts,
    /// The folders of the work tree already seen to hold no `.gitattributes` (the
    /// commits of one read share it).
    plain_dirs: &'a mut HashSet<PathBuf>,
}

/// A tree entry: its mode and object.
type TreeEntry = (gix::objs::tree::EntryMode, ObjectId);

impl TreeWalk<'_> {
    /// Adds the changes between two trees (`None`: the empty tree) to the counts; `None`
    /// when git must count. git takes attributes from the work tree as well as from
    /// `.gitattributes` files: one in either tree, or in the work tree's folder of the
    /// same name, leaves the commit to git.
    fn diff(&mut self, old: Option<ObjectId>, new: Option<ObjectId>) -> Option<()> {
        if self.dir.components().count() > TREE_DEPTH_MAX {
            return None;
        }
        if !self.plain_dirs.contains(&self.dir) {
            let attributes = self.work_tree.join(&self.dir).join(".gitattributes");
            if fs_err::symlink_metadata(&attributes).is_ok() {
                return None;
            }
            self.plain_dirs.insert(self.dir.clone());
        }
        let (old, new) = (self.read(old)?, self.read(new)?);
        let name = b".gitattributes".as_slice();
        if old.contains_key(name) || new.contains_key(name) {
            return None;
        }
        let names: std::collections::BTreeSet<&Vec<u8>> = old.keys().chain(new.keys()).collect();
        for name in names {
            let (before, after) = (old.get(name), new.get(name));
            if before == after {
                continue;
            }
            let is_tree = |entry: Option<&TreeEntry>| entry.is_some_and(|(mode, _)| mode.is_tree());
            if is_tree(before) || is_tree(after) {
                self.diff_folder(name, before, after)?;
            } else {
                self.diff_file(before, after)?;
            }
        }
        Some(())
    }

    /// A folder on both sides, added or deleted; a file replaced by a folder (or back) is
    /// left to git.
    fn diff_folder(
        &mut self,
        name: &[u8],
        before: Option<&TreeEntry>,
        after: Option<&TreeEntry>,
    ) -> Option<()> {
        let subtree = |entry: Option<&TreeEntry>| match entry {
            None => Some(None),
            Some((mode, id)) if mode.is_tree() => Some(Some(*id)),
            Some(_) => None,
        };
        let (old_tree, new_tree) = (subtree(before)?, subtree(after)?);
        self.dir.push(<std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(name));
        let done = self.diff(old_tree, new_tree);
        self.dir.pop();
        done
    }

    /// A file modified, added or deleted; a type change or a submodule is left to git.
    fn diff_file(&mut self, before: Option<&TreeEntry>, after: Option<&TreeEntry>) -> Option<()> {
        let repository = self.repository;
        match (before, after) {
            (Some((before_mode, before)), Some((after_mode, after))) => {
                let same_kind = before_mode.is_link() == after_mode.is_link()
                    && before_mode.is_blob_or_symlink()
                    && after_mode.is_blob_or_symlink();
                if !same_kind {
                    return None;
                }
                self.counts.files += 1;
                if before != after {
                    let (deleted, inserted) =
                        modified_lines(&blob(repository, *before)?, &blob(repository, *after)?)?;
                    self.counts.deletions += deleted;
                    self.counts.insertions += inserted;
                }
            }
            (None, Some((mode, id))) if mode.is_blob_or_symlink() => {
                self.counts.files += 1;
                self.counts.insertions += line_count(&blob(repository, *id)?);
                self.counts.added = true;
            }
            (Some((mode, id)), None) if mode.is_blob_or_symlink() => {
                self.counts.files += 1;
                self.counts.deletions += line_count(&blob(repository, *id)?);
                self.counts.deleted = true;
            }
            _ => return None,
        }
        Some(())
    }

    /// A tree's entries by name (`None`: the empty tree).
    fn read(&self, id: Option<ObjectId>) -> Option<std::collections::BTreeMap<Vec<u8>, TreeEntry>> {
        let Some(id) = id else { return Some(std::collections::BTreeMap::new()) };
        let mut buffer = Vec::new();
        let tree = self.repository.objects.find_tree(&id, &mut buffer).ok()?;
        Some(
            tree.entries
                .iter()
                .map(|entry| (entry.filename.to_vec(), (entry.mode, entry.oid.to_owned())))
                .collect(),
        )
    }
}

/// A blob's bytes, when it is no larger than [`BLOB_MAX`].
fn blob(repository: &gix::Repository, id: ObjectId) -> Option<Vec<u8>> {
    if repository.find_header(id).ok()?.size() > BLOB_MAX {
        return None;
    }
    let mut buffer = Vec::new();
    repository.objects.find_blob(&id, &mut buffer).ok()?;
    Some(buffer)
}

/// Whether git diffs `data` as binary: a NUL in its first 8,000 bytes.
fn is_binary(data: &[u8]) -> bool {
    data[..data.len().min(8000)].contains(&0)
}

/// The lines of a text blob (a last line without a newline counts); none for a binary
/// one.
fn line_count(data: &[u8]) -> u64 {
    if is_binary(data) {
        return 0;
    }
    lines(data).count() as u64
}

fn lines(data: &[u8]) -> impl Iterator<Item = &[u8]> {
    data.split_inclusive(|&byte| byte == b'\n')
}

/// (deleted, inserted) lines of a modified file when every diff of the two gives the
/// same counts (see [`Reader::numstats`]); `None` when only git can say.
fn modified_lines(before: &[u8], after: &[u8]) -> Option<(u64, u64)> {
    if is_binary(before) || is_binary(after) {
        return Some((0, 0));
    }
    let old: Vec<&[u8]> = lines(before).collect();
    let new: Vec<&[u8]> = lines(after).collect();
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let room = old.len().min(new.len()) - prefix;
    let suffix =
        old.iter().rev().zip(new.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
    let old_block = &old[prefix..old.len() - suffix];
    let new_block = &new[prefix..new.len() - suffix];
    let shared = if old_block.is_empty() || new_block.is_empty() {
        false
    } else {
        let seen: std::collections::HashSet<&[u8]> = old_block.iter().copied().collect();
        new_block.iter().any(|line| seen.contains(line))
    };
    (!shared).then_some((old_block.len() as u64, new_block.len() as u64))
}

/// The records of a listing, for comparing two of them: by hash, the parents, the
/// `refs/heads/` and `refs/remotes/` decorations (sorted), the author time and the
/// author fields.
#[cfg(test)]
pub(crate) fn records(stdout: &[u8]) -> std::collections::BTreeMap<String, Vec<String>> {
    super::records(stdout)
        .into_iter()
        .map(|(header, _)| {
            let fields: Vec<String> = header
                .splitn(9, |&byte| byte == 0)
                .map(|field| String::from_utf8_lossy(field).into_owned())
                .collect();
            let mut refs: Vec<&str> = fields[2]
                .split(", ")
                .map(|name| name.rsplit(" -> ").next().unwrap_or(name))
                .filter(|name| name.starts_with("refs/heads/") || name.starts_with("refs/remotes/"))
                .collect();
            refs.sort_unstable();
            let time =
                fields[3].parse::<Timestamp>().map(|time| time.to_string()).unwrap_or_default();
            let mut record = vec![fields[1].clone(), refs.join(", "), time];
            record.extend(fields[4..].iter().cloned());
            (fields[0].clone(), record)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use jiff::Timestamp;

    use super::*;
    use crate::git::{Identity, ReadOptions};

    fn log(repo: &Repo, bound: Timestamp) -> Option<Vec<u8>> {
        Reader::open(repo)?.log(bound).map(|(listed, _)| listed)
    }

    fn numstats(repo: &Repo, hashes: &[&str]) -> Option<HashMap<String, (u64, u64, u64)>> {
        Reader::open(repo)?.numstats(hashes)
    }

    fn worktree_unchanged_since(repo: &Repo, since: Timestamp) -> bool {
        Reader::open(repo).is_some_and(|reader| reader.worktree_unchanged_since(since))
    }

    /// Runs git in `dir` with a pinned home, identity and dates (`date` for both the
    /// author and the committer unless `extra` sets them).
    fn git(dir: &Path, date: &str, args: &[&str], extra: &[(&str, &str)]) -> String {
        #[expect(clippy::disallowed_methods, reason = "the test builds real repositories")]
        let mut command = std::process::Command::new("git");
        command
            .args(args)
            .current_dir(dir)
            .env("HOME", dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "Dev One")
            .env("GIT_AUTHOR_EMAIL", "dev@example.com")
            .env("GIT_COMMITTER_NAME", "Dev One")
            .env("GIT_COMMITTER_EMAIL", "dev@example.com")
            .env("GIT_AUTHOR_DATE", date)
            .env("GIT_COMMITTER_DATE", date);
        for (name, value) in extra {
            command.env(name, value);
        }
        let output = command.output().unwrap();
        assert!(
            output.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).trim().to_owned()
    }

    fn commit(dir: &Path, date: &str, file: &str, message: &str) {
        fs_err::write(dir.join(file), format!("{message}\n{date}\n")).unwrap();
        git(dir, date, &["add", "--", file], &[]);
        git(dir, date, &["commit", "-q", "--cleanup=verbatim", "-m", message], &[]);
    }

    fn repo_at(path: &Path) -> Repo {
        let path = path.canonicalize().unwrap();
        Repo {
            project: report_model::ProjectRef {
                name: path.file_name().unwrap().to_string_lossy().into_owned(),
                path: path.clone(),
            },
            git_dir: path.join(".git"),
        }
    }

    /// The listing as `git log` gives it, in [`records`] form.
    fn by_git(repo: &Repo, since: Timestamp) -> std::collections::BTreeMap<String, Vec<String>> {
        let env = Env::new(&repo.project.path);
        let identity = Identity::default();
        let options = ReadOptions {
            identity: &identity,
            since,
            include_merges: true,
            workers: 1,
            timeout: crate::git::DEFAULT_TIMEOUT,
            outside: None,
        };
        records(&crate::git::log(&env, repo, &options).unwrap().0)
    }

    fn init(dir: &Path) -> PathBuf {
        fs_err::create_dir_all(dir).unwrap();
        git(dir, "2026-11-01T09:00:00+09:00", &["init", "-q", "-b", "main"], &[]);
        dir.to_path_buf()
    }

    /// The window the tests read: from 2026-11-27 00:00 JST (the listing starts a day
    /// earlier, at 2026-11-25T15:00:00Z).
    fn since() -> Timestamp {
        "2026-11-26T15:00:00Z".parse().unwrap()
    }

    /// A repository with branches, a merge, remotes, tags of every kind, a stash, notes,
    /// a `.mailmap`, commits before and after the bound (one exactly on it), an author
    /// date far before its committer date, and subjects that test `%s`'s rules.
    fn rich(dir: &Path) -> Repo {
        let upstream = init(&dir.join("upstream"));
        commit(&upstream, "2026-10-01T09:00:00+09:00", "a.txt", "very old base");
        commit(&upstream, "2026-11-24T09:00:00+09:00", "a.txt", "old, before the bound");
        commit(&upstream, "2026-11-26T00:00:00+09:00", "a.txt", "exactly on the bound");
        git(dir, "2026-11-26T01:00:00+09:00", &["clone", "-q", "upstream", "app"], &[]);
        let app = dir.join("app");
        commit(&app, "2026-11-26T10:00:00+09:00", "b.txt", "Fix the parser\n\nBody text.");
        commit(
            &app,
            "2026-11-27T09:00:00+09:00",
            "b.txt",
            "\n\n   leading blank lines  \nand a second line\t\n \nnot in the subject",
        );
        git(&app, "2026-11-27T09:30:00+09:00", &["checkout", "-q", "-b", "feature"], &[]);
        commit(&app, "2026-11-27T10:00:00+09:00", "c.txt", "パーサーを直す");
        git(&app, "2026-11-27T10:30:00+09:00", &["checkout", "-q", "main"], &[]);
        commit(&app, "2026-11-27T11:00:00+09:00", "d.txt", "on main meanwhile");
        git(
            &app,
            "2026-11-27T12:00:00+09:00",
            &["merge", "-q", "--no-ff", "-m", "Merge branch 'feature'", "feature"],
            &[],
        );
        // Authored long ago, committed (rebased) in the window.
        fs_err::write(app.join("e.txt"), "e\n").unwrap();
        git(&app, "2026-11-27T13:00:00+09:00", &["add", "e.txt"], &[]);
        git(
            &app,
            "2026-11-27T13:00:00+09:00",
            &["commit", "-q", "-m", "authored in October"],
            &[("GIT_AUTHOR_DATE", "2026-10-15T09:00:00+09:00")],
        );
        // A colleague, mapped by the work tree's `.mailmap`.
        fs_err::write(app.join("f.txt"), "f\n").unwrap();
        git(&app, "2026-11-27T14:00:00+09:00", &["add", "f.txt"], &[]);
        git(
            &app,
            "2026-11-27T14:00:00+09:00",
            &["commit", "-q", "-m", "a colleague's commit"],
            &[("GIT_AUTHOR_NAME", "colleague"), ("GIT_AUTHOR_EMAIL", "Old@Example.com")],
        );
        fs_err::write(app.join(".mailmap"), "Col League <col@example.com> <old@example.com>\n")
            .unwrap();
        git(&app, "2026-11-27T15:00:00+09:00", &["tag", "v1"], &[]);
        git(
            &app,
            "2026-11-27T15:00:00+09:00",
            &["tag", "-a", "-m", "annotated", "v2", "HEAD~1"],
            &[],
        );
        git(&app, "2026-11-27T15:00:00+09:00", &["tag", "tree-tag", "HEAD^{tree}"], &[]);
        git(&app, "2026-11-27T15:00:00+09:00", &["notes", "add", "-m", "a note", "HEAD"], &[]);
        fs_err::write(app.join("a.txt"), "changed, then stashed\n").unwrap();
        git(&app, "2026-11-27T16:00:00+09:00", &["stash", "-q"], &[]);
        // A branch whose tip is older than the bound, and one after the window.
        git(&app, "2026-11-27T16:00:00+09:00", &["branch", "stale", "HEAD~4"], &[]);
        git(&app, "2026-11-27T16:00:00+09:00", &["checkout", "-q", "-b", "later"], &[]);
        commit(&app, "2026-11-30T09:00:00+09:00", "g.txt", "after the window");
        git(&app, "2026-11-30T09:00:00+09:00", &["checkout", "-q", "main"], &[]);
        repo_at(&app)
    }

    #[test]
    fn the_listing_in_process_is_the_listing_of_git() {
        let dir = tempfile::tempdir().unwrap();
        let repo = rich(dir.path());
        let expected = by_git(&repo, since());
        let listed = log(&repo, super::super::listing_bound(since())).expect("read in process");
        assert_eq!(records(&listed), expected);
        // The walk did what the fixture is for.
        let subjects: Vec<&str> = expected.values().map(|record| record[7].as_str()).collect();
        for subject in [
            "exactly on the bound",
            "   leading blank lines and a second line",
            "Merge branch 'feature'",
            "authored in October",
            "after the window",
            "Notes added by 'git notes add'",
        ] {
            assert!(subjects.contains(&subject), "{subject:?} not in {subjects:?}");
        }
        assert!(!subjects.contains(&"old, before the bound"), "{subjects:?}");
        assert!(expected.values().any(|record| record[5] == "col@example.com"), "mailmap applied");
        assert!(expected.values().any(|record| record[1].contains("refs/remotes/origin/main")));

        // Packed refs and packed objects read alike.
        git(&repo.project.path, "2026-11-30T10:00:00+09:00", &["gc", "-q"], &[]);
        assert!(repo.git_dir.join("packed-refs").exists());
        let listed = log(&repo, super::super::listing_bound(since())).expect("read in process");
        assert_eq!(records(&listed), by_git(&repo, since()));
    }

    #[test]
    fn detached_and_empty_repositories_list_as_git_does() {
        let dir = tempfile::tempdir().unwrap();
        let empty = repo_at(&init(&dir.path().join("empty")));
        assert_eq!(
            log(&empty, since()).map(|listed| records(&listed)),
            Some(by_git(&empty, since()))
        );

        let path = init(&dir.path().join("detached"));
        commit(&path, "2026-11-27T09:00:00+09:00", "a.txt", "first");
        commit(&path, "2026-11-27T10:00:00+09:00", "a.txt", "second");
        git(&path, "2026-11-27T10:00:00+09:00", &["checkout", "-q", "--detach", "HEAD~1"], &[]);
        commit(&path, "2026-11-27T11:00:00+09:00", "b.txt", "only on the detached HEAD");
        let detached = repo_at(&path);
        let expected = by_git(&detached, since());
        assert_eq!(expected.len(), 3);
        assert_eq!(log(&detached, since()).map(|listed| records(&listed)), Some(expected));
    }

    #[test]
    fn what_the_reader_does_not_copy_is_left_to_git() {
        let dir = tempfile::tempdir().unwrap();
        let make = |name: &str| {
            let path = init(&dir.path().join(name));
            commit(&path, "2026-11-27T09:00:00+09:00", "a.txt", "first");
            commit(&path, "2026-11-27T10:00:00+09:00", "a.txt", "second");
            path
        };
        let plain = make("plain");
        assert!(log(&repo_at(&plain), since()).is_some());

        let configured = make("mailmap-file");
        git(
            &configured,
            "2026-11-27T10:00:00+09:00",
            &["config", "mailmap.file", "/elsewhere"],
            &[],
        );
        let grafted = make("replaced");
        git(&grafted, "2026-11-27T10:00:00+09:00", &["replace", "--graft", "HEAD"], &[]);
        let encoded = make("latin1");
        fs_err::write(encoded.join("b.txt"), "b\n").unwrap();
        git(&encoded, "2026-11-27T11:00:00+09:00", &["add", "b.txt"], &[]);
        git(
            &encoded,
            "2026-11-27T11:00:00+09:00",
            &["-c", "i18n.commitEncoding=ISO-8859-1", "commit", "-q", "-m", "caf\u{e9}"],
            &[],
        );
        let worktrees = make("worktrees");
        git(
            &worktrees,
            "2026-11-27T11:00:00+09:00",
            &["worktree", "add", "-q", "../wt", "-b", "wt"],
            &[],
        );
        git(
            dir.path(),
            "2026-11-27T11:00:00+09:00",
            &["clone", "-q", "--depth", "1", &format!("file://{}", plain.display()), "shallow"],
            &[],
        );
        let shallow = dir.path().join("shallow");
        let fifo = make("fifo");
        let packed = fifo.join(".git/packed-refs");
        #[expect(clippy::disallowed_methods, reason = "the test makes a FIFO")]
        let status = std::process::Command::new("mkfifo").arg(&packed).status().unwrap();
        assert!(status.success());
        let broken = make("broken-head");
        fs_err::write(broken.join(".git/HEAD"), "garbage\n").unwrap();
        for path in [&configured, &grafted, &encoded, &worktrees, &shallow, &fifo, &broken] {
            assert!(
                log(&repo_at(path), since()).is_none(),
                "{} was read in process",
                path.display()
            );
        }
    }

    #[test]
    fn subjects_follow_git_format_subject() {
        let cases: [(&str, &str); 6] = [
            ("one line", "one line"),
            ("one line\n", "one line"),
            ("\n\n  indented\n", "  indented"),
            ("two \nlines\n\nbody", "two lines"),
            ("ends at a blank line\n \t \nbody", "ends at a blank line"),
            ("crlf\r\nline\r\n\r\nbody", "crlf line"),
        ];
        for (message, expected) in cases {
            assert_eq!(subject(message.into()), expected.as_bytes(), "{message:?}");
        }
    }

    /// The files `git status` names that the work-in-progress reader keeps.
    fn wip_by_git(repo: &Repo, since: Timestamp) -> Vec<String> {
        let env = Env::new(&repo.project.path);
        let mut files = Vec::new();
        crate::git::wip::status_files(
            &env,
            (&repo.project.path, ""),
            since,
            crate::git::DEFAULT_TIMEOUT,
            &mut files,
        )
        .unwrap();
        files.into_iter().map(|file| file.path).collect()
    }

    fn touch(path: &Path, date: &str) {
        #[expect(clippy::disallowed_methods, reason = "the test dates a file with coreutils")]
        let status = std::process::Command::new("touch")
            .args(["-h", "-d", date])
            .arg(path)
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// What is done to a work tree, by name.
    type Change = fn(&Path);

    /// (name, what is done to the work tree, `since`, whether it counts as unchanged).
    fn work_tree_cases() -> Vec<(&'static str, Change, Timestamp, bool)> {
        let past: Timestamp = "2020-01-01T00:00:00Z".parse().unwrap();
        let future: Timestamp = "2099-01-01T00:00:00Z".parse().unwrap();
        vec![
            ("clean", |_| {}, past, true),
            ("modified", |path| fs_err::write(path.join("b.txt"), "other\n").unwrap(), past, false),
            (
                "staged",
                |path| {
                    fs_err::write(path.join("b.txt"), "staged\n").unwrap();
                    git(path, "2026-11-27T11:00:00+09:00", &["add", "b.txt"], &[]);
                },
                past,
                false,
            ),
            (
                "deleted",
                |path| fs_err::remove_file(path.join("src/deep/a.txt")).unwrap(),
                past,
                false,
            ),
            (
                "executable",
                |path| {
                    use std::os::unix::fs::PermissionsExt as _;
                    let file = path.join("b.txt");
                    fs_err::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
                },
                past,
                false,
            ),
            (
                "untracked",
                |path| fs_err::write(path.join("src/new.txt"), "new\n").unwrap(),
                past,
                false,
            ),
            // Untracked, but older than the window: status names it, the reader drops it.
            (
                "untracked-old",
                |path| {
                    fs_err::write(path.join("src/new.txt"), "new\n").unwrap();
                    touch(&path.join("src/new.txt"), "2019-06-01");
                },
                past,
                true,
            ),
            // An ignored build folder modified in the window: git names nothing, and
            // neither does the reader, which reads the same ignore rules.
            (
                "ignored",
                |path| {
                    fs_err::create_dir_all(path.join("target/debug")).unwrap();
                    fs_err::write(path.join("target/debug/app"), "binary").unwrap();
                },
                past,
                true,
            ),
            (
                "untracked-future-window",
                |path| fs_err::write(path.join("new.txt"), "n\n").unwrap(),
                future,
                true,
            ),
            // No index and no files: every file of `HEAD` is "deleted", none is kept.
            (
                "no-checkout",
                |path| {
                    fs_err::remove_file(path.join(".git/index")).unwrap();
                    for name in ["src", "b.txt", ".gitignore"] {
                        let entry = path.join(name);
                        if entry.is_dir() {
                            fs_err::remove_dir_all(entry).unwrap();
                        } else {
                            fs_err::remove_file(entry).unwrap();
                        }
                    }
                },
                past,
                true,
            ),
            // No index, a file left: asked of git.
            ("no-index", |path| fs_err::remove_file(path.join(".git/index")).unwrap(), past, false),
        ]
    }

    /// Work trees with new untracked entries that git's ignore rules may hide.
    fn ignore_cases() -> Vec<(&'static str, Change, Timestamp, bool)> {
        let past: Timestamp = "2020-01-01T00:00:00Z".parse().unwrap();
        vec![
            // Ignored through `info/exclude` by a glob, and by a `.gitignore` of a
            // subfolder: nothing named.
            (
                "ignored-exclude-and-nested",
                |path| {
                    fs_err::write(path.join(".git/info/exclude"), "*.log\n").unwrap();
                    fs_err::write(path.join("run.log"), "log").unwrap();
                    fs_err::write(path.join("src/.gitignore"), "*.tmp\n").unwrap();
                    touch(&path.join("src/.gitignore"), "2019-06-01");
                    fs_err::write(path.join("src/deep/x.tmp"), "tmp").unwrap();
                },
                past,
                // `src/.gitignore` is itself untracked, but old.
                true,
            ),
            // A negated pattern brings one new file back: git names it.
            (
                "ignored-but-negated",
                |path| {
                    fs_err::write(path.join(".git/info/exclude"), "*.log\n!keep.log\n").unwrap();
                    fs_err::write(path.join("run.log"), "log").unwrap();
                    fs_err::write(path.join("keep.log"), "log").unwrap();
                },
                past,
                false,
            ),
            // The folder's own files are ignored, not the folder: a new file that no
            // rule matches is named.
            (
                "ignored-sibling-not",
                |path| {
                    fs_err::write(path.join(".git/info/exclude"), "*.o\n").unwrap();
                    fs_err::write(path.join("src/a.o"), "obj").unwrap();
                    fs_err::write(path.join("src/a.c"), "int main;").unwrap();
                },
                past,
                false,
            ),
        ]
    }

    #[test]
    fn a_work_tree_is_unchanged_only_when_git_status_names_nothing_kept() {
        let dir = tempfile::tempdir().unwrap();
        let make = |name: &str| {
            let path = init(&dir.path().join(name));
            fs_err::create_dir_all(path.join("src/deep")).unwrap();
            commit(&path, "2026-11-27T09:00:00+09:00", "src/deep/a.txt", "first");
            commit(&path, "2026-11-27T10:00:00+09:00", "b.txt", "second");
            fs_err::write(path.join(".gitignore"), "target/\n").unwrap();
            git(&path, "2026-11-27T10:00:00+09:00", &["add", ".gitignore"], &[]);
            git(&path, "2026-11-27T10:00:00+09:00", &["commit", "-q", "-m", "ignore"], &[]);
            path
        };
        let cases = work_tree_cases().into_iter().chain(ignore_cases());
        for (name, change, since, unchanged) in cases {
            let path = make(name);
            change(&path);
            let repo = repo_at(&path);
            let kept = wip_by_git(&repo, since);
            assert_eq!(
                worktree_unchanged_since(&repo, since),
                unchanged,
                "{name}: git names {kept:?}"
            );
            if unchanged {
                assert!(kept.is_empty(), "{name}: unchanged, but git names {kept:?}");
            }
        }
    }

    /// A file of a test commit and its new content (`None` deletes it).
    type FileChange<'a> = (&'a str, Option<&'a [u8]>);

    /// Writes the files, stages everything and commits; the hash.
    fn commit_files(dir: &Path, files: &[FileChange<'_>], message: &str) -> String {
        for (name, content) in files {
            let path = dir.join(name);
            match content {
                Some(content) => {
                    fs_err::create_dir_all(path.parent().unwrap()).unwrap();
                    fs_err::write(&path, content).unwrap();
                }
                None => fs_err::remove_file(&path).unwrap(),
            }
        }
        let date = "2026-11-27T10:00:00+09:00";
        git(dir, date, &["add", "-A"], &[]);
        git(dir, date, &["commit", "-q", "--allow-empty", "-m", message], &[]);
        git(dir, date, &["rev-parse", "HEAD"], &[])
    }

    #[test]
    fn line_counts_in_process_are_git_s_or_left_to_git() {
        let dir = tempfile::tempdir().unwrap();
        let path = init(&dir.path().join("counts"));
        let text = b"one\ntwo\nthree\nfour\nfive\nsix\n".as_slice();
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\x01\x02".as_slice();
        // (what the commit does, whether it is counted in process)
        let steps: Vec<(&str, Vec<FileChange<'_>>, bool)> = vec![
            (
                "root: two files, one empty",
                vec![("a.txt", Some(text)), ("src/empty.txt", Some(b""))],
                true,
            ),
            (
                "one block replaced",
                vec![("a.txt", Some(b"one\ntwo\nTHREE\nFOUR\n4b\nfive\nsix\n"))],
                true,
            ),
            (
                "lines appended",
                vec![("a.txt", Some(b"one\ntwo\nTHREE\nFOUR\n4b\nfive\nsix\nseven\neight\n"))],
                true,
            ),
            ("lines deleted", vec![("a.txt", Some(b"one\nfive\nsix\nseven\neight\n"))], true),
            (
                "the last newline dropped",
                vec![("a.txt", Some(b"one\nfive\nsix\nseven\neight"))],
                true,
            ),
            ("edits in two places", vec![("a.txt", Some(b"ONE\nfive\nsix\nseven\nEIGHT"))], false),
            (
                "a block replaced by one sharing a line",
                vec![("a.txt", Some(b"ONE\nsix\nfive\nseven\nEIGHT"))],
                false,
            ),
            ("a binary file added", vec![("img/logo.png", Some(png))], true),
            ("the binary file changed", vec![("img/logo.png", Some(b"\x89PNG\0\0other"))], true),
            (
                "a file added in a new folder",
                vec![("lib/deep/new.rs", Some(b"fn main() {}\n"))],
                true,
            ),
            ("a file deleted", vec![("src/empty.txt", None)], true),
            (
                "a file added and another deleted",
                vec![("b.txt", Some(b"b\n")), ("lib/deep/new.rs", None)],
                false,
            ),
            (
                "a .gitattributes",
                vec![(".gitattributes", Some(b"*.txt -diff\n")), ("c.txt", Some(b"c\n"))],
                false,
            ),
        ];
        let env = Env::new(&path);
        let repo = repo_at(&path);
        for (message, files, counted) in steps {
            let hash = commit_files(&path, &files, message);
            let by_git =
                crate::git::numstats(&env, &repo, &[hash.as_str()], crate::git::DEFAULT_TIMEOUT)
                    .unwrap();
            let here = numstats(&repo, &[hash.as_str()]);
            assert_eq!(here.is_some(), counted, "{message}: in process {here:?}, git {by_git:?}");
            if let Some(here) = here {
                assert_eq!(here, by_git, "{message}");
            }
        }
        // A mode change alone, and a symbolic link added.
        git(&path, "2026-11-27T11:00:00+09:00", &["rm", "-q", ".gitattributes"], &[]);
        git(&path, "2026-11-27T11:00:00+09:00", &["commit", "-q", "-m", "no attributes"], &[]);
        {
            use std::os::unix::fs::PermissionsExt as _;
            fs_err::set_permissions(path.join("a.txt"), std::fs::Permissions::from_mode(0o755))
                .unwrap();
        }
        let chmod = commit_files(&path, &[], "chmod +x");
        std::os::unix::fs::symlink("a.txt", path.join("link")).unwrap();
        let link = commit_files(&path, &[], "a link");
        for hash in [&chmod, &link] {
            let by_git =
                crate::git::numstats(&env, &repo, &[hash.as_str()], crate::git::DEFAULT_TIMEOUT)
                    .unwrap();
            assert_eq!(numstats(&repo, &[hash.as_str()]), Some(by_git));
        }
        // git takes attributes from the work tree too: an untracked `.gitattributes` in
        // the folder of a changed file leaves the commit to git.
        let edit = commit_files(&path, &[("lib/deep/x.txt", Some(b"x\n"))], "a file in lib/deep");
        assert!(numstats(&repo, &[edit.as_str()]).is_some());
        fs_err::write(path.join("lib/deep/.gitattributes"), "*.txt binary\n").unwrap();
        assert_eq!(numstats(&repo, &[edit.as_str()]), None);
        assert!(
            numstats(&repo, &[chmod.as_str()]).is_some(),
            "a commit elsewhere is still counted"
        );
    }
}
