use std::path::{Path, PathBuf};

use jiff::Timestamp;

use std::collections::HashMap;

use super::log::subject;
use super::status::Status;
use super::*;
use crate::git::{Identity, ReadOptions};
use crate::test_fifo::Fifo;

fn log(repo: &Repo, bound: Timestamp) -> Option<Vec<crate::git::Listed>> {
    Reader::open(repo)?.log(bound).map(|(listed, _)| listed)
}

fn numstats(repo: &Repo, hashes: &[&str]) -> Option<HashMap<String, (u64, u64, u64)>> {
    Reader::open(repo)?.numstats(hashes)
}

fn worktree_unchanged_since(repo: &Repo, since: Timestamp) -> bool {
    Reader::open(repo).is_some_and(|reader| reader.worktree_unchanged_since(since))
}

/// git in `dir` with a pinned home, identity and dates (`date` for both the author and
/// the committer).
fn git_command(dir: &Path, date: &str, args: &[&str]) -> std::process::Command {
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
    command
}

/// Runs git in `dir` ([`git_command`]; `extra` may set the dates apart) and expects it to
/// succeed; its output.
fn git(dir: &Path, date: &str, args: &[&str], extra: &[(&str, &str)]) -> String {
    let mut command = git_command(dir, date, args);
    for (name, value) in extra {
        command.env(name, value);
    }
    let output = command.output().unwrap();
    assert!(output.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

fn commit(dir: &Path, date: &str, file: &str, message: &str) {
    commit_authored(dir, (date, date), file, message);
}

/// [`commit`] with the author's date apart from the committer's: `(committed, authored)`.
fn commit_authored(dir: &Path, (date, authored): (&str, &str), file: &str, message: &str) {
    fs_err::write(dir.join(file), format!("{message}\n{date}\n")).unwrap();
    git(dir, date, &["add", "--", file], &[]);
    let author = [("GIT_AUTHOR_DATE", authored)];
    git(dir, date, &["commit", "-q", "--cleanup=verbatim", "-m", message], &author);
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
fn by_git(repo: &Repo, since: Timestamp) -> std::collections::BTreeMap<String, crate::git::Listed> {
    records(git_listing(repo, since).0)
}

/// The listing of the git CLI's route, in its order, and how many of its commits were
/// found below a commit dated before the bound.
fn git_listing(repo: &Repo, since: Timestamp) -> (Vec<crate::git::Listed>, u64) {
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
    crate::git::log(&env, repo, &options).unwrap()
}

/// The hashes of a listing, in its order.
fn hashes(listing: &[crate::git::Listed]) -> Vec<&str> {
    listing.iter().map(|listed| listed.hash.as_str()).collect()
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
    let dates = ("2026-11-27T13:00:00+09:00", "2026-10-15T09:00:00+09:00");
    commit_authored(&app, dates, "e.txt", "authored in October");
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
    git(&app, "2026-11-27T15:00:00+09:00", &["tag", "-a", "-m", "annotated", "v2", "HEAD~1"], &[]);
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
    assert_eq!(records(listed), expected);
    // The walk did what the fixture is for.
    let subjects: Vec<&str> = expected.values().map(|record| record.subject.as_str()).collect();
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
    assert!(
        expected.values().any(|record| record.mapped_email == "col@example.com"),
        "mailmap applied"
    );
    assert!(
        expected
            .values()
            .any(|record| record.refs.iter().any(|name| name == "refs/remotes/origin/main"))
    );

    // In git's order, and with nothing found below a skewed commit: the commit exactly
    // on the bound is not before it.
    let bound = super::super::listing_bound(since());
    let (listed, below_skew) = Reader::open(&repo).unwrap().log(bound).unwrap();
    let (git_order, git_below_skew) = git_listing(&repo, since());
    assert_eq!(hashes(&listed), hashes(&git_order));
    assert_eq!((below_skew, git_below_skew), (0, 0));

    // Packed refs and packed objects read alike.
    git(&repo.project.path, "2026-11-30T10:00:00+09:00", &["gc", "-q"], &[]);
    assert!(repo.git_dir.join("packed-refs").exists());
    let listed = log(&repo, super::super::listing_bound(since())).expect("read in process");
    assert_eq!(records(listed), by_git(&repo, since()));
}

/// Commits of one second (a rebase, a script) are listed in git's order: newest
/// committer date first, and among equal dates in the order they were queued, the tips
/// by ref name and `HEAD` last, then each commit's parents after what is already queued.
#[test]
fn commits_of_one_second_are_listed_in_git_s_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = init(&dir.path().join("same-second"));
    let second = "2026-11-27T10:00:00+09:00";
    commit(&path, "2026-11-27T09:00:00+09:00", "base.txt", "base");
    for branch in ["zeta", "alpha", "mid"] {
        git(&path, second, &["checkout", "-q", "-b", branch, "main"], &[]);
        commit(&path, second, &format!("{branch}-1.txt"), &format!("{branch} one"));
        commit(&path, second, &format!("{branch}-2.txt"), &format!("{branch} two"));
    }
    git(&path, second, &["checkout", "-q", "main"], &[]);
    commit(&path, second, "main.txt", "main, same second");
    let repo = repo_at(&path);
    let (listed, _) =
        Reader::open(&repo).unwrap().log(super::super::listing_bound(since())).unwrap();
    let (by_git, _) = git_listing(&repo, since());
    assert_eq!(listed.len(), 8);
    assert_eq!(hashes(&listed), hashes(&by_git));
}

/// git in `dir` reading `input` on its standard input; its output.
fn git_with_input(dir: &Path, args: &[&str], input: &[u8]) -> String {
    use std::io::Write as _;
    let mut command = git_command(dir, "2026-11-27T10:00:00+09:00", args);
    command.stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::piped());
    let mut child = command.spawn().unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "git {args:?}");
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// One commit on `main` in a `git fast-import` stream: its mark and its parent's, its
/// committer time (Unix seconds, +09:00), its subject, and a file it writes (`x`).
fn fast_import_commit(
    stream: &mut String,
    (mark, parent): (usize, Option<usize>),
    time: i64,
    subject: &str,
    file: Option<&str>,
) {
    use std::fmt::Write as _;
    let length = subject.len();
    write!(stream, "commit refs/heads/main\nmark :{mark}\n").unwrap();
    writeln!(stream, "committer Dev One <dev@example.com> {time} +0900").unwrap();
    write!(stream, "data {length}\n{subject}\n").unwrap();
    if let Some(parent) = parent {
        writeln!(stream, "from :{parent}").unwrap();
    }
    if let Some(file) = file {
        write!(stream, "M 100644 inline {file}\ndata 2\nx\n").unwrap();
    }
    stream.push('\n');
}

/// A repository whose `main` is a line of `depth` commits, each committed a minute
/// before its parent, all before the bound (a clock going back again and again), on top
/// of one commit of the window, written by `git fast-import`.
fn clock_going_back(dir: &Path, depth: usize) -> Repo {
    let path = init(dir);
    let mut stream = String::new();
    let window = Timestamp::from(
        jiff::civil::date(2026, 11, 27)
            .at(10, 0, 0, 0)
            .to_zoned(jiff::tz::TimeZone::fixed(jiff::tz::offset(9)))
            .unwrap(),
    );
    let old = "2026-11-20T00:00:00Z".parse::<Timestamp>().unwrap();
    for index in 0..=depth {
        let (time, subject) = if index == 0 {
            (window.as_second(), "in the window".to_owned())
        } else {
            let minutes = i64::try_from(index).unwrap();
            (old.as_second() - 60 * minutes, format!("clock back {index}"))
        };
        let parent = index.checked_sub(1).map(|parent| parent + 1);
        fast_import_commit(&mut stream, (index + 1, parent), time, &subject, None);
    }
    git_with_input(&path, &["fast-import", "--quiet"], stream.as_bytes());
    repo_at(&path)
}

/// Below a tip committed before the bound, the walk follows each parent dated later than
/// its child (a clock that went back) down to the commits of the window, and counts them
/// as found below a skewed commit; a commit authored in the window but committed before
/// the bound is listed and counted too. The same with a commit-graph, which dates the
/// parents without reading them. git's `--since` stops at the tips.
#[test]
fn commits_below_a_clock_gone_back_are_listed_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = init(&dir.path().join("skew"));
    commit(&path, "2026-11-20T09:00:00+09:00", "a.txt", "base");
    commit(&path, "2026-11-27T10:00:00+09:00", "a.txt", "in the window");
    commit(&path, "2026-11-21T09:00:00+09:00", "a.txt", "clock back");
    git(&path, "2026-11-21T09:00:00+09:00", &["checkout", "-q", "-b", "other", "main~2"], &[]);
    let dates = ("2026-11-24T09:00:00+09:00", "2026-11-27T11:00:00+09:00");
    commit_authored(&path, dates, "b.txt", "authored in the window");
    git(&path, "2026-11-24T09:00:00+09:00", &["checkout", "-q", "main"], &[]);
    let repo = repo_at(&path);
    let bound = super::super::listing_bound(since());
    let subjects = |listing: &[crate::git::Listed]| {
        let mut subjects: Vec<String> =
            listing.iter().map(|listed| listed.subject.clone()).collect();
        subjects.sort();
        subjects
    };
    let expected = vec!["authored in the window".to_owned(), "in the window".to_owned()];
    let (listed, below_skew) = Reader::open(&repo).unwrap().log(bound).unwrap();
    assert_eq!((subjects(&listed), below_skew), (expected.clone(), 2));

    git(&path, "2026-11-27T12:00:00+09:00", &["commit-graph", "write", "--reachable"], &[]);
    let (listed, below_skew) = Reader::open(&repo).unwrap().log(bound).unwrap();
    assert_eq!((subjects(&listed), below_skew), (expected, 2), "with the commit-graph");
}

