//! The skip check: whether a repository's refs can have moved since a time, told by
//! `stat` alone, so a repository nobody touched is never read.
//!
//! A commit made (or rebased, or fetched) moves a ref, `packed-refs` or the HEAD reflog.
//! git (and libgit2 and JGit) update a loose ref by writing `<name>.lock` and renaming it
//! into place, which changes the mtime of the folder that holds it; so the folders of
//! `refs/` are enough, and the ref files themselves need no `stat`.
//!
//! Most of the cost is listing those folders. On the file systems that count a folder's
//! subfolders in its link count (`st_nlink` is 2 plus their number: ext2/3/4, XFS, tmpfs,
//! F2FS), a folder whose count says it has none is not listed, and a folder whose
//! subfolders are all found under the usual names (`heads`, `tags`, `remotes`, `origin`,
//! and the usual branch prefixes such as `feature`) is not listed either. Elsewhere
//! (btrfs and overlayfs say 1, NFS may be wrong) every folder is listed, as GNU `find`
//! does without its leaf optimization. A repository costs about ten `stat`s instead of
//! some forty calls, and each is made relative to the git dir, opened once, which halves
//! what the kernel spends walking the path. `reftable/` is looked at only where
//! `refs/heads` is not a folder: a reftable repository keeps a file there, so that old
//! versions of git refuse it.

