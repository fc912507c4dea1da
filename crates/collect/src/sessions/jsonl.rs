//! Streaming a JSON Lines file, counting what cannot be parsed.

use std::io::{BufRead, BufReader};
use std::path::Path;

use report_model::{Warning, WarningDetail};

use jiff::Timestamp;

use super::Ctx;
use super::lenient::NotATime;
use crate::Error;
use crate::fsread::{self, Lines};

/// Counts across the files of one agent, for its status.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stats {
    /// Malformed lines skipped.
    pub(crate) malformed_lines: u64,
    /// Files with at least one malformed line.
    pub(crate) malformed_files: u64,
}

/// Streams the lines of `path` through `parse_line`, which deserializes one line (as
/// bytes, so that invalid UTF-8 is a parse error like any other) and uses it.
///
/// Blank lines are skipped. A line `parse_line` rejects is counted, and a file with such
/// lines gives one `malformed_lines` warning; the last line is exempt when it has no
/// newline (a record still being written). A line longer than [`fsread::LOG_LINE_MAX`]
/// is skipped, and the file gives one warning counting such lines. A file that cannot be
/// opened or read, or is not a regular file, gives a `source_unreadable` warning; the
/// records read before a read error are kept.
pub(crate) fn read_lines(
    ctx: &mut Ctx,
    stats: &mut Stats,
    path: &Path,
    parse_line: impl FnMut(&[u8]) -> Result<(), LineError>,
) {
    let Some(file) = open_warned(ctx, path) else { return };
    read_lines_from(ctx, stats, path, BufReader::with_capacity(64 * 1024, file), parse_line);
}

/// [`read_lines`] over lines that come from `reader` (a decompressed stream of `path`,
/// say) rather than from the file itself.
pub(crate) fn read_lines_from(
    ctx: &mut Ctx,
    stats: &mut Stats,
    path: &Path,
    reader: impl BufRead,
    mut parse_line: impl FnMut(&[u8]) -> Result<(), LineError>,
) {
    let mut malformed = Malformed::default();
    let mut times = BadTimes::default();
    visit_lines(ctx, path, reader, |bytes, number, complete| match parse_line(bytes) {
        Ok(()) => {}
        Err(LineError::Malformed) => {
            if complete {
                malformed.count(number);
            }
        }
        Err(LineError::NotATime(NotATime(key))) => times.count(Some(number), key),
    });
    report_skipped(ctx, stats, path, malformed, times);
}

/// Reports the lines of `path` that were skipped, as not records (`malformed`) or for a
/// time that is no time (`times`): one warning for each kind, and the file counted once.
pub(crate) fn report_skipped(
    ctx: &mut Ctx,
    stats: &mut Stats,
    path: &Path,
    malformed: Malformed,
    times: BadTimes,
) {
    let both = malformed.count > 0 && times.count > 0;
    malformed.report(ctx, stats, path);
    times.report(ctx, stats, path);
    if both {
        stats.malformed_files -= 1;
    }
}

/// Why a line was not used: it is not a record of the agent's (not JSON, or not of the
/// shape read), or its time is there but is not a time.
#[derive(Debug)]
pub(crate) enum LineError {
    /// Not JSON, or not of the shape read.
    Malformed,
    /// A time field that is no time.
    NotATime(NotATime),
}

impl From<serde_json::Error> for LineError {
    fn from(_: serde_json::Error) -> LineError {
        LineError::Malformed
    }
}

impl From<NotATime> for LineError {
    fn from(error: NotATime) -> LineError {
        LineError::NotATime(error)
    }
}

/// The records of one file skipped because a time field held no time: how many, the
/// first one's line (in a JSON Lines file) and field.
#[derive(Debug, Default)]
pub(crate) struct BadTimes {
    count: u64,
    first: Option<(Option<u64>, &'static str)>,
}

impl BadTimes {
    /// Counts a record (at `line`, when the file has lines) whose field `key` is no time.
    pub(crate) fn count(&mut self, line: Option<u64>, key: &'static str) {
        self.count += 1;
        self.first.get_or_insert((line, key));
    }

    /// Counts the record when `time` is [`NotATime`], and gives its time otherwise.
    pub(crate) fn check(
        &mut self,
        line: Option<u64>,
        time: Result<Option<Timestamp>, NotATime>,
    ) -> Option<Timestamp> {
        time.unwrap_or_else(|NotATime(key)| {
            self.count(line, key);
            None
        })
    }

