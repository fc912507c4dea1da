//! Events: what the sources saw, before aggregation.

use std::path::PathBuf;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::report::Commit;

/// The project an event belongs to: a repository (worktrees folded into it) or, for a
/// working directory outside any repository, that directory.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ProjectRef {
    /// Display name: the folder name of the repository's main work tree.
    pub name: String,
    /// Absolute path of the repository's main work tree (or of the folder).
    pub path: PathBuf,
}

/// One commit authored by the user: the report's [`Commit`] plus the repository it was
/// found in. Aggregation moves `commit` into the report as it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CommitEvent {
    /// The repository the commit was found in.
    pub project: ProjectRef,
    /// The commit (its subject is untrusted text; it is placed by its author date).
    #[serde(flatten)]
    pub commit: Commit,
}

/// The AI coding agent a session belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Agent {
    /// Anthropic's Claude Code.
    ClaudeCode,
    /// OpenAI's Codex CLI.
    Codex,
    /// Google's Gemini CLI.
    Gemini,
    /// GitHub Copilot CLI.
    Copilot,
    /// opencode (sst).
    Opencode,
    /// pi, the coding agent (`pi-coding-agent`).
    Pi,
    /// Alibaba's Qwen Code.
    Qwen,
    /// Cursor: its CLI agent and its editor's composer.
    Cursor,
    /// Sourcegraph's Amp.
    Amp,
    /// Aider.
    Aider,
    /// Factory's Droid.
    Droid,
    /// Cline's CLI.
    Cline,
    /// Kilo Code's CLI (an opencode fork).
    Kilo,
    /// Continue: its CLI `cn` and its editor extensions.
    Continue,
    /// Roo Code's VS Code extension.
    Roo,
    /// VS Code's own Chat (GitHub Copilot Chat, agent mode).
    VsCode,
    /// Goose (its CLI, desktop app and terminal integration share one database).
    Goose,
    /// gptme, the terminal agent.
    Gptme,
    /// Kimi Code CLI, Moonshot AI's terminal agent.
    Kimi,
    /// Mistral Vibe, Mistral AI's terminal agent.
    Vibe,
    /// The OpenHands CLI, All Hands AI's terminal agent.
    #[serde(rename = "openhands")]
    OpenHands,
    /// Hermes Agent, Nous Research's agent.
    Hermes,
    /// OpenClaw, the personal agent of the chat channels and the terminal.
    #[serde(rename = "openclaw")]
    OpenClaw,
    /// Command Code, the terminal agent that learns one's coding taste.
    #[serde(rename = "commandcode")]
    CommandCode,
}

impl Agent {
    /// Every agent, in the order they are read and reported.
    pub const ALL: [Agent; 24] = [
        Agent::ClaudeCode,
        Agent::Codex,
        Agent::Gemini,
        Agent::Copilot,
        Agent::Opencode,
        Agent::Pi,
        Agent::Qwen,
        Agent::Cursor,
        Agent::Amp,
        Agent::Aider,
        Agent::Droid,
        Agent::Cline,
        Agent::Kilo,
        Agent::Continue,
        Agent::Roo,
        Agent::VsCode,
        Agent::Goose,
        Agent::Gptme,
        Agent::Kimi,
        Agent::Vibe,
        Agent::OpenHands,
        Agent::Hermes,
        Agent::OpenClaw,
        Agent::CommandCode,
    ];

