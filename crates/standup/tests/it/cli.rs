//! The command line: help, exit codes, output files, pipes, `config init` and `path`.

use std::fmt::Write as _;
use std::io::Read as _;
use std::process::Stdio;

use crate::support::{Home, ME};

const NOW: &str = "2026-11-27T18:00:00+09:00";
const TOKYO: &str = "Asia/Tokyo";

#[test]
fn help_shows_examples_and_exit_codes() {
    let home = Home::new();
    let run = home.run(NOW, TOKYO, &["--help"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("standup daily --date yesterday --lang ja"), "{}", run.stdout);
    assert!(run.stdout.contains("Exit codes: 0 report written"), "{}", run.stdout);
    let run = home.run(NOW, TOKYO, &["daily", "--help"]);
    for flag in ["--date", "--lang", "--format", "--no-llm", "--config", "--output"] {
        assert!(run.stdout.contains(flag), "{flag} missing from: {}", run.stdout);
    }
}

#[test]
fn an_empty_day_is_one_line() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm"]);
    insta::assert_snapshot!(run.snapshot(), @r"
    exit_code: 0
    ----- stdout -----
    No recorded activity for 2026-11-27 (Fri).
    ----- stderr -----
    ");
    let run = home.run(NOW, TOKYO, &["standup", "--lang", "ja"]);
    insta::assert_snapshot!(run.stdout, @"2026年11月26日（木）・2026年11月27日（金）の記録された活動はありません。");
}

#[test]
fn usage_errors_exit_2_with_one_line() {
    let home = Home::new();
    let run = home.run(NOW, TOKYO, &["daily", "--date", "someday"]);
    insta::assert_snapshot!(run.snapshot(), @r"
    exit_code: 2
    ----- stdout -----
    ----- stderr -----
    standup: error: --date `someday` is not `today`, `yesterday` or a date `YYYY-MM-DD`
    ");
    // A date of the right shape that the calendar does not have says why.
    for (date, why) in [
        ("2026-02-29", "February 2026 has 28 days"),
        ("2028-02-30", "February 2028 has 29 days"),
        ("2026-11-31", "November 2026 has 30 days"),
        ("2026-13-01", "there is no month 13"),
        ("2026-00-01", "there is no month 00"),
        ("2026-11-00", "there is no day 00"),
    ] {
        for flag in ["--date", "--since"] {
            let run = home.run(NOW, TOKYO, &["daily", flag, date]);
            assert_eq!(run.code, 2);
            assert_eq!(
                run.stderr,
                format!("standup: error: {flag} `{date}` is not a date: {why}\n"),
            );
        }
    }
    let run = home.run("not a time", TOKYO, &["daily"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with("standup: error: STANDUP_NOW is `not a time`"),
        "{}",
        run.stderr
    );
    let run = home.run(NOW, TOKYO, &["daily", "--format", "yaml"]);
    assert_eq!(run.code, 2);
}

#[test]
fn output_file_gets_the_report() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    home.repo("app").commit("a", "work", "2026-11-27T10:00:00+09:00");
    let out = home.path().join("report.md");
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm", "-o", out.to_str().unwrap()]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.is_empty());
    let text = fs_err::read_to_string(&out).unwrap();
    assert!(text.starts_with("# Daily report — 2026-11-27 (Fri)\n"), "{text}");
    // A folder that does not exist: no report could be written, exit 1.
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm", "-o", "/nonexistent-dir/x.md"]);
    assert_eq!(run.code, 1, "{}", run.snapshot());
    assert!(run.stderr.starts_with("standup: error: writing the report"), "{}", run.stderr);
}

#[test]
fn a_closed_stdout_pipe_exits_quietly() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let repo = home.repo("big");
    // Enough commits that the report is larger than a pipe's buffer.
    let mut stream = String::new();
    for index in 0..3000 {
        let time = 1_795_741_200 + index;
        let _ = write!(
            stream,
            "commit refs/heads/main\nauthor Me <me@example.com> {time} +0900\ncommitter Me <me@example.com> {time} +0900\ndata <<EOT\nchange number {index} with a longer subject line to fill the pipe\nEOT\nM 644 inline file{}\ndata <<EOT\n{index}\nEOT\n\n",
            index % 10
        );
    }
    repo.fast_import(stream.as_bytes());
    // 1795741200 is 2026-11-27T01:00:00Z; the whole stream falls on Nov 27 in Tokyo.
    let mut child = home
        .command(home.path(), NOW, TOKYO, &["daily", "--no-llm"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 15];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    assert_eq!(&first, b"# Daily report ");
}

#[test]
fn config_init_writes_once_and_path_tells_where() {
    let home = Home::new();
    let run = home.run(NOW, TOKYO, &["config", "path"]);
    assert_eq!(run.stdout, "[HOME]/.config/standup/config.toml\n");
    let run = home.run(NOW, TOKYO, &["config", "init"]);
    assert_eq!(
        run.snapshot(),
        "exit_code: 0\n----- stdout -----\nwrote [HOME]/.config/standup/config.toml\n----- stderr -----\n"
    );
    let written = fs_err::read_to_string(home.path().join(".config/standup/config.toml")).unwrap();
    assert!(written.contains("# day_start = \"00:00\""));
    let run = home.run(NOW, TOKYO, &["config", "init"]);
    insta::assert_snapshot!(run.snapshot(), @r"
    exit_code: 2
    ----- stdout -----
    ----- stderr -----
    standup: error: config `[HOME]/.config/standup/config.toml` already exists (use --force to overwrite it)
    ");
    fs_err::write(home.path().join(".config/standup/config.toml"), "lang = \"ja\"\n").unwrap();
    assert_eq!(home.run(NOW, TOKYO, &["config", "init", "--force"]).code, 0);
    assert_eq!(
        fs_err::read_to_string(home.path().join(".config/standup/config.toml")).unwrap(),
        written
    );
    // The written default is a valid config.
    assert_eq!(home.run(NOW, TOKYO, &["daily"]).code, 0);
}

#[test]
fn xdg_config_home_moves_the_config() {
    let home = Home::new();
    let run = home
        .command(home.path(), NOW, TOKYO, &["config", "path"])
        .env("XDG_CONFIG_HOME", home.path().join("xdg"))
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        format!("{}/xdg/standup/config.toml\n", home.path().display())
    );
}

/// `TZ` in every form glibc accepts places the day; one it cannot use is a warning and
/// the system's zone, never a failure.
#[test]
fn tz_takes_the_forms_glibc_accepts() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    home.repo("app").commit("a", "parser: accept trailing commas", "2026-11-27T10:00:00+09:00");
    let tokyo_file = "/usr/share/zoneinfo/Asia/Tokyo";
    assert!(std::path::Path::new(tokyo_file).is_file(), "tzdata is installed by .ci/run");
    for (tz, shown) in [
        (tokyo_file.to_owned(), "(Asia/Tokyo)"),
        (format!(":{tokyo_file}"), "(Asia/Tokyo)"),
        (":Asia/Tokyo".to_owned(), "(Asia/Tokyo)"),
        ("JST-9".to_owned(), "(JST-9)"),
    ] {
        for command in ["daily", "standup", "doctor"] {
            let run = home.run(
                NOW,
                &tz,
                &[command, "--no-llm"][..if command == "doctor" { 1 } else { 2 }],
            );
            assert_eq!(run.code, 0, "TZ={tz} {command}: {}", run.snapshot());
            assert!(!run.stdout.contains("time_zone_unusable"), "{}", run.stdout);
            if command == "daily" {
                assert!(run.stdout.contains(shown), "TZ={tz}: {}", run.stdout);
                assert!(run.stdout.contains("parser: accept trailing commas"), "{}", run.stdout);
                assert!(
                    run.stdout.contains("2026-11-27 00:00 – 2026-11-27 18:00"),
                    "{}",
                    run.stdout
                );
            }
        }
    }
    // A rule with daylight saving time, and /etc/localtime (whatever this machine's is).
    for tz in ["EST5EDT,M3.2.0,M11.1.0", ":/etc/localtime", "/etc/localtime", ""] {
        let run = home.run(NOW, tz, &["daily", "--no-llm"]);
        assert_eq!(run.code, 0, "TZ={tz}: {}", run.snapshot());
        assert!(!run.stdout.contains("TZ is"), "TZ={tz}: {}", run.stdout);
    }
    // Nothing usable: a warning naming it, the system's zone, the whole report.
    for tz in ["Nowhere/Special", ":/no/such/file", "/etc/passwd"] {
        for command in ["daily", "doctor"] {
            let run = home.run(NOW, tz, &[command]);
            assert_eq!(run.code, 0, "TZ={tz}: {}", run.snapshot());
            assert!(
                run.stdout.contains(&format!("TZ is `{tz}`, which is not a time zone")),
                "{}",
                run.stdout
            );
        }
        let json = home.run(NOW, tz, &["daily", "--format", "json"]);
        assert!(json.stdout.contains("\"time_zone_unusable\""), "{}", json.stdout);
        let ja = home.run(NOW, tz, &["daily", "--lang", "ja"]);
        assert!(ja.stdout.contains("タイムゾーンとして使えない"), "{}", ja.stdout);
    }
}

/// Without `HOME` the home folder comes from the user database, and the report says so.
#[test]
fn an_unset_home_is_named() {
    let home = Home::new();
    let mut command = home.command(home.path(), NOW, TOKYO, &["daily", "--no-llm"]);
    command.env_remove("HOME");
    let run = home.run_command(&mut command);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.contains("HOME is not set"), "{}", run.stdout);
    let mut command = home.command(home.path(), NOW, TOKYO, &["daily", "--no-llm", "--lang", "ja"]);
    command.env("HOME", "");
    let run = home.run_command(&mut command);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.contains("HOME が設定されていない"), "{}", run.stdout);
}

