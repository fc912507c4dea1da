//! `narrate` with the real backends against `httpmock` servers on 127.0.0.1.

use std::net::TcpListener;
use std::time::Duration;

use httpmock::Method::{GET, POST};
use httpmock::MockServer;
use llm_client::{Backend, ClientConfig, Ollama, OpenAiCompatible};
use narrative::{Lang, Limits, build_prompt, narrate};
use report_model::{Report, Warning, WarningCode};
use serde_json::{Value, json};

use crate::{
    capture, captured_with, commit, daily, empty_daily, en, fixture, group, project, redactor,
    session, small_daily,
};

fn config(endpoint: impl Into<String>) -> ClientConfig {
    let mut config = ClientConfig::new(endpoint).with_timeout(Duration::from_secs(5));
    config.connect_timeout = Duration::from_secs(1);
    config
}

fn run(backend: &dyn Backend, report: &mut Report) -> Vec<Warning> {
    narrate(backend, report, redactor(), &Limits::default(), Lang::En)
}

/// A report whose payload holds `marker`, so this test finds its own captured requests,
/// and supports the fixture reply ("Most of the day went into the zsh history reader in
/// standup.").
fn marked(marker: &str) -> Report {
    daily(
        vec![
            project(marker, vec![commit("collect: decode zsh metafied bytes", 1)], Vec::new()),
            project("standup", vec![commit("collect: read zsh history", 2)], Vec::new()),
        ],
        Vec::new(),
    )
}

#[test]
fn ollama_narrative_end_to_end() {
    let server = MockServer::start();
    let tags = server.mock(|when, then| {
        when.method(GET).path("/api/tags");
        then.status(200).body(fixture!("ollama_tags.json"));
    });
    let chat = server.mock(|when, then| {
        when.method(POST).path("/api/chat").matches(capture);
        then.status(200).body(fixture!("ollama_chat_reply.json"));
    });
    let mut report = marked("end-to-end-marker");
    let backend = Ollama::new(config(server.base_url()));
    assert!(run(&backend, &mut report).is_empty());
    let narrative = report.narrative.as_ref().unwrap();
    assert_eq!(narrative.text, "Most of the day went into the zsh history reader in standup.");
    assert_eq!(narrative.model, "qwen2.5:7b");
    assert_eq!(report.meta.llm_model.as_deref(), Some("qwen2.5:7b"));
    tags.assert_hits(1);
    chat.assert_hits(1);

    // The request carried exactly the prompt `build_prompt` shows.
    let prompt =
        build_prompt(&marked("end-to-end-marker"), redactor(), &Limits::default(), Lang::En)
            .unwrap();
    let bodies = captured_with("end-to-end-marker");
    let body: Value = serde_json::from_str(&bodies[0]).unwrap();
    assert_eq!(
        body["messages"],
        json!([
            {"role": "system", "content": prompt.system},
            {"role": "user", "content": prompt.user},
        ])
    );
    assert_eq!(body["model"], "qwen2.5:7b");
    assert_eq!(body["stream"], false);
    assert_eq!(body["think"], false);
    assert_eq!(body["options"]["num_predict"], 512);
    assert!(body["options"]["num_ctx"].as_u64().unwrap() >= 2048);
}

#[test]
fn openai_compatible_narrative_end_to_end() {
    let server = MockServer::start();
    let chat = server.mock(|when, then| {
        when.method(POST)
            .path("/v1/chat/completions")
            .json_body_partial(r#"{"model": "local", "stream": false, "max_tokens": 512}"#);
        then.status(200).body(fixture!("openai_chat_completion.json"));
    });
    let mut report = small_daily();
    let backend = OpenAiCompatible::new(config(server.base_url()).with_model("local"));
    assert!(run(&backend, &mut report).is_empty());
    assert_eq!(
        report.narrative.unwrap().text,
        "A Codex session on billing-api investigated a flaky CI job."
    );
    assert_eq!(report.meta.llm_model.as_deref(), Some("local"));
    chat.assert_hits(1);
}

#[test]
fn the_same_report_gives_a_byte_identical_request() {
    let server = MockServer::start();
    let chat = server.mock(|when, then| {
        when.method(POST).path("/api/chat").matches(capture);
        then.status(200).body(fixture!("ollama_chat_reply.json"));
    });
    for _ in 0..2 {
        let backend = Ollama::new(config(server.base_url()).with_model("qwen2.5:7b"));
        assert!(run(&backend, &mut marked("determinism-marker")).is_empty());
    }
    chat.assert_hits(2);
    let bodies = captured_with("determinism-marker");
    assert!(bodies.len() >= 2);
    assert!(bodies.iter().all(|body| body == &bodies[0]));
}

/// Obviously fake, but shaped like a classic GitHub token.
const FAKE_GITHUB_TOKEN: &str = "ghp_FAKEtokenFORtests0123456789abcdefXYZ";

#[test]
fn the_request_holds_only_redacted_text() {
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(POST).path("/api/chat").matches(capture);
        then.status(200).body(fixture!("ollama_chat_reply.json"));
    });
    let mut report = daily(
        vec![project(
            "redaction-marker",
            vec![commit(&format!("ci: use {FAKE_GITHUB_TOKEN}"), 1)],
            vec![session(&format!("Why does {FAKE_GITHUB_TOKEN} fail?"), 2)],
        )],
        vec![group(
            "curl",
            1,
            &[&format!("curl -H 'Authorization: token {FAKE_GITHUB_TOKEN}' localhost")],
        )],
    );
    let backend = Ollama::new(config(server.base_url()).with_model("m"));
    // The reply does not fit this report (it is rejected); the request is what counts here.
    run(&backend, &mut report);
    let bodies = captured_with("redaction-marker");
    assert!(!bodies.is_empty());
    for body in bodies {
        assert!(!body.contains("FAKEtoken"), "{body}");
        assert!(body.contains("[REDACTED:github-pat]"));
    }
}

