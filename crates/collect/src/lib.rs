//! Reads the sources of `standup` into events: git repositories, AI coding-agent
//! session logs and shell histories, each with its own warnings.
//!
//! Owns finding the sources, streaming them and turning their records into
//! `report_model` events, plus a per-source status for `standup doctor`. Never
//! aggregates, redacts or renders, and never writes to a repository, a history file
//! or a log: every source is opened read-only.

mod env;
mod error;
mod fsread;
pub mod gather;
pub mod git;
mod listing;
pub mod pool;
pub mod sessions;
pub mod shell;
mod sqlite;
mod status;
/// The FIFO guard the unit and integration tests share (see the file).
#[cfg(test)]
#[path = "../tests/it/fifo.rs"]
mod test_fifo;

pub use env::Env;
pub use error::{Error, GitFailure};
pub use report_model::FileKind;
pub use status::{SourceOutput, SourceStatus};

/// Whether a name from a log (a model id, an agent's name) is a short plain name:
/// 1 to 100 ASCII letters, digits and `.` `_` `-` `:` `/` `@` `+`. Such a name needs no
/// sanitizing or redaction; the readers keep no other.
pub(crate) fn plain_name(name: &str) -> bool {
    (1..=100).contains(&name.len())
        && name.bytes().all(|byte| {
            byte.is_ascii_alphanumeric()
                || matches!(byte, b'.' | b'_' | b'-' | b':' | b'/' | b'@' | b'+')
        })
}
