//! What the integration tests share: a private adb server per test binary, the simulated phone
//! and calibration rigs, and the one way to run the `sudoku-agent` binary.

pub mod adb_server;
pub mod play_rig;
pub mod sim_sweep;

use std::process::{Command, Stdio};

/// The `sudoku-agent` binary, kept off the caller's phones and adb server (`ANDROID_SERIAL`,
/// `ANDROID_ADB_SERVER_PORT` removed) and without a terminal on stdin.
pub fn agent() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sudoku-agent"));
    c.env_remove("ANDROID_SERIAL")
        .env_remove("ANDROID_ADB_SERVER_PORT")
        .stdin(Stdio::null());
    c
}