/// A warning quoting a 16,000-character path keeps one readable line: the path's start
/// and end around a `…`.
#[test]
fn a_long_path_in_a_warning_is_shortened() {
    let home = Home::new();
    let long = format!("/{}/history", "d".repeat(16_000));
    let mut command = home.command(home.path(), NOW, TOKYO, &["daily", "--no-llm"]);
    command.env("HISTFILE", &long).env("SHELL", "/bin/bash");
    let run = home.run_command(&mut command);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let line = run
        .stdout
        .lines()
        .find(|line| line.contains("ddd"))
        .unwrap_or_else(|| panic!("no warning names the path: {}", run.stdout));
    assert!(line.chars().count() < 600, "{line}");
    assert!(line.contains("…") && line.contains("ddd/history`"), "{line}");
    let json = home.run_command(
        home.command(home.path(), NOW, TOKYO, &["daily", "--no-llm", "--format", "json"])
            .env("HISTFILE", &long)
            .env("SHELL", "/bin/bash"),
    );
    assert!(json.stdout.len() < 8_000, "{}", json.stdout.len());
}

/// `--timings` names every stage on stderr, in the order they ran, from discovery and
/// the git stage to the wall time, and leaves the report on stdout as it is without it.
#[test]
fn timings_name_every_stage_in_order() {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let app = home.repo("app");
    app.commit("a.txt", "first commit", "2026-11-27T10:00:00+09:00");
    let plain = home.run(NOW, TOKYO, &["daily", "--no-llm"]);
    let timed = home.run(NOW, TOKYO, &["daily", "--no-llm", "--timings"]);
    assert_eq!((timed.code, &timed.stdout), (0, &plain.stdout));
    let stages: Vec<&str> = timed
        .stderr
        .lines()
        .skip_while(|line| *line != "timings:")
        .skip(1)
        .filter_map(|line| line.trim().rsplit_once("  ").map(|(stage, _)| stage.trim()))
        .collect();
    let expected = [
        "discover",
        "git: repositories under the roots",
        "sessions: Claude Code",
        "join",
        "git: work in progress",
        "sanitize + redact",
        "aggregate",
        "render",
        "wall (config to rendered report)",
    ];
    let positions: Vec<Option<usize>> =
        expected.iter().map(|name| stages.iter().position(|stage| stage == name)).collect();
    assert!(positions.iter().all(Option::is_some), "{stages:?}\n{}", timed.stderr);
    assert!(positions.is_sorted(), "{stages:?}");
    assert!(stages.iter().any(|stage| stage.starts_with("shell: ")), "{stages:?}");
}

/// A `HOME` that names no folder (a service or a container given the wrong one) reads
/// nothing under it: the report says why it is empty.
#[test]
fn a_home_that_is_not_there_is_named() {
    let home = Home::new();
    let gone = home.path().join("no-such-home");
    let mut command = home.command(home.path(), NOW, TOKYO, &["daily", "--no-llm"]);
    command.env("HOME", &gone);
    let run = home.run_command(&mut command);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stdout.contains(
            "- Warning: `source_unreadable` HOME names no folder (`[HOME]/no-such-home`): agent logs, shell histories and the config under a home folder are not read"
        ),
        "{}",
        run.stdout
    );
    let mut command = home.command(home.path(), NOW, TOKYO, &["daily", "--no-llm", "--lang", "ja"]);
    command.env("HOME", &gone);
    let run = home.run_command(&mut command);
    assert!(run.stdout.contains("HOME のフォルダー"), "{}", run.stdout);
    // The real one: no such warning.
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm"]);
    assert!(!run.stdout.contains("HOME names no folder"), "{}", run.stdout);
}
