//! The OpenHands CLI: one folder per conversation below its conversations folder: the
//! config's `openhands_home` + `/conversations`, else `$OPENHANDS_CONVERSATIONS_DIR`, else
//! `$OPENHANDS_PERSISTENCE_DIR/conversations`, else `~/.openhands/conversations` (the
//! CLI's `locations.py`; 1.2.1 knew no variable, 1.16.0 both).
//!
//! Verified in `openhands` 1.2.1 with `openhands-sdk` 1.2.0 and in 1.16.0 with
//! `openhands-sdk` 1.21.0 (their PyPI wheels: `openhands_cli/locations.py`,
//! `openhands/sdk/conversation/persistence_const.py`, `state.py`, `event_store.py`, the
//! events' models) and in the files each CLI wrote against the stand-in (1.2.1 driven in
//! a pseudo-terminal, 1.16.0 with `--headless -t`; `fixtures/agents/openhands/`). Both
//! write the same layout; 1.16.0 names the terminal's observation `TerminalObservation`
//! where 1.2.1 wrote `ExecuteBashObservation`, which the reader does not look at:
//!
//! - `conversations/<id, hex without dashes>/base_state.json`: the conversation's `id`
//!   (with dashes, as the CLI prints it for `--resume`), `workspace.working_dir` (the
//!   folder it ran in), `agent.llm.model` (litellm's name, `openai/standin-model`; the
//!   key is written masked). No title: the CLI names none, so the first prompt is the
//!   title, as for every agent without one.
//! - `events/event-<index, five digits or more>-<event id>.json`, one event per file,
//!   written once, in order: `kind`, `timestamp`, `source`. **`timestamp` has no zone**:
//!   it is `datetime.now().isoformat()`, the machine's local time, read in the local zone
//!   as gptme's and Aider's times are (`$TZ`, else the system's).
//! - Prompts are `MessageEvent`s with `source: "user"` (the text parts of
//!   `llm_message.content`; a skill the prompt activated adds `extended_content`, not
//!   read). The CLI's slash commands write no event.
//! - A command run by the `terminal` tool is an `ObservationEvent` whose `observation`
//!   has the `command` and `metadata.exit_code` (the SDK's `-1`, no status, is not
//!   read); the to-do list is the `task_list` of a
//!   `TaskTrackerObservation` (`title`, `status` `todo`, `in_progress`, `done`), the
//!   newest one kept. Every event is activity.
//! - Not read: `TASKS.json` beside the events (the same list, without a time), and
//!   conversations of the OpenHands GUI or server, which keep theirs elsewhere.

use std::path::{Path, PathBuf};

use jiff::tz::TimeZone;
use report_model::Agent;
use serde::Deserialize;
use serde_json::Value;

use super::jsonl::{self, Stats};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft};
use crate::{Env, SourceStatus, fsread};

/// `base_state.json`: the parts read (its `stats`, which grow with every model call,
/// are skipped unparsed).
#[derive(Deserialize, Default)]
#[serde(default)]
struct State {
    id: Value,
    workspace: Value,
    agent: Value,
}

/// One event file: the parts read, each as whatever JSON it holds (an event of a kind
/// this reader does not know is still activity).
#[derive(Deserialize, Default)]
#[serde(default)]
struct Event {
    kind: Value,
    timestamp: Value,
    source: Value,
    llm_message: Value,
    observation: Value,
}

