//! The narrative through the real binary, against a real HTTP server on loopback.

use std::sync::Mutex;

use httpmock::prelude::*;
use report_model::ReportKind;

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
fn a_malformed_endpoint_is_a_config_error_naming_the_key_and_line() {
    let home = home_with_work();
    for (endpoint, cause) in [
        ("http://127.0.0.1:99999", "its port is not a number from 1 to 65535"),
        ("https://127.0.0.1:11434", "only http:// is supported"),
        ("not a url", "it cannot be parsed as a URL"),
    ] {
        home.config(&format!("[llm]\nmodel = \"m\"\nendpoint = \"{endpoint}\"\n"));
        let run = home.run(NOW, TOKYO, &["daily"]);
        assert_eq!(run.code, 2, "{endpoint}: {}", run.snapshot());
        assert!(run.stdout.is_empty());
        assert!(
            run.stderr.contains("line 3, key `llm.endpoint`: ") && run.stderr.contains(cause),
            "{endpoint}: {}",
            run.stderr
        );
        // `--no-llm` neither reads nor validates `[llm]`.
        let run = home.run(NOW, TOKYO, &["daily", "--no-llm"]);
        assert_eq!(run.code, 0, "{endpoint}: {}", run.snapshot());
        assert!(run.stdout.contains("parser: accept trailing commas"), "{}", run.stdout);
    }
}

#[test]
fn an_endpoint_off_loopback_is_a_warning_and_the_whole_report() {
    let home = home_with_work();
    for (endpoint, cause) in [
        ("http://0.0.0.0:11434", "0.0.0.0, which is not a loopback address"),
        ("http://10.1.2.3:11434", "10.1.2.3, which is not a loopback address"),
        ("http://localhost.evil.example:11434", "is a name; only IP literals"),
    ] {
        home.config(&format!("[llm]\nmodel = \"m\"\nendpoint = \"{endpoint}\"\n"));
        for kind in ["daily", "standup"] {
            let run = home.run(NOW, TOKYO, &[kind]);
            assert_eq!(run.code, 0, "{endpoint}: {}", run.snapshot());
            assert!(run.stdout.contains("parser: accept trailing commas"), "{}", run.stdout);
            assert!(
                run.stdout.contains(cause) && run.stdout.contains("nothing was sent"),
                "{endpoint}: {}",
                run.stdout
            );
            let quiet = home.run(NOW, TOKYO, &[kind, "--no-llm"]);
            assert_eq!(quiet.code, 0, "{endpoint}: {}", quiet.snapshot());
            assert!(!quiet.stdout.contains(cause), "{}", quiet.stdout);
        }
        let json = home.run(NOW, TOKYO, &["daily", "--format", "json"]);
        assert!(json.stdout.contains("\"llm_blocked_nonloopback\""), "{}", json.stdout);
        let doctor = home.run(NOW, TOKYO, &["doctor"]);
        assert_eq!(doctor.code, 0, "{}", doctor.snapshot());
        assert!(doctor.stdout.contains("is not on loopback"), "{}", doctor.stdout);
    }
}

#[test]
fn no_llm_ignores_an_llm_table_it_could_not_use() {
    let home = home_with_work();
    for table in [
        "[llm]\napi = \"bogus\"\n",
        "[llm]\ntimeout_secs = 0\n",
        "[llm]\nno_such_key = 1\n",
        "llm = 3\n",
    ] {
        home.config(table);
        let run = home.run(NOW, TOKYO, &["standup", "--no-llm"]);
        assert_eq!(run.code, 0, "{table}: {}", run.snapshot());
        assert!(run.stdout.contains("parser: accept trailing commas"), "{}", run.stdout);
        // With the LLM wanted, the mistake is named.
        let run = home.run(NOW, TOKYO, &["standup"]);
        assert_eq!(run.code, 2, "{table}: {}", run.snapshot());
        assert!(run.stderr.contains("llm"), "{}", run.stderr);
    }
}

/// A chat mock on `server` for `api` answering `content`.
fn chat_answering<'a>(server: &'a MockServer, api: &str, content: &str) -> httpmock::Mock<'a> {
    let (path, body) = match api {
        "ollama" => (
            "/api/chat",
            serde_json::json!({"message": {"role": "assistant", "content": content}, "done": true}),
        ),
        _ => (
            "/v1/chat/completions",
            serde_json::json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}),
        ),
    };
    server.mock(|when, then| {
        when.method(POST).path(path).matches(capture);
        then.status(200).json_body(body);
    })
}

