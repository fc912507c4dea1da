//! `standup mcp` through a real MCP client: the `rmcp` SDK's client talks to the binary,
//! started as a child process in a test home, over its stdin and stdout; it lists the
//! tools and calls them; the texts must be the CLI's, byte for byte, for the same home,
//! environment and clock.

use std::future::Future;
use std::io::{BufRead as _, Write as _};
use std::process::Stdio;
use std::time::Duration;

use rmcp::ServiceExt as _;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Value, json};
use tokio::process::Child;

use crate::full_home::{TOKYO, full_home};
use crate::support::Home;

/// The morning after the full home's Friday: `yesterday` is 2026-11-27.
const NOW: &str = "2026-11-28T09:00:00+09:00";

/// Runs `test` in a fresh runtime, with a deadline: a server that never answers fails the
/// test instead of hanging it.
fn block_on<F: Future<Output = ()>>(test: F) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        tokio::time::timeout(Duration::from_secs(120), test)
            .await
            .expect("the MCP session timed out");
    });
}

type Client = RunningService<RoleClient, ()>;

/// `standup mcp <extra>` in `home` with the clock at [`NOW`] in Tokyo, started as a
/// child process and connected over its stdin and stdout.
async fn connect(home: &Home, extra: &[&str]) -> (Client, Child) {
    let args: Vec<&str> = ["mcp"].iter().chain(extra).copied().collect();
    let mut command = tokio::process::Command::from(home.command(home.path(), NOW, TOKYO, &args));
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let transport = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
    (().serve(transport).await.unwrap(), child)
}

/// Closes the session: the server exits 0 when its input ends.
async fn finish(client: Client, mut child: Child) {
    client.cancel().await.unwrap();
    assert_eq!(child.wait().await.unwrap().code(), Some(0));
}

async fn call(client: &Client, tool: &'static str, arguments: Value) -> CallToolResult {
    let Value::Object(arguments) = arguments else { panic!("arguments are an object") };
    client.call_tool(CallToolRequestParams::new(tool).with_arguments(arguments)).await.unwrap()
}

/// The one text block of a successful result.
#[track_caller]
fn text(result: &CallToolResult) -> &str {
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert_eq!(result.content.len(), 1, "{result:?}");
    &result.content[0].as_text().expect("a text block").text
}

/// The message of a tool error.
#[track_caller]
fn tool_error(result: &CallToolResult) -> &str {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    &result.content[0].as_text().expect("a text block").text
}