/// A parent the commit-graph dated no later than its child is not read when a second
/// old child reaches it (a FIFO in place of its loose object is never opened).
#[test]
fn a_parent_the_graph_dated_is_not_read_from_a_second_old_child() {
    let dir = tempfile::tempdir().unwrap();
    let path = init(&dir.path().join("two-children"));
    commit(&path, "2026-11-19T09:00:00+09:00", "a.txt", "root");
    commit(&path, "2026-11-20T09:00:00+09:00", "a.txt", "parent");
    let parent = git(&path, "2026-11-20T09:00:00+09:00", &["rev-parse", "HEAD"], &[]);
    git(&path, "2026-11-20T09:00:00+09:00", &["checkout", "-q", "-b", "other"], &[]);
    commit(&path, "2026-11-21T09:00:00+09:00", "b.txt", "first child");
    git(&path, "2026-11-21T09:00:00+09:00", &["checkout", "-q", "main"], &[]);
    commit(&path, "2026-11-22T09:00:00+09:00", "c.txt", "second child");
    git(&path, "2026-11-27T12:00:00+09:00", &["commit-graph", "write", "--reachable"], &[]);
    let repo = repo_at(&path);
    let _object = fifo_in_place_of(&repo.git_dir, &parent);
    let bound = super::super::listing_bound(since());
    let (listed, below_skew) =
        Reader::open(&repo).unwrap().log(bound).expect("the parent is never read");
    assert_eq!((listed.len(), below_skew), (0, 0));
}

/// The look below skewed commits is bounded: a commit of the window below 512 commits
/// each dated before its parent is found (one look each), below 513 it is not.
#[test]
fn the_look_below_a_clock_gone_back_stops_after_512_looks() {
    let dir = tempfile::tempdir().unwrap();
    let bound = super::super::listing_bound(since());
    let within = clock_going_back(&dir.path().join("within"), super::log::SKEW_LOOKS);
    let (listed, below_skew) = Reader::open(&within).unwrap().log(bound).unwrap();
    let subjects: Vec<&str> = listed.iter().map(|listed| listed.subject.as_str()).collect();
    assert_eq!((subjects, below_skew), (vec!["in the window"], 1));
    let beyond = clock_going_back(&dir.path().join("beyond"), super::log::SKEW_LOOKS + 1);
    let (listed, below_skew) = Reader::open(&beyond).unwrap().log(bound).unwrap();
    assert_eq!((listed.len(), below_skew), (0, 0));
}

/// A commit git would print otherwise than it is stored is left to git (the in-process
/// listing declines): a NUL in its message, or an `encoding` header other than UTF-8
/// (git re-encodes the message); one that names UTF-8 in either spelling is read.
#[test]
fn a_commit_git_would_print_otherwise_is_left_to_git() {
    let dir = tempfile::tempdir().unwrap();
    let path = init(&dir.path().join("declined"));
    commit(&path, "2026-11-27T09:00:00+09:00", "a.txt", "plain");
    let repo = repo_at(&path);
    let bound = super::super::listing_bound(since());
    let tree = git(&path, "2026-11-27T09:00:00+09:00", &["rev-parse", "HEAD^{tree}"], &[]);
    let parent = git(&path, "2026-11-27T09:00:00+09:00", &["rev-parse", "HEAD"], &[]);
    let tip = |encoding: &str, message: &str| {
        let object = format!(
            "tree {tree}\nparent {parent}\nauthor Dev One <dev@example.com> 1795741200 +0900\ncommitter Dev One <dev@example.com> 1795741200 +0900\n{encoding}\n{message}\n"
        );
        let id = git_with_input(
            &path,
            &["hash-object", "-t", "commit", "-w", "--literally", "--stdin"],
            object.as_bytes(),
        );
        git(&path, "2026-11-27T10:00:00+09:00", &["update-ref", "refs/heads/main", &id], &[]);
        Reader::open(&repo).unwrap().log(bound).map(|(listed, _)| listed.len())
    };
    assert_eq!(tip("", "plain tip"), Some(2));
    assert_eq!(tip("encoding UTF-8\n", "named utf-8"), Some(2));
    assert_eq!(tip("encoding utf8\n", "named utf8"), Some(2));
    assert_eq!(tip("encoding ISO-8859-1\n", "latin"), None);
    assert_eq!(tip("", "sub\0ject"), None);
}

