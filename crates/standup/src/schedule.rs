//! `standup schedule install|status|uninstall`: the standup update written into the
//! daily note every morning by the system's own scheduler.
//!
//! - Linux: a systemd user timer and service under `$XDG_CONFIG_HOME/systemd/user`
//!   (else `~/.config/systemd/user`), enabled with `systemctl --user` when a user
//!   manager answers, else the commands to run are printed.
//! - macOS: a launchd agent, `~/Library/LaunchAgents/dev.standup.daily.plist`.
//! - Elsewhere (or `--backend cron`): the crontab line to add, printed.
//!
//! Whatever the scheduler, the run is `<this binary> standup --no-llm --daily-note`
//! (plus `--config PATH` when one was given at install), its output and errors appended
//! to `$XDG_STATE_HOME/standup/standup.log` (else `~/.local/state/standup/standup.log`).
//! Every file written carries a marker line; `uninstall` removes only files that carry
//! it, and `install` never replaces a file that does not.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;

use crate::cli::{ScheduleBackend, ScheduleCommand, ScheduleInstallArgs};
use crate::pipeline::ProcessEnv;
use crate::{Failure, env_vars, print_warning, write_stdout};

/// The systemd units' names.
const SERVICE: &str = "standup.service";
const TIMER: &str = "standup.timer";
/// The launchd agent's label, and its file name.
const LABEL: &str = "dev.standup.daily";
/// The log every scheduled run appends to, in the state folder.
const LOG_NAME: &str = "standup.log";
/// The line that marks a file as ours (a comment in each format).
const MARKER: &str =
    "Written by `standup schedule install`; `standup schedule uninstall` removes it.";
/// How long a `systemctl` or `launchctl` call may take.
const TOOL_DEADLINE: Duration = Duration::from_secs(10);
/// How many of the log's last lines `status` shows, and how much of its end it reads.
const LOG_TAIL_LINES: usize = 10;
const LOG_TAIL_BYTES: u64 = 64 << 10;

/// A time of day, `HH:MM`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct At {
    hour: u8,
    minute: u8,
}

impl At {
    /// Parses `HH:MM` (24-hour; `9:05` is accepted as `09:05`, minutes take two digits).
    pub(crate) fn parse(text: &str) -> Result<At, String> {
        let expected = "expected HH:MM, a time of day such as 09:25 (hours 00-23, minutes 00-59)";
        let (hour, minute) = text.split_once(':').ok_or(expected)?;
        let number = |part: &str, digits: std::ops::RangeInclusive<usize>, max: u8| {
            (digits.contains(&part.len()) && part.bytes().all(|byte| byte.is_ascii_digit()))
                .then(|| part.parse::<u8>().ok())
                .flatten()
                .filter(|value| *value <= max)
        };
        match (number(hour, 1..=2, 23), number(minute, 2..=2, 59)) {
            (Some(hour), Some(minute)) => Ok(At { hour, minute }),
            _ => Err(expected.to_owned()),
        }
    }
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:02}:{:02}", self.hour, self.minute)
    }
}

/// Everything a scheduler needs to know: what to run, when, and where its output goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Plan {
    /// The absolute path of the standup binary.
    pub(crate) program: String,
    /// The arguments after it.
    pub(crate) args: Vec<String>,
    pub(crate) at: At,
    /// Monday to Friday only, else every day.
    pub(crate) weekdays: bool,
    /// The log file (absolute).
    pub(crate) log: String,
    /// The home folder (absolute): the run's working folder.
    pub(crate) home: String,
}

impl Plan {
    /// The plan for `program` with the config at `config` (given at install), checked:
    /// every path is absolute, UTF-8 and free of control characters, so each format can
    /// hold it.
    pub(crate) fn new(
        program: &Path,
        config: Option<&Path>,
        at: At,
        weekdays: bool,
        log: &Path,
        home: &Path,
    ) -> Result<Plan, String> {
        let text = |what: &str, path: &Path| -> Result<String, String> {
            let shown = clean::quote(&path.to_string_lossy());
            let text = path.to_str().ok_or_else(|| {
                format!("{what} `{shown}` is not UTF-8, which a scheduler file cannot hold")
            })?;
            if text.chars().any(char::is_control) {
                return Err(format!(
                    "{what} `{shown}` contains a control character, which a scheduler file cannot hold"
                ));
            }
            if !path.is_absolute() {
                return Err(format!("{what} `{shown}` is not an absolute path"));
            }
            Ok(text.to_owned())
        };
        let mut args = vec!["standup".to_owned(), "--no-llm".to_owned(), "--daily-note".to_owned()];
        if let Some(config) = config {
            args.push("--config".to_owned());
            args.push(text("the config file", config)?);
        }
        Ok(Plan {
            program: text("the standup binary", program)?,
            args,
            at,
            weekdays,
            log: text("the log file", log)?,
            home: text("the home folder", home)?,
        })
    }

