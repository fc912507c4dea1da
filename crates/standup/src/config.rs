//! The config file: every key has a default, so no file is needed. Unknown keys and bad
//! values are errors naming the file, the line and the key.

use std::collections::BTreeSet;
use std::ops::Range;
use std::path::{Path, PathBuf};

use jiff::civil::{Date, Time, Weekday};
use jiff::tz::TimeZone;
use report_model::Lang;
use serde::Deserialize;
use toml::Spanned;

/// Where the config file is read from when `--config` is not given.
pub(crate) fn default_path(home: &Path, xdg_config_home: Option<&str>) -> PathBuf {
    // The XDG spec: a relative path in $XDG_CONFIG_HOME is invalid and is ignored.
    let base = xdg_config_home
        .filter(|value| Path::new(value).is_absolute())
        .map_or_else(|| home.join(".config"), PathBuf::from);
    base.join("standup").join("config.toml")
}

/// A config error: one line naming the file, the line and the key.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ConfigError {
    #[error("cannot read config `{}`", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("config `{}` line {line}, key `{key}`: {message}", .path.display())]
    Invalid { path: PathBuf, line: usize, key: String, message: String },
    #[error("config `{}` line {line}: {message}", .path.display())]
    Syntax { path: PathBuf, line: usize, message: String },
}

/// The file as written, before validation.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct File {
    lang: Option<Spanned<String>>,
    timezone: Option<Spanned<String>>,
    day_start: Option<Spanned<String>>,
    workdays: Option<Spanned<Vec<String>>>,
    holidays: Option<Spanned<Vec<toml::Value>>>,
    max_chars: Option<Spanned<usize>>,
    identity: IdentityFile,
    git: GitFile,
    sessions: SessionsFile,
    shell: ShellFile,
    redact: RedactFile,
    /// Read only when the LLM may run ([`LlmSection`]): `--no-llm` neither reads nor
    /// validates it.
    llm: Option<toml::Value>,
    // Time spent (issue 11 item 7).
    idle_minutes: Option<Spanned<u64>>,
    min_span_minutes: Option<Spanned<u64>>,
    render: RenderFile,
    output: OutputFile,
    // Beyond one machine (issue 22): `crate::ledger` reads these.
    machines: Vec<crate::machines::MachineFile>,
    ledger: crate::ledger::LedgerFile,
    publish: crate::ledger::PublishFile,
    tickets: TicketsFile,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct TicketsFile {
    patterns: Option<Spanned<Vec<String>>>,
    url: Option<Spanned<String>>,
    group_by: Option<Spanned<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct RenderFile {
    compact: bool,
    template: Option<Spanned<PathBuf>>,
    group_by: Option<Spanned<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct OutputFile {
    daily_note: Option<Spanned<String>>,
    heading_level: Option<Spanned<i64>>,
}

/// The `[output]` section: where `--daily-note` writes, and how the report's headings
/// sit in a note.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct OutputConfig {
    /// The daily note's path pattern (`~` not yet expanded), checked.
    pub(crate) daily_note: Option<crate::notes::NotePattern>,
    /// The level (1–6) the report's top heading takes in a note; `None` keeps it.
    pub(crate) heading_level: Option<u8>,
}

/// The `[render]` section.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RenderConfig {
    /// The body only (as `--compact`).
    pub(crate) compact: bool,
    /// A MiniJinja template the report is rendered through (`~` not yet expanded).
    pub(crate) template: Option<PathBuf>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct SessionsFile {
    agents: Option<Spanned<Vec<String>>>,
    claude_roots: Option<Vec<PathBuf>>,
    codex_home: Option<PathBuf>,
    gemini_home: Option<PathBuf>,
    copilot_home: Option<PathBuf>,
    opencode_home: Option<PathBuf>,
    pi_home: Option<PathBuf>,
    qwen_home: Option<PathBuf>,
    cursor_home: Option<PathBuf>,
    amp_home: Option<PathBuf>,
    droid_home: Option<PathBuf>,
    cline_home: Option<PathBuf>,
    kilo_home: Option<PathBuf>,
    continue_home: Option<PathBuf>,
    roo_home: Option<PathBuf>,
    goose_home: Option<PathBuf>,
    gptme_home: Option<PathBuf>,
    kimi_home: Option<PathBuf>,
    vibe_home: Option<PathBuf>,
    openhands_home: Option<PathBuf>,
    hermes_home: Option<PathBuf>,
    openclaw_home: Option<PathBuf>,
    commandcode_home: Option<PathBuf>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct ShellFile {
    shells: Option<Spanned<Vec<String>>>,
    zsh: Option<PathBuf>,
    bash: Option<PathBuf>,
    fish: Option<PathBuf>,
    atuin: Option<PathBuf>,
    ignore: Option<Vec<String>>,
    two_word: Option<Vec<String>>,
    examples: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct RedactFile {
    /// Each rule as written: checked here (naming its line), then read by the same
    /// reader as a `.gitleaks.toml` (`redact::RedactorBuilder::rules_toml`).
    rules: Vec<Spanned<toml::Value>>,
    allow: Vec<String>,
}

/// A `[[redact.rules]]` entry: gitleaks' rule format (`secretGroup` or `secret_group`,
/// allow-lists with `regexes` and `stopwords`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[expect(dead_code, reason = "the fields name the keys a rule may have; `rules_toml` reads them")]
struct RuleFile {
    id: String,
    regex: String,
    #[serde(default)]
    keywords: Vec<String>,
    #[serde(default)]
    entropy: Option<f64>,
    #[serde(default, alias = "secretGroup")]
    secret_group: Option<usize>,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    tags: Option<Vec<String>>,
    #[serde(default)]
    allowlist: Option<toml::Value>,
    #[serde(default)]
    allowlists: Option<Vec<toml::Value>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct LlmFile {
    enabled: Option<Spanned<toml::Value>>,
    api: Option<Spanned<String>>,
    endpoint: Option<Spanned<String>>,
    model: Option<String>,
    timeout_secs: Option<Spanned<u64>>,
    max_input_chars: Option<Spanned<usize>>,
    max_output_chars: Option<Spanned<usize>>,
    temperature: Option<Spanned<f32>>,
    structured: Option<Spanned<String>>,
    notes: Option<Vec<String>>,
    notes_max_chars: Option<usize>,
    command: Option<Spanned<String>>,
}

/// Which wire protocol the local LLM server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LlmApi {
    Ollama,
    OpenAi,
    /// A model runner run as a subprocess (`[llm] command`).
    Command,
}

impl LlmApi {
    /// Every API, in the order the config's error names them.
    pub(crate) const ALL: [LlmApi; 3] = [LlmApi::Ollama, LlmApi::OpenAi, LlmApi::Command];

    /// Its name in the config (`[llm] api`).
    pub(crate) fn config_name(self) -> &'static str {
        match self {
            LlmApi::Ollama => "ollama",
            LlmApi::OpenAi => "openai",
            LlmApi::Command => "command",
        }
    }
}

impl std::str::FromStr for LlmApi {
    type Err = ();

    /// The API of a config name (`ollama`, `openai`, `command`).
    fn from_str(name: &str) -> Result<LlmApi, ()> {
        LlmApi::ALL.into_iter().find(|api| api.config_name() == name).ok_or(())
    }
}

/// `[llm] enabled`: on, off, or on when something answers on the default endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LlmEnabled {
    Auto,
    On,
    Off,
}

/// The `[llm]` section.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LlmConfig {
    pub(crate) enabled: LlmEnabled,
    pub(crate) api: LlmApi,
    pub(crate) endpoint: String,
    pub(crate) model: Option<String>,
    pub(crate) timeout_secs: u64,
    pub(crate) max_input_chars: usize,
    pub(crate) max_output_chars: usize,
    pub(crate) temperature: f32,
    /// How a structured reply is asked for.
    pub(crate) structured: llm_client::Structured,
    /// Style notes for the system prompt.
    pub(crate) notes: Vec<String>,
    pub(crate) notes_max_chars: usize,
    /// The model runner of `api = "command"`.
    pub(crate) command: Option<String>,
    /// Whether the user configured where the model is (`api`, `endpoint` or `command`):
    /// with `enabled = "auto"`, a failure is then worth a warning.
    pub(crate) configured: bool,
}

