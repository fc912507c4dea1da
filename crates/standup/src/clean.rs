//! Every string of every event is sanitized, then redacted, then capped, before
//! aggregation (DESIGN §2): nothing after this sees a control character, an escape
//! sequence or an unmasked secret.

use std::path::PathBuf;

use redact::Redactor;
use report_model::{Activity, MaskedCount, ProjectRef, Warning};

/// Cleans one string: sanitize, redact, then cap (so a secret cut in half is never left
/// unmasked). Returns whether it was shortened and adds what was masked to `masked`.
fn clean_text(text: &mut String, redactor: &Redactor, max_chars: usize, masked: &mut u64) -> bool {
    let sanitized = sanitize::clean(text);
    let (redacted, count) = redactor.redact(&sanitized);
    *masked += count as u64;
    let (capped, shortened) = sanitize::cap(&redacted, max_chars);
    if capped != text.as_str() {
        *text = capped.into_owned();
    }
    shortened
}

/// Cleans a path's text the same way (a folder name is untrusted too); no cap.
fn clean_path(path: &mut PathBuf, redactor: &Redactor, masked: &mut u64) {
    let text = path.to_string_lossy();
    let sanitized = sanitize::clean(&text);
    let (redacted, count) = redactor.redact(&sanitized);
    if count > 0 || redacted != text {
        *masked += count as u64;
        *path = PathBuf::from(redacted.into_owned());
    }
}

fn clean_project(project: &mut ProjectRef, redactor: &Redactor, masked: &mut u64) {
    let mut name = std::mem::take(&mut project.name);
    clean_text(&mut name, redactor, usize::MAX, masked);
    project.name = name;
    clean_path(&mut project.path, redactor, masked);
}

/// Cleans every string of `activity` and `warnings`; returns what was masked per source
/// (`git`, `sessions`, `shell`), leaving out sources with nothing masked.
pub(crate) fn clean(
    activity: &mut Activity,
    warnings: &mut [Warning],
    redactor: &Redactor,
    max_chars: usize,
) -> Vec<MaskedCount> {
    let mut git = 0;
    for commit in &mut activity.commits {
        commit.truncated |= clean_text(&mut commit.subject, redactor, max_chars, &mut git);
        clean_project(&mut commit.project, redactor, &mut git);
    }
    let mut sessions = 0;
    for session in &mut activity.sessions {
        session.truncated |= clean_text(&mut session.title, redactor, max_chars, &mut sessions);
        let (title, shortened) = collect::sessions::shorten_title(&session.title);
        session.title = title;
        session.truncated |= shortened;
        clean_text(&mut session.session_id, redactor, max_chars, &mut sessions);
        if let Some(cwd) = &mut session.cwd {
            clean_path(cwd, redactor, &mut sessions);
        }
        if let Some(project) = &mut session.project {
            clean_project(project, redactor, &mut sessions);
        }
    }
    let mut shell = 0;
    for command in &mut activity.shell {
        command.truncated |= clean_text(&mut command.command, redactor, max_chars, &mut shell);
        if let Some(cwd) = &mut command.cwd {
            clean_path(cwd, redactor, &mut shell);
        }
        if let Some(project) = &mut command.project {
            clean_project(project, redactor, &mut shell);
        }
    }
    let mut other = 0;
    for warning in warnings.iter_mut() {
        clean_text(&mut warning.message, redactor, usize::MAX, &mut other);
        for value in warning.params.values_mut() {
            clean_text(value, redactor, usize::MAX, &mut other);
        }
    }
    [("git", git), ("sessions", sessions), ("shell", shell), ("warnings", other)]
        .into_iter()
        .filter(|(_, count)| *count > 0)
        .map(|(source, count)| MaskedCount { source: source.to_owned(), count })
        .collect()
}
