//! Every word of the Markdown, in English and Japanese.

use std::fmt::Write as _;

use jiff::civil::{Date, Weekday};
use report_model::{
    FollowUpStatus, Lang, MaskedSource, NoteKind, Operation, Stopped, group_thousands,
};
use sanitize::markdown::code_span;

pub(crate) struct Labels {
    pub(crate) daily_title: &'static str,
    pub(crate) standup_title: &'static str,
    pub(crate) window: &'static str,
    pub(crate) summary: &'static str,
    pub(crate) blockers: &'static str,
    pub(crate) shell: &'static str,
    pub(crate) totals: &'static str,
    pub(crate) warnings: &'static str,
    pub(crate) warning: &'static str,
    pub(crate) none: &'static str,
    pub(crate) generated: &'static str,
    pub(crate) deterministic: &'static str,
    pub(crate) narrative_by: &'static str,
    pub(crate) example: &'static str,
    pub(crate) no_activity_bucket: &'static str,
    pub(crate) unknown_project: &'static str,
}

const EN: Labels = Labels {
    daily_title: "Daily report",
    standup_title: "Standup",
    window: "Window",
    summary: "Summary",
    blockers: "Blockers",
    shell: "Shell",
    totals: "Totals",
    warnings: "Warnings",
    warning: "Warning",
    none: "none",
    generated: "generated",
    deterministic: "deterministic",
    narrative_by: "narrative",
    example: "e.g. ",
    no_activity_bucket: "No recorded activity.",
    unknown_project: "(unknown project)",
};

const JA: Labels = Labels {
    daily_title: "日報",
    standup_title: "スタンドアップ",
    window: "対象期間",
    summary: "概要",
    blockers: "課題・懸念",
    shell: "シェル",
    totals: "合計",
    warnings: "警告",
    warning: "警告",
    none: "なし",
    generated: "生成",
    deterministic: "LLM なし",
    narrative_by: "要約モデル",
    example: "例: ",
    no_activity_bucket: "記録された活動はありません。",
    unknown_project: "（不明なプロジェクト）",
};

/// The words of a [`Lang`] (the enum itself lives in `report-model`, shared with
/// `narrative` and the binary).
pub(crate) trait LangText: Copy {
    fn labels(self) -> &'static Labels;
    fn date(self, date: Date) -> String;
    fn short_date(self, date: Date) -> String;
    fn previous_workday(self, date: Date) -> String;
    fn today(self, date: Date) -> String;
    fn no_activity(self, dates: &[Date]) -> String;
    fn count(self, n: u64, noun: Noun) -> String;
    fn no_commits(self) -> &'static str;
    fn no_message(self) -> &'static str;
    fn stats(self, insertions: u64, deletions: u64, files: u64) -> String;
    fn prompts(self, n: u64) -> String;
    fn prompts_with_models(self, n: u64, models: &[String]) -> String;
    fn failed(self, n: u64) -> String;
    fn agent_label(self) -> &'static str;
    fn list_separator(self) -> &'static str;
    fn secrets_masked(self, count: u64, source: MaskedSource) -> String;
    fn in_progress(
        self,
        file_count: usize,
        files: &[String],
        stashes: usize,
        unpushed: u64,
        stopped: Option<&Stopped>,
    ) -> String;
    fn stopped(self, stopped: &Stopped) -> String;
    fn on_branches(self, branches: &[String]) -> String;
    fn next_steps(self, items: &[String], agent: &str, session: &str) -> String;
    fn in_progress_mark(self) -> &'static str;
    fn failing_command(self, command: &str, failures: usize, since: &str) -> String;
    fn reverted_commit(self, subject: &str, at: &str) -> String;
}

