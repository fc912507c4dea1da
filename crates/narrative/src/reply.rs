//! Response handling (DESIGN §8.7): what a model's reply goes through before it can reach a
//! report.

use std::sync::LazyLock;

use regex::Regex;

use crate::prompts::BLOCKER_PREFIX;

/// Most possible blockers kept from one reply.
const MAX_BLOCKERS: usize = 5;
/// Longest possible blocker kept, in characters.
const MAX_BLOCKER_CHARS: usize = 300;
/// Longest evidence id kept, in characters.
const MAX_ID_CHARS: usize = 200;

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

/// A possible blocker as the model offered it: cleaned text and the evidence ids it cites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawBlocker {
    /// One line, cleaned and capped.
    pub(crate) text: String,
    /// The ids it cites, as written.
    pub(crate) evidence: Vec<String>,
}

/// A reply after cleaning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cleaned {
    /// The narrative, never empty.
    pub(crate) text: String,
    /// Possible blockers (standup only).
    pub(crate) blockers: Vec<RawBlocker>,
    /// Whether the text was cut at the output cap.
    pub(crate) capped: bool,
}

/// A reply that was JSON of the fixed schema, its parts cleaned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Structured {
    /// The summary (may be empty): the cited sentences' texts joined, or the one string.
    pub(crate) summary: String,
    /// The summary's parts with the ids each cites, when it came as a list of
    /// `{"text", "evidence"}` (`None`: the earlier form, one string, checked like plain
    /// text).
    pub(crate) cited: Option<Vec<CitedText>>,
    /// Whether the summary was cut at the output cap.
    pub(crate) capped: bool,
    /// The blockers whose parts had the right types.
    pub(crate) blockers: Vec<RawBlocker>,
}

/// One part of a structured summary and the evidence ids it cites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CitedText {
    /// The text, cleaned and capped (one or more sentences).
    pub(crate) text: String,
    /// The ids it cites, as written.
    pub(crate) evidence: Vec<String>,
}

/// What a reply turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Parsed {
    /// JSON of the fixed schema.
    Structured(Structured),
    /// JSON, but not of the schema (a dump of the data, say).
    OtherJson,
    /// Not JSON: the plain-text path.
    Plain,
}

/// Reads a reply as the fixed schema `{"summary": string, "blockers": [{"text": string,
/// "evidence": [string]}]}`, leniently: surrounding prose, a code fence and reasoning blocks
/// are ignored, unknown fields dropped, a wrongly typed part dropped, strings capped.
pub(crate) fn parse(reply: &str, with_blockers: bool, max_chars: usize) -> Parsed {
    let text = sanitize::clean(reply);
    let text = drop_reasoning(&text);
    let trimmed = text.trim();
    let (Some(start), Some(end)) = (trimmed.find('{'), trimmed.rfind('}')) else {
        return Parsed::Plain;
    };
    let Some(candidate) = trimmed.get(start..=end) else { return Parsed::Plain };
    // Only a reply that is JSON as a whole (perhaps fenced) counts; JSON inside prose is prose.
    let outside = format!("{}{}", &trimmed[..start], &trimmed[end + 1..]);
    let outside = outside.replace("```json", "").replace("```", "");
    if !outside.trim().is_empty() {
        return Parsed::Plain;
    }
    let Ok(value) = serde_json::from_str::<serde_json::Value>(candidate) else {
        return Parsed::Plain;
    };
    let (summary, capped, cited) = match value.get("summary") {
        Some(serde_json::Value::String(summary)) => {
            let (summary, capped) = clean_text(summary, max_chars);
            (summary, capped, None)
        }
        Some(serde_json::Value::Array(parts)) => {
            let (cited, capped) = cited_parts(parts, max_chars);
            let summary = join_parts(&cited);
            (summary, capped, Some(cited))
        }
        _ => return Parsed::OtherJson,
    };
    let blockers = if with_blockers {
        value
            .get("blockers")
            .and_then(serde_json::Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(|item| {
                        let text = item.get("text")?.as_str()?;
                        let evidence = evidence_of(item);
                        Some(RawBlocker { text: one_line(text, MAX_BLOCKER_CHARS), evidence })
                    })
                    .filter(|blocker| !blocker.text.is_empty())
                    .collect()
            })
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    Parsed::Structured(Structured { summary, cited, capped, blockers })
}

