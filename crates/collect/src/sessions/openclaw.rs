//! OpenClaw: every agent keeps its sessions in one SQLite database of its own,
//! `<state>/agents/<agent id>/agent/openclaw-agent.sqlite`, where `<state>` is the
//! config's `openclaw_home`, else `$OPENCLAW_STATE_DIR` (`~` expanded), else
//! `<home>/.openclaw-<profile>` for a `$OPENCLAW_PROFILE` other than `default`, else
//! `<home>/.openclaw` (or the older `<home>/.clawdbot` when only that exists), `<home>`
//! being `$OPENCLAW_HOME` or the home folder (the bundle's `resolveStateDir` and
//! `resolveOpenClawHome`).
//!
//! Verified in `openclaw` 2026.9.6 (npm; its bundle and the database it wrote against the
//! stand-in, `openclaw agent --local`, `fixtures/agents/openclaw/2026.9.6/`):
//!
//! - `schema_meta`: the `app_version` of the OpenClaw that wrote the schema (row
//!   `primary`), noted as the version `doctor` shows.
//! - `session_windows`: one row per session (`session_id`, a UUID; `session_key`, the
//!   conversation it belongs to, such as `agent:main:main`, which a reset or a rollover
//!   moves to a new session; `updated_at`, `transcript_updated_at`, epoch milliseconds;
//!   `display_name`). `session_nodes` (by `session_key`) has the conversation's `label`
//!   and `display_name`.
//! - `transcript_events`: the session's entries by `(session_id, seq)`, each pi's entry
//!   (see [`super::pi`]: a `session` header with `cwd`, `message`, `model_change`, …)
//!   as JSON text in `event_json`, or, from 1,024 bytes when the database is UTF-8, as a
//!   zstd frame in `event_zstd` (`prepareTranscriptPayload`); `created_at` is when the
//!   row was written (epoch milliseconds).
//! - A user message carries `__openclaw.senderIsOwner`: `true` for the owner (the
//!   person, at the terminal or on a chat channel), `false` for someone else writing on
//!   a channel; the prompts are the owner's (where it is not said, a message with no
//!   `provenance`, that is one not handed over from elsewhere). Others' messages are
//!   activity.
//! - Its shell tool is `exec` (`arguments.command`); the result's `details.exitCode` is
//!   the exit status (`null` while the command runs on or when a signal ended it).
//!
//! So: the sessions are those with `updated_at` or `transcript_updated_at` in the window;
//! each one's first entry (its header) and those written from ten minutes before the
//! window are read (an entry is written a moment after its own time), and placed by
//! their own times as pi's are. The first row written since is found by halving on `seq`
//! through the primary key (rows are appended in order), so a conversation of months
//! costs a few row reads, not a scan of its transcript. The title is the
//! session's or its conversation's name, else the first prompt read. An event that is not
//! valid JSON is skipped and counted as a malformed line of the database (its line is the
//! event's `seq` + 1).
//!
//! Releases before the database of transcripts (2026.6.11, recorded in
//! `fixtures/agents/openclaw/2026.6.11/`) kept each session's entries in
//! `agents/<id>/sessions/<session id>.jsonl`, pi's files (`<id>.trajectory.jsonl` beside
//! each is a trace of the run's requests, not read), with the `sessions.json` store; the
//! ones modified in the window are read the same way, but a session the database holds
//! too (its transcript moved there on the day) is read once, from the database.
//!
//! An agent folder moved by the config (`agents.list[].agentDir` in `openclaw.json`) or
//! by `$OPENCLAW_AGENT_DIR` does not move its sessions: 2026.9.6 resolves the database
//! from the state folder and the agent's id alone (`resolveOpenClawAgentSqlitePath`),
//! whatever its own docs say of `<agentDir>/openclaw-agent.sqlite`, so the config is not
//! read (recorded: `fixtures/openclaw-agentdir/2026.9.6/`, where neither moved folder was
//! even made).
//!
//! Not read: the transcripts archived after a reset or a deletion
//! (`session_transcript_archives`), and which sessions are sub-agents' (read as sessions
//! of their own).

use std::collections::BTreeSet;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use jiff::{SignedDuration, Timestamp};
use report_model::Agent;
use rusqlite::{Connection, OptionalExtension as _, params};

use super::jsonl::{self, BadTimes, LineError, Malformed, Stats};
use super::lenient::NotATime;
use super::pi::{Entries, Flavor, read_entries_file};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, agent_home, config_path};
use crate::sqlite::Failure;
use crate::{Env, SourceStatus};

/// The database of an agent, in its folder under `agents/`.
const DATABASE: &str = "agent/openclaw-agent.sqlite";