impl LangText for Lang {
    fn labels(self) -> &'static Labels {
        match self {
            Lang::En => &EN,
            Lang::Ja => &JA,
        }
    }

    /// A date with its weekday: `2026-11-27 (Fri)` or `2026年11月27日（金）`.
    fn date(self, date: Date) -> String {
        match self {
            Lang::En => format!("{} ({})", date, weekday_en(date.weekday())),
            Lang::Ja => format!(
                "{}年{}月{}日（{}）",
                date.year(),
                date.month(),
                date.day(),
                weekday_ja(date.weekday())
            ),
        }
    }

    /// A date without the year, with its weekday: `Nov 27 (Fri)` or `11月27日（金）`.
    fn short_date(self, date: Date) -> String {
        match self {
            Lang::En => self.date(date),
            Lang::Ja => {
                format!("{}月{}日（{}）", date.month(), date.day(), weekday_ja(date.weekday()))
            }
        }
    }

    fn previous_workday(self, date: Date) -> String {
        match self {
            Lang::En => format!("Previous working day — {}", self.date(date)),
            Lang::Ja => format!("前日（{}）", self.short_date(date)),
        }
    }

    fn today(self, date: Date) -> String {
        match self {
            Lang::En => format!("Today — {}", self.date(date)),
            Lang::Ja => format!("本日（{}）", self.short_date(date)),
        }
    }

    fn no_activity(self, dates: &[Date]) -> String {
        let dates: Vec<String> = dates.iter().map(|date| self.date(*date)).collect();
        match self {
            Lang::En => format!("No recorded activity for {}.", dates.join(" or ")),
            Lang::Ja => format!("{}の記録された活動はありません。", dates.join("・")),
        }
    }

    fn count(self, n: u64, noun: Noun) -> String {
        match self {
            Lang::En => {
                let (one, many) = match noun {
                    Noun::Project => ("project", "projects"),
                    Noun::Commit => ("commit", "commits"),
                    Noun::File => ("file", "files"),
                    Noun::Session => ("AI session", "AI sessions"),
                    Noun::Prompt => ("prompt", "prompts"),
                    Noun::Command => ("command", "commands"),
                    Noun::AgentCommand => ("AI agent command", "AI agent commands"),
                };
                report_model::plural(n, one, many)
            }
            Lang::Ja => {
                let (prefix, suffix) = match noun {
                    Noun::Project => ("プロジェクト", "件"),
                    Noun::Commit => ("コミット", "件"),
                    Noun::File => ("", "ファイル"),
                    Noun::Session => ("AIセッション", "件"),
                    Noun::Prompt => ("プロンプト", "件"),
                    Noun::Command => ("コマンド", "件"),
                    Noun::AgentCommand => ("AIエージェントのコマンド", "件"),
                };
                format!("{prefix}{}{suffix}", report_model::group_thousands(n))
            }
        }
    }

    fn no_commits(self) -> &'static str {
        match self {
            Lang::En => "no commits",
            Lang::Ja => "コミットなし",
        }
    }

    /// In place of a commit's subject when it has none (`git commit
    /// --allow-empty-message`), as forges write it.
    fn no_message(self) -> &'static str {
        match self {
            Lang::En => "(no commit message)",
            Lang::Ja => "（コミットメッセージなし）",
        }
    }

    /// `(+12 −3, 2 files)` or `（+12 −3、2ファイル）`.
    fn stats(self, insertions: u64, deletions: u64, files: u64) -> String {
        let files = self.count(files, Noun::File);
        // Grouped as the counts are: `+119,995` beside `30,000 files`.
        let (insertions, deletions) = (group_thousands(insertions), group_thousands(deletions));
        match self {
            Lang::En => format!("(+{insertions} −{deletions}, {files})"),
            Lang::Ja => format!("（+{insertions} −{deletions}、{files}）"),
        }
    }

    fn prompts(self, n: u64) -> String {
        match self {
            Lang::En => format!("({})", self.count(n, Noun::Prompt)),
            Lang::Ja => format!("（{}）", self.count(n, Noun::Prompt)),
        }
    }

    /// `In progress: 2 files not committed (a.md, b.rs) · 1 stash · 3 commits not pushed`
    /// or `作業中: 未コミット2ファイル（a.md、b.rs）・スタッシュ1件・未プッシュ3コミット`;
    /// `files` are already escaped, and at most a few are given of `file_count`.
    fn in_progress(
        self,
        file_count: usize,
        files: &[String],
        stashes: usize,
        unpushed: u64,
        stopped: Option<&Stopped>,
    ) -> String {
        let more = file_count.saturating_sub(files.len());
        let mut parts = Vec::new();
        if let Some(stopped) = stopped {
            parts.push(self.stopped(stopped));
        }
        match self {
            Lang::En => {
                if file_count > 0 {
                    let noun = if file_count == 1 { "file" } else { "files" };
                    let mut list = files.join(", ");
                    if more > 0 {
                        let _ = write!(list, ", {more} more");
                    }
                    parts.push(format!("{file_count} {noun} not committed ({list})"));
                }
                if stashes > 0 {
                    parts.push(format!(
                        "{stashes} {}",
                        if stashes == 1 { "stash" } else { "stashes" }
                    ));
                }
                if unpushed > 0 {
                    let noun = if unpushed == 1 { "commit" } else { "commits" };
                    parts.push(format!("{unpushed} {noun} not pushed"));
                }
                format!("In progress: {}", parts.join(" · "))
            }
            Lang::Ja => {
                if file_count > 0 {
                    let mut list = files.join("、");
                    if more > 0 {
                        let _ = write!(list, "、ほか{more}件");
                    }
                    parts.push(format!("未コミット{file_count}ファイル（{list}）"));
                }
                if stashes > 0 {
                    parts.push(format!("スタッシュ{stashes}件"));
                }
                if unpushed > 0 {
                    parts.push(format!("未プッシュ{unpushed}コミット"));
                }
                format!("作業中: {}", parts.join("・"))
            }
        }
    }

    /// `a rebase stopped with 2 conflicts to resolve`, `a merge stopped, waiting for `git
    /// merge --continue``; `リベースが中断（未解決のコンフリクト2件）`; in a linked worktree
    /// `a rebase stopped in `api-fix` with …`, `` `api-fix`でリベースが中断… ``.
    fn stopped(self, stopped: &Stopped) -> String {
        let (en, ja, command) = match stopped.operation {
            Operation::Rebase => ("rebase", "リベース", "git rebase --continue"),
            Operation::Merge => ("merge", "マージ", "git merge --continue"),
            Operation::CherryPick => {
                ("cherry-pick", "チェリーピック", "git cherry-pick --continue")
            }
            Operation::Revert => ("revert", "リバート", "git revert --continue"),
        };
        let conflicts = stopped.conflicts;
        // A linked worktree's, by its folder name (the main work tree's goes unnamed).
        let worktree = stopped.worktree.as_deref().map(code_span);
        let (en_in, ja_in) = match &worktree {
            Some(name) => (format!(" in {name}"), format!("{name}で")),
            None => (String::new(), String::new()),
        };
        match (self, conflicts) {
            (Lang::En, 0) => format!("a {en} stopped{en_in}, waiting for `{command}`"),
            (Lang::En, _) => {
                let noun = if conflicts == 1 { "conflict" } else { "conflicts" };
                format!("a {en} stopped{en_in} with {conflicts} {noun} to resolve")
            }
            (Lang::Ja, 0) => format!("{ja_in}{ja}が中断（`{command}` 待ち）"),
            (Lang::Ja, _) => format!("{ja_in}{ja}が中断（未解決のコンフリクト{conflicts}件）"),
        }
    }

    /// `Next: a · b (Claude Code `0b6d1e2a`)` or `次: a · b（Claude Code `0b6d1e2a`）`:
    /// `items` are already escaped, `session` is already a code span.
    fn next_steps(self, items: &[String], agent: &str, session: &str) -> String {
        let items = items.join(" · ");
        match self {
            Lang::En => format!("Next: {items} ({agent} {session})"),
            Lang::Ja => format!("次: {items}（{agent} {session}）"),
        }
    }

    /// `Blocked?: `cargo test` failed 3 times since 16:10, no passing run after`;
    /// `command` is already a code span.
    fn failing_command(self, command: &str, failures: usize, since: &str) -> String {
        match self {
            Lang::En => {
                format!(
                    "Blocked?: {command} failed {failures} times since {since}, no passing run after"
                )
            }
            Lang::Ja => {
                format!("要確認: {command} が{since}以降{failures}回失敗し、その後成功していません")
            }
        }
    }

    /// `Blocked?: `subject` was reverted at 16:40`; `subject` is already a code span.
    fn reverted_commit(self, subject: &str, at: &str) -> String {
        match self {
            Lang::En => format!("Blocked?: {subject} was reverted at {at}"),
            Lang::Ja => format!("要確認: {subject} が{at}に取り消されました（revert）"),
        }
    }

    /// What follows a next step that is in progress.
    fn in_progress_mark(self) -> &'static str {
        match self {
            Lang::En => " (in progress)",
            Lang::Ja => "（作業中）",
        }
    }

    /// ` · on `main`` or `・ブランチ `main``, for a commit or session line; `branches`
    /// are already code spans.
    fn on_branches(self, branches: &[String]) -> String {
        match self {
            Lang::En => format!(" · on {}", branches.join(", ")),
            Lang::Ja => format!("・ブランチ {}", branches.join("、")),
        }
    }

    /// `(6 prompts, claude-opus-4-5)` or `（プロンプト6件、claude-opus-4-5）`; the models
    /// are already escaped.
    fn prompts_with_models(self, n: u64, models: &[String]) -> String {
        if models.is_empty() {
            return self.prompts(n);
        }
        let inner = format!(
            "{}{}{}",
            self.count(n, Noun::Prompt),
            self.list_separator(),
            models.join(self.list_separator())
        );
        match self {
            Lang::En => format!("({inner})"),
            Lang::Ja => format!("（{inner}）"),
        }
    }

    /// `3 failed` or `失敗3件`.
    fn failed(self, n: u64) -> String {
        match self {
            Lang::En => format!("{n} failed"),
            Lang::Ja => format!("失敗{n}件"),
        }
    }

    /// What leads a shell group an AI agent ran.
    fn agent_label(self) -> &'static str {
        match self {
            Lang::En => "AI agent: ",
            Lang::Ja => "AIエージェント: ",
        }
    }

    fn list_separator(self) -> &'static str {
        match self {
            Lang::En => ", ",
            Lang::Ja => "、",
        }
    }

    fn secrets_masked(self, count: u64, source: MaskedSource) -> String {
        match self {
            Lang::En => {
                let source = match source {
                    MaskedSource::Git => "commits",
                    MaskedSource::Sessions => "AI sessions",
                    MaskedSource::Shell => "shell history",
                    MaskedSource::Warnings => "warnings",
                    MaskedSource::Notes => "notes",
                };
                format!(
                    "{count} {} masked in {source}",
                    if count == 1 { "secret" } else { "secrets" }
                )
            }
            Lang::Ja => {
                let source = match source {
                    MaskedSource::Git => "コミット",
                    MaskedSource::Sessions => "AIセッション",
                    MaskedSource::Shell => "シェル履歴",
                    MaskedSource::Warnings => "警告",
                    MaskedSource::Notes => "メモ",
                };
                format!("{source}の秘密情報{count}件をマスク")
            }
        }
    }
}

