//! The phone as the rest of the program sees it: a narrow `Device` trait (screenshot, taps) with
//! implementations for a real phone through the adb server, the in-process simulated phone, and a
//! PNG file. Everything phone-specific stays behind it.

use crate::geometry::{Point, Size};
use anyhow::Result;
use image::RgbaImage;
pub use input::{InputKind, InputMethod, Pacing};

/// A screen we can look at and touch.
pub trait Device {
    /// The current screen, in its current orientation.
    fn screenshot(&mut self) -> Result<RgbaImage>;
    /// The screen size in pixels, in the current orientation.
    fn screen_size(&mut self) -> Result<Size>;
    /// Taps each point in order, waiting until the device has taken every tap.
    fn tap_all(&mut self, taps: &[Point]) -> Result<()>;
    /// How taps are delivered, for progress output and reports (`stream`, `evdev /dev/input/event1 ...`).
    fn input_description(&self) -> String {
        "direct".to_string()
    }
    /// Hold, gap and settle times for the following taps (from the calibration). Devices
    /// without real timing ignore them.
    fn set_pacing(&mut self, _pacing: Pacing) {}
    /// The pacing in force (the input method's default until `set_pacing`); `None` for devices
    /// without real timing.
    fn pacing(&self) -> Option<Pacing> {
        None
    }
}

pub mod adb;
pub mod file;
pub mod inject;
pub mod input;
pub mod parse;
pub mod spec;

pub use spec::DeviceSpec;
