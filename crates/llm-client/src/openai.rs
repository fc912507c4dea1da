//! The OpenAI-compatible chat completions API.

use std::sync::{Mutex, OnceLock};

use serde::Serialize;

use crate::http::Http;
use crate::{Backend, ChatOptions, ClientConfig, Error, Structured, configured_or};

/// An OpenAI-compatible server's `POST /v1/chat/completions` (llama.cpp server, LM Studio,
/// vLLM, Ollama's compatibility layer), with the model from the configuration or
/// `GET /v1/models`. An endpoint that already ends in `/v1` is accepted as is.
#[derive(Debug)]
///
/// With [`ChatOptions::schema`], the request carries `response_format`. In
/// [`Structured::Auto`] it is `{"type": "json_schema", "json_schema": {"name": …, "schema": …,
/// "strict": true}}` first; a server that answers an HTTP error naming `response_format`
/// (llama-cpp-python answers 500 on `response_format.type`) is asked once more with
/// `{"type": "json_object", "schema": …}`, and that form is used for the rest of this
/// backend's life.
pub struct OpenAiCompatible {
    http: Http,
    model: OnceLock<Result<String, Error>>,
    /// The structured form that worked or was fallen back to (`Auto` only).
    negotiated: Mutex<Option<Structured>>,
}

impl OpenAiCompatible {
    /// A backend for `config`. Building it does no I/O.
    pub fn new(config: ClientConfig) -> OpenAiCompatible {
        OpenAiCompatible {
            http: Http::new(config),
            model: OnceLock::new(),
            negotiated: Mutex::new(None),
        }
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
    #[serde(skip_serializing_if = "Option::is_none")]
    response_format: Option<serde_json::Value>,
}

/// The `response_format` of `structured` for `schema`.
fn response_format(
    structured: Structured,
    schema: &serde_json::Value,
) -> Option<serde_json::Value> {
    match structured {
        Structured::Auto | Structured::JsonSchema => Some(serde_json::json!({
            "type": "json_schema",
            "json_schema": {"name": "reply", "schema": schema, "strict": true},
        })),
        Structured::JsonObject => {
            Some(serde_json::json!({"type": "json_object", "schema": schema}))
        }
        Structured::Off => None,
    }
}

/// Whether a server error says it does not take this `response_format`.
fn refuses_response_format(error: &Error) -> bool {
    matches!(error, Error::Status { status: 400..=599, excerpt } if excerpt.contains("response_format"))
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
        let Some(schema) = &options.schema else {
            return self.send(&model, system, user, options, None);
        };
        if options.structured != Structured::Auto {
            let format = response_format(options.structured, schema);
            return self.send(&model, system, user, options, format);
        }
        let negotiated = *self.negotiated.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let first = negotiated.unwrap_or(Structured::JsonSchema);
        match self.send(&model, system, user, options, response_format(first, schema)) {
            Err(error) if first == Structured::JsonSchema && refuses_response_format(&error) => {
                self.remember(Structured::JsonObject);
                let format = response_format(Structured::JsonObject, schema);
                self.send(&model, system, user, options, format)
            }
            Ok(reply) => {
                self.remember(first);
                Ok(reply)
            }
            Err(error) => Err(error),
        }
    }
}

impl OpenAiCompatible {
    fn remember(&self, structured: Structured) {
        *self.negotiated.lock().unwrap_or_else(std::sync::PoisonError::into_inner) =
            Some(structured);
    }

    /// One `POST /v1/chat/completions`.
    fn send(
        &self,
        model: &str,
        system: &str,
        user: &str,
        options: &ChatOptions,
        response_format: Option<serde_json::Value>,
    ) -> Result<String, Error> {
        let request = ChatRequest {
            model,
            messages: [
                Message { role: "system", content: system },
                Message { role: "user", content: user },
            ],
            max_tokens: options.max_tokens,
            temperature: options.temperature,
            stream: false,
            response_format,
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
