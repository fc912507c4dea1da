//! Repositories of one folder name (`~/src/acme/api` and `~/src/oss/api`): each project
//! is named with the folders that tell it apart, in every output, in the narrative's
//! payload, and in a published day only where its paths are published.

use serde_json::Value;

use crate::support::{Home, ME};

const NOW: &str = "2026-11-27T18:00:00+09:00";
const TOKYO: &str = "Asia/Tokyo";

/// Two repositories named `api` and one named `tool`, a commit in each today.
fn home() -> Home {
    let home = Home::new();
    home.git_identity(ME.email, ME.name);
    for (at, (folder, subject)) in
        [("acme/api", "acme: retry"), ("oss/api", "oss: docs"), ("acme/tool", "tool: lint")]
            .iter()
            .enumerate()
    {
        home.repo(folder).commit("f", subject, &format!("2026-11-27T1{at}:00:00+09:00"));
    }
    home
}

fn headings(markdown: &str) -> Vec<&str> {
    markdown.lines().filter(|line| line.starts_with("## ")).collect()
}

#[test]
fn repositories_of_one_name_are_told_apart_in_every_output() {
    let home = home();
    let en = home.run(NOW, TOKYO, &["daily", "--no-llm", "--lang", "en"]);
    assert_eq!(
        headings(en.success()),
        [
            "## tool · 1 commit (+1 −0, 1 file) · ≈ 10 min, 12:00",
            "## api (oss) · 1 commit (+1 −0, 1 file) · ≈ 10 min, 11:00",
            "## api (acme) · 1 commit (+1 −0, 1 file) · ≈ 10 min, 10:00",
        ]
    );
    let ja = home.run(NOW, TOKYO, &["daily", "--no-llm", "--lang", "ja"]);
    let ja: Vec<&str> =
        headings(ja.success()).into_iter().map(|line| line.split(" · ").next().unwrap()).collect();
    assert_eq!(ja, ["## tool", "## api（oss）", "## api（acme）"]);
    let json = home.run(NOW, TOKYO, &["daily", "--no-llm", "--format", "json"]);
    let report: Value = serde_json::from_str(json.success()).unwrap();
    let named: Vec<(&str, Option<&str>)> = report["buckets"][0]["projects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|project| (project["name"].as_str().unwrap(), project["qualifier"].as_str()))
        .collect();
    assert_eq!(named, [("tool", None), ("api", Some("oss")), ("api", Some("acme"))]);
    // The model is given one name per project, the name the report shows.
    let prompt = home.run(NOW, TOKYO, &["daily", "--show-prompt"]);
    for name in ["\"name\":\"api (oss)\"", "\"name\":\"api (acme)\"", "\"name\":\"tool\""] {
        assert!(prompt.success().contains(name), "{name} in {}", prompt.success());
    }
}

#[test]
fn a_published_day_names_the_folders_only_with_its_paths() {
    let home = home();
    home.config(&format!(
        "[identity]\nemails = [\"{}\"]\nname = \"me\"\n[ledger]\ndir = \"~/team\"\n",
        ME.email
    ));
    let published = |home: &Home| -> Vec<(String, Option<String>, String)> {
        let run = home.run(NOW, TOKYO, &["publish", "--show-what-is-published"]);
        let report: Value = serde_json::from_str(run.success()).unwrap();
        report["buckets"][0]["projects"]
            .as_array()
            .unwrap()
            .iter()
            .map(|project| {
                (
                    project["name"].as_str().unwrap().to_owned(),
                    project["qualifier"].as_str().map(str::to_owned),
                    project["path"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    // The default: no paths, so not the folders above a project either.
    let without = published(&home);
    assert!(without.iter().all(|(_, qualifier, _)| qualifier.is_none()), "{without:?}");
    assert!(without.iter().all(|(name, _, path)| name == path), "{without:?}");
    home.config(&format!(
        "[identity]\nemails = [\"{}\"]\nname = \"me\"\n[ledger]\ndir = \"~/team\"\n\
         [publish]\nallow = [\"projects\", \"commits\", \"paths\"]\n",
        ME.email
    ));
    let with: Vec<(String, Option<String>)> =
        published(&home).into_iter().map(|(name, qualifier, _)| (name, qualifier)).collect();
    let named =
        |name: &str, qualifier: Option<&str>| (name.to_owned(), qualifier.map(str::to_owned));
    assert_eq!(with, [named("tool", None), named("api", Some("oss")), named("api", Some("acme"))]);
}

#[test]
fn the_example_templates_name_the_folders_too() {
    let home = home();
    let template = fs_err::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/templates/nippo.md.j2"
    ))
    .unwrap();
    home.write(".config/standup/nippo.md.j2", &template);
    home.config("[render]\ntemplate = \"~/.config/standup/nippo.md.j2\"\n");
    let run = home.run(NOW, TOKYO, &["daily", "--no-llm"]);
    let headings: Vec<&str> =
        run.success().lines().filter(|line| line.starts_with("### ")).collect();
    assert_eq!(headings, ["### tool", "### api（oss）", "### api（acme）"]);
}
