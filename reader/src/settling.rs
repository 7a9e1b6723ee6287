//! Watching a screen settle after a tap: the frames taken since, and whether the cells in
//! question have stopped changing. Apps animate an entry in (a fade, a pop, a sliding
//! highlight), and a frame caught halfway (a faint digit reads as none) must not decide that a
//! tap did not land. Pixels are compared, not reads: a slow fade reads "empty" twice in a row.

pub use super::screen::still_around;
use crate::geometry::Point;
use image::RgbaImage;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Two frames at least this far apart must agree before the screen counts as still: frames
/// taken back to back can agree at the slow start of an eased animation.
pub const STILL_SPAN: Duration = Duration::from_millis(100);

/// No conclusion that a tap did nothing before this long after it: an app may take a frame or
/// two to start drawing what was tapped.
pub const MIN_WAIT: Duration = Duration::from_millis(300);

/// After this long since the tap the screen is taken as it is, moving or not.
pub const LIMIT: Duration = Duration::from_millis(900);

/// The pause between two looks at a screen that is not settled yet.
pub const STEP: Duration = Duration::from_millis(50);

/// The frames of one screen since a tap, oldest first; only those still needed are kept.
/// Frames are shared ([`Arc`]): a caller that keeps its last frame hands it over uncopied.
pub struct Settling {
    since: Instant,
    min_wait: Duration,
    /// [`LIMIT`], later by the phone's frame lag.
    limit: Duration,
    frames: Vec<(Instant, Arc<RgbaImage>)>,
}

impl Settling {
    /// Watching from `since`, the moment the last tap went out; no conclusion before
    /// `min_wait` after it (at least [`STILL_SPAN`]).
    pub fn new(since: Instant, min_wait: Duration) -> Settling {
        Settling::with_lag(since, min_wait, Duration::ZERO)
    }

    /// As [`Settling::new`] on a phone whose screenshots show the screen as it was `lag` ago:
    /// frames taken within `lag` of the tap show the screen before it, alike and so "still",
    /// so the minimum wait and the limit both start `lag` later.
    pub fn with_lag(since: Instant, min_wait: Duration, lag: Duration) -> Settling {
        Settling {
            since,
            min_wait: min_wait.max(STILL_SPAN) + lag,
            limit: LIMIT + lag,
            frames: Vec::new(),
        }
    }

    /// Adds a frame taken at `at` (after every frame added before).
    pub fn add_at(&mut self, at: Instant, frame: impl Into<Arc<RgbaImage>>) {
        self.frames.push((at, frame.into()));
        // Keep the newest frame at least STILL_SPAN older than this one, and all newer.
        if let Some(keep_from) = self
            .frames
            .iter()
            .rposition(|(t, _)| at.duration_since(*t) >= STILL_SPAN)
        {
            self.frames.drain(..keep_from);
        }
    }

    /// Adds a frame taken now.
    pub fn add(&mut self, frame: impl Into<Arc<RgbaImage>>) {
        self.add_at(Instant::now(), frame);
    }

    /// The newest frame.
    pub fn latest(&self) -> Option<&RgbaImage> {
        self.frames.last().map(|(_, f)| &**f)
    }

    /// The newest frame, kept.
    pub fn into_latest(mut self) -> Option<RgbaImage> {
        self.frames.pop().map(|(_, f)| Arc::unwrap_or_clone(f))
    }

    /// The newest frame is at least the minimum wait after the tap, and alike around every
    /// point in `around` (squares of side `side`) with a frame at least [`STILL_SPAN`] older.
    pub fn settled(&self, around: &[Point], side: u32) -> bool {
        let Some((at, newest)) = self.frames.last() else {
            return false;
        };
        if at.saturating_duration_since(self.since) < self.min_wait {
            return false;
        }
        self.frames
            .iter()
            .rev()
            .find(|(t, _)| at.duration_since(*t) >= STILL_SPAN)
            .is_some_and(|(_, old)| around.iter().all(|&p| still_around(old, newest, p, side)))
    }

    /// The newest frame was taken [`LIMIT`] (plus the lag) or more after the tap: take the
    /// screen as it is.
    pub fn timed_out(&self) -> bool {
        self.frames
            .last()
            .is_some_and(|(at, _)| at.saturating_duration_since(self.since) >= self.limit)
    }

    /// Neither settled nor timed out: worth another look after [`STEP`].
    pub fn waiting(&self, around: &[Point], side: u32) -> bool {
        !self.timed_out() && !self.settled(around, side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    fn frame(level: u8) -> RgbaImage {
        RgbaImage::from_pixel(40, 40, Rgba([level, level, level, 255]))
    }

    const AT: [Point; 1] = [Point::new(20, 20)];

    #[test]
    fn frames_alike_but_too_close_together_are_not_settled() {
        let t0 = Instant::now();
        let mut s = Settling::new(t0, Duration::ZERO);
        s.add_at(t0 + Duration::from_millis(300), frame(200));
        s.add_at(t0 + Duration::from_millis(350), frame(200));
        assert!(!s.settled(&AT, 20));
        s.add_at(t0 + Duration::from_millis(400), frame(200));
        assert!(s.settled(&AT, 20));
    }

    #[test]
    fn a_screen_still_before_the_minimum_wait_is_not_settled() {
        let t0 = Instant::now();
        let mut s = Settling::new(t0, MIN_WAIT);
        s.add_at(t0, frame(200));
        s.add_at(t0 + Duration::from_millis(150), frame(200));
        assert!(!s.settled(&AT, 20));
        s.add_at(t0 + MIN_WAIT, frame(200));
        assert!(s.settled(&AT, 20));
    }

    #[test]
    fn a_fading_cell_is_not_settled_until_it_stops() {
        let t0 = Instant::now();
        let mut s = Settling::new(t0, Duration::ZERO);
        for (ms, level) in [(0, 250), (100, 200), (200, 150), (300, 100), (400, 100)] {
            s.add_at(t0 + Duration::from_millis(ms), frame(level));
            assert_eq!(s.settled(&AT, 20), ms == 400, "at {ms} ms");
        }
        assert_eq!(s.latest().unwrap().get_pixel(0, 0).0[0], 100);
    }

    #[test]
    fn on_a_lagging_phone_frames_alike_within_the_lag_are_not_settled() {
        let t0 = Instant::now();
        let lag = Duration::from_millis(400);
        let mut s = Settling::with_lag(t0, MIN_WAIT, lag);
        // The frames up to the lag show the screen before the tap: alike, yet not settled.
        for ms in [300, 400, 500, 600] {
            s.add_at(t0 + Duration::from_millis(ms), frame(200));
            assert!(!s.settled(&AT, 20), "at {ms} ms");
        }
        s.add_at(t0 + MIN_WAIT + lag, frame(200));
        assert!(s.settled(&AT, 20));
        assert!(!s.timed_out());
        s.add_at(t0 + LIMIT + lag, frame(200));
        assert!(s.timed_out());
    }

    #[test]
    fn only_the_frames_still_needed_are_kept() {
        let t0 = Instant::now();
        let mut s = Settling::new(t0, Duration::ZERO);
        for ms in (0..1000).step_by(50) {
            s.add_at(t0 + Duration::from_millis(ms), frame(9));
        }
        assert_eq!(s.frames.len(), 3);
        assert!(s.timed_out());
    }
}
