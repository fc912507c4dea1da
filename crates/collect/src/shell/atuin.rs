//! atuin's SQLite database.
//!
//! Where it is, as atuin 18.24 resolves it (`atuin_common::dirs` and
//! `atuin_client::settings`):
//!
//! - atuin's home is `$ATUIN_HOME` (an absolute path; empty or relative is ignored), else
//!   `~/.atuin`.
//! - Its `config.toml` is `$ATUIN_CONFIG_DIR/config.toml`; else `$ATUIN_HOME/config.toml`
//!   when `ATUIN_HOME` is set; else `~/.atuin/config.toml` when it exists; else the legacy
//!   `$XDG_CONFIG_HOME/atuin/config.toml` (or `~/.config/atuin/config.toml`) when it
//!   exists.
//! - The database is `$ATUIN_DB_PATH`, else `db_path` in the config, else `history.db`
//!   in the data directory: `$ATUIN_DATA_DIR`, else `data_dir` in the config, else
//!   `$ATUIN_HOME/data`; with `ATUIN_HOME` unset, `~/.atuin/data`, unless that folder does
//!   not exist and a legacy one does (`$XDG_DATA_HOME/atuin` or `~/.local/share/atuin`),
//!   which is then used. A relative path in the config or those variables is relative
//!   to the config file's folder.
//!
//! Only those two top-level keys are read, with the `toml` crate (as atuin's own
//! settings are); `~` and `$VAR` in them are expanded as atuin does. A config that is
//! not valid TOML (atuin itself refuses to start on one) is named in a warning, with the
//! line and what is wrong there, and the database is looked for where nothing configures
//! it.
//!
//! The database is opened read-only, with `query_only` on as well, so nothing is ever
//! written to it. atuin keeps it in WAL mode, and a read-only reader of a WAL database
//! creates the `-shm` and `-wal` files beside it when they are missing. So when there is
//! no `-wal` file (atuin is not running and everything is in the main file), the
//! database is opened as `immutable`, which reads the main file alone, creates nothing
//! and takes no lock. When there is one, its latest commands may be only in it, and the
//! database is opened normally (read-only), through the `-shm` index beside it; if that
//! index cannot be opened (a read-only directory), the main file is read alone.
//!
//! The `history` table's columns are probed first (`PRAGMA table_info`), since atuin adds
//! columns over time: `timestamp` (nanoseconds since the epoch) and `command` are
//! required; `cwd`, `exit`, `duration` (nanoseconds), `deleted_at`, and the newer
//! `author`, `author_kind`, `shell` (with `hostname`, `host:user`) are used when present.
//! Rows with a `deleted_at` are skipped, an `exit` or `duration` of `-1` (a command whose
//! end atuin never saw) is unknown, and a command is an AI agent's as atuin's own
//! `History::is_agent` decides: `author_kind` 2 (1 is the person); without a kind, an
//! `author` that is a known agent name and not merely the user name atuin defaulted it
//! to. `intent` (an agent's free-text reason) is not read. Only rows with
//! `timestamp >= since` are fetched.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use report_model::{Shell, ShellEvent};
use rusqlite::Connection;
use rusqlite::types::ValueRef;

use super::scan::{Scan, decode};
use crate::sqlite::{self, Failure};
use crate::{Env, Error, fsread};

/// The agent names atuin recognizes in `author` (`atuin_client::history::KNOWN_AGENTS`).
const KNOWN_AGENTS: [&str; 6] = ["claude-code", "codex", "copilot", "omp", "opencode", "pi"];

/// The user half atuin writes in `hostname` when it knows no user name.
const UNKNOWN_USER: &str = "unknown-user";

/// atuin's home, and whether `ATUIN_HOME` set it.
fn atuin_home(env: &Env) -> (PathBuf, bool) {
    match env.abs_var("ATUIN_HOME") {
        Some(home) => (home, true),
        None => (env.home.join(".atuin"), false),
    }
}

/// atuin's `config.toml`, as `atuin_common::dirs::config_path("config.toml")` finds it.
fn config_file(env: &Env) -> PathBuf {
    if let Some(dir) = env.var("ATUIN_CONFIG_DIR") {
        return PathBuf::from(dir).join("config.toml");
    }
    let (home, set) = atuin_home(env);
    let file = home.join("config.toml");
    if set || file.exists() {
        return file;
    }
    let legacy_dir = |xdg: Option<PathBuf>| {
        xdg.unwrap_or_else(|| env.home.join(".config")).join("atuin").join("config.toml")
    };
    let legacy = legacy_dir(env.abs_var("XDG_CONFIG_HOME"));
    if legacy.exists() { legacy } else { file }
}

