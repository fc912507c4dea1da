//! The plain-text form: no markup at all, for e-mail bodies and chat tools that show
//! text as it is. Headings are lines of their own, list items start with `- `, code
//! spans lose their backticks. There is nothing to escape: the text was already
//! cleaned of control and bidi characters.

use crate::doc::{Block, Inline};

pub(crate) fn write(blocks: &[Block]) -> String {
    let mut out = String::new();
    for (index, block) in blocks.iter().enumerate() {
        if crate::doc::blank_line_before(blocks, index) {
            out.push('\n');
        }
        match block {
            Block::Heading(_, inlines) | Block::Paragraph(inlines) => {
                inline(&mut out, inlines);
                out.push('\n');
            }
            Block::List(items) => {
                for item in items {
                    out.push_str("- ");
                    inline(&mut out, item);
                    out.push('\n');
                }
            }
        }
    }
    out
}

fn inline(out: &mut String, inlines: &[Inline]) {
    for piece in inlines {
        match piece {
            Inline::Text(text) | Inline::Code(text) | Inline::Link { text, .. } => {
                out.push_str(text);
            }
            Inline::Break => out.push('\n'),
        }
    }
}
