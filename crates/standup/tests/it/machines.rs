//! One day across several machines (issue 22): two homes on one machine stand in for a
//! laptop and a dev box. A fake `ssh` first on the laptop's PATH runs the dev box
//! home's real standup (its environment pinned) and records its arguments; a real bare
//! repository is the remote both clone, and the ledger's git remote.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::support::Home;

const NOW: &str = "2026-11-27T18:00:00+09:00";
const TOKYO: &str = "Asia/Tokyo";

/// A laptop and a dev box sharing one repository (one commit pushed from the laptop and
/// fetched on the dev box), each with work of its own.
struct TwoMachines {
    laptop: Home,
    devbox: Home,
    /// The shared bare repository.
    remote: PathBuf,
    shared_hash: String,
}

fn git_in(home: &Home, cwd: &Path, args: &[&str]) -> String {
    home.repo_handle(cwd).git(args)
}

fn two_machines() -> TwoMachines {
    let laptop = Home::new();
    let devbox = Home::new();
    for home in [&laptop, &devbox] {
        home.git_identity("me@example.com", "Me");
    }
    let remote = laptop.path().parent().unwrap().join("remote").join("shared.git");
    fs_err::create_dir_all(&remote).unwrap();
    git_in(&laptop, &remote, &["init", "-q", "--bare", "-b", "main"]);

    // The laptop: the shared repository, one commit pushed; and a repository of its own.
    let shared = laptop.repo("shared");
    shared.git(&["remote", "add", "origin", remote.to_str().unwrap()]);
    let shared_hash =
        shared.commit("retry.rs", "Retry the upload on a 503", "2026-11-27T10:00:00+09:00");
    shared.git(&["push", "-q", "-u", "origin", "main"]);
    laptop.repo("notes").commit("a.md", "Laptop: write the notes", "2026-11-27T11:00:00+09:00");

    // The dev box: a clone of the shared repository (the same commit, fetched), and a
    // commit of its own on a repository only it has. Its clock is UTC.
    let src = devbox.path().join("src");
    git_in(&devbox, &src, &["clone", "-q", remote.to_str().unwrap(), "shared"]);
    devbox.repo("infra").commit("b.tf", "Devbox: resize the runners", "2026-11-27T08:00:00Z");
    TwoMachines { laptop, devbox, remote, shared_hash }
}

/// The laptop's fake `ssh`: records its arguments in `~/ssh-args`, then plays the
/// destination: `devbox` runs the dev box home's standup (UTC, the same instant),
/// `down` fails to connect, `slow` never answers, `bare` has no standup, `future`
/// answers with another schema version.
fn fake_ssh(machines: &TwoMachines) {
    let script = format!(
        r#"#!/bin/sh
printf '%s\n' "$*" >> "$HOME/ssh-args"
while [ $# -gt 0 ]; do
  case "$1" in
    -o) shift 2 ;;
    --) shift; break ;;
    -*) shift ;;
    *) break ;;
  esac
done
dest="$1"; shift
shift # the program: this machine's standup stands in for it
case "$dest" in
  devbox) exec env -i HOME='{devbox}' PATH="$PATH" STANDUP_NOW=2026-11-27T09:00:00Z TZ=UTC LANG=C NO_COLOR=1 GIT_CONFIG_NOSYSTEM=1 '{bin}' "$@" ;;
  down) echo "ssh: connect to host down port 22: Connection refused" >&2; exit 255 ;;
  slow) sleep 60; exit 0 ;;
  bare) echo "sh: 1: standup: not found" >&2; exit 127 ;;
  future) echo '{{"schema_version": 99, "kind": "daily"}}'; exit 0 ;;
  *) echo "ssh: Could not resolve hostname $dest" >&2; exit 255 ;;
esac
"#,
        devbox = machines.devbox.path().display(),
        bin = env!("CARGO_BIN_EXE_standup"),
    );
    machines.laptop.write_executable("bin/ssh", &script);
}

