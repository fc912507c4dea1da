//! bash's history file.
//!
//! When `HISTTIMEFORMAT` is set, bash writes a `#<epoch>` line before each entry, and
//! that line also delimits entries: a multi-line command (`cmdhist` with `lithist`) is
//! every line up to the next `#<epoch>` line, as readline's `read_history_range` reads
//! it. Lines before the first `#<epoch>` line are one undated entry each. A line that
//! starts with `#` and a digit is a timestamp line to bash; one that is not all digits
//! is malformed, and so is the entry it starts. Empty lines are skipped and a `\r`
//! before the newline is dropped, as bash does.

use std::io::BufRead;

use jiff::Timestamp;
use report_model::Shell;

use super::scan::{ENTRY_MAX, Lines, Scan, append, decode, parse_epoch};

/// The entry the lines being read belong to.
enum Open {
    /// Before the first timestamp line: each line is an undated entry.
    None,
    /// After a malformed timestamp line: its lines are skipped.
    Malformed,
    /// After a valid timestamp line.
    Dated {
        time: Timestamp,
        /// Whether the entry is kept (its text is in the entry buffer).
        keep: bool,
        /// Whether a command line has been read for it yet.
        has_text: bool,
    },
}

/// Reads a bash history, keeping the commands run at or after `since`.
pub(super) fn parse<R: BufRead>(reader: R, since: Timestamp) -> Scan {
    let mut lines = Lines::new(reader);
    let mut scan = Scan::default();
    let mut entry: Vec<u8> = Vec::new();
    let mut truncated = false;
    let mut open = Open::None;
    let read = lines.for_each(|line_no, line| {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            return;
        }
        if line.len() > 1 && line[0] == b'#' && line[1].is_ascii_digit() {
            finish(&mut scan, &mut entry, &open, truncated);
            open = if let Some(Ok(time)) = parse_epoch(&line[1..]).map(Timestamp::from_second) {
                Open::Dated { time, keep: time >= since, has_text: false }
            } else {
                scan.malformed_at(line_no);
                Open::Malformed
            };
            return;
        }
        match &mut open {
            Open::None => scan.undated_entry(),
            Open::Malformed => {}
            Open::Dated { time, keep, has_text } => {
                if !*has_text {
                    *has_text = true;
                    scan.entries += 1;
                    scan.dated_entry(*time);
                    if *keep {
                        entry.clear();
                        truncated = false;
                        append(&mut entry, line, &mut truncated);
                    }
                } else if *keep {
                    if entry.len() + 1 + line.len() > ENTRY_MAX {
                        truncated = true;
                    } else {
                        entry.push(b'\n');
                        entry.extend_from_slice(line);
                    }
                }
            }
        }
    });
    if let Err(error) = read {
        scan.error = Some(error);
    }
    finish(&mut scan, &mut entry, &open, truncated);
    lines.finish(&mut scan);
    scan
}

fn finish(scan: &mut Scan, entry: &mut Vec<u8>, open: &Open, truncated: bool) {
    if let Open::Dated { time, keep: true, has_text: true } = *open {
        scan.push_entry(Shell::Bash, time, decode(std::mem::take(entry)), truncated);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_and_blank_lines_are_tolerated() {
        let scan = parse(&b"#1\r\n\r\necho hi\r\n\n#2\nls\n"[..], Timestamp::UNIX_EPOCH);
        let commands: Vec<_> = scan.events.iter().map(|event| event.command.as_str()).collect();
        assert_eq!(commands, ["echo hi", "ls"]);
        assert_eq!(scan.entries, 2);
    }

    #[test]
    fn a_timestamp_without_a_command_is_not_an_entry() {
        let scan = parse(&b"#1\n#2\nls\n#3\n"[..], Timestamp::UNIX_EPOCH);
        assert_eq!(scan.entries, 1);
        assert_eq!(scan.events[0].time, Timestamp::from_second(2).unwrap());
    }

    #[test]
    fn a_lone_hash_is_a_command_line_not_a_timestamp() {
        let scan = parse(
            &b"#1
#
#2
ls
#x
"[..],
            Timestamp::UNIX_EPOCH,
        );
        let commands: Vec<_> = scan.events.iter().map(|event| event.command.as_str()).collect();
        assert_eq!(commands, ["#", "ls\n#x"]);
        assert_eq!((scan.entries, scan.malformed), (2, 0));
    }
}
