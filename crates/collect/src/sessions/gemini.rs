//! Gemini CLI: `<home>/tmp/<project>/chats/session-*.jsonl`, legacy `session-*.json`
//! files, and sub-agent chats under `chats/<parent-session-id>/`.
//!
//! Verified against the source of `google-gemini/gemini-cli` (0.56.0-nightly, August
//! 2026, and its history back to 0.1): `packages/core/src/services/chatRecordingService.ts`
//! and `chatRecordingTypes.ts` (the files), `core/geminiChat.ts`, `core/client.ts`,
//! `utils/environmentContext.ts` (what is recorded as a `user` message),
//! `config/storage.ts` and `config/projectRegistry.ts` (the folders), against issues
//! #20258 and #28036 (real sibling files), and against the files Gemini CLI 0.61.0
//! wrote offline (`fixtures/agents/gemini/0.61.0/`: its `<session_context>` comes in a
//! `$set` `messages` list).
//!
//! - A `.jsonl` chat is an append log: a metadata record (`sessionId`, `projectHash`,
//!   `startTime`, `kind`), then messages (`id`, `timestamp`, `type`, `content`,
//!   `displayContent`, a reply's `model`). A message written again with the same `id`
//!   replaces the earlier one in place (the last write wins). `{"$set": {…}}` updates the
//!   metadata (a `summary` becomes the title; a `messages` list replaces the messages),
//!   and `{"$rewindTo": "<id>"}` drops that message and all after it (all of them when
//!   the id is unknown, as Gemini CLI does): dropped messages are neither prompts nor
//!   activity. A legacy `.json` chat (before April 2026) is one object with `messages[]`.
//! - Prompts are the `user` messages the person typed. Gemini CLI records much else as
//!   `user` messages, none of them a prompt: the `<session_context>` block it sends
//!   first, `<hook_context>` blocks (a hook's output, before or instead of the typed
//!   text) and `<state_snapshot>` compression summaries (these blocks are removed from
//!   the text, and a message with nothing left is no prompt), tool results
//!   (`functionResponse` parts), its `Please continue.` nudge, the shell mode's
//!   `I ran the following shell command:`, the IDE's editor context, the plan mode's
//!   exit notice, `/directory add`'s workspace listing and the history sentinels. A
//!   message that first appears inside a `$set` `messages` list was rebuilt from the
//!   model's history, never typed (a typed one is always recorded on its own line first).
//!   The text is `displayContent` when there is one (what was typed, before `@file`
//!   expansion).
//! - Sub-agents: a chat whose metadata says `kind: "subagent"`, a chat in
//!   `chats/<parent-session-id>/` (since March 2026), and (before February 2026, when
//!   sub-agents shared their parent's `sessionId` and wrote a sibling `session-*.json`)
//!   a legacy chat without `kind` that starts after another chat of the same id: its
//!   messages are activity of the parent session, never prompts. Other chats of one
//!   `sessionId` (a `.json` and the `.jsonl` it was migrated to, a new file started on
//!   resume) are continuations of one session and merge.
//! - Copies of another chat's messages are counted where they were typed, never again:
//!   `--session-file` starts a new session from another one's chat, its messages copied
//!   after the new chat's metadata with their ids and times kept (an own-line message
//!   dated before its chat's `startTime` is such a copy); `/chat resume` and `/restore`
//!   record each loaded turn again on a line of its own, new id and time, then set the
//!   messages to those alone (a `$set` `messages` list that is exactly the last own-line
//!   messages, while others were kept before them: the loaded turns are copies, and the
//!   messages typed before the load stay). Both recorded from 0.61.0 in
//!   `fixtures/gemini-fork/`.
//! - Times: the messages' own `timestamp`s; `startTime` only orders sibling chats and
//!   `lastUpdated` (days after the last message at times) is never used.
//! - Models: the `model` of the messages kept (Gemini's replies carry one).
//! - The working directory: the project folder's `.project_root` file, else its entry
//!   in `<home>/projects.json` (absolute path → folder name). Older folders are named by
//!   `sha256(project root)`, the `projectHash` every chat also records: the paths of
//!   `projects.json`, the `.project_root` files of `tmp/*/` and `history/*/`, and the
//!   directories the chat's own `<session_context>` and `directories` name are hashed
//!   to find it; failing that, the first directory the session context names is taken.
//!   (On Windows `projects.json` holds lower-cased paths, which hash to nothing.) Not
//!   hashed, as this reader does not see them: the working directories other agents'
//!   sessions name, the repositories under the configured roots, the current directory.
//! - Title: the last `summary` (of the chat written last), else the first typed prompt.
//! - Failed commands: the `run_shell_command` calls of a main chat's `gemini` messages
//!   that ran (`toolCalls[]` with `status` `success`, `args.command`, `result[0]
//!   .functionResponse.response.output`): the output's `Exit Code: N` line (written only
//!   when N is not 0, `tools/shell.ts`) gives the status; no such line, no `Signal:` and
//!   no `Error:` line is a pass. Verified in `fixtures/agents/gemini/0.61.0/` (the third
//!   session's `sh check.sh`: `Output: check: 1 test failed\nExit Code: 3`, run with
//!   `--approval-mode yolo`). A sub-agent chat's commands are not counted.
//! - To-do list: the newest successful `write_todos` call (`write_todos_list` from
//!   September to October 2025) among the `toolCalls[]` of the `gemini` messages kept
//!   (`tools/write-todos.ts`, `ToolCallRecord` in `chatRecordingTypes.ts`: `name`,
//!   `args.todos[]` with `description` and `status`, the call's `status` and
//!   `timestamp`). Only completed calls are recorded; one whose `status` is not
//!   `success` (refused, cancelled) set no list. The call's `timestamp` is when the list
//!   was written, else its message's. A message rewritten with the same `id` (its calls
//!   are merged in as they finish) or dropped by a rewind takes its list with it. The
//!   `blocked` status (since 2026) is not one the report knows: such items are dropped.
//!   A sub-agent chat's lists are its own plan and are not read.
//! - Versions: Gemini CLI names no version of its own in these files. Message types
//!   other than `user`, `gemini`, `info`, `error` and `warning`, and records of no
//!   known shape, are noted as unknown.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use report_model::{Agent, Todo};
use serde::Deserialize;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::jsonl::{self, Stats};
use super::lenient::{self, LStr, NotATime, OStr, TEXT_CAP_CHARS};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, config_path, has_extension};
use crate::{Env, SourceStatus, fsread};
use report_model::plural;

