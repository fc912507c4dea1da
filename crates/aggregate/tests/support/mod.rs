//! What the aggregate tests share: times, windows, projects and the report's meta.
#![allow(dead_code, reason = "each test binary uses its own part of the helpers")]

use std::path::PathBuf;

use jiff::Timestamp;
use report_model::{BucketKind, Meta, ProjectRef, Window};

pub(crate) fn ts(text: &str) -> Timestamp {
    text.parse().expect("test timestamp")
}

pub(crate) fn window(date: &str, start: &str, end: &str) -> Window {
    Window { date: date.parse().expect("date"), start: ts(start), end: ts(end) }
}

/// A standup's two windows: Friday 2026-03-06 and Monday 2026-03-09 (UTC).
pub(crate) fn standup_windows() -> Vec<(BucketKind, Window)> {
    vec![
        (
            BucketKind::PreviousWorkday,
            window("2026-03-06", "2026-03-06T00:00:00Z", "2026-03-09T00:00:00Z"),
        ),
        (BucketKind::Today, window("2026-03-09", "2026-03-09T00:00:00Z", "2026-03-09T09:00:00Z")),
    ]
}

pub(crate) fn project(name: &str) -> ProjectRef {
    ProjectRef { name: name.to_owned(), path: PathBuf::from(format!("/src/{name}")) }
}

/// The meta of a report generated on Monday 2026-03-09 09:00 UTC.
pub(crate) fn meta() -> Meta {
    Meta {
        machines: Vec::new(),
        version: "test".to_owned(),
        generated_at: ts("2026-03-09T09:00:00Z"),
        time_zone: "UTC".to_owned(),
        llm_model: None,
        secrets_masked: Vec::new(),
    }
}
