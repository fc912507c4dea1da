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

/// `app` with a ticket branch: `PAY-7` named by its first commit and its session, `#12`
/// by its second commit's subject; `site` with `OPS-3` from its session's branch.
fn ticket_payload() -> Value {
    json!({
        "kind": "daily",
        "date": "2026-11-27",
        "projects": {"items": [
            {
                "name": "app",
                "commits": {"items": [
                    {"id": "aaaaaaaaa1", "subject": "client: retry on 503", "files_changed": 1, "insertions": 1, "deletions": 0},
                    {"id": "aaaaaaaaa2", "subject": "docs: note the limit (#12)", "files_changed": 1, "insertions": 1, "deletions": 0},
                ]},
                "sessions": {"items": [{"id": "claude-1", "agent": "Claude Code", "title": "Write the HTTP client", "prompts": 2}]},
                "tickets": {"items": [
                    {"id": "ticket:#12", "key": "#12", "evidence": ["aaaaaaaaa2"]},
                    {"id": "ticket:PAY-7", "key": "PAY-7", "evidence": ["aaaaaaaaa1", "claude-1"]},
                ]},
                "totals": {"commits": 2, "files_changed": 2, "insertions": 2, "deletions": 0, "sessions": 1, "prompts": 2, "commands": 0},
            },
            {
                "name": "site",
                "sessions": {"items": [{"id": "codex-1", "agent": "Codex", "title": "Rotate the deploy keys", "prompts": 3}]},
                "tickets": {"items": [{"id": "ticket:OPS-3", "key": "OPS-3", "evidence": ["codex-1"]}]},
                "totals": {"commits": 0, "files_changed": 0, "insertions": 0, "deletions": 0, "sessions": 1, "prompts": 3, "commands": 0},
            },
        ]},
        "totals": {"projects": 2, "commits": 2, "files_changed": 2, "insertions": 2, "deletions": 0, "sessions": 2, "prompts": 5, "commands": 0},
    })
}

#[track_caller]
fn ticket_faults(sentence: &str, citations: Option<&[&str]>) -> Vec<&'static str> {
    let index = Index::of(&ticket_payload());
    let citations: Option<Vec<String>> =
        citations.map(|ids| ids.iter().map(|id| (*id).to_owned()).collect());
    check(sentence, &index, citations.as_deref()).into_iter().map(SentenceFault::as_str).collect()
}

#[test]
fn a_ticket_key_must_be_in_what_the_sentence_cites() {
    let none: Vec<&str> = Vec::new();
    // The ticket's own id, or a commit or session it was found in.
    for (sentence, ids) in [
        ("The client retries on 503 for PAY-7.", &["ticket:PAY-7"][..]),
        ("The client retries on 503 for PAY-7.", &["aaaaaaaaa1"]),
        ("PAY-7 had a Claude Code session writing the HTTP client.", &["claude-1"]),
        ("The limit of #12 is noted in the docs.", &["aaaaaaaaa2"]),
        ("OPS-3 は deploy keys の rotate です。", &["ticket:OPS-3"]),
        ("PAY-7 の client は 503 で retry します。", &["aaaaaaaaa1"]),
    ] {
        assert_eq!(ticket_faults(sentence, Some(ids)), none, "{sentence} citing {ids:?}");
    }
    // A key of other work than the cited one.
    assert!(
        ticket_faults("The client retries on 503 for OPS-3.", Some(&["aaaaaaaaa1"]))
            .contains(&"ticket")
    );
    assert!(
        ticket_faults("The limit of #12 is noted for PAY-7.", Some(&["aaaaaaaaa2"]))
            .contains(&"ticket")
    );
    assert!(
        ticket_faults("PAY-7 の client は 503 で retry します。", Some(&["codex-1"]))
            .contains(&"ticket")
    );
    // A key the payload does not hold at all.
    assert!(
        ticket_faults("The client retries on 503 for PAY-8.", Some(&["aaaaaaaaa1"]))
            .contains(&"ticket")
    );
    assert!(
        ticket_faults("The limit of #13 is noted in the docs.", Some(&["aaaaaaaaa2"]))
            .contains(&"ticket")
    );
    // Standards are not tickets.
    assert_eq!(ticket_faults("The client retries on 503, per UTF-8.", Some(&["aaaaaaaaa1"])), none);
}

#[test]
fn a_ticket_key_in_an_uncited_sentence_must_be_in_what_it_speaks_of() {
    let none: Vec<&str> = Vec::new();
    assert_eq!(ticket_faults("In app, the client retries on 503 for PAY-7.", None), none);
    assert_eq!(ticket_faults("In site, the deploy keys were rotated for OPS-3.", None), none);
    assert!(
        ticket_faults("In site, the deploy keys were rotated for PAY-7.", None).contains(&"ticket")
    );
    assert!(ticket_faults("The deploy keys were rotated for OPS-4.", None).contains(&"ticket"));
}

#[test]
fn a_ticket_key_does_not_name_the_project_its_prefix_spells() {
    let payload = json!({
        "kind": "daily",
        "date": "2026-11-27",
        "projects": {"items": [
            {
                "name": "ops",
                "commits": {"items": [{"id": "bbbbbbbbb1", "subject": "deploy: rotate the staging keys", "files_changed": 1, "insertions": 1, "deletions": 0}]},
                "totals": {"commits": 1, "files_changed": 1, "insertions": 1, "deletions": 0, "sessions": 0, "prompts": 0, "commands": 0},
            },
            {
                "name": "pay",
                "commits": {"items": [{"id": "aaaaaaaaa1", "subject": "client: retry on 503", "files_changed": 1, "insertions": 1, "deletions": 0}]},
                "tickets": {"items": [{"id": "ticket:PAY-7", "key": "PAY-7", "evidence": ["aaaaaaaaa1"]}]},
                "totals": {"commits": 1, "files_changed": 1, "insertions": 1, "deletions": 0, "sessions": 0, "prompts": 0, "commands": 0},
            },
        ]},
        "totals": {"projects": 2, "commits": 2, "files_changed": 2, "insertions": 2, "deletions": 0, "sessions": 0, "prompts": 0, "commands": 0},
    });
    let index = Index::of(&payload);
    let faults = |sentence: &str| -> Vec<&str> {
        check(sentence, &index, None).into_iter().map(SentenceFault::as_str).collect()
    };
    // `PAY-7` does not name `pay`: the sentence speaks of `ops` only, which has no PAY-7.
    assert!(faults("The staging keys in ops were rotated for PAY-7.").contains(&"ticket"));
    assert_eq!(faults("In pay, the client retries on 503 for PAY-7."), Vec::<&str>::new());
}
