//! git repositories: planned from the preset, each written with one `git fast-import`
//! stream, then given the refs mtimes a real machine would show.
//!
//! Every line a commit adds is unique within its repository, so git's diff of any
//! change is exactly the lines replaced: a commit's `--numstat` totals are known while
//! it is generated. A commit never deletes one file and adds another, so rename
//! detection has nothing to pair.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::clock::{Clock, SECOND};
use crate::rng::Rng;
use crate::text::{self, WORDS};
use crate::{EMAILS, Error, Params, RepoKind, files};

const ORGS: &[&str] =
    &["acme", "globex", "initech", "umbrella", "hooli", "oss", "personal", "clients"];
const GROUPS: &[&str] = &[
    "platform", "web", "mobile", "data", "infra", "tools", "ml", "payments", "search", "internal",
];
const NAME_HEADS: &[&str] = &[
    "api",
    "auth",
    "billing",
    "search",
    "notify",
    "ledger",
    "gateway",
    "catalog",
    "checkout",
    "report",
    "metrics",
    "sync",
    "upload",
    "image",
    "pdf",
    "mail",
    "chat",
    "cache",
    "queue",
    "scheduler",
];
const NAME_TAILS: &[&str] = &[
    "service", "client", "worker", "cli", "sdk", "web", "core", "server", "lib", "tools", "infra",
    "docs",
];

/// When a repository was last committed to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Commits on the reference day.
    Today,
    /// Last commit on the previous day.
    Yesterday,
    /// Last commit this many days before the reference day (negative).
    Idle(i64),
    /// No commits.
    Empty,
}

/// A repository to generate.
#[expect(clippy::struct_excessive_bools, reason = "independent facts of one repository's plan")]
pub(crate) struct Plan {
    pub(crate) path: PathBuf,
    pub(crate) kind: RepoKind,
    pub(crate) role: Role,
    commits: usize,
    big_commit: bool,
    packed_refs: bool,
    /// Whether colleagues and bots commit on the reference day and the days after it.
    busy: Busy,
    /// Whether the repository is checked out ([`check_out`]).
    checkout: bool,
    /// Whether its objects are left loose ([`unpack`]).
    loose: bool,
    /// Whether its own `.git/config` names the user's work e-mail.
    own_identity: bool,
    /// The relative path, which also seeds the repository's own stream.
    label: String,
}

/// Others' activity in a repository of the busy preset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Busy {
    /// None beyond the plan's own commits.
    No,
    /// Colleagues and bots commit on the reference day and the four days after it.
    Yes,
    /// The same, and a bot makes a 1,000-file commit on the reference day.
    WithBigCommit,
}

/// A generated repository and the commits a report counts.
pub(crate) struct Built {
    pub(crate) path: PathBuf,
    pub(crate) kind: RepoKind,
    pub(crate) commits: u64,
    pub(crate) last_commit: Option<i64>,
    /// The user's non-merge commits.
    pub(crate) user_commits: Vec<CommitFacts>,
}

/// One of the user's commits as `git log --numstat` counts it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CommitFacts {
    pub(crate) time: i64,
    pub(crate) files: u64,
    pub(crate) insertions: u64,
    pub(crate) deletions: u64,
}

/// Lays out the repositories: paths up to three levels below `~/src`, and roles.
pub(crate) fn plan(params: &Params, seed: u64, home: &Path) -> Vec<Plan> {
    let mut rng = Rng::derive(seed, "repos");
    let mut taken = BTreeSet::new();
    let mut labels = Vec::new();
    while labels.len() < params.repos {
        let name = format!("{}-{}", rng.pick(NAME_HEADS), rng.pick(NAME_TAILS));
        let label = match rng.weighted(&[10, 25, 65]) {
            0 => format!("src/{name}"),
            1 => format!("src/{}/{name}", rng.pick(ORGS)),
            _ => format!("src/{}/{}/{name}", rng.pick(ORGS), rng.pick(GROUPS)),
        };
        if taken.insert(label.clone()) {
            labels.push(label);
        }
    }
    let empty = params.empty_repos;
    let broken = empty;
    let detached = empty + 1;
    let today_end = empty + 2 + params.today_repos;
    let yesterday_end = today_end + params.yesterday_repos;
    let mut idle_big = params.idle_big_commits;
    // A stream of its own, so the other presets' repositories stay as they were.
    let mut busy_rng = Rng::derive(seed, "busy");
    let mut busy_big = params.busy_big_commits;
    labels
        .into_iter()
        .enumerate()
        .map(|(index, label)| {
            let (kind, role) = if index < empty {
                (RepoKind::Empty, Role::Empty)
            } else if index == broken {
                (RepoKind::BrokenHead, Role::Today)
            } else if index == detached {
                (RepoKind::DetachedHead, Role::Yesterday)
            } else if index < today_end {
                (RepoKind::Normal, Role::Today)
            } else if index < yesterday_end {
                (RepoKind::Normal, Role::Yesterday)
            } else {
                (RepoKind::Normal, Role::Idle(-rng.range_i64(2, 28)))
            };
            let class = params.commit_classes[rng.weighted(
                &params.commit_classes.iter().map(|(weight, _, _)| *weight).collect::<Vec<_>>(),
            )];
            let commits = usize::try_from(rng.range(class.1, class.2)).unwrap_or(20);
            let big_commit = if index == empty + 2 {
                true
            } else if matches!(role, Role::Idle(_)) && idle_big > 0 {
                idle_big -= 1;
                true
            } else {
                false
            };
            let busy = if params.busy_percent == 0
                || kind != RepoKind::Normal
                || !busy_rng.percent(params.busy_percent)
            {
                Busy::No
            } else if busy_big > 0 {
                busy_big -= 1;
                Busy::WithBigCommit
            } else {
                Busy::Yes
            };
            Plan {
                path: home.join(&label),
                kind,
                role,
                commits,
                big_commit,
                packed_refs: rng.percent(40),
                busy,
                checkout: params.checkouts && kind == RepoKind::Normal,
                loose: params.loose_objects && busy != Busy::No,
                own_identity: params.own_identity
                    && kind == RepoKind::Normal
                    && matches!(role, Role::Today | Role::Yesterday),
                label,
            }
        })
        .collect()
}

