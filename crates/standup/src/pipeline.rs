//! Wiring: the process environment, the config, the clock and the time zone in; the
//! pipeline (collect → aggregate → render) through; the report out.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use aggregate::Calendar;
use anyhow::Context as _;
use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use report_model::{BucketKind, Lang, Meta, ReportKind, Warning, WarningDetail, Window};

use crate::cli::{FormatArg, ReportArgs};
use crate::config::{self, Config, LlmApi, LlmConfig, LlmEnabled};
use crate::{Failure, env_vars, print_warning, write_stdout};

/// The process environment, read once at start-up; nothing below reads `std::env`.
pub(crate) struct ProcessEnv {
    home: PathBuf,
    vars: BTreeMap<String, String>,
    cwd: Option<PathBuf>,
    /// Set when `HOME` was not: where the home folder came from instead.
    home_warning: Option<Warning>,
}

impl ProcessEnv {
    pub(crate) fn capture() -> ProcessEnv {
        let mut names = vec![
            env_vars::STANDUP_NOW,
            env_vars::TZ,
            env_vars::LANG,
            env_vars::LC_ALL,
            env_vars::XDG_CONFIG_HOME,
            env_vars::XDG_CACHE_HOME,
            env_vars::XDG_STATE_HOME,
            env_vars::XDG_DATA_HOME,
            env_vars::VISUAL,
            env_vars::EDITOR,
            env_vars::PATH,
            env_vars::DISPLAY,
            env_vars::WAYLAND_DISPLAY,
        ];
        names.extend(env_vars::SOURCE_VARS);
        let vars = names
            .into_iter()
            .filter_map(|name| std::env::var(name).ok().map(|value| (name.to_owned(), value)))
            .collect();
        let (home, home_warning) = match std::env::var_os(env_vars::HOME) {
            Some(home) if !home.is_empty() => {
                let home = PathBuf::from(home);
                // A service or a container given a home that is not there reads nothing
                // under it: said, rather than an empty report.
                let missing = !home.is_dir();
                let path = clean::quote(&home.to_string_lossy());
                (home, missing.then(|| Warning::new(WarningDetail::HomeNotFound { path })))
            }
            _ => home_from_user_database(),
        };
        ProcessEnv { home, vars, cwd: std::env::current_dir().ok(), home_warning }
    }

    /// The home folder (`HOME`, else the user database's).
    pub(crate) fn home(&self) -> &Path {
        &self.home
    }

    /// A captured variable, when set and not empty.
    pub(crate) fn var(&self, name: &str) -> Option<&str> {
        self.vars.get(name).map(String::as_str).filter(|value| !value.is_empty())
    }

    /// Where the home folder came from when `HOME` was not set.
    pub(crate) fn home_warning(&self) -> Option<&Warning> {
        self.home_warning.as_ref()
    }

    /// An environment given outright (tests): `HOME`, the variables, the working folder.
    #[cfg(test)]
    pub(crate) fn pinned(home: PathBuf, vars: &[(&str, &str)], cwd: Option<PathBuf>) -> ProcessEnv {
        let vars = vars.iter().map(|(name, value)| ((*name).to_owned(), (*value).to_owned()));
        ProcessEnv { home, vars: vars.collect(), cwd, home_warning: None }
    }

    /// The working folder, when it could be read.
    pub(crate) fn cwd(&self) -> Option<&Path> {
        self.cwd.as_deref()
    }

    /// `path` with a leading `~/` expanded to the home folder.
    pub(crate) fn expand_tilde(&self, path: &Path) -> PathBuf {
        self.collect_env().expand_tilde(path)
    }

    /// `$XDG_CACHE_HOME/standup/narrative` (an absolute `XDG_CACHE_HOME` only, as the XDG
    /// spec says), else `~/.cache/standup/narrative`.
    fn narrative_cache_dir(&self) -> PathBuf {
        let base = self
            .var(env_vars::XDG_CACHE_HOME)
            .map(PathBuf::from)
            .filter(|path| path.is_absolute())
            .unwrap_or_else(|| self.home.join(".cache"));
        base.join("standup").join("narrative")
    }

    pub(crate) fn default_config_path(&self) -> PathBuf {
        config::default_path(&self.home, self.var(env_vars::XDG_CONFIG_HOME))
    }

    pub(crate) fn collect_env(&self) -> collect::Env {
        let mut env = collect::Env::new(&self.home);
        for name in env_vars::SOURCE_VARS {
            if let Some(value) = self.var(name) {
                env = env.with_var(name, value);
            }
        }
        env
    }

