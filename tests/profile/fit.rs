//! One reader for play, through the real adb server against simulated phones: apps learned from
//! an empty config at screen sizes no shipped template was made for, a profile carried to another
//! screen size, a keypad that moved alone, a grid that moved, and one capture at the start of a
//! run (and of `read`) with a stored profile.

use crate::support::{self, agent};
use std::path::Path;
use sudoku_agent::geometry::{Point, Size};
use sudoku_agent::profile::calibration::Calibration;
use sudoku_sim::{SimServer, SudokuApp};
use support::adb_server::{self, AdbServer};
use support::play_rig::{self as rig, SMALL_SIZE};

/// `sudoku-agent play --json ARGS` on `sim` with `config` as its config dir: code, json, stderr.
fn play(
    adb: &AdbServer,
    sim: &SimServer<SudokuApp>,
    config: &Path,
    args: &[&str],
) -> (i32, serde_json::Value, String) {
    let port = adb.port().to_string();
    let serial = sim.serial();
    let out = agent()
        .current_dir(support::temp_dir("fit-folder"))
        .env("SUDOKU_AGENT_CONFIG_DIR", config)
        .args(["play", "-P", &port, "-s", &serial, "--json"])
        .args(args)
        .output()
        .expect("run sudoku-agent");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let json = serde_json::from_str(&stdout).unwrap_or(serde_json::Value::Null);
    (
        out.status.code().unwrap_or(-1),
        json,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn phone(adb: &AdbServer, skin: &str, size: Size, puzzle: &str) -> SimServer<SudokuApp> {
    rig::serve(rig::phone(skin, size, puzzle), "instant", None, adb.addr())
}

fn screencaps(sim: &SimServer<SudokuApp>) -> usize {
    sim.command_log()
        .iter()
        .filter(|c| c.starts_with("screencap"))
        .count()
}

/// The stored profile of `skin` at `size` under `config`.
fn profile_file(sim: &SimServer<SudokuApp>, config: &Path, size: Size) -> std::path::PathBuf {
    let package = sim.with_screen(|p| p.skin().package());
    config
        .join("profiles")
        .join(format!("{package}-{size}"))
        .join("profile.toml")
}

#[test]
fn play_learns_the_new_skins_from_an_empty_config_at_a_size_no_template_was_made_for() {
    let adb = adb_server::shared();
    // The shipped templates are for 1080x2340, and the other profile tests play at 720x1280 and
    // 1080x2340: the largest screen, where digits are cut at their finest.
    let size = Size::new(1440, 3200);
    for skin in ["edge", "discs", "shaded"] {
        let config = support::temp_dir("fit-config");
        let sim = phone(&adb, skin, size, "easy");
        let (code, json, err) = play(&adb, &sim, &config, &[]);
        assert_eq!(code, 0, "{skin} {size}: {err}");
        assert!(sim.with_screen(|p| p.is_solved()), "{skin} {size}: {err}");
        assert_eq!(json["verified"], true, "{skin} {size}");
        let probe_taps = sim.taps().len() as u64 - json["taps"].as_u64().unwrap();
        eprintln!(
            "{skin} {size}: learned with {probe_taps} probe taps, solved, {} checks, read {:.1} ms",
            json["checks"], json["timings_ms"]["read_ms"]
        );
        assert!(
            err.lines().filter(|l| l.starts_with("learned ")).count() == 1,
            "{skin} {size}: {err}"
        );
    }
}

#[test]
fn a_profile_learned_at_one_size_is_fitted_to_another_without_probing() {
    let adb = adb_server::shared();
    for skin in ["light", "edge", "discs"] {
        let config = support::temp_dir("fit-config");
        let small = phone(&adb, skin, SMALL_SIZE, "easy");
        let (code, _, err) = play(&adb, &small, &config, &[]);
        assert_eq!(code, 0, "{skin}: {err}");
        assert!(err.contains("learned "), "{skin}: {err}");

        // Another shape too: 16:9 learned, 19.5:9 played.
        let big_size = Size::new(1080, 2340);
        let big = phone(&adb, skin, big_size, "medium");
        let (code, json, err) = play(&adb, &big, &config, &[]);
        assert_eq!(code, 0, "{skin}: {err}");
        assert!(big.with_screen(|p| p.is_solved()), "{skin}: {err}");
        assert!(
            !err.contains("learn"),
            "{skin}: nothing learned again: {err}"
        );
        let fitted = support::lines_with(&err, "fitted profile");
        assert_eq!(fitted.len(), 1, "{skin}: {err}");
        eprintln!("{skin}: {}", fitted[0]);
        // Every tap the app got is one of the plan's: none probing.
        assert_eq!(
            Some(big.taps().len() as u64),
            json["taps"].as_u64(),
            "{skin}"
        );
        // Stored under this size, with this screen's grid.
        let cal = Calibration::load(&profile_file(&big, &config, big_size)).unwrap();
        assert_eq!(cal.screen, big_size);
        let corner = big.with_screen(|p| p.cell_center(sudoku_sim::Cell::new(0, 0).unwrap()));
        let pitch = cal.grid.width / 9;
        let fitted = Point::new(cal.grid.x + pitch / 2, cal.grid.y + pitch / 2);
        assert!(
            fitted.x.abs_diff(corner.x) <= 6 && fitted.y.abs_diff(corner.y) <= 6,
            "{skin}: fitted r1c1 at {fitted:?}, the app's at {corner:?}"
        );
    }
}

#[test]
fn a_profile_whose_keypad_moved_is_learned_again_once_with_one_line() {
    let adb = adb_server::shared();
    let config = support::temp_dir("fit-config");
    let sim = phone(&adb, "light", SMALL_SIZE, "easy");
    let (code, _, err) = play(&adb, &sim, &config, &[]);
    assert_eq!(code, 0, "{err}");
    // What an app update that moves only the keypad does to a stored profile: its keys are where
    // the app no longer draws them (a key and a half to the right, wrapping as a row would).
    let file = profile_file(&sim, &config, SMALL_SIZE);
    let mut cal = Calibration::load(&file).unwrap();
    let keypad = cal.keypad.as_mut().unwrap();
    let step = keypad.digits[1].x.abs_diff(keypad.digits[0].x).max(40) * 3 / 2;
    for p in &mut keypad.digits {
        *p = Point::new((p.x + step) % SMALL_SIZE.width, p.y);
    }
    cal.save(&file).unwrap();

    let sim = phone(&adb, "light", SMALL_SIZE, "medium");
    let (code, json, err) = play(&adb, &sim, &config, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(sim.with_screen(|p| p.is_solved()), "{err}");
    assert_eq!(json["relearned_order"], serde_json::Value::Null, "{json}");
    let again = support::lines_with(&err, "no longer reads this screen");
    assert_eq!(again.len(), 1, "{err}");
    assert!(again[0].contains("the keypad moved"), "{}", again[0]);
    eprintln!("keypad moved: {}", again[0]);
    assert_eq!(err.lines().filter(|l| l.starts_with("learned ")).count(), 1);
}

#[test]
fn a_screen_whose_grid_moved_from_the_calibration_is_not_tapped() {
    let adb = adb_server::shared();
    let dir = support::temp_dir("fit-moved");
    let path = rig::write_calibration(&dir, "light", SMALL_SIZE);
    // The app now draws its grid a third of a cell lower than the calibration has it: taps at
    // the calibrated centres would still land in cells, but the layout is not the one learned.
    let mut cal = Calibration::load(&path).unwrap();
    cal.grid.y += cal.grid.height / 27;
    cal.save(&path).unwrap();
    let sim = phone(&adb, "light", SMALL_SIZE, "easy");
    let config = support::temp_dir("fit-config");
    let (code, _, err) = play(
        &adb,
        &sim,
        &config,
        &["--calibration", path.to_str().unwrap()],
    );
    assert_eq!(code, 1, "{err}");
    assert!(sim.taps().is_empty(), "nothing tapped: {err}");
    assert!(err.contains("nothing was tapped"), "{err}");
    assert!(
        err.contains("px from where the calibration has it"),
        "{err}"
    );
}

/// A config folder holding the profile a first run learned for `skin` on the small screen.
fn config_with_profile(adb: &AdbServer, skin: &str) -> std::path::PathBuf {
    let config = support::temp_dir("fit-config");
    let first = phone(adb, skin, SMALL_SIZE, "easy");
    let (code, _, err) = play(adb, &first, &config, &[]);
    assert_eq!(code, 0, "{err}");
    config
}

#[test]
fn a_run_with_a_stored_profile_captures_and_reads_the_screen_once_at_the_start() {
    let adb = adb_server::shared();
    let config = config_with_profile(&adb, "numfirst");
    // A dry run: the profile check's screenshot is the one the plan is made from (a full run
    // takes one more before the first tap only when the read is older than half a second).
    let sim = phone(&adb, "numfirst", SMALL_SIZE, "medium");
    let dir = support::temp_dir("fit-dry");
    let plan = dir.join("plan.png");
    let (code, _, err) = play(
        &adb,
        &sim,
        &config,
        &["--dry-run", "--overlay", plan.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("learn"), "{err}");
    support::assert_mentions(&err, &["dry run: ", "taps planned"]);
    assert_eq!(screencaps(&sim), 1, "{err}");
    assert!(sim.taps().is_empty());
    assert!(plan.is_file());
}

#[test]
fn read_on_a_phone_with_a_stored_profile_captures_the_screen_once() {
    let adb = adb_server::shared();
    let config = config_with_profile(&adb, "light");
    // The profile check's screenshot is the screen `read` prints.
    let sim = phone(&adb, "light", SMALL_SIZE, "medium");
    let out = agent()
        .current_dir(support::temp_dir("fit-folder"))
        .env("SUDOKU_AGENT_CONFIG_DIR", &config)
        .args(["read", "-P", &adb.port().to_string(), "-s", &sim.serial()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let board = sim.with_screen(|p| p.board().to_line());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().next(), Some(board.as_str()), "{err}");
    assert_eq!(screencaps(&sim), 1, "{err}");
    assert!(sim.taps().is_empty());
}
