//! The `play` workflow: capture, read, solve, plan, tap, verify, on any `Device`.
//!
//! Safety rules it keeps: it taps only cell centres and calibrated keypad buttons (the plan is
//! built from the calibration, see `plan`); it never taps when the screen cannot be read or
//! no longer shows the board it read; it sends taps a few whole moves at a time (see
//! `Input::moves_per_call`) so Ctrl-C or a lost device stops cleanly between moves; and it re-reads
//! the screen afterwards and names every cell that does not show what it should.

use crate::device::Pacing;
use crate::error::BoardProblem;
use crate::phone::Phone;
use crate::plan::{self, Move, Plan};
use crate::profile::Profile;
use crate::profile::calibration::{Calibration, InputOrder};
use crate::sudoku::{Board, Cell, Outcome, SolveOptions, Strategy, solve_with};
use anyhow::{Context, Result};
use sudoku_reader::{CellKind, Recognition};

mod batches;
mod keys;
mod relearn;
mod tapping;
pub use batches::{WATCH_MOVES, WATCH_TAPS, planned_checks};
pub use relearn::{Relearned, relearn_order};
use std::time::{Duration, Instant};
pub use tapping::check_rows;

/// What the user asked for.
#[derive(Debug, Clone, Default)]
pub struct PlayOptions {
    /// Plan and report, but do not tap.
    pub dry_run: bool,
    /// Refuse (instead of correcting) when player entries disagree with the solution.
    pub keep_entries: bool,
    /// A screenshot older than this is taken again before the first tap.
    pub recheck_after: Duration,
    /// Tap timing for the app (from the calibration). The settle time is spent only after the
    /// last call, before the verifying screenshot; between calls the ordinary gap applies. `None`
    /// leaves the device's own pacing (settle after every call).
    pub pacing: Option<Pacing>,
    /// Moves sent per `tap_all` call; 0 picks per input method (see `Input::moves_per_call`). Ctrl-C
    /// and a lost device are noticed between calls.
    pub moves_per_call: usize,
    /// How long to wait for the board to come back when an ad or a dialog covers it mid-play
    /// (zero: stop at once).
    pub wait: Duration,
}

/// The board as it was found, and what was decided about it.
#[derive(Debug, Clone)]
pub struct Assessment {
    pub recognition: Recognition,
    pub solution: Board,
    /// The puzzle has more than one solution; `solution` is one valid completion.
    pub multiple_solutions: bool,
    /// Player entries that disagree with the solution (erased and rewritten).
    pub wrong_entries: Vec<Cell>,
    pub moves: Vec<Move>,
    pub plan: Plan,
}

/// Time spent per stage, host side.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Timings {
    pub capture_ms: f64,
    pub read_ms: f64,
    pub solve_ms: f64,
    pub tap_ms: f64,
    pub verify_ms: f64,
}

/// How a run ended.
#[derive(Debug, Clone)]
pub struct PlayReport {
    pub assessment: Assessment,
    pub moves_done: usize,
    pub taps_sent: usize,
    /// The board re-read after tapping (None for a dry run).
    pub final_board: Option<Board>,
    pub timings: Timings,
    /// Screenshots taken to check batches of moves.
    pub checks: usize,
    /// Times the board was covered mid-play and came back.
    pub interruptions: usize,
    /// The input order learned mid-play when the calibrated one did not work.
    pub relearned_order: Option<InputOrder>,
    /// After the last move the board gave way to the app's end screen (a completion card);
    /// every move before it was seen on the board.
    pub end_screen: bool,
}

impl PlayReport {
    /// A run that has planned its moves and tapped nothing yet.
    pub fn planned(assessment: Assessment, timings: Timings) -> PlayReport {
        PlayReport {
            assessment,
            moves_done: 0,
            taps_sent: 0,
            final_board: None,
            timings,
            checks: 0,
            interruptions: 0,
            relearned_order: None,
            end_screen: false,
        }
    }
}

/// The fewest givens a sudoku can have: solving a read with fewer would tap a made-up board.
pub use sudoku_reader::stages::MIN_CLUES;

/// Reads a screenshot and decides what to tap: pure apart from the time it takes.
pub fn assess(
    screen: &image::RgbaImage,
    profile: &Profile,
    options: &PlayOptions,
    timings: &mut Timings,
) -> Result<Assessment> {
    let started = Instant::now();
    let recognition = profile
        .read(screen)
        .result
        .map_err(|e| BoardProblem(format!("cannot read the board, nothing was tapped: {e}")))?;
    timings.read_ms = ms(started.elapsed());
    assess_read(recognition, &profile.calibration, options, timings)
}

