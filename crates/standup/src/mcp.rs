//! `standup mcp`: the Model Context Protocol over stdio (the official Rust SDK, `rmcp`),
//! so a coding agent can ask for the report. Three read-only tools: `report`, `sessions`
//! and `doctor`. Each call builds the command line the CLI would get (always with
//! `--no-llm`), parses it with the CLI's own clap definition and runs the same pipeline,
//! so the text is byte for byte what `standup daily …` prints. Nothing is written: no
//! `-o`, no `--copy`, no daily note. Output is capped at [`OUTPUT_CAP`] bytes, with a note
//! saying so. Every failure (a bad argument, a config error) is a tool error carrying the
//! CLI's message; stdout carries the protocol only (warnings go to stderr, as always).

use std::ffi::OsString;
use std::future::Future;
use std::sync::{Arc, Mutex};

use clap::Parser as _;
use report_model::{Agent, ReportKind};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ContentBlock, ErrorData, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerInfo, Tool, ToolAnnotations,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ServerHandler, ServiceExt as _};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::Failure;
use crate::cli::{Cli, Command, McpArgs};
use crate::pipeline::{self, ProcessEnv, Rendered};

/// The most a tool returns, in bytes (256 KiB): a week of a busy machine fits; more would
/// only fill the asking agent's context.
pub(crate) const OUTPUT_CAP: usize = 256 * 1024;

/// Serves MCP on stdin/stdout until the client closes stdin.
pub(crate) fn serve(env: ProcessEnv, args: &McpArgs) -> Result<(), Failure> {
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_time().build().map_err(|error| {
            Failure::Runtime(anyhow::Error::new(error).context("starting the MCP server"))
        })?;
    let server = Server(Arc::new(Tools {
        env,
        config: args.config.as_ref().map(OsString::from),
        one_at_a_time: Mutex::new(()),
    }));
    let outcome = runtime.block_on(async move {
        let running = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|error| anyhow::anyhow!("MCP initialization: {error}"))?;
        running.waiting().await.map_err(|error| anyhow::anyhow!("MCP server: {error}"))?;
        anyhow::Ok(())
    });
    // A call still running when the client went away is not waited for.
    runtime.shutdown_background();
    outcome.map_err(Failure::Runtime)
}

/// The MCP handler: the tools, shared with the blocking threads that run them.
#[derive(Clone)]
struct Server(Arc<Tools>);

/// What every tool call needs: the environment read at start-up and `--config`.
struct Tools {
    env: ProcessEnv,
    config: Option<OsString>,
    /// One report at a time: each already spreads its reading over every core.
    one_at_a_time: Mutex<()>,
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("standup", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "standup reports what the user did on this machine (git commits, AI coding-agent \
                 sessions, shell history), redacted and sanitized, exactly as the `standup` CLI \
                 prints it. Read-only; no local LLM is asked (--no-llm).",
            )
    }

    fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<ListToolsResult, ErrorData>> + Send + '_ {
        std::future::ready(Ok(ListToolsResult::with_all_items(tools())))
    }

    fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CallToolResult, ErrorData>> + Send + '_ {
        let tools = Arc::clone(&self.0);
        async move {
            let name = request.name.to_string();
            if !TOOL_NAMES.contains(&name.as_str()) {
                return Err(ErrorData::invalid_params(
                    format!("no tool `{}` (tools: {})", clean::quote(&name), TOOL_NAMES.join(", ")),
                    None,
                ));
            }
            let arguments = request.arguments.unwrap_or_default();
            let outcome = tokio::task::spawn_blocking(move || tools.call(&name, arguments)).await;
            Ok(match outcome {
                Ok(Ok(text)) => CallToolResult::success(vec![ContentBlock::text(cap(text))]),
                Ok(Err(message)) => CallToolResult::error(vec![ContentBlock::text(message)]),
                Err(_) => CallToolResult::error(vec![ContentBlock::text(
                    "internal error: the tool stopped unexpectedly",
                )]),
            })
        }
    }
}

const TOOL_NAMES: [&str; 3] = ["report", "sessions", "doctor"];

