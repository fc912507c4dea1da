//! Rules as data, in gitleaks' format: the built-in ruleset (`rules/builtin.toml`,
//! embedded at build time and parsed once), a `.gitleaks.toml` and the user rules of a
//! configuration are all read here.
//!
//! ```toml
//! [[rules]]
//! id = "acme-key"
//! description = "ACME API key"
//! regex = '''\b(acme_[a-z0-9]{24})\b'''
//! keywords = ["acme_"]
//! entropy = 3.0
//! # secretGroup = 1        # default: the first group that took part, or the whole match
//! [[rules.allowlists]]     # or one `[rules.allowlist]`
//! regexTarget = "secret"   # or "match", "line"
//! regexes = ['''test$''']
//! stopwords = ["example"]
//! condition = "OR"         # or "AND"
//!
//! [allowlist]              # or `[[allowlists]]`: for every rule of the file
//! stopwords = ["sample"]
//! ```
//!
//! As gitleaks reads them: `secretGroup` absent means the first capture group that took
//! part in the match (the whole match when the regex has no group); an allow-list lets a
//! match through when one of its regexes finds something in its target or the secret,
//! lower-cased, contains one of its stop words (with `condition = "AND"`: when every
//! check it has passes). Keys gitleaks has and a redactor cannot use are accepted and
//! ignored: `tags`, `title`, `minVersion`, `[extend]`; a rule with a `path` (it applies
//! to file names, and a redactor sees no file) is left out, and so is an allow-list that
//! only lists `paths` or `commits`. Unknown keys are ignored, as gitleaks does.
//!
//! `secret_group` is read as `secretGroup`, so that the `[redact]` rules of a standup
//! configuration read the same way. Three keys are this crate's own, used by the
//! built-in rules: `generic = true` (the placeholder checks of the generic rules),
//! `extractor` (see `Builtin::extractor`), and `keywordNames` with `keywordOperators`,
//! which add the keywords `<name><quote><space><operator>` for every name, quote (none,
//! `"`, `'`, `\"`), space (none, a space, a tab) and operator.

use regex::Regex;
use serde::Deserialize;

use crate::{Error, Rule};

