//! Whose commits count in one repository: the configured identity, plus the
//! repository's effective `user.*`/`author.*` values as git reads them there (global,
//! local and `includeIf`-included configuration alike).

use std::collections::BTreeMap;
use std::time::Duration;

use super::{Identity, Repo, command, output, work_dir};
use crate::Env;

/// What one `git config` in a repository tells: its identities and whether it has a
/// remote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RepoConfig {
    /// Every `user.email`/`author.email` and `user.name`/`author.name` value git sees
    /// in the repository, in the order git reads them.
    pub(crate) identity: Identity,
    /// Whether any `remote.<name>.url` is configured.
    pub(crate) has_remote: bool,
    /// `origin`'s URL, else the first remote's, as configured (not normalized).
    pub(crate) remote_url: Option<String>,
}

impl RepoConfig {
    /// Notes a remote's URL: `origin`'s wins over any other, else the first seen.
    fn note_remote(&mut self, remote: &str, url: &str) {
        self.has_remote = true;
        if self.remote_url.is_none() || remote == "origin" {
            self.remote_url = Some(url.to_owned());
        }
    }
}

/// Asks git, in the repository, for its identities and remotes: one process, killed
/// after `timeout`. A failure (a broken config, a deadline) leaves the configured
/// identity alone; the repository's log was read already.
pub(crate) fn repo_config(env: &Env, repo: &Repo, timeout: Duration) -> RepoConfig {
    let mut git = command(env);
    git.current_dir(work_dir(repo)).arg("--git-dir").arg(&repo.git_dir);
    git.args(["config", "--null", "--get-regexp"])
        .arg(r"^((user|author)\.(email|name)|remote\..*\.url)$");
    match output(git, timeout) {
        Ok(done) => parse_config(&done.stdout),
        Err(_) => RepoConfig::default(),
    }
}

/// What git's configuration outside any repository (system, global, XDG, and any given
/// through the environment) holds that matters to reading repositories: one process per
/// run, in `/`. A failure counts as "has everything" (git is then asked per repository).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[expect(clippy::struct_excessive_bools, reason = "four independent answers of one query")]
pub struct OutsideConfig {
    /// An `include` or `includeIf`. Without one, a repository whose own `.git/config`
    /// holds no identity and no include sees exactly the global identity, and
    /// [`local_config`] can say so without asking git.
    pub(crate) includes: bool,
    /// A key that changes what `git log` lists or prints (`mailmap.*`, `i18n.*`,
    /// `core.useReplaceRefs`), or an include that might hold one.
    pub(crate) changes_listing: bool,
    /// Besides those, a key that changes what `--numstat` counts (`diff.algorithm`,
    /// `core.attributesFile`, `core.bigFileThreshold`, `log.showRoot`).
    pub(crate) changes_numstat: bool,
    /// A key that changes what `git status` compares or ignores (`core.autocrlf`,
    /// `core.eol`, `core.excludesFile`, `core.fileMode`, `filter.*`, …), or an include.
    pub(crate) changes_status: bool,
}

/// Asks git (one process, in `/`) what its configuration outside any repository holds
/// that matters to reading repositories.
pub fn outside_config(env: &Env, timeout: Duration) -> OutsideConfig {
    let mut git = command(env);
    git.current_dir("/").args(["config", "--null", "--get-regexp"]).arg(concat!(
        r"^(include(if)?|mailmap|i18n)\.|^core\.usereplacerefs$",
        r"|^diff\.algorithm$|^core\.(attributesfile|bigfilethreshold)$|^log\.showroot$",
        r"|^core\.(autocrlf|eol|safecrlf|filemode|ignorecase|symlinks|excludesfile",
        r"|checkroundtripencoding|precomposeunicode)$|^filter\."
    ));
    let everything = OutsideConfig {
        includes: true,
        changes_listing: true,
        changes_numstat: true,
        changes_status: true,
    };
    let Ok(done) = output(git, timeout) else { return everything };
    // `git config --get-regexp` exits 1 when nothing matches.
    if done.status.code() == Some(1) && done.stdout.is_empty() {
        return OutsideConfig::default();
    }
    if !done.status.success() {
        return everything;
    }
    let keys: Vec<String> = done
        .stdout
        .split(|&byte| byte == 0)
        .filter(|entry| !entry.is_empty())
        .map(|entry| {
            let key = entry.split(|&byte| byte == b'\n').next().unwrap_or_default();
            String::from_utf8_lossy(key).to_ascii_lowercase()
        })
        .collect();
    let includes = keys.iter().any(|key| key.starts_with("include"));
    let numstat_only = |key: &String| {
        key == "diff.algorithm"
            || key == "core.attributesfile"
            || key == "core.bigfilethreshold"
            || key == "log.showroot"
    };
    let status_only = |key: &String| {
        key.starts_with("filter.")
            || [
                "core.autocrlf",
                "core.eol",
                "core.safecrlf",
                "core.filemode",
                "core.ignorecase",
                "core.symlinks",
                "core.excludesfile",
                "core.checkroundtripencoding",
                "core.precomposeunicode",
            ]
            .contains(&key.as_str())
    };
    OutsideConfig {
        includes,
        changes_listing: keys.iter().any(|key| !numstat_only(key) && !status_only(key)),
        changes_numstat: keys.iter().any(|key| !status_only(key)),
        changes_status: includes
            || keys.iter().any(|key| status_only(key) || key == "core.attributesfile"),
    }
}

