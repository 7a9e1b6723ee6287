//! What the simulated phone's actions would cost on a real phone, and the virtual device clock that
//! adds those costs up. All figures live in `PRESETS`, one row per preset, taken from
//! `notes/android-input.md` and `notes/injector.md` (reported figures for real phones, not our
//! measurements):
//!
//! | preset      | `input` / `cmd input` | `cmd input tap` | `sendevent` | `/dev/input` writes | `app_process` start / injected tap | input manager | `screencap -p` (1080x2340) | raw `screencap` (capture + transfer) |
//! |-------------|-----------------------|-----------------|-------------|---------------------|------------------------------------|---------------|----------------------------|--------------------------------------|
//! | `instant`   | 0                     | yes             | 0           | allowed             | 0 / 0                              | Global        | 0                          | 0                                    |
//! | `android9`  | 300 ms (a JVM starts) | no              | 10 ms       | allowed, free       | 300 ms / 5.6 ms                    | InputManager  | 700 ms                     | 250 ms (50 + 200)                    |
//! | `android10` | 300 ms (a JVM starts) | no              | 10 ms       | permission denied   | 300 ms / 5.6 ms                    | InputManager  | 700 ms                     | 250 ms (50 + 200)                    |
//! | `android12` | 50 ms (binder call)   | yes             | 10 ms       | permission denied   | 300 ms / 5.6 ms                    | InputManager  | 700 ms                     | 250 ms (50 + 200)                    |
//! | `android14` | 50 ms (binder call)   | yes             | 10 ms       | permission denied   | 300 ms / 5.6 ms                    | Global        | 700 ms                     | 250 ms (50 + 200)                    |
//!
//! Screenshot costs scale with the pixel count. A raw `screencap` is two costs: its own work on
//! the phone (process start and SurfaceFlinger's capture, `screencap_capture`: 50 ms at
//! 1080x2340, an inference: a warm on-device capture is reported at 12-24 ms, a `screencap | gzip
//! -1` pipeline at 130-140 ms for 8 MB, a raw one at 250-300 ms) and the transfer of its bytes to
//! the host, the rest of the 250 ms for a whole 1080x2340 frame (about 50 MB/s, USB 2.0 adb).
//! The transfer is charged per byte that leaves the phone (`Latency::transfer`), so output cut
//! on the phone (`screencap | tail -c +N | head -c M`) costs less. `instant` is a permissive test
//! phone where nothing costs time. The clock only advances; `--realtime` makes the device also sleep for each advance.
//! The injected-tap cost is mobilecli PR #412's 5.6 ms per tap through a persistent `app_process`
//! program (hardware); the JVM start is the `input` JVM's.
//!
//! ## How the app takes touches (AOSP, read in source)
//! A View app handles each DOWN and UP as it arrives, not once per display frame:
//! * `InputConsumer::consume` (frameworks/native `libs/input/InputTransport.cpp`) starts a batch
//!   only for `AMOTION_EVENT_ACTION_MOVE` / `HOVER_MOVE` ("Start a new batch if needed."); any other
//!   motion event is returned at once.
//! * `ViewRootImpl.WindowInputEventReceiver.onInputEvent` calls
//!   `enqueueInputEvent(event, this, 0, true)`, and `processImmediately` runs
//!   `doProcessInputEvents()` there and then; only `onBatchedInputEventPending` (the MOVE batches)
//!   waits for the next vsync through `scheduleConsumeBatchedInput` (`Choreographer.CALLBACK_INPUT`).
//! * `View.onTouchEvent` on ACTION_UP posts `mPerformClick` to the main looper ("Use a Runnable and
//!   post this rather than calling performClick directly"); the looper runs it before it polls the
//!   input channel again, so clicks run in the order of their taps.
//! * `InputDispatcher::injectInputEvent` with `INPUT_EVENT_INJECTION_SYNC_WAIT_FOR_FINISHED` (the mode
//!   of `input tap`, `cmd input tap` and our injector) returns only when
//!   `pendingForegroundDispatches` is 0, i.e. after the app sent its finished signal
//!   (`ViewRootImpl.finishInputEvent`, at the end of the event's dispatch): the next event cannot
//!   overtake the app.
//!
//! * But the click itself waits for the next frame: `View.post` puts `mPerformClick` on the
//!   view root's (synchronous) handler, and the press state the DOWN or UP set has already called
//!   `invalidate()` -> `ViewRootImpl.scheduleTraversals()`, which posts a sync barrier
//!   (`mHandler.getLooper().getQueue().postSyncBarrier()`) until `doTraversal` at the next vsync;
//!   `MessageQueue.next` skips synchronous messages behind a barrier. So a tap's effect lands
//!   after the next vsync's traversal, while WAIT_FOR_FINISH has long returned (the UP finished
//!   before its click ran). Clicks keep their order among themselves, but a view that acts in
//!   `onTouchEvent` itself (a custom board view) handles a later touch at once, and the looper
//!   polls input before it runs a pending message: a touch that arrives before the previous
//!   tap's click ran can overtake it (a digit lands in the cell tapped after it).
//!
//! Which taps that makes harmful: clicks run in the order of their taps, so a touch on another
//! button (whose click is posted behind the pending one) cannot overtake anything, and a view that
//! acts in `onTouchEvent` leaves no click pending. Only a touch on a view that acts at once (a
//! custom board view: OpenSudoku's `SudokuBoardView` selects the cell in `onTouchEvent` on
//! ACTION_UP; Compose's `clickable` calls its lambda from the pointer input handler) arriving while
//! a button's click is still pending is taken out of order: the cell changes before the digit
//! key's click enters its digit. The app tells which of its views act at once
//! (`Screen::acts_on_touch`).
//!
//! The clock models that: each DOWN and UP costs the app's main thread `app_event` when it
//! arrives (after whatever the thread is busy with); after a tap the app redraws at the next
//! vsync (`app_draw`, events arriving meanwhile wait) and a button's click runs when that draw is
//! done; a DOWN on a view that acts at once arriving before a pending click ran is counted as
//! overtaking (`VirtualClock::overtaken`), which safe pacing never does. Figures (inferences, no public
//! number: a tap's dispatch through a small view tree, a sudoku screen's measure/layout/draw on a
//! mid-range phone): 1 ms per event and 4 ms per redraw at 60 Hz on every phone preset, nothing
//! on `instant`. A `MOVE` waits for the next vsync. The screen itself shows each tap at once and
//! in order (the sim's apps act on whole taps).

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
    /// Raw `screencap` of a 1080x2340 screen, its bytes' transfer to the host included.
    pub screencap_raw: Duration,
    /// Of `screencap_raw`, the phone's own work before the bytes leave: the process start and the
    /// capture; the rest is the transfer, charged per byte sent ([`Latency::transfer`]).
    pub screencap_capture: Duration,
    /// One display frame (vsync period): when the app redraws, and when batched `MOVE`s reach it.
    pub frame: Duration,
    /// The app's main thread handling one touch event (DOWN or UP, with the click it posts).
    pub app_event: Duration,
    /// The app's main thread redrawing the screen after a change, at the next vsync.
    pub app_draw: Duration,
    /// Whether `cmd input` implements `tap` and friends (Android 12+); before, the input service
    /// has no shell command and `input` is the only way.
    pub cmd_input: bool,
    /// Starting a JVM with `app_process` (the on-device injector's one-time cost).
    pub app_process_start: Duration,
    /// One tap injected through the input manager by a running `app_process` program.
    pub injected_tap: Duration,
    /// Where injectInputEvent lives: `InputManagerGlobal` from Android 14, `InputManager` before.
    pub input_manager_global: bool,
}

