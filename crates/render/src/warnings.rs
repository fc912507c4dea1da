//! Warnings' human text per language. Sources write an English message plus the
//! message's parts as parameters; the Japanese is worded here from the code and those
//! parameters. A warning without the parameters a wording needs (from an older JSON
//! file, or a site not yet converted) keeps its English message after a Japanese label,
//! so nothing is lost.

use std::fmt::Write as _;

use report_model::Lang;
use report_model::{Warning, WarningCode};

pub(crate) fn text(warning: &Warning, lang: Lang) -> String {
    let text = match lang {
        Lang::En => warning.message.clone(),
        Lang::Ja => japanese(warning)
            .unwrap_or_else(|| format!("{}（{}）", label_ja(warning.code), warning.message)),
    };
    // A warning another machine reported (`standup daily --machines`) names it, unless
    // the message already does.
    match warning.param("machine") {
        Some(machine) if !is_machine_code(warning.code) => format!("[{machine}] {text}"),
        _ => text,
    }
}

/// The codes whose message itself names the machine.
fn is_machine_code(code: WarningCode) -> bool {
    matches!(
        code,
        WarningCode::MachineUnreachable
            | WarningCode::MachineTimedOut
            | WarningCode::MachineNoStandup
            | WarningCode::MachineSchemaMismatch
            | WarningCode::MachineFailed
    )
}

