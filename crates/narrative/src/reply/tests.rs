use super::*;

#[track_caller]
fn check(reply: &str, with_blockers: bool) -> Option<Cleaned> {
    clean(reply, with_blockers, 1_000)
}

#[track_caller]
fn text(reply: &str) -> String {
    check(reply, false).map(|cleaned| cleaned.text).unwrap_or_default()
}

#[test]
fn regexes_compile() {
    for regex in [
        &THINK_BLOCK,
        &THINK_OPEN,
        &THINK_CLOSE,
        &IMAGE,
        &LINK,
        &HTML_TAG,
        &TAG_START,
        &TRAILING_BLANKS,
        &BLANK_LINES,
        &BLOCKER_LINE,
    ] {
        assert!(!regex.as_str().is_empty());
    }
}

#[test]
fn reasoning_blocks_are_dropped() {
    assert_eq!(text("<think>\nplan\n</think>\nDone."), "Done.");
    assert_eq!(text("A <THINKING>x</Thinking> B"), "A  B");
    assert_eq!(text("stray reasoning</think>The answer."), "The answer.");
    assert_eq!(text("Start. <think>never closed"), "Start.");
    assert_eq!(check("<think>only reasoning</think>", false), None);
}

#[test]
fn images_links_and_html_are_neutralized() {
    assert_eq!(text("See ![diagram](https://evil.example/p.png) now"), "See diagram now");
    assert_eq!(text("A [link](http://evil.example) here"), "A link here");
    assert_eq!(text("[![x](http://a/i.png)](http://b)"), "x");
    assert_eq!(text("<img src=x onerror=alert(1)> <b>bold</b> <https://evil.example>"), "bold");
    assert_eq!(text("<<b>b>script"), "‹b>script");
    assert_eq!(
        text("[ref]: http://evil.example\nuse [text][ref]"),
        "[ref] : http://evil.example\nuse [text][ref]"
    );
    assert_eq!(text("odd ![a](b](c)"), "odd a");
    assert_eq!(text("1 < 2 and 3 > 2"), "1 < 2 and 3 > 2");
}

#[test]
fn blank_lines_collapse_and_text_is_trimmed() {
    assert_eq!(text("\n\n  One.  \n\n\n \n\nTwo.\n\n"), "One.\n\nTwo.");
}

#[test]
fn controls_are_removed() {
    assert_eq!(text("\u{1b}[31mred\u{1b}[0m\r\nnext\u{7}"), "red\nnext");
}

#[test]
fn output_is_capped_with_a_marker() {
    let cleaned = clean(&"word ".repeat(1_000), false, 50).unwrap();
    assert_eq!(cleaned.text.chars().count(), 50);
    assert!(cleaned.text.ends_with('…'));
}

#[test]
fn blockers_are_taken_out_of_a_standup_reply() {
    let reply = "Yesterday went to the parser.\nToday CI.\n\nBLOCKER: the flaky CI job on main is still failing [ids: sh:cargo test, 0123456789]\n- **Blocker:** a revert of [fix](http://x) in billing-api\nBLOCKER: none\n";
    let cleaned = check(reply, true).unwrap();
    assert_eq!(cleaned.text, "Yesterday went to the parser.\nToday CI.");
    let blockers: Vec<(&str, Vec<&str>)> = cleaned
        .blockers
        .iter()
        .map(|b| (b.text.as_str(), b.evidence.iter().map(String::as_str).collect()))
        .collect();
    assert_eq!(
        blockers,
        [
            ("the flaky CI job on main is still failing", vec!["sh:cargo test", "0123456789"]),
            ("a revert of fix in billing-api", vec![]),
        ]
    );
}

#[test]
fn blockers_only_reply_has_no_narrative() {
    assert_eq!(check("BLOCKER: something", true), None);
}

#[test]
fn daily_replies_keep_their_lines() {
    let cleaned = check("Text.\nBLOCKER: x", false).unwrap();
    assert_eq!(cleaned.text, "Text.\nBLOCKER: x");
    assert!(cleaned.blockers.is_empty());
}

