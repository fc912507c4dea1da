//! AI coding-agent session logs: Claude Code, OpenAI Codex CLI, Gemini CLI, GitHub
//! Copilot CLI, opencode, pi, Qwen Code, Cursor, Amp, Aider, Factory Droid, Cline's CLI,
//! Kilo Code's CLI, Continue (its CLI and editor extensions), the VS Code extensions of
//! Cline, Roo Code and Kilo Code, VS Code's own Chat, Goose, gptme, Kimi Code, Mistral Vibe,
//! OpenHands, Hermes Agent, OpenClaw and Command Code.
//!
//! Each agent keeps its own local logs; [`read_sessions`] turns the sessions that have
//! records since a given instant into [`SessionEvent`]s, with one [`SourceStatus`](crate::SourceStatus) per
//! agent (named by [`Agent::config_name`]) for `standup doctor`. Aider keeps its
//! history in each repository, so [`read_aider`] is given the work trees found.
//!
//! How the readers stay fast and safe on large logs:
//!
//! - Only files modified at or after `since` are opened (the small index files
//!   `history.jsonl`, `session_index.jsonl` and `projects.json` excepted): a log is
//!   append-only, so a file untouched since then holds no record since then.
//! - Files are streamed line by line; each line is deserialized into a small struct
//!   holding only the fields the reader needs, so message bodies and tool output are
//!   skipped by the parser, never copied. Text kept for titles is capped.
//! - A malformed line (bad JSON, invalid UTF-8) is skipped and counted, and each file
//!   with such lines gives one `malformed_lines` warning; a last line without its
//!   newline is a record still being written, not an error. A file or folder that exists
//!   but cannot be read gives a `source_unreadable` warning. A missing source is silent.
//! - Directory listings are sorted, so the same files give the same events in the same
//!   order.
//!
//! Events are placed by the timestamps of their records (UTC), never by the local dates
//! in folder or file names. `SessionEvent::project` is left empty: the join step sets it
//! from `cwd`.

mod aider;
mod amp;
mod claude;
mod claude_tasks;
mod cline;
mod cline_tasks;
mod codex;
mod commandcode;
mod continue_dev;
mod copilot;
mod cursor;
mod droid;
mod gemini;
mod goose;
mod gptme;
mod hermes;
mod jsonl;
mod kimi;
mod lenient;
mod openclaw;
mod opencode;
mod openhands;
mod pi;
mod qwen;
mod scan;
mod skim;
mod vibe;
mod vscode_chat;

use std::collections::BTreeMap;
use std::io;
use std::os::fd::{AsFd as _, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use report_model::{
    Agent, FAILED_COMMANDS_MAX, FAILED_RUNS_MAX, FailedCommand, FailedRun, SessionEvent, TODOS_MAX,
    Todo, TodoStatus, Warning, plural,
};

use rustix::fs::FileType;

use crate::{Env, Error, SourceOutput};

/// Where the agents' logs are and which agents to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionsConfig {
    /// Claude Code configuration folders (each holding `projects/` and `history.jsonl`).
    /// `None`: `$CLAUDE_CONFIG_DIR` (a comma-separated list is allowed), else both
    /// `~/.claude` and `$XDG_CONFIG_HOME/claude` where they exist.
    pub claude_roots: Option<Vec<PathBuf>>,
    /// The Codex home folder. `None`: `$CODEX_HOME`, else `~/.codex`.
    pub codex_home: Option<PathBuf>,
    /// The Gemini CLI folder (the one holding `tmp/`). `None`: `$GEMINI_CLI_HOME/.gemini`,
    /// else `~/.gemini`.
    pub gemini_home: Option<PathBuf>,
    /// The folders of the other agents, where set in the config (`~` already expanded
    /// by the caller); an agent without one is looked for where it keeps its files,
    /// honouring its own environment variables (see each reader).
    pub homes: BTreeMap<Agent, PathBuf>,
    /// The agents to read; the others are neither read nor reported.
    pub agents: Vec<Agent>,
}

impl Default for SessionsConfig {
    fn default() -> Self {
        SessionsConfig {
            claude_roots: None,
            codex_home: None,
            gemini_home: None,
            homes: BTreeMap::new(),
            agents: Agent::ALL.to_vec(),
        }
    }
}

