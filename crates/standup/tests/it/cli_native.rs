//! The native CLI: completions, the man page, the JSON Schema (committed and checked
//! against real output), bare `standup`, `-o -`, `--show-prompt` with `-o` and JSON,
//! `--quiet`, `--color`, `--copy` without a display, `config init`'s marks, a relative
//! `XDG_CONFIG_HOME`, and no made-up bug-report address in `--help`.

use std::path::Path;

use serde_json::Value;

use crate::support::{Home, ME};

const NOW: &str = "2026-11-27T18:00:00+09:00";
const TOKYO: &str = "Asia/Tokyo";

fn worked_home() -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    home.repo("app").commit("a", "parser: accept trailing commas", "2026-11-27T10:00:00+09:00");
    home
}

#[test]
fn completions_for_every_shell() {
    let home = Home::new();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let run = home.run(NOW, TOKYO, &["completions", shell]);
        let script = run.success();
        for word in ["standup", "daily", "format", "compact", "completions"] {
            assert!(script.contains(word), "{shell}: {word} missing");
        }
        // Shells that complete values offer the formats.
        if ["bash", "zsh", "fish"].contains(&shell) {
            assert!(script.contains("slack"), "{shell}: no format values");
        }
        assert!(!script.contains("__clipboard"), "{shell}: the internal command is listed");
    }
    // The bash script is valid bash.
    let script = home.run(NOW, TOKYO, &["completions", "bash"]).stdout;
    let path = home.write("standup.bash", &script);
    #[expect(clippy::disallowed_methods, reason = "checks the script with the real bash")]
    let status = std::process::Command::new("bash").arg("-n").arg(&path).status().unwrap();
    assert!(status.success());
    assert_eq!(home.run(NOW, TOKYO, &["completions", "tcsh"]).code, 2);
}

#[test]
fn man_page_is_roff_with_every_command() {
    let home = Home::new();
    let run = home.run(NOW, TOKYO, &["man"]);
    let roff = run.success();
    assert!(roff.contains(".TH standup 1"), "{roff}");
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH OPTIONS", ".SH SUBCOMMANDS"] {
        assert!(roff.contains(section), "{section} missing");
    }
    for command in ["standup\\-daily", "standup\\-doctor", "standup\\-completions"] {
        assert!(roff.contains(command), "{command} missing");
    }
}

fn committed_schema() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/report.schema.json");
    fs_err::read_to_string(path).unwrap()
}

#[test]
fn schema_matches_the_committed_file() {
    let home = Home::new();
    let run = home.run(NOW, TOKYO, &["schema"]);
    assert_eq!(
        run.success(),
        committed_schema(),
        "docs/report.schema.json is stale: run `cargo run -p standup -- schema > docs/report.schema.json`"
    );
}

#[test]
fn real_json_output_validates_against_the_schema() {
    let schema: Value = serde_json::from_str(&committed_schema()).unwrap();
    let home = worked_home();
    home.write(".zsh_history", &format!(": {}:0;cargo test\n", 1_795_741_200));
    let session = "aaaaaaaa-1111-4222-8333-444444444444";
    let cwd = home.path().join("src/app").display().to_string();
    home.write(
        &format!(".claude/projects/-x-app/{session}.jsonl"),
        &format!(
            "{}\n",
            serde_json::json!({"type": "user", "uuid": "u1", "parentUuid": null, "timestamp": "2026-11-27T01:00:00.000Z", "sessionId": session, "cwd": cwd, "isSidechain": false, "message": {"role": "user", "content": "set up the client"}})
        ),
    );
    for kind in ["daily", "standup"] {
        let run = home.run(NOW, TOKYO, &[kind, "--no-llm", "--format", "json"]);
        let report: Value = serde_json::from_str(run.success()).unwrap();
        let mut errors = Vec::new();
        validate(&schema, &schema, &report, "$", &mut errors);
        assert!(errors.is_empty(), "{kind}: {errors:#?}");
        // The check can fail: a field the schema does not know is reported.
        let mut extended = report.clone();
        extended["totals"]["surprise"] = Value::from(1);
        let mut errors = Vec::new();
        validate(&schema, &schema, &extended, "$", &mut errors);
        assert_eq!(errors, ["$.totals.surprise: not in the schema"]);
    }
    // A warning (no identity) validates too.
    let home = Home::new();
    home.repo("app").commit("a", "work", "2026-11-27T10:00:00+09:00");
    let report: Value = serde_json::from_str(
        home.run(NOW, TOKYO, &["daily", "--format", "json", "--no-llm"]).success(),
    )
    .unwrap();
    assert_eq!(report["warnings"][0]["code"], "identity_unknown");
    let mut errors = Vec::new();
    validate(&schema, &schema, &report, "$", &mut errors);
    assert!(errors.is_empty(), "{errors:#?}");
}

