//! Daily notes: `--append-to FILE` and `--daily-note` put the report into a Markdown note
//! between [`BEGIN`] and [`END`] marker lines.
//!
//! - A note without markers gets the section at its end (after a blank line); a note with
//!   one marker of each, begin first, gets the lines between them replaced. Every other
//!   byte of the note stays as it was (line endings, a missing final newline, other HTML
//!   comments); the section's lines take the note's line ending (CRLF or LF).
//! - The same section again writes nothing (the file, its time and its inode untouched).
//! - The new note goes to a temporary file beside it, which is renamed over it
//!   ([`crate::pipeline::write_atomically_checked`]); just before the rename the note is
//!   read again and compared with what was read at first (inode, size, modification
//!   time, contents): a note the user changed meanwhile is left alone, with an error.
//! - A note that is a symbolic link, a folder, a FIFO, a device, unreadable or over
//!   16 MiB is an error naming it; nothing is written.
//!
//! `[output] daily_note` is a [`NotePattern`]: `{date}` and `{date:FORMAT}` /
//! `{{date:FORMAT}}` with the Obsidian (moment.js) and Logseq tokens listed there.

use std::fmt::Write as _;
use std::io::Read as _;
use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};

use jiff::civil::Date;
use jiff::tz::TimeZone;

use crate::Failure;
use crate::cli::{FormatArg, ReportArgs};
use crate::config;
use crate::pipeline::ProcessEnv;

/// The line that opens standup's section of a note.
pub(crate) const BEGIN: &str = "<!-- standup:begin -->";
/// The line that closes it.
pub(crate) const END: &str = "<!-- standup:end -->";

/// The largest note read: a daily note is a page of text.
const NOTE_MAX_BYTES: u64 = 16 << 20;

/// Where the report goes and how its headings sit there, decided before the report is
/// made (so a usage error costs no work).
#[derive(Debug)]
pub(crate) struct Destination {
    target: Target,
    heading_level: Option<u8>,
}

#[derive(Debug)]
enum Target {
    /// `--append-to FILE`.
    File(PathBuf),
    /// `--daily-note`: `[output] daily_note`, for the report's date.
    Daily(NotePattern),
}

fn usage(message: String) -> Failure {
    Failure::Usage(anyhow::Error::msg(message))
}

/// The note the flags name, if any: `--append-to FILE`, or `--daily-note` with the
/// config's `[output] daily_note` (a usage error naming the key when it is not set).
pub(crate) fn destination(
    env: &ProcessEnv,
    args: &ReportArgs,
) -> Result<Option<Destination>, Failure> {
    if args.append_to.is_none() && !args.daily_note {
        return Ok(None);
    }
    let flag = if args.daily_note { "--daily-note" } else { "--append-to" };
    if args.format != FormatArg::Md {
        return Err(usage(format!(
            "{flag}: a note holds Markdown, so the report is written with --format md (the default)"
        )));
    }
    let config_path = args.config.clone().unwrap_or_else(|| env.default_config_path());
    let config = config::load_with(&config_path, args.config.is_some(), config::LlmSection::Skip)
        .map_err(|error| Failure::Usage(error.into()))?;
    let target = match &args.append_to {
        Some(file) if file.as_os_str().is_empty() => {
            return Err(usage("--append-to: the note's path is empty".to_owned()));
        }
        Some(file) => Target::File(expand_tilde(env.home(), file)),
        None => Target::Daily(config.output.daily_note.clone().ok_or_else(|| {
            usage(format!(
                "--daily-note: config `{}` sets no `daily_note` in its `[output]` table (for example daily_note = \"~/Notes/Daily/{{date}}.md\"), or use --append-to FILE",
                config_path.display()
            ))
        })?),
    };
    Ok(Some(Destination { target, heading_level: config.output.heading_level }))
}

