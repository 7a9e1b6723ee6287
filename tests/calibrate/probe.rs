//! `read` and `calibrate` on a phone, and `calibrate --probe`, through the real `adb` server (one
//! private server for this binary) and the simulated phone behind the fake adbd: the probe finds
//! the input order, erase and notes of each app style by tapping, and leaves the board as it was.

use crate::support;

use std::path::PathBuf;
use std::process::Output;
use sudoku_agent::calibrate::{CalibrateOptions, calibrate_image};
use sudoku_agent::device::Device;
use sudoku_agent::device::adb::{AdbDevice, AdbOptions};
use sudoku_agent::geometry::{Point, Size};
use sudoku_agent::profile::calibration::{Calibration, InputOrder};
use sudoku_agent::sudoku::{Board, Cell};
use sudoku_sim::{self as sim, Hit, Key, SimConfig, SimServer, Skin, SudokuApp, puzzles};
use support::adb_server::{self, AdbServer};

/// The tests run on the 720x1280 screen: vision in debug builds is slow on bigger ones.
const SMALL: Size = Size::new(720, 1280);

/// A game in progress: the "easy" puzzle with two correct entries and pencil notes in two cells.
fn game(skin: &str, size: Size) -> SudokuApp {
    let puzzle = puzzles::parse(puzzles::named("easy").unwrap()).unwrap();
    let solution = *sudoku_agent::sudoku::solve(&puzzle.into())
        .solution()
        .unwrap();
    let mut phone = SudokuApp::new(puzzle, Skin::named(skin).unwrap(), size.into()).unwrap();
    let empty: Vec<Cell> = Cell::all()
        .filter(|&c| puzzle.get(c.into()).is_none())
        .collect();
    for &c in &empty[3..5] {
        phone.set_entry(c.into(), solution.get(c));
    }
    phone.set_notes(empty[0].into(), 0b10_0100);
    phone.set_notes(empty[7].into(), 0b100_0010);
    phone
}

fn connected(adb: &AdbServer, skin: &str, size: Size) -> SimServer<SudokuApp> {
    let sim = SimServer::start(game(skin, size), SimConfig::default()).unwrap();
    adb.connect_sim(&sim);
    sim
}

fn open(adb: &AdbServer, sim: &SimServer<SudokuApp>) -> AdbDevice {
    AdbDevice::open(&AdbOptions {
        port: Some(adb.port()),
        serial: Some(sim.serial()),
        ..AdbOptions::default()
    })
    .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    crate::support::temp_dir(&format!("probe-{name}"))
}

fn agent(adb: &AdbServer, args: &[&str]) -> Output {
    support::agent()
        .args(args)
        .env("ANDROID_ADB_SERVER_PORT", adb.port().to_string())
        .env_remove("ANDROID_SERIAL")
        .output()
        .unwrap()
}

/// Board, entries and notes of every cell: what "the board as it was" means.
fn state(sim: &SimServer<SudokuApp>) -> (Board, Board, Vec<u16>) {
    sim.with_screen(|p| {
        (
            p.board().into(),
            p.entries().into(),
            Cell::all().map(|c| p.notes(c.into())).collect(),
        )
    })
}

/// What a tap at `at` lands on in a fresh phone of `skin`.
fn hit_on(skin: &str, at: Point) -> Hit {
    let mut phone = game(skin, SMALL);
    sim::Screen::tap(&mut phone, at.into());
    *phone.hits().last().unwrap()
}

