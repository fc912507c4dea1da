//! A deterministic generator of a synthetic home for benchmarks and smoke tests: git
//! repositories, Claude Code transcripts, Codex rollouts and zsh, bash and fish
//! histories shaped like a heavy user's machine, built around a fixed reference time
//! ([`NOW`], Friday 2026-11-27 18:00 in Asia/Tokyo).
//!
//! [`generate`] writes `<out>/home` and `<out>/manifest.json`; the [`Manifest`] records
//! what was made and the totals `standup daily` (and `standup standup`) must report for
//! the reference day, counted while generating. A second call with the same preset
//! reuses the home; [`regenerate`] rebuilds it.
//!
//! Owns the presets, the seeded generator and the manifest of expected counts. Never
//! reads the real home, the clock or an environment variable (git runs with `HOME` and
//! `XDG_CONFIG_HOME` pointed into the generated home and no system config), never
//! touches the network, and never deletes a folder it did not make (`<out>/.bench-home`
//! marks the ones it did).
//!
//! Same preset, same files: every random choice comes from a seeded splitmix64 stream,
//! and git objects get fixed dates, so commit ids are identical across runs. Only paths
//! that embed the output folder (working directories in transcripts) differ between
//! output folders.

mod claude;
mod clock;
mod codex;
mod error;
mod expect;
mod files;
mod git;
mod rng;
mod shell;
mod text;

use std::path::{Path, PathBuf};
use std::thread;

use jiff::civil::Date;
use serde::{Deserialize, Serialize};

pub use clock::{DATE, NOW, PREVIOUS_WORKDAY, TIME_ZONE};
pub use error::Error;

/// Bumped whenever the generated files change, so an old home is not reused.
pub const GENERATOR_VERSION: u32 = 2;

/// The seed of every preset.
pub const SEED: u64 = 0x5eed_2026_1127;

/// The manifest's file name inside the output folder.
pub const MANIFEST_FILE: &str = "manifest.json";

/// The marker file that says an output folder was made by this generator.
const MARKER_FILE: &str = ".bench-home";

/// The user's commit e-mails (both are in the generated config's identity).
pub const EMAILS: [&str; 2] = ["dev@example.com", "dev@work.example"];

/// How big a home to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// About 1/50 of `Large`: 7 repositories, a few MB of transcripts, 6,000 zsh lines.
    /// Generated in a couple of seconds; the smoke test uses it.
    Small,
    /// A heavy user's machine: 150 repositories, ~1 GB of Claude Code transcripts,
    /// ~100 MB of Codex rollouts, 300,000 zsh lines.
    Large,
    /// `Large` with twice the old, inactive history: 300 repositories and ~2 GB of
    /// transcripts, but the same activity on the reference day. standup's time should
    /// follow the day's activity, not the size of the history, so it should barely move.
    LargeDoubleHistory,
    /// A busy machine: `Large`'s sources, but colleagues and bots commit in most
    /// repositories on the reference day (some 1,000-file commits among them) and keep
    /// committing for days after it, so the refs moved in most repositories and git has
    /// a longer history after the day than in it.
    Busy,
    /// The machine of a team where everyone commits: `Large`'s sources, colleagues and
    /// bots commit in almost every repository, and every repository is checked out and
    /// pulled each morning (its index and files rewritten on the reference day), with
    /// build output (ignored) and old untracked files in the work trees; the user
    /// commits in about 20 of them. Most repositories' refs and index moved, but only
    /// the user's few have work in progress.
    Pulled,
    /// `Busy`, fetched the way `git fetch` leaves small fetches: the colleagues'
    /// repositories' objects loose (`objects/XX/` folders, as before `git gc --auto`
    /// packs them), and the user's repositories each holding a work e-mail in their own
    /// `.git/config`.
    Fetched,
}

impl Preset {
    /// `small` or `large`.
    pub fn as_str(self) -> &'static str {
        match self {
            Preset::Small => "small",
            Preset::Large => "large",
            Preset::LargeDoubleHistory => "large-2x",
            Preset::Busy => "busy",
            Preset::Pulled => "pulled",
            Preset::Fetched => "fetched",
        }
    }
}

impl std::str::FromStr for Preset {
    type Err = String;