use std::cell::Cell;
use std::collections::HashMap;
use std::io;
use std::os::fd::{AsFd as _, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::SystemTime;

use jiff::{SignedDuration, Timestamp};
use rustix::fs::{self, AtFlags, FileType, Mode, OFlags, Stat};
use rustix::io::Errno;

use super::{Moved, Repo};
use crate::fsread::stat_modified;

/// Whether any ref, `packed-refs` or HEAD reflog of the repository changed at or after
/// `since`. A repository where none moved cannot hold a commit made since then, so it
/// is skipped without spawning git. Only `stat` and folder listings are used, never a
/// file read.
///
/// Anything that cannot be looked at counts as changed: a git dir without permission
/// (or otherwise unreadable) is read, so git reports what is wrong with it, instead of
/// the repository silently counting as unchanged.
pub fn changed_since(repo: &Repo, since: Timestamp) -> bool {
    check(repo, since).refs
}

/// [`changed_since`], and whether the repository was worked on since then
/// ([`super::wip::worked_on`]): both from one opening of the git dir and one listing of
/// its `worktrees`.
pub(crate) fn check(repo: &Repo, since: Timestamp) -> Moved {
    let check = Check::new(since);
    let git_dir = &repo.git_dir;
    let base = match fs::open(
        git_dir,
        OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    ) {
        Ok(base) => base,
        // Nothing to tell it was worked on; unreadable, it is read so git says why.
        Err(error) => return Moved { refs: error != Errno::NOENT, work: false },
    };
    let worktrees = list_folders(&base, Path::new("worktrees"), false);
    let refs = check.changed(&base, git_dir, &worktrees);
    let work = super::wip::worked_on(&base, repo, &worktrees, since);
    Moved { refs, work }
}

/// One skip check: the bound, and how to tell whether a file system counts subfolders.
struct Check {
    since: SystemTime,
    link_counts: LinkCounts,
    /// Whether `refs/heads` turned out to be a folder: the files backend, whose
    /// repositories need no look at `reftable/` (a reftable repository's `refs/heads` is
    /// a file, there only to stop old versions of git).
    heads_folder: Cell<bool>,
}

/// What a `stat` said about a path.
enum Probe {
    /// Nothing there.
    Missing,
    /// Changed at or after the bound, or could not be looked at.
    Changed,
    /// There, and older than the bound.
    Older(Stat),
}

/// Whether a check believes a folder's link count to tell its subfolders.
#[derive(Debug, Clone, Copy)]
enum LinkCounts {
    /// Where the file system is one known to keep it ([`link_counts_trusted`]).
    ByFileSystem,
    /// Always (tests: the walk that believes them).
    #[cfg(test)]
    Believed,
    /// Never: every folder is listed (tests: the walk that lists).
    #[cfg(test)]
    Ignored,
}

impl Check {
    fn new(since: Timestamp) -> Check {
        Check::with_link_counts(since, LinkCounts::ByFileSystem)
    }

    fn with_link_counts(since: Timestamp, link_counts: LinkCounts) -> Check {
        // Two seconds of slack for file systems with coarse times.
        let since = since
            .checked_sub(SignedDuration::from_secs(2))
            .map_or(SystemTime::UNIX_EPOCH, SystemTime::from);
        Check { since, link_counts, heads_folder: Cell::new(false) }
    }

    /// Whether the git dir changed. Every path is looked up relative to the git dir,
    /// opened once (`O_PATH`): a `stat` of a short relative path costs about half one
    /// of the whole path from `/`.
    fn changed(
        &self,
        base: &OwnedFd,
        git_dir: &Path,
        worktrees: &Result<Vec<PathBuf>, io::Error>,
    ) -> bool {
        // Not `FETCH_HEAD`: git rewrites it on every fetch, even one that brings nothing; a
        // fetch that moves a remote-tracking ref changes `refs/remotes/…` or `packed-refs`.
        for file in ["HEAD", "packed-refs", "logs/HEAD"] {
            if matches!(self.probe(base, Path::new(file), true), Probe::Changed) {
                return true;
            }
        }
        for tree in ["refs", "reftable"] {
            if tree == "reftable" && self.heads_folder.get() {
                continue;
            }
            match self.probe(base, Path::new(tree), true) {
                Probe::Missing => {}
                Probe::Changed => return true,
                Probe::Older(stat) => {
                    let device = stat.st_dev;
                    let trusted = match self.link_counts {
                        LinkCounts::ByFileSystem => {
                            link_counts_trusted(device, || git_dir.join(tree))
                        }
                        #[cfg(test)]
                        LinkCounts::Believed => true,
                        #[cfg(test)]
                        LinkCounts::Ignored => false,
                    };
                    // One path for the whole tree, each subfolder pushed and popped.
                    let mut relative = PathBuf::with_capacity(64);
                    relative.push(tree);
                    if self.tree_changed(base, &mut relative, &stat, trusted.then_some(device)) {
                        return true;
                    }
                }
            }
        }
        // Linked worktrees keep their own HEAD and reflog under `worktrees/<name>`.
        let names = match worktrees {
            Ok(names) => names,
            Err(error) => return !crate::listing::is_missing(error),
        };
        names.iter().any(|name| {
            let worktree = Path::new("worktrees").join(name);
            ["HEAD", "logs/HEAD"]
                .iter()
                .any(|file| matches!(self.probe(base, &worktree.join(file), true), Probe::Changed))
        })
    }

    /// `stat` (`follow`) or `lstat` of `relative` below `base`, against the bound.
    fn probe(&self, base: &OwnedFd, relative: &Path, follow: bool) -> Probe {
        let flags = if follow { AtFlags::empty() } else { AtFlags::SYMLINK_NOFOLLOW };
        match fs::statat(base, relative, flags) {
            Ok(stat) if stat_modified(&stat) < self.since => Probe::Older(stat),
            Err(Errno::NOENT) => Probe::Missing,
            Ok(_) | Err(_) => Probe::Changed,
        }
    }

    /// Whether a folder of `refs/` (or `reftable/`) older than the bound holds a folder
    /// that changed at or after it. `relative` is its path below the git dir (as it was
    /// when the call returns); its link count is believed when it lies on
    /// `trusted_device`.
    fn tree_changed(
        &self,
        base: &OwnedFd,
        relative: &mut PathBuf,
        stat: &Stat,
        trusted_device: Option<u64>,
    ) -> bool {
        #[allow(clippy::useless_conversion, reason = "`st_nlink` is narrower on some targets")]
        let links = u64::from(stat.st_nlink);
        let subfolders = (trusted_device == Some(stat.st_dev) && links >= 2).then(|| links - 2);
        if subfolders == Some(0) {
            return false;
        }
        // The usual names found to be subfolders, by their index (a handful at most).
        let usual = usual_subfolders(relative);
        let mut seen: u32 = 0;
        if let Some(subfolders) = subfolders {
            for (index, &name) in usual.iter().enumerate() {
                relative.push(name);
                let changed = match self.probe(base, relative, false) {
                    Probe::Changed => Some(true),
                    // A link is not a subfolder, and `refs/` is walked without following
                    // links (a listing's entry types say so): it is left to the listing.
                    Probe::Older(child) if is_dir(&child) => {
                        if self.tree_changed(base, relative, &child, trusted_device) {
                            Some(true)
                        } else {
                            self.note_folder(relative);
                            seen |= 1 << index;
                            (u64::from(seen.count_ones()) == subfolders).then_some(false)
                        }
                    }
                    Probe::Missing | Probe::Older(_) => None,
                };
                relative.pop();
                if let Some(changed) = changed {
                    return changed;
                }
            }
        }
        // A folder that cannot be listed might hide a change: read the repository.
        let names = match list_folders(base, relative, true) {
            Ok(names) => names,
            Err(error) => return !crate::listing::is_missing(&error),
        };
        let was_seen = |name: &Path| {
            usual
                .iter()
                .enumerate()
                .any(|(index, usual)| seen & (1 << index) != 0 && name == *usual)
        };
        names.iter().filter(|name| !was_seen(name)).any(|name| {
            relative.push(name);
            let changed = match self.probe(base, relative, false) {
                Probe::Missing => false,
                Probe::Changed => true,
                Probe::Older(child) => {
                    self.note_folder(relative);
                    self.tree_changed(base, relative, &child, trusted_device)
                }
            };
            relative.pop();
            changed
        })
    }
}

impl Check {
    /// Notes a folder of `refs/` found (by `lstat` or by a listing's entry type).
    fn note_folder(&self, relative: &Path) {
        if relative == Path::new("refs/heads") {
            self.heads_folder.set(true);
        }
    }
}

fn is_dir(stat: &Stat) -> bool {
    FileType::from_raw_mode(stat.st_mode) == FileType::Directory
}

/// The names of the folders in `relative` below `base` (only real folders when
/// `folders_only`, as the listing's entry types say; every entry but `.` and `..`
/// otherwise).
fn list_folders(
    base: &OwnedFd,
    relative: &Path,
    folders_only: bool,
) -> Result<Vec<PathBuf>, io::Error> {
    let listing = crate::listing::list_at(base.as_fd(), relative)?;
    if let Some(stopped) = listing.stopped {
        return Err(stopped);
    }
    Ok(listing
        .entries
        .into_iter()
        .filter(|entry| !folders_only || entry.kind.is_dir())
        .map(|entry| PathBuf::from(entry.name))
        .collect())
}

/// The subfolders a folder of `refs/` usually has, tried by name before it is listed
/// (only where the link count says it has subfolders; each name missed costs one
/// `stat`, against four calls for a listing). Branch names with a slash are mostly
/// `feature/…` and `fix/…`, and a remote's often also `dependabot/…`.
fn usual_subfolders(relative: &Path) -> &'static [&'static str] {
    let relative = relative.to_str().unwrap_or_default();
    match relative {
        "refs" => &["heads", "tags", "remotes"],
        "refs/remotes" => &["origin", "upstream"],
        "refs/heads" => &["feature", "fix"],
        _ if relative
            .strip_prefix("refs/remotes/")
            .is_some_and(|remote| !remote.is_empty() && !remote.contains('/')) =>
        {
            &["feature", "fix", "dependabot"]
        }
        _ => &[],
    }
}

