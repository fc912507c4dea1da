//! Throughput of the shell-history readers on large, real-shaped files.
//!
//! Writes a 300,000-line zsh history (`EXTENDED_HISTORY`, with multi-line and metafied
//! entries) and a 50,000-line bash history (`#<epoch>` lines) to a temporary directory,
//! then reads each through `collect::shell::read_shell` and prints MB/s and lines/s:
//! once with a window covering the last day (the usual case: nearly every line is only
//! scanned) and once with every entry kept (every command decoded).
//!
//! Run with `cargo bench -p collect --bench history`.

#![allow(clippy::print_stdout, reason = "a benchmark reports on stdout")]

mod common;

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use collect::Env;
use collect::shell::{ShellConfig, read_shell};
use jiff::Timestamp;
use report_model::Shell;

/// The newest entry's time: 2026-11-27T18:00:00Z.
const END: i64 = 1_795_802_400;
const RUNS: usize = 15;

fn main() {
    let dir = tempfile::TempDir::new().expect("a temporary directory");
    let zsh = dir.path().join("zsh_history");
    let bash = dir.path().join("bash_history");
    let zsh_lines = write_zsh(&zsh, 300_000);
    let bash_lines = write_bash(&bash, 50_000);
    let env = Env::new(dir.path());

    let last_day = Timestamp::from_second(END - 86_400).expect("a valid time");
    for (name, path, lines, shell) in
        [("zsh", &zsh, zsh_lines, Shell::Zsh), ("bash", &bash, bash_lines, Shell::Bash)]
    {
        let config = match shell {
            Shell::Zsh => ShellConfig {
                zsh: Some(path.clone()),
                shells: vec![Shell::Zsh],
                ..ShellConfig::default()
            },
            _ => ShellConfig {
                bash: Some(path.clone()),
                shells: vec![Shell::Bash],
                ..ShellConfig::default()
            },
        };
        let bytes = fs_err::metadata(path).expect("the generated file").len();
        for (label, since) in [("last day", last_day), ("everything", Timestamp::UNIX_EPOCH)] {
            let mut kept = 0;
            let time = common::median(RUNS, || {
                let output = read_shell(&env, &config, since);
                kept = output.events.len();
                black_box(output);
            });
            report(name, label, bytes, lines, kept, time);
        }
    }
}

fn report(name: &str, label: &str, bytes: u64, lines: u64, kept: usize, time: Duration) {
    let seconds = time.as_secs_f64();
    #[allow(clippy::cast_precision_loss, reason = "sizes far below 2^52")]
    let (megabytes, lines_f) = (bytes as f64 / 1e6, lines as f64);
    println!(
        "{name:4} {label:10}: {megabytes:6.1} MB, {lines:7} lines, {kept:6} kept in {:7.2} ms = {:7.0} MB/s, {:5.1} M lines/s",
        seconds * 1e3,
        megabytes / seconds,
        lines_f / seconds / 1e6,
    );
}

/// Commands of realistic lengths, some with UTF-8 that zsh metafies.
const COMMANDS: &[&str] = &[
    "git status",
    "cargo test -p collect --test it shell -- --nocapture",
    "kubectl get pods -n staging -o wide | grep -v Running",
    "docker compose -f docker-compose.dev.yml up --build api worker",
    "rg -n 'fn read_shell' crates/ --type rust",
    "echo 日報を書く && git commit -m 'collect: zsh の読み込み'",
    "npm run build -- --mode production && npm run test:e2e",
    "ssh deploy@build-03.example.invalid 'sudo systemctl restart standup-worker'",
];

/// Writes `lines` lines of zsh history, one entry a minute up to `END`; every 50th entry
/// spans three lines. Returns the line count.
fn write_zsh(path: &Path, lines: u64) -> u64 {
    let mut out = Vec::with_capacity(usize::try_from(lines * 60).unwrap_or(0));
    let mut written = 0;
    let mut entry_idx: u64 = 0;
    while written < lines {
        let time = END - i64::try_from(lines - written).unwrap_or(0) * 60;
        let command = COMMANDS[usize::try_from(entry_idx % COMMANDS.len() as u64).unwrap_or(0)];
        out.extend_from_slice(format!(": {time}:0;").as_bytes());
        if entry_idx % 50 == 0 && written + 3 <= lines {
            out.extend_from_slice(b"for f in *.rs; do\\\n  rustfmt --edition 2024 $f\\\ndone\n");
            written += 3;
        } else {
            metafy(command.as_bytes(), &mut out);
            out.push(b'\n');
            written += 1;
        }
        entry_idx += 1;
    }
    fs_err::write(path, out).expect("writing the zsh history");
    written
}

/// zsh's metafication: NUL and `0x83`–`0xa2` become `0x83` and the byte XOR `0x20`.
fn metafy(bytes: &[u8], out: &mut Vec<u8>) {
    for &byte in bytes {
        if byte == 0 || (0x83..=0xa2).contains(&byte) {
            out.push(0x83);
            out.push(byte ^ 0x20);
        } else {
            out.push(byte);
        }
    }
}

/// Writes `lines` lines of bash history (`#<epoch>` and a command, one a minute up to
/// `END`). Returns the line count.
fn write_bash(path: &Path, lines: u64) -> u64 {
    let entries = lines / 2;
    let mut out = String::new();
    for entry_idx in 0..entries {
        let time = END - i64::try_from(entries - entry_idx).unwrap_or(0) * 60;
        let command = COMMANDS[usize::try_from(entry_idx % COMMANDS.len() as u64).unwrap_or(0)];
        let _ = writeln!(out, "#{time}\n{command}");
    }
    fs_err::write(path, out).expect("writing the bash history");
    entries * 2
}