/// The tools as `tools/list` describes them.
fn tools() -> Vec<Tool> {
    let read_only = ToolAnnotations::new()
        .read_only(true)
        .destructive(false)
        .idempotent(true)
        .open_world(false);
    let date = json!({
        "type": "string",
        "description": "The day: `today`, `yesterday` or `YYYY-MM-DD` (default: today).",
    });
    let report = json!({
        "type": "object",
        "properties": {
            "kind": {
                "type": "string", "enum": ["daily", "standup", "week"],
                "description": "daily: one day; standup: the previous working day and today; week: the week holding `date` (default: daily).",
            },
            "date": date,
            "since": { "type": "string", "description": "daily only: the first day of a range (`today`, `yesterday` or `YYYY-MM-DD`); not with `date`." },
            "until": { "type": "string", "description": "daily only: the last day of the range (default: today); needs `since`." },
            "format": {
                "type": "string", "enum": ["md", "json", "text", "slack", "html"],
                "description": "Output format (default: md, Markdown).",
            },
            "lang": { "type": "string", "enum": ["en", "ja"], "description": "Language (default: the config's `lang`, else LANG)." },
            "compact": { "type": "boolean", "description": "The body only: no Window line, totals, warnings or footer." },
        },
        "additionalProperties": false,
    });
    let sessions = json!({
        "type": "object",
        "properties": {
            "date": date,
            "agent": {
                "type": "string",
                "enum": Agent::ALL.iter().map(|agent| agent.config_name()).collect::<Vec<_>>(),
                "description": "Only this agent's sessions.",
            },
            "project": { "type": "string", "description": "Only sessions in this project (its name, or its path)." },
        },
        "additionalProperties": false,
    });
    let doctor = json!({ "type": "object", "properties": {}, "additionalProperties": false });
    let tool = |name: &'static str, title: &str, description: &'static str, schema: Value| {
        let Value::Object(schema) = schema else { unreachable!("the schemas are objects") };
        Tool::new(name, description, Arc::new(schema))
            .with_title(title)
            .with_annotations(read_only.clone())
    };
    vec![
        tool(
            "report",
            "Daily report or standup",
            "The report `standup daily|standup|week` prints for a day, a range or a week: git commits, AI coding-agent sessions and shell commands per project, redacted. Same text as the CLI with --no-llm.",
            report,
        ),
        tool(
            "sessions",
            "AI coding-agent sessions of a day",
            "The AI coding-agent sessions of one day as JSON (the sessions of `standup daily --format json`), optionally only one agent's or one project's.",
            sessions,
        ),
        tool(
            "doctor",
            "Which sources standup finds",
            "What `standup doctor` prints: the config, time zone, identity, and each source (git, agents, shells) found or not, where, and what limits it.",
            doctor,
        ),
    ]
}

/// The `report` tool's arguments.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReportParams {
    kind: Option<Kind>,
    date: Option<String>,
    since: Option<String>,
    until: Option<String>,
    format: Option<String>,
    lang: Option<String>,
    #[serde(default)]
    compact: bool,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Daily,
    Standup,
    Week,
}

/// The `sessions` tool's arguments.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SessionsParams {
    date: Option<String>,
    agent: Option<String>,
    project: Option<String>,
}

/// The `doctor` tool takes none.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct DoctorParams {}

/// One row of the `sessions` tool: the report's session with its day and project.
#[derive(Serialize)]
struct SessionRow<'a> {
    day: jiff::civil::Date,
    project: &'a str,
    path: &'a std::path::Path,
    #[serde(flatten)]
    session: &'a report_model::Session,
}

impl Tools {
    /// Runs one tool: its text, or the message of a tool error.
    fn call(&self, name: &str, arguments: Map<String, Value>) -> Result<String, String> {
        // A poisoned lock only means an earlier call panicked; the data is `()`.
        let _one = self.one_at_a_time.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match name {
            "report" => self.report(&params(arguments)?),
            "sessions" => self.sessions(&params(arguments)?),
            _ => {
                let DoctorParams {} = params(arguments)?;
                self.doctor()
            }
        }
    }

    fn report(&self, params: &ReportParams) -> Result<String, String> {
        let kind = match params.kind.unwrap_or(Kind::Daily) {
            Kind::Daily => "daily",
            Kind::Standup => "standup",
            Kind::Week => "week",
        };
        let mut words = vec![kind.to_owned()];
        for (flag, value) in [
            ("date", &params.date),
            ("since", &params.since),
            ("until", &params.until),
            ("format", &params.format),
            ("lang", &params.lang),
        ] {
            if let Some(value) = value {
                // `--flag=value`: a value that starts with `-` stays a value.
                words.push(format!("--{flag}={value}"));
            }
        }
        if params.compact {
            words.push("--compact".to_owned());
        }
        self.rendered(words).map(|(text, _)| text)
    }

    fn sessions(&self, params: &SessionsParams) -> Result<String, String> {
        let agent = params
            .agent
            .as_deref()
            .map(|name| {
                name.parse::<Agent>().map_err(|_| {
                    let names: Vec<&str> =
                        Agent::ALL.iter().map(|agent| agent.config_name()).collect();
                    format!("agent `{}` is not one of {}", clean::quote(name), names.join(", "))
                })
            })
            .transpose()?;
        let mut words = vec!["daily".to_owned(), "--format=json".to_owned()];
        if let Some(date) = &params.date {
            words.push(format!("--date={date}"));
        }
        let (_, report) = self.rendered(words)?;
        let date = report.buckets.first().map(|bucket| bucket.window.date);
        let wanted_project = |project: &report_model::Project| {
            params.project.as_deref().is_none_or(|wanted| {
                project.name.eq_ignore_ascii_case(wanted)
                    || project.path == std::path::Path::new(wanted)
            })
        };
        let rows: Vec<SessionRow<'_>> = report
            .buckets
            .iter()
            .flat_map(|bucket| {
                bucket.projects.iter().filter(|project| wanted_project(project)).flat_map(
                    move |project| {
                        project
                            .sessions
                            .iter()
                            .filter(move |session| agent.is_none_or(|agent| session.agent == agent))
                            .map(move |session| SessionRow {
                                day: bucket.window.date,
                                project: &project.name,
                                path: &project.path,
                                session,
                            })
                    },
                )
            })
            .collect();
        let body = json!({ "date": date, "sessions": rows });
        let mut text = serde_json::to_string_pretty(&body)
            .map_err(|error| format!("writing the sessions as JSON: {error}"))?;
        text.push('\n');
        Ok(text)
    }

