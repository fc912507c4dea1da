//! The subprocess backend, with real programs (small `sh` scripts) as model runners.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use llm_client::{Backend, ChatOptions, ClientConfig, CommandBackend, Error};
use serde_json::{Value, json};

/// Writes an executable `sh` script named `name` into `dir`.
///
/// The file is written by a short-lived `sh`, so this process never holds it open for
/// writing. Tests run on parallel threads that spawn processes: a child forked while a
/// write descriptor is open inherits it until it execs, and until then the kernel
/// refuses to run the file ("executable file busy", `ETXTBSY`).
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    #[expect(clippy::disallowed_methods, reason = "the script is written by sh, not git")]
    let mut child = Command::new("sh")
        .args(["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh"])
        .arg(&path)
        .stdin(Stdio::piped())
        .spawn()
        .expect("sh on PATH");
    let text = format!("#!/bin/sh\n{body}\n");
    child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    assert!(child.wait().unwrap().success(), "could not write {}", path.display());
    path
}

fn backend(command: &str, timeout: Duration) -> CommandBackend {
    let config = ClientConfig::new("unused").with_timeout(timeout);
    CommandBackend::new(command, &config).unwrap()
}

#[test]
fn the_request_goes_to_stdin_as_json_and_stdout_is_the_reply() {
    let dir = tempfile::tempdir().unwrap();
    let seen = dir.path().join("request.json");
    let runner = script(
        dir.path(),
        "runner",
        &format!("cat > {}\necho 'A day on the parser.'", seen.display()),
    );
    // Split on whitespace, no shell: the extra words are arguments.
    let backend = backend(&format!("{} --quiet", runner.display()), Duration::from_secs(5));
    backend.probe().unwrap();
    assert_eq!(backend.model().unwrap(), "runner");
    let schema = json!({"type": "object"});
    let options = ChatOptions { schema: Some(schema.clone()), ..ChatOptions::default() };
    let reply = backend.chat("sys", "user <data>", &options).unwrap();
    assert_eq!(reply, "A day on the parser.\n");
    let request: Value = serde_json::from_str(&fs_err::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(
        request,
        json!({"model": null, "system": "sys", "user": "user <data>", "max_tokens": 512,
               "temperature": 0.2, "schema": schema})
    );
}

#[test]
fn a_missing_program_fails_the_probe() {
    let backend = backend("/nonexistent/llm-runner -m x", Duration::from_secs(1));
    let error = backend.probe().unwrap_err();
    insta::assert_snapshot!(error, @"the LLM command `/nonexistent/llm-runner` was not found or is not executable");
    let on_path = backend_named("no-such-llm-runner-on-path");
    assert!(matches!(on_path.probe(), Err(Error::Command { .. })));
    assert!(CommandBackend::new("   ", &ClientConfig::new("x")).is_err());
}

fn backend_named(name: &str) -> CommandBackend {
    backend(name, Duration::from_secs(1))
}

#[test]
fn a_slow_runner_is_killed_at_the_deadline() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("finished");
    let runner = script(dir.path(), "slow", &format!("sleep 5\ntouch {}", marker.display()));
    let backend = backend(&runner.display().to_string(), Duration::from_millis(300));
    let start = Instant::now();
    let error = backend.chat("s", "u", &ChatOptions::default()).unwrap_err();
    assert_eq!(error, Error::Timeout { which: "overall" });
    assert!(start.elapsed() < Duration::from_secs(2), "{:?}", start.elapsed());
    std::thread::sleep(Duration::from_millis(200));
    assert!(!marker.exists());
}

#[test]
fn a_failing_runner_quotes_its_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let runner = script(dir.path(), "failing", "echo 'model not found' >&2\nexit 3");
    let error = backend(&runner.display().to_string(), Duration::from_secs(5))
        .chat("s", "u", &ChatOptions::default())
        .unwrap_err();
    insta::assert_snapshot!(error, @"the LLM command exited with status 3: model not found");
}

#[test]
fn output_is_capped_and_empty_output_is_empty() {
    let dir = tempfile::tempdir().unwrap();
    let chatty = script(dir.path(), "chatty", "head -c 3000000 /dev/zero | tr '\\0' x");
    let error = backend(&chatty.display().to_string(), Duration::from_secs(5))
        .chat("s", "u", &ChatOptions::default())
        .unwrap_err();
    assert_eq!(error, Error::TooLarge { limit: 1024 * 1024 });
    let silent = script(dir.path(), "silent", "cat > /dev/null");
    let error = backend(&silent.display().to_string(), Duration::from_secs(5))
        .chat("s", "u", &ChatOptions::default())
        .unwrap_err();
    assert_eq!(error, Error::EmptyReply);
}

/// Whether process `pid` is gone (or a zombie waiting for a reaper: it runs no more).
fn stopped(pid: u32) -> bool {
    fs_err::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
        stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z'))
    })
}

/// A runner that answers and exits but leaves a child holding its stdout: the reply
/// comes at once, and the child is stopped.
#[test]
fn a_runner_that_leaves_a_child_holding_stdout_does_not_hold_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("child.pid");
    let runner = script(
        dir.path(),
        "forking",
        &format!(
            "cat > /dev/null\nsleep 20 &\necho $! > {}\necho 'A day on the parser.'",
            pid_file.display()
        ),
    );
    let backend = backend(&runner.display().to_string(), Duration::from_secs(3));
    let started = Instant::now();
    let reply = backend.chat("sys", "user", &ChatOptions::default()).unwrap();
    assert_eq!(reply, "A day on the parser.\n");
    // Generous against a loaded machine; the child alone would hold it 20 s.
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    let pid: u32 = fs_err::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
    let deadline = Instant::now() + Duration::from_secs(2);
    while !stopped(pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(stopped(pid), "the runner's child {pid} still runs");
}

/// At the deadline the whole process group is stopped: the runner and what it started.
#[test]
fn the_deadline_stops_the_runner_and_its_children() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("child.pid");
    let runner = script(
        dir.path(),
        "stuck",
        &format!("sleep 30 &\necho $! > {}\nsleep 30", pid_file.display()),
    );
    let backend = backend(&runner.display().to_string(), Duration::from_secs(1));
    let started = Instant::now();
    let error = backend.chat("sys", "user", &ChatOptions::default()).unwrap_err();
    assert_eq!(error, Error::Timeout { which: "overall" });
    assert!(started.elapsed() < Duration::from_secs(15), "{:?}", started.elapsed());
    let pid: u32 = fs_err::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
    let deadline = Instant::now() + Duration::from_secs(2);
    while !stopped(pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(stopped(pid), "the runner's child {pid} still runs after the deadline");
}
