//! Tests of the cursor reader (see crates/collect/src/sessions/cursor.rs).