#[expect(clippy::too_many_lines, reason = "one arm per wording: a table, not logic")]
fn japanese(warning: &Warning) -> Option<String> {
    let p = |key: &str| warning.param(key);
    let source = p("source").map_or_else(String::new, |source| format!("{source}: "));
    Some(match (warning.code, p("kind")) {
        (WarningCode::IdentityUnknown, _) => "ユーザーが特定できないため、すべての作者のコミットを表示しています。設定ファイルの `[identity]` に `emails` を書くか、`git config --global user.email you@example.com` を実行してください".to_owned(),
        (WarningCode::GitFailed, _) => format!("git: `{}` を読めません: {}", p("path")?, p("error")?),
        (WarningCode::SourceUnreadable, Some("exclude_glob")) => format!(
            "git: 除外パターン `{}` が正しくないため無視しました: {}",
            p("pattern")?,
            p("error")?
        ),
        (WarningCode::SourceUnreadable, Some("directory")) => {
            format!("{source}`{}` はディレクトリなので読めません", p("path")?)
        }
        (WarningCode::SourceUnreadable, Some("stopped_early")) => format!(
            "{source}`{}` の読み込みが途中で止まりました: {}。以降のコマンドは含まれていません",
            p("path")?,
            p("error")?
        ),
        (WarningCode::SourceUnreadable, Some("not_regular")) => {
            format!("{source}`{}` は通常のファイルではないため読みません（{}）", p("path")?, p("what")?)
        }
        (WarningCode::SourceUnreadable, Some("too_large")) => {
            format!("{source}`{}` は {} を超えるため読み飛ばしました", p("path")?, p("limit")?)
        }
        (WarningCode::SourceUnreadable, Some("not_git_file")) => {
            format!("{source}`{}` は git dir を指していません（`gitdir: <path>`）", p("path")?)
        }
        (WarningCode::MalformedLines, Some("too_long")) => format!(
            "{source}`{}`: {} を超える行{}件を読み飛ばしました（最初は{}行目）",
            p("path")?,
            p("limit")?,
            p("count")?,
            p("line")?
        ),
        (WarningCode::SourceUnreadable, Some("home_unset")) => format!(
            "HOME が設定されていないため、ユーザーデータベースのホームフォルダー `{}` を使いました",
            p("path")?
        ),
        (WarningCode::SourceUnreadable, Some("home_missing")) => "HOME が設定されておらず、ユーザーデータベースにもホームフォルダーがないため、ホームフォルダーにあるエージェントのログ・シェル履歴・設定は読んでいません".to_owned(),
        (WarningCode::SourceUnreadable, None) => {
            format!("{source}`{}` を読めません: {}", p("path")?, p("error")?)
        }
        (WarningCode::MalformedLines, Some("file")) => {
            format!("{source}`{}`: JSON として正しくないため読み飛ばしました", p("path")?)
        }
        (WarningCode::MalformedLines, None) => {
            let first = p("line").map_or_else(String::new, |line| format!("（最初は{line}行目）"));
            format!("{source}`{}` の不正な行{}件を読み飛ばしました{first}", p("path")?, p("count")?)
        }
        (WarningCode::UndatedEntries, _) => {
            let why = if p("source")? == "zsh" {
                "EXTENDED_HISTORY が無効です（`setopt EXTENDED_HISTORY` で今後は時刻が記録されます）"
            } else {
                "書かれたとき HISTTIMEFORMAT が未設定でした（設定すると今後は時刻が記録されます）"
            };
            format!("{source}`{}` に時刻のない項目が{}件あります — {why}", p("path")?, p("count")?)
        }
        (WarningCode::HistoryStale, _) => {
            let fix = if p("source")? == "bash" {
                "bash はシェルの終了時に履歴を書きます。`shopt -s histappend` と `PROMPT_COMMAND='history -a'` でコマンドごとに書かれます"
            } else {
                "zsh はシェルの終了時に履歴を書きます。`setopt INC_APPEND_HISTORY` でコマンドごとに書かれます"
            };
            format!(
                "{source}`{}` はレポートの期間が始まってから書き込まれていないため、開いたままのシェルのコマンドが含まれていません（{fix}）",
                p("path")?
            )
        }
        (WarningCode::DateInFuture, _) => format!(
            "{} は未来の日付です（現在 {}）。現在より後のことは含まれません",
            p("date")?,
            p("now")?
        ),
        (WarningCode::LlmSentencesDropped, _) => {
            let mut text = format!(
                "ナラティブの{}文のうち{}文をデータで裏付けられないため省きました",
                p("total")?,
                p("dropped")?
            );
            if p("blockers_dropped").is_some_and(|count| count != "0") {
                let _ = write!(
                    text,
                    "。課題候補{}件のうち{}件を省きました",
                    p("blockers")?,
                    p("blockers_dropped")?
                );
            }
            text
        }
        (WarningCode::LlmBlockedNonloopback, _) => format!(
            "LLM の接続先 `{}` はループバックではないため、何も送っていません（ナラティブなし）",
            p("host")?
        ),
        (WarningCode::LlmUnavailable | WarningCode::LlmFailed, Some(kind)) => {
            format!("{}（ナラティブなし）", llm_cause(warning, kind)?)
        }
        (WarningCode::TimeZoneUnusable, _) => format!(
            "TZ の `{}` はタイムゾーンとして使えないため、システムのタイムゾーン（{}）を使いました",
            p("tz")?,
            p("zone")?
        ),
        (WarningCode::MachineUnreachable, _) => format!(
            "マシン `{}` に ssh で接続できませんでした（{}）。そのマシンの分は含まれていません",
            p("machine")?,
            p("error")?
        ),
        (WarningCode::MachineTimedOut, _) => format!(
            "マシン `{}` が {} 秒以内に応答しなかったため止めました。そのマシンの分は含まれていません",
            p("machine")?,
            p("seconds")?
        ),
        (WarningCode::MachineNoStandup, _) => format!(
            "マシン `{}` に standup がありません（PATH 上に見つかりません）。そのマシンの分は含まれていません",
            p("machine")?
        ),
        (WarningCode::MachineSchemaMismatch, _) => format!(
            "{} `{}` のレポートはスキーマのバージョン {} で、このバージョンは {} です。含まれていません",
            if p("kind") == Some("ledger") { "記録" } else { "マシン" },
            p("machine")?,
            p("found")?,
            p("expected")?
        ),
        (WarningCode::MachineFailed, _) => format!(
            "マシン `{}` の応答はレポートではありません（{}）。そのマシンの分は含まれていません",
            p("machine")?,
            p("error")?
        ),
        (WarningCode::LedgerUnreadable, Some("date")) => format!(
            "記録 `{}` は {} の日報ではない（{} の日報）ため使っていません",
            p("path")?,
            p("date")?,
            p("found")?
        ),
        (WarningCode::LedgerUnreadable, _) => {
            format!("記録 `{}` を読めません: {}", p("path")?, p("error")?)
        }
        (WarningCode::LlmRejected, _) => {
            format!("{}: LLM の応答はチェックを通らなかったため使っていません（ナラティブなし）", p("reason")?)
        }
        _ => return None,
    })
}