    /// Adds the records to `stats` as malformed lines and gives the file's one
    /// `unreadable_times` warning, if any record was skipped.
    pub(crate) fn report(self, ctx: &mut Ctx, stats: &mut Stats, path: &Path) {
        if let Some((line, key)) = self.first {
            stats.malformed_lines += self.count;
            stats.malformed_files += 1;
            ctx.warnings.push(Warning::new(WarningDetail::UnreadableTimes {
                path: path.display().to_string(),
                key: key.to_owned(),
                count: self.count,
                line,
            }));
        }
    }
}

/// Streams the non-blank lines of `path` (trimmed) through `visit`, with their line
/// numbers and whether each ended with a newline; what [`read_lines`] does but the
/// parsing and counting, for a reader that parses some lines later (after
/// [`Malformed::count`] their failures, and [`Malformed::report`] them).
pub(crate) fn for_each_line(ctx: &mut Ctx, path: &Path, visit: impl FnMut(&[u8], u64, bool)) {
    let Some(file) = open_warned(ctx, path) else { return };
    visit_lines(ctx, path, BufReader::with_capacity(64 * 1024, file), visit);
}

/// The file at `path`, opened; `None` (with its warning, a missing file silent) when it
/// cannot be opened.
pub(crate) fn open_warned(ctx: &mut Ctx, path: &Path) -> Option<std::fs::File> {
    match fsread::open(path) {
        Ok(file) => Some(file),
        Err(error) => {
            ctx.fail(error);
            None
        }
    }
}

/// The bounded line loop of [`read_lines_from`] and [`for_each_line`].
fn visit_lines(
    ctx: &mut Ctx,
    path: &Path,
    reader: impl BufRead,
    mut visit: impl FnMut(&[u8], u64, bool),
) {
    let mut lines = Lines::new(reader, fsread::LOG_LINE_MAX);
    loop {
        let line = match lines.next_line() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(error) => {
                ctx.fail(Error::io(path, error));
                break;
            }
        };
        let bytes = line.bytes.trim_ascii();
        if !bytes.is_empty() {
            visit(bytes, line.number, line.complete);
        }
    }
    if let Some(error) = lines.too_long(path) {
        ctx.fail(error);
    }
}

/// The malformed lines of one file: how many, and the first.
#[derive(Debug, Default)]
pub(crate) struct Malformed {
    count: u64,
    first: u64,
}

impl Malformed {
    /// Counts line `number` as malformed.
    pub(crate) fn count(&mut self, number: u64) {
        self.count += 1;
        if self.first == 0 {
            self.first = number;
        }
    }

    /// Adds the count to `stats` and gives the file's one warning, if any line was bad.
    pub(crate) fn report(self, ctx: &mut Ctx, stats: &mut Stats, path: &Path) {
        if self.count > 0 {
            stats.malformed_lines += self.count;
            stats.malformed_files += 1;
            ctx.warnings.push(malformed_warning(path, self.count, self.first));
        }
    }
}

/// Reads the one JSON document at `path` (a legacy chat, a thread, a session file),
/// streamed but bounded by `limit` bytes ([`fsread::DOCUMENT_MAX`] unless the agent
/// itself keeps its documents smaller). `None`, with its warning, when the file cannot
/// be opened or read (`source_unreadable`), is larger than the bound, or is not valid
/// JSON of that shape (`malformed_lines`, counted in `stats` as one line of one file).
pub(crate) fn read_document<T: serde::de::DeserializeOwned>(
    ctx: &mut Ctx,
    stats: &mut Stats,
    path: &Path,
    limit: u64,
) -> Option<T> {
    use std::io::Read as _;
    let file = open_warned(ctx, path)?;
    let mut reader = BufReader::with_capacity(64 * 1024, file).take(limit + 1);
    let parsed = serde_json::from_reader::<_, T>(&mut reader);
    if reader.limit() == 0 {
        ctx.fail(Error::TooLarge { path: path.to_path_buf(), limit });
        return None;
    }
    match parsed {
        Ok(document) => Some(document),
        Err(error) if error.is_io() => {
            ctx.unreadable(path, std::io::Error::from(error));
            None
        }
        Err(_) => {
            stats.malformed_lines += 1;
            stats.malformed_files += 1;
            ctx.warnings.push(malformed_warning(path, 1, 0));
            None
        }
    }
}

