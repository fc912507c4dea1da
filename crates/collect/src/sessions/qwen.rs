//! Qwen Code: `<runtime>/projects/<project>/chats/<session-id>.jsonl` (and
//! `chats/archive/` for archived sessions), and the older input log
//! `<runtime>/tmp/<sha256(cwd)>/logs.json`. `<runtime>` is `$QWEN_RUNTIME_DIR`, else
//! `$QWEN_HOME`, else `~/.qwen`.
//!
//! Verified against the published `@qwen-code/qwen-code` 0.24.4 bundle (`Storage`:
//! `getRuntimeBaseDir`, `getGlobalQwenDir`, `getProjectDir`; `ChatRecordingService`:
//! `createBaseRecord`, `recordUserMessage`, `recordAssistantTurn`, the `custom_title`
//! record; `Logger.logMessage`) and `github:QwenLM/qwen-code`
//! `packages/core/src/services/chatRecordingService.ts` (the `ChatRecord` type):
//!
//! - `<project>` is the cwd with every character but `[A-Za-z0-9]` replaced by `-`
//!   (lossy: the cwd comes from the records). Session files are named
//!   `<uuid>.jsonl`; other files there (`.ledger.jsonl`, `.runtime.json`) are not read.
//! - Each line is a record `{uuid, parentUuid, sessionId, timestamp, type, subtype?,
//!   provenance?, cwd, version, gitBranch?, message?, model?, systemPayload?}`; `type` is
//!   `user`, `assistant`, `tool_result` or `system`, and `message` is Gemini-style
//!   content (`{role, parts: [{text}, …]}`). `version` is Qwen Code's (noted).
//! - Prompts are the `user` records without a `subtype` (or with
//!   `mid_turn_user_message`, a message typed while tools ran) whose `provenance` is
//!   absent or `real_user`: what Qwen Code itself counts as real user input. Tool
//!   results are `tool_result` records; notifications, cron prompts and goal runtime
//!   messages are `user` records with those subtypes; slash commands are `system`
//!   records (`slash_command`), and what a command sends to the model is recorded as a
//!   user record. The prompt's text is `systemPayload.displayText` when present (what
//!   was typed, before `@file` expansion), else the message's text parts.
//! - Every record in the window is activity, on every branch of the `uuid`/`parentUuid`
//!   tree: a prompt rewound later was still typed then.
//! - Models: the `assistant` records' `model`, in the window. Working directory and
//!   branch: the latest record's `cwd` and `gitBranch`.
//! - Title: the latest `system`/`custom_title` record's `systemPayload.customTitle`
//!   (set with `/rename`, or generated), else the first prompt.
//! - `logs.json` (one JSON array per project, read whole up to
//!   [`crate::fsread::DOCUMENT_MAX`]) lists what was submitted, slash commands included:
//!   `{sessionId, messageId, type: "user", message, timestamp}`. Current versions write
//!   it beside the chats, so it is read only for sessions that have no chat file; its
//!   entries starting with `/` are commands, not prompts. Its folder is named by a hash
//!   of the cwd, so those sessions have no known working directory.
//! - Failed commands: an `assistant` record's `functionCall` part named
//!   `run_shell_command` (`id`, `args.command`), and the `tool_result` record whose
//!   `toolCallResult.callId` is that id: its `resultDisplay` of type `shell_result` has
//!   the `exitCode` (`null` when the process gave none: no status). Seen in the 0.24.4
//!   recording (`--approval-mode yolo`: without it `-p` offers no shell tool): `sh
//!   check.sh`, `exitCode` 3, `outcome: "failed"`.
//! - A fork (`--fork-session` with `--resume`/`--continue`, `/branch`; `SessionService.
//!   forkSession`) is a new chat whose first records are the other session's, `uuid` and
//!   `timestamp` kept, `sessionId` and `cwd` rewritten, each with `forkedFrom:
//!   {sessionId, messageUuid}`; its own records have none (recorded from 0.24.4 in
//!   `fixtures/qwen-fork/`). A record with `forkedFrom` is such a copy, counted in the
//!   session it came from: only a copied prompt's text is used (for the fork's title).
//!   Qwen's `/fork` is something else: a background sub-agent, whose transcript under
//!   `subagents/` is not read.
//! - Not read: a `runtimeOutputDir` set in Qwen Code's settings, which moves this
//!   output elsewhere.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use report_model::{Agent, plural};
use serde::Deserialize;
use serde_json::value::RawValue;

use super::jsonl::{self, Stats};
use super::lenient::{self, LNum, LStr, OStr, Object, Objects, Text};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, agent_home, config_path};
use crate::{Env, SourceStatus};

