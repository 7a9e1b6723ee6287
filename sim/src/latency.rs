//! What the simulated phone's actions would cost on a real phone, and the virtual device clock that
//! adds those costs up. All figures live in `PRESETS`, one row per preset, taken from
//! `notes/android-input.md` (reported figures for real phones, not our measurements):
//!
//! | preset      | `input` / `cmd input` | `sendevent` process | `/dev/input` writes | `screencap -p` (1080x2340) | raw `screencap` |
//! |-------------|-----------------------|---------------------|---------------------|----------------------------|-----------------|
//! | `instant`   | 0                     | 0                   | allowed             | 0                          | 0               |
//! | `android9`  | 300 ms (a JVM starts) | 10 ms               | allowed, free       | 700 ms                     | 250 ms          |
//! | `android12` | 50 ms (binder call)   | 10 ms               | permission denied   | 700 ms                     | 250 ms          |
//!
//! Screenshot costs scale with the pixel count. On the two phone presets every tap, whatever path
//! it took, is handled by the app at most once per display frame (16.7 ms at 60 Hz): the physical
//! limit. `instant` is a permissive test phone where nothing costs time. The clock only advances;
//! `--realtime` makes the device also sleep for each advance.

use std::time::Duration;

/// One latency preset: what each kind of device work costs, and what the shell user may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Latency {
    /// The name used on the command line (`--latency android9`).
    pub name: &'static str,
    /// `ro.build.version.sdk` and `ro.build.version.release` of the phone it models.
    pub sdk: u32,
    pub release: &'static str,
    /// One `input ...` or `cmd input ...` process, start to finish.
    pub input_command: Duration,
    /// One `sendevent` process (one event).
    pub sendevent: Duration,
    /// Whether the shell user may write `/dev/input/eventN` (SELinux allows it up to Android 9).
    pub raw_input_writable: bool,
    /// `screencap -p` (PNG encoded on the device) of a 1080x2340 screen.
    pub screencap_png: Duration,
    /// Raw `screencap` of a 1080x2340 screen.
    pub screencap_raw: Duration,
    /// One display frame: taps reach the app at most once per frame.
    pub frame: Duration,
}

/// The pixel count the screenshot figures were given for (1080x2340).
const REFERENCE_PIXELS: u64 = 1080 * 2340;

/// 60 Hz.
const FRAME_60HZ: Duration = Duration::from_micros(16_667);

/// Every preset, in the order `--help` lists them. The first is the default.
pub const PRESETS: &[Latency] = &[
    Latency {
        name: "instant",
        sdk: 34,
        release: "14",
        input_command: Duration::ZERO,
        sendevent: Duration::ZERO,
        raw_input_writable: true,
        screencap_png: Duration::ZERO,
        screencap_raw: Duration::ZERO,
        frame: Duration::ZERO,
    },
    Latency {
        name: "android9",
        sdk: 28,
        release: "9",
        input_command: Duration::from_millis(300),
        sendevent: Duration::from_millis(10),
        raw_input_writable: true,
        screencap_png: Duration::from_millis(700),
        screencap_raw: Duration::from_millis(250),
        frame: FRAME_60HZ,
    },
    Latency {
        name: "android12",
        sdk: 31,
        release: "12",
        input_command: Duration::from_millis(50),
        sendevent: Duration::from_millis(10),
        raw_input_writable: false,
        screencap_png: Duration::from_millis(700),
        screencap_raw: Duration::from_millis(250),
        frame: FRAME_60HZ,
    },
];

impl Default for Latency {
    fn default() -> Self {
        PRESETS[0].clone()
    }
}

impl Latency {
    /// The preset called `name` (`instant`, `android9`, `android12`).
    pub fn named(name: &str) -> Option<Latency> {
        PRESETS.iter().find(|p| p.name == name).cloned()
    }

    /// All preset names, for `--help` and error messages.
    pub fn names() -> Vec<&'static str> {
        PRESETS.iter().map(|p| p.name).collect()
    }

    /// Cost of one screenshot of `pixels` pixels, PNG or raw.
    pub fn screencap(&self, pixels: u64, png: bool) -> Duration {
        let reference = if png {
            self.screencap_png
        } else {
            self.screencap_raw
        };
        let micros = reference.as_micros() as u64 * pixels / REFERENCE_PIXELS;
        Duration::from_micros(micros)
    }
}

impl std::str::FromStr for Latency {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Latency::named(s).ok_or_else(|| {
            format!(
                "unknown latency preset '{s}'; choose one of: {}",
                Latency::names().join(", ")
            )
        })
    }
}

/// The device's own clock: starts at zero and advances by the modelled cost of each action.
#[derive(Debug, Clone, Default)]
pub struct VirtualClock {
    now: Duration,
    /// When the app took the last tap; the next one waits for a later frame.
    last_tap: Option<Duration>,
}

impl VirtualClock {
    pub fn now(&self) -> Duration {
        self.now
    }

    /// Spends `cost` of device time.
    pub fn advance(&mut self, cost: Duration) {
        self.now += cost;
    }

    /// Delivers a tap to the app: it is handled on the first frame boundary at or after now that
    /// comes after the frame of the previous tap. Returns when it was handled.
    pub fn deliver_tap(&mut self, frame: Duration) -> Duration {
        if frame.is_zero() {
            self.last_tap = Some(self.now);
            return self.now;
        }
        let frame_us = frame.as_micros() as u64;
        let now_us = self.now.as_micros() as u64;
        let mut slot = now_us.div_ceil(frame_us);
        if let Some(last) = self.last_tap {
            slot = slot.max(last.as_micros() as u64 / frame_us + 1);
        }
        self.now = Duration::from_micros(slot * frame_us);
        self.last_tap = Some(self.now);
        self.now
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_found_by_name_and_instant_is_the_default() {
        assert_eq!(Latency::default().name, "instant");
        assert_eq!(Latency::named("android9").unwrap().sdk, 28);
        assert!(!Latency::named("android12").unwrap().raw_input_writable);
        assert!("android99".parse::<Latency>().is_err());
    }

    #[test]
    fn screenshot_cost_scales_with_pixel_count() {
        let p = Latency::named("android9").unwrap();
        assert_eq!(p.screencap(1080 * 2340, true), Duration::from_millis(700));
        assert_eq!(
            p.screencap(1080 * 2340 / 2, false),
            Duration::from_millis(125)
        );
    }

    #[test]
    fn taps_are_handled_at_most_once_per_frame() {
        let frame = FRAME_60HZ;
        let mut clock = VirtualClock::default();
        let a = clock.deliver_tap(frame);
        let b = clock.deliver_tap(frame);
        let c = clock.deliver_tap(frame);
        assert_eq!(a, Duration::ZERO);
        assert_eq!(b, frame);
        assert_eq!(c, frame * 2);
        clock.advance(Duration::from_millis(300));
        let d = clock.deliver_tap(frame);
        assert!(d >= Duration::from_millis(333) && d < Duration::from_millis(334) + frame);
        assert_eq!(d.as_micros() % frame.as_micros(), 0);
    }

    #[test]
    fn instant_preset_never_moves_the_clock_for_taps() {
        let mut clock = VirtualClock::default();
        for _ in 0..10 {
            clock.deliver_tap(Duration::ZERO);
        }
        assert_eq!(clock.now(), Duration::ZERO);
    }
}
