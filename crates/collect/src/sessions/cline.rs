//! Cline's CLI (the `cline` npm package, 3.x): `<sessions>/<id>/<id>.json` (the
//! session's manifest) and `<id>/<id>.messages.json` (its conversation), where
//! `<sessions>` is `data/sessions` in the config's `cline` folder, else
//! `$CLINE_SESSION_DATA_DIR`, else
//! `$CLINE_DATA_DIR/sessions`, else `$CLINE_DIR/data/sessions`, else
//! `~/.cline/data/sessions` (absolute values only: Cline resolves a relative one against
//! the folder it ran in, which is not known here).
//!
//! Verified in the `@cline/core` 0.0.86 bundle that `cline` 3.0.65 runs
//! (`dist/index.js`: the folders above; `sessionMessagesPath`, `sessionManifestPath`)
//! and in the files it wrote against the stand-in (`fixtures/agents/cline/3.0.65/`):
//!
//! - The manifest: `session_id`, `source` (`cli`), `started_at` and `ended_at` (RFC
//!   3339), `status`, `interactive`, `provider`, `model`, `cwd`, `workspace_root`,
//!   `prompt` (the first), and `metadata`: `title`, `git.branch`, and
//!   `sessionHistoryOrigin` (`mode` `user`, `version`: Cline's). The session database
//!   beside the folder (`db/sessions.db`, table `sessions`) holds the same columns plus
//!   `parent_session_id` and `is_subagent`; the manifest writes them when set.
//! - The conversation: `{version, updated_at, agent, sessionId, messages[], …}`, each
//!   message `{id, role, content[], ts}` with `ts` in epoch milliseconds and content
//!   blocks in Anthropic's shapes (`text`, `tool_use`, `tool_result`). The person's
//!   text is wrapped as `<user_input mode="act">…</user_input>` (`plan` in plan mode);
//!   a tool's output comes back as a user message of `tool_result` blocks. Assistant
//!   messages name their model in `modelInfo.id`.
//! - Shell runs: the `run_commands` tool; its `tool_result` holds one
//!   `{query, result, error, success}` per command line, `error` ending `Command exited
//!   with code N` when one failed.
//! - A sub-agent's conversation is written into its root session's folder under a name
//!   of its own, and is not read: its time is within the root session's.
//! - Both files are rewritten whole; the folder's own time moves when one is replaced.
//!
//! So: prompts are the user messages with text and no `tool_result` block, at their
//! `ts`; activity is every message's `ts` and the manifest's `started_at`/`ended_at`;
//! models are the assistant messages' in the window, else the manifest's; the title is
//! `metadata.title` when not blank, else the first prompt; the working directory is
//! `cwd`, else `workspace_root`; the branch `metadata.git.branch`. A session whose
//! manifest names a `parent_session_id` (or `is_subagent`) is activity of that session,
//! never prompts. Failed commands are the `run_commands` lines whose result says their
//! exit code.
//!
//! Not read: the tasks of Cline's editor extensions (VS Code's `globalStorage/
//! saoudrizwan.claude-dev/tasks/`, in another format; `docs/agents-not-read.md`).

use std::path::{Path, PathBuf};

use jiff::Timestamp;
use report_model::Agent;
use serde::Deserialize;

use super::jsonl::{self, Stats};
use super::lenient::{LBool, LMillis, OStr, Objects, Text};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, config_path};
use crate::{Env, SourceStatus, fsread};

/// The hosts that write sessions here (`SessionSource` of Cline's SDK, `cline/cline`
/// 21cb8d2 `sdk/packages/core/src/types/common.ts`): the CLI, the VS Code extension's
/// SDK build, JetBrains, … . Another is noted as unknown.
const SOURCES: [&str; 13] = [
    "core",
    "cli",
    "subagent",
    "desktop",
    "kanban",
    "api",
    "web",
    "vscode",
    "enterprise",
    "ide",
    "jetbrains",
    "neovim",
    "unknown",
];

/// The largest manifest read (they are a few kilobytes).
const MANIFEST_MAX: u64 = 1 << 20;

/// The fields of a manifest the reader uses.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Manifest {
    session_id: OStr,
    source: OStr,
    started_at: OStr,
    ended_at: OStr,
    model: OStr,
    cwd: OStr,
    workspace_root: OStr,
    parent_session_id: OStr,
    is_subagent: LBool,
    metadata: Metadata,
}

/// The manifest's `metadata`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Metadata {
    title: OStr,
    git: Git,
    #[serde(rename = "sessionHistoryOrigin")]
    origin: Origin,
}

/// `metadata.git`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Git {
    branch: OStr,
}

/// `metadata.sessionHistoryOrigin`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Origin {
    mode: OStr,
    version: OStr,
}

/// The fields of a conversation the reader uses.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Conversation {
    messages: Objects<Message>,
}

