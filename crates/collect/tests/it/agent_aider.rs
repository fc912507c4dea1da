//! Tests of the aider reader (see crates/collect/src/sessions/aider.rs).
