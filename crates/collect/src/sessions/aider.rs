//! Aider: `.aider.input.history` and `.aider.chat.history.md` at the root of the git
//! work tree Aider ran in (its defaults; `--input-history-file` and
//! `--chat-history-file` elsewhere are not followed), read in the work trees found.
//!
//! Verified in Aider's source (`github:Aider-AI/aider` at 5dc9490, 0.86.3.dev:
//! `aider/io.py`, `aider/commands.py`, `aider/coders/base_coder.py`, `aider/main.py`):
//!
//! - `.aider.input.history` is prompt_toolkit's `FileHistory`: every line accepted at
//!   Aider's prompt is appended as `\n# <time>\n` then `+<line>\n` per line of the
//!   input, `<time>` being Python's `str(datetime.now())`: local time without a zone,
//!   `2026-11-30 09:15:02.123456` (no fraction when it is zero). Empty inputs are not
//!   stored. Besides prompts it holds the answers to Aider's yes/no questions
//!   (`confirm_ask` reads them at the same prompt: any prefix of `yes`, `no`, `all`,
//!   `skip`, `don't`), commands (`/add`, `/drop`, `!ls`, …), and `/run <command>`
//!   lines Aider records itself after running a shell command the model suggested
//!   (what Aider adds itself, `--message` and `/run`, is written twice, microseconds
//!   apart, seen in Aider 0.86.2's own files: one of two equal entries under a second
//!   apart is read). A
//!   multi-line input typed between `{` (or `{tag`) and `}` (or `tag}`) is stored one
//!   entry per line. `--message` text is stored as an entry too.
//! - Commands are matched by unique prefix (`/as` is `/ask`). Only `/ask`, `/code`,
//!   `/architect` and `/context` with text, and `/ok` with text, send what follows to
//!   the model: those are prompts (their text); every other command, `!…` and `/run`
//!   are not; neither is a `/…` that names no command (Aider refuses it).
//! - `.aider.chat.history.md` starts each run with `# aider chat started at
//!   <%Y-%m-%d %H:%M:%S>` (local time) and records the announcements as quoted lines:
//!   `> Aider v0.86.1`, `> Model: <model> with <format> edit format` (`> Main model:`
//!   when a weak model is set, `> Editor model:` in architect mode).
//!
//! Aider has no session id. A session is one Aider run: the entries of the input
//! history from one `chat started` header of the chat history to the next, with the
//! models its announcements name; entries that no header precedes (no chat history, or
//! one written elsewhere) form one session per work tree and local day. The id is
//! `aider:<start, local>:<work tree>` (or `aider:<day>:<work tree>`), the working
//! directory the work tree, the title the first prompt.
//!
//! The times are local and carry no zone: they are read in the zone of the machine
//! Aider ran on, which is this one: `$TZ` (an IANA name, or a POSIX rule), else the
//! system's zone, else UTC. (The report's own zone, which the config may set, is not
//! used: Aider wrote the machine's local time.) An ambiguous time at a daylight-saving
//! change takes the earlier offset.
//!
//! Both files are opened only when the input history was modified since the window
//! began, and are streamed.

use std::io;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::TimeZone;
use report_model::Agent;

use super::jsonl::{self, Malformed, Stats};
use super::{Ctx, Drafts, SessionsConfig, draft};
use crate::{Env, SourceStatus};

/// Aider's input history, in the work tree.
const INPUT_HISTORY: &str = ".aider.input.history";

/// Aider's chat log, in the work tree.
const CHAT_HISTORY: &str = ".aider.chat.history.md";

/// How a run starts in the chat history.
const STARTED: &str = "# aider chat started at ";

/// Aider's commands (`aider/commands.py`, the `cmd_*` methods, `_` written `-`).
const COMMANDS: &[&str] = &[
    "add",
    "architect",
    "ask",
    "chat-mode",
    "clear",
    "code",
    "commit",
    "context",
    "copy",
    "copy-context",
    "diff",
    "drop",
    "edit",
    "editor",
    "editor-model",
    "exit",
    "git",
    "help",
    "lint",
    "load",
    "ls",
    "map",
    "map-refresh",
    "model",
    "models",
    "multiline-mode",
    "ok",
    "paste",
    "quit",
    "read-only",
    "reasoning-effort",
    "report",
    "reset",
    "run",
    "save",
    "settings",
    "test",
    "think-tokens",
    "tokens",
    "undo",
    "voice",
    "weak-model",
    "web",
];

