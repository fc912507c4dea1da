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
//!
//! Issue 25 added the kinds of falsehood made only of true words — a denial of work the
//! data shows, swapped attribution, a count bound to the wrong thing, a comparison the one
//! day cannot hold, an outcome nobody recorded — at least 10 cases each in English and
//! Japanese, each a faithful sentence followed by the false one, and cases of citations
//! that are missing or invented. Every case is sent twice, as JSON of the cited schema
//! (each sentence with its evidence ids) and as plain text, one on each API. The figures
//! are printed per kind.

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
    /// The kind of falsehood the case is about (`faithful` for none), for the figures.
    label: &'static str,
    /// Only as JSON of the schema (the case is about citations).
    structured_only: bool,
}

fn case(name: &'static str, lang: &'static str, sentences: Vec<(&'static str, Truth)>) -> Case {
    let label = if sentences.iter().all(|(_, truth)| *truth == F) { "faithful" } else { "earlier" };
    Case {
        name,
        kind: "daily",
        lang,
        sentences,
        raw: None,
        blockers: Vec::new(),
        rejected: None,
        label,
        structured_only: false,
    }
}

/// A faithful sentence followed by a false one of kind `label`.
fn false_after(
    label: &'static str,
    name: &'static str,
    lang: &'static str,
    faithful: &'static str,
    false_one: &'static str,
) -> Case {
    Case { label, ..case(name, lang, vec![(faithful, F), (false_one, U)]) }
}

/// Faithful sentences of kind `label` (true negations, counts…), kept.
fn true_of(
    label: &'static str,
    name: &'static str,
    lang: &'static str,
    sentences: &[&'static str],
) -> Case {
    Case { label, ..case(name, lang, sentences.iter().map(|text| (*text, F)).collect()) }
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
        label: "earlier",
        structured_only: false,
    }
}

fn standup(mut case: Case, blockers: Vec<(&'static str, Vec<&'static str>, bool)>) -> Case {
    case.kind = "standup";
    if blockers.iter().any(|(_, _, shown)| !shown) {
        case.label = "earlier";
    }
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

// Issue 25: faithful sentences of the new kinds (true denials, counts bound right).
const EN_NO_COMMITS_NOTES: &str = "There were no commits in notes.";
const EN_SITE_NO_COMMITS: &str = "The site project had no commits.";
const EN_APP_TWO: &str = "The app project had 2 commits.";
const EN_CODEX_PROMPTS: &str = "The Codex session on site had 2 prompts.";
const EN_TOOL_ONE: &str = "The tool project had 1 commit, its first version.";
const EN_CLIPPY_ONCE: &str = "In app, cargo clippy ran 1 time.";
const JA_NO_COMMITS_NOTES: &str = "notes ではコミットはありませんでした。";
const JA_SITE_NO_COMMITS: &str = "site にはコミットがありませんでした。";
const JA_APP_TWO: &str = "app のコミットは 2 件でした。";
const JA_CODEX_PROMPTS: &str = "site の Codex セッションではプロンプトが 2 件ありました。";
// Negation: denying work the data shows (or what it cannot count).
const N_EN: [&str; 7] = [
    "Nothing was committed to app.",
    "There were no commits in the tool project.",
    "No AI sessions were run on site.",
    "The app project saw no shell commands.",
    "No prompts were sent to any agent.",
    "The developer did not commit anything.",
    "The parser does not accept trailing commas yet.",
];
const N_JA: [&str; 5] = [
    "app ではコミットはありませんでした。",
    "tool にはコミットがありませんでした。",
    "site では AI セッションはありませんでした。",
    "シェルコマンドは実行していません。",
    "プロンプトは送っていません。",
];
// Swapped attribution: one project's work as another's, a session credited to the wrong
// agent.
const A_EN: [&str; 7] = [
    "The site project now tracks lexer spans.",
    "The tool project accepts trailing commas in the parser now.",
    "A Claude Code session investigated the flaky CI job.",
    "A Codex session worked on trailing commas in the parser.",
    "The Gemini session summarized the meeting notes from this week.",
    "In the app project, a Gemini session built the Go CLI skeleton.",
    "The notes project got its first version.",
];
const A_JA: [&str; 5] = [
    "site では lexer の spans を追跡しました。",
    "tool プロジェクトで parser が trailing commas を受け付けるようにしました。",
    "Claude Code のセッションで flaky CI job を調査しました。",
    "Codex のセッションで notes の meeting notes を要約しました。",
    "app で Gemini のセッションが Go CLI skeleton を作りました。",
];
// A count bound to the wrong thing: another project's count, a total, a prompt count.
const C_EN: [&str; 7] = [
    "The app project had 3 commits.",
    "The tool project had 2 commits.",
    "The site project had 2 sessions.",
    "The app session had 6 prompts.",
    "There were 4 commits across the projects.",
    "cargo clippy ran 2 times.",
    "The notes project had 1 commit.",
];
const C_JA: [&str; 5] = [
    "app のコミットは 3 件でした。",
    "tool ではコミットが 2 件ありました。",
    "site のセッションは 2 件でした。",
    "cargo clippy を 2 回実行しました。",
    "app では 6 件のプロンプトがありました。",
];
// Comparisons the one day cannot hold.
const S_EN: [&str; 7] = [
    "The app project got more commits than usual.",
    "The flaky CI job on site came up again.",
    "The lexer finally tracks spans.",
    "As usual, most of the work went into app.",
    "Work on the parser is trending up compared with the previous week.",
    "It was the busiest day of the month for app.",
    "The parser is still being worked on in app.",
];
const S_JA: [&str; 5] = [
    "app の parser をまた更新しました。",
    "site の flaky CI job はまだ調査中です。",
    "初めて tool で Go CLI skeleton を作りました。",
    "いつも通り app の作業が中心でした。",
    "先週より app のコミットが増えました。",
];
// Outcomes nobody recorded.
const O_EN: [&str; 7] = [
    "The trailing commas change in app now passes CI.",
    "The lexer change was merged into the app project.",
    "The first version of tool was released.",
    "The site work on the flaky CI job was deployed.",
    "The parser change in app was approved.",
    "The flaky CI job on site is fixed.",
    "The spans work in app shipped.",
];
const O_JA: [&str; 5] = [
    "app の parser の変更はマージされました。",
    "tool の first version をリリースしました。",
    "site の flaky CI job は解決しました。",
    "app の trailing commas の変更で CI が通過しました。",
    "site の flaky CI job の修正をデプロイしました。",
];

/// The evidence each sentence cites in a structured reply: `c:<subject>` is that commit,
/// `s:<title>` that session (their ids are read from the report), `sh:…` a shell group.
const CITES: &[(&str, &[&str])] = &[
    (EN_APP, &[C_PARSER, C_LEXER]),
    (EN_COMMITS, &[C_PARSER, C_LEXER, C_TOOL]),
    (EN_SITE, &[S_CODEX]),
    (EN_TOOL, &[C_TOOL, S_GEMINI]),
    (EN_SHELL, &[ID_CARGO_TEST, "sh:cargo clippy"]),
    (EN_NOTES, &[S_NOTES]),
    (EN_TOTALS, &[S_CLAUDE, S_NOTES, S_CODEX, S_GEMINI]),
    (EN_NO_NUMBERS, &[C_PARSER, C_LEXER]),
    (EN_SPANS, &[C_LEXER]),
    (EN_TWO_SESSIONS, &[S_CLAUDE, S_CODEX]),
    (JA_APP, &[C_PARSER, C_LEXER]),
    (JA_COMMITS, &[C_PARSER, C_LEXER, C_TOOL]),
    (JA_SITE, &[S_CODEX]),
    (JA_TOOL, &[C_TOOL, S_GEMINI]),
    (JA_SHELL, &[ID_CARGO_TEST, "sh:cargo clippy"]),
    (JA_NOTES, &[S_NOTES]),
    (JA_TOTALS, &[S_CLAUDE, S_NOTES, S_CODEX, S_GEMINI]),
    (JA_NO_NUMBERS, &[C_PARSER, C_LEXER]),
    (U_NUMBER, &[C_PARSER]),
    (U_COUNT, &[C_PARSER, C_LEXER]),
    (U_PERCENT, &[S_CODEX]),
    (U_TICKET, &[C_PARSER]),
    (U_VERSION, &[C_LEXER]),
    (U_URL, &[S_CODEX]),
    (U_PATH, &[S_CODEX]),
    (U_EMAIL, &[C_PARSER]),
    (U_QUOTE, &[C_LEXER]),
    (U_INVENTED, &[S_NOTES]),
    (U_INVENTED_2, &[C_TOOL]),
    (U_SMOL, &[C_TOOL]),
    (U_JA_NUMBER, &[C_PARSER, C_LEXER, C_TOOL]),
    (U_JA_INVENTED, &[S_NOTES]),
    (U_JA_URL, &[S_CODEX]),
    (U_JA_TICKET, &[C_PARSER]),
    (EN_NO_COMMITS_NOTES, &[S_NOTES]),
    (EN_SITE_NO_COMMITS, &[S_CODEX]),
    (EN_APP_TWO, &[C_PARSER, C_LEXER]),
    (EN_CODEX_PROMPTS, &[S_CODEX]),
    (EN_TOOL_ONE, &[C_TOOL]),
    (EN_CLIPPY_ONCE, &["sh:cargo clippy"]),
    (JA_NO_COMMITS_NOTES, &[S_NOTES]),
    (JA_SITE_NO_COMMITS, &[S_CODEX]),
    (JA_APP_TWO, &[C_PARSER, C_LEXER]),
    (JA_CODEX_PROMPTS, &[S_CODEX]),
    (N_EN[0], &[S_CLAUDE]),
    (N_EN[1], &[S_GEMINI]),
    (N_EN[2], &[S_CODEX]),
    (N_EN[3], &["sh:cargo clippy"]),
    (N_EN[4], &[S_CLAUDE]),
    (N_EN[5], &[C_TOOL]),
    (N_EN[6], &[C_PARSER]),
    (N_JA[0], &[S_CLAUDE]),
    (N_JA[1], &[S_GEMINI]),
    (N_JA[2], &[S_CODEX]),
    (N_JA[3], &["sh:echo"]),
    (N_JA[4], &[S_CLAUDE]),
    (A_EN[0], &[C_LEXER]),
    (A_EN[1], &[C_PARSER]),
    (A_EN[2], &[S_CODEX]),
    (A_EN[3], &[S_CLAUDE]),
    (A_EN[4], &[S_NOTES]),
    (A_EN[5], &[S_GEMINI]),
    (A_EN[6], &[C_TOOL]),
    (A_JA[0], &[C_LEXER]),
    (A_JA[1], &[C_PARSER]),
    (A_JA[2], &[S_CODEX]),
    (A_JA[3], &[S_NOTES]),
    (A_JA[4], &[S_GEMINI]),
    (C_EN[0], &[C_PARSER, C_LEXER]),
    (C_EN[1], &[C_TOOL]),
    (C_EN[2], &[S_CODEX]),
    (C_EN[3], &[S_CLAUDE]),
    (C_EN[4], &[C_PARSER, C_LEXER, C_TOOL]),
    (C_EN[5], &["sh:cargo clippy"]),
    (C_EN[6], &[S_NOTES]),
    (C_JA[0], &[C_PARSER, C_LEXER]),
    (C_JA[1], &[C_TOOL]),
    (C_JA[2], &[S_CODEX]),
    (C_JA[3], &["sh:cargo clippy"]),
    (C_JA[4], &[S_CLAUDE]),
    (S_EN[0], &[C_PARSER, C_LEXER]),
    (S_EN[1], &[S_CODEX]),
    (S_EN[2], &[C_LEXER]),
    (S_EN[3], &[C_PARSER]),
    (S_EN[4], &[C_PARSER]),
    (S_EN[5], &[C_PARSER, C_LEXER]),
    (S_EN[6], &[C_PARSER]),
    (S_JA[0], &[C_PARSER]),
    (S_JA[1], &[S_CODEX]),
    (S_JA[2], &[S_GEMINI]),
    (S_JA[3], &[C_PARSER]),
    (S_JA[4], &[C_PARSER, C_LEXER]),
    (O_EN[0], &[C_PARSER]),
    (O_EN[1], &[C_LEXER]),
    (O_EN[2], &[C_TOOL]),
    (O_EN[3], &[S_CODEX]),
    (O_EN[4], &[C_PARSER]),
    (O_EN[5], &[S_CODEX]),
    (O_EN[6], &[C_LEXER]),
    (O_JA[0], &[C_PARSER]),
    (O_JA[1], &[C_TOOL]),
    (O_JA[2], &[S_CODEX]),
    (O_JA[3], &[C_PARSER]),
    (O_JA[4], &[S_CODEX]),
];
const C_PARSER: &str = "c:parser: accept trailing commas";
const C_LEXER: &str = "c:lexer: track spans";
const C_TOOL: &str = "c:tool: first version";
const S_CLAUDE: &str = "s:Trailing commas in the parser";
const S_NOTES: &str = "s:Summarize my meeting notes from this week";
const S_CODEX: &str = "s:Investigate the flaky CI job";
const S_GEMINI: &str = "s:Go CLI skeleton";

/// The new kinds: 12 cases each (7 English, 5 Japanese), each a faithful sentence and then
/// the false one, plus faithful cases of the same shapes and cases of bad citations.
fn bound_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let kinds: [(&str, &[&str], &[&str]); 5] = [
        ("negation", &N_EN, &N_JA),
        ("attribution", &A_EN, &A_JA),
        ("count", &C_EN, &C_JA),
        ("scope", &S_EN, &S_JA),
        ("outcome", &O_EN, &O_JA),
    ];
    let en_first = [EN_APP, EN_SITE, EN_TOOL, EN_NOTES, EN_SHELL, EN_TOTALS, EN_SPANS];
    let ja_first = [JA_APP, JA_SITE, JA_TOOL, JA_NOTES, JA_COMMITS];
    for (label, en, ja) in kinds {
        for (at, false_one) in en.iter().enumerate() {
            cases.push(false_after(label, label, "en", en_first[at % en_first.len()], false_one));
        }
        for (at, false_one) in ja.iter().enumerate() {
            cases.push(false_after(label, label, "ja", ja_first[at % ja_first.len()], false_one));
        }
    }
    cases.extend([
        true_of(
            "faithful",
            "true denials",
            "en",
            &[EN_NO_COMMITS_NOTES, EN_SITE_NO_COMMITS, EN_APP],
        ),
        true_of(
            "faithful",
            "counts bound right",
            "en",
            &[EN_APP_TWO, EN_CODEX_PROMPTS, EN_TOOL_ONE],
        ),
        true_of("faithful", "a project's shell count", "en", &[EN_CLIPPY_ONCE, EN_COMMITS]),
        true_of(
            "faithful",
            "true denials",
            "ja",
            &[JA_NO_COMMITS_NOTES, JA_SITE_NO_COMMITS, JA_APP],
        ),
        true_of("faithful", "counts bound right", "ja", &[JA_APP_TWO, JA_CODEX_PROMPTS, JA_TOTALS]),
    ]);
    cases
}

/// Cases of citations: none, or ids the payload does not hold (structured replies only).
fn citation_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (name, lang, first, false_one) in [
        ("cites nothing", "en", EN_APP, CITE_NOTHING_EN),
        ("cites an invented id", "en", EN_SITE, CITE_INVENTED_EN),
        ("cites a real and an invented id", "en", EN_TOOL, CITE_MIXED_EN),
        ("cites nothing", "ja", JA_APP, CITE_NOTHING_JA),
        ("cites an invented id", "ja", JA_SITE, CITE_INVENTED_JA),
    ] {
        cases.push(Case {
            structured_only: true,
            ..false_after("citation", name, lang, first, false_one)
        });
    }
    cases
}
// Faithful words, bad citations (the list above gives them none, an invented id, or a
// real one and an invented one).
const CITE_NOTHING_EN: &str = "Spans are tracked by the lexer in app.";
const CITE_INVENTED_EN: &str = "The lexer in app tracks spans now.";
const CITE_MIXED_EN: &str = "The app lexer tracks spans.";
const CITE_NOTHING_JA: &str = "app の lexer で spans を追跡しました。";
const CITE_INVENTED_JA: &str = "lexer で spans を追跡するようにしました。";
const BAD_CITES: &[(&str, &[&str])] = &[
    (CITE_NOTHING_EN, &[]),
    (CITE_INVENTED_EN, &["deadbeef00"]),
    (CITE_MIXED_EN, &[C_LEXER, "0123456789"]),
    (CITE_NOTHING_JA, &[]),
    (CITE_INVENTED_JA, &["s:no such session"]),
];

