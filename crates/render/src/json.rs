//! The JSON form: the `Report` itself, which carries its `schema_version`.

use report_model::Report;

/// The report as pretty-printed JSON with a trailing newline. Field order is the
/// struct order, so the same report gives byte-identical text. Each warning's `message`
/// is its English text, worded here.
pub fn json(report: &Report) -> String {
    // Serializing plain structs with string keys cannot fail.
    let report = crate::warnings::with_messages(report);
    let mut text = serde_json::to_string_pretty(&report).unwrap_or_default();
    text.push('\n');
    text
}