/// A rule file as written.
#[derive(Debug, Deserialize)]
struct FileToml {
    #[serde(default)]
    rules: Vec<RuleToml>,
    allowlist: Option<AllowlistToml>,
    #[serde(default)]
    allowlists: Vec<AllowlistToml>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RuleToml {
    id: String,
    #[serde(default)]
    description: String,
    regex: Option<String>,
    path: Option<String>,
    #[serde(alias = "secret_group")]
    secret_group: Option<usize>,
    entropy: Option<f64>,
    #[serde(default)]
    keywords: Vec<String>,
    allowlist: Option<AllowlistToml>,
    #[serde(default)]
    allowlists: Vec<AllowlistToml>,
    #[serde(default)]
    generic: bool,
    extractor: Option<String>,
    #[serde(default)]
    keyword_names: Vec<String>,
    #[serde(default)]
    keyword_operators: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
struct AllowlistToml {
    condition: Option<String>,
    regex_target: Option<String>,
    #[serde(default)]
    regexes: Vec<String>,
    #[serde(default)]
    stopwords: Vec<String>,
    #[serde(default)]
    paths: Vec<String>,
    #[serde(default)]
    commits: Vec<String>,
}

/// What an allow-list regex is matched against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    Secret,
    Match,
    Line,
}

/// An allow-list of a rule (or of every rule of a file), compiled.
#[derive(Debug, Clone)]
pub(crate) struct Allowlist {
    /// `condition = "AND"`: every check the list has must pass.
    all: bool,
    target: Target,
    regexes: Vec<Regex>,
    /// Lower-cased.
    stopwords: Vec<String>,
    /// The list also names paths or commits, which never match here.
    has_paths: bool,
}

impl Allowlist {
    /// Whether the list lets through `secret`, found in the match `matched` on `line`.
    pub(crate) fn allows(&self, secret: &str, matched: &str, line: &str) -> bool {
        let target = match self.target {
            Target::Secret => secret,
            Target::Match => matched,
            Target::Line => line,
        };
        let regex = (!self.regexes.is_empty())
            .then(|| self.regexes.iter().any(|regex| regex.is_match(target)));
        let stopword = (!self.stopwords.is_empty()).then(|| {
            let lower = secret.to_lowercase();
            self.stopwords.iter().any(|word| lower.contains(word.as_str()))
        });
        let checks = [regex, stopword, self.has_paths.then_some(false)];
        if self.all {
            checks.iter().flatten().all(|&passed| passed) && checks.iter().any(Option::is_some)
        } else {
            checks.iter().flatten().any(|&passed| passed)
        }
    }
}

/// One rule of a file, with what a [`Rule`] has no field for.
#[derive(Debug, Clone)]
pub(crate) struct FileRule {
    pub(crate) rule: Rule,
    pub(crate) generic: bool,
    pub(crate) extractor: Option<String>,
    pub(crate) allowlists: Vec<Allowlist>,
}

/// A rule file, parsed and checked.
#[derive(Debug, Clone, Default)]
pub(crate) struct RuleFile {
    pub(crate) rules: Vec<FileRule>,
    /// Allow-lists for every rule of the file.
    pub(crate) allowlists: Vec<Allowlist>,
}

/// Parses a rule file in gitleaks' format. `go`: the regexes may be in Go's syntax
/// (a user's file): one that does not compile as it is is read as Go reads it.
pub(crate) fn parse(text: &str, go: bool) -> Result<RuleFile, Error> {
    let file: FileToml = toml::from_str(text).map_err(|error| {
        let line = error.span().map_or(0, |span| text[..span.start].matches('\n').count() + 1);
        Error::InvalidRuleFile { line, message: error.message().to_owned() }
    })?;
    let mut parsed = RuleFile::default();
    for list in file.allowlist.iter().chain(&file.allowlists) {
        if let Some(list) = allowlist(list, None, go)? {
            parsed.allowlists.push(list);
        }
    }
    for rule in file.rules {
        // A rule on file names only, or on a file name and its content: never here.
        let Some(regex) = rule.regex.filter(|_| rule.path.is_none()) else { continue };
        let mut allowlists = Vec::new();
        for list in rule.allowlist.iter().chain(&rule.allowlists) {
            if let Some(list) = allowlist(list, Some(&rule.id), go)? {
                allowlists.push(list);
            }
        }
        // The file's own allow-lists apply to each of its rules.
        allowlists.extend(parsed.allowlists.iter().cloned());
        let mut keywords = rule.keywords;
        for name in &rule.keyword_names {
            for quote in ["", "\"", "'", "\\\""] {
                for space in ["", " ", "\t"] {
                    for operator in &rule.keyword_operators {
                        keywords.push(format!("{name}{quote}{space}{operator}"));
                    }
                }
            }
        }
        let regex = if go { from_go(regex) } else { regex };
        // As gitleaks: without `secretGroup`, the first group that took part.
        let secret_group = rule.secret_group.or_else(|| has_group(&regex).then_some(1));
        parsed.rules.push(FileRule {
            rule: Rule {
                id: rule.id,
                regex,
                keywords,
                entropy: rule.entropy,
                secret_group,
                description: rule.description,
            },
            generic: rule.generic,
            extractor: rule.extractor,
            allowlists,
        });
    }
    Ok(parsed)
}

/// Compiles one allow-list; `None` when it has nothing a redactor can check.
fn allowlist(
    list: &AllowlistToml,
    rule: Option<&str>,
    go: bool,
) -> Result<Option<Allowlist>, Error> {
    let id = || rule.unwrap_or("(allowlist)").to_owned();
    let all = match list.condition.as_deref().map(str::to_ascii_uppercase).as_deref() {
        None | Some("OR") => false,
        Some("AND") => true,
        Some(_) => {
            return Err(Error::InvalidRuleFile {
                line: 0,
                message: format!("rule `{}`: an allowlist condition is `OR` or `AND`", id()),
            });
        }
    };
    let target = match list.regex_target.as_deref() {
        None | Some("secret" | "") => Target::Secret,
        Some("match") => Target::Match,
        Some("line") => Target::Line,
        Some(_) => {
            return Err(Error::InvalidRuleFile {
                line: 0,
                message: format!("rule `{}`: regexTarget is `secret`, `match` or `line`", id()),
            });
        }
    };
    let mut regexes = Vec::new();
    for regex in &list.regexes {
        let regex = if go { from_go(regex.clone()) } else { regex.clone() };
        regexes.push(Regex::new(&regex).map_err(|_| Error::InvalidRegex { id: id() })?);
    }
    let stopwords: Vec<String> = list.stopwords.iter().map(|word| word.to_lowercase()).collect();
    let has_paths = !list.paths.is_empty() || !list.commits.is_empty();
    if regexes.is_empty() && stopwords.is_empty() {
        return Ok(None);
    }
    Ok(Some(Allowlist { all, target, regexes, stopwords, has_paths }))
}

/// `regex`, written for Go (gitleaks), as Rust's `regex` crate reads it the same way:
/// the Perl classes `\\w`, `\\d`, `\\s` and the word boundaries `\\b`, `\\B` are ASCII in Go
/// (Unicode in Rust, and far bigger: `[\\w.-]{0,50}` does not fit the default size limit),
/// and a `{` that starts no repetition (`{n}`, `{n,}`, `{n,m}`) is a literal in Go. Rust's
/// own `\\b{start-half}` and the like are kept. When the result does not compile and
/// `regex` does, `regex` is kept as it was.
fn from_go(regex: String) -> String {
    let mut out = String::with_capacity(regex.len() + 16);
    let mut in_class = false;
    let mut chars = regex.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => {
                let Some((_, next)) = chars.next() else {
                    out.push(c);
                    break;
                };
                let (outside, inside) = match next {
                    'w' => ("[0-9A-Za-z_]", "0-9A-Za-z_"),
                    'W' => ("[^0-9A-Za-z_]", "[^0-9A-Za-z_]"),
                    'd' => ("[0-9]", "0-9"),
                    'D' => ("[^0-9]", "[^0-9]"),
                    's' => ("[\\t\\n\\f\\r ]", "\\t\\n\\f\\r "),
                    'S' => ("[^\\t\\n\\f\\r ]", "[^\\t\\n\\f\\r ]"),
                    'b' | 'B' if !in_class && regex[at + 2..].starts_with('{') => {
                        // Rust's `\\b{start}`, `\\b{end-half}`, …: as written.
                        let len = regex[at..].find('}').map_or(2, |end| end + 1);
                        out.push_str(&regex[at..at + len]);
                        while chars.peek().is_some_and(|&(idx, _)| idx < at + len) {
                            chars.next();
                        }
                        continue;
                    }
                    'b' if !in_class => ("(?-u:\\b)", ""),
                    'B' if !in_class => ("(?-u:\\B)", ""),
                    _ => {
                        out.push(c);
                        out.push(next);
                        continue;
                    }
                };
                out.push_str(if in_class { inside } else { outside });
            }
            '[' if !in_class => {
                in_class = true;
                out.push(c);
                // A `]` first in a class is a literal.
                if let Some(&(_, '^')) = chars.peek() {
                    out.push('^');
                    chars.next();
                }
                if let Some(&(_, ']')) = chars.peek() {
                    out.push_str("\\]");
                    chars.next();
                }
            }
            '[' if in_class && regex[at..].starts_with("[:") => {
                // `[:alpha:]`: copied whole.
                let len = regex[at..].find(":]").map_or(1, |end| end + 2);
                out.push_str(&regex[at..at + len]);
                while chars.peek().is_some_and(|&(idx, _)| idx < at + len) {
                    chars.next();
                }
            }
            '[' if in_class => out.push_str("\\["),
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            '{' if !in_class => {
                let rest = &regex[at + 1..];
                let repetition = rest.find('}').is_some_and(|end| {
                    let inside = &rest[..end];
                    let (min, max) = inside.split_once(',').unwrap_or((inside, "0"));
                    !min.is_empty()
                        && min.bytes().all(|b| b.is_ascii_digit())
                        && max.bytes().all(|b| b.is_ascii_digit())
                });
                out.push_str(if repetition { "{" } else { "\\{" });
            }
            _ => out.push(c),
        }
    }
    if Regex::new(&out).is_err() && Regex::new(&regex).is_ok() { regex } else { out }
}

