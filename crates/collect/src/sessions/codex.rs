//! OpenAI Codex CLI: `<home>/sessions/YYYY/MM/DD/rollout-*.jsonl[.zst]`, the same under
//! `archived_sessions/` (dated or flat), the thread names of `<home>/session_index.jsonl`
//! and the `threads` table of `<home>/state_<N>.sqlite`.
//!
//! Verified against the source of `openai/codex` (`codex-rs/history/src/rollout_payload.rs`,
//! `codex-rs/rollout/src/{recorder,policy,compression,session_index}.rs`,
//! `codex-rs/core/src/event_mapping.rs`, `codex-rs/core/src/context/*.rs`,
//! `codex-rs/state/src/extract.rs` and `state/migrations/`) and against the strings of the
//! 0.171.0 binary (npm `@openai/codex`), which name the record types, the `threads`
//! columns and `state_5.sqlite`:
//!
//! - Each line is `{timestamp, ordinal?, type, payload}` (a `response_item` line may also
//!   carry `metadata`); the timestamp is the time the line was written (UTC). The first
//!   `session_meta` is canonical: it names the session (`id`, else `session_id`), its
//!   `cwd`, `cli_version` and git branch. A resumed file can hold later ones, ignored.
//! - Prompts. A typed prompt is a `response_item` `message` with role `user` none of
//!   whose parts is injected context (codex's `is_contextual_user_fragment`: a text that
//!   starts and ends with the markers of `# AGENTS.md instructions for …</INSTRUCTIONS>`,
//!   `<user_instructions>`, `<environment_context>`, `<skill>`, `<user_shell_command>`,
//!   `<turn_aborted>`, `<subagent_notification>`, `<extension_context>`, `<goal_context>`,
//!   `<hook_prompt …>`, compared case-insensitively after trimming). Codex also writes the
//!   same prompt as an event: `event_msg` `user_message` (releases before the item
//!   events; old ones mark injected ones with a `kind` other than `plain`) or `event_msg`
//!   `item_completed` with a `UserMessage` item (0.171.0 writes this and no
//!   `user_message`). An event that follows its `response_item` (same text) is the same
//!   prompt and counts once; an event alone counts; a `response_item` alone counts.
//! - Forks and sub-agents: a forked rollout starts with its own `session_meta` (with
//!   `forked_from_id`, or a `source` holding `subagent`), then copies the parent's
//!   records, the parent's `session_meta` first. The copied records are not the
//!   session's: they are those with an `ordinal` below the first meta's
//!   `subagent_history_start_ordinal` (or `history_base.end_ordinal_exclusive`), a
//!   `response_item` whose `metadata.inherited_user_message` is true, and, in files
//!   without ordinals, those written in the burst that follows the parent's
//!   `session_meta` (within [`FORK_COPY_WINDOW_SECS`] of the file's first line: the
//!   recorder stamps each line with the time it writes it). A sub-agent's messages are
//!   its parent agent's, never typed by the person: a sub-agent session has no prompts.
//! - The working directory is the one in force at the session's latest record: the
//!   first `session_meta`'s `cwd`, changed by each `turn_context` that names another.
//! - Models: the `model` of each `turn_context` in the window, each once.
//! - Title: the latest non-empty `thread_name` for the id in `session_index.jsonl` (an
//!   append-only file: the later line wins, as codex's own listing reads it), else the
//!   latest `event_msg` `thread_name_updated` in the rollout, else the `threads` row of
//!   the highest `state_<N>.sqlite` (in `$CODEX_SQLITE_HOME` when set, else the home):
//!   its `name` (an explicit name, newer schemas) or its `title` when that is not just a
//!   copy of `first_user_message`/`preview` (codex's own migration tells explicit names
//!   so); else the first prompt. Empty titles and `[Image]` are no title. The database
//!   is opened (read-only) only when it or its `-wal` changed since the window began;
//!   its `cwd` stands in when the rollout names none.
//! - `.jsonl.zst` rollouts are zstd streams, decoded while read; one beside its plain
//!   `.jsonl` is skipped (codex reads the plain one first).
//! - The dates in folder and file names are local time and are not used: events are
//!   placed by the records' UTC timestamps, and files are skipped by modification time
//!   only, because a resumed session keeps appending to the file of the day it started.
//! - Plans: the newest `response_item` `function_call` named `update_plan` of the
//!   session's own records (its `arguments`, a JSON text, hold `plan[]` with `step` and
//!   `status`: `pending`, `in_progress`, `completed`) is the session's to-do list.
//! - Failed commands: the session's own `event_msg` `item_completed` whose item is a
//!   `CommandExecution` (0.171.0: `command` `["/bin/bash", "-lc", "<line>"]`, `status`
//!   `failed`, `exit_code` 3; verified in `fixtures/agents/codex/0.171.0/`, the third
//!   session's `exec_command` of `sh check.sh`), and the `exec_command_end` event of
//!   older releases (`call_id`, `command` as a list, `exit_code`; codex's
//!   `ExecCommandEndEvent`), once per call id; the script of a shell's `-c`/`-lc` is the
//!   command line. The `function_call_output` of the same call says `Process exited with
//!   code 3` in prose and is not read. A sub-agent's commands are not its parent's.
//! - Format drift: `cli_version` goes to the status's versions; record types and
//!   `response_item`/`event_msg` payload types not listed here go to its unknowns.

use std::collections::{HashMap, HashSet};
use std::io::BufReader;
use std::path::{Path, PathBuf};