/// The warning for a file with malformed lines (or a malformed whole-file document when
/// `line` is 0).
pub(crate) fn malformed_warning(path: &Path, count: u64, line: u64) -> Warning {
    let path = path.display().to_string();
    Warning::new(if line == 0 {
        WarningDetail::MalformedFile { path }
    } else {
        WarningDetail::MalformedLines { path, count, line }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(content: &[u8]) -> (Vec<String>, Vec<Warning>, Stats) {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("log.jsonl");
        fs_err::write(&path, content).expect("write log");
        let mut ctx = Ctx { since: jiff::Timestamp::UNIX_EPOCH, warnings: Vec::new() };
        let mut stats = Stats::default();
        let mut seen = Vec::new();
        read_lines(&mut ctx, &mut stats, &path, |line| {
            let value: serde_json::Value = serde_json::from_slice(line)?;
            seen.push(value["n"].to_string());
            Ok(())
        });
        let log = path.display().to_string();
        let warnings = ctx
            .warnings
            .into_iter()
            .map(|mut warning| {
                if let WarningDetail::MalformedLines { path, .. }
                | WarningDetail::MalformedFile { path } = &mut warning.detail
                {
                    *path = path.replace(&log, "LOG");
                }
                warning
            })
            .collect();
        (seen, warnings, stats)
    }

    /// A record whose time field holds no time is skipped, counted apart from malformed
    /// lines, and named with its field and first line; the file counts once.
    #[test]
    fn records_whose_time_is_no_time_are_warned_with_their_field() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("log.jsonl");
        fs_err::write(
            &path,
            "{\"t\":\"x\"}\n{\"t\":\"2026-01-01T00:00:00Z\"}\nnot json\n{\"t\":\"y\"}\n",
        )
        .expect("write log");
        let mut ctx = Ctx { since: jiff::Timestamp::UNIX_EPOCH, warnings: Vec::new() };
        let mut stats = Stats::default();
        let mut kept = Vec::new();
        read_lines(&mut ctx, &mut stats, &path, |line| {
            let value: serde_json::Value = serde_json::from_slice(line)?;
            let text = value["t"].as_str().unwrap_or_default();
            kept.push(text.parse::<Timestamp>().map_err(|_| NotATime("t"))?);
            Ok(())
        });
        assert_eq!(kept.len(), 1);
        assert_eq!(stats, Stats { malformed_lines: 3, malformed_files: 1 });
        // Times alone: the file still counts.
        let mut alone = Stats::default();
        let mut quiet = Ctx { since: jiff::Timestamp::UNIX_EPOCH, warnings: Vec::new() };
        report_skipped(&mut quiet, &mut alone, &path, Malformed::default(), {
            let mut times = BadTimes::default();
            times.count(None, "t");
            times
        });
        assert_eq!(alone, Stats { malformed_lines: 1, malformed_files: 1 });
        let shown = path.display().to_string();
        assert_eq!(
            ctx.warnings,
            [
                malformed_warning(&path, 1, 3),
                Warning::new(WarningDetail::UnreadableTimes {
                    path: shown,
                    key: "t".to_owned(),
                    count: 2,
                    line: Some(1),
                }),
            ]
        );
    }

    #[test]
    fn counts_bad_lines_once_per_file() {
        let (seen, warnings, stats) = read(b"{\"n\":1}\nnot json\n\n{\"n\":\xff}\r\n{\"n\":2}\n");
        assert_eq!(seen, ["1", "2"]);
        assert_eq!(stats.malformed_lines, 2);
        assert_eq!(
            warnings,
            [Warning::new(WarningDetail::MalformedLines {
                path: "LOG".to_owned(),
                count: 2,
                line: 2
            })]
        );
    }

    #[test]
    fn a_cut_last_line_is_not_an_error_but_a_complete_one_is_read() {
        let (seen, warnings, _) = read(b"{\"n\":1}\n{\"n\":2");
        assert_eq!(seen, ["1"]);
        assert!(warnings.is_empty());
        let (seen, _, _) = read(b"{\"n\":1}\n{\"n\":3}");
        assert_eq!(seen, ["1", "3"]);
    }

    /// A document of exactly `limit` bytes is read; one byte more is too large, named
    /// with its path and the bound, and not read.
    #[test]
    fn a_document_is_read_up_to_its_limit() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("doc.json");
        let read = |text: &str| {
            fs_err::write(&path, text).expect("write document");
            let mut ctx = Ctx { since: jiff::Timestamp::UNIX_EPOCH, warnings: Vec::new() };
            let mut stats = Stats::default();
            let value: Option<Vec<u32>> = read_document(&mut ctx, &mut stats, &path, 16);
            (value, ctx.warnings, stats)
        };
        let at_limit = "[1,2,3,4,5,6,7]\n";
        assert_eq!(at_limit.len(), 16);
        assert_eq!(read(at_limit), (Some(vec![1, 2, 3, 4, 5, 6, 7]), Vec::new(), Stats::default()));
        let (value, warnings, stats) = read("[1,2,3,4,5,6,7] \n");
        assert_eq!((value, stats), (None, Stats::default()));
        let text: Vec<String> = warnings.iter().map(|warning| format!("{warning:?}")).collect();
        assert_eq!(warnings.len(), 1, "{text:?}");
        assert!(text[0].contains("doc.json") && text[0].contains("16"), "{text:?}");
    }
}
