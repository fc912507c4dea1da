//! Warnings' human text, in every language, from their typed detail: [`wording`] is the
//! one place a warning is put into words (one arm per [`WarningDetail`] variant, so a
//! new variant does not compile without its wording). Producers only fill the detail;
//! the English also goes into the JSON's `message` ([`fill_messages`]).
//!
//! A warning read from an older report (`WarningDetail::Legacy`) keeps its English
//! message, after a Japanese label in Japanese.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use report_model::{
    FileKind, Lang, LlmCause, Rejection, Report, Shell, TeamDay, Warning, WarningCode,
    WarningDetail, plural,
};

pub(crate) fn text(warning: &Warning, lang: Lang) -> String {
    let text = wording(&warning.detail, lang);
    // A warning another machine reported (`standup daily --machines`) names it, unless
    // the message already does.
    match &warning.machine {
        Some(machine) if !is_machine_code(warning.code()) => format!("[{machine}] {text}"),
        _ => text,
    }
}

/// Writes each warning's English text into its `message` (the JSON form carries it).
pub(crate) fn fill_messages(warnings: &mut [Warning]) {
    for warning in warnings {
        let english = text(warning, Lang::En);
        warning.set_message(english);
    }
}

/// The report with its warnings' `message`s written, ready to serialize.
pub(crate) fn with_messages(report: &Report) -> Report {
    let mut report = report.clone();
    fill_messages(&mut report.warnings);
    report
}

