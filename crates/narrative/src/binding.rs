//! Binding (DESIGN §8.7c): each summary sentence is checked against the facts it is about,
//! not against the whole day's vocabulary.
//!
//! The payload is read once into an [`Index`]: its items (commits, sessions, shell groups,
//! evidence blockers and next steps, by id, each with its project, agent, words and
//! numbers), its projects with their totals, and the totals of each bucket. A sentence is
//! then bound to a scope: the items it cites (a structured reply), else the items of the
//! projects it names, else everything; an agent named with a session narrows the sessions
//! to that agent's. Within the scope:
//!
//! - every project it names must be the project of what it cites, and every agent it names
//!   with a session must be the agent of a session in scope (`attribution`);
//! - a content word that the payload holds only outside the scope is misbound
//!   (`attribution`);
//! - a number next to a unit (commits, sessions, prompts, files, lines, commands, times,
//!   hours, projects; 件, 回, 時間, 行) must be the count of what the sentence names, or a
//!   total when it names nothing (`count`);
//! - a denial ("no commits in notes", 「コミットはありませんでした」) is kept only when the
//!   count it denies is zero, and a denial of anything else cannot be checked (`negation`);
//! - comparisons with other days, trends and habits ("as usual", "again", 「また」「初めて」)
//!   need a payload of several days (`scope`);
//! - outcomes (passing, deployed, released, merged, approved, fixed) need the data to show
//!   them: a word of the same kind in an item in scope, a merge commit, or a test command
//!   that passed after failing (`outcome`).
//!
//! Deterministic and free of I/O; the word lists are constants here, each a short list a
//! reviewer can read in one go.

use std::collections::HashSet;

use serde_json::Value;

use crate::grounding::{self, EN_STOP, EN_STOP_WORDS, SentenceFault, Token, fold, stem};

/// What a number can count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Unit {
    Commits,
    Sessions,
    Prompts,
    Files,
    Lines,
    Commands,
    Times,
    Hours,
    Projects,
}

impl Unit {
    /// A count of the things themselves (checked against the named thing or the totals),
    /// rather than a per-item figure.
    fn is_aggregate(self) -> bool {
        matches!(self, Unit::Commits | Unit::Sessions | Unit::Commands | Unit::Projects)
    }
}

/// English unit words, by stem.
const EN_UNITS: [(&str, Unit); 14] = [
    ("commit", Unit::Commits),
    ("commits", Unit::Commits),
    ("session", Unit::Sessions),
    ("prompt", Unit::Prompts),
    ("file", Unit::Files),
    ("line", Unit::Lines),
    ("command", Unit::Commands),
    ("hour", Unit::Hours),
    ("hr", Unit::Hours),
    ("time", Unit::Times),
    ("run", Unit::Times),
    ("project", Unit::Projects),
    ("insertion", Unit::Lines),
    ("deletion", Unit::Lines),
];

/// Japanese unit nouns.
const JA_NOUNS: [(&str, Unit); 8] = [
    ("コミット", Unit::Commits),
    ("セッション", Unit::Sessions),
    ("プロンプト", Unit::Prompts),
    ("ファイル", Unit::Files),
    ("コマンド", Unit::Commands),
    ("プロジェクト", Unit::Projects),
    ("時間", Unit::Hours),
    ("行", Unit::Lines),
];

/// Japanese counters right after a number that are a unit by themselves.
const JA_COUNTERS: [(&str, Unit); 5] = [
    ("回", Unit::Times),
    ("時間", Unit::Hours),
    ("行", Unit::Lines),
    ("ファイル", Unit::Files),
    ("コミット", Unit::Commits),
];

/// Japanese generic counters: the noun is before the number or after `の`.
const JA_GENERIC_COUNTERS: [&str; 3] = ["件", "つ", "個"];

/// English negations (whole words); words ending in `n't` are negations too.
const EN_NEGATIONS: [&str; 9] =
    ["no", "not", "never", "nothing", "none", "without", "zero", "neither", "nor"];

/// Japanese negations.
const JA_NEGATIONS: [&str; 11] = [
    "ありません",
    "ませんでした",
    "ていません",
    "ていない",
    "なかった",
    "なし",
    "無し",
    "ゼロ",
    "もない",
    "はない",
    "がない",
];

/// What a denial can be about, and the words that name it.
const EN_ABSENT: [(&str, Unit); 4] = [
    ("commit", Unit::Commits),
    ("session", Unit::Sessions),
    ("command", Unit::Commands),
    ("prompt", Unit::Prompts),
];
const JA_ABSENT: [(&str, Unit); 4] = [
    ("コミット", Unit::Commits),
    ("セッション", Unit::Sessions),
    ("コマンド", Unit::Commands),
    ("プロンプト", Unit::Prompts),
];

/// Words of comparison across days, trends and habits (English, by stem of each word).
const EN_SCOPE: [&str; 24] = [
    "usual",
    "usually",
    "again",
    "first",
    "finally",
    "trend",
    "trending",
    "compared",
    "comparison",
    "than",
    "yesterday",
    "week",
    "weeks",
    "month",
    "months",
    "lately",
    "recently",
    "record",
    "busiest",
    "typical",
    "typically",
    "still",
    "anymore",
    "increasingly",
];

/// The same in Japanese (`また` as a connective, `また、`, is "also", not "again").
const JA_SCOPE: [&str; 22] = [
    "まだ",
    "また",
    "初めて",
    "いつも",
    "普段",
    "先週",
    "先月",
    "昨日",
    "前回",
    "再び",
    "再度",
    "ついに",
    "ようやく",
    "やっと",
    "引き続き",
    "相変わらず",
    "比べ",
    "傾向",
    "増加",
    "減少",
    "毎日",
    "より多く",
];