/// The refs the listing reads from the layout check's listing (`refs::tips`) are those
/// gix's own iteration gives, in its order and peeled alike: loose and packed (after
/// `gc`), a loose ref over a packed one, `origin/HEAD`, tags of every kind, the stash and
/// notes; a name that is not plain leaves them to gix.
#[test]
fn the_refs_read_from_the_listing_are_gix_s() {
    use std::os::fd::AsFd as _;
    let dir = tempfile::tempdir().unwrap();
    let repo = rich(dir.path());
    let both = |repo: &Repo| {
        let reader = Reader::open(repo).expect("opens");
        let packed = reader.repository.refs.cached_packed_buffer().unwrap();
        let packed = packed.as_ref().map(|buffer| &***buffer);
        let files = (reader.git.as_fd(), reader.ref_files.as_slice(), reader.head.as_slice());
        let ours = refs::tips(&reader.repository, &reader.loose, files, packed);
        let theirs = log::gix_refs(&reader.repository, &reader.loose, packed).expect("gix reads");
        // `HEAD` read alike too, wherever the refs are.
        if let Some(ours) = &ours {
            assert_eq!(ours.head, theirs.head);
        }
        (ours.map(|all| all.refs), theirs.refs)
    };
    let work = &repo.project.path;
    let at = |spec: &str| {
        let id = git(work, "2026-11-30T10:00:00+09:00", &["rev-parse", spec], &[]);
        gix::ObjectId::from_hex(id.as_bytes()).unwrap()
    };
    let (ours, theirs) = both(&repo);
    let ours = ours.expect("plain refs read from the listing");
    assert_eq!(ours, theirs);
    let id_of = |all: &[(String, gix::ObjectId)], name: &str| {
        all.iter().find(|(known, _)| known == name).map(|(_, id)| *id)
    };
    assert_eq!(id_of(&ours, "refs/tags/v2"), Some(at("v2^{}")), "peeled to the commit");
    assert_eq!(id_of(&ours, "refs/remotes/origin/HEAD"), Some(at("origin/main")));
    assert!(id_of(&ours, "refs/stash").is_some() && id_of(&ours, "refs/notes/commits").is_some());

    // Packed, then a branch moved again (a loose file over its packed line).
    git(work, "2026-11-30T10:00:00+09:00", &["gc", "-q"], &[]);
    assert!(repo.git_dir.join("packed-refs").exists());
    let (ours, theirs) = both(&repo);
    assert_eq!(ours.as_ref(), Some(&theirs));
    git(work, "2026-11-30T10:00:00+09:00", &["branch", "-f", "stale", "HEAD"], &[]);
    assert!(repo.git_dir.join("refs/heads/stale").is_file());
    let (ours, theirs) = both(&repo);
    assert_eq!(ours.as_ref(), Some(&theirs));
    assert_eq!(id_of(&theirs, "refs/heads/stale"), Some(at("HEAD")));

    // A detached `HEAD`, and an unborn one (its branch not made yet).
    git(work, "2026-11-30T10:00:00+09:00", &["checkout", "-q", "--detach", "HEAD~1"], &[]);
    let (ours, theirs) = both(&repo);
    assert_eq!(ours.as_ref(), Some(&theirs));
    git(work, "2026-11-30T10:00:00+09:00", &["checkout", "-q", "--orphan", "fresh"], &[]);
    let reader = Reader::open(&repo).expect("opens");
    let packed = reader.repository.refs.cached_packed_buffer().unwrap();
    let packed = packed.as_ref().map(|buffer| &***buffer);
    let read = log::gix_refs(&reader.repository, &reader.loose, packed).expect("gix reads");
    assert_eq!(read.head, None, "unborn");
    let (ours, theirs) = both(&repo);
    assert_eq!(ours.as_ref(), Some(&theirs));
    git(work, "2026-11-30T10:00:00+09:00", &["checkout", "-q", "-f", "main"], &[]);

    // A name git takes but this reader does not: gix reads them all.
    git(work, "2026-11-30T10:00:00+09:00", &["branch", "user@home", "HEAD"], &[]);
    let (ours, theirs) = both(&repo);
    assert_eq!(ours, None);
    assert!(id_of(&theirs, "refs/heads/user@home").is_some());
    let listed = log(&repo, super::super::listing_bound(since())).expect("read in process");
    assert_eq!(records(listed), by_git(&repo, since()));
}

/// gix's object store has a slot per pack index, sized when the repository opens
/// ([`super::store_slots`], from the reader's own listing of `objects/pack`): a
/// repository with more packs than the 32 slots gix starts from is still read in
/// process, and as git reads it.
#[test]
fn more_packs_than_the_least_slots_read_in_process() {
    let dir = tempfile::tempdir().unwrap();
    let path = init(&dir.path().join("packs"));
    for minute in 0..40 {
        let date = format!("2026-11-27T10:{minute:02}:00+09:00");
        commit(&path, &date, "file.txt", &format!("change {minute}"));
        git(&path, &date, &["-c", "gc.auto=0", "repack", "-q", "-d"], &[]);
    }
    let repo = repo_at(&path);
    let packs = fs_err::read_dir(repo.git_dir.join("objects/pack")).unwrap();
    let indexes = packs
        .filter(|entry| entry.as_ref().unwrap().path().extension().is_some_and(|ext| ext == "idx"))
        .count();
    assert_eq!(indexes, 40);
    let listed = log(&repo, super::super::listing_bound(since())).expect("read in process");
    assert_eq!(listed.len(), 40);
    assert_eq!(records(listed), by_git(&repo, since()));
}

/// gix's own sizing: 1.1 slots per index, at least 32, at most what gix accepts.
#[test]
fn store_slots_follow_gix_s_own_sizing() {
    use gix::odb::store::init::Slots;
    for (indexes, slots) in [(0, 32), (29, 32), (30, 33), (40, 44), (100_000, 0x7fff)] {
        let given = super::store_slots(indexes);
        assert!(matches!(given, Slots::Given(n) if n == slots), "{indexes}: {given:?}");
    }
}

#[test]
fn detached_and_empty_repositories_list_as_git_does() {
    let dir = tempfile::tempdir().unwrap();
    let empty = repo_at(&init(&dir.path().join("empty")));
    assert_eq!(log(&empty, since()).map(records), Some(by_git(&empty, since())));

    let path = init(&dir.path().join("detached"));
    commit(&path, "2026-11-27T09:00:00+09:00", "a.txt", "first");
    commit(&path, "2026-11-27T10:00:00+09:00", "a.txt", "second");
    git(&path, "2026-11-27T10:00:00+09:00", &["checkout", "-q", "--detach", "HEAD~1"], &[]);
    commit(&path, "2026-11-27T11:00:00+09:00", "b.txt", "only on the detached HEAD");
    let detached = repo_at(&path);
    let expected = by_git(&detached, since());
    assert_eq!(expected.len(), 3);
    assert_eq!(log(&detached, since()).map(records), Some(expected));
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
    git(&configured, "2026-11-27T10:00:00+09:00", &["config", "mailmap.file", "/elsewhere"], &[]);
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
    // A repository named `name` with a FIFO at `relative` below its work tree (the
    // folders on the way made), kept while the guard lives.
    let with_fifo = |name: &str, relative: &str| {
        let path = make(name);
        let fifo = path.join(relative);
        fs_err::create_dir_all(fifo.parent().unwrap()).unwrap();
        let guard = Fifo::make(&fifo);
        (path, guard)
    };
    let (fifo, _packed) = with_fifo("fifo", ".git/packed-refs");
    let broken = make("broken-head");
    fs_err::write(broken.join(".git/HEAD"), "garbage\n").unwrap();
    // Two folders down in `refs`: a FIFO, and a link (which gix would follow).
    let (deep_fifo, _deep) = with_fifo("deep-fifo", ".git/refs/remotes/origin/main");
    let linked = make("linked-ref");
    fs_err::create_dir_all(linked.join(".git/refs/remotes/origin")).unwrap();
    std::os::unix::fs::symlink(
        linked.join(".git/refs/heads/main"),
        linked.join(".git/refs/remotes/origin/main"),
    )
    .unwrap();
    // A regular ref file there is read in process.
    let deep_file = make("deep-file");
    fs_err::create_dir_all(deep_file.join(".git/refs/remotes/origin")).unwrap();
    fs_err::copy(
        deep_file.join(".git/refs/heads/main"),
        deep_file.join(".git/refs/remotes/origin/main"),
    )
    .unwrap();
    assert!(log(&repo_at(&deep_file), since()).is_some());
    // In `objects/pack` (listed for the object store's slots too): a FIFO, a FIFO in a
    // folder there, and a folder two levels down; a folder of regular files is read.
    let (pack_fifo, _pack) = with_fifo("pack-fifo", ".git/objects/pack/odd.pack");
    let (pack_folder_fifo, _pack_folder) =
        with_fifo("pack-folder-fifo", ".git/objects/pack/tmp/odd.pack");
    let pack_deep = make("pack-deep");
    fs_err::create_dir_all(pack_deep.join(".git/objects/pack/tmp/deeper")).unwrap();
    // Elsewhere in `objects`: a FIFO in it, in `info/`, and in a two-letter folder
    // that is not hex (not a loose-object folder, so listed).
    let (objects_fifo, _objects) = with_fifo("objects-fifo", ".git/objects/odd");
    let (info_fifo, _info) = with_fifo("info-fifo", ".git/objects/info/odd");
    let (not_hex, _not_hex) = with_fifo("not-hex-fifo", ".git/objects/zz/odd");
    let pack_folder = make("pack-folder");
    fs_err::create_dir_all(pack_folder.join(".git/objects/pack/tmp")).unwrap();
    fs_err::write(pack_folder.join(".git/objects/pack/tmp/note"), "x\n").unwrap();
    assert!(log(&repo_at(&pack_folder), since()).is_some());
    for path in [
        &configured,
        &grafted,
        &encoded,
        &worktrees,
        &shallow,
        &fifo,
        &broken,
        &deep_fifo,
        &linked,
        &pack_fifo,
        &pack_folder_fifo,
        &pack_deep,
        &objects_fifo,
        &info_fifo,
        &not_hex,
    ] {
        assert!(log(&repo_at(path), since()).is_none(), "{} was read in process", path.display());
    }
}

