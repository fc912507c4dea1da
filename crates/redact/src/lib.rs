#![doc = include_str!("../README.md")]
#![doc = ""]
//! Detects secrets in text and masks them as `[REDACTED:<rule-id>]`.
//!
//! Owns the built-in ruleset, user rules, the allow-list and the counts of what was
//! masked. Never knows about reports, never reads files or touches the network, and
//! never logs or returns the text it masked (errors name rules, not patterns).
//!
//! ```
//! let redactor = redact::Redactor::builtin();
//! let (masked, n_masked) = redactor.redact("export DB_PASSWORD=hunter2hunter2 && ./run");
//! assert_eq!(masked, "export DB_PASSWORD=[REDACTED:generic-assignment] && ./run");
//! assert_eq!(n_masked, 1);
//! // Clean text is returned as it was, without allocating.
//! assert!(matches!(redactor.redact("git push origin main").0, std::borrow::Cow::Borrowed(_)));
//! ```
//!
//! # How it works
//!
//! Every rule lists literal keywords that any of its matches must contain. One
//! Aho-Corasick automaton over all keywords (ignoring ASCII case) scans the text once;
//! text without a keyword is returned as [`Cow::Borrowed`] after that single scan. Only
//! the rules whose keywords occur run their regex. Each match then has to pass the
//! rule's entropy floor, the placeholder checks and the allow-list. Overlapping matches
//! are merged into one mask labelled by the earliest of their rules in the list, and the
//! specific token rules come before the generic ones: `GITHUB_TOKEN=ghp_…` becomes
//! `GITHUB_TOKEN=[REDACTED:github-pat]`.
//!
//! `[REDACTED:x]` for a known rule id `x` is never masked again, but a mask changes what
//! the rules see around it: a token boundary appears where a masked token's last letter
//! was, and a regex that can match `[` or `]` may now match across the mask. So after a
//! pass that masked something, the rules that could find something new run again: those
//! whose regex can match a bracket, those whose earlier match reached into a mask, and
//! all of them when a mask touches token-like text (a letter, digit or one of `_-.~+/%`).
//! That repeats until a pass finds nothing (at most 8 passes), which makes
//! [`Redactor::redact`] idempotent. For the common cases (a token on its own, a
//! `name=value` pair) a second pass runs at most the generic rules, and stops there.
//!
//! # Rules
//!
//! A [`Rule`] is plain data:
//!
//! - `id`: the label in `[REDACTED:<id>]`; lower-case letters, digits, `-`, `_`, `.`.
//! - `regex`: the pattern ([`regex`] crate syntax, matched against `&str`).
//! - `keywords`: literals, matched ignoring ASCII case, at least one of which every match
//!   of `regex` contains. Text without any of them never runs the regex. A rule without
//!   keywords runs on every string: avoid that.
//! - `entropy`: the minimum Shannon entropy, in bits per character, of the masked text;
//!   random tokens score 4 to 6, words about 2 to 3, `aaaa` scores 0.
//! - `secret_group`: which capture group to mask (`None` or `Some(0)`: the whole match).
//!   If that group did not take part in a match, the first later group that did is
//!   masked, and the whole match if none did, so alternatives can each capture their own
//!   secret (`"(…)"|'(…)'|(…)` with `Some(1)`). A rule whose secret is the whole match
//!   runs faster: no capture groups are resolved.
//! - `description`: what the rule finds, for people.
//!
//! Every rule skips values that are references or stand-ins: `$VAR`, `${VAR}`,
//! `$(cmd)`, `${{ expr }}`, `{{ expr }}`, `<placeholder>`, `%VAR%`, `@VAR@` and runs of
//! mask characters (`***`, `xxxx`). The built-in generic rules (`generic-*`,
//! `url-credentials`, `url-token-user`, `authorization-header`, `api-key-header`,
//! `curl-user`, `mysql-password`) also skip placeholder words (`changeme`, `example`,
//! `your_token`, `true`, `string`, …), paths, plain URLs and dotted code references
//! (`config.api_key`, `process.env.TOKEN`).
//!
//! The built-in rules are data: `rules/builtin.toml`, in gitleaks' rule format, embedded
//! at build time and parsed once. To add one, add a `[[rules]]` entry there (keeping the
//! specific rules before the generic ones) and a true positive and a near miss to the
//! table in `tests/it/rules.rs`; a test fails while a rule id has no row. Users add rules
//! at run time, one by one or as a rule file in the same format
//! ([`RedactorBuilder::rules_toml`], which also reads a `.gitleaks.toml`):
//!
//! ```
//! use redact::{Redactor, Rule};
//! let redactor = Redactor::builder()
//!     .rule(Rule {
//!         id: "acme-key".to_owned(),
//!         regex: r"\b(acme_[a-z0-9]{24})\b".to_owned(),
//!         keywords: vec!["acme_".to_owned()],
//!         entropy: Some(3.0),
//!         secret_group: Some(1),
//!         description: "ACME internal API key".to_owned(),
//!     })
//!     .allow("acme_0000000000000000000test")
//!     .build()?;
//! assert_eq!(redactor.redact("key acme_q8w7e6r5t4y3u2i1o9p8a7s6").0, "key [REDACTED:acme-key]");
//! # Ok::<(), redact::Error>(())
//! ```
//!
//! # Look-alike letters
//!
//! Before matching, characters that imitate ASCII are folded to it, one character for
//! one: the full-width forms (`ｇｈｐ＿…`), the mathematical alphanumerics (`𝐩𝐚𝐬𝐬`) and the
//! Cyrillic and Greek letters drawn like Latin ones (`pаssword` with U+0430). The rules,
//! keywords, entropy and placeholder checks see the folded text; the mask replaces the
//! original characters, and everything outside the masks comes back as it was. The
//! allow-list is compared with the folded text too.
//!
//! # Allow-list
//!
//! An allow-list literal lets through every secret that **contains** it (equality
//! included), compared case-sensitively: `allow("EXAMPLE")` keeps
//! `AKIAIOSFODNN7EXAMPLE`. The check applies to the text that would be masked.
//!
//! # What it does not mask
//!
//! Git object ids, UUIDs, digests (`sha256:…`), versions, paths, long identifiers, URLs
//! without credentials and SSH public keys carry no keyword or fail a rule's shape, and
//! the word `password` with no value after it is not an assignment.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use aho_corasick::{AhoCorasick, AhoCorasickKind, Input, MatchKind};
use regex::Regex;
use regex_syntax::hir::{Class, Hir, HirKind};

