//! Text to fill the home with: word pools, prompts, commit subjects, and payload
//! corpora that are cheap to copy out in bulk.
//!
//! A [`Corpus`] holds a few thousand code-like, log-like and prose lines, already
//! escaped for a JSON string and joined by escaped newlines. A payload is a run of whole
//! lines copied out of it, so megabytes of valid JSON string content cost one `memcpy`
//! each, and a payload never ends inside an escape sequence.

use crate::rng::Rng;

/// Common words of code and prose.
pub(crate) const WORDS: &[&str] = &[
    "request", "response", "client", "server", "buffer", "config", "session", "token", "cache",
    "index", "query", "schema", "record", "event", "stream", "parser", "reader", "writer",
    "handler", "router", "upload", "download", "retry", "backoff", "timeout", "limit", "batch",
    "queue", "worker", "job", "task", "report", "metric", "counter", "span", "trace", "logger",
    "window", "bucket", "project", "commit", "branch", "author", "history", "command", "prompt",
    "title", "payload", "message", "channel", "socket", "listener", "state", "store", "model",
    "vector", "matrix", "layout", "render", "template", "widget", "button", "dialog", "form",
    "field", "value", "result", "error", "status", "ledger", "invoice", "payment", "account",
    "user", "team", "role", "policy", "secret", "key", "digest", "hash", "checksum", "snapshot",
];

/// Short Japanese phrases, for comments, prompts and commit subjects.
pub(crate) const JAPANESE: &[&str] = &[
    "リトライ処理を追加する",
    "タイムアウトの扱いを修正",
    "日報の集計を高速化する",
    "ドキュメントを更新",
    "テストを追加",
    "設定ファイルの読み込みを整理",
    "エラーメッセージを改善",
    "不要なコードを削除",
];

/// What a user types to a coding agent.
pub(crate) const PROMPTS: &[&str] = &[
    "Add a retry loop with exponential backoff to the upload client",
    "Why does the CI job fail on main? Look at the last run's logs",
    "Write unit tests for the parser, including the empty-input case",
    "Refactor the session store so that it no longer clones the whole map",
    "Explain what this function does and whether it can panic",
    "Rename `process_batch` to `flush_batch` everywhere and fix the call sites",
    "The report is empty when TZ is unset. Find out why",
    "Profile the history reader on a 300k-line file and make it faster",
    "Update the README: document the new --format flag",
    "Migrate the config loader from serde_yaml to toml",
    "Review my diff and point out anything risky",
    "Add pagination to the /invoices endpoint",
    "Fix the flaky test in tests/it/git.rs",
    "Make the error message name the file and the line",
    "Implement the `doctor` subcommand that lists every source found",
    "Split this module: it has grown past 1,000 lines",
    "Bump the dependencies and fix what breaks",
    "Write a migration that adds an index on (account_id, created_at)",
    "Check the Dockerfile: the image is 2 GB, can we make it smaller?",
    "Summarize what changed on this branch since main",
    "日報の集計が遅いので原因を調べてください",
    "このエラーの原因を教えて: connection reset by peer",
    "Draft the release notes for v0.4.0\n\nKeep it short, one line per change",
    "Add a `--since` flag.\nIt takes a date or a duration such as 3d",
];

/// The object of a commit subject.
const SUBJECT_OBJECTS: &[&str] = &[
    "retry logic in the upload client",
    "empty input in the parser",
    "pagination of the invoice list",
    "session store locking",
    "the config loader",
    "flaky timeout in the integration tests",
    "the release workflow",
    "error messages for bad dates",
    "the Dockerfile build stages",
    "cache invalidation on logout",
    "metrics for the batch worker",
    "the search index schema",
    "README usage section",
    "shell history parsing",
    "the payment webhook handler",
    "dependency versions",
];

const SUBJECT_VERBS: &[&str] =
    &["Fix", "Add", "Refactor", "Update", "Remove", "Improve", "Document", "Test", "Simplify"];

const SUBJECT_PREFIXES: &[&str] =
    &["", "", "", "fix: ", "feat: ", "chore: ", "docs: ", "refactor(core): ", "test: "];

/// A commit subject, sometimes with a body.
pub(crate) fn commit_message(rng: &mut Rng) -> String {
    let subject = if rng.percent(8) {
        (*rng.pick(JAPANESE)).to_owned()
    } else {
        let prefix = rng.pick(SUBJECT_PREFIXES);
        let verb = rng.pick(SUBJECT_VERBS);
        let verb = if prefix.is_empty() { (*verb).to_owned() } else { verb.to_ascii_lowercase() };
        format!("{prefix}{verb} {}", rng.pick(SUBJECT_OBJECTS))
    };
    if rng.percent(30) {
        let words: Vec<&str> = (0..rng.range_usize(8, 30)).map(|_| *rng.pick(WORDS)).collect();
        format!("{subject}\n\n{}.\n", words.join(" "))
    } else {
        format!("{subject}\n")
    }
}

/// A prompt text.
pub(crate) fn prompt(rng: &mut Rng) -> &'static str {
    rng.pick_str(PROMPTS)
}

