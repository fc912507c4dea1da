//! The checks a candidate secret must pass before it is masked.

use aho_corasick::AhoCorasick;

/// `c * log2(c)` for counts up to 64, the common case, so that the entropy of a
/// token costs one logarithm instead of one per distinct byte.
#[expect(clippy::unreadable_literal, reason = "generated values")]
const C_LOG2_C: [f64; 65] = [
    0.0,
    0.0,
    2.0,
    4.754887502163468,
    8.0,
    11.60964047443681,
    15.509775004326936,
    19.651484454403228,
    24.0,
    28.52932501298081,
    33.219280948873624,
    38.05374780501027,
    43.01955000865387,
    48.105716335834195,
    53.302968908806456,
    58.60335893412778,
    64.0,
    69.48686830125577,
    75.05865002596161,
    80.71062275542812,
    86.43856189774725,
    92.23866587835397,
    98.10749561002054,
    104.0419249893113,
    110.03910001730775,
    116.09640474436812,
    122.21143267166839,
    128.38196255841365,
    134.6059378176129,
    140.88144885869957,
    147.20671786825557,
    153.58008562199313,
    160.0,
    166.46500593882897,
    172.97373660251154,
    179.5249055930738,
    186.11730005192322,
    192.74977452827116,
    199.42124551085624,
    206.1306865356277,
    212.8771237954945,
    219.65963218934144,
    226.47733175670794,
    233.3293844521902,
    240.21499122004107,
    247.13338933483536,
    254.0838499786226,
    261.06567602884894,
    268.0782000346155,
    275.1207823616452,
    282.1928094887362,
    289.29369244054624,
    296.42286534333675,
    303.57978409184955,
    310.7639251168273,
    317.9747842438563,
    325.2118756352258,
    332.47473080739024,
    339.76289771739914,
    347.07593991234864,
    354.41343573651113,
    361.7749775913361,
    369.16017124398627,
    376.56863518049477,
    384.0,
];

/// `count * log2(count)`.
fn c_log2_c(count: u32) -> f64 {
    match C_LOG2_C.get(count as usize) {
        Some(&value) => value,
        None => f64::from(count) * f64::from(count).log2(),
    }
}

/// Shannon entropy of `text` in bits per byte.
///
/// Counted over bytes, which for the ASCII alphabets of tokens is the same as over
/// characters. Uses `H = log2(n) - sum(c * log2(c)) / n` over the byte counts `c`.
pub(crate) fn shannon_entropy(text: &str) -> f64 {
    let Ok(len) = u32::try_from(text.len()) else {
        // Longer than any secret: certainly not a low-entropy placeholder.
        return f64::INFINITY;
    };
    if len == 0 {
        return 0.0;
    }
    let mut counts = [0u32; 256];
    for &byte in text.as_bytes() {
        counts[usize::from(byte)] += 1;
    }
    // Visit each distinct byte once, through the text rather than the whole table.
    let mut sum = 0.0;
    for &byte in text.as_bytes() {
        let count = &mut counts[usize::from(byte)];
        if *count > 0 {
            sum += c_log2_c(*count);
            *count = 0;
        }
    }
    let len = f64::from(len);
    (len.log2() - sum / len).max(0.0)
}

/// Whether `value` is a reference or a stand-in rather than a secret, in any rule:
/// `$VAR`, `${VAR}`, `$1`, `${1}`, `$@`, `$(cmd)`, `${{ expr }}`, `{{ expr }}`,
/// `<placeholder>` (and its tail `password>`, as in `<user:password>`), `[PASSWORD]`,
/// `%VAR%`, `@VAR@`, only mask characters (`***`, `xxxx`, `....`), one character
/// repeated (`yyy`), or a documented example key (`AKIAIOSFODNN7EXAMPLE`).
pub(crate) fn is_structural_placeholder(value: &str) -> bool {
    is_reference(value)
        || is_documented_example(value)
        || is_repeated(value)
        || has_alphabet_run(value)
        || ends_in_words(value)
}

/// The length of a run of letters in alphabetical order that marks a made-up value.
/// Ten letters in a row (`klmnopqrst`) come by chance once in about 10^17 positions of a
/// random token; people typing a fake one write the alphabet.
const ALPHABET_RUN: usize = 10;

/// Whether `value` holds [`ALPHABET_RUN`] letters in alphabetical order, in one case:
/// `sk_abcdefghijklmnopqrstuvwxyz123`, `…-klmnopqrstuvwx-…`.
fn has_alphabet_run(value: &str) -> bool {
    let mut run = 1;
    let mut previous = 0_u8;
    for &byte in value.as_bytes() {
        let follows = byte.is_ascii_alphabetic()
            && previous.is_ascii_alphabetic()
            && byte == previous + 1
            && byte.is_ascii_uppercase() == previous.is_ascii_uppercase();
        run = if follows { run + 1 } else { 1 };
        if run >= ALPHABET_RUN {
            return true;
        }
        previous = byte;
    }
    false
}

