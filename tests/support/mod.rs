//! What the integration tests share: a private adb server per test binary, the simulated phone
//! and calibration rigs, and the one way to run the `sudoku-agent` binary.

// One helper for both crates' tests: the simulated phone's crate keeps it.
#[path = "../../sim/tests/support/adb_server.rs"]
pub mod adb_server;
pub mod perturb;
pub mod play_rig;
pub mod sim_sweep;

use std::path::PathBuf;
use std::process::{Command, Stdio};

/// A fresh folder of its own under the system temp dir. Every test of this binary runs in one
/// process, in parallel threads: a folder named by the process id alone was shared, and two tests
/// writing the same templates raced (one read a half-written `4.png`).
pub fn temp_dir(name: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("sudoku-agent-{name}-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The `sudoku-agent` binary, kept off the caller's phones and adb server (`ANDROID_SERIAL`,
/// `ANDROID_ADB_SERVER_PORT` removed), with a config dir of its own, and without a terminal on
/// stdin.
pub fn agent() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sudoku-agent"));
    c.env_remove("ANDROID_SERIAL")
        .env_remove("ANDROID_ADB_SERVER_PORT")
        // Profiles learned in a test stay in the test: never the user's config dir, and never
        // one test's profile in another (tests that reuse one set their own dir after this).
        .env("SUDOKU_AGENT_CONFIG_DIR", temp_dir("config"))
        .stdin(Stdio::null());
    c
}
