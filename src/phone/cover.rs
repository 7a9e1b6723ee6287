//! Something over the board (an ad, a dialog, a toast that stays): waiting for it to go, and
//! telling a screen that went dark from a cover ([`Phone::wake_if_dark`]). The
//! agent never taps a cover, since a tap there could buy something or leave the game; the user
//! closes it, and the run goes on from the board as it is then. Also telling a board dimmed by
//! a scrim, which swallows taps though the digits under it may still read.

use super::Phone;
use crate::device::ScreenState;
use crate::device::screen::wake_screen;
use crate::error::BoardProblem;
use anyhow::{Result, bail};
use std::time::{Duration, Instant};
use sudoku_reader::Recognition;
use sudoku_reader::stages::Boundaries;

/// How often a covered screen is looked at again.
const POLL: Duration = Duration::from_millis(500);

impl Phone<'_> {
    /// A check found no board: when that is because the screen went dark mid-play (a screen
    /// timeout), wakes it and says so ("the screen was off: woke it"), so a dark screen is never
    /// read as a cover or as no grid. True when it woke it.
    pub fn wake_if_dark(&mut self) -> Result<bool> {
        if self.device.screen_state()? != ScreenState::Off {
            return Ok(false);
        }
        let say = self.say;
        wake_screen(&mut *self.device, &|line| say(line))?;
        Ok(true)
    }

    /// Waits (up to `wait`) for the board to be readable again, polling the screen; never taps.
    /// `rerun` names the command to run again when it does not come back (`play`, `calibrate`);
    /// `longer` the flag that waits longer, where the command has one. Ctrl-C (the stop flag)
    /// ends the wait.
    pub fn wait_for_board(
        &mut self,
        wait: Duration,
        rerun: &str,
        longer: Option<&str>,
    ) -> Result<Recognition> {
        self.say(&format!(
            "waiting up to {:.0} s for the board to come back: close the ad or dialog on the phone (the agent never taps it)",
            wait.as_secs_f64()
        ));
        let rec = self.wait_for(
            wait,
            rerun,
            |phone| {
                let shot = phone.capture()?.screen;
                Ok(phone.read(&shot).result.ok())
            },
            || {
                BoardProblem(format!(
                    "the board did not come back within {:.0} s (an ad or a dialog still covers it?); close it and re-run {rerun}{}",
                    wait.as_secs_f64(),
                    longer.map_or(String::new(), |flag| format!(", or pass {flag} to wait longer"))
                ))
                .into()
            },
        )?;
        self.say("the board is back; continuing from it as it is now");
        Ok(rec)
    }

    /// Asks `ready` every [`POLL`] until it gives a value, up to `wait` (then the error
    /// `timed_out` makes). Ctrl-C (the stop flag) ends the wait; `rerun` names the command to
    /// run again then.
    pub fn wait_for<T>(
        &mut self,
        wait: Duration,
        rerun: &str,
        mut ready: impl FnMut(&mut Self) -> Result<Option<T>>,
        timed_out: impl FnOnce() -> anyhow::Error,
    ) -> Result<T> {
        let until = Instant::now() + wait;
        loop {
            if self.stopped() {
                bail!(
                    "stopped by the user while waiting for the game; re-run {rerun} to finish it"
                );
            }
            if let Some(value) = ready(self)? {
                return Ok(value);
            }
            if Instant::now() >= until {
                return Err(timed_out());
            }
            std::thread::sleep(POLL);
        }
    }
}

/// The board looks dimmed as a whole on a frame whose cell boundaries are `shot` against
/// `reference`, those of a frame of it seen clear: along them within `rows` the brightness fell
/// by a fifth or more (see [`Boundaries::ratio`]). A dialog's or an overlay's scrim does this
/// (Android dims by 32-60%) while the digits under it may still read, on a dark theme above
/// all; a tap sent then is swallowed. Between frames of the same board the ratio stayed within
/// 0.94-1.07 on every simulated skin; a scrim gave 0.50-0.67. Only dimming counts: a frame
/// brighter than the reference is a reference caught under a scrim, and replaces it.
/// Returns the ratio when dimmed.
pub fn dimmed(
    reference: &Boundaries,
    shot: &Boundaries,
    rows: std::ops::Range<u32>,
) -> Option<f32> {
    let ratio = reference.ratio(shot, rows)?;
    (ratio < 0.8).then_some(ratio)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Rect;
    use image::{Rgba, RgbaImage};

    fn screen(ground: u8, line: u8) -> RgbaImage {
        RgbaImage::from_fn(90, 90, |x, y| {
            let v = if x.is_multiple_of(10) || y.is_multiple_of(10) {
                line
            } else {
                ground
            };
            Rgba([v, v, v, 255])
        })
    }

    #[test]
    fn a_dark_board_under_androids_dimming_is_dimmed_and_a_brighter_frame_is_not() {
        let grid = Rect::new(0, 0, 90, 90);
        let clear = Boundaries::of(&screen(30, 80), grid);
        let scrimmed = Boundaries::of(&screen(18, 48), grid);
        assert!(dimmed(&clear, &scrimmed, 0..90).is_some());
        assert_eq!(dimmed(&clear, &clear, 0..90), None);
        assert_eq!(dimmed(&scrimmed, &clear, 0..90), None);
    }
}
