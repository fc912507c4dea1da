//! The day ledger: a folder (a git work tree, or any synced folder) holding one JSON
//! report per machine or member and day, `<name>/<date>.json`.
//!
//! `standup record` writes this machine's day there; `standup publish` writes your day
//! for the team, holding only what `[publish] allow` lets through; `standup daily
//! --machines` reads the other machines' entries of the day. Every entry is written
//! atomically and replaces the same name's entry of that day. With `--commit` and
//! `--push` the user's own git commits and pushes it: standup never handles credentials
//! and sends nothing itself.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use clap::Parser as _;
use jiff::civil::Date;
use report_model::{BlockerKind, NoteKind, Report, ReportKind, Warning, WarningDetail};
use serde::Deserialize;
use toml::Spanned;

use crate::cli::{LedgerArgs, PublishArgs};
use crate::config::{Config, ConfigError};
use crate::machines::{Machine, MachineFile};
use crate::pipeline::ProcessEnv;
use crate::{Failure, write_stdout};

/// `[ledger]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct LedgerFile {
    dir: Option<PathBuf>,
    merge: bool,
    machine: Option<Spanned<String>>,
}

/// `[publish]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct PublishFile {
    allow: Option<Spanned<Vec<String>>>,
}

/// What `[publish] allow` may name, and the default (every one but the last four).
pub(crate) const PUBLISH_ITEMS: [&str; 9] =
    ["projects", "commits", "sessions", "next", "blockers", "shell", "wip", "paths", "remotes"];
const PUBLISH_DEFAULT: usize = 5;

/// `[[machines]]`, `[ledger]` and `[publish]`, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BeyondConfig {
    /// Other machines reached over ssh.
    pub(crate) machines: Vec<Machine>,
    /// `[ledger] dir` (`~` not yet expanded).
    pub(crate) ledger_dir: Option<PathBuf>,
    /// `[ledger] merge`: reports for people merge the machines' days without `--machines`.
    pub(crate) merge: bool,
    /// `[ledger] machine`: this machine's name (default: the host name).
    pub(crate) machine: Option<String>,
    /// `[publish] allow`.
    pub(crate) publish: Vec<String>,
}

impl Default for BeyondConfig {
    fn default() -> Self {
        BeyondConfig {
            machines: Vec::new(),
            ledger_dir: None,
            merge: false,
            machine: None,
            publish: PUBLISH_ITEMS[..PUBLISH_DEFAULT].iter().map(|&item| item.to_owned()).collect(),
        }
    }
}

