//! Integration tests of `prompt-budget`: fitting payloads through the public API.

use prompt_budget::{Error, Fitted, Tier, fit};
use serde_json::{Value, json};

fn chars(text: &str) -> usize {
    text.chars().count()
}

#[track_caller]
fn check(payload: &Value, budget: usize, tiers: &[Tier]) -> Fitted {
    let fitted = fit(payload.clone(), budget, tiers).unwrap();
    assert!(chars(&fitted.text) <= budget, "{} > {budget}: {}", chars(&fitted.text), fitted.text);
    fitted
}

fn shell_and_projects() -> Value {
    json!({
        "date": "2026-11-27",
        "shell": {"groups": [
            {"head": "cargo test", "count": 9, "examples": ["cargo test -p a", "cargo test -p b"]},
            {"head": "git commit", "count": 3, "examples": ["git commit -m x"]},
            {"head": "make", "count": 1, "examples": ["make all"]},
        ]},
        "projects": {"items": [
            {"name": "newest", "commits": {"items": ["c1", "c2", "c3"]}},
            {"name": "middle", "commits": {"items": ["c4", "c5", "c6"]}},
            {"name": "oldest", "commits": {"items": ["c7", "c8", "c9"]}},
        ]},
    })
}

fn report_tiers() -> Vec<Tier> {
    vec![
        Tier::remove("shell_examples", "/shell/groups/*/examples", "/shell")
            .unwrap()
            .last_match_first(),
        Tier::trim("shell_groups", "/shell/groups", 1, "/shell").unwrap(),
        Tier::trim("commits", "/projects/items/*/commits/items", 1, "/projects/items/*/commits")
            .unwrap()
            .last_match_first(),
        Tier::remove("shell", "/shell/groups", "/shell").unwrap(),
        Tier::trim("projects", "/projects/items", 0, "/projects").unwrap(),
    ]
}

