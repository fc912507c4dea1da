//! The readers over the files the real agents wrote (fixtures/agents/<agent>/<version>/), against each recording's expectations.
//!
//! `cargo xtask record-agents` ran each npm agent offline against a stand-in model
//! server and saved the files it wrote under `home/` (paths relative to HOME), with an
//! `expected.json`: per session its id, typed prompts, title, cwd and model, and (in
//! recordings since round 9) the to-do list and the failed shell command the stand-in
//! made the agent write and run. Every recording is read here with its agent's reader;
//! all mismatches of all agents are collected and reported by one assertion, so one run
//! shows what is left to do.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use collect::sessions::{SessionsConfig, newest_recorded, read_aider, version_newer};
use jiff::Timestamp;
use report_model::Agent;
use serde_json::Value;

use crate::support::{Home, copy_tree, fixtures};

/// The scratch repository the agents ran in (`xtask/src/record/mod.rs` `REPO`).
const SCRATCH_REPO: &str = "/tmp/standup-agents/repo";

/// One recording: `fixtures/agents/<agent>/<version>/`.
struct Recording {
    agent_name: String,
    version: String,
    folder: PathBuf,
}

fn recordings() -> Vec<Recording> {
    let root = fixtures().join("agents");
    let mut found = Vec::new();
    for agent in sorted_dirs(&root) {
        for version in sorted_dirs(&agent) {
            found.push(Recording {
                agent_name: file_name(&agent),
                version: file_name(&version),
                folder: version,
            });
        }
    }
    found
}

fn sorted_dirs(folder: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs_err::read_dir(folder) else { return Vec::new() };
    let mut dirs: Vec<PathBuf> = entries
        .map(|entry| entry.expect("fixture entry").path())
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    dirs
}

fn file_name(path: &Path) -> String {
    path.file_name().expect("folder name").to_string_lossy().into_owned()
}

fn to_system(time: Timestamp) -> SystemTime {
    SystemTime::UNIX_EPOCH
        + Duration::from_secs(u64::try_from(time.as_second()).expect("after 1970"))
}

fn text<'v>(value: &'v Value, key: &str) -> &'v str {
    value[key].as_str().unwrap_or_else(|| panic!("expected.json: no string {key:?} in {value}"))
}