use jiff::{SignedDuration, Timestamp};
use report_model::Agent;
use rusqlite::types::ValueRef;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::jsonl::{self, LineError, Stats};
use super::lenient::{self, LBool, LNum, LStr};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, config_path};
use crate::sqlite::{self, Failure, Outcome};
use crate::{Env, Error, SourceStatus};

/// How deep rollouts are looked for under `sessions/` and `archived_sessions/`
/// (`YYYY/MM/DD/file` is 4).
const MAX_DEPTH: usize = 4;

/// How long after a fork's first line its copy of the parent's records may still be
/// being written, in files without ordinals.
const FORK_COPY_WINDOW_SECS: i64 = 2;

/// The record types of 0.171.0 (`RolloutItemWire`), and `compacted` of older releases.
const KNOWN_RECORDS: &[&str] = &[
    "session_meta",
    "response_item",
    "inter_agent_communication",
    "inter_agent_communication_metadata",
    "compacted",
    "turn_context",
    "token_usage_record",
    "world_state",
    "retained_context",
    "security_risk_score",
    "event_msg",
    "realtime_item",
];

/// The `response_item` payload types (`ResponseItem`, current and older releases).
const KNOWN_RESPONSE_ITEMS: &[&str] = &[
    "message",
    "agent_message",
    "reasoning",
    "local_shell_call",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "custom_tool_call_output",
    "tool_search_call",
    "tool_search_output",
    "web_search_call",
    "image_generation_call",
    "ghost_snapshot",
    "compaction",
    "compaction_trigger",
    "context_compaction",
    "additional_tools",
    "configuration_update",
    "other",
];

/// The `event_msg` payload types (`EventMsg`, current and older releases).
const KNOWN_EVENTS: &[&str] = &[
    "error",
    "warning",
    "guardian_warning",
    "auth_recovery_started",
    "auth_recovery_completed",
    "realtime_conversation_started",
    "realtime_conversation_realtime",
    "realtime_conversation_closed",
    "realtime_conversation_sdp",
    "realtime_conversation_list_voices_response",
    "model_reroute",
    "model_verification",
    "turn_moderation_metadata",
    "safety_buffering",
    "context_compacted",
    "thread_rolled_back",
    "task_started",
    "task_complete",
    "thread_settings_applied",
    "token_count",
    "agent_message",
    "agent_message_delta",
    "user_message",
    "injected_message",
    "agent_reasoning",
    "agent_reasoning_delta",
    "agent_reasoning_raw_content",
    "agent_reasoning_raw_content_delta",
    "agent_reasoning_section_break",
    "session_configured",
    "environment_connected",
    "environment_disconnected",
    "thread_goal_updated",
    "thread_queue_changed",
    "thread_name_updated",
    "mcp_startup_update",
    "mcp_startup_complete",
    "mcp_tool_call_begin",
    "mcp_tool_call_end",
    "mcp_list_tools_response",
    "web_search_begin",
    "web_search_end",
    "image_generation_begin",
    "image_generation_end",
    "exec_command_begin",
    "exec_command_output_delta",
    "exec_command_end",
    "terminal_interaction",
    "view_image_tool_call",
    "exec_approval_request",
    "request_permissions",
    "request_user_input",
    "dynamic_tool_call_request",
    "dynamic_tool_call_response",
    "elicitation_request",
    "elicitation_abandoned",
    "apply_patch_approval_request",
    "guardian_assessment",
    "deprecation_notice",
    "background_event",
    "stream_error",
    "patch_apply_begin",
    "patch_apply_updated",
    "patch_apply_end",
    "turn_diff",
    "plan_update",
    "turn_aborted",
    "shutdown_complete",
    "entered_review_mode",
    "exited_review_mode",
    "raw_response_item",
    "raw_response_completed",
    "item_started",
    "item_completed",
    "hook_started",
    "hook_completed",
    "agent_message_content_delta",
    "plan_delta",
    "reasoning_content_delta",
    "reasoning_raw_content_delta",
    "collab_agent_spawn_begin",
    "collab_agent_spawn_end",
    "collab_agent_interaction_begin",
    "collab_agent_interaction_end",
    "collab_waiting_begin",
    "collab_waiting_end",
    "collab_close_begin",
    "collab_close_end",
    "collab_resume_begin",
    "collab_resume_end",
    "sub_agent_activity",
    "undo_started",
    "undo_completed",
    "get_history_entry_response",
    "list_custom_prompts_response",
    "list_skills_response",
    "skills_update_available",
];

/// The markers of the contextual fragments codex injects as user messages
/// (`CONTEXTUAL_USER_FRAGMENTS` in `core/src/context/contextual_user_message.rs`, the
/// older `<user_instructions>`, and the hook prompts of `protocol/src/items.rs`).
const CONTEXTUAL_FRAGMENTS: &[(&str, &str)] = &[
    ("# AGENTS.md instructions for ", "</INSTRUCTIONS>"),
    ("<user_instructions>", "</user_instructions>"),
    ("<environment_context>", "</environment_context>"),
    ("<extension_context>", "</extension_context>"),
    ("<goal_context>", "</goal_context>"),
    ("<skill>", "</skill>"),
    ("<user_shell_command>", "</user_shell_command>"),
    ("<turn_aborted>", "</turn_aborted>"),
    ("<subagent_notification>", "</subagent_notification>"),
    ("<hook_prompt", "</hook_prompt>"),
];

/// Injected context that old releases wrote as the start of a `user_message` event.
const INJECTED_PREFIXES: &[&str] = &["<environment_context>", "<user_instructions>"];

/// What old releases put before the request in a prompt (`USER_MESSAGE_BEGIN`).
const USER_MESSAGE_BEGIN: &str = "## My request for Codex:";

