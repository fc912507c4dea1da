//! Gemini CLI: `<home>/tmp/<project-id>/chats/session-*.jsonl`, legacy
//! `session-*.json` files, and sub-agent chats under `chats/<parent-session-id>/`.
//!
//! - A `.jsonl` chat starts with a metadata record (`sessionId`, `startTime`, …), then
//!   messages (`id`, `timestamp`, `type`, `content`). A message written again with the
//!   same `id` replaces the earlier one in place. `{"$set": {…}}` updates the metadata
//!   (a `summary` becomes the title; a `messages` list replaces the messages), and
//!   `{"$rewindTo": "<id>"}` drops that message and all after it (all of them when the
//!   id is unknown, as Gemini CLI does): dropped messages are neither prompts nor
//!   activity.
//! - A legacy `.json` chat is one object with `messages[]`.
//! - Prompts are the `user` messages; activity is every message kept. A sub-agent
//!   chat's messages are activity of its parent session, never prompts.
//! - Models: the `model` of the messages kept (Gemini's replies carry one).
//! - The working directory is the project root named by the folder's `.project_root`
//!   file, else the folder's entry in `<home>/projects.json`; older folders named by a
//!   hash have neither.
//! - Title: the last `summary`, else the first user prompt (its `displayContent` when
//!   there is one: what the user typed, before `@file` expansion).

use std::collections::HashMap;
use std::io::{BufReader, Read as _};
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use report_model::Agent;
use serde::Deserialize;

use super::jsonl::{self, Stats};
use super::lenient::{LStr, OStr, Text};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, config_path, has_extension};
use crate::{Env, Error, SourceStatus, fsread};
use report_model::plural;

/// One line of a `.jsonl` chat: metadata, a message, an update or a rewind.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Record<'a> {
    #[serde(borrow)]
    session_id: LStr<'a>,
    #[serde(borrow)]
    summary: LStr<'a>,
    #[serde(borrow)]
    id: LStr<'a>,
    #[serde(borrow)]
    timestamp: LStr<'a>,
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    content: Text,
    display_content: Text,
    /// The model of a `gemini` message.
    #[serde(borrow)]
    model: LStr<'a>,
    #[serde(rename = "$set", borrow)]
    set: Option<Update<'a>>,
    #[serde(rename = "$rewindTo", borrow)]
    rewind_to: LStr<'a>,
}

/// The fields of a `$set` update that the reader uses.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Update<'a> {
    #[serde(borrow)]
    session_id: LStr<'a>,
    #[serde(borrow)]
    summary: LStr<'a>,
    #[serde(borrow)]
    messages: Option<Vec<Message<'a>>>,
}

/// A message inside a `$set` update or a legacy chat.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Message<'a> {
    #[serde(borrow)]
    id: LStr<'a>,
    #[serde(borrow)]
    timestamp: LStr<'a>,
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    content: Text,
    display_content: Text,
    #[serde(borrow)]
    model: LStr<'a>,
}

/// A legacy `.json` chat (read with owned strings: it is parsed from a stream).
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct LegacyChat {
    session_id: OStr,
    summary: OStr,
    messages: Vec<LegacyMessage>,
}

/// A message of a legacy `.json` chat.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct LegacyMessage {
    id: OStr,
    timestamp: OStr,
    #[serde(rename = "type")]
    kind: OStr,
    content: Text,
    display_content: Text,
    model: OStr,
}

/// `<home>/projects.json`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Registry {
    projects: HashMap<String, OStr>,
}

/// A message kept in a chat.
struct Kept {
    id: String,
    time: Option<Timestamp>,
    user: bool,
    /// The model that wrote it (a reply's `model`).
    model: Option<String>,
}

/// A chat being replayed.
#[derive(Default)]
struct Chat {
    session_id: Option<String>,
    summary: Option<String>,
    messages: Vec<Kept>,
    /// Message id → index in `messages`.
    index: HashMap<String, usize>,
    /// The first kept user message: its id and text.
    first_prompt: Option<(String, String)>,
}

impl Chat {
    /// Adds a message, or replaces the one with the same id in place.
    fn put(
        &mut self,
        id: &str,
        time: Option<Timestamp>,
        kind: &LStr,
        content: &Text,
        display: &Text,
    ) {
        let user = kind.is("user");
        if let Some(&position) = self.index.get(id) {
            let kept = &mut self.messages[position];
            kept.time = time.or(kept.time);
            kept.user = user;
        } else {
            self.index.insert(id.to_owned(), self.messages.len());
            self.messages.push(Kept { id: id.to_owned(), time, user, model: None });
        }
        if user && self.first_prompt.is_none() {
            let text = if display.present { &display.value } else { &content.value };
            self.first_prompt = Some((id.to_owned(), text.clone()));
        }
    }

