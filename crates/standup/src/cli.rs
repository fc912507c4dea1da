//! The command line.

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser as _};
use clap::{Args, Parser, Subcommand, ValueEnum};
use report_model::Lang;

const EXAMPLES: &str = "\
Examples:
  standup                                the standup update (same as `standup standup`)
  standup daily                          today's report, Markdown on stdout
  standup daily --format slack --compact --copy
                                         paste-ready for Slack, on the clipboard too
  standup daily --date yesterday --lang ja
  standup standup --no-llm               previous working day (and any days off since) + today
  standup week                           this week's working days so far (週報)
  standup daily --since 2026-11-23 --until 2026-11-27
  standup daily --format json -o day.json
  standup doctor                         which sources were found, and why a report is empty
  standup daily --show-prompt            what would be sent to the local LLM (sends nothing)
  standup config init                    write a commented default config
  standup completions zsh                shell completions (also bash, fish, elvish, powershell)
  standup man                            the man page, as roff
  standup mcp                            serve the report to coding agents over MCP (stdio)
  standup note --plan \"wire the Slack output\"
                                         a plan for the next standup (also --blocker, --list)
  standup daily --machines               one day across this machine, [[machines]] and the ledger
  standup record --commit --push         this machine's day into the ledger (a git work tree)
  standup publish --show-what-is-published
  standup team --ledger ~/team-standup   the team's day in one page

Exit codes: 0 report written (warnings included), 1 no report could be produced,
2 usage or config error.";

/// Turns what you did on this machine (git commits, AI coding-agent sessions, shell
/// history) into a daily report or a standup update. Nothing leaves the machine.
#[derive(Debug, Parser)]
#[command(name = "standup", version, about, after_help = EXAMPLES, args_conflicts_with_subcommands = true)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
    /// Without a sub-command: the options of `standup standup`.
    #[command(flatten)]
    pub(crate) report: ReportArgs,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// The report of one day (today unless --date says otherwise).
    Daily(ReportArgs),
    /// The previous working day and today, for a standup meeting.
    Standup(ReportArgs),
    /// The week (Monday to Sunday) holding --date, so far: one body per working day (and
    /// per day off with activity), with totals over the week (週報).
    Week(ReportArgs),
    /// Show which sources were found, where, and what limits them.
    Doctor(DoctorArgs),
    /// Manage the config file.
    #[command(subcommand)]
    Config(ConfigCommand),
    /// Print shell completions: `standup completions zsh > ~/.zfunc/_standup`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): `standup man > ~/.local/share/man/man1/standup.1`.
    Man,
    /// Print the JSON Schema of `--format json` output.
    Schema,
    /// Run `standup --no-llm --daily-note` every morning: a systemd user timer (Linux), a
    /// launchd agent (macOS) or a crontab line.
    #[command(subcommand)]
    Schedule(ScheduleCommand),
    /// Serve the Model Context Protocol on stdin/stdout for coding agents: read-only tools
    /// `report`, `sessions` and `doctor` (docs/mcp.md).
    Mcp(McpArgs),
    /// Add a note to today's report: `standup note "text"`, a plan for the next working
    /// day (`--plan`) or a blocker (`--blocker`); `--list` shows the day's notes,
    /// `--done N` closes one, `--edit` opens the day's file in $VISUAL or $EDITOR. Notes
    /// show in that day's report and in the next standup's Next and Blockers.
    Note(NoteArgs),
    /// Write this machine's day (the report as JSON, redacted) to `[ledger] dir` as
    /// `<machine>/<date>.json`, replacing that machine's earlier entry of the day.
    Record(LedgerArgs),
    /// Write your day for the team to `[ledger] dir` as `<member>/<date>.json`: only what
    /// `[publish] allow` lets through, redacted.
    Publish(PublishArgs),
    /// Every member's published day of one date in one page (per person: what they did,
    /// next steps, blockers).
    Team(TeamArgs),
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("action").args(["text", "edit", "done", "list"]).required(true)))]
#[expect(clippy::struct_excessive_bools, reason = "independent command-line switches")]
pub(crate) struct NoteArgs {
    /// What to note (the words are joined with spaces).
    #[arg(value_name = "TEXT", num_args = 1..)]
    pub(crate) text: Vec<String>,
    /// The note is a plan for the next working day (shown in its standup's Next, marked
    /// done when that day's work mentions it).
    #[arg(long, conflicts_with_all = ["blocker", "edit", "done", "list"], requires = "text")]
    pub(crate) plan: bool,
    /// The note is a blocker (shown in the next standup's Blockers until closed).
    #[arg(long, conflicts_with_all = ["edit", "done", "list"], requires = "text")]
    pub(crate) blocker: bool,
    /// Open the day's notes file in $VISUAL or $EDITOR (checked before it replaces the
    /// file).
    #[arg(long, conflicts_with_all = ["text", "done", "list"])]
    pub(crate) edit: bool,
    /// Close note N of the day (the number `--list` shows).
    #[arg(long, value_name = "N", conflicts_with_all = ["text", "list"])]
    pub(crate) done: Option<u32>,
    /// Print the day's notes, numbered.
    #[arg(long, conflicts_with = "text")]
    pub(crate) list: bool,
    /// The day: `today`, `yesterday`, `previous` (the previous working day) or
    /// `YYYY-MM-DD`.
    #[arg(long, default_value = "today", value_name = "DATE")]
    pub(crate) date: String,
    /// Config file (default: $XDG_CONFIG_HOME/standup/config.toml): its time zone,
    /// `day_start` and working days decide what today is.
    #[arg(long, value_name = "PATH")]
    pub(crate) config: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct LedgerArgs {
    /// The day: `today`, `yesterday` or `YYYY-MM-DD`.
    #[arg(long, default_value = "today", value_name = "DATE")]
    pub(crate) date: String,
    /// Config file (default: $XDG_CONFIG_HOME/standup/config.toml).
    #[arg(long, value_name = "PATH")]
    pub(crate) config: Option<PathBuf>,
    /// The ledger folder (default: `[ledger] dir`).
    #[arg(long, value_name = "DIR")]
    pub(crate) ledger: Option<PathBuf>,
    /// Commit the entry in the ledger folder's git work tree (`git add`, `git commit`).
    #[arg(long)]
    pub(crate) commit: bool,
    /// Commit, then `git push` (with your own git and credentials).
    #[arg(long)]
    pub(crate) push: bool,
    /// Print no warnings on stderr.
    #[arg(short = 'q', long)]
    pub(crate) quiet: bool,
}

#[derive(Debug, Args)]
pub(crate) struct PublishArgs {
    #[command(flatten)]
    pub(crate) ledger: LedgerArgs,
    /// Print exactly what would be written (the JSON), and write nothing.
    #[arg(long, conflicts_with_all = ["commit", "push"])]
    pub(crate) show_what_is_published: bool,
}

#[derive(Debug, Args)]
pub(crate) struct TeamArgs {
    /// The team's ledger folder: one folder per member, `<member>/<date>.json` (default:
    /// `[ledger] dir`).
    #[arg(long, value_name = "DIR")]
    pub(crate) ledger: Option<PathBuf>,
    /// The day: `today`, `yesterday` or `YYYY-MM-DD`.
    #[arg(long, default_value = "today", value_name = "DATE")]
    pub(crate) date: String,
    /// Language (default: the config's `lang`, else from LANG).
    #[arg(long, value_parser = lang_parser())]
    pub(crate) lang: Option<Lang>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Md)]
    pub(crate) format: FormatArg,
    /// Config file (default: $XDG_CONFIG_HOME/standup/config.toml).
    #[arg(long, value_name = "PATH")]
    pub(crate) config: Option<PathBuf>,
    /// Write the page to FILE instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Print no warnings on stderr.
    #[arg(short = 'q', long)]
    pub(crate) quiet: bool,
}

