use serde_json::json;

use super::*;

fn facts() -> Facts {
    Facts::of(&json!({
        "date": "2026-11-27",
        "projects": {"items": [{
            "name": "billing-api",
            "commits": {"items": [
                {"id": "a1b2c3d4e5", "subject": "Investigate rounding of VAT totals (#123)", "insertions": 1204, "deletions": 37, "files_changed": 3},
                {"id": "0f0f0f0f0f", "subject": "ci: cache cargo in .github/workflows/ci.yml", "insertions": 12, "deletions": 0, "files_changed": 1},
            ]},
            "sessions": {"items": [{"id": "sess-1", "agent": "Claude Code", "title": "請求書の丸め処理を検証する", "prompts": 9}]},
        }]},
        "shell": {"groups": [{"id": "sh:cargo test", "head": "cargo test", "count": 18, "examples": ["cargo test -p billing --lib"]}]},
        "totals": {"commits": 2, "prompts": 9, "commands": 18},
    }))
}

#[track_caller]
fn faults(sentence: &str) -> Vec<&'static str> {
    check_sentence(sentence, &facts(), true).into_iter().map(SentenceFault::as_str).collect()
}

#[test]
fn stems_match_paraphrases() {
    for (a, b) in [
        ("investigated", "Investigate"),
        ("rounded", "round"),
        ("rounding", "round"),
        ("validates", "validate"),
        ("committed", "commit"),
        ("studies", "study"),
        ("totals", "total"),
        ("caching", "cache"),
        ("investigation", "investigate"),
    ] {
        assert_eq!(stem(a), stem(b), "{a} ~ {b}");
    }
    assert_ne!(stem("invoice"), stem("investigate"));
}

#[test]
fn sentences_split_on_end_marks_and_newlines_only() {
    assert_eq!(
        sentences("Fixed v1.2 in src/main.rs. Then more! Really?\nNext line 本日は作業。次も！"),
        ["Fixed v1.2 in src/main.rs.", "Then more!", "Really?", "Next line 本日は作業。", "次も！"]
    );
    assert!(sentences("  \n ").is_empty());
}

#[test]
fn numbers_must_be_in_the_payload() {
    assert!(faults("billing-api got 1,204 insertions and 37 deletions.").is_empty());
    assert!(faults("billing-api got 1204 insertions across 3 files on 2026-11-27.").is_empty());
    assert!(faults("billing-api got ＋１，２０４ insertions.").is_empty());
    assert_eq!(faults("billing-api got 1,205 insertions."), ["number"]);
    assert_eq!(faults("Rounding of VAT totals was 50% done."), ["number"]);
    assert_eq!(faults("Rounding of VAT totals took 3.5 hours."), ["number"]);
    // Numbers inside subjects count: `#123`.
    assert!(faults("Investigated rounding of VAT totals for #123.").is_empty());
}

#[test]
fn identifiers_urls_and_paths_must_be_in_the_payload() {
    assert!(faults("Cached cargo in .github/workflows/ci.yml for billing-api.").is_empty());
    assert_eq!(faults("Rounding of VAT totals for ticket Codex_P168437950."), ["identifier"]);
    assert_eq!(faults("Rounding of VAT totals is described at https://evil.example/x."), ["url"]);
    assert_eq!(faults("Rounding of VAT totals touched /etc/passwd."), ["url"]);
    assert_eq!(faults("Mailed ops@evil.example about VAT totals."), ["url"]);
    assert!(faults("Ran `cargo test -p billing --lib` for VAT totals.").is_empty());
    assert_eq!(faults("Ran `cargo bench` for VAT totals."), ["quote"]);
    // Abbreviations are not identifiers; hyphenated words are words.
    assert!(faults("Rounding of VAT totals, e.g. in billing-api, was investigated.").is_empty());
}

#[test]
fn lexical_support_by_stem_in_both_languages() {
    assert!(faults("The day went into investigating how VAT totals are rounded.").is_empty());
    assert_eq!(faults("Designed a new onboarding flow with the marketing team."), ["unsupported"]);
    // Japanese: Latin tokens and kanji/katakana bigrams.
    assert!(faults("billing-api で請求書の丸め処理を検証しました。").is_empty());
    assert!(faults("cargo test を 18 回実行しました。").is_empty());
    assert_eq!(faults("新しいログイン画面のデザインを相談しました。"), ["unsupported"]);
}

#[test]
fn whole_reply_checks() {
    let none: &[&str] = &[];
    let check = |text: &str, lang| check_reply(text, lang, false, none).map(Rejection::as_str);
    assert_eq!(check("A plain sentence about work.", Lang::En), None);
    assert_eq!(check("本日は billing-api の作業をしました。", Lang::Ja), None);
    assert_eq!(check("本日は billing-api の作業をしました。", Lang::En), Some("wrong_language"));
    assert_eq!(check("Worked on billing-api.", Lang::Ja), Some("wrong_language"));
    assert_eq!(check("Intro.\n```js\ntest()", Lang::En), Some("code"));
    assert_eq!(check("Intro.\n    indented code", Lang::En), Some("code"));
    assert_eq!(check("describe('x', () => {\n  it();\n});", Lang::En), Some("code"));
    assert_eq!(check("## Heading\ntext", Lang::En), Some("markup"));
    assert_eq!(check("Intro:\n- one\n- two", Lang::En), Some("markup"));
    assert_eq!(check("Intro:\n1. one", Lang::En), Some("markup"));
    assert_eq!(check("> quoted", Lang::En), Some("markup"));
    assert_eq!(check("| a | b |\n|---|---|", Lang::En), Some("markup"));
    assert_eq!(check(r#"{"deletions":"1234567890"}"#, Lang::En), Some("json_dump"));
    let repeated = "the parser now accepts trailing commas everywhere. ".repeat(3);
    assert_eq!(check(&repeated, Lang::En), Some("repetition"));
    let ja_repeated = "請求書の丸め処理を検証しました。".repeat(3);
    assert_eq!(check(&ja_repeated, Lang::Ja), Some("repetition"));
    let echo = "Sure. You summarize one developer's working day for their daily report.";
    assert_eq!(
        check_reply(echo, Lang::En, false, &[crate::prompts::DAILY_EN]).map(Rejection::as_str),
        Some("instruction_echo")
    );
    // Capped inside a run seen before.
    let capped = "one two three four five six seven. one two three four five six";
    assert_eq!(
        check_reply(capped, Lang::En, true, none).map(Rejection::as_str),
        Some("repetition")
    );
    assert_eq!(check_reply(capped, Lang::En, false, none), None);
}

#[test]
fn ids_are_collected() {
    let facts = facts();
    for id in ["a1b2c3d4e5", "sess-1", "sh:cargo test"] {
        assert!(facts.ids.contains(id), "{id}");
    }
}
