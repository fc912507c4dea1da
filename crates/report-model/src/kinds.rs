//! Small typed names shared across crates: the report language, the sources a status
//! or a masked count is about, and the one English count wording.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::event::{Agent, Shell};

/// The language a report (and its narrative) is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English.
    En,
    /// Japanese.
    Ja,
}

impl Lang {
    /// The code as written in the config and on the command line: `en` or `ja`.
    pub fn as_str(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }
}

impl FromStr for Lang {
    type Err = UnknownName;

    /// `en` or `ja`, exactly.
    fn from_str(text: &str) -> Result<Lang, UnknownName> {
        match text {
            "en" => Ok(Lang::En),
            "ja" => Ok(Lang::Ja),
            _ => Err(UnknownName),
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not one of an enum's names (the caller's message says which were).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnknownName;

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown name")
    }
}

impl std::error::Error for UnknownName {}

/// One source `standup doctor` reports on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Git repositories.
    Git,
    /// Claude Code transcripts.
    Claude,
    /// Codex rollouts.
    Codex,
    /// Gemini CLI sessions.
    Gemini,
    /// GitHub Copilot CLI sessions.
    Copilot,
    /// opencode sessions.
    Opencode,
    /// pi sessions.
    Pi,
    /// Qwen Code sessions.
    Qwen,
    /// Cursor chats and composers.
    Cursor,
    /// Amp threads.
    Amp,
    /// Aider histories.
    Aider,
    /// Factory Droid sessions.
    Droid,
    /// Cline CLI sessions.
    Cline,
    /// Kilo Code CLI sessions.
    Kilo,
    /// Continue's sessions (CLI and editor extensions).
    Continue,
    /// Roo Code's tasks.
    Roo,
    /// VS Code's chat sessions.
    VsCode,
    /// Goose's sessions database.
    Goose,
    /// gptme's conversation logs.
    Gptme,
    /// Kimi Code's session folders.
    Kimi,
    /// Mistral Vibe's session store.
    Vibe,
    /// The OpenHands CLI's conversations.
    OpenHands,
    /// Hermes Agent's session database.
    Hermes,
    /// OpenClaw's agent databases.
    OpenClaw,
    /// Command Code's session transcripts.
    CommandCode,
    /// zsh's history file.
    Zsh,
    /// bash's history file.
    Bash,
    /// fish's history file.
    Fish,
    /// atuin's database.
    Atuin,
}

impl Source {
    /// The short name: `git`, an agent's [`Agent::config_name`], `zsh`, `bash`, `fish`,
    /// `atuin`.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Git => "git",
            Source::Claude => "claude",
            Source::Codex => "codex",
            Source::Gemini => "gemini",
            Source::Copilot => "copilot",
            Source::Opencode => "opencode",
            Source::Pi => "pi",
            Source::Qwen => "qwen",
            Source::Cursor => "cursor",
            Source::Amp => "amp",
            Source::Aider => "aider",
            Source::Droid => "droid",
            Source::Cline => "cline",
            Source::Kilo => "kilo",
            Source::Continue => "continue",
            Source::Roo => "roo",
            Source::VsCode => "vscode",
            Source::Goose => "goose",
            Source::Gptme => "gptme",
            Source::Kimi => "kimi",
            Source::Vibe => "vibe",
            Source::OpenHands => "openhands",
            Source::Hermes => "hermes",
            Source::OpenClaw => "openclaw",
            Source::CommandCode => "commandcode",
            Source::Zsh => "zsh",
            Source::Bash => "bash",
            Source::Fish => "fish",
            Source::Atuin => "atuin",
        }
    }

    /// Whether this is an AI coding agent's log.
    pub fn is_agent(self) -> bool {
        !matches!(self, Source::Git | Source::Zsh | Source::Bash | Source::Fish | Source::Atuin)
    }
}

impl From<Agent> for Source {
    fn from(agent: Agent) -> Source {
        match agent {
            Agent::ClaudeCode => Source::Claude,
            Agent::Codex => Source::Codex,
            Agent::Gemini => Source::Gemini,
            Agent::Copilot => Source::Copilot,
            Agent::Opencode => Source::Opencode,
            Agent::Pi => Source::Pi,
            Agent::Qwen => Source::Qwen,
            Agent::Cursor => Source::Cursor,
            Agent::Amp => Source::Amp,
            Agent::Aider => Source::Aider,
            Agent::Droid => Source::Droid,
            Agent::Cline => Source::Cline,
            Agent::Kilo => Source::Kilo,
            Agent::Continue => Source::Continue,
            Agent::Roo => Source::Roo,
            Agent::VsCode => Source::VsCode,
            Agent::Goose => Source::Goose,
            Agent::Gptme => Source::Gptme,
            Agent::Kimi => Source::Kimi,
            Agent::Vibe => Source::Vibe,
            Agent::OpenHands => Source::OpenHands,
            Agent::Hermes => Source::Hermes,
            Agent::OpenClaw => Source::OpenClaw,
            Agent::CommandCode => Source::CommandCode,
        }
    }
}