/// How long before the window the entries are read: a row is written a moment after the
/// entry's own time.
const WRITE_SLACK: SignedDuration = SignedDuration::from_mins(10);

/// The largest event OpenClaw compresses (`event_utf8_bytes` is at most 4 MiB).
const MAX_EVENT: u64 = 4 * 1024 * 1024;

/// One session of the window, as read from the database.
struct SessionRead {
    id: String,
    title: Option<String>,
    /// The entries read: `seq`, the JSON (`None`: a compressed one that would not
    /// decompress).
    events: Vec<(i64, Option<Vec<u8>>)>,
}

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let state: PathBuf = agent_home(env, config, Agent::OpenClaw, || state_dir(env));
    let agents = state.join("agents");
    let mut status = SourceStatus {
        locations: vec![agents.clone()],
        ..SourceStatus::new(report_model::Source::OpenClaw)
    };
    let mut drafts = Drafts::new();
    if !agents.is_dir() {
        status.found = state.is_dir();
        return (drafts, status);
    }
    status.found = true;
    let mut counts = Stats::default();
    for (folder, kind) in ctx.list_dir_typed(&agents) {
        if !(kind.is_dir() || (kind.is_symlink() && folder.is_dir())) {
            continue;
        }
        let from_database = read_database(ctx, &folder.join(DATABASE), &mut status, &mut counts);
        let read: BTreeSet<String> =
            from_database.iter().map(|draft| draft.session_id.clone()).collect();
        for draft in from_database {
            add_draft(&mut drafts, draft);
        }
        let folder = folder.join("sessions");
        read_files(ctx, &folder, &read, (&mut status, &mut counts), &mut drafts);
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// The sessions of the window in one agent's database at `path` (none when it is not
/// there, was not written in the window, or cannot be read: a warning then).
fn read_database(
    ctx: &mut Ctx,
    path: &Path,
    status: &mut SourceStatus,
    counts: &mut Stats,
) -> Vec<Draft> {
    let mut drafts = Vec::new();
    let since = ctx.since;
    let folder = path.parent().unwrap_or(path);
    let Some((version, sessions)) =
        ctx.read_database(status, (path, folder), |conn| query(conn, since))
    else {
        return drafts;
    };
    if let Some(version) = version {
        status.note_version(&version);
    }
    let mut malformed = Malformed::default();
    let mut times = BadTimes::default();
    for session in sessions {
        let mut draft = Draft::new(Agent::OpenClaw, &session.id);
        draft.title = session.title;
        let mut entries = Entries::new(draft, Flavor::OpenClaw);
        for (seq, json) in session.events {
            let line = u64::try_from(seq).unwrap_or(0).saturating_add(1);
            match json.map(|json| entries.entry(&json, since, status)) {
                Some(Ok(())) => {}
                Some(Err(LineError::NotATime(NotATime(key)))) => times.count(Some(line), key),
                None | Some(Err(LineError::Malformed)) => malformed.count(line),
            }
        }
        drafts.push(entries.session);
    }
    jsonl::report_skipped(ctx, counts, path, malformed, times);
    drafts
}

/// The transcripts an agent's `sessions/` folder holds in the releases before the
/// database (`<session id>.jsonl`, pi's files; `<id>.trajectory.jsonl` beside each is a
/// trace of the run, not a transcript): those modified in the window are read, but for a
/// session already read from the database (moved there on the day).
fn read_files(
    ctx: &mut Ctx,
    folder: &Path,
    read: &BTreeSet<String>,
    (status, counts): (&mut SourceStatus, &mut Stats),
    drafts: &mut Drafts,
) {
    let listed = super::list_fresh_warned(ctx, folder);
    for (name, kind, fresh) in listed.iter() {
        let Some(stem) = super::jsonl_stem(Path::new(name)) else { continue };
        if stem.contains('.') || super::is_folder(kind, || folder.join(name)) {
            continue;
        }
        status.files += 1;
        if fresh && !read.contains(&stem) {
            let session = Draft::new(Agent::OpenClaw, &stem);
            let path = folder.join(name);
            let session = read_entries_file(ctx, counts, &path, session, Flavor::OpenClaw, status);
            add_draft(drafts, session);
        }
    }
}

/// OpenClaw's state folder (see the module doc).
fn state_dir(env: &Env) -> PathBuf {
    let home = set_value(env.var("OPENCLAW_HOME"))
        .map_or_else(|| env.home.clone(), |home| config_path(env, Path::new(home)));
    if let Some(state) = set_value(env.var("OPENCLAW_STATE_DIR")) {
        let state = match state.strip_prefix('~') {
            Some(rest) if rest.is_empty() || rest.starts_with('/') => {
                home.join(rest.trim_start_matches('/'))
            }
            _ => PathBuf::from(state),
        };
        return state;
    }
    if let Some(profile) = set_value(env.var("OPENCLAW_PROFILE"))
        .filter(|profile| !profile.eq_ignore_ascii_case("default"))
    {
        return home.join(format!(".openclaw-{profile}"));
    }
    let current = home.join(".openclaw");
    let legacy = home.join(".clawdbot");
    if !current.exists() && legacy.exists() { legacy } else { current }
}

/// A variable's value, trimmed, when not blank (as OpenClaw reads its own).
fn set_value(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|value| !value.is_empty())
}