    /// The agent's product name, as people write it.
    pub fn display_name(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "Claude Code",
            Agent::Codex => "Codex",
            Agent::Gemini => "Gemini",
            Agent::Copilot => "Copilot",
            Agent::Opencode => "opencode",
            Agent::Pi => "pi",
            Agent::Qwen => "Qwen Code",
            Agent::Cursor => "Cursor",
            Agent::Amp => "Amp",
            Agent::Aider => "Aider",
            Agent::Droid => "Droid",
            Agent::Cline => "Cline",
            Agent::Kilo => "Kilo Code",
            Agent::Continue => "Continue",
            Agent::Roo => "Roo Code",
            Agent::VsCode => "VS Code Chat",
            Agent::Goose => "Goose",
            Agent::Gptme => "gptme",
            Agent::Kimi => "Kimi Code",
            Agent::Vibe => "Mistral Vibe",
            Agent::OpenHands => "OpenHands",
            Agent::Hermes => "Hermes Agent",
            Agent::OpenClaw => "OpenClaw",
            Agent::CommandCode => "Command Code",
        }
    }

    /// The short name of the config's `[sessions] agents` and of `doctor`: `claude`,
    /// `codex`, `gemini`, `copilot`, `opencode`, `pi`, `qwen`, `cursor`, `amp`, `aider`,
    /// `droid`, `cline`, `kilo`, `continue`, `roo`, `vscode`, `goose`,
    /// `gptme`, `kimi`, `vibe`, `openhands`, `hermes`, `openclaw`, `commandcode`.
    pub fn config_name(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "claude",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Copilot => "copilot",
            Agent::Opencode => "opencode",
            Agent::Pi => "pi",
            Agent::Qwen => "qwen",
            Agent::Cursor => "cursor",
            Agent::Amp => "amp",
            Agent::Aider => "aider",
            Agent::Droid => "droid",
            Agent::Cline => "cline",
            Agent::Kilo => "kilo",
            Agent::Continue => "continue",
            Agent::Roo => "roo",
            Agent::VsCode => "vscode",
            Agent::Goose => "goose",
            Agent::Gptme => "gptme",
            Agent::Kimi => "kimi",
            Agent::Vibe => "vibe",
            Agent::OpenHands => "openhands",
            Agent::Hermes => "hermes",
            Agent::OpenClaw => "openclaw",
            Agent::CommandCode => "commandcode",
        }
    }
}

impl std::str::FromStr for Agent {
    type Err = crate::UnknownName;

    /// The short name ([`Agent::config_name`]), exactly.
    fn from_str(text: &str) -> Result<Agent, crate::UnknownName> {
        Agent::ALL.into_iter().find(|agent| agent.config_name() == text).ok_or(crate::UnknownName)
    }
}

/// One AI coding-agent session, with the times of its user prompts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SessionEvent {
    /// Which agent wrote the session.
    pub agent: Agent,
    /// The agent's session id.
    pub session_id: String,
    /// Title: the agent's own summary when present, else the first user prompt, shortened.
    pub title: String,
    /// Whether `title` was shortened by the length cap.
    #[serde(default, skip_serializing_if = "is_false")]
    pub truncated: bool,
    /// The session's working directory, when the log names one.
    pub cwd: Option<PathBuf>,
    /// The project the working directory resolved to (set by the join step).
    pub project: Option<ProjectRef>,
    /// The times of the user's prompts, sorted ascending.
    pub prompts: Vec<Timestamp>,
    /// The times of every record the session has since the earliest window began, sorted
    /// ascending: a session counts for a window when it has a record in it.
    pub activity: Vec<Timestamp>,
    /// The models the agent answered with (Claude Code's `message.model`, Codex's
    /// `turn_context.model`), each once, in the order first used; empty when the log
    /// names none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub models: Vec<String>,
    /// The git branch the agent recorded for the session (Codex `git.branch`, Claude
    /// Code `gitBranch`; the last one seen), when it recorded one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// The session's newest to-do list or plan (the last tool call that wrote one:
    /// Claude Code's `TodoWrite`, Codex's `update_plan`), every item with its status, in
    /// the agent's order; capped at [`TODOS_MAX`] items. Empty when the session wrote
    /// none, or when its newest list was empty (then `todos_time` is set).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub todos: Vec<Todo>,
    /// When the newest list was written, when the session wrote one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub todos_time: Option<Timestamp>,
    /// When the person last interrupted the agent (Claude Code's `[Request interrupted by
    /// user]`), when no prompt came after it: the session was left there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<Timestamp>,
    /// The shell commands the agent ran through its shell tool in the main chain (not
    /// sub-agents) whose last runs in the session failed with no passing run after (a
    /// passing run of the same command line clears it), in order of their last failure;
    /// at most [`FAILED_COMMANDS_MAX`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed_commands: Vec<FailedCommand>,
}

