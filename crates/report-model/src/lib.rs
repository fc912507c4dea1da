//! The data types of `standup`: the events that sources produce, the `Report` that
//! aggregation builds from them, warnings, the narrative and generation metadata.
//!
//! Owns these plain types and their serde form (the JSON that other tools read).
//! Never does I/O, never reads a clock and never formats text for people (but for the
//! one English count wording, [`plural`], shared by every warning): that is `collect`'s,
//! the binary's and `render`'s job.

mod event;
mod kinds;
mod outlook;
mod report;
mod team;
mod warning;

pub use event::{
    Activity, Agent, AheadBranch, CommitEvent, FAILED_COMMANDS_MAX, FAILED_RUNS_MAX, FailedCommand,
    FailedRun, Operation, ProjectRef, SessionEvent, Shell, ShellEvent, Stopped, TODOS_MAX, Todo,
    TodoStatus, WipEvent, WipFile, WipStash,
};
pub use kinds::{Lang, MaskedSource, Source, UnknownName, group_thousands, plural};
pub use outlook::{
    FollowUp, FollowUpStatus, Note, NoteKind, OpenWork, Outlook, Ticket, TicketSession,
};
pub use report::{
    Blocker, BlockerKind, Bucket, BucketKind, Commit, Evidence, MaskedCount, Meta, Narrative,
    NextStep, Project, Report, ReportKind, SCHEMA_VERSION, Session, ShellGroup, Span, TimeSpent,
    Totals, WarningCode, Window, Wip,
};
pub use report::{CheckedBlocker, CheckedSentence, NarrativeCheck};
pub use team::{Member, TEAM_SCHEMA_VERSION, TeamDay};
pub use warning::{FileKind, LlmCause, Rejection, Warning, WarningDetail};
