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
//! ([`log::SKEW_LOOKS`] parents decoded per repository) and the commits it finds are counted
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
//! process, where a git process is killed at its deadline: refs and packs are listed
//! when the repository is opened, loose objects are read through `fsread`, [`Loose`]),
//! and any error at all, whose message git then gives.

use std::os::fd::{AsFd as _, BorrowedFd};
use std::path::Path;

use gix::bstr::ByteSlice as _;
use jiff::Timestamp;

use super::Repo;
use crate::Env;

/// foldhash's fast hasher with a seed drawn once per process, for sets of paths a
/// repository names (a cloned repository's paths are not ours to trust not to collide
/// under a seed known in advance).
type Seeded = foldhash::fast::RandomState;

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
    loose: Loose,
    /// The open git dir, and the loose refs' files below it as the layout check listed
    /// them ([`refs::files`]): the listing reads them from there.
    git: rustix::fd::OwnedFd,
    ref_files: Vec<Vec<u8>>,
    /// `HEAD`'s bytes as the layout check read them.
    head: Vec<u8>,
    /// The refs and `HEAD` as the listing read them ([`Reader::log`]), for the status and
    /// the branches ahead that follow on the same reader: each ref is then neither listed
    /// nor read again.
    tips: std::cell::OnceCell<Tips>,
}

/// Refs by full name in git's order, each with its peeled id, and `HEAD`'s id (`None`:
/// unborn): as read ([`refs::tips`], `log::gix_refs`), and as the reader keeps them after
/// its listing (the stash left out).
#[derive(Debug)]
pub(crate) struct Tips {
    pub(crate) refs: Vec<(String, gix::ObjectId)>,
    pub(crate) head: Option<gix::ObjectId>,
}

/// The loose objects' folder, when the repository has loose objects (`objects/XX/`
/// folders; `git fetch` leaves small fetches loose): every object is then read at its
/// loose path first ([`Loose::read`], or checked with [`Loose::allows`] where gix reads
/// it), so that a FIFO where a loose object should be is refused (git is asked) instead
/// of blocking the process. Listing every `objects/XX` folder up front cost a listing
/// each (up to 256 per repository); instead the `objects` folder is kept open, and each
/// object is opened by its two-part name below it: one short path walk, not one through
/// the whole path to the repository.
///
/// The commits read loose are kept for the reader's life: the listing walk, the
/// branches-ahead painting and the line counts of one repository read many of the same
/// commits, each a file to open and inflate again otherwise.
#[derive(Debug, Clone, Default)]
pub(crate) struct Loose(Option<std::sync::Arc<LooseFolder>>);

/// The open `objects` folder of a repository with loose objects, and the commits read
/// from it.
#[derive(Debug)]
pub(crate) struct LooseFolder {
    objects: std::os::fd::OwnedFd,
    commits: std::sync::Mutex<
        std::collections::HashMap<gix::ObjectId, Box<[u8]>, foldhash::fast::FixedState>,
    >,
}

impl Loose {
    /// `XX/YYYY…`, the object's path below `objects`.
    fn relative(id: &gix::oid) -> String {
        let mut hex = id.to_hex().to_string();
        hex.insert(2, '/');
        hex
    }

    /// Whether the object `id` may be read: not loose, or loose as a regular file.
    pub(crate) fn allows(&self, id: &gix::oid) -> bool {
        use std::os::fd::AsFd as _;
        let Some(folder) = &self.0 else { return true };
        let relative = Loose::relative(id);
        match rustix::fs::statat(
            folder.objects.as_fd(),
            relative.as_str(),
            rustix::fs::AtFlags::SYMLINK_NOFOLLOW,
        ) {
            Ok(stat) => rustix::fs::FileType::from_raw_mode(stat.st_mode).is_file(),
            Err(error) => error == rustix::io::Errno::NOENT,
        }
    }

    /// Whether the repository has loose objects.
    pub(crate) fn any(&self) -> bool {
        self.0.is_some()
    }