/// Whether `value`, after its last separator (`-`, `_`, `.`, `:`), is three or more
/// capitalised words and nothing else: `xoxe.xoxp-1-SlackAppConfigurationAccessTokenHere`,
/// `clm1:AgencyIdentificationCodeContentType` (a type name). A random tail has a digit
/// or an upper-case letter not followed by two lower-case ones almost always. A value
/// without a separator (a passphrase such as `CorrectHorseBatteryStaple`) is left to
/// the other checks.
fn ends_in_words(value: &str) -> bool {
    let Some(at) = value.rfind(['-', '_', '.', ':']) else {
        return false;
    };
    let tail = &value.as_bytes()[at + 1..];
    if tail.len() < 12 {
        return false;
    }
    let mut words = 0;
    let mut idx = 0;
    while idx < tail.len() {
        if !tail[idx].is_ascii_uppercase() {
            return false;
        }
        let lower = tail[idx + 1..].iter().take_while(|byte| byte.is_ascii_lowercase()).count();
        if lower < 2 {
            return false;
        }
        words += 1;
        idx += 1 + lower;
    }
    words >= 3
}

/// AWS documents its example keys with `EXAMPLE` at the end (`AKIAIOSFODNN7EXAMPLE`,
/// `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`); gitleaks allows them the same way.
fn is_documented_example(value: &str) -> bool {
    value.ends_with("EXAMPLE") || value.ends_with("EXAMPLEKEY")
}

/// One character repeated: `yyy`, `0000`.
fn is_repeated(value: &str) -> bool {
    let mut chars = value.chars();
    chars.next().is_some_and(|first| chars.all(|c| c == first))
}

/// The references and bracketed stand-ins of [`is_structural_placeholder`].
fn is_reference(value: &str) -> bool {
    let bytes = value.as_bytes();
    let is_ident = |s: &str| {
        let mut chars = s.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    match bytes.first() {
        Some(b'$') => {
            let rest = &value[1..];
            let positional = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            is_ident(rest)
                || positional(rest)
                || matches!(rest, "@" | "*" | "#")
                || (rest.starts_with('{') && rest.ends_with('}'))
                || (rest.starts_with('(') && rest.ends_with(')'))
        }
        Some(b'{') => value.starts_with("{{") && value.ends_with("}}"),
        Some(b'<') => value.ends_with('>'),
        Some(b'[') => {
            value.len() > 2
                && value.ends_with(']')
                && value[1..value.len() - 1]
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b' ' | b'.'))
        }
        Some(b'%') => {
            value.len() > 2 && value.ends_with('%') && is_ident(&value[1..value.len() - 1])
        }
        Some(b'@') => {
            value.len() > 2 && value.ends_with('@') && is_ident(&value[1..value.len() - 1])
        }
        Some(_) => {
            value.chars().all(|c| matches!(c, '*' | 'x' | 'X' | '.' | '#' | '•' | '-' | '_'))
                || value.strip_suffix('>').is_some_and(|tail| {
                    !tail.is_empty()
                        && tail
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
                })
        }
        None => true,
    }
}

/// Whole values (compared ignoring ASCII case) that the generic rules never mask: type
/// names, booleans and the words people write instead of a real secret.
const PLACEHOLDER_VALUES: &[&str] = &[
    "also",
    "any",
    "arg",
    "argument",
    "arguments",
    "bool",
    "boolean",
    "bytes",
    "changeit",
    "changeme",
    "dummy",
    "empty",
    "example",
    "false",
    "field",
    "flag",
    "flags",
    "handling",
    "hidden",
    "int",
    "masked",
    "nil",
    "none",
    "null",
    "number",
    "object",
    "option",
    "optional",
    "options",
    "param",
    "parameter",
    "parameters",
    "params",
    "pass",
    "passwd",
    "password",
    "placeholder",
    "prompt",
    "pwd",
    "redacted",
    "required",
    "sample",
    "str",
    "string",
    "support",
    "switch",
    "tbd",
    "test",
    "todo",
    "token",
    "true",
    "undefined",
    "unset",
    "usage",
    "user",
    "value",
    "when",
    "with",
];

