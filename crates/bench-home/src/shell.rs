//! Shell histories: `~/.zsh_history` (EXTENDED_HISTORY, metafied, with continued
//! lines), `~/.bash_history` (`#<epoch>` lines) and fish's
//! `~/.local/share/fish/fish_history`, each over the past year in time order, ending
//! with the commands of the reference day; each file's mtime is its last entry's time.
//!
//! Commands the reports leave out (the default ignore list) are only ever written as
//! bare `ls`, `ls -la`, `cd …`, `pwd` and `clear`, so which ones count is unambiguous.

use std::path::Path;

use crate::clock::{Clock, SECOND};
use crate::files::{self, Counted};
use crate::git::Plan;
use crate::rng::Rng;
use crate::text::{JAPANESE, WORDS};
use crate::{Error, Params};

/// Commands that count, with weights. `{w}` is a word, `{r}` a repository, `{j}` a
/// Japanese phrase.
const COUNTED: &[(&str, u64)] = &[
    ("git status", 30),
    ("git diff", 15),
    ("git add -p", 8),
    ("git commit -m \"Fix the {w} handling\"", 10),
    ("git commit -m \"{j}\"", 2),
    ("git push", 6),
    ("git pull --rebase", 5),
    ("git log --oneline -20", 5),
    ("git switch -c feature/{w}", 3),
    ("git -C ~/{r} fetch", 2),
    ("cargo build", 8),
    ("cargo test -p {w}", 10),
    ("cargo clippy --all-targets -- -D warnings", 4),
    ("cargo run -- daily", 3),
    ("make", 4),
    ("make test", 3),
    ("npm install", 3),
    ("npm run dev", 3),
    ("pnpm test", 2),
    ("docker compose up -d", 2),
    ("docker ps", 2),
    ("kubectl get pods -n staging", 2),
    ("vim src/{w}.rs", 8),
    ("nvim Cargo.toml", 3),
    ("code .", 3),
    ("rg -n '{w}' src", 6),
    ("fd -e rs {w}", 2),
    ("cat README.md", 3),
    ("tail -f logs/{w}.log", 2),
    ("ssh dev-box", 2),
    ("curl -s https://example.invalid/health | jq .", 2),
    ("python3 -m pytest -x", 2),
    ("uv run pytest", 2),
    ("go test ./...", 2),
    ("terraform plan", 1),
    ("gh pr create --fill", 2),
    ("htop", 1),
    ("man git-log", 1),
    ("sudo apt-get update", 1),
    ("RUST_LOG=debug cargo run", 2),
    ("time make -j8", 1),
    ("env FOO=1 ./scripts/check.sh", 1),
    ("echo \"{j} {w}\"", 2),
    ("for f in src/*.rs; do\n  wc -l $f\ndone", 1),
];

/// Commands the default ignore list leaves out.
const IGNORED: &[(&str, u64)] =
    &[("ls", 12), ("ls -la", 6), ("cd ..", 6), ("cd ~/{r}", 10), ("pwd", 3), ("clear", 4)];

/// Which shell a history is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Zsh,
    Bash,
    Fish,
}

/// What the histories hold.
pub(crate) struct ShellWritten {
    /// `(time, counted)` of every command from the start of the previous working day on.
    pub(crate) commands: Vec<(i64, bool)>,
    pub(crate) zsh_lines: u64,
    pub(crate) bash_lines: u64,
    pub(crate) fish_entries: u64,
    pub(crate) bytes: u64,
}

struct Pools {
    counted: Vec<u64>,
    ignored: Vec<u64>,
    repos: Vec<String>,
}

impl Pools {
    /// A command and whether the reports count it.
    fn command(&self, rng: &mut Rng, kind: Kind) -> (String, bool) {
        let counted = !rng.percent(25);
        let template = if counted {
            COUNTED[rng.weighted(&self.counted)].0
        } else {
            IGNORED[rng.weighted(&self.ignored)].0
        };
        let mut command =
            template.replace("{w}", rng.pick_str(WORDS)).replace("{j}", rng.pick_str(JAPANESE));
        if command.contains("{r}") {
            command = command.replace("{r}", rng.pick(&self.repos).as_str());
        }
        if kind == Kind::Bash && counted && rng.percent(1) {
            // A here-document: every line up to the next `#<epoch>` is one command.
            "cat <<'EOF' > notes.txt\nstandup at ten\nEOF".clone_into(&mut command);
        }
        (command, counted)
    }
}

