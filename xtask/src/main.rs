//! Project tasks beyond `cargo build` and `cargo test`, run as `cargo xtask <task>`.
//!
//! - `ci`: exactly what `.ci/run` runs after installing tools: fmt check, clippy, the
//!   tests, `cargo deny check licenses bans sources` (when cargo-deny is installed),
//!   `cargo package` of the publishable leaf crates, the docs with warnings denied and
//!   the gitleaks table (`gitleaks-table --debian`).
//! - `demo`: builds a sample home under `target/demo-home` from `fixtures/demo/home.sh`
//!   and prints `standup daily` and `standup standup` for it.
//! - `bench-home`: generates a synthetic home (`bench_home`) and prints its manifest.
//! - `bench`: times `standup daily` and `standup standup` on the large synthetic home
//!   against a `git log` baseline, and checks the report against the manifest.
//! - `bench-scale`: `standup daily` on the `large` and `large-2x` homes alternating, and
//!   the median of the per-round ratios (what twice the inactive history adds).
//! - `llm-e2e`: the narrative against a real llama.cpp server (llama-cpp-python with the
//!   SmolLM2 GGUF) on the demo home; prints what the model replied and what the checks did.
//! - `record-agents`: runs the npm coding agents offline against a loopback stand-in
//!   model server and saves the session files they write under `fixtures/agents/`.
//! - `gitleaks-table`: gitleaks' rule examples (`tps`, `fps`) from a checkout, as a JSON
//!   table; with `--measure`, how many the built-in rules mask (recall, false positives);
//!   with `--debian` (a step of `ci`), the same on the pinned source tarball of Debian's
//!   archive, with the goals as gates.

#![expect(clippy::disallowed_methods, reason = "xtask's job is to run tools and scripts")]
#![expect(clippy::print_stdout, clippy::print_stderr, reason = "xtask talks to the developer")]

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, bail};

mod bench;
mod gitleaks;
mod gitleaks_measure;
mod llm_e2e;
mod record;

/// The reference time of the demo home: Monday 2026-11-30, 09:30 in Tokyo.
pub(crate) const DEMO_NOW: &str = "2026-11-30T09:30:00+09:00";
pub(crate) const DEMO_TZ: &str = "Asia/Tokyo";

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = workspace_root();
    match args.first().map(String::as_str) {
        Some("ci") => ci(&root),
        Some("demo") => demo(&root),
        Some("bench-home") => bench::bench_home(&root, &args[1..]),
        Some("bench") => bench::bench(&root, &args[1..]),
        Some("bench-scale") => bench::bench_scale(&root, &args[1..]),
        Some("llm-e2e") => llm_e2e::llm_e2e(&root, &args[1..]),
        Some("record-agents") => record::record_agents(&root, &args[1..]),
        Some("gitleaks-table") => gitleaks::run(&root, &args[1..]),
        _ => {
            eprintln!(
                "usage: cargo xtask <task>\n\ntasks:\n  ci     run what CI runs\n  demo   build a sample home and print its reports\n  bench-home [--preset small|large|large-2x|busy|pulled|fetched] [--out DIR] [--force]\n         generate a synthetic home and print its manifest\n  bench [--runs N] [--preset small|large|large-2x|busy|pulled|fetched [--out DIR]]\n         time standup on every benchmark preset (or one) against git log loops\n  bench-scale [--runs N] [--large DIR] [--large-2x DIR]\n         daily on large and large-2x alternating: the time the history adds\n  llm-e2e [daily|standup] [en|ja]\n         the narrative against a real llama.cpp server (slow; needs Python)\n  record-agents [--latest] [--force] [--only AGENT [--version V]] [--timeout SECONDS]\n         record the npm agents' session files offline into fixtures/agents\n  gitleaks-table --src DIR --out FILE [--commit SHA] [--measure]\n         gitleaks' rule examples as a JSON table, and how many the rules mask"
            );
            bail!("unknown or missing task")
        }
    }
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Runs a command in the workspace root, failing with its name if it fails.
pub(crate) fn run(
    root: &Path,
    program: &str,
    args: &[&str],
    envs: &[(&str, &str)],
) -> anyhow::Result<()> {
    eprintln!("$ {program} {}", args.join(" "));
    let status = Command::new(program)
        .args(args)
        .current_dir(root)
        .envs(envs.iter().copied())
        .status()
        .with_context(|| format!("running `{program}`"))?;
    if !status.success() {
        bail!("`{program} {}` failed ({status})", args.join(" "));
    }
    Ok(())
}

