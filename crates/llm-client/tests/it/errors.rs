//! The `Display` of every error variant.

use llm_client::Error;

#[test]
fn error_messages() {
    let messages: Vec<String> = [
        Error::InvalidEndpoint { reason: "it has no host" },
        Error::NonLoopback { host: "llm.test".into(), address: "::ffff:8.8.8.8".parse().unwrap() },
        Error::AmbiguousHost { host: "2130706433".into() },
        Error::HostName { host: "localhost.evil.example".into() },
        Error::Redirect { status: 307 },
        Error::Status { status: 500, excerpt: "boom".into() },
        Error::Timeout { which: "connect" },
        Error::Connection { cause: "Connection refused (os error 111)".into() },
        Error::TooLarge { limit: 1_048_576 },
        Error::MalformedReply { reason: "expected `message.content`" },
        Error::EmptyReply,
        Error::Command { cause: "exited with status 1: no model".into() },
        Error::NoModels,
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    insta::assert_snapshot!(messages.join("\n"), @r"
    the LLM endpoint is not a valid http:// URL: it has no host
    the LLM endpoint host `llm.test` is ::ffff:8.8.8.8, which is not a loopback address
    the LLM endpoint host `2130706433` is a non-standard numeric address; write it as a dotted quad (127.0.0.1) or [::1]
    the LLM endpoint host `localhost.evil.example` is a name; only IP literals (127.0.0.1, [::1]) and `localhost` are accepted, and nothing is looked up
    the server answered with a redirect (HTTP 307), which is refused
    the server answered HTTP 500: boom
    no answer within the connect time-out
    cannot connect to the LLM server: Connection refused (os error 111)
    the reply is larger than 1048576 bytes
    the reply is malformed: expected `message.content`
    the reply is empty
    the LLM command exited with status 1: no model
    no model is configured and the server has none; pull or load a model first
    ");
}
