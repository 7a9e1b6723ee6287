//! sudoku-sim: a simulated Android phone running a sudoku app, so tests and newcomers can drive
//! sudoku-agent's whole pipeline without a phone.
//!
//! It has two halves. The app: its model (`model`: state, keys, hits, moves), its rules
//! (`app`: [`SudokuApp`], which turns taps into moves), its screen layout (`layout`), a renderer
//! with real fonts at real phone resolutions (`render`) and a set of skins (`skins`); layout and
//! renderer read the model and nothing above it. Beside the app, a screen to refuse: a samurai
//! puzzle of five overlapping grids (`samurai`, [`SamuraiScreen`]). The device:
//! a fake adbd on 127.0.0.1 (`adbd`, `server`) with a phone shell (`shell`), touch decoding of
//! `input tap`, motion events and raw `/dev/input` writes (`touch`), a virtual clock with a
//! latency model (`latency`, `handset`), switchable faults (`faults`) and the habits of real
//! apps (`habits`: end card, animations, lives...). The real `adb` server
//! and any adb client reach it exactly as they reach a phone on a cable.
//!
//! Why a crate of its own: the phone is an independent peer of the agent that plays on it. It
//! never imports the agent (it has its own geometry and board types), so a bug shared by both
//! sides cannot hide itself in the tests, and it builds and tests on its own:
//! `cargo test -p sudoku-sim`.
//!
//! Names say which side they belong to, because the agent has its own words for similar things:
//! [`SudokuApp`] is the game on the simulated phone (the agent's "phone" is a device it drives);
//! [`AppMove`] is a change the app made to its board (the agent's `Move` is a planned step);
//! [`EntryOrder`] is whether the app takes the cell or the digit first; `AppLayout` is where the
//! app draws its controls; `touch::EvdevEvent` and `touch::TouchReader` are the kernel records
//! written to `/dev/input` and the phone's reading of them into taps (the agent encodes its own).

use image::RgbaImage;

pub mod app;
pub mod board;
pub mod geometry;
mod layout;
mod model;
pub mod puzzles;
mod render;
pub mod samurai;
pub mod skins;

pub use app::{AppMove, Hit, Key, SudokuApp};
pub use board::{Board, Cell};
pub use geometry::{Point, Rect, Size};
pub use samurai::SamuraiScreen;
pub use skins::{EntryOrder, Skin};

/// Screen sizes the simulated phone offers (portrait): a 720p phone, a common 1080x2340 one, a
/// 1440x3200 flagship, and a 320x640 screenshot scaled down from a 1:2 phone (boards about
/// 300 px wide and smaller, as in screenshots passed around at low resolution).
pub const SUPPORTED_SIZES: [Size; 4] = [
    Size::new(720, 1280),
    Size::new(1080, 2340),
    Size::new(1440, 3200),
    Size::new(320, 640),
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
    /// Whether the view under `at` acts on the touch itself (a custom board view), rather than
    /// through a click `View.onTouchEvent` posts, which runs after the next frame (a button).
    /// The clock counts a touch on such a view before a pending click ran as overtaking it.
    fn acts_on_touch(&self, _at: Point) -> bool {
        false
    }
    /// The device clock reads `now` (virtual device time since start). Returns true when the
    /// picture changes with time alone around now (an animation runs or just ended), so a
    /// cached frame is stale.
    fn advance_clock(&mut self, _now: std::time::Duration) -> bool {
        false
    }
    /// The focused activity as `dumpsys` names it, `package/activity`.
    fn activity(&self) -> String {
        "com.example.app/.MainActivity".to_string()
    }
    /// A key event (`input keyevent`) the system passes to the app in front (BACK, ...), by its
    /// Android key code.
    fn key_event(&mut self, _code: u32) {}
    /// The habits of the phone around this screen (lag, screen off, lock, refused input), which
    /// the handset reads once when it starts.
    fn phone_habits(&self) -> habits::PhoneHabits {
        habits::PhoneHabits::default()
    }
}

pub mod adbd;
pub mod faults;
pub mod habits;
pub mod handset;
pub mod latency;
pub mod server;
pub mod shell;
pub mod touch;

pub use handset::{TapRecord, TapSource};
pub use latency::Latency;
pub use server::{SimConfig, SimServer, lock_adb_server};
