//! A team's standup (issue 22): three members, each a home of their own, publish their
//! day into their clone of the team's git repository (a real bare repository) and
//! push; the lead's clone renders the team's day, in English, Japanese and JSON.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::support::Home;

const NOW: &str = "2026-11-27T18:00:00+09:00";
const TOKYO: &str = "Asia/Tokyo";
const SESSION: &str = "70d0c1a0-0000-4000-8000-00000000a11c";

fn git_in(home: &Home, cwd: &Path, args: &[&str]) -> String {
    home.repo_handle(cwd).git(args)
}

/// A member's home: their identity, `[identity] name` (or none: git's `user.name`), a
/// clone of the team repository at `~/team`, and `[ledger] dir` pointing at it.
fn member(team_remote: &Path, name: Option<&str>, git_name: &str, email: &str) -> Home {
    let home = Home::new();
    home.git_identity(email, git_name);
    git_in(&home, home.path(), &["clone", "-q", team_remote.to_str().unwrap(), "team"]);
    let identity = name.map_or_else(String::new, |name| format!("name = \"{name}\"\n"));
    home.config(&format!(
        "[identity]\nemails = [\"{email}\"]\n{identity}\n[ledger]\ndir = \"~/team\"\n"
    ));
    home
}

/// Alice: a commit, and a Claude Code session whose to-do list leaves two steps open;
/// her shell history holds a command with a secret, which is never published.
fn alice_day(home: &Home) {
    let repo = home.repo("api");
    repo.git(&["config", "user.email", "alice@example.com"]);
    let commit = repo
        .git_command(&["commit", "-q", "--allow-empty", "-m", "api: retry on 503"])
        .env("GIT_AUTHOR_EMAIL", "alice@example.com")
        .env("GIT_AUTHOR_NAME", "Alice")
        .env("GIT_AUTHOR_DATE", "2026-11-27T10:00:00+09:00")
        .env("GIT_COMMITTER_DATE", "2026-11-27T10:00:00+09:00")
        .output()
        .unwrap();
    assert!(commit.status.success());
    let cwd = home.path().join("src/api").display().to_string();
    let record = |kind: &str, uuid: &str, time: &str, message: Value| {
        json!({
            "parentUuid": null, "isSidechain": false, "userType": "external", "cwd": cwd,
            "sessionId": SESSION, "version": "2.1.50", "gitBranch": "main", "type": kind,
            "message": message, "uuid": uuid, "timestamp": time,
        })
    };
    let todos = json!({"model": "claude-sonnet-4-5", "id": "msg_t", "type": "message", "role": "assistant",
    "content": [{"type": "tool_use", "id": "toolu_1", "name": "TodoWrite", "input": {"todos": [
        {"content": "write the client", "status": "completed", "activeForm": "Writing"},
        {"content": "add the retry test", "status": "in_progress", "activeForm": "Adding"},
        {"content": "document the backoff", "status": "pending", "activeForm": "Documenting"},
    ]}}]});
    let lines = [
        record(
            "user",
            "00000000-0000-4000-8000-000000000001",
            "2026-11-27T01:30:00.000Z",
            json!({"role": "user", "content": "Add retries to the upload client"}),
        ),
        record(
            "assistant",
            "00000000-0000-4000-8000-000000000002",
            "2026-11-27T01:40:00.000Z",
            todos,
        ),
    ];
    let text: String = lines.iter().map(|line| line.to_string() + "\n").collect();
    home.write(&format!(".claude/projects/-x-src-api/{SESSION}.jsonl"), &text);
    home.write(".zsh_history", ": 1795741200:0;deploy --password hunter2-secret-flag\n");
}

/// Bob: a commit reverted the same day (a blocker from the evidence).
fn bob_day(home: &Home) {
    let repo = home.repo("web");
    let who = crate::support::Who { email: "bob@example.com", name: "Bob" };
    repo.commit_as(
        who,
        "cache.js",
        "1\n",
        "web: add the cache",
        "2026-11-27T11:00:00+09:00",
        "2026-11-27T11:00:00+09:00",
    );
    repo.commit_as(
        who,
        "cache.js",
        "",
        "Revert \"web: add the cache\"",
        "2026-11-27T16:00:00+09:00",
        "2026-11-27T16:00:00+09:00",
    );
}

