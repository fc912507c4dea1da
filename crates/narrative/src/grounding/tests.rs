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

// The documented rules of docs/decisions.md ("Narrative grounding"), each with inputs on both
// sides of its boundary.

fn faults_against(payload: &Value, sentence: &str, lexical: bool) -> Vec<&'static str> {
    check_sentence(sentence, &Facts::of(payload), lexical)
        .into_iter()
        .map(SentenceFault::as_str)
        .collect()
}

/// Only the number, identifier, URL and quote checks (as for a blocker).
#[track_caller]
fn strict_faults(sentence: &str) -> Vec<&'static str> {
    check_sentence(sentence, &facts(), false).into_iter().map(SentenceFault::as_str).collect()
}

#[test]
fn number_tokens_and_their_parts() {
    // Payload strings hold `1,204` with a comma and `3.5` as a decimal (at the very end).
    let payload = json!({
        "subject": "Import 1,204 rows",
        "note": "scores 2,.5",
        "values": [1, 2, 3, 5, 10, 30],
        "ratio": "ratio 3.5",
    });
    for (sentence, expected) in [
        // `1,204` is one number, in either spelling.
        ("Imported 1,204 rows.", &[][..]),
        ("Imported 1204 rows.", &[]),
        ("Imported 1,205 rows.", &["number"]),
        // Comma groups that are not thousands are a list of numbers.
        ("Scores were 1,2,3.", &[]),
        ("Scores were 10,30.", &[]),
        ("Scores were 10,31.", &["number"]),
        // A decimal in a payload string is a number as such; its digits are numbers too.
        ("The ratio was 3.5.", &[]),
        ("The ratio was 3.50.", &[]),
        ("The ratio was 5.3.", &["number"]),
        // A comma followed by no digit ends the number: `2,.5` holds 2 and 5, not 2.5.
        ("The score was 2.5.", &["number"]),
        // `1.2.3` is three numbers, a range its two ends.
        ("Released 1.2.3 today.", &[]),
        ("Took 2-3 tries.", &[]),
        ("Took 2-4 tries.", &["number"]),
        // Ordinals are their digits; other letters after digits make an identifier.
        ("On the 3rd try.", &[]),
        ("On the 4th try.", &["number"]),
        ("It is 3x faster.", &["identifier"]),
    ] {
        assert_eq!(faults_against(&payload, sentence, false), expected, "{sentence}");
    }
}

#[test]
fn paths_and_addresses_are_urls() {
    for (sentence, expected) in [
        ("Ran ./deploy.sh for billing-api.", &["url"][..]),
        ("Read ../secrets.txt for billing-api.", &["url"]),
        ("Read ~/notes.md for billing-api.", &["url"]),
        // Without a dot in the domain (or without a user) it is an identifier, not an address.
        ("Mailed ops@localhost about billing-api.", &["identifier"]),
        ("Mailed @evil.example about billing-api.", &["identifier"]),
        ("Mailed ops@evil.example about billing-api.", &["url"]),
    ] {
        assert_eq!(strict_faults(sentence), expected, "{sentence}");
    }
    // A lone slash is no path (there is none in the payload).
    let payload = json!({"subject": "Fixed VAT rounding and totals"});
    assert!(faults_against(&payload, "Fixed VAT rounding / totals.", false).is_empty());
    assert_eq!(faults_against(&payload, "Fixed VAT rounding /totals.", false), ["url"]);
    // A full-width path in the payload is the same path.
    let payload = json!({"subject": "Fixed VAT rounding and totals in ／etc／hosts"});
    assert!(faults_against(&payload, "Fixed VAT totals in /etc/hosts.", false).is_empty());
    assert_eq!(faults_against(&payload, "Fixed VAT totals in /etc/passwd.", false), ["url"]);
}

#[test]
fn full_width_numbers_are_folded() {
    assert!(strict_faults("billing-api got １２０４ insertions.").is_empty());
    assert_eq!(strict_faults("billing-api got １２０５ insertions."), ["number"]);
}

#[test]
fn curly_quotes_must_occur() {
    assert!(faults("Ran “cargo test” 18 times for billing-api.").is_empty());
    assert_eq!(faults("Ran “cargo bench” for billing-api."), ["quote"]);
    // The text after the closing quote is still checked.
    assert_eq!(faults("Ran “cargo test” 99 times for VAT totals."), ["number"]);
}

#[test]
fn content_words_are_latin_words_of_two_letters_or_more() {
    // Single letters (`plan B`, the `t` of `didn't`) are not content words (none of these
    // letters is in the payload text, keys included, not even inside a word).
    let payload = json!({"subject": "Fixed VAT totals"});
    assert!(faults_against(&payload, "Fixed VAT totals for g, h, k and m.", true).is_empty());
    assert_eq!(
        faults_against(&payload, "Fixed VAT totals for bug hunting.", true),
        ["unsupported"]
    );
    // Words of other scripts are not content words; Latin words with accents are.
    assert!(faults("Rounding of VAT totals: привет мир друг.").is_empty());
    assert_eq!(faults("Rounding of café naïve résumé."), ["unsupported"]);
}