/// The fields of a rollout line that the reader uses.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Line<'a> {
    #[serde(borrow)]
    timestamp: LStr<'a>,
    ordinal: LNum,
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    #[serde(borrow)]
    payload: Payload<'a>,
    /// A `response_item`'s harness metadata.
    #[serde(borrow)]
    metadata: Option<&'a RawValue>,
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
    session_id: LStr<'a>,
    #[serde(borrow)]
    cwd: LStr<'a>,
    #[serde(borrow)]
    cli_version: LStr<'a>,
    /// `session_meta`: `"cli"`, `"exec"`, … or `{"subagent": …}`.
    #[serde(borrow)]
    source: Option<&'a RawValue>,
    #[serde(borrow)]
    forked_from_id: LStr<'a>,
    #[serde(borrow)]
    parent_thread_id: LStr<'a>,
    subagent_history_start_ordinal: LNum,
    #[serde(borrow)]
    history_base: Option<&'a RawValue>,
    /// The model of a `turn_context`.
    #[serde(borrow)]
    model: LStr<'a>,
    /// A `response_item` message's role and parts.
    #[serde(borrow)]
    role: LStr<'a>,
    #[serde(borrow)]
    content: Option<&'a RawValue>,
    /// A `user_message` event's text.
    #[serde(borrow)]
    message: LStr<'a>,
    /// Old releases marked injected `user_message` events with a kind.
    #[serde(rename = "kind", borrow)]
    message_kind: LStr<'a>,
    /// An `item_completed` event's item.
    #[serde(borrow)]
    item: Option<&'a RawValue>,
    /// A `thread_name_updated` event's name.
    #[serde(borrow)]
    thread_name: LStr<'a>,
    /// `session_meta`'s git details, decoded only there (and leniently).
    #[serde(borrow)]
    git: Option<&'a RawValue>,
    /// A `function_call`'s tool name.
    #[serde(borrow)]
    name: LStr<'a>,
    /// An `exec_command_end` event's call id, command (a list of words) and exit status.
    #[serde(borrow)]
    call_id: LStr<'a>,
    #[serde(borrow)]
    command: Option<&'a RawValue>,
    exit_code: LNum,
    /// A `function_call`'s arguments (a JSON text in a string), decoded only for
    /// `update_plan`.
    #[serde(borrow)]
    arguments: Option<&'a RawValue>,
}

/// The arguments of an `update_plan` call (`UpdatePlanArgs`): `{"explanation"?, "plan":
/// [{"step", "status"}]}`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct PlanArgs<'a> {
    #[serde(borrow)]
    plan: Option<&'a RawValue>,
}

/// The part of `session_meta.payload.git` the reader uses.
#[derive(Deserialize, Default)]
#[serde(default)]
struct GitMeta<'a> {
    #[serde(borrow)]
    branch: LStr<'a>,
}

/// The part of `session_meta.payload.history_base` the reader uses.
#[derive(Deserialize, Default)]
#[serde(default)]
struct HistoryBase {
    end_ordinal_exclusive: LNum,
}

/// The part of a `response_item`'s `metadata` the reader uses.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ItemMetadata {
    inherited_user_message: LBool,
}

/// One part of a message's content (`input_text`, `input_image`, …) or of a
/// `UserMessage` item's content (`text`, `image`, …).
#[derive(Deserialize, Default)]
#[serde(default)]
struct Part<'a> {
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    #[serde(borrow)]
    text: LStr<'a>,
}

/// An `item_completed` event's item.
#[derive(Deserialize, Default)]
#[serde(default)]
struct TurnItem<'a> {
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    #[serde(borrow)]
    content: Option<&'a RawValue>,
}

/// A line of `session_index.jsonl`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct IndexLine<'a> {
    #[serde(borrow)]
    id: LStr<'a>,
    #[serde(borrow)]
    thread_name: LStr<'a>,
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
    let mut untitled = Vec::new();
    for path in &rollouts.fresh {
        if let Some(mut rollout) = read_rollout(ctx, &mut counts, &mut status, path) {
            let name = names.get(&rollout.draft.session_id).cloned().or(rollout.thread_name);
            rollout.draft.title = name.filter(|name| !is_placeholder(name));
            if rollout.draft.title.is_none() || rollout.draft.cwd.is_none() {
                untitled.push(rollout.draft.session_id.clone());
            }
            add_draft(&mut drafts, rollout.draft);
        }
    }
    if !untitled.is_empty() {
        let sqlite_home =
            env.var("CODEX_SQLITE_HOME").map_or(home, |dir| config_path(env, Path::new(dir)));
        apply_threads(ctx, &mut status, &sqlite_home, &untitled, &mut drafts);
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// Thread names by session id: the last non-empty `thread_name` of each id (the file is
/// append-only; codex's listing reads it so, skipping empty names).
fn read_index(ctx: &mut Ctx, stats: &mut Stats, path: &Path) -> HashMap<String, String> {
    let mut names: HashMap<String, String> = HashMap::new();
    // A FIFO or a device here is refused by the reader, with a warning.
    jsonl::read_lines(ctx, stats, path, |bytes| {
        let line: IndexLine = serde_json::from_slice(bytes)?;
        let (Some(id), Some(name)) = (line.id.get(), line.thread_name.get()) else {
            return Ok(());
        };
        let name = name.trim();
        if !name.is_empty() {
            names.insert(id.to_owned(), name.to_owned());
        }
        Ok(())
    });
    names
}

/// Whether an agent title is no title: empty, or codex's image-only preview.
fn is_placeholder(title: &str) -> bool {
    let title = title.trim();
    title.is_empty() || title == "[Image]"
}

/// The rollouts found: how many, and the paths of those modified since the window began.
#[derive(Default)]
struct Rollouts {
    count: u64,
    fresh: Vec<PathBuf>,
}

/// The `rollout-*.jsonl[.zst]` files under a folder, sorted, down to `depth` levels: each
/// is counted, and kept when it was modified since the window began; a `.jsonl.zst` beside
/// its plain `.jsonl` is the same rollout and is skipped. The types come from the
/// listings and the times from a `stat` relative to each open folder, so a file costs
/// one short `stat` (a folder of days holds every rollout ever made), and an old one
/// nothing more: its name is told from the listing's bytes.
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
    // Sorted by name, so `x.jsonl` comes before `x.jsonl.zst`.
    let mut plain: HashSet<&[u8]> = HashSet::new();
    for (name, kind, fresh) in listed.iter() {
        let bytes = name.as_encoded_bytes();
        if super::is_folder(kind, || folder.join(name)) {
            collect_rollouts(ctx, &folder.join(name), depth - 1, found);
        } else if is_rollout_name(bytes) {
            plain.insert(bytes);
            found.count += 1;
            if fresh {
                found.fresh.push(folder.join(name));
            }
        } else if let Some(stem) = bytes.strip_suffix(b".zst").filter(|stem| is_rollout_name(stem))
        {
            if !plain.contains(stem) {
                found.count += 1;
                if fresh {
                    found.fresh.push(folder.join(name));
                }
            }
        }
    }
}

