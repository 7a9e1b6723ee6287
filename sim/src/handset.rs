//! The simulated handset under the shell: the app's `Screen`, the touchscreen decoder, the virtual
//! device clock with its latency preset, a tiny writable file area
//! (`/sdcard`, `/data/local/tmp`), the record of taps and command lines, and the dropped-connection
//! fault. Every path that touches the glass ends in `Handset::deliver`, which hands whole taps in
//! screen pixels to `Screen::tap` in order, each after the app's main thread handled its DOWN and
//! UP (`VirtualClock::app_event`: events are handled as they arrive, not once per frame). The
//! phone's own habits, read from the screen (`Screen::phone_habits`), live here too: the screen
//! on or off and the keyguard (`power`), frames that trail the input, refused injection. What its
//! system services answer (properties, `dumpsys`) is in `services`.

use super::Screen;
use super::habits::{PhoneHabits, Refusal};
use super::latency::{Latency, VirtualClock};
use super::touch::{self, EvdevEvent, MotionPointer, RECORD_SIZE, TouchReader};
use crate::geometry::{Point, Size};
use image::RgbaImage;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod services;

/// The device vanished (dropped-connection fault): no more work is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gone;

/// How a tap reached the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TapSource {
    /// `input tap` / `cmd input tap`.
    InputTap,
    /// `input swipe` that stayed within the touch slop.
    Swipe,
    /// `input motionevent DOWN` ... `UP`.
    MotionEvent,
    /// Touchscreen events from `sendevent` or raw writes to `/dev/input/eventN`.
    RawEvents,
    /// MotionEvents injected through the input manager by a program run with `app_process`.
    Injected,
}

/// One tap as the app received it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TapRecord {
    pub at: Point,
    /// Virtual device time when the app handled it.
    pub time: Duration,
    pub source: TapSource,
}

/// Why a write to `/dev/input/eventN` failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputWriteError {
    /// SELinux forbids the shell user to write input devices (Android 10+).
    PermissionDenied,
    NoSuchDevice,
    /// Fewer bytes than one whole `input_event` record (`evdev_write` returns EINVAL).
    InvalidArgument,
    Gone,
}

impl InputWriteError {
    /// The errno text a phone's tools print.
    pub fn errno_text(self) -> &'static str {
        match self {
            InputWriteError::PermissionDenied => "Permission denied",
            InputWriteError::NoSuchDevice => "No such file or directory",
            InputWriteError::InvalidArgument => "Invalid argument",
            InputWriteError::Gone => "No such device",
        }
    }
}

/// What the handset is configured with.
#[derive(Debug, Clone, Default)]
pub struct HandsetConfig {
    pub latency: Latency,
    /// Sleep for real as the virtual clock advances.
    pub realtime: bool,
    /// Drop every connection when command line number N+1 arrives (and stay gone).
    pub drop_after: Option<u64>,
}

/// Everything that changes, behind one lock.
struct HandsetState {
    clock: VirtualClock,
    touch: TouchReader,
    pointer: MotionPointer,
    taps: Vec<TapRecord>,
    log: Vec<String>,
    files: HashMap<String, Vec<u8>>,
    /// Bumped whenever the screen may have changed; keys the frame cache.
    generation: u64,
    /// The screen is on (`screen-off` starts it off).
    awake: bool,
    /// The keyguard shows (`lock-screen`).
    locked: bool,
    /// Injected input events so far (`input-refused=N` refuses the Nth).
    injected: u64,
    /// With `lag`: the frames shown since the oldest one a capture may still return, each from
    /// the time it appeared (see [`HandsetState::shown_clock`]).
    shown: Vec<(Duration, Arc<RgbaImage>)>,
    /// When the handset started: a lag elapses with the wall clock too.
    started: std::time::Instant,
}

impl HandsetState {
    /// The time frames are shown by with `lag`: the device clock, or the wall clock since the
    /// start when that is ahead. A phone's frames catch up while the caller waits; on the
    /// `instant` preset the device clock moves only with taps, so a lag that followed it alone
    /// never elapsed while the agent looked again.
    fn shown_clock(&self) -> Duration {
        self.clock.now().max(self.started.elapsed())
    }
}