    fn doctor(&self) -> Result<String, String> {
        let cli = self.parse(vec!["doctor".to_owned()])?;
        let Some(Command::Doctor(args)) = cli.command else {
            return Err("internal error: `doctor` did not parse as `standup doctor`".to_owned());
        };
        crate::doctor::text(&self.env, &args).map_err(|failure| failure_message(&failure))
    }

    /// Runs `standup <words> --no-llm` up to its text, as the CLI would print it.
    fn rendered(
        &self,
        mut words: Vec<String>,
    ) -> Result<(String, Box<report_model::Report>), String> {
        words.push("--no-llm".to_owned());
        let cli = self.parse(words)?;
        let (kind, args) = match cli.command {
            Some(Command::Daily(args)) => (ReportKind::Daily, args),
            Some(Command::Standup(args)) => (ReportKind::Standup, args),
            Some(Command::Week(args)) => (ReportKind::Week, args),
            _ => return Err("internal error: not a report command".to_owned()),
        };
        match pipeline::render_report(&self.env, kind, &args) {
            Ok(Rendered::Report { text, report, .. }) => Ok((text, report)),
            Ok(Rendered::Prompt(_)) => Err("internal error: a prompt, not a report".to_owned()),
            Err(failure) => Err(failure_message(&failure)),
        }
    }

    /// Parses `standup <words> [--config=…]` with the CLI's own definition.
    fn parse(&self, words: Vec<String>) -> Result<Cli, String> {
        let mut full: Vec<OsString> = vec!["standup".into()];
        full.extend(words.into_iter().map(OsString::from));
        if let Some(config) = &self.config {
            let mut flag = OsString::from("--config=");
            flag.push(config);
            full.push(flag);
        }
        Cli::try_parse_from(full).map_err(|error| {
            let text = error.render().to_string();
            // The CLI's hint names `--help`, which a tool caller has no use for.
            let text = text.split("\n\nFor more information").next().unwrap_or_default();
            clean::message(text.trim_start_matches("error: ").trim_end())
        })
    }
}

/// A tool's arguments, or the message saying which one is wrong.
fn params<T: for<'de> Deserialize<'de>>(arguments: Map<String, Value>) -> Result<T, String> {
    serde_json::from_value(Value::Object(arguments))
        .map_err(|error| clean::message(&format!("bad arguments: {error}")))
}

/// The message of a failed run, cleaned as `main` cleans an error line.
fn failure_message(failure: &Failure) -> String {
    let (Failure::Usage(error) | Failure::Runtime(error)) = failure;
    clean::message(&format!("{error:#}"))
}

/// `text`, cut to [`OUTPUT_CAP`] bytes at a line end, with a note when cut.
fn cap(text: String) -> String {
    if text.len() <= OUTPUT_CAP {
        return text;
    }
    let mut end = OUTPUT_CAP;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let end = text[..end].rfind('\n').map_or(end, |newline| newline + 1);
    format!(
        "{}\n[standup: output cut at {end} of {} bytes (the MCP limit is {} KiB); ask for fewer days, `compact: true`, or a filter]\n",
        &text[..end],
        text.len(),
        OUTPUT_CAP / 1024
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_output_is_returned_whole() {
        assert_eq!(cap("a\nb\n".to_owned()), "a\nb\n");
        let exact = "x".repeat(OUTPUT_CAP);
        assert_eq!(cap(exact.clone()), exact);
    }

    #[test]
    fn long_output_is_cut_at_a_line_end_with_a_note() {
        let line = "é".repeat(99) + "\n";
        let text = line.repeat(OUTPUT_CAP / line.len() + 10);
        let cut = cap(text.clone());
        let (body, note) = cut.rsplit_once("\n[standup: output cut at ").unwrap();
        assert!(body.len() <= OUTPUT_CAP, "{}", body.len());
        assert!(body.ends_with('\n') && text.starts_with(body));
        assert!(note.contains(&format!("of {} bytes", text.len())), "{note}");
    }

    #[test]
    fn a_long_line_is_cut_on_a_character_boundary() {
        let text = "日".repeat(OUTPUT_CAP);
        let cut = cap(text);
        assert!(cut.contains("[standup: output cut at "));
    }

    #[test]
    fn unknown_arguments_are_refused_by_name() {
        let mut arguments = Map::new();
        arguments.insert("output".to_owned(), json!("/tmp/x"));
        let error = params::<ReportParams>(arguments).unwrap_err();
        assert!(error.contains("unknown field `output`"), "{error}");
    }
}
