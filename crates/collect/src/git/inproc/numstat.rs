//! Line counts (`--numstat`) of the user's commits, where git's are bound to be the same.

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::prelude::FindExt as _;

use super::{Reader, Seeded};

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
        let mut plain_dirs = HashSet::default();
        for hash in hashes {
            let id = ObjectId::from_hex(hash.as_bytes()).ok()?;
            let (tree, parents) = {
                let commit = commit(repository, &self.loose, &id, &mut buffer)?;
                (commit.tree(), commit.parents().collect::<Vec<_>>())
            };
            let parent_tree = match parents.as_slice() {
                [] => None,
                [parent] => Some(commit(repository, &self.loose, parent, &mut buffer)?.tree()),
                _ => return None,
            };
            let mut counts = Counts::default();
            let mut walk = TreeWalk {
                repository,
                loose: &self.loose,
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
    /// The check each object read goes through.
    loose: &'a super::Loose,
    work_tree: &'a Path,
    /// The folder of the trees being compared, relative to the top.
    dir: PathBuf,
    counts: &'a mut Counts,
    /// The folders of the work tree already seen to hold no `.gitattributes` (the
    /// commits of one read share it), by their bytes (a folder's path is built from
    /// its tree entries' names, one way only).
    plain_dirs: &'a mut HashSet<OsString, Seeded>,
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
        if !self.plain_dirs.contains(self.dir.as_os_str()) {
            let attributes = self.work_tree.join(&self.dir).join(".gitattributes");
            if fs_err::symlink_metadata(&attributes).is_ok() {
                return None;
            }
            self.plain_dirs.insert(self.dir.as_os_str().to_owned());
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
        let repository = (self.repository, self.loose);
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
        let (kind, data) = super::find(self.repository, self.loose, &id, &mut buffer)?;
        if kind != gix::object::Kind::Tree {
            return None;
        }
        let tree = gix::objs::TreeRef::from_bytes(data, gix::hash::Kind::Sha1).ok()?;
        Some(
            tree.entries
                .iter()
                .map(|entry| (entry.filename.to_vec(), (entry.mode, entry.oid.to_owned())))
                .collect(),
        )
    }
}

/// A blob's bytes, when it is no larger than [`BLOB_MAX`].
fn blob((repository, loose): (&gix::Repository, &super::Loose), id: ObjectId) -> Option<Vec<u8>> {
    let mut buffer = Vec::new();
    if loose.any() {
        // Read whole (a loose blob's header is inside its compressed stream).
        let (kind, data) = super::find(repository, loose, &id, &mut buffer)?;
        if kind != gix::object::Kind::Blob || data.len() as u64 > BLOB_MAX {
            return None;
        }
        let length = data.len();
        buffer.truncate(length);
        return Some(buffer);
    }
    if repository.find_header(id).ok()?.size() > BLOB_MAX {
        return None;
    }
    repository.objects.find_blob(&id, &mut buffer).ok()?;
    Some(buffer)
}

/// The commit `id`, loose or packed ([`super::find`]).
fn commit<'b>(
    repository: &gix::Repository,
    loose: &super::Loose,
    id: &gix::oid,
    buffer: &'b mut Vec<u8>,
) -> Option<gix::objs::CommitRef<'b>> {
    let (kind, data) = super::find(repository, loose, id, buffer)?;
    if kind != gix::object::Kind::Commit {
        return None;
    }
    gix::objs::CommitRef::from_bytes(data, gix::hash::Kind::Sha1).ok()
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
