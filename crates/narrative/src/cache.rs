//! The narrative cache: a reply that passed the checks, stored under the SHA-256 of the
//! exact request, so re-running the same report does not ask the model again.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};

/// The version of the entry format; another version is a miss.
const VERSION: u64 = 1;

/// The digest of a request: SHA-256 over the canonical JSON (sorted keys) of the backend
/// kind, the model, the options and the two messages, as lowercase hex.
pub(crate) fn digest(request: &Value) -> String {
    let bytes = serde_json::to_vec(request).unwrap_or_default();
    let hash = Sha256::digest(&bytes);
    hash.iter().fold(String::with_capacity(64), |mut hex, byte| {
        let _ = write!(hex, "{byte:02x}");
        hex
    })
}

/// The request value that is digested.
pub(crate) fn request_value(
    backend: &str,
    model: &str,
    options: &llm_client::ChatOptions,
    system: &str,
    user: &str,
) -> Value {
    json!({
        "backend": backend,
        "model": model,
        "options": {
            "max_tokens": options.max_tokens,
            "temperature": options.temperature,
            "schema": options.schema,
            "structured": options.structured.as_str(),
        },
        "messages": [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
        ],
    })
}

fn entry_path(dir: &Path, digest: &str) -> PathBuf {
    dir.join(format!("{digest}.json"))
}

/// The stored reply for `digest`, if there is a readable, well-formed entry.
pub(crate) fn load(dir: &Path, digest: &str) -> Option<String> {
    let text = fs_err::read_to_string(entry_path(dir, digest)).ok()?;
    let value: Value = serde_json::from_str(&text).ok()?;
    if value.get("version")?.as_u64()? != VERSION || value.get("digest")?.as_str()? != digest {
        return None;
    }
    value.get("reply")?.as_str().map(str::to_owned)
}

/// Stores `reply` under `digest`: written to a temporary file in the same folder, then
/// renamed over the entry, so a reader never sees half an entry. Failures are ignored (the
/// cache is an optimization).
pub(crate) fn store(dir: &Path, digest: &str, reply: &str) {
    let entry = json!({"version": VERSION, "digest": digest, "reply": reply});
    let Ok(text) = serde_json::to_vec_pretty(&entry) else { return };
    if fs_err::create_dir_all(dir).is_err() {
        return;
    }
    let temporary = dir.join(format!(".{digest}.{}.tmp", std::process::id()));
    if fs_err::write(&temporary, text).is_ok()
        && fs_err::rename(&temporary, entry_path(dir, digest)).is_err()
    {
        let _ = fs_err::remove_file(&temporary);
    }
}