/// Validates the three sections; errors name the line and the key.
#[expect(clippy::too_many_lines, reason = "one check per key, in the order of the keys")]
pub(crate) fn parse_config(
    machines: Vec<MachineFile>,
    ledger: LedgerFile,
    publish: PublishFile,
    text: &str,
    path: &Path,
) -> Result<BeyondConfig, ConfigError> {
    let invalid = |span: std::ops::Range<usize>, key: &str, message: String| ConfigError::Invalid {
        path: path.to_path_buf(),
        line: crate::config::line_of(text, span.start),
        key: key.to_owned(),
        message,
    };
    let mut config =
        BeyondConfig { ledger_dir: ledger.dir, merge: ledger.merge, ..BeyondConfig::default() };
    if let Some(machine) = ledger.machine {
        check_name(machine.get_ref())
            .map_err(|message| invalid(machine.span(), "ledger.machine", message))?;
        config.machine = Some(machine.into_inner());
    }
    for (index, file) in machines.into_iter().enumerate() {
        let at = |key: &str| format!("machines[{index}].{key}");
        let (Some(name), Some(ssh)) = (file.name, file.ssh) else {
            return Err(ConfigError::Invalid {
                path: path.to_path_buf(),
                line: 0,
                key: format!("machines[{index}]"),
                message: "a machine needs a `name` and an `ssh` destination".to_owned(),
            });
        };
        check_name(name.get_ref()).map_err(|message| invalid(name.span(), &at("name"), message))?;
        let destination = ssh.get_ref();
        if destination.is_empty()
            || destination.starts_with('-')
            || destination.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            return Err(invalid(
                ssh.span(),
                &at("ssh"),
                format!(
                    "`{}` is not an ssh destination (a host or `user@host`, as in `ssh devbox`)",
                    clean::quote(destination)
                ),
            ));
        }
        let mut timeout = crate::machines::DEFAULT_TIMEOUT_SECS;
        if let Some(secs) = file.timeout_secs {
            if !(1..=crate::machines::TIMEOUT_MAX_SECS).contains(secs.get_ref()) {
                return Err(invalid(
                    secs.span(),
                    &at("timeout_secs"),
                    format!(
                        "{} is out of range: a machine may take from 1 to {} seconds",
                        secs.get_ref(),
                        crate::machines::TIMEOUT_MAX_SECS
                    ),
                ));
            }
            timeout = *secs.get_ref();
        }
        let command = match file.command {
            Some(command) => {
                let program = command.get_ref();
                if program.is_empty()
                    || program.starts_with('-')
                    || program
                        .chars()
                        .any(|c| c.is_whitespace() || c.is_control() || "'\"`$;&|<>\\".contains(c))
                {
                    return Err(invalid(
                        command.span(),
                        &at("command"),
                        "expected a program name or path without spaces or shell characters"
                            .to_owned(),
                    ));
                }
                command.into_inner()
            }
            None => "standup".to_owned(),
        };
        if config.machines.iter().any(|known| &known.name == name.get_ref()) {
            return Err(invalid(
                name.span(),
                &at("name"),
                format!("`{}` is named twice", name.get_ref()),
            ));
        }
        config.machines.push(Machine {
            name: name.into_inner(),
            ssh: ssh.into_inner(),
            timeout: Duration::from_secs(timeout.unsigned_abs()),
            command,
        });
    }
    if let Some(allow) = publish.allow {
        for item in allow.get_ref() {
            if !PUBLISH_ITEMS.contains(&item.as_str()) {
                return Err(invalid(
                    allow.span(),
                    "publish.allow",
                    format!(
                        "`{}` is not something to publish (expected some of {})",
                        clean::quote(item),
                        PUBLISH_ITEMS.map(|item| format!("`{item}`")).join(", ")
                    ),
                ));
            }
        }
        config.publish = allow.into_inner();
    }
    Ok(config)
}

/// A name that can be a folder of the ledger: not empty, not `.` or `..`, no `/`, no
/// leading dot, no control character, at most 64 characters.
fn check_name(name: &str) -> Result<(), String> {
    if safe_name(name) == name {
        Ok(())
    } else {
        Err(format!(
            "`{}` cannot name a ledger folder (letters, digits, `-`, `_`, `.`, `@`, at most 64 characters, not starting with `.`)",
            clean::quote(name)
        ))
    }
}

/// `name` made into a safe folder name: other characters become `-`, a leading dot goes.
pub(crate) fn safe_name(name: &str) -> String {
    let mapped: String = name
        .trim()
        .chars()
        .map(|c| if c.is_alphanumeric() || "-_.@".contains(c) { c } else { '-' })
        .take(64)
        .collect();
    let trimmed = mapped.trim_start_matches('.');
    if trimmed.is_empty() { "unnamed".to_owned() } else { trimmed.to_owned() }
}

/// This machine's name: `[ledger] machine`, else the host name.
pub(crate) fn this_machine(config: &Config) -> String {
    if let Some(machine) = &config.beyond.machine {
        return machine.clone();
    }
    let host = ["/proc/sys/kernel/hostname", "/etc/hostname"]
        .iter()
        .find_map(|path| fs_err::read_to_string(path).ok())
        .map(|text| text.trim().to_owned())
        .filter(|host| !host.is_empty())
        .unwrap_or_else(|| "localhost".to_owned());
    safe_name(host.split('.').next().unwrap_or(&host))
}

/// The largest entry read: a day's report is far smaller.
const ENTRY_MAX_BYTES: u64 = 64 << 20;

