use std::borrow::Cow;

use sanitize::clean;

#[track_caller]
fn check(input: &str, expected: &str) {
    let cleaned = clean(input);
    assert_eq!(cleaned, expected, "input {input:?}");
    assert!(matches!(cleaned, Cow::Owned(_)), "input {input:?} should have changed");
    assert_eq!(clean(&cleaned), cleaned, "not idempotent on {input:?}");
}

#[test]
fn clean_text_is_borrowed() {
    for text in [
        "",
        "plain",
        "tab\tand\nnewline",
        "日本語のテキスト",
        "café ñ",
        "emoji 🎉👍🏽",
        "\u{a0}\u{2014}\u{ff01}",
    ] {
        assert!(matches!(clean(text), Cow::Borrowed(t) if t == text), "{text:?}");
    }
}

#[test]
fn csi_sequences() {
    let cases = [
        ("a\u{1b}[31mb\u{1b}[0m", "ab"),        // SGR colour
        ("\u{1b}[1;32;48;5;21mgreen", "green"), // several parameters
        ("\u{1b}[?25lhidden cursor\u{1b}[?25h", "hidden cursor"), // private parameters
        ("\u{1b}[2 qbar", "bar"),               // intermediate byte (DECSCUSR)
        ("x\u{1b}[2J\u{1b}[Hy", "xy"),          // clear screen, home
        ("a\u{9b}31mb\u{9b}0m", "ab"),          // 8-bit CSI
        ("a\u{1b}[31", "a"),                    // unterminated
        ("a\u{9b}", "a"),                       // unterminated 8-bit
        ("a\u{1b}[31\u{e9}b", "a\u{e9}b"),      // malformed: ends at a non-CSI character
        ("\u{1b}[1 !px", "x"),                  // two intermediate bytes (DECSTR-like)
        ("\u{1b}[ !q", ""),                     // intermediates without parameters
        ("a\u{1b}[ 1mb", "a1mb"),               // a parameter after an intermediate aborts
        ("a\u{1b}[ \u{e9}b", "a\u{e9}b"),       // so does any other character
        ("\u{1b}[ ", ""),                       // unterminated after an intermediate
        ("\u{1b}[1;2 ~x", "x"),                 // the final byte `~` (0x7E)
        ("\u{1b}[@x", "x"),                     // the final byte `@` (0x40)
        ("a\u{1b}[1\u{7f}b", "ab"),             // DEL is no final byte
    ];
    for (input, expected) in cases {
        check(input, expected);
    }
}

#[test]
fn osc_sequences() {
    let cases = [
        ("\u{1b}]0;title\u{7}text", "text"),    // BEL-terminated
        ("\u{1b}]0;title\u{1b}\\text", "text"), // ST-terminated
        ("\u{1b}]2;title\u{9c}text", "text"),   // 8-bit ST
        ("\u{9d}0;title\u{7}text", "text"),     // 8-bit OSC, BEL
        ("\u{9d}0;title\u{9c}text", "text"),    // 8-bit OSC, 8-bit ST
        ("\u{1b}]8;;https://evil.example/x\u{1b}\\click\u{1b}]8;;\u{1b}\\", "click"), // OSC 8 link
        ("\u{1b}]8;id=1;https://evil.example\u{7}click\u{1b}]8;;\u{7}", "click"),
        ("before\u{1b}]52;c;ZWNobyBwd25lZA==\u{7}after", "beforeafter"), // OSC 52 clipboard write
        ("\u{1b}]52;p;?\u{1b}\\after", "after"),                         // OSC 52 clipboard query
        ("a\u{1b}]0;title never ends", "a"),                             // unterminated
        ("a\u{9d}0;title never ends\nnext line", "a"),                   // unterminated, 8-bit
        ("\u{1b}]0;t\u{1b}[31mred", "red"),                              // ESC aborts the string
        ("\u{1b}]0;t\u{1b}", ""),                                        // ESC at the very end
    ];
    for (input, expected) in cases {
        check(input, expected);
    }
}

