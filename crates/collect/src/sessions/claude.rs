//! Claude Code: `<root>/projects/<encoded-cwd>/<session-id>.jsonl` transcripts, their
//! `<session-id>/subagents/*.jsonl` sub-agent logs, and `<root>/history.jsonl`.
//!
//! - A record belongs to the session named by its `sessionId` (else the file's name);
//!   a sub-agent log belongs to the session its folder is named after. Sub-agent and
//!   other side-chain records are activity of that session, never prompts.
//! - The working directory comes from the records' `cwd` (the last one a main-chain
//!   record names), never from the folder name, which is lossy. On Windows Claude Code
//!   writes the drive letter in either case within one session (`c:\` then `C:\`): it
//!   is taken in upper case, so one folder is one working directory and one project.
//! - Title: the last `custom-title`, else the last `ai-title`, else a legacy `summary`
//!   (matched to its session through `leafUuid`, possibly in another file of the same
//!   folder), else the first user prompt.
//! - A user prompt is a `user` record that is not meta, not a compaction summary, not a
//!   side chain, not a tool result, and whose text does not start with a command
//!   wrapper (`<command-`, `<local-command-`, `<bash-`, `<task-notification`) or the
//!   `[Request interrupted by user` marker, nor a compaction summary written without
//!   the flag (`This session is being continued from a previous conversation`). Its
//!   text is what the person typed: the blocks the IDE extensions and hooks inject
//!   (`<ide_opened_file>`, `<ide_selection>`, `<ide_diagnostics>`, `<system-reminder>`)
//!   are removed first, and a record with nothing left is not a prompt.
//! - Models: the `message.model` of main-chain `assistant` records (found by a byte
//!   scan of the raw message, never parsed; `<synthetic>` is Claude Code's own stand-in
//!   and is left out), each once, in the order first used.
//! - To-do list: the newest `TodoWrite` call of a main-chain assistant record (a
//!   `tool_use` block whose `input.todos[]` hold `content` and `status`: `pending`,
//!   `in_progress`, `completed`), found by a byte scan of the raw message, which is
//!   decoded only then. The task tools of newer versions (`TaskCreate`, `TaskUpdate`),
//!   which change one task at a time, keep the list in files beside the transcripts,
//!   read by [`super::claude_tasks`]; the newer of the two is the session's list.
//! - Failed commands: a main-chain assistant record's `tool_use` block named `Bash`
//!   (`id`, `input.command`) and the `tool_result` block of a later main-chain user
//!   record with that `tool_use_id`: without `is_error` the command passed (status 0);
//!   with `is_error: true` and a text starting `Exit code N` (the content is a string,
//!   or a list of `text` parts) it exited with N; other errors (a denied permission, an
//!   interruption) tell no status and are not counted. The record's `toolUseResult`
//!   says the same (`"Error: Exit code 3\n…"` as a string, an object with `stdout`,
//!   `stderr`, `interrupted` on success) and is not read. Verified in
//!   `fixtures/agents/claude/2.1.197/` (the third session runs `sh check.sh`, exit 3).
//! - A session whose records are all command echoes and meta records (a `/clear`, which
//!   starts a new session with `<command-name>/clear</command-name>` and its empty
//!   `<local-command-stdout>`, and nothing after it) has no prompt, reply, tool result
//!   or side chain, and is no session. A transcript holding only a `teleported-from`
//!   record (a session moved from the web, 113 bytes, no `sessionId`) is no session
//!   either, and no warning.
//! - Versions: the records' `version` (the Claude Code that wrote them) goes to the
//!   status; record types other than those known (`user`, `assistant`, `system`,
//!   `attachment`, `progress`, `summary`, titles, snapshots, queue and mode records…,
//!   from published analyses of real transcripts of 2.0.55 to 2.1.278 and the
//!   recordings of 2.1.197 and 2.1.332 in `fixtures/agents/claude/`) are noted as
//!   unknown.
//! - A fork (`--resume`/`--continue` with `--fork-session`) is a new transcript holding
//!   copies of the other session's records, uuids and times kept, under the fork's own
//!   `sessionId`; the copied replies name the other session in `requestSessionId`
//!   (recorded from 2.1.332 in `fixtures/claude-fork/2.1.332/`). A record of a fork whose
//!   uuid is among the main-chain records read for that other session is a copy, counted
//!   there: only a copied prompt's text is used (for the fork's title). Older versions
//!   mark no copy (2.1.197, recorded in `fixtures/claude-fork/2.1.197/`): there the fork's
//!   transcript opens with lines of its own run (`queue-operation`) and the copies follow,
//!   dated before them, so a session whose transcript holds a main-chain record dated
//!   before the transcript's first timestamped line, with the uuid of another session's
//!   main-chain record not so dated in its own, is taken for a fork of that session.
//! - `history.jsonl` outlives the transcripts (deleted after `cleanupPeriodDays`, 30 by
//!   default): its entries whose session has no transcript become sessions of their own
//!   (one per `sessionId`, or per project and UTC day for old entries without one), with
//!   prompt counts only. Its `pastedContents` are never read.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::num::NonZeroUsize;
use std::os::fd::{AsFd as _, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};

use foldhash::fast::FixedState;
use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use report_model::{Agent, Todo, Warning};
use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

use super::jsonl::{self, LineError, Stats};
use super::lenient::{
    LBool, LMillis, LNum, LStr, NotATime, ResultBlock, Results, StrippingWithResults, Text,
};
use super::skim;
use super::{Ctx, Drafts, SessionsConfig, config_path, dedup_paths, draft, has_extension};
use crate::{Env, SourceStatus, fsread};
use report_model::plural;

/// The maps and sets looked up once per record or per line (session ids, record uuids):
/// foldhash with a fixed seed, several times faster than std's SipHash on these short
/// keys (it is already built for gix). Never iterated where the order could show.
type FastMap<K, V> = HashMap<K, V, FixedState>;
type FastSet<T> = HashSet<T, FixedState>;

/// Claude Code's default transcript retention, in days.
const DEFAULT_CLEANUP_DAYS: i64 = 30;

/// How Claude Code's marker of an interruption by the person starts (`[Request
/// interrupted by user]`, `… for tool use]`).
const INTERRUPTED: &str = "[Request interrupted by user";

/// Text starts that mark a user record as a wrapper Claude Code wrote, not a prompt.
const NOT_PROMPT_PREFIXES: &[&str] = &[
    "<command-",
    "<local-command-",
    "<bash-",
    "<task-notification",
    INTERRUPTED,
    // A compaction summary written as a user record without `isCompactSummary` (older
    // versions, and sessions continued with `--continue` after the context ran out).
    "This session is being continued from a previous conversation",
];

/// The record types Claude Code writes that the reader knows (it uses some and skips the
/// others); any other is noted for `doctor` as a sign of a newer format. Seen in real
/// transcripts of 1.0 to 2.1.278.
const KNOWN_TYPES: &[&str] = &[
    "user",
    "assistant",
    "system",
    "attachment",
    "progress",
    "summary",
    "custom-title",
    "ai-title",
    "agent-name",
    "last-prompt",
    "tag",
    "file-history-snapshot",
    "file-history-delta",
    "queue-operation",
    "mode",
    "permission-mode",
    "pr-link",
    "cost-state",
    "atis-latch",
    "bridge-session",
    "teleported-from",
    // The API requests Claude Code made (2.1.332, recorded): bookkeeping, never prompts.
    "api-request",
    "api-request-blob",
    "api-request-shape",
    // The tools a session used (`{"type":"tools-used","tools":["Bash"],"sessionId"}`, no
    // timestamp; 2.1.332, recorded with a `Bash` call): bookkeeping.
    "tools-used",
];

/// The fields of a transcript line that the reader uses.
#[derive(Default, Debug)]
struct Line<'a> {
    kind: LStr<'a>,
    uuid: LStr<'a>,
    timestamp: LStr<'a>,
    session_id: LStr<'a>,
    cwd: LStr<'a>,
    is_sidechain: LBool,
    is_meta: LBool,
    is_compact_summary: LBool,
    message: Message<'a>,
    /// The exit statuses the tool results of a main-chain `user` message tell (see
    /// [`exit_statuses`]).
    tool_exits: Vec<(String, i64)>,
    custom_title: LStr<'a>,
    ai_title: LStr<'a>,
    summary: LStr<'a>,
    leaf_uuid: LStr<'a>,
    git_branch: LStr<'a>,
    /// The Claude Code version that wrote the record.
    version: LStr<'a>,
    /// On a fork's copy of another session's reply (`--fork-session`), that session's id.
    request_session_id: LStr<'a>,
    /// The message's tool results need the strict read (see [`LineSeed`]); on the line
    /// [`Line::parse`] returns, that it was read so (its message kept raw).
    two_passes: bool,
}

/// A record's `message`. Only a main-chain `user` record's message is decoded (assistant
/// replies and tool output are most of a transcript's bytes and are only scanned past),
/// and it is decoded where the parser meets it when the record's `type` came first, as
/// Claude Code writes it: its bytes are then read once, not scanned and then decoded.
#[derive(Default, Debug)]
enum Message<'a> {
    #[default]
    Absent,
    Raw(&'a serde_json::value::RawValue),
    Decoded(Text),
}

/// Parses a transcript line into a [`Line`]; `subagent` says whether every record of
/// the file is a side chain (a sub-agent log), whose messages are never decoded;
/// `results` whether `Bash` calls of the file await their results, so that the exit
/// statuses a main-chain user message's tool results tell are kept. The message is
/// decoded as it streams either way, its text and its tool results in the same pass
/// ([`StrippingWithResults`]; a property test compares it with the two passes over the
/// message kept raw, [`exit_statuses`] and [`Text::from_json_stripping`]).
struct LineSeed {
    subagent: bool,
    results: bool,
    /// Read the message raw, then its tool results and its text from it (the one pass
    /// said it could not tell: see `Results::two_passes`).
    two_passes: bool,
}

