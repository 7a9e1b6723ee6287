//! `play` with no calibration through the real adb server against simulated phones: learning
//! on every skin at two sizes, reuse without probe taps, separate profiles per app, and the
//! `profiles` command.

use crate::support::{self, agent};
use std::path::Path;
use sudoku_agent::geometry::{Point, Size};
use sudoku_sim::{EntryOrder, Key, SimServer, SudokuApp};
use support::adb_server::{self, AdbServer};
use support::play_rig::{self as rig, PHONE_SIZE, SMALL_SIZE};

/// Runs `sudoku-agent ARGS` in `folder` with `config` as its config dir; code, stdout, stderr.
fn run_in(folder: &Path, config: &Path, args: &[&str]) -> (i32, String, String) {
    support::outcome(
        agent()
            .current_dir(folder)
            .env("SUDOKU_AGENT_CONFIG_DIR", config)
            .args(args),
    )
}

/// `play --json` on the simulated phone `sim`, with no --calibration, from `folder`.
fn play(
    adb: &AdbServer,
    sim: &SimServer<SudokuApp>,
    folder: &Path,
    config: &Path,
) -> (serde_json::Value, String) {
    let port = adb.port().to_string();
    let serial = sim.serial();
    let (code, out, err) = run_in(
        folder,
        config,
        &["play", "-P", &port, "-s", &serial, "--json"],
    );
    assert_eq!(code, 0, "{err}");
    let json = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    (json, err)
}

fn near(a: Point, b: Point, within: u32) -> bool {
    a.x.abs_diff(b.x) <= within && a.y.abs_diff(b.y) <= within
}

/// A fresh phone showing `skin` at `size`, served through `adb`.
fn phone(adb: &AdbServer, skin: &str, size: Size, puzzle: &str) -> SimServer<SudokuApp> {
    rig::serve(rig::phone(skin, size, puzzle), "instant", None, adb.addr())
}

/// Learns `skin` at `size` from empty folders and checks what was stored against the app.
fn learns_and_solves(adb: &AdbServer, skin: &str, size: Size) {
    let config = support::temp_dir("profile-config");
    let folder = support::temp_dir("profile-empty");
    let sim = phone(adb, skin, size, "easy");
    let (json, err) = play(adb, &sim, &folder, &config);
    assert!(sim.with_screen(|p| p.is_solved()), "{skin} {size}: {err}");
    assert_eq!(json["verified"], true);
    let package = sim.with_screen(|p| p.skin().package());
    let name = format!("{package}-{size}");
    let learned: Vec<&str> = err.lines().filter(|l| l.starts_with("learned ")).collect();
    assert_eq!(
        learned.len(),
        1,
        "{skin} {size}: one line says what was learned: {err}"
    );
    assert!(
        learned[0].contains(&name) && learned[0].contains(&config.display().to_string()),
        "{}",
        learned[0]
    );
    eprintln!("{skin} {size}: {}", learned[0]);
    // Nothing was written to the folder play ran in.
    assert_eq!(
        std::fs::read_dir(&folder).unwrap().count(),
        0,
        "{skin} {size}"
    );
    let stored = config.join("profiles").join(&name);
    let cal = sudoku_agent::profile::calibration::Calibration::load(&stored.join("profile.toml"))
        .unwrap();
    for d in 1..=9 {
        assert!(stored.join("templates").join(format!("{d}.png")).is_file());
    }
    let keypad = cal.keypad.expect("a keypad");
    let (erase, notes, order) = sim.with_screen(|p| {
        (
            Point::from(p.key_center(Key::Erase)),
            Point::from(p.key_center(Key::Notes)),
            p.input_order(),
        )
    });
    let pitch = cal.grid.width / 9;
    let erase_found = keypad.erase.expect("erase found");
    assert!(
        near(erase_found, erase, pitch / 2),
        "{skin} {size}: erase learned at {erase_found:?}, the app's is at {erase:?}"
    );
    if let Some(n) = keypad.notes {
        assert!(
            near(n, notes, pitch / 2),
            "{skin} {size}: notes learned at {n:?}, the app's is at {notes:?}"
        );
    }
    let want = match order {
        EntryOrder::CellFirst => sudoku_agent::profile::calibration::InputOrder::CellFirst,
        EntryOrder::NumberFirst => sudoku_agent::profile::calibration::InputOrder::NumberFirst,
    };
    assert_eq!(cal.input_order, want, "{skin} {size}");
}

// One test per screen size, so the two run side by side.
#[test]
fn play_alone_learns_every_skin_at_720x1280_from_an_empty_config_and_folder() {
    let adb = adb_server::shared();
    for skin in crate::support::play_rig::playable_skins() {
        learns_and_solves(&adb, skin, SMALL_SIZE);
    }
}

#[test]
fn play_alone_learns_every_skin_at_1080x2340_from_an_empty_config_and_folder() {
    let adb = adb_server::shared();
    for skin in crate::support::play_rig::playable_skins() {
        learns_and_solves(&adb, skin, PHONE_SIZE);
    }
}

