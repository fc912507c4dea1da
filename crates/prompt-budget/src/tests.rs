use serde_json::{Value, json};

use super::*;

/// A formatter that escapes `<` like the narrative's does, to check that the size accounting
/// follows the formatter's escaping.
#[derive(Clone)]
struct EscapeLt;

impl Formatter for EscapeLt {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        writer.write_all(fragment.replace('<', "\\u003c").as_bytes())
    }
}

fn tiers() -> Vec<Tier> {
    vec![
        Tier::remove("examples", "/groups/*/examples", "").unwrap(),
        Tier::trim("items", "/projects/*/items", 1, "/projects/*").unwrap().last_match_first(),
        Tier::trim("projects", "/projects", 0, "").unwrap(),
    ]
}

fn payload(n_projects: usize) -> Value {
    let projects: Vec<Value> = (0..n_projects)
        .map(|project_idx| {
            json!({
                "name": format!("p<{project_idx}>"),
                "items": (0..5).map(|item_idx| format!("日本 {item_idx} <&>")).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "groups": [{"head": "a", "examples": ["x", "y"]}, {"head": "b", "examples": ["z"]}],
        "projects": projects,
    })
}

#[test]
fn tracked_size_matches_the_text_for_every_budget() {
    let value = payload(4);
    let full = fit_counting(value.clone(), usize::MAX, &tiers(), EscapeLt).unwrap().0.text;
    let full_chars = full.chars().count();
    for budget in 0..=full_chars + 1 {
        let (fitted, cost) = fit_counting(value.clone(), budget, &tiers(), EscapeLt).unwrap();
        let chars = fitted.text.chars().count();
        assert!(chars <= budget, "budget {budget}: {chars} chars");
        if !fitted.hard_capped {
            assert_eq!(cost.tracked_size, chars, "budget {budget}: {}", fitted.text);
        }
    }
}

#[test]
fn tracked_size_matches_with_the_compact_formatter() {
    let (fitted, cost) = fit_counting(payload(3), 150, &tiers(), CompactFormatter).unwrap();
    assert!(!fitted.hard_capped);
    assert_eq!(cost.tracked_size, fitted.text.chars().count());
}

#[test]
fn cost_grows_linearly_with_the_payload() {
    for n_projects in [10, 100, 1000] {
        let value = payload(n_projects);
        let (fitted, cost) = fit_counting(value, 200, &tiers(), EscapeLt).unwrap();
        let (full, _) = fit_counting(payload(n_projects), usize::MAX, &tiers(), EscapeLt).unwrap();
        let full_chars = full.text.chars().count();
        // One measurement of the whole payload, then each item at most once per tier that
        // can drop it (three here), plus the marks.
        assert!(
            cost.measured <= 4 * full_chars,
            "{n_projects} projects: measured {} of {full_chars}",
            cost.measured
        );
        assert!(fitted.tiers_applied.contains(&"projects".to_owned()));
    }
}

#[test]
fn pattern_parses_escapes_and_wildcards() {
    let pattern = Pattern::parse("/a~1b/*/c~0d/0").unwrap();
    assert_eq!(
        pattern.segments,
        vec![
            pattern::Segment::Literal("a/b".into()),
            pattern::Segment::Any,
            pattern::Segment::Literal("c~d".into()),
            pattern::Segment::Literal("0".into()),
        ]
    );
    assert!(Pattern::parse("").unwrap().segments.is_empty());
}

#[test]
fn pattern_index_segments_must_be_canonical() {
    let value = json!({"a": [10, 11, 12]});
    assert_eq!(
        Pattern::parse("/a/1").unwrap().matches(&value, false),
        vec![vec![Step::Key("a".into()), Step::Index(1)]]
    );
    assert!(Pattern::parse("/a/01").unwrap().matches(&value, false).is_empty());
    assert!(Pattern::parse("/a/1").unwrap().matches(&value, true).is_empty());
}

#[test]
fn a_remove_tier_never_matches_array_elements() {
    // A remove tier's last segment names object keys only: `*` and `0` do not match the
    // elements of an array there (removing an element is a trim's job).
    let value = json!({"a": [10, 11, 12], "o": {"x": 1}});
    assert!(Pattern::parse("/a/*").unwrap().matches(&value, true).is_empty());
    assert_eq!(Pattern::parse("/a/*").unwrap().matches(&value, false).len(), 3);
    assert_eq!(
        Pattern::parse("/o/*").unwrap().matches(&value, true),
        vec![vec![Step::Key("o".into()), Step::Key("x".into())]]
    );
    // Earlier segments still walk into arrays.
    let nested = json!({"a": [{"k": 1}, {"k": 2}]});
    assert_eq!(Pattern::parse("/a/*/k").unwrap().matches(&nested, true).len(), 2);
}

#[test]
fn tracked_size_follows_a_false_mark_being_replaced() {
    // Replacing `"truncated": false` by `true` makes the payload one character shorter:
    // the accounting must follow the replacement exactly, for every budget.
    let mut value = payload(4);
    for project in value["projects"].as_array_mut().unwrap() {
        project["truncated"] = json!(false);
    }
    let full = fit_counting(value.clone(), usize::MAX, &tiers(), EscapeLt).unwrap().0.text;
    for budget in 0..=full.chars().count() {
        let (fitted, cost) = fit_counting(value.clone(), budget, &tiers(), EscapeLt).unwrap();
        if !fitted.hard_capped {
            assert_eq!(cost.tracked_size, fitted.text.chars().count(), "budget {budget}");
        }
    }
}

#[test]
fn a_mark_already_set_is_not_measured_again() {
    // Three items go from one array under one mark: the payload is measured once, then
    // each dropped item once, the mark once when it is first set, and nothing more.
    let value = json!({"s": {"items": ["aaaa", "bbbb", "cccc", "dddd"]}});
    let tiers = [Tier::trim("s", "/s/items", 1, "/s").unwrap()];
    let (fitted, cost) = fit_counting(value, 41, &tiers, CompactFormatter).unwrap();
    assert_eq!(fitted.text, r#"{"s":{"items":["aaaa"],"truncated":true}}"#);
    let whole = r#"{"s":{"items":["aaaa","bbbb","cccc","dddd"]}}"#.len();
    let item = r#""dddd""#.len();
    let mark = r#""truncated""#.len() + "true".len();
    assert_eq!(cost.measured, whole + 3 * item + mark);
}

#[test]
fn a_trim_tier_matches_arrays_inside_arrays() {
    let value = json!({"lists": [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]]});
    let tiers = [Tier::trim("lists", "/lists/*", 1, "").unwrap()];
    let fitted = fit(value, 36, &tiers).unwrap();
    assert_eq!(fitted.text, r#"{"lists":[[1],[7]],"truncated":true}"#);
    assert_eq!(tiers[0].name(), "lists");
    assert_eq!(fitted.tiers_applied, ["lists"]);
}