/// Probes one skin through adb and checks the findings against the phone's own layout.
fn probe_finds_the_controls_and_restores_the_board(skin: &str, notes_required: bool) {
    let adb = adb_server::shared();
    let sim = connected(&adb, skin, SMALL);
    let before = state(&sim);
    let mut phone = open(&adb, &sim);
    let img = phone.screenshot().unwrap();
    let options = CalibrateOptions {
        profile: skin.into(),
        ..CalibrateOptions::default()
    };
    let done = calibrate_image(&img, &options).unwrap();
    let found =
        sudoku_agent::calibrate::probe::probe(&mut phone, &done.calibration, &done.templates)
            .unwrap_or_else(|e| panic!("{skin}: {e:#}"));

    let order = match sim.with_screen(|p| p.input_order()) {
        sim::EntryOrder::CellFirst => InputOrder::CellFirst,
        sim::EntryOrder::NumberFirst => InputOrder::NumberFirst,
    };
    assert_eq!(found.input_order, order, "{skin}");
    assert_eq!(hit_on(skin, found.erase), Hit::Key(Key::Erase), "{skin}");
    // Notes is optional (a toggle the glyph finder may not see), but never another control.
    match found.notes {
        Some(n) => assert_eq!(hit_on(skin, n), Hit::Key(Key::Notes), "{skin}"),
        None => assert!(!notes_required, "{skin}: the notes toggle was not found"),
    }
    assert_eq!(state(&sim), before, "{skin}: the board is as it was");
    // Only the probe cell and buttons were touched; no mistake was made.
    let hits = sim.with_screen(|p| p.hits().to_vec());
    assert!(
        hits.iter().all(|h| match h {
            Hit::Cell(c) => *c == found.cell.into(),
            Hit::Key(_) => true,
            _ => false,
        }),
        "{skin}: {hits:?}"
    );
    assert_eq!(sim.with_screen(|p| p.mistakes()), 0, "{skin}");
    // The findings as options give the same calibration (the CLI test compares the files).
    let mut probed = done.clone();
    probed
        .set_controls(&img, Some(found.erase), found.notes, found.input_order)
        .unwrap();
    assert_eq!(probed.calibration.input_order, order);
    assert_eq!(probed.calibration.keypad.unwrap().erase, Some(found.erase));
    eprintln!(
        "{skin}: {:?}, erase {:?}, notes {:?}: {} taps, {} screenshots",
        found.input_order, found.erase, found.notes, found.taps, found.screenshots
    );
}

#[test]
fn probe_on_the_light_app_finds_cell_first_erase_and_notes_in_the_tool_row() {
    probe_finds_the_controls_and_restores_the_board("light", true);
}

#[test]
fn probe_on_the_thick_app_finds_erase_beside_the_3x3_keypad() {
    probe_finds_the_controls_and_restores_the_board("thick", false);
}

#[test]
fn probe_on_the_numfirst_and_wood_apps_finds_number_first_and_the_eraser() {
    probe_finds_the_controls_and_restores_the_board("numfirst", true);
    probe_finds_the_controls_and_restores_the_board("wood", true);
}

