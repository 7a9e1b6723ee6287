//! The session over one phone during a run ([`Phone`]): the device, the profile it is read and
//! tapped with, the stop flag Ctrl-C sets, and where its messages go (under `--all` each line
//! carries the phone's serial). It owns what touches the phone: capture, read, waiting out a
//! cover ([`cover`]), cell centres and tapping. `play`, `visualize` are workflows over it;
//! stages say things through [`Phone::say`], never on stderr themselves.

pub mod cover;

use crate::device::Device;
use crate::geometry::Point;
use crate::profile::Profile;
use crate::sudoku::Cell;
use anyhow::{Context, Result};
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

/// Installs the process's one Ctrl-C handler: it sets the returned flag, which every phone of
/// the run shares, and each workflow stops between moves (never with a move half entered).
pub fn stop_on_ctrl_c() -> Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst))
        .context("cannot install the Ctrl-C handler")?;
    Ok(stop)
}