/// Writes the three histories.
pub(crate) fn write(
    home: &Path,
    params: &Params,
    clock: &Clock,
    plans: &[Plan],
    seed: u64,
) -> Result<ShellWritten, Error> {
    let pools = Pools {
        counted: COUNTED.iter().map(|(_, weight)| *weight).collect(),
        ignored: IGNORED.iter().map(|(_, weight)| *weight).collect(),
        repos: plans
            .iter()
            .filter_map(|plan| plan.path.strip_prefix(home).ok())
            .map(|path| path.to_string_lossy().into_owned())
            .collect(),
    };
    let since = clock.day_start(-1);
    let mut written = ShellWritten {
        commands: Vec::new(),
        zsh_lines: 0,
        bash_lines: 0,
        fish_entries: 0,
        bytes: 0,
    };
    let histories = [
        (Kind::Zsh, home.join(".zsh_history"), params.zsh_lines, params.today_commands[0]),
        (Kind::Bash, home.join(".bash_history"), params.bash_lines, params.today_commands[1]),
        (
            Kind::Fish,
            home.join(".local/share/fish/fish_history"),
            params.fish_entries,
            params.today_commands[2],
        ),
    ];
    for (kind, path, target, today) in histories {
        let label = match kind {
            Kind::Zsh => "zsh",
            Kind::Bash => "bash",
            Kind::Fish => "fish",
        };
        let mut rng = Rng::derive(seed, label);
        let entries = entries(&mut rng, clock, &pools, kind, target, today);
        let mut out = Counted::create(&path)?;
        let mut lines = 0;
        let mut buffer = Vec::new();
        for (time, command, counted) in &entries {
            buffer.clear();
            let seconds = time / SECOND;
            match kind {
                Kind::Zsh => {
                    buffer.extend_from_slice(
                        format!(
                            ": {seconds}:{};",
                            if rng.percent(90) { 0 } else { rng.range(1, 40) }
                        )
                        .as_bytes(),
                    );
                    // Each newline of the command is written as `\` + newline.
                    buffer.extend_from_slice(&metafy(&command.replace('\n', "\\\n")));
                    buffer.push(b'\n');
                }
                Kind::Bash => {
                    buffer.extend_from_slice(format!("#{seconds}\n{command}\n").as_bytes());
                }
                Kind::Fish => {
                    let escaped = command.replace('\\', "\\\\").replace('\n', "\\n");
                    buffer.extend_from_slice(
                        format!("- cmd: {escaped}\n  when: {seconds}\n").as_bytes(),
                    );
                    if let Some(file) =
                        command.split(' ').find(|word| word.contains('/') && !word.starts_with('~'))
                    {
                        buffer.extend_from_slice(format!("  paths:\n    - {file}\n").as_bytes());
                    }
                }
            }
            lines += buffer.split(|byte| *byte == b'\n').count() as u64 - 1;
            out.write(&buffer)?;
            if *time >= since {
                written.commands.push((*time, *counted));
            }
        }
        written.bytes += out.finish()?;
        if let Some((last, _, _)) = entries.last() {
            files::set_mtime(&path, *last)?;
        }
        match kind {
            Kind::Zsh => written.zsh_lines = lines,
            Kind::Bash => written.bash_lines = lines,
            Kind::Fish => written.fish_entries = entries.len() as u64,
        }
    }
    Ok(written)
}

/// The entries of one history in time order: the past year, then `today` commands on
/// the reference day before the reference time. `target` is lines (zsh, bash) or
/// entries (fish).
fn entries(
    rng: &mut Rng,
    clock: &Clock,
    pools: &Pools,
    kind: Kind,
    target: usize,
    today: usize,
) -> Vec<(i64, String, bool)> {
    let mut entries: Vec<(i64, String, bool)> = Vec::with_capacity(target);
    let mut size = 0;
    let cost = |command: &str| match kind {
        Kind::Zsh => command.lines().count(),
        Kind::Bash => command.lines().count() + 1,
        Kind::Fish => 1,
    };
    let today_size = today * cost("x");
    while size + today_size < target {
        let (command, counted) = pools.command(rng, kind);
        size += cost(&command);
        let hour = if rng.percent(85) { rng.range_i64(9, 19) } else { rng.range_i64(20, 23) };
        let time = clock.at(rng.range_i64(-365, -1), hour * 3600 + rng.range_i64(0, 3599));
        entries.push((time, command, counted));
    }
    entries.sort_by_key(|entry| entry.0);
    let mut times: Vec<i64> =
        (0..today).map(|_| clock.at(0, rng.range_i64(8 * 3600, 17 * 3600 + 58 * 60))).collect();
    times.sort_unstable();
    for time in times {
        let (command, counted) = pools.command(rng, kind);
        entries.push((time, command, counted));
    }
    entries
}

/// zsh's metafication: NUL and the bytes `0x83`–`0xa2` become `0x83` and the byte XOR
/// `0x20`.
fn metafy(command: &str) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(command.len() + 8);
    for &byte in command.as_bytes() {
        if byte == 0 || (0x83..=0xa2).contains(&byte) {
            bytes.push(0x83);
            bytes.push(byte ^ 0x20);
        } else {
            bytes.push(byte);
        }
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule the reports apply, for the simple commands generated here: the
    /// program after wrappers and assignments.
    fn is_ignored(command: &str) -> bool {
        let mut words = command.split_whitespace().skip_while(|word| {
            ["sudo", "env", "time", "nohup", "command"].contains(word) || word.contains('=')
        });
        let program = words.next().unwrap_or_default();
        ["ls", "cd", "pwd", "clear", "exit", "history", "ll", "la", "z", "j"].contains(&program)
    }

    #[test]
    fn counted_and_ignored_templates_are_what_they_say() {
        for (template, _) in COUNTED {
            assert!(!is_ignored(template), "{template}");
            assert!(!template.starts_with(':') && !template.starts_with('#'), "{template}");
        }
        for (template, _) in IGNORED {
            assert!(is_ignored(template), "{template}");
        }
    }

    #[test]
    fn metafies_as_zsh_does() {
        assert_eq!(metafy("日"), b"\xe6\x83\xb7\xa5");
        assert_eq!(metafy("plain"), b"plain");
    }
}
