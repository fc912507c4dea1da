//! A home holding every source at once, in the real formats, around Friday 2026-11-27
//! in Tokyo: git repositories, Claude Code, Codex and Gemini sessions, zsh, bash, fish
//! and atuin histories. Sessions and atuin commands join the projects of their
//! working directories; a repository outside the roots is found through a session.

use std::path::Path;

use serde_json::json;

use crate::support::{Home, ME, at, epoch, friday_nanos, jsonl};

pub(crate) const NOW: &str = "2026-11-27T18:00:00+09:00";
pub(crate) const TOKYO: &str = "Asia/Tokyo";

pub(crate) fn full_home() -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let root = home.path().to_path_buf();

    let app = home.repo("app");
    app.commit("src/parser.rs", "parser: accept trailing commas", "2026-11-27T10:40:00+09:00");
    app.commit("src/lexer.rs", "lexer: track spans", "2026-11-27T15:05:00+09:00");
    let site = home.repo("site");
    site.commit("index.html", "site: old change", "2026-11-20T10:00:00+09:00");
    // A repository outside the roots, found only because a session worked in it.
    fs_err::create_dir_all(root.join("elsewhere/tool")).unwrap();
    let tool = home.repo_handle(&root.join("elsewhere/tool"));
    tool.git(&["init", "-q", "-b", "main"]);
    tool.commit("main.go", "tool: first version", "2026-11-27T16:30:00+09:00");
    fs_err::create_dir_all(root.join("notes")).unwrap();
    fs_err::create_dir_all(root.join("src/app/crates/core")).unwrap();

    write_sessions(&home, &root);
    write_histories(&home, &root);
    home
}

