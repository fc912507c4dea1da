//! Renders a `Report` as Markdown, in English or Japanese, or as JSON.
//!
//! Owns every word a person reads in a report: headings, labels, dates with weekday
//! names, number formats, and the escaping that keeps untrusted text (commit subjects,
//! session titles, commands, folder names) from reshaping the Markdown. Never does I/O,
//! never touches the network and never reads the clock: the caller passes the time
//! zone the report was made in.

mod json;
mod labels;
mod markdown;

pub use json::json;
pub use markdown::markdown;
pub use report_model::Lang;