#[test]
fn no_activity_sends_nothing() {
    let server = MockServer::start();
    let any = server.mock(|when, then| {
        when.any_request();
        then.status(200).body(fixture!("ollama_chat_reply.json"));
    });
    let mut report = empty_daily();
    assert!(run(&Ollama::new(config(server.base_url())), &mut report).is_empty());
    assert_eq!(report.narrative, None);
    any.assert_hits(0);
}

#[test]
fn connection_refused_is_unavailable() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let mut report = small_daily();
    let warnings =
        run(&Ollama::new(config(format!("http://127.0.0.1:{port}")).with_model("m")), &mut report);
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].code(), WarningCode::LlmUnavailable);
    assert!(
        en(&warnings[0]).starts_with("no narrative: LLM server unavailable: cannot connect"),
        "{}",
        en(&warnings[0])
    );
    assert_eq!(report.narrative, None);
    assert_eq!(report.meta.llm_model, None);
}

#[test]
fn a_host_name_is_blocked_without_a_lookup() {
    let server = MockServer::start();
    let any = server.mock(|when, then| {
        when.any_request();
        then.status(200).body(fixture!("ollama_chat_reply.json"));
    });
    let endpoint = format!("http://localhost.evil.example:{}", server.port());
    let mut report = small_daily();
    let warnings = run(&Ollama::new(config(endpoint)), &mut report);
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].code(), WarningCode::LlmBlockedNonloopback);
    insta::assert_snapshot!(en(&warnings[0]), @"no narrative: the LLM endpoint host `localhost.evil.example` is a name; only IP literals (127.0.0.1, [::1]) and `localhost` are accepted, and nothing is looked up; nothing was sent");
    assert_eq!(report.narrative, None);
    any.assert_hits(0);
}

#[test]
fn non_loopback_endpoint_spellings_are_blocked() {
    let server = MockServer::start();
    let any = server.mock(|when, then| {
        when.any_request();
        then.status(200).body(fixture!("ollama_chat_reply.json"));
    });
    let port = server.port();
    for host in ["0.0.0.0", "[::ffff:8.8.8.8]", "2130706433"] {
        let endpoint = format!("http://{host}:{port}");
        for backend in [
            Box::new(Ollama::new(config(&endpoint))) as Box<dyn Backend>,
            Box::new(OpenAiCompatible::new(config(&endpoint).with_model("m"))),
        ] {
            let mut report = small_daily();
            let warnings = run(&*backend, &mut report);
            assert_eq!(warnings.len(), 1, "{host}");
            assert_eq!(
                warnings[0].code(),
                WarningCode::LlmBlockedNonloopback,
                "{host}: {}",
                en(&warnings[0])
            );
            assert_eq!(report.narrative, None);
        }
    }
    any.assert_hits(0);
}

#[test]
fn a_redirect_is_unavailable_and_never_followed() {
    let target = MockServer::start();
    let target_chat = target.mock(|when, then| {
        when.any_request();
        then.status(200).body(fixture!("ollama_chat_reply.json"));
    });
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(302).header("location", target.url("/api/chat"));
    });
    let mut report = small_daily();
    let warnings = run(&Ollama::new(config(server.base_url()).with_model("m")), &mut report);
    assert_eq!(warnings[0].code(), WarningCode::LlmUnavailable);
    insta::assert_snapshot!(en(&warnings[0]), @"no narrative: LLM server unavailable: the server answered with a redirect (HTTP 302), which is refused");
    target_chat.assert_hits(0);
}

