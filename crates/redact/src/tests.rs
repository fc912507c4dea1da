use proptest::prelude::*;
use regex::Regex;

use crate::builtin::builtin;

/// A match (start, end) and the secret found in it.
type Found = (usize, usize, Option<(usize, usize)>);

/// The secret a rule's own regex captures in the match starting at or after `at`.
fn by_captures(regex: &Regex, text: &str, at: usize) -> Option<Found> {
    let mut locations = regex.capture_locations();
    let whole = regex.captures_read_at(&mut locations, text, at)?;
    Some((whole.start(), whole.end(), (1..locations.len()).find_map(|idx| locations.get(idx))))
}

/// The secret the extractor finds in the same match.
fn by_extractor(regex: &Regex, extractor: &Regex, text: &str, at: usize) -> Option<Found> {
    let whole = regex.find_at(text, at)?;
    let mut locations = extractor.capture_locations();
    extractor.captures_read(&mut locations, whole.as_str())?;
    let secret = (1..locations.len())
        .find_map(|idx| locations.get(idx))
        .map(|(start, end)| (whole.start() + start, whole.start() + end));
    Some((whole.start(), whole.end(), secret))
}

#[track_caller]
fn check_agree(text: &str) {
    for builtin in builtin() {
        let Some(extractor) = &builtin.extractor else { continue };
        let regex = Regex::new(&builtin.rule.regex).unwrap();
        let extractor = Regex::new(extractor).unwrap();
        let mut at = 0;
        while at <= text.len() {
            let expected = by_captures(&regex, text, at);
            let actual = by_extractor(&regex, &extractor, text, at);
            assert_eq!(actual, expected, "rule {} on {text:?} from {at}", builtin.rule.id);
            let Some((start, _, _)) = expected else { break };
            at = text[start..].chars().next().map_or(text.len() + 1, |c| start + c.len_utf8());
        }
    }
}

#[test]
fn extractors_agree_with_their_rules_on_examples() {
    for text in [
        "export DB_PASSWORD=hunter2hunter2 && ./run",
        "DB_PASSWORD='Hunter2 fake' ./migrate",
        "api_key := \"fake-K3y-value\"",
        "'client_secret' => 'fake-S3cret'",
        "\"password\": \"a\\\"b\\\\c\"",
        "app --token=Fake-t0ken-value x=y token = abcd1234 ",
        "  password: hunter2\n  token: \"x y\" # c\n{\"auth\":'a1b2'}",
        "app login --password Fake-pa55 --token 'a b' -storepass \"q\" --api-key x1",
        "password=>abcd password==abcd password= =abcd",
        "pass=(abcd) pass={abcd} pass=[abcd] pass=abcd( ",
    ] {
        check_agree(text);
    }
}

fn pieces() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("password".to_owned()),
        Just("DB_PASS".to_owned()),
        Just("api-key".to_owned()),
        Just("token".to_owned()),
        Just("auth".to_owned()),
        Just("--".to_owned()),
        Just("-".to_owned()),
        Just("=".to_owned()),
        Just(":".to_owned()),
        Just(":=".to_owned()),
        Just("=>".to_owned()),
        Just("\"".to_owned()),
        Just("'".to_owned()),
        Just("\\".to_owned()),
        Just(" ".to_owned()),
        Just("\t".to_owned()),
        Just("\n".to_owned()),
        Just("#".to_owned()),
        Just(",".to_owned()),
        Just("{".to_owned()),
        Just("(".to_owned()),
        Just("[".to_owned()),
        "[A-Za-z0-9_.]{1,8}",
        "[ -~]{1,4}",
    ];
    prop::collection::vec(piece, 0..16).prop_map(|pieces| pieces.concat())
}

proptest! {
    #[test]
    fn extractors_agree_with_their_rules(text in pieces()) {
        check_agree(&text);
    }
}

#[test]
fn builtin_secret_groups_match_their_regexes() {
    for builtin in builtin() {
        let regex = Regex::new(&builtin.rule.regex).unwrap();
        let has_groups = regex.captures_len() > 1;
        assert_eq!(builtin.rule.secret_group.is_some(), has_groups, "rule {}", builtin.rule.id);
    }
}

#[test]
fn bracket_analysis() {
    let can = |pattern: &str| crate::can_match_bracket(&regex_syntax::parse(pattern).unwrap());
    assert!(!can(r"(?-u:\b)ghp_[A-Za-z0-9]{36,251}(?-u:\b{end-half})"));
    assert!(!can(r"[^\s\[\]]+"));
    assert!(can(r"[^\s]+"));
    assert!(can(r"(?s:.)"));
    assert!(can(r"a\[b"));
    assert!(can(r"(?:x|\])"));
    // A range holds a bracket at either end or inside (`[` is 0x5B, `]` 0x5D).
    assert!(can(r"[\[-a]"));
    assert!(can(r"[A-\[]"));
    assert!(can(r"[Z-\\]"));
    assert!(can(r"[\\-\^]"));
    assert!(!can(r"[\\]"));
    assert!(!can(r"[\^-z]"));
    assert!(can(r"(?-u:[\x00-\x7f])"));
    assert!(!can(r"(?-u:[\x5c\x5e-\x7f])"));
    let redactor = crate::Redactor::builtin();
    let brackets = |id: &str| {
        redactor
            .inner
            .rules
            .iter()
            .find(|compiled| compiled.rule.id == id)
            .unwrap()
            .compiled()
            .brackets
    };
    assert!(!brackets("github-pat"));
    assert!(!brackets("url-credentials"));
    assert!(brackets("generic-assignment"));
    assert!(brackets("private-key"));
}

