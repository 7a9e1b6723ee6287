//! What `play` does with the phone around the game before it taps (issue 34), through the real
//! adb server and a simulated phone with its habits switched on: a dark screen is woken, a lock
//! screen refused in one line, a phone another agent holds refused naming its pid, and a config
//! folder that cannot be written does not stop a learned run.

use crate::support::{self, agent, lines_with, outcome};
use std::path::Path;
use std::process::Command;
use sudoku_agent::device::lock::PhoneLock;
use sudoku_sim::faults::Faults;
use sudoku_sim::{SimServer, SudokuApp};
use support::adb_server;
use support::play_rig::{self as rig, SMALL_SIZE};

/// A light-skinned 720x1280 phone with `faults` switched on, behind the shared adb server.
fn served(faults: &str, adb: &adb_server::AdbServer) -> SimServer<SudokuApp> {
    let mut phone = rig::phone("light", SMALL_SIZE, "easy");
    let faults: Faults = faults.parse().expect("faults");
    faults.apply(&mut phone).expect("habits apply");
    rig::serve(phone, "instant", None, adb.addr())
}

/// `play -P PORT -s SERIAL`, with a calibration for the phone unless `learn`.
fn play_on(adb: &adb_server::AdbServer, sim: &SimServer<SudokuApp>, learn: bool) -> Command {
    let mut c = agent();
    c.args(["play", "-P", &adb.port().to_string(), "-s", &sim.serial()]);
    if !learn {
        let dir = support::temp_dir("phone-claim-cal");
        c.arg("--calibration")
            .arg(rig::write_calibration(&dir, "light", SMALL_SIZE));
    }
    c
}

/// `play` with a calibration on a phone with `faults`: the phone, exit code, stdout, stderr.
fn play_faulty(faults: &str) -> (SimServer<SudokuApp>, i32, String, String) {
    let adb = adb_server::shared();
    let sim = served(faults, &adb);
    let (code, out, err) = outcome(&mut play_on(&adb, &sim, false));
    (sim, code, out, err)
}

/// The game on `sim` was finished without a mistake.
fn solved_cleanly(sim: &SimServer<SudokuApp>) -> bool {
    sim.with_screen(|app| app.is_solved() && app.mistakes() == 0)
}

#[test]
fn a_phone_with_its_screen_off_is_woken_said_so_and_solved() {
    let (sim, code, out, err) = play_faulty("screen-off");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("solved"), "{out}");
    assert_eq!(
        lines_with(&err, "the screen was off: woke it").len(),
        1,
        "{err}"
    );
    assert!(solved_cleanly(&sim), "{err}");
}

#[test]
fn a_locked_phone_exits_2_with_one_line_to_unlock_it_and_no_tap() {
    let (sim, code, out, err) = play_faulty("lock-screen");
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    let unlock = lines_with(&err, "unlock it");
    assert_eq!(unlock.len(), 1, "{err}");
    assert!(unlock[0].contains(&sim.serial()), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(sim.taps().is_empty(), "{:?}", sim.taps());
}

#[test]
fn a_second_agent_on_a_held_phone_exits_2_naming_the_pid_before_any_tap() {
    let adb = adb_server::shared();
    let sim = served("", &adb);
    // This test process holds the phone as a running `play` would.
    let held = PhoneLock::acquire(&sim.serial(), "play").expect("the phone is free");
    let started = std::time::Instant::now();
    let (code, out, err) = outcome(&mut play_on(&adb, &sim, false));
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    let expected = format!(
        "phone {} is in use by sudoku-agent pid {} (play)",
        sim.serial(),
        std::process::id()
    );
    assert!(err.contains(&expected), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(sim.taps().is_empty(), "{:?}", sim.taps());
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
    // Once the first agent is gone the phone is free: the same run solves it.
    drop(held);
    let (code, _, err) = outcome(&mut play_on(&adb, &sim, false));
    assert_eq!(code, 0, "{err}");
    assert!(solved_cleanly(&sim), "{err}");
}

#[test]
fn a_config_folder_that_cannot_be_made_still_solves_and_says_how_to_keep_profiles() {
    let adb = adb_server::shared();
    let sim = served("", &adb);
    // A folder under a regular file: no one can create it, root included (chmod does not stop
    // root).
    let blocker = support::temp_dir("phone-claim-config").join("a-file");
    std::fs::write(&blocker, b"not a folder").unwrap();
    let config = blocker.join("sub");
    let (code, out, err) = outcome(
        play_on(&adb, &sim, true)
            .env("SUDOKU_AGENT_CONFIG_DIR", &config)
            .arg("--json"),
    );
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    assert_eq!(json["verified"], true, "{json}");
    assert!(solved_cleanly(&sim), "{err}");
    let said = lines_with(&err, "SUDOKU_AGENT_CONFIG_DIR");
    assert_eq!(said.len(), 1, "{err}");
    assert!(
        said[0].contains("could not save") && said[0].contains(&config.display().to_string()),
        "{err}"
    );
    assert!(!Path::new(&config).exists());
}

#[test]
fn without_home_one_line_says_where_profiles_go_and_they_are_kept_there() {
    let adb = adb_server::shared();
    let sim = served("", &adb);
    // XDG_CONFIG_HOME keeps the test out of the account's real config folder.
    let xdg = support::temp_dir("phone-claim-xdg");
    let (code, _, err) = outcome(
        play_on(&adb, &sim, true)
            .env_remove("HOME")
            .env_remove("SUDOKU_AGENT_CONFIG_DIR")
            .env("XDG_CONFIG_HOME", &xdg),
    );
    assert_eq!(code, 0, "{err}");
    let profiles = xdg.join("sudoku-agent").join("profiles");
    let said = lines_with(&err, "HOME is not set");
    assert_eq!(said.len(), 1, "{err}");
    assert!(
        said[0].contains(&profiles.display().to_string())
            && said[0].contains("SUDOKU_AGENT_CONFIG_DIR"),
        "{err}"
    );
    assert!(profiles.is_dir(), "{err}");
    assert!(solved_cleanly(&sim), "{err}");
}
