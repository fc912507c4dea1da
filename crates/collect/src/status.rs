//! What `standup doctor` says about one source.

use std::path::PathBuf;

use report_model::{Source, Warning};

/// The state of one source, for `standup doctor`: found or not, where, how much, and
/// what limits what it can tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceStatus {
    /// Which source (its short name is `git`, `claude`, `codex`, …).
    pub source: Source,
    /// Whether anything of the source exists.
    pub found: bool,
    /// Where it was looked for or found.
    pub locations: Vec<PathBuf>,
    /// Files (or repositories, or databases) found.
    pub files: u64,
    /// Entries (sessions, commands) found.
    pub entries: u64,
    /// Human sentences on what limits the source (undated entries, a history not
    /// flushed, transcripts that expired).
    pub limits: Vec<String>,
    /// The report's warnings that also limit the source (a history not flushed,
    /// undated entries): `doctor` shows them as notes, worded by `render`, after the
    /// `limits`, and does not repeat them as warnings.
    pub notes: Vec<Warning>,
    /// The versions of the writing program named in the files read (an agent's
    /// `version` fields), sorted, each once; empty when the files name none.
    pub versions: Vec<String>,
    /// Record types or fields the reader met and does not know (a newer format), each
    /// once, sorted: `doctor` names them.
    pub unknown: Vec<String>,
}

impl SourceStatus {
    /// Notes a version named in a file (kept once, sorted).
    pub fn note_version(&mut self, version: &str) {
        note_sorted(&mut self.versions, version);
    }

    /// Notes a record type or field the reader does not know (kept once, sorted).
    pub fn note_unknown(&mut self, what: &str) {
        note_sorted(&mut self.unknown, what);
    }

    /// A source not found, with nothing counted yet.
    pub fn new(source: Source) -> SourceStatus {
        SourceStatus {
            source,
            found: false,
            locations: Vec::new(),
            files: 0,
            entries: 0,
            limits: Vec::new(),
            notes: Vec::new(),
            versions: Vec::new(),
            unknown: Vec::new(),
        }
    }
}

/// What one kind of source produced: events, warnings for the report, and the status of
/// each source for `standup doctor`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceOutput<T> {
    /// Events, in no particular order (aggregation orders them).
    pub events: Vec<T>,
    /// Warnings for the report: unreadable files, malformed lines, undated entries.
    pub warnings: Vec<report_model::Warning>,
    /// One status per source looked at.
    pub statuses: Vec<SourceStatus>,
}

impl<T> Default for SourceOutput<T> {
    fn default() -> Self {
        SourceOutput { events: Vec::new(), warnings: Vec::new(), statuses: Vec::new() }
    }
}

/// Inserts `item` into the sorted `list` unless it is there already; a short plain
/// name only (at most 64 characters, no control characters), so a hostile file cannot
/// fill `doctor` with text.
fn note_sorted(list: &mut Vec<String>, item: &str) {
    if item.is_empty() || item.len() > 64 || item.chars().any(char::is_control) {
        return;
    }
    if let Err(at) = list.binary_search_by(|known| known.as_str().cmp(item)) {
        list.insert(at, item.to_owned());
    }
}
