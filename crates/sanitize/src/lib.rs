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
//! | every other `Default_Ignorable_Code_Point` | zero-width characters U+200B–U+200D, U+2060–U+206F (invisible operators included), U+FEFF, the soft hyphen U+00AD, U+034F, U+180E, the Hangul fillers, tags U+E0000–U+E007F and the rest of U+E0000–U+E0FFF, … |
//! | interlinear annotation controls | U+FFF9–U+FFFB |
//!
//! `Default_Ignorable_Code_Point` comes from the Unicode data (`DerivedCoreProperties.txt`,
//! Unicode 16.0.0, see `src/unicode_tables.rs`), not from a hand-made list. Two kinds are
//! kept where they do visible work:
//!
//! - a zero-width joiner (U+200D) inside an emoji sequence: right after a pictograph
//!   (`Extended_Pictographic`), a skin-tone modifier or U+FE0F, and right before a
//!   pictograph (`👨‍💻` stays one glyph);
//! - one variation selector right after a character that takes one: U+FE00–U+FE0F after
//!   a visible non-ASCII symbol or an ideograph (`❤️`, `∩︀`), U+FE0E and U+FE0F in a keycap
//!   (`1️⃣`: a digit, `#` or `*`, the selector, U+20E3), U+E0100–U+E01EF after an
//!   ideograph, the Mongolian free variation selectors after a Mongolian letter. A
//!   second selector in a row, which is how text is smuggled in selectors, is removed,
//!   and so is every selector after a letter or digit of any script (ASCII, full-width,
//!   Cyrillic, …), where it would split a token that secret redaction must see whole.
//!
//! A sequence that is still open at the end of the string (an OSC without its
//! terminator, say) is removed up to the end of the string, never passed through. An
//! `ESC` inside an OSC or DCS string that does not form `ESC \` ends the string and starts
//! a new sequence, as in xterm. The output contains none of the characters above (save
//! the joiners and selectors it keeps, which it would keep again), so `clean` is
//! idempotent.
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
#[rustfmt::skip]
mod unicode_tables;

pub use unicode_tables::UNICODE_VERSION;

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
        Some(start) => {
            let cleaned = clean_from(text, start);
            // Only characters are ever removed: the same length means nothing was.
            if cleaned.len() == text.len() { Cow::Borrowed(text) } else { Cow::Owned(cleaned) }
        }
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

/// The zero-width joiner, kept inside emoji sequences.
const ZWJ: char = '\u{200d}';

/// Whether `c` is in `table` (sorted, disjoint, inclusive ranges).
fn in_table(table: &[(char, char)], c: char) -> bool {
    table
        .binary_search_by(|&(start, end)| {
            if end < c {
                std::cmp::Ordering::Less
            } else if start > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Whether `c` is a variation selector (standardized, ideographic or Mongolian).
fn is_variation_selector(c: char) -> bool {
    matches!(c, '\u{fe00}'..='\u{fe0f}' | '\u{e0100}'..='\u{e01ef}' | '\u{180b}'..='\u{180d}' | '\u{180f}')
}

/// Whether `c` is removed wherever it appears outside a sequence, except for the joiner
/// and the variation selectors (default-ignorable too), which [`clean`] keeps back where
/// they do visible work.
fn is_removed(c: char) -> bool {
    if c < '\u{ad}' {
        return matches!(c, '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}');
    }
    matches!(c, '\u{fff9}'..='\u{fffb}')
        || in_table(unicode_tables::DEFAULT_IGNORABLE_CODE_POINT, c)
}

/// The first byte of the UTF-8 encoding of `code`.
const fn utf8_lead(code: u32) -> usize {
    (if code < 0x80 {
        code
    } else if code < 0x800 {
        0xc0 | (code >> 6)
    } else if code < 0x1_0000 {
        0xe0 | (code >> 12)
    } else {
        0xf0 | (code >> 18)
    }) as usize
}

/// Bytes that may start something [`clean`] removes: C0 controls other than tab and
/// newline, DEL, and the UTF-8 lead bytes of the removed non-ASCII characters, worked
/// out from the tables.
const SUSPECT: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = byte != b'\n' as usize && byte != b'\t' as usize;
        byte += 1;
    }
    table[0x7f] = true;
    // C1 controls and U+FFF9–U+FFFB.
    table[utf8_lead(0x80)] = true;
    table[utf8_lead(0xfff9)] = true;
    let ignorable = unicode_tables::DEFAULT_IGNORABLE_CODE_POINT;
    let mut idx = 0;
    while idx < ignorable.len() {
        let mut code = ignorable[idx].0 as u32;
        while code <= ignorable[idx].1 as u32 {
            table[utf8_lead(code)] = true;
            code += 1;
        }
        idx += 1;
    }
    table
};

/// The byte offset of the first character that [`clean`] might remove, if any.
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

/// Whether a joiner between `before` (the last character kept) and `after` (the next
/// character) joins an emoji sequence.
fn joins_emoji(before: Option<char>, after: Option<char>) -> bool {
    let pictograph = |c: char| in_table(unicode_tables::EXTENDED_PICTOGRAPHIC, c);
    before.is_some_and(|c| {
        pictograph(c) || c == '\u{fe0f}' || ('\u{1f3fb}'..='\u{1f3ff}').contains(&c)
    }) && after.is_some_and(pictograph)
}

/// Whether the variation selector `selector` may follow `before`, the last character
/// kept, with `after` next.
///
/// Never after a letter or digit that a token could be made of (ASCII, full-width forms,
/// any alphabetic script): a selector there would split a token in two for the secret
/// rules, which match the full-width and look-alike letters too.
fn takes_selector(before: Option<char>, selector: char, after: Option<char>) -> bool {
    let Some(base) = before else { return false };
    // A removed base here is a selector or joiner kept just before; controls other
    // than tab and newline never get this far.
    if is_removed(base) || base.is_whitespace() {
        return false;
    }
    let ideograph = in_table(unicode_tables::IDEOGRAPHIC, base);
    match selector {
        // Keycaps: `1`, U+FE0F, U+20E3.
        '\u{fe0e}' | '\u{fe0f}' if matches!(base, '0'..='9' | '#' | '*') => {
            after == Some('\u{20e3}')
        }
        '\u{fe00}'..='\u{fe0f}' => {
            ideograph
                || !(base.is_ascii()
                    || base.is_alphanumeric()
                    || ('\u{ff00}'..='\u{ffef}').contains(&base))
        }
        '\u{e0100}'..='\u{e01ef}' => ideograph,
        _ => ('\u{1820}'..='\u{18aa}').contains(&base),
    }
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
    let mut chars = text[start..].chars().peekable();
    while let Some(c) = chars.next() {
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
                let before = cleaned.chars().next_back();
                let keep = if c == ZWJ {
                    joins_emoji(before, chars.peek().copied())
                } else if is_variation_selector(c) {
                    takes_selector(before, c, chars.peek().copied())
                } else {
                    !is_removed(c)
                };
                if keep {
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