/// Builds every planned repository on `workers` threads; the result is in plan order.
pub(crate) fn build_all(
    home: &Path,
    plans: &[Plan],
    clock: &Clock,
    seed: u64,
    workers: usize,
) -> Result<Vec<Built>, Error> {
    collect::pool::map_ordered(plans, workers, |plan| build(home, plan, clock, seed))
        .into_iter()
        .collect()
}

/// A git command with a pinned environment: no system config, `HOME` in the generated
/// home, the C locale, and a fixed committer for reflog entries.
fn git(home: &Path) -> Command {
    #[expect(
        clippy::disallowed_methods,
        reason = "the generator builds repositories with the real git CLI"
    )]
    let mut command = Command::new("git");
    command
        .env("LC_ALL", "C")
        .env("LANG", "C")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("GIT_COMMITTER_NAME", "Dev Example")
        .env("GIT_COMMITTER_EMAIL", EMAILS[0])
        .env("GIT_AUTHOR_NAME", "Dev Example")
        .env("GIT_AUTHOR_EMAIL", EMAILS[0])
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .env_remove("GIT_OBJECT_DIRECTORY")
        .env_remove("GIT_CONFIG_GLOBAL")
        .env_remove("GIT_CONFIG_PARAMETERS")
        .env_remove("GIT_CONFIG_COUNT")
        .env_remove("GIT_TEMPLATE_DIR")
        .stdin(Stdio::null());
    command
}

/// Runs a git command to completion, feeding it `input`.
fn run(mut command: Command, args: &[&str], dir: &Path, input: Option<&[u8]>) -> Result<(), Error> {
    let described = args.join(" ");
    command.args(args).current_dir(dir).stdout(Stdio::null()).stderr(Stdio::piped());
    if input.is_some() {
        command.stdin(Stdio::piped());
    }
    let mut child =
        command.spawn().map_err(|source| Error::GitSpawn { args: described.clone(), source })?;
    if let (Some(input), Some(mut stdin)) = (input, child.stdin.take()) {
        // A write error means git exited early; its stderr says why.
        let _ = stdin.write_all(input);
    }
    let output = child.wait_with_output()?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let stderr = stderr.lines().take(3).collect::<Vec<_>>().join(" / ");
        return Err(Error::Git { args: described, dir: dir.to_path_buf(), stderr });
    }
    Ok(())
}

fn build(home: &Path, plan: &Plan, clock: &Clock, seed: u64) -> Result<Built, Error> {
    fs_err::create_dir_all(&plan.path)?;
    run(git(home), &["init", "-q", "-b", "main"], &plan.path, None)?;
    let git_dir = plan.path.join(".git");
    if plan.role == Role::Empty {
        // Created long ago and never used.
        set_refs_mtime(&git_dir, clock.at(-60, 10 * 3600))?;
        return Ok(Built {
            path: plan.path.clone(),
            kind: plan.kind,
            commits: 0,
            last_commit: None,
            user_commits: Vec::new(),
        });
    }
    let history = History::generate(plan, clock, seed);
    let last = history.last_time;
    let marks = git_dir.join("bench-home-marks");
    let marks_arg = format!("--export-marks={}", marks.display());
    let mut import = git(home);
    import.env("GIT_COMMITTER_DATE", format!("@{} +0900", last / SECOND));
    run(
        import,
        &["fast-import", "--quiet", "--done", &marks_arg],
        &plan.path,
        Some(&history.stream),
    )?;
    let marks_text = fs_err::read_to_string(&marks)?;
    fs_err::remove_file(&marks)?;
    if plan.packed_refs {
        run(git(home), &["pack-refs", "--all"], &plan.path, None)?;
    }
    if plan.loose {
        unpack(home, &plan.path)?;
    }
    if plan.own_identity {
        run(git(home), &["config", "user.email", crate::EMAILS[1]], &plan.path, None)?;
    }
    match plan.kind {
        RepoKind::DetachedHead => {
            // Two commits behind main's tip (or the oldest one, on a short history).
            let index = history.main_marks.len().saturating_sub(3);
            let mark = format!(":{} ", history.main_marks[index]);
            let id = marks_text
                .lines()
                .find_map(|line| line.strip_prefix(&mark))
                .unwrap_or_default()
                .trim()
                .to_owned();
            fs_err::write(git_dir.join("HEAD"), format!("{id}\n"))?;
        }
        RepoKind::BrokenHead => {
            fs_err::write(git_dir.join("HEAD"), "this is not a ref\n\u{0}\u{1}garbage\n")?;
        }
        RepoKind::Normal | RepoKind::Empty => {}
    }
    set_refs_mtime(&git_dir, last)?;
    if plan.checkout {
        check_out(home, plan, clock, last, seed)?;
    }
    Ok(Built {
        path: plan.path.clone(),
        kind: plan.kind,
        commits: history.commits,
        last_commit: Some(last),
        user_commits: history.user_commits,
    })
}

