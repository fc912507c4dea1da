//! The builder, user rules, the allow-list, errors and the shape of results.

use std::borrow::Cow;

use redact::{Error, Redactor, Rule};

use crate::{ALNUM, builtin, random};

fn acme_rule() -> Rule {
    Rule {
        id: "acme-key".to_owned(),
        regex: r"\b(acme_[a-z0-9]{24})\b".to_owned(),
        keywords: vec!["acme_".to_owned()],
        entropy: Some(3.0),
        secret_group: Some(1),
        description: "ACME internal API key".to_owned(),
    }
}

#[test]
fn redactor_is_send_sync_and_cheap_to_clone() {
    fn assert_shareable<T: Send + Sync + Clone + 'static>() {}
    assert_shareable::<Redactor>();
    let redactor = builtin().clone();
    let handle = std::thread::spawn(move || redactor.redact("password=Fake-pa55w0rd").1);
    assert_eq!(handle.join().unwrap(), 1);
}

#[test]
fn clean_text_is_borrowed() {
    let redactor = builtin();
    for text in [
        "",
        "git push origin main",
        "refresh the auth token logic",
        "password reset flow",
        "https://example.com/a?b=c",
    ] {
        let (masked, n_masked) = redactor.redact(text);
        assert!(matches!(masked, Cow::Borrowed(t) if t == text), "{text:?}");
        assert_eq!(n_masked, 0);
    }
}

#[test]
fn counts_every_mask() {
    let github = format!("ghp_FAKE{}", random(ALNUM, 32, 1));
    let stripe = format!("sk_test_FAKE{}", random(ALNUM, 20, 2));
    let text = format!("A={github} B={stripe} C={github}");
    let (masked, n_masked) = builtin().redact(&text);
    assert_eq!(
        masked,
        "A=[REDACTED:github-pat] B=[REDACTED:stripe-secret-key] C=[REDACTED:github-pat]"
    );
    assert_eq!(n_masked, 3);
}

#[test]
fn existing_masks_are_left_alone() {
    let redactor = builtin();
    for text in [
        "token [REDACTED:github-pat] used",
        "export DB_PASSWORD=[REDACTED:generic-assignment]",
        "{\"password\": \"[REDACTED:generic-key-value]\"}",
        "https://[REDACTED:github-pat]:[REDACTED:url-credentials]@github.com/o/r",
    ] {
        let (masked, n_masked) = redactor.redact(text);
        assert_eq!((masked.as_ref(), n_masked), (text, 0));
    }
}

#[test]
fn user_rules_run_after_builtin_ones() {
    let redactor = Redactor::builder().rule(acme_rule()).build().unwrap();
    assert_eq!(redactor.rules().last().map(|rule| rule.id.as_str()), Some("acme-key"));
    assert!(redactor.rules().count() > 60);
    let (masked, n_masked) = redactor
        .redact("key acme_q8w7e6r5t4y3u2i1o9p8a7s6 and ghp_FAKEq8w7e6r5t4y3u2i1o9p8a7s6d5f4g3h2");
    assert_eq!(masked, "key [REDACTED:acme-key] and [REDACTED:github-pat]");
    assert_eq!(n_masked, 2);
}

#[test]
fn without_builtin_only_user_rules_apply() {
    let redactor = Redactor::builder().without_builtin().rule(acme_rule()).build().unwrap();
    assert_eq!(redactor.rules().count(), 1);
    assert_eq!(
        redactor.redact("acme_q8w7e6r5t4y3u2i1o9p8a7s6 ghp_FAKEq8w7e6r5t4y3u2i1o9p8a7s6d5f4g3h2").0,
        "[REDACTED:acme-key] ghp_FAKEq8w7e6r5t4y3u2i1o9p8a7s6d5f4g3h2"
    );
}

#[test]
fn rules_without_keywords_always_run() {
    let rule =
        Rule { id: "digits".to_owned(), regex: r"\b[0-9]{12}\b".to_owned(), ..Rule::default() };
    let redactor = Redactor::builder().without_builtin().rule(rule).build().unwrap();
    assert_eq!(
        redactor.redact("account 123456789012 closed").0,
        "account [REDACTED:digits] closed"
    );
}

