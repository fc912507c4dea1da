//! Nothing is lost: files we own (the report of `-o`, the config of `config init
//! --force`, narrative cache entries) are written whole or not at all, and a cache entry
//! that is not a regular file of a sane size is a miss, never a hang.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use httpmock::MockServer;

use crate::support::{Home, ME};

const NOW: &str = "2026-11-27T18:00:00+09:00";
const TOKYO: &str = "Asia/Tokyo";

fn home_with_work() -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    home.repo("app").commit("a", "parser: accept trailing commas", "2026-11-27T10:00:00+09:00");
    home
}

/// Runs `script` in a mount namespace of its own (`unshare`, as root or as a user mapped
/// to root), where it may mount a small tmpfs; returns its stdout and stderr.
fn in_mount_namespace(script: &str, envs: &[(&str, &str)]) -> (bool, String) {
    #[expect(clippy::disallowed_methods, reason = "the test mounts a tmpfs with util-linux")]
    let mut command = Command::new("unshare");
    command.args(["--mount", "--map-root-user", "sh", "-c", script]).stdin(Stdio::null());
    for (name, value) in envs {
        command.env(name, value);
    }
    let output = command.output().expect("unshare runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

/// On a full disk `-o FILE` and `config init --force` fail with a message, and the file
/// that was there is left whole; no temporary file is left behind.
#[test]
fn a_full_disk_leaves_the_previous_file_whole() {
    let home = home_with_work();
    let full = home.path().join("full");
    fs_err::create_dir_all(&full).unwrap();
    let script = r#"
        set -u
        mount -t tmpfs -o size=64k tmpfs "$FULL" || exit 90
        printf 'OLD REPORT\n' > "$FULL/report.md"
        printf 'lang = "en"\n' > "$FULL/config.toml"
        # Fill the disk to the last block.
        dd if=/dev/zero of="$FULL/filler" bs=1k count=1000 2>/dev/null
        cd "$HOMEDIR/src/app"
        "$BIN" daily --no-llm -o "$FULL/report.md"; echo "report-exit=$?"
        "$BIN" config init --force --config "$FULL/config.toml"; echo "config-exit=$?"
        echo "report=$(cat "$FULL/report.md")"
        echo "config=$(cat "$FULL/config.toml")"
        echo "files=$(ls -A "$FULL" | tr '\n' ' ')"
    "#;
    let envs = [
        ("FULL", full.to_str().unwrap()),
        ("HOMEDIR", home.path().to_str().unwrap()),
        ("BIN", env!("CARGO_BIN_EXE_standup")),
        ("HOME", home.path().to_str().unwrap()),
        ("STANDUP_NOW", NOW),
        ("TZ", TOKYO),
        ("GIT_CONFIG_NOSYSTEM", "1"),
    ];
    let (ok, text) = in_mount_namespace(script, &envs);
    assert!(ok, "{text}");
    assert!(text.contains("report-exit=1"), "{text}");
    assert!(text.contains("config-exit=1"), "{text}");
    assert!(text.contains("report=OLD REPORT\n"), "{text}");
    assert!(text.contains("config=lang = \"en\"\n"), "{text}");
    assert!(text.contains("files=config.toml filler report.md \n"), "{text}");
    assert!(text.contains("No space left on device"), "{text}");
}

/// With room, `-o` replaces the file whole, keeping its permissions, and leaves nothing
/// beside it.
#[test]
fn output_replaces_the_file_and_keeps_its_permissions() {
    use std::os::unix::fs::PermissionsExt as _;
    let home = home_with_work();
    let out = home.path().join("out");
    fs_err::create_dir_all(&out).unwrap();
    let report = out.join("report.md");
    fs_err::write(&report, "OLD").unwrap();
    fs_err::set_permissions(&report, std::fs::Permissions::from_mode(0o640)).unwrap();
    home.run(NOW, TOKYO, &["daily", "--no-llm", "-o", report.to_str().unwrap()]).success();
    let text = fs_err::read_to_string(&report).unwrap();
    assert!(text.contains("parser: accept trailing commas"), "{text}");
    let mode = fs_err::metadata(&report).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    let names: Vec<String> = fs_err::read_dir(&out)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["report.md"]);
    // A new file gets the usual permissions, not a temporary file's 0600.
    let fresh = out.join("fresh.md");
    home.run(NOW, TOKYO, &["daily", "--no-llm", "-o", fresh.to_str().unwrap()]).success();
    let mode = fs_err::metadata(&fresh).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode & 0o044, 0o044, "{mode:o}");
}

/// `-o` into a folder that is not there: an error naming that folder and the system's
/// reason, and not the name of the temporary file that could not be made.
#[test]
fn output_into_a_missing_folder_names_the_folder() {
    let home = home_with_work();
    let report = home.path().join("out/sub/report.md");
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm", "-o", report.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.snapshot());
    assert_eq!(
        run.stderr.trim_end(),
        "standup: error: writing the report: cannot create a file in `[HOME]/out/sub`: No such \
         file or directory (os error 2)"
    );
    assert!(!home.path().join("out").exists());
}

/// The one narrative cache entry after a run with a model that answers.
fn cached_entry(home: &Home) -> std::path::PathBuf {
    let dir = home.path().join(".cache/standup/narrative");
    let entries: Vec<_> = fs_err::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    entries[0].clone()
}

/// Runs the binary, failing the test if it has not finished after `limit`.
fn run_within(home: &Home, args: &[&str], limit: Duration) -> (i32, String) {
    let mut child = home
        .command(&home.path().join("src/app"), NOW, TOKYO, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut stdout = String::new();
            std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut stdout).unwrap();
            return (status.code().unwrap_or(-1), stdout);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("`standup {}` still running after {limit:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A FIFO or an oversized file in place of a cache entry is a miss: the model is asked
/// again, and the run never blocks on it nor reads it whole.
#[test]
fn a_cache_entry_that_is_a_fifo_or_huge_is_a_miss() {
    let server = MockServer::start();
    let chat = server.mock(|when, then| {
        when.path("/api/chat");
        then.status(200).json_body(serde_json::json!({
            "message": {"role": "assistant", "content": "{\"summary\": \"The app parser accepts trailing commas now.\", \"blockers\": []}"},
            "done": true
        }));
    });
    let home = home_with_work();
    home.config(&format!(
        "[llm]\napi = \"ollama\"\nendpoint = \"{}\"\nmodel = \"m\"\ntimeout_secs = 3\n",
        server.base_url()
    ));
    let (code, _) = run_within(&home, &["daily"], Duration::from_secs(60));
    assert_eq!(code, 0);
    chat.assert_hits(1);
    let entry = cached_entry(&home);

    fs_err::remove_file(&entry).unwrap();
    #[expect(clippy::disallowed_methods, reason = "the test makes a FIFO with coreutils")]
    let status = Command::new("mkfifo").arg(&entry).status().unwrap();
    assert!(status.success());
    let (code, stdout) = run_within(&home, &["daily"], Duration::from_secs(30));
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("The app parser accepts trailing commas now."), "{stdout}");
    chat.assert_hits(2);

    // Bigger than any entry we write: not read (a 1 GB one would fill memory).
    fs_err::remove_file(&entry).unwrap();
    let file = fs_err::File::create(&entry).unwrap();
    file.set_len(64 << 20).unwrap();
    let (code, _) = run_within(&home, &["daily"], Duration::from_secs(30));
    assert_eq!(code, 0);
    chat.assert_hits(3);
    // The miss was stored again, whole.
    assert!(fs_err::metadata(&entry).unwrap().len() < 4096);
    assert!(Path::new(&entry).is_file());
}
