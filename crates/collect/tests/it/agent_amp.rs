//! Tests of the amp reader (see crates/collect/src/sessions/amp.rs).
