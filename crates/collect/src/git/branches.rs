//! Which branches hold each commit, from the same `git log` that lists the commits:
//! it prints each commit's parents and the branch tips decorating it, and containment
//! is a walk in memory from each tip. No process of its own.
//!
//! A branch whose tip is older than the window cannot hold a commit of the window (its
//! ancestors are older still), so the walk bounded by `--since` sees every tip that
//! matters. Measured against one `git branch -a --contains` per commit in
//! `docs/decisions.md`.

use std::collections::BTreeMap;

use super::listed::Listed;

/// The branches containing each commit: local names first, then remote-tracking ones
/// (`origin/main`), each sorted; plus whether a remote-tracking branch contains it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Containment {
    pub(crate) by_commit: BTreeMap<String, Contained>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Contained {
    pub(crate) local: Vec<String>,
    pub(crate) remote: Vec<String>,
}

/// Containment of every commit of the walk in the local and remote-tracking branches
/// whose tips are in it (its `refs/heads/` and `refs/remotes/` decorations; a remote's
/// `HEAD` is not a branch).
pub(crate) fn containment(nodes: &[Listed]) -> Containment {
    let mut tips: Vec<(String, bool, usize)> = Vec::new();
    for (index, node) in nodes.iter().enumerate() {
        for name in &node.refs {
            if let Some(local) = name.strip_prefix("refs/heads/") {
                tips.push((local.to_owned(), false, index));
            } else if let Some(remote) = name.strip_prefix("refs/remotes/") {
                if !remote.ends_with("/HEAD") {
                    tips.push((remote.to_owned(), true, index));
                }
            }
        }
    }
    if tips.is_empty() {
        return Containment::default();
    }
    let position: BTreeMap<&str, usize> =
        nodes.iter().enumerate().map(|(index, node)| (node.hash.as_str(), index)).collect();
    let edges: Vec<Vec<usize>> = nodes
        .iter()
        .map(|node| {
            node.parents
                .iter()
                .filter_map(|parent| position.get(parent.as_str()).copied())
                .collect()
        })
        .collect();
    tips.sort();
    let mut contained: Vec<Contained> = vec![Contained::default(); nodes.len()];
    let mut seen = vec![usize::MAX; nodes.len()];
    for (tip_number, (name, remote, tip)) in tips.iter().enumerate() {
        let mut stack = vec![*tip];
        while let Some(index) = stack.pop() {
            if seen[index] == tip_number {
                continue;
            }
            seen[index] = tip_number;
            let list =
                if *remote { &mut contained[index].remote } else { &mut contained[index].local };
            list.push(name.clone());
            stack.extend(edges[index].iter().copied().filter(|parent| seen[*parent] != tip_number));
        }
    }
    Containment {
        by_commit: nodes
            .iter()
            .zip(contained)
            .map(|(node, contained)| (node.hash.clone(), contained))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containment_follows_parents_from_each_tip() {
        // c3 (feature) -> c2 (main, origin/main) -> c1; c4 (topic) -> c1.
        let node = |hash: &str, parents: &[&str], refs: &[&str]| Listed {
            hash: hash.to_owned(),
            parents: parents.iter().map(|parent| (*parent).to_owned()).collect(),
            refs: refs.iter().map(|name| (*name).to_owned()).collect(),
            author_time: None,
            email: String::new(),
            name: String::new(),
            mapped_email: String::new(),
            mapped_name: String::new(),
            subject: String::new(),
        };
        let nodes = [
            node("c3", &["c2"], &["refs/heads/feature"]),
            node("c4", &["c1"], &["HEAD", "refs/heads/topic"]),
            node(
                "c2",
                &["c1"],
                &["refs/heads/main", "refs/remotes/origin/HEAD", "refs/remotes/origin/main"],
            ),
            node("c1", &["old"], &[]),
        ];
        let containment = containment(&nodes);
        let get = |hash: &str| containment.by_commit[hash].clone();
        assert_eq!(get("c3").local, ["feature"]);
        assert!(get("c3").remote.is_empty());
        assert_eq!(get("c2").local, ["feature", "main"]);
        assert_eq!(get("c2").remote, ["origin/main"]);
        assert_eq!(get("c1").local, ["feature", "main", "topic"]);
        assert_eq!(get("c4").local, ["topic"]);
    }
}
