//! Fuzzes `Redactor::redact` with the built-in rules: no panic, idempotence, and a count
//! that matches what changed.

#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use redact::Redactor;

fn redactor() -> &'static Redactor {
    static REDACTOR: OnceLock<Redactor> = OnceLock::new();
    REDACTOR.get_or_init(Redactor::builtin)
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (once, n_once) = redactor().redact(&text);
    assert_eq!(n_once == 0, once == text, "the count disagrees with the text");
    let (twice, n_twice) = redactor().redact(&once);
    assert_eq!(once, twice, "redact is not idempotent");
    assert_eq!(n_twice, 0);
});
