//! Shell histories: zsh, bash and fish history files and atuin's database.
//!
//! [`read_shell`] returns the commands run at or after `since`, one [`SourceStatus`] per
//! enabled shell (`zsh`, `bash`, `fish`, `atuin`, in that order) and warnings. Each
//! format is described in its own module: `zsh`, `bash`, `fish`, `atuin`.
//!
//! # Where the histories are
//!
//! A path in [`ShellConfig`] is the only file read for that shell. Otherwise:
//!
//! - zsh: `~/.zsh_history`; bash: `~/.bash_history`; fish:
//!   `$XDG_DATA_HOME/fish/fish_history`; atuin: see the `atuin` module.
//! - `$HISTFILE`, when set, is read too, as the history of one of zsh and bash: both
//!   shells use the name, and `standup` cannot tell which shell exported it. It belongs
//!   to zsh when it is zsh's default path, to bash when it is bash's; otherwise its first
//!   lines decide (`: <digits>:<digits>;` is zsh's extended format, `#<digits>` is
//!   bash's timestamp line), then its file name (containing `zsh` or `bash`), then the
//!   login shell (`$SHELL`), and zsh last, since zsh has no default history file and
//!   its users are the ones who set `HISTFILE`. The default files of both shells are
//!   still read, and a path is read once even when named twice.
//!
//! A source that does not exist is silent (its status says `found: false`). One that
//! cannot be read is a `source_unreadable` warning naming the file.
//!
//! # What limits a history
//!
//! - Entries without a time (zsh without `EXTENDED_HISTORY`, bash without
//!   `HISTTIMEFORMAT`) cannot be placed in a window: they are counted and reported
//!   once per file as `undated_entries`, never guessed.
//! - Entries that cannot be parsed are counted and reported once per file as
//!   `malformed_lines`, with the line the first one starts on.
//! - zsh and bash write their history when a shell exits, unless told otherwise, so a
//!   file not modified since `since` misses the commands of shells still open. This is
//!   a `history_stale` warning naming the option that fixes it, for the login shell
//!   (`$SHELL`), or for both when `$SHELL` is unknown; for the other shell, which may
//!   simply not be in use, it is only a limit in its status. fish and atuin record each
//!   command as it runs, so they are never stale.
//!
//! # atuin and the other histories
//!
//! atuin records the commands of the shell it is hooked into, which still writes its
//! own history. A zsh, bash or fish command with the same text as an atuin command
//! started within a second of it is dropped, and atuin's copy (which knows the working
//! directory, the exit status and who ran it) is kept; the shell's status says how many
//! were dropped. Where atuin records the shell a command ran in (its `shell` column), it
//! only stands for that shell's copy.
//!
//! # Speed
//!
//! Text histories are streamed over raw bytes, a line at a time into one reused buffer;
//! times are parsed without allocating, and a command is only unescaped and decoded when
//! its time is at or after `since`. Every file is read whole rather than from an offset
//! found by a backwards search: shells append a whole session's commands when it exits,
//! so a file is only roughly ordered by time, and a long-lived shell can write
//! today's commands behind a week of older ones, where a search with any fixed slack
//! could skip them. The full scan of a 300,000-line (20 MB) zsh history takes about
//! 15 ms in a release build when the window is the last day (`benches/history.rs`).

mod atuin;
mod bash;
mod fish;
mod scan;
mod zsh;

use std::collections::HashSet;
use std::io::{BufReader, Read as _};
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use report_model::{Shell, ShellEvent, Warning, WarningDetail, plural};

use self::scan::Scan;
use crate::{Env, Error, SourceOutput, SourceStatus, fsread};

/// Which shell histories to read, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellConfig {
    /// zsh's history file, instead of finding it.
    pub zsh: Option<PathBuf>,
    /// bash's history file, instead of finding it.
    pub bash: Option<PathBuf>,
    /// fish's history file, instead of finding it.
    pub fish: Option<PathBuf>,
    /// atuin's database, instead of finding it.
    pub atuin: Option<PathBuf>,
    /// The shells to read; the others are not looked at and get no status.
    pub shells: Vec<Shell>,
}

