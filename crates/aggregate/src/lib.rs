//! Turns events and time windows into a `Report`: which window each event falls in,
//! projects with their commits and sessions, shell commands grouped by head, totals.
//!
//! Owns the calendar (local days, `day_start`, working days and holidays) and every
//! ordering rule, so the same events give a byte-identical report. Never does I/O,
//! never reads the clock (the caller passes "now") and never formats text for people.

mod blockers;
mod error;
mod group;
pub mod holidays;
mod merge;
mod names;
mod outlook;
mod shell;
mod tickets;
mod time;
mod windows;

pub use blockers::FAILURES_MIN;
pub use error::Error;
pub use group::{NEXT_STEPS_MAX, Options, aggregate};
pub use merge::{MachineReport, fold_clones, merge, retotal, union as union_time};
pub use shell::{DEFAULT_IGNORE, DEFAULT_TWO_WORD, ShellGrouping, head};
pub use tickets::{DEFAULT_PATTERNS as DEFAULT_TICKET_PATTERNS, TicketRules};
pub use time::{TimeRules, time_spent};
pub use windows::{
    Calendar, MAX_RANGE_DAYS, end_at, range_windows, report_windows, settle, through, today,
};
