//! A team's day: every member's published report of one date (`standup team`).

use jiff::{Timestamp, civil::Date};
use serde::{Deserialize, Serialize};

use crate::report::Report;
use crate::warning::Warning;

/// Version of the JSON form of [`TeamDay`]. Bumped on any incompatible change.
pub const TEAM_SCHEMA_VERSION: u32 = 1;

/// Every member's published day of one date, in member order (by name).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TeamDay {
    /// Version of this JSON form.
    pub schema_version: u32,
    /// The date.
    pub date: Date,
    /// The members who published that day, sorted by name.
    pub members: Vec<Member>,
    /// Entries that could not be read (each names its file); the others are there.
    pub warnings: Vec<Warning>,
    /// When the page was made.
    pub generated_at: Timestamp,
    /// The time zone times are shown in.
    pub time_zone: String,
}

/// One member's published day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Member {
    /// The member's name (the ledger folder's).
    pub name: String,
    /// What they published: already filtered by their `[publish]` and redacted on their
    /// machine.
    pub report: Report,
}