#[test]
fn every_builtin_rule_compiles() {
    // Built-in rules compile lazily; this is what makes `CompiledRule::compiled` safe.
    // A fresh redactor: `builtin()` is shared by every test of the process.
    let redactor = crate::Redactor::builder().build().expect("the built-in rules compile");
    for compiled in &redactor.inner.rules {
        assert!(compiled.compiled.get().is_none(), "{} compiled eagerly", compiled.rule.id);
        let rule = &compiled.rule;
        let built = crate::Compiled::new(rule, compiled.extractor.as_deref())
            .unwrap_or_else(|_| panic!("rule {} does not compile", rule.id));
        if let Some(group) = rule.secret_group {
            assert!(group < built.regex.captures_len(), "rule {}: no group {group}", rule.id);
        }
    }
}

#[test]
fn rules_compile_only_when_their_keywords_occur() {
    // A fresh redactor: `builtin()` is shared by every test of the process.
    let redactor = crate::Redactor::builder().build().expect("the built-in rules compile");
    let n_compiled =
        || redactor.inner.rules.iter().filter(|rule| rule.compiled.get().is_some()).count();
    assert_eq!(redactor.redact("cargo test -p redact").1, 0);
    assert_eq!(n_compiled(), 0);
    let token = format!("ghp_FAKE{}", "q8w7e6r5t4y3u2i1o9p8a7s6d5f4g3h2");
    assert_eq!(redactor.redact(&token).1, 1);
    let compiled: Vec<&str> = redactor
        .inner
        .rules
        .iter()
        .filter(|rule| rule.compiled.get().is_some())
        .map(|rule| rule.rule.id.as_str())
        .collect();
    assert_eq!(compiled, ["github-pat"]);
}

/// The rules `redact` runs on `text`, in order, one entry per run.
fn rule_runs(redactor: &crate::Redactor, text: &str) -> Vec<String> {
    crate::RULE_RUNS.with(|runs| runs.borrow_mut().clear());
    redactor.redact(text);
    crate::RULE_RUNS.with(std::cell::RefCell::take)
}

#[test]
fn a_second_pass_runs_only_the_rules_that_can_find_something_new() {
    // The crate documentation: for a token on its own or a `name=value` pair, a second
    // pass runs at most the generic rules, and stops there.
    let redactor = crate::Redactor::builtin();
    let token = |seed: &str| format!("ghp_FAKE{seed}q8w7e6r5t4y3u2i1o9p8a7s6d5f4");
    for (text, expected) in [
        (format!("the token {} was pasted", token("a1b2c3d4")), vec!["github-pat"]),
        (format!("{} and {}", token("a1b2c3d4"), token("e5f6g7h8")), vec!["github-pat"]),
        (
            "export DB_PASSWORD=hunter2hunter2 && ./run".to_owned(),
            vec!["generic-assignment", "generic-assignment"],
        ),
        // A mask that only touches another rule's match (its leading or trailing space)
        // changes nothing that match saw: only `generic-cli-flag`, which can match a
        // bracket, runs again.
        (
            format!("{} --password hunter", token("a1b2c3d4")),
            vec!["github-pat", "generic-cli-flag", "password-flag", "generic-cli-flag"],
        ),
        (
            format!("--password hunter {}", token("a1b2c3d4")),
            vec!["github-pat", "generic-cli-flag", "password-flag", "generic-cli-flag"],
        ),
    ] {
        assert_eq!(rule_runs(&redactor, &text), expected, "{text:?}");
    }
}

#[test]
fn the_generic_rules_find_their_secrets_with_an_extractor() {
    // The generic rules run the most often; each has a one-pass extractor so that its
    // secret is found without the backtracker (`Builtin::extractor`).
    let rules = builtin();
    let with: Vec<&str> = rules
        .iter()
        .filter(|builtin| builtin.extractor.is_some())
        .map(|builtin| builtin.rule.id.as_str())
        .collect();
    assert_eq!(with, ["generic-assignment", "generic-key-value", "generic-cli-flag"]);
}

#[test]
fn builtin_is_built_once_and_shared() {
    let first = crate::Redactor::builtin();
    let second = crate::Redactor::builtin();
    assert!(std::sync::Arc::ptr_eq(&first.inner, &second.inner));
    let fresh = crate::Redactor::builder().build().expect("the built-in rules compile");
    assert!(!std::sync::Arc::ptr_eq(&first.inner, &fresh.inner));
}
