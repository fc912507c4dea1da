//! git repositories.