/// Decides what to tap on a board already read.
pub fn assess_read(
    recognition: Recognition,
    cal: &Calibration,
    options: &PlayOptions,
    timings: &mut Timings,
) -> Result<Assessment> {
    let digits = recognition.board.filled_count();
    if digits < MIN_CLUES {
        return Err(BoardProblem(format!(
            "only {digits} digits were read and a sudoku has at least {MIN_CLUES}, so the reader missed some; nothing was tapped (check `sudoku-agent read --overlay read.png`, or forget this app's profile with `sudoku-agent profiles remove NAME`)"
        ))
        .into());
    }
    let started = Instant::now();
    let (solution, multiple) = solve_board(&recognition)?;
    timings.solve_ms = ms(started.elapsed());

    let (moves, wrong_entries) = plan::moves_to_fill(&recognition.board, &solution);
    if options.keep_entries && !wrong_entries.is_empty() {
        return Err(BoardProblem(format!(
            "player entries disagree with the solution at {}; nothing was tapped (drop --keep-entries to correct them)",
            list_cells(&wrong_entries)
        ))
        .into());
    }
    let mut layout = plan::layout(cal)?;
    // Grouped by digit in both orders: a number-first app selects each digit once, and in a
    // cell-first app a cell tap lost under an overlay makes the key that follows land in the
    // cell selected before, harmless only when that cell takes the same digit. The checked
    // batches break where the digit changes (`batches::batch_end`), and a cell-first plan
    // selects a given before the key changes (`plan::targets`).
    let moves = plan::group_by_digit(&moves);
    layout.park = Cell::all()
        .zip(&recognition.readings)
        .find(|(_, r)| r.kind == CellKind::Given)
        .map(|(c, _)| c);
    let plan = plan::plan(&moves, &layout).with_context(|| {
        format!(
            "wrong entries at {} must be erased",
            list_cells(&wrong_entries)
        )
    })?;
    Ok(Assessment {
        recognition,
        solution,
        multiple_solutions: multiple,
        wrong_entries,
        moves,
        plan,
    })
}

/// A solution that keeps the player's entries when they fit one, else one from the givens.
fn solve_board(rec: &Recognition) -> Result<(Board, bool)> {
    let options = SolveOptions {
        strategy: Strategy::Fast,
        max_steps: None,
        unique: true,
    };
    let givens = rec.givens();
    for board in [rec.board, givens] {
        match solve_with(&board, options, &mut ()) {
            Outcome::Solved { board, .. } => return Ok((board, false)),
            Outcome::Multiple { first, .. } => return Ok((first, true)),
            _ => continue,
        }
    }
    Err(BoardProblem(format!(
        "the puzzle as read has no solution ({}); check the screen, or re-run `sudoku-agent calibrate` if digits were misread",
        givens.to_line()
    ))
    .into())
}

/// What `play` tells its caller as it goes.
#[derive(Debug, Clone, Copy)]
pub enum Step<'a> {
    /// The board was read and the moves planned; nothing is tapped yet.
    Planned(&'a Assessment),
    /// `done` of `total` moves are on the screen.
    Moves { done: usize, total: usize },
}

/// A screenshot taken and read just before a run (by the check of a stored profile), handed to
/// `play` so that one run captures and reads the screen once at the start, not twice.
#[derive(Debug, Clone)]
pub struct FirstRead {
    pub screen: image::RgbaImage,
    pub recognition: Recognition,
    /// When the screenshot was taken (an old one is checked again before the first tap).
    pub taken: Instant,
    pub capture_ms: f64,
    pub read_ms: f64,
}

/// Runs the whole workflow on `phone`. Its stop flag is polled between moves (Ctrl-C);
/// `progress` is told the plan before the first tap, then how many moves are done.
pub fn play(
    phone: &mut Phone,
    options: &PlayOptions,
    progress: &mut dyn FnMut(Step),
) -> Result<PlayReport> {
    play_from(None, phone, options, progress)
}

