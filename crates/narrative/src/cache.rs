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

/// The largest cache entry read: far above the largest reply kept (`max_output_chars` is
/// at most a million characters), so a bigger file is not ours.
const ENTRY_MAX_BYTES: u64 = 8 << 20;

/// The stored reply for `digest`, if there is a readable, well-formed entry. Only a
/// regular file of at most [`ENTRY_MAX_BYTES`] is read, and it is opened without
/// blocking, so a FIFO or a device planted there is a miss, not a hang.
pub(crate) fn load(dir: &Path, digest: &str) -> Option<String> {
    use fs_err::os::unix::fs::OpenOptionsExt as _;
    use std::io::Read as _;
    let file = fs_err::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(entry_path(dir, digest))
        .ok()?;
    let metadata = file.metadata().ok()?;
    if !metadata.is_file() || metadata.len() > ENTRY_MAX_BYTES {
        return None;
    }
    let mut text = String::new();
    file.take(ENTRY_MAX_BYTES).read_to_string(&mut text).ok()?;
    let value: Value = serde_json::from_str(&text).ok()?;
    if value.get("version")?.as_u64()? != VERSION || value.get("digest")?.as_str()? != digest {
        return None;
    }
    value.get("reply")?.as_str().map(str::to_owned)
}

/// Stores `reply` under `digest`: written to a new temporary file in the same folder
/// (created exclusively under a random name, so a link planted there is never
/// followed), flushed to disk, then renamed over the entry, so a reader never sees half
/// an entry. Failures are ignored (the cache is an optimization); a failed write leaves
/// no temporary file behind.
pub(crate) fn store(dir: &Path, digest: &str, reply: &str) {
    use std::io::Write as _;
    let entry = json!({"version": VERSION, "digest": digest, "reply": reply});
    let Ok(text) = serde_json::to_vec_pretty(&entry) else { return };
    if fs_err::create_dir_all(dir).is_err() {
        return;
    }
    let Ok(mut temporary) = tempfile::Builder::new().prefix(".entry-").tempfile_in(dir) else {
        return;
    };
    if temporary.write_all(&text).is_ok() && temporary.as_file().sync_all().is_ok() {
        let _ = temporary.persist(entry_path(dir, digest));
    }
}

#[cfg(test)]
mod tests {
    use llm_client::{ChatOptions, Structured};

    use super::*;

    fn options() -> ChatOptions {
        ChatOptions {
            max_tokens: 512,
            temperature: 0.2,
            schema: Some(json!({"type": "object"})),
            structured: Structured::Auto,
        }
    }

    fn key(backend: &str, model: &str, options: &ChatOptions, system: &str, user: &str) -> String {
        digest(&request_value(backend, model, options, system, user))
    }

