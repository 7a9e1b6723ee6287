//! CPU time of the bench's own thread (from /proc, 10 ms ticks), so that a busy shared machine
//! does not inflate per-run figures measured over many runs. Shared by the vision benches.

use std::hint::black_box;
use std::time::Duration;

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