    fn from_str(text: &str) -> Result<Preset, String> {
        match text {
            "small" => Ok(Preset::Small),
            "large" => Ok(Preset::Large),
            "large-2x" => Ok(Preset::LargeDoubleHistory),
            "busy" => Ok(Preset::Busy),
            "pulled" => Ok(Preset::Pulled),
            "fetched" => Ok(Preset::Fetched),
            other => Err(format!(
                "`{other}` is not a preset (expected `small`, `large`, `large-2x`, `busy`, `pulled` or `fetched`)"
            )),
        }
    }
}

impl std::fmt::Display for Preset {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.as_str())
    }
}

/// What was generated and what a report on it must say.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`GENERATOR_VERSION`] of the generator that made the home.
    pub generator_version: u32,
    /// The preset.
    pub preset: Preset,
    /// The seed.
    pub seed: u64,
    /// The reference time, RFC 3339 (give it to `standup` as `STANDUP_NOW`).
    pub now: String,
    /// The IANA time zone (also set in the generated config; give it as `TZ` too).
    pub time_zone: String,
    /// The reference day: the day of `standup daily` at `now`.
    pub date: Date,
    /// The previous working day: the standup's first bucket.
    pub previous_workday: Date,
    /// The home folder (`<out>/home`, canonical).
    pub home: PathBuf,
    /// The user's commit e-mails.
    pub emails: Vec<String>,
    /// Every generated repository, by path.
    pub repositories: Vec<Repository>,
    /// The totals the reports must show.
    pub expected: Expected,
    /// The warnings the reports must carry.
    pub expected_warnings: Vec<ExpectedWarning>,
    /// How much was written.
    pub sizes: Sizes,
}

impl Manifest {
    /// The folder `standup` must not look above for a repository: the output folder, the
    /// home's parent. Give it as `GIT_CEILING_DIRECTORIES`, so that a home generated
    /// inside a git work tree (the default, under `target/`) reads as a home outside any
    /// repository: the enclosing checkout is then neither counted nor read.
    pub fn ceiling(&self) -> &Path {
        self.home.parent().unwrap_or(&self.home)
    }

    /// The paths of every repository (the baseline runs `git log` in each).
    pub fn repository_paths(&self) -> Vec<PathBuf> {
        self.repositories.iter().map(|repository| repository.path.clone()).collect()
    }

    /// A few lines for people: where, how much, and the expected daily totals.
    pub fn summary(&self) -> String {
        let sizes = &self.sizes;
        let daily = &self.expected.daily;
        #[expect(clippy::cast_precision_loss, reason = "sizes are far below 2^52 bytes")]
        let mib = |bytes: u64| format!("{:.1}", bytes as f64 / (1024.0 * 1024.0));
        format!(
            "home: {}\npreset: {} (generator v{}, seed {:#x}), now {} ({})\n\
             git: {} repositories, {} commits\n\
             claude: {} files, {} MiB; codex: {} files, {} MiB\n\
             shell: zsh {} lines, bash {} lines, fish {} entries ({} MiB)\n\
             expected daily {}: {} projects, {} commits (+{} -{}, {} files), {} sessions, {} prompts, {} commands\n\
             expected warnings: {}",
            self.home.display(),
            self.preset,
            self.generator_version,
            self.seed,
            self.now,
            self.time_zone,
            sizes.repositories,
            sizes.commits,
            sizes.claude_files,
            mib(sizes.claude_bytes),
            sizes.codex_files,
            mib(sizes.codex_bytes),
            sizes.zsh_lines,
            sizes.bash_lines,
            sizes.fish_entries,
            mib(sizes.shell_bytes),
            self.date,
            daily.projects,
            daily.commits,
            daily.insertions,
            daily.deletions,
            daily.files_changed,
            daily.sessions,
            daily.prompts,
            daily.commands,
            if self.expected_warnings.is_empty() {
                "none".to_owned()
            } else {
                self.expected_warnings
                    .iter()
                    .map(|warning| format!("{} ({})", warning.code, warning.path.display()))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        )
    }
}

/// What kind of repository.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RepoKind {
    /// Branches, tags, a remote-tracking branch, merges.
    Normal,
    /// `git init` and nothing else.
    Empty,
    /// HEAD holds a commit id instead of a branch.
    DetachedHead,
    /// `.git/HEAD` holds garbage: git refuses the repository.
    BrokenHead,
}

