//! Claude Code's task lists: the to-do list of a session whose agent was offered the task
//! tools (`TaskCreate`, `TaskUpdate`, …) rather than `TodoWrite`.
//!
//! Verified on Claude Code 2.1.197 and 2.1.332 (npm; interactive, in a terminal, against a
//! loopback stand-in of the Anthropic API that created three tasks and moved two of them:
//! `fixtures/claude-tasks/`): the interactive CLI offers the task tools by default (2.1.332
//! defers them behind `ToolSearch`, and its `-p` offers neither them nor `TodoWrite`), and
//! keeps each session's list as one file per task,
//! `<config folder>/tasks/<session id>/<task id>.json`:
//! `{"id":"1","subject":"Read the README","description":…,"activeForm":…,
//! "status":"completed","blocks":[],"blockedBy":[]}` (statuses `pending`, `in_progress`,
//! `completed`; the package's `sdk-tools.d.ts` names them, and `deleted` for
//! `TaskUpdate`, which removes the task). The transcript holds the calls too, but a
//! created task's id is only in its tool result, which the transcript reader skips
//! unread; the files are the list as the agent left it.
//!
//! So: for each session the transcripts placed in the window, its folder under `tasks/`
//! (in each configuration folder read) is the session's to-do list, the tasks in the order
//! of their ids (numbers, as the agent gives them out), each task's `subject` its text; the
//! list is as new as its newest file, and, as for `TodoWrite`, the newest list of a session
//! is the one kept. A task file that is not such a JSON object is a malformed file (its
//! warning names it); the rest of the list is read.
//!
//! Not read: a list shared by name (`CLAUDE_CODE_TASK_LIST_ID`, a team's), whose folder is
//! not named after a session; what blocks what (`blocks`, `blockedBy`).

use std::path::{Path, PathBuf};

use jiff::Timestamp;
use report_model::{Todo, TodoStatus};
use serde::Deserialize;

use super::jsonl::{self, Stats};
use super::{Ctx, Drafts, TODOS_MAX, lenient::LStr};

/// The largest task file read (a task is a few hundred bytes; its description is free
/// text).
const TASK_FILE_MAX: u64 = 256 * 1024;

/// One task file.
#[derive(Deserialize, Default)]
#[serde(default)]
struct TaskFile<'a> {
    #[serde(borrow)]
    id: LStr<'a>,
    #[serde(borrow)]
    subject: LStr<'a>,
    #[serde(borrow)]
    status: LStr<'a>,
}

/// Notes on each session of `drafts` the task list its folder under `<root>/tasks`
/// holds, for every root.
pub(super) fn read(ctx: &mut Ctx, stats: &mut Stats, drafts: &mut Drafts, roots: &[PathBuf]) {
    for root in roots {
        let listed = match super::open_listed(&root.join("tasks")) {
            Ok(Some((_, listed))) => listed,
            Ok(None) => continue,
            Err(error) => {
                ctx.fail(error);
                continue;
            }
        };
        for (folder, kind) in listed {
            let Some(session_id) = folder.file_name().and_then(|name| name.to_str()) else {
                continue;
            };
            if !drafts.contains_key(session_id) || !super::is_folder(kind, || folder.clone()) {
                continue;
            }
            if let Some((time, todos)) = read_list(ctx, stats, &folder)
                && let Some(draft) = drafts.get_mut(session_id)
            {
                draft.note_todos(time, todos);
            }
        }
    }
}

/// The list in one session's folder, with the time of its newest file; `None` when the
/// folder holds no task file.
fn read_list(ctx: &mut Ctx, stats: &mut Stats, folder: &Path) -> Option<(Timestamp, Vec<Todo>)> {
    let listed = match super::open_listed(folder) {
        Ok(Some((_, listed))) => listed,
        Ok(None) => return None,
        Err(error) => {
            ctx.fail(error);
            return None;
        }
    };
    let mut newest: Option<Timestamp> = None;
    let mut tasks: Vec<(u64, Option<Todo>)> = Vec::new();
    for (path, _) in listed {
        // `<id>.json`; the folder also holds a `.lock` and the id counter's files.
        let Some(number) = path
            .file_name()
            .and_then(|name| name.to_str())
            .and_then(|name| name.strip_suffix(".json"))
            .and_then(|id| id.parse::<u64>().ok())
        else {
            continue;
        };
        let Ok(metadata) = std::fs::symlink_metadata(&path) else { continue };
        if !metadata.is_file() {
            continue;
        }
        let Some(bytes) = read_task(ctx, &path) else { continue };
        let Ok(task) = serde_json::from_slice::<TaskFile>(&bytes) else {
            stats.malformed_lines += 1;
            stats.malformed_files += 1;
            ctx.warnings.push(jsonl::malformed_warning(&path, 1, 0));
            continue;
        };
        if let Some(time) = metadata.modified().ok().and_then(|time| Timestamp::try_from(time).ok())
        {
            newest = newest.max(Some(time));
        }
        // The file's own id, where it has one, else its name's.
        let id = task.id.get().and_then(|id| id.parse().ok()).unwrap_or(number);
        let todo = match (task.subject.get(), task.status.get().and_then(TodoStatus::parse)) {
            (Some(subject), Some(progress)) => super::todo_item(subject, progress),
            _ => None,
        };
        tasks.push((id, todo));
    }
    let newest = newest?;
    tasks.sort_by_key(|(id, _)| *id);
    let todos: Vec<Todo> = tasks.into_iter().filter_map(|(_, todo)| todo).take(TODOS_MAX).collect();
    Some((newest, todos))
}

/// A task file's bytes, bounded; `None` (with its warning) when it cannot be read or is
/// larger than the bound.
fn read_task(ctx: &mut Ctx, path: &Path) -> Option<Vec<u8>> {
    crate::fsread::read_small(path, TASK_FILE_MAX).map_err(|error| ctx.fail(error)).ok()
}
