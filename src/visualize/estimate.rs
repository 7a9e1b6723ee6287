//! What replaying a search will cost on this phone, said before the phone is touched: taps (from
//! the plan), the input method's cost per tap and per checkpoint, and the rate limit.

use crate::calibration::{Calibration, InputOrder};
use crate::device::{Input, Pacing};
use crate::plan::{Move, count_taps};
use std::time::Duration;

/// The pacing to replay with: the calibration's when the app needs one (it is written only
/// then), else the input method's fastest.
pub fn pacing_for(calibration: &Calibration, input: Input) -> Pacing {
    calibration.pacing.unwrap_or_else(|| input.fastest_pacing())
}

/// What a replay will take, said before the phone is touched.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    pub moves: usize,
    pub taps: usize,
    pub checkpoints: usize,
    pub per_move: Duration,
    pub total: Duration,
}

/// How long `moves` take at `rate` moves per second; saturates instead of panicking when the
/// rate is so low that the time does not fit a `Duration`.
pub fn paced_time(moves: usize, rate: f64) -> Duration {
    Duration::try_from_secs_f64(moves as f64 / rate).unwrap_or(Duration::MAX)
}

/// Estimates replaying `moves` with checkpoints every `check_every` moves, paced by the input
/// method or by `moves_per_second`, whichever is slower.
pub fn estimate(
    moves: &[Move],
    order: InputOrder,
    input: Input,
    pacing: &Pacing,
    check_every: usize,
    moves_per_second: Option<f64>,
) -> Estimate {
    let taps = count_taps(moves, order);
    let checkpoints = moves.len().div_ceil(check_every.max(1));
    let tapping = input.tap_cost(pacing).mul_f64(taps as f64);
    let paced = moves_per_second
        .filter(|r| *r > 0.0)
        .map_or(Duration::ZERO, |r| paced_time(moves.len(), r));
    let total = tapping.max(paced) + input.checkpoint_cost() * checkpoints as u32;
    let per_move = if moves.is_empty() {
        Duration::ZERO
    } else {
        total / moves.len() as u32
    };
    Estimate {
        moves: moves.len(),
        taps,
        checkpoints,
        per_move,
        total,
    }
}
