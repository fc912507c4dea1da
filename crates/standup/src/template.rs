//! `[render] template`: the report rendered through a user's MiniJinja template, for
//! company forms (a 日報 with 本日の作業 / 明日の予定 / 所感).
//!
//! The context is the JSON `Report` (already sanitized and redacted), so a template sees
//! exactly what `--format json` prints. Untrusted text is escaped by the file's kind:
//! `*.md.j2` escapes every `{{ … }}` for Markdown, `*.slack.j2` for Slack mrkdwn and
//! `*.html.j2` for HTML; other names print values as they are. The filters `md`,
//! `slack` and `html` escape explicitly (their result is not escaped twice).
//!
//! A template is a program, and a user's file can be a hostile one (a string doubled 34
//! times, nested loops that never end, an expression 50,000 terms deep). So it is
//! bounded:
//! - the file: a regular file of at most [`TEMPLATE_MAX_BYTES`], opened without
//!   blocking (a FIFO or `/dev/zero` is refused at once);
//! - the work: MiniJinja's fuel ([`FUEL`] instructions) and its recursion limit;
//! - the output: at most [`OUTPUT_MAX_BYTES`];
//! - everything else (memory, stack, time): the template renders in a copy of the
//!   binary (`standup __template`, not part of the CLI) whose address space is capped at
//!   [`MEMORY_MAX_BYTES`], which the parent stops after [`TIME_MAX`].
//!
//! Each failure exits 2 naming the template and the limit it hit.

use std::path::Path;
use std::time::Duration;

use minijinja::{AutoEscape, Environment, Error, UndefinedBehavior, Value};
use report_model::Report;
use serde::{Deserialize, Serialize};

/// The first argument that makes the binary the template renderer.
pub(crate) const HELPER_ARG: &str = "__template";

/// The largest template file read.
pub(crate) const TEMPLATE_MAX_BYTES: u64 = 1 << 20;
/// The largest output a template may write.
pub(crate) const OUTPUT_MAX_BYTES: usize = 16 << 20;
/// MiniJinja instructions a template may run: a report of a thousand commits needs some
/// tens of thousands; a debug build runs five million in about a second.
pub(crate) const FUEL: u64 = 5_000_000;
/// The address space of the rendering process.
pub(crate) const MEMORY_MAX_BYTES: u64 = 1 << 30;
/// How long a template may render.
pub(crate) const TIME_MAX: Duration = Duration::from_secs(10);

/// Why a template could not render: the file, line and column, and MiniJinja's reason.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TemplateError {
    #[error("cannot read template `{}`", .path.display())]
    Read {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("template `{}` {position}: {message}", .path.display())]
    Render { path: std::path::PathBuf, position: String, message: String },
    #[error("template `{}` was stopped: {limit}", .path.display())]
    Limit { path: std::path::PathBuf, limit: String },
}

/// What the parent hands the rendering process on its stdin.
#[derive(Serialize, Deserialize)]
struct Job {
    name: String,
    source: String,
    report: Report,
}

/// Reads the template at `path`: a regular file of at most [`TEMPLATE_MAX_BYTES`],
/// opened without blocking.
fn read_template(path: &Path) -> Result<String, TemplateError> {
    use std::io::Read as _;

    use fs_err::os::unix::fs::OpenOptionsExt as _;
    let failed = |source: std::io::Error| TemplateError::Read { path: path.to_path_buf(), source };
    let file = fs_err::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(failed)?;
    let metadata = file.metadata().map_err(failed)?;
    if !metadata.is_file() {
        return Err(failed(std::io::Error::other(
            "it is not a regular file (a FIFO, a device or a folder)",
        )));
    }
    if metadata.len() > TEMPLATE_MAX_BYTES {
        return Err(failed(std::io::Error::other(format!(
            "it is larger than {} KiB, which no template is",
            TEMPLATE_MAX_BYTES >> 10
        ))));
    }
    let mut source = String::new();
    file.take(TEMPLATE_MAX_BYTES).read_to_string(&mut source).map_err(failed)?;
    Ok(source)
}