    /// The current time, or `STANDUP_NOW`.
    pub(crate) fn now(&self) -> Result<Timestamp, Failure> {
        match self.var(env_vars::STANDUP_NOW) {
            None => Ok(Timestamp::now()),
            Some(text) => {
                let now: Timestamp = text.parse().map_err(|error| {
                    usage(format!(
                        "{} is `{}`, which is not an RFC 3339 timestamp: {error}",
                        env_vars::STANDUP_NOW,
                        clean::quote(text)
                    ))
                })?;
                let year = now.to_zoned(TimeZone::UTC).year();
                if !YEARS.contains(&year) {
                    return Err(usage(format!(
                        "{} is `{}`, out of range (a report covers the years {} to {})",
                        env_vars::STANDUP_NOW,
                        clean::quote(text),
                        YEARS.start(),
                        YEARS.end()
                    )));
                }
                Ok(now)
            }
        }
    }

    /// The language from `LC_ALL`, else `LANG`: Japanese for `ja*`, else English.
    fn lang(&self) -> Lang {
        let locale =
            self.var(env_vars::LC_ALL).or_else(|| self.var(env_vars::LANG)).unwrap_or_default();
        if locale.starts_with("ja") { Lang::Ja } else { Lang::En }
    }
}

pub(crate) fn usage(message: String) -> Failure {
    Failure::Usage(anyhow::Error::msg(message))
}

/// The config `--config` names (or the default one), `[llm]` left alone: for the
/// commands that never ask a model (`record`, `publish`, `team`).
pub(crate) fn load_config_for(
    env: &ProcessEnv,
    explicit: Option<&Path>,
) -> Result<Config, Failure> {
    load_config(env, explicit, config::LlmSection::Skip)
}

/// What `standup team` needs of the clock and calendar: the date `--date` names, the
/// time zone (its name and zone) and the language, from the config and environment.
pub(crate) fn team_day(
    env: &ProcessEnv,
    config: &Config,
    date: &str,
    lang: Option<Lang>,
) -> Result<(Date, String, TimeZone, Lang, Timestamp), Failure> {
    let now = env.now()?;
    let (zone_name, time_zone, tz_warning) = time_zone(config, env);
    if let Some(warning) = tz_warning {
        print_warning(&format!(
            "{}: {}",
            warning.code().as_str(),
            render::warning_text(&warning, Lang::En)
        ));
    }
    let calendar = calendar(config, time_zone.clone());
    let date = parse_date(date, now, &calendar)?;
    let lang = lang.or(config.lang).unwrap_or_else(|| env.lang());
    Ok((date, zone_name, time_zone, lang, now))
}

pub(crate) fn load_config(
    env: &ProcessEnv,
    explicit: Option<&Path>,
    llm: config::LlmSection,
) -> Result<Config, Failure> {
    let path = explicit.map_or_else(|| env.default_config_path(), Path::to_path_buf);
    config::load_with(&path, explicit.is_some(), llm).map_err(|error| Failure::Usage(error.into()))
}

/// The home folder when `HOME` is unset or empty: the user's entry in `/etc/passwd` (as
/// the C library's `getpwuid` would give it), with a warning saying so; else `/`, with
/// a warning that nothing under a home folder can be found.
fn home_from_user_database() -> (PathBuf, Option<Warning>) {
    let uid = fs_err::read_to_string("/proc/self/status").ok().and_then(|status| {
        status.lines().find_map(|line| {
            line.strip_prefix("Uid:")?.split_whitespace().next().map(str::to_owned)
        })
    });
    let from_passwd = uid.and_then(|uid| {
        let passwd = fs_err::read_to_string("/etc/passwd").ok()?;
        passwd.lines().find_map(|line| {
            let fields: Vec<&str> = line.split(':').collect();
            (fields.len() >= 7 && fields[2] == uid && fields[5].starts_with('/'))
                .then(|| PathBuf::from(fields[5]))
        })
    });
    match from_passwd {
        Some(home) => {
            let shown = clean::quote(&home.to_string_lossy());
            let warning = Warning::new(WarningDetail::HomeUnset { path: shown });
            (home, Some(warning))
        }
        None => (PathBuf::from("/"), Some(Warning::new(WarningDetail::HomeMissing))),
    }
}

