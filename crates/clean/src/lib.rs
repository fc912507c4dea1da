//! The clean step of `standup`: every string gathered from the sources is sanitized,
//! then redacted, then capped (DESIGN §2), before anything shows it — the report and
//! `standup doctor` alike. Nothing after this sees a control character, an escape
//! sequence or an unmasked secret.
//!
//! Owns the order of the three steps and the count of what was masked. Each distinct
//! string is cleaned once ([`Cleaner`] keeps a memo keyed by the raw string), and its
//! secrets are counted once, in the first place the report shows it: a token in a
//! folder name with three commits is one secret, not six. Never does I/O.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::PathBuf;

use collect::SourceStatus;
use collect::gather::Gathered;
use redact::Redactor;
use report_model::{Activity, MaskedCount, MaskedSource, ProjectRef, Warning};

/// What one raw string became.
struct Cleaned {
    /// Sanitized and redacted (not capped: the cap depends on the use); `None` when that
    /// left the string as it was.
    text: Option<String>,
    /// Secrets masked in it.
    masked: u64,
    /// Whether `masked` was already added to a source's count.
    counted: bool,
}

/// Cleans strings with one redactor, remembering each distinct raw string, and counts
/// what was masked per [`MaskedSource`].
pub struct Cleaner<'r> {
    redactor: &'r Redactor,
    max_chars: usize,
    memo: HashMap<String, Cleaned>,
    masked: [u64; 5],
}

const SOURCES: [MaskedSource; 5] = [
    MaskedSource::Git,
    MaskedSource::Sessions,
    MaskedSource::Shell,
    MaskedSource::Warnings,
    MaskedSource::Notes,
];

fn slot(source: MaskedSource) -> usize {
    match source {
        MaskedSource::Git => 0,
        MaskedSource::Sessions => 1,
        MaskedSource::Shell => 2,
        MaskedSource::Warnings => 3,
        MaskedSource::Notes => 4,
    }
}

