//! The clean step on plain data: what comes out, and what is counted.

use std::path::PathBuf;

use collect::SourceStatus;
use collect::gather::Gathered;
use redact::Redactor;
use report_model::{
    Commit, CommitEvent, MaskedCount, MaskedSource, ProjectRef, SessionEvent, Shell, ShellEvent,
    Source, Warning, WarningDetail,
};

const OSC: &str = "\u{1b}]0;title\u{7}";
const TOKEN: &str = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789";

fn project(name: &str) -> ProjectRef {
    ProjectRef { name: name.to_owned(), path: PathBuf::from(format!("/home/me/src/{name}")) }
}

fn commit(project: &ProjectRef, hash: &str, subject: &str) -> CommitEvent {
    CommitEvent {
        project: project.clone(),
        commit: Commit {
            machines: Vec::new(),
            hash: hash.to_owned(),
            subject: subject.to_owned(),
            truncated: false,
            author_time: "2026-11-27T01:00:00Z".parse().unwrap(),
            files_changed: 1,
            insertions: 1,
            deletions: 0,
            merge: false,
            branches: Vec::new(),
            remote_branches: Vec::new(),
            unpushed: false,
        },
    }
}

fn masked(gathered: &mut Gathered) -> Vec<(MaskedSource, u64)> {
    clean::clean_gathered(gathered, &Redactor::builtin(), 500)
        .into_iter()
        .map(|MaskedCount { source, count }| (source, count))
        .collect()
}

#[test]
fn a_token_in_a_folder_name_is_one_secret_however_many_commits() {
    let repo = project(TOKEN);
    let mut gathered = Gathered::default();
    gathered.activity.commits =
        vec![commit(&repo, "a", "one"), commit(&repo, "b", "two"), commit(&repo, "c", "three")];
    assert_eq!(masked(&mut gathered), [(MaskedSource::Git, 1)]);
    for event in &gathered.activity.commits {
        assert_eq!(event.project.name, "[REDACTED:github-pat]");
        assert_eq!(event.project.path, PathBuf::from("/home/me/src/[REDACTED:github-pat]"));
    }
}

#[test]
fn distinct_secrets_are_each_counted_in_the_first_source_showing_them() {
    let repo = project("app");
    let mut gathered = Gathered::default();
    gathered.activity.commits = vec![
        commit(&repo, "a", &format!("rotate {TOKEN}")),
        commit(&repo, "b", "password=Fake-pa55w0rd"),
    ];
    gathered.activity.shell = vec![ShellEvent {
        shell: Shell::Zsh,
        time: "2026-11-27T01:00:00Z".parse().unwrap(),
        command: format!("export GITHUB_TOKEN={TOKEN}"),
        truncated: false,
        cwd: None,
        project: None,
        exit: None,
        duration_ns: None,
        agent: Some(format!("{OSC}claude-code")),
    }];
    gathered.warnings = vec![Warning::new(WarningDetail::Git {
        path: format!("/x/{TOKEN}"),
        error: "exit status 128".to_owned(),
    })];
    assert_eq!(
        masked(&mut gathered),
        [(MaskedSource::Git, 2), (MaskedSource::Shell, 1), (MaskedSource::Warnings, 1)]
    );
    assert_eq!(gathered.warnings[0].detail.path(), Some("/x/[REDACTED:github-pat]"));
    assert_eq!(gathered.activity.shell[0].agent.as_deref(), Some("claude-code"));
}