#[test]
fn dcs_apc_pm_sos_strings() {
    let cases = [
        ("\u{1b}Pq#0;2;0;0;0#0~~\u{1b}\\x", "x"), // DCS (sixel)
        ("\u{90}q#0;2\u{9c}x", "x"),              // 8-bit DCS
        ("\u{1b}_Gf=100;AAAA\u{1b}\\x", "x"),     // APC (kitty graphics)
        ("\u{9f}payload\u{9c}x", "x"),            // 8-bit APC
        ("\u{1b}^privacy message\u{1b}\\x", "x"), // PM
        ("\u{9e}pm\u{9c}x", "x"),                 // 8-bit PM
        ("\u{1b}Xstart of string\u{1b}\\x", "x"), // SOS
        ("\u{98}sos\u{9c}x", "x"),                // 8-bit SOS
        ("\u{1b}Pbell does not end a DCS\u{7}still inside\u{1b}\\x", "x"),
        ("a\u{1b}Pnever terminated", "a"), // unterminated
        ("a\u{1b}_never terminated", "a"),
    ];
    for (input, expected) in cases {
        check(input, expected);
    }
}

#[test]
fn other_escape_sequences() {
    let cases = [
        ("\u{1b}(Bx", "x"),            // designate G0 charset (intermediate + final)
        ("\u{1b}7x\u{1b}8", "x"),      // save / restore cursor
        ("\u{1b}cx", "x"),             // full reset
        ("\u{1b}=x\u{1b}>", "x"),      // keypad modes
        ("\u{1b}Mx", "x"),             // reverse index
        ("x\u{1b}", "x"),              // ESC at the end
        ("\u{1b}\u{e9}", "\u{e9}"),    // ESC before a non-ASCII character: only ESC goes
        ("\u{1b}\nx", "\nx"),          // ESC before newline
        ("\u{1b}\u{1b}[31mx", "x"),    // ESC ESC
        ("\u{1b}(", ""),               // unterminated
        ("\u{1b}  (Bx", "x"),          // two intermediate bytes, then the final
        ("\u{1b}(\u{e9}x", "\u{e9}x"), // an intermediate, then no final: only ESC ( goes
        ("\u{1b}( \nx", "\nx"),        // intermediates, then a newline
        ("a\u{1b}(\u{7f}b", "ab"),     // DEL is no final byte, and is removed itself
    ];
    for (input, expected) in cases {
        check(input, expected);
    }
}

#[test]
fn c0_c1_and_del() {
    let cases = [
        ("a\u{7}b", "ab"),
        ("a\u{0}b", "ab"),
        ("a\u{8}b", "ab"),
        ("a\u{b}b\u{c}c", "abc"),
        ("a\u{7f}b", "ab"),
        ("a\u{85}b", "ab"), // NEL
        ("a\u{9c}b", "ab"), // a stray ST
        ("a\u{80}\u{81}\u{8d}b", "ab"),
        ("a\u{9f}b", "a"), // U+009F is the 8-bit APC: the rest is its unterminated string
        ("a\u{1a}\u{18}b", "ab"),
    ];
    for (input, expected) in cases {
        check(input, expected);
    }
}

#[test]
fn carriage_returns() {
    check("a\r\nb\r\n", "a\nb\n");
    check("a\rb", "ab");
    check("\r", "");
    check("progress 10%\rprogress 100%", "progress 10%progress 100%");
    check("a\r\r\nb", "a\nb");
}

#[test]
fn bidi_controls() {
    for code in [
        0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f,
        0x061c,
    ] {
        let c = char::from_u32(code).unwrap();
        check(&format!("a{c}b"), "ab");
    }
    // "Trojan Source": the comment hides code behind a right-to-left override.
    check(
        "/* \u{202e} } \u{2066}if (isAdmin)\u{2069} \u{2066} begin admins only */",
        "/*  } if (isAdmin)  begin admins only */",
    );
}

#[test]
fn invisible_characters() {
    for code in [0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0xe0000, 0xe0001, 0xe0041, 0xe007f] {
        let c = char::from_u32(code).unwrap();
        check(&format!("a{c}b"), "ab");
    }
    // ASCII smuggled in tag characters ("hi" as U+E0068 U+E0069).
    check("ok\u{e0068}\u{e0069}", "ok");
}