/// Whether a file name is a plain rollout's, `rollout-….jsonl`: what `has_extension` and
/// `name_starts_with` say of its path, told from the bytes.
pub(super) fn is_rollout_name(name: &[u8]) -> bool {
    name.starts_with(b"rollout-") && name.ends_with(b".jsonl")
}

/// What one rollout gave: the session, and the latest thread name it recorded.
struct Rollout {
    draft: Draft,
    thread_name: Option<String>,
}

/// What is known of a fork from its first `session_meta` and the records so far.
#[derive(Default)]
struct Fork {
    /// The first meta names a parent (`forked_from_id`, `parent_thread_id`) or is a
    /// sub-agent's.
    forked: bool,
    /// The first meta's source is a sub-agent.
    subagent: bool,
    /// The first ordinal of the session's own records.
    own_from: Option<i64>,
    /// A second `session_meta` was seen: in a fork, the parent's (the copy follows it).
    parent_meta_seen: bool,
    /// The time of the file's first line.
    first_time: Option<Timestamp>,
}

impl Fork {
    /// Whether a record is a copy of the parent's, not the session's own.
    fn inherited(&self, line: &Line<'_>, time: Option<Timestamp>) -> bool {
        if let Some(from) = self.own_from {
            if let Some(ordinal) = line.ordinal.as_i64() {
                return ordinal < from;
            }
        }
        // Most lines carry metadata without the mark: looked for before it is parsed.
        let marked = line.metadata.is_some_and(|raw| {
            raw.get().contains("inherited_user_message")
                && serde_json::from_str::<ItemMetadata>(raw.get())
                    .is_ok_and(|metadata| metadata.inherited_user_message.0)
        });
        if marked {
            return true;
        }
        // Without ordinals, the copy is the burst written right after the parent's meta.
        self.forked
            && self.parent_meta_seen
            && line.ordinal.as_i64().is_none()
            && match (self.first_time, time) {
                (Some(first), Some(time)) => {
                    time <= first + SignedDuration::from_secs(FORK_COPY_WINDOW_SECS)
                }
                _ => false,
            }
    }
}

/// A prompt seen in a `response_item`, waiting for the event that may repeat it.
struct Pending {
    time: Timestamp,
    text: String,
}

/// A rollout being read: the session so far and what its next lines depend on.
struct Reading {
    since: Timestamp,
    session_id: Option<String>,
    meta_seen: bool,
    cwd: Option<String>,
    session: Draft,
    fork: Fork,
    pending: Option<Pending>,
    thread_name: Option<String>,
    prompts: Vec<(Timestamp, String)>,
    /// The call ids of the commands noted so far.
    command_ids: HashSet<String>,
}

impl Reading {
    /// Takes one line of the rollout.
    fn line(&mut self, bytes: &[u8], status: &mut SourceStatus) -> Result<(), LineError> {
        let line: Line = serde_json::from_slice(bytes)?;
        // A time that is no time: the record is read as an undated one (its session's
        // metadata still counts), and the line is warned about.
        let (time, not_a_time) = lenient::or_undated(line.timestamp.time("timestamp"));
        if self.fork.first_time.is_none() {
            self.fork.first_time = time;
        }
        let kind = line.kind.get().unwrap_or_default();
        let own_meta = kind == "session_meta" && self.session_meta(&line.payload, status);
        // The session's own `session_meta` comes before any copied record.
        let inherited = !own_meta && self.fork.inherited(&line, time);
        if !inherited {
            if let Some(time) = time.filter(|time| *time >= self.since) {
                self.session.activity.push(time);
            }
        }
        let payload = line.payload;
        match kind {
            "turn_context" if !inherited => self.turn_context(&payload, time),
            "response_item" => {
                let item = payload.kind.get().unwrap_or_default();
                if !KNOWN_RESPONSE_ITEMS.contains(&item) && !item.is_empty() {
                    status.note_unknown(&format!("response_item.{item}"));
                }
                if item == "function_call" && payload.name.is("update_plan") && !inherited {
                    if let (Some(time), Some(plan)) = (time, plan(payload.arguments)) {
                        self.session.note_todos(time, plan);
                    }
                }
                if item == "message" && payload.role.is("user") && !inherited {
                    if let (Some(time), Some(text)) = (time, typed_text(payload.content)) {
                        if let Some(earlier) = self.pending.replace(Pending { time, text }) {
                            self.prompts.push((earlier.time, earlier.text));
                        }
                    }
                }
            }
            "event_msg" => {
                let event = payload.kind.get().unwrap_or_default();
                if !KNOWN_EVENTS.contains(&event) && !event.is_empty() {
                    status.note_unknown(&format!("event_msg.{event}"));
                }
                if !inherited {
                    if let Some(time) = time {
                        self.event(event, &payload, time);
                    }
                }
            }
            other if !other.is_empty() && !KNOWN_RECORDS.contains(&other) => {
                status.note_unknown(other);
            }
            _ => {}
        }
        not_a_time?;
        Ok(())
    }

