//! Mistral Vibe: one folder per session below `<home>/logs/session/unified/`, where the
//! home is the config's `vibe_home`, else `$VIBE_HOME`, else `~/.vibe`.
//!
//! Verified in `mistral-vibe` 3.0.3 (its PyPI wheel: `core/skills/builtins/vibe.py` for
//! the folders, `core/tools/builtins/todo.py` and `bash.py` for the tools) and in the
//! store it wrote against the stand-in (`vibe --auto-approve -p`,
//! `fixtures/agents/vibe/3.0.3/`), format `mistral.vibe.unified-session-store/v1`:
//!
//! - `meta.json`: `session_id`, `parent_session_id` (a sub-agent's session names the
//!   session that started it), `title` (null until one is generated or set),
//!   `environment.working_directory`, `config.model_name`.
//! - The conversation is a list of entries, each with an `id`, a `type`, `createdAt` and
//!   `updatedAt` (epoch milliseconds): `message` entries (`role`, `source`, `content`
//!   parts) and `effect` entries (a tool's run: `detail.toolName`, `detail.input`,
//!   `state.output`). The store keeps them as a snapshot plus a journal: `CURRENT` names
//!   the current generation, whose `manifest.json` lists the content-addressed
//!   `chunks/<sha256>.json` of its `projection_state` (the entries, as JSON arrays) and
//!   the `journal/<sequence>.jsonl` segment written since; a journal record's
//!   `payload.delta` holds `append_entry` and `replace_entry` operations. The reader takes
//!   the snapshot's entries and then the segment's, the newer `updatedAt` of one `id`
//!   winning. A session without a readable `CURRENT` is read from all its journals.
//! - Prompts are `message` entries of `role: "user"` and `source: "turn_start"` (what was
//!   typed to start a turn). Times are the entries' `createdAt`.
//! - To-do list: the newest `vibe.todo` effect with `input.action: "write"`, its
//!   `input.todos` (`content`, `status`: `pending`, `in_progress`, `completed`,
//!   `cancelled`).
//! - Failed commands: a completed `*.bash` effect (`file_system.bash`): `input.command`
//!   and `state.output.structured_content.returncode`.
//! - A sub-agent's session is activity of its parent's, never prompts.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use report_model::Agent;
use serde::Deserialize;
use serde_json::Value;

use super::jsonl::{self, Stats};
use super::lenient::{NotATime, Text};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, agent_home, config_path};
use crate::{Env, SourceStatus};

/// `meta.json` of a session.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Meta {
    session_id: Option<String>,
    parent_session_id: Option<String>,
    title: Option<String>,
    environment: Environment,
    config: MetaConfig,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Environment {
    working_directory: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct MetaConfig {
    model_name: Option<String>,
}

/// `CURRENT`: the generation whose snapshot is the session's state.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Current {
    generation: Option<String>,
}