/// The commands whose text goes to the model.
const CHAT_COMMANDS: &[&str] = &["ask", "code", "architect", "context", "ok"];

/// The answers `confirm_ask` takes (any prefix of one).
const ANSWERS: &[&str] = &["yes", "no", "skip", "all", "don't"];

/// How much of an entry's text is kept: enough to classify it and title a session.
const ENTRY_TEXT_MAX: usize = 4096;

pub(crate) fn read(
    env: &Env,
    config: &SessionsConfig,
    work_trees: &[PathBuf],
    ctx: &mut Ctx,
) -> (Drafts, SourceStatus) {
    let _ = config;
    let mut status = SourceStatus::new(report_model::Source::Aider);
    let mut drafts = Drafts::new();
    let mut counts = Stats::default();
    let mut zone: Option<TimeZone> = None;
    for tree in super::dedup_paths(work_trees.to_vec()) {
        let history = tree.join(INPUT_HISTORY);
        let fresh = match fs_err::metadata(&history) {
            Ok(metadata) if metadata.is_file() => {
                super::fresh_time(metadata.modified().ok(), ctx.since)
            }
            // A FIFO or a folder where the history should be: named, never opened.
            Ok(_) => {
                if let Err(error) = crate::fsread::regular_metadata(&history) {
                    ctx.fail(error);
                }
                continue;
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
            Err(error) => {
                ctx.unreadable(&history, error);
                continue;
            }
        };
        status.found = true;
        status.files += 1;
        status.locations.push(history.clone());
        if !fresh {
            continue;
        }
        let zone = zone.get_or_insert_with(|| local_zone(env));
        let runs = read_chat_history(ctx, &mut status, &tree.join(CHAT_HISTORY), zone);
        read_input_history(ctx, &mut counts, &mut drafts, &tree, &runs, zone);
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// The zone Aider's local times are in: `$TZ`, else the system's, else UTC.
pub(super) fn local_zone(env: &Env) -> TimeZone {
    if let Some(tz) = env.var("TZ") {
        let name = tz.strip_prefix(':').unwrap_or(tz);
        if let Ok(zone) = TimeZone::get(name).or_else(|_| TimeZone::posix(name)) {
            return zone;
        }
    }
    TimeZone::try_system().unwrap_or(TimeZone::UTC)
}

/// A local time as Aider writes it (`2026-11-30 09:15:02[.123456]`), in `zone`.
pub(super) fn local_time(text: &str, zone: &TimeZone) -> Option<(DateTime, Timestamp)> {
    let civil: DateTime = text.trim().parse().ok()?;
    let time = zone.to_ambiguous_timestamp(civil).earlier().ok()?;
    Some((civil, time))
}

/// The runs the chat history names: when each started (its label, the local start
/// without fraction) and the models it announced, sorted by start.
#[derive(Default)]
struct Runs {
    starts: Vec<(Timestamp, String, Vec<String>)>,
}

impl Runs {
    /// The run an entry at `time` belongs to: the last one started at or before it.
    fn at(&self, time: Timestamp) -> Option<&(Timestamp, String, Vec<String>)> {
        let after = self.starts.partition_point(|(start, _, _)| *start <= time);
        after.checked_sub(1).and_then(|index| self.starts.get(index))
    }
}

/// Reads the run headers, announced models and versions of a chat history; a missing
/// one has none.
fn read_chat_history(
    ctx: &mut Ctx,
    status: &mut SourceStatus,
    path: &Path,
    zone: &TimeZone,
) -> Runs {
    let mut runs = Runs::default();
    jsonl::for_each_line(ctx, path, |bytes, _, _| {
        let Some(line) = std::str::from_utf8(bytes).ok() else { return };
        if let Some(rest) = line.strip_prefix(STARTED) {
            if let Some((civil, time)) = local_time(rest, zone) {
                let label = civil.strftime("%Y-%m-%dT%H:%M:%S").to_string();
                runs.starts.push((time, label, Vec::new()));
            }
            return;
        }
        let Some(quoted) = line.strip_prefix("> ") else { return };
        if let Some(version) = quoted.strip_prefix("Aider v") {
            status.note_version(version.split_whitespace().next().unwrap_or_default());
            return;
        }
        let model = ["Model: ", "Main model: ", "Editor model: "]
            .iter()
            .find_map(|prefix| quoted.strip_prefix(prefix))
            .and_then(|rest| rest.split(" with ").next());
        if let (Some(model), Some(run)) = (model, runs.starts.last_mut()) {
            let model = model.trim();
            if !run.2.iter().any(|known| known == model) {
                run.2.push(model.to_owned());
            }
        }
    });
    runs.starts.sort_by_key(|(start, _, _)| *start);
    runs
}

/// One entry of the input history being read.
struct Entry {
    time: Option<(DateTime, Timestamp)>,
    text: String,
    lines: usize,
}

/// A multi-line input being typed between `{tag` and `tag}`.
struct Block {
    tag: String,
    text: String,
}

/// What the input history's entries give, one at a time.
struct Sessions<'a> {
    drafts: &'a mut Drafts,
    tree: &'a Path,
    runs: &'a Runs,
    since: Timestamp,
    block: Option<Block>,
    /// The previous entry outside a block: its time and text.
    previous: Option<(Timestamp, String)>,
}

impl Sessions<'_> {
    /// Places one complete entry in its session.
    fn add(&mut self, entry: &Entry) {
        let Some((civil, time)) = entry.time else { return };
        // Aider writes what it adds itself (`--message`, `/run` lines) twice, a few
        // microseconds apart: once to the file and once through prompt_toolkit's history
        // of the same file (`InputOutput.add_to_input_history`). One entry is kept.
        if self.block.is_none() {
            let twice = self.previous.as_ref().is_some_and(|(before, text)| {
                *text == entry.text && time.duration_since(*before).as_secs() < 1
            });
            self.previous = Some((time, entry.text.clone()));
            if twice {
                return;
            }
        }
        let (id, models) = match self.runs.at(time) {
            Some((_, label, models)) => {
                (format!("aider:{label}:{}", self.tree.display()), models.as_slice())
            }
            None => (format!("aider:{}:{}", civil.date(), self.tree.display()), &[][..]),
        };
        let session = draft(self.drafts, Agent::Aider, &id);
        if session.cwd.is_none() {
            session.cwd = Some(self.tree.to_path_buf());
        }
        if time >= self.since {
            session.activity.push(time);
            for model in models {
                session.note_model(model);
            }
        }
        let prompt = match self.block.as_mut() {
            Some(block) => {
                if entry.text == format!("{}}}", block.tag) {
                    self.block.take().map(|block| block.text)
                } else {
                    push_capped(&mut block.text, "\n");
                    push_capped(&mut block.text, &entry.text);
                    None
                }
            }
            None => match block_tag(&entry.text) {
                Some(tag) => {
                    self.block = Some(Block { tag: tag.to_owned(), text: String::new() });
                    None
                }
                None => prompt_text(&entry.text).map(str::to_owned),
            },
        };
        let Some(text) = prompt.filter(|text| !text.trim().is_empty()) else { return };
        if time >= self.since {
            session.prompts.push(time);
        }
        session.note_prompt_text(time, text.trim());
    }
}

/// The tag of a line that opens a multi-line input (`{` gives ``, `{py` gives `py`).
fn block_tag(text: &str) -> Option<&str> {
    let tag = text.strip_prefix('{')?;
    tag.chars().all(char::is_alphanumeric).then_some(tag)
}

/// The text an input sends to the model as a prompt, if it does.
fn prompt_text(text: &str) -> Option<&str> {
    let trimmed = text.trim();
    if trimmed.is_empty() || trimmed.starts_with('!') {
        return None;
    }
    let lower = trimmed.to_lowercase();
    if ANSWERS.iter().any(|answer| answer.starts_with(lower.as_str())) {
        return None;
    }
    let Some(command) = trimmed.strip_prefix('/') else { return Some(trimmed) };
    let (word, rest) = command.split_once(char::is_whitespace).unwrap_or((command, ""));
    let matching: Vec<&&str> = COMMANDS.iter().filter(|name| name.starts_with(word)).collect();
    let resolved = match matching.as_slice() {
        [only] => Some(**only),
        _ => COMMANDS.iter().find(|name| **name == word).copied(),
    };
    let rest = rest.trim();
    (resolved.is_some_and(|name| CHAT_COMMANDS.contains(&name)) && !rest.is_empty()).then_some(rest)
}

/// Appends to an entry's text up to [`ENTRY_TEXT_MAX`] bytes (at a character boundary).
fn push_capped(text: &mut String, piece: &str) {
    let room = ENTRY_TEXT_MAX.saturating_sub(text.len());
    let mut end = piece.len().min(room);
    while !piece.is_char_boundary(end) {
        end -= 1;
    }
    text.push_str(&piece[..end]);
}

/// Reads a work tree's input history into sessions.
fn read_input_history(
    ctx: &mut Ctx,
    counts: &mut Stats,
    drafts: &mut Drafts,
    tree: &Path,
    runs: &Runs,
    zone: &TimeZone,
) {
    let path = tree.join(INPUT_HISTORY);
    let mut sessions =
        Sessions { drafts, tree, runs, since: ctx.since, block: None, previous: None };
    let mut entry: Option<Entry> = None;
    let mut malformed = Malformed::default();
    jsonl::for_each_line(ctx, &path, |bytes, number, _| {
        let line = String::from_utf8_lossy(bytes);
        if let Some(stamp) = line.strip_prefix("# ") {
            if let Some(done) = entry.take() {
                sessions.add(&done);
            }
            let time = local_time(stamp, zone);
            if time.is_none() {
                malformed.count(number);
            }
            entry = Some(Entry { time, text: String::new(), lines: 0 });
        } else if let Some(text) = line.strip_prefix('+') {
            match entry.as_mut() {
                Some(entry) => {
                    if entry.lines > 0 {
                        push_capped(&mut entry.text, "\n");
                    }
                    push_capped(&mut entry.text, text);
                    entry.lines += 1;
                }
                None => malformed.count(number),
            }
        } else if !line.starts_with('#') {
            malformed.count(number);
        }
    });
    if let Some(done) = entry.take() {
        sessions.add(&done);
    }
    malformed.report(ctx, counts, &path);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_a_prompt() {
        assert_eq!(prompt_text("fix the parser"), Some("fix the parser"));
        for answer in ["y", "Y", "yes", "n", "no", "a", "all", "s", "skip", "d", "don't", "ye"] {
            assert_eq!(prompt_text(answer), None, "{answer}");
        }
        assert_eq!(prompt_text("/add src/main.rs"), None);
        assert_eq!(prompt_text("/drop"), None);
        assert_eq!(prompt_text("/run cargo test"), None);
        assert_eq!(prompt_text("!ls -la"), None);
        assert_eq!(prompt_text("/ask why is it slow?"), Some("why is it slow?"));
        assert_eq!(prompt_text("/as why?"), Some("why?"));
        assert_eq!(prompt_text("/architect split the module"), Some("split the module"));
        assert_eq!(prompt_text("/code"), None);
        assert_eq!(prompt_text("/context the login flow"), Some("the login flow"));
        // `/co` could be `/code`, `/commit`, `/context`, `/copy`…: refused by Aider.
        assert_eq!(prompt_text("/co what"), None);
        assert_eq!(prompt_text("/nosuch thing"), None);
        assert_eq!(prompt_text("/ok and add tests"), Some("and add tests"));
        assert_eq!(prompt_text("/ok"), None);
        // `/model` is exact even though `/models` starts with it.
        assert_eq!(prompt_text("/model gpt-4o"), None);
    }

    #[test]
    fn block_tags() {
        assert_eq!(block_tag("{"), Some(""));
        assert_eq!(block_tag("{py"), Some("py"));
        assert_eq!(block_tag("{ not a block"), None);
        assert_eq!(block_tag("plain"), None);
    }

    #[test]
    fn local_times_with_and_without_fraction() {
        let tokyo = TimeZone::get("Asia/Tokyo").expect("bundled zone");
        let (_, time) = local_time("2026-11-30 09:15:02.123456", &tokyo).expect("parses");
        assert_eq!(time, "2026-11-30T00:15:02.123456Z".parse::<Timestamp>().expect("ts"));
        let (_, time) = local_time("2026-11-30 09:15:02", &tokyo).expect("parses");
        assert_eq!(time, "2026-11-30T00:15:02Z".parse::<Timestamp>().expect("ts"));
        assert!(local_time("yesterday", &tokyo).is_none());
    }

    #[test]
    fn capped_text_stops_at_a_character_boundary() {
        let mut text = "a".repeat(ENTRY_TEXT_MAX - 1);
        push_capped(&mut text, "\u{e9}\u{e9}");
        assert_eq!(text.len(), ENTRY_TEXT_MAX - 1);
    }
}
