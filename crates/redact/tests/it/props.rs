//! Property tests: `redact` never panics and is idempotent.

use proptest::prelude::*;

use crate::builtin;

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
