//! Kimi Code CLI (`@moonshot-ai/kimi-code`, the TypeScript successor of Moonshot AI's
//! Python `kimi-cli`): one folder per session below `<home>/sessions/`, where the home is
//! the config's `kimi_home`, else `$KIMI_CODE_HOME`, else `~/.kimi-code`.
//!
//! Verified in the 2.1.0 bundle (`dist/main.mjs`: `resolveKimiCodeHome`, the
//! `BootstrapService`'s folders, `normalizeSessionMeta`, `isUserVisibleTurnInputRecord`,
//! the `TurnPrompt`/`TurnSteer` events) and in the files it wrote against the stand-in
//! (`kimi -p`, `fixtures/agents/kimi/2.1.0/`):
//!
//! - `sessions/<work dir's bucket>/<session id>/` (the bucket is `wd_<folder
//!   name>_<hash>`, the id `session_<uuid>`), holding `state.json` and one
//!   `agents/<agent id>/wire.jsonl` per agent: `main` for the person's, others for the
//!   sub-agents its `Agent` tool starts.
//! - `state.json`: `id`, `cwd` (`workDir` in older files), `title` (generated, set by the
//!   person, or a placeholder the first prompt replaces), `createdAt`, `updatedAt`
//!   (epoch milliseconds), `archived`.
//! - `wire.jsonl`: one event per line, each with its `type` and `time` (epoch
//!   milliseconds), the first a `metadata` record (`protocol_version`; no version of
//!   Kimi Code is written anywhere, so none is noted).
//! - Prompts are `turn.prompt` records whose `origin.kind` is `user`, their text the
//!   `text` parts of `input`; the person's `!` shell commands, slash commands, skills,
//!   cron jobs and the reminders Kimi Code injects have other origins. A `turn.steer`
//!   (a message typed while the agent works, folded into its turn) is a prompt of the
//!   person too, unless every prompt it names (`promptIds`) was already written as a
//!   `turn.prompt`.
//! - Models: `llm.request`'s `model` (the provider's name; `modelAlias` is Kimi Code's
//!   own key for it).
//! - To-do list: `tools.update_store` with `key: "todo"`, its `value` the whole list
//!   (`title`, `status`: `pending`, `in_progress`, `done`), the newest in the window.
//! - Failed commands: a `context.append_loop_event` whose `event` is a `tool.call` named
//!   `Bash` (`toolCallId`, `args.command`), and the `tool.result` with that
//!   `toolCallId`: without `isError` the command passed; with it and an `output` ending
//!   `Command failed with exit code: N.` it exited with N; another error (a timeout, an
//!   interruption) tells no status.
//! - A sub-agent's wire is activity of its session, never prompts.
//! - A fork (`kimi fork`, the TUI's `/fork`, ACP's and the web's forks) copies the
//!   session's folder, each wire byte for byte, and appends `{"type":"forked","agentId",
//!   "time"}` to each wire; its own records follow, and a fork of a fork holds both
//!   markers (recorded from 2.1.0 in `fixtures/kimi-fork/`). What comes before a wire's
//!   last `forked` record is a copy, counted in the session it came from. A fork of an
//!   untitled session is titled `Fork: session_<uuid>`: no title, its first prompt is
//!   taken. Not handled: forks made before 0.12 (no marker; their `state.json` names
//!   `forkedFrom`).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use report_model::Agent;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::jsonl::{self, Stats};
use super::lenient::{LBool, LMillis, LStr, Object, Text};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, agent_home, config_path};
use crate::{Env, SourceStatus};

/// One line of a `wire.jsonl`: the fields of the event types the reader uses.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Line<'a> {
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    time: LMillis,
    /// `turn.prompt` and `turn.steer`: what was typed, and who it came from.
    #[serde(borrow)]
    input: Option<&'a RawValue>,
    #[serde(borrow)]
    origin: Object<Origin<'a>>,
    #[serde(borrow)]
    prompt_id: LStr<'a>,
    /// `turn.steer`: the queued prompts it carries.
    #[serde(borrow)]
    prompt_ids: Option<Vec<LStr<'a>>>,
    /// `llm.request`.
    #[serde(borrow)]
    model: LStr<'a>,
    /// `tools.update_store`.
    #[serde(borrow)]
    key: LStr<'a>,
    #[serde(borrow)]
    value: Option<&'a RawValue>,
    /// `context.append_loop_event`.
    #[serde(borrow)]
    event: Object<LoopEvent<'a>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Origin<'a> {
    #[serde(borrow)]
    kind: LStr<'a>,
}

/// A tool call or a tool's result, of a `context.append_loop_event`.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct LoopEvent<'a> {
    #[serde(rename = "type", borrow)]
    kind: LStr<'a>,
    #[serde(borrow)]
    tool_call_id: LStr<'a>,
    #[serde(borrow)]
    name: LStr<'a>,
    #[serde(borrow)]
    args: Object<BashArgs<'a>>,
    #[serde(borrow)]
    result: Object<ToolResult<'a>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct BashArgs<'a> {
    #[serde(borrow)]
    command: LStr<'a>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct ToolResult<'a> {
    is_error: LBool,
    /// A string, or parts (an image); only a string tells an exit status.
    #[serde(borrow)]
    output: LStr<'a>,
}

/// A session's `state.json`.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct State {
    cwd: Option<String>,
    work_dir: Option<String>,
    title: Option<String>,
}