impl<'de> DeserializeSeed<'de> for LineSeed {
    type Value = Line<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Line<'de>, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for LineSeed {
    type Value = Line<'de>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a transcript record (a JSON object)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Line<'de>, A::Error> {
        let mut line = Line::default();
        while let Some(key) = map.next_key::<LStr<'de>>()? {
            let slot = match key.get() {
                Some("type") => &mut line.kind,
                Some("uuid") => &mut line.uuid,
                Some("timestamp") => &mut line.timestamp,
                Some("sessionId") => &mut line.session_id,
                Some("cwd") => &mut line.cwd,
                Some("customTitle") => &mut line.custom_title,
                Some("aiTitle") => &mut line.ai_title,
                Some("summary") => &mut line.summary,
                Some("leafUuid") => &mut line.leaf_uuid,
                Some("gitBranch") => &mut line.git_branch,
                Some("version") => &mut line.version,
                Some("requestSessionId") => &mut line.request_session_id,
                Some("isSidechain") => {
                    line.is_sidechain = map.next_value()?;
                    continue;
                }
                Some("isMeta") => {
                    line.is_meta = map.next_value()?;
                    continue;
                }
                Some("isCompactSummary") => {
                    line.is_compact_summary = map.next_value()?;
                    continue;
                }
                Some("message") => {
                    let main_user = line.kind.is("user") && !self.subagent && !line.is_sidechain.0;
                    line.message = if main_user && self.results && self.two_passes {
                        // Kept raw: the statuses of its tool results are read from it, then
                        // its text.
                        let raw = map.next_value::<&'de serde_json::value::RawValue>()?;
                        line.tool_exits = exit_statuses(raw);
                        Message::Decoded(
                            Text::from_json_stripping(raw.get())
                                .map_err(serde::de::Error::custom)?,
                        )
                    } else if main_user {
                        // Its text and its tool results' statuses, in one pass.
                        let mut results = Results::default();
                        let text = map.next_value_seed(StrippingWithResults(&mut results))?;
                        if self.results {
                            line.two_passes = results.two_passes;
                            line.tool_exits = results.blocks().iter().filter_map(exit).collect();
                        }
                        Message::Decoded(text)
                    } else {
                        map.next_value::<Option<&'de serde_json::value::RawValue>>()?
                            .map_or(Message::Absent, Message::Raw)
                    };
                    continue;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            *slot = map.next_value()?;
        }
        Ok(line)
    }
}

impl<'a> Line<'a> {
    /// Parses a line; `results`: keep a main-chain user message raw for its tool results
    /// (see [`LineSeed`]).
    fn parse(
        bytes: &'a [u8],
        subagent: bool,
        results: bool,
    ) -> Result<Line<'a>, serde_json::Error> {
        let parse = |two_passes| {
            let mut deserializer = serde_json::Deserializer::from_slice(bytes);
            let line = LineSeed { subagent, results, two_passes }.deserialize(&mut deserializer)?;
            deserializer.end()?;
            Ok(line)
        };
        let line = parse(false)?;
        if line.two_passes {
            // Said of the line returned too: its message was read raw.
            let mut line = parse(true)?;
            line.two_passes = true;
            Ok(line)
        } else {
            Ok(line)
        }
    }
}

impl<'a> Line<'a> {
    /// Parses `copy`, the line with its tools' output taken out (see [`skim`]), or the
    /// line itself when there is no copy, or the copy does not parse (so that an error is
    /// the line's own), or its message was kept raw and what was taken out is not UTF-8.
    fn parse_copy(
        bytes: &'a [u8],
        copy: Option<&'a skim::Copy>,
        subagent: bool,
        results: bool,
    ) -> Result<Line<'a>, serde_json::Error> {
        let from_copy = copy.and_then(|copy| {
            let line = Line::parse(copy.bytes(), subagent, results).ok()?;
            let raw = line.two_passes || matches!(line.message, Message::Raw(_));
            (!raw || copy.taken_out_is_utf8(bytes)).then_some(line)
        });
        match from_copy {
            Some(line) => Ok(line),
            None => Line::parse(bytes, subagent, results),
        }
    }
}

/// The fields of a `history.jsonl` entry that the reader uses (never `pastedContents`).
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct HistoryLine<'a> {
    /// Kept raw: decoded only for entries whose session has no transcript.
    #[serde(borrow)]
    display: Option<&'a serde_json::value::RawValue>,
    timestamp: LMillis,
    #[serde(borrow)]
    project: LStr<'a>,
    #[serde(borrow)]
    session_id: LStr<'a>,
}

/// The one setting of `settings.json` the reader looks at.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Settings {
    cleanup_period_days: LNum,
}

/// A session's title candidates and working directories, by precedence.
#[derive(Default)]
struct Extra {
    custom_title: Option<String>,
    ai_title: Option<String>,
    summary: Option<String>,
    main_cwd: Option<PathBuf>,
    side_cwd: Option<PathBuf>,
}

/// One transcript file to read.
struct Job {
    path: PathBuf,
    /// The session of records without a `sessionId`: the file name, or for a sub-agent
    /// log, its parent session.
    default_session: String,
    /// Whether this is a sub-agent log (every record counts as a side chain, and belongs
    /// to `default_session` whatever its `sessionId`).
    subagent: bool,
    /// Its size when listed: the largest are parsed first.
    size: u64,
}

/// Per-folder state for matching legacy `summary` records to their sessions.
#[derive(Default)]
struct Folder {
    /// Record uuid → index in `sessions`, for the main-chain records of the files read.
    leaves: FastMap<u128, u32>,
    /// The session ids of the folder, each once.
    sessions: Vec<String>,
    /// Session id → index in `sessions`.
    session_index: FastMap<String, u32>,
    /// `(leafUuid, summary)` in the order seen.
    summaries: Vec<(u128, String)>,
}

impl Folder {
    /// Notes that the record `uuid` belongs to `session_id`.
    fn note_leaf(&mut self, uuid: u128, session_id: &str) {
        let index = if let Some(index) = self.session_index.get(session_id) {
            *index
        } else {
            let index = u32::try_from(self.sessions.len()).unwrap_or(u32::MAX);
            self.sessions.push(session_id.to_owned());
            self.session_index.insert(session_id.to_owned(), index);
            index
        };
        self.leaves.entry(uuid).or_insert(index);
    }

    /// The session a record uuid belongs to.
    fn session_of(&self, uuid: u128) -> Option<&str> {
        self.leaves
            .get(&uuid)
            .and_then(|index| self.sessions.get(*index as usize))
            .map(String::as_str)
    }
}

/// The title candidates of a session, created on first use.
fn extra<'e>(extras: &'e mut FastMap<String, Extra>, session_id: &str) -> &'e mut Extra {
    if !extras.contains_key(session_id) {
        extras.insert(session_id.to_owned(), Extra::default());
    }
    // The key was inserted just above when missing.
    extras.get_mut(session_id).expect("extra inserted above")
}

/// Everything read so far from all roots.
#[derive(Default)]
struct State {
    drafts: Drafts,
    extras: FastMap<String, Extra>,
    /// The `sessionId`s the transcripts' records told (a resumed session's id is only
    /// there, not in a file name); the file names are in `stems` of [`read`].
    transcripts: FastSet<String>,
    /// The sessions with a record of substance: a prompt, a reply, a tool result, a side
    /// chain. The others (a `/clear` and its output, nothing else) are no session.
    substantive: FastSet<String>,
    /// The `version`s the records named, and the record types the reader does not know.
    versions: BTreeSet<String>,
    unknown: BTreeSet<String>,
    stats: Stats,
    files: u64,
}

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let candidates = roots(env, config);
    let roots: Vec<PathBuf> = candidates.iter().filter(|root| root.is_dir()).cloned().collect();
    let mut state = State::default();
    // Each `projects` folder stays open while its folders are listed, and they are
    // opened by name below it, not by their whole paths.
    let mut projects: Vec<OwnedFd> = Vec::new();
    let mut folder_paths: Vec<(usize, PathBuf)> = Vec::new();
    for root in &roots {
        match super::open_listed(&root.join("projects")) {
            Ok(Some((dir, entries))) => {
                for (folder, kind) in entries {
                    if super::is_folder(kind, || folder.clone()) {
                        folder_paths.push((projects.len(), folder));
                    }
                }
                projects.push(dir);
            }
            Ok(None) => {}
            Err(error) => ctx.fail(error),
        }
    }
    // A busy machine has hundreds of project folders, each a listing and a `stat` per
    // file: they are listed on the pool, then taken in order.
    let since = ctx.since;
    let listed = crate::pool::map_ordered(&folder_paths, workers(), |(index, folder)| {
        let name = folder.file_name().map(Path::new);
        match name {
            Some(name) => list_folder(projects[*index].as_fd(), name, folder, since),
            None => list_folder(rustix::fs::CWD, folder, folder, since),
        }
    });
    let mut folders = Vec::with_capacity(listed.len());
    // The sessions with a transcript, by file name.
    let mut stems = FastSet::with_capacity_and_hasher(
        listed.iter().map(|listing| listing.stems.len()).sum(),
        FixedState::default(),
    );
    for listing in listed {
        for error in listing.errors {
            ctx.fail(error);
        }
        stems.extend(listing.stems.into_iter().map(String::into_bytes));
        state.files += listing.files;
        folders.push(listing.jobs);
    }
    // `history.jsonl` holds every prompt ever made, and most of its lines belong to a
    // listed transcript: they are set aside by a byte scan on a thread of their own
    // while the transcripts are parsed, and only the rest are parsed afterwards.
    let scans = std::thread::scope(|scope| {
        let scan = scope.spawn(|| {
            roots
                .iter()
                .map(|root| scan_history(&root.join("history.jsonl"), &stems, since))
                .collect::<Vec<_>>()
        });
        read_folders(ctx, &mut state, &folders);
        // A panic while scanning is a bug; re-raise it rather than hide it.
        scan.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    });
    // A session of command echoes only (a `/clear` and nothing after it) shows nothing.
    let substantive = std::mem::take(&mut state.substantive);
    state.drafts.retain(|session_id, _| substantive.contains(session_id));
    finish_titles(&mut state);
    // The task lists of the sessions read (the task tools' to-do lists).
    super::claude_tasks::read(ctx, &mut state.stats, &mut state.drafts, &roots);

    let mut limits = Vec::new();
    let mut history_days = BTreeSet::new();
    let mut cleanup_days = None;
    for (root, scan) in roots.iter().zip(scans) {
        let path = root.join("history.jsonl");
        read_history(ctx, &mut state, &stems, &path, scan, &mut history_days);
        if cleanup_days.is_none() {
            cleanup_days = read_cleanup_days(ctx, &root.join("settings.json"));
        }
    }
    let retention = match cleanup_days {
        Some(days) => format!("transcripts are deleted after {days} days (`cleanupPeriodDays`)"),
        None => format!(
            "transcripts are deleted after {DEFAULT_CLEANUP_DAYS} days by default (`cleanupPeriodDays`)"
        ),
    };
    match history_days.last() {
        Some(last) => limits.push(format!(
            "{retention}: prompts on {} up to {last} are only in `history.jsonl` (prompt counts, no replies)",
            plural(history_days.len() as u64, "day", "days")
        )),
        None if !roots.is_empty() => limits.push(retention),
        None => {}
    }
    limits.extend(super::malformed_limit(&state.stats));

    let entries = state.drafts.values().filter(|draft| !draft.activity.is_empty()).count();
    let mut status = SourceStatus {
        source: report_model::Source::Claude,
        found: !roots.is_empty(),
        locations: if roots.is_empty() { candidates } else { roots },
        files: state.files,
        entries: entries as u64,
        limits,
        ..SourceStatus::new(report_model::Source::Claude)
    };
    for version in &state.versions {
        status.note_version(version);
    }
    for unknown in &state.unknown {
        status.note_unknown(unknown);
    }
    (state.drafts, status)
}

