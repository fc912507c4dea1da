#![doc = include_str!("../README.md")]
#![doc = ""]
//! Cleans untrusted text before anyone sees it: terminal escape sequences, control,
//! bidi and invisible characters, over-long strings and Markdown-active payloads.
//!
//! Owns [`clean`] (what may never reach a terminal or a renderer), [`cap`] (how long one
//! string may be) and [`markdown`] (how untrusted text goes into a Markdown document).
//! Never knows about reports, never does I/O, never allocates when there is nothing to
//! change, and never panics, whatever the input.
//!
//! # What `clean` removes
//!
//! | what | forms |
//! |---|---|
//! | CSI sequences (colours, cursor moves, …) | `ESC [` and the 8-bit U+009B, through the final byte |
//! | OSC sequences (window titles, OSC 8 hyperlinks, OSC 52 clipboard writes) | `ESC ]` and U+009D, through BEL, `ESC \` or U+009C |
//! | DCS, SOS, PM and APC strings | `ESC P`, `ESC X`, `ESC ^`, `ESC _` and U+0090, U+0098, U+009E, U+009F, through `ESC \` or U+009C |
//! | other escape sequences | `ESC` with its intermediate and final bytes (`ESC ( B`, `ESC 7`, `ESC c`) |
//! | C1 controls | U+0080–U+009F |
//! | C0 controls and DEL | everything below U+0020 except newline and tab, and U+007F; CR goes, so CRLF becomes LF |
//! | bidi controls | U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C |
//! | zero-width and invisible characters | U+200B–U+200D, U+2060, U+FEFF, tags U+E0000–U+E007F |
//!
//! A sequence that is still open at the end of the string (an OSC without its
//! terminator, say) is removed up to the end of the string, never passed through. An
//! `ESC` inside an OSC or DCS string that does not form `ESC \` ends the string and starts
//! a new sequence, as in xterm. The output contains none of the characters above, so
//! `clean` is idempotent.
//!
//! # Order of operations
//!
//! `clean` first (nothing after it sees a control character), then secret redaction,
//! then [`cap`] (so a secret is masked before it could be cut in half), then
//! [`markdown`] at render time.
//!
//! ```
//! let dirty = "\u{1b}[31mred\u{1b}[0m \u{1b}]8;;https://evil.example\u{7}link\u{1b}]8;;\u{7}\r\n";
//! assert_eq!(sanitize::clean(dirty), "red link\n");
//! let (capped, shortened) = sanitize::cap("a very long commit subject", 10);
//! assert_eq!((capped.as_ref(), shortened), ("a very lo…", true));
//! ```

use std::borrow::Cow;

pub mod markdown;

/// The default length cap, in characters, for one string from a source.
pub const DEFAULT_MAX_CHARS: usize = 500;

/// The marker [`cap`] puts at the end of a shortened string.
const ELLIPSIS: char = '…';

/// Removes terminal escape sequences, control, bidi and invisible characters.
///
/// See the [crate documentation](crate) for the full list. Returns
/// [`Cow::Borrowed`] without allocating when there is nothing to remove.
pub fn clean(text: &str) -> Cow<'_, str> {
    match first_suspect(text) {
        None => Cow::Borrowed(text),
        Some(start) => Cow::Owned(clean_from(text, start)),
    }
}

/// Caps `text` at `max_chars` characters (Unicode scalar values), the `…` marker
/// included, and says whether it was shortened.
///
/// A shortened string keeps its first `max_chars - 1` characters and ends with `…`, so the
/// reader sees that something was cut. `max_chars == 0` gives an empty string (and `true`
/// when `text` was not empty). The cut is on a character boundary but may split a
/// grapheme cluster (an accent from its letter, an emoji sequence).
///
/// Apply it **after** secret redaction: capping first could cut a secret in half and
/// leave a prefix that no longer looks like a secret, so it would never be masked.
pub fn cap(text: &str, max_chars: usize) -> (Cow<'_, str>, bool) {
    // A string is never longer in characters than in bytes.
    if text.len() <= max_chars {
        return (Cow::Borrowed(text), false);
    }
    if text.char_indices().nth(max_chars).is_none() {
        return (Cow::Borrowed(text), false);
    }
    let Some(keep) = max_chars.checked_sub(1) else {
        return (Cow::Borrowed(""), true);
    };
    // `text` has more than `max_chars` characters, so character number `keep` exists.
    let cut = text.char_indices().nth(keep).map_or(text.len(), |(idx, _)| idx);
    let mut capped = String::with_capacity(cut + ELLIPSIS.len_utf8());
    capped.push_str(&text[..cut]);
    capped.push(ELLIPSIS);
    (Cow::Owned(capped), true)
}

/// Whether `c` is removed wherever it appears outside a sequence.
fn is_removed(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        | '\u{61c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
        | '\u{2060}' | '\u{2066}'..='\u{2069}' | '\u{feff}'
        | '\u{e0000}'..='\u{e007f}'
    )
}

