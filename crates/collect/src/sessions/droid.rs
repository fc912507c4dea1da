//! Factory Droid: `<factory>/sessions/-<project slug>/<session id>.jsonl` (older versions
//! wrote `<factory>/sessions/<session id>.jsonl`; side chats go to `sessions/btw/`), each
//! with a `<session id>.settings.json` beside it. `<factory>` is the config's `droid`
//! folder, else `$FACTORY_HOME_OVERRIDE/.factory` (Droid's own override of the home
//! folder), else `~/.factory`.
//!
//! Verified in the `@factory/cli-linux-x64` 0.225.2 binary (the bundled JavaScript; the
//! `droid` npm package 0.215.0 only downloads it), and recorded from it
//! (`fixtures/agents/droid/0.225.2/`, `droid exec` with a custom model):
//!
//! - The first line is a `session_start` record: `id`, `title`, `owner`, `version` (the
//!   file format's, `2`), `cwd`, optional `lastCwd` (the folder the session moved to),
//!   `parent` (a forked session), `callingSessionId` (set on a sub-agent's session, with
//!   `callingToolUseId`), `isSessionTitleManuallySet`, and, in old files, `sessionTitle`
//!   instead of `title`. It has no time. Droid rewrites this first line when the title
//!   changes. A new session's title is the placeholder "New Session" (or its
//!   translation: "Nuova sessione", "新しいセッション", "새 세션", "新会话") or "Generating
//!   title…" until one is generated: none of these is a title.
//! - Then `message` records `{id, timestamp, parentId, message: {role, content, …}}`
//!   (`timestamp` RFC 3339, or epoch milliseconds in some versions), and `todo_state` and
//!   `compaction_state` records with a `timestamp`; after each turn an
//!   `agent_turn_outcome` record (`turnId`, `reason`, `resultKind`), with no time (seen
//!   first in the 0.225.2 recording).
//! - Droid's own test of a typed prompt (`qk` in the bundle): a `user` message whose
//!   `visibility` is absent or `both`, not `hiddenFromUserViews`, without
//!   `hookEventName`, whose `userMessageSource` is not an automation (`automation`,
//!   `readiness-remediation`, `readiness-evaluation`, `wiki-generation`,
//!   `wiki-ci-setup`), with text. A user message holding `tool_result` blocks is a
//!   tool's output. Droid strips `<system-reminder>` blocks (injected context) from user
//!   text before showing it: so does this reader. A sub-agent's prompt starts with
//!   `# Task Tool Invocation`.
//! - Assistant messages name their model in `modelId` (third-party readers also saw
//!   `model`); the settings file's `model` is the session's model. A custom model of
//!   one's own (BYOK, `customModels` in `~/.factory/settings.json`) is named
//!   `custom:<display name, blanks as dashes>-<index>` (the bundle's `Ct`); it is shown
//!   by its display name, as Droid's model picker shows it ([`shown_model`]).
//! - The shell tool is `Execute` (`input.command`); its `tool_result` (matched by
//!   `tool_use_id`, `is_error` on a failure) ends with `[Process exited with code <n>]`
//!   whenever the process exited, whatever the status (`Execute`'s result builder in the
//!   bundle appends it last; killed by a signal, or left in the background, it has none,
//!   and no status is read). Seen in the 0.225.2 recording: `sh check.sh` failing with
//!   `Error: Command failed (exit code: 3)` … `[Process exited with code 3]`.
//! - The to-do list is what Droid itself shows (its bundle's `_m`, `si`, `cf`, `ti`, `bm`):
//!   the newest `TodoWrite` `tool_use` whose result succeeded, else the newest whose
//!   result is not an error; its `input.todos` is a list of `{content, status}` objects
//!   (`pending`, `in_progress`, `completed`; others dropped), a list of strings or one
//!   string, read as lines (`[completed] text`, `[x] text`, `[ ] text`, each maybe after
//!   `1.` or `-`; any other line a pending item), or a string holding a JSON list. The
//!   `todo_state` records hold the same input as given and are not read. `droid exec`
//!   offers no `TodoWrite`, so none was recorded: this part is read from the bundle's code.
//! - The files name no Droid version.
//!
//! So: prompts as Droid counts them; activity is every record's time; a command's run is
//! its `Execute` call with its result's exit code, at the result's time; the to-do list is
//! the one Droid shows, at its call's time (an item without text left out); the title is the
//! `session_start` title unless a placeholder, else the first prompt; the working
//! directory is `lastCwd`, else `cwd`; models are those of the assistant messages in the
//! window, else the settings file's. A sub-agent's session (`callingSessionId`) is
//! activity of the calling session, never prompts; one without `callingSessionId` whose
//! prompt is a Task invocation (older versions) has no known parent and is left out.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use report_model::{Agent, TODOS_MAX, Todo, TodoStatus};
use serde::Deserialize;
use serde::de::{DeserializeSeed as _, Deserializer};