/// The last rendered frame and its PNG encoding, reused while nothing changed.
#[derive(Default)]
struct FrameCache {
    generation: Option<u64>,
    raw: Option<Arc<RgbaImage>>,
    png: Option<Arc<Vec<u8>>>,
}

type Vanish = Box<dyn Fn() + Send + Sync>;

pub struct Handset {
    config: HandsetConfig,
    screen: Arc<Mutex<dyn Screen>>,
    size: Size,
    density: u32,
    state: Mutex<HandsetState>,
    frame: Mutex<FrameCache>,
    gone: AtomicBool,
    on_vanish: Mutex<Option<Vanish>>,
    /// Old toolboxes had no `printf`; the shell then answers "not found" for it.
    no_printf: AtomicBool,
    /// Injection refused for the shell user (Xiaomi/MIUI without "USB debugging (Security
    /// settings)"): `input` and injected MotionEvents throw a SecurityException.
    injection_refused: AtomicBool,
    /// The phone's habits, read from the screen at the start.
    habits: PhoneHabits,
}

impl Handset {
    pub fn new(screen: Arc<Mutex<dyn Screen>>, config: HandsetConfig) -> Handset {
        let (size, habits) = {
            let s = screen.lock().unwrap();
            (s.size(), s.phone_habits())
        };
        let density = density_for(size);
        let slop = touch_slop(density);
        let handset = Handset {
            config,
            screen,
            size,
            density,
            state: Mutex::new(HandsetState {
                clock: VirtualClock::default(),
                touch: TouchReader::new(size, slop),
                pointer: MotionPointer::default(),
                taps: Vec::new(),
                log: Vec::new(),
                files: HashMap::new(),
                generation: 0,
                awake: !habits.screen_off,
                locked: habits.lock_screen,
                injected: 0,
                shown: Vec::new(),
                started: std::time::Instant::now(),
            }),
            frame: Mutex::new(FrameCache::default()),
            gone: AtomicBool::new(false),
            on_vanish: Mutex::new(None),
            no_printf: AtomicBool::new(false),
            injection_refused: AtomicBool::new(habits.input_refused == Some(Refusal::Every)),
            habits,
        };
        handset.record_shown();
        handset
    }

    /// Whether the phone refuses this injected input event (counted): every one while
    /// injection is refused, or only the Nth with `input-refused=N`.
    pub fn refuse_injected_event(&self) -> bool {
        let n = {
            let mut st = self.state.lock().unwrap();
            st.injected += 1;
            st.injected
        };
        self.injection_refused() || self.habits.input_refused == Some(Refusal::Nth(n))
    }

    /// Takes `printf` away from the shell (or gives it back), as on phones whose toolbox lacks
    /// it, so the device layer's fallback can be tested.
    pub fn set_printf(&self, available: bool) {
        self.no_printf.store(!available, Ordering::SeqCst);
    }

    /// Whether the shell has `printf`.
    /// Makes the phone refuse input injection like MIUI without "USB debugging (Security
    /// settings)" (raw `/dev/input` writes are not affected).
    pub fn set_injection_refused(&self, refused: bool) {
        self.injection_refused.store(refused, Ordering::SeqCst);
    }

    pub fn injection_refused(&self) -> bool {
        self.injection_refused.load(Ordering::SeqCst)
    }

    pub fn has_printf(&self) -> bool {
        !self.no_printf.load(Ordering::SeqCst)
    }

    /// Called once when the dropped-connection fault fires (the server closes the port).
    pub fn set_on_vanish(&self, f: impl Fn() + Send + Sync + 'static) {
        *self.on_vanish.lock().unwrap() = Some(Box::new(f));
    }

    /// Whether the device really sleeps for its modelled costs.
    pub fn realtime(&self) -> bool {
        self.config.realtime
    }

    pub fn latency(&self) -> &Latency {
        &self.config.latency
    }

    pub fn size(&self) -> Size {
        self.size
    }

    pub fn density(&self) -> u32 {
        self.density
    }

    pub fn is_gone(&self) -> bool {
        self.gone.load(Ordering::SeqCst)
    }

    fn check(&self) -> Result<(), Gone> {
        if self.is_gone() { Err(Gone) } else { Ok(()) }
    }

    /// Virtual device time since start.
    pub fn clock(&self) -> Duration {
        self.state.lock().unwrap().clock.now()
    }

