//! Amp (Sourcegraph's `amp` CLI): `<home>/threads/T-<uuid>.json`, where `<home>` is
//! `$XDG_DATA_HOME/amp`, else `~/.local/share/amp` (the config's `amp` folder wins).
//!
//! Verified in the `@sourcegraph/amp` bundle 0.0.1767830505-ga62310 (`dist/main.js`):
//!
//! - The folder is `XDG_DATA_HOME || ~/.local/share` joined with `amp`, then `threads`
//!   (`threads-development` for Amp's own development builds, not read). `AMP_HOME` is
//!   the install folder (`~/.amp`), not the data folder, and no other variable moves it.
//! - A thread is one pretty-printed JSON document, written whole to a temporary
//!   `….amptmp` file then renamed over the old one, so a file is never seen half
//!   written. Amp itself refuses to load a thread larger than 50 MiB; this reader parses
//!   at most [`THREAD_MAX`] (streamed, only the fields below kept) and warns beyond.
//! - Fields: `id`, `created` (epoch milliseconds), `title` (absent until Amp generates
//!   one), `mainThreadID` (set on a sub-agent's thread: a Task or REPL sub-thread),
//!   `messages[]`, `env.initial` (`trees[]` of `{displayName, uri, repository: {url,
//!   ref, sha}}`, the `uri` a `file://` URI of the folder Amp ran in, percent-encoded;
//!   `platform.clientVersion`, Amp's version; newer versions add `workingDirectory`),
//!   and `usageLedger.events[]` (`timestamp` RFC 3339, `model`, `operationType`).
//! - Messages: `role` `user`, `assistant` or `info`. Only the user messages the person
//!   sent carry `meta.sentAt` (epoch milliseconds): tool results (`content` of
//!   `tool_result` blocks), a hook's message (`source.type` `hook`) and Amp's own
//!   course correction (`source.type` `course-correction`) have none. Injected context
//!   (attached files, editor state) sits in `fileMentions`/`userState`, not in
//!   `content`. Newer versions mark messages sent by an automation with
//!   `meta.fromAutomation` (seen in the 0.0.1790142911 binary): not prompts either.
//!   Assistant messages carry no time; their `usage.model` names the model.
//! - A fork (`thread: fork`, in versions up to 0.0.1768018268; deprecated since
//!   0.0.1769314944) is a new thread, `created` now, whose messages up to
//!   `forkPointIndex` are deep copies of the other thread's (`meta.sentAt` kept), its
//!   own after (`createForkedThread`). Those, and any user message sent before its
//!   thread was created, are copies counted in the thread they came from: only a copied
//!   prompt's text is used (for the fork's title, when it has none). Read from the
//!   bundle, not recorded (Amp runs against its own servers only).
//! - A thread can end mid-turn (the last assistant message `streaming` or `cancelled`):
//!   it is read like any other.
//!
//! So: prompts are the user messages with `meta.sentAt` (and text); activity is those
//! times, `created`, and the ledger's event times; models are the ledger's `inference`
//! events in the window (else the assistant messages' `usage.model`); the title is
//! `title` when not blank, else the first prompt; the working directory is
//! `env.initial.workingDirectory`, else the first tree's `uri`; the branch is that
//! tree's `repository.ref` (`refs/heads/<branch>`); `platform.clientVersion` is the
//! version. A sub-thread's times are activity of its main thread, never prompts.
//!
//! Not read: threads of the VS Code extension's older `globalStorage/sourcegraph.amp/
//! threads3/` store (migrated to this folder by current versions). The newest Amp
//! binaries (0.0.1790142911) may keep threads on Amp's servers only: no local thread
//! store was found in that binary, so such users may have no files here.

use std::os::unix::ffi::OsStringExt as _;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use report_model::Agent;
use serde::Deserialize;

use super::jsonl::{self, Stats};
use super::lenient::{LBool, LMillis, LNum, OStr, Text};
use super::{Ctx, Draft, Drafts, SessionsConfig, add_draft, agent_home};
use crate::{Env, SourceStatus};

/// The largest thread file read (Amp itself stops loading threads at 50 MiB).
const THREAD_MAX: u64 = 64 << 20;

/// The fields of a thread the reader uses (owned: the document is parsed from a stream).
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Thread {
    id: OStr,
    created: LNum,
    title: OStr,
    #[serde(rename = "mainThreadID")]
    main_thread_id: OStr,
    /// On a fork (`thread: fork`, up to 0.0.1768018268), the index of the last message
    /// copied from the thread it was forked from.
    fork_point_index: LNum,
    messages: Vec<Message>,
    env: ThreadEnv,
    usage_ledger: Ledger,
}

/// One message of a thread.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Message {
    role: OStr,
    content: Text,
    meta: Meta,
    source: MessageSource,
    usage: Usage,
}

