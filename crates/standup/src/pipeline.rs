//! Wiring: the process environment, the config, the clock and the time zone in; the
//! pipeline (collect → aggregate → render) through; the report out.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use aggregate::Calendar;
use anyhow::Context as _;
use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use report_model::{Activity, Meta, ReportKind, Warning, WarningCode};

use crate::cli::{DoctorArgs, FormatArg, LangArg, ReportArgs};
use crate::config::{self, Config, Lang};
use crate::{Failure, env_vars, print_warning, write_stdout};

/// The process environment, read once at start-up; nothing below reads `std::env`.
pub(crate) struct ProcessEnv {
    home: PathBuf,
    vars: BTreeMap<String, String>,
    cwd: Option<PathBuf>,
}

impl ProcessEnv {
    pub(crate) fn capture() -> ProcessEnv {
        let mut names = vec![
            env_vars::STANDUP_NOW,
            env_vars::TZ,
            env_vars::LANG,
            env_vars::LC_ALL,
            env_vars::XDG_CONFIG_HOME,
        ];
        names.extend(env_vars::SOURCE_VARS);
        let vars = names
            .into_iter()
            .filter_map(|name| std::env::var(name).ok().map(|value| (name.to_owned(), value)))
            .collect();
        let home =
            std::env::var_os(env_vars::HOME).map_or_else(|| PathBuf::from("/"), PathBuf::from);
        ProcessEnv { home, vars, cwd: std::env::current_dir().ok() }
    }

    fn var(&self, name: &str) -> Option<&str> {
        self.vars.get(name).map(String::as_str).filter(|value| !value.is_empty())
    }

    pub(crate) fn default_config_path(&self) -> PathBuf {
        config::default_path(&self.home, self.var(env_vars::XDG_CONFIG_HOME))
    }

    fn collect_env(&self) -> collect::Env {
        let mut env = collect::Env::new(&self.home);
        for name in env_vars::SOURCE_VARS.iter().chain([&env_vars::XDG_CONFIG_HOME]) {
            if let Some(value) = self.var(name) {
                env = env.with_var(name, value);
            }
        }
        env
    }

    /// The current time, or `STANDUP_NOW`.
    fn now(&self) -> Result<Timestamp, Failure> {
        match self.var(env_vars::STANDUP_NOW) {
            None => Ok(Timestamp::now()),
            Some(text) => text.parse().map_err(|error| {
                usage(format!(
                    "{} is `{text}`, which is not an RFC 3339 timestamp: {error}",
                    env_vars::STANDUP_NOW
                ))
            }),
        }
    }

    /// The language from `LC_ALL`, else `LANG`: Japanese for `ja*`, else English.
    fn lang(&self) -> Lang {
        let locale =
            self.var(env_vars::LC_ALL).or_else(|| self.var(env_vars::LANG)).unwrap_or_default();
        if locale.starts_with("ja") { Lang::Ja } else { Lang::En }
    }
}

fn usage(message: String) -> Failure {
    Failure::Usage(anyhow::Error::msg(message))
}

fn load_config(env: &ProcessEnv, explicit: Option<&Path>) -> Result<Config, Failure> {
    let path = explicit.map_or_else(|| env.default_config_path(), Path::to_path_buf);
    config::load(&path, explicit.is_some()).map_err(|error| Failure::Usage(error.into()))
}

/// The time zone: the config's `timezone`, else `TZ`, else the system's.
fn time_zone(config: &Config, env: &ProcessEnv) -> Result<(String, TimeZone), Failure> {
    if let Some((name, zone)) = &config.time_zone {
        return Ok((name.clone(), zone.clone()));
    }
    if let Some(tz) = env.var(env_vars::TZ) {
        let name = tz.strip_prefix(':').unwrap_or(tz);
        let zone = TimeZone::get(name)
            .or_else(|_| TimeZone::posix(name))
            .map_err(|_| usage(format!("TZ is `{tz}`, which is not a known time zone (expected an IANA name such as `Asia/Tokyo`)")))?;
        return Ok((name.to_owned(), zone));
    }
    let zone = TimeZone::try_system().unwrap_or(TimeZone::UTC);
    let name = zone.iana_name().unwrap_or("UTC").to_owned();
    Ok((name, zone))
}

fn parse_date(text: &str, now: Timestamp, calendar: &Calendar) -> Result<Date, Failure> {
    let today = aggregate::today(now, calendar);
    match text {
        "today" => Ok(today),
        "yesterday" => {
            today.yesterday().map_err(|error| usage(format!("--date yesterday: {error}")))
        }
        other => other.parse().map_err(|_| {
            usage(format!("--date `{other}` is not `today`, `yesterday` or a date `YYYY-MM-DD`"))
        }),
    }
}

fn calendar(config: &Config, time_zone: TimeZone) -> Calendar {
    Calendar {
        time_zone,
        day_start: config.day_start,
        workdays: config.workdays.clone(),
        holidays: config.holidays.clone(),
    }
}

/// What the sources produced.
struct Gathered {
    activity: Activity,
    warnings: Vec<Warning>,
    statuses: Vec<collect::SourceStatus>,
    identity: collect::git::Identity,
}

