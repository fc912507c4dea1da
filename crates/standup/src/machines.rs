//! One day across several machines (`standup daily --machines`): each `[[machines]]`
//! entry asked over ssh for its own day as JSON, the ledger's entries of the day read,
//! and everything merged with this machine's live report by `aggregate::merge`.
//!
//! ssh does the transport with the user's own configuration and keys, in batch mode (it
//! never asks for a password); every ssh process has a deadline and is stopped, with
//! whatever it started, when it passes. A machine that fails is one warning naming it.

use std::io::Read as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use report_model::{Report, ReportKind, SCHEMA_VERSION, Warning, WarningDetail};
use serde::Deserialize;
use toml::Spanned;

use crate::cli::ReportArgs;
use crate::config::Config;

/// `[[machines]]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct MachineFile {
    pub(crate) name: Option<Spanned<String>>,
    pub(crate) ssh: Option<Spanned<String>>,
    pub(crate) timeout_secs: Option<Spanned<i64>>,
    pub(crate) command: Option<Spanned<String>>,
}

/// One other machine, reached over ssh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Machine {
    /// Its name in reports (`[devbox]`) and in the ledger.
    pub(crate) name: String,
    /// The OpenSSH destination (`devbox`, `me@devbox.example`).
    pub(crate) ssh: String,
    /// How long the whole ssh run may take.
    pub(crate) timeout: Duration,
    /// The program run there (`standup`, or a path).
    pub(crate) command: String,
}

/// The default deadline of one machine.
pub(crate) const DEFAULT_TIMEOUT_SECS: i64 = 30;
/// The longest deadline `[[machines]] timeout_secs` accepts.
pub(crate) const TIMEOUT_MAX_SECS: i64 = 600;
/// The most a machine's answer may weigh.
const ANSWER_MAX_BYTES: u64 = 64 << 20;
/// What of ssh's stderr is kept for a warning.
const STDERR_MAX_BYTES: u64 = 4096;
const POLL: Duration = Duration::from_millis(20);

/// Sets each project's normalized remote URL from what collect read of its repository
/// (cleaned like every gathered string).
pub(crate) fn set_remotes(report: &mut Report, reads: &[collect::git::RepoRead], config: &Config) {
    let mut cleaner = clean::Cleaner::new(config.redactor(), config.max_chars);
    for project in report.buckets.iter_mut().flat_map(|bucket| &mut bucket.projects) {
        let remote = reads
            .iter()
            .find(|read| read.project.path == project.path)
            .and_then(|read| read.remote.clone());
        project.remote = remote.map(|mut remote| {
            cleaner.other(&mut remote, config.max_chars);
            remote
        });
    }
}

/// Whether this run merges machines: `--machines`, or `[ledger] merge = true` for a
/// report read by people (JSON without `--machines` is always this machine's own day:
/// it is what another machine asks for over ssh and what `record` writes).
pub(crate) fn wanted(args: &ReportArgs, config: &Config) -> bool {
    args.machines
        || (config.beyond.merge && args.format != crate::cli::FormatArg::Json && !args.show_prompt)
}

/// Asks every machine, reads the ledger, and merges it all into `report`. Warnings go
/// into the report.
pub(crate) fn merge_day(
    env: &crate::pipeline::ProcessEnv,
    config: &Config,
    kind: ReportKind,
    args: &ReportArgs,
    report: Report,
) -> Report {
    let local = crate::ledger::this_machine(config);
    let dates: Vec<jiff::civil::Date> =
        report.buckets.iter().map(|bucket| bucket.window.date).collect();
    let mut warnings = Vec::new();
    let mut others = Vec::new();
    // The machines are asked at the same time: the slowest one sets the wait.
    let answers: Vec<(String, Result<Report, Warning>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = config
            .beyond
            .machines
            .iter()
            .filter(|machine| machine.name != local)
            .map(|machine| {
                let remote = remote_args(kind, args, &dates);
                scope.spawn(move || (machine.name.clone(), ask(machine, &remote)))
            })
            .collect();
        handles.into_iter().filter_map(|handle| handle.join().ok()).collect()
    });
    for (name, answer) in answers {
        match answer.and_then(|theirs| check_kind(&name, theirs, kind)) {
            Ok(theirs) => others.push(aggregate::MachineReport { machine: name, report: theirs }),
            Err(warning) => warnings.push(warning),
        }
    }
    let asked: Vec<String> = others.iter().map(|other| other.machine.clone()).collect();
    if let Some(dir) = config.beyond.ledger_dir.as_ref().map(|dir| env.expand_tilde(dir)) {
        let (entries, ledger_warnings) = crate::ledger::read_days(&dir, &dates, &local);
        warnings.extend(ledger_warnings);
        for (name, theirs) in entries {
            // A machine that answered live is not also taken from the ledger.
            if asked.contains(&name) {
                continue;
            }
            match check_kind(&name, theirs, kind) {
                Ok(theirs) => {
                    match others.iter_mut().find(|other| other.machine == name) {
                        // The same machine on several dates (a standup's two days).
                        Some(known) => known.report.buckets.extend(theirs.buckets),
                        None => {
                            others.push(aggregate::MachineReport { machine: name, report: theirs });
                        }
                    }
                }
                Err(warning) => warnings.push(warning),
            }
        }
    }
    let mut cleaner = clean::Cleaner::new(config.redactor(), config.max_chars);
    for other in &mut others {
        crate::team::clean_report(&mut cleaner, &mut other.report, config.max_chars);
    }
    let mut merged = aggregate::merge(
        aggregate::MachineReport { machine: local, report },
        others,
        config.time_rules,
    );
    cleaner.warnings(&mut warnings);
    merged.warnings.extend(warnings);
    merged.warnings.sort();
    merged.warnings.dedup();
    merged
}

