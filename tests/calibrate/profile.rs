//! `calibrate` on a phone stores the profile of the app on its screen, the one `play` and
//! `visualize` pick next, through the real `adb` server and the simulated phone: without
//! `--probe` (nothing tapped, play then learns nothing), and with `--probe` after the app's
//! input order was switched in its settings (visualize then makes exactly the search's moves).

use crate::support::boards::KAGGLE_2 as EASY2;
use crate::support::{self, agent};
use std::path::{Path, PathBuf};
use sudoku_agent::plan::Move;
use sudoku_agent::profile::calibration::{Calibration, InputOrder};
use sudoku_agent::sudoku::{Board, SolveEvent, Strategy};
use sudoku_agent::visualize::record::record_search;
use sudoku_sim::{EntryOrder, SimServer, SudokuApp, puzzles};
use support::adb_server::{self, AdbServer};
use support::play_rig::{self as rig, SMALL_SIZE as SMALL};

/// `skin` showing `puzzle`, served through `adb`.
fn phone(adb: &AdbServer, skin: &str, puzzle: &str) -> SimServer<SudokuApp> {
    rig::serve(rig::phone(skin, SMALL, puzzle), "instant", None, adb.addr())
}

/// `sudoku-agent ARGS -P PORT -s SERIAL` in `folder` with `config` as its config dir: code,
/// stdout, stderr.
fn run_on(
    adb: &AdbServer,
    sim: &SimServer<SudokuApp>,
    folder: &Path,
    config: &Path,
    args: &[&str],
) -> (i32, String, String) {
    support::outcome(
        agent()
            .current_dir(folder)
            .env("SUDOKU_AGENT_CONFIG_DIR", config)
            .args(args)
            .args(["-P", &adb.port().to_string(), "-s", &sim.serial()]),
    )
}

/// `visualize --strategy naive` on `sim` (state file in `folder`): code, stdout, stderr.
fn visualize_naive(
    adb: &AdbServer,
    sim: &SimServer<SudokuApp>,
    folder: &Path,
    config: &Path,
) -> (i32, String, String) {
    let state = folder.join("progress.json");
    let args = [
        "visualize",
        "--strategy",
        "naive",
        "--yes",
        "--state",
        state.to_str().unwrap(),
    ];
    run_on(adb, sim, folder, config, &args)
}

/// The naive search of EASY2, as the agent records it.
fn easy2_search() -> sudoku_agent::visualize::record::Search {
    record_search(
        &Board::from(puzzles::parse(EASY2).unwrap()),
        Strategy::Naive,
        None,
    )
    .unwrap()
}

/// The stored profile of the app on `sim`'s screen, as `config` holds it.
fn stored(sim: &SimServer<SudokuApp>, config: &Path) -> (String, Calibration) {
    let name = format!("{}-{SMALL}", sim.with_screen(|p| p.skin().package()));
    let path = config.join("profiles").join(&name).join("profile.toml");
    (name, Calibration::load(&path).unwrap())
}