/// Kinds of outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Passing,
    Deployed,
    Released,
    Merged,
    Approved,
    Fixed,
}

/// English outcome words (stemmed when the index is built).
const EN_OUTCOMES: [(&str, Outcome); 17] = [
    ("pass", Outcome::Passing),
    ("passes", Outcome::Passing),
    ("passing", Outcome::Passing),
    ("green", Outcome::Passing),
    ("succeeded", Outcome::Passing),
    ("successful", Outcome::Passing),
    ("deployed", Outcome::Deployed),
    ("deployment", Outcome::Deployed),
    ("released", Outcome::Released),
    ("release", Outcome::Released),
    ("shipped", Outcome::Released),
    ("merged", Outcome::Merged),
    ("approved", Outcome::Approved),
    ("approval", Outcome::Approved),
    ("fixed", Outcome::Fixed),
    ("resolved", Outcome::Fixed),
    ("solved", Outcome::Fixed),
];

/// Japanese outcome words.
const JA_OUTCOMES: [(&str, Outcome); 13] = [
    ("通過", Outcome::Passing),
    ("成功", Outcome::Passing),
    ("パス", Outcome::Passing),
    ("グリーン", Outcome::Passing),
    ("デプロイ", Outcome::Deployed),
    ("リリース", Outcome::Released),
    ("マージ", Outcome::Merged),
    ("承認", Outcome::Approved),
    ("解決", Outcome::Fixed),
    ("修正済", Outcome::Fixed),
    ("直し", Outcome::Fixed),
    ("直っ", Outcome::Fixed),
    ("直り", Outcome::Fixed),
];

/// Agents as a sentence may name them, and the display name they stand for (lowercase).
const AGENT_NAMES: [(&str, &str); 31] = [
    ("claude code", "claude code"),
    ("claude", "claude code"),
    ("codex", "codex"),
    ("gemini", "gemini"),
    ("copilot", "copilot"),
    ("opencode", "opencode"),
    ("qwen code", "qwen code"),
    ("qwen", "qwen code"),
    ("cursor", "cursor"),
    ("amp", "amp"),
    ("aider", "aider"),
    ("droid", "droid"),
    ("factory droid", "droid"),
    ("cline", "cline"),
    ("kilo code", "kilo code"),
    ("kilo", "kilo code"),
    // Not the bare word: "continue" is too common a verb to be taken for the agent.
    ("continue.dev", "continue"),
    ("roo code", "roo code"),
    ("roo", "roo code"),
    ("vs code chat", "vs code chat"),
    ("goose", "goose"),
    ("gptme", "gptme"),
    ("kimi code", "kimi code"),
    ("kimi", "kimi code"),
    ("mistral vibe", "mistral vibe"),
    ("openhands", "openhands"),
    ("hermes agent", "hermes agent"),
    ("hermes", "hermes agent"),
    ("openclaw", "openclaw"),
    ("command code", "command code"),
    ("pi", "pi"),
];

/// What kind of payload item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Commit,
    Session,
    Shell,
    Blocker,
    Next,
    Ticket,
}

/// The words of some text: stems of its Latin words, bigrams of its kana and kanji, and the
/// folded, lowercased text.
#[derive(Debug, Default)]
struct Vocab {
    stems: HashSet<String>,
    bigrams: HashSet<(char, char)>,
    text: String,
}

impl Vocab {
    fn add(&mut self, text: &str) {
        let folded = fold(text).to_lowercase();
        for word in folded.split(|c: char| !c.is_alphanumeric()).filter(|word| !word.is_empty()) {
            if word.bytes().any(|byte| byte.is_ascii_alphabetic()) {
                self.stems.insert(stem(word));
            }
        }
        let mut previous = None;
        for c in folded.chars() {
            if let Some(before) =
                previous.filter(|&before| grounding::is_cjk(before) && grounding::is_cjk(c))
            {
                self.bigrams.insert((before, c));
            }
            previous = Some(c);
        }
        self.text.push_str(&folded);
        self.text.push('\n');
    }

    fn has_unit(&self, unit: &[char]) -> bool {
        unit.windows(2).any(|pair| self.bigrams.contains(&(pair[0], pair[1])))
    }
}

/// One commit, session, shell group, evidence blocker or next step of the payload.
#[derive(Debug)]
struct Item {
    id: String,
    kind: Kind,
    bucket: usize,
    project: Option<usize>,
    /// The session's agent, lowercase.
    agent: Option<String>,
    /// The shell group's head, lowercase.
    head: Option<String>,
    vocab: Vocab,
    values: Vec<(Unit, u64)>,
    merge: bool,
    /// A shell group with failed runs, more runs than failures and no failing-command
    /// blocker: a passing run after failures.
    passed_after_failures: bool,
}

#[derive(Debug)]
struct ProjectFacts {
    /// The name, folded and lowercase.
    name: String,
    /// The stems of the name's words.
    name_stems: Vec<String>,
    /// Whether a sentence naming it can be told from ordinary prose: a name of two
    /// characters or more that is not a function or work word (a project called `work`
    /// or `a` is not taken as named).
    nameable: bool,
    bucket: usize,
    counts: Vec<(Unit, u64)>,
    items: Vec<usize>,
}

