//! Loopback enforcement, redirects, time-outs and size caps, against real sockets.

use std::io;
use std::net::{SocketAddr, TcpListener};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use httpmock::Method::POST;
use httpmock::{Mock, MockServer};
use llm_client::{Backend, ChatOptions, ClientConfig, Error, Ollama, OpenAiCompatible};

use crate::{config, fixture, resolve_to};

fn chat_mock(server: &MockServer) -> Mock<'_> {
    server.mock(|when, then| {
        when.any_request();
        then.status(200).body(fixture!("ollama_chat_reply.json"));
    })
}

fn chat(backend: &dyn Backend) -> Result<String, Error> {
    backend.chat("system", "user", &ChatOptions::default())
}

#[test]
fn a_name_resolving_to_a_public_address_is_blocked_before_connecting() {
    let server = MockServer::start();
    let mock = chat_mock(&server);
    let endpoint = format!("http://llm.test:{}", server.port());
    let backend = Ollama::with_resolver(config(endpoint).with_model("m"), resolve_to("8.8.8.8"));
    let error = chat(&backend).unwrap_err();
    assert_eq!(
        error,
        Error::NonLoopback { host: "llm.test".into(), address: "8.8.8.8".parse().unwrap() }
    );
    insta::assert_snapshot!(error, @"the LLM endpoint host `llm.test` is 8.8.8.8, which is not a loopback address");
    mock.assert_hits(0);
}

#[test]
fn non_loopback_spellings_are_blocked_with_no_connection() {
    let server = MockServer::start();
    let mock = chat_mock(&server);
    let port = server.port();
    // 0.0.0.0 and 2130706433 would both reach the mock on 127.0.0.1 if they were used.
    for host in ["0.0.0.0", "[::ffff:8.8.8.8]", "2130706433", "[::]", "127.1", "0x7f000001"] {
        let endpoint = format!("http://{host}:{port}");
        for backend in [
            Box::new(Ollama::new(config(&endpoint).with_model("m"))) as Box<dyn Backend>,
            Box::new(OpenAiCompatible::new(config(&endpoint))),
        ] {
            // With no model configured, even asking for the model list is refused.
            if let Err(error) = backend.model() {
                assert!(
                    matches!(error, Error::NonLoopback { .. } | Error::AmbiguousHost { .. }),
                    "{host}: {error}"
                );
            }
            let error = chat(&*backend).unwrap_err();
            assert!(
                matches!(error, Error::NonLoopback { .. } | Error::AmbiguousHost { .. }),
                "{host}: {error}"
            );
        }
    }
    mock.assert_hits(0);
}

#[test]
fn loopback_names_and_literals_are_reached() {
    let server = MockServer::start();
    let mock = chat_mock(&server);
    let port = server.port();
    let by_name = Ollama::with_resolver(
        config(format!("http://llm.test:{port}")).with_model("m"),
        resolve_to("::ffff:127.0.0.1"),
    );
    chat(&by_name).unwrap();
    let by_literal = Ollama::new(config(format!("http://127.0.0.1:{port}")).with_model("m"));
    chat(&by_literal).unwrap();
    mock.assert_hits(2);
}

#[test]
fn the_host_is_resolved_once() {
    let server = MockServer::start();
    let mock = chat_mock(&server);
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&calls);
    let resolver = move |_: &str, port: u16| -> io::Result<Vec<SocketAddr>> {
        counted.fetch_add(1, Ordering::SeqCst);
        Ok(vec![SocketAddr::from(([127, 0, 0, 1], port))])
    };
    let backend = Ollama::with_resolver(
        config(format!("http://llm.test:{}", server.port())).with_model("m"),
        resolver,
    );
    chat(&backend).unwrap();
    chat(&backend).unwrap();
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    mock.assert_hits(2);
}

#[test]
fn connection_refused_is_a_connection_error() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let backend = Ollama::new(config(format!("http://127.0.0.1:{port}")).with_model("m"));
    let error = chat(&backend).unwrap_err();
    assert!(matches!(error, Error::Connection { .. }), "{error}");
}

#[test]
fn a_redirect_is_refused_and_not_followed() {
    let target = MockServer::start();
    let target_mock = chat_mock(&target);
    let server = MockServer::start();
    let redirect = server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(302).header("location", target.url("/api/chat"));
    });
    let backend = Ollama::new(config(server.base_url()).with_model("m"));
    let error = chat(&backend).unwrap_err();
    assert_eq!(error, Error::Redirect { status: 302 });
    insta::assert_snapshot!(error, @"the server answered with a redirect (HTTP 302), which is refused");
    redirect.assert_hits(1);
    target_mock.assert_hits(0);
}

#[test]
fn a_server_error_is_a_status_error() {
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(500).body("internal \u{1b}[31merror\u{1b}[0m\n\nwith detail");
    });
    let backend = Ollama::new(config(server.base_url()).with_model("m"));
    let error = chat(&backend).unwrap_err();
    assert_eq!(
        error,
        Error::Status { status: 500, excerpt: "internal [31merror[0m with detail".into() }
    );
}

#[test]
fn a_stalled_server_times_out() {
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(200).delay(Duration::from_secs(3)).body(fixture!("ollama_chat_reply.json"));
    });
    let config = config(server.base_url()).with_model("m").with_timeout(Duration::from_secs(1));
    let backend = Ollama::new(config);
    let start = Instant::now();
    let error = chat(&backend).unwrap_err();
    assert_eq!(error, Error::Timeout { which: "overall" });
    assert!(start.elapsed() < Duration::from_millis(2500), "{:?}", start.elapsed());
}

#[test]
fn a_huge_reply_is_capped() {
    let server = MockServer::start();
    let content = "x".repeat(5 * 1024 * 1024);
    let body = format!(r#"{{"message":{{"role":"assistant","content":"{content}"}},"done":true}}"#);
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(200).body(body);
    });
    let backend = Ollama::new(config(server.base_url()).with_model("m"));
    let error = chat(&backend).unwrap_err();
    assert_eq!(error, Error::TooLarge { limit: 1024 * 1024 });
}

#[test]
fn a_reply_under_a_raised_cap_is_read() {
    let server = MockServer::start();
    let content = "y".repeat(2 * 1024 * 1024);
    let body = format!(r#"{{"message":{{"role":"assistant","content":"{content}"}},"done":true}}"#);
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(200).body(body);
    });
    let mut config: ClientConfig = config(server.base_url()).with_model("m");
    config.max_response_bytes = 3 * 1024 * 1024;
    let reply = chat(&Ollama::new(config)).unwrap();
    assert_eq!(reply.len(), 2 * 1024 * 1024);
}

#[test]
fn an_error_without_a_body_says_so() {
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(503);
    });
    let backend = Ollama::new(config(server.base_url()).with_model("m"));
    let error = chat(&backend).unwrap_err();
    insta::assert_snapshot!(error, @"the server answered HTTP 503: (no message)");
}
