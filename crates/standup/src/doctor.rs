//! `standup doctor`: what was found, where, and what limits it.
//!
//! [`doctor_report`] gathers the sources as a report would and keeps what `doctor` says
//! about them as plain data ([`Doctor`]); [`render()`] writes its text, with no I/O. The
//! CLI prints it, the MCP tool `doctor` returns it, and the tests below snapshot it
//! in process on a temporary home with a pinned clock and environment.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use jiff::civil::{Date, DateTime};
use report_model::{Lang, Source, Warning, plural};

use crate::cli::DoctorArgs;
use crate::config::{self, LlmApi};
use crate::pipeline::{self, ProcessEnv};
use crate::{Failure, write_stdout};

/// What `standup doctor` found, cleaned (sanitized and redacted) like a report's text.
#[derive(Debug)]
pub(crate) struct Doctor {
    /// The config file read (or that would be).
    pub(crate) config_path: PathBuf,
    /// Whether it exists (else the defaults are in use).
    pub(crate) config_present: bool,
    /// The time zone's name.
    pub(crate) zone_name: String,
    /// Today, in that zone and with the configured day start.
    pub(crate) today: Date,
    /// Where today's activity is counted from, local time.
    pub(crate) since: DateTime,
    /// The identity's e-mails then names; empty when none is known.
    pub(crate) identity: Vec<String>,
    /// The configured LLM endpoint, when it is off loopback (no narrative is asked for).
    pub(crate) llm_off_loopback: Option<String>,
    /// One entry per source, in collect's order.
    pub(crate) sources: Vec<SourceReport>,
    /// What is added under git.
    pub(crate) git: GitNotes,
    /// Warnings that no source's notes already explain.
    pub(crate) warnings: Vec<Warning>,
}

