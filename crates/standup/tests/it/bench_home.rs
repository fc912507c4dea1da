//! The binary on the small synthetic home of `bench_home`: its daily and standup totals
//! must be exactly the ones the generator counted while writing the home.

use std::process::{Command, Stdio};

use bench_home::{Counts, Manifest, Preset};

/// Runs `standup <report> --no-llm --format json` in the generated home.
fn report(manifest: &Manifest, report: &str) -> serde_json::Value {
    #[expect(clippy::disallowed_methods, reason = "the test runs the real binary")]
    let output = Command::new(env!("CARGO_BIN_EXE_standup"))
        .args([report, "--no-llm", "--format", "json"])
        .current_dir(&manifest.home)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", &manifest.home)
        .env("STANDUP_NOW", &manifest.now)
        .env("TZ", &manifest.time_zone)
        .env("LANG", "C")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CEILING_DIRECTORIES", manifest.ceiling())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

#[track_caller]
fn check(json: &serde_json::Value, expected: &Counts, manifest: &Manifest) {
    let totals: Counts = serde_json::from_value(json["totals"].clone()).unwrap();
    assert_eq!(totals, *expected);
    let codes: Vec<&str> = json["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|warning| warning["code"].as_str().unwrap())
        .collect();
    let expected_codes: Vec<&str> =
        manifest.expected_warnings.iter().map(|warning| warning.code.as_str()).collect();
    assert_eq!(codes, expected_codes);
}

#[test]
fn small_bench_home_totals_match_the_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = bench_home::generate(Preset::Small, dir.path()).unwrap();
    // The home has activity of every kind on the reference day.
    let daily = manifest.expected.daily;
    assert!(daily.commits > 0 && daily.sessions > 0 && daily.prompts > 0 && daily.commands > 0);

    check(&report(&manifest, "daily"), &manifest.expected.daily, &manifest);
    check(&report(&manifest, "standup"), &manifest.expected.standup, &manifest);
}