/// The loose file of the object `id` (hex) in `git_dir`.
fn loose_path(git_dir: &Path, id: &str) -> PathBuf {
    git_dir.join("objects").join(&id[..2]).join(&id[2..])
}

/// Replaces the loose object `id` (hex) of `git_dir` with a FIFO (removed on drop).
fn fifo_in_place_of(git_dir: &Path, id: &str) -> Fifo {
    let object = loose_path(git_dir, id);
    fs_err::remove_file(&object).unwrap();
    Fifo::make(&object)
}

/// A FIFO where a loose object the reader needs should be (a tip commit, or `HEAD`'s
/// for the work tree's status) makes it ask git rather than block; a repository with
/// loose objects is otherwise read in process, each object checked as it is read.
#[test]
fn a_fifo_in_place_of_a_loose_object_asks_git_and_never_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let path = case_repo(dir.path(), "loose");
    let repo = repo_at(&path);
    let reader = Reader::open(&repo).expect("a repository with loose objects opens");
    assert!(reader.loose().any());
    assert!(reader.log(since()).is_some());
    assert!(reader.status(since(), Status::Paths).is_some());
    let head = git(&path, "2026-11-27T11:00:00+09:00", &["rev-parse", "HEAD"], &[]);
    let head = head.trim();
    let _object = fifo_in_place_of(&repo.git_dir, head);
    let reader = Reader::open(&repo).expect("the layout is still plain");
    assert!(reader.log(since()).is_none(), "the tip's FIFO was opened");
    assert!(reader.status(since(), Status::Paths).is_none(), "HEAD's FIFO was opened");

    // A change staged: the index is compared with `HEAD`'s trees, each read checked.
    let path = case_repo(dir.path(), "loose-tree");
    let repo = repo_at(&path);
    fs_err::write(path.join("b.txt"), "staged\n").unwrap();
    git(&path, "2026-11-27T11:00:00+09:00", &["add", "b.txt"], &[]);
    let reader = Reader::open(&repo).expect("a repository with loose objects opens");
    assert!(reader.status(since(), Status::Paths).is_some_and(|named| !named.is_empty()));
    let tree = git(&path, "2026-11-27T11:00:00+09:00", &["rev-parse", "HEAD^{tree}"], &[]);
    let _tree = fifo_in_place_of(&repo.git_dir, tree.trim());
    let reader = Reader::open(&repo).expect("the layout is still plain");
    assert!(reader.status(since(), Status::Paths).is_none(), "HEAD's tree's FIFO was opened");
}

/// Below a tip older than the bound, the walk looks at each parent's date for clock
/// skew; with a commit-graph the date is read from it, and a parent dated no later than
/// its child is not read at all: a FIFO in place of its loose object is never opened and
/// the listing is still git's. Without the graph the parent is read, the FIFO refused,
/// and git asked.
#[test]
fn a_commit_graph_dates_the_parents_below_an_old_tip() {
    let dir = tempfile::tempdir().unwrap();
    let path = init(&dir.path().join("graphed"));
    commit(&path, "2026-11-20T09:00:00+09:00", "a.txt", "oldest");
    let oldest = git(&path, "2026-11-20T09:00:00+09:00", &["rev-parse", "HEAD"], &[]);
    commit(&path, "2026-11-24T09:00:00+09:00", "a.txt", "old");
    git(&path, "2026-11-24T09:00:00+09:00", &["branch", "stale"], &[]);
    commit(&path, "2026-11-27T10:00:00+09:00", "a.txt", "in the window");
    let repo = repo_at(&path);
    let expected = by_git(&repo, since());
    let bound = super::super::listing_bound(since());
    assert_eq!(records(log(&repo, bound).expect("read in process")), expected);

    git(&path, "2026-11-27T11:00:00+09:00", &["commit-graph", "write", "--reachable"], &[]);
    let _object = fifo_in_place_of(&repo.git_dir, &oldest);
    let listed = log(&repo, bound).expect("the graph dates the parent: it is not read");
    assert_eq!(records(listed), expected);

    fs_err::remove_file(repo.git_dir.join("objects/info/commit-graph")).unwrap();
    assert!(log(&repo, bound).is_none(), "without the graph the parent's FIFO was opened");
}

/// A loose object that cannot be read (its file inflates, but not to an object) leaves
/// the thread's inflater mid-stream; the next object read on the thread is read whole
/// all the same, as git gives it (the inflater is reset before each object).
#[test]
fn a_loose_object_read_after_one_that_failed_reads_whole() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let path = case_repo(dir.path(), "loose");
    let repo = repo_at(&path);
    let date = "2026-11-27T11:00:00+09:00";
    let head = git(&path, date, &["rev-parse", "HEAD"], &[]);
    let tree = git(&path, date, &["rev-parse", "HEAD^{tree}"], &[]);
    let (head, tree) = (head.trim(), tree.trim());
    assert!(loose_path(&repo.git_dir, head).is_file() && loose_path(&repo.git_dir, tree).is_file());
    // A zlib stream longer than the 64 bytes the header is read from, whose header
    // names no kind of object.
    let mut bogus =
        gix_zlib::stream::deflate::Write::new(Vec::new(), gix_zlib::Compression::DEFAULT);
    bogus.write_all(format!("bogus 300\0{}", "x".repeat(300)).as_bytes()).unwrap();
    bogus.flush().unwrap();
    let object = loose_path(&repo.git_dir, tree);
    fs_err::remove_file(&object).unwrap();
    fs_err::write(&object, bogus.into_inner()).unwrap();
    let reader = Reader::open(&repo).expect("a repository with loose objects opens");
    let mut out = Vec::new();
    let tree_id = gix::ObjectId::from_hex(tree.as_bytes()).unwrap();
    assert_eq!(reader.loose().read(&tree_id, &mut out), Err(()), "the bogus object was read");
    let head_id = gix::ObjectId::from_hex(head.as_bytes()).unwrap();
    let kind = reader.loose().read(&head_id, &mut out).expect("readable").expect("loose");
    assert_eq!(kind, gix::object::Kind::Commit);
    let by_git = git(&path, date, &["cat-file", "commit", head], &[]);
    // (`git` gives its output trimmed.)
    assert_eq!(String::from_utf8(out).unwrap().trim_end(), by_git);
}

