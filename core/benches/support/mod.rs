//! What the benchmarks share: the median timing behind the ratios they print.

use std::time::{Duration, Instant};

/// Median time per call of `f` over `samples` batches, each of about `batch`.
#[allow(dead_code)] // Not every benchmark times one route alone.
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

/// Median time per call of each of `routes`, measured in turns: every sample times one
/// batch of each route, one after another, so that a change in the machine's speed
/// during the run touches all routes alike and their ratios stay fair.
#[allow(dead_code)] // Not every benchmark compares routes.
pub fn medians_interleaved(
    batch: Duration,
    samples: usize,
    routes: &mut [&mut dyn FnMut()],
) -> Vec<Duration> {
    let per_batch: Vec<u32> = routes
        .iter_mut()
        .map(|f| {
            let start = Instant::now();
            let mut n = 0u32;
            while start.elapsed() < batch {
                f();
                n += 1;
            }
            n.max(1)
        })
        .collect();
    let mut times: Vec<Vec<Duration>> = vec![Vec::with_capacity(samples); routes.len()];
    for _ in 0..samples.max(1) {
        for ((f, n), out) in routes.iter_mut().zip(&per_batch).zip(&mut times) {
            let t = Instant::now();
            for _ in 0..*n {
                f();
            }
            out.push(t.elapsed() / *n);
        }
    }
    times
        .into_iter()
        .map(|mut t| {
            t.sort();
            t[t.len() / 2]
        })
        .collect()
}

/// An input built to defeat a linear scan, of about `bytes` bytes.
#[allow(dead_code)] // Not every benchmark reads hostile inputs.
pub struct Hostile {
    pub name: &'static str,
    pub build: fn(usize) -> String,
}

/// The hostile inputs' sizes: 1×, 10×, 100×.
#[allow(dead_code)]
pub const HOSTILE_BYTES: [usize; 3] = [10_000, 100_000, 1_000_000];

/// Past this ratio of 10× to 1×, the work is not linear: 100× is not run.
#[allow(dead_code)]
pub const SUPERLINEAR: f64 = 30.0;

/// `unit` repeated to about `bytes` bytes.
#[allow(dead_code)]
pub fn fill(unit: &str, bytes: usize) -> String {
    unit.repeat((bytes / unit.len()).max(1))
}