/// The repository's configuration read from its own `.git/config`, when that is enough:
/// no `[include…]` section and no `config.worktree`, so its identities are the global
/// ones (which the caller has) and those of its own `[user]` and `[author]` sections (a
/// work e-mail set for one repository), read in file order with git's own value syntax
/// (quotes, escapes, comments) by gitoxide's configuration parser, and whether it names
/// a remote. `None` means git must be asked ([`repo_config`]).
pub(crate) fn local_config(repo: &Repo) -> Option<RepoConfig> {
    if repo.git_dir.join("config.worktree").exists() {
        return None;
    }
    let text = crate::fsread::read_small_text(&repo.git_dir.join("config"), 1 << 20).ok()?;
    let mut config = RepoConfig::default();
    let mut in_remote: Option<String> = None;
    let mut identity_sections = false;
    for line in text.lines() {
        let line = line.trim_start();
        if let Some(section) = line.strip_prefix('[') {
            let name: String = section
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '.')
                .collect::<String>()
                .to_ascii_lowercase();
            match name.split('.').next().unwrap_or_default() {
                "include" | "includeif" => return None,
                "user" | "author" => {
                    identity_sections = true;
                    in_remote = None;
                }
                "remote" => {
                    // `[remote "origin"]`: the quoted subsection names the remote.
                    let quoted = section.split('"').nth(1).unwrap_or_default();
                    in_remote = Some(quoted.to_owned());
                }
                _ => in_remote = None,
            }
            // A key on the section's line (`[remote "o"] url = …`) is rare; git is asked.
            if section.contains(']') && !section.trim_end().ends_with(']') {
                return None;
            }
        } else if let Some(remote) = &in_remote {
            let key: String = line
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect::<String>()
                .to_ascii_lowercase();
            if key == "url" {
                let value = line.split_once('=').map_or("", |(_, value)| value.trim());
                let value = value.trim_matches('"');
                if value.is_empty() {
                    config.has_remote = true;
                } else {
                    config.note_remote(remote, value);
                }
            }
        }
    }
    if identity_sections {
        config.identity = local_identity(text.as_bytes())?;
    }
    Some(config)
}

/// The `user.email`/`author.email` and `user.name`/`author.name` values of a
/// configuration file, in file order, as `git config --get-regexp` gives them (sections
/// with a subsection, such as `[user "x"]`, are other keys); `None` when the file does
/// not parse.
fn local_identity(text: &[u8]) -> Option<Identity> {
    let file = gix::config::File::from_bytes_no_includes(
        text,
        gix::config::file::Metadata::from(gix::config::Source::Local),
        gix::config::file::init::Options::default(),
    )
    .ok()?;
    let mut identity = Identity::default();
    for section in file.sections() {
        let header = section.header();
        let name = String::from_utf8_lossy(header.name()).to_ascii_lowercase();
        if !matches!(name.as_str(), "user" | "author") || header.subsection_name().is_some() {
            continue;
        }
        for value in section.values("email") {
            let value = String::from_utf8_lossy(&value);
            if !value.trim().is_empty() {
                push_new(&mut identity.emails, value.trim(), true);
            }
        }
        for value in section.values("name") {
            let value = String::from_utf8_lossy(&value);
            if !value.trim().is_empty() {
                push_new(&mut identity.names, value.trim(), false);
            }
        }
    }
    Some(identity)
}