/// Reads the sessions of every enabled agent that have a record at or after `since`
/// (the start of the earliest report window).
///
/// Never fails: what cannot be read becomes a warning. Events come sorted by agent, then
/// session id.
pub fn read_sessions(
    env: &Env,
    config: &SessionsConfig,
    since: Timestamp,
) -> SourceOutput<SessionEvent> {
    let mut output = SourceOutput::default();
    let mut ctx = Ctx { since, warnings: Vec::new() };
    for agent in Agent::ALL {
        if !config.agents.contains(&agent) {
            continue;
        }
        let (drafts, status) = match agent {
            Agent::ClaudeCode => claude::read(env, config, &mut ctx),
            Agent::Codex => codex::read(env, config, &mut ctx),
            Agent::Gemini => gemini::read(env, config, &mut ctx),
            Agent::Copilot => copilot::read(env, config, &mut ctx),
            Agent::Opencode => opencode::read_as(env, config, &mut ctx, opencode::OPENCODE),
            Agent::Pi => pi::read(env, config, &mut ctx),
            Agent::Qwen => qwen::read(env, config, &mut ctx),
            Agent::Cursor => cursor::read(env, config, &mut ctx),
            Agent::Amp => amp::read(env, config, &mut ctx),
            Agent::Droid => droid::read(env, config, &mut ctx),
            Agent::Cline => merged(
                cline::read(env, config, &mut ctx),
                cline_tasks::read(env, config, &mut ctx, cline_tasks::CLINE),
            ),
            Agent::Kilo => merged(
                opencode::read_as(env, config, &mut ctx, opencode::KILO),
                cline_tasks::read(env, config, &mut ctx, cline_tasks::KILO),
            ),
            Agent::Roo => cline_tasks::read(env, config, &mut ctx, cline_tasks::ROO),
            Agent::VsCode => vscode_chat::read(env, config, &mut ctx),
            Agent::Goose => goose::read(env, config, &mut ctx),
            Agent::Gptme => gptme::read(env, config, &mut ctx),
            Agent::Kimi => kimi::read(env, config, &mut ctx),
            Agent::Vibe => vibe::read(env, config, &mut ctx),
            Agent::OpenHands => openhands::read(env, config, &mut ctx),
            Agent::Hermes => hermes::read(env, config, &mut ctx),
            Agent::OpenClaw => openclaw::read(env, config, &mut ctx),
            Agent::CommandCode => commandcode::read(env, config, &mut ctx),
            Agent::Continue => continue_dev::read(env, config, &mut ctx),
            // Read with the work trees it lives in (`read_aider`).
            Agent::Aider => continue,
        };
        output.events.extend(drafts.into_values().filter_map(Draft::into_event));
        output.statuses.push(status);
    }
    output.warnings = ctx.warnings;
    output
}

/// Remote hosts' VS Code user folders, below the home folder (VS Code Server's).
const REMOTE_USER_DIRS: [&str; 2] =
    [".vscode-server/data/User", ".vscode-server-insiders/data/User"];

/// The user folders of `editors` (VS Code and its forks, by their folder names), in
/// that order, then a remote host's: where extensions keep their global storage and VS
/// Code its chats. `$XDG_CONFIG_HOME/<editor>/User`, or `~/Library/Application
/// Support/<editor>/User` on macOS.
fn editor_user_dirs(env: &Env, editors: &[&str]) -> Vec<PathBuf> {
    editors
        .iter()
        .map(|editor| {
            if cfg!(target_os = "macos") {
                env.home.join("Library/Application Support").join(editor).join("User")
            } else {
                env.config_home().join(editor).join("User")
            }
        })
        .chain(REMOTE_USER_DIRS.iter().map(|dir| env.home.join(dir)))
        .collect()
}

/// Lists a sessions folder for [`list_fresh`]; a folder that cannot be listed, or stops
/// part way, is a warning (and what was read is kept).
fn list_fresh_warned(ctx: &mut Ctx, folder: &Path) -> Fresh {
    let mut listed = list_fresh(folder, ctx.since).unwrap_or_else(|error| {
        ctx.fail(error);
        Fresh::default()
    });
    if let Some(error) = listed.broken.take() {
        ctx.fail(error);
    }
    listed
}

/// One agent's sessions read from two stores (Cline's CLI and its editor extension's
/// tasks): the sessions of both, one status naming both.
fn merged(
    (mut drafts, mut status): (Drafts, crate::SourceStatus),
    (more, other): (Drafts, crate::SourceStatus),
) -> (Drafts, crate::SourceStatus) {
    for draft in more.into_values() {
        add_draft(&mut drafts, draft);
    }
    status.found |= other.found;
    status.locations.extend(other.locations);
    status.files += other.files;
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(other.limits);
    status.notes.extend(other.notes);
    for version in &other.versions {
        status.note_version(version);
    }
    for unknown in &other.unknown {
        status.note_unknown(unknown);
    }
    (drafts, status)
}

/// Reads Aider's histories (`.aider.input.history`, kept at the root of the work tree
/// Aider ran in) in the given work trees, for the sessions with a record at or after
/// `since`. Never fails: what cannot be read becomes a warning.
pub fn read_aider(
    env: &Env,
    config: &SessionsConfig,
    work_trees: &[PathBuf],
    since: Timestamp,
) -> SourceOutput<SessionEvent> {
    let mut output = SourceOutput::default();
    if !config.agents.contains(&Agent::Aider) {
        return output;
    }
    let mut ctx = Ctx { since, warnings: Vec::new() };
    let (drafts, status) = aider::read(env, config, work_trees, &mut ctx);
    output.events.extend(drafts.into_values().filter_map(Draft::into_event));
    output.statuses.push(status);
    output.warnings = ctx.warnings;
    output
}

