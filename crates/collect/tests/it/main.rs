//! Integration tests of the collect crate.

mod git;
mod sessions;
mod shell;
