//! `standup note`: the person's own notes, plans and blockers, one TOML file per day under
//! `$XDG_DATA_HOME/standup/notes/<YYYY-MM-DD>.toml` (else `~/.local/share/…`), written
//! atomically; and reading them back for the reports of those days.
//!
//! A day's file is an array of `[[note]]` tables (`kind`, `text`, `time`, `done`), in the
//! order they were added: a note's number is its place in the file, from 1. The file is
//! meant to be read and edited by hand (`standup note --edit`), so a bad one is a warning
//! naming the file, line and key in a report, and an error (with the edit kept beside it)
//! in `--edit`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use report_model::{Note, NoteKind, ReportKind, Warning, WarningDetail};
use serde::{Deserialize, Serialize};

use crate::cli::NoteArgs;
use crate::pipeline::{ProcessEnv, usage, write_atomically};
use crate::{Failure, env_vars, write_stdout};

/// The most notes one day keeps.
const NOTES_MAX: usize = 200;

/// A day's file as written.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct DayFile {
    #[serde(default)]
    note: Vec<Entry>,
}

/// One `[[note]]` table.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    /// `note` (the default), `plan` or `blocker`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kind: Option<NoteKind>,
    text: String,
    /// RFC 3339; a note written by hand without one counts from the start of its day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    done: bool,
}

/// `$XDG_DATA_HOME/standup/notes` (an absolute `XDG_DATA_HOME` only, as the XDG spec
/// says), else `~/.local/share/standup/notes`.
pub(crate) fn folder(env: &ProcessEnv) -> PathBuf {
    let base = env
        .var(env_vars::XDG_DATA_HOME)
        .map(PathBuf::from)
        .filter(|path| path.is_absolute())
        .unwrap_or_else(|| env.home().join(".local/share"));
    base.join("standup").join("notes")
}

fn day_path(folder: &Path, date: Date) -> PathBuf {
    folder.join(format!("{date}.toml"))
}

/// Why a day's file could not be used.
#[derive(Debug)]
enum ReadError {
    /// Not a regular file, or unreadable (the message names the file).
    Io(String),
    /// Not TOML of the expected shape: the line, the key when known, and what is wrong.
    Parse { line: usize, message: String },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(message) => f.write_str(message),
            ReadError::Parse { line, message } => write!(f, "line {line}: {message}"),
        }
    }
}

/// The text of a day's file, `None` when there is none; read as a daily note is (a
/// regular file only, no link followed, bounded).
fn read_text(path: &Path) -> Result<Option<String>, ReadError> {
    match crate::notes::read_note(path).map_err(ReadError::Io)? {
        crate::notes::Seen::Missing => Ok(None),
        crate::notes::Seen::File { bytes, .. } => Ok(Some(
            String::from_utf8(bytes)
                .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned()),
        )),
    }
}

/// The day's file, or an empty one when there is none.
fn read_day(path: &Path) -> Result<DayFile, ReadError> {
    match read_text(path)? {
        Some(text) => parse_day_file(&text),
        None => Ok(DayFile::default()),
    }
}

fn parse_day_file(text: &str) -> Result<DayFile, ReadError> {
    let file: DayFile = toml::from_str(text).map_err(|error| {
        let line = error
            .span()
            .map_or(1, |span| text[..span.start.min(text.len())].matches('\n').count() + 1);
        ReadError::Parse { line, message: error.message().trim_end().to_owned() }
    })?;
    for (index, entry) in file.note.iter().enumerate() {
        if let Some(time) = &entry.time {
            if time.parse::<Timestamp>().is_err() {
                return Err(ReadError::Parse {
                    line: line_of_note(text, index),
                    message: format!(
                        "note {}: key `time` is not an RFC 3339 time such as `2026-11-27T18:00:00+09:00`",
                        index + 1
                    ),
                });
            }
        }
    }
    Ok(file)
}

/// The line of the `index`th `[[note]]` header (1 when it cannot be found).
fn line_of_note(text: &str, index: usize) -> usize {
    text.lines()
        .enumerate()
        .filter(|(_, line)| line.trim_start().starts_with("[[note]]"))
        .nth(index)
        .map_or(1, |(number, _)| number + 1)
}

/// The notes of `dates` for a report: each day's file in date order; a file that cannot
/// be read or parsed is a warning naming it, and the other days still come.
pub(crate) fn load(
    env: &ProcessEnv,
    dates: impl Iterator<Item = Date>,
    time_zone: &TimeZone,
) -> (Vec<Note>, Vec<Warning>) {
    let folder = folder(env);
    let mut notes = Vec::new();
    let mut warnings = Vec::new();
    if !folder.is_dir() {
        return (notes, warnings);
    }
    for date in dates {
        let path = day_path(&folder, date);
        match read_day(&path) {
            Ok(file) => notes.extend(day_notes(date, &file, time_zone)),
            Err(error) => {
                let error = match error {
                    ReadError::Io(message) => message,
                    parse @ ReadError::Parse { .. } => parse.to_string(),
                };
                warnings.push(Warning::new(WarningDetail::NotesUnreadable {
                    path: path.display().to_string(),
                    error,
                }));
            }
        }
    }
    (notes, warnings)
}

