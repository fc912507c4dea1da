//! The tasks of Cline's VS Code extension and of its forks Roo Code and Kilo Code: one
//! folder per task, `<storage>/tasks/<task id>/`, where `<storage>` is the extension's
//! global storage in an editor's user folder (`<user>/globalStorage/<extension id>/`;
//! `saoudrizwan.claude-dev`, `rooveterinaryinc.roo-cline`, `kilocode.kilo-code`). The
//! user folders looked in are VS Code's, VS Code Insiders', VSCodium's, Cursor's and
//! Windsurf's (`$XDG_CONFIG_HOME/<editor>/User`, `~/Library/Application
//! Support/<editor>/User` on macOS) and a remote host's (`~/.vscode-server/data/User`);
//! for Cline also `<Cline's data folder>/tasks` (its standalone builds and older CLI),
//! and for Roo Code `[sessions] roo_home` (its `customStoragePath`) instead of them all.
//!
//! Verified in the extensions' source (no editor runs here, so nothing was recorded):
//! Cline's `legacy-extension` branch 7761370 (4.0.12, the build most installs run;
//! `apps/vscode/src/core/storage/disk.ts`, `shared/ExtensionMessage.ts`,
//! `core/task/index.ts`, `integrations/terminal/CommandOrchestrator.ts`,
//! `core/task/tools/utils/ToolResultUtils.ts`, `core/task/focus-chain/`); Roo Code
//! cb83656 (3.52.1; `packages/types/src/message.ts`, `history.ts`,
//! `src/core/task/Task.ts`, `core/tools/ExecuteCommandTool.ts`,
//! `core/tools/UpdateTodoListTool.ts`, `core/task-persistence/`); Kilo Code's extension
//! `Kilo-Org/kilocode-legacy` 56b73d3 (5.10.4, a Roo fork). Cline's newer SDK build
//! writes `~/.cline/data/sessions/`, read by [`super::cline`].
//!
//! - `ui_messages.json` (`claude_messages.json` in old Cline): what the chat showed, a
//!   list of `{ts, type: "ask" | "say", ask?, say?, text?, partial?, modelInfo?}`, `ts`
//!   in epoch milliseconds. The person's words: Cline's first message `say: "task"` and
//!   Roo's and Kilo's first message `say: "text"` (only the first: later `text` is the
//!   assistant's), then `say: "user_feedback"` in all three. A command the agent runs
//!   is `ask: "command"` or (Cline, auto-approved) `say: "command"`, its text the
//!   command line (Cline appends `REQ_APP` when it asks for approval). Cline's to-do list
//!   is `say: "task_progress"`, a Markdown task list; Roo's and Kilo's is `ask: "tool"`
//!   or `say: "user_edit_todos"` with JSON `{tool: "updateTodoList", todos: [{id,
//!   content, status}]}`. Cline's `say` messages name their model in `modelInfo.modelId`.
//! - `api_conversation_history.json`: what the model saw (Anthropic's message shapes,
//!   `ts` on newer messages). The exit codes are only here, in the command's result:
//!   Cline `[execute_command for '<command>'] Result:` then `Command failed with exit
//!   code N.` or `Command executed successfully (exit code 0).`; Roo and Kilo
//!   `Command executed in terminal within working directory '…'. Exit code: N`, after
//!   the same prefix when tools are XML, else in a `tool_result` whose `tool_use_id` names
//!   an `execute_command` call. The model of Roo and Kilo is only in the
//!   `<environment_details>` the user turns carry (`<model>…</model>`), and so is the
//!   folder when no index names it (`# Current Working Directory (…) Files`, Roo's `#
//!   Current Workspace Directory (…) Files`).
//! - The index: Cline's `<storage>/state/taskHistory.json` (`[{id, ts, task,
//!   cwdOnTaskInitialization, …}]`); Roo's `tasks/<id>/history_item.json` (`{id,
//!   workspace, parentTaskId, …}`) and its cache `tasks/_index.json` (`{entries: […]}`).
//!   Kilo's lives in the editor's own state database and is not read.
//!
//! So: prompts are the person's messages above, at their `ts`; activity is every
//! message's `ts`; a Roo or Kilo sub-task (`parentTaskId`) starts with the text its
//! parent's agent wrote, which is not a prompt; no task has a title but its first
//! prompt; failed commands are the results with a non-zero exit code, at the result's
//! `ts`, else at the command's own message. Not read: the person's choice of a
//! suggested answer (stored inside the question), the first message of a Cline task
//! made by "Create New Task" (the agent's hand-off, not told apart), Kilo's index.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use report_model::Agent;
use serde::Deserialize;
use serde::de::IgnoredAny;

