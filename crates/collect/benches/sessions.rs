//! Throughput of the agent-session readers on large, real-shaped transcripts.
//!
//! Writes about 200 MB of Claude Code transcripts (50 sessions, assistant replies with
//! large tool output) and about 50 MB of Codex rollouts to a temporary directory, every
//! file modified inside the window so that every byte is scanned (the worst case: on a
//! real machine most files are skipped by their modification time), then reads them
//! through `collect::sessions::read_sessions` and prints MB/s.
//!
//! Run with `cargo bench -p collect --bench sessions`.

#![allow(clippy::print_stdout, reason = "a benchmark reports on stdout")]

mod common;

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::Path;

use collect::Env;
use collect::sessions::{SessionsConfig, read_sessions};
use jiff::Timestamp;
use report_model::Agent;

const RUNS: usize = 7;
/// 2026-11-27T00:00:00Z: every record is after it.
const SINCE: i64 = 1_795_737_600;

fn main() {
    let dir = tempfile::TempDir::new().expect("a temporary directory");
    let home = dir.path();
    let claude_bytes = write_claude(home, 50, 4_000_000);
    let codex_bytes = write_codex(home, 25, 2_000_000);
    let env = Env::new(home);
    let since = Timestamp::from_second(SINCE).expect("a valid time");
    for (agent, bytes) in [(Agent::ClaudeCode, claude_bytes), (Agent::Codex, codex_bytes)] {
        let config = SessionsConfig { agents: vec![agent], ..SessionsConfig::default() };
        let mut sessions = 0;
        let time = common::median(RUNS, || {
            let output = read_sessions(&env, &config, since);
            sessions = output.events.len();
            black_box(output);
        });
        #[allow(clippy::cast_precision_loss, reason = "sizes far below 2^52")]
        let megabytes = bytes as f64 / 1e6;
        println!(
            "{:11}: {megabytes:6.1} MB, {sessions:3} sessions in {:7.1} ms = {:6.0} MB/s",
            agent.display_name(),
            time.as_secs_f64() * 1e3,
            megabytes / time.as_secs_f64()
        );
    }
}

fn time(second: i64) -> String {
    Timestamp::from_second(SINCE + second)
        .expect("a valid time")
        .strftime("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

/// Tool output of realistic shape: source lines, quoted for JSON.
fn payload(size: usize) -> String {
    let line = "    let output = read_sessions(&env, &config, since); // \\\"quoted\\\" text and 日本語\\n";
    line.repeat(size / line.len() + 1)
}

/// Claude Code transcripts: per session a prompt, then assistant replies with tool output
/// and tool results, until `bytes_each`. Returns the bytes written.
fn write_claude(home: &Path, sessions: usize, bytes_each: usize) -> u64 {
    let big = payload(20_000);
    let mut total = 0;
    for session_idx in 0..sessions {
        let session = format!("00000000-0000-4000-8000-{session_idx:012}");
        let folder = home.join(".claude/projects/-home-dev-src-app");
        fs_err::create_dir_all(&folder).expect("a folder");
        let mut text = String::with_capacity(bytes_each + big.len());
        let mut record_idx: i64 = 0;
        while text.len() < bytes_each {
            let at = time(record_idx);
            let _ = match record_idx % 3 {
                0 => writeln!(
                    text,
                    r#"{{"type":"user","uuid":"u{record_idx}","parentUuid":null,"timestamp":"{at}","sessionId":"{session}","cwd":"/home/dev/src/app","isSidechain":false,"message":{{"role":"user","content":"step {record_idx}: make the parser faster"}}}}"#
                ),
                1 => writeln!(
                    text,
                    r#"{{"type":"assistant","uuid":"a{record_idx}","parentUuid":"u","timestamp":"{at}","sessionId":"{session}","cwd":"/home/dev/src/app","isSidechain":false,"message":{{"id":"msg_{record_idx}","role":"assistant","content":[{{"type":"text","text":"{big}"}}]}}}}"#
                ),
                _ => writeln!(
                    text,
                    r#"{{"type":"user","uuid":"t{record_idx}","parentUuid":"a","timestamp":"{at}","sessionId":"{session}","cwd":"/home/dev/src/app","isSidechain":false,"message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"x","content":"{big}"}}]}}}}"#
                ),
            };
            record_idx += 1;
        }
        total += text.len() as u64;
        fs_err::write(folder.join(format!("{session}.jsonl")), text).expect("a transcript");
    }
    total
}

/// Codex rollouts: `session_meta`, then user messages and large `response_item`s.
fn write_codex(home: &Path, sessions: usize, bytes_each: usize) -> u64 {
    let big = payload(20_000);
    let folder = home.join(".codex/sessions/2026/11/27");
    fs_err::create_dir_all(&folder).expect("a folder");
    let mut total = 0;
    for session_idx in 0..sessions {
        let id = format!("0199aaaa-0000-7000-8000-{session_idx:012}");
        let mut text = format!(
            "{{\"timestamp\":\"{}\",\"type\":\"session_meta\",\"payload\":{{\"id\":\"{id}\",\"cwd\":\"/home/dev/src/app\"}}}}\n",
            time(0)
        );
        let mut record_idx = 1;
        while text.len() < bytes_each {
            let at = time(record_idx);
            let _ = if record_idx % 2 == 0 {
                writeln!(
                    text,
                    r#"{{"timestamp":"{at}","type":"event_msg","payload":{{"type":"user_message","message":"step {record_idx}","kind":"plain"}}}}"#
                )
            } else {
                writeln!(
                    text,
                    r#"{{"timestamp":"{at}","type":"response_item","payload":{{"type":"function_call_output","call_id":"c","output":"{big}"}}}}"#
                )
            };
            record_idx += 1;
        }
        total += text.len() as u64;
        fs_err::write(folder.join(format!("rollout-2026-11-27T09-00-00-{id}.jsonl")), text)
            .expect("a rollout");
    }
    total
}
