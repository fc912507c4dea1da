//! The error type of `llm-client`.

use std::net::IpAddr;

/// What can go wrong while talking to a local LLM server. Messages never quote the prompt
/// or the reply; a server's error body is quoted only as a short excerpt with control
/// characters removed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The endpoint is not an `http://host[:port][/prefix]` URL.
    #[error("the LLM endpoint is not a valid http:// URL: {reason}")]
    InvalidEndpoint {
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The endpoint's host is an address that is not loopback.
    #[error("the LLM endpoint host `{host}` is {address}, which is not a loopback address")]
    NonLoopback {
        /// The host as written in the endpoint.
        host: String,
        /// The first address that is not loopback.
        address: IpAddr,
    },
    /// The endpoint's host is a numeric spelling other than a dotted-quad IPv4 address or a
    /// bracketed IPv6 address (`2130706433`, `0x7f.1`, `127.1`, `0177.0.0.1`). Such spellings
    /// are read differently by different parsers, so they are refused rather than guessed.
    #[error(
        "the LLM endpoint host `{host}` is a non-standard numeric address; write it as a dotted \
         quad (127.0.0.1) or [::1]"
    )]
    AmbiguousHost {
        /// The host as written in the endpoint.
        host: String,
    },
    /// The endpoint's host is a name other than `localhost`. Names are never looked up (a
    /// query could leave the machine), so only IP literals and `localhost` are accepted.
    #[error(
        "the LLM endpoint host `{host}` is a name; only IP literals (127.0.0.1, [::1]) and \
         `localhost` are accepted, and nothing is looked up"
    )]
    HostName {
        /// The host as written in the endpoint.
        host: String,
    },
    /// The server answered with a redirect, which is never followed.
    #[error("the server answered with a redirect (HTTP {status}), which is refused")]
    Redirect {
        /// The 3xx status code.
        status: u16,
    },
    /// The server answered with an error status.
    #[error("the server answered HTTP {status}: {excerpt}")]
    Status {
        /// The status code.
        status: u16,
        /// The server's error message (or the start of its body), cleaned and shortened.
        excerpt: String,
    },
    /// The connection or the whole exchange took longer than allowed.
    #[error("no answer within the {which} time-out")]
    Timeout {
        /// Which time-out fired: `connect` or `overall`.
        which: &'static str,
    },
    /// The connection could not be made or broke off.
    #[error("cannot connect to the LLM server: {cause}")]
    Connection {
        /// Why, as the operating system or the HTTP layer said it.
        cause: String,
    },
    /// The reply is larger than the configured cap.
    #[error("the reply is larger than {limit} bytes")]
    TooLarge {
        /// The cap in bytes.
        limit: u64,
    },
    /// The reply does not have the expected shape.
    #[error("the reply is malformed: {reason}")]
    MalformedReply {
        /// What was expected.
        reason: &'static str,
    },
    /// The reply holds no text.
    #[error("the reply is empty")]
    EmptyReply,
    /// The model runner of the command backend could not be started, or it failed.
    #[error("the LLM command {cause}")]
    Command {
        /// What happened, such as `` `llm` was not found `` or `exited with status 1`.
        cause: String,
    },
    /// No model is configured and the server lists none.
    #[error("no model is configured and the server has none; pull or load a model first")]
    NoModels,
}