/// The payload as items, projects and totals.
#[derive(Debug, Default)]
pub(crate) struct Index {
    items: Vec<Item>,
    projects: Vec<ProjectFacts>,
    /// Each bucket's totals (by bucket) and the report's (bucket `usize::MAX`).
    totals: Vec<(usize, Vec<(Unit, u64)>)>,
    /// Each bucket's kind (`day`, `previous_workday`, `today`, `daily`).
    buckets: Vec<String>,
    /// Stems of the keys and fixed values of the payload: general words, never misbound.
    general: HashSet<String>,
    /// Every item's words and every project name.
    global: Vocab,
    /// The English outcome words, stemmed.
    outcome_stems: Vec<(String, Outcome)>,
    /// The English scope words, stemmed.
    scope_stems: HashSet<String>,
    /// The English unit words, stemmed.
    unit_stems: Vec<(String, Unit)>,
    /// The words of the agents' names, stemmed.
    agent_stems: HashSet<String>,
    /// Each project's ticket keys (as written), with the items that bear each out: the
    /// ticket's own item and the commits and sessions it was found in.
    tickets: Vec<(String, Vec<usize>)>,
}

fn text_of<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or("")
}

fn number_of(value: &Value, key: &str) -> u64 {
    value.get(key).and_then(Value::as_u64).unwrap_or(0)
}

fn list<'a>(value: &'a Value, path: &[&str]) -> &'a [Value] {
    let mut value = value;
    for key in path {
        match value.get(key) {
            Some(inner) => value = inner,
            None => return &[],
        }
    }
    value.as_array().map_or(&[], Vec::as_slice)
}

/// The counts of a `totals` object.
fn counts(totals: &Value) -> Vec<(Unit, u64)> {
    let mut out = Vec::new();
    let Some(map) = totals.as_object() else { return out };
    for (key, value) in map {
        let Some(value) = value.as_u64() else { continue };
        match key.as_str() {
            "projects" => out.push((Unit::Projects, value)),
            "commits" => out.push((Unit::Commits, value)),
            "sessions" => out.push((Unit::Sessions, value)),
            "prompts" => out.push((Unit::Prompts, value)),
            "files_changed" => out.push((Unit::Files, value)),
            "insertions" | "deletions" => out.push((Unit::Lines, value)),
            "commands" => {
                out.push((Unit::Commands, value));
                out.push((Unit::Times, value));
            }
            _ => {}
        }
    }
    let insertions = number_of(totals, "insertions");
    let deletions = number_of(totals, "deletions");
    out.push((Unit::Lines, insertions + deletions));
    out
}

impl Index {
    /// The index of a payload (daily: one bucket at the top; otherwise `buckets`).
    pub(crate) fn of(payload: &Value) -> Index {
        let mut index = Index::default();
        index.keys(payload, &mut HashSet::new());
        if let Some(buckets) = payload.get("buckets").and_then(Value::as_array) {
            for bucket in buckets {
                index.bucket(bucket);
            }
            if let Some(totals) = payload.get("totals") {
                index.totals.push((usize::MAX, counts(totals)));
            }
        } else {
            index.bucket(payload);
        }
        if let Some(outlook) = payload.get("outlook") {
            index.outlook(outlook);
        }
        index.outcome_stems =
            EN_OUTCOMES.iter().map(|&(word, outcome)| (stem(word), outcome)).collect();
        index.scope_stems = EN_SCOPE.iter().map(|word| stem(word)).collect();
        index.unit_stems = EN_UNITS.iter().map(|&(word, unit)| (stem(word), unit)).collect();
        index.agent_stems =
            AGENT_NAMES.iter().flat_map(|(spelling, _)| spelling.split(' ')).map(stem).collect();
        index
    }

    /// Whether the payload spans several days (a standup, a week, a range).
    fn several_days(&self) -> bool {
        self.buckets.len() >= 2
    }

