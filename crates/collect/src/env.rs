//! The environment a run sees, injected so that tests pin it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The home directory and environment variables a run reads. The binary builds it from
/// the process environment; tests build it by hand, so no reader calls `std::env`.
#[derive(Debug, Clone, Default)]
pub struct Env {
    /// The user's home directory.
    pub home: PathBuf,
    /// Environment variables (only the ones a reader may look at need to be present).
    pub vars: BTreeMap<String, String>,
}

impl Env {
    /// Every environment variable a reader of `collect` looks at: the binary captures
    /// exactly these (and `HOME`) for the injected `Env`. A reader asking for a variable
    /// not on the list is a bug (a debug assertion, and a test that scans the sources
    /// for `var("…")` calls); adding one is adding a line here.
    pub const VARS: &'static [&'static str] = &[
        // Shell histories.
        "HISTFILE",
        "SHELL",
        // XDG base folders (Claude Code, fish, atuin, git's global config).
        "XDG_CONFIG_HOME",
        "XDG_DATA_HOME",
        // Agent log roots.
        "CLAUDE_CONFIG_DIR",
        "CODEX_HOME",
        // Where Codex keeps `state_<N>.sqlite` when not in its home.
        "CODEX_SQLITE_HOME",
        "GEMINI_CLI_HOME",
        "COPILOT_HOME",
        "PI_CODING_AGENT_DIR",
        "QWEN_HOME",
        "QWEN_RUNTIME_DIR",
        // Factory Droid's stand-in for the home folder (it holds `.factory`).
        "FACTORY_HOME_OVERRIDE",
        // Cline's folders: its own, its data, its sessions.
        "CLINE_DIR",
        "CLINE_DATA_DIR",
        "CLINE_SESSION_DATA_DIR",
        // Continue's folder (its sessions are in `sessions/`).
        "CONTINUE_GLOBAL_DIR",
        // Goose's root for its config, data and state (its sessions in `data/sessions`).
        "GOOSE_PATH_ROOT",
        // gptme's conversation logs.
        "GPTME_LOGS_HOME",
        // Kimi Code's home (its sessions in `sessions/`).
        "KIMI_CODE_HOME",
        // Mistral Vibe's home (its sessions in `logs/session/unified/`).
        "VIBE_HOME",
        // Hermes Agent's home (its sessions in `state.db`).
        "HERMES_HOME",
        // OpenClaw's state folder (its agents' databases in `agents/`), its home and
        // profile.
        "OPENCLAW_STATE_DIR",
        "OPENCLAW_HOME",
        "OPENCLAW_PROFILE",
        // The OpenHands CLI's folders (1.16: its conversations', else its persistence
        // folder's `conversations/`).
        "OPENHANDS_CONVERSATIONS_DIR",
        "OPENHANDS_PERSISTENCE_DIR",
        // The local time zone of Aider's zone-less history times.
        "TZ",
        // atuin's home, database and config.
        "ATUIN_HOME",
        "ATUIN_DB_PATH",
        "ATUIN_CONFIG_DIR",
        "ATUIN_DATA_DIR",
        // git's own, which send a repository to git rather than the in-process reader.
        "GIT_NAMESPACE",
        "GIT_OBJECT_DIRECTORY",
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_REPLACE_REF_BASE",
        "GIT_NO_REPLACE_OBJECTS",
        "GIT_SHALLOW_FILE",
        "GIT_GRAFT_FILE",
        "GIT_INDEX_FILE",
        // Where the search for a directory's repository stops going up, as in git.
        "GIT_CEILING_DIRECTORIES",
    ];

    /// An environment with this home and no variables.
    pub fn new(home: impl Into<PathBuf>) -> Env {
        Env { home: home.into(), vars: BTreeMap::new() }
    }

    /// Sets a variable (builder style, for tests).
    #[must_use]
    pub fn with_var(mut self, name: &str, value: impl Into<String>) -> Env {
        self.vars.insert(name.to_owned(), value.into());
        self
    }

    /// A variable's value; an empty value counts as unset. `name` must be on
    /// [`Env::VARS`].
    pub fn var(&self, name: &str) -> Option<&str> {
        debug_assert!(Env::VARS.contains(&name), "`{name}` is not on collect::Env::VARS");
        self.vars.get(name).map(String::as_str).filter(|value| !value.is_empty())
    }

    /// [`Env::var`] as a path, when it is an absolute one (a program resolves a relative
    /// one against the folder it ran in, which is not known here).
    pub fn abs_var(&self, name: &str) -> Option<PathBuf> {
        self.var(name).map(PathBuf::from).filter(|path| path.is_absolute())
    }

    /// A variable named by user data (a `$NAME` in a config file): its value when it is
    /// one of [`Env::VARS`] and set, else `None` (other variables are never captured).
    pub fn listed_var(&self, name: &str) -> Option<&str> {
        if Env::VARS.contains(&name) { self.var(name) } else { None }
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    pub fn config_home(&self) -> PathBuf {
        self.var("XDG_CONFIG_HOME").map_or_else(|| self.home.join(".config"), PathBuf::from)
    }

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    pub fn data_home(&self) -> PathBuf {
        self.var("XDG_DATA_HOME").map_or_else(|| self.home.join(".local/share"), PathBuf::from)
    }

    /// `path` with a leading `~/` expanded to the home directory.
    pub fn expand_tilde(&self, path: &Path) -> PathBuf {
        match path.strip_prefix("~") {
            Ok(rest) => self.home.join(rest),
            Err(_) => path.to_path_buf(),
        }
    }
}
