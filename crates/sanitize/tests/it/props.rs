use std::borrow::Cow;

use proptest::char;
use proptest::prelude::*;
use sanitize::{cap, clean};

use crate::is_forbidden;
use crate::markdown::{check_code_span, check_escape_text};

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

/// Text nothing should touch: ASCII, accents, CJK, kana, emoji (without ZWJ), tabs and
/// newlines.
fn ordinary() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        char::range(' ', '~'),
        Just('\n'),
        Just('\t'),
        char::range('\u{c0}', '\u{ff}'),
        char::range('\u{4e00}', '\u{9fff}'),
        char::range('\u{3040}', '\u{30ff}'),
        char::range('\u{1f300}', '\u{1f64f}'),
        Just('\u{fe0f}'),
        Just('\u{1f3fd}'),
    ];
    prop::collection::vec(piece, 0..80).prop_map(|chars| chars.into_iter().collect())
}

proptest! {
    #[test]
    fn clean_is_idempotent_and_complete(text in prop_oneof![hostile(), any::<String>()]) {
        let once = clean(&text);
        prop_assert!(!once.chars().any(is_forbidden), "{:?} left {:?}", text, once);
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
