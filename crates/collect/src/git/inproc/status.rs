//! `git status` in process: the paths `git status --porcelain=v2 --untracked-files=normal`
//! would name in the main work tree, for the work-in-progress reader, where that is
//! provably git's answer; anything else asks git.

use std::collections::{HashMap, HashSet};
use std::os::fd::{AsFd as _, BorrowedFd};
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::MetadataExt as _;
use std::path::Path;
use std::time::SystemTime;

use gix::bstr::ByteSlice as _;
use jiff::Timestamp;

use super::{Reader, Seeded};

/// The largest tracked file whose content is hashed to tell a change from a touch;
/// a larger one whose stat data changed asks git.
const HASH_MAX: u64 = 16 << 20;

/// The most entries of untracked folders looked into (to tell whether `status` names
/// the folder); more asks git.
const UNTRACKED_LOOKS: usize = 10_000;

/// Paths as `status` names them, each with whether it is deleted in the work tree.
type Named = Vec<(String, bool)>;

/// A set of paths: the tracked paths and folders of a work tree, thousands of them per
/// repository, each hashed once and looked up once per entry of the walk. Hashed with
/// foldhash, seeded per process (a cloned repository's paths are not ours to trust not
/// to collide under a seed known in advance); only looked up, never iterated.
type PathSet<'a> = HashSet<&'a [u8], Seeded>;

/// What [`Reader::status`] may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// Only prove that `git status` names nothing kept: any path that would be named,
    /// and any file whose content would have to be read, asks git. Right whatever git's
    /// configuration outside the repository says.
    CleanOnly,
    /// Name the paths too, reading content where the stat data changed: only where
    /// nothing outside the repository changes what `status` compares (no
    /// `core.autocrlf`, global attributes or ignore rules; the caller knows).
    Paths,
}

