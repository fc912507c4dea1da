//! Integration tests of the collect crate.

mod env_vars;
mod sessions;
mod shell;
