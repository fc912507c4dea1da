//! Shell histories: real files in zsh's, bash's and fish's formats and a real atuin
//! database, each in its own temporary home.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use collect::shell::{ShellConfig, read_shell};
use collect::{Env, SourceOutput, SourceStatus};
use jiff::Timestamp;
use report_model::{Shell, ShellEvent, WarningCode};
use tempfile::TempDir;

use crate::support::en;

/// 2026-11-27T00:00:00Z, the start of the report window in every test.
const SINCE: i64 = 1_795_737_600;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/shell").join(name)
}

fn at(second: i64) -> Timestamp {
    Timestamp::from_second(second).unwrap()
}

fn event(shell: Shell, second: i64, command: &str) -> ShellEvent {
    ShellEvent {
        shell,
        time: at(second),
        command: command.to_owned(),
        truncated: false,
        cwd: None,
        project: None,
        exit: None,
        duration_ns: None,
        agent: None,
    }
}

/// A temporary home directory.
struct Home {
    dir: TempDir,
}

impl Home {
    fn new() -> Home {
        Home { dir: TempDir::new().unwrap() }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn env(&self) -> Env {
        Env::new(self.path())
    }

    /// Writes a file under the home, creating its folders.
    fn write(&self, relative: &str, bytes: &[u8]) -> PathBuf {
        let path = self.path().join(relative);
        fs_err::create_dir_all(path.parent().unwrap()).unwrap();
        fs_err::write(&path, bytes).unwrap();
        path
    }

    /// Copies `fixtures/shell/<name>` to `relative` under the home, creating its folders.
    fn copy_fixture(&self, name: &str, relative: &str) {
        let path = self.path().join(relative);
        fs_err::create_dir_all(path.parent().unwrap()).unwrap();
        fs_err::copy(fixture(name), path).unwrap();
    }
}

fn set_mtime(path: &Path, second: u64) {
    let file = fs_err::File::options().write(true).open(path).unwrap();
    file.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(second)).unwrap();
}

fn only(shells: &[Shell]) -> ShellConfig {
    ShellConfig { shells: shells.to_vec(), ..ShellConfig::default() }
}

#[track_caller]
fn read(env: &Env, config: &ShellConfig) -> SourceOutput<ShellEvent> {
    read_shell(env, config, at(SINCE))
}

/// The warnings, with the home directory written `~`.
fn warnings(output: &SourceOutput<ShellEvent>, home: &Home) -> Vec<(WarningCode, String)> {
    let home = home.path().display().to_string();
    output
        .warnings
        .iter()
        .map(|warning| (warning.code(), en(warning).replace(&home, "~")))
        .collect()
}

fn status<'a>(output: &'a SourceOutput<ShellEvent>, source: &str) -> &'a SourceStatus {
    let source: report_model::Source = source.parse().unwrap();
    output.statuses.iter().find(|status| status.source == source).unwrap()
}

// zsh

/// A history the real zsh 5.9 wrote (`fixtures/README.md`): metafied Japanese, a
/// command continued over two lines, a trailing escaped backslash.
#[test]
fn zsh_reads_a_history_zsh_5_9_wrote() {
    let home = Home::new();
    home.copy_fixture("zsh_history", ".zsh_history");

    let output = read(&home.env(), &only(&[Shell::Zsh]));

    assert_eq!(
        output.events,
        [
            event(Shell::Zsh, 1_796_303_647, "setopt EXTENDED_HISTORY INC_APPEND_HISTORY"),
            event(
                Shell::Zsh,
                1_796_303_647,
                "HISTFILE=$HOME/.zsh_history HISTSIZE=1000 SAVEHIST=1000"
            ),
            event(Shell::Zsh, 1_796_303_648, "echo 日本語のコミット"),
            event(Shell::Zsh, 1_796_303_648, "echo first \\\nsecond line"),
            event(Shell::Zsh, 1_796_303_649, "echo \"ends with backslash\\\\\""),
            event(Shell::Zsh, 1_796_303_649, "ls /tmp >/dev/null"),
            event(Shell::Zsh, 1_796_303_649, "exit"),
        ]
    );
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(status(&output, "zsh").entries, 7);
}

#[test]
fn zsh_reads_extended_metafied_and_continued_entries() {
    let home = Home::new();
    let mut history = Vec::new();
    history.extend_from_slice(b": 1795161600:0;ls -la\n");
    history.extend_from_slice(b"echo written before EXTENDED_HISTORY\n");
    history.extend_from_slice(b": 1795770900:3;cargo test -p collect zsh\n");
    // `echo 日報 ę`, metafied: 日 = E6 97 A5 and 報 = E5 A0 B1 and ę = C4 99 each have a
    // byte in zsh's meta range, written as 0x83 and the byte XOR 0x20.
    history
        .extend_from_slice(b": 1795770960:0;echo \xe6\x83\xb7\xa5\xe5\x83\x80\xb1 \xc4\x83\xb9\n");
    history.extend_from_slice(b": 1795771020:0;for f in *.rs; do\\\n  echo $f\\\ndone\n");
    history.extend_from_slice(b"git status\n");
    // A command that ends in a backslash gets a space so it does not read as continued.
    history.extend_from_slice(b": 1795771080:0;echo trailing \\ \n");
    // Invalid UTF-8 is decoded lossily.
    history.extend_from_slice(b": 1795771140:0;echo \xff\n");
    home.write(".zsh_history", &history);

    let output = read(&home.env(), &only(&[Shell::Zsh]));

    assert_eq!(
        output.events,
        [
            event(Shell::Zsh, 1_795_770_900, "cargo test -p collect zsh"),
            event(Shell::Zsh, 1_795_770_960, "echo 日報 ę"),
            event(Shell::Zsh, 1_795_771_020, "for f in *.rs; do\n  echo $f\ndone"),
            event(Shell::Zsh, 1_795_771_080, "echo trailing \\"),
            event(Shell::Zsh, 1_795_771_140, "echo \u{fffd}"),
        ]
    );
    assert_eq!(
        warnings(&output, &home),
        [(
            WarningCode::UndatedEntries,
            "zsh: 2 undated entries in `~/.zsh_history` — EXTENDED_HISTORY is off (`setopt EXTENDED_HISTORY` records times from now on)".to_owned()
        )]
    );
    let zsh = status(&output, "zsh");
    assert!(zsh.found);
    assert_eq!((zsh.files, zsh.entries), (1, 8));
    assert_eq!(zsh.locations, [home.path().join(".zsh_history")]);
}

#[test]
fn zsh_undated_entries_are_reported_once_with_their_count() {
    let home = Home::new();
    home.write(".zsh_history", "make\n".repeat(1204).as_bytes());

    let output = read(&home.env(), &only(&[Shell::Zsh]));

    assert!(output.events.is_empty());
    assert_eq!(output.warnings.len(), 1);
    assert!(
        en(&output.warnings[0]).starts_with("zsh: 1,204 undated entries in `"),
        "{:?}",
        output.warnings
    );
    assert_eq!(status(&output, "zsh").entries, 1204);
}

