//! The HTTP plumbing both backends share: endpoint parsing, the loopback check, a ureq agent
//! pinned to the checked addresses, and JSON requests with status, redirect and size checks.

use std::net::SocketAddr;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::Value;
use ureq::Agent;
use ureq::config::Config;
use ureq::http::Uri;
use ureq::unversioned::resolver::{ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

use crate::loopback;
use crate::{ClientConfig, Error};

/// Longest server error excerpt quoted in an error, in characters.
const EXCERPT_CHARS: usize = 200;

/// Most bytes read from an error response to find its message.
const ERROR_BODY_LIMIT: u64 = 64 * 1024;

/// An endpoint that passed the loopback check, with an agent that connects only to the
/// checked addresses.
struct Checked {
    agent: Agent,
    /// `http://authority/prefix`, without a trailing slash.
    base: String,
}

/// A client for one endpoint. The check runs on first use, once; the first use also starts
/// the one deadline ([`ClientConfig::timeout`]) every later request of this client shares.
pub(crate) struct Http {
    config: ClientConfig,
    checked: OnceLock<Result<Checked, Error>>,
    started: OnceLock<Instant>,
}

impl std::fmt::Debug for Http {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Http").field("config", &self.config).finish_non_exhaustive()
    }
}

impl Http {
    pub(crate) fn new(config: ClientConfig) -> Http {
        Http { config, checked: OnceLock::new(), started: OnceLock::new() }
    }

    pub(crate) fn config(&self) -> &ClientConfig {
        &self.config
    }

    fn checked(&self) -> Result<&Checked, Error> {
        self.checked.get_or_init(|| check_endpoint(&self.config)).as_ref().map_err(Clone::clone)
    }

    /// The path prefix of the endpoint (`""` or `/something`), for backends that adjust it.
    pub(crate) fn base(&self) -> Result<&str, Error> {
        Ok(&self.checked()?.base)
    }

    /// What is left of the one deadline, which starts at the first request; an error once
    /// it has passed.
    pub(crate) fn remaining(&self) -> Result<Duration, Error> {
        remaining(&self.started, self.config.timeout)
    }

    /// `GET base + path`, returning the parsed JSON body.
    pub(crate) fn get_json(&self, url: &str) -> Result<Value, Error> {
        let checked = self.checked()?;
        let remaining = self.remaining()?;
        let response = checked
            .agent
            .get(url)
            .config()
            .timeout_global(Some(remaining))
            .build()
            .call()
            .map_err(map_ureq_error)?;
        self.read_json(response)
    }

    /// `POST` a JSON body, returning the parsed JSON body of the reply.
    pub(crate) fn post_json(&self, url: &str, body: &impl Serialize) -> Result<Value, Error> {
        let checked = self.checked()?;
        let body = serde_json::to_vec(body)
            .map_err(|_| Error::MalformedReply { reason: "the request could not be serialized" })?;
        let remaining = self.remaining()?;
        let response = checked
            .agent
            .post(url)
            .config()
            .timeout_global(Some(remaining))
            .build()
            .header("content-type", "application/json")
            .send(&body[..])
            .map_err(map_ureq_error)?;
        self.read_json(response)
    }

    fn read_json(&self, mut response: ureq::http::Response<ureq::Body>) -> Result<Value, Error> {
        let status = response.status().as_u16();
        if (300..400).contains(&status) {
            return Err(Error::Redirect { status });
        }
        if !(200..300).contains(&status) {
            let body = response.body_mut().with_config().limit(ERROR_BODY_LIMIT).read_to_vec();
            let excerpt = body.map(|body| error_excerpt(&body)).unwrap_or_default();
            let excerpt = if excerpt.is_empty() { "(no message)".to_owned() } else { excerpt };
            return Err(Error::Status { status, excerpt });
        }
        let bytes = response
            .body_mut()
            .with_config()
            .limit(self.config.max_response_bytes)
            .read_to_vec()
            .map_err(map_ureq_error)?;
        serde_json::from_slice(&bytes)
            .map_err(|_| Error::MalformedReply { reason: "the body is not JSON" })
    }
}

