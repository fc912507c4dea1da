//! Renders a `Report` as Markdown (English or Japanese), Slack mrkdwn, plain text, an
//! HTML fragment, JSON, or through a user's MiniJinja template.
//!
//! Owns every word a person reads in a report: headings, labels, dates with weekday
//! names, number formats, and the escaping that keeps untrusted text (commit subjects,
//! session titles, commands, folder names) from reshaping the output in any format.
//! Never does I/O, never touches the network and never reads the clock: the caller
//! passes the time zone the report was made in.

mod doc;
mod html;
mod json;
mod labels;
mod markdown;
mod slack;
mod team;
mod text;
mod warnings;

pub use json::json;
pub use markdown::markdown;
pub use report_model::Lang;
pub use team::team;

use jiff::tz::TimeZone;
use report_model::Report;

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// CommonMark.
    Markdown,
    /// Slack mrkdwn.
    Slack,
    /// Plain text without markup.
    Text,
    /// An HTML fragment for rich-text paste.
    Html,
    /// The `Report` as JSON.
    Json,
}

/// How to render.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The language of every word the report adds.
    pub lang: Lang,
    /// The body only: no Window lines, no Totals, no warnings, no footer (JSON ignores
    /// it: the `Report` is always whole).
    pub compact: bool,
}

/// The report in `format`, with times shown in `time_zone`.
///
/// The slack, text and html forms are written from the Markdown read back as blocks,
/// so every format shows the same sections in the same order.
pub fn render(report: &Report, format: Format, options: Options, time_zone: &TimeZone) -> String {
    let markdown = || markdown::document(report, options.lang, time_zone, options.compact);
    match format {
        Format::Markdown => markdown(),
        Format::Json => json(report),
        Format::Slack => slack::write(&doc::parse(&markdown())),
        Format::Text => text::write(&doc::parse(&markdown())),
        Format::Html => html::write(&doc::parse(&markdown())),
    }
}

/// A warning's human text in `lang`, worded from its typed detail (prefixed with
/// `[machine]` for a warning another machine reported).
pub fn warning_text(warning: &report_model::Warning, lang: Lang) -> String {
    warnings::text(warning, lang)
}

/// Orders warnings as the report lists them: by code, then by their English text (then
/// by detail); a stable sort, so warnings already de-duplicated by detail keep their
/// order among equals.
pub fn order_warnings(warnings: &mut [report_model::Warning]) {
    warnings.sort_by_cached_key(|warning| (warning.code(), warnings::text(warning, Lang::En)));
}

/// The report with each warning's `message` (its English text) written, as its JSON
/// form carries it: for serializing a report other than through [`json()`] (a template's
/// context).
pub fn with_messages(report: &Report) -> Report {
    warnings::with_messages(report)
}

/// Escapes text for running Markdown (`sanitize::markdown::escape_text`).
pub fn escape_markdown(text: &str) -> String {
    sanitize::markdown::escape_text(text)
}

/// Escapes text for Slack mrkdwn: `&`, `<` and `>` become entities.
pub fn escape_slack(text: &str) -> String {
    slack::escape(text)
}

/// Escapes text for HTML content and quoted attributes.
pub fn escape_html(text: &str) -> String {
    html::escape(text)
}