#[test]
fn zsh_malformed_entries_are_reported_once_with_the_first_line() {
    let home = Home::new();
    home.write(
        ".zsh_history",
        b": 1795770900:0;ok\n: 1795770960;no duration\n: 1795770961:0 no semicolon\\\ncontinued\n: 1795771020:0;ok too\n",
    );

    let output = read(&home.env(), &only(&[Shell::Zsh]));

    assert_eq!(
        output.events,
        [event(Shell::Zsh, 1_795_770_900, "ok"), event(Shell::Zsh, 1_795_771_020, "ok too")]
    );
    assert_eq!(
        warnings(&output, &home),
        [(
            WarningCode::MalformedLines,
            "zsh: 2 malformed entries in `~/.zsh_history` skipped (first at line 2)".to_owned()
        )]
    );
}

#[test]
fn since_keeps_entries_at_or_after_it() {
    let home = Home::new();
    let history = format!(
        ": {}:0;just before\n: {SINCE}:0;at the start\n: {}:0;after\n",
        SINCE - 1,
        SINCE + 1
    );
    home.write(".zsh_history", history.as_bytes());

    let output = read(&home.env(), &only(&[Shell::Zsh]));

    assert_eq!(
        output.events,
        [event(Shell::Zsh, SINCE, "at the start"), event(Shell::Zsh, SINCE + 1, "after")]
    );
    assert_eq!(status(&output, "zsh").entries, 3);
}

#[test]
fn entries_out_of_order_near_the_boundary_are_kept() {
    // A long-lived shell writes its whole session when it exits, behind the entries of
    // shells that exited earlier: today's commands can follow older ones.
    let home = Home::new();
    let history = format!(
        ": {}:0;other shell, today\n: {}:0;long session, last week\n: {}:0;long session, yesterday\n: {}:0;long session, today\n",
        SINCE + 600,
        SINCE - 7 * 86_400,
        SINCE - 60,
        SINCE + 60
    );
    home.write(".zsh_history", history.as_bytes());

    let output = read(&home.env(), &only(&[Shell::Zsh]));

    assert_eq!(
        output.events,
        [
            event(Shell::Zsh, SINCE + 600, "other shell, today"),
            event(Shell::Zsh, SINCE + 60, "long session, today")
        ]
    );
}

// bash

#[test]
fn bash_timestamps_delimit_multiline_entries() {
    let home = Home::new();
    home.copy_fixture("bash_history", ".bash_history");

    let output = read(&home.env(), &only(&[Shell::Bash]));

    assert_eq!(
        output.events,
        [
            event(Shell::Bash, 1_795_770_900, "cat <<'EOF' > notes.txt\nstandup at ten\nEOF"),
            event(Shell::Bash, 1_795_770_960, "git push origin main"),
        ]
    );
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(status(&output, "bash").entries, 3);
}

#[test]
fn bash_without_timestamps_is_undated_line_by_line() {
    let home = Home::new();
    home.write(".bash_history", b"ls\ncd /tmp\nmake\n");

    let output = read(&home.env(), &only(&[Shell::Bash]));

    assert!(output.events.is_empty());
    assert_eq!(
        warnings(&output, &home),
        [(
            WarningCode::UndatedEntries,
            "bash: 3 undated entries in `~/.bash_history` — HISTTIMEFORMAT was not set when they were written (setting it records times from now on)".to_owned()
        )]
    );
    assert_eq!(status(&output, "bash").entries, 3);
}

#[test]
fn bash_undated_lines_before_the_first_timestamp_are_separate_entries() {
    let home = Home::new();
    home.write(".bash_history", b"old one\nold two\n#1795770900\nnew\n");

    let output = read(&home.env(), &only(&[Shell::Bash]));

    assert_eq!(output.events, [event(Shell::Bash, 1_795_770_900, "new")]);
    assert!(
        en(&output.warnings[0]).starts_with("bash: 2 undated entries in "),
        "{:?}",
        output.warnings
    );
    assert_eq!(status(&output, "bash").entries, 3);
}

/// A history kept since before the shell recorded times: its undated entries all come
/// before its first dated one, which is older than the window. Every report warned that
/// the setting was off, though it has been on since; now `doctor` notes them, and the
/// report does not warn.
#[test]
fn undated_entries_from_before_the_shell_recorded_times_are_a_note_not_a_warning() {
    for (shell, name, history) in [
        (
            Shell::Zsh,
            ".zsh_history",
            format!("ls\ncd src\n: {}:0;make\n: {SINCE}:0;git status\n", SINCE - 86_400),
        ),
        (
            Shell::Bash,
            ".bash_history",
            format!("ls\ncd src\n#{}\nmake\n#{SINCE}\ngit status\n", SINCE - 86_400),
        ),
    ] {
        let home = Home::new();
        home.write(name, history.as_bytes());
        let output = read(&home.env(), &only(&[shell]));
        assert_eq!(output.events, [event(shell, SINCE, "git status")]);
        assert!(output.warnings.is_empty(), "{:?}", output.warnings);
        let status = status(&output, shell.display_name());
        assert_eq!(status.entries, 4);
        let notes: Vec<_> = status.notes.iter().map(|note| note.detail.clone()).collect();
        assert_eq!(
            notes,
            [report_model::WarningDetail::UndatedEntries {
                shell,
                path: home.path().join(name).display().to_string(),
                count: 2,
                before_times: true,
            }]
        );
    }
}

/// Undated entries after a dated one, or before a first dated entry of the window, may be
/// the window's: they stay a warning.
#[test]
fn undated_entries_that_may_be_the_window_s_stay_a_warning() {
    let late = format!(": {}:0;make\nls\n: {SINCE}:0;git status\n", SINCE - 86_400);
    let first_in_window = format!("ls\n: {SINCE}:0;git status\n");
    for history in [late, first_in_window, "ls\n".to_owned()] {
        let home = Home::new();
        home.write(".zsh_history", history.as_bytes());
        let output = read(&home.env(), &only(&[Shell::Zsh]));
        let [warning] = &output.warnings[..] else { panic!("{:?}", output.warnings) };
        assert!(
            matches!(
                warning.detail,
                report_model::WarningDetail::UndatedEntries { count: 1, before_times: false, .. }
            ),
            "{history}: {warning:?}"
        );
    }
}

#[test]
fn bash_bad_epoch_is_malformed() {
    let home = Home::new();
    home.write(".bash_history", b"#1795770900\nok one\n#17957709x0\nbad\n#1795770960\nok two\n");

    let output = read(&home.env(), &only(&[Shell::Bash]));

    assert_eq!(
        output.events,
        [event(Shell::Bash, 1_795_770_900, "ok one"), event(Shell::Bash, 1_795_770_960, "ok two")]
    );
    assert_eq!(
        warnings(&output, &home),
        [(
            WarningCode::MalformedLines,
            "bash: 1 malformed entry in `~/.bash_history` skipped (first at line 3)".to_owned()
        )]
    );
}

// fish

#[test]
fn fish_unescapes_commands_and_skips_paths() {
    let home = Home::new();
    home.copy_fixture("fish_history", ".local/share/fish/fish_history");

    let output = read(&home.env(), &only(&[Shell::Fish]));

    assert_eq!(
        output.events,
        [
            event(Shell::Fish, 1_795_770_900, "cargo test -p collect shell"),
            event(Shell::Fish, 1_795_770_960, r"printf 'C:\temp\new\n'"),
            event(Shell::Fish, 1_795_771_020, "for f in *.rs\n    echo $f\nend"),
            event(Shell::Fish, 1_795_771_080, "git commit -m \"fish: paths list\""),
        ]
    );
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(status(&output, "fish").entries, 5);
}

