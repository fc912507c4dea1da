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

#[test]
fn a_transcript_name_is_told_from_its_bytes_as_a_path_would_tell_it() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt as _;
    use std::path::Path;
    let names: [&[u8]; 9] = [
        b"a.jsonl",
        b".jsonl",
        b"..jsonl",
        b"a.b.jsonl",
        b"a.json",
        b"jsonl",
        b"a.jsonl.bak",
        b"agent-1.jsonl",
        b"caf\xe9.jsonl",
    ];
    for name in names {
        let name = Path::new(OsStr::from_bytes(name));
        let by_path = super::has_extension(name, "jsonl").then(|| super::file_stem(name)).flatten();
        assert_eq!(super::jsonl_stem(name), by_path, "{}", name.display());
    }
    assert_eq!(super::jsonl_stem(Path::new("a.jsonl")).as_deref(), Some("a"));
}

#[test]
fn a_rollout_name_is_told_from_its_bytes_as_a_path_would_tell_it() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt as _;
    use std::path::Path;
    let names: [&[u8]; 9] = [
        b"rollout-2026-11-27T09-00-00-0.jsonl",
        b"rollout-.jsonl",
        b"rollout-a.json",
        b"rollout-a.jsonl.bak",
        b"rollout-a.JSONL",
        b"Rollout-a.jsonl",
        b"x-rollout-a.jsonl",
        b"rollout-caf\xe9.jsonl",
        b"rollout.jsonl",
    ];
    for name in names {
        let path = Path::new(OsStr::from_bytes(name));
        let by_path =
            super::has_extension(path, "jsonl") && super::name_starts_with(path, "rollout-");
        assert_eq!(super::codex::is_rollout_name(name), by_path, "{}", path.display());
    }
    assert!(super::codex::is_rollout_name(b"rollout-1.jsonl"));
}