/// A day's entries as notes, numbered from 1; one without a time counts from the start of
/// the day.
fn day_notes(date: Date, file: &DayFile, time_zone: &TimeZone) -> Vec<Note> {
    let start_of_day =
        date.to_zoned(time_zone.clone()).map_or(Timestamp::UNIX_EPOCH, |z| z.timestamp());
    file.note
        .iter()
        .take(NOTES_MAX)
        .enumerate()
        .map(|(index, entry)| Note {
            date,
            number: u32::try_from(index + 1).unwrap_or(u32::MAX),
            kind: entry.kind.unwrap_or(NoteKind::Note),
            text: entry.text.clone(),
            time: entry
                .time
                .as_deref()
                .and_then(|time| time.parse::<Timestamp>().ok())
                .unwrap_or(start_of_day),
            done: entry.done,
        })
        .collect()
}

/// The header of a new day's file.
fn header(date: Date) -> String {
    format!(
        "# standup notes for {date}: one [[note]] per note, in order (its number is its place).\n\
         # kind = \"note\" | \"plan\" | \"blocker\"; time is RFC 3339; done = true closes it.\n"
    )
}

/// The day's file as TOML: the header, then each note.
fn write_day_file(date: Date, file: &DayFile) -> Result<String, Failure> {
    let body = toml::to_string(file).map_err(|error| {
        Failure::Runtime(anyhow::Error::new(error).context("writing the notes as TOML"))
    })?;
    Ok(format!("{}\n{body}", header(date)))
}

/// `standup note`.
pub(crate) fn run(env: &ProcessEnv, args: &NoteArgs) -> Result<(), Failure> {
    let config =
        crate::pipeline::load_config(env, args.config.as_deref(), crate::config::LlmSection::Skip)?;
    let now = env.now()?;
    let (_, time_zone, _) = crate::pipeline::time_zone(&config, env);
    let calendar = crate::pipeline::calendar(&config, time_zone.clone());
    let date = match args.date.as_str() {
        "previous" => {
            let today = aggregate::today(now, &calendar);
            let windows = aggregate::report_windows(ReportKind::Standup, today, &calendar)
                .map_err(|error| Failure::Usage(error.into()))?;
            windows.first().map_or(today, |(_, window)| window.date)
        }
        text => crate::pipeline::parse_day("--date", text, now, &calendar)?,
    };
    let folder = folder(env);
    let path = day_path(&folder, date);
    let io = |what: &str, error: std::io::Error| {
        Failure::Runtime(anyhow::Error::new(error).context(format!("{what} `{}`", path.display())))
    };
    if args.list {
        let file = read_day(&path)
            .map_err(|error| usage(format!("notes `{}`: {error}", path.display())))?;
        let notes = day_notes(date, &file, &time_zone);
        let mut out = String::new();
        if notes.is_empty() {
            let _ = writeln!(out, "{date}: no notes");
        } else {
            let _ = writeln!(out, "{date}:");
        }
        for note in &notes {
            let kind = match note.kind {
                NoteKind::Note => "",
                NoteKind::Plan => "[plan] ",
                NoteKind::Blocker => "[blocker] ",
            };
            let done = if note.done { " (closed)" } else { "" };
            // One line, as the report shows it (a note written with `--edit` or by a script
            // may hold newlines).
            let _ =
                writeln!(out, "{:>3}. {kind}{}{done}", note.number, clean::note_line(&note.text));
        }
        // The person's own words, but shown cleaned and masked like every string.
        return write_stdout(clean::message(&out).as_bytes());
    }
    if args.edit {
        return edit(env, date, &path);
    }
    let mut file = read_day(&path).map_err(|error| {
        usage(format!(
            "notes `{}`: {error} (fix it with `standup note --edit`; nothing was changed)",
            path.display()
        ))
    })?;
    let message = if let Some(number) = args.done {
        let index = usize::try_from(number).unwrap_or(usize::MAX).wrapping_sub(1);
        let Some(entry) = file.note.get_mut(index) else {
            return Err(usage(format!(
                "{date} has no note {number} ({} {}; `standup note --list --date {date}` shows them)",
                file.note.len(),
                if file.note.len() == 1 { "note" } else { "notes" }
            )));
        };
        entry.done = true;
        format!("closed note {number} of {date}")
    } else {
        let text = args.text.join(" ");
        if text.trim().is_empty() {
            return Err(usage("the note is empty".to_owned()));
        }
        if file.note.len() >= NOTES_MAX {
            return Err(usage(format!("{date} already has {NOTES_MAX} notes")));
        }
        let kind = if args.plan {
            NoteKind::Plan
        } else if args.blocker {
            NoteKind::Blocker
        } else {
            NoteKind::Note
        };
        let time = now.to_zoned(time_zone.clone()).strftime("%Y-%m-%dT%H:%M:%S%:z").to_string();
        file.note.push(Entry {
            kind: (kind != NoteKind::Note).then_some(kind),
            text: text.trim().to_owned(),
            time: Some(time),
            done: false,
        });
        let what = match kind {
            NoteKind::Note => "note",
            NoteKind::Plan => "plan",
            NoteKind::Blocker => "blocker",
        };
        format!("added {what} {} to {date}", file.note.len())
    };
    fs_err::create_dir_all(&folder).map_err(|error| io("creating the notes folder", error))?;
    let text = write_day_file(date, &file)?;
    write_atomically(&path, text.as_bytes()).map_err(|error| io("writing", error))?;
    crate::print_info(&message);
    Ok(())
}