#[test]
fn escapes_leave_paths_statuses_warnings_and_the_identity() {
    let evil = "a\u{1b}]52;c;aGVsbG8=\u{7}b\u{1b}]0;title\u{7}c\u{1b}[31md";
    let mut gathered = Gathered::default();
    let repo = project(evil);
    gathered.activity.commits = vec![commit(&repo, "a", evil)];
    gathered.activity.sessions = vec![SessionEvent {
        agent: report_model::Agent::Codex,
        session_id: evil.to_owned(),
        title: evil.to_owned(),
        truncated: false,
        cwd: Some(PathBuf::from(evil)),
        project: Some(repo.clone()),
        prompts: Vec::new(),
        activity: Vec::new(),
        models: vec![evil.to_owned()],
        branch: Some(evil.to_owned()),
        todos: vec![report_model::Todo {
            text: evil.to_owned(),
            status: report_model::TodoStatus::Pending,
        }],
        todos_time: None,
        interrupted: None,
        failed_commands: Vec::new(),
    }];
    gathered.activity.commits[0].commit.branches = vec![evil.to_owned()];
    gathered.activity.commits[0].commit.remote_branches = vec![format!("origin/{TOKEN}")];
    gathered.activity.wip = vec![report_model::WipEvent {
        project: repo.clone(),
        files: vec![report_model::WipFile {
            path: format!("{evil}/{TOKEN}"),
            modified: "2026-11-27T01:00:00Z".parse().unwrap(),
        }],
        stashes: vec![report_model::WipStash {
            time: "2026-11-27T01:00:00Z".parse().unwrap(),
            message: evil.to_owned(),
        }],
        ahead: vec![report_model::AheadBranch {
            name: format!("{evil}/{TOKEN}"),
            commits: 3,
            newest: "2026-11-22T01:00:00Z".parse().unwrap(),
        }],
        stopped: None,
    }];
    let mut read = collect::git::RepoRead {
        below_skew: 0,
        project: repo.clone(),
        identity: collect::git::Identity { emails: vec![evil.to_owned()], names: Vec::new() },
        left_out: collect::git::LeftOut::default(),
        commits: 0,
        remote: None,
    };
    read.left_out.by_email.insert(evil.to_owned(), 2);
    gathered.repo_reads = vec![read];
    let mut status = SourceStatus::new(Source::Git);
    status.locations = vec![PathBuf::from(format!("/home/{evil}/{TOKEN}"))];
    status.limits = vec![format!("cannot read `{evil}`")];
    gathered.statuses = vec![status];
    gathered.warnings = vec![Warning::new(WarningDetail::Unreadable {
        shell: None,
        path: evil.to_owned(),
        error: evil.to_owned(),
    })];
    gathered.identity.names = vec![evil.to_owned()];
    let masked = masked(&mut gathered);
    let text = format!("{gathered:?}");
    assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'), "{text}");
    assert!(!text.contains(TOKEN), "{text}");
    assert_eq!(gathered.activity.commits[0].project.name, "abcd");
    assert_eq!(
        gathered.statuses[0].locations[0],
        PathBuf::from("/home/abcd/[REDACTED:github-pat]")
    );
    assert_eq!(gathered.statuses[0].limits[0], "cannot read `abcd`");
    assert_eq!(gathered.identity.names[0], "abcd");
    assert_eq!(gathered.activity.sessions[0].models, ["abcd"]);
    // The branches, uncommitted paths and stash messages of the report, and what doctor
    // shows of each repository, are cleaned too; the report's ones are counted.
    assert_eq!(masked, [(MaskedSource::Git, 2)]);
    assert_eq!(gathered.activity.commits[0].commit.branches, ["abcd"]);
    assert_eq!(gathered.activity.sessions[0].branch.as_deref(), Some("abcd"));
    assert_eq!(gathered.activity.wip[0].files[0].path, "abcd/[REDACTED:github-pat]");
    assert_eq!(gathered.activity.wip[0].ahead[0].name, "abcd/[REDACTED:github-pat]");
    assert_eq!(gathered.repo_reads[0].left_out.by_email.get("abcd"), Some(&2));
}

#[test]
fn todo_items_are_cleaned_masked_counted_and_shortened() {
    let repo = project("app");
    let mut gathered = Gathered::default();
    let todo =
        |text: String| report_model::Todo { text, status: report_model::TodoStatus::Pending };
    gathered.activity.sessions = vec![SessionEvent {
        agent: report_model::Agent::ClaudeCode,
        session_id: "s1".to_owned(),
        title: "t".to_owned(),
        truncated: false,
        cwd: None,
        project: Some(repo),
        prompts: Vec::new(),
        activity: Vec::new(),
        models: Vec::new(),
        branch: None,
        todos: vec![
            todo(format!("rotate\u{1b}[31m {TOKEN}\nthen\tdeploy")),
            todo("word ".repeat(40)),
        ],
        todos_time: None,
        interrupted: None,
        failed_commands: Vec::new(),
    }];
    let masked = masked(&mut gathered);
    let todos = &gathered.activity.sessions[0].todos;
    assert_eq!(todos[0].text, "rotate [REDACTED:github-pat] then deploy");
    assert_eq!(todos[1].text.chars().count(), collect::sessions::TITLE_MAX_CHARS);
    assert!(todos[1].text.ends_with('…'));
    assert_eq!(masked, [(MaskedSource::Sessions, 1)]);
}