/// The ticket home (issue 21, item 6): `pay` with "docs: note the upload limit (#12)" on
/// `main` and "client: retry on 503" on `feature/PAY-7-retry`, `ops` with "deploy: rotate
/// the staging keys for OPS-3", all on the full home's day.
fn ticket_home() -> crate::support::Home {
    let home = crate::support::Home::new();
    home.git_identity(crate::support::ME.email, crate::support::ME.name);
    let pay = home.repo("pay");
    pay.commit("LIMITS.md", "docs: note the upload limit (#12)", "2026-11-27T10:00:00+09:00");
    pay.git(&["checkout", "-q", "-b", "feature/PAY-7-retry"]);
    pay.commit("retry.rs", "client: retry on 503", "2026-11-27T11:00:00+09:00");
    let ops = home.repo("ops");
    ops.commit("keys.tf", "deploy: rotate the staging keys for OPS-3", "2026-11-27T14:00:00+09:00");
    home
}

const T_PAY_EN: &str = "The client in pay now retries on 503 for PAY-7.";
const T_LIMIT_EN: &str = "#12 notes the upload limit in pay.";
const T_OPS_EN: &str = "The staging keys in ops were rotated for OPS-3.";
const T_PAY_JA: &str = "pay で PAY-7 の client が 503 で retry するようになりました。";
const T_OPS_JA: &str = "ops で OPS-3 の staging keys を rotate しました。";
// A key of other work than the one the sentence is about, and keys nobody wrote.
const T_WRONG_EN: &str = "The staging keys in ops were rotated for PAY-7.";
const T_INVENTED_EN: &str = "The client in pay retries on 503 for PAY-8.";
const T_OTHER_EN: &str = "OPS-3 also covered the upload limit in pay.";
const T_WRONG_JA: &str = "ops の staging keys は PAY-7 で rotate しました。";
const T_INVENTED_JA: &str = "ops で OPS-9 の staging keys を rotate しました。";
const TICKET_CITES: &[(&str, &[&str])] = &[
    (T_PAY_EN, &["ticket:PAY-7"]),
    (T_LIMIT_EN, &[T_C_LIMIT]),
    (T_OPS_EN, &[T_C_KEYS]),
    (T_PAY_JA, &[T_C_RETRY]),
    (T_OPS_JA, &["ticket:OPS-3"]),
    (T_WRONG_EN, &[T_C_KEYS]),
    (T_INVENTED_EN, &[T_C_RETRY]),
    (T_OTHER_EN, &[T_C_LIMIT]),
    (T_WRONG_JA, &[T_C_KEYS]),
    (T_INVENTED_JA, &[T_C_KEYS]),
];
const T_C_LIMIT: &str = "c:docs: note the upload limit (#12)";
const T_C_RETRY: &str = "c:client: retry on 503";
const T_C_KEYS: &str = "c:deploy: rotate the staging keys for OPS-3";