/// Headings of multi-day reports and time spent.
pub(crate) trait RangeText: Copy {
    fn week_title(self) -> &'static str;
    fn range_title(self) -> &'static str;
    fn date_range(self, first: Date, last: Date) -> String;
    fn no_activity_range(self, first: Date, last: Date) -> String;
    fn day_heading(self, date: Date) -> String;
    fn since_previous(self, first: Date, last: Date) -> String;
    fn duration(self, minutes: u64) -> String;
    fn time_spent(self, minutes: u64, first: &jiff::Zoned, last: &jiff::Zoned) -> String;
}

impl RangeText for Lang {
    /// The title of a week report: `Weekly report` or `週報`.
    fn week_title(self) -> &'static str {
        match self {
            Lang::En => "Weekly report",
            Lang::Ja => "週報",
        }
    }

    /// The title of a range of days: `Daily reports` or `日報`.
    fn range_title(self) -> &'static str {
        match self {
            Lang::En => "Daily reports",
            Lang::Ja => "日報",
        }
    }

    /// The dates of a multi-day title: `2026-11-23 (Mon) – 2026-11-27 (Fri)` or
    /// `2026年11月23日（月）〜11月27日（金）`.
    fn date_range(self, first: Date, last: Date) -> String {
        if first == last {
            return self.date(first);
        }
        match self {
            Lang::En => format!("{} – {}", self.date(first), self.date(last)),
            Lang::Ja if first.year() == last.year() => {
                format!("{}〜{}", self.date(first), self.short_date(last))
            }
            Lang::Ja => format!("{}〜{}", self.date(first), self.date(last)),
        }
    }

    /// `No recorded activity from 2026-11-23 (Mon) to 2026-11-27 (Fri).`
    fn no_activity_range(self, first: Date, last: Date) -> String {
        match self {
            Lang::En => {
                format!("No recorded activity from {} to {}.", self.date(first), self.date(last))
            }
            Lang::Ja => format!("{}の記録された活動はありません。", self.date_range(first, last)),
        }
    }

    /// The heading of one day of a week or a range: `2026-11-23 (Mon)` or
    /// `11月23日（月）`.
    fn day_heading(self, date: Date) -> String {
        self.short_date(date)
    }

    /// The heading of a standup's previous bucket that spans more than one day:
    /// `Since Friday (Fri 27 – Sun 29)` or `金曜日以降（11月27日〜29日）`.
    fn since_previous(self, first: Date, last: Date) -> String {
        let same_month = first.year() == last.year() && first.month() == last.month();
        match self {
            Lang::En => {
                let day = |date: Date| {
                    if same_month {
                        format!("{} {}", weekday_en(date.weekday()), date.day())
                    } else {
                        format!("{} {}", weekday_en(date.weekday()), date.strftime("%b %-d"))
                    }
                };
                format!(
                    "Since {} ({} – {})",
                    weekday_en_long(first.weekday()),
                    day(first),
                    day(last)
                )
            }
            Lang::Ja => {
                let last_text = if same_month {
                    format!("{}日", last.day())
                } else {
                    format!("{}月{}日", last.month(), last.day())
                };
                format!(
                    "{}曜日以降（{}月{}日〜{last_text}）",
                    weekday_ja(first.weekday()),
                    first.month(),
                    first.day()
                )
            }
        }
    }

    /// An estimate of minutes: `≈ 2 h 40 min` or `約2時間40分`.
    fn duration(self, minutes: u64) -> String {
        let (hours, minutes) = (minutes / 60, minutes % 60);
        match (self, hours, minutes) {
            (Lang::En, 0, m) => format!("≈ {m} min"),
            (Lang::En, h, 0) => format!("≈ {h} h"),
            (Lang::En, h, m) => format!("≈ {h} h {m} min"),
            (Lang::Ja, 0, m) => format!("約{m}分"),
            (Lang::Ja, h, 0) => format!("約{h}時間"),
            (Lang::Ja, h, m) => format!("約{h}時間{m}分"),
        }
    }

    /// Time spent with the clock times of its first and last event:
    /// `≈ 2 h 40 min, 09:12–18:05` or `約2時間40分（9:12〜18:05）`; across days each end
    /// carries its weekday (`Fri 09:12–Sun 18:05`, `金9:12〜日18:05`); a span within one
    /// minute of the clock is one clock time (`≈ 10 min, 11:00`, not `11:00–11:00`).
    fn time_spent(self, minutes: u64, first: &jiff::Zoned, last: &jiff::Zoned) -> String {
        let same_day = first.date() == last.date();
        let clock = |time: &jiff::Zoned| {
            let text = match self {
                Lang::En => time.strftime("%H:%M").to_string(),
                Lang::Ja => time.strftime("%-H:%M").to_string(),
            };
            if same_day {
                text
            } else {
                match self {
                    Lang::En => format!("{} {text}", weekday_en(time.weekday())),
                    Lang::Ja => format!("{}{text}", weekday_ja(time.weekday())),
                }
            }
        };
        let duration = self.duration(minutes);
        let (from, to) = (clock(first), clock(last));
        if from == to {
            return match self {
                Lang::En => format!("{duration}, {from}"),
                Lang::Ja => format!("{duration}（{from}）"),
            };
        }
        match self {
            Lang::En => format!("{duration}, {from}–{to}"),
            Lang::Ja => format!("{duration}（{from}〜{to}）"),
        }
    }
}

