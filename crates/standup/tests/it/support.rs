//! A temporary home with real git repositories, and a way to run the real binary in it.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A temporary home directory. The binary runs with `HOME` pointing here, a pinned
/// clock and time zone, and an environment with nothing else of the developer's.
pub(crate) struct Home {
    _dir: tempfile::TempDir,
    home: PathBuf,
}

impl Home {
    pub(crate) fn new() -> Home {
        let dir = tempfile::tempdir().unwrap();
        // Canonical, so paths in the output match what the binary computes.
        let home = dir.path().canonicalize().unwrap().join("home");
        fs_err::create_dir_all(home.join("src")).unwrap();
        Home { _dir: dir, home }
    }

    pub(crate) fn path(&self) -> &Path {
        &self.home
    }

    /// `git init` of a new repository at `~/src/<name>`.
    pub(crate) fn repo(&self, name: &str) -> Repo {
        self.repo_with(name, &[])
    }

    /// A repository under `~/src` whose refs are in a reftable (`refs/heads` is a file).
    pub(crate) fn reftable_repo(&self, name: &str) -> Repo {
        self.repo_with(name, &["--ref-format=reftable"])
    }

    fn repo_with(&self, name: &str, init: &[&str]) -> Repo {
        let path = self.home.join("src").join(name);
        fs_err::create_dir_all(&path).unwrap();
        let repo = Repo { path, home: self.home.clone() };
        repo.git(&[&["init", "-q", "-b", "main"], init].concat());
        repo
    }

    /// A handle on an existing repository or worktree.
    pub(crate) fn repo_handle(&self, path: &Path) -> Repo {
        Repo { path: path.to_path_buf(), home: self.home.clone() }
    }

    pub(crate) fn write(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.home.join(relative);
        fs_err::create_dir_all(path.parent().unwrap()).unwrap();
        fs_err::write(&path, text).unwrap();
        path
    }

    /// Writes an executable script at `~/<relative>`.
    ///
    /// The file is written by a short-lived `sh`, so this process never holds it open
    /// for writing. Tests run on parallel threads that spawn processes: a child forked
    /// while a write descriptor is open inherits it until it execs, and until then the
    /// kernel refuses to run the file ("executable file busy", `ETXTBSY`).
    pub(crate) fn write_executable(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.home.join(relative);
        fs_err::create_dir_all(path.parent().unwrap()).unwrap();
        write_executable(&path, text);
        path
    }

    /// Writes `~/.config/standup/config.toml`.
    pub(crate) fn config(&self, text: &str) -> PathBuf {
        self.write(".config/standup/config.toml", text)
    }

    /// Sets git's global identity in `~/.gitconfig`.
    pub(crate) fn git_identity(&self, email: &str, name: &str) {
        self.write(".gitconfig", &format!("[user]\n\temail = {email}\n\tname = {name}\n"));
    }

    /// Runs the binary with the clock at `now` in time zone `tz`, from the home directory.
    pub(crate) fn run(&self, now: &str, tz: &str, args: &[&str]) -> Run {
        self.run_in(&self.home, now, tz, args)
    }

    pub(crate) fn command(&self, cwd: &Path, now: &str, tz: &str, args: &[&str]) -> Command {
        #[expect(clippy::disallowed_methods, reason = "tests run the real binary")]
        let mut command = Command::new(env!("CARGO_BIN_EXE_standup"));
        command
            .args(args)
            .current_dir(cwd)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("STANDUP_NOW", now)
            .env("TZ", tz)
            .env("LANG", "C")
            .env("NO_COLOR", "1")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .stdin(Stdio::null());
        command
    }

    pub(crate) fn run_in(&self, cwd: &Path, now: &str, tz: &str, args: &[&str]) -> Run {
        Run::from(&self.command(cwd, now, tz, args).output().unwrap(), &self.home)
    }

    /// Runs a command made by [`Home::command`] (with more variables set, say).
    pub(crate) fn run_command(&self, command: &mut Command) -> Run {
        Run::from(&command.output().unwrap(), &self.home)
    }
}

