//! What replaying a search will cost on this phone, said before the phone is touched: taps (from
//! the plan), what a tap, a `tap_all` call and a check cost (the input method's known
//! figures, or what `measure` timed on the phone), the batching of the replay loop, and the rate
//! limit.

use super::session::{ReplayOptions, moves_per_batch, next_check, paced_time};
use crate::device::{Input, Pacing};
use crate::plan::{Move, count_taps};
use crate::profile::calibration::{Calibration, InputOrder};
use std::time::Duration;

/// The pacing to replay with: the calibration's when the app needs one (it is written only
/// then), else the input method's fastest.
pub fn pacing_for(calibration: &Calibration, input: Input) -> Pacing {
    calibration.pacing.unwrap_or_else(|| input.fastest_pacing())
}

/// What one unit of replay work costs on a phone.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Costs {
    /// One tap, on the phone (the app takes it, the input method's own cost).
    pub per_tap: Duration,
    /// One `tap_all` call on top of its taps: the round trip to the phone and back.
    pub per_call: Duration,
    /// A check: screenshot, transfer and read (the settle before it is the pacing's).
    pub check: Duration,
    /// Timed on this phone (`measure`), rather than the input method's known figures.
    pub measured: bool,
}

impl Costs {
    /// The input method's known figures (notes/android-input.md). They are what phones of its
    /// kind were reported to take; a slow phone or a slow link takes several times longer,
    /// hence `measure`.
    /// `per_tap` is the device's own figure ([`crate::device::Device::tap_cost`]).
    pub fn known(input: Input, per_tap: Duration) -> Costs {
        Costs {
            per_tap,
            per_call: Duration::ZERO,
            check: input.check_cost(),
            measured: false,
        }
    }
}

/// What a replay will take, said before the phone is touched.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    pub moves: usize,
    pub taps: usize,
    pub checks: usize,
    /// `tap_all` calls the replay loop will make.
    pub calls: usize,
    pub per_move: Duration,
    pub total: Duration,
}

/// The `tap_all` calls the replay loop makes for `moves` moves: batches of `batch`, cut at every
/// check.
fn calls(moves: usize, check_every: usize, batch: usize) -> usize {
    check_ends(moves, check_every)
        .scan(0, |done, end| {
            Some((end - std::mem::replace(done, end)).div_ceil(batch))
        })
        .sum()
}

/// The move counts at which the replay loop checks the screen ([`next_check`]).
fn check_ends(moves: usize, check_every: usize) -> impl Iterator<Item = usize> {
    std::iter::successors(
        (moves > 0).then(|| next_check(0, moves, check_every)),
        move |&done| (done < moves).then(|| next_check(done, moves, check_every)),
    )
}