/// The words of what looks forward: notes, carried plans and blockers, open work.
pub(crate) trait OutlookText: Copy {
    fn notes_heading(self) -> &'static str;
    fn next_heading(self) -> &'static str;
    fn still_open_heading(self) -> &'static str;
    fn note(self, kind: NoteKind, text: &str, done: bool) -> String;
    fn follow_up(self, status: FollowUpStatus, text: &str, evidence: &str) -> String;
    fn carried_blocker(self, text: &str, noted: &str) -> String;
    fn open_plan(self, text: &str, noted: &str) -> String;
    fn open_work(self, project: &str, files: u64, stashes: u64, unpushed: usize) -> String;
    fn branch_ahead(self, project: &str, branch: &str, commits: u64, newest: &str) -> String;
    fn stopped_since(self, project: &str, stopped: &str, since: &str) -> String;
    fn more_branches_ahead(self, count: usize, newest: &str) -> String;
    fn interrupted_session(self, agent: &str, title: &str, at: &str) -> String;
    fn agent_failing_command(
        self,
        agent: &str,
        command: &str,
        failures: usize,
        since: &str,
    ) -> String;
}

impl OutlookText for Lang {
    /// `Blocked?: Claude Code `title` was interrupted at 16:40 and not resumed`; `title`
    /// is already a code span.
    fn interrupted_session(self, agent: &str, title: &str, at: &str) -> String {
        match self {
            Lang::En => {
                format!("Blocked?: {agent} {title} was interrupted at {at} and not resumed")
            }
            Lang::Ja => format!("要確認: {agent} {title} が{at}に中断され、再開されていません"),
        }
    }