/// Carol: one commit.
fn carol_day(home: &Home) {
    let repo = home.repo("infra");
    let who = crate::support::Who { email: "carol@example.com", name: "Carol" };
    repo.commit_as(
        who,
        "main.tf",
        "x\n",
        "infra: resize the runners",
        "2026-11-27T14:00:00+09:00",
        "2026-11-27T14:00:00+09:00",
    );
}

struct Team {
    lead: Home,
    remote: PathBuf,
    members: Vec<Home>,
}

fn team() -> Team {
    let lead = Home::new();
    let remote = lead.path().parent().unwrap().join("team.git");
    fs_err::create_dir_all(&remote).unwrap();
    git_in(&lead, &remote, &["init", "-q", "--bare", "-b", "main"]);
    // The team repository starts with a README, as a real one would.
    let seed = lead.repo("seed");
    seed.commit("README.md", "team standups", "2026-11-01T09:00:00+09:00");
    seed.git(&["push", "-q", remote.to_str().unwrap(), "main"]);
    let alice = member(&remote, Some("alice"), "Alice Example", "alice@example.com");
    alice_day(&alice);
    // Bob sets no `[identity] name`: git's user.name, made a folder name.
    let bob = member(&remote, None, "Bob Builder", "bob@example.com");
    bob_day(&bob);
    let carol = member(&remote, Some("carol"), "Carol", "carol@example.com");
    carol_day(&carol);
    Team { lead, remote, members: vec![alice, bob, carol] }
}

fn publish_all(team: &Team) {
    for home in &team.members {
        // Each pulls first, as a member would (the others pushed meanwhile).
        git_in(home, &home.path().join("team"), &["pull", "-q", "--rebase"]);
        let run = home.run(NOW, TOKYO, &["publish", "--commit", "--push"]);
        assert_eq!(run.code, 0, "{}", run.snapshot());
    }
}

