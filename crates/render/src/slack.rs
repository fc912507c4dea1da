//! The Slack form (mrkdwn): `*bold*` section titles, `•` bullets, no `#` headings,
//! code spans for commands.
//!
//! Slack reads `&`, `<` and `>` as control characters (`<@U123>`, `<!channel>`,
//! `<https://…|label>`), so untrusted text has them replaced by `&amp;`, `&lt;` and
//! `&gt;`, and nothing else is entity-encoded (Slack decodes only those three; see
//! api.slack.com/reference/surfaces/formatting#escaping). mrkdwn has no escape for
//! `*`, `_`, `~` or a backtick: inside a bold title a `*` becomes `∗` (U+2217) and inside
//! a code span a backtick becomes `ˋ` (U+02CB), so neither can end the markup early.

use std::fmt::Write as _;

use crate::doc::{Block, Inline};

pub(crate) fn write(blocks: &[Block]) -> String {
    let mut out = String::new();
    for (index, block) in blocks.iter().enumerate() {
        if crate::doc::blank_line_before(blocks, index) {
            out.push('\n');
        }
        match block {
            Block::Heading(_, inlines) => {
                out.push('*');
                for piece in inlines {
                    match piece {
                        Inline::Text(text) | Inline::Code(text) | Inline::Link { text, .. } => {
                            out.push_str(&escape(text).replace('*', "∗"));
                        }
                        Inline::Break => out.push(' '),
                    }
                }
                out.push_str("*\n");
            }
            Block::Paragraph(inlines) => {
                inline(&mut out, inlines, true);
                out.push('\n');
            }
            Block::List(items) => {
                for item in items {
                    out.push_str("• ");
                    inline(&mut out, item, false);
                    out.push('\n');
                }
            }
        }
    }
    out
}

/// `at_line_start`: the inlines begin a line (a paragraph, not a bullet).
fn inline(out: &mut String, inlines: &[Inline], at_line_start: bool) {
    let mut line_start = if at_line_start { out.len() } else { usize::MAX };
    for piece in inlines {
        match piece {
            Inline::Text(text) => {
                let text = escape(text);
                // `#` does nothing in mrkdwn, but a line that starts with one reads as a
                // stray Markdown heading; `＃` (U+FF03) does not.
                if out.len() == line_start && text.starts_with('#') {
                    out.push('＃');
                    out.push_str(&text[1..]);
                } else {
                    out.push_str(&text);
                }
            }
            Inline::Code(code) => {
                out.push('`');
                out.push_str(&escape(code).replace('`', "ˋ"));
                out.push('`');
            }
            Inline::Break => {
                out.push('\n');
                line_start = out.len();
            }
            // `<url|text>`: neither part can hold `<`, `>` or `|` unescaped (a `|` in the
            // text would end nothing, but one in the address would cut it).
            Inline::Link { text, url } => {
                let _ = write!(out, "<{}|{}>", escape(url).replace('|', "%7C"), escape(text));
            }
        }
    }
}

/// Slack's three control characters as entities; `&` first, so nothing is encoded twice.
pub(crate) fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            other => escaped.push(other),
        }
    }
    escaped
}