/// One source of [`Doctor`]: its status, and the versions newer than the newest
/// recorded fixture.
#[derive(Debug)]
pub(crate) struct SourceReport {
    /// What collect found.
    pub(crate) status: collect::SourceStatus,
    /// The versions seen that are newer than the newest recorded fixture, with that
    /// fixture's version (the format may have drifted).
    pub(crate) newer: Option<(Vec<String>, &'static str)>,
}

/// What `standup doctor` adds under git: the roots tried when none exists, each
/// repository's own identities where they differ from the configured and global ones,
/// commits found only below a skewed one, and the commits of the day left out as other
/// people's, with the config line that would count them.
#[derive(Debug, Default)]
pub(crate) struct GitNotes {
    /// The roots tried (`~/`-relative), when none of them exists.
    pub(crate) roots_tried: Option<Vec<String>>,
    /// Per repository path, its own identities beyond the base one.
    pub(crate) own_identities: Vec<(String, Vec<String>)>,
    /// Per repository path, the commits found only below a commit dated before the window.
    pub(crate) below_skew: Vec<(String, u64)>,
    /// Commits of the day by other authors, in all.
    pub(crate) left_out_total: u64,
    /// The most frequent of those authors, with their counts.
    pub(crate) left_out_top: Vec<(String, u64)>,
    /// The e-mails of `[identity] emails`, for the suggested config line.
    pub(crate) configured_emails: Vec<String>,
}

/// `standup doctor`: prints [`text`].
pub(crate) fn doctor(env: &ProcessEnv, args: &DoctorArgs) -> Result<(), Failure> {
    write_stdout(text(env, args)?.as_bytes())
}

/// The text `standup doctor` prints (also the MCP tool `doctor`'s).
pub(crate) fn text(env: &ProcessEnv, args: &DoctorArgs) -> Result<String, Failure> {
    Ok(render(&doctor_report(env, args)?))
}

/// Gathers every source for today and keeps what `doctor` says about them.
pub(crate) fn doctor_report(env: &ProcessEnv, args: &DoctorArgs) -> Result<Doctor, Failure> {
    let config_path = args.config.clone().unwrap_or_else(|| env.default_config_path());
    let config = pipeline::load_config(env, args.config.as_deref(), config::LlmSection::Read)?;
    let now = env.now()?;
    let (zone_name, time_zone, tz_warning) = pipeline::time_zone(&config, env);
    let calendar = pipeline::calendar(&config, time_zone);
    let today = aggregate::today(now, &calendar);
    let since = calendar.window(today).map_err(|error| Failure::Usage(error.into()))?.start;
    let mut gathered = pipeline::gather(env, &config, since);
    gathered.warnings.extend(tz_warning);
    gathered.warnings.extend(env.home_warning().cloned());
    // Folder names, limits and warnings are untrusted text, as in a report.
    clean::clean_gathered(&mut gathered, config.redactor(), config.max_chars);

    let identity = &gathered.identity;
    let identity: Vec<String> = identity.emails.iter().chain(&identity.names).cloned().collect();
    let llm_off_loopback = (config.llm.configured
        && config.llm.api != LlmApi::Command
        && llm_client::validate_endpoint(&config.llm.endpoint).is_err())
    .then(|| config.llm.endpoint.clone());
    let git = git_notes(&env.collect_env(), &config, &gathered);
    // Warnings that a status already explains are not repeated.
    let notes: Vec<&Warning> = gathered.statuses.iter().flat_map(|status| &status.notes).collect();
    let warnings: Vec<Warning> =
        gathered.warnings.iter().filter(|warning| !notes.contains(warning)).cloned().collect();
    let sources = gathered
        .statuses
        .into_iter()
        .map(|status| SourceReport { newer: newer_versions(&status), status })
        .collect();
    Ok(Doctor {
        config_present: config_path.exists(),
        config_path,
        zone_name,
        today,
        since: since.to_zoned(calendar.time_zone.clone()).datetime(),
        identity,
        llm_off_loopback,
        sources,
        git,
        warnings,
    })
}

/// The versions of `status` newer than its agent's newest recorded fixture.
fn newer_versions(status: &collect::SourceStatus) -> Option<(Vec<String>, &'static str)> {
    let agent = status.source.as_str().parse::<report_model::Agent>().ok()?;
    let recorded = collect::sessions::newest_recorded(agent)?;
    let newer: Vec<String> = status
        .versions
        .iter()
        .filter(|version| collect::sessions::version_newer(version, recorded))
        .cloned()
        .collect();
    (!newer.is_empty()).then_some((newer, recorded))
}

fn git_notes(
    env: &collect::Env,
    config: &config::Config,
    gathered: &collect::gather::Gathered,
) -> GitNotes {
    let tilde = |path: &Path| match path.strip_prefix(&env.home) {
        Ok(rest) => format!("~/{}", rest.display()),
        Err(_) => path.display().to_string(),
    };
    let roots = collect::git::candidate_roots(env, &config.git);
    let roots_tried = (!roots.iter().any(|(_, exists)| *exists))
        .then(|| roots.iter().map(|(path, _)| tilde(path)).collect());
    let path_of = |read: &collect::git::RepoRead| {
        sanitize::clean(&read.project.path.display().to_string()).into_owned()
    };
    let base = &gathered.identity;
    let own_identities = gathered
        .repo_reads
        .iter()
        .filter_map(|read| {
            let own = read.identity.beyond(base);
            let who: Vec<String> = own
                .emails
                .iter()
                .chain(&own.names)
                .map(|text| sanitize::clean(text).into_owned())
                .collect();
            (!who.is_empty()).then(|| (path_of(read), who))
        })
        .collect();
    let below_skew = gathered
        .repo_reads
        .iter()
        .filter(|read| read.below_skew > 0)
        .map(|read| (path_of(read), read.below_skew))
        .collect();
    let mut left_out = collect::git::LeftOut::default();
    for read in &gathered.repo_reads {
        left_out.extend(&read.left_out);
    }
    GitNotes {
        roots_tried,
        own_identities,
        below_skew,
        left_out_total: left_out.total(),
        left_out_top: left_out
            .most_frequent(3)
            .into_iter()
            .map(|(email, count)| (sanitize::clean(email).into_owned(), count))
            .collect(),
        configured_emails: config.identity.emails.clone(),
    }
}

/// The text of `standup doctor`.
pub(crate) fn render(doctor: &Doctor) -> String {
    let mut out = String::new();
    let exists = if doctor.config_present { "" } else { " (not present: defaults in use)" };
    let _ =
        writeln!(out, "config: {}{exists}", clean::message(&doctor.config_path.to_string_lossy()));
    let _ = writeln!(
        out,
        "time zone: {} · today: {} (activity is counted from {})",
        doctor.zone_name,
        doctor.today,
        doctor.since.strftime("%Y-%m-%d %H:%M")
    );
    if doctor.identity.is_empty() {
        let _ = writeln!(
            out,
            "identity: unknown — commits by every author are shown (set [identity] emails)"
        );
    } else {
        let _ = writeln!(out, "identity: {}", doctor.identity.join(", "));
    }
    if let Some(endpoint) = &doctor.llm_off_loopback {
        let _ = writeln!(
            out,
            "llm: the endpoint `{}` is not on loopback: no narrative is asked for (reports carry the warning llm_blocked_nonloopback)",
            clean::quote(endpoint)
        );
    }
    for source in &doctor.sources {
        let status = &source.status;
        let _ = writeln!(out, "{}", source_line(status));
        for location in &status.locations {
            let _ = writeln!(out, "  {}", location.display());
        }
        for limit in &status.limits {
            let _ = writeln!(out, "  note: {limit}");
        }
        for note in &status.notes {
            let _ = writeln!(out, "  note: {}", render::warning_text(note, Lang::En));
        }
        render_versions(&mut out, source);
        if status.source == Source::Git {
            render_git(&mut out, &doctor.git);
        }
    }
    if !doctor.sources.iter().any(|source| source.status.source == Source::Git) {
        render_git(&mut out, &doctor.git);
    }
    for warning in &doctor.warnings {
        let text = render::warning_text(warning, Lang::En);
        let _ = writeln!(out, "warning: {}: {text}", warning.code().as_str());
    }
    out
}

fn render_git(out: &mut String, git: &GitNotes) {
    if let Some(tried) = &git.roots_tried {
        let _ = writeln!(out, "  no repository root exists; tried: {}", tried.join(", "));
        let _ = writeln!(
            out,
            "  to search the folder that holds your repositories, add to the config: [git] roots = [\"~/path\"]"
        );
    }
    if !git.own_identities.is_empty() {
        let _ = writeln!(out, "  identities of their own (counted there as yours):");
    }
    for (path, who) in &git.own_identities {
        let _ = writeln!(out, "    {path}: {}", who.join(", "));
    }
    for (path, below) in &git.below_skew {
        let _ = writeln!(
            out,
            "  {path}: {} found only below a commit dated before the window (a clock that went back; `git log --since` would miss them)",
            plural(*below, "commit", "commits")
        );
    }
    let total = git.left_out_total;
    if total > 0 {
        let listed: Vec<String> =
            git.left_out_top.iter().map(|(email, count)| format!("{email} ({count})")).collect();
        let _ = writeln!(
            out,
            "  left out: {total} {} today by other authors: {}",
            if total == 1 { "commit" } else { "commits" },
            listed.join(", ")
        );
        let emails: Vec<String> = git
            .configured_emails
            .iter()
            .chain(git.left_out_top.iter().map(|(email, _)| email))
            .map(|email| format!("\"{email}\""))
            .collect();
        let _ = writeln!(
            out,
            "  if some are yours, add to the config: [identity] emails = [{}]",
            emails.join(", ")
        );
    }
}

/// What `standup doctor` adds under an agent: the versions its files name, and a note
/// when one is newer than the newest recorded fixture or the reader met records it
/// does not know (a format that may have drifted).
fn render_versions(out: &mut String, source: &SourceReport) {
    let status = &source.status;
    if !status.versions.is_empty() {
        let _ = writeln!(out, "  versions seen: {}", status.versions.join(", "));
    }
    if let Some((newer, recorded)) = &source.newer {
        let _ = writeln!(
            out,
            "  note: written by {} {}, newer than the newest recorded fixture ({recorded}): the format may have changed",
            if newer.len() == 1 { "version" } else { "versions" },
            newer.join(", ")
        );
    }
    if !status.unknown.is_empty() {
        let _ = writeln!(
            out,
            "  note: records the reader does not know: {}",
            status.unknown.join(", ")
        );
    }
}

/// One line of `standup doctor` for a source: found or not, and how much.
fn source_line(status: &collect::SourceStatus) -> String {
    if !status.found {
        return format!("{}: not found", status.source);
    }
    let amount = match status.source {
        Source::Git => format!(
            "{} · {} today",
            plural(status.files, "repository", "repositories"),
            plural(status.entries, "commit", "commits")
        ),
        source if source.is_agent() => {
            // What the agent keeps its sessions in: one database (opencode, Kilo Code,
            // Goose, Hermes Agent), else log files (OpenClaw's: a database per agent and
            // the transcript files of its older releases).
            let (one, many) = match source {
                Source::Opencode | Source::Kilo | Source::Goose | Source::Hermes => {
                    ("database", "databases")
                }
                Source::Claude | Source::Codex => ("transcript", "transcripts"),
                _ => ("file", "files"),
            };
            format!(
                "{} · {} today",
                plural(status.files, one, many),
                plural(status.entries, "session", "sessions")
            )
        }
        _ => plural(status.entries, "entry", "entries"),
    };
    format!("{}: found · {amount}", status.source)
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};
    use std::process::Command;

