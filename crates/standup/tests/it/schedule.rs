//! `standup schedule install|status|uninstall`: the files written, their content (checked
//! by `systemd-analyze verify` where installed, the plist by an XML reader), idempotence,
//! and the timer triggered by hand: the service's own `ExecStart=` run as written puts
//! Monday's standup into the daily note.
//!
//! Every run has a `PATH` holding only git, so no `systemctl` is ever found and nothing
//! is enabled on the machine running the tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::support::{Home, ME, Run};

/// Monday 2026-11-30 at the scheduled time.
const MONDAY: &str = "2026-11-30T09:25:00+09:00";
const TOKYO: &str = "Asia/Tokyo";

/// A home whose runs see only git on `PATH`, and their own XDG folders.
struct Scheduled {
    home: Home,
    bin: PathBuf,
}

impl Scheduled {
    fn new() -> Scheduled {
        let home = Home::new();
        let bin = home.path().parent().unwrap().join("bin");
        fs_err::create_dir_all(&bin).unwrap();
        let git = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .map(|folder| folder.join("git"))
            .find(|candidate| candidate.is_file())
            .expect("git on PATH");
        std::os::unix::fs::symlink(git, bin.join("git")).unwrap();
        assert!(!bin.join("systemctl").exists());
        Scheduled { home, bin }
    }

    fn config_home(&self) -> PathBuf {
        self.home.path().join("xdg-config")
    }

    fn state_home(&self) -> PathBuf {
        self.home.path().join("xdg-state")
    }

    fn units(&self) -> PathBuf {
        self.config_home().join("systemd/user")
    }

    /// The environment a run gets: the test home's, with `PATH` holding only git.
    fn command(&self, program: &Path, args: &[&str]) -> Command {
        #[expect(clippy::disallowed_methods, reason = "tests run the real binary")]
        let mut command = Command::new(program);
        command
            .args(args)
            .current_dir(self.home.path())
            .env_clear()
            .env("PATH", &self.bin)
            .env("HOME", self.home.path())
            .env("XDG_CONFIG_HOME", self.config_home())
            .env("XDG_STATE_HOME", self.state_home())
            .env("STANDUP_NOW", MONDAY)
            .env("TZ", TOKYO)
            .env("LANG", "C")
            .env("NO_COLOR", "1")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .stdin(Stdio::null());
        command
    }

    fn run(&self, args: &[&str]) -> Run {
        self.home.run_command(&mut self.command(Path::new(env!("CARGO_BIN_EXE_standup")), args))
    }
}

fn binary() -> String {
    Path::new(env!("CARGO_BIN_EXE_standup")).canonicalize().unwrap().to_str().unwrap().to_owned()
}

/// The words of an `ExecStart=` line as systemd splits them: whitespace outside double
/// quotes separates, `\` escapes inside them, `%%` is `%` and `$$` is `$`.
fn systemd_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                quoted = !quoted;
                in_word = true;
            }
            '\\' if quoted => word.push(chars.next().unwrap()),
            '%' | '$' if chars.peek() == Some(&c) => {
                chars.next();
                word.push(c);
            }
            '%' | '$' => panic!("an unescaped `{c}` in {line}"),
            c if c.is_whitespace() && !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                }
                in_word = false;
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    assert!(!quoted, "an unclosed quote in {line}");
    if in_word {
        words.push(word);
    }
    words
}

fn setting(unit: &str, key: &str) -> String {
    unit.lines()
        .find_map(|line| line.strip_prefix(key))
        .unwrap_or_else(|| panic!("no {key} in\n{unit}"))
        .to_owned()
}

fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt as _;
    fs_err::metadata(path).unwrap().permissions().mode() & 0o777
}

/// This process's umask, from `/proc/self/status`.
fn umask() -> u32 {
    let status = fs_err::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find_map(|line| line.strip_prefix("Umask:")).unwrap();
    u32::from_str_radix(line.trim(), 8).unwrap()
}

