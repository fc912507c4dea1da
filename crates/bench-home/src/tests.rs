use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use super::*;

/// Generates the small preset into a new temp dir.
fn small() -> (tempfile::TempDir, Manifest) {
    let dir = tempfile::tempdir().unwrap();
    let manifest = generate(Preset::Small, dir.path()).unwrap();
    (dir, manifest)
}

#[expect(clippy::disallowed_methods, reason = "the test checks the repositories with the git CLI")]
fn git(home: &Path, repo: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .args(args)
        .current_dir(repo)
        .env("LC_ALL", "C")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", home)
        .env_remove("GIT_DIR")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "git {args:?} in {}: {}",
        repo.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Every file under `root` (relative path → content), with `root`'s path replaced so that
/// homes in two folders compare equal. `.git` folders are left out (their packs may
/// differ in compression details); commits are compared through `git rev-parse`.
fn files_of(root: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in fs_err::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.file_name().is_some_and(|name| name == ".git") {
                continue;
            }
            if path.is_dir() {
                walk(&path, root, out);
            } else {
                // Claude Code's folder names encode the working directory, root included.
                let encoded: String = root
                    .to_string_lossy()
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
                    .collect();
                let relative =
                    path.strip_prefix(root).unwrap().to_string_lossy().replace(&encoded, "[ROOT]");
                let text = fs_err::read(&path).unwrap();
                let root_text = root.to_string_lossy();
                let replaced = String::from_utf8_lossy(&text).replace(root_text.as_ref(), "[ROOT]");
                out.insert(relative, replaced.into_bytes());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

#[test]
fn the_same_preset_gives_the_same_files_and_commits() {
    let (first_dir, first) = small();
    let (second_dir, second) = small();
    let anonymous = |manifest: &Manifest, root: &Path| {
        serde_json::to_string_pretty(manifest)
            .unwrap()
            .replace(&root.canonicalize().unwrap().to_string_lossy().into_owned(), "[ROOT]")
    };
    assert_eq!(anonymous(&first, first_dir.path()), anonymous(&second, second_dir.path()));
    let first_files = files_of(&first_dir.path().canonicalize().unwrap());
    let second_files = files_of(&second_dir.path().canonicalize().unwrap());
    assert_eq!(first_files.keys().collect::<Vec<_>>(), second_files.keys().collect::<Vec<_>>());
    for (path, content) in &first_files {
        assert!(content == &second_files[path], "{path} differs");
    }
    for (one, two) in first.repositories.iter().zip(&second.repositories) {
        if one.kind == RepoKind::Normal {
            assert_eq!(
                git(&first.home, &one.path, &["rev-parse", "--all"]),
                git(&second.home, &two.path, &["rev-parse", "--all"])
            );
        }
    }
}

#[test]
fn a_second_call_reuses_the_home_and_regenerate_replaces_it() {
    let (dir, manifest) = small();
    let marker = manifest.home.join("touched");
    fs_err::write(&marker, "x").unwrap();
    assert_eq!(generate(Preset::Small, dir.path()).unwrap(), manifest);
    assert!(marker.exists(), "reused, not regenerated");
    assert_eq!(load_manifest(dir.path()).unwrap(), manifest);
    assert_eq!(regenerate(Preset::Small, dir.path()).unwrap(), manifest);
    assert!(!marker.exists(), "regenerated");
}

#[test]
fn a_home_it_did_not_make_is_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    fs_err::create_dir_all(dir.path().join("home/precious")).unwrap();
    let error = regenerate(Preset::Small, dir.path()).unwrap_err();
    assert!(matches!(error, Error::NotOurs { .. }), "{error}");
    assert!(dir.path().join("home/precious").exists());
}

/// Counts the commits `git log` shows for the user in a window, with their numstat.
fn git_counts(
    manifest: &Manifest,
    window: (jiff::Timestamp, jiff::Timestamp),
) -> (u64, u64, u64, u64) {
    let (mut commits, mut files, mut insertions, mut deletions) = (0, 0, 0, 0);
    for repo in manifest
        .repositories
        .iter()
        .filter(|repo| matches!(repo.kind, RepoKind::Normal | RepoKind::DetachedHead))
    {
        let log = git(
            &manifest.home,
            &repo.path,
            &["log", "--all", "--no-merges", "--numstat", "--find-renames", "--format=%x1e%aI %ae"],
        );
        for record in log.split('\u{1e}').filter(|record| !record.is_empty()) {
            let mut lines = record.lines();
            let header = lines.next().unwrap();
            let (date, email) = header.split_once(' ').unwrap();
            let time: jiff::Timestamp = date.parse().unwrap();
            if !(window.0 <= time
                && time < window.1
                && manifest.emails.iter().any(|known| known == email))
            {
                continue;
            }
            commits += 1;
            for line in lines.filter(|line| !line.is_empty()) {
                let mut parts = line.split('\t');
                files += 1;
                insertions += parts.next().unwrap().parse::<u64>().unwrap_or(0);
                deletions += parts.next().unwrap().parse::<u64>().unwrap_or(0);
            }
        }
    }
    (commits, files, insertions, deletions)
}

fn window(date: jiff::civil::Date) -> (jiff::Timestamp, jiff::Timestamp) {
    let zone = jiff::tz::TimeZone::get(TIME_ZONE).unwrap();
    let start = date.to_zoned(zone.clone()).unwrap().timestamp();
    let end = date.tomorrow().unwrap().to_zoned(zone).unwrap().timestamp();
    (start, end)
}

#[test]
fn expected_commits_match_git_log() {
    let (_dir, manifest) = small();
    for (date, counts) in [
        (manifest.date, manifest.expected.daily),
        (manifest.previous_workday, manifest.expected.previous_workday),
    ] {
        let (commits, files, insertions, deletions) = git_counts(&manifest, window(date));
        assert_eq!(
            (counts.commits, counts.files_changed, counts.insertions, counts.deletions),
            (commits, files, insertions, deletions),
            "{date}"
        );
    }
    assert!(manifest.expected.daily.commits >= 3, "{:?}", manifest.expected.daily);
    assert!(
        manifest.expected.daily.files_changed >= 1000,
        "the 1,000-file commit is on the reference day"
    );
}

#[test]
fn repositories_have_the_planned_shapes_and_refs_mtimes() {
    let (_dir, manifest) = small();
    let kinds: Vec<RepoKind> = manifest.repositories.iter().map(|repo| repo.kind).collect();
    for kind in [RepoKind::Empty, RepoKind::DetachedHead, RepoKind::BrokenHead, RepoKind::Normal] {
        assert!(kinds.contains(&kind), "{kind:?} in {kinds:?}");
    }
    let day_start = window(manifest.date).0;
    for repo in &manifest.repositories {
        let head = fs_err::read(repo.path.join(".git/HEAD")).unwrap();
        let head = String::from_utf8_lossy(&head);
        match repo.kind {
            RepoKind::Normal | RepoKind::Empty => assert_eq!(head, "ref: refs/heads/main\n"),
            RepoKind::DetachedHead => assert_eq!(head.trim().len(), 40, "{head}"),
            RepoKind::BrokenHead => assert!(head.starts_with("this is not a ref")),
        }
        let modified: jiff::Timestamp = fs_err::metadata(repo.path.join(".git/refs"))
            .unwrap()
            .modified()
            .unwrap()
            .try_into()
            .unwrap();
        match &repo.last_commit {
            Some(last) => assert_eq!(
                modified,
                last.parse::<jiff::Timestamp>().unwrap(),
                "{}",
                repo.path.display()
            ),
            None => assert!(modified < day_start),
        }
    }
    assert_eq!(manifest.expected_warnings.len(), 1);
    assert_eq!(manifest.expected_warnings[0].code, "git_failed");
}

/// Every JSON Lines file under `dir`, recursively.
fn jsonl_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs_err::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            jsonl_files(&path, out);
        } else if path.extension().is_some_and(|extension| extension == "jsonl") {
            out.push(path);
        }
    }
}

