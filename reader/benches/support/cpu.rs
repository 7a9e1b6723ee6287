//! The vision benches' clocks: wall-clock medians, and the CPU time of the bench's own thread
//! (from /proc, 10 ms ticks), so that a busy shared machine does not inflate per-run figures
//! measured over many runs. Shared by the vision benches of both crates.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Median wall-clock duration of `f` over runs filling about `budget` (at least 5 runs, at most
/// `cap`), and how many runs that was.
pub fn median<T>(budget: Duration, cap: usize, mut f: impl FnMut() -> T) -> (Duration, usize) {
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < 5 || (start.elapsed() < budget && times.len() < cap) {
        let t = Instant::now();
        black_box(f());
        times.push(t.elapsed());
    }
    times.sort();
    (times[times.len() / 2], times.len())
}

/// `d` in milliseconds, two decimals.
pub fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1000.0)
}

/// CPU time this thread has used (from /proc, 10 ms ticks); `None` where /proc does not say.
pub fn thread_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(") ")?.1.split(' ').collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// Mean CPU time of `f` over enough runs to use about `budget` of CPU, `batch` runs between two
/// looks at the clock (a batch for calls much shorter than a tick).
pub fn cpu_mean<T>(budget: Duration, batch: u32, mut f: impl FnMut() -> T) -> Option<Duration> {
    let start = thread_cpu()?;
    let mut n = 0u32;
    while thread_cpu()? - start < budget {
        for _ in 0..batch {
            black_box(f());
        }
        n += batch;
    }
    Some((thread_cpu()? - start) / n)
}
