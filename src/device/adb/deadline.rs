//! Deadlines for adb calls. adb_client blocks on its socket with no timeout, so a phone that
//! stops answering (hung, or its transport wedged in the adb server) would hang us forever. Each
//! call runs on a worker thread with its own `ADBServerDevice` (construction does no I/O, and
//! every call opens a fresh connection anyway) and we wait for it at most a deadline; a call past
//! its deadline is abandoned: its thread ends when the server closes the connection, or with us.

use anyhow::{Result, anyhow};
use std::sync::mpsc;
use std::time::Duration;

/// How long one adb request may go unanswered before the phone counts as not answering. Long
/// enough for a raw screenshot of a 1440x3200 phone over a slow link, short enough that a user
/// sees a clear error well within 20 s.
pub const ADB_TIMEOUT: Duration = Duration::from_secs(12);

/// The deadline: `ADB_TIMEOUT`, or `SUDOKU_AGENT_ADB_TIMEOUT` seconds when set (for very slow
/// links).
pub fn adb_timeout() -> Duration {
    std::env::var("SUDOKU_AGENT_ADB_TIMEOUT")
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .map(Duration::from_secs_f64)
        .unwrap_or(ADB_TIMEOUT)
}

/// Runs `work` on a worker thread and waits at most `limit` for it. `what` names the request
/// and the phone in the error, e.g. "`wm size` on 127.0.0.1:40001".
pub fn within<T: Send + 'static>(
    limit: Duration,
    what: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("adb-call".into())
        .spawn(move || {
            let _ = tx.send(work());
        })
        .map_err(|e| anyhow!("cannot start a thread for {what}: {e}"))?;
    match rx.recv_timeout(limit) {
        Ok(value) => Ok(value),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(anyhow!(
            "no answer to {what} within {:.0} s: the phone stopped answering; unlock it, check the cable or Wi-Fi, run `adb reconnect` (or replug it), then retry",
            limit.as_secs_f64()
        )),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            Err(anyhow!("the adb call for {what} ended without a result"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn a_call_that_answers_in_time_returns_its_value() {
        assert_eq!(within(Duration::from_secs(5), "x", || 42).unwrap(), 42);
    }

    #[test]
    fn a_call_that_hangs_fails_at_its_deadline_saying_what_to_do() {
        let start = Instant::now();
        let err = within(Duration::from_millis(100), "`wm size` on abc", || {
            std::thread::sleep(Duration::from_secs(3));
        })
        .unwrap_err()
        .to_string();
        assert!(start.elapsed() < Duration::from_secs(2));
        assert!(
            err.contains("`wm size` on abc") && err.contains("stopped answering"),
            "{err}"
        );
    }
}
