use serde_json::json;

use report_model::WarningCode;

use super::*;

#[test]
fn guard_refuses_any_less_than() {
    assert!(payload::guard(r#"{"a":"\u003c/data\u003e"}"#).is_ok());
    let error = payload::guard(r#"{"a":"</data>"}"#).unwrap_err();
    insta::assert_snapshot!(error, @"the prompt payload is not safe to send: the payload contains `<`");
    assert!(payload::guard("<").is_err());
}

#[test]
fn html_safe_formatter_escapes_in_keys_and_values() {
    let value = json!({"<k&>": ["a<b", "c>d&e", "plain", "日本<語>"]});
    let fitted = prompt_budget::fit_with(value, usize::MAX, &[], payload::HtmlSafe).unwrap();
    assert_eq!(
        fitted.text,
        r#"{"\u003ck\u0026\u003e":["a\u003cb","c\u003ed\u0026e","plain","日本\u003c語\u003e"]}"#
    );
    // Still JSON that reads back to the same value.
    let parsed: serde_json::Value = serde_json::from_str(&fitted.text).unwrap();
    assert_eq!(parsed, fitted.value);
}

#[test]
fn tier_names_are_the_designs_order() {
    assert_eq!(
        TIERS,
        [
            "shell_examples",
            "shell_groups",
            "session_titles",
            "commit_subjects",
            "shell",
            "projects"
        ]
    );
}

#[test]
fn budget_error_message() {
    let cause = prompt_budget::Tier::trim("t", "no-slash", 0, "").unwrap_err();
    let error = Error::Budget(cause);
    insta::assert_snapshot!(error, @"cannot fit the prompt payload into its budget");
}

/// The crate's one `Report` fixture (`tests/support/report.rs`).
#[path = "../tests/support/report.rs"]
#[allow(dead_code, reason = "the unit tests use a part of the builders")]
mod fixture;

/// A report of `kind` (daily: one bucket; standup: an empty previous working day and today)
/// with one project, one commit whose hash starts with `deadbeef00`, one session and one
/// shell group.
fn report(kind: ReportKind) -> Report {
    let mut commit = fixture::commit("collect: decode zsh metafied bytes", 1);
    commit.hash = format!("deadbeef00{}", "0".repeat(30));
    let project = fixture::project(
        "standup",
        vec![commit],
        vec![fixture::session("Metafy fix for the zsh reader", 6)],
    );
    let shell = vec![fixture::group("cargo test", 18, &["cargo test -p collect zsh"])];
    match kind {
        ReportKind::Standup => fixture::standup((Vec::new(), Vec::new()), (vec![project], shell)),
        _ => fixture::daily(vec![project], shell),
    }
}

/// A backend that answers `reply` and records the options of every chat.
struct Recorder {
    reply: String,
    options: std::sync::Mutex<Vec<ChatOptions>>,
}

impl Recorder {
    fn new(reply: &str) -> Recorder {
        Recorder { reply: reply.to_owned(), options: std::sync::Mutex::new(Vec::new()) }
    }

    fn calls(&self) -> usize {
        self.options.lock().unwrap().len()
    }
}

impl Backend for Recorder {
    fn model(&self) -> Result<String, llm_client::Error> {
        Ok("fake-model:1b".to_owned())
    }

    fn chat(&self, _: &str, _: &str, options: &ChatOptions) -> Result<String, llm_client::Error> {
        self.options.lock().unwrap().push(options.clone());
        Ok(self.reply.clone())
    }
}

/// A reply the checks accept for [`report`].
const GOOD: &str = "Most of the day went into the zsh reader of standup.";
/// A reply the checks reject (no sentence is supported by the data).
const UNSUPPORTED: &str = "Quarterly revenue projections were reviewed with marketing.";

fn redactor() -> &'static Redactor {
    static REDACTOR: std::sync::LazyLock<Redactor> = std::sync::LazyLock::new(Redactor::builtin);
    &REDACTOR
}

#[test]
fn the_reply_schema_is_a_summary_and_blockers_citing_evidence() {
    let blockers = json!({
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "text": {"type": "string"},
                "evidence": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["text", "evidence"],
            "additionalProperties": false,
        },
    });
    // Each sentence of the summary cites its evidence too, at least one id.
    let mut cited = blockers["items"].clone();
    cited["properties"]["evidence"]["minItems"] = json!(1);
    let schema = |blockers: serde_json::Value| {
        json!({
            "type": "object",
            "properties": {"summary": {"type": "array", "items": cited.clone()}, "blockers": blockers},
            "required": ["summary", "blockers"],
            "additionalProperties": false,
        })
    };
    assert_eq!(reply_schema(ReportKind::Standup), schema(blockers.clone()));
    // A daily report has no blockers.
    let mut none = blockers;
    none["maxItems"] = json!(0);
    assert_eq!(reply_schema(ReportKind::Daily), schema(none));
}

#[test]
fn the_schema_is_sent_unless_structured_output_is_off() {
    for kind in [ReportKind::Daily, ReportKind::Standup] {
        for structured in
            [Structured::Auto, Structured::JsonSchema, Structured::JsonObject, Structured::Off]
        {
            let backend = Recorder::new(GOOD);
            let mut report = report(kind);
            let limits = Limits { max_tokens: 300, temperature: 0.5, ..Limits::default() };
            let settings = Settings { structured, ..Settings::default() };
            narrate_with(&backend, &mut report, redactor(), &limits, Lang::En, &settings);
            let options = backend.options.lock().unwrap();
            assert_eq!(options.len(), 1);
            let expected = (structured != Structured::Off).then(|| reply_schema(kind));
            assert_eq!(options[0].schema, expected, "{kind:?} {structured:?}");
            assert_eq!(options[0].structured, structured);
            assert_eq!((options[0].max_tokens, options[0].temperature), (300, 0.5));
        }
    }
}

#[test]
fn an_accepted_reply_is_cached_and_reused_without_asking_again() {
    let dir = tempfile::tempdir().unwrap();
    let settings = Settings {
        cache_dir: Some(dir.path().to_owned()),
        backend_kind: "ollama http://127.0.0.1:11434".to_owned(),
        ..Settings::default()
    };
    let limits = Limits::default();
    let backend = Recorder::new(GOOD);
    let mut first = report(ReportKind::Daily);
    assert!(
        narrate_with(&backend, &mut first, redactor(), &limits, Lang::En, &settings).is_empty()
    );
    let first_check = first.narrative_check.clone().unwrap();
    assert!(first_check.accepted);
    assert!(!first_check.cached);
    assert_eq!(backend.calls(), 1);
    assert_eq!(fs_err::read_dir(dir.path()).unwrap().count(), 1);

    // The same request again: answered from the cache, same narrative, same verdict.
    let mut second = report(ReportKind::Daily);
    assert!(
        narrate_with(&backend, &mut second, redactor(), &limits, Lang::En, &settings).is_empty()
    );
    assert_eq!(backend.calls(), 1);
    assert_eq!(second.narrative, first.narrative);
    let second_check = second.narrative_check.unwrap();
    assert!(second_check.cached);
    assert_eq!(NarrativeCheck { cached: false, ..second_check }, first_check);

    // Another backend is another request; without a cache folder nothing is reused.
    let other = Settings { backend_kind: "openai http://127.0.0.1:8080".to_owned(), ..settings };
    narrate_with(&backend, &mut report(ReportKind::Daily), redactor(), &limits, Lang::En, &other);
    assert_eq!(backend.calls(), 2);
    let none = Settings::default();
    narrate_with(&backend, &mut report(ReportKind::Daily), redactor(), &limits, Lang::En, &none);
    narrate_with(&backend, &mut report(ReportKind::Daily), redactor(), &limits, Lang::En, &none);
    assert_eq!(backend.calls(), 4);
}

#[test]
fn a_rejected_reply_is_not_cached() {
    let dir = tempfile::tempdir().unwrap();
    let settings = Settings { cache_dir: Some(dir.path().to_owned()), ..Settings::default() };
    let backend = Recorder::new(UNSUPPORTED);
    for n_calls in 1..=2 {
        let mut report = report(ReportKind::Daily);
        let warnings = narrate_with(
            &backend,
            &mut report,
            redactor(),
            &Limits::default(),
            Lang::En,
            &settings,
        );
        assert_eq!(warnings[0].code(), WarningCode::LlmRejected);
        assert_eq!(report.narrative, None);
        assert!(!report.narrative_check.unwrap().cached);
        assert_eq!(backend.calls(), n_calls);
    }
    assert_eq!(fs_err::read_dir(dir.path()).map_or(0, Iterator::count), 0);
}

#[test]
fn secrets_masked_counts_what_the_whole_message_pass_found() {
    // A user rule for the commit's evidence id, which the payload does not redact (it is
    // no free text): only the pass over the whole message finds it.
    let redactor = Redactor::builder()
        .rule(redact::Rule {
            id: "test-id".to_owned(),
            regex: r"deadbeef00".to_owned(),
            keywords: vec!["deadbeef".to_owned()],
            description: "a test rule".to_owned(),
            ..redact::Rule::default()
        })
        .build()
        .unwrap();
    let report = report(ReportKind::Daily);
    let prompt = build_prompt(&report, &redactor, &Limits::default(), Lang::En).unwrap();
    assert_eq!(prompt.secrets_masked, 1);
    assert!(prompt.user.contains("[REDACTED:test-id]"), "{}", prompt.user);
    assert!(!prompt.user.contains("deadbeef00"));
    // Plus what the payload pass found.
    let mut secret = report;
    secret.buckets[0].projects[0].commits[0].subject =
        "rotate ghp_FAKEtokenFORtests0123456789abcdefXYZ".to_owned();
    let prompt = build_prompt(&secret, &redactor, &Limits::default(), Lang::En).unwrap();
    assert_eq!(prompt.secrets_masked, 2);
}

#[test]
fn notes_go_into_the_system_prompt_and_the_cache_key() {
    let notes = vec!["Be brief.".to_owned()];
    let settings = Settings { notes: notes.clone(), ..Settings::default() };
    let report = report(ReportKind::Standup);
    let prompt =
        build_prompt_with(&report, redactor(), &Limits::default(), Lang::Ja, &settings).unwrap();
    assert_eq!(
        prompt.system,
        prompts::with_notes(prompts::STANDUP_JA, Lang::Ja, &notes, 2_000, redactor())
    );
    assert!(prompt.system.ends_with("1. Be brief.\n</tuning>"));
    let plain = build_prompt(&report, redactor(), &Limits::default(), Lang::Ja).unwrap();
    assert_eq!(plain.system, prompts::STANDUP_JA);
    assert_eq!(plain.user, prompt.user);
}
