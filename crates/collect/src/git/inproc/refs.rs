//! The refs of the listing read from the listing of `refs/` that [`super::plain_layout`]
//! makes anyway (it refuses anything there but folders and regular files): each loose
//! ref opened by its path below the open git dir and read in four system calls, merged
//! with `packed-refs` (gix's buffer, read once), in git's order. gix's own iteration
//! lists every folder of `refs/` again and reads each file by its whole path in six;
//! the listing needs every ref of every repository whose refs moved.
//!
//! Only the plain case is read here: names of ASCII letters, digits, `-`, `_`, `.` and
//! `/` that git and gix both accept as they are, files that hold exactly what git writes
//! (`<40 hex digits>\n` or `ref: refs/…\n`), symbolic refs that lead to a ref within
//! five steps. Anything else is left to gix's iteration ([`super::log`] falls back to
//! it), which then reads it or sends the repository to git, as before.

use std::collections::BTreeMap;
use std::os::fd::{AsFd as _, BorrowedFd};
use std::os::unix::ffi::OsStrExt as _;
use std::path::Path;

use gix::ObjectId;
use gix::bstr::ByteSlice as _;

/// How deep below `refs/` the folders of loose refs may go (as for the layout check).
pub(super) const DEPTH: usize = 8;

/// The loose refs' files below `refs/` of the open git dir `git`, each by its path from
/// the git dir (`refs/heads/main`), when every entry there is a folder (at most
/// [`DEPTH`] levels down) or a regular file (none when `refs/` is missing); `None`
/// otherwise: the reader opens ref files without the non-blocking guard, so a FIFO
/// there asks git.
pub(super) fn files(git: BorrowedFd<'_>) -> Option<Vec<Vec<u8>>> {
    let mut found = Vec::new();
    let mut path = b"refs".to_vec();
    walk(git, &mut path, DEPTH, &mut found)?;
    Some(found)
}

/// [`files`] for the folder `path` (from the git dir) below the open folder `base`,
/// opened by its last component.
fn walk(
    base: BorrowedFd<'_>,
    path: &mut Vec<u8>,
    depth: usize,
    found: &mut Vec<Vec<u8>>,
) -> Option<()> {
    let name = path.rsplit(|&byte| byte == b'/').next().unwrap_or_default();
    let name = Path::new(std::ffi::OsStr::from_bytes(name));
    let folder = match crate::listing::open_at(base, name) {
        Ok(folder) => folder,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Some(()),
        Err(_) => return None,
    };
    let listing = crate::listing::list_open(folder.as_fd());
    if listing.stopped.is_some() {
        return None;
    }
    for entry in &listing.entries {
        let length = path.len();
        path.push(b'/');
        path.extend_from_slice(entry.name.as_bytes());
        if entry.kind.is_dir() {
            if depth == 0 {
                return None;
            }
            walk(folder.as_fd(), path, depth - 1, found)?;
        } else if entry.kind.is_file() {
            found.push(path.clone());
        } else {
            return None;
        }
        path.truncate(length);
    }
    Some(())
}

/// What a ref holds.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    /// An object id, and its peeled id where `packed-refs` gives it.
    Id(ObjectId, Option<ObjectId>),
    /// The name of another ref.
    Symbolic(Vec<u8>),
}

