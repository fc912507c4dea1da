//! `[render] template`: the two example templates of `docs/templates/` through the real
//! binary, escaping by the file's kind, and errors that name the file, line and column.

use std::path::Path;

use crate::support::{Home, ME};

const MONDAY: &str = "2026-11-30T09:30:00+09:00";
const TOKYO: &str = "Asia/Tokyo";

fn example(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/templates").join(name);
    fs_err::read_to_string(path).unwrap()
}

fn home_with(template_name: &str, template: &str) -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    let app = home.repo("app");
    app.commit("a", "parser: accept trailing commas", "2026-11-27T10:00:00+09:00");
    app.commit("b", "fix <b>bold</b> `ticks` #123", "2026-11-30T09:00:00+09:00");
    home.write(&format!(".config/standup/{template_name}"), template);
    home.config(&format!("[render]\ntemplate = \"~/.config/standup/{template_name}\"\n"));
    home
}

#[test]
fn the_english_standup_example() {
    let home = home_with("standup.md.j2", &example("standup.md.j2"));
    let run = home.run(MONDAY, TOKYO, &["standup", "--no-llm"]);
    insta::assert_snapshot!(run.success(), @r"
    **Standup — 2026-11-30**

    *Yesterday*
    - app: parser: accept trailing commas

    *Today*
    - app: fix \<b>bold\</b> \`ticks\` #123
    ");
}

#[test]
fn the_japanese_nippo_example() {
    let home = home_with("nippo.md.j2", &example("nippo.md.j2"));
    let run = home.run(MONDAY, TOKYO, &["daily", "--no-llm", "--date", "2026-11-27"]);
    insta::assert_snapshot!(run.success(), @r"
    # 日報 2026-11-27

    ## 本日の作業

    ### app
    - parser: accept trailing commas（+1 −0）

    ## 明日の予定
    - 

    ## 所感
    - 
    ");
    // `--format` still picks a built-in form over the template.
    let json = home.run(MONDAY, TOKYO, &["daily", "--no-llm", "--format", "json"]);
    assert!(json.success().starts_with('{'));
}

#[test]
fn the_nippo_example_fills_tomorrows_plans_from_the_days_notes() {
    let home = home_with("nippo.md.j2", &example("nippo.md.j2"));
    let mut note = home.command(
        home.path(),
        "2026-11-27T18:00:00+09:00",
        TOKYO,
        &["note", "--plan", "wire the *Slack* output"],
    );
    home.run_command(&mut note).success();
    let run = home.run(MONDAY, TOKYO, &["daily", "--no-llm", "--date", "2026-11-27"]);
    assert!(
        run.success().contains("## 明日の予定\n- wire the \\*Slack\\* output\n\n## 所感"),
        "{}",
        run.stdout
    );
}

#[test]
fn html_and_slack_templates_escape_for_themselves() {
    let template = "{% for c in buckets[0].projects[0].commits %}<li>{{ c.subject }}</li>{{ c.subject | slack }}\n{% endfor %}";
    let home = home_with("mail.html.j2", template);
    let run = home.run(MONDAY, TOKYO, &["daily", "--no-llm"]);
    assert_eq!(
        run.success(),
        "<li>fix &lt;b&gt;bold&lt;&#x2f;b&gt; `ticks` #123</li>fix &lt;b&gt;bold&lt;/b&gt; `ticks` #123\n"
    );
}

#[test]
fn a_template_error_names_file_line_and_column() {
    let home = home_with("bad.md.j2", "# ok\n\n  {{ buckets[0].nope }}\n");
    let run = home.run(MONDAY, TOKYO, &["daily", "--no-llm"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    insta::assert_snapshot!(run.stderr, @"standup: error: template `[HOME]/.config/standup/bad.md.j2` line 3, column 13: undefined value");
    let home = home_with("bad.md.j2", "# ok\n{% for x in buckets %}\n");
    let run = home.run(MONDAY, TOKYO, &["daily", "--no-llm"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    insta::assert_snapshot!(run.stderr, @"standup: error: template `[HOME]/.config/standup/bad.md.j2` line 2, column 21: syntax error: unexpected end of input, expected end of block");
    let home = home_with("gone.md.j2", "x");
    fs_err::remove_file(home.path().join(".config/standup/gone.md.j2")).unwrap();
    let run = home.run(MONDAY, TOKYO, &["daily", "--no-llm"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(
        run.stderr.starts_with(
            "standup: error: cannot read template `[HOME]/.config/standup/gone.md.j2`"
        ),
        "{}",
        run.stderr
    );
}

/// A hostile template is stopped at a limit, exit 2, naming the template and the limit;
/// the run never hangs, never fills memory and never crashes.
#[test]
fn a_hostile_template_is_stopped_at_a_limit() {
    let long_sum = format!("{{{{ {}1 }}}}", "1+".repeat(50_000));
    let cases: [(&str, String, &str); 5] = [
        (
            "doubling.md.j2",
            "{% set ns = namespace(s=\"ab\") %}{% for i in range(34) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}"
                .to_owned(),
            "more than 1024 MiB of memory",
        ),
        (
            "loops.md.j2",
            "{% for a in range(10000) %}{% for b in range(10000) %}{% for c in range(10000) %}{% endfor %}{% endfor %}{% endfor %}"
                .to_owned(),
            "engine ran out of fuel",
        ),
        ("sum.md.j2", long_sum, ""),
        (
            "wide.md.j2",
            "{% for a in range(100000) %}{{ \"x\" * 1000 }}{% endfor %}".to_owned(),
            "output is larger than 16 MiB",
        ),
        ("fine.md.j2", "{{ buckets|length }}".to_owned(), ""),
    ];
    for (name, source, reason) in cases {
        let home = home_with(name, &source);
        let started = std::time::Instant::now();
        let run = home.run(MONDAY, TOKYO, &["daily", "--no-llm"]);
        // Generous against a loaded machine: the limits are 10 s and 1 GiB.
        assert!(started.elapsed() < std::time::Duration::from_secs(40), "{name}");
        if name == "fine.md.j2" {
            assert_eq!(run.code, 0, "{name}: {}", run.snapshot());
            assert_eq!(run.stdout, "1");
            continue;
        }
        assert_eq!(run.code, 2, "{name}: {}", run.snapshot());
        assert!(run.stdout.is_empty(), "{name}");
        assert!(
            run.stderr
                .starts_with(&format!("standup: error: template `[HOME]/.config/standup/{name}`")),
            "{name}: {}",
            run.stderr
        );
        assert!(run.stderr.contains(reason), "{name}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{name}: {}", run.stderr);
    }
}

/// A FIFO or a device as the template is refused at once; so is a huge file.
#[test]
fn a_template_that_is_not_a_sane_file_is_refused() {
    let home = home_with("t.md.j2", "x");
    let fifo = home.path().join(".config/standup/fifo.md.j2");
    #[expect(clippy::disallowed_methods, reason = "the test makes a FIFO with coreutils")]
    let status = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    let huge = home.path().join(".config/standup/huge.md.j2");
    fs_err::File::create(&huge).unwrap().set_len(64 << 20).unwrap();
    for (path, reason) in [
        (fifo.display().to_string(), "not a regular file"),
        ("/dev/zero".to_owned(), "not a regular file"),
        (huge.display().to_string(), "larger than 1024 KiB"),
    ] {
        home.config(&format!("[render]\ntemplate = \"{path}\"\n"));
        let run = home.run(MONDAY, TOKYO, &["daily", "--no-llm"]);
        assert_eq!(run.code, 2, "{path}: {}", run.snapshot());
        assert!(run.stderr.contains("cannot read template"), "{path}: {}", run.stderr);
        assert!(run.stderr.contains(reason), "{path}: {}", run.stderr);
    }
}
