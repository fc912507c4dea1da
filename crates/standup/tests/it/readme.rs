//! The README shows what the binary prints: its example reports are the demo home's
//! standup (`cargo xtask demo`), byte for byte, so a change to the report that the README
//! does not follow fails here.

use std::path::Path;

use crate::support::{DEMO_NOW, demo_home};

/// The bodies of the README's ```` ```markdown ```` blocks, in order, each ending in a
/// newline as the binary's output does.
fn markdown_blocks(readme: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut open: Option<String> = None;
    for line in readme.lines() {
        match &mut open {
            None if line == "```markdown" => open = Some(String::new()),
            None => {}
            Some(_) if line == "```" => blocks.extend(open.take()),
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
        }
    }
    assert!(open.is_none(), "a ```markdown block of the README is not closed");
    blocks
}

#[test]
fn the_readme_examples_are_what_the_demo_home_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = fs_err::read_to_string(root.join("README.md")).unwrap();
    let blocks = markdown_blocks(&readme);
    assert_eq!(blocks.len(), 2, "the README shows the standup in English, then in Japanese");
    let home = demo_home();
    for (lang, shown) in ["en", "ja"].into_iter().zip(&blocks) {
        let run = home.run(DEMO_NOW, "Asia/Tokyo", &["standup", "--no-llm", "--lang", lang]);
        let printed = run.success();
        assert!(
            printed == shown,
            "README.md's `--lang {lang}` example is not what `cargo xtask demo` prints; \
             replace it with:\n{printed}"
        );
    }
}

#[test]
fn markdown_blocks_are_read_whole_and_in_order() {
    let readme = "intro\n```markdown\n# A\n\n- b\n```\n```sh\nls\n```\n```markdown\nc\n```\n";
    assert_eq!(markdown_blocks(readme), ["# A\n\n- b\n", "c\n"]);
}
