//! `AdbDevice`: the `Device` for a real phone, built on the server, what the phone is
//! (`phone_info`), its input method (`input_choice`, `injector`) and the shell.

use super::deadline::adb_timeout;
use super::injector::{InjectError, Injector};
use super::input_choice::{self, EVDEV_MAX_SDK, choose_method, writable_touchscreen};
use super::phone_info::{PhoneInfo, read_phone_info};
use super::server::AdbServerGone;
use super::server::{AdbOptions, AdbServer, choose_device};
use super::shell::{
    LineRefused, ShellOutput, ShellSession, run_shell, run_shell_within, shell_bytes, short,
};
use super::stats::AdbStats;
use crate::device::error::{Refusal, TapsRefused};
use crate::device::protocol::input::{self, EncodeError, EvdevTarget, InputMethod};
use crate::device::protocol::input_kind::InputKind;
use crate::device::protocol::pacing::{self, Pacing};
use crate::device::protocol::{foreground, injector, parse, refusal, screen_state};
use crate::device::{Device, Key, ScreenState};
use crate::geometry::{Point, Rect, Size};
use anyhow::{Context, Result, anyhow, bail};
use image::RgbaImage;
use std::time::Duration;

/// Screenshot transfer format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScreenshotMode {
    /// `screencap` raw pixels (no PNG encoding on the phone): fast.
    Raw,
    /// `screencap -p`: slower, for phones whose raw output we cannot read.
    Png,
}

/// A phone through the adb server.
pub struct AdbDevice {
    server: AdbServer,
    info: PhoneInfo,
    method: InputMethod,
    pacing: Pacing,
    /// The app's board (`Device::set_board`): where the gap after a tap may be left out.
    board: Option<Rect>,
    /// The last whole raw frame's layout, for cutting rows on the phone (`screenshot_rows`).
    raw_layout: Option<parse::RawLayout>,
    shell: Option<ShellSession>,
    /// The on-device injector's session (`inject` method).
    injector: Option<Injector>,
    /// The method asked for (`None` = auto: falls back when the phone refuses injection).
    asked: Option<InputKind>,
    evdev_writer: EvdevWriter,
    screenshot_mode: ScreenshotMode,
    stats: AdbStats,
}

/// Whether a phone takes injected input ([`AdbDevice::probe_input`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputProbe {
    Accepted,
    /// Android refuses injected input: a phone setting (`protocol::refusal::advice`).
    Refused,
    /// Injection is refused, but the shell may write the touchscreen: raw events work.
    RawEventsOnly,
}

/// How raw touch events reach the node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvdevWriter {
    /// `printf '\ooo..' | dd of=NODE` lines in a long-lived shell: timed on the phone (`sleep`),
    /// each tap acknowledged.
    PrintfLines,
    /// A long-lived `dd of=NODE` fed records, timed by the host; for phones without `printf`.
    RawStream,
}

impl std::fmt::Debug for AdbDevice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdbDevice")
            .field("server", &self.server.addr)
            .field("info", &self.info)
            .field("input", &self.method.kind())
            .field("pacing", &self.pacing)
            .finish()
    }
}

impl AdbDevice {
    /// Opens the phone chosen by `options` and learns what it is (Android version, screen,
    /// rotation, touchscreen) to pick the input method.
    pub fn open(options: &AdbOptions) -> Result<AdbDevice> {
        let server = AdbServer::connect(options)?;
        let wanted = options.serial.clone().or_else(|| {
            std::env::var("ANDROID_SERIAL")
                .ok()
                .filter(|s| !s.is_empty())
        });
        let serial = choose_device(&server.devices()?, wanted.as_deref())?;
        Self::open_serial(server, &serial, options.input)
    }