/// Why the LLM gave no narrative, in Japanese, from the warning's `kind` and parameters.
fn llm_cause(warning: &Warning, kind: &str) -> Option<String> {
    let p = |key: &str| warning.param(key);
    Some(match kind {
        "connection" => "LLM サーバーに接続できません".to_owned(),
        "timeout" => format!(
            "LLM サーバーが制限時間内に応答しませんでした（{}）",
            if p("which")? == "connect" { "接続" } else { "全体" }
        ),
        "status" => format!("LLM サーバーがエラー（HTTP {}）を返しました", p("status")?),
        "redirect" => {
            format!(
                "LLM サーバーがリダイレクト（HTTP {}）を返したため送信を止めました",
                p("status")?
            )
        }
        "invalid_endpoint" => "LLM の接続先が正しい http:// の URL ではありません".to_owned(),
        "command" => "LLM コマンドを実行できませんでした".to_owned(),
        "no_models" => "モデルが設定されておらず、サーバーにもモデルがありません".to_owned(),
        "too_large" => format!("LLM の応答が上限（{} バイト）を超えました", p("limit")?),
        "malformed" => "LLM の応答の形式が正しくありません".to_owned(),
        "empty" => "LLM の応答が空でした".to_owned(),
        _ => return None,
    })
}

fn label_ja(code: WarningCode) -> &'static str {
    match code {
        WarningCode::IdentityUnknown => "ユーザー不明",
        WarningCode::GitFailed => "git を読めません",
        WarningCode::SourceUnreadable => "読めないソース",
        WarningCode::MalformedLines => "不正な行",
        WarningCode::UndatedEntries => "時刻のない項目",
        WarningCode::HistoryStale => "古い履歴",
        WarningCode::LlmBlockedNonloopback => {
            "LLM の送信先がループバックではないため何も送っていません"
        }
        WarningCode::LlmUnavailable => "LLM サーバーを使えません",
        WarningCode::LlmFailed => "LLM から使える応答がありません",
        WarningCode::DateInFuture => "未来の日付",
        WarningCode::LlmRejected => "LLM の応答を採用しませんでした",
        WarningCode::LlmSentencesDropped => "データで裏付けられない文を省きました",
        WarningCode::TimeZoneUnusable => "TZ を使えません",
        WarningCode::MachineUnreachable => "マシンに接続できません",
        WarningCode::MachineTimedOut => "マシンが時間内に応答しません",
        WarningCode::MachineNoStandup => "マシンに standup がありません",
        WarningCode::MachineSchemaMismatch => "スキーマのバージョンが違います",
        WarningCode::MachineFailed => "マシンの応答がレポートではありません",
        WarningCode::LedgerUnreadable => "記録を読めません",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn japanese_from_parameters_and_english_kept_without_them() {
        let warning = Warning::new(
            WarningCode::MalformedLines,
            "`/x.jsonl`: 2 malformed lines skipped (first at line 3)",
        )
        .with("path", "/x.jsonl")
        .with("count", 2)
        .with("line", 3);
        assert_eq!(text(&warning, Lang::En), warning.message);
        assert_eq!(
            text(&warning, Lang::Ja),
            "`/x.jsonl` の不正な行2件を読み飛ばしました（最初は3行目）"
        );
        let bare = Warning::new(WarningCode::LlmUnavailable, "cannot reach http://127.0.0.1:11434");
        assert_eq!(
            text(&bare, Lang::Ja),
            "LLM サーバーを使えません（cannot reach http://127.0.0.1:11434）"
        );
        let partial =
            Warning::new(WarningCode::GitFailed, "git: cannot read `/r`").with("path", "/r");
        assert_eq!(text(&partial, Lang::Ja), "git を読めません（git: cannot read `/r`）");
    }

    #[test]
    fn narrative_verdicts_in_japanese() {
        let dropped = Warning::new(WarningCode::LlmSentencesDropped, "1 of 3 sentences …")
            .with("dropped", 1)
            .with("total", 3)
            .with("blockers_dropped", 2)
            .with("blockers", 2);
        assert_eq!(
            text(&dropped, Lang::Ja),
            "ナラティブの3文のうち1文をデータで裏付けられないため省きました。課題候補2件のうち2件を省きました"
        );
        let rejected =
            Warning::new(WarningCode::LlmRejected, "repetition: …").with("reason", "repetition");
        assert_eq!(
            text(&rejected, Lang::Ja),
            "repetition: LLM の応答はチェックを通らなかったため使っていません（ナラティブなし）"
        );
    }
}