/// The entries of `dates` of every name in `dir` but `skip` (this machine: its live
/// collection stands), sorted by name; each unreadable, stale or foreign entry is a
/// warning. Only `<name>/<date>.json` of the dates asked for is opened: the folder's
/// top level is listed once, whatever else it holds.
pub(crate) fn read_days(
    dir: &Path,
    dates: &[Date],
    skip: &str,
) -> (Vec<(String, Report)>, Vec<Warning>) {
    let mut entries = Vec::new();
    let mut warnings = Vec::new();
    let names = match list_names(dir) {
        Ok(names) => names,
        Err(error) => {
            let shown = clean::quote(&dir.to_string_lossy());
            warnings.push(Warning::new(WarningDetail::LedgerFolderUnreadable {
                path: shown,
                error: error.clone(),
            }));
            return (entries, warnings);
        }
    };
    for name in names.into_iter().filter(|name| name != skip) {
        for date in dates {
            match read_entry(dir, &name, *date) {
                Ok(Some(report)) => entries.push((name.clone(), report)),
                Ok(None) => {}
                Err(warning) => warnings.push(warning),
            }
        }
    }
    (entries, warnings)
}

/// The folders at the top of `dir` that can be names, sorted (dot folders such as
/// `.git` are not members).
pub(crate) fn list_names(dir: &Path) -> Result<Vec<String>, String> {
    let listing = fs_err::read_dir(dir).map_err(|error| error.kind().to_string())?;
    let mut names: Vec<String> = listing
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| safe_name(name) == *name)
        .collect();
    names.sort();
    Ok(names)
}

/// `<dir>/<name>/<date>.json`: nothing when there is none; a warning when it cannot be
/// read, is not a report of this schema, or is not that date's.
pub(crate) fn read_entry(dir: &Path, name: &str, date: Date) -> Result<Option<Report>, Warning> {
    let relative = format!("{name}/{date}.json");
    let path = dir.join(&relative);
    let unreadable = |error: String| {
        Warning::new(WarningDetail::LedgerEntryUnreadable { path: relative.clone(), error })
    };
    let metadata = match fs_err::symlink_metadata(&path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(unreadable(error.kind().to_string())),
    };
    if !metadata.is_file() {
        return Err(unreadable("not a regular file".to_owned()));
    }
    if metadata.len() > ENTRY_MAX_BYTES {
        return Err(unreadable(format!("larger than {} MiB", ENTRY_MAX_BYTES >> 20)));
    }
    let bytes = fs_err::read(&path).map_err(|error| unreadable(error.kind().to_string()))?;
    let report = crate::machines::parse_report(&bytes).map_err(|problem| match problem {
        crate::machines::Problem::Schema(found) => {
            crate::machines::schema_mismatch(name, true, &found)
        }
        crate::machines::Problem::Malformed(error) => unreadable(error),
    })?;
    // A stale entry (a file renamed or copied from another day) is not that day.
    let found: Vec<String> =
        report.buckets.iter().map(|bucket| bucket.window.date.to_string()).collect();
    if !report.buckets.iter().any(|bucket| bucket.window.date == date) {
        let found = found.join(", ");
        return Err(Warning::new(WarningDetail::LedgerWrongDate { path: relative, date, found }));
    }
    Ok(Some(report))
}

/// This machine's live report of one day, as `standup daily --format json --no-llm`
/// gives it (this machine only, whatever `[ledger] merge` says).
fn day_report(env: &ProcessEnv, args: &LedgerArgs) -> Result<(Report, Config), Failure> {
    let mut command_line: Vec<std::ffi::OsString> =
        ["standup", "daily", "--format", "json", "--no-llm", "--quiet"]
            .iter()
            .map(Into::into)
            .collect();
    command_line.extend(["--date".into(), args.date.clone().into()]);
    if let Some(config) = &args.config {
        command_line.extend(["--config".into(), config.clone().into_os_string()]);
    }
    let cli = crate::cli::Cli::try_parse_from(command_line)
        .map_err(|error| Failure::Usage(anyhow::anyhow!("{}", error.render())))?;
    let Some(crate::cli::Command::Daily(report_args)) = cli.command else {
        return Err(Failure::Usage(anyhow::anyhow!("internal: not a daily report")));
    };
    let config = crate::pipeline::load_config_for(env, args.config.as_deref())?;
    match crate::pipeline::render_report(env, ReportKind::Daily, &report_args)? {
        crate::pipeline::Rendered::Report { report, .. } => Ok((*report, config)),
        crate::pipeline::Rendered::Prompt(_) => {
            Err(Failure::Usage(anyhow::anyhow!("internal: a prompt instead of a report")))
        }
    }
}