use super::jsonl::{self, Stats};
use super::lenient::{self, LBool, LNum, LStr, NotATime, Object, Objects, Stripping, Text};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, agent_home, config_path};
use crate::{Env, SourceStatus};

/// Titles Droid writes before it has one.
const PLACEHOLDER_TITLES: &[&str] = &[
    "New Session",
    "Nuova sessione",
    "\u{65b0}\u{3057}\u{3044}\u{30bb}\u{30c3}\u{30b7}\u{30e7}\u{30f3}",
    "\u{c0c8} \u{c138}\u{c158}",
    "\u{65b0}\u{4f1a}\u{8bdd}",
    "Generating title\u{2026}",
];

/// `userMessageSource` values of messages no person typed.
const AUTOMATED_SOURCES: &[&str] = &[
    "automation",
    "readiness-remediation",
    "readiness-evaluation",
    "wiki-generation",
    "wiki-ci-setup",
];

/// How a sub-agent's prompt starts.
const TASK_PROMPT: &str = "# Task Tool Invocation";

/// The record types Droid writes in a session file.
const KNOWN_TYPES: &[&str] =
    &["session_start", "message", "todo_state", "compaction_state", "agent_turn_outcome"];

/// The fields of one line that the reader uses.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Record<'a> {
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    #[serde(borrow)]
    id: LStr<'a>,
    #[serde(borrow)]
    timestamp: Option<&'a serde_json::value::RawValue>,
    #[serde(borrow)]
    title: LStr<'a>,
    #[serde(borrow)]
    session_title: LStr<'a>,
    #[serde(borrow)]
    cwd: LStr<'a>,
    #[serde(borrow)]
    last_cwd: LStr<'a>,
    #[serde(borrow)]
    calling_session_id: LStr<'a>,
    version: LNum,
    #[serde(borrow)]
    message: Option<Message<'a>>,
}

/// A `message` record's message.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Message<'a> {
    #[serde(borrow)]
    role: LStr<'a>,
    #[serde(deserialize_with = "stripped")]
    content: Text,
    #[serde(borrow)]
    visibility: LStr<'a>,
    hidden_from_user_views: LBool,
    is_user_visible: Option<LBool>,
    #[serde(borrow)]
    hook_event_name: LStr<'a>,
    #[serde(borrow)]
    user_message_source: LStr<'a>,
    #[serde(borrow)]
    model_id: LStr<'a>,
    #[serde(borrow)]
    model: LStr<'a>,
}

/// Droid's shell tool.
const SHELL_TOOL: &str = "Execute";

/// Droid's to-do tool.
const TODO_TOOL: &str = "TodoWrite";

/// How Droid ends a shell tool's result when the process exited.
const EXIT_LINE: &str = "[Process exited with code ";

/// A `message` record read again for its tool calls and results, where the line names
/// one (`"tool_use"` or `"tool_result"`): the few lines that carry them.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ToolLine<'a> {
    #[serde(borrow)]
    message: Object<ToolMessage<'a>>,
}