/// The data directory atuin uses when nothing configures one
/// (`atuin_common::dirs::unconfigured_data_dir`).
fn unconfigured_data_dir(env: &Env) -> PathBuf {
    let (home, set) = atuin_home(env);
    let data = home.join("data");
    if set || data.exists() {
        return data;
    }
    let default_legacy = env.home.join(".local/share/atuin");
    let legacy = env
        .abs_var("XDG_DATA_HOME")
        .map_or_else(|| default_legacy.clone(), |xdg| xdg.join("atuin"));
    if legacy.exists() || default_legacy.exists() { legacy } else { data }
}

/// A legacy data folder that atuin no longer reads because its new default exists
/// (`atuin_common::dirs::shadowed_legacy_data_dir`): only when `ATUIN_HOME` is unset and
/// the database is the default one, `~/.atuin/data/history.db`.
pub(super) fn shadowed_legacy_data_dir(env: &Env, db: &Path) -> Option<PathBuf> {
    let (home, set) = atuin_home(env);
    let default = home.join("data");
    if set || db != default.join("history.db") || !default.is_dir() {
        return None;
    }
    let xdg = env.abs_var("XDG_DATA_HOME").map(|xdg| xdg.join("atuin"));
    xdg.into_iter()
        .chain([env.home.join(".local/share/atuin")])
        .find(|legacy| legacy.is_dir() && *legacy != default)
}

/// The database path atuin itself would use, and a problem met on the way (an
/// unreadable config file), for a warning.
pub(super) fn db_path(env: &Env) -> (PathBuf, Option<Error>) {
    let config_file = config_file(env);
    let config_dir = config_file.parent().map(Path::to_path_buf).unwrap_or_default();
    let resolve = |raw: &str| config_dir.join(expand(env, raw));
    if let Some(path) = env.var("ATUIN_DB_PATH") {
        return (resolve(path), None);
    }
    // A config that cannot be read or parsed configures nothing (and is named).
    let (Settings { db_path, data_dir }, problem) =
        match fsread::read_small_text(&config_file, fsread::CONFIG_FILE_MAX) {
            Ok(text) => match settings(&text) {
                Ok(settings) => (settings, None),
                Err(reason) => {
                    (Settings::default(), Some(Error::Config { path: config_file.clone(), reason }))
                }
            },
            Err(error) if error.is_not_found() => (Settings::default(), None),
            Err(error) => (Settings::default(), Some(error)),
        };
    if let Some(path) = db_path.filter(|path| !path.is_empty()) {
        return (resolve(&path), problem);
    }
    let data_dir = match (env.var("ATUIN_DATA_DIR"), data_dir.filter(|dir| !dir.is_empty())) {
        (Some(dir), _) => resolve(dir),
        (None, Some(dir)) => resolve(&dir),
        (None, None) => unconfigured_data_dir(env),
    };
    (data_dir.join("history.db"), problem)
}

/// What reading the database gave.
pub(super) type Outcome = sqlite::Outcome<Scan>;

/// Reads the commands run at or after `since` from the database at `path`.
pub(super) fn read(path: &Path, since: Timestamp) -> Outcome {
    sqlite::read(path, |conn| query(conn, since))
}