    /// The command line as a POSIX shell reads it (for messages and the crontab line).
    pub(crate) fn shell_command(&self) -> String {
        std::iter::once(&self.program)
            .chain(&self.args)
            .map(|word| shell_word(word))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// When, in words: `Monday to Friday at 09:25` or `every day at 09:25`.
    fn when(&self) -> String {
        if self.weekdays {
            format!("Monday to Friday at {}", self.at)
        } else {
            format!("every day at {}", self.at)
        }
    }
}

/// A word quoted for a POSIX shell when it needs to be.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+:=,@".contains(c));
    if plain { word.to_owned() } else { format!("'{}'", word.replace('\'', r"'\''")) }
}

/// A word of a systemd `ExecStart=` line: bare when it is plain, else double-quoted with
/// `\` and `"` escaped; `%` (specifiers) and `$` (variables) are doubled either way.
fn systemd_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+:=,@".contains(c));
    if plain {
        return word.to_owned();
    }
    let mut out = String::from("\"");
    for c in word.chars() {
        match c {
            '\\' => out.push_str(r"\\"),
            '"' => out.push_str("\\\""),
            '%' => out.push_str("%%"),
            '$' => out.push_str("$$"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A path in a systemd setting other than a command line: only specifiers are expanded
/// there, so `%` is doubled.
fn systemd_path(path: &str) -> String {
    path.replace('%', "%%")
}

/// The service unit: one run of the standup update into the daily note.
pub(crate) fn systemd_service(plan: &Plan) -> String {
    let command = std::iter::once(&plan.program)
        .chain(&plan.args)
        .map(|word| systemd_word(word))
        .collect::<Vec<_>>()
        .join(" ");
    let log = systemd_path(&plan.log);
    format!(
        "# {MARKER}\n\
         [Unit]\n\
         Description=standup: the standup update into the daily note\n\
         \n\
         [Service]\n\
         Type=oneshot\n\
         WorkingDirectory={home}\n\
         ExecStart={command}\n\
         StandardOutput=append:{log}\n\
         StandardError=append:{log}\n",
        home = systemd_path(&plan.home),
    )
}

/// The `OnCalendar=` value of the timer.
pub(crate) fn on_calendar(plan: &Plan) -> String {
    let days = if plan.weekdays { "Mon..Fri " } else { "" };
    format!("{days}*-*-* {:02}:{:02}:00", plan.at.hour, plan.at.minute)
}

/// The timer unit: the service at the chosen time, caught up after a sleep or shutdown.
pub(crate) fn systemd_timer(plan: &Plan) -> String {
    format!(
        "# {MARKER}\n\
         [Unit]\n\
         Description=standup: the standup update into the daily note, {when}\n\
         \n\
         [Timer]\n\
         OnCalendar={calendar}\n\
         Persistent=true\n\
         Unit={SERVICE}\n\
         \n\
         [Install]\n\
         WantedBy=timers.target\n",
        when = plan.when(),
        calendar = on_calendar(plan),
    )
}

/// Text escaped for XML character data.
fn xml_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// The launchd agent (a property list): `StartCalendarInterval` once per weekday with
/// `--weekdays` (launchd numbers Monday 1 to Friday 5), else one daily entry.
pub(crate) fn launchd_plist(plan: &Plan) -> String {
    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(
        "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n",
    );
    // `--` may not appear in an XML comment; the marker has none.
    let _ = writeln!(out, "<!-- {MARKER} -->");
    out.push_str("<plist version=\"1.0\">\n<dict>\n");
    let _ = writeln!(out, "\t<key>Label</key>\n\t<string>{LABEL}</string>");
    out.push_str("\t<key>ProgramArguments</key>\n\t<array>\n");
    for word in std::iter::once(&plan.program).chain(&plan.args) {
        let _ = writeln!(out, "\t\t<string>{}</string>", xml_text(word));
    }
    out.push_str("\t</array>\n");
    let _ =
        writeln!(out, "\t<key>WorkingDirectory</key>\n\t<string>{}</string>", xml_text(&plan.home));
    out.push_str("\t<key>StartCalendarInterval</key>\n");
    let entry = |weekday: Option<u8>| {
        let mut entry = String::from("\t\t<dict>\n");
        if let Some(weekday) = weekday {
            let _ = writeln!(entry, "\t\t\t<key>Weekday</key>\n\t\t\t<integer>{weekday}</integer>");
        }
        let _ = writeln!(
            entry,
            "\t\t\t<key>Hour</key>\n\t\t\t<integer>{}</integer>\n\t\t\t<key>Minute</key>\n\t\t\t<integer>{}</integer>",
            plan.at.hour, plan.at.minute
        );
        entry.push_str("\t\t</dict>\n");
        entry
    };
    out.push_str("\t<array>\n");
    if plan.weekdays {
        for weekday in 1..=5 {
            out.push_str(&entry(Some(weekday)));
        }
    } else {
        out.push_str(&entry(None));
    }
    out.push_str("\t</array>\n");
    let log = xml_text(&plan.log);
    let _ = writeln!(out, "\t<key>StandardOutPath</key>\n\t<string>{log}</string>");
    let _ = writeln!(out, "\t<key>StandardErrorPath</key>\n\t<string>{log}</string>");
    out.push_str("</dict>\n</plist>\n");
    out
}

/// The crontab line: the shell command, output appended to the log; `%` is escaped, as
/// cron would otherwise turn it into a newline.
pub(crate) fn crontab_line(plan: &Plan) -> String {
    let days = if plan.weekdays { "1-5" } else { "*" };
    let line = format!(
        "{} {} * * {days} {} >> {} 2>&1",
        plan.at.minute,
        plan.at.hour,
        plan.shell_command(),
        shell_word(&plan.log)
    );
    line.replace('%', r"\%")
}

/// Where each scheduler's files live for this user.
struct Places {
    systemd_dir: PathBuf,
    plist: PathBuf,
    log_dir: PathBuf,
}

impl Places {
    fn of(env: &ProcessEnv) -> Places {
        let absolute =
            |name: &str| env.var(name).map(PathBuf::from).filter(|path| path.is_absolute());
        let home = env.home();
        let config = absolute(env_vars::XDG_CONFIG_HOME).unwrap_or_else(|| home.join(".config"));
        let state =
            absolute(env_vars::XDG_STATE_HOME).unwrap_or_else(|| home.join(".local").join("state"));
        Places {
            systemd_dir: config.join("systemd").join("user"),
            plist: home.join("Library").join("LaunchAgents").join(format!("{LABEL}.plist")),
            log_dir: state.join("standup"),
        }
    }

    fn service(&self) -> PathBuf {
        self.systemd_dir.join(SERVICE)
    }

    fn timer(&self) -> PathBuf {
        self.systemd_dir.join(TIMER)
    }

    fn log(&self) -> PathBuf {
        self.log_dir.join(LOG_NAME)
    }
}

/// `standup schedule …`.
pub(crate) fn run(env: &ProcessEnv, command: &ScheduleCommand) -> Result<(), Failure> {
    match command {
        ScheduleCommand::Install(args) => install(env, args),
        ScheduleCommand::Status => status(env),
        ScheduleCommand::Uninstall => uninstall(env),
    }
}

fn runtime(error: anyhow::Error) -> Failure {
    Failure::Runtime(error)
}

fn usage(message: String) -> Failure {
    Failure::Usage(anyhow::Error::msg(message))
}

/// The scheduler `auto` picks on this system.
fn resolve(backend: ScheduleBackend) -> ScheduleBackend {
    match backend {
        ScheduleBackend::Auto if cfg!(target_os = "macos") => ScheduleBackend::Launchd,
        ScheduleBackend::Auto if cfg!(target_os = "linux") => ScheduleBackend::Systemd,
        ScheduleBackend::Auto => ScheduleBackend::Cron,
        other => other,
    }
}

/// The scheduled run writes into `[output] daily_note`: without it every run fails (in
/// the log only). Said at install, and the schedule is still written: the config may be
/// finished after. A config that does not load is left to the run's own error.
fn warn_without_daily_note(env: &ProcessEnv, config: Option<&Path>) {
    if let Ok(loaded) = crate::pipeline::load_config_for(env, config) {
        if loaded.output.daily_note.is_none() {
            let file = config.map_or_else(|| env.default_config_path(), Path::to_path_buf);
            print_warning(&format!(
                "schedule_without_daily_note: the scheduled run puts the standup into the daily note `[output] daily_note` names, which `{}` does not set: each run will fail until it does (for example daily_note = \"~/Notes/Daily/{{date}}.md\")",
                file.display()
            ));
        }
    }
}

fn install(env: &ProcessEnv, args: &ScheduleInstallArgs) -> Result<(), Failure> {
    let places = Places::of(env);
    let config = match &args.config {
        None => None,
        Some(path) => {
            let path = env.expand_tilde(path);
            let path = match env.cwd() {
                Some(cwd) if path.is_relative() => cwd.join(path),
                _ => path,
            };
            if !path.is_file() {
                return Err(usage(format!(
                    "the config file `{}` does not exist (the scheduled run would fail): write it first, e.g. with `standup config init --config {}`",
                    clean::quote(&path.to_string_lossy()),
                    clean::quote(&path.to_string_lossy())
                )));
            }
            Some(path)
        }
    };
    warn_without_daily_note(env, config.as_deref());
    let program = std::env::current_exe()
        .and_then(|exe| exe.canonicalize())
        .context("finding the path of the standup binary")
        .map_err(runtime)?;
    let plan =
        Plan::new(&program, config.as_deref(), args.at, args.weekdays, &places.log(), env.home())
            .map_err(usage)?;
    fs_err::create_dir_all(&places.log_dir).context("creating the log folder").map_err(runtime)?;
    let mut out = String::new();
    match resolve(args.backend) {
        ScheduleBackend::Systemd => {
            fs_err::create_dir_all(&places.systemd_dir)
                .context("creating the systemd user unit folder")
                .map_err(runtime)?;
            let service = write_ours(&places.service(), &systemd_service(&plan))?;
            let timer = write_ours(&places.timer(), &systemd_timer(&plan))?;
            let _ = writeln!(out, "{} {}", service.verb(), places.service().display());
            let _ = writeln!(out, "{} {}", timer.verb(), places.timer().display());
            let _ = writeln!(out, "runs {}: {}", plan.when(), plan.shell_command());
            let _ = writeln!(out, "log: {}", plan.log);
            match user_manager(env) {
                Ok(systemctl) => {
                    for step in [
                        &["--user", "daemon-reload"][..],
                        &["--user", "enable", TIMER],
                        &["--user", "restart", TIMER],
                    ] {
                        run_tool(&systemctl, step).map_err(|why| {
                            runtime(anyhow::anyhow!(
                                "the units are written, but `systemctl {}` failed: {why}",
                                step.join(" ")
                            ))
                        })?;
                    }
                    let _ = writeln!(out, "enabled {TIMER}");
                    if let Some(next) = next_run(&systemctl) {
                        let _ = writeln!(out, "next run: {next}");
                    }
                }
                Err(why) => {
                    let _ = writeln!(
                        out,
                        "not enabled: {why}; to start the timer, run:\n  systemctl --user daemon-reload && systemctl --user enable --now {TIMER}\nwithout systemd, add this line with `crontab -e` instead:\n  {}",
                        crontab_line(&plan)
                    );
                }
            }
        }
        ScheduleBackend::Launchd => {
            let folder = places.plist.parent().unwrap_or(env.home());
            fs_err::create_dir_all(folder)
                .context("creating the LaunchAgents folder")
                .map_err(runtime)?;
            let written = write_ours(&places.plist, &launchd_plist(&plan))?;
            let _ = writeln!(out, "{} {}", written.verb(), places.plist.display());
            let _ = writeln!(out, "runs {}: {}", plan.when(), plan.shell_command());
            let _ = writeln!(out, "log: {}", plan.log);
            let plist = shell_word(&places.plist.to_string_lossy());
            let _ = writeln!(
                out,
                "to load it now (it is loaded at each login otherwise), run:\n  launchctl bootout gui/$(id -u)/{LABEL} 2>/dev/null; launchctl bootstrap gui/$(id -u) {plist}"
            );
        }
        ScheduleBackend::Cron | ScheduleBackend::Auto => {
            let _ = writeln!(
                out,
                "add this line with `crontab -e` (nothing was written but the log folder):\n  {}\nlog: {}",
                crontab_line(&plan),
                plan.log
            );
        }
    }
    write_stdout(clean::message(&out).as_bytes())
}

/// What [`write_ours`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Written {
    New,
    Replaced,
    Unchanged,
}

impl Written {
    fn verb(self) -> &'static str {
        match self {
            Written::New => "wrote",
            Written::Replaced => "updated",
            Written::Unchanged => "unchanged",
        }
    }
}

/// Writes one of our files: left alone when it already says `text` (install is
/// idempotent), replaced when it is ours, refused when something else is there.
fn write_ours(path: &Path, text: &str) -> Result<Written, Failure> {
    let shown = path.display();
    let written = match fs_err::symlink_metadata(path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Written::New,
        Err(error) => return Err(runtime(anyhow::Error::new(error))),
        Ok(metadata) if !metadata.is_file() => {
            return Err(runtime(anyhow::anyhow!(
                "`{shown}` exists and is not a regular file: not replaced (remove it, then install again)"
            )));
        }
        Ok(metadata) => {
            // Ours are a few hundred bytes: a large file is someone else's, never read whole.
            let current = if metadata.len() > 64 << 10 {
                String::new()
            } else {
                fs_err::read_to_string(path).map_err(|error| runtime(error.into()))?
            };
            if current == text {
                return Ok(Written::Unchanged);
            }
            if !current.contains(MARKER) {
                return Err(runtime(anyhow::anyhow!(
                    "`{shown}` exists and was not written by `standup schedule install`: not replaced (remove or rename it, then install again)"
                )));
            }
            Written::Replaced
        }
    };
    crate::pipeline::write_atomically(path, text.as_bytes())
        .with_context(|| format!("writing `{shown}`"))
        .map_err(runtime)?;
    Ok(written)
}

/// Whether `path` is a regular file we wrote (it carries the marker).
fn is_ours(path: &Path) -> Option<String> {
    let metadata = fs_err::symlink_metadata(path).ok()?;
    if !metadata.is_file() || metadata.len() > 64 << 10 {
        return None;
    }
    fs_err::read_to_string(path).ok().filter(|text| text.contains(MARKER))
}

fn status(env: &ProcessEnv) -> Result<(), Failure> {
    let places = Places::of(env);
    let mut out = String::new();
    let mut log = places.log();
    let mut found = false;
    let service = is_ours(&places.service());
    let timer = is_ours(&places.timer());
    if service.is_some() || timer.is_some() {
        found = true;
        let _ = writeln!(out, "systemd user timer:");
        for (path, text) in [(places.timer(), &timer), (places.service(), &service)] {
            let state = if text.is_some() { "" } else { " (missing: install again)" };
            let _ = writeln!(out, "  {}{state}", path.display());
        }
        if let Some(calendar) = timer.as_deref().and_then(|text| setting(text, "OnCalendar=")) {
            let _ = writeln!(out, "  when: {calendar}");
        }
        if let Some(service) = &service {
            if let Some(command) = setting(service, "ExecStart=") {
                let _ = writeln!(out, "  runs: {command}");
            }
            if let Some(path) = setting(service, "StandardOutput=append:") {
                log = PathBuf::from(path.replace("%%", "%"));
            }
        }
        match user_manager(env) {
            Ok(systemctl) => {
                let active = run_tool(&systemctl, &["--user", "is-active", TIMER])
                    .unwrap_or_else(|_| "inactive".to_owned());
                let _ = writeln!(out, "  timer: {}", active.trim());
                match next_run(&systemctl) {
                    Some(next) => {
                        let _ = writeln!(out, "  next run: {next}");
                    }
                    None => {
                        let _ = writeln!(out, "  next run: none scheduled");
                    }
                }
            }
            Err(why) => {
                let _ = writeln!(out, "  next run: unknown ({why})");
            }
        }
    }
    if let Some(plist) = is_ours(&places.plist) {
        found = true;
        let _ = writeln!(out, "launchd agent:\n  {}", places.plist.display());
        let words = plist_strings_after(&plist, "<key>ProgramArguments</key>");
        if !words.is_empty() {
            let _ = writeln!(
                out,
                "  runs: {}",
                words.iter().map(|word| shell_word(word)).collect::<Vec<_>>().join(" ")
            );
        }
        if let Some(path) = plist_strings_after(&plist, "<key>StandardOutPath</key>").first() {
            log = PathBuf::from(path);
        }
    }
    if !found {
        let _ = writeln!(
            out,
            "no schedule is installed (looked for {}, {} and {}); a crontab line is not tracked: see `crontab -l`",
            places.timer().display(),
            places.service().display(),
            places.plist.display()
        );
    }
    let _ = writeln!(out, "log: {}", log.display());
    match log_tail(&log) {
        Ok(lines) if lines.is_empty() => {
            let _ = writeln!(out, "  (empty)");
        }
        Ok(lines) => {
            for line in lines {
                let _ = writeln!(out, "  {line}");
            }
        }
        Err(why) => {
            let _ = writeln!(out, "  ({why})");
        }
    }
    write_stdout(clean::message(&out).as_bytes())
}

/// The value of a `Key=` line of a unit we wrote.
fn setting(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|line| line.strip_prefix(key)).map(str::to_owned)
}