/// Renders `report` through the template at `path`, in a bounded process of its own.
pub(crate) fn render(path: &Path, report: &Report) -> Result<String, TemplateError> {
    let source = read_template(path)?;
    let name = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let job = Job { name, source, report: render::with_messages(report) };
    run_bounded(path, &job)
}

/// Runs the job in `standup __template` under the limits, and reads its answer: the
/// text (exit 0), MiniJinja's error (exit 2, its message on stderr), or the limit that
/// stopped it.
fn run_bounded(path: &Path, job: &Job) -> Result<String, TemplateError> {
    use std::io::{Read as _, Write as _};
    use std::process::Stdio;
    let limit = |limit: String| TemplateError::Limit { path: path.to_path_buf(), limit };
    let input = serde_json::to_vec(job).map_err(|error| limit(error.to_string()))?;
    let exe = std::env::current_exe().map_err(|error| limit(error.to_string()))?;
    #[expect(clippy::disallowed_methods, reason = "the binary runs a copy of itself, not git")]
    let mut child = std::process::Command::new(exe)
        .arg(HELPER_ARG)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| limit(format!("the renderer could not be started: {error}")))?;
    let mut stdin = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let Some(stdin) = stdin.as_mut() {
            let _ = stdin.write_all(&input);
        }
    });
    let mut stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(stdout) = stdout.as_mut() {
            let _ = stdout.take(OUTPUT_MAX_BYTES as u64 + 1).read_to_end(&mut out);
        }
        out
    });
    let mut stderr = child.stderr.take();
    let error_reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(stderr) = stderr.as_mut() {
            let _ = stderr.take(64 << 10).read_to_end(&mut out);
        }
        out
    });
    let started = std::time::Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() >= TIME_MAX => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(limit(format!("it ran longer than {} s", TIME_MAX.as_secs())));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(error) => return Err(limit(error.to_string())),
        }
    };
    let _ = writer.join();
    let out = reader.join().unwrap_or_default();
    let err = String::from_utf8_lossy(&error_reader.join().unwrap_or_default()).into_owned();
    if status.success() {
        return String::from_utf8(out).map_err(|_| limit("its output is not UTF-8".to_owned()));
    }
    if status.code() == Some(2) {
        // MiniJinja's error, already worded by the renderer.
        let message = err.trim().to_owned();
        return Err(TemplateError::Render {
            path: path.to_path_buf(),
            position: message.split_once(": ").map_or_else(String::new, |(at, _)| at.to_owned()),
            message: message.split_once(": ").map_or(message.clone(), |(_, rest)| rest.to_owned()),
        });
    }
    let why = if err.contains("memory allocation") || err.contains("capacity overflow") {
        format!("it needed more than {} MiB of memory", MEMORY_MAX_BYTES >> 20)
    } else if err.contains("overflowed its stack") {
        "it nests too deeply (the renderer's stack overflowed)".to_owned()
    } else {
        format!("the renderer failed ({status})")
    };
    Err(limit(why))
}

/// `standup __template`: reads a [`Job`] on stdin, caps its own address space, renders,
/// and writes the text on stdout (exit 0) or `<position>: <reason>` on stderr (exit 2).
pub(crate) fn serve() -> u8 {
    use std::io::{Read as _, Write as _};
    let cap = rustix::process::Rlimit {
        current: Some(MEMORY_MAX_BYTES),
        maximum: Some(MEMORY_MAX_BYTES),
    };
    let _ = rustix::process::setrlimit(rustix::process::Resource::As, cap);
    let mut input = Vec::new();
    if std::io::stdin().read_to_end(&mut input).is_err() {
        return 1;
    }
    let Ok(job) = serde_json::from_slice::<Job>(&input) else { return 1 };
    drop(input);
    let mut out = Capped { bytes: Vec::new(), over: false };
    match render_source(&job.name, &job.source, &job.report, &mut out) {
        Ok(()) => {
            let _ = std::io::stdout().write_all(&out.bytes);
            0
        }
        Err(error) => {
            let reason = if out.over {
                format!("its output is larger than {} MiB", OUTPUT_MAX_BYTES >> 20)
            } else {
                message(&error)
            };
            let _ = writeln!(std::io::stderr(), "{}: {reason}", position(&job.source, &error));
            2
        }
    }
}