/// One chat record: the fields the reader uses.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Record<'a> {
    #[serde(borrow)]
    session_id: LStr<'a>,
    #[serde(borrow)]
    timestamp: LStr<'a>,
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    #[serde(borrow)]
    subtype: LStr<'a>,
    #[serde(borrow)]
    provenance: LStr<'a>,
    #[serde(borrow)]
    cwd: LStr<'a>,
    #[serde(borrow)]
    version: LStr<'a>,
    #[serde(borrow)]
    git_branch: LStr<'a>,
    #[serde(borrow)]
    model: LStr<'a>,
    /// Decoded only for a prompt.
    #[serde(borrow)]
    message: Option<&'a RawValue>,
    /// Decoded only for a prompt or a title.
    #[serde(borrow)]
    system_payload: Option<&'a RawValue>,
    /// Decoded only for a shell command's result.
    #[serde(borrow)]
    tool_call_result: Option<&'a RawValue>,
    /// On a fork's copy of another session's record, that record (`{sessionId,
    /// messageUuid}`); only whether it is there is read.
    #[serde(borrow)]
    forked_from: Option<&'a RawValue>,
}

/// The shell tool.
const SHELL_TOOL: &str = "run_shell_command";

/// An assistant message's parts, read for their function calls.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Calls<'a> {
    #[serde(borrow)]
    parts: Objects<CallPart<'a>>,
}

/// A part holding a function call.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct CallPart<'a> {
    #[serde(borrow)]
    function_call: Object<FunctionCall<'a>>,
}

/// A function call: its id, tool and the shell tool's command.
#[derive(Deserialize, Default)]
#[serde(default)]
struct FunctionCall<'a> {
    #[serde(borrow)]
    id: LStr<'a>,
    #[serde(borrow)]
    name: LStr<'a>,
    #[serde(borrow)]
    args: Object<ShellArgs<'a>>,
}

/// The shell tool's arguments.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ShellArgs<'a> {
    #[serde(borrow)]
    command: LStr<'a>,
}

/// A `tool_result` record's `toolCallResult`.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct CallResult<'a> {
    #[serde(borrow)]
    call_id: LStr<'a>,
    #[serde(borrow)]
    result_display: Object<ShellResult<'a>>,
}

/// A shell command's `resultDisplay`.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct ShellResult<'a> {
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    exit_code: LNum,
}

/// Gemini-style content: `{role, parts: [{text}, …]}`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Content {
    parts: Text,
}

/// The parts of `systemPayload` the reader uses.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Payload<'a> {
    display_text: Text,
    #[serde(borrow)]
    custom_title: LStr<'a>,
}

/// An entry of `logs.json`.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct LogEntry {
    session_id: OStr,
    #[serde(rename = "type")]
    kind: OStr,
    message: Text,
    timestamp: OStr,
}

/// The record types of 0.24.4.
const KNOWN_TYPES: [&str; 4] = ["user", "assistant", "tool_result", "system"];

