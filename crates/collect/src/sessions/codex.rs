//! OpenAI Codex CLI: `<home>/sessions/YYYY/MM/DD/rollout-*.jsonl`, the same under
//! `archived_sessions/` (dated or flat), and the thread names of
//! `<home>/session_index.jsonl`.
//!
//! - Each line is `{timestamp, type, payload}`. The first `session_meta` is canonical:
//!   a resumed file can hold several, and the later ones are ignored.
//! - Prompts are the `event_msg` records of type `user_message` (the text the user
//!   typed); the user messages among the `response_item` records also carry injected
//!   context (environment, instructions) and are never counted. Old `user_message`
//!   events marked with a `kind` other than `plain`, and texts that are an injected
//!   `<environment_context>` or `<user_instructions>` block, are skipped too.
//! - The working directory is the one in force at the session's latest record: the
//!   first `session_meta`'s `cwd`, changed by each `turn_context` that names another.
//! - Models: the `model` of each `turn_context` in the window, each once.
//! - Title: the session's latest `session_index.jsonl` entry (by `updated_at`, the later
//!   line on a tie), else the first prompt.
//! - The dates in folder and file names are local time and are not used: events are
//!   placed by the records' UTC timestamps, and files are skipped by modification time
//!   only, because a resumed session keeps appending to the file of the day it started.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use report_model::Agent;
use serde::Deserialize;

use super::jsonl::{self, Stats};
use super::lenient::{LStr, Text};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, config_path};
use crate::{Env, SourceStatus};

/// How deep rollouts are looked for under `sessions/` and `archived_sessions/`
/// (`YYYY/MM/DD/file` is 4).
const MAX_DEPTH: usize = 4;

/// Injected context that old versions wrote as user messages.
const INJECTED_PREFIXES: &[&str] = &["<environment_context>", "<user_instructions>"];

/// The fields of a rollout line that the reader uses.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Line<'a> {
    #[serde(borrow)]
    timestamp: LStr<'a>,
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    #[serde(borrow)]
    payload: Payload<'a>,
}

/// The fields of a rollout line's payload that the reader uses.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Payload<'a> {
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    #[serde(borrow)]
    id: LStr<'a>,
    #[serde(borrow)]
    cwd: LStr<'a>,
    /// The model of a `turn_context`.
    #[serde(borrow)]
    model: LStr<'a>,
    message: Text,
    /// Old versions marked injected user messages with a kind.
    #[serde(rename = "kind", borrow)]
    message_kind: LStr<'a>,
    /// `session_meta`'s git details, decoded only there (and leniently).
    #[serde(borrow)]
    git: Option<&'a serde_json::value::RawValue>,
}

/// The part of `session_meta.payload.git` the reader uses.
#[derive(Deserialize, Default)]
#[serde(default)]
struct GitMeta<'a> {
    #[serde(borrow)]
    branch: LStr<'a>,
}