impl Default for ShellConfig {
    /// Every shell, each found in its usual place.
    fn default() -> Self {
        ShellConfig {
            zsh: None,
            bash: None,
            fish: None,
            atuin: None,
            shells: vec![Shell::Zsh, Shell::Bash, Shell::Fish, Shell::Atuin],
        }
    }
}

/// Reads the enabled shell histories, keeping the commands run at or after `since`
/// (the start of the earliest report window).
pub fn read_shell(env: &Env, config: &ShellConfig, since: Timestamp) -> SourceOutput<ShellEvent> {
    let login = login_shell(env);
    let histfile = histfile(env, login);
    let mut reads: Vec<ShellRead> = [Shell::Zsh, Shell::Bash, Shell::Fish]
        .into_iter()
        .filter(|shell| config.shells.contains(shell))
        .map(|shell| {
            read_text_shell(shell, &text_paths(env, config, shell, histfile.as_ref()), since, login)
        })
        .collect();
    if config.shells.contains(&Shell::Atuin) {
        let (atuin, origins) = read_atuin(env, config, since);
        drop_atuin_duplicates(&mut reads, &atuin.events, &origins);
        reads.push(atuin);
    }

    let mut output = SourceOutput::default();
    for read in reads {
        output.events.extend(read.events);
        output.warnings.extend(read.warnings);
        output.statuses.push(read.status);
    }
    output
}

/// What one shell gave.
struct ShellRead {
    shell: Shell,
    events: Vec<ShellEvent>,
    warnings: Vec<Warning>,
    status: SourceStatus,
}

impl ShellRead {
    fn new(shell: Shell, locations: Vec<PathBuf>) -> ShellRead {
        ShellRead {
            shell,
            events: Vec::new(),
            warnings: Vec::new(),
            status: SourceStatus { locations, ..SourceStatus::new(shell.into()) },
        }
    }

    /// A warning for the report that is also a limit in the status.
    fn warn(&mut self, detail: WarningDetail) {
        let warning = Warning::new(detail);
        self.status.notes.push(warning.clone());
        self.warnings.push(warning);
    }

    /// The warning for an error, named after the shell; also a limit in the status.
    fn fail(&mut self, error: &Error) {
        let warning = error.warning_in(self.shell);
        self.status.notes.push(warning.clone());
        self.warnings.push(warning);
    }
}

/// The shell named by `$SHELL`, if it is one of ours.
fn login_shell(env: &Env) -> Option<Shell> {
    match Path::new(env.var("SHELL")?).file_name()?.to_str()? {
        "zsh" => Some(Shell::Zsh),
        "bash" => Some(Shell::Bash),
        "fish" => Some(Shell::Fish),
        _ => None,
    }
}

fn default_zsh(env: &Env) -> PathBuf {
    env.home.join(".zsh_history")
}

fn default_bash(env: &Env) -> PathBuf {
    env.home.join(".bash_history")
}

/// `$HISTFILE` and the shell it is taken to belong to (see the module doc).
fn histfile(env: &Env, login: Option<Shell>) -> Option<(Shell, PathBuf)> {
    let path = env.expand_tilde(Path::new(env.var("HISTFILE")?));
    // A relative HISTFILE is relative to the directory the shell ran in, which is not
    // known here; the home directory is the likeliest.
    let path = if path.is_relative() { env.home.join(path) } else { path };
    let owner = if path == default_zsh(env) {
        Shell::Zsh
    } else if path == default_bash(env) {
        Shell::Bash
    } else {
        sniff(&path)
            .or_else(|| {
                let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
                if name.contains("zsh") {
                    Some(Shell::Zsh)
                } else if name.contains("bash") {
                    Some(Shell::Bash)
                } else {
                    None
                }
            })
            .or(login.filter(|login| matches!(login, Shell::Zsh | Shell::Bash)))
            .unwrap_or(Shell::Zsh)
    };
    Some((owner, path))
}