/// The record subtypes of `ChatRecord` in `chatRecordingService.ts`, sorted.
const KNOWN_SUBTYPES: &[&str] = &[
    "agent_bootstrap",
    "agent_launch_prompt",
    "agent_retry",
    "agent_session_ready",
    "at_command",
    "attribution_snapshot",
    "background_task_completed",
    "branch_checkpoint",
    "chat_compression",
    "cron",
    "custom_title",
    "file_history_snapshot",
    "goal_runtime",
    "goal_state",
    "goal_turn_end",
    "managed_session_commit_v1",
    "managed_session_event_v1",
    "managed_session_header_v1",
    "mid_turn_user_message",
    "notification",
    "omni_recall",
    "parent_session",
    "realtime_message",
    "rewind",
    "session_approval_mode",
    "session_artifact_event",
    "session_artifact_snapshot",
    "session_execution_engine",
    "session_model",
    "session_notes",
    "session_source",
    "session_sources_snapshot",
    "slash_command",
    "turn_result",
    "ui_telemetry",
    "user_text_elements",
];

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let home: PathBuf = agent_home(env, config, Agent::Qwen, || {
        match env.var("QWEN_RUNTIME_DIR").or_else(|| env.var("QWEN_HOME")) {
            Some(dir) => config_path(env, Path::new(dir)),
            None => env.home.join(".qwen"),
        }
    });
    let mut status = SourceStatus {
        locations: vec![home.clone()],
        ..SourceStatus::new(report_model::Source::Qwen)
    };
    let mut drafts = Drafts::new();
    let projects = home.join("projects");
    let tmp = home.join("tmp");
    let (projects_found, tmp_found) = (projects.is_dir(), tmp.is_dir());
    if !projects_found && !tmp_found {
        return (drafts, status);
    }
    status.found = true;
    let mut counts = Stats::default();
    // Every session with a chat file, fresh or not: `logs.json` is read for the others.
    let mut chat_ids: HashSet<String> = HashSet::new();
    for project in ctx.list_dir(&projects) {
        let chats = project.join("chats");
        for folder in [chats.join("archive"), chats] {
            read_chats(ctx, &mut counts, &folder, &mut drafts, &mut status, &mut chat_ids);
        }
    }
    let mut without_cwd = 0_u64;
    for project in ctx.list_dir(&tmp) {
        let logs = project.join("logs.json");
        if !logs.is_file() {
            continue;
        }
        status.files += 1;
        if !ctx.modified_since(&logs) {
            continue;
        }
        for session in read_logs(ctx, &mut counts, &logs, &chat_ids) {
            if !session.activity.is_empty() {
                without_cwd += 1;
            }
            add_draft(&mut drafts, session);
        }
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    if without_cwd > 0 {
        status.limits.push(format!(
            "{} from `logs.json` only, without a known working directory",
            plural(without_cwd, "session", "sessions")
        ));
    }
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// Whether a file name is a session's, `<uuid>.jsonl` (32 to 36 hex digits and dashes,
/// as Qwen Code's own pattern says); the stem when it is.
fn session_stem(name: &Path) -> Option<String> {
    let stem = super::jsonl_stem(name)?;
    let valid = (32..=36).contains(&stem.len())
        && stem.bytes().all(|byte| byte.is_ascii_hexdigit() || byte == b'-');
    valid.then_some(stem)
}

/// Reads the fresh session files of one `chats/` folder, and notes every session id there.
fn read_chats(
    ctx: &mut Ctx,
    counts: &mut Stats,
    folder: &Path,
    drafts: &mut Drafts,
    status: &mut SourceStatus,
    chat_ids: &mut HashSet<String>,
) {
    let mut listed = super::list_fresh(folder, ctx.since).unwrap_or_else(|error| {
        ctx.fail(error);
        super::Fresh::default()
    });
    if let Some(error) = listed.broken.take() {
        ctx.fail(error);
    }
    for (name, kind, fresh) in listed.iter() {
        let Some(stem) = session_stem(Path::new(name)) else { continue };
        if super::is_folder(kind, || folder.join(name)) {
            continue;
        }
        status.files += 1;
        chat_ids.insert(stem.clone());
        if fresh {
            let session = read_chat(ctx, counts, &folder.join(name), &stem, status);
            chat_ids.insert(session.session_id.clone());
            add_draft(drafts, session);
        }
    }
}

/// Reads one chat file into a session.
fn read_chat(
    ctx: &mut Ctx,
    counts: &mut Stats,
    path: &Path,
    stem: &str,
    status: &mut SourceStatus,
) -> Draft {
    let since = ctx.since;
    let mut session = Draft::new(Agent::Qwen, stem);
    let mut session_id: Option<String> = None;
    // The shell tool's calls waiting for their results, by call id.
    let mut shell_calls: HashMap<String, String> = HashMap::new();
    jsonl::read_lines(ctx, counts, path, |bytes| {
        let record: Record = serde_json::from_slice(bytes)?;
        let (time, not_a_time) = lenient::or_undated(record.timestamp.time("timestamp"));
        let in_window = time.is_some_and(|time| time >= since);
        if session_id.is_none() {
            session_id = record.session_id.into_owned();
        }
        if let Some(version) = record.version.get().filter(|version| *version != "unknown") {
            status.note_version(version);
        }
        if let Some(cwd) = record.cwd.get() {
            session.cwd = Some(PathBuf::from(cwd));
        }
        if let Some(branch) = record.git_branch.into_owned() {
            session.branch = Some(branch);
        }
        let kind = record.kind.get().unwrap_or_default();
        let subtype = record.subtype.get();
        // A fork's copy of another session's record (`--fork-session`, `/branch`) is
        // counted in that session: only a copied prompt's text is used (for the fork's
        // title, when it has none).
        if record.forked_from.is_some_and(|raw| raw.get() != "null") {
            if let (("user", None | Some("mid_turn_user_message")), Some(time)) =
                ((kind, subtype), time)
            {
                session
                    .note_prompt_text(time, &prompt_text(record.system_payload, record.message)?);
            }
            not_a_time?;
            return Ok(());
        }
        if !KNOWN_TYPES.contains(&kind) && !kind.is_empty() {
            status.note_unknown(kind);
        } else if let Some(subtype) = subtype {
            if KNOWN_SUBTYPES.binary_search(&subtype).is_err() {
                status.note_unknown(&format!("{kind}/{subtype}"));
            }
        }
        match (kind, subtype) {
            ("user", None | Some("mid_turn_user_message"))
                if record.provenance.get().is_none_or(|source| source == "real_user") =>
            {
                if let Some(time) = time {
                    if in_window {
                        session.prompts.push(time);
                    }
                    session.note_prompt_text(
                        time,
                        &prompt_text(record.system_payload, record.message)?,
                    );
                }
            }
            ("assistant", _) => {
                if let (true, Some(model)) = (in_window, record.model.get()) {
                    session.note_model(model);
                }
                note_shell_calls(&mut shell_calls, record.message)?;
            }
            ("tool_result", _) => {
                if let (Some(time), Some((command, exit))) =
                    (time, shell_result(&mut shell_calls, record.tool_call_result)?)
                {
                    session.note_command(time, &command, exit);
                }
            }
            ("system", Some("custom_title")) => {
                let payload: Payload = parse_raw(record.system_payload)?;
                if let Some(title) = payload.custom_title.into_owned() {
                    session.title = Some(title);
                }
            }
            _ => {}
        }
        if let (true, Some(time)) = (in_window, time) {
            session.activity.push(time);
        }
        not_a_time?;
        Ok(())
    });
    if let Some(id) = session_id {
        session.session_id = id;
    }
    session
}

/// A prompt's text: `systemPayload.displayText` when present (what was typed, before
/// `@file` expansion), else the message's text parts.
fn prompt_text(
    system_payload: Option<&RawValue>,
    message: Option<&RawValue>,
) -> Result<String, serde_json::Error> {
    let payload: Payload = parse_raw(system_payload)?;
    Ok(if payload.display_text.present {
        payload.display_text.value
    } else {
        parse_raw::<Content>(message)?.parts.value
    })
}

/// Notes the shell tool's calls of an assistant message (read only when it has one).
fn note_shell_calls(
    shell_calls: &mut HashMap<String, String>,
    message: Option<&RawValue>,
) -> Result<(), serde_json::Error> {
    if !message.is_some_and(|raw| raw.get().contains("\"functionCall\"")) {
        return Ok(());
    }
    let calls: Calls = parse_raw(message)?;
    for call in calls.parts.items.iter().filter_map(|part| part.function_call.0.as_ref()) {
        let command = call.args.0.as_ref().and_then(|args| args.command.get());
        if let (true, Some(id), Some(command)) = (call.name.is(SHELL_TOOL), call.id.get(), command)
        {
            shell_calls.insert(id.to_owned(), command.to_owned());
        }
    }
    Ok(())
}

/// The command and exit code of a shell call's result, if the record holds one.
fn shell_result(
    shell_calls: &mut HashMap<String, String>,
    result: Option<&RawValue>,
) -> Result<Option<(String, i64)>, serde_json::Error> {
    if result.is_none() || shell_calls.is_empty() {
        return Ok(None);
    }
    let result: CallResult = parse_raw(result)?;
    let Some(command) = result.call_id.get().and_then(|id| shell_calls.remove(id)) else {
        return Ok(None);
    };
    let exit = result
        .result_display
        .0
        .filter(|display| display.kind.is("shell_result"))
        .and_then(|display| display.exit_code.as_i64());
    Ok(exit.map(|exit| (command, exit)))
}

/// Decodes a raw JSON value, or the default when there is none.
fn parse_raw<'a, T: Deserialize<'a> + Default>(
    raw: Option<&'a RawValue>,
) -> Result<T, serde_json::Error> {
    raw.map_or_else(|| Ok(T::default()), |raw| serde_json::from_str(raw.get()))
}

/// Reads a `logs.json` input log into sessions, skipping those with a chat file; empty
/// (with a warning) when it is not valid.
fn read_logs(
    ctx: &mut Ctx,
    counts: &mut Stats,
    path: &Path,
    chat_ids: &HashSet<String>,
) -> Vec<Draft> {
    let Some(entries) =
        jsonl::read_document::<Vec<LogEntry>>(ctx, counts, path, crate::fsread::DOCUMENT_MAX)
    else {
        return Vec::new();
    };
    let mut sessions = Drafts::new();
    let mut times = jsonl::BadTimes::default();
    for entry in &entries {
        let time = times.check(None, entry.timestamp.0.time("timestamp"));
        let (Some(id), Some(time)) = (entry.session_id.0.get(), time) else {
            continue;
        };
        if chat_ids.contains(id) {
            continue;
        }
        let session = super::draft(&mut sessions, Agent::Qwen, id);
        if time >= ctx.since {
            session.activity.push(time);
        }
        let command = entry.message.value.starts_with('/');
        if entry.kind.0.is("user") && !command {
            if time >= ctx.since {
                session.prompts.push(time);
            }
            session.note_prompt_text(time, &entry.message.value);
        }
    }
    times.report(ctx, counts, path);
    sessions.into_values().collect()
}
