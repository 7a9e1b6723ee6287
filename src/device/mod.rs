//! The phone as the rest of the program sees it: a narrow `Device` trait (screenshot, taps, screen
//! state, keys) with implementations for a real phone through the adb server, the in-process
//! simulated phone, and a PNG file. Everything phone-specific stays behind it. Beside it: waking
//! the screen before a run (`screen`), one agent per phone (`lock`) and the typed errors callers
//! decide on (`error`).

use crate::geometry::{Point, Rect, Size};
use anyhow::Result;
use image::RgbaImage;
pub use protocol::input::InputMethod;
pub use protocol::input_kind::InputKind;
pub use protocol::pacing::Pacing;
pub use protocol::screen_state::ScreenState;
use std::time::Duration;

/// A screen we can look at and touch.
pub trait Device {
    /// The current screen, in its current orientation.
    fn screenshot(&mut self) -> Result<RgbaImage>;
    /// The current screen, of which only `rows` will be looked at: a device may send just those
    /// (the other rows are then copies of the nearest row sent). The whole screen by default.
    fn screenshot_rows(&mut self, _rows: std::ops::Range<u32>) -> Result<RgbaImage> {
        self.screenshot()
    }
    /// The screen size in pixels, in the current orientation.
    fn screen_size(&mut self) -> Result<Size>;
    /// Taps each point in order, waiting until the device has taken every tap.
    fn tap_all(&mut self, taps: &[Point]) -> Result<()>;
    /// How taps are delivered, as callers decide on it (cost per tap, batching).
    fn input(&self) -> Input {
        Input::Direct
    }
    /// What one tap costs on this device with `pacing` ([`Input::tap_cost`]); a phone that knows
    /// its Android version says it more closely ([`Input::tap_cost_on`]).
    fn tap_cost(&self, pacing: &Pacing) -> Duration {
        self.input().tap_cost(pacing)
    }
    /// How taps are delivered, for people only: progress output and reports (`stream`,
    /// `evdev /dev/input/event1 ...`). Decide on [`Device::input`], never on this text.
    fn input_description(&self) -> String {
        "direct".to_string()
    }
    /// Whether taps can change what the next screenshot shows: false for a screenshot file,
    /// which only records them (so advice about an app's settings would be wrong).
    fn shows_taps(&self) -> bool {
        true
    }
    /// Hold, gap and settle times for the following taps (from the calibration). Devices
    /// without real timing ignore them.
    fn set_pacing(&mut self, _pacing: Pacing) {}
    /// The pacing in force (the input method's default until `set_pacing`); `None` for devices
    /// without real timing.
    fn pacing(&self) -> Option<Pacing> {
        None
    }
    /// Where the app's board is (`None`: unknown, the default). A board view acts on a touch as it
    /// arrives, while a button runs its click only after the next frame, so the pacing's gap is
    /// needed only between a tap off the board and a tap on it (`protocol::pacing::tap_waits`);
    /// without a board every tap keeps it. Devices without real timing ignore it.
    fn set_board(&mut self, _board: Option<Rect>) {}
    /// The package of the app on screen (what profiles are keyed by); `None` when the device
    /// cannot tell (a file).
    fn foreground_app(&mut self) -> Result<Option<String>> {
        Ok(None)
    }
    /// Whether the screen is on, dark or locked ([`wake_screen`] acts on it). `On` by default:
    /// a device that cannot tell (a file) is never blocked.
    fn screen_state(&mut self) -> Result<ScreenState> {
        Ok(ScreenState::On)
    }
    /// Presses a key on the phone. Devices without keys say so.
    fn press_key(&mut self, key: Key) -> Result<()> {
        anyhow::bail!("this device has no {key:?} key")
    }
    /// The phone's serial, for the per-phone lock ([`lock::PhoneLock`]); `None` for devices no
    /// other process can reach (a file, the in-process simulated phone).
    fn serial(&self) -> Option<String> {
        None
    }
}

/// Keys a run presses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// Wakes a dark screen (`KEYCODE_WAKEUP`; nothing on a screen that is on).
    Wakeup,
    /// Back (`KEYCODE_BACK`): closes what our tap opened over the game.
    Back,
}

/// The first API level (Android 12) whose `input` command runs `cmd input` instead of starting a
/// JVM (notes/android-input.md).
pub const CMD_INPUT_SDK: u32 = 31;

/// How a device takes taps, and what that means for the callers that pace, batch and estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// Taps land at once, in-process (the simulated phone, a file): nothing to pace or batch.
    Direct,
    /// Taps are shell commands on a phone, encoded by this input method.
    Method(InputKind),
}

impl Input {
    /// The input method, for a phone.
    pub fn kind(self) -> Option<InputKind> {
        match self {
            Input::Direct => None,
            Input::Method(kind) => Some(kind),
        }
    }

