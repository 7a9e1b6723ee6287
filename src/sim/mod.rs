//! The simulated phone: a sudoku app (game model and renderer) and a fake adbd that serves it on
//! 127.0.0.1, so tests and newcomers can drive the whole pipeline without a phone.

use crate::geometry::{Point, Size};
use image::RgbaImage;

mod layout;
pub mod phone;
pub mod puzzles;
mod render;
pub mod sim_device;
pub mod skins;

pub use phone::{Hit, Key, Move, Phone};
pub use sim_device::SimDevice;
pub use skins::{InputOrder, Skin};

/// Screen sizes the simulated phone offers (portrait): a 720p phone, a common 1080x2340 one and
/// a 1440x3200 flagship.
pub const SUPPORTED_SIZES: [Size; 3] = [
    Size::new(720, 1280),
    Size::new(1080, 2340),
    Size::new(1440, 3200),
];

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

pub mod adb_session;
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