    /// Reads the object `id` into `out` when it is loose, as gix would but without
    /// mapping the file into memory (unmapping thousands of small maps costs a TLB
    /// shootdown each on every core), inflated and its header checked. The file is
    /// opened below the open `objects` folder without blocking (`O_NONBLOCK`, so a FIFO
    /// opens at once), and anything its `fstat` does not call a regular file is refused
    /// before a byte is read ([`crate::fsread::read_small_at`]: one path walk of two
    /// names and four system calls where `fsread::read_small` makes seven).
    /// `Ok(Some(kind))`: read, `out` holds the object's data; `Ok(None)`: not loose (gix
    /// reads it from the packs); `Err(())`: it cannot be read here, git is asked.
    pub(crate) fn read(
        &self,
        id: &gix::oid,
        out: &mut Vec<u8>,
    ) -> Result<Option<gix::object::Kind>, ()> {
        use std::os::fd::AsFd as _;
        let Some(folder) = &self.0 else { return Ok(None) };
        let commits = || folder.commits.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(commit) = commits().get(id) {
            out.clear();
            out.extend_from_slice(commit);
            return Ok(Some(gix::object::Kind::Commit));
        }
        let relative = Loose::relative(id);
        let Some(compressed) =
            crate::fsread::read_small_at(folder.objects.as_fd(), &relative, LOOSE_MAX)
                .map_err(|_| ())?
        else {
            return Ok(None);
        };
        let kind = INFLATE.with_borrow_mut(|inflate| inflate_loose(inflate, &compressed, out))?;
        if kind == gix::object::Kind::Commit {
            commits().insert(id.to_owned(), out.as_slice().into());
        }
        Ok(Some(kind))
    }
}

thread_local! {
    /// The inflater of the loose objects read on this thread, reset for each: sirocco's
    /// decoder holds 13 KB of tables, and setting up a new one for each object was a
    /// tenth of `fetched` `daily`'s instructions.
    static INFLATE: std::cell::RefCell<gix_zlib::Inflate> =
        std::cell::RefCell::new(gix_zlib::Inflate::default());
}

/// Inflates a loose object's file `compressed` into `out` (its data, without the header),
/// returning its kind; `Err(())` when it is not a well-formed object of the size its
/// header says, or a larger one than [`INFLATED_MAX`].
fn inflate_loose(
    inflate: &mut gix_zlib::Inflate,
    compressed: &[u8],
    out: &mut Vec<u8>,
) -> Result<gix::object::Kind, ()> {
    inflate.reset();
    let mut header = [0_u8; 64];
    let (status, consumed_in, consumed_out) =
        inflate.prefix(compressed, &mut header).map_err(|_| ())?;
    let (kind, size, header_size) =
        gix::objs::decode::loose_header(&header[..consumed_out]).map_err(|_| ())?;
    if size > INFLATED_MAX {
        return Err(());
    }
    let size = usize::try_from(size).map_err(|_| ())?;
    out.clear();
    if status == gix_zlib::Status::StreamEnd {
        let body = header.get(header_size..consumed_out).ok_or(())?;
        if body.len() != size {
            return Err(());
        }
        out.extend_from_slice(body);
    } else {
        let read = inflate
            .rest(&compressed[consumed_in..], &header[..consumed_out], header_size, out, size)
            .map_err(|_| ())?;
        if read != size {
            return Err(());
        }
    }
    Ok(kind)
}

/// The largest loose object file read in process (compressed); a larger one asks git.
const LOOSE_MAX: u64 = 64 << 20;

/// The largest object a loose file may inflate to before git is asked instead (its
/// header says the size, which is allocated).
const INFLATED_MAX: u64 = 256 << 20;

/// The object `id`, loose (read by [`Loose::read`]) or packed (read by gix): its kind
/// and data in `out`. `None`: git is asked.
pub(crate) fn find<'b>(
    repository: &gix::Repository,
    loose: &Loose,
    id: &gix::oid,
    out: &'b mut Vec<u8>,
) -> Option<(gix::object::Kind, &'b [u8])> {
    match loose.read(id, out) {
        Err(()) => None,
        Ok(Some(kind)) => Some((kind, out.as_slice())),
        Ok(None) => {
            let data = gix::prelude::Find::try_find(&repository.objects, id, out).ok()??;
            Some((data.kind, data.data))
        }
    }
}

