//! `--lang ja`: warnings' human text in Japanese on stderr and in the report (codes
//! unchanged, JSON keeps the English message plus parameters), and the project of a
//! session without a working directory worded by render, not by aggregate.

use serde_json::Value;

use crate::support::Home;

const NOW: &str = "2026-11-27T18:00:00+09:00";
const TOKYO: &str = "Asia/Tokyo";

fn home() -> Home {
    let home = Home::new();
    // No identity: `identity_unknown`. A session with one bad line and no `cwd`.
    home.repo("app").commit("a", "work", "2026-11-27T10:00:00+09:00");
    let session = "aaaaaaaa-1111-4222-8333-444444444444";
    home.write(
        &format!(".claude/projects/-x/{session}.jsonl"),
        &format!(
            "{}\nnot json\n",
            serde_json::json!({"type": "user", "uuid": "u1", "parentUuid": null, "timestamp": "2026-11-27T01:00:00.000Z", "sessionId": session, "isSidechain": false, "message": {"role": "user", "content": "plan the week"}})
        ),
    );
    home
}

#[test]
fn warnings_in_japanese_with_the_codes_kept() {
    let home = home();
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm", "--lang", "ja"]);
    let report = run.success();
    let path = "[HOME]/.claude/projects/-x/aaaaaaaa-1111-4222-8333-444444444444.jsonl";
    let malformed =
        format!("malformed_lines: `{path}` の不正な行1件を読み飛ばしました（最初は2行目）");
    assert!(run.stderr.contains(&format!("standup: warning: {malformed}\n")), "{}", run.stderr);
    assert!(
        run.stderr.contains("standup: warning: identity_unknown: ユーザーが特定できないため"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("malformed line skipped"), "{}", run.stderr);
    assert!(report.contains("- 警告: `identity_unknown` ユーザーが特定できないため"), "{report}");
    assert!(report.contains("## （不明なプロジェクト） · "), "{report}");
    let english = home.run(NOW, TOKYO, &["daily", "--no-llm", "--lang", "en"]);
    assert!(english.success().contains("## (unknown project) · "), "{}", english.stdout);
    assert!(english.stderr.contains("1 malformed line skipped (line 2)"), "{}", english.stderr);

    let json = home.run(NOW, TOKYO, &["daily", "--no-llm", "--lang", "ja", "--format", "json"]);
    let report: Value = serde_json::from_str(json.success()).unwrap();
    let warning = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|warning| warning["code"] == "malformed_lines")
        .unwrap();
    assert!(warning["message"].as_str().unwrap().ends_with("1 malformed line skipped (line 2)"));
    assert_eq!(warning["detail"]["kind"], "malformed_lines");
    assert_eq!(warning["detail"]["count"], 1);
    assert_eq!(warning["detail"]["line"], 2);
    let unknown = report["buckets"][0]["projects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|project| project["path"] == "")
        .unwrap();
    assert_eq!(unknown["name"], "");
}
