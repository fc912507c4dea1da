//! The one way `collect` opens and reads a source file: regular files only, every read
//! bounded.
//!
//! A FIFO where a history or a log is expected would block `open` (no writer) or `read`
//! (no data) forever; `/dev/zero` would be read until memory runs out. So:
//!
//! - [`open`] looks at the path with `stat` first, and refuses anything that is not a
//!   regular file without opening it. It then opens with `O_NONBLOCK` (so that a FIFO
//!   swapped in after the `stat` cannot block the `open`) and `O_NOCTTY`, and checks the
//!   opened handle with `fstat`, so the check cannot race with a rename. `O_NONBLOCK` is
//!   left set: it has no effect on reads of a regular file.
//! - [`read_small`] reads a small metadata file whole, up to a size cap.
//! - [`read_small_at`] reads a small file below an open folder, for the many small
//!   files of one folder (loose objects): it opens the file without blocking
//!   (`O_NONBLOCK`, so a FIFO opens at once) and refuses anything its `fstat` does not
//!   call a regular file before reading a byte, in four system calls.
//! - [`Lines`] streams a file line by line with a cap on the length of a line: a longer
//!   line is skipped (without being held in memory) and counted, and [`Lines::too_long`]
//!   gives the error that names the file.
//!
//! A path that does not exist is [`Error::Io`] with `NotFound`, which callers treat as a
//! missing source (silent). Everything else refused is an [`Error`] that names the path.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, BufRead, Read as _};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;

use crate::error::{Error, file_kind};

/// The cap on files that hold one path or a few lines (`.git`, `commondir`,
/// `.project_root`).
pub(crate) const PATH_FILE_MAX: u64 = 64 << 10;

/// The cap on small JSON and TOML configuration files (`projects.json`,
/// `settings.json`, atuin's `config.toml`).
pub(crate) const CONFIG_FILE_MAX: u64 = 16 << 20;

/// The cap on a whole-file JSON document (a legacy Gemini `session-*.json`).
pub(crate) const DOCUMENT_MAX: u64 = 512 << 20;

/// The longest line of a JSON Lines log (transcripts, rollouts, chats, indexes). A
/// record holding a pasted screenshot (base64, a few MB) still fits.
pub(crate) const LOG_LINE_MAX: usize = 16 << 20;

/// The longest line of a shell history (one physical line of a command).
pub(crate) const HISTORY_LINE_MAX: usize = 256 << 10;

/// The modification time of a `stat` made through rustix (a time before 1970 counts as
/// 1970: older than any bound a report uses).
pub(crate) fn stat_modified(stat: &rustix::fs::Stat) -> std::time::SystemTime {
    let nanos = u32::try_from(stat.st_mtime_nsec).unwrap_or(0);
    u64::try_from(stat.st_mtime).map_or(std::time::SystemTime::UNIX_EPOCH, |secs| {
        std::time::SystemTime::UNIX_EPOCH + std::time::Duration::new(secs, nanos)
    })
}

/// `stat` of `path` (links followed), refusing anything but a regular file. Never opens
/// the path, so a FIFO cannot block it; for readers that hand the path to a library
/// (SQLite) rather than reading it through [`open`].
pub(crate) fn regular_metadata(path: &Path) -> Result<Metadata, Error> {
    let metadata = fs_err::metadata(path).map_err(|error| Error::io(path, error))?;
    if !metadata.file_type().is_file() {
        return Err(Error::NotRegular {
            path: path.to_path_buf(),
            kind: file_kind(metadata.file_type()),
        });
    }
    Ok(metadata)
}

/// Opens `path` for reading when it is a regular file (see the module doc).
pub(crate) fn open(path: &Path) -> Result<File, Error> {
    open_with_metadata(path).map(|(file, _)| file)
}

/// [`open`], with the open file's own metadata.
fn open_with_metadata(path: &Path) -> Result<(File, Metadata), Error> {
    regular_metadata(path)?;
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|error| Error::io(path, error))?;
    let metadata = file.metadata().map_err(|error| Error::io(path, error))?;
    if !metadata.file_type().is_file() {
        return Err(Error::NotRegular {
            path: path.to_path_buf(),
            kind: file_kind(metadata.file_type()),
        });
    }
    Ok((file, metadata))
}

/// Reads a regular file of at most `limit` bytes whole.
pub(crate) fn read_small(path: &Path, limit: u64) -> Result<Vec<u8>, Error> {
    let (file, metadata) = open_with_metadata(path)?;
    // Room for the size `fstat` gave and one byte more, so that a file as large as it
    // said is read in one `read` and its end told by a second (without it the reading
    // starts with small probes).
    let room = metadata.len().min(limit).saturating_add(1);
    let mut bytes = Vec::with_capacity(usize::try_from(room).unwrap_or(0));
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|error| Error::io(path, error))?;
    if bytes.len() as u64 > limit {
        return Err(Error::TooLarge { path: path.to_path_buf(), limit });
    }
    Ok(bytes)
}