#[test]
fn fish_honours_xdg_data_home() {
    let home = Home::new();
    home.write("data/fish/fish_history", b"- cmd: make\n  when: 1795770900\n");
    let env = home.env().with_var("XDG_DATA_HOME", home.path().join("data").to_str().unwrap());

    let output = read(&env, &only(&[Shell::Fish]));

    assert_eq!(output.events, [event(Shell::Fish, 1_795_770_900, "make")]);
    assert_eq!(status(&output, "fish").locations, [home.path().join("data/fish/fish_history")]);
}

#[test]
fn fish_block_without_a_parsable_when_is_malformed() {
    let home = Home::new();
    home.write(
        ".local/share/fish/fish_history",
        b"- cmd: no when\n  paths:\n    - x\n- cmd: bad when\n  when: soon\n- cmd: fine\n  when: 1795770900\n",
    );

    let output = read(&home.env(), &only(&[Shell::Fish]));

    assert_eq!(output.events, [event(Shell::Fish, 1_795_770_900, "fine")]);
    assert_eq!(
        warnings(&output, &home),
        [(
            WarningCode::MalformedLines,
            "fish: 2 malformed entries in `~/.local/share/fish/fish_history` skipped (first at line 1)".to_owned()
        )]
    );
}

// atuin

/// atuin's `history` table as its migrations leave it (`20210422143411_create_history`,
/// then `20230319185725_deleted_at`), plus a column a later atuin might add.
const ATUIN_SCHEMA: &str = "
    PRAGMA journal_mode = WAL;
    CREATE TABLE IF NOT EXISTS history (
        id text PRIMARY KEY,
        timestamp integer NOT NULL,
        duration integer NOT NULL,
        exit integer NOT NULL,
        command text NOT NULL,
        cwd text NOT NULL,
        session text NOT NULL,
        hostname text NOT NULL,
        unique(timestamp, cwd, command)
    );
    CREATE INDEX IF NOT EXISTS idx_history_timestamp ON history(timestamp);
    CREATE INDEX IF NOT EXISTS idx_history_command ON history(command);
    ALTER TABLE history ADD COLUMN deleted_at integer;
    ALTER TABLE history ADD COLUMN added_by_a_future_atuin text;
";

/// A row: (id, seconds, command, cwd, deleted at).
type Row<'a> = (&'a str, i64, &'a str, &'a str, Option<i64>);

