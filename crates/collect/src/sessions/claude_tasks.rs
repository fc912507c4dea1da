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

use std::os::fd::{AsFd as _, BorrowedFd};
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
        let path = root.join("tasks");
        let tasks = match super::open_dir(rustix::fs::CWD, &path, &path) {
            Ok(Some(tasks)) => tasks,
            Ok(None) => continue,
            Err(error) => {
                ctx.fail(error);
                continue;
            }
        };
        // The folders of the sessions read (most of them are of older sessions).
        let mut folders: Vec<String> = Vec::new();
        let listed = crate::listing::for_each_entry(tasks.as_fd(), |_, name, kind| {
            let Ok(name) = name.to_str() else { return };
            if drafts.contains_key(name) && kind == rustix::fs::FileType::Directory {
                folders.push(name.to_owned());
            }
        });
        if let Err(error) = listed {
            ctx.fail(crate::Error::io(&path, error.into()));
        }
        folders.sort_unstable();
        for session_id in folders {
            let folder = Folder { tasks: tasks.as_fd(), name: &session_id, path: &path };
            if let Some((time, todos)) = read_list(ctx, stats, &folder)
                && let Some(draft) = drafts.get_mut(&session_id)
            {
                draft.note_todos(time, todos);
            }
        }
    }
}

/// One session's folder of tasks, in the open `tasks` folder at `path`.
struct Folder<'a> {
    tasks: BorrowedFd<'a>,
    name: &'a str,
    path: &'a Path,
}

/// The list in one session's folder, with the time of its newest file; `None` when the
/// folder holds no task file. The folder and its files are opened by name below the open
/// `tasks` folder, and only regular files are opened (a FIFO named `1.json` is passed
/// over, never waited on).
fn read_list(
    ctx: &mut Ctx,
    stats: &mut Stats,
    folder: &Folder<'_>,
) -> Option<(Timestamp, Vec<Todo>)> {
    let path = folder.path.join(folder.name);
    let open = match super::open_dir(folder.tasks, Path::new(folder.name), &path) {
        Ok(Some(open)) => open,
        Ok(None) => return None,
        Err(error) => {
            ctx.fail(error);
            return None;
        }
    };
    let listing = crate::listing::list_open(open.as_fd());
    if let Some(error) = listing.stopped {
        ctx.fail(crate::Error::io(&path, error));
    }
    let mut newest: Option<Timestamp> = None;
    let mut tasks: Vec<(u64, Option<Todo>)> = Vec::new();
    for entry in listing.entries {
        // `<id>.json`; the folder also holds a `.lock` and the id counter's files.
        let Some((name, number)) = entry.name.to_str().and_then(|name| {
            let number = name.strip_suffix(".json")?.parse::<u64>().ok()?;
            Some((name, number))
        }) else {
            continue;
        };
        if !entry.kind.is_file() {
            continue;
        }
        let file = path.join(name);
        let (bytes, stat) =
            match crate::fsread::read_small_at_stat(open.as_fd(), name, TASK_FILE_MAX) {
                Ok(Some(read)) => read,
                // Gone since the listing: deleted with its task.
                Ok(None) => continue,
                Err(error) => {
                    ctx.fail(crate::Error::io(&file, error));
                    continue;
                }
            };
        let Ok(task) = serde_json::from_slice::<TaskFile>(&bytes) else {
            stats.malformed_lines += 1;
            stats.malformed_files += 1;
            ctx.warnings.push(jsonl::malformed_warning(&file, 1, 0));
            continue;
        };
        let modified = crate::fsread::stat_modified(&stat);
        if let Ok(time) = Timestamp::try_from(modified) {
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