/// `state.json` is a few hundred bytes; anything near this is not Kimi Code's.
const STATE_MAX: u64 = 1 << 20;

/// `workspaces.json`: each bucket's folder.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Workspaces {
    workspaces: HashMap<String, Object<Workspace>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Workspace {
    root: Option<String>,
}

/// The folder of each bucket, from `<home>/workspaces.json` (warned about when it exists
/// and cannot be read).
fn workspace_roots(ctx: &mut Ctx, home: &Path) -> HashMap<String, PathBuf> {
    let mut counts = Stats::default();
    let path = home.join("workspaces.json");
    let workspaces: Workspaces =
        jsonl::read_document(ctx, &mut counts, &path, STATE_MAX).unwrap_or_default();
    workspaces
        .workspaces
        .into_iter()
        .filter_map(|(bucket, workspace)| {
            let root = workspace.0?.root.filter(|root| root.starts_with('/'))?;
            Some((bucket, PathBuf::from(root)))
        })
        .collect()
}

/// Whether a title is the one `kimi fork` gives a fork of an untitled session: `Fork: `,
/// once per fork, before the session's id (`Fork: Fork: session_<uuid>`). Such a session
/// takes its first prompt as title instead.
fn fork_of_untitled(title: &str) -> bool {
    let mut rest = title;
    while let Some(inner) = rest.strip_prefix("Fork: ") {
        rest = inner;
    }
    rest.len() < title.len()
        && rest.strip_prefix("session_").is_some_and(|id| {
            !id.is_empty() && id.bytes().all(|byte| byte.is_ascii_hexdigit() || byte == b'-')
        })
}

/// The record a fork appends to each wire it copied (`{"type":"forked","agentId","time"}`).
const FORKED: &str = "forked";