/// A generation's `manifest.json`: where its entries and the journal written since are.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Manifest {
    projection_state: Chunks,
    recovery_journal_segment: Segment,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Chunks {
    chunks: Vec<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Segment {
    path: Option<String>,
}

/// One journal record: only its entry operations are read.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Record {
    payload: Payload,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Payload {
    delta: Vec<Value>,
}

/// Manifests, `CURRENT` and `meta.json` are a few kilobytes; anything near this is not
/// Vibe's.
const SMALL_MAX: u64 = 1 << 20;

/// The conversation's entries by id: the newest version of each.
type Entries = HashMap<String, Value>;

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let home: PathBuf = agent_home(env, config, Agent::Vibe, || {
        env.var("VIBE_HOME")
            .filter(|dir| !dir.is_empty())
            .map_or_else(|| env.home.join(".vibe"), |dir| config_path(env, Path::new(dir)))
    });
    let root = home.join("logs").join("session").join("unified");
    let mut status = SourceStatus {
        locations: vec![root.clone()],
        ..SourceStatus::new(report_model::Source::Vibe)
    };
    let mut drafts = Drafts::new();
    let folders = ctx.list_dir_typed(&root);
    status.found = !folders.is_empty() || root.is_dir();
    let mut counts = Stats::default();
    for (folder, kind) in folders {
        let meta_path = folder.join("meta.json");
        if !kind.is_dir() {
            continue;
        }
        let Some(meta_fresh) = ctx.freshness(&meta_path) else { continue };
        status.files += 1;
        let journals: Vec<PathBuf> = ctx
            .list_dir_typed(&folder.join("journal"))
            .into_iter()
            .filter(|(path, kind)| kind.is_file() && super::has_extension(path, "jsonl"))
            .map(|(path, _)| path)
            .collect();
        let fresh = meta_fresh || journals.iter().any(|journal| ctx.modified_since(journal));
        if !fresh {
            continue;
        }
        let Some(meta) = jsonl::read_document::<Meta>(ctx, &mut counts, &meta_path, SMALL_MAX)
        else {
            continue;
        };
        let Some(id) = meta.session_id.clone().or_else(|| super::file_name(&folder)) else {
            continue;
        };
        let entries = read_entries(ctx, &mut counts, &folder, &journals);
        let mut times = jsonl::BadTimes::default();
        let draft = session((ctx.since, &mut times), &id, &meta, &entries);
        // The entries come from several files (chunks, journals): the warning names the
        // session's folder.
        times.report(ctx, &mut counts, &folder);
        add_draft(&mut drafts, draft);
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// The draft of one session from its meta and entries: a sub-agent's session is only
/// activity, under its parent's id. An entry whose `createdAt` is no time is counted in
/// `times`.
fn session(
    (since, times): (Timestamp, &mut jsonl::BadTimes),
    id: &str,
    meta: &Meta,
    entries: &Entries,
) -> Draft {
    let parent = meta.parent_session_id.as_deref().filter(|parent| !parent.is_empty());
    let mut draft = Draft::new(Agent::Vibe, parent.unwrap_or(id));
    let mut ordered: Vec<(Timestamp, &str, &Value)> = entries
        .iter()
        .filter_map(|(id, entry)| {
            let created = entry.get("createdAt").filter(|value| !value.is_null());
            let time = times.check(None, created.map_or(Ok(None), millis));
            Some((time?, id.as_str(), entry))
        })
        .filter(|(time, _, _)| *time >= since)
        .collect();
    ordered.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    for (time, _, entry) in ordered {
        draft.activity.push(time);
        if parent.is_some() {
            continue;
        }
        match entry.get("type").and_then(Value::as_str) {
            Some("message") => {
                let typed = entry.get("role").and_then(Value::as_str) == Some("user")
                    && entry.get("source").and_then(Value::as_str) == Some("turn_start");
                if typed {
                    let text: Text = entry
                        .get("content")
                        .and_then(|content| Text::deserialize(content).ok())
                        .unwrap_or_default();
                    draft.prompts.push(time);
                    draft.note_prompt_text(time, text.value.trim());
                }
            }
            Some("effect") => effect(&mut draft, time, entry),
            _ => {}
        }
    }
    if draft.activity.is_empty() || parent.is_some() {
        return draft;
    }
    if let Some(model) = meta.config.model_name.as_deref() {
        draft.note_model(model);
    }
    draft.title = meta.title.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned);
    draft.cwd = meta
        .environment
        .working_directory
        .as_deref()
        .filter(|dir| dir.starts_with('/'))
        .map(PathBuf::from);
    draft
}

/// A tool's run: the to-do tool's list, the shell tool's command and exit status.
fn effect(draft: &mut Draft, time: Timestamp, entry: &Value) {
    let Some(detail) = entry.get("detail") else { return };
    let tool = detail.get("toolName").and_then(Value::as_str).unwrap_or_default();
    let input = detail.get("input");
    let field = |name: &str| input.and_then(|input| input.get(name));
    if tool == "vibe.todo" && field("action").and_then(Value::as_str) == Some("write") {
        let todos = field("todos")
            .and_then(|todos| serde_json::value::to_raw_value(todos).ok())
            .and_then(|raw| super::todo_list(&raw));
        if let Some(todos) = todos {
            draft.note_todos(time, todos);
        }
    } else if tool.rsplit('.').next() == Some("bash") {
        let state = entry.get("state");
        let completed = state.and_then(|state| state.get("status")).and_then(Value::as_str)
            == Some("completed");
        let exit = state
            .and_then(|state| state.pointer("/output/structured_content"))
            .and_then(|out| out.get("returncode").or_else(|| out.get("exit_code")))
            .and_then(Value::as_i64);
        let command = field("command").and_then(Value::as_str);
        if let (true, Some(exit), Some(command)) = (completed, exit, command) {
            draft.note_command(time, command, exit);
        }
    }
}

/// An epoch-milliseconds number as a time; [`NotATime`] for anything else.
fn millis(value: &Value) -> Result<Option<Timestamp>, NotATime> {
    let time = value.as_i64().and_then(|millis| Timestamp::from_millisecond(millis).ok());
    time.map(Some).ok_or(NotATime("createdAt"))
}

/// The session's entries: the current generation's snapshot, then the journal segment
/// written since (all journals when there is no readable generation), the newer
/// `updatedAt` of one id winning.
fn read_entries(ctx: &mut Ctx, counts: &mut Stats, folder: &Path, journals: &[PathBuf]) -> Entries {
    let mut entries = Entries::new();
    let manifest = current_manifest(ctx, counts, folder);
    let segments: Vec<PathBuf> = match &manifest {
        Some(manifest) => {
            for chunk in &manifest.projection_state.chunks {
                if !chunk.chars().all(|c| c.is_ascii_hexdigit()) {
                    continue;
                }
                let path = folder.join("chunks").join(format!("{chunk}.json"));
                let listed: Option<Vec<Value>> =
                    jsonl::read_document(ctx, counts, &path, crate::fsread::DOCUMENT_MAX);
                for entry in listed.into_iter().flatten() {
                    upsert(&mut entries, entry);
                }
            }
            let segment = manifest.recovery_journal_segment.path.as_deref();
            segment
                .filter(|path| !path.starts_with('/') && !path.contains(".."))
                .map(|path| folder.join(path))
                .into_iter()
                .collect()
        }
        None => journals.to_vec(),
    };
    for journal in segments {
        jsonl::read_lines(ctx, counts, &journal, |bytes| {
            // Most records (the model's whole input, each step) hold no entry.
            if memchr::memmem::find(bytes, b"_entry\"").is_none() {
                return Ok(());
            }
            let record: Record = serde_json::from_slice(bytes)?;
            for delta in record.payload.delta {
                let op = delta.get("op").and_then(Value::as_str);
                if matches!(op, Some("append_entry" | "replace_entry")) {
                    if let Some(entry) = delta.get("entry") {
                        upsert(&mut entries, entry.clone());
                    }
                }
            }
            Ok(())
        });
    }
    entries
}

/// The manifest of the generation `CURRENT` names, if both can be read.
fn current_manifest(ctx: &mut Ctx, counts: &mut Stats, folder: &Path) -> Option<Manifest> {
    let current: Current = jsonl::read_document(ctx, counts, &folder.join("CURRENT"), SMALL_MAX)?;
    let generation = current.generation.filter(|g| g.chars().all(|c| c.is_ascii_digit()))?;
    let path = folder.join("generations").join(generation).join("manifest.json");
    jsonl::read_document(ctx, counts, &path, SMALL_MAX)
}

/// Keeps an entry unless a newer version of its id is kept already.
fn upsert(entries: &mut Entries, entry: Value) {
    let Some(id) = entry.get("id").and_then(Value::as_str).map(str::to_owned) else { return };
    let updated = |entry: &Value| entry.get("updatedAt").and_then(Value::as_i64);
    let newer = entries.get(&id).is_none_or(|kept| updated(&entry) >= updated(kept));
    if newer {
        entries.insert(id, entry);
    }
}