/// The `[llm]` defaults, written once: [`LlmConfig::default`] uses them, and tests check
/// that `DEFAULT_CONFIG`'s commented values and README.md's table say the same.
pub(crate) mod llm_defaults {
    use super::{LlmApi, LlmEnabled};

    pub(crate) const ENABLED: LlmEnabled = LlmEnabled::Auto;
    pub(crate) const API: LlmApi = LlmApi::Ollama;
    pub(crate) const ENDPOINT: &str = "http://127.0.0.1:11434";
    pub(crate) const TIMEOUT_SECS: u64 = 60;
    pub(crate) const MAX_INPUT_CHARS: usize = 12_000;
    pub(crate) const MAX_OUTPUT_CHARS: usize = 1_200;
    pub(crate) const TEMPERATURE: f32 = 0.2;
    pub(crate) const STRUCTURED: llm_client::Structured = llm_client::Structured::Auto;
    pub(crate) const NOTES_MAX_CHARS: usize = 2_000;
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            enabled: llm_defaults::ENABLED,
            api: llm_defaults::API,
            endpoint: llm_defaults::ENDPOINT.to_owned(),
            model: None,
            timeout_secs: llm_defaults::TIMEOUT_SECS,
            max_input_chars: llm_defaults::MAX_INPUT_CHARS,
            max_output_chars: llm_defaults::MAX_OUTPUT_CHARS,
            temperature: llm_defaults::TEMPERATURE,
            structured: llm_defaults::STRUCTURED,
            notes: Vec::new(),
            notes_max_chars: llm_defaults::NOTES_MAX_CHARS,
            command: None,
            configured: false,
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct IdentityFile {
    emails: Vec<String>,
    names: Vec<String>,
    /// Your name on the team page (`standup publish`); default: git's `user.name`.
    name: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct GitFile {
    roots: Option<Vec<PathBuf>>,
    max_depth: Option<Spanned<usize>>,
    exclude: Vec<String>,
    include_merges: bool,
    timeout_secs: Option<Spanned<i64>>,
}

/// The validated configuration.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    pub(crate) lang: Option<Lang>,
    pub(crate) time_zone: Option<(String, TimeZone)>,
    pub(crate) day_start: Time,
    pub(crate) workdays: Vec<Weekday>,
    pub(crate) holidays: BTreeSet<Date>,
    pub(crate) max_chars: usize,
    pub(crate) identity: collect::git::Identity,
    pub(crate) git: collect::git::GitConfig,
    pub(crate) sessions: collect::sessions::SessionsConfig,
    pub(crate) shell: collect::shell::ShellConfig,
    pub(crate) grouping: aggregate::ShellGrouping,
    /// `[redact]`'s redactor; unset for the built-in one, which [`Config::redactor`]
    /// takes on first use (building it is a few milliseconds: see
    /// [`Config::prepare_redactor`]).
    redactor: std::sync::OnceLock<redact::Redactor>,
    pub(crate) llm: LlmConfig,
    pub(crate) render: RenderConfig,
    pub(crate) output: OutputConfig,
    /// How time spent is estimated (`idle_minutes`, `min_span_minutes`).
    pub(crate) time_rules: aggregate::TimeRules,
    /// `[tickets]` (and `[render] group_by`): how ticket keys are found, linked, grouped.
    pub(crate) tickets: aggregate::TicketRules,
    /// `[identity] name`: the member name `standup publish` writes under.
    pub(crate) member_name: Option<String>,
    /// `[[machines]]`, `[ledger]` and `[publish]`.
    pub(crate) beyond: crate::ledger::BeyondConfig,
}

impl Config {
    /// The redactor: `[redact]`'s, or the built-in one.
    pub(crate) fn redactor(&self) -> &redact::Redactor {
        self.redactor.get_or_init(redact::Redactor::builtin)
    }

    /// Starts building the built-in redactor on a thread of its own when this
    /// configuration uses it, so that the build (parsing the rules file and its keyword
    /// automaton) runs while the sources are read rather than before them; the first
    /// [`Config::redactor`] call waits for it.
    pub(crate) fn prepare_redactor(&self) {
        if self.redactor.get().is_none() {
            std::thread::spawn(|| drop(redact::Redactor::builtin()));
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            lang: None,
            time_zone: None,
            day_start: Time::midnight(),
            workdays: vec![
                Weekday::Monday,
                Weekday::Tuesday,
                Weekday::Wednesday,
                Weekday::Thursday,
                Weekday::Friday,
            ],
            holidays: BTreeSet::new(),
            max_chars: sanitize::DEFAULT_MAX_CHARS,
            identity: collect::git::Identity::default(),
            git: collect::git::GitConfig::default(),
            sessions: collect::sessions::SessionsConfig::default(),
            shell: collect::shell::ShellConfig::default(),
            grouping: aggregate::ShellGrouping::default(),
            redactor: std::sync::OnceLock::new(),
            llm: LlmConfig::default(),
            render: RenderConfig::default(),
            output: OutputConfig::default(),
            time_rules: aggregate::TimeRules::default(),
            tickets: aggregate::TicketRules::default(),
            member_name: None,
            beyond: crate::ledger::BeyondConfig::default(),
        }
    }
}

/// The longest deadline `[git] timeout_secs` accepts: an hour.
const GIT_TIMEOUT_MAX_SECS: i64 = 3600;

/// Whether the `[llm]` table is read: a run with `--no-llm` never reads or validates it,
/// so a mistake there cannot stop a report that does not use the LLM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LlmSection {
    /// Parse and validate `[llm]`.
    Read,
    /// Leave `[llm]` alone: the LLM settings stay at their defaults.
    Skip,
}

/// The `[llm]` table alone, for the second pass that reads it (other keys are the first
/// pass's business).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct LlmOnly {
    llm: LlmFile,
}

/// Reads the config at `path`, reading `[llm]` or not. A missing file at the default
/// place gives the defaults; a missing file named by `--config` is an error.
pub(crate) fn load_with(
    path: &Path,
    required: bool,
    llm: LlmSection,
) -> Result<Config, ConfigError> {
    // Only a regular file of a sane size is read: a FIFO would block the run, a device
    // (`/dev/zero`) would never end.
    let refuse = |what: &str| ConfigError::Read {
        path: path.to_path_buf(),
        source: std::io::Error::other(what.to_owned()),
    };
    match fs_err::metadata(path) {
        Ok(meta) if !meta.is_file() => {
            return Err(refuse("not a regular file (a folder, a FIFO or a device)"));
        }
        Ok(meta) if meta.len() > CONFIG_MAX_BYTES => {
            return Err(refuse("larger than 1 MiB, which no configuration is"));
        }
        _ => {}
    }
    match fs_err::read_to_string(path) {
        Ok(text) => parse_with(path, &text, llm),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound && !required => {
            Ok(Config::default())
        }
        Err(error) => Err(ConfigError::Read { path: path.to_path_buf(), source: error }),
    }
}

/// The largest configuration file read.
const CONFIG_MAX_BYTES: u64 = 1 << 20;

/// Builds the error for a bad value at a span: the file, the line and the key.
type Invalid<'a> = dyn Fn(Range<usize>, &str, String) -> ConfigError + 'a;

/// Parses and validates config text, `[llm]` included.
#[cfg(test)]
pub(crate) fn parse(path: &Path, text: &str) -> Result<Config, ConfigError> {
    parse_with(path, text, LlmSection::Read)
}

/// The error for a TOML text that does not deserialize: the file, line and key.
fn toml_error(path: &Path, text: &str, error: &toml::de::Error) -> ConfigError {
    let span = error.span().unwrap_or(0..0);
    // toml's message can echo the value (a token, an escape sequence): clean it.
    let message = sanitize::cap(&clean::message(error.message().trim()), 300).0.into_owned();
    match key_at(text, &span) {
        Some(key) => ConfigError::Invalid {
            path: path.to_path_buf(),
            line: line_of(text, span.start),
            key: clean::quote(&key),
            message,
        },
        None => ConfigError::Syntax {
            path: path.to_path_buf(),
            line: line_of(text, span.start),
            message,
        },
    }
}

