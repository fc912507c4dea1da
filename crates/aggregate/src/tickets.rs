//! Ticket keys in the work: `ABC-123`, `GH-12` and `#123` in branch names, commit
//! subjects and session titles (patterns configurable), each with its link and with the
//! commits and sessions that name it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::LazyLock;

use regex::Regex;
use report_model::{Bucket, Commit, Ticket, TicketSession};

/// The built-in patterns: a project key and a number (`ABC-123`, `GH-12`), and an issue
/// number after a space or an opening bracket (`#123`).
pub const DEFAULT_PATTERNS: [&str; 2] =
    [r"\b[A-Z][A-Z0-9]{1,9}-[1-9][0-9]{0,6}\b", r"(?:^|[\s(\[{,;:])(?P<key>#[1-9][0-9]{0,6})\b"];

/// Words before a dash and a number that name a standard or an encoding, not a ticket
/// (`UTF-8`, `SHA-256`, `ISO-8601`); the built-in patterns skip them.
const NOT_TICKETS: [&str; 14] = [
    "UTF", "SHA", "ISO", "CVE", "RFC", "AES", "HTTP", "TLS", "SSL", "MD", "IPV", "PEP", "ECMA",
    "WIN",
];

/// How ticket keys are found and linked.
#[derive(Debug, Clone)]
pub struct TicketRules {
    patterns: Vec<Regex>,
    builtin: bool,
    url: Option<String>,
    /// Whether a project's work is grouped by ticket.
    pub group_by: bool,
}

impl Default for TicketRules {
    fn default() -> Self {
        TicketRules::new(&[], None, false).unwrap_or_else(|_| TicketRules {
            patterns: Vec::new(),
            builtin: true,
            url: None,
            group_by: false,
        })
    }
}

/// Each pattern compiled, or the index of the first that is not a regular expression.
fn compile<S: AsRef<str>>(patterns: &[S]) -> Result<Vec<Regex>, (usize, regex::Error)> {
    patterns
        .iter()
        .enumerate()
        .map(|(index, pattern)| Regex::new(pattern.as_ref()).map_err(|error| (index, error)))
        .collect()
}

impl TicketRules {
    /// Rules with `patterns` (regular expressions; a group named `key`, else the first
    /// group, else the whole match is the key), or the built-in ones when there are none,
    /// and a link template where `{key}` stands for the key without a leading `#`.
    pub fn new(
        patterns: &[String],
        url: Option<String>,
        group_by: bool,
    ) -> Result<TicketRules, (usize, regex::Error)> {
        let builtin = patterns.is_empty();
        let patterns = if builtin {
            // Compiled once per process (the default configuration and the file's both
            // ask for them); a clone of a `Regex` shares its compiled program.
            static BUILTIN: LazyLock<Result<Vec<Regex>, (usize, regex::Error)>> =
                LazyLock::new(|| compile(&DEFAULT_PATTERNS));
            BUILTIN.clone()?
        } else {
            compile(patterns)?
        };
        Ok(TicketRules { patterns, builtin, url, group_by })
    }

    /// The keys `text` names, in the order they occur, each once.
    pub fn keys(&self, text: &str) -> Vec<String> {
        let mut found: Vec<(usize, String)> = Vec::new();
        for pattern in &self.patterns {
            for captures in pattern.captures_iter(text) {
                let Some(key) =
                    captures.name("key").or_else(|| captures.get(1)).or_else(|| captures.get(0))
                else {
                    continue;
                };
                if key.as_str().is_empty() {
                    continue;
                }
                if self.builtin {
                    let prefix = key.as_str().split('-').next().unwrap_or_default();
                    if NOT_TICKETS.contains(&prefix) {
                        continue;
                    }
                }
                found.push((key.start(), key.as_str().to_owned()));
            }
        }
        found.sort();
        let mut keys: Vec<String> = Vec::new();
        for (_, key) in found {
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        keys
    }

    /// The link of `key`, when a template is configured: `{key}` replaced by the key
    /// without a leading `#`, percent-encoded.
    pub fn url(&self, key: &str) -> Option<String> {
        let template = self.url.as_ref()?;
        let bare = key.strip_prefix('#').unwrap_or(key);
        let mut encoded = String::with_capacity(bare.len());
        for byte in bare.bytes() {
            if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
                encoded.push(char::from(byte));
            } else {
                let _ = write!(encoded, "%{byte:02X}");
            }
        }
        Some(template.replace("{key}", &encoded))
    }
}