/// A structural check of `value` against the subset of JSON Schema that schemars writes:
/// `$ref` into `$defs`, `type` (one or several), `properties` + `required` (and no
/// property the schema does not name), `items`, `enum`, `const`, `anyOf`/`oneOf` and
/// `minimum`. Formats are not checked.
fn validate(root: &Value, schema: &Value, value: &Value, at: &str, errors: &mut Vec<String>) {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.strip_prefix("#/$defs/").expect("a local $ref");
        return validate(root, &root["$defs"][name], value, at, errors);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(options) = schema[key].as_array() {
            let matching = options
                .iter()
                .filter(|option| {
                    let mut inner = Vec::new();
                    validate(root, option, value, at, &mut inner);
                    inner.is_empty()
                })
                .count();
            let ok = if key == "oneOf" { matching == 1 } else { matching >= 1 };
            if !ok {
                errors.push(format!("{at}: {matching} of the {key} options match {value}"));
            }
        }
    }
    if let Some(expected) = schema.get("const")
        && expected != value
    {
        errors.push(format!("{at}: {value} is not {expected}"));
    }
    if let Some(options) = schema["enum"].as_array()
        && !options.contains(value)
    {
        errors.push(format!("{at}: {value} is not one of {options:?}"));
    }
    if let Some(types) = schema.get("type") {
        let types: Vec<&str> = match types {
            Value::String(one) => vec![one.as_str()],
            Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        let actual = match value {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(number) if number.is_u64() || number.is_i64() => "integer",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        };
        if !types.iter().any(|t| *t == actual || (*t == "number" && actual == "integer")) {
            errors.push(format!("{at}: {actual} is not {types:?}"));
            return;
        }
    }
    if let (Some(minimum), Some(number)) = (schema["minimum"].as_f64(), value.as_f64())
        && number < minimum
    {
        errors.push(format!("{at}: {number} < {minimum}"));
    }
    if let Value::Object(object) = value
        && let Some(properties) = schema["properties"].as_object()
    {
        for required in schema["required"].as_array().into_iter().flatten() {
            let name = required.as_str().unwrap();
            if !object.contains_key(name) {
                errors.push(format!("{at}.{name}: required but missing"));
            }
        }
        for (name, inner) in object {
            match properties.get(name) {
                Some(property) => validate(root, property, inner, &format!("{at}.{name}"), errors),
                None => errors.push(format!("{at}.{name}: not in the schema")),
            }
        }
    }
    if let (Value::Array(items), Some(item_schema)) = (value, schema.get("items")) {
        for (index, item) in items.iter().enumerate() {
            validate(root, item_schema, item, &format!("{at}[{index}]"), errors);
        }
    }
}

