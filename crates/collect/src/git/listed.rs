//! One commit of a listing, the one record both readers give: git's own `git log` (its
//! header line parsed by [`from_log`]) and the in-process walk (decoded from the object,
//! [`super::inproc`]). Everything after the listing (the user's commits, the others'
//! counted, branch containment, the look below skewed commits) reads this record, never
//! git's text.

use jiff::Timestamp;

/// What starts each commit's header line in a `git log` output of [`LOG_FORMAT`]: two
/// NUL bytes. The header is one line (git prints a subject, a name, an e-mail and ref
/// names without newlines), and a `--numstat` line starts with a count or `-`, never
/// with NUL; so a header is found by its line's start, and no byte inside a subject
/// (such as `0x1E`, which the old record separator was) can split a commit.
pub(super) const HEADER_MARK: &str = "%x00%x00";

/// The `--format` of a listing: after [`HEADER_MARK`], the hash, the parents, the
/// decorations (`%D`), the author date, the author as recorded (`%ae`, `%an`) and as
/// the mailmap maps it (`%aE`, `%aN`), and the subject, separated by NUL.
pub(super) const LOG_FORMAT: &str = "%H%x00%P%x00%D%x00%aI%x00%ae%x00%an%x00%aE%x00%aN%x00%s";

/// One commit of a listing. Text fields are git's bytes read as UTF-8 (lossily: a
/// commit in another encoding is left to git, which converts it, by the in-process
/// reader).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Listed {
    /// The full hash.
    pub(crate) hash: String,
    /// The parents' hashes, in order (two or more: a merge).
    pub(crate) parents: Vec<String>,
    /// The ref names decorating it, sorted: full names (`refs/heads/main`,
    /// `refs/remotes/origin/main`); git's listing may also name `HEAD`.
    pub(crate) refs: Vec<String>,
    /// The author date; `None` when git printed one that does not parse.
    pub(crate) author_time: Option<Timestamp>,
    /// The author's e-mail as recorded.
    pub(crate) email: String,
    /// The author's name as recorded.
    pub(crate) name: String,
    /// The author's e-mail as the mailmap maps it.
    pub(crate) mapped_email: String,
    /// The author's name as the mailmap maps it.
    pub(crate) mapped_name: String,
    /// git's `%s`.
    pub(crate) subject: String,
}

impl Listed {
    /// Whether it is a merge (two or more parents).
    pub(crate) fn is_merge(&self) -> bool {
        self.parents.len() > 1
    }

    /// Whether it was authored at or after `since`.
    pub(crate) fn authored_since(&self, since: Timestamp) -> bool {
        self.author_time.is_some_and(|time| time >= since)
    }
}

/// Whether a listing holds a commit authored at or after `since`.
pub(crate) fn authored_since(listed: &[Listed], since: Timestamp) -> bool {
    listed.iter().any(|commit| commit.authored_since(since))
}

/// The header lines of a `git log` output whose format starts with [`HEADER_MARK`],
/// each with the lines after it (`--numstat`'s).
pub(super) fn records(stdout: &[u8]) -> Vec<(&[u8], Vec<&[u8]>)> {
    let mut records: Vec<(&[u8], Vec<&[u8]>)> = Vec::new();
    for line in stdout.split(|&byte| byte == b'\n') {
        if let Some(header) = line.strip_prefix(b"\0\0") {
            records.push((header, Vec::new()));
        } else if let Some((_, numstat)) = records.last_mut() {
            if !line.is_empty() {
                numstat.push(line);
            }
        }
    }
    records
}

/// The commits of a `git log` output of [`HEADER_MARK`] and [`LOG_FORMAT`]; a header
/// line without every field is passed over.
pub(super) fn from_log(stdout: &[u8]) -> Vec<Listed> {
    records(stdout).into_iter().filter_map(|(header, _)| from_header(header)).collect()
}

/// One header line of [`LOG_FORMAT`] (without its mark).
pub(super) fn from_header(header: &[u8]) -> Option<Listed> {
    let fields: Vec<&[u8]> = header.splitn(9, |&byte| byte == 0).collect();
    let [hash, parents, refs, date, email, name, mapped_email, mapped_name, subject] =
        fields.as_slice()
    else {
        return None;
    };
    let lossy = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    let parents = parents
        .split(|&byte| byte == b' ')
        .filter(|parent| !parent.is_empty())
        .map(lossy)
        .collect();
    let refs = lossy(refs);
    // `HEAD -> refs/heads/main, refs/remotes/origin/main` (`%D` with `--decorate=full`).
    let mut refs: Vec<String> = refs
        .split(", ")
        .map(|name| name.rsplit(" -> ").next().unwrap_or(name).trim())
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect();
    refs.sort_unstable();
    Some(Listed {
        hash: lossy(hash),
        parents,
        refs,
        author_time: lossy(date).parse().ok(),
        email: lossy(email),
        name: lossy(name),
        mapped_email: lossy(mapped_email),
        mapped_name: lossy(mapped_name),
        subject: lossy(subject),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_line_gives_every_field() {
        let stdout = b"\0\0c3\0c2 c1\0HEAD -> refs/heads/main, refs/remotes/origin/main\x002026-11-27T10:00:00+09:00\0a@x\0A\0b@x\0B\0Merge it\n\n1\t2\tf.txt\n\0\0c2\0\0\0not a date\0a@x\0A\0a@x\0A\0first\n\0\0short\0line\n";
        let listed = from_log(stdout);
        assert_eq!(listed.len(), 2, "{listed:?}");
        let merge = &listed[0];
        assert_eq!(merge.hash, "c3");
        assert_eq!(merge.parents, ["c2", "c1"]);
        assert!(merge.is_merge());
        assert_eq!(merge.refs, ["refs/heads/main", "refs/remotes/origin/main"]);
        assert_eq!(merge.author_time, Some("2026-11-27T01:00:00Z".parse().unwrap()));
        assert_eq!(
            [&merge.email, &merge.name, &merge.mapped_email, &merge.mapped_name, &merge.subject],
            ["a@x", "A", "b@x", "B", "Merge it"]
        );
        let root = &listed[1];
        assert!(root.parents.is_empty() && root.refs.is_empty() && !root.is_merge());
        assert_eq!(root.author_time, None);
        assert!(!root.authored_since(Timestamp::MIN));
        assert!(authored_since(&listed, "2026-11-27T00:00:00Z".parse().unwrap()));
        assert!(!authored_since(&listed, "2026-11-28T00:00:00Z".parse().unwrap()));
    }
}