mod builtin;
mod error;
mod filter;
mod fold;
mod rules_file;
mod ruleset;

pub use error::Error;
use rules_file::{Allowlist, FileRule};
use ruleset::RuleSet;

/// The most passes [`Redactor::redact`] makes over one string.
const MAX_PASSES: usize = 8;

/// The text that starts every mask.
const MARKER_OPEN: &str = "[REDACTED:";

#[cfg(test)]
thread_local! {
    /// The ids of the rules [`Redactor::find`] ran on this thread, in order, so that the
    /// unit tests can check which rules a pass runs again.
    static RULE_RUNS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A secret detection rule. See the [crate documentation](crate#rules) for what each
/// field means.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rule {
    /// The label of the mask, `[REDACTED:<id>]`.
    pub id: String,
    /// The pattern.
    pub regex: String,
    /// Literals (ASCII case ignored), one of which every match contains.
    pub keywords: Vec<String>,
    /// The minimum Shannon entropy of the masked text, in bits per character.
    pub entropy: Option<f64>,
    /// The capture group to mask (`None`: the whole match).
    pub secret_group: Option<usize>,
    /// What the rule finds.
    pub description: String,
}

/// Masks secrets. Cheap to clone and to share between threads.
#[derive(Debug, Clone)]
pub struct Redactor {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    rules: Vec<CompiledRule>,
    /// Keywords of all rules.
    keywords: AhoCorasick,
    /// For each keyword pattern, the rules that list it.
    keyword_rules: Vec<Vec<usize>>,
    /// The length of the longest keyword pattern, in bytes.
    longest_keyword: usize,
    /// Rules without keywords: they run on every string.
    always: Vec<usize>,
    /// The ids of all rules, sorted, to recognise masks already in a string.
    ids: Vec<String>,
    allow: Vec<String>,
    placeholder_parts: filter::PlaceholderParts,
}

#[derive(Debug)]
struct CompiledRule {
    rule: Rule,
    /// Whether the generic placeholder checks apply (built-in generic rules only).
    generic: bool,
    /// Whether the rule is built in (user rules are always run again after masking,
    /// since nothing is known of their shape).
    builtin: bool,
    /// The rules with a keyword that occurs in this rule's mask, `[REDACTED:<id>]`.
    mask_triggers: Vec<usize>,
    /// A one-pass regex, anchored at the start of a match of the rule's regex, whose
    /// first group that took part is the same secret (`extractor` in `rules/builtin.toml`).
    extractor: Option<String>,
    /// The rule's allow-lists (gitleaks' `[[rules.allowlists]]`).
    allowlists: Vec<Allowlist>,
    /// The compiled regexes. A built-in rule is compiled the first time one of its
    /// keywords occurs in a text, so a redactor costs little to build and clean text
    /// never compiles anything; a user rule is compiled (and so checked) when the
    /// redactor is built.
    compiled: OnceLock<Compiled>,
}

/// What a rule compiles to.
#[derive(Debug)]
struct Compiled {
    regex: Regex,
    /// Whether a match of `regex` can hold `[` or `]`, and so reach across a mask.
    brackets: bool,
    extractor: Option<Regex>,
}

impl Compiled {
    fn new(rule: &Rule, extractor: Option<&str>) -> Result<Compiled, Error> {
        let Ok(regex) = Regex::new(&rule.regex) else {
            return Err(Error::InvalidRegex { id: rule.id.clone() });
        };
        // The regex compiled, so it parses; an error here would only make the rule look
        // able to match brackets, which is the safe side.
        let brackets = regex_syntax::parse(&rule.regex).map_or(true, |hir| can_match_bracket(&hir));
        let Ok(extractor) = extractor.map(Regex::new).transpose() else {
            return Err(Error::InvalidRegex { id: rule.id.clone() });
        };
        Ok(Compiled { regex, brackets, extractor })
    }
}

impl CompiledRule {
    /// The rule's regexes, compiled on first use.
    fn compiled(&self) -> &Compiled {
        self.compiled.get_or_init(|| {
            // Only built-in rules get here uncompiled, and every one of them is tested to
            // compile (`tests::every_builtin_rule_compiles`): a failure is a bug in this
            // crate, not something input can cause.
            Compiled::new(&self.rule, self.extractor.as_deref())
                .expect("the built-in rules compile")
        })
    }
}

/// Builds a [`Redactor`] from the built-in rules (unless left out), user rules and an
/// allow-list.
#[derive(Debug, Clone)]
pub struct RedactorBuilder {
    builtin: bool,
    rules: Vec<FileRule>,
    allow: Vec<String>,
}

/// One thing to mask: `text[start..end]`, found by rule number `rule_idx`.
#[derive(Debug, Clone, Copy)]
struct Span {
    start: usize,
    end: usize,
    rule_idx: usize,
}

impl Redactor {
    /// The built-in ruleset with an empty allow-list.
    ///
    /// Built once per process, on the first call: later calls return a handle to the
    /// same redactor, so its automaton is built and each rule's regex compiled once for
    /// the whole process. [`Redactor::builder`]`().build()` builds a fresh one.
    ///
    /// # Panics
    ///
    /// Never: the built-in rules are tested to build.
    pub fn builtin() -> Redactor {
        static BUILTIN: OnceLock<Redactor> = OnceLock::new();
        // The built-in rules are tested to compile (`tests/it/rules.rs`); a failure here
        // is a bug in this crate, not something input can cause.
        BUILTIN
            .get_or_init(|| Redactor::builder().build().expect("the built-in rules compile"))
            .clone()
    }

    /// A builder that starts from the built-in rules.
    pub fn builder() -> RedactorBuilder {
        RedactorBuilder { builtin: true, rules: Vec::new(), allow: Vec::new() }
    }

    /// The rules in the order they are tried.
    pub fn rules(&self) -> impl Iterator<Item = &Rule> {
        self.inner.rules.iter().map(|compiled| &compiled.rule)
    }

    /// Masks every secret in `text` as `[REDACTED:<rule-id>]` and says how many were
    /// masked. Returns [`Cow::Borrowed`] when nothing was.
    ///
    /// Look-alike letters (Cyrillic `а` in `pаssword`, full-width `ｇｈｐ＿`, see
    /// [`fold`](crate#look-alike-letters)) are matched as the ASCII letters they imitate,
    /// and the mask covers the original characters.
    pub fn redact<'a>(&self, text: &'a str) -> (Cow<'a, str>, usize) {
        let masked = match fold::fold(text) {
            Some(folded) => self.redact_folded(&folded, Some(text)),
            None => self.redact_folded(text, None),
        };
        match masked {
            Some((masked, n_masked)) => (Cow::Owned(masked), n_masked),
            None => (Cow::Borrowed(text), 0),
        }
    }

    /// Redacts `text`; when `shadow` is given, `text` is its folded form (the same number
    /// of characters, one for one) and the result is `shadow` with the masks `text` got.
    /// `None` when nothing was masked.
    fn redact_folded(&self, text: &str, shadow: Option<&str>) -> Option<(String, usize)> {
        let inner = &*self.inner;
        let first_rules = self.prefilter(text)?;
        let mut current = Cow::Borrowed(text);
        let mut shadow = shadow.map(Cow::Borrowed);
        let mut n_masked = 0;
        // The rules that may have a keyword in the text: masking removes keywords, and
        // adds only those that occur in the masks themselves.
        let mut hits = first_rules;
        let mut runs = hits.clone();
        let mut scratch = Scratch::default();
        for pass_idx in 0..MAX_PASSES {
            let Some(pass) = self.pass(&current, &runs, &mut scratch) else { break };
            n_masked += pass.n_masked;
            if let Some(original) = &mut shadow {
                *original =
                    Cow::Owned(shadow_masks(&current, original, &scratch.merged, &pass.masked));
            }
            current = Cow::Owned(pass.masked);
            for &mask_rule in &scratch.masks {
                for &rule_idx in &inner.rules[mask_rule].mask_triggers {
                    hits.insert(rule_idx);
                }
            }
            // After the first pass only the rules that can find something new run (see
            // `Pass`); later passes, which are rare, run every rule again.
            runs = RuleSet::new(inner.rules.len());
            for rule_idx in hits.iter() {
                let compiled = &inner.rules[rule_idx];
                if pass_idx > 0
                    || pass.glued
                    || pass.rerun.contains(rule_idx)
                    || !compiled.builtin
                    || compiled.compiled().brackets
                {
                    runs.insert(rule_idx);
                }
            }
            if runs.is_empty() {
                break;
            }
        }
        if n_masked == 0 {
            return None;
        }
        Some((shadow.unwrap_or(current).into_owned(), n_masked))
    }

    /// Which rules have a keyword in `text` (or none), or `None` when no rule needs to
    /// run. Most text has no keyword at all, and a plain search is the fastest way to find
    /// that out; when there is one, an overlapping search finds every occurrence. It
    /// can start `longest_keyword` bytes before the end of the first match, since no
    /// occurrence ends before that one.
    fn prefilter(&self, text: &str) -> Option<RuleSet> {
        let inner = &*self.inner;
        let mut runs = RuleSet::new(inner.rules.len());
        if let Some(first) = inner.keywords.find(text) {
            let from = first.end().saturating_sub(inner.longest_keyword);
            for found in
                inner.keywords.find_overlapping_iter(Input::new(text).span(from..text.len()))
            {
                for &rule_idx in &inner.keyword_rules[found.pattern().as_usize()] {
                    runs.insert(rule_idx);
                }
            }
        }
        for &rule_idx in &inner.always {
            runs.insert(rule_idx);
        }
        (!runs.is_empty()).then_some(runs)
    }

    /// One pass of the rules in `runs` over `text`, or `None` when there is nothing to
    /// mask. Leaves the rules of the masks it inserted in `scratch.masks`.
    fn pass(&self, text: &str, runs: &RuleSet, scratch: &mut Scratch) -> Option<Pass> {
        let inner = &*self.inner;
        scratch.clear();
        if text.contains(MARKER_OPEN) {
            self.markers(text, &mut scratch.markers);
        }
        for rule_idx in runs.iter() {
            self.find(rule_idx, &inner.rules[rule_idx], text, scratch);
        }
        if scratch.spans.is_empty() {
            return None;
        }
        scratch.spans.sort_unstable_by_key(|span| (span.start, span.rule_idx));
        for span in &scratch.spans {
            match scratch.merged.last_mut() {
                Some(last) if span.start < last.end => {
                    last.end = last.end.max(span.end);
                    last.rule_idx = last.rule_idx.min(span.rule_idx);
                }
                _ => scratch.merged.push(*span),
            }
        }
        let merged = &scratch.merged;
        let mut rerun = RuleSet::new(inner.rules.len());
        for seen in &scratch.matches {
            // A match that reached a mask outside its own masked secret saw text that is
            // now gone, so the rule's search may go differently.
            let reached = merged.iter().any(|span| {
                let overlaps = seen.start < span.end && span.start < seen.end;
                let inside_own_secret =
                    seen.accepted && seen.secret_start <= span.start && span.end <= seen.secret_end;
                overlaps && !inside_own_secret
            });
            if reached {
                rerun.insert(seen.rule_idx);
            }
        }
        let mut masked = String::with_capacity(text.len() + 24 * merged.len());
        let mut copied = 0;
        let mut glued = false;
        for span in merged {
            glued |= text[..span.start].chars().next_back().is_some_and(is_glue)
                || text[span.end..].chars().next().is_some_and(is_glue);
            masked.push_str(&text[copied..span.start]);
            masked.push_str(MARKER_OPEN);
            masked.push_str(&inner.rules[span.rule_idx].rule.id);
            masked.push(']');
            copied = span.end;
            scratch.masks.push(span.rule_idx);
        }
        masked.push_str(&text[copied..]);
        Some(Pass { masked, n_masked: merged.len(), glued, rerun })
    }

    /// Puts the byte ranges of the masks of this redactor's rules already in `text`
    /// into `markers`.
    fn markers(&self, text: &str, markers: &mut Vec<(usize, usize)>) {
        for (start, _) in text.match_indices(MARKER_OPEN) {
            let rest = &text[start + MARKER_OPEN.len()..];
            let Some(id_len) = rest.find(']') else { break };
            if self.inner.ids.binary_search_by(|id| id.as_str().cmp(&rest[..id_len])).is_ok() {
                markers.push((start, start + MARKER_OPEN.len() + id_len + 1));
            }
        }
    }

    /// Adds what rule `rule_idx` finds in `text` to `scratch`.
    fn find(&self, rule_idx: usize, compiled: &CompiledRule, text: &str, scratch: &mut Scratch) {
        #[cfg(test)]
        RULE_RUNS.with(|runs| runs.borrow_mut().push(compiled.rule.id.clone()));
        let Scratch { markers, spans, matches, .. } = scratch;
        let group = compiled.rule.secret_group.unwrap_or(0);
        let Compiled { regex, extractor, .. } = compiled.compiled();
        let mut at = 0;
        if group == 0 {
            // The whole match is the secret: only the fast engines run.
            while let Some(whole) = regex.find_at(text, at) {
                let accepted = self.accept(
                    rule_idx,
                    compiled,
                    text,
                    (whole.start(), whole.end()),
                    (whole.start(), whole.end()),
                    markers,
                    spans,
                );
                matches.push(Seen {
                    rule_idx,
                    start: whole.start(),
                    end: whole.end(),
                    secret_start: whole.start(),
                    secret_end: whole.end(),
                    accepted,
                });
                at = next_start(text, whole.start(), whole.end());
                if at > text.len() {
                    break;
                }
            }
            return;
        }
        let mut locations = regex.capture_locations();
        let mut extracted = extractor.as_ref().map(Regex::capture_locations);
        loop {
            let (whole, secret) =
                if let (Some(extractor), Some(extracted)) = (extractor, &mut extracted) {
                    let Some(whole) = regex.find_at(text, at) else { break };
                    let secret = extractor
                        .captures_read(extracted, whole.as_str())
                        .and_then(|_| (1..extracted.len()).find_map(|idx| extracted.get(idx)))
                        .map(|(start, end)| (whole.start() + start, whole.start() + end))
                        .or_else(|| {
                            // The extractor is tested to agree with the rule; should it ever
                            // miss, resolve the groups the slow way.
                            regex.captures_read_at(&mut locations, text, whole.start())?;
                            (group..locations.len()).find_map(|idx| locations.get(idx))
                        });
                    (whole, secret)
                } else {
                    let Some(whole) = regex.captures_read_at(&mut locations, text, at) else {
                        break;
                    };
                    // The first participating group from `group` on (see `Rule::secret_group`).
                    (whole, (group..locations.len()).find_map(|idx| locations.get(idx)))
                };
            // Else the whole match.
            let (start, end) = secret.unwrap_or((whole.start(), whole.end()));
            let accepted = self.accept(
                rule_idx,
                compiled,
                text,
                (whole.start(), whole.end()),
                (start, end),
                markers,
                spans,
            );
            matches.push(Seen {
                rule_idx,
                start: whole.start(),
                end: whole.end(),
                secret_start: start,
                secret_end: end,
                accepted,
            });
            // Resume after the secret rather than after the whole match, so that context
            // this match consumed (a trailing delimiter, say) can still start the next one.
            at = next_start(text, whole.start(), end.max(whole.start()));
            if at > text.len() {
                break;
            }
        }
    }

    /// Adds `text[start..end]`, the secret of the match `whole`, to `spans` if it passes
    /// the checks, after cutting out the masks already in it (so that `[REDACTED:x]` is
    /// never masked again but text glued to it still is). Says whether anything was
    /// added.
    #[expect(clippy::too_many_arguments, reason = "a private helper of `find`")]
    fn accept(
        &self,
        rule_idx: usize,
        compiled: &CompiledRule,
        text: &str,
        whole: (usize, usize),
        (start, end): (usize, usize),
        markers: &[(usize, usize)],
        spans: &mut Vec<Span>,
    ) -> bool {
        if !compiled.allowlists.is_empty() {
            let line_start = text[..whole.0].rfind('\n').map_or(0, |at| at + 1);
            let line_end = text[whole.1..].find('\n').map_or(text.len(), |at| whole.1 + at);
            let line = &text[line_start..line_end.max(whole.1)];
            if compiled
                .allowlists
                .iter()
                .any(|list| list.allows(&text[start..end], &text[whole.0..whole.1], line))
            {
                return false;
            }
        }
        let mut accepted = false;
        let mut piece_start = start;
        for &(marker_start, marker_end) in markers {
            if marker_end <= piece_start || marker_start >= end {
                continue;
            }
            if marker_start > piece_start {
                accepted |= self.accept_piece(
                    rule_idx,
                    compiled,
                    &text[piece_start..marker_start],
                    piece_start,
                    spans,
                );
            }
            piece_start = piece_start.max(marker_end);
        }
        if piece_start < end {
            accepted |=
                self.accept_piece(rule_idx, compiled, &text[piece_start..end], piece_start, spans);
        }
        accepted
    }

    /// Adds `secret`, found at byte `start`, to `spans` if it passes the checks.
    fn accept_piece(
        &self,
        rule_idx: usize,
        compiled: &CompiledRule,
        secret: &str,
        start: usize,
        spans: &mut Vec<Span>,
    ) -> bool {
        // Cheapest checks first.
        let rejected = !secret.chars().any(char::is_alphanumeric)
            || filter::is_structural_placeholder(secret)
            || compiled.rule.entropy.is_some_and(|floor| filter::shannon_entropy(secret) < floor)
            || (compiled.generic
                && filter::is_generic_placeholder(secret, &self.inner.placeholder_parts))
            || self.inner.allow.iter().any(|allowed| secret.contains(allowed.as_str()));
        if !rejected {
            spans.push(Span { start, end: start + secret.len(), rule_idx });
        }
        !rejected
    }
}