/// The largest `base_state.json` read.
const STATE_MAX: u64 = 16 << 20;

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let root = match config.homes.get(&Agent::OpenHands) {
        Some(home) => super::config_path(env, home).join("conversations"),
        None => env.abs_var("OPENHANDS_CONVERSATIONS_DIR").unwrap_or_else(|| {
            env.abs_var("OPENHANDS_PERSISTENCE_DIR")
                .unwrap_or_else(|| env.home.join(".openhands"))
                .join("conversations")
        }),
    };
    let mut status = SourceStatus {
        locations: vec![root.clone()],
        ..SourceStatus::new(report_model::Source::OpenHands)
    };
    let mut drafts = Drafts::new();
    let folders = ctx.list_dir_typed(&root);
    status.found = !folders.is_empty() || root.is_dir();
    let zone = super::aider::local_zone(env);
    let mut counts = Stats::default();
    for (folder, kind) in folders {
        if !kind.is_dir() {
            continue;
        }
        let state_path = folder.join("base_state.json");
        let events = folder.join("events");
        let Some(state_fresh) = ctx.freshness(&state_path) else { continue };
        status.files += 1;
        // A new event is a new file in `events/`, which changes the folder's time.
        if !state_fresh && !ctx.modified_since(&events) {
            continue;
        }
        let state: Option<State> = jsonl::read_document(ctx, &mut counts, &state_path, STATE_MAX);
        let Some(id) = state
            .as_ref()
            .and_then(|state| state.id.as_str())
            .map(str::to_owned)
            .or_else(|| super::file_name(&folder))
        else {
            continue;
        };
        let mut draft = Draft::new(Agent::OpenHands, &id);
        read_events(ctx, &mut counts, &events, &zone, &mut draft);
        if let Some(state) = state.filter(|_| !draft.activity.is_empty()) {
            if let Some(model) = state.agent.pointer("/llm/model").and_then(Value::as_str) {
                draft.note_model(model);
            }
            draft.cwd = state
                .workspace
                .get("working_dir")
                .and_then(Value::as_str)
                .filter(|dir| dir.starts_with('/'))
                .map(PathBuf::from);
        }
        add_draft(&mut drafts, draft);
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// The index of an event file's name (`event-00012-<id>.json`), `None` for any other
/// file.
fn event_index(path: &Path) -> Option<u64> {
    let name = path.file_name()?.to_str()?;
    let rest = name.strip_prefix("event-")?.strip_suffix(".json")?;
    let (index, id) = rest.split_once('-')?;
    let digits = index.len() >= 5 && index.bytes().all(|byte| byte.is_ascii_digit());
    (digits && !id.is_empty()).then(|| index.parse().ok()).flatten()
}

/// Reads a conversation's events in their order into `draft`: those of the window.
fn read_events(
    ctx: &mut Ctx,
    counts: &mut Stats,
    events: &Path,
    zone: &TimeZone,
    draft: &mut Draft,
) {
    let mut files: Vec<(u64, PathBuf)> = ctx
        .list_dir_typed(events)
        .into_iter()
        // Not only regular files: anything else named as an event (a FIFO) is read to be
        // refused with a warning naming it, not passed over in silence.
        .filter(|(_, kind)| !kind.is_dir())
        .filter_map(|(path, _)| Some((event_index(&path)?, path)))
        .collect();
    files.sort();
    // Events whose time is no time: one warning, naming the event's file, or the events'
    // folder when there are several.
    let mut times = jsonl::BadTimes::default();
    let mut bad: Vec<PathBuf> = Vec::new();
    for (_, path) in files {
        let Some(event) = jsonl::read_document::<Event>(ctx, counts, &path, fsread::DOCUMENT_MAX)
        else {
            continue;
        };
        let Some(text) = event.timestamp.as_str().filter(|text| !text.is_empty()) else {
            continue;
        };
        let Some(time) = super::gptme::message_time(text, zone) else {
            times.count(None, "timestamp");
            bad.push(path);
            continue;
        };
        if time < ctx.since {
            continue;
        }
        draft.activity.push(time);
        match event.kind.as_str() {
            Some("MessageEvent") if event.source.as_str() == Some("user") => {
                draft.prompts.push(time);
                draft.note_prompt_text(time, prompt_text(&event.llm_message).trim());
            }
            Some("ObservationEvent") => observation(draft, time, &event.observation),
            _ => {}
        }
    }
    let named = if let [one] = bad.as_slice() { one.as_path() } else { events };
    times.report(ctx, counts, named);
}

/// The text parts of a message's content, one after another.
fn prompt_text(message: &Value) -> String {
    let parts = message.get("content").and_then(Value::as_array).into_iter().flatten();
    let texts: Vec<&str> = parts
        .filter(|part| part.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|part| part.get("text").and_then(Value::as_str))
        .collect();
    texts.join("\n")
}

/// What a tool's observation tells: a terminal command's exit status, a to-do list.
fn observation(draft: &mut Draft, time: jiff::Timestamp, observation: &Value) {
    if let Some(list) = observation.get("task_list") {
        let todos =
            serde_json::value::to_raw_value(list).ok().and_then(|raw| super::todo_list(&raw));
        if let Some(todos) = todos {
            draft.note_todos(time, todos);
        }
        return;
    }
    let command = observation.get("command").and_then(Value::as_str);
    let exit = observation.pointer("/metadata/exit_code").and_then(Value::as_i64);
    if let (Some(command), Some(exit)) = (command, exit.filter(|exit| *exit >= 0)) {
        draft.note_command(time, command, exit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_files_by_index() {
        let index = |name: &str| event_index(Path::new(name));
        assert_eq!(index("event-00012-0e6172ed-7126-49a2-ab3e-32709d97cc2a.json"), Some(12));
        assert_eq!(index("event-123456-abc.json"), Some(123_456));
        assert_eq!(index("event-0012-abc.json"), None);
        assert_eq!(index("event-00012-.json"), None);
        assert_eq!(index("event-00012-abc.json.tmp"), None);
        assert_eq!(index("TASKS.json"), None);
    }

    #[test]
    fn a_message_s_text_parts() {
        let message = serde_json::json!({"role": "user", "content": [
            {"type": "text", "text": "Fix the login"},
            {"type": "image", "image_urls": ["x"]},
            {"type": "text", "text": "and add a test"},
        ]});
        assert_eq!(prompt_text(&message), "Fix the login\nand add a test");
        assert_eq!(prompt_text(&serde_json::json!({"content": "plain"})), "");
    }
}