/// Leaves every object of the repository loose, as fetches smaller than
/// `fetch.unpackLimit` do until `git gc --auto` packs them: its packs are fed to
/// `git unpack-objects` and removed.
fn unpack(home: &Path, work_tree: &Path) -> Result<(), Error> {
    let packs = work_tree.join(".git/objects/pack");
    let mut names: Vec<PathBuf> = fs_err::read_dir(&packs)?
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<Result<_, _>>()?;
    names.sort();
    for pack in names.iter().filter(|path| path.extension().is_some_and(|ext| ext == "pack")) {
        let bytes = fs_err::read(pack)?;
        fs_err::remove_file(pack)?;
        fs_err::remove_file(pack.with_extension("idx"))?;
        run(git(home), &["unpack-objects", "-q"], work_tree, Some(&bytes))?;
    }
    Ok(())
}

/// Build output files written in a work tree that has any.
const BUILD_OUTPUT_FILES: usize = 160;

/// Checks the repository out as a developer's machine holds it: the branch's files and
/// an index brought up to date when it was last pulled (this morning in a busy
/// repository, at the end of the user's day in one they committed to, else at its last
/// commit), `target/` ignored through `info/exclude`, build output there in the user's
/// repositories and in half of the busy ones (an editor rebuilds after a pull), two old
/// untracked files everywhere, and real work in progress (two edited files, a new draft)
/// where the user committed on the reference day.
fn check_out(home: &Path, plan: &Plan, clock: &Clock, last: i64, seed: u64) -> Result<(), Error> {
    let mut rng = Rng::derive(seed, &format!("{}/checkout", plan.label));
    let work_tree = &plan.path;
    let git_dir = work_tree.join(".git");
    run(git(home), &["reset", "-q", "--hard"], work_tree, None)?;
    let mut tracked = Vec::new();
    tracked_files(work_tree, &mut tracked)?;
    tracked.sort();
    let today = plan.role == Role::Today;
    let pulled = if today {
        clock.at(0, 17 * 3600)
    } else if plan.busy != Busy::No {
        clock.at(0, 9 * 3600)
    } else {
        last.min(clock.now())
    };
    for entry in fs_err::read_dir(work_tree)? {
        let path = entry?.path();
        if path.file_name().is_some_and(|name| name != ".git") {
            files::set_tree_mtime(&path, pulled)?;
        }
    }
    files::set_mtime(work_tree, pulled)?;
    run(git(home), &["update-index", "-q", "--refresh"], work_tree, None)?;
    files::set_mtime(&git_dir.join("index"), pulled + SECOND)?;
    let exclude = git_dir.join("info/exclude");
    fs_err::create_dir_all(git_dir.join("info"))?;
    let mut rules = fs_err::read_to_string(&exclude).unwrap_or_default();
    rules.push_str("target/\n");
    fs_err::write(&exclude, rules)?;

    let old = clock.at(-10, 12 * 3600);
    fs_err::write(work_tree.join("notes.md"), "# notes\n- ask about the release\n")?;
    files::set_mtime(&work_tree.join("notes.md"), old)?;
    fs_err::create_dir_all(work_tree.join("scratch"))?;
    fs_err::write(work_tree.join("scratch/try.sh"), "#!/bin/sh\necho try\n")?;
    files::set_mtime(&work_tree.join("scratch/try.sh"), old)?;
    files::set_mtime(&work_tree.join("scratch"), old)?;

    if today || (plan.busy != Busy::No && rng.percent(50)) {
        let built = pulled + 30 * 60 * SECOND;
        let out = work_tree.join("target/debug");
        for index in 0..BUILD_OUTPUT_FILES {
            let folder = out.join(["deps", "build", ".fingerprint", "incremental"][index % 4]);
            fs_err::create_dir_all(&folder)?;
            let file = folder.join(format!("unit-{index:03}-{}.o", rng.hex(8)));
            fs_err::write(&file, vec![b'x'; 64 + index])?;
            files::set_mtime(&file, built)?;
        }
        files::set_tree_mtime(&work_tree.join("target"), built)?;
    }
    if today {
        let edited = clock.at(0, 17 * 3600 + 40 * 60);
        for path in tracked.iter().take(2) {
            let mut text = fs_err::read_to_string(path).unwrap_or_default();
            text.push_str("// work in progress\n");
            fs_err::write(path, text)?;
            files::set_mtime(path, edited)?;
        }
        fs_err::write(work_tree.join("draft.md"), "# draft\n")?;
        files::set_mtime(&work_tree.join("draft.md"), edited)?;
    }
    files::set_mtime(work_tree, pulled)?;
    Ok(())
}

/// The files under `dir` but `.git` (right after the checkout: the tracked ones).
fn tracked_files(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), Error> {
    for entry in fs_err::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|name| name != ".git") {
                tracked_files(&path, found)?;
            }
        } else {
            found.push(path);
        }
    }
    Ok(())
}

