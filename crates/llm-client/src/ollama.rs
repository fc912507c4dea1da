//! Ollama's native chat API.

use std::sync::OnceLock;

use serde::Serialize;

use crate::http::Http;
use crate::{
    Backend, ChatOptions, ClientConfig, Error, Structured, configured_or, estimate_tokens,
};

/// Tokens added to the estimate for the chat template's own text.
const TEMPLATE_TOKENS: u64 = 256;

/// `num_ctx` is rounded up to a multiple of this, so that similar prompts ask for the same
/// context size and Ollama does not reload the model for each.
const CONTEXT_STEP: u64 = 1024;

/// The smallest `num_ctx` sent.
const MIN_CONTEXT: u64 = 2048;

/// Ollama's `POST /api/chat`, with the model from the configuration or `GET /api/tags`.
///
/// The request sets `stream: false`, `think: false` (a thinking model would otherwise think
/// by default) and `options.num_ctx` sized from an estimate of the prompt plus the reply:
/// Ollama's default context is small, and it silently drops the start of a longer prompt,
/// which is where the system prompt is. With [`ChatOptions::schema`] (and structured output
/// not `Off`), the schema is sent as `format`, which Ollama enforces.
#[derive(Debug)]
pub struct Ollama {
    http: Http,
    model: OnceLock<Result<String, Error>>,
}

impl Ollama {
    /// A backend for `config`. Building it does no I/O.
    pub fn new(config: ClientConfig) -> Ollama {
        Ollama { http: Http::new(config), model: OnceLock::new() }
    }

    fn url(&self, path: &str) -> Result<String, Error> {
        Ok(format!("{}{path}", self.http.base()?))
    }

    fn fetch_model(&self) -> Result<String, Error> {
        let tags = self.http.get_json(&self.url("/api/tags")?)?;
        let models = tags
            .get("models")
            .and_then(|models| models.as_array())
            .ok_or(Error::MalformedReply { reason: "expected `models` in the model list" })?;
        let first = models.first().ok_or(Error::NoModels)?;
        first
            .get("name")
            .or_else(|| first.get("model"))
            .and_then(|name| name.as_str())
            .filter(|name| !name.trim().is_empty())
            .map(str::to_owned)
            .ok_or(Error::MalformedReply { reason: "expected `models[0].name` in the model list" })
    }
}

#[derive(Serialize)]
struct ChatRequest<'a> {
    model: &'a str,
    messages: [Message<'a>; 2],
    stream: bool,
    think: bool,
    options: Options,
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<&'a serde_json::Value>,
}

#[derive(Serialize)]
struct Message<'a> {
    role: &'static str,
    content: &'a str,
}

#[derive(Serialize)]
struct Options {
    temperature: f32,
    num_predict: u32,
    num_ctx: u64,
}

/// The context size for a prompt of `system` and `user` and a reply of `max_tokens`.
pub(crate) fn context_size(system: &str, user: &str, max_tokens: u32) -> u64 {
    let needed = estimate_tokens(&[system, user]) + u64::from(max_tokens) + TEMPLATE_TOKENS;
    needed.div_ceil(CONTEXT_STEP).saturating_mul(CONTEXT_STEP).max(MIN_CONTEXT)
}

impl Backend for Ollama {
    fn model(&self) -> Result<String, Error> {
        self.model.get_or_init(|| configured_or(self.http.config(), || self.fetch_model())).clone()
    }

    fn chat(&self, system: &str, user: &str, options: &ChatOptions) -> Result<String, Error> {
        let model = self.model()?;
        let request = ChatRequest {
            model: &model,
            messages: [
                Message { role: "system", content: system },
                Message { role: "user", content: user },
            ],
            stream: false,
            think: false,
            options: Options {
                temperature: options.temperature,
                num_predict: options.max_tokens,
                num_ctx: context_size(system, user, options.max_tokens),
            },
            format: options.schema.as_ref().filter(|_| options.structured != Structured::Off),
        };
        let reply = self.http.post_json(&self.url("/api/chat")?, &request)?;
        let content = reply
            .get("message")
            .and_then(|message| message.get("content"))
            .ok_or(Error::MalformedReply { reason: "expected `message.content`" })?;
        let text = content
            .as_str()
            .ok_or(Error::MalformedReply { reason: "`message.content` is not text" })?;
        if text.trim().is_empty() {
            return Err(Error::EmptyReply);
        }
        Ok(text.to_owned())
    }
}