/// Bytes that may start something [`clean`] removes: C0 controls other than tab and
/// newline, DEL, and the UTF-8 lead bytes of the blocks that hold the removed non-ASCII
/// characters (U+0080–U+00BF, U+0600–U+063F, U+2000–U+2FFF, U+F000–U+FFFF,
/// U+C0000–U+FFFFF).
const SUSPECT: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = byte != b'\n' as usize && byte != b'\t' as usize;
        byte += 1;
    }
    table[0x7f] = true;
    table[0xc2] = true;
    table[0xd8] = true;
    table[0xe2] = true;
    table[0xef] = true;
    table[0xf3] = true;
    table
};

/// The byte offset of the first character that [`clean`] would remove, if any.
fn first_suspect(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut idx = 0;
    while idx < bytes.len() {
        let byte = bytes[idx];
        if SUSPECT[usize::from(byte)] {
            if byte.is_ascii() {
                return Some(idx);
            }
            // A suspect lead byte: decode the character to decide.
            if text[idx..].chars().next().is_some_and(is_removed) {
                return Some(idx);
            }
        }
        idx += 1;
    }
    None
}

/// Where the cleaner is inside an escape sequence.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// Ordinary text.
    Ground,
    /// Just after `ESC`.
    Escape,
    /// After `ESC` and one or more intermediate bytes (0x20–0x2F).
    EscapeIntermediate,
    /// In a CSI sequence, reading parameter bytes (0x30–0x3F).
    CsiParam,
    /// In a CSI sequence, reading intermediate bytes (0x20–0x2F).
    CsiIntermediate,
    /// In an OSC (`osc == true`, which BEL also ends) or a DCS, SOS, PM or APC string.
    Str { osc: bool },
    /// After an `ESC` inside such a string.
    StrEscape,
}

/// The slow path of [`clean`]: everything before `start` is known to be clean.
fn clean_from(text: &str, start: usize) -> String {
    let mut cleaned = String::with_capacity(text.len());
    cleaned.push_str(&text[..start]);
    let mut state = State::Ground;
    for c in text[start..].chars() {
        // A character that ends a malformed sequence is looked at again as the start of
        // what follows (`StrEscape` -> `Escape` -> `Ground`), so this loop runs at most
        // three times.
        loop {
            let was_ground = state == State::Ground;
            let (next, consumed) = step(state, c);
            state = next;
            if consumed {
                break;
            }
            if was_ground {
                if !is_removed(c) {
                    cleaned.push(c);
                }
                break;
            }
        }
    }
    // Whatever sequence is still open at the end is dropped with everything in it.
    cleaned
}

/// One step of the state machine: the next state and whether `c` was used up. When it
/// was not, the caller feeds `c` again in the new state; in `Ground`, an unused `c` is
/// kept unless it is one of the removed characters.
fn step(state: State, c: char) -> (State, bool) {
    let code = u32::from(c);
    match state {
        State::Ground => match c {
            '\u{1b}' => (State::Escape, true),
            '\u{9b}' => (State::CsiParam, true),
            '\u{9d}' => (State::Str { osc: true }, true),
            '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => (State::Str { osc: false }, true),
            _ => (State::Ground, false),
        },
        State::Escape => match c {
            '[' => (State::CsiParam, true),
            ']' => (State::Str { osc: true }, true),
            'P' | 'X' | '^' | '_' => (State::Str { osc: false }, true),
            '\u{1b}' => (State::Escape, true),
            _ if (0x20..=0x2f).contains(&code) => (State::EscapeIntermediate, true),
            _ if (0x30..=0x7e).contains(&code) => (State::Ground, true),
            // Not an escape sequence after all: drop the ESC, keep looking at `c`.
            _ => (State::Ground, false),
        },
        State::EscapeIntermediate => match code {
            0x20..=0x2f => (State::EscapeIntermediate, true),
            0x30..=0x7e => (State::Ground, true),
            _ => (State::Ground, false),
        },
        State::CsiParam => match code {
            0x30..=0x3f => (State::CsiParam, true),
            0x20..=0x2f => (State::CsiIntermediate, true),
            0x40..=0x7e => (State::Ground, true),
            _ => (State::Ground, false),
        },
        State::CsiIntermediate => match code {
            0x20..=0x2f => (State::CsiIntermediate, true),
            0x40..=0x7e => (State::Ground, true),
            _ => (State::Ground, false),
        },
        State::Str { osc } => match c {
            '\u{7}' if osc => (State::Ground, true),
            '\u{9c}' => (State::Ground, true),
            '\u{1b}' => (State::StrEscape, true),
            _ => (State::Str { osc }, true),
        },
        State::StrEscape => match c {
            '\\' => (State::Ground, true),
            // Any other ESC aborts the string and starts a new sequence (xterm does the
            // same); `c` is then read as the byte after that ESC.
            _ => (State::Escape, false),
        },
    }
}

#[cfg(test)]
mod tests;