    fn keys<'a>(&mut self, value: &'a Value, seen: &mut HashSet<&'a str>) {
        match value {
            Value::Object(map) => {
                for (key, value) in map {
                    if seen.insert(key.as_str()) {
                        for word in key.split('_') {
                            self.general.insert(stem(word));
                        }
                    }
                    if key == "kind" {
                        if let Some(kind) = value.as_str() {
                            for word in kind.split('_') {
                                self.general.insert(stem(word));
                            }
                        }
                    }
                    self.keys(value, seen);
                }
            }
            Value::Array(items) => items.iter().for_each(|item| self.keys(item, seen)),
            _ => {}
        }
    }

    fn bucket(&mut self, bucket: &Value) {
        let number = self.buckets.len();
        self.buckets.push(text_of(bucket, "kind").to_owned());
        for project in list(bucket, &["projects", "items"]) {
            self.project(project, number);
        }
        let mut failing = Vec::new();
        for blocker in list(bucket, &["blockers", "items"]) {
            failing.extend(self.blocker(blocker, number, None));
        }
        for group in list(bucket, &["shell", "groups"]) {
            self.shell(group, number, None, &failing);
        }
        if let Some(totals) = bucket.get("totals") {
            self.totals.push((number, counts(totals)));
        }
    }

    fn push(&mut self, item: Item) {
        self.global.stems.extend(item.vocab.stems.iter().cloned());
        self.global.bigrams.extend(item.vocab.bigrams.iter().copied());
        if let Some(project) = item.project {
            self.projects[project].items.push(self.items.len());
        }
        self.items.push(item);
    }

    fn item(id: &str, kind: Kind, bucket: usize, project: Option<usize>) -> Item {
        Item {
            id: id.to_owned(),
            kind,
            bucket,
            project,
            agent: None,
            head: None,
            vocab: Vocab::default(),
            values: Vec::new(),
            merge: false,
            passed_after_failures: false,
        }
    }

    fn project(&mut self, project: &Value, bucket: usize) {
        let number = self.projects.len();
        let name = fold(text_of(project, "name")).to_lowercase();
        self.global.add(&name);
        let name_stems = name
            .split(|c: char| !c.is_alphanumeric())
            .filter(|word| !word.is_empty())
            .map(stem)
            .collect();
        let nameable = name.chars().count() >= 2 && !EN_STOP_WORDS.contains(name.as_str());
        self.projects.push(ProjectFacts {
            name,
            name_stems,
            nameable,
            bucket,
            counts: project.get("totals").map(counts).unwrap_or_default(),
            items: Vec::new(),
        });
        let mut failing = Vec::new();
        for blocker in list(project, &["blockers", "items"]) {
            failing.extend(self.blocker(blocker, bucket, Some(number)));
        }
        for commit in list(project, &["commits", "items"]) {
            let mut item = Index::item(text_of(commit, "id"), Kind::Commit, bucket, Some(number));
            item.vocab.add(text_of(commit, "subject"));
            let insertions = number_of(commit, "insertions");
            let deletions = number_of(commit, "deletions");
            item.values = vec![
                (Unit::Files, number_of(commit, "files_changed")),
                (Unit::Lines, insertions),
                (Unit::Lines, deletions),
                (Unit::Lines, insertions + deletions),
            ];
            item.merge = commit.get("merge").and_then(Value::as_bool).unwrap_or(false);
            self.push(item);
        }
        for session in list(project, &["sessions", "items"]) {
            let mut item = Index::item(text_of(session, "id"), Kind::Session, bucket, Some(number));
            item.agent = Some(text_of(session, "agent").to_lowercase());
            item.vocab.add(text_of(session, "title"));
            item.values = vec![(Unit::Prompts, number_of(session, "prompts"))];
            self.push(item);
        }
        for ticket in list(project, &["tickets", "items"]) {
            let key = text_of(ticket, "key");
            let mut item = Index::item(text_of(ticket, "id"), Kind::Ticket, bucket, Some(number));
            item.vocab.add(key);
            let mut holders = vec![self.items.len()];
            self.push(item);
            for id in list(ticket, &["evidence"]).iter().filter_map(Value::as_str) {
                holders.extend(
                    self.projects[number]
                        .items
                        .iter()
                        .copied()
                        .filter(|&at| self.items[at].id == id),
                );
            }
            self.tickets.push((key.to_owned(), holders));
        }
        for step in list(project, &["next", "items"]) {
            let mut item = Index::item(text_of(step, "id"), Kind::Next, bucket, Some(number));
            item.agent = Some(text_of(step, "agent").to_lowercase());
            item.vocab.add(text_of(step, "text"));
            self.push(item);
        }
        for group in list(project, &["shell", "groups"]) {
            self.shell(group, bucket, Some(number), &failing);
        }
    }

    /// Adds a blocker found in the evidence; returns the command line of a failing one.
    fn blocker(
        &mut self,
        blocker: &Value,
        bucket: usize,
        project: Option<usize>,
    ) -> Option<String> {
        let mut item = Index::item(text_of(blocker, "id"), Kind::Blocker, bucket, project);
        let kind = text_of(blocker, "kind");
        item.vocab.add(&kind.replace('_', " "));
        item.vocab.add(text_of(blocker, "text"));
        item.values = vec![(Unit::Times, number_of(blocker, "failures"))];
        self.push(item);
        (kind == "failing_command").then(|| fold(text_of(blocker, "text")).to_lowercase())
    }

    /// Adds what the report carries forward: the person's noted plans and blockers
    /// (about the last bucket, no project) and each project's work left open (bound to
    /// the last bucket's project of that name, when there is one).
    fn outlook(&mut self, outlook: &Value) {
        let bucket = self.buckets.len().saturating_sub(1);
        for note in list(outlook, &["follow_up", "items"]) {
            let mut item = Index::item(text_of(note, "id"), Kind::Next, bucket, None);
            item.vocab.add(text_of(note, "text"));
            self.push(item);
        }
        for open in list(outlook, &["open_work", "items"]) {
            let name = fold(text_of(open, "project")).to_lowercase();
            let project = self.projects.iter().rposition(|project| project.name == name);
            let mut item = Index::item(text_of(open, "id"), Kind::Next, bucket, project);
            item.vocab.add(text_of(open, "project"));
            item.values = vec![(Unit::Files, number_of(open, "uncommitted_files"))];
            // Each branch ahead counts its commits (their sum is the unpushed count).
            let branches = list(open, &["branches_ahead"]);
            if branches.is_empty() {
                item.values.push((Unit::Commits, number_of(open, "unpushed_commits")));
            }
            for branch in branches {
                item.vocab.add(text_of(branch, "branch"));
                item.values.push((Unit::Commits, number_of(branch, "commits")));
            }
            self.push(item);
        }
    }

    fn shell(&mut self, group: &Value, bucket: usize, project: Option<usize>, failing: &[String]) {
        let mut item = Index::item(text_of(group, "id"), Kind::Shell, bucket, project);
        let head = fold(text_of(group, "head")).to_lowercase();
        item.vocab.add(&head);
        for example in list(group, &["examples"]) {
            item.vocab.add(example.as_str().unwrap_or(""));
        }
        let count = number_of(group, "count");
        let failed = number_of(group, "failed");
        item.values = vec![(Unit::Times, count), (Unit::Commands, count)];
        item.passed_after_failures = failed > 0
            && count > failed
            && !failing.iter().any(|command| command.starts_with(head.as_str()));
        item.head = Some(head);
        self.push(item);
    }
}

/// Whether `needle` occurs in `text` as a whole word (not inside a longer Latin word).
fn has_word(text: &str, needle: &str) -> bool {
    word_positions(text, needle).next().is_some()
}