/// Every ticket key the buckets' commits (subjects and branches) and sessions (titles and
/// branches) name, sorted by key.
pub(crate) fn find(buckets: &[Bucket], rules: &TicketRules) -> Vec<Ticket> {
    let mut tickets: BTreeMap<String, (BTreeSet<String>, BTreeSet<TicketSession>)> =
        BTreeMap::new();
    for bucket in buckets {
        for project in &bucket.projects {
            // A branch names the commits made for it: those of its commits that no
            // narrower branch holds (a commit of `main` that `feature/PAY-7` also
            // contains is not PAY-7's), as the Markdown labels them.
            let narrowest = narrowest_branches(&project.commits);
            for (commit, branches) in project.commits.iter().zip(&narrowest) {
                for text in std::iter::once(&commit.subject).chain(branches.iter().copied()) {
                    for key in rules.keys(text) {
                        tickets.entry(key).or_default().0.insert(commit.hash.clone());
                    }
                }
            }
            for session in &project.sessions {
                for text in std::iter::once(&session.title).chain(&session.branch) {
                    for key in rules.keys(text) {
                        tickets.entry(key).or_default().1.insert(TicketSession {
                            agent: session.agent,
                            session_id: session.session_id.clone(),
                        });
                    }
                }
            }
        }
    }
    tickets
        .into_iter()
        .map(|(key, (commits, sessions))| Ticket {
            url: rules.url(&key),
            key,
            commits: commits.into_iter().collect(),
            sessions: sessions.into_iter().collect(),
        })
        .collect()
}

fn label(commit: &Commit) -> &[String] {
    if commit.branches.is_empty() { &commit.remote_branches } else { &commit.branches }
}

/// For each commit, its narrowest branches: the ones (local, else remote-tracking) that
/// hold the fewest of the listed commits.
fn narrowest_branches(commits: &[Commit]) -> Vec<Vec<&String>> {
    let mut holds: BTreeMap<&str, usize> = BTreeMap::new();
    for commit in commits {
        for name in label(commit) {
            *holds.entry(name.as_str()).or_default() += 1;
        }
    }
    commits
        .iter()
        .map(|commit| {
            let names = label(commit);
            let fewest = names.iter().filter_map(|name| holds.get(name.as_str())).min();
            names.iter().filter(|name| holds.get(name.as_str()) == fewest).collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_patterns_find_project_keys_and_issue_numbers() {
        let rules = TicketRules::default();
        assert_eq!(rules.keys("ABC-123: retry (see #45, GH-12)"), ["ABC-123", "#45", "GH-12"]);
        assert_eq!(rules.keys("feature/PAY-7-retry"), ["PAY-7"]);
        assert_eq!(rules.keys("use UTF-8 and SHA-256 per ISO-8601"), Vec::<String>::new());
        assert_eq!(rules.keys("color#123 and a-1 and abc-12"), Vec::<String>::new());
        assert_eq!(rules.keys("#1 then #1 again"), ["#1"]);
    }

    #[test]
    fn configured_patterns_and_links() {
        let rules = TicketRules::new(
            &[r"(?i)\b(proj-\d+)\b".to_owned()],
            Some("https://t.example/browse/{key}".to_owned()),
            false,
        )
        .unwrap();
        assert_eq!(rules.keys("proj-9 and PROJ-10"), ["proj-9", "PROJ-10"]);
        assert_eq!(rules.url("PROJ-10").as_deref(), Some("https://t.example/browse/PROJ-10"));
        assert_eq!(rules.url("#12 x").as_deref(), Some("https://t.example/browse/12%20x"));
        let bad = TicketRules::new(&["ok".to_owned(), "(".to_owned()], None, false).unwrap_err();
        assert_eq!(bad.0, 1);
    }
}