/// Pieces that mark a value as a stand-in wherever they appear in it (ASCII case
/// ignored); [`PlaceholderParts`] searches for all of them at once.
const PLACEHOLDER_PARTS: &[&str] = &[
    "changeme",
    "change_me",
    "change-me",
    "changeit",
    "example",
    "placeholder",
    "dummy",
    "redacted",
    "your_",
    "your-",
    "yourpass",
    "yourtoken",
    "yoursecret",
    "yourkey",
    "xxxx",
    "****",
    "process.env",
    "environ",
    "getenv",
];

/// An automaton over [`PLACEHOLDER_PARTS`].
#[derive(Debug)]
pub(crate) struct PlaceholderParts(AhoCorasick);

impl PlaceholderParts {
    pub(crate) fn new() -> PlaceholderParts {
        // A fixed list of short literals: building it cannot fail.
        let automaton = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(PLACEHOLDER_PARTS)
            .expect("the placeholder automaton builds");
        PlaceholderParts(automaton)
    }
}

/// Prefixes (lower case) of values that are paths or plain URLs, not secrets.
const PATH_PREFIXES: &[&str] = &["/", "./", "../", "~/", "http://", "https://", "file://"];

/// Whether a value caught by a generic (name = value) rule is a stand-in, a path, a plain
/// URL or a reference into code (`config.api_key`) rather than a secret.
pub(crate) fn is_generic_placeholder(value: &str, parts: &PlaceholderParts) -> bool {
    PLACEHOLDER_VALUES.iter().any(|word| value.eq_ignore_ascii_case(word))
        || parts.0.is_match(value)
        || PATH_PREFIXES.iter().any(|prefix| {
            value.len() >= prefix.len()
                && value.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
        })
        || is_dotted_path(value)
        || is_nested_name(value)
        || names_a_secret(value)
}

/// A quoted "value" that is really the start of another assignment or of markup, as
/// when quotes nest (`token = "token = "…""`, `token = "<xsd:element name="…`): it ends
/// with `:`, or it holds a space and ends with `=`.
fn is_nested_name(value: &str) -> bool {
    let trimmed = value.trim_end();
    trimmed.ends_with(':') || (trimmed.ends_with('=') && value.contains(char::is_whitespace))
}

/// The words of secret-like names: a value made only of them and other words is the
/// name of a secret (`ACCESS_TOKEN`, `api-key`, `DB_PASSWORD`), not one.
const SECRET_WORDS: &[&str] = &[
    "auth",
    "credential",
    "credentials",
    "key",
    "pass",
    "passwd",
    "password",
    "pwd",
    "secret",
    "token",
];

/// Whether `value` is an identifier of two or more letter-only words joined by `_` or
/// `-`, one of them a [`SECRET_WORDS`] word: a reference to a secret by its name.
fn names_a_secret(value: &str) -> bool {
    let mut parts = 0;
    let mut secret_word = false;
    for part in value.split(['_', '-']) {
        if part.is_empty() || !part.bytes().all(|byte| byte.is_ascii_alphabetic()) {
            return false;
        }
        parts += 1;
        secret_word |= SECRET_WORDS.iter().any(|word| part.eq_ignore_ascii_case(word));
    }
    parts >= 2 && secret_word
}

/// `a.b`, `config.api_key`, `self.token`: identifiers joined by dots. A part of 16 or
/// more characters with a digit in it is a token's, not a name's (`pk.<60>.<22>`, a
/// Mapbox token).
fn is_dotted_path(value: &str) -> bool {
    let mut n_parts = 0;
    for part in value.split('.') {
        let mut chars = part.chars();
        let starts_well = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        if !starts_well || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return false;
        }
        if part.len() >= 16 && part.bytes().any(|byte| byte.is_ascii_digit()) {
            return false;
        }
        n_parts += 1;
    }
    n_parts > 1
}

#[cfg(test)]
mod tests {
    use super::{
        PlaceholderParts, is_generic_placeholder, is_structural_placeholder, shannon_entropy,
    };

    #[test]
    fn entropy_of_known_strings() {
        assert!(shannon_entropy("").abs() < f64::EPSILON);
        assert!(shannon_entropy("aaaa").abs() < f64::EPSILON);
        assert!((shannon_entropy("ab") - 1.0).abs() < 1e-9);
        assert!((shannon_entropy("abcd") - 2.0).abs() < 1e-9);
        assert!((shannon_entropy("0123456789abcdef") - 4.0).abs() < 1e-9);
        // Counts above the table take the other path.
        assert!((shannon_entropy(&"ab".repeat(100)) - 1.0).abs() < 1e-9);
        assert!((shannon_entropy(&"abcd".repeat(100)) - 2.0).abs() < 1e-9);
    }

