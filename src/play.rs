//! The `play` workflow: capture, read, solve, plan, tap, verify, on any `Device`.
//!
//! Safety rules it keeps: it taps only cell centres and calibrated keypad buttons (the plan is
//! built from the calibration, see `plan`); it never taps when the screen cannot be read or
//! no longer shows the board it read; it sends taps a few whole moves at a time (see
//! `Input::moves_per_call`) so Ctrl-C or a lost device stops cleanly between moves; and it re-reads
//! the screen afterwards and names every cell that does not show what it should.

use crate::calibration::{Calibration, InputOrder};
use crate::device::{Device, Pacing};
use crate::error::BoardProblem;
use crate::geometry::Point;
use crate::plan::{self, Layout, Move, Plan};
use crate::sudoku::{Board, Cell, Outcome, SolveOptions, Strategy, solve_with};
use crate::vision::{Recognition, Templates, read_board};
use anyhow::{Context, Result, anyhow};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
}

/// The tap layout of a calibration; refuses a calibration without a keypad.
pub fn layout(cal: &Calibration) -> Result<Layout> {
    let keypad = cal.keypad.as_ref().context(
        "the calibration has no keypad: re-run `sudoku-agent calibrate` on a screen that shows the digit buttons",
    )?;
    Ok(Layout {
        grid: cal.grid,
        digits: keypad.digits,
        erase: keypad.erase,
        order: cal.input_order,
    })
}

/// Reads a screenshot and decides what to tap: pure apart from the time it takes.
pub fn assess(
    screen: &image::RgbaImage,
    cal: &Calibration,
    templates: &Templates,
    options: &PlayOptions,
    timings: &mut Timings,
) -> Result<Assessment> {
    let started = Instant::now();
    let recognition = read_board(screen, cal, templates)
        .map_err(|e| BoardProblem(format!("cannot read the board, nothing was tapped: {e}")))?;
    timings.read_ms = ms(started.elapsed());

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
    let layout = layout(cal)?;
    let moves = match layout.order {
        InputOrder::CellFirst => moves,
        InputOrder::NumberFirst => plan::group_by_digit(&moves),
    };
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

/// Runs the whole workflow. `stop` is polled between moves (Ctrl-C); `progress` is told how
/// many moves are done.
pub fn play(
    device: &mut dyn Device,
    cal: &Calibration,
    templates: &Templates,
    options: &PlayOptions,
    stop: &Arc<AtomicBool>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<PlayReport> {
    let mut timings = Timings::default();
    let started = Instant::now();
    let screen = device.screenshot().context("cannot take a screenshot")?;
    let captured_at = Instant::now();
    timings.capture_ms = ms(started.elapsed());
    let assessment = assess(&screen, cal, templates, options, &mut timings)?;
    let mut report = PlayReport {
        assessment,
        moves_done: 0,
        taps_sent: 0,
        final_board: None,
        timings,
    };
    if options.dry_run || report.assessment.moves.is_empty() {
        return Ok(report);
    }

    // The screen must still show what was read before anything is tapped.
    if captured_at.elapsed() > options.recheck_after {
        let again = device.screenshot().context("cannot take a screenshot")?;
        let now = read_board(&again, cal, templates)
            .map_err(|e| BoardProblem(format!("the screen changed, nothing was tapped: {e}")))?;
        let differ = report.assessment.recognition.board.diff(&now.board);
        if !differ.is_empty() {
            return Err(BoardProblem(format!(
                "the screen changed since it was read (cells {}); nothing was tapped",
                list_cells(&differ)
            ))
            .into());
        }
    }

    let started = Instant::now();
    let plan = &report.assessment.plan;
    let total = report.assessment.moves.len();
    let per_call = match options.moves_per_call {
        0 => device.input().moves_per_call(),
        n => n,
    };
    let mut first_tap = 0;
    let mut done = 0;
    while done < total {
        if stop.load(Ordering::SeqCst) {
            return Err(anyhow!(
                "stopped by the user after {done} of {total} moves; re-run play to finish the board"
            ));
        }
        let upto = (done + per_call).min(total);
        let end = plan.move_ends[upto - 1];
        if let Some(p) = options.pacing.or_else(|| device.pacing()) {
            // Settling is for the screenshot at the end; between calls a tap is a tap.
            device.set_pacing(if upto == total {
                p
            } else {
                Pacing {
                    settle_ms: p.gap_ms,
                    ..p
                }
            });
        }
        let points: Vec<Point> = plan.taps[first_tap..=end].iter().map(|t| t.at).collect();
        device.tap_all(&points).with_context(|| {
            if upto - done == 1 {
                format!("the device stopped taking taps after {done} of {total} moves; re-run play to finish the board")
            } else {
                format!("the device stopped taking taps during moves {}-{upto} of {total}; re-run play to finish the board", done + 1)
            }
        })?;
        first_tap = end + 1;
        done = upto;
        report.moves_done = done;
        report.taps_sent = first_tap;
        progress(done, total);
    }
    report.timings.tap_ms = ms(started.elapsed());

    let started = Instant::now();
    let after = device
        .screenshot()
        .context("cannot take a screenshot to verify")?;
    let seen = read_board(&after, cal, templates).map_err(|e| {
        BoardProblem(format!(
            "all {total} moves were sent but the screen cannot be read back: {e}"
        ))
    })?;
    report.timings.verify_ms = ms(started.elapsed());
    let expected = plan::apply(
        &report.assessment.recognition.board,
        &report.assessment.moves,
    );
    let differ = expected.diff(&seen.board);
    report.final_board = Some(seen.board);
    if !differ.is_empty() {
        return Err(BoardProblem(format!(
            "after tapping, {} do not show the solution: {}; check the app's input settings and re-run play",
            plural_cells(differ.len()),
            differ
                .iter()
                .map(|&c| format!(
                    "{c} shows {} instead of {}",
                    show(seen.board.get(c)),
                    show(expected.get(c))
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ))
        .into());
    }
    Ok(report)
}

/// The planned taps drawn over the screenshot: a numbered ring per tap, cells in blue, keys in
/// orange, so a dry run can be checked by eye.
pub fn draw_plan(screen: &image::RgbaImage, plan: &Plan) -> image::RgbaImage {
    use crate::plan::Target;
    use imageproc::drawing::draw_hollow_circle_mut;
    let mut img = screen.clone();
    let r = (img.width() / 60).max(6) as i32;
    for t in &plan.taps {
        let colour = match t.target {
            Target::Cell(_) => image::Rgba([30, 110, 255, 255]),
            Target::Digit(_) | Target::Erase => image::Rgba([255, 120, 0, 255]),
        };
        for k in 0..3 {
            draw_hollow_circle_mut(&mut img, (t.at.x as i32, t.at.y as i32), r - k, colour);
        }
    }
    img
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
}