/// Writes the rendered report into the note, and says on stderr which note and what
/// was done.
pub(crate) fn deliver(
    env: &ProcessEnv,
    destination: &Destination,
    text: &str,
    report: &report_model::Report,
    time_zone: &TimeZone,
) -> Result<(), Failure> {
    let path = match &destination.target {
        Target::File(path) => path.clone(),
        Target::Daily(pattern) => pattern.path(env.home(), report_date(report, time_zone)),
    };
    let text = match destination.heading_level {
        Some(level) => shift_headings(text, level),
        None => text.to_owned(),
    };
    let outcome = write_note(&path, &text)
        .map_err(|message| Failure::Runtime(anyhow::Error::msg(message)))?;
    let done = match outcome {
        Outcome::Created => "created with the report",
        Outcome::Updated => "report section written",
        Outcome::Unchanged => "report section already up to date (not rewritten)",
    };
    crate::print_progress(&format!(
        "standup: note {}: {done}\n",
        clean::message(&path.to_string_lossy())
    ));
    Ok(())
}

/// The date a report is about, for the daily note's name: the last day it covers (today
/// for a standup, `--date` for a daily report, `--until` for a range).
fn report_date(report: &report_model::Report, time_zone: &TimeZone) -> Date {
    report.buckets.last().map_or_else(
        || report.meta.generated_at.to_zoned(time_zone.clone()).date(),
        |bucket| bucket.window.date,
    )
}

fn expand_tilde(home: &Path, path: &Path) -> PathBuf {
    match path.strip_prefix("~") {
        Ok(rest) => home.join(rest),
        Err(_) => path.to_path_buf(),
    }
}

/// What [`write_note`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The note did not exist: it was created (with its folders).
    Created,
    /// The section was added or replaced.
    Updated,
    /// The note already held this section: nothing was written.
    Unchanged,
}

/// Puts `text` into the note at `path` (see the module's doc). The error is one line
/// naming the note.
pub(crate) fn write_note(path: &Path, text: &str) -> Result<Outcome, String> {
    let shown = path.display();
    let seen = read_note(path)?;
    let old: &[u8] = match &seen {
        Seen::Missing => &[],
        Seen::File { bytes, .. } => bytes,
    };
    let new =
        splice(old, text).map_err(|why| format!("note `{shown}`: {why}; nothing was written"))?;
    if matches!(seen, Seen::File { .. }) && new == old {
        return Ok(Outcome::Unchanged);
    }
    if seen == Seen::Missing {
        if let Some(folder) = path.parent().filter(|folder| !folder.as_os_str().is_empty()) {
            #[expect(
                clippy::disallowed_methods,
                reason = "the error is worded here, with the path"
            )]
            std::fs::create_dir_all(folder).map_err(|error| {
                format!(
                    "cannot create the folder `{}` of note `{shown}`: {error}",
                    folder.display()
                )
            })?;
        }
    }
    let mut changed = None;
    let written = crate::pipeline::write_atomically_checked(path, &new, || {
        check_unchanged(path, &seen).map_err(|why| {
            changed = Some(why);
            std::io::Error::other("changed")
        })
    });
    if let Some(why) = changed {
        return Err(why);
    }
    written.map_err(|error| format!("writing note `{shown}`: {error}"))?;
    Ok(if seen == Seen::Missing { Outcome::Created } else { Outcome::Updated })
}

/// A note as read: missing, or a regular file with what identifies this version of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seen {
    /// No file at the path.
    Missing,
    /// A regular file.
    File { dev: u64, ino: u64, len: u64, modified: (i64, i64), bytes: Vec<u8> },
}

/// Reads the note at `path` without following a link or blocking on a FIFO; anything
/// but a missing note or a regular file of at most [`NOTE_MAX_BYTES`] is an error.
pub(crate) fn read_note(path: &Path) -> Result<Seen, String> {
    let shown = path.display();
    let metadata = match std::fs::symlink_metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Seen::Missing),
        Err(error) => return Err(format!("cannot read note `{shown}`: {error}")),
    };
    let kind = metadata.file_type();
    if kind.is_symlink() {
        return Err(format!(
            "note `{shown}` is a symbolic link: name the file it points to (the note is replaced by renaming a new file over it, which would replace the link)"
        ));
    }
    if kind.is_dir() {
        return Err(format!("note `{shown}` is a folder, not a Markdown file"));
    }
    if !kind.is_file() {
        return Err(format!("note `{shown}` is not a regular file (a FIFO, a socket or a device)"));
    }
    let too_large = || format!("note `{shown}` is larger than 16 MiB, which no daily note is");
    if metadata.len() > NOTE_MAX_BYTES {
        return Err(too_large());
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|error| format!("cannot read note `{shown}`: {error}"))?;
    let opened = file.metadata().map_err(|error| format!("cannot read note `{shown}`: {error}"))?;
    if !opened.is_file() || opened.ino() != metadata.ino() || opened.dev() != metadata.dev() {
        return Err(format!("note `{shown}` was replaced while it was read; nothing was written"));
    }
    let mut bytes = Vec::new();
    file.take(NOTE_MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| format!("cannot read note `{shown}`: {error}"))?;
    if bytes.len() as u64 > NOTE_MAX_BYTES {
        return Err(too_large());
    }
    Ok(Seen::File {
        dev: opened.dev(),
        ino: opened.ino(),
        len: opened.len(),
        modified: (opened.mtime(), opened.mtime_nsec()),
        bytes,
    })
}