fn write_sessions(home: &Home, root: &Path) {
    let app_core = root.join("src/app/crates/core").display().to_string();
    let claude_session = "11111111-2222-4333-8444-555555555555";
    let claude = |kind: &str, uuid: &str, time: &str, extra: serde_json::Value| {
        let mut record = json!({
            "type": kind, "uuid": uuid, "parentUuid": null, "timestamp": at(time),
            "sessionId": claude_session, "cwd": app_core, "gitBranch": "main",
            "isSidechain": false, "entrypoint": "cli", "version": "2.1.50", "userType": "external",
        });
        record.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        record
    };
    home.write(
        &format!(".claude/projects/-x-src-app-crates-core/{claude_session}.jsonl"),
        &jsonl(&[
            claude("user", "u1", "09:00:00", json!({"isMeta": true, "message": {"role": "user", "content": "Caveat: local command output follows."}})),
            claude("user", "u2", "09:00:05", json!({"message": {"role": "user", "content": "Make the parser accept trailing commas in lists"}})),
            claude("assistant", "a1", "09:00:30", json!({"message": {"id": "msg_1", "role": "assistant", "content": [{"type": "text", "text": "Looking at the grammar."}]}})),
            claude("user", "u3", "09:01:00", json!({"message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}})),
            claude("user", "u4", "10:30:00", json!({"message": {"role": "user", "content": "Now add a test for nested lists"}})),
            json!({"type": "ai-title", "aiTitle": "Trailing commas in the parser", "sessionId": claude_session}),
        ]),
    );
    let notes_session = "66666666-7777-4888-8999-000000000000";
    home.write(
        &format!(".claude/projects/-x-notes/{notes_session}.jsonl"),
        &jsonl(&[json!({
            "type": "user", "uuid": "n1", "parentUuid": null, "timestamp": at("12:00:00"),
            "sessionId": notes_session, "cwd": root.join("notes").display().to_string(),
            "isSidechain": false, "message": {"role": "user", "content": "Summarize my meeting notes from this week"},
        })]),
    );

    let codex_id = "0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee";
    let site_path = root.join("src/site").display().to_string();
    home.write(
        &format!(".codex/sessions/2026/11/27/rollout-2026-11-27T11-00-00-{codex_id}.jsonl"),
        &jsonl(&[
            json!({"timestamp": at("11:00:00"), "type": "session_meta", "payload": {"id": codex_id, "timestamp": at("11:00:00"), "cwd": site_path, "originator": "codex_cli_rs", "cli_version": "0.58.0", "git": {"branch": "main"}}}),
            json!({"timestamp": at("11:00:01"), "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "<environment_context>\n  <cwd>/x</cwd>\n</environment_context>"}]}}),
            json!({"timestamp": at("11:00:02"), "type": "event_msg", "payload": {"type": "user_message", "message": "Why is the CI job flaky on main?", "kind": "plain"}}),
            json!({"timestamp": at("11:05:00"), "type": "event_msg", "payload": {"type": "user_message", "message": "Check the retry settings too", "kind": "plain"}}),
        ]),
    );
    home.write(
        ".codex/session_index.jsonl",
        &jsonl(&[json!({"id": codex_id, "thread_name": "Investigate the flaky CI job", "updated_at": at("11:06:00")})]),
    );

    let gemini_dir = ".gemini/tmp/1f2e3d4c5b6a79880000000000000000000000000000000000000000000000aa";
    home.write(
        &format!("{gemini_dir}/.project_root"),
        &root.join("elsewhere/tool").display().to_string(),
    );
    home.write(
        &format!("{gemini_dir}/chats/session-2026-11-27T16-00-abcd1234.jsonl"),
        &jsonl(&[
            json!({"sessionId": "abcd1234-0000-4000-8000-000000000001", "projectHash": "1f2e", "startTime": at("16:00:00"), "lastUpdated": at("16:10:00"), "kind": "main"}),
            json!({"id": "g1", "timestamp": at("16:00:00"), "type": "user", "content": [{"text": "Write a Go CLI that prints its version"}]}),
            json!({"id": "g2", "timestamp": at("16:00:20"), "type": "gemini", "content": "Here is a start."}),
            json!({"$set": {"summary": "Go CLI skeleton"}}),
        ]),
    );
}

fn write_histories(home: &Home, root: &Path) {
    // zsh: extended history, a metafied 日報 (E6 97 A5 -> E6 83 B7 A5), an undated line.
    let mut zsh = Vec::new();
    zsh.extend_from_slice(b"echo undated from before EXTENDED_HISTORY\n");
    for (time, command) in [
        ("09:10:00", "cargo test -p core"),
        ("09:20:00", "cargo test -p core --lib"),
        ("09:30:00", "ls"),
        ("13:00:00", "git commit -m wip"),
    ] {
        zsh.extend_from_slice(format!(": {}:0;{command}\n", epoch(time)).as_bytes());
    }
    zsh.extend_from_slice(format!(": {}:0;echo ", epoch("17:00:00")).as_bytes());
    zsh.extend_from_slice(b"\xe6\x83\xb7\xa5\xe5\xa0\xb1 > today.txt\n");
    home.write(".zsh_history", "");
    fs_err::write(root.join(".zsh_history"), &zsh).unwrap();
    home.write(
        ".bash_history",
        &format!(
            "#{}\nmake build\n#{}\ndocker compose up -d\n",
            epoch("14:00:00"),
            epoch("14:30:00")
        ),
    );
    home.write(
        ".local/share/fish/fish_history",
        &format!(
            "- cmd: kubectl get pods\n  when: {}\n- cmd: echo a\\\\b\n  when: {}\n",
            epoch("15:00:00"),
            epoch("15:10:00")
        ),
    );

    // atuin: its real `history` table, one live row in the app, one deleted row.
    let db_path = root.join(".local/share/atuin/history.db");
    fs_err::create_dir_all(db_path.parent().unwrap()).unwrap();
    let db = rusqlite::Connection::open(&db_path).unwrap();
    db.execute_batch(
        "create table history (id text primary key, timestamp integer not null, duration integer not null, exit integer not null, command text not null, cwd text not null, session text not null, hostname text not null, deleted_at integer);",
    )
    .unwrap();
    let app_path = root.join("src/app").display().to_string();
    db.execute(
        "insert into history values ('h1', ?1, 1000, 0, 'cargo clippy --all-targets', ?2, 's', 'host', null)",
        rusqlite::params![friday_nanos("15:30:00"), app_path],
    )
    .unwrap();
    db.execute(
        "insert into history values ('h2', ?1, 1000, 0, 'rm -rf build', ?2, 's', 'host', ?3)",
        rusqlite::params![friday_nanos("15:40:00"), app_path, friday_nanos("15:41:00")],
    )
    .unwrap();
    drop(db);
}

#[test]
fn every_source_joined_per_project_en() {
    let home = full_home();
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm"]);
    insta::assert_snapshot!("full_home_daily_en", run.success());
}

#[test]
fn every_source_joined_per_project_ja() {
    let home = full_home();
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm", "--lang", "ja"]);
    insta::assert_snapshot!("full_home_daily_ja", run.success());
}

#[test]
fn every_source_joined_per_project_json() {
    let home = full_home();
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(run.success()).unwrap();
    let projects: Vec<(&str, u64, u64)> = report["buckets"][0]["projects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|project| {
            (
                project["name"].as_str().unwrap(),
                project["totals"]["commits"].as_u64().unwrap(),
                project["totals"]["sessions"].as_u64().unwrap(),
            )
        })
        .collect();
    // The tool repository is outside the roots: only the Gemini session names it.
    assert_eq!(projects, [("tool", 1, 1), ("app", 2, 1), ("notes", 0, 1), ("site", 0, 1)]);
    let totals = &report["totals"];
    assert_eq!(
        (totals["commits"].as_u64(), totals["sessions"].as_u64(), totals["prompts"].as_u64()),
        (Some(3), Some(4), Some(6))
    );
    // zsh 4 dated (ls ignored) + bash 2 + fish 2 + atuin 1 (the deleted row skipped).
    assert_eq!(totals["commands"], 9);
    let codes: Vec<&str> = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["undated_entries"]);
}

#[test]
fn doctor_on_the_full_home() {
    let home = full_home();
    let run = home.run(NOW, TOKYO, &["doctor"]);
    insta::assert_snapshot!("doctor_full_home", run.snapshot());
}

#[test]
fn doctor_on_an_empty_home() {
    let home = Home::new();
    let run = home.run(NOW, TOKYO, &["doctor"]);
    insta::assert_snapshot!("doctor_empty_home", run.snapshot());
}
