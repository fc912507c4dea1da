//! The one way `collect` lists a folder: discovery, the skip check, the in-process git
//! reader, work in progress and every agent's reader go through here.
//!
//! - One entry type, [`Entry`]: a name and a [`Kind`], the type the listing gives
//!   (`d_type`), or the entry's own `lstat` on a file system that gives none. A link is
//!   a link, never followed here; an entry neither tells is left out.
//! - One error policy: a path that is not there or is not a folder lists as nothing
//!   ([`is_missing`]), which is how a source that is not installed looks. A folder that
//!   is there and cannot be opened is the error of [`list`]; a listing that fails part
//!   way keeps what it read and says why in [`Listing::stopped`]. Callers decide what an
//!   error means to them (a warning naming the path, "changed", "ask git"), never to
//!   drop it unseen.
//! - Listing order is the file system's; callers that show or compare sort.
//!
//! [`for_each_entry`] is the allocation-free loop beneath, for the hot paths that open
//! a folder once and look at its entries by name (`list_fresh`, the skip check).

use std::ffi::{CStr, OsStr, OsString};
use std::io;
use std::os::fd::{AsFd as _, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

/// What an entry is, as its listing says (links not followed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Kind(FileType);

impl Kind {
    /// A real folder (not a link to one).
    pub(crate) fn is_dir(self) -> bool {
        self.0 == FileType::Directory
    }

    /// A regular file (not a link to one).
    pub(crate) fn is_file(self) -> bool {
        self.0 == FileType::RegularFile
    }

    /// A symbolic link.
    pub(crate) fn is_symlink(self) -> bool {
        self.0 == FileType::Symlink
    }

    /// The type as rustix gives it.
    #[cfg(test)]
    pub(crate) fn file_type(self) -> FileType {
        self.0
    }
}

/// One entry of a folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Its name.
    pub(crate) name: OsString,
    /// What it is.
    pub(crate) kind: Kind,
}

impl Entry {
    /// Its path in `folder`.
    pub(crate) fn path_in(&self, folder: &Path) -> PathBuf {
        folder.join(&self.name)
    }
}

/// A folder's entries, in listing order.
#[derive(Debug, Default)]
pub(crate) struct Listing {
    /// The entries read.
    pub(crate) entries: Vec<Entry>,
    /// Why the listing stopped part way, after `entries`.
    pub(crate) stopped: Option<io::Error>,
}

/// Whether an error of [`list`] means that nothing is there: the path does not exist, or
/// is not a folder.
pub(crate) fn is_missing(error: &io::Error) -> bool {
    matches!(error.kind(), io::ErrorKind::NotFound | io::ErrorKind::NotADirectory)
}

/// The entries of the folder at `path` (a link to a folder is followed there).
pub(crate) fn list(path: &Path) -> Result<Listing, io::Error> {
    list_at(rustix::fs::CWD, path)
}

/// [`list`] of the folder at `relative` below the open folder `base`.
pub(crate) fn list_at(base: BorrowedFd<'_>, relative: &Path) -> Result<Listing, io::Error> {
    let folder = open_at(base, relative)?;
    Ok(list_open(folder.as_fd()))
}

/// [`list`] of the folder `folder`, already open (for a caller that keeps it open to
/// reach what is below it by name).
pub(crate) fn list_open(folder: BorrowedFd<'_>) -> Listing {
    let mut listing = Listing::default();
    let read = for_each_entry(folder, |_, name, kind| {
        listing
            .entries
            .push(Entry { name: OsStr::from_bytes(name.to_bytes()).to_owned(), kind: Kind(kind) });
    });
    listing.stopped = read.err().map(io::Error::from);
    listing
}

/// The folder at `relative` below `base`, open for listing.
pub(crate) fn open_at(base: BorrowedFd<'_>, relative: &Path) -> Result<OwnedFd, io::Error> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    rustix::fs::openat(base, relative, flags, Mode::empty()).map_err(io::Error::from)
}

