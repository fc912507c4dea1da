//! Ticket keys in a sentence (issue 21, item 6): a key the sentence names must be one the
//! payload holds, found in what the sentence cites (the ticket's own id, `ticket:PAY-7`,
//! or a commit or session whose subject, branch or title names it), or, for a sentence
//! without citations, in what it speaks of. A key-shaped token the payload does not hold
//! as a ticket passes only where an item in scope writes it itself.

use std::sync::LazyLock;

use regex::Regex;

use super::{Bound, Index};

/// The shapes of the built-in ticket patterns (`PAY-7`, `GH-12`, `#123`); the boundaries
/// are checked by hand, since `\b` would not part a key from Japanese text around it.
static KEY_SHAPE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[A-Z][A-Z0-9]{1,9}-[1-9][0-9]{0,6}|#[1-9][0-9]{0,6}").expect("a valid pattern")
});

/// Prefixes of standards and encodings, not tickets (as the report's built-in patterns).
const NOT_TICKETS: [&str; 14] = [
    "UTF", "SHA", "ISO", "CVE", "RFC", "AES", "HTTP", "TLS", "SSL", "MD", "IPV", "PEP", "ECMA",
    "WIN",
];

fn latin(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether `text[start..end]` stands alone: no Latin letter, digit, `_` (or, before a
/// key, `-`; before `#`, `&`) around it.
fn stands_alone(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].chars().next_back();
    let after = text[end..].chars().next();
    let hash = text[start..].starts_with('#');
    !before.is_some_and(|c| latin(c) || c == '-' || (hash && c == '&'))
        && !after.is_some_and(|c| latin(c) || (!hash && c == '-'))
}

/// The ticket keys `sentence` names: the payload's own keys (whatever pattern found them)
/// and the tokens shaped like the built-in patterns.
fn keys_in(sentence: &str, index: &Index) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for (key, _) in &index.tickets {
        let found = sentence
            .match_indices(key.as_str())
            .any(|(at, _)| !key.is_empty() && stands_alone(sentence, at, at + key.len()));
        if found && !keys.contains(key) {
            keys.push(key.clone());
        }
    }
    for shaped in KEY_SHAPE.find_iter(sentence) {
        let key = shaped.as_str();
        let prefix = key.split('-').next().unwrap_or_default();
        if !stands_alone(sentence, shaped.start(), shaped.end()) || NOT_TICKETS.contains(&prefix) {
            continue;
        }
        if !keys.iter().any(|known| known == key) {
            keys.push(key.to_owned());
        }
    }
    keys
}

/// Whether every ticket key the sentence names is borne out by what it is bound to.
pub(super) fn tickets_hold(sentence: &str, index: &Index, bound: &Bound<'_>) -> bool {
    keys_in(sentence, index).iter().all(|key| {
        let holders = index.tickets.iter().filter(|(known, _)| known == key);
        let held = holders.flat_map(|(_, items)| items).any(|item| bound.scope.contains(item));
        let lower = key.to_lowercase();
        held || bound.scope.iter().any(|&item| {
            let text = &index.items[item].vocab.text;
            text.match_indices(lower.as_str())
                .any(|(at, _)| stands_alone(text, at, at + lower.len()))
        })
    })
}

/// `folded` (lowercase) with the payload's ticket keys blanked out, so that the project
/// part of a key (`pay` in `pay-7`) does not name a project.
pub(super) fn without_keys(folded: &str, index: &Index) -> String {
    let mut text = folded.to_owned();
    for (key, _) in &index.tickets {
        let lower = key.to_lowercase();
        if lower.is_empty() {
            continue;
        }
        let found: Vec<usize> = text
            .match_indices(lower.as_str())
            .map(|(at, _)| at)
            .filter(|&at| stands_alone(&text, at, at + lower.len()))
            .collect();
        for at in found {
            text.replace_range(at..at + lower.len(), &" ".repeat(lower.len()));
        }
    }
    text
}

/// The cited items and, for each cited ticket, the commits and sessions it was found in:
/// a ticket stands for its work.
pub(super) fn with_their_work(cited: &[usize], index: &Index) -> Vec<usize> {
    let mut scope = cited.to_vec();
    for (_, holders) in &index.tickets {
        if holders.first().is_some_and(|ticket| cited.contains(ticket)) {
            scope.extend(holders.iter().skip(1).filter(|item| !cited.contains(item)));
        }
    }
    scope
}
