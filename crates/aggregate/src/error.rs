//! Errors of the calendar.

use jiff::civil::Date;

/// What can go wrong when computing windows.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// No day of the week is a working day.
    #[error("no working day is configured (`workdays` is empty)")]
    NoWorkdays,
    /// Every day in the year before the date is a holiday or a non-working day.
    #[error("no working day in the year before {date}")]
    NoPreviousWorkday {
        /// The report's date.
        date: Date,
    },
    /// A range whose end lies before its start.
    #[error("the range ends ({until}) before it starts ({since})")]
    EmptyRange {
        /// First day.
        since: Date,
        /// Last day.
        until: Date,
    },
    /// A range longer than the limit.
    #[error("the range {since} to {until} is longer than {max} days")]
    RangeTooLong {
        /// First day.
        since: Date,
        /// Last day.
        until: Date,
        /// The limit.
        max: i32,
    },
    /// The date is outside the range the time zone arithmetic supports.
    #[error("date {date} is out of range")]
    OutOfRange {
        /// The date.
        date: Date,
        /// What jiff said.
        #[source]
        source: jiff::Error,
    },
}
