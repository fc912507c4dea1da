//! Tests of the copilot reader (see crates/collect/src/sessions/copilot.rs).
