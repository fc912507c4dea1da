//! What the agent readers' tests share: a temp home, files written into it, reading one
//! agent, and finding a session in the output.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use collect::sessions::{SessionsConfig, read_sessions};
use collect::{Env, SourceOutput, SourceStatus};
use jiff::Timestamp;
use report_model::{Agent, Lang, SessionEvent, Warning, WarningCode};

/// A warning's English text, as the report words it.
pub(crate) fn en(warning: &Warning) -> String {
    render::warning_text(warning, Lang::En)
}

/// A temp folder standing in for a user's home.
pub(crate) struct Home {
    dir: tempfile::TempDir,
    vars: Vec<(String, String)>,
}

impl Home {
    pub(crate) fn new() -> Home {
        Home { dir: tempfile::tempdir().expect("temp dir"), vars: Vec::new() }
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Sets an environment variable the readers see (`CODEX_HOME`, `XDG_DATA_HOME`…).
    pub(crate) fn var(mut self, name: &str, value: impl Into<String>) -> Home {
        self.vars.push((name.to_owned(), value.into()));
        self
    }

    pub(crate) fn env(&self) -> Env {
        self.vars
            .iter()
            .fold(Env::new(self.path()), |env, (name, value)| env.with_var(name, value.clone()))
    }

    /// Writes a file (creating its folders) under the home.
    pub(crate) fn write(&self, relative: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let path = self.path().join(relative);
        fs_err::create_dir_all(path.parent().expect("file has a parent")).expect("create folders");
        fs_err::write(&path, content).expect("write file");
        path
    }

    /// Copies a folder of the repository's `fixtures/` (relative to it) to `relative`
    /// under the home, every file's modification time set to `mtime`.
    pub(crate) fn copy_fixture(&self, fixture: &str, relative: &str, mtime: Timestamp) {
        let source = fixtures().join(fixture);
        copy_tree(&source, &self.path().join(relative), to_system(mtime));
    }

    /// Reads one agent's sessions with records at or after `since`.
    pub(crate) fn read(&self, agent: Agent, since: Timestamp) -> SourceOutput<SessionEvent> {
        let config = SessionsConfig { agents: vec![agent], ..SessionsConfig::default() };
        read_sessions(&self.env(), &config, since)
    }
}

/// The repository's `fixtures/` folder.
pub(crate) fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

pub(crate) fn copy_tree(source: &Path, target: &Path, mtime: SystemTime) {
    fs_err::create_dir_all(target).expect("create target");
    for entry in fs_err::read_dir(source).expect("read fixture folder") {
        let entry = entry.expect("fixture entry");
        let to = target.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_tree(&entry.path(), &to, mtime);
        } else {
            fs_err::copy(entry.path(), &to).expect("copy fixture file");
            let file = fs_err::File::options().write(true).open(&to).expect("open to set time");
            file.set_modified(mtime).expect("set modification time");
        }
    }
}

pub(crate) fn ts(text: &str) -> Timestamp {
    text.parse().expect("test timestamp")
}

pub(crate) fn times(texts: &[&str]) -> Vec<Timestamp> {
    texts.iter().map(|text| ts(text)).collect()
}

fn to_system(time: Timestamp) -> SystemTime {
    SystemTime::UNIX_EPOCH
        + Duration::from_secs(u64::try_from(time.as_second()).expect("after 1970"))
}

/// Sets a file's or a folder's modification time (a folder is opened to read: it cannot
/// be opened to write).
pub(crate) fn set_mtime(path: &Path, time: Timestamp) {
    let file = fs_err::File::options()
        .write(!path.is_dir())
        .read(path.is_dir())
        .open(path)
        .expect("open to set time");
    file.set_modified(to_system(time)).expect("set modification time");
}

