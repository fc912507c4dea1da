//! The evaluation table of the grounding checks (issue 9, item 13): the full home, whose
//! every fact is known (see `full_home.rs`), and 48 replies — faithful ones in both
//! languages, paraphrased, with and without numbers, and unfaithful ones of every kind,
//! whole and mixed into faithful text — sent by loopback fake servers on both APIs, as
//! structured JSON and as plain text, through the real binary. Each verdict is asserted;
//! the table and its percentages are printed (`--nocapture`).
//!
//! The facts: projects `tool` (commit "tool: first version", a Gemini session "Go CLI
//! skeleton"), `app` (commits "lexer: track spans" and "parser: accept trailing commas", a
//! Claude Code session "Trailing commas in the parser" with 2 prompts), `notes` (a Claude
//! Code session "Summarize my meeting notes from this week"), `site` (a Codex session
//! "Investigate the flaky CI job", 2 prompts); shell: cargo test 2, echo 2, cargo clippy,
//! docker compose, git commit, kubectl get, make 1 each; totals 4 projects, 3 commits
//! (+3 −0, 3 files), 4 sessions, 6 prompts, 9 commands.

use std::fmt::Write as _;

use httpmock::prelude::*;
use serde_json::{Value, json};

use crate::full_home::{NOW, TOKYO, full_home};

/// Whether a sentence is true to the data.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Truth {
    Faithful,
    Unfaithful,
}
use Truth::{Faithful as F, Unfaithful as U};