    /// Opens a device already known by serial on `server`.
    pub fn open_serial(
        server: AdbServer,
        serial: &str,
        input: Option<InputKind>,
    ) -> Result<AdbDevice> {
        let device = server.addr;
        let mut stats = AdbStats::default();
        let info = read_phone_info(device, serial, &mut stats)?;
        let (method, injector) = input_choice::choose(server.addr, &info, input, &mut stats)?;
        let pacing = Pacing::default_for(method.kind());
        let evdev_writer = match &method {
            InputMethod::Evdev(_) => {
                stats.shell_commands += 1;
                match run_shell(device, serial, "printf '\\101\\102'") {
                    Ok(out) if out.status == 0 && out.stdout == b"AB" => EvdevWriter::PrintfLines,
                    _ => EvdevWriter::RawStream,
                }
            }
            _ => EvdevWriter::PrintfLines,
        };
        log::info!(
            "{serial}: {} Android {} (API {}), screen {} rotation {}, input {}",
            info.model,
            info.release,
            info.sdk,
            info.screen(),
            info.rotation.degrees(),
            description(&method, evdev_writer, injector.as_ref())
        );
        Ok(AdbDevice {
            server,
            info,
            method,
            pacing,
            board: None,
            raw_layout: None,
            shell: None,
            injector,
            asked: input,
            evdev_writer,
            screenshot_mode: ScreenshotMode::Raw,
            stats,
        })
    }

    pub fn info(&self) -> &PhoneInfo {
        &self.info
    }

    pub fn input_method(&self) -> &InputMethod {
        &self.method
    }

    pub fn pacing(&self) -> Pacing {
        self.pacing
    }

    pub fn stats(&self) -> AdbStats {
        self.stats
    }

    pub fn server(&self) -> &AdbServer {
        &self.server
    }

    /// Forces the screenshot format (raw by default, falling back to PNG by itself).
    pub fn set_screenshot_mode(&mut self, mode: ScreenshotMode) {
        self.screenshot_mode = mode;
    }

    fn shell(&mut self, command: &str) -> Result<ShellOutput> {
        self.stats.shell_commands += 1;
        run_shell(self.server.addr, &self.info.serial, command)
    }

    /// A tap command line that may take `taps` taps' time on top of the usual deadline.
    fn shell_taps(&mut self, command: &str, taps: usize) -> Result<ShellOutput> {
        self.stats.shell_commands += 1;
        let p = self.pacing;
        let per_tap = Duration::from_millis((p.hold_ms + p.gap_ms + p.settle_ms) as u64);
        let limit = adb_timeout() + per_tap * taps as u32;
        run_shell_within(self.server.addr, &self.info.serial, command, limit)
    }

    /// Runs a binary-output command (no status marker, which would corrupt the bytes).
    fn shell_binary(&mut self, command: &str) -> Result<(Vec<u8>, Vec<u8>)> {
        self.stats.shell_commands += 1;
        shell_bytes(
            self.server.addr,
            &self.info.serial,
            command,
            command,
            adb_timeout(),
        )
    }

    fn screenshot_as(&mut self, mode: ScreenshotMode) -> Result<RgbaImage> {
        let command = match mode {
            ScreenshotMode::Raw => "screencap",
            ScreenshotMode::Png => "screencap -p",
        };
        let (bytes, stderr) = self.shell_binary(command)?;
        let decoded = match mode {
            ScreenshotMode::Raw => parse::raw_screencap(&bytes),
            ScreenshotMode::Png => parse::png_screencap(&bytes),
        };
        if mode == ScreenshotMode::Raw && decoded.is_ok() {
            self.raw_layout = parse::RawLayout::of(&bytes);
        }
        decoded.map_err(|e| {
            let serial = &self.info.serial;
            let why = String::from_utf8_lossy(&stderr)
                .trim()
                .chars()
                .take(200)
                .collect::<String>();
            if bytes.is_empty() && why.is_empty() {
                anyhow!("no screenshot data from {serial}: is it still connected? (`adb devices`)")
            } else if why.is_empty() {
                anyhow!("`{command}` on {serial}: {e}")
            } else {
                anyhow!("`{command}` on {serial}: {e} ({why})")
            }
        })
    }