/// The time zone: the config's `timezone`, else `TZ`, else the system's; and the
/// warning when `TZ` names nothing usable (then the system's zone is used: a time zone
/// never stops a report).
pub(crate) fn time_zone(config: &Config, env: &ProcessEnv) -> (String, TimeZone, Option<Warning>) {
    if let Some((name, zone)) = &config.time_zone {
        return (name.clone(), zone.clone(), None);
    }
    let system = || {
        let zone = system_zone();
        let name = zone.iana_name().unwrap_or("UTC").to_owned();
        (name, zone)
    };
    let Some(tz) = env.var(env_vars::TZ) else {
        let (name, zone) = system();
        return (name, zone, None);
    };
    if let Some((name, zone)) = zone_from_tz(tz) {
        return (name, zone, None);
    }
    let (name, zone) = system();
    let shown = clean::quote(tz);
    let warning = Warning::new(WarningDetail::TimeZoneUnusable { tz: shown, zone: name.clone() });
    (name, zone, Some(warning))
}

/// The system's time zone, as `/etc/localtime` says, without looking at `TZ` (which
/// the caller has found unusable); UTC when there is none.
fn system_zone() -> TimeZone {
    tzif_file(Path::new("/etc/localtime")).map_or(TimeZone::UTC, |(_, zone)| zone)
}

/// The time zone a `TZ` value names, in the forms glibc accepts: an IANA name, an
/// absolute path to a TZif file (`/usr/share/zoneinfo/Asia/Tokyo`, `/etc/localtime`),
/// either after a `:` (`:/etc/localtime`, `:Asia/Tokyo`), or a POSIX rule (`JST-9`,
/// `EST5EDT,M3.2.0,M11.1.0`); empty is UTC, as in glibc.
fn zone_from_tz(tz: &str) -> Option<(String, TimeZone)> {
    let spec = tz.strip_prefix(':').unwrap_or(tz);
    if spec.is_empty() {
        return Some(("UTC".to_owned(), TimeZone::UTC));
    }
    if spec.starts_with('/') {
        return tzif_file(Path::new(spec));
    }
    if let Ok(zone) = TimeZone::get(spec) {
        return Some((spec.to_owned(), zone));
    }
    // glibc reads a name as a POSIX rule only without the `:`.
    (!tz.starts_with(':'))
        .then(|| TimeZone::posix(spec).ok())
        .flatten()
        .map(|zone| (spec.to_owned(), zone))
}

/// A TZif file's zone, named by the IANA name its resolved path ends in under a
/// `zoneinfo` folder (else by the path). Only a regular file of a sane size is read.
fn tzif_file(path: &Path) -> Option<(String, TimeZone)> {
    const TZIF_MAX: u64 = 1 << 20;
    let resolved = fs_err::canonicalize(path).ok()?;
    let metadata = fs_err::metadata(&resolved).ok()?;
    if !metadata.is_file() || metadata.len() > TZIF_MAX {
        return None;
    }
    let bytes = fs_err::read(&resolved).ok()?;
    let text = resolved.to_string_lossy();
    let name = text
        .split_once("/zoneinfo/")
        .map(|(_, name)| name.trim_start_matches("posix/").trim_start_matches("right/"))
        .filter(|name| TimeZone::get(name).is_ok())
        .map_or_else(|| path.to_string_lossy().into_owned(), str::to_owned);
    let zone = TimeZone::tzif(&name, &bytes).ok()?;
    Some((name, zone))
}

/// The years a report may be about: git, the agents and the shells record nothing
/// earlier, and date arithmetic near jiff's limits (year 9999) would overflow.
const YEARS: std::ops::RangeInclusive<i16> = 1970..=9998;

fn parse_date(text: &str, now: Timestamp, calendar: &Calendar) -> Result<Date, Failure> {
    parse_day("--date", text, now, calendar)
}

/// Why `text`, written `YYYY-MM-DD`, names no day of the calendar (`2026-02-30`: February
/// 2026 has 28 days); `None` when it is not of that shape.
pub(crate) fn not_a_day(text: &str) -> Option<String> {
    let mut parts = text.split('-');
    let mut number = |digits: usize| {
        let part = parts.next().filter(|part| {
            part.len() == digits && part.bytes().all(|byte| byte.is_ascii_digit())
        })?;
        part.parse::<i16>().ok()
    };
    let (year, month, day) = (number(4)?, number(2)?, number(2)?);
    if parts.next().is_some() {
        return None;
    }
    let Ok(month_number) = i8::try_from(month) else { return None };
    let Ok(first) = Date::new(year, month_number, 1) else {
        return Some(format!("is not a date: there is no month {month:02}"));
    };
    let days = first.days_in_month();
    if day == 0 {
        return Some("is not a date: there is no day 00".to_owned());
    }
    (day > i16::from(days))
        .then(|| format!("is not a date: {} has {days} days", first.strftime("%B %Y")))
}