/// Gives HEAD, `packed-refs`, every ref and every reflog (files and folders) the time of
/// the last commit, as on a machine where that commit was the last thing done.
fn set_refs_mtime(git_dir: &Path, millis: i64) -> Result<(), Error> {
    for name in ["HEAD", "packed-refs"] {
        let path = git_dir.join(name);
        if path.exists() {
            files::set_mtime(&path, millis)?;
        }
    }
    for name in ["refs", "logs"] {
        let path = git_dir.join(name);
        if path.exists() {
            files::set_tree_mtime(&path, millis)?;
        }
    }
    Ok(())
}

/// A commit author.
#[derive(Clone, Copy)]
struct Author {
    name: &'static str,
    email: &'static str,
    zone: &'static str,
    user: bool,
}

const USER_PERSONAL: Author =
    Author { name: "Dev Example", email: EMAILS[0], zone: "+0900", user: true };
const USER_WORK: Author =
    Author { name: "Dev Example", email: EMAILS[1], zone: "+0900", user: true };
const BOTS: [Author; 3] = [
    Author {
        name: "dependabot[bot]",
        email: "49699333+dependabot[bot]@users.noreply.github.com",
        zone: "+0000",
        user: false,
    },
    Author {
        name: "renovate[bot]",
        email: "29139614+renovate[bot]@users.noreply.github.com",
        zone: "+0000",
        user: false,
    },
    Author {
        name: "github-actions[bot]",
        email: "41898282+github-actions[bot]@users.noreply.github.com",
        zone: "+0000",
        user: false,
    },
];
const COLLEAGUES: [Author; 5] = [
    Author { name: "Alice Smith", email: "alice@example.org", zone: "+0000", user: false },
    Author { name: "Bob Tanaka", email: "bob@work.example", zone: "+0900", user: false },
    Author { name: "Carol Díaz", email: "carol@example.net", zone: "-0800", user: false },
    Author { name: "Dan Kumar", email: "dan@example.com", zone: "+0530", user: false },
    Author { name: "Eve Martin", email: "eve@work.example", zone: "+0100", user: false },
];

/// One commit slot: when, by whom, and what it must be.
struct Slot {
    time: i64,
    author: usize,
    /// A plain commit on main (never a merge), for the commits a test relies on.
    plain: bool,
    big: bool,
}

/// A branch being worked on, merged into main with a merge commit when done.
struct Feature {
    refname: String,
    dir: String,
    files: BTreeMap<String, Vec<String>>,
    fork: u32,
    tip: Option<u32>,
    commits: usize,
    target: usize,
}

/// The fast-import stream of one repository and the facts about it.
struct History {
    stream: Vec<u8>,
    commits: u64,
    last_time: i64,
    main_marks: Vec<u32>,
    user_commits: Vec<CommitFacts>,
}

/// What a commit changed, as `--numstat` counts it.
#[derive(Default)]
struct Stat {
    files: u64,
    insertions: u64,
    deletions: u64,
}

/// The generator state of one repository.
struct Gen {
    rng: Rng,
    /// Makes every generated line unique in the repository.
    counter: u64,
    extensions: &'static [&'static str],
    stream: Vec<u8>,
    next_mark: u32,
}

impl History {
    fn generate(plan: &Plan, clock: &Clock, seed: u64) -> History {
        let mut rng = Rng::derive(seed, &plan.label);
        let mut authors: Vec<(Author, u64)> = Vec::new();
        let (primary, other) =
            if rng.percent(50) { (USER_WORK, USER_PERSONAL) } else { (USER_PERSONAL, USER_WORK) };
        authors.push((primary, 50));
        if rng.percent(35) {
            authors.push((other, 15));
        }
        let total = rng.range_usize(2, 4).max(authors.len() + 1);
        let mut pool: Vec<usize> = (0..COLLEAGUES.len()).collect();
        while authors.len() < total {
            let index = pool.remove(rng.index(pool.len()));
            let colleague = &COLLEAGUES[index];
            authors.push((
                Author {
                    name: colleague.name,
                    email: colleague.email,
                    zone: colleague.zone,
                    user: false,
                },
                35 / (total as u64 - 1),
            ));
        }
        let weights: Vec<u64> = authors.iter().map(|(_, weight)| *weight).collect();
        let mut slots = slots(&mut rng, clock, plan, &weights);
        if plan.busy != Busy::No {
            // Weight 0: the bots write only the busy slots below.
            authors.extend(BOTS.iter().map(|bot| (*bot, 0)));
            busy_slots(&mut slots, &authors, clock, plan, seed);
        }
        let extensions = *rng.pick(&[
            &["rs", "rs", "rs", "toml", "md"][..],
            &["ts", "ts", "tsx", "json", "md"][..],
            &["py", "py", "py", "toml", "md"][..],
            &["go", "go", "go", "yaml", "md"][..],
        ]);
        let mut generator =
            Gen { rng, counter: 0, extensions, stream: Vec::with_capacity(1 << 20), next_mark: 1 };
        generator.run(&slots, &authors)
    }
}

