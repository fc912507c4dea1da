//! Integration tests of the collect crate.

mod git_limits;
mod sessions;
mod shell;
