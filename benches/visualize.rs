//! `visualize` benchmark (`cargo bench --bench visualize`): for the L52 board of the classic
//! Auto.js demo and one 17-clue puzzle, the steps of each strategy, and what replaying the search
//! on a phone costs in simulated device time per preset and input backend (every input method
//! each preset offers, the on-device injector `inject` included, in the same run), through a
//! private real `adb` server and `AdbDevice`, checks included. Long searches are replayed for
//! a prefix and the device time extrapolated linearly (said in the table); the methods that start
//! a JVM per call (`tap`, `batch`) replay a shorter prefix, their rate being flat. Device time is
//! the simulator's virtual clock, which charges the per-command, per-event and screenshot costs
//! of notes/android-input.md (`sudoku_sim::latency`).

#[path = "../sim/tests/support/adb_server.rs"]
mod adb_server;
#[allow(dead_code)]
#[path = "../tests/support/boards.rs"]
mod boards;
use boards::L52;
// Served phones and the solving taps: the same as the tests' (`tests/support/sim_phone.rs`).
#[allow(dead_code)]
#[path = "../tests/support/sim_phone.rs"]
mod sim_phone;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use sudoku_agent::calibrate::{CalibrateOptions, calibrate_image};
use sudoku_agent::device::adb::{AdbDevice, AdbOptions, AdbServer};
use sudoku_agent::device::{Device, InputKind};
use sudoku_agent::geometry::Size;
use sudoku_agent::phone::Phone;
use sudoku_agent::profile::Profile;
use sudoku_agent::sudoku::{Board, DEFAULT_MAX_STEPS, Strategy};
use sudoku_agent::visualize::estimate::pacing_for;
use sudoku_agent::visualize::record::{Search, record_search};
use sudoku_agent::visualize::session::{self, Replay, ReplayOptions};
use sudoku_sim::{Key, Screen, Skin, SudokuApp, puzzles};

const SIZE: Size = Size::new(1080, 2340);
/// Moves replayed per run; longer searches are extrapolated from this prefix.
const PREFIX: usize = 2_000;
/// The prefix for methods whose every call is an adb command of its own (`tap`, `batch`): host
/// time per move is high and the device rate is flat, so a shorter prefix measures it as well.
const SLOW_PREFIX: usize = 400;
/// Preset and input method of each replay: every method each preset offers.
const CASES: [(&str, InputKind); 15] = [
    ("android9", InputKind::Tap),
    ("android9", InputKind::Batch),
    ("android9", InputKind::Evdev),
    ("android9", InputKind::Inject),
    ("android10", InputKind::Tap),
    ("android10", InputKind::Batch),
    ("android10", InputKind::Inject),
    ("android12", InputKind::Tap),
    ("android12", InputKind::Batch),
    ("android12", InputKind::Stream),
    ("android12", InputKind::Inject),
    ("android14", InputKind::Tap),
    ("android14", InputKind::Batch),
    ("android14", InputKind::Stream),
    ("android14", InputKind::Inject),
];
/// Targets of issues 6 and 12, in moves per second of device time.
const TARGETS: [(&str, InputKind, f64); 3] = [
    ("android9", InputKind::Evdev, 25.0),
    ("android12", InputKind::Stream, 8.0),
    ("android12", InputKind::Inject, 25.0),
];