/// The commit slots of a repository, in time order.
fn slots(rng: &mut Rng, clock: &Clock, plan: &Plan, weights: &[u64]) -> Vec<Slot> {
    let n = plan.commits.max(3);
    let last_day = match plan.role {
        Role::Today | Role::Empty => 0,
        Role::Yesterday => -1,
        Role::Idle(day) => day,
    };
    // Commits on the last day: between 08:30 and 17:45 on the reference day (before
    // the reference time), any working hour on other days.
    let on_last_day = rng.range_usize(1, 8).min(n - 1);
    let mut slots: Vec<Slot> = Vec::with_capacity(n);
    for index in 0..n {
        let (day, second) = if index < n - on_last_day {
            (rng.range_i64(-30, last_day - 1), work_second(rng))
        } else if last_day == 0 {
            (0, rng.range_i64(8 * 3600 + 1800, 17 * 3600 + 2700))
        } else {
            (last_day, work_second(rng))
        };
        let author = rng.weighted(weights);
        slots.push(Slot { time: clock.at(day, second), author, plain: false, big: false });
    }
    slots.sort_by_key(|slot| slot.time);
    for index in 1..slots.len() {
        if slots[index].time <= slots[index - 1].time {
            slots[index].time = slots[index - 1].time + SECOND;
        }
    }
    let last_day_start = slots.len() - on_last_day;
    if plan.role == Role::Today {
        // The user commits on the reference day, and so does a colleague first when
        // there is one and room for both.
        let last = slots.len() - 1;
        slots[last].author = 0;
        slots[last].plain = true;
        if on_last_day >= 2 {
            if let Some(colleague) = (1..weights.len()).last() {
                slots[last_day_start].author = colleague;
                slots[last_day_start].plain = true;
            }
        }
    }
    if plan.big_commit {
        let index =
            if plan.role == Role::Today { last_day_start } else { rng.index(slots.len() - 1) + 1 };
        slots[index].big = true;
        slots[index].plain = true;
        if plan.role == Role::Today {
            slots[index].author = 0;
        }
    }
    slots
}

/// Adds the commits of colleagues and bots on the reference day (a 1,000-file one by a
/// bot where the plan says so) and on the four days after it, more of them after the day
/// than in it, then puts the slots back in time order.
fn busy_slots(
    slots: &mut Vec<Slot>,
    authors: &[(Author, u64)],
    clock: &Clock,
    plan: &Plan,
    seed: u64,
) {
    let mut rng = Rng::derive(seed, &format!("{}/busy", plan.label));
    let others: Vec<usize> = (0..authors.len()).filter(|index| !authors[*index].0.user).collect();
    let bots: Vec<usize> = others.iter().copied().filter(|index| authors[*index].1 == 0).collect();
    let on_day = rng.range_usize(1, 6);
    for _ in 0..on_day {
        let time = clock.at(0, rng.range_i64(8 * 3600 + 1800, 17 * 3600 + 2700));
        slots.push(Slot { time, author: *rng.pick(&others), plain: false, big: false });
    }
    if plan.busy == Busy::WithBigCommit {
        let time = clock.at(0, rng.range_i64(3 * 3600, 7 * 3600));
        slots.push(Slot { time, author: *rng.pick(&bots), plain: true, big: true });
    }
    for day in 1..=4 {
        for _ in 0..rng.range_usize(on_day, 2 * on_day + 2) {
            let time = clock.at(day, work_second(&mut rng));
            slots.push(Slot { time, author: *rng.pick(&others), plain: false, big: false });
        }
    }
    slots.sort_by_key(|slot| slot.time);
    for index in 1..slots.len() {
        if slots[index].time <= slots[index - 1].time {
            slots[index].time = slots[index - 1].time + SECOND;
        }
    }
}

/// A second of the day when people commit: mostly 09:00–19:00, some evenings.
fn work_second(rng: &mut Rng) -> i64 {
    let hour = if rng.percent(80) { rng.range_i64(9, 18) } else { rng.range_i64(19, 22) };
    hour * 3600 + rng.range_i64(0, 3599)
}

