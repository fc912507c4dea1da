//! The Markdown form read back as a small block tree, which the slack, text and html
//! forms are written from.
//!
//! The Markdown is the one place that decides what a report shows and in what order;
//! reading it back with a CommonMark parser means every section (and any section added
//! later) reaches every format, and the untrusted text comes back exactly as it was
//! before `sanitize::markdown` escaped it. Each format then escapes it again for itself.

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// A piece of running text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Inline {
    /// Text, unescaped.
    Text(String),
    /// A code span's content (commands, titles, warning codes).
    Code(String),
    /// A line break inside a paragraph.
    Break,
    /// A link our Markdown wrote (a ticket key and its `[tickets] url`): its text and an
    /// `http`/`https` address.
    Link {
        /// The text shown.
        text: String,
        /// Where it points.
        url: String,
    },
}

/// A block of the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Block {
    /// A heading: 1 is the report's title, 2 a section, 3 a section inside a standup day.
    Heading(u8, Vec<Inline>),
    /// A paragraph (a Window line, Totals, the narrative, the footer).
    Paragraph(Vec<Inline>),
    /// A bullet list, one entry per item.
    List(Vec<Vec<Inline>>),
}

/// Reads Markdown written by [`crate::markdown()`] (or a narrative inside it) back into
/// blocks. Constructs our Markdown never writes (block quotes, rules, images, raw HTML
/// that a narrative might hold) become plain text: nothing is dropped, nothing becomes
/// markup. A link comes only from our own Markdown (every untrusted string is escaped, so
/// none can write one): a ticket's, to an `http` or `https` address; any other becomes
/// its text.
pub(crate) fn parse(markdown: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut inlines: Vec<Inline> = Vec::new();
    let mut items: Vec<Vec<Inline>> = Vec::new();
    let mut list_depth = 0_usize;
    let mut heading: Option<u8> = None;
    // An open link: its address and where its text starts in `inlines`.
    let mut link: Option<(String, usize)> = None;
    let push_text = |inlines: &mut Vec<Inline>, text: &str| {
        if let Some(Inline::Text(last)) = inlines.last_mut() {
            last.push_str(text);
        } else {
            inlines.push(Inline::Text(text.to_owned()));
        }
    };
    for event in Parser::new_ext(markdown, Options::empty()) {
        match event {
            Event::Start(Tag::Heading { level, .. }) => heading = Some(level_number(level)),
            Event::End(TagEnd::Heading(_)) => {
                blocks.push(Block::Heading(
                    heading.take().unwrap_or(2),
                    std::mem::take(&mut inlines),
                ));
            }
            Event::Start(Tag::List(_)) => list_depth += 1,
            Event::End(TagEnd::List(_)) => {
                list_depth = list_depth.saturating_sub(1);
                if list_depth == 0 {
                    blocks.push(Block::List(std::mem::take(&mut items)));
                }
            }
            Event::End(TagEnd::Item) => {
                let item = std::mem::take(&mut inlines);
                if !item.is_empty() {
                    items.push(item);
                }
            }
            Event::End(TagEnd::Paragraph | TagEnd::CodeBlock | TagEnd::HtmlBlock)
                if list_depth == 0 =>
            {
                let paragraph = std::mem::take(&mut inlines);
                if !paragraph.is_empty() {
                    blocks.push(Block::Paragraph(paragraph));
                }
            }
            Event::Start(Tag::Paragraph) if list_depth > 0 && !inlines.is_empty() => {
                push_text(&mut inlines, " ");
            }
            Event::Text(text) | Event::Html(text) | Event::InlineHtml(text) => {
                push_text(&mut inlines, &text);
            }
            Event::Code(code) => inlines.push(Inline::Code(code.into_string())),
            Event::Start(Tag::Link { dest_url, .. }) => {
                link = Some((dest_url.into_string(), inlines.len()));
            }
            Event::End(TagEnd::Link) => {
                if let Some((url, start)) = link.take() {
                    let start = start.min(inlines.len());
                    let text: String = inlines
                        .drain(start..)
                        .map(|piece| match piece {
                            Inline::Text(text) | Inline::Code(text) | Inline::Link { text, .. } => {
                                text
                            }
                            Inline::Break => " ".to_owned(),
                        })
                        .collect();
                    if url.starts_with("https://") || url.starts_with("http://") {
                        inlines.push(Inline::Link { text, url });
                    } else {
                        push_text(&mut inlines, &text);
                    }
                }
            }
            Event::SoftBreak | Event::HardBreak => inlines.push(Inline::Break),
            Event::Rule => blocks.push(Block::Paragraph(vec![Inline::Text("---".to_owned())])),
            _ => {}
        }
    }
    // Trailing line breaks from code blocks carry no meaning.
    for block in &mut blocks {
        if let Block::Paragraph(inlines) | Block::Heading(_, inlines) = block {
            trim_trailing_breaks(inlines);
        }
    }
    blocks
}

fn trim_trailing_breaks(inlines: &mut Vec<Inline>) {
    while let Some(Inline::Break) = inlines.last() {
        inlines.pop();
    }
    if let Some(Inline::Text(text)) = inlines.last_mut() {
        let trimmed = text.trim_end_matches('\n').len();
        text.truncate(trimmed);
    }
}

fn level_number(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// Whether the plain forms (Slack, text) put a blank line before `blocks[index]`: between
/// blocks, except that a heading is followed by its paragraph (a Window line) directly.
pub(crate) fn blank_line_before(blocks: &[Block], index: usize) -> bool {
    let under_heading = index > 0
        && matches!(blocks[index], Block::Paragraph(_))
        && matches!(blocks[index - 1], Block::Heading(..));
    index > 0 && !under_heading
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_text_comes_back_as_it_was() {
        let subject = "feat(api): fix `parse()` <b>x</b> #123 [a](b) *c*";
        let markdown = format!(
            "# T\n\n## p · 1 commit\n\n- {} (+1 −0, 1 file)\n- `cargo test` ×2\n",
            sanitize::markdown::escape_text(subject)
        );
        let blocks = parse(&markdown);
        assert_eq!(
            blocks,
            vec![
                Block::Heading(1, vec![Inline::Text("T".into())]),
                Block::Heading(2, vec![Inline::Text("p · 1 commit".into())]),
                Block::List(vec![
                    vec![Inline::Text(format!("{subject} (+1 −0, 1 file)"))],
                    vec![Inline::Code("cargo test".into()), Inline::Text(" ×2".into())],
                ]),
            ]
        );
    }

    #[test]
    fn foreign_markup_in_a_narrative_becomes_text() {
        let blocks = parse("Did <img src=x onerror=y> and ![a](b) and [c](d).\n\n> q\n");
        assert_eq!(
            blocks,
            vec![
                Block::Paragraph(vec![Inline::Text(
                    "Did <img src=x onerror=y> and a and c.".into()
                )]),
                Block::Paragraph(vec![Inline::Text("q".into())]),
            ]
        );
    }

    #[test]
    fn a_ticket_link_comes_back_as_a_link_and_any_other_address_as_text() {
        let blocks = parse(
            "- [PAY-7](<https://t.example/browse/PAY-7>): fix\n- [x](<javascript:alert(1)>) y\n",
        );
        assert_eq!(
            blocks,
            vec![Block::List(vec![
                vec![
                    Inline::Link {
                        text: "PAY-7".into(),
                        url: "https://t.example/browse/PAY-7".into()
                    },
                    Inline::Text(": fix".into()),
                ],
                vec![Inline::Text("x y".into())],
            ])]
        );
    }
}