/// A message's content blocks.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ToolMessage<'a> {
    #[serde(borrow)]
    content: Objects<ToolBlock<'a>>,
}

/// A `tool_use` or `tool_result` block (other blocks have neither's fields).
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
    input: Object<ToolInput<'a>>,
    #[serde(borrow)]
    tool_use_id: LStr<'a>,
    is_error: LBool,
    /// A result's output: a string, or a list of text blocks.
    #[serde(borrow)]
    content: Option<&'a serde_json::value::RawValue>,
}

/// The shell tool's or the to-do tool's input.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ToolInput<'a> {
    #[serde(borrow)]
    command: LStr<'a>,
    #[serde(borrow)]
    todos: Option<&'a serde_json::value::RawValue>,
}

/// What a session's tool calls told so far: the shell calls waiting for their results,
/// the to-do tool's calls and which calls' results succeeded or failed.
#[derive(Default)]
struct Tools {
    shell: HashMap<String, String>,
    todo_calls: Vec<(String, Timestamp, Vec<Todo>)>,
    succeeded: HashSet<String>,
    failed: HashSet<String>,
}

impl Tools {
    /// The list Droid shows: the newest call whose result succeeded, else the newest one
    /// whose result is not an error (`_m` in the bundle).
    fn todos(mut self) -> Option<(Timestamp, Vec<Todo>)> {
        let newest_ok = self.todo_calls.iter().rposition(|(id, ..)| self.succeeded.contains(id));
        let newest_not_failed =
            || self.todo_calls.iter().rposition(|(id, ..)| !self.failed.contains(id));
        let at = newest_ok.or_else(newest_not_failed)?;
        let (_, time, todos) = self.todo_calls.swap_remove(at);
        Some((time, todos))
    }
}

/// A text block of a result given as a list.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ResultText<'a> {
    #[serde(borrow)]
    text: LStr<'a>,
}

/// The part of `<id>.settings.json` the reader uses.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Settings<'a> {
    #[serde(borrow)]
    model: LStr<'a>,
}