/// Buffers one call of [`Redactor::redact`] reuses from pass to pass.
#[derive(Default)]
struct Scratch {
    /// The masks already in the text.
    markers: Vec<(usize, usize)>,
    /// What passed the checks.
    spans: Vec<Span>,
    /// Every match, masked or not.
    matches: Vec<Seen>,
    /// `spans` sorted and merged.
    merged: Vec<Span>,
    /// The rule of each mask inserted.
    masks: Vec<usize>,
}

impl Scratch {
    fn clear(&mut self) {
        self.markers.clear();
        self.spans.clear();
        self.matches.clear();
        self.merged.clear();
        self.masks.clear();
    }
}

/// One match of a rule's regex.
struct Seen {
    rule_idx: usize,
    start: usize,
    end: usize,
    secret_start: usize,
    secret_end: usize,
    /// Whether (part of) the secret passed the checks.
    accepted: bool,
}

/// The result of one pass of [`Redactor::redact`], with what the next pass needs to know.
///
/// Masking changes the text only inside the masks, so a rule can find something new in
/// the masked text only
/// - where a mask touches token-like text (`glued`): a token boundary may appear where
///   the masked text's first or last letter was;
/// - if one of its own matches reached a mask other than its own masked secret
///   (`rerun`): its search will go differently;
/// - if its regex can match `[` or `]` (`CompiledRule::brackets`), and so match across
///   a mask, whose text may give it what it needs (a `:` between a user and a password,
///   say);
/// - or, for a rule without keywords in the text, if a mask brought one in
///   (`Scratch::masks`, see `CompiledRule::mask_triggers`) and its regex can match
///   across it.
///
/// Every other rule would find what it found before, minus what is now masked. User
/// rules, whose shape is unknown, always run again.
struct Pass {
    masked: String,
    n_masked: usize,
    glued: bool,
    rerun: RuleSet,
}