/// `--edit`: the day's file (or a new one with its header) is copied beside it, opened in
/// the editor, checked, and only then put in place, atomically; a copy that does not
/// parse is kept beside the file as `<date>.toml.edit` and the file is left as it was.
fn edit(env: &ProcessEnv, date: Date, path: &Path) -> Result<(), Failure> {
    let folder = path.parent().unwrap_or(Path::new("."));
    let io = |what: &str, at: &Path, error: std::io::Error| {
        Failure::Runtime(anyhow::Error::new(error).context(format!("{what} `{}`", at.display())))
    };
    fs_err::create_dir_all(folder)
        .map_err(|error| io("creating the notes folder", folder, error))?;
    let current = read_text(path)
        .map_err(|error| Failure::Runtime(anyhow::anyhow!("{error}")))?
        .unwrap_or_else(|| header(date));
    let draft = folder.join(format!("{date}.toml.edit"));
    write_atomically(&draft, current.as_bytes()).map_err(|error| io("writing", &draft, error))?;
    let editor =
        env.var(env_vars::VISUAL).or_else(|| env.var(env_vars::EDITOR)).unwrap_or("vi").to_owned();
    let mut words = editor.split_whitespace();
    let program = words.next().unwrap_or("vi");
    // The editor is interactive: the person decides when it ends, so it has no deadline.
    #[expect(clippy::disallowed_methods, reason = "the person's own editor, run in the foreground")]
    let status =
        std::process::Command::new(program).args(words).arg(&draft).status().map_err(|error| {
            Failure::Runtime(
                anyhow::Error::new(error)
                    .context(format!("starting the editor `{}`", clean::quote(&editor))),
            )
        })?;
    if !status.success() {
        return Err(Failure::Runtime(anyhow::anyhow!(
            "the editor `{}` exited with {status}; the notes are unchanged (the edit is in `{}`)",
            clean::quote(&editor),
            draft.display()
        )));
    }
    let edited = read_text(&draft)
        .map_err(|error| Failure::Runtime(anyhow::anyhow!("{error}")))?
        .unwrap_or_default();
    if let Err(error) = parse_day_file(&edited) {
        return Err(usage(format!(
            "notes `{}` {error}; the notes are unchanged (the edit is kept in `{}`)",
            path.display(),
            draft.display()
        )));
    }
    write_atomically(path, edited.as_bytes()).map_err(|error| io("writing", path, error))?;
    fs_err::remove_file(&draft).map_err(|error| io("removing", &draft, error))?;
    crate::print_info(&format!("saved the notes of {date}"));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_file_round_trips_and_errors_name_the_line_and_key() {
        let file = DayFile {
            note: vec![Entry {
                kind: Some(NoteKind::Plan),
                text: "wire the \"Slack\" output".to_owned(),
                time: Some("2026-11-27T18:00:00+09:00".to_owned()),
                done: false,
            }],
        };
        let date: Date = "2026-11-27".parse().unwrap();
        let text = write_day_file(date, &file).unwrap();
        let back = parse_day_file(&text).unwrap();
        assert_eq!(back.note[0].text, "wire the \"Slack\" output");
        assert_eq!(back.note[0].kind, Some(NoteKind::Plan));

        let error =
            parse_day_file("[[note]]\ntext = \"a\"\n\n[[note]]\ntext = \"b\"\ncolour = 1\n")
                .unwrap_err()
                .to_string();
        assert!(error.starts_with("line 6: unknown field `colour`"), "{error}");
        let error =
            parse_day_file("[[note]]\ntext = \"a\"\n[[note]]\ntext = \"b\"\ntime = \"friday\"\n")
                .unwrap_err()
                .to_string();
        assert!(error.starts_with("line 3: note 2: key `time`"), "{error}");
    }
}
