//! zsh's history file.
//!
//! With `EXTENDED_HISTORY` an entry starts `: <start epoch>:<elapsed seconds>;`, else it
//! is the bare command (a command that itself starts with `:` is written `\:`). A line
//! ending in a backslash continues on the next one: zsh writes each newline of a
//! command as `\` + newline, and reads any line ending in `\` as continued, whatever
//! precedes the backslash (`readhistline` in zsh's `Src/hist.c`). So a command line
//! `a\` followed by a newline is written `a\\` and read back right, and a command that
//! ends in a backslash is written with one trailing space, which the reader drops.
//!
//! The file is "metafied": the bytes zsh uses internally (NUL and `0x83`–`0xa2`) are
//! written as `0x83` followed by the byte XOR `0x20`, so `日` (`E6 97 A5`) is stored as
//! `E6 83 B7 A5`. The continuation and the prefix are found on the raw bytes (a
//! metafied pair never holds `\n`, `\` or a digit), and only the commands kept are
//! unmetafied and decoded.

use std::io::BufRead;

use jiff::Timestamp;
use report_model::Shell;

use super::scan::{Lines, Scan, append, decode, digits_len, parse_epoch};

/// zsh's `Meta` byte.
const META: u8 = 0x83;

/// How a line that starts an entry begins.
enum Start<'a> {
    /// `: <epoch>:<duration>;` and the command after it.
    Dated(i64, &'a [u8]),
    /// No time (the command is not needed: undated entries are only counted).
    Undated,
    /// It starts like an extended entry but is not one.
    Malformed,
}

fn start(line: &[u8]) -> Start<'_> {
    let Some(rest) = line.strip_prefix(b": ") else {
        return Start::Undated;
    };
    let (epoch, epoch_len) = leading_number(rest);
    if epoch_len == 0 {
        // Not an extended prefix: an old zsh wrote `: foo` unescaped.
        return Start::Undated;
    }
    let Some(epoch) = epoch else { return Start::Malformed };
    let Some(rest) = rest[epoch_len..].strip_prefix(b":") else { return Start::Malformed };
    let duration_len = digits_len(rest);
    match rest[duration_len..].strip_prefix(b";") {
        Some(command) if duration_len > 0 => Start::Dated(epoch, command),
        _ => Start::Malformed,
    }
}

/// The run of ASCII digits at the start of `bytes`: its value (`None` when it
/// overflows an `i64`) and its length, in one pass. Every line of a history starts with
/// one, so this is the reader's inner loop; a run too long to fit for certain goes
/// through [`parse_epoch`].
fn leading_number(bytes: &[u8]) -> (Option<i64>, usize) {
    /// Digits whose value always fits an `i64`.
    const SAFE: usize = 18;
    let mut value: i64 = 0;
    let mut len = 0;
    while let Some(&byte) = bytes.get(len) {
        if !byte.is_ascii_digit() {
            return (Some(value), len);
        }
        if len == SAFE {
            let len = digits_len(bytes);
            return (parse_epoch(&bytes[..len]), len);
        }
        value = value * 10 + i64::from(byte - b'0');
        len += 1;
    }
    (Some(value), len)
}

/// Whether a line starts with zsh's extended prefix `: <epoch>:<duration>;`.
pub(super) fn is_extended(line: &[u8]) -> bool {
    matches!(start(line), Start::Dated(..))
}

/// What the entry being read continues into.
enum Open {
    /// A command kept for the output; its bytes so far are in the entry buffer.
    Keep(Timestamp),
    /// An entry that is counted (or reported) but not kept.
    Skip,
}

/// Reads a zsh history, keeping the commands started at or after `since`.
pub(super) fn parse<R: BufRead>(reader: R, since: Timestamp) -> Scan {
    let mut lines = Lines::new(reader);
    let mut scan = Scan::default();
    let mut entry: Vec<u8> = Vec::new();
    // Whether the open command passed `ENTRY_MAX`, and whether its last line was kept.
    let mut truncated = false;
    let mut kept_line = false;
    let mut open: Option<Open> = None;
    let read = lines.for_each(|line_no, line| {
        let state = match open.take() {
            Some(state) => {
                if let Open::Keep(_) = state {
                    kept_line = append(&mut entry, line, &mut truncated);
                }
                state
            }
            None if line.is_empty() => return,
            None => match start(line) {
                Start::Malformed => {
                    scan.malformed_at(line_no);
                    Open::Skip
                }
                Start::Undated | Start::Dated(0, _) => {
                    // zsh itself reads a zero start time as "unknown".
                    scan.undated_entry();
                    Open::Skip
                }
                Start::Dated(epoch, command) => match Timestamp::from_second(epoch) {
                    Err(_) => {
                        scan.malformed_at(line_no);
                        Open::Skip
                    }
                    Ok(time) => {
                        scan.entries += 1;
                        scan.dated_entry(time);
                        if time >= since {
                            entry.clear();
                            truncated = false;
                            kept_line = append(&mut entry, command, &mut truncated);
                            Open::Keep(time)
                        } else {
                            Open::Skip
                        }
                    }
                },
            },
        };
        if line.last() == Some(&b'\\') {
            if let Open::Keep(_) = state {
                if kept_line {
                    // The backslash stands for the newline.
                    entry.pop();
                    entry.push(b'\n');
                }
            }
            open = Some(state);
        } else if let Open::Keep(time) = state {
            finish(&mut scan, &mut entry, time, truncated);
        }
    });
    if let Err(error) = read {
        scan.error = Some(error);
    }
    // A continuation at the end of the file (or where a read failed) ends the entry, as
    // in zsh.
    if let Some(Open::Keep(time)) = open {
        finish(&mut scan, &mut entry, time, truncated);
    }
    lines.finish(&mut scan);
    scan
}