    /// Every tap the app received, in order.
    pub fn taps(&self) -> Vec<TapRecord> {
        self.state.lock().unwrap().taps.clone()
    }

    /// Every command line run, in order.
    pub fn command_log(&self) -> Vec<String> {
        self.state.lock().unwrap().log.clone()
    }

    /// Marks the screen as changed by something outside the device (a test flipping a fault).
    pub fn invalidate_frame(&self) {
        self.state.lock().unwrap().generation += 1;
    }

    /// Records one command line; fires the dropped-connection fault when its turn has come.
    pub fn begin_command_line(&self, text: &str) -> Result<(), Gone> {
        self.check()?;
        let count = {
            let mut st = self.state.lock().unwrap();
            st.log.push(text.to_string());
            st.log.len() as u64
        };
        if self.config.drop_after.is_some_and(|n| count > n) {
            self.vanish();
            return Err(Gone);
        }
        Ok(())
    }

    /// The device disappears: every connection drops and the port closes.
    pub fn vanish(&self) {
        if !self.gone.swap(true, Ordering::SeqCst)
            && let Some(f) = self.on_vanish.lock().unwrap().as_ref()
        {
            f();
        }
    }

    /// Spends `cost` of device time (and real time with `--realtime`).
    fn spend(&self, cost: Duration) {
        if cost.is_zero() {
            return;
        }
        self.state.lock().unwrap().clock.advance(cost);
        if self.config.realtime {
            std::thread::sleep(cost);
        }
    }

    /// `sleep S` in the shell.
    pub fn sleep(&self, d: Duration) {
        self.spend(d);
    }

    /// The start-up cost of one `input` / `cmd input` process.
    pub fn input_command(&self) -> Result<(), Gone> {
        self.check()?;
        self.spend(self.config.latency.input_command);
        Ok(())
    }

    /// The cost of one `sendevent` process.
    pub fn sendevent_process(&self) -> Result<(), Gone> {
        self.check()?;
        self.spend(self.config.latency.sendevent);
        Ok(())
    }

    /// Hands one whole tap (its DOWN and UP) to the app.
    pub fn tap(&self, at: Point, source: TapSource) -> Result<(), Gone> {
        self.check()?;
        {
            let mut st = self.state.lock().unwrap();
            self.app_down(&mut st, at);
            self.deliver(&mut st, at, source);
        }
        self.record_shown();
        Ok(())
    }

    /// Taps on a view that acts on touches itself (the board) whose DOWN reached the app before a
    /// button's click ran: on a phone they would be taken out of order (`latency` module doc).
    pub fn overtaken(&self) -> u64 {
        self.state.lock().unwrap().clock.overtaken()
    }

    /// The app's main thread handles one touch event arriving now (the sender waits for it).
    fn app_event(&self, st: &mut HandsetState) {
        let before = st.clock.now();
        let done = st.clock.app_event(&self.config.latency);
        self.sleep_realtime(done - before);
    }

    /// [`Self::app_event`] for a DOWN at `at`, which may overtake a button's pending click.
    fn app_down(&self, st: &mut HandsetState, at: Point) {
        let acts_at_once = self.screen.lock().unwrap().acts_on_touch(at);
        let before = st.clock.now();
        let done = st.clock.app_down(&self.config.latency, acts_at_once);
        self.sleep_realtime(done - before);
    }

    /// The app handles the UP that completes a tap at `at`; a button posts its click, which runs
    /// after the redraw at the next vsync. The sim's apps take the tap at once, in order.
    fn deliver(&self, st: &mut HandsetState, at: Point, source: TapSource) {
        self.app_event(st);
        let time = st.clock.now();
        st.taps.push(TapRecord { at, time, source });
        st.generation += 1;
        let mut deferred = true;
        // A dark screen or the keyguard takes the touch; the app never sees it.
        let reaches_app = st.awake && !st.locked;
        if reaches_app && at.x < self.size.width && at.y < self.size.height {
            let mut screen = self.screen.lock().unwrap();
            screen.advance_clock(time);
            deferred = !screen.acts_on_touch(at);
            screen.tap(at);
        }
        // `screen-off-after=N`: the screen times out once, right after the Nth tap.
        if self.habits.screen_off_after.map(|n| n as usize) == Some(st.taps.len()) {
            st.awake = false;
        }
        st.clock.click_posted(&self.config.latency, deferred);
    }