/// The configuration folders to read, in order, without repeats.
fn roots(env: &Env, config: &SessionsConfig) -> Vec<PathBuf> {
    let roots = if let Some(roots) = &config.claude_roots {
        roots.iter().map(|root| config_path(env, root)).collect()
    } else if let Some(list) = env.var("CLAUDE_CONFIG_DIR") {
        list.split(',')
            .map(str::trim)
            .filter(|root| !root.is_empty())
            .map(|root| config_path(env, Path::new(root)))
            .collect()
    } else {
        vec![env.home.join(".claude"), env.config_home().join("claude")]
    };
    dedup_paths(roots)
}

/// One project folder's transcripts, listed off the main thread.
struct Listing {
    /// The transcripts and sub-agent logs modified since the window began: the ones read.
    jobs: Vec<Job>,
    /// How many transcripts and sub-agent logs it holds, read or not.
    files: u64,
    /// The file stems of its main transcripts (not `agent-*` sub-agent logs).
    stems: Vec<String>,
    /// What could not be listed, in order.
    errors: Vec<crate::Error>,
}

/// Lists the transcripts of one project folder, `relative` below the open folder `base`
/// (the `projects` folder, or the current directory when `relative` is the whole path
/// `folder_path`). An old transcript costs its name only: no path is made for it.
fn list_folder(
    base: BorrowedFd<'_>,
    relative: &Path,
    folder_path: &Path,
    since: Timestamp,
) -> Listing {
    let mut listing = Listing { jobs: Vec::new(), files: 0, stems: Vec::new(), errors: Vec::new() };
    let keep = |listed: Result<super::Fresh, crate::Error>, errors: &mut Vec<crate::Error>| {
        let mut listed = listed.unwrap_or_else(|error| {
            errors.push(error);
            super::Fresh::default()
        });
        errors.extend(listed.broken.take());
        listed
    };
    let listed =
        keep(super::list_fresh_at(base, relative, folder_path, since), &mut listing.errors);
    listing.stems.reserve(listed.len());
    for (name, kind, fresh, size) in listed.sized() {
        let name = Path::new(name);
        // Anything that is not a folder is a transcript when its name says so: a FIFO or
        // a device there is refused when it is opened, with a warning naming it.
        let is_dir = super::is_folder(kind, || folder_path.join(name));
        if let Some(stem) = super::jsonl_stem(name).filter(|_| !is_dir) {
            listing.files += 1;
            if fresh {
                let path = folder_path.join(name);
                listing.jobs.push(Job {
                    default_session: stem.clone(),
                    path,
                    subagent: false,
                    size,
                });
            }
            if !stem.starts_with("agent-") {
                listing.stems.push(stem);
            }
        } else if is_dir {
            let Some(parent) = super::file_name(name) else { continue };
            let path = folder_path.join(name).join("subagents");
            let subagents = keep(super::list_fresh(&path, since), &mut listing.errors);
            for (sub, sub_kind, sub_fresh, size) in subagents.sized() {
                let sub = Path::new(sub);
                let sub_is_dir = super::is_folder(sub_kind, || path.join(sub));
                if has_extension(sub, "jsonl") && !sub_is_dir {
                    listing.files += 1;
                    if sub_fresh {
                        listing.jobs.push(Job {
                            path: path.join(sub),
                            default_session: parent.clone(),
                            subagent: true,
                            size,
                        });
                    }
                }
            }
        }
    }
    listing
}

/// The threads to list and parse on: as many as there are cores.
fn workers() -> usize {
    std::thread::available_parallelism().map_or(2, NonZeroUsize::get)
}

/// Parses every fresh transcript, on as many threads as there are cores (parsing JSON
/// is the whole cost of this reader), the largest first so that no thread is left
/// alone with a large one at the end, then applies them folder by folder in listing
/// order, so the result does not depend on which thread finished first.
fn read_folders(ctx: &mut Ctx, state: &mut State, folders: &[Vec<Job>]) {
    let fresh: Vec<&Job> = folders.iter().flatten().collect();
    let since = ctx.since;
    let parsed = crate::pool::map_ordered_by_cost(
        &fresh,
        workers(),
        |job| job.size,
        |job| parse_transcript(job, since),
    );
    let mut parsed = parsed;
    forks_by_copies(&mut parsed);
    let copies = copied_records(&parsed);
    let mut parsed = parsed.into_iter();
    for jobs in folders {
        let mut folder = Folder::default();
        for job in jobs {
            if let Some(file) = parsed.next() {
                apply_transcript(ctx, state, (&mut folder, &copies), job, file);
            }
        }
        for (leaf, summary) in &folder.summaries {
            if let Some(session_id) = folder.session_of(*leaf) {
                extra(&mut state.extras, session_id).summary = Some(summary.clone());
            }
        }
    }
}

/// One record of a transcript, reduced to what the reader uses. Session ids and working
/// directories are indexes into the file's own small lists, so a record costs no
/// allocation for them.
enum Record {
    CustomTitle {
        session: usize,
        title: String,
    },
    AiTitle {
        session: usize,
        title: String,
    },
    Summary {
        leaf: u128,
        summary: String,
    },
    Event {
        session: usize,
        time: Timestamp,
        side_chain: bool,
        uuid: Option<u128>,
        cwd: Option<usize>,
        /// The record's `gitBranch`, an index into the file's strings like `cwd`.
        branch: Option<usize>,
        /// The prompt's text, when the record is a user prompt.
        prompt: Option<String>,
        /// The model of a main-chain assistant record (an index into `models`).
        model: Option<usize>,
        /// Whether the record is of substance (see [`State::substantive`]).
        substantive: bool,
        /// The to-do list a main-chain assistant record wrote with `TodoWrite`.
        todos: Option<Vec<Todo>>,
        /// Whether the record is Claude Code's `[Request interrupted by user…]` marker.
        interrupt: bool,
        /// The `Bash` calls of a main-chain assistant record: tool-use id and command.
        shell_calls: Vec<(String, String)>,
        /// The tool results of a main-chain user record: tool-use id and exit status.
        tool_results: Vec<(String, i64)>,
    },
}

/// A transcript parsed on a worker thread.
struct ParsedFile {
    sessions: Vec<String>,
    /// The forks it holds: a session (an index into `sessions`) and the one it was forked
    /// from, named by the `requestSessionId` of the replies it copied.
    forks: Vec<(usize, String)>,
    /// Its main-chain records dated before the file's first timestamped line (a session
    /// index and a uuid): where they are another session's too, copies a fork made
    /// ([`forks_by_copies`]).
    early: Vec<(usize, u128)>,
    /// Working directories and branch names, interned.
    cwds: Vec<String>,
    models: Vec<String>,
    records: Vec<Record>,
    /// The `version`s the records named and the unknown record types, each once.
    versions: Vec<String>,
    unknown: Vec<String>,
    warnings: Vec<Warning>,
    stats: Stats,
}

/// The index of `value` in `list`, added when new (lists hold a handful of values).
fn intern(list: &mut Vec<String>, value: &str) -> usize {
    if let Some(index) = list.iter().rposition(|known| known == value) {
        return index;
    }
    list.push(value.to_owned());
    list.len() - 1
}