/// A message's text, without the blocks Droid injects.
fn stripped<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Text, D::Error> {
    Stripping.deserialize(deserializer)
}

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let home: PathBuf = agent_home(env, config, report_model::Agent::Droid, || {
        env.var("FACTORY_HOME_OVERRIDE")
            .map_or_else(|| env.home.clone(), |home| config_path(env, Path::new(home)))
            .join(".factory")
    });
    let sessions = home.join("sessions");
    let mut status =
        SourceStatus { locations: vec![home], ..SourceStatus::new(report_model::Source::Droid) };
    let mut drafts = Drafts::new();
    let mut fresh = Vec::new();
    status.found = sessions.is_dir();
    if !status.found {
        return (drafts, status);
    }
    collect_files(ctx, &sessions, true, &mut status.files, &mut fresh);
    let mut counts = Stats::default();
    for path in &fresh {
        if let Some(draft) = read_session(ctx, &mut counts, &mut status, path) {
            add_draft(&mut drafts, draft);
        }
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// The `*.jsonl` files of `folder` (and, at the top, of its sub-folders), sorted: each
/// is counted, and kept when modified since the window began.
fn collect_files(
    ctx: &mut Ctx,
    folder: &Path,
    top: bool,
    count: &mut u64,
    fresh: &mut Vec<PathBuf>,
) {
    let mut listed = super::list_fresh(folder, ctx.since).unwrap_or_else(|error| {
        ctx.fail(error);
        super::Fresh::default()
    });
    if let Some(error) = listed.broken.take() {
        ctx.fail(error);
    }
    for (name, kind, is_fresh) in listed.iter() {
        if super::is_folder(kind, || folder.join(name)) {
            if top {
                collect_files(ctx, &folder.join(name), false, count, fresh);
            }
        } else if super::jsonl_stem(Path::new(name)).is_some() {
            *count += 1;
            if is_fresh {
                fresh.push(folder.join(name));
            }
        }
    }
}

/// What a session file told about its session beyond the draft.
#[derive(Default)]
struct Seen {
    started: bool,
    calling: Option<String>,
    task_prompt: bool,
    typed_prompt: bool,
}

/// Reads one session file into a draft (of the calling session, for a sub-agent's).
fn read_session(
    ctx: &mut Ctx,
    counts: &mut Stats,
    status: &mut SourceStatus,
    path: &Path,
) -> Option<Draft> {
    let since = ctx.since;
    let stem = super::jsonl_stem(Path::new(path.file_name()?))?;
    let mut draft = Draft::new(Agent::Droid, &stem);
    let mut seen = Seen::default();
    let mut cwd: Option<String> = None;
    let mut tools = Tools::default();
    jsonl::read_lines(ctx, counts, path, |bytes| {
        let record: Record = serde_json::from_slice(bytes)?;
        let (time, not_a_time) =
            lenient::or_undated(record.timestamp.map_or(Ok(None), record_time));
        if let Some(time) = time.filter(|time| *time >= since) {
            draft.activity.push(time);
        }
        match record.kind.0.as_deref() {
            Some("session_start") if !seen.started => {
                seen.started = true;
                if let Some(id) = record.id.get() {
                    id.clone_into(&mut draft.session_id);
                }
                let title = record.title.get().or(record.session_title.get()).map(str::trim);
                draft.title = title
                    .filter(|title| !title.is_empty() && !PLACEHOLDER_TITLES.contains(title))
                    .map(str::to_owned);
                cwd = record.last_cwd.into_owned().or(record.cwd.into_owned());
                seen.calling = record.calling_session_id.into_owned();
                if let Some(version) = record.version.as_i64().filter(|version| *version != 2) {
                    status.note_unknown(&format!("session_start version {version}"));
                }
            }
            Some("message") => {
                let Some(message) = record.message else { return Ok(()) };
                note_message(&mut draft, &mut seen, &message, time, since);
                if names_a_tool(bytes) {
                    note_tools(&mut draft, &mut tools, bytes, time);
                }
            }
            Some(other) if !KNOWN_TYPES.contains(&other) => {
                status.note_unknown(&format!("record type {other}"));
            }
            _ => {}
        }
        not_a_time?;
        Ok(())
    });
    if let Some(calling) = seen.calling {
        // A sub-agent's records are activity of the session that called it.
        let mut parent = Draft::new(Agent::Droid, &calling);
        parent.activity = draft.activity;
        return Some(parent);
    }
    if seen.task_prompt && !seen.typed_prompt {
        // An older sub-agent's session, whose caller is not named.
        return None;
    }
    if let Some((time, todos)) = tools.todos() {
        draft.note_todos(time, todos);
    }
    draft.cwd = cwd.map(PathBuf::from).filter(|cwd| cwd.is_absolute());
    if draft.models.is_empty() && !draft.activity.is_empty() {
        if let Some(model) = settings_model(ctx, path) {
            draft.note_model(shown_model(&model));
        }
    }
    Some(draft)
}

/// Uses one message: a prompt when the person typed it, a model when a reply names one.
fn note_message(
    draft: &mut Draft,
    seen: &mut Seen,
    message: &Message,
    time: Option<Timestamp>,
    since: Timestamp,
) {
    let in_window = time.is_some_and(|time| time >= since);
    match message.role.0.as_deref() {
        Some("assistant") if in_window => {
            if let Some(model) = message.model_id.get().or(message.model.get()) {
                draft.note_model(shown_model(model));
            }
        }
        Some("user") => {
            let typed = !message.content.tool_result
                && message.visibility.get().is_none_or(|visibility| visibility == "both")
                && !message.hidden_from_user_views.0
                && message.is_user_visible.is_none_or(|visible| visible.0)
                && message.hook_event_name.0.is_none()
                && message
                    .user_message_source
                    .get()
                    .is_none_or(|source| !AUTOMATED_SOURCES.contains(&source))
                && !message.content.value.is_empty();
            if !typed {
                return;
            }
            if message.content.value.starts_with(TASK_PROMPT) {
                seen.task_prompt = true;
                return;
            }
            let Some(time) = time else { return };
            seen.typed_prompt = true;
            if in_window {
                draft.prompts.push(time);
            }
            draft.note_prompt_text(time, &message.content.value);
        }
        _ => {}
    }
}

/// Whether a line may hold a tool call or result (the only lines read twice).
fn names_a_tool(bytes: &[u8]) -> bool {
    memchr::memmem::find(bytes, b"\"tool_use\"").is_some()
        || memchr::memmem::find(bytes, b"\"tool_result\"").is_some()
}

/// Notes the shell and to-do tools' calls of one message, and the results it carries.
fn note_tools(draft: &mut Draft, tools: &mut Tools, bytes: &[u8], time: Option<Timestamp>) {
    let Ok(line) = serde_json::from_slice::<ToolLine>(bytes) else { return };
    let Some(message) = line.message.0 else { return };
    for block in &message.content.items {
        match block.kind.0.as_deref() {
            Some("tool_use") => {
                let (Some(id), Some(input)) = (block.id.get(), block.input.0.as_ref()) else {
                    continue;
                };
                if block.name.is(SHELL_TOOL) {
                    if let Some(command) = input.command.get() {
                        tools.shell.insert(id.to_owned(), command.to_owned());
                    }
                } else if block.name.is(TODO_TOOL) {
                    let todos = input.todos.map(droid_todos).unwrap_or_default();
                    if let (Some(time), false) = (time, todos.is_empty()) {
                        tools.todo_calls.push((id.to_owned(), time, todos));
                    }
                }
            }
            Some("tool_result") => {
                let Some(id) = block.tool_use_id.get() else { continue };
                if block.is_error.0 {
                    tools.failed.insert(id.to_owned());
                } else {
                    tools.succeeded.insert(id.to_owned());
                }
                let Some(command) = tools.shell.remove(id) else { continue };
                let exit = block.content.and_then(result_text).as_deref().and_then(exit_code);
                if let (Some(time), Some(exit)) = (time, exit) {
                    draft.note_command(time, &command, exit);
                }
            }
            _ => {}
        }
    }
}

/// A `TodoWrite` call's `todos`, as Droid reads them (`cf`): a list of items or of lines,
/// or a string of lines or holding a JSON list.
fn droid_todos(raw: &serde_json::value::RawValue) -> Vec<Todo> {
    let json = raw.get();
    if json.starts_with('[') {
        return todo_array(json).unwrap_or_default();
    }
    let Ok(text) = serde_json::from_str::<String>(json) else { return Vec::new() };
    let text = text.trim();
    if text.starts_with('[') {
        if let Some(todos) = todo_array(text) {
            return todos;
        }
    }
    todo_lines(text)
}

/// A JSON list of to-do items: strings are lines ([`todo_lines`]), objects items with a
/// `content` and a `status` Droid knows (`bm`); `None` when the text is not a JSON list.
fn todo_array(json: &str) -> Option<Vec<Todo>> {
    let items: Vec<serde_json::Value> = serde_json::from_str(json).ok()?;
    if items.first().is_some_and(serde_json::Value::is_string) {
        let lines: Vec<String> = items
            .iter()
            .map(|item| item.as_str().map_or_else(|| item.to_string(), str::to_owned))
            .collect();
        return Some(todo_lines(&lines.join("\n")));
    }
    let todos = items
        .iter()
        .filter_map(|item| {
            let text = item.get("content")?.as_str()?;
            let status = match item.get("status")?.as_str()? {
                "pending" => TodoStatus::Pending,
                "in_progress" => TodoStatus::InProgress,
                "completed" => TodoStatus::Completed,
                _ => return None,
            };
            super::todo_item(text, status)
        })
        .take(TODOS_MAX)
        .collect();
    Some(todos)
}

/// To-do items written as lines (`ti` in the bundle): `[completed]`, `[in_progress]`,
/// `[pending]`, `[x]` and `[ ]` marks, each maybe after a number (`1.`, `2)`) or a bullet
/// (`-`, `*`); any other line is a pending item, its number or bullet dropped. An item
/// without text (Droid shows "(no description)") is left out.
fn todo_lines(text: &str) -> Vec<Todo> {
    text.split('\n')
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .filter_map(|line| {
            let (text, status) = marked_line(line)
                .unwrap_or_else(|| (plain_item(line).unwrap_or(line).trim(), TodoStatus::Pending));
            super::todo_item(text, status)
        })
        .take(TODOS_MAX)
        .collect()
}

/// A line's mark and text, with or without a number or bullet before the mark.
fn marked_line(line: &str) -> Option<(&str, TodoStatus)> {
    let after_marker = list_marker(line);
    [after_marker, Some(line)].into_iter().flatten().find_map(|rest| {
        let inner = rest.strip_prefix('[')?;
        let (mark, text) = inner.split_once(']')?;
        let status = match mark {
            "completed" | "x" | "X" => TodoStatus::Completed,
            "in_progress" => TodoStatus::InProgress,
            "pending" => TodoStatus::Pending,
            blank if blank.chars().all(char::is_whitespace) => TodoStatus::Pending,
            _ => return None,
        };
        Some((text.trim(), status))
    })
}

/// What follows a line's number (`1.`, `2)`, blanks after it optional) or bullet (`-`,
/// `*`, a blank after it required).
fn list_marker(line: &str) -> Option<&str> {
    let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 {
        let rest = line[digits..].strip_prefix(['.', ')'])?;
        return Some(rest.trim_start());
    }
    let rest = line.strip_prefix(['-', '*'])?;
    let trimmed = rest.trim_start();
    (trimmed.len() < rest.len()).then_some(trimmed)
}

/// The text of a plain numbered or bulleted line (`1. text`, `- text`: a blank after the
/// number or bullet, and some text).
fn plain_item(line: &str) -> Option<&str> {
    let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = if digits > 0 {
        line[digits..].strip_prefix(['.', ')'])?
    } else {
        line.strip_prefix(['-', '*'])?
    };
    let text = rest.trim_start();
    (text.len() < rest.len() && !text.is_empty()).then_some(text)
}

/// A result's output: the string, or a list's last text block.
fn result_text(raw: &serde_json::value::RawValue) -> Option<Cow<'_, str>> {
    let text = raw.get();
    if text.starts_with('"') {
        return serde_json::from_str::<LStr>(text).ok()?.0;
    }
    let blocks: Objects<ResultText> = serde_json::from_str(text).ok()?;
    blocks.items.into_iter().rev().find_map(|block| block.text.0)
}

