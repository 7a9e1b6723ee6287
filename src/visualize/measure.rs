//! Timing the phone before the prompt of `visualize`, so the figure the user agrees to is this
//! phone's: the input method's known costs (`Costs::known`) were off six times on a slow phone,
//! where `input` takes a second instead of 0.3 s, the display runs at 30 Hz, or the link and
//! the host's reading are slow.
//!
//! What is timed, and why it is harmless: taps on given cells, then one screenshot and read.
//! A given can never be changed by a tap (in a cell-first app it is only selected, in a
//! number-first app the digit in hand cannot go into it), so the board stays exactly as the
//! user left it before agreeing to anything; the read at the end checks that it did, and is
//! itself the timed check. Timing only a screenshot and an empty round trip would miss what
//! dominates on slow phones (the cost of each tap on the phone: a JVM per `input tap`, the
//! frame rate for injected taps); timing the replay's own first moves would change the board
//! before the user said yes. The first replay batch is then sized from these figures, and later
//! ones from the batches themselves.

use super::estimate::Costs;
use super::session::{ReplayOptions, moves_per_batch};
use crate::device::Pacing;
use crate::error::BoardProblem;
use crate::geometry::Point;
use crate::phone::Phone;
use crate::sudoku::Cell;
use anyhow::{Context, Result, bail};
use std::time::{Duration, Instant};
use sudoku_reader::{CellKind, Recognition};

/// What `measure` timed, for the line that says so.
#[derive(Debug, Clone, PartialEq)]
pub struct Measurement {
    pub costs: Costs,
    /// Taps sent (all on given cells).
    pub taps: usize,
}

/// The cost per tap and per call from two timed calls of `short` and `long` taps: the
/// difference is taps only; what the short call took beyond its taps is the round trip.
pub fn split_costs(short: (usize, Duration), long: (usize, Duration)) -> (Duration, Duration) {
    let (a, ta) = short;
    let (b, tb) = long;
    if b > a && tb > ta {
        let per_tap = (tb - ta) / (b - a) as u32;
        (per_tap, ta.saturating_sub(per_tap * a as u32))
    } else {
        // Noise swallowed the difference: charge the longer call to its taps alone.
        (tb / b.max(1) as u32, Duration::ZERO)
    }
}

/// Times taps on the given cells of `seen` (the screen as just read) and one check, with
/// the replay's pacing and batch size; fails when the board is not as it was afterwards.
/// `None` when the board has too few givens to tap (there are 17 or more on a real puzzle).
pub fn measure(
    phone: &mut Phone,
    seen: &Recognition,
    options: &ReplayOptions,
) -> Result<Option<Measurement>> {
    let givens: Vec<Point> = Cell::all()
        .zip(&seen.readings)
        .filter(|(_, r)| r.kind == CellKind::Given)
        .map(|(c, _)| phone.cell_centre(c))
        .collect();
    if givens.len() < 4 {
        return Ok(None);
    }
    // As many taps as one replay batch at the input method's known cost (two taps a move),
    // each given tapped once: a warm-up (starts whatever the first call starts), one alone,
    // then the batch.
    let known = phone.device.tap_cost(&options.pacing);
    let batch_taps = (2 * moves_per_batch(options, known * 2)).clamp(2, givens.len() - 2);
    // As between replay batches: the pacing's gap (the injector's wait for the app's click)
    // follows each call's last tap, so the next call's first touch cannot overtake that click.
    // No board: the gap follows every tap here, so the time per tap includes it, as the
    // estimate expects (it takes the gap back for each move's cell tap).
    phone.device.set_board(None);
    phone.device.set_pacing(Pacing {
        settle_ms: options.pacing.gap_ms,
        ..options.pacing
    });
    let mut timed = |points: &[Point]| -> Result<Duration> {
        let t = Instant::now();
        phone
            .tap_all(points)
            .context("the phone stopped taking taps while timing it (on given cells)")?;
        Ok(t.elapsed())
    };
    timed(&givens[..1])?;
    let one = timed(&givens[1..2])?;
    let batch = timed(&givens[2..2 + batch_taps])?;
    let (per_tap, per_call) = split_costs((1, one), (batch_taps, batch));

    let settle = Duration::from_millis(options.check_settle_ms.into());
    std::thread::sleep(settle);
    let t = Instant::now();
    let screen = phone
        .device
        .screenshot()
        .context("cannot take a screenshot after timing the phone")?;
    let after = phone.read(&screen).result.map_err(|e| {
        BoardProblem(format!(
            "cannot read the board after timing taps on given cells ({e}); nothing else was tapped"
        ))
    })?;
    let check = t.elapsed();
    let changed = seen.board.diff(&after.board);
    if !changed.is_empty() {
        let cells: Vec<String> = changed.iter().map(|c| c.to_string()).collect();
        bail!(BoardProblem(format!(
            "the board changed while timing taps on given cells ({}): this app edits givens or \
             the screen moved; nothing else was tapped",
            cells.join(", ")
        )));
    }
    Ok(Some(Measurement {
        costs: Costs {
            per_tap,
            per_call,
            check,
            measured: true,
        },
        taps: 2 + batch_taps,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn two_timed_calls_split_into_a_cost_per_tap_and_a_round_trip() {
        // 20 ms a call, 30 ms a tap.
        assert_eq!(
            split_costs((1, 50 * MS), (14, 440 * MS)),
            (30 * MS, 20 * MS)
        );
        // A hiccup on the single tap: the difference says nothing, all goes to the taps.
        assert_eq!(
            split_costs((1, 500 * MS), (14, 420 * MS)),
            (30 * MS, Duration::ZERO)
        );
    }
}
