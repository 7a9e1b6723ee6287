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
use crate::sudoku::{Board, Cell, Outcome, SolveOptions, Strategy, agreement, solve_with};
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
    /// When the givens have several completions, fill one of them (the app may want another:
    /// each cell where they differ may cost a mistake) instead of only the cells all agree on.
    pub any_solution: bool,
}

/// The board as it was found, and what was decided about it.
#[derive(Debug, Clone)]
pub struct Assessment {
    pub recognition: Recognition,
    /// What the board becomes once the plan is done: the solution, or with several answers
    /// (`several`) the cells every completion agrees on, the open ones as they were read.
    pub solution: Board,
    /// The puzzle has more than one solution and `--any-solution` asked for one: `solution` is
    /// one valid completion.
    pub multiple_solutions: bool,
    /// The givens have several completions and only the cells they agree on are planned.
    pub several: Option<Several>,
    /// Player entries that disagree with the solution (erased and rewritten).
    pub wrong_entries: Vec<Cell>,
    pub moves: Vec<Move>,
    pub plan: Plan,
}

/// Givens with several completions: how many, and where they differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Several {
    /// Completions counted, up to [`COUNT_CAP`] (`at_least` when the count stopped there).
    pub completions: usize,
    pub at_least: bool,
    /// Empty cells of the givens where completions differ (left as they are on screen).
    pub open: usize,
    /// Empty cells of the givens on which every completion agrees (all planned).
    pub agreed: usize,
}

/// Completions are counted up to this many (a variant's givens read as classic may have
/// thousands; the message needs only "many").
pub const COUNT_CAP: usize = 100;

impl Several {
    /// The one line a run that filled the agreed cells ends with (exit 1, never "solved").
    pub fn message(&self) -> String {
        let n = if self.at_least {
            format!("at least {}", self.completions)
        } else {
            self.completions.to_string()
        };
        format!(
            "this puzzle has {n} completions that differ in {} (a variant's extra rule, or an app that allows several answers); filled the {} they all agree on and stopped: which answer the app wants cannot be told (pass --any-solution to fill one)",
            plural_cells(self.open),
            plural_cells(self.agreed)
        )
    }
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
    let (solution, multiple, several) = solve_board(&recognition, options.any_solution)?;
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
        several,
        wrong_entries,
        moves,
        plan,
    })
}

/// What to fill: when the givens have one completion (or `any_solution`), a solution that
/// keeps the player's entries when they fit one, else one from the givens, and whether it is
/// one of several. When they have several, the cells they all agree on ([`agreed_only`]).
fn solve_board(rec: &Recognition, any_solution: bool) -> Result<(Board, bool, Option<Several>)> {
    let givens = rec.givens();
    // The givens decide: the player's entries may be wrong for the app's answer.
    if !any_solution && matches!(solve_unique(&givens), Outcome::Multiple { .. }) {
        let (target, several) = agreed_only(rec, &givens)?;
        return Ok((target, false, Some(several)));
    }
    for board in [rec.board, givens] {
        match solve_unique(&board) {
            Outcome::Solved { board, .. } => return Ok((board, false, None)),
            Outcome::Multiple { first, .. } => return Ok((first, true, None)),
            _ => continue,
        }
    }
    Err(no_solution(&givens))
}

fn solve_unique(board: &Board) -> Outcome {
    let options = SolveOptions {
        strategy: Strategy::Fast,
        max_steps: None,
        unique: true,
    };
    solve_with(board, options, &mut ())
}

fn no_solution(givens: &Board) -> anyhow::Error {
    BoardProblem(format!(
        "the puzzle as read has no solution ({}); check the screen, or re-run `sudoku-agent calibrate` if digits were misread",
        givens.to_line()
    ))
    .into()
}

/// Givens with several completions: the board the run leaves, which holds every cell the
/// completions agree on and, in the cells where they differ, what the screen shows now (a
/// player's entry there is never erased or changed: it may be the app's answer).
fn agreed_only(rec: &Recognition, givens: &Board) -> Result<(Board, Several)> {
    let agreement = agreement(givens).ok_or_else(|| no_solution(givens))?;
    let mut target = agreement.agreed;
    for &cell in &agreement.open {
        target.set(cell, rec.board.get(cell));
    }
    let (completions, at_least) = count_completions(givens, COUNT_CAP);
    let agreed = 81 - givens.filled_count() - agreement.open.len();
    let several = Several {
        completions,
        at_least,
        open: agreement.open.len(),
        agreed,
    };
    Ok((target, several))
}

/// The completions of `board`, counted up to `cap` (true when the count stopped there): each
/// branch on the first empty cell is settled by one search while it has at most one.
fn count_completions(board: &Board, cap: usize) -> (usize, bool) {
    fn count(board: &Board, cap: usize) -> usize {
        match solve_unique(board) {
            Outcome::Solved { .. } => 1,
            Outcome::Multiple { .. } => {
                let Some(cell) = Cell::all().find(|&c| board.get(c).is_none()) else {
                    return 0;
                };
                let mut n = 0;
                for digit in 1..=9 {
                    let mut trial = *board;
                    trial.set(cell, Some(digit));
                    n += count(&trial, cap - n);
                    if n >= cap {
                        break;
                    }
                }
                n
            }
            _ => 0,
        }
    }
    let n = count(board, cap);
    (n.min(cap), n >= cap)
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
    let (report, captured_at, screen) = match read_and_plan(first, phone, options) {
        Ok(planned) => planned,
        // A board half drawn (a level starting) reads as too few digits, or not at all: read
        // once more when the screen has come to rest; an error then is the answer.
        Err(_) if phone.device.shows_taps() => {
            let rested = rested_first_read(phone)?;
            read_and_plan(Some(rested), phone, options)?
        }
        Err(e) => return Err(e),
    };
    if options.dry_run {
        return Ok(report);
    }
    // The screen must still show what was read before anything is tapped.
    let report = if captured_at.elapsed() > options.recheck_after {
        confirm_unchanged(phone, &report.assessment)?;
        report
    } else {
        planned_at_rest(report, (&screen, captured_at), phone, options)?
    };
    let several = report.assessment.several;
    if report.assessment.moves.is_empty() {
        return stop_if_several(report, several);
    }

    let report = tapping::tap_and_check(report, phone, options, progress)?;
    stop_if_several(report, several)
}