fn word_positions<'a>(text: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(needle).map(|(at, _)| at).filter(move |&at| {
        if needle.is_empty() {
            return false;
        }
        let before = text[..at].chars().next_back();
        let after = text[at + needle.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

/// The sentence's Latin tokens with their byte offsets in `folded`.
fn tokens(folded: &str) -> Vec<(usize, &str)> {
    grounding::latin_tokens(folded)
        .map(|token| (token.as_ptr() as usize - folded.as_ptr() as usize, token))
        .collect()
}

/// What a sentence is bound to.
struct Bound<'a> {
    /// The bucket it speaks of (`today`…), when the payload has several and it names one.
    bucket: Option<usize>,
    /// The items it cites, if it is a cited sentence.
    cited: Option<Vec<usize>>,
    /// The projects it names.
    named: Vec<usize>,
    /// The same, in the bucket it speaks of.
    named_in_bucket: Vec<usize>,
    /// The items its words, numbers and claims are checked against.
    scope: Vec<usize>,
    /// The projects in scope.
    scope_projects: Vec<usize>,
    /// The agents it names with a session (display names, lowercase).
    agents: Vec<&'a str>,
}

impl Bound<'_> {
    fn in_bucket(&self, bucket: usize) -> bool {
        self.bucket.is_none_or(|wanted| wanted == bucket)
    }
}

/// The faults of one summary sentence against the items it is bound to. `citations` is
/// what a structured sentence cites (`None`: plain text, or a summary given as one string).
pub(crate) fn check(
    sentence: &str,
    index: &Index,
    citations: Option<&[String]>,
) -> Vec<SentenceFault> {
    let folded = fold(sentence).to_lowercase();
    let mut faults = Vec::new();
    let bound = match bind(&folded, index, citations, &mut faults) {
        Ok(bound) => bound,
        Err(fault) => return vec![fault],
    };
    if misbound_words(&folded, index, &bound) {
        faults.push(SentenceFault::Attribution);
    }
    if !counts_hold(&folded, index, &bound) {
        faults.push(SentenceFault::Count);
    }
    match denial(&folded, &bound.scope, index) {
        Some(Denial::Of(unit)) if denied_count(index, &bound, unit) > 0 => {
            faults.push(SentenceFault::Negation);
        }
        Some(Denial::Unchecked) => faults.push(SentenceFault::Negation),
        Some(Denial::Of(_)) | None => {}
    }
    if !index.several_days() && compares(&folded, &bound.scope, index) {
        faults.push(SentenceFault::Scope);
    }
    if claims_outcome(&folded, &bound.scope, index) {
        faults.push(SentenceFault::Outcome);
    }
    if !tickets::tickets_hold(&fold(sentence), index, &bound) {
        faults.push(SentenceFault::Ticket);
    }
    faults.sort();
    faults.dedup();
    faults
}

/// Binds a sentence: what it cites, names and speaks of. A citation problem is the
/// sentence's only fault; a project or agent that the citations or the data do not bear
/// out is an `attribution` fault in `faults`.
fn bind<'a>(
    folded: &str,
    index: &Index,
    citations: Option<&[String]>,
    faults: &mut Vec<SentenceFault>,
) -> Result<Bound<'a>, SentenceFault> {
    let bucket = bucket_named(folded, index);
    let in_bucket = |item_bucket: usize| bucket.is_none_or(|wanted| wanted == item_bucket);
    let cited: Option<Vec<usize>> = match citations {
        None => None,
        Some([]) => return Err(SentenceFault::NoEvidence),
        Some(ids) => {
            let mut cited = Vec::new();
            for id in ids {
                let before = cited.len();
                cited.extend(
                    index
                        .items
                        .iter()
                        .enumerate()
                        .filter(|(_, item)| item.id == *id)
                        .map(|(at, _)| at),
                );
                if cited.len() == before {
                    return Err(SentenceFault::UnknownEvidence);
                }
            }
            Some(cited)
        }
    };
    // A ticket key (`pay-7`) does not name the project its prefix spells.
    let unkeyed = tickets::without_keys(folded, index);
    let named: Vec<usize> = index
        .projects
        .iter()
        .enumerate()
        .filter(|(_, project)| project.nameable && has_word(&unkeyed, &project.name))
        .map(|(at, _)| at)
        .collect();
    let named_in_bucket: Vec<usize> =
        named.iter().copied().filter(|&at| in_bucket(index.projects[at].bucket)).collect();
    if let Some(cited) = &cited {
        let cites_project = |name: &str| {
            cited.iter().any(|&item| {
                index.items[item].project.is_some_and(|at| index.projects[at].name == name)
            })
        };
        if named.iter().any(|&project| !cites_project(&index.projects[project].name)) {
            faults.push(SentenceFault::Attribution);
        }
    }
    let mut scope: Vec<usize> = match &cited {
        Some(cited) => tickets::with_their_work(cited, index),
        None if !named.is_empty() => named
            .iter()
            .flat_map(|&project| index.projects[project].items.iter().copied())
            .collect(),
        None => {
            (0..index.items.len()).filter(|&item| in_bucket(index.items[item].bucket)).collect()
        }
    };
    let scope_projects: Vec<usize> = match &cited {
        _ if !named.is_empty() => named.clone(),
        Some(cited) => {
            let mut projects: Vec<usize> =
                cited.iter().filter_map(|&item| index.items[item].project).collect();
            projects.sort_unstable();
            projects.dedup();
            projects
        }
        None => (0..index.projects.len()).collect(),
    };

    // Agents named with a session: each must have a session in scope, and the sessions in
    // scope narrow to theirs.
    let about_sessions =
        ["session", "agent", "セッション", "エージェント"].iter().any(|word| folded.contains(word));
    let mut agents: Vec<&str> = Vec::new();
    if about_sessions {
        for (spelling, agent) in AGENT_NAMES {
            if has_word(folded, spelling) && !agents.contains(&agent) {
                agents.push(agent);
            }
        }
    }
    if !agents.is_empty() {
        let has_session_of = |agent: &str| {
            scope.iter().any(|&item| {
                index.items[item].kind == Kind::Session
                    && index.items[item].agent.as_deref() == Some(agent)
            })
        };
        if agents.iter().any(|agent| !has_session_of(agent)) {
            faults.push(SentenceFault::Attribution);
        }
        // The sessions whose titles the sentence describes must include one of theirs.
        let described = described_sessions(folded, index, &scope);
        let agent_of = |item: usize| index.items[item].agent.as_deref().unwrap_or_default();
        if !described.is_empty() && !described.iter().any(|&item| agents.contains(&agent_of(item)))
        {
            faults.push(SentenceFault::Attribution);
        }
        scope.retain(|&item| {
            let item = &index.items[item];
            item.kind != Kind::Session
                || item.agent.as_deref().is_some_and(|agent| agents.contains(&agent))
        });
    }
    Ok(Bound { bucket, cited, named, named_in_bucket, scope, scope_projects, agents })
}