/// Every ref under `refs/` (the stash too), loose (`files`, read below the open git dir `git`) over
/// packed (`packed`), by full name in git's order (bytewise), each with its id peeled as
/// [`super::peeled`] peels it; and `HEAD`'s id as gix's `Head::id` gives it, from its
/// bytes (`head`): the id it holds, or that of the ref it names, not peeled (`None`:
/// unborn, the ref it names does not exist). `None` when anything is not the plain case
/// this module reads (gix's iteration is then asked).
pub(super) fn tips(
    repository: &gix::Repository,
    loose: &super::Loose,
    (git, files, head): (BorrowedFd<'_>, &[Vec<u8>], &[u8]),
    packed: Option<&gix::refs::packed::Buffer>,
) -> Option<super::Tips> {
    let mut refs: BTreeMap<Vec<u8>, Target> = BTreeMap::new();
    if let Some(packed) = packed {
        for reference in packed.iter().ok()? {
            let reference = reference.ok()?;
            let name = reference.name.as_bstr();
            if !plain_name(name) {
                return None;
            }
            let peeled = reference.object.map(|_| reference.object());
            refs.insert(name.to_vec(), Target::Id(reference.target(), peeled));
        }
    }
    for path in files {
        if !plain_name(path) {
            return None;
        }
        let relative = path.to_str().ok()?;
        // Gone since the listing (a `git pack-refs`, a deleted branch): as gix's later
        // listing would not have seen it.
        let Some(bytes) = crate::fsread::read_small_at(git, relative, 256).ok()? else {
            continue;
        };
        refs.insert(path.clone(), parse(&bytes)?);
    }
    let head = match parse(head)? {
        Target::Id(id, _) => Some(id),
        // A symbolic `HEAD` is the id its ref holds; one symbolic in turn is gix's to read.
        Target::Symbolic(name) => match refs.get(&name) {
            None => None,
            Some(Target::Id(id, _)) => Some(*id),
            Some(Target::Symbolic(_)) => return None,
        },
    };
    let mut tips = Vec::with_capacity(refs.len());
    for (name, target) in &refs {
        let id = resolve(repository, loose, &refs, target)?;
        tips.push((String::from_utf8(name.clone()).ok()?, id));
    }
    Some(super::Tips { refs: tips, head })
}

/// The id `target` leads to: symbolic refs followed (five steps at most, as git does)
/// among `refs`, then peeled through tags as [`super::peeled`] does (with loose objects,
/// each object read; without, `packed-refs`' peeled id where it gives one, as gix does).
fn resolve(
    repository: &gix::Repository,
    loose: &super::Loose,
    refs: &BTreeMap<Vec<u8>, Target>,
    target: &Target,
) -> Option<ObjectId> {
    let mut target = target;
    for _ in 0..5 {
        match target {
            Target::Symbolic(name) => target = refs.get(name)?,
            Target::Id(id, peeled) => {
                return match peeled {
                    Some(peeled) if !loose.any() => Some(*peeled),
                    _ => super::peel_object(repository, loose, *id),
                };
            }
        }
    }
    None
}

/// A loose ref's bytes as git writes them: `<40 lowercase hex digits>\n`, or
/// `ref: <plain name>\n`; `None` for anything else.
fn parse(bytes: &[u8]) -> Option<Target> {
    let line = bytes.strip_suffix(b"\n")?;
    if let Some(name) = line.strip_prefix(b"ref: ") {
        return plain_name(name).then(|| Target::Symbolic(name.to_vec()));
    }
    let hex =
        line.len() == 40 && line.iter().all(|&byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'));
    hex.then(|| ObjectId::from_hex(line).ok()).flatten().map(|id| Target::Id(id, None))
}

/// Whether `name` is a ref under `refs/` that git and gix both take as it is: ASCII
/// letters, digits, `-`, `_`, `.` and `/`, no empty component, none that starts or ends
/// with `.` or ends with `.lock`, no `..`.
fn plain_name(name: &[u8]) -> bool {
    name.starts_with(b"refs/")
        && name.iter().all(|&byte| byte.is_ascii_alphanumeric() || b"-_./".contains(&byte))
        && name.split(|&byte| byte == b'/').all(|part| {
            !part.is_empty()
                && !part.starts_with(b".")
                && !part.ends_with(b".")
                && !part.ends_with(b".lock")
                && !part.windows(2).any(|pair| pair == b"..")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_git_writes_is_read() {
        let id = "0123456789abcdef0123456789abcdef01234567";
        let parsed = |text: &str| parse(text.as_bytes());
        assert_eq!(
            parsed(&format!("{id}\n")),
            Some(Target::Id(ObjectId::from_hex(id.as_bytes()).unwrap(), None))
        );
        assert_eq!(
            parsed("ref: refs/remotes/origin/main\n"),
            Some(Target::Symbolic(b"refs/remotes/origin/main".to_vec()))
        );
        for odd in [
            id.to_owned(),
            format!("{id}\n\n"),
            format!("{id} \n"),
            id.to_uppercase() + "\n",
            format!("{}\n", &id[..39]),
            "ref:  refs/heads/main\n".to_owned(),
            "ref: HEAD\n".to_owned(),
            "ref: refs/heads/a..b\n".to_owned(),
            String::new(),
        ] {
            assert_eq!(parsed(&odd), None, "{odd:?}");
        }
    }

    /// The loose refs' files of a git dir laid out by `make`, or `None`.
    fn listed(make: impl Fn(&Path)) -> Option<Vec<String>> {
        let dir = tempfile::tempdir().unwrap();
        make(dir.path());
        let git = crate::listing::open_at(rustix::fs::CWD, dir.path()).unwrap();
        let found = files(git.as_fd())?;
        let mut found: Vec<String> =
            found.into_iter().map(|path| String::from_utf8(path).unwrap()).collect();
        found.sort();
        Some(found)
    }

    #[test]
    fn the_files_of_refs_are_listed_down_to_the_depth_limit() {
        let file = |dir: &Path, path: &str| {
            let path = dir.join(path);
            fs_err::create_dir_all(path.parent().unwrap()).unwrap();
            fs_err::write(path, "x\n").unwrap();
        };
        assert_eq!(
            listed(|dir| {
                file(dir, "refs/heads/main");
                file(dir, "refs/remotes/origin/feature/x");
                fs_err::create_dir_all(dir.join("refs/tags")).unwrap();
            }),
            Some(vec!["refs/heads/main".to_owned(), "refs/remotes/origin/feature/x".to_owned()])
        );
        // No `refs/` at all: nothing (git itself will say what is wrong).
        assert_eq!(listed(|_| {}), Some(Vec::new()));
        // `refs` a file, not a folder: git is asked.
        assert_eq!(listed(|dir| fs_err::write(dir.join("refs"), "").unwrap()), None);
        // Folders `DEPTH` levels below `refs/` are read; one more level asks git.
        let deep = |levels: usize| format!("refs/{}main", "d/".repeat(levels));
        assert_eq!(listed(|dir| file(dir, &deep(DEPTH))), Some(vec![deep(DEPTH)]));
        assert_eq!(listed(|dir| file(dir, &deep(DEPTH + 1))), None);
    }

    #[test]
    fn plain_names_are_a_subset_of_valid_ones() {
        for name in
            ["refs/heads/main", "refs/tags/v0.10.0", "refs/heads/feature/x-1_2", "refs/stash"]
        {
            assert!(plain_name(name.as_bytes()), "{name}");
            assert!(gix::validate::reference::name(name.into()).is_ok(), "{name}");
        }
        for name in [
            "refs/heads/.hidden",
            "refs/heads/x.lock",
            "refs/heads/a..b",
            "refs/heads/end.",
            "refs/heads//double",
            "refs/heads/",
            "refs/heads/user@home",
            "refs/heads/sp ace",
            "refs/heads/ünï",
            "HEAD",
            "heads/main",
        ] {
            assert!(!plain_name(name.as_bytes()), "{name}");
        }
    }
}