#[test]
fn read_and_calibrate_probe_take_the_screenshot_from_the_phone() {
    let adb = adb_server::shared();
    let sim = connected(&adb, "light", SMALL);
    let before = state(&sim);
    let dir = scratch("cli");
    let screen = dir.join("before.png");
    sim.with_screen(sim::Screen::render).save(&screen).unwrap();
    let cal = dir.join("calibration.toml");
    let out = agent(
        &adb,
        &[
            "calibrate",
            "--probe",
            "--device",
            &format!("adb:{}", sim.serial()),
            "--out",
            cal.to_str().unwrap(),
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("input order: cell-first (probed)"),
        "{stdout}"
    );
    let probed = Calibration::load(&cal).unwrap();
    assert_eq!(state(&sim), before);

    // The screen it saw, with the findings as flags, gives the same file.
    let keypad = probed.keypad.clone().unwrap();
    let (e, n) = (keypad.erase.unwrap(), keypad.notes.unwrap());
    let flagged = dir.join("flags.toml");
    let out = agent(
        &adb,
        &[
            "calibrate",
            "--image",
            screen.to_str().unwrap(),
            "--erase",
            &format!("{},{}", e.x, e.y),
            "--notes",
            &format!("{},{}", n.x, n.y),
            "--out",
            flagged.to_str().unwrap(),
            // Same template folder as the probed file (by default it follows --out's name).
            "--profile",
            "default",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(Calibration::load(&flagged).unwrap(), probed);
    let overlay = |name: &str| image::open(dir.join(name)).unwrap().to_rgba8();
    assert!(overlay("calibration-overlay.png") == overlay("flags-overlay.png"));

    let out = agent(
        &adb,
        &[
            "read",
            "-s",
            &sim.serial(),
            "--calibration",
            cal.to_str().unwrap(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first_line = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap()
        .to_string();
    assert_eq!(first_line, before.0.to_line());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn one_screenshot_source_at_a_time_read_uses_the_phone_and_probe_needs_one_to_tap() {
    let adb = adb_server::shared();
    for args in [
        &["read", "--image", "x.png", "--device", "sim"][..],
        &["read", "--image", "x.png", "-s", "emulator-5554"],
        &["calibrate", "--image", "x.png", "--device", "adb"],
        &["calibrate", "--image", "x.png", "--probe"],
        &["calibrate", "--probe", "--erase", "1,2"],
    ] {
        let out = agent(&adb, args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("cannot be used with"), "{args:?}: {err}");
    }
    // Without --image, `read` looks at the phone: here the in-process simulated one, which the
    // shipped calibration fits.
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/calibration.toml");
    let out = agent(&adb, &["read", "--device", "sim", "--calibration", shipped]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let easy = puzzles::parse(puzzles::named("easy").unwrap()).unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().next(), Some(easy.to_line().as_str()));
    // A file device has nothing to tap: the probe says so instead of guessing.
    let dir = scratch("file");
    let png = dir.join("screen.png");
    sim::Screen::render(&mut game("light", SMALL))
        .save(&png)
        .unwrap();
    let spec = format!("file:{}", png.display());
    let out = agent(
        &adb,
        &[
            "calibrate",
            "--probe",
            "--device",
            &spec,
            "--out",
            dir.join("c.toml").to_str().unwrap(),
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("neither cell-then-digit nor digit-then-cell"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A phone on which a dialog pops up over the grid after `after` taps, as when a tapped button
/// opens a menu.
struct PopupAfter<'a> {
    phone: AdbDevice,
    sim: &'a SimServer<SudokuApp>,
    after: usize,
    taps: usize,
}

impl Device for PopupAfter<'_> {
    fn screenshot(&mut self) -> anyhow::Result<image::RgbaImage> {
        self.phone.screenshot()
    }
    fn screen_size(&mut self) -> anyhow::Result<Size> {
        self.phone.screen_size()
    }
    fn tap_all(&mut self, taps: &[Point]) -> anyhow::Result<()> {
        self.phone.tap_all(taps)?;
        self.taps += taps.len();
        if self.taps >= self.after {
            self.sim.with_screen(|p| p.set_popup(true));
        }
        Ok(())
    }
}

#[test]
fn the_probe_stops_without_another_tap_when_the_screen_stops_showing_the_board() {
    let adb = adb_server::shared();
    let sim = connected(&adb, "light", SMALL);
    let mut phone = open(&adb, &sim);
    let img = phone.screenshot().unwrap();
    let done = calibrate_image(&img, &CalibrateOptions::default()).unwrap();
    let mut trap = PopupAfter {
        phone,
        sim: &sim,
        after: 2,
        taps: 0,
    };
    let err = sudoku_agent::calibrate::probe::probe(&mut trap, &done.calibration, &done.templates)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("after tapping the cell and a digit the board can no longer be read")
            && err.contains("the probe stopped (r")
            && err.contains("may hold the probe's"),
        "{err}"
    );
    let hits = sim.with_screen(|p| p.hits().to_vec());
    assert_eq!(hits.len(), 2, "{hits:?}");
    assert!(!hits.contains(&Hit::Popup), "{hits:?}");
}