#[test]
fn at_most_five_blockers() {
    let reply = (0..8).map(|n| format!("BLOCKER: issue {n}")).collect::<Vec<_>>().join("\n");
    let cleaned = check(&format!("Narrative.\n{reply}"), true).unwrap();
    assert_eq!(cleaned.blockers.len(), MAX_BLOCKERS);
}

#[test]
fn structured_replies_are_read_leniently() {
    let parsed = parse(
        r#"```json
{"summary": "Day.", "extra": 1, "blockers": [{"text": "Flaky\nCI", "evidence": ["a", 3, "b"]}, {"text": 5}, "x"]}
```"#,
        true,
        100,
    );
    assert_eq!(
        parsed,
        Parsed::Structured(Structured {
            summary: "Day.".into(),
            capped: false,
            cited: None,
            blockers: vec![RawBlocker {
                text: "Flaky CI".into(),
                evidence: vec!["a".into(), "b".into()]
            }],
        })
    );
    assert_eq!(parse(r#"{"deletions": "1234567890"}"#, true, 100), Parsed::OtherJson);
    assert_eq!(parse(r#"{"summary": 5}"#, true, 100), Parsed::OtherJson);
    assert_eq!(parse("Plain prose about {braces}.", true, 100), Parsed::Plain);
    assert_eq!(parse("{not json", true, 100), Parsed::Plain);
    let Parsed::Structured(daily) =
        parse(r#"{"summary": "S", "blockers": [{"text": "t", "evidence": ["a"]}]}"#, false, 100)
    else {
        panic!()
    };
    assert!(daily.blockers.is_empty());
}

#[test]
fn a_cited_summary_keeps_each_part_with_its_ids() {
    let parsed = parse(
        r#"{"summary": [{"text": "App got\nspans.", "evidence": ["a", 7, "b"]}, "Bare.", {"text": 3}, 4, {"text": "  ", "evidence": ["c"]}, {"text": "日本。", "evidence": []}], "blockers": []}"#,
        true,
        100,
    );
    let Parsed::Structured(parsed) = parsed else { panic!("{parsed:?}") };
    let cited = parsed.cited.unwrap();
    let parts: Vec<(&str, Vec<&str>)> = cited
        .iter()
        .map(|part| (part.text.as_str(), part.evidence.iter().map(String::as_str).collect()))
        .collect();
    assert_eq!(parts, [("App got spans.", vec!["a", "b"]), ("Bare.", vec![]), ("日本。", vec![])]);
    assert_eq!(parsed.summary, "App got spans. Bare. 日本。");
    assert!(!parsed.capped);
    // The parts share the output cap: what does not fit is cut and said so.
    let Parsed::Structured(capped) = parse(
        r#"{"summary": [{"text": "One two.", "evidence": ["a"]}, {"text": "Three four five.", "evidence": ["b"]}]}"#,
        true,
        14,
    ) else {
        panic!()
    };
    assert!(capped.capped);
    assert_eq!(capped.cited.unwrap().len(), 2);
    assert!(capped.summary.starts_with("One two. Thre"), "{}", capped.summary);
    // The cap counts the joined text: no space after a Japanese end mark, one after `.`.
    for (parts, max_chars, expect_capped) in [
        (
            r#"[{"text": "日本。", "evidence": ["a"]}, {"text": "日本。", "evidence": ["a"]}]"#,
            6,
            false,
        ),
        (
            r#"[{"text": "日本。", "evidence": ["a"]}, {"text": "日本。", "evidence": ["a"]}]"#,
            5,
            true,
        ),
        (r#"[{"text": "Ab.", "evidence": ["a"]}, {"text": "Cd.", "evidence": ["a"]}]"#, 7, false),
        (r#"[{"text": "Ab.", "evidence": ["a"]}, {"text": "Cd.", "evidence": ["a"]}]"#, 6, true),
    ] {
        let reply = format!(r#"{{"summary": {parts}, "blockers": []}}"#);
        let Parsed::Structured(parsed) = parse(&reply, true, max_chars) else { panic!() };
        assert_eq!(parsed.capped, expect_capped, "{parts} in {max_chars}");
        assert!(parsed.summary.chars().count() <= max_chars, "{}", parsed.summary);
    }
}
