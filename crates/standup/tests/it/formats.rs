//! Every output format on a hostile home (subjects, a folder name and commands that
//! would be markup in Markdown, Slack or HTML), parsed back the way a reader would see
//! it: pulldown-cmark for Markdown, quick-xml for the HTML fragment, Slack's own rules
//! for mrkdwn. Plus `--compact` and `[render] compact`.

use std::fmt::Write as _;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use crate::support::{Home, ME};

const NOW: &str = "2026-11-27T18:00:00+09:00";
const TOKYO: &str = "Asia/Tokyo";

/// Subjects that do something when pasted unescaped into Markdown, Slack or HTML.
const SUBJECTS: &[&str] = &[
    "feat(api): fix `parse()` for #123",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<style>body{display:none}</style>",
    "\" onmouseover=\"alert(1)",
    "<!channel> <@U024BE7LH> <https://evil.example|click>",
    "a & b &amp; c &lt;x&gt;",
    "# heading",
    "* item",
    "1. item",
    "> quote",
    "[click](http://evil.example)",
    "![x](http://evil.example/p.png)",
    "**bold** _em_ ~strike~",
    "```",
    "x<y>z",
];

/// A folder name with markup in it (a valid name on Linux).
const PROJECT: &str = "ev<i>l&co";

fn hostile_home() -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo(PROJECT);
    for (index, subject) in SUBJECTS.iter().enumerate() {
        repo.commit(&format!("f{index}"), subject, &format!("2026-11-27T10:{index:02}:00+09:00"));
    }
    let start = "2026-11-27T13:00:00+09:00".parse::<jiff::Timestamp>().unwrap().as_second();
    let mut history = String::new();
    for (offset, command) in ["echo '<b>&amp;</b>' `date`", "make <!here>"].iter().enumerate() {
        let _ = writeln!(history, ": {}:0;{command}", start + i64::try_from(offset).unwrap());
    }
    home.write(".zsh_history", &history);
    home
}

fn run(home: &Home, args: &[&str]) -> String {
    let mut all = vec!["daily", "--no-llm", "--lang", "en"];
    all.extend_from_slice(args);
    home.run(NOW, TOKYO, &all).success().to_owned()
}

/// `(+1 −0, 1 file)` follows every subject.
fn item(subject: &str) -> String {
    format!("{subject} (+1 −0, 1 file)")
}

#[test]
fn markdown_subjects_are_text_and_open_nothing() {
    let home = hostile_home();
    let markdown = run(&home, &[]);
    let mut items = Vec::new();
    let mut headings = Vec::new();
    let mut text = String::new();
    let mut code_in_item = Vec::new();
    // Every extension a renderer might enable (smart quotes would only rewrite text).
    let options = Options::all().difference(Options::ENABLE_SMART_PUNCTUATION);
    for event in Parser::new_ext(&markdown, options) {
        match event {
            Event::Start(Tag::Item | Tag::Heading { .. }) => text.clear(),
            Event::End(TagEnd::Item) => items.push(std::mem::take(&mut text)),
            Event::End(TagEnd::Heading(_)) => headings.push(std::mem::take(&mut text)),
            Event::Text(piece) => text.push_str(&piece),
            Event::Code(code) => {
                code_in_item.push(code.to_string());
                text.push_str(&code);
            }
            Event::Html(html) | Event::InlineHtml(html) => {
                panic!("raw HTML {html:?} in:\n{markdown}")
            }
            Event::Start(
                tag @ (Tag::Link { .. }
                | Tag::Image { .. }
                | Tag::BlockQuote(_)
                | Tag::CodeBlock(_)
                | Tag::Emphasis
                | Tag::Strong
                | Tag::Strikethrough),
            ) => {
                panic!("{tag:?} in:\n{markdown}")
            }
            _ => {}
        }
    }
    for subject in SUBJECTS {
        assert!(
            items.contains(&item(subject)),
            "{subject:?} is not an item of its own in:\n{markdown}"
        );
    }
    // Subjects are prose now; commands stay in code spans.
    assert!(!code_in_item.iter().any(|code| code.contains("feat(api)")), "{code_in_item:?}");
    assert!(code_in_item.contains(&"echo '<b>&amp;</b>' `date`".to_owned()), "{code_in_item:?}");
    assert_eq!(
        headings[1],
        format!(
            "{PROJECT} · {} commits (+16 −0, 16 files) · ≈ 15 min, 10:00–10:15",
            SUBJECTS.len()
        )
    );
    assert!(markdown.contains("- feat(api): fix \\`parse()\\` for #123 (+1"), "{markdown}");
}

/// Slack's three control characters come back only as entities.
fn slack_decode(text: &str) -> String {
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
}