#[test]
fn a_server_error_is_unavailable() {
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(500).json_body(json!({"error": "llama runner process has terminated"}));
    });
    let mut report = small_daily();
    let warnings = run(&Ollama::new(config(server.base_url()).with_model("m")), &mut report);
    assert_eq!(warnings[0].code(), WarningCode::LlmUnavailable);
    insta::assert_snapshot!(en(&warnings[0]), @"no narrative: LLM server unavailable: the server answered HTTP 500: llama runner process has terminated");
}

#[test]
fn a_missing_model_quotes_ollama() {
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(404).json_body(json!({"error": "model 'qwen9:1b' not found"}));
    });
    let mut report = small_daily();
    let warnings = run(&Ollama::new(config(server.base_url()).with_model("qwen9:1b")), &mut report);
    assert_eq!(warnings[0].code(), WarningCode::LlmUnavailable);
    insta::assert_snapshot!(en(&warnings[0]), @"no narrative: LLM server unavailable: the server answered HTTP 404: model 'qwen9:1b' not found");
}

#[test]
fn a_server_without_models_is_unavailable() {
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(GET).path("/api/tags");
        then.status(200).json_body(json!({"models": []}));
    });
    let mut report = small_daily();
    let warnings = run(&Ollama::new(config(server.base_url())), &mut report);
    assert_eq!(warnings[0].code(), WarningCode::LlmUnavailable);
    assert!(en(&warnings[0]).contains("the server has none"));
}

#[test]
fn a_stalled_server_is_unavailable() {
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(200).delay(Duration::from_secs(3)).body(fixture!("ollama_chat_reply.json"));
    });
    let mut report = small_daily();
    let backend =
        Ollama::new(config(server.base_url()).with_model("m").with_timeout(Duration::from_secs(1)));
    let warnings = run(&backend, &mut report);
    assert_eq!(warnings[0].code(), WarningCode::LlmUnavailable);
    insta::assert_snapshot!(en(&warnings[0]), @"no narrative: LLM server unavailable: no answer within the overall time-out");
}

#[test]
fn a_five_megabyte_reply_fails_without_crashing() {
    let server = MockServer::start();
    let content = "z".repeat(5 * 1024 * 1024);
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(200).body(format!(
            r#"{{"message":{{"role":"assistant","content":"{content}"}},"done":true}}"#
        ));
    });
    let mut report = small_daily();
    let warnings = run(&Ollama::new(config(server.base_url()).with_model("m")), &mut report);
    assert_eq!(warnings[0].code(), WarningCode::LlmFailed);
    insta::assert_snapshot!(en(&warnings[0]), @"no narrative: unusable LLM reply: the reply is larger than 1048576 bytes");
    assert_eq!(report.narrative, None);
}

#[test]
fn a_whitespace_reply_over_http_fails() {
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(200)
            .json_body(json!({"message": {"role": "assistant", "content": "  \n "}, "done": true}));
    });
    let mut report = small_daily();
    let warnings = run(&Ollama::new(config(server.base_url()).with_model("m")), &mut report);
    assert_eq!(warnings[0].code(), WarningCode::LlmFailed);
    assert_eq!(report.narrative, None);
    assert_eq!(report.meta.llm_model, None);
}

#[test]
fn a_hostile_reply_over_http_is_cleaned_and_checked() {
    let content = format!(
        "\u{1b}[31m<think>private reasoning</think>Worked on standup. ![metafy](https://evil.example/p.png) fix decoded zsh bytes.\n\n\n\n{}",
        "y".repeat(10_000)
    );
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(200)
            .json_body(json!({"message": {"role": "assistant", "content": content}, "done": true}));
    });
    let mut report = small_daily();
    let warnings = run(&Ollama::new(config(server.base_url()).with_model("m")), &mut report);
    // The capped run of `y` is not supported by the data: one sentence of three left out.
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].code(), WarningCode::LlmSentencesDropped);
    insta::assert_snapshot!(en(&warnings[0]), @"1 of 3 sentences of the narrative left out as not supported by the data (unsupported: 1)");
    let text = report.narrative.unwrap().text;
    assert_eq!(text, "Worked on standup. metafy fix decoded zsh bytes.");
    let check = report.narrative_check.unwrap();
    assert!(check.accepted && !check.structured);
    assert_eq!(check.sentences.iter().filter(|sentence| sentence.kept).count(), 2);
}