    /// Takes a `session_meta`; whether it is the session's own (the first).
    fn session_meta(&mut self, payload: &Payload<'_>, status: &mut SourceStatus) -> bool {
        let id = payload.id.get().or(payload.session_id.get());
        if !self.meta_seen {
            self.meta_seen = true;
            self.session_id = id.map(str::to_owned);
            note_meta(&mut self.fork, &mut self.session, status, payload);
            self.cwd = payload.cwd.get().map(str::to_owned).or(self.cwd.take());
            return true;
        }
        // In a fork, a later meta is the parent's: its copied records follow (only a
        // fork's lines are ever taken for copies, `Fork::inherited`).
        self.fork.parent_meta_seen = true;
        false
    }

    /// Takes a `turn_context`: the working directory from here on, and the model.
    fn turn_context(&mut self, payload: &Payload<'_>, time: Option<Timestamp>) {
        if let Some(new) = payload.cwd.get() {
            if self.cwd.as_deref() != Some(new) {
                self.cwd = Some(new.to_owned());
            }
        }
        // A turn of the window names the model it ran on.
        if let Some(model) = payload.model.get() {
            if time.is_some_and(|time| time >= self.since) {
                self.session.note_model(model);
            }
        }
    }

    /// Takes an `event_msg` of the session's own: a prompt's event, or a rename.
    fn event(&mut self, event: &str, payload: &Payload<'_>, time: Timestamp) {
        let text = match event {
            "user_message" => user_message_text(payload),
            "item_completed" => {
                if let Some((id, command, exit)) = command_item(payload.item) {
                    self.note_command(id, time, &command, exit);
                }
                user_item_text(payload.item)
            }
            "exec_command_end" => {
                let command = payload.command.and_then(command_line);
                if let (Some(command), Some(exit)) = (command, payload.exit_code.as_i64()) {
                    let id = payload.call_id.get().unwrap_or_default().to_owned();
                    self.note_command(id, time, &command, exit);
                }
                None
            }
            "thread_name_updated" => {
                if let Some(name) = payload.thread_name.get() {
                    self.thread_name = Some(name.trim().to_owned());
                }
                None
            }
            _ => None,
        };
        let Some(text) = text else { return };
        // The event repeats the prompt its `response_item` just gave.
        match self.pending.take() {
            Some(earlier) if same_prompt(&earlier.text, &text) => {
                self.prompts.push((earlier.time, text));
            }
            Some(earlier) => {
                self.prompts.push((earlier.time, earlier.text));
                self.prompts.push((time, text));
            }
            None => self.prompts.push((time, text)),
        }
    }

    /// Notes a command the agent ran, once per call id (an `item_completed` and an
    /// `exec_command_end` of the same call are one run); a sub-agent's are not noted.
    fn note_command(&mut self, id: String, time: Timestamp, command: &str, exit: i64) {
        if self.fork.subagent || (!id.is_empty() && !self.command_ids.insert(id)) {
            return;
        }
        self.session.note_command(time, command, exit);
    }

    /// The session, once every line is read.
    fn finish(mut self, path: &Path) -> Option<Rollout> {
        self.prompts.extend(self.pending.take().map(|earlier| (earlier.time, earlier.text)));
        // A sub-agent's messages come from its parent agent, never from the person.
        if !self.fork.subagent {
            for (time, text) in &self.prompts {
                if *time >= self.since {
                    self.session.prompts.push(*time);
                }
                self.session.note_prompt_text(*time, strip_request_prefix(text));
            }
        }
        // Without a `session_meta`, the id is the UUID that ends the file name.
        self.session.session_id = self.session_id.or_else(|| id_from_file_name(path))?;
        self.session.cwd = self.cwd.map(PathBuf::from);
        let thread_name = self.thread_name.filter(|name| !name.is_empty());
        Some(Rollout { draft: self.session, thread_name })
    }
}

/// Reads one rollout file (plain or zstd) into a session.
fn read_rollout(
    ctx: &mut Ctx,
    counts: &mut Stats,
    status: &mut SourceStatus,
    path: &Path,
) -> Option<Rollout> {
    let mut reading = Reading {
        since: ctx.since,
        session_id: None,
        meta_seen: false,
        cwd: None,
        session: Draft::new(Agent::Codex, ""),
        fork: Fork::default(),
        pending: None,
        thread_name: None,
        prompts: Vec::new(),
        command_ids: HashSet::new(),
    };
    let parse_line = |bytes: &[u8]| reading.line(bytes, status);
    if is_compressed(path) {
        read_zst_lines(ctx, counts, path, parse_line);
    } else {
        jsonl::read_lines(ctx, counts, path, parse_line);
    }
    reading.finish(path)
}

