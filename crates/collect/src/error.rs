//! What can go wrong while reading a source, and the one place it becomes a warning.
//!
//! Readers never fail a run: each [`Error`] names the file (or repository) and what was
//! wrong with it, and [`Error::warning`] (or `Warning::from`) turns it into the
//! report's warning with its code. Nothing else in `collect` picks a warning code for a
//! read failure.

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use report_model::{FileKind, Shell, Warning, WarningCode, WarningDetail};

/// A source that could not be read, or could only be read in part.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Opening, listing or reading failed.
    #[error("cannot read `{}`: {}", .path.display(), cause(.source))]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
    /// Something other than a regular file (a FIFO, a device, a socket, a folder) sits
    /// where a file is expected; it is never read, so it cannot block or flood the run.
    #[error("cannot read `{}`: it is {}, not a regular file", .path.display(), kind_text(*.kind))]
    NotRegular {
        /// The path.
        path: PathBuf,
        /// What is there.
        kind: FileKind,
    },
    /// A small metadata file (`.git`, `commondir`, `.project_root`, `projects.json`,
    /// `settings.json`, atuin's `config.toml`) larger than it can legitimately be.
    #[error("cannot read `{}`: it is larger than {} and was skipped", .path.display(), bytes(*.limit))]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The cap, in bytes.
        limit: u64,
    },
    /// Lines longer than the cap for the file's kind: each was skipped, the rest read.
    #[error(
        "`{}`: {} longer than {} skipped (first at line {line})",
        .path.display(),
        plural(*.count, "line", "lines"),
        bytes(*.limit)
    )]
    LinesTooLong {
        /// The file.
        path: PathBuf,
        /// How many lines were skipped.
        count: u64,
        /// The 1-based number of the first one.
        line: u64,
        /// The cap, in bytes.
        limit: u64,
    },
    /// A database (atuin's) that SQLite could not read, or not in the expected shape.
    #[error("cannot read `{}`: {reason}", .path.display())]
    Database {
        /// The database file.
        path: PathBuf,
        /// What SQLite said, or what is missing.
        reason: String,
    },
    /// A configuration file of another program (atuin's `config.toml`) that is not in
    /// its format: what is wrong, and where.
    #[error("`{}` is not valid TOML ({reason})", .path.display())]
    Config {
        /// The file.
        path: PathBuf,
        /// What is wrong, with its line.
        reason: String,
    },
    /// A repository's `.git` file does not name a git dir.
    #[error("`{}` does not name a git dir (`gitdir: <path>`)", .path.display())]
    NotGitFile {
        /// The `.git` file.
        path: PathBuf,
    },
    /// git could not be run, failed, or ran past its deadline, for a repository.
    #[error("git: cannot read `{}`: {what}", .repo.display())]
    Git {
        /// The repository's work tree (or git dir).
        repo: PathBuf,
        /// What went wrong.
        what: GitFailure,
    },
    /// git failed while telling a repository's work in progress (its commits were read,
    /// or had nothing to read).
    #[error("git: cannot check `{}` for work in progress: {what}", .repo.display())]
    GitWip {
        /// The repository's work tree.
        repo: PathBuf,
        /// What went wrong.
        what: GitFailure,
    },
}

/// How a git process failed.
#[derive(Debug, thiserror::Error)]
pub enum GitFailure {
    /// The `git` program is not on `PATH`.
    #[error("the git program was not found on PATH")]
    NotFound,
    /// git could not be started or waited for.
    #[error("cannot run git: {0}")]
    Spawn(#[source] io::Error),
    /// git ran past its deadline and was killed.
    #[error(
        "git did not finish within {} and was stopped (`[git] timeout_secs`); a FIFO or a slow disk in the repository can cause this",
        seconds(*.0)
    )]
    Timeout(Duration),
    /// git exited with an error: the first line it wrote on stderr.
    #[error("{0}")]
    Failed(String),
    /// git wrote more than the output cap.
    #[error("git wrote more than {} of output", bytes(*.0))]
    OutputTooLarge(u64),
}

impl Error {
    /// An I/O error at `path`.
    pub fn io(path: impl Into<PathBuf>, source: io::Error) -> Error {
        Error::Io { path: path.into(), source }
    }

    /// Whether the error only says that nothing is there (a missing source is silent).
    pub fn is_not_found(&self) -> bool {
        matches!(self, Error::Io { source, .. } if source.kind() == io::ErrorKind::NotFound)
    }

    /// The warning code of the error.
    pub fn code(&self) -> WarningCode {
        match self {
            Error::Io { .. }
            | Error::NotRegular { .. }
            | Error::TooLarge { .. }
            | Error::Database { .. }
            | Error::Config { .. }
            | Error::NotGitFile { .. } => WarningCode::SourceUnreadable,
            Error::LinesTooLong { .. } => WarningCode::MalformedLines,
            Error::Git { .. } | Error::GitWip { .. } => WarningCode::GitFailed,
        }
    }

