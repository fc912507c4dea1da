//! Integration tests of `narrative`: prompts built from `Report` values, replies from a fake
//! backend, and whole requests against `httpmock` servers on 127.0.0.1.

mod budget;
mod http;
mod payload;
mod prompts;
mod reply;

use std::sync::{LazyLock, Mutex};

use httpmock::prelude::HttpMockRequest;
use llm_client::{Backend, ChatOptions};
#[path = "../support/report.rs"]
mod report_fixture;
pub(crate) use report_fixture::*;
use report_model::Warning;

/// A warning's English text, as the report words it.
fn en(warning: &Warning) -> String {
    render::warning_text(warning, report_model::Lang::En)
}

/// The built-in redactor, built once: building it compiles every rule.
pub(crate) fn redactor() -> &'static redact::Redactor {
    static REDACTOR: LazyLock<redact::Redactor> = LazyLock::new(redact::Redactor::builtin);
    &REDACTOR
}

/// A fixture of this area, as text.
macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/narrative/", $name))
    };
}
pub(crate) use fixture;

/// A backend that answers from memory and counts its calls.
pub(crate) struct Fake {
    pub(crate) model: Result<String, llm_client::Error>,
    pub(crate) reply: Result<String, llm_client::Error>,
    pub(crate) calls: Mutex<Vec<(String, String)>>,
}

impl Fake {
    pub(crate) fn replying(reply: &str) -> Fake {
        Fake {
            model: Ok("fake-model:1b".to_owned()),
            reply: Ok(reply.to_owned()),
            calls: Mutex::new(Vec::new()),
        }
    }

    pub(crate) fn failing(error: llm_client::Error) -> Fake {
        Fake {
            model: Ok("fake-model:1b".to_owned()),
            reply: Err(error),
            calls: Mutex::new(Vec::new()),
        }
    }

    pub(crate) fn n_calls(&self) -> usize {
        self.calls.lock().unwrap().len()
    }
}

impl Backend for Fake {
    fn model(&self) -> Result<String, llm_client::Error> {
        self.model.clone()
    }

    fn chat(
        &self,
        system: &str,
        user: &str,
        _options: &ChatOptions,
    ) -> Result<String, llm_client::Error> {
        self.calls.lock().unwrap().push((system.to_owned(), user.to_owned()));
        self.reply.clone()
    }
}

/// Request bodies seen by mocks that match with [`capture`], from every test; each test
/// finds its own by a marker only its report contains.
static CAPTURED: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());

/// A mock matcher that records the request body and matches everything.
pub(crate) fn capture(request: &HttpMockRequest) -> bool {
    if let Some(body) = &request.body {
        CAPTURED.lock().unwrap().push(body.clone());
    }
    true
}

/// The captured bodies that contain `marker`, as text.
pub(crate) fn captured_with(marker: &str) -> Vec<String> {
    CAPTURED
        .lock()
        .unwrap()
        .iter()
        .map(|body| String::from_utf8(body.clone()).unwrap())
        .filter(|body| body.contains(marker))
        .collect()
}

/// The JSON between the data markers of a user message.
pub(crate) fn data_of(user: &str) -> &str {
    let start = user.find("<data>\n").unwrap() + "<data>\n".len();
    let end = user.rfind("\n</data>").unwrap();
    &user[start..end]
}