impl<'r> Cleaner<'r> {
    /// A cleaner masking with `redactor` and capping subjects, titles and commands at
    /// `max_chars` characters.
    pub fn new(redactor: &'r Redactor, max_chars: usize) -> Cleaner<'r> {
        Cleaner { redactor, max_chars, memo: HashMap::new(), masked: [0; 5] }
    }

    /// Sanitizes and redacts `raw` (once per distinct string). `count` names the source
    /// whose count its secrets go to, the first time they are counted; `None` counts
    /// nothing (text the report does not show, such as a `doctor` status).
    fn lookup(&mut self, raw: &str, count: Option<MaskedSource>) -> Option<&str> {
        if !self.memo.contains_key(raw) {
            let sanitized = sanitize::clean(raw);
            let (redacted, masked) = self.redactor.redact(&sanitized);
            let text = (redacted != raw).then(|| redacted.into_owned());
            self.memo
                .insert(raw.to_owned(), Cleaned { text, masked: masked as u64, counted: false });
        }
        let cleaned = self.memo.get_mut(raw)?;
        if let Some(source) = count {
            if !cleaned.counted {
                cleaned.counted = true;
                self.masked[slot(source)] += cleaned.masked;
            }
        }
        cleaned.text.as_deref()
    }

    /// Cleans `text` in place and caps it at `max_chars`; returns whether it was shortened.
    pub fn text(
        &mut self,
        text: &mut String,
        max_chars: usize,
        count: Option<MaskedSource>,
    ) -> bool {
        let cleaned = self.lookup(text, count).map(str::to_owned);
        if let Some(cleaned) = cleaned {
            *text = cleaned;
        }
        let (capped, shortened) = sanitize::cap(text, max_chars);
        if let Cow::Owned(capped) = capped {
            *text = capped;
        }
        shortened
    }

    /// Cleans the text of a path (a folder name is untrusted too); no cap.
    pub fn path(&mut self, path: &mut PathBuf, count: Option<MaskedSource>) {
        // A name that is not UTF-8 becomes its lossy text: JSON can only hold text.
        let lossy = path.to_str().is_none();
        let raw = path.to_string_lossy().into_owned();
        match self.lookup(&raw, count) {
            Some(cleaned) => *path = PathBuf::from(cleaned),
            None if lossy => *path = PathBuf::from(raw),
            None => {}
        }
    }

    /// Cleans a project's name and path. The name is the path's last folder, so a
    /// secret in it is one secret: the project adds the larger of the two counts, once.
    pub fn project(&mut self, project: &mut ProjectRef, count: Option<MaskedSource>) {
        let before = self.masked;
        self.text(&mut project.name, usize::MAX, count);
        let after_name = self.masked;
        self.path(&mut project.path, count);
        for index in 0..self.masked.len() {
            let name = after_name[index] - before[index];
            let path = self.masked[index] - after_name[index];
            self.masked[index] = before[index] + name.max(path);
        }
    }

    /// Cleans every string of `activity`: subjects, titles, to-do items, notes, ids, models, commands, the
    /// agents that ran them, working directories and projects. Session titles are then
    /// collapsed and shortened.
    pub fn activity(&mut self, activity: &mut Activity) {
        let max_chars = self.max_chars;
        let git = Some(MaskedSource::Git);
        for event in &mut activity.commits {
            event.commit.truncated |= self.text(&mut event.commit.subject, max_chars, git);
            self.project(&mut event.project, git);
            let commit = &mut event.commit;
            for branch in commit.branches.iter_mut().chain(&mut commit.remote_branches) {
                self.text(branch, max_chars, git);
            }
        }
        for wip in &mut activity.wip {
            self.project(&mut wip.project, git);
            for file in &mut wip.files {
                self.text(&mut file.path, max_chars, git);
            }
            for stash in &mut wip.stashes {
                self.text(&mut stash.message, max_chars, git);
            }
            for branch in &mut wip.ahead {
                self.text(&mut branch.name, max_chars, git);
            }
        }
        let sessions = Some(MaskedSource::Sessions);
        for session in &mut activity.sessions {
            session.truncated |= self.text(&mut session.title, max_chars, sessions);
            let (title, shortened) = collect::sessions::shorten_title(&session.title);
            session.title = title;
            session.truncated |= shortened;
            self.text(&mut session.session_id, max_chars, sessions);
            for model in &mut session.models {
                self.text(model, max_chars, sessions);
            }
            if let Some(branch) = &mut session.branch {
                self.text(branch, max_chars, sessions);
            }
            // To-do items are prose written by a model: cleaned, then collapsed to one
            // line and shortened like titles (a next step is one line of the report).
            for todo in &mut session.todos {
                self.text(&mut todo.text, max_chars, sessions);
                todo.text = collect::sessions::shorten_title(&todo.text).0;
            }
            // An agent's failed shell commands: cleaned and masked like the person's
            // commands, then kept to one short line.
            for failed in &mut session.failed_commands {
                self.text(&mut failed.command, max_chars, sessions);
                failed.command = collect::sessions::shorten_title(&failed.command).0;
            }
            if let Some(cwd) = &mut session.cwd {
                self.path(cwd, sessions);
            }
            if let Some(project) = &mut session.project {
                self.project(project, sessions);
            }
        }
        // The person's own words: shown as written, but cleaned and masked like every
        // string, and kept to one line (a note is one line of the report).
        let notes = Some(MaskedSource::Notes);
        for note in &mut activity.notes {
            self.text(&mut note.text, max_chars, notes);
            note.text = note_line(&note.text);
        }
        let shell = Some(MaskedSource::Shell);
        for command in &mut activity.shell {
            command.truncated |= self.text(&mut command.command, max_chars, shell);
            if let Some(agent) = &mut command.agent {
                self.text(agent, max_chars, shell);
            }
            if let Some(cwd) = &mut command.cwd {
                self.path(cwd, shell);
            }
            if let Some(project) = &mut command.project {
                self.project(project, shell);
            }
        }
    }

    /// Cleans warnings: every string of each detail (paths, error texts, globs, hosts,
    /// commands, machine names; [`report_model::WarningDetail::for_each_text`]) and the
    /// machine it came from. Nothing is capped, but each text the wording quotes (a path,
    /// a key), and each `` `quoted` `` part of another text, longer than
    /// [`WARNING_QUOTE_MAX_CHARS`] is shortened in its middle ([`shorten_middle`]), so a
    /// warning stays one readable line whatever path it names. Secrets masked are counted
    /// under `warnings`.
    pub fn warnings(&mut self, warnings: &mut [Warning]) {
        for warning in warnings {
            self.warning(warning, Some(MaskedSource::Warnings));
        }
    }

    fn warning(&mut self, warning: &mut Warning, count: Option<MaskedSource>) {
        warning.detail.for_each_text(|text, quoted| {
            self.text(text, usize::MAX, count);
            // A quoted text is shortened as a whole; another (an error's words, which
            // can quote a path themselves) in each of its own quoted parts.
            *text = if quoted {
                shorten_middle(text, WARNING_QUOTE_MAX_CHARS)
            } else {
                shorten_quoted(text)
            };
        });
        if let Some(machine) = &mut warning.machine {
            self.text(machine, usize::MAX, count);
            *machine = shorten_middle(machine, WARNING_QUOTE_MAX_CHARS);
        }
    }

    /// Cleans what `doctor` shows of each source: its locations and its limits.
    /// Counts nothing (the report does not show statuses).
    pub fn statuses(&mut self, statuses: &mut [SourceStatus]) {
        for status in statuses {
            for location in &mut status.locations {
                self.path(location, None);
            }
            for limit in &mut status.limits {
                self.text(limit, usize::MAX, None);
            }
            for note in &mut status.notes {
                self.warning(note, None);
            }
        }
    }

    /// Cleans any other text shown to the user (an identity, a config value); counts
    /// nothing and caps at `max_chars`.
    pub fn other(&mut self, text: &mut String, max_chars: usize) -> bool {
        self.text(text, max_chars, None)
    }

    /// Secrets masked so far, per source, leaving out sources with none.
    pub fn masked(&self) -> Vec<MaskedCount> {
        SOURCES
            .into_iter()
            .zip(self.masked)
            .filter(|(_, count)| *count > 0)
            .map(|(source, count)| MaskedCount { source, count })
            .collect()
    }
}

/// Cleans everything `collect` gathered: events, project names, paths, warnings, source
/// statuses and the identity. Returns the secrets masked per source in what the report
/// shows (events and warnings).
pub fn clean_gathered(
    gathered: &mut Gathered,
    redactor: &Redactor,
    max_chars: usize,
) -> Vec<MaskedCount> {
    let mut cleaner = Cleaner::new(redactor, max_chars);
    cleaner.activity(&mut gathered.activity);
    cleaner.warnings(&mut gathered.warnings);
    cleaner.statuses(&mut gathered.statuses);
    for text in gathered.identity.emails.iter_mut().chain(&mut gathered.identity.names) {
        cleaner.other(text, usize::MAX);
    }
    // What `doctor` shows of each repository read: its identities and the e-mails of the
    // commits left out.
    for read in &mut gathered.repo_reads {
        cleaner.project(&mut read.project, None);
        for text in read.identity.emails.iter_mut().chain(&mut read.identity.names) {
            cleaner.other(text, usize::MAX);
        }
        let by_email = std::mem::take(&mut read.left_out.by_email);
        for (mut email, count) in by_email {
            cleaner.other(&mut email, usize::MAX);
            *read.left_out.by_email.entry(email).or_default() += count;
        }
    }
    cleaner.masked()
}

/// The longest path or value a warning quotes, in characters: longer ones keep their
/// start and their end (where the file name is) around a `…`.
pub const WARNING_QUOTE_MAX_CHARS: usize = 160;

/// `text` with each `` `quoted` `` part longer than [`WARNING_QUOTE_MAX_CHARS`]
/// shortened in its middle.
fn shorten_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(4096));
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let Some(close) = rest[open + 1..].find('`').map(|close| open + 1 + close) else {
            break;
        };
        out.push_str(&rest[..=open]);
        out.push_str(&shorten_middle(&rest[open + 1..close], WARNING_QUOTE_MAX_CHARS));
        out.push('`');
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// `text` cut to at most `max` characters by dropping its middle for a `…`: the start
/// and the end stay (a path's root and its file name).
pub fn shorten_middle(text: &str, max: usize) -> String {
    let count = text.chars().count();
    if count <= max || max < 3 {
        return text.to_owned();
    }
    let keep = max - 1;
    let head = keep / 2;
    let tail = keep - head;
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(count - tail).collect();
    format!("{start}…{end}")
}

/// The longest piece of user input a message quotes, in characters.
pub const QUOTE_MAX_CHARS: usize = 80;

/// User input (an argument, an environment variable, a config value) made fit to quote
/// in a message: sanitized, redacted with the built-in rules, then capped at
/// [`QUOTE_MAX_CHARS`], on one line (newlines and tabs become spaces). Every message
/// that echoes input goes through it.
pub fn quote(input: &str) -> String {
    // A quoted value stays on its message's one line.
    let cleaned = message(input).replace(['\n', '\t'], " ");
    let (text, _) = sanitize::cap(&cleaned, QUOTE_MAX_CHARS);
    text.into_owned()
}

/// A note of the person as the report shows it: one line, its runs of white space
/// (newlines, tabs) made one space.
pub fn note_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A whole message line (an error, a warning) made safe to print: sanitized and redacted
/// with the built-in rules, not capped. The last guard before the terminal.
pub fn message(text: &str) -> String {
    let sanitized = sanitize::clean(text);
    // The process's one built-in redactor (built on first use, then shared).
    let (redacted, _) = Redactor::builtin().redact(&sanitized);
    redacted.into_owned()
}
