//! Property tests: `redact` never panics and is idempotent.

use proptest::prelude::*;

use std::sync::LazyLock;

use crate::{ALNUM, builtin, random};

/// Pieces of text that start, end or imitate secrets, masks and assignments.
fn pieces() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("ghp_".to_owned()),
        Just("sk-ant-api03-".to_owned()),
        Just("AKIA".to_owned()),
        Just("eyJ".to_owned()),
        Just("password".to_owned()),
        Just("DB_PASSWORD".to_owned()),
        Just("token".to_owned()),
        Just("Authorization: Bearer ".to_owned()),
        Just("curl -u ".to_owned()),
        Just("mysql -p".to_owned()),
        Just("https://".to_owned()),
        Just("://".to_owned()),
        Just("[REDACTED:".to_owned()),
        Just("[REDACTED:github-pat]".to_owned()),
        Just("]".to_owned()),
        Just("-----BEGIN PRIVATE KEY-----".to_owned()),
        Just("-----END PRIVATE KEY-----".to_owned()),
        Just("=".to_owned()),
        Just(": ".to_owned()),
        Just("@".to_owned()),
        Just("\"".to_owned()),
        Just("'".to_owned()),
        Just(" ".to_owned()),
        Just("\n".to_owned()),
        Just("$".to_owned()),
        Just("{{".to_owned()),
        Just("/".to_owned()),
        Just("?".to_owned()),
        Just("|".to_owned()),
        Just(";".to_owned()),
        Just("&".to_owned()),
        Just(":".to_owned()),
        Just("-p".to_owned()),
        Just("--password ".to_owned()),
        Just("x-access-token:".to_owned()),
        Just("AccountKey=".to_owned()),
        Just("sig=".to_owned()),
        Just("=>".to_owned()),
        Just(":=".to_owned()),
        Just("\\n".to_owned()),
        Just("-----BEGIN PGP PRIVATE KEY BLOCK-----".to_owned()),
        "ghp_[A-Za-z0-9]{36}",
        "AKIA[A-Z2-7]{16}",
        "sk-ant-api03-[A-Za-z0-9_-]{40}",
        "xoxb-[0-9]{12}-[0-9]{12}-[A-Za-z0-9]{24}",
        "eyJ[A-Za-z0-9_-]{12}\\.eyJ[A-Za-z0-9_-]{12}\\.[A-Za-z0-9_-]{12}",
        "[A-Za-z0-9_-]{1,48}",
        "[a-f0-9]{8,40}",
        any::<String>(),
    ];
    prop::collection::vec(piece, 0..32).prop_map(|pieces| pieces.concat())
}

proptest! {
    #[test]
    fn redact_is_idempotent(text in prop_oneof![pieces(), any::<String>()]) {
        let redactor = builtin();
        let (once, n_once) = redactor.redact(&text);
        let (twice, n_twice) = redactor.redact(&once);
        prop_assert_eq!(&twice, &once);
        prop_assert_eq!(n_twice, 0);
        prop_assert_eq!(n_once == 0, once == text);
    }
}

/// Every `Default_Ignorable_Code_Point`, from the regex crate's Unicode data.
static IGNORABLE: LazyLock<Vec<char>> = LazyLock::new(|| {
    let property = regex::Regex::new(r"^\p{Default_Ignorable_Code_Point}$").unwrap();
    (0..=u32::from(char::MAX))
        .filter_map(char::from_u32)
        .filter(|c| property.is_match(c.encode_utf8(&mut [0; 4])))
        .collect()
});

/// Tokens of several rules, each with its rule id.
fn token() -> impl Strategy<Value = (String, &'static str)> {
    (0u64..1000, 0usize..3).prop_map(|(seed, kind)| match kind {
        0 => (format!("ghp_{}", random(ALNUM, 36, seed)), "github-pat"),
        1 => (
            format!("AKIA{}", random("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 16, seed)),
            "aws-access-key-id",
        ),
        _ => (format!("sk-ant-api03-{}AA", random(ALNUM, 93, seed)), "anthropic-api-key"),
    })
}

proptest! {
    #[test]
    fn a_token_with_invisible_characters_inside_is_masked(
        (token, id) in token(),
        inserts in prop::collection::vec(
            (any::<prop::sample::Index>(), prop::collection::vec(prop::sample::select(IGNORABLE.clone()), 1..4)),
            1..4,
        ),
        context in prop::sample::select(vec!["export T={}", "{}", "token {} pasted", "\"{}\""]),
        wide in any::<bool>(),
    ) {
        // Optionally in full-width letters, which the rules fold back.
        let shown: String = if wide {
            token.chars().map(|c| char::from_u32(u32::from(c) + 0xfee0).unwrap()).collect()
        } else {
            token.clone()
        };
        let mut chars: Vec<char> = shown.chars().collect();
        for (at, run) in inserts {
            let at = at.index(chars.len() + 1);
            chars.splice(at..at, run);
        }
        let hidden: String = chars.into_iter().collect();
        let text = context.replace("{}", &hidden);
        let cleaned = sanitize::clean(&text);
        let (masked, n_masked) = builtin().redact(&cleaned);
        prop_assert!(!masked.contains(&token) && !masked.contains(&shown), "{:?} became {:?}", text, masked);
        let marker = format!("[REDACTED:{id}]");
        prop_assert!(masked.contains(&marker), "{:?} became {:?}", text, masked);
        prop_assert_eq!(n_masked, 1);
    }
}