/// Ticket keys in the narrative: each case a faithful sentence naming a key of the work it
/// is about, then a false one naming a key of other work or a key nobody wrote; and the
/// faithful ones together.
fn ticket_cases() -> Vec<Case> {
    vec![
        false_after("ticket", "a key of other work", "en", T_PAY_EN, T_WRONG_EN),
        false_after("ticket", "a key nobody wrote", "en", T_OPS_EN, T_INVENTED_EN),
        false_after("ticket", "a key of another project", "en", T_LIMIT_EN, T_OTHER_EN),
        false_after("ticket", "a key of other work", "ja", T_PAY_JA, T_WRONG_JA),
        false_after("ticket", "a key nobody wrote", "ja", T_OPS_JA, T_INVENTED_JA),
        true_of("faithful", "ticket keys of their work", "en", &[T_PAY_EN, T_LIMIT_EN, T_OPS_EN]),
        true_of("faithful", "ticket keys of their work", "ja", &[T_OPS_JA, T_PAY_JA]),
    ]
    .into_iter()
    .map(|case| Case {
        label: if case.label == "faithful" { "ticket_faithful" } else { case.label },
        ..case
    })
    .collect()
}

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

/// The evidence ids a sentence cites, resolved against the report (`c:`/`s:` keys become
/// the commit's or session's id; anything else is cited as written).
fn cites(text: &str, ids: &std::collections::HashMap<String, String>) -> Vec<String> {
    let keys = CITES
        .iter()
        .chain(BAD_CITES)
        .chain(TICKET_CITES)
        .find(|(sentence, _)| *sentence == text)
        .map_or(&[][..], |(_, keys)| *keys);
    keys.iter().map(|key| ids.get(*key).cloned().unwrap_or_else(|| (*key).to_owned())).collect()
}