/// The shell whose timestamp format the first lines of a history file show, if any.
fn sniff(path: &Path) -> Option<Shell> {
    let mut head = Vec::new();
    fsread::open(path).ok()?.take(4096).read_to_end(&mut head).ok()?;
    head.split(|&byte| byte == b'\n').take(32).find_map(|line| {
        if zsh::is_extended(line) {
            Some(Shell::Zsh)
        } else if line.len() > 1 && line[0] == b'#' && line[1..].iter().all(u8::is_ascii_digit) {
            Some(Shell::Bash)
        } else {
            None
        }
    })
}

/// The files to read for a text-history shell, in order, without repeats.
fn text_paths(
    env: &Env,
    config: &ShellConfig,
    shell: Shell,
    histfile: Option<&(Shell, PathBuf)>,
) -> Vec<PathBuf> {
    let (configured, default) = match shell {
        Shell::Zsh => (&config.zsh, default_zsh(env)),
        Shell::Bash => (&config.bash, default_bash(env)),
        Shell::Fish | Shell::Atuin => (&config.fish, env.data_home().join("fish/fish_history")),
    };
    if let Some(path) = configured {
        return vec![env.expand_tilde(path)];
    }
    let mut paths = Vec::new();
    if let Some((_, path)) = histfile.filter(|(owner, _)| *owner == shell) {
        paths.push(path.clone());
    }
    if !paths.contains(&default) {
        paths.push(default);
    }
    paths
}

fn read_text_shell(
    shell: Shell,
    paths: &[PathBuf],
    since: Timestamp,
    login: Option<Shell>,
) -> ShellRead {
    type Parse = fn(BufReader<std::fs::File>, Timestamp) -> Scan;
    let parse: Parse = match shell {
        Shell::Zsh => zsh::parse,
        Shell::Bash => bash::parse,
        Shell::Fish | Shell::Atuin => fish::parse,
    };
    let mut read = ShellRead::new(shell, paths.to_vec());
    // The most recently written file, to tell whether the history is stale.
    let mut newest: Option<(Timestamp, &Path)> = None;
    for path in paths {
        // Only a regular file is opened: a FIFO or a device there is named in a warning.
        let file = match fsread::open(path) {
            Ok(file) => file,
            Err(error) if error.is_not_found() => continue,
            Err(error) => {
                read.status.found = true;
                read.fail(&error);
                continue;
            }
        };
        read.status.found = true;
        let metadata = file.metadata().ok();
        let modified = metadata.and_then(|metadata| metadata.modified().ok());
        if let Some(modified) = modified.and_then(|modified| Timestamp::try_from(modified).ok()) {
            if newest.is_none_or(|(newest, _)| modified > newest) {
                newest = Some((modified, path));
            }
        }
        let scan = parse(BufReader::with_capacity(64 * 1024, file), since);
        read.status.files += 1;
        read.status.entries += scan.entries;
        note_scan(&mut read, (shell, since), path, &scan);
        read.events.extend(scan.events);
    }
    let stale = newest
        .filter(|(modified, _)| *modified < since && matches!(shell, Shell::Zsh | Shell::Bash));
    if let Some((_, path)) = stale {
        let stale =
            Warning::new(WarningDetail::HistoryStale { shell, path: path.display().to_string() });
        // Only the login shell's stale history is a warning; another's is a note.
        if login.is_none_or(|login| login == shell) {
            read.warnings.push(stale.clone());
        }
        read.status.notes.push(stale);
    }
    read
}

