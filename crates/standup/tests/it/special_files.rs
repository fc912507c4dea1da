//! Special files and odd names where sources are expected, through the real binary:
//! FIFOs and `/dev/zero` in every source spot, lines and files too large to hold, git
//! blocked on a FIFO, an unreadable repository (run as uid 65534), a commit subject
//! with byte 0x1E, file names that are not UTF-8, symlinked repositories and the
//! environment variables the sources read.
//!
//! Every run has a deadline of its own, so a regression (a read that blocks again) fails
//! the test instead of hanging CI.

use std::ffi::OsStr;
use std::io::Read as _;
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{Home, ME, Run, at, jsonl};

const TOKYO: &str = "Asia/Tokyo";
/// Friday 2026-11-27, 18:00 in Tokyo.
const NOW: &str = "2026-11-27T18:00:00+09:00";

/// How long one run may take before the test fails as hung.
const DEADLINE: Duration = Duration::from_secs(60);

/// Runs `command` to its end, or kills it and fails the test at `deadline`.
fn run_bounded(mut command: Command, home: &Home, deadline: Duration) -> Run {
    command.stdout(Stdio::piped()).stderr(Stdio::piped()).stdin(Stdio::null());
    let mut child = command.spawn().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stderr.read_to_end(&mut bytes);
        bytes
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("standup did not finish within {deadline:?} (a read blocked?)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let clean = |bytes: Vec<u8>| {
        String::from_utf8_lossy(&bytes).replace(&home.path().display().to_string(), "[HOME]")
    };
    Run {
        code: status.code().unwrap_or(-1),
        stdout: clean(out.join().unwrap()),
        stderr: clean(err.join().unwrap()),
    }
}

/// `standup <args>` in the home, bounded.
fn run(home: &Home, args: &[&str]) -> Run {
    run_bounded(home.command(home.path(), NOW, TOKYO, args), home, DEADLINE)
}

/// The arguments of a JSON daily report.
const DAILY: [&str; 5] = ["daily", "--format", "json", "--no-llm", "--lang=en"];

/// `standup daily --format json --no-llm`, which must succeed, as JSON.
fn daily(home: &Home) -> Value {
    daily_with(home, home.command(home.path(), NOW, TOKYO, &DAILY))
}

fn daily_with(home: &Home, command: Command) -> Value {
    let run = run_bounded(command, home, DEADLINE);
    serde_json::from_str(run.success())
        .unwrap_or_else(|error| panic!("{error}: {}", run.snapshot()))
}