impl Gen {
    fn run(&mut self, slots: &[Slot], authors: &[(Author, u64)]) -> History {
        let mut main: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut main_marks: Vec<u32> = Vec::new();
        let mut feature: Option<Feature> = None;
        let mut features = 0;
        let mut user_commits = Vec::new();
        let mut commits = 0;
        for slot in slots {
            let (author, _) = &authors[slot.author];
            let mark = self.next_mark;
            self.next_mark += 1;
            commits += 1;
            let ready = feature.as_ref().is_some_and(|feature| feature.commits >= feature.target);
            if slot.big {
                let stat = self.big_commit(mark, author, slot.time);
                main_marks.push(mark);
                if author.user {
                    user_commits.push(facts(slot.time, &stat));
                }
            } else if ready && !slot.plain {
                // `ready` implies an open feature.
                let Some(done) = feature.take() else { continue };
                self.merge(mark, author, slot.time, &done);
                main.extend(done.files);
                main_marks.push(mark);
            } else if let Some(open) =
                feature.as_mut().filter(|_| !slot.plain && self.rng.percent(50))
            {
                let stat = self.feature_commit(mark, author, slot.time, open);
                if author.user {
                    user_commits.push(facts(slot.time, &stat));
                }
            } else {
                if feature.is_none() && !slot.plain && main_marks.len() >= 2 && self.rng.percent(8)
                {
                    features += 1;
                    let word = self.rng.pick(WORDS);
                    feature = Some(Feature {
                        refname: format!("refs/heads/feature/{word}-{features}"),
                        dir: format!("src/{word}_{features}"),
                        files: BTreeMap::new(),
                        fork: *main_marks.last().unwrap_or(&mark),
                        tip: None,
                        commits: 0,
                        target: self.rng.range_usize(2, 6),
                    });
                    if let Some(open) = feature.as_mut() {
                        let stat = self.feature_commit(mark, author, slot.time, open);
                        if author.user {
                            user_commits.push(facts(slot.time, &stat));
                        }
                    }
                    continue;
                }
                let stat =
                    self.main_commit(mark, author, slot.time, &mut main, main_marks.is_empty());
                main_marks.push(mark);
                if author.user {
                    user_commits.push(facts(slot.time, &stat));
                }
            }
        }
        // Refs besides the branches: a tag every 25 commits on main, and the
        // remote-tracking branch a little behind main.
        for (index, mark) in main_marks.iter().enumerate().filter(|(index, _)| index % 25 == 24) {
            let _ = write!(self.stream, "reset refs/tags/v0.{}.0\nfrom :{mark}\n\n", index / 25);
        }
        let behind = self.rng.index(3).min(main_marks.len() - 1);
        let _ = write!(
            self.stream,
            "reset refs/remotes/origin/main\nfrom :{}\n\ndone\n",
            main_marks[main_marks.len() - 1 - behind]
        );
        History {
            stream: std::mem::take(&mut self.stream),
            commits,
            last_time: slots.last().map_or(0, |slot| slot.time),
            main_marks,
            user_commits,
        }
    }

    fn header(&mut self, refname: &str, mark: u32, author: &Author, time: i64) {
        let message = text::commit_message(&mut self.rng);
        let seconds = time / SECOND;
        let Author { name, email, zone, .. } = author;
        let _ = write!(
            self.stream,
            "commit {refname}\nmark :{mark}\nauthor {name} <{email}> {seconds} {zone}\ncommitter {name} <{email}> {seconds} {zone}\ndata {}\n{message}",
            message.len()
        );
    }

    fn put_text(&mut self, path: &str, lines: &[String]) {
        let size: usize = lines.iter().map(|line| line.len() + 1).sum();
        let _ = write!(self.stream, "M 100644 inline {path}\ndata {size}\n");
        for line in lines {
            self.stream.extend_from_slice(line.as_bytes());
            self.stream.push(b'\n');
        }
    }

    /// A unique line of code, config or prose for a file with this extension.
    fn line(&mut self, extension: &str) -> String {
        self.counter += 1;
        let n = self.counter;
        let a = self.rng.pick(WORDS);
        let b = self.rng.pick(WORDS);
        match extension {
            "rs" => match self.rng.below(3) {
                0 => format!("    let {a}_{n} = {b}::parse({n})?;"),
                1 => format!("fn {a}_{b}_{n}() -> u64 {{ {n} }}"),
                _ => format!("// {a} before {b} ({n})"),
            },
            "ts" | "tsx" => format!("export const {a}{n} = {b}({n});"),
            "py" => format!("{a}_{n} = {b}({n})"),
            "go" => format!("\t{a}{n} := {b}({n})"),
            "md" => format!("- The {a} of each {b} ({n})"),
            "json" => format!("  \"{a}_{n}\": \"{b}\","),
            "sh" => format!("echo \"{a} {b} {n}\""),
            _ => format!("{a}_{n} = \"{b}\""),
        }
    }

    fn new_file(&mut self, dir: &str, lines: usize) -> (String, Vec<String>) {
        let extension = *self.rng.pick(self.extensions);
        let dir = if extension == "md" { "docs" } else { dir };
        let name =
            format!("{}_{}_{}", self.rng.pick(WORDS), self.rng.pick(WORDS), self.counter + 1);
        let content = (0..lines).map(|_| self.line(extension)).collect();
        (format!("{dir}/{name}.{extension}"), content)
    }

