//! Tests of the droid reader (see crates/collect/src/sessions/droid.rs).
