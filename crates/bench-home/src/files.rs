//! Small file chores: the config files, modification times, a counting writer.

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::{EMAILS, Error, TIME_ZONE};

/// Writes `~/.config/standup/config.toml` (identity, time zone, no LLM) and
/// `~/.gitconfig`.
pub(crate) fn write_config(home: &Path) -> Result<(), Error> {
    let config = home.join(".config/standup/config.toml");
    fs_err::create_dir_all(home.join(".config/standup"))?;
    let emails = EMAILS.iter().map(|email| format!("\"{email}\"")).collect::<Vec<_>>().join(", ");
    fs_err::write(
        &config,
        format!(
            "# Written by bench-home.\ntimezone = \"{TIME_ZONE}\"\n\n[identity]\nemails = [{emails}]\n\n[llm]\nenabled = false\n"
        ),
    )?;
    fs_err::write(
        home.join(".gitconfig"),
        format!(
            "[user]\n\tname = Dev Example\n\temail = {}\n[init]\n\tdefaultBranch = main\n",
            EMAILS[0]
        ),
    )?;
    Ok(())
}

/// The `SystemTime` of an epoch-millisecond instant.
pub(crate) fn system_time(millis: i64) -> SystemTime {
    let offset = Duration::from_millis(millis.unsigned_abs());
    if millis >= 0 { UNIX_EPOCH + offset } else { UNIX_EPOCH - offset }
}

/// Sets the modification time of a file or folder.
pub(crate) fn set_mtime(path: &Path, millis: i64) -> Result<(), Error> {
    fs_err::File::open(path)?.set_modified(system_time(millis))?;
    Ok(())
}

/// Sets the modification time of a folder, everything under it, and the folder itself
/// last.
pub(crate) fn set_tree_mtime(path: &Path, millis: i64) -> Result<(), Error> {
    if path.is_dir() {
        for entry in fs_err::read_dir(path)? {
            set_tree_mtime(&entry?.path(), millis)?;
        }
    }
    set_mtime(path, millis)
}

/// A buffered file writer that counts the bytes written.
pub(crate) struct Counted {
    writer: BufWriter<fs_err::File>,
    pub(crate) bytes: u64,
}

impl Counted {
    pub(crate) fn create(path: &Path) -> Result<Counted, Error> {
        if let Some(parent) = path.parent() {
            fs_err::create_dir_all(parent)?;
        }
        Ok(Counted {
            writer: BufWriter::with_capacity(1 << 20, fs_err::File::create(path)?),
            bytes: 0,
        })
    }

    pub(crate) fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.bytes += bytes.len() as u64;
        self.writer.write_all(bytes)
    }

    /// Flushes and closes the file.
    pub(crate) fn finish(mut self) -> Result<u64, Error> {
        self.writer.flush()?;
        Ok(self.bytes)
    }
}
