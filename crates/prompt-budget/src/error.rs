//! The error type of `prompt-budget`.

/// What can go wrong while building tiers or fitting a payload.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A path pattern is not a JSON pointer with optional `*` segments.
    #[error("path pattern `{pattern}` is invalid: {reason}")]
    InvalidPattern {
        /// The pattern as given.
        pattern: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A tier's mark pattern does not name an ancestor of its target pattern.
    #[error(
        "tier `{tier}`: mark pattern `{mark}` is not a proper prefix of target pattern `{target}`"
    )]
    MarkNotAncestor {
        /// The tier's name.
        tier: String,
        /// The mark pattern.
        mark: String,
        /// The target pattern.
        target: String,
    },
    /// The formatter failed while writing the payload.
    #[error("cannot serialize the payload")]
    Serialize(#[source] serde_json::Error),
}
