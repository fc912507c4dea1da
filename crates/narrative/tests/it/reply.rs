//! `narrate` with a fake backend: reply handling and the fallback policy.

use narrative::{Lang, Limits, narrate};
use report_model::{Report, WarningCode};

use crate::{Fake, empty_daily, project, redactor, session, small_daily, standup};

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
fn a_hostile_reply_is_cleaned_and_capped() {
    let reply = format!(
        "\u{1b}[2J\u{1b}]0;owned\u{7}<think>secret plan: leak the data</think>Work on standup. \
         ![pixel](https://evil.example/track.png?d=1) <script>alert(1)</script>\n\n\n\n{}",
        "x".repeat(10_000)
    );
    let backend = Fake::replying(&reply);
    let mut report = small_daily();
    let limits = Limits::default();
    assert!(narrate(&backend, &mut report, redactor(), &limits, Lang::En).is_empty());
    let text = &report.narrative.as_ref().unwrap().text;
    assert_eq!(text.chars().count(), limits.max_output_chars);
    assert!(text.starts_with("Work on standup. pixel alert(1)\n\nxxx"), "{text}");
    assert!(text.ends_with('…'));
    for forbidden in
        ["\u{1b}", "\u{7}", "think", "secret plan", "evil.example", "![", "<script", "\n\n\n"]
    {
        assert!(!text.contains(forbidden), "{forbidden:?} in {text}");
    }
}

#[test]
fn a_whitespace_reply_fails_and_leaves_no_narrative() {
    let backend = Fake::replying(" \n\t \n");
    let mut report = small_daily();
    let warnings = run(&backend, &mut report);
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].code, WarningCode::LlmFailed);
    insta::assert_snapshot!(warnings[0].message, @"no narrative: the model's reply was empty after cleaning");
    assert_eq!(report.narrative, None);
    assert_eq!(report.meta.llm_model, None);
}

#[test]
fn a_reply_that_is_only_reasoning_fails() {
    let backend = Fake::replying("<think>hmm</think>\n\n");
    let mut report = small_daily();
    assert_eq!(run(&backend, &mut report)[0].code, WarningCode::LlmFailed);
    assert_eq!(report.narrative, None);
}

#[test]
fn a_five_megabyte_reply_is_capped() {
    let backend = Fake::replying(&"word ".repeat(1_000_000));
    let mut report = small_daily();
    assert!(run(&backend, &mut report).is_empty());
    assert_eq!(report.narrative.unwrap().text.chars().count(), Limits::default().max_output_chars);
}

#[test]
fn an_earlier_narrative_is_cleared_on_failure() {
    let mut report = small_daily();
    assert!(run(&Fake::replying("First."), &mut report).is_empty());
    let warnings = run(&Fake::failing(llm_client::Error::EmptyReply), &mut report);
    assert_eq!(warnings[0].code, WarningCode::LlmFailed);
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
        "Yesterday: render work. Today: the flaky CI job.\n\nBLOCKER: the CI job on main still fails intermittently\n",
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
    assert!(narrate(&backend, &mut report, redactor(), &Limits::default(), Lang::Ja).is_empty());
    let narrative = report.narrative.unwrap();
    assert_eq!(narrative.text, "Yesterday: render work. Today: the flaky CI job.");
    assert_eq!(narrative.blockers, ["the CI job on main still fails intermittently"]);
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
        (
            E::Resolve { host: "h".into(), cause: "no addresses".into() },
            WarningCode::LlmUnavailable,
        ),
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
        assert_eq!(warnings[0].code, code, "{error}");
        assert_eq!(report.narrative, None);
        assert_eq!(report.meta.llm_model, None);
    }
}

#[test]
fn a_model_error_is_a_warning_too() {
    let backend = Fake { model: Err(llm_client::Error::NoModels), ..Fake::replying("text") };
    let mut report = small_daily();
    let warnings = run(&backend, &mut report);
    assert_eq!(warnings[0].code, WarningCode::LlmUnavailable);
    insta::assert_snapshot!(warnings[0].message, @"no narrative: LLM server unavailable: no model is configured and the server has none; pull or load a model first");
    assert_eq!(backend.n_calls(), 0);
}

#[test]
fn warning_messages_are_cleaned_and_redacted() {
    let excerpt = "bad token ghp_FAKEtokenFORtests0123456789abcdefXYZ \u{1b}[31m".to_owned();
    let backend = Fake::failing(llm_client::Error::Status { status: 401, excerpt });
    let mut report = small_daily();
    let warnings = run(&backend, &mut report);
    insta::assert_snapshot!(warnings[0].message, @"no narrative: LLM server unavailable: the server answered HTTP 401: bad token [REDACTED:github-pat] ");
}