impl Reader<'_> {
    /// What `git status --porcelain=v2 --untracked-files=normal` of the repository's
    /// main work tree names, as `(path, deleted in the work tree)` in its form (an
    /// untracked folder as `folder/`), leaving out paths that the work-in-progress reader
    /// drops anyway because they were modified before `since` (it dates each path by
    /// itself, a deleted one by its folder); `None` means "ask git". Only where all of
    /// this holds:
    ///
    /// - every index entry is a plain file or link at stage 0 (no conflict, submodule,
    ///   sparse, skip-worktree or intent-to-add entry), no split index, and nothing
    ///   (`.gitattributes`, `info/attributes`, `core.autocrlf`, filters, …) could make
    ///   git convert content before comparing it;
    /// - staged changes are the index against `HEAD`'s tree (nothing when the index's
    ///   cache tree is valid and is `HEAD`'s tree); staged deletions and additions
    ///   together ask git, whose rename detection would pair them;
    /// - an entry whose `lstat` matches the stat data the index recorded (every field git
    ///   compares) and was not written in the same instant as the index or later (git's
    ///   "racily clean" case) is unchanged; otherwise its size or content (hashed as a
    ///   blob) is compared, as git does;
    /// - untracked entries of tracked folders that git's ignore rules do not exclude are
    ///   named, a folder as `folder/` when it holds a file no rule excludes, or a `.git`.
    pub(crate) fn status(&self, since: Timestamp, mode: Status) -> Option<Vec<(String, bool)>> {
        let repo = self.repo;
        let work_tree = repo.project.path.as_path();
        let bound = SystemTime::from(since);
        let index_path = repo.git_dir.join("index");
        let index_meta = match fs_err::symlink_metadata(&index_path) {
            Ok(meta) => meta,
            // No index (a clone without a checkout): `status` names every file of `HEAD` as
            // deleted from the index, each dated by its own path, and every file of the work
            // tree as untracked; with nothing in the work tree, nothing is kept.
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                let empty = crate::listing::list(work_tree).is_ok_and(|listing| {
                    listing.stopped.is_none()
                        && listing.entries.iter().all(|entry| entry.name == ".git")
                });
                return empty.then(Vec::new);
            }
            Err(_) => return None,
        };
        if !index_meta.file_type().is_file() {
            return None;
        }
        let repository = &self.repository;
        if repository.workdir().is_none() || !status_config(repository) {
            return None;
        }
        if repo.git_dir.join("info/attributes").exists() {
            return None;
        }
        // The ignore rules gix reads: `info/exclude` only as a regular file (a FIFO there
        // would block this process; git is killed at its deadline).
        match fs_err::symlink_metadata(repo.git_dir.join("info/exclude")) {
            Ok(meta) if !meta.file_type().is_file() => return None,
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => return None,
            _ => {}
        }
        let options = gix::index::decode::Options { thread_limit: Some(1), ..Default::default() };
        let index = read_index(&index_path, &index_meta, options)?;
        if index.link().is_some() || index.is_sparse() {
            return None;
        }
        // `HEAD`'s commit is read for its tree: checked first where objects are loose.
        // `HEAD` as the listing read it, when it ran on this reader (not resolved again).
        let head = match self.refs().and_then(|tips| tips.head) {
            Some(head) => head,
            None => repository.head_id().ok()?.detach(),
        };
        if !self.loose.allows(&head) {
            return None;
        }
        let head_tree = repository.find_commit(head).ok()?.tree_id().ok()?.detach();
        let cache_tree_is_head = index.tree().is_some_and(|tree| {
            tree.num_entries.is_some_and(|count| count as usize == index.entries().len())
                && tree.id == head_tree
        });
        // Staged: the index against `HEAD`'s tree.
        let (staged, mut named) = if cache_tree_is_head {
            (PathSet::default(), Vec::new())
        } else if mode == Status::CleanOnly {
            return None;
        } else {
            staged_changes((repository, &self.loose), &index, head_tree)?
        };
        let tracked = Tracked::of(&index)?;
        let index_time = (index_meta.mtime(), index_meta.mtime_nsec());
        let compare = Compare { work_tree, index_time, bound, mode, staged: &staged };
        // git's ignore rules (`.gitignore` files, `info/exclude`, the repository's own
        // `core.excludesFile`): an ignored entry is never named by `git status`, however
        // new (build output).
        let mut excludes = repository
            .excludes(&index, None, gix::worktree::stack::state::ignore::Source::default())
            .ok()?;
        let entries = index.entries();
        let mut walk = Walk {
            tracked: &tracked,
            index: &index,
            compare,
            seen: vec![false; entries.len()],
            looks: 0,
        };
        let top = crate::listing::open_at(rustix::fs::CWD, work_tree).ok()?;
        walk.tracked_folder(top.as_fd(), b"", &mut excludes, &mut named)?;
        // The entries no listing showed: deleted when their `lstat` says so (their file,
        // or a folder on the way, is not there); any other answer (a name too long to
        // look up, a file made since the listing) asks git.
        for (entry, _) in entries.iter().zip(&walk.seen).filter(|(_, seen)| !**seen) {
            let path = entry.path(&index);
            let full = work_tree.join(std::ffi::OsStr::from_bytes(path));
            match rustix::fs::statat(rustix::fs::CWD, &full, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
            {
                Err(rustix::io::Errno::NOENT) if mode == Status::Paths => {
                    named.push((String::from_utf8_lossy(path).into_owned(), true));
                }
                _ => return None,
            }
        }
        Some(named)
    }

    /// Whether `git status` of the repository's main work tree would name no file that
    /// [`crate::git::wip`] keeps (one modified at or after `since`), told without a
    /// process and without reading content; `false` means "ask git" (it may well be
    /// clean).
    #[cfg(test)]
    pub(crate) fn worktree_unchanged_since(&self, since: Timestamp) -> bool {
        self.status(since, Status::CleanOnly).is_some_and(|named| named.is_empty())
    }
}

/// The index's paths: each file (or link) by its entry's position, and the folders
/// holding them. Hashed with foldhash, seeded per process, as [`PathSet`].
struct Tracked<'index> {
    files: HashMap<&'index [u8], usize, Seeded>,
    folders: PathSet<'index>,
}