/// The message types Gemini CLI writes (`ConversationRecordExtra` in
/// `chatRecordingTypes.ts`).
const KNOWN_TYPES: &[&str] = &["user", "gemini", "info", "error", "warning"];

/// Blocks Gemini CLI puts into `user` messages, removed before the text is judged.
const INJECTED_BLOCKS: &[&str] = &["session_context", "hook_context", "state_snapshot"];

/// Starts of `user` messages Gemini CLI writes itself.
const NOT_PROMPT_PREFIXES: &[&str] = &[
    // Shell mode (`!cmd`): `cli/src/ui/hooks/useExecutionLifecycle.ts`.
    "I ran the following shell command:",
    // IDE context: `getIdeContextParts` in `core/src/core/client.ts`.
    "Here is the user's editor context",
    "Here is a summary of changes in the user's editor context",
    // `getPlanModeExitMessage` in `core/src/utils/approvalModeUtils.ts`.
    "User has manually exited Plan Mode.",
    // `/directory add`: `addDirectoryContext` in `client.ts`.
    "- **Workspace Directories:**",
    // `core/src/utils/historyHardening.ts`.
    "[Continuing from previous AI thoughts...]",
];

/// Whole `user` messages Gemini CLI writes itself: the next-speaker check's nudge
/// (`client.ts`) and the history hardener's closing turn.
const NOT_PROMPT_TEXTS: &[&str] = &["Please continue."];

/// How many directories a chat's session context may name that are kept.
const DIRS_MAX: usize = 16;

/// The text of a message's `content` or `displayContent` (a string, a part
/// `{"text": …}`, or a list of these), with the injected blocks removed, whitespace
/// collapsed and only the first [`TEXT_CAP_CHARS`] characters kept; whether it holds a
/// tool's result; and the directories a `<session_context>` block names.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Content {
    text: String,
    chars: usize,
    pending_space: bool,
    present: bool,
    function_response: bool,
    dirs: Vec<String>,
}

impl Content {
    /// Appends a piece of text, collapsing whitespace, up to the cap.
    fn push_str(&mut self, piece: &str) {
        for character in piece.chars() {
            if self.chars >= TEXT_CAP_CHARS {
                return;
            }
            if character.is_whitespace() {
                self.pending_space = !self.text.is_empty();
                continue;
            }
            if self.pending_space {
                self.text.push(' ');
                self.chars += 1;
                self.pending_space = false;
            }
            self.text.push(character);
            self.chars += 1;
        }
    }

    /// Appends one text part without its injected blocks.
    fn push_part(&mut self, value: &str) {
        self.pending_space = !self.text.is_empty();
        let mut rest = value;
        while let Some((start, tag)) = next_block(rest) {
            self.push_str(&rest[..start]);
            let after_open = &rest[start + tag.len() + 2..];
            let close = format!("</{tag}>");
            let (inside, after) = match after_open.find(&close) {
                Some(end) => (&after_open[..end], &after_open[end + close.len()..]),
                // An unclosed block runs to the end of the part.
                None => (after_open, ""),
            };
            if tag == "session_context" {
                context_dirs(inside, &mut self.dirs);
            }
            self.pending_space = !self.text.is_empty();
            rest = after;
        }
        self.push_str(rest);
    }
}

/// The byte offset and tag of the first injected block's opening tag in `text`.
fn next_block(text: &str) -> Option<(usize, &'static str)> {
    let mut from = 0;
    while let Some(offset) = text[from..].find('<') {
        let start = from + offset;
        let after = &text[start + 1..];
        if let Some(tag) = INJECTED_BLOCKS
            .iter()
            .find(|tag| after.starts_with(**tag) && after[tag.len()..].starts_with('>'))
        {
            return Some((start, tag));
        }
        from = start + 1;
    }
    None
}

/// The directories a `<session_context>` block names (`environmentContext.ts`): `I'm
/// currently working in the directory: <dir>` (until late 2025), or the `  - <dir>`
/// lines under `I'm currently working in the following directories:` or
/// `- **Workspace Directories:**`.
fn context_dirs(block: &str, dirs: &mut Vec<String>) {
    let mut listing = false;
    for line in block.lines() {
        if dirs.len() >= DIRS_MAX {
            return;
        }
        if let Some(dir) = line.trim().strip_prefix("I'm currently working in the directory:") {
            push_dir(dirs, dir);
            listing = false;
        } else if line.contains("I'm currently working in the following directories:")
            || line.contains("**Workspace Directories:**")
        {
            listing = true;
        } else if let Some(dir) = line.strip_prefix("  - ").filter(|_| listing) {
            push_dir(dirs, dir);
        } else {
            listing = false;
        }
    }
}

/// Keeps a directory named by a chat, once.
fn push_dir(dirs: &mut Vec<String>, dir: &str) {
    let dir = dir.trim();
    if !dir.is_empty() && dirs.len() < DIRS_MAX && !dirs.iter().any(|known| known == dir) {
        dirs.push(dir.to_owned());
    }
}

struct ContentSeed<'c>(&'c mut Content);