/// The pixel count the screenshot figures were given for (1080x2340).
const REFERENCE_PIXELS: u64 = 1080 * 2340;

/// A raw `screencap`'s process start and capture at 1080x2340 (inference, module doc).
const SCREENCAP_CAPTURE: Duration = Duration::from_millis(50);

/// The bytes of a raw 1080x2340 `screencap` (16-byte header, RGBA rows).
const REFERENCE_RAW_BYTES: u64 = 16 + REFERENCE_PIXELS * 4;

/// 60 Hz.
const FRAME_60HZ: Duration = Duration::from_micros(16_667);

/// One DOWN or UP through a small view tree, and the click it posts (inference).
const APP_EVENT: Duration = Duration::from_millis(1);

/// A sudoku screen's measure, layout and draw on the main thread (inference).
const APP_DRAW: Duration = Duration::from_millis(4);

/// A JVM start for `app_process` (the `input` command's JVM on Android 9/10).
const JVM_START: Duration = Duration::from_millis(300);

/// One tap through a persistent on-device injector (mobilecli PR #412, on hardware).
const INJECTED_TAP: Duration = Duration::from_micros(5_600);

/// Android 9 on a 60 Hz phone: the figures the later presets keep unless they name a change.
const ANDROID9: Latency = Latency {
    name: "android9",
    sdk: 28,
    release: "9",
    input_command: Duration::from_millis(300),
    sendevent: Duration::from_millis(10),
    raw_input_writable: true,
    screencap_png: Duration::from_millis(700),
    screencap_raw: Duration::from_millis(250),
    screencap_capture: SCREENCAP_CAPTURE,
    frame: FRAME_60HZ,
    app_event: APP_EVENT,
    app_draw: APP_DRAW,
    cmd_input: false,
    app_process_start: JVM_START,
    injected_tap: INJECTED_TAP,
    input_manager_global: false,
};

