//! Integration tests of `redact`'s public API.

use std::sync::OnceLock;

use redact::Redactor;

mod api;
mod kinds;
mod near_misses;
mod negatives;
mod props;
mod rules;

/// The built-in redactor, compiled once for all tests.
pub(crate) fn builtin() -> &'static Redactor {
    static REDACTOR: OnceLock<Redactor> = OnceLock::new();
    REDACTOR.get_or_init(Redactor::builtin)
}

/// A deterministic pseudo-random string of `len` characters from `alphabet`, so that
/// test tokens have the entropy of real ones without any real token in the source.
pub(crate) fn random(alphabet: &str, len: usize, seed: u64) -> String {
    let alphabet: Vec<char> = alphabet.chars().collect();
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            // xorshift64*
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            let value = state.wrapping_mul(0x2545_F491_4F6C_DD1D);
            alphabet[usize::try_from(value >> 33).unwrap() % alphabet.len()]
        })
        .collect()
}

pub(crate) const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
pub(crate) const URLSAFE: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
pub(crate) const HEX: &str = "0123456789abcdef";
pub(crate) const BASE64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
