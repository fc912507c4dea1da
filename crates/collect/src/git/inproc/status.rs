//! The clean-work-tree check: whether `git status` would name nothing the work-in-progress reader keeps.

use std::path::Path;

use jiff::Timestamp;

use super::Reader;

impl Reader<'_> {
    /// Whether `git status` of the repository's main work tree would name no file that
    /// [`crate::git::wip`] keeps (one modified at or after `since`), told without a process; `false`
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
                return crate::listing::list(work_tree).is_ok_and(|listing| {
                    listing.stopped.is_none()
                        && listing.entries.iter().all(|entry| entry.name == ".git")
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
    let Ok(listing) = crate::listing::list(&folder) else { return false };
    if listing.stopped.is_some() {
        return false;
    }
    for entry in &listing.entries {
        let name = entry.name.as_bytes();
        if dir.is_empty() && name == b".git" {
            continue;
        }
        let relative: Vec<u8> =
            if dir.is_empty() { name.to_vec() } else { [dir, b"/", name].concat() };
        let kind = entry.kind;
        if tracked.contains(relative.as_slice()) {
            if kind.is_dir() && !untracked_all_older(work_tree, &relative, tracked, bound, excludes)
            {
                return false;
            }
            continue;
        }
        let old = fs_err::symlink_metadata(entry.path_in(&folder))
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