/// A date option (`--date`, `--since`, `--until`): `today`, `yesterday` or `YYYY-MM-DD`,
/// in [`YEARS`].
pub(crate) fn parse_day(
    flag: &str,
    text: &str,
    now: Timestamp,
    calendar: &Calendar,
) -> Result<Date, Failure> {
    let today = aggregate::today(now, calendar);
    let date = match text {
        "today" => today,
        "yesterday" => {
            today.yesterday().map_err(|error| usage(format!("{flag} yesterday: {error}")))?
        }
        other => other.parse().map_err(|_| {
            let why = not_a_day(other)
                .unwrap_or_else(|| "is not `today`, `yesterday` or a date `YYYY-MM-DD`".to_owned());
            usage(format!("{flag} `{}` {why}", clean::quote(other)))
        })?,
    };
    if !YEARS.contains(&date.year()) {
        return Err(usage(format!(
            "{flag} `{}` is {date}, out of range (a report covers the years {} to {})",
            clean::quote(text),
            YEARS.start(),
            YEARS.end()
        )));
    }
    Ok(date)
}

pub(crate) fn calendar(config: &Config, time_zone: TimeZone) -> Calendar {
    Calendar {
        time_zone,
        day_start: config.day_start,
        workdays: config.workdays.clone(),
        holidays: config.holidays.clone(),
    }
}

pub(crate) fn gather(
    env: &ProcessEnv,
    config: &Config,
    since: Timestamp,
) -> collect::gather::Gathered {
    let collect_env = env.collect_env();
    let expand = |path: &PathBuf| collect_env.expand_tilde(path);
    let mut sessions = config.sessions.clone();
    sessions.claude_roots = sessions.claude_roots.map(|roots| roots.iter().map(expand).collect());
    sessions.codex_home = sessions.codex_home.as_ref().map(expand);
    sessions.gemini_home = sessions.gemini_home.as_ref().map(expand);
    for home in sessions.homes.values_mut() {
        *home = expand(home);
    }
    let mut shell = config.shell.clone();
    for path in [&mut shell.zsh, &mut shell.bash, &mut shell.fish, &mut shell.atuin] {
        *path = path.as_ref().map(expand);
    }
    let sources = collect::gather::Sources {
        git: config.git.clone(),
        identity: config.identity.clone(),
        sessions,
        shell,
    };
    let workers = collect::pool::threads();
    collect::gather::gather(&collect_env, &sources, since, env.cwd.as_deref(), workers)
}

/// `standup daily` and `standup standup`.
pub(crate) fn report(env: &ProcessEnv, kind: ReportKind, args: &ReportArgs) -> Result<(), Failure> {
    // A daily note is checked before the work (a missing `[output] daily_note` is a usage
    // error), and written instead of stdout or `-o`.
    let note = crate::notes::destination(env, args)?;
    let (text, report, options, time_zone) = match render_report(env, kind, args)? {
        Rendered::Prompt(text) => return write_output(args.output.as_deref(), &text),
        Rendered::Report { text, report, options, time_zone } => (text, report, options, time_zone),
    };
    // The report first: a clipboard that never answers cannot hold it back.
    match &note {
        Some(note) => crate::notes::deliver(env, note, &text, &report, &time_zone)?,
        None => write_output(args.output.as_deref(), &text)?,
    }
    if args.copy {
        let html = (args.format == FormatArg::Html).then(|| text.clone());
        let plain = if html.is_some() {
            render::render(&report, render::Format::Text, options, &time_zone)
        } else {
            text
        };
        // Without a display (ssh, a container, CI) arboard's own words are about an X11
        // server it could not reach; say what is missing instead.
        let no_display = cfg!(all(unix, not(target_os = "macos")))
            && env.var(env_vars::DISPLAY).is_none()
            && env.var(env_vars::WAYLAND_DISPLAY).is_none();
        let copied = if no_display {
            Err("no display: neither DISPLAY nor WAYLAND_DISPLAY is set".to_owned())
        } else {
            crate::clipboard::copy_within(plain, html, CLIPBOARD_DEADLINE)
        };
        if let Err(reason) = copied {
            print_warning(&format!("clipboard_unavailable: not copied ({reason})"));
        }
    }
    Ok(())
}

/// What [`render_report`] made: the report's text in the asked format (with the report
/// itself, its render options and time zone, for another rendering), or, for
/// `--show-prompt`, the prompt.
pub(crate) enum Rendered {
    /// `--show-prompt`'s text.
    Prompt(String),
    /// The rendered report.
    Report {
        text: String,
        report: Box<report_model::Report>,
        options: render::Options,
        time_zone: TimeZone,
    },
}