/// Every loose object of a repository reads as `git cat-file` gives it, through the
/// open `objects` folder; a missing one is left to the packs, and a folder where one
/// should be asks git.
#[test]
fn loose_objects_read_as_git_gives_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = case_repo(dir.path(), "loose");
    let repo = repo_at(&path);
    let reader = Reader::open(&repo).expect("a repository with loose objects opens");
    let loose = reader.loose().clone();
    let mut ids = Vec::new();
    for folder in fs_err::read_dir(path.join(".git/objects")).unwrap() {
        let folder = folder.unwrap();
        let name = folder.file_name().to_string_lossy().into_owned();
        if name.len() != 2 {
            continue;
        }
        for file in fs_err::read_dir(folder.path()).unwrap() {
            ids.push(format!("{name}{}", file.unwrap().file_name().to_string_lossy()));
        }
    }
    assert!(ids.len() >= 3, "the case has loose commits, trees and blobs: {ids:?}");
    let mut out = Vec::new();
    for id in &ids {
        let oid = gix::ObjectId::from_hex(id.as_bytes()).unwrap();
        let kind = loose.read(&oid, &mut out).expect("readable").expect("loose");
        let date = "2026-11-27T11:00:00+09:00";
        let by_git = git(&path, date, &["cat-file", "-t", id], &[]);
        assert_eq!(kind.to_string(), by_git.trim(), "{id}");
        #[expect(clippy::disallowed_methods, reason = "the test compares with git's bytes")]
        let bytes = std::process::Command::new("git")
            .current_dir(&path)
            .args(["cat-file", kind.to_string().as_str(), id])
            .output()
            .unwrap()
            .stdout;
        assert_eq!(out, bytes, "{id}");
        assert!(loose.allows(&oid), "{id}");
        // Again: a commit from what the reader kept, the rest from the file.
        assert_eq!(loose.read(&oid, &mut out), Ok(Some(kind)), "{id}");
        assert_eq!(out, bytes, "{id}");
    }
    // A commit read once is kept for the reader's life (its file is not opened again);
    // another object is read from its file each time.
    let commit = git(&path, "2026-11-27T11:00:00+09:00", &["rev-parse", "HEAD"], &[]);
    let commit = commit.trim();
    let tree = git(&path, "2026-11-27T11:00:00+09:00", &["rev-parse", "HEAD^{tree}"], &[]);
    let tree = tree.trim();
    for (id, kept) in [(commit, true), (tree, false)] {
        let oid = gix::ObjectId::from_hex(id.as_bytes()).unwrap();
        fs_err::remove_file(loose_path(&repo.git_dir, id)).unwrap();
        let read = loose.read(&oid, &mut out);
        assert_eq!(read.is_ok_and(|kind| kind.is_some()), kept, "{id}: {read:?}");
    }
    let absent = gix::ObjectId::from_hex(b"00000000000000000000000000000000000000ff").unwrap();
    assert_eq!(loose.read(&absent, &mut out), Ok(None));
    assert!(loose.allows(&absent));
    // A folder where an object not read yet should be (a reader that had read it would
    // hand out what it kept, for a commit).
    let reader = Reader::open(&repo).expect("the layout is still plain");
    let loose = reader.loose().clone();
    let blob = ids
        .iter()
        .find(|id| {
            git(&path, "2026-11-27T11:00:00+09:00", &["cat-file", "-t", id], &[]).trim() == "blob"
        })
        .expect("a loose blob");
    let first = gix::ObjectId::from_hex(blob.as_bytes()).unwrap();
    let file = loose_path(&repo.git_dir, blob);
    fs_err::remove_file(&file).unwrap();
    fs_err::create_dir(&file).unwrap();
    assert_eq!(loose.read(&first, &mut out), Err(()));
    assert!(!loose.allows(&first));
}

/// A ref's tip where objects are loose is peeled through loose annotated tags (a tag of
/// a tag too) to the commit git names, each object read by `Loose::read`.
#[test]
fn loose_annotated_tags_peel_to_the_commit_git_names() {
    let dir = tempfile::tempdir().unwrap();
    let path = case_repo(dir.path(), "loose");
    let date = "2026-11-27T11:00:00+09:00";
    git(&path, date, &["tag", "-a", "v1", "-m", "one"], &[]);
    git(&path, date, &["tag", "-a", "v1-again", "-m", "the tag tagged", "v1"], &[]);
    git(&path, date, &["tag", "light"], &[]);
    let repo = repo_at(&path);
    let reader = Reader::open(&repo).expect("a repository with loose objects opens");
    assert!(reader.loose().any());
    let repository = reader.repository();
    for name in ["v1", "v1-again", "light"] {
        let tag = git(&path, date, &["rev-parse", &format!("refs/tags/{name}")], &[]);
        let tag = tag.trim();
        let loose = loose_path(&repo.git_dir, tag);
        assert!(loose.is_file(), "{name}'s object is loose");
        let mut reference = repository.find_reference(&format!("refs/tags/{name}")).unwrap();
        let peeled = peeled(repository, reader.loose(), &mut reference, None).expect("peeled");
        let commit = git(&path, date, &["rev-parse", &format!("{name}^{{commit}}")], &[]);
        assert_eq!(peeled.to_string(), commit.trim(), "{name}");
    }
}