/// The `<string>`s of the element following `key` in a plist we wrote (one string, or
/// an array of them), unescaped.
fn plist_strings_after(text: &str, key: &str) -> Vec<String> {
    let Some((_, rest)) = text.split_once(key) else { return Vec::new() };
    let rest = rest.trim_start();
    let body = if let Some(array) = rest.strip_prefix("<array>") {
        array.split_once("</array>").map_or("", |(body, _)| body)
    } else {
        rest.split_once("</string>").map_or("", |(body, _)| body)
    };
    body.split("<string>")
        .skip(1)
        .filter_map(|part| part.split_once("</string>").map_or(Some(part), |(s, _)| Some(s)))
        .map(|word| {
            word.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&apos;", "'")
                .replace("&amp;", "&")
        })
        .collect()
}

/// The last lines of the log, or why there are none.
fn log_tail(path: &Path) -> Result<Vec<String>, String> {
    use std::io::{Read as _, Seek as _, SeekFrom};
    let metadata = match fs_err::symlink_metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err("no run has written to it yet".to_owned());
        }
        Err(error) => return Err(error.to_string()),
    };
    if !metadata.is_file() {
        return Err("not a regular file".to_owned());
    }
    let mut file = fs_err::File::open(path).map_err(|error| error.to_string())?;
    let start = metadata.len().saturating_sub(LOG_TAIL_BYTES);
    file.seek(SeekFrom::Start(start)).map_err(|error| error.to_string())?;
    let mut bytes = Vec::new();
    file.take(LOG_TAIL_BYTES).read_to_end(&mut bytes).map_err(|error| error.to_string())?;
    let text = String::from_utf8_lossy(&bytes);
    let mut lines: Vec<&str> = text.lines().collect();
    if start > 0 && !lines.is_empty() {
        // The first line read may be the end of a longer one.
        lines.remove(0);
    }
    let skip = lines.len().saturating_sub(LOG_TAIL_LINES);
    Ok(lines[skip..].iter().map(|line| sanitize::clean(line).into_owned()).collect())
}