/// Another machine's report must be of this report's kind (a ledger entry is a daily
/// report, which stands for its date in any kind).
fn check_kind(name: &str, theirs: Report, kind: ReportKind) -> Result<Report, Warning> {
    if theirs.kind == kind || theirs.kind == ReportKind::Daily {
        return Ok(theirs);
    }
    Err(Warning::new(WarningDetail::MachineOtherKind { machine: name.to_owned() }))
}

/// `<kind> --format json --no-llm --date <date>` (or `--since`/`--until` for a range).
fn remote_args(kind: ReportKind, args: &ReportArgs, dates: &[jiff::civil::Date]) -> Vec<String> {
    let name = match kind {
        ReportKind::Daily | ReportKind::Range => "daily",
        ReportKind::Standup => "standup",
        ReportKind::Week => "week",
    };
    let mut remote =
        vec![name.to_owned(), "--format".to_owned(), "json".to_owned(), "--no-llm".to_owned()];
    match (kind, dates.first(), dates.last()) {
        (ReportKind::Range, Some(first), Some(last)) => {
            remote.extend([
                "--since".to_owned(),
                first.to_string(),
                "--until".to_owned(),
                last.to_string(),
            ]);
        }
        (ReportKind::Daily | ReportKind::Standup, _, Some(last)) => {
            remote.extend(["--date".to_owned(), last.to_string()]);
        }
        (ReportKind::Week, Some(first), _) => {
            remote.extend(["--date".to_owned(), first.to_string()]);
        }
        _ => remote.extend(["--date".to_owned(), args.date.clone()]),
    }
    remote
}

/// Runs `ssh -o BatchMode=yes -o ConnectTimeout=N <dest> <command> <argv…>` with the
/// machine's deadline and reads its answer as a report.
fn ask(machine: &Machine, argv: &[String]) -> Result<Report, Warning> {
    let connect = machine.timeout.as_secs().clamp(1, 30);
    #[expect(
        clippy::disallowed_methods,
        reason = "the one place ssh is started: a fixed argv, no shell on this side"
    )]
    let mut command = Command::new("ssh");
    command
        .args(["-o", "BatchMode=yes", "-o"])
        .arg(format!("ConnectTimeout={connect}"))
        // Ends ssh's options: a destination can never be read as one.
        .arg("--")
        .arg(&machine.ssh)
        .arg(&machine.command)
        .args(argv)
        .stdin(Stdio::null());
    let output = run_with_deadline(command, machine.timeout, ANSWER_MAX_BYTES);
    let name = machine.name.as_str();
    let output = match output {
        Ok(output) => output,
        Err(RunError::TimedOut) => {
            let seconds = machine.timeout.as_secs();
            return Err(Warning::new(WarningDetail::MachineTimedOut {
                machine: name.to_owned(),
                seconds,
            }));
        }
        Err(RunError::Spawn(error)) => return Err(unreachable(name, &error)),
    };
    match output.code {
        Some(0) => {}
        Some(127) => {
            return Err(Warning::new(WarningDetail::MachineNoStandup {
                machine: name.to_owned(),
                command: machine.command.clone(),
            }));
        }
        Some(255) | None => {
            let excerpt = excerpt(&output.stderr);
            let error = if excerpt.is_empty() { "ssh failed".to_owned() } else { excerpt };
            return Err(unreachable(name, &error));
        }
        Some(code) => {
            let excerpt = excerpt(&output.stderr);
            let error = if excerpt.is_empty() {
                format!("exited with status {code}")
            } else {
                format!("exited with status {code}: {excerpt}")
            };
            return Err(failed(name, &error));
        }
    }
    if output.truncated {
        return Err(failed(name, "the answer is too large"));
    }
    parse_report(&output.stdout).map_err(|problem| match problem {
        Problem::Schema(found) => schema_mismatch(name, false, &found),
        Problem::Malformed(error) => failed(name, &error),
    })
}

fn unreachable(name: &str, error: &str) -> Warning {
    Warning::new(WarningDetail::MachineUnreachable {
        machine: name.to_owned(),
        error: error.to_owned(),
    })
}