/// The most items of one to-do list a session keeps.
pub const TODOS_MAX: usize = 20;

/// The most failed commands one session keeps (the latest ones).
pub const FAILED_COMMANDS_MAX: usize = 10;

/// A shell command an agent ran that failed, and has not passed since in its session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FailedCommand {
    /// The command line (untrusted: cleaned, redacted and shortened like a title).
    pub command: String,
    /// Its failed runs since its last passing one, oldest first (the latest
    /// [`FAILED_RUNS_MAX`]).
    pub runs: Vec<FailedRun>,
    /// Whether its last failed run was the last command the agent ran in the session.
    #[serde(default, skip_serializing_if = "is_false")]
    pub last: bool,
}

/// The most failed runs of one command a session keeps (the latest ones).
pub const FAILED_RUNS_MAX: usize = 20;

/// One failed run of an agent's shell command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct FailedRun {
    /// When it finished (the tool result's time).
    pub time: Timestamp,
    /// Its exit status.
    pub exit: i64,
}

/// One item of an agent's to-do list or plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Todo {
    /// What is to be done (untrusted text: cleaned, redacted and shortened like a title).
    pub text: String,
    /// Where it stands.
    pub status: TodoStatus,
}

/// Where an item of a to-do list stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TodoStatus {
    /// Not started.
    Pending,
    /// Being worked on.
    InProgress,
    /// Done.
    Completed,
    /// Given up (Gemini CLI and opencode write it).
    Cancelled,
}

impl TodoStatus {
    /// The status an agent wrote (`pending`, `in_progress`, `completed`, `cancelled`; also
    /// `done` and `in-progress`), or `None` for any other word.
    pub fn parse(text: &str) -> Option<TodoStatus> {
        match text {
            "pending" | "todo" => Some(TodoStatus::Pending),
            "in_progress" | "in-progress" | "inProgress" => Some(TodoStatus::InProgress),
            "completed" | "done" => Some(TodoStatus::Completed),
            "cancelled" | "canceled" => Some(TodoStatus::Cancelled),
            _ => None,
        }
    }

    /// Whether the item is still to be done (pending or in progress).
    pub fn is_open(self) -> bool {
        matches!(self, TodoStatus::Pending | TodoStatus::InProgress)
    }
}

/// The shell a history entry came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Shell {
    /// zsh's history file.
    Zsh,
    /// bash's history file.
    Bash,
    /// fish's history file.
    Fish,
    /// atuin's SQLite database.
    Atuin,
}

impl Shell {
    /// The shell's name, as people write it.
    pub fn display_name(self) -> &'static str {
        match self {
            Shell::Zsh => "zsh",
            Shell::Bash => "bash",
            Shell::Fish => "fish",
            Shell::Atuin => "atuin",
        }
    }

    /// Every shell history read, in the report's order.
    pub const ALL: [Shell; 4] = [Shell::Zsh, Shell::Bash, Shell::Fish, Shell::Atuin];
}

impl std::str::FromStr for Shell {
    type Err = crate::UnknownName;

    /// A shell by its [`Shell::display_name`] (`zsh`, `bash`, `fish`, `atuin`).
    fn from_str(text: &str) -> Result<Shell, crate::UnknownName> {
        Shell::ALL.into_iter().find(|shell| shell.display_name() == text).ok_or(crate::UnknownName)
    }
}