#[test]
fn transcripts_are_valid_json_lines_and_sessions_match_their_mtimes() {
    let (_dir, manifest) = small();
    let (start, end) = window(manifest.date);
    let mut files = Vec::new();
    jsonl_files(&manifest.home.join(".claude"), &mut files);
    jsonl_files(&manifest.home.join(".codex"), &mut files);
    let mut active = 0;
    let mut prompts = 0;
    for path in &files {
        let text = fs_err::read_to_string(path).unwrap();
        let mut last = None;
        let mut in_window = false;
        for line in text.lines() {
            let value: serde_json::Value = serde_json::from_str(line)
                .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            let time =
                value["timestamp"].as_str().and_then(|time| time.parse::<jiff::Timestamp>().ok());
            if let Some(time) = time {
                last = last.max(Some(time));
                in_window |= start <= time && time < end;
                let claude_prompt = value["type"] == "user"
                    && value["isSidechain"] == false
                    && value["isMeta"].is_null()
                    && (value["message"]["content"].is_string()
                        || value["message"]["content"][0]["type"] == "text")
                    && !value["message"]["content"].to_string().contains("<command-")
                    && !value["message"]["content"].to_string().contains("<local-command-")
                    && !value["message"]["content"].to_string().contains("[Request interrupted");
                let codex_prompt =
                    value["type"] == "event_msg" && value["payload"]["type"] == "user_message";
                if (claude_prompt || codex_prompt) && start <= time && time < end {
                    prompts += 1;
                }
            }
        }
        let name = path.file_name().unwrap().to_string_lossy();
        let is_session =
            !name.starts_with("agent-") && name != "history.jsonl" && name != "session_index.jsonl";
        if is_session && in_window {
            active += 1;
        }
        if let Some(last) = last.filter(|_| name != "history.jsonl") {
            let modified: jiff::Timestamp =
                fs_err::metadata(path).unwrap().modified().unwrap().try_into().unwrap();
            assert_eq!(modified, last, "{}", path.display());
        }
    }
    assert_eq!(active, manifest.expected.daily.sessions);
    assert_eq!(prompts, manifest.expected.daily.prompts);
    assert!(manifest.expected.daily.sessions >= 5);
}

