//! AI coding-agent session logs.
