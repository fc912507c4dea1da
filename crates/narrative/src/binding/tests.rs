use serde_json::json;

use super::*;

/// A day with two projects: `app` (2 commits, a Claude Code session of 2 prompts, cargo
/// clippy once) and `notes` (a Claude Code session, no commit), `site` (a Codex session);
/// cargo test 2 runs, 1 failed, outside any project.
fn payload() -> Value {
    json!({
        "kind": "daily",
        "date": "2026-11-27",
        "projects": {"items": [
            {
                "name": "app",
                "commits": {"items": [
                    {"id": "aaaaaaaaa1", "subject": "parser: accept trailing commas", "files_changed": 1, "insertions": 1, "deletions": 0},
                    {"id": "aaaaaaaaa2", "subject": "lexer: track spans", "files_changed": 1, "insertions": 1, "deletions": 0},
                ]},
                "sessions": {"items": [{"id": "claude-1", "agent": "Claude Code", "title": "Trailing commas in the parser", "prompts": 2}]},
                "shell": {"groups": [{"id": "sh:cargo clippy", "head": "cargo clippy", "count": 1}]},
                "totals": {"commits": 2, "files_changed": 2, "insertions": 2, "deletions": 0, "sessions": 1, "prompts": 2, "commands": 1},
            },
            {
                "name": "notes",
                "sessions": {"items": [{"id": "claude-2", "agent": "Claude Code", "title": "Summarize my meeting notes from this week", "prompts": 1}]},
                "totals": {"commits": 0, "files_changed": 0, "insertions": 0, "deletions": 0, "sessions": 1, "prompts": 1, "commands": 0},
            },
            {
                "name": "site",
                "sessions": {"items": [{"id": "codex-1", "agent": "Codex", "title": "Investigate the flaky CI job", "prompts": 3}]},
                "totals": {"commits": 0, "files_changed": 0, "insertions": 0, "deletions": 0, "sessions": 1, "prompts": 3, "commands": 0},
            },
        ]},
        "shell": {"groups": [{"id": "sh:cargo test", "head": "cargo test", "count": 2, "failed": 1}]},
        "totals": {"projects": 3, "commits": 2, "files_changed": 2, "insertions": 2, "deletions": 0, "sessions": 3, "prompts": 6, "commands": 3},
    })
}

#[track_caller]
fn faults(sentence: &str, citations: Option<&[&str]>) -> Vec<&'static str> {
    let index = Index::of(&payload());
    let citations: Option<Vec<String>> =
        citations.map(|ids| ids.iter().map(|id| (*id).to_owned()).collect());
    check(sentence, &index, citations.as_deref()).into_iter().map(SentenceFault::as_str).collect()
}

#[test]
fn faithful_sentences_pass_with_and_without_citations() {
    let none: Vec<&str> = Vec::new();
    for (sentence, ids) in [
        ("The app parser now accepts trailing commas.", &["aaaaaaaaa1"][..]),
        ("app had 2 commits, each adding 1 line.", &["aaaaaaaaa1", "aaaaaaaaa2"]),
        ("A Codex session investigated the flaky CI job on site.", &["codex-1"]),
        ("There were no commits in notes.", &["claude-2"]),
        ("In total there were 3 sessions with 6 prompts.", &["claude-1", "claude-2", "codex-1"]),
        ("cargo test ran 2 times.", &["sh:cargo test"]),
        ("notes ではコミットはありませんでした。", &["claude-2"]),
        ("app のコミットは 2 件でした。", &["aaaaaaaaa1", "aaaaaaaaa2"]),
    ] {
        assert_eq!(faults(sentence, Some(ids)), none, "{sentence} citing {ids:?}");
        assert_eq!(faults(sentence, None), none, "{sentence} uncited");
    }
}