/// Parses `git config --null --get-regexp`: `key\nvalue\0` per entry.
fn parse_config(stdout: &[u8]) -> RepoConfig {
    let mut config = RepoConfig::default();
    for entry in stdout.split(|&byte| byte == 0).filter(|entry| !entry.is_empty()) {
        let text = String::from_utf8_lossy(entry);
        let (key, value) = text.split_once('\n').unwrap_or((&text, ""));
        let value = value.trim();
        let key = key.to_ascii_lowercase();
        let (section, field) = key.rsplit_once('.').unwrap_or((&key, ""));
        match (section, field) {
            _ if value.is_empty() => {}
            (section, "url") if section.starts_with("remote.") => {
                config.note_remote(&section["remote.".len()..], value);
            }
            (_, "email") => push_new(&mut config.identity.emails, value, true),
            (_, "name") => push_new(&mut config.identity.names, value, false),
            _ => {}
        }
    }
    config
}

fn push_new(list: &mut Vec<String>, value: &str, ignore_case: bool) {
    let known = list
        .iter()
        .any(|item| if ignore_case { item.eq_ignore_ascii_case(value) } else { item == value });
    if !known {
        list.push(value.to_owned());
    }
}

impl Identity {
    /// This identity plus another's e-mails and names (no duplicates), in order.
    #[must_use]
    pub fn union(&self, other: &Identity) -> Identity {
        let mut merged = self.clone();
        for email in &other.emails {
            push_new(&mut merged.emails, email, true);
        }
        for name in &other.names {
            push_new(&mut merged.names, name, false);
        }
        merged
    }

    /// The e-mails and names of this identity that `base` does not have.
    #[must_use]
    pub fn beyond(&self, base: &Identity) -> Identity {
        Identity {
            emails: self
                .emails
                .iter()
                .filter(|email| !base.emails.iter().any(|known| known.eq_ignore_ascii_case(email)))
                .cloned()
                .collect(),
            names: self.names.iter().filter(|name| !base.names.contains(name)).cloned().collect(),
        }
    }
}

/// Commits in the window by other authors, per e-mail (as the mailmap maps it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LeftOut {
    /// Commits left out, by author e-mail (lower-cased).
    pub by_email: BTreeMap<String, u64>,
}

impl LeftOut {
    /// Counts one commit by `email`.
    pub(crate) fn add(&mut self, email: &str) {
        *self.by_email.entry(email.to_ascii_lowercase()).or_default() += 1;
    }

    /// Adds another tally to this one.
    pub fn extend(&mut self, other: &LeftOut) {
        for (email, count) in &other.by_email {
            *self.by_email.entry(email.clone()).or_default() += count;
        }
    }

    /// Commits left out in all.
    pub fn total(&self) -> u64 {
        self.by_email.values().sum()
    }