/// Parses and validates config text, reading `[llm]` or not.
pub(crate) fn parse_with(path: &Path, text: &str, llm: LlmSection) -> Result<Config, ConfigError> {
    let file: File = toml::from_str(text).map_err(|error| toml_error(path, text, &error))?;
    let invalid = &|span: Range<usize>, key: &str, message: String| ConfigError::Invalid {
        path: path.to_path_buf(),
        line: line_of(text, span.start),
        key: key.to_owned(),
        message,
    };

    let mut config = Config::default();
    if let Some(lang) = file.lang {
        config.lang = Some(lang.get_ref().parse::<Lang>().map_err(|_| {
            invalid(
                lang.span(),
                "lang",
                format!(
                    "`{}` is not a language (expected `en` or `ja`)",
                    clean::quote(lang.get_ref())
                ),
            )
        })?);
    }
    if let Some(zone) = file.timezone {
        let name = zone.get_ref().clone();
        let time_zone = TimeZone::get(&name).map_err(|_| {
            invalid(
                zone.span(),
                "timezone",
                format!(
                    "unknown time zone `{}` (expected an IANA name such as `Asia/Tokyo`)",
                    clean::quote(&name)
                ),
            )
        })?;
        config.time_zone = Some((name, time_zone));
    }
    if let Some(day_start) = file.day_start {
        config.day_start = parse_time(day_start.get_ref()).ok_or_else(|| {
            invalid(
                day_start.span(),
                "day_start",
                format!(
                    "`{}` is not a time of day (expected `HH:MM`, such as `04:00`)",
                    clean::quote(day_start.get_ref())
                ),
            )
        })?;
    }
    parse_days(&mut config, file.workdays, file.holidays, invalid)?;
    config.identity =
        collect::git::Identity { emails: file.identity.emails, names: file.identity.names };
    config.git.roots = file.git.roots;
    if let Some(depth) = in_range(file.git.max_depth, MAX_DEPTH, "git.max_depth", invalid)? {
        config.git.max_depth = depth;
    }
    config.git.exclude = file.git.exclude;
    config.git.include_merges = file.git.include_merges;
    if let Some(timeout) = file.git.timeout_secs {
        let secs = *timeout.get_ref();
        if !(1..=GIT_TIMEOUT_MAX_SECS).contains(&secs) {
            return Err(invalid(
                timeout.span(),
                "git.timeout_secs",
                format!(
                    "{secs} is out of range: one git process may run from 1 to {GIT_TIMEOUT_MAX_SECS} seconds"
                ),
            ));
        }
        config.git.timeout = std::time::Duration::from_secs(secs.unsigned_abs());
    }
    if let Some(max_chars) = file.max_chars {
        if *max_chars.get_ref() < 10 {
            return Err(invalid(max_chars.span(), "max_chars", "must be at least 10".to_owned()));
        }
        config.max_chars = *max_chars.get_ref();
    }

    parse_sessions(&mut config, file.sessions, invalid)?;
    parse_shell(&mut config, file.shell, invalid)?;
    parse_redact(&mut config, file.redact, path, invalid)?;
    if llm == LlmSection::Read && file.llm.is_some() {
        let only: LlmOnly = toml::from_str(text).map_err(|error| toml_error(path, text, &error))?;
        parse_llm(&mut config, only.llm, invalid)?;
    }
    let group_by = file.render.group_by.clone();
    parse_render(&mut config, file.render, invalid)?;
    parse_tickets(&mut config, file.tickets, group_by, invalid)?;
    parse_output(&mut config, file.output, invalid)?;
    parse_time_rules(&mut config, file.idle_minutes, file.min_span_minutes, invalid)?;
    config.member_name = file.identity.name.filter(|name| !name.trim().is_empty());
    config.beyond =
        crate::ledger::parse_config(file.machines, file.ledger, file.publish, text, path)?;
    Ok(config)
}

fn parse_render(
    config: &mut Config,
    render: RenderFile,
    invalid: &Invalid<'_>,
) -> Result<(), ConfigError> {
    config.render.compact = render.compact;
    if let Some(template) = render.template {
        if template.get_ref().as_os_str().is_empty() {
            return Err(invalid(template.span(), "render.template", "is empty".to_owned()));
        }
        config.render.template = Some(template.into_inner());
    }
    Ok(())
}

/// `[tickets]`: `patterns` (regular expressions, replacing the built-in ones), `url` (an
/// `http`/`https` template with `{key}`) and `group_by = "ticket"`, which `[render]
/// group_by` may also set.
fn parse_tickets(
    config: &mut Config,
    tickets: TicketsFile,
    render_group_by: Option<Spanned<String>>,
    invalid: &Invalid<'_>,
) -> Result<(), ConfigError> {
    let mut group_by = false;
    for (key, value) in
        [("render.group_by", render_group_by), ("tickets.group_by", tickets.group_by)]
    {
        let Some(value) = value else { continue };
        match value.get_ref().as_str() {
            "ticket" => group_by = true,
            "project" => {}
            other => {
                return Err(invalid(
                    value.span(),
                    key,
                    format!(
                        "`{}` is not a grouping (expected `\"ticket\"` or `\"project\"`)",
                        clean::quote(other)
                    ),
                ));
            }
        }
    }
    let url = match tickets.url {
        Some(url) => {
            let text = url.get_ref();
            if !(text.starts_with("https://") || text.starts_with("http://"))
                || !text.contains("{key}")
                || text.contains(['<', '>', ' ', '"'])
            {
                return Err(invalid(
                    url.span(),
                    "tickets.url",
                    "expected an `https://` (or `http://`) address with `{key}` in it, such as `https://example.atlassian.net/browse/{key}`".to_owned(),
                ));
            }
            Some(text.clone())
        }
        None => None,
    };
    let (patterns, span) = match tickets.patterns {
        Some(patterns) => {
            let span = patterns.span();
            (patterns.into_inner(), span)
        }
        None => (Vec::new(), 0..0),
    };
    config.tickets =
        aggregate::TicketRules::new(&patterns, url, group_by).map_err(|(index, error)| {
            let message = match error {
                regex::Error::Syntax(text) => {
                    text.lines().last().unwrap_or_default().trim().to_owned()
                }
                other => other.to_string(),
            };
            invalid(
                span.clone(),
                "tickets.patterns",
                format!("pattern {} is not a regular expression: {message}", index + 1),
            )
        })?;
    Ok(())
}

fn parse_output(
    config: &mut Config,
    output: OutputFile,
    invalid: &Invalid<'_>,
) -> Result<(), ConfigError> {
    if let Some(note) = output.daily_note {
        let pattern = crate::notes::NotePattern::parse(note.get_ref())
            .map_err(|message| invalid(note.span(), "output.daily_note", message))?;
        config.output.daily_note = Some(pattern);
    }
    if let Some(level) = output.heading_level {
        let value = *level.get_ref();
        let level =
            u8::try_from(value).ok().filter(|level| (1..=6).contains(level)).ok_or_else(|| {
                invalid(
                    level.span(),
                    "output.heading_level",
                    format!("{value} is out of range (expected 1 to 6)"),
                )
            })?;
        config.output.heading_level = Some(level);
    }
    Ok(())
}

fn parse_days(
    config: &mut Config,
    workdays: Option<Spanned<Vec<String>>>,
    holidays: Option<Spanned<Vec<toml::Value>>>,
    invalid: &Invalid<'_>,
) -> Result<(), ConfigError> {
    if let Some(workdays) = workdays {
        let mut days = Vec::new();
        for name in workdays.get_ref() {
            let day = parse_weekday(name).ok_or_else(|| {
                invalid(
                    workdays.span(),
                    "workdays",
                    format!(
                        "`{}` is not a day of the week (expected `mon` … `sun`)",
                        clean::quote(name)
                    ),
                )
            })?;
            if !days.contains(&day) {
                days.push(day);
            }
        }
        if days.is_empty() {
            return Err(invalid(
                workdays.span(),
                "workdays",
                "at least one working day is needed".to_owned(),
            ));
        }
        config.workdays = days;
    }
    if let Some(holidays) = holidays {
        for value in holidays.get_ref() {
            if value.as_str() == Some("jp") {
                let years = aggregate::holidays::JP_FIRST_YEAR..=aggregate::holidays::JP_LAST_YEAR;
                for year in years {
                    config
                        .holidays
                        .extend(aggregate::holidays::japan(year).into_iter().map(|(date, _)| date));
                }
                continue;
            }
            let text = match value {
                toml::Value::String(text) => text.clone(),
                toml::Value::Datetime(datetime) => datetime.to_string(),
                other => other.to_string(),
            };
            let date: Date = text.parse().map_err(|_| {
                invalid(
                    holidays.span(),
                    "holidays",
                    format!(
                        "`{}` {}",
                        clean::quote(&text),
                        crate::pipeline::not_a_day(&text).unwrap_or_else(|| {
                            "is not a date (expected `YYYY-MM-DD` or `\"jp\"`)".to_owned()
                        })
                    ),
                )
            })?;
            config.holidays.insert(date);
        }
    }
    Ok(())
}