/// `original` with the masks that one pass put into `text` (its folded form, character
/// for character) at the `merged` spans, giving `masked`.
fn shadow_masks(text: &str, original: &str, merged: &[Span], masked: &str) -> String {
    // Byte offsets in `text` of each character boundary, mapped to those in `original`.
    let mut offsets = vec![0; text.len() + 1];
    let mut original_chars = original.char_indices();
    for (at, _) in text.char_indices() {
        offsets[at] = original_chars.next().map_or(original.len(), |(original_at, _)| original_at);
    }
    offsets[text.len()] = original.len();
    let mut out = String::with_capacity(original.len() + masked.len());
    let mut copied = 0;
    let mut masked_at = 0;
    for span in merged {
        out.push_str(&original[offsets[copied]..offsets[span.start]]);
        // The mask itself, as the pass wrote it.
        masked_at += span.start - copied;
        let mask_len = masked[masked_at..].find(']').map_or(0, |end| end + 1);
        out.push_str(&masked[masked_at..masked_at + mask_len]);
        masked_at += mask_len;
        copied = span.end;
    }
    out.push_str(&original[offsets[copied]..]);
    out
}

/// Characters that can continue a token: a mask next to one of them changes what the
/// rules see there.
fn is_glue(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '~' | '+' | '/' | '%')
}