    /// The e-mails with the most commits first (ties by e-mail), at most `limit`.
    pub fn most_frequent(&self, limit: usize) -> Vec<(&str, u64)> {
        let mut all: Vec<(&str, u64)> =
            self.by_email.iter().map(|(email, count)| (email.as_str(), *count)).collect();
        all.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        all.truncate(limit);
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo_with_config(text: &str) -> (tempfile::TempDir, Repo) {
        let dir = tempfile::tempdir().unwrap();
        let git_dir = dir.path().join(".git");
        fs_err::create_dir(&git_dir).unwrap();
        fs_err::write(git_dir.join("config"), text).unwrap();
        let repo = Repo {
            project: report_model::ProjectRef { name: "r".to_owned(), path: dir.path().to_owned() },
            git_dir,
        };
        (dir, repo)
    }

    #[test]
    fn origin_url_wins_over_the_first_remote() {
        let two = "[remote \"fork\"]\n\turl = https://host/me/b\n[remote \"origin\"]\n\turl = \"git@host:a/b.git\"\n";
        let (_dir, repo) = repo_with_config(two);
        let config = local_config(&repo).unwrap();
        assert_eq!(config.remote_url.as_deref(), Some("git@host:a/b.git"));
        let parsed =
            parse_config(b"remote.fork.url\nhttps://host/me/b\0remote.origin.url\n/srv/b.git\0");
        assert_eq!(parsed.remote_url.as_deref(), Some("/srv/b.git"));
    }

    #[test]
    fn a_plain_local_config_needs_no_git() {
        let plain = "[core]\n\tbare = false\n[remote \"origin\"]\n\turl = git@host:a/b.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch \"main\"]\n\tremote = origin\n";
        let (_dir, repo) = repo_with_config(plain);
        assert_eq!(
            local_config(&repo),
            Some(RepoConfig {
                identity: Identity::default(),
                has_remote: true,
                remote_url: Some("git@host:a/b.git".to_owned())
            })
        );
        let (_dir, repo) =
            repo_with_config("[core]\n\tbare = false\n[branch \"main\"]\n\tremote = origin\n");
        assert_eq!(local_config(&repo), Some(RepoConfig::default()));
        for asks in [
            "[include]\n\tpath = ~/work.gitconfig\n",
            "[includeIf \"gitdir:~/work/\"]\n\tpath = ~/work.gitconfig\n",
            "  [user] email = me@work.example\n",
        ] {
            let (_dir, repo) = repo_with_config(asks);
            assert_eq!(local_config(&repo), None, "{asks}");
        }
        let (_dir, repo) = repo_with_config("[core]\n");
        fs_err::write(repo.git_dir.join("config.worktree"), "[user]\nemail = x@y\n").unwrap();
        assert_eq!(local_config(&repo), None);
    }

    /// A repository's own `[user]` and `[author]` sections are read without git, as git
    /// reads them: values quoted or not, escapes, comments, `[User]` in any case, several
    /// sections in file order, a subsection (`[user "x"]`) and an empty value left out.
    #[test]
    fn a_local_identity_is_read_as_git_reads_it() {
        let configs = [
            "[user]\n\temail = me@work.example\n",
            "[User]\nname = Me\n",
            "[author]\n\temail = me@work.example\n",
            "[user]\n\tname = \"Jane \\\"JD\\\" Doe\" ; a comment\n\temail = jane@work.example # another\n",
            "[core]\n\tbare = false\n[user]\n\temail = a@x\n[author]\n\temail = b@x\n\tname = B\n[user]\n\temail = A@X\n\temail = c@x\n\tname =\n[user \"x\"]\n\temail = sub@x\n[remote \"origin\"]\n\turl = git@host:a/b.git\n",
        ];
        for text in configs {
            let dir = tempfile::tempdir().unwrap();
            #[expect(clippy::disallowed_methods, reason = "the test makes a repository with git")]
            let status = std::process::Command::new("git")
                .args(["init", "-q"])
                .current_dir(dir.path())
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("HOME", dir.path())
                .status()
                .unwrap();
            assert!(status.success());
            let git_dir = dir.path().join(".git");
            let mut config = fs_err::read_to_string(git_dir.join("config")).unwrap();
            config.push_str(text);
            fs_err::write(git_dir.join("config"), config).unwrap();
            let repo = Repo {
                project: report_model::ProjectRef {
                    name: "r".to_owned(),
                    path: dir.path().to_owned(),
                },
                git_dir,
            };
            let env = Env::new(dir.path()).with_var("GIT_CONFIG_NOSYSTEM", "1");
            let by_git = repo_config(&env, &repo, std::time::Duration::from_secs(30));
            assert!(!by_git.identity.emails.is_empty() || !by_git.identity.names.is_empty());
            assert_eq!(local_config(&repo), Some(by_git), "{text}");
        }
    }

    #[test]
    fn config_entries_parse_into_identities_and_remotes() {
        let stdout = b"user.email\nme@home\0user.name\nMe\0user.email\nMe@Home\0user.email\nme@work\0remote.origin.url\n/tmp/r.git\0";
        let config = parse_config(stdout);
        assert_eq!(config.identity.emails, ["me@home", "me@work"]);
        assert_eq!(config.identity.names, ["Me"]);
        assert!(config.has_remote);
        assert!(!parse_config(b"user.email\nme@home\0").has_remote);
    }

    #[test]
    fn beyond_keeps_only_what_the_base_lacks() {
        let base = Identity { emails: vec!["me@home".into()], names: vec!["Me".into()] };
        let repo = Identity {
            emails: vec!["ME@home".into(), "me@work".into()],
            names: vec!["Me".into(), "Me W".into()],
        };
        let beyond = repo.beyond(&base);
        assert_eq!(beyond.emails, ["me@work"]);
        assert_eq!(beyond.names, ["Me W"]);
        assert_eq!(base.union(&repo).emails, ["me@home", "me@work"]);
    }

    #[test]
    fn most_frequent_orders_by_count_then_email() {
        let mut left_out = LeftOut::default();
        for email in ["b@x", "a@x", "B@x", "c@x"] {
            left_out.add(email);
        }
        assert_eq!(left_out.most_frequent(2), [("b@x", 2), ("a@x", 1)]);
        assert_eq!(left_out.total(), 4);
    }
}