/// The ids of the full home's commits and sessions, by `c:<subject>` and `s:<title>`.
fn evidence_ids(home: &crate::support::Home) -> std::collections::HashMap<String, String> {
    let ids = ids_of(home);
    assert_eq!(ids.len(), 7, "{ids:?}");
    ids
}

/// The ids of a home's commits and sessions, by `c:<subject>` and `s:<title>`.
fn ids_of(home: &crate::support::Home) -> std::collections::HashMap<String, String> {
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm", "--format", "json"]);
    let report: Value = serde_json::from_str(run.success()).unwrap();
    let mut ids = std::collections::HashMap::new();
    for project in report["buckets"][0]["projects"].as_array().unwrap() {
        for commit in project["commits"].as_array().into_iter().flatten() {
            let hash = commit["hash"].as_str().unwrap();
            let subject = commit["subject"].as_str().unwrap();
            ids.insert(format!("c:{subject}"), hash[..10].to_owned());
        }
        for session in project["sessions"].as_array().into_iter().flatten() {
            let title = session["title"].as_str().unwrap();
            ids.insert(format!("s:{title}"), session["session_id"].as_str().unwrap().to_owned());
        }
    }
    ids
}

/// The reply a case sends: JSON of the schema (each sentence with the ids it cites) or
/// plain text with `BLOCKER:` lines.
fn reply(case: &Case, structured: bool, ids: &std::collections::HashMap<String, String>) -> String {
    if let Some(raw) = case.raw {
        return raw.to_owned();
    }
    let separator = if case.lang == "ja" { "" } else { " " };
    if structured {
        let summary: Vec<Value> = case
            .sentences
            .iter()
            .map(|(text, _)| json!({"text": text, "evidence": cites(text, ids)}))
            .collect();
        let blockers: Vec<Value> = case
            .blockers
            .iter()
            .map(|(text, ids, _)| json!({"text": text, "evidence": ids}))
            .collect();
        json!({"summary": summary, "blockers": blockers}).to_string()
    } else {
        let mut text =
            case.sentences.iter().map(|(text, _)| *text).collect::<Vec<_>>().join(separator);
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

#[derive(Default, Clone, Copy)]
struct Tally {
    faithful: usize,
    faithful_kept: usize,
    unfaithful: usize,
    unfaithful_dropped: usize,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.faithful += other.faithful;
        self.faithful_kept += other.faithful_kept;
        self.unfaithful += other.unfaithful;
        self.unfaithful_dropped += other.unfaithful_dropped;
    }
}

/// The kinds, in the order the figures are printed.
const LABELS: [&str; 10] = [
    "faithful",
    "earlier",
    "negation",
    "attribution",
    "count",
    "scope",
    "outcome",
    "citation",
    "ticket",
    "ticket_faithful",
];

#[test]
fn evaluation_table() {
    let home = full_home();
    let ids = evidence_ids(&home);
    let servers = [("ollama", MockServer::start()), ("openai", MockServer::start())];
    let mut cases = cases();
    assert!(cases.len() >= 40, "{}", cases.len());
    cases.extend(bound_cases());
    cases.extend(citation_cases());
    // Ticket keys, on a home of their own (the full home names none).
    let tickets = ticket_home();
    let ticket_ids = ids_of(&tickets);
    assert_eq!(ticket_ids.len(), 3, "{ticket_ids:?}");
    cases.extend(ticket_cases());
    for label in &LABELS[2..7] {
        for lang in ["en", "ja"] {
            let n = cases.iter().filter(|case| case.label == *label && case.lang == lang).count();
            assert!(n >= 5, "{label} {lang}: {n}");
        }
        assert!(cases.iter().filter(|case| case.label == *label).count() >= 10, "{label}");
    }
    let mut tallies = vec![Tally::default(); LABELS.len()];
    let mut table = String::from("| # | reply | api | shape | verdict |\n|---|---|---|---|---|\n");
    let mut row = 0;
    for (idx, case) in cases.iter().enumerate() {
        // Each case as JSON of the schema on one API and as plain text on the other.
        // A case about citations only as JSON; a reply that is not prose is the same text
        // either way, so once.
        let shapes: &[bool] = if case.structured_only {
            &[true]
        } else if case.raw.is_some() {
            if idx % 2 == 0 { &[true] } else { &[false] }
        } else {
            &[true, false]
        };
        for &structured in shapes {
            let (api, server) = &servers[(idx + usize::from(!structured)) % 2];
            row += 1;
            let (home, ids) = if case.label.starts_with("ticket") {
                (&tickets, &ticket_ids)
            } else {
                (&home, &ids)
            };
            let (tally, verdict) = run_case(home, case, api, server, structured, ids);
            let label = LABELS.iter().position(|label| *label == case.label).unwrap();
            tallies[label].add(tally);
            let _ = writeln!(
                table,
                "| {row} | {} ({}, {}, {}) | {api} | {} | {verdict} |",
                case.name,
                case.label,
                case.kind,
                case.lang,
                if structured { "json" } else { "plain" }
            );
        }
    }
    #[expect(clippy::cast_precision_loss, reason = "percentages of small counts")]
    let percent = |part: usize, whole: usize| {
        if whole == 0 { 100.0 } else { 100.0 * part as f64 / whole as f64 }
    };
    let mut total = Tally::default();
    let mut figures =
        String::from("| kind | faithful kept | unfaithful dropped |\n|---|---|---|\n");
    for (label, tally) in LABELS.iter().zip(&tallies) {
        total.add(*tally);
        let _ = writeln!(
            figures,
            "| {label} | {} of {} ({:.1}%) | {} of {} ({:.1}%) |",
            tally.faithful_kept,
            tally.faithful,
            percent(tally.faithful_kept, tally.faithful),
            tally.unfaithful_dropped,
            tally.unfaithful,
            percent(tally.unfaithful_dropped, tally.unfaithful),
        );
        // Every kind of falsehood dropped, every time.
        assert_eq!(tally.unfaithful_dropped, tally.unfaithful, "{label}");
    }
    assert!(percent(total.faithful_kept, total.faithful) >= 95.0, "{figures}");
    #[expect(clippy::print_stderr, reason = "the table is the report of this test")]
    {
        eprintln!(
            "{table}\n{figures}\nall: faithful sentences and blockers kept: {} of {} ({:.1}%); unfaithful sentences, blockers and replies dropped: {} of {} ({:.1}%)",
            total.faithful_kept,
            total.faithful,
            percent(total.faithful_kept, total.faithful),
            total.unfaithful_dropped,
            total.unfaithful,
            percent(total.unfaithful_dropped, total.unfaithful),
        );
    }
}

/// Sends one case's reply through the real binary and checks the verdict; returns its
/// tally and the verdict's words for the table.
#[expect(clippy::too_many_lines, reason = "one case with all its checks")]
fn run_case(
    home: &crate::support::Home,
    case: &Case,
    api: &str,
    server: &MockServer,
    structured: bool,
    ids: &std::collections::HashMap<String, String>,
) -> (Tally, String) {
    let mut tally = Tally::default();
    let mut mock = mock_reply(server, api, &reply(case, structured, ids));
    home.config(&format!(
        "[llm]\napi = \"{api}\"\nendpoint = \"{}\"\nmodel = \"m\"\n",
        server.base_url()
    ));
    let run =
        home.run(NOW, TOKYO, &[case.kind, "--lang", case.lang, "--format", "json", "--no-cache"]);
    assert_eq!(run.code, 0, "{}: {}", case.name, run.snapshot());
    mock.assert_hits(1);
    mock.delete();
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    let check = &report["narrative_check"];
    let shape = if structured { "json" } else { "plain" };
    let name = format!("{} ({}, {shape})", case.name, case.label);
    let verdict = match case.rejected {
        None => {
            assert_eq!(check["accepted"], true, "{name}: {check:#}");
            let sentences = check["sentences"].as_array().unwrap();
            assert_eq!(sentences.len(), case.sentences.len(), "{name}: {check:#}");
            for ((text, truth), sentence) in case.sentences.iter().zip(sentences) {
                assert_eq!(sentence["text"], *text, "{name}");
                assert_eq!(sentence["kept"], *truth == F, "{name}: {text}: {sentence}");
                // The JSON keeps what each sentence cites.
                let cited: Vec<String> = if structured { cites(text, ids) } else { Vec::new() };
                let recorded: Vec<String> = sentence["evidence"]
                    .as_array()
                    .map(|items| items.iter().map(|id| id.as_str().unwrap().to_owned()).collect())
                    .unwrap_or_default();
                assert_eq!(recorded, cited, "{name}: {text}");
            }
            let kept: Vec<&str> = case
                .sentences
                .iter()
                .filter(|(_, truth)| *truth == F)
                .map(|(text, _)| *text)
                .collect();
            let separator = if case.lang == "ja" { "" } else { " " };
            assert_eq!(report["narrative"]["text"], kept.join(separator), "{name}");
            let dropped = case.sentences.len() - kept.len();
            let warning = run.stderr.lines().find(|line| line.contains("llm_"));
            if dropped > 0 || case.blockers.iter().any(|(_, _, shown)| !shown) {
                let warning = warning.unwrap_or_else(|| panic!("{name}: no warning"));
                let expected = if case.lang == "ja" {
                    format!(
                        "standup: warning: llm_sentences_dropped: ナラティブの{}文のうち{dropped}文",
                        case.sentences.len()
                    )
                } else {
                    format!("standup: warning: llm_sentences_dropped: {dropped} of ")
                };
                assert!(warning.starts_with(&expected), "{name}: {warning}");
            } else {
                assert_eq!(warning, None, "{name}");
            }
            format!("accepted, {} of {} sentences kept", kept.len(), case.sentences.len())
        }
        Some(reason) => {
            assert_eq!(check["accepted"], false, "{name}: {check:#}");
            assert_eq!(check["reason"], reason, "{name}: {check:#}");
            assert!(report["narrative"].is_null(), "{name}");
            // The reason code leads the message in both languages.
            assert!(
                run.stderr.contains(&format!("standup: warning: llm_rejected: {reason}: ")),
                "{name}: {}",
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
    assert_eq!(shown, expected, "{name}");

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
    (tally, verdict)
}

/// Replies of a real llama.cpp server (SmolLM2-135M-Instruct through `cargo xtask
/// llm-e2e`, on the demo home, structured and plain, daily and standup, en and ja),
/// recorded as the verdicts the checks gave them (`fixtures/narrative/llama/replies.jsonl`:
/// each sentence as cleaned, with what it cited), every sentence labelled by hand
/// (`faithful`). Replayed through the real binary on the demo home, on both APIs: the
/// verdicts are the recorded ones, and no sentence labelled unfaithful is kept.
#[test]
#[expect(clippy::too_many_lines, reason = "one pass over the recorded replies with their checks")]
fn real_llama_replies_replayed() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = fs_err::read_to_string(root.join("fixtures/narrative/llama/replies.jsonl")).unwrap();
    let home = crate::support::demo_home();
    let servers = [("ollama", MockServer::start()), ("openai", MockServer::start())];
    let mut tally = Tally::default();
    let mut replies = 0;
    for (idx, line) in text.lines().enumerate() {
        let record: Value = serde_json::from_str(line).unwrap();
        let check = &record["check"];
        let sentences = check["sentences"].as_array().unwrap();
        let faithful: Vec<bool> = record["faithful"]
            .as_array()
            .unwrap()
            .iter()
            .map(|truth| truth.as_bool().unwrap())
            .collect();
        assert_eq!(faithful.len(), sentences.len(), "line {}", idx + 1);
        if sentences.is_empty() {
            continue;
        }
        replies += 1;
        let structured = check["structured"] == true;
        let lang = record["lang"].as_str().unwrap();
        let kind = record["kind"].as_str().unwrap();
        let reply = if structured {
            let summary: Vec<Value> = sentences
                .iter()
                .map(|s| json!({"text": s["text"], "evidence": s.get("evidence").cloned().unwrap_or(json!([]))}))
                .collect();
            let blockers: Vec<Value> = check["blockers"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|b| json!({"text": b["text"], "evidence": b["evidence"]}))
                .collect();
            json!({"summary": summary, "blockers": blockers}).to_string()
        } else {
            let mut text = sentences
                .iter()
                .map(|s| s["text"].as_str().unwrap())
                .collect::<Vec<_>>()
                .join("\n");
            for blocker in check["blockers"].as_array().into_iter().flatten() {
                let ids: Vec<&str> = blocker["evidence"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(Value::as_str)
                    .collect();
                let _ = write!(
                    text,
                    "\nBLOCKER: {} [ids: {}]",
                    blocker["text"].as_str().unwrap(),
                    ids.join(", ")
                );
            }
            text
        };
        let (api, server) = &servers[idx % 2];
        let mut mock = mock_reply(server, api, &reply);
        home.config(&format!(
            "[llm]\napi = \"{api}\"\nendpoint = \"{}\"\nmodel = \"m\"\n",
            server.base_url()
        ));
        let date = if kind == "daily" { "2026-11-27" } else { "2026-11-30" };
        let run = home.run(
            crate::support::DEMO_NOW,
            TOKYO,
            &[kind, "--date", date, "--lang", lang, "--format", "json", "--no-cache"],
        );
        assert_eq!(run.code, 0, "line {}: {}", idx + 1, run.snapshot());
        mock.assert_hits(1);
        mock.delete();
        let report: Value = serde_json::from_str(&run.stdout).unwrap();
        let replayed = &report["narrative_check"];
        assert_eq!(replayed["accepted"], check["accepted"], "line {}: {replayed:#}", idx + 1);
        assert_eq!(replayed["reason"], check["reason"], "line {}", idx + 1);
        for ((sentence, again), truth) in
            sentences.iter().zip(replayed["sentences"].as_array().unwrap()).zip(&faithful)
        {
            assert_eq!(again["text"], sentence["text"], "line {}", idx + 1);
            assert_eq!(again["kept"], sentence["kept"], "line {}: {again}", idx + 1);
            assert_eq!(again["reasons"], sentence["reasons"], "line {}: {again}", idx + 1);
            let kept = again["kept"] == true;
            assert!(kept <= *truth, "line {}: an unfaithful sentence kept: {again}", idx + 1);
            if *truth {
                tally.faithful += 1;
                tally.faithful_kept += usize::from(kept);
            } else {
                tally.unfaithful += 1;
                tally.unfaithful_dropped += usize::from(!kept);
            }
        }
    }
    #[expect(clippy::print_stderr, reason = "the figures are the report of this test")]
    {
        eprintln!(
            "real llama.cpp replies: {replies}; faithful sentences kept: {} of {}; unfaithful sentences dropped: {} of {}",
            tally.faithful_kept, tally.faithful, tally.unfaithful_dropped, tally.unfaithful
        );
    }
    assert_eq!(tally.unfaithful_dropped, tally.unfaithful);
}