fn uninstall(env: &ProcessEnv) -> Result<(), Failure> {
    let places = Places::of(env);
    let mut out = String::new();
    let units: Vec<PathBuf> = [places.timer(), places.service()]
        .into_iter()
        .filter(|path| is_ours(path).is_some())
        .collect();
    if !units.is_empty() {
        match user_manager(env) {
            Ok(systemctl) => {
                if let Err(why) = run_tool(&systemctl, &["--user", "disable", "--now", TIMER]) {
                    print_warning(&format!(
                        "`systemctl --user disable --now {TIMER}` failed: {why}"
                    ));
                } else {
                    let _ = writeln!(out, "disabled {TIMER}");
                }
            }
            Err(why) => {
                let _ = writeln!(out, "{TIMER} was not disabled by systemctl ({why})");
            }
        }
    }
    let mut removed = 0;
    for path in units.iter().chain(is_ours(&places.plist).map(|_| &places.plist)) {
        if path == &places.plist && cfg!(target_os = "macos") {
            if let Some(launchctl) = find_on_path(env, "launchctl") {
                let target = format!("gui/{}/{LABEL}", rustix::process::getuid().as_raw());
                let _ = run_tool(&launchctl, &["bootout", &target]);
            }
        }
        fs_err::remove_file(path).context("removing the schedule").map_err(runtime)?;
        removed += 1;
        let _ = writeln!(out, "removed {}", path.display());
    }
    if !units.is_empty() {
        if let Ok(systemctl) = user_manager(env) {
            let _ = run_tool(&systemctl, &["--user", "daemon-reload"]);
        }
    }
    for path in [places.timer(), places.service(), places.plist.clone()] {
        if path.exists() && is_ours(&path).is_none() {
            let _ =
                writeln!(out, "left {}: not written by `standup schedule install`", path.display());
        }
    }
    if removed == 0 {
        let _ = writeln!(
            out,
            "no schedule was installed; a crontab line is not tracked: see `crontab -l`"
        );
    }
    let log = places.log();
    if log.exists() {
        let _ = writeln!(out, "kept the log {}", log.display());
    }
    write_stdout(clean::message(&out).as_bytes())
}