/// The plan of an `update_plan` call from its `arguments` (a string holding JSON).
fn plan(arguments: Option<&RawValue>) -> Option<Vec<report_model::Todo>> {
    let text: String = serde_json::from_str(arguments?.get()).ok()?;
    let args: PlanArgs = serde_json::from_str(&text).ok()?;
    super::todo_list(args.plan?)
}

/// Notes what the first `session_meta` says: version, branch, fork.
fn note_meta(
    fork: &mut Fork,
    session: &mut Draft,
    status: &mut SourceStatus,
    payload: &Payload<'_>,
) {
    if let Some(version) = payload.cli_version.get() {
        if crate::plain_name(version) {
            status.note_version(version);
        }
    }
    session.branch = payload
        .git
        .and_then(|raw| serde_json::from_str::<GitMeta>(raw.get()).ok())
        .and_then(|git| git.branch.into_owned());
    fork.subagent = payload.source.is_some_and(|raw| is_subagent_source(raw.get()));
    fork.forked = fork.subagent
        || payload.forked_from_id.get().is_some()
        || payload.parent_thread_id.get().is_some();
    fork.own_from = payload.subagent_history_start_ordinal.as_i64().or_else(|| {
        payload
            .history_base
            .and_then(|raw| serde_json::from_str::<HistoryBase>(raw.get()).ok())
            .and_then(|base| base.end_ordinal_exclusive.as_i64())
    });
}

/// Whether a `session_meta` `source` is a sub-agent's: `{"subagent": …}` (or the bare
/// string of some releases).
fn is_subagent_source(json: &str) -> bool {
    match serde_json::from_str::<serde_json::Value>(json) {
        Ok(serde_json::Value::Object(map)) => map.contains_key("subagent"),
        Ok(serde_json::Value::String(source)) => source.starts_with("subagent"),
        _ => false,
    }
}

/// The text of a user `response_item` message when it is a typed prompt: `None` when any
/// part is injected context (codex's `is_contextual_user_message_content`). Image parts
/// and their wrapping tags add no text.
fn typed_text(content: Option<&RawValue>) -> Option<String> {
    let parts: Vec<Part> = serde_json::from_str(content?.get()).ok()?;
    let mut text = String::new();
    for part in &parts {
        if !part.kind.is("input_text") {
            continue;
        }
        let Some(piece) = part.text.get() else { continue };
        if is_contextual(piece) {
            return None;
        }
        if is_image_tag(piece) {
            continue;
        }
        text.push_str(piece);
    }
    Some(text)
}

/// The text of a `user_message` event when it is a typed prompt.
fn user_message_text(payload: &Payload<'_>) -> Option<String> {
    if payload.message_kind.get().is_some_and(|kind| kind != "plain") {
        return None;
    }
    let text = payload.message.0.as_deref().unwrap_or_default();
    let injected = INJECTED_PREFIXES.iter().any(|prefix| text.trim_start().starts_with(prefix));
    (!injected && !is_contextual(text)).then(|| text.to_owned())
}

/// The text of an `item_completed` event's `UserMessage` item (its text inputs joined,
/// as codex's `UserMessageItem::message` does); `None` for any other item.
/// An `item_completed` event's `CommandExecution` item (0.171.0): `{"type":
/// "CommandExecution", "id", "command": ["/bin/bash", "-lc", "<line>"], "status",
/// "exit_code"}`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct CommandItem<'a> {
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    #[serde(borrow)]
    id: LStr<'a>,
    #[serde(borrow)]
    command: Option<&'a RawValue>,
    exit_code: LNum,
}

/// The call id, command line and exit status of a finished `CommandExecution` item.
fn command_item(item: Option<&RawValue>) -> Option<(String, String, i64)> {
    let item: CommandItem = serde_json::from_str(item?.get()).ok()?;
    if !item.kind.is("CommandExecution") {
        return None;
    }
    let command = command_line(item.command?)?;
    Some((item.id.get().unwrap_or_default().to_owned(), command, item.exit_code.as_i64()?))
}

/// The command line of a command: a string as it is; a list of words as the script of
/// a shell's `-c`/`-lc` when it is one (`["/bin/bash", "-lc", "cargo test"]`), else
/// joined by spaces.
fn command_line(command: &RawValue) -> Option<String> {
    if let Ok(line) = serde_json::from_str::<String>(command.get()) {
        return Some(line);
    }
    let words: Vec<String> = serde_json::from_str(command.get()).ok()?;
    match words.as_slice() {
        [_, flag, script] if flag == "-c" || flag == "-lc" => Some(script.clone()),
        words => Some(words.join(" ")),
    }
}

fn user_item_text(item: Option<&RawValue>) -> Option<String> {
    let item: TurnItem = serde_json::from_str(item?.get()).ok()?;
    if !item.kind.is("UserMessage") {
        return None;
    }
    let parts: Vec<Part> =
        item.content.and_then(|raw| serde_json::from_str(raw.get()).ok()).unwrap_or_default();
    let text: String = parts
        .iter()
        .filter(|part| part.kind.is("text"))
        .filter_map(|part| part.text.get())
        .collect();
    (!is_contextual(&text)).then_some(text)
}

/// Whether a text is one of the contextual fragments codex injects: it starts with a
/// fragment's start marker and ends with its end marker, ASCII case ignored, after
/// trimming (`ContextualUserFragment::matches_text`).
fn is_contextual(text: &str) -> bool {
    let trimmed = text.trim();
    CONTEXTUAL_FRAGMENTS.iter().any(|(start, end)| {
        let starts =
            trimmed.get(..start.len()).is_some_and(|head| head.eq_ignore_ascii_case(start));
        let ends = trimmed
            .get(trimmed.len().saturating_sub(end.len())..)
            .is_some_and(|tail| tail.eq_ignore_ascii_case(end));
        starts && ends
    })
}

