use super::{SUSPECT, first_suspect, is_removed};

#[test]
fn every_removed_char_starts_with_a_suspect_byte() {
    // The fast path only decodes characters whose first byte is in `SUSPECT`; a removed
    // character outside it would slip through untouched.
    let mut buf = [0u8; 4];
    for c in (0..=u32::from(char::MAX)).filter_map(char::from_u32) {
        if is_removed(c) {
            let first = c.encode_utf8(&mut buf).as_bytes()[0];
            assert!(
                SUSPECT[usize::from(first)],
                "U+{:04X} may be removed but its lead byte is not suspect",
                u32::from(c)
            );
        }
    }
}

#[test]
fn tab_and_newline_are_not_suspect() {
    assert!(!SUSPECT[usize::from(b'\t')]);
    assert!(!SUSPECT[usize::from(b'\n')]);
    assert!(SUSPECT[usize::from(b'\r')]);
    assert!(SUSPECT[0x1b]);
}

#[test]
fn first_suspect_skips_harmless_chars_with_suspect_lead_bytes() {
    // U+00E9 (0xC3) is not suspect at all; U+00A0 (0xC2 0xA0), U+2014 (0xE2 0x80 0x94)
    // and U+FF01 (0xEF 0xBC 0x81) share a suspect lead byte but are kept.
    assert_eq!(first_suspect("caf\u{e9}\u{a0}\u{2014}\u{ff01}"), None);
    assert_eq!(first_suspect("ab\u{2014}\u{200b}"), Some(5));
    assert_eq!(first_suspect("\u{1b}"), Some(0));
}

#[test]
fn suspect_bytes_are_exactly_the_lead_bytes_of_removed_chars() {
    // Not one more: a byte marked suspect for nothing sends clean text down the slow path.
    let mut expected = [false; 256];
    let mut buf = [0u8; 4];
    for c in (0..=u32::from(char::MAX)).filter_map(char::from_u32) {
        if is_removed(c) {
            expected[usize::from(c.encode_utf8(&mut buf).as_bytes()[0])] = true;
        }
    }
    for byte in 0..256 {
        assert_eq!(SUSPECT[byte], expected[byte], "byte {byte:#04x}");
    }
    assert!(!SUSPECT[usize::from(b' ')]);
}
