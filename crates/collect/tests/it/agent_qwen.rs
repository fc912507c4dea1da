//! Tests of the qwen reader (see crates/collect/src/sessions/qwen.rs).