fn laptop_run(machines: &TwoMachines, args: &[&str]) -> crate::support::Run {
    let laptop = &machines.laptop;
    let mut command = laptop.command(laptop.path(), NOW, TOKYO, args);
    let path = format!(
        "{}:{}",
        laptop.path().join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    command.env("PATH", path);
    laptop.run_command(&mut command)
}

fn commit_lines(report: &serde_json::Value) -> Vec<(String, String, Vec<String>)> {
    let mut lines = Vec::new();
    for project in report["buckets"][0]["projects"].as_array().unwrap() {
        for commit in project["commits"].as_array().unwrap() {
            let machines = commit["machines"]
                .as_array()
                .map(|list| list.iter().map(|name| name.as_str().unwrap().to_owned()).collect())
                .unwrap_or_default();
            lines.push((
                project["name"].as_str().unwrap().to_owned(),
                commit["subject"].as_str().unwrap().to_owned(),
                machines,
            ));
        }
    }
    lines.sort();
    lines
}

#[test]
fn daily_machines_merges_the_shared_commit_once_with_each_machines_own_work() {
    let machines = two_machines();
    fake_ssh(&machines);
    machines.laptop.config(
        "[identity]\nemails = [\"me@example.com\"]\n[ledger]\nmachine = \"laptop\"\n\n[[machines]]\nname = \"devbox\"\nssh = \"devbox\"\ntimeout_secs = 60\n",
    );
    machines.devbox.config("[ledger]\nmachine = \"devbox\"\n");

    let json = laptop_run(&machines, &["daily", "--machines", "--format", "json", "--no-llm"]);
    let report: serde_json::Value = serde_json::from_str(json.success()).unwrap();
    let both = vec!["devbox".to_owned(), "laptop".to_owned()];
    assert_eq!(
        commit_lines(&report),
        vec![
            (
                "infra".to_owned(),
                "Devbox: resize the runners".to_owned(),
                vec!["devbox".to_owned()]
            ),
            ("notes".to_owned(), "Laptop: write the notes".to_owned(), vec!["laptop".to_owned()]),
            ("shared".to_owned(), "Retry the upload on a 503".to_owned(), both),
        ]
    );
    assert_eq!(report["totals"]["commits"], 3);
    assert_eq!(report["totals"]["projects"], 3);
    assert_eq!(report["meta"]["machines"], serde_json::json!(["laptop", "devbox"]));
    let shared = report["buckets"][0]["projects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|project| project["name"] == "shared")
        .unwrap();
    // Matched by the remote both clones have, normalized; the laptop's path stays.
    let normalized = machines.remote.to_str().unwrap().trim_end_matches(".git").to_owned();
    assert_eq!(shared["remote"], normalized.as_str());
    assert_eq!(shared["commits"][0]["hash"], machines.shared_hash.as_str());
    assert_eq!(shared["path"], "[HOME]/src/shared");

    // ssh was asked once, in batch mode, for the day as JSON without the LLM.
    let recorded = fs_err::read_to_string(machines.laptop.path().join("ssh-args")).unwrap();
    assert_eq!(
        recorded,
        "-o BatchMode=yes -o ConnectTimeout=30 -- devbox standup daily --format json --no-llm --date 2026-11-27\n"
    );

    let markdown = laptop_run(&machines, &["daily", "--machines", "--no-llm"]);
    insta::assert_snapshot!("machines_daily_en", markdown.success());
    let japanese = laptop_run(&machines, &["daily", "--machines", "--no-llm", "--lang", "ja"]);
    insta::assert_snapshot!("machines_daily_ja", japanese.success());

    // Without --machines the laptop reports itself only, and ssh is not run again.
    let alone = laptop_run(&machines, &["daily", "--no-llm", "--format", "json"]);
    let alone: serde_json::Value = serde_json::from_str(alone.success()).unwrap();
    assert_eq!(alone["totals"]["commits"], 2);
    assert!(alone["meta"].get("machines").is_none());
    let recorded = fs_err::read_to_string(machines.laptop.path().join("ssh-args")).unwrap();
    assert_eq!(recorded.lines().count(), 3);
}

#[test]
fn machines_that_fail_are_warnings_naming_them_and_the_rest_comes_out() {
    let machines = two_machines();
    fake_ssh(&machines);
    let mut config = String::from("[ledger]\nmachine = \"laptop\"\n");
    for (name, timeout) in [("devbox", 60), ("down", 5), ("slow", 1), ("bare", 5), ("future", 5)] {
        let _ = write!(
            config,
            "\n[[machines]]\nname = \"{name}\"\nssh = \"{name}\"\ntimeout_secs = {timeout}\n"
        );
    }
    machines.laptop.config(&config);
    let started = std::time::Instant::now();
    let run = laptop_run(&machines, &["daily", "--machines", "--no-llm", "--format", "json"]);
    // The slow machine was stopped at its deadline, not waited for.
    assert!(started.elapsed() < std::time::Duration::from_secs(50));
    let report: serde_json::Value = serde_json::from_str(run.success()).unwrap();
    assert_eq!(report["totals"]["commits"], 3, "{}", run.stderr);
    let warnings: Vec<(String, String)> = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|warning| {
            (
                warning["code"].as_str().unwrap().to_owned(),
                warning["detail"]["machine"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        warnings,
        vec![
            ("machine_unreachable".to_owned(), "down".to_owned()),
            ("machine_timed_out".to_owned(), "slow".to_owned()),
            ("machine_no_standup".to_owned(), "bare".to_owned()),
            ("machine_schema_mismatch".to_owned(), "future".to_owned()),
        ]
    );
    // Each on stderr too, naming the machine, in both languages.
    insta::assert_snapshot!("machines_failures_stderr", run.stderr);
    let japanese =
        laptop_run(&machines, &["daily", "--machines", "--no-llm", "--lang", "ja", "--compact"]);
    insta::assert_snapshot!("machines_failures_stderr_ja", japanese.stderr);
}

/// `standup record` on the dev box into a git ledger (a clone of a bare repository),
/// committed and pushed; the laptop reads it from its own clone.
/// A ledger entry written by an older standup carries its warnings as `message` and
/// `params`: they are read back, shown in English (after a Japanese label in Japanese)
/// with the machine's name, and kept in the JSON.
#[test]
fn an_older_ledger_entrys_warnings_are_read_with_their_english_message() {
    let machines = two_machines();
    let day = machines.devbox.run(
        "2026-11-27T09:00:00Z",
        "UTC",
        &["daily", "--format", "json", "--no-llm"],
    );
    let mut entry: serde_json::Value = serde_json::from_str(day.success()).unwrap();
    entry["warnings"] = serde_json::json!([{
        "code": "history_stale",
        "message": "zsh: `/old/.zsh_history` has not been written since the report window began",
        "params": {"source": "zsh", "path": "/old/.zsh_history"},
    }]);
    machines.laptop.write("ledger/oldbox/2026-11-27.json", &entry.to_string());
    machines.laptop.config("[ledger]\nmachine = \"laptop\"\ndir = \"~/ledger\"\nmerge = true\n");
    let english = machines.laptop.run(NOW, TOKYO, &["daily", "--no-llm", "--lang", "en"]);
    assert!(
        english.success().contains(
            r"`history_stale` \[oldbox\] zsh: `/old/.zsh_history` has not been written since the report window began"
        ),
        "{}",
        english.stdout
    );
    let japanese = machines.laptop.run(NOW, TOKYO, &["daily", "--no-llm", "--lang", "ja"]);
    assert!(
        japanese.success().contains(
            r"`history_stale` \[oldbox\] 古い履歴（zsh: `/old/.zsh_history` has not been written"
        ),
        "{}",
        japanese.stdout
    );
    let json =
        machines.laptop.run(NOW, TOKYO, &["daily", "--machines", "--no-llm", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(json.success()).unwrap();
    let warning = &report["warnings"][0];
    assert_eq!(warning["code"], "history_stale", "{warning}");
    assert_eq!(warning["machine"], "oldbox");
    assert_eq!(warning["detail"]["kind"], "legacy");
    assert_eq!(warning["detail"]["params"]["path"], "/old/.zsh_history");
    assert!(warning["message"].as_str().unwrap().starts_with("[oldbox] zsh: `/old/.zsh_history`"));
}

#[test]
fn the_ledger_carries_a_machines_day_and_stale_or_broken_entries_are_warnings() {
    let machines = two_machines();
    let ledger_remote = machines.laptop.path().parent().unwrap().join("ledger.git");
    fs_err::create_dir_all(&ledger_remote).unwrap();
    git_in(&machines.laptop, &ledger_remote, &["init", "-q", "--bare", "-b", "main"]);
    let devbox_ledger = machines.devbox.path().join("ledger");
    git_in(
        &machines.devbox,
        machines.devbox.path(),
        &["clone", "-q", ledger_remote.to_str().unwrap(), "ledger"],
    );
    machines.devbox.config("[ledger]\nmachine = \"devbox\"\ndir = \"~/ledger\"\n");
    let devbox_record = |args: &[&str]| {
        machines.devbox.run("2026-11-27T09:00:00Z", "UTC", &[&["record"], args].concat())
    };
    let first = devbox_record(&["--commit", "--push"]);
    assert_eq!(
        first.success(),
        "wrote [HOME]/ledger/devbox/2026-11-27.json\ncommitted devbox/2026-11-27.json\npushed\n"
    );
    let entry = devbox_ledger.join("devbox/2026-11-27.json");
    let written = fs_err::read_to_string(&entry).unwrap();
    // Idempotent: the same day again replaces the entry with the same bytes.
    let again = devbox_record(&["--commit", "--push"]);
    assert_eq!(
        again.success(),
        "wrote [HOME]/ledger/devbox/2026-11-27.json\ndevbox/2026-11-27.json unchanged: nothing to commit\npushed\n"
    );
    assert_eq!(fs_err::read_to_string(&entry).unwrap(), written);
    let log = git_in(&machines.laptop, &ledger_remote, &["log", "--format=%s", "main"]);
    assert_eq!(log, "standup: devbox 2026-11-27\n");

    // The laptop's clone of the ledger, plus a stale entry (another day's report under
    // today's name) and a broken one.
    let laptop_ledger = machines.laptop.path().join("ledger");
    git_in(
        &machines.laptop,
        machines.laptop.path(),
        &["clone", "-q", ledger_remote.to_str().unwrap(), "ledger"],
    );
    let old = machines.devbox.run(
        "2026-11-26T09:00:00Z",
        "UTC",
        &["daily", "--format", "json", "--no-llm"],
    );
    machines.laptop.write("ledger/vm/2026-11-27.json", old.success());
    machines.laptop.write("ledger/wsl/2026-11-27.json", "{ not json");
    // The laptop's own entry is left for its live collection.
    machines.laptop.write("ledger/laptop/2026-11-27.json", "{ never read");
    machines.laptop.config("[ledger]\nmachine = \"laptop\"\ndir = \"~/ledger\"\nmerge = true\n");
    // `[ledger] merge = true`: a report for people merges without --machines.
    let run = machines.laptop.run(NOW, TOKYO, &["daily", "--no-llm"]);
    insta::assert_snapshot!("ledger_daily_en", run.snapshot());
    let json =
        machines.laptop.run(NOW, TOKYO, &["daily", "--machines", "--no-llm", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(json.success()).unwrap();
    assert_eq!(report["totals"]["commits"], 3);
    let codes: Vec<(&str, &str)> = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|warning| {
            (warning["code"].as_str().unwrap(), warning["detail"]["path"].as_str().unwrap())
        })
        .collect();
    assert_eq!(
        codes,
        vec![
            // Sorted by code, then message: `cannot read …` before `the ledger entry …`.
            ("ledger_unreadable", "wsl/2026-11-27.json"),
            ("ledger_unreadable", "vm/2026-11-27.json"),
        ]
    );
    assert!(laptop_ledger.join("devbox/2026-11-27.json").is_file());
}