impl<'de> DeserializeSeed<'de> for ContentSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ContentSeed<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any JSON value")
    }

    fn visit_str<E>(self, value: &str) -> Result<(), E> {
        self.0.present = true;
        self.0.push_part(value);
        Ok(())
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.0.present = true;
        while seq.next_element_seed(ContentSeed(&mut *self.0))?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.0.present = true;
        while let Some(key) = map.next_key::<LStr<'de>>()? {
            match key.get() {
                Some("text") => {
                    if let Some(text) = map.next_value::<LStr<'de>>()?.get() {
                        self.0.push_part(text);
                    }
                }
                Some("functionResponse") => {
                    self.0.function_response = true;
                    map.next_value::<IgnoredAny>()?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut content = Content::default();
        ContentSeed(&mut content).deserialize(deserializer)?;
        Ok(content)
    }
}

/// A list of strings (`directories`); anything else is skipped.
#[derive(Debug, Default)]
struct Strings(Vec<String>);

impl<'de> Deserialize<'de> for Strings {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct StringsVisitor;
        impl<'de> Visitor<'de> for StringsVisitor {
            type Value = Strings;

            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("any JSON value")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Strings, A::Error> {
                let mut found = Vec::new();
                while let Some(item) = seq.next_element::<LStr<'de>>()? {
                    if let Some(text) = item.get().filter(|_| found.len() < DIRS_MAX) {
                        found.push(text.to_owned());
                    }
                }
                Ok(Strings(found))
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Strings, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Strings::default())
            }

            fn visit_str<E>(self, _: &str) -> Result<Strings, E> {
                Ok(Strings::default())
            }

            fn visit_bool<E>(self, _: bool) -> Result<Strings, E> {
                Ok(Strings::default())
            }

            fn visit_i64<E>(self, _: i64) -> Result<Strings, E> {
                Ok(Strings::default())
            }

            fn visit_u64<E>(self, _: u64) -> Result<Strings, E> {
                Ok(Strings::default())
            }

            fn visit_f64<E>(self, _: f64) -> Result<Strings, E> {
                Ok(Strings::default())
            }

            fn visit_unit<E>(self) -> Result<Strings, E> {
                Ok(Strings::default())
            }
        }
        deserializer.deserialize_any(StringsVisitor)
    }
}

/// One line of a `.jsonl` chat: metadata, a message, an update or a rewind.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Record<'a> {
    #[serde(borrow)]
    session_id: LStr<'a>,
    #[serde(borrow)]
    project_hash: LStr<'a>,
    #[serde(borrow)]
    start_time: LStr<'a>,
    #[serde(rename = "kind", borrow)]
    chat_kind: LStr<'a>,
    directories: Strings,
    #[serde(borrow)]
    summary: LStr<'a>,
    #[serde(borrow)]
    id: LStr<'a>,
    #[serde(borrow)]
    timestamp: LStr<'a>,
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    content: Content,
    display_content: Content,
    /// The model of a `gemini` message.
    #[serde(borrow)]
    model: LStr<'a>,
    /// The tool calls of a `gemini` message, decoded only when one is `write_todos` or
    /// `run_shell_command`.
    #[serde(borrow)]
    tool_calls: Option<&'a RawValue>,
    /// A whole legacy chat written on one line.
    #[serde(borrow)]
    messages: Option<Vec<Message<'a>>>,
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
    project_hash: LStr<'a>,
    #[serde(rename = "kind", borrow)]
    chat_kind: LStr<'a>,
    directories: Strings,
    #[serde(borrow)]
    summary: LStr<'a>,
    #[serde(borrow)]
    messages: Option<Vec<Message<'a>>>,
}

/// A message inside a `$set` update or a one-line legacy chat.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Message<'a> {
    #[serde(borrow)]
    id: LStr<'a>,
    #[serde(borrow)]
    timestamp: LStr<'a>,
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    content: Content,
    display_content: Content,
    #[serde(borrow)]
    model: LStr<'a>,
    #[serde(borrow)]
    tool_calls: Option<&'a RawValue>,
}

/// A legacy `.json` chat (read with owned strings: it is parsed from a stream).
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct LegacyChat {
    session_id: OStr,
    project_hash: OStr,
    start_time: OStr,
    #[serde(rename = "kind")]
    chat_kind: OStr,
    directories: Strings,
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
    content: Content,
    display_content: Content,
    model: OStr,
    tool_calls: Option<Box<RawValue>>,
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
    /// What the person typed, when the message is a prompt.
    prompt: Option<String>,
    /// The model that wrote it (a reply's `model`).
    model: Option<String>,
    /// The to-do list its `write_todos` call wrote, with the call's time.
    todos: Option<(Timestamp, Vec<Todo>)>,
    /// Its `run_shell_command` calls: time, command, exit status.
    commands: Vec<super::ShellRun>,
}

/// A message as read, whichever record held it.
struct Incoming<'r> {
    id: &'r str,
    time: Option<Timestamp>,
    kind: &'r LStr<'r>,
    content: &'r Content,
    display: &'r Content,
    model: &'r LStr<'r>,
    tool_calls: Option<&'r RawValue>,
}

/// A chat being replayed.
#[derive(Default)]
struct Chat {
    session_id: Option<String>,
    project_hash: Option<String>,
    start_time: Option<Timestamp>,
    /// `kind` of the metadata: `main`, `subagent`, or none (before February 2026).
    kind: Option<String>,
    summary: Option<String>,
    messages: Vec<Kept>,
    /// Message id → index in `messages`.
    index: HashMap<String, usize>,
    /// The ids of the messages recorded on lines of their own, and the prompt each was.
    own: HashMap<String, Option<String>>,
    /// Those ids in the order first recorded, each once (a message rewritten in place as
    /// its tool calls finish keeps its place); a history load's copies are the last.
    own_order: Vec<String>,
    /// The ids of copies of another chat's messages: an imported session's, a loaded
    /// checkpoint's (see [`read_chat`]). Counted where they were typed, never here.
    copies: HashSet<String>,
    /// Directories the chat names (its session context, `directories`).
    dirs: Vec<String>,
    /// Message types and record shapes the reader does not know.
    unknown: BTreeSet<String>,
}