/// `standup record`.
pub(crate) fn record(env: &ProcessEnv, args: &LedgerArgs) -> Result<(), Failure> {
    let (report, config) = day_report(env, args)?;
    let dir = ledger_or_usage(env, args, &config)?;
    let name = this_machine(&config);
    write_entry(env, &dir, &name, &report, args)
}

/// `standup publish`.
pub(crate) fn publish(env: &ProcessEnv, args: &PublishArgs) -> Result<(), Failure> {
    let (mut report, config) = day_report(env, &args.ledger)?;
    let member = member_name(env, &config);
    published(&mut report, &config.beyond.publish);
    if args.show_what_is_published {
        let dir = crate::machines::ledger_dir(env, args.ledger.ledger.as_ref(), &config);
        let destination = dir.map_or_else(
            || "(no [ledger] dir)".to_owned(),
            |dir| {
                dir.join(&member).join(format!("{}.json", date_of(&report))).display().to_string()
            },
        );
        // Exactly the bytes `publish` would write on stdout; where, on stderr.
        crate::print_progress(&format!(
            "standup publish would write {}\n",
            clean::message(&destination)
        ));
        return write_stdout(render::json(&report).as_bytes());
    }
    let dir = ledger_or_usage(env, &args.ledger, &config)?;
    write_entry(env, &dir, &member, &report, &args.ledger)
}

fn ledger_or_usage(
    env: &ProcessEnv,
    args: &LedgerArgs,
    config: &Config,
) -> Result<PathBuf, Failure> {
    crate::machines::ledger_dir(env, args.ledger.as_ref(), config).ok_or_else(|| {
        Failure::Usage(anyhow::anyhow!(
            "no ledger folder: set `[ledger] dir` in the config or pass --ledger DIR"
        ))
    })
}

/// The member name: `[identity] name`, else git's global `user.name`, made safe for a
/// folder name.
fn member_name(env: &ProcessEnv, config: &Config) -> String {
    if let Some(name) = &config.member_name {
        return safe_name(name);
    }
    let identity = collect::git::global_identity(&env.collect_env(), config.git.timeout);
    identity.names.first().map_or_else(|| this_machine(config), |name| safe_name(name))
}

fn date_of(report: &Report) -> Date {
    report.buckets.last().map_or(Date::ZERO, |bucket| bucket.window.date)
}

/// Writes `<dir>/<name>/<date>.json` atomically (replacing that name's entry of the day),
/// then commits and pushes it when asked.
fn write_entry(
    env: &ProcessEnv,
    dir: &Path,
    name: &str,
    report: &Report,
    args: &LedgerArgs,
) -> Result<(), Failure> {
    let date = date_of(report);
    let folder = dir.join(name);
    fs_err::create_dir_all(&folder)
        .context("creating the ledger folder")
        .map_err(Failure::Runtime)?;
    let path = folder.join(format!("{date}.json"));
    crate::pipeline::write_atomically(&path, render::json(report).as_bytes())
        .context("writing the ledger entry")
        .map_err(Failure::Runtime)?;
    let relative = format!("{name}/{date}.json");
    let mut said = format!("wrote {}\n", clean::message(&path.to_string_lossy()));
    if args.commit || args.push {
        let collect_env = env.collect_env();
        git(&collect_env, dir, &["add", "--", &relative])?;
        // Nothing staged (the same day recorded again): nothing to commit.
        let staged =
            git_status(&collect_env, dir, &["diff", "--cached", "--quiet", "--", &relative])?;
        if staged == Some(1) {
            git(
                &collect_env,
                dir,
                &["commit", "-q", "-m", &format!("standup: {name} {date}"), "--", &relative],
            )?;
            let _ = writeln!(said, "committed {relative}");
        } else {
            let _ = writeln!(said, "{relative} unchanged: nothing to commit");
        }
        if args.push {
            git(&collect_env, dir, &["push", "-q"])?;
            said.push_str("pushed\n");
        }
    }
    write_stdout(said.as_bytes())
}