/// A user message's `meta`.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Meta {
    sent_at: LMillis,
    from_automation: LBool,
}

/// A user message's `source`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct MessageSource {
    #[serde(rename = "type")]
    kind: OStr,
}

/// An assistant message's `usage`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Usage {
    model: OStr,
}

/// The thread's `env`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct ThreadEnv {
    initial: Initial,
}

/// The thread's `env.initial`.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Initial {
    trees: Vec<Tree>,
    working_directory: OStr,
    platform: Platform,
}

/// A tree of `env.initial.trees`: a folder Amp ran in.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Tree {
    uri: OStr,
    repository: Repository,
}

/// A tree's git repository.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Repository {
    #[serde(rename = "ref")]
    reference: OStr,
}

/// `env.initial.platform`.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Platform {
    client_version: OStr,
}

/// `usageLedger`.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Ledger {
    events: Vec<LedgerEvent>,
}

/// One `usageLedger` event.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct LedgerEvent {
    timestamp: OStr,
    model: OStr,
    operation_type: OStr,
}

pub(crate) fn read(env: &Env, config: &SessionsConfig, ctx: &mut Ctx) -> (Drafts, SourceStatus) {
    let home: PathBuf =
        agent_home(env, config, report_model::Agent::Amp, || env.data_home().join("amp"));
    let threads = home.join("threads");
    let mut status =
        SourceStatus { locations: vec![home], ..SourceStatus::new(report_model::Source::Amp) };
    let mut drafts = Drafts::new();
    let mut listed = super::list_fresh(&threads, ctx.since).unwrap_or_else(|error| {
        ctx.fail(error);
        super::Fresh::default()
    });
    if let Some(error) = listed.broken.take() {
        ctx.fail(error);
    }
    status.found = listed.len() > 0 || threads.is_dir();
    let mut counts = Stats::default();
    for (name, kind, fresh) in listed.iter() {
        if !is_thread_name(name.as_encoded_bytes()) || super::is_folder(kind, || threads.join(name))
        {
            continue;
        }
        status.files += 1;
        if !fresh {
            continue;
        }
        let path = threads.join(name);
        if let Some(draft) = read_thread(ctx, &mut counts, &mut status, &path) {
            add_draft(&mut drafts, draft);
        }
    }
    status.entries = drafts.values().filter(|draft| !draft.activity.is_empty()).count() as u64;
    status.limits.extend(super::malformed_limit(&counts));
    (drafts, status)
}

/// Whether a file name is a thread's, `T-….json` (not a `….amptmp` being written).
fn is_thread_name(name: &[u8]) -> bool {
    name.starts_with(b"T-") && name.ends_with(b".json")
}

/// Reads one thread file; `None` (with a warning) when it cannot be read or parsed.
fn read_thread(
    ctx: &mut Ctx,
    counts: &mut Stats,
    status: &mut SourceStatus,
    path: &Path,
) -> Option<Draft> {
    // Streamed, but bounded: only the fields above are kept while parsing.
    let thread: Thread = jsonl::read_document(ctx, counts, path, THREAD_MAX)?;
    if let Some(version) = thread.env.initial.platform.client_version.0.get() {
        status.note_version(version);
    }
    let mut times = jsonl::BadTimes::default();
    let draft = thread_draft((ctx.since, &mut times), status, thread, path);
    times.report(ctx, counts, path);
    Some(draft)
}

