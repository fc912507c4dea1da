//! The loopback stand-in model server the agents talk to while they are recorded.
//!
//! One `std::net` listener on `127.0.0.1` (a random port), one thread per connection
//! (at most [`MAX_CONNECTIONS`] at once; more are closed at once), HTTP/1.1 with
//! keep-alive, bodies by `Content-Length` or chunked. It speaks:
//!
//! - Anthropic Messages: `POST …/messages` (SSE `message_start`, `content_block_start`,
//!   `content_block_delta`, `content_block_stop`, `message_delta`, `message_stop` when
//!   `stream` is true, else one `message` object), `…/messages/count_tokens`;
//! - OpenAI Chat Completions: `POST …/chat/completions` (`chat.completion.chunk` `data:`
//!   lines then `data: [DONE]`, or one `chat.completion`);
//! - OpenAI Responses: `POST …/responses` (`response.created`,
//!   `response.output_item.added`, `response.output_text.delta`,
//!   `response.output_item.done`, `response.completed`, or one `response` object);
//! - Gemini: `POST …/models/<m>:generateContent`, `:streamGenerateContent?alt=sse`,
//!   `:countTokens`;
//! - model lists (`GET …/models`, in the OpenAI, Anthropic and Gemini shapes at once).
//!
//! A request that asks for structured output (`response_format`/`text.format` with a
//! JSON schema, Gemini `responseSchema`/`responseJsonSchema`, or a tool it forces through
//! `tool_choice`) gets the schema filled: every string is the current session's title
//! ([`Shared::title`]), so a title the agent keeps can be told from its answers. Under
//! [`Script::Tools`] a request that offers the agent's to-do or shell tool gets a call of
//! it (the to-do list first, then a command that fails, then text: the step is the number
//! of tool results the request sends back). Every other request gets [`ANSWER`] and no
//! tool call. Every reply names [`MODEL`] where the
//! format carries a model. Each request is one line of the request log.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::Context as _;
use serde_json::{Value, json};

/// The model name the stand-in announces.
pub(crate) const MODEL: &str = "standin-model";
/// The answer to every request that is not a structured-output one.
pub(crate) const ANSWER: &str =
    "This is a small sample repository with a README and a shell script.";
/// Connections served at once; more are closed at once.
const MAX_CONNECTIONS: usize = 32;
/// Largest request body read (agents send whole conversations with tool schemas).
const MAX_BODY: usize = 32 << 20;

/// What the stand-in does with a session's main requests (those carrying tools).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Script {
    /// Answers [`ANSWER`], no tool call.
    #[default]
    Plain,
    /// Calls the agent's own to-do tool ([`TODO_TOOLS`]) with [`TODOS`], then its shell
    /// tool ([`SHELL_TOOLS`]) with [`FAILING_COMMAND`], one call per request (the step is
    /// the number of tool results the request carries back), then answers [`ANSWER`].
    /// A step whose tool the agent does not offer is skipped.
    Tools,
}

/// The to-do tools, by the name each agent gives it: Claude Code `TodoWrite`, Codex
/// `update_plan`, Gemini CLI `write_todos`, opencode `todowrite`, Qwen Code
/// `todo_write`, Continue `Checklist` (one Markdown string of `- [ ]` lines), Goose
/// `todo__todo_write` (its `todo` extension's `todo_write`, one Markdown string), Kimi
/// Code `TodoList` (items of `title` and `status`, `done` for completed), Mistral Vibe
/// `todo` (`action: "write"` and items of `id`, `content`, `status`, in pydantic's schema),
/// OpenHands `task_tracker` (`command: "plan"` and items of `title`, `status`: `todo`,
/// `in_progress`, `done`).
pub(crate) const TODO_TOOLS: &[&str] = &[
    "TodoWrite",
    "update_plan",
    "write_todos",
    "todowrite",
    "todo_write",
    "Checklist",
    "todo__todo_write",
    "TodoList",
    "todo",
    "task_tracker",
];
/// The shell tools: Claude Code `Bash`, Codex `exec_command` (`shell` in older
/// versions), Gemini CLI and Qwen Code `run_shell_command`, opencode, pi and Copilot
/// `bash`, Cline `run_commands` (a list of command lines), Goose `shell` (its
/// `developer` extension's), OpenHands `terminal`, Factory Droid `Execute`, OpenClaw `exec`,
/// Command Code `shell_command`.
pub(crate) const SHELL_TOOLS: &[&str] = &[
    "Bash",
    "exec_command",
    "shell",
    "run_shell_command",
    "bash",
    "run_commands",
    "terminal",
    "Execute",
    "exec",
    "shell_command",
];
/// The to-do list the stand-in writes: one item done, two pending.
pub(crate) const TODOS: [(&str, &str); 3] = [
    ("Read the README", "completed"),
    ("Add a test for hello.sh", "pending"),
    ("Wire check.sh into CI", "pending"),
];
/// The command the stand-in runs through the shell tool: the scratch repository's
/// `check.sh`, which fails with exit status 3.
pub(crate) const FAILING_COMMAND: &str = "sh check.sh";

/// What the server and the recorder share.
#[derive(Default)]
pub(crate) struct Shared {
    /// The current session's script.
    script: Mutex<Script>,
    /// The tools the script called since the last [`Server::take_calls`].
    called: Mutex<Vec<String>>,
    /// The title strings of the session being recorded (what structured requests get).
    title: Mutex<String>,
    /// The titles handed out since the last [`Server::take_titles`].
    served_titles: Mutex<Vec<String>>,
    /// The request log.
    log: Mutex<Option<fs_err::File>>,
    /// Where each request body is saved (`NNNN.json`), for reading what an agent sent.
    bodies: std::path::PathBuf,
    stop: AtomicBool,
    connections: AtomicUsize,
    counter: AtomicUsize,
}

