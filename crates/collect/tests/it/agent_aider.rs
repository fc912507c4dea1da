//! Tests of the aider reader (see crates/collect/src/sessions/aider.rs).
//!
//! The histories are written as Aider 0.86 writes them: `.aider.input.history` is
//! prompt_toolkit's `FileHistory` (`\n# <local time>\n+<line>\n…`), and
//! `.aider.chat.history.md` opens each run with `# aider chat started at <local time>`
//! and quotes the announcements.

use std::path::{Path, PathBuf};

use collect::SourceOutput;
use collect::sessions::{SessionsConfig, read_aider};
use jiff::Timestamp;
use report_model::{Agent, SessionEvent, WarningCode};

use crate::support::{Home, en, session, set_mtime, status, times, ts};

const SINCE: &str = "2026-03-02T00:00:00Z";

/// One run at 19:00 Tokyo time (10:00Z) and one at 21:00 (12:00Z).
const INPUT: &str = "
# 2026-03-02 19:00:05.123456
+fix the   login redirect

# 2026-03-02 19:00:41.000200
+y

# 2026-03-02 19:01:10.500000
+/run cargo test

# 2026-03-02 19:01:30.000001
+Don't

# 2026-03-02 19:02:00.123456
+/add src/lib.rs

# 2026-03-02 19:02:30
+!git status

# 2026-03-02 19:03:00.000001
+/ask why is
+the cache cold?

# 2026-03-02 21:00:09.000001
+add a test for the redirect
";

const CHAT: &str = "
# aider chat started at 2026-03-02 19:00:00

> /home/dev/.local/bin/aider --model sonnet  
> Aider v0.86.1  
> Main model: anthropic/claude-sonnet-4-20250514 with diff edit format, infinite output  
> Weak model: anthropic/claude-3-5-haiku-20241022  
> Git repo: .git with 42 files  
> Repo-map: using 4096 tokens, auto refresh  

#### fix the   login redirect  

I'll change `login.rs`.

> Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y  

# aider chat started at 2026-03-02 21:00:00

> Aider v0.86.2  
> Model: gpt-4o with diff edit format  

#### add a test for the redirect  
";

/// Writes a file of the work tree `repo` (under the home), modified in the window.
fn write(home: &Home, repo: &str, name: &str, content: &str) -> PathBuf {
    let path = home.write(&format!("{repo}/{name}"), content);
    set_mtime(&path, ts("2026-03-02T13:00:00Z"));
    path
}

fn read(home: &Home, repos: &[&str], since: Timestamp) -> SourceOutput<SessionEvent> {
    let trees: Vec<PathBuf> = repos.iter().map(|repo| home.path().join(repo)).collect();
    let config = SessionsConfig { agents: vec![Agent::Aider], ..SessionsConfig::default() };
    read_aider(&home.env(), &config, &trees, since)
}

fn tokyo() -> Home {
    Home::new().var("TZ", "Asia/Tokyo")
}

fn id(label: &str, tree: &Path) -> String {
    format!("aider:{label}:{}", tree.display())
}