/// How long a git commit or push in the ledger may take.
const GIT_DEADLINE: Duration = Duration::from_secs(120);

/// Runs the user's git in `dir`; a failure stops the run with git's message.
fn git(env: &collect::Env, dir: &Path, args: &[&str]) -> Result<(), Failure> {
    git_status(env, dir, args).map(|_| ())
}

/// Runs git in `dir` with a deadline: `Some(0)`, or `Some(1)` for the commands that
/// answer with it (`diff --quiet`); anything else is an error naming the command.
fn git_status(env: &collect::Env, dir: &Path, args: &[&str]) -> Result<Option<i32>, Failure> {
    let mut command = collect::git::command(env);
    command.arg("-C").arg(dir).args(args);
    let shown = format!("git {}", args.first().copied().unwrap_or_default());
    match crate::machines::run_with_deadline(command, GIT_DEADLINE, 1 << 20) {
        Ok(output) if output.code == Some(0) => Ok(Some(0)),
        Ok(output) if output.code == Some(1) && args.first() == Some(&"diff") => Ok(Some(1)),
        Ok(output) => {
            let text = String::from_utf8_lossy(&output.stderr);
            let message = text
                .lines()
                .find(|line| !line.trim().is_empty())
                .unwrap_or("failed")
                .trim()
                .to_owned();
            Err(Failure::Runtime(anyhow::anyhow!(
                "{shown} in the ledger `{}` failed: {}",
                dir.display(),
                clean::quote(&message)
            )))
        }
        Err(crate::machines::RunError::TimedOut) => Err(Failure::Runtime(anyhow::anyhow!(
            "{shown} in the ledger `{}` did not finish within {} s: stopped",
            dir.display(),
            GIT_DEADLINE.as_secs()
        ))),
        Err(crate::machines::RunError::Spawn(error)) => {
            Err(Failure::Runtime(anyhow::anyhow!("{shown} could not be started: {error}")))
        }
    }
}