/// The folder of `agent`: the config's, else `default` (the agent's own rule: its
/// environment variable, else its usual place below the home folder).
fn agent_home(
    env: &Env,
    config: &SessionsConfig,
    agent: Agent,
    default: impl FnOnce() -> PathBuf,
) -> PathBuf {
    config.homes.get(&agent).map_or_else(default, |home| config_path(env, home))
}

/// The newest version of each agent whose files were recorded under
/// `fixtures/agents/<agent>/<version>/` (a test keeps this table equal to that folder):
/// files written by a newer version may be in a format the readers were not checked on.
const RECORDED: &[(Agent, &str)] = &[
    (Agent::ClaudeCode, "2.1.332"),
    (Agent::Codex, "0.171.0"),
    (Agent::Gemini, "0.61.0"),
    (Agent::Copilot, "1.0.102"),
    (Agent::Opencode, "1.18.33"),
    (Agent::Pi, "0.73.1"),
    (Agent::Qwen, "0.24.4"),
    (Agent::Cline, "3.0.65"),
    (Agent::Kilo, "7.7.7"),
    (Agent::Continue, "1.5.47"),
    (Agent::Aider, "0.86.2"),
    (Agent::Goose, "1.52.0"),
    (Agent::Gptme, "0.35.1"),
    (Agent::Kimi, "2.1.0"),
    (Agent::Vibe, "3.0.3"),
    (Agent::OpenHands, "1.16.0"),
    (Agent::Hermes, "0.19.0"),
    (Agent::Droid, "0.225.2"),
    (Agent::OpenClaw, "2026.9.6"),
    (Agent::CommandCode, "1.64.0"),
];

/// The newest version of `agent` with recorded fixtures, if any.
pub fn newest_recorded(agent: Agent) -> Option<&'static str> {
    RECORDED.iter().find(|(known, _)| *known == agent).map(|(_, version)| *version)
}

/// Whether dotted version `a` is newer than `b`, comparing numbers part by part (a part
/// that is not a number compares as text; `1.2.3-beta` counts as `1.2.3`).
pub fn version_newer(a: &str, b: &str) -> bool {
    let parts = |version: &str| -> Vec<(u64, String)> {
        let core = version.trim_start_matches('v').split(['-', '+']).next().unwrap_or("");
        core.split('.').map(|part| (part.parse::<u64>().unwrap_or(0), part.to_owned())).collect()
    };
    parts(a) > parts(b)
}

/// What every reader shares: the lower bound and the warnings so far.
pub(crate) struct Ctx {
    since: Timestamp,
    warnings: Vec<Warning>,
}

impl Ctx {
    /// Records the warning for an error; a missing file is silent.
    fn fail(&mut self, error: Error) {
        if !error.is_not_found() {
            self.warnings.push(Warning::from(error));
        }
    }

    /// An agent's database at `path` (`folder`: where the agent keeps it): counted in
    /// `status` when it is there (one more, for an agent with one per agent of its own),
    /// and read with `query` when it or its write-ahead log changed in the window
    /// (through [`crate::sqlite::read`]); one that cannot be read is a warning naming it.
    /// `None` when absent, unchanged or unreadable.
    fn read_database<T>(
        &mut self,
        status: &mut crate::SourceStatus,
        (path, folder): (&Path, &Path),
        query: impl Fn(&rusqlite::Connection) -> Result<T, crate::sqlite::Failure>,
    ) -> Option<T> {
        if !path.exists() {
            status.found |= folder.is_dir();
            return None;
        }
        status.found = true;
        status.files += 1;
        let mut wal = path.as_os_str().to_owned();
        wal.push("-wal");
        if !(self.modified_since(path) || self.modified_since(Path::new(&wal))) {
            return None;
        }
        match crate::sqlite::read(path, query) {
            crate::sqlite::Outcome::Missing => None,
            crate::sqlite::Outcome::Unreadable(error) => {
                self.fail(error);
                None
            }
            crate::sqlite::Outcome::Read(read) => Some(read),
        }
    }

    /// Records a `source_unreadable` warning for `path`.
    fn unreadable(&mut self, path: &Path, error: io::Error) {
        self.fail(Error::io(path, error));
    }

    /// The sorted entries of a folder; empty when it does not exist, and a warning when
    /// it exists but cannot be listed.
    fn list_dir(&mut self, path: &Path) -> Vec<PathBuf> {
        self.list_dir_typed(path).into_iter().map(|(path, _)| path).collect()
    }

    /// The entries of a folder with their types (from the directory listing, so no
    /// `stat` per entry), sorted; a missing folder is empty. A folder that cannot be
    /// listed, or stops part way, is a warning naming it (what was listed is kept).
    fn list_dir_typed(&mut self, path: &Path) -> Vec<(PathBuf, crate::listing::Kind)> {
        let listing = match crate::listing::list(path) {
            Ok(listing) => listing,
            Err(error) if crate::listing::is_missing(&error) => return Vec::new(),
            Err(error) => {
                self.unreadable(path, error);
                return Vec::new();
            }
        };
        let mut listed: Vec<(PathBuf, crate::listing::Kind)> =
            listing.entries.iter().map(|entry| (entry.path_in(path), entry.kind)).collect();
        sort_by_name(&mut listed);
        if let Some(error) = listing.stopped {
            self.unreadable(path, error);
        }
        listed
    }