/// Everything of `standup daily|standup|week` up to the text: the config, the windows,
/// the sources, cleaning, aggregation, the narrative and rendering; warnings go to
/// stderr, nothing to stdout. `--output`, `--copy` and other destinations are the
/// caller's.
pub(crate) fn render_report(
    env: &ProcessEnv,
    kind: ReportKind,
    args: &ReportArgs,
) -> Result<Rendered, Failure> {
    let started = Instant::now();
    // `--no-llm` neither reads nor validates `[llm]`.
    let llm = if args.no_llm { config::LlmSection::Skip } else { config::LlmSection::Read };
    let config = load_config(env, args.config.as_deref(), llm)?;
    config.prepare_redactor();
    let now = env.now()?;
    let (zone_name, time_zone, tz_warning) = time_zone(&config, env);
    let calendar = calendar(&config, time_zone.clone());
    let date = parse_date(&args.date, now, &calendar)?;
    let (kind, mut windows, last_date) = windows(kind, date, args, now, &calendar)?;
    aggregate::end_at(&mut windows, kind, now);
    let since = windows.iter().map(|(_, window)| window.start).min().unwrap_or(now);
    let lang = args.lang.or(config.lang).unwrap_or_else(|| env.lang());

    let mut gathered = gather(env, &config, since);
    let mut timings = std::mem::take(&mut gathered.timings);
    if let Some(warning) = future_warning(last_date, now, &calendar) {
        gathered.warnings.push(warning);
    }
    gathered.warnings.extend(tz_warning);
    gathered.warnings.extend(env.home_warning.clone());
    // The person's notes of every day the report covers; cleaned with the rest below.
    let (notes, note_warnings) = crate::daynotes::load(env, report_dates(&windows), &time_zone);
    gathered.activity.notes = notes;
    gathered.warnings.extend(note_warnings);

    let start = Instant::now();
    let secrets_masked = clean::clean_gathered(&mut gathered, config.redactor(), config.max_chars);
    timings.push(("sanitize + redact".to_owned(), start.elapsed()));

    let start = Instant::now();
    let meta = Meta {
        machines: Vec::new(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        generated_at: now,
        time_zone: zone_name,
        llm_model: None,
        secrets_masked,
    };
    let options = aggregate::Options {
        shell: config.grouping.clone(),
        time: config.time_rules,
        tickets: config.tickets.clone(),
    };
    let repo_reads = std::mem::take(&mut gathered.repo_reads);
    let mut report =
        aggregate::aggregate(kind, &windows, gathered.activity, gathered.warnings, meta, &options);
    aggregate::settle(&mut report, &calendar);
    crate::machines::set_remotes(&mut report, &repo_reads, &config);
    aggregate::fold_clones(&mut report, config.time_rules);
    if crate::machines::wanted(args, &config) {
        report = crate::machines::merge_day(env, &config, kind, args, report);
    }
    render::order_warnings(&mut report.warnings);
    timings.push(("aggregate".to_owned(), start.elapsed()));

    let limits = narrative::Limits {
        max_input_chars: config.llm.max_input_chars,
        max_output_chars: config.llm.max_output_chars,
        temperature: config.llm.temperature,
        ..narrative::Limits::default()
    };
    let settings = narrative::Settings {
        structured: config.llm.structured,
        notes: config.llm.notes.clone(),
        notes_max_chars: config.llm.notes_max_chars,
        cache_dir: (!args.no_cache).then(|| env.narrative_cache_dir()),
        backend_kind: backend_kind(&config.llm),
    };
    if args.show_prompt {
        let text = show_prompt(&report, &config, &limits, lang, &settings, args.format)?;
        return Ok(Rendered::Prompt(text));
    }
    let start = Instant::now();
    if narrate(&config, args, &mut report, &limits, lang, &settings) {
        timings.push(("narrative".to_owned(), start.elapsed()));
    }
    let render_lang = lang;
    for warning in &report.warnings {
        let text = render::warning_text(warning, render_lang);
        print_warning(&format!("{}: {text}", warning.code().as_str()));
    }

    let start = Instant::now();
    let options =
        render::Options { lang: render_lang, compact: args.compact || config.render.compact };
    let text = match (&config.render.template, args.format) {
        // A template replaces the built-in Markdown; `--format` still picks another form.
        (Some(template), FormatArg::Md) => {
            let path = template_path(env, args.config.as_deref(), template);
            crate::template::render(&path, &report).map_err(|error| Failure::Usage(error.into()))?
        }
        (_, format) => render::render(&report, render_format(format), options, &time_zone),
    };
    timings.push(("render".to_owned(), start.elapsed()));
    if args.timings {
        print_timings(&timings, started.elapsed());
    }
    Ok(Rendered::Report { text, report: Box::new(report), options, time_zone })
}

/// How long `--copy` waits for the clipboard (an X server that accepts the connection
/// and never answers would otherwise hold the run forever).
const CLIPBOARD_DEADLINE: Duration = Duration::from_secs(3);

pub(crate) fn render_format(format: FormatArg) -> render::Format {
    match format {
        FormatArg::Md => render::Format::Markdown,
        FormatArg::Json => render::Format::Json,
        FormatArg::Slack => render::Format::Slack,
        FormatArg::Text => render::Format::Text,
        FormatArg::Html => render::Format::Html,
    }
}

/// `-o FILE`, or stdout for no `-o` and for `-o -`.
pub(crate) fn write_output(output: Option<&Path>, text: &str) -> Result<(), Failure> {
    match output {
        Some(path) if path != Path::new("-") => write_atomically(path, text.as_bytes())
            .context("writing the report")
            .map_err(Failure::Runtime),
        _ => write_stdout(text.as_bytes()),
    }
}

/// Writes a file we own (the report, the config) so that it is whole or not there: the
/// bytes go to a new temporary file in the same folder (created exclusively under a
/// random name, never through a link), are flushed to disk, and the file is renamed over
/// `path`. A failed write (a full disk) leaves the previous file as it was and removes
/// the temporary one. A new file gets the usual permissions (0666 less the umask); a
/// replaced one keeps its own.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomically_checked(path, bytes, || Ok(()))
}

