//! Tests of the claude reader (see crates/collect/src/sessions/claude.rs).
