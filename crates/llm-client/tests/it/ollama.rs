//! Ollama's native API: the request it receives, the reply, model detection.

use httpmock::Method::{GET, POST};
use httpmock::MockServer;
use llm_client::{Backend, ChatOptions, Error, Ollama};
use serde_json::json;

use crate::{config, fixture};

#[test]
fn chat_request_and_reply_have_ollamas_wire_shape() {
    let server = MockServer::start();
    let chat = server.mock(|when, then| {
        when.method(POST).path("/api/chat").header("content-type", "application/json").json_body(
            json!({
                "model": "qwen2.5:7b",
                "messages": [
                    {"role": "system", "content": "You write summaries."},
                    {"role": "user", "content": "Report data: 日本語"},
                ],
                "stream": false,
                "think": false,
                "options": {"temperature": 0.2, "num_predict": 512, "num_ctx": 2048},
            }),
        );
        then.status(200)
            .header("content-type", "application/json")
            .body(fixture!("ollama_chat_reply.json"));
    });
    let backend = Ollama::new(config(server.base_url()).with_model("qwen2.5:7b"));
    let reply = backend
        .chat("You write summaries.", "Report data: 日本語", &ChatOptions::default())
        .unwrap();
    assert_eq!(reply, "Most of the day went into the zsh history reader in standup.");
    assert_eq!(backend.model().unwrap(), "qwen2.5:7b");
    chat.assert_hits(1);
}

#[test]
fn num_ctx_grows_with_the_prompt() {
    let server = MockServer::start();
    let user = "x".repeat(40_000);
    let chat = server.mock(|when, then| {
        when.method(POST)
            .path("/api/chat")
            .json_body_partial(r#"{"options": {"num_ctx": 11264, "num_predict": 512}}"#);
        then.status(200).body(fixture!("ollama_chat_reply.json"));
    });
    let backend = Ollama::new(config(server.base_url()).with_model("m"));
    backend.chat("", &user, &ChatOptions::default()).unwrap();
    chat.assert_hits(1);
}

#[test]
fn model_is_the_first_one_the_server_lists_asked_once() {
    let server = MockServer::start();
    let tags = server.mock(|when, then| {
        when.method(GET).path("/api/tags");
        then.status(200).body(fixture!("ollama_tags.json"));
    });
    let chat = server.mock(|when, then| {
        when.method(POST).path("/api/chat").json_body_partial(r#"{"model": "qwen2.5:7b"}"#);
        then.status(200).body(fixture!("ollama_chat_reply.json"));
    });
    let backend = Ollama::new(config(server.base_url()));
    assert_eq!(backend.model().unwrap(), "qwen2.5:7b");
    backend.chat("s", "u", &ChatOptions::default()).unwrap();
    assert_eq!(backend.model().unwrap(), "qwen2.5:7b");
    tags.assert_hits(1);
    chat.assert_hits(1);
}

#[test]
fn a_server_with_no_models_is_a_clear_error() {
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(GET).path("/api/tags");
        then.status(200).body(r#"{"models":[]}"#);
    });
    let chat = server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(200).body(fixture!("ollama_chat_reply.json"));
    });
    let backend = Ollama::new(config(server.base_url()));
    assert_eq!(backend.model().unwrap_err(), Error::NoModels);
    assert_eq!(backend.chat("s", "u", &ChatOptions::default()).unwrap_err(), Error::NoModels);
    chat.assert_hits(0);
}

#[test]
fn a_missing_model_quotes_ollamas_error() {
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(404).body(r#"{"error":"model 'qwen9:1b' not found"}"#);
    });
    let backend = Ollama::new(config(server.base_url()).with_model("qwen9:1b"));
    let error = backend.chat("s", "u", &ChatOptions::default()).unwrap_err();
    assert_eq!(error, Error::Status { status: 404, excerpt: "model 'qwen9:1b' not found".into() });
    insta::assert_snapshot!(error, @"the server answered HTTP 404: model 'qwen9:1b' not found");
}

#[test]
fn whitespace_reply_is_empty() {
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(200).json_body(json!({"model": "m", "message": {"role": "assistant", "content": " \n\t "}, "done": true}));
    });
    let backend = Ollama::new(config(server.base_url()).with_model("m"));
    assert_eq!(backend.chat("s", "u", &ChatOptions::default()).unwrap_err(), Error::EmptyReply);
}

#[test]
fn replies_of_another_shape_are_malformed() {
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(200)
            .json_body(json!({"model": "m", "response": "generate-style", "done": true}));
    });
    let backend = Ollama::new(config(server.base_url()).with_model("m"));
    let error = backend.chat("s", "u", &ChatOptions::default()).unwrap_err();
    insta::assert_snapshot!(error, @"the reply is malformed: expected `message.content`");

    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(200).body("not json");
    });
    let backend = Ollama::new(config(server.base_url()).with_model("m"));
    let error = backend.chat("s", "u", &ChatOptions::default()).unwrap_err();
    assert_eq!(error, Error::MalformedReply { reason: "the body is not JSON" });
}

#[test]
fn a_schema_is_sent_as_format() {
    let server = MockServer::start();
    let schema = json!({"type": "object", "required": ["summary"], "properties": {"summary": {"type": "string"}}});
    let chat = server.mock(|when, then| {
        when.method(POST)
            .path("/api/chat")
            .json_body_partial(json!({"format": schema.clone()}).to_string());
        then.status(200).body(fixture!("ollama_chat_reply.json"));
    });
    let backend = Ollama::new(config(server.base_url()).with_model("m"));
    let options = ChatOptions { schema: Some(schema.clone()), ..ChatOptions::default() };
    backend.chat("s", "u", &options).unwrap();
    chat.assert_hits(1);
    let off = ChatOptions { structured: llm_client::Structured::Off, ..options };
    // With structured output off the format is not sent, and this mock does not match.
    assert!(backend.chat("s", "u", &off).is_err());
}
