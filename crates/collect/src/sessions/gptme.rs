//! gptme: one folder per conversation below its logs folder, which is the config's
//! `gptme_home` + `/logs`, else `$GPTME_LOGS_HOME`, else `$XDG_DATA_HOME/gptme/logs`,
//! else `~/.local/share/gptme/logs` (`gptme/dirs.py`, `get_logs_dir`).
//!
//! Verified in `gptme` 0.35.1 (its PyPI wheel: `dirs.py`, `message.py`,
//! `tools/shell.py`, `tools/complete.py`) and in the logs it wrote against the stand-in
//! (`gptme -n --tool-format tool`, `fixtures/agents/gptme/0.35.1/`):
//!
//! - `<logs>/<name>/conversation.jsonl`, one message per line (`Message.to_dict`):
//!   `role` (`system`, `user`, `assistant`), `content` (text), `timestamp`, `hide` and
//!   `pinned` (the context gptme builds at the start), `metadata.model` on replies
//!   (`local/standin-model`), `call_id` on a tool's output. The folder's name is the
//!   conversation's id (`2026-12-05-dancing-sleepy-dragon`).
//! - **`timestamp` has no zone**: it is `datetime.now().isoformat()`, the machine's local
//!   time, read in the local zone as Aider's times are (`$TZ`, else the system's); a
//!   timestamp with an offset is read as written.
//! - `<logs>/<name>/config.toml`: `[chat] name` (the title gptme generated, or the one set
//!   with `/rename`), `workspace` (the folder it worked in, written `~/…` below the home
//!   folder), `model`.
//! - Prompts are `user` messages that are not hidden and not gptme's own: its nudges in
//!   non-interactive runs are user messages wrapped in `<system>…</system>`. gptme
//!   appends the files a prompt names to it as fenced blocks (four backticks and the
//!   file's path): the text kept is
//!   what comes before the first such block.
//! - A command its `shell` tool ran is a `system` message ``Ran command: `sh check.sh` `` (or
//!   `Ran allowlisted command`, or the command as a code block when it has several
//!   lines; a long one is shortened by gptme itself), with `Return code: N` when N is not
//!   0; `Command timed out`, `Command interrupted` and `Command killed` tell no status and
//!   are not read. The same message follows the Markdown tool format (gptme's default),
//!   the XML one and the API's tool calls alike.
//! - Not read: gptme's `todo` tool (in the tool-call format its schema has no arguments,
//!   so no list could be recorded), the `events.jsonl` beside the log, and conversations
//!   of its sub-agents, which are logged like the person's.

use std::path::{Path, PathBuf};

use jiff::Timestamp;
use jiff::tz::TimeZone;
use report_model::Agent;
use serde::Deserialize;

use super::jsonl::{self, Stats};
use super::lenient::{LBool, LStr, NotATime};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, config_path};
use crate::{Env, SourceStatus, fsread};

/// One line of `conversation.jsonl`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Line<'a> {
    #[serde(borrow)]
    role: LStr<'a>,
    #[serde(borrow)]
    content: LStr<'a>,
    #[serde(borrow)]
    timestamp: LStr<'a>,
    hide: LBool,
    #[serde(borrow)]
    metadata: Option<Metadata<'a>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Metadata<'a> {
    #[serde(borrow)]
    model: LStr<'a>,
}

