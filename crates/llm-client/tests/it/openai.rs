//! The OpenAI-compatible API: the request it receives, the reply, model detection.

use httpmock::Method::{GET, POST};
use httpmock::MockServer;
use llm_client::{Backend, ChatOptions, Error, OpenAiCompatible};
use serde_json::json;

use crate::{config, fixture};

#[test]
fn chat_request_and_reply_have_the_openai_wire_shape() {
    let server = MockServer::start();
    let chat = server.mock(|when, then| {
        when.method(POST)
            .path("/v1/chat/completions")
            .header("content-type", "application/json")
            .json_body(json!({
                "model": "qwen2.5-7b-instruct",
                "messages": [
                    {"role": "system", "content": "You write summaries."},
                    {"role": "user", "content": "Report data"},
                ],
                "max_tokens": 300,
                "temperature": 0.0,
                "stream": false,
            }));
        then.status(200).body(fixture!("openai_chat_completion.json"));
    });
    let backend =
        OpenAiCompatible::new(config(server.base_url()).with_model("qwen2.5-7b-instruct"));
    let options = ChatOptions { max_tokens: 300, temperature: 0.0, ..ChatOptions::default() };
    let reply = backend.chat("You write summaries.", "Report data", &options).unwrap();
    assert_eq!(reply, "A Codex session on billing-api investigated a flaky CI job.");
    chat.assert_hits(1);
}

#[test]
fn model_is_the_first_one_the_server_lists() {
    let server = MockServer::start();
    let models = server.mock(|when, then| {
        when.method(GET).path("/v1/models");
        then.status(200).body(fixture!("openai_models.json"));
    });
    let chat = server.mock(|when, then| {
        when.method(POST)
            .path("/v1/chat/completions")
            .json_body_partial(r#"{"model": "qwen2.5-7b-instruct"}"#);
        then.status(200).body(fixture!("openai_chat_completion.json"));
    });
    // An endpoint that already ends in /v1 works too.
    let backend = OpenAiCompatible::new(config(server.url("/v1")));
    backend.chat("s", "u", &ChatOptions::default()).unwrap();
    assert_eq!(backend.model().unwrap(), "qwen2.5-7b-instruct");
    models.assert_hits(1);
    chat.assert_hits(1);
}

#[test]
fn a_server_with_no_models_is_a_clear_error() {
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(GET).path("/v1/models");
        then.status(200).body(r#"{"object":"list","data":[]}"#);
    });
    let backend = OpenAiCompatible::new(config(server.base_url()));
    let error = backend.model().unwrap_err();
    assert_eq!(error, Error::NoModels);
    insta::assert_snapshot!(error, @"no model is configured and the server has none; pull or load a model first");
}

#[test]
fn null_or_blank_content_is_empty() {
    for content in [json!(null), json!("   ")] {
        let server = MockServer::start();
        server.mock(|when, then| {
            when.method(POST).path("/v1/chat/completions");
            then.status(200).json_body(json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}));
        });
        let backend = OpenAiCompatible::new(config(server.base_url()).with_model("m"));
        assert_eq!(backend.chat("s", "u", &ChatOptions::default()).unwrap_err(), Error::EmptyReply);
    }
}

#[test]
fn server_errors_quote_the_openai_style_message() {
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(POST).path("/v1/chat/completions");
        then.status(400).json_body(json!({"error": {"message": "context length exceeded", "type": "invalid_request_error"}}));
    });
    let backend = OpenAiCompatible::new(config(server.base_url()).with_model("m"));
    let error = backend.chat("s", "u", &ChatOptions::default()).unwrap_err();
    assert_eq!(error, Error::Status { status: 400, excerpt: "context length exceeded".into() });
}

fn structured(structured: llm_client::Structured) -> ChatOptions {
    ChatOptions {
        schema: Some(json!({"type": "object", "properties": {"summary": {"type": "string"}}})),
        structured,
        ..ChatOptions::default()
    }
}

#[test]
fn structured_auto_falls_back_once_to_json_object_and_remembers_it() {
    let server = MockServer::start();
    // llama-cpp-python's answer to `json_schema`.
    let refused = server.mock(|when, then| {
        when.method(POST)
            .path("/v1/chat/completions")
            .json_body_partial(r#"{"response_format": {"type": "json_schema", "json_schema": {"name": "reply", "strict": true}}}"#);
        then.status(500).json_body(json!({"error": {"message": "1 validation error: response_format.type: Input should be 'text' or 'json_object'"}}));
    });
    let accepted = server.mock(|when, then| {
        when.method(POST).path("/v1/chat/completions").json_body_partial(
            r#"{"response_format": {"type": "json_object", "schema": {"type": "object", "properties": {"summary": {"type": "string"}}}}}"#,
        );
        then.status(200).body(fixture!("openai_chat_completion.json"));
    });
    let backend = OpenAiCompatible::new(config(server.base_url()).with_model("m"));
    let options = structured(llm_client::Structured::Auto);
    backend.chat("s", "u", &options).unwrap();
    backend.chat("s", "u", &options).unwrap();
    refused.assert_hits(1);
    accepted.assert_hits(2);
}

#[test]
fn structured_auto_keeps_json_schema_when_it_works_and_does_not_retry_other_errors() {
    let server = MockServer::start();
    let schema = server.mock(|when, then| {
        when.method(POST)
            .path("/v1/chat/completions")
            .json_body_partial(r#"{"response_format": {"type": "json_schema"}}"#);
        then.status(200).body(fixture!("openai_chat_completion.json"));
    });
    let backend = OpenAiCompatible::new(config(server.base_url()).with_model("m"));
    backend.chat("s", "u", &structured(llm_client::Structured::Auto)).unwrap();
    schema.assert_hits(1);

    let failing = MockServer::start();
    let any = failing.mock(|when, then| {
        when.method(POST).path("/v1/chat/completions");
        then.status(500).json_body(json!({"error": {"message": "model crashed"}}));
    });
    let backend = OpenAiCompatible::new(config(failing.base_url()).with_model("m"));
    let error = backend.chat("s", "u", &structured(llm_client::Structured::Auto)).unwrap_err();
    assert!(matches!(error, Error::Status { status: 500, .. }));
    any.assert_hits(1);
}

#[test]
fn structured_modes_send_one_form_and_off_sends_none() {
    let server = MockServer::start();
    let refused = server.mock(|when, then| {
        when.method(POST).path("/v1/chat/completions").body_contains("json_schema");
        then.status(500).json_body(json!({"error": {"message": "response_format.type"}}));
    });
    let object = server.mock(|when, then| {
        when.method(POST).path("/v1/chat/completions").body_contains("json_object");
        then.status(200).body(fixture!("openai_chat_completion.json"));
    });
    let plain = server.mock(|when, then| {
        when.method(POST).path("/v1/chat/completions").matches(|request| {
            !String::from_utf8_lossy(request.body.as_deref().unwrap_or_default())
                .contains("response_format")
        });
        then.status(200).body(fixture!("openai_chat_completion.json"));
    });
    let backend = OpenAiCompatible::new(config(server.base_url()).with_model("m"));
    let error =
        backend.chat("s", "u", &structured(llm_client::Structured::JsonSchema)).unwrap_err();
    assert!(matches!(error, Error::Status { status: 500, .. }));
    backend.chat("s", "u", &structured(llm_client::Structured::JsonObject)).unwrap();
    backend.chat("s", "u", &structured(llm_client::Structured::Off)).unwrap();
    refused.assert_hits(1);
    object.assert_hits(1);
    plain.assert_hits(1);
}