    /// `Blocked?: `cargo test` failed 2 times since 16:10 (Claude Code session), no passing
    /// run after`, or, for one failure that ended the session, `… failed at 16:10 (Claude
    /// Code session), and the session ended there`; `command` is already a code span.
    fn agent_failing_command(
        self,
        agent: &str,
        command: &str,
        failures: usize,
        since: &str,
    ) -> String {
        match (self, failures) {
            (Lang::En, 1) => format!(
                "Blocked?: {command} failed at {since} ({agent} session), and the session ended there"
            ),
            (Lang::En, _) => format!(
                "Blocked?: {command} failed {failures} times since {since} ({agent} session), no passing run after"
            ),
            (Lang::Ja, 1) => format!(
                "要確認: {agent} のセッションで {command} が{since}に失敗し、そのままセッションが終わっています"
            ),
            (Lang::Ja, _) => format!(
                "要確認: {agent} のセッションで {command} が{since}以降{failures}回失敗し、その後成功していません"
            ),
        }
    }

    fn notes_heading(self) -> &'static str {
        match self {
            Lang::En => "Notes",
            Lang::Ja => "メモ",
        }
    }

    fn next_heading(self) -> &'static str {
        match self {
            Lang::En => "Next",
            Lang::Ja => "今日の予定",
        }
    }

    fn still_open_heading(self) -> &'static str {
        match self {
            Lang::En => "Still open",
            Lang::Ja => "未完了",
        }
    }

    /// `Plan: text`, `Blocker: text` or the text of a plain note; ` (closed)` when the
    /// person closed it. `text` is already escaped.
    fn note(self, kind: NoteKind, text: &str, done: bool) -> String {
        let (label, closed) = match self {
            Lang::En => (
                match kind {
                    NoteKind::Note => "",
                    NoteKind::Plan => "Plan: ",
                    NoteKind::Blocker => "Blocker: ",
                },
                " (closed)",
            ),
            Lang::Ja => (
                match kind {
                    NoteKind::Note => "",
                    NoteKind::Plan => "予定: ",
                    NoteKind::Blocker => "課題: ",
                },
                "（完了）",
            ),
        };
        format!("{label}{text}{}", if done { closed } else { "" })
    }

    /// `Done: text (evidence)`, `Open: text` or `Closed: text`; `evidence` is already
    /// Markdown (code spans), empty when there is none.
    fn follow_up(self, status: FollowUpStatus, text: &str, evidence: &str) -> String {
        let label = match (self, status) {
            (Lang::En, FollowUpStatus::Done) => "Done",
            (Lang::En, FollowUpStatus::Open) => "Open",
            (Lang::En, FollowUpStatus::Closed) => "Closed",
            (Lang::Ja, FollowUpStatus::Done) => "完了",
            (Lang::Ja, FollowUpStatus::Open) => "未完了",
            (Lang::Ja, FollowUpStatus::Closed) => "完了（手動）",
        };
        match (self, evidence.is_empty()) {
            (_, true) => format!("{label}: {text}"),
            (Lang::En, false) => format!("{label}: {text} ({evidence})"),
            (Lang::Ja, false) => format!("{label}: {text}（{evidence}）"),
        }
    }

    /// `Blocker: text (noted Fri 27 Nov 2026)`; `text` is already escaped.
    fn carried_blocker(self, text: &str, noted: &str) -> String {
        match self {
            Lang::En => format!("Blocker: {text} (noted {noted})"),
            Lang::Ja => format!("課題: {text}（{noted}のメモ）"),
        }
    }

    /// `Plan: text (noted …)`, a plan of the week still open.
    fn open_plan(self, text: &str, noted: &str) -> String {
        match self {
            Lang::En => format!("Plan: {text} (noted {noted})"),
            Lang::Ja => format!("予定: {text}（{noted}のメモ）"),
        }
    }

    /// `app — branch `feature/x`: 3 commits not pushed (latest Fri 27 Nov 2026)`;
    /// `project` is already escaped, `branch` a code span.
    /// `api — a rebase stopped with 1 conflict to resolve (since 2026-11-27 (Fri))`;
    /// `stopped` is [`LangText::stopped`]'s.
    fn stopped_since(self, project: &str, stopped: &str, since: &str) -> String {
        match self {
            Lang::En => format!("{project} — {stopped} (since {since})"),
            Lang::Ja => format!("{project} — {since}から{stopped}"),
        }
    }

    /// `8 older branches with commits not pushed (latest 2026-11-09 (Mon))`: the branches
    /// ahead not given a line each, `newest` the newest commit among them.
    fn more_branches_ahead(self, count: usize, newest: &str) -> String {
        match self {
            Lang::En => {
                let noun = if count == 1 { "branch" } else { "branches" };
                format!("{count} older {noun} with commits not pushed (latest {newest})")
            }
            Lang::Ja => format!("ほか未プッシュの古いブランチ{count}件（最新 {newest}）"),
        }
    }

    fn branch_ahead(self, project: &str, branch: &str, commits: u64, newest: &str) -> String {
        match self {
            Lang::En => {
                let noun = if commits == 1 { "commit" } else { "commits" };
                format!(
                    "{project} — branch {branch}: {commits} {noun} not pushed (latest {newest})"
                )
            }
            Lang::Ja => format!(
                "{project} — ブランチ {branch}: 未プッシュ{commits}コミット（最新 {newest}）"
            ),
        }
    }

    /// `app — left open: 1 commit not pushed · 2 files not committed · 1 stash`;
    /// `project` is already escaped.
    fn open_work(self, project: &str, files: u64, stashes: u64, unpushed: usize) -> String {
        let mut parts = Vec::new();
        match self {
            Lang::En => {
                if unpushed > 0 {
                    let noun = if unpushed == 1 { "commit" } else { "commits" };
                    parts.push(format!("{unpushed} {noun} not pushed"));
                }
                if files > 0 {
                    let noun = if files == 1 { "file" } else { "files" };
                    parts.push(format!("{files} {noun} not committed"));
                }
                if stashes > 0 {
                    parts.push(format!(
                        "{stashes} {}",
                        if stashes == 1 { "stash" } else { "stashes" }
                    ));
                }
                format!("{project} — left open: {}", parts.join(" · "))
            }
            Lang::Ja => {
                if unpushed > 0 {
                    parts.push(format!("未プッシュ{unpushed}コミット"));
                }
                if files > 0 {
                    parts.push(format!("未コミット{files}ファイル"));
                }
                if stashes > 0 {
                    parts.push(format!("スタッシュ{stashes}件"));
                }
                format!("{project} — 残作業: {}", parts.join("・"))
            }
        }
    }
}

