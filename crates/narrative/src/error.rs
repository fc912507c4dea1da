//! The error type of `narrative`.

/// Why a prompt could not be built. [`narrate`](crate::narrate) never returns it: it becomes
/// an `llm_failed` warning.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The payload would carry a `<` (or the final redaction changed the message's frame),
    /// so it could close the `<data>` block; nothing is sent.
    #[error("the prompt payload is not safe to send: {reason}")]
    UnsafePayload {
        /// What the guard found.
        reason: &'static str,
    },
    /// The payload could not be fitted into the budget.
    #[error("cannot fit the prompt payload into its budget")]
    Budget(#[source] prompt_budget::Error),
}
