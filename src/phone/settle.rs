//! A board at rest before any decision is made on it. Apps animate: givens cascade in when a
//! level starts, digits fade or pop in after a tap, and a slow phone's screenshots trail the
//! input by a few hundred ms. The first read of a run waits here until two reads agree and
//! the board holds its givens ([`first_board`]), within a bound, and says so in one line when
//! it never does. After a tap, the session learns the phone's frame lag from the first moves
//! ([`Phone::learn_lag`], [`Phone::note_lag`]) and settles past it ([`Phone::settle`]): a frame
//! taken within the lag shows the screen before the tap, and two such frames agree.

use super::{Capture, Phone};
use crate::device::Device;
use crate::geometry::Point;
use crate::sudoku::Board;
use anyhow::{Context, Result, bail};
use image::RgbaImage;
use std::ops::Range;
use std::time::{Duration, Instant};
use sudoku_reader::stages::MIN_CLUES;
use sudoku_reader::stages::settling::{STEP, Settling, still_around};
use sudoku_reader::{ReadError, Recognition};

/// The longest frame lag believed: slower than this, the phone is not keeping up at all.
const MAX_LAG: Duration = Duration::from_secs(2);

/// How many observations of the lag are taken; the worst of them is kept.
const LAG_SAMPLES: u8 = 3;

/// The lag a settle waits out before any was seen: slow phones trail the input by 250-400 ms,
/// and a settle that ends within the lag takes the screen before the taps for the answer (in a
/// number-first app the re-tap that follows erases the digit). Only checks that did not see
/// their taps at once pay it, and only until the first one has shown the real lag.
const UNSEEN_LAG: Duration = Duration::from_millis(500);

/// The phone's frame lag as learned from the first moves: the worst time from a tap to its
/// change on a screenshot among the first few seen (a lag overestimated only makes a check
/// wait longer; underestimated, a check could take a frame from before the tap as settled).
#[derive(Debug, Clone, Copy, Default)]
pub struct FrameLag {
    worst: Duration,
    samples: u8,
}

