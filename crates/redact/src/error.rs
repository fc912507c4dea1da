//! The errors of building a [`Redactor`](crate::Redactor).

/// Why a set of rules could not be built into a [`Redactor`](crate::Redactor).
///
/// Messages name the rule, never its pattern: a pattern written by hand may hold the very
/// secret it is meant to find.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A rule id is empty or uses characters other than lower-case ASCII letters, digits,
    /// `-`, `_` and `.` (it must start with a letter or a digit).
    #[error(
        "rule id `{id}` is not valid (expected lower-case letters, digits, `-`, `_` or `.`, starting with a letter or digit)"
    )]
    InvalidRuleId {
        /// The id as given.
        id: String,
    },
    /// Two rules share an id (user rules cannot reuse a built-in id).
    #[error("rule id `{id}` is used by more than one rule")]
    DuplicateRuleId {
        /// The id.
        id: String,
    },
    /// A rule's regex does not compile or is too big.
    #[error(
        "rule `{id}`: the regex does not compile (the pattern is not shown: it may hold secret text)"
    )]
    InvalidRegex {
        /// The rule id.
        id: String,
    },
    /// `secret_group` names a capture group the regex does not have.
    #[error("rule `{id}`: secret_group {group} does not exist (the regex has groups 0 to {last})")]
    SecretGroupOutOfRange {
        /// The rule id.
        id: String,
        /// The group asked for.
        group: usize,
        /// The highest group number the regex has.
        last: usize,
    },
    /// `entropy` is negative or not a number.
    #[error("rule `{id}`: entropy must be a number of bits per character, 0 or more")]
    InvalidEntropy {
        /// The rule id.
        id: String,
    },
    /// A keyword is the empty string (it would match everywhere, defeating the prefilter).
    #[error("rule `{id}`: a keyword is empty")]
    EmptyKeyword {
        /// The rule id.
        id: String,
    },
    /// The keywords of all rules together are too many or too long for the keyword
    /// automaton.
    #[error("the rules' keywords are too many or too long to build the keyword automaton")]
    TooManyKeywords,
    /// An allow-list literal is the empty string (every secret contains it).
    #[error("an allow-list literal is empty (it would let every secret through)")]
    EmptyAllow,
    /// A rule file (gitleaks' format, see [`RedactorBuilder::rules_toml`]) is not valid
    /// TOML or has a key of the wrong type.
    ///
    /// [`RedactorBuilder::rules_toml`]: crate::RedactorBuilder::rules_toml
    #[error("rule file, line {line}: {message}")]
    InvalidRuleFile {
        /// The line (1 for the first; 0 when the error has no place).
        line: usize,
        /// What is wrong.
        message: String,
    },
}
