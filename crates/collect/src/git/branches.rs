//! Which branches hold each commit, from the same `git log` that lists the commits:
//! it prints each commit's parents and the branch tips decorating it, and containment
//! is a walk in memory from each tip. No process of its own.
//!
//! A branch whose tip is older than the window cannot hold a commit of the window (its
//! ancestors are older still), so the walk bounded by `--since` sees every tip that
//! matters. Measured against one `git branch -a --contains` per commit in
//! `docs/decisions.md`.

use std::collections::BTreeMap;

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

/// One commit of the walk: its hash, its parents, and the refs decorating it
/// (`%D` with `--decorate=full`, e.g. `HEAD -> refs/heads/main, refs/remotes/origin/main`).
pub(crate) struct Node<'a> {
    pub(crate) hash: &'a str,
    pub(crate) parents: &'a str,
    pub(crate) refs: &'a str,
}

/// Containment of every commit of the walk in the local and remote-tracking branches
/// whose tips are in it.
pub(crate) fn containment(nodes: &[Node<'_>]) -> Containment {
    let mut tips: Vec<(String, bool, usize)> = Vec::new();
    for (index, node) in nodes.iter().enumerate() {
        for name in node.refs.split(", ").map(str::trim) {
            // `HEAD -> refs/heads/main` when HEAD is decorated too.
            let name = name.rsplit(" -> ").next().unwrap_or(name);
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
        nodes.iter().enumerate().map(|(index, node)| (node.hash, index)).collect();
    let edges: Vec<Vec<usize>> = nodes
        .iter()
        .map(|node| {
            node.parents.split(' ').filter_map(|parent| position.get(parent).copied()).collect()
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
            .map(|(node, contained)| (node.hash.to_owned(), contained))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn containment_follows_parents_from_each_tip() {
        // c3 (feature) -> c2 (main, origin/main) -> c1; c4 (topic) -> c1.
        let stdout = "\u{1e}c3\0c2\0refs/heads/feature\n\u{1e}c4\0c1\0HEAD -> refs/heads/topic\n\u{1e}c2\0c1\0refs/remotes/origin/main, refs/remotes/origin/HEAD, refs/heads/main\n\u{1e}c1\0old\0\n";
        let nodes: Vec<Node<'_>> = stdout
            .split('\u{1e}')
            .filter(|record| !record.is_empty())
            .map(|record| {
                let mut fields = record.trim_end_matches('\n').splitn(3, '\0');
                let mut next = || fields.next().unwrap_or_default();
                Node { hash: next(), parents: next(), refs: next() }
            })
            .collect();
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