/// `systemd-analyze verify` on the units, where the tool is installed: no error and no
/// warning (it also checks that `ExecStart=`'s program exists and is executable).
fn verify_units(units: &[PathBuf]) {
    let Some(analyze) = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|folder| folder.join("systemd-analyze"))
        .find(|candidate| candidate.is_file())
    else {
        return;
    };
    #[expect(clippy::disallowed_methods, reason = "the test checks units with systemd's tool")]
    let output = Command::new(analyze).arg("verify").args(units).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && stderr.trim().is_empty(), "systemd-analyze: {stderr}");
}

#[test]
fn install_writes_the_units_once_and_verifies() {
    let scheduled = Scheduled::new();
    let run = scheduled.run(&["schedule", "install", "--at", "09:25", "--weekdays"]);
    let stdout = run.success();
    let units = scheduled.units();
    let (service_path, timer_path) = (units.join("standup.service"), units.join("standup.timer"));
    assert!(stdout.contains("wrote [HOME]/xdg-config/systemd/user/standup.service\n"), "{stdout}");
    assert!(stdout.contains("wrote [HOME]/xdg-config/systemd/user/standup.timer\n"), "{stdout}");
    // No systemctl on PATH: nothing enabled, and the commands to run are given.
    assert!(stdout.contains("not enabled: systemctl is not on PATH"), "{stdout}");
    assert!(
        stdout.contains(
            "systemctl --user daemon-reload && systemctl --user enable --now standup.timer"
        ),
        "{stdout}"
    );
    let home = scheduled.home.path().display().to_string();
    let log = format!("{home}/xdg-state/standup/standup.log");
    assert_eq!(
        fs_err::read_to_string(&service_path).unwrap(),
        format!(
            "# Written by `standup schedule install`; `standup schedule uninstall` removes it.\n\
             [Unit]\n\
             Description=standup: the standup update into the daily note\n\
             \n\
             [Service]\n\
             Type=oneshot\n\
             WorkingDirectory={home}\n\
             ExecStart={} standup --no-llm --daily-note\n\
             StandardOutput=append:{log}\n\
             StandardError=append:{log}\n",
            binary()
        )
    );
    let timer = fs_err::read_to_string(&timer_path).unwrap();
    assert_eq!(setting(&timer, "OnCalendar="), "Mon..Fri *-*-* 09:25:00");
    assert_eq!(setting(&timer, "Persistent="), "true");
    assert_eq!(setting(&timer, "Unit="), "standup.service");
    assert_eq!(setting(&timer, "WantedBy="), "timers.target");
    // The log folder exists for the first run to append to.
    assert!(scheduled.state_home().join("standup").is_dir());
    // Created under the umask, never world-writable whatever the umask allows.
    assert_eq!(mode(&service_path), 0o666 & !umask());
    verify_units(&[timer_path.clone(), service_path.clone()]);

    // Again: nothing rewritten.
    let before = (fs_err::read(&service_path).unwrap(), fs_err::read(&timer_path).unwrap());
    let run = scheduled.run(&["schedule", "install", "--at", "9:25", "--weekdays"]);
    let stdout = run.success();
    assert!(
        stdout.contains("unchanged [HOME]/xdg-config/systemd/user/standup.service\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("unchanged [HOME]/xdg-config/systemd/user/standup.timer\n"),
        "{stdout}"
    );
    assert_eq!(before, (fs_err::read(&service_path).unwrap(), fs_err::read(&timer_path).unwrap()));

    // Another time, every day: the timer is updated, the service is not.
    let stdout = scheduled.run(&["schedule", "install", "--at", "18:05"]).success().to_owned();
    assert!(
        stdout.contains("unchanged [HOME]/xdg-config/systemd/user/standup.service\n"),
        "{stdout}"
    );
    assert!(stdout.contains("updated [HOME]/xdg-config/systemd/user/standup.timer\n"), "{stdout}");
    let timer = fs_err::read_to_string(&timer_path).unwrap();
    assert_eq!(setting(&timer, "OnCalendar="), "*-*-* 18:05:00");
    verify_units(&[timer_path, service_path]);
}

#[test]
fn a_time_that_is_not_hh_mm_is_a_usage_error() {
    let scheduled = Scheduled::new();
    for bad in ["24:00", "9.25", "09:5", "noon", "09:25:00"] {
        let run = scheduled.run(&["schedule", "install", "--at", bad]);
        assert_eq!(run.code, 2, "{bad}: {}", run.snapshot());
        assert!(
            run.stderr.contains(&format!("invalid value '{bad}' for '--at <HH:MM>': expected HH:MM, a time of day such as 09:25")),
            "{}",
            run.stderr
        );
    }
    let run = scheduled.run(&["schedule", "install", "--at", "09:25", "--config", "missing.toml"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(
        run.stderr.contains("the config file `[HOME]/missing.toml` does not exist"),
        "{}",
        run.stderr
    );
    assert!(!scheduled.units().exists(), "nothing is written on a usage error");
}

/// The acceptance test of the schedule: installed with a config whose path systemd
/// must be told exactly (a space, `%`, `$`), the service's `ExecStart=` run as systemd
/// would run it, its output appended to the log as the unit says, puts Monday's standup
/// into the existing daily note without touching the user's lines; a second run changes
/// nothing; `status` shows it all and `uninstall` removes exactly what install wrote.
#[test]
fn the_timer_triggered_by_hand_appends_to_the_daily_note() {
    let scheduled = Scheduled::new();
    let home = &scheduled.home;
    home.git_identity(ME.email, ME.name);
    home.repo("app").commit("a", "parser: accept trailing commas", "2026-11-27T10:00:00+09:00");
    let config = home.write(
        "xdg-config/my standup/100% $HOME.toml",
        "[output]\ndaily_note = \"~/Notes/Daily/{date}.md\"\n",
    );
    let mine =
        "# Monday 30\n\n- [ ] call the bank\n\n## Log\n\nmy own line, kept byte for byte  \n";
    let note = home.write("Notes/Daily/2026-11-30.md", mine);

    let run = scheduled.run(&[
        "schedule",
        "install",
        "--at",
        "09:25",
        "--weekdays",
        "--config",
        config.to_str().unwrap(),
    ]);
    run.success();
    // Its config names the daily note: no warning.
    assert_eq!(run.stderr, "");
    let service_path = scheduled.units().join("standup.service");
    let service = fs_err::read_to_string(&service_path).unwrap();
    verify_units(&[scheduled.units().join("standup.timer"), service_path]);

    let words = systemd_words(&setting(&service, "ExecStart="));
    assert_eq!(
        words,
        [
            binary().as_str(),
            "standup",
            "--no-llm",
            "--daily-note",
            "--config",
            config.to_str().unwrap()
        ]
    );
    let log = PathBuf::from(setting(&service, "StandardOutput=append:"));
    assert_eq!(setting(&service, "StandardError=append:"), log.to_str().unwrap());
    let cwd = PathBuf::from(setting(&service, "WorkingDirectory="));

    let trigger = || {
        let out =
            fs_err::OpenOptions::new().create(true).append(true).open(&log).unwrap().into_parts().0;
        let err = out.try_clone().unwrap();
        let status = scheduled
            .command(
                Path::new(&words[0]),
                &words[1..].iter().map(String::as_str).collect::<Vec<_>>(),
            )
            .current_dir(&cwd)
            .stdout(out)
            .stderr(err)
            .status()
            .unwrap();
        assert!(status.success(), "{}", fs_err::read_to_string(&log).unwrap());
        fs_err::read_to_string(&note).unwrap()
    };
    let first = trigger();
    assert!(first.starts_with(mine), "{first}");
    let section = &first[mine.len()..];
    assert!(section.contains("<!-- standup:begin -->\n"), "{first}");
    assert!(section.contains("parser: accept trailing commas"), "{first}");
    assert!(section.contains("2026-11-30"), "{first}");
    assert!(section.trim_end().ends_with("<!-- standup:end -->"), "{first}");
    let second = trigger();
    assert_eq!(first, second, "a second run changes nothing");
    let logged = fs_err::read_to_string(&log).unwrap();
    assert!(logged.contains("Notes/Daily/2026-11-30.md"), "{logged}");

    let status = scheduled.run(&["schedule", "status"]);
    let stdout = status.success();
    for expected in [
        "systemd user timer:\n",
        "  [HOME]/xdg-config/systemd/user/standup.timer\n",
        "  [HOME]/xdg-config/systemd/user/standup.service\n",
        "  when: Mon..Fri *-*-* 09:25:00\n",
        "  next run: unknown (systemctl is not on PATH)\n",
        "log: [HOME]/xdg-state/standup/standup.log\n",
        "Notes/Daily/2026-11-30.md",
    ] {
        assert!(stdout.contains(expected), "{expected:?} missing from:\n{stdout}");
    }

    // Uninstall removes the two units and nothing else: the note, the config and the log
    // stay.
    fs_err::write(scheduled.units().join("other.service"), "[Service]\n").unwrap();
    let stdout = scheduled.run(&["schedule", "uninstall"]).success().to_owned();
    assert!(stdout.contains("removed [HOME]/xdg-config/systemd/user/standup.timer\n"), "{stdout}");
    assert!(
        stdout.contains("removed [HOME]/xdg-config/systemd/user/standup.service\n"),
        "{stdout}"
    );
    assert!(stdout.contains("kept the log [HOME]/xdg-state/standup/standup.log"), "{stdout}");
    let left: Vec<String> = fs_err::read_dir(scheduled.units())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["other.service"]);
    assert_eq!(fs_err::read_to_string(&note).unwrap(), first);
    assert!(config.is_file() && log.is_file());
    let stdout = scheduled.run(&["schedule", "status"]).success().to_owned();
    assert!(stdout.starts_with("no schedule is installed"), "{stdout}");
    let stdout = scheduled.run(&["schedule", "uninstall"]).success().to_owned();
    assert!(stdout.contains("no schedule was installed"), "{stdout}");
}

/// A `standup.service` the user wrote is neither replaced by install nor removed by
/// uninstall.
#[test]
fn files_not_written_by_install_are_left_alone() {
    let scheduled = Scheduled::new();
    let theirs = "[Service]\nExecStart=/usr/bin/true\n";
    let path = scheduled.units().join("standup.service");
    fs_err::create_dir_all(scheduled.units()).unwrap();
    fs_err::write(&path, theirs).unwrap();
    let run = scheduled.run(&["schedule", "install", "--at", "09:25"]);
    assert_eq!(run.code, 1, "{}", run.snapshot());
    assert!(
        run.stderr.contains("standup.service` exists and was not written by `standup schedule install`: not replaced"),
        "{}",
        run.stderr
    );
    let run = scheduled.run(&["schedule", "uninstall"]);
    assert!(
        run.success().contains("left [HOME]/xdg-config/systemd/user/standup.service: not written by `standup schedule install`"),
        "{}",
        run.stdout
    );
    assert_eq!(fs_err::read_to_string(&path).unwrap(), theirs);
}

/// The launchd agent, written on any system with `--backend launchd`: a property list
/// an XML reader accepts (and `plutil -lint` where installed), with the run's arguments,
/// one calendar entry per weekday, and the log for both streams.
#[test]
fn the_launchd_agent_is_a_valid_plist() {
    use quick_xml::events::Event;
    let scheduled = Scheduled::new();
    let stdout = scheduled
        .run(&["schedule", "install", "--at", "07:05", "--weekdays", "--backend", "launchd"])
        .success()
        .to_owned();
    assert!(
        stdout.contains("wrote [HOME]/Library/LaunchAgents/dev.standup.daily.plist\n"),
        "{stdout}"
    );
    let path = scheduled.home.path().join("Library/LaunchAgents/dev.standup.daily.plist");
    let text = fs_err::read_to_string(&path).unwrap();
    let mut reader = quick_xml::Reader::from_str(&text);
    let (mut keys, mut strings, mut integers, mut element) =
        (vec![], vec![], vec![], String::new());
    loop {
        match reader.read_event().unwrap_or_else(|error| panic!("{error}: {text}")) {
            Event::Start(start) => {
                element = String::from_utf8(start.name().as_ref().to_vec()).unwrap();
            }
            Event::Text(value) => {
                let value = value.unescape().unwrap().into_owned();
                match element.as_str() {
                    "key" => keys.push(value),
                    "string" => strings.push(value),
                    "integer" => integers.push(value.parse::<u32>().unwrap()),
                    _ => {}
                }
            }
            Event::End(_) => element.clear(),
            Event::Eof => break,
            _ => {}
        }
    }
    let log = scheduled.state_home().join("standup/standup.log").to_str().unwrap().to_owned();
    let home = scheduled.home.path().to_str().unwrap().to_owned();
    assert_eq!(
        strings,
        ["dev.standup.daily", &binary(), "standup", "--no-llm", "--daily-note", &home, &log, &log]
    );
    assert_eq!(integers, (1..=5).flat_map(|day| [day, 7, 5]).collect::<Vec<u32>>());
    assert_eq!(
        keys.iter()
            .filter(|key| !["Weekday", "Hour", "Minute"].contains(&key.as_str()))
            .collect::<Vec<_>>(),
        [
            "Label",
            "ProgramArguments",
            "WorkingDirectory",
            "StartCalendarInterval",
            "StandardOutPath",
            "StandardErrorPath"
        ]
    );
    if let Some(plutil) = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|folder| folder.join("plutil"))
        .find(|candidate| candidate.is_file())
    {
        #[expect(clippy::disallowed_methods, reason = "the test checks the plist with plutil")]
        let output = Command::new(plutil).arg("-lint").arg(&path).output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stdout));
    }
    let stdout = scheduled.run(&["schedule", "status"]).success().to_owned();
    assert!(
        stdout.contains("launchd agent:\n  [HOME]/Library/LaunchAgents/dev.standup.daily.plist\n"),
        "{stdout}"
    );
    let stdout = scheduled.run(&["schedule", "uninstall"]).success().to_owned();
    assert!(
        stdout.contains("removed [HOME]/Library/LaunchAgents/dev.standup.daily.plist\n"),
        "{stdout}"
    );
    assert!(!path.exists());
}

