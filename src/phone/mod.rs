//! The session over one phone during a run ([`Phone`]): the device, the profile it is read and
//! tapped with, the stop flag Ctrl-C sets, and where its messages go (under `--all` each line
//! carries the phone's serial). It owns what touches the phone: capture, read, waiting out a
//! cover ([`cover`]), the app in front (`front`), cell centres and tapping. `play`, `visualize` are workflows over it;
//! stages say things through [`Phone::say`], never on stderr themselves. Before any of that a
//! command that taps claims the phone ([`claim`]): one agent per phone, and a screen that is on.

pub mod cover;
mod front;
pub use front::under_heads_up;
pub mod resume;
pub mod settle;
pub use settle::SettledBoard;

use crate::device::Device;
use crate::device::lock::PhoneLock;
use crate::device::screen::{is_black, wake_screen};
use crate::geometry::Point;
use crate::profile::Profile;
use crate::sudoku::Cell;
use anyhow::{Context, Result, bail};
use image::RgbaImage;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use sudoku_reader::Seen;

/// Where a phone's messages go: one line at a time, without its newline.
pub type Say<'a> = dyn Fn(&str) + Sync + 'a;

/// One phone during a run, and what it is read and tapped with.
pub struct Phone<'a> {
    pub device: &'a mut dyn Device,
    pub profile: &'a Profile,
    stop: &'a AtomicBool,
    say: &'a Say<'a>,
    /// How far its screenshots trail the input, as learned from the first taps.
    lag: settle::FrameLag,
    /// The game's app, once noted ([`Phone::note_game_in_front`]).
    front: Option<front::Front>,
}

/// A screenshot and when it was taken, with how long taking it took.
pub struct Capture {
    pub screen: RgbaImage,
    pub taken: Instant,
    pub took: Duration,
}

impl<'a> Phone<'a> {
    pub fn new(
        device: &'a mut dyn Device,
        profile: &'a Profile,
        stop: &'a AtomicBool,
        say: &'a Say<'a>,
    ) -> Phone<'a> {
        Phone {
            device,
            profile,
            stop,
            say,
            lag: settle::FrameLag::default(),
            front: None,
        }
    }

    /// Tells the user `line` (prefixed with the serial under `--all`).
    pub fn say(&self, line: &str) {
        (self.say)(line);
    }

    /// The user asked to stop (Ctrl-C): a workflow stops before its next move.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// The stop flag, for loops that wait on it.
    pub fn stop_flag(&self) -> &AtomicBool {
        self.stop
    }

    /// A screenshot of the whole screen, timed.
    pub fn capture(&mut self) -> Result<Capture> {
        let started = Instant::now();
        let screen = self
            .device
            .screenshot()
            .context("cannot take a screenshot")?;
        Ok(Capture {
            screen,
            taken: Instant::now(),
            took: started.elapsed(),
        })
    }

    /// Reads `screen` with the profile.
    pub fn read(&self, screen: &RgbaImage) -> Seen {
        self.profile.read(screen)
    }

    /// The centre of `cell` on the profile's grid.
    pub fn cell_centre(&self, cell: Cell) -> Point {
        self.profile.calibration.cell_centre(cell)
    }

    /// Most of a cell's side, to compare frames in.
    pub fn cell_side(&self) -> u32 {
        self.profile.calibration.cell_side()
    }

    /// Sends `points` as taps, in one call.
    pub fn tap_all(&mut self, points: &[Point]) -> Result<()> {
        self.device.tap_all(points)
    }
}

/// A phone claimed by this process for one command; the lock goes when it is dropped.
#[derive(Debug)]
pub struct Claim {
    /// `None` for devices no other process can reach (a file, the in-process simulated phone).
    _lock: Option<PhoneLock>,
}

/// Claims `device` for `command` (`play`, `visualize`, `calibrate`) before anything else looks at
/// it or taps: the per-phone lock first, so a second agent exits at once naming the holder's pid
/// (two agents learning one phone at once taught each other the wrong input order); then a dark
/// screen is woken (`say`: "the screen was off: woke it") and a lock screen refused in one line.
/// Hold the returned claim for the whole run.
pub fn claim(device: &mut dyn Device, command: &str, say: &dyn Fn(&str)) -> Result<Claim> {
    let lock = match device.serial() {
        Some(serial) => Some(PhoneLock::acquire(&serial, command)?),
        None => None,
    };
    wake_screen(device, say)?;
    Ok(Claim { _lock: lock })
}

/// A screenshot black all over is a dark screen, never a screen without a grid: an error saying
/// so in one line (exit 2), naming the phone when it has a serial.
pub fn refuse_dark(device: &dyn Device, screen: &RgbaImage) -> Result<()> {
    if is_black(screen) {
        let phone = device.serial().map_or_else(
            || "the phone".to_string(),
            |s| format!("phone {}", crate::error::one_line(&s)),
        );
        bail!(
            "the screen of {phone} is dark (the screenshot is black all over): turn the screen on and open the game, then run again; nothing was tapped"
        );
    }
    Ok(())
}

/// Installs the process's one Ctrl-C handler: it sets the returned flag, which every phone of
/// the run shares, and each workflow stops between moves (never with a move half entered).
pub fn stop_on_ctrl_c() -> Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst))
        .context("cannot install the Ctrl-C handler")?;
    Ok(stop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::screen::Scripted;
    use image::Rgba;

    #[test]
    fn a_black_screenshot_is_a_dark_screen_in_one_line_and_a_lit_one_passes() {
        let black = RgbaImage::from_pixel(720, 1280, Rgba([0, 0, 0, 255]));
        let err = refuse_dark(&Scripted::on(), &black)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("the screen of phone R5CW30 is dark") && !err.contains("grid"),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1);
        let lit = RgbaImage::from_pixel(720, 1280, Rgba([250, 250, 250, 255]));
        assert!(refuse_dark(&Scripted::on(), &lit).is_ok());
    }
}