impl<'index> Tracked<'index> {
    /// The index's paths, or `None` (ask git) when an entry is not a plain file or link
    /// at stage 0, or is a `.gitattributes`.
    fn of(index: &'index gix::index::File) -> Option<Tracked<'index>> {
        let entries = index.entries();
        let mut files = HashMap::with_capacity_and_hasher(entries.len(), Seeded::default());
        let mut folders = PathSet::default();
        for (position, entry) in entries.iter().enumerate() {
            let unusual = gix::index::entry::Flags::EXTENDED
                | gix::index::entry::Flags::SKIP_WORKTREE
                | gix::index::entry::Flags::INTENT_TO_ADD;
            if entry.flags.intersects(unusual) || entry.stage_raw() != 0 {
                return None;
            }
            let path: &[u8] = entry.path(index);
            if path.rsplit(|&byte| byte == b'/').next() == Some(b".gitattributes") {
                return None;
            }
            files.insert(path, position);
            let mut end = path.len();
            while let Some(slash) = path[..end].iter().rposition(|&byte| byte == b'/') {
                if !folders.insert(&path[..slash]) {
                    break;
                }
                end = slash;
            }
        }
        Some(Tracked { files, folders })
    }
}

/// What the work tree is compared with the index by.
struct Compare<'a> {
    work_tree: &'a Path,
    /// The index file's modification time (seconds, nanoseconds).
    index_time: (i64, i64),
    bound: SystemTime,
    mode: Status,
    /// The paths whose index entry differs from `HEAD`'s tree.
    staged: &'a PathSet<'a>,
}

impl Compare<'_> {
    /// Compares the index entry `entry` (at `path`) with its file's `lstat` (`meta`),
    /// naming it in `named` when changed or staged. `None`: ask git.
    fn file(
        &self,
        entry: &gix::index::Entry,
        path: &[u8],
        meta: &rustix::fs::Stat,
        named: &mut Named,
    ) -> Option<()> {
        let lossy = |path: &[u8]| String::from_utf8_lossy(path).into_owned();
        let file_type = rustix::fs::FileType::from_raw_mode(meta.st_mode);
        let executable = meta.st_mode & 0o100 != 0;
        let kind_matches = match entry.mode {
            gix::index::entry::Mode::FILE => file_type.is_file() && !executable,
            gix::index::entry::Mode::FILE_EXECUTABLE => file_type.is_file() && executable,
            gix::index::entry::Mode::SYMLINK => file_type.is_symlink(),
            _ => return None,
        };
        if file_type.is_dir() {
            // A file become a folder: git names both; ask it.
            return None;
        }
        let stat = &entry.stat;
        // git keeps the low 32 bits of each field.
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "as git stores them"
        )]
        let matches = kind_matches
            && stat.mtime.secs == meta.st_mtime as u32
            && stat.mtime.nsecs == meta.st_mtime_nsec as u32
            && stat.ctime.secs == meta.st_ctime as u32
            && stat.ctime.nsecs == meta.st_ctime_nsec as u32
            && stat.ino == meta.st_ino as u32
            && stat.uid == meta.st_uid
            && stat.gid == meta.st_gid
            && stat.size == meta.st_size as u32;
        let racy = (i64::from(stat.mtime.secs), i64::from(stat.mtime.nsecs)) >= self.index_time;
        let is_staged = self.staged.contains(path);
        if matches && !racy {
            if is_staged {
                named.push((lossy(path), false));
            }
            return Some(());
        }
        // Dated by its own time: one modified before the window is dropped whatever git
        // says of it.
        if crate::fsread::stat_modified(meta) < self.bound {
            return Some(());
        }
        if self.mode == Status::CleanOnly {
            return None;
        }
        let file = self.work_tree.join(std::ffi::OsStr::from_bytes(path));
        let size = u64::try_from(meta.st_size).unwrap_or(u64::MAX);
        let changed =
            !kind_matches || content_changed(&file, (size, file_type.is_symlink()), entry)?;
        if changed || is_staged {
            named.push((lossy(path), false));
        }
        Some(())
    }
}

