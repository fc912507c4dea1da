use super::shorten_title;

#[test]
fn short_titles_only_lose_extra_whitespace() {
    assert_eq!(shorten_title("  Fix the\n\tparser  "), ("Fix the parser".to_owned(), false));
    let exactly = "x".repeat(80);
    assert_eq!(shorten_title(&exactly), (exactly.clone(), false));
}

#[test]
fn long_titles_are_cut_at_a_word_boundary() {
    let (title, truncated) = shorten_title(&"alpha beta gamma delta ".repeat(10));
    assert!(truncated);
    assert_eq!(
        title,
        "alpha beta gamma delta alpha beta gamma delta alpha beta gamma delta alpha beta…"
    );
    assert!(title.chars().count() <= 80);
}

#[test]
fn long_words_and_cjk_are_cut_hard() {
    let (title, truncated) = shorten_title(&"日本語".repeat(40));
    assert!(truncated);
    assert_eq!(title.chars().count(), 80);
    assert!(title.ends_with('…'));
}