/// Estimates replaying `moves` with `costs`, batched and checked as `options` say, and paced
/// by the input method or by `options.moves_per_second`, whichever is slower.
pub fn estimate(
    moves: &[Move],
    order: InputOrder,
    costs: &Costs,
    options: &ReplayOptions,
) -> Estimate {
    let check_every = options.check_every.max(1);
    let taps = count_taps(moves, order);
    let checks = check_ends(moves.len(), check_every).count();
    let taps_per_move = taps as f64 / moves.len().max(1) as f64;
    // `per_tap` includes the pacing's gap, but the replay leaves it out after a tap on the board
    // (`tap_waits`: only a key's click can be overtaken), and every move has one: its cell's.
    let gap = Duration::from_millis(options.pacing.gap_ms.into());
    // The loop sizes its batches from the time a batch took per move, call included: settle on
    // the size that time gives (a few rounds converge, the size only grows as calls get cheaper).
    let mut batch = 1;
    for _ in 0..4 {
        let per_move = (costs.per_tap.mul_f64(taps_per_move) + costs.per_call / batch as u32)
            .saturating_sub(gap);
        batch = moves_per_batch(options, per_move);
    }
    let calls = calls(moves.len(), check_every, batch);
    let tapping = (costs.per_tap * taps as u32 + costs.per_call * calls as u32)
        .saturating_sub(gap * moves.len() as u32);
    let paced = options
        .moves_per_second
        .filter(|r| *r > 0.0)
        .map_or(Duration::ZERO, |r| paced_time(moves.len(), r));
    let settle = Duration::from_millis(options.check_settle_ms.into());
    let total = tapping.max(paced) + (costs.check + settle) * checks as u32;
    let per_move = if moves.is_empty() {
        Duration::ZERO
    } else {
        total / moves.len() as u32
    };
    Estimate {
        moves: moves.len(),
        taps,
        checks,
        calls,
        per_move,
        total,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::InputKind;
    use crate::sudoku::Cell;

    fn options(check_every: usize) -> ReplayOptions {
        ReplayOptions {
            check_every,
            check_settle_ms: 0,
            ..ReplayOptions::default()
        }
    }

    #[test]
    fn calls_are_batches_cut_at_every_check() {
        // Checks after moves 1, 8, 40, 64, 80, 99 and 100.
        assert_eq!(calls(100, 40, 7), 1 + 1 + 5 + 4 + 3 + 3 + 1);
        assert_eq!(calls(80, 40, 40), 6);
        assert_eq!(calls(0, 40, 7), 0);
        assert_eq!(calls(5, 200, 1), 5);
        assert_eq!(
            check_ends(100, 40).collect::<Vec<_>>(),
            [1, 8, 40, 64, 80, 99, 100]
        );
        assert_eq!(check_ends(1, 40).collect::<Vec<_>>(), [1]);
        assert_eq!(check_ends(2, 40).collect::<Vec<_>>(), [1, 2]);
    }

    #[test]
    fn the_estimate_counts_taps_calls_and_checks_at_the_given_costs() {
        let c = Cell::from_index(0).unwrap();
        let moves = vec![Move::Set { cell: c, digit: 1 }; 100];
        let costs = Costs {
            per_tap: Duration::from_millis(300),
            per_call: Duration::from_millis(20),
            check: Duration::from_secs(1),
            measured: true,
        };
        // 600 ms a move: one move a call (250 ms batches), 100 calls, 7 checks.
        let e = estimate(&moves, InputOrder::CellFirst, &costs, &options(40));
        assert_eq!((e.taps, e.calls, e.checks), (200, 100, 7));
        assert_eq!(e.total, Duration::from_millis(200 * 300 + 100 * 20 + 7000));
        // Cheap taps: the round trip is shared by a batch of moves.
        let quick = Costs {
            per_tap: Duration::from_millis(10),
            ..costs
        };
        let e = estimate(&moves, InputOrder::CellFirst, &quick, &options(40));
        assert!(e.calls < 100 / 5, "{e:?}");
        assert_eq!(
            e.total,
            Duration::from_millis(200 * 10 + 7000) + quick.per_call * e.calls as u32
        );
    }

    #[test]
    fn known_costs_follow_the_input_method_and_the_rate_limit() {
        let c = Cell::from_index(0).unwrap();
        let moves = vec![Move::Set { cell: c, digit: 1 }; 300];
        let evdev = Input::Method(InputKind::Evdev);
        let stream = Input::Method(InputKind::Stream);
        let fast = Costs::known(evdev, evdev.tap_cost(&evdev.fastest_pacing()));
        let paced = ReplayOptions {
            pacing: evdev.fastest_pacing(),
            ..options(200)
        };
        let e = estimate(&moves, InputOrder::CellFirst, &fast, &paced);
        assert_eq!((e.taps, e.checks), (600, 6));
        // A move: two taps of 2 ms and a 10 ms hold, the 21 ms gap after the key only (13.5 s),
        // and six checks of 0.15 s (after moves 1, 8, 64, 200, 299, 300).
        assert!(
            e.total > Duration::from_millis(13_900) && e.total < Duration::from_millis(14_900),
            "{e:?}"
        );
        let gapped = estimate(&moves, InputOrder::CellFirst, &fast, &options(200));
        assert_eq!(gapped.total - e.total, Duration::from_millis(21 * 300));
        let stream_costs = Costs::known(stream, stream.tap_cost(&stream.fastest_pacing()));
        let s = estimate(&moves, InputOrder::CellFirst, &stream_costs, &options(200));
        // The taps alone (both pay the same six checks) take over twice as long.
        let tapping = |x: &Estimate, c: &Costs| x.total - c.check * x.checks as u32;
        assert!(
            tapping(&s, &stream_costs) > tapping(&e, &fast) * 2,
            "{s:?} vs {e:?}"
        );
        let limited = ReplayOptions {
            moves_per_second: Some(1.0),
            ..options(200)
        };
        let slow = estimate(&moves, InputOrder::CellFirst, &fast, &limited);
        assert!(slow.total >= Duration::from_secs(300));
    }
}
