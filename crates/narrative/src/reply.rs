//! Response handling (DESIGN §8.7): what a model's reply goes through before it can reach a
//! report.

use std::sync::LazyLock;

use regex::Regex;

use crate::prompts::BLOCKER_PREFIX;

/// Most possible blockers kept from one reply.
const MAX_BLOCKERS: usize = 5;
/// Longest possible blocker kept, in characters.
const MAX_BLOCKER_CHARS: usize = 300;

/// A closed reasoning block: `<think>…</think>` (or `<thinking>`), any case, across lines.
static THINK_BLOCK: LazyLock<Regex> = LazyLock::new(|| {
    // The pattern is a constant, checked by the tests.
    Regex::new(r"(?is)<think(?:ing)?\s*>.*?</think(?:ing)?\s*>").expect("valid regex")
});
static THINK_OPEN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)<think(?:ing)?\s*>").expect("valid regex"));
static THINK_CLOSE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)</think(?:ing)?\s*>").expect("valid regex"));
/// A Markdown image, `![alt](target)`.
static IMAGE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"!\[([^\]\n]*)\]\([^)\n]*\)").expect("valid regex"));
/// A Markdown inline link, `[text](target)`.
static LINK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\[([^\]\n]*)\]\([^)\n]*\)").expect("valid regex"));
/// An HTML tag, comment or declaration, or an autolink (`<https://…>`).
static HTML_TAG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"<[A-Za-z/!?][^<>]*>").expect("valid regex"));
/// A `<` that could still start a tag after the tags were removed.
static TAG_START: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"<([A-Za-z/!?])").expect("valid regex"));
/// Trailing blanks before a newline.
static TRAILING_BLANKS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[ \t]+\n").expect("valid regex"));
/// Three or more newlines (blank lines may hold spaces).
static BLANK_LINES: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\n(?:[ \t]*\n){2,}").expect("valid regex"));
/// A possible-blocker line: `BLOCKER: …`, optionally as a list item or in bold.
static BLOCKER_LINE: LazyLock<Regex> = LazyLock::new(|| {
    let word = regex::escape(BLOCKER_PREFIX.trim_end_matches(':'));
    Regex::new(&format!(
        r"(?i)^[ \t]*(?:[-*•][ \t]*)?(?:\*\*|__)?{word}(?:\*\*|__)?[ \t]*[:：](?:\*\*|__)?[ \t]*(.*)$"
    ))
    .expect("valid regex")
});

/// A reply after cleaning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cleaned {
    /// The narrative, never empty.
    pub(crate) text: String,
    /// Possible blockers (standup only).
    pub(crate) blockers: Vec<String>,
}

/// Cleans a model's reply: sanitize, drop reasoning blocks, take out possible-blocker lines
/// when `with_blockers`, neutralize Markdown images, links and raw HTML, collapse blank
/// lines, trim and cap the text at `max_chars`. `None` when nothing is left.
pub(crate) fn clean(reply: &str, with_blockers: bool, max_chars: usize) -> Option<Cleaned> {
    let text = sanitize::clean(reply);
    let text = drop_reasoning(&text);
    let (text, blockers) = if with_blockers { split_blockers(&text) } else { (text, Vec::new()) };
    let text = neutralize(&text);
    let text = TRAILING_BLANKS.replace_all(&text, "\n");
    let text = BLANK_LINES.replace_all(&text, "\n\n");
    let (text, _) = sanitize::cap(text.trim(), max_chars);
    let text = text.trim_end().to_owned();
    if text.is_empty() {
        return None;
    }
    Some(Cleaned { text, blockers })
}

/// Removes `<think>…</think>` blocks; an unclosed `<think>` hides the rest of the reply
/// (the model ran out of tokens while reasoning), and a `</think>` without its opening tag
/// (some templates send the opening tag themselves) hides everything before it.
fn drop_reasoning(text: &str) -> String {
    let mut text = THINK_BLOCK.replace_all(text, "").into_owned();
    if let Some(close) = THINK_CLOSE.find_iter(&text).last() {
        text = text[close.end()..].to_owned();
    }
    if let Some(open) = THINK_OPEN.find(&text) {
        text.truncate(open.start());
    }
    text
}

/// Takes out the possible-blocker lines and returns the rest of the text and the blockers
/// (cleaned to one line each, capped, without empty ones or ones that only say "none").
fn split_blockers(text: &str) -> (String, Vec<String>) {
    let mut rest = String::with_capacity(text.len());
    let mut blockers = Vec::new();
    for line in text.split('\n') {
        let Some(captures) = BLOCKER_LINE.captures(line) else {
            rest.push_str(line);
            rest.push('\n');
            continue;
        };
        let blocker = captures.get(1).map_or("", |found| found.as_str());
        let blocker = neutralize(blocker.trim().trim_matches('*').trim());
        let is_none = ["none", "n/a", "なし", "特になし", "ありません"]
            .iter()
            .any(|word| blocker.trim_end_matches(['.', '。']).eq_ignore_ascii_case(word));
        if blocker.is_empty() || is_none || blockers.len() >= MAX_BLOCKERS {
            continue;
        }
        let (blocker, _) = sanitize::cap(&blocker, MAX_BLOCKER_CHARS);
        blockers.push(blocker.into_owned());
    }
    (rest, blockers)
}

/// Makes Markdown images, links and raw HTML inert: an image becomes its alt text, a link
/// its text, a tag or autolink is removed, and what is left that could still form one is
/// broken up (`](` gets a space, a `<` before a letter becomes `‹`).
fn neutralize(text: &str) -> String {
    let text = IMAGE.replace_all(text, "$1");
    let text = LINK.replace_all(&text, "$1");
    let text = HTML_TAG.replace_all(&text, "");
    let text = TAG_START.replace_all(&text, "‹$1");
    // Whatever nesting the two passes above left, no inline link, image or link reference
    // definition can form without `](` or `]:`.
    text.replace("](", "] (").replace("]:", "] :")
}

#[cfg(test)]
mod tests;
