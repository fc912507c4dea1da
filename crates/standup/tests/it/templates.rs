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