    /// Changes 1–4 files of `tree` (adds, edits and, on main, rarely a deletion or a
    /// binary file), emitting each, and returns the counts. Binary files are not kept
    /// in `tree`: they are never edited again.
    fn change(
        &mut self,
        tree: &mut BTreeMap<String, Vec<String>>,
        dir: &str,
        on_main: bool,
    ) -> Stat {
        let mut stat = Stat::default();
        let n_ops = [1, 2, 3, 4][self.rng.weighted(&[45, 30, 15, 10])];
        let deleting = on_main && tree.len() > 8 && self.rng.percent(3);
        let mut touched: BTreeSet<String> = BTreeSet::new();
        for op in 0..n_ops {
            let candidates: Vec<&String> =
                tree.keys().filter(|path| !touched.contains(*path)).collect();
            if deleting && op == 0 {
                let path = candidates[self.rng.index(candidates.len())].clone();
                let lines = tree.remove(&path).map_or(0, |lines| lines.len());
                let _ = writeln!(self.stream, "D {path}");
                stat.files += 1;
                stat.deletions += lines as u64;
                touched.insert(path);
            } else if !deleting && (candidates.is_empty() || self.rng.percent(25)) {
                if on_main && self.rng.percent(3) {
                    self.counter += 1;
                    let path = format!("assets/{}_{}.png", self.rng.pick(WORDS), self.counter);
                    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
                    bytes.extend(
                        (0..self.rng.range(64, 2048)).map(|_| (self.rng.next_u64() & 0xff) as u8),
                    );
                    let _ = write!(self.stream, "M 100644 inline {path}\ndata {}\n", bytes.len());
                    self.stream.extend_from_slice(&bytes);
                    self.stream.push(b'\n');
                    stat.files += 1;
                    touched.insert(path);
                } else {
                    let lines = self.rng.range_usize(5, 80);
                    let (path, content) = self.new_file(dir, lines);
                    if tree.contains_key(&path) || touched.contains(&path) {
                        continue;
                    }
                    self.put_text(&path, &content);
                    stat.files += 1;
                    stat.insertions += content.len() as u64;
                    touched.insert(path.clone());
                    tree.insert(path, content);
                }
            } else if !candidates.is_empty() {
                let path = candidates[self.rng.index(candidates.len())].clone();
                let extension = path.rsplit('.').next().unwrap_or("txt").to_owned();
                let length = tree.get(&path).map_or(0, Vec::len);
                let (max_delete, max_insert) = if length > 250 { (30, 4) } else { (8, 12) };
                let at = self.rng.index(length + 1);
                let deleted = self.rng.range_usize(0, max_delete.min(length - at));
                let mut inserted = self.rng.range_usize(0, max_insert);
                if deleted == 0 && inserted == 0 {
                    inserted = 1;
                }
                let new: Vec<String> = (0..inserted).map(|_| self.line(&extension)).collect();
                let Some(lines) = tree.get_mut(&path) else { continue };
                lines.splice(at..at + deleted, new);
                let lines = lines.clone();
                self.put_text(&path, &lines);
                stat.files += 1;
                stat.insertions += inserted as u64;
                stat.deletions += deleted as u64;
                touched.insert(path);
            }
        }
        stat
    }

    fn main_commit(
        &mut self,
        mark: u32,
        author: &Author,
        time: i64,
        main: &mut BTreeMap<String, Vec<String>>,
        first: bool,
    ) -> Stat {
        self.header("refs/heads/main", mark, author, time);
        let mut stat = Stat::default();
        if first {
            // A README and a manifest to start with.
            for (path, extension) in [("README.md", "md"), ("config/settings.toml", "toml")] {
                let content: Vec<String> =
                    (0..self.rng.range_usize(5, 30)).map(|_| self.line(extension)).collect();
                self.put_text(path, &content);
                stat.files += 1;
                stat.insertions += content.len() as u64;
                main.insert(path.to_owned(), content);
            }
        } else {
            let dir = *self.rng.pick(&[
                "src",
                "src/core",
                "tests",
                "scripts",
                "crates/util/src",
                "web/src",
            ]);
            stat = self.change(main, dir, true);
        }
        self.stream.push(b'\n');
        stat
    }

    fn feature_commit(
        &mut self,
        mark: u32,
        author: &Author,
        time: i64,
        feature: &mut Feature,
    ) -> Stat {
        let refname = feature.refname.clone();
        self.header(&refname, mark, author, time);
        if feature.tip.is_none() {
            let _ = writeln!(self.stream, "from :{}", feature.fork);
        }
        let dir = feature.dir.clone();
        let stat = self.change(&mut feature.files, &dir, false);
        self.stream.push(b'\n');
        feature.tip = Some(mark);
        feature.commits += 1;
        stat
    }

    /// A `--no-ff` merge of a finished feature into main: main's tree plus the
    /// feature's files.
    fn merge(&mut self, mark: u32, author: &Author, time: i64, feature: &Feature) {
        self.counter += 1;
        let message =
            format!("Merge branch '{}'\n", feature.refname.trim_start_matches("refs/heads/"));
        let seconds = time / SECOND;
        let Author { name, email, zone, .. } = author;
        let _ = write!(
            self.stream,
            "commit refs/heads/main\nmark :{mark}\nauthor {name} <{email}> {seconds} {zone}\ncommitter {name} <{email}> {seconds} {zone}\ndata {}\n{message}",
            message.len()
        );
        if let Some(tip) = feature.tip {
            let _ = writeln!(self.stream, "merge :{tip}");
        }
        for (path, lines) in &feature.files {
            self.put_text(path, lines);
        }
        self.stream.push(b'\n');
    }

    /// 1,000 vendored files in one commit on main.
    fn big_commit(&mut self, mark: u32, author: &Author, time: i64) -> Stat {
        self.header("refs/heads/main", mark, author, time);
        let vendor = format!("vendor/{}-{}", self.rng.pick(WORDS), self.rng.pick(WORDS));
        let extension = self.extensions[0];
        let mut stat = Stat::default();
        for index in 0..1000 {
            let content: Vec<String> =
                (0..self.rng.range_usize(3, 8)).map(|_| self.line(extension)).collect();
            self.put_text(&format!("{vendor}/src/part_{index:04}.{extension}"), &content);
            stat.files += 1;
            stat.insertions += content.len() as u64;
        }
        self.stream.push(b'\n');
        stat
    }
}

