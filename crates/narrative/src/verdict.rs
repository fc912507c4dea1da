//! From a model's reply to what the report shows: parse (structured or plain), the
//! whole-reply checks, the per-sentence checks, the evidence of each blocker, redaction on
//! the way out, and the one warning that says what was left out.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use redact::Redactor;
use report_model::{
    CheckedBlocker, CheckedSentence, NarrativeCheck, ReportKind, Warning, WarningCode,
};

use crate::Lang;
use crate::grounding::{self, Facts, Rejection};
use crate::reply::{self, Parsed, RawBlocker};

/// Most possible blockers shown.
const MAX_BLOCKERS: usize = 5;

/// The outcome of the checks on one reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// The narrative text (the kept sentences, redacted), when the reply was accepted.
    pub text: Option<String>,
    /// The blockers shown (redacted).
    pub blockers: Vec<String>,
    /// What happened to each sentence and blocker, as `--format json` shows it.
    pub check: NarrativeCheck,
    /// `llm_rejected`, `llm_sentences_dropped` or (an empty reply) `llm_failed`, if any.
    pub warning: Option<Warning>,
}

/// Runs every check on `reply`.
pub(crate) fn check(
    reply: &str,
    kind: ReportKind,
    lang: Lang,
    max_chars: usize,
    facts: &Facts,
    instructions: &[&str],
    redactor: &Redactor,
) -> Checked {
    let with_blockers = kind == ReportKind::Standup;
    let redact = |text: &str| redactor.redact(text).0.into_owned();
    let (summary, capped, blockers, structured) =
        match reply::parse(reply, with_blockers, max_chars) {
            Parsed::Structured(parsed) => (parsed.summary, parsed.capped, parsed.blockers, true),
            Parsed::OtherJson => {
                return rejected(Rejection::JsonDump, false, Vec::new(), Vec::new());
            }
            Parsed::Plain => match reply::clean(reply, with_blockers, max_chars) {
                Some(cleaned) => (cleaned.text, cleaned.capped, cleaned.blockers, false),
                None => return rejected(Rejection::Empty, false, Vec::new(), Vec::new()),
            },
        };

    // Redacted once, before the checks: the payload they compare with is redacted too, and
    // what they record reaches `--format json`.
    let summary = redact(&summary);
    let blockers: Vec<RawBlocker> = blockers
        .into_iter()
        .map(|blocker| RawBlocker {
            text: redact(&blocker.text),
            evidence: blocker.evidence.iter().map(|id| redact(id)).collect(),
        })
        .collect();
    let mut sentences = Vec::new();
    let mut kept = Vec::new();
    for sentence in grounding::sentences(&summary) {
        let faults = grounding::check_sentence(sentence, facts, true);
        let text = sentence.to_owned();
        if faults.is_empty() {
            kept.push(text.clone());
        }
        sentences.push(CheckedSentence {
            text,
            kept: faults.is_empty(),
            reasons: faults.iter().map(|fault| fault.as_str().to_owned()).collect(),
        });
    }
    let checked_blockers = check_blockers(&blockers, facts);

    let rejection = grounding::check_reply(&summary, lang, capped, instructions).or_else(|| {
        if kept.is_empty() {
            Some(Rejection::NothingSupported)
        } else if (sentences.len() - kept.len()) * 2 > sentences.len() {
            Some(Rejection::MostDropped)
        } else {
            None
        }
    });
    if let Some(rejection) = rejection {
        return rejected(rejection, structured, sentences, checked_blockers);
    }

    let text = join(&kept);
    let shown: Vec<String> = checked_blockers
        .iter()
        .filter(|blocker| blocker.kept)
        .map(|blocker| blocker.text.clone())
        .collect();
    let dropped_sentences: Vec<&CheckedSentence> =
        sentences.iter().filter(|sentence| !sentence.kept).collect();
    let dropped_blockers: Vec<&CheckedBlocker> =
        checked_blockers.iter().filter(|blocker| !blocker.kept).collect();
    let warning = (!dropped_sentences.is_empty() || !dropped_blockers.is_empty()).then(|| {
        let mut message = format!(
            "{} of {} sentences of the narrative left out as not supported by the data{}",
            dropped_sentences.len(),
            sentences.len(),
            tally(dropped_sentences.iter().flat_map(|sentence| &sentence.reasons)),
        );
        if !dropped_blockers.is_empty() {
            let _ = write!(
                message,
                "; {} of {} possible blockers left out{}",
                dropped_blockers.len(),
                checked_blockers.len(),
                tally(dropped_blockers.iter().flat_map(|blocker| &blocker.reasons)),
            );
        }
        Warning::new(WarningCode::LlmSentencesDropped, message)
            .with("dropped", dropped_sentences.len())
            .with("total", sentences.len())
            .with("blockers_dropped", dropped_blockers.len())
            .with("blockers", checked_blockers.len())
    });
    Checked {
        text: Some(text),
        blockers: shown,
        check: NarrativeCheck {
            accepted: true,
            reason: None,
            structured,
            cached: false,
            sentences,
            blockers: checked_blockers,
        },
        warning,
    }
}

