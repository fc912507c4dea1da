//! Tests of the codex reader (see crates/collect/src/sessions/codex.rs).