/// The index at `path` (whose `lstat` gave `meta`), read whole through
/// [`crate::fsread`] and decoded, its checksum checked first as gix checks it (`None`:
/// ask git; git itself checks it only in `git fsck`, so the check keeps the in-process
/// answer to indexes whose bytes are as git wrote them). `gix::index::File::at` maps
/// the file into memory and then reads it again to hash it; unmapping costs a TLB
/// shootdown on every core.
fn read_index(
    path: &Path,
    meta: &std::fs::Metadata,
    options: gix::index::decode::Options,
) -> Option<gix::index::File> {
    let bytes = crate::fsread::read_small(path, INDEX_MAX).ok()?;
    let kind = gix::hash::Kind::Sha1;
    let body = bytes.len().checked_sub(kind.len_in_bytes())?;
    let expected = &bytes[body..];
    // A null checksum: written with `index.skipHash`.
    if expected.iter().any(|&byte| byte != 0) {
        let mut hasher = gix::hash::hasher(kind);
        hasher.update(&bytes[..body]);
        if hasher.try_finalize().ok()?.as_bytes() != expected {
            return None;
        }
    }
    let mtime = filetime::FileTime::from_last_modification_time(meta);
    let (state, _) = gix::index::State::from_bytes(&bytes, mtime, kind, options).ok()?;
    Some(gix::index::File::from_state(state, path))
}

/// The largest index read in process; git is asked beyond (an index of a million
/// files is about 100 MB).
const INDEX_MAX: u64 = 512 << 20;

/// The paths whose index entry differs from `HEAD`'s tree (`head_tree`), and the paths
/// deleted from the index, named as `status` names them; `None` when git must be asked
/// (a submodule in the tree, or deletions and additions that git's rename detection
/// may pair, naming only the new path).
fn staged_changes<'index>(
    (repository, loose): (&gix::Repository, &super::Loose),
    index: &'index gix::index::File,
    head_tree: gix::ObjectId,
) -> Option<(PathSet<'index>, Named)> {
    let mut files: Vec<(Vec<u8>, (u16, gix::ObjectId))> = Vec::new();
    tree_files((repository, loose), head_tree, &mut Vec::new(), &mut files)?;
    let mut in_head: HashMap<&[u8], (u16, gix::ObjectId), Seeded> =
        HashMap::with_capacity_and_hasher(files.len(), Seeded::default());
    for (path, entry) in &files {
        in_head.insert(path.as_slice(), *entry);
    }
    let mut staged = PathSet::default();
    let mut added = false;
    for entry in index.entries() {
        let path: &[u8] = entry.path(index);
        #[expect(clippy::cast_possible_truncation, reason = "git modes fit in 16 bits")]
        let mode = entry.mode.bits() as u16;
        match in_head.remove(path) {
            Some(head) if head == (mode, entry.id) => {}
            Some(_) => {
                staged.insert(path);
            }
            None => {
                added = true;
                staged.insert(path);
            }
        }
    }
    // Left in `HEAD`: deleted from the index.
    if added && !in_head.is_empty() {
        return None;
    }
    let mut deleted: Vec<&[u8]> = in_head.into_keys().collect();
    deleted.sort_unstable();
    let named = deleted
        .into_iter()
        .map(|path| (String::from_utf8_lossy(path).into_owned(), false))
        .collect();
    Some((staged, named))
}

/// The files of the tree `id` and of the trees below it, by path from the top, each with
/// its mode and blob; every tree read goes through the loose-object check. `None` for a
/// submodule (git is asked) or a tree that cannot be read.
fn tree_files(
    (repository, loose): (&gix::Repository, &super::Loose),
    id: gix::ObjectId,
    prefix: &mut Vec<u8>,
    files: &mut Vec<(Vec<u8>, (u16, gix::ObjectId))>,
) -> Option<()> {
    if !loose.allows(&id) || prefix.len() > 4096 {
        return None;
    }
    let mut buffer = Vec::new();
    let tree = gix::prelude::FindExt::find_tree(&repository.objects, &id, &mut buffer).ok()?;
    let entries: Vec<(Vec<u8>, gix::objs::tree::EntryMode, gix::ObjectId)> = tree
        .entries
        .iter()
        .map(|entry| (entry.filename.to_vec(), entry.mode, entry.oid.to_owned()))
        .collect();
    for (name, mode, oid) in entries {
        let length = prefix.len();
        if !prefix.is_empty() {
            prefix.push(b'/');
        }
        prefix.extend_from_slice(&name);
        if mode.is_tree() {
            tree_files((repository, loose), oid, prefix, files)?;
        } else if mode.is_blob_or_symlink() {
            files.push((prefix.clone(), (mode.value(), oid)));
        } else {
            return None;
        }
        prefix.truncate(length);
    }
    Some(())
}