#[test]
fn aider_prompts_are_typed_text_not_answers_commands_or_runs() {
    let home = tokyo();
    write(&home, "app", ".aider.input.history", INPUT);
    write(&home, "app", ".aider.chat.history.md", CHAT);
    let output = read(&home, &["app"], ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let tree = home.path().join("app");
    let first = session(&output, Agent::Aider, &id("2026-03-02T19:00:00", &tree));
    // The prompt and `/ask` with text; not `y`, `Don't`, `/run`, `/add` or `!git`.
    assert_eq!(
        first.prompts,
        times(&["2026-03-02T10:00:05.123456Z", "2026-03-02T10:03:00.000001Z"])
    );
    assert_eq!(
        first.activity,
        times(&[
            "2026-03-02T10:00:05.123456Z",
            "2026-03-02T10:00:41.0002Z",
            "2026-03-02T10:01:10.5Z",
            "2026-03-02T10:01:30.000001Z",
            "2026-03-02T10:02:00.123456Z",
            "2026-03-02T10:02:30Z",
            "2026-03-02T10:03:00.000001Z",
        ])
    );
    assert_eq!(first.title, "fix the login redirect");
    assert_eq!(first.cwd.as_deref(), Some(tree.as_path()));
}

#[test]
fn aider_runs_split_sessions_and_name_models_and_versions() {
    let home = tokyo();
    write(&home, "app", ".aider.input.history", INPUT);
    write(&home, "app", ".aider.chat.history.md", CHAT);
    let output = read(&home, &["app"], ts(SINCE));
    let tree = home.path().join("app");
    assert_eq!(output.events.len(), 2);
    let first = session(&output, Agent::Aider, &id("2026-03-02T19:00:00", &tree));
    assert_eq!(first.models, ["anthropic/claude-sonnet-4-20250514"]);
    let second = session(&output, Agent::Aider, &id("2026-03-02T21:00:00", &tree));
    assert_eq!(second.prompts, times(&["2026-03-02T12:00:09.000001Z"]));
    assert_eq!(second.title, "add a test for the redirect");
    assert_eq!(second.models, ["gpt-4o"]);
    let aider = status(&output, Agent::Aider);
    assert!(aider.found);
    assert_eq!((aider.files, aider.entries), (1, 2));
    assert_eq!(aider.versions, ["0.86.1", "0.86.2"]);
    assert_eq!(aider.locations, [tree.join(".aider.input.history")]);
}

#[test]
fn aider_without_chat_history_has_one_session_per_local_day() {
    let home = tokyo();
    let input = "
# 2026-03-02 23:50:00.000001
+first thing

# 2026-03-03 08:00:00.000001
+next morning
";
    write(&home, "app", ".aider.input.history", input);
    let output = read(&home, &["app"], ts(SINCE));
    let tree = home.path().join("app");
    // 08:00 in Tokyo on the 3rd is 23:00Z on the 2nd: the local day names the session.
    let late = session(&output, Agent::Aider, &id("2026-03-02", &tree));
    assert_eq!(late.prompts, times(&["2026-03-02T14:50:00.000001Z"]));
    let morning = session(&output, Agent::Aider, &id("2026-03-03", &tree));
    assert_eq!(morning.prompts, times(&["2026-03-02T23:00:00.000001Z"]));
    assert!(morning.models.is_empty());
}

#[test]
fn aider_times_are_read_in_tz() {
    let home = Home::new().var("TZ", "America/New_York");
    write(&home, "app", ".aider.input.history", "\n# 2026-03-02 09:00:00\n+hello\n");
    let output = read(&home, &["app"], ts(SINCE));
    assert_eq!(output.events.len(), 1);
    assert_eq!(output.events[0].prompts, times(&["2026-03-02T14:00:00Z"]));
}

#[test]
fn aider_brace_block_is_one_prompt() {
    let home = tokyo();
    let input = "
# 2026-03-02 19:00:00.1
+{py

# 2026-03-02 19:00:10.1
+/add is text here

# 2026-03-02 19:00:20.1
+y

# 2026-03-02 19:00:30.1
+py}

# 2026-03-02 19:01:00.1
+{

# 2026-03-02 19:01:10.1
+never closed
";
    write(&home, "app", ".aider.input.history", input);
    let output = read(&home, &["app"], ts(SINCE));
    let found = session(&output, Agent::Aider, &id("2026-03-02", &home.path().join("app")));
    assert_eq!(found.prompts, times(&["2026-03-02T10:00:30.1Z"]));
    assert_eq!(found.title, "/add is text here y");
    assert_eq!(found.activity.len(), 6);
}

#[test]
fn aider_old_histories_are_not_opened_and_only_window_prompts_count() {
    let home = tokyo();
    let old = write(&home, "old", ".aider.input.history", "garbage\n");
    set_mtime(&old, ts("2026-03-01T00:00:00Z"));
    write(&home, "app", ".aider.input.history", INPUT);
    write(&home, "app", ".aider.chat.history.md", CHAT);
    let output = read(&home, &["old", "app", "no-aider"], ts("2026-03-02T10:02:00Z"));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(status(&output, Agent::Aider).files, 2);
    let tree = home.path().join("app");
    let first = session(&output, Agent::Aider, &id("2026-03-02T19:00:00", &tree));
    assert_eq!(first.prompts, times(&["2026-03-02T10:03:00.000001Z"]));
    // The title is still the run's first prompt.
    assert_eq!(first.title, "fix the login redirect");
}

#[test]
fn aider_malformed_lines_and_unreadable_histories_are_warned() {
    let home = tokyo();
    let input = "
# 2026-03-02 19:00:05
+fine

# not a time
+lost

stray line
";
    let path = write(&home, "app", ".aider.input.history", input);
    let fifo_tree = home.path().join("fifo");
    fs_err::create_dir_all(&fifo_tree).expect("work tree");
    let fifo = fifo_tree.join(".aider.input.history");
    #[expect(clippy::disallowed_methods, reason = "the test makes a FIFO with coreutils")]
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let output = read(&home, &["app", "fifo"], ts(SINCE));
    assert_eq!(output.events.len(), 1);
    assert_eq!(output.events[0].prompts, times(&["2026-03-02T10:00:05Z"]));
    let malformed: Vec<_> =
        output.warnings.iter().filter(|w| w.code() == WarningCode::MalformedLines).collect();
    assert_eq!(malformed.len(), 1, "{:?}", output.warnings);
    assert!(en(malformed[0]).contains(&path.display().to_string()));
    assert!(en(malformed[0]).contains("2 malformed lines"), "{}", en(malformed[0]));
    assert!(
        output.warnings.iter().any(|w| en(w).contains(&fifo.display().to_string())),
        "{:?}",
        output.warnings
    );
    // The FIFO is named, never taken for a history of the work tree.
    let aider = status(&output, Agent::Aider);
    assert_eq!((aider.files, aider.locations.clone()), (1, vec![path]));
}

#[test]
fn aider_a_history_that_cannot_be_looked_at_is_named_and_a_missing_one_is_not() {
    let home = tokyo();
    let looped = home.path().join("looped");
    fs_err::create_dir_all(&looped).expect("work tree");
    fs_err::create_dir_all(home.path().join("plain")).expect("work tree");
    // A link to itself: `stat` fails with ELOOP, not "not found".
    let history = looped.join(".aider.input.history");
    fs_err::os::unix::fs::symlink(".aider.input.history", &history).expect("self link");
    let output = read(&home, &["looped", "plain"], ts(SINCE));
    assert!(output.events.is_empty(), "{:?}", output.events);
    assert_eq!(output.warnings.len(), 1, "{:?}", output.warnings);
    assert!(en(&output.warnings[0]).contains(&history.display().to_string()));
    assert!(!status(&output, Agent::Aider).found);
}

#[test]
fn aider_not_enabled_or_not_used_is_silent() {
    let home = tokyo();
    let output = read(&home, &["app"], ts(SINCE));
    assert!(output.events.is_empty() && output.warnings.is_empty());
    assert!(!status(&output, Agent::Aider).found);
    write(&home, "app", ".aider.input.history", INPUT);
    let config = SessionsConfig { agents: vec![Agent::Codex], ..SessionsConfig::default() };
    let off = read_aider(&home.env(), &config, &[home.path().join("app")], ts(SINCE));
    assert!(off.events.is_empty() && off.statuses.is_empty());
}

#[test]
fn aider_a_runs_models_are_each_named_once_in_the_order_announced() {
    let home = tokyo();
    write(&home, "app", ".aider.input.history", "\n# 2026-03-02 19:00:05\n+plan the cache\n");
    write(
        &home,
        "app",
        ".aider.chat.history.md",
        "
# aider chat started at 2026-03-02 19:00:00

> Aider v0.86.1  
> Main model: anthropic/claude-sonnet-4-20250514 with architect edit format  
> Editor model: anthropic/claude-3-5-haiku-20241022 with editor-diff edit format  
> Weak model: anthropic/claude-3-5-haiku-20241022  

#### plan the cache  

> Model: anthropic/claude-sonnet-4-20250514 with diff edit format  
",
    );
    let output = read(&home, &["app"], ts(SINCE));
    assert_eq!(output.events.len(), 1, "{:?}", output.events);
    assert_eq!(
        output.events[0].models,
        ["anthropic/claude-sonnet-4-20250514", "anthropic/claude-3-5-haiku-20241022"]
    );
}

#[test]
fn aider_a_multi_line_input_reads_as_its_lines_joined() {
    let home = tokyo();
    write(
        &home,
        "app",
        ".aider.input.history",
        "\n# 2026-03-02 19:00:05\n+add a cache\n+for the sessions\n+and test it\n",
    );
    let output = read(&home, &["app"], ts(SINCE));
    assert_eq!(output.events.len(), 1, "{:?}", output.events);
    assert_eq!(output.events[0].title, "add a cache for the sessions and test it");
}

#[test]
fn aider_s_own_double_write_of_a_message_is_one_prompt() {
    // As `aider --message …` 0.86.2 wrote it (the entry twice, 52 µs apart: once by
    // `add_to_input_history`, once through prompt_toolkit's history of the same file),
    // then the same words typed again two seconds later, which are a prompt of their own.
    let input = "
# 2026-03-02 19:00:45.972015
+Summarize this repository in one sentence

# 2026-03-02 19:00:45.972067
+Summarize this repository in one sentence

# 2026-03-02 19:00:47.000001
+Summarize this repository in one sentence
";
    let home = tokyo();
    write(&home, "app", ".aider.input.history", input);
    write(
        &home,
        "app",
        ".aider.chat.history.md",
        "\n# aider chat started at 2026-03-02 19:00:42\n\n> Aider v0.86.2  \n",
    );
    let output = read(&home, &["app"], ts(SINCE));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let tree = home.path().join("app");
    let run = session(&output, Agent::Aider, &id("2026-03-02T19:00:42", &tree));
    assert_eq!(run.prompts, times(&["2026-03-02T10:00:45.972015Z", "2026-03-02T10:00:47.000001Z"]));
}