/// [`write_atomically`], asking `before_rename` once the new bytes are on disk and just
/// before the rename: an error from it leaves `path` as it is (a daily note the user
/// changed meanwhile is not replaced) and removes the temporary file.
pub(crate) fn write_atomically_checked(
    path: &Path,
    bytes: &[u8],
    before_rename: impl FnOnce() -> std::io::Result<()>,
) -> std::io::Result<()> {
    use std::io::Write as _;
    use std::os::unix::fs::PermissionsExt as _;
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    // A replaced file keeps its own mode (set again below: creation is subject to the
    // umask); a new one is created 0666 and the umask applies.
    let existing = match fs_err::metadata(path) {
        Ok(metadata) if metadata.is_file() => Some(metadata.permissions()),
        _ => None,
    };
    let permissions = existing.clone().unwrap_or_else(|| std::fs::Permissions::from_mode(0o666));
    let mut temporary = tempfile::Builder::new()
        .prefix(".standup-")
        .permissions(permissions.clone())
        .tempfile_in(folder)
        .map_err(|error| {
            // tempfile's message ends with ` at path "<the random name it tried>"`, a file
            // the person never asked for (its error type is private): the folder, then the
            // system's reason.
            let text = error.to_string();
            let reason = text.split(" at path ").next().unwrap_or(&text);
            std::io::Error::new(
                error.kind(),
                format!("cannot create a file in `{}`: {reason}", folder.display()),
            )
        })?;
    temporary.write_all(bytes)?;
    if let Some(permissions) = existing {
        temporary.as_file().set_permissions(permissions)?;
    }
    temporary.as_file().sync_all()?;
    before_rename()?;
    temporary.persist(path).map_err(|error| {
        std::io::Error::new(error.error.kind(), format!("`{}`: {}", path.display(), error.error))
    })?;
    Ok(())
}

/// `[render] template` with `~` expanded; a relative path is relative to the config
/// file's folder.
fn template_path(env: &ProcessEnv, explicit_config: Option<&Path>, template: &Path) -> PathBuf {
    let expanded = env.collect_env().expand_tilde(template);
    if expanded.is_absolute() {
        return expanded;
    }
    let config = explicit_config.map_or_else(|| env.default_config_path(), Path::to_path_buf);
    config.parent().map_or(expanded.clone(), |folder| folder.join(&expanded))
}