/// Where to search next after a match `start..end`: at `end`, or one character on when
/// the match was empty (past the end of `text` when there is no character left).
fn next_start(text: &str, start: usize, end: usize) -> usize {
    if end > start {
        end
    } else {
        text[end..].chars().next().map_or(text.len() + 1, |c| end + c.len_utf8())
    }
}

impl RedactorBuilder {
    /// Adds a rule after the built-in ones.
    #[must_use]
    pub fn rule(mut self, rule: Rule) -> Self {
        self.rules.push(FileRule { rule, generic: false, extractor: None, allowlists: Vec::new() });
        self
    }

    /// Adds the rules of a rule file in gitleaks' format (a `.gitleaks.toml`, or the
    /// same keys from a configuration), after the built-in ones and those added
    /// before: `[[rules]]` with `id`, `regex`, `keywords`, `entropy`, `secretGroup` (or
    /// `secret_group`), `description` and allow-lists (`[[rules.allowlists]]` or
    /// `[rules.allowlist]`, with `regexes`, `regexTarget`, `stopwords`, `condition`), and
    /// the file's own `[allowlist]` or `[[allowlists]]`, which apply to its rules. See
    /// `rules/builtin.toml`, the built-in rules in this format. A regex that does not
    /// compile as it is is read as Go reads it (a `{` that starts no repetition is a
    /// literal), as gitleaks' own files are written.
    ///
    /// ```
    /// let redactor = redact::Redactor::builder()
    ///     .rules_toml(r#"
    /// [[rules]]
    /// id = "acme-key"
    /// regex = '''\b(acme_[a-z0-9]{24})\b'''
    /// keywords = ["acme_"]
    /// [[rules.allowlists]]
    /// stopwords = ["test"]
    /// "#)?
    ///     .build()?;
    /// assert_eq!(redactor.redact("key acme_q8w7e6r5t4y3u2i1o9p8a7s6").0, "key [REDACTED:acme-key]");
    /// assert_eq!(redactor.redact("key acme_q8w7e6r5t4y3u2i1o9p8test").0, "key acme_q8w7e6r5t4y3u2i1o9p8test");
    /// # Ok::<(), redact::Error>(())
    /// ```
    pub fn rules_toml(mut self, text: &str) -> Result<Self, Error> {
        let file = rules_file::parse(text, true)?;
        self.rules.extend(file.rules.into_iter().map(|rule| FileRule { extractor: None, ..rule }));
        Ok(self)
    }