/// Android 12: `cmd input` taps without the `input` command's JVM start; /dev/input is closed
/// to the shell since Android 10.
const ANDROID12: Latency = Latency {
    name: "android12",
    sdk: 31,
    release: "12",
    input_command: Duration::from_millis(50),
    raw_input_writable: false,
    cmd_input: true,
    ..ANDROID9
};

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
        screencap_capture: Duration::ZERO,
        frame: Duration::ZERO,
        app_event: Duration::ZERO,
        app_draw: Duration::ZERO,
        cmd_input: true,
        app_process_start: Duration::ZERO,
        injected_tap: Duration::ZERO,
        input_manager_global: true,
    },
    ANDROID9,
    // The shell may no longer write /dev/input.
    Latency {
        name: "android10",
        sdk: 29,
        release: "10",
        raw_input_writable: false,
        ..ANDROID9
    },
    ANDROID12,
    // injectInputEvent moved to InputManagerGlobal.
    Latency {
        name: "android14",
        sdk: 34,
        release: "14",
        input_manager_global: true,
        ..ANDROID12
    },
];

impl Default for Latency {
    fn default() -> Self {
        PRESETS[0].clone()
    }
}

impl Latency {
    /// The preset called `name` (`instant`, `android9`, `android10`, `android12`, `android14`).
    pub fn named(name: &str) -> Option<Latency> {
        PRESETS.iter().find(|p| p.name == name).cloned()
    }