/// A running stand-in; stops (and joins its listener) when dropped.
pub(crate) struct Server {
    /// `http://127.0.0.1:<port>`.
    pub(crate) base: String,
    port: u16,
    shared: Arc<Shared>,
    listener: Option<JoinHandle<()>>,
}

impl Server {
    /// Starts the server, appending its request log to `log`.
    pub(crate) fn start(log: &Path) -> anyhow::Result<Server> {
        let listener = TcpListener::bind(("127.0.0.1", 0)).context("binding the stand-in")?;
        let port = listener.local_addr()?.port();
        let file = fs_err::File::options().create(true).append(true).open(log)?;
        let bodies = log.with_extension("bodies");
        if bodies.exists() {
            fs_err::remove_dir_all(&bodies)?;
        }
        fs_err::create_dir_all(&bodies)?;
        let shared = Arc::new(Shared { log: Mutex::new(Some(file)), bodies, ..Shared::default() });
        let accept_shared = Arc::clone(&shared);
        let handle = std::thread::spawn(move || accept_loop(&listener, &accept_shared));
        Ok(Server {
            base: format!("http://127.0.0.1:{port}"),
            port,
            shared,
            listener: Some(handle),
        })
    }

    /// Sets the title structured requests get from now on.
    pub(crate) fn set_title(&self, title: &str) {
        title.clone_into(&mut lock(&self.shared.title));
    }

    /// Sets the script of the requests from now on.
    pub(crate) fn set_script(&self, script: Script) {
        *lock(&self.shared.script) = script;
    }

    /// The tools the script called since the last call, each once.
    pub(crate) fn take_calls(&self) -> Vec<String> {
        let mut called = std::mem::take(&mut *lock(&self.shared.called));
        called.dedup();
        called
    }

    /// The titles handed out since the last call.
    pub(crate) fn take_titles(&self) -> Vec<String> {
        std::mem::take(&mut *lock(&self.shared.served_titles))
    }

    /// Writes a line to the request log (the recorder's notes between runs).
    pub(crate) fn note(&self, line: &str) {
        log_line(&self.shared, line);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(handle) = self.listener.take() {
            let _ = handle.join();
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn log_line(shared: &Shared, line: &str) {
    if let Some(file) = lock(&shared.log).as_mut() {
        let now = jiff::Timestamp::now();
        let _ = writeln!(file, "{now:.3} {line}");
    }
}

fn accept_loop(listener: &TcpListener, shared: &Arc<Shared>) {
    for stream in listener.incoming() {
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = stream else { continue };
        if shared.connections.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            shared.connections.fetch_sub(1, Ordering::SeqCst);
            log_line(shared, "too many connections: one closed");
            let _ = stream.shutdown(Shutdown::Both);
            continue;
        }
        let shared = Arc::clone(shared);
        std::thread::spawn(move || {
            let _ = serve_connection(stream, &shared);
            shared.connections.fetch_sub(1, Ordering::SeqCst);
        });
    }
}

/// One parsed request.
struct Request {
    method: String,
    target: String,
    body: Vec<u8>,
}

fn serve_connection(stream: TcpStream, shared: &Shared) -> anyhow::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    loop {
        if shared.stop.load(Ordering::SeqCst) {
            return Ok(());
        }
        let Some(request) = read_request(&mut reader)? else { return Ok(()) };
        let (status, content_type, body, note) = respond(&request, shared);
        log_line(
            shared,
            &format!(
                "{} {} -> {status} {note} ({} bytes in, #{})",
                request.method,
                request.target,
                request.body.len(),
                shared.counter.load(Ordering::SeqCst)
            ),
        );
        let head = format!(
            "HTTP/1.1 {status}\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\ncache-control: no-cache\r\nconnection: keep-alive\r\nx-request-id: req-standin\r\n\r\n",
            body.len()
        );
        writer.write_all(head.as_bytes())?;
        writer.write_all(&body)?;
        writer.flush()?;
    }
}

fn read_request(reader: &mut BufReader<TcpStream>) -> anyhow::Result<Option<Request>> {
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_owned();
    let target = parts.next().unwrap_or_default().to_owned();
    let mut length = 0usize;
    let mut chunked = false;
    let mut encoding = String::new();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 {
            return Ok(None);
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            let value = value.trim();
            match name.trim().to_ascii_lowercase().as_str() {
                "content-length" => length = value.parse().unwrap_or(0),
                "transfer-encoding" => chunked = value.to_ascii_lowercase().contains("chunked"),
                "content-encoding" => value.clone_into(&mut encoding),
                _ => {}
            }
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size)?;
            let size = usize::from_str_radix(size.trim().split(';').next().unwrap_or("0"), 16)
                .context("bad chunk size")?;
            if size == 0 {
                // Trailers, then the empty line.
                loop {
                    let mut trailer = String::new();
                    if reader.read_line(&mut trailer)? == 0 || trailer.trim().is_empty() {
                        break;
                    }
                }
                break;
            }
            anyhow::ensure!(body.len() + size <= MAX_BODY, "request body too large");
            let start = body.len();
            body.resize(start + size, 0);
            reader.read_exact(&mut body[start..])?;
            let mut crlf = [0u8; 2];
            reader.read_exact(&mut crlf)?;
        }
    } else {
        anyhow::ensure!(length <= MAX_BODY, "request body too large");
        body.resize(length, 0);
        reader.read_exact(&mut body)?;
    }
    if !encoding.is_empty() && encoding != "identity" {
        // Not decoded: the request is logged as such and answered from what is readable.
        body = format!("{{\"standin_undecoded_encoding\":\"{encoding}\"}}").into_bytes();
    }
    Ok(Some(Request { method, target, body }))
}

