//! Times `prompt_budget::fit` on payloads of about 100 KB, 1 MB and 10 MB fitted to a
//! 12,000-character budget, and prints the times and the time per megabyte, so one can see
//! whether fitting scales linearly with the payload.
//!
//! Run with `cargo bench -p standup-prompt-budget`. Plain `std::time`, no benchmark framework.

#![allow(clippy::print_stdout, reason = "a benchmark reports on stdout")]
#![allow(missing_docs, reason = "a benchmark binary has no public API")]

use std::hint::black_box;
use std::time::{Duration, Instant};

use prompt_budget::{Tier, fit};
use serde_json::{Value, json};

const BUDGET: usize = 12_000;
const RUNS: usize = 5;

/// A payload shaped like a busy day: many projects, each with items and notes, and a list of
/// groups with examples. `n_projects` scales it.
fn payload(n_projects: usize) -> Value {
    let projects: Vec<Value> = (0..n_projects)
        .map(|project_idx| {
            let items: Vec<Value> = (0..20)
                .map(|item_idx| {
                    json!({
                        "subject": format!("change {item_idx} in project {project_idx}: tidy <parser> & tests"),
                        "insertions": item_idx * 7,
                        "deletions": item_idx * 3,
                    })
                })
                .collect();
            let notes: Vec<Value> = (0..12)
                .map(|note_idx| json!({"title": format!("note {note_idx} 日本語も少し"), "count": note_idx}))
                .collect();
            json!({
                "name": format!("project-{project_idx}"),
                "items": {"items": items},
                "notes": {"items": notes},
            })
        })
        .collect();
    let groups: Vec<Value> = (0..40)
        .map(|group_idx| {
            json!({"head": format!("tool {group_idx}"), "count": 40 - group_idx,
                   "examples": [format!("tool {group_idx} --flag a"), format!("tool {group_idx} --flag b")]})
        })
        .collect();
    json!({"date": "2026-11-27", "groups": {"items": groups}, "projects": {"items": projects}})
}

fn tiers() -> Vec<Tier> {
    let tier = |result: Result<Tier, prompt_budget::Error>| match result {
        Ok(tier) => tier,
        Err(error) => panic!("bench tier: {error}"),
    };
    vec![
        tier(Tier::remove("examples", "/groups/items/*/examples", "/groups")).last_match_first(),
        tier(Tier::trim("groups", "/groups/items", 10, "/groups")),
        tier(Tier::trim("notes", "/projects/items/*/notes/items", 10, "/projects/items/*/notes"))
            .last_match_first(),
        tier(Tier::trim("items", "/projects/items/*/items/items", 15, "/projects/items/*/items"))
            .last_match_first(),
        tier(Tier::remove("groups_all", "/groups/items", "/groups")),
        tier(Tier::trim("projects", "/projects/items", 0, "/projects")),
    ]
}

/// Grows the payload until its compact text reaches `target_bytes`.
fn payload_of_size(target_bytes: usize) -> (Value, usize) {
    let per_project = serde_json::to_string(&payload(1)).map_or(1, |text| text.len()).max(1);
    let mut n_projects = (target_bytes / per_project).max(1);
    loop {
        let value = payload(n_projects);
        let bytes = serde_json::to_string(&value).map_or(0, |text| text.len());
        if bytes >= target_bytes {
            return (value, bytes);
        }
        n_projects += (target_bytes - bytes) / per_project + 1;
    }
}

fn main() {
    let tiers = tiers();
    println!("fit to {BUDGET} characters, best and median of {RUNS} runs");
    for target in [100_000, 1_000_000, 10_000_000] {
        let (value, bytes) = payload_of_size(target);
        let mut times: Vec<Duration> = Vec::with_capacity(RUNS);
        let mut last_len = 0;
        for _ in 0..RUNS {
            let input = value.clone();
            let start = Instant::now();
            let fitted = match fit(black_box(input), BUDGET, &tiers) {
                Ok(fitted) => fitted,
                Err(error) => panic!("fit failed: {error}"),
            };
            times.push(start.elapsed());
            last_len = fitted.text.chars().count();
            black_box(fitted);
        }
        times.sort();
        let best = times[0];
        let median = times[RUNS / 2];
        #[expect(clippy::cast_precision_loss, reason = "a display figure")]
        let per_mb = best.as_secs_f64() * 1000.0 / (bytes as f64 / 1_000_000.0);
        println!(
            "payload {bytes:>10} bytes -> {last_len:>6} chars: best {:>9.3} ms, median {:>9.3} ms, {per_mb:.2} ms/MB",
            best.as_secs_f64() * 1000.0,
            median.as_secs_f64() * 1000.0,
        );
    }
}
