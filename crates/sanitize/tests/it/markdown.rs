use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use sanitize::markdown::{EMPTY_CODE_SPAN, code_span, escape_text};

/// Strings that would do something if pasted into Markdown as they are.
pub(crate) const HOSTILE: &[&str] = &[
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    "<a href=\"javascript:alert(1)\">x</a>",
    "<!-- comment -->",
    "<div>html block</div>",
    "<details><summary>x</summary></details>",
    "x<y>z",
    "![x](http://evil.example/p.png)",
    "![x][ref]",
    "[click](http://evil.example)",
    "[ref]: http://evil.example",
    "[ref]",
    "<https://evil.example>",
    "<mailto:a@evil.example>",
    "https://evil.example/bare",
    "# heading",
    "###### heading",
    "- item",
    "* item",
    "+ item",
    "1. item",
    "1) item",
    "> quote",
    "| a | b |\n|---|---|\n| c | d |",
    "a | b",
    "***",
    "---",
    "___",
    "===",
    "```",
    "```rust\nfn x() {}\n```",
    "~~~",
    "line\n# x",
    "line\r\n# x",
    "line\r# x",
    "x\n\n- y",
    "a  \nb",
    "Term\n: definition",
    "`",
    "``",
    "a ` b",
    "``` ``",
    "` `",
    " `lead",
    "trail` ",
    "`a`",
    "&amp;",
    "&#60;script&#62;",
    "&lt;b&gt;",
    "*emph* _em_ **strong** __strong__",
    "~~strike~~ ~sub~ ^super^ ==mark==",
    "[^1]",
    "[^1]: footnote",
    "- [ ] task",
    "[x] done",
    "$x^2$",
    "$$\nmath\n$$",
    "[[wiki]]",
    "\\",
    "trailing backslash\\",
    "    indented code",
    "\tindented",
    "\u{3000}ideographic indent",
    "",
    "   ",
    "\n",
    "\t",
    "|",
    "-",
    "+",
    "=",
    "#",
    "1.",
    ">",
    "{#id .class}",
    "Setext\n===",
];

fn parse(doc: &str) -> Vec<Event<'_>> {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_MATH
        | Options::ENABLE_GFM
        | Options::ENABLE_DEFINITION_LIST
        | Options::ENABLE_SUPERSCRIPT
        | Options::ENABLE_SUBSCRIPT
        | Options::ENABLE_WIKILINKS;
    Parser::new_ext(doc, options).collect()
}

/// What the parser saw in one rendered line.
struct Line {
    code: Vec<String>,
    text: String,
}

/// Parses `- {inline} trailing` and checks that it is exactly one list with one item
/// holding one paragraph (tight lists leave the paragraph implicit) and only text or code
/// inside: no HTML, images, links, headings, quotes, tables, code blocks, emphasis,
/// breaks or anything else.
#[track_caller]
fn check_structure(inline: &str, input: &str) -> Line {
    let doc = format!("- {inline} trailing\n");
    let mut n_lists = 0;
    let mut n_items = 0;
    let mut n_paragraphs = 0;
    let mut line = Line { code: Vec::new(), text: String::new() };
    for event in parse(&doc) {
        match event {
            Event::Start(Tag::List(None)) => n_lists += 1,
            Event::Start(Tag::Item) => n_items += 1,
            Event::Start(Tag::Paragraph) => n_paragraphs += 1,
            Event::End(TagEnd::List(false) | TagEnd::Item | TagEnd::Paragraph) => {}
            Event::Text(text) => line.text.push_str(&text),
            Event::Code(code) => line.code.push(code.into_string()),
            other => panic!("input {input:?} rendered as {doc:?} produced {other:?}"),
        }
    }
    assert_eq!((n_lists, n_items), (1, 1), "input {input:?} rendered as {doc:?}");
    assert!(n_paragraphs <= 1, "input {input:?} rendered as {doc:?}");
    line
}

fn one_line(text: &str) -> String {
    text.replace("\r\n", " ").replace(['\n', '\r', '\t'], " ")
}

