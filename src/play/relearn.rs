//! Re-learning the input order from the first move of a run (`play` and `visualize`): when it
//! did not land, the same move in the other order on the same cell, decided on a settled
//! screen.

use super::{board_as_seen, show};
use crate::error::BoardProblem;
use crate::geometry::Point;
use crate::phone::Phone;
use crate::plan::{self, Move};
use crate::profile::calibration::{Calibration, InputOrder};
use crate::sudoku::Board;
use anyhow::{Context, Result};
use std::time::{Duration, Instant};
use sudoku_reader::Recognition;

/// What re-learning found: the calibration with the order that worked, and the board after it.
pub struct Relearned {
    pub cal: Calibration,
    pub board: Recognition,
    /// Taps the retry sent.
    pub taps: usize,
}

/// The first move did not land: enter it again in the other input order. When the digit lands,
/// that order is the app's; otherwise stop naming the likely cause. `cal` is the phone's
/// calibration with the input order the run used so far.
pub fn relearn_order(
    phone: &mut Phone,
    cal: &Calibration,
    (base, first): (&Board, Move),
    seen: &Board,
    min_wait: Duration,
) -> Result<Relearned> {
    let cell = first.cell();
    let want = first.digit();
    let after_first = seen.get(cell);
    let mut cal = cal.clone();
    cal.input_order = match cal.input_order {
        InputOrder::CellFirst => InputOrder::NumberFirst,
        InputOrder::NumberFirst => InputOrder::CellFirst,
    };
    let mut retry = Vec::new();
    if after_first.is_some() {
        retry.push(Move::Erase { cell });
    }
    if let Some(digit) = want {
        retry.push(Move::Set { cell, digit });
    }
    let plan = plan::plan(&retry, &plan::layout(&cal)?)?;
    let points: Vec<Point> = plan.taps.iter().map(|t| t.at).collect();
    phone
        .tap_all(&points)
        .context("the device stopped taking taps while re-learning the input order")?;
    let mut expected = *seen;
    expected.set(cell, want);
    // The digit may fade in: decide on a settled screen (or one that shows it landed).
    let (sent, centre, profile) = (Instant::now(), phone.cell_centre(cell), phone.profile);
    let mut last = None;
    phone.settle(sent, min_wait, &[centre], |shot| {
        let read = profile.read(shot).result;
        let again = board_as_seen(read.clone(), &expected, &[cell]);
        let landed = matches!(&again, Ok(b) if b.get(cell) == want);
        last = Some((again, read));
        landed
    })?;
    let (again, read) = last.expect("a settle looks at least once");
    let again_board = again.map_err(|e| {
        BoardProblem(format!(
            "the first move did not land, and after trying the other input order the board cannot be read ({e}); check the phone and re-run play"
        ))
    })?;
    let now = again_board.get(cell);
    if now == want {
        // The frame that showed the digit land was read above: its read is the board now.
        let board = read.map_err(|e| BoardProblem(format!("cannot read the board: {e}")))?;
        return Ok(Relearned {
            cal,
            board,
            taps: points.len(),
        });
    }
    let left = match now {
        Some(d) if base.get(cell) != Some(d) => format!("; {cell} now shows {d}"),
        _ => String::new(),
    };
    let cause = match (after_first, now, want) {
        (Some(a), Some(b), Some(d)) if a == b => format!(
            "the key calibrated for {d} entered {a} in both input orders: the keypad has changed; re-run `sudoku-agent calibrate`"
        ),
        (None, None, _) => "nothing landed in either input order: notes mode may be on (turn it off in the app), the app may be refusing digits (mistake limit reached or game over), or the keypad moved (re-run `sudoku-agent calibrate`)".to_string(),
        _ => "the digit landed wrong in both input orders: the keypad or the app's input settings changed; re-run `sudoku-agent calibrate`".to_string(),
    };
    Err(BoardProblem(format!(
        "the first move ({} in {cell}) did not land as planned; stopped after it{left}. Likely cause: {cause}",
        show(want)
    ))
    .into())
}