/// The file `relative` below the open folder `folder`, whole, when it is a regular file
/// of at most `limit` bytes (see the module doc); `Ok(None)` when there is none. The
/// size is `fstat`'s: a file that grows while it is read is read as it was, as a map of
/// it would be. Errors carry no path (the caller names the file, or asks git instead).
pub(crate) fn read_small_at(
    folder: std::os::fd::BorrowedFd<'_>,
    relative: &str,
    limit: u64,
) -> io::Result<Option<Vec<u8>>> {
    Ok(read_small_at_stat(folder, relative, limit)?.map(|(bytes, _)| bytes))
}

/// [`read_small_at`], with the `fstat` of the file read (its modification time, say).
pub(crate) fn read_small_at_stat(
    folder: std::os::fd::BorrowedFd<'_>,
    relative: &str,
    limit: u64,
) -> io::Result<Option<(Vec<u8>, rustix::fs::Stat)>> {
    use rustix::fs::{Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
    let file = match rustix::fs::openat(folder, relative, flags, Mode::empty()) {
        Ok(file) => file,
        Err(rustix::io::Errno::NOENT) => return Ok(None),
        Err(error) => return Err(error.into()),
    };
    let stat = rustix::fs::fstat(&file)?;
    if !rustix::fs::FileType::from_raw_mode(stat.st_mode).is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    let size = u64::try_from(stat.st_size).map_err(io::Error::other)?;
    if size > limit {
        return Err(io::Error::other("larger than the limit"));
    }
    let mut bytes = vec![0_u8; usize::try_from(size).map_err(io::Error::other)?];
    let mut filled = 0;
    while filled < bytes.len() {
        match rustix::io::read(&file, &mut bytes[filled..]) {
            Ok(0) => break,
            Ok(read) => filled += read,
            Err(rustix::io::Errno::INTR) => {}
            Err(error) => return Err(error.into()),
        }
    }
    bytes.truncate(filled);
    Ok(Some((bytes, stat)))
}

/// [`read_small`] as text, invalid UTF-8 replaced.
pub(crate) fn read_small_text(path: &Path, limit: u64) -> Result<String, Error> {
    let bytes = read_small(path, limit)?;
    Ok(String::from_utf8(bytes)
        .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned()))
}

/// One line read by [`Lines`].
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Line<'a> {
    /// The 1-based line number (skipped over-long lines are counted).
    pub(crate) number: u64,
    /// The line without its `\n`.
    pub(crate) bytes: &'a [u8],
    /// Whether the line ended with `\n` (the last line of a file may not).
    pub(crate) complete: bool,
}