    fn sleep_realtime(&self, d: Duration) {
        if self.config.realtime && !d.is_zero() {
            std::thread::sleep(d);
        }
    }

    /// `input swipe`: a tap when it stays within the touch slop, else a drag the grid ignores.
    pub fn swipe(&self, from: Point, to: Point, duration: Duration) -> Result<(), Gone> {
        self.check()?;
        self.spend(duration);
        // A swipe up over a quarter of the screen dismisses an insecure keyguard.
        if self.locked() && to.y + self.size.height / 4 < from.y {
            self.dismiss_keyguard();
            return Ok(());
        }
        let mut pointer = MotionPointer::default();
        pointer.down(from);
        if let Some(at) = pointer.up(to, touch_slop(self.density)) {
            self.tap(at, TapSource::Swipe)?;
        }
        Ok(())
    }

    /// `input motionevent ACTION X Y`.
    pub fn motion(&self, action: &str, at: Point) -> Result<(), Gone> {
        self.motion_from(action, at, TapSource::MotionEvent)
    }

    fn motion_from(&self, action: &str, at: Point, source: TapSource) -> Result<(), Gone> {
        self.check()?;
        let slop = touch_slop(self.density);
        let mut st = self.state.lock().unwrap();
        match action {
            "DOWN" => {
                self.app_down(&mut st, at);
                st.pointer.down(at);
            }
            "MOVE" => {
                let before = st.clock.now();
                let done = st.clock.app_batched_event(&self.config.latency);
                self.sleep_realtime(done - before);
                st.pointer.move_to(at, slop);
            }
            "UP" => match st.pointer.up(at, slop) {
                Some(p) => self.deliver(&mut st, p, source),
                None => self.app_event(&mut st),
            },
            _ => {
                self.app_event(&mut st);
                st.pointer.cancel();
            }
        }
        drop(st);
        self.record_shown();
        Ok(())
    }

    /// Starting a JVM with `app_process`.
    pub fn app_process_start(&self) -> Result<(), Gone> {
        self.check()?;
        self.spend(self.config.latency.app_process_start);
        Ok(())
    }

    /// One MotionEvent (`DOWN`, `MOVE`, `UP`, `CANCEL`) injected through the input manager: half
    /// the preset's injected-tap cost, since a tap is two events.
    pub fn inject_motion(&self, action: &str, at: Point) -> Result<(), Gone> {
        self.check()?;
        self.spend(self.config.latency.injected_tap / 2);
        self.motion_from(action, at, TapSource::Injected)
    }

    /// Whether the shell user may open `path` for writing.
    pub fn check_input_writable(&self, path: &str) -> Result<(), InputWriteError> {
        if !touch::input_devices().iter().any(|d| d.path == path) {
            // /dev is not writable for the shell user either.
            return Err(if self.config.latency.raw_input_writable {
                InputWriteError::NoSuchDevice
            } else {
                InputWriteError::PermissionDenied
            });
        }
        if !self.config.latency.raw_input_writable {
            return Err(InputWriteError::PermissionDenied);
        }
        Ok(())
    }

    /// One `write()` to an input device: whole 24-byte records are taken (a trailing partial
    /// record fails with EINVAL, as `evdev_write` does for the retried tail); events on the
    /// touchscreen go through the touch decoder.
    pub fn write_input(&self, path: &str, data: &[u8]) -> Result<(), InputWriteError> {
        if self.is_gone() {
            return Err(InputWriteError::Gone);
        }
        self.check_input_writable(path)?;
        if data.len() < RECORD_SIZE {
            return Err(InputWriteError::InvalidArgument);
        }
        let whole = data.len() / RECORD_SIZE * RECORD_SIZE;
        if path == touch::TOUCHSCREEN {
            let mut st = self.state.lock().unwrap();
            for record in data[..whole].chunks_exact(RECORD_SIZE) {
                let ev = EvdevEvent::from_record(record.try_into().unwrap());
                for at in st.touch.feed(ev) {
                    // The DOWN and UP of a tap from raw events, handled one after the other.
                    self.app_down(&mut st, at);
                    self.deliver(&mut st, at, TapSource::RawEvents);
                }
            }
        }
        self.record_shown();
        if whole < data.len() {
            return Err(InputWriteError::InvalidArgument);
        }
        Ok(())
    }

