//! The narrative through the real binary, against a real HTTP server on loopback.

use std::sync::Mutex;

use httpmock::prelude::*;

use crate::secrets::{ALL, NOW, TOKYO, secret_home};
use crate::support::{Home, ME};

static CAPTURED: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn capture(request: &HttpMockRequest) -> bool {
    if let Some(body) = &request.body {
        CAPTURED.lock().unwrap().push(String::from_utf8_lossy(body).into_owned());
    }
    true
}

fn home_with_work() -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    home.repo("app").commit("a", "parser: accept trailing commas", "2026-11-27T10:00:00+09:00");
    home
}

#[test]
fn connection_refused_changes_only_one_line() {
    let home = home_with_work();
    // Port 9 (discard) is closed on loopback: the connection is refused.
    home.config("[llm]\nendpoint = \"http://127.0.0.1:9\"\nmodel = \"m\"\n");
    let with_llm = home.run(NOW, TOKYO, &["daily"]);
    let without = home.run(NOW, TOKYO, &["daily", "--no-llm"]);
    assert_eq!(with_llm.code, 0);
    assert!(
        with_llm.stderr.starts_with("standup: warning: llm_unavailable: "),
        "{}",
        with_llm.stderr
    );
    let (a, b): (Vec<&str>, Vec<&str>) =
        (with_llm.stdout.lines().collect(), without.stdout.lines().collect());
    assert_eq!(a.len(), b.len());
    let differing: Vec<(&str, &str)> =
        a.iter().zip(&b).filter(|(x, y)| x != y).map(|(x, y)| (*x, *y)).collect();
    assert_eq!(differing.len(), 1, "{differing:?}");
    assert!(differing[0].0.starts_with("- Warning: `llm_unavailable` "), "{differing:?}");
    assert_eq!(differing[0].1, "Warnings: none");
    assert!(a.last().unwrap().ends_with("· deterministic"));
}

#[test]
fn a_local_server_adds_a_summary_and_the_footer_names_the_model() {
    let server = MockServer::start();
    let chat = server.mock(|when, then| {
        when.method(POST).path("/api/chat").matches(capture);
        then.status(200).json_body(serde_json::json!({
            "model": "qwen-test", "created_at": "2026-11-27T09:00:00Z", "done": true,
            "message": {"role": "assistant", "content": "Most of the day went into the parser: trailing commas are accepted now."}
        }));
    });
    let home = home_with_work();
    home.config(&format!("[llm]\nendpoint = \"{}\"\nmodel = \"qwen-test\"\n", server.base_url()));
    let run = home.run(NOW, TOKYO, &["daily"]);
    chat.assert();
    let markdown = run.success();
    assert!(markdown.contains("\n## Summary\n\nMost of the day went into the parser: trailing commas are accepted now.\n"), "{markdown}");
    assert!(markdown.lines().last().unwrap().ends_with("· narrative: qwen-test"), "{markdown}");
    assert_eq!(run.stderr, "");
}

#[test]
fn the_request_body_holds_only_redacted_text() {
    let server = MockServer::start();
    let chat = server.mock(|when, then| {
        when.method(POST).path("/api/chat").body_contains("secret-home-marker").matches(capture);
        then.status(200).json_body(serde_json::json!({"message": {"role": "assistant", "content": "A day of rotating credentials."}}));
    });
    let home = secret_home();
    home.repo_handle(&home.path().join("src/app")).commit(
        "m",
        "secret-home-marker",
        "2026-11-27T14:00:00+09:00",
    );
    home.config(&format!("[llm]\nendpoint = \"{}\"\nmodel = \"m\"\n", server.base_url()));
    let run = home.run(NOW, TOKYO, &["daily"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    chat.assert();
    let bodies: Vec<String> = CAPTURED
        .lock()
        .unwrap()
        .iter()
        .filter(|body| body.contains("secret-home-marker"))
        .cloned()
        .collect();
    assert_eq!(bodies.len(), 1);
    for secret in ALL {
        assert!(!bodies[0].contains(secret), "{secret} sent to the LLM: {}", bodies[0]);
    }
    assert!(bodies[0].contains("[REDACTED:"), "{}", bodies[0]);
}

#[test]
fn no_llm_and_an_empty_day_make_no_request() {
    let server = MockServer::start();
    let chat = server.mock(|when, then| {
        when.any_request();
        then.status(500);
    });
    let home = home_with_work();
    home.config(&format!("[llm]\nendpoint = \"{}\"\nmodel = \"m\"\n", server.base_url()));
    assert_eq!(home.run(NOW, TOKYO, &["daily", "--no-llm"]).code, 0);
    assert_eq!(home.run("2026-11-20T18:00:00+09:00", TOKYO, &["daily"]).code, 0);
    assert_eq!(home.run(NOW, TOKYO, &["daily", "--show-prompt"]).code, 0);
    chat.assert_hits(0);
}

#[test]
fn a_non_loopback_endpoint_is_blocked() {
    let home = home_with_work();
    home.config("[llm]\nendpoint = \"http://0.0.0.0:11434\"\nmodel = \"m\"\n");
    let run = home.run(NOW, TOKYO, &["daily"]);
    assert_eq!(run.code, 0);
    assert!(
        run.stderr.starts_with("standup: warning: llm_blocked_nonloopback: "),
        "{}",
        run.stderr
    );
    assert!(run.stdout.contains("- Warning: `llm_blocked_nonloopback`"), "{}", run.stdout);
}
