//! What a report adds around the activity, looking forward: the person's own notes
//! (`standup note`), the plans and blockers they carry into the next standup with where
//! each stands, the work left open per project, and the ticket keys the work names.

use std::path::PathBuf;

use jiff::{Timestamp, civil::Date};
use serde::{Deserialize, Serialize};

use crate::event::{Agent, is_false, is_zero};
use crate::report::Evidence;

/// What kind of note the person wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum NoteKind {
    /// A plain note (`standup note "…"`).
    Note,
    /// A plan for the next working day (`standup note --plan "…"`).
    Plan,
    /// Something that blocks the work (`standup note --blocker "…"`).
    Blocker,
}

/// One note the person added for a day (`standup note`): their own words, shown as
/// written but sanitized and redacted like every string.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Note {
    /// The day the note belongs to.
    pub date: Date,
    /// Its number in that day's notes, from 1 (what `standup note --done N` names).
    pub number: u32,
    /// Note, plan or blocker.
    pub kind: NoteKind,
    /// What the person wrote (cleaned and redacted, one line).
    pub text: String,
    /// When it was added.
    pub time: Timestamp,
    /// Whether the person closed it (`standup note --done N`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub done: bool,
}

/// Where a carried plan or blocker stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FollowUpStatus {
    /// Nothing shows it done.
    Open,
    /// Work after the note mentions it (a commit subject or a session title): see the
    /// evidence.
    Done,
    /// The person closed it (`standup note --done N`).
    Closed,
}

/// A plan or blocker of an earlier day carried into this report, with where it stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FollowUp {
    /// The note.
    pub note: Note,
    /// Open, done (by the evidence) or closed (by the person).
    pub status: FollowUpStatus,
    /// For `done`: the commits and sessions after the note that mention it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<Evidence>,
}

/// The work a project has left open at the end of the report: what is not committed,
/// stashed, or not pushed, over all of the report's days.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct OpenWork {
    /// The project's name.
    pub name: String,
    /// What tells the project apart from another of the same name (as
    /// `Project::qualifier`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qualifier: Option<String>,
    /// The project's path (the key of its `Project` in the buckets).
    pub path: PathBuf,
    /// Files not committed, modified during the report's days.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub uncommitted_files: u64,
    /// Stashes made during the report's days.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub stashes: u64,
    /// The report's commits that no remote-tracking branch contains.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unpushed: Vec<String>,
    /// The local branches holding those commits, sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub branches: Vec<String>,
    /// The project's local branches with commits not pushed, whenever they were made
    /// (read at report time), by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ahead: Vec<crate::AheadBranch>,
    /// A rebase, merge, cherry-pick or revert stopped midway at report time, whenever it
    /// stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<crate::Stopped>,
}

/// A ticket key found in the work (a branch name, a commit subject, a session title),
/// with where it was seen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Ticket {
    /// The key as written (`ABC-123`, `#123`, `GH-12`).
    pub key: String,
    /// Its link, from `[tickets] url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The commits that name it (in their subject or one of their branches), by hash.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commits: Vec<String>,
    /// The sessions that name it (in their title or branch), by agent and id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sessions: Vec<TicketSession>,
}

/// A session that names a ticket.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TicketSession {
    /// The agent.
    pub agent: Agent,
    /// The agent's session id.
    pub session_id: String,
}

/// What looks forward, beside the activity: notes, carried plans and blockers, open work
/// and tickets. Empty in a report with none of them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Outlook {
    /// The notes of the report's days, by date then number (shown in the bucket of their
    /// day).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
    /// A standup: the plans and blockers noted on the previous working day (and the days
    /// off since), with where each stands now. A week: the plans and blockers of its days
    /// still open at its end.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub follow_up: Vec<FollowUp>,
    /// Work left open, per project with any, in the order of the projects' last
    /// appearance.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub open_work: Vec<OpenWork>,
    /// Ticket keys found, sorted by key.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tickets: Vec<Ticket>,
    /// Whether each project's work is grouped by ticket (`group_by = "ticket"`).
    #[serde(default, skip_serializing_if = "is_false")]
    pub group_by_ticket: bool,
}

impl Outlook {
    /// Whether there is nothing to show.
    pub fn is_empty(&self) -> bool {
        self.notes.is_empty()
            && self.follow_up.is_empty()
            && self.open_work.is_empty()
            && self.tickets.is_empty()
    }

    /// The tickets a commit names, by hash.
    pub fn commit_tickets<'a>(&'a self, hash: &'a str) -> impl Iterator<Item = &'a Ticket> + 'a {
        self.tickets.iter().filter(move |ticket| ticket.commits.iter().any(|h| h == hash))
    }

    /// The tickets a session names.
    pub fn session_tickets<'a>(
        &'a self,
        agent: Agent,
        session_id: &'a str,
    ) -> impl Iterator<Item = &'a Ticket> + 'a {
        self.tickets.iter().filter(move |ticket| {
            ticket.sessions.iter().any(|s| s.agent == agent && s.session_id == session_id)
        })
    }
}

/// Whether an [`Outlook`] is empty (serde's `skip_serializing_if`).
pub(crate) fn outlook_is_empty(outlook: &Outlook) -> bool {
    outlook.is_empty() && !outlook.group_by_ticket
}