/// The first 17-clue puzzle in the shared collection whose naive search fits the default step
/// budget (so both strategies can be replayed); `../shared` beside the repository, as in CI.
fn seventeen_clue() -> (String, Board) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|d| d.join("shared/puzzles/17_clue.txt"))
        .find(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from("/work/shared/puzzles/17_clue.txt"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    for (n, line) in sudoku_agent::sudoku::puzzle_lines(&text)
        .enumerate()
        .take(200)
    {
        let Ok(board) = line.board else { continue };
        if record_search(&board, Strategy::Naive, Some(DEFAULT_MAX_STEPS)).is_ok() {
            return (format!("17-clue #{}", n + 1), board);
        }
    }
    panic!("no 17-clue puzzle among the first 200 fits the naive budget");
}

struct Row {
    puzzle: String,
    strategy: Strategy,
    steps: u64,
    moves: usize,
    preset: &'static str,
    input: InputKind,
    backend: String,
    replayed: usize,
    device: Duration,
    host: Duration,
    overtaken: u64,
}

/// Replays up to `PREFIX` moves of `search` on a simulated phone with `preset` latency.
fn replay(
    adb: &adb_server::AdbServer,
    search: &Search,
    preset: &'static str,
    input: InputKind,
) -> (String, usize, Duration, Duration, u64) {
    let mut phone = SudokuApp::new(
        search.puzzle.into(),
        Skin::named("light").unwrap(),
        SIZE.into(),
    )
    .unwrap();
    let calibrated = calibrate_image(
        &phone.render(),
        &CalibrateOptions {
            profile: "default".into(),
            erase: Some(phone.key_center(Key::Erase).into()),
            ..CalibrateOptions::default()
        },
    )
    .unwrap();
    let sim = sim_phone::served(phone, preset, None, adb);
    let server = AdbServer::connect(&AdbOptions {
        port: Some(adb.port()),
        ..AdbOptions::default()
    })
    .unwrap();
    let mut device = AdbDevice::open_serial(server, &sim.serial(), Some(input)).unwrap();
    let backend = device.input_description();
    let pacing = pacing_for(&calibrated.calibration, device.input());
    let moves = search.moves();
    let prefix = match input {
        InputKind::Tap | InputKind::Batch => SLOW_PREFIX,
        _ => PREFIX,
    };
    let n = moves.len().min(prefix);
    let options = ReplayOptions {
        pacing,
        check_settle_ms: pacing.settle_ms,
        ..ReplayOptions::default()
    };
    let layout = sudoku_agent::plan::layout(&calibrated.calibration).unwrap();
    let profile = Profile::new(calibrated.calibration.clone(), calibrated.templates.clone());
    let stop = AtomicBool::new(false);
    let mut phone = Phone::new(&mut device, &profile, &stop, &|line| eprintln!("{line}"));
    let mut replay = Replay {
        phone: &mut phone,
        layout,
    };
    let clock_before = sim.clock();
    let started = Instant::now();
    let report = session::replay_moves(
        &mut replay,
        &search.puzzle,
        &moves[..n],
        0,
        &options,
        None,
        &mut |_| {},
    )
    .unwrap();
    let host = started.elapsed();
    let device_time = sim.clock() - clock_before;
    assert_eq!(report.done, n);
    assert_eq!(sim.with_screen(|p| p.board()), report.final_board.into());
    (backend, n, device_time, host, sim.overtaken())
}

fn main() {
    let t = Instant::now();
    let adb = adb_server::AdbServer::start();
    let (label, seventeen) = seventeen_clue();
    let puzzles = [
        ("L52".to_string(), Board::from(puzzles::parse(L52).unwrap())),
        (label, seventeen),
    ];
    let mut rows = Vec::new();
    for (name, puzzle) in &puzzles {
        for strategy in [Strategy::Naive, Strategy::Fast] {
            let search = record_search(puzzle, strategy, None).unwrap();
            for (preset, input) in CASES {
                let (backend, replayed, device, host, overtaken) =
                    replay(&adb, &search, preset, input);
                rows.push(Row {
                    puzzle: name.clone(),
                    strategy,
                    steps: search.steps,
                    moves: search.events.len(),
                    preset,
                    input,
                    backend,
                    replayed,
                    device,
                    host,
                    overtaken,
                });
            }
        }
    }
    println!(
        "\nvisualize replay through a private adb server, simulated 1080x2340 phone, check every 200 moves"
    );
    println!(
        "{:<14} {:<6} {:>9} {:>9} {:<10} {:<8} {:>9} {:>11} {:>8} {:>16} {:>9} {:>9}",
        "puzzle",
        "search",
        "steps",
        "moves",
        "preset",
        "backend",
        "replayed",
        "device s",
        "moves/s",
        "full device time",
        "host s",
        "overtaken"
    );
    for r in &rows {
        let rate = r.replayed as f64 / r.device.as_secs_f64();
        let full = r.device.mul_f64(r.moves as f64 / r.replayed as f64);
        let full = if r.replayed < r.moves {
            format!("~{} (extrap.)", sudoku_agent::app::format::duration(full))
        } else {
            sudoku_agent::app::format::duration(full)
        };
        println!(
            "{:<14} {:<6} {:>9} {:>9} {:<10} {:<8} {:>9} {:>11.2} {:>8.1} {:>16} {:>9.2} {:>9}",
            r.puzzle,
            r.strategy.name(),
            r.steps,
            r.moves,
            r.preset,
            r.backend.split_whitespace().next().unwrap_or(""),
            r.replayed,
            r.device.as_secs_f64(),
            rate,
            full,
            r.host.as_secs_f64(),
            r.overtaken
        );
    }
    println!(
        "\ntargets (naive search prefixes, where replays are long enough to measure the rate):"
    );
    for (preset, input, target) in TARGETS {
        let worst = rows
            .iter()
            .filter(|r| r.preset == preset && r.input == input && r.strategy == Strategy::Naive)
            .map(|r| r.replayed as f64 / r.device.as_secs_f64())
            .fold(f64::INFINITY, f64::min);
        println!(
            "  {preset} {input}: {worst:.1} moves/s (worst naive row) vs target {target} -> {}",
            if worst >= target { "met" } else { "MISSED" }
        );
    }
    drop(adb);
    println!("\n(bench ran in {:.1} s)", t.elapsed().as_secs_f64());
}