/// One generated repository.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Repository {
    /// The work tree (never checked out: only `.git` is written).
    pub path: PathBuf,
    /// What kind it is.
    pub kind: RepoKind,
    /// Commits, merges included.
    pub commits: u64,
    /// The newest commit's time (RFC 3339, UTC); also the mtime of its refs, HEAD and
    /// reflogs.
    pub last_commit: Option<String>,
}

/// The totals of the reports on the reference day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expected {
    /// `standup daily` for [`Manifest::date`] (its `totals`).
    pub daily: Counts,
    /// The previous working day's bucket of `standup standup`.
    pub previous_workday: Counts,
    /// `standup standup` at [`Manifest::now`] (its `totals`).
    pub standup: Counts,
}

/// Totals as the report's JSON `totals` holds them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Projects with activity.
    pub projects: u64,
    /// The user's commits (merges excluded), by author date.
    pub commits: u64,
    /// Files changed, summed over those commits.
    pub files_changed: u64,
    /// Lines inserted.
    pub insertions: u64,
    /// Lines deleted.
    pub deletions: u64,
    /// Agent sessions with a record in the window.
    pub sessions: u64,
    /// User prompts in the window.
    pub prompts: u64,
    /// Shell commands in the window, the default ignore list left out.
    pub commands: u64,
}

/// A warning the report must carry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExpectedWarning {
    /// The warning's code (`git_failed`).
    pub code: String,
    /// The file or folder it names.
    pub path: PathBuf,
    /// Why it is expected.
    pub reason: String,
}

/// How much was written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sizes {
    /// Repositories.
    pub repositories: u64,
    /// Commits in all repositories.
    pub commits: u64,
    /// Claude Code transcript and sub-agent files.
    pub claude_files: u64,
    /// Their bytes.
    pub claude_bytes: u64,
    /// Codex rollout files.
    pub codex_files: u64,
    /// Their bytes.
    pub codex_bytes: u64,
    /// Lines of `~/.zsh_history`.
    pub zsh_lines: u64,
    /// Lines of `~/.bash_history`.
    pub bash_lines: u64,
    /// Entries of fish's history.
    pub fish_entries: u64,
    /// Bytes of the three histories.
    pub shell_bytes: u64,
}

/// The shape of a preset.
pub(crate) struct Params {
    pub(crate) repos: usize,
    pub(crate) empty_repos: usize,
    /// Repositories with commits on the reference day (the broken one is extra).
    pub(crate) today_repos: usize,
    /// Repositories whose last commit is on the previous day (the detached one is extra).
    pub(crate) yesterday_repos: usize,
    /// Commits per repository: `(weight, min, max)` classes.
    pub(crate) commit_classes: &'static [(u64, u64, u64)],
    /// 1,000-file commits in idle repositories (one more is on the reference day).
    pub(crate) idle_big_commits: usize,
    pub(crate) claude_sessions: usize,
    pub(crate) claude_today: usize,
    pub(crate) claude_crossing: usize,
    pub(crate) claude_subagent_sessions: usize,
    pub(crate) claude_bytes: u64,
    pub(crate) codex_sessions: usize,
    pub(crate) codex_today: usize,
    pub(crate) codex_bytes: u64,
    pub(crate) zsh_lines: usize,
    pub(crate) bash_lines: usize,
    pub(crate) fish_entries: usize,
    /// Commands on the reference day: zsh, bash, fish.
    pub(crate) today_commands: [usize; 3],
    /// Percent of the normal repositories where colleagues and bots commit on the
    /// reference day and on the days after it (0: none).
    pub(crate) busy_percent: u64,
    /// How many of those get a 1,000-file commit by a bot on the reference day.
    pub(crate) busy_big_commits: usize,
    /// Whether the normal repositories are checked out: a work tree, an index, ignored
    /// build output and old untracked files; the busy ones pulled on the reference day.
    pub(crate) checkouts: bool,
    /// Whether the busy repositories' objects are loose, as small fetches leave them.
    pub(crate) loose_objects: bool,
    /// Whether the user's repositories (commits on the reference day or the one before)
    /// hold the work e-mail in their own `.git/config`.
    pub(crate) own_identity: bool,
}

