//! Reading another program's SQLite database without changing it: atuin's history,
//! opencode's sessions, Cursor's chats, Codex's thread titles.
//!
//! The database is opened read-only, with `query_only` on as well, so nothing is ever
//! written to it, and a read-only connection never checkpoints. Such programs keep their
//! databases in WAL mode, and a read-only reader of a WAL database creates the `-shm`
//! and `-wal` files beside it when they are missing. So when there is no `-wal` file
//! (the program is not running and everything is in the main file), the database is
//! opened as `immutable`, which reads the main file alone, creates nothing and takes no
//! lock. When there is one, the latest rows may be only in it, and the database is
//! opened read-only with `readonly_shm=1`: the `-shm` index beside it is read but never
//! written (a plain read-only reader writes its read marks there, changing the other
//! program's file); if that index cannot be used (a read-only directory, an index that
//! needs recovery), the main file is read alone.
//!
//! Anything but a regular file (a FIFO, a device, a folder) is refused before SQLite
//! sees it, for the database and for its `-wal` and `-shm` files: SQLite would block on
//! a FIFO.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OpenFlags};

use crate::{Error, fsread};

/// What reading a database gave.
pub(crate) enum Outcome<T> {
    /// No file there.
    Missing,
    /// The file is there but could not be read, or its tables are not as expected.
    Unreadable(Error),
    /// What the query returned.
    Read(T),
}

/// Why a query failed.
pub(crate) enum Failure {
    /// SQLite's own error.
    Sqlite(rusqlite::Error),
    /// The tables are not what the reader expects: the reason, for the warning.
    Schema(String),
}

impl From<rusqlite::Error> for Failure {
    fn from(error: rusqlite::Error) -> Failure {
        Failure::Sqlite(error)
    }
}

/// Opens the database at `path` read-only (see the module doc) and runs `query` on it,
/// with a short busy time-out and `query_only` set.
pub(crate) fn read<T>(
    path: &Path,
    query: impl Fn(&Connection) -> Result<T, Failure>,
) -> Outcome<T> {
    match fsread::regular_metadata(path) {
        Err(error) if error.is_not_found() => return Outcome::Missing,
        Err(error) => return Outcome::Unreadable(error),
        Ok(_) => {}
    }
    let run = |conn: Connection| -> Result<T, Failure> {
        conn.busy_timeout(Duration::from_millis(500))?;
        conn.pragma_update(None, "query_only", true)?;
        query(&conn)
    };
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let immutable = || {
        Connection::open_with_flags(immutable_uri(path), flags | OpenFlags::SQLITE_OPEN_URI)
            .map_err(Failure::Sqlite)
            .and_then(run)
    };
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    let mut shm = path.as_os_str().to_owned();
    shm.push("-shm");
    // SQLite opens these beside the database itself: a FIFO there would block it.
    for side in [Path::new(&wal), Path::new(&shm)] {
        match fsread::regular_metadata(side) {
            Err(error) if !error.is_not_found() => return Outcome::Unreadable(error),
            _ => {}
        }
    }
    let result = if Path::new(&wal).exists() {
        // The program is running (or stopped uncleanly): its latest rows may still be in
        // the write-ahead log, which only a normal reader sees, through the `-shm` index
        // that exists beside it.
        let uri = format!("{}?mode=ro&readonly_shm=1", file_uri(path));
        match Connection::open_with_flags(uri, flags | OpenFlags::SQLITE_OPEN_URI)
            .map_err(Failure::Sqlite)
            .and_then(run)
        {
            // The index cannot be opened (a read-only directory): the main file alone.
            Err(Failure::Sqlite(error))
                if matches!(
                    error.sqlite_error_code(),
                    Some(ErrorCode::CannotOpen | ErrorCode::ReadOnly)
                ) =>
            {
                immutable().map_err(|_| Failure::Sqlite(error))
            }
            other => other,
        }
    } else {
        // Everything is in the main file. Reading it as immutable creates no `-shm` or
        // `-wal` file beside it (a read-only reader of a WAL database would) and takes
        // no lock.
        immutable()
    };
    match result {
        Ok(value) => Outcome::Read(value),
        Err(Failure::Sqlite(error)) => Outcome::Unreadable(Error::Database {
            path: path.to_path_buf(),
            reason: error.to_string(),
        }),
        Err(Failure::Schema(reason)) => {
            Outcome::Unreadable(Error::Database { path: path.to_path_buf(), reason })
        }
    }
}

/// Fails with a schema failure naming `names` (``it has no `a` and `b` tables``) unless
/// the database has every one of those tables: a file of the agent's name that is not its
/// database is told apart from one whose query fails.
pub(crate) fn require_tables(conn: &Connection, names: &[&str]) -> Result<(), Failure> {
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")?
        .query_map([], |row| row.get::<_, String>(0))?
        .collect::<Result<_, _>>()?;
    if names.iter().all(|name| tables.iter().any(|table| table == name)) {
        return Ok(());
    }
    let quoted: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    let listed = match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    Err(Failure::Schema(format!("it has no {listed} tables")))
}

/// A `file:` URI for `path` with `immutable=1`.
fn immutable_uri(path: &Path) -> String {
    format!("{}?immutable=1", file_uri(path))
}

/// A `file:` URI for `path`, every byte outside the unreserved set and `/`
/// percent-encoded.
fn file_uri(path: &Path) -> String {
    #[cfg(unix)]
    let bytes = std::os::unix::ffi::OsStrExt::as_bytes(path.as_os_str()).to_vec();
    #[cfg(not(unix))]
    let bytes = path.to_string_lossy().into_owned().into_bytes();
    let mut uri = String::from("file:");
    for byte in bytes {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
            uri.push(char::from(byte));
        } else {
            let _ = write!(uri, "%{byte:02X}");
        }
    }
    uri
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn immutable_uri_escapes_reserved_bytes() {
        assert_eq!(immutable_uri(Path::new("/a b/h?#.db")), "file:/a%20b/h%3F%23.db?immutable=1");
    }
}
