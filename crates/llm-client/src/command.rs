//! The subprocess backend: a model runner that is not an HTTP server (the `llm` CLI,
//! `mlx_lm`, llamafile) runs once per call, reads the request as JSON on stdin and writes
//! the reply on stdout.

use std::io::{Read as _, Write as _};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::http::{clean_excerpt, remaining};
use crate::{Backend, ChatOptions, ClientConfig, Error};

/// Most bytes of the child's stderr quoted in an error.
const STDERR_LIMIT: usize = 4 * 1024;

/// How often a running child is checked.
const POLL: Duration = Duration::from_millis(5);

/// The JSON the command reads on stdin, one object.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CommandRequest<'a> {
    /// The configured model, or `null`.
    pub model: Option<&'a str>,
    /// The system message.
    pub system: &'a str,
    /// The user message.
    pub user: &'a str,
    /// Most tokens the reply may have.
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: f32,
    /// The JSON Schema the reply should follow, or `null` for free text.
    pub schema: Option<&'a serde_json::Value>,
}

/// A model runner run as a subprocess: `command` split on whitespace (no shell, no
/// quoting), one process per call, the [`CommandRequest`] as JSON on stdin, the reply
/// (text, or JSON of the schema) on stdout. A non-zero exit is an error quoting the start
/// of its stderr; past the deadline ([`ClientConfig::timeout`], shared by every call) the
/// child is killed; stdout is capped at [`ClientConfig::max_response_bytes`].
#[derive(Debug)]
pub struct CommandBackend {
    argv: Vec<String>,
    model: Option<String>,
    timeout: Duration,
    max_bytes: u64,
    started: OnceLock<Instant>,
}

impl CommandBackend {
    /// A backend running `command` (split on whitespace); the endpoint of `config` is not
    /// used. Building it does no I/O.
    pub fn new(command: &str, config: &ClientConfig) -> Result<CommandBackend, Error> {
        let argv: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
        if argv.is_empty() {
            return Err(Error::Command { cause: "is empty".to_owned() });
        }
        Ok(CommandBackend {
            argv,
            model: config.model.clone(),
            timeout: config.timeout,
            max_bytes: config.max_response_bytes,
            started: OnceLock::new(),
        })
    }

    /// Checks that the program exists and is executable (through `PATH` when it has no
    /// `/`), without running it.
    pub fn probe(&self) -> Result<(), Error> {
        let program = &self.argv[0];
        let found = if program.contains('/') {
            is_executable(Path::new(program))
        } else {
            std::env::var_os("PATH").is_some_and(|path| {
                std::env::split_paths(&path).any(|dir| is_executable(&dir.join(program)))
            })
        };
        if found {
            Ok(())
        } else {
            Err(Error::Command {
                cause: format!("`{}` was not found or is not executable", clean_excerpt(program)),
            })
        }
    }

    fn spawn(&self) -> Result<Child, Error> {
        #[expect(
            clippy::disallowed_methods,
            reason = "the one place a model runner is started: no shell, fixed argv"
        )]
        let mut command = std::process::Command::new(&self.argv[0]);
        command
            .args(&self.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // A process group of its own, so that the deadline stops whatever it started too.
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        command.spawn().map_err(|error| Error::Command {
            cause: format!(
                "`{}` could not be started: {}",
                clean_excerpt(&self.argv[0]),
                error.kind()
            ),
        })
    }
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    path.metadata().is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
}

impl Backend for CommandBackend {
    fn model(&self) -> Result<String, Error> {
        Ok(self.model.clone().unwrap_or_else(|| {
            Path::new(&self.argv[0])
                .file_name()
                .map_or_else(|| self.argv[0].clone(), |name| name.to_string_lossy().into_owned())
        }))
    }

    fn chat(&self, system: &str, user: &str, options: &ChatOptions) -> Result<String, Error> {
        let request = CommandRequest {
            model: self.model.as_deref(),
            system,
            user,
            max_tokens: options.max_tokens,
            temperature: options.temperature,
            schema: options
                .schema
                .as_ref()
                .filter(|_| options.structured != crate::Structured::Off),
        };
        let body = serde_json::to_vec(&request)
            .map_err(|_| Error::MalformedReply { reason: "the request could not be serialized" })?;
        // A deadline too far away to represent is no deadline.
        let deadline = Instant::now().checked_add(remaining(&self.started, self.timeout)?);
        let mut child = self.spawn()?;
        let group = rustix::process::Pid::from_child(&child);
        // The runner and everything it started (a child left holding stdout included).
        let stop_group = || {
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
        };
        let mut stdin = child.stdin.take();
        let writer = std::thread::spawn(move || {
            if let Some(stdin) = stdin.as_mut() {
                // A child that exits without reading its input is not an error here.
                let _ = stdin.write_all(&body);
            }
        });
        let limit = self.max_bytes;
        let (sender, outputs) = std::sync::mpsc::channel::<(bool, Vec<u8>)>();
        let stdout = child.stdout.take();
        let stdout_sender = sender.clone();
        std::thread::spawn(move || {
            let mut out = Vec::new();
            if let Some(stdout) = stdout {
                let _ = stdout.take(limit.saturating_add(1)).read_to_end(&mut out);
            }
            let _ = stdout_sender.send((true, out));
        });
        let stderr = child.stderr.take();
        std::thread::spawn(move || {
            let mut out = Vec::new();
            if let Some(stderr) = stderr {
                let _ = stderr.take(STDERR_LIMIT as u64).read_to_end(&mut out);
            }
            let _ = sender.send((false, out));
        });
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if deadline.is_some_and(|deadline| Instant::now() >= deadline) => {
                    stop_group();
                    let _ = child.wait();
                    return Err(Error::Timeout { which: "overall" });
                }
                Ok(None) => std::thread::sleep(POLL),
                Err(error) => {
                    stop_group();
                    return Err(Error::Command {
                        cause: format!("could not be waited for: {}", error.kind()),
                    });
                }
            }
        };
        // The runner is done: what it left running is stopped, so that its pipes close.
        stop_group();
        let _ = writer.join();
        // Reading stops at the deadline whatever still holds the pipes.
        let (mut out, mut err) = (None, None);
        while out.is_none() || err.is_none() {
            let left = deadline.map_or(Duration::from_secs(3600), |deadline| {
                deadline.saturating_duration_since(Instant::now())
            });
            match outputs.recv_timeout(left) {
                Ok((true, bytes)) => out = Some(bytes),
                Ok((false, bytes)) => err = Some(bytes),
                Err(_) => return Err(Error::Timeout { which: "overall" }),
            }
        }
        let (out, err) = (out.unwrap_or_default(), err.unwrap_or_default());
        if out.len() as u64 > limit {
            return Err(Error::TooLarge { limit });
        }
        if !status.success() {
            let excerpt = clean_excerpt(&String::from_utf8_lossy(&err));
            let code = status
                .code()
                .map_or_else(|| "a signal".to_owned(), |code| format!("status {code}"));
            let detail = if excerpt.is_empty() { String::new() } else { format!(": {excerpt}") };
            return Err(Error::Command { cause: format!("exited with {code}{detail}") });
        }
        let text = String::from_utf8(out)
            .map_err(|_| Error::MalformedReply { reason: "the command's output is not UTF-8" })?;
        if text.trim().is_empty() {
            return Err(Error::EmptyReply);
        }
        Ok(text)
    }
}