impl Params {
    pub(crate) fn of(preset: Preset) -> Params {
        match preset {
            Preset::Large => Params {
                repos: 150,
                empty_repos: 3,
                today_repos: 12,
                yesterday_repos: 14,
                commit_classes: &[(40, 20, 60), (35, 60, 150), (18, 150, 300), (7, 300, 400)],
                idle_big_commits: 2,
                claude_sessions: 1000,
                claude_today: 36,
                claude_crossing: 3,
                claude_subagent_sessions: 40,
                claude_bytes: 1_000_000_000,
                codex_sessions: 150,
                codex_today: 6,
                codex_bytes: 100_000_000,
                zsh_lines: 300_000,
                bash_lines: 50_000,
                fish_entries: 20_000,
                today_commands: [220, 60, 40],
                busy_percent: 0,
                busy_big_commits: 0,
                checkouts: false,
                loose_objects: false,
                own_identity: false,
            },
            Preset::LargeDoubleHistory => Params {
                repos: 300,
                claude_sessions: 2000,
                claude_bytes: 2_000_000_000,
                codex_sessions: 300,
                codex_bytes: 200_000_000,
                ..Params::of(Preset::Large)
            },
            Preset::Busy => Params {
                today_repos: 30,
                busy_percent: 85,
                busy_big_commits: 12,
                ..Params::of(Preset::Large)
            },
            Preset::Pulled => Params {
                today_repos: 20,
                busy_percent: 92,
                busy_big_commits: 6,
                checkouts: true,
                ..Params::of(Preset::Large)
            },
            Preset::Fetched => {
                Params { loose_objects: true, own_identity: true, ..Params::of(Preset::Busy) }
            }
            Preset::Small => Params {
                repos: 7,
                empty_repos: 1,
                today_repos: 3,
                yesterday_repos: 0,
                commit_classes: &[(1, 10, 40)],
                idle_big_commits: 0,
                claude_sessions: 24,
                claude_today: 5,
                claude_crossing: 1,
                claude_subagent_sessions: 2,
                claude_bytes: 6_000_000,
                codex_sessions: 6,
                codex_today: 2,
                codex_bytes: 1_500_000,
                zsh_lines: 6_000,
                bash_lines: 1_000,
                fish_entries: 400,
                today_commands: [30, 10, 8],
                busy_percent: 0,
                busy_big_commits: 0,
                checkouts: false,
                loose_objects: false,
                own_identity: false,
            },
        }
    }
}

/// Generates the home for `preset` under `out`, or returns the manifest of the one
/// already there when it was made by this generator version with this preset.
pub fn generate(preset: Preset, out: &Path) -> Result<Manifest, Error> {
    let out = prepare(out)?;
    if let Ok(manifest) = load_manifest(&out) {
        if manifest.generator_version == GENERATOR_VERSION
            && manifest.preset == preset
            && manifest.seed == SEED
            && manifest.home == out.join("home")
            && manifest.home.is_dir()
        {
            return Ok(manifest);
        }
    }
    build(preset, &out)
}

/// Generates the home for `preset` under `out`, replacing one made before.
pub fn regenerate(preset: Preset, out: &Path) -> Result<Manifest, Error> {
    let out = prepare(out)?;
    build(preset, &out)
}

/// Reads `<out>/manifest.json`.
pub fn load_manifest(out: &Path) -> Result<Manifest, Error> {
    let path = out.join(MANIFEST_FILE);
    let text = fs_err::read_to_string(&path)?;
    serde_json::from_str(&text).map_err(|source| Error::Manifest { path, source })
}

/// Creates `out` and returns its canonical path (transcripts hold canonical paths, as
/// `standup` compares them with the repositories it finds).
fn prepare(out: &Path) -> Result<PathBuf, Error> {
    fs_err::create_dir_all(out)?;
    Ok(fs_err::canonicalize(out)?)
}