#[test]
fn citations_must_exist_and_be_given() {
    assert_eq!(faults("The app parser accepts trailing commas.", Some(&[])), ["no_evidence"]);
    assert_eq!(
        faults("The app parser accepts trailing commas.", Some(&["deadbeef00"])),
        ["unknown_evidence"]
    );
    // Words of another item than the one cited.
    assert_eq!(
        faults("The parser accepts trailing commas.", Some(&["aaaaaaaaa2"])),
        ["attribution"]
    );
    // A project named that is not the cited item's.
    assert_eq!(faults("site got the lexer spans.", Some(&["aaaaaaaaa2"])), ["attribution"]);
}

#[test]
fn swapped_attribution_is_dropped() {
    assert_eq!(faults("The site project now tracks lexer spans.", None), ["attribution"]);
    assert_eq!(
        faults("A Claude Code session investigated the flaky CI job.", None),
        ["attribution"]
    );
    assert_eq!(faults("In app, a Codex session worked on trailing commas.", None), ["attribution"]);
    assert_eq!(faults("site では lexer の spans を追跡しました。", None), ["attribution"]);
}

#[test]
fn counts_are_bound_to_what_the_sentence_names() {
    assert_eq!(faults("notes had 2 commits.", None), ["count"]);
    assert_eq!(faults("site had 3 prompts.", None), Vec::<&str>::new());
    assert_eq!(faults("site had 2 prompts.", None), ["count"]);
    assert_eq!(faults("There were 2 sessions in total.", None), ["count"]);
    assert_eq!(faults("cargo clippy ran 2 times.", None), ["count"]);
    assert_eq!(faults("app で 3 時間作業しました。", None), ["count"]);
    assert_eq!(faults("notes のコミットは 2 件でした。", None), ["count"]);
}

#[test]
fn denials_are_checked_against_the_counts() {
    assert_eq!(faults("Nothing was committed to app.", None), ["negation"]);
    assert_eq!(faults("app had no commits.", None), ["negation"]);
    assert_eq!(faults("site had no commits.", None), Vec::<&str>::new());
    assert_eq!(faults("app ではコミットはありませんでした。", None), ["negation"]);
    assert_eq!(faults("No shell commands were run.", None), ["negation"]);
    assert_eq!(
        faults("The app project not only tracks spans but also accepts trailing commas.", None),
        Vec::<&str>::new()
    );
    // A denial of something the data cannot count.
    assert_eq!(faults("The parser does not accept trailing commas.", None), ["negation"]);
}

#[test]
fn comparisons_need_several_days_and_outcomes_need_evidence() {
    assert_eq!(faults("app got more commits than usual.", None), ["scope"]);
    assert_eq!(faults("app の parser をまた修正しました。", None), ["scope"]);
    assert_eq!(faults("また、app の parser を更新しました。", None), Vec::<&str>::new());
    // `tests` is cargo test's word, and cargo test ran outside app.
    assert_eq!(faults("The app parser tests now pass.", None), ["attribution", "outcome"]);
    assert_eq!(faults("The app parser now passes.", None), ["outcome"]);
    assert_eq!(faults("The lexer change was merged and deployed.", None), ["outcome"]);
    // cargo test failed once and passed after: a passing run is shown.
    assert_eq!(faults("cargo test passed in the end.", None), Vec::<&str>::new());
}

#[test]
fn a_session_described_by_its_title_must_be_credited_to_its_agent() {
    assert_eq!(
        faults("A Codex session worked on trailing commas in the parser.", None),
        ["attribution"]
    );
    assert_eq!(
        faults("A Claude Code session worked on trailing commas in the parser.", None),
        Vec::<&str>::new()
    );
    // Both sessions described, one of them by its agent: nothing is misattributed.
    assert_eq!(
        faults(
            "A Codex session investigated the flaky CI job while the parser got trailing commas.",
            None
        ),
        Vec::<&str>::new()
    );
}

#[test]
fn a_project_named_like_a_common_word_is_not_taken_as_named() {
    let mut payload = payload();
    payload["projects"]["items"][0]["name"] = json!("work");
    let index = Index::of(&payload);
    // "Work" is ordinary prose here: the sentence is checked against every item.
    let faults = check("Work on the flaky CI job went on in a Codex session.", &index, None);
    assert!(faults.is_empty(), "{faults:?}");
}