    /// The current frame, rendered only when something changed since the last one.
    pub fn frame(&self) -> Arc<RgbaImage> {
        // The app's animations follow the device clock: a frame mid-animation is drawn afresh.
        let now = self.clock();
        if self.screen.lock().unwrap().advance_clock(now) {
            self.invalidate_frame();
        }
        let generation = self.state.lock().unwrap().generation;
        let mut cache = self.frame.lock().unwrap();
        if cache.generation != Some(generation) || cache.raw.is_none() {
            let img = self.screen.lock().unwrap().render();
            *cache = FrameCache {
                generation: Some(generation),
                raw: Some(Arc::new(img)),
                png: None,
            };
        }
        cache.raw.clone().expect("frame rendered above")
    }

    fn frame_png(&self) -> Arc<Vec<u8>> {
        let raw = self.frame();
        let mut cache = self.frame.lock().unwrap();
        if let (Some(png), Some(cached)) = (&cache.png, &cache.raw)
            && Arc::ptr_eq(cached, &raw)
        {
            return png.clone();
        }
        let png = Arc::new(encode_png(&raw));
        if cache.raw.as_ref().is_some_and(|c| Arc::ptr_eq(c, &raw)) {
            cache.png = Some(png.clone());
        }
        png
    }

    /// `screencap -p` (PNG) or raw `screencap` (16-byte header + RGBA rows), with its cost.
    /// Only the phone's own part is charged here; the bytes' transfer is charged as they leave
    /// the phone ([`Handset::send_to_host`]).
    pub fn screencap(&self, png: bool) -> Result<Vec<u8>, Gone> {
        self.check()?;
        let pixels = self.size.width as u64 * self.size.height as u64;
        self.spend(self.config.latency.capture(pixels, png));
        let Some(frame) = self.seen_frame() else {
            if png {
                return Ok(self.frame_png().as_ref().clone());
            }
            return Ok(raw_screencap(&self.frame()));
        };
        if png {
            return Ok(encode_png(&frame));
        }
        Ok(raw_screencap(&frame))
    }

    /// A frame other than the app's current one when the phone shows something else: black
    /// while the screen is off, the keyguard while it is locked, an older frame with `lag`.
    fn seen_frame(&self) -> Option<Arc<RgbaImage>> {
        let (awake, locked) = {
            let st = self.state.lock().unwrap();
            (st.awake, st.locked)
        };
        if !awake {
            let black = image::Rgba([0, 0, 0, 255]);
            let (w, h) = (self.size.width, self.size.height);
            return Some(Arc::new(RgbaImage::from_pixel(w, h, black)));
        }
        if locked {
            return Some(Arc::new(crate::render::keyguard(self.size)));
        }
        let lag = self.habits.lag?;
        self.record_shown();
        let mut st = self.state.lock().unwrap();
        let seen_at = st.shown_clock().saturating_sub(lag);
        // The last frame shown at or before `seen_at` (the first one if none was yet).
        let i = st
            .shown
            .iter()
            .rposition(|(t, _)| *t <= seen_at)
            .unwrap_or(0);
        st.shown.drain(..i);
        st.shown.first().map(|(_, f)| f.clone())
    }

    /// With `lag`: notes the app's current frame as shown from now, when it changed.
    fn record_shown(&self) {
        if self.habits.lag.is_none() {
            return;
        }
        let frame = self.frame();
        let mut st = self.state.lock().unwrap();
        let now = st.shown_clock();
        if st.shown.last().is_none_or(|(_, f)| !Arc::ptr_eq(f, &frame)) {
            st.shown.push((now, frame));
        }
    }

    /// The screen is on (`dumpsys power`: Awake).
    pub fn awake(&self) -> bool {
        self.state.lock().unwrap().awake
    }

    /// The keyguard shows.
    pub fn locked(&self) -> bool {
        self.state.lock().unwrap().locked
    }

    /// `wm dismiss-keyguard`, `input keyevent KEYCODE_MENU` or a swipe up on an insecure
    /// keyguard: it goes (only while the screen is on).
    pub fn dismiss_keyguard(&self) {
        let mut st = self.state.lock().unwrap();
        if st.awake {
            st.locked = false;
            st.generation += 1;
        }
    }

