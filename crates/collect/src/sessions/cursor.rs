//! Cursor: the CLI agent's chats (`~/.cursor/chats/<hash>/<id>/store.db`), the agent
//! transcripts (`~/.cursor/projects/<slug>/agent-transcripts/`), and the IDE's
//! composers (`<User dir>/globalStorage/state.vscdb` with the
//! `workspaceStorage/<hash>/` folders; the User dir is `$XDG_CONFIG_HOME/Cursor/User`,
//! else `~/.config/Cursor/User`, on Linux and `~/Library/Application Support/Cursor/User`
//! on macOS).
//!
//! Cursor is closed source and no Cursor CLI package is on npm (`npm view` found only
//! unrelated `cursor-agent`). What is verified, and where:
//!
//! - CLI chats: the Cursor CLI's own bundled code (published in a public repository:
//!   `SQLiteBlobStoreWithMetadata`, `getChatsRootDir`, the chat picker reading `name`,
//!   `latestRootBlobId`, `createdAt`), and readers in public tools (a Go reader's
//!   "Cursor Agent Database Format Reference", a token-usage reader that decodes the root
//!   blob, Python explorations of `store.db`). One SQLite file per session, in WAL mode:
//!   table `meta` (key `0`: hex-encoded JSON with `agentId`, `name`, `createdAt` in ms,
//!   `lastUsedModel`, `latestRootBlobId`), table `blobs` (`id` = SHA-256 hex of `data`).
//!   The root blob is protobuf: field 1 repeats the 32-byte ids of the message blobs, in
//!   order; field 21 is a workspace descriptor whose field 1 is the working directory.
//!   Message blobs are JSON (`role`, `content`: a string or `[{type: "text", text}]`);
//!   a user message wraps what the person typed in `<user_query>…</user_query>` after
//!   injected context (`<user_info>`, rules), and messages of injected context alone
//!   have no `<user_query>`. The store records no time per message: the session starts
//!   at `createdAt` and was last active when `store.db` (or its `-wal`) was last
//!   modified; its prompts are spread evenly over that span, the first at `createdAt`
//!   (an estimate, the only one the format allows).
//! - Agent transcripts: readers in public tools and published examples.
//!   `agent-transcripts/<id>.txt` (`user:` / `assistant:` blocks), `<id>.jsonl` or
//!   `<id>/<id>.jsonl` (`{"role": "user", "message": {"content": [{"type": "text",
//!   "text": "<user_query>…</user_query>"}]}}`). No time, title, version or cwd is
//!   recorded: the session spans the file's creation (birth) time, else its
//!   modification time, to its modification time, its prompts spread over it as above;
//!   it has no title but its first prompt. The same id as `.txt` and `.jsonl` is one
//!   session: the `.jsonl` is read. The cwd comes from the slug, the path with every
//!   character but ASCII letters and digits turned into `-`: decoding is lossy, so the
//!   folders on disk are walked to find the path that gives the slug.
//! - IDE composers: public reverse-engineering notes (`cursorDiskKV`, `composerData`,
//!   `bubbleId` keys; e.g. "Cursor Storage Reference", `_v` 10/3, and Cursor 0.50.5
//!   notes). Global `state.vscdb`, table `cursorDiskKV` (`key` TEXT, `value` BLOB of JSON):
//!   `composerData:<id>` (`name`, `createdAt`/`lastUpdatedAt` in ms, `modelConfig.
//!   modelName`, `fullConversationHeadersOnly`, or an inline `conversation` in old
//!   versions) and `bubbleId:<composerId>:<bubbleId>` (`type` 1 = user, 2 = assistant,
//!   `text`, `createdAt` ISO time, `modelInfo.modelName`). A user bubble's `text` is what
//!   the person typed (attached context is in other fields). Each workspace's
//!   `state.vscdb` (table `ItemTable`, key `composer.composerData`: `allComposers[]` with
//!   `composerId`, `name`) and `workspace.json` (`folder`, a `file://` URI) give the
//!   composer's cwd.
//! - **The global `state.vscdb` also holds the user's Cursor login tokens** (in
//!   `ItemTable`): only `cursorDiskKV` rows whose keys start with `composerData:` or
//!   `bubbleId:` are ever queried (key ranges bound as parameters, so SQLite's index on
//!   the key answers them), nothing else of it is read, and nothing of it is logged. The
//!   database can be gigabytes: composers are filtered by time in SQL
//!   (`lastUpdatedAt`, else `createdAt`), and only the text fields needed are extracted
//!   by SQLite, capped.
//!
//! Every database is opened read-only through [`crate::sqlite::read`], and only when it
//! (or its `-wal`) was modified since the window began.

use std::collections::{BTreeMap, HashMap};
use std::io::BufReader;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use report_model::Agent;
use rusqlite::Connection;
use rusqlite::types::ValueRef;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::jsonl::{self, Stats};
use super::lenient::{LStr, OStr};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, agent_home};
use crate::sqlite::{self, Failure, Outcome};
use crate::{Env, Error, SourceStatus, fsread};