/// The CLI's stdout for the same home, clock and zone, unaltered.
fn cli_stdout(home: &Home, args: &[&str]) -> String {
    let output = home.command(home.path(), NOW, TOKYO, args).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn report_for_yesterday_is_the_text_of_standup_daily_date_yesterday() {
    let home = full_home();
    let cli = cli_stdout(&home, &["daily", "--date", "yesterday", "--no-llm"]);
    assert!(cli.contains("parser: accept trailing commas"), "{cli}");
    let cli_ja_standup =
        cli_stdout(&home, &["standup", "--format", "json", "--lang", "ja", "--no-llm"]);
    let cli_range = cli_stdout(
        &home,
        &[
            "daily",
            "--since",
            "2026-11-26",
            "--until",
            "2026-11-27",
            "--format",
            "text",
            "--no-llm",
        ],
    );
    block_on(async {
        let (client, child) = connect(&home, &[]).await;
        let tools: Vec<String> = client
            .list_all_tools()
            .await
            .unwrap()
            .into_iter()
            .map(|tool| {
                let annotations = tool.annotations.clone().unwrap();
                assert_eq!(annotations.read_only_hint, Some(true), "{tool:?}");
                tool.name.into_owned()
            })
            .collect();
        assert_eq!(tools, ["report", "sessions", "doctor"]);

        let report = call(&client, "report", json!({ "date": "yesterday" })).await;
        assert_eq!(text(&report), cli);
        let explicit = call(
            &client,
            "report",
            json!({ "kind": "daily", "date": "2026-11-27", "format": "md" }),
        )
        .await;
        assert_eq!(text(&explicit), cli);
        let standup =
            call(&client, "report", json!({ "kind": "standup", "format": "json", "lang": "ja" }))
                .await;
        assert_eq!(text(&standup), cli_ja_standup);
        let range = call(
            &client,
            "report",
            json!({ "since": "2026-11-26", "until": "2026-11-27", "format": "text" }),
        )
        .await;
        assert_eq!(text(&range), cli_range);
        finish(client, child).await;
    });
}

#[test]
fn sessions_are_the_reports_sessions_filtered_by_agent_and_project() {
    let home = full_home();
    let report: Value = serde_json::from_str(&cli_stdout(
        &home,
        &["daily", "--date", "yesterday", "--format", "json", "--no-llm"],
    ))
    .unwrap();
    let expected: Vec<Value> = report["buckets"][0]["projects"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|project| project["sessions"].as_array().unwrap().clone())
        .collect();
    assert!(expected.len() >= 3, "{expected:?}");
    block_on(async {
        let (client, child) = connect(&home, &[]).await;
        let all: Value = serde_json::from_str(text(
            &call(&client, "sessions", json!({ "date": "yesterday" })).await,
        ))
        .unwrap();
        assert_eq!(all["date"], "2026-11-27");
        let rows = all["sessions"].as_array().unwrap();
        // Each row is the report's session, with its day and project added.
        let stripped: Vec<Value> = rows
            .iter()
            .map(|row| {
                let mut row = row.clone();
                let object = row.as_object_mut().unwrap();
                assert_eq!(object.remove("day").unwrap(), "2026-11-27");
                object.remove("project").unwrap();
                object.remove("path").unwrap();
                row
            })
            .collect();
        assert_eq!(stripped, expected);

        let codex: Value = serde_json::from_str(text(
            &call(&client, "sessions", json!({ "date": "2026-11-27", "agent": "codex" })).await,
        ))
        .unwrap();
        let codex = codex["sessions"].as_array().unwrap();
        assert_eq!(codex.len(), 1, "{codex:?}");
        assert_eq!(codex[0]["project"], "site");
        assert_eq!(codex[0]["title"], "Investigate the flaky CI job");

        let app: Value = serde_json::from_str(text(
            &call(&client, "sessions", json!({ "date": "yesterday", "project": "app" })).await,
        ))
        .unwrap();
        let app = app["sessions"].as_array().unwrap();
        assert!(!app.is_empty() && app.iter().all(|row| row["project"] == "app"), "{app:?}");
        assert!(app.iter().any(|row| row["title"] == "Trailing commas in the parser"), "{app:?}");
        finish(client, child).await;
    });
}

#[test]
fn doctor_is_the_text_of_standup_doctor() {
    let home = full_home();
    let cli = cli_stdout(&home, &["doctor"]);
    assert!(cli.contains("git: found"), "{cli}");
    block_on(async {
        let (client, child) = connect(&home, &[]).await;
        assert_eq!(text(&call(&client, "doctor", json!({})).await), cli);
        finish(client, child).await;
    });
}

#[test]
fn mcp_config_is_the_config_of_every_call() {
    let home = full_home();
    let config = home.write("elsewhere/standup.toml", "lang = \"ja\"\n");
    let config = config.to_str().unwrap();
    let cli = cli_stdout(&home, &["daily", "--date", "yesterday", "--no-llm", "--config", config]);
    block_on(async {
        let (client, child) = connect(&home, &["--config", config]).await;
        let report = call(&client, "report", json!({ "date": "yesterday" })).await;
        assert_eq!(text(&report), cli);
        finish(client, child).await;
    });
}

#[test]
fn bad_arguments_are_tool_errors_and_the_server_goes_on() {
    let home = full_home();
    let broken = home.write("broken.toml", "[render]\nno_such_key = 1\n");
    block_on(async {
        let (client, child) = connect(&home, &[]).await;
        let message =
            tool_error(&call(&client, "report", json!({ "format": "xml" })).await).to_owned();
        assert!(message.contains("'xml'") && message.contains("--format"), "{message}");
        assert!(!message.contains("--help"), "{message}");
        let message =
            tool_error(&call(&client, "report", json!({ "date": "tomorrowish" })).await).to_owned();
        assert!(message.contains("--date `tomorrowish`"), "{message}");
        // A value that looks like a flag stays a value: nothing is written anywhere.
        let message =
            tool_error(&call(&client, "report", json!({ "date": "--output=x.md" })).await)
                .to_owned();
        assert!(message.contains("is not `today`"), "{message}");
        assert!(!home.path().join("x.md").exists());
        // Read-only: there is no argument to write a file or a note.
        let message =
            tool_error(&call(&client, "report", json!({ "output": "x.md" })).await).to_owned();
        assert!(message.contains("unknown field `output`"), "{message}");
        let message =
            tool_error(&call(&client, "report", json!({ "kind": "month" })).await).to_owned();
        assert!(message.contains("unknown variant `month`"), "{message}");
        let message = tool_error(
            &call(&client, "report", json!({ "kind": "week", "since": "2026-11-20" })).await,
        )
        .to_owned();
        assert!(
            message.contains("--since and --until are options of `standup daily`"),
            "{message}"
        );
        let message =
            tool_error(&call(&client, "sessions", json!({ "agent": "nobody" })).await).to_owned();
        assert!(message.contains("agent `nobody` is not one of claude, codex"), "{message}");
        let message =
            tool_error(&call(&client, "doctor", json!({ "verbose": true })).await).to_owned();
        assert!(message.contains("unknown field `verbose`"), "{message}");
        // An unknown tool is a protocol error, not a crash.
        assert!(client.call_tool(CallToolRequestParams::new("nope")).await.is_err());
        // And the server still answers.
        let report = call(&client, "report", json!({ "date": "yesterday", "compact": true })).await;
        assert!(text(&report).contains("parser: accept trailing commas"));
        finish(client, child).await;
    });
    // A config error names the file and the key, as on the command line.
    block_on(async {
        let (client, child) = connect(&home, &["--config", broken.to_str().unwrap()]).await;
        let message = tool_error(&call(&client, "report", json!({})).await).to_owned();
        assert!(message.contains("broken.toml") && message.contains("no_such_key"), "{message}");
        finish(client, child).await;
    });
}

/// Speaks JSON-RPC to the binary by hand, with a time zone it warns about: stdout holds
/// protocol lines only (the warning goes to stderr), and the server exits 0 when stdin
/// closes.
#[test]
fn stdout_is_protocol_only_and_eof_ends_the_server() {
    let home = full_home();
    let mut child = home
        .command(home.path(), NOW, "Nowhere/Nothing", &["mcp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "report", "arguments": {"date": "yesterday"}}}),
    ];
    for message in &messages {
        writeln!(stdin, "{message}").unwrap();
    }
    let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines() {
            if sender.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    loop {
        let Ok(line) = receiver.recv_timeout(Duration::from_secs(120)) else {
            let _ = child.kill();
            panic!("no answer from `standup mcp` after {lines:?}");
        };
        let line: Value = serde_json::from_str(&line).expect("a JSON-RPC line");
        assert_eq!(line["jsonrpc"], "2.0", "{line}");
        let done = line["id"] == 2;
        lines.push(line);
        if done {
            break;
        }
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    // Whatever came after the answer is protocol too (and there should be nothing).
    let rest: Vec<String> = receiver.iter().collect();
    assert!(rest.is_empty(), "{rest:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("time_zone_unusable"), "{stderr}");
    let report = &lines.last().unwrap()["result"];
    assert_eq!(report["isError"], false, "{report}");
    assert!(report["content"][0]["text"].as_str().unwrap().contains("lexer: track spans"));
}