/// The sessions among `scope` whose titles a sentence describes: at least two of a title's
/// content words (by stem; all of them when it has fewer) are in the sentence.
fn described_sessions(folded: &str, index: &Index, scope: &[usize]) -> Vec<usize> {
    let said: HashSet<String> = tokens(folded)
        .into_iter()
        .filter(|(_, token)| grounding::classify(token) == Token::Words)
        .flat_map(|(_, token)| token.split(['-', '\'', '’']).map(stem).collect::<Vec<_>>())
        .collect();
    scope
        .iter()
        .copied()
        .filter(|&item| {
            let item = &index.items[item];
            if item.kind != Kind::Session {
                return false;
            }
            let content: Vec<&String> = item
                .vocab
                .stems
                .iter()
                .filter(|stemmed| !EN_STOP.contains(*stemmed) && !index.general.contains(*stemmed))
                .collect();
            let found = content.iter().filter(|stemmed| said.contains(**stemmed)).count();
            !content.is_empty() && found >= content.len().min(2)
        })
        .collect()
}

/// Whether a content word of the sentence is one the payload holds only outside its scope
/// (an agent's name is checked as an agent, not as a word).
fn misbound_words(folded: &str, index: &Index, bound: &Bound<'_>) -> bool {
    let in_scope = |stemmed: &str| {
        bound.scope.iter().any(|&item| index.items[item].vocab.stems.contains(stemmed))
            || bound.scope_projects.iter().any(|&project| {
                index.projects[project].name_stems.iter().any(|word| word == stemmed)
            })
    };
    for (_, token) in tokens(folded) {
        if grounding::classify(token) != Token::Words {
            continue;
        }
        for word in token.split(['-', '\'', '’']).filter(|word| word.len() > 1) {
            let stemmed = stem(word);
            if EN_STOP.contains(&stemmed)
                || index.general.contains(&stemmed)
                || index.agent_stems.contains(&stemmed)
                || EN_NEGATIONS.contains(&word)
            {
                continue;
            }
            if !in_scope(&stemmed) && index.global.stems.contains(&stemmed) {
                return true;
            }
        }
    }
    grounding::cjk_units(folded).into_iter().any(|unit| {
        let chars: Vec<char> = unit.chars().collect();
        let in_scope = bound.scope.iter().any(|&item| index.items[item].vocab.has_unit(&chars));
        !in_scope && index.global.has_unit(&chars)
    })
}

/// Whether every number next to a unit is the count of what the sentence names: the shell
/// group named before it, the projects it names, the agent it names, else the totals (and,
/// for per-item figures, the items in scope; for a cited sentence, the count of what it
/// cites).
fn counts_hold(folded: &str, index: &Index, bound: &Bound<'_>) -> bool {
    let heads: Vec<(usize, &str)> = bound
        .scope
        .iter()
        .filter_map(|&item| index.items[item].head.as_deref())
        .flat_map(|head| word_positions(folded, head).map(move |at| (at, head)))
        .collect();
    numbers_with_units(folded, index).into_iter().all(|(at, value, unit)| {
        let head =
            heads.iter().filter(|(head_at, _)| *head_at < at).max_by_key(|(head_at, _)| *head_at);
        allowed(index, bound, unit, head.map(|&(_, head)| head)).contains(&value)
    })
}