    /// `None` when nothing can be found at `path` (as [`Path::exists`] says), else whether
    /// it was modified at or after `since`: one `stat` for both questions, for readers
    /// that count a session's file and then read it only when fresh. A file whose time
    /// cannot be read counts as fresh.
    fn freshness(&self, path: &Path) -> Option<bool> {
        let metadata = fs_err::metadata(path).ok()?;
        let modified = metadata.modified().ok().and_then(|time| Timestamp::try_from(time).ok());
        Some(modified.is_none_or(|modified| modified >= self.since))
    }

    /// Whether a file was modified at or after `since`, so that it may hold records in
    /// the window. A file whose time cannot be read is opened anyway.
    fn modified_since(&mut self, path: &Path) -> bool {
        match fs_err::metadata(path) {
            Ok(metadata) => {
                match metadata.modified().ok().and_then(|time| Timestamp::try_from(time).ok()) {
                    Some(modified) => modified >= self.since,
                    None => true,
                }
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => false,
            Err(error) => {
                self.unreadable(path, error);
                false
            }
        }
    }
}

/// The entries of a folder with their types and whether each was modified at or after
/// `since`, sorted by name; a missing folder is empty. The folder is opened once and
/// each time comes from a `stat` relative to it (`fstatat`, a link followed), so long
/// paths are not walked again per file; the types come from the listing. Needs no
/// [`Ctx`], so folders can be listed on the pool.
fn list_fresh(path: &Path, since: Timestamp) -> Result<Fresh, Error> {
    list_fresh_at(rustix::fs::CWD, path, path, since)
}

/// [`list_fresh`] of the folder at `relative` below the open folder `base`; `path` is
/// its whole path, for the errors. Opening it by one name instead of a whole path
/// spares the kernel the walk down to it.
fn list_fresh_at(
    base: BorrowedFd<'_>,
    relative: &Path,
    path: &Path,
    since: Timestamp,
) -> Result<Fresh, Error> {
    use rustix::fs::AtFlags;
    let Some(dir) = open_dir(base, relative, path)? else { return Ok(Fresh::default()) };
    // Room for the names of a folder of a dozen transcripts without growing.
    let mut listed =
        Fresh { names: Vec::with_capacity(512), entries: Vec::with_capacity(8), broken: None };
    let read = crate::listing::for_each_entry(dir.as_fd(), |folder, name, kind| {
        // A file whose time cannot be read is opened anyway; a link is followed.
        let flags =
            if kind == FileType::Symlink { AtFlags::empty() } else { AtFlags::SYMLINK_NOFOLLOW };
        let stat = rustix::fs::statat(folder, name, flags).ok();
        let modified = stat.as_ref().map(crate::fsread::stat_modified);
        let size = stat.map_or(0, |stat| u64::try_from(stat.st_size).unwrap_or(0));
        let from = listed.names.len();
        listed.names.extend_from_slice(name.to_bytes());
        listed.entries.push((from, listed.names.len(), kind, fresh_time(modified, since), size));
    });
    // What was listed before a failure is kept; the failure is named.
    if let Err(error) = read {
        listed.broken = Some(Error::io(path, error.into()));
    }
    let names = &listed.names;
    listed.entries.sort_by(|a, b| names[a.0..a.1].cmp(&names[b.0..b.1]));
    Ok(listed)
}

/// Whether a listed entry of `kind` at `path` is a folder: a real one, or a symbolic
/// link to one (followed, as `Path::is_dir` would). A plain entry needs no `stat`.
fn is_folder(kind: FileType, path: impl FnOnce() -> PathBuf) -> bool {
    kind == FileType::Directory || (kind == FileType::Symlink && path().is_dir())
}

/// What [`list_fresh`] found: each entry's name, type and whether it was modified since
/// the bound, in name order. The names share one buffer, so an entry costs no allocation
/// of its own: a folder of transcripts is mostly old files, which only their names are
/// needed of.
#[derive(Debug, Default)]
struct Fresh {
    names: Vec<u8>,
    /// Where each name is in `names`, its type, whether it is fresh, its size in bytes
    /// (0 when its `stat` failed).
    entries: Vec<(usize, usize, FileType, bool, u64)>,
    /// Why the listing stopped part way, if it did (the entries before are kept).
    broken: Option<Error>,
}

impl Fresh {
    /// How many entries were listed.
    fn len(&self) -> usize {
        self.entries.len()
    }

    /// The entries in name order: name, type, whether fresh.
    fn iter(&self) -> impl Iterator<Item = (&std::ffi::OsStr, FileType, bool)> {
        self.sized().map(|(name, kind, fresh, _)| (name, kind, fresh))
    }

