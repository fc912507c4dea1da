//! Integration tests of the collect crate.

mod agent_aider;
mod agent_amp;
mod agent_claude;
mod agent_cline;
mod agent_cline_tasks;
mod agent_codex;
mod agent_continue;
mod agent_copilot;
mod agent_cursor;
mod agent_droid;
mod agent_gemini;
mod agent_goose;
mod agent_gptme;
mod agent_kimi;
mod agent_opencode;
mod agent_pi;
mod agent_qwen;
mod agent_vscode_chat;
mod discover;
mod env_vars;
mod fifo;
mod git_limits;
mod recorded;
mod sessions;
mod shell;
mod support;