/// [`play`], starting from `first` (a screenshot of the phone already read with its profile)
/// when given instead of capturing and reading the screen again. The steps, each its own
/// function: read and plan, confirm the screen is unchanged, then send a batch and check it
/// until the plan is done, and finish by comparing the board with the solution.
pub fn play_from(
    first: Option<FirstRead>,
    phone: &mut Phone,
    options: &PlayOptions,
    progress: &mut dyn FnMut(Step),
) -> Result<PlayReport> {
    let (report, captured_at, _) = read_and_plan(first, phone, options)?;
    if options.dry_run || report.assessment.moves.is_empty() {
        return Ok(report);
    }
    // The screen must still show what was read before anything is tapped.
    if captured_at.elapsed() > options.recheck_after {
        confirm_unchanged(phone, &report.assessment)?;
    }

    tapping::tap_and_check(report, phone, options, progress)
}

/// The first step: the board read (from `first`, or a fresh screenshot) and the moves planned,
/// with when the screenshot was taken and the screenshot itself (for `--dry-run` to draw on).
pub fn read_and_plan(
    first: Option<FirstRead>,
    phone: &mut Phone,
    options: &PlayOptions,
) -> Result<(PlayReport, Instant, image::RgbaImage)> {
    let mut timings = Timings::default();
    let (assessment, captured_at, screen) = match first {
        Some(first) => {
            timings.capture_ms = first.capture_ms;
            timings.read_ms = first.read_ms;
            let a = assess_read(
                first.recognition,
                &phone.profile.calibration,
                options,
                &mut timings,
            )?;
            (a, first.taken, first.screen)
        }
        None => {
            let shot = phone.capture()?;
            timings.capture_ms = ms(shot.took);
            let a = assess(&shot.screen, phone.profile, options, &mut timings)?;
            (a, shot.taken, shot.screen)
        }
    };
    let report = PlayReport::planned(assessment, timings);
    Ok((report, captured_at, screen))
}

/// Before the first tap, when the screenshot read is old: the screen must still show that board.
fn confirm_unchanged(phone: &mut Phone, assessment: &Assessment) -> Result<()> {
    let again = phone.capture()?.screen;
    let now = phone
        .read(&again)
        .result
        .map_err(|e| BoardProblem(format!("the screen changed, nothing was tapped: {e}")))?;
    let differ = assessment.recognition.board.diff(&now.board);
    if !differ.is_empty() {
        return Err(BoardProblem(format!(
            "the screen changed since it was read (cells {}); nothing was tapped",
            list_cells(&differ)
        ))
        .into());
    }
    Ok(())
}

fn show(d: Option<u8>) -> String {
    d.map_or("nothing".to_string(), |d| d.to_string())
}

fn list_cells(cells: &[Cell]) -> String {
    cells
        .iter()
        .map(Cell::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn plural_cells(n: usize) -> String {
    if n == 1 {
        "1 cell".into()
    } else {
        format!("{n} cells")
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The board a check saw. A board that breaks the rules is still the board: the digits that
/// break them in cells just changed are what landed there (the rest is as expected). Any other
/// read error means something else is on screen.
pub(crate) fn board_as_seen(
    read: Result<Recognition, sudoku_reader::ReadError>,
    expected: &Board,
    changed: &[Cell],
) -> Result<Board, sudoku_reader::ReadError> {
    match read {
        Ok(r) => Ok(r.board),
        Err(sudoku_reader::ReadError::Conflict(pairs)) => {
            let mut board = *expected;
            for (a, b, digit) in pairs {
                for cell in [a, b] {
                    if changed.contains(&cell) && expected.get(cell) != Some(digit) {
                        board.set(cell, Some(digit));
                    }
                }
            }
            Ok(board)
        }
        Err(other) => Err(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differing_cells_names_exactly_the_changed_cells() {
        let mut a = Board::empty();
        let mut b = a;
        a.set(Cell::new(0, 1).unwrap(), Some(3));
        b.set(Cell::new(8, 8).unwrap(), Some(4));
        let d = a.diff(&b);
        assert_eq!(d, [Cell::new(0, 1).unwrap(), Cell::new(8, 8).unwrap()]);
        assert_eq!(list_cells(&d), "r1c2, r9c9");
    }

    #[test]
    fn a_read_with_fewer_digits_than_any_sudoku_has_is_refused_before_solving() {
        let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let cal = Calibration::load(&manifest.join("calibration.toml")).unwrap();
        let board = Board::parse(
            ".......................................................................912345678.",
        )
        .unwrap();
        let read = Recognition {
            board,
            readings: Vec::new(),
            grid: sudoku_reader::Grid::from_rect(cal.grid),
            clashes: Vec::new(),
        };
        let err = assess_read(read, &cal, &PlayOptions::default(), &mut Timings::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains("only 9 digits"), "{err}");
        assert!(err.contains("nothing was tapped"), "{err}");
    }
}