/// The values a number with `unit` may take in a sentence bound as `bound`.
fn allowed(index: &Index, bound: &Bound<'_>, unit: Unit, head: Option<&str>) -> HashSet<u64> {
    let mut allowed: HashSet<u64> = HashSet::new();
    let values_of = |items: &mut dyn Iterator<Item = usize>, allowed: &mut HashSet<u64>| {
        let mut sum = 0;
        for item in items {
            for &(item_unit, value) in &index.items[item].values {
                if item_unit == unit {
                    allowed.insert(value);
                    sum += value;
                }
            }
        }
        allowed.insert(sum);
    };
    let scoped = |allowed: &mut HashSet<u64>| values_of(&mut bound.scope.iter().copied(), allowed);
    // The counts of the work left open that the sentence cites (files not committed,
    // commits not pushed, each branch's and their sum) are its own figures.
    let open: Vec<usize> = bound
        .cited
        .iter()
        .flatten()
        .copied()
        .filter(|&item| index.items[item].id.starts_with(crate::payload::OPEN_ID_PREFIX))
        .collect();
    if !open.is_empty() {
        values_of(&mut open.into_iter(), &mut allowed);
    }
    if let (Some(head), Unit::Times | Unit::Commands) = (head, unit) {
        let mut groups = bound
            .scope
            .iter()
            .copied()
            .filter(|&item| index.items[item].head.as_deref() == Some(head));
        values_of(&mut groups, &mut allowed);
    } else if unit == Unit::Hours {
        // The payload carries no time spent.
    } else if !bound.named_in_bucket.is_empty() {
        let mut sum = 0;
        for &project in &bound.named_in_bucket {
            for &(count_unit, value) in &index.projects[project].counts {
                if count_unit == unit {
                    allowed.insert(value);
                    sum += value;
                }
            }
        }
        allowed.insert(sum);
        if unit == Unit::Projects {
            allowed.insert(bound.named.len() as u64);
        }
        if !unit.is_aggregate() || !bound.agents.is_empty() {
            scoped(&mut allowed);
        }
        if unit == Unit::Sessions && !bound.agents.is_empty() {
            allowed.insert(sessions_in(&bound.scope, index));
        }
    } else if !bound.agents.is_empty() && unit == Unit::Sessions {
        allowed.insert(sessions_in(&bound.scope, index));
    } else if !bound.agents.is_empty() && unit == Unit::Prompts {
        scoped(&mut allowed);
    } else {
        for (bucket, counts) in &index.totals {
            if *bucket == usize::MAX || bound.in_bucket(*bucket) {
                allowed.extend(counts.iter().filter(|(u, _)| *u == unit).map(|&(_, v)| v));
            }
        }
        if !unit.is_aggregate() {
            scoped(&mut allowed);
        }
        if let Some(cited) = &bound.cited {
            let kind = match unit {
                Unit::Commits => Some(Kind::Commit),
                Unit::Sessions => Some(Kind::Session),
                _ => None,
            };
            if let Some(kind) = kind {
                let n = cited.iter().filter(|&&item| index.items[item].kind == kind).count();
                allowed.insert(n as u64);
            }
            if unit == Unit::Projects {
                allowed.insert(bound.scope_projects.len() as u64);
            }
        }
    }
    allowed
}

/// The count a denial of `unit` is about: the projects named (in the bucket spoken of),
/// the agent's sessions, else the totals of the buckets spoken of.
fn denied_count(index: &Index, bound: &Bound<'_>, unit: Unit) -> u64 {
    if !bound.named_in_bucket.is_empty() {
        bound
            .named_in_bucket
            .iter()
            .flat_map(|&project| &index.projects[project].counts)
            .filter(|(count_unit, _)| *count_unit == unit)
            .map(|&(_, value)| value)
            .sum()
    } else if !bound.named.is_empty() {
        // Projects named only in another bucket than the one the sentence speaks of.
        0
    } else if !bound.agents.is_empty() && unit == Unit::Sessions {
        sessions_in(&bound.scope, index)
    } else {
        index
            .totals
            .iter()
            .filter(|(bucket, _)| *bucket != usize::MAX && bound.in_bucket(*bucket))
            .flat_map(|(_, counts)| counts)
            .filter(|(count_unit, _)| *count_unit == unit)
            .map(|&(_, value)| value)
            .sum()
    }
}

/// The number of sessions among `scope`.
fn sessions_in(scope: &[usize], index: &Index) -> u64 {
    scope.iter().filter(|&&item| index.items[item].kind == Kind::Session).count() as u64
}

/// The bucket a sentence of a standup speaks of (`today`, `yesterday`…), if it names one.
fn bucket_named(folded: &str, index: &Index) -> Option<usize> {
    if !index.several_days() {
        return None;
    }
    let today = ["today", "本日", "今日"].iter().any(|word| folded.contains(word));
    let previous = ["yesterday", "previous", "昨日", "前営業日", "前日"]
        .iter()
        .any(|word| folded.contains(word));
    let wanted = match (today, previous) {
        (true, false) => "today",
        (false, true) => "previous_workday",
        _ => return None,
    };
    index.buckets.iter().position(|kind| kind == wanted)
}

/// The numbers of a sentence that stand next to a unit, with their offsets.
fn numbers_with_units(folded: &str, index: &Index) -> Vec<(usize, u64, Unit)> {
    let tokens = tokens(folded);
    let mut out = Vec::new();
    for (position, &(at, token)) in tokens.iter().enumerate() {
        if grounding::classify(token) != Token::Number || token.contains(['.', '%', '-', ':', '/'])
        {
            continue;
        }
        let Ok(value) = token.replace(',', "").parse::<u64>() else { continue };
        let after = &folded[at + token.len()..];
        let unit = ja_unit(folded, at, after).or_else(|| {
            tokens[position + 1..]
                .iter()
                .take(3)
                .take_while(|(_, next)| grounding::classify(next) != Token::Number)
                .find_map(|&(_, next)| {
                    let stemmed = stem(next);
                    index
                        .unit_stems
                        .iter()
                        .find(|(word, _)| *word == stemmed)
                        .map(|&(_, unit)| unit)
                })
        });
        if let Some(unit) = unit {
            out.push((at, value, unit));
        }
    }
    out
}

/// The unit of a number in Japanese: a counter right after it, or for `件`/`つ` the noun
/// after `の` or the nearest before it in the clause.
fn ja_unit(folded: &str, at: usize, after: &str) -> Option<Unit> {
    let after = after.trim_start();
    if let Some(&(_, unit)) = JA_COUNTERS.iter().find(|(counter, _)| after.starts_with(counter)) {
        return Some(unit);
    }
    let counter = JA_GENERIC_COUNTERS.iter().find(|counter| after.starts_with(*counter))?;
    let rest = &after[counter.len()..];
    if let Some(rest) = rest.strip_prefix('の') {
        let window: String = rest.chars().take(12).collect();
        if let Some(unit) = JA_NOUNS
            .iter()
            .filter_map(|&(noun, unit)| window.find(noun).map(|found| (found, unit)))
            .min_by_key(|&(found, _)| found)
            .map(|(_, unit)| unit)
        {
            return Some(unit);
        }
    }
    let before = &folded[..at];
    let clause = before.rsplit(['、', '。', ',']).next().unwrap_or(before);
    JA_NOUNS
        .iter()
        .filter_map(|&(noun, unit)| clause.rfind(noun).map(|found| (found, unit)))
        .max_by_key(|&(found, _)| found)
        .map(|(_, unit)| unit)
}