/// Where neither systemd nor launchd is wanted: the crontab line, printed, and nothing
/// written but the log folder.
#[test]
fn the_cron_backend_prints_the_line() {
    let scheduled = Scheduled::new();
    let stdout = scheduled
        .run(&["schedule", "install", "--at", "09:25", "--weekdays", "--backend", "cron"])
        .success()
        .to_owned();
    let expected = format!(
        "  25 9 * * 1-5 {} standup --no-llm --daily-note >> [HOME]/xdg-state/standup/standup.log 2>&1\n",
        binary().replace(&scheduled.home.path().display().to_string(), "[HOME]")
    );
    assert!(stdout.contains(&expected), "{expected}\n{stdout}");
    assert!(!scheduled.units().exists());
    assert!(!scheduled.home.path().join("Library").exists());
}

/// A schedule installed where no config sets `[output] daily_note`: written all the same,
/// with a warning that each run will fail until the config sets it.
#[test]
fn installing_without_a_daily_note_warns_that_the_runs_will_fail() {
    let scheduled = Scheduled::new();
    let run = scheduled.run(&["schedule", "install", "--at", "09:25"]);
    run.success();
    let config = scheduled.config_home().join("standup/config.toml");
    assert_eq!(
        run.stderr.trim_end(),
        format!(
            "standup: warning: schedule_without_daily_note: the scheduled run puts the standup \
             into the daily note `[output] daily_note` names, which `{}` does not set: each run \
             will fail until it does (for example daily_note = \"~/Notes/Daily/{{date}}.md\")",
            config.display()
        )
        .replace(&scheduled.home.path().display().to_string(), "[HOME]")
    );
    assert!(scheduled.units().join("standup.timer").is_file());
}