/// `idle_minutes` (1 to 1440) and `min_span_minutes` (0 to 1440).
fn parse_time_rules(
    config: &mut Config,
    idle_minutes: Option<Spanned<u64>>,
    min_span_minutes: Option<Spanned<u64>>,
    invalid: &Invalid<'_>,
) -> Result<(), ConfigError> {
    if let Some(idle) = idle_minutes {
        let minutes = *idle.get_ref();
        if !(1..=1440).contains(&minutes) {
            return Err(invalid(
                idle.span(),
                "idle_minutes",
                format!("{minutes} is out of range (expected 1 to 1440 minutes)"),
            ));
        }
        config.time_rules.idle_minutes = minutes;
    }
    if let Some(min_span) = min_span_minutes {
        let minutes = *min_span.get_ref();
        if minutes > 1440 {
            return Err(invalid(
                min_span.span(),
                "min_span_minutes",
                format!("{minutes} is out of range (expected 0 to 1440 minutes)"),
            ));
        }
        config.time_rules.min_span_minutes = minutes;
    }
    Ok(())
}

fn parse_sessions(
    config: &mut Config,
    sessions: SessionsFile,
    invalid: &Invalid<'_>,
) -> Result<(), ConfigError> {
    if let Some(agents) = sessions.agents {
        config.sessions.agents = Vec::new();
        for name in agents.get_ref() {
            let Ok(agent) = name.parse::<report_model::Agent>() else {
                let names: Vec<String> = report_model::Agent::ALL
                    .iter()
                    .map(|agent| format!("`{}`", agent.config_name()))
                    .collect();
                return Err(invalid(
                    agents.span(),
                    "sessions.agents",
                    format!(
                        "`{}` is not an agent (expected one of {})",
                        clean::quote(name),
                        names.join(", ")
                    ),
                ));
            };
            config.sessions.agents.push(agent);
        }
    }
    config.sessions.claude_roots = sessions.claude_roots;
    config.sessions.codex_home = sessions.codex_home;
    config.sessions.gemini_home = sessions.gemini_home;
    config.sessions.homes = [
        (report_model::Agent::Copilot, sessions.copilot_home),
        (report_model::Agent::Opencode, sessions.opencode_home),
        (report_model::Agent::Pi, sessions.pi_home),
        (report_model::Agent::Qwen, sessions.qwen_home),
        (report_model::Agent::Cursor, sessions.cursor_home),
        (report_model::Agent::Amp, sessions.amp_home),
        (report_model::Agent::Droid, sessions.droid_home),
        (report_model::Agent::Cline, sessions.cline_home),
        (report_model::Agent::Kilo, sessions.kilo_home),
        (report_model::Agent::Continue, sessions.continue_home),
        (report_model::Agent::Roo, sessions.roo_home),
        (report_model::Agent::Goose, sessions.goose_home),
        (report_model::Agent::Gptme, sessions.gptme_home),
        (report_model::Agent::Kimi, sessions.kimi_home),
        (report_model::Agent::Vibe, sessions.vibe_home),
        (report_model::Agent::OpenHands, sessions.openhands_home),
        (report_model::Agent::Hermes, sessions.hermes_home),
        (report_model::Agent::OpenClaw, sessions.openclaw_home),
        (report_model::Agent::CommandCode, sessions.commandcode_home),
    ]
    .into_iter()
    .filter_map(|(agent, home)| Some((agent, home?)))
    .collect();

    Ok(())
}

fn parse_shell(
    config: &mut Config,
    shell: ShellFile,
    invalid: &Invalid<'_>,
) -> Result<(), ConfigError> {
    if let Some(shells) = shell.shells {
        config.shell.shells = Vec::new();
        for name in shells.get_ref() {
            let kind = match name.as_str() {
                "zsh" => report_model::Shell::Zsh,
                "bash" => report_model::Shell::Bash,
                "fish" => report_model::Shell::Fish,
                "atuin" => report_model::Shell::Atuin,
                other => {
                    return Err(invalid(
                        shells.span(),
                        "shell.shells",
                        format!(
                            "`{}` is not a shell (expected `zsh`, `bash`, `fish` or `atuin`)",
                            clean::quote(other)
                        ),
                    ));
                }
            };
            config.shell.shells.push(kind);
        }
    }
    config.shell.zsh = shell.zsh;
    config.shell.bash = shell.bash;
    config.shell.fish = shell.fish;
    config.shell.atuin = shell.atuin;
    if let Some(ignore) = shell.ignore {
        config.grouping.ignore = ignore;
    }
    if let Some(two_word) = shell.two_word {
        config.grouping.two_word = two_word;
    }
    if let Some(examples) = shell.examples {
        config.grouping.examples = examples;
    }

    Ok(())
}

fn parse_redact(
    config: &mut Config,
    redact: RedactFile,
    path: &Path,
    invalid: &Invalid<'_>,
) -> Result<(), ConfigError> {
    if redact.rules.is_empty() && redact.allow.is_empty() {
        // The default's redactor: the process's one built-in redactor, built once.
        return Ok(());
    }
    let mut builder = redact::Redactor::builder();
    for written in &redact.rules {
        let span = written.span();
        let rule: RuleFile =
            written.get_ref().clone().try_into().map_err(|error: toml::de::Error| {
                invalid(span.clone(), "redact.rules", clean::message(error.message().trim()))
            })?;
        // The id is written into the report (`[REDACTED:<id>]`), after sanitizing.
        let id_ok = !rule.id.is_empty()
            && rule.id.len() <= 64
            && rule.id.bytes().all(|byte| byte.is_ascii_alphanumeric() || b"-_.".contains(&byte));
        if !id_ok {
            return Err(invalid(
                span,
                "redact.rules",
                format!(
                    "rule id `{}` must be 1 to 64 letters, digits, `-`, `_` or `.`",
                    clean::quote(&rule.id)
                ),
            ));
        }
        // Check the regex here so the error names the rule and its line.
        if let Err(error) = regex::Regex::new(&rule.regex) {
            let first = error.to_string().lines().last().unwrap_or_default().trim().to_owned();
            return Err(invalid(
                span,
                "redact.rules",
                format!("rule `{}` has an invalid regex: {first}", clean::quote(&rule.id)),
            ));
        }
        if rule.entropy.is_some_and(|entropy| !(0.0..=8.0).contains(&entropy)) {
            return Err(invalid(
                span,
                "redact.rules",
                format!(
                    "rule `{}` has an entropy outside 0 to 8 (bits per character)",
                    clean::quote(&rule.id)
                ),
            ));
        }
        // Read as a rule file reads it: the same reader as a `.gitleaks.toml`.
        let one = toml::Value::Table(
            [("rules".to_owned(), toml::Value::Array(vec![written.get_ref().clone()]))]
                .into_iter()
                .collect(),
        );
        let text = toml::to_string(&one).unwrap_or_default();
        builder = builder.rules_toml(&text).map_err(|error| {
            invalid(span, "redact.rules", format!("rule `{}`: {error}", clean::quote(&rule.id)))
        })?;
    }
    for literal in redact.allow {
        builder = builder.allow(literal);
    }
    config.redactor =
        std::sync::OnceLock::from(builder.build().map_err(|error| ConfigError::Syntax {
            path: path.to_path_buf(),
            line: 1,
            message: format!("[redact]: {error}"),
        })?);

    Ok(())
}