/// What is left of a deadline of `timeout` that started at the first call (which sets
/// `started`); [`Error::Timeout`] once it has passed.
pub(crate) fn remaining(started: &OnceLock<Instant>, timeout: Duration) -> Result<Duration, Error> {
    let started = *started.get_or_init(Instant::now);
    timeout
        .checked_sub(started.elapsed())
        .filter(|left| !left.is_zero())
        .ok_or(Error::Timeout { which: "overall" })
}

/// Checks an endpoint as [`Ollama`](crate::Ollama) and
/// [`OpenAiCompatible`](crate::OpenAiCompatible) will on first use, without any I/O: an
/// `http://host[:port][/prefix]` URL with no credentials or query, a port from 1 to 65535,
/// and a host that is a loopback IP literal or `localhost`. Returns the addresses it
/// stands for.
pub fn validate_endpoint(endpoint: &str) -> Result<Vec<SocketAddr>, Error> {
    parse_endpoint(endpoint).map(|(addresses, _)| addresses)
}

/// Whether something accepts a TCP connection on a valid loopback `endpoint` within
/// `timeout` (nothing is sent; an invalid endpoint is `false`). For callers that want to
/// ask a server only when one is running.
pub fn listens(endpoint: &str, timeout: Duration) -> bool {
    let Ok(addresses) = validate_endpoint(endpoint) else { return false };
    addresses.iter().any(|address| std::net::TcpStream::connect_timeout(address, timeout).is_ok())
}

/// The checked addresses and the base URL (`http://authority/prefix`) of `endpoint`.
fn parse_endpoint(endpoint: &str) -> Result<(Vec<SocketAddr>, String), Error> {
    let uri: Uri = endpoint
        .trim()
        .parse()
        .map_err(|_| Error::InvalidEndpoint { reason: "it cannot be parsed as a URL" })?;
    match uri.scheme_str() {
        Some("http") => {}
        Some(_) => {
            return Err(Error::InvalidEndpoint {
                reason: "only http:// is supported (loopback needs no TLS)",
            });
        }
        None => {
            return Err(Error::InvalidEndpoint {
                reason: "it has no scheme; write http://host:port",
            });
        }
    }
    let authority = uri.authority().ok_or(Error::InvalidEndpoint { reason: "it has no host" })?;
    if authority.as_str().contains('@') {
        return Err(Error::InvalidEndpoint { reason: "it must not carry credentials" });
    }
    if uri.query().is_some() {
        return Err(Error::InvalidEndpoint { reason: "it must not have a query" });
    }
    // `Authority::port` reads a port that does not fit in 16 bits as no port at all (which
    // would mean port 80), so the text after the host is read here.
    let after_host = authority.as_str().get(authority.host().len()..).unwrap_or("");
    let port = match after_host.strip_prefix(':') {
        None => 80,
        Some(port) => match port.parse::<u16>() {
            // `u16::from_str` takes a leading `+`; a URL port is digits only.
            _ if !port.bytes().all(|byte| byte.is_ascii_digit()) => {
                return Err(Error::InvalidEndpoint {
                    reason: "its port is not a number from 1 to 65535",
                });
            }
            Ok(0) | Err(_) => {
                return Err(Error::InvalidEndpoint {
                    reason: "its port is not a number from 1 to 65535",
                });
            }
            Ok(port) => port,
        },
    };
    let addresses = loopback::check(authority.host(), port)?;
    let prefix = uri.path().trim_end_matches('/');
    let base = format!("http://{}{prefix}", authority.as_str());
    Ok((addresses, base))
}

/// Parses the endpoint, checks its host and builds the pinned agent.
fn check_endpoint(config: &ClientConfig) -> Result<Checked, Error> {
    let (addresses, base) = parse_endpoint(&config.endpoint)?;
    Ok(Checked { agent: agent(config, addresses), base })
}