/// Reads one recording and returns what differs from its `expected.json`.
fn mismatches(recording: &Recording) -> Vec<String> {
    let label = format!("{} {}", recording.agent_name, recording.version);
    let Ok(agent) = recording.agent_name.parse::<Agent>() else {
        return vec![format!("{label}: {:?} is not an agent's short name", recording.agent_name)];
    };
    let expected: Value = serde_json::from_str(
        &fs_err::read_to_string(recording.folder.join("expected.json")).expect("expected.json"),
    )
    .expect("expected.json is JSON");
    let mut found = Vec::new();
    if text(&expected, "agent") != recording.agent_name
        || text(&expected, "version") != recording.version
    {
        found.push(format!("{label}: expected.json names another agent or version"));
    }
    let since: Timestamp = text(&expected, "since").parse().expect("since is a timestamp");
    let until: Timestamp = text(&expected, "until").parse().expect("until is a timestamp");
    assert!(since < until, "{label}: since {since} is not before until {until}");
    // Every file modified inside the recording's window, as the agent left it.
    // Aider's times are the machine's local time: it was recorded with `TZ=UTC`.
    let home = Home::new().var("TZ", "UTC");
    let written =
        to_system(since.saturating_add(jiff::SignedDuration::from_secs(1)).expect("in range"));
    if recording.folder.join("home").is_dir() {
        copy_tree(&recording.folder.join("home"), home.path(), written);
    }
    let mut output = home.read(agent, since);
    if recording.folder.join("repo").is_dir() {
        // The files an agent keeps in the repository it ran in (Aider's), read in a copy
        // and named by the scratch repository's path, where they were written.
        let tree = home.path().join("repo");
        copy_tree(&recording.folder.join("repo"), &tree, written);
        let config = SessionsConfig { agents: vec![agent], ..SessionsConfig::default() };
        let mut aider = read_aider(&home.env(), &config, std::slice::from_ref(&tree), since);
        for event in &mut aider.events {
            event.session_id = event.session_id.replace(&tree.display().to_string(), SCRATCH_REPO);
            event.cwd = event
                .cwd
                .take()
                .map(|cwd| if cwd == tree { PathBuf::from(SCRATCH_REPO) } else { cwd });
        }
        output.events.extend(aider.events);
        output.warnings.extend(aider.warnings);
    }
    for warning in &output.warnings {
        found.push(format!("{label}: warning {warning:?}"));
    }
    let sessions = expected["sessions"].as_array().expect("expected.json has sessions");
    if sessions.is_empty() {
        found.push(format!("{label}: expected.json has no sessions"));
    }
    for session in sessions {
        let id = text(session, "id");
        let Some(event) =
            output.events.iter().find(|event| event.agent == agent && event.session_id == id)
        else {
            let read: Vec<&str> =
                output.events.iter().map(|event| event.session_id.as_str()).collect();
            found.push(format!("{label}: session {id} not read (read: {read:?})"));
            continue;
        };
        let count = usize::try_from(session["prompts_count"].as_u64().expect("prompts_count"))
            .expect("small count");
        if event.prompts.len() != count {
            found.push(format!(
                "{label}: session {id}: {} prompts, expected {count}",
                event.prompts.len()
            ));
        }
        if event.title != text(session, "title") {
            found.push(format!(
                "{label}: session {id}: title {:?}, expected {:?}",
                event.title,
                text(session, "title")
            ));
        }
        let cwd = Path::new(text(session, "cwd"));
        if event.cwd.as_deref() != Some(cwd) {
            found.push(format!(
                "{label}: session {id}: cwd {:?}, expected {}",
                event.cwd,
                cwd.display()
            ));
        }
        let model = text(session, "model");
        if !event.models.iter().any(|known| known == model) {
            found.push(format!(
                "{label}: session {id}: models {:?}, expected {model:?} among them",
                event.models
            ));
        }
        found.extend(scripted_mismatches(&label, id, session, event));
        let (first, last) = (event.activity.first(), event.activity.last());
        if first.is_none_or(|first| *first < since) || last.is_none_or(|last| *last > until) {
            found.push(format!(
                "{label}: session {id}: activity {first:?}..{last:?} outside {since}..{until}"
            ));
        }
    }
    found
}

/// What differs between the to-do list and failed commands the stand-in scripted in a
/// session (`todos`, `failed_commands` of `expected.json`) and what was read.
fn scripted_mismatches(
    label: &str,
    id: &str,
    session: &Value,
    event: &report_model::SessionEvent,
) -> Vec<String> {
    let mut found = Vec::new();
    // The to-do list the stand-in made the agent write, and the command it made the
    // agent run that failed (absent from recordings made before they were scripted).
    if let Some(todos) = session.get("todos").and_then(Value::as_array) {
        let expected: Vec<(&str, &str)> =
            todos.iter().map(|todo| (text(todo, "text"), text(todo, "status"))).collect();
        let read: Vec<(&str, String)> = event
            .todos
            .iter()
            .map(|todo| {
                let status = serde_json::to_value(todo.status).expect("a status serializes");
                (todo.text.as_str(), status.as_str().unwrap_or_default().to_owned())
            })
            .collect();
        let read: Vec<(&str, &str)> =
            read.iter().map(|(text, status)| (*text, status.as_str())).collect();
        if read != expected {
            found.push(format!("{label}: session {id}: todos {read:?}, expected {expected:?}"));
        }
    }
    if let Some(failed) = session.get("failed_commands").and_then(Value::as_array) {
        let expected: Vec<(&str, Option<i64>)> = failed
            .iter()
            .map(|command| (text(command, "command"), command["exit_code"].as_i64()))
            .collect();
        let read: Vec<(&str, Option<i64>)> = event
            .failed_commands
            .iter()
            .map(|command| (command.command.as_str(), command.runs.last().map(|run| run.exit)))
            .collect();
        if read != expected {
            found.push(format!(
                "{label}: session {id}: failed commands {read:?}, expected {expected:?}"
            ));
        }
    }
    found
}

