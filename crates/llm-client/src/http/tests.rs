use super::*;

#[test]
fn excerpt_removes_controls_and_caps() {
    assert_eq!(
        clean_excerpt("model \u{1b}[31m'x'\u{7} not\u{202e} found\n\n"),
        "model [31m'x' not found"
    );
    let long = "a".repeat(500);
    let excerpt = clean_excerpt(&long);
    assert_eq!(excerpt.chars().count(), EXCERPT_CHARS + 1);
    assert!(excerpt.ends_with('…'));
}

#[test]
fn excerpt_prefers_the_servers_message() {
    assert_eq!(error_excerpt(br#"{"error":"model 'qwen' not found"}"#), "model 'qwen' not found");
    assert_eq!(error_excerpt(br#"{"error":{"message":"bad request","type":"x"}}"#), "bad request");
    assert_eq!(error_excerpt(b"<html>502 Bad Gateway</html>"), "<html>502 Bad Gateway</html>");
}

#[test]
fn agent_ignores_proxies_and_follows_no_redirect() {
    let config = agent_config(&ClientConfig::new("http://127.0.0.1:1"));
    assert!(config.proxy().is_none());
    assert_eq!(config.max_redirects(), 0);
    assert!(!config.http_status_as_error());
}

#[track_caller]
fn endpoint_error(endpoint: &str) -> Error {
    match check_endpoint(&ClientConfig::new(endpoint)) {
        Ok(_) => panic!("{endpoint} was accepted"),
        Err(error) => error,
    }
}

#[test]
fn endpoint_must_be_plain_http() {
    insta::assert_snapshot!(endpoint_error("https://127.0.0.1:1"), @"the LLM endpoint is not a valid http:// URL: only http:// is supported (loopback needs no TLS)");
    insta::assert_snapshot!(endpoint_error("127.0.0.1:11434"), @"the LLM endpoint is not a valid http:// URL: it has no scheme; write http://host:port");
    insta::assert_snapshot!(endpoint_error("http://user:pw@127.0.0.1:1"), @"the LLM endpoint is not a valid http:// URL: it must not carry credentials");
    insta::assert_snapshot!(endpoint_error("http://127.0.0.1:1/?a=b"), @"the LLM endpoint is not a valid http:// URL: it must not have a query");
    insta::assert_snapshot!(endpoint_error("http://exa mple"), @"the LLM endpoint is not a valid http:// URL: it cannot be parsed as a URL");
}

#[test]
fn endpoint_base_keeps_the_prefix_without_trailing_slash() {
    let checked = check_endpoint(&ClientConfig::new("http://localhost:8080/llm/"))
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(checked.base, "http://localhost:8080/llm");
    let checked = check_endpoint(&ClientConfig::new(" http://[::1]:11434 "))
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(checked.base, "http://[::1]:11434");
}