/// Removes what a previous generation left, after checking it was ours.
fn clear(out: &Path) -> Result<(), Error> {
    let home = out.join("home");
    let marker = out.join(MARKER_FILE);
    if home.exists() {
        if !marker.exists() {
            return Err(Error::NotOurs { path: home });
        }
        fs_err::remove_dir_all(&home)?;
    }
    let manifest = out.join(MANIFEST_FILE);
    if manifest.exists() {
        fs_err::remove_file(&manifest)?;
    }
    fs_err::write(&marker, "made by bench-home; `cargo xtask bench-home --force` replaces it\n")?;
    Ok(())
}

fn build(preset: Preset, out: &Path) -> Result<Manifest, Error> {
    clear(out)?;
    let home = out.join("home");
    fs_err::create_dir_all(&home)?;
    let params = Params::of(preset);
    let clock = clock::Clock::new()?;

    files::write_config(&home)?;
    let plans = git::plan(&params, SEED, &home);
    let places = claude::Places::new(&home, &plans)?;
    let workers = thread::available_parallelism().map_or(2, std::num::NonZero::get).clamp(2, 8);

    let (repos, claude, codex, shell) = thread::scope(|scope| {
        let claude = scope.spawn(|| claude::write(&home, &params, &clock, &places, SEED));
        let codex = scope.spawn(|| codex::write(&home, &params, &clock, &places, SEED));
        let shell = scope.spawn(|| shell::write(&home, &params, &clock, &plans, SEED));
        let repos = git::build_all(&home, &plans, &clock, SEED, workers);
        (repos, join(claude), join(codex), join(shell))
    });
    let repos = repos?;
    let (claude, codex, shell) = (claude?, codex?, shell?);

    let expected = expect::Expectation {
        clock: &clock,
        repos: &repos,
        sessions: claude.sessions.iter().chain(&codex.sessions).collect(),
        commands: &shell.commands,
    }
    .compute();
    let expected_warnings = repos
        .iter()
        .filter(|repo| repo.kind == RepoKind::BrokenHead && repo.last_commit.is_some_and(|time| time >= clock.day_start(0)))
        .map(|repo| ExpectedWarning {
            code: "git_failed".to_owned(),
            path: repo.path.clone(),
            reason: "`.git/HEAD` holds garbage and its refs changed on the reference day, so both reports run git on it and git fails".to_owned(),
        })
        .collect();
    let sizes = Sizes {
        repositories: repos.len() as u64,
        commits: repos.iter().map(|repo| repo.commits).sum(),
        claude_files: claude.files,
        claude_bytes: claude.bytes,
        codex_files: codex.files,
        codex_bytes: codex.bytes,
        zsh_lines: shell.zsh_lines,
        bash_lines: shell.bash_lines,
        fish_entries: shell.fish_entries,
        shell_bytes: shell.bytes,
    };
    let manifest = Manifest {
        generator_version: GENERATOR_VERSION,
        preset,
        seed: SEED,
        now: NOW.to_owned(),
        time_zone: TIME_ZONE.to_owned(),
        date: DATE,
        previous_workday: PREVIOUS_WORKDAY,
        home: home.clone(),
        emails: EMAILS.iter().map(|email| (*email).to_owned()).collect(),
        repositories: repos
            .iter()
            .map(|repo| Repository {
                path: repo.path.clone(),
                kind: repo.kind,
                commits: repo.commits,
                last_commit: repo.last_commit.map(clock::iso),
            })
            .collect(),
        expected,
        expected_warnings,
        sizes,
    };
    // Written last and renamed into place, so a half-made home is never reused.
    let text = serde_json::to_string_pretty(&manifest)
        .map_err(|source| Error::Manifest { path: out.join(MANIFEST_FILE), source })?;
    let partial = out.join("manifest.json.partial");
    fs_err::write(&partial, text + "\n")?;
    fs_err::rename(&partial, out.join(MANIFEST_FILE))?;
    Ok(manifest)
}

/// The result of a generator thread; a panic is a bug, reported as an error.
fn join<T>(handle: thread::ScopedJoinHandle<'_, Result<T, Error>>) -> Result<T, Error> {
    handle.join().map_err(|_| Error::Panicked)?
}

#[cfg(test)]
mod tests;