    /// Sends encoded lines through the long-lived shell, opening it on first use.
    fn run_streamed(&mut self, lines: &[String]) -> Result<()> {
        if self.shell.as_ref().is_some_and(|s| s.is_closed()) {
            self.shell = None;
        }
        if self.shell.is_none() {
            let mut session = ShellSession::open(self.server.addr, &self.info.serial, "sh")?;
            self.stats.sessions += 1;
            if let InputMethod::Evdev(t) = &self.method {
                // Clear a contact left down by an earlier, interrupted run.
                session.run(&[t.write_command(&t.up_frame())], Duration::from_secs(10))?;
            }
            self.shell = Some(session);
        }
        let pacing = self.pacing;
        let per_line =
            Duration::from_millis((pacing.hold_ms + pacing.gap_ms + pacing.settle_ms) as u64)
                + Duration::from_secs(10);
        let session = self.shell.as_mut().expect("opened above");
        self.stats.stream_lines += lines.len() as u64;
        let result = session.run(lines, per_line);
        if result.is_err() {
            self.shell = None;
        }
        result
    }

    /// Taps through a long-lived `dd of=NODE`, timing holds and gaps on the host.
    fn run_raw_stream(&mut self, target: &EvdevTarget, taps: &[Point]) -> Result<()> {
        let writes = target
            .encode_raw_waits(taps, self.pacing.hold_ms, &self.waits(taps))
            .map_err(|e| anyhow!("{e}"))?;
        if self.shell.as_ref().is_some_and(|s| s.is_closed()) {
            self.shell = None;
        }
        if self.shell.is_none() {
            let mut session = ShellSession::open(
                self.server.addr,
                &self.info.serial,
                &target.stream_command(),
            )?;
            self.stats.sessions += 1;
            session.write_raw(&input::event_bytes(&target.up_frame(), target.layout))?;
            self.shell = Some(session);
        }
        let session = self.shell.as_mut().expect("opened above");
        for (i, w) in writes.iter().enumerate() {
            if let Err(e) = session.write_raw(&w.bytes) {
                self.shell = None;
                return Err(e).with_context(|| format!("after {} of {} taps", i / 2, taps.len()));
            }
            self.stats.stream_lines += 1;
            // The settle after the last tap also lets the bytes drain to the phone.
            let wait = if i + 1 == writes.len() {
                w.then_wait_ms.max(RAW_STREAM_DRAIN_MS)
            } else {
                w.then_wait_ms
            };
            std::thread::sleep(Duration::from_millis(wait as u64));
        }
        session.check_alive()
    }
}

/// Least wait after the last raw write before the taps count as delivered (no acknowledgement
/// exists on that path).
const RAW_STREAM_DRAIN_MS: u32 = 30;

impl Device for AdbDevice {
    fn screenshot(&mut self) -> Result<RgbaImage> {
        let shot = self.screenshot_now();
        self.checked(shot)
    }

    fn screenshot_rows(&mut self, rows: std::ops::Range<u32>) -> Result<RgbaImage> {
        let shot = self.screenshot_rows_now(rows);
        self.checked(shot)
    }

    fn screen_size(&mut self) -> Result<Size> {
        Ok(match &self.method {
            InputMethod::Evdev(t) => t.screen,
            _ => self.info.screen(),
        })
    }

    fn tap_all(&mut self, taps: &[Point]) -> Result<()> {
        if taps.is_empty() {
            return Ok(());
        }
        let tapped = self.tap_all_with_method(taps);
        self.checked(tapped)
    }

    fn input(&self) -> crate::device::Input {
        crate::device::Input::Method(self.method.kind())
    }

    fn tap_cost(&self, pacing: &Pacing) -> std::time::Duration {
        self.input().tap_cost_on(pacing, Some(self.info.sdk))
    }

    fn input_description(&self) -> String {
        description(&self.method, self.evdev_writer, self.injector.as_ref())
    }

    fn pacing(&self) -> Option<Pacing> {
        Some(self.pacing)
    }

    fn set_pacing(&mut self, pacing: Pacing) {
        self.pacing = pacing;
    }

    fn set_board(&mut self, board: Option<Rect>) {
        self.board = board;
    }

    fn foreground_app(&mut self) -> Result<Option<String>> {
        let app = self.foreground_app_now();
        self.checked(app)
    }

    /// `dumpsys power` and `dumpsys window policy` in one round trip.
    fn screen_state(&mut self) -> Result<ScreenState> {
        let state = self
            .shell(screen_state::COMMAND)
            .map(|out| screen_state::from_output(&out.text()));
        self.checked(state)
    }