type Reply = (&'static str, &'static str, Vec<u8>, String);

fn json_reply(value: &Value, note: String) -> Reply {
    ("200 OK", "application/json", value.to_string().into_bytes(), note)
}

fn sse_reply(events: &[(Option<&str>, Value)], done: bool, note: String) -> Reply {
    let mut body = String::new();
    for (name, data) in events {
        if let Some(name) = name {
            body.push_str("event: ");
            body.push_str(name);
            body.push('\n');
        }
        body.push_str("data: ");
        body.push_str(&data.to_string());
        body.push_str("\n\n");
    }
    if done {
        body.push_str("data: [DONE]\n\n");
    }
    ("200 OK", "text/event-stream", body.into_bytes(), note)
}

fn respond(request: &Request, shared: &Shared) -> Reply {
    let path = request.target.split('?').next().unwrap_or_default();
    let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
    let n = shared.counter.fetch_add(1, Ordering::SeqCst) + 1;
    let _ = fs_err::write(shared.bodies.join(format!("{n:04}.json")), &request.body);
    let title = lock(&shared.title).clone();
    let titling = asks_for_title(&body);
    let answer = |structured: Option<&Value>, what: &str| -> (String, String) {
        match structured {
            Some(schema) => {
                lock(&shared.served_titles).push(title.clone());
                (fill(schema, &title, 0).to_string(), format!("{what}: filled a schema"))
            }
            None if titling => {
                lock(&shared.served_titles).push(title.clone());
                (title.clone(), format!("{what}: a title (no tools, asks for a title or summary)"))
            }
            None => (ANSWER.to_owned(), format!("{what}: plain answer")),
        }
    };
    if request.method == "HEAD" {
        // A reachability probe (Claude Code sends `HEAD /`).
        return ("200 OK", "text/plain", Vec::new(), "reachability probe".to_owned());
    }
    if request.method == "GET" {
        if path.ends_with("/models") || path.ends_with("/models/") {
            return json_reply(&model_list(), "model list".to_owned());
        }
        if let Some(rest) = path.rsplit_once("/models/").map(|(_, rest)| rest) {
            return json_reply(&model_entry(rest), "one model".to_owned());
        }
        return not_found();
    }
    if request.method != "POST" {
        return not_found();
    }
    let scripted = scripted_reply(shared, &body, titling);
    if path.ends_with("/messages/count_tokens") {
        return json_reply(&json!({"input_tokens": 100}), "count tokens".to_owned());
    }
    if path.ends_with("/messages") {
        let (structured, tool) = anthropic_structured(&body);
        if let (None, Some((name, args))) = (&structured, &scripted) {
            let note = format!("anthropic: scripted call of {name}");
            return anthropic(&body, &args.to_string(), Some(name), n, note);
        }
        let (text, note) = answer(structured.as_ref(), "anthropic");
        return anthropic(&body, &text, tool.as_deref(), n, note);
    }
    if path.ends_with("/chat/completions") {
        let (structured, tool) = chat_structured(&body);
        if let (None, Some((name, args))) = (&structured, &scripted) {
            let note = format!("chat: scripted call of {name}");
            return chat(&body, &args.to_string(), Some(name), n, note);
        }
        let (text, note) = answer(structured.as_ref(), "chat");
        return chat(&body, &text, tool.as_deref(), n, note);
    }
    if path.ends_with("/responses") {
        let (structured, tool) = responses_structured(&body);
        if let (None, Some((name, args))) = (&structured, &scripted) {
            let note = format!("responses: scripted call of {name}");
            return responses(&body, &args.to_string(), Some(name), n, note);
        }
        let (text, note) = answer(structured.as_ref(), "responses");
        return responses(&body, &text, tool.as_deref(), n, note);
    }
    if let Some((_, action)) = path.rsplit_once(':') {
        if action == "countTokens" {
            return json_reply(&json!({"totalTokens": 100}), "gemini count tokens".to_owned());
        }
        if action == "generateContent" || action == "streamGenerateContent" {
            let config = body.get("generationConfig").or_else(|| body.get("generation_config"));
            let schema = config.and_then(|config| {
                ["responseJsonSchema", "responseSchema", "response_json_schema", "response_schema"]
                    .iter()
                    .find_map(|key| config.get(*key))
                    .cloned()
            });
            let (chunk, note) = if let (None, Some((name, args))) = (&schema, &scripted) {
                (gemini_call(name, args, n), format!("gemini: scripted call of {name}"))
            } else {
                let (text, note) = answer(schema.as_ref(), "gemini");
                (gemini_chunk(&text, n), note)
            };
            return if action == "streamGenerateContent" {
                sse_reply(&[(None, chunk)], false, note)
            } else {
                json_reply(&chunk, note)
            };
        }
    }
    not_found()
}

/// Whether a request without tools asks for a title or a summary (opencode's title
/// generator, Gemini CLI's session summary): it gets the session's title as its answer.
/// The agents' main requests always carry their tools.
fn asks_for_title(body: &Value) -> bool {
    let has_tools =
        body.get("tools").and_then(Value::as_array).is_some_and(|tools| !tools.is_empty());
    if has_tools {
        return false;
    }
    let text = body.to_string().to_ascii_lowercase();
    text.contains("title") || text.contains("summar")
}

