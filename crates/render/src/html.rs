//! The HTML form: a fragment for rich-text paste into mail, Confluence, Notion or Teams.
//!
//! Only `<h2>`–`<h4>`, `<p>`, `<br>`, `<ul>`, `<li>`, `<code>` and, for ticket keys with
//! a `[tickets] url`, `<a href>` to an `http`/`https` address; no other attribute: no
//! `<script>`, `<style>`, `<img>` or event handlers can appear, whatever the sources held,
//! because every piece of text (and the address) is escaped (`&`, `<`, `>`, `"`, `'`).

use std::fmt::Write as _;

use crate::doc::{Block, Inline};

pub(crate) fn write(blocks: &[Block]) -> String {
    let mut out = String::new();
    for block in blocks {
        match block {
            Block::Heading(level, inlines) => {
                // The report's title is an `<h2>`: the fragment lands inside a page or a
                // message that has its own title.
                let tag = format!("h{}", (level + 1).min(6));
                let _ = write!(out, "<{tag}>");
                inline(&mut out, inlines);
                let _ = writeln!(out, "</{tag}>");
            }
            Block::Paragraph(inlines) => {
                out.push_str("<p>");
                inline(&mut out, inlines);
                out.push_str("</p>\n");
            }
            Block::List(items) => {
                out.push_str("<ul>\n");
                for item in items {
                    out.push_str("<li>");
                    inline(&mut out, item);
                    out.push_str("</li>\n");
                }
                out.push_str("</ul>\n");
            }
        }
    }
    out
}

fn inline(out: &mut String, inlines: &[Inline]) {
    for piece in inlines {
        match piece {
            Inline::Text(text) => out.push_str(&escape(text)),
            Inline::Code(code) => {
                out.push_str("<code>");
                out.push_str(&escape(code));
                out.push_str("</code>");
            }
            Inline::Break => out.push_str("<br />\n"),
            Inline::Link { text, url } => {
                let _ = write!(out, "<a href=\"{}\">{}</a>", escape(url), escape(text));
            }
        }
    }
}

/// Text safe in HTML element content and in quoted attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            other => escaped.push(other),
        }
    }
    escaped
}