    /// `input keyevent KEYCODE_WAKEUP` / `KEYCODE_BACK`. Before API 20 there is no WAKEUP key:
    /// POWER, which toggles the screen, so press `Wakeup` only on a dark screen (as
    /// `device::wake_screen` does).
    fn press_key(&mut self, key: Key) -> Result<()> {
        let code = match key {
            Key::Wakeup if self.info.sdk >= 20 => "KEYCODE_WAKEUP",
            Key::Wakeup => "KEYCODE_POWER",
            Key::Back => "KEYCODE_BACK",
        };
        let pressed = self.key_event(code);
        self.checked(pressed)
    }

    fn serial(&self) -> Option<String> {
        Some(self.info.serial.clone())
    }
}

impl AdbDevice {
    /// `result`, with an error the adb server's death caused blamed on it: when its port now
    /// refuses connections, the one line says so and how to start it, instead of blaming the
    /// phone or the injector.
    fn checked<T>(&self, result: Result<T>) -> Result<T> {
        result.map_err(|e| {
            if e.downcast_ref::<TapsRefused>().is_some() || self.server.answers() {
                e
            } else {
                log::debug!("{}: {e:#}", self.info.serial);
                AdbServerGone {
                    addr: self.server.addr,
                }
                .into()
            }
        })
    }

    /// Android refusing injected input, after `sent` of `total` taps, as the typed error with
    /// the setting for this phone's maker.
    fn refused(&self, sent: usize, total: usize) -> anyhow::Error {
        TapsRefused {
            serial: self.info.serial.clone(),
            sent,
            total,
            why: Refusal::Permission {
                advice: refusal::advice(self.info.maker()),
                first: sent == 0 && self.stats.taps == 0,
            },
        }
        .into()
    }

    fn key_event(&mut self, code: &str) -> Result<()> {
        let out = self.shell(&format!("input keyevent {code}"))?;
        let text = format!("{}{}", out.text(), String::from_utf8_lossy(&out.stderr));
        if refusal::is_input_refusal(&text) {
            return Err(self.refused(0, 1));
        }
        if out.status != 0 {
            bail!(
                "`input keyevent {code}` failed on {} (exit {}): {}",
                self.info.serial,
                out.status,
                out.diagnostics()
            );
        }
        Ok(())
    }

    /// Whether Android takes injected input here, found with `input keyevent 0` (KEYCODE_UNKNOWN:
    /// a key no app acts on, refused exactly as taps are, STFService.apk#144), for `devices`.
    /// Only a refusal counts: any other failure (a build that rejects key 0) reads as accepted,
    /// so the probe never fails a phone. A refusing phone whose shell may write its touchscreen
    /// (Android 9 and older) still plays through raw events.
    pub fn probe_input(&mut self) -> Result<InputProbe> {
        let out = self.shell("input keyevent 0")?;
        let text = format!("{}{}", out.text(), String::from_utf8_lossy(&out.stderr));
        if !refusal::is_input_refusal(&text) {
            return Ok(InputProbe::Accepted);
        }
        if self.info.sdk <= EVDEV_MAX_SDK
            && writable_touchscreen(self.server.addr, &self.info, &mut self.stats)?.is_ok()
        {
            return Ok(InputProbe::RawEventsOnly);
        }
        Ok(InputProbe::Refused)
    }

    fn screenshot_now(&mut self) -> Result<RgbaImage> {
        self.stats.screenshots += 1;
        let img = match self.screenshot_as(self.screenshot_mode) {
            Ok(img) => img,
            Err(raw_err) if self.screenshot_mode == ScreenshotMode::Raw => {
                log::info!("raw screencap failed ({raw_err:#}); trying PNG");
                let img = self
                    .screenshot_as(ScreenshotMode::Png)
                    .map_err(|png_err| anyhow!("{raw_err:#}; PNG fallback: {png_err:#}"))?;
                self.screenshot_mode = ScreenshotMode::Png;
                img
            }
            Err(e) => return Err(e),
        };
        let frame = Size::new(img.width(), img.height());
        if frame != self.info.screen() {
            // Rotated since we read it, or a `wm size` override the frame does not follow: taps
            // are given in the frame's pixels, so the frame is the truth.
            log::info!(
                "{}: screenshot is {frame}, expected {}; re-reading rotation",
                self.info.serial,
                self.info.screen()
            );
            let rotation = self
                .shell("dumpsys window displays")
                .ok()
                .and_then(|o| parse::rotation(&o.text()));
            if let Some(r) = rotation {
                self.info.rotation = r;
            }
            if let InputMethod::Evdev(t) = &mut self.method {
                t.rotation = self.info.rotation;
                t.screen = frame;
            }
        }
        Ok(img)
    }

