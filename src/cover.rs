//! Something over the board (an ad, a dialog, a toast that stays): waiting for it to go. The
//! agent never taps a cover, since a tap there could buy something or leave the game; the user
//! closes it, and the run goes on from the board as it is then.

use crate::device::Device;
use crate::error::BoardProblem;
use crate::profile::calibration::Calibration;
use crate::vision;
use crate::vision::{Recognition, Templates};
use anyhow::{Context, Result, bail};
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often a covered screen is looked at again.
const POLL: Duration = Duration::from_millis(500);

/// Waits (up to `wait`) for the board to be readable again, polling the screen; never taps.
/// `rerun` names the command to run again when it does not come back (`play`, `calibrate`).
/// A set `stop` flag (Ctrl-C) ends the wait.
pub fn wait_for_board(
    device: &mut dyn Device,
    cal: &Calibration,
    templates: &Templates,
    wait: Duration,
    stop: Option<&AtomicBool>,
    rerun: &str,
) -> Result<Recognition> {
    let _ = writeln!(
        std::io::stderr(),
        "waiting up to {:.0} s for the board to come back: close the ad or dialog on the phone (the agent never taps it)",
        wait.as_secs_f64()
    );
    let until = Instant::now() + wait;
    loop {
        if stop.is_some_and(|s| s.load(Ordering::SeqCst)) {
            bail!("stopped by the user while waiting for the board; re-run {rerun} to finish it");
        }
        let shot = device.screenshot().context("cannot take a screenshot")?;
        if let Ok(rec) = vision::read(&shot, Some(&cal.hints(templates))).result {
            let _ = writeln!(
                std::io::stderr(),
                "the board is back; continuing from it as it is now"
            );
            return Ok(rec);
        }
        if Instant::now() >= until {
            return Err(BoardProblem(format!(
                "the board did not come back within {:.0} s (an ad or a dialog still covers it?); close it and re-run {rerun}, or pass --wait SECONDS",
                wait.as_secs_f64()
            ))
            .into());
        }
        std::thread::sleep(POLL);
    }
}