/// The publishable crates that depend on no other crate of the workspace.
const PUBLISHABLE_LEAVES: [&str; 5] = [
    "standup-report-model",
    "standup-sanitize",
    "standup-redact",
    "standup-prompt-budget",
    "standup-llm-client",
];

fn ci(root: &Path) -> anyhow::Result<()> {
    run(root, "cargo", &["fmt", "--all", "--check"], &[])?;
    run(root, "cargo", &["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"], &[])?;
    if Command::new("cargo")
        .args(["deny", "--version"])
        .output()
        .is_ok_and(|output| output.status.success())
    {
        // Dev-only crates (httpmock) may pull in an HTTP stack; the ban is about what ships.
        run(
            root,
            "cargo",
            &["deny", "--exclude-dev", "check", "licenses", "bans", "sources"],
            &[],
        )?;
    } else {
        eprintln!(
            "xtask: cargo-deny is not installed; skipping `cargo deny check` (.ci/run installs it)"
        );
    }
    // The crates other tools may depend on package (and build from the package) on their
    // own. `standup-narrative` is publishable too, but `cargo package` verifies a crate
    // against its dependencies on crates.io, where ours are not yet; so the leaves are
    // packaged, in one invocation so that one may use another (redact's tests use
    // sanitize). Offline: everything they need is in the lockfile's cache.
    let mut package = vec!["package", "--quiet", "--offline", "--allow-dirty"];
    for name in PUBLISHABLE_LEAVES {
        package.extend(["-p", name]);
    }
    run(root, "cargo", &package, &[])?;
    run(
        root,
        "cargo",
        &["doc", "--no-deps", "--document-private-items", "--workspace"],
        &[("RUSTDOCFLAGS", "-D warnings")],
    )?;
    // gitleaks' rule examples against the built-in rules, on gitleaks' source from
    // Debian's archive (not run, loudly, when the archive cannot be reached).
    eprintln!("$ cargo xtask gitleaks-table --debian");
    gitleaks::debian(root)?;
    run(root, "cargo", &["test", "--workspace"], &[("INSTA_UPDATE", "no")])
}

fn demo(root: &Path) -> anyhow::Result<()> {
    let home = root.join("target").join("demo-home");
    let home_text = home.to_str().context("the target folder's path is not UTF-8")?;
    run(root, "bash", &["fixtures/demo/home.sh", home_text], &[])?;
    run(root, "cargo", &["build", "--quiet", "-p", "standup"], &[])?;
    let binary = root.join("target").join("debug").join("standup");
    let runs: [&[&str]; 3] = [
        &["daily", "--date", "2026-11-27"],
        &["standup", "--no-llm", "--lang", "en"],
        &["standup", "--no-llm", "--lang", "ja"],
    ];
    for args in runs {
        println!("$ standup {}\n", args.join(" "));
        let status = Command::new(&binary)
            .args(args)
            .current_dir(&home)
            .env("HOME", &home)
            .env("STANDUP_NOW", DEMO_NOW)
            .env("TZ", DEMO_TZ)
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_DATA_HOME")
            .env_remove("HISTFILE")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .status()
            .context("running standup")?;
        if !status.success() {
            bail!("standup {} failed ({status})", args.join(" "));
        }
        println!();
    }
    Ok(())
}