    /// The entries in name order: name, type, whether fresh, size in bytes.
    fn sized(&self) -> impl Iterator<Item = (&std::ffi::OsStr, FileType, bool, u64)> {
        self.entries.iter().map(|&(start, end, kind, fresh, size)| {
            (std::ffi::OsStr::from_bytes(&self.names[start..end]), kind, fresh, size)
        })
    }
}

/// A folder kept open, and its entries with their types, sorted.
type OpenListing = (OwnedFd, Vec<(PathBuf, FileType)>);

/// The folder at `path`, open and listed: its entries with their types (no `stat` where
/// the listing gives the type), sorted, and the open folder, for reaching what is below
/// it by name ([`list_fresh_at`]). `None` when it does not exist.
fn open_listed(path: &Path) -> Result<Option<OpenListing>, Error> {
    let Some(dir) = open_dir(rustix::fs::CWD, path, path)? else { return Ok(None) };
    let mut listed = Vec::new();
    crate::listing::for_each_entry(dir.as_fd(), |_, name, kind| {
        listed.push((path.join(std::ffi::OsStr::from_bytes(name.to_bytes())), kind));
    })
    .map_err(|error| Error::io(path, error.into()))?;
    sort_by_name(&mut listed);
    Ok(Some((dir, listed)))
}

/// The folder at `relative` below `base`, open for listing; `None` when it does not
/// exist (or is not a folder). `path` names it in the error.
fn open_dir(base: BorrowedFd<'_>, relative: &Path, path: &Path) -> Result<Option<OwnedFd>, Error> {
    match crate::listing::open_at(base, relative) {
        Ok(fd) => Ok(Some(fd)),
        Err(error) if crate::listing::is_missing(&error) => Ok(None),
        Err(error) => Err(Error::io(path, error)),
    }
}

/// Sorts the entries of one folder by path. They share the folder, so their names (as
/// bytes) sort them as their paths would, and so do their whole paths as bytes: the
/// same prefix, then the name, which holds no `/`. Comparing paths goes component by
/// component, and even taking each one's file name parses it from the end: about a
/// millisecond on a folder of 700 entries, against a few dozen microseconds for bytes.
fn sort_by_name<T>(listed: &mut [(PathBuf, T)]) {
    listed.sort_by(|a, b| by_name(&a.0, &b.0));
}

/// The order of two entries of one folder by name: their paths' bytes ([`sort_by_name`]).
fn by_name(a: &Path, b: &Path) -> std::cmp::Ordering {
    a.as_os_str().as_bytes().cmp(b.as_os_str().as_bytes())
}

/// Whether a modification time is at or after `since`; an unknown time counts as fresh.
fn fresh_time(modified: Option<std::time::SystemTime>, since: Timestamp) -> bool {
    modified
        .and_then(|time| Timestamp::try_from(time).ok())
        .is_none_or(|modified| modified >= since)
}

/// One session being assembled from its records.
#[derive(Debug, Clone)]
pub(crate) struct Draft {
    agent: Agent,
    session_id: String,
    cwd: Option<PathBuf>,
    /// The agent's own title, already chosen by the reader's precedence rules.
    title: Option<String>,
    /// The earliest user prompt with text, for the fallback title.
    first_prompt: Option<(Timestamp, String)>,
    prompts: Vec<Timestamp>,
    activity: Vec<Timestamp>,
    /// The git branch the agent recorded (the last one seen).
    branch: Option<String>,
    /// The models the session used, each once, in the order first seen.
    models: Vec<String>,
    /// The newest to-do list the session wrote, with its time.
    todos: Option<(Timestamp, Vec<Todo>)>,
    /// The latest time the person interrupted the agent.
    interrupted: Option<Timestamp>,
    /// The latest prompt, whenever it was (a prompt after an interruption resumes).
    last_prompt: Option<Timestamp>,
    /// The main chain's shell-tool runs: time, command line (blanks collapsed, bounded),
    /// exit status.
    commands: Vec<ShellRun>,
}

impl Draft {
    fn new(agent: Agent, session_id: &str) -> Draft {
        Draft {
            agent,
            session_id: session_id.to_owned(),
            cwd: None,
            title: None,
            first_prompt: None,
            prompts: Vec::new(),
            activity: Vec::new(),
            branch: None,
            models: Vec::new(),
            todos: None,
            interrupted: None,
            last_prompt: None,
            commands: Vec::new(),
        }
    }

    /// Notes a run of a shell command through the agent's shell tool (main chain only)
    /// and its exit status.
    pub(crate) fn note_command(&mut self, time: Timestamp, command: &str, exit: i64) {
        let command = command.split_whitespace().collect::<Vec<_>>().join(" ");
        if command.is_empty() {
            return;
        }
        let command = if command.chars().count() > RAW_COMMAND_MAX_CHARS {
            command.chars().take(RAW_COMMAND_MAX_CHARS).collect()
        } else {
            command
        };
        self.commands.push((time, command, exit));
    }