/// A run that filled only the cells every completion agrees on ends with an error: the board
/// is not solved, and which answer the app wants cannot be told.
fn stop_if_several(report: PlayReport, several: Option<Several>) -> Result<PlayReport> {
    match several {
        Some(several) => Err(BoardProblem(several.message()).into()),
        None => Ok(report),
    }
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

/// How long after the first read the screen is looked at again before the first tap: a digit
/// that pops or fades in, or a level-start cascade (a given every 80-140 ms), changes the
/// grid's pixels between two frames this far apart.
const AT_REST_GAP: Duration = Duration::from_millis(150);

/// Before the first tap, with a fresh read: the board must be at rest. The grid's rows are
/// fetched once more [`AT_REST_GAP`] after the read; when the grid's pixels moved (a level
/// starting, a resumed game's entries popping in), the board is read again once it has come
/// to rest ([`first_board`](crate::phone::settle::first_board)) and planned anew, so no move
/// is planned from a board half drawn.
fn planned_at_rest(
    report: PlayReport,
    (screen, captured_at): (&image::RgbaImage, Instant),
    phone: &mut Phone,
    options: &PlayOptions,
) -> Result<PlayReport> {
    if !phone.device.shows_taps() {
        return Ok(report);
    }
    std::thread::sleep((captured_at + AT_REST_GAP).saturating_duration_since(Instant::now()));
    let again = phone
        .device
        .screenshot_rows(check_rows(&phone.profile.calibration))
        .context("cannot take a screenshot")?;
    let grid = report.assessment.recognition.grid.rect();
    let side = grid.width.max(grid.height);
    if again.dimensions() == screen.dimensions()
        && sudoku_reader::stages::settling::still_around(screen, &again, grid.center(), side)
    {
        return Ok(report);
    }
    phone.say(
        "the board is still changing (a level starting, digits drawn in?): waiting for it to come to rest before the first tap",
    );
    let rested = rested_first_read(phone)?;
    let (mut fresh, _, _) = read_and_plan(Some(rested), phone, options)?;
    fresh.timings.capture_ms += report.timings.capture_ms;
    fresh.timings.read_ms += report.timings.read_ms;
    Ok(fresh)
}

/// The screen once it has come to rest ([`first_board`](crate::phone::settle::first_board)),
/// read with the profile.
fn rested_first_read(phone: &mut Phone) -> Result<FirstRead> {
    let started = Instant::now();
    let screen = crate::phone::settle::first_board(phone.device)?;
    let taken = Instant::now();
    let recognition = phone
        .read(&screen)
        .result
        .map_err(|e| BoardProblem(format!("cannot read the board, nothing was tapped: {e}")))?;
    Ok(FirstRead {
        screen,
        recognition,
        taken,
        capture_ms: ms(taken - started),
        read_ms: ms(taken.elapsed()),
    })
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
    fn completions_are_counted_exactly_below_the_cap_and_as_at_least_the_cap_above_it() {
        let solved = Board::parse(
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        )
        .unwrap();
        // Four cells emptied that only one way back fits: one completion.
        let mut one = solved;
        for c in [(0, 0), (0, 1), (3, 0), (3, 1)] {
            one.set(Cell::new(c.0, c.1).unwrap(), None);
        }
        assert_eq!(count_completions(&one, COUNT_CAP), (1, false));
        // A rectangle a b / b a on two rows of one band, its columns in two boxes: emptied, its
        // digits swap and every unit still holds them: two completions.
        let at = |r: usize, c: usize| solved.get(Cell::new(r, c).unwrap());
        let rectangle = (0..9)
            .flat_map(|r1| (r1 + 1..9).map(move |r2| (r1, r2)))
            .filter(|&(r1, r2)| r1 / 3 == r2 / 3)
            .flat_map(|(r1, r2)| {
                (0..9).flat_map(move |c1| (c1 + 1..9).map(move |c2| (r1, r2, c1, c2)))
            })
            .find(|&(r1, r2, c1, c2)| {
                c1 / 3 != c2 / 3 && at(r1, c1) == at(r2, c2) && at(r1, c2) == at(r2, c1)
            })
            .expect("the grid holds a swappable rectangle");
        let (r1, r2, c1, c2) = rectangle;
        let mut two = solved;
        for (r, c) in [(r1, c1), (r1, c2), (r2, c1), (r2, c2)] {
            two.set(Cell::new(r, c).unwrap(), None);
        }
        assert_eq!(count_completions(&two, COUNT_CAP), (2, false));
        assert_eq!(count_completions(&Board::empty(), 5), (5, true));
        let several = Several {
            completions: 5,
            at_least: true,
            open: 7,
            agreed: 40,
        };
        let line = several.message();
        assert!(
            line.contains("at least 5 completions that differ in 7 cells"),
            "{line}"
        );
        assert!(line.contains("filled the 40 cells"), "{line}");
        assert!(line.contains("--any-solution"), "{line}");
        assert!(!line.contains('\n'), "{line}");
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