use super::jsonl::{self, Stats};
use super::lenient::{LBool, LMillis, LNum, OStr, Objects};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, config_path};
use crate::{Env, SourceStatus, fsread};

/// Which extension, and which of the two lineages of its format.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Flavor {
    agent: Agent,
    /// The extension's id, its global storage folder's name.
    extension: &'static str,
    /// Cline's own messages (`say: "task"`, `task_progress`), else Roo's.
    cline: bool,
}

pub(crate) const CLINE: Flavor =
    Flavor { agent: Agent::Cline, extension: "saoudrizwan.claude-dev", cline: true };
pub(crate) const ROO: Flavor =
    Flavor { agent: Agent::Roo, extension: "rooveterinaryinc.roo-cline", cline: false };
pub(crate) const KILO: Flavor =
    Flavor { agent: Agent::Kilo, extension: "kilocode.kilo-code", cline: false };

/// The editors whose user folders hold extensions' global storage.
const EDITORS: [&str; 5] = ["Code", "Code - Insiders", "VSCodium", "Cursor", "Windsurf"];

/// One message of `ui_messages.json`.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct UiMessage {
    ts: LMillis,
    #[serde(rename = "type")]
    kind: OStr,
    ask: OStr,
    say: OStr,
    text: OStr,
    partial: LBool,
    model_info: ModelInfo,
}

/// A Cline message's `modelInfo`.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct ModelInfo {
    model_id: OStr,
}

/// The JSON text of a Roo tool message.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ToolText {
    tool: OStr,
    todos: Option<Box<serde_json::value::RawValue>>,
}

/// One message of `api_conversation_history.json`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ApiMessage {
    role: OStr,
    content: Content,
    ts: LNum,
}

/// A message's or a tool result's content: a string or a list of blocks.
#[derive(Deserialize)]
#[serde(untagged)]
enum Content {
    Text(String),
    Blocks(Objects<Block>),
    Other(IgnoredAny),
}

impl Default for Content {
    fn default() -> Self {
        Content::Other(IgnoredAny)
    }
}

impl Content {
    /// The texts it holds, in order (a tool result's nested blocks included).
    fn texts(&self) -> Vec<&str> {
        match self {
            Content::Text(text) => vec![text.as_str()],
            Content::Blocks(blocks) => blocks
                .items
                .iter()
                .flat_map(|block| {
                    let own = block.text.0.get().into_iter();
                    own.chain(block.content.as_ref().map(|inner| inner.texts()).unwrap_or_default())
                })
                .collect(),
            Content::Other(_) => Vec::new(),
        }
    }
}

/// A content block: `text`, `tool_use`, `tool_result`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Block {
    #[serde(rename = "type")]
    kind: OStr,
    text: OStr,
    id: OStr,
    name: OStr,
    input: Input,
    tool_use_id: OStr,
    content: Option<Box<Content>>,
}

/// A `tool_use` block's input.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Input {
    command: OStr,
}

/// Roo's `history_item.json` (one task) and an entry of its `_index.json` or of Cline's
/// `taskHistory.json`.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct HistoryItem {
    id: OStr,
    workspace: OStr,
    cwd_on_task_initialization: OStr,
    parent_task_id: OStr,
}

/// Roo's `tasks/_index.json`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct RooIndex {
    entries: Objects<HistoryItem>,
}

/// What an index tells of a task.
#[derive(Default, Clone)]
struct Indexed {
    cwd: Option<PathBuf>,
    sub_task: bool,
}