    /// Adds an allow-list literal: a secret that contains it is not masked.
    #[must_use]
    pub fn allow(mut self, literal: impl Into<String>) -> Self {
        self.allow.push(literal.into());
        self
    }

    /// Leaves the built-in rules out, so only the rules given with
    /// [`rule`](Self::rule) apply.
    #[must_use]
    pub fn without_builtin(mut self) -> Self {
        self.builtin = false;
        self
    }

    /// Compiles the rules.
    pub fn build(self) -> Result<Redactor, Error> {
        let builtin = if self.builtin { builtin::builtin() } else { Vec::new() };
        let all = builtin
            .into_iter()
            .map(|rule| (rule, true))
            .chain(self.rules.into_iter().map(|rule| (rule, false)));
        let mut rules: Vec<CompiledRule> = Vec::new();
        for (rule, builtin) in all {
            rules.push(compile(rule, builtin, &rules)?);
        }
        if self.allow.iter().any(String::is_empty) {
            return Err(Error::EmptyAllow);
        }

        let mut patterns: Vec<String> = Vec::new();
        let mut pattern_idxs: HashMap<String, usize> = HashMap::new();
        let mut keyword_rules: Vec<Vec<usize>> = Vec::new();
        let mut always = Vec::new();
        for (rule_idx, compiled) in rules.iter().enumerate() {
            if compiled.rule.keywords.is_empty() {
                always.push(rule_idx);
            }
            for keyword in &compiled.rule.keywords {
                let keyword = keyword.to_ascii_lowercase();
                if let Some(&pattern) = pattern_idxs.get(&keyword) {
                    keyword_rules[pattern].push(rule_idx);
                } else {
                    pattern_idxs.insert(keyword.clone(), patterns.len());
                    patterns.push(keyword);
                    keyword_rules.push(vec![rule_idx]);
                }
            }
        }
        let longest_keyword = patterns.iter().map(String::len).max().unwrap_or(0);
        // The contiguous NFA: built in about a millisecond where the DFA took eight
        // (every run builds it before its first report), and scans text about as fast.
        let keywords = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .kind(Some(AhoCorasickKind::ContiguousNFA))
            .build(&patterns)
            .or_else(|_| AhoCorasick::builder().ascii_case_insensitive(true).build(&patterns))
            .map_err(|_| Error::TooManyKeywords)?;
        // Which rules a mask can bring a keyword to: run each mask through the automaton.
        let bracket_rules: Vec<usize> = patterns
            .iter()
            .zip(&keyword_rules)
            .filter(|(pattern, _)| pattern.contains(['[', ']']))
            .flat_map(|(_, rule_idxs)| rule_idxs.iter().copied())
            .collect();
        for compiled in &mut rules {
            let mask = format!("{MARKER_OPEN}{}]", compiled.rule.id);
            let mut triggers = bracket_rules.clone();
            for found in keywords.find_overlapping_iter(&mask) {
                triggers.extend(&keyword_rules[found.pattern().as_usize()]);
            }
            triggers.sort_unstable();
            triggers.dedup();
            compiled.mask_triggers = triggers;
        }
        let mut ids: Vec<String> = rules.iter().map(|compiled| compiled.rule.id.clone()).collect();
        ids.sort_unstable();
        Ok(Redactor {
            inner: Arc::new(Inner {
                rules,
                keywords,
                keyword_rules,
                longest_keyword,
                always,
                ids,
                allow: self.allow,
                placeholder_parts: filter::PlaceholderParts::new(),
            }),
        })
    }
}