/// The session a parsed thread gives; a user message whose `sentAt` is no time is
/// counted in `times`.
fn thread_draft(
    (since, times): (Timestamp, &mut jsonl::BadTimes),
    status: &mut SourceStatus,
    thread: Thread,
    path: &Path,
) -> Draft {
    // A sub-agent's thread is activity of its main thread.
    let sub_thread = thread.main_thread_id.0.get().map(str::to_owned);
    let own_id = thread.id.0.into_owned().unwrap_or_else(|| {
        let name = super::file_name(path).unwrap_or_default();
        name.strip_suffix(".json").unwrap_or(&name).to_owned()
    });
    let id = sub_thread.clone().unwrap_or(own_id);
    let mut draft = Draft::new(Agent::Amp, &id);
    let activity = |time: Option<Timestamp>, draft: &mut Draft| {
        if let Some(time) = time.filter(|time| *time >= since) {
            draft.activity.push(time);
        }
    };
    activity(thread.created.millis(), &mut draft);
    for event in &thread.usage_ledger.events {
        let time = event.timestamp.0.timestamp();
        activity(time, &mut draft);
        let in_window = time.is_some_and(|time| time >= since);
        if sub_thread.is_none() && in_window && event.operation_type.0.is("inference") {
            if let Some(model) = event.model.0.get() {
                draft.note_model(model);
            }
        }
    }
    let ledger_models = !draft.models.is_empty();
    // A fork is a new thread, made now, holding copies of the other thread's messages up
    // to the fork point, their `sentAt` kept: counted in that thread. Only a copied
    // prompt's text is used (for the fork's title, when it has none).
    let fork_point = thread.fork_point_index.as_i64().and_then(|index| usize::try_from(index).ok());
    let created = thread.created.millis();
    for (index, message) in thread.messages.iter().enumerate() {
        let sent = message.meta.sent_at.time("sentAt").ok().flatten();
        let copied = fork_point.is_some_and(|last| index <= last)
            || sent.zip(created).is_some_and(|(sent, created)| sent < created);
        if copied {
            if let (Some("user"), Some(time), None) = (message.role.0.get(), sent, &sub_thread) {
                draft.note_prompt_text(time, &message.content.value);
            }
            continue;
        }
        match message.role.0.get() {
            Some("user") => {
                let Some(time) = times.check(None, message.meta.sent_at.time("sentAt")) else {
                    continue;
                };
                activity(Some(time), &mut draft);
                let typed = !message.meta.from_automation.0
                    && !message.content.tool_result
                    && !matches!(message.source.kind.0.get(), Some("hook" | "course-correction"));
                if let Some(other) = message.source.kind.0.get() {
                    if !matches!(other, "hook" | "course-correction") {
                        status.note_unknown(&format!("user message source {other}"));
                    }
                }
                if !typed || sub_thread.is_some() || message.content.value.is_empty() {
                    continue;
                }
                if time >= since {
                    draft.prompts.push(time);
                }
                draft.note_prompt_text(time, &message.content.value);
            }
            Some("assistant") => {
                if let Some(model) = message.usage.model.0.get() {
                    if !ledger_models && sub_thread.is_none() {
                        draft.note_model(model);
                    }
                }
            }
            Some("info") | None => {}
            Some(other) => status.note_unknown(&format!("message role {other}")),
        }
    }
    // Models named by messages but used before the window are not this window's.
    if draft.activity.is_empty() {
        draft.models.clear();
    }
    if sub_thread.is_some() {
        return draft;
    }
    draft.title = thread.title.0.get().map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned);
    let first_tree = thread.env.initial.trees.first();
    draft.cwd = thread
        .env
        .initial
        .working_directory
        .0
        .get()
        .and_then(folder_path)
        .or_else(|| first_tree.and_then(|tree| tree.uri.0.get()).and_then(folder_path));
    draft.branch = first_tree
        .and_then(|tree| tree.repository.reference.0.get())
        .and_then(|reference| reference.strip_prefix("refs/heads/"))
        .map(str::to_owned);
    draft
}

/// The absolute path a `file://` URI (percent-encoded, as VS Code's `URI.toString()`
/// writes it) or a plain absolute path names.
pub(super) fn folder_path(value: &str) -> Option<PathBuf> {
    let path = match value.strip_prefix("file://") {
        // `file:///home/…` has an empty authority; `file://localhost/…` names this host.
        Some(rest) => {
            let start = rest.find('/')?;
            let host = &rest[..start];
            if !(host.is_empty() || host == "localhost") {
                return None;
            }
            PathBuf::from(std::ffi::OsString::from_vec(percent_decode(&rest[start..])?))
        }
        None => PathBuf::from(value),
    };
    path.is_absolute().then_some(path)
}

/// The bytes `%XX` escapes stand for; `None` on a broken escape.
fn percent_decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        if byte == b'%' {
            let hex = bytes.get(index + 1..index + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            decoded.push(byte);
            index += 1;
        }
    }
    Some(decoded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_become_paths() {
        assert_eq!(
            folder_path("file:///home/dev/my%20app"),
            Some(PathBuf::from("/home/dev/my app"))
        );
        assert_eq!(folder_path("file://localhost/srv/x"), Some(PathBuf::from("/srv/x")));
        assert_eq!(folder_path("/plain/path"), Some(PathBuf::from("/plain/path")));
        assert_eq!(folder_path("file://server/share"), None);
        assert_eq!(folder_path("file:///bad%2"), None);
        assert_eq!(folder_path("relative/path"), None);
        assert_eq!(folder_path("file:///h/%C3%A9t%C3%A9"), Some(PathBuf::from("/h/\u{e9}t\u{e9}")));
    }

    #[test]
    fn thread_names() {
        assert!(is_thread_name(b"T-0a1b2c3d-0000-4000-8000-000000000001.json"));
        assert!(!is_thread_name(b"T-0a1b.json.123.abc.amptmp"));
        assert!(!is_thread_name(b"settings.json"));
    }
}