/// What a sentence denies.
enum Denial {
    /// A count the data has (commits, sessions, commands, prompts).
    Of(Unit),
    /// Something the checks cannot count.
    Unchecked,
}

/// The denial in a sentence, if any.
/// A negation word that the items in scope use themselves (a subject "do not panic") is
/// their wording, not a denial.
fn denial(folded: &str, scope: &[usize], index: &Index) -> Option<Denial> {
    let in_scope_text =
        |word: &str| scope.iter().any(|&item| has_word(&index.items[item].vocab.text, word));
    let tokens = tokens(folded);
    for (position, &(_, token)) in tokens.iter().enumerate() {
        let negation =
            EN_NEGATIONS.contains(&token) || token.ends_with("n't") || token.ends_with("n’t");
        // `not only … but also` affirms.
        let affirms =
            token == "not" && tokens.get(position + 1).is_some_and(|&(_, next)| next == "only");
        if !negation || affirms || in_scope_text(token) {
            continue;
        }
        let unit_of = |word: &str| {
            let stemmed = stem(word);
            EN_ABSENT.iter().find(|(absent, _)| stemmed.starts_with(absent)).map(|&(_, unit)| unit)
        };
        let after = tokens[position + 1..].iter().take(4).find_map(|&(_, next)| unit_of(next));
        let before =
            || tokens[..position].iter().rev().take(3).find_map(|&(_, previous)| unit_of(previous));
        return Some(after.or_else(before).map_or(Denial::Unchecked, Denial::Of));
    }
    for negation in JA_NEGATIONS {
        let Some(found) = folded.find(negation) else { continue };
        if in_scope_text(negation) {
            continue;
        }
        let before = &folded[..found];
        let unit = JA_ABSENT
            .iter()
            .filter_map(|&(noun, unit)| before.rfind(noun).map(|at| (at, unit)))
            .max_by_key(|&(at, _)| at)
            .map(|(_, unit)| unit)
            .or_else(|| {
                JA_ABSENT.iter().find(|(noun, _)| folded.contains(noun)).map(|&(_, unit)| unit)
            });
        return Some(unit.map_or(Denial::Unchecked, Denial::Of));
    }
    None
}

/// A comparison with other days, a trend or a habit that the items in scope do not word
/// themselves (a subject "first version", a title "notes from this week").
fn compares(folded: &str, scope: &[usize], index: &Index) -> bool {
    let in_scope =
        |stemmed: &str| scope.iter().any(|&item| index.items[item].vocab.stems.contains(stemmed));
    let english = tokens(folded).into_iter().any(|(_, token)| {
        let stemmed = stem(token);
        index.scope_stems.contains(&stemmed) && !in_scope(&stemmed)
    });
    if english {
        return true;
    }
    JA_SCOPE.iter().any(|word| {
        let mut rest = folded;
        while let Some(at) = rest.find(word) {
            let after = &rest[at + word.len()..];
            // `また、` (and `また，`) is the connective "also".
            let connective = *word == "また"
                && (after.starts_with('、')
                    || after.starts_with(',')
                    || rest[..at].ends_with('は'));
            if !connective && !scope.iter().any(|&item| index.items[item].vocab.text.contains(word))
            {
                return true;
            }
            rest = after;
        }
        false
    })
}

/// An outcome the items in scope do not show.
fn claims_outcome(folded: &str, scope: &[usize], index: &Index) -> bool {
    let mut claimed = Vec::new();
    for (_, token) in tokens(folded) {
        let stemmed = stem(token);
        if let Some(&(_, outcome)) = index.outcome_stems.iter().find(|(word, _)| *word == stemmed) {
            claimed.push(outcome);
        }
    }
    for (word, outcome) in JA_OUTCOMES {
        if folded.contains(word) {
            claimed.push(outcome);
        }
    }
    claimed.into_iter().any(|outcome| !shown(outcome, scope, index))
}

/// Whether the items in scope show `outcome`: an item wording it, a merge commit for a
/// merge, a command that passed after failing for passing tests.
fn shown(outcome: Outcome, scope: &[usize], index: &Index) -> bool {
    let words: Vec<&str> = index
        .outcome_stems
        .iter()
        .filter(|(_, kind)| *kind == outcome)
        .map(|(word, _)| word.as_str())
        .chain(
            match outcome {
                Outcome::Fixed => &["fix", "resolv", "solv"][..],
                Outcome::Merged => &["merg"][..],
                Outcome::Released => &["releas", "tag"][..],
                Outcome::Deployed => &["deploy"][..],
                Outcome::Approved => &["approv"][..],
                Outcome::Passing => &[][..],
            }
            .iter()
            .copied(),
        )
        .collect();
    scope.iter().any(|&item| {
        let item = &index.items[item];
        words.iter().any(|word| item.vocab.stems.iter().any(|stemmed| stemmed.starts_with(word)))
            || JA_OUTCOMES.iter().any(|(ja, kind)| *kind == outcome && item.vocab.text.contains(ja))
            || (outcome == Outcome::Merged && item.merge)
            || (outcome == Outcome::Passing && item.passed_after_failures)
    })
}

mod tickets;

#[cfg(test)]
mod tests;