    /// Moves per `tap_all` call in `play`. `tap`: one move per call, so Ctrl-C stops after the
    /// current cell (every tap is its own command anyway). `batch`: a few moves share one shell
    /// command. `stream`, `evdev` and `inject`: each call ends by waiting for the phone to
    /// acknowledge (or, for a raw event stream, to drain) its last line, so eight moves (16 taps,
    /// about 0.3 s with evdev or the injector, 0.8 s with `cmd input` on Android 12) share one
    /// wait.
    pub fn moves_per_call(self) -> usize {
        match self.kind() {
            Some(InputKind::Batch) => 4,
            Some(InputKind::Stream | InputKind::Evdev | InputKind::Inject) => 8,
            _ => 1,
        }
    }

    /// Pacing as fast as the input method allows: its own defaults, or none without timing.
    pub fn fastest_pacing(self) -> Pacing {
        match self.kind() {
            Some(kind) => Pacing::default_for(kind),
            None => Pacing::NONE,
        }
    }

    /// What one tap costs on the phone: the method's own cost plus the pacing's hold and gap.
    /// Figures from `../shared/notes/android-input.md` and `../shared/notes/injector.md`: an
    /// injected tap 5.6 ms (mobilecli PR #412) plus the app's handling of its DOWN and UP; raw
    /// events little more than that handling; a binder call and fork for `cmd input`; a JVM start
    /// for `input` before Android 12. No display frame in the method's cost: apps handle DOWN and UP as they arrive
    /// (`ViewRootImpl` processes unbatched events immediately; only MOVE waits for vsync); the
    /// wait for the click, which runs after the next frame, is the pacing's gap.
    /// Of a phone whose Android version is not known: `input` is taken to start a JVM.
    pub fn tap_cost(self, pacing: &Pacing) -> Duration {
        self.tap_cost_on(pacing, None)
    }

    /// [`Input::tap_cost`] on a phone of API level `sdk`: from Android 12 (API 31) `input` is a
    /// shell wrapper for `cmd input` (a binder call, 40-80 ms a tap), no longer a JVM start
    /// (300 ms and more), so `tap` and `batch` cost a sixth of what they did.
    pub fn tap_cost_on(self, pacing: &Pacing, sdk: Option<u32>) -> Duration {
        let cmd_input = sdk.is_some_and(|sdk| sdk >= CMD_INPUT_SDK);
        let method = match self.kind() {
            Some(InputKind::Inject) => Duration::from_millis(8),
            Some(InputKind::Evdev) => Duration::from_millis(2),
            Some(InputKind::Stream) => Duration::from_millis(50),
            Some(InputKind::Batch) if cmd_input => Duration::from_millis(50),
            Some(InputKind::Tap) if cmd_input => Duration::from_millis(70),
            Some(InputKind::Batch) => Duration::from_millis(300),
            Some(InputKind::Tap) => Duration::from_millis(320),
            None => Duration::from_micros(100),
        };
        method + Duration::from_millis(u64::from(pacing.hold_ms + pacing.gap_ms))
    }

    /// Screenshot, transfer and read at a check: a raw screenshot of the grid's rows or
    /// fewer (the latency model: 50 ms of capture, and 200 ms to move a whole 1080x2340 frame,
    /// of which checks move a half or less) and its read.
    pub fn check_cost(self) -> Duration {
        match self {
            Input::Method(_) => Duration::from_millis(150),
            Input::Direct => Duration::from_millis(50),
        }
    }
}

pub mod adb;
pub mod error;
pub mod file;
pub mod lock;
pub mod protocol;
pub mod screen;
#[cfg(feature = "sim")]
pub mod sim;
#[cfg(feature = "sim")]
pub mod sim_adb;
pub mod spec;

pub use adb::AdbServerGone;
pub use error::{PhoneLocked, Refusal, TapsRefused};
pub use lock::{PhoneInUse, PhoneLock};
pub use screen::{is_black, wake_screen};
pub use spec::DeviceSpec;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_per_call_keeps_tap_per_move_and_groups_pipelined_methods() {
        assert_eq!(Input::Method(InputKind::Tap).moves_per_call(), 1);
        assert_eq!(Input::Method(InputKind::Batch).moves_per_call(), 4);
        assert_eq!(Input::Method(InputKind::Stream).moves_per_call(), 8);
        assert_eq!(Input::Method(InputKind::Evdev).moves_per_call(), 8);
        assert_eq!(Input::Method(InputKind::Inject).moves_per_call(), 8);
        assert_eq!(Input::Direct.moves_per_call(), 1);
    }

    #[test]
    fn an_input_tap_costs_a_sixth_from_android_12_where_no_jvm_starts() {
        let batch = Input::Method(InputKind::Batch);
        let none = Pacing::NONE;
        assert_eq!(batch.tap_cost(&none), Duration::from_millis(300));
        assert_eq!(
            batch.tap_cost_on(&none, Some(29)),
            Duration::from_millis(300)
        );
        assert_eq!(
            batch.tap_cost_on(&none, Some(31)),
            Duration::from_millis(50)
        );
        let inject = Input::Method(InputKind::Inject);
        assert_eq!(inject.tap_cost_on(&none, Some(34)), inject.tap_cost(&none));
    }
}