    #[test]
    fn structural_placeholders() {
        for value in [
            "$TOKEN",
            "$db_pass",
            "${TOKEN}",
            "${TOKEN:-x}",
            "$(pass show x)",
            "${{ secrets.TOKEN }}",
            "{{ vault_pw }}",
            "<your-token>",
            "%API_KEY%",
            "@PASSWORD@",
            "***",
            "xxxxxxxx",
            "XXXX-XXXX",
            "....",
            "",
        ] {
            assert!(is_structural_placeholder(value), "{value:?}");
        }
        for value in ["hunter2", "$2b$10$abcdefgh", "ghp_xxxxxxxxxxxx", "{abc", "x%y%"] {
            assert!(!is_structural_placeholder(value), "{value:?}");
        }
        // The stand-ins of issue 10: positional parameters, bracketed words, filler,
        // documented examples.
        for value in [
            "$1",
            "$12",
            "${1}",
            "$@",
            "$*",
            "$#",
            "<password>",
            "password>",
            "user-name>",
            "[PASSWORD]",
            "[api key]",
            "[x.y-z_1]",
            "yyy",
            "0000",
            "AKIAIOSFODNN7EXAMPLE",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ] {
            assert!(is_structural_placeholder(value), "{value:?}");
        }
        // Near misses: each fails exactly one condition of a stand-in shape.
        for value in [
            "$1abc",
            "$ecr3t-Pass!",
            "${unclosed",
            "$unopened}x",
            "$(unclosed",
            "$x)",
            "{{unclosed",
            "{unopened}}",
            "[]",
            "[unclosed",
            "[p@ss!]",
            "%ab",
            "%a-b%",
            "@abcd",
            "@ab",
            "@a-b@",
            "pa$$>",
            "xy",
            "EXAMPLEKEY2",
        ] {
            assert!(!is_structural_placeholder(value), "{value:?}");
        }
    }

    #[test]
    fn generic_placeholders() {
        for value in [
            "changeme",
            "CHANGEME123",
            "my-example-key",
            "your_token_here",
            "password",
            "None",
            "true",
            "/run/secrets/db",
            "~/.ssh/id_ed25519",
            "https://vault.example",
            "process.env.TOKEN",
            "config.api_key",
            "self.token",
        ] {
            assert!(is_generic_placeholder(value, &PlaceholderParts::new()), "{value:?}");
        }
        for value in [
            "hunter2",
            "S3cr3t!",
            "correct horse battery staple",
            "a1b2c3d4",
            "v1.2.3-x",
            // Not identifiers joined by dots: a part starts with a digit, or holds a symbol.
            "9lives.cat",
            "cat.9lives",
            "ab-c.de",
            "ab.c-d",
            ".ab",
            // A token's parts: long, with digits.
            "pk.k2xq9vz7mw4r8t1yb6nd3hj5.c8w2",
        ] {
            assert!(!is_generic_placeholder(value, &PlaceholderParts::new()), "{value:?}");
        }
        assert!(is_generic_placeholder("_private.key_2", &PlaceholderParts::new()));
    }

    #[test]
    fn made_up_values_are_placeholders_in_every_rule() {
        // The alphabet typed out, in one case; words after a separator.
        for value in [
            "sk_abcdefghijklmnopqrstuvwxyz123",
            "key-0-ABCDEFGHIJKL-9",
            "tok-1-mnopqrstuvwxyz",
            "xoxe.xoxp-1-PasteYourBotTokenHere",
            "ns7:InvoiceLineAmountType",
        ] {
            assert!(is_structural_placeholder(value), "{value:?}");
        }
        // Nine letters in a row, a run across cases, words without a separator, words
        // with a digit or a short tail: random tokens and passphrases stay secrets.
        for value in [
            "sk_abcdefghi_9Xq2",
            "aBcDeFgHiJkLmNoPqRsTuVwXyZ",
            "CorrectHorseBatteryStaple",
            "tok-1-PasteYour2TokenHere",
            "tok-1-BerlinParis",
            "tok-1-AbCdEf",
            "tok-1-ParisRomeOsloX",
        ] {
            assert!(!is_structural_placeholder(value), "{value:?}");
        }
    }

    #[test]
    fn nested_quotes_and_secret_names_are_generic_placeholders() {
        let parts = PlaceholderParts::new();
        for value in [
            "token = ",
            "<xsd:element name=",
            "token:",
            "ACCESS_TOKEN",
            "api-key",
            "db_password",
            "Github-Auth-Key",
        ] {
            assert!(is_generic_placeholder(value, &parts), "{value:?}");
        }
        for value in [
            "dGVzdHRlc3Q=",
            "a b c=d1",
            "api-key-2",
            "blue_whale",
            "TOKEN9_ABC",
            "correct horse battery=staple",
        ] {
            assert!(!is_generic_placeholder(value, &parts), "{value:?}");
        }
    }
}