#[test]
fn secret_group_falls_through_to_the_first_matching_group() {
    let rule = Rule {
        id: "pin".to_owned(),
        regex: r#"pin=(?:"([^"]+)"|([0-9]+))"#.to_owned(),
        keywords: vec!["pin=".to_owned()],
        secret_group: Some(1),
        ..Rule::default()
    };
    let redactor = Redactor::builder().without_builtin().rule(rule).build().unwrap();
    assert_eq!(
        redactor.redact(r#"pin="12 34" pin=5678"#).0,
        r#"pin="[REDACTED:pin]" pin=[REDACTED:pin]"#
    );
}

#[test]
fn keywords_ignore_ascii_case() {
    let rule = Rule {
        id: "acme".to_owned(),
        regex: "(?i)acme-[0-9]{6}".to_owned(),
        keywords: vec!["ACME-".to_owned()],
        ..Rule::default()
    };
    let redactor = Redactor::builder().without_builtin().rule(rule).build().unwrap();
    assert_eq!(redactor.redact("Acme-123456 acme-654321").1, 2);
}

#[test]
fn allow_list_lets_through_secrets_containing_a_literal() {
    let token = format!("ghp_FAKE{}", random(ALNUM, 32, 3));
    let other = format!("ghp_FAKE{}", random(ALNUM, 32, 4));
    let redactor = Redactor::builder().allow(token.clone()).build().unwrap();
    let text = format!("{token} {other}");
    assert_eq!(redactor.redact(&text).0, format!("{token} [REDACTED:github-pat]"));
    // Containment, not only equality: every fake token contains `FAKE`.
    let redactor = Redactor::builder().allow("FAKE").build().unwrap();
    assert_eq!(redactor.redact(&text).1, 0);
    // Case matters.
    let redactor = Redactor::builder().allow("fake").build().unwrap();
    assert_eq!(redactor.redact(&text).1, 2);
}

#[test]
fn errors_name_the_rule_and_never_the_pattern() {
    let build = |rule: Rule| Redactor::builder().without_builtin().rule(rule).build().unwrap_err();
    let valid = acme_rule();

    let error = build(Rule { id: "Bad Id".to_owned(), ..valid.clone() });
    assert!(matches!(error, Error::InvalidRuleId { .. }));
    assert_eq!(
        error.to_string(),
        "rule id `Bad Id` is not valid (expected lower-case letters, digits, `-`, `_` or `.`, starting with a letter or digit)"
    );
    assert!(matches!(
        build(Rule { id: String::new(), ..valid.clone() }),
        Error::InvalidRuleId { .. }
    ));
    assert!(matches!(
        build(Rule { id: "-x".to_owned(), ..valid.clone() }),
        Error::InvalidRuleId { .. }
    ));

    let error = Redactor::builder()
        .rule(Rule { id: "github-pat".to_owned(), ..valid.clone() })
        .build()
        .unwrap_err();
    assert_eq!(error.to_string(), "rule id `github-pat` is used by more than one rule");

    let error = build(Rule { regex: "hunter2-real-secret(".to_owned(), ..valid.clone() });
    assert!(matches!(error, Error::InvalidRegex { .. }));
    assert_eq!(
        error.to_string(),
        "rule `acme-key`: the regex does not compile (the pattern is not shown: it may hold secret text)"
    );
    assert!(!format!("{error:?}").contains("hunter2"));

    let error = build(Rule { secret_group: Some(2), ..valid.clone() });
    assert_eq!(
        error.to_string(),
        "rule `acme-key`: secret_group 2 does not exist (the regex has groups 0 to 1)"
    );

    let error = build(Rule { entropy: Some(f64::NAN), ..valid.clone() });
    assert_eq!(
        error.to_string(),
        "rule `acme-key`: entropy must be a number of bits per character, 0 or more"
    );
    assert!(matches!(
        build(Rule { entropy: Some(-1.0), ..valid.clone() }),
        Error::InvalidEntropy { .. }
    ));
    // A floor of 0 is valid: it lets every value through.
    let zero = Rule { entropy: Some(0.0), ..valid.clone() };
    assert!(Redactor::builder().without_builtin().rule(zero).build().is_ok());

    let error = build(Rule { keywords: vec![String::new()], ..valid.clone() });
    assert_eq!(error.to_string(), "rule `acme-key`: a keyword is empty");

    // Only a huge user keyword list can cause this one; its message is fixed.
    assert_eq!(
        Error::TooManyKeywords.to_string(),
        "the rules' keywords are too many or too long to build the keyword automaton"
    );

    let error = Redactor::builder().allow("").build().unwrap_err();
    assert_eq!(
        error.to_string(),
        "an allow-list literal is empty (it would let every secret through)"
    );
}

#[test]
fn crate_doc_examples() {
    let redactor = Redactor::builtin();
    let (masked, n_masked) = redactor.redact("export DB_PASSWORD=hunter2hunter2 && ./run");
    assert_eq!(masked, "export DB_PASSWORD=[REDACTED:generic-assignment] && ./run");
    assert_eq!(n_masked, 1);
    let redactor = Redactor::builder()
        .rule(acme_rule())
        .allow("acme_0000000000000000000test")
        .build()
        .unwrap();
    assert_eq!(redactor.redact("key acme_q8w7e6r5t4y3u2i1o9p8a7s6").0, "key [REDACTED:acme-key]");
    assert_eq!(redactor.redact("key acme_0000000000000000000test").1, 0);
}

#[test]
fn idempotent_when_a_mask_changes_what_another_rule_sees() {
    // Found by `props::redact_is_idempotent`: a mask ate the END line of a private key,
    // and a mask gave `curl -u` the `:` it needed.
    let redactor = builtin();
    for text in [
        "-----BEGIN PRIVATE KEY-----curl -u [REDACTED:github-pat]$-----END PRIVATE KEY-----eyJ",
        "curl -u sk-ant-api03-aa0a0a0a00aa0aaA0aa_0a0AA1_-_-B_$sk-ant-api03-",
        // An Azure secret glued to a GitHub token only starts at a word boundary once
        // the token is masked.
        "ghp_FAKEq8w7e6r5t4y3u2i1o9p8a7s6d5f4g3h2~Ab8Q~FAKEz1x2c3v4b5n6m7q8w9e0r1t2y3u4i5",
    ] {
        let (once, n_once) = redactor.redact(text);
        assert!(n_once > 0, "{text:?}");
        let (twice, n_twice) = redactor.redact(&once);
        assert_eq!((twice.as_ref(), n_twice), (once.as_ref(), 0), "{text:?}");
    }
}

#[test]
fn touching_secrets_get_a_mask_each() {
    // Spans that touch are two secrets, not one; only overlapping spans merge.
    let rule = |id: &str, regex: &str, keyword: &str| Rule {
        id: id.to_owned(),
        regex: regex.to_owned(),
        keywords: vec![keyword.to_owned()],
        entropy: None,
        secret_group: None,
        description: String::new(),
    };
    let redactor = Redactor::builder()
        .without_builtin()
        .rule(rule("digits", "n[0-9]{8}", "n"))
        .rule(rule("letters", "[a-h]{8}z", "z"))
        .build()
        .unwrap();
    assert_eq!(
        redactor.redact("key n31415926abcdefghz end"),
        (Cow::Owned("key [REDACTED:digits][REDACTED:letters] end".to_owned()), 2)
    );
    // Overlapping ones merge under the earlier rule.
    let redactor = Redactor::builder()
        .without_builtin()
        .rule(rule("digits", "n[0-9]{8}a", "n"))
        .rule(rule("letters", "[a-h]{8}z", "z"))
        .build()
        .unwrap();
    assert_eq!(
        redactor.redact("key n31415926abcdefghz end"),
        (Cow::Owned("key [REDACTED:digits] end".to_owned()), 1)
    );
}

#[test]
fn a_secret_glued_to_an_existing_mask_is_masked_on_its_own() {
    for (text, expected, n) in [
        (
            "password=\"[REDACTED:github-pat]S3cretTail99\"",
            "password=\"[REDACTED:github-pat][REDACTED:generic-assignment]\"",
            1,
        ),
        (
            "password=\"S3cretHead99[REDACTED:github-pat]\"",
            "password=\"[REDACTED:generic-assignment][REDACTED:github-pat]\"",
            1,
        ),
        (
            "password=\"S3cretHead99[REDACTED:github-pat]S3cretTail99\"",
            "password=\"[REDACTED:generic-assignment][REDACTED:github-pat][REDACTED:generic-assignment]\"",
            2,
        ),
    ] {
        let (masked, n_masked) = builtin().redact(text);
        assert_eq!((masked.as_ref(), n_masked), (expected, n), "{text:?}");
    }
}

#[test]
fn a_token_that_starts_inside_a_stand_in_is_masked_once_a_mask_breaks_the_stand_in() {
    // `tfp_` + 59 characters ending in `EXAMPLE` is a documented-example stand-in, and
    // it swallows the start of a real `tfp_` token. Once the AWS key inside the stand-in
    // is masked (with no token character on either side of the mask), the stand-in no
    // longer matches and the token that starts inside it does: the rule whose match
    // reached the mask runs again.
    let aws = "AKIAFAKEQ7WERTYUIOP2";
    let token = format!("tfp_EXAMPLE.{}", random(ALNUM, 51, 7));
    let head = format!("tfp_{}", random(ALNUM, 26, 8));
    let text = format!("{head}={aws}={token}");
    // The stand-in: the first `tfp_` and 59 characters.
    assert!(text[..4 + 59].ends_with("=tfp_EXAMPLE"));
    let (masked, n_masked) = builtin().redact(&text);
    assert_eq!(
        masked,
        format!("{head}=[REDACTED:aws-access-key-id]=[REDACTED:typeform-api-token]")
    );
    assert_eq!(n_masked, 2);
}

#[test]
fn every_rule_runs_again_after_a_later_pass() {
    // Two user rules that each need the mask the previous pass made, so that the third
    // pass masks a value inside a `tfp_…EXAMPLE` stand-in. The typeform rule, which had
    // no reason to run in the second and third passes, must run in the fourth to find the
    // token that starts inside the stand-in.
    let after = |id: &str, mask: &str, tail: &str, keyword: &str| Rule {
        id: id.to_owned(),
        regex: format!(r"\[REDACTED:{mask}\] {tail}"),
        keywords: vec![keyword.to_owned()],
        entropy: None,
        secret_group: Some(1),
        description: String::new(),
    };
    let redactor = Redactor::builder()
        .rule(after("first", "aws-access-key-id", r"k=([a-z0-9]{12})\b", "k="))
        .rule(after("second", "first", r"tfp_[A-Za-z0-9]{2}=([A-Z0-9]{20})=", "tfp_"))
        .build()
        .unwrap();
    let value = random("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 20, 9);
    let filler = random(ALNUM, 23, 10);
    let token = format!("tfp_EXAMPLE.{}", random(ALNUM, 51, 11));
    let text = format!("AKIAFAKEQ7WERTYUIOP2 k=q8w7e6r5t4y3 tfp_AA={value}={filler}={token}");
    let (masked, n_masked) = redactor.redact(&text);
    assert_eq!(
        masked,
        format!(
            "[REDACTED:aws-access-key-id] k=[REDACTED:first] \
             tfp_AA=[REDACTED:second]={filler}=[REDACTED:typeform-api-token]"
        )
    );
    assert_eq!(n_masked, 4);
}

#[test]
fn the_entropy_floor_is_inclusive() {
    let redactor = Redactor::builder()
        .without_builtin()
        .rule(Rule {
            id: "pin".to_owned(),
            regex: "pin=([a-z]{8})".to_owned(),
            keywords: vec!["pin=".to_owned()],
            entropy: Some(3.0),
            secret_group: Some(1),
            description: String::new(),
        })
        .build()
        .unwrap();
    // Eight different letters: exactly 3 bits per character.
    assert_eq!(redactor.redact("pin=abcdefgh").0, "pin=[REDACTED:pin]");
    // One letter twice: 2.75 bits.
    assert_eq!(redactor.redact("pin=abcdefga"), (Cow::Borrowed("pin=abcdefga"), 0));
}

#[test]
fn a_user_rule_that_can_match_nothing_still_ends_and_masks_back_to_back_matches() {
    // `[0-9]{0,4}` matches the empty string everywhere (never masked) and `12345678`
    // as two matches, the second starting where the first ends.
    let redactor = Redactor::builder()
        .without_builtin()
        .rule(Rule {
            id: "digits".to_owned(),
            regex: "[0-9]{0,4}".to_owned(),
            keywords: Vec::new(),
            entropy: None,
            secret_group: None,
            description: String::new(),
        })
        .build()
        .unwrap();
    for (text, expected, n) in [
        ("pïn 12345678 ü", "pïn [REDACTED:digits][REDACTED:digits] ü", 2),
        ("1234", "[REDACTED:digits]", 1),
        ("ü", "ü", 0),
        ("", "", 0),
    ] {
        let (masked, n_masked) = redactor.redact(text);
        assert_eq!((masked.as_ref(), n_masked), (expected, n), "{text:?}");
    }
}