/// Warnings for what a scan of one file met.
fn note_scan(read: &mut ShellRead, (shell, since): (Shell, Timestamp), path: &Path, scan: &Scan) {
    let shown = || path.display().to_string();
    if scan.undated > 0 {
        let before_times = scan.undated_before(since);
        let detail = WarningDetail::UndatedEntries {
            shell,
            path: shown(),
            count: scan.undated,
            before_times,
        };
        if before_times {
            // Entries from before the shell recorded times: every report would say so
            // again, and none of them can be the window's. `doctor` notes them.
            read.status.notes.push(Warning::new(detail));
        } else {
            read.warn(detail);
        }
    }
    if scan.malformed > 0 {
        read.warn(WarningDetail::MalformedEntries {
            shell,
            path: shown(),
            count: scan.malformed,
            line: scan.first_malformed_line,
        });
    }
    if scan.too_long > 0 {
        read.fail(&Error::LinesTooLong {
            path: path.to_path_buf(),
            count: scan.too_long,
            line: scan.first_too_long,
            limit: scan.line_limit as u64,
        });
    }
    if let Some(error) = &scan.error {
        read.warn(WarningDetail::StoppedEarly { shell, path: shown(), error: cause(error) });
    }
}

/// atuin's commands, with the shell each ran in where atuin recorded it.
fn read_atuin(
    env: &Env,
    config: &ShellConfig,
    since: Timestamp,
) -> (ShellRead, Vec<Option<Shell>>) {
    let (path, problem) = match &config.atuin {
        Some(path) => (env.expand_tilde(path), None),
        None => atuin::db_path(env),
    };
    let mut read = ShellRead::new(Shell::Atuin, vec![path.clone()]);
    let mut origins = Vec::new();
    if let Some(problem) = problem {
        read.warn(WarningDetail::AtuinConfig { error: problem.to_string() });
    }
    if config.atuin.is_none() {
        if let Some(legacy) = atuin::shadowed_legacy_data_dir(env, &path) {
            read.status.limits.push(format!(
                "atuin: `{}` is not read: atuin itself uses `{}` since that folder exists",
                legacy.display(),
                path.parent().unwrap_or(&path).display()
            ));
        }
    }
    match atuin::read(&path, since) {
        crate::sqlite::Outcome::Missing => {}
        crate::sqlite::Outcome::Unreadable(error) => {
            read.status.found = true;
            read.fail(&error);
        }
        crate::sqlite::Outcome::Read(scan) => {
            read.status.found = true;
            read.status.files = 1;
            read.status.entries = scan.entries;
            if scan.malformed > 0 {
                read.warn(WarningDetail::AtuinRows {
                    path: path.display().to_string(),
                    count: scan.malformed,
                });
            }
            read.events = scan.events;
            origins = scan.origins;
        }
    }
    (read, origins)
}

/// Drops the commands of the other histories that atuin recorded too (see the module
/// doc). A command atuin says ran in one of our shells only stands for that shell's
/// copy; one without a recorded shell stands for any.
fn drop_atuin_duplicates(reads: &mut [ShellRead], atuin: &[ShellEvent], origins: &[Option<Shell>]) {
    if atuin.is_empty() {
        return;
    }
    for read in reads {
        let shell = match read.status.source.as_str() {
            "zsh" => Some(Shell::Zsh),
            "bash" => Some(Shell::Bash),
            "fish" => Some(Shell::Fish),
            _ => None,
        };
        let recorded: HashSet<(&str, i64)> = atuin
            .iter()
            .enumerate()
            .filter(|(index, _)| {
                origins.get(*index).copied().flatten().is_none_or(|origin| Some(origin) == shell)
            })
            .map(|(_, event)| (event.command.trim(), event.time.as_second()))
            .collect();
        let before = read.events.len();
        read.events.retain(|event| {
            let (command, second) = (event.command.trim(), event.time.as_second());
            !(second - 1..=second + 1).any(|second| recorded.contains(&(command, second)))
        });
        let dropped = before - read.events.len();
        if dropped > 0 {
            let commands = plural(dropped as u64, "command", "commands");
            read.status.limits.push(format!(
                "{}: {commands} also recorded by atuin counted once, from atuin",
                read.status.source
            ));
        }
    }
}

use crate::error::cause;