fn facts(time: i64, stat: &Stat) -> CommitFacts {
    CommitFacts { time, files: stat.files, insertions: stat.insertions, deletions: stat.deletions }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plans(preset: crate::Preset) -> Vec<Plan> {
        plan(&Params::of(preset), crate::SEED, Path::new("/home"))
    }

    #[test]
    fn only_the_busy_preset_has_busy_repositories() {
        for preset in
            [crate::Preset::Small, crate::Preset::Large, crate::Preset::LargeDoubleHistory]
        {
            assert!(plans(preset).iter().all(|plan| plan.busy == Busy::No), "{preset}");
        }
        let busy = plans(crate::Preset::Busy);
        let normal = busy.iter().filter(|plan| plan.kind == RepoKind::Normal).count();
        let active = busy.iter().filter(|plan| plan.busy != Busy::No).count();
        assert!(active * 100 >= normal * 75, "{active} of {normal} normal repositories are busy");
        assert_eq!(busy.iter().filter(|plan| plan.busy == Busy::WithBigCommit).count(), 12);
        assert!(
            busy.iter()
                .filter(|plan| plan.busy != Busy::No)
                .all(|plan| plan.kind == RepoKind::Normal)
        );
    }

    #[test]
    fn the_pulled_preset_checks_out_every_normal_repository_and_the_user_works_in_twenty() {
        let plans = plans(crate::Preset::Pulled);
        assert!(
            plans.iter().filter(|plan| plan.kind == RepoKind::Normal).all(|plan| plan.checkout)
        );
        assert!(
            plans.iter().filter(|plan| plan.kind != RepoKind::Normal).all(|plan| !plan.checkout)
        );
        assert_eq!(plans.iter().filter(|plan| plan.role == Role::Today).count(), 21);
        let normal = plans.iter().filter(|plan| plan.kind == RepoKind::Normal).count();
        let busy = plans.iter().filter(|plan| plan.busy != Busy::No).count();
        assert!(busy * 100 >= normal * 85, "{busy} of {normal} normal repositories are busy");
        for preset in [crate::Preset::Small, crate::Preset::Large, crate::Preset::Busy] {
            assert!(
                super::plan(&Params::of(preset), crate::SEED, Path::new("/h"))
                    .iter()
                    .all(|plan| !plan.checkout)
            );
        }
    }

    /// `git status --porcelain` of a generated work tree, sorted.
    fn status(home: &Path, work_tree: &Path) -> Vec<String> {
        let output = git(home)
            .args(["status", "--porcelain", "--untracked-files=normal"])
            .current_dir(work_tree)
            .output()
            .unwrap();
        assert!(output.status.success());
        let mut lines: Vec<String> =
            String::from_utf8_lossy(&output.stdout).lines().map(str::to_owned).collect();
        lines.sort();
        lines
    }

    #[test]
    fn a_pulled_work_tree_is_clean_but_for_old_untracked_files_and_the_users_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        let clock = Clock::new().unwrap();
        let plans = super::plan(&Params::of(crate::Preset::Pulled), crate::SEED, home);
        let pulled = plans
            .iter()
            .find(|plan| plan.busy != Busy::No && plan.role != Role::Today && plan.checkout)
            .unwrap();
        let today = plans.iter().find(|plan| plan.role == Role::Today && plan.checkout).unwrap();
        for plan in [pulled, today] {
            build(home, plan, &clock, crate::SEED).unwrap();
        }
        // Build output is ignored, the checkout's stat data is current: only the old
        // untracked files are named.
        assert_eq!(status(home, &pulled.path), ["?? notes.md", "?? scratch/"]);
        let index_time =
            fs_err::metadata(pulled.path.join(".git/index")).unwrap().modified().unwrap();
        assert_eq!(index_time, files::system_time(clock.at(0, 9 * 3600) + SECOND));
        let named = status(home, &today.path);
        assert_eq!(named.iter().filter(|line| line.starts_with(" M ")).count(), 2, "{named:?}");
        assert!(named.contains(&"?? draft.md".to_owned()), "{named:?}");
        assert!(today.path.join("target/debug/deps").is_dir());
    }

    #[test]
    fn busy_slots_are_others_and_more_after_the_day_than_in_it() {
        let clock = Clock::new().unwrap();
        let plan = plans(crate::Preset::Busy)
            .into_iter()
            .find(|plan| plan.busy == Busy::WithBigCommit)
            .unwrap();
        let authors = vec![(USER_PERSONAL, 50), (COLLEAGUES[0], 20), (BOTS[0], 0), (BOTS[1], 0)];
        let mut slots = Vec::new();
        busy_slots(&mut slots, &authors, &clock, &plan, crate::SEED);
        let (day_start, day_end) = clock.window(0);
        let in_day = slots.iter().filter(|slot| (day_start..day_end).contains(&slot.time)).count();
        let after = slots.iter().filter(|slot| slot.time >= day_end).count();
        assert!(in_day >= 2, "{in_day} commits on the day (one of them the big one)");
        assert!(after > in_day, "{after} commits after the day, {in_day} in it");
        assert!(slots.iter().all(|slot| !authors[slot.author].0.user));
        let big: Vec<&Slot> = slots.iter().filter(|slot| slot.big).collect();
        assert_eq!(big.len(), 1);
        assert!(authors[big[0].author].1 == 0, "the 1,000-file commit is a bot's");
        assert!((day_start..day_end).contains(&big[0].time));
        assert!(slots.windows(2).all(|pair| pair[0].time < pair[1].time), "in time order");
    }
}