/// Parses one transcript or sub-agent log.
fn parse_transcript(job: &Job, since: Timestamp) -> ParsedFile {
    let mut ctx = Ctx { since, warnings: Vec::new() };
    let mut stats = Stats::default();
    let mut sessions = vec![job.default_session.clone()];
    let mut forks: Vec<(usize, String)> = Vec::new();
    let mut first_time: Option<Timestamp> = None;
    let mut early = Vec::new();
    let mut cwds = Vec::new();
    let mut models = Vec::new();
    let mut records = Vec::new();
    let mut versions: Vec<String> = Vec::new();
    let mut unknown: Vec<String> = Vec::new();
    // The main chain's `Bash` calls whose results have not come yet.
    let mut bash_pending: HashSet<String> = HashSet::new();
    jsonl::read_lines(&mut ctx, &mut stats, &job.path, |bytes| {
        let (copy, results) = (skim::without_tool_output(bytes), !bash_pending.is_empty());
        let mut line = Line::parse_copy(bytes, copy.as_ref(), job.subagent, results)?;
        note_version_and_type(&line, &mut versions, &mut unknown);
        let session = if job.subagent {
            0
        } else {
            line.session_id.get().map_or(0, |session_id| intern(&mut sessions, session_id))
        };
        if let Some(original) = line.request_session_id.get().filter(|_| !job.subagent) {
            note_fork(&mut forks, (session, &sessions[session]), original);
        }
        if let Some(title) = title_record(&mut line, session, job.subagent) {
            records.extend(title);
            return Ok(());
        }
        // Records without a timestamp (modes, bookmarks, snapshots) are session state,
        // not activity.
        let Some(time) = line.timestamp.time("timestamp")? else { return Ok(()) };
        let side_chain = job.subagent || line.is_sidechain.0;
        let uuid = line.uuid.get().and_then(uuid_key);
        let first = *first_time.get_or_insert(time);
        if let Some(uuid) = uuid.filter(|_| !side_chain && time < first) {
            early.push((session, uuid));
        }
        let mut prompt = None;
        let mut interrupt = false;
        let mut substantive = side_chain || line.kind.is("assistant");
        let mut tool_results = std::mem::take(&mut line.tool_exits);
        if line.kind.is("user") && !side_chain {
            if let Message::Raw(raw) = &line.message {
                tool_results = exit_statuses(raw);
            }
            let message: Text = match std::mem::take(&mut line.message) {
                Message::Decoded(text) => text,
                Message::Raw(raw) => Text::from_json_stripping(raw.get())?,
                Message::Absent => Text::default(),
            };
            substantive |= message.tool_result;
            interrupt = message.value.starts_with(INTERRUPTED);
            if is_prompt(&line, &message) {
                substantive = true;
                prompt = Some(message.value);
            }
        }
        let (model, todos, shell_calls) = match line.message {
            Message::Raw(raw) if line.kind.is("assistant") && !side_chain => {
                (quick_model(raw.get().as_bytes()), todo_write(raw), bash_calls(raw))
            }
            _ => (None, None, Vec::new()),
        };
        bash_pending.extend(shell_calls.iter().map(|(id, _)| id.clone()));
        for (id, _) in &tool_results {
            bash_pending.remove(id);
        }
        records.push(Record::Event {
            session,
            time,
            side_chain,
            uuid,
            cwd: line.cwd.get().map(|cwd| intern(&mut cwds, cwd)),
            branch: line.git_branch.get().map(|branch| intern(&mut cwds, branch)),
            prompt,
            model: model.map(|model| intern(&mut models, &model)),
            substantive,
            todos,
            interrupt,
            shell_calls,
            tool_results,
        });
        Ok(())
    });
    let warnings = ctx.warnings;
    ParsedFile { sessions, forks, early, cwds, models, records, versions, unknown, warnings, stats }
}

/// A title record (`custom-title`, `ai-title` of a transcript, a legacy `summary`) as a
/// [`Record`] (none when it holds no title); `None` for any other record.
fn title_record(line: &mut Line, session: usize, subagent: bool) -> Option<Vec<Record>> {
    match line.kind.0.as_deref() {
        Some("custom-title") if !subagent => Some(
            std::mem::take(&mut line.custom_title)
                .into_owned()
                .map(|title| Record::CustomTitle { session, title })
                .into_iter()
                .collect(),
        ),
        Some("ai-title") if !subagent => Some(
            std::mem::take(&mut line.ai_title)
                .into_owned()
                .map(|title| Record::AiTitle { session, title })
                .into_iter()
                .collect(),
        ),
        Some("summary") => Some(
            line.leaf_uuid
                .get()
                .and_then(uuid_key)
                .zip(line.summary.get())
                .map(|(leaf, summary)| Record::Summary { leaf, summary: summary.to_owned() })
                .into_iter()
                .collect(),
        ),
        _ => None,
    }
}

/// Notes the Claude Code version that wrote a record and a record type the reader does
/// not know, each once.
fn note_version_and_type(line: &Line, versions: &mut Vec<String>, unknown: &mut Vec<String>) {
    let new_version = |version: &&str| !versions.iter().any(|known| known == version);
    if let Some(version) = line.version.get().filter(new_version) {
        versions.push(version.to_owned());
    }
    if let Some(kind) = line.kind.get().filter(|kind| !KNOWN_TYPES.contains(kind)) {
        let name = format!("type:{kind}");
        if !unknown.contains(&name) {
            unknown.push(name);
        }
    }
}

/// Notes that the session `(index, id)` is a fork of `original`, once (a reply copied from
/// the session itself says nothing).
fn note_fork(forks: &mut Vec<(usize, String)>, (index, id): (usize, &str), original: &str) {
    let known = |(known, other): &(usize, String)| *known == index && other == original;
    if original != id && !forks.iter().any(known) {
        forks.push((index, original.to_owned()));
    }
}

/// Notes the forks that name no other session (2.1.197, recorded in
/// `fixtures/claude-fork/2.1.197/`, writes no `requestSessionId`): the fork's file opens
/// with lines of its own run (`queue-operation`), then the copies, dated before them. A
/// session whose file holds a main-chain record dated before the file's first timestamped
/// line, with the uuid of a main-chain record of another session where it is not so
/// dated, is a fork of that session. Nothing is done when no record is so dated (the
/// usual case).
fn forks_by_copies(parsed: &mut [ParsedFile]) {
    let mut early: FastMap<u128, Vec<(usize, usize)>> = FastMap::default();
    for (index, file) in parsed.iter().enumerate() {
        for &(session, uuid) in &file.early {
            early.entry(uuid).or_default().push((index, session));
        }
    }
    if early.is_empty() {
        return;
    }
    let mut found: Vec<(usize, usize, String)> = Vec::new();
    for (index, file) in parsed.iter().enumerate() {
        for record in &file.records {
            let Record::Event { session, uuid: Some(uuid), side_chain: false, .. } = record else {
                continue;
            };
            let Some(holders) = early.get(uuid) else { continue };
            if holders.contains(&(index, *session)) {
                continue;
            }
            let original = &file.sessions[*session];
            for &(fork_file, fork_session) in holders {
                found.push((fork_file, fork_session, original.clone()));
            }
        }
    }
    for (fork_file, fork_session, original) in found {
        let file = &mut parsed[fork_file];
        let id = file.sessions[fork_session].clone();
        note_fork(&mut file.forks, (fork_session, &id), &original);
    }
}

/// The records each fork copied (`--fork-session` writes a new transcript holding copies
/// of the other session's records, uuids and times kept, under the fork's own
/// `sessionId`): by fork, the uuids of the main-chain records of the session it was
/// forked from, as read in that session's own transcripts. Empty when no transcript read
/// holds a fork (the usual case: nothing more is done then).
fn copied_records(parsed: &[ParsedFile]) -> HashMap<String, HashSet<u128>> {
    let mut copies: HashMap<String, HashSet<u128>> = HashMap::new();
    let originals: HashSet<&str> = parsed
        .iter()
        .flat_map(|file| file.forks.iter().map(|(_, original)| original.as_str()))
        .collect();
    if originals.is_empty() {
        return copies;
    }
    let mut uuids: HashMap<&str, HashSet<u128>> = HashMap::new();
    for file in parsed {
        for record in &file.records {
            if let Record::Event { session, uuid: Some(uuid), side_chain: false, .. } = record {
                let id = file.sessions[*session].as_str();
                if originals.contains(id) {
                    uuids.entry(id).or_default().insert(*uuid);
                }
            }
        }
    }
    for file in parsed {
        for (session, original) in &file.forks {
            if let Some(known) = uuids.get(original.as_str()) {
                copies.entry(file.sessions[*session].clone()).or_default().extend(known);
            }
        }
    }
    copies
}

/// Adds a parsed transcript to what was read so far.
fn apply_transcript(
    ctx: &mut Ctx,
    state: &mut State,
    (folder, copies): (&mut Folder, &HashMap<String, HashSet<u128>>),
    job: &Job,
    file: ParsedFile,
) {
    let since = ctx.since;
    ctx.warnings.extend(file.warnings);
    state.stats.malformed_lines += file.stats.malformed_lines;
    state.stats.malformed_files += file.stats.malformed_files;
    state.versions.extend(file.versions);
    state.unknown.extend(file.unknown);
    let State { drafts, extras, transcripts, substantive: solid, .. } = state;
    // The file's `Bash` calls by tool-use id (a result follows its call in the same file).
    let mut shell_calls: HashMap<String, String> = HashMap::new();
    for record in file.records {
        match record {
            Record::CustomTitle { session, title } => {
                extra(extras, &file.sessions[session]).custom_title = Some(title);
            }
            Record::AiTitle { session, title } => {
                extra(extras, &file.sessions[session]).ai_title = Some(title);
            }
            Record::Summary { leaf, summary } => folder.summaries.push((leaf, summary)),
            Record::Event {
                session,
                time,
                side_chain,
                uuid,
                cwd,
                branch,
                prompt,
                model,
                substantive,
                todos,
                interrupt,
                shell_calls: calls,
                tool_results,
            } => {
                let session_id = file.sessions[session].as_str();
                let is_copy = uuid.is_some_and(|key| {
                    copies.get(session_id).is_some_and(|known| known.contains(&key))
                });
                if is_copy {
                    // A fork's copy of the other session's record, counted there: only a
                    // prompt's text, for the fork's title.
                    if let Some(text) = prompt {
                        draft(drafts, Agent::ClaudeCode, session_id).note_prompt_text(time, &text);
                    }
                    continue;
                }
                if substantive && !solid.contains(session_id) {
                    solid.insert(session_id.to_owned());
                }
                if !job.subagent {
                    if !transcripts.contains(session_id) {
                        transcripts.insert(session_id.to_owned());
                    }
                    if let Some(key) = uuid {
                        folder.note_leaf(key, session_id);
                    }
                }
                if let Some(cwd) = cwd.map(|index| upper_drive(&file.cwds[index])) {
                    let extra = extra(extras, session_id);
                    let slot = if side_chain { &mut extra.side_cwd } else { &mut extra.main_cwd };
                    if slot.as_deref() != Some(Path::new(cwd.as_ref())) {
                        *slot = Some(PathBuf::from(cwd.as_ref()));
                    }
                }
                let session = draft(drafts, Agent::ClaudeCode, session_id);
                if let Some(branch) = branch.filter(|_| !side_chain) {
                    let branch = &file.cwds[branch];
                    if session.branch.as_ref() != Some(branch) {
                        session.branch = Some(branch.clone());
                    }
                }
                if time >= since {
                    session.activity.push(time);
                    if let Some(model) = model.map(|index| file.models[index].as_str()) {
                        session.note_model(model);
                    }
                }
                // The newest list wins, whenever it was written: it is what was left.
                if let Some(todos) = todos {
                    session.note_todos(time, todos);
                }
                if interrupt {
                    session.note_interrupt(time);
                }
                shell_calls.extend(calls);
                for (id, exit) in tool_results {
                    if let Some(command) = shell_calls.remove(&id) {
                        session.note_command(time, &command, exit);
                    }
                }
                if let Some(text) = prompt {
                    if time >= since {
                        session.prompts.push(time);
                    }
                    session.note_prompt_text(time, &text);
                }
            }
        }
    }
}