/// Lines of a file as raw bytes, each at most `limit` bytes; longer lines are skipped
/// and counted. A line that lies whole in the reader's buffer is handed out from there;
/// one that spans refills is copied into one reused buffer.
pub(crate) struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    limit: usize,
    line_no: u64,
    too_long: u64,
    first_too_long: u64,
    /// The bytes of the reader's buffer the last line handed out from there took (its
    /// `\n` included), consumed on the next call.
    lent: usize,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `reader`, at most `limit` bytes each.
    pub(crate) fn new(reader: R, limit: usize) -> Lines<R> {
        Lines {
            reader,
            buf: Vec::with_capacity(256),
            limit,
            line_no: 0,
            too_long: 0,
            first_too_long: 0,
            lent: 0,
        }
    }

    /// The next line no longer than the limit, or `None` at the end of the input.
    pub(crate) fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        self.reader.consume(std::mem::take(&mut self.lent));
        // A whole line in the reader's buffer is lent from there, not copied.
        let whole = loop {
            match self.reader.fill_buf() {
                Ok(available) => break memchr::memchr(b'\n', available),
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        };
        if let Some(end) = whole.filter(|&end| end <= self.limit) {
            self.line_no += 1;
            self.lent = end + 1;
            // Not consumed, so the same buffer (`BufRead`'s contract).
            let available = self.reader.fill_buf()?;
            let bytes = available.get(..end).ok_or_else(|| io::Error::other("buffer shrank"))?;
            return Ok(Some(Line { number: self.line_no, bytes, complete: true }));
        }
        loop {
            self.buf.clear();
            let mut over = false;
            let mut seen = false;
            let complete = loop {
                let available = match self.reader.fill_buf() {
                    Ok(available) => available,
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                    Err(error) => return Err(error),
                };
                if available.is_empty() {
                    break false;
                }
                seen = true;
                let (take, found) = match memchr::memchr(b'\n', available) {
                    Some(index) => (index, true),
                    None => (available.len(), false),
                };
                if !over {
                    if self.buf.len() + take > self.limit {
                        over = true;
                        self.buf = Vec::with_capacity(256);
                    } else {
                        self.buf.extend_from_slice(&available[..take]);
                    }
                }
                self.reader.consume(if found { take + 1 } else { take });
                if found {
                    break true;
                }
            };
            if !seen {
                return Ok(None);
            }
            self.line_no += 1;
            if over {
                self.too_long += 1;
                if self.first_too_long == 0 {
                    self.first_too_long = self.line_no;
                }
                continue;
            }
            return Ok(Some(Line { number: self.line_no, bytes: &self.buf, complete }));
        }
    }

    /// Hands every remaining line to `each` with its number, as calling
    /// [`Lines::next_line`] until the end would, but finding the line ends of a whole
    /// buffer in one pass (`memchr_iter`) rather than one search per line: a shell
    /// history is hundreds of thousands of short lines. A line that spans refills (or
    /// ends the input without a `\n`) goes through [`Lines::next_line`].
    pub(crate) fn for_each(&mut self, mut each: impl FnMut(u64, &[u8])) -> io::Result<()> {
        loop {
            self.reader.consume(std::mem::take(&mut self.lent));
            let available = loop {
                match self.reader.fill_buf() {
                    Ok(available) => break available,
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                    Err(error) => return Err(error),
                }
            };
            let mut start = 0;
            for end in memchr::memchr_iter(b'\n', available) {
                self.line_no += 1;
                if end - start > self.limit {
                    self.too_long += 1;
                    if self.first_too_long == 0 {
                        self.first_too_long = self.line_no;
                    }
                } else {
                    each(self.line_no, &available[start..end]);
                }
                start = end + 1;
            }
            if start > 0 {
                self.reader.consume(start);
                continue;
            }
            match self.next_line()? {
                Some(line) => each(line.number, line.bytes),
                None => return Ok(()),
            }
        }
    }

    /// How many lines were skipped for being too long, and the number of the first.
    pub(crate) fn skipped(&self) -> (u64, u64) {
        (self.too_long, self.first_too_long)
    }

    /// The longest line read.
    pub(crate) fn limit(&self) -> usize {
        self.limit
    }

    /// The lines skipped for being too long, as an error naming `path`, if there were any.
    pub(crate) fn too_long(&self, path: &Path) -> Option<Error> {
        (self.too_long > 0).then(|| Error::LinesTooLong {
            path: path.to_path_buf(),
            count: self.too_long,
            line: self.first_too_long,
            limit: self.limit as u64,
        })
    }
}

#[cfg(test)]
mod tests {
    use report_model::FileKind;

    use super::*;

    type Read = (Vec<(u64, String, bool)>, u64, u64);