/// One message.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Message {
    role: OStr,
    content: Objects<Block>,
    ts: LMillis,
    #[serde(rename = "modelInfo")]
    model_info: ModelInfo,
}

/// An assistant message's `modelInfo`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ModelInfo {
    id: OStr,
}

/// A content block.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Block {
    #[serde(rename = "type")]
    kind: OStr,
    /// A `text` block's text (collapsed, capped).
    text: Text,
    /// A `tool_result` block's tool.
    name: OStr,
    /// A `run_commands` result's command lines.
    content: Objects<Run>,
}

/// One command line of a `run_commands` result.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Run {
    query: OStr,
    error: OStr,
    success: LBool,
}

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let folder = match config.homes.get(&Agent::Cline) {
        Some(home) => config_path(env, home).join("data/sessions"),
        None => sessions_folder(env),
    };
    let mut status = SourceStatus {
        locations: vec![folder.clone()],
        ..SourceStatus::new(report_model::Source::Cline)
    };
    let mut drafts = Drafts::new();
    let listed = super::list_fresh_warned(ctx, &folder);
    status.found = listed.len() > 0 || folder.is_dir();
    let mut counts = Stats::default();
    let bound = std::time::SystemTime::from(ctx.since);
    let newer = |path: &Path| {
        fs_err::metadata(path).and_then(|meta| meta.modified()).is_ok_and(|time| time >= bound)
    };
    for (name, kind, fresh) in listed.iter() {
        let Some(id) = name.to_str().filter(|id| !id.starts_with('.')) else { continue };
        if !super::is_folder(kind, || folder.join(name)) {
            continue;
        }
        let session = folder.join(id);
        let manifest = session.join(format!("{id}.json"));
        let messages = session.join(format!("{id}.messages.json"));
        status.files += 1;
        // A file written in place leaves its folder's time alone: asked of the files too.
        if !(fresh || newer(&messages) || newer(&manifest)) {
            continue;
        }
        if let Some(draft) = read_session(ctx, &mut counts, &mut status, id, (&manifest, &messages))
        {
            add_draft(&mut drafts, draft);
        }
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// Where Cline keeps its sessions, by its own variables.
fn sessions_folder(env: &Env) -> PathBuf {
    env.abs_var("CLINE_SESSION_DATA_DIR").unwrap_or_else(|| data_folder_of(env).join("sessions"))
}

/// Cline's data folder (`data` in the config's `cline` folder, else by its variables):
/// its sessions, and the tasks of its standalone builds and older CLI
/// ([`super::cline_tasks`]).
pub(super) fn data_folder(env: &Env, config: &SessionsConfig) -> PathBuf {
    match config.homes.get(&Agent::Cline) {
        Some(home) => config_path(env, home).join("data"),
        None => data_folder_of(env),
    }
}

/// Cline's data folder by its own variables.
fn data_folder_of(env: &Env) -> PathBuf {
    env.abs_var("CLINE_DATA_DIR")
        .or_else(|| env.abs_var("CLINE_DIR").map(|dir| dir.join("data")))
        .unwrap_or_else(|| env.home.join(".cline/data"))
}

/// Reads one session's manifest and conversation; `None` when neither can be read (each
/// failure is its warning).
fn read_session(
    ctx: &mut Ctx,
    counts: &mut Stats,
    status: &mut SourceStatus,
    id: &str,
    (manifest_path, messages_path): (&Path, &Path),
) -> Option<Draft> {
    let manifest: Option<Manifest> = manifest_path
        .exists()
        .then(|| jsonl::read_document(ctx, counts, manifest_path, MANIFEST_MAX))
        .flatten();
    let conversation: Option<Conversation> = messages_path
        .exists()
        .then(|| jsonl::read_document(ctx, counts, messages_path, fsread::DOCUMENT_MAX))
        .flatten();
    if manifest.is_none() && conversation.is_none() {
        return None;
    }
    let mut times = jsonl::BadTimes::default();
    let draft = session_draft(
        (ctx.since, &mut times),
        status,
        id,
        &manifest.unwrap_or_default(),
        &conversation.unwrap_or_default(),
    );
    times.report(ctx, counts, messages_path);
    Some(draft)
}

/// The session a manifest and its conversation give.
/// A message whose `ts` is no time is counted in `times`.
fn session_draft(
    (since, times): (Timestamp, &mut jsonl::BadTimes),
    status: &mut SourceStatus,
    id: &str,
    manifest: &Manifest,
    conversation: &Conversation,
) -> Draft {
    if let Some(version) = manifest.metadata.origin.version.0.get() {
        status.note_version(version);
    }
    if let Some(source) = manifest.source.0.get().filter(|source| !SOURCES.contains(source)) {
        status.note_unknown(&format!("session source {source}"));
    }
    if let Some(mode) = manifest.metadata.origin.mode.0.get().filter(|mode| *mode != "user") {
        status.note_unknown(&format!("session origin {mode}"));
    }
    // A sub-agent's session is activity of the session that started it.
    let parent = manifest.parent_session_id.0.get().map(str::to_owned);
    let sub_agent = parent.is_some() || manifest.is_subagent.0;
    let own_id = manifest.session_id.0.get().unwrap_or(id).to_owned();
    let mut draft = Draft::new(Agent::Cline, parent.as_deref().unwrap_or(&own_id));
    let activity = |time: Option<Timestamp>, draft: &mut Draft| {
        if let Some(time) = time.filter(|time| *time >= since) {
            draft.activity.push(time);
        }
    };
    activity(manifest.started_at.0.timestamp(), &mut draft);
    activity(manifest.ended_at.0.timestamp(), &mut draft);
    if conversation.messages.other {
        status.note_unknown("message that is not an object");
    }
    for message in &conversation.messages.items {
        let time = times.check(None, message.ts.time("ts"));
        activity(time, &mut draft);
        let in_window = time.is_some_and(|time| time >= since);
        match message.role.0.get() {
            Some("user") => {
                let Some(time) = time else { continue };
                let blocks = &message.content.items;
                if blocks.iter().any(|block| block.kind.0.is("tool_result")) {
                    if !sub_agent {
                        note_commands(&mut draft, time, blocks);
                    }
                    continue;
                }
                let typed = blocks
                    .iter()
                    .filter(|block| block.kind.0.is("text"))
                    .map(|block| typed_text(&block.text.value))
                    .find(|text| !text.is_empty());
                let Some(typed) = typed else { continue };
                if sub_agent {
                    continue;
                }
                if in_window {
                    draft.prompts.push(time);
                }
                draft.note_prompt_text(time, typed);
            }
            Some("assistant") => {
                if let Some(model) = message.model_info.id.0.get() {
                    if in_window && !sub_agent {
                        draft.note_model(model);
                    }
                }
            }
            Some(other) => status.note_unknown(&format!("message role {other}")),
            None => {}
        }
    }
    if draft.activity.is_empty() {
        draft.models.clear();
        return draft;
    }
    if sub_agent {
        return draft;
    }
    if draft.models.is_empty() {
        if let Some(model) = manifest.model.0.get() {
            draft.note_model(model);
        }
    }
    draft.title =
        manifest.metadata.title.0.get().map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned);
    draft.cwd = [&manifest.cwd, &manifest.workspace_root]
        .into_iter()
        .find_map(|path| path.0.get())
        .map(PathBuf::from)
        .filter(|path| path.is_absolute());
    draft.branch = manifest.metadata.git.branch.0.get().map(str::to_owned);
    draft
}

