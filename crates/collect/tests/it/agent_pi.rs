//! Tests of the pi reader (see crates/collect/src/sessions/pi.rs).