fn atuin_db(path: &Path, schema: &str, rows: &[Row<'_>]) {
    fs_err::create_dir_all(path.parent().unwrap()).unwrap();
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch(schema).unwrap();
    for &(id, second, command, cwd, deleted_at) in rows {
        let nanos = second * 1_000_000_000 + 123_456_789;
        if schema.contains("deleted_at") {
            conn.execute(
                "INSERT INTO history (id, timestamp, duration, exit, command, cwd, session, hostname, deleted_at)
                 VALUES (?1, ?2, 1500000, 0, ?3, ?4, 'session-0000', 'laptop:user', ?5)",
                rusqlite::params![id, nanos, command, cwd, deleted_at.map(|second| second * 1_000_000_000)],
            )
            .unwrap();
        } else {
            conn.execute(
                "INSERT INTO history (id, timestamp, duration, exit, command, cwd, session, hostname)
                 VALUES (?1, ?2, 1500000, 0, ?3, ?4, 'session-0000', 'laptop:user')",
                rusqlite::params![id, nanos, command, cwd],
            )
            .unwrap();
        }
    }
}

fn atuin_event(second: i64, command: &str, cwd: Option<&str>) -> ShellEvent {
    ShellEvent {
        shell: Shell::Atuin,
        time: Timestamp::from_nanosecond(i128::from(second) * 1_000_000_000 + 123_456_789).unwrap(),
        command: command.to_owned(),
        truncated: false,
        cwd: cwd.map(PathBuf::from),
        project: None,
        // The rows of `atuin_db` all exited 0 after 1.5 ms.
        exit: Some(0),
        duration_ns: Some(1_500_000),
        agent: None,
    }
}

const ATUIN_ROWS: &[Row<'_>] = &[
    ("0001", 1_795_161_600, "cargo build", "/home/u/src/standup", None),
    ("0002", 1_795_770_900, "cargo test -p collect", "/home/u/src/standup", None),
    (
        "0003",
        1_795_770_960,
        "echo sk-test-0000 > /dev/null",
        "/home/u/src/standup",
        Some(1_795_770_970),
    ),
    ("0004", 1_795_771_020, "git push", "/home/u/src/billing-api", None),
    ("0005", 1_795_771_080, "make", "unknown", None),
];

#[test]
fn atuin_reads_live_rows_since_with_their_cwd() {
    let home = Home::new();
    atuin_db(&home.path().join(".local/share/atuin/history.db"), ATUIN_SCHEMA, ATUIN_ROWS);

    let output = read(&home.env(), &only(&[Shell::Atuin]));

    let mut events = output.events.clone();
    events.sort_by_key(|event| event.time);
    assert_eq!(
        events,
        [
            atuin_event(1_795_770_900, "cargo test -p collect", Some("/home/u/src/standup")),
            atuin_event(1_795_771_020, "git push", Some("/home/u/src/billing-api")),
            atuin_event(1_795_771_080, "make", None),
        ]
    );
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    let atuin = status(&output, "atuin");
    assert!(atuin.found);
    assert_eq!((atuin.files, atuin.entries), (1, 4));
}

#[test]
fn atuin_without_deleted_at_column_reads_every_row() {
    let home = Home::new();
    let schema = ATUIN_SCHEMA
        .lines()
        .filter(|line| !line.contains("ADD COLUMN"))
        .collect::<Vec<_>>()
        .join("\n");
    atuin_db(&home.path().join(".local/share/atuin/history.db"), &schema, &ATUIN_ROWS[..3]);

    let output = read(&home.env(), &only(&[Shell::Atuin]));

    let mut commands: Vec<_> = output.events.iter().map(|event| event.command.as_str()).collect();
    commands.sort_unstable();
    assert_eq!(commands, ["cargo test -p collect", "echo sk-test-0000 > /dev/null"]);
}

#[test]
fn atuin_database_is_never_written() {
    let home = Home::new();
    let db = home.path().join(".local/share/atuin/history.db");
    atuin_db(&db, ATUIN_SCHEMA, ATUIN_ROWS);
    set_mtime(&db, 1_795_000_000);
    let listing = |dir: &Path| {
        let mut names: Vec<_> =
            fs_err::read_dir(dir).unwrap().map(|entry| entry.unwrap().file_name()).collect();
        names.sort();
        names
    };
    let bytes_before = fs_err::read(&db).unwrap();
    let mtime_before = fs_err::metadata(&db).unwrap().modified().unwrap();
    let files_before = listing(db.parent().unwrap());

    let output = read(&home.env(), &only(&[Shell::Atuin]));

    assert_eq!(output.events.len(), 3);
    assert!(fs_err::read(&db).unwrap() == bytes_before, "the database's bytes changed");
    assert_eq!(fs_err::metadata(&db).unwrap().modified().unwrap(), mtime_before);
    assert_eq!(listing(db.parent().unwrap()), files_before);
}

#[test]
fn atuin_rows_still_in_the_write_ahead_log_are_read() {
    let home = Home::new();
    let db = home.path().join(".local/share/atuin/history.db");
    atuin_db(&db, ATUIN_SCHEMA, &ATUIN_ROWS[..2]);
    // atuin still running: its connection is open and its last insert is only in the
    // `-wal` file.
    let atuin = rusqlite::Connection::open(&db).unwrap();
    atuin.execute_batch("PRAGMA wal_autocheckpoint = 0;").unwrap();
    atuin
        .execute(
            "INSERT INTO history (id, timestamp, duration, exit, command, cwd, session, hostname)
             VALUES ('0009', ?1, -1, -1, 'cargo run', '/home/u/src/standup', 'session-0000', 'laptop:user')",
            [1_795_771_200_i64 * 1_000_000_000],
        )
        .unwrap();
    assert!(home.path().join(".local/share/atuin/history.db-wal").exists());
    let main_file_before = fs_err::read(&db).unwrap();

    let output = read(&home.env(), &only(&[Shell::Atuin]));

    let mut commands: Vec<_> = output.events.iter().map(|event| event.command.as_str()).collect();
    commands.sort_unstable();
    assert_eq!(commands, ["cargo run", "cargo test -p collect"]);
    assert!(fs_err::read(&db).unwrap() == main_file_before, "the database's bytes changed");
    drop(atuin);
}

#[test]
fn atuin_db_path_comes_from_its_config() {
    let home = Home::new();
    atuin_db(&home.path().join("elsewhere/h.db"), ATUIN_SCHEMA, ATUIN_ROWS);
    home.write(
        "conf/atuin/config.toml",
        b"## atuin config\nauto_sync = false\ndb_path = \"~/elsewhere/h.db\"\n",
    );
    let env = home.env().with_var("XDG_CONFIG_HOME", home.path().join("conf").to_str().unwrap());

    let output = read(&env, &only(&[Shell::Atuin]));

    assert_eq!(output.events.len(), 3);
    assert_eq!(status(&output, "atuin").locations, [home.path().join("elsewhere/h.db")]);
}

#[test]
fn atuin_file_that_is_not_a_database_is_unreadable() {
    let home = Home::new();
    home.write(
        ".local/share/atuin/history.db",
        b"this is not a database, just text long enough to have a header\n",
    );

    let output = read(&home.env(), &only(&[Shell::Atuin]));

    assert!(output.events.is_empty());
    assert_eq!(
        warnings(&output, &home),
        [(
            WarningCode::SourceUnreadable,
            "atuin: cannot read `~/.local/share/atuin/history.db`: file is not a database"
                .to_owned()
        )]
    );
    assert!(status(&output, "atuin").found);
}

#[test]
fn commands_atuin_also_recorded_are_counted_once() {
    let home = Home::new();
    atuin_db(&home.path().join(".local/share/atuin/history.db"), ATUIN_SCHEMA, ATUIN_ROWS);
    // zsh's start time may be a second off atuin's.
    home.write(
        ".zsh_history",
        b": 1795770901:0;cargo test -p collect\n: 1795771020:0;git push\n: 1795771025:0;git push\n",
    );

    let output = read(&home.env(), &only(&[Shell::Zsh, Shell::Atuin]));

    let mut events: Vec<_> =
        output.events.iter().map(|event| (event.shell, event.command.as_str())).collect();
    events.sort_unstable();
    assert_eq!(
        events,
        [
            (Shell::Zsh, "git push"),
            (Shell::Atuin, "cargo test -p collect"),
            (Shell::Atuin, "git push"),
            (Shell::Atuin, "make"),
        ]
    );
    assert_eq!(
        status(&output, "zsh").limits,
        ["zsh: 2 commands also recorded by atuin counted once, from atuin"]
    );
}

// Where the files are, and what limits them.

#[test]
fn stale_history_warns_with_the_fix() {
    let home = Home::new();
    let zsh = home.write(".zsh_history", b": 1795161600:0;ls\n");
    let bash = home.write(".bash_history", b"#1795161600\nls\n");
    set_mtime(&zsh, 1_795_161_601);
    set_mtime(&bash, 1_795_161_601);

    let output = read(&home.env(), &only(&[Shell::Zsh, Shell::Bash]));

    assert_eq!(
        warnings(&output, &home),
        [
            (
                WarningCode::HistoryStale,
                "zsh: `~/.zsh_history` has not been written since the report window began, so commands from shells still open are missing (zsh writes its history when a shell exits; `setopt INC_APPEND_HISTORY` writes each command as it runs)".to_owned()
            ),
            (
                WarningCode::HistoryStale,
                "bash: `~/.bash_history` has not been written since the report window began, so commands from shells still open are missing (bash writes its history when a shell exits; `shopt -s histappend` with `PROMPT_COMMAND='history -a'` writes each command as it runs)".to_owned()
            ),
        ]
    );
}

#[test]
fn stale_history_of_another_shell_than_the_login_one_is_only_a_limit() {
    let home = Home::new();
    let zsh = home.write(".zsh_history", b": 1795161600:0;ls\n");
    let bash = home.write(".bash_history", b"#1795161600\nls\n");
    set_mtime(&zsh, 1_795_161_601);
    set_mtime(&bash, 1_795_161_601);
    let env = home.env().with_var("SHELL", "/bin/bash");

    let output = read(&env, &only(&[Shell::Zsh, Shell::Bash]));

    let codes: Vec<_> = output
        .warnings
        .iter()
        .map(|warning| (warning.code(), en(warning)[..5].to_owned()))
        .collect();
    assert_eq!(codes, [(WarningCode::HistoryStale, "bash:".to_owned())]);
    assert_eq!(status(&output, "zsh").notes.len(), 1);
    assert!(en(&status(&output, "zsh").notes[0]).contains("INC_APPEND_HISTORY"));
}

#[test]
fn histfile_with_zsh_lines_is_read_as_zsh_besides_the_defaults() {
    let home = Home::new();
    let histfile = home.write(".histfile", b": 1795770900:0;from histfile\n");
    home.write(".zsh_history", b": 1795770960:0;from default\n");
    home.write(".bash_history", b"#1795771020\nfrom bash\n");
    let env = home.env().with_var("HISTFILE", "~/.histfile");

    let output = read(&env, &only(&[Shell::Zsh, Shell::Bash]));

    assert_eq!(
        output.events,
        [
            event(Shell::Zsh, 1_795_770_900, "from histfile"),
            event(Shell::Zsh, 1_795_770_960, "from default"),
            event(Shell::Bash, 1_795_771_020, "from bash"),
        ]
    );
    let zsh = status(&output, "zsh");
    assert_eq!(zsh.locations, [histfile, home.path().join(".zsh_history")]);
    assert_eq!((zsh.files, zsh.entries), (2, 2));
}

#[test]
fn histfile_with_bash_timestamps_is_read_as_bash() {
    let home = Home::new();
    home.write("hist/commands", b"#1795770900\nfrom histfile\n");
    let env = home
        .env()
        .with_var("HISTFILE", home.path().join("hist/commands").to_str().unwrap())
        .with_var("SHELL", "/bin/zsh");

    let output = read(&env, &ShellConfig::default());

    assert_eq!(output.events, [event(Shell::Bash, 1_795_770_900, "from histfile")]);
    assert_eq!(status(&output, "bash").locations[0], home.path().join("hist/commands"));
}

#[test]
fn config_path_overrides_histfile_and_default() {
    let home = Home::new();
    let configured = home.write("configured_history", b": 1795770900:0;configured\n");
    home.write(".zsh_history", b": 1795770960:0;default\n");
    home.write(".histfile", b": 1795771020:0;histfile\n");
    let env = home.env().with_var("HISTFILE", "~/.histfile");
    let config = ShellConfig { zsh: Some(configured.clone()), ..only(&[Shell::Zsh]) };

    let output = read(&env, &config);

    assert_eq!(output.events, [event(Shell::Zsh, 1_795_770_900, "configured")]);
    assert_eq!(status(&output, "zsh").locations, [configured]);
}

#[test]
fn missing_sources_are_silent() {
    let home = Home::new();

    let output = read(&home.env(), &ShellConfig::default());

    assert!(output.events.is_empty());
    assert!(output.warnings.is_empty());
    let sources: Vec<_> = output
        .statuses
        .iter()
        .map(|status| (status.source.as_str(), status.found, status.files))
        .collect();
    assert_eq!(
        sources,
        [("zsh", false, 0), ("bash", false, 0), ("fish", false, 0), ("atuin", false, 0)]
    );
    // atuin 18.24's default when neither its new nor its legacy folder exists.
    assert_eq!(status(&output, "atuin").locations, [home.path().join(".atuin/data/history.db")]);
}

#[test]
fn disabled_shells_are_not_read() {
    let home = Home::new();
    home.write(".zsh_history", b": 1795770900:0;zsh\n");
    home.write(".bash_history", b"#1795770900\nbash\n");

    let output = read(&home.env(), &only(&[Shell::Bash]));

    assert_eq!(output.events, [event(Shell::Bash, 1_795_770_900, "bash")]);
    assert_eq!(output.statuses.len(), 1);
}

#[test]
fn unreadable_history_is_a_warning_naming_the_file() {
    let home = Home::new();
    fs_err::create_dir_all(home.path().join(".zsh_history")).unwrap();

    let output = read(&home.env(), &only(&[Shell::Zsh]));

    assert!(output.events.is_empty());
    assert_eq!(
        warnings(&output, &home),
        [(
            WarningCode::SourceUnreadable,
            "zsh: cannot read `~/.zsh_history`: it is a directory, not a regular file".to_owned()
        )]
    );
    assert!(status(&output, "zsh").found);
}

#[test]
fn arbitrary_bytes_never_panic() {
    // A small xorshift generator, so the test needs no dependency and is repeatable.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let pieces: &[&[u8]] = &[
        b": ",
        b"1795770900",
        b":",
        b";",
        b"\\",
        b"\n",
        b"\x83",
        b"\x83\n",
        b"#",
        b"#1795770900\n",
        b"- cmd: ",
        b"  when: ",
        b"  paths:\n",
        b"    - ",
        b"\xff\xfe",
        b"\0",
        b"\r\n",
        b"\\n",
        b"\\\\",
        b"99999999999999999999",
    ];
    let home = Home::new();
    let files = [
        (Shell::Zsh, ".zsh_history"),
        (Shell::Bash, ".bash_history"),
        (Shell::Fish, ".local/share/fish/fish_history"),
    ];
    for round in 0..150 {
        let mut bytes = Vec::new();
        for _ in 0..(next() % 64) {
            let roll = next();
            if roll % 4 == 0 {
                bytes.push(u8::try_from(roll >> 56).unwrap());
            } else {
                bytes.extend_from_slice(
                    pieces[usize::try_from(roll % pieces.len() as u64).unwrap()],
                );
            }
        }
        let (shell, file) = files[round % files.len()];
        home.write(file, &bytes);
        let output = read_shell(&home.env(), &only(&[shell]), Timestamp::UNIX_EPOCH);
        assert_eq!(output.statuses.len(), 1);
    }
}