/// Whether the file system on device `device`, which holds the path `path` makes,
/// counts a folder's subfolders in its link count. Asked once per device (a `statfs`),
/// then remembered; the path is made only to ask.
fn link_counts_trusted(device: u64, path: impl FnOnce() -> PathBuf) -> bool {
    static KNOWN: Mutex<Option<HashMap<u64, bool>>> = Mutex::new(None);
    if let Some(&known) = KNOWN
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .as_ref()
        .and_then(|known| known.get(&device))
    {
        return known;
    }
    let trusted = counts_subfolders(&path());
    KNOWN
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get_or_insert_with(HashMap::new)
        .insert(device, trusted);
    trusted
}

/// Whether the file system holding `path` is one known to keep a folder's link count at
/// 2 plus its subfolders. Unknown ones are not believed (GNU `find` refuses its leaf
/// optimization on AFS, CIFS, NFS and procfs, where the count can be wrong).
#[cfg(target_os = "linux")]
fn counts_subfolders(path: &Path) -> bool {
    const EXT: i64 = 0xEF53;
    const XFS: i64 = 0x5846_5342;
    const TMPFS: i64 = 0x0102_1994;
    const F2FS: i64 = 0xF2F5_2010;
    #[allow(clippy::useless_conversion, reason = "`f_type` is narrower on 32-bit targets")]
    rustix::fs::statfs(path)
        .is_ok_and(|stat| matches!(i64::from(stat.f_type), EXT | XFS | TMPFS | F2FS))
}

