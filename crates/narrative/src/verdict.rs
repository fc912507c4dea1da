//! From a model's reply to what the report shows: parse (structured or plain), the
//! whole-reply checks, the per-sentence checks, the evidence of each blocker, redaction on
//! the way out, and the one warning that says what was left out.

use std::collections::BTreeMap;

use redact::Redactor;
use report_model::{
    CheckedBlocker, CheckedSentence, NarrativeCheck, ReportKind, Warning, WarningDetail,
};

use crate::Lang;
use crate::binding;
use crate::grounding::{self, Facts, Rejection};
use crate::reply::{self, CitedText, Parsed, RawBlocker};

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
    let (summary, capped, blockers, structured, cited) =
        match reply::parse(reply, with_blockers, max_chars) {
            Parsed::Structured(parsed) => {
                (parsed.summary, parsed.capped, parsed.blockers, true, parsed.cited)
            }
            Parsed::OtherJson => {
                return rejected(Rejection::JsonDump, false, Vec::new(), Vec::new());
            }
            Parsed::Plain => match reply::clean(reply, with_blockers, max_chars) {
                Some(cleaned) => (cleaned.text, cleaned.capped, cleaned.blockers, false, None),
                None => return rejected(Rejection::Empty, false, Vec::new(), Vec::new()),
            },
        };

    // Redacted once, before the checks: the payload they compare with is redacted too, and
    // what they record reaches `--format json`.
    let blockers: Vec<RawBlocker> = blockers
        .into_iter()
        .map(|blocker| RawBlocker {
            text: redact(&blocker.text),
            evidence: blocker.evidence.iter().map(|id| redact(id)).collect(),
        })
        .collect();
    let (summary, parts) = sentences_of(cited, &summary, &redact);
    let (sentences, kept) = check_sentences(parts, facts);
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
        Warning::new(WarningDetail::SentencesDropped {
            dropped: u32::try_from(dropped_sentences.len()).unwrap_or(u32::MAX),
            total: u32::try_from(sentences.len()).unwrap_or(u32::MAX),
            reasons: tally(dropped_sentences.iter().flat_map(|sentence| &sentence.reasons)),
            blockers_dropped: u32::try_from(dropped_blockers.len()).unwrap_or(u32::MAX),
            blockers: u32::try_from(checked_blockers.len()).unwrap_or(u32::MAX),
            blocker_reasons: tally(dropped_blockers.iter().flat_map(|blocker| &blocker.reasons)),
        })
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

/// One sentence of the summary and the ids it cites (`None`: uncited text).
struct Part {
    text: String,
    evidence: Option<Vec<String>>,
}

/// The summary (redacted) and its sentences with what each cites: a cited part's
/// sentences share its ids; a summary given as one string, or plain text, cites nothing
/// and is bound by what it names.
fn sentences_of(
    cited: Option<Vec<CitedText>>,
    summary: &str,
    redact: &impl Fn(&str) -> String,
) -> (String, Vec<Part>) {
    let Some(cited) = cited else {
        let summary = redact(summary);
        let parts = grounding::sentences(&summary)
            .into_iter()
            .map(|sentence| Part { text: sentence.to_owned(), evidence: None })
            .collect();
        return (summary, parts);
    };
    let cited: Vec<CitedText> = cited
        .into_iter()
        .map(|part| CitedText {
            text: redact(&part.text),
            evidence: part.evidence.iter().map(|id| redact(id)).collect(),
        })
        .collect();
    let parts = cited
        .iter()
        .flat_map(|part| {
            grounding::sentences(&part.text).into_iter().map(|sentence| Part {
                text: sentence.to_owned(),
                evidence: Some(part.evidence.clone()),
            })
        })
        .collect();
    (reply::join_parts(&cited), parts)
}

/// Each sentence checked, lexically against the whole payload and bound to what it cites
/// or names; also returns the kept ones.
fn check_sentences(parts: Vec<Part>, facts: &Facts) -> (Vec<CheckedSentence>, Vec<String>) {
    let mut sentences = Vec::new();
    let mut kept = Vec::new();
    for Part { text, evidence } in parts {
        let mut faults = grounding::check_sentence(&text, facts, true);
        for fault in binding::check(&text, &facts.index, evidence.as_deref()) {
            if !faults.contains(&fault) {
                faults.push(fault);
            }
        }
        faults.sort();
        if faults.is_empty() {
            kept.push(text.clone());
        }
        sentences.push(CheckedSentence {
            text,
            kept: faults.is_empty(),
            reasons: faults.iter().map(|fault| fault.as_str().to_owned()).collect(),
            evidence: evidence.unwrap_or_default(),
        });
    }
    (sentences, kept)
}

