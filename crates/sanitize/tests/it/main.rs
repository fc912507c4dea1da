//! Integration tests of `sanitize`'s public API.

mod cap;
mod clean;
mod markdown;
mod props;

/// Every character `clean` must remove, written out from the specification (not
/// copied from the implementation), so the tests check one against the other.
pub(crate) fn is_forbidden(c: char) -> bool {
    let code = u32::from(c);
    (code < 0x20 && c != '\n' && c != '\t')
        || (0x7f..=0x9f).contains(&code)
        || (0x202a..=0x202e).contains(&code)
        || (0x2066..=0x2069).contains(&code)
        || matches!(code, 0x200e | 0x200f | 0x061c)
        || (0x200b..=0x200d).contains(&code)
        || matches!(code, 0x2060 | 0xfeff)
        || (0xe0000..=0xe007f).contains(&code)
}