/// How many folder entries decoding one slug may look at.
const SLUG_BUDGET: usize = 20_000;

/// How many message blobs one chat may hold (a bound on a corrupt root).
const MAX_BLOBS: usize = 100_000;

/// The longest prompt text kept from a message.
const PROMPT_MAX: usize = 4096;

/// Names Cursor gives a chat before it has one.
const PLACEHOLDER_NAMES: &[&str] = &["New Agent", "New Chat", "New Composer", "Untitled"];

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let home: PathBuf = agent_home(env, config, Agent::Cursor, || env.home.join(".cursor"));
    let user_dir = user_dir(env);
    let mut status = SourceStatus {
        locations: vec![home.clone(), user_dir.clone()],
        ..SourceStatus::new(report_model::Source::Cursor)
    };
    let mut drafts = Drafts::new();
    let mut counts = Stats::default();
    if home.is_dir() {
        status.found = true;
        read_chats(ctx, &mut status, &home.join("chats"), &mut drafts);
        read_transcripts(ctx, &mut counts, &mut status, &home.join("projects"), &mut drafts);
    }
    if user_dir.is_dir() {
        status.found = true;
        read_ide(ctx, &mut status, &user_dir, &mut drafts);
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// The IDE's `User` folder.
fn user_dir(env: &Env) -> PathBuf {
    if cfg!(target_os = "macos") {
        env.home.join("Library/Application Support/Cursor/User")
    } else {
        env.config_home().join("Cursor/User")
    }
}

/// `path` with `suffix` appended to its name.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Whether a database or its `-wal` was modified since the window began.
fn db_fresh(ctx: &mut Ctx, path: &Path) -> bool {
    ctx.modified_since(path) || ctx.modified_since(&sibling(path, "-wal"))
}

/// The latest modification time of a file and its `-wal`.
fn modified(path: &Path) -> Option<Timestamp> {
    [path.to_path_buf(), sibling(path, "-wal")]
        .iter()
        .filter_map(|path| fs_err::metadata(path).ok()?.modified().ok())
        .filter_map(|time| Timestamp::try_from(time).ok())
        .max()
}

fn from_ms(ms: i64) -> Option<Timestamp> {
    Timestamp::from_millisecond(ms).ok()
}

/// A time SQLite gave: milliseconds, or an RFC 3339 text.
fn time_value(value: ValueRef<'_>) -> Option<Timestamp> {
    match value {
        ValueRef::Integer(ms) => from_ms(ms),
        #[expect(clippy::cast_possible_truncation, reason = "a whole number of ms, range checked")]
        ValueRef::Real(ms) if ms.is_finite() && ms.abs() < 9.0e15 => from_ms(ms as i64),
        ValueRef::Text(text) => {
            let text = std::str::from_utf8(text).ok()?;
            text.parse().ok().or_else(|| text.parse::<i64>().ok().and_then(from_ms))
        }
        _ => None,
    }
}

fn text_value(value: ValueRef<'_>) -> Option<String> {
    match value {
        ValueRef::Text(text) => Some(String::from_utf8_lossy(text).into_owned()),
        _ => None,
    }
}

/// `count` times from `start` to `end`, evenly spaced, the first at `start`: where prompts
/// are placed when the format records no time per message.
pub(super) fn spread(count: usize, start: Timestamp, end: Timestamp) -> Vec<Timestamp> {
    let end = end.max(start);
    let span = end.as_nanosecond() - start.as_nanosecond();
    let steps = i128::try_from(count.saturating_sub(1)).unwrap_or(1).max(1);
    (0..count)
        .filter_map(|index| {
            let index = i128::try_from(index).ok()?;
            Timestamp::from_nanosecond(start.as_nanosecond() + span * index / steps).ok()
        })
        .collect()
}

/// What the person typed in a user message: the text inside `<user_query>`, else the
/// whole text when it is not an injected block (`<user_info>`, …).
fn typed_text(text: &str) -> Option<String> {
    let typed = match text.find("<user_query>") {
        Some(start) => {
            let rest = &text[start + "<user_query>".len()..];
            rest.find("</user_query>").map_or(rest, |end| &rest[..end])
        }
        None if text.trim_start().starts_with('<') => return None,
        None => text,
    };
    let typed = typed.trim();
    if typed.is_empty() {
        return None;
    }
    let end = typed.char_indices().nth(PROMPT_MAX).map_or(typed.len(), |(index, _)| index);
    Some(typed[..end].to_owned())
}

/// Whether a chat name is a real title.
fn real_name(name: &str) -> bool {
    !name.trim().is_empty() && !PLACEHOLDER_NAMES.contains(&name.trim())
}

/// Fills a draft whose times are not recorded per message: activity at the start and the
/// end, the typed prompts spread between them.
fn place_untimed(
    draft: &mut Draft,
    since: Timestamp,
    start: Timestamp,
    end: Timestamp,
    typed: &[String],
) {
    let end = end.max(start);
    for time in [start, end] {
        if time >= since {
            draft.activity.push(time);
        }
    }
    for (time, text) in spread(typed.len(), start, end).into_iter().zip(typed) {
        if time >= since {
            draft.prompts.push(time);
        }
        draft.note_prompt_text(time, text);
    }
}

// ---- CLI chats -------------------------------------------------------------------

/// The hex-encoded JSON of `meta` key `0`.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Meta {
    agent_id: OStr,
    name: OStr,
    created_at: serde_json::Value,
    last_used_model: OStr,
    latest_root_blob_id: OStr,
}

