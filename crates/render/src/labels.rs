//! Every word of the Markdown, in English and Japanese.

use jiff::civil::{Date, Weekday};
use report_model::{Lang, MaskedSource};

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
    fn stats(self, insertions: u64, deletions: u64, files: u64) -> String;
    fn prompts(self, n: u64) -> String;
    fn prompts_with_models(self, n: u64, models: &[String]) -> String;
    fn failed(self, n: u64) -> String;
    fn agent_label(self) -> &'static str;
    fn list_separator(self) -> &'static str;
    fn secrets_masked(self, count: u64, source: MaskedSource) -> String;
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

    /// `(+12 −3, 2 files)` or `（+12 −3、2ファイル）`.
    fn stats(self, insertions: u64, deletions: u64, files: u64) -> String {
        let files = self.count(files, Noun::File);
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
                };
                format!("{source}の秘密情報{count}件をマスク")
            }
        }
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
    }
}