/// Calls `visit` with the folder, the name and the type of each entry of the open
/// folder `folder` but `.` and `..`, in listing order. The type is the listing's, or
/// (on a file system that does not give it) its `lstat`'s; an entry neither tells is
/// left out. A listing that fails part way ends with the error, after the entries read
/// before it.
///
/// On Linux the entries are read into a buffer on the stack and lent from there: a
/// listing costs no allocation (`rustix::fs::Dir` copies every name).
pub(crate) fn for_each_entry(
    folder: BorrowedFd<'_>,
    mut visit: impl FnMut(BorrowedFd<'_>, &CStr, FileType),
) -> Result<(), Errno> {
    let mut entry = |name: &CStr, kind: FileType| {
        if matches!(name.to_bytes(), b"." | b"..") {
            return;
        }
        let kind = match kind {
            FileType::Unknown => {
                match rustix::fs::statat(folder, name, AtFlags::SYMLINK_NOFOLLOW) {
                    Ok(stat) => FileType::from_raw_mode(stat.st_mode),
                    Err(_) => return,
                }
            }
            listed => listed,
        };
        visit(folder, name, kind);
    };
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        // Room for a few dozen entries per `getdents64`; a name is at most 255 bytes, so
        // one always fits.
        let mut buf = [std::mem::MaybeUninit::<u8>::uninit(); 8 * 1024];
        let mut entries = rustix::fs::RawDir::new(folder, &mut buf);
        while let Some(listed) = entries.next() {
            let listed = listed?;
            entry(listed.file_name(), listed.file_type());
        }
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let mut dir = rustix::fs::Dir::read_from(folder)?;
        while let Some(listed) = dir.read() {
            let listed = listed?;
            entry(listed.file_name(), listed.file_type());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder of `count` entries named by `name`, every third a folder and the others
    /// files, and a dangling link `link`; with the entries it holds.
    fn folder_of(
        count: usize,
        name: impl Fn(usize) -> String,
    ) -> (tempfile::TempDir, Vec<(String, FileType)>) {
        let temp = tempfile::tempdir().unwrap();
        let mut expected = Vec::new();
        for index in 0..count {
            let name = name(index);
            if index % 3 == 0 {
                fs_err::create_dir(temp.path().join(&name)).unwrap();
                expected.push((name, FileType::Directory));
            } else {
                fs_err::write(temp.path().join(&name), "").unwrap();
                expected.push((name, FileType::RegularFile));
            }
        }
        std::os::unix::fs::symlink("nowhere", temp.path().join("link")).unwrap();
        expected.push(("link".to_owned(), FileType::Symlink));
        (temp, expected)
    }

    #[test]
    fn a_listing_longer_than_its_buffer_gives_every_entry_once_with_its_type() {
        // 600 names of 200 bytes fill the 8 KB buffer many times over.
        let (temp, mut expected) =
            folder_of(600, |index| format!("{index:04}-{}", "x".repeat(195)));
        let folder = rustix::fs::open(
            temp.path(),
            rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::DIRECTORY,
            rustix::fs::Mode::empty(),
        )
        .unwrap();
        let mut listed = Vec::new();
        for_each_entry(std::os::fd::AsFd::as_fd(&folder), |_, name, kind| {
            listed.push((name.to_str().unwrap().to_owned(), kind));
        })
        .unwrap();
        listed.sort_by(|a, b| a.0.cmp(&b.0));
        expected.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(listed, expected);
    }

    #[test]
    fn a_listing_gives_names_and_types_without_following_links() {
        // Enough entries for several `getdents64` calls.
        let (temp, mut expected) =
            folder_of(300, |index| format!("entry-{index:03}-{}", "x".repeat(index % 40)));
        let listing = list(temp.path()).unwrap();
        assert!(listing.stopped.is_none());
        let mut listed: Vec<(String, FileType)> = listing
            .entries
            .iter()
            .map(|entry| (entry.name.to_str().unwrap().to_owned(), entry.kind.file_type()))
            .collect();
        listed.sort_by(|a, b| a.0.cmp(&b.0));
        expected.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(listed, expected);
        let link = listing.entries.iter().find(|entry| entry.name == "link").unwrap();
        assert!(link.kind.is_symlink() && !link.kind.is_dir() && !link.kind.is_file());
        let others = listing.entries.iter().filter(|entry| entry.name != "link");
        assert!(others.clone().all(|entry| !entry.kind.is_symlink()));
        assert!(others.clone().any(|entry| entry.kind.is_file()));
        assert!(others.clone().any(|entry| entry.kind.is_dir()));
        assert_eq!(link.path_in(temp.path()), temp.path().join("link"));
    }

    #[test]
    fn nothing_there_is_missing_and_a_closed_folder_is_an_error() {
        let temp = tempfile::tempdir().unwrap();
        let missing = list(&temp.path().join("absent")).unwrap_err();
        assert!(is_missing(&missing), "{missing}");
        fs_err::write(temp.path().join("file"), "").unwrap();
        let file = list(&temp.path().join("file")).unwrap_err();
        assert!(is_missing(&file), "{file}");
        // A link that leads to itself is there, and is no folder to list: an error,
        // not nothing (whoever runs the test, root too).
        std::os::unix::fs::symlink("loop", temp.path().join("loop")).unwrap();
        let looped = list(&temp.path().join("loop")).unwrap_err();
        assert!(!is_missing(&looped), "{looped}");
        // A folder that is there but cannot be read (root reads every folder: skip).
        let closed = temp.path().join("closed");
        fs_err::create_dir(&closed).unwrap();
        std::fs::set_permissions(&closed, std::os::unix::fs::PermissionsExt::from_mode(0o000))
            .unwrap();
        if let Err(error) = list(&closed) {
            assert!(!is_missing(&error), "{error}");
            assert_eq!(error.kind(), io::ErrorKind::PermissionDenied);
        }
        std::fs::set_permissions(&closed, std::os::unix::fs::PermissionsExt::from_mode(0o700))
            .unwrap();
    }
}