/// Whether the repository's own configuration leaves `status` comparing bytes as they
/// are: no end-of-line conversion, filters, ignored file modes or case, or attributes
/// file.
fn status_config(repository: &gix::Repository) -> bool {
    let config = repository.config_snapshot();
    let file = config.plumbing();
    let filters = file
        .sections()
        .any(|section| section.header().name().to_str_lossy().eq_ignore_ascii_case("filter"));
    let core = |key: &str| file.string_by("core", None, key).is_some();
    !filters
        && [
            "autocrlf",
            "eol",
            "safecrlf",
            "attributesFile",
            "checkRoundtripEncoding",
            "ignoreCase",
            "excludesFile",
        ]
        .iter()
        .all(|key| !core(key))
        && config.boolean("core.fileMode").unwrap_or(true)
        && config.boolean("core.symlinks").unwrap_or(true)
}

/// Whether the file's content differs from the index entry's blob: its size, else its
/// bytes hashed as a blob (a link's target for a link). `None`: it could not be read
/// (or is too large to hash), so git is asked.
fn content_changed(
    file: &Path,
    (size, is_symlink): (u64, bool),
    entry: &gix::index::Entry,
) -> Option<bool> {
    #[expect(clippy::cast_possible_truncation, reason = "git compares the low 32 bits")]
    if entry.stat.size != size as u32 {
        return Some(true);
    }
    let bytes = if is_symlink {
        fs_err::read_link(file).ok()?.as_os_str().as_bytes().to_vec()
    } else {
        if size > HASH_MAX {
            return None;
        }
        crate::fsread::read_small(file, HASH_MAX).ok()?
    };
    let id =
        gix::objs::compute_hash(gix::hash::Kind::Sha1, gix::object::Kind::Blob, &bytes).ok()?;
    Some(id != entry.id)
}

/// The walk of the work tree: each tracked folder listed open once, its tracked files
/// compared with their index entries by an `lstat` at the folder, its untracked entries
/// named, its tracked folders entered. What is below a folder is reached by name from
/// there (`openat`, `lstat` at the folder), not by a path the kernel walks from the root
/// again, and no folder is opened twice.
struct Walk<'a> {
    tracked: &'a Tracked<'a>,
    index: &'a gix::index::File,
    compare: Compare<'a>,
    /// The entries whose file a listing showed (by position); the others are deleted.
    seen: Vec<bool>,
    /// Entries of untracked folders looked at so far.
    looks: usize,
}

