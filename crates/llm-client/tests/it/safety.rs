//! Loopback enforcement, redirects, time-outs and size caps, against real sockets.

use std::net::TcpListener;
use std::time::{Duration, Instant};

use httpmock::Method::{GET, POST};
use httpmock::{Mock, MockServer};
use llm_client::{Backend, ChatOptions, ClientConfig, Error, Ollama, OpenAiCompatible};

use crate::{config, fixture};

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
fn a_name_other_than_localhost_is_refused_without_a_lookup() {
    let server = MockServer::start();
    let mock = chat_mock(&server);
    // `localhost.evil.example` would send a DNS query off the machine if it were looked up.
    for host in ["localhost.evil.example", "llm.test", "ip6-localhost"] {
        let endpoint = format!("http://{host}:{}", server.port());
        let backend = Ollama::new(config(endpoint).with_model("m"));
        let error = chat(&backend).unwrap_err();
        assert_eq!(error, Error::HostName { host: host.into() });
    }
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
fn localhost_and_loopback_literals_are_reached() {
    let server = MockServer::start();
    let mock = chat_mock(&server);
    let port = server.port();
    for host in ["localhost", "LOCALHOST", "127.0.0.1", "[::ffff:127.0.0.1]"] {
        let backend = Ollama::new(config(format!("http://{host}:{port}")).with_model("m"));
        chat(&backend).unwrap();
    }
    mock.assert_hits(4);
}

#[test]
fn one_deadline_covers_the_model_list_and_the_chat() {
    // Each request alone fits in the time-out; together they do not.
    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(GET).path("/api/tags");
        then.status(200).delay(Duration::from_millis(700)).body(fixture!("ollama_tags.json"));
    });
    let chat_mock = server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(200).delay(Duration::from_millis(700)).body(fixture!("ollama_chat_reply.json"));
    });
    let backend = Ollama::new(config(server.base_url()).with_timeout(Duration::from_secs(1)));
    let start = Instant::now();
    backend.model().unwrap();
    let error = chat(&backend).unwrap_err();
    assert_eq!(error, Error::Timeout { which: "overall" });
    assert!(start.elapsed() < Duration::from_millis(1400), "{:?}", start.elapsed());
    // Once the deadline has passed, nothing more is sent.
    let hits = chat_mock.hits();
    assert_eq!(chat(&backend).unwrap_err(), Error::Timeout { which: "overall" });
    assert_eq!(chat_mock.hits(), hits);
}

#[test]
fn a_port_out_of_range_is_invalid_not_port_80() {
    for endpoint in [
        "http://127.0.0.1:99999",
        "http://127.0.0.1:0",
        "http://[::1]:65536",
        "http://127.0.0.1:+80",
    ] {
        assert_eq!(
            llm_client::validate_endpoint(endpoint),
            Err(Error::InvalidEndpoint { reason: "its port is not a number from 1 to 65535" }),
            "{endpoint}"
        );
    }
    assert_eq!(llm_client::validate_endpoint("http://localhost:11434").unwrap().len(), 2);
    assert!(matches!(
        llm_client::validate_endpoint("https://127.0.0.1:1"),
        Err(Error::InvalidEndpoint { .. })
    ));
    assert!(matches!(
        llm_client::validate_endpoint("http://10.0.0.1:1"),
        Err(Error::NonLoopback { .. })
    ));
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

#[test]
fn listens_only_connects_to_a_valid_loopback_endpoint() {
    let server = MockServer::start();
    let mock = chat_mock(&server);
    assert!(llm_client::listens(&server.base_url(), Duration::from_secs(1)));
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let closed = format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port());
    drop(listener);
    assert!(!llm_client::listens(&closed, Duration::from_secs(1)));
    assert!(!llm_client::listens("http://llm.test:1", Duration::from_secs(1)));
    // A TCP connect only: nothing was sent.
    mock.assert_hits(0);
}
