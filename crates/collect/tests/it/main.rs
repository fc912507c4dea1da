//! Integration tests of the collect crate.

mod discover;
mod env_vars;
mod git_limits;
mod sessions;
mod shell;