#[test]
fn three_members_publish_and_the_team_page_shows_each_persons_day() {
    let team = team();
    let alice = &team.members[0];

    // What would be published, exactly, before anything is written.
    let shown = alice.run(NOW, TOKYO, &["publish", "--show-what-is-published"]);
    let shown_json = shown.success().to_owned();
    assert_eq!(shown.stderr, "standup publish would write [HOME]/team/alice/2026-11-27.json\n");
    assert!(!alice.path().join("team/alice").exists());
    // No paths, no shell commands, no secrets: only projects, commit subjects, session
    // titles, next steps and blockers.
    assert!(!shown_json.contains("[HOME]"), "{shown_json}");
    assert!(!shown_json.contains("hunter2"), "{shown_json}");
    assert!(!shown_json.contains("deploy"), "{shown_json}");
    let published: Value = serde_json::from_str(&shown_json).unwrap();
    assert_eq!(published["warnings"], json!([]));
    assert_eq!(published["buckets"][0]["shell"], json!([]));
    assert_eq!(published["buckets"][0]["projects"][0]["path"], "api");

    publish_all(&team);
    // What was written is what was shown.
    let written = fs_err::read_to_string(alice.path().join("team/alice/2026-11-27.json")).unwrap();
    assert_eq!(written, shown_json);

    // The lead's clone of the team repository.
    git_in(&team.lead, team.lead.path(), &["clone", "-q", team.remote.to_str().unwrap(), "team"]);
    let log = git_in(&team.lead, &team.lead.path().join("team"), &["log", "--format=%s"]);
    assert_eq!(
        log,
        "standup: carol 2026-11-27\nstandup: Bob-Builder 2026-11-27\nstandup: alice 2026-11-27\nteam standups\n"
    );
    let run = |args: &[&str]| {
        team.lead.run(
            NOW,
            TOKYO,
            &[&["team", "--ledger", "~/team", "--date", "2026-11-27"][..], args].concat(),
        )
    };
    insta::assert_snapshot!("team_en", run(&[]).success());
    insta::assert_snapshot!("team_ja", run(&["--lang", "ja"]).success());
    insta::assert_snapshot!("team_slack", run(&["--format", "slack"]).success());
    let json: Value = serde_json::from_str(run(&["--format", "json"]).success()).unwrap();
    let names: Vec<&str> =
        json["members"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Bob-Builder", "alice", "carol"]);
    assert_eq!(json["date"], "2026-11-27");
    let html = run(&["--format", "html"]);
    assert!(html.success().contains("<h2>Team standup — 2026-11-27 (Fri)</h2>"), "{}", html.stdout);
}

#[test]
fn a_broken_or_foreign_entry_is_a_warning_and_the_other_members_are_there() {
    let team = team();
    publish_all(&team);
    git_in(&team.lead, team.lead.path(), &["clone", "-q", team.remote.to_str().unwrap(), "team"]);
    team.lead.write("team/dave/2026-11-27.json", "{\"schema_version\": 1, \"kind\": ");
    team.lead.write("team/erin/2026-11-27.json", "{\"schema_version\": 7}");
    // Other days and other files are never opened.
    team.lead.write("team/frank/2026-11-26.json", "not even json");
    team.lead.write("team/notes.txt", "hello");
    let run = team.lead.run(
        NOW,
        TOKYO,
        &["team", "--ledger", "~/team", "--date", "2026-11-27", "--format", "json"],
    );
    let json: Value = serde_json::from_str(run.success()).unwrap();
    assert_eq!(json["members"].as_array().unwrap().len(), 3);
    let codes: Vec<&str> =
        json["warnings"].as_array().unwrap().iter().map(|w| w["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["ledger_unreadable", "machine_schema_mismatch"]);
    insta::assert_snapshot!("team_warnings_stderr", run.stderr);
    // No ledger at all is a usage error.
    let missing = team.lead.run(NOW, TOKYO, &["team", "--ledger", "~/nowhere"]);
    assert_eq!(missing.code, 2, "{}", missing.snapshot());
}

/// What `publish` writes of the day's notes and ticket keys, with `allow` as
/// `[publish] allow` (`None`: the default): the notes' kinds and texts, the ticket keys.
fn published_outlook(home: &Home, allow: Option<&str>) -> (Vec<(String, String)>, Vec<String>) {
    let allow = allow.map_or_else(String::new, |allow| format!("[publish]\nallow = {allow}\n"));
    home.config(&format!(
        "[identity]\nemails = [\"me@example.com\"]\nname = \"me\"\n[ledger]\ndir = \"~/team\"\n{allow}"
    ));
    let run = home.run(NOW, TOKYO, &["publish", "--show-what-is-published"]);
    let day: Value = serde_json::from_str(run.success()).unwrap();
    let text = |value: &Value, key: &str| value[key].as_str().unwrap().to_owned();
    let notes = day["outlook"]["notes"].as_array().map_or_else(Vec::new, |notes| {
        notes.iter().map(|note| (text(note, "kind"), text(note, "text"))).collect()
    });
    let tickets = day["outlook"]["tickets"].as_array().map_or_else(Vec::new, |tickets| {
        tickets.iter().map(|ticket| text(ticket, "key")).collect()
    });
    (notes, tickets)
}

#[test]
fn a_published_day_holds_the_notes_and_tickets_its_allow_list_lets_through() {
    let home = Home::new();
    home.git_identity("me@example.com", "Me");
    fs_err::create_dir_all(home.path().join("team")).unwrap();
    home.repo("api").commit("f", "ABC-12: retry on 503", "2026-11-27T10:00:00+09:00");
    for note in [
        &["note", "call the bank about the mortgage"][..],
        &["note", "--plan", "write the retry test"],
        &["note", "--blocker", "waiting on the staging keys"],
    ] {
        assert_eq!(home.run(NOW, TOKYO, note).code, 0);
    }
    let note = |kind: &str, text: &str| (kind.to_owned(), text.to_owned());
    // The default (`projects commits sessions next blockers`): the plan and the blocker,
    // never the plain note; the ticket its commit names.
    assert_eq!(
        published_outlook(&home, None),
        (
            vec![
                note("plan", "write the retry test"),
                note("blocker", "waiting on the staging keys")
            ],
            vec!["ABC-12".to_owned()]
        )
    );
    // Commits only: no notes at all.
    assert_eq!(
        published_outlook(&home, Some("[\"commits\"]")),
        (vec![], vec!["ABC-12".to_owned()])
    );
    // Without the commits, the key their subject holds is not published either.
    assert_eq!(
        published_outlook(&home, Some("[\"projects\", \"next\"]")),
        (vec![note("plan", "write the retry test")], vec![])
    );
}