/// Whether a main-chain `user` record is something the user typed.
fn is_prompt(line: &Line, message: &Text) -> bool {
    // Only injected blocks (an IDE's opened file, a hook's reminder): nothing typed.
    let only_injected = message.stripped && message.value.is_empty();
    !line.is_meta.0
        && !line.is_compact_summary.0
        && !message.tool_result
        && !only_injected
        && !NOT_PROMPT_PREFIXES.iter().any(|prefix| message.value.starts_with(prefix))
}

/// Sets each session's title and working directory from what the records said.
fn finish_titles(state: &mut State) {
    for (session_id, extra) in state.extras.drain() {
        let Some(session) = state.drafts.get_mut(&session_id) else { continue };
        session.title = extra.custom_title.or(extra.ai_title).or(extra.summary);
        session.cwd = extra.main_cwd.or(extra.side_cwd);
    }
}

/// A session of `history.jsonl` entries whose transcript is gone.
struct Orphan {
    key: String,
    cwd: Option<PathBuf>,
}

/// The lines of one `history.jsonl` that a byte scan could not set aside as belonging to
/// a listed transcript, with what reading the file said.
struct HistoryScan {
    /// Line number, whether the line ended with a newline, and its bytes.
    kept: Vec<(u64, bool, Vec<u8>)>,
    warnings: Vec<Warning>,
}

/// Reads `history.jsonl`, keeping the lines whose `sessionId` is not one of `listed`
/// (the transcripts' file names) or cannot be found without parsing.
fn scan_history(path: &Path, listed: &FastSet<Vec<u8>>, since: Timestamp) -> HistoryScan {
    let mut ctx = Ctx { since, warnings: Vec::new() };
    let mut kept = Vec::new();
    jsonl::for_each_line(&mut ctx, path, |bytes, number, complete| {
        if !quick_session_id_bytes(bytes).is_some_and(|session_id| listed.contains(session_id)) {
            kept.push((number, complete, bytes.to_vec()));
        }
    });
    HistoryScan { kept, warnings: ctx.warnings }
}

/// Reads the lines of `history.jsonl` its [`scan_history`] kept: entries of sessions
/// without a transcript become sessions.
fn read_history(
    ctx: &mut Ctx,
    state: &mut State,
    listed: &FastSet<Vec<u8>>,
    path: &Path,
    scan: HistoryScan,
    days: &mut BTreeSet<Date>,
) {
    let since = ctx.since;
    // Old entries have no `sessionId`: they are covered when a transcript session of the
    // same working directory has activity on the same UTC day.
    // The days of each directory's activity (hashed once per session, not per record).
    let mut covered: FastMap<&Path, BTreeSet<Date>> = FastMap::default();
    for session in state.drafts.values() {
        if let Some(cwd) = &session.cwd {
            let days = covered.entry(cwd.as_path()).or_default();
            days.extend(session.activity.iter().map(|time| utc_date(*time)));
        }
    }
    let mut orphans: Drafts = Drafts::new();
    let told = &state.transcripts;
    let transcript =
        |session_id: &str| listed.contains(session_id.as_bytes()) || told.contains(session_id);
    let mut read_line = |bytes: &[u8]| -> Result<(), LineError> {
        // An entry of a session whose id only the transcripts' records told.
        if quick_session_id(bytes).is_some_and(transcript) {
            return Ok(());
        }
        let line: HistoryLine = serde_json::from_slice(bytes)?;
        let Some(time) = line.timestamp.time("timestamp")? else {
            return Ok(());
        };
        // Most entries belong to a session whose transcript was listed: skip them before
        // decoding anything else.
        let session_id = match line.session_id.get() {
            Some(session_id) if transcript(session_id) => return Ok(()),
            other => other,
        };
        let display: Text = match line.display {
            Some(raw) => Text::from_json_stripping(raw.get())?,
            None => Text::default(),
        };
        // A slash command, or only injected blocks: nothing the person asked.
        if is_command(&display.value) || (display.stripped && display.value.is_empty()) {
            return Ok(());
        }
        let project =
            line.project.get().map(|project| PathBuf::from(upper_drive(project).as_ref()));
        let orphan = if let Some(session_id) = session_id {
            Orphan { key: session_id.to_owned(), cwd: project }
        } else {
            let date = utc_date(time);
            let days = project.as_deref().and_then(|cwd| covered.get(cwd));
            if days.is_some_and(|days| days.contains(&date)) {
                return Ok(());
            }
            Orphan {
                key: format!(
                    "history:{date}:{}",
                    project.as_deref().map_or(String::new(), |cwd| cwd.display().to_string())
                ),
                cwd: project,
            }
        };
        days.insert(utc_date(time));
        if time < since {
            return Ok(());
        }
        let session = draft(&mut orphans, Agent::ClaudeCode, &orphan.key);
        if session.cwd.is_none() {
            session.cwd = orphan.cwd;
        }
        session.prompts.push(time);
        session.activity.push(time);
        session.note_prompt_text(time, &display.value);
        Ok(())
    };
    let mut malformed = jsonl::Malformed::default();
    let mut times = jsonl::BadTimes::default();
    for (number, complete, bytes) in &scan.kept {
        match read_line(bytes) {
            Ok(()) => {}
            Err(LineError::NotATime(NotATime(key))) => times.count(Some(*number), key),
            Err(LineError::Malformed) => {
                if *complete {
                    malformed.count(*number);
                }
            }
        }
    }
    ctx.warnings.extend(scan.warnings);
    jsonl::report_skipped(ctx, &mut state.stats, path, malformed, times);
    for orphan in orphans.into_values() {
        super::add_draft(&mut state.drafts, orphan);
    }
}

/// A working directory with a Windows drive letter in upper case (`c:\src` → `C:\src`):
/// Claude Code on Windows writes either case within one session, for one folder.
fn upper_drive(cwd: &str) -> std::borrow::Cow<'_, str> {
    let bytes = cwd.as_bytes();
    let drive = bytes.len() >= 2
        && bytes[0].is_ascii_lowercase()
        && bytes[1] == b':'
        && bytes.get(2).is_none_or(|separator| matches!(separator, b'\\' | b'/'));
    if drive {
        let mut upper = cwd.to_owned();
        upper[..1].make_ascii_uppercase();
        std::borrow::Cow::Owned(upper)
    } else {
        std::borrow::Cow::Borrowed(cwd)
    }
}

/// Whether a history entry is a slash command (`/clear`, `/model opus`) or a shell
/// escape (`!ls`) rather than a prompt. A path such as `/etc/hosts is empty` is a prompt.
fn is_command(display: &str) -> bool {
    if display.starts_with('!') {
        return true;
    }
    let Some(rest) = display.strip_prefix('/') else { return false };
    let name = rest.split(' ').next().unwrap_or_default();
    !name.is_empty()
        && name.chars().all(|character| {
            character.is_ascii_alphanumeric() || matches!(character, '-' | '_' | ':')
        })
}

/// The top-level `"sessionId":"…"` of a history line, found without parsing it, as
/// text; see [`quick_session_id_bytes`].
fn quick_session_id(line: &[u8]) -> Option<&str> {
    quick_session_id_bytes(line).and_then(|id| std::str::from_utf8(id).ok())
}

/// The top-level `"sessionId"` of a history line, found without parsing it; `None` (the
/// line is then parsed in full) when there is none, or its id holds an escape.
///
/// Claude Code writes `sessionId` last, so the end of the line is looked at first: a
/// line that ends `,"sessionId":"<id>"}` closes the top-level object right after that
/// value, so the key is the top level's own. Other lines are walked from the start by
/// [`scan::top_level_string`](super::scan::top_level_string), which never takes a
/// nested object's `sessionId` (the plain search from the start did, before round 9).
fn quick_session_id_bytes(line: &[u8]) -> Option<&[u8]> {
    if let Some(id) = last_session_id(line) {
        return Some(id);
    }
    let found = super::scan::top_level_string(line, b"sessionId")?;
    (!found.escaped).then(|| found.inner())
}

/// The `sessionId` of a line that ends `,"sessionId":"<id>"}` (or is only that key), its
/// id without escapes.
fn last_session_id(line: &[u8]) -> Option<&[u8]> {
    const KEY: &[u8] = b"\"sessionId\":\"";
    let body = line.strip_suffix(b"\"}")?;
    let start = memchr::memrchr(b'"', body)? + 1;
    let (before, id) = body.split_at(start);
    let key_at = before.strip_suffix(KEY)?;
    let escaped = memchr::memchr(b'\\', id).is_some();
    (matches!(key_at.last(), Some(b',' | b'{')) && !escaped).then_some(id)
}

/// The top-level `"model"` of an assistant record's raw message, found without parsing
/// it: Claude Code writes the API's message as it came, with `model` before `content`, so
/// the walk ([`scan::top_level_string`](super::scan::top_level_string)) stops early and a
/// tool call's own `model` input, deeper, is never taken. An id with escapes is decoded;
/// an empty one, or Claude Code's `<synthetic>` stand-in for messages it made itself,
/// gives `None`.
fn quick_model(message: &[u8]) -> Option<std::borrow::Cow<'_, str>> {
    let model = super::scan::top_level_string(message, b"model")?.text()?;
    (!model.is_empty() && !model.starts_with("<synthetic>")).then_some(model)
}