/// The repository's commit-graph (`objects/info/commit-graph`, or the chain of
/// `objects/info/commit-graphs/`), where git would read one: `core.commitGraph` is not
/// false in the repository's configuration, and no replace refs or shallow file (which
/// the reader refuses anyway); `None` when there is none or it does not load, and the
/// commits are decoded from their objects instead. Its files are regular files: the
/// layout check allows nothing else below `objects/info` ([`objects_layout`]), so
/// opening them cannot block. The graph is derived from the commits (each one's date and
/// parents), so what is read from it is what decoding the commit gives.
pub(crate) fn commit_graph(repository: &gix::Repository) -> Option<gix::commitgraph::Graph> {
    // Looked for first: two `lstat`s where gix, finding none, makes five calls.
    let info = repository.objects.store_ref().path().join("info");
    let there = |name: &str| fs_err::symlink_metadata(info.join(name)).is_ok();
    if !there("commit-graph") && !there("commit-graphs") {
        return None;
    }
    repository.commit_graph_if_enabled().ok().flatten()
}

/// The committer date the commit-graph holds for `id`, with the commit's entry; `None`
/// when it does not hold the commit (one made since the graph was written) or holds the
/// date 0, which is what its 34 bits keep of a date before 1970 (the commit is then
/// decoded).
pub(crate) fn graph_commit<'g>(
    graph: &'g gix::commitgraph::Graph,
    id: &gix::oid,
) -> Option<(i64, gix::commitgraph::file::Commit<'g>)> {
    let commit = graph.commit_by_id(id)?;
    let date = i64::try_from(commit.committer_timestamp()).ok().filter(|date| *date > 0)?;
    Some((date, commit))
}

/// The object a ref names, peeled through annotated tags as `peel_to_id` does, with each
/// object checked by `loose` before it is read. `None` on any error (git is then asked).
pub(crate) fn peeled(
    repository: &gix::Repository,
    loose: &Loose,
    reference: &mut gix::Reference<'_>,
    packed: Option<&gix::refs::packed::Buffer>,
) -> Option<gix::ObjectId> {
    if !loose.any() {
        return Some(reference.peel_to_id_packed(packed).ok()?.detach());
    }
    // Symbolic refs followed to the ref they name (a few levels at most).
    let mut target = reference.clone();
    for _ in 0..5 {
        if target.target().try_id().is_some() {
            break;
        }
        target = target.follow()?.ok()?;
    }
    peel_object(repository, loose, target.target().try_id()?.to_owned())
}

/// The object `id` peeled through tags (eight at most), each read as [`peeled`] reads
/// them; `None` when one cannot be read.
pub(crate) fn peel_object(
    repository: &gix::Repository,
    loose: &Loose,
    mut id: gix::ObjectId,
) -> Option<gix::ObjectId> {
    // A loose object is read whole by `Loose::read` (which refuses a FIFO and keeps a
    // commit for the walk that follows) rather than its header by gix, which maps each
    // loose file into memory to read it: an `mmap` and a `munmap` per ref tip.
    let mut buffer = Vec::new();
    for _ in 0..8 {
        let (kind, read) = match loose.read(&id, &mut buffer) {
            Err(()) => return None,
            Ok(Some(kind)) => (kind, true),
            Ok(None) => (repository.try_find_header(id).ok()??.kind(), false),
        };
        if kind != gix::object::Kind::Tag {
            return Some(id);
        }
        id = if read {
            gix::objs::TagRefIter::from_bytes(&buffer, gix::hash::Kind::Sha1).target_id().ok()?
        } else {
            repository.find_object(id).ok()?.try_into_tag().ok()?.target_id().ok()?.detach()
        };
    }
    None
}