/// Whether the note is still as `seen` (same inode, size, modification time and
/// contents, or still missing): the check made just before the new note replaces it.
pub(crate) fn check_unchanged(path: &Path, seen: &Seen) -> Result<(), String> {
    let shown = path.display();
    let now = read_note(path).map_err(|why| format!("{why}; the note was not written"))?;
    if now == *seen {
        return Ok(());
    }
    Err(format!(
        "note `{shown}` changed while the report was being made: it was not written, so nothing in it is lost (run standup again)"
    ))
}

/// Whether a line (its terminator removed) is `marker`, give or take surrounding blanks
/// and a byte order mark.
fn is_marker(line: &[u8], marker: &str) -> bool {
    let line = line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line);
    line.trim_ascii() == marker.as_bytes()
}

/// A line's bytes without its `\n` or `\r\n`.
fn content(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The note with `text` as its section: the lines between the markers replaced, or the
/// section added at the end when there are no markers. Only those bytes differ.
pub(crate) fn splice(note: &[u8], text: &str) -> Result<Vec<u8>, String> {
    if text.lines().any(|line| is_marker(line.as_bytes(), BEGIN) || is_marker(line.as_bytes(), END))
    {
        return Err(format!("the report itself holds a line `{BEGIN}` or `{END}`"));
    }
    let lines: Vec<&[u8]> = note.split_inclusive(|&byte| byte == b'\n').collect();
    let begins: Vec<usize> =
        (0..lines.len()).filter(|&i| is_marker(content(lines[i]), BEGIN)).collect();
    let ends: Vec<usize> =
        (0..lines.len()).filter(|&i| is_marker(content(lines[i]), END)).collect();
    let numbers = |found: &[usize]| {
        found.iter().map(|index| (index + 1).to_string()).collect::<Vec<_>>().join(", ")
    };
    match (begins.as_slice(), ends.as_slice()) {
        ([], []) => {
            let eol: &[u8] = if lines.first().is_some_and(|line| line.ends_with(b"\r\n")) {
                b"\r\n"
            } else {
                b"\n"
            };
            let mut out = note.to_vec();
            if !out.is_empty() {
                if !out.ends_with(b"\n") {
                    out.extend_from_slice(eol);
                }
                // A blank line before the section, unless the note ends with one.
                if lines.last().is_some_and(|line| !content(line).trim_ascii().is_empty()) {
                    out.extend_from_slice(eol);
                }
            }
            push_section(&mut out, text, eol, true);
            Ok(out)
        }
        (&[begin], &[end]) if begin < end => {
            let eol: &[u8] = if lines[begin].ends_with(b"\r\n") { b"\r\n" } else { b"\n" };
            let mut out = Vec::with_capacity(note.len() + text.len());
            for line in &lines[..=begin] {
                out.extend_from_slice(line);
            }
            push_section(&mut out, text, eol, false);
            for line in &lines[end..] {
                out.extend_from_slice(line);
            }
            Ok(out)
        }
        _ => Err(format!(
            "expected one line `{BEGIN}` and, after it, one line `{END}`, but found begin markers on lines [{}] and end markers on lines [{}]: fix the markers by hand",
            numbers(&begins),
            numbers(&ends)
        )),
    }
}

/// The report's lines with `eol`, between the marker lines when `markers`.
fn push_section(out: &mut Vec<u8>, text: &str, eol: &[u8], markers: bool) {
    if markers {
        out.extend_from_slice(BEGIN.as_bytes());
        out.extend_from_slice(eol);
    }
    for line in text.lines() {
        out.extend_from_slice(line.as_bytes());
        out.extend_from_slice(eol);
    }
    if markers {
        out.extend_from_slice(END.as_bytes());
        out.extend_from_slice(eol);
    }
}

/// The ATX heading level of a line (`## Title` is 2) and its indentation.
fn heading(line: &str) -> Option<(usize, usize)> {
    let line = line.trim_end_matches(['\n', '\r']);
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let level = rest.len() - rest.trim_start_matches('#').len();
    let after = &rest[level..];
    ((1..=6).contains(&level) && (after.is_empty() || after.starts_with([' ', '\t'])))
        .then_some((level, indent))
}

/// A fence opening or closing a code block (three or more backticks or tildes).
fn fence(line: &str) -> Option<char> {
    let trimmed = line.trim_start_matches(' ');
    if line.len() - trimmed.len() > 3 {
        return None;
    }
    ['`', '~'].into_iter().find(|&mark| trimmed.starts_with(&mark.to_string().repeat(3)))
}

/// The Markdown with its headings moved so that the top one is at `level` (1–6) and the
/// others keep their distance below it (at most 6); code blocks are left alone.
pub(crate) fn shift_headings(text: &str, level: u8) -> String {
    let mut open_fence: Option<char> = None;
    let mut levels = Vec::new();
    for line in text.lines() {
        match (open_fence, fence(line)) {
            (None, Some(mark)) => open_fence = Some(mark),
            (Some(open), Some(mark)) if open == mark => open_fence = None,
            (None, None) => levels.extend(heading(line).map(|(found, _)| found)),
            _ => {}
        }
    }
    let Some(top) = levels.into_iter().min() else { return text.to_owned() };
    let delta = i64::from(level) - i64::try_from(top).unwrap_or(1);
    if delta == 0 {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 64);
    open_fence = None;
    for line in text.split_inclusive('\n') {
        let shifted = match (open_fence, fence(line)) {
            (None, Some(mark)) => {
                open_fence = Some(mark);
                None
            }
            (Some(open), Some(mark)) if open == mark => {
                open_fence = None;
                None
            }
            (None, None) => heading(line).map(|(found, indent)| {
                let new = (i64::try_from(found).unwrap_or(1) + delta).clamp(1, 6);
                let new = usize::try_from(new).unwrap_or(1);
                format!("{}{}{}", &line[..indent], "#".repeat(new), &line[indent + found..])
            }),
            _ => None,
        };
        out.push_str(shifted.as_deref().unwrap_or(line));
    }
    out
}

/// A daily note's path: `~/` or `/` first, with date patterns (see [`NotePattern::parse`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NotePattern {
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    Year4,
    Year2,
    Month1,
    Month2,
    MonthShort,
    MonthLong,
    Day1,
    Day2,
    WeekdayShort,
    WeekdayLong,
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const WEEKDAYS: [&str; 7] =
    ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

const TOKENS: &str =
    "YYYY, YY, MM, M, DD, D, ddd, dddd, MMM, MMMM, or Logseq's yyyy, yy, dd, d, EEE, EEEE";

impl NotePattern {
    /// Reads a `daily_note` value. `{date}` and `{{date}}` are the date as `YYYY-MM-DD`;
    /// `{date:FORMAT}` and `{{date:FORMAT}}` format it with the tokens Obsidian
    /// (moment.js) and Logseq write: `YYYY`/`yyyy` year, `YY`/`yy` two-digit year, `MM`
    /// month, `M` month without a leading zero, `MMM` `Nov`, `MMMM` `November`, `DD`/`dd`
    /// day of the month, `D`/`d` without a leading zero, `ddd`/`EEE` `Mon`, `dddd`/`EEEE`
    /// `Monday` (English names); `[text]` is literal, as is any other character but a
    /// letter. The error says what is wrong, for a config error naming the key.
    pub(crate) fn parse(text: &str) -> Result<NotePattern, String> {
        if !(text.starts_with('/') || text.starts_with("~/")) {
            return Err(format!(
                "`{}` must start with `~/` or `/` (a scheduled run has no working folder to be relative to)",
                clean::quote(text)
            ));
        }
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            literal.push_str(&rest[..open]);
            let after = &rest[open..];
            let (inner, consumed) = if let Some(inner) = after.strip_prefix("{{") {
                let close = inner.find("}}").ok_or_else(|| unclosed(text))?;
                (&inner[..close], close + 4)
            } else {
                let close = after.find('}').ok_or_else(|| unclosed(text))?;
                (&after[1..close], close + 1)
            };
            let format = match inner.strip_prefix("date") {
                Some("") => "YYYY-MM-DD",
                Some(format) if format.starts_with(':') && format.len() > 1 => &format[1..],
                _ => {
                    return Err(format!(
                        "`{{{}}}` is not a date pattern (expected `{{date}}` or `{{date:FORMAT}}`, as `{{date:YYYY-MM-DD}}`)",
                        clean::quote(inner)
                    ));
                }
            };
            if !literal.is_empty() {
                parts.push(Part::Text(std::mem::take(&mut literal)));
            }
            parse_format(format, &mut parts)?;
            rest = &after[consumed..];
        }
        literal.push_str(rest);
        if !literal.is_empty() {
            parts.push(Part::Text(literal));
        }
        Ok(NotePattern { parts })
    }

    /// The text with the date put in.
    pub(crate) fn expand(&self, date: Date) -> String {
        let month = usize::try_from(date.month() - 1).unwrap_or(0);
        let weekday = usize::from(date.weekday().to_monday_zero_offset().unsigned_abs());
        let mut out = String::new();
        for part in &self.parts {
            let _ = match part {
                Part::Text(text) => write!(out, "{text}"),
                Part::Year4 => write!(out, "{:04}", date.year()),
                Part::Year2 => write!(out, "{:02}", date.year().rem_euclid(100)),
                Part::Month1 => write!(out, "{}", date.month()),
                Part::Month2 => write!(out, "{:02}", date.month()),
                Part::MonthShort => write!(out, "{}", &MONTHS[month][..3]),
                Part::MonthLong => write!(out, "{}", MONTHS[month]),
                Part::Day1 => write!(out, "{}", date.day()),
                Part::Day2 => write!(out, "{:02}", date.day()),
                Part::WeekdayShort => write!(out, "{}", &WEEKDAYS[weekday][..3]),
                Part::WeekdayLong => write!(out, "{}", WEEKDAYS[weekday]),
            };
        }
        out
    }

    /// The note's path for `date`, `~` being `home`.
    pub(crate) fn path(&self, home: &Path, date: Date) -> PathBuf {
        expand_tilde(home, Path::new(&self.expand(date)))
    }
}