impl From<Shell> for Source {
    fn from(shell: Shell) -> Source {
        match shell {
            Shell::Zsh => Source::Zsh,
            Shell::Bash => Source::Bash,
            Shell::Fish => Source::Fish,
            Shell::Atuin => Source::Atuin,
        }
    }
}

impl Source {
    /// Every source, in the order `doctor` lists them.
    pub const ALL: [Source; 29] = [
        Source::Git,
        Source::Claude,
        Source::Codex,
        Source::Gemini,
        Source::Copilot,
        Source::Opencode,
        Source::Pi,
        Source::Qwen,
        Source::Cursor,
        Source::Amp,
        Source::Aider,
        Source::Droid,
        Source::Cline,
        Source::Kilo,
        Source::Continue,
        Source::Roo,
        Source::VsCode,
        Source::Goose,
        Source::Gptme,
        Source::Kimi,
        Source::Vibe,
        Source::OpenHands,
        Source::Hermes,
        Source::OpenClaw,
        Source::CommandCode,
        Source::Zsh,
        Source::Bash,
        Source::Fish,
        Source::Atuin,
    ];
}

impl std::str::FromStr for Source {
    type Err = UnknownName;

    /// A source by its [`Source::as_str`] name, as the JSON and the config write it.
    fn from_str(text: &str) -> Result<Source, UnknownName> {
        Source::ALL.into_iter().find(|source| source.as_str() == text).ok_or(UnknownName)
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where masked secrets were found, for the report's footer (`meta.secrets_masked`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum MaskedSource {
    /// Commits (subjects, repository names and paths).
    Git,
    /// Agent sessions (titles, ids, working directories).
    Sessions,
    /// Shell history (commands, working directories).
    Shell,
    /// Warning messages (which name files and folders).
    Warnings,
    /// The person's own notes (`standup note`).
    Notes,
}

impl MaskedSource {
    /// The name in JSON: `git`, `sessions`, `shell`, `warnings`, `notes`.
    pub fn as_str(self) -> &'static str {
        match self {
            MaskedSource::Git => "git",
            MaskedSource::Sessions => "sessions",
            MaskedSource::Shell => "shell",
            MaskedSource::Warnings => "warnings",
            MaskedSource::Notes => "notes",
        }
    }
}

impl fmt::Display for MaskedSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A number with its noun, in English: `1 file`, `2 files`, `1,204 entries` (thousands
/// grouped with commas). The one count wording of warnings, statuses and `doctor`.
pub fn plural(count: u64, one: &str, many: &str) -> String {
    format!("{} {}", group_thousands(count), if count == 1 { one } else { many })
}

/// `1204` → `1,204`.
pub fn group_thousands(count: u64) -> String {
    let digits = count.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plural_groups_thousands() {
        assert_eq!(plural(0, "entry", "entries"), "0 entries");
        assert_eq!(plural(1, "entry", "entries"), "1 entry");
        assert_eq!(plural(999, "entry", "entries"), "999 entries");
        assert_eq!(plural(1204, "entry", "entries"), "1,204 entries");
        assert_eq!(plural(1_234_567, "entry", "entries"), "1,234,567 entries");
        assert_eq!(group_thousands(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn names_round_trip_through_serde() {
        for lang in [Lang::En, Lang::Ja] {
            let json = serde_json::to_string(&lang).unwrap();
            assert_eq!(json, format!("\"{lang}\""));
            assert_eq!(lang.as_str().parse::<Lang>(), Ok(lang));
        }
        assert!("EN".parse::<Lang>().is_err());
        for source in [
            MaskedSource::Git,
            MaskedSource::Sessions,
            MaskedSource::Shell,
            MaskedSource::Warnings,
            MaskedSource::Notes,
        ] {
            assert_eq!(serde_json::to_string(&source).unwrap(), format!("\"{source}\""));
        }
        let sources = [
            Source::Git,
            Source::Claude,
            Source::Codex,
            Source::Gemini,
            Source::Zsh,
            Source::Bash,
            Source::Fish,
            Source::Atuin,
        ];
        for source in sources {
            assert_eq!(serde_json::to_string(&source).unwrap(), format!("\"{source}\""));
        }
        assert_eq!(Source::from(Agent::ClaudeCode), Source::Claude);
        for agent in Agent::ALL {
            assert_eq!(agent.config_name().parse::<Agent>(), Ok(agent));
            let source = Source::from(agent);
            assert!(source.is_agent());
            assert_eq!(serde_json::to_string(&source).unwrap(), format!("\"{source}\""));
        }
        assert!("Claude".parse::<Agent>().is_err());
        assert_eq!(Source::from(Shell::Atuin), Source::Atuin);
        for source in Source::ALL {
            assert_eq!(source.as_str().parse::<Source>(), Ok(source));
            let json = serde_json::to_string(&source).unwrap();
            assert_eq!(serde_json::from_str::<Source>(&json).unwrap(), source);
        }
        assert!("Git".parse::<Source>().is_err());
        for shell in Shell::ALL {
            assert_eq!(shell.display_name().parse::<Shell>(), Ok(shell));
        }
        assert!("powershell".parse::<Shell>().is_err());
    }
}