fn gather(env: &ProcessEnv, config: &Config, since: Timestamp) -> Gathered {
    let collect_env = env.collect_env();
    let extra: Vec<PathBuf> = env.cwd.iter().cloned().collect();
    let (repos, mut warnings) = collect::git::discover(&collect_env, &config.git, &extra);
    let identity = if config.identity.is_empty() {
        collect::git::global_identity(&collect_env)
    } else {
        config.identity.clone()
    };
    if identity.is_empty() {
        warnings.push(Warning::new(
            WarningCode::IdentityUnknown,
            "no identity is known, so commits by every author are shown: set `emails` under `[identity]` in the config, or run `git config --global user.email you@example.com`",
        ));
    }
    let workers = std::thread::available_parallelism().map_or(4, |n| n.get() * 2).min(8);
    let options = collect::git::ReadOptions {
        identity: &identity,
        since,
        include_merges: config.git.include_merges,
        workers,
    };
    let git = collect::git::read_commits(&collect_env, &repos, &options);
    warnings.extend(git.warnings);
    Gathered {
        activity: Activity { commits: git.events, ..Activity::default() },
        warnings,
        statuses: git.statuses,
        identity,
    }
}

/// `standup daily` and `standup standup`.
pub(crate) fn report(env: &ProcessEnv, kind: ReportKind, args: &ReportArgs) -> Result<(), Failure> {
    let config = load_config(env, args.config.as_deref())?;
    let now = env.now()?;
    let (zone_name, time_zone) = time_zone(&config, env)?;
    let calendar = calendar(&config, time_zone.clone());
    let date = parse_date(&args.date, now, &calendar)?;
    let windows = aggregate::report_windows(kind, date, &calendar)
        .map_err(|error| Failure::Usage(error.into()))?;
    let since = windows.iter().map(|(_, window)| window.start).min().unwrap_or(now);

    let gathered = gather(env, &config, since);
    let meta = Meta {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        generated_at: now,
        time_zone: zone_name,
        llm_model: None,
        secrets_masked: Vec::new(),
    };
    let options = aggregate::Options::default();
    let report =
        aggregate::aggregate(kind, &windows, &gathered.activity, gathered.warnings, meta, &options);
    for warning in &report.warnings {
        print_warning(&format!("{}: {}", warning.code.as_str(), warning.message));
    }

    let lang = match args.lang {
        Some(LangArg::En) => Lang::En,
        Some(LangArg::Ja) => Lang::Ja,
        None => config.lang.unwrap_or_else(|| env.lang()),
    };
    let render_lang = match lang {
        Lang::En => render::Lang::En,
        Lang::Ja => render::Lang::Ja,
    };
    let text = match args.format {
        FormatArg::Md => render::markdown(&report, render_lang, &time_zone),
        FormatArg::Json => render::json(&report),
    };
    match &args.output {
        Some(path) => {
            fs_err::write(path, text).context("writing the report").map_err(Failure::Runtime)
        }
        None => write_stdout(text.as_bytes()),
    }
}

/// `standup doctor`: what was found, where, and what limits it.
pub(crate) fn doctor(env: &ProcessEnv, args: &DoctorArgs) -> Result<(), Failure> {
    let config_path = args.config.clone().unwrap_or_else(|| env.default_config_path());
    let config = load_config(env, args.config.as_deref())?;
    let now = env.now()?;
    let (zone_name, time_zone) = time_zone(&config, env)?;
    let calendar = calendar(&config, time_zone);
    let today = aggregate::today(now, &calendar);
    let since = calendar.window(today).map_err(|error| Failure::Usage(error.into()))?.start;
    let gathered = gather(env, &config, since);

    let mut out = String::new();
    let exists = if config_path.exists() { "" } else { " (not present: defaults in use)" };
    let _ = writeln!(out, "config: {}{exists}", config_path.display());
    let _ = writeln!(out, "time zone: {zone_name}; today: {today}");
    let identity = &gathered.identity;
    if identity.is_empty() {
        let _ = writeln!(
            out,
            "identity: unknown — commits by every author are shown (set [identity] emails)"
        );
    } else {
        let _ = writeln!(
            out,
            "identity: {}",
            identity.emails.iter().chain(&identity.names).cloned().collect::<Vec<_>>().join(", ")
        );
    }
    for status in &gathered.statuses {
        let mark = if status.found { "found" } else { "not found" };
        let locations: Vec<String> =
            status.locations.iter().map(|path| path.display().to_string()).collect();
        let _ = writeln!(
            out,
            "{}: {mark} · {} files · {} entries today",
            status.source, status.files, status.entries
        );
        for location in locations {
            let _ = writeln!(out, "  {location}");
        }
        for limit in &status.limits {
            let _ = writeln!(out, "  note: {limit}");
        }
    }
    for warning in &gathered.warnings {
        let _ = writeln!(out, "warning: {}: {}", warning.code.as_str(), warning.message);
    }
    write_stdout(out.as_bytes())
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
    fs_err::write(path, config::DEFAULT_CONFIG)
        .context("writing the config")
        .map_err(Failure::Runtime)?;
    write_stdout(format!("wrote {}\n", path.display()).as_bytes())
}