/// `--show-prompt`: the messages a narrative request would send (as text, or with
/// `--format json` as the request's messages in JSON), or why none would be sent.
fn show_prompt(
    report: &report_model::Report,
    config: &Config,
    limits: &narrative::Limits,
    lang: Lang,
    settings: &narrative::Settings,
    format: FormatArg,
) -> Result<String, Failure> {
    if report.is_empty() {
        let note = "no activity in the window, so no narrative request would be sent";
        return Ok(if format == FormatArg::Json {
            let mut text =
                serde_json::to_string_pretty(&serde_json::json!({ "request": null, "note": note }))
                    .unwrap_or_default();
            text.push('\n');
            text
        } else {
            format!("{note}\n")
        });
    }
    let prompt = narrative::build_prompt_with(report, config.redactor(), limits, lang, settings)
        .context("building the narrative prompt")
        .map_err(Failure::Runtime)?;
    // The reply schema asked for, unless structured output is off (`[llm] structured`).
    let schema = (settings.structured != llm_client::Structured::Off)
        .then(|| narrative::reply_schema(report.kind));
    if format == FormatArg::Json {
        let mut body = serde_json::json!({
            "model": config.llm.model,
            "messages": [
                { "role": "system", "content": prompt.system },
                { "role": "user", "content": prompt.user },
            ],
            "temperature": config.llm.temperature,
        });
        if let Some(schema) = schema {
            body["schema"] = schema;
        }
        let mut text = serde_json::to_string_pretty(&body).unwrap_or_default();
        text.push('\n');
        return Ok(text);
    }
    let mut text =
        format!("----- system -----\n{}\n----- user -----\n{}\n", prompt.system, prompt.user);
    if let Some(schema) = schema {
        text.push_str("----- reply schema -----\n");
        text.push_str(&serde_json::to_string_pretty(&schema).unwrap_or_default());
        text.push('\n');
    }
    Ok(text)
}

type Windows = Vec<(BucketKind, Window)>;

/// The report's kind and windows, and the last date asked for: `daily --since A --until
/// B` is a range; the other reports take `--date`.
fn windows(
    kind: ReportKind,
    date: Date,
    args: &ReportArgs,
    now: Timestamp,
    calendar: &Calendar,
) -> Result<(ReportKind, Windows, Date), Failure> {
    let Some(since) = &args.since else {
        let windows = aggregate::report_windows(kind, date, calendar)
            .map_err(|error| Failure::Usage(error.into()))?;
        return Ok((kind, windows, date));
    };
    if kind != ReportKind::Daily {
        return Err(usage("--since and --until are options of `standup daily`".to_owned()));
    }
    let since = parse_day("--since", since, now, calendar)?;
    let until = match &args.until {
        Some(until) => parse_day("--until", until, now, calendar)?,
        None => aggregate::today(now, calendar).max(since),
    };
    let windows = aggregate::range_windows(since, until, calendar)
        .map_err(|error| usage(format!("--since {since} --until {until}: {error}")))?;
    Ok((ReportKind::Range, windows, until))
}

/// Every local date from the first window's to the last one's.
fn report_dates(windows: &Windows) -> impl Iterator<Item = Date> {
    let first = windows.iter().map(|(_, window)| window.date).min();
    let last = windows.iter().map(|(_, window)| window.date).max();
    std::iter::successors(first, move |date: &Date| {
        date.tomorrow().ok().filter(|next| Some(*next) <= last)
    })
}

/// One line saying the date asked for is after today: nothing after now is reported.
fn future_warning(last_date: Date, now: Timestamp, calendar: &Calendar) -> Option<Warning> {
    let today = aggregate::today(now, calendar);
    (last_date > today).then(|| {
        let clock = now.to_zoned(calendar.time_zone.clone()).strftime("%Y-%m-%d %H:%M");
        Warning::new(WarningDetail::DateInFuture { date: last_date, now: clock.to_string() })
    })
}

/// The narrative step: asks the model when `[llm] enabled` and the flags say so (silently
/// skipped for `"auto"` with nothing configured and nothing listening), adding what it
/// returns to the report's warnings. Returns whether it ran.
fn narrate(
    config: &Config,
    args: &ReportArgs,
    report: &mut report_model::Report,
    limits: &narrative::Limits,
    lang: Lang,
    settings: &narrative::Settings,
) -> bool {
    let wanted = match config.llm.enabled {
        _ if args.no_llm => false,
        _ if args.llm => true,
        LlmEnabled::Off => false,
        LlmEnabled::On | LlmEnabled::Auto => true,
    };
    if !wanted || report.is_empty() {
        return false;
    }
    // `"auto"` with nothing configured: silent unless something listens on the default
    // endpoint (a connect on loopback, nothing sent).
    let quiet = config.llm.enabled == LlmEnabled::Auto && !args.llm && !config.llm.configured;
    let timeout = std::time::Duration::from_secs(config.llm.timeout_secs.max(1));
    if !quiet || llm_client::listens(&config.llm.endpoint, Duration::from_millis(300)) {
        let warnings = match backend(&config.llm, timeout) {
            Ok(backend) => {
                let spinner = Spinner::start();
                let warnings = narrative::narrate_with(
                    backend.as_ref(),
                    report,
                    config.redactor(),
                    limits,
                    lang,
                    settings,
                );
                drop(spinner);
                warnings
            }
            Err(warning) => vec![warning],
        };
        // Their messages can quote what the server said: cleaned like every warning.
        let mut warnings = warnings;
        clean::Cleaner::new(config.redactor(), config.max_chars).warnings(&mut warnings);
        report.warnings.extend(warnings);
    }
    true
}

