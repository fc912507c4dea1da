//! The `standup` binary: the command line, the config file, the clock and the time zone,
//! and the wiring of the pipeline (collect → sanitize → redact → aggregate → render).
//! Everything worth a unit test lives in a library crate.

mod cli;
mod clipboard;
mod config;
mod daynotes;
mod diag;
mod doctor;
mod env_vars;
mod ledger;
mod machines;
mod mcp;
mod native;
mod notes;
mod pipeline;
mod schedule;
mod team;
mod template;

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser as _;

use crate::cli::{Cli, Command, ConfigCommand};

/// Exit codes, decided here once (also listed in `--help` and ARCHITECTURE.md).
mod exit {
    /// A report was written (warnings included).
    pub(crate) const OK: u8 = 0;
    /// No report could be produced.
    pub(crate) const FAILURE: u8 = 1;
    /// A usage or config error.
    pub(crate) const USAGE: u8 = 2;
}

/// Why a run failed, which picks the exit code.
#[derive(Debug)]
enum Failure {
    /// Bad arguments, config or environment: exit 2.
    Usage(anyhow::Error),
    /// Anything else that stopped the report: exit 1.
    Runtime(anyhow::Error),
}

fn main() -> ExitCode {
    // `--copy`'s background helper: not a command of the CLI, so completions, the man
    // page and `--help` never offer it.
    let mut args = std::env::args_os().skip(1);
    let first = args.next();
    // `[render] template`'s bounded renderer, likewise internal.
    if first.as_deref().is_some_and(|first| first == template::HELPER_ARG) {
        return ExitCode::from(template::serve());
    }
    if first.is_some_and(|first| first == clipboard::HELPER_ARG) {
        let html = args.next().is_some_and(|flag| flag == "--html");
        return ExitCode::from(if clipboard::serve(html).is_ok() {
            exit::OK
        } else {
            exit::FAILURE
        });
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => {
            // `--help` and `--version`: our own text.
            let _ = error.print();
            return ExitCode::from(exit::OK);
        }
        Err(error) => {
            // clap quotes the offending argument: clean it like any echoed input.
            print_usage(&error.render().to_string());
            return ExitCode::from(exit::USAGE);
        }
    };
    let (color, quiet) = match &cli.command {
        Some(Command::Daily(args) | Command::Standup(args) | Command::Week(args)) => {
            (args.color, args.quiet)
        }
        Some(
            Command::Record(args) | Command::Publish(crate::cli::PublishArgs { ledger: args, .. }),
        ) => (crate::cli::ColorArg::Auto, args.quiet),
        Some(Command::Team(args)) => (crate::cli::ColorArg::Auto, args.quiet),
        _ => (cli.report.color, cli.report.quiet),
    };
    diag::init(color, quiet);
    let code = match run(cli) {
        Ok(()) => exit::OK,
        Err(Failure::Usage(error)) => {
            print_error(&error);
            exit::USAGE
        }
        Err(Failure::Runtime(error)) => {
            // A reader that went away (`standup daily | head -1`) is not an error.
            if is_broken_pipe(&error) {
                exit::OK
            } else {
                print_error(&error);
                exit::FAILURE
            }
        }
    };
    ExitCode::from(code)
}

fn run(cli: Cli) -> Result<(), Failure> {
    let env = pipeline::ProcessEnv::capture();
    match cli.command {
        // Bare `standup` is the command people type every morning: the standup update.
        None => pipeline::report(&env, report_model::ReportKind::Standup, &cli.report),
        Some(Command::Daily(args)) => {
            pipeline::report(&env, report_model::ReportKind::Daily, &args)
        }
        Some(Command::Standup(args)) => {
            pipeline::report(&env, report_model::ReportKind::Standup, &args)
        }
        Some(Command::Week(args)) => pipeline::report(&env, report_model::ReportKind::Week, &args),
        Some(Command::Doctor(args)) => doctor::doctor(&env, &args),
        Some(Command::Config(ConfigCommand::Path { config })) => {
            let path = config.unwrap_or_else(|| env.default_config_path());
            write_stdout(format!("{}\n", path.display()).as_bytes())
        }
        Some(Command::Config(ConfigCommand::Init { force, config })) => {
            let path = config.unwrap_or_else(|| env.default_config_path());
            pipeline::config_init(&path, force)
        }
        Some(Command::Completions { shell }) => write_stdout(&native::completions(shell)),
        Some(Command::Man) => write_stdout(&native::man().map_err(Failure::Runtime)?),
        Some(Command::Schema) => write_stdout(native::schema().as_bytes()),
        Some(Command::Schedule(command)) => schedule::run(&env, &command),
        Some(Command::Mcp(args)) => mcp::serve(env, &args),
        Some(Command::Note(args)) => daynotes::run(&env, &args),
        Some(Command::Record(args)) => ledger::record(&env, &args),
        Some(Command::Publish(args)) => ledger::publish(&env, &args),
        Some(Command::Team(args)) => team::run(&env, &args),
    }
}

/// Writes to stdout; a closed pipe becomes a quiet success in `main`.
fn write_stdout(bytes: &[u8]) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(bytes).and_then(|()| stdout.flush()).map_err(|error| {
        Failure::Runtime(anyhow::Error::new(error).context("writing the report to stdout"))
    })
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Prints an error line on stderr. The message can quote input (a path, a value), so
/// it is sanitized and redacted as a whole here, whatever built it.
#[expect(clippy::print_stderr, reason = "the binary's one place for error lines")]
fn print_error(error: &anyhow::Error) {
    eprintln!("{} {}", diag::prefix("error"), clean::message(&format!("{error:#}")));
}

/// Prints clap's usage error, cleaned like [`print_error`]'s.
#[expect(clippy::print_stderr, reason = "the binary's one place for usage errors")]
fn print_usage(text: &str) {
    eprint!("{}", clean::message(text));
}

/// Prints progress text (spinner frames, timings) on stderr, as is.
#[expect(clippy::print_stderr, reason = "the binary's one place for progress output")]
fn print_progress(text: &str) {
    eprint!("{text}");
}

/// Prints what a command did (`standup note`) on stderr: stdout carries only data.
#[expect(clippy::print_stderr, reason = "the binary's one place for progress lines")]
fn print_info(message: &str) {
    eprintln!("standup: {}", clean::message(message));
}

/// Prints warning lines on stderr.
#[expect(clippy::print_stderr, reason = "the binary's one place for warning lines")]
fn print_warning(message: &str) {
    if diag::get().warnings {
        eprintln!("{} {}", diag::prefix("warning"), clean::message(message));
    }
}
