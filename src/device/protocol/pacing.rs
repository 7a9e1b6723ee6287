//! When taps happen: the pacing (hold, gap, settle) every input method encodes as waits on the
//! phone, the frame-timed gaps Android needs between a button's click and a touch on the board,
//! and which waits a run of taps gets ([`tap_waits`]). Shared by the shell encodings (`input`)
//! and the injector's protocol (`injector`), so it depends on neither.

use crate::device::protocol::input_kind::InputKind;
use crate::geometry::{Point, Rect};
use serde::{Deserialize, Serialize};

/// Timings that make apps register every tap, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pacing {
    /// Finger down to finger up. `input tap` has no hold; with `hold_ms > 0` the command
    /// backends send a zero-length `input swipe X Y X Y HOLD` instead.
    pub hold_ms: u32,
    /// Finger up to the next finger down.
    pub gap_ms: u32,
    /// After the last tap of a call, so the app has redrawn before the next screenshot.
    pub settle_ms: u32,
}

/// The wait between a button's UP and a touch on the board: one 60 Hz frame and a redraw.
/// A View's click is not run by the UP itself: `View.onTouchEvent` posts `mPerformClick`, and the
/// press state the touch set has scheduled a traversal whose sync barrier
/// (`ViewRootImpl.scheduleTraversals` -> `postSyncBarrier`) holds that post until the frame at the
/// next vsync is drawn. WAIT_FOR_FINISH returns before then, and the app's looper polls input
/// before running pending messages, so without this wait a touch on a view that acts by itself
/// (a custom board view) could overtake the click of a keypad button tapped before it. 60 Hz is
/// the slowest rate a phone runs while touched; a faster panel may still drop to it (adaptive
/// refresh), so the wait is not shortened from the rate the phone reports.
pub const FRAME_GAP_MS: u32 = 21;

/// The injector's gap (see [`FRAME_GAP_MS`]).
pub const INJECT_GAP_MS: u32 = FRAME_GAP_MS;

/// The injector's settle before a checking screenshot: the last key's click runs after the next
/// frame ([`FRAME_GAP_MS`]), the screen it changed is drawn at the frame after that, and
/// SurfaceFlinger composes that buffer at the third: three 60 Hz frames and two redraws.
pub const INJECT_SETTLE_MS: u32 = 60;

/// The wait after each of `taps`: the pacing's settle after the last; after the others its gap,
/// except where no click can be overtaken. Clicks run in the order of their taps, so only a touch
/// on a view that acts on it at once (the board: a custom view, `SudokuBoardView.onTouchEvent`
/// in OpenSudoku) can overtake a button's click, which runs after the next frame: the gap is
/// kept after a tap off `board` when the next tap is on it, and elsewhere shrinks to `least_ms`
/// (the method's own floor). Without a board every tap keeps the gap.
pub fn tap_waits(taps: &[Point], pacing: &Pacing, board: Option<Rect>, least_ms: u32) -> Vec<u32> {
    (0..taps.len())
        .map(|i| match taps.get(i + 1) {
            None => pacing.settle_ms,
            Some(&next) => match board {
                Some(b) if b.contains(taps[i]) || !b.contains(next) => pacing.gap_ms.min(least_ms),
                _ => pacing.gap_ms,
            },
        })
        .collect()
}

impl Pacing {
    /// No hold, gap or settle: for devices without real timing.
    pub const NONE: Pacing = Pacing {
        hold_ms: 0,
        gap_ms: 0,
        settle_ms: 0,
    };

    /// Sensible defaults per method: `input tap` already waits until the app handled each event,
    /// raw events need a real hold (a DOWN and UP in one instant is missed by frame-polling apps).
    /// The injector waits [`INJECT_GAP_MS`] after each tap: its WAIT_FOR_FINISH returns when the
    /// app has handled the UP, but the click that UP posted runs only after the next frame.
    pub fn default_for(kind: InputKind) -> Pacing {
        match kind {
            InputKind::Evdev => Pacing {
                hold_ms: 10,
                gap_ms: FRAME_GAP_MS,
                settle_ms: 100,
            },
            InputKind::Inject => Pacing {
                hold_ms: 0,
                gap_ms: INJECT_GAP_MS,
                settle_ms: INJECT_SETTLE_MS,
            },
            _ => Pacing {
                hold_ms: 0,
                gap_ms: 0,
                settle_ms: 100,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_pacings_wait_a_frame_after_a_key_before_the_board_is_touched() {
        for kind in [InputKind::Evdev, InputKind::Inject] {
            let p = Pacing::default_for(kind);
            assert!(p.gap_ms >= FRAME_GAP_MS, "{kind}: {p:?}");
            assert!(kind.least_gap_ms() < p.gap_ms);
        }
        // Three 60 Hz frames: the click, the redraw, SurfaceFlinger's composition.
        assert!(Pacing::default_for(InputKind::Inject).settle_ms >= 3 * 16 + 2 * 4);
    }
}