    /// Notes the model of the message `id` (a message rewritten keeps the last one).
    fn set_model(&mut self, id: &str, model: &LStr) {
        if let (Some(model), Some(&position)) = (model.get(), self.index.get(id)) {
            self.messages[position].model = Some(model.to_owned());
        }
    }

    /// Drops the message `id` and all after it; all of them when `id` is unknown.
    fn rewind(&mut self, id: &str) {
        let keep = self.index.get(id).copied().unwrap_or(0);
        for dropped in self.messages.drain(keep..) {
            self.index.remove(&dropped.id);
        }
        if self.first_prompt.as_ref().is_some_and(|(first, _)| !self.index.contains_key(first)) {
            self.first_prompt = None;
        }
    }

    /// Replaces every message.
    fn clear(&mut self) {
        self.messages.clear();
        self.index.clear();
        self.first_prompt = None;
    }

    /// The session, with `default_id` when the chat names none.
    fn into_draft(self, default_id: &str, since: Timestamp, cwd: Option<&PathBuf>) -> Draft {
        let mut session =
            Draft::new(Agent::Gemini, self.session_id.as_deref().unwrap_or(default_id));
        session.cwd = cwd.cloned();
        session.title = self.summary;
        for kept in &self.messages {
            let Some(time) = kept.time else { continue };
            if time >= since {
                session.activity.push(time);
                if kept.user {
                    session.prompts.push(time);
                }
                if let Some(model) = &kept.model {
                    session.note_model(model);
                }
            }
        }
        if let Some((id, text)) = self.first_prompt {
            if let Some(time) =
                self.index.get(&id).and_then(|position| self.messages[*position].time)
            {
                session.note_prompt_text(time, &text);
            }
        }
        session
    }
}

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let home = match (&config.gemini_home, env.var("GEMINI_CLI_HOME")) {
        (Some(home), _) => config_path(env, home),
        (None, Some(cli_home)) => config_path(env, Path::new(cli_home)).join(".gemini"),
        (None, None) => env.home.join(".gemini"),
    };
    let mut status = SourceStatus {
        locations: vec![home.clone()],
        ..SourceStatus::new(report_model::Source::Gemini)
    };
    let mut drafts = Drafts::new();
    let tmp = home.join("tmp");
    if !tmp.is_dir() {
        return (drafts, status);
    }
    status.found = true;
    let registry = read_registry(ctx, &home.join("projects.json"));
    let mut counts = Stats::default();
    let mut without_cwd = 0_u64;
    for project in ctx.list_dir(&tmp) {
        let chats = project.join("chats");
        if !chats.is_dir() {
            continue;
        }
        let cwd = project_root(ctx, &project).or_else(|| {
            let slug = super::file_name(&project)?;
            registry.get(&slug).cloned()
        });
        let mut sessions = Drafts::new();
        let mut subagent_folders = Vec::new();
        for path in ctx.list_dir(&chats) {
            if path.is_dir() {
                subagent_folders.push(path);
                continue;
            }
            let is_chat = super::name_starts_with(&path, "session-");
            let legacy = has_extension(&path, "json");
            if !is_chat || !(legacy || has_extension(&path, "jsonl")) {
                continue;
            }
            status.files += 1;
            if !ctx.modified_since(&path) {
                continue;
            }
            let Some(default_id) = super::file_stem(&path) else { continue };
            let chat = if legacy {
                read_legacy(ctx, &mut counts, &path)
            } else {
                Some(read_chat(ctx, &mut counts, &path))
            };
            if let Some(chat) = chat {
                add_draft(&mut sessions, chat.into_draft(&default_id, ctx.since, cwd.as_ref()));
            }
        }
        for folder in subagent_folders {
            read_subagents(ctx, &mut counts, &folder, &mut sessions, &mut status.files);
        }
        for session in sessions.into_values() {
            if session.cwd.is_none() && !session.activity.is_empty() {
                without_cwd += 1;
            }
            add_draft(&mut drafts, session);
        }
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    if without_cwd > 0 {
        status.limits.push(format!(
            "{} without a known working directory (a chat folder named by a hash, with no `.project_root` file and no `projects.json` entry)",
            plural(without_cwd, "session", "sessions")
        ));
    }
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// Replays one `.jsonl` chat.
fn read_chat(ctx: &mut Ctx, stats: &mut Stats, path: &Path) -> Chat {
    let mut chat = Chat::default();
    jsonl::read_lines(ctx, stats, path, |bytes| {
        let record: Record = serde_json::from_slice(bytes)?;
        if let Some(target) = record.rewind_to.0.as_deref() {
            chat.rewind(target);
        } else if let Some(id) = record.id.get() {
            chat.put(
                id,
                record.timestamp.timestamp(),
                &record.kind,
                &record.content,
                &record.display_content,
            );
            chat.set_model(id, &record.model);
        } else if let Some(update) = record.set {
            if let Some(summary) = update.summary.into_owned() {
                chat.summary = Some(summary);
            }
            if let Some(session_id) = update.session_id.into_owned() {
                chat.session_id = Some(session_id);
            }
            if let Some(messages) = update.messages {
                chat.clear();
                for message in &messages {
                    if let Some(id) = message.id.get() {
                        chat.put(
                            id,
                            message.timestamp.timestamp(),
                            &message.kind,
                            &message.content,
                            &message.display_content,
                        );
                        chat.set_model(id, &message.model);
                    }
                }
            }
        } else if let Some(session_id) = record.session_id.into_owned() {
            chat.session_id = Some(session_id);
            if let Some(summary) = record.summary.into_owned() {
                chat.summary = Some(summary);
            }
        }
        Ok(())
    });
    chat
}

/// Reads a legacy `.json` chat, streamed; `None` (with a warning) when it is not valid.
fn read_legacy(ctx: &mut Ctx, stats: &mut Stats, path: &Path) -> Option<Chat> {
    let file = match fsread::open(path) {
        Ok(file) => file,
        Err(error) => {
            ctx.fail(error);
            return None;
        }
    };
    stats.files_read += 1;
    // Streamed, but bounded: a document larger than any chat is refused, not parsed.
    let mut reader = BufReader::new(file).take(fsread::DOCUMENT_MAX + 1);
    let parsed = serde_json::from_reader::<_, LegacyChat>(&mut reader);
    if reader.limit() == 0 {
        ctx.fail(Error::TooLarge { path: path.to_path_buf(), limit: fsread::DOCUMENT_MAX });
        return None;
    }
    let legacy: LegacyChat = match parsed {
        Ok(legacy) => legacy,
        Err(error) if error.is_io() => {
            ctx.unreadable(path, std::io::Error::from(error));
            return None;
        }
        Err(_) => {
            stats.malformed_lines += 1;
            stats.malformed_files += 1;
            ctx.warnings.push(jsonl::malformed_warning(path, 1, 0));
            return None;
        }
    };
    let mut chat = Chat {
        session_id: legacy.session_id.0.into_owned(),
        summary: legacy.summary.0.into_owned(),
        ..Chat::default()
    };
    for message in &legacy.messages {
        if let Some(id) = message.id.0.get() {
            chat.put(
                id,
                message.timestamp.0.timestamp(),
                &message.kind.0,
                &message.content,
                &message.display_content,
            );
            chat.set_model(id, &message.model.0);
        }
    }
    Some(chat)
}

/// Adds the messages of the sub-agent chats in `chats/<parent-session-id>/` to the
/// parent session's activity. Chats of a parent that is not among `sessions` (not
/// modified since the window began) are not read.
fn read_subagents(
    ctx: &mut Ctx,
    stats: &mut Stats,
    folder: &Path,
    sessions: &mut Drafts,
    files: &mut u64,
) {
    let Some(parent) = super::file_name(folder) else { return };
    for path in ctx.list_dir(folder) {
        if !has_extension(&path, "jsonl") || path.is_dir() {
            continue;
        }
        *files += 1;
        let Some(session) = sessions.get_mut(&parent) else { continue };
        if !ctx.modified_since(&path) {
            continue;
        }
        let chat = read_chat(ctx, stats, &path);
        for kept in &chat.messages {
            if let Some(time) = kept.time.filter(|time| *time >= ctx.since) {
                session.activity.push(time);
            }
        }
    }
}

/// The project root a chat folder names in its `.project_root` file.
fn project_root(ctx: &mut Ctx, project: &Path) -> Option<PathBuf> {
    let text = fsread::read_small_text(&project.join(".project_root"), fsread::PATH_FILE_MAX)
        .map_err(|error| ctx.fail(error))
        .ok()?;
    let root = text.trim();
    (!root.is_empty()).then(|| PathBuf::from(root))
}

/// Folder name → project root, from `projects.json`.
fn read_registry(ctx: &mut Ctx, path: &Path) -> HashMap<String, PathBuf> {
    let bytes = match fsread::read_small(path, fsread::CONFIG_FILE_MAX) {
        Ok(bytes) => bytes,
        Err(error) => {
            ctx.fail(error);
            return HashMap::new();
        }
    };
    let Ok(registry) = serde_json::from_slice::<Registry>(&bytes) else {
        ctx.warnings.push(jsonl::malformed_warning(path, 1, 0));
        return HashMap::new();
    };
    registry
        .projects
        .into_iter()
        .filter_map(|(root, slug)| Some((slug.0.into_owned()?, PathBuf::from(root))))
        .collect()
}