/// `name` in a folder of `PATH`, as an executable regular file.
fn find_on_path(env: &ProcessEnv, name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt as _;
    let path = env.var(env_vars::PATH)?;
    std::env::split_paths(path)
        .filter(|folder| folder.is_absolute())
        .map(|folder| folder.join(name))
        .find(|candidate| {
            fs_err::metadata(candidate).is_ok_and(|metadata| {
                metadata.is_file() && metadata.permissions().mode() & 0o111 != 0
            })
        })
}

/// `systemctl` when it is on `PATH` and the user's service manager answers, else why not.
fn user_manager(env: &ProcessEnv) -> Result<PathBuf, String> {
    let systemctl = find_on_path(env, "systemctl").ok_or("systemctl is not on PATH")?;
    run_tool(&systemctl, &["--user", "show-environment"])
        .map_err(|why| format!("no systemd user manager answered ({why})"))?;
    Ok(systemctl)
}

/// The timer's next elapse as systemctl words it, if it has one.
fn next_run(systemctl: &Path) -> Option<String> {
    let text = run_tool(
        systemctl,
        &["--user", "show", TIMER, "--property=NextElapseUSecRealtime", "--value"],
    )
    .ok()?;
    let text = text.trim();
    (!text.is_empty() && text != "n/a").then(|| text.to_owned())
}