/// One command from a shell history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ShellEvent {
    /// Which history it came from.
    pub shell: Shell,
    /// When it ran.
    pub time: Timestamp,
    /// The command line (untrusted text).
    pub command: String,
    /// Whether `command` was shortened by the length cap.
    #[serde(default, skip_serializing_if = "is_false")]
    pub truncated: bool,
    /// Working directory, when the history records it (atuin does).
    pub cwd: Option<PathBuf>,
    /// The project the working directory resolved to (set by the join step).
    pub project: Option<ProjectRef>,
    /// The exit status, when the history records it (atuin does; its `-1`, a command
    /// whose end was never recorded, is `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit: Option<i64>,
    /// How long the command ran, in nanoseconds, when the history records it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ns: Option<u64>,
    /// The AI agent that ran the command (atuin's `author`, e.g. `claude-code`), when an
    /// agent rather than the person ran it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
}

/// Everything the sources produced for one run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Activity {
    /// Commits by the user.
    pub commits: Vec<CommitEvent>,
    /// Agent sessions.
    pub sessions: Vec<SessionEvent>,
    /// Shell commands.
    pub shell: Vec<ShellEvent>,
    /// Work in progress of the active repositories (uncommitted files, stashes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wip: Vec<WipEvent>,
    /// The person's own notes of the report's days (`standup note`), by date then number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<crate::outlook::Note>,
}

/// Work in progress in one repository at report time: what is not committed yet.
/// Unpushed commits are marked on the commits themselves ([`Commit::unpushed`](crate::Commit::unpushed)).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WipEvent {
    /// The repository.
    pub project: ProjectRef,
    /// Changed files not committed (staged, unstaged or untracked), each with the time
    /// it was last modified; sorted by path.
    pub files: Vec<WipFile>,
    /// Stashes, newest first.
    pub stashes: Vec<WipStash>,
    /// Local branches with commits not in their upstream (or, without one, in no
    /// remote-tracking branch), whenever those commits were made; by name. Empty in a
    /// repository without remotes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ahead: Vec<AheadBranch>,
    /// A rebase, merge, cherry-pick or revert stopped midway, at report time: the main
    /// work tree's, else the most recent of the linked worktrees' ([`Stopped::worktree`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Stopped>,
}

/// A git operation stopped midway in a work tree, waiting for the person: conflicts to
/// resolve, or a `--continue` (a rebase stopped to edit a commit).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Stopped {
    /// What stopped.
    pub operation: Operation,
    /// Paths with conflicts not resolved yet (git's unmerged entries).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub conflicts: u64,
    /// When it stopped: when git last wrote its state (`rebase-merge/`, `MERGE_HEAD` …).
    pub since: Timestamp,
    /// The folder name of the linked worktree (`git worktree add`) it stopped in, as the
    /// work tree's files are led by; none for the repository's main work tree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worktree: Option<String>,
}

/// The operations git can leave stopped in a work tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Operation {
    /// `git rebase` (`rebase-merge/` or `rebase-apply/`).
    Rebase,
    /// `git merge` (`MERGE_HEAD`).
    Merge,
    /// `git cherry-pick` (`CHERRY_PICK_HEAD`).
    CherryPick,
    /// `git revert` (`REVERT_HEAD`).
    Revert,
}

/// A local branch with commits its upstream (or, without one, every remote-tracking
/// branch) does not have.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct AheadBranch {
    /// The branch's short name (untrusted text), e.g. `feature/x`.
    pub name: String,
    /// How many commits it has that are not pushed.
    pub commits: u64,
    /// The newest committer time of those commits.
    pub newest: Timestamp,
}

/// One file with uncommitted changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WipFile {
    /// Path relative to the work tree, as git prints it (untrusted text). An untracked
    /// folder is one entry ending in `/`.
    pub path: String,
    /// When the file was last modified (for a deleted file, its folder).
    pub modified: Timestamp,
}

/// One stash entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WipStash {
    /// When the stash was made.
    pub time: Timestamp,
    /// Its message (untrusted text), e.g. `WIP on main: 1a2b3c4 subject`.
    pub message: String,
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
pub(crate) fn is_false(value: &bool) -> bool {
    !*value
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
pub(crate) fn is_zero(value: &u64) -> bool {
    *value == 0
}