impl<'a> Reader<'a> {
    /// Opens the repository, or `None` when git must be asked.
    pub(crate) fn open(repo: &'a Repo) -> Option<Reader<'a>> {
        let work_tree = repo.project.path.as_path();
        let Layout { loose, indexes, git, ref_files, head } =
            plain_layout(work_tree, &repo.git_dir)?;
        let options = gix::open::Options::isolated().object_store_slots(store_slots(indexes));
        let mut repository = gix::open_opts(work_tree, options).ok()?;
        // The repository discovery found, and no other (a `.git` file leading elsewhere).
        // (`repo.git_dir` is canonical, and so is the work tree gix was given: a `.git`
        // folder there is found under that very path, a `.git` file leads elsewhere.)
        let same = repository.common_dir() == repo.git_dir
            || fs_err::canonicalize(repository.common_dir()).is_ok_and(|dir| dir == repo.git_dir);
        if !same || !plain_config(&repository) {
            return None;
        }
        repository.object_cache_size_if_unset(4 << 20);
        let tips = std::cell::OnceCell::new();
        Some(Reader { repo, repository, loose, git, ref_files, head, tips })
    }

    /// [`Reader::open`] where the environment lets the reader stand in for git at all
    /// ([`environment_allows`]).
    pub(crate) fn open_in(env: &Env, repo: &'a Repo) -> Option<Reader<'a>> {
        environment_allows(env).then(|| Reader::open(repo)).flatten()
    }

    /// The repository as gitoxide opened it, for the other in-process reads
    /// (`super::ahead`).
    pub(crate) fn repository(&self) -> &gix::Repository {
        &self.repository
    }

    /// The check each object read goes through ([`Loose`]).
    pub(crate) fn loose(&self) -> &Loose {
        &self.loose
    }

    /// Lists the commits with committer dates at or after `bound`, as [`super::log`]
    /// does, with how many of them were found only below a commit dated before the
    /// bound; or `None` when git must be asked.
    pub(crate) fn log(&self, bound: Timestamp) -> Option<(Vec<super::Listed>, u64)> {
        let read = if let Some(read) = self.refs() {
            read
        } else {
            // Not the plain case: gix's own iteration, kept for what follows likewise.
            let packed = self.repository.refs.cached_packed_buffer().ok()?;
            let packed = packed.as_ref().map(|buffer| &***buffer);
            let read = log::gix_refs(&self.repository, &self.loose, packed)?;
            self.tips.get_or_init(|| without_stash(read))
        };
        log::list(&self.repository, &self.loose, read, bound.as_second())
    }

    /// The refs and `HEAD` the reader keeps, when something read them already.
    #[cfg(test)]
    pub(crate) fn tips(&self) -> Option<&Tips> {
        self.tips.get()
    }

    /// The refs and `HEAD`: those the listing read, else read now from the layout
    /// check's listing ([`refs::tips`], kept for what follows on this reader); `None`
    /// where the refs are not the plain case it reads (the caller asks gix).
    pub(crate) fn refs(&self) -> Option<&Tips> {
        if let Some(tips) = self.tips.get() {
            return Some(tips);
        }
        let packed = self.repository.refs.cached_packed_buffer().ok()?;
        let packed = packed.as_ref().map(|buffer| &***buffer);
        let files = (self.git.as_fd(), self.ref_files.as_slice(), self.head.as_slice());
        let read = refs::tips(&self.repository, &self.loose, files, packed)?;
        Some(self.tips.get_or_init(|| without_stash(read)))
    }
}

/// The refs as the reader keeps them: the stash is neither a tip of the listing (git's is
/// asked with `--exclude=refs/stash --all`) nor a branch.
fn without_stash(mut read: Tips) -> Tips {
    read.refs.retain(|(name, _)| name != "refs/stash");
    read
}

/// The slots of gix's object store for a repository whose `objects/pack` holds `indexes`
/// pack indexes: gix's own sizing (`Slots::AsNeededByDiskState`: 1.1 slots per index,
/// at least 32), from the listing [`objects_layout`] already made, so that opening does
/// not list the folder and `stat` each file again, nor canonicalize the objects folder's
/// path one component at a time to look for alternates (`plain_layout` made sure there
/// are none). Where a fetch or a repack adds more packs than slots meanwhile, or there
/// are more than gix's maximum, gix fails to read objects and git is asked.
fn store_slots(indexes: usize) -> gix::odb::store::init::Slots {
    // `PackId::max_indices`: gix refuses more slots than that.
    const MAX: u16 = 0x7fff;
    let wanted = (indexes.saturating_mul(11) / 10).max(32);
    gix::odb::store::init::Slots::Given(u16::try_from(wanted).map_or(MAX, |wanted| wanted.min(MAX)))
}

/// The checks that need no more than `stat`, a folder listing and one small read; with
/// the loose objects' folder when there are loose objects, and how many pack indexes
/// `objects/pack` holds. `None`: ask git. What is in the git dir is looked at by name
/// below it, open, not each by its whole path.
fn plain_layout(work_tree: &Path, git_dir: &Path) -> Option<Layout> {
    use rustix::fs::{AtFlags, FileType, statat};
    let owned = |path: &Path| {
        gix::sec::Trust::from_path_ownership(path).is_ok_and(|trust| trust == gix::sec::Trust::Full)
    };
    if !(work_tree.is_dir()
        && work_tree.join(".git").exists()
        && owned(work_tree)
        && owned(git_dir))
    {
        return None;
    }
    let git = crate::listing::open_at(rustix::fs::CWD, git_dir).ok()?;
    let kind = |name: &str| {
        statat(&git, name, AtFlags::SYMLINK_NOFOLLOW)
            .map(|stat| FileType::from_raw_mode(stat.st_mode))
    };
    let regular = |name: &str| kind(name).is_ok_and(|kind| kind == FileType::RegularFile);
    let absent = |name: &str| kind(name).is_err_and(|error| error == rustix::io::Errno::NOENT);
    let regular_or_absent = |name: &str| regular(name) || absent(name);
    let mailmap = fs_err::symlink_metadata(work_tree.join(".mailmap"));
    let mailmap = mailmap.as_ref().map_or_else(
        |error| error.kind() == std::io::ErrorKind::NotFound,
        |meta| meta.file_type().is_file(),
    );
    (regular("HEAD")
        && regular_or_absent("config")
        && regular_or_absent("packed-refs")
        && mailmap
        && [
            "shallow",
            "info/grafts",
            "objects/info/alternates",
            "reftable",
            "refs/replace",
            "commondir",
        ]
        .iter()
        .all(|name| absent(name))
        && no_linked_worktrees(git.as_fd()))
    .then_some(())?;
    let head = valid_head(git.as_fd())?;
    let ref_files = refs::files(git.as_fd())?;
    let (loose, indexes) = objects_layout(git.as_fd())?;
    Some(Layout { loose, indexes, git, ref_files, head })
}

/// What [`plain_layout`] found: the loose objects' folder, how many pack indexes
/// `objects/pack` holds, the open git dir, the loose refs' files below it and `HEAD`'s
/// bytes.
struct Layout {
    loose: Loose,
    indexes: usize,
    git: rustix::fd::OwnedFd,
    ref_files: Vec<Vec<u8>>,
    head: Vec<u8>,
}

/// Whether the object folder (`objects` below the open git dir `git`) holds only what
/// the reader opens safely: `pack/`, `info/` and any other folder of regular files, and
/// loose-object folders (`XX/`, two hex digits), which are not listed (see [`Loose`]).
/// Gives the loose objects' folder when there is one such folder, and how many pack
/// indexes `pack/` holds (for [`store_slots`]).
fn objects_layout(git: BorrowedFd<'_>) -> Option<(Loose, usize)> {
    let folder = match crate::listing::open_at(git, Path::new("objects")) {
        Ok(folder) => folder,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Some((Loose::default(), 0));
        }
        Err(_) => return None,
    };
    let listing = crate::listing::list_open(folder.as_fd());
    if listing.stopped.is_some() {
        return None;
    }
    let mut loose = false;
    let mut indexes = 0;
    for entry in &listing.entries {
        let kind = entry.kind;
        let name = std::os::unix::ffi::OsStrExt::as_bytes(entry.name.as_os_str());
        if kind.is_dir() {
            if name.len() == 2 && name.iter().all(u8::is_ascii_hexdigit) {
                loose = true;
            } else if name == b"pack" {
                indexes = pack_indexes(folder.as_fd())?;
            } else if !only_regular_files(folder.as_fd(), Path::new(&entry.name), 1) {
                return None;
            }
        } else if !kind.is_file() {
            return None;
        }
    }
    let loose = Loose(loose.then(|| {
        std::sync::Arc::new(LooseFolder { objects: folder, commits: std::sync::Mutex::default() })
    }));
    Some((loose, indexes))
}

/// How many pack indexes (`*.idx`) `pack/` below the open `objects` folder holds, or
/// `None` when it holds anything but regular files and folders of them
/// ([`regular_entries`] one level down). A multi-pack index is not counted: the packs it
/// covers keep their own `.idx`, and gix then needs one slot for it instead of one for
/// each of them.
fn pack_indexes(objects: BorrowedFd<'_>) -> Option<usize> {
    let entries = regular_entries(objects, Path::new("pack"), 1)?;
    let indexes = entries.iter().filter(|entry| {
        std::os::unix::ffi::OsStrExt::as_bytes(entry.name.as_os_str()).ends_with(b".idx")
    });
    Some(indexes.count())
}

/// Whether the open git dir `git` has no `worktrees/` entries.
fn no_linked_worktrees(git: BorrowedFd<'_>) -> bool {
    match crate::listing::list_at(git, Path::new("worktrees")) {
        Ok(listing) => listing.entries.is_empty() && listing.stopped.is_none(),
        Err(error) => error.kind() == std::io::ErrorKind::NotFound,
    }
}

/// `HEAD`'s bytes (below the open git dir `git`) when git accepts it for a repository: a
/// symbolic ref into `refs/`, or an object id. Anything else git calls "not a git
/// repository", and says so.
fn valid_head(git: BorrowedFd<'_>) -> Option<Vec<u8>> {
    let bytes = crate::fsread::read_small_at(git, "HEAD", 4096).ok()??;
    let text = String::from_utf8_lossy(&bytes);
    let text = text.trim_end();
    let valid = text
        .strip_prefix("ref: refs/")
        .is_some_and(|rest| !rest.is_empty() && !rest.contains('\n'))
        || (text.len() == 40 && text.bytes().all(|byte| byte.is_ascii_hexdigit()));
    valid.then_some(bytes)
}

/// Whether every entry below the folder `relative` below the open folder `base`
/// (folders `depth` levels down) is a folder or a regular file: the reader opens them
/// without the non-blocking guard of [`crate::fsread`]. Each folder is opened by name
/// below its parent.
fn only_regular_files(base: BorrowedFd<'_>, relative: &Path, depth: usize) -> bool {
    regular_entries(base, relative, depth).is_some()
}

/// The entries of the folder `relative` below the open folder `base` when
/// [`only_regular_files`] holds for it (none when it is missing), else `None`.
fn regular_entries(
    base: BorrowedFd<'_>,
    relative: &Path,
    depth: usize,
) -> Option<Vec<crate::listing::Entry>> {
    let folder = match crate::listing::open_at(base, relative) {
        Ok(folder) => folder,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Some(Vec::new()),
        Err(_) => return None,
    };
    let listing = crate::listing::list_open(folder.as_fd());
    if listing.stopped.is_some() {
        return None;
    }
    for entry in &listing.entries {
        let kind = entry.kind;
        if kind.is_dir() {
            if depth == 0 || !only_regular_files(folder.as_fd(), Path::new(&entry.name), depth - 1)
            {
                return None;
            }
        } else if !kind.is_file() {
            return None;
        }
    }
    Some(listing.entries)
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

mod log;
mod numstat;
mod refs;
mod status;
#[cfg(test)]
mod tests;

pub(crate) use status::Status;

/// A listing by hash, for comparing two of them: the decorations kept are the
/// `refs/heads/` and `refs/remotes/` ones (git's may also name `HEAD`).
#[cfg(test)]
pub(crate) fn records(
    listing: Vec<super::Listed>,
) -> std::collections::BTreeMap<String, super::Listed> {
    listing
        .into_iter()
        .map(|mut listed| {
            listed.refs.retain(|name| {
                name.starts_with("refs/heads/") || name.starts_with("refs/remotes/")
            });
            (listed.hash.clone(), listed)
        })
        .collect()
}