    /// Only `rows` cross the cable when a whole raw frame was taken before (its layout known):
    /// `screencap | tail -c +N | head -c M` on the phone, the other rows filled in here. A
    /// 1080x2340 frame is 10 MB, most of a raw screenshot's time on USB 2.0; the grid's rows are
    /// under half of it. Anything unexpected falls back to a whole screenshot.
    fn screenshot_rows_now(&mut self, rows: std::ops::Range<u32>) -> Result<RgbaImage> {
        let layout = match &self.raw_layout {
            Some(l) if self.screenshot_mode == ScreenshotMode::Raw => l.clone(),
            _ => return self.screenshot_now(),
        };
        let rows = layout.clamp(rows);
        if rows.is_empty() {
            return self.screenshot_now();
        }
        self.stats.screenshots += 1;
        let command = layout.rows_command(rows.clone());
        let cut = self
            .shell_binary(&command)
            .and_then(|(bytes, _)| Ok(layout.frame_from_rows(rows, &bytes)?));
        match cut {
            Ok(img) => Ok(img),
            Err(e) => {
                log::info!(
                    "{}: `{command}` gave no rows ({e:#}); taking a whole screenshot",
                    self.info.serial
                );
                self.raw_layout = None;
                self.stats.screenshots -= 1;
                self.screenshot_now()
            }
        }
    }

    fn foreground_app_now(&mut self) -> Result<Option<String>> {
        for command in foreground::COMMANDS {
            let text = self.shell(command)?.text();
            if let Some(package) = foreground::focused_package(&text) {
                return Ok(Some(package));
            }
        }
        Ok(None)
    }
}

/// `evdev /dev/input/event1 (protocol B, 24-byte events, printf)`, `stream`, ...
pub fn describe(method: &InputMethod, writer: EvdevWriter) -> String {
    match method {
        InputMethod::Evdev(t) => format!(
            "evdev {} (protocol {}, {}-byte events, {})",
            t.touchscreen.path,
            if t.touchscreen.protocol_b() { "B" } else { "A" },
            t.layout.record_len(),
            match writer {
                EvdevWriter::PrintfLines => "printf",
                EvdevWriter::RawStream => "dd stream",
            }
        ),
        other => other.kind().to_string(),
    }
}

/// [`describe`], with the input manager the injector found: `inject (InputManagerGlobal)`.
fn description(method: &InputMethod, writer: EvdevWriter, injector: Option<&Injector>) -> String {
    match (method, injector) {
        (InputMethod::Inject, Some(i)) => {
            format!("inject ({})", injector::short_manager(i.manager()))
        }
        _ => describe(method, writer),
    }
}

impl AdbDevice {
    /// The wait after each of `taps` with the current pacing and board (`pacing::tap_waits`).
    fn waits(&self, taps: &[Point]) -> Vec<u32> {
        pacing::tap_waits(
            taps,
            &self.pacing,
            self.board,
            self.method.kind().least_gap_ms(),
        )
    }