/// The ids an object cites in `evidence`, one line each, without empty ones.
fn evidence_of(item: &serde_json::Value) -> Vec<String> {
    item.get("evidence")
        .and_then(serde_json::Value::as_array)
        .map(|ids| {
            ids.iter()
                .filter_map(serde_json::Value::as_str)
                .map(|id| one_line(id, MAX_ID_CHARS))
                .filter(|id| !id.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// The parts of a summary list: `{"text", "evidence"}` objects (a bare string is a part
/// citing nothing; anything else is dropped), each cleaned to one line, while their texts
/// fit in `max_chars` together; also says whether something was cut.
fn cited_parts(parts: &[serde_json::Value], max_chars: usize) -> (Vec<CitedText>, bool) {
    let mut out = Vec::new();
    let mut used = 0;
    for part in parts {
        let (text, evidence) = match part {
            serde_json::Value::String(text) => (text.as_str(), Vec::new()),
            serde_json::Value::Object(_) => {
                let Some(text) = part.get("text").and_then(serde_json::Value::as_str) else {
                    continue;
                };
                (text, evidence_of(part))
            }
            _ => continue,
        };
        // The separator `join_parts` puts before it: a space, unless after a Japanese end
        // mark.
        let separator = usize::from(
            out.last().is_some_and(|part: &CitedText| !part.text.ends_with(['。', '！', '？'])),
        );
        let room = max_chars.saturating_sub(used + separator);
        let (text, capped) = clean_text(&text.replace(['\n', '\r', '\t'], " "), room);
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if text.is_empty() {
            if capped {
                return (out, true);
            }
            continue;
        }
        used += separator + text.chars().count();
        out.push(CitedText { text, evidence });
        if capped {
            return (out, true);
        }
    }
    (out, false)
}

/// The parts' texts as one paragraph: a space between English sentences, none after a
/// Japanese end mark.
pub(crate) fn join_parts(parts: &[CitedText]) -> String {
    let mut text = String::new();
    for part in parts {
        if !text.is_empty() && !text.ends_with(['。', '！', '？']) {
            text.push(' ');
        }
        text.push_str(&part.text);
    }
    text
}

/// Cleans a model's free-text reply: sanitize, drop reasoning blocks, take out
/// possible-blocker lines when `with_blockers`, then [`clean_text`]. `None` when nothing is
/// left.
pub(crate) fn clean(reply: &str, with_blockers: bool, max_chars: usize) -> Option<Cleaned> {
    let text = sanitize::clean(reply);
    let text = drop_reasoning(&text);
    let (text, blockers) = if with_blockers { split_blockers(&text) } else { (text, Vec::new()) };
    let (text, capped) = clean_text(&text, max_chars);
    if text.is_empty() {
        return None;
    }
    Some(Cleaned { text, blockers, capped })
}

/// Sanitizes, drops reasoning blocks, neutralizes Markdown images, links and raw HTML,
/// collapses blank lines, trims and caps at `max_chars`; also says whether it capped.
pub(crate) fn clean_text(text: &str, max_chars: usize) -> (String, bool) {
    let text = sanitize::clean(text);
    let text = drop_reasoning(&text);
    let text = neutralize(&text);
    let text = TRAILING_BLANKS.replace_all(&text, "\n");
    let text = BLANK_LINES.replace_all(&text, "\n\n");
    let (text, capped) = sanitize::cap(text.trim(), max_chars);
    (text.trim_end().to_owned(), capped)
}

/// One line of text, neutralized and capped.
fn one_line(text: &str, max_chars: usize) -> String {
    let text = sanitize::clean(text);
    let text = neutralize(&text.replace(['\n', '\r', '\t'], " "));
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    sanitize::cap(&text, max_chars).0.into_owned()
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
/// (cleaned to one line each, capped, without empty ones or ones that only say "none"),
/// each with the ids it cites in a trailing `[…]` or `(…)` group (`[ids: a, b]`,
/// `(evidence: a; b)`).
fn split_blockers(text: &str) -> (String, Vec<RawBlocker>) {
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
        let (text, evidence) = cited_ids(&blocker);
        blockers.push(RawBlocker { text: one_line(&text, MAX_BLOCKER_CHARS), evidence });
    }
    (rest, blockers)
}

/// Splits a trailing `[ids: …]` / `(evidence: …)` group off a blocker line.
fn cited_ids(line: &str) -> (String, Vec<String>) {
    let line = line.trim_end().trim_end_matches(['.', '。']);
    let Some((open, close)) =
        [('[', ']'), ('(', ')')].into_iter().find(|&(_, close)| line.ends_with(close))
    else {
        return (line.to_owned(), Vec::new());
    };
    let Some(start) = line.rfind(open) else { return (line.to_owned(), Vec::new()) };
    let inner = &line[start + open.len_utf8()..line.len() - close.len_utf8()];
    let inner = inner.trim();
    let inner = ["ids:", "id:", "evidence:", "根拠:"]
        .iter()
        .find_map(|label| {
            inner
                .get(..label.len())
                .filter(|head| head.eq_ignore_ascii_case(label))
                .map(|_| &inner[label.len()..])
        })
        .unwrap_or(inner);
    let ids: Vec<String> = inner
        .split([',', ';', '、'])
        .map(|id| one_line(id.trim().trim_matches('`'), MAX_ID_CHARS))
        .filter(|id| !id.is_empty())
        .collect();
    (line[..start].trim_end().to_owned(), ids)
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