/// A line of `session_index.jsonl`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct IndexLine<'a> {
    #[serde(borrow)]
    id: LStr<'a>,
    #[serde(borrow)]
    thread_name: LStr<'a>,
    #[serde(borrow)]
    updated_at: LStr<'a>,
}

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let home = match (&config.codex_home, env.var("CODEX_HOME")) {
        (Some(home), _) => config_path(env, home),
        (None, Some(home)) => config_path(env, Path::new(home)),
        (None, None) => env.home.join(".codex"),
    };
    let mut status = SourceStatus {
        locations: vec![home.clone()],
        ..SourceStatus::new(report_model::Source::Codex)
    };
    let mut drafts = Drafts::new();
    if !home.is_dir() {
        return (drafts, status);
    }
    status.found = true;
    let mut counts = Stats::default();
    let names = read_index(ctx, &mut counts, &home.join("session_index.jsonl"));
    let mut rollouts = Rollouts::default();
    for folder in ["sessions", "archived_sessions"] {
        collect_rollouts(ctx, &home.join(folder), MAX_DEPTH, &mut rollouts);
    }
    status.files = rollouts.count;
    for path in &rollouts.fresh {
        if let Some(mut session) = read_rollout(ctx, &mut counts, path) {
            if let Some(name) = names.get(&session.session_id) {
                session.title = Some(name.clone());
            }
            add_draft(&mut drafts, session);
        }
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// Thread names by session id: the entry with the latest `updated_at` wins, the later
/// line on a tie.
fn read_index(ctx: &mut Ctx, stats: &mut Stats, path: &Path) -> HashMap<String, String> {
    let mut latest: HashMap<String, (Option<Timestamp>, String)> = HashMap::new();
    // A FIFO or a device here is refused by the reader, with a warning.
    jsonl::read_lines(ctx, stats, path, |bytes| {
        let line: IndexLine = serde_json::from_slice(bytes)?;
        let (Some(id), Some(name)) = (line.id.get(), line.thread_name.get()) else {
            return Ok(());
        };
        let updated = line.updated_at.timestamp();
        match latest.get_mut(id) {
            Some(entry) if updated < entry.0 => {}
            Some(entry) => *entry = (updated, name.to_owned()),
            None => {
                latest.insert(id.to_owned(), (updated, name.to_owned()));
            }
        }
        Ok(())
    });
    latest.into_iter().map(|(id, (_, name))| (id, name)).collect()
}

/// The rollouts found: how many, and the paths of those modified since the window began.
#[derive(Default)]
struct Rollouts {
    count: u64,
    fresh: Vec<PathBuf>,
}

/// The `rollout-*.jsonl` files under a folder, sorted, down to `depth` levels: each is
/// counted, and kept when it was modified since the window began. The types come from
/// the listings and the times from a `stat` relative to each open folder, so a file
/// costs one short `stat` (a folder of days holds every rollout ever made), and an old
/// one nothing more: its name is told from the listing's bytes.
fn collect_rollouts(ctx: &mut Ctx, folder: &Path, depth: usize, found: &mut Rollouts) {
    if depth == 0 {
        return;
    }
    let mut listed = super::list_fresh(folder, ctx.since).unwrap_or_else(|error| {
        ctx.fail(error);
        super::Fresh::default()
    });
    if let Some(error) = listed.broken.take() {
        ctx.fail(error);
    }
    for (name, kind, fresh) in listed.iter() {
        if super::is_folder(kind, || folder.join(name)) {
            collect_rollouts(ctx, &folder.join(name), depth - 1, found);
        } else if is_rollout_name(name.as_encoded_bytes()) {
            found.count += 1;
            if fresh {
                found.fresh.push(folder.join(name));
            }
        }
    }
}

/// Whether a file name is a rollout's, `rollout-….jsonl`: what `has_extension` and
/// `name_starts_with` say of its path, told from the bytes.
pub(super) fn is_rollout_name(name: &[u8]) -> bool {
    name.starts_with(b"rollout-") && name.ends_with(b".jsonl")
}

/// Reads one rollout file into a session.
fn read_rollout(ctx: &mut Ctx, stats: &mut Stats, path: &Path) -> Option<Draft> {
    let since = ctx.since;
    let mut session_id: Option<String> = None;
    let mut meta_seen = false;
    let mut cwd: Option<String> = None;
    let mut session = Draft::new(Agent::Codex, "");
    jsonl::read_lines(ctx, stats, path, |bytes| {
        let line: Line = serde_json::from_slice(bytes)?;
        let payload = line.payload;
        match line.kind.0.as_deref() {
            Some("session_meta") if !meta_seen => {
                meta_seen = true;
                session_id = payload.id.into_owned();
                cwd = payload.cwd.into_owned().or(cwd.take());
                session.branch = payload
                    .git
                    .and_then(|raw| serde_json::from_str::<GitMeta>(raw.get()).ok())
                    .and_then(|git| git.branch.into_owned());
            }
            Some("turn_context") => {
                if let Some(new) = payload.cwd.get() {
                    if cwd.as_deref() != Some(new) {
                        cwd = Some(new.to_owned());
                    }
                }
                // A turn of the window names the model it ran on.
                if let Some(model) = payload.model.get() {
                    if line.timestamp.timestamp().is_some_and(|time| time >= since) {
                        session.note_model(model);
                    }
                }
            }
            _ => {}
        }
        let Some(time) = line.timestamp.timestamp() else { return Ok(()) };
        if time >= since {
            session.activity.push(time);
        }
        let is_prompt = line.kind.is("event_msg")
            && payload.kind.is("user_message")
            && payload.message_kind.get().is_none_or(|kind| kind == "plain")
            && !INJECTED_PREFIXES.iter().any(|prefix| payload.message.value.starts_with(prefix));
        if is_prompt {
            if time >= since {
                session.prompts.push(time);
            }
            session.note_prompt_text(time, &payload.message.value);
        }
        Ok(())
    });
    // Without a `session_meta`, the id is the UUID that ends the file name.
    session.session_id = session_id.or_else(|| id_from_file_name(path))?;
    session.cwd = cwd.map(PathBuf::from);
    Some(session)
}

/// The UUID at the end of `rollout-<local time>-<uuid>.jsonl`.
fn id_from_file_name(path: &Path) -> Option<String> {
    let stem = super::file_stem(path)?;
    let start = stem.len().checked_sub(36)?;
    let id = stem.get(start..)?;
    (id.bytes().filter(|byte| *byte == b'-').count() == 4).then(|| id.to_owned())
}