#[derive(Debug, Args)]
#[expect(clippy::struct_excessive_bools, reason = "independent command-line switches")]
pub(crate) struct ReportArgs {
    /// The day: `today`, `yesterday` or `YYYY-MM-DD`.
    #[arg(long, default_value = "today", value_name = "DATE")]
    pub(crate) date: String,
    /// Language of the Markdown (default: the config's `lang`, else from LANG).
    #[arg(long, value_parser = lang_parser())]
    pub(crate) lang: Option<Lang>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Md)]
    pub(crate) format: FormatArg,
    /// Never ask a local LLM for a narrative.
    #[arg(long, conflicts_with = "llm")]
    pub(crate) no_llm: bool,
    /// Ask the local LLM for a narrative this time even when `[llm] enabled` is `false` or
    /// `"auto"`, and warn when it fails.
    #[arg(long)]
    pub(crate) llm: bool,
    /// Ask the model again instead of reusing a cached narrative of the same request.
    #[arg(long)]
    pub(crate) no_cache: bool,
    /// Print the exact system and user messages a narrative request would send, and
    /// send nothing.
    #[arg(long)]
    pub(crate) show_prompt: bool,
    /// Print how long each stage took, on stderr.
    #[arg(long)]
    pub(crate) timings: bool,
    /// Config file (default: $XDG_CONFIG_HOME/standup/config.toml).
    #[arg(long, value_name = "PATH")]
    pub(crate) config: Option<PathBuf>,
    /// Write the report to FILE instead of stdout (`-` is stdout).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Put the report into the Markdown note FILE, between `<!-- standup:begin -->` and
    /// `<!-- standup:end -->` (the section is replaced, the rest of the note kept byte for
    /// byte; the note and its folders are created when missing).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["output", "daily_note", "show_prompt"])]
    pub(crate) append_to: Option<PathBuf>,
    /// Put the report into the daily note `[output] daily_note` names for the report's
    /// date, as --append-to does.
    #[arg(long, conflicts_with_all = ["output", "show_prompt"])]
    pub(crate) daily_note: bool,
    /// `daily` only: the first day of a range (`today`, `yesterday` or `YYYY-MM-DD`); one
    /// body per day up to --until, with totals over the range.
    #[arg(long, value_name = "DATE", conflicts_with = "date")]
    pub(crate) since: Option<String>,
    /// `daily` only: the last day of the range (default: today).
    #[arg(long, value_name = "DATE", requires = "since")]
    pub(crate) until: Option<String>,
    /// The body only: no Window line, Totals, warnings or footer (also `[render] compact`).
    #[arg(long)]
    pub(crate) compact: bool,
    /// Also put the report on the clipboard (with --format html, as rich text too).
    #[arg(long)]
    pub(crate) copy: bool,
    /// Print no warnings on stderr (they stay in the report and in JSON).
    #[arg(short = 'q', long)]
    pub(crate) quiet: bool,
    /// Merge the day of every machine: `[[machines]]` over ssh and the entries of
    /// `[ledger] dir` (also `[ledger] merge = true`).
    #[arg(long)]
    pub(crate) machines: bool,
    /// Color of warnings and errors on stderr (NO_COLOR, CLICOLOR and CLICOLOR_FORCE are
    /// honoured with `auto`).
    #[arg(long, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    pub(crate) color: ColorArg,
}

