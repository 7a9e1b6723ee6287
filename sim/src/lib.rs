//! sudoku-sim: a simulated Android phone running a sudoku app, so tests and newcomers can drive
//! sudoku-agent's whole pipeline without a phone.
//!
//! It has two halves. The app: a game model (`phone`), its screen layout (`layout`), a renderer
//! with real fonts at real phone resolutions (`render`) and a set of skins (`skins`). The device:
//! a fake adbd on 127.0.0.1 (`adbd`, `server`) with a phone shell (`shell`), touch decoding of
//! `input tap`, motion events and raw `/dev/input` writes (`touch`), a virtual clock with a
//! latency model (`latency`, `handset`) and switchable faults (`faults`). The real `adb` server
//! and any adb client reach it exactly as they reach a phone on a cable.
//!
//! Why a crate of its own: the phone is an independent peer of the agent that plays on it. It
//! never imports the agent (it has its own geometry and board types), so a bug shared by both
//! sides cannot hide itself in the tests, and it builds and tests on its own:
//! `cargo test -p sudoku-sim`.

use image::RgbaImage;

pub mod board;
pub mod geometry;
mod layout;
pub mod phone;
pub mod puzzles;
mod render;
pub mod skins;

pub use board::{Board, Cell};
pub use geometry::{Point, Rect, Size};
pub use phone::{Hit, Key, Move, Phone};
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