/// One reply of the table.
struct Case {
    name: &'static str,
    kind: &'static str,
    lang: &'static str,
    /// The sentences of the summary with their truth; empty when `raw` is the whole reply.
    sentences: Vec<(&'static str, Truth)>,
    /// A whole reply that is not prose (code, a dump), unfaithful as a whole.
    raw: Option<&'static str>,
    /// Possible blockers: text, cited ids, whether they should be shown.
    blockers: Vec<(&'static str, Vec<&'static str>, bool)>,
    /// `None`: accepted, each sentence kept exactly when faithful. `Some(reason)`: rejected.
    rejected: Option<&'static str>,
}

fn case(name: &'static str, lang: &'static str, sentences: Vec<(&'static str, Truth)>) -> Case {
    Case { name, kind: "daily", lang, sentences, raw: None, blockers: Vec::new(), rejected: None }
}

fn rejected(mut case: Case, reason: &'static str) -> Case {
    case.rejected = Some(reason);
    case
}

fn raw(name: &'static str, reply: &'static str, reason: &'static str) -> Case {
    Case {
        name,
        kind: "daily",
        lang: "en",
        sentences: Vec::new(),
        raw: Some(reply),
        blockers: Vec::new(),
        rejected: Some(reason),
    }
}

fn standup(mut case: Case, blockers: Vec<(&'static str, Vec<&'static str>, bool)>) -> Case {
    case.kind = "standup";
    case.blockers = blockers;
    case
}

// Faithful English sentences.
const EN_APP: &str = "Most of the day went into the app project, where the parser now accepts trailing commas and the lexer tracks spans.";
const EN_COMMITS: &str = "There were 3 commits in total, each adding 1 line.";
const EN_SITE: &str = "A Codex session investigated the flaky CI job on site.";
const EN_TOOL: &str =
    "The tool project got its first version, with a Gemini session on a Go CLI skeleton.";
const EN_SHELL: &str = "In the shell, cargo test ran 2 times and cargo clippy once.";
const EN_NOTES: &str = "A Claude Code session summarized the meeting notes from this week.";
const EN_TOTALS: &str =
    "Across 4 projects there were 4 AI sessions with 6 prompts and 9 shell commands.";
const EN_NO_NUMBERS: &str = "Work on the app parser and lexer took up most of the day.";
const EN_SPANS: &str = "Spans are now tracked by the lexer.";
const EN_TWO_SESSIONS: &str = "Two sessions dealt with trailing commas and the flaky CI job.";
// Faithful Japanese sentences.
const JA_APP: &str = "本日は app プロジェクトで parser が trailing commas を受け付けるようにし、lexer で spans を追跡するようにしました。";
const JA_COMMITS: &str = "コミットは合計 3 件で、追加は 3 行でした。";
const JA_SITE: &str = "site では Codex のセッションで flaky CI job を調査しました。";
const JA_TOOL: &str = "tool プロジェクトでは first version をコミットし、Gemini で Go CLI skeleton のセッションを行いました。";
const JA_SHELL: &str = "cargo test を ２ 回、cargo clippy を 1 回実行しました。";
const JA_NOTES: &str = "notes では今週の meeting notes の要約を Claude Code に依頼しました。";
const JA_TOTALS: &str = "4 つのプロジェクトで 4 件の AI セッション、6 件のプロンプト、9 件のシェルコマンドがありました。";
const JA_NO_NUMBERS: &str = "lexer と parser の作業が中心でした。";
// Unfaithful sentences, one kind each.
const U_NUMBER: &str = "The parser change added 120 lines to app.";
const U_COUNT: &str = "There were 5 commits in the app project.";
const U_PERCENT: &str = "The flaky CI job on site now passes 85% of the time.";
const U_TICKET: &str = "The parser work closed ticket Codex_P168437950.";
const U_VERSION: &str = "Release v2.3.1 of app was tagged after the lexer work.";
const U_URL: &str = "The flaky CI job is described at https://ci.example.com/runs/42.";
const U_PATH: &str = "The fix for the flaky CI job touched /etc/nginx/nginx.conf.";
const U_EMAIL: &str = "The parser change was sent for review to alice@example.com.";
const U_QUOTE: &str = "The commit `refactor: split the lexer` landed in app.";
const U_INVENTED: &str = "The developer also met the marketing team to plan the launch campaign.";
const U_INVENTED_2: &str = "Payments were migrated to the new billing provider.";
const U_SMOL: &str = "The day was spent on a project with 2 projects and 10 projects.";
const U_JA_NUMBER: &str = "コミットは 7 件でした。";
const U_JA_INVENTED: &str = "新しいログイン画面のデザインを営業チームと相談しました。";
const U_JA_URL: &str = "詳細は https://ci.example.com/42 にあります。";
const U_JA_TICKET: &str = "チケット JIRA-1234 を完了しました。";

const ID_CARGO_TEST: &str = "sh:cargo test";
const ID_CODEX: &str = "0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee";

#[expect(clippy::too_many_lines, reason = "the table itself")]
fn cases() -> Vec<Case> {
    vec![
        // Faithful, English.
        case("en: app, commits, site", "en", vec![(EN_APP, F), (EN_COMMITS, F), (EN_SITE, F)]),
        case("en: tool, shell, notes", "en", vec![(EN_TOOL, F), (EN_SHELL, F), (EN_NOTES, F)]),
        case("en: totals and no numbers", "en", vec![(EN_TOTALS, F), (EN_NO_NUMBERS, F)]),
        case(
            "en: paraphrases without numbers",
            "en",
            vec![(EN_SPANS, F), (EN_TWO_SESSIONS, F), (EN_NO_NUMBERS, F)],
        ),
        case("en: one sentence", "en", vec![(EN_APP, F)]),
        case(
            "en: six sentences",
            "en",
            vec![
                (EN_APP, F),
                (EN_COMMITS, F),
                (EN_SITE, F),
                (EN_TOOL, F),
                (EN_SHELL, F),
                (EN_NOTES, F),
            ],
        ),
        // Faithful, Japanese.
        case("ja: app, commits, site", "ja", vec![(JA_APP, F), (JA_COMMITS, F), (JA_SITE, F)]),
        case(
            "ja: tool, shell (full-width digit), notes",
            "ja",
            vec![(JA_TOOL, F), (JA_SHELL, F), (JA_NOTES, F)],
        ),
        case("ja: totals and no numbers", "ja", vec![(JA_TOTALS, F), (JA_NO_NUMBERS, F)]),
        case("ja: one sentence", "ja", vec![(JA_NO_NUMBERS, F)]),
        // Unfaithful mixed into faithful text: the bad sentence goes, the rest stays.
        case("mixed: invented number", "en", vec![(EN_APP, F), (U_NUMBER, U), (EN_SITE, F)]),
        case("mixed: wrong count", "en", vec![(EN_APP, F), (EN_SITE, F), (U_COUNT, U)]),
        case("mixed: invented percentage", "en", vec![(U_PERCENT, U), (EN_TOOL, F), (EN_SHELL, F)]),
        case("mixed: invented ticket", "en", vec![(EN_APP, F), (U_TICKET, U), (EN_NOTES, F)]),
        case("mixed: invented version", "en", vec![(EN_TOTALS, F), (U_VERSION, U), (EN_SITE, F)]),
        case("mixed: invented URL", "en", vec![(EN_SITE, F), (U_URL, U), (EN_APP, F)]),
        case("mixed: invented path", "en", vec![(EN_SITE, F), (EN_TOOL, F), (U_PATH, U)]),
        case("mixed: invented e-mail", "en", vec![(EN_APP, F), (U_EMAIL, U), (EN_SHELL, F)]),
        case("mixed: invented quote", "en", vec![(EN_NOTES, F), (U_QUOTE, U), (EN_APP, F)]),
        case("mixed: invented work", "en", vec![(EN_APP, F), (EN_SITE, F), (U_INVENTED, U)]),
        case(
            "mixed: invented migration",
            "en",
            vec![(U_INVENTED_2, U), (EN_TOOL, F), (EN_COMMITS, F)],
        ),
        case("mixed: the SmolLM2 sentence", "en", vec![(EN_APP, F), (U_SMOL, U), (EN_NOTES, F)]),
        case("mixed ja: invented number", "ja", vec![(JA_APP, F), (U_JA_NUMBER, U), (JA_SITE, F)]),
        case(
            "mixed ja: invented work",
            "ja",
            vec![(JA_TOOL, F), (JA_NOTES, F), (U_JA_INVENTED, U)],
        ),
        case("mixed ja: invented URL", "ja", vec![(U_JA_URL, U), (JA_APP, F), (JA_SHELL, F)]),
        case(
            "mixed ja: invented ticket",
            "ja",
            vec![(JA_TOTALS, F), (U_JA_TICKET, U), (JA_NO_NUMBERS, F)],
        ),
        // Unfaithful as a whole.
        rejected(
            case("whole: invented work only", "en", vec![(U_INVENTED, U), (U_INVENTED_2, U)]),
            "nothing_supported",
        ),
        rejected(
            case("whole: the SmolLM2 sentence alone", "en", vec![(U_SMOL, U)]),
            "nothing_supported",
        ),
        rejected(
            case("whole: mostly invented", "en", vec![(U_NUMBER, U), (EN_APP, F), (U_TICKET, U)]),
            "most_dropped",
        ),
        rejected(
            case(
                "whole ja: mostly invented",
                "ja",
                vec![(U_JA_INVENTED, U), (U_JA_NUMBER, U), (JA_APP, F)],
            ),
            "most_dropped",
        ),
        rejected(
            case("whole: Japanese in an English report", "en", vec![(JA_APP, U), (JA_SITE, U)]),
            "wrong_language",
        ),
        rejected(
            case("whole: English in a Japanese report", "ja", vec![(EN_APP, U), (EN_SITE, U)]),
            "wrong_language",
        ),
        rejected(
            case(
                "whole: repetition",
                "en",
                vec![(EN_NO_NUMBERS, U), (EN_NO_NUMBERS, U), (EN_NO_NUMBERS, U)],
            ),
            "repetition",
        ),
        rejected(
            case(
                "whole ja: repetition",
                "ja",
                vec![(JA_APP, U), (JA_APP, U), (JA_APP, U), (JA_APP, U)],
            ),
            "repetition",
        ),
        rejected(
            case(
                "whole: echo of the instructions",
                "en",
                vec![
                    ("You summarize one developer's working day for their daily report.", U),
                    (EN_APP, F),
                ],
            ),
            "instruction_echo",
        ),
        rejected(
            case(
                "whole ja: echo of the instructions",
                "ja",
                vec![("データにある事実と数値だけを使ってください。", U), (JA_APP, F)],
            ),
            "instruction_echo",
        ),
        raw(
            "whole: a JavaScript test file",
            "```js\ndescribe('parser', () => {\n  it('accepts trailing commas', () => {});\n});\n```",
            "code",
        ),
        raw(
            "whole: code without a fence",
            "describe('parser', () => {\n  it('accepts trailing commas');\n});",
            "code",
        ),
        raw("whole: indented code", "Here it is:\n\n    cargo test -p core --lib", "code"),
        raw(
            "whole: a JSON dump",
            "{\"deletions\":\"1234567890\",\"insertions\":3,\"project\":\"app\"}",
            "json_dump",
        ),
        raw(
            "whole: headings and a list",
            "## Summary\n- app: parser and lexer\n- site: flaky CI job",
            "markup",
        ),
        raw("whole: a table", "| project | commits |\n|---|---|\n| app | 2 |", "markup"),
        raw("whole: a quote", "> The app parser accepts trailing commas now.", "markup"),
        // Standups with blockers: shown only with evidence ids that exist.
        standup(
            case("standup: a blocker with evidence", "en", vec![(EN_SITE, F), (EN_APP, F)]),
            vec![("The flaky CI job on site is still being investigated.", vec![ID_CODEX], true)],
        ),
        standup(
            case(
                "standup: blockers without or with unknown ids",
                "en",
                vec![(EN_APP, F), (EN_SHELL, F)],
            ),
            vec![
                ("Codex_P168437950 is blocking the release.", vec!["Codex_P168437950"], false),
                ("The build might be slow.", vec![], false),
                ("cargo test ran 2 times on core.", vec![ID_CARGO_TEST], true),
            ],
        ),
        standup(
            case("standup ja: a blocker with evidence", "ja", vec![(JA_SITE, F), (JA_APP, F)]),
            vec![("site の flaky CI job はまだ調査中です。", vec![ID_CODEX], true)],
        ),
        standup(
            case(
                "standup ja: a blocker citing a real id with an invented number",
                "ja",
                vec![(JA_APP, F), (JA_COMMITS, F)],
            ),
            vec![("cargo test が 12 回失敗しています。", vec![ID_CARGO_TEST], false)],
        ),
        standup(
            case(
                "standup: a blocker citing one real and one invented id",
                "en",
                vec![(EN_TOTALS, F), (EN_SITE, F)],
            ),
            vec![("The flaky CI job blocks site.", vec![ID_CODEX, "deadbeef00"], false)],
        ),
    ]
}

/// The reply a case sends: JSON of the schema or plain text with `BLOCKER:` lines.
fn reply(case: &Case, structured: bool) -> String {
    if let Some(raw) = case.raw {
        return raw.to_owned();
    }
    let separator = if case.lang == "ja" { "" } else { " " };
    let summary = case.sentences.iter().map(|(text, _)| *text).collect::<Vec<_>>().join(separator);
    if structured {
        let blockers: Vec<Value> = case
            .blockers
            .iter()
            .map(|(text, ids, _)| json!({"text": text, "evidence": ids}))
            .collect();
        json!({"summary": summary, "blockers": blockers}).to_string()
    } else {
        let mut text = summary;
        for (blocker, ids, _) in &case.blockers {
            let _ = write!(text, "\nBLOCKER: {blocker}");
            if !ids.is_empty() {
                let _ = write!(text, " [ids: {}]", ids.join(", "));
            }
        }
        text
    }
}

fn mock_reply<'a>(server: &'a MockServer, api: &str, content: &str) -> httpmock::Mock<'a> {
    let (path, body) = if api == "ollama" {
        ("/api/chat", json!({"message": {"role": "assistant", "content": content}, "done": true}))
    } else {
        (
            "/v1/chat/completions",
            json!({"choices": [{"message": {"role": "assistant", "content": content}}]}),
        )
    };
    server.mock(|when, then| {
        when.method(POST).path(path);
        then.status(200).json_body(body);
    })
}