// atuin 18.24: where its database is, and its newer columns.

/// The location atuin's status names, with the home written `~`.
fn atuin_location(env: &Env, home: &Home) -> String {
    let output = read(env, &only(&[Shell::Atuin]));
    let location = status(&output, "atuin").locations[0].display().to_string();
    location.replace(&home.path().display().to_string(), "~")
}

#[test]
fn atuin_18_default_folder_is_preferred_and_the_legacy_one_is_a_fallback() {
    let home = Home::new();
    // Nothing anywhere: the new default.
    assert_eq!(atuin_location(&home.env(), &home), "~/.atuin/data/history.db");
    // Only a legacy folder: atuin keeps using it.
    fs_err::create_dir_all(home.path().join(".local/share/atuin")).unwrap();
    assert_eq!(atuin_location(&home.env(), &home), "~/.local/share/atuin/history.db");
    // A legacy folder under XDG_DATA_HOME.
    let xdg = home.path().join("xdg-data");
    fs_err::create_dir_all(xdg.join("atuin")).unwrap();
    let env = home.env().with_var("XDG_DATA_HOME", xdg.to_str().unwrap());
    assert_eq!(atuin_location(&env, &home), "~/xdg-data/atuin/history.db");
    // A relative XDG_DATA_HOME is ignored, as atuin ignores it.
    let relative = home.env().with_var("XDG_DATA_HOME", "xdg-data");
    assert_eq!(atuin_location(&relative, &home), "~/.local/share/atuin/history.db");
    // Once the new folder exists it wins, legacy folders or not, and the status says
    // that the legacy one is no longer read.
    fs_err::create_dir_all(home.path().join(".atuin/data")).unwrap();
    assert_eq!(atuin_location(&env, &home), "~/.atuin/data/history.db");
    let output = read(&env, &only(&[Shell::Atuin]));
    let limits: Vec<String> = status(&output, "atuin")
        .limits
        .iter()
        .map(|limit| limit.replace(&home.path().display().to_string(), "~"))
        .collect();
    assert_eq!(
        limits,
        [
            "atuin: `~/xdg-data/atuin` is not read: atuin itself uses `~/.atuin/data` since that folder exists"
        ]
    );
    assert!(output.warnings.is_empty());
}

#[test]
fn atuin_home_holds_the_data_and_the_config() {
    let home = Home::new();
    let atuin_home = home.path().join("profiles/work");
    let env = home.env().with_var("ATUIN_HOME", atuin_home.to_str().unwrap());
    // ATUIN_HOME set: its `data`, even when it does not exist and a legacy folder does.
    fs_err::create_dir_all(home.path().join(".local/share/atuin")).unwrap();
    assert_eq!(atuin_location(&env, &home), "~/profiles/work/data/history.db");
    // Its config.toml is the one read, and a relative `db_path` is relative to it.
    home.write("profiles/work/config.toml", b"db_path = \"db/h.db\"\n");
    assert_eq!(atuin_location(&env, &home), "~/profiles/work/db/h.db");
    // A relative ATUIN_HOME is ignored.
    let relative = home.env().with_var("ATUIN_HOME", "profiles/work");
    assert_eq!(atuin_location(&relative, &home), "~/.local/share/atuin/history.db");
}