    /// The report's warning for this error.
    pub fn warning(&self) -> Warning {
        Warning::new(self.detail(None))
    }

    /// The report's warning for this error in a shell's history (worded `zsh: …`).
    pub fn warning_in(&self, shell: Shell) -> Warning {
        Warning::new(self.detail(Some(shell)))
    }

    /// The error as a warning's detail: its parts as data, worded by `render`.
    fn detail(&self, shell: Option<Shell>) -> WarningDetail {
        let shown = |path: &std::path::Path| path.display().to_string();
        match self {
            Error::Io { path, source } => {
                WarningDetail::Unreadable { shell, path: shown(path), error: cause(source) }
            }
            Error::NotRegular { path, kind } => {
                WarningDetail::NotRegular { shell, path: shown(path), file: *kind }
            }
            Error::TooLarge { path, limit } => {
                WarningDetail::TooLarge { shell, path: shown(path), limit: *limit }
            }
            Error::LinesTooLong { path, count, line, limit } => WarningDetail::LinesTooLong {
                shell,
                path: shown(path),
                count: *count,
                line: *line,
                limit: *limit,
            },
            Error::Database { path, reason } | Error::Config { path, reason } => {
                WarningDetail::Unreadable { shell, path: shown(path), error: reason.clone() }
            }
            Error::NotGitFile { path } => WarningDetail::NotGitFile { shell, path: shown(path) },
            Error::Git { repo, what } => {
                WarningDetail::Git { path: shown(repo), error: what.to_string() }
            }
            Error::GitWip { repo, what } => {
                WarningDetail::GitWip { path: shown(repo), error: what.to_string() }
            }
        }
    }
}

impl From<Error> for Warning {
    fn from(error: Error) -> Warning {
        error.warning()
    }
}

/// The kind of a file type that is not a regular file.
pub(crate) fn file_kind(file_type: std::fs::FileType) -> FileKind {
    use std::os::unix::fs::FileTypeExt as _;
    if file_type.is_fifo() {
        FileKind::Fifo
    } else if file_type.is_char_device() {
        FileKind::CharDevice
    } else if file_type.is_block_device() {
        FileKind::BlockDevice
    } else if file_type.is_socket() {
        FileKind::Socket
    } else if file_type.is_dir() {
        FileKind::Directory
    } else {
        FileKind::Other
    }
}

/// What a file kind is called in an error's text.
fn kind_text(kind: FileKind) -> &'static str {
    match kind {
        FileKind::Fifo => "a FIFO (named pipe)",
        FileKind::CharDevice => "a character device",
        FileKind::BlockDevice => "a block device",
        FileKind::Socket => "a socket",
        FileKind::Directory => "a directory",
        FileKind::Other => "a special file",
    }
}

/// The message of an I/O error without the path `fs_err` adds (our messages name the
/// file themselves).
pub(crate) fn cause(error: &io::Error) -> String {
    error
        .get_ref()
        .and_then(|inner| inner.source())
        .map_or_else(|| error.to_string(), ToString::to_string)
}

/// `1 MiB`, `64 KiB`, `300 bytes`.
fn bytes(count: u64) -> String {
    if count >= 1 << 20 && count % (1 << 20) == 0 {
        format!("{} MiB", count >> 20)
    } else if count >= 1 << 10 && count % (1 << 10) == 0 {
        format!("{} KiB", count >> 10)
    } else {
        plural(count, "byte", "bytes")
    }
}

/// `1 s`, `1.5 s`.
fn seconds(duration: Duration) -> String {
    format!("{} s", duration.as_secs_f64())
}

fn plural(count: u64, one: &str, many: &str) -> String {
    if count == 1 { format!("1 {one}") } else { format!("{count} {many}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_path_and_the_problem() {
        let error = Error::NotRegular { path: "/h/.zsh_history".into(), kind: FileKind::Fifo };
        assert_eq!(
            error.warning_in(Shell::Zsh),
            Warning::new(WarningDetail::NotRegular {
                shell: Some(Shell::Zsh),
                path: "/h/.zsh_history".to_owned(),
                file: FileKind::Fifo,
            })
        );
        assert_eq!(
            error.to_string(),
            "cannot read `/h/.zsh_history`: it is a FIFO (named pipe), not a regular file"
        );
        let error = Error::LinesTooLong { path: "/l".into(), count: 2, line: 7, limit: 1 << 20 };
        assert_eq!(error.to_string(), "`/l`: 2 lines longer than 1 MiB skipped (first at line 7)");
        let error = Error::TooLarge { path: "/g".into(), limit: 64 << 10 };
        assert_eq!(error.to_string(), "cannot read `/g`: it is larger than 64 KiB and was skipped");
        let error =
            Error::Git { repo: "/r".into(), what: GitFailure::Timeout(Duration::from_secs(1)) };
        assert_eq!(error.code(), WarningCode::GitFailed);
        assert!(
            error.to_string().starts_with("git: cannot read `/r`: git did not finish within 1 s")
        );
    }
}