/// The session of `agent` with `session_id`; fails naming the sessions there are.
#[track_caller]
pub(crate) fn session<'o>(
    output: &'o SourceOutput<SessionEvent>,
    agent: Agent,
    session_id: &str,
) -> &'o SessionEvent {
    output
        .events
        .iter()
        .find(|event| event.agent == agent && event.session_id == session_id)
        .unwrap_or_else(|| {
            let ids: Vec<(Agent, &str)> = output
                .events
                .iter()
                .map(|event| (event.agent, event.session_id.as_str()))
                .collect();
            panic!("no {agent:?} session {session_id} in {ids:#?}")
        })
}

/// The status of `agent`.
#[track_caller]
pub(crate) fn status(output: &SourceOutput<SessionEvent>, agent: Agent) -> &SourceStatus {
    let source = report_model::Source::from(agent);
    output.statuses.iter().find(|status| status.source == source).expect("the agent's status")
}

/// What one recorded session says about the stand-in's scripted tool calls: its to-do
/// list (text, status) and its failed commands (command, last exit status, failures,
/// whether it was the session's last run).
pub(crate) type Scripted =
    (Vec<(String, report_model::TodoStatus)>, Vec<(String, Option<i64>, usize, bool)>);

/// The sessions of a recording that wrote a to-do list or have a failed command, with
/// those: the third session of each recording, where the stand-in called the agent's
/// to-do tool and made it run `sh check.sh` (exit status 3).
pub(crate) fn scripted(output: &SourceOutput<SessionEvent>) -> Vec<Scripted> {
    output
        .events
        .iter()
        .filter(|event| !event.todos.is_empty() || !event.failed_commands.is_empty())
        .map(|event| {
            (
                event.todos.iter().map(|todo| (todo.text.clone(), todo.status)).collect(),
                event
                    .failed_commands
                    .iter()
                    .map(|failed| {
                        let exit = failed.runs.last().map(|run| run.exit);
                        (failed.command.clone(), exit, failed.runs.len(), failed.last)
                    })
                    .collect(),
            )
        })
        .collect()
}

/// The to-do list the stand-in writes in every recording: one item done, two pending.
pub(crate) fn recorded_todos() -> Vec<(String, report_model::TodoStatus)> {
    use report_model::TodoStatus::{Completed, Pending};
    [
        ("Read the README", Completed),
        ("Add a test for hello.sh", Pending),
        ("Wire check.sh into CI", Pending),
    ]
    .into_iter()
    .map(|(text, status)| (text.to_owned(), status))
    .collect()
}

/// The failed command of every recording: `sh check.sh`, exit status 3, once, the
/// session's last run.
pub(crate) fn recorded_failure() -> Vec<(String, Option<i64>, usize, bool)> {
    vec![("sh check.sh".to_owned(), Some(3), 1, true)]
}

/// A session's to-do list, each item's text and status.
pub(crate) fn todo_items(event: &SessionEvent) -> Vec<(&str, report_model::TodoStatus)> {
    event.todos.iter().map(|todo| (todo.text.as_str(), todo.status)).collect()
}

/// A session's failed commands, each with its failed runs' exit status and time.
pub(crate) fn failed_runs(event: &SessionEvent) -> Vec<(&str, Vec<(i64, Timestamp)>)> {
    event
        .failed_commands
        .iter()
        .map(|failed| {
            (failed.command.as_str(), failed.runs.iter().map(|run| (run.exit, run.time)).collect())
        })
        .collect()
}

/// Checks a recording's three sessions as the stand-in scripted them: no warning, one
/// prompt each, the stand-in's model, the scratch repository, and the third session's
/// to-do list and failed command.
pub(crate) fn assert_recorded_sessions(output: &SourceOutput<SessionEvent>) {
    assert_recorded_sessions_of(output, "standin-model");
}

/// [`assert_recorded_sessions`] for an agent that names the stand-in's model its own way
/// (litellm's `openai/standin-model`).
pub(crate) fn assert_recorded_sessions_of(output: &SourceOutput<SessionEvent>, model: &str) {
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(output.events.len(), 3);
    for event in &output.events {
        assert_eq!(event.prompts.len(), 1, "{}", event.session_id);
        assert_eq!(event.models, [model], "{}", event.session_id);
        assert_eq!(event.cwd.as_deref(), Some(Path::new("/tmp/standup-agents/repo")));
    }
    let scripted = scripted(output);
    assert_eq!(scripted.len(), 1, "{scripted:?}");
    let (todos, failed) = &scripted[0];
    assert_eq!(todos, &recorded_todos());
    assert_eq!(failed, &recorded_failure());
}