fn weekday_en_long(weekday: Weekday) -> &'static str {
    match weekday {
        Weekday::Monday => "Monday",
        Weekday::Tuesday => "Tuesday",
        Weekday::Wednesday => "Wednesday",
        Weekday::Thursday => "Thursday",
        Weekday::Friday => "Friday",
        Weekday::Saturday => "Saturday",
        Weekday::Sunday => "Sunday",
    }
}

#[derive(Clone, Copy)]
pub(crate) enum Noun {
    Project,
    Commit,
    File,
    Session,
    Prompt,
    Command,
    AgentCommand,
}

fn weekday_en(weekday: Weekday) -> &'static str {
    match weekday {
        Weekday::Monday => "Mon",
        Weekday::Tuesday => "Tue",
        Weekday::Wednesday => "Wed",
        Weekday::Thursday => "Thu",
        Weekday::Friday => "Fri",
        Weekday::Saturday => "Sat",
        Weekday::Sunday => "Sun",
    }
}

fn weekday_ja(weekday: Weekday) -> &'static str {
    match weekday {
        Weekday::Monday => "月",
        Weekday::Tuesday => "火",
        Weekday::Wednesday => "水",
        Weekday::Thursday => "木",
        Weekday::Friday => "金",
        Weekday::Saturday => "土",
        Weekday::Sunday => "日",
    }
}