/// `(code, message)` of every warning of a report.
fn warnings(report: &Value) -> Vec<(String, String)> {
    report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|warning| {
            (
                warning["code"].as_str().unwrap().to_owned(),
                warning["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// The warning with `code` whose message holds `needle`, if any.
#[track_caller]
fn warning_naming(report: &Value, code: &str, needle: &str) -> String {
    let all = warnings(report);
    all.iter().find(|(found, message)| found == code && message.contains(needle)).map_or_else(
        || panic!("no `{code}` warning naming `{needle}` in {all:#?}"),
        |(_, message)| message.clone(),
    )
}

/// Subjects of every commit, over all buckets and projects.
fn subjects(report: &Value) -> Vec<String> {
    commits(report).iter().map(|commit| commit["subject"].as_str().unwrap().to_owned()).collect()
}

fn commits(report: &Value) -> Vec<Value> {
    report["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|bucket| bucket["projects"].as_array().unwrap().iter())
        .flat_map(|project| project["commits"].as_array().unwrap().iter().cloned())
        .collect()
}

/// Titles of every session, over all buckets and projects.
fn session_titles(report: &Value) -> Vec<String> {
    report["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|bucket| bucket["projects"].as_array().unwrap().iter())
        .flat_map(|project| project["sessions"].as_array().unwrap().iter())
        .map(|session| session["title"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// Makes a FIFO at `path` (its folder created).
fn mkfifo(path: &Path) {
    fs_err::create_dir_all(path.parent().unwrap()).unwrap();
    #[expect(clippy::disallowed_methods, reason = "the test makes FIFOs with coreutils")]
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

fn symlink(target: &Path, link: &Path) {
    fs_err::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(target, link).unwrap();
}

/// A home with one good repository holding one commit today.
fn home_with_a_repo() -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    home.repo("good").commit("a.txt", "good: still reported", "2026-11-27T10:00:00+09:00");
    home
}

#[test]
fn fifos_in_every_source_spot_are_named_and_the_report_still_comes_out() {
    let home = home_with_a_repo();
    let root = home.path().to_path_buf();
    let gemini_project = ".gemini/tmp/0123abcd";
    let fifos = [
        ".zsh_history",
        ".bash_history",
        ".codex/sessions/2026/11/27/rollout-2026-11-27T10-00-00-0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee.jsonl",
        ".codex/session_index.jsonl",
        &format!("{gemini_project}/chats/session-2026-11-27T10-00-aaaa.jsonl"),
        &format!("{gemini_project}/chats/session-2026-11-27T11-00-bbbb.json"),
        &format!("{gemini_project}/.project_root"),
        ".gemini/projects.json",
        ".claude/settings.json",
        ".claude/history.jsonl",
        ".claude/projects/-x-good/11111111-2222-4333-8444-555555555555.jsonl",
        ".config/atuin/config.toml",
        ".local/share/atuin/history.db",
        "src/fifo-repo/.git",
    ];
    for fifo in &fifos {
        mkfifo(&root.join(fifo));
    }
    // The chat folder also holds a real chat, so the project is read.
    home.write(
        &format!("{gemini_project}/chats/session-2026-11-27T12-00-cccc.jsonl"),
        &jsonl(&[
            json!({"id": "g1", "timestamp": at("12:00:00"), "type": "user", "content": "hello"}),
        ]),
    );

    let report = daily(&home);
    assert_eq!(subjects(&report), ["good: still reported"]);
    for fifo in &fifos {
        let message = warning_naming(&report, "source_unreadable", &format!("[HOME]/{fifo}`"));
        assert!(message.contains("FIFO"), "{message}");
    }

    let doctor = run(&home, &["doctor"]);
    let out = doctor.success();
    for fifo in &fifos {
        assert!(out.contains(&format!("[HOME]/{fifo}`: it is a FIFO")), "{fifo} in:\n{out}");
    }
}

#[test]
fn dev_zero_in_place_of_a_history_a_dot_git_and_a_project_root_is_refused() {
    let home = home_with_a_repo();
    let root = home.path().to_path_buf();
    let zero = Path::new("/dev/zero");
    symlink(zero, &root.join(".zsh_history"));
    symlink(zero, &root.join("src/zero-repo/.git"));
    symlink(zero, &root.join(".gemini/tmp/0123abcd/.project_root"));
    home.write(
        ".gemini/tmp/0123abcd/chats/session-2026-11-27T12-00-cccc.jsonl",
        &jsonl(&[
            json!({"id": "g1", "timestamp": at("12:00:00"), "type": "user", "content": "hello"}),
        ]),
    );

    let started = Instant::now();
    let report = daily_with(&home, {
        let mut command = home.command(home.path(), NOW, TOKYO, &DAILY);
        command.env("SHELL", "/bin/zsh");
        command
    });
    assert!(started.elapsed() < Duration::from_secs(20), "took {:?}", started.elapsed());
    assert_eq!(subjects(&report), ["good: still reported"]);
    for path in [".zsh_history", "src/zero-repo/.git", ".gemini/tmp/0123abcd/.project_root"] {
        let message = warning_naming(&report, "source_unreadable", &format!("[HOME]/{path}`"));
        assert!(message.contains("character device"), "{message}");
    }
}

#[test]
fn a_huge_history_without_a_newline_is_skipped_and_counted() {
    let home = home_with_a_repo();
    let history = home.write(".zsh_history", "");
    // 1 GiB of zeros, no newline: sparse, so it costs no disk (the line cap is 256 KiB;
    // a debug build scans a GiB in about 5 s of CPU).
    fs_err::File::options().write(true).open(&history).unwrap().set_len(1 << 30).unwrap();
    // A transcript whose one record is longer than the 16 MiB line cap, then a good one.
    let long = format!("{{\"pad\":\"{}\"}}\n", "x".repeat(17 << 20));
    let good = json!({
        "type": "user", "uuid": "u1", "timestamp": at("09:00:00"),
        "sessionId": "11111111-2222-4333-8444-555555555555", "cwd": "/x",
        "isSidechain": false, "message": {"role": "user", "content": "after the long line"},
    });
    home.write(
        ".claude/projects/-x/11111111-2222-4333-8444-555555555555.jsonl",
        &format!("{long}{good}\n"),
    );

    let command = home.command(home.path(), NOW, TOKYO, &DAILY);
    let run = run_bounded(command, &home, Duration::from_secs(240));
    let report: Value = serde_json::from_str(run.success()).unwrap();
    assert_eq!(subjects(&report), ["good: still reported"]);
    let message = warning_naming(&report, "malformed_lines", "[HOME]/.zsh_history`");
    assert!(message.contains("1 line longer than 256 KiB skipped (first at line 1)"), "{message}");
    let message =
        warning_naming(&report, "malformed_lines", "11111111-2222-4333-8444-555555555555.jsonl`");
    assert!(message.contains("1 line longer than 16 MiB skipped (first at line 1)"), "{message}");
    assert_eq!(session_titles(&report), ["after the long line"]);
}

#[test]
fn git_blocked_on_a_fifo_is_stopped_at_its_deadline() {
    let home = home_with_a_repo();
    home.config("[git]\ntimeout_secs = 1\n");
    let packed = home.repo("packed");
    packed.commit("a.txt", "packed: never shown", "2026-11-27T11:00:00+09:00");
    mkfifo(&packed.path.join(".git/packed-refs"));
    let alternates = home.repo("alternates");
    alternates.commit("a.txt", "alternates: never shown", "2026-11-27T12:00:00+09:00");
    mkfifo(&alternates.path.join(".git/objects/info/alternates"));
    // Its commits are read; `git status` blocks on the `.gitignore` FIFO.
    let ignored = home.repo("ignored");
    ignored.commit("src/a.txt", "ignored: commits still shown", "2026-11-27T13:00:00+09:00");
    mkfifo(&ignored.path.join("src/.gitignore"));

    let started = Instant::now();
    let report = daily(&home);
    assert!(started.elapsed() < Duration::from_secs(20), "took {:?}", started.elapsed());
    let mut shown = subjects(&report);
    shown.sort();
    assert_eq!(shown, ["good: still reported", "ignored: commits still shown"]);
    for name in ["packed", "alternates"] {
        let message = warning_naming(&report, "git_failed", &format!("[HOME]/src/{name}`"));
        assert!(message.starts_with("git: cannot read `"), "{message}");
        assert!(message.contains("did not finish within 1 s"), "{message}");
    }
    // Only the work in progress is missing, and the warning says so.
    let message = warning_naming(&report, "git_failed", "[HOME]/src/ignored`");
    assert!(message.starts_with("git: cannot check `"), "{message}");
    assert!(message.contains("for work in progress: git did not finish within 1 s"), "{message}");
}

#[test]
fn git_timeout_secs_is_validated() {
    let home = Home::new();
    for (value, shown) in [("0", "0"), ("-5", "-5"), ("86400", "86400")] {
        home.config(&format!("[git]\ntimeout_secs = {value}\n"));
        let run = run(&home, &["daily", "--no-llm"]);
        assert_eq!(run.code, 2, "{}", run.snapshot());
        assert!(
            run.stderr.contains(&format!(
                "line 2, key `git.timeout_secs`: {shown} is out of range: one git process may run from 1 to 3600 seconds"
            )),
            "{}",
            run.stderr
        );
    }
}

/// Gives the whole temporary home (and the folder above it) to uid 65534.
/// `standup daily` as uid 65534 (as root, every permission check passes), with the
/// environment the other tests give it; the home must be [`give_to_nobody`]'s.
fn as_nobody(home: &Home) -> Command {
    let standup = home.command(home.path(), NOW, TOKYO, &DAILY);
    #[expect(clippy::disallowed_methods, reason = "the test drops privileges with setpriv")]
    let mut command = Command::new("setpriv");
    command
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(standup.get_program())
        .args(standup.get_args())
        .current_dir(home.path())
        .env_clear();
    for (name, value) in standup.get_envs() {
        if let Some(value) = value {
            command.env(name, value);
        }
    }
    command
}

fn give_to_nobody(home: &Home) {
    fn chown_tree(path: &Path) {
        std::os::unix::fs::lchown(path, Some(65534), Some(65534)).unwrap();
        if fs_err::symlink_metadata(path).unwrap().is_dir() {
            for entry in fs_err::read_dir(path).unwrap() {
                chown_tree(&entry.unwrap().path());
            }
        }
    }
    let top = home.path().parent().unwrap();
    chown_tree(top);
}

#[test]
fn unreadable_agent_folders_are_named_once_and_the_rest_still_comes_out() {
    let home = home_with_a_repo();
    home.write(".claude/projects/-srv-app/aaaaaaaa-0000-4000-8000-000000000001.jsonl", "");
    home.write(
        ".codex/sessions/2026/11/27/rollout-2026-11-27T10-00-00-11111111-1111-4111-8111-111111111111.jsonl",
        "",
    );
    give_to_nobody(&home);
    let locked = [".claude/projects", ".codex/sessions/2026/11/27"];
    let mode = |folder: &str, mode| {
        let path = home.path().join(folder);
        std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(mode)).unwrap();
    };
    for folder in locked {
        mode(folder, 0o000);
    }
    let report = daily_with(&home, as_nobody(&home));
    for folder in locked {
        mode(folder, 0o755);
    }

    assert_eq!(subjects(&report), ["good: still reported"]);
    for folder in locked {
        let message = warning_naming(&report, "source_unreadable", &format!("[HOME]/{folder}`"));
        // The folder once, then why.
        assert_eq!(message.matches(folder).count(), 1, "{message}");
        assert!(message.ends_with("Permission denied (os error 13)"), "{message}");
    }
}

#[test]
fn an_unreadable_repository_is_named_not_skipped_as_unchanged() {
    let home = home_with_a_repo();
    let locked = home.repo("locked");
    locked.commit("a.txt", "locked: cannot be read", "2026-11-27T11:00:00+09:00");
    give_to_nobody(&home);
    let git_dir = locked.path.join(".git");
    std::fs::set_permissions(&git_dir, std::os::unix::fs::PermissionsExt::from_mode(0o000))
        .unwrap();

    let report = daily_with(&home, as_nobody(&home));
    std::fs::set_permissions(&git_dir, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .unwrap();

    assert_eq!(subjects(&report), ["good: still reported"]);
    let message = warning_naming(&report, "git_failed", "[HOME]/src/locked`");
    assert!(!message.is_empty());
}

#[test]
fn a_subject_with_byte_0x1e_keeps_its_line_counts() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("app");
    repo.commit_as(
        ME,
        "a.txt",
        "one\ntwo\nthree\n",
        "split\u{1e}here",
        "2026-11-27T10:00:00+09:00",
        "2026-11-27T10:00:00+09:00",
    );
    repo.commit("b.txt", "plain after", "2026-11-27T11:00:00+09:00");
    let report = daily(&home);
    let commits = commits(&report);
    let odd = commits
        .iter()
        .find(|commit| commit["subject"].as_str().unwrap().starts_with("split"))
        .unwrap_or_else(|| panic!("{commits:#?}"));
    assert_eq!((odd["files_changed"].as_u64(), odd["insertions"].as_u64()), (Some(1), Some(3)));
    assert_eq!(commits.len(), 2, "{commits:#?}");
}

#[test]
fn transcripts_and_rollouts_whose_names_are_not_utf8_are_read() {
    let home = Home::new();
    let root = home.path().to_path_buf();
    let odd = |folder: &str, head: &[u8]| -> PathBuf {
        let mut name = head.to_vec();
        name.extend_from_slice(b"\xff\xfe.jsonl");
        root.join(folder).join(OsStr::from_bytes(&name))
    };
    let claude = odd(".claude/projects/-x", b"");
    fs_err::create_dir_all(claude.parent().unwrap()).unwrap();
    fs_err::write(
        &claude,
        jsonl(&[json!({
            "type": "user", "uuid": "u1", "timestamp": at("09:00:00"),
            "sessionId": "11111111-2222-4333-8444-555555555555", "cwd": "/x",
            "isSidechain": false, "message": {"role": "user", "content": "claude prompt in an odd file"},
        })]),
    )
    .unwrap();
    let codex = odd(".codex/sessions/2026/11/27", b"rollout-2026-11-27T10-00-00-");
    fs_err::create_dir_all(codex.parent().unwrap()).unwrap();
    fs_err::write(
        &codex,
        jsonl(&[
            json!({"timestamp": at("10:00:00"), "type": "session_meta", "payload": {"id": "0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee", "cwd": "/y"}}),
            json!({"timestamp": at("10:00:02"), "type": "event_msg", "payload": {"type": "user_message", "message": "codex prompt in an odd file", "kind": "plain"}}),
        ]),
    )
    .unwrap();
    let mut titles = session_titles(&daily(&home));
    titles.sort();
    assert_eq!(titles, ["claude prompt in an odd file", "codex prompt in an odd file"]);
}

#[test]
fn a_repository_symlinked_into_a_root_is_read_once_and_link_loops_end() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let root = home.path().to_path_buf();
    fs_err::create_dir_all(root.join("elsewhere/tool")).unwrap();
    let tool = home.repo_handle(&root.join("elsewhere/tool"));
    tool.git(&["init", "-q", "-b", "main"]);
    tool.commit("main.go", "tool: linked in", "2026-11-27T16:30:00+09:00");
    symlink(&root.join("elsewhere/tool"), &root.join("src/tool"));
    symlink(&root.join("elsewhere/tool"), &root.join("src/nested/same-tool"));
    symlink(&root.join("src"), &root.join("src/loop"));

    let report = daily(&home);
    assert_eq!(subjects(&report), ["tool: linked in"]);
}

#[test]
fn the_variables_collect_reads_reach_it() {
    let home = Home::new();
    let root = home.path().to_path_buf();
    // A bash history not written since the window began: with `SHELL=/bin/zsh` it is
    // only a note in doctor, not a `history_stale` warning (bash is not the login shell).
    let bash = home.write(".bash_history", "#1795000000\nls\n");
    let old = std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_000_000);
    fs_err::File::options().write(true).open(&bash).unwrap().set_modified(old).unwrap();
    // A Gemini chat under `$GEMINI_CLI_HOME/.gemini`, not `~/.gemini`.
    home.write(
        "gemini-home/.gemini/tmp/0123abcd/chats/session-2026-11-27T12-00-cccc.jsonl",
        &jsonl(&[json!({"id": "g1", "timestamp": at("12:00:00"), "type": "user", "content": "from GEMINI_CLI_HOME"})]),
    );
    let mut command = home.command(home.path(), NOW, TOKYO, &DAILY);
    command.env("SHELL", "/bin/zsh").env("GEMINI_CLI_HOME", root.join("gemini-home"));
    let report = daily_with(&home, command);
    assert_eq!(session_titles(&report), ["from GEMINI_CLI_HOME"]);
    let stale: Vec<_> =
        warnings(&report).into_iter().filter(|(code, _)| code == "history_stale").collect();
    assert!(stale.is_empty(), "{stale:#?}");
}

#[test]
fn a_config_file_that_is_a_fifo_or_a_device_is_refused_not_read() {
    let home = home_with_a_repo();
    let fifo = home.path().join(".config/standup/config.toml");
    mkfifo(&fifo);
    for args in [&["daily"][..], &["doctor"]] {
        let run = run_bounded(home.command(home.path(), NOW, TOKYO, args), &home, DEADLINE);
        assert_eq!(run.code, 2, "{args:?}: {}", run.snapshot());
        assert!(run.stderr.contains("not a regular file"), "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("config.toml"), "{args:?}: {}", run.stderr);
    }
    let args = ["daily", "--config", "/dev/zero"];
    let run = run_bounded(home.command(home.path(), NOW, TOKYO, &args), &home, DEADLINE);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(run.stderr.contains("`/dev/zero`"), "{}", run.stderr);
    assert!(run.stderr.contains("not a regular file"), "{}", run.stderr);
}