impl Chat {
    /// Adds a message, or replaces the one with the same id in place. `own_line`: the
    /// message was recorded on its own (or in a legacy chat), not in a `$set` list.
    fn put(&mut self, message: &Incoming, own_line: bool) {
        let Incoming { id, time, kind, content, display, model, tool_calls } = *message;
        if self.copies.contains(id) {
            return;
        }
        match kind.0.as_deref() {
            Some(known) if KNOWN_TYPES.contains(&known) => {}
            Some(other) => {
                self.unknown.insert(format!("type:{other}"));
            }
            None => {}
        }
        for dir in &content.dirs {
            push_dir(&mut self.dirs, dir);
        }
        let prompt = if own_line {
            let prompt = typed_prompt(kind, content, display);
            if self.own.insert(id.to_owned(), prompt.clone()).is_none() {
                self.own_order.push(id.to_owned());
            }
            prompt
        } else {
            self.own.get(id).cloned().flatten()
        };
        let model = model.get().map(str::to_owned);
        let todos = if kind.is("gemini") { write_todos(tool_calls, time) } else { None };
        let commands = if kind.is("gemini") { shell_runs(tool_calls, time) } else { Vec::new() };
        if let Some(&position) = self.index.get(id) {
            let kept = &mut self.messages[position];
            kept.time = time.or(kept.time);
            kept.prompt = prompt;
            if model.is_some() {
                kept.model = model;
            }
            // A rewrite holds every call of the message so far; one without the list
            // (rebuilt from the model's history) does not take it away.
            if todos.is_some() {
                kept.todos = todos;
            }
            if !commands.is_empty() {
                kept.commands = commands;
            }
        } else {
            self.index.insert(id.to_owned(), self.messages.len());
            self.messages.push(Kept { id: id.to_owned(), time, prompt, model, todos, commands });
        }
    }

    /// Drops the message `id` and all after it; all of them when `id` is unknown.
    fn rewind(&mut self, id: &str) {
        let keep = self.index.get(id).copied().unwrap_or(0);
        for dropped in self.messages.drain(keep..) {
            self.index.remove(&dropped.id);
        }
    }

    /// Replaces every message.
    fn clear(&mut self) {
        self.messages.clear();
        self.index.clear();
    }

    /// Whether a `$set` `messages` list of `ids` is a history loaded into the chat
    /// (`/chat resume`, `/restore`): Gemini CLI records each loaded turn again on a line
    /// of its own, new id and time, then sets the messages to those alone. So: the list
    /// is exactly the last messages recorded on lines of their own, and other messages
    /// were kept before them, which the load did not undo (they were typed here).
    fn is_history_load(&self, ids: &[&str]) -> bool {
        let recent = self.own_order.len().checked_sub(ids.len()).map(|at| &self.own_order[at..]);
        !ids.is_empty()
            && recent.is_some_and(|recent| recent.iter().zip(ids).all(|(own, id)| own == id))
            && ids.iter().all(|id| self.index.contains_key(*id))
            && self.messages.len() > ids.len()
    }

    /// Takes the messages `ids` out as copies.
    fn drop_copies(&mut self, ids: &[&str]) {
        self.copies.extend(ids.iter().map(|id| (*id).to_owned()));
        self.messages.retain(|kept| !self.copies.contains(&kept.id));
        self.index =
            self.messages.iter().enumerate().map(|(at, kept)| (kept.id.clone(), at)).collect();
    }

    /// Notes the metadata fields a record or an update holds.
    fn note_metadata(
        &mut self,
        session_id: &LStr,
        project_hash: &LStr,
        kind: &LStr,
        directories: &Strings,
        summary: &LStr,
    ) {
        if let Some(session_id) = session_id.get() {
            self.session_id = Some(session_id.to_owned());
        }
        if let Some(hash) = project_hash.get() {
            self.project_hash = Some(hash.to_owned());
        }
        if let Some(kind) = kind.get() {
            if !matches!(kind, "main" | "subagent") {
                self.unknown.insert(format!("kind:{kind}"));
            }
            self.kind = Some(kind.to_owned());
        }
        for dir in &directories.0 {
            push_dir(&mut self.dirs, dir);
        }
        if let Some(summary) = summary.get() {
            self.summary = Some(summary.to_owned());
        }
    }

    /// Whether the chat is a sub-agent's by its own word.
    fn says_subagent(&self) -> bool {
        self.kind.as_deref() == Some("subagent")
    }

    /// The time of its first message, else its `startTime`: when it began.
    fn began(&self) -> Option<Timestamp> {
        self.messages.iter().filter_map(|kept| kept.time).min().or(self.start_time)
    }

    /// The time of its last message.
    fn ended(&self) -> Option<Timestamp> {
        self.messages.iter().filter_map(|kept| kept.time).max()
    }

    /// Whether any message kept is at or after `since`.
    fn active_since(&self, since: Timestamp) -> bool {
        self.messages.iter().any(|kept| kept.time.is_some_and(|time| time >= since))
    }

    /// The session, with `default_id` when the chat names none.
    fn into_draft(mut self, default_id: &str, since: Timestamp, cwd: Option<&PathBuf>) -> Draft {
        let mut session =
            Draft::new(Agent::Gemini, self.session_id.as_deref().unwrap_or(default_id));
        session.cwd = cwd.cloned();
        let subagent = self.says_subagent();
        session.title = self.summary;
        for kept in &mut self.messages {
            // A sub-agent's commands are not the main chain's.
            if !subagent {
                for (time, command, exit) in kept.commands.drain(..) {
                    session.note_command(time, &command, exit);
                }
            }
            // The newest list wins, whenever it was written: it is what was left.
            if let Some((written, todos)) = kept.todos.take() {
                session.note_todos(written, todos);
            }
            let Some(time) = kept.time else { continue };
            if let Some(text) = &kept.prompt {
                session.note_prompt_text(time, text);
            }
            if time >= since {
                session.activity.push(time);
                if kept.prompt.is_some() {
                    session.prompts.push(time);
                }
                if let Some(model) = &kept.model {
                    session.note_model(model);
                }
            }
        }
        session
    }
}

