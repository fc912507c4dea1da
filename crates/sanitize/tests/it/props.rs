use std::borrow::Cow;

use proptest::char;
use proptest::prelude::*;
use sanitize::{cap, clean};

use crate::markdown::{check_code_span, check_escape_text};
use crate::{is_ignorable, leftover};

/// Strings made mostly of the characters that start, end or hide sequences.
fn hostile() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just('\u{1b}'),
        Just('['),
        Just(']'),
        Just('P'),
        Just('X'),
        Just('^'),
        Just('_'),
        Just('\\'),
        Just('\u{7}'),
        Just(';'),
        Just('\r'),
        Just('\n'),
        Just('\t'),
        Just('\u{202e}'),
        Just('\u{2066}'),
        Just('\u{200d}'),
        Just('\u{feff}'),
        Just('\u{e0041}'),
        char::range('\u{80}', '\u{9f}'),
        char::range('0', '9'),
        char::range('a', 'z'),
        char::range(' ', '~'),
        any::<char>(),
    ];
    prop::collection::vec(piece, 0..80).prop_map(|chars| chars.into_iter().collect())
}

/// Text nothing should touch: ASCII, accents, CJK, kana, emoji (with a skin tone or a
/// presentation selector, and joined by ZWJ), tabs and newlines.
fn ordinary() -> impl Strategy<Value = String> {
    let emoji = (
        char::range('\u{1f300}', '\u{1f64f}'),
        prop_oneof![Just(""), Just("\u{fe0f}"), Just("\u{1f3fd}")],
    )
        .prop_map(|(c, after)| format!("{c}{after}"));
    let piece = prop_oneof![
        char::range(' ', '~').prop_map(String::from),
        Just("\n".to_owned()),
        Just("\t".to_owned()),
        char::range('\u{c0}', '\u{ff}').prop_map(String::from),
        char::range('\u{4e00}', '\u{9fff}').prop_map(String::from),
        char::range('\u{3040}', '\u{30ff}').prop_map(String::from),
        emoji,
        // Emoticons are all pictographs, so a joiner between two of them joins.
        (char::range('\u{1f600}', '\u{1f64f}'), char::range('\u{1f600}', '\u{1f64f}'))
            .prop_map(|(a, b)| format!("{a}\u{200d}{b}")),
        Just("1\u{fe0f}\u{20e3}".to_owned()),
        Just("\u{845b}\u{e0100}".to_owned()),
        Just("\u{2229}\u{fe00}".to_owned()),
    ];
    prop::collection::vec(piece, 0..80).prop_map(|pieces| pieces.concat())
}

/// Ordinary text with invisible characters (or runs of them) put in between.
fn with_ignorables() -> impl Strategy<Value = String> {
    let invisible = prop_oneof![
        Just('\u{ad}'),
        Just('\u{34f}'),
        Just('\u{180e}'),
        Just('\u{200b}'),
        Just('\u{200d}'),
        Just('\u{2061}'),
        Just('\u{206a}'),
        Just('\u{3164}'),
        Just('\u{fe0f}'),
        Just('\u{ffa0}'),
        Just('\u{fff9}'),
        char::range('\u{fe00}', '\u{fe0f}'),
        char::range('\u{e0100}', '\u{e01ef}'),
        char::range('\u{e0000}', '\u{e0fff}'),
        any::<char>().prop_filter("ignorable", |&c| is_ignorable(c)),
    ];
    (
        ordinary(),
        prop::collection::vec(
            (any::<prop::sample::Index>(), prop::collection::vec(invisible, 1..12)),
            0..6,
        ),
    )
        .prop_map(|(text, inserts)| {
            let mut chars: Vec<char> = text.chars().collect();
            for (at, run) in inserts {
                let at = if chars.is_empty() { 0 } else { at.index(chars.len() + 1) };
                chars.splice(at..at, run);
            }
            chars.into_iter().collect()
        })
}

proptest! {
    #[test]
    fn clean_is_idempotent_and_complete(text in prop_oneof![hostile(), any::<String>(), with_ignorables()]) {
        let once = clean(&text);
        prop_assert_eq!(leftover(&once), None, "{:?} left {:?}", text, once);
        let twice = clean(&once);
        prop_assert_eq!(&twice, &once);
        prop_assert!(matches!(twice, Cow::Borrowed(_)));
    }

    #[test]
    fn clean_leaves_ordinary_text_alone(text in ordinary()) {
        let cleaned = clean(&text);
        prop_assert!(matches!(cleaned, Cow::Borrowed(_)));
        prop_assert_eq!(cleaned.as_bytes(), text.as_bytes());
    }

    #[test]
    fn selectors_never_come_in_runs(text in with_ignorables()) {
        let cleaned = clean(&text);
        let chars: Vec<char> = cleaned.chars().collect();
        for pair in chars.windows(2) {
            let selector = |c: char| matches!(u32::from(c), 0xfe00..=0xfe0f | 0xe0100..=0xe01ef);
            prop_assert!(!(selector(pair[0]) && selector(pair[1])), "{:?} became {:?}", text, cleaned);
        }
    }

    #[test]
    fn cap_respects_the_limit(text in prop_oneof![hostile(), ordinary(), any::<String>()], max_chars in 0usize..100) {
        let (capped, shortened) = cap(&text, max_chars);
        let n_chars = capped.chars().count();
        prop_assert!(n_chars <= max_chars);
        prop_assert_eq!(shortened, text.chars().count() > max_chars);
        if shortened {
            let kept = capped.strip_suffix('…').unwrap_or(&capped);
            prop_assert!(text.starts_with(kept));
            if max_chars > 0 {
                prop_assert_eq!(n_chars, max_chars);
                prop_assert!(capped.ends_with('…'));
            }
        } else {
            prop_assert_eq!(capped.as_ref(), text.as_str());
        }
    }

    #[test]
    fn markdown_stays_one_line_of_text(text in prop_oneof![hostile(), ordinary(), any::<String>()]) {
        let cleaned = clean(&text);
        check_code_span(&cleaned);
        check_escape_text(&cleaned);
    }
}
