//! The commit listing: the walk of `git log --all --since=…` with the look below skewed commits.

use std::collections::BinaryHeap;

// Maps by object id hash the id's first bytes, as gitoxide's own walks (and git's `oidhash`)
// do: an id is already a hash.
use gix::hashtable::HashMap;

use gix::ObjectId;
use gix::bstr::{BStr, ByteSlice as _};
use jiff::Timestamp;

use crate::git::listed::Listed;

/// How many parents of commits dated before the bound the walk may decode per
/// repository, looking for a parent dated later than its child (a clock that went back).
/// Each boundary commit (an old tip, the last commit of a line before the window) costs
/// one look per parent; a repository with more of them than this has its extra look
/// stop there.
pub(crate) const SKEW_LOOKS: usize = 512;

/// One commit of the walk, decoded once.
struct Node {
    committer_time: i64,
    parents: Vec<ObjectId>,
    line: Line,
    /// Reached only through a commit dated before the bound.
    below_skew: bool,
}

/// The fields of a commit's header line but its hash, parents and decorations.
struct Line {
    author_time: i64,
    email: Vec<u8>,
    name: Vec<u8>,
    mapped_email: Vec<u8>,
    mapped_name: Vec<u8>,
    subject: Vec<u8>,
}

/// The walk of [`list`] from `tips`: the commits listed, in order, every node decoded,
/// and how many listed commits were found only below a commit dated before `bound`.
type Walked = (Vec<ObjectId>, HashMap<ObjectId, Node>, u64);

fn walk(
    repository: &gix::Repository,
    (mailmap, loose): (&gix::mailmap::Snapshot, &super::Loose),
    tips: Vec<ObjectId>,
    bound: i64,
) -> Option<Walked> {
    let mut buffer = Vec::new();
    let mut nodes: HashMap<ObjectId, Node> = HashMap::default();
    // Newest committer date first; equal dates in the order they were queued, as git's
    // date-ordered list does.
    let mut queue: BinaryHeap<(i64, std::cmp::Reverse<u64>, ObjectId)> = BinaryHeap::new();
    let mut queued = 0u64;
    for tip in tips {
        if nodes.contains_key(&tip) {
            continue;
        }
        let (kind, _) = super::find(repository, loose, &tip, &mut buffer)?;
        if kind != gix::object::Kind::Commit {
            // git lists commits only; a ref to a tree or a blob is passed over.
            continue;
        }
        let node = decode(repository, (mailmap, loose), tip, &mut buffer)?;
        queue.push((node.committer_time, std::cmp::Reverse(queued), tip));
        queued += 1;
        nodes.insert(tip, node);
    }
    let mut listed: Vec<ObjectId> = Vec::new();
    let mut below_skew = 0u64;
    let mut looks = 0usize;
    // Parents decoded below an old commit and not followed (a later path may want them).
    let mut seen_below: HashMap<ObjectId, Node> = HashMap::default();
    // Parents below an old commit whose date the commit-graph told, not followed: only
    // a parent dated later than its child is decoded. Opened at the first such look.
    let mut dated_below: HashMap<ObjectId, i64> = HashMap::default();
    let mut graph: Option<Option<gix::commitgraph::Graph>> = None;
    while let Some((time, _, id)) = queue.pop() {
        let old = time < bound;
        let (parents, skewed) = {
            let node = nodes.get(&id)?;
            if !old {
                listed.push(id);
                below_skew += u64::from(node.below_skew);
            } else if node.line.author_time >= bound {
                // Committed with a clock that went back, but authored in the window.
                listed.push(id);
                below_skew += 1;
            }
            (node.parents.clone(), node.below_skew || old)
        };
        for parent in parents {
            if nodes.contains_key(&parent) {
                continue;
            }
            let mut node = match seen_below.remove(&parent) {
                Some(node) => node,
                None if old && dated_below.get(&parent).is_some_and(|date| *date <= time) => {
                    continue;
                }
                None if dated_below.remove(&parent).is_some() => {
                    decode(repository, (mailmap, loose), parent, &mut buffer)?
                }
                None if old && looks >= SKEW_LOOKS => continue,
                None if old => {
                    looks += 1;
                    // The graph's date says whether the parent is followed: one dated no
                    // later than its child is not, and need not be decoded.
                    let graph = graph.get_or_insert_with(|| super::commit_graph(repository));
                    match graph.as_ref().and_then(|graph| super::graph_commit(graph, &parent)) {
                        Some((date, _)) if date <= time => {
                            dated_below.insert(parent, date);
                            continue;
                        }
                        _ => decode(repository, (mailmap, loose), parent, &mut buffer)?,
                    }
                }
                None => decode(repository, (mailmap, loose), parent, &mut buffer)?,
            };
            // Below an old commit only a parent dated later than it is followed.
            if old && node.committer_time <= time {
                seen_below.insert(parent, node);
                continue;
            }
            node.below_skew = skewed;
            queue.push((node.committer_time, std::cmp::Reverse(queued), parent));
            queued += 1;
            nodes.insert(parent, node);
        }
    }

    Some((listed, nodes, below_skew))
}