    /// All preset names, for `--help` and error messages.
    pub fn names() -> Vec<&'static str> {
        PRESETS.iter().map(|p| p.name).collect()
    }

    /// Cost of one screenshot of `pixels` pixels, PNG or raw, sent whole to the host.
    pub fn screencap(&self, pixels: u64, png: bool) -> Duration {
        let reference = if png {
            self.screencap_png
        } else {
            self.screencap_raw
        };
        let micros = reference.as_micros() as u64 * pixels / REFERENCE_PIXELS;
        Duration::from_micros(micros)
    }

    /// The phone's own part of a screenshot of `pixels` pixels, before its bytes leave: the
    /// capture for raw, the capture and the PNG encoding for `-p` (whose transfer, a few hundred
    /// KB, is the small part of its figure).
    pub fn capture(&self, pixels: u64, png: bool) -> Duration {
        if png {
            return self.screencap(pixels, true);
        }
        let micros = self.screencap_capture.as_micros() as u64 * pixels / REFERENCE_PIXELS;
        Duration::from_micros(micros)
    }

    /// Sending `bytes` of output from the phone to the host.
    pub fn transfer(&self, bytes: u64) -> Duration {
        let per_frame = self.screencap_raw.saturating_sub(self.screencap_capture);
        Duration::from_nanos(
            (per_frame.as_nanos() as u64).saturating_mul(bytes) / REFERENCE_RAW_BYTES,
        )
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

/// The device's own clock: starts at zero and advances by the modelled cost of each action. It
/// also follows the app's main thread: busy handling an event or redrawing, and the redraw due
/// after the screen changed.
#[derive(Debug, Clone, Default)]
pub struct VirtualClock {
    now: Duration,
    /// The app's main thread is busy until then.
    busy_until: Duration,
    /// The vsync at which the app redraws the screen it changed, while that draw is still to
    /// come (one redraw covers every change before it).
    redraw_at: Option<Duration>,
    /// When the last button's click runs (after the redraw at the vsync following its UP).
    click_at: Option<Duration>,
    /// Taps on a view that acts at once whose DOWN arrived before a button's click ran.
    overtaken: u64,
}

impl VirtualClock {
    pub fn now(&self) -> Duration {
        self.now
    }

    /// Spends `cost` of device time.
    pub fn advance(&mut self, cost: Duration) {
        self.now += cost;
    }

    /// The app handles one DOWN or UP that arrives now: after whatever its main thread is doing
    /// (a redraw due by then included), in arrival order. The sender waits for it
    /// (WAIT_FOR_FINISH), so the clock moves to the end of the handling, which is returned.
    pub fn app_event(&mut self, latency: &Latency) -> Duration {
        let mut start = self.now.max(self.busy_until);
        if let Some(vsync) = self.redraw_at
            && vsync <= start
        {
            let drawn = vsync.max(self.busy_until) + latency.app_draw;
            start = start.max(drawn);
            self.redraw_at = None;
        }
        self.busy_until = start + latency.app_event;
        self.now = self.busy_until;
        self.now
    }

    /// A DOWN arriving now: handled like any event, and counted as overtaking when it reaches a
    /// view that acts at once (`acts_at_once`) while a button's click has not run yet. A DOWN on
    /// another button is not: its click will be posted behind the pending one.
    pub fn app_down(&mut self, latency: &Latency, acts_at_once: bool) -> Duration {
        if acts_at_once && self.click_at.is_some_and(|click| self.now < click) {
            self.overtaken += 1;
        }
        self.app_event(latency)
    }

    /// The UP that ended a tap was handled now. On a button (`deferred`) its click runs once the
    /// redraw at the next vsync is done (the press state scheduled that traversal, whose sync
    /// barrier holds the click); a view that acts at once has acted already, and only redraws.
    pub fn click_posted(&mut self, latency: &Latency, deferred: bool) {
        self.screen_changed(latency);
        if deferred {
            self.click_at = self.redraw_at.map(|vsync| vsync + latency.app_draw);
        }
    }

    /// Taps so far on a view that acts at once whose DOWN arrived before a button's click ran.
    pub fn overtaken(&self) -> u64 {
        self.overtaken
    }

    /// A batched `MOVE`: consumed at the next vsync (`Choreographer.CALLBACK_INPUT`), then handled.
    pub fn app_batched_event(&mut self, latency: &Latency) -> Duration {
        self.now = next_vsync(self.now, latency.frame).max(self.now);
        self.app_event(latency)
    }

    /// The app changed its screen (a click ran): it redraws at the next vsync, unless a redraw is
    /// already due.
    pub fn screen_changed(&mut self, latency: &Latency) {
        if latency.frame.is_zero() {
            return;
        }
        // A redraw whose vsync has come already began without this change: it keeps the main
        // thread busy, and the change needs the next one.
        if let Some(vsync) = self.redraw_at
            && vsync <= self.now
        {
            self.busy_until = vsync.max(self.busy_until) + latency.app_draw;
            self.redraw_at = None;
        }
        if self.redraw_at.is_none() {
            self.redraw_at = Some(next_vsync(self.now, latency.frame));
        }
    }
}

/// The first vsync strictly after `t` (`t` itself when there is no display clock).
fn next_vsync(t: Duration, frame: Duration) -> Duration {
    if frame.is_zero() {
        return t;
    }
    let frame_us = frame.as_micros() as u64;
    Duration::from_micros((t.as_micros() as u64 / frame_us + 1) * frame_us)
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
    fn android10_has_no_cmd_input_and_android14_moved_injection_to_input_manager_global() {
        let a10 = Latency::named("android10").unwrap();
        assert_eq!(
            (a10.sdk, a10.cmd_input, a10.raw_input_writable),
            (29, false, false)
        );
        assert!(!a10.input_manager_global);
        let a14 = Latency::named("android14").unwrap();
        assert_eq!((a14.sdk, a14.cmd_input), (34, true));
        assert!(a14.input_manager_global);
        assert!(!Latency::named("android12").unwrap().input_manager_global);
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
    fn a_raw_screenshot_is_its_capture_plus_the_transfer_of_its_bytes() {
        let p = Latency::named("android12").unwrap();
        let whole = p.capture(REFERENCE_PIXELS, false) + p.transfer(REFERENCE_RAW_BYTES);
        assert!(
            whole.abs_diff(p.screencap_raw) < Duration::from_micros(10),
            "{whole:?}"
        );
        // The grid's rows alone (1033 of 2340) cost the capture and a fraction of the transfer.
        let rows = p.capture(REFERENCE_PIXELS, false) + p.transfer(1033 * 1080 * 4);
        assert!(
            rows < Duration::from_millis(140) && rows > p.screencap_capture,
            "{rows:?}"
        );
        assert_eq!(
            Latency::default().transfer(REFERENCE_RAW_BYTES),
            Duration::ZERO
        );
    }

    /// The android12 preset and a clock at zero, what most of these tests time.
    fn android12() -> (Latency, VirtualClock) {
        (
            Latency::named("android12").unwrap(),
            VirtualClock::default(),
        )
    }

    /// A whole tap as the handset delivers it: DOWN, UP, then the click posted, on the board
    /// (which acts on the touch at once) or on a button (whose click waits for the traversal).
    fn tap(clock: &mut VirtualClock, latency: &Latency, on_board: bool) {
        clock.app_down(latency, on_board);
        clock.app_event(latency);
        clock.click_posted(latency, !on_board);
    }

    #[test]
    fn touch_events_are_handled_as_they_arrive_one_after_another() {
        let (a12, mut clock) = android12();
        // Six events back to back with nothing changed on screen: no frame wait at all.
        for _ in 0..6 {
            clock.app_event(&a12);
        }
        assert_eq!(clock.now(), a12.app_event * 6);
        assert!(clock.now() < a12.frame);
    }

    #[test]
    fn a_redraw_due_at_the_next_vsync_delays_the_events_that_arrive_during_it() {
        let (a12, mut clock) = android12();
        clock.app_event(&a12);
        clock.screen_changed(&a12);
        clock.screen_changed(&a12);
        // Before the vsync: handled at once, the pending redraw covers this change too.
        assert_eq!(clock.app_event(&a12), a12.app_event * 2);
        // Arriving 1 ms after the vsync, while the app draws: handled when the draw is done.
        clock.advance(a12.frame - clock.now() + Duration::from_millis(1));
        let done = clock.app_event(&a12);
        assert_eq!(done, a12.frame + a12.app_draw + a12.app_event);
        // The redraw is done: the next event waits for nothing.
        let before = clock.now();
        assert_eq!(clock.app_event(&a12), before + a12.app_event);
    }

    #[test]
    fn a_board_touch_before_a_buttons_click_ran_is_counted_as_overtaking() {
        let (a12, mut clock) = android12();
        // A key: its click waits for the vsync's traversal.
        tap(&mut clock, &a12, false);
        // At once on the board, which acts on the touch itself.
        tap(&mut clock, &a12, true);
        assert_eq!(clock.overtaken(), 1);
        // One frame and a redraw later the key's click has run.
        clock.advance(a12.frame + a12.app_draw);
        clock.app_down(&a12, true);
        assert_eq!(clock.overtaken(), 1);
        let instant = Latency::default();
        let mut fast = VirtualClock::default();
        for _ in 0..3 {
            fast.app_down(&instant, true);
            fast.click_posted(&instant, true);
        }
        assert_eq!(fast.overtaken(), 0);
    }

    #[test]
    fn touches_right_after_a_board_tap_or_on_another_button_overtake_nothing() {
        let (a12, mut clock) = android12();
        // Board then key at once: the board acted in onTouchEvent, nothing was pending.
        tap(&mut clock, &a12, true);
        tap(&mut clock, &a12, false);
        // Key then another key at once: the second click is posted behind the first.
        tap(&mut clock, &a12, false);
        assert_eq!(clock.overtaken(), 0);
    }

    #[test]
    fn a_batched_move_waits_for_the_next_vsync() {
        let (a12, mut clock) = android12();
        clock.advance(Duration::from_millis(3));
        assert_eq!(clock.app_batched_event(&a12), a12.frame + a12.app_event);
    }

    #[test]
    fn instant_preset_never_moves_the_clock_for_taps() {
        let instant = Latency::default();
        let mut clock = VirtualClock::default();
        for _ in 0..10 {
            clock.app_event(&instant);
            clock.screen_changed(&instant);
            clock.app_batched_event(&instant);
        }
        assert_eq!(clock.now(), Duration::ZERO);
    }
}