#[test]
fn slack_escapes_its_control_characters_and_has_no_headings() {
    let home = hostile_home();
    let slack = run(&home, &["--format", "slack"]);
    assert!(!slack.contains('<') && !slack.contains('>'), "unescaped < or > in:\n{slack}");
    for (index, _) in slack.match_indices('&') {
        let rest = &slack[index..];
        assert!(
            ["&amp;", "&lt;", "&gt;"].iter().any(|entity| rest.starts_with(entity)),
            "a bare & at {index} in:\n{slack}"
        );
    }
    for line in slack.lines() {
        assert!(!line.starts_with('#'), "a # line {line:?} in:\n{slack}");
    }
    let lines: Vec<&str> = slack.lines().collect();
    assert_eq!(lines[0], "*Daily report — 2026-11-27 (Fri)*");
    assert_eq!(
        slack_decode(lines[3]),
        format!("*{PROJECT} · 16 commits (+16 −0, 16 files) · ≈ 15 min, 10:00–10:15*")
    );
    let bullets: Vec<String> =
        lines.iter().filter_map(|line| line.strip_prefix("• ")).map(slack_decode).collect();
    for subject in SUBJECTS {
        assert!(bullets.contains(&item(subject)), "{subject:?} missing from:\n{slack}");
    }
    // Commands stay in code spans; a backtick inside one cannot end it.
    assert!(
        bullets.iter().any(|line| *line == "`echo` ×1 — e.g. `echo '<b>&amp;</b>' ˋdateˋ`"),
        "{slack}"
    );
}

#[test]
fn html_is_a_fragment_of_allowed_elements_without_attributes() {
    use quick_xml::events::Event as Xml;

    let home = hostile_home();
    let html = run(&home, &["--format", "html"]);
    let wrapped = format!("<div>{html}</div>");
    let mut reader = quick_xml::Reader::from_str(&wrapped);
    let mut stack: Vec<String> = Vec::new();
    let mut items = Vec::new();
    let mut text = String::new();
    loop {
        match reader
            .read_event()
            .unwrap_or_else(|error| panic!("{error}: not well-formed:\n{html}"))
        {
            Xml::Start(start) | Xml::Empty(start) => {
                let name = String::from_utf8(start.name().as_ref().to_vec()).unwrap();
                assert!(
                    ["div", "h2", "h3", "h4", "p", "ul", "li", "code", "br"]
                        .contains(&name.as_str()),
                    "<{name}> in:\n{html}"
                );
                assert_eq!(start.attributes().count(), 0, "attributes on <{name}> in:\n{html}");
                if name == "li" {
                    text.clear();
                }
                stack.push(name);
            }
            Xml::End(end) => {
                let name = String::from_utf8(end.name().as_ref().to_vec()).unwrap();
                if name == "li" {
                    items.push(std::mem::take(&mut text));
                }
                stack.pop();
            }
            Xml::Text(piece) => text.push_str(&piece.unescape().unwrap()),
            Xml::Eof => break,
            Xml::Comment(_) | Xml::CData(_) | Xml::PI(_) | Xml::DocType(_) => {
                panic!("markup in:\n{html}")
            }
            Xml::Decl(_) => {}
        }
    }
    assert!(html.starts_with("<h2>Daily report — 2026-11-27 (Fri)</h2>\n"), "{html}");
    for subject in SUBJECTS {
        assert!(items.contains(&item(subject)), "{subject:?} missing from {items:#?}");
    }
}

#[test]
fn text_has_no_markup_and_every_subject_verbatim() {
    let home = hostile_home();
    let text = run(&home, &["--format", "text"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Daily report — 2026-11-27 (Fri)");
    assert_eq!(lines[1], "Window: 2026-11-27 00:00 – 2026-11-27 18:00 (Asia/Tokyo)");
    assert_eq!(
        lines[3],
        format!("{PROJECT} · 16 commits (+16 −0, 16 files) · ≈ 15 min, 10:00–10:15")
    );
    for subject in SUBJECTS {
        assert!(
            lines.contains(&format!("- {}", item(subject)).as_str()),
            "{subject:?} missing from:\n{text}"
        );
    }
    assert!(lines.contains(&"- echo ×1 — e.g. echo '<b>&amp;</b>' `date`"), "{text}");
    assert!(!text.contains('\\'), "a Markdown escape left in:\n{text}");
}

#[test]
fn compact_is_the_body_only_and_warnings_still_reach_stderr() {
    let home = Home::new();
    // No identity anywhere: an `identity_unknown` warning.
    home.repo("app").commit("a", "work", "2026-11-27T10:00:00+09:00");
    for args in [
        &["daily", "--no-llm", "--compact"][..],
        &["daily", "--no-llm", "--compact", "--format", "slack"],
    ] {
        let run = home.run(NOW, TOKYO, args);
        let out = run.success();
        for noise in
            ["Window", "Totals", "Warning", "identity_unknown", "— standup", "deterministic"]
        {
            assert!(!out.contains(noise), "{noise} in compact output:\n{out}");
        }
        assert!(out.contains("work (+1 −0, 1 file)"), "{out}");
        assert!(run.stderr.contains("standup: warning: identity_unknown:"), "{}", run.stderr);
    }
    let full = home.run(NOW, TOKYO, &["daily", "--no-llm"]);
    assert!(full.success().contains("Totals:"));
    home.config("[render]\ncompact = true\n");
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm"]);
    insta::assert_snapshot!(run.success(), @r"
    # Daily report — 2026-11-27 (Fri)

    ## app · 1 commit (+1 −0, 1 file) · ≈ 10 min, 10:00

    - work (+1 −0, 1 file)
    ");
}

#[test]
fn json_is_unchanged_by_compact() {
    let home = hostile_home();
    let full = run(&home, &["--format", "json"]);
    let compact = run(&home, &["--format", "json", "--compact"]);
    assert_eq!(full, compact);
    let report: serde_json::Value = serde_json::from_str(&full).unwrap();
    assert_eq!(report["buckets"][0]["projects"][0]["name"], PROJECT);
}
