//! Putting untrusted text into a Markdown document without letting it act as Markdown.
//!
//! Both functions give one line of inline Markdown that renders as the text it was given
//! and nothing else: no raw HTML, images, links, autolinks, headings, list items, block
//! quotes, tables, code blocks, emphasis or entities, and no new block, because newlines
//! never survive. Run [`clean`](crate::clean) first: these functions do not remove
//! control characters.
//!
//! - [`code_span`] for things shown verbatim (commit subjects, commands, titles).
//! - [`escape_text`] for running text.
//!
//! ```
//! use sanitize::markdown::{code_span, escape_text};
//! assert_eq!(code_span("a `b` c"), "``a `b` c``");
//! assert_eq!(escape_text("![x](http://evil.example/p.png)"), r"!\[x\](http://evil.example/p.png)");
//! ```
//!
//! Renderers with extensions beyond CommonMark may still do things with plain text
//! that no escaping prevents, e.g. GitHub turns a bare `www.example.com` into a link. That
//! link is never followed without a click; images, which would be fetched, cannot appear.

/// What an empty or whitespace-only code span shows, so the reader sees that the value
/// was empty rather than a stray pair of backticks (an empty span is not valid Markdown,
/// and one holding only spaces renders as nothing on most renderers).
pub const EMPTY_CODE_SPAN: &str = "`∅`";

/// Renders `text` as one inline code span.
///
/// The backtick fence is one longer than the longest run of backticks inside, and the
/// content is padded with one space on each side when it starts or ends with a backtick
/// or a space (CommonMark strips exactly that padding again). Newlines, carriage returns
/// and tabs become a single space each (CRLF counts as one), so the span can never start a
/// new block. Text that is empty or only whitespace renders as [`EMPTY_CODE_SPAN`].
pub fn code_span(text: &str) -> String {
    let content = one_line(text);
    if content.chars().all(|c| c == ' ') {
        return EMPTY_CODE_SPAN.to_owned();
    }
    let mut longest_run = 0;
    let mut run = 0;
    for c in content.chars() {
        if c == '`' {
            run += 1;
            longest_run = longest_run.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest_run + 1);
    let pad = content.starts_with(['`', ' ']) || content.ends_with(['`', ' ']);
    let mut span = String::with_capacity(content.len() + 2 * fence.len() + 2);
    span.push_str(&fence);
    if pad {
        span.push(' ');
    }
    span.push_str(&content);
    if pad {
        span.push(' ');
    }
    span.push_str(&fence);
    span
}

/// Escapes `text` so that it renders as itself in running Markdown text.
///
/// Only what can act gets a backslash, so the text stays readable where a chat client
/// shows Markdown source as it is: everywhere, `` \ ` * [ ] < { } | ~ ^ $ `` (escapes,
/// code, emphasis, links, images, footnotes, wiki links, raw HTML and autolinks, heading
/// attributes, tables, strikethrough, sub- and superscript, math); `_` at a word boundary
/// (inside a word it cannot emphasize); `&` that starts an entity (`&name;` or `&#`);
/// and at the start, `#`, `-`, `+`, `=`, `>`, `:` and the `.` or `)` after leading digits
/// when a space or the end follows (headings, list items, block quotes, definition
/// lists). Newlines, carriage returns and
/// tabs become a single space each (CRLF counts as one), and leading whitespace is
/// dropped, because four leading spaces would start an indented code block.
pub fn escape_text(text: &str) -> String {
    let line = one_line(text);
    let line = line.trim_start_matches(' ');
    let chars: Vec<char> = line.chars().collect();
    let leading_digits = chars.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut escaped = String::with_capacity(line.len() + line.len() / 8);
    for (idx, &c) in chars.iter().enumerate() {
        let previous = idx.checked_sub(1).and_then(|before| chars.get(before));
        let next = chars.get(idx + 1);
        let word = |neighbour: Option<&char>| neighbour.is_some_and(|c| c.is_alphanumeric());
        let needs_escape = match c {
            '\\' | '`' | '*' | '[' | ']' | '<' | '{' | '}' | '|' | '~' | '^' | '$' => true,
            '_' => !(word(previous) && word(next)),
            '&' => {
                let name =
                    chars[idx + 1..].iter().take_while(|c| c.is_ascii_alphanumeric()).count();
                next == Some(&'#') || (name > 0 && chars.get(idx + 1 + name) == Some(&';'))
            }
            '#' | '-' | '+' | '=' | '>' | ':' => idx == 0,
            // `1.` or `1)` starts a list item only before a space or the end: `1.2.3` is text.
            '.' | ')' => {
                idx == leading_digits && leading_digits > 0 && next.is_none_or(|&c| c == ' ')
            }
            _ => false,
        };
        if needs_escape {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// Replaces CRLF, LF, CR and tab with a single space each.
fn one_line(text: &str) -> String {
    text.replace("\r\n", " ").replace(['\n', '\r', '\t'], " ")
}
