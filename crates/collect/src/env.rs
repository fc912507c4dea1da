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

    /// A variable's value; an empty value counts as unset.
    pub fn var(&self, name: &str) -> Option<&str> {
        self.vars.get(name).map(String::as_str).filter(|value| !value.is_empty())
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