fn query(conn: &Connection, since: Timestamp) -> Result<Scan, Failure> {
    let columns: HashSet<String> = conn
        .prepare("PRAGMA table_info(history)")?
        .query_map([], |row| row.get::<_, String>(1))?
        .map(|name| name.map(|name| name.to_ascii_lowercase()))
        .collect::<Result<_, _>>()?;
    if !(columns.contains("timestamp") && columns.contains("command")) {
        return Err(Failure::Schema(
            "it has no `history` table with `timestamp` and `command` columns".to_owned(),
        ));
    }
    let live = if columns.contains("deleted_at") { "deleted_at IS NULL" } else { "1" };
    // Each optional column, or NULL where this version of atuin has none.
    let column = |name: &'static str| if columns.contains(name) { name } else { "NULL" };
    let selected = ["cwd", "exit", "duration", "author", "author_kind", "hostname", "shell"]
        .map(column)
        .join(", ");

    let mut scan = Scan::default();
    let entries: i64 =
        conn.query_row(&format!("SELECT COUNT(*) FROM history WHERE {live}"), [], |row| {
            row.get(0)
        })?;
    scan.entries = u64::try_from(entries).unwrap_or(0);

    // Nanoseconds fit an i64 until the year 2262; clamp beyond.
    let since_ns = i64::try_from(since.as_nanosecond())
        .unwrap_or(if since < Timestamp::UNIX_EPOCH { i64::MIN } else { i64::MAX });
    let mut statement = conn.prepare(&format!(
        "SELECT timestamp, command, {selected} FROM history WHERE timestamp >= ?1 AND {live}"
    ))?;
    let mut rows = statement.query([since_ns])?;
    let mut row_idx = 0;
    while let Some(row) = rows.next()? {
        row_idx += 1;
        let time =
            integer(row.get_ref(0)?).and_then(|ns| Timestamp::from_nanosecond(i128::from(ns)).ok());
        let command = match row.get_ref(1)? {
            ValueRef::Text(bytes) | ValueRef::Blob(bytes) => Some(decode(bytes.to_vec())),
            _ => None,
        };
        let (Some(time), Some(command)) = (time, command) else {
            scan.malformed_at(row_idx);
            continue;
        };
        if time < since || command.trim().is_empty() {
            continue;
        }
        let cwd = text(row.get_ref(2)?)
            .map(PathBuf::from)
            // Imported entries say `unknown`: only an absolute path is a directory.
            .filter(|cwd| cwd.is_absolute());
        // atuin writes -1 for a command whose end it never saw.
        let exit = integer(row.get_ref(3)?).filter(|exit| *exit != -1);
        let duration_ns =
            integer(row.get_ref(4)?).and_then(|duration| u64::try_from(duration).ok());
        let agent = agent(
            text(row.get_ref(5)?).as_deref(),
            integer(row.get_ref(6)?),
            text(row.get_ref(7)?).as_deref(),
        );
        scan.origins.push(text(row.get_ref(8)?).as_deref().and_then(shell_named));
        scan.events.push(ShellEvent {
            shell: Shell::Atuin,
            time,
            command,
            truncated: false,
            cwd,
            project: None,
            exit,
            duration_ns,
            agent,
        });
    }
    Ok(scan)
}

/// An integer cell (atuin's columns are integers; a number stored as text is read too).
fn integer(value: ValueRef<'_>) -> Option<i64> {
    match value {
        ValueRef::Integer(number) => Some(number),
        ValueRef::Text(text) => std::str::from_utf8(text).ok()?.trim().parse().ok(),
        _ => None,
    }
}

/// A text cell, decoded.
fn text(value: ValueRef<'_>) -> Option<String> {
    match value {
        ValueRef::Text(bytes) => Some(decode(bytes.to_vec())),
        _ => None,
    }
}

/// One of our shells, by the name atuin records in `shell`.
fn shell_named(name: &str) -> Option<Shell> {
    match name.trim() {
        "zsh" => Some(Shell::Zsh),
        "bash" => Some(Shell::Bash),
        "fish" => Some(Shell::Fish),
        _ => None,
    }
}

/// The agent that ran a command, as atuin's `History::is_agent` decides: a recorded
/// `author_kind` wins (2 an agent, 1 the person); without one (or one this version does
/// not know), an `author` that is a known agent's name, unless it is only the user name
/// atuin fell back to (the user half of `hostname`, `host:user`).
fn agent(author: Option<&str>, author_kind: Option<i64>, hostname: Option<&str>) -> Option<String> {
    let author = author.map(str::trim).filter(|author| !author.is_empty());
    match author_kind {
        // The name is shown: an unusual one (not a plain name) is only "agent".
        Some(2) => {
            return Some(
                author.filter(|author| crate::plain_name(author)).unwrap_or("agent").to_owned(),
            );
        }
        Some(1) => return None,
        _ => {}
    }
    let author = author?;
    let defaulted = hostname.map(|hostname| match hostname.split_once(':') {
        None => hostname,
        Some((host, UNKNOWN_USER)) => host,
        Some((_, user)) => user,
    });
    (KNOWN_AGENTS.contains(&author) && defaulted != Some(author)).then(|| author.to_owned())
}

/// The keys of atuin's `config.toml` that place its database (all others are atuin's
/// own business and are not looked at).
#[derive(Debug, Default, serde::Deserialize)]
struct Settings {
    db_path: Option<String>,
    data_dir: Option<String>,
}

/// [`Settings`] from the config's text; what is wrong, with its line, when the text is
/// not valid TOML or either key is not a string.
fn settings(text: &str) -> Result<Settings, String> {
    toml::from_str(text).map_err(|error: toml::de::Error| {
        let message = error.message().trim_end_matches('\n');
        match error.span() {
            Some(span) => {
                let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
                format!("line {line}: {message}")
            }
            None => message.to_owned(),
        }
    })
}