    /// Notes that the person interrupted the agent at `time`.
    pub(crate) fn note_interrupt(&mut self, time: Timestamp) {
        self.interrupted = self.interrupted.max(Some(time));
    }

    /// Notes a to-do list the session wrote at `time`: the newest one is kept (of two at
    /// the same time, the one noted last, as it comes later in the log).
    fn note_todos(&mut self, time: Timestamp, todos: Vec<Todo>) {
        if self.todos.as_ref().is_none_or(|(newest, _)| time >= *newest) {
            self.todos = Some((time, todos));
        }
    }

    /// Notes a model the session used (kept once, in the order first seen). Model ids
    /// are short plain names (`claude-opus-4-5-20251101`, `gpt-5-codex`); anything else
    /// in that field is not kept, so it needs no cleaning downstream.
    fn note_model(&mut self, model: &str) {
        if crate::plain_name(model) && !self.models.iter().any(|known| known == model) {
            self.models.push(model.to_owned());
        }
    }

    /// Keeps the earliest prompt text as the fallback title.
    fn note_prompt_text(&mut self, time: Timestamp, text: &str) {
        self.last_prompt = self.last_prompt.max(Some(time));
        if text.is_empty() {
            return;
        }
        if self.first_prompt.as_ref().is_none_or(|(first, _)| time < *first) {
            self.first_prompt = Some((time, text.to_owned()));
        }
    }

    /// Folds another draft of the same session (another root, another file) into this one.
    fn merge(&mut self, other: Draft) {
        if self.cwd.is_none() {
            self.cwd = other.cwd;
        }
        if self.title.is_none() {
            self.title = other.title;
        }
        if self.branch.is_none() {
            self.branch = other.branch;
        }
        if let Some((time, text)) = other.first_prompt {
            self.note_prompt_text(time, &text);
        }
        self.prompts.extend(other.prompts);
        self.activity.extend(other.activity);
        for model in &other.models {
            self.note_model(model);
        }
        if let Some((time, todos)) = other.todos {
            self.note_todos(time, todos);
        }
        self.interrupted = self.interrupted.max(other.interrupted);
        self.last_prompt = self.last_prompt.max(other.last_prompt);
        self.commands.extend(other.commands);
    }

    /// The event, or `None` when the session has no record in the window.
    fn into_event(mut self) -> Option<SessionEvent> {
        self.activity.sort_unstable();
        self.activity.dedup();
        if self.activity.is_empty() {
            return None;
        }
        self.prompts.sort_unstable();
        self.prompts.dedup();
        let raw_title = self.title.or(self.first_prompt.map(|(_, text)| text)).unwrap_or_default();
        // Whitespace is collapsed here, but the title is shortened only after redaction
        // (`shorten_title`, called by the pipeline), so a secret is never cut in half
        // before it is masked. The bound only keeps a pasted log from filling memory.
        let collapsed = raw_title.split_whitespace().collect::<Vec<_>>().join(" ");
        let truncated = collapsed.chars().count() > RAW_TITLE_MAX_CHARS;
        let title = if truncated {
            collapsed.chars().take(RAW_TITLE_MAX_CHARS).collect()
        } else {
            collapsed
        };
        let failed_commands = failed_commands(std::mem::take(&mut self.commands));
        let (todos_time, todos) = match self.todos {
            Some((time, todos)) => (Some(time), todos),
            None => (None, Vec::new()),
        };
        Some(SessionEvent {
            agent: self.agent,
            session_id: self.session_id,
            title,
            truncated,
            cwd: self.cwd,
            project: None,
            prompts: self.prompts,
            activity: self.activity,
            branch: self.branch.filter(|branch| !branch.is_empty()),
            models: self.models,
            todos,
            todos_time,
            // Resumed when a prompt came after it.
            interrupted: self
                .interrupted
                .filter(|interrupted| self.last_prompt.is_none_or(|prompt| prompt < *interrupted)),
            failed_commands,
        })
    }
}

/// One run of a shell command through an agent's shell tool: when, the command line, its
/// exit status.
pub(crate) type ShellRun = (Timestamp, String, i64);

/// The longest command line a reader keeps before redaction (a bound on memory; the
/// command is shortened after redaction).
pub const RAW_COMMAND_MAX_CHARS: usize = 4_096;

/// The commands whose last runs failed with no passing run after, from a session's runs:
/// per command line, the failed runs since its last passing run (status 0), the latest
/// [`FAILED_RUNS_MAX`], in order of their last failure, the latest
/// [`FAILED_COMMANDS_MAX`] commands; `last` marks the one whose failure was the session's
/// last run.
fn failed_commands(mut runs: Vec<ShellRun>) -> Vec<FailedCommand> {
    // In time order; at the same instant the log's order (the sort is stable).
    runs.sort_by_key(|run| run.0);
    let last_run = runs.last().map(|(time, command, _)| (*time, command.clone()));
    let mut open: Vec<FailedCommand> = Vec::new();
    for (time, command, exit) in runs {
        let at = open.iter().position(|failed| failed.command == command);
        if exit == 0 {
            if let Some(at) = at {
                open.remove(at);
            }
            continue;
        }
        let mut failed = match at {
            Some(at) => open.remove(at),
            None => FailedCommand { command, runs: Vec::new(), last: false },
        };
        if failed.runs.len() >= FAILED_RUNS_MAX {
            failed.runs.remove(0);
        }
        failed.runs.push(FailedRun { time, exit });
        open.push(failed);
    }
    if let (Some((time, command)), Some(newest)) = (last_run, open.last_mut()) {
        newest.last =
            newest.command == command && newest.runs.last().is_some_and(|run| run.time == time);
    }
    let excess = open.len().saturating_sub(FAILED_COMMANDS_MAX);
    open.drain(..excess);
    open
}

/// Sessions of one agent, by id.
pub(crate) type Drafts = BTreeMap<String, Draft>;

/// The draft for a session id, created on first use.
fn draft<'d>(drafts: &'d mut Drafts, agent: Agent, session_id: &str) -> &'d mut Draft {
    if !drafts.contains_key(session_id) {
        drafts.insert(session_id.to_owned(), Draft::new(agent, session_id));
    }
    // The key was inserted just above when missing.
    drafts.get_mut(session_id).expect("draft inserted above")
}

