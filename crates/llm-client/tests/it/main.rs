//! Integration tests of `llm-client`: real HTTP against `httpmock` servers on 127.0.0.1.

mod command;
mod errors;
mod ollama;
mod openai;
mod safety;

use std::time::Duration;

use llm_client::ClientConfig;

/// A fixture of this area, as text.
macro_rules! fixture {
    ($name:literal) => {
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/narrative/", $name))
    };
}
pub(crate) use fixture;

/// A configuration for `endpoint` with short time-outs, so failing tests fail fast.
pub(crate) fn config(endpoint: impl Into<String>) -> ClientConfig {
    let mut config = ClientConfig::new(endpoint).with_timeout(Duration::from_secs(5));
    config.connect_timeout = Duration::from_secs(1);
    config
}