fn unclosed(text: &str) -> String {
    format!("`{}` opens a `{{` it does not close", clean::quote(text))
}

/// One `FORMAT` of `{date:FORMAT}`: runs of one letter are tokens, `[text]` and other
/// characters literal.
fn parse_format(format: &str, parts: &mut Vec<Part>) -> Result<(), String> {
    let mut chars = format.chars().peekable();
    let mut literal = String::new();
    while let Some(c) = chars.next() {
        if c == '[' {
            let mut closed = false;
            for inner in chars.by_ref() {
                if inner == ']' {
                    closed = true;
                    break;
                }
                literal.push(inner);
            }
            if !closed {
                return Err(format!("`{}` opens a `[` it does not close", clean::quote(format)));
            }
            continue;
        }
        if !c.is_ascii_alphabetic() {
            literal.push(c);
            continue;
        }
        let mut count = 1;
        while chars.peek() == Some(&c) {
            chars.next();
            count += 1;
        }
        let part = match (c, count) {
            ('Y' | 'y', 4) => Part::Year4,
            ('Y' | 'y', 2) => Part::Year2,
            ('M', 1) => Part::Month1,
            ('M', 2) => Part::Month2,
            ('M', 3) => Part::MonthShort,
            ('M', 4) => Part::MonthLong,
            ('D' | 'd', 1) => Part::Day1,
            ('D' | 'd', 2) => Part::Day2,
            ('d' | 'E', 3) => Part::WeekdayShort,
            ('d' | 'E', 4) => Part::WeekdayLong,
            _ => {
                return Err(format!(
                    "`{}` in `{}` is not a date token (expected {TOKENS}; put other text in [brackets])",
                    c.to_string().repeat(count),
                    clean::quote(format)
                ));
            }
        };
        if !literal.is_empty() {
            parts.push(Part::Text(std::mem::take(&mut literal)));
        }
        parts.push(part);
    }
    if !literal.is_empty() {
        parts.push(Part::Text(literal));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    const REPORT: &str = "# Standup — 2026-11-30 (Mon)\n\n## Today\n\n- one\n";

    fn section(eol: &str) -> String {
        format!("{BEGIN}{eol}{}{END}{eol}", REPORT.replace('\n', eol))
    }

    #[test]
    fn patterns_obsidian_and_logseq() {
        let monday = date(2026, 11, 30);
        let cases = [
            ("~/Notes/Daily/{date}.md", "~/Notes/Daily/2026-11-30.md"),
            ("~/n/{{date}}.md", "~/n/2026-11-30.md"),
            ("~/n/{{date:YYYY-MM-DD}}.md", "~/n/2026-11-30.md"),
            ("/n/{date:YYYY}/{date:MM}/{date:YYYY-MM-DD ddd}.md", "/n/2026/11/2026-11-30 Mon.md"),
            ("~/logseq/journals/{date:yyyy_MM_dd}.md", "~/logseq/journals/2026_11_30.md"),
            ("~/n/{date:dddd, MMMM D[th] YY}.md", "~/n/Monday, November 30th 26.md"),
            ("~/n/{date:EEE EEEE MMM M d}.md", "~/n/Mon Monday Nov 11 30.md"),
            ("~/n/plain.md", "~/n/plain.md"),
        ];
        for (pattern, expected) in cases {
            assert_eq!(NotePattern::parse(pattern).unwrap().expand(monday), expected, "{pattern}");
        }
        let early = date(2027, 1, 3);
        assert_eq!(NotePattern::parse("/{date:D.M.YY}").unwrap().expand(early), "/3.1.27");
        assert_eq!(
            NotePattern::parse("~/n/{date}.md").unwrap().path(Path::new("/home/me"), early),
            PathBuf::from("/home/me/n/2027-01-03.md")
        );
    }

    #[test]
    fn bad_patterns_say_why() {
        let error = |text: &str| NotePattern::parse(text).unwrap_err();
        assert!(error("Notes/{date}.md").contains("must start with `~/` or `/`"));
        assert!(error("~/n/{date:YYYY-QQ}.md").contains("`QQ` in `YYYY-QQ` is not a date token"));
        assert!(error("~/n/{time}.md").contains("`{time}` is not a date pattern"));
        assert!(error("~/n/{date.md").contains("does not close"));
        assert!(error("~/n/{{date.md").contains("does not close"));
        assert!(error("~/n/{date:[YYYY}.md").contains("`[`"));
        assert!(error("~/n/{date:}.md").contains("not a date pattern"));
    }

    #[test]
    fn a_note_without_markers_gets_the_section_at_its_end() {
        assert_eq!(splice(b"", REPORT).unwrap(), section("\n").into_bytes());
        let note = "# Monday\n\nMy own line.\n";
        let out = splice(note.as_bytes(), REPORT).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), format!("{note}\n{}", section("\n")));
        // No final newline, CRLF: the note's bytes are kept and its line ending used.
        let note = "# 月曜日\r\n\r\n<!-- a comment of mine -->\r\nlast line";
        let out = splice(note.as_bytes(), REPORT).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), format!("{note}\r\n\r\n{}", section("\r\n")));
        // A note ending with a blank line gets no second one.
        let note = "text\n\n";
        let out = splice(note.as_bytes(), REPORT).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), format!("{note}{}", section("\n")));
    }

    #[test]
    fn the_section_is_replaced_in_place_and_nothing_else_moves() {
        let before = "# 日報 ✨\r\n<!-- keep me -->\r\n";
        let after = "\r\n- [ ] user task\r\n<!-- standup:other -->\r\nno final newline";
        let note = format!("{before}{BEGIN}\r\nold report\r\nold line 2\r\n  {END}  \r\n{after}");
        let out = String::from_utf8(splice(note.as_bytes(), REPORT).unwrap()).unwrap();
        let expected =
            format!("{before}{BEGIN}\r\n{}  {END}  \r\n{after}", REPORT.replace('\n', "\r\n"));
        assert_eq!(out, expected);
        // Twice is once.
        assert_eq!(splice(out.as_bytes(), REPORT).unwrap(), out.as_bytes());
        // An end marker on the last line, without a newline, stays so.
        let note = format!("top\n{BEGIN}\nold\n{END}");
        let out = String::from_utf8(splice(note.as_bytes(), REPORT).unwrap()).unwrap();
        assert_eq!(out, format!("top\n{BEGIN}\n{REPORT}{END}"));
    }

    #[test]
    fn broken_markers_are_an_error_naming_their_lines() {
        for note in [
            format!("{BEGIN}\nx\n"),
            format!("x\n{END}\n"),
            format!("{END}\n{BEGIN}\n"),
            format!("{BEGIN}\n{END}\n{BEGIN}\n{END}\n"),
        ] {
            let error = splice(note.as_bytes(), REPORT).unwrap_err();
            assert!(error.contains("fix the markers by hand"), "{error}");
        }
        let error = splice(format!("a\n{BEGIN}\n").as_bytes(), REPORT).unwrap_err();
        assert!(
            error.contains("begin markers on lines [2] and end markers on lines []"),
            "{error}"
        );
        let error = splice(b"", &format!("# R\n{END}\n")).unwrap_err();
        assert!(error.contains("the report itself"), "{error}");
    }

    #[test]
    fn headings_shift_below_the_notes_own() {
        let text = "# Standup\n\n## Today\n\n```\n# not a heading\n```\n### app\n#hashtag\n";
        assert_eq!(
            shift_headings(text, 2),
            "## Standup\n\n### Today\n\n```\n# not a heading\n```\n#### app\n#hashtag\n"
        );
        assert_eq!(shift_headings(text, 1), text);
        assert_eq!(shift_headings("# a\n## b\n### c\n", 5), "##### a\n###### b\n###### c\n");
        assert_eq!(shift_headings("  ## a\n### b\n", 1), "  # a\n## b\n");
        assert_eq!(shift_headings("no headings\n", 3), "no headings\n");
    }

    #[test]
    fn the_check_before_the_rename_sees_any_change() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("note.md");
        assert_eq!(read_note(&path).unwrap(), Seen::Missing);
        check_unchanged(&path, &Seen::Missing).unwrap();
        fs_err::write(&path, "mine\n").unwrap();
        // Created meanwhile.
        assert!(check_unchanged(&path, &Seen::Missing).unwrap_err().contains("changed while"));
        let seen = read_note(&path).unwrap();
        check_unchanged(&path, &seen).unwrap();
        // Same size, other contents, time set back to what it was.
        let Seen::File { modified, .. } = &seen else { panic!("a file") };
        fs_err::write(&path, "MINE\n").unwrap();
        let time = std::time::UNIX_EPOCH
            + std::time::Duration::new(
                u64::try_from(modified.0).unwrap(),
                u32::try_from(modified.1).unwrap(),
            );
        fs_err::File::options().write(true).open(&path).unwrap().set_modified(time).unwrap();
        assert!(check_unchanged(&path, &seen).unwrap_err().contains("was not written"));
        // Only the time changed.
        fs_err::write(&path, "mine\n").unwrap();
        let later = time + std::time::Duration::from_secs(5);
        fs_err::File::options().write(true).open(&path).unwrap().set_modified(later).unwrap();
        assert!(check_unchanged(&path, &seen).is_err());
        // Removed.
        fs_err::remove_file(&path).unwrap();
        assert!(check_unchanged(&path, &seen).is_err());
    }

    #[test]
    fn a_note_changed_before_the_rename_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("note.md");
        fs_err::write(&path, "mine\n").unwrap();
        let seen = read_note(&path).unwrap();
        let result = crate::pipeline::write_atomically_checked(&path, b"new", || {
            fs_err::write(&path, "mine, edited\n").unwrap();
            check_unchanged(&path, &seen).map_err(std::io::Error::other)
        });
        assert!(result.is_err());
        assert_eq!(fs_err::read_to_string(&path).unwrap(), "mine, edited\n");
        assert_eq!(fs_err::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
    }
}