/// A time written as a number of ms or as text.
pub(super) fn json_time(value: &serde_json::Value) -> Option<Timestamp> {
    match value {
        serde_json::Value::Number(number) => number.as_i64().and_then(from_ms),
        serde_json::Value::String(text) => {
            text.parse().ok().or_else(|| text.parse::<i64>().ok().and_then(from_ms))
        }
        _ => None,
    }
}

/// A message blob, or a transcript line (`message.content`).
#[derive(Deserialize, Default)]
#[serde(default)]
struct ChatMessage<'a> {
    #[serde(borrow)]
    role: LStr<'a>,
    #[serde(borrow)]
    content: Option<&'a RawValue>,
    #[serde(borrow)]
    message: Option<Inner<'a>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Inner<'a> {
    #[serde(borrow)]
    content: Option<&'a RawValue>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Block<'a> {
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    #[serde(borrow)]
    text: LStr<'a>,
}

/// The text of a `content` value: a string, or the `text` blocks of a list.
fn content_text(content: Option<&RawValue>) -> String {
    let Some(raw) = content else { return String::new() };
    if let Ok(text) = serde_json::from_str::<LStr>(raw.get()) {
        if let Some(text) = text.get() {
            return text.to_owned();
        }
    }
    serde_json::from_str::<Vec<Block>>(raw.get())
        .map(|blocks| {
            blocks
                .iter()
                .filter(|block| block.kind.is("text") || block.kind.0.is_none())
                .filter_map(|block| block.text.get())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// What one `store.db` gave.
struct Chat {
    meta: Meta,
    typed: Vec<String>,
    cwd: Option<String>,
    unknown: Vec<String>,
}

fn read_chats(ctx: &mut Ctx, status: &mut SourceStatus, chats: &Path, drafts: &mut Drafts) {
    for (bucket, kind) in ctx.list_dir_typed(chats) {
        if !kind.is_dir() {
            continue;
        }
        for (folder, kind) in ctx.list_dir_typed(&bucket) {
            if !kind.is_dir() {
                continue;
            }
            let path = folder.join("store.db");
            if !path.exists() {
                continue;
            }
            status.files += 1;
            if !db_fresh(ctx, &path) {
                continue;
            }
            let chat = match sqlite::read(&path, query_chat) {
                Outcome::Missing => continue,
                Outcome::Unreadable(error) => {
                    ctx.fail(error);
                    continue;
                }
                Outcome::Read(chat) => chat,
            };
            for unknown in &chat.unknown {
                status.note_unknown(unknown);
            }
            let id = chat
                .meta
                .agent_id
                .0
                .get()
                .map(str::to_owned)
                .or_else(|| super::file_name(&folder))
                .unwrap_or_default();
            let end = modified(&path);
            let Some(start) = json_time(&chat.meta.created_at).or(end) else { continue };
            let mut draft = Draft::new(Agent::Cursor, &id);
            place_untimed(&mut draft, ctx.since, start, end.unwrap_or(start), &chat.typed);
            draft.title = chat.meta.name.0.into_owned().filter(|name| real_name(name));
            if let Some(model) =
                chat.meta.last_used_model.0.get().filter(|model| *model != "default")
            {
                draft.note_model(model);
            }
            draft.cwd = chat.cwd.map(PathBuf::from).filter(|path| path.is_absolute());
            add_draft(drafts, draft);
        }
    }
}

fn query_chat(conn: &Connection) -> Result<Chat, Failure> {
    let raw: Option<Vec<u8>> = conn
        .query_row("SELECT value FROM meta WHERE key = '0'", [], |row| {
            Ok(match row.get_ref(0)? {
                ValueRef::Text(bytes) | ValueRef::Blob(bytes) => Some(bytes.to_vec()),
                _ => None,
            })
        })
        .map_err(|error| match error {
            rusqlite::Error::QueryReturnedNoRows => {
                Failure::Schema("its `meta` table has no row `0`".to_owned())
            }
            other => Failure::Sqlite(other),
        })?;
    let meta: Meta = raw
        .as_deref()
        .and_then(decode_hex)
        .and_then(|json| serde_json::from_slice(&json).ok())
        .ok_or_else(|| Failure::Schema("its `meta` row is not hex-encoded JSON".to_owned()))?;
    let mut chat = Chat { meta, typed: Vec::new(), cwd: None, unknown: Vec::new() };
    let Some(root_id) = chat.meta.latest_root_blob_id.0.get().map(str::to_owned) else {
        return Ok(chat);
    };
    let mut blob = conn.prepare("SELECT data FROM blobs WHERE id = ?1")?;
    let mut load = |id: &str| -> Result<Option<Vec<u8>>, Failure> {
        let mut rows = blob.query([id])?;
        Ok(match rows.next()? {
            Some(row) => match row.get_ref(0)? {
                ValueRef::Blob(bytes) | ValueRef::Text(bytes) => Some(bytes.to_vec()),
                _ => None,
            },
            None => None,
        })
    };
    let Some(root) = load(&root_id)? else { return Ok(chat) };
    let Some(fields) = protobuf_fields(&root) else {
        chat.unknown.push("root blob format".to_owned());
        return Ok(chat);
    };
    for (number, field) in &fields {
        if let (21, Field::Bytes(bytes)) = (number, field) {
            let path = protobuf_fields(bytes).and_then(|inner| {
                inner.into_iter().find_map(|(number, field)| match (number, field) {
                    (1, Field::Bytes(bytes)) => std::str::from_utf8(bytes).ok().map(str::to_owned),
                    _ => None,
                })
            });
            chat.cwd = path.filter(|path| path.starts_with('/'));
        }
    }
    let ids: Vec<String> = fields
        .iter()
        .filter_map(|(number, field)| match (number, field) {
            (1, Field::Bytes(bytes)) if bytes.len() == 32 => Some(encode_hex(bytes)),
            _ => None,
        })
        .take(MAX_BLOBS)
        .collect();
    for id in ids {
        let Some(data) = load(&id)? else { continue };
        if data.first() != Some(&b'{') {
            continue;
        }
        let Ok(message) = serde_json::from_slice::<ChatMessage>(&data) else { continue };
        match message.role.0.as_deref() {
            Some("user") => {
                chat.typed.extend(typed_text(&content_text(message.content)));
            }
            Some("assistant" | "system" | "tool") | None => {}
            Some(other) => chat.unknown.push(format!("message role {other}")),
        }
    }
    Ok(chat)
}

/// A protobuf field's value: only what the reader needs.
enum Field<'a> {
    Varint,
    Bytes(&'a [u8]),
}

/// The top-level fields of a protobuf message; `None` when it is not one (every length
/// is checked against the buffer).
fn protobuf_fields(buffer: &[u8]) -> Option<Vec<(u64, Field<'_>)>> {
    let mut fields = Vec::new();
    let mut at = 0;
    while at < buffer.len() {
        let key = varint(buffer, &mut at)?;
        let number = key >> 3;
        match key & 7 {
            0 => {
                varint(buffer, &mut at)?;
                fields.push((number, Field::Varint));
            }
            1 => at = at.checked_add(8).filter(|end| *end <= buffer.len())?,
            2 => {
                let length = usize::try_from(varint(buffer, &mut at)?).ok()?;
                let end = at.checked_add(length).filter(|end| *end <= buffer.len())?;
                fields.push((number, Field::Bytes(buffer.get(at..end)?)));
                at = end;
            }
            5 => at = at.checked_add(4).filter(|end| *end <= buffer.len())?,
            _ => return None,
        }
    }
    Some(fields)
}

/// A base-128 varint at `at` (moved past it); at most 10 bytes.
fn varint(buffer: &[u8], at: &mut usize) -> Option<u64> {
    let mut value: u64 = 0;
    for shift in 0..10 {
        let byte = *buffer.get(*at)?;
        *at += 1;
        value |= u64::from(byte & 0x7f) << (shift * 7);
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

fn decode_hex(text: &[u8]) -> Option<Vec<u8>> {
    let text = text.trim_ascii();
    if text.len() % 2 != 0 {
        return None;
    }
    let digit = |byte: u8| char::from(byte).to_digit(16).and_then(|digit| u8::try_from(digit).ok());
    text.chunks_exact(2).map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?)).collect()
}

fn encode_hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut text, byte| {
        let _ = write!(text, "{byte:02x}");
        text
    })
}

// ---- Agent transcripts -----------------------------------------------------------

fn read_transcripts(
    ctx: &mut Ctx,
    counts: &mut Stats,
    status: &mut SourceStatus,
    projects: &Path,
    drafts: &mut Drafts,
) {
    let mut slugs: HashMap<String, Option<PathBuf>> = HashMap::new();
    for (project, kind) in ctx.list_dir_typed(projects) {
        if !kind.is_dir() {
            continue;
        }
        let folder = project.join("agent-transcripts");
        // Each session id: its transcript, the `.jsonl` preferred.
        let mut files: BTreeMap<String, PathBuf> = BTreeMap::new();
        for (path, kind) in ctx.list_dir_typed(&folder) {
            let Some(name) = super::file_name(&path) else { continue };
            if kind.is_dir() {
                let inner = path.join(format!("{name}.jsonl"));
                if inner.is_file() {
                    files.insert(name, inner);
                }
            } else if let Some(id) = name.strip_suffix(".jsonl") {
                files.insert(id.to_owned(), path);
            } else if let Some(id) = name.strip_suffix(".txt") {
                files.entry(id.to_owned()).or_insert(path);
            }
        }
        for (id, path) in files {
            status.files += 1;
            if !ctx.modified_since(&path) {
                continue;
            }
            let Ok(metadata) = fs_err::metadata(&path) else { continue };
            let Some(end) =
                metadata.modified().ok().and_then(|time| Timestamp::try_from(time).ok())
            else {
                continue;
            };
            let start = metadata
                .created()
                .ok()
                .and_then(|time| Timestamp::try_from(time).ok())
                .filter(|start| *start <= end)
                .unwrap_or(end);
            let typed = if super::has_extension(&path, "txt") {
                read_txt(ctx, &path)
            } else {
                read_jsonl(ctx, counts, status, &path)
            };
            let mut draft = Draft::new(Agent::Cursor, &id);
            place_untimed(&mut draft, ctx.since, start, end, &typed);
            let slug = super::file_name(&project).unwrap_or_default();
            draft.cwd.clone_from(slugs.entry(slug.clone()).or_insert_with(|| decode_slug(&slug)));
            add_draft(drafts, draft);
        }
    }
}

/// The typed prompts of a `.jsonl` transcript.
fn read_jsonl(
    ctx: &mut Ctx,
    counts: &mut Stats,
    status: &mut SourceStatus,
    path: &Path,
) -> Vec<String> {
    let mut typed = Vec::new();
    jsonl::read_lines(ctx, counts, path, |bytes| {
        let line: ChatMessage = serde_json::from_slice(bytes)?;
        match line.role.0.as_deref() {
            Some("user") => {
                let content = line.message.and_then(|inner| inner.content).or(line.content);
                typed.extend(typed_text(&content_text(content)));
            }
            Some("assistant") | None => {}
            Some(other) => status.note_unknown(&format!("transcript role {other}")),
        }
        Ok(())
    });
    typed
}

/// The typed prompts of a `.txt` transcript: the `<user_query>` of each `user:` block.
fn read_txt(ctx: &mut Ctx, path: &Path) -> Vec<String> {
    let mut typed = Vec::new();
    let mut block: Option<String> = None;
    let flush = |block: &mut Option<String>, typed: &mut Vec<String>| {
        if let Some(text) = block.take() {
            typed.extend(typed_text(&text));
        }
    };
    let file = match fsread::open(path) {
        Ok(file) => file,
        Err(error) => {
            ctx.fail(error);
            return typed;
        }
    };
    let mut lines = fsread::Lines::new(BufReader::new(file), fsread::LOG_LINE_MAX);
    loop {
        let line = match lines.next_line() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(error) => {
                ctx.fail(Error::io(path, error));
                break;
            }
        };
        let text = String::from_utf8_lossy(line.bytes);
        match text.trim_end() {
            "user:" => {
                flush(&mut block, &mut typed);
                block = Some(String::new());
            }
            "assistant:" | "A:" => flush(&mut block, &mut typed),
            other => {
                if let Some(block) = block.as_mut() {
                    if block.len() < 1 << 20 {
                        block.push_str(other);
                        block.push('\n');
                    }
                }
            }
        }
    }
    flush(&mut block, &mut typed);
    if let Some(error) = lines.too_long(path) {
        ctx.fail(error);
    }
    typed
}

/// A name as Cursor puts it in a slug: every character but ASCII letters and digits is `-`.
fn slugify(name: &str) -> String {
    name.chars()
        .map(|character| if character.is_ascii_alphanumeric() { character } else { '-' })
        .collect()
}

/// The folder whose path gives `slug` (the path without its leading `/`, slugified),
/// found by walking down from `/`: the first match in name order.
fn decode_slug(slug: &str) -> Option<PathBuf> {
    let mut budget = SLUG_BUDGET;
    walk_slug(Path::new("/"), slug, &mut budget)
}

fn walk_slug(folder: &Path, rest: &str, budget: &mut usize) -> Option<PathBuf> {
    let mut names: Vec<String> = crate::listing::list(folder)
        .ok()?
        .entries
        .into_iter()
        .filter_map(|entry| entry.name.into_string().ok())
        .take(*budget)
        .collect();
    *budget = budget.saturating_sub(names.len().max(1));
    names.sort_unstable();
    for name in names {
        let encoded = slugify(&name);
        if encoded.is_empty() || !rest.starts_with(&encoded) {
            continue;
        }
        let path = folder.join(&name);
        let after = &rest[encoded.len()..];
        if after.is_empty() {
            if path.is_dir() {
                return Some(path);
            }
        } else if let Some(after) = after.strip_prefix('-') {
            if *budget > 0 && path.is_dir() {
                if let Some(found) = walk_slug(&path, after, budget) {
                    return Some(found);
                }
            }
        }
    }
    None
}

// ---- IDE composers ---------------------------------------------------------------

/// What the workspaces say of a composer.
#[derive(Default, Clone)]
struct Place {
    cwd: Option<PathBuf>,
    name: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct ComposerIndex {
    all_composers: Vec<ComposerEntry>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct ComposerEntry {
    composer_id: OStr,
    name: OStr,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct WorkspaceFile {
    folder: OStr,
}

/// One composer of the global database.
struct Composer {
    id: String,
    name: Option<String>,
    created: Option<Timestamp>,
    updated: Option<Timestamp>,
    model: Option<String>,
    bubbles: Vec<Bubble>,
}

struct Bubble {
    kind: Option<i64>,
    time: Option<Timestamp>,
    text: Option<String>,
    model: Option<String>,
}

/// Each composer's workspace folder and name, from the workspaces' databases modified
/// since the window began.
fn read_workspaces(ctx: &mut Ctx, folder: &Path) -> HashMap<String, Place> {
    let mut places: HashMap<String, Place> = HashMap::new();
    for (workspace, kind) in ctx.list_dir_typed(folder) {
        if !kind.is_dir() {
            continue;
        }
        let db = workspace.join("state.vscdb");
        if !db.exists() || !db_fresh(ctx, &db) {
            continue;
        }
        let index = match sqlite::read(&db, |conn| {
            let raw: Option<Vec<u8>> = conn
                .query_row(
                    "SELECT value FROM ItemTable WHERE key = ?1",
                    ["composer.composerData"],
                    |row| {
                        Ok(match row.get_ref(0)? {
                            ValueRef::Text(bytes) | ValueRef::Blob(bytes) => Some(bytes.to_vec()),
                            _ => None,
                        })
                    },
                )
                .or_else(|error| match error {
                    rusqlite::Error::QueryReturnedNoRows => Ok(None),
                    other => Err(other),
                })?;
            Ok(raw.and_then(|raw| serde_json::from_slice::<ComposerIndex>(&raw).ok()))
        }) {
            Outcome::Read(index) => index.unwrap_or_default(),
            Outcome::Missing => continue,
            Outcome::Unreadable(error) => {
                ctx.fail(error);
                continue;
            }
        };
        let cwd = workspace_folder(ctx, &workspace.join("workspace.json"));
        for entry in index.all_composers {
            let Some(id) = entry.composer_id.0.into_owned() else { continue };
            places.insert(id, Place { cwd: cwd.clone(), name: entry.name.0.into_owned() });
        }
    }
    places
}

fn read_ide(ctx: &mut Ctx, status: &mut SourceStatus, user_dir: &Path, drafts: &mut Drafts) {
    let global = user_dir.join("globalStorage/state.vscdb");
    let places = read_workspaces(ctx, &user_dir.join("workspaceStorage"));
    if !global.exists() {
        return;
    }
    status.files += 1;
    if !db_fresh(ctx, &global) {
        return;
    }
    let since = ctx.since;
    let composers = match sqlite::read(&global, |conn| query_composers(conn, since)) {
        Outcome::Read(composers) => composers,
        Outcome::Missing => return,
        Outcome::Unreadable(error) => {
            ctx.fail(error);
            return;
        }
    };
    for composer in composers {
        let place = places.get(&composer.id).cloned().unwrap_or_default();
        let mut draft = Draft::new(Agent::Cursor, &composer.id);
        for time in [composer.created, composer.updated].into_iter().flatten() {
            if time >= since {
                draft.activity.push(time);
            }
        }
        if let Some(model) = composer.model.as_deref().filter(|model| *model != "default") {
            draft.note_model(model);
        }
        for bubble in &composer.bubbles {
            let in_window = bubble.time.is_some_and(|time| time >= since);
            if let Some(time) = bubble.time.filter(|_| in_window) {
                draft.activity.push(time);
            }
            if let Some(model) =
                bubble.model.as_deref().filter(|model| in_window && *model != "default")
            {
                draft.note_model(model);
            }
            match bubble.kind {
                Some(1) => {
                    let Some(text) =
                        bubble.text.as_deref().map(str::trim).filter(|text| !text.is_empty())
                    else {
                        continue;
                    };
                    if let Some(time) = bubble.time {
                        if time >= since {
                            draft.prompts.push(time);
                        }
                        draft.note_prompt_text(time, text);
                    } else if let Some(created) = composer.created {
                        draft.note_prompt_text(created, text);
                    }
                }
                Some(2) | None => {}
                Some(other) => status.note_unknown(&format!("bubble type {other}")),
            }
        }
        draft.title = composer.name.or(place.name).filter(|name| real_name(name));
        draft.cwd = place.cwd;
        add_draft(drafts, draft);
    }
}

/// The folder a workspace is (`workspace.json`'s `folder`, a `file://` URI).
fn workspace_folder(ctx: &mut Ctx, path: &Path) -> Option<PathBuf> {
    let text = match fsread::read_small_text(path, fsread::CONFIG_FILE_MAX) {
        Ok(text) => text,
        Err(error) => {
            ctx.fail(error);
            return None;
        }
    };
    let file: WorkspaceFile = serde_json::from_str(&text).ok()?;
    let uri = file.folder.0.get()?;
    let path = uri.strip_prefix("file://")?;
    let decoded = percent_decode(path)?;
    Some(PathBuf::from(decoded)).filter(|path| path.is_absolute())
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        if byte == b'%' {
            let high = char::from(*bytes.get(at + 1)?).to_digit(16)?;
            let low = char::from(*bytes.get(at + 2)?).to_digit(16)?;
            out.push(u8::try_from(high * 16 + low).ok()?);
            at += 3;
        } else {
            out.push(byte);
            at += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The composers updated since `since` and their bubbles. Only `cursorDiskKV` keys in the
/// `composerData:` and `bubbleId:<composer>:` ranges are read.
fn query_composers(conn: &Connection, since: Timestamp) -> Result<Vec<Composer>, Failure> {
    let has_table: bool = conn
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'cursorDiskKV'",
            [],
            |row| row.get::<_, i64>(0),
        )
        .map(|count| count > 0)?;
    if !has_table {
        return Ok(Vec::new());
    }
    let since_ms = since.as_millisecond();
    let mut composers = Vec::new();
    {
        let mut statement = conn.prepare(
            "SELECT substr(key, 14), json_extract(v, '$.name'), json_extract(v, '$.createdAt'), \
             json_extract(v, '$.lastUpdatedAt'), json_extract(v, '$.modelConfig.modelName') \
             FROM (SELECT key, CAST(value AS TEXT) AS v FROM cursorDiskKV WHERE key >= ?1 AND key < ?2) \
             WHERE json_valid(v) \
             AND coalesce(json_extract(v, '$.lastUpdatedAt'), json_extract(v, '$.createdAt')) >= ?3 \
             ORDER BY key",
        )?;
        let mut rows =
            statement.query(rusqlite::params!["composerData:", "composerData;", since_ms])?;
        while let Some(row) = rows.next()? {
            let Some(id) = text_value(row.get_ref(0)?).filter(|id| !id.is_empty()) else {
                continue;
            };
            composers.push(Composer {
                id,
                name: text_value(row.get_ref(1)?),
                created: time_value(row.get_ref(2)?),
                updated: time_value(row.get_ref(3)?),
                model: text_value(row.get_ref(4)?),
                bubbles: Vec::new(),
            });
        }
    }
    read_bubbles(conn, &mut composers)?;
    Ok(composers)
}

/// Fills in each composer's bubbles: its `bubbleId:<id>:` rows, else (older versions) the
/// inline `conversation` of its `composerData` row.
fn read_bubbles(conn: &Connection, composers: &mut [Composer]) -> Result<(), Failure> {
    let mut bubbles = conn.prepare(
        "SELECT json_extract(v, '$.type'), json_extract(v, '$.createdAt'), \
         substr(json_extract(v, '$.text'), 1, 4096), json_extract(v, '$.modelInfo.modelName') \
         FROM (SELECT key, CAST(value AS TEXT) AS v FROM cursorDiskKV WHERE key >= ?1 AND key < ?2) \
         WHERE json_valid(v) ORDER BY key",
    )?;
    let mut inline = conn.prepare(
        "SELECT json_extract(e.value, '$.type'), json_extract(e.value, '$.createdAt'), \
         substr(json_extract(e.value, '$.text'), 1, 4096), json_extract(e.value, '$.modelInfo.modelName') \
         FROM (SELECT CAST(value AS TEXT) AS v FROM cursorDiskKV WHERE key = ?1) AS c, \
         json_each(CASE WHEN json_valid(c.v) THEN c.v ELSE '{}' END, '$.conversation') AS e",
    )?;
    let bubble = |row: &rusqlite::Row<'_>| -> rusqlite::Result<Bubble> {
        Ok(Bubble {
            kind: match row.get_ref(0)? {
                ValueRef::Integer(kind) => Some(kind),
                _ => None,
            },
            time: time_value(row.get_ref(1)?),
            text: text_value(row.get_ref(2)?),
            model: text_value(row.get_ref(3)?),
        })
    };
    for composer in composers {
        let from = format!("bubbleId:{}:", composer.id);
        let to = format!("bubbleId:{};", composer.id);
        composer.bubbles = bubbles.query_map([from, to], bubble)?.collect::<Result<Vec<_>, _>>()?;
        if composer.bubbles.is_empty() {
            let key = format!("composerData:{}", composer.id);
            composer.bubbles = inline.query_map([key], bubble)?.collect::<Result<Vec<_>, _>>()?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_typed_query_is_taken_from_injected_context() {
        assert_eq!(
            typed_text(
                "<user_info>OS: linux</user_info>\n<user_query>\nfix the build\n</user_query>"
            ),
            Some("fix the build".to_owned())
        );
        assert_eq!(typed_text("<user_info>OS: linux</user_info>"), None);
        assert_eq!(typed_text("plain words"), Some("plain words".to_owned()));
    }

    #[test]
    fn protobuf_lengths_are_checked() {
        assert!(protobuf_fields(&[0x0a, 0x05, 1, 2]).is_none(), "length past the end");
        assert!(protobuf_fields(&[0x08, 0xff]).is_none(), "unfinished varint");
        assert!(protobuf_fields(&[0x0b]).is_none(), "group wire type");
        let fields = protobuf_fields(&[0x0a, 0x02, 7, 8, 0x10, 0x01]).expect("valid");
        assert!(matches!(fields.as_slice(), [(1, Field::Bytes([7, 8])), (2, Field::Varint)]));
        // Fixed-width fields are passed over, whole, to the fields after them.
        let mut buffer = vec![0x19];
        buffer.extend([1, 2, 3, 4, 5, 6, 7, 8]);
        buffer.push(0x25);
        buffer.extend([1, 2, 3, 4]);
        buffer.extend([0x0a, 0x01, 9]);
        let fields = protobuf_fields(&buffer).expect("valid");
        assert!(matches!(fields.as_slice(), [(1, Field::Bytes([9]))]));
        assert!(protobuf_fields(&[0x19, 1, 2, 3, 4, 5, 6, 7]).is_none(), "fixed64 cut short");
        assert!(protobuf_fields(&[0x25, 1, 2, 3]).is_none(), "fixed32 cut short");
        assert!(protobuf_fields(&[0x19, 1, 2, 3, 4, 5, 6, 7, 8]).is_some_and(|f| f.is_empty()));
        assert!(protobuf_fields(&[0x25, 1, 2, 3, 4]).is_some_and(|f| f.is_empty()));
    }

    #[test]
    fn prompts_are_spread_from_the_start() {
        let start: Timestamp = "2026-05-04T09:00:00Z".parse().expect("time");
        let end: Timestamp = "2026-05-04T09:30:00Z".parse().expect("time");
        let times: Vec<String> = spread(3, start, end).iter().map(ToString::to_string).collect();
        assert_eq!(times, ["2026-05-04T09:00:00Z", "2026-05-04T09:15:00Z", "2026-05-04T09:30:00Z"]);
        assert_eq!(spread(1, start, end), vec![start]);
        assert!(spread(0, start, end).is_empty());
    }

    #[test]
    fn sqlite_times_are_ms_or_text() {
        let want = from_ms(1_777_885_200_000);
        assert!(want.is_some());
        assert_eq!(time_value(ValueRef::Integer(1_777_885_200_000)), want);
        assert_eq!(time_value(ValueRef::Real(1_777_885_200_000.0)), want);
        assert_eq!(time_value(ValueRef::Text(b"1777885200000")), want);
        assert_eq!(time_value(ValueRef::Text(b"2026-05-04T09:00:00Z")), want);
        // A real that is no number of ms is no time (not the epoch a cast would make).
        for bad in [f64::NAN, f64::INFINITY, -f64::INFINITY, 1.0e300] {
            assert_eq!(time_value(ValueRef::Real(bad)), None, "{bad}");
        }
        assert_eq!(time_value(ValueRef::Text(b"yesterday")), None);
        assert_eq!(time_value(ValueRef::Null), None);
    }

    #[test]
    fn a_json_time_is_ms_or_text() {
        let want = from_ms(1_777_885_200_000);
        assert!(want.is_some());
        assert_eq!(json_time(&serde_json::json!(1_777_885_200_000_i64)), want);
        assert_eq!(json_time(&serde_json::json!("1777885200000")), want);
        assert_eq!(json_time(&serde_json::json!("2026-05-04T09:00:00Z")), want);
        assert_eq!(json_time(&serde_json::json!("soon")), None);
        assert_eq!(json_time(&serde_json::json!(1.5)), None);
        assert_eq!(json_time(&serde_json::json!(null)), None);
    }

    #[test]
    fn file_uris_are_percent_decoded() {
        assert_eq!(percent_decode("/work/ide%20proj").as_deref(), Some("/work/ide proj"));
        assert_eq!(percent_decode("/a%2Bb/c%3d").as_deref(), Some("/a+b/c="));
        assert_eq!(percent_decode("/caf%C3%A9").as_deref(), Some("/café"));
        assert_eq!(percent_decode("/plain").as_deref(), Some("/plain"));
        assert_eq!(percent_decode("/bad%zz"), None);
        assert_eq!(percent_decode("/cut%2"), None);
        assert_eq!(percent_decode("/not-utf8%FF"), None);
    }

    #[test]
    fn hex_round_trips() {
        assert_eq!(decode_hex(b"7b7d"), Some(b"{}".to_vec()));
        assert_eq!(decode_hex(b"7b7"), None);
        assert_eq!(encode_hex(&[0xab, 0x01]), "ab01");
        assert_eq!(slugify("/home/me/my.proj"), "-home-me-my-proj");
    }
}