/// One recorded tool call (`ToolCallRecord`), as far as a `write_todos` call needs.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ToolCall<'a> {
    #[serde(borrow)]
    name: LStr<'a>,
    #[serde(borrow)]
    status: LStr<'a>,
    #[serde(borrow)]
    timestamp: LStr<'a>,
    #[serde(borrow)]
    args: Option<&'a RawValue>,
    /// What the tool sent back (`functionResponse` parts).
    #[serde(borrow)]
    result: Option<&'a RawValue>,
}

/// The arguments of a `write_todos` call: `{"todos": [{"description", "status"}]}`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct TodosArgs<'a> {
    #[serde(borrow)]
    todos: Option<&'a RawValue>,
}

/// The to-do list the newest successful `write_todos` call of a message's `toolCalls`
/// wrote, with the call's time (else the message's); the calls are decoded only when
/// their text names the tool.
fn write_todos(
    tool_calls: Option<&RawValue>,
    message_time: Option<Timestamp>,
) -> Option<(Timestamp, Vec<Todo>)> {
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\"write_todos"));
    let tool_calls = tool_calls?;
    FINDER.find(tool_calls.get().as_bytes())?;
    let calls: Vec<&RawValue> = serde_json::from_str(tool_calls.get()).ok()?;
    let mut newest: Option<(Timestamp, Vec<Todo>)> = None;
    for call in calls {
        let Ok(call) = serde_json::from_str::<ToolCall>(call.get()) else { continue };
        let named = call.name.is("write_todos") || call.name.is("write_todos_list");
        if !named || !call.status.is("success") {
            continue;
        }
        let Some(time) = call.timestamp.timestamp().or(message_time) else { continue };
        let Some(args) = call.args else { continue };
        let Ok(args) = serde_json::from_str::<TodosArgs>(args.get()) else { continue };
        let Some(todos) = args.todos.and_then(super::todo_list) else { continue };
        if newest.as_ref().is_none_or(|(known, _)| time >= *known) {
            newest = Some((time, todos));
        }
    }
    newest
}

/// The arguments of a `run_shell_command` call: `{"command", "description"?, "dir_path"?}`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ShellArgs<'a> {
    #[serde(borrow)]
    command: LStr<'a>,
}

/// The `run_shell_command` calls of a message's `toolCalls` that ran (`status`
/// `success`), with their exit status: the `Exit Code: N` line of the output the tool
/// sent back (`result[].functionResponse.response.output`), written only when N is not
/// 0; a call whose output has no such line, no `Signal:` line and no `Error:` line
/// passed. Decoded only when the text names the tool.
fn shell_runs(
    tool_calls: Option<&RawValue>,
    message_time: Option<Timestamp>,
) -> Vec<super::ShellRun> {
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\"run_shell_command\""));
    let Some(tool_calls) = tool_calls else { return Vec::new() };
    if FINDER.find(tool_calls.get().as_bytes()).is_none() {
        return Vec::new();
    }
    let Ok(calls) = serde_json::from_str::<Vec<&RawValue>>(tool_calls.get()) else {
        return Vec::new();
    };
    let mut runs = Vec::new();
    for raw in calls {
        let Ok(call) = serde_json::from_str::<ToolCall>(raw.get()) else { continue };
        if !call.name.is("run_shell_command") || !call.status.is("success") {
            continue;
        }
        let Some(time) = call.timestamp.timestamp().or(message_time) else { continue };
        let Some(Ok(args)) = call.args.map(|args| serde_json::from_str::<ShellArgs>(args.get()))
        else {
            continue;
        };
        let Some(command) = args.command.get() else { continue };
        let Some(output) = call.result.and_then(shell_output) else { continue };
        let mut exit = Some(0);
        for line in output.lines() {
            if let Some(code) = line.trim().strip_prefix("Exit Code: ") {
                exit = code.trim().parse().ok();
            } else if line.starts_with("Signal: ") || line.starts_with("Error: ") {
                exit = exit.filter(|code| *code != 0);
            }
        }
        if let Some(exit) = exit {
            runs.push((time, command.to_owned(), exit));
        }
    }
    runs
}

/// The `output` of a tool call's first `functionResponse` (`result: [{"functionResponse":
/// {"response": {"output": "…"}}}]`).
fn shell_output(result: &RawValue) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(result.get()).ok()?;
    value
        .as_array()?
        .iter()
        .find_map(|part| part.pointer("/functionResponse/response/output")?.as_str())
        .map(str::to_owned)
}

/// What the person typed, when a message recorded on its own line is a prompt.
fn typed_prompt(kind: &LStr, content: &Content, display: &Content) -> Option<String> {
    if !kind.is("user") || content.function_response {
        return None;
    }
    let injected = NOT_PROMPT_TEXTS.contains(&content.text.as_str())
        || NOT_PROMPT_PREFIXES.iter().any(|prefix| content.text.starts_with(prefix));
    if injected {
        return None;
    }
    let typed = if display.present && !display.text.is_empty() { display } else { content };
    (!typed.text.is_empty()).then(|| typed.text.clone())
}