/// Whether a text part is the tag codex wraps around an attached image
/// (`<image name=…>`, `</image>`, `<local_image …>`…).
fn is_image_tag(text: &str) -> bool {
    let trimmed = text.trim();
    (trimmed.starts_with("<image")
        || trimmed.starts_with("</image")
        || trimmed.starts_with("<local_image")
        || trimmed.starts_with("</local_image"))
        && trimmed.ends_with('>')
        && !trimmed[1..].contains('<')
}

/// Whether an event's text is the prompt a `response_item` gave just before: the same
/// text, give or take surrounding whitespace, or one holding the other (a release that
/// adds or drops a wrapper).
fn same_prompt(item: &str, event: &str) -> bool {
    let (item, event) = (item.trim(), event.trim());
    item == event || (!event.is_empty() && (item.contains(event) || event.contains(item)))
}

/// A prompt without the `## My request for Codex:` header old releases put before it.
fn strip_request_prefix(text: &str) -> &str {
    text.find(USER_MESSAGE_BEGIN).map_or(text, |at| text[at + USER_MESSAGE_BEGIN.len()..].trim())
}

/// Whether a rollout path is a zstd-compressed one.
fn is_compressed(path: &Path) -> bool {
    path.as_os_str().as_encoded_bytes().ends_with(b".zst")
}

/// [`jsonl::read_lines`] over a zstd-compressed rollout, decoded while read (the same
/// line bounds and warnings); a stream that is not zstd is an unreadable file.
fn read_zst_lines(
    ctx: &mut Ctx,
    stats: &mut Stats,
    path: &Path,
    parse_line: impl FnMut(&[u8]) -> Result<(), LineError>,
) {
    let Some(file) = jsonl::open_warned(ctx, path) else { return };
    let decoder = match ruzstd::StreamingDecoder::new(BufReader::with_capacity(64 * 1024, file)) {
        Ok(decoder) => decoder,
        Err(error) => {
            ctx.fail(Error::io(path, std::io::Error::new(std::io::ErrorKind::InvalidData, error)));
            return;
        }
    };
    let reader = BufReader::with_capacity(64 * 1024, decoder);
    jsonl::read_lines_from(ctx, stats, path, reader, parse_line);
}

/// The UUID at the end of `rollout-<local time>-<uuid>.jsonl[.zst]`.
fn id_from_file_name(path: &Path) -> Option<String> {
    let name = super::file_name(path)?;
    let stem = name.strip_suffix(".zst").unwrap_or(&name).strip_suffix(".jsonl")?;
    let start = stem.len().checked_sub(36)?;
    let id = stem.get(start..)?;
    (id.bytes().filter(|byte| *byte == b'-').count() == 4).then(|| id.to_owned())
}

/// What a `threads` row says of a session.
#[derive(Debug, Default)]
struct ThreadRow {
    title: Option<String>,
    cwd: Option<String>,
}

/// Titles (and working directories, where the rollout named none) for `ids` from the
/// `threads` table of the highest `state_<N>.sqlite` in `folder`, when it or its `-wal`
/// changed since the window began.
fn apply_threads(
    ctx: &mut Ctx,
    status: &mut SourceStatus,
    folder: &Path,
    ids: &[String],
    drafts: &mut Drafts,
) {
    let Some(db) = fresh_state_db(ctx, folder) else { return };
    let rows = match sqlite::read(&db, |conn| query_threads(conn, ids)) {
        Outcome::Read(rows) => rows,
        Outcome::Missing => return,
        Outcome::Unreadable(error) => {
            ctx.fail(error);
            return;
        }
    };
    status.locations.push(db);
    for (id, row) in rows {
        let Some(draft) = drafts.get_mut(&id) else { continue };
        if draft.title.is_none() {
            draft.title = row.title;
        }
        if draft.cwd.is_none() {
            draft.cwd = row.cwd.map(PathBuf::from);
        }
    }
}

/// The highest-numbered `state_<N>.sqlite` in `folder`, when it or its `-wal` was
/// modified since the window began.
fn fresh_state_db(ctx: &mut Ctx, folder: &Path) -> Option<PathBuf> {
    let listed = match super::list_fresh(folder, ctx.since) {
        Ok(listed) => listed,
        Err(error) => {
            ctx.fail(error);
            return None;
        }
    };
    let mut best: Option<(u64, String)> = None;
    let mut fresh_names: HashSet<String> = HashSet::new();
    for (name, _, fresh) in listed.iter() {
        let Some(name) = name.to_str() else { continue };
        if fresh {
            fresh_names.insert(name.to_owned());
        }
        let number = name
            .strip_prefix("state_")
            .and_then(|rest| rest.strip_suffix(".sqlite"))
            .and_then(|number| number.parse::<u64>().ok());
        if let Some(number) = number {
            if best.as_ref().is_none_or(|(known, _)| number > *known) {
                best = Some((number, name.to_owned()));
            }
        }
    }
    let (_, name) = best?;
    let fresh = fresh_names.contains(&name) || fresh_names.contains(&format!("{name}-wal"));
    fresh.then(|| folder.join(name))
}