/// The content blocks of an assistant message, as far as a `TodoWrite` call needs.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ToolMessage<'a> {
    #[serde(borrow)]
    content: Option<&'a serde_json::value::RawValue>,
}

/// One content block: a `tool_use` names its tool and carries its input.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ToolBlock<'a> {
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    #[serde(borrow)]
    id: LStr<'a>,
    #[serde(borrow)]
    name: LStr<'a>,
    #[serde(borrow)]
    input: Option<&'a serde_json::value::RawValue>,
}

/// The input of a `TodoWrite` call: `{"todos": [{"content", "status", "activeForm"}]}`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct TodoInput<'a> {
    #[serde(borrow)]
    todos: Option<&'a serde_json::value::RawValue>,
}

/// The to-do list an assistant message wrote with Claude Code's `TodoWrite` tool (the
/// last such call of the message), found by a byte scan first so that other messages
/// are never decoded. `None` when it wrote none (or one that cannot be read).
fn todo_write(message: &serde_json::value::RawValue) -> Option<Vec<Todo>> {
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\"TodoWrite\""));
    FINDER.find(message.get().as_bytes())?;
    let message: ToolMessage = serde_json::from_str(message.get()).ok()?;
    let blocks: Vec<ToolBlock> = serde_json::from_str(message.content?.get()).ok()?;
    blocks
        .iter()
        .rev()
        .filter(|block| block.kind.is("tool_use") && block.name.is("TodoWrite"))
        .find_map(|block| {
            let input: TodoInput = serde_json::from_str(block.input?.get()).ok()?;
            super::todo_list(input.todos?)
        })
}

/// The input of a `Bash` call: `{"command", "description"?, "timeout"?}`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct BashInput<'a> {
    #[serde(borrow)]
    command: LStr<'a>,
}

/// The `Bash` calls of an assistant message (tool-use id, command), found by a byte scan
/// first so that other messages are never decoded.
fn bash_calls(message: &serde_json::value::RawValue) -> Vec<(String, String)> {
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\"Bash\""));
    if FINDER.find(message.get().as_bytes()).is_none() {
        return Vec::new();
    }
    let Ok(message) = serde_json::from_str::<ToolMessage>(message.get()) else {
        return Vec::new();
    };
    let Some(Ok(blocks)) = message.content.map(|c| serde_json::from_str::<Vec<ToolBlock>>(c.get()))
    else {
        return Vec::new();
    };
    blocks
        .iter()
        .filter(|block| block.kind.is("tool_use") && block.name.is("Bash"))
        .filter_map(|block| {
            let input: BashInput = serde_json::from_str(block.input?.get()).ok()?;
            Some((block.id.get()?.to_owned(), input.command.get()?.to_owned()))
        })
        .collect()
}

/// A text part of a `tool_result`'s content when it is a list.
#[derive(Deserialize, Default)]
#[serde(default)]
struct TextPart<'a> {
    #[serde(borrow)]
    text: LStr<'a>,
}

/// The exit statuses the tool results of a user message tell (tool-use id, status), read
/// from the message kept raw (a record whose `type` came after its `message`): 0 for
/// a result that is not an error, N for an error whose text starts with `Exit code N`
/// (Claude Code's wording for a `Bash` command that exited with N). Other errors (a
/// denied permission, an interruption, a timeout) tell none.
fn exit_statuses(message: &serde_json::value::RawValue) -> Vec<(String, i64)> {
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\"tool_result\""));
    if FINDER.find(message.get().as_bytes()).is_none() {
        return Vec::new();
    }
    let Ok(message) = serde_json::from_str::<ToolMessage>(message.get()) else {
        return Vec::new();
    };
    let Some(Ok(blocks)) =
        message.content.map(|c| serde_json::from_str::<Vec<ResultBlock>>(c.get()))
    else {
        return Vec::new();
    };
    blocks.iter().filter_map(exit).collect()
}

/// The exit status one content block tells (see [`exit_statuses`]): none unless it is a
/// `tool_result` with a tool-use id.
fn exit(block: &ResultBlock<'_>) -> Option<(String, i64)> {
    if !block.kind.is("tool_result") {
        return None;
    }
    let id = block.tool_use_id.get()?.to_owned();
    if !block.is_error.0 {
        return Some((id, 0));
    }
    let content = block.content?;
    let text = serde_json::from_str::<LStr>(content.get())
        .ok()
        .and_then(|text| text.get().map(str::to_owned))
        .or_else(|| {
            let parts: Vec<TextPart> = serde_json::from_str(content.get()).ok()?;
            parts.iter().find_map(|part| part.text.get().map(str::to_owned))
        })?;
    let digits = text.strip_prefix("Exit code ")?;
    let end = digits.find(|c: char| !c.is_ascii_digit() && c != '-').unwrap_or(digits.len());
    Some((id, digits[..end].parse().ok()?))
}

/// `cleanupPeriodDays` from a `settings.json`, when it is set.
fn read_cleanup_days(ctx: &mut Ctx, path: &Path) -> Option<i64> {
    let bytes =
        fsread::read_small(path, fsread::CONFIG_FILE_MAX).map_err(|error| ctx.fail(error)).ok()?;
    let settings: Settings = serde_json::from_slice(&bytes).ok()?;
    settings.cleanup_period_days.as_i64()
}

/// The UTC calendar day of an instant.
fn utc_date(time: Timestamp) -> Date {
    time.to_zoned(TimeZone::UTC).date()
}