/// The result of one run of the binary.
pub(crate) struct Run {
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

impl Run {
    fn from(output: &Output, home: &Path) -> Run {
        let clean = |bytes: &[u8]| {
            String::from_utf8_lossy(bytes).replace(&home.display().to_string(), "[HOME]")
        };
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: clean(&output.stdout),
            stderr: clean(&output.stderr),
        }
    }

    /// Exit code, stdout and stderr as separate sections, for snapshots.
    pub(crate) fn snapshot(&self) -> String {
        format!(
            "exit_code: {}\n----- stdout -----\n{}----- stderr -----\n{}",
            self.code, self.stdout, self.stderr
        )
    }

    #[track_caller]
    pub(crate) fn success(&self) -> &str {
        assert_eq!(self.code, 0, "{}", self.snapshot());
        &self.stdout
    }
}

/// A repository in a temporary home.
pub(crate) struct Repo {
    pub(crate) path: PathBuf,
    home: PathBuf,
}

/// Author and committer of a test commit.
#[derive(Clone, Copy)]
pub(crate) struct Who<'a> {
    pub(crate) email: &'a str,
    pub(crate) name: &'a str,
}

pub(crate) const ME: Who<'static> = Who { email: "me@example.com", name: "Me" };
pub(crate) const COLLEAGUE: Who<'static> =
    Who { email: "colleague@example.com", name: "Colleague" };

impl Repo {
    pub(crate) fn git_command(&self, args: &[&str]) -> Command {
        #[expect(
            clippy::disallowed_methods,
            reason = "tests build repositories with the real git CLI"
        )]
        let mut command = Command::new("git");
        command
            .args(args)
            .current_dir(&self.path)
            .env("HOME", &self.home)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", ME.name)
            .env("GIT_AUTHOR_EMAIL", ME.email)
            .env("GIT_COMMITTER_NAME", ME.name)
            .env("GIT_COMMITTER_EMAIL", ME.email)
            .env("LC_ALL", "C");
        command
    }

    /// Runs git in the repository and returns its stdout.
    #[track_caller]
    pub(crate) fn git(&self, args: &[&str]) -> String {
        let output = self.git_command(args).output().unwrap();
        assert!(
            output.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Writes `file` and commits it with the given subject, author and dates
    /// (ISO 8601 with offset, e.g. `2026-11-27T10:00:00+09:00`).
    #[track_caller]
    pub(crate) fn commit_as(
        &self,
        who: Who<'_>,
        file: &str,
        content: &str,
        subject: &str,
        author_date: &str,
        commit_date: &str,
    ) -> String {
        let path = self.path.join(file);
        fs_err::create_dir_all(path.parent().unwrap()).unwrap();
        fs_err::write(&path, content).unwrap();
        self.git(&["add", "-A"]);
        let output = self
            .git_command(&["commit", "-q", "--allow-empty", "-m", subject])
            .env("GIT_AUTHOR_NAME", who.name)
            .env("GIT_AUTHOR_EMAIL", who.email)
            .env("GIT_AUTHOR_DATE", author_date)
            .env("GIT_COMMITTER_DATE", commit_date)
            .output()
            .unwrap();
        assert!(output.status.success(), "commit: {}", String::from_utf8_lossy(&output.stderr));
        self.git(&["rev-parse", "HEAD"]).trim().to_owned()
    }

    /// A commit by me whose author and committer dates are both `date`.
    #[track_caller]
    pub(crate) fn commit(&self, file: &str, subject: &str, date: &str) -> String {
        self.commit_as(ME, file, &format!("{subject}\n"), subject, date, date)
    }

    /// Feeds a `git fast-import` stream.
    #[track_caller]
    pub(crate) fn fast_import(&self, stream: &[u8]) {
        let mut child =
            self.git_command(&["fast-import", "--quiet"]).stdin(Stdio::piped()).spawn().unwrap();
        child.stdin.take().unwrap().write_all(stream).unwrap();
        assert!(child.wait().unwrap().success());
    }
}

/// The demo home's clock (`cargo xtask demo`, `fixtures/demo/home.sh`): Monday
/// 2026-11-30, 09:30 in Tokyo.
pub(crate) const DEMO_NOW: &str = "2026-11-30T09:30:00+09:00";

/// A home built by the demo's own script (`fixtures/demo/home.sh`), as `cargo xtask demo`
/// builds it.
pub(crate) fn demo_home() -> Home {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let home = Home::new();
    #[expect(clippy::disallowed_methods, reason = "the demo home is built by its script")]
    let status = Command::new("bash")
        .arg(root.join("fixtures/demo/home.sh"))
        .arg(home.path())
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "fixtures/demo/home.sh failed: {status}");
    home
}