#[test]
fn every_recording_reads_as_expected() {
    let recordings = recordings();
    assert!(!recordings.is_empty(), "no recordings under fixtures/agents");
    let mut all = Vec::new();
    for recording in &recordings {
        all.extend(mismatches(recording));
    }
    assert!(
        all.is_empty(),
        "{} mismatch(es) between the readers and the recordings:\n  {}",
        all.len(),
        all.join("\n  ")
    );
}

/// `RECORDED` in `sessions/mod.rs` names the newest recorded version of each agent.
#[test]
fn the_recorded_table_names_the_newest_recording_of_each_agent() {
    let mut newest: Vec<(Agent, String)> = Vec::new();
    for recording in recordings() {
        let agent: Agent = recording.agent_name.parse().expect("agent short name");
        match newest.iter_mut().find(|(known, _)| *known == agent) {
            Some((_, version)) if version_newer(&recording.version, version) => {
                *version = recording.version;
            }
            Some(_) => {}
            None => newest.push((agent, recording.version)),
        }
    }
    for agent in Agent::ALL {
        let folder = newest.iter().find(|(known, _)| *known == agent).map(|(_, v)| v.as_str());
        assert_eq!(newest_recorded(agent), folder, "{agent:?}: RECORDED against fixtures/agents");
    }
}

/// What the recordings hold is only what the readers need: small, no credentials.
#[test]
fn recordings_are_small_and_hold_no_credentials() {
    let mut total = 0;
    for recording in recordings() {
        // The agent's files below HOME and in the repository it ran in (Aider's).
        let mut stack: Vec<PathBuf> = ["home", "repo"]
            .iter()
            .map(|part| recording.folder.join(part))
            .filter(|folder| folder.is_dir())
            .collect();
        assert!(!stack.is_empty(), "{}: no files recorded", recording.folder.display());
        while let Some(folder) = stack.pop() {
            for entry in fs_err::read_dir(&folder).expect("list fixture") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let name = file_name(&path).to_ascii_lowercase();
                assert!(
                    !["auth", "credential", "token", "oauth", "secret"]
                        .iter()
                        .any(|word| name.contains(word)),
                    "credential-like file in a recording: {}",
                    path.display()
                );
                let size = fs_err::metadata(&path).expect("stat").len();
                let cap = if name.ends_with("-wal") { 4 << 20 } else { 1 << 20 };
                assert!(size <= cap, "{} is {size} bytes", path.display());
                total += size;
            }
        }
    }
    // Five of them are databases with their write-ahead logs (opencode's, Kilo Code's,
    // Goose's, Copilot's and Hermes Agent's, 0.4 to 1.9 MB each, as the agents left them:
    // Hermes Agent's log holds its full-text index's pages too).
    assert!(total < 10 << 20, "the recordings hold {total} bytes");
}

/// The field each agent dates its records with, where its records are text files (the
/// agents that keep a database, or no per-record time, are left out).
fn time_key(agent_name: &str) -> Option<&'static str> {
    Some(match agent_name {
        "claude" | "codex" | "commandcode" | "copilot" | "droid" | "gemini" | "gptme"
        | "openclaw" | "openhands" | "pi" | "qwen" => "timestamp",
        "kimi" => "time",
        "cline" => "ts",
        "vibe" => "createdAt",
        _ => return None,
    })
}