/// A UUID's 128 bits, from its usual hyphenated (or plain) hex form.
fn uuid_key(text: &str) -> Option<u128> {
    let mut value: u128 = 0;
    let mut digits = 0;
    for byte in text.bytes() {
        if byte == b'-' {
            continue;
        }
        let digit = char::from(byte).to_digit(16)?;
        value = (value << 4) | u128::from(digit);
        digits += 1;
        if digits > 32 {
            return None;
        }
    }
    (digits == 32).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_not_history_prompts() {
        assert!(is_command("/clear"));
        assert!(is_command("/model opus"));
        assert!(is_command("/mcp:server-tool arg"));
        assert!(is_command("!ls -la"));
        assert!(!is_command("/etc/hosts is empty, why?"));
        assert!(!is_command("fix /clear handling"));
        assert!(!is_command("/"));
    }

    #[test]
    fn only_a_lowercase_drive_letter_is_raised() {
        for (cwd, want) in [
            (r"c:\src\app", r"C:\src\app"),
            ("c:/src/app", "C:/src/app"),
            ("c:", "C:"),
            (r"C:\src", r"C:\src"),
            // Not a drive: kept as written, whatever their first letter.
            ("/home/dev", "/home/dev"),
            ("work/app", "work/app"),
            ("ab", "ab"),
            ("c:src", "c:src"),
            ("cd:/x", "cd:/x"),
            ("é:/x", "é:/x"),
            ("c", "c"),
        ] {
            assert_eq!(upper_drive(cwd), want, "{cwd}");
        }
    }

    #[test]
    fn quick_session_id_finds_the_plain_key_only() {
        assert_eq!(
            quick_session_id(br#"{"display":"x","sessionId":"abc-1","project":"/p"}"#),
            Some("abc-1")
        );
        assert_eq!(
            quick_session_id(br#"{"display":"say \"sessionId\":\"no\"","project":"/p"}"#),
            None
        );
        assert_eq!(quick_session_id(br#"{"sessionId": "spaced"}"#), Some("spaced"));
        // An escape in the id: left to the full parse.
        assert_eq!(quick_session_id(br#"{"sessionId":"esc\u0041"}"#), None);
        // A nested object's `sessionId` before the line's own, or without one.
        let nested = br#"{"pastedContents":{"sessionId":"inner"},"sessionId":"outer","x":1}"#;
        assert_eq!(quick_session_id(nested), Some("outer"));
        assert_eq!(quick_session_id(br#"{"model":{"sessionId":"a"}}"#), None);
    }

    #[test]
    fn a_session_id_at_the_end_of_the_line_is_the_top_levels() {
        // As Claude Code writes it: the key last.
        let line = br#"{"display":"x","timestamp":1,"project":"/p","sessionId":"abc-1"}"#;
        assert_eq!(last_session_id(line), Some(&b"abc-1"[..]));
        assert_eq!(quick_session_id(line), Some("abc-1"));
        assert_eq!(last_session_id(br#"{"sessionId":"only"}"#), Some(&b"only"[..]));
        // A nested object's `sessionId` comes first; the line's own is the last one.
        let nested = br#"{"pastedContents":{"sessionId":"inner"},"sessionId":"outer"}"#;
        assert_eq!(quick_session_id(nested), Some("outer"));
        // Not at the end: found from the start, as before.
        let first = br#"{"sessionId":"abc-2","display":"x"}"#;
        assert_eq!(last_session_id(first), None);
        assert_eq!(quick_session_id(first), Some("abc-2"));
        // The end of a nested object, a value that only looks like the key, an escape,
        // too little: none is taken from the end.
        for line in [
            &br#"{"a":{"sessionId":"inner"}}"#[..],
            br#"{"a":"sessionId":"x"}"#,
            br#"{"x":1,"sessionId":"esc\"q"}"#,
            br#"{"x":1,"sessionId":"a\u0041"}"#,
            br#""}"#,
            b"",
        ] {
            assert_eq!(last_session_id(line), None, "{}", String::from_utf8_lossy(line));
        }
    }

    #[test]
    fn quick_model_reads_the_message_model() {
        let model = |message: &[u8]| quick_model(message).map(std::borrow::Cow::into_owned);
        assert_eq!(
            model(br#"{"model":"claude-opus-4-5-20251101","id":"msg_1","content":[]}"#).as_deref(),
            Some("claude-opus-4-5-20251101")
        );
        assert_eq!(model(br#"{"model":"<synthetic>","content":[]}"#), None);
        assert_eq!(model(br#"{"content":[{"text":"say \"model\":\"x\""}]}"#), None);
        assert_eq!(model(br#"{"model":""}"#), None);
        // A tool call's `model` input comes first: the message's own is the top level's.
        let nested =
            br#"{"content":[{"type":"tool_use","input":{"model":"haiku"}}],"model":"opus"}"#;
        assert_eq!(model(nested).as_deref(), Some("opus"));
        assert_eq!(model(br#"{"model": "claude-\u00e9"}"#).as_deref(), Some("claude-é"));
    }

    /// A user message's text and tool results read in one pass, against the two passes
    /// over the message kept raw (`exit_statuses`, then `Text::from_json_stripping`).
    mod one_pass {
        use proptest::prelude::*;

        use super::super::{Line, Message, exit_statuses};
        use crate::sessions::lenient::Text;
        use crate::sessions::scan::arbitrary::{self, Json};

        /// A value as JSON text.
        fn json(value: &Json) -> String {
            let mut out = String::new();
            arbitrary::write(&mut out, value, "");
            out
        }

        /// A `tool_result`'s output: plain, an exit code, a list of parts, or anything.
        fn output() -> impl Strategy<Value = String> {
            prop_oneof![
                "[a-z \n\\\"]{0,12}".prop_map(|text| serde_json::to_string(&text).unwrap()),
                (-3_i64..300, "[a-z ]{0,6}").prop_map(|(code, rest)| serde_json::to_string(
                    &format!("Exit code {code}{rest}")
                )
                .unwrap()),
                (-3_i64..300).prop_map(|code| format!(
                    r#"[{{"type":"image"}},{{"type":"text","text":"Exit code {code}\nfailed"}}]"#
                )),
                arbitrary::value().prop_map(|value| json(&value)),
            ]
        }

        /// One content block's fields (a field may come twice), or an element that is
        /// not an object.
        fn block() -> impl Strategy<Value = String> {
            let kind = prop_oneof![
                4 => Just(r#""tool_result""#.to_owned()),
                1 => Just(r#""text""#.to_owned()),
                1 => Just(r#""image""#.to_owned()),
                1 => Just("7".to_owned()),
            ]
            .prop_map(|kind| format!(r#""type":{kind}"#));
            let id = prop_oneof![
                4 => "[a-z0-9_]{1,8}".prop_map(|id| format!(r#""{id}""#)),
                1 => Just("12".to_owned()),
            ]
            .prop_map(|id| format!(r#""tool_use_id":{id}"#));
            let error = prop_oneof![Just("true"), Just("false"), Just(r#""yes""#), Just("null")]
                .prop_map(|flag| format!(r#""is_error":{flag}"#));
            let content = output().prop_map(|output| format!(r#""content":{output}"#));
            let text = "[a-z <>/\\n]{0,250}"
                .prop_map(|text| format!(r#""text":{}"#, serde_json::to_string(&text).unwrap()));
            let other = arbitrary::value().prop_map(|value| format!(r#""other":{}"#, json(&value)));
            // Each field at most once, in any order; now and then one of them twice.
            let fields = (
                proptest::option::weighted(0.9, kind),
                proptest::option::weighted(0.9, id),
                proptest::option::weighted(0.8, error),
                proptest::option::weighted(0.9, content),
                proptest::option::weighted(0.2, text),
                proptest::option::weighted(0.2, other),
                proptest::option::weighted(0.05, any::<proptest::sample::Index>()),
            )
                .prop_map(|(kind, id, error, content, text, other, twice)| {
                    let mut fields: Vec<String> =
                        [kind, id, error, content, text, other].into_iter().flatten().collect();
                    if let Some(twice) = twice.filter(|_| !fields.is_empty()) {
                        fields.push(twice.get(&fields).clone());
                    }
                    fields
                })
                .prop_shuffle();
            prop_oneof![
                8 => fields.prop_map(|fields| format!("{{{}}}", fields.join(","))),
                1 => arbitrary::value().prop_map(|value| json(&value)),
            ]
        }

        /// A user message: `{role, content}` with a list of blocks mostly, else another
        /// shape (a string, `null`, an object, a `content` twice, no object at all).
        fn message() -> impl Strategy<Value = String> {
            let blocks = || {
                proptest::collection::vec(block(), 0..4)
                    .prop_map(|blocks| format!("[{}]", blocks.join(",")))
            };
            let content = prop_oneof![
                8 => blocks(),
                1 => arbitrary::value().prop_map(|value| json(&value)),
            ];
            prop_oneof![
                8 => (content, proptest::option::of("[a-z ]{0,250}")).prop_map(
                    |(content, text)| match text {
                        Some(text) => format!(
                            r#"{{"text":{},"role":"user","content":{content}}}"#,
                            serde_json::to_string(&text).unwrap()
                        ),
                        None => format!(r#"{{"role":"user","content":{content}}}"#),
                    }
                ),
                1 => (blocks(), blocks())
                    .prop_map(|(one, two)| format!(r#"{{"content":{one},"content":{two}}}"#)),
                1 => arbitrary::value().prop_map(|value| json(&value)),
            ]
        }

        /// The tool results' statuses and the text of a user message, as `Line::parse`
        /// reads them while `Bash` calls await their results.
        fn read(message: &str) -> (Vec<(String, i64)>, String) {
            let line = format!(r#"{{"type":"user","message":{message}}}"#);
            match Line::parse(line.as_bytes(), false, true).expect("the line parses") {
                Line { message: Message::Decoded(text), tool_exits, .. } => {
                    (tool_exits, text.value)
                }
                _ => panic!("not decoded: {line}"),
            }
        }

        #[test]
        fn an_error_result_s_exit_code_is_read_from_its_output() {
            let failed = r#"{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"Exit code 2\nnope","is_error":true},{"type":"tool_result","tool_use_id":"t2","content":[{"type":"text","text":"ok"}],"is_error":false},{"type":"text","text":"and then"}]}"#;
            assert_eq!(
                read(failed),
                (vec![("t1".to_owned(), 2), ("t2".to_owned(), 0)], "and then".to_owned())
            );
            let listed = r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"t3","is_error":true,"content":[{"type":"text","text":"Exit code 127"}]}]}"#;
            assert_eq!(read(listed).0, [("t3".to_owned(), 127)]);
            // A block written as a list: left to the strict parse, which takes it in order.
            let list = r#"{"content":[["tool_result","t4",false]]}"#;
            assert_eq!(read(list), (vec![("t4".to_owned(), 0)], "tool_result t4".to_owned()));
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(3_000))]

            #[test]
            fn text_and_exit_statuses_match_the_two_passes(message in message()) {
                let raw: &serde_json::value::RawValue =
                    serde_json::from_str(&message).expect("generated JSON");
                let two_passes = (
                    Text::from_json_stripping(raw.get()).ok(),
                    exit_statuses(raw),
                );
                let line = format!(r#"{{"type":"user","message":{message}}}"#);
                let one_pass = match Line::parse(line.as_bytes(), false, true) {
                    Ok(Line { message: Message::Decoded(text), tool_exits, .. }) => {
                        (Some(text), tool_exits)
                    }
                    Ok(_) => panic!("not decoded: {line}"),
                    Err(_) => (None, Vec::new()),
                };
                // A message that does not parse as text fails its line either way.
                if two_passes.0.is_some() {
                    prop_assert_eq!(one_pass, two_passes, "{}", message);
                } else {
                    prop_assert!(one_pass.0.is_none(), "{}", message);
                }
            }
        }
    }

    /// The message's text and kind as the reader ends up with them.
    fn message_of(json: &str, subagent: bool) -> (&'static str, Option<Text>) {
        let line = Line::parse(json.as_bytes(), subagent, false).expect("the line parses");
        match line.message {
            Message::Absent => ("absent", None),
            Message::Raw(raw) => {
                ("raw", Some(Text::from_json_stripping(raw.get()).expect("the message parses")))
            }
            Message::Decoded(text) => ("decoded", Some(text)),
        }
    }

    #[test]
    fn a_user_message_is_decoded_in_place_when_its_type_came_first() {
        let message =
            r#"{"role":"user","content":"<ide_opened_file>a.rs</ide_opened_file> fix \"it\""}"#;
        let type_first = format!(r#"{{"type":"user","isSidechain":false,"message":{message}}}"#);
        let message_first = format!(r#"{{"message":{message},"isSidechain":false,"type":"user"}}"#);
        let (how, decoded) = message_of(&type_first, false);
        assert_eq!(how, "decoded");
        let (how, raw) = message_of(&message_first, false);
        assert_eq!(how, "raw");
        assert_eq!(decoded, raw);
        assert_eq!(
            decoded.map(|text| (text.value, text.stripped)),
            Some(("fix \"it\"".into(), true))
        );
        // Side chains and assistant replies are only scanned past.
        let side = format!(r#"{{"type":"user","isSidechain":true,"message":{message}}}"#);
        assert_eq!(message_of(&side, false).0, "raw");
        assert_eq!(message_of(&type_first, true).0, "raw");
        let reply = r#"{"type":"assistant","message":{"model":"m","content":[]}}"#;
        assert_eq!(message_of(reply, false).0, "raw");
        assert_eq!(message_of(r#"{"type":"user","message":null}"#, false).0, "decoded");
        assert_eq!(message_of(r#"{"type":"assistant","message":null}"#, false).0, "absent");
        // Fields keep their lenient reading, and a line that is not an object is an error.
        let odd = Line::parse(
            br#"{"type":7,"isMeta":"yes","cwd":"/w","extra":[1,{"a":2}]}"#,
            false,
            false,
        )
        .expect("odd values are skipped, not errors");
        assert_eq!((odd.kind.get(), odd.is_meta.0, odd.cwd.get()), (None, false, Some("/w")));
        assert!(Line::parse(b"[1, 2]", false, false).is_err());
        assert!(Line::parse(br#"{"type":"user","message":{"content":"x"}"#, false, false).is_err());
        assert!(Line::parse(br#"{"type":"user"} trailing"#, false, false).is_err());
    }

    #[test]
    fn uuid_keys_need_32_hex_digits() {
        assert_eq!(uuid_key("00000000-0000-0000-0000-00000000000a"), Some(10));
        assert_eq!(uuid_key("not-a-uuid"), None);
        assert_eq!(uuid_key("00000000-0000-0000-0000-00000000000a0"), None);
    }

    mod scanners_agree_with_serde {
        //! The byte scanners against serde on generated lines (`sessions::scan::arbitrary`):
        //! what a scan returns is serde's answer, and a line written as Claude Code writes
        //! it (no escape in the key or the id) is never left to the slow path.

        use proptest::prelude::*;

        use super::{quick_model, quick_session_id_bytes};
        use crate::sessions::scan::arbitrary::{self, Json};

        /// serde's top-level string at `key`, when the line is an object holding one.
        fn serde_string(line: &str, key: &str) -> Option<String> {
            let value: serde_json::Value = serde_json::from_str(line).expect("generated JSON");
            value.get(key)?.as_str().map(str::to_owned)
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2_000))]

            #[test]
            fn session_id((fields, line) in arbitrary::line("sessionId")) {
                let expected = serde_string(&line, "sessionId");
                let found = quick_session_id_bytes(line.as_bytes());
                if let Some(found) = found {
                    prop_assert_eq!(Some(found), expected.as_deref().map(str::as_bytes), "{}", line);
                }
                // Written plainly, with no escape in the id: found without parsing.
                let plain = fields.iter().any(|(key, value)| {
                    key.text == "sessionId"
                        && !key.escaped
                        && matches!(value, Json::Str(id) if !id.escaped
                            && !serde_json::to_string(&id.text).unwrap().contains('\\'))
                });
                if plain {
                    prop_assert!(found.is_some(), "{}", line);
                }
            }

            #[test]
            fn model((fields, line) in arbitrary::line("model")) {
                let expected = serde_string(&line, "model")
                    .filter(|model| !model.is_empty() && !model.starts_with("<synthetic>"));
                let found = quick_model(line.as_bytes());
                let plain_key = fields.iter().any(|(key, _)| key.text == "model" && !key.escaped);
                if found.is_some() || plain_key {
                    prop_assert_eq!(found.as_deref(), expected.as_deref(), "{}", line);
                }
            }
        }
    }

    mod the_copy_without_tool_output {
        //! `skim::without_tool_output` against the line itself: whenever the copy parses,
        //! the line parses to the same record, for every way the reader parses it.

        use proptest::prelude::*;

        use super::{Line, Message, Text, bash_calls, exit_statuses, quick_model, todo_write};
        use crate::sessions::skim::{Copy, without_output_from, without_tool_output};

        /// A parsed line as the reader uses it: a message kept raw by what is read from
        /// it (its text, tool results, model, to-do list and `Bash` calls).
        fn seen(mut line: Line) -> String {
            let derived = match std::mem::take(&mut line.message) {
                Message::Raw(raw) => format!(
                    "{:?} {:?} {:?} {:?} {:?}",
                    Text::from_json_stripping(raw.get()).ok(),
                    exit_statuses(raw),
                    quick_model(raw.get().as_bytes()),
                    todo_write(raw),
                    bash_calls(raw),
                ),
                other => format!("{other:?}"),
            };
            format!("{line:?} {derived}")
        }

        /// The line's parse as text, for each of the reader's four ways (sub-agent log or
        /// not, results awaited or not); and how many of them the copy stood in for.
        fn compare(line: &[u8]) -> Result<usize, String> {
            compare_from(line, without_tool_output(line))
        }

        /// [`compare`] with the copy given, used as the reader uses it.
        fn compare_from(line: &[u8], copy: Option<Copy>) -> Result<usize, String> {
            let Some(copy) = copy else { return Ok(0) };
            let mut used = 0;
            for (subagent, results) in [(false, false), (false, true), (true, false), (true, true)]
            {
                let from_line = Line::parse(line, subagent, results);
                let from_copy = Line::parse_copy(line, Some(&copy), subagent, results);
                let (from_copy, from_line) = match (from_copy, from_line) {
                    (Ok(from_copy), Ok(from_line)) => (from_copy, from_line),
                    (Err(copy), Err(line)) if copy.to_string() == line.to_string() => continue,
                    (from_copy, from_line) => {
                        return Err(format!(
                            "copy {:?}\nline {:?}",
                            from_copy.err(),
                            from_line.err()
                        ));
                    }
                };
                let (from_copy, from_line) = (seen(from_copy), seen(from_line));
                if from_copy != from_line {
                    return Err(format!("copy {from_copy}\nline {from_line}"));
                }
                used += 1;
            }
            Ok(used)
        }

        #[test]
        fn on_the_recorded_transcripts() {
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
            let mut files = vec![root];
            let (mut lines, mut used) = (0, 0);
            while let Some(path) = files.pop() {
                if path.is_dir() {
                    files.extend(
                        fs_err::read_dir(&path).unwrap().map(|entry| entry.unwrap().path()),
                    );
                } else if path.extension().is_some_and(|extension| extension == "jsonl") {
                    for line in fs_err::read(&path).unwrap().split(|byte| *byte == b'\n') {
                        lines += 1;
                        // Every output taken out, however short: the recordings' are.
                        let copy = without_output_from(line, 1);
                        used += compare_from(line, copy)
                            .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
                    }
                }
            }
            assert!(lines > 300, "{lines} lines");
            // The recordings' tool results were taken out: the test is not empty.
            assert!(used >= 8, "the copy stood in {used} times");
        }

        /// Tool output as tools write it: code with quotes, backslashes, escapes.
        fn output() -> impl Strategy<Value = String> {
            prop::collection::vec(
                prop_oneof![
                    Just("fn main() {\n    println!(\"hi\");\n}\n".to_owned()),
                    Just("C:\\path\\to\\file.rs:12: error\r\n".to_owned()),
                    Just("Exit code 2\nfailed".to_owned()),
                    Just("é — \u{1F600}\t".to_owned()),
                    "[a-z \\\\\"/]{0,40}",
                ],
                0..30,
            )
            .prop_map(|pieces| pieces.concat())
        }

        /// A content block's members in some order: the `type`, maybe an id, maybe
        /// `is_error`, and the content (text, a list of parts, or a number).
        fn block() -> impl Strategy<Value = String> {
            let kind = prop_oneof![
                4 => Just(r#""tool_result""#.to_owned()),
                1 => Just(r#""text""#.to_owned()),
                1 => Just(r#""tool\u005fresult""#.to_owned()),
            ];
            let error = prop_oneof![
                Just(None),
                Just(Some("false")),
                Just(Some("true")),
                Just(Some("\"true\"")),
                Just(Some("0")),
            ];
            let content = prop_oneof![
                4 => output().prop_map(|text| serde_json::to_string(&text).unwrap()),
                1 => output().prop_map(|text| format!(r#"[{{"type":"text","text":{}}}]"#, serde_json::to_string(&text).unwrap())),
                1 => Just("7".to_owned()),
            ];
            (
                kind,
                error,
                content,
                any::<bool>(),
                Just(()).prop_perturb(|(), mut rng| rng.random::<u64>()),
            )
                .prop_map(|(kind, error, content, id, order)| {
                    let mut members =
                        vec![format!(r#""type":{kind}"#), format!(r#""content":{content}"#)];
                    if id {
                        members.push(r#""tool_use_id":"toolu_1""#.to_owned());
                    }
                    if let Some(error) = error {
                        // Now and then spelled with an escape, which serde reads the same.
                        let key =
                            if order % 5 == 0 { r#""is_\u0065rror""# } else { r#""is_error""# };
                        members.push(format!("{key}:{error}"));
                    }
                    let len = members.len();
                    for index in 0..len {
                        members.swap(index, usize::from(order.to_le_bytes()[index % 8]) % len);
                    }
                    format!("{{{}}}", members.join(","))
                })
        }

        /// A transcript record: a user record (main chain or side chain) with content
        /// blocks, its `type` before or after its `message`.
        fn record() -> impl Strategy<Value = String> {
            let again = prop_oneof![
                Just(String::new()),
                output().prop_map(|text| format!(
                    r#","toolUseResult":{}"#,
                    serde_json::to_string(&text).unwrap()
                )),
                output().prop_map(|text| format!(
                    r#","toolUseResult":{{"stdout":{},"interrupted":false,"n":[1.5e3,null]}}"#,
                    serde_json::to_string(&text).unwrap()
                )),
            ];
            (prop::collection::vec(block(), 0..4), any::<bool>(), any::<bool>(), any::<bool>(), again)
                .prop_map(|(blocks, type_first, side_chain, spaced, again)| {
                    let message = format!(r#"{{"role":"user","content":[{}]}}"#, blocks.join(","));
                    let head = format!(r#""isSidechain":{side_chain},"sessionId":"s1"{again}"#);
                    let line = if type_first {
                        format!(r#"{{{head},"type":"user","message":{message},"uuid":"00000000-0000-0000-0000-00000000000a","timestamp":"2026-11-27T01:00:00Z"}}"#)
                    } else {
                        format!(r#"{{{head},"message":{message},"type":"user","timestamp":"2026-11-27T01:00:00Z"}}"#)
                    };
                    if spaced { line.replace(r#"":"#, r#"" : "#).replace(",\"", " , \"") } else { line }
                })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(1_500))]

            #[test]
            fn on_generated_records(line in record()) {
                compare(line.as_bytes()).map_err(TestCaseError::fail)?;
            }

            /// With one byte changed anywhere, the copy never parses where the line does
            /// not, nor to another record.
            #[test]
            fn on_damaged_records(line in record(), at in any::<prop::sample::Index>(), byte in prop_oneof![Just(b'"'), Just(b'\\'), Just(0x01_u8), Just(b'}'), Just(b'u'), Just(b' ')]) {
                let mut bytes = line.into_bytes();
                let index = at.index(bytes.len());
                bytes[index] = byte;
                compare(&bytes).map_err(TestCaseError::fail)?;
            }
        }
    }
}
