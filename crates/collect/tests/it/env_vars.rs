//! Tidy: the environment variables the readers use are exactly `collect::Env::VARS`, the
//! list the binary captures.

use std::collections::BTreeSet;
use std::path::Path;

/// The names in every `var("NAME")` call (`env.var`, `self.var`) of the crate's sources.
fn names_read(dir: &Path, names: &mut BTreeSet<String>) {
    for entry in fs_err::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            names_read(&path, names);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            let text = fs_err::read_to_string(&path).unwrap();
            // `var("NAME")`, and helpers taking the `Env` first: `abs_var(env, "NAME")`.
            for (index, _) in text.match_indices("var(") {
                if text[..index].ends_with("with_") {
                    continue;
                }
                let mut rest = &text[index + "var(".len()..];
                if let Some(comma) = rest.find(", \"") {
                    let first = &rest[..comma];
                    if first.bytes().all(|byte| byte.is_ascii_alphanumeric() || byte == b'_') {
                        rest = &rest[comma + 2..];
                    }
                }
                let Some(quoted) = rest.strip_prefix('"') else { continue };
                let Some(end) = quoted.find('"') else { continue };
                let name = &quoted[..end];
                if !name.is_empty()
                    && name.bytes().all(|byte| {
                        byte.is_ascii_uppercase() || byte.is_ascii_digit() || byte == b'_'
                    })
                {
                    names.insert(name.to_owned());
                }
            }
        }
    }
}

#[test]
fn readers_use_exactly_the_listed_variables() {
    let mut read = BTreeSet::new();
    names_read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut read);
    let listed: BTreeSet<String> =
        collect::Env::VARS.iter().map(|name| (*name).to_owned()).collect();
    let unlisted: Vec<&String> = read.difference(&listed).collect();
    assert!(
        unlisted.is_empty(),
        "read but not on collect::Env::VARS (the binary would never pass them): {unlisted:?}"
    );
    let unused: Vec<&String> = listed.difference(&read).collect();
    assert!(unused.is_empty(), "on collect::Env::VARS but read by no reader: {unused:?}");
    assert_eq!(listed.len(), collect::Env::VARS.len(), "a name is listed twice");
}