impl Walk<'_> {
    /// Compares the tracked files of the tracked folder `dir` (relative, `b""` for the
    /// top; open as `folder`) and names its untracked entries that are not ignored and
    /// were modified at or after the bound; tracked folders are entered. `None`: ask git.
    fn tracked_folder(
        &mut self,
        folder: BorrowedFd<'_>,
        dir: &[u8],
        excludes: &mut gix::AttributeStack<'_>,
        named: &mut Vec<(String, bool)>,
    ) -> Option<()> {
        let listing = crate::listing::list_open(folder);
        if listing.stopped.is_some() || !plain_ignore_file(&listing) {
            return None;
        }
        let (bound, mode) = (self.compare.bound, self.compare.mode);
        for entry in &listing.entries {
            let name = entry.name.as_bytes();
            if dir.is_empty() && name == b".git" {
                continue;
            }
            let relative = join(dir, name);
            let kind = entry.kind;
            if let Some(&position) = self.tracked.files.get(relative.as_slice()) {
                let meta =
                    rustix::fs::statat(folder, &entry.name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW);
                match meta {
                    Ok(meta) => {
                        let index_entry = &self.index.entries()[position];
                        let path = index_entry.path(self.index);
                        self.compare.file(index_entry, path, &meta, named)?;
                        self.seen[position] = true;
                    }
                    // Gone since the listing: deleted, as an entry no listing showed.
                    Err(rustix::io::Errno::NOENT) => {}
                    Err(_) => return None,
                }
                continue;
            }
            if self.tracked.folders.contains(relative.as_slice()) {
                // A folder on the way that is a file or a link now: git names it
                // untracked and the entries below it deleted; ask it.
                if !kind.is_dir() {
                    return None;
                }
                let child = crate::listing::open_at(folder, Path::new(&entry.name)).ok()?;
                self.tracked_folder(child.as_fd(), &relative, excludes, named)?;
                continue;
            }
            if name == b".gitattributes" {
                return None;
            }
            let old =
                rustix::fs::statat(folder, &entry.name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
                    .is_ok_and(|stat| crate::fsread::stat_modified(&stat) < bound);
            if old || ignored(excludes, &relative, kind.is_dir())? {
                continue;
            }
            if mode == Status::CleanOnly {
                return None;
            }
            if !kind.is_dir() {
                named.push((String::from_utf8_lossy(&relative).into_owned(), false));
            } else if self.shown(folder, &entry.name, &relative, excludes)? {
                let mut path = String::from_utf8_lossy(&relative).into_owned();
                path.push('/');
                named.push((path, false));
            }
        }
        Some(())
    }

    /// Whether `status` names the untracked folder `dir` (the entry `name` of the open
    /// folder `parent`): it holds a `.git` (another repository), or a file or link that
    /// no ignore rule excludes, at any depth.
    fn shown(
        &mut self,
        parent: BorrowedFd<'_>,
        name: &std::ffi::OsStr,
        dir: &[u8],
        excludes: &mut gix::AttributeStack<'_>,
    ) -> Option<bool> {
        let folder = crate::listing::open_at(parent, Path::new(name)).ok()?;
        let listing = crate::listing::list_open(folder.as_fd());
        if listing.stopped.is_some() || !plain_ignore_file(&listing) {
            return None;
        }
        self.looks += listing.entries.len();
        if self.looks > UNTRACKED_LOOKS {
            return None;
        }
        if listing.entries.iter().any(|entry| entry.name == ".git") {
            return Some(true);
        }
        for entry in &listing.entries {
            let relative = join(dir, entry.name.as_bytes());
            let is_dir = entry.kind.is_dir();
            if ignored(excludes, &relative, is_dir)? {
                continue;
            }
            if !is_dir || self.shown(folder.as_fd(), &entry.name, &relative, excludes)? {
                return Some(true);
            }
        }
        Some(false)
    }
}

/// Whether a folder's `.gitignore`, which gix reads when it asks the ignore rules about
/// the folder's entries, is a regular file or absent: a FIFO (or a link, which git does
/// not follow either) asks git, which is killed at its deadline where this process would
/// block.
fn plain_ignore_file(listing: &crate::listing::Listing) -> bool {
    listing.entries.iter().all(|entry| entry.name != ".gitignore" || entry.kind.is_file())
}

fn join(dir: &[u8], name: &[u8]) -> Vec<u8> {
    if dir.is_empty() { name.to_vec() } else { [dir, b"/", name].concat() }
}

/// Whether git's ignore rules exclude the untracked entry `relative` (a folder when
/// `is_dir`); `None` when they could not be asked, so git is.
fn ignored(excludes: &mut gix::AttributeStack<'_>, relative: &[u8], is_dir: bool) -> Option<bool> {
    let mode = is_dir.then_some(gix::index::entry::Mode::DIR);
    excludes.at_entry(relative.as_bstr(), mode).ok().map(|platform| platform.is_excluded())
}