    /// `tap_all` with the current method (which a refused injection may change on the way).
    fn tap_all_with_method(&mut self, taps: &[Point]) -> Result<()> {
        let screen = self.screen_size()?;
        if let Some(p) = taps
            .iter()
            .find(|p| p.x >= screen.width || p.y >= screen.height)
        {
            bail!(
                "refusing to tap at ({}, {}): outside the {screen} screen of {}",
                p.x,
                p.y,
                self.info.serial
            );
        }
        match (&self.method, self.evdev_writer) {
            (InputMethod::Inject, _) => self.tap_injected(taps)?,
            (InputMethod::Evdev(target), EvdevWriter::RawStream) => {
                let target = (**target).clone();
                self.run_raw_stream(&target, taps)?
            }
            (InputMethod::Tap | InputMethod::Batch, _) => {
                let mut done = 0;
                for line in self
                    .method
                    .encode_waits(taps, self.pacing.hold_ms, &self.waits(taps))
                    .map_err(|e: EncodeError| anyhow!("{e}"))?
                {
                    let out = self.shell_taps(&line, taps.len())?;
                    let text = format!("{}{}", out.text(), String::from_utf8_lossy(&out.stderr));
                    // A batch line is `&&`-joined: its first refused tap ends it.
                    if refusal::is_input_refusal(&text) {
                        return Err(self.refused(done, taps.len()));
                    }
                    if out.status != 0 {
                        bail!(
                            "`{}` failed on {} (exit {}): {}",
                            short(&line),
                            self.info.serial,
                            out.status,
                            out.diagnostics()
                        );
                    }
                    done +=
                        line.matches("input tap ").count() + line.matches("input swipe ").count();
                }
            }
            (InputMethod::Stream | InputMethod::Evdev(_), _) => {
                let lines = self
                    .method
                    .encode_waits(taps, self.pacing.hold_ms, &self.waits(taps))
                    .map_err(|e: EncodeError| anyhow!("{e}"))?;
                // One line per tap: the lines done are the taps done.
                if let Err(e) = self.run_streamed(&lines) {
                    return Err(match e.downcast_ref::<LineRefused>() {
                        Some(r) => {
                            log::debug!("{}: {}", self.info.serial, r.said);
                            self.refused(r.done, taps.len())
                        }
                        None => e,
                    });
                }
            }
        }
        if let InputMethod::Evdev(t) = &mut self.method {
            t.first_tracking_id = t.first_tracking_id.wrapping_add(taps.len() as i32) & 0x7fff_ffff;
        }
        self.stats.taps += taps.len() as u64;
        Ok(())
    }

    /// Taps through the injector, restarting it when its session has ended. When the phone
    /// refuses injection and the method was chosen automatically, says so and continues with the
    /// next method (nothing was injected).
    fn tap_injected(&mut self, taps: &[Point]) -> Result<()> {
        if self.injector.as_ref().is_none_or(Injector::is_closed) {
            self.injector = None;
            let injector = Injector::start(self.server.addr, &self.info.serial, &mut self.stats)
                .with_context(|| format!("restarting the injector on {}", self.info.serial))?;
            self.injector = Some(injector);
        }
        let pacing = self.pacing;
        let per_line =
            Duration::from_millis((pacing.hold_ms + pacing.gap_ms + pacing.settle_ms) as u64)
                + Duration::from_secs(10);
        let waits = self.waits(taps);
        let injector = self.injector.as_mut().expect("started above");
        let lines =
            injector::encode_waits(taps, pacing.hold_ms, &waits, injector.next_sync_token());
        self.stats.stream_lines += lines.len() as u64;
        match injector.run(&lines, per_line) {
            Ok(()) => Ok(()),
            // Under auto, before any tap landed: the next method. Raw events (Android 9 and
            // older) bypass the refusal; `input` and `cmd input` are refused alike, and that
            // refusal is the typed error.
            Err(InjectError::Refused { why, taps_done: 0 }) if self.asked.is_none() => {
                log::debug!("{}: {why}", self.info.serial);
                self.injector = None;
                self.method = choose_method(self.server.addr, &self.info, None, &mut self.stats)?;
                if matches!(self.method, InputMethod::Evdev(_)) {
                    log::warn!(
                        "{}: Android refused injected input; continuing with --input {} (raw touch events, slower). To allow injection, {}",
                        self.info.serial,
                        self.method.kind(),
                        refusal::advice(self.info.maker())
                    );
                }
                self.tap_all_with_method(taps)
            }
            Err(InjectError::Refused { why, taps_done }) => {
                log::debug!("{}: {why}", self.info.serial);
                Err(self.refused(taps_done, taps.len()))
            }
            Err(InjectError::Dropped { why, taps_done }) => Err(TapsRefused {
                serial: self.info.serial.clone(),
                sent: taps_done,
                total: taps.len(),
                why: Refusal::Dropped(why),
            }
            .into()),
            Err(InjectError::Other(e)) => Err(e),
        }
    }
}
