//! A hostile home: folder names, arguments, environment variables and config values
//! crafted to reach the terminal (escape sequences), leak a token or crash the binary.
//! Nothing of it gets through, and nothing panics. (Special files are in
//! `special_files.rs`; invisible code points in `secrets.rs`.)

use crate::secrets::{GITHUB_PAT, NOW, TOKYO};
use crate::support::{Home, ME, Run};

/// OSC 52 (a clipboard write), OSC 0 (the window title) and CSI (clear, colour).
const OSC52: &str = "\u{1b}]52;c;ZXZpbA==\u{7}";
const OSC0: &str = "\u{1b}]0;pwned\u{7}";
const CSI: &str = "\u{1b}[2J\u{1b}[31m";

#[track_caller]
fn assert_nothing_escapes(run: &Run) {
    for (stream, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        assert!(!text.contains('\u{1b}'), "ESC on {stream}:\n{}", run.snapshot());
        assert!(!text.contains('\u{7}'), "BEL on {stream}:\n{}", run.snapshot());
        assert!(!text.contains('\u{9b}') && !text.contains('\u{9d}'), "C1 on {stream}");
        assert!(!text.contains(GITHUB_PAT), "token on {stream}:\n{}", run.snapshot());
        assert!(!text.contains("panicked"), "panic on {stream}:\n{}", run.snapshot());
    }
}

/// A home whose repositories are named with escapes and a token, one of them broken
/// so a warning names it.
fn hostile_home() -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let escapes = home.repo(&format!("clip{OSC52}board{OSC0}title{CSI}red"));
    escapes.commit("a", "work in the escape folder", "2026-11-27T10:00:00+09:00");
    let token = home.repo(GITHUB_PAT);
    for (file, hour) in [("a", 11), ("b", 12), ("c", 13)] {
        token.commit(file, &format!("commit {file}"), &format!("2026-11-27T{hour}:00:00+09:00"));
    }
    // A repository git cannot read: its warning quotes the folder name.
    let broken = home.repo(&format!("broken-{OSC0}{GITHUB_PAT}"));
    fs_err::write(broken.path.join(".git/HEAD"), "garbage\n").unwrap();
    home
}

#[test]
fn folder_names_reach_neither_the_report_nor_doctor() {
    let home = hostile_home();
    let markdown = home.run(NOW, TOKYO, &["daily", "--no-llm"]);
    assert_nothing_escapes(&markdown);
    let text = markdown.success();
    assert!(text.contains("clipboardtitlered"), "{text}");
    assert!(text.contains("\\[REDACTED:github-pat\\]"), "{text}");
    assert!(markdown.stderr.contains("git_failed"), "{}", markdown.snapshot());

    let json = home.run(NOW, TOKYO, &["daily", "--no-llm", "--format", "json"]);
    assert_nothing_escapes(&json);
    let report: serde_json::Value = serde_json::from_str(json.success()).unwrap();
    // One token in one folder name with three commits is one secret (it was six); the
    // broken repository's warning names its folder twice (our path, then git's).
    assert_eq!(
        report["meta"]["secrets_masked"],
        serde_json::json!([{"source": "git", "count": 1}, {"source": "warnings", "count": 2}]),
        "{}",
        json.stdout
    );
    let footer = text.lines().last().unwrap();
    assert!(
        footer.ends_with("· 1 secret masked in commits · 2 secrets masked in warnings"),
        "{footer}"
    );

    let doctor = home.run(NOW, TOKYO, &["doctor"]);
    assert_nothing_escapes(&doctor);
    let out = doctor.success();
    assert!(out.contains("[HOME]/src/clipboardtitlered\n"), "{out}");
    assert!(out.contains("[HOME]/src/[REDACTED:github-pat]\n"), "{out}");
    assert!(
        out.contains("warning: git_failed: git: cannot read `[HOME]/src/broken-[REDACTED"),
        "{out}"
    );
}

#[test]
fn japanese_report_names_masked_warnings_in_japanese() {
    let home = hostile_home();
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm", "--lang", "ja"]);
    assert_nothing_escapes(&run);
    let footer = run.success().lines().last().unwrap().to_owned();
    assert!(
        footer.ends_with("コミットの秘密情報1件をマスク · 警告の秘密情報2件をマスク"),
        "{footer}"
    );
}

#[test]
fn dates_near_the_limits_are_usage_errors_not_panics() {
    let home = hostile_home();
    for args in [
        &["daily", "--date=-009999-01-03"][..],
        &["standup", "--date=-009999-01-03"],
        &["daily", "--date=9999-12-31"],
        &["daily", "--date=9999-01-01"],
        &["standup", "--date=1969-12-31"],
        &["daily", "--since=-009999-01-03"],
        &["daily", "--since=2026-11-01", "--until=9999-12-31"],
    ] {
        let run = home.run(NOW, TOKYO, args);
        assert_nothing_escapes(&run);
        assert_eq!(run.code, 2, "{args:?}\n{}", run.snapshot());
        assert!(run.stderr.contains("out of range"), "{}", run.snapshot());
    }
    for now in ["-009999-01-03T00:00:00Z", "9999-12-31T23:00:00Z", "1960-01-01T00:00:00Z"] {
        for args in [&["daily", "--no-llm"][..], &["doctor"]] {
            let run = home.run(now, "UTC", args);
            assert_nothing_escapes(&run);
            assert_eq!(run.code, 2, "{now} {args:?}\n{}", run.snapshot());
            assert!(run.stderr.contains("STANDUP_NOW"), "{}", run.snapshot());
        }
    }
    // The last day of the range still gives a report.
    let run = home.run("9998-12-31T12:00:00Z", "UTC", &["daily", "--no-llm"]);
    assert_nothing_escapes(&run);
    run.success();
}