/// What the shell tool's failure ends with (`Command failed with exit code: 3.`).
const EXIT_MARKER: &str = "Command failed with exit code: ";

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let home: PathBuf = agent_home(env, config, Agent::Kimi, || {
        env.var("KIMI_CODE_HOME")
            .filter(|dir| !dir.is_empty())
            .map_or_else(|| env.home.join(".kimi-code"), |dir| config_path(env, Path::new(dir)))
    });
    let sessions = home.join("sessions");
    let mut status = SourceStatus {
        locations: vec![sessions.clone()],
        ..SourceStatus::new(report_model::Source::Kimi)
    };
    let mut drafts = Drafts::new();
    let buckets = ctx.list_dir_typed(&sessions);
    status.found = !buckets.is_empty() || sessions.is_dir();
    let mut counts = Stats::default();
    // `workspaces.json`, read when a session's state names no folder.
    let mut roots: Option<HashMap<String, PathBuf>> = None;
    for (bucket, kind) in buckets {
        if !kind.is_dir() {
            continue;
        }
        for (folder, kind) in ctx.list_dir_typed(&bucket) {
            if !kind.is_dir() {
                continue;
            }
            let agents = folder.join("agents");
            let main = agents.join("main").join("wire.jsonl");
            let Some(fresh) = ctx.freshness(&main) else { continue };
            status.files += 1;
            let Some(id) = super::file_name(&folder) else { continue };
            let mut draft = Draft::new(Agent::Kimi, &id);
            if fresh {
                draft.merge(read_wire(ctx, &mut counts, &main, &id, true));
            }
            for (agent, kind) in ctx.list_dir_typed(&agents) {
                let wire = agent.join("wire.jsonl");
                let sub_agent =
                    kind.is_dir() && super::file_name(&agent).as_deref() != Some("main");
                if sub_agent && ctx.modified_since(&wire) {
                    draft.merge(read_wire(ctx, &mut counts, &wire, &id, false));
                }
            }
            if draft.activity.is_empty() {
                continue;
            }
            let state: State =
                jsonl::read_document(ctx, &mut counts, &folder.join("state.json"), STATE_MAX)
                    .unwrap_or_default();
            draft.title = state
                .title
                .map(|title| title.trim().to_owned())
                .filter(|title| !title.is_empty() && !fork_of_untitled(title));
            draft.cwd = state
                .cwd
                .or(state.work_dir)
                .filter(|dir| dir.starts_with('/'))
                .map(PathBuf::from)
                .or_else(|| {
                    let roots = roots.get_or_insert_with(|| workspace_roots(ctx, &home));
                    super::file_name(&bucket).and_then(|name| roots.get(&name).cloned())
                });
            add_draft(&mut drafts, draft);
        }
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// Reads one agent's wire of the session `id`: activity from every event in the window,
/// and from the main agent's also prompts, models, the to-do list and the shell tool's
/// runs. What comes before a `forked` record is a fork's copy of the other session's
/// wire, counted there, and is dropped.
fn read_wire(ctx: &mut Ctx, counts: &mut Stats, path: &Path, id: &str, main: bool) -> Draft {
    let since = ctx.since;
    let mut draft = Draft::new(Agent::Kimi, id);
    let mut prompt_ids: HashSet<String> = HashSet::new();
    let mut calls: Vec<(String, String)> = Vec::new();
    jsonl::read_lines(ctx, counts, path, |bytes| {
        let line: Line = serde_json::from_slice(bytes)?;
        let kind = line.kind.get().unwrap_or_default();
        if kind == FORKED {
            // A fork (`kimi fork`, `/fork`) copies the other session's folder and appends
            // this record to each wire: the copies are that session's. Their prompts
            // still tell which steers repeat them, and a copied call's result never
            // comes in the fork.
            draft = Draft::new(Agent::Kimi, id);
            calls.clear();
            return Ok(());
        }
        let Some(time) = line.time.time("time")? else { return Ok(()) };
        // Prompts seen before the window still tell which steers repeat them.
        if main && kind == "turn.prompt" {
            if let Some(id) = line.prompt_id.get() {
                prompt_ids.insert(id.to_owned());
            }
        }
        if time < since {
            return Ok(());
        }
        draft.activity.push(time);
        if !main {
            return Ok(());
        }
        match kind {
            "turn.prompt" | "turn.steer" => {
                let by_person = line.origin.0.as_ref().is_some_and(|origin| origin.kind.is("user"));
                let repeats = kind == "turn.steer"
                    && line.prompt_ids.as_ref().is_some_and(|ids| {
                        !ids.is_empty()
                            && ids
                                .iter()
                                .all(|id| id.get().is_some_and(|id| prompt_ids.contains(id)))
                    });
                if by_person && !repeats {
                    let text: Text = line
                        .input
                        .and_then(|raw| serde_json::from_str(raw.get()).ok())
                        .unwrap_or_default();
                    draft.prompts.push(time);
                    draft.note_prompt_text(time, text.value.trim());
                }
            }
            "llm.request" => {
                if let Some(model) = line.model.get() {
                    draft.note_model(model);
                }
            }
            "tools.update_store" if line.key.is("todo") => {
                if let Some(todos) = line.value.and_then(super::todo_list) {
                    draft.note_todos(time, todos);
                }
            }
            "context.append_loop_event" => {
                let Some(event) = line.event.0 else { return Ok(()) };
                let Some(call_id) = event.tool_call_id.get() else { return Ok(()) };
                if event.kind.is("tool.call") && event.name.is("Bash") {
                    if let Some(command) = event.args.0.as_ref().and_then(|args| args.command.get())
                    {
                        calls.push((call_id.to_owned(), command.to_owned()));
                    }
                } else if event.kind.is("tool.result") {
                    let Some(at) = calls.iter().position(|(id, _)| id == call_id) else {
                        return Ok(());
                    };
                    let (_, command) = calls.swap_remove(at);
                    if let Some(exit) = event.result.0.as_ref().and_then(exit_status) {
                        draft.note_command(time, &command, exit);
                    }
                }
            }
            _ => {}
        }
        Ok(())
    });
    draft
}

/// The exit status a `Bash` result tells: 0 without `isError`; N when its output ends
/// with `Command failed with exit code: N.`; none for another error.
fn exit_status(result: &ToolResult) -> Option<i64> {
    if !result.is_error.0 {
        return Some(0);
    }
    let output = result.output.get()?;
    let (_, code) = output.trim_end().rsplit_once(EXIT_MARKER)?;
    code.trim_end_matches('.').trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(json: &str) -> ToolResult<'_> {
        serde_json::from_str(json).expect("a result")
    }

    #[test]
    fn a_fork_of_an_untitled_session_has_no_title() {
        assert!(fork_of_untitled("Fork: session_9ec76db2-8b01-4316-ad1a-ed5245d8b5da"));
        assert!(fork_of_untitled("Fork: Fork: session_9ec76db2-8b01-4316-ad1a-ed5245d8b5da"));
        assert!(!fork_of_untitled("Fork: Fix the flaky test"));
        assert!(!fork_of_untitled("session_9ec76db2-8b01-4316-ad1a-ed5245d8b5da"));
        assert!(!fork_of_untitled("Fork: session_"));
        assert!(!fork_of_untitled("Fork: session_notes"));
    }

    #[test]
    fn a_bash_result_tells_its_exit_status() {
        let failed = r#"{"output": "check: 1 test failed\nCommand failed with exit code: 3.", "isError": true}"#;
        assert_eq!(exit_status(&result(failed)), Some(3));
        assert_eq!(exit_status(&result(r#"{"output": "hello\n", "durationMs": 8}"#)), Some(0));
        let timed_out = r#"{"output": "Command timed out after 60s.", "isError": true}"#;
        assert_eq!(exit_status(&result(timed_out)), None);
        let parts = r#"{"output": [{"type": "text", "text": "x"}], "isError": true}"#;
        assert_eq!(exit_status(&result(parts)), None);
        let garbled = r#"{"output": "Command failed with exit code: many.", "isError": true}"#;
        assert_eq!(exit_status(&result(garbled)), None);
    }
}