/// Expands a leading `~` and `$NAME` / `${NAME}` from the injected environment (with
/// `HOME` the injected home), as atuin's `shellexpand::full` does. Unknown variables are
/// left as written, and so are variables not on [`Env::VARS`]: the binary passes only
/// those to `collect`.
fn expand(env: &Env, raw: &str) -> PathBuf {
    let home = env.home.to_string_lossy();
    let lookup = |name: &str| -> Option<String> {
        match env.listed_var(name) {
            Some(value) => Some(value.to_owned()),
            None if name == "HOME" => Some(home.clone().into_owned()),
            None => None,
        }
    };
    let mut out = String::new();
    let mut rest = raw;
    if rest == "~" || rest.starts_with("~/") {
        out.push_str(&home);
        rest = &rest[1..];
    }
    while let Some(dollar) = rest.find('$') {
        out.push_str(&rest[..dollar]);
        let after = &rest[dollar + 1..];
        let (name, tail) = if let Some(braced) = after.strip_prefix('{') {
            braced.split_once('}').unwrap_or(("", after))
        } else {
            let len = after
                .find(|char: char| !(char.is_ascii_alphanumeric() || char == '_'))
                .unwrap_or(after.len());
            after.split_at(len)
        };
        match lookup(name).filter(|_| !name.is_empty()) {
            Some(value) => out.push_str(&value),
            None => out.push_str(&rest[dollar..rest.len() - tail.len()]),
        }
        rest = tail;
    }
    out.push_str(rest);
    PathBuf::from(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_top_level_keys_as_toml_does() {
        let text = "# db_path = \"/commented\"\nauto_sync = true\n\"db_path\" = \"/x/\\u00e9\\t\\\"q\\\"\\\\.db\" # trailing\n[sync]\ndata_dir = '/nope'\n";
        let read = settings(text).unwrap();
        assert_eq!(read.db_path.as_deref(), Some("/x/é\t\"q\"\\.db"));
        // A key under a table is the table's.
        assert_eq!(read.data_dir, None);
        let literal = settings("data_dir = '~/h'").unwrap();
        assert_eq!((literal.db_path, literal.data_dir.as_deref()), (None, Some("~/h")));
        // Multi-line strings are TOML too.
        let multi = settings("db_path = \"\"\"\n/x/h.db\"\"\"").unwrap();
        assert_eq!(multi.db_path.as_deref(), Some("/x/h.db"));
        assert_eq!(settings("").unwrap().db_path, None);
    }

    #[test]
    fn a_config_that_is_not_toml_names_its_line() {
        assert_eq!(
            settings("auto_sync = true\ndb_path = \"unterminated\n").unwrap_err(),
            "line 2: invalid basic string, expected `\"`"
        );
        let wrong_type = settings("db_path = 3\n").unwrap_err();
        assert!(wrong_type.starts_with("line 1: invalid type: integer `3`"), "{wrong_type}");
    }

    #[test]
    fn expands_tilde_and_variables() {
        let env = Env::new("/home/u").with_var("XDG_DATA_HOME", "/data");
        assert_eq!(expand(&env, "~/a.db"), PathBuf::from("/home/u/a.db"));
        assert_eq!(expand(&env, "$XDG_DATA_HOME/atuin/h.db"), PathBuf::from("/data/atuin/h.db"));
        assert_eq!(expand(&env, "${HOME}/h.db"), PathBuf::from("/home/u/h.db"));
        assert_eq!(expand(&env, "/$UNSET/${ALSO}/$/x"), PathBuf::from("/$UNSET/${ALSO}/$/x"));
        assert_eq!(expand(&env, "~user/x"), PathBuf::from("~user/x"));
    }

    #[test]
    fn agents_as_atuin_decides() {
        assert_eq!(
            agent(Some("claude-code"), Some(2), Some("h:dev")).as_deref(),
            Some("claude-code")
        );
        assert_eq!(agent(None, Some(2), None).as_deref(), Some("agent"));
        assert_eq!(agent(Some("codex"), Some(1), Some("h:dev")), None);
        assert_eq!(agent(Some("codex"), None, Some("h:dev")).as_deref(), Some("codex"));
        assert_eq!(agent(Some("codex"), Some(9), Some("h:dev")).as_deref(), Some("codex"));
        // A user named like an agent: the author is only the default.
        assert_eq!(agent(Some("pi"), None, Some("h:pi")), None);
        assert_eq!(agent(Some("pi"), None, Some("pi:unknown-user")), None);
        assert_eq!(agent(Some("dev"), None, Some("h:dev")), None);
        assert_eq!(agent(Some("  "), None, Some("h:dev")), None);
    }
}
