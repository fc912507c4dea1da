//! Which branches hold each commit, from one `git log` over the branches and
//! remote-tracking branches of the window: the commits, their parents and the branch
//! tips among them; containment is then a walk in memory.
//!
//! A branch whose tip is older than the window cannot hold a commit of the window (its
//! ancestors are older still), so the walk bounded by `--since` sees every tip that
//! matters. Measured against one `git branch -a --contains` per commit in
//! `docs/decisions.md`.

use std::collections::BTreeMap;

use jiff::{SignedDuration, Timestamp};

use super::{Repo, command, work_dir};
use crate::Env;

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

/// Runs the one `git log` and computes containment for the commits of the window.
pub(crate) fn branches(env: &Env, repo: &Repo, since: Timestamp) -> Result<Containment, String> {
    let since = since - SignedDuration::from_hours(24);
    let output = command(env)
        .current_dir(work_dir(repo))
        .arg("--git-dir")
        .arg(&repo.git_dir)
        .args(["log", "--branches", "--remotes", "--no-color", "--decorate=full"])
        .args(["--decorate-refs=refs/heads/", "--decorate-refs=refs/remotes/"])
        .arg(format!("--since={}", since.strftime("%Y-%m-%dT%H:%M:%SZ")))
        .arg("--format=%x1e%H%x00%P%x00%D")
        .output()
        .map_err(|error| super::describe_spawn_error(&error))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(stderr.lines().next().unwrap_or("git log failed").trim().to_owned());
    }
    Ok(parse(&output.stdout))
}

fn parse(stdout: &[u8]) -> Containment {
    let text = String::from_utf8_lossy(stdout);
    let mut hashes: Vec<&str> = Vec::new();
    let mut parents: Vec<Vec<&str>> = Vec::new();
    let mut tips: Vec<(String, bool, usize)> = Vec::new();
    for record in text.split('\u{1e}').filter(|record| !record.trim().is_empty()) {
        let mut fields = record.trim_end_matches('\n').splitn(3, '\0');
        let (Some(hash), Some(parent_list), refs) = (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let index = hashes.len();
        hashes.push(hash);
        parents.push(parent_list.split(' ').filter(|parent| !parent.is_empty()).collect());
        for name in refs.unwrap_or_default().split(", ").map(str::trim) {
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
    let position: BTreeMap<&str, usize> =
        hashes.iter().enumerate().map(|(index, hash)| (*hash, index)).collect();
    let edges: Vec<Vec<usize>> = parents
        .iter()
        .map(|list| list.iter().filter_map(|parent| position.get(parent).copied()).collect())
        .collect();
    tips.sort();
    let mut contained: Vec<Contained> = vec![Contained::default(); hashes.len()];
    let mut seen = vec![usize::MAX; hashes.len()];
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
        by_commit: hashes
            .iter()
            .zip(contained)
            .map(|(hash, contained)| ((*hash).to_owned(), contained))
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
        let containment = parse(stdout.as_bytes());
        let get = |hash: &str| containment.by_commit[hash].clone();
        assert_eq!(get("c3").local, ["feature"]);
        assert!(get("c3").remote.is_empty());
        assert_eq!(get("c2").local, ["feature", "main"]);
        assert_eq!(get("c2").remote, ["origin/main"]);
        assert_eq!(get("c1").local, ["feature", "main", "topic"]);
        assert_eq!(get("c4").local, ["topic"]);
    }
}