/// Keeps only what `allow` lets through, in place: no warnings (they name paths), no
/// narrative; project paths only with `paths` (else the project's name stands for it),
/// remotes only with `remotes`, shell commands only with `shell` (a failing-command
/// blocker then names the command's head only), work in progress only with `wip`; the
/// person's notes of the day: a plan only with `next`, a blocker only with `blockers`, a
/// plain note never (their words for their own report); a ticket key only with the
/// commits or sessions that name it; then every total is recomputed from what is left.
/// A published day is a daily report: its outlook holds no carried plans and no open
/// work, only notes and tickets.
pub(crate) fn published(report: &mut Report, allow: &[String]) {
    let allowed = |item: &str| allow.iter().any(|known| known == item);
    report.warnings.clear();
    report.narrative = None;
    report.narrative_check = None;
    report.outlook.notes.retain(|note| match note.kind {
        NoteKind::Plan => allowed("next"),
        NoteKind::Blocker => allowed("blockers"),
        NoteKind::Note => false,
    });
    for ticket in &mut report.outlook.tickets {
        if !allowed("commits") {
            ticket.commits.clear();
        }
        if !allowed("sessions") {
            ticket.sessions.clear();
        }
    }
    report
        .outlook
        .tickets
        .retain(|ticket| !ticket.commits.is_empty() || !ticket.sessions.is_empty());
    let grouping = aggregate::ShellGrouping::default();
    let blocker_text = |blockers: &mut Vec<report_model::Blocker>| {
        if !allowed("blockers") {
            blockers.clear();
        }
        if !allowed("shell") {
            for blocker in blockers.iter_mut().filter(|blocker| {
                matches!(
                    blocker.kind,
                    BlockerKind::FailingCommand | BlockerKind::AgentFailingCommand
                )
            }) {
                blocker.text =
                    aggregate::head(&blocker.text, &grouping.two_word).unwrap_or_default();
            }
        }
    };
    for bucket in &mut report.buckets {
        if !allowed("shell") {
            bucket.shell.clear();
        }
        blocker_text(&mut bucket.blockers);
        for project in &mut bucket.projects {
            if !allowed("commits") {
                project.commits.clear();
            }
            if !allowed("sessions") {
                project.sessions.clear();
            }
            if !allowed("next") {
                project.next.clear();
            }
            if !allowed("shell") {
                project.shell.clear();
                project.commands = 0;
                project.totals.agent_commands = 0;
            }
            if !allowed("wip") {
                project.wip = None;
            }
            if !allowed("remotes") {
                project.remote = None;
            }
            if !allowed("paths") && !project.path.as_os_str().is_empty() {
                project.path = PathBuf::from(&project.name);
                // Told apart by the folders above it: a part of its path.
                project.qualifier = None;
            }
            if !allowed("projects") {
                project.name = String::new();
                project.qualifier = None;
                project.path = PathBuf::new();
            }
            blocker_text(&mut project.blockers);
        }
        bucket.projects.retain(|project| {
            !(project.commits.is_empty()
                && project.sessions.is_empty()
                && project.shell.is_empty()
                && project.next.is_empty()
                && project.blockers.is_empty()
                && project.wip.is_none())
        });
    }
    aggregate::retotal(report);
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn parse(text: &str) -> Result<Config, String> {
        crate::config::parse(Path::new("/home/me/.config/standup/config.toml"), text)
            .map_err(|error| error.to_string())
    }

    #[test]
    fn machines_ledger_and_publish_are_read_and_checked() {
        let config = parse(
            "[ledger]\ndir = \"~/ledger\"\nmachine = \"laptop\"\nmerge = true\n[publish]\nallow = [\"commits\", \"shell\"]\n[[machines]]\nname = \"devbox\"\nssh = \"me@devbox.example\"\ntimeout_secs = 5\n",
        )
        .unwrap();
        let beyond = &config.beyond;
        assert_eq!(beyond.machine.as_deref(), Some("laptop"));
        assert!(beyond.merge);
        assert_eq!(beyond.publish, ["commits", "shell"]);
        assert_eq!(beyond.machines[0].ssh, "me@devbox.example");
        assert_eq!(beyond.machines[0].timeout, Duration::from_secs(5));
        assert_eq!(beyond.machines[0].command, "standup");
        let defaults = parse("").unwrap().beyond;
        assert_eq!(defaults.publish, ["projects", "commits", "sessions", "next", "blockers"]);

        insta::assert_snapshot!(
            parse("[[machines]]\nname = \"x\"\nssh = \"-oProxyCommand=evil\"\n").unwrap_err(),
            @"config `/home/me/.config/standup/config.toml` line 3, key `machines[0].ssh`: `-oProxyCommand=evil` is not an ssh destination (a host or `user@host`, as in `ssh devbox`)"
        );
        insta::assert_snapshot!(
            parse("[[machines]]\nname = \"../up\"\nssh = \"h\"\n").unwrap_err(),
            @"config `/home/me/.config/standup/config.toml` line 2, key `machines[0].name`: `../up` cannot name a ledger folder (letters, digits, `-`, `_`, `.`, `@`, at most 64 characters, not starting with `.`)"
        );
        insta::assert_snapshot!(
            parse("[publish]\nallow = [\"paths\", \"everything\"]\n").unwrap_err(),
            @"config `/home/me/.config/standup/config.toml` line 2, key `publish.allow`: `everything` is not something to publish (expected some of `projects`, `commits`, `sessions`, `next`, `blockers`, `shell`, `wip`, `paths`, `remotes`)"
        );
        insta::assert_snapshot!(
            parse("[[machines]]\nname = \"a\"\nssh = \"a\"\ntimeout_secs = 0\n").unwrap_err(),
            @"config `/home/me/.config/standup/config.toml` line 4, key `machines[0].timeout_secs`: 0 is out of range: a machine may take from 1 to 600 seconds"
        );
    }

    #[test]
    fn names_become_folder_names() {
        assert_eq!(safe_name("Bob Builder"), "Bob-Builder");
        assert_eq!(safe_name("../etc"), "-etc");
        assert_eq!(safe_name(".hidden"), "hidden");
        assert_eq!(safe_name("  "), "unnamed");
        assert_eq!(safe_name("山田"), "山田");
    }
}