/// A conversation's `config.toml`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ConversationConfig {
    chat: Chat,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Chat {
    name: Option<String>,
    workspace: Option<String>,
}

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let logs = match config.homes.get(&Agent::Gptme) {
        Some(home) => config_path(env, home).join("logs"),
        None => env
            .abs_var("GPTME_LOGS_HOME")
            .unwrap_or_else(|| env.data_home().join("gptme").join("logs")),
    };
    let mut status = SourceStatus {
        locations: vec![logs.clone()],
        ..SourceStatus::new(report_model::Source::Gptme)
    };
    let mut drafts = Drafts::new();
    let folders = ctx.list_dir_typed(&logs);
    status.found = !folders.is_empty() || logs.is_dir();
    let zone = super::aider::local_zone(env);
    let mut counts = Stats::default();
    for (folder, kind) in folders {
        if !kind.is_dir() {
            continue;
        }
        let log = folder.join("conversation.jsonl");
        let Some(fresh) = ctx.freshness(&log) else { continue };
        status.files += 1;
        if !fresh {
            continue;
        }
        let Some(id) = super::file_name(&folder) else { continue };
        let draft = read_conversation(ctx, &mut counts, (&id, &folder, &log), (&zone, &env.home));
        add_draft(&mut drafts, draft);
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// A message's time: with its offset when it has one, else local time in `zone` (gptme's
/// and OpenHands' `datetime.now().isoformat()`).
pub(super) fn message_time(text: &str, zone: &TimeZone) -> Option<Timestamp> {
    text.parse::<Timestamp>()
        .ok()
        .or_else(|| super::aider::local_time(text, zone).map(|(_, time)| time))
}

/// Reads one conversation's log and its `config.toml`.
fn read_conversation(
    ctx: &mut Ctx,
    counts: &mut Stats,
    (id, folder, log): (&str, &Path, &Path),
    (zone, home): (&TimeZone, &Path),
) -> Draft {
    let since = ctx.since;
    let mut draft = Draft::new(Agent::Gptme, id);
    let mut folder_named: Option<String> = None;
    jsonl::read_lines(ctx, counts, log, |bytes| {
        let line: Line = serde_json::from_slice(bytes)?;
        let content = line.content.get().unwrap_or_default();
        if line.hide.0 {
            if folder_named.is_none() {
                folder_named = working_directory(content);
            }
            return Ok(());
        }
        let Some(text) = line.timestamp.get() else { return Ok(()) };
        let time = message_time(text, zone).ok_or(NotATime("timestamp"))?;
        if time < since {
            return Ok(());
        }
        draft.activity.push(time);
        match line.role.get() {
            Some("user") if !content.trim_start().starts_with("<system>") => {
                let typed = content.split("\n\n````").next().unwrap_or_default().trim();
                draft.prompts.push(time);
                draft.note_prompt_text(time, typed);
            }
            Some("assistant") => {
                if let Some(model) = line.metadata.as_ref().and_then(|meta| meta.model.get()) {
                    draft.note_model(model);
                }
            }
            Some("system") => {
                if let Some((command, exit)) = shell_run(content) {
                    draft.note_command(time, &command, exit);
                }
            }
            _ => {}
        }
        Ok(())
    });
    if draft.activity.is_empty() {
        return draft;
    }
    let chat = fsread::read_small_text(&folder.join("config.toml"), 1 << 20)
        .ok()
        .and_then(|text| toml::from_str::<ConversationConfig>(&text).ok())
        .unwrap_or_default()
        .chat;
    draft.title = chat.name.map(|name| name.trim().to_owned()).filter(|name| !name.is_empty());
    draft.cwd = chat
        .workspace
        .as_deref()
        .and_then(|dir| workspace_path(dir, home))
        .or(folder_named.map(PathBuf::from));
    draft
}

/// The folder `config.toml` names: absolute, or below the home folder as gptme writes
/// it there (`~/src/app`); anything else is not a folder this reader can place.
fn workspace_path(dir: &str, home: &Path) -> Option<PathBuf> {
    if let Some(below) = dir.strip_prefix("~/") {
        return Some(home.join(below));
    }
    dir.starts_with('/').then(|| PathBuf::from(dir))
}

/// The working directory gptme's context names (`**Working Directory:** /path`).
fn working_directory(content: &str) -> Option<String> {
    content
        .lines()
        .find_map(|line| line.strip_prefix("**Working Directory:** "))
        .map(|dir| dir.trim().to_owned())
        .filter(|dir| dir.starts_with('/'))
}

/// The command and exit status a `shell` output tells: ``Ran command: `cmd` ``, or the
/// command as a code block, and `Return code: N` when it is not 0.
fn shell_run(content: &str) -> Option<(String, i64)> {
    let rest = content
        .strip_prefix("Ran command:")
        .or_else(|| content.strip_prefix("Ran allowlisted command:"))?;
    let command = if let Some(inline) = rest.strip_prefix(" `") {
        inline.split_once("`\n").map_or(inline.lines().next()?, |(command, _)| command)
    } else {
        let block = rest.strip_prefix("\n```")?;
        let (_, body) = block.split_once('\n')?;
        body.split_once("\n```")?.0
    };
    let exit = match content.lines().rev().find_map(|line| line.strip_prefix("Return code: ")) {
        Some(code) => code.trim().parse().ok()?,
        None => 0,
    };
    Some((command.trim().to_owned(), exit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shell_output_tells_its_command_and_status() {
        assert_eq!(
            shell_run("Ran command: `sh check.sh`\n\n`check: 1 test failed`\n\nReturn code: 3\n"),
            Some(("sh check.sh".to_owned(), 3))
        );
        assert_eq!(
            shell_run("Ran allowlisted command: `ls`\n\n```stdout\na\n```\n\n"),
            Some(("ls".to_owned(), 0))
        );
        assert_eq!(
            shell_run(
                "Ran command:\n```bash\ncd app\nmake test\n```\n\nNo output\nReturn code: 2\n"
            ),
            Some(("cd app\nmake test".to_owned(), 2))
        );
        assert_eq!(shell_run("Command timed out (after 60s): `sleep 99`\n\n"), None);
        assert_eq!(shell_run("Process interrupted"), None);
        assert_eq!(shell_run("Ran command: `x`\n\nReturn code: nope\n"), None);
    }

    #[test]
    fn times_with_and_without_a_zone() {
        let tokyo = TimeZone::get("Asia/Tokyo").expect("zone");
        assert_eq!(
            message_time("2026-12-05T21:45:56.162619", &tokyo),
            "2026-12-05T12:45:56.162619Z".parse().ok()
        );
        assert_eq!(
            message_time("2026-12-05T21:45:56+00:00", &tokyo),
            "2026-12-05T21:45:56Z".parse().ok()
        );
    }

    #[test]
    fn a_workspace_below_the_home_is_written_with_a_tilde() {
        let home = Path::new("/home/dev");
        assert_eq!(workspace_path("~/src/app", home), Some(PathBuf::from("/home/dev/src/app")));
        assert_eq!(workspace_path("/work/app", home), Some(PathBuf::from("/work/app")));
        assert_eq!(workspace_path("src/app", home), None);
    }

    #[test]
    fn the_working_directory_of_the_context() {
        assert_eq!(
            working_directory(
                "## System Information\n\n**OS:** Debian\n**Working Directory:** /tmp/repo"
            )
            .as_deref(),
            Some("/tmp/repo")
        );
        assert_eq!(working_directory("**Working Directory:** relative"), None);
    }
}
