//! Running one git process with a deadline.
//!
//! git reads whatever the repository holds: a FIFO at `.git/packed-refs` or
//! `.git/objects/info/alternates` (or in `~/.gitconfig`) blocks it forever, and so does
//! a hung network file system. So every git process of `collect` runs through
//! [`output`]: its stdout and stderr are read on threads of their own (so a full pipe
//! cannot stall it), the caller waits for both to close and for the exit, and a process
//! still running at the deadline is killed.

use std::io::Read;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::error::GitFailure;

/// The default deadline of one git process (`[git] timeout_secs`).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The most stdout kept from one git process; more is an error, not a partial parse.
const STDOUT_MAX: u64 = 1 << 30;

/// The most stderr kept (only its first line is reported).
const STDERR_MAX: u64 = 64 << 10;

enum Stream {
    Out(std::io::Result<Vec<u8>>),
    Err(std::io::Result<Vec<u8>>),
}

/// Runs `command` (built by [`super::command`]) to completion, or kills it once it has
/// run for `timeout`. stdin is left as the command set it (null).
pub fn output(mut command: Command, timeout: Duration) -> Result<Output, GitFailure> {
    command.stdout(Stdio::piped()).stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = command.spawn().map_err(|error| {
        if error.kind() == std::io::ErrorKind::NotFound {
            GitFailure::NotFound
        } else {
            GitFailure::Spawn(error)
        }
    })?;
    let (sender, receiver) = mpsc::channel();
    if let Some(stdout) = child.stdout.take() {
        let sender = sender.clone();
        std::thread::spawn(move || {
            let _ = sender.send(Stream::Out(read_capped(stdout, STDOUT_MAX)));
        });
    }
    if let Some(stderr) = child.stderr.take() {
        let sender = sender.clone();
        std::thread::spawn(move || {
            let _ = sender.send(Stream::Err(read_capped(stderr, STDERR_MAX)));
        });
    }
    drop(sender);

    let left = |now: Instant| timeout.saturating_sub(now.duration_since(started));
    let (mut stdout, mut stderr) = (None, None);
    while stdout.is_none() || stderr.is_none() {
        match receiver.recv_timeout(left(Instant::now())) {
            Ok(Stream::Out(bytes)) => stdout = Some(bytes.map_err(GitFailure::Spawn)?),
            Ok(Stream::Err(bytes)) => stderr = Some(bytes.map_err(GitFailure::Spawn)?),
            Err(mpsc::RecvTimeoutError::Timeout) => return Err(stop(&mut child, timeout)),
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if stdout.as_ref().is_some_and(|bytes| bytes.len() as u64 > STDOUT_MAX) {
            kill(&mut child);
            return Err(GitFailure::OutputTooLarge(STDOUT_MAX));
        }
    }
    // Both pipes are closed: the process is exiting (or closed them and hangs on).
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if left(Instant::now()).is_zero() => return Err(stop(&mut child, timeout)),
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(error) => {
                kill(&mut child);
                return Err(GitFailure::Spawn(error));
            }
        }
    };
    Ok(Output { status, stdout: stdout.unwrap_or_default(), stderr: stderr.unwrap_or_default() })
}

/// Kills the process at its deadline.
fn stop(child: &mut Child, timeout: Duration) -> GitFailure {
    kill(child);
    GitFailure::Timeout(timeout)
}

fn kill(child: &mut Child) {
    let _ = child.kill();
    // Reaps it; a killed process exits at once.
    let _ = child.wait();
}

/// Reads a pipe to its end, keeping at most `cap + 1` bytes (so that "more than `cap`"
/// shows) and draining the rest so the writer is never stalled on a full pipe.
fn read_capped(mut pipe: impl Read, cap: u64) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    (&mut pipe).take(cap + 1).read_to_end(&mut bytes)?;
    std::io::copy(&mut pipe, &mut std::io::sink())?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[expect(clippy::disallowed_methods, reason = "the deadline is tested on a plain program")]
    fn sh(script: &str) -> Command {
        let mut command = Command::new("sh");
        command.args(["-c", script]).stdin(Stdio::null());
        command
    }

    #[test]
    fn a_process_past_its_deadline_is_killed() {
        let started = Instant::now();
        let result = output(sh("sleep 30"), Duration::from_millis(200));
        assert!(matches!(result, Err(GitFailure::Timeout(_))), "{result:?}");
        assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    }

    #[test]
    fn a_process_that_closes_its_pipes_but_runs_on_is_killed_too() {
        let result = output(sh("exec >/dev/null 2>&1; sleep 30"), Duration::from_millis(200));
        assert!(matches!(result, Err(GitFailure::Timeout(_))), "{result:?}");
    }

    #[test]
    fn output_and_status_come_back() {
        let output = output(sh("echo out; echo err >&2; exit 3"), Duration::from_secs(10)).unwrap();
        assert_eq!(
            (output.stdout.as_slice(), output.stderr.as_slice()),
            (&b"out\n"[..], &b"err\n"[..])
        );
        assert_eq!(output.status.code(), Some(3));
    }
}
