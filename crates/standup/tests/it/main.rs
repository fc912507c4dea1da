//! Integration tests: the real `standup` binary on real git repositories built with the
//! git CLI in temporary homes, with the clock, time zone and home pinned.

mod cli;
mod config;
mod git;
mod snapshots;
mod support;
