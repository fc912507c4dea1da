//! Shell commands grouped by their head: the program, plus the sub-command for tools
//! such as git and cargo.

/// Programs whose head includes the sub-command (`git commit`, `cargo test`).
pub const DEFAULT_TWO_WORD: [&str; 14] = [
    "git",
    "cargo",
    "npm",
    "pnpm",
    "yarn",
    "docker",
    "kubectl",
    "go",
    "uv",
    "pip",
    "brew",
    "gh",
    "terraform",
    "just",
];

/// Heads that are noise in a report.
pub const DEFAULT_IGNORE: [&str; 10] =
    ["ls", "cd", "pwd", "clear", "exit", "history", "ll", "la", "z", "j"];

/// Prefixes stripped before the program: they wrap the command that matters.
const WRAPPERS: [&str; 5] = ["sudo", "env", "time", "nohup", "command"];

/// How shell commands are grouped.
#[derive(Debug, Clone)]
pub struct ShellGrouping {
    /// Programs whose head includes the sub-command.
    pub two_word: Vec<String>,
    /// Heads that are dropped.
    pub ignore: Vec<String>,
    /// How many distinct examples a group keeps.
    pub examples: usize,
}

impl Default for ShellGrouping {
    fn default() -> Self {
        ShellGrouping {
            two_word: DEFAULT_TWO_WORD.iter().map(|word| (*word).to_owned()).collect(),
            ignore: DEFAULT_IGNORE.iter().map(|word| (*word).to_owned()).collect(),
            examples: 3,
        }
    }
}

/// The head of a command line: wrappers (`sudo`, `env VAR=…`, `time`, `nohup`,
/// `command`) and leading `VAR=value` assignments stripped, the program's file name,
/// and for a two-word program its first non-option argument. `None` for a line with no
/// program (blank, a comment, only assignments).
pub fn head(command: &str, two_word: &[String]) -> Option<String> {
    let words = split_words(command.lines().next().unwrap_or_default());
    let mut words = words.iter().map(String::as_str).peekable();
    let mut program = None;
    while let Some(word) = words.next() {
        if word.starts_with('#') {
            return None;
        }
        if is_assignment(word) {
            continue;
        }
        if WRAPPERS.contains(&word) {
            // Skip the wrapper's own options (`sudo -u root`, `env -i`).
            while words.peek().is_some_and(|next| next.starts_with('-')) {
                let option = words.next().unwrap_or_default();
                if word == "sudo" && matches!(option, "-u" | "-g" | "-C" | "-h" | "-p") {
                    words.next();
                }
            }
            continue;
        }
        program = Some(word.rsplit('/').next().unwrap_or(word));
        break;
    }
    let program = program.filter(|program| !program.is_empty())?;
    if !two_word.iter().any(|known| known == program) {
        return Some(program.to_owned());
    }
    while let Some(word) = words.next() {
        if word.starts_with('-') || word.starts_with('+') {
            // git's `-C <dir>` and `-c <key=value>` take an argument.
            if program == "git" && matches!(word, "-C" | "-c") {
                words.next();
            }
            continue;
        }
        if matches!(word, "|" | "&&" | "||" | ";" | ">" | "<") {
            break;
        }
        return Some(format!("{program} {word}"));
    }
    Some(program.to_owned())
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// Splits a command line into words, honouring single and double quotes and
/// backslashes well enough to find the program and its sub-command.
fn split_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(open), c) if c == open => quote = None,
            (Some('"') | None, '\\') => {
                if let Some(next) = chars.next() {
                    word.push(next);
                }
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, ';' | '|' | '&') => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
                words.push(c.to_string());
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(command: &str, expected: Option<&str>) {
        let two_word: Vec<String> =
            DEFAULT_TWO_WORD.iter().map(|word| (*word).to_owned()).collect();
        assert_eq!(head(command, &two_word).as_deref(), expected, "head of {command:?}");
    }

    #[test]
    fn program_alone() {
        check("make -j8", Some("make"));
        check("/usr/bin/python3 script.py", Some("python3"));
    }

    #[test]
    fn two_word_programs_take_the_subcommand() {
        check("cargo test -p collect", Some("cargo test"));
        check("git -C ~/src/x commit -m 'fix'", Some("git commit"));
        check("git -c core.pager=cat log", Some("git log"));
        check("cargo +nightly fuzz run clean", Some("cargo fuzz"));
        check("docker compose up -d", Some("docker compose"));
        check("git", Some("git"));
        check("git --version | head", Some("git"));
    }

    #[test]
    fn wrappers_and_assignments_are_stripped() {
        check("sudo -u root apt-get install jq", Some("apt-get"));
        check("env RUST_LOG=debug cargo run", Some("cargo run"));
        check("RUST_BACKTRACE=1 cargo test", Some("cargo test"));
        check("time nohup ./build.sh", Some("build.sh"));
        check("command ls", Some("ls"));
    }

    #[test]
    fn lines_without_a_program() {
        check("", None);
        check("   ", None);
        check("FOO=bar", None);
        check("# just a comment", None);
    }

    #[test]
    fn quotes_and_multiline_commands() {
        check("\"my tool\" --flag", Some("my tool"));
        check("git commit -m 'first line\nsecond'", Some("git commit"));
    }
}