/// Checks and compiles one rule; `previous` holds the rules compiled so far. A built-in
/// rule is compiled on first use, a user rule now.
fn compile(
    file_rule: FileRule,
    builtin: bool,
    previous: &[CompiledRule],
) -> Result<CompiledRule, Error> {
    let FileRule { rule, generic, extractor, allowlists } = file_rule;
    let id_is_valid = rule.id.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && rule
            .id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | '.'));
    if !id_is_valid {
        return Err(Error::InvalidRuleId { id: rule.id });
    }
    if previous.iter().any(|compiled| compiled.rule.id == rule.id) {
        return Err(Error::DuplicateRuleId { id: rule.id });
    }
    if rule.keywords.iter().any(String::is_empty) {
        return Err(Error::EmptyKeyword { id: rule.id });
    }
    if rule.entropy.is_some_and(|entropy| entropy.is_nan() || entropy < 0.0) {
        return Err(Error::InvalidEntropy { id: rule.id });
    }
    let compiled = OnceLock::new();
    if !builtin {
        let user = Compiled::new(&rule, None)?;
        if let Some(group) = rule.secret_group {
            let last = user.regex.captures_len() - 1;
            if group > last {
                return Err(Error::SecretGroupOutOfRange { id: rule.id, group, last });
            }
        }
        let _ = compiled.set(user);
    }
    Ok(CompiledRule {
        rule,
        generic,
        builtin,
        extractor,
        allowlists,
        compiled,
        mask_triggers: Vec::new(),
    })
}

/// Whether some match of `hir` can contain `[` or `]`.
fn can_match_bracket(hir: &Hir) -> bool {
    // Whether the range `start..=end` holds `[` or `]`: asked of its ends, not of each
    // character (a class such as `[^\s]` spans more than a million).
    let holds_bracket = |start: u32, end: u32| {
        [b'[', b']'].iter().any(|&bracket| (start..=end).contains(&u32::from(bracket)))
    };
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => false,
        HirKind::Literal(literal) => literal.0.iter().any(|&byte| matches!(byte, b'[' | b']')),
        HirKind::Class(Class::Unicode(class)) => class
            .ranges()
            .iter()
            .any(|range| holds_bracket(u32::from(range.start()), u32::from(range.end()))),
        HirKind::Class(Class::Bytes(class)) => class
            .ranges()
            .iter()
            .any(|range| holds_bracket(u32::from(range.start()), u32::from(range.end()))),
        HirKind::Repetition(repetition) => can_match_bracket(&repetition.sub),
        HirKind::Capture(capture) => can_match_bracket(&capture.sub),
        HirKind::Concat(hirs) | HirKind::Alternation(hirs) => hirs.iter().any(can_match_bracket),
    }
}

#[cfg(test)]
mod tests;