/// The version of OpenClaw that last wrote the database's schema (`schema_meta`'s
/// `app_version`), and the sessions of the window with their names and entries (see the
/// module doc).
fn query(
    conn: &Connection,
    since: Timestamp,
) -> Result<(Option<String>, Vec<SessionRead>), Failure> {
    // A database without the table (older, or not OpenClaw's) tells no version.
    let version = conn
        .query_row("SELECT app_version FROM schema_meta WHERE meta_key = 'primary'", [], |row| {
            row.get::<_, Option<String>>(0)
        })
        .ok()
        .flatten()
        .filter(|version| !version.trim().is_empty());
    let window = since.as_millisecond();
    let from = since.checked_sub(WRITE_SLACK).unwrap_or(since).as_millisecond();
    let mut sessions: Vec<SessionRead> = conn
        .prepare(
            "SELECT w.session_id, coalesce(w.display_name, n.display_name, n.label)
             FROM session_windows w LEFT JOIN session_nodes n ON n.session_key = w.session_key
             WHERE w.updated_at >= ?1 OR w.transcript_updated_at >= ?1
             ORDER BY w.session_id",
        )?
        .query_map(params![window], |row| {
            Ok(SessionRead { id: row.get(0)?, title: row.get(1)?, events: Vec::new() })
        })?
        .collect::<Result<_, _>>()?;
    let mut events = conn.prepare(
        "SELECT seq, event_json, event_zstd FROM transcript_events
         WHERE session_id = ?1
           AND (seq = (SELECT min(seq) FROM transcript_events WHERE session_id = ?1)
                OR seq >= ?2)
         ORDER BY seq",
    )?;
    for session in &mut sessions {
        let first = first_written_from(conn, &session.id, from)?;
        session.events = events
            .query_map(params![session.id, first], |row| {
                let seq: i64 = row.get(0)?;
                let json: Option<String> = row.get(1)?;
                let json = match json {
                    Some(json) => Some(json.into_bytes()),
                    None => row.get::<_, Option<Vec<u8>>>(2)?.and_then(|frame| decompress(&frame)),
                };
                Ok((seq, json))
            })?
            .collect::<Result<_, _>>()?;
    }
    Ok((version, sessions))
}

/// The least `seq` from which every row of session `id` was written at or after `from`
/// (epoch milliseconds): found by halving on `seq`, a row read per step through the
/// primary key, since a transcript's rows are written in order (`seq` counts them as
/// they are appended, `created_at` is when), so the rows before the window are never
/// read. One past the last row when none was written since `from`.
fn first_written_from(conn: &Connection, id: &str, from: i64) -> Result<i64, Failure> {
    let (least, most): (Option<i64>, Option<i64>) = conn.query_row(
        "SELECT min(seq), max(seq) FROM transcript_events WHERE session_id = ?1",
        params![id],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )?;
    let (Some(mut low), Some(most)) = (least, most) else { return Ok(0) };
    let mut high = most.saturating_add(1);
    let mut probe = conn.prepare_cached(
        "SELECT seq, created_at FROM transcript_events
         WHERE session_id = ?1 AND seq >= ?2 ORDER BY seq LIMIT 1",
    )?;
    // The answer stays in `low..=high`: rows below `low` were written before `from`,
    // rows from `high` on at or after it.
    while low < high {
        let middle = low + (high - low) / 2;
        let row: Option<(i64, i64)> = probe
            .query_row(params![id, middle], |row| Ok((row.get(0)?, row.get(1)?)))
            .optional()?;
        match row {
            Some((seq, written)) if written < from => low = seq.saturating_add(1),
            // Written since, or no row from `middle` on: nothing in `middle..seq` exists.
            _ => high = middle,
        }
    }
    Ok(low)
}

/// The event a zstd frame holds, up to [`MAX_EVENT`] bytes; `None` when it is not a
/// frame, or holds more.
fn decompress(frame: &[u8]) -> Option<Vec<u8>> {
    let decoder = ruzstd::StreamingDecoder::new(frame).ok()?;
    let mut json = Vec::new();
    decoder.take(MAX_EVENT + 1).read_to_end(&mut json).ok()?;
    (json.len() as u64 <= MAX_EVENT).then_some(json)
}