/// The team day with every warning's `message` written, ready to serialize.
pub(crate) fn day_with_messages(day: &TeamDay) -> TeamDay {
    let mut day = day.clone();
    fill_messages(&mut day.warnings);
    for member in &mut day.members {
        fill_messages(&mut member.report.warnings);
    }
    day
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

/// The words of a detail in `lang`.
#[expect(clippy::too_many_lines, reason = "one arm per wording: a table, not logic")]
pub(crate) fn wording(detail: &WarningDetail, lang: Lang) -> String {
    use WarningDetail as D;
    let ja = lang == Lang::Ja;
    // What the Japanese says where it has no words of its own: its label, then the English.
    let labelled = |english: String| {
        if ja { format!("{}（{english}）", label_ja(detail.code())) } else { english }
    };
    match detail {
        D::IdentityUnknown => if ja {
            "ユーザーが特定できないため、すべての作者のコミットを表示しています。設定ファイルの `[identity]` に `emails` を書くか、`git config --global user.email you@example.com` を実行してください"
        } else {
            "no identity is known, so commits by every author are shown: set `emails` under `[identity]` in the config, or run `git config --global user.email you@example.com`"
        }
        .to_owned(),
        D::Git { path, error } => if ja {
            format!("git: `{path}` を読めません: {error}")
        } else {
            format!("git: cannot read `{path}`: {error}")
        },
        D::GitWip { path, error } => {
            // git (run with `LC_ALL=C`) refuses a repository another user owns (a clone
            // made with `sudo`, a container's volume) until it is trusted; its own hint
            // is on lines the warning does not keep.
            let trust = error.contains("dubious ownership");
            match (ja, trust) {
                (true, false) => format!("git: `{path}` の作業中の変更を確認できません: {error}"),
                (true, true) => format!(
                    "git: `{path}` の作業中の変更を確認できません: {error}。他のユーザーが所有するリポジトリは `git config --global --add safe.directory '{path}'` で信頼するまで git が扱いません"
                ),
                (false, false) => format!("git: cannot check `{path}` for work in progress: {error}"),
                (false, true) => format!(
                    "git: cannot check `{path}` for work in progress: {error}; git works in a repository another user owns only once it is trusted: `git config --global --add safe.directory '{path}'`"
                ),
            }
        }
        D::Unreadable { shell, path, error } => if ja {
            format!("{}`{path}` を読めません: {error}", prefix(*shell))
        } else {
            format!("{}cannot read `{path}`: {error}", prefix(*shell))
        },
        D::NotRegular { shell, path, file } => if ja {
            format!("{}`{path}` は通常のファイルではないため読みません（{}）", prefix(*shell), file_kind(*file))
        } else {
            format!(
                "{}cannot read `{path}`: it is {}, not a regular file",
                prefix(*shell),
                file_kind(*file)
            )
        },
        D::TooLarge { shell, path, limit } => if ja {
            format!("{}`{path}` は {} を超えるため読み飛ばしました", prefix(*shell), bytes(*limit))
        } else {
            format!(
                "{}cannot read `{path}`: it is larger than {} and was skipped",
                prefix(*shell),
                bytes(*limit)
            )
        },
        D::NotGitFile { shell, path } => if ja {
            format!("{}`{path}` は git dir を指していません（`gitdir: <path>`）", prefix(*shell))
        } else {
            format!("{}`{path}` does not name a git dir (`gitdir: <path>`)", prefix(*shell))
        },
        D::LinesTooLong { shell, path, count, line, limit } => if ja {
            format!(
                "{}`{path}`: {} を超える行{count}件を読み飛ばしました（最初は{line}行目）",
                prefix(*shell),
                bytes(*limit)
            )
        } else {
            format!(
                "{}`{path}`: {} longer than {} skipped (first at line {line})",
                prefix(*shell),
                plain_plural(*count, "line", "lines"),
                bytes(*limit)
            )
        },
        D::MalformedLines { path, count, line } => match (ja, count) {
            (true, _) => format!("`{path}` の不正な行{count}件を読み飛ばしました（最初は{line}行目）"),
            (false, 1) => format!("`{path}`: 1 malformed line skipped (line {line})"),
            (false, _) => {
                format!("`{path}`: {count} malformed lines skipped (first at line {line})")
            }
        },
        D::MalformedFile { path } => if ja {
            format!("`{path}`: JSON として正しくないため読み飛ばしました")
        } else {
            format!("`{path}`: not valid JSON, skipped")
        },
        D::UnreadableTimes { path, key, count, line } => if ja {
            let first = line.map_or_else(String::new, |line| format!("（最初は{line}行目）"));
            format!("`{path}` の `{key}` が時刻として読めない記録{count}件を読み飛ばしました{first}")
        } else {
            let (records, whose) =
                if *count == 1 { ("1 record".to_owned(), "its") } else { (format!("{count} records"), "their") };
            let mut text = format!("`{path}`: {records} skipped because {whose} `{key}` is not a time");
            match (line, count) {
                (Some(line), 1) => { let _ = write!(text, " (line {line})"); }
                (Some(line), _) => { let _ = write!(text, " (first at line {line})"); }
                (None, _) => {}
            }
            text
        },
        D::MalformedEntries { shell, path, count, line } => if ja {
            let first = line.map_or_else(String::new, |line| format!("（最初は{line}行目）"));
            format!("{}`{path}` の不正な行{count}件を読み飛ばしました{first}", prefix(Some(*shell)))
        } else {
            let mut text = format!(
                "{}{} in `{path}` skipped",
                prefix(Some(*shell)),
                plural(*count, "malformed entry", "malformed entries")
            );
            if let Some(line) = line {
                let _ = write!(text, " (first at line {line})");
            }
            text
        },
        D::UndatedEntries { shell, path, count, before_times: true } => if ja {
            let setting = if *shell == Shell::Zsh { "EXTENDED_HISTORY" } else { "HISTTIMEFORMAT" };
            format!(
                "{}`{path}` の先頭に時刻のない項目が{count}件あります — {setting} で時刻が記録されるようになる前のもので、期間より前の項目です",
                prefix(Some(*shell))
            )
        } else {
            let setting = if *shell == Shell::Zsh { "EXTENDED_HISTORY was on" } else { "HISTTIMEFORMAT was set" };
            format!(
                "{}{} at the start of `{path}` — written before {setting}, older than the window",
                prefix(Some(*shell)),
                plural(*count, "undated entry", "undated entries")
            )
        },
        D::UndatedEntries { shell, path, count, before_times: false } => if ja {
            let why = if *shell == Shell::Zsh {
                "EXTENDED_HISTORY が無効です（`setopt EXTENDED_HISTORY` で今後は時刻が記録されます）"
            } else {
                "書かれたとき HISTTIMEFORMAT が未設定でした（設定すると今後は時刻が記録されます）"
            };
            format!("{}`{path}` に時刻のない項目が{count}件あります — {why}", prefix(Some(*shell)))
        } else {
            let why = if *shell == Shell::Zsh {
                "EXTENDED_HISTORY is off (`setopt EXTENDED_HISTORY` records times from now on)"
            } else {
                "HISTTIMEFORMAT was not set when they were written (setting it records times from now on)"
            };
            format!(
                "{}{} in `{path}` — {why}",
                prefix(Some(*shell)),
                plural(*count, "undated entry", "undated entries")
            )
        },
        D::HistoryStale { shell, path } => if ja {
            let fix = if *shell == Shell::Bash {
                "bash はシェルの終了時に履歴を書きます。`shopt -s histappend` と `PROMPT_COMMAND='history -a'` でコマンドごとに書かれます"
            } else {
                "zsh はシェルの終了時に履歴を書きます。`setopt INC_APPEND_HISTORY` でコマンドごとに書かれます"
            };
            format!(
                "{}`{path}` はレポートの期間が始まってから書き込まれていないため、開いたままのシェルのコマンドが含まれていません（{fix}）",
                prefix(Some(*shell))
            )
        } else {
            let fix = if *shell == Shell::Bash {
                "bash writes its history when a shell exits; `shopt -s histappend` with `PROMPT_COMMAND='history -a'` writes each command as it runs"
            } else {
                "zsh writes its history when a shell exits; `setopt INC_APPEND_HISTORY` writes each command as it runs"
            };
            format!(
                "{}`{path}` has not been written since the report window began, so commands from shells still open are missing ({fix})",
                prefix(Some(*shell))
            )
        },
        D::StoppedEarly { shell, path, error } => if ja {
            format!(
                "{}`{path}` の読み込みが途中で止まりました: {error}。以降のコマンドは含まれていません",
                prefix(Some(*shell))
            )
        } else {
            format!(
                "{}reading `{path}` stopped early: {error}; later commands are missing",
                prefix(Some(*shell))
            )
        },
        D::AtuinConfig { error } => labelled(format!(
            "atuin: {error}; looking for the database in the default place"
        )),
        D::AtuinRows { path, count } => labelled(format!(
            "atuin: {} of `{path}` skipped (no usable time or command)",
            plural(*count, "row", "rows")
        )),
        D::ExcludeGlob { pattern, error } => if ja {
            format!("git: 除外パターン `{pattern}` が正しくないため無視しました: {error}")
        } else {
            format!("git: exclude glob `{pattern}` is not valid and was ignored: {error}")
        },
        D::HomeUnset { path } => if ja {
            format!("HOME が設定されていないため、ユーザーデータベースのホームフォルダー `{path}` を使いました")
        } else {
            format!("HOME is not set: the home folder `{path}` from the user database is used")
        },
        D::HomeMissing => if ja {
            "HOME が設定されておらず、ユーザーデータベースにもホームフォルダーがないため、ホームフォルダーにあるエージェントのログ・シェル履歴・設定は読んでいません"
        } else {
            "HOME is not set and the user database names no home folder: agent logs, shell histories and the config under a home folder are not read"
        }
        .to_owned(),
        D::HomeNotFound { path } => if ja {
            format!("HOME のフォルダー `{path}` がないため、ホームフォルダーにあるエージェントのログ・シェル履歴・設定は読んでいません")
        } else {
            format!("HOME names no folder (`{path}`): agent logs, shell histories and the config under a home folder are not read")
        },
        D::NotesUnreadable { path, error } => if ja {
            format!("notes: `{path}` を読めません: {error}")
        } else {
            format!("notes: cannot read `{path}`: {error}; that day's notes are left out")
        },
        D::TimeZoneUnusable { tz, zone } => if ja {
            format!("TZ の `{tz}` はタイムゾーンとして使えないため、システムのタイムゾーン（{zone}）を使いました")
        } else {
            format!(
                "TZ is `{tz}`, which is not a time zone (an IANA name such as `Asia/Tokyo`, a zoneinfo file, or a POSIX rule such as `JST-9`): the system's time zone ({zone}) is used"
            )
        },
        D::DateInFuture { date, now } => if ja {
            format!("{date} は未来の日付です（現在 {now}）。現在より後のことは含まれません")
        } else {
            format!("{date} is in the future (now is {now}): nothing after now is reported")
        },
        D::Llm { cause, error } => if ja {
            llm_ja(cause)
        } else {
            match cause.code() {
                WarningCode::LlmBlockedNonloopback => {
                    format!("no narrative: {error}; nothing was sent")
                }
                // A model runner is no server: its own words say what failed.
                _ if *cause == LlmCause::Command => format!("no narrative: {error}"),
                WarningCode::LlmUnavailable => {
                    format!("no narrative: LLM server unavailable: {error}")
                }
                _ => format!("no narrative: unusable LLM reply: {error}"),
            }
        },
        D::PromptFailed { error } => labelled(format!("no narrative: {error}; nothing was sent")),
        D::EmptyReply => {
            labelled("no narrative: the model's reply was empty after cleaning".to_owned())
        }
        D::Rejected { reason } => if ja {
            format!(
                "{}: LLM の応答はチェックを通らなかったため使っていません（ナラティブなし）",
                reason.as_str()
            )
        } else {
            format!("{}: {}; the report has no narrative", reason.as_str(), describe(*reason))
        },
        D::SentencesDropped { dropped, total, reasons, blockers_dropped, blockers, blocker_reasons } => {
            if ja {
                let mut text = format!(
                    "ナラティブの{total}文のうち{dropped}文をデータで裏付けられないため省きました"
                );
                if *blockers_dropped != 0 {
                    let _ = write!(text, "。課題候補{blockers}件のうち{blockers_dropped}件を省きました");
                }
                text
            } else {
                let mut text = format!(
                    "{dropped} of {total} sentences of the narrative left out as not supported by the data{}",
                    tally(reasons)
                );
                if *blockers_dropped != 0 {
                    let _ = write!(
                        text,
                        "; {blockers_dropped} of {blockers} possible blockers left out{}",
                        tally(blocker_reasons)
                    );
                }
                text
            }
        }
        D::MachineUnreachable { machine, error } => if ja {
            format!("マシン `{machine}` に ssh で接続できませんでした（{error}）。そのマシンの分は含まれていません")
        } else {
            format!("machine `{machine}` could not be reached over ssh ({error}): left out")
        },
        D::MachineTimedOut { machine, seconds } => if ja {
            format!("マシン `{machine}` が {seconds} 秒以内に応答しなかったため止めました。そのマシンの分は含まれていません")
        } else {
            format!("machine `{machine}` did not answer within {seconds} s: stopped, left out")
        },
        D::MachineNoStandup { machine, command } => if ja {
            format!("マシン `{machine}` に standup がありません（PATH 上に見つかりません）。そのマシンの分は含まれていません")
        } else {
            format!("machine `{machine}` has no `{command}` on its PATH: left out")
        },
        D::MachineSchemaMismatch { machine, ledger, found, expected } => if ja {
            format!(
                "{} `{machine}` のレポートはスキーマのバージョン {found} で、このバージョンは {expected} です。含まれていません",
                if *ledger { "記録" } else { "マシン" }
            )
        } else {
            format!(
                "{} `{machine}` has a report of schema version {found}, this standup reads version {expected}: left out",
                if *ledger { "the ledger entry of" } else { "machine" }
            )
        },
        D::MachineFailed { machine, error } => machine_failed(ja, machine, error),
        D::MachineOtherKind { machine } => if ja {
            machine_failed(ja, machine, "a report of another kind")
        } else {
            format!("machine `{machine}` answered with a report of another kind: left out")
        },
        D::LedgerFolderUnreadable { path, error } => if ja {
            format!("記録 `{path}` を読めません: {error}")
        } else {
            format!("cannot read `{path}`: {error}")
        },
        D::LedgerEntryUnreadable { path, error } => if ja {
            format!("記録 `{path}` を読めません: {error}")
        } else {
            format!("cannot read the ledger entry `{path}`: {error}")
        },
        D::LedgerWrongDate { path, date, found } => if ja {
            format!("記録 `{path}` は {date} の日報ではない（{found} の日報）ため使っていません")
        } else {
            format!("the ledger entry `{path}` is not a report of {date} (it covers {found}): left out")
        },
        D::Legacy { message, .. } => labelled(message.clone()),
        D::Unknown => labelled(detail.code().as_str().to_owned()),
    }
}

fn machine_failed(ja: bool, machine: &str, error: &str) -> String {
    if ja {
        format!(
            "マシン `{machine}` の応答はレポートではありません（{error}）。そのマシンの分は含まれていません"
        )
    } else {
        format!("machine `{machine}` did not answer with a report ({error}): left out")
    }
}

/// `zsh: ` before the words of a warning about a shell history.
fn prefix(shell: Option<Shell>) -> String {
    shell.map_or_else(String::new, |shell| format!("{}: ", shell.display_name()))
}

/// Why the LLM gave no narrative, in Japanese.
fn llm_ja(cause: &LlmCause) -> String {
    let why = match cause {
        LlmCause::NonLoopback { host }
        | LlmCause::AmbiguousHost { host }
        | LlmCause::HostName { host } => {
            return format!(
                "LLM の接続先 `{host}` はループバックではないため、何も送っていません（ナラティブなし）"
            );
        }
        LlmCause::Connection => "LLM サーバーに接続できません".to_owned(),
        LlmCause::Timeout { which } => format!(
            "LLM サーバーが制限時間内に応答しませんでした（{}）",
            if which == "connect" { "接続" } else { "全体" }
        ),
        LlmCause::Status { status } => format!("LLM サーバーがエラー（HTTP {status}）を返しました"),
        LlmCause::Redirect { status } => {
            format!("LLM サーバーがリダイレクト（HTTP {status}）を返したため送信を止めました")
        }
        LlmCause::InvalidEndpoint => {
            "LLM の接続先が正しい http:// の URL ではありません".to_owned()
        }
        LlmCause::Command => "LLM コマンドを実行できませんでした".to_owned(),
        LlmCause::NoModels => "モデルが設定されておらず、サーバーにもモデルがありません".to_owned(),
        LlmCause::TooLarge { limit } => format!("LLM の応答が上限（{limit} バイト）を超えました"),
        LlmCause::Malformed => "LLM の応答の形式が正しくありません".to_owned(),
        LlmCause::Empty => "LLM の応答が空でした".to_owned(),
    };
    format!("{why}（ナラティブなし）")
}

/// Why a whole reply was rejected, in English.
fn describe(reason: Rejection) -> &'static str {
    match reason {
        Rejection::WrongLanguage => "the reply is not in the report's language",
        Rejection::Code => "the reply holds code instead of prose",
        Rejection::Markup => "the reply holds headings, lists, tables or quotes instead of prose",
        Rejection::JsonDump => "the reply is a JSON dump instead of prose",
        Rejection::Repetition => "the reply repeats itself",
        Rejection::InstructionEcho => "the reply repeats the instructions",
        Rejection::NothingSupported => "no sentence of the reply is supported by the data",
        Rejection::MostDropped => {
            "more than half of the reply's sentences are not supported by the data"
        }
        Rejection::Empty => "the reply is empty",
    }
}