#[cfg(not(target_os = "linux"))]
fn counts_subfolders(_path: &Path) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::MetadataExt as _;

    use super::*;

    const SINCE: &str = "2026-11-27T00:00:00Z";

    fn set_time(path: &Path, when: &str) {
        let time = SystemTime::from(when.parse::<Timestamp>().unwrap());
        fs_err::File::open(path).unwrap().set_modified(time).unwrap();
    }

    /// A git dir whose every folder and file is older than the bound, with the ref
    /// folders named (relative to the git dir).
    fn git_dir(folders: &[&str]) -> (tempfile::TempDir, PathBuf) {
        let temp = tempfile::tempdir().unwrap();
        let git_dir = temp.path().join(".git");
        fs_err::create_dir_all(git_dir.join("refs")).unwrap();
        for folder in folders {
            fs_err::create_dir_all(git_dir.join(folder)).unwrap();
            fs_err::write(git_dir.join(folder).join("ref"), "0\n").unwrap();
        }
        fs_err::write(git_dir.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        age(&git_dir);
        (temp, git_dir)
    }

    fn age(dir: &Path) {
        for entry in fs_err::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() && !path.is_symlink() {
                age(&path);
            }
            if !path.is_symlink() {
                set_time(&path, "2026-11-20T00:00:00Z");
            }
        }
        set_time(dir, "2026-11-20T00:00:00Z");
    }

    /// The check's answer believing link counts, and listing every folder.
    fn both(git_dir: &Path) -> (bool, bool) {
        let since: Timestamp = SINCE.parse().unwrap();
        let base = fs::open(git_dir, OFlags::PATH | OFlags::CLOEXEC, Mode::empty()).unwrap();
        let worktrees = list_folders(&base, Path::new("worktrees"), false);
        let believing = Check::with_link_counts(since, LinkCounts::Believed)
            .changed(&base, git_dir, &worktrees);
        let listing =
            Check::with_link_counts(since, LinkCounts::Ignored).changed(&base, git_dir, &worktrees);
        (believing, listing)
    }

    const FOLDERS: [&str; 9] = [
        "refs/heads",
        "refs/heads/feature",
        "refs/heads/feature/deep",
        "refs/tags",
        "refs/remotes/origin",
        "refs/remotes/origin/release",
        "refs/remotes/upstream",
        "refs/remotes/fork",
        "refs/prefetch/remotes/origin",
    ];

    #[test]
    fn an_untouched_git_dir_is_unchanged_whether_link_counts_are_believed_or_not() {
        let (_temp, git_dir) = git_dir(&FOLDERS);
        assert_eq!(both(&git_dir), (false, false));
    }

    #[test]
    fn a_change_in_any_ref_folder_is_found_whether_link_counts_are_believed_or_not() {
        // Every folder, the usual names and the others, at every depth.
        for changed in FOLDERS.iter().chain(&["refs", "refs/remotes"]) {
            let (_temp, git_dir) = git_dir(&FOLDERS);
            set_time(&git_dir.join(changed), "2026-11-27T09:00:00Z");
            assert_eq!(both(&git_dir), (true, true), "{changed}");
        }
    }

    #[test]
    fn a_folder_the_usual_names_miss_is_found_by_listing() {
        // `refs/remotes` holds only `fork`: neither `origin` nor `upstream`.
        let (_temp, git_dir) = git_dir(&["refs/heads", "refs/tags", "refs/remotes/fork/topic"]);
        set_time(&git_dir.join("refs/remotes/fork/topic"), "2026-11-27T09:00:00Z");
        assert_eq!(both(&git_dir), (true, true));
    }

    #[test]
    fn a_branch_folder_beside_a_usual_one_is_found_by_listing() {
        // `refs/heads` holds `feature` (a usual name, unchanged) and `alice`, which moved.
        for (heads, changed) in [
            (&["refs/heads/feature", "refs/heads/alice"][..], "refs/heads/alice"),
            (&["refs/heads/fix", "refs/heads/feature/deep"][..], "refs/heads/feature/deep"),
            (
                &["refs/remotes/origin/dependabot", "refs/remotes/origin/x"][..],
                "refs/remotes/origin/x",
            ),
            (
                &["refs/remotes/origin/feature/a", "refs/remotes/origin/fix"][..],
                "refs/remotes/origin/feature/a",
            ),
        ] {
            let folders: Vec<&str> =
                ["refs/heads", "refs/tags"].iter().chain(heads).copied().collect();
            let (_temp, git_dir) = git_dir(&folders);
            assert_eq!(both(&git_dir), (false, false), "{changed}");
            set_time(&git_dir.join(changed), "2026-11-27T09:00:00Z");
            assert_eq!(both(&git_dir), (true, true), "{changed}");
        }
    }

    #[test]
    fn branch_prefixes_are_tried_in_refs_heads_and_in_each_remote_only() {
        assert_eq!(usual_subfolders(Path::new("refs/heads")), ["feature", "fix"]);
        assert_eq!(
            usual_subfolders(Path::new("refs/remotes/origin")),
            ["feature", "fix", "dependabot"]
        );
        assert_eq!(
            usual_subfolders(Path::new("refs/remotes/fork")),
            ["feature", "fix", "dependabot"]
        );
        // Only a remote's own folder: not the branch folders below it, nor `refs/tags`.
        assert!(usual_subfolders(Path::new("refs/remotes/origin/feature")).is_empty());
        assert!(usual_subfolders(Path::new("refs/remotes/")).is_empty());
        assert!(usual_subfolders(Path::new("refs/tags")).is_empty());
    }

    #[test]
    fn a_link_under_a_usual_name_does_not_stand_for_a_subfolder() {
        // `refs/remotes/origin` is a link to a folder, so the one real subfolder of
        // `refs/remotes` is `mirror`, which changed: the link must not hide it.
        let (temp, git_dir) = git_dir(&["refs/heads", "refs/tags", "refs/remotes/mirror"]);
        let elsewhere = temp.path().join("elsewhere");
        fs_err::create_dir_all(&elsewhere).unwrap();
        set_time(&elsewhere, "2026-11-20T00:00:00Z");
        let link = git_dir.join("refs/remotes/origin");
        std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
        // The link's own time too (`touch -h`), so only `mirror` is newer.
        #[expect(clippy::disallowed_methods, reason = "the test dates a link with coreutils")]
        let touched = std::process::Command::new("touch")
            .args(["-h", "-d", "2026-11-20T00:00:00Z"])
            .arg(&link)
            .status()
            .unwrap();
        assert!(touched.success());
        set_time(&git_dir.join("refs/remotes"), "2026-11-20T00:00:00Z");
        set_time(&git_dir.join("refs/remotes/mirror"), "2026-11-27T09:00:00Z");
        assert_eq!(both(&git_dir), (true, true));
    }

    #[test]
    fn the_files_outside_refs_count() {
        for file in ["HEAD", "packed-refs", "logs/HEAD"] {
            let (_temp, git_dir) = git_dir(&["refs/heads"]);
            let path = git_dir.join(file);
            fs_err::create_dir_all(path.parent().unwrap()).unwrap();
            fs_err::write(&path, "x\n").unwrap();
            set_time(&path, "2026-11-27T09:00:00Z");
            assert_eq!(both(&git_dir), (true, true), "{file}");
        }
    }

    #[test]
    fn a_reftable_repository_is_told_by_its_tables() {
        // As `git init --ref-format=reftable` lays it out: `refs/heads` is a file.
        let (_temp, git_dir) = git_dir(&[]);
        fs_err::write(git_dir.join("refs/heads"), "this repository uses the reftable format\n")
            .unwrap();
        fs_err::create_dir_all(git_dir.join("reftable")).unwrap();
        fs_err::write(git_dir.join("reftable/tables.list"), "0x01.ref\n").unwrap();
        age(&git_dir);
        assert_eq!(both(&git_dir), (false, false));
        // A ref update writes a new table and renames a new `tables.list` into place.
        set_time(&git_dir.join("reftable"), "2026-11-27T09:00:00Z");
        assert_eq!(both(&git_dir), (true, true));
    }

    #[test]
    fn a_repository_with_a_heads_folder_does_not_look_at_reftable() {
        // The files backend: a `reftable/` folder there means nothing to git.
        let (_temp, git_dir) = git_dir(&["refs/heads"]);
        fs_err::create_dir_all(git_dir.join("reftable")).unwrap();
        age(&git_dir);
        set_time(&git_dir.join("reftable"), "2026-11-27T09:00:00Z");
        assert_eq!(both(&git_dir), (false, false));
    }

    #[test]
    fn a_linked_worktree_that_moved_counts() {
        let (_temp, git_dir) = git_dir(&["refs/heads"]);
        let worktree = git_dir.join("worktrees/topic");
        fs_err::create_dir_all(&worktree).unwrap();
        fs_err::write(worktree.join("HEAD"), "0\n").unwrap();
        age(&git_dir);
        assert_eq!(both(&git_dir), (false, false));
        set_time(&worktree.join("HEAD"), "2026-11-27T09:00:00Z");
        assert_eq!(both(&git_dir), (true, true));
    }

    #[test]
    fn this_machines_temporary_folder_is_asked_about_its_link_counts() {
        // Whatever the answer, it is the same when asked again (remembered by device).
        let temp = tempfile::tempdir().unwrap();
        let device = fs_err::metadata(temp.path()).unwrap().dev();
        let path = || temp.path().to_path_buf();
        let first = link_counts_trusted(device, path);
        assert_eq!(link_counts_trusted(device, path), first);
        if first {
            // Where the count is believed, it really is 2 plus the subfolders.
            fs_err::create_dir_all(temp.path().join("a/b")).unwrap();
            fs_err::create_dir_all(temp.path().join("c")).unwrap();
            assert_eq!(fs_err::metadata(temp.path()).unwrap().nlink(), 4);
            assert_eq!(fs_err::metadata(temp.path().join("a")).unwrap().nlink(), 3);
        }
    }

    /// The bound is `since` less two seconds of slack (file systems with coarse times),
    /// and a folder written at the bound itself has changed.
    #[test]
    fn a_folder_written_at_the_slack_bound_has_changed_and_one_before_it_has_not() {
        let (_temp, git_dir) = git_dir(&FOLDERS);
        set_time(&git_dir.join("refs/heads"), "2026-11-26T23:59:57Z");
        assert_eq!(both(&git_dir), (false, false));
        set_time(&git_dir.join("refs/heads"), "2026-11-26T23:59:58Z");
        assert_eq!(both(&git_dir), (true, true));
    }

    /// The whole check of a repository, as the git stage calls it: refs and work told
    /// apart, and a git dir that is not there is neither (nothing to read, nothing to
    /// ask), unlike one that cannot be looked at.
    #[test]
    fn the_check_tells_refs_moved_from_work_done_and_a_missing_git_dir_from_both() {
        let since: Timestamp = SINCE.parse().unwrap();
        let (temp, git_dir) = git_dir(&FOLDERS);
        let project = crate::git::project_ref(temp.path());
        let repo = Repo { project: project.clone(), git_dir: git_dir.clone() };
        assert_eq!(check(&repo, since), Moved { refs: false, work: false });
        assert!(!changed_since(&repo, since));

        // `git add`: the index is rewritten, no ref moves.
        fs_err::write(git_dir.join("index"), b"DIRC").unwrap();
        assert_eq!(check(&repo, since), Moved { refs: false, work: true });
        assert!(!changed_since(&repo, since));

        // A commit: its branch's folder changes (the ref renamed into place).
        set_time(&git_dir.join("refs/heads"), "2026-11-27T09:00:00Z");
        assert_eq!(check(&repo, since), Moved { refs: true, work: true });
        assert!(changed_since(&repo, since));

        let gone = Repo { project, git_dir: temp.path().join("nothing-here/.git") };
        assert_eq!(check(&gone, since), Moved { refs: false, work: false });
        assert!(!changed_since(&gone, since));
    }
}