fn parse_llm(config: &mut Config, llm: LlmFile, invalid: &Invalid<'_>) -> Result<(), ConfigError> {
    let defaults = LlmConfig::default();
    if let Some(api) = &llm.api {
        config.llm.api = api.get_ref().parse::<LlmApi>().map_err(|()| {
            invalid(
                api.span(),
                "llm.api",
                format!(
                    "`{}` is not an API (expected `ollama`, `openai` or `command`)",
                    clean::quote(api.get_ref())
                ),
            )
        })?;
    }
    if let Some(enabled) = &llm.enabled {
        config.llm.enabled = match enabled.get_ref() {
            toml::Value::Boolean(true) => LlmEnabled::On,
            toml::Value::Boolean(false) => LlmEnabled::Off,
            toml::Value::String(text) if text == "auto" => LlmEnabled::Auto,
            _ => {
                return Err(invalid(
                    enabled.span(),
                    "llm.enabled",
                    "expected `true`, `false` or `\"auto\"`".to_owned(),
                ));
            }
        };
    }
    if let Some(structured) = &llm.structured {
        use llm_client::Structured;
        config.llm.structured = match structured.get_ref().as_str() {
            "auto" => Structured::Auto,
            "json_schema" => Structured::JsonSchema,
            "json_object" => Structured::JsonObject,
            "off" => Structured::Off,
            _ => {
                return Err(invalid(
                    structured.span(),
                    "llm.structured",
                    "expected `auto`, `json_schema`, `json_object` or `off`".to_owned(),
                ));
            }
        };
    }
    config.llm.configured = llm.api.is_some() || llm.endpoint.is_some() || llm.command.is_some();
    if let Some(endpoint) = &llm.endpoint {
        // A well-formed endpoint off loopback is no config error: the client refuses it
        // when the narrative is asked for, and the report comes out with the warning
        // `llm_blocked_nonloopback` (the LLM is never a dependency).
        if config.llm.api != LlmApi::Command {
            validate_endpoint_form(endpoint.get_ref())
                .map_err(|message| invalid(endpoint.span(), "llm.endpoint", message))?;
        }
        config.llm.endpoint.clone_from(endpoint.get_ref());
    }
    match (&llm.command, config.llm.api) {
        (Some(command), _) if command.get_ref().split_whitespace().next().is_none() => {
            return Err(invalid(command.span(), "llm.command", "is empty".to_owned()));
        }
        (Some(command), _) => config.llm.command = Some(command.get_ref().clone()),
        (None, LlmApi::Command) => {
            let span = llm.api.as_ref().map_or(0..0, Spanned::span);
            return Err(invalid(
                span,
                "llm.api",
                "`command` needs `[llm] command = \"program args…\"`".to_owned(),
            ));
        }
        (None, _) => {}
    }
    config.llm.model = llm.model.filter(|model| !model.is_empty());
    config.llm.notes = llm.notes.unwrap_or_default();
    config.llm.notes_max_chars = llm.notes_max_chars.unwrap_or(defaults.notes_max_chars);

    config.llm.timeout_secs =
        in_range(llm.timeout_secs, TIMEOUT_SECS, "llm.timeout_secs", invalid)?
            .unwrap_or(defaults.timeout_secs);
    config.llm.max_input_chars =
        in_range(llm.max_input_chars, MAX_INPUT_CHARS, "llm.max_input_chars", invalid)?
            .unwrap_or(defaults.max_input_chars);
    config.llm.max_output_chars =
        in_range(llm.max_output_chars, MAX_OUTPUT_CHARS, "llm.max_output_chars", invalid)?
            .unwrap_or(defaults.max_output_chars);
    if let Some(temperature) = llm.temperature {
        let value = *temperature.get_ref();
        // NaN fails both comparisons: `contains` is false for it.
        if !TEMPERATURE.contains(&value) {
            return Err(invalid(
                temperature.span(),
                "llm.temperature",
                format!(
                    "must be a number from {} to {} (sampling temperature)",
                    TEMPERATURE.start(),
                    TEMPERATURE.end()
                ),
            ));
        }
        config.llm.temperature = value;
    }
    Ok(())
}

/// `[git] max_depth`: the folder walk recurses once per level.
const MAX_DEPTH: std::ops::RangeInclusive<usize> = 0..=32;
/// `[llm] timeout_secs`: at least a second, at most an hour (a deadline far in the
/// future overflows the clock).
const TIMEOUT_SECS: std::ops::RangeInclusive<u64> = 1..=3600;
/// `[llm] max_input_chars`: a payload smaller than this cannot hold a report.
const MAX_INPUT_CHARS: std::ops::RangeInclusive<usize> = 100..=10_000_000;
/// `[llm] max_output_chars`.
const MAX_OUTPUT_CHARS: std::ops::RangeInclusive<usize> = 10..=1_000_000;
/// `[llm] temperature`: what OpenAI-compatible servers and Ollama accept.
const TEMPERATURE: std::ops::RangeInclusive<f32> = 0.0..=2.0;

/// The value of an integer key, checked against its range; the error names the key,
/// its line and the range.
fn in_range<T: PartialOrd + std::fmt::Display + Copy>(
    value: Option<Spanned<T>>,
    range: std::ops::RangeInclusive<T>,
    key: &str,
    invalid: &Invalid<'_>,
) -> Result<Option<T>, ConfigError> {
    let Some(value) = value else { return Ok(None) };
    if range.contains(value.get_ref()) {
        return Ok(Some(*value.get_ref()));
    }
    Err(invalid(
        value.span(),
        key,
        format!(
            "{} is out of range (expected {} to {})",
            value.get_ref(),
            range.start(),
            range.end()
        ),
    ))
}

/// Checks the form of `[llm] endpoint` (an `http://` URL with a port from 1 to 65535),
/// leaving where it points to the client, which refuses anything off loopback.
fn validate_endpoint_form(endpoint: &str) -> Result<(), String> {
    use llm_client::Error as E;
    match llm_client::validate_endpoint(endpoint) {
        Ok(_) | Err(E::NonLoopback { .. } | E::AmbiguousHost { .. } | E::HostName { .. }) => Ok(()),
        Err(error) => Err(format!("`{}`: {error}", clean::quote(endpoint))),
    }
}

/// A strict `HH:MM` (two digits each, `00:00` to `23:59`): no sign, no spaces.
fn parse_time(text: &str) -> Option<Time> {
    let (hour, minute) = text.split_once(':')?;
    let two_digits = |part: &str| part.len() == 2 && part.bytes().all(|byte| byte.is_ascii_digit());
    if !two_digits(hour) || !two_digits(minute) {
        return None;
    }
    let (hour, minute): (i8, i8) = (hour.parse().ok()?, minute.parse().ok()?);
    Time::new(hour, minute, 0, 0).ok()
}

fn parse_weekday(name: &str) -> Option<Weekday> {
    let lower = name.to_ascii_lowercase();
    let day = match lower.get(..3)? {
        "mon" => Weekday::Monday,
        "tue" => Weekday::Tuesday,
        "wed" => Weekday::Wednesday,
        "thu" => Weekday::Thursday,
        "fri" => Weekday::Friday,
        "sat" => Weekday::Saturday,
        "sun" => Weekday::Sunday,
        _ => return None,
    };
    let full = format!("{day:?}").to_ascii_lowercase();
    (lower.len() == 3 || full == lower).then_some(day)
}

/// 1-based line of a byte offset.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset).unwrap_or(text).matches('\n').count() + 1
}

/// The dotted key (`git.max_depth`) whose line holds `span`, from the line's text and
/// the nearest table header above it.
fn key_at(text: &str, span: &Range<usize>) -> Option<String> {
    let line_start = text.get(..span.start)?.rfind('\n').map_or(0, |index| index + 1);
    let line = text.get(line_start..)?.lines().next()?;
    let key = line.split_once('=').map_or(line, |(key, _)| key).trim().trim_matches('"');
    if key.is_empty() || key.starts_with('[') {
        return None;
    }
    let table = text.get(..line_start)?.lines().rev().find_map(|line| {
        let line = line.trim();
        (line.starts_with('[') && line.ends_with(']'))
            .then(|| line.trim_matches(|c| c == '[' || c == ']').trim().to_owned())
    });
    Some(match table {
        Some(table) => format!("{table}.{key}"),
        None => key.to_owned(),
    })
}