#[test]
fn an_agents_failed_commands_are_cleaned_masked_counted_and_shortened() {
    let repo = project("app");
    let mut gathered = Gathered::default();
    let time = "2026-11-27T01:00:00Z".parse().expect("a timestamp");
    let failed = |command: String| report_model::FailedCommand {
        command,
        runs: vec![report_model::FailedRun { time, exit: 1 }],
        last: false,
    };
    gathered.activity.sessions = vec![SessionEvent {
        agent: report_model::Agent::Codex,
        session_id: "s1".to_owned(),
        title: "t".to_owned(),
        truncated: false,
        cwd: None,
        project: Some(repo),
        prompts: Vec::new(),
        activity: Vec::new(),
        models: Vec::new(),
        branch: None,
        todos: Vec::new(),
        todos_time: None,
        interrupted: None,
        failed_commands: vec![
            failed(format!("GH_TOKEN={TOKEN}\u{1b}[31m gh\tapi")),
            failed("cargo test ".repeat(20)),
        ],
    }];
    let masked = masked(&mut gathered);
    let commands = &gathered.activity.sessions[0].failed_commands;
    assert_eq!(commands[0].command, "GH_TOKEN=[REDACTED:github-pat] gh api");
    assert!(commands[1].command.chars().count() <= collect::sessions::TITLE_MAX_CHARS);
    assert!(commands[1].command.ends_with("test…"), "{}", commands[1].command);
    assert_eq!(masked, [(MaskedSource::Sessions, 1)]);
}

#[test]
fn subjects_are_capped_after_redaction_and_marked() {
    let repo = project("app");
    let mut gathered = Gathered::default();
    gathered.activity.commits =
        vec![commit(&repo, "a", &format!("{} {TOKEN} tail", "x".repeat(30)))];
    clean::clean_gathered(&mut gathered, &Redactor::builtin(), 40);
    let commit = &gathered.activity.commits[0].commit;
    assert_eq!(commit.subject.chars().count(), 40, "{}", commit.subject);
    assert!(commit.subject.ends_with('…') && !commit.subject.contains("ghp_"));
    assert!(commit.truncated);
}

#[cfg(unix)]
#[test]
fn a_path_that_is_not_utf8_becomes_its_lossy_text() {
    use std::os::unix::ffi::OsStrExt as _;
    let raw = std::ffi::OsStr::from_bytes(b"/home/me/src/caf\xe9\x9b[31m");
    let mut gathered = Gathered::default();
    let mut status = SourceStatus::new(Source::Git);
    status.locations = vec![PathBuf::from(raw)];
    gathered.statuses = vec![status];
    masked(&mut gathered);
    let location = gathered.statuses[0].locations[0].to_str().expect("UTF-8 now");
    assert_eq!(location, "/home/me/src/caf\u{fffd}[31m");
}

#[test]
fn quoted_input_is_clean_masked_and_short() {
    assert_eq!(clean::quote("\u{1b}]52;c;aGk=\u{7}en"), "en");
    assert_eq!(clean::quote(TOKEN), "[REDACTED:github-pat]");
    assert_eq!(clean::quote("a\nb\tc"), "a b c");
    let long = clean::quote(&"x".repeat(500));
    assert_eq!(long.chars().count(), clean::QUOTE_MAX_CHARS);
    assert!(long.ends_with('…'));
    assert_eq!(clean::message(&format!("a\u{1b}[2Jb {TOKEN}")), "ab [REDACTED:github-pat]");
}

#[test]
fn every_string_inside_a_warnings_detail_is_masked_and_counted_and_its_doctor_note_too() {
    let mut gathered = Gathered::default();
    let failed = |path: &str| {
        Warning::new(WarningDetail::MachineUnreachable {
            machine: path.to_owned(),
            error: format!("ssh: connect failed, token {TOKEN}{OSC}"),
        })
    };
    let stale = Warning::new(WarningDetail::StoppedEarly {
        shell: Shell::Zsh,
        path: format!("/home/me/{}", "a".repeat(400)),
        error: format!("Input/output error (password=Fake-pa55w0rd){OSC}"),
    });
    gathered.warnings = vec![failed("devbox"), stale.clone()];
    let mut status = SourceStatus::new(Source::Zsh);
    status.notes = vec![stale];
    gathered.statuses = vec![status];
    let counted = masked(&mut gathered);
    assert_eq!(counted, [(MaskedSource::Warnings, 2)]);
    let WarningDetail::MachineUnreachable { error, .. } = &gathered.warnings[0].detail else {
        panic!("{:?}", gathered.warnings[0]);
    };
    assert_eq!(error, "ssh: connect failed, token [REDACTED:github-pat]");
    let WarningDetail::StoppedEarly { path, error, .. } = &gathered.warnings[1].detail else {
        panic!("{:?}", gathered.warnings[1]);
    };
    assert!(!error.contains("Fake-pa55w0rd") && !error.contains('\u{1b}'), "{error}");
    // A quoted path is shortened to one readable line; the doctor's note is the same
    // warning, cleaned the same way.
    assert!(path.chars().count() <= clean::WARNING_QUOTE_MAX_CHARS, "{path}");
    assert_eq!(gathered.statuses[0].notes[0], gathered.warnings[1]);
}