/// One chat file read from a project's `chats/` folder.
struct ChatFile {
    /// The file name without its extension.
    stem: String,
    legacy: bool,
    chat: Chat,
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
    // sha256(path) → path, for folders named by a hash; built when first needed.
    let mut hashes: Option<HashMap<String, PathBuf>> = None;
    let mut counts = Stats::default();
    let mut without_cwd = 0_u64;
    let projects = ctx.list_dir(&tmp);
    for project in &projects {
        let chats_dir = project.join("chats");
        if !chats_dir.is_dir() {
            continue;
        }
        let mut files = Vec::new();
        let mut subagent_folders = Vec::new();
        for path in ctx.list_dir(&chats_dir) {
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
            let Some(stem) = super::file_stem(&path) else { continue };
            let chat = if legacy {
                read_legacy(ctx, &mut counts, &path)
            } else {
                Some(read_chat(ctx, &mut counts, &path))
            };
            if let Some(chat) = chat {
                files.push(ChatFile { stem, legacy, chat });
            }
        }
        let mut cwd = project_root(ctx, project).or_else(|| {
            let slug = super::file_name(project)?;
            registry.get(&slug).cloned()
        });
        if cwd.is_none() && files.iter().any(|file| file.chat.active_since(ctx.since)) {
            let table = hashes.get_or_insert_with(|| hash_table(ctx, &home, &projects, &registry));
            cwd = recover_cwd(project, &files, table);
        }
        for file in &files {
            for unknown in &file.chat.unknown {
                status.note_unknown(unknown);
            }
        }
        let mut sessions = assemble(files, ctx.since, cwd.as_ref());
        for folder in subagent_folders {
            read_subagents(ctx, &mut counts, &folder, &mut sessions, &mut status);
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

/// Turns the chats of one project folder into sessions: the chats of one `sessionId`
/// merge, but a sub-agent's chat only adds activity to its parent session.
fn assemble(files: Vec<ChatFile>, since: Timestamp, cwd: Option<&PathBuf>) -> Drafts {
    // The earliest chat of each session that is not a sub-agent's by its own word: its
    // start and file name.
    let mut first: HashMap<String, (Option<Timestamp>, String)> = HashMap::new();
    for file in &files {
        if file.chat.says_subagent() {
            continue;
        }
        let id = file.chat.session_id.clone().unwrap_or_else(|| file.stem.clone());
        let began = file.chat.began();
        let earlier = |known: &(Option<Timestamp>, String)| match (began, known.0) {
            (Some(began), Some(known)) => began < known,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if first.get(&id).is_none_or(earlier) {
            first.insert(id, (began, file.stem.clone()));
        }
    }
    let mut sessions = Drafts::new();
    // The title comes from the chat written last that has a summary.
    let mut titles: HashMap<String, (Option<Timestamp>, String)> = HashMap::new();
    let mut subagents = Vec::new();
    for file in files {
        let id = file.chat.session_id.clone().unwrap_or_else(|| file.stem.clone());
        // Before `kind` existed, a sub-agent wrote a `.json` sibling with its parent's
        // `sessionId`, started while the parent ran.
        let began = file.chat.began();
        let sibling = file.legacy
            && file.chat.kind.is_none()
            && first.get(&id).is_some_and(|(first, stem)| {
                let later = began.zip(*first).is_some_and(|(mine, first)| mine > first);
                *stem != file.stem && later
            });
        if file.chat.says_subagent() || sibling {
            subagents.push((id, file.chat));
            continue;
        }
        if let Some(summary) = &file.chat.summary {
            let ended = file.chat.ended();
            if titles.get(&id).is_none_or(|(last, _)| ended >= *last) {
                titles.insert(id.clone(), (ended, summary.clone()));
            }
        }
        add_draft(&mut sessions, file.chat.into_draft(&id, since, cwd));
    }
    for (id, (_, title)) in titles {
        if let Some(session) = sessions.get_mut(&id) {
            session.title = Some(title);
        }
    }
    for (id, chat) in subagents {
        let session = super::draft(&mut sessions, Agent::Gemini, &id);
        if session.cwd.is_none() {
            session.cwd = cwd.cloned();
        }
        add_activity(session, &chat, since);
    }
    sessions
}

/// Adds a sub-agent chat's messages to a session's activity (never its prompts).
fn add_activity(session: &mut Draft, chat: &Chat, since: Timestamp) {
    for kept in &chat.messages {
        if let Some(time) = kept.time.filter(|time| *time >= since) {
            session.activity.push(time);
        }
    }
}

/// Replays one `.jsonl` chat.
fn read_chat(ctx: &mut Ctx, stats: &mut Stats, path: &Path) -> Chat {
    let mut chat = Chat::default();
    jsonl::read_lines(ctx, stats, path, |bytes| {
        let record: Record = serde_json::from_slice(bytes)?;
        // A message whose time is no time is kept undated, and the line warned about.
        let mut not_a_time = Ok(());
        if let Some(target) = record.rewind_to.0.as_deref() {
            chat.rewind(target);
        } else if let Some(id) = record.id.get() {
            let time;
            (time, not_a_time) = lenient::or_undated(record.timestamp.time("timestamp"));
            if time.zip(chat.start_time).is_some_and(|(time, start)| time < start) {
                // `--session-file` starts a new session from another one's chat: its
                // messages copied, ids and times kept, after the new chat's metadata.
                chat.copies.insert(id.to_owned());
                return Ok(());
            }
            let message = Incoming {
                id,
                time,
                kind: &record.kind,
                content: &record.content,
                display: &record.display_content,
                model: &record.model,
                tool_calls: record.tool_calls,
            };
            chat.put(&message, true);
        } else if let Some(update) = record.set {
            chat.note_metadata(
                &update.session_id,
                &update.project_hash,
                &update.chat_kind,
                &update.directories,
                &update.summary,
            );
            if let Some(messages) = update.messages {
                let ids: Vec<&str> =
                    messages.iter().filter_map(|message| message.id.get()).collect();
                if chat.is_history_load(&ids) {
                    chat.drop_copies(&ids);
                } else {
                    // A checkpoint: the messages are rebuilt from this list.
                    chat.clear();
                    not_a_time = put_all(&mut chat, &messages, false);
                }
            }
        } else if record.session_id.get().is_some() {
            chat.note_metadata(
                &record.session_id,
                &record.project_hash,
                &record.chat_kind,
                &record.directories,
                &record.summary,
            );
            if chat.start_time.is_none() {
                let start_time;
                (start_time, not_a_time) = lenient::or_undated(record.start_time.time("startTime"));
                chat.start_time = start_time;
            }
            if let Some(messages) = &record.messages {
                not_a_time = not_a_time.and(put_all(&mut chat, messages, true));
            }
        } else {
            chat.unknown.insert("record without id, $set or sessionId".to_owned());
        }
        not_a_time?;
        Ok(())
    });
    chat
}

/// Puts the messages of a list into a chat; [`NotATime`] (the first) when a message's
/// time is no time (the message is put undated).
fn put_all(chat: &mut Chat, messages: &[Message], own_line: bool) -> Result<(), NotATime> {
    let mut not_a_time = Ok(());
    for message in messages {
        if let Some(id) = message.id.get() {
            let (time, bad) = lenient::or_undated(message.timestamp.time("timestamp"));
            not_a_time = not_a_time.and(bad);
            let incoming = Incoming {
                id,
                time,
                kind: &message.kind,
                content: &message.content,
                display: &message.display_content,
                model: &message.model,
                tool_calls: message.tool_calls,
            };
            chat.put(&incoming, own_line);
        }
    }
    not_a_time
}

/// Reads a legacy `.json` chat, streamed; `None` (with a warning) when it is not valid.
fn read_legacy(ctx: &mut Ctx, stats: &mut Stats, path: &Path) -> Option<Chat> {
    let legacy: LegacyChat = jsonl::read_document(ctx, stats, path, fsread::DOCUMENT_MAX)?;
    let mut times = jsonl::BadTimes::default();
    let start_time = times.check(None, legacy.start_time.0.time("startTime"));
    let mut chat = Chat { start_time, ..Chat::default() };
    chat.note_metadata(
        &legacy.session_id.0,
        &legacy.project_hash.0,
        &legacy.chat_kind.0,
        &legacy.directories,
        &legacy.summary.0,
    );
    for message in &legacy.messages {
        if let Some(id) = message.id.0.get() {
            let incoming = Incoming {
                id,
                time: times.check(None, message.timestamp.0.time("timestamp")),
                kind: &message.kind.0,
                content: &message.content,
                display: &message.display_content,
                model: &message.model.0,
                tool_calls: message.tool_calls.as_deref(),
            };
            chat.put(&incoming, true);
        }
    }
    times.report(ctx, stats, path);
    Some(chat)
}

/// Adds the messages of the sub-agent chats in `chats/<parent-session-id>/` (`.jsonl`,
/// or `.json` in March 2026) to the parent session's activity. Chats of a parent that
/// is not among `sessions` (not modified since the window began) are not read.
fn read_subagents(
    ctx: &mut Ctx,
    stats: &mut Stats,
    folder: &Path,
    sessions: &mut Drafts,
    source: &mut SourceStatus,
) {
    let Some(parent) = super::file_name(folder) else { return };
    for path in ctx.list_dir(folder) {
        let legacy = has_extension(&path, "json");
        if !(legacy || has_extension(&path, "jsonl")) || path.is_dir() {
            continue;
        }
        source.files += 1;
        let Some(session) = sessions.get_mut(&parent) else { continue };
        if !ctx.modified_since(&path) {
            continue;
        }
        let chat = if legacy {
            read_legacy(ctx, stats, &path)
        } else {
            Some(read_chat(ctx, stats, &path))
        };
        if let Some(chat) = chat {
            for unknown in &chat.unknown {
                source.note_unknown(unknown);
            }
            add_activity(session, &chat, ctx.since);
        }
    }
}

/// The project root a folder names in its `.project_root` file.
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

/// `sha256(path)` → path for the project roots Gemini CLI's own files name: the paths of
/// `projects.json` and the `.project_root` files of `tmp/*/` and `history/*/`.
fn hash_table(
    ctx: &mut Ctx,
    home: &Path,
    projects: &[PathBuf],
    registry: &HashMap<String, PathBuf>,
) -> HashMap<String, PathBuf> {
    let mut candidates: Vec<PathBuf> = registry.values().cloned().collect();
    for project in projects {
        candidates.extend(project_root(ctx, project));
    }
    for folder in ctx.list_dir(&home.join("history")) {
        candidates.extend(project_root(ctx, &folder));
    }
    candidates.into_iter().filter_map(|path| Some((project_hash(path.to_str()?), path))).collect()
}

/// The working directory of a folder without `.project_root` or registry entry: a known
/// root whose hash is the folder's name or a chat's `projectHash`, else a directory the
/// chats name whose hash is, else the first directory a chat's session context names.
fn recover_cwd(
    project: &Path,
    files: &[ChatFile],
    table: &HashMap<String, PathBuf>,
) -> Option<PathBuf> {
    let mut targets: Vec<String> = Vec::new();
    if let Some(name) = super::file_name(project).filter(|name| is_sha256_hex(name)) {
        targets.push(name);
    }
    for file in files {
        if let Some(hash) = file.chat.project_hash.as_deref().filter(|hash| is_sha256_hex(hash)) {
            if !targets.iter().any(|known| known == hash) {
                targets.push(hash.to_owned());
            }
        }
    }
    if let Some(root) = targets.iter().find_map(|target| table.get(target)) {
        return Some(root.clone());
    }
    let named = files.iter().flat_map(|file| file.chat.dirs.iter());
    let mut fallback = None;
    for dir in named {
        if targets.contains(&project_hash(dir)) {
            return Some(PathBuf::from(dir));
        }
        fallback = fallback.or_else(|| Some(PathBuf::from(dir)));
    }
    fallback
}

/// Gemini CLI's `getProjectHash`: the SHA-256 of the path's UTF-8 bytes, in lower-case
/// hex.
fn project_hash(path: &str) -> String {
    use sha2::Digest as _;
    use std::fmt::Write as _;
    let digest = sha2::Sha256::digest(path.as_bytes());
    let mut hex = String::with_capacity(64);
    for byte in digest {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

/// Whether a name is 64 lower-case hex digits, as a SHA-256 folder name is.
fn is_sha256_hex(name: &str) -> bool {
    name.len() == 64 && name.bytes().all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content(json: &str) -> Content {
        serde_json::from_str(json).expect("content parses")
    }

    #[test]
    fn injected_blocks_are_removed_and_their_directories_kept() {
        let context = content(
            r#"[{"text":"<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n- **Workspace Directories:**\n  - /home/dev/app\n  - /home/dev/lib\n- **Directory Structure:**\n\nShowing up to 200 items\n</session_context>"}]"#,
        );
        assert_eq!(context.text, "");
        assert!(context.present);
        assert_eq!(context.dirs, ["/home/dev/app", "/home/dev/lib"]);
        let old = content(
            r#""<session_context>\nI'm currently working in the directory: /srv/x y\n</session_context>""#,
        );
        assert_eq!(old.dirs, ["/srv/x y"]);
        let hooked = content(r#""<hook_context>branch main</hook_context>\n\nfix   the build""#);
        assert_eq!(hooked.text, "fix the build");
        let unclosed = content(r#"["typed", {"text": "<state_snapshot>summary"}]"#);
        assert_eq!(unclosed.text, "typed");
        let tool = content(r#"[{"functionResponse":{"id":"c1","name":"ls","response":{}}}]"#);
        assert!(tool.function_response);
    }

    /// Blocks anywhere in a part: after text, between texts, after a `<` that opens no
    /// block (a generic type, a comparison, a tag whose name only starts like one), and
    /// a session context whose first line follows its tag; the text around each block
    /// is kept with one space between.
    #[test]
    fn injected_blocks_are_found_among_other_angle_brackets() {
        let mixed = content(
            r#""Is Vec<u8> < 3 <hook_contextual> ok?<hook_context>branch main</hook_context>Then fix<state_snapshot>old</state_snapshot>it""#,
        );
        assert_eq!(mixed.text, "Is Vec<u8> < 3 <hook_contextual> ok? Then fix it");
        let late = content(
            r#""see <session_context>I'm currently working in the directory: /srv/app\n</session_context>""#,
        );
        assert_eq!(late.text, "see");
        assert_eq!(late.dirs, ["/srv/app"]);
        let short = content(r#""a <b> c""#);
        assert_eq!(short.text, "a <b> c");
    }

    /// The text kept is the first [`TEXT_CAP_CHARS`] characters, the spaces put back
    /// between words counted.
    #[test]
    fn the_text_is_capped_with_its_spaces_counted() {
        let words = "ab  ".repeat(100);
        let long = content(&format!("{words:?}"));
        assert_eq!(long.text.chars().count(), TEXT_CAP_CHARS);
        assert!(long.text.starts_with("ab ab ab"), "{}", long.text);
        let solid = content(&format!("{:?}", "x".repeat(300)));
        assert_eq!(solid.text, "x".repeat(TEXT_CAP_CHARS));
    }

    /// A directory is kept once, a blank one never, and at most [`DIRS_MAX`] of them.
    #[test]
    fn directories_are_kept_once_and_up_to_the_cap() {
        let listed = content(
            r#""<session_context>\n- **Workspace Directories:**\n  - /a\n  - /a\n  -  \n  - /b\n</session_context>""#,
        );
        assert_eq!(listed.dirs, ["/a", "/b"]);
        let mut dirs = Vec::new();
        for number in 0..DIRS_MAX + 4 {
            push_dir(&mut dirs, &format!("/dir{number}"));
            push_dir(&mut dirs, "/dir0");
        }
        assert_eq!(dirs.len(), DIRS_MAX);
        assert_eq!(dirs.last().map(String::as_str), Some(format!("/dir{}", DIRS_MAX - 1).as_str()));
    }

    #[test]
    fn gemini_cli_s_own_user_messages_are_not_prompts() {
        let user = LStr(Some("user".into()));
        let none = Content::default();
        for text in [
            r#""Please continue.""#,
            r#""I ran the following shell command:\n```sh\nls\n```""#,
            r#""User has manually exited Plan Mode. Switching to Default.""#,
            r#"[{"text":"<hook_context>x</hook_context>"}]"#,
        ] {
            assert_eq!(typed_prompt(&user, &content(text), &none), None, "{text}");
        }
        // The nudge carries the original prompt as its display text: still no prompt.
        let shown = content(r#"[{"text":"fix it"}]"#);
        assert_eq!(typed_prompt(&user, &content(r#"[{"text":"Please continue."}]"#), &shown), None);
        let expanded = content(r#"[{"text":"Summarize @a.md"},{"text":"--- a.md ---"}]"#);
        let display = content(r#"[{"text":"Summarize @a.md"}]"#);
        assert_eq!(typed_prompt(&user, &expanded, &display).as_deref(), Some("Summarize @a.md"));
        let reply = LStr(Some("gemini".into()));
        assert_eq!(typed_prompt(&reply, &display, &none), None);
    }

    #[test]
    fn project_hash_is_sha256_hex() {
        assert_eq!(
            project_hash(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert!(is_sha256_hex(&project_hash("/home/dev/app")));
        assert!(!is_sha256_hex("gemini-proj"));
        // Hex digits alone, or 64 characters alone, are not a hash.
        assert!(!is_sha256_hex("abc123"));
        assert!(!is_sha256_hex(&"g".repeat(64)));
        assert!(!is_sha256_hex(&project_hash("/x").to_uppercase()));
    }
}
