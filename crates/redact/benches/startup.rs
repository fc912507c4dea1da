//! What a run pays before its first redaction: building the built-in redactor and one line.
//!
//! `cargo bench -p redact --bench startup` builds the built-in redactor 30 times and
//! prints the median time of the build alone, of the build plus one clean line, and of
//! the build plus one line with a token (which compiles the rules it needs).

#![allow(clippy::print_stdout, reason = "a benchmark reports on stdout")]

use std::hint::black_box;
use std::time::{Duration, Instant};

use redact::Redactor;

const RUNS: usize = 30;

fn median(mut samples: Vec<Duration>) -> f64 {
    samples.sort_unstable();
    samples[samples.len() / 2].as_secs_f64() * 1000.0
}

fn measure(line: Option<&str>) -> f64 {
    let samples = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            // `Redactor::builtin()` builds once per process; the builder builds every time.
            let redactor = Redactor::builder().build().expect("the built-in rules compile");
            if let Some(line) = line {
                black_box(redactor.redact(black_box(line)));
            }
            start.elapsed()
        })
        .collect();
    median(samples)
}

fn main() {
    let build = measure(None);
    let clean = measure(Some("cargo test -p redact -- --nocapture"));
    let token = measure(Some("export GITHUB_TOKEN=ghp_FAKEq8w7e6r5t4y3u2i1o9p8a7s6d5f4g3h2"));
    println!("build:                {build:7.2} ms (median of {RUNS})");
    println!("build + a clean line: {clean:7.2} ms");
    println!("build + a token line: {token:7.2} ms");
}
