//! The simulated phone: a sudoku app (game model and renderer) and a fake adbd that serves it on
//! 127.0.0.1, so tests and newcomers can drive the whole pipeline without a phone.

use crate::geometry::{Point, Size};
use image::RgbaImage;

/// The seam between the device layer (fake adbd: shell, clock, touch decoding) and the app it
/// runs. The device turns every touch path (`input tap`, motion events, raw `/dev/input` writes)
/// into whole taps in screen pixels before the app sees them, as Android's input stack does.
pub trait Screen: Send {
    /// Screen size in pixels (portrait).
    fn size(&self) -> Size;
    /// The current frame, exactly as `screencap` would return it.
    fn render(&mut self) -> RgbaImage;
    /// One completed tap (finger down and up) at `at`.
    fn tap(&mut self, at: Point);
}

pub mod adbd;
pub mod faults;
pub mod handset;
pub mod latency;
pub mod server;
pub mod shell;
pub mod touch;

pub use handset::{TapRecord, TapSource};
pub use latency::Latency;
pub use server::{SimConfig, SimServer};