/// `text` as the inside of a JSON string (no surrounding quotes).
pub(crate) fn json_escape(text: &str) -> String {
    let quoted = serde_json::to_string(text).unwrap_or_default();
    quoted.get(1..quoted.len().saturating_sub(1)).unwrap_or_default().to_owned()
}

/// One raw line of payload text: code, a log line, prose or a Japanese comment.
fn raw_line(rng: &mut Rng, counter: usize) -> String {
    let a = rng.pick(WORDS);
    let b = rng.pick(WORDS);
    let c = rng.pick(WORDS);
    match rng.below(12) {
        0 => format!("fn {a}_{b}(input: &str) -> Result<{}, Error> {{", capital(c)),
        1 => format!("    let {a}_{counter} = {b}::{c}(&{a}, {counter})?;"),
        2 => format!("    assert_eq!({a}.{b}(), \"{c} {counter}\");"),
        3 => format!("\t{a}: Vec<{}>,", capital(b)),
        4 => format!("    // {}", rng.pick(JAPANESE)),
        5 => format!(
            "2026-11-{:02}T{:02}:{:02}:{:02}Z INFO {a}::{b}: {c} {counter} finished in {}ms",
            rng.range(1, 27),
            rng.range(0, 23),
            rng.range(0, 59),
            rng.range(0, 59),
            rng.range(1, 900)
        ),
        6 => format!("{} {a} {b} the {c} of each {a} before the {b} is sent.", capital(a)),
        7 => format!("  \"{a}_{b}\": {{ \"{c}\": {counter}, \"path\": \"C:\\\\{a}\\\\{b}\" }},"),
        8 => format!("import {{ {a}, {b} }} from \"./{c}\";"),
        9 => format!("def {a}_{b}(self, {c}={counter}):"),
        10 => "}".to_owned(),
        _ => format!("    {a}.{b}({c}_{counter});"),
    }
}

fn capital(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

/// Lines already escaped for a JSON string, to copy out in runs.
pub(crate) struct Corpus {
    text: Vec<u8>,
    /// Byte offset of each line's start.
    starts: Vec<usize>,
}

impl Corpus {
    /// A corpus of `lines` lines escaped `levels` times (2 for JSON text carried inside
    /// a JSON string, as Codex stores tool output).
    pub(crate) fn new(seed: u64, lines: usize, levels: u8) -> Corpus {
        let mut rng = Rng::derive(seed, "corpus");
        let mut text = Vec::new();
        let mut starts = Vec::with_capacity(lines);
        for counter in 0..lines {
            let mut line = raw_line(&mut rng, counter);
            line.push('\n');
            for _ in 0..levels {
                line = json_escape(&line);
            }
            starts.push(text.len());
            text.extend_from_slice(line.as_bytes());
        }
        Corpus { text, starts }
    }

    /// Appends whole lines, starting at a random one and wrapping around, until at least
    /// `target` bytes were added.
    pub(crate) fn push(&self, rng: &mut Rng, target: usize, out: &mut Vec<u8>) {
        let mut at = self.starts[rng.index(self.starts.len())];
        let mut added = 0;
        while added < target {
            let wanted = target - added;
            let end = at.saturating_add(wanted).min(self.text.len());
            // Extend to the end of the line that `end` falls in.
            let end = match self.starts.binary_search(&end) {
                Ok(_) => end,
                Err(next) => self.starts.get(next).copied().unwrap_or(self.text.len()),
            };
            out.extend_from_slice(&self.text[at..end]);
            added += end - at;
            at = if end >= self.text.len() { 0 } else { end };
        }
    }
}

/// Base64-looking noise, for encrypted reasoning and signatures.
pub(crate) struct Noise(Vec<u8>);

impl Noise {
    pub(crate) fn new(seed: u64) -> Noise {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut rng = Rng::derive(seed, "noise");
        Noise((0..64 * 1024).map(|_| ALPHABET[rng.index(ALPHABET.len())]).collect())
    }

    /// Appends `len` characters (at most 64 KiB).
    pub(crate) fn push(&self, rng: &mut Rng, len: usize, out: &mut Vec<u8>) {
        let len = len.min(self.0.len());
        let start = rng.index(self.0.len() - len + 1);
        out.extend_from_slice(&self.0[start..start + len]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_are_valid_json_strings_of_at_least_the_target() {
        for levels in [1, 2] {
            let corpus = Corpus::new(3, 500, levels);
            let mut rng = Rng::derive(3, "test");
            for target in [1, 100, 5_000, 200_000] {
                let mut out = b"\"".to_vec();
                corpus.push(&mut rng, target, &mut out);
                assert!(out.len() > target);
                out.push(b'"');
                let value: String = serde_json::from_slice(&out).expect("valid JSON string");
                if levels == 2 {
                    // Once unescaped it is itself the inside of a JSON string.
                    let inner: String =
                        serde_json::from_str(&format!("\"{value}\"")).expect("valid inner");
                    assert!(inner.ends_with('\n'));
                }
            }
        }
    }
}