#[test]
fn atuin_config_is_found_in_the_new_place_then_the_legacy_one() {
    let home = Home::new();
    home.write(".config/atuin/config.toml", b"data_dir = \"~/legacy-config-data\"\n");
    assert_eq!(atuin_location(&home.env(), &home), "~/legacy-config-data/history.db");
    // `~/.atuin/config.toml` hides the legacy one.
    home.write(".atuin/config.toml", b"data_dir = \"atuin-data\"\n");
    assert_eq!(atuin_location(&home.env(), &home), "~/.atuin/atuin-data/history.db");
    // ATUIN_CONFIG_DIR names the folder of config.toml.
    home.write("conf/config.toml", b"db_path = \"/srv/history.db\"\n");
    let env = home.env().with_var("ATUIN_CONFIG_DIR", home.path().join("conf").to_str().unwrap());
    assert_eq!(atuin_location(&env, &home), "/srv/history.db");
    // The variables win over the file.
    let env = env.with_var("ATUIN_DATA_DIR", "/var/atuin");
    assert_eq!(atuin_location(&env, &home), "/srv/history.db");
    let env = home.env().with_var("ATUIN_DATA_DIR", "/var/atuin");
    assert_eq!(atuin_location(&env, &home), "/var/atuin/history.db");
}

/// atuin's `history` table after every migration up to 18.24.
const ATUIN_18_SCHEMA: &str = "
    CREATE TABLE history (
        id text PRIMARY KEY, timestamp integer NOT NULL, duration integer NOT NULL,
        exit integer NOT NULL, command text NOT NULL, cwd text NOT NULL,
        session text NOT NULL, hostname text NOT NULL, unique(timestamp, cwd, command)
    );
    ALTER TABLE history ADD COLUMN deleted_at integer;
    ALTER TABLE history ADD COLUMN author text;
    ALTER TABLE history ADD COLUMN intent text;
    ALTER TABLE history ADD COLUMN shell text;
    ALTER TABLE history ADD COLUMN author_kind integer;
";

/// (command, exit, duration ns, second, author, author kind, hostname).
type NewRow<'a> = (&'a str, i64, i64, i64, Option<&'a str>, Option<i64>, &'a str);

/// (command, exit, duration ns, agent).
type Outcome<'a> = (&'a str, Option<i64>, Option<u64>, Option<&'a str>);

#[test]
fn atuin_exit_duration_and_agents_come_from_the_newer_columns() {
    let home = Home::new();
    let db = home.path().join(".atuin/data/history.db");
    fs_err::create_dir_all(db.parent().unwrap()).unwrap();
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(ATUIN_18_SCHEMA).unwrap();
    let rows: [NewRow<'_>; 6] = [
        ("cargo test", 101, 4_000_000_000, 1, Some("dev"), None, "laptop:dev"),
        ("cargo test -p x", 0, 2_000_000_000, 2, Some("claude-code"), Some(2), "laptop:dev"),
        ("git status", 0, 1_000_000, 3, Some("codex"), None, "laptop:dev"),
        // A user named `pi`: the author is only what atuin defaulted it to.
        ("make", 0, 1_000_000, 4, Some("pi"), None, "laptop:pi"),
        ("cargo run", -1, -1, 5, None, None, "laptop:dev"),
        ("npm test", 1, 5, 6, Some("codex"), Some(1), "laptop:dev"),
    ];
    for (command, exit, duration, second, author, kind, hostname) in rows {
        conn.execute(
            "INSERT INTO history (id, timestamp, duration, exit, command, cwd, session, hostname, author, author_kind, shell)
             VALUES (?1, ?2, ?3, ?4, ?5, '/w', 's', ?6, ?7, ?8, 'zsh')",
            rusqlite::params![
                format!("id{second}"),
                (1_795_770_900 + second) * 1_000_000_000,
                duration,
                exit,
                command,
                hostname,
                author,
                kind
            ],
        )
        .unwrap();
    }
    drop(conn);

    let output = read(&home.env(), &only(&[Shell::Atuin]));

    let mut events = output.events.clone();
    events.sort_by_key(|event| event.time);
    let seen: Vec<Outcome<'_>> = events
        .iter()
        .map(|event| {
            (event.command.as_str(), event.exit, event.duration_ns, event.agent.as_deref())
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("cargo test", Some(101), Some(4_000_000_000), None),
            ("cargo test -p x", Some(0), Some(2_000_000_000), Some("claude-code")),
            ("git status", Some(0), Some(1_000_000), Some("codex")),
            ("make", Some(0), Some(1_000_000), None),
            ("cargo run", None, None, None),
            ("npm test", Some(1), Some(5), None),
        ]
    );
}

#[test]
fn atuin_shell_column_limits_which_history_copy_is_dropped() {
    let home = Home::new();
    let db = home.path().join(".atuin/data/history.db");
    fs_err::create_dir_all(db.parent().unwrap()).unwrap();
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(ATUIN_18_SCHEMA).unwrap();
    conn.execute(
        "INSERT INTO history (id, timestamp, duration, exit, command, cwd, session, hostname, shell)
         VALUES ('a', ?1, 1, 0, 'make', '/w', 's', 'h:u', 'fish')",
        [1_795_770_900_i64 * 1_000_000_000],
    )
    .unwrap();
    drop(conn);
    // The same command at the same second in zsh's history: atuin says it ran in fish,
    // so zsh's copy is another run and is kept; fish's copy is dropped.
    home.write(".zsh_history", b": 1795770900:0;make\n");
    home.write(".local/share/fish/fish_history", b"- cmd: make\n  when: 1795770900\n");

    let output = read(&home.env(), &only(&[Shell::Zsh, Shell::Fish, Shell::Atuin]));

    let mut shells: Vec<Shell> = output.events.iter().map(|event| event.shell).collect();
    shells.sort();
    assert_eq!(shells, [Shell::Zsh, Shell::Atuin]);
}

// What cargo-mutants found loose in the shell readers (docs/mutation/shell.md).

/// The stale-history warnings of two shells, by shell name, with `$SHELL` set to `login`.
fn stale_warnings(login: &str) -> (Vec<String>, usize, usize) {
    let home = Home::new();
    let zsh = home.write(".zsh_history", b": 1795161600:0;ls\n");
    let bash = home.write(".bash_history", b"#1795161600\nls\n");
    set_mtime(&zsh, 1_795_161_601);
    set_mtime(&bash, 1_795_161_601);
    let env = home.env().with_var("SHELL", login);
    let output = read(&env, &only(&[Shell::Zsh, Shell::Bash]));
    let shells = output.warnings.iter().map(|warning| en(warning)[..5].to_owned()).collect();
    (shells, status(&output, "zsh").notes.len(), status(&output, "bash").notes.len())
}

#[test]
fn the_login_shell_alone_warns_of_its_stale_history() {
    // zsh's: only zsh's warns; fish's: neither (both stay notes); none known: both.
    assert_eq!(stale_warnings("/usr/bin/zsh"), (vec!["zsh: ".to_owned()], 1, 1));
    assert_eq!(stale_warnings("/usr/local/bin/fish"), (Vec::new(), 1, 1));
    assert_eq!(stale_warnings("/bin/tcsh").0, ["zsh: ", "bash:"]);
}