/// The scripted tool call for this request under [`Script::Tools`] (noted as called), or
/// `None`: another script, a title request, or no step left.
fn scripted_reply(shared: &Shared, body: &Value, titling: bool) -> Option<(String, Value)> {
    if *lock(&shared.script) != Script::Tools || titling {
        return None;
    }
    let call = scripted_call(body)?;
    lock(&shared.called).push(call.0.clone());
    Some(call)
}

/// The tools a request offers, each with its parameter schema, whatever the format:
/// Anthropic `tools[].name`/`input_schema`, Chat Completions
/// `tools[].function.name`/`parameters`, Responses `tools[].name`/`parameters`, Gemini
/// `tools[].functionDeclarations[].name`/`parameters(JsonSchema)`.
fn offered_tools(body: &Value) -> Vec<(String, Value)> {
    let mut offered = Vec::new();
    let mut add = |tool: &Value| {
        let name =
            tool.get("name").or_else(|| tool.pointer("/function/name")).and_then(Value::as_str);
        let schema = ["input_schema", "parameters", "parametersJsonSchema"]
            .iter()
            .find_map(|key| tool.get(*key))
            .or_else(|| tool.pointer("/function/parameters"));
        if let Some(name) = name {
            offered.push((name.to_owned(), schema.cloned().unwrap_or(Value::Null)));
        }
    };
    for tool in body.get("tools").and_then(Value::as_array).into_iter().flatten() {
        match tool.get("functionDeclarations").and_then(Value::as_array) {
            Some(declarations) => declarations.iter().for_each(&mut add),
            None => add(tool),
        }
    }
    offered
}

/// How many tool results a request carries back: Anthropic `tool_result` blocks, Chat
/// Completions `tool` messages, Responses `function_call_output` items, Gemini
/// `functionResponse` parts.
fn tool_results(body: &Value) -> usize {
    let mut count = 0;
    for message in body.get("messages").and_then(Value::as_array).into_iter().flatten() {
        if message.get("role").and_then(Value::as_str) == Some("tool") {
            count += 1;
        }
        for block in message.get("content").and_then(Value::as_array).into_iter().flatten() {
            if block.get("type").and_then(Value::as_str) == Some("tool_result") {
                count += 1;
            }
        }
    }
    for item in body.get("input").and_then(Value::as_array).into_iter().flatten() {
        let kind = item.get("type").and_then(Value::as_str).unwrap_or_default();
        if kind == "function_call_output" || kind == "custom_tool_call_output" {
            count += 1;
        }
    }
    for content in body.get("contents").and_then(Value::as_array).into_iter().flatten() {
        for part in content.get("parts").and_then(Value::as_array).into_iter().flatten() {
            if part.get("functionResponse").is_some() {
                count += 1;
            }
        }
    }
    count
}

/// The tool call [`Script::Tools`] makes in answer to this request, if any: the
/// to-do tool then the shell tool among those offered, the step being the number of tool
/// results already sent back.
fn scripted_call(body: &Value) -> Option<(String, Value)> {
    let offered = offered_tools(body);
    let find = |names: &[&str]| {
        names.iter().find_map(|name| offered.iter().find(|(offered, _)| offered == name))
    };
    let mut steps = Vec::new();
    // A to-do tool takes the list as an argument: gptme's `todo` has none in the
    // tool-call format and is not called.
    let todo = TODO_TOOLS.iter().find_map(|name| {
        offered.iter().find(|(offered, schema)| {
            offered == name && properties(schema).is_some_and(|props| !props.is_empty())
        })
    });
    if let Some((name, schema)) = todo {
        steps.push((name.clone(), todo_arguments(name, schema)));
    }
    if let Some((name, schema)) = find(SHELL_TOOLS) {
        steps.push((name.clone(), shell_arguments(schema)));
    }
    steps.into_iter().nth(tool_results(body))
}

/// The properties of an object schema.
fn properties(schema: &Value) -> Option<&serde_json::Map<String, Value>> {
    schema.get("properties").and_then(Value::as_object)
}