#[test]
fn calibrate_without_probe_on_a_phone_stores_the_profile_that_play_then_uses_without_learning() {
    let adb = adb_server::shared();
    let (config, folder) = (
        support::temp_dir("cal-profile-config"),
        support::temp_dir("cal-profile-here"),
    );
    let sim = phone(&adb, "light", "easy");
    let (code, out, err) = run_on(&adb, &sim, &folder, &config, &["calibrate"]);
    assert_eq!(code, 0, "{out}{err}");
    let (name, cal) = stored(&sim, &config);
    let line = out
        .lines()
        .find(|l| l.starts_with("stored profile "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.contains(&name) && line.contains(&config.display().to_string()),
        "{line}"
    );
    eprintln!("{line}");
    assert!(sim.taps().is_empty(), "nothing tapped without --probe");
    assert_eq!(cal.input_order, InputOrder::CellFirst);
    assert_eq!(
        std::fs::read_dir(&folder).unwrap().count(),
        0,
        "no calibration file written here"
    );

    let (code, out, err) = run_on(&adb, &sim, &folder, &config, &["play", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(sim.with_screen(|p| p.is_solved()), "{err}");
    assert!(!err.contains("learn"), "the stored profile is used: {err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["relearned_order"], serde_json::Value::Null, "{json}");
    // Every tap the app got is one of the plan's: none probing.
    assert_eq!(
        Some(sim.taps().len() as u64),
        json["taps"].as_u64(),
        "{json}"
    );
}

/// A number-first app showing EASY2, learned by `calibrate --probe` (with a config dir and a
/// working folder of its own, named from `name`) while it took the digit first; then the
/// player switches it to cell-first in its settings. The phone, the config dir, the folder.
fn probed_then_switched(adb: &AdbServer, name: &str) -> (SimServer<SudokuApp>, PathBuf, PathBuf) {
    let config = support::temp_dir(&format!("{name}-config"));
    let folder = support::temp_dir(&format!("{name}-here"));
    let sim = phone(adb, "numfirst", EASY2);
    let (code, out, err) = run_on(adb, &sim, &folder, &config, &["calibrate", "--probe"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("input order: number-first (probed)"), "{out}");
    assert_eq!(stored(&sim, &config).1.input_order, InputOrder::NumberFirst);
    sim.with_screen(|p| p.set_input_order(EntryOrder::CellFirst));
    (sim, config, folder)
}

#[test]
fn after_the_app_switches_to_cell_first_calibrate_probe_keeps_it_and_visualize_makes_exactly_the_searchs_moves()
 {
    let adb = adb_server::shared();
    let (sim, config, folder) = probed_then_switched(&adb, "cal-switch");
    // Calibrate again, as the README says.
    let (code, out, err) = run_on(&adb, &sim, &folder, &config, &["calibrate", "--probe"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("input order: cell-first (probed)"), "{out}");
    assert_eq!(stored(&sim, &config).1.input_order, InputOrder::CellFirst);
    // The probes' own entries (each put back) come before the replay's in the app's log.
    let probed = sim.with_screen(|p| p.moves().len());

    let (code, out, err) = visualize_naive(&adb, &sim, &folder, &config);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!err.contains("learn"), "the stored profile is used: {err}");
    let search = easy2_search();
    let on_phone: Vec<Move> = support::sim_phone::moves_on(&sim)[probed..]
        .iter()
        .map(|m| m.unwrap_or_else(|(cell, digit)| panic!("{digit} refused in {cell:?}")))
        .collect();
    let sets = |moves: &[Move]| {
        moves
            .iter()
            .filter(|m| matches!(m, Move::Set { .. }))
            .count()
    };
    let textbook: Vec<Move> = search
        .events
        .iter()
        .map(|&e: &SolveEvent| e.into())
        .collect();
    eprintln!(
        "naive on EASY2: {} sets on the phone, {} in the search ({} steps)",
        sets(&on_phone),
        sets(&textbook),
        search.steps
    );
    assert_eq!(sets(&on_phone), sets(&textbook));
    assert_eq!(on_phone, textbook);
    assert!(sim.with_screen(|p| p.is_solved()));
    assert!(
        out.contains(&format!("the search took {} steps", search.steps)),
        "{out}"
    );
}

#[test]
fn without_calibrating_again_visualize_relearns_the_switched_order_from_its_first_move_and_saves_it()
 {
    let adb = adb_server::shared();
    // The player runs visualize straight after the switch.
    let (sim, config, folder) = probed_then_switched(&adb, "vis-switch");
    let probed = sim.with_screen(|p| p.moves().len());
    let (code, out, err) = visualize_naive(&adb, &sim, &folder, &config);
    assert_eq!(code, 0, "{out}{err}");
    assert!(sim.with_screen(|p| p.is_solved()), "{err}");
    let search = easy2_search();
    let textbook: Vec<Move> = search.events.iter().map(|&e| e.into()).collect();
    let on_phone = support::sim_phone::moves_on(&sim)[probed..].to_vec();
    // At most one move differs from the search's: the first, in the stale order.
    let extra = on_phone.len() - textbook.len().min(on_phone.len());
    let tail: Vec<Option<Move>> = on_phone[on_phone.len() - textbook.len()..]
        .iter()
        .map(|m| m.ok())
        .collect();
    assert!(
        tail.iter()
            .zip(&textbook)
            .all(|(a, b)| a.as_ref() == Some(b)),
        "the replay ends with the search's moves"
    );
    eprintln!(
        "stale order: {extra} moves before the search's own {} ({:?})",
        textbook.len(),
        &on_phone[..extra]
    );
    assert!(extra <= 2, "{:?}", &on_phone[..extra]);
    let wrong = on_phone[..extra]
        .iter()
        .filter(|m| matches!(m, Ok(Move::Set { .. })))
        .count();
    assert!(wrong <= 1, "{:?}", &on_phone[..extra]);
    // Saved: the next run starts cell-first.
    assert_eq!(stored(&sim, &config).1.input_order, InputOrder::CellFirst);
    assert!(err.contains("saved to profile"), "{err}");
}

#[test]
fn from_a_screenshot_file_calibrate_writes_calibration_toml_here_and_says_how_to_use_it() {
    let config = support::temp_dir("cal-file-config");
    let mut app = rig::phone("light", SMALL, "easy");
    let png = support::temp_dir("cal-file-shot").join("screen.png");
    sudoku_sim::Screen::render(&mut app).save(&png).unwrap();
    let device = format!("file:{}", png.display());
    for source in [
        ["--device", device.as_str()],
        ["--image", png.to_str().unwrap()],
    ] {
        let folder = support::temp_dir("cal-file-here");
        let (code, out, err) = support::outcome(
            agent()
                .current_dir(&folder)
                .env("SUDOKU_AGENT_CONFIG_DIR", &config)
                .arg("calibrate")
                .args(source),
        );
        assert_eq!(code, 0, "{source:?}: {out}{err}");
        assert!(out.contains("wrote calibration.toml"), "{out}");
        Calibration::load(&folder.join("calibration.toml")).unwrap();
        assert!(folder.join("templates/default/9.png").is_file());
        assert!(
            err.contains("no app to store a profile for")
                && err.contains("`--calibration calibration.toml` uses this file"),
            "{err}"
        );
        assert!(!config.join("profiles").exists(), "{source:?}: no profile");
    }
    // A phone's profile is named after its app: a template folder name needs --out.
    let (code, _, err) = support::outcome(agent().env("SUDOKU_AGENT_CONFIG_DIR", &config).args([
        "calibrate",
        "--device",
        "sim",
        "--profile",
        "mine",
    ]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("add --out FILE"), "{err}");
}