/// The commented default config that `standup config init` writes.
pub(crate) const DEFAULT_CONFIG: &str = r#"# standup configuration. Every key is optional. A commented key shows its default
# ("Default: ...") or, where it says "Example", a value to adapt: examples are not
# defaults. Reference: README.md, section "Configuration".

# Longest subject, title or command kept, in characters (a longer one ends with "…").
# max_chars = 500

# Language of the Markdown: "en" or "ja". Default: from LANG (ja_* gives "ja"), else "en".
# lang = "en"

# IANA time zone day boundaries are local to. Default: $TZ, else the system's.
# Example:
# timezone = "Asia/Tokyo"

# When a day starts, for night owls ("04:00" puts 01:30 on the previous day).
# day_start = "00:00"

# Working days: the standup's "previous working day" skips the others and holidays.
# workdays = ["mon", "tue", "wed", "thu", "fri"]

# Dates that are not working days; "jp" adds Japan's national holidays (2020–2099).
# Default: none. Example:
# holidays = ["jp", "2026-12-29", "2026-12-30", "2026-12-31"]

# Time spent (an estimate): events of a project less than idle_minutes apart join one
# span of activity; a span counts at least min_span_minutes (what a lone commit counts).
# idle_minutes = 30
# min_span_minutes = 10

[identity]
# Your commit e-mails (compared without regard to case) and author names.
# Default: git's global user.email and user.name. Example:
# emails = ["me@example.com", "me@work.example"]
# names = ["My Name"]

[git]
# Folders searched for repositories. Default: those of ~/src ~/code ~/projects ~/dev
# ~/work ~/repos ~/git that exist. The repository you run standup from is always read.
# Example:
# roots = ["~/src"]
# How many folder levels below a root are searched.
# max_depth = 3
# Folders to skip: a glob with a "/" matches the path, one without matches the name.
# Default: none. Example:
# exclude = ["~/src/archive/**", "vendor"]
# Report merge commits too.
# include_merges = false
# Seconds one git process may run before it is stopped (1 to 3600).
# timeout_secs = 10

[sessions]
# AI coding agents whose local logs are read. Default: all of them.
# agents = ["claude", "codex", "gemini", "copilot", "opencode", "pi", "qwen", "cursor",
#           "amp", "aider", "droid", "cline", "kilo", "continue", "roo", "vscode",
#           "goose", "gptme", "kimi", "vibe", "openhands", "hermes", "openclaw",
#           "commandcode"]
# Claude Code roots. Default: $CLAUDE_CONFIG_DIR (comma-separated), else ~/.claude and
# $XDG_CONFIG_HOME/claude.
# claude_roots = ["~/.claude"]
# Codex home. Default: $CODEX_HOME, else ~/.codex.
# codex_home = "~/.codex"
# Gemini CLI home. Default: $GEMINI_CLI_HOME/.gemini, else ~/.gemini.
# gemini_home = "~/.gemini"
# The other agents' folders, when not where they keep them. Defaults:
# copilot_home = "~/.copilot"                 # $COPILOT_HOME
# opencode_home = "~/.local/share/opencode"   # $XDG_DATA_HOME/opencode
# pi_home = "~/.pi/agent"                     # $PI_CODING_AGENT_DIR
# qwen_home = "~/.qwen"
# cursor_home = "~/.cursor"                   # the IDE's User folder is found by itself
# amp_home = "~/.local/share/amp"             # $XDG_DATA_HOME/amp
# droid_home = "~/.factory"
# cline_home = "~/.cline"                     # $CLINE_DIR; sessions in data/sessions
# kilo_home = "~/.local/share/kilo"           # $XDG_DATA_HOME/kilo
# continue_home = "~/.continue"               # $CONTINUE_GLOBAL_DIR; sessions in sessions/
# roo_home = "~/roo-storage"                  # Roo Code's customStoragePath; tasks in tasks/
# goose_home = "~/.local/share/goose"         # $GOOSE_PATH_ROOT/data, $XDG_DATA_HOME/goose
# gptme_home = "~/.local/share/gptme"         # logs in logs/; $GPTME_LOGS_HOME, $XDG_DATA_HOME
# kimi_home = "~/.kimi-code"                  # $KIMI_CODE_HOME; sessions in sessions/
# vibe_home = "~/.vibe"                       # $VIBE_HOME; sessions in logs/session/unified/
# openhands_home = "~/.openhands"             # conversations in conversations/
# hermes_home = "~/.hermes"                   # $HERMES_HOME; sessions in state.db
# openclaw_home = "~/.openclaw"               # $OPENCLAW_STATE_DIR; agents/<id>/agent/
# commandcode_home = "~/.commandcode"         # transcripts in projects/<cwd's slug>/

[shell]
# Histories read: "zsh", "bash", "fish", "atuin".
# shells = ["zsh", "bash", "fish", "atuin"]
# History files, when not where the shell keeps them by default ($HISTFILE, ~/.zsh_history,
# ~/.bash_history, $XDG_DATA_HOME/fish/fish_history, ~/.local/share/atuin/history.db).
# Example:
# zsh = "~/.zsh_history"
# Commands whose head is one of these are left out.
# ignore = ["ls", "cd", "pwd", "clear", "exit", "history", "ll", "la", "z", "j"]
# Programs whose head includes the sub-command ("git commit", "cargo test").
# two_word = ["git", "cargo", "npm", "pnpm", "yarn", "docker", "kubectl", "go", "uv", "pip", "brew", "gh", "terraform", "just"]
# Distinct examples shown per group.
# examples = 3

[redact]
# Extra secret patterns, in gitleaks' rule format (a `.gitleaks.toml` rule reads the
# same): each masks its matches as [REDACTED:<id>]. Keywords (literal, case-insensitive)
# let text without them skip the regex; `secretGroup`, `entropy` and allow-lists
# (`[[redact.rules.allowlists]]` with `regexes`, `stopwords`) as in gitleaks. Default:
# none. Example:
# rules = [{ id = "acme-key", regex = "acme_[0-9a-f]{32}", keywords = ["acme_"] }]
# Literals never masked (a test token that is not a secret).
# allow = []

[llm]
# A local LLM server may add a short narrative. It must be on loopback.
# "auto": used when something answers on the default endpoint, silent when nothing does
# (an endpoint you set, or `true`, warns when it fails). `false`: never.
# enabled = "auto"
# "ollama" (/api/chat), "openai" (/v1/chat/completions: llama.cpp, LM Studio, vLLM) or
# "command" (a model runner started per call: the request JSON on stdin, the reply on stdout).
# api = "ollama"
# An IP literal or localhost; host names are never looked up.
# endpoint = "http://127.0.0.1:11434"
# For api = "command": the program and its arguments, split on whitespace (no shell).
# command = "llm -m qwen2.5"
# How a JSON reply is asked for: "auto", "json_schema", "json_object" or "off".
# structured = "auto"
# Style notes added to the system prompt (oldest kept first), and their budget.
# notes = ["Write in the first person.", "Name tickets as they appear in commit subjects."]
# notes_max_chars = 2000
# Model; empty asks the server and takes the first.
# model = ""
# timeout_secs = 60
# max_input_chars = 12000
# max_output_chars = 1200
# temperature = 0.2

[render]
# The body only: no Window line, Totals, warnings or footer (as --compact).
# compact = false
# A MiniJinja template the report is rendered through instead of the built-in
# Markdown; its context is the JSON Report. Default: none. Example:
# template = "~/.config/standup/nippo.md.j2"
# "ticket" groups each project's work by ticket (as `[tickets] group_by`).
# group_by = "project"

[output]
# The note `--daily-note` puts the report in, between <!-- standup:begin --> and
# <!-- standup:end --> (replaced on each run; the rest of the note is kept). `{date}` is
# the report's date (YYYY-MM-DD); `{date:FORMAT}` or Obsidian's `{{date:FORMAT}}` takes
# YYYY, YY, MM, M, DD, D, ddd, dddd, MMM, MMMM and Logseq's yyyy, dd, d, EEE, EEEE
# (`[text]` is literal). Starts with `~/` or `/`. Default: none. Examples:
# daily_note = "~/Notes/Daily/{date}.md"
# daily_note = "~/logseq/journals/{date:yyyy_MM_dd}.md"
# The level (1 to 6) of the report's top heading in a note; the others follow.
# Default: as rendered (1). Example:
# heading_level = 2

