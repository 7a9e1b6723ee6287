//! The rig for `play` through the real ADB stack, shared by `tests/play_*.rs` and
//! `benches/play.rs`: calibrate a skin once from its own rendered screen, start a simulated phone
//! on a free port, connect it to an adb server and open it as an `AdbDevice`, run `play::play`.

#![allow(dead_code)]

use std::collections::HashMap;
use std::net::SocketAddrV4;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;
use sudoku_agent::calibrate::{CalibrateOptions, calibrate_image};
use sudoku_agent::device::InputKind;
use sudoku_agent::device::Pacing;
use sudoku_agent::device::adb::{AdbDevice, AdbServer};
use sudoku_agent::geometry::Size;
use sudoku_agent::phone::Phone;
use sudoku_agent::play::{PlayOptions, PlayReport};
use sudoku_agent::profile::Profile;
use sudoku_agent::profile::calibration::{Calibration, InputOrder};
use sudoku_reader::Templates;
use sudoku_sim::{Key, Screen, SimConfig, SimServer, Skin, SudokuApp};

pub const PHONE_SIZE: Size = Size::new(1080, 2340);
pub const SMALL_SIZE: Size = Size::new(720, 1280);

/// Skins `play` cannot finish yet, each with the reason in a comment; none today (tiles was
/// here until the reader saw a thin entry on a tile lit as selected).
// The simulated app itself: the same for the benches that do not play.
#[allow(unused_imports)]
pub use super::sim_phone::{phone, puzzle};

pub const NOT_YET_PLAYED: &[&str] = &[];

/// Every skin of the simulated phone but [`NOT_YET_PLAYED`].
#[allow(dead_code)]
pub fn playable_skins() -> impl Iterator<Item = &'static str> {
    Skin::names()
        .iter()
        .copied()
        .filter(|s| !NOT_YET_PLAYED.contains(s))
}

/// Calibration and templates for `skin` at `size`, measured once per test binary on the skin's
/// own screen (a fresh "easy" puzzle), with the erase button and input order given as a user
/// would. Pacing: no hold or gap (the simulated app registers every tap), a short settle.
pub fn calibration(skin: &str, size: Size) -> (Calibration, Templates) {
    type Measured = (Calibration, Templates);
    static CACHE: OnceLock<Mutex<HashMap<(String, Size), Measured>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(hit) = cache.lock().unwrap().get(&(skin.to_string(), size)) {
        return hit.clone();
    }
    let mut phone = phone(skin, size, "easy");
    let screen = phone.render();
    let options = CalibrateOptions {
        profile: skin.to_string(),
        givens: None,
        erase: Some(phone.key_center(Key::Erase).into()),
        notes: None,
        input_order: match phone.input_order() {
            sudoku_sim::EntryOrder::CellFirst => InputOrder::CellFirst,
            sudoku_sim::EntryOrder::NumberFirst => InputOrder::NumberFirst,
        },
    };
    let done = calibrate_image(&screen, &options)
        .unwrap_or_else(|e| panic!("calibrate {skin} at {size}: {e:#}"));
    let mut cal = done.calibration;
    cal.pacing = Some(Pacing {
        hold_ms: 0,
        gap_ms: 0,
        settle_ms: 50,
    });
    let entry = (cal, done.templates);
    cache
        .lock()
        .unwrap()
        .insert((skin.to_string(), size), entry.clone());
    entry
}

/// Writes a calibration and its templates under `dir` (for the CLI); returns the TOML path.
pub fn write_calibration(dir: &Path, skin: &str, size: Size) -> PathBuf {
    let (cal, templates) = calibration(skin, size);
    let path = dir.join(format!("{skin}-{size}.toml"));
    cal.save(&path).unwrap();
    templates.save(&cal.templates_at(&path)).unwrap();
    path
}

/// A simulated phone serving `phone`, connected to the adb server at `adb`.
pub fn serve(
    phone: SudokuApp,
    latency: &str,
    drop_after: Option<u64>,
    adb: SocketAddrV4,
) -> SimServer<SudokuApp> {
    let config = SimConfig {
        drop_after,
        ..super::sim_phone::config(latency)
    };
    let sim = SimServer::start(phone, config).unwrap();
    sim.connect_adb_server(adb).unwrap();
    sim
}

/// A simulated phone of `skin` at `size` showing the easy puzzle, answering at once, connected
/// to the adb server at `adb`.
pub fn serve_easy(skin: &str, size: Size, adb: SocketAddrV4) -> SimServer<SudokuApp> {
    serve(phone(skin, size, "easy"), "instant", None, adb)
}

/// The phone as the product opens it: `AdbDevice` through the adb server.
pub fn open(sim: &SimServer<SudokuApp>, adb: SocketAddrV4, input: InputKind) -> AdbDevice {
    AdbDevice::open_serial(AdbServer { addr: adb }, &sim.serial(), Some(input))
        .unwrap_or_else(|e| panic!("open {} with {input:?}: {e:#}", sim.serial()))
}

pub fn options(cal: &Calibration) -> PlayOptions {
    PlayOptions {
        dry_run: false,
        keep_entries: false,
        any_solution: false,
        recheck_after: Duration::from_millis(500),
        pacing: cal.pacing,
        moves_per_call: 0,
        wait: Duration::from_secs(20),
    }
}

/// Runs the whole workflow on `device`, read and tapped with `cal` and its `templates`.
pub fn play(
    device: &mut AdbDevice,
    cal: &Calibration,
    templates: &Templates,
    options: &PlayOptions,
) -> anyhow::Result<PlayReport> {
    let profile = Profile::new(cal.clone(), templates.clone());
    let stop = AtomicBool::new(false);
    let mut phone = Phone::new(device, &profile, &stop, &|line| eprintln!("{line}"));
    sudoku_agent::play::play(&mut phone, options, &mut |_| {})
}