fn llm_config(server: &MockServer, api: &str, extra: &str) -> String {
    format!("[llm]\napi = \"{api}\"\nendpoint = \"{}\"\nmodel = \"m\"\n{extra}", server.base_url())
}

#[test]
fn with_nothing_configured_and_nothing_listening_the_llm_is_silent() {
    let home = home_with_work();
    // No config at all: `enabled = "auto"`, the default endpoint (nothing listens there in
    // the test environment).
    let run = home.run(NOW, TOKYO, &["daily"]);
    let markdown = run.success();
    assert_eq!(run.stderr, "");
    assert!(markdown.contains("Warnings: none"), "{markdown}");
    assert!(markdown.lines().last().unwrap().ends_with("· deterministic"));
    // `--llm` forces it, and then a failure is a warning.
    let forced = home.run(NOW, TOKYO, &["daily", "--llm"]);
    assert_eq!(forced.code, 0);
    assert!(forced.stderr.starts_with("standup: warning: llm_unavailable: "), "{}", forced.stderr);
    // So does `enabled = true`.
    home.config("[llm]\nenabled = true\n");
    let on = home.run(NOW, TOKYO, &["daily"]);
    assert!(on.stderr.starts_with("standup: warning: llm_unavailable: "), "{}", on.stderr);
}

#[test]
fn enabled_false_is_off_unless_forced() {
    let server = MockServer::start();
    let chat = chat_answering(&server, "ollama", "The parser now accepts trailing commas.");
    let home = home_with_work();
    home.config(&llm_config(&server, "ollama", "enabled = false\n"));
    assert!(!home.run(NOW, TOKYO, &["daily"]).success().contains("## Summary"));
    chat.assert_hits(0);
    let forced = home.run(NOW, TOKYO, &["daily", "--llm", "--no-cache"]);
    assert!(forced.success().contains("## Summary"), "{}", forced.snapshot());
    chat.assert_hits(1);
}

#[test]
fn structured_replies_on_both_apis_and_the_verdict_in_json() {
    for api in ["ollama", "openai"] {
        let server = MockServer::start();
        // The earlier schema, the summary as one string, is still read (as uncited text).
        let reply = serde_json::json!({
            "summary": "The day went into the app parser. Trailing commas are accepted now. It also added a new login page.",
            "blockers": [],
            "mood": "great",
        })
        .to_string();
        let chat = chat_answering(&server, api, &reply);
        // A subject of this run's own, to find its request among the other tests'.
        let subject = format!("parser: accept trailing commas in {api} configs");
        let home = Home::new();
        home.git_identity(ME.email, ME.name);
        home.repo("app").commit("a", &subject, "2026-11-27T10:00:00+09:00");
        home.config(&llm_config(&server, api, ""));
        let run = home.run(NOW, TOKYO, &["daily", "--format", "json"]);
        assert_eq!(run.code, 0, "{}", run.snapshot());
        chat.assert_hits(1);
        let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(
            json["narrative"]["text"],
            "The day went into the app parser. Trailing commas are accepted now.",
            "{api}"
        );
        let check = &json["narrative_check"];
        assert_eq!(check["accepted"], true);
        assert_eq!(check["structured"], true);
        assert_eq!(
            check["sentences"],
            serde_json::json!([
                {"text": "The day went into the app parser.", "kept": true},
                {"text": "Trailing commas are accepted now.", "kept": true},
                {"text": "It also added a new login page.", "kept": false, "reasons": ["unsupported"]},
            ])
        );
        assert_eq!(
            run.stderr,
            "standup: warning: llm_sentences_dropped: 1 of 3 sentences of the narrative left out as not supported by the data (unsupported: 1)\n"
        );
        // The request asked for the schema.
        let bodies = CAPTURED.lock().unwrap().clone();
        let body = bodies.iter().rev().find(|body| body.contains(&subject)).unwrap();
        let body: serde_json::Value = serde_json::from_str(body).unwrap();
        let schema = if api == "ollama" {
            &body["format"]
        } else {
            &body["response_format"]["json_schema"]["schema"]
        };
        assert_eq!(schema["required"], serde_json::json!(["summary", "blockers"]), "{api}: {body}");
        // Each sentence of the summary with the ids it cites.
        let sentence = &schema["properties"]["summary"]["items"];
        assert_eq!(schema["properties"]["summary"]["type"], "array", "{api}: {body}");
        assert_eq!(sentence["required"], serde_json::json!(["text", "evidence"]), "{api}");
        assert_eq!(sentence["properties"]["evidence"]["minItems"], 1, "{api}");
    }
}

