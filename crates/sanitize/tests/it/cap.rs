use std::borrow::Cow;

use sanitize::{DEFAULT_MAX_CHARS, cap};

#[track_caller]
fn check(text: &str, max_chars: usize, expected: &str, shortened: bool) {
    let (capped, was_shortened) = cap(text, max_chars);
    assert_eq!(
        (capped.as_ref(), was_shortened),
        (expected, shortened),
        "cap({text:?}, {max_chars})"
    );
    assert!(capped.chars().count() <= max_chars);
}

#[test]
fn short_text_is_borrowed() {
    let text = "fits";
    let (capped, shortened) = cap(text, 4);
    assert!(matches!(capped, Cow::Borrowed("fits")));
    assert!(!shortened);
}

#[test]
fn counts_characters_not_bytes() {
    check("日本語テキスト", 7, "日本語テキスト", false);
    check("日本語テキスト", 6, "日本語テキ…", true);
    check("🎉🎉🎉", 2, "🎉…", true);
}

#[test]
fn marker_counts_toward_the_limit() {
    check("abcdef", 5, "abcd…", true);
    check("abcdef", 6, "abcdef", false);
    check("abcdef", 1, "…", true);
}

#[test]
fn zero_limit() {
    check("abc", 0, "", true);
    check("", 0, "", false);
}

#[test]
fn default_limit() {
    assert_eq!(DEFAULT_MAX_CHARS, 500);
    let long = "x".repeat(600);
    let (capped, shortened) = cap(&long, DEFAULT_MAX_CHARS);
    assert!(shortened);
    assert_eq!(capped.chars().count(), 500);
    assert!(capped.ends_with('…'));
}
