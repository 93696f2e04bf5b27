//! What the benchmarks share: the median timing behind the ratios they print.

use std::time::{Duration, Instant};

/// Median time per call of `f` over `samples` batches, each of about `batch`.
pub fn median(batch: Duration, samples: usize, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    let mut per_batch = 0u32;
    while start.elapsed() < batch {
        f();
        per_batch += 1;
    }
    let per_batch = per_batch.max(1);
    let mut times: Vec<Duration> = (0..samples.max(1))
        .map(|_| {
            let t = Instant::now();
            for _ in 0..per_batch {
                f();
            }
            t.elapsed() / per_batch
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}
