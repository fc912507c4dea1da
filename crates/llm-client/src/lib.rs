#![doc = include_str!("../README.md")]
#![doc = ""]
//! Talks to a local LLM server — Ollama's native `/api/chat` or an OpenAI-compatible
//! `/v1/chat/completions` (llama.cpp server, LM Studio, vLLM) — on loopback only.
//!
//! Owns the [`Backend`] trait, the two HTTP backends ([`Ollama`], [`OpenAiCompatible`]),
//! loopback enforcement, time-outs and size caps. Never builds prompts, never knows what the
//! text it carries means, and never opens a socket to anything but a loopback address.
//!
//! # Loopback only
//!
//! On first use a backend parses its endpoint (`http://host[:port][/prefix]`; no TLS,
//! credentials or query), and resolves the host once, through a [`Resolve`] the caller can
//! replace. Every address must be loopback (127.0.0.0/8, `::1`, or IPv4-mapped loopback such
//! as `::ffff:127.0.0.1`; never `0.0.0.0` or `::`). A host spelled as a non-standard number
//! (`2130706433`, `127.1`, `0x7f.0.0.1`) is refused, not interpreted. The connection then goes
//! to exactly the checked addresses: ureq's own resolver is replaced by one that returns
//! them, so nothing is resolved a second time. Proxies from the environment are ignored,
//! redirects are refused (a 3xx is an error and is never followed), the reply body is capped
//! ([`ClientConfig::max_response_bytes`], 1 MiB by default), and both a connect time-out
//! (2 s by default) and an overall time-out apply.
//!
//! # Model
//!
//! With no model configured, [`Backend::model`] asks the server (`GET /api/tags`, or
//! `GET /v1/models`) and takes the first model it lists; the answer is kept, so
//! [`Backend::model`] is the one source of the model id.

mod error;
mod http;
mod loopback;
mod ollama;
mod openai;

use std::time::Duration;

pub use crate::error::Error;
pub use crate::loopback::{Resolve, SystemResolver, is_loopback};
pub use crate::ollama::Ollama;
pub use crate::openai::OpenAiCompatible;

/// A chat model: tests and other tools can plug their own.
pub trait Backend: Send + Sync {
    /// The id of the model that answers, from the configuration or, when none was given,
    /// the first model the server lists (asked once).
    fn model(&self) -> Result<String, Error>;

    /// Sends one system message and one user message, non-streaming, and returns the
    /// reply's text (never empty: an empty reply is [`Error::EmptyReply`]).
    fn chat(&self, system: &str, user: &str, options: &ChatOptions) -> Result<String, Error>;
}

/// Limits and sampling for one chat call.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChatOptions {
    /// Most tokens the reply may have (`num_predict` for Ollama, `max_tokens` otherwise).
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: f32,
}

impl Default for ChatOptions {
    /// 512 tokens at temperature 0.2: enough for a short narrative, and steady.
    fn default() -> ChatOptions {
        ChatOptions { max_tokens: 512, temperature: 0.2 }
    }
}

/// Where the server is and how long to wait for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientConfig {
    /// The server's base URL, such as `http://127.0.0.1:11434`.
    pub endpoint: String,
    /// The model id; `None` asks the server for its first model.
    pub model: Option<String>,
    /// The longest the whole exchange (connect, send, wait, read) may take.
    pub timeout: Duration,
    /// The longest connecting may take.
    pub connect_timeout: Duration,
    /// The most bytes read from a reply body.
    pub max_response_bytes: u64,
}

impl ClientConfig {
    /// A configuration for `endpoint` with no model, a 60 s overall time-out, a 2 s connect
    /// time-out and a 1 MiB reply cap.
    pub fn new(endpoint: impl Into<String>) -> ClientConfig {
        ClientConfig {
            endpoint: endpoint.into(),
            model: None,
            timeout: Duration::from_secs(60),
            connect_timeout: Duration::from_secs(2),
            max_response_bytes: 1024 * 1024,
        }
    }

    /// The same configuration with `model` set (an empty string means none).
    #[must_use]
    pub fn with_model(mut self, model: impl Into<String>) -> ClientConfig {
        let model = model.into();
        self.model = if model.trim().is_empty() { None } else { Some(model) };
        self
    }

    /// The same configuration with an overall time-out.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> ClientConfig {
        self.timeout = timeout;
        self
    }
}

/// The configured model, if any, else `fetch` asks the server.
fn configured_or(
    config: &ClientConfig,
    fetch: impl FnOnce() -> Result<String, Error>,
) -> Result<String, Error> {
    match &config.model {
        Some(model) if !model.trim().is_empty() => Ok(model.clone()),
        _ => fetch(),
    }
}

/// An estimate of how many tokens `texts` take: a quarter token per ASCII character, one
/// per other character (CJK text is roughly a token per character). Errs on the high side.
fn estimate_tokens(texts: &[&str]) -> u64 {
    let (mut ascii, mut other) = (0_u64, 0_u64);
    for c in texts.iter().flat_map(|text| text.chars()) {
        if c.is_ascii() {
            ascii += 1;
        } else {
            other += 1;
        }
    }
    ascii.div_ceil(4) + other
}

#[cfg(test)]
mod tests;