fn failed(name: &str, error: &str) -> Warning {
    Warning::new(WarningDetail::MachineFailed { machine: name.to_owned(), error: error.to_owned() })
}

/// A report of another schema version, from a machine or a ledger entry (`ledger`).
pub(crate) fn schema_mismatch(name: &str, ledger: bool, found: &str) -> Warning {
    Warning::new(WarningDetail::MachineSchemaMismatch {
        machine: name.to_owned(),
        ledger,
        found: found.to_owned(),
        expected: SCHEMA_VERSION,
    })
}

/// Why bytes are not a report this standup reads.
pub(crate) enum Problem {
    /// Another `schema_version` (as written).
    Schema(String),
    /// Not JSON of the report's form.
    Malformed(String),
}

/// A report in JSON of this schema version.
pub(crate) fn parse_report(bytes: &[u8]) -> Result<Report, Problem> {
    let value: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|error| Problem::Malformed(format!("not JSON: line {}", error.line())))?;
    match value.get("schema_version") {
        Some(serde_json::Value::Number(version))
            if version.as_u64() == Some(u64::from(SCHEMA_VERSION)) => {}
        Some(serde_json::Value::Number(version)) => {
            return Err(Problem::Schema(version.to_string()));
        }
        _ => return Err(Problem::Malformed("no schema_version".to_owned())),
    }
    serde_json::from_value(value).map_err(|error| {
        Problem::Malformed(format!("not a report: {}", clean::quote(&error.to_string())))
    })
}

/// The first line of a process's stderr, cleaned and short.
fn excerpt(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let line = text.lines().map(str::trim).find(|line| !line.is_empty()).unwrap_or_default();
    clean::quote(line)
}

/// What a process run with a deadline gave.
pub(crate) struct Output {
    /// Its exit status; `None` when a signal ended it.
    pub(crate) code: Option<i32>,
    pub(crate) stdout: Vec<u8>,
    pub(crate) stderr: Vec<u8>,
    /// Whether stdout went past the cap (and was cut).
    pub(crate) truncated: bool,
}

/// Why a process gave no output.
pub(crate) enum RunError {
    /// It was still running at the deadline: it and what it started were stopped.
    TimedOut,
    /// It could not be started.
    Spawn(String),
}

/// Runs `command` in a process group of its own, reading stdout (up to `max_bytes`) and
/// stderr; past `deadline` the whole group is killed. Nothing waits longer than that.
pub(crate) fn run_with_deadline(
    mut command: Command,
    deadline: Duration,
    max_bytes: u64,
) -> Result<Output, RunError> {
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let started = Instant::now();
    let mut child = command.spawn().map_err(|error| RunError::Spawn(error.kind().to_string()))?;
    let group = rustix::process::Pid::from_child(&child);
    let stop_group = || {
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    };
    let (sender, receiver) = std::sync::mpsc::channel::<(bool, Vec<u8>)>();
    let stdout = child.stdout.take();
    let out_sender = sender.clone();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(stdout) = stdout {
            let _ = stdout.take(max_bytes.saturating_add(1)).read_to_end(&mut out);
        }
        let _ = out_sender.send((true, out));
    });
    let stderr = child.stderr.take();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(stderr) = stderr {
            let _ = stderr.take(STDERR_MAX_BYTES).read_to_end(&mut out);
        }
        let _ = sender.send((false, out));
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() >= deadline => {
                stop_group();
                let _ = child.wait();
                return Err(RunError::TimedOut);
            }
            Ok(None) => std::thread::sleep(POLL),
            Err(error) => {
                stop_group();
                return Err(RunError::Spawn(error.kind().to_string()));
            }
        }
    };
    // Done: what it left running is stopped, so that its pipes close.
    stop_group();
    let (mut stdout, mut stderr) = (None, None);
    while stdout.is_none() || stderr.is_none() {
        let left = deadline.saturating_sub(started.elapsed()).max(Duration::from_millis(100));
        match receiver.recv_timeout(left) {
            Ok((true, bytes)) => stdout = Some(bytes),
            Ok((false, bytes)) => stderr = Some(bytes),
            Err(_) => return Err(RunError::TimedOut),
        }
    }
    let mut stdout = stdout.unwrap_or_default();
    let truncated = stdout.len() as u64 > max_bytes;
    stdout.truncate(usize::try_from(max_bytes).unwrap_or(usize::MAX));
    Ok(Output { code: status.code(), stdout, stderr: stderr.unwrap_or_default(), truncated })
}

/// The ledger folder a run uses, `~` expanded.
pub(crate) fn ledger_dir(
    env: &crate::pipeline::ProcessEnv,
    explicit: Option<&PathBuf>,
    config: &Config,
) -> Option<PathBuf> {
    explicit.or(config.beyond.ledger_dir.as_ref()).map(|dir| env.expand_tilde(dir))
}