    /// The files in `dir`, sorted.
    fn files(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs_err::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn the_digest_is_the_sha256_of_the_canonical_json_in_lowercase_hex() {
        // `echo -n '{}' | sha256sum`, and the same bytes whatever order the keys were given in.
        assert_eq!(
            digest(&json!({})),
            "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
        );
        let sorted: Value = serde_json::from_str(r#"{"a":1,"b":2}"#).unwrap();
        let unsorted: Value = serde_json::from_str(r#"{"b":2,"a":1}"#).unwrap();
        assert_eq!(digest(&sorted), digest(&unsorted));
        assert_eq!(
            digest(&sorted),
            // `echo -n '{"a":1,"b":2}' | sha256sum`
            "43258cff783fe7036d8a43033f830adfc60ec037382473548ac742b888292777"
        );
    }

    #[test]
    fn every_part_of_the_request_is_in_the_key() {
        let base = key("ollama http://127.0.0.1:11434", "m:1b", &options(), "sys", "user");
        assert_eq!(base.len(), 64);
        assert_eq!(base, key("ollama http://127.0.0.1:11434", "m:1b", &options(), "sys", "user"));
        let variants = [
            key("openai http://127.0.0.1:8080", "m:1b", &options(), "sys", "user"),
            key("ollama http://127.0.0.1:11434", "m:3b", &options(), "sys", "user"),
            key(
                "ollama http://127.0.0.1:11434",
                "m:1b",
                &ChatOptions { max_tokens: 256, ..options() },
                "sys",
                "user",
            ),
            key(
                "ollama http://127.0.0.1:11434",
                "m:1b",
                &ChatOptions { temperature: 0.7, ..options() },
                "sys",
                "user",
            ),
            key(
                "ollama http://127.0.0.1:11434",
                "m:1b",
                &ChatOptions { schema: None, ..options() },
                "sys",
                "user",
            ),
            key(
                "ollama http://127.0.0.1:11434",
                "m:1b",
                &ChatOptions { structured: Structured::JsonObject, ..options() },
                "sys",
                "user",
            ),
            key("ollama http://127.0.0.1:11434", "m:1b", &options(), "sys 2", "user"),
            key("ollama http://127.0.0.1:11434", "m:1b", &options(), "sys", "user 2"),
            // The two messages are not just concatenated.
            key("ollama http://127.0.0.1:11434", "m:1b", &options(), "sysu", "ser"),
        ];
        for (idx, variant) in variants.iter().enumerate() {
            assert_ne!(variant, &base, "variant {idx}");
        }
    }

    #[test]
    fn a_stored_reply_is_loaded_back_from_its_entry_and_no_temporary_file_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("standup").join("narrative");
        let digest = key("ollama", "m", &options(), "s", "u");
        assert_eq!(load(&cache, &digest), None);
        store(&cache, &digest, "The reply, as the model sent it.\n");
        assert_eq!(files(&cache), [format!("{digest}.json")]);
        assert_eq!(load(&cache, &digest).as_deref(), Some("The reply, as the model sent it.\n"));
        // Another request's digest is a miss.
        assert_eq!(load(&cache, &key("ollama", "m", &options(), "s", "other")), None);
        // Storing again replaces the entry.
        store(&cache, &digest, "second");
        assert_eq!(load(&cache, &digest).as_deref(), Some("second"));
        assert_eq!(files(&cache), [format!("{digest}.json")]);
    }

    #[test]
    fn an_unreadable_or_foreign_entry_is_a_miss_and_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let digest = key("ollama", "m", &options(), "s", "u");
        let path = entry_path(dir.path(), &digest);
        let good = json!({"version": VERSION, "digest": digest, "reply": "kept"});
        assert_eq!(path, dir.path().join(format!("{digest}.json")));
        let entries = [
            ("not json".to_owned(), None),
            (json!({"version": VERSION + 1, "digest": digest, "reply": "x"}).to_string(), None),
            (json!({"version": VERSION, "digest": "0".repeat(64), "reply": "x"}).to_string(), None),
            (
                json!({"version": VERSION + 1, "digest": "0".repeat(64), "reply": "x"}).to_string(),
                None,
            ),
            (json!({"version": "1", "digest": digest, "reply": "x"}).to_string(), None),
            (json!({"digest": digest, "reply": "x"}).to_string(), None),
            (json!({"version": VERSION, "reply": "x"}).to_string(), None),
            (json!({"version": VERSION, "digest": digest, "reply": 5}).to_string(), None),
            (json!({"version": VERSION, "digest": digest}).to_string(), None),
            (good.to_string(), Some("kept")),
        ];
        for (text, expected) in entries {
            fs_err::write(&path, &text).unwrap();
            assert_eq!(load(dir.path(), &digest).as_deref(), expected, "{text}");
            store(dir.path(), &digest, "fresh");
            assert_eq!(load(dir.path(), &digest).as_deref(), Some("fresh"), "{text}");
        }
    }

    #[test]
    fn a_cache_that_cannot_be_written_is_ignored() {
        let dir = tempfile::tempdir().unwrap();
        // The cache folder's place is taken by a file: nothing is stored, nothing fails.
        let blocked = dir.path().join("file");
        fs_err::write(&blocked, "x").unwrap();
        store(&blocked, "abc", "reply");
        assert_eq!(load(&blocked, "abc"), None);
        // The entry's place is taken by a folder: the temporary file is removed again.
        let cache = dir.path().join("cache");
        fs_err::create_dir_all(entry_path(&cache, "abc").join("inner")).unwrap();
        store(&cache, "abc", "reply");
        assert_eq!(files(&cache), ["abc.json"]);
        assert_eq!(load(&cache, "abc"), None);
    }
}