#[derive(Default)]
struct Tally {
    faithful: usize,
    faithful_kept: usize,
    unfaithful: usize,
    unfaithful_dropped: usize,
}

#[test]
#[expect(clippy::too_many_lines, reason = "one pass over the table with its checks")]
fn evaluation_table() {
    let home = full_home();
    let servers = [("ollama", MockServer::start()), ("openai", MockServer::start())];
    let cases = cases();
    assert!(cases.len() >= 40, "{}", cases.len());
    let mut tally = Tally::default();
    let mut table = String::from("| # | reply | api | shape | verdict |\n|---|---|---|---|---|\n");
    for (idx, case) in cases.iter().enumerate() {
        let (api, server) = &servers[idx % 2];
        let structured = idx % 4 < 2;
        let mut mock = mock_reply(server, api, &reply(case, structured));
        home.config(&format!(
            "[llm]\napi = \"{api}\"\nendpoint = \"{}\"\nmodel = \"m\"\n",
            server.base_url()
        ));
        let run = home.run(
            NOW,
            TOKYO,
            &[case.kind, "--lang", case.lang, "--format", "json", "--no-cache"],
        );
        assert_eq!(run.code, 0, "{}: {}", case.name, run.snapshot());
        mock.assert_hits(1);
        mock.delete();
        let report: Value = serde_json::from_str(&run.stdout).unwrap();
        let check = &report["narrative_check"];
        let verdict = match case.rejected {
            None => {
                assert_eq!(check["accepted"], true, "{}: {check:#}", case.name);
                let sentences = check["sentences"].as_array().unwrap();
                assert_eq!(sentences.len(), case.sentences.len(), "{}: {check:#}", case.name);
                for ((text, truth), sentence) in case.sentences.iter().zip(sentences) {
                    assert_eq!(sentence["text"], *text, "{}", case.name);
                    assert_eq!(sentence["kept"], *truth == F, "{}: {text}: {sentence}", case.name);
                }
                let kept: Vec<&str> = case
                    .sentences
                    .iter()
                    .filter(|(_, truth)| *truth == F)
                    .map(|(text, _)| *text)
                    .collect();
                let separator = if case.lang == "ja" { "" } else { " " };
                assert_eq!(report["narrative"]["text"], kept.join(separator), "{}", case.name);
                let dropped = case.sentences.len() - kept.len();
                let warning = run.stderr.lines().find(|line| line.contains("llm_"));
                if dropped > 0 || case.blockers.iter().any(|(_, _, shown)| !shown) {
                    let warning = warning.unwrap_or_else(|| panic!("{}: no warning", case.name));
                    let expected = if case.lang == "ja" {
                        format!(
                            "standup: warning: llm_sentences_dropped: ナラティブの{}文のうち{dropped}文",
                            case.sentences.len()
                        )
                    } else {
                        format!("standup: warning: llm_sentences_dropped: {dropped} of ")
                    };
                    assert!(warning.starts_with(&expected), "{}: {warning}", case.name);
                } else {
                    assert_eq!(warning, None, "{}", case.name);
                }
                format!("accepted, {} of {} sentences kept", kept.len(), case.sentences.len())
            }
            Some(reason) => {
                assert_eq!(check["accepted"], false, "{}: {check:#}", case.name);
                assert_eq!(check["reason"], reason, "{}: {check:#}", case.name);
                assert!(report["narrative"].is_null(), "{}", case.name);
                // The reason code leads the message in both languages.
                assert!(
                    run.stderr.contains(&format!("standup: warning: llm_rejected: {reason}: ")),
                    "{}: {}",
                    case.name,
                    run.stderr
                );
                format!("rejected: {reason}")
            }
        };
        // Blockers: shown exactly when expected.
        let shown: Vec<&str> = report["narrative"]["blockers"]
            .as_array()
            .map(|items| items.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let expected: Vec<&str> = if case.rejected.is_none() {
            case.blockers.iter().filter(|(_, _, shown)| *shown).map(|(text, _, _)| *text).collect()
        } else {
            Vec::new()
        };
        assert_eq!(shown, expected, "{}", case.name);

        // The tally: sentences by truth, and a non-prose reply as one unfaithful unit.
        let accepted = case.rejected.is_none();
        if case.raw.is_some() {
            tally.unfaithful += 1;
            tally.unfaithful_dropped += 1;
        }
        for (_, truth) in &case.sentences {
            match truth {
                F => {
                    tally.faithful += 1;
                    tally.faithful_kept += usize::from(accepted);
                }
                U => {
                    tally.unfaithful += 1;
                    tally.unfaithful_dropped += 1;
                }
            }
        }
        for (_, _, shown) in &case.blockers {
            if *shown {
                tally.faithful += 1;
                tally.faithful_kept += usize::from(accepted);
            } else {
                tally.unfaithful += 1;
                tally.unfaithful_dropped += 1;
            }
        }
        let _ = writeln!(
            table,
            "| {} | {} ({}, {}) | {api} | {} | {verdict} |",
            idx + 1,
            case.name,
            case.kind,
            case.lang,
            if structured { "json" } else { "plain" }
        );
    }
    #[expect(clippy::cast_precision_loss, reason = "percentages of small counts")]
    let percent = |part: usize, whole: usize| 100.0 * part as f64 / whole as f64;
    #[expect(clippy::print_stderr, reason = "the table is the report of this test")]
    {
        eprintln!(
            "{table}\nfaithful sentences and blockers kept: {} of {} ({:.1}%)\nunfaithful sentences, blockers and replies dropped: {} of {} ({:.1}%)",
            tally.faithful_kept,
            tally.faithful,
            percent(tally.faithful_kept, tally.faithful),
            tally.unfaithful_dropped,
            tally.unfaithful,
            percent(tally.unfaithful_dropped, tally.unfaithful),
        );
    }
}