#[test]
fn japanese_content_units() {
    // Kanji runs and katakana runs are content units; the stop words are taken out.
    assert!(faults("本日は作業を完了しました。").is_empty());
    assert_eq!(faults("本日は設計を相談しました。"), ["unsupported"]);
    assert_eq!(faults("新規画面を設計した。"), ["unsupported"]);
    assert_eq!(faults("ログインのデザインをレビューした。"), ["unsupported"]);
    // A kanji run and the katakana run right after it are two units: 請求書 is supported,
    // ログイン and 新規画面 are not.
    assert!(faults("請求書ログインを検証。").is_empty());
    assert_eq!(faults("請求書ログインと新規画面。"), ["unsupported"]);
    // Latin tokens end at kana, kanji and Japanese punctuation.
    assert!(strict_faults("cargo testを18回実行しました。").is_empty());
    assert_eq!(strict_faults("cargo testを19回実行しました。"), ["number"]);
    assert!(strict_faults("コマンドは18、プロンプトは9。").is_empty());
}

#[test]
fn code_and_markup_lines() {
    let none: &[&str] = &[];
    for (text, expected) in [
        // Fences, a tab or four spaces of indent.
        ("Intro.\n~~~\nmake", Some("code")),
        ("Intro.\n```\nmake", Some("code")),
        ("Intro.\n\tmake all", Some("code")),
        ("Intro.\n    make all", Some("code")),
        ("Intro.\n   three spaces are prose", None),
        // Two lines ending in `{`, `;` or `}`; one is prose.
        ("let x = 1;\nlet y = 2;", Some("code")),
        ("fn main() {\n}", Some("code")),
        ("Fixed the parser; all tests pass.", None),
        // ATX headings have one to six `#` and a space or nothing after them.
        ("#", Some("markup")),
        ("###### Six", Some("markup")),
        ("####### Seven", None),
        ("#123 was fixed.", None),
        // List and quote markers, also alone on a line.
        ("Intro.\n-", Some("markup")),
        ("Intro.\n>", Some("markup")),
        ("Intro.\n* one", Some("markup")),
        // Ordered list markers have one to nine digits (CommonMark).
        ("123456789. Nine digits.", Some("markup")),
        ("1) One.", Some("markup")),
        ("1234567890. Ten digits.", None),
        ("2 commits landed today.", None),
        ("Intro.\n2026", None),
        (". . . and then the tests passed.", None),
        // Table rows, with or without the leading pipe.
        ("a | b | c", Some("markup")),
        ("|x", Some("markup")),
        ("a | b", None),
        // Setext underlines of three characters or more.
        ("Title\n=====", Some("markup")),
        ("Title\n-----", Some("markup")),
        ("Title\n= = =", Some("markup")),
        ("Intro.\n--", None),
        ("<div>x</div>", Some("markup")),
    ] {
        let got = check_reply(text, Lang::En, false, none).map(Rejection::as_str);
        assert_eq!(got, expected, "{text:?}");
    }
}

#[test]
fn json_dumps() {
    let none: &[&str] = &[];
    for (text, expected) in [
        (r#"["Fixed the parser", "Wrote tests"]"#, Some("json_dump")),
        (r#"{"summary": "Fixed the parser"#, Some("json_dump")),
        (r#"a": 1, b": 2, c": 3"#, Some("json_dump")),
        ("[WIP] Fixed the parser in billing-api.", None),
        ("{WIP} Fixed the parser.", None),
        (r#"Renamed the "total": field."#, None),
    ] {
        let got = check_reply(text, Lang::En, false, none).map(Rejection::as_str);
        assert_eq!(got, expected, "{text:?}");
    }
}

#[test]
fn language_majority_and_ties() {
    let none: &[&str] = &[];
    let check = |text: &str, lang| check_reply(text, lang, false, none).map(Rejection::as_str);
    // Two Latin words and two kanji: a tie is English, not Japanese.
    assert_eq!(check("Fixed the 請求.", Lang::En), None);
    assert_eq!(check("Fixed the 請求.", Lang::Ja), Some("wrong_language"));
    assert_eq!(check("Fixed the 請求書.", Lang::En), Some("wrong_language"));
    assert_eq!(check("Fixed the 請求書.", Lang::Ja), None);
    // Hiragana and katakana count as Japanese.
    assert_eq!(check("きょうは billing-api と cargo test をしました。", Lang::Ja), None);
    assert_eq!(check("ログインのデザインを billing-api で", Lang::Ja), None);
}

#[test]
fn japanese_repetition_at_the_cap() {
    let none: &[&str] = &[];
    let sentence = "請求書の丸め処理を検証しました。";
    let twice = sentence.repeat(2);
    // The cap reached inside a 16-character run seen before.
    assert_eq!(
        check_reply(&twice, Lang::Ja, true, none).map(Rejection::as_str),
        Some("repetition")
    );
    assert_eq!(check_reply(&twice, Lang::Ja, false, none), None);
    // Capped, but nothing before it repeats.
    let once = "本日は billing-api の請求書の丸め処理を検証しました。";
    assert_eq!(check_reply(once, Lang::Ja, true, none), None);
}

#[test]
fn stemmer_keeps_three_letters() {
    // Each rule leaves a word of three letters whole, so short words do not collide.
    for (a, b) in [("his", "hi"), ("use", "us"), ("sky", "ski"), ("add", "ad")] {
        assert_ne!(stem(a), stem(b), "{a} !~ {b}");
    }
    for (a, b) in [("bugs", "bug"), ("codes", "code"), ("copies", "copy"), ("adds", "add")] {
        assert_eq!(stem(a), stem(b), "{a} ~ {b}");
    }
}