#[test]
fn bare_standup_is_the_standup_report() {
    let home = worked_home();
    let bare = home.run(NOW, TOKYO, &["--no-llm"]);
    let named = home.run(NOW, TOKYO, &["standup", "--no-llm"]);
    assert!(bare.success().starts_with("# Standup — 2026-11-27 (Fri)\n"), "{}", bare.stdout);
    assert_eq!(bare.stdout, named.stdout);
    let run = home.run(NOW, TOKYO, &[]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
}

#[test]
fn dash_output_is_stdout() {
    let home = worked_home();
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm", "-o", "-"]);
    assert!(run.success().starts_with("# Daily report"), "{}", run.stdout);
    assert!(!home.path().join("-").exists());
}

#[test]
fn show_prompt_honours_output_and_json() {
    let home = worked_home();
    let out = home.path().join("prompt.json");
    let run = home.run(
        NOW,
        TOKYO,
        &["daily", "--show-prompt", "--format", "json", "-o", out.to_str().unwrap()],
    );
    assert_eq!(run.success(), "");
    let body: Value = serde_json::from_str(&fs_err::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(body["messages"][0]["role"], "system");
    assert_eq!(body["messages"][1]["role"], "user");
    let user = body["messages"][1]["content"].as_str().unwrap();
    assert!(user.contains("parser: accept trailing commas"), "{user}");
    // The text form is the same messages.
    let text = home.run(NOW, TOKYO, &["daily", "--show-prompt"]);
    assert!(text.success().contains(user), "{}", text.stdout);
    // An empty day sends nothing, and says so.
    let empty = Home::new();
    let run = empty.run(NOW, TOKYO, &["daily", "--show-prompt"]);
    assert_eq!(run.success(), "no activity in the window, so no narrative request would be sent\n");
    let run = empty.run(NOW, TOKYO, &["daily", "--show-prompt", "--format", "json"]);
    let body: Value = serde_json::from_str(run.success()).unwrap();
    assert_eq!(body["request"], Value::Null);
}

#[test]
fn quiet_and_color_shape_stderr() {
    let home = Home::new();
    // No identity anywhere: an `identity_unknown` warning on stderr.
    home.repo("app").commit("a", "work", "2026-11-27T10:00:00+09:00");
    let plain = home.run(NOW, TOKYO, &["daily", "--no-llm"]);
    assert!(plain.stderr.starts_with("standup: warning: identity_unknown: "), "{}", plain.stderr);
    let quiet = home.run(NOW, TOKYO, &["daily", "--no-llm", "--quiet"]);
    assert_eq!(quiet.stderr, "");
    assert_eq!(quiet.stdout, plain.stdout, "the report still lists the warning");
    let always = home.run(NOW, TOKYO, &["daily", "--no-llm", "--color", "always"]);
    assert!(
        always.stderr.starts_with("standup: \u{1b}[1;33mwarning:\u{1b}[0m identity_unknown"),
        "{:?}",
        always.stderr
    );
    assert!(!always.stdout.contains('\u{1b}'), "the report itself is never colored");
    let forced = home
        .command(home.path(), NOW, TOKYO, &["daily", "--no-llm"])
        .env_remove("NO_COLOR")
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&forced.stderr).contains("\u{1b}[1;33m"));
    let no_color = home
        .command(home.path(), NOW, TOKYO, &["daily", "--no-llm"])
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&no_color.stderr).contains('\u{1b}'), "NO_COLOR wins");
    let error = home.run(NOW, TOKYO, &["daily", "--date", "someday", "--color", "always"]);
    assert!(
        error.stderr.starts_with("standup: \u{1b}[1;31merror:\u{1b}[0m --date"),
        "{:?}",
        error.stderr
    );
}

#[test]
fn copy_without_a_display_warns_once_and_succeeds() {
    let home = worked_home();
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm", "--copy", "--format", "html"]);
    assert!(run.success().starts_with("<h2>Daily report"), "{}", run.stdout);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", run.stderr);
    assert_eq!(
        lines[0],
        "standup: warning: clipboard_unavailable: not copied (no display: neither DISPLAY nor \
         WAYLAND_DISPLAY is set)"
    );
}

/// An X server that accepts the connection and never answers: the report is written
/// first, and the clipboard gets a deadline and a warning.
#[test]
fn copy_to_a_display_that_never_answers_gives_up_at_the_deadline() {
    // A display on loopback TCP (port 6000 + n) that accepts and then says nothing.
    let (listener, display) = (50..120)
        .find_map(|n| {
            std::net::TcpListener::bind(("127.0.0.1", 6000 + n))
                .ok()
                .map(|listener| (listener, format!("127.0.0.1:{n}")))
        })
        .expect("a free X display port");
    let held = std::thread::spawn(move || {
        let mut streams = Vec::new();
        for stream in listener.incoming().take(4) {
            streams.push(stream);
        }
        std::thread::sleep(std::time::Duration::from_secs(60));
        drop(streams);
    });
    let home = worked_home();
    let started = std::time::Instant::now();
    let mut command = home.command(home.path(), NOW, TOKYO, &["daily", "--no-llm", "--copy"]);
    command.env("DISPLAY", &display);
    let run = home.run_command(&mut command);
    let took = started.elapsed();
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.starts_with("# Daily report"), "{}", run.stdout);
    assert!(took < std::time::Duration::from_secs(20), "{took:?}");
    assert!(
        run.stderr.contains(
            "clipboard_unavailable: not copied (the clipboard did not answer within 3 s)"
        ),
        "{}",
        run.stderr
    );
    drop(held);
}

#[test]
fn help_names_no_made_up_address() {
    let home = Home::new();
    let run = home.run(NOW, TOKYO, &["--help"]);
    assert!(!run.success().contains("example.invalid"), "{}", run.stdout);
    assert!(run.stdout.contains("standup completions zsh"), "{}", run.stdout);
}