#[test]
fn config_values_out_of_range_are_usage_errors_naming_the_key() {
    let home = hostile_home();
    let cases = [
        ("[llm]\ntimeout_secs = 9223372036854775000\n", "line 2, key `llm.timeout_secs`"),
        ("[llm]\ntimeout_secs = 0\n", "line 2, key `llm.timeout_secs`"),
        ("[llm]\ntemperature = nan\n", "line 2, key `llm.temperature`"),
        ("[llm]\ntemperature = inf\n", "line 2, key `llm.temperature`"),
        ("[llm]\ntemperature = -0.5\n", "line 2, key `llm.temperature`"),
        ("[llm]\nmax_input_chars = 0\n", "line 2, key `llm.max_input_chars`"),
        ("[llm]\nmax_output_chars = 0\n", "line 2, key `llm.max_output_chars`"),
        ("[llm]\nendpoint = \"http://127.0.0.1:99999\"\n", "line 2, key `llm.endpoint`"),
        ("day_start = \"+4:-0\"\n", "line 1, key `day_start`"),
        ("[git]\nmax_depth = 100000\n", "line 2, key `git.max_depth`"),
        ("\nday_start = \"4:00\"\n", "line 2, key `day_start`"),
    ];
    for (config, named) in cases {
        home.config(config);
        for args in [&["daily"][..], &["doctor"]] {
            let run = home.run(NOW, TOKYO, args);
            assert_nothing_escapes(&run);
            assert_eq!(run.code, 2, "{config}\n{}", run.snapshot());
            assert!(run.stderr.contains(named), "{config}\n{}", run.snapshot());
        }
    }
    // With the LLM on and a huge time-out the run once panicked; now it is refused
    // before any request (the endpoint here would answer nothing).
    home.config("[llm]\nenabled = true\ntimeout_secs = 9223372036854775000\n");
    let run = home.run(NOW, TOKYO, &["daily"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
}

#[test]
fn escapes_and_tokens_in_input_are_not_echoed() {
    let home = hostile_home();
    let evil = format!("{OSC52}{OSC0}{CSI}{GITHUB_PAT}");
    // Environment variables.
    let run = home.run(&evil, TOKYO, &["daily"]);
    assert_nothing_escapes(&run);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("STANDUP_NOW is `[REDACTED:github-pat]`"), "{}", run.snapshot());
    let run = home.run(NOW, &evil, &["daily"]);
    assert_nothing_escapes(&run);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("TZ is `[REDACTED:github-pat]`"), "{}", run.snapshot());
    // Arguments (clap quotes a bad `--lang` itself).
    for args in [
        vec!["daily".to_owned(), format!("--date={evil}")],
        vec!["daily".to_owned(), format!("--since={evil}")],
        vec!["daily".to_owned(), "--since=2026-11-01".to_owned(), format!("--until={evil}")],
        vec!["daily".to_owned(), format!("--lang={evil}")],
        vec!["daily".to_owned(), format!("--format={evil}")],
        vec!["doctor".to_owned(), format!("--bogus={evil}")],
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = home.run(NOW, TOKYO, &args);
        assert_nothing_escapes(&run);
        assert_eq!(run.code, 2, "{args:?}\n{}", run.snapshot());
    }
    // Config values, in TOML's own escapes; a token of the wrong type.
    let esc = "\\u001b]52;c;ZXZpbA==\\u0007\\u001b[2J";
    let cases = [
        (format!("lang = \"{esc}xx\"\n"), "key `lang`"),
        (format!("timezone = \"{esc}{GITHUB_PAT}\"\n"), "key `timezone`"),
        (format!("workdays = [\"{esc}\"]\n"), "key `workdays`"),
        (format!("holidays = [\"{esc}\"]\n"), "key `holidays`"),
        (format!("day_start = \"{esc}\"\n"), "key `day_start`"),
        (format!("[sessions]\nagents = [\"{esc}{GITHUB_PAT}\"]\n"), "key `sessions.agents`"),
        (format!("[shell]\nshells = [\"{esc}\"]\n"), "key `shell.shells`"),
        (format!("[llm]\napi = \"{esc}\"\n"), "key `llm.api`"),
        (
            format!("[llm]\nendpoint = \"http://127.0.0.1:99999/{esc}{GITHUB_PAT}\"\n"),
            "key `llm.endpoint`",
        ),
        (format!("[redact]\nallow = \"{GITHUB_PAT}\"\n"), "key `redact.allow`"),
        (
            format!("[redact]\nrules = [{{ id = \"{esc}\", regex = \"x\" }}]\n"),
            "key `redact.rules`",
        ),
        (
            format!("[redact]\nrules = [{{ id = \"r\", regex = \"({esc}{GITHUB_PAT}\" }}]\n"),
            "key `redact.rules`",
        ),
        (format!("\"{esc}\" = 1\n"), "line 1"),
    ];
    for (config, named) in &cases {
        home.config(config);
        let run = home.run(NOW, TOKYO, &["daily"]);
        assert_nothing_escapes(&run);
        assert_eq!(run.code, 2, "{config}\n{}", run.snapshot());
        assert!(run.stderr.contains(named), "{config}\n{}", run.snapshot());
    }
}

#[test]
fn a_long_value_is_quoted_short() {
    let home = Home::new();
    let long = "x".repeat(10_000);
    let run = home.run(NOW, TOKYO, &["daily", &format!("--date={long}")]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.len() < 300, "{}", run.stderr);
    assert!(run.stderr.contains('…'), "{}", run.stderr);
}