/// The `threads` rows of `ids`: each one's own title and cwd. The columns are looked up
/// first, since they vary between releases (`name`, `preview` and `first_user_message`
/// came later).
fn query_threads(
    conn: &rusqlite::Connection,
    ids: &[String],
) -> Result<Vec<(String, ThreadRow)>, Failure> {
    let mut columns: HashSet<String> = HashSet::new();
    {
        let mut statement = conn.prepare("SELECT name FROM pragma_table_info('threads')")?;
        let mut rows = statement.query([])?;
        while let Some(row) = rows.next()? {
            if let ValueRef::Text(name) = row.get_ref(0)? {
                columns.insert(String::from_utf8_lossy(name).into_owned());
            }
        }
    }
    if !columns.contains("id") {
        return Err(Failure::Schema("no `threads` table with an `id` column".to_owned()));
    }
    let column =
        |name: &str| if columns.contains(name) { name.to_owned() } else { "NULL".to_owned() };
    let sql = format!(
        "SELECT {}, {}, {}, {}, {} FROM threads WHERE id = ?1",
        column("name"),
        column("title"),
        column("first_user_message"),
        column("preview"),
        column("cwd"),
    );
    let mut statement = conn.prepare(&sql)?;
    let mut found = Vec::new();
    for id in ids {
        let mut rows = statement.query([id])?;
        let Some(row) = rows.next()? else { continue };
        let text = |index: usize| -> Result<Option<String>, rusqlite::Error> {
            Ok(match row.get_ref(index)? {
                ValueRef::Text(bytes) => Some(String::from_utf8_lossy(bytes).trim().to_owned())
                    .filter(|text| !text.is_empty()),
                _ => None,
            })
        };
        let (name, title, first, preview, cwd) = (text(0)?, text(1)?, text(2)?, text(3)?, text(4)?);
        // `title` alone is derived from the first message unless it differs from it.
        let derived =
            |title: &String| first.as_ref() == Some(title) || preview.as_ref() == Some(title);
        let own = name
            .filter(|name| !is_placeholder(name))
            .or_else(|| title.filter(|title| !is_placeholder(title) && !derived(title)));
        found.push((id.clone(), ThreadRow { title: own, cwd }));
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contextual_fragments_are_told_by_both_markers() {
        assert!(is_contextual("<environment_context>\n<cwd>/tmp</cwd>\n</environment_context>"));
        assert!(is_contextual(
            "# AGENTS.md instructions for /tmp\n\n<INSTRUCTIONS>\nbody\n</INSTRUCTIONS>"
        ));
        assert!(is_contextual("<SUBAGENT_NOTIFICATION>{}</subagent_notification>"));
        assert!(is_contextual("  <skill>\n<name>x</name>\n</skill>\n"));
        assert!(is_contextual("<hook_prompt hook_run_id=\"1\">Retry</hook_prompt>"));
        // A prompt that quotes a tag is typed text.
        assert!(!is_contextual("<environment_context> is what codex injects, right?"));
        assert!(!is_contextual("hello"));
        assert!(!is_contextual(""));
    }

    #[test]
    fn image_tags_are_not_text_but_a_prompt_about_them_is() {
        assert!(is_image_tag("<image name=[Image #1]>"));
        assert!(is_image_tag("</image>"));
        assert!(is_image_tag("<local_image path=/tmp/shot.png>"));
        assert!(is_image_tag("</local_image>"));
        assert!(!is_image_tag("<image> tags break my parser"));
        assert!(!is_image_tag("fix the <image> and </image> handling"));
    }

    #[test]
    fn an_event_repeating_its_item_is_the_same_prompt() {
        assert!(same_prompt("Fix it", " Fix it\n"));
        assert!(same_prompt("## My request for Codex:\nFix it", "Fix it"));
        assert!(!same_prompt("Fix it", "Ship it"));
        assert!(!same_prompt("Fix it", ""));
    }

    #[test]
    fn the_request_header_of_old_releases_is_dropped() {
        assert_eq!(strip_request_prefix("ctx\n## My request for Codex:\n do it"), "do it");
        assert_eq!(strip_request_prefix("do it"), "do it");
    }

    #[test]
    fn a_command_list_is_its_shell_script_or_its_words() {
        let line = |json: &str| command_line(&RawValue::from_string(json.to_owned()).unwrap());
        assert_eq!(line(r#"["/bin/zsh", "-c", "ls -la"]"#).as_deref(), Some("ls -la"));
        assert_eq!(line(r#"["/bin/bash", "-lc", "cargo test"]"#).as_deref(), Some("cargo test"));
        assert_eq!(
            line(r#"["cargo", "test", "--release"]"#).as_deref(),
            Some("cargo test --release")
        );
        assert_eq!(line(r#""make check""#).as_deref(), Some("make check"));
        assert_eq!(line("3"), None);
    }

    #[test]
    fn sources_naming_a_subagent_are_told() {
        assert!(is_subagent_source(r#"{"subagent":{"thread_spawn":{"parent_thread_id":"p"}}}"#));
        assert!(is_subagent_source(r#"{"subagent":"review"}"#));
        // The bare string of some releases.
        assert!(is_subagent_source(r#""subagent""#));
        assert!(is_subagent_source(r#""subagent_review""#));
        assert!(!is_subagent_source(r#""cli""#));
        assert!(!is_subagent_source(r#""exec""#));
        assert!(!is_subagent_source("3"));
    }

    #[test]
    fn the_id_comes_from_plain_and_compressed_names() {
        let id = "019a0000-0000-7000-8000-000000000001";
        for name in
            [format!("rollout-2026-01-01T00-00-00-{id}.jsonl"), format!("rollout-x-{id}.jsonl.zst")]
        {
            assert_eq!(id_from_file_name(Path::new(&name)).as_deref(), Some(id));
        }
        assert_eq!(id_from_file_name(Path::new("rollout-short.jsonl")), None);
    }
}