fn finish(scan: &mut Scan, entry: &mut Vec<u8>, time: Timestamp, truncated: bool) {
    // zsh writes a space after a command ending in backslashes (and spaces) so that it
    // does not read as continued, and drops it again on reading.
    if entry.last() == Some(&b' ') {
        let spaces = entry.iter().rev().take_while(|&&byte| byte == b' ').count();
        if entry.len() > spaces && entry[entry.len() - spaces - 1] == b'\\' {
            entry.pop();
        }
    }
    let command = decode(unmetafy(entry));
    scan.push_entry(Shell::Zsh, time, command, truncated);
}

/// Undoes zsh's metafication: `0x83` is dropped and the byte after it XORed with
/// `0x20`. A trailing `0x83` with nothing after it is dropped.
pub(super) fn unmetafy(raw: &[u8]) -> Vec<u8> {
    if !raw.contains(&META) {
        return raw.to_vec();
    }
    let mut bytes = Vec::with_capacity(raw.len());
    let mut iter = raw.iter();
    while let Some(&byte) = iter.next() {
        if byte == META {
            if let Some(&next) = iter.next() {
                bytes.push(next ^ 0x20);
            }
        } else {
            bytes.push(byte);
        }
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commands(input: &[u8]) -> Vec<String> {
        parse(input, Timestamp::UNIX_EPOCH).events.into_iter().map(|event| event.command).collect()
    }

    #[test]
    fn unmetafies_cjk_and_polish() {
        assert_eq!(unmetafy(b"\xe6\x83\xb7\xa5"), "日".as_bytes());
        assert_eq!(unmetafy(b"\xc4\x83\xb9"), "ę".as_bytes());
        assert_eq!(unmetafy(b"plain"), b"plain");
        assert_eq!(unmetafy(b"end\x83"), b"end");
    }

    #[test]
    fn double_backslash_at_line_end_still_continues() {
        // The command `echo a\<newline>b` (a backslash before the newline) is written
        // `echo a\\` + newline + `b`.
        assert_eq!(commands(b": 1:0;echo a\\\\\nb\n"), ["echo a\\\nb"]);
    }

    #[test]
    fn trailing_backslash_space_is_dropped_once() {
        assert_eq!(commands(b": 1:0;echo \\ \n: 2:0;echo \\  \n"), ["echo \\", "echo \\ "]);
    }

    #[test]
    fn escaped_colon_and_zero_time_are_undated() {
        let scan = parse(&b"\\:not extended\n: 0:0;zero\n: 5:0;ok\n"[..], Timestamp::UNIX_EPOCH);
        assert_eq!((scan.entries, scan.undated, scan.malformed), (3, 2, 0));
    }

    #[test]
    fn malformed_prefixes_are_counted() {
        let scan = parse(
            &b": 12;x\n: 12:;x\n: 12:0x\n: 99999999999999999:0;x\n"[..],
            Timestamp::UNIX_EPOCH,
        );
        assert_eq!((scan.entries, scan.malformed, scan.first_malformed_line), (0, 4, Some(1)));
    }

    #[test]
    fn leading_numbers_at_the_edges_of_an_i64() {
        assert_eq!(leading_number(b""), (Some(0), 0));
        assert_eq!(leading_number(b":0;"), (Some(0), 0));
        assert_eq!(leading_number(b"1795737600:0;ls"), (Some(1_795_737_600), 10));
        assert_eq!(leading_number(b"999999999999999999"), (Some(999_999_999_999_999_999), 18));
        assert_eq!(leading_number(b"9223372036854775807:"), (Some(i64::MAX), 19));
        assert_eq!(leading_number(b"9223372036854775808:"), (None, 19));
        assert_eq!(leading_number(b"00000000000000000000000042;"), (Some(42), 26));
    }

    proptest::proptest! {
        /// The one-pass parse of a line's leading number says what the run's length
        /// and `parse_epoch` of it say.
        #[test]
        fn leading_number_is_digits_len_and_parse_epoch(
            digits in proptest::collection::vec(proptest::sample::select(b"0123456789".to_vec()), 0..24),
            tail in proptest::collection::vec(proptest::sample::select(b":;a 9".to_vec()), 0..4),
        ) {
            let bytes = [digits.as_slice(), tail.as_slice()].concat();
            let len = digits_len(&bytes);
            let expected = if len == 0 { Some(0) } else { parse_epoch(&bytes[..len]) };
            proptest::prop_assert_eq!(leading_number(&bytes), (expected, len));
        }
    }
}