#[test]
fn a_stale_history_is_named_by_its_newest_file() {
    let named = |histfile_mtime: u64, default_mtime: u64| {
        let home = Home::new();
        let histfile = home.write(".histfile", b": 1795161600:0;ls\n");
        let default = home.write(".zsh_history", b": 1795161600:0;pwd\n");
        set_mtime(&histfile, histfile_mtime);
        set_mtime(&default, default_mtime);
        let env = home.env().with_var("HISTFILE", "~/.histfile");
        let output = read(&env, &only(&[Shell::Zsh]));
        let warnings = warnings(&output, &home);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        warnings[0].1.split('`').nth(1).unwrap().to_owned()
    };
    assert_eq!(named(1_795_161_601, 1_795_161_700), "~/.zsh_history");
    assert_eq!(named(1_795_161_700, 1_795_161_601), "~/.histfile");
    // Of two written at the same second, the first read.
    assert_eq!(named(1_795_161_601, 1_795_161_601), "~/.histfile");
}

#[test]
fn a_history_written_as_the_window_begins_is_not_stale() {
    let home = Home::new();
    let zsh = home.write(".zsh_history", b": 1795161600:0;ls\n");
    set_mtime(&zsh, SINCE as u64);
    let output = read(&home.env(), &only(&[Shell::Zsh]));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert!(status(&output, "zsh").notes.is_empty());
    set_mtime(&zsh, SINCE as u64 - 1);
    let output = read(&home.env(), &only(&[Shell::Zsh]));
    assert_eq!(output.warnings[0].code(), WarningCode::HistoryStale);
}

#[test]
fn a_histfile_is_told_zsh_by_its_dated_lines_whatever_comes_before() {
    let home = Home::new();
    // A lone `#`, a number and a plain command are no bash timestamp; the zsh line is
    // a zsh one. The name says nothing, and the login shell would say bash.
    home.write("hist/commands", b"#\n12345\nls -la\n: 1795770900:0;from histfile\n");
    let env = home
        .env()
        .with_var("HISTFILE", home.path().join("hist/commands").to_str().unwrap())
        .with_var("SHELL", "/bin/bash");

    let output = read(&env, &only(&[Shell::Zsh, Shell::Bash]));

    assert_eq!(output.events, [event(Shell::Zsh, 1_795_770_900, "from histfile")]);
    assert_eq!(status(&output, "zsh").locations[0], home.path().join("hist/commands"));
    assert_eq!(status(&output, "bash").locations, [home.path().join(".bash_history")]);
}

#[test]
fn zsh_blank_lines_are_no_entries() {
    let home = Home::new();
    home.write(".zsh_history", b": 1795770900:0;ls\n\n\n: 1795770960:0;pwd\n\n");
    let output = read(&home.env(), &only(&[Shell::Zsh]));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(status(&output, "zsh").entries, 2);
}

#[test]
fn zsh_trailing_spaces_stay_unless_they_follow_a_backslash() {
    let home = Home::new();
    // A command of spaces alone, one ending in two spaces, and one ending in a
    // backslash (which zsh writes with one space after it).
    home.write(
        ".zsh_history",
        b": 1795770900:0;   \n: 1795770960:0;ls  \n: 1795771020:0;echo \\\\ \n",
    );
    let output = read(&home.env(), &only(&[Shell::Zsh]));
    let commands: Vec<&str> = output.events.iter().map(|event| event.command.as_str()).collect();
    assert_eq!(commands, ["ls  ", "echo \\\\"]);
}

#[test]
fn a_history_line_past_the_limit_is_named_and_the_rest_read() {
    let home = Home::new();
    let mut text = b": 1795770900:0;ls\n: 1795770960:0;".to_vec();
    text.extend(std::iter::repeat_n(b'x', 300 << 10));
    text.extend_from_slice(b"\n: 1795771020:0;pwd\n");
    home.write(".zsh_history", &text);

    let output = read(&home.env(), &only(&[Shell::Zsh]));

    let commands: Vec<&str> = output.events.iter().map(|event| event.command.as_str()).collect();
    assert_eq!(commands, ["ls", "pwd"]);
    assert_eq!(
        warnings(&output, &home),
        [(
            WarningCode::MalformedLines,
            "zsh: `~/.zsh_history`: 1 line longer than 256 KiB skipped (first at line 2)"
                .to_owned()
        )]
    );
}

/// The longest command kept (`scan::ENTRY_MAX`): four lines' worth of the 256 KiB line cap.
const ENTRY_MAX: usize = 4 * (256 << 10);

/// The one command read from a history, its length and whether it was cut.
fn one_command(home: &Home, shell: Shell) -> (usize, bool) {
    let output = read(&home.env(), &only(&[shell]));
    assert!(output.warnings.is_empty(), "{:?}", output.warnings);
    assert_eq!(output.events.len(), 1);
    (output.events[0].command.len(), output.events[0].truncated)
}

#[test]
fn bash_multi_line_commands_are_kept_up_to_the_entry_cap_exactly() {
    let line = 256 << 10;
    for (last, expected) in [
        // Three full lines, three newlines and the rest: exactly the cap.
        (ENTRY_MAX - 3 * line - 3, (ENTRY_MAX, false)),
        // One byte more: the last line is left out and the command marked cut.
        (ENTRY_MAX - 3 * line - 2, (3 * line + 2, true)),
    ] {
        let home = Home::new();
        let mut text = b"#1795770900\n".to_vec();
        for length in [line, line, line, last] {
            text.extend(std::iter::repeat_n(b'a', length));
            text.push(b'\n');
        }
        home.write(".bash_history", &text);
        assert_eq!(one_command(&home, Shell::Bash), expected, "last line of {last}");
    }
}

#[test]
fn zsh_continued_commands_are_kept_up_to_the_entry_cap_exactly() {
    let line = 256 << 10;
    let prefix = b": 1795770900:0;";
    for (last, expected) in [
        // Four full lines (each backslash read as a newline) and the rest: the cap.
        (15, (ENTRY_MAX, false)),
        (16, (ENTRY_MAX - 15, true)),
    ] {
        let home = Home::new();
        let mut text = prefix.to_vec();
        text.extend(std::iter::repeat_n(b'a', line - prefix.len() - 1));
        text.extend_from_slice(b"\\\n");
        for _ in 0..3 {
            text.extend(std::iter::repeat_n(b'b', line - 1));
            text.extend_from_slice(b"\\\n");
        }
        text.extend(std::iter::repeat_n(b'c', last));
        text.push(b'\n');
        home.write(".zsh_history", &text);
        assert_eq!(one_command(&home, Shell::Zsh), expected, "last line of {last}");
    }
}

#[test]
fn atuin_drops_only_the_copy_of_the_shell_it_names() {
    let home = Home::new();
    let db = home.path().join(".atuin/data/history.db");
    fs_err::create_dir_all(db.parent().unwrap()).unwrap();
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(ATUIN_18_SCHEMA).unwrap();
    for (id, second, command, shell) in
        [("a", 1_795_770_900_i64, "make", "zsh"), ("b", 1_795_770_960, "cargo test", "bash")]
    {
        conn.execute(
            "INSERT INTO history (id, timestamp, duration, exit, command, cwd, session, hostname, shell)
             VALUES (?1, ?2, 1, 0, ?3, '/w', 's', 'h:u', ?4)",
            rusqlite::params![id, second * 1_000_000_000, command, shell],
        )
        .unwrap();
    }
    drop(conn);
    // zsh's clock a second behind atuin's; bash's on it; fish has neither command.
    home.write(".zsh_history", b": 1795770899:0;make\n: 1795770959:0;cargo test\n");
    home.write(".bash_history", b"#1795770900\nmake\n#1795770960\ncargo test\n");
    home.write(".local/share/fish/fish_history", b"- cmd: ls\n  when: 1795770900\n");

    let output = read(&home.env(), &only(&[Shell::Zsh, Shell::Bash, Shell::Fish, Shell::Atuin]));

    let mut kept: Vec<(Shell, &str)> =
        output.events.iter().map(|event| (event.shell, event.command.as_str())).collect();
    kept.sort_unstable();
    assert_eq!(
        kept,
        [
            (Shell::Zsh, "cargo test"),
            (Shell::Bash, "make"),
            (Shell::Fish, "ls"),
            (Shell::Atuin, "cargo test"),
            (Shell::Atuin, "make"),
        ]
    );
    let limits = |source| status(&output, source).limits.clone();
    assert_eq!(limits("zsh"), ["zsh: 1 command also recorded by atuin counted once, from atuin"]);
    assert_eq!(limits("bash"), ["bash: 1 command also recorded by atuin counted once, from atuin"]);
    assert!(limits("fish").is_empty());
}

