//! A stored profile that cannot be used as it is, through the real adb server and the simulated
//! phone: a damaged `profile.toml` or template is learned again with one line (play solves, exit
//! 0), and an input order `play` re-learns from its first move is saved to the profile with one
//! line, so the next run starts with it.

use crate::support::{self, agent, lines_with};
use std::path::{Path, PathBuf};
use sudoku_agent::profile::calibration::{Calibration, InputOrder};
use sudoku_sim::{EntryOrder, SimServer, SudokuApp};
use support::adb_server::{self, AdbServer};
use support::play_rig::{self as rig, SMALL_SIZE};

/// `play --json` on `sim` with `config` as the config dir: code, parsed stdout, stderr.
fn play(
    adb: &AdbServer,
    sim: &SimServer<SudokuApp>,
    config: &Path,
) -> (i32, serde_json::Value, String) {
    let (code, out, err) = support::outcome(
        agent()
            .current_dir(support::temp_dir("relearn-here"))
            .env("SUDOKU_AGENT_CONFIG_DIR", config)
            .args(["play", "--json", "-P", &adb.port().to_string()])
            .args(["-s", &sim.serial()]),
    );
    let json = serde_json::from_str(&out).unwrap_or(serde_json::Value::Null);
    (code, json, err)
}

/// A fresh phone showing `skin` on the small screen, served through `adb`.
fn phone(adb: &AdbServer, skin: &str, puzzle: &str) -> SimServer<SudokuApp> {
    rig::serve(
        rig::phone(skin, SMALL_SIZE, puzzle),
        "instant",
        None,
        adb.addr(),
    )
}

/// The folder of the profile of the app on `sim`.
fn profile_dir(sim: &SimServer<SudokuApp>, config: &Path) -> (String, PathBuf) {
    let name = format!("{}-{SMALL_SIZE}", sim.with_screen(|p| p.skin().package()));
    let dir = config.join("profiles").join(&name);
    (name, dir)
}

#[test]
fn a_damaged_profile_or_template_is_learned_again_with_one_line_and_play_solves() {
    let adb = adb_server::shared();
    let config = support::temp_dir("relearn-config");
    let sim = phone(&adb, "light", "easy");
    let (name, dir) = profile_dir(&sim, &config);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("profile.toml"), "format_version = [not toml\n").unwrap();

    let (code, json, err) = play(&adb, &sim, &config);
    assert_eq!(code, 0, "{err}");
    assert!(sim.with_screen(|p| p.is_solved()), "{err}");
    assert_eq!(json["verified"], true, "{json}");
    let again = lines_with(&err, "cannot be loaded");
    assert_eq!(again.len(), 1, "{err}");
    assert!(
        again[0].starts_with(&format!("profile {name} cannot be loaded"))
            && again[0].ends_with("learning it again"),
        "{}",
        again[0]
    );
    eprintln!("damaged profile.toml: {}", again[0]);
    assert_eq!(lines_with(&err, "learned ").len(), 1, "{err}");
    assert!(!err.contains("calibrate` first"), "{err}");

    // A template cut short, as a full disk leaves it.
    std::fs::write(dir.join("templates").join("4.png"), b"\x89PNG\r\n").unwrap();
    let sim = phone(&adb, "light", "medium");
    let (code, _, err) = play(&adb, &sim, &config);
    assert_eq!(code, 0, "{err}");
    assert!(sim.with_screen(|p| p.is_solved()), "{err}");
    let again = lines_with(&err, "cannot be loaded");
    assert_eq!(again.len(), 1, "{err}");
    assert!(again[0].contains("4.png"), "{}", again[0]);
    eprintln!("damaged template: {}", again[0]);

    // Learned for good: the next run learns nothing.
    let sim = phone(&adb, "light", "easy");
    let (code, _, err) = play(&adb, &sim, &config);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("learn"), "{err}");
}

#[test]
fn an_input_order_play_re_learns_is_saved_to_the_profile_and_the_next_run_starts_with_it() {
    let adb = adb_server::shared();
    let config = support::temp_dir("relearn-order-config");
    let sim = phone(&adb, "numfirst", "easy");
    let (code, _, err) = play(&adb, &sim, &config);
    assert_eq!(code, 0, "{err}");
    let (name, dir) = profile_dir(&sim, &config);
    let order = || {
        Calibration::load(&dir.join("profile.toml"))
            .unwrap()
            .input_order
    };
    assert_eq!(order(), InputOrder::NumberFirst);

    // The player switches the app to cell-first in its settings.
    let cell_first = |puzzle: &str| {
        let sim = phone(&adb, "numfirst", puzzle);
        sim.with_screen(|p| p.set_input_order(EntryOrder::CellFirst));
        sim
    };
    let sim = cell_first("medium");
    let (code, json, err) = play(&adb, &sim, &config);
    assert_eq!(code, 0, "{err}");
    assert!(sim.with_screen(|p| p.is_solved()), "{err}");
    assert_eq!(json["relearned_order"], "CellFirst", "{json}");
    let saved = lines_with(&err, "saved to profile");
    assert_eq!(saved.len(), 1, "{err}");
    assert!(
        saved[0].starts_with(&format!(
            "saved to profile {name}: the app takes the cell first"
        )),
        "{}",
        saved[0]
    );
    eprintln!("{}", saved[0]);
    assert!(!err.contains("re-run calibrate"), "{err}");
    assert_eq!(order(), InputOrder::CellFirst);

    let sim = cell_first("easy");
    let (code, json, err) = play(&adb, &sim, &config);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json["relearned_order"], serde_json::Value::Null, "{json}");
    assert!(
        !err.contains("re-learned") && !err.contains("learn"),
        "{err}"
    );
}