#[test]
fn a_second_run_from_another_folder_reuses_the_profile_without_probing() {
    let adb = adb_server::shared();
    let config = support::temp_dir("profile-config");
    let first = phone(&adb, "numfirst", SMALL_SIZE, "easy");
    let (_, err) = play(&adb, &first, &support::temp_dir("profile-a"), &config);
    assert!(err.contains("learned "), "{err}");
    let first_taps = first.taps().len();

    let second = phone(&adb, "numfirst", SMALL_SIZE, "medium");
    let (json, err) = play(&adb, &second, &support::temp_dir("profile-b"), &config);
    assert!(second.with_screen(|p| p.is_solved()), "{err}");
    assert!(!err.contains("learn"), "no learning the second time: {err}");
    // Every tap the app got is one of the plan's: none probing.
    let taps = second.taps().len() as u64;
    assert_eq!(Some(taps), json["taps"].as_u64(), "{json}");
    assert!(
        first_taps as u64 > json["taps"].as_u64().unwrap() / 2,
        "the first phone got the probe's taps too"
    );
}

#[test]
fn two_apps_keep_separate_profiles_that_profiles_lists_shows_and_removes() {
    let adb = adb_server::shared();
    let config = support::temp_dir("profile-config");
    let folder = support::temp_dir("profile-two");
    for skin in ["light", "wood"] {
        let sim = phone(&adb, skin, SMALL_SIZE, "easy");
        let (_, err) = play(&adb, &sim, &folder, &config);
        assert!(err.contains("learned "), "{skin}: {err}");
    }
    let (code, out, err) = run_in(&folder, &config, &["profiles"]);
    assert_eq!(code, 0, "{err}");
    let names: Vec<&str> = out.lines().filter_map(|l| l.split('\t').next()).collect();
    assert_eq!(
        names,
        [
            "app.sim.sudoku.classic-720x1280",
            "app.sim.sudokuduel-720x1280"
        ],
        "{out}"
    );
    support::assert_mentions(&out, &["cell-first", "number-first"]);

    let (code, out, err) = run_in(&folder, &config, &["profiles", "show", names[1]]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("input_order = \"number-first\"") && out.contains("templates = \"templates\""),
        "{out}"
    );
    let (code, _, err) = run_in(&folder, &config, &["profiles", "show", "../etc"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a profile name"), "{err}");

    let (code, out, err) = run_in(&folder, &config, &["profiles", "remove", names[0]]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("removed app.sim.sudoku.classic-720x1280"),
        "{out}"
    );
    let (_, out, _) = run_in(&folder, &config, &["profiles", "list"]);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.starts_with("app.sim.sudokuduel-720x1280\t"), "{out}");
    let (code, _, err) = run_in(&folder, &config, &["profiles", "remove", names[0]]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no profile"), "{err}");
}

#[test]
fn a_profile_that_no_longer_reads_the_screen_is_learned_again_once_with_one_line() {
    let adb = adb_server::shared();
    let config = support::temp_dir("profile-config");
    let folder = support::temp_dir("profile-stale");
    // Learn two apps, then put the second's profile where the first's was: what an app update
    // to a new layout and look does to a stored profile.
    let mut names = Vec::new();
    for skin in ["light", "wood"] {
        let sim = phone(&adb, skin, SMALL_SIZE, "easy");
        let (_, err) = play(&adb, &sim, &folder, &config);
        assert!(err.contains("learned "), "{skin}: {err}");
        names.push(format!(
            "{}-{SMALL_SIZE}",
            sim.with_screen(|p| p.skin().package())
        ));
    }
    let profiles = config.join("profiles");
    let (old, new) = (profiles.join(&names[0]), profiles.join(&names[1]));
    std::fs::remove_dir_all(&old).unwrap();
    std::fs::create_dir_all(old.join("templates")).unwrap();
    for entry in std::fs::read_dir(new.join("templates")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), old.join("templates").join(entry.file_name())).unwrap();
    }
    std::fs::copy(new.join("profile.toml"), old.join("profile.toml")).unwrap();

    let sim = phone(&adb, "light", SMALL_SIZE, "medium");
    let (json, err) = play(&adb, &sim, &folder, &config);
    assert!(sim.with_screen(|p| p.is_solved()), "{err}");
    assert_eq!(json["verified"], true);
    let again = support::lines_with(&err, "no longer reads this screen");
    assert_eq!(again.len(), 1, "{err}");
    assert!(again[0].contains(&names[0]), "{}", again[0]);
    eprintln!("stale profile: {}", again[0]);
    assert_eq!(err.lines().filter(|l| l.starts_with("learned ")).count(), 1);

    // Learned for good: the next run reads with it and learns nothing.
    let sim = phone(&adb, "light", SMALL_SIZE, "easy");
    let (_, err) = play(&adb, &sim, &folder, &config);
    assert!(sim.with_screen(|p| p.is_solved()), "{err}");
    assert!(!err.contains("learn"), "{err}");
}
