//! `[render] template`: the report rendered through a user's MiniJinja template, for
//! company forms (a 日報 with 本日の作業 / 明日の予定 / 所感).
//!
//! The context is the JSON `Report` (already sanitized and redacted), so a template sees
//! exactly what `--format json` prints. Untrusted text is escaped by the file's kind:
//! `*.md.j2` escapes every `{{ … }}` for Markdown, `*.slack.j2` for Slack mrkdwn and
//! `*.html.j2` for HTML; other names print values as they are. The filters `md`,
//! `slack` and `html` escape explicitly (their result is not escaped twice).

use std::path::Path;

use minijinja::{AutoEscape, Environment, Error, UndefinedBehavior, Value};
use report_model::Report;

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
}

/// Renders `report` through the template at `path`.
pub(crate) fn render(path: &Path, report: &Report) -> Result<String, TemplateError> {
    let source = fs_err::read_to_string(path)
        .map_err(|source| TemplateError::Read { path: path.to_path_buf(), source })?;
    let name = path.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    render_source(&name, &source, report).map_err(|error| TemplateError::Render {
        path: path.to_path_buf(),
        position: position(&source, &error),
        message: message(&error),
    })
}

fn render_source(name: &str, source: &str, report: &Report) -> Result<String, Error> {
    let mut env = Environment::new();
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
    template.render(Value::from_serialize(report))
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