#[derive(Debug, Args)]
pub(crate) struct DoctorArgs {
    /// Config file (default: $XDG_CONFIG_HOME/standup/config.toml).
    #[arg(long, value_name = "PATH")]
    pub(crate) config: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct McpArgs {
    /// Config file every tool call reads (default: $XDG_CONFIG_HOME/standup/config.toml).
    #[arg(long, value_name = "PATH")]
    pub(crate) config: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub(crate) enum ScheduleCommand {
    /// Write the schedule (and enable it when a systemd user manager answers); running it
    /// again rewrites nothing that is already right.
    Install(ScheduleInstallArgs),
    /// Show what is installed and where, the next run, and the last lines of the log.
    Status,
    /// Remove what `install` wrote (disabling the timer first); the log is kept.
    Uninstall,
}

#[derive(Debug, Args)]
pub(crate) struct ScheduleInstallArgs {
    /// The time of day, `HH:MM` (24-hour, local time).
    #[arg(long, value_name = "HH:MM", value_parser = crate::schedule::At::parse)]
    pub(crate) at: crate::schedule::At,
    /// Monday to Friday only (default: every day).
    #[arg(long)]
    pub(crate) weekdays: bool,
    /// The config file the scheduled run reads (default: the usual one, as the scheduler
    /// sees it).
    #[arg(long, value_name = "PATH")]
    pub(crate) config: Option<PathBuf>,
    /// The scheduler (`auto`: systemd on Linux, launchd on macOS, else cron).
    #[arg(long, value_enum, default_value_t = ScheduleBackend::Auto)]
    pub(crate) backend: ScheduleBackend,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ScheduleBackend {
    /// systemd on Linux, launchd on macOS, else cron.
    Auto,
    /// A systemd user timer and service.
    Systemd,
    /// A launchd agent in ~/Library/LaunchAgents.
    Launchd,
    /// Print the crontab line (nothing is written).
    Cron,
}

#[derive(Debug, Subcommand)]
pub(crate) enum ConfigCommand {
    /// Write a commented default config file.
    Init {
        /// Overwrite an existing file.
        #[arg(long)]
        force: bool,
        /// Where to write it (default: $XDG_CONFIG_HOME/standup/config.toml).
        #[arg(long, value_name = "PATH")]
        config: Option<PathBuf>,
    },
    /// Print where the config file is read from.
    Path {
        /// A config path to echo back (as --config would use it).
        #[arg(long, value_name = "PATH")]
        config: Option<PathBuf>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormatArg {
    /// Markdown.
    Md,
    /// The Report as JSON, for other tools (`standup schema` prints its schema).
    Json,
    /// Slack mrkdwn: bold section titles, • bullets.
    Slack,
    /// Plain text without markup.
    Text,
    /// An HTML fragment, for rich-text paste into mail, Confluence, Notion, Teams.
    Html,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorArg {
    /// Color when stderr is a terminal, unless NO_COLOR or TERM=dumb says otherwise.
    Auto,
    /// Always color.
    Always,
    /// Never color.
    Never,
}

/// `--lang`: the values of [`Lang`], listed in `--help` and in the error for others.
fn lang_parser() -> impl clap::builder::TypedValueParser<Value = Lang> {
    PossibleValuesParser::new([Lang::En.as_str(), Lang::Ja.as_str()])
        .map(|name| if name == Lang::Ja.as_str() { Lang::Ja } else { Lang::En })
}
