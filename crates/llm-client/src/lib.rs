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
//! credentials or query; [`validate_endpoint`] runs the same check without I/O). The host
//! must be an IP literal or `localhost`, which stands for 127.0.0.1 and `::1` without any
//! lookup: no other name is accepted, so the client never touches a resolver and no query
//! leaves the machine. Every address must be loopback (127.0.0.0/8, `::1`, or IPv4-mapped
//! loopback such as `::ffff:127.0.0.1`; never `0.0.0.0` or `::`). A host spelled as a
//! non-standard number (`2130706433`, `127.1`, `0x7f.0.0.1`) is refused, not interpreted.
//! The connection then goes to exactly the checked addresses: ureq's own resolver is
//! replaced by one that returns them. Proxies from the environment are ignored, redirects
//! are refused (a 3xx is an error and is never followed), the reply body is capped
//! ([`ClientConfig::max_response_bytes`], 1 MiB by default), and a connect time-out (2 s by
//! default) applies. [`ClientConfig::timeout`] is one deadline for everything a backend
//! does, counted from its first request: asking for the model list, the chat and a
//! structured-output fallback together never take longer.
//!
//! # Structured replies
//!
//! [`ChatOptions::schema`] asks for JSON of a schema: Ollama gets it as `format`;
//! an OpenAI-compatible server gets `response_format` of type `json_schema` (strict), and,
//! when it answers an HTTP error naming `response_format` (llama-cpp-python does), once
//! more with `{"type": "json_object", "schema": …}`, which is then used for the rest of the
//! backend's life ([`Structured`]).
//!
//! # Model
//!
//! With no model configured, [`Backend::model`] asks the server (`GET /api/tags`, or
//! `GET /v1/models`) and takes the first model it lists; the answer is kept, so
//! [`Backend::model`] is the one source of the model id.

mod command;
mod error;
mod http;
mod loopback;
mod ollama;
mod openai;

use std::time::Duration;

pub use crate::command::{CommandBackend, CommandRequest};
pub use crate::error::Error;
pub use crate::http::{listens, validate_endpoint};
pub use crate::loopback::is_loopback;
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
#[derive(Debug, Clone, PartialEq)]
pub struct ChatOptions {
    /// Most tokens the reply may have (`num_predict` for Ollama, `max_tokens` otherwise).
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: f32,
    /// A JSON Schema the reply should follow, or `None` for free text.
    pub schema: Option<serde_json::Value>,
    /// How an OpenAI-compatible server is asked for the schema (Ollama has one way).
    pub structured: Structured,
}

impl Default for ChatOptions {
    /// 512 tokens at temperature 0.2 (enough for a short narrative, and steady), free text.
    fn default() -> ChatOptions {
        ChatOptions {
            max_tokens: 512,
            temperature: 0.2,
            schema: None,
            structured: Structured::Auto,
        }
    }
}

/// How a structured reply is asked for (`[llm] structured`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Structured {
    /// `json_schema`, falling back once to `json_object` when the server refuses it.
    #[default]
    Auto,
    /// Only `response_format: {"type": "json_schema", …}` (OpenAI, vLLM, LM Studio).
    JsonSchema,
    /// Only `response_format: {"type": "json_object", "schema": …}` (llama-cpp-python).
    JsonObject,
    /// No structured output: the schema is not sent, the reply is free text.
    Off,
}

impl Structured {
    /// The name used in the configuration.
    pub fn as_str(self) -> &'static str {
        match self {
            Structured::Auto => "auto",
            Structured::JsonSchema => "json_schema",
            Structured::JsonObject => "json_object",
            Structured::Off => "off",
        }
    }
}

/// Where the server is and how long to wait for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientConfig {
    /// The server's base URL, such as `http://127.0.0.1:11434`.
    pub endpoint: String,
    /// The model id; `None` asks the server for its first model.
    pub model: Option<String>,
    /// The longest everything the backend does may take together (model list, chat, a
    /// fallback), counted from its first request.
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
