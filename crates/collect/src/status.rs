//! What `standup doctor` says about one source.

use std::path::PathBuf;

use report_model::Source;

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
}

impl SourceStatus {
    /// A source not found, with nothing counted yet.
    pub fn new(source: Source) -> SourceStatus {
        SourceStatus {
            source,
            found: false,
            locations: Vec::new(),
            files: 0,
            entries: 0,
            limits: Vec::new(),
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
