//! `sudoku-agent play` as a user runs it: `--device sim` (the simulated phone behind the real
//! adb server, the newcomer's first command), phones picked through the adb server, and what
//! the user is told when something is missing. Each test uses a private adb server port.

use crate::support::{self, agent, outcome};

use std::process::Command;
use support::adb_server::{self, AdbServer};
use support::play_rig::{self as rig, PHONE_SIZE, SMALL_SIZE};

/// `sudoku-agent WORDS -P PORT --calibration CAL`: the words as a user types them (split at
/// spaces), then the adb server and the calibration every run here names.
fn agent_on(port: u16, cal: &str, words: &str) -> Command {
    let mut c = agent();
    c.args(words.split_whitespace())
        .args(["-P", &port.to_string(), "--calibration", cal]);
    c
}

fn calibration_file(skin: &str, size: sudoku_agent::geometry::Size) -> String {
    let dir = support::temp_dir("play-cli");
    rig::write_calibration(&dir, skin, size)
        .display()
        .to_string()
}

/// [`agent_on`] with a calibration of the light skin at 720x1280, run to its end: exit code,
/// stdout, stderr.
fn light_play(port: u16, words: &str) -> (i32, String, String) {
    outcome(&mut agent_on(
        port,
        &calibration_file("light", SMALL_SIZE),
        words,
    ))
}

#[test]
fn play_device_sim_solves_through_the_adb_server_and_reports_device_time() {
    // Its own server, to see that the phone is disconnected at the end.
    let adb = AdbServer::start();
    // The shipped calibration (light skin, 1080x2340) once it is in the tree, as a newcomer
    // runs it from the repo root; until then one measured here the same way.
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("calibration.toml");
    let cal = if shipped.is_file() {
        shipped.display().to_string()
    } else {
        calibration_file("light", PHONE_SIZE)
    };
    let (code, out, err) = outcome(&mut agent_on(adb.port(), &cal, "play --device sim --json"));
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["verified"], true);
    assert_eq!(json["moves"], json["moves_done"]);
    assert!(
        json["solution"]
            .as_str()
            .unwrap()
            .chars()
            .all(|c| c.is_ascii_digit())
    );
    // The default preset models a current phone: the on-device injector, through
    // InputManagerGlobal (Android 14).
    assert_eq!(json["input"], "inject (InputManagerGlobal)", "{json}");
    assert!(json["device_time_ms"].as_f64().is_some(), "{json}");
    assert!(
        err.contains("of device time (virtual clock, latency preset instant)")
            && err.contains("of host time"),
        "{err}"
    );
    // The phone was disconnected from the server at the end.
    let listed = adb.run(&["devices"]);
    assert!(
        !String::from_utf8_lossy(&listed.stdout).contains("127.0.0.1:"),
        "{}",
        String::from_utf8_lossy(&listed.stdout)
    );
}

#[test]
fn play_device_sim_number_first_on_android12_streams_its_taps() {
    let adb = adb_server::shared();
    let cal = calibration_file("numfirst", SMALL_SIZE);
    let (code, out, err) = outcome(&mut agent_on(
        adb.port(),
        &cal,
        "play --device sim:numfirst --sim-size 720x1280 --sim-latency android12 \
         --sim-puzzle medium --input stream",
    ));
    assert_eq!(code, 0, "{err}");
    support::assert_mentions(&out, &["solved:", "via stream"]);
}

#[test]
fn no_device_says_how_to_attach_one() {
    let empty = AdbServer::start();
    let (code, _, err) = light_play(empty.port(), "play");
    assert_eq!(code, 2, "{err}");
    support::assert_mentions(&err, &["no device attached", "adb connect"]);
}