/// The output, refused past [`OUTPUT_MAX_BYTES`] (which stops the rendering).
struct Capped {
    bytes: Vec<u8>,
    over: bool,
}

impl std::io::Write for Capped {
    fn write(&mut self, part: &[u8]) -> std::io::Result<usize> {
        if self.bytes.len() + part.len() > OUTPUT_MAX_BYTES {
            self.over = true;
            return Err(std::io::Error::other("output too large"));
        }
        self.bytes.extend_from_slice(part);
        Ok(part.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn render_source(name: &str, source: &str, report: &Report, out: &mut Capped) -> Result<(), Error> {
    let mut env = Environment::new();
    env.set_fuel(Some(FUEL));
    // Block tags on lines of their own leave no blank lines behind (a form is lines).
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    // A misspelt field is an error naming its line, not an empty string in the report.
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_auto_escape_callback(|name| {
        let lower = name.to_ascii_lowercase();
        let stem =
            lower.strip_suffix(".j2").or_else(|| lower.strip_suffix(".jinja")).unwrap_or(&lower);
        match Path::new(stem).extension().and_then(|ext| ext.to_str()) {
            Some("md" | "markdown") => AutoEscape::Custom("md"),
            Some("slack") => AutoEscape::Custom("slack"),
            Some("html" | "htm") => AutoEscape::Html,
            _ => AutoEscape::None,
        }
    });
    env.set_formatter(|out, state, value| {
        let escape: fn(&str) -> String = match state.auto_escape() {
            AutoEscape::Custom("md") => render::escape_markdown,
            AutoEscape::Custom("slack") => render::escape_slack,
            _ => return minijinja::escape_formatter(out, state, value),
        };
        let text = if value.is_none() { String::new() } else { value.to_string() };
        let text = if value.is_safe() { text } else { escape(&text) };
        out.write_str(&text).map_err(Error::from)
    });
    env.add_filter("md", |value: Value| safe(&value, render::escape_markdown));
    env.add_filter("slack", |value: Value| safe(&value, render::escape_slack));
    env.add_filter("html", |value: Value| safe(&value, render::escape_html));
    env.add_template(name, source)?;
    let template = env.get_template(name)?;
    template.render_captured_to(Value::from_serialize(report), out).map(|_| ())
}

fn safe(value: &Value, escape: fn(&str) -> String) -> Value {
    let text = if value.is_none() { String::new() } else { value.to_string() };
    Value::from_safe_string(escape(&text))
}

/// `line 3, column 7`, from the error's byte range in the source (or its line alone).
fn position(source: &str, error: &Error) -> String {
    if let Some(range) = error.range() {
        let before = source.get(..range.start).unwrap_or(source);
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or_default().chars().count() + 1;
        return format!("line {line}, column {column}");
    }
    match error.line() {
        Some(line) => format!("line {line}"),
        None => "(no position)".to_owned(),
    }
}

/// MiniJinja's reason, without its own "(in name:line)" suffix.
fn message(error: &Error) -> String {
    let mut text = error.kind().to_string();
    if let Some(detail) = error.detail() {
        text.push_str(": ");
        text.push_str(detail);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_counts_characters_from_the_line_start() {
        // The error is at the `}}` that ends the call too early.
        let source = "本日\n  {{ nope( }}\n";
        let error = Environment::new().template_from_str(source).unwrap_err();
        assert_eq!(position(source, &error), "line 2, column 12");
    }
}
