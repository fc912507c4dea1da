//! What the text-history parsers share: a line reader over raw bytes and the tally of
//! one file.

use std::io::{self, BufRead};

use jiff::Timestamp;
use report_model::{Shell, ShellEvent};

use crate::fsread;

/// Lines of a history file as raw bytes, without their `\n`, read into one reused buffer
/// so that a line costs no allocation. A line longer than
/// [`fsread::HISTORY_LINE_MAX`] is skipped and counted ([`Lines::finish`]).
pub(super) struct Lines<R> {
    inner: fsread::Lines<R>,
}

impl<R: BufRead> Lines<R> {
    pub(super) fn new(reader: R) -> Lines<R> {
        Lines::with_limit(reader, fsread::HISTORY_LINE_MAX)
    }

    pub(super) fn with_limit(reader: R, limit: usize) -> Lines<R> {
        Lines { inner: fsread::Lines::new(reader, limit) }
    }

    /// Hands every remaining line to `each` with its 1-based number
    /// ([`fsread::Lines::for_each`]); an error ends the lines early.
    pub(super) fn for_each(&mut self, each: impl FnMut(u64, &[u8])) -> io::Result<()> {
        self.inner.for_each(each)
    }

    /// Notes in the scan how many lines were too long to read.
    pub(super) fn finish(&self, scan: &mut Scan) {
        (scan.too_long, scan.first_too_long) = self.inner.skipped();
        scan.line_limit = self.inner.limit();
    }
}

/// The longest command kept from a history: the lines of a multi-line command beyond
/// it are dropped and the command is marked truncated.
pub(super) const ENTRY_MAX: usize = 4 * fsread::HISTORY_LINE_MAX;

/// Appends `bytes` to a command being assembled, unless that would pass [`ENTRY_MAX`],
/// in which case the command is marked truncated. Whether the bytes were appended.
pub(super) fn append(entry: &mut Vec<u8>, bytes: &[u8], truncated: &mut bool) -> bool {
    if entry.len() + bytes.len() > ENTRY_MAX {
        *truncated = true;
        false
    } else {
        entry.extend_from_slice(bytes);
        true
    }
}

/// What one history file held.
#[derive(Debug, Default)]
pub(super) struct Scan {
    /// Commands with a time at or after `since`.
    pub(super) events: Vec<ShellEvent>,
    /// For atuin, the shell each event ran in, when its `shell` column names one of
    /// ours (parallel to `events`; empty for the text histories).
    pub(super) origins: Vec<Option<Shell>>,
    /// Entries read, dated or not (malformed ones excluded).
    pub(super) entries: u64,
    /// Entries without a time.
    pub(super) undated: u64,
    /// The time of the file's first dated entry.
    pub(super) first_dated: Option<Timestamp>,
    /// Whether an entry without a time came after a dated one.
    pub(super) undated_late: bool,
    /// Entries that could not be parsed.
    pub(super) malformed: u64,
    /// The line the first malformed entry starts on.
    pub(super) first_malformed_line: Option<u64>,
    /// The read error that ended the scan early, if any.
    pub(super) error: Option<io::Error>,
    /// Lines longer than `line_limit`, skipped, and the number of the first one.
    pub(super) too_long: u64,
    pub(super) first_too_long: u64,
    pub(super) line_limit: usize,
}

impl Scan {
    /// Counts an entry without a time.
    pub(super) fn undated_entry(&mut self) {
        self.entries += 1;
        self.undated += 1;
        self.undated_late |= self.first_dated.is_some();
    }

    /// Notes the time of a dated entry (the first one tells where the file's times begin).
    pub(super) fn dated_entry(&mut self, time: Timestamp) {
        self.first_dated.get_or_insert(time);
    }

    /// Whether the entries without a time all come before the file's first dated entry,
    /// and that entry is older than `since`: they were written before the shell recorded
    /// times (it does now), so before that entry, and before the window. (Histories are
    /// appended to in order; a shell that writes its history only on exit could write an
    /// undated entry of the window before an older dated one only if some shells recorded
    /// times and others did not, while the setting was being changed.)
    pub(super) fn undated_before(&self, since: Timestamp) -> bool {
        !self.undated_late && self.first_dated.is_some_and(|first| first < since)
    }

    pub(super) fn malformed_at(&mut self, line_no: u64) {
        self.malformed += 1;
        self.first_malformed_line.get_or_insert(line_no);
    }

    /// Records a dated command already known to be inside the range. Empty commands
    /// count as entries but make no event.
    pub(super) fn push(&mut self, shell: Shell, time: Timestamp, command: String) {
        self.push_entry(shell, time, command, false);
    }

    /// [`Scan::push`] for a command that may have been cut at [`ENTRY_MAX`].
    pub(super) fn push_entry(
        &mut self,
        shell: Shell,
        time: Timestamp,
        command: String,
        truncated: bool,
    ) {
        if command.trim().is_empty() {
            return;
        }
        self.events.push(ShellEvent {
            shell,
            time,
            command,
            truncated,
            cwd: None,
            project: None,
            exit: None,
            duration_ns: None,
            agent: None,
        });
    }
}

/// Decodes bytes as UTF-8, replacing what is not (histories hold whatever bytes were
/// typed or pasted).
pub(super) fn decode(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes)
        .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned())
}

/// Parses an unsigned decimal number that fills `digits`, without allocating. `None`
/// when it is empty, holds anything but ASCII digits, or overflows.
pub(super) fn parse_epoch(digits: &[u8]) -> Option<i64> {
    if digits.is_empty() {
        return None;
    }
    let mut value: i64 = 0;
    for &byte in digits {
        if !byte.is_ascii_digit() {
            return None;
        }
        value = value.checked_mul(10)?.checked_add(i64::from(byte - b'0'))?;
    }
    Some(value)
}

/// The length of the run of ASCII digits at the start of `bytes`.
pub(super) fn digits_len(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|byte| byte.is_ascii_digit()).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_epochs_and_rejects_the_rest() {
        assert_eq!(parse_epoch(b"1795737600"), Some(1_795_737_600));
        assert_eq!(parse_epoch(b"0"), Some(0));
        assert_eq!(parse_epoch(b""), None);
        assert_eq!(parse_epoch(b"12a"), None);
        assert_eq!(parse_epoch(b"-1"), None);
        assert_eq!(parse_epoch(b"99999999999999999999"), None);
    }

    #[test]
    fn lines_strip_only_the_newline_and_count() {
        let mut lines = Lines::new(&b"a\r\n\nlast"[..]);
        let mut seen = Vec::new();
        lines.for_each(|number, line| seen.push((number, line.to_vec()))).unwrap();
        assert_eq!(seen, [(1, b"a\r".to_vec()), (2, Vec::new()), (3, b"last".to_vec())]);
    }
}