/// The exit status in the last line of a shell tool's output
/// (`[Process exited with code 3]`), if that is what ends it.
fn exit_code(output: &str) -> Option<i64> {
    let last = output.trim_end().rsplit('\n').next()?;
    last.strip_prefix(EXIT_LINE)?.strip_suffix(']')?.parse().ok()
}

/// A model as the report names it: a custom model's id `custom:<name>-<index>` by its
/// `<name>` (the display name Droid shows, blanks written as dashes); any other id as
/// written.
fn shown_model(id: &str) -> &str {
    let Some(rest) = id.strip_prefix("custom:") else { return id };
    match rest.rsplit_once('-') {
        Some((name, index))
            if !name.is_empty()
                && !index.is_empty()
                && index.bytes().all(|byte| byte.is_ascii_digit()) =>
        {
            name
        }
        _ if !rest.is_empty() => rest,
        _ => id,
    }
}

/// A record's `timestamp`: RFC 3339 text or epoch milliseconds; [`NotATime`] for text or
/// a number that is no such time.
fn record_time(raw: &serde_json::value::RawValue) -> Result<Option<Timestamp>, NotATime> {
    let text = raw.get();
    if text.starts_with('"') {
        serde_json::from_str::<LStr>(text).map_or(Ok(None), |value| value.time("timestamp"))
    } else {
        serde_json::from_str::<LNum>(text).map_or(Ok(None), |value| value.millis_time("timestamp"))
    }
}