/// `Team standup — 2026-11-27 (Fri)` or `チームのスタンドアップ — 2026年11月27日（金）`.
pub(crate) fn team_title(lang: Lang, date: Date) -> String {
    match lang {
        Lang::En => format!("Team standup — {}", lang.date(date)),
        Lang::Ja => format!("チームのスタンドアップ — {}", lang.date(date)),
    }
}

/// `3 members` or `メンバー3人`.
pub(crate) fn team_members(lang: Lang, n: u64) -> String {
    match lang {
        Lang::En => report_model::plural(n, "member", "members"),
        Lang::Ja => format!("メンバー{}人", report_model::group_thousands(n)),
    }
}

/// What a page without any member says.
pub(crate) fn team_nobody(lang: Lang, date: Date) -> String {
    match lang {
        Lang::En => format!("Nobody published a day for {}.", lang.date(date)),
        Lang::Ja => format!("{}の日報を公開したメンバーはいません。", lang.date(date)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_masked_source_has_words_in_both_languages() {
        assert_eq!(Lang::Ja.secrets_masked(2, MaskedSource::Warnings), "警告の秘密情報2件をマスク");
        assert_eq!(
            Lang::En.secrets_masked(1, MaskedSource::Warnings),
            "1 secret masked in warnings"
        );
        assert_eq!(Lang::En.secrets_masked(3, MaskedSource::Git), "3 secrets masked in commits");
    }

    #[test]
    fn counts_group_thousands() {
        assert_eq!(Lang::En.count(1204, Noun::Commit), "1,204 commits");
        assert_eq!(Lang::Ja.count(1204, Noun::Commit), "コミット1,204件");
        assert_eq!(Lang::En.count(1, Noun::File), "1 file");
        assert_eq!(Lang::En.stats(119_995, 1000, 30_000), "(+119,995 −1,000, 30,000 files)");
        assert_eq!(Lang::Ja.stats(119_995, 999, 1), "（+119,995 −999、1ファイル）");
    }
}

#[cfg(test)]
mod time_tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn previous_bucket_headings() {
        let (friday, sunday) = (date(2026, 11, 27), date(2026, 11, 29));
        assert_eq!(Lang::En.since_previous(friday, sunday), "Since Friday (Fri 27 – Sun 29)");
        assert_eq!(Lang::Ja.since_previous(friday, sunday), "金曜日以降（11月27日〜29日）");
        let (friday, sunday) = (date(2026, 10, 30), date(2026, 11, 1));
        assert_eq!(
            Lang::En.since_previous(friday, sunday),
            "Since Friday (Fri Oct 30 – Sun Nov 1)"
        );
        assert_eq!(Lang::Ja.since_previous(friday, sunday), "金曜日以降（10月30日〜11月1日）");
    }

    #[test]
    fn durations_and_clock_ranges() {
        assert_eq!(Lang::En.duration(160), "≈ 2 h 40 min");
        assert_eq!(Lang::En.duration(120), "≈ 2 h");
        assert_eq!(Lang::En.duration(40), "≈ 40 min");
        assert_eq!(Lang::Ja.duration(160), "約2時間40分");
        assert_eq!(Lang::Ja.duration(60), "約1時間");
        assert_eq!(Lang::Ja.duration(5), "約5分");
        let zone = jiff::tz::TimeZone::get("Asia/Tokyo").unwrap();
        let zoned = |text: &str| text.parse::<jiff::Timestamp>().unwrap().to_zoned(zone.clone());
        let (first, last) = (zoned("2026-11-27T00:12:00Z"), zoned("2026-11-27T09:05:00Z"));
        assert_eq!(Lang::En.time_spent(160, &first, &last), "≈ 2 h 40 min, 09:12–18:05");
        assert_eq!(Lang::Ja.time_spent(160, &first, &last), "約2時間40分（9:12〜18:05）");
        let monday = zoned("2026-11-30T00:15:00Z");
        assert_eq!(Lang::En.time_spent(30, &first, &monday), "≈ 30 min, Fri 09:12–Mon 09:15");
        assert_eq!(Lang::Ja.time_spent(30, &first, &monday), "約30分（金9:12〜月9:15）");
        assert_eq!(Lang::En.time_spent(10, &first, &first), "≈ 10 min, 09:12");
        // Seconds apart within one minute of the clock: one time, not `09:12–09:12`.
        let later = zoned("2026-11-27T00:12:41Z");
        assert_eq!(Lang::En.time_spent(10, &first, &later), "≈ 10 min, 09:12");
        assert_eq!(Lang::Ja.time_spent(10, &first, &later), "約10分（9:12）");
    }
}
