//! A FIFO for the tests that check a reader never blocks on one. Opening a FIFO for
//! reading blocks until a writer comes, and in these tests none ever does: if the code
//! under test opened it, the test would hang until CI's job timeout. [`Fifo`] keeps a
//! watchdog instead: past [`DEADLINE`] it opens the FIFO for writing, which frees a
//! reader blocked on it (the reader then sees end-of-file), says so on stderr, and the
//! test fails when the guard is dropped.
//!
//! Shared by the unit tests (`src/lib.rs` includes this file) and the integration tests.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;

use rustix::fs::{FileType, Mode, OFlags};

/// How long a reader may stay blocked on the FIFO before the watchdog frees it (far
/// longer than any of these tests takes, so a slow machine is not mistaken for a block).
const DEADLINE: Duration = Duration::from_secs(30);

/// A FIFO at a path, watched until the guard is dropped. Keep the guard alive to the end
/// of the test (`let _fifo = Fifo::make(…)`, not `let _ = …`).
pub(crate) struct Fifo {
    path: PathBuf,
    stop: Option<mpsc::Sender<()>>,
    watchdog: Option<JoinHandle<bool>>,
}

impl Fifo {
    /// Makes a FIFO at `path` (mode 0600) and starts its watchdog.
    pub(crate) fn make(path: &Path) -> Fifo {
        rustix::fs::mknodat(rustix::fs::CWD, path, FileType::Fifo, Mode::from_raw_mode(0o600), 0)
            .unwrap_or_else(|error| panic!("mkfifo {}: {error}", path.display()));
        let (stop, stopped) = mpsc::channel::<()>();
        let watched = path.to_owned();
        let watchdog = std::thread::spawn(move || free_a_blocked_reader(&watched, &stopped));
        Fifo { path: path.to_owned(), stop: Some(stop), watchdog: Some(watchdog) }
    }

    /// The FIFO's path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

/// Waits for the guard's drop or the deadline; past the deadline, opens the FIFO for
/// writing as soon as a reader has it open (a non-blocking open for writing fails while
/// no one reads). Whether a reader had to be freed.
#[expect(clippy::print_stderr, reason = "the test's output says why it failed")]
fn free_a_blocked_reader(path: &Path, stopped: &mpsc::Receiver<()>) -> bool {
    if stopped.recv_timeout(DEADLINE) != Err(RecvTimeoutError::Timeout) {
        return false;
    }
    loop {
        let flags = OFlags::WRONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
        if let Ok(writer) = rustix::fs::open(path, flags, Mode::empty()) {
            drop(writer);
            eprintln!(
                "{}: the code under test blocked on this FIFO for {} s (freed by the test's \
                 watchdog)",
                path.display(),
                DEADLINE.as_secs()
            );
            return true;
        }
        if stopped.recv_timeout(Duration::from_millis(50)) != Err(RecvTimeoutError::Timeout) {
            return false;
        }
    }
}

impl Drop for Fifo {
    fn drop(&mut self) {
        drop(self.stop.take());
        let blocked = self.watchdog.take().is_some_and(|watchdog| watchdog.join().unwrap_or(false));
        assert!(
            !blocked || std::thread::panicking(),
            "{}: the code under test blocked on this FIFO",
            self.path.display()
        );
    }
}