/// The English texts of the output's warnings of one code.
pub(crate) fn warning_texts<E>(output: &SourceOutput<E>, code: WarningCode) -> Vec<String> {
    output.warnings.iter().filter(|warning| warning.code() == code).map(en).collect()
}

/// Checks that the output has exactly one warning of `code` and that it names `path`.
pub(crate) fn assert_one_warning_naming<E>(
    output: &SourceOutput<E>,
    code: WarningCode,
    path: &Path,
) {
    let texts = warning_texts(output, code);
    assert_eq!(texts.len(), 1, "{:?}", output.warnings);
    assert!(texts[0].contains(&path.display().to_string()), "{texts:?}");
}

/// Reads one agent with its folder set by the config (`[sessions] <agent>_home`).
pub(crate) fn read_with_home(
    home: &Home,
    agent: Agent,
    folder: PathBuf,
    since: Timestamp,
) -> SourceOutput<SessionEvent> {
    let config = SessionsConfig {
        agents: vec![agent],
        homes: std::collections::BTreeMap::from([(agent, folder)]),
        ..SessionsConfig::default()
    };
    read_sessions(&home.env(), &config, since)
}

/// A database being written as the agents keep theirs: created with `schema`, WAL mode,
/// no automatic checkpoint, the writer (the returned connection) open, so its rows stay
/// in the `-wal`.
pub(crate) fn wal_database(path: &Path, schema: &str) -> rusqlite::Connection {
    fs_err::create_dir_all(path.parent().expect("parent")).expect("folders");
    let conn = rusqlite::Connection::open(path).expect("open db");
    conn.pragma_update(None, "journal_mode", "WAL").expect("wal");
    conn.pragma_update(None, "wal_autocheckpoint", 0).expect("no checkpoints");
    conn.execute_batch(schema).expect("schema");
    conn
}

/// `text` with the value of the field `key` whose `"key":` starts at byte `at` (a string
/// or a number) replaced by the string `"yesterday"`: a time that is no time.
pub(crate) fn spoil_value_at(text: &str, at: usize, key: &str) -> String {
    let after = at + key.len() + 3;
    let start = after + (text[after..].len() - text[after..].trim_start().len());
    let rest = &text[start..];
    let length = if let Some(string) = rest.strip_prefix('"') {
        string.find('"').expect("a closed string") + 2
    } else {
        rest.find([',', '}', '\n']).expect("a value's end")
    };
    format!("{}\"yesterday\"{}", &text[..start], &text[start + length..])
}

/// `text` with its first field `key` given the value `"yesterday"`.
pub(crate) fn spoil_first(text: &str, key: &str) -> String {
    let at = text.find(&format!("\"{key}\":")).expect("the field is there");
    spoil_value_at(text, at, key)
}

/// The one warning of `output`, which says that `count` records of `path` were skipped
/// because their `key` holds no time.
pub(crate) fn assert_unreadable_times<E>(
    output: &SourceOutput<E>,
    path: &Path,
    key: &str,
    count: u64,
) {
    let expected = report_model::WarningDetail::UnreadableTimes {
        path: path.display().to_string(),
        key: key.to_owned(),
        count,
        line: None,
    };
    let found: Vec<_> = output
        .warnings
        .iter()
        .map(|warning| match &warning.detail {
            report_model::WarningDetail::UnreadableTimes { path, key, count, .. } => {
                report_model::WarningDetail::UnreadableTimes {
                    path: path.clone(),
                    key: key.clone(),
                    count: *count,
                    line: None,
                }
            }
            other => other.clone(),
        })
        .collect();
    assert_eq!(found, [expected], "{:?}", output.warnings);
}