    fn lines_with(input: &[u8], limit: usize, capacity: usize) -> Read {
        let mut lines = Lines::new(io::BufReader::with_capacity(capacity, input), limit);
        let mut seen = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            seen.push((
                line.number,
                String::from_utf8_lossy(line.bytes).into_owned(),
                line.complete,
            ));
        }
        (seen, lines.too_long, lines.first_too_long)
    }

    /// What [`Lines::for_each`] hands out: the lines and numbers, and the lines skipped.
    fn each_with(input: &[u8], limit: usize, capacity: usize) -> (Vec<(u64, String)>, u64, u64) {
        let mut lines = Lines::new(io::BufReader::with_capacity(capacity, input), limit);
        let mut seen = Vec::new();
        lines
            .for_each(|number, bytes| {
                seen.push((number, String::from_utf8_lossy(bytes).into_owned()));
            })
            .unwrap();
        (seen, lines.too_long, lines.first_too_long)
    }

    /// A read without whether each line ended in `\n` (which `for_each` does not tell).
    fn without_ends(read: &Read) -> (Vec<(u64, String)>, u64, u64) {
        let lines = read.0.iter().map(|(number, text, _)| (*number, text.clone())).collect();
        (lines, read.1, read.2)
    }

    /// The lines of `input`, the same whatever the reader's buffer: a tiny one (lines
    /// span several `fill_buf` calls and are copied) or a large one (lines are lent from
    /// it).
    fn lines(input: &[u8], limit: usize) -> Read {
        let read = lines_with(input, limit, 3);
        for capacity in [1, 3, 7, 64, 8192] {
            if capacity != 3 {
                assert_eq!(lines_with(input, limit, capacity), read, "capacity {capacity}");
            }
            assert_eq!(
                each_with(input, limit, capacity),
                without_ends(&read),
                "capacity {capacity}"
            );
        }
        read
    }

    #[test]
    fn lines_lent_from_the_buffer_and_copied_ones_mix() {
        let input = b"0123456789\nab\n\nlonger than ten bytes\nxyz\n0123456789a\nend";
        let (seen, too_long, first) = lines(input, 10);
        let expected = [(1, "0123456789", true), (2, "ab", true), (3, "", true), (5, "xyz", true)];
        let expected: Vec<_> = expected
            .iter()
            .map(|&(number, text, complete)| (number, text.to_owned(), complete))
            .chain([(7, "end".to_owned(), false)])
            .collect();
        assert_eq!(seen, expected);
        assert_eq!((too_long, first), (2, 4));
    }

    #[test]
    fn long_lines_are_skipped_and_counted() {
        let (seen, too_long, first) = lines(b"short\nmuch too long\nok\nalso too long", 6);
        assert_eq!(seen, [(1, "short".to_owned(), true), (3, "ok".to_owned(), true)]);
        assert_eq!((too_long, first), (2, 2));
    }

    #[test]
    fn lines_skipped_for_their_length_are_one_error_naming_the_file() {
        let mut lines = Lines::new(&b"ok\nmuch too long\nfine\nalso too long\n"[..], 6);
        lines.for_each(|_, _| {}).unwrap();
        let error = lines.too_long(Path::new("/h/.zsh_history")).unwrap();
        assert!(
            matches!(
                &error,
                Error::LinesTooLong { count: 2, line: 2, limit: 6, path }
                    if path == Path::new("/h/.zsh_history")
            ),
            "{error:?}"
        );
        let mut lines = Lines::new(&b"ok\nfine\n"[..], 6);
        lines.for_each(|_, _| {}).unwrap();
        assert!(lines.too_long(Path::new("/h/.zsh_history")).is_none());
    }

    #[test]
    fn blank_lines_and_a_cut_last_line() {
        let (seen, too_long, _) = lines(b"a\n\nlast", 10);
        assert_eq!(
            seen,
            [(1, "a".to_owned(), true), (2, String::new(), true), (3, "last".to_owned(), false)]
        );
        assert_eq!(too_long, 0);
        assert_eq!(lines(b"", 10).0, []);
        assert_eq!(lines(b"exactly6\n", 8).0, [(1, "exactly6".to_owned(), true)]);
    }

    proptest::proptest! {
        /// `for_each` hands out what `next_line` does, line for line, whatever the
        /// lines, the limit and the reader's buffer.
        #[test]
        fn for_each_reads_as_next_line_does(
            input in proptest::collection::vec(proptest::sample::select(vec![b'a', b'b', b'\n']), 0..200),
            limit in 0usize..12,
            capacity in 1usize..40,
        ) {
            let read = lines_with(&input, limit, capacity);
            proptest::prop_assert_eq!(each_with(&input, limit, capacity), without_ends(&read));
        }
    }

    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let guard = crate::test_fifo::Fifo::make(&dir.path().join("fifo"));
        let fifo = guard.path();
        // No writer: a blocking open would never return.
        let error = open(fifo).unwrap_err();
        assert!(matches!(error, Error::NotRegular { kind: FileKind::Fifo, .. }), "{error}");
        assert!(matches!(read_small(fifo, 10), Err(Error::NotRegular { .. })));
        assert!(matches!(regular_metadata(fifo), Err(Error::NotRegular { .. })));
    }

    #[test]
    fn only_regular_files_are_opened() {
        let dir = tempfile::tempdir().unwrap();
        let error = open(dir.path()).unwrap_err();
        assert!(matches!(error, Error::NotRegular { kind: FileKind::Directory, .. }), "{error}");
        let error = open(Path::new("/dev/zero")).unwrap_err();
        assert!(matches!(error, Error::NotRegular { kind: FileKind::CharDevice, .. }), "{error}");
        assert!(open(&dir.path().join("missing")).unwrap_err().is_not_found());
        let file = dir.path().join("f");
        fs_err::write(&file, "0123456789").unwrap();
        assert_eq!(read_small(&file, 10).unwrap(), b"0123456789");
        assert!(matches!(read_small(&file, 9), Err(Error::TooLarge { limit: 9, .. })));
        // Empty, and larger than any first read (read into the room `fstat` gave).
        fs_err::write(&file, "").unwrap();
        assert_eq!(read_small(&file, 10).unwrap(), b"");
        let large: Vec<u8> = (0..300_000_u32).map(|n| n.to_le_bytes()[0]).collect();
        fs_err::write(&file, &large).unwrap();
        assert_eq!(read_small(&file, 300_000).unwrap(), large);
        assert!(matches!(read_small(&file, 299_999), Err(Error::TooLarge { .. })));
    }

    #[test]
    fn read_small_at_reads_regular_files_up_to_the_limit_and_refuses_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let folder = fs_err::File::open(dir.path()).unwrap();
        let folder = std::os::fd::AsFd::as_fd(folder.file());
        fs_err::write(dir.path().join("f"), "0123456789").unwrap();
        // As large as the limit: read; one byte over: refused.
        assert_eq!(read_small_at(folder, "f", 10).unwrap().unwrap(), b"0123456789");
        assert_eq!(read_small_at(folder, "f", 9).unwrap_err().to_string(), "larger than the limit");
        fs_err::write(dir.path().join("empty"), "").unwrap();
        assert_eq!(read_small_at(folder, "empty", 0).unwrap().unwrap(), b"");
        assert!(read_small_at(folder, "missing", 10).unwrap().is_none());
        fs_err::create_dir(dir.path().join("sub")).unwrap();
        assert_eq!(read_small_at(folder, "sub", 10).unwrap_err().to_string(), "not a regular file");
        // No writer: a blocking open would never return.
        let _guard = crate::test_fifo::Fifo::make(&dir.path().join("fifo"));
        assert_eq!(
            read_small_at(folder, "fifo", 10).unwrap_err().to_string(),
            "not a regular file"
        );
    }

    /// A reader over `input`, `capacity` bytes at a time, whose `fill_buf` fails once with
    /// `kind` before each of its first `times` fills after the first `clean` ones
    /// (`usize::MAX`: every fill after those fails). As a `BufReader` does, a call while
    /// bytes are still buffered returns them without reading.
    struct Failing<'a> {
        input: &'a [u8],
        capacity: usize,
        kind: io::ErrorKind,
        clean: usize,
        times: usize,
        buffered: usize,
        failed: bool,
    }

    impl io::Read for Failing<'_> {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            unreachable!("read through BufRead only")
        }
    }

    impl BufRead for Failing<'_> {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            if self.buffered == 0 {
                if self.clean > 0 {
                    self.clean -= 1;
                } else if self.times == usize::MAX {
                    return Err(io::Error::from(self.kind));
                } else if !self.failed && self.times > 0 {
                    self.times -= 1;
                    self.failed = true;
                    return Err(io::Error::from(self.kind));
                }
                self.failed = false;
                self.buffered = self.capacity.min(self.input.len());
            }
            Ok(&self.input[..self.buffered])
        }

        fn consume(&mut self, amount: usize) {
            self.input = &self.input[amount..];
            self.buffered -= amount;
        }
    }

    #[test]
    fn an_interrupted_read_is_tried_again_and_another_error_is_returned() {
        let read = |kind: io::ErrorKind, capacity: usize, each: bool| {
            let input = b"first\nsecond line\n";
            // An interruption passes; another error, from the second fill on (so that
            // with a small buffer it comes in the middle of a line), stays until returned.
            let (clean, times) =
                if kind == io::ErrorKind::Interrupted { (0, 3) } else { (1, usize::MAX) };
            let reader =
                Failing { input, capacity, kind, clean, times, buffered: 0, failed: false };
            let mut lines = Lines::new(reader, 100);
            let mut seen = Vec::new();
            if each {
                let done = lines.for_each(|_, bytes| {
                    seen.push(String::from_utf8_lossy(bytes).into_owned());
                });
                return done.map(|()| seen).map_err(|error| error.kind());
            }
            loop {
                match lines.next_line() {
                    Ok(Some(line)) => seen.push(String::from_utf8_lossy(line.bytes).into_owned()),
                    Ok(None) => return Ok(seen),
                    Err(error) => return Err(error.kind()),
                }
            }
        };
        // Lines lent whole from the buffer, and lines copied across fills; one at a time
        // and all of them.
        for (capacity, each) in [(64, false), (4, false), (64, true), (4, true)] {
            assert_eq!(
                read(io::ErrorKind::Interrupted, capacity, each),
                Ok(vec!["first".to_owned(), "second line".to_owned()]),
                "capacity {capacity}, for_each {each}"
            );
            assert_eq!(
                read(io::ErrorKind::PermissionDenied, capacity, each),
                Err(io::ErrorKind::PermissionDenied),
                "capacity {capacity}, for_each {each}"
            );
        }
    }
}