#[test]
fn config_init_marks_examples_apart_from_defaults() {
    let home = Home::new();
    home.run(NOW, TOKYO, &["config", "init"]).success();
    let text = fs_err::read_to_string(home.path().join(".config/standup/config.toml")).unwrap();
    // Each example-only value is introduced by a line that says so.
    for example in ["# timezone = \"Asia/Tokyo\"", "# holidays = [", "# emails = [", "# roots = ["]
    {
        let lines: Vec<&str> = text.lines().collect();
        let at = lines.iter().position(|line| line.starts_with(example)).unwrap();
        assert!(lines[at - 1].ends_with("Example:"), "{example}: {:?}", lines[at - 1]);
    }
    assert!(text.contains("# day_start = \"00:00\""));
}

#[test]
fn a_relative_xdg_config_home_is_ignored() {
    let home = Home::new();
    let run = home
        .command(home.path(), NOW, TOKYO, &["config", "path"])
        .env("XDG_CONFIG_HOME", "relative/xdg")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        format!("{}/.config/standup/config.toml\n", home.path().display())
    );
}

#[test]
fn ctrl_c_during_the_spinner_leaves_no_frame() {
    use std::io::{Read as _, Write as _};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    use httpmock::prelude::*;

    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(200).delay(Duration::from_secs(20)).body("{}");
    });
    let home = worked_home();
    home.config(&format!("[llm]\nendpoint = \"{}\"\nmodel = \"m\"\n", server.base_url()));
    // `script` gives the binary a terminal, so the spinner draws; ^C written to the
    // terminal is a real SIGINT to the foreground process.
    #[expect(clippy::disallowed_methods, reason = "runs the binary on a pseudo-terminal")]
    let mut child = std::process::Command::new("script")
        .args([
            "-q",
            "-f",
            "-e",
            "-c",
            &format!("{} daily", env!("CARGO_BIN_EXE_standup")),
            "/dev/null",
        ])
        .current_dir(home.path())
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .env("STANDUP_NOW", NOW)
        .env("TZ", TOKYO)
        .env("LANG", "C")
        .env("TERM", "xterm")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let output = Arc::new(Mutex::new(Vec::new()));
    let mut stdout = child.stdout.take().unwrap();
    let sink = Arc::clone(&output);
    let reader = std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buffer) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().extend_from_slice(&buffer[..n]);
        }
    });
    let frame = "asking the local LLM for a summary…";
    let started = Instant::now();
    while !String::from_utf8_lossy(&output.lock().unwrap()).contains(frame) {
        assert!(started.elapsed() < Duration::from_secs(15), "no spinner drawn");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"\x03").unwrap();
    stdin.flush().unwrap();
    let status = child.wait().unwrap();
    drop(stdin);
    reader.join().unwrap();
    let text = String::from_utf8_lossy(&output.lock().unwrap()).into_owned();
    assert!(!status.success(), "the run was interrupted: {text:?}");
    let last_frame = text.rfind(frame).unwrap();
    assert!(
        text[last_frame + frame.len()..].contains("\r\u{1b}[2K"),
        "the last frame was not cleared: {:?}",
        &text[last_frame..]
    );
    assert!(!text.contains("# Daily report"), "no report after Ctrl-C: {text:?}");
}

#[test]
fn no_spinner_on_a_dumb_terminal() {
    use std::time::Duration;

    use httpmock::prelude::*;

    let server = MockServer::start();
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(200).delay(Duration::from_secs(20)).body("{}");
    });
    let home = worked_home();
    home.config(&format!(
        "[llm]\nendpoint = \"{}\"\nmodel = \"m\"\ntimeout_secs = 1\n",
        server.base_url()
    ));
    let run = |term: &str| {
        #[expect(clippy::disallowed_methods, reason = "runs the binary on a pseudo-terminal")]
        let output = std::process::Command::new("script")
            .args([
                "-q",
                "-e",
                "-c",
                &format!("{} daily", env!("CARGO_BIN_EXE_standup")),
                "/dev/null",
            ])
            .current_dir(home.path())
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", home.path())
            .env("STANDUP_NOW", NOW)
            .env("TZ", TOKYO)
            .env("LANG", "C")
            .env("TERM", term)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let dumb = run("dumb");
    assert!(dumb.contains("# Daily report"), "{dumb:?}");
    assert!(!dumb.contains("asking the local LLM"), "{dumb:?}");
    assert!(!dumb.contains('\u{1b}'), "no color on a dumb terminal: {dumb:?}");
    let xterm = run("xterm");
    assert!(xterm.contains("asking the local LLM"), "{xterm:?}");
}