/// Every text file below `folder`.
fn text_files(folder: &Path) -> Vec<PathBuf> {
    let mut stack = vec![folder.to_path_buf()];
    let mut files = Vec::new();
    while let Some(folder) = stack.pop() {
        for path in sorted_dirs(&folder) {
            stack.push(path);
        }
        for entry in fs_err::read_dir(&folder).expect("list copy") {
            let path = entry.expect("entry").path();
            let bytes = if path.is_file() { fs_err::read(&path).expect("read") } else { continue };
            if !bytes.starts_with(b"SQLite format 3\0") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// In the first file holding the typed text `prompt` and the time field `key`, that field
/// is given the value `"yesterday"`: in a JSON Lines file its first one on the prompt's
/// line (the record's own, before any nested one), in a document the one nearest to the
/// prompt. The file changed, or `None` when no file holds both.
fn spoil_prompt_time(files: &[PathBuf], prompt: &str, key: &str) -> Option<PathBuf> {
    let needle = serde_json::to_string(prompt).expect("a string serializes");
    let needle = &needle[1..needle.len() - 1];
    let field = format!("\"{key}\":");
    for path in files {
        let Ok(text) = fs_err::read_to_string(path) else { continue };
        let Some(at) = text.find(needle) else { continue };
        let nearest = if path.extension().is_some_and(|extension| extension == "jsonl") {
            text.match_indices(needle).find_map(|(at, _)| {
                let line = text[..at].rfind('\n').map_or(0, |end| end + 1);
                let line_end = text[at..].find('\n').map_or(text.len(), |end| at + end);
                text[line..line_end].find(&field).map(|index| line + index)
            })
        } else {
            text.match_indices(&field)
                .map(|(index, _)| index)
                .min_by_key(|index| index.abs_diff(at))
        };
        let Some(nearest) = nearest else { continue };
        let spoiled = crate::support::spoil_value_at(&text, nearest, key);
        let modified = fs_err::metadata(path).expect("stat").modified().expect("mtime");
        fs_err::write(path, spoiled).expect("write");
        let file = fs_err::File::options().write(true).open(path).expect("open to set time");
        file.set_modified(modified).expect("keep the time");
        return Some(path.clone());
    }
    None
}

/// A home holding a copy of the recording's files, written a second after the
/// recording's `since` (TZ=UTC), with its `expected.json` and that `since`.
fn recorded_home(recording: &Recording) -> (Home, Value, Timestamp) {
    let expected: Value = serde_json::from_str(
        &fs_err::read_to_string(recording.folder.join("expected.json")).expect("expected"),
    )
    .expect("expected.json is JSON");
    let since: Timestamp = text(&expected, "since").parse().expect("since");
    let home = Home::new().var("TZ", "UTC");
    let written =
        to_system(since.saturating_add(jiff::SignedDuration::from_secs(1)).expect("range"));
    copy_tree(&recording.folder.join("home"), home.path(), written);
    (home, expected, since)
}

/// A prompt's record whose time is no time (`"yesterday"`) is skipped with one warning
/// naming its file (or, for Mistral Vibe, whose entries come from several files, the
/// session's folder), never silently, in every recording whose agent dates records in
/// text; the other sessions still come out.
#[test]
fn a_prompt_s_time_that_is_no_time_is_warned_in_every_recording() {
    let mut checked = Vec::new();
    let mut all = Vec::new();
    for recording in recordings() {
        let Some(key) = time_key(&recording.agent_name) else { continue };
        let label = format!("{} {}", recording.agent_name, recording.version);
        let agent: Agent = recording.agent_name.parse().expect("agent short name");
        let (home, expected, since) = recorded_home(&recording);
        let sessions = expected["sessions"].as_array().expect("sessions");
        let prompt = sessions
            .iter()
            .find_map(|session| session["prompts"].as_array()?.first()?.as_str())
            .expect("a recorded prompt");
        let files = text_files(home.path());
        let Some(spoiled) = spoil_prompt_time(&files, prompt, key) else {
            // OpenClaw's later releases keep their transcripts in a database.
            if !files.iter().any(|path| {
                fs_err::read(path).is_ok_and(|bytes| {
                    bytes.windows(prompt.len()).any(|window| window == prompt.as_bytes())
                })
            }) {
                continue;
            }
            all.push(format!("{label}: no file holds the prompt {prompt:?} and a {key:?}"));
            continue;
        };
        let output = home.read(agent, since);
        let named: Vec<_> = output
            .warnings
            .iter()
            .filter(|warning| {
                matches!(&warning.detail, report_model::WarningDetail::UnreadableTimes { path, key: named, .. }
                    if spoiled.starts_with(path) && named == key)
            })
            .collect();
        if named.len() != 1 || output.warnings.len() != 1 {
            all.push(format!(
                "{label}: {} spoiled, warnings {:?}",
                spoiled.display(),
                output.warnings
            ));
        }
        let read = output.events.iter().filter(|event| event.agent == agent).count();
        if read + 1 < sessions.len() {
            all.push(format!("{label}: {read} sessions read of {}", sessions.len()));
        }
        checked.push(label);
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
    assert!(checked.len() >= 16, "checked only {checked:?}");
}

/// The database and message time column of each agent whose recording keeps its messages
/// in SQLite with a time column of their own: the database's path in the home, the table
/// and the column.
fn database_time_column(agent: &str) -> Option<(&'static str, &'static str, &'static str)> {
    match agent {
        "goose" => {
            Some((".local/share/goose/sessions/sessions.db", "messages", "created_timestamp"))
        }
        "hermes" => Some((".hermes/state.db", "messages", "timestamp")),
        _ => None,
    }
}

/// A prompt's row whose time column holds text (`'yesterday'`, which SQLite keeps in any
/// column that is not `STRICT`) is skipped with one warning naming the database and the
/// column, in every recording of an agent that keeps its messages so; the other sessions
/// still come out. Before round 44 one such row failed Goose's whole database, and
/// Hermes skipped it without a word.
#[test]
fn a_prompt_row_s_time_that_is_no_time_is_warned_in_every_recorded_database() {
    let mut checked = Vec::new();
    let mut all = Vec::new();
    for recording in recordings() {
        let Some((database, table, column)) = database_time_column(&recording.agent_name) else {
            continue;
        };
        let label = format!("{} {}", recording.agent_name, recording.version);
        let agent: Agent = recording.agent_name.parse().expect("agent short name");
        let (home, expected, since) = recorded_home(&recording);
        let path = home.path().join(database);
        let conn = rusqlite::Connection::open(&path).expect("the recorded database opens");
        let spoiled = conn
            .execute(
                &format!(
                    "UPDATE {table} SET {column} = 'yesterday' WHERE rowid = \
                     (SELECT MIN(rowid) FROM {table} WHERE role = 'user')"
                ),
                [],
            )
            .expect("a prompt's row is updated");
        drop(conn);
        assert_eq!(spoiled, 1, "{label}: no prompt row");
        let output = home.read(agent, since);
        let warned = output.warnings.iter().any(|warning| {
            matches!(&warning.detail, report_model::WarningDetail::UnreadableTimes { path: named, key, count: 1, .. }
                if Path::new(named) == path && key == column)
        });
        if !warned || output.warnings.len() != 1 {
            all.push(format!("{label}: warnings {:?}", output.warnings));
        }
        let sessions = expected["sessions"].as_array().expect("sessions").len();
        let read = output.events.iter().filter(|event| event.agent == agent).count();
        if read + 1 < sessions {
            all.push(format!("{label}: {read} sessions read of {sessions}"));
        }
        checked.push(label);
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
    assert_eq!(checked, ["goose 1.52.0", "hermes 0.19.0"]);
}