    /// One key event (`input keyevent`): the power keys wake or sleep the screen, MENU
    /// dismisses an insecure keyguard, the rest go to the app in front while it can be seen.
    pub fn key_event(&self, code: u32) -> Result<(), Gone> {
        self.check()?;
        let mut st = self.state.lock().unwrap();
        st.generation += 1;
        match code {
            KEYCODE_WAKEUP => st.awake = true,
            KEYCODE_SLEEP => st.awake = false,
            KEYCODE_POWER => st.awake = !st.awake,
            KEYCODE_MENU if st.awake && st.locked => st.locked = false,
            _ if st.awake && !st.locked => {
                let now = st.clock.now();
                let mut screen = self.screen.lock().unwrap();
                screen.advance_clock(now);
                screen.key_event(code);
            }
            _ => {}
        }
        drop(st);
        self.record_shown();
        Ok(())
    }

    /// Output of `len` bytes leaving the phone for the host (the transfer over the cable).
    pub fn send_to_host(&self, len: usize) {
        self.spend(self.config.latency.transfer(len as u64));
    }

    /// The `framebuffer:` service reply: v2 header (RGBA offsets as adb_client expects) + pixels.
    pub fn framebuffer(&self) -> Result<Vec<u8>, Gone> {
        self.check()?;
        let pixels = self.size.width as u64 * self.size.height as u64;
        self.spend(self.config.latency.screencap(pixels, false));
        let frame = self.seen_frame().unwrap_or_else(|| self.frame());
        let data = frame.as_raw();
        let mut out = Vec::with_capacity(56 + data.len());
        #[rustfmt::skip]
        let header = [
            2, 32, 1, data.len() as u32, frame.width(), frame.height(),
            0, 8, 16, 8, 8, 8, 24, 8,
        ];
        for word in header {
            out.extend_from_slice(&u32::to_le_bytes(word));
        }
        out.extend_from_slice(data);
        Ok(out)
    }

    /// Paths the shell user can create files in.
    pub fn is_writable_path(path: &str) -> bool {
        ["/sdcard/", "/data/local/tmp/", "/storage/emulated/0/"]
            .iter()
            .any(|dir| path.starts_with(dir) && path.len() > dir.len())
    }

    pub fn write_file(&self, path: &str, data: &[u8], append: bool) {
        let mut st = self.state.lock().unwrap();
        let file = st.files.entry(path.to_string()).or_default();
        if !append {
            file.clear();
        }
        file.extend_from_slice(data);
    }

    pub fn read_file(&self, path: &str) -> Option<Vec<u8>> {
        self.state.lock().unwrap().files.get(path).cloned()
    }
}

/// Android key codes the handset acts on itself (`KeyEvent.KEYCODE_*`).
pub const KEYCODE_POWER: u32 = 26;
pub const KEYCODE_MENU: u32 = 82;
pub const KEYCODE_SLEEP: u32 = 223;
pub const KEYCODE_WAKEUP: u32 = 224;

/// Raw `screencap` output: a 16-byte header and the RGBA rows.
fn raw_screencap(frame: &RgbaImage) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + frame.as_raw().len());
    // width, height, format 1 = RGBA_8888, colour space 1 = sRGB (header v2, Android 8.1+).
    for word in [frame.width(), frame.height(), 1, 1] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(frame.as_raw());
    out
}

/// Typical densities for the common widths (720 -> xhdpi 320, 1080 -> 440, 1440 -> 560).
fn density_for(size: Size) -> u32 {
    match size.width {
        720 => 320,
        1080 => 440,
        1440 => 560,
        w => (w * 440 / 1080).max(120),
    }
}

/// Android's touch slop: 8 dp.
fn touch_slop(density: u32) -> u32 {
    (8 * density).div_ceil(160)
}

/// PNG with fast compression, as `screencap -p` writes an RGBA PNG.
pub fn encode_png(img: &RgbaImage) -> Vec<u8> {
    use image::ImageEncoder;
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let mut out = Vec::new();
    let encoder =
        PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Adaptive);
    encoder
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgba8,
        )
        .expect("encoding a PNG into memory cannot fail");
    out
}

#[cfg(test)]
mod tests;
#[cfg(test)]
pub(crate) use tests::test_screen;