/// The `model` of the session's `<id>.settings.json`; a missing file is silent, an
/// unreadable one a warning, a malformed one ignored (it only names the model).
fn settings_model(ctx: &mut Ctx, transcript: &Path) -> Option<String> {
    let bytes = super::side_file(ctx, transcript, "settings.json")?;
    let parsed: Settings = serde_json::from_slice(&bytes).ok()?;
    parsed.model.into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_times_are_text_or_milliseconds() {
        let raw =
            |json: &str| serde_json::from_str::<Box<serde_json::value::RawValue>>(json).unwrap();
        assert_eq!(
            record_time(&raw(r#""2026-03-02T10:00:00.500Z""#)),
            Ok(Some("2026-03-02T10:00:00.500Z".parse().unwrap()))
        );
        assert_eq!(
            record_time(&raw("1772445600000")),
            Ok(Some(Timestamp::from_millisecond(1_772_445_600_000).unwrap()))
        );
        // No time there: an undated record.
        assert_eq!(record_time(&raw("{}")), Ok(None));
        assert_eq!(record_time(&raw("null")), Ok(None));
        assert_eq!(record_time(&raw(r#""""#)), Ok(None));
        // A time that is none: warned about.
        let not_a_time = Err(NotATime("timestamp"));
        assert_eq!(record_time(&raw(r#""yesterday""#)), not_a_time);
        assert_eq!(record_time(&raw("1.5")), not_a_time);
        assert_eq!(record_time(&raw("1e300")), not_a_time);
    }

    #[test]
    fn exit_codes_are_read_from_the_output_s_last_line() {
        let failed = "Error: Command failed (exit code: 3)\ncheck: 1 test failed\n\n\n[Process exited with code 3]";
        assert_eq!(exit_code(failed), Some(3));
        assert_eq!(exit_code("ok\n\n[Process exited with code 0]\n"), Some(0));
        assert_eq!(exit_code("[Process exited with code -1]"), Some(-1));
        // Only Droid's own last line counts, not one the command printed before it.
        assert_eq!(exit_code("[Process exited with code 0]\nstill running"), None);
        assert_eq!(exit_code("Command terminated by signal: SIGKILL"), None);
        assert_eq!(exit_code("[Process exited with code x]"), None);
        assert_eq!(exit_code(""), None);
    }

    #[test]
    fn a_result_s_text_is_a_string_or_its_last_text_block() {
        let raw =
            |json: &str| serde_json::from_str::<Box<serde_json::value::RawValue>>(json).unwrap();
        assert_eq!(result_text(&raw(r#""a\nb""#)).as_deref(), Some("a\nb"));
        let blocks = r#"[{"type":"text","text":"out"},{"type":"text","text":"[Process exited with code 2]"}]"#;
        assert_eq!(result_text(&raw(blocks)).as_deref(), Some("[Process exited with code 2]"));
        assert_eq!(result_text(&raw("3")), None);
    }

    fn items(todos: &[Todo]) -> Vec<(&str, TodoStatus)> {
        todos.iter().map(|todo| (todo.text.as_str(), todo.status)).collect()
    }

    fn raw(json: &str) -> Box<serde_json::value::RawValue> {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn to_do_lines_are_read_as_droid_reads_them() {
        use TodoStatus::{Completed, InProgress, Pending};
        let text = "1. [completed] Read the README\n2) [in_progress]   Add a test\n- [pending] Wire CI\n* [x] Tag it\n[X] Ship\n3.[ ] Write docs\n\n  - Plain bullet  \n4. Plain number\n-[x] not a mark\n[later] odd mark\n[completed]\n1.\n";
        assert_eq!(
            items(&todo_lines(text)),
            [
                ("Read the README", Completed),
                ("Add a test", InProgress),
                ("Wire CI", Pending),
                ("Tag it", Completed),
                ("Ship", Completed),
                ("Write docs", Pending),
                ("Plain bullet", Pending),
                ("Plain number", Pending),
                ("-[x] not a mark", Pending),
                ("[later] odd mark", Pending),
                // `[completed]` alone has no text ("(no description)" in Droid): left out;
                // `1.` alone is a line of its own text.
                ("1.", Pending),
            ]
        );
    }

    #[test]
    fn todos_are_a_list_of_items_or_lines_or_a_string() {
        use TodoStatus::{Completed, Pending};
        let objects = r#"[{"id":"1","content":"Read","status":"completed","priority":"high"},{"content":"Skip","status":"cancelled"},{"content":"Test","status":"pending"},{"status":"pending"},"stray"]"#;
        assert_eq!(items(&droid_todos(&raw(objects))), [("Read", Completed), ("Test", Pending)]);
        let strings = r#"["[completed] Read", "Test"]"#;
        assert_eq!(items(&droid_todos(&raw(strings))), [("Read", Completed), ("Test", Pending)]);
        let lines = r#""1. [x] Read\n2. [ ] Test""#;
        assert_eq!(items(&droid_todos(&raw(lines))), [("Read", Completed), ("Test", Pending)]);
        let json_in_string = r#"" [{\"content\":\"Read\",\"status\":\"completed\"}]""#;
        assert_eq!(items(&droid_todos(&raw(json_in_string))), [("Read", Completed)]);
        // A string that starts like a list but is none is read as lines.
        let not_json = r#""[x] Read\n[ ] Test""#;
        assert_eq!(items(&droid_todos(&raw(not_json))), [("Read", Completed), ("Test", Pending)]);
        assert!(droid_todos(&raw("3")).is_empty());
        assert!(droid_todos(&raw(r#"{"todos":[]}"#)).is_empty());
    }

    #[test]
    fn the_list_shown_is_the_newest_call_that_succeeded_else_the_newest_not_failed() {
        let at = |second: i64| Timestamp::from_second(1_772_445_600 + second).unwrap();
        let list = |text: &str| vec![Todo { text: text.to_owned(), status: TodoStatus::Pending }];
        let mut tools = Tools::default();
        for (id, second) in [("a", 0), ("b", 1), ("c", 2)] {
            tools.todo_calls.push((id.to_owned(), at(second), list(id)));
        }
        tools.succeeded.insert("a".to_owned());
        tools.failed.insert("c".to_owned());
        // `b` has no result yet; `a` succeeded: the newest that succeeded wins.
        assert_eq!(tools.todos(), Some((at(0), list("a"))));
        let mut tools = Tools::default();
        for (id, second) in [("a", 0), ("b", 1), ("c", 2)] {
            tools.todo_calls.push((id.to_owned(), at(second), list(id)));
        }
        tools.failed.insert("c".to_owned());
        assert_eq!(tools.todos(), Some((at(1), list("b"))));
        assert_eq!(Tools::default().todos(), None);
    }

    #[test]
    fn custom_models_are_shown_by_their_display_name() {
        assert_eq!(shown_model("custom:standin-model-0"), "standin-model");
        assert_eq!(shown_model("custom:My-Local-Qwen-12"), "My-Local-Qwen");
        // Not Droid's form: kept as written, or without the prefix.
        assert_eq!(shown_model("custom:qwen3"), "qwen3");
        assert_eq!(shown_model("custom:qwen-3b"), "qwen-3b");
        assert_eq!(shown_model("custom:-0"), "-0");
        assert_eq!(shown_model("custom:"), "custom:");
        assert_eq!(shown_model("claude-sonnet-4-5-20250929"), "claude-sonnet-4-5-20250929");
    }
}