/// The arguments of a to-do tool: its array property (`todos`, Codex's `plan`) holds
/// [`TODOS`], each item's text under whichever of `content`, `description`, `step`
/// the schema has, and its other required strings filled (`activeForm`, `priority`,
/// `id`).
fn todo_arguments(name: &str, schema: &Value) -> Value {
    // Continue's `Checklist`: the list as one Markdown string of task-list lines.
    let typed = |kind: &str| {
        properties(schema).and_then(|props| {
            props.iter().find(|(_, prop)| {
                resolved(schema, prop).get("type").and_then(Value::as_str) == Some(kind)
            })
        })
    };
    if let (None, Some((key, _))) = (typed("array"), typed("string")) {
        let lines: Vec<String> = TODOS
            .iter()
            .map(|(text, status)| {
                format!("- [{}] {text}", if *status == "completed" { 'x' } else { ' ' })
            })
            .collect();
        return json!({ key: lines.join("\n") });
    }
    let list_key = properties(schema)
        .and_then(|props| {
            props.iter().find(|(_, prop)| {
                resolved(schema, prop).get("type").and_then(Value::as_str) == Some("array")
            })
        })
        .map_or_else(
            || if name == "update_plan" { "plan" } else { "todos" }.to_owned(),
            |(key, _)| key.clone(),
        );
    let item_schema = properties(schema)
        .and_then(|props| props.get(&list_key))
        .and_then(|list| resolved(schema, list).get("items"))
        .map(|items| resolved(schema, items).clone());
    let item_props = item_schema.as_ref().and_then(properties);
    let text_key = ["content", "description", "step", "title", "text"]
        .iter()
        .find(|key| item_props.is_some_and(|props| props.contains_key(**key)))
        .copied()
        .unwrap_or(if name == "update_plan" { "step" } else { "content" });
    let required: Vec<&str> = item_schema
        .as_ref()
        .and_then(|schema| schema.get("required"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    // The statuses the schema allows: Kimi Code's are `pending`, `in_progress`, `done`.
    let allowed: Vec<&str> = item_props
        .and_then(|props| props.get("status"))
        .and_then(|status| resolved(schema, status).get("enum"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let items: Vec<Value> = TODOS
        .iter()
        .enumerate()
        .map(|(index, (text, status))| {
            let mut item = serde_json::Map::new();
            item.insert(text_key.to_owned(), json!(text));
            item.insert("status".to_owned(), json!(allowed_status(status, &allowed)));
            for key in &required {
                if item.contains_key(*key) {
                    continue;
                }
                let value = match *key {
                    "activeForm" => json!(format!("Working on: {text}")),
                    "priority" => json!("medium"),
                    "id" => json!((index + 1).to_string()),
                    other => item_props
                        .and_then(|props| props.get(other))
                        .map_or(Value::Null, |prop| fill(prop, text, 0)),
                };
                item.insert((*key).to_owned(), value);
            }
            Value::Object(item)
        })
        .collect();
    let mut args = serde_json::Map::new();
    // A required mode beside the list (Mistral Vibe's `action`: `read` or `write`;
    // OpenHands' `command`: `view` or `plan`).
    for (key, prop) in properties(schema).into_iter().flatten() {
        let values = resolved(schema, prop).get("enum").and_then(Value::as_array);
        let writes = ["write", "plan"]
            .into_iter()
            .find(|mode| values.is_some_and(|values| values.contains(&json!(mode))));
        if let Some(mode) = writes {
            args.insert(key.clone(), json!(mode));
        }
    }
    args.insert(list_key, Value::Array(items));
    fill_required(schema, &mut args);
    Value::Object(args)
}

/// A to-do status in the words the schema allows (`allowed`, none: any): Kimi Code's
/// `done` for `completed`, OpenHands' `todo` for `pending`.
fn allowed_status<'s>(status: &'s str, allowed: &[&'s str]) -> &'s str {
    if allowed.is_empty() || allowed.contains(&status) {
        return status;
    }
    let words: &[&str] = match status {
        "completed" => &["done", "complete"],
        "pending" => &["todo"],
        _ => &[],
    };
    words.iter().copied().find(|word| allowed.contains(word)).unwrap_or(status)
}

/// Fills the required properties `args` lacks ([`fill`]): OpenHands' tools all require a
/// `security_risk`.
fn fill_required(schema: &Value, args: &mut serde_json::Map<String, Value>) {
    let required = schema.get("required").and_then(Value::as_array).into_iter().flatten();
    for key in required.filter_map(Value::as_str) {
        if args.contains_key(key) {
            continue;
        }
        if let Some(prop) = properties(schema).and_then(|props| props.get(key)) {
            args.insert(key.to_owned(), fill(resolved(schema, prop), key, 0));
        }
    }
}

/// A property's schema with a local `$ref` (`#/$defs/<name>`, pydantic's) followed and an
/// `anyOf` of a type and `null` (an optional field) narrowed to the type.
fn resolved<'s>(root: &'s Value, prop: &'s Value) -> &'s Value {
    let mut prop = prop;
    for _ in 0..4 {
        if let Some(target) = prop.get("$ref").and_then(Value::as_str) {
            match target.strip_prefix('#').and_then(|pointer| root.pointer(pointer)) {
                Some(found) => prop = found,
                None => return prop,
            }
        } else if let Some(options) = prop.get("anyOf").and_then(Value::as_array) {
            match options.iter().find(|option| option.get("type") != Some(&json!("null"))) {
                Some(option) => prop = option,
                None => return prop,
            }
        } else {
            return prop;
        }
    }
    prop
}

/// The arguments of a shell tool: [`FAILING_COMMAND`] under `command` (Codex's `cmd`),
/// a `description` or `summary` when the schema has one, and its other required
/// properties filled.
fn shell_arguments(schema: &Value) -> Value {
    let props = properties(schema);
    let has = |key: &str| props.is_some_and(|props| props.contains_key(key));
    let mut args = serde_json::Map::new();
    if has("commands") && !has("command") {
        // Cline's `run_commands`: command lines, each run by the shell.
        return json!({"commands": [FAILING_COMMAND]});
    }
    let key = if has("cmd") && !has("command") { "cmd" } else { "command" };
    let command_is_array = props
        .and_then(|props| props.get(key))
        .and_then(|prop| prop.get("type"))
        .and_then(Value::as_str)
        == Some("array");
    if command_is_array {
        args.insert(key.to_owned(), json!(["sh", "-c", FAILING_COMMAND]));
    } else {
        args.insert(key.to_owned(), json!(FAILING_COMMAND));
    }
    // Droid's `summary` must be a sentence-cased line of three to eight words.
    for key in ["description", "summary"] {
        if has(key) {
            args.insert(key.to_owned(), json!("Run the check script"));
        }
    }
    fill_required(schema, &mut args);
    Value::Object(args)
}

fn not_found() -> Reply {
    (
        "404 Not Found",
        "application/json",
        json!({"error": {"type": "not_found_error", "message": "the stand-in does not serve this", "code": 404}})
            .to_string()
            .into_bytes(),
        "not served".to_owned(),
    )
}

fn model_entry(name: &str) -> Value {
    let name = name.trim_start_matches("models/");
    json!({
        "id": name, "object": "model", "created": 1_700_000_000, "owned_by": "standin",
        "type": "model", "display_name": name, "created_at": "2025-01-01T00:00:00Z",
        "name": format!("models/{name}"), "displayName": name,
        "inputTokenLimit": 200_000, "outputTokenLimit": 8192,
        "supportedGenerationMethods": ["generateContent", "countTokens"],
    })
}

fn model_list() -> Value {
    let entry = model_entry(MODEL);
    json!({
        "object": "list", "data": [entry.clone()], "has_more": false,
        "first_id": MODEL, "last_id": MODEL, "models": [entry],
    })
}

/// A value that satisfies `schema` as far as the stand-in needs: strings are `title`
/// (an enum's first value), numbers 1, booleans false, arrays one item when they must
/// have one, objects every property.
fn fill(schema: &Value, title: &str, depth: usize) -> Value {
    if depth > 12 {
        return Value::Null;
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values.first().cloned().unwrap_or(Value::Null);
    }
    if let Some(value) = schema.get("const") {
        return value.clone();
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(first) = schema.get(key).and_then(Value::as_array).and_then(|all| all.first()) {
            return fill(first, title, depth + 1);
        }
    }
    let kind = match schema.get("type") {
        Some(Value::String(kind)) => kind.to_ascii_lowercase(),
        Some(Value::Array(kinds)) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|kind| *kind != "null")
            .unwrap_or("string")
            .to_ascii_lowercase(),
        _ if schema.get("properties").is_some() => "object".to_owned(),
        _ => "string".to_owned(),
    };
    match kind.as_str() {
        "object" => {
            let mut object = serde_json::Map::new();
            if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
                for (name, property) in properties {
                    object.insert(name.clone(), fill(property, title, depth + 1));
                }
            }
            Value::Object(object)
        }
        "array" => {
            let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
            match schema.get("items") {
                Some(items) if min > 0 => Value::Array(vec![fill(items, title, depth + 1)]),
                _ => Value::Array(Vec::new()),
            }
        }
        "integer" | "number" => json!(1),
        "boolean" => json!(false),
        "null" => Value::Null,
        _ => Value::String(title.to_owned()),
    }
}

/// The forced tool of an Anthropic request (its input schema and name), if any.
fn anthropic_structured(body: &Value) -> (Option<Value>, Option<String>) {
    let choice = body.get("tool_choice");
    if choice.and_then(|c| c.get("type")).and_then(Value::as_str) == Some("tool") {
        let name = choice.and_then(|c| c.get("name")).and_then(Value::as_str).unwrap_or_default();
        let tool = body.get("tools").and_then(Value::as_array).and_then(|tools| {
            tools.iter().find(|tool| tool.get("name").and_then(Value::as_str) == Some(name))
        });
        if let Some(schema) = tool.and_then(|tool| tool.get("input_schema")) {
            return (Some(schema.clone()), Some(name.to_owned()));
        }
    }
    if let Some(schema) = body
        .pointer("/output_format/schema")
        .or_else(|| body.pointer("/output_config/format/schema"))
    {
        return (Some(schema.clone()), None);
    }
    (None, None)
}

fn anthropic(body: &Value, text: &str, tool: Option<&str>, n: usize, note: String) -> Reply {
    let id = format!("msg_standin_{n:04}");
    let usage = json!({"input_tokens": 100, "output_tokens": 20, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0});
    let (block, stop) = match tool {
        Some(name) => (
            json!({"type": "tool_use", "id": format!("toolu_standin_{n:04}"), "name": name, "input": serde_json::from_str::<Value>(text).unwrap_or(Value::Null)}),
            "tool_use",
        ),
        None => (json!({"type": "text", "text": text}), "end_turn"),
    };
    if body.get("stream").and_then(Value::as_bool) != Some(true) {
        let message = json!({
            "id": id, "type": "message", "role": "assistant", "model": MODEL,
            "content": [block], "stop_reason": stop, "stop_sequence": null, "usage": usage,
        });
        return json_reply(&message, note);
    }
    let (start_block, delta) = match tool {
        Some(name) => (
            json!({"type": "tool_use", "id": format!("toolu_standin_{n:04}"), "name": name, "input": {}}),
            json!({"type": "input_json_delta", "partial_json": text}),
        ),
        None => (json!({"type": "text", "text": ""}), json!({"type": "text_delta", "text": text})),
    };
    let events = [
        (
            Some("message_start"),
            json!({"type": "message_start", "message": {
                "id": id, "type": "message", "role": "assistant", "model": MODEL, "content": [],
                "stop_reason": null, "stop_sequence": null,
                "usage": {"input_tokens": 100, "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
            }}),
        ),
        (
            Some("content_block_start"),
            json!({"type": "content_block_start", "index": 0, "content_block": start_block}),
        ),
        (
            Some("content_block_delta"),
            json!({"type": "content_block_delta", "index": 0, "delta": delta}),
        ),
        (Some("content_block_stop"), json!({"type": "content_block_stop", "index": 0})),
        (
            Some("message_delta"),
            json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null}, "usage": {"output_tokens": 20}}),
        ),
        (Some("message_stop"), json!({"type": "message_stop"})),
    ];
    sse_reply(&events, false, note)
}

/// The schema a Chat Completions request asks to be filled: `response_format`'s JSON
/// schema, or the parameters of the function `tool_choice` forces (with its name).
fn chat_structured(body: &Value) -> (Option<Value>, Option<String>) {
    if let Some(schema) = body.pointer("/response_format/json_schema/schema") {
        return (Some(schema.clone()), None);
    }
    if let Some(name) = body.pointer("/tool_choice/function/name").and_then(Value::as_str) {
        let tool = body.get("tools").and_then(Value::as_array).and_then(|tools| {
            tools
                .iter()
                .find(|tool| tool.pointer("/function/name").and_then(Value::as_str) == Some(name))
        });
        if let Some(schema) = tool.and_then(|tool| tool.pointer("/function/parameters")) {
            return (Some(schema.clone()), Some(name.to_owned()));
        }
    }
    // `tool_choice: "required"` with one tool.
    if body.get("tool_choice").and_then(Value::as_str) == Some("required") {
        if let Some([tool]) = body.get("tools").and_then(Value::as_array).map(Vec::as_slice) {
            if let (Some(name), Some(schema)) = (
                tool.pointer("/function/name").and_then(Value::as_str),
                tool.pointer("/function/parameters"),
            ) {
                return (Some(schema.clone()), Some(name.to_owned()));
            }
        }
    }
    (None, None)
}

fn chat(body: &Value, text: &str, tool: Option<&str>, n: usize, note: String) -> Reply {
    let id = format!("chatcmpl-standin-{n:04}");
    let created = jiff::Timestamp::now().as_second();
    let usage = json!({"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120});
    let call = tool.map(|name| {
        json!({"id": format!("call_standin_{n:04}"), "type": "function", "function": {"name": name, "arguments": text}})
    });
    let finish = if tool.is_some() { "tool_calls" } else { "stop" };
    if body.get("stream").and_then(Value::as_bool) != Some(true) {
        let message = match &call {
            Some(call) => json!({"role": "assistant", "content": null, "tool_calls": [call]}),
            None => json!({"role": "assistant", "content": text}),
        };
        let completion = json!({
            "id": id, "object": "chat.completion", "created": created, "model": MODEL,
            "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": null}],
            "usage": usage,
        });
        return json_reply(&completion, note);
    }
    let chunk = |delta: Value, finish: Option<&str>| {
        json!({
            "id": id, "object": "chat.completion.chunk", "created": created, "model": MODEL,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": null}],
        })
    };
    let mut events = vec![(None, chunk(json!({"role": "assistant", "content": ""}), None))];
    match &call {
        Some(call) => {
            let mut call = call.clone();
            call["index"] = json!(0);
            events.push((None, chunk(json!({"tool_calls": [call]}), None)));
        }
        None => events.push((None, chunk(json!({"content": text}), None))),
    }
    events.push((None, chunk(json!({}), Some(finish))));
    events.push((
        None,
        json!({"id": id, "object": "chat.completion.chunk", "created": created, "model": MODEL, "choices": [], "usage": usage}),
    ));
    sse_reply(&events, true, note)
}

/// The schema a Responses request asks to be filled: `text.format`'s JSON schema, or the
/// parameters of the function `tool_choice` forces.
fn responses_structured(body: &Value) -> (Option<Value>, Option<String>) {
    if body.pointer("/text/format/type").and_then(Value::as_str) == Some("json_schema") {
        if let Some(schema) = body.pointer("/text/format/schema") {
            return (Some(schema.clone()), None);
        }
    }
    if let Some(name) = body.pointer("/tool_choice/name").and_then(Value::as_str) {
        let tool = body.get("tools").and_then(Value::as_array).and_then(|tools| {
            tools.iter().find(|tool| tool.get("name").and_then(Value::as_str) == Some(name))
        });
        if let Some(schema) = tool.and_then(|tool| tool.get("parameters")) {
            return (Some(schema.clone()), Some(name.to_owned()));
        }
    }
    (None, None)
}

fn responses(body: &Value, text: &str, tool: Option<&str>, n: usize, note: String) -> Reply {
    let response_id = format!("resp_standin_{n:04}");
    let item_id = format!("msg_standin_{n:04}");
    let created = jiff::Timestamp::now().as_second();
    let usage = json!({
        "input_tokens": 100, "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 20, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 120,
    });
    let item = match tool {
        Some(name) => json!({
            "id": format!("fc_standin_{n:04}"), "type": "function_call", "status": "completed",
            "call_id": format!("call_standin_{n:04}"), "name": name, "arguments": text,
        }),
        None => json!({
            "id": item_id, "type": "message", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }),
    };
    let response = |status: &str, output: Value| {
        json!({
            "id": response_id, "object": "response", "created_at": created, "status": status,
            "model": MODEL, "output": output, "usage": usage, "error": null, "incomplete_details": null,
        })
    };
    if body.get("stream").and_then(Value::as_bool) != Some(true) {
        return json_reply(&response("completed", json!([item])), note);
    }
    let mut added = item.clone();
    added["status"] = json!("in_progress");
    if tool.is_none() {
        added["content"] = json!([]);
    }
    let mut events = vec![
        (
            Some("response.created"),
            json!({"type": "response.created", "sequence_number": 0, "response": response("in_progress", json!([]))}),
        ),
        (
            Some("response.in_progress"),
            json!({"type": "response.in_progress", "sequence_number": 1, "response": response("in_progress", json!([]))}),
        ),
        (
            Some("response.output_item.added"),
            json!({"type": "response.output_item.added", "sequence_number": 2, "output_index": 0, "item": added}),
        ),
    ];
    if tool.is_none() {
        events.push((
            Some("response.content_part.added"),
            json!({"type": "response.content_part.added", "sequence_number": 3, "item_id": item_id, "output_index": 0, "content_index": 0, "part": {"type": "output_text", "text": "", "annotations": []}}),
        ));
        events.push((
            Some("response.output_text.delta"),
            json!({"type": "response.output_text.delta", "sequence_number": 4, "item_id": item_id, "output_index": 0, "content_index": 0, "delta": text}),
        ));
        events.push((
            Some("response.output_text.done"),
            json!({"type": "response.output_text.done", "sequence_number": 5, "item_id": item_id, "output_index": 0, "content_index": 0, "text": text}),
        ));
        events.push((
            Some("response.content_part.done"),
            json!({"type": "response.content_part.done", "sequence_number": 6, "item_id": item_id, "output_index": 0, "content_index": 0, "part": {"type": "output_text", "text": text, "annotations": []}}),
        ));
    }
    events.push((Some("response.output_item.done"), json!({"type": "response.output_item.done", "sequence_number": 7, "output_index": 0, "item": item})));
    events.push((Some("response.completed"), json!({"type": "response.completed", "sequence_number": 8, "response": response("completed", json!([item]))})));
    sse_reply(&events, false, note)
}

fn gemini_call(name: &str, args: &Value, n: usize) -> Value {
    json!({
        "candidates": [{"content": {"parts": [{"functionCall": {"name": name, "args": args}}], "role": "model"}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 100, "candidatesTokenCount": 20, "totalTokenCount": 120},
        "modelVersion": MODEL,
        "responseId": format!("standin-{n:04}"),
    })
}

fn gemini_chunk(text: &str, n: usize) -> Value {
    json!({
        "candidates": [{"content": {"parts": [{"text": text}], "role": "model"}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 100, "candidatesTokenCount": 20, "totalTokenCount": 120},
        "modelVersion": MODEL,
        "responseId": format!("standin-{n:04}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_a_title_schema() {
        let schema = json!({"type": "object", "properties": {"title": {"type": "string"}, "next_speaker": {"type": "string", "enum": ["user", "model"]}, "n": {"type": "integer"}}, "required": ["title"]});
        assert_eq!(fill(&schema, "T", 0), json!({"title": "T", "next_speaker": "user", "n": 1}));
    }

    /// OpenHands 1.2.1's tools, as its requests offer them (descriptions left out).
    fn openhands_tools() -> (Value, Value) {
        let risk = json!({"type": "string", "enum": ["UNKNOWN", "LOW", "MEDIUM", "HIGH"]});
        let tracker = json!({"type": "object", "properties": {
            "command": {"type": "string", "enum": ["view", "plan"]},
            "task_list": {"type": "array", "items": {"type": "object", "properties": {
                "title": {"type": "string"}, "notes": {"type": "string"},
                "status": {"type": "string", "enum": ["todo", "in_progress", "done"]}},
                "required": ["title"]}},
            "security_risk": risk},
            "required": ["command", "security_risk"]});
        let terminal = json!({"type": "object", "properties": {
            "command": {"type": "string"}, "is_input": {"type": "boolean"},
            "timeout": {"type": "number"}, "security_risk": risk},
            "required": ["command", "security_risk"]});
        (tracker, terminal)
    }

    #[test]
    fn openhands_tools_get_their_mode_statuses_and_required_risk() {
        let (tracker, terminal) = openhands_tools();
        assert_eq!(
            todo_arguments("task_tracker", &tracker),
            json!({"command": "plan", "security_risk": "UNKNOWN", "task_list": [
                {"title": "Read the README", "status": "done"},
                {"title": "Add a test for hello.sh", "status": "todo"},
                {"title": "Wire check.sh into CI", "status": "todo"},
            ]})
        );
        assert_eq!(
            shell_arguments(&terminal),
            json!({"command": FAILING_COMMAND, "security_risk": "UNKNOWN"})
        );
    }

    #[test]
    fn statuses_are_kept_unless_the_schema_has_other_words() {
        assert_eq!(allowed_status("pending", &[]), "pending");
        assert_eq!(allowed_status("completed", &["pending", "completed"]), "completed");
        assert_eq!(allowed_status("completed", &["pending", "in_progress", "done"]), "done");
        assert_eq!(allowed_status("pending", &["todo", "done"]), "todo");
        assert_eq!(allowed_status("pending", &["open", "closed"]), "pending");
    }

    #[test]
    fn droid_s_execute_gets_a_summary_of_its_pattern_and_its_risk_level() {
        // Droid 0.225.2's `Execute`, its descriptions left out.
        let schema = json!({
            "type": "object",
            "properties": {
                "summary": {"type": "string", "pattern": "^[A-Z]\\S*(?:\\s+\\S+){2,7}$"},
                "command": {"type": "string"},
                "timeout": {"type": "number"},
                "riskLevelReason": {"type": "string"},
                "riskLevel": {"type": "string", "enum": ["low", "medium", "high"]},
                "fireAndForget": {"type": "boolean"},
            },
            "required": ["summary", "command", "riskLevelReason", "riskLevel"],
        });
        let args = shell_arguments(&schema);
        assert_eq!(args["command"], FAILING_COMMAND);
        assert_eq!(args["riskLevel"], "low");
        assert!(args["riskLevelReason"].is_string());
        assert!(args.get("timeout").is_none(), "{args}");
        let summary = args["summary"].as_str().unwrap();
        let words = summary.split_whitespace().count();
        assert!(summary.starts_with(char::is_uppercase) && (3..=8).contains(&words), "{summary}");
    }
}