    use super::{doctor_report, render};
    use crate::cli::DoctorArgs;
    use crate::pipeline::ProcessEnv;

    /// Friday 2026-11-27, 18:00 in Tokyo.
    const NOW: &str = "2026-11-27T18:00:00+09:00";

    /// A temporary home (canonical, so paths match what collect computes).
    fn home() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().canonicalize().unwrap().join("home");
        fs_err::create_dir_all(&home).unwrap();
        (dir, home)
    }

    fn write(home: &Path, relative: &str, text: &str) {
        let path = home.join(relative);
        fs_err::create_dir_all(path.parent().unwrap()).unwrap();
        fs_err::write(path, text).unwrap();
    }

    #[track_caller]
    fn git(repo: &Path, home: &Path, args: &[&str], date: &str) {
        #[expect(clippy::disallowed_methods, reason = "the test builds a repository with git")]
        let output = Command::new("git")
            .args(args)
            .current_dir(repo)
            .env("HOME", home)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_DATE", date)
            .env("GIT_COMMITTER_DATE", date)
            .env("LC_ALL", "C")
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }

    /// `standup doctor` in process, with the clock, time zone and language pinned and
    /// nothing else of the environment; the home folder is written `[HOME]`.
    fn doctor(home: &Path) -> String {
        let env = ProcessEnv::pinned(
            home.to_path_buf(),
            &[("STANDUP_NOW", NOW), ("TZ", "Asia/Tokyo"), ("LANG", "C")],
            Some(home.to_path_buf()),
        );
        let doctor = doctor_report(&env, &DoctorArgs { config: None }).unwrap();
        render(&doctor).replace(&home.display().to_string(), "[HOME]")
    }

    #[test]
    fn an_empty_home() {
        let (_dir, home) = home();
        insta::assert_snapshot!(doctor(&home));
    }

    #[test]
    fn a_home_with_a_repository_a_claude_session_zsh_and_an_llm_nobody_answers() {
        let (_dir, home) = home();
        write(&home, ".gitconfig", "[user]\n\temail = me@example.com\n\tname = Me\n");
        // Port 9 on loopback: nothing listens there, and doctor asks nothing of it.
        write(&home, ".config/standup/config.toml", "[llm]\nendpoint = \"http://127.0.0.1:9\"\n");
        let repo = home.join("src/app");
        fs_err::create_dir_all(&repo).unwrap();
        git(&repo, &home, &["init", "-q", "-b", "main"], NOW);
        write(&repo, "src/parser.rs", "fn parse() {}\n");
        git(&repo, &home, &["add", "-A"], NOW);
        git(
            &repo,
            &home,
            &["commit", "-q", "-m", "parser: accept trailing commas"],
            "2026-11-27T10:40:00+09:00",
        );
        let session = "11111111-2222-4333-8444-555555555555";
        let cwd = repo.display().to_string();
        let record = serde_json::json!({
            "type": "user", "uuid": "u1", "parentUuid": null, "timestamp": "2026-11-27T00:00:05.000Z",
            "sessionId": session, "cwd": cwd, "gitBranch": "main", "isSidechain": false,
            "version": "2.1.50", "message": {"role": "user", "content": "Make the parser accept trailing commas"},
        });
        write(
            &home,
            &format!(".claude/projects/-x-src-app/{session}.jsonl"),
            &format!("{record}\n"),
        );
        write(
            &home,
            ".zsh_history",
            &format!(": 1764205200:0;cd {cwd}\n: 1764205260:0;cargo test\nls\n"),
        );
        let text = doctor(&home);
        // The endpoint is on loopback, so doctor names no llm problem and does not wait on it.
        assert!(!text.contains("llm:"), "{text}");
        insta::assert_snapshot!(text);
    }

    #[test]
    fn an_endpoint_off_loopback_and_commits_by_others_are_named() {
        let (_dir, home) = home();
        write(&home, ".gitconfig", "[user]\n\temail = me@example.com\n\tname = Me\n");
        write(
            &home,
            ".config/standup/config.toml",
            "[llm]\nendpoint = \"http://192.168.1.10:11434\"\n",
        );
        let repo = home.join("src/app");
        fs_err::create_dir_all(&repo).unwrap();
        git(&repo, &home, &["init", "-q", "-b", "main"], NOW);
        git(
            &repo,
            &home,
            &[
                "-c",
                "user.email=bot@example.com",
                "-c",
                "user.name=Bot",
                "commit",
                "-q",
                "--allow-empty",
                "-m",
                "bump",
            ],
            "2026-11-27T09:00:00+09:00",
        );
        let text = doctor(&home);
        let lines: Vec<&str> = text
            .lines()
            .filter(|line| {
                line.starts_with("llm:")
                    || line.starts_with("git:")
                    || line.starts_with("  left out")
                    || line.starts_with("  if some")
            })
            .collect();
        insta::assert_snapshot!(lines.join("\n"), @r#"
        llm: the endpoint `http://192.168.1.10:11434` is not on loopback: no narrative is asked for (reports carry the warning llm_blocked_nonloopback)
        git: found · 1 repository · 0 commits today
          left out: 1 commit today by other authors: bot@example.com (1)
          if some are yours, add to the config: [identity] emails = ["bot@example.com"]
        "#);
    }
}