/// Whether `regex` has a capture group: a `(` outside a class (classes may nest) that is
/// neither escaped nor followed by `?`.
pub(crate) fn has_group(regex: &str) -> bool {
    let bytes = regex.as_bytes();
    // How many classes the current byte is in.
    let mut depth = 0_usize;
    let mut idx = 0;
    while idx < bytes.len() {
        match bytes[idx] {
            b'\\' => idx += 1,
            b'[' => {
                depth += 1;
                // A `]` right after `[` or `[^` is a literal.
                if bytes.get(idx + 1) == Some(&b'^') {
                    idx += 1;
                }
                if bytes.get(idx + 1) == Some(&b']') {
                    idx += 1;
                }
            }
            b']' if depth > 0 => depth -= 1,
            b'(' if depth == 0 && bytes.get(idx + 1) != Some(&b'?') => return true,
            _ => {}
        }
        idx += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{from_go, has_group, parse};

    #[test]
    fn has_group_agrees_with_the_regex_crate() {
        for (pattern, expected) in [
            ("abc", false),
            ("(abc)", true),
            ("a(b)", true),
            ("(?:abc)", false),
            ("a(?:b)", false),
            (r"(?-u:\b)x", false),
            (r"\(x\)", false),
            (r"\\(x)", true),
            ("[(]x", false),
            ("[a](x)", true),
            ("[^a](x)", true),
            ("[]()]", false),
            ("[^]()]", false),
            (r"[\]()]", false),
            (r"[\]](x)", true),
            ("a](x)", true),
            ("a]", false),
            ("[a[]()]]", false),
            ("[a[]()]](x)", true),
            ("[a[b]()]", false),
            ("[a[^]b]()]", false),
            ("[[:alpha:]](x)", true),
            ("[[:alpha:](]", false),
        ] {
            let regex = regex::Regex::new(pattern).unwrap();
            assert_eq!(regex.captures_len() > 1, expected, "{pattern:?} (the table)");
            assert_eq!(has_group(pattern), expected, "{pattern:?}");
        }
    }

    #[test]
    fn reads_gitleaks_keys() {
        let file = parse(
            r#"
title = "x"
[extend]
useDefault = true
[allowlist]
stopwords = ["Sample"]
[[rules]]
id = "a"
regex = '''key_([a-z]+)'''
keywords = ["key_"]
tags = ["t"]
[rules.allowlist]
regexTarget = "line"
regexes = ['''^#''']
[[rules]]
id = "b"
regex = '''x'''
secret_group = 0
[[rules.allowlists]]
paths = ['''\.md$''']
[[rules]]
id = "c"
path = '''\.p12$'''
"#,
            true,
        )
        .unwrap();
        assert_eq!(file.rules.len(), 2);
        assert_eq!(file.rules[0].rule.secret_group, Some(1));
        assert_eq!(file.rules[0].allowlists.len(), 2);
        assert!(file.rules[0].allowlists[0].allows("abc", "key_abc", "# key_abc"));
        assert!(!file.rules[0].allowlists[0].allows("abc", "key_abc", "key_abc"));
        assert_eq!(file.rules[1].rule.secret_group, Some(0));
        assert_eq!(file.rules[1].allowlists.len(), 1);
        assert!(file.allowlists[0].allows("mysample", "", ""));
        let error = parse("[[rules]]\nid = 3\n", true).unwrap_err();
        assert_eq!(from_go(r"^\${(?:[A-Z_]+)}$".to_owned()), r"^\$\{(?:[A-Z_]+)}$");
        assert_eq!(from_go(r"a{2}[{]{".to_owned()), r"a{2}[{]\{");
        assert_eq!(
            from_go(r"\b[\w.-]\s\d{2}".to_owned()),
            r"(?-u:\b)[0-9A-Za-z_.-][\t\n\f\r ][0-9]{2}"
        );
        assert_eq!(from_go(r"\b{start-half}x[^\S]".to_owned()), r"\b{start-half}x[^[^\t\n\f\r ]]");
        assert!(error.to_string().contains("line 2"), "{error}");
    }
}
