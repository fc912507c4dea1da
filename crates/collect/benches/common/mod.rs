//! What the collect benchmarks share.

use std::time::{Duration, Instant};

/// The median wall time of `runs` calls of `run`, after one call that warms the page
/// cache.
pub(crate) fn median(runs: usize, mut run: impl FnMut()) -> Duration {
    run();
    let mut times: Vec<Duration> = (0..runs.max(1))
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed()
        })
        .collect();
    times.sort_unstable();
    times[times.len() / 2]
}
