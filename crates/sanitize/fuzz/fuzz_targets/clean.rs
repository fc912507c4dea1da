//! Fuzzes `sanitize::clean` and `sanitize::cap`: no panic, idempotence, and nothing
//! removable left in the output.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let once = sanitize::clean(&text);
    let twice = sanitize::clean(&once);
    assert_eq!(once, twice, "clean is not idempotent");
    assert!(
        !once.chars().any(|c| (c.is_control() && c != '\n' && c != '\t')
            || c == '\u{200b}'
            || c == '\u{202e}'),
        "clean left a control character"
    );
    let max_chars = data.first().map_or(0, |&byte| usize::from(byte));
    let (capped, _) = sanitize::cap(&once, max_chars);
    assert!(capped.chars().count() <= max_chars);
});