#[test]
fn payload_within_budget_is_unchanged_with_sorted_keys() {
    let payload = json!({"b": 1, "a": {"d": [1, 2], "c": "x"}});
    let fitted = check(&payload, 100, &report_tiers());
    assert_eq!(fitted.text, r#"{"a":{"c":"x","d":[1,2]},"b":1}"#);
    assert!(fitted.tiers_applied.is_empty());
    assert!(!fitted.hard_capped);
}

#[test]
fn trim_drops_one_element_at_a_time_from_the_end() {
    let payload = json!({"list": {"items": ["item-one", "item-two", "item-three", "item-four"]}});
    let tiers = [Tier::trim("list", "/list/items", 0, "/list").unwrap()];
    let expected = r#"{"list":{"items":["item-one","item-two"],"truncated":true}}"#;
    // The whole payload is 67 characters; with one item dropped and the mark it is 72.
    let fitted = check(&payload, 66, &tiers);
    assert_eq!(fitted.text, expected);
    assert_eq!(fitted.tiers_applied, ["list"]);
}

#[test]
fn trim_keeps_the_first_elements_and_moves_to_the_next_tier() {
    let payload = json!({"a": [1, 2, 3, 4], "b": "long text that must go"});
    let tiers = [Tier::trim("a", "/a", 2, "").unwrap(), Tier::remove("b", "/b", "").unwrap()];
    let fitted = check(&payload, 30, &tiers);
    assert_eq!(fitted.text, r#"{"a":[1,2],"truncated":true}"#);
    assert_eq!(fitted.tiers_applied, ["a", "b"]);
}

#[test]
fn first_tier_only_when_it_suffices() {
    let payload = shell_and_projects();
    let full = chars(&check(&payload, usize::MAX, &[]).text);
    let fitted = check(&payload, full - 10, &report_tiers());
    assert_eq!(fitted.tiers_applied, ["shell_examples"]);
    // The least frequent group loses its examples first; the others keep theirs.
    let groups = &fitted.value["shell"]["groups"];
    assert!(groups[2].get("examples").is_none());
    assert!(groups[0].get("examples").is_some());
    assert_eq!(fitted.value["shell"]["truncated"], json!(true));
    assert!(fitted.value["projects"].get("truncated").is_none());
}

/// The payload after `tiers` were applied in full, as text.
fn fully_applied(payload: &Value, tiers: &[Tier]) -> String {
    let fitted = fit(payload.clone(), 0, tiers).unwrap();
    serde_json::to_string(&fitted.value).unwrap()
}

#[test]
fn tiers_run_in_order_until_the_payload_fits() {
    let payload = shell_and_projects();
    let tiers = report_tiers();
    let after_shell = fully_applied(&payload, &tiers[..4]);
    let fitted = check(&payload, chars(&after_shell), &tiers);
    assert_eq!(fitted.tiers_applied, ["shell_examples", "shell_groups", "commits", "shell"]);
    assert_eq!(fitted.text, after_shell);
    assert_eq!(fitted.value["shell"], json!({"truncated": true}));
    assert_eq!(fitted.value["projects"]["items"][0]["commits"]["truncated"], json!(true));
    assert!(!fitted.hard_capped);
    // One character less and the next tier has to fire.
    let fitted = check(&payload, chars(&after_shell) - 1, &tiers);
    assert_eq!(fitted.tiers_applied.last().unwrap(), "projects");
}

#[test]
fn last_match_first_trims_the_oldest_project_first() {
    let commits = |prefix: &str| json!({"items": (1..=3).map(|n| format!("{prefix}: a commit subject number {n}")).collect::<Vec<_>>()});
    let payload = json!({"projects": {"items": [
        {"name": "newest", "commits": commits("newest")},
        {"name": "oldest", "commits": commits("oldest")},
    ]}});
    let tiers =
        [Tier::trim("commits", "/projects/items/*/commits/items", 1, "/projects/items/*/commits")
            .unwrap()
            .last_match_first()];
    let full = chars(&check(&payload, usize::MAX, &[]).text);
    // One dropped subject (about 40 characters) pays for the mark (17).
    let fitted = check(&payload, full - 1, &tiers);
    let items = &fitted.value["projects"]["items"];
    assert_eq!(items[1]["commits"]["items"].as_array().unwrap().len(), 2);
    assert_eq!(items[1]["commits"]["truncated"], json!(true));
    assert_eq!(items[0]["commits"], commits("newest"));
}

#[test]
fn projects_are_dropped_oldest_first_one_at_a_time() {
    let payload = shell_and_projects();
    let tiers = report_tiers();
    let all_tiers = fully_applied(&payload, &tiers[..4]);
    // Room for the newest project only: each project's entry is at least 40 characters.
    let fitted = check(&payload, chars(&all_tiers) - 60, &tiers);
    assert_eq!(fitted.tiers_applied.last().unwrap(), "projects");
    assert!(!fitted.hard_capped);
    let names: Vec<&str> = fitted.value["projects"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|project| project["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["newest"]);
    assert_eq!(fitted.value["projects"]["truncated"], json!(true));
}

#[test]
fn an_existing_false_mark_is_replaced() {
    let payload =
        json!({"s": {"items": ["item-one", "item-two", "item-three"], "truncated": false}});
    let tiers = [Tier::trim("s", "/s/items", 0, "/s").unwrap()];
    let expected = r#"{"s":{"items":["item-one","item-two"],"truncated":true}}"#;
    let fitted = check(&payload, chars(expected), &tiers);
    assert_eq!(fitted.text, expected);
}

#[test]
fn hard_cap_when_every_tier_is_spent() {
    let payload = json!({"keep": "this text cannot be dropped by any tier"});
    let fitted = check(&payload, 20, &report_tiers());
    assert!(fitted.hard_capped);
    assert_eq!(fitted.text, r#"{"keep":"this text c"#);
}

#[test]
fn budget_smaller_than_an_empty_payload_still_holds() {
    let empty = json!({});
    assert_eq!(check(&empty, 1, &report_tiers()).text, "{");
    assert_eq!(check(&empty, 0, &report_tiers()).text, "");
    assert_eq!(check(&shell_and_projects(), 0, &report_tiers()).text, "");
}

#[test]
fn every_budget_holds_and_only_the_last_resort_breaks_json() {
    let payload = shell_and_projects();
    let full = chars(&check(&payload, usize::MAX, &[]).text);
    for budget in 0..=full {
        let fitted = check(&payload, budget, &report_tiers());
        if !fitted.hard_capped {
            let parsed: Value = serde_json::from_str(&fitted.text).unwrap();
            assert_eq!(parsed, fitted.value);
        }
    }
}

#[test]
fn budget_counts_characters_not_bytes() {
    let payload = json!({"t": ["日本語のテキスト", "二つ目の長いテキストです"]});
    let tiers = [Tier::trim("t", "/t", 0, "").unwrap()];
    // The whole payload is 33 characters and 87 bytes.
    let fitted = check(&payload, 33, &tiers);
    assert!(fitted.tiers_applied.is_empty());
    // Dropping the second string and marking gives 35 characters, so both go.
    let fitted = check(&payload, 32, &tiers);
    assert_eq!(fitted.text, r#"{"t":[],"truncated":true}"#);
}

#[test]
fn wildcards_match_object_keys_too() {
    let payload = json!({"days": {
        "mon": {"notes": "a long note for monday"},
        "tue": {"notes": "a long note for tuesday"},
    }});
    let tiers = [Tier::remove("notes", "/days/*/notes", "/days/*").unwrap().last_match_first()];
    let expected =
        r#"{"days":{"mon":{"notes":"a long note for monday"},"tue":{"truncated":true}}}"#;
    let fitted = check(&payload, chars(expected), &tiers);
    assert_eq!(fitted.text, expected);
}

#[test]
fn invalid_patterns_are_errors() {
    let error = Tier::trim("t", "a/b", 0, "").unwrap_err();
    insta::assert_snapshot!(error, @"path pattern `a/b` is invalid: it must be empty or start with `/`");
    let error = Tier::trim("t", "/a~2", 0, "").unwrap_err();
    insta::assert_snapshot!(error, @"path pattern `/a~2` is invalid: `~` must be followed by `0` or `1`");
    let error = Tier::trim("t", "/a/b", 0, "/a/b").unwrap_err();
    insta::assert_snapshot!(error, @"tier `t`: mark pattern `/a/b` is not a proper prefix of target pattern `/a/b`");
    assert!(matches!(Tier::remove("t", "/a", "/b"), Err(Error::MarkNotAncestor { .. })));
    let error =
        Error::Serialize(<serde_json::Error as serde::ser::Error>::custom("formatter failed"));
    insta::assert_snapshot!(error, @"cannot serialize the payload");
}
