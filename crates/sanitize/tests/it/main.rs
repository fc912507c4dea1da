//! Integration tests of `sanitize`'s public API.

mod cap;
mod clean;
mod markdown;
mod props;
mod tables;

use std::sync::LazyLock;

use regex::Regex;

/// `Default_Ignorable_Code_Point`, from the regex crate's Unicode data (not from the
/// implementation's table, so the tests check one against the other).
static IGNORABLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\p{Default_Ignorable_Code_Point}$").unwrap());
static PICTOGRAPH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\p{Extended_Pictographic}$").unwrap());

pub(crate) fn is_ignorable(c: char) -> bool {
    IGNORABLE.is_match(c.encode_utf8(&mut [0; 4]))
}

fn is_pictograph(c: char) -> bool {
    PICTOGRAPH.is_match(c.encode_utf8(&mut [0; 4]))
}

fn is_selector(c: char) -> bool {
    matches!(u32::from(c), 0xfe00..=0xfe0f | 0xe0100..=0xe01ef | 0x180b..=0x180d | 0x180f)
}

/// Every character `clean` must remove wherever it is, written out from the
/// specification: controls, bidi controls, interlinear annotation controls and every
/// `Default_Ignorable_Code_Point` but the joiner and the variation selectors.
pub(crate) fn is_forbidden(c: char) -> bool {
    let code = u32::from(c);
    (code < 0x20 && c != '\n' && c != '\t')
        || (0x7f..=0x9f).contains(&code)
        || (0x202a..=0x202e).contains(&code)
        || (0x2066..=0x2069).contains(&code)
        || matches!(code, 0x200e | 0x200f | 0x061c)
        || (0xfff9..=0xfffb).contains(&code)
        || (is_ignorable(c) && c != '\u{200d}' && !is_selector(c))
}

/// The first character of `cleaned` that should not be there: a forbidden one, a joiner
/// outside an emoji sequence, or a variation selector that does not directly follow a
/// visible non-ASCII symbol or an ideograph (or is not part of a keycap).
pub(crate) fn leftover(cleaned: &str) -> Option<char> {
    let chars: Vec<char> = cleaned.chars().collect();
    for (idx, &c) in chars.iter().enumerate() {
        let before = idx.checked_sub(1).map(|before| chars[before]);
        let after = chars.get(idx + 1).copied();
        let bad = if c == '\u{200d}' {
            !(before.is_some_and(|b| {
                is_pictograph(b) || b == '\u{fe0f}' || ('\u{1f3fb}'..='\u{1f3ff}').contains(&b)
            }) && after.is_some_and(is_pictograph))
        } else if is_selector(c) {
            let keycap = matches!(c, '\u{fe0e}' | '\u{fe0f}')
                && before.is_some_and(|b| matches!(b, '0'..='9' | '#' | '*'))
                && after == Some('\u{20e3}');
            let symbol = before.is_some_and(|b| {
                !is_ignorable(b)
                    && !b.is_whitespace()
                    && !b.is_ascii()
                    && !b.is_alphanumeric()
                    && !('\u{ff00}'..='\u{ffef}').contains(&b)
            });
            // Unicode's `Ideographic` (PropList.txt): CJK, and the Tangut, Khitan and
            // Nüshu ideographs and the few ideographic symbols beside them.
            let ideographic = before.is_some_and(|b| {
                ('\u{3400}'..='\u{4dbf}').contains(&b)
                    || ('\u{4e00}'..='\u{9fff}').contains(&b)
                    || ('\u{20000}'..='\u{323af}').contains(&b)
                    || ('\u{f900}'..='\u{fad9}').contains(&b)
                    || ('\u{3006}'..='\u{3007}').contains(&b)
                    || ('\u{3021}'..='\u{3029}').contains(&b)
                    || ('\u{3038}'..='\u{303a}').contains(&b)
                    || b == '\u{16fe4}'
                    || ('\u{17000}'..='\u{187f7}').contains(&b)
                    || ('\u{18800}'..='\u{18cd5}').contains(&b)
                    || ('\u{18cff}'..='\u{18d08}').contains(&b)
                    || ('\u{1b170}'..='\u{1b2fb}').contains(&b)
            });
            let mongolian = before.is_some_and(|b| ('\u{1820}'..='\u{18aa}').contains(&b));
            !match u32::from(c) {
                0xfe00..=0xfe0f => keycap || symbol || ideographic,
                0xe0100..=0xe01ef => ideographic,
                _ => mongolian,
            }
        } else {
            is_forbidden(c)
        };
        if bad {
            return Some(c);
        }
    }
    None
}
