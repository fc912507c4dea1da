//! Projects of one name told apart.
//!
//! A project is named after its folder, and two repositories of a machine often share a
//! folder name (`~/src/acme/web/api` and `~/src/oss/web/api`, a fork beside the
//! original, two clones of one repository). A report that showed both as `api` could not
//! be read, and the narrative could not be checked against it. Each project whose name
//! another project of the report (any day of it, or its open work) shares gets a
//! qualifier: the fewest last folders of its path's parent that differ between all the
//! projects of that name, as many for each of them (`acme/web`, `oss/web`), so the same
//! project reads the same on every day of the report.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use report_model::Report;

/// Sets the `qualifier` of every project of `report` (each bucket's and each open work's):
/// `None` where its name is the report's only project of that name; any qualifier set
/// before is replaced (a merged report is qualified again as a whole).
pub(crate) fn qualify(report: &mut Report) {
    let mut by_name: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    let named = report
        .buckets
        .iter()
        .flat_map(|bucket| bucket.projects.iter().map(|project| (&project.name, &project.path)))
        .chain(report.outlook.open_work.iter().map(|open| (&open.name, &open.path)));
    for (name, path) in named {
        // The sessions of no known folder are one project, never qualified.
        if name.is_empty() || path.as_os_str().is_empty() {
            continue;
        }
        let paths = by_name.entry(name.clone()).or_default();
        if !paths.contains(path) {
            paths.push(path.clone());
        }
    }
    let mut qualifiers: BTreeMap<PathBuf, String> = BTreeMap::new();
    for paths in by_name.into_values().filter(|paths| paths.len() > 1) {
        for (path, qualifier) in paths.iter().zip(apart(&paths)) {
            qualifiers.insert(path.clone(), qualifier);
        }
    }
    let of = |path: &Path| qualifiers.get(path).cloned();
    for bucket in &mut report.buckets {
        for project in &mut bucket.projects {
            project.qualifier = of(&project.path);
        }
    }
    for open in &mut report.outlook.open_work {
        open.qualifier = of(&open.path);
    }
}

/// For projects of one name at `paths` (two or more, all different): the last `k` folders
/// of each path's parent joined by `/`, with the smallest `k` that makes them all differ
/// (a parent with fewer folders gives all it has; the root alone is `/`).
fn apart(paths: &[PathBuf]) -> Vec<String> {
    let parents: Vec<Vec<String>> = paths
        .iter()
        .map(|path| {
            path.parent()
                .into_iter()
                .flat_map(Path::components)
                .filter_map(|component| match component {
                    Component::Normal(folder) => Some(folder.to_string_lossy().into_owned()),
                    _ => None,
                })
                .collect()
        })
        .collect();
    let deepest = parents.iter().map(Vec::len).max().unwrap_or(0);
    let tails = |k: usize| -> Vec<String> {
        parents
            .iter()
            .map(|folders| {
                let tail = folders[folders.len().saturating_sub(k)..].join("/");
                if tail.is_empty() { "/".to_owned() } else { tail }
            })
            .collect()
    };
    for k in 1..=deepest {
        let found = tails(k);
        if found.iter().collect::<BTreeSet<_>>().len() == found.len() {
            return found;
        }
    }
    // Parents alike to the last folder (paths that differ only in their form, as `a/./b`
    // and `a/b` can): the whole paths tell them apart.
    paths.iter().map(|path| path.display().to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::apart;
    use std::path::PathBuf;

    fn of(paths: &[&str]) -> Vec<String> {
        apart(&paths.iter().map(PathBuf::from).collect::<Vec<_>>())
    }

    #[test]
    fn the_fewest_last_folders_that_differ_for_all() {
        assert_eq!(of(&["/h/src/acme/api", "/h/src/oss/api"]), ["acme", "oss"]);
        // `web` twice: one folder is not enough for the three.
        assert_eq!(
            of(&["/h/src/acme/web/lib", "/h/src/personal/web/lib", "/h/src/personal/search/lib"]),
            ["acme/web", "personal/web", "personal/search"]
        );
    }

    #[test]
    fn a_shallower_parent_gives_all_it_has() {
        assert_eq!(of(&["/x/api", "/h/x/api"]), ["x", "h/x"]);
        assert_eq!(of(&["/api", "/h/api"]), ["/", "h"]);
    }

    #[test]
    fn paths_alike_but_for_their_form_are_told_apart_whole() {
        assert_eq!(of(&["/h/./api", "/h/api"]), ["/h/./api", "/h/api"]);
    }
}
