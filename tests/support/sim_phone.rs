//! Simulated phones for the agent's tests and benches: the sudoku app of a skin, size and
//! puzzle, phones served with a named latency preset and connected to an adb server, and the
//! taps that solve the app. Benches include this file by `#[path]` beside `adb_server.rs`, as
//! the tests' `support` does.

use super::adb_server::AdbServer;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use sudoku_agent::geometry::{Point, Size};
use sudoku_agent::plan::Move;
use sudoku_agent::sudoku::{Board, Cell, solve};
use sudoku_sim::{
    AppMove, Key, Latency, Screen, SimConfig, SimServer, Skin, SudokuApp, TapSource, puzzles,
};

/// A puzzle by built-in name or as 81 characters.
pub fn puzzle(name_or_line: &str) -> Board {
    puzzles::parse(puzzles::named(name_or_line).unwrap_or(name_or_line))
        .expect("a puzzle")
        .into()
}

/// The sudoku app of `skin` at `size` showing `puzzle_text` (a built-in name or 81 characters).
pub fn phone(skin: &str, size: Size, puzzle_text: &str) -> SudokuApp {
    SudokuApp::new(
        puzzle(puzzle_text).into(),
        Skin::named(skin).expect("a skin"),
        size.into(),
    )
    .expect("a phone")
}

/// The simulator's settings with the latency preset `preset` (`instant`, `android12`, ...).
pub fn config(preset: &str) -> SimConfig {
    SimConfig {
        latency: Latency::named(preset).unwrap_or_else(|| panic!("no latency preset {preset}")),
        ..SimConfig::default()
    }
}

/// `screen` served with the latency preset `preset`, dropped after `drop_after` command lines
/// when set, and connected to `adb`.
pub fn served<S: Screen + 'static>(
    screen: S,
    preset: &str,
    drop_after: Option<u64>,
    adb: &AdbServer,
) -> SimServer<S> {
    let config = SimConfig {
        drop_after,
        ..config(preset)
    };
    let sim = SimServer::start(screen, config).expect("start the simulated phone");
    adb.connect_sim(&sim);
    sim
}

/// The taps that solve the app's puzzle from its start: each empty cell, then its digit's key.
pub fn solving_taps(phone: &SudokuApp) -> Vec<Point> {
    let puzzle = Board::from(phone.board());
    let solution = *solve(&puzzle).solution().expect("solvable");
    Cell::all()
        .filter(|&c| puzzle.get(c).is_none())
        .flat_map(|c| {
            [
                phone.cell_center(c.into()).into(),
                phone
                    .key_center(Key::Digit(solution.get(c).unwrap()))
                    .into(),
            ]
        })
        .collect()
}

/// The app's move log in the solver's terms (a rejected digit is kept as its own marker).
pub fn moves_on(sim: &SimServer<SudokuApp>) -> Vec<Result<Move, (Cell, u8)>> {
    sim.with_screen(|p| {
        p.moves()
            .iter()
            .map(|m| match *m {
                AppMove::Set { cell, digit } => Ok(Move::Set {
                    cell: cell.into(),
                    digit,
                }),
                AppMove::Erase { cell } => Ok(Move::Erase { cell: cell.into() }),
                AppMove::Rejected { cell, digit } => Err((cell.into(), digit)),
            })
            .collect()
    })
}

/// Taps the banner of `sim` once, as soon as it shows, while `running` (as a tap of the
/// agent's would, had the banner covered what it was tapping): its messaging app comes in front.
pub fn tap_banner_once(sim: &SimServer<SudokuApp>, running: &AtomicBool) {
    while running.load(Ordering::SeqCst) {
        let banner = sim.with_screen(|app| app.banner_shown().then(|| app.banner_rect()));
        if let Some(r) = banner {
            let at = sudoku_sim::Point::new(r.x + r.width / 2, r.y + r.height / 2);
            sim.handset()
                .tap(at, TapSource::InputTap)
                .expect("the phone is up");
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}
