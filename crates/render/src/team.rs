//! The team page (`standup team`): every member's published day of one date, per
//! person what they did (projects, commits, sessions), next steps and blockers.

use std::fmt::Write as _;

use jiff::tz::TimeZone;
use report_model::{Lang, TeamDay, Totals};
use sanitize::markdown::{code_span, escape_text};

use crate::Format;
use crate::labels::{LangText as _, team_members, team_nobody, team_title};
use crate::markdown::{project_section, totals, with_code_spans};

/// The team's day in `format` and `lang`, with times shown in `time_zone`. Slack, text
/// and HTML are written from the Markdown read back as blocks, as for a report; JSON is
/// the [`TeamDay`] itself.
pub fn team(day: &TeamDay, format: Format, lang: Lang, time_zone: &TimeZone) -> String {
    let markdown = || markdown(day, lang, time_zone);
    match format {
        Format::Markdown => markdown(),
        Format::Json => {
            let day = crate::warnings::day_with_messages(day);
            let mut text = serde_json::to_string_pretty(&day).unwrap_or_default();
            text.push('\n');
            text
        }
        Format::Slack => crate::slack::write(&crate::doc::parse(&markdown())),
        Format::Text => crate::text::write(&crate::doc::parse(&markdown())),
        Format::Html => crate::html::write(&crate::doc::parse(&markdown())),
    }
}

fn markdown(day: &TeamDay, lang: Lang, time_zone: &TimeZone) -> String {
    let labels = lang.labels();
    let mut out = format!("# {}\n", team_title(lang, day.date));
    if day.members.is_empty() {
        let _ = write!(out, "\n{}\n", team_nobody(lang, day.date));
    }
    let mut sum = Totals::default();
    for member in &day.members {
        let report = &member.report;
        sum.commits += report.totals.commits;
        sum.files_changed += report.totals.files_changed;
        sum.insertions += report.totals.insertions;
        sum.deletions += report.totals.deletions;
        sum.sessions += report.totals.sessions;
        sum.prompts += report.totals.prompts;
        sum.projects += report.totals.projects;
        let _ = write!(
            out,
            "\n## {} · {}\n",
            escape_text(&member.name),
            totals(&report.totals, lang, false)
        );
        if report.is_empty() {
            let _ = write!(out, "\n{}\n", labels.no_activity_bucket);
        }
        for bucket in &report.buckets {
            for project in &bucket.projects {
                project_section(
                    &mut out,
                    project,
                    &report.outlook,
                    lang,
                    "###",
                    time_zone,
                    bucket.window.date,
                );
            }
        }
    }
    let members = team_members(lang, day.members.len() as u64);
    let _ = write!(out, "\n{}: {members} · {}\n\n", labels.totals, totals(&sum, lang, true));
    if day.warnings.is_empty() {
        let _ = writeln!(out, "{}: {}", labels.warnings, labels.none);
    }
    for warning in &day.warnings {
        let _ = writeln!(
            out,
            "- {}: {} {}",
            labels.warning,
            code_span(warning.code().as_str()),
            with_code_spans(&crate::warnings::text(warning, lang))
        );
    }
    out
}

#[cfg(test)]
mod tests;