/// The person's text of a user message's text block: inside Cline's
/// `<user_input mode="…">` wrapper when it has one (the closing tag may be past the
/// kept characters).
fn typed_text(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("<user_input") else { return text.trim() };
    let Some(open_end) = rest.find('>') else { return "" };
    let inner = &rest[open_end + 1..];
    inner.strip_suffix("</user_input>").unwrap_or(inner).trim()
}

/// Notes the command lines of a `run_commands` result whose outcome is told: passed, or
/// `Command exited with code N`.
fn note_commands(draft: &mut Draft, time: Timestamp, blocks: &[Block]) {
    for block in blocks {
        if !block.kind.0.is("tool_result") || !block.name.0.is("run_commands") {
            continue;
        }
        for run in &block.content.items {
            let Some(command) = run.query.0.get() else { continue };
            let exit = if run.success.0 { Some(0) } else { run.error.0.get().and_then(exit_code) };
            if let Some(exit) = exit {
                draft.note_command(time, command, exit);
            }
        }
    }
}

/// The exit code an error text ending `Command exited with code N` tells.
fn exit_code(error: &str) -> Option<i64> {
    let (_, code) = error.trim_end().rsplit_once("Command exited with code ")?;
    code.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_typed_text_is_inside_its_wrapper() {
        assert_eq!(
            typed_text("<user_input mode=\"act\">fix the tests</user_input>"),
            "fix the tests"
        );
        assert_eq!(typed_text("<user_input mode=\"plan\"> plan it"), "plan it");
        assert_eq!(typed_text("plain words "), "plain words");
        assert_eq!(typed_text("<user_input mode=\"act\""), "");
        assert_eq!(typed_text("<user_input mode=\"act\"></user_input>"), "");
    }

    #[test]
    fn exit_codes_are_read_from_the_error_text() {
        assert_eq!(exit_code("Command exited with code 3"), Some(3));
        assert_eq!(exit_code("failed: Command exited with code 127\n"), Some(127));
        assert_eq!(exit_code("Command timed out"), None);
        assert_eq!(exit_code("Command exited with code x"), None);
    }
}