#[test]
fn the_openai_fallback_to_json_object_through_the_binary() {
    let server = MockServer::start();
    let refused = server.mock(|when, then| {
        when.method(POST).path("/v1/chat/completions").body_contains("\"json_schema\"");
        then.status(500).json_body(serde_json::json!({"error": {"message": "response_format.type: Input should be 'text' or 'json_object'"}}));
    });
    let accepted = server.mock(|when, then| {
        when.method(POST).path("/v1/chat/completions").body_contains("\"json_object\"");
        then.status(200).json_body(serde_json::json!({"choices": [{"message": {"role": "assistant", "content": "{\"summary\": \"The app parser accepts trailing commas now.\", \"blockers\": []}"}}]}));
    });
    let home = home_with_work();
    home.config(&llm_config(&server, "openai", ""));
    let run = home.run(NOW, TOKYO, &["daily"]);
    assert!(
        run.success().contains("\n## Summary\n\nThe app parser accepts trailing commas now.\n"),
        "{}",
        run.snapshot()
    );
    assert_eq!(run.stderr, "");
    refused.assert_hits(1);
    accepted.assert_hits(1);
}

/// The JSON-object fallback asks for the same cited schema, and a cited reply through it is
/// bound to its citations like any other.
#[test]
fn the_json_object_fallback_carries_the_cited_schema_and_its_reply_is_bound() {
    let home = home_with_work();
    let report = home.run(NOW, TOKYO, &["daily", "--no-llm", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(report.success()).unwrap();
    let hash = report["buckets"][0]["projects"][0]["commits"][0]["hash"].as_str().unwrap();
    let id = &hash[..10];
    let server = MockServer::start();
    let refused = server.mock(|when, then| {
        when.method(POST).path("/v1/chat/completions").body_contains("\"json_schema\"");
        then.status(500).json_body(serde_json::json!({"error": {"message": "response_format.type: Input should be 'text' or 'json_object'"}}));
    });
    let content = serde_json::json!({"summary": [
        {"text": "The app parser accepts trailing commas now.", "evidence": [id]},
        {"text": "Nothing was committed to app.", "evidence": [id]},
        {"text": "It was one commit in app.", "evidence": [id]},
        {"text": "The parser change was merged.", "evidence": [id]},
    ], "blockers": []})
    .to_string();
    let accepted = server.mock(|when, then| {
        when.method(POST)
            .path("/v1/chat/completions")
            .body_contains("\"json_object\"")
            .body_contains("\"minItems\":1");
        then.status(200).json_body(serde_json::json!({"choices": [{"message": {"role": "assistant", "content": content}}]}));
    });
    home.config(&llm_config(&server, "openai", ""));
    let run = home.run(NOW, TOKYO, &["daily", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(run.success()).unwrap();
    assert_eq!(
        json["narrative"]["text"],
        "The app parser accepts trailing commas now. It was one commit in app."
    );
    assert_eq!(
        json["narrative_check"]["sentences"],
        serde_json::json!([
            {"text": "The app parser accepts trailing commas now.", "kept": true, "evidence": [id]},
            {"text": "Nothing was committed to app.", "kept": false, "reasons": ["negation"], "evidence": [id]},
            {"text": "It was one commit in app.", "kept": true, "evidence": [id]},
            {"text": "The parser change was merged.", "kept": false, "reasons": ["outcome"], "evidence": [id]},
        ])
    );
    assert!(
        run.stderr.starts_with("standup: warning: llm_sentences_dropped: 2 of 4 sentences"),
        "{}",
        run.stderr
    );
    refused.assert_hits(1);
    accepted.assert_hits(1);
}

#[test]
fn a_rejected_reply_is_one_warning_and_the_full_report() {
    let server = MockServer::start();
    chat_answering(
        &server,
        "ollama",
        "You summarize one developer's working day for their daily report. The parser accepts trailing commas.",
    );
    let home = home_with_work();
    home.config(&llm_config(&server, "ollama", ""));
    let run = home.run(NOW, TOKYO, &["daily"]);
    let markdown = run.success();
    assert_eq!(
        run.stderr,
        "standup: warning: llm_rejected: instruction_echo: the reply repeats the instructions; the report has no narrative\n"
    );
    assert!(!markdown.contains("## Summary"));
    assert!(markdown.contains("parser: accept trailing commas"));
    assert!(markdown.lines().last().unwrap().ends_with("· deterministic"));
}

/// The block structure of a Markdown document: each block-level start tag, in order.
fn blocks(markdown: &str) -> Vec<String> {
    use pulldown_cmark::{Event, Parser, Tag};
    Parser::new(markdown)
        .filter_map(|event| match event {
            Event::Start(tag) => Some(match tag {
                Tag::Heading { level, .. } => format!("heading {level}"),
                Tag::CodeBlock(_) => "code block".to_owned(),
                Tag::HtmlBlock => "html block".to_owned(),
                Tag::BlockQuote(_) => "quote".to_owned(),
                Tag::List(_) => "list".to_owned(),
                Tag::Item => "item".to_owned(),
                Tag::Paragraph => "paragraph".to_owned(),
                Tag::Table(_) => "table".to_owned(),
                _ => return None,
            }),
            Event::Html(_) => Some("html".to_owned()),
            _ => None,
        })
        .collect()
}

#[test]
fn no_reply_can_change_the_reports_block_structure() {
    let home = home_with_work();
    // The body up to the totals; the warnings after it may differ (a rejected reply is one).
    let body = |markdown: &str| markdown.split("\nTotals:").next().unwrap().to_owned();
    let without = blocks(&body(home.run(NOW, TOKYO, &["daily", "--no-llm"]).success()));
    let server = MockServer::start();
    let hostile = [
        // Mid-line markers pass the checks; they must stay text.
        "The parser accepts trailing commas ``` now. # Parser work <details> > commas - accepted * 1. done",
        "The parser accepts trailing commas.\n```\nunclosed",
        "# The parser\nTrailing commas are accepted.",
        "<details><summary>The parser</summary>\nTrailing commas are accepted.",
        "- The parser accepts trailing commas.\n> quoted",
        "The parser accepts trailing commas.\n\n    indented",
        "The parser accepts trailing commas.\n---",
    ];
    for (idx, reply) in hostile.iter().enumerate() {
        let mut mock = chat_answering(&server, "ollama", reply);
        home.config(&llm_config(&server, "ollama", ""));
        let run = home.run(NOW, TOKYO, &["daily", "--no-cache"]);
        let markdown = run.success();
        let with = blocks(&body(markdown));
        let all = blocks(markdown);
        assert!(
            !all.iter().any(
                |block| ["code block", "html block", "html", "quote"].contains(&block.as_str())
            ),
            "reply {idx}: {all:?}\n{markdown}"
        );
        let mut expected = without.clone();
        if markdown.contains("\n## Summary\n") {
            // Exactly one heading and one paragraph more, right after the title.
            expected.splice(2..2, ["heading h2".to_owned(), "paragraph".to_owned()]);
        }
        assert_eq!(with, expected, "reply {idx}: {reply:?}\n{markdown}");
        mock.delete();
    }
}

#[test]
fn the_cache_answers_the_same_request_and_no_cache_bypasses_it() {
    let server = MockServer::start();
    let chat = chat_answering(
        &server,
        "ollama",
        "{\"summary\": \"The app parser accepts trailing commas now.\", \"blockers\": []}",
    );
    let home = home_with_work();
    home.config(&llm_config(&server, "ollama", ""));
    let first = home.run(NOW, TOKYO, &["daily"]);
    assert!(
        first.success().lines().last().unwrap().ends_with("· narrative: m"),
        "{}",
        first.stdout
    );
    let second = home.run(NOW, TOKYO, &["daily"]);
    assert!(
        second.success().lines().last().unwrap().ends_with("· narrative: m (cached)"),
        "{}",
        second.stdout
    );
    assert_eq!(second.stdout.replace(" (cached)", ""), first.stdout);
    chat.assert_hits(1);
    let json: serde_json::Value =
        serde_json::from_str(home.run(NOW, TOKYO, &["daily", "--format", "json"]).success())
            .unwrap();
    assert_eq!(json["narrative_check"]["cached"], true);
    chat.assert_hits(1);
    home.run(NOW, TOKYO, &["daily", "--no-cache"]).success();
    chat.assert_hits(2);

    // One entry, named by the SHA-256 of the request; a corrupt entry is ignored and replaced.
    let dir = home.path().join(".cache/standup/narrative");
    let entries: Vec<_> =
        fs_err::read_dir(&dir).unwrap().map(|entry| entry.unwrap().path()).collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    let name = entries[0].file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(name.len(), 69, "{name}");
    assert_eq!(entries[0].extension().unwrap(), "json");
    fs_err::write(&entries[0], "{not json").unwrap();
    let after_corruption = home.run(NOW, TOKYO, &["daily"]);
    assert!(after_corruption.success().lines().last().unwrap().ends_with("· narrative: m"));
    chat.assert_hits(3);
    home.run(NOW, TOKYO, &["daily"]).success();
    chat.assert_hits(3);

    // Any input change is another request.
    home.repo_handle(&home.path().join("src/app")).commit(
        "b",
        "parser: reject duplicate keys",
        "2026-11-27T11:00:00+09:00",
    );
    home.run(NOW, TOKYO, &["daily"]).success();
    chat.assert_hits(4);
}

#[test]
fn show_prompt_shows_the_cited_reply_schema_unless_structured_output_is_off() {
    let home = home_with_work();
    for (kind, lang, system) in [
        ("daily", "en", narrative::prompts::DAILY_EN),
        ("standup", "ja", narrative::prompts::STANDUP_JA),
    ] {
        let report_kind = if kind == "daily" { ReportKind::Daily } else { ReportKind::Standup };
        let schema = serde_json::to_string_pretty(&narrative::reply_schema(report_kind)).unwrap();
        home.config("");
        let text = home.run(NOW, TOKYO, &[kind, "--lang", lang, "--show-prompt"]);
        let text = text.success();
        assert!(text.starts_with(&format!("----- system -----\n{system}\n----- user -----\n")));
        assert!(
            text.ends_with(&format!("</data>\n----- reply schema -----\n{schema}\n")),
            "{text}"
        );
        // The schema asks for each sentence with the ids it cites, and so do the prompts.
        assert!(schema.contains("\"minItems\": 1"), "{schema}");
        let asks = if lang == "ja" {
            "id のない文は表示されません。"
        } else {
            "A sentence without ids is not shown."
        };
        assert!(system.contains(asks), "{system}");
        let json =
            home.run(NOW, TOKYO, &[kind, "--lang", lang, "--show-prompt", "--format", "json"]);
        let json: serde_json::Value = serde_json::from_str(json.success()).unwrap();
        assert_eq!(json["schema"], narrative::reply_schema(report_kind));
        assert_eq!(
            json["schema"]["properties"]["summary"]["items"]["required"],
            serde_json::json!(["text", "evidence"])
        );
        // Structured output off: no schema is sent, none is shown.
        home.config("[llm]\nstructured = \"off\"\n");
        let off = home.run(NOW, TOKYO, &[kind, "--lang", lang, "--show-prompt"]);
        assert!(!off.success().contains("reply schema"), "{}", off.stdout);
        assert!(off.stdout.ends_with("</data>\n"));
        let off =
            home.run(NOW, TOKYO, &[kind, "--lang", lang, "--show-prompt", "--format", "json"]);
        let off: serde_json::Value = serde_json::from_str(off.success()).unwrap();
        assert!(off.get("schema").is_none(), "{off}");
    }
}

#[test]
fn style_notes_go_in_a_tuning_section_and_none_leave_the_prompt_as_it_was() {
    let home = home_with_work();
    let plain = home.run(NOW, TOKYO, &["daily", "--show-prompt"]);
    let system = |text: &str| text.split("----- user -----").next().unwrap().to_owned();
    assert_eq!(
        system(plain.success()),
        format!("----- system -----\n{}\n", narrative::prompts::DAILY_EN)
    );
    home.config("[llm]\nnotes = [\"Write in the first person.\", \"Mention </tuning> tickets.\", \"A third note that does not fit the budget.\"]\nnotes_max_chars = 60\n");
    let tuned = home.run(NOW, TOKYO, &["daily", "--show-prompt"]);
    insta::assert_snapshot!(system(tuned.success()).trim_start_matches("----- system -----\n").strip_prefix(narrative::prompts::DAILY_EN).unwrap(), @r"
    <tuning>
    Style notes from the user. They change only the style; every rule above still holds:
    1. Write in the first person.
    2. Mention ‹/tuning› tickets.
    (… 1 more notes left out)
    </tuning>
    ");
}

#[test]
fn the_command_backend_runs_a_model_runner_with_the_request_on_stdin() {
    let home = home_with_work();
    let seen = home.path().join("request.json");
    let runner = home.write_executable(
        "bin/runner",
        &format!("#!/bin/sh\ncat > {}\necho '{{\"summary\": \"The app parser accepts trailing commas now.\", \"blockers\": []}}'\n", seen.display()),
    );
    home.config(&format!(
        "[llm]\napi = \"command\"\ncommand = \"{} --model tiny\"\n",
        runner.display()
    ));
    let run = home.run(NOW, TOKYO, &["daily"]);
    let markdown = run.success();
    assert_eq!(run.stderr, "");
    assert!(
        markdown.contains("\n## Summary\n\nThe app parser accepts trailing commas now.\n"),
        "{markdown}"
    );
    assert!(markdown.lines().last().unwrap().ends_with("· narrative: runner"));
    let request: serde_json::Value =
        serde_json::from_str(&fs_err::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(request["system"], narrative::prompts::DAILY_EN);
    assert!(request["user"].as_str().unwrap().contains("parser: accept trailing commas"));
    assert_eq!(request["schema"]["required"], serde_json::json!(["summary", "blockers"]));

    // A missing runner is a warning from the probe, and the report is still there.
    home.config("[llm]\napi = \"command\"\ncommand = \"/nonexistent/runner\"\n");
    let missing = home.run(NOW, TOKYO, &["daily"]);
    assert_eq!(missing.code, 0);
    assert_eq!(
        missing.stderr,
        "standup: warning: llm_unavailable: no narrative: the LLM command `/nonexistent/runner` was not found or is not executable\n"
    );
}

#[test]
fn one_deadline_covers_model_detection_and_the_chat() {
    let server = MockServer::start();
    // Each request alone fits in `timeout_secs = 2`; together they do not. With a time-out
    // per request, both would succeed and there would be no warning.
    server.mock(|when, then| {
        when.method(GET).path("/api/tags");
        then.status(200)
            .delay(std::time::Duration::from_millis(1_300))
            .json_body(serde_json::json!({"models": [{"name": "m"}]}));
    });
    server.mock(|when, then| {
        when.method(POST).path("/api/chat");
        then.status(200)
            .delay(std::time::Duration::from_millis(1_300))
            .json_body(serde_json::json!({"message": {"role": "assistant", "content": "The parser accepts trailing commas."}}));
    });
    let home = home_with_work();
    home.config(&format!("[llm]\nendpoint = \"{}\"\ntimeout_secs = 2\n", server.base_url()));
    // The warning alone shows the one deadline: each request would have fitted in its
    // own time-out. (No wall-clock bound: timed assertions fail on a loaded machine.)
    let run = home.run(NOW, TOKYO, &["daily", "--no-cache"]);
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stderr,
        "standup: warning: llm_unavailable: no narrative: LLM server unavailable: no answer within the overall time-out\n"
    );
}

/// In a Japanese report the LLM's failure is worded in Japanese; the client's and the
/// operating system's own words stay in the JSON's `detail`.
#[test]
fn an_unavailable_llm_is_worded_in_japanese_with_the_detail_in_json() {
    let home = home_with_work();
    // Port 9 (discard) is closed on loopback: the connection is refused.
    home.config("[llm]\nendpoint = \"http://127.0.0.1:9\"\nmodel = \"m\"\n");
    let run = home.run(NOW, TOKYO, &["daily", "--lang", "ja"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stdout.contains("LLM サーバーに接続できません（ナラティブなし）"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("os error"), "{}", run.stdout);
    assert!(!run.stdout.contains("no narrative"), "{}", run.stdout);
    let json = home.run(NOW, TOKYO, &["daily", "--lang", "ja", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let warning = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|warning| warning["code"] == "llm_unavailable")
        .unwrap_or_else(|| panic!("{}", json.stdout));
    assert_eq!(warning["detail"]["kind"], "llm");
    assert_eq!(warning["detail"]["cause"]["kind"], "connection");
    assert!(warning["detail"]["error"].as_str().unwrap().contains("os error 111"), "{warning}");
    assert!(warning["message"].as_str().unwrap().starts_with("no narrative: LLM server"));
    // A server off loopback, in Japanese too.
    home.config("[llm]\nendpoint = \"http://10.1.2.3:11434\"\nmodel = \"m\"\n");
    let run = home.run(NOW, TOKYO, &["daily", "--lang", "ja"]);
    assert!(
        run.stdout
            .contains("LLM の接続先 `10.1.2.3` はループバックではないため、何も送っていません"),
        "{}",
        run.stdout
    );
}