impl Phone<'_> {
    /// The lag a settle waits out: the one learned, or [`UNSEEN_LAG`] before any was seen.
    pub fn lag_to_wait_out(&self) -> Duration {
        match self.lag.samples {
            0 => self.lag.worst.max(UNSEEN_LAG),
            _ => self.lag.worst,
        }
    }

    /// The taps sent at `sent` first showed on a screenshot whose capture began at `shown`.
    pub fn note_lag(&mut self, sent: Instant, shown: Instant) {
        if self.lag.samples >= LAG_SAMPLES {
            return;
        }
        let lag = shown.saturating_duration_since(sent).min(MAX_LAG);
        self.lag.samples += 1;
        if lag > self.lag.worst {
            log::info!(
                "frame lag: a tap showed on screen after {} ms",
                lag.as_millis()
            );
            self.lag.worst = lag;
        }
    }

    /// While the lag is being learned: `shot`, taken at `taken` after taps sent at `sent`,
    /// differs around `around` (the cells they change) from `before`, the first frame looked
    /// at after them, which on a lagging phone still shows the screen before the taps: the
    /// time to it is a sample of the lag ([`Phone::note_lag`]). True once noted.
    pub fn lag_shown(
        &mut self,
        sent: Instant,
        (before, shot): (&RgbaImage, &RgbaImage),
        taken: Instant,
        around: &[Point],
    ) -> bool {
        let side = self.cell_side();
        let changed = around.iter().any(|&p| !still_around(before, shot, p, side));
        if changed {
            self.note_lag(sent, taken);
        }
        changed
    }

    /// Right after taps sent at `sent` that change the screen around `around` (a tapped cell,
    /// a key), screenshots until one differs there from `before`, a frame of the screen before
    /// the taps, within [`MAX_LAG`]: the time to it is the frame lag ([`Phone::note_lag`]).
    /// Returns the last screenshot.
    pub fn learn_lag(
        &mut self,
        before: &RgbaImage,
        around: &[Point],
        sent: Instant,
    ) -> Result<Capture> {
        let side = self.cell_side();
        loop {
            let shot = self.capture()?;
            let began = shot.taken - shot.took;
            let changed = around
                .iter()
                .any(|&p| !still_around(before, &shot.screen, p, side));
            if changed {
                self.note_lag(sent, began);
            }
            if changed || shot.taken.duration_since(sent) >= MAX_LAG {
                return Ok(shot);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Settle: screenshots until the screen around `around` has stopped changing, at least
    /// `min_wait` after the taps sent at `since` and past the frame lag, or until the limit
    /// ([`Settling::with_lag`]); `done` on a frame ends it early (it shows what was wanted).
    /// Returns the last screenshot.
    pub fn settle(
        &mut self,
        since: Instant,
        min_wait: Duration,
        around: &[Point],
        mut done: impl FnMut(&RgbaImage) -> bool,
    ) -> Result<RgbaImage> {
        let mut frames = Settling::with_lag(since, min_wait, self.lag_to_wait_out());
        let side = self.cell_side();
        loop {
            let shot = self.capture()?;
            let finished = done(&shot.screen);
            frames.add_at(shot.taken, shot.screen);
            if finished || !frames.waiting(around, side) {
                return Ok(frames.into_latest().expect("a frame was added above"));
            }
            std::thread::sleep(STEP);
        }
    }
}

/// What [`Phone::settle_board`] saw last.
#[derive(Debug)]
pub enum SettledBoard {
    /// The board expected.
    Shows(Board),
    /// A board whose cells in question stopped changing without showing what was expected.
    Differs(Board),
    /// No board (a cover, another screen): the read's reason.
    Unreadable(ReadError),
}

impl Phone<'_> {
    /// After taps sent at `since`: reads the screen's `rows` until the board shows `expected`,
    /// or the cells where it differs have stopped changing, at least `min_wait` after the taps
    /// and past the frame lag learned ([`Settling`]); apps fade or pop digits in, and a frame
    /// caught halfway must not fail a check. A screen that does not read ends it at once.
    pub fn settle_board(
        &mut self,
        rows: Range<u32>,
        since: Instant,
        min_wait: Duration,
        expected: &Board,
    ) -> Result<SettledBoard> {
        let mut frames = Settling::with_lag(since, min_wait, self.lag.worst);
        let side = self.cell_side();
        loop {
            let screen = self.device.screenshot_rows(rows.clone())?;
            let seen = match self.read(&screen).result {
                Ok(seen) => seen.board,
                Err(why) => return Ok(SettledBoard::Unreadable(why)),
            };
            frames.add(screen);
            let around: Vec<Point> = expected
                .diff(&seen)
                .into_iter()
                .map(|c| self.cell_centre(c))
                .collect();
            if around.is_empty() {
                return Ok(SettledBoard::Shows(seen));
            }
            if !frames.waiting(&around, side) {
                return Ok(SettledBoard::Differs(seen));
            }
            std::thread::sleep(STEP);
        }
    }
}

/// How long the first read waits for the board to come to rest (a level-start cascade runs
/// 1.5-3 s on the apps measured).
pub const FIRST_READ_WAIT: Duration = Duration::from_secs(4);

/// How far apart two reads of a board at rest must be to agree: a cascade that shows a given
/// every 80-140 ms (36 givens over 3-5 s) changes the board between any two reads this far
/// apart, while two reads a settle's 100 ms apart can fall between two givens.
const REST_SPAN: Duration = Duration::from_millis(400);

/// A screenshot of the board at rest: taken again until two reads at least [`REST_SPAN`] apart
/// find the same board holding at least [`MIN_CLUES`] digits, with the grid's pixels alike
/// between them (a given fading in reads the same twice before it is done). A screen without a
/// board is returned as soon as two frames agree, or at the bound, for the caller's own error
/// (no grid); a board still changing after [`FIRST_READ_WAIT`] is an error saying so.
pub fn first_board(device: &mut dyn Device) -> Result<RgbaImage> {
    let started = Instant::now();
    let mut last: Option<(Instant, RgbaImage, Option<Recognition>)> = None;
    loop {
        let shot = device.screenshot().context("cannot take a screenshot")?;
        let taken = Instant::now();
        let read = sudoku_reader::read(&shot, None).result.ok();
        if let Some((at, before, seen)) = &last
            && taken.duration_since(*at) >= REST_SPAN
        {
            match (seen, &read) {
                (Some(a), Some(b)) if a.board == b.board && a.grid == b.grid => {
                    let r = a.grid.rect();
                    let side = r.width.max(r.height);
                    let centre = r.center();
                    let still = still_around(before, &shot, centre, side);
                    if still && b.board.filled_count() >= MIN_CLUES {
                        return Ok(shot);
                    }
                }
                // No board on two frames alike: the screen is at rest without one.
                (None, None) if frames_alike(before, &shot) => return Ok(shot),
                _ => {}
            }
        }
        if started.elapsed() >= FIRST_READ_WAIT {
            if read.is_none() {
                return Ok(shot);
            }
            bail!(
                "the board did not come to rest within {:.0} s (the digits kept changing); wait for the level to start, then re-run",
                FIRST_READ_WAIT.as_secs_f64()
            );
        }
        // The frame kept to compare with stays until one REST_SPAN later was compared with it.
        if !matches!(&last, Some((at, ..)) if taken.duration_since(*at) < REST_SPAN) {
            last = Some((taken, shot, read));
        }
        // Nothing is compared before REST_SPAN after the kept frame: no screenshot (and no
        // read) is taken before then.
        let due = last.as_ref().map_or(taken, |(at, ..)| *at + REST_SPAN);
        std::thread::sleep(due.saturating_duration_since(Instant::now()).max(STEP));
    }
}

/// Two screenshots alike all over.
fn frames_alike(a: &RgbaImage, b: &RgbaImage) -> bool {
    a.dimensions() == b.dimensions() && a.as_raw() == b.as_raw()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Size;
    use image::Rgba;

    /// A screen with no board that stays as it is.
    struct Still;

    impl Device for Still {
        fn screenshot(&mut self) -> Result<RgbaImage> {
            Ok(RgbaImage::from_pixel(90, 160, Rgba([200, 200, 200, 255])))
        }
        fn screen_size(&mut self) -> Result<Size> {
            Ok(Size::new(90, 160))
        }
        fn tap_all(&mut self, _taps: &[Point]) -> Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_screen_at_rest_without_a_board_is_returned_at_once_for_the_callers_error() {
        let started = Instant::now();
        assert!(first_board(&mut Still).is_ok());
        assert!(started.elapsed() < Duration::from_secs(1));
    }

    #[cfg(feature = "sim")]
    #[test]
    fn a_board_still_cascading_in_after_the_bound_is_one_line() {
        let mut phone = sudoku_sim::SudokuApp::new(
            sudoku_sim::puzzles::parse(sudoku_sim::puzzles::named("easy").unwrap()).unwrap(),
            sudoku_sim::Skin::named("light").unwrap(),
            sudoku_sim::Size::new(720, 1280),
        )
        .unwrap();
        let habits: sudoku_sim::faults::Faults = "intro=5000".parse().unwrap();
        habits.apply(&mut phone).unwrap();
        let mut device = crate::device::sim::SimDevice::new(phone);
        let err = first_board(&mut device).unwrap_err().to_string();
        assert!(
            err.starts_with("the board did not come to rest within 4 s"),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1);
    }
}
