//! `standup team`: every member's published day of one date, from a ledger folder.
//!
//! Reads the folder's top level once and one file per member, `<member>/<date>.json`,
//! so a team with years of days renders one day as fast as a new one.

use report_model::{Member, TEAM_SCHEMA_VERSION, TeamDay};

use crate::cli::TeamArgs;
use crate::pipeline::ProcessEnv;
use crate::{Failure, print_warning};

/// `standup team`.
pub(crate) fn run(env: &ProcessEnv, args: &TeamArgs) -> Result<(), Failure> {
    let config = crate::pipeline::load_config_for(env, args.config.as_deref())?;
    let (date, zone_name, time_zone, lang, now) =
        crate::pipeline::team_day(env, &config, &args.date, args.lang)?;
    let dir = crate::machines::ledger_dir(env, args.ledger.as_ref(), &config).ok_or_else(|| {
        Failure::Usage(anyhow::anyhow!(
            "no ledger folder: pass --ledger DIR or set `[ledger] dir` in the config"
        ))
    })?;
    if !dir.is_dir() {
        return Err(Failure::Usage(anyhow::anyhow!(
            "the ledger `{}` is not a folder",
            clean::message(&dir.to_string_lossy())
        )));
    }
    let (entries, mut warnings) = crate::ledger::read_days(&dir, &[date], "");
    let members: Vec<Member> =
        entries.into_iter().map(|(name, report)| Member { name, report }).collect();
    // A member's file is untrusted text like any source: cleaned again here (sanitized,
    // redacted with this config's rules, capped), whatever their machine did.
    let mut members = members;
    let mut cleaner = clean::Cleaner::new(config.redactor(), config.max_chars);
    for member in &mut members {
        member.report.warnings.clear();
        member.report.narrative = None;
        clean_report(&mut cleaner, &mut member.report, config.max_chars);
        cleaner.other(&mut member.name, config.max_chars);
    }
    cleaner.warnings(&mut warnings);
    for warning in &warnings {
        print_warning(&format!(
            "{}: {}",
            warning.code().as_str(),
            render::warning_text(warning, lang)
        ));
    }
    let day = TeamDay {
        schema_version: TEAM_SCHEMA_VERSION,
        date,
        members,
        warnings,
        generated_at: now,
        time_zone: zone_name,
    };
    let text = render::team(&day, crate::pipeline::render_format(args.format), lang, &time_zone);
    crate::pipeline::write_output(args.output.as_deref(), &text)
}

/// Every string of another machine's or member's report that is shown, cleaned again
/// with this machine's rules (sanitized, redacted, capped): it is untrusted input.
pub(crate) fn clean_report(
    cleaner: &mut clean::Cleaner<'_>,
    report: &mut report_model::Report,
    max: usize,
) {
    cleaner.warnings(&mut report.warnings);
    for bucket in &mut report.buckets {
        for project in &mut bucket.projects {
            cleaner.other(&mut project.name, max);
            for commit in &mut project.commits {
                cleaner.other(&mut commit.subject, max);
                commit.branches.iter_mut().for_each(|branch| {
                    cleaner.other(branch, max);
                });
            }
            for session in &mut project.sessions {
                cleaner.other(&mut session.title, max);
                cleaner.other(&mut session.session_id, max);
                session.models.iter_mut().for_each(|model| {
                    cleaner.other(model, max);
                });
            }
            for step in &mut project.next {
                cleaner.other(&mut step.text, max);
                cleaner.other(&mut step.session_id, max);
            }
            for blocker in &mut project.blockers {
                cleaner.other(&mut blocker.text, max);
            }
            for group in &mut project.shell {
                cleaner.other(&mut group.head, max);
                group.examples.iter_mut().for_each(|example| {
                    cleaner.other(example, max);
                });
            }
            if let Some(wip) = &mut project.wip {
                wip.files.iter_mut().chain(&mut wip.stashes).for_each(|text| {
                    cleaner.other(text, max);
                });
            }
        }
        for blocker in &mut bucket.blockers {
            cleaner.other(&mut blocker.text, max);
        }
    }
}
