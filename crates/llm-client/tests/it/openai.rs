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
    let options = ChatOptions { max_tokens: 300, temperature: 0.0 };
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