/// Friday 2026-11-27 at `time` (`HH:MM:SS`) in Tokyo, the day most tests are set on, as
/// the agents write times: UTC RFC 3339 with milliseconds.
pub(crate) fn at(time: &str) -> String {
    friday(time).strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// [`at`] in seconds since the epoch (zsh's and bash's history times).
pub(crate) fn epoch(time: &str) -> i64 {
    friday(time).as_second()
}

/// [`at`] in nanoseconds since the epoch (atuin's `timestamp`).
pub(crate) fn friday_nanos(time: &str) -> i64 {
    i64::try_from(friday(time).as_nanosecond()).unwrap()
}

fn friday(time: &str) -> jiff::Timestamp {
    format!("2026-11-27T{time}+09:00").parse().unwrap()
}

/// An atuin database at `db_path` (its real `history` table) holding `runs`, each
/// `(time on Friday, command, exit code)`, all run in `cwd`.
pub(crate) fn write_atuin(db_path: &Path, cwd: &Path, runs: &[(&str, &str, i64)]) {
    fs_err::create_dir_all(db_path.parent().unwrap()).unwrap();
    let db = rusqlite::Connection::open(db_path).unwrap();
    db.execute_batch(
        "create table history (id text primary key, timestamp integer not null, duration integer not null, exit integer not null, command text not null, cwd text not null, session text not null, hostname text not null, deleted_at integer);",
    )
    .unwrap();
    let cwd = cwd.display().to_string();
    for (index, (time, command, exit)) in runs.iter().enumerate() {
        db.execute(
            "insert into history values (?1, ?2, 1000, ?3, ?4, ?5, 's', 'host', null)",
            rusqlite::params![format!("h{index}"), friday_nanos(time), exit, command, cwd],
        )
        .unwrap();
    }
}

/// JSON values as JSON Lines, each line ended by a newline.
pub(crate) fn jsonl(lines: &[serde_json::Value]) -> String {
    lines.iter().map(|line| line.to_string() + "\n").collect()
}

/// `standup <args> --format json --no-llm` in `home`, parsed (the run must succeed).
pub(crate) fn report_json(home: &Home, now: &str, tz: &str, args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json", "--no-llm"]);
    serde_json::from_str(home.run(now, tz, &all).success()).unwrap()
}

/// Subjects of every commit in a JSON report, bucket by bucket.
pub(crate) fn subjects_by_bucket(report: &serde_json::Value) -> Vec<Vec<String>> {
    report["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|bucket| {
            bucket["projects"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|project| project["commits"].as_array().unwrap().iter())
                .map(|commit| commit["subject"].as_str().unwrap().to_owned())
                .collect()
        })
        .collect()
}

/// Writes `text` to an executable file at `path` through `sh`, without this process
/// ever holding a descriptor to it (see [`Home::write_executable`]).
pub(crate) fn write_executable(path: &Path, text: &str) {
    #[expect(clippy::disallowed_methods, reason = "the script is written by sh, not git")]
    let mut child = Command::new("sh")
        .args(["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh"])
        .arg(path)
        .stdin(Stdio::piped())
        .spawn()
        .expect("sh on PATH");
    child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    assert!(child.wait().unwrap().success(), "could not write {}", path.display());
}

/// Sets a file's (or a folder's) modification time to `when` (RFC 3339).
pub(crate) fn touch(path: &Path, when: &str) {
    let time: jiff::Timestamp = when.parse().unwrap();
    let file = if path.is_dir() {
        fs_err::File::open(path)
    } else {
        fs_err::File::options().append(true).open(path)
    };
    file.unwrap().set_modified(std::time::SystemTime::from(time)).unwrap();
}
