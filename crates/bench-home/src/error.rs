//! Errors of the generator.

use std::path::PathBuf;

/// What can go wrong while generating or loading a bench home.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or folder could not be read or written (the source names the path).
    #[error("file system error")]
    Io(#[from] std::io::Error),
    /// The git program could not be started.
    #[error("cannot run `git {args}` (is git on PATH?)")]
    GitSpawn {
        /// The git arguments.
        args: String,
        /// What the OS said.
        #[source]
        source: std::io::Error,
    },
    /// git ran but failed.
    #[error("`git {args}` failed in `{}`: {stderr}", .dir.display())]
    Git {
        /// The git arguments.
        args: String,
        /// The repository it ran in.
        dir: PathBuf,
        /// The first lines git wrote to stderr.
        stderr: String,
    },
    /// `manifest.json` is not a manifest of this generator.
    #[error("cannot parse manifest `{}`", .path.display())]
    Manifest {
        /// The manifest file.
        path: PathBuf,
        /// What serde_json said.
        #[source]
        source: serde_json::Error,
    },
    /// The output folder holds a `home` this generator did not make, so it is not
    /// replaced.
    #[error("refusing to replace `{}`: it has no `.bench-home` marker, so bench-home did not make it", .path.display())]
    NotOurs {
        /// The folder that would have been replaced.
        path: PathBuf,
    },
    /// Time zone or calendar arithmetic failed (a bug: every date is fixed).
    #[error("calendar arithmetic failed")]
    Time(#[source] jiff::Error),
    /// A generation thread panicked (a bug).
    #[error("a generator thread panicked")]
    Panicked,
}
