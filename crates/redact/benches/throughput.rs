//! Throughput of `Redactor::redact` over realistic text, line by line.
//!
//! `cargo bench -p standup-redact` generates, deterministically, 10 MB of shell history and
//! commit subjects without secrets ("clean") and 10 MB with a fake secret on every line
//! ("dense"), redacts each line and prints MB/s (best of three runs). Targets on a
//! 2-core machine: 300 MB/s clean, 30 MB/s dense.

#![allow(clippy::print_stdout, reason = "a benchmark reports on stdout")]

use std::hint::black_box;
use std::time::{Duration, Instant};

use redact::Redactor;

const TARGET_BYTES: usize = 10 * 1024 * 1024;
const RUNS: usize = 3;

/// A small deterministic generator (xorshift64*), so every run sees the same text.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() >> 33).unwrap_or(0) % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn chars(&mut self, alphabet: &str, len: usize) -> String {
        let alphabet = alphabet.as_bytes();
        (0..len).map(|_| char::from(alphabet[self.below(alphabet.len())])).collect()
    }
}

const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX: &str = "0123456789abcdef";
const WORDS: &[&str] = &[
    "parser",
    "config",
    "session",
    "history",
    "report",
    "render",
    "window",
    "cache",
    "index",
    "login",
    "auth",
    "token",
    "retry",
    "timeout",
    "worker",
    "queue",
    "schema",
    "migration",
    "test",
    "fixture",
    "docs",
    "README",
    "logging",
    "metrics",
    "client",
    "server",
    "handler",
];
const CRATES: &[&str] =
    &["collect", "redact", "sanitize", "render", "aggregate", "standup", "narrative"];
const FILES: &[&str] = &[
    "src/lib.rs",
    "src/main.rs",
    "Cargo.toml",
    "tests/it/main.rs",
    "README.md",
    "src/shell/zsh.rs",
];

/// One line of shell history or one commit subject, without secrets.
fn clean_line(rng: &mut Rng) -> String {
    let word = rng.pick(WORDS);
    let other = rng.pick(WORDS);
    let krate = rng.pick(CRATES);
    let file = rng.pick(FILES);
    let n = rng.below(500);
    match rng.below(24) {
        0 => "git status".to_owned(),
        1 => format!("git commit -m \"{krate}: handle empty {word} in {other}\""),
        2 => format!("cargo test -p {krate} {word}"),
        3 => format!("cargo clippy -p {krate} --all-targets -- -D warnings"),
        4 => format!("cd ~/src/{krate}"),
        5 => format!("vim {file}"),
        6 => "docker compose up -d".to_owned(),
        7 => format!("kubectl get pods -n {word}-{n}"),
        8 => format!("curl -s https://api.example.com/v1/{word}?page={n} | jq ."),
        9 => format!("git log --oneline -n {n}"),
        10 => format!("grep -rn '{word}' src/"),
        11 => format!("ssh deploy@{word}-{n}.internal"),
        12 => "export RUST_LOG=debug".to_owned(),
        13 => format!("git checkout -b feature/{word}-{other}"),
        14 => format!("fix({krate}): refresh {word} before expiry"),
        15 => format!("feat: add {word} support to {other}"),
        16 => format!("refactor auth token refresh in {krate}"),
        17 => format!("bump {krate} from 1.2.{n} to 1.2.{}", n + 1),
        18 => format!("Merge branch 'feature/{word}' into main"),
        19 => format!("docs: explain the password reset flow for {word}"),
        20 => format!("git cherry-pick {}", rng.chars(HEX, 40)),
        21 => format!("npm run build -- --mode={word}"),
        22 => format!("ls -la ~/.config/{krate}"),
        _ => format!("make {word} && ./target/release/{krate} --{other} {n}"),
    }
}