/// Adds a draft, merging it with an existing one of the same id.
fn add_draft(drafts: &mut Drafts, new: Draft) {
    match drafts.get_mut(&new.session_id) {
        Some(existing) => existing.merge(new),
        None => {
            drafts.insert(new.session_id.clone(), new);
        }
    }
}

/// The longest to-do item text a reader keeps before redaction (like
/// [`RAW_TITLE_MAX_CHARS`], a bound on memory; the item is shortened after redaction).
pub const RAW_TODO_MAX_CHARS: usize = 4_096;

/// One item of a to-do list as an agent wrote it: its text and status words.
#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct RawTodo<'a> {
    /// Claude Code's and opencode's `content`.
    #[serde(borrow)]
    content: lenient::LStr<'a>,
    /// Codex's `step`.
    #[serde(borrow)]
    step: lenient::LStr<'a>,
    /// Gemini CLI's `description`.
    #[serde(borrow)]
    description: lenient::LStr<'a>,
    /// Kimi Code's `title`.
    #[serde(borrow)]
    title: lenient::LStr<'a>,
    #[serde(borrow)]
    status: lenient::LStr<'a>,
}

/// A to-do list from the JSON array an agent's tool call wrote (`todos` of Claude Code's
/// `TodoWrite`, Gemini CLI's `write_todos` and opencode's `todowrite`, `plan` of Codex's
/// `update_plan`): items with a text and a known status,
/// in order, at most [`TODOS_MAX`], each text bounded. `None` when the value is not an
/// array (a call the reader cannot read is no list, not an empty one).
fn todo_list(items: &serde_json::value::RawValue) -> Option<Vec<Todo>> {
    let raw: Vec<&serde_json::value::RawValue> = serde_json::from_str(items.get()).ok()?;
    let mut todos = Vec::new();
    for item in raw {
        if todos.len() >= TODOS_MAX {
            break;
        }
        let Ok(item) = serde_json::from_str::<RawTodo>(item.get()) else { continue };
        let text =
            item.content.get().or(item.step.get()).or(item.description.get()).or(item.title.get());
        let (Some(text), Some(status)) = (text, item.status.get().and_then(TodoStatus::parse))
        else {
            continue;
        };
        todos.extend(todo_item(text, status));
    }
    Some(todos)
}

/// One to-do item, its text's whitespace collapsed and its length bounded by
/// [`RAW_TODO_MAX_CHARS`]; none when it has no text.
fn todo_item(text: &str, status: TodoStatus) -> Option<Todo> {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        return None;
    }
    let text = if text.chars().count() > RAW_TODO_MAX_CHARS {
        text.chars().take(RAW_TODO_MAX_CHARS).collect()
    } else {
        text
    };
    Some(Todo { text, status })
}

/// Titles longer than this are shortened at a word boundary, `…` included.
pub const TITLE_MAX_CHARS: usize = 80;

/// The longest title text a reader keeps before redaction (a bound on memory, far above
/// any secret's length).
pub const RAW_TITLE_MAX_CHARS: usize = 16_384;

/// Collapses whitespace to single spaces and shortens to [`TITLE_MAX_CHARS`] characters,
/// cutting at a word boundary when there is one in the second half, with `…`.
/// Returns the title and whether it was shortened. Call it after redaction.
pub fn shorten_title(raw: &str) -> (String, bool) {
    let collapsed = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= TITLE_MAX_CHARS {
        return (collapsed, false);
    }
    let keep = TITLE_MAX_CHARS - 1;
    let end = collapsed.char_indices().nth(keep).map_or(collapsed.len(), |(index, _)| index);
    let head = &collapsed[..end];
    let cut = if collapsed[end..].starts_with(' ') {
        head
    } else {
        match head.rfind(' ') {
            Some(space) if space >= head.len() / 2 => &head[..space],
            _ => head,
        }
    };
    (format!("{}…", cut.trim_end()), true)
}

