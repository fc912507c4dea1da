//! fish's history file.
//!
//! Nearly YAML, but not quite, so it is read by hand, as fish itself does
//! (`src/history/yaml_compat.rs`):
//!
//! ```text
//! - cmd: cargo test -p collect
//!   when: 1795774000
//!   paths:
//!     - crates/collect
//! ```
//!
//! In the command, `\\` is a backslash and `\n` a newline; any other backslash is kept
//! as it is. A block whose `when` is missing or not a number is malformed. Lines fish
//! itself skips (`%…`, `---`, `...`) are skipped; any other unindented line that is not
//! `- cmd:` is malformed.

use std::io::BufRead;

use jiff::Timestamp;
use report_model::Shell;

use super::scan::{Lines, Scan, decode, parse_epoch};

/// The `when` of the block being read.
enum When {
    Missing,
    Bad,
    At(Timestamp),
}

struct Block {
    first_line: u64,
    when: When,
}

/// Reads a fish history, keeping the commands run at or after `since`.
pub(super) fn parse<R: BufRead>(reader: R, since: Timestamp) -> Scan {
    let mut lines = Lines::new(reader);
    let mut scan = Scan::default();
    // The raw (still escaped) command of the open block, in one reused buffer: the time
    // comes after it, so whether it is kept is known only at the end of the block.
    let mut command: Vec<u8> = Vec::new();
    let mut block: Option<Block> = None;
    let read = lines.for_each(|line_no, line| {
        if let Some(rest) = line.strip_prefix(b"- cmd:") {
            finish(&mut scan, &command, block.take(), since);
            command.clear();
            command.extend_from_slice(trim_start(rest));
            block = Some(Block { first_line: line_no, when: When::Missing });
        } else if line.first() == Some(&b' ') {
            let Some(block) = block.as_mut() else { return };
            if let Some(value) = trim_start(line).strip_prefix(b"when:") {
                block.when = match parse_epoch(trim(value)).map(Timestamp::from_second) {
                    Some(Ok(time)) => When::At(time),
                    _ => When::Bad,
                };
            }
            // `paths:` and its `- <path>` items say which arguments were files; not
            // needed here.
        } else if !(line.is_empty()
            || line.starts_with(b"%")
            || line.starts_with(b"---")
            || line.starts_with(b"..."))
        {
            finish(&mut scan, &command, block.take(), since);
            scan.malformed_at(line_no);
        }
    });
    if let Err(error) = read {
        scan.error = Some(error);
    }
    finish(&mut scan, &command, block, since);
    lines.finish(&mut scan);
    scan
}

fn finish(scan: &mut Scan, command: &[u8], block: Option<Block>, since: Timestamp) {
    let Some(block) = block else { return };
    match block.when {
        When::At(time) => {
            scan.entries += 1;
            if time >= since {
                scan.push(Shell::Fish, time, decode(unescape(command)));
            }
        }
        When::Missing | When::Bad => scan.malformed_at(block.first_line),
    }
}

/// Undoes fish's escaping of a history command: `\\` → `\`, `\n` → newline.
fn unescape(raw: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(raw.len());
    let mut iter = raw.iter().peekable();
    while let Some(&byte) = iter.next() {
        if byte == b'\\' {
            match iter.peek() {
                Some(b'\\') => {
                    iter.next();
                    bytes.push(b'\\');
                    continue;
                }
                Some(b'n') => {
                    iter.next();
                    bytes.push(b'\n');
                    continue;
                }
                _ => {}
            }
        }
        bytes.push(byte);
    }
    bytes
}

fn trim_start(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().take_while(|byte| byte.is_ascii_whitespace()).count();
    &bytes[start..]
}

fn trim(bytes: &[u8]) -> &[u8] {
    let bytes = trim_start(bytes);
    let end =
        bytes.len() - bytes.iter().rev().take_while(|byte| byte.is_ascii_whitespace()).count();
    &bytes[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescapes_backslashes_and_newlines_only() {
        assert_eq!(unescape(br"a\\b\nc\td\"), b"a\\b\nc\\td\\");
        assert_eq!(unescape(br"\\n"), b"\\n");
    }

    #[test]
    fn a_stray_top_level_line_is_malformed_and_closes_the_block() {
        let scan = parse(&b"- cmd: ls\n  when: 5\ngarbage\n  when: 6\n"[..], Timestamp::UNIX_EPOCH);
        assert_eq!((scan.entries, scan.malformed, scan.first_malformed_line), (1, 1, Some(3)));
        assert_eq!(scan.events[0].time, Timestamp::from_second(5).unwrap());
    }

    #[test]
    fn the_yaml_markers_between_blocks_are_no_entries() {
        for marker in ["%YAML 1.2", "---", "..."] {
            let text = format!("- cmd: ls\n  when: 5\n{marker}\n- cmd: pwd\n  when: 6\n");
            let scan = parse(text.as_bytes(), Timestamp::UNIX_EPOCH);
            assert_eq!((scan.entries, scan.malformed), (2, 0), "{marker}");
        }
    }

    #[test]
    fn a_time_with_spaces_around_it_is_read() {
        let scan = parse(&b"- cmd: ls\n  when:   7   \n"[..], Timestamp::UNIX_EPOCH);
        assert_eq!((scan.entries, scan.malformed), (1, 0));
        assert_eq!(scan.events[0].time, Timestamp::from_second(7).unwrap());
        assert_eq!(trim(b"  "), b"");
    }
}