[tickets]
# Ticket keys are found in branch names, commit subjects and session titles, shown on
# each commit and session, and linked in Markdown, HTML and Slack when `url` is set.
# Regular expressions (a group named `key`, else the first group, else the whole match
# is the key); they replace the built-in ones, which find `ABC-123`, `GH-12` and `#123`.
# patterns = ['\b[A-Z][A-Z0-9]{1,9}-[1-9][0-9]{0,6}\b']
# The link of a key: `{key}` is the key without a leading `#`. Default: none. Example:
# url = "https://example.atlassian.net/browse/{key}"
# "ticket" groups each project's work by ticket, one line per ticket (also `[render]
# group_by`). Default: "project".
# group_by = "project"
# Beyond one machine (README "Beyond one machine"). Your other machines, asked over
# ssh by `standup daily --machines` (BatchMode: never a password prompt):
# [[machines]]
# name = "devbox"
# ssh = "devbox"
# timeout_secs = 30

# [ledger]
# The folder `standup record` and `standup publish` write `<name>/<date>.json` to
# (a git work tree or any synced folder). Default: none. Example:
# dir = "~/standup-ledger"
# This machine's name. Default: the host name.
# machine = "laptop"
# Merge every machine's day into reports for people without --machines.
# merge = false

# [publish]
# What `standup publish` lets through (also "shell", "wip", "paths", "remotes").
# allow = ["projects", "commits", "sessions", "next", "blockers"]
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn error(text: &str) -> String {
        parse(Path::new("/home/me/.config/standup/config.toml"), text).unwrap_err().to_string()
    }

    #[test]
    fn default_config_parses_to_the_defaults() {
        let config = parse(Path::new("config.toml"), DEFAULT_CONFIG).unwrap();
        assert_eq!(config.day_start, Time::midnight());
        assert_eq!(config.workdays.len(), 5);
        assert_eq!(config.git.max_depth, 3);
        assert!(config.lang.is_none() && config.time_zone.is_none() && config.identity.is_empty());
    }

    #[test]
    fn unknown_key_names_key_and_line() {
        insta::assert_snapshot!(error("lang = \"en\"\ncolour = true\n"), @"config `/home/me/.config/standup/config.toml` line 2, key `colour`: unknown field `colour`, expected one of `lang`, `timezone`, `day_start`, `workdays`, `holidays`, `max_chars`, `identity`, `git`, `sessions`, `shell`, `redact`, `llm`, `idle_minutes`, `min_span_minutes`, `render`, `output`, `machines`, `ledger`, `publish`, `tickets`");
    }

    #[test]
    fn unknown_key_in_a_table() {
        insta::assert_snapshot!(error("[git]\nroots = []\ndepth = 2\n"), @"config `/home/me/.config/standup/config.toml` line 3, key `git.depth`: unknown field `depth`, expected one of `roots`, `max_depth`, `exclude`, `include_merges`, `timeout_secs`");
    }

    #[test]
    fn wrong_type_names_key_and_line() {
        insta::assert_snapshot!(error("\n[git]\nmax_depth = \"three\"\n"), @r#"config `/home/me/.config/standup/config.toml` line 3, key `git.max_depth`: invalid type: string "three", expected usize"#);
    }

    #[test]
    fn unknown_time_zone() {
        insta::assert_snapshot!(error("timezone = \"Mars/Olympus\"\n"), @"config `/home/me/.config/standup/config.toml` line 1, key `timezone`: unknown time zone `Mars/Olympus` (expected an IANA name such as `Asia/Tokyo`)");
    }

    #[test]
    fn bad_values() {
        insta::assert_snapshot!(error("day_start = \"25:00\"\n"), @"config `/home/me/.config/standup/config.toml` line 1, key `day_start`: `25:00` is not a time of day (expected `HH:MM`, such as `04:00`)");
        insta::assert_snapshot!(error("workdays = [\"mon\", \"funday\"]\n"), @"config `/home/me/.config/standup/config.toml` line 1, key `workdays`: `funday` is not a day of the week (expected `mon` … `sun`)");
        insta::assert_snapshot!(error("holidays = [\"2026-13-01\"]\n"), @"config `/home/me/.config/standup/config.toml` line 1, key `holidays`: `2026-13-01` is not a date: there is no month 13");
        insta::assert_snapshot!(error("holidays = [\"2026-02-30\"]\n"), @"config `/home/me/.config/standup/config.toml` line 1, key `holidays`: `2026-02-30` is not a date: February 2026 has 28 days");
        insta::assert_snapshot!(error("holidays = [\"Dec 24\"]\n"), @r#"config `/home/me/.config/standup/config.toml` line 1, key `holidays`: `Dec 24` is not a date (expected `YYYY-MM-DD` or `"jp"`)"#);
        insta::assert_snapshot!(error("lang = \"fr\"\n"), @"config `/home/me/.config/standup/config.toml` line 1, key `lang`: `fr` is not a language (expected `en` or `ja`)");
    }

    #[test]
    fn jp_holidays_and_time_rules() {
        let config = parse(
            Path::new("c.toml"),
            "holidays = [\"jp\", \"2026-12-29\"]\nidle_minutes = 45\nmin_span_minutes = 5\n",
        )
        .unwrap();
        for day in ["2026-01-12", "2026-05-06", "2026-09-22", "2026-12-29", "2099-01-01"] {
            assert!(config.holidays.contains(&day.parse().unwrap()), "{day}");
        }
        assert!(!config.holidays.contains(&"2026-12-28".parse().unwrap()));
        assert_eq!(
            config.time_rules,
            aggregate::TimeRules { idle_minutes: 45, min_span_minutes: 5 }
        );
        insta::assert_snapshot!(error("idle_minutes = 0\n"), @"config `/home/me/.config/standup/config.toml` line 1, key `idle_minutes`: 0 is out of range (expected 1 to 1440 minutes)");
        insta::assert_snapshot!(error("\nmin_span_minutes = 2000\n"), @"config `/home/me/.config/standup/config.toml` line 2, key `min_span_minutes`: 2000 is out of range (expected 0 to 1440 minutes)");
    }

    #[test]
    fn out_of_range_values_name_the_key() {
        insta::assert_snapshot!(error("[llm]\ntimeout_secs = 9223372036854775000\n"), @"config `/home/me/.config/standup/config.toml` line 2, key `llm.timeout_secs`: 9223372036854775000 is out of range (expected 1 to 3600)");
        insta::assert_snapshot!(error("[llm]\ntemperature = nan\n"), @"config `/home/me/.config/standup/config.toml` line 2, key `llm.temperature`: must be a number from 0 to 2 (sampling temperature)");
        insta::assert_snapshot!(error("[llm]\nmax_input_chars = 0\n"), @"config `/home/me/.config/standup/config.toml` line 2, key `llm.max_input_chars`: 0 is out of range (expected 100 to 10000000)");
        insta::assert_snapshot!(error("day_start = \"+4:-0\"\n"), @"config `/home/me/.config/standup/config.toml` line 1, key `day_start`: `+4:-0` is not a time of day (expected `HH:MM`, such as `04:00`)");
        insta::assert_snapshot!(error("[llm]\nendpoint = \"http://127.0.0.1:99999\"\n"), @"config `/home/me/.config/standup/config.toml` line 2, key `llm.endpoint`: `http://127.0.0.1:99999`: the LLM endpoint is not a valid http:// URL: its port is not a number from 1 to 65535");
        insta::assert_snapshot!(error("[redact]\nrules = [{ id = \"a b\", regex = \"x\" }]\n"), @"config `/home/me/.config/standup/config.toml` line 2, key `redact.rules`: rule id `a b` must be 1 to 64 letters, digits, `-`, `_` or `.`");
        assert!(
            error("[redact]\nrules = [{ id = \"r\", regex = \"x\", entropy = nan }]\n")
                .contains("key `redact.rules`: rule `r` has an entropy outside 0 to 8")
        );
    }

    #[test]
    fn times_of_day_are_strict() {
        for good in ["00:00", "04:30", "23:59"] {
            assert!(parse_time(good).is_some(), "{good}");
        }
        for bad in
            ["+4:-0", "4:00", "04:0", " 4:00", "24:00", "04:60", "04:00:00", "-1:00", "٠٤:٠٠"]
        {
            assert!(parse_time(bad).is_none(), "{bad}");
        }
    }

    /// `[[redact.rules]]` are read as gitleaks reads its rules: `secretGroup` (or
    /// `secret_group`), allow-lists with stop words and regexes.
    #[test]
    fn redact_rules_read_as_a_gitleaks_file_does() {
        let text = "[[redact.rules]]\nid = \"acme-key\"\nregex = 'key=(acme_[a-z0-9]{16})'\nsecretGroup = 1\nkeywords = [\"acme_\"]\ndescription = \"ACME\"\ntags = [\"key\"]\n[[redact.rules.allowlists]]\nstopwords = [\"example\"]\n";
        let config = parse(Path::new("c.toml"), text).unwrap();
        let (out, masked) = config.redactor().redact("key=acme_q8w7e6r5t4y3u2i1");
        assert_eq!((out.as_ref(), masked), ("key=[REDACTED:acme-key]", 1));
        let (out, _) = config.redactor().redact("key=acme_exampleq8w7e6r5");
        assert_eq!(out, "key=acme_exampleq8w7e6r5");
        assert!(
            error("[[redact.rules]]\nid = \"r\"\nregex = \"x\"\ncolour = 1\n")
                .contains("key `redact.rules`: unknown field `colour`")
        );
    }

    #[test]
    fn endpoint_ports_are_checked() {
        for good in [
            "http://127.0.0.1:11434",
            "http://localhost",
            "http://[::1]:8080/v1",
            "http://[::1]",
            "http://127.0.0.1:1/",
            "http://LOCALHOST:65535",
        ] {
            assert_eq!(validate_endpoint_form(good), Ok(()), "{good}");
        }
        // Well formed but off loopback: not a config error (the client refuses it when
        // the narrative is asked for, and the report carries a warning).
        for elsewhere in ["http://llm.local:11434", "http://192.168.1.10:11434", "http://0.0.0.0:1"]
        {
            assert_eq!(validate_endpoint_form(elsewhere), Ok(()), "{elsewhere}");
        }
        for bad in [
            "http://127.0.0.1:99999",
            "http://127.0.0.1:0",
            "http://127.0.0.1:",
            "http://127.0.0.1:+80",
            "http://[::1]:65536",
            "http://[::1",
            "http://127.0.0.1:8o",
            // Beyond the port: credentials, another scheme.
            "http://u:p@127.0.0.1:65535",
            "https://127.0.0.1:1",
        ] {
            assert!(validate_endpoint_form(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn syntax_error_names_line() {
        insta::assert_snapshot!(error("lang = \"en\"\n[git\n"), @"config `/home/me/.config/standup/config.toml` line 2: unclosed table, expected `]`");
    }

    #[test]
    fn holidays_accept_toml_dates_and_strings() {
        let config = parse(
            Path::new("c.toml"),
            "holidays = [2026-12-31, \"2027-01-01\"]\nworkdays = [\"Monday\", \"tue\"]\n",
        )
        .unwrap();
        assert_eq!(config.holidays.len(), 2);
        assert_eq!(config.workdays, vec![Weekday::Monday, Weekday::Tuesday]);
    }
}

/// `[llm]`'s defaults as `DEFAULT_CONFIG` and README.md write them, checked against
/// [`llm_defaults`] through the parser: each written value, set alone, must parse to the
/// default.
#[cfg(test)]
mod llm_default_tests {
    use std::path::Path;

    use super::{LlmConfig, llm_defaults, parse};

    /// The keys whose default both texts show; `command` and `notes` have none to show
    /// (the config shows examples of them, README `none` and `[]`).
    const SHOWN: [&str; 10] = [
        "enabled",
        "api",
        "endpoint",
        "model",
        "timeout_secs",
        "max_input_chars",
        "max_output_chars",
        "temperature",
        "structured",
        "notes_max_chars",
    ];

    /// The `[llm]` section that `key = value` alone gives, `configured` cleared (setting
    /// `api` or `endpoint` marks the LLM as configured, whatever the value).
    #[track_caller]
    fn with(key: &str, value: &str) -> LlmConfig {
        let text = format!("[llm]\n{key} = {value}\n");
        let mut llm = parse(Path::new("config.toml"), &text)
            .unwrap_or_else(|error| panic!("`{key} = {value}`: {error}"))
            .llm;
        llm.configured = false;
        llm
    }

    #[test]
    fn the_default_is_the_constants() {
        let llm = LlmConfig::default();
        assert_eq!(llm.enabled, llm_defaults::ENABLED);
        assert_eq!(llm.api, llm_defaults::API);
        assert_eq!(llm.endpoint, llm_defaults::ENDPOINT);
        assert_eq!(llm.model, None);
        assert_eq!(llm.timeout_secs, llm_defaults::TIMEOUT_SECS);
        assert_eq!(llm.max_input_chars, llm_defaults::MAX_INPUT_CHARS);
        assert_eq!(llm.max_output_chars, llm_defaults::MAX_OUTPUT_CHARS);
        assert!((llm.temperature - llm_defaults::TEMPERATURE).abs() < f32::EPSILON);
        assert_eq!(llm.structured, llm_defaults::STRUCTURED);
        assert_eq!(llm.notes_max_chars, llm_defaults::NOTES_MAX_CHARS);
        // The libraries' own defaults agree, so a config without `[llm]` and a library
        // user get the same.
        let client = llm_client::ClientConfig::new(llm_defaults::ENDPOINT);
        assert_eq!(client.timeout.as_secs(), llm_defaults::TIMEOUT_SECS);
        let limits = narrative::Limits::default();
        assert_eq!(limits.max_input_chars, llm_defaults::MAX_INPUT_CHARS);
        assert_eq!(limits.max_output_chars, llm_defaults::MAX_OUTPUT_CHARS);
        assert!((limits.temperature - llm_defaults::TEMPERATURE).abs() < f32::EPSILON);
        assert_eq!(llm_client::Structured::default(), llm_defaults::STRUCTURED);
    }

    #[test]
    fn default_config_comments_the_defaults() {
        let section = super::DEFAULT_CONFIG
            .split("\n[llm]\n")
            .nth(1)
            .and_then(|rest| rest.split("\n[").next())
            .expect("DEFAULT_CONFIG has an [llm] section");
        let mut seen = Vec::new();
        for line in section.lines() {
            let Some((key, value)) =
                line.strip_prefix("# ").and_then(|line| line.split_once(" = "))
            else {
                continue;
            };
            if !SHOWN.contains(&key) {
                continue;
            }
            assert_eq!(with(key, value), LlmConfig::default(), "DEFAULT_CONFIG: `{line}`");
            seen.push(key);
        }
        seen.sort_unstable();
        let mut shown = SHOWN.to_vec();
        shown.sort_unstable();
        assert_eq!(seen, shown, "every default of [llm] is commented once in DEFAULT_CONFIG");
    }

    #[test]
    fn the_readme_table_gives_the_defaults() {
        let readme =
            fs_err::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
                .unwrap();
        let mut seen = Vec::new();
        for line in readme.lines() {
            let Some(row) = line.strip_prefix("| `[llm] ") else { continue };
            let cells: Vec<&str> = row.split(" | ").collect();
            let key = cells[0].trim_end_matches('`');
            if !SHOWN.contains(&key) {
                continue;
            }
            let value = cells[1].trim().trim_matches('`');
            assert_eq!(with(key, value), LlmConfig::default(), "README.md: `{line}`");
            seen.push(key);
        }
        seen.sort_unstable();
        let mut shown = SHOWN.to_vec();
        shown.sort_unstable();
        assert_eq!(seen, shown, "every default of [llm] has one row in README.md's table");
    }
}

#[cfg(test)]
mod llm_api_tests {
    use super::LlmApi;

    #[test]
    fn every_api_parses_from_its_config_name_and_nothing_else_does() {
        for api in LlmApi::ALL {
            assert_eq!(api.config_name().parse::<LlmApi>(), Ok(api));
        }
        for other in ["Ollama", "anthropic", "", "openai "] {
            assert_eq!(other.parse::<LlmApi>(), Err(()), "{other:?}");
        }
    }
}