#[test]
fn shell_histories_hold_the_expected_commands() {
    let (_dir, manifest) = small();
    let (start, end) = (window(manifest.date).0.as_second(), window(manifest.date).1.as_second());
    let ignored = ["ls", "cd", "pwd", "clear"];
    let counted =
        |command: &str| !ignored.contains(&command.split_whitespace().next().unwrap_or_default());
    let mut commands = 0;
    let zsh = fs_err::read(manifest.home.join(".zsh_history")).unwrap();
    for line in zsh.split(|byte| *byte == b'\n') {
        if let Some(rest) = line.strip_prefix(b": ") {
            let text = String::from_utf8_lossy(rest);
            let (time, command) = text.split_once(';').unwrap();
            let time: i64 = time.split(':').next().unwrap().parse().unwrap();
            if start <= time && time < end && counted(command) {
                commands += 1;
            }
        }
    }
    let bash = fs_err::read_to_string(manifest.home.join(".bash_history")).unwrap();
    let mut lines = bash.lines();
    while let Some(line) = lines.next() {
        if let Some(time) = line.strip_prefix('#') {
            let time: i64 = time.parse().unwrap();
            let command = lines.next().unwrap();
            if start <= time && time < end && counted(command) {
                commands += 1;
            }
        }
    }
    let fish =
        fs_err::read_to_string(manifest.home.join(".local/share/fish/fish_history")).unwrap();
    let mut command = "";
    for line in fish.lines() {
        if let Some(rest) = line.strip_prefix("- cmd: ") {
            command = rest;
        } else if let Some(time) = line.strip_prefix("  when: ") {
            let time: i64 = time.parse().unwrap();
            if start <= time && time < end && counted(command) {
                commands += 1;
            }
        }
    }
    assert_eq!(commands, manifest.expected.daily.commands);
    assert!(
        zsh.len() > 100_000 && zsh.windows(2).any(|pair| pair == b"\x83\xb7"),
        "metafied UTF-8"
    );
    assert!(manifest.sizes.zsh_lines >= 6_000);
}
