//! Integration tests: the real `standup` binary on real git repositories built with the
//! git CLI in temporary homes, with the clock, time zone and home pinned.

mod agent_failures;
mod agents;
mod atomic;
mod bench_home;
mod blockers;
mod cli;
mod cli_native;
mod config;
mod formats;
mod forward;
mod full_home;
mod git;
mod git_processes;
mod hostile_home;
mod identities;
mod machines;
mod mcp;
mod names;
mod narrative;
mod narrative_eval;
mod next_steps;
mod notes;
mod readme;
mod schedule;
mod secrets;
mod snapshots;
mod sources;
mod special_files;
mod support;
mod team;
mod templates;
mod warnings_ja;
mod windows;
mod wip;
