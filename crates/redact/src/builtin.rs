//! The built-in ruleset: `rules/builtin.toml`, in gitleaks' rule format, embedded at
//! build time and parsed once per process (see that file for how the rules are written,
//! and `rules_file` for how it is read).

use std::sync::OnceLock;

use crate::rules_file::{self, FileRule};

/// The built-in rules file.
pub(crate) const BUILTIN_TOML: &str = include_str!("../rules/builtin.toml");

/// The built-in rules, in order, parsed on the first call.
pub(crate) fn builtin() -> Vec<FileRule> {
    static RULES: OnceLock<Vec<FileRule>> = OnceLock::new();
    RULES
        .get_or_init(|| {
            // Tested to parse (`tests::every_builtin_rule_compiles`): a failure is a bug
            // in this crate, not something input can cause.
            rules_file::parse(BUILTIN_TOML, false).expect("rules/builtin.toml parses").rules
        })
        .clone()
}