/// ` (number: 1, unsupported: 2)`, or nothing when there are no reasons.
fn tally<'a>(reasons: impl Iterator<Item = &'a String>) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for reason in reasons {
        *counts.entry(reason.as_str()).or_default() += 1;
    }
    if counts.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = counts.iter().map(|(reason, n)| format!("{reason}: {n}")).collect();
    format!(" ({})", parts.join(", "))
}

/// The kept sentences as one paragraph: a space between English sentences, none after a
/// Japanese end mark.
fn join(sentences: &[String]) -> String {
    let mut text = String::new();
    for sentence in sentences {
        if !text.is_empty() && !text.ends_with(['。', '！', '？']) {
            text.push(' ');
        }
        text.push_str(sentence);
    }
    text
}

/// Each blocker kept only when it cites at least one id, every id it cites is in the
/// payload, and its numbers, identifiers and URLs are too; at most five.
fn check_blockers(blockers: &[RawBlocker], facts: &Facts) -> Vec<CheckedBlocker> {
    let mut shown = 0;
    blockers
        .iter()
        .map(|blocker| {
            let mut reasons = Vec::new();
            if blocker.evidence.is_empty() {
                reasons.push("no_evidence".to_owned());
            } else if !blocker.evidence.iter().all(|id| facts.ids.contains(id)) {
                reasons.push("unknown_evidence".to_owned());
            }
            reasons.extend(
                grounding::check_sentence(&blocker.text, facts, false)
                    .into_iter()
                    .map(|fault| fault.as_str().to_owned()),
            );
            if reasons.is_empty() && shown >= MAX_BLOCKERS {
                reasons.push("too_many".to_owned());
            }
            let kept = reasons.is_empty();
            shown += usize::from(kept);
            CheckedBlocker {
                text: blocker.text.clone(),
                evidence: blocker.evidence.clone(),
                kept,
                reasons,
            }
        })
        .collect()
}

fn rejected(
    rejection: Rejection,
    structured: bool,
    mut sentences: Vec<CheckedSentence>,
    mut blockers: Vec<CheckedBlocker>,
) -> Checked {
    for sentence in &mut sentences {
        sentence.kept = false;
    }
    for blocker in &mut blockers {
        blocker.kept = false;
    }
    Checked {
        text: None,
        blockers: Vec::new(),
        check: NarrativeCheck {
            accepted: false,
            reason: Some(rejection.as_str().to_owned()),
            structured,
            cached: false,
            sentences,
            blockers,
        },
        warning: Some(if rejection == Rejection::Empty {
            Warning::new(
                WarningCode::LlmFailed,
                "no narrative: the model's reply was empty after cleaning",
            )
        } else {
            Warning::new(
                WarningCode::LlmRejected,
                format!(
                    "{}: {}; the report has no narrative",
                    rejection.as_str(),
                    rejection.describe()
                ),
            )
            .with("reason", rejection.as_str())
        }),
    }
}