/// The items of a Markdown task list (`- [ ] text`, `- [x] text`, `*` or `+` bullets), as
/// Continue's `Checklist` and Cline's focus chain write it; `None` when it has none.
fn markdown_todos(text: &str) -> Option<Vec<Todo>> {
    let mut todos = Vec::new();
    for line in text.lines() {
        if todos.len() >= TODOS_MAX {
            break;
        }
        let line = line.trim_start();
        let Some(rest) = line.strip_prefix(['-', '*', '+']) else { continue };
        let rest = rest.trim_start();
        let (status, item) = if let Some(item) = rest.strip_prefix("[ ]") {
            (TodoStatus::Pending, item)
        } else if let Some(item) = rest.strip_prefix("[x]").or_else(|| rest.strip_prefix("[X]")) {
            (TodoStatus::Completed, item)
        } else {
            continue;
        };
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let text = item.chars().take(RAW_TODO_MAX_CHARS).collect();
        todos.push(Todo { text, status });
    }
    (!todos.is_empty()).then_some(todos)
}

/// A path from a configuration value or an environment variable, `~/` expanded.
fn config_path(env: &Env, value: &Path) -> PathBuf {
    env.expand_tilde(value)
}

/// The paths in order, without repeats (the first of equal paths kept; equal as
/// `Path`s are, component by component). Aider's reader passes every repository
/// found, hundreds on a busy machine: a set, not a scan of those kept so far.
fn dedup_paths(paths: Vec<PathBuf>) -> Vec<PathBuf> {
    let first: Vec<bool> = {
        let mut seen = std::collections::HashSet::with_capacity(paths.len());
        paths.iter().map(|path| seen.insert(path.as_path())).collect()
    };
    paths.into_iter().zip(first).filter_map(|(path, first)| first.then_some(path)).collect()
}

/// Whether a path names a regular file with this extension.
fn has_extension(path: &Path, extension: &str) -> bool {
    path.extension().is_some_and(|found| found == extension)
}

/// The stem of a file name (not a path) that ends in `.jsonl`, as [`file_stem`] would
/// give it where [`has_extension`] says `jsonl` (a name that is only `.jsonl` has no
/// extension); told from the bytes, without taking a path apart.
fn jsonl_stem(name: &Path) -> Option<String> {
    let bytes = name.as_os_str().as_bytes();
    let stem = bytes.strip_suffix(b".jsonl").filter(|stem| !stem.is_empty())?;
    Some(String::from_utf8_lossy(stem).into_owned())
}

/// The file name without its extension; bytes that are not UTF-8 are replaced, so a
/// file with such a name is still read (its records usually name their session).
fn file_stem(path: &Path) -> Option<String> {
    path.file_stem().map(|stem| stem.to_string_lossy().into_owned())
}

/// The file name, bytes that are not UTF-8 replaced.
fn file_name(path: &Path) -> Option<String> {
    path.file_name().map(|name| name.to_string_lossy().into_owned())
}

/// The bytes of the file an agent keeps beside a transcript `<id>.jsonl`,
/// `<id>.<suffix>` (Droid's `settings.json`, Command Code's `meta.json`); a missing file
/// is silent, one that cannot be read a warning (`ctx.fail`).
fn side_file(ctx: &mut Ctx, transcript: &Path, suffix: &str) -> Option<Vec<u8>> {
    let name = file_name(transcript)?;
    let side = transcript.with_file_name(format!("{}.{suffix}", name.strip_suffix(".jsonl")?));
    match crate::fsread::read_small(&side, crate::fsread::CONFIG_FILE_MAX) {
        Ok(bytes) => Some(bytes),
        Err(error) => {
            ctx.fail(error);
            None
        }
    }
}

/// Whether the file name starts with `prefix` (compared as bytes, so a name that is not
/// UTF-8 still matches).
fn name_starts_with(path: &Path, prefix: &str) -> bool {
    path.file_name().is_some_and(|name| name.as_encoded_bytes().starts_with(prefix.as_bytes()))
}

/// Reports the rows of the database at `path` skipped because a time column held no
/// time: its one `unreadable_times` warning, and their count among `status`'s limits.
fn report_bad_rows(
    ctx: &mut Ctx,
    status: &mut crate::SourceStatus,
    path: &Path,
    times: jsonl::BadTimes,
) {
    let mut skipped = jsonl::Stats::default();
    times.report(ctx, &mut skipped, path);
    status.limits.extend(malformed_limit(&skipped));
}

/// A status sentence about malformed lines, when there were any.
fn malformed_limit(stats: &jsonl::Stats) -> Option<String> {
    (stats.malformed_lines > 0).then(|| {
        let lines = plural(stats.malformed_lines, "malformed line", "malformed lines");
        let files = plural(stats.malformed_files, "file", "files");
        format!("{lines} skipped in {files}")
    })
}

#[cfg(test)]
mod tests;
