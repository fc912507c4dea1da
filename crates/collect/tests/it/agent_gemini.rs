//! Tests of the gemini reader (see crates/collect/src/sessions/gemini.rs).