/// The index is read whole and its checksum checked before it is decoded: an index
/// whose bytes do not match its checksum asks git, and one written with
/// `index.skipHash` (a null checksum) is read. (git itself reads a mismatched index
/// without a word — `verify_index_checksum` in `read-cache.c` is set by `git fsck`
/// alone — so the check only keeps the in-process answer to indexes whose bytes are
/// as git wrote them, where gix's decoder and git's are known to agree.)
#[test]
fn an_index_whose_checksum_does_not_match_asks_git() {
    let dir = tempfile::tempdir().unwrap();
    let path = case_repo(dir.path(), "index-checksum");
    let repo = repo_at(&path);
    let reader = Reader::open(&repo).expect("a plain repository opens");
    assert_eq!(reader.status(since(), Status::Paths), Some(Vec::new()), "a clean work tree");
    let index_path = path.join(".git/index");
    let index = fs_err::read(&index_path).unwrap();
    let body = index.len() - 20;
    // The same entries with a null checksum, as `index.skipHash` writes them.
    let mut skipped = index.clone();
    skipped[body..].fill(0);
    fs_err::write(&index_path, &skipped).unwrap();
    assert_eq!(reader.status(since(), Status::Paths), Some(Vec::new()), "skipHash");
    // One byte of an entry's path changed: the checksum no longer matches.
    let mut corrupt = index;
    let at = corrupt.windows(5).position(|window| window == b"a.txt").expect("an entry a.txt");
    corrupt[at] = b'c';
    fs_err::write(&index_path, &corrupt).unwrap();
    assert_eq!(reader.status(since(), Status::Paths), None, "a corrupt index asks git");
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
    let status =
        std::process::Command::new("touch").args(["-h", "-d", date]).arg(path).status().unwrap();
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
        ("deleted", |path| fs_err::remove_file(path.join("src/deep/a.txt")).unwrap(), past, false),
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

/// The repository each work-tree case starts from: two commits in `src/deep/a.txt` and
/// `b.txt`, and a committed `.gitignore` that ignores `target/`.
fn case_repo(dir: &Path, name: &str) -> PathBuf {
    let path = init(&dir.join(name));
    fs_err::create_dir_all(path.join("src/deep")).unwrap();
    commit(&path, "2026-11-27T09:00:00+09:00", "src/deep/a.txt", "first");
    commit(&path, "2026-11-27T10:00:00+09:00", "b.txt", "second");
    fs_err::write(path.join(".gitignore"), "target/\n").unwrap();
    git(&path, "2026-11-27T10:00:00+09:00", &["add", ".gitignore"], &[]);
    git(&path, "2026-11-27T10:00:00+09:00", &["commit", "-q", "-m", "ignore"], &[]);
    path
}

#[test]
fn a_work_tree_is_unchanged_only_when_git_status_names_nothing_kept() {
    let dir = tempfile::tempdir().unwrap();
    let make = |name: &str| case_repo(dir.path(), name);
    let cases = work_tree_cases().into_iter().chain(ignore_cases());
    for (name, change, since, unchanged) in cases {
        let path = make(name);
        change(&path);
        let repo = repo_at(&path);
        let kept = wip_by_git(&repo, since);
        assert_eq!(worktree_unchanged_since(&repo, since), unchanged, "{name}: git names {kept:?}");
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
        ("the last newline dropped", vec![("a.txt", Some(b"one\nfive\nsix\nseven\neight"))], true),
        ("edits in two places", vec![("a.txt", Some(b"ONE\nfive\nsix\nseven\nEIGHT"))], false),
        (
            "a block replaced by one sharing a line",
            vec![("a.txt", Some(b"ONE\nsix\nfive\nseven\nEIGHT"))],
            false,
        ),
        ("a binary file added", vec![("img/logo.png", Some(png))], true),
        ("the binary file changed", vec![("img/logo.png", Some(b"\x89PNG\0\0other"))], true),
        ("a file added in a new folder", vec![("lib/deep/new.rs", Some(b"fn main() {}\n"))], true),
        ("a file deleted", vec![("src/empty.txt", None)], true),
        ("a file to delete", vec![("gone.txt", Some(b"1\n2\n3\n"))], true),
        ("a file with lines deleted", vec![("gone.txt", None)], true),
        ("repeated lines", vec![("x.txt", Some(b"x\nx\n"))], true),
        ("the same line once more", vec![("x.txt", Some(b"x\nx\nx\n"))], true),
        ("a text file become binary", vec![("x.txt", Some(b"x\n\0binary\n"))], true),
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
    assert!(numstats(&repo, &[chmod.as_str()]).is_some(), "a commit elsewhere is still counted");
    // A file become a link, and back: a type change is left to git.
    fs_err::remove_file(path.join("b.txt")).unwrap();
    std::os::unix::fs::symlink("a.txt", path.join("b.txt")).unwrap();
    let to_link = commit_files(&path, &[], "b.txt a link");
    fs_err::remove_file(path.join("b.txt")).unwrap();
    fs_err::write(path.join("b.txt"), "b\n").unwrap();
    let to_file = commit_files(&path, &[], "b.txt a file again");
    assert_eq!(numstats(&repo, &[to_link.as_str()]), None);
    assert_eq!(numstats(&repo, &[to_file.as_str()]), None);
    // A `.gitattributes` deleted (in the parent's tree only, and gone from the work tree)
    // leaves its commit to git as well.
    let no_attributes = git(&path, "2026-11-27T11:00:00+09:00", &["rev-parse", "HEAD~5"], &[]);
    let subject =
        git(&path, "2026-11-27T11:00:00+09:00", &["log", "-1", "--format=%s", &no_attributes], &[]);
    assert_eq!(subject, "no attributes");
    assert_eq!(numstats(&repo, &[no_attributes.as_str()]), None);
}

/// Blobs up to 8 MiB are counted in process, loose or packed (after `gc`), as git counts
/// them; a larger one leaves its commit to git.
#[test]
fn line_counts_read_blobs_up_to_8_mib_loose_or_packed() {
    let dir = tempfile::tempdir().unwrap();
    let path = init(&dir.path().join("blobs"));
    commit_files(&path, &[("small.txt", Some(b"one\ntwo\n"))], "small");
    let at_most = "x\n".repeat(4 << 20);
    assert_eq!(at_most.len(), 8 << 20);
    let at = commit_files(&path, &[("big.txt", Some(at_most.as_bytes()))], "8 MiB");
    let over = format!("{at_most}y");
    let over = commit_files(&path, &[("big.txt", Some(over.as_bytes()))], "one byte more");
    let edit = commit_files(&path, &[("small.txt", Some(b"one\nTWO\n"))], "small edit");
    let (env, repo) = (Env::new(&path), repo_at(&path));
    let by_git = |hash: &str| {
        crate::git::numstats(&env, &repo, &[hash], crate::git::DEFAULT_TIMEOUT).unwrap()
    };
    for objects in ["loose", "packed"] {
        if objects == "packed" {
            git(&path, "2026-11-27T11:00:00+09:00", &["gc", "-q"], &[]);
            assert!(!loose_path(&repo.git_dir, &edit).exists(), "packed");
        }
        assert_eq!(numstats(&repo, &[at.as_str()]), Some(by_git(&at)), "{objects}");
        assert_eq!(by_git(&at)[&at], (1, 4 << 20, 0));
        assert_eq!(numstats(&repo, &[edit.as_str()]), Some(by_git(&edit)), "{objects}");
        assert_eq!(numstats(&repo, &[over.as_str()]), None, "{objects}");
    }
}

/// The repository's own configuration of what a diff counts (a `[diff]` section,
/// `core.attributesFile`, `core.bigFileThreshold`, `log.showRoot`) leaves every commit
/// to git; without it the same commit is counted in process.
#[test]
fn diff_settings_of_the_repository_leave_line_counts_to_git() {
    let dir = tempfile::tempdir().unwrap();
    let path = init(&dir.path().join("settings"));
    commit(&path, "2026-11-27T09:00:00+09:00", "a.txt", "first");
    commit(&path, "2026-11-27T10:00:00+09:00", "a.txt", "second");
    let repo = repo_at(&path);
    let head = git(&path, "2026-11-27T10:00:00+09:00", &["rev-parse", "HEAD"], &[]);
    assert!(numstats(&repo, &[head.as_str()]).is_some());
    for (key, value) in [
        ("diff.algorithm", "patience"),
        ("core.attributesFile", "attributes"),
        ("core.bigFileThreshold", "1"),
        ("log.showRoot", "false"),
    ] {
        git(&path, "2026-11-27T10:00:00+09:00", &["config", key, value], &[]);
        assert_eq!(numstats(&repo, &[head.as_str()]), None, "{key}");
        git(&path, "2026-11-27T10:00:00+09:00", &["config", "--unset", key], &[]);
        assert!(numstats(&repo, &[head.as_str()]).is_some(), "{key} unset");
    }
}

/// A tree diff enters 256 folders deep and leaves a deeper change to git (the trees
/// are written by `git fast-import`: no work tree that deep is needed).
#[test]
fn line_counts_go_256_folders_deep() {
    let dir = tempfile::tempdir().unwrap();
    let path = init(&dir.path().join("deep"));
    let mut stream = String::new();
    for (mark, depth) in [(1, 256), (2, 257)] {
        let file = format!("{}f.txt", "d/".repeat(depth));
        let parent = (mark > 1).then_some(1);
        fast_import_commit(&mut stream, (mark, parent), 1_795_741_200, "deep", Some(&file));
    }
    stream.push_str("get-mark :1\nget-mark :2\n");
    let marks = git_with_input(&path, &["fast-import", "--quiet"], stream.as_bytes());
    let marks: Vec<&str> = marks.lines().collect();
    let repo = repo_at(&path);
    let counted = numstats(&repo, &[marks[0]]).expect("256 folders deep is counted");
    assert_eq!(counted[marks[0]], (1, 1, 0));
    assert_eq!(numstats(&repo, &[marks[1]]), None, "257 folders deep is left to git");
}

/// Work trees for the paths `status` names: more kinds of change than [`work_tree_cases`]
/// (which the clean check alone is compared on).
fn status_cases() -> Vec<(&'static str, Change, Timestamp, bool)> {
    let past: Timestamp = "2020-01-01T00:00:00Z".parse().unwrap();
    let window: Timestamp = "2026-11-27T00:00:00Z".parse().unwrap();
    vec![
        // Rewritten with the same bytes: stat data changed, content not; git names nothing.
        (
            "touched-same-content",
            |path| {
                let content = fs_err::read(path.join("b.txt")).unwrap();
                fs_err::write(path.join("b.txt"), content).unwrap();
            },
            past,
            true,
        ),
        // Same size, other bytes: only the content tells.
        (
            "same-size-other-bytes",
            |path| {
                let mut content = fs_err::read(path.join("b.txt")).unwrap();
                content[0] ^= 0x20;
                fs_err::write(path.join("b.txt"), content).unwrap();
            },
            past,
            false,
        ),
        // Staged, then put back in the work tree: staged only.
        (
            "staged-then-reverted",
            |path| {
                let original = fs_err::read(path.join("b.txt")).unwrap();
                fs_err::write(path.join("b.txt"), "staged\n").unwrap();
                git(path, "2026-11-27T11:00:00+09:00", &["add", "b.txt"], &[]);
                fs_err::write(path.join("b.txt"), original).unwrap();
            },
            past,
            false,
        ),
        // A new file staged, and one removed from the index but kept (untracked again).
        (
            "staged-add",
            |path| {
                fs_err::write(path.join("src/added.txt"), "added\n").unwrap();
                git(path, "2026-11-27T11:00:00+09:00", &["add", "src/added.txt"], &[]);
            },
            past,
            false,
        ),
        (
            "removed-from-index",
            |path| {
                git(path, "2026-11-27T11:00:00+09:00", &["rm", "-q", "--cached", "b.txt"], &[]);
            },
            past,
            false,
        ),
        // Deleted from the index and the work tree: named, but with no time of its own
        // (a staged deletion is dated by its own path), so nothing is kept.
        (
            "git-rm",
            |path| {
                git(path, "2026-11-27T11:00:00+09:00", &["rm", "-q", "b.txt"], &[]);
            },
            past,
            true,
        ),
        // A new folder of files, one with only ignored files, an empty one, and another
        // repository inside.
        (
            "untracked-folders",
            |path| {
                fs_err::create_dir_all(path.join("notes/deep")).unwrap();
                fs_err::write(path.join("notes/deep/todo.md"), "t").unwrap();
                fs_err::create_dir_all(path.join("src/target/out")).unwrap();
                fs_err::write(path.join("src/target/out/app"), "bin").unwrap();
                fs_err::create_dir_all(path.join("empty/inner")).unwrap();
                init(&path.join("vendor/other"));
            },
            past,
            false,
        ),
        // A link in place of a file, and a new link.
        (
            "links",
            |path| {
                fs_err::remove_file(path.join("b.txt")).unwrap();
                std::os::unix::fs::symlink("src/deep/a.txt", path.join("b.txt")).unwrap();
                std::os::unix::fs::symlink("nowhere", path.join("dangling")).unwrap();
            },
            past,
            false,
        ),
        // Changes dated before the window: named by git, dropped by the reader, and by
        // the in-process answer without reading them.
        (
            "old-changes",
            |path| {
                fs_err::write(path.join("b.txt"), "other\n").unwrap();
                touch(&path.join("b.txt"), "2019-06-01");
                fs_err::write(path.join("new.txt"), "n\n").unwrap();
                touch(&path.join("new.txt"), "2019-06-01");
            },
            window,
            true,
        ),
    ]
}

/// More work trees for the paths `status` names: a change at the window's start, modes,
/// links, stat data and the index's own shape.
fn more_status_cases() -> Vec<(&'static str, Change, Timestamp, bool)> {
    let past: Timestamp = "2020-01-01T00:00:00Z".parse().unwrap();
    let window: Timestamp = "2026-11-27T00:00:00Z".parse().unwrap();
    vec![
        // A file changed exactly at the window's start is in the window.
        (
            "changed-at-the-bound",
            |path| {
                fs_err::write(path.join("b.txt"), "changed at midnight\n").unwrap();
                touch(&path.join("b.txt"), "2026-11-27T00:00:00Z");
            },
            window,
            false,
        ),
        // The executable bit: committed (nothing to name), gained and lost (a mode change
        // git names with the content unchanged).
        (
            "executable-committed",
            |path| {
                chmod(&path.join("b.txt"), 0o755);
                git(path, "2026-11-27T11:00:00+09:00", &["commit", "-q", "-am", "x"], &[]);
            },
            past,
            true,
        ),
        ("executable-gained", |path| chmod(&path.join("b.txt"), 0o755), past, false),
        (
            "executable-lost",
            |path| {
                chmod(&path.join("b.txt"), 0o755);
                git(path, "2026-11-27T11:00:00+09:00", &["commit", "-q", "-am", "x"], &[]);
                chmod(&path.join("b.txt"), 0o644);
            },
            past,
            false,
        ),
        // A committed link, left alone and pointed elsewhere.
        (
            "link-committed",
            |path| {
                std::os::unix::fs::symlink("b.txt", path.join("to-b")).unwrap();
                git(path, "2026-11-27T11:00:00+09:00", &["add", "to-b"], &[]);
                git(path, "2026-11-27T11:00:00+09:00", &["commit", "-q", "-m", "link"], &[]);
            },
            past,
            true,
        ),
        (
            "link-retargeted",
            |path| {
                std::os::unix::fs::symlink("b.txt", path.join("to-b")).unwrap();
                git(path, "2026-11-27T11:00:00+09:00", &["add", "to-b"], &[]);
                git(path, "2026-11-27T11:00:00+09:00", &["commit", "-q", "-m", "link"], &[]);
                fs_err::remove_file(path.join("to-b")).unwrap();
                std::os::unix::fs::symlink(".gitignore", path.join("to-b")).unwrap();
            },
            past,
            false,
        ),
        // Same size, other bytes, and dated before the index was written (not racily
        // clean): the stat data differ, so the content is compared.
        (
            "same-size-before-the-index",
            |path| {
                let mut content = fs_err::read(path.join("b.txt")).unwrap();
                content[0] ^= 0x20;
                fs_err::write(path.join("b.txt"), content).unwrap();
                let index = fs_err::metadata(path.join(".git/index")).unwrap();
                let before = filetime::FileTime::from_unix_time(
                    filetime::FileTime::from_last_modification_time(&index).unix_seconds() - 60,
                    0,
                );
                filetime::set_file_mtime(path.join("b.txt"), before).unwrap();
            },
            past,
            false,
        ),
        // Same size, other bytes, and the modification time put back as it was (as
        // `cp -p` or `rsync -t` do): only the change time tells.
        (
            "same-size-mtime-kept",
            |path| {
                let file = path.join("b.txt");
                let was = filetime::FileTime::from_last_modification_time(
                    &fs_err::metadata(&file).unwrap(),
                );
                let mut content = fs_err::read(&file).unwrap();
                content[0] ^= 0x20;
                fs_err::write(&file, content).unwrap();
                filetime::set_file_mtime(&file, was).unwrap();
            },
            past,
            false,
        ),
        // `git reset --soft`: the index (and its cache tree) is the undone commit's, `HEAD`
        // its parent's: the change is staged.
        (
            "reset-soft",
            |path| {
                fs_err::write(path.join("b.txt"), "undone\n").unwrap();
                git(path, "2026-11-27T11:00:00+09:00", &["commit", "-q", "-am", "undone"], &[]);
                git(path, "2026-11-27T11:00:00+09:00", &["reset", "-q", "--soft", "HEAD~1"], &[]);
            },
            past,
            false,
        ),
    ]
}

/// Work trees whose folders and git dir test how the walk finds its files.
fn layout_status_cases() -> Vec<(&'static str, Change, Timestamp, bool)> {
    let past: Timestamp = "2020-01-01T00:00:00Z".parse().unwrap();
    vec![
        // Files in two folders whose names have the same length: each is looked for in
        // its own folder, not in the one open before it.
        (
            "sibling-folders",
            |path| {
                for file in ["one/a.txt", "two/b.txt"] {
                    fs_err::create_dir_all(path.join(file).parent().unwrap()).unwrap();
                    fs_err::write(path.join(file), file).unwrap();
                }
                git(path, "2026-11-27T11:00:00+09:00", &["add", "one", "two"], &[]);
                git(path, "2026-11-27T11:00:00+09:00", &["commit", "-q", "-m", "two"], &[]);
            },
            past,
            true,
        ),
        // A tracked folder removed: its files are deleted (named by git, with no folder
        // left to date them by), and the walk goes on from the folders still open.
        (
            "folder-removed",
            |path| {
                fs_err::create_dir_all(path.join("gone")).unwrap();
                fs_err::write(path.join("gone/x.txt"), "x\n").unwrap();
                git(path, "2026-11-27T11:00:00+09:00", &["add", "gone"], &[]);
                git(path, "2026-11-27T11:00:00+09:00", &["commit", "-q", "-m", "gone"], &[]);
                fs_err::remove_dir_all(path.join("gone")).unwrap();
                fs_err::write(path.join("src/deep/a.txt"), "after the removal\n").unwrap();
            },
            past,
            false,
        ),
        // A new file made exactly at the window's start.
        (
            "untracked-at-the-bound",
            |path| {
                fs_err::write(path.join("new.txt"), "n\n").unwrap();
                touch(&path.join("new.txt"), "2026-11-27T00:00:00Z");
            },
            "2026-11-27T00:00:00Z".parse().unwrap(),
            false,
        ),
        // No `info/exclude` at all (git does not need one).
        (
            "no-info-exclude",
            |path| {
                fs_err::remove_file(path.join(".git/info/exclude")).unwrap();
                fs_err::write(path.join("new.txt"), "n\n").unwrap();
            },
            past,
            false,
        ),
    ]
}

/// Sets a file's permission bits.
fn chmod(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt as _;
    fs_err::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// git's exit status, for a command expected to fail (a merge that conflicts).
fn git_status(dir: &Path, date: &str, args: &[&str]) -> bool {
    git_command(dir, date, args).output().unwrap().status.success()
}

/// A change that may leave a FIFO in the repository, watched while the case runs.
type FifoChange = fn(&Path) -> Option<Fifo>;

/// The cases where the in-process answer must ask git instead.
fn asks_git_cases() -> Vec<(&'static str, FifoChange)> {
    vec![
        ("attributes", |path| {
            fs_err::write(path.join(".gitattributes"), "* text eol=crlf\n").unwrap();
            None
        }),
        ("autocrlf", |path| {
            git(path, "2026-11-27T11:00:00+09:00", &["config", "core.autocrlf", "true"], &[]);
            fs_err::write(path.join("b.txt"), "other\n").unwrap();
            None
        }),
        ("renamed", |path| {
            git(path, "2026-11-27T11:00:00+09:00", &["mv", "b.txt", "c.txt"], &[]);
            None
        }),
        ("file-became-folder", |path| {
            fs_err::remove_file(path.join("b.txt")).unwrap();
            fs_err::create_dir(path.join("b.txt")).unwrap();
            fs_err::write(path.join("b.txt/inner"), "x").unwrap();
            None
        }),
        // A folder become a file, or a link to the folder moved elsewhere: git names its
        // files deleted and the file or link untracked.
        ("folder-became-file", |path| {
            fs_err::remove_dir_all(path.join("src/deep")).unwrap();
            fs_err::write(path.join("src/deep"), "x").unwrap();
            None
        }),
        // A FIFO where gix would read ignore rules: git is asked (and killed at its
        // deadline) rather than this process blocking.
        ("gitignore-fifo", |path| {
            fs_err::write(path.join("new.txt"), "x").unwrap();
            Some(Fifo::make(&path.join("src/.gitignore")))
        }),
        // The same in a folder git has never seen.
        ("untracked-gitignore-fifo", |path| {
            fs_err::create_dir_all(path.join("notes")).unwrap();
            fs_err::write(path.join("notes/todo.md"), "x").unwrap();
            Some(Fifo::make(&path.join("notes/.gitignore")))
        }),
        ("exclude-fifo", |path| {
            fs_err::remove_file(path.join(".git/info/exclude")).ok();
            fs_err::create_dir_all(path.join(".git/info")).unwrap();
            Some(Fifo::make(&path.join(".git/info/exclude")))
        }),
        ("folder-became-link", |path| {
            fs_err::rename(path.join("src/deep"), path.join("moved")).unwrap();
            std::os::unix::fs::symlink("../moved", path.join("src/deep")).unwrap();
            None
        }),
        // A merge stopped on a conflict: the index holds stages 1 to 3.
        ("merge-conflict", |path| {
            let date = "2026-11-27T11:00:00+09:00";
            git(path, date, &["checkout", "-q", "-b", "other"], &[]);
            fs_err::write(path.join("b.txt"), "theirs\n").unwrap();
            git(path, date, &["commit", "-q", "-am", "theirs"], &[]);
            git(path, date, &["checkout", "-q", "main"], &[]);
            fs_err::write(path.join("b.txt"), "ours\n").unwrap();
            git(path, date, &["commit", "-q", "-am", "ours"], &[]);
            assert!(!git_status(path, date, &["merge", "-q", "other"]), "the merge conflicts");
            None
        }),
        // `git add -N` (an intent-to-add entry) and `--skip-worktree`: entries whose
        // flags change what git compares.
        ("intent-to-add", |path| {
            fs_err::write(path.join("new.txt"), "n\n").unwrap();
            git(path, "2026-11-27T11:00:00+09:00", &["add", "-N", "new.txt"], &[]);
            None
        }),
        ("skip-worktree", |path| {
            let date = "2026-11-27T11:00:00+09:00";
            git(path, date, &["update-index", "--skip-worktree", "b.txt"], &[]);
            fs_err::write(path.join("b.txt"), "hidden change\n").unwrap();
            None
        }),
        // A split index: most entries are in a shared index file of their own.
        ("split-index", |path| {
            git(path, "2026-11-27T11:00:00+09:00", &["update-index", "--split-index"], &[]);
            None
        }),
        // A committed `.gitattributes` in a folder.
        ("tracked-attributes", |path| {
            fs_err::write(path.join("src/.gitattributes"), "*.txt -text\n").unwrap();
            git(path, "2026-11-27T11:00:00+09:00", &["add", "src/.gitattributes"], &[]);
            None
        }),
        // An index entry whose `lstat` fails with an error other than "not found": a name
        // longer than the file system allows (`ENAMETOOLONG`, which root meets as anyone
        // does). git names it added and unchanged in the work tree, with an error on its
        // stderr; it is not deleted, so git is asked.
        ("name-too-long", |path| {
            let date = "2026-11-27T11:00:00+09:00";
            let blob = git(path, date, &["hash-object", "-w", "b.txt"], &[]);
            let entry = format!("100644,{},{}", blob.trim(), "n".repeat(300));
            git(path, date, &["update-index", "--add", "--cacheinfo", &entry], &[]);
            None
        }),
        // `info` a file, not a folder: `info/exclude` cannot be told apart from a missing one.
        ("info-is-a-file", |path| {
            fs_err::remove_dir_all(path.join(".git/info")).unwrap();
            fs_err::write(path.join(".git/info"), "x").unwrap();
            None
        }),
    ]
}

#[test]
fn the_paths_of_status_in_process_are_the_paths_git_names() {
    let dir = tempfile::tempdir().unwrap();
    let make = |name: &str| case_repo(dir.path(), name);
    let cases = work_tree_cases().into_iter().chain(ignore_cases()).chain(status_cases());
    let more = more_status_cases().into_iter().chain(layout_status_cases());
    for (name, change, since, unchanged) in cases.chain(more) {
        let path = make(name);
        change(&path);
        let repo = repo_at(&path);
        let mut by_git = wip_by_git(&repo, since);
        by_git.sort();
        let answer = Reader::open(&repo).and_then(|reader| reader.status(since, Status::Paths));
        // The same answer on a reader that listed the commits first (`HEAD` as it read it).
        let after_listing = Reader::open(&repo).and_then(|reader| {
            assert!(reader.log(since).is_some(), "{name}: listed in process");
            reader.status(since, Status::Paths)
        });
        assert_eq!(after_listing, answer, "{name}: after the listing");
        let named = match answer {
            Some(named) => named,
            // An index gone with files left: every file of `HEAD` is "deleted" from it.
            None if name == "no-index" => continue,
            None => panic!("{name}: asked git"),
        };
        if name == "old-changes" {
            assert_eq!(named, Vec::new(), "{name}: read files changed before the window");
        }
        let mut files = Vec::new();
        crate::git::wip::keep((&path, ""), named, since, &mut files);
        let mut in_process: Vec<String> = files.into_iter().map(|file| file.path).collect();
        in_process.sort();
        assert_eq!(in_process, by_git, "{name}");
        assert_eq!(by_git.is_empty(), unchanged, "{name}: git names {by_git:?}");
    }
    for (name, change) in asks_git_cases() {
        let path = make(name);
        let _fifo = change(&path);
        let repo = repo_at(&path);
        let answer = Reader::open(&repo).and_then(|reader| reader.status(since(), Status::Paths));
        assert_eq!(answer, None, "{name}: answered in process");
    }
}
