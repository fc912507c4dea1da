//! Tests of the opencode reader (see crates/collect/src/sessions/opencode.rs).
