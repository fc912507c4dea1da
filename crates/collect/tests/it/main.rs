//! Integration tests of the collect crate.

mod sessions;
mod shell;
