//! The OpenAI-compatible chat completions API.

use std::sync::{Arc, OnceLock};

use serde::Serialize;

use crate::http::Http;
use crate::loopback::{Resolve, SystemResolver};
use crate::{Backend, ChatOptions, ClientConfig, Error, configured_or};

/// An OpenAI-compatible server's `POST /v1/chat/completions` (llama.cpp server, LM Studio,
/// vLLM, Ollama's compatibility layer), with the model from the configuration or
/// `GET /v1/models`. An endpoint that already ends in `/v1` is accepted as is.
#[derive(Debug)]
pub struct OpenAiCompatible {
    http: Http,
    model: OnceLock<Result<String, Error>>,
}

impl OpenAiCompatible {
    /// A backend for `config`, resolving the host with the operating system's resolver.
    pub fn new(config: ClientConfig) -> OpenAiCompatible {
        OpenAiCompatible::with_resolver(config, SystemResolver)
    }

    /// A backend for `config`, resolving the host with `resolver`.
    pub fn with_resolver(
        config: ClientConfig,
        resolver: impl Resolve + 'static,
    ) -> OpenAiCompatible {
        OpenAiCompatible { http: Http::new(config, Arc::new(resolver)), model: OnceLock::new() }
    }

    fn url(&self, path: &str) -> Result<String, Error> {
        let base = self.http.base()?;
        Ok(format!("{}/v1{path}", base.strip_suffix("/v1").unwrap_or(base)))
    }

    fn fetch_model(&self) -> Result<String, Error> {
        let list = self.http.get_json(&self.url("/models")?)?;
        let models = list
            .get("data")
            .and_then(|data| data.as_array())
            .ok_or(Error::MalformedReply { reason: "expected `data` in the model list" })?;
        let first = models.first().ok_or(Error::NoModels)?;
        first
            .get("id")
            .and_then(|id| id.as_str())
            .filter(|id| !id.trim().is_empty())
            .map(str::to_owned)
            .ok_or(Error::MalformedReply { reason: "expected `data[0].id` in the model list" })
    }
}

#[derive(Serialize)]
struct ChatRequest<'a> {
    model: &'a str,
    messages: [Message<'a>; 2],
    max_tokens: u32,
    temperature: f32,
    stream: bool,
}

#[derive(Serialize)]
struct Message<'a> {
    role: &'static str,
    content: &'a str,
}

impl Backend for OpenAiCompatible {
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
            max_tokens: options.max_tokens,
            temperature: options.temperature,
            stream: false,
        };
        let reply = self.http.post_json(&self.url("/chat/completions")?, &request)?;
        let message = reply
            .get("choices")
            .and_then(|choices| choices.get(0))
            .and_then(|choice| choice.get("message"))
            .ok_or(Error::MalformedReply { reason: "expected `choices[0].message`" })?;
        match message.get("content") {
            Some(serde_json::Value::String(text)) if !text.trim().is_empty() => Ok(text.clone()),
            Some(serde_json::Value::String(_) | serde_json::Value::Null) | None => {
                Err(Error::EmptyReply)
            }
            Some(_) => {
                Err(Error::MalformedReply { reason: "`choices[0].message.content` is not text" })
            }
        }
    }
}