/// ` (unsupported: 1, count: 2)`, or nothing.
fn tally(reasons: &BTreeMap<String, u64>) -> String {
    if reasons.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = reasons.iter().map(|(reason, n)| format!("{reason}: {n}")).collect();
    format!(" ({})", parts.join(", "))
}

/// What sits at a path that is not a regular file, in English (the Japanese quotes it too).
fn file_kind(kind: FileKind) -> &'static str {
    match kind {
        FileKind::Fifo => "a FIFO (named pipe)",
        FileKind::CharDevice => "a character device",
        FileKind::BlockDevice => "a block device",
        FileKind::Socket => "a socket",
        FileKind::Directory => "a directory",
        FileKind::Other => "a special file",
    }
}

/// `1 MiB`, `64 KiB`, `300 bytes`.
fn bytes(count: u64) -> String {
    if count >= 1 << 20 && count % (1 << 20) == 0 {
        format!("{} MiB", count >> 20)
    } else if count >= 1 << 10 && count % (1 << 10) == 0 {
        format!("{} KiB", count >> 10)
    } else {
        plain_plural(count, "byte", "bytes")
    }
}

/// `1 line`, `1204 lines` (no thousands separator).
fn plain_plural(count: u64, one: &str, many: &str) -> String {
    if count == 1 { format!("1 {one}") } else { format!("{count} {many}") }
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

    fn warning(detail: WarningDetail) -> Warning {
        Warning::new(detail)
    }

    #[test]
    fn records_whose_time_is_no_time_are_counted_with_their_field_and_line() {
        let times = |count, line| {
            warning(WarningDetail::UnreadableTimes {
                path: "/s.jsonl".to_owned(),
                key: "timestamp".to_owned(),
                count,
                line,
            })
        };
        assert_eq!(
            text(&times(1, Some(3)), Lang::En),
            "`/s.jsonl`: 1 record skipped because its `timestamp` is not a time (line 3)"
        );
        assert_eq!(
            text(&times(2, Some(3)), Lang::En),
            "`/s.jsonl`: 2 records skipped because their `timestamp` is not a time (first at line 3)"
        );
        assert_eq!(
            text(&times(2, None), Lang::En),
            "`/s.jsonl`: 2 records skipped because their `timestamp` is not a time"
        );
        assert_eq!(
            text(&times(2, Some(3)), Lang::Ja),
            "`/s.jsonl` の `timestamp` が時刻として読めない記録2件を読み飛ばしました（最初は3行目）"
        );
        assert_eq!(times(1, None).code(), WarningCode::MalformedLines);
    }

    #[test]
    fn both_languages_from_the_detail() {
        let malformed = warning(WarningDetail::MalformedLines {
            path: "/x.jsonl".to_owned(),
            count: 2,
            line: 3,
        });
        assert_eq!(
            text(&malformed, Lang::En),
            "`/x.jsonl`: 2 malformed lines skipped (first at line 3)"
        );
        assert_eq!(
            text(&malformed, Lang::Ja),
            "`/x.jsonl` の不正な行2件を読み飛ばしました（最初は3行目）"
        );
        let one =
            warning(WarningDetail::MalformedLines { path: "/x".to_owned(), count: 1, line: 9 });
        assert_eq!(text(&one, Lang::En), "`/x`: 1 malformed line skipped (line 9)");
        let fifo = warning(WarningDetail::NotRegular {
            shell: Some(Shell::Zsh),
            path: "/h/.zsh_history".to_owned(),
            file: FileKind::Fifo,
        });
        assert_eq!(
            text(&fifo, Lang::En),
            "zsh: cannot read `/h/.zsh_history`: it is a FIFO (named pipe), not a regular file"
        );
        assert_eq!(
            text(&fifo, Lang::Ja),
            "zsh: `/h/.zsh_history` は通常のファイルではないため読みません（a FIFO (named pipe)）"
        );
        let wip =
            warning(WarningDetail::GitWip { path: "/r".to_owned(), error: "late".to_owned() });
        assert_eq!(text(&wip, Lang::En), "git: cannot check `/r` for work in progress: late");
        let foreign = warning(WarningDetail::GitWip {
            path: "/r".to_owned(),
            error: "fatal: detected dubious ownership in repository at '/r'".to_owned(),
        });
        assert_eq!(
            text(&foreign, Lang::En),
            "git: cannot check `/r` for work in progress: fatal: detected dubious ownership in repository at '/r'; git works in a repository another user owns only once it is trusted: `git config --global --add safe.directory '/r'`"
        );
        assert!(text(&foreign, Lang::Ja).ends_with(
            "`git config --global --add safe.directory '/r'` で信頼するまで git が扱いません"
        ));
        assert_eq!(text(&wip, Lang::Ja), "git: `/r` の作業中の変更を確認できません: late");
        let long = warning(WarningDetail::LinesTooLong {
            shell: None,
            path: "/l".to_owned(),
            count: 2,
            line: 7,
            limit: 1 << 20,
        });
        assert_eq!(
            text(&long, Lang::En),
            "`/l`: 2 lines longer than 1 MiB skipped (first at line 7)"
        );
        let large = warning(WarningDetail::TooLarge {
            shell: None,
            path: "/g".to_owned(),
            limit: 64 << 10,
        });
        assert_eq!(
            text(&large, Lang::En),
            "cannot read `/g`: it is larger than 64 KiB and was skipped"
        );
        let undated = |shell, before_times| {
            warning(WarningDetail::UndatedEntries {
                shell,
                path: "/h/.zsh_history".to_owned(),
                count: 1204,
                before_times,
            })
        };
        assert_eq!(
            text(&undated(Shell::Zsh, false), Lang::En),
            "zsh: 1,204 undated entries in `/h/.zsh_history` — EXTENDED_HISTORY is off (`setopt EXTENDED_HISTORY` records times from now on)"
        );
        assert!(
            text(&undated(Shell::Zsh, false), Lang::Ja)
                .starts_with("zsh: `/h/.zsh_history` に時刻のない項目が1204件あります — ")
        );
        // Entries from before the shell recorded times: the setting is not called off.
        assert_eq!(
            text(&undated(Shell::Zsh, true), Lang::En),
            "zsh: 1,204 undated entries at the start of `/h/.zsh_history` — written before EXTENDED_HISTORY was on, older than the window"
        );
        assert_eq!(
            text(&undated(Shell::Bash, true), Lang::En),
            "bash: 1,204 undated entries at the start of `/h/.zsh_history` — written before HISTTIMEFORMAT was set, older than the window"
        );
        assert_eq!(
            text(&undated(Shell::Zsh, true), Lang::Ja),
            "zsh: `/h/.zsh_history` の先頭に時刻のない項目が1204件あります — EXTENDED_HISTORY で時刻が記録されるようになる前のもので、期間より前の項目です"
        );
    }

    #[test]
    fn a_warning_of_another_machine_names_it_unless_it_is_about_the_machine() {
        let mut stale = warning(WarningDetail::HistoryStale {
            shell: Shell::Bash,
            path: "/h/.bash_history".to_owned(),
        });
        stale.machine = Some("devbox".to_owned());
        assert!(
            text(&stale, Lang::En)
                .starts_with("[devbox] bash: `/h/.bash_history` has not been written")
        );
        let mut timed_out =
            warning(WarningDetail::MachineTimedOut { machine: "devbox".to_owned(), seconds: 30 });
        timed_out.machine = Some("devbox".to_owned());
        assert_eq!(
            text(&timed_out, Lang::En),
            "machine `devbox` did not answer within 30 s: stopped, left out"
        );
    }

    #[test]
    fn an_older_reports_warning_keeps_its_english_after_a_japanese_label() {
        let legacy = warning(WarningDetail::Legacy {
            code: WarningCode::LlmUnavailable,
            message: "cannot reach http://127.0.0.1:11434".to_owned(),
            params: BTreeMap::new(),
        });
        assert_eq!(text(&legacy, Lang::En), "cannot reach http://127.0.0.1:11434");
        assert_eq!(
            text(&legacy, Lang::Ja),
            "LLM サーバーを使えません（cannot reach http://127.0.0.1:11434）"
        );
    }

    #[test]
    fn narrative_verdicts_in_both_languages() {
        let dropped = warning(WarningDetail::SentencesDropped {
            dropped: 1,
            total: 3,
            reasons: BTreeMap::from([("unsupported".to_owned(), 1)]),
            blockers_dropped: 2,
            blockers: 2,
            blocker_reasons: BTreeMap::from([("no_evidence".to_owned(), 2)]),
        });
        assert_eq!(
            text(&dropped, Lang::En),
            "1 of 3 sentences of the narrative left out as not supported by the data (unsupported: 1); 2 of 2 possible blockers left out (no_evidence: 2)"
        );
        assert_eq!(
            text(&dropped, Lang::Ja),
            "ナラティブの3文のうち1文をデータで裏付けられないため省きました。課題候補2件のうち2件を省きました"
        );
        let rejected = warning(WarningDetail::Rejected { reason: Rejection::Repetition });
        assert_eq!(
            text(&rejected, Lang::En),
            "repetition: the reply repeats itself; the report has no narrative"
        );
        assert_eq!(
            text(&rejected, Lang::Ja),
            "repetition: LLM の応答はチェックを通らなかったため使っていません（ナラティブなし）"
        );
        let empty = warning(WarningDetail::EmptyReply);
        assert_eq!(
            text(&empty, Lang::Ja),
            "LLM から使える応答がありません（no narrative: the model's reply was empty after cleaning）"
        );
    }

    #[test]
    fn warnings_of_one_code_are_ordered_by_their_english_text() {
        let undated = |shell| {
            warning(WarningDetail::UndatedEntries {
                shell,
                path: "/h/history".to_owned(),
                count: 2,
                before_times: false,
            })
        };
        // By detail, zsh comes before bash (the order of `Shell`); the report lists
        // `bash: …` first, as it always did.
        let mut warnings = vec![undated(Shell::Zsh), undated(Shell::Bash)];
        warnings.sort();
        assert_eq!(warnings[0], undated(Shell::Zsh));
        crate::order_warnings(&mut warnings);
        assert_eq!(warnings, [undated(Shell::Bash), undated(Shell::Zsh)]);
    }

    #[test]
    fn the_json_message_is_the_english_text() {
        let mut warnings = vec![warning(WarningDetail::HomeMissing)];
        fill_messages(&mut warnings);
        assert_eq!(warnings[0].message(), wording(&WarningDetail::HomeMissing, Lang::En));
        assert!(warnings[0].message().starts_with("HOME is not set and"));
    }
}