pub(crate) fn read(
    env: &Env,
    config: &SessionsConfig,
    ctx: &mut Ctx,
    flavor: Flavor,
) -> (Drafts, SourceStatus) {
    let folders = task_folders(env, config, flavor);
    let mut status = SourceStatus::new(report_model::Source::from(flavor.agent));
    let mut drafts = Drafts::new();
    let mut counts = Stats::default();
    for folder in &folders {
        read_folder(ctx, &mut counts, &mut status, &mut drafts, folder, flavor);
    }
    // Roo Code has no other store: where it was looked for is named. Cline's and Kilo
    // Code's CLIs are, so only task folders that exist are added to theirs.
    if status.locations.is_empty() && flavor.agent == Agent::Roo {
        status.locations.extend(folders.into_iter().take(1));
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// The `tasks` folders of `flavor`, the usual ones first.
fn task_folders(env: &Env, config: &SessionsConfig, flavor: Flavor) -> Vec<PathBuf> {
    if flavor.agent == Agent::Roo {
        if let Some(home) = config.homes.get(&Agent::Roo) {
            return vec![config_path(env, home).join("tasks")];
        }
    }
    let mut folders: Vec<PathBuf> = super::editor_user_dirs(env, &EDITORS)
        .into_iter()
        .map(|user| user.join("globalStorage").join(flavor.extension).join("tasks"))
        .collect();
    if flavor.agent == Agent::Cline {
        folders.push(super::cline::data_folder(env, config).join("tasks"));
    }
    folders
}

/// Reads the tasks of one `tasks` folder that have records in the window.
fn read_folder(
    ctx: &mut Ctx,
    counts: &mut Stats,
    status: &mut SourceStatus,
    drafts: &mut Drafts,
    folder: &Path,
    flavor: Flavor,
) {
    let listed = super::list_fresh_warned(ctx, folder);
    if listed.len() == 0 && !folder.is_dir() {
        return;
    }
    status.found = true;
    status.locations.push(folder.to_path_buf());
    let bound = std::time::SystemTime::from(ctx.since);
    let newer = |path: &Path| {
        fs_err::metadata(path).and_then(|meta| meta.modified()).is_ok_and(|time| time >= bound)
    };
    let mut index: Option<HashMap<String, Indexed>> = None;
    for (name, kind, fresh) in listed.iter() {
        let Some(id) = name.to_str().filter(|id| !id.starts_with(['.', '_'])) else { continue };
        if !super::is_folder(kind, || folder.join(name)) {
            continue;
        }
        let task = folder.join(id);
        let ui = ["ui_messages.json", "claude_messages.json"]
            .into_iter()
            .map(|file| task.join(file))
            .find(|path| path.exists());
        let Some(ui) = ui else { continue };
        status.files += 1;
        // A file replaced by a rename moves its folder's time; one written in place not.
        if !(fresh || newer(&ui)) {
            continue;
        }
        let Some(messages) =
            jsonl::read_document::<Objects<UiMessage>>(ctx, counts, &ui, fsread::DOCUMENT_MAX)
        else {
            continue;
        };
        let index = index.get_or_insert_with(|| read_index(ctx, counts, folder, flavor));
        let mut indexed = index.get(id).cloned().unwrap_or_default();
        if let Some(item) = read_history_item(ctx, counts, &task) {
            indexed = item;
        }
        let api_path = task.join("api_conversation_history.json");
        let api = api_path
            .exists()
            .then(|| {
                jsonl::read_document::<Objects<ApiMessage>>(
                    ctx,
                    counts,
                    &api_path,
                    fsread::DOCUMENT_MAX,
                )
            })
            .flatten()
            .unwrap_or_default();
        let mut times = jsonl::BadTimes::default();
        let since = (ctx.since, &mut times);
        let draft = task_draft(since, status, flavor, id, (&messages, &api), indexed);
        times.report(ctx, counts, &ui);
        add_draft(drafts, draft);
    }
}

/// The working folders and sub-tasks an index names, by task id: Cline's
/// `<storage>/state/taskHistory.json`, Roo's `tasks/_index.json`.
fn read_index(
    ctx: &mut Ctx,
    counts: &mut Stats,
    folder: &Path,
    flavor: Flavor,
) -> HashMap<String, Indexed> {
    let items: Vec<HistoryItem> = if flavor.cline {
        let Some(path) = folder.parent().map(|storage| storage.join("state/taskHistory.json"))
        else {
            return HashMap::new();
        };
        if !path.exists() {
            return HashMap::new();
        }
        jsonl::read_document::<Objects<HistoryItem>>(ctx, counts, &path, fsread::DOCUMENT_MAX)
            .map(|items| items.items)
            .unwrap_or_default()
    } else {
        let path = folder.join("_index.json");
        if !path.exists() {
            return HashMap::new();
        }
        jsonl::read_document::<RooIndex>(ctx, counts, &path, fsread::DOCUMENT_MAX)
            .map(|index| index.entries.items)
            .unwrap_or_default()
    };
    items.iter().filter_map(|item| Some((item.id.0.get()?.to_owned(), indexed(item)))).collect()
}

/// Roo's own record of a task, when it has one.
fn read_history_item(ctx: &mut Ctx, counts: &mut Stats, task: &Path) -> Option<Indexed> {
    let path = task.join("history_item.json");
    if !path.exists() {
        return None;
    }
    jsonl::read_document::<HistoryItem>(ctx, counts, &path, 1 << 20).map(|item| indexed(&item))
}

fn indexed(item: &HistoryItem) -> Indexed {
    Indexed {
        cwd: [&item.workspace, &item.cwd_on_task_initialization]
            .into_iter()
            .find_map(|path| path.0.get())
            .map(PathBuf::from)
            .filter(|path| path.is_absolute()),
        sub_task: item.parent_task_id.0.get().is_some(),
    }
}

/// The session one task gives; a UI message whose `ts` is no time is counted in `times`.
fn task_draft(
    (since, times): (Timestamp, &mut jsonl::BadTimes),
    status: &mut SourceStatus,
    flavor: Flavor,
    id: &str,
    (messages, api): (&Objects<UiMessage>, &Objects<ApiMessage>),
    indexed: Indexed,
) -> Draft {
    let mut draft = Draft::new(flavor.agent, id);
    if messages.other || api.other {
        status.note_unknown("message that is not an object");
    }
    // The commands the agent ran, by command line: when each was shown.
    let mut shown: HashMap<&str, Vec<Timestamp>> = HashMap::new();
    let mut todos = Vec::new();
    for (index, message) in messages.items.iter().enumerate() {
        let Some(time) = times.check(None, message.ts.time("ts")) else { continue };
        let in_window = time >= since;
        if in_window {
            draft.activity.push(time);
        }
        if message.partial.0 {
            continue;
        }
        let text = message.text.0.get().map(str::trim).unwrap_or_default();
        let say = message.say.0.get();
        let ask = message.ask.0.get();
        let typed = match (flavor.cline, say) {
            (true, Some("task")) | (_, Some("user_feedback")) => true,
            (false, Some("text")) => index == 0 && !indexed.sub_task,
            _ => false,
        };
        if typed && !text.is_empty() {
            if in_window {
                draft.prompts.push(time);
            }
            draft.note_prompt_text(time, text);
        }
        if say == Some("command") || ask == Some("command") {
            let command = text.strip_suffix("REQ_APP").unwrap_or(text).trim();
            if !command.is_empty() {
                shown.entry(command).or_default().push(time);
            }
        }
        if flavor.cline && say == Some("task_progress") {
            todos.extend(super::markdown_todos(text).map(|list| (time, list)));
        }
        if !flavor.cline && (ask == Some("tool") || say == Some("user_edit_todos")) {
            let tool = serde_json::from_str::<ToolText>(text).unwrap_or_default();
            if tool.tool.0.is("updateTodoList") {
                todos.extend(tool.todos.as_deref().and_then(super::todo_list).map(|l| (time, l)));
            }
        }
        if let Some(model) = message.model_info.model_id.0.get().filter(|_| in_window) {
            draft.note_model(model);
        }
        if message.kind.0.get().is_some_and(|kind| kind != "ask" && kind != "say") {
            status.note_unknown(&format!("message type {}", message.kind.0.get().unwrap_or("")));
        }
    }
    for (time, list) in todos {
        draft.note_todos(time, list);
    }
    read_api(since, &mut draft, api, &shown, !flavor.cline);
    if draft.activity.is_empty() {
        draft.models.clear();
        return draft;
    }
    draft.cwd = indexed.cwd.or_else(|| api_cwd(api));
    draft
}

/// What the model's history adds: the commands' exit codes, and Roo's and Kilo's model.
fn read_api(
    since: Timestamp,
    draft: &mut Draft,
    api: &Objects<ApiMessage>,
    shown: &HashMap<&str, Vec<Timestamp>>,
    models: bool,
) {
    // `execute_command` calls by id, for results that do not name their command.
    let mut calls: HashMap<&str, &str> = HashMap::new();
    for message in &api.items {
        let time = message.ts.millis();
        let in_window = time.is_none_or(|time| time >= since);
        let user = message.role.0.is("user");
        // Each text the message holds, with whether it is a tool's result and the call it
        // answers.
        let texts: Vec<(&str, bool, Option<&str>)> = match &message.content {
            Content::Text(text) => vec![(text.as_str(), false, None)],
            Content::Blocks(blocks) => {
                let mut texts = Vec::new();
                for block in &blocks.items {
                    if block.kind.0.is("tool_use") && block.name.0.is("execute_command") {
                        if let (Some(id), Some(command)) =
                            (block.id.0.get(), block.input.command.0.get())
                        {
                            calls.insert(id, command);
                        }
                    }
                    match (block.kind.0.get(), &block.content) {
                        (Some("tool_result"), Some(content)) => texts.extend(
                            content
                                .texts()
                                .into_iter()
                                .map(|text| (text, true, block.tool_use_id.0.get())),
                        ),
                        (Some("text"), _) => {
                            texts.extend(block.text.0.get().map(|text| (text, false, None)));
                        }
                        _ => {}
                    }
                }
                texts
            }
            Content::Other(_) => Vec::new(),
        };
        for (text, result, answers) in texts {
            // The environment details ride on the person's turns, never in a tool's output
            // (which may quote anything, a `<model>` tag too).
            if user && !result {
                note_model(draft, text, models && in_window);
            }
            let command =
                named_command(text).or_else(|| answers.and_then(|id| calls.get(id).copied()));
            let (Some(command), Some(exit)) = (command, exit_code(text)) else { continue };
            let command = command.trim();
            // The result's own time, else when the command was shown last before it.
            let at = time.or_else(|| shown.get(command).and_then(|times| times.last().copied()));
            if let Some(at) = at {
                draft.note_command(at, command, exit);
            }
        }
    }
}

/// Notes the model a user turn's `<environment_details>` names (Roo's, Kilo's).
fn note_model(draft: &mut Draft, text: &str, wanted: bool) {
    if !wanted {
        return;
    }
    let Some(start) = text.rfind("<model>") else { return };
    let rest = &text[start + "<model>".len()..];
    if let Some(end) = rest.find("</model>") {
        draft.note_model(rest[..end].trim());
    }
}

/// The command a result names: `[execute_command for '<command>'] Result:`.
fn named_command(text: &str) -> Option<&str> {
    let rest = text.trim_start().strip_prefix("[execute_command for '")?;
    let end = rest.find("'] Result:")?;
    Some(&rest[..end])
}

/// The exit code a command's result tells: Cline's `Command failed with exit code N.`,
/// `Command executed successfully (exit code 0).`; Roo's and Kilo's `Exit code: N`.
fn exit_code(text: &str) -> Option<i64> {
    let number = |rest: &str| {
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '-').collect();
        digits.parse().ok()
    };
    if let Some((_, rest)) = text.split_once("Command failed with exit code ") {
        return number(rest);
    }
    if text.contains("Command executed successfully (exit code 0)") {
        return Some(0);
    }
    let (_, rest) = text.split_once("Exit code: ")?;
    number(rest)
}

/// The folder the environment details of the first user turn name.
fn api_cwd(api: &Objects<ApiMessage>) -> Option<PathBuf> {
    const HEADINGS: [&str; 2] =
        ["# Current Working Directory (", "# Current Workspace Directory ("];
    let first_user = api.items.iter().find(|message| message.role.0.is("user"))?;
    first_user.content.texts().into_iter().find_map(|text| {
        HEADINGS.iter().find_map(|heading| {
            let rest = &text[text.find(heading)? + heading.len()..];
            let path = PathBuf::from(&rest[..rest.find(") Files")?]);
            path.is_absolute().then_some(path)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_in_each_extension_s_words() {
        let cline = "[execute_command for 'npm test'] Result:\nCommand failed with exit code 2.\nOutput:\nfail";
        assert_eq!((named_command(cline), exit_code(cline)), (Some("npm test"), Some(2)));
        let ok = "[execute_command for 'ls'] Result:\nCommand executed successfully (exit code 0).";
        assert_eq!(exit_code(ok), Some(0));
        let roo = "Command executed in terminal within working directory '/w'. Command execution was not successful, inspect the cause and adjust as needed.\nExit code: 1\nOutput:\nx";
        assert_eq!((named_command(roo), exit_code(roo)), (None, Some(1)));
        assert_eq!(exit_code("Command executed."), None);
        assert_eq!(exit_code("Exit code: <undefined, notify user>"), None);
        assert_eq!(named_command("[read_file for 'a'] Result:"), None);
    }

    #[test]
    fn the_model_is_the_last_one_named() {
        let mut draft = Draft::new(Agent::Roo, "t");
        note_model(
            &mut draft,
            "<environment_details><model>a</model> … <model>claude-x</model></environment_details>",
            true,
        );
        note_model(&mut draft, "<model>unclosed", true);
        note_model(&mut draft, "<model>other</model>", false);
        assert_eq!(draft.models, ["claude-x"]);
    }
}
