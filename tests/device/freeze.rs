//! A phone that stops answering (the simulated phone's freeze fault: connections stay open,
//! nothing comes back) gives `devices` and `play` a clear error within 20 s, never a hang.

use crate::support::adb_server::AdbServer;
use crate::support::play_rig::{self as rig, SMALL_SIZE};
use crate::support::{agent, temp_dir};
use std::time::Instant;

/// Runs the agent with `args` against the server on `port`: exit code, stderr, seconds taken.
fn timed(port: u16, args: &[&str]) -> (i32, String, f64) {
    let start = Instant::now();
    let out = agent()
        .args(args)
        .args(["-P", &port.to_string()])
        .output()
        .expect("run sudoku-agent");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        start.elapsed().as_secs_f64(),
    )
}

#[test]
fn a_frozen_phone_makes_devices_and_play_end_within_20_s_with_an_error() {
    // A server of its own: the frozen transport stays wedged until the phone is dropped.
    let server = AdbServer::start();
    let cal = rig::write_calibration(&temp_dir("freeze"), "light", SMALL_SIZE);
    let sim = rig::serve_easy("light", SMALL_SIZE, server.addr());
    sim.freeze();
    let port = server.port();
    let cal = cal.display().to_string();
    let (devices, play) = std::thread::scope(|s| {
        let devices = s.spawn(|| timed(port, &["devices"]));
        let play = s.spawn(|| timed(port, &["play", "--calibration", &cal]));
        (devices.join().unwrap(), play.join().unwrap())
    });
    eprintln!(
        "frozen phone: devices exit {} after {:.1} s, play exit {} after {:.1} s",
        devices.0, devices.2, play.0, play.2
    );
    for (name, (code, err, secs)) in [("devices", &devices), ("play", &play)] {
        assert!(*secs < 20.0, "{name} took {secs:.1} s: {err}");
        assert_ne!(*code, 0, "{name} should fail: {err}");
        assert!(
            err.contains("stopped answering") && err.contains(&sim.serial()),
            "{name} should name the phone and say it stopped answering: {err}"
        );
    }
    assert!(sim.taps().is_empty());
}