/// ` (number: 1, unsupported: 2)`, or nothing when there are no reasons.
fn tally<'a>(reasons: impl Iterator<Item = &'a String>) -> BTreeMap<String, u64> {
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for reason in reasons {
        *counts.entry(reason.clone()).or_default() += 1;
    }
    counts
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
        warning: Some(Warning::new(if rejection == Rejection::Empty {
            WarningDetail::EmptyReply
        } else {
            WarningDetail::Rejected { reason: rejection }
        })),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use report_model::WarningCode;

    use super::*;

    /// Sentences the payload of [`facts`] supports, and ones it does not.
    const SUPPORTED: [&str; 3] = [
        "Standup got the zsh reader fix.",
        "Metafied bytes are decoded in standup.",
        "Cargo test ran 18 times.",
    ];
    const UNSUPPORTED: [&str; 3] = [
        "Quarterly revenue projections were reviewed.",
        "Marketing budgets got approved by finance.",
        "Holiday schedules were planned for everyone.",
    ];

    fn facts() -> Facts {
        Facts::of(&json!({
            "kind": "standup",
            "buckets": [{
                "kind": "today",
                "projects": {"items": [{
                    "name": "standup",
                    "commits": {"items": [{"id": "deadbeef00", "subject": "collect: decode zsh metafied bytes"}]},
                    "sessions": {"items": [{"id": "session-6", "title": "Metafy fix for the zsh reader"}]},
                }]},
                "shell": {"groups": [{"id": "sh:cargo test", "head": "cargo test", "count": 18}]},
            }],
        }))
    }

    fn run(reply: &str, kind: ReportKind) -> Checked {
        let redactor = Redactor::builtin();
        check(reply, kind, Lang::En, 1_200, &facts(), &["You write a standup update."], &redactor)
    }

    #[test]
    fn a_reply_is_rejected_when_more_than_half_of_its_sentences_are_dropped() {
        // (supported, unsupported) sentences, and the rejection if any.
        let cases: [(usize, usize, Option<&str>); 7] = [
            (3, 0, None),
            (1, 1, None),
            (2, 2, None),
            (3, 2, None),
            (1, 2, Some("most_dropped")),
            (2, 3, Some("most_dropped")),
            (0, 3, Some("nothing_supported")),
        ];
        for (n_supported, n_unsupported, rejection) in cases {
            let reply: Vec<&str> = SUPPORTED[..n_supported]
                .iter()
                .chain(&UNSUPPORTED[..n_unsupported])
                .copied()
                .collect();
            let reply = reply.join(" ");
            let checked = run(&reply, ReportKind::Daily);
            assert_eq!(checked.check.reason.as_deref(), rejection, "{reply}");
            assert_eq!(checked.check.accepted, rejection.is_none());
            assert_eq!(checked.check.sentences.len(), n_supported + n_unsupported);
            if rejection.is_none() {
                assert_eq!(
                    checked.text.as_deref(),
                    Some(SUPPORTED[..n_supported].join(" ").as_str())
                );
                let warning = checked.warning.map(|warning| warning.code());
                let dropped = (n_unsupported > 0).then_some(WarningCode::LlmSentencesDropped);
                assert_eq!(warning, dropped, "{reply}");
            } else {
                assert_eq!(checked.text, None);
                assert!(checked.check.sentences.iter().all(|sentence| !sentence.kept));
                assert_eq!(checked.warning.unwrap().code(), WarningCode::LlmRejected);
            }
        }
    }

    #[test]
    fn japanese_sentences_are_joined_without_a_space() {
        assert_eq!(
            join(&["一つ目。".to_owned(), "二つ目！".to_owned(), "三つ目".to_owned()]),
            "一つ目。二つ目！三つ目"
        );
        assert_eq!(join(&["One.".to_owned(), "Two.".to_owned()]), "One. Two.");
        assert_eq!(join(&["終わり？".to_owned(), "Next.".to_owned()]), "終わり？Next.");
        assert_eq!(join(&[]), "");
    }

    fn blocker(text: &str, evidence: &[&str]) -> RawBlocker {
        RawBlocker {
            text: text.to_owned(),
            evidence: evidence.iter().map(|id| (*id).to_owned()).collect(),
        }
    }

    #[test]
    fn a_blocker_cites_at_least_one_id_and_only_ids_of_the_payload() {
        let cases: [(&[&str], &[&str]); 6] = [
            (&["deadbeef00"], &[]),
            (&["deadbeef00", "sh:cargo test", "session-6"], &[]),
            (&[], &["no_evidence"]),
            (&["deadbeef00", "deadbeef01"], &["unknown_evidence"]),
            (&["deadbeef"], &["unknown_evidence"]),
            (&["DEADBEEF00"], &["unknown_evidence"]),
        ];
        for (evidence, reasons) in cases {
            let checked =
                check_blockers(&[blocker("The zsh reader keeps failing", evidence)], &facts());
            assert_eq!(checked.len(), 1);
            assert_eq!(checked[0].reasons, reasons, "{evidence:?}");
            assert_eq!(checked[0].kept, reasons.is_empty());
            assert_eq!(checked[0].evidence, evidence);
        }
        // The numbers of a blocker are checked too.
        let checked =
            check_blockers(&[blocker("Cargo test failed 19 times", &["sh:cargo test"])], &facts());
        assert_eq!(checked[0].reasons, ["number"]);
    }

    #[test]
    fn at_most_five_blockers_are_shown_and_dropped_ones_do_not_count() {
        for n in [4, 5, 6, 8] {
            let mut blockers = vec![blocker("Unfounded", &[])];
            blockers.extend((0..n).map(|idx| {
                blocker(
                    &format!("Risk {}", ["a", "b", "c", "d", "e", "f", "g", "h"][idx]),
                    &["deadbeef00"],
                )
            }));
            let checked = check_blockers(&blockers, &facts());
            let kept = checked.iter().filter(|blocker| blocker.kept).count();
            assert_eq!(kept, n.min(MAX_BLOCKERS), "{n} blockers");
            let too_many: Vec<usize> = checked
                .iter()
                .enumerate()
                .filter(|(_, blocker)| blocker.reasons == ["too_many"])
                .map(|(idx, _)| idx)
                .collect();
            // The first is dropped for its evidence; the sixth good one on are too many.
            assert_eq!(too_many, (6..=n).collect::<Vec<_>>(), "{n} blockers");
        }
    }

    #[test]
    fn the_warning_counts_dropped_sentences_and_blockers_by_reason() {
        let reply = json!({
            "summary": format!("{} {} {}", SUPPORTED[0], SUPPORTED[1], UNSUPPORTED[0]),
            "blockers": [
                {"text": "Flaky zsh reader", "evidence": ["deadbeef00"]},
                {"text": "Unfounded", "evidence": []},
                {"text": "Other", "evidence": ["nope"]},
                {"text": "Again", "evidence": []},
            ],
        })
        .to_string();
        let checked = run(&reply, ReportKind::Standup);
        assert!(checked.check.structured);
        assert_eq!(checked.blockers, ["Flaky zsh reader"]);
        let warning = checked.warning.unwrap();
        assert_eq!(warning.code(), WarningCode::LlmSentencesDropped);
        assert_eq!(
            render::warning_text(&warning, Lang::En),
            "1 of 3 sentences of the narrative left out as not supported by the data (unsupported: 1); \
             3 of 4 possible blockers left out (no_evidence: 2, unknown_evidence: 1)"
        );
        assert_eq!(
            warning.detail,
            WarningDetail::SentencesDropped {
                dropped: 1,
                total: 3,
                reasons: BTreeMap::from([("unsupported".to_owned(), 1)]),
                blockers_dropped: 3,
                blockers: 4,
                blocker_reasons: BTreeMap::from([
                    ("no_evidence".to_owned(), 2),
                    ("unknown_evidence".to_owned(), 1)
                ]),
            }
        );
        // Only blockers dropped: still a warning, with no sentence reasons.
        let reply = json!({
            "summary": SUPPORTED[0],
            "blockers": [{"text": "Unfounded", "evidence": []}],
        })
        .to_string();
        assert_eq!(
            render::warning_text(&run(&reply, ReportKind::Standup).warning.unwrap(), Lang::En),
            "0 of 1 sentences of the narrative left out as not supported by the data; \
             1 of 1 possible blockers left out (no_evidence: 1)"
        );
        // A daily report has no blockers: the same reply has nothing left out.
        assert_eq!(run(&reply, ReportKind::Daily).warning, None);
        assert!(run(&reply, ReportKind::Daily).blockers.is_empty());
    }

    #[test]
    fn only_a_reply_that_is_json_as_a_whole_is_structured() {
        let summary = SUPPORTED[0];
        let json = json!({"summary": summary, "blockers": []}).to_string();
        // (reply, accepted, structured, rejection)
        let cases = [
            (json.clone(), true, true, None),
            (format!("```json\n{json}\n```"), true, true, None),
            (format!("  {json}\n"), true, true, None),
            // JSON inside prose is prose: it is checked as a sentence (and dropped here).
            (format!("{summary} {json}"), true, false, None),
            (json!({"summary": 5}).to_string(), false, false, Some("json_dump")),
            (json!({"projects": ["standup"]}).to_string(), false, false, Some("json_dump")),
            (summary.to_owned(), true, false, None),
        ];
        for (reply, accepted, structured, rejection) in cases {
            let checked = run(&reply, ReportKind::Standup);
            assert_eq!(checked.check.accepted, accepted, "{reply}");
            assert_eq!(checked.check.structured, structured, "{reply}");
            assert_eq!(checked.check.reason.as_deref(), rejection, "{reply}");
            if accepted {
                assert_eq!(checked.text.as_deref(), Some(summary), "{reply}");
            }
        }
    }
}
