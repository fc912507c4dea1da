use serde_json::json;

use super::*;

#[test]
fn guard_refuses_any_less_than() {
    assert!(payload::guard(r#"{"a":"\u003c/data\u003e"}"#).is_ok());
    let error = payload::guard(r#"{"a":"</data>"}"#).unwrap_err();
    insta::assert_snapshot!(error, @"the prompt payload is not safe to send: the payload contains `<`");
    assert!(payload::guard("<").is_err());
}

#[test]
fn html_safe_formatter_escapes_in_keys_and_values() {
    let value = json!({"<k&>": ["a<b", "c>d&e", "plain", "日本<語>"]});
    let fitted = prompt_budget::fit_with(value, usize::MAX, &[], payload::HtmlSafe).unwrap();
    assert_eq!(
        fitted.text,
        r#"{"\u003ck\u0026\u003e":["a\u003cb","c\u003ed\u0026e","plain","日本\u003c語\u003e"]}"#
    );
    // Still JSON that reads back to the same value.
    let parsed: serde_json::Value = serde_json::from_str(&fitted.text).unwrap();
    assert_eq!(parsed, fitted.value);
}

#[test]
fn tier_names_are_the_designs_order() {
    assert_eq!(
        TIERS,
        [
            "shell_examples",
            "shell_groups",
            "session_titles",
            "commit_subjects",
            "shell",
            "projects"
        ]
    );
}

#[test]
fn budget_error_message() {
    let cause = prompt_budget::Tier::trim("t", "no-slash", 0, "").unwrap_err();
    let error = Error::Budget(cause);
    insta::assert_snapshot!(error, @"cannot fit the prompt payload into its budget");
}