#[test]
fn every_default_ignorable_code_point_goes() {
    // The ones the sanitizer used to keep, then every one of them between two letters.
    for code in [
        0xad, 0x34f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180e, 0x2061, 0x2062, 0x2063, 0x2064,
        0x206a, 0x206f, 0x3164, 0xffa0, 0xfff0, 0xfff8, 0x1bca0, 0x1d173, 0xe0080, 0xe0fff,
    ] {
        let c = char::from_u32(code).unwrap();
        check(&format!("a{c}b"), "ab");
        check(&format!("日{c}本"), "日本");
    }
    for c in
        (0..=u32::from(char::MAX)).filter_map(char::from_u32).filter(|&c| crate::is_ignorable(c))
    {
        check(&format!("ab{c}cd"), "abcd");
    }
    // Interlinear annotation controls hide the annotated text in some renderers.
    check("a\u{fff9}b\u{fffa}c\u{fffb}d", "abcd");
}

#[test]
fn joiners_stay_inside_emoji_sequences_only() {
    let kept = [
        "👨\u{200d}💻",
        "👩\u{1f3fd}\u{200d}🚀",
        "❤\u{fe0f}\u{200d}🔥",
        "👨\u{200d}👩\u{200d}👧\u{200d}👦",
        "🏳\u{fe0f}\u{200d}🌈",
    ];
    for text in kept {
        assert!(matches!(clean(text), Cow::Borrowed(t) if t == text), "{text:?}");
    }
    check("a\u{200d}b", "ab");
    check("👨\u{200d}", "👨");
    check("\u{200d}💻", "💻");
    check("👨\u{200d}x", "👨x");
    check("x\u{200d}💻", "x💻");
    check("👨\u{200d}\u{200d}💻", "👨\u{200d}💻");
    check("👨\u{200d}\u{200b}💻", "👨💻");
    check("日\u{200d}本", "日本");
}

#[test]
fn one_variation_selector_after_a_character_that_takes_one() {
    let kept = [
        "❤\u{fe0f}",
        "☺\u{fe0e}",
        "1\u{fe0f}\u{20e3}",
        "#\u{fe0f}\u{20e3}",
        "\u{845b}\u{e0100}",
        "\u{2229}\u{fe00}",
        "\u{1820}\u{180b}",
    ];
    for text in kept {
        assert!(matches!(clean(text), Cow::Borrowed(t) if t == text), "{text:?}");
    }
    // Runs of selectors (ten of them carry hidden bytes) shrink to one, and none stays
    // after ASCII letters, spaces or another invisible character.
    let smuggled: String = std::iter::once('❤')
        .chain((0..10).map(|idx| char::from_u32(0xe0100 + idx).unwrap()))
        .collect();
    check(&smuggled, "❤");
    let smuggled: String = std::iter::once('❤')
        .chain((0..10).map(|idx| char::from_u32(0xfe00 + idx).unwrap()))
        .collect();
    check(&smuggled, "❤\u{fe00}");
    check("fix\u{fe0f}\u{fe0f}\u{fe0f} login", "fix login");
    check("a\u{fe00}b", "ab");
    check(" \u{fe0f}", " ");
    check("\u{fe0f}start", "start");
    check("a\u{e0100}", "a");
    check("❤\u{fe0f}\u{fe0f}", "❤\u{fe0f}");
    check("❤\u{200b}\u{fe0f}", "❤\u{fe0f}");
    check("a\u{180b}", "a");
    check("\u{845b}\u{e0100}\u{e0101}", "\u{845b}\u{e0100}");
    // Never inside a token: after a digit outside a keycap, after a full-width form or a
    // letter of another script (the secret rules fold those to ASCII).
    check("ghp_ab4\u{fe0f}z", "ghp_ab4z");
    check("1\u{fe0f}", "1");
    check("\u{ff47}\u{fe0f}\u{ff48}", "\u{ff47}\u{ff48}");
    check("\u{ff3f}\u{fe0f}x", "\u{ff3f}x");
    check("p\u{430}\u{fe00}ss", "p\u{430}ss");
    check("\u{e9}\u{fe0f}", "\u{e9}");
    // Nor after a space of any kind, a tab or a newline.
    check("\u{3000}\u{fe0f}x", "\u{3000}x");
    check("\u{2003}\u{fe00}", "\u{2003}");
    check("\t\u{fe0f}\n\u{fe0f}", "\t\n");
}

#[test]
fn keeps_text_around_everything() {
    check(
        "\u{feff}\u{1b}[1mBold\u{1b}[0m title\r\n\u{1b}]8;;https://x.example\u{7}link\u{1b}]8;;\u{7} 日本\u{200b}語\t✓",
        "Bold title\nlink 日本語\t✓",
    );
}