/// An atuin database whose `history` table has no declared types, so that SQLite keeps
/// each value as written: (timestamp, command).
fn untyped_atuin(home: &Home, rows: &[(rusqlite::types::Value, &str)]) {
    let db = home.path().join(".atuin/data/history.db");
    fs_err::create_dir_all(db.parent().unwrap()).unwrap();
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("CREATE TABLE history (id, timestamp, command);").unwrap();
    for (id, (time, command)) in rows.iter().enumerate() {
        conn.execute(
            "INSERT INTO history (id, timestamp, command) VALUES (?1, ?2, ?3)",
            rusqlite::params![i64::try_from(id).unwrap(), time, command],
        )
        .unwrap();
    }
}

#[test]
fn atuin_times_written_as_text_are_read_and_bounded_by_the_window() {
    use rusqlite::types::Value::{Integer, Text};
    let home = Home::new();
    let ns = |second: i64| second * 1_000_000_000;
    untyped_atuin(
        &home,
        &[
            // Text compares above every integer in SQLite: the reader bounds these.
            (Text(ns(SINCE - 1).to_string()), "before"),
            (Text(ns(SINCE).to_string()), "at the start"),
            (Text(format!(" {} ", ns(SINCE + 60))), "later"),
            (Integer(ns(SINCE + 120)), "   "),
            (Text("yesterday".to_owned()), "no time"),
        ],
    );

    let output = read(&home.env(), &only(&[Shell::Atuin]));

    let commands: Vec<&str> = output.events.iter().map(|event| event.command.as_str()).collect();
    assert_eq!(commands, ["at the start", "later"]);
    assert_eq!(
        warnings(&output, &home),
        [(
            WarningCode::MalformedLines,
            "atuin: 1 row of `~/.atuin/data/history.db` skipped (no usable time or command)"
                .to_owned()
        )]
    );
}

#[test]
fn atuin_rows_of_any_age_are_read_for_a_window_before_1677() {
    use rusqlite::types::Value::Integer;
    let home = Home::new();
    untyped_atuin(&home, &[(Integer(0), "at the epoch"), (Integer(SINCE * 1_000_000_000), "now")]);
    let output = read_shell(&home.env(), &only(&[Shell::Atuin]), Timestamp::MIN);
    assert_eq!(output.events.len(), 2, "{:?}", output.events);
}

#[test]
fn atuin_table_without_a_command_column_is_named() {
    let home = Home::new();
    let db = home.path().join(".atuin/data/history.db");
    fs_err::create_dir_all(db.parent().unwrap()).unwrap();
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch("CREATE TABLE history (id text, timestamp integer);")
        .unwrap();
    let output = read(&home.env(), &only(&[Shell::Atuin]));
    assert_eq!(
        warnings(&output, &home),
        [(
            WarningCode::SourceUnreadable,
            "atuin: cannot read `~/.atuin/data/history.db`: it has no `history` table with `timestamp` and `command` columns".to_owned()
        )]
    );
}

#[test]
fn atuin_legacy_folders_are_named_only_where_atuin_passes_them_by() {
    let limits = |home: &Home, env: &Env| -> Vec<String> {
        let output = read(env, &only(&[Shell::Atuin]));
        status(&output, "atuin")
            .limits
            .iter()
            .map(|limit| limit.replace(&home.path().display().to_string(), "~"))
            .collect()
    };
    let home = Home::new();
    fs_err::create_dir_all(home.path().join(".atuin/data")).unwrap();
    // No legacy folder: nothing to name.
    assert!(limits(&home, &home.env()).is_empty());
    // The database configured elsewhere: the legacy folder is not passed by either.
    fs_err::create_dir_all(home.path().join(".local/share/atuin")).unwrap();
    home.write(".atuin/config.toml", b"db_path = \"~/db/h.db\"\n");
    assert!(limits(&home, &home.env()).is_empty());
    fs_err::remove_file(home.path().join(".atuin/config.toml")).unwrap();
    assert_eq!(
        limits(&home, &home.env()),
        [
            "atuin: `~/.local/share/atuin` is not read: atuin itself uses `~/.atuin/data` since that folder exists"
        ]
    );
}

#[test]
fn atuin_with_an_empty_xdg_data_home_keeps_to_the_legacy_place_as_atuin_does() {
    let home = Home::new();
    // Only `~/.local/share/atuin` exists, and XDG_DATA_HOME names another folder:
    // atuin then takes `$XDG_DATA_HOME/atuin` (`unconfigured_data_dir`).
    fs_err::create_dir_all(home.path().join(".local/share/atuin")).unwrap();
    fs_err::create_dir_all(home.path().join("xdg")).unwrap();
    let env = home.env().with_var("XDG_DATA_HOME", home.path().join("xdg").to_str().unwrap());
    assert_eq!(atuin_location(&env, &home), "~/xdg/atuin/history.db");
}

#[test]
fn atuin_config_that_cannot_be_read_or_parsed_is_named() {
    let home = Home::new();
    atuin_db(&home.path().join(".atuin/data/history.db"), ATUIN_SCHEMA, ATUIN_ROWS);
    // A folder where the config file should be.
    fs_err::create_dir_all(home.path().join(".atuin/config.toml")).unwrap();
    let output = read(&home.env(), &only(&[Shell::Atuin]));
    assert_eq!(output.warnings.len(), 1, "{:?}", output.warnings);
    assert_eq!(
        warnings(&output, &home),
        [(
            WarningCode::SourceUnreadable,
            "atuin: cannot read `~/.atuin/config.toml`: it is a directory, not a regular file; looking for the database in the default place".to_owned()
        )]
    );
    assert_eq!(output.events.len(), 3);
    fs_err::remove_dir(home.path().join(".atuin/config.toml")).unwrap();
    // Not TOML: named with its line; the database is then looked for where nothing
    // configures it, and read.
    home.write(".atuin/config.toml", b"auto_sync = true\ndb_path = \"~/elsewhere.db\n");
    let output = read(&home.env(), &only(&[Shell::Atuin]));
    assert_eq!(
        warnings(&output, &home),
        [(
            WarningCode::SourceUnreadable,
            "atuin: `~/.atuin/config.toml` is not valid TOML (line 2: invalid basic string, expected `\"`); looking for the database in the default place".to_owned()
        )]
    );
    assert_eq!(output.events.len(), 3);
}