/// Runs a scheduler tool within [`TOOL_DEADLINE`]; its stdout, or its stderr's first line
/// (or its exit status) as the reason it failed.
fn run_tool(program: &Path, args: &[&str]) -> Result<String, String> {
    use std::io::Read as _;
    use std::process::Stdio;
    #[expect(clippy::disallowed_methods, reason = "the scheduler's own tool, not git")]
    let mut child = std::process::Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|error| format!("cannot start `{}`: {error}", program.display()))?;
    let mut stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(stdout) = stdout.as_mut() {
            let _ = stdout.take(LOG_TAIL_BYTES).read_to_end(&mut out);
        }
        out
    });
    let mut stderr = child.stderr.take();
    let error_reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(stderr) = stderr.as_mut() {
            let _ = stderr.take(LOG_TAIL_BYTES).read_to_end(&mut out);
        }
        out
    });
    let started = std::time::Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() >= TOOL_DEADLINE => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("it did not answer within {} s", TOOL_DEADLINE.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(error) => return Err(error.to_string()),
        }
    };
    let out = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
    let err = String::from_utf8_lossy(&error_reader.join().unwrap_or_default()).into_owned();
    if status.success() {
        Ok(out)
    } else {
        Err(err.lines().next().map_or_else(|| status.to_string(), |line| line.trim().to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_plan(weekdays: bool, config: Option<&str>) -> Plan {
        Plan::new(
            Path::new("/opt/my tools/standup"),
            config.map(Path::new),
            At::parse("09:25").unwrap(),
            weekdays,
            Path::new("/home/me/.local/state/standup/standup.log"),
            Path::new("/home/me"),
        )
        .unwrap()
    }

    #[test]
    fn times_of_day_are_checked() {
        assert_eq!(At::parse("09:25"), Ok(At { hour: 9, minute: 25 }));
        assert_eq!(At::parse("9:05"), Ok(At { hour: 9, minute: 5 }));
        assert_eq!(At::parse("00:00"), Ok(At { hour: 0, minute: 0 }));
        assert_eq!(At::parse("23:59"), Ok(At { hour: 23, minute: 59 }));
        for bad in ["24:00", "12:60", "9", "9:5", "09:25:00", "+9:25", "0x9:25", "", ":", "٠٩:٢٥"]
        {
            assert!(At::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_service_quotes_what_systemd_would_split_or_expand() {
        let plan = sample_plan(true, Some("/home/me/my \"cfg\" 100%$HOME\\x.toml"));
        let service = systemd_service(&plan);
        assert!(
            service.contains(
                "ExecStart=\"/opt/my tools/standup\" standup --no-llm --daily-note --config \"/home/me/my \\\"cfg\\\" 100%%$$HOME\\\\x.toml\"\n"
            ),
            "{service}"
        );
        assert!(service.contains("Type=oneshot\n"));
        assert!(service.contains(
            "StandardOutput=append:/home/me/.local/state/standup/standup.log\nStandardError=append:/home/me/.local/state/standup/standup.log\n"
        ));
    }

    #[test]
    fn the_timer_runs_on_weekdays_or_every_day() {
        assert!(
            systemd_timer(&sample_plan(true, None))
                .contains("OnCalendar=Mon..Fri *-*-* 09:25:00\nPersistent=true\n")
        );
        assert!(systemd_timer(&sample_plan(false, None)).contains("OnCalendar=*-*-* 09:25:00\n"));
    }

    #[test]
    fn the_crontab_line_is_quoted_for_sh_and_cron() {
        let plan = sample_plan(true, Some("/home/me/it's 50%.toml"));
        assert_eq!(
            crontab_line(&plan),
            r"25 9 * * 1-5 '/opt/my tools/standup' standup --no-llm --daily-note --config '/home/me/it'\''s 50\%.toml' >> /home/me/.local/state/standup/standup.log 2>&1"
        );
        let daily = sample_plan(false, None);
        assert!(crontab_line(&daily).starts_with("25 9 * * * "));
    }

    /// The plist parsed by a real XML reader: well formed, and the arguments, the log
    /// and the calendar entries are what the plan says.
    #[test]
    fn the_launchd_plist_parses_and_says_what_the_plan_says() {
        use quick_xml::events::Event;
        let plan = sample_plan(true, Some("/home/me/a<b>&'c\".toml"));
        let text = launchd_plist(&plan);
        let mut reader = quick_xml::Reader::from_str(&text);
        let mut strings = Vec::new();
        let mut integers = Vec::new();
        let mut keys = Vec::new();
        let mut current = String::new();
        loop {
            match reader.read_event().expect("well-formed XML") {
                Event::Start(start) => {
                    current = String::from_utf8(start.name().as_ref().to_vec()).unwrap();
                }
                Event::Text(text) => {
                    let value = text.unescape().unwrap().into_owned();
                    match current.as_str() {
                        "string" => strings.push(value),
                        "integer" => integers.push(value.parse::<u32>().unwrap()),
                        "key" => keys.push(value),
                        _ => {}
                    }
                }
                Event::End(_) => current.clear(),
                Event::Eof => break,
                _ => {}
            }
        }
        assert_eq!(
            strings,
            [
                LABEL,
                "/opt/my tools/standup",
                "standup",
                "--no-llm",
                "--daily-note",
                "--config",
                "/home/me/a<b>&'c\".toml",
                "/home/me",
                "/home/me/.local/state/standup/standup.log",
                "/home/me/.local/state/standup/standup.log",
            ]
        );
        // Weekday, Hour, Minute for Monday (1) to Friday (5).
        let expected: Vec<u32> = (1..=5).flat_map(|day| [day, 9, 25]).collect();
        assert_eq!(integers, expected);
        for key in [
            "Label",
            "ProgramArguments",
            "StartCalendarInterval",
            "StandardOutPath",
            "StandardErrorPath",
        ] {
            assert!(keys.iter().any(|k| k == key), "{key}");
        }
        assert_eq!(
            plist_strings_after(&text, "<key>ProgramArguments</key>")[5],
            "/home/me/a<b>&'c\".toml"
        );
        let daily = launchd_plist(&sample_plan(false, None));
        assert!(!daily.contains("Weekday"), "{daily}");
    }

    #[test]
    fn control_characters_and_relative_paths_are_refused() {
        let at = At::parse("09:25").unwrap();
        let home = Path::new("/home/me");
        let log = Path::new("/home/me/log");
        assert!(
            Plan::new(Path::new("/bin/standup"), Some(Path::new("/a\nb")), at, true, log, home)
                .is_err()
        );
        assert!(Plan::new(Path::new("standup"), None, at, true, log, home).is_err());
    }
}