/// What kind of backend answers, for the cache key.
fn backend_kind(llm: &LlmConfig) -> String {
    match llm.api {
        LlmApi::Ollama => format!("ollama {}", llm.endpoint),
        LlmApi::OpenAi => format!("openai {}", llm.endpoint),
        LlmApi::Command => format!("command {}", llm.command.as_deref().unwrap_or_default()),
    }
}

/// The configured LLM backend. Building it does no I/O, except the command backend's probe
/// (is the program there?), whose failure is the warning returned.
fn backend(
    llm: &LlmConfig,
    timeout: std::time::Duration,
) -> Result<Box<dyn llm_client::Backend>, report_model::Warning> {
    let mut client = llm_client::ClientConfig::new(llm.endpoint.clone()).with_timeout(timeout);
    if let Some(model) = &llm.model {
        client = client.with_model(model.clone());
    }
    match llm.api {
        LlmApi::Ollama => Ok(Box::new(llm_client::Ollama::new(client))),
        LlmApi::OpenAi => Ok(Box::new(llm_client::OpenAiCompatible::new(client))),
        LlmApi::Command => {
            let unavailable = |error: llm_client::Error| narrative::client_warning(&error);
            let command = llm_client::CommandBackend::new(
                llm.command.as_deref().unwrap_or_default(),
                &client,
            )
            .map_err(unavailable)?;
            command.probe().map_err(unavailable)?;
            Ok(Box::new(command))
        }
    }
}

/// A spinner on stderr while the LLM thinks, only when stderr is a terminal.
struct Spinner {
    stop: Option<(std::sync::mpsc::Sender<()>, std::thread::JoinHandle<()>)>,
}

impl Spinner {
    fn start() -> Spinner {
        // Only on a terminal that can redraw a line (not a pipe, not TERM=dumb).
        if !crate::diag::get().spinner {
            return Spinner { stop: None };
        }
        crate::diag::clear_line_on_interrupt();
        let (sender, receiver) = std::sync::mpsc::channel::<()>();
        let handle = std::thread::spawn(move || {
            let frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
            let mut frame = 0;
            while receiver.recv_timeout(std::time::Duration::from_millis(100)).is_err() {
                crate::print_progress(&format!(
                    "\r{} asking the local LLM for a summary…",
                    frames[frame % frames.len()]
                ));
                frame += 1;
            }
            crate::print_progress("\r\x1b[2K");
        });
        Spinner { stop: Some((sender, handle)) }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        if let Some((sender, handle)) = self.stop.take() {
            let _ = sender.send(());
            let _ = handle.join();
        }
    }
}

/// Stage times on stderr. The git side (discovery and the repositories under the roots)
/// runs at the same time as the log readers, so the stages add up to more than the wall
/// time, which is printed last.
fn print_timings(timings: &[(String, std::time::Duration)], wall: std::time::Duration) {
    let mut text = String::from("timings:\n");
    for (stage, elapsed) in timings {
        let _ = writeln!(text, "  {stage:<40} {:>9.2} ms", elapsed.as_secs_f64() * 1000.0);
    }
    let _ = writeln!(
        text,
        "  {:<40} {:>9.2} ms",
        "wall (config to rendered report)",
        wall.as_secs_f64() * 1000.0
    );
    crate::print_progress(&text);
}

/// `standup config init`.
pub(crate) fn config_init(path: &Path, force: bool) -> Result<(), Failure> {
    if path.exists() && !force {
        return Err(usage(format!(
            "config `{}` already exists (use --force to overwrite it)",
            path.display()
        )));
    }
    if let Some(parent) = path.parent() {
        fs_err::create_dir_all(parent)
            .context("creating the config folder")
            .map_err(Failure::Runtime)?;
    }
    write_atomically(path, config::DEFAULT_CONFIG.as_bytes())
        .context("writing the config")
        .map_err(Failure::Runtime)?;
    write_stdout(format!("wrote {}\n", clean::message(&path.to_string_lossy())).as_bytes())
}