#[track_caller]
pub(crate) fn check_code_span(input: &str) {
    let span = code_span(input);
    let line = check_structure(&span, input);
    let content = one_line(input);
    let expected = if content.trim_matches(' ').is_empty() { "∅".to_owned() } else { content };
    assert_eq!(line.code, [expected], "input {input:?} rendered as {span:?}");
    assert_eq!(line.text, " trailing", "input {input:?} rendered as {span:?}");
}

#[track_caller]
pub(crate) fn check_escape_text(input: &str) {
    let escaped = escape_text(input);
    let line = check_structure(&escaped, input);
    assert!(line.code.is_empty(), "input {input:?} rendered as {escaped:?}");
    let expected = format!("{} trailing", one_line(input).trim_start_matches(' '));
    assert_eq!(
        line.text.trim_start(),
        expected.trim_start(),
        "input {input:?} rendered as {escaped:?}"
    );
}

#[test]
fn code_span_neutralizes_hostile_strings() {
    for input in HOSTILE {
        check_code_span(input);
    }
}

#[test]
fn escape_text_neutralizes_hostile_strings() {
    for input in HOSTILE {
        check_escape_text(input);
    }
}

#[test]
fn code_span_fences() {
    assert_eq!(code_span("plain"), "`plain`");
    assert_eq!(code_span("a `b` c"), "``a `b` c``");
    assert_eq!(code_span("a ``` b"), "````a ``` b````");
    assert_eq!(code_span("`x"), "`` `x ``");
    assert_eq!(code_span("x`"), "`` x` ``");
    assert_eq!(code_span(" x "), "`  x  `");
    assert_eq!(code_span(" x"), "`  x `");
    assert_eq!(code_span("two\nlines"), "`two lines`");
    assert_eq!(code_span("crlf\r\nonce"), "`crlf once`");
}

#[test]
fn code_span_of_nothing_is_visible() {
    for blank in ["", " ", "   ", "\n", "\t \r\n"] {
        assert_eq!(code_span(blank), EMPTY_CODE_SPAN, "{blank:?}");
    }
    assert_eq!(EMPTY_CODE_SPAN, "`∅`");
}

#[test]
fn escape_text_escapes_only_what_can_act() {
    assert_eq!(escape_text("billing-api v2.0 (main)"), "billing-api v2.0 (main)");
    assert_eq!(escape_text("/tmp/.x/home/.zsh_history"), "/tmp/.x/home/.zsh_history");
    assert_eq!(escape_text("snake_case _under_ *star*"), r"snake_case \_under\_ \*star\*");
    assert_eq!(escape_text("# title"), r"\# title");
    assert_eq!(escape_text("- item"), r"\- item");
    assert_eq!(escape_text("12. item"), r"12\. item");
    assert_eq!(escape_text("R&D &amp; &#60;"), r"R&D \&amp; \&#60;");
    assert_eq!(
        escape_text("a `b` [c] <d> {e} |f| ~g~ ^h^ $i$ \\"),
        r"a \`b\` \[c\] \<d> \{e\} \|f\| \~g\~ \^h\^ \$i\$ \\"
    );
    assert_eq!(escape_text("plain words 日本語"), "plain words 日本語");
    assert_eq!(escape_text("  lead\nnext"), "lead next");
}

#[test]
fn escape_text_is_minimal() {
    // Nothing here can act, so nothing gets a backslash.
    for text in [
        "&;",
        "&",
        "a & b",
        "&&",
        ".gitignore",
        "1.2.3",
        "1.2.3 released",
        ".",
        ". x",
        ") x",
        "2)x",
        "10.0.0.1",
        "v1.2.3",
        "a_b_c",
        "x#y",
        "a-b",
        "a+b=c",
        "a>b",
        "a:b",
        "(1)",
        "!",
        "1",
    ] {
        assert_eq!(escape_text(text), text, "{text:?}");
        check_escape_text(text);
    }
    // What can act does get one.
    assert_eq!(escape_text("1."), r"1\.");
    assert_eq!(escape_text("1) x"), r"1\) x");
    assert_eq!(escape_text("&a;"), r"\&a;");
    assert_eq!(escape_text("&#"), r"\&#");
    assert_eq!(escape_text("_a"), r"\_a");
    assert_eq!(escape_text("a_"), r"a\_");
    assert_eq!(escape_text(":x"), r"\:x");
}