/// One line with a fake secret.
fn dense_line(rng: &mut Rng) -> String {
    let word = rng.pick(WORDS);
    match rng.below(12) {
        0 => format!("export GITHUB_TOKEN=ghp_FAKE{}", rng.chars(ALNUM, 32)),
        1 => format!(
            "curl -H \"Authorization: Bearer {}\" https://api.example.com/{word}",
            rng.chars(ALNUM, 40)
        ),
        2 => format!(
            "AWS_ACCESS_KEY_ID=AKIA{} aws s3 ls",
            rng.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
        ),
        3 => {
            format!("git clone https://deploy:{}@git.example.com/{word}.git", rng.chars(ALNUM, 16))
        }
        4 => format!("OPENAI_API_KEY=sk-proj-{} python run.py", rng.chars(ALNUM, 64)),
        5 => format!("export DB_PASSWORD={}", rng.chars(ALNUM, 14)),
        6 => format!("mysql -u root -p{} {word}", rng.chars(ALNUM, 12)),
        7 => format!("stripe login --api-key sk_test_FAKE{}", rng.chars(ALNUM, 24)),
        8 => format!("{{\"password\": \"{}\", \"user\": \"{word}\"}}", rng.chars(ALNUM, 16)),
        9 => format!(
            "slack notify xoxb-{}-{}-{}",
            rng.chars("0123456789", 12),
            rng.chars("0123456789", 13),
            rng.chars(ALNUM, 24)
        ),
        10 => format!("token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJmYWtlIn0.{}", rng.chars(ALNUM, 43)),
        _ => {
            format!("npm config set //registry.npmjs.org/:_authToken=npm_{}", rng.chars(ALNUM, 36))
        }
    }
}

fn generate(seed: u64, line: fn(&mut Rng) -> String) -> Vec<String> {
    let mut rng = Rng(seed);
    let mut lines = Vec::new();
    let mut n_bytes = 0;
    while n_bytes < TARGET_BYTES {
        let next = line(&mut rng);
        n_bytes += next.len() + 1;
        lines.push(next);
    }
    lines
}

/// Redacts every line, `RUNS` times; returns the best time and the number masked.
fn measure(redactor: &Redactor, lines: &[String]) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut n_masked = 0;
    for _ in 0..RUNS {
        let start = Instant::now();
        n_masked = 0;
        for line in lines {
            let (masked, n) = redactor.redact(black_box(line));
            black_box(masked);
            n_masked += n;
        }
        best = best.min(start.elapsed());
    }
    (best, n_masked)
}

fn report(name: &str, lines: &[String], elapsed: Duration, n_masked: usize) {
    let n_bytes: usize = lines.iter().map(|line| line.len() + 1).sum();
    #[expect(clippy::cast_precision_loss, reason = "megabytes for display")]
    let megabytes = n_bytes as f64 / 1_000_000.0;
    println!(
        "{name:>5}: {:7.1} MB/s  ({megabytes:.1} MB, {} lines, {n_masked} masked, {:.1} ms)",
        megabytes / elapsed.as_secs_f64(),
        lines.len(),
        elapsed.as_secs_f64() * 1000.0,
    );
}

fn main() {
    // `cargo bench -p standup-redact -- dense` runs one of the two; cargo adds `--bench`.
    let only: Vec<String> = std::env::args().skip(1).filter(|arg| !arg.starts_with("--")).collect();
    let runs = |name: &str| only.is_empty() || only.iter().any(|arg| arg == name);
    let start = Instant::now();
    let redactor = Redactor::builtin();
    println!(
        "build: {:.1} ms for {} rules",
        start.elapsed().as_secs_f64() * 1000.0,
        redactor.rules().count()
    );

    if runs("clean") {
        let clean = generate(0x5EED_0001, clean_line);
        let (elapsed, n_masked) = measure(&redactor, &clean);
        assert_eq!(n_masked, 0, "the clean text has no secrets");
        report("clean", &clean, elapsed, n_masked);
    }
    if !runs("dense") {
        return;
    }
    let dense = generate(0x5EED_0002, dense_line);
    let (elapsed, n_masked) = measure(&redactor, &dense);
    // A random fake can, rarely, fall below a rule's entropy floor.
    assert!(n_masked >= dense.len() * 99 / 100, "nearly every dense line has a secret");
    report("dense", &dense, elapsed, n_masked);
}