#[test]
fn two_devices_need_a_serial_and_only_the_chosen_one_is_tapped() {
    let server = AdbServer::start();
    let cal = calibration_file("light", SMALL_SIZE);
    let first = rig::serve_easy("light", SMALL_SIZE, server.addr());
    let second = rig::serve(
        rig::phone("light", SMALL_SIZE, "medium"),
        "instant",
        None,
        server.addr(),
    );
    let (code, _, err) = outcome(&mut agent_on(server.port(), &cal, "play"));
    assert_eq!(code, 2, "{err}");
    support::assert_mentions(&err, &["2 devices attached", "-s SERIAL"]);
    assert!(first.taps().is_empty() && second.taps().is_empty());

    let chosen = format!("play -s {}", second.serial());
    let (code, out, err) = outcome(&mut agent_on(server.port(), &cal, &chosen));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("solved:"), "{out}");
    assert!(second.with_screen(|p| p.is_solved()));
    assert!(first.taps().is_empty(), "the other phone was tapped");
}

#[test]
fn without_adb_the_simulated_phone_runs_in_process_with_a_warning() {
    let cal = calibration_file("light", SMALL_SIZE);
    let no_tools = support::temp_dir("no-adb-path");
    // A port where nothing listens, and no `adb` on PATH to start a server.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut play = agent_on(port, &cal, "play --device sim --sim-size 720x1280");
    let (code, out, err) = outcome(play.env("PATH", &no_tools));
    assert_eq!(code, 0, "{err}");
    support::assert_mentions(
        &err,
        &["warning: adb is not installed", "apt-get install adb"],
    );
    assert_eq!(err.matches("warning").count(), 1, "{err}");
    assert!(out.contains("solved:"), "{out}");
}

#[test]
fn a_popup_on_the_simulated_phone_exits_1_without_tapping() {
    let adb = adb_server::shared();
    let (code, out, err) = light_play(
        adb.port(),
        "play --device sim --sim-size 720x1280 --sim-faults popup",
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("nothing was tapped"), "{err}");
    assert!(out.is_empty(), "{out}");
}

#[test]
fn a_calibration_for_another_screen_size_is_fitted_to_this_one_or_refused_with_advice() {
    let adb = adb_server::shared();
    let play_with = |cal: &str| outcome(&mut agent_on(adb.port(), cal, "play --device sim"));
    // The same app at 720x1280: its grid and keys are found on this 1080x2340 screen.
    let (code, _, err) = play_with(&calibration_file("light", SMALL_SIZE));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("(720x1280) fitted to this 1080x2340 screen"),
        "{err}"
    );
    // Another app's: its templates are not these digits, so nothing is tapped with it.
    let (code, _, err) = play_with(&calibration_file("wood", SMALL_SIZE));
    assert_ne!(code, 0, "{err}");
    support::assert_mentions(&err, &["1080x2340", "720x1280", "calibrate"]);
    assert!(err.contains("nothing was tapped"), "{err}");
}

#[test]
fn a_phone_lost_mid_play_exits_2_and_says_to_rerun() {
    // Its own adb server: a phone vanishing mid-stream can crash adb 29.0.6 (a use-after-free in
    // its socket code), and a crash must not fail the other tests sharing a server.
    let adb = AdbServer::start();
    let (code, out, err) = light_play(
        adb.port(),
        "play --device sim --sim-size 720x1280 --sim-faults drop-after=30 --input tap",
    );
    assert_eq!(code, 2, "{err}");
    support::assert_mentions(&err, &["stopped taking taps after", "re-run play"]);
    assert_eq!(
        err.trim()
            .lines()
            .filter(|l| l.contains("Error") || l.contains("error"))
            .count(),
        1,
        "{err}"
    );
    assert!(out.is_empty(), "{out}");
}

#[test]
fn visualize_device_sim_replays_the_search_through_the_adb_server() {
    let adb = adb_server::shared();
    let cal = calibration_file("light", SMALL_SIZE);
    let state = support::temp_dir("visualize-cli").join("state.json");
    let mut visualize = agent_on(
        adb.port(),
        &cal,
        "visualize --device sim --sim-size 720x1280 --sim-latency android9 --yes",
    );
    let (code, out, err) = outcome(visualize.arg("--state").arg(&state));
    assert_eq!(code, 0, "{err}");
    // Auto prefers the on-device injector over raw events, even where the shell may write the
    // touchscreen (Android 9).
    assert!(out.contains("via inject (InputManager)"), "{out}");
    assert!(out.contains("the search took"), "{out}");
    assert!(
        err.contains("of device time (virtual clock, latency preset android9)"),
        "{err}"
    );
}