/// An agent that ignores proxies, follows no redirect, reports error statuses as responses,
/// has the configured time-outs and connects only to `addresses`.
fn agent(config: &ClientConfig, addresses: Vec<SocketAddr>) -> Agent {
    let ureq_config = agent_config(config);
    Agent::with_parts(ureq_config, DefaultConnector::new(), Pinned(addresses))
}

pub(crate) fn agent_config(config: &ClientConfig) -> Config {
    Agent::config_builder()
        // `Config::default()` reads ALL_PROXY / HTTPS_PROXY / HTTP_PROXY; a proxy would move
        // the request off loopback.
        .proxy(None)
        // With 0, ureq returns the 3xx response as is; `read_json` turns it into an error.
        .max_redirects(0)
        .http_status_as_error(false)
        .timeout_global(Some(config.timeout))
        .timeout_connect(Some(config.connect_timeout))
        .user_agent(concat!("llm-client/", env!("CARGO_PKG_VERSION")))
        .build()
}

/// A ureq resolver that answers every lookup with the addresses the loopback check
/// approved, so there is no second resolution between the check and the connection.
#[derive(Debug)]
struct Pinned(Vec<SocketAddr>);

impl Resolver for Pinned {
    fn resolve(
        &self,
        _uri: &Uri,
        _config: &Config,
        _timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let mut resolved = self.empty();
        for address in &self.0 {
            if resolved.try_push(*address).is_err() {
                break;
            }
        }
        if resolved.is_empty() { Err(ureq::Error::HostNotFound) } else { Ok(resolved) }
    }
}

/// Maps ureq's error to ours, keeping only a short cause.
fn map_ureq_error(error: ureq::Error) -> Error {
    match error {
        ureq::Error::Timeout(ureq::Timeout::Connect) => Error::Timeout { which: "connect" },
        ureq::Error::Timeout(_) => Error::Timeout { which: "overall" },
        ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => {
            Error::Timeout { which: "overall" }
        }
        ureq::Error::Io(io) => Error::Connection { cause: clean_excerpt(&io.to_string()) },
        ureq::Error::BodyExceedsLimit(limit) => Error::TooLarge { limit },
        ureq::Error::TooManyRedirects | ureq::Error::RedirectFailed => {
            Error::Redirect { status: 300 }
        }
        ureq::Error::HostNotFound => Error::Connection { cause: "host not found".to_owned() },
        other => Error::Connection { cause: clean_excerpt(&other.to_string()) },
    }
}

/// The server's own message from an error body: `{"error": "…"}` (Ollama),
/// `{"error": {"message": "…"}}` (OpenAI-compatible servers), else the start of the body.
fn error_excerpt(body: &[u8]) -> String {
    let message = serde_json::from_slice::<Value>(body).ok().and_then(|value| {
        let error = value.get("error")?;
        error.as_str().or_else(|| error.get("message")?.as_str()).map(str::to_owned)
    });
    match message {
        Some(message) => clean_excerpt(&message),
        None => clean_excerpt(&String::from_utf8_lossy(body)),
    }
}

/// Removes control, bidi and zero-width characters, folds whitespace runs into one space and
/// caps the text at [`EXCERPT_CHARS`] with a `…`.
pub(crate) fn clean_excerpt(text: &str) -> String {
    let mut cleaned = String::with_capacity(text.len().min(EXCERPT_CHARS * 4));
    let mut pending_space = false;
    let mut n_chars = 0;
    for c in text.chars() {
        if c.is_whitespace() {
            pending_space = !cleaned.is_empty();
            continue;
        }
        if c.is_control() || is_invisible(c) {
            continue;
        }
        if pending_space {
            cleaned.push(' ');
            n_chars += 1;
            pending_space = false;
        }
        if n_chars >= EXCERPT_CHARS {
            cleaned.push('…');
            break;
        }
        cleaned.push(c);
        n_chars += 1;
    }
    cleaned
}

/// Bidi overrides and isolates, zero-width characters and the byte-order mark.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

#[cfg(test)]
mod tests;