/// Every ref (the stash too), through gix's iteration, by full name in its order, each
/// peeled ([`super::peeled`]), and `HEAD`'s id (`None`: unborn); `None` when one cannot
/// be read or peeled (git is asked).
pub(super) fn gix_refs(
    repository: &gix::Repository,
    loose: &super::Loose,
    packed: Option<&gix::refs::packed::Buffer>,
) -> Option<super::Tips> {
    let mut refs = Vec::new();
    for reference in repository.references().ok()?.all().ok()? {
        let mut reference = reference.ok()?;
        let name = reference.name().as_bstr().to_str().ok()?.to_owned();
        refs.push((name, super::peeled(repository, loose, &mut reference, packed)?));
    }
    let head = repository.head().ok()?;
    let head = if head.is_unborn() { None } else { Some(head.id()?.detach()) };
    Some(super::Tips { refs, head })
}

/// The listing from the refs `read` (the stash left out) and `HEAD`.
pub(super) fn list(
    repository: &gix::Repository,
    loose: &super::Loose,
    read: &super::Tips,
    bound: i64,
) -> Option<(Vec<Listed>, u64)> {
    let mailmap = repository.open_mailmap();
    // Tips: every ref but the stash, peeled, and HEAD (unborn: none).
    let mut tips: Vec<ObjectId> = Vec::with_capacity(read.refs.len() + 1);
    let mut decorations: HashMap<ObjectId, Vec<String>> = HashMap::default();
    for (name, id) in &read.refs {
        if name.starts_with("refs/heads/") || name.starts_with("refs/remotes/") {
            decorations.entry(*id).or_default().push(name.clone());
        }
        tips.push(*id);
    }
    tips.extend(read.head);

    let (listed, nodes, below_skew) = walk(repository, (&mailmap, loose), tips, bound)?;

    let lossy = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let mut out = Vec::with_capacity(listed.len());
    for id in listed {
        let node = nodes.get(&id)?;
        let line = &node.line;
        let mut refs: Vec<String> = decorations.get(&id).cloned().unwrap_or_default();
        refs.sort_unstable();
        out.push(Listed {
            hash: id.to_string(),
            parents: node.parents.iter().map(ToString::to_string).collect(),
            refs,
            author_time: Some(Timestamp::from_second(line.author_time).ok()?),
            email: lossy(&line.email),
            name: lossy(&line.name),
            mapped_email: lossy(&line.mapped_email),
            mapped_name: lossy(&line.mapped_name),
            subject: lossy(&line.subject),
        });
    }
    Some((out, below_skew))
}

/// Decodes one commit: `None` for anything git would print otherwise (a commit in
/// another encoding, a field holding a NUL or a newline) or cannot be read.
fn decode(
    repository: &gix::Repository,
    (mailmap, loose): (&gix::mailmap::Snapshot, &super::Loose),
    id: ObjectId,
    buffer: &mut Vec<u8>,
) -> Option<Node> {
    let (kind, data) = super::find(repository, loose, &id, buffer)?;
    if kind != gix::object::Kind::Commit {
        return None;
    }
    let commit = gix::objs::CommitRef::from_bytes(data, gix::hash::Kind::Sha1).ok()?;
    if commit.encoding.is_some_and(|encoding| {
        !(encoding.eq_ignore_ascii_case(b"utf-8") || encoding.eq_ignore_ascii_case(b"utf8"))
    }) {
        return None;
    }
    let author = commit.author().ok()?;
    let committer = commit.committer().ok()?;
    let author_time = author.time().ok()?.seconds;
    let committer_time = committer.time().ok()?.seconds;
    let mapped = mailmap.resolve(author);
    let subject = subject(commit.message);
    let fields: [&[u8]; 5] = [author.email, author.name, &mapped.email, &mapped.name, &subject];
    if fields.iter().any(|field| field.contains(&0) || field.contains(&b'\n')) {
        return None;
    }
    Some(Node {
        committer_time,
        parents: commit.parents().collect(),
        line: Line {
            author_time,
            email: author.email.to_vec(),
            name: author.name.to_vec(),
            mapped_email: mapped.email.to_vec(),
            mapped_name: mapped.name.to_vec(),
            subject,
        },
        below_skew: false,
    })
}

/// git's `%s`: after any blank lines, the lines of the first paragraph, each without its
/// trailing white space, joined by a space (`format_subject` in git's `pretty.c`).
pub(super) fn subject(message: &BStr) -> Vec<u8> {
    let mut lines = message.split(|&byte| byte == b'\n').peekable();
    while lines.next_if(|line| is_blank(line)).is_some() {}
    let mut out: Vec<u8> = Vec::new();
    for (index, line) in lines.take_while(|line| !is_blank(line)).enumerate() {
        if index > 0 {
            out.push(b' ');
        }
        out.extend_from_slice(line.trim_end_with(|c| c.is_ascii_whitespace()));
    }
    out
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}
