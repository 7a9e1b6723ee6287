//! The Android commands the phone's shell offers hosts: `screencap`, `input` and `cmd input`,
//! `wm`, `getprop`, `getevent`, `dumpsys window` (displays, windows and focus), `dumpsys activity`
//! (the resumed activity) and `sendevent`, answering as Android does.

use super::{CmdResult, Ctx, Flow, Shell};
use crate::geometry::Point;
use crate::handset::{Gone, Handset, InputWriteError, TapSource};
use crate::touch::{self, EvdevEvent};
use std::time::Duration;

impl Shell<'_> {
    pub(super) fn cmd_getprop(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let text = match args.first() {
            None => self.handset.all_props(),
            Some(key) => {
                let value = self
                    .handset
                    .prop(key)
                    .or_else(|| args.get(1).cloned())
                    .unwrap_or_default();
                format!("{value}\n")
            }
        };
        self.out(ctx, &text)?;
        Ok(0)
    }

    pub(super) fn cmd_screencap(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let mut png = false;
        let mut file = None;
        let mut iter = args.iter();
        while let Some(a) = iter.next() {
            match a.as_str() {
                "-p" => png = true,
                "-d" => {
                    iter.next();
                }
                "-h" | "--help" => {
                    self.err(
                        ctx,
                        "usage: screencap [-hp] [-d display-id] [FILENAME]\n   -h: this message\n   -p: save the file as a png.\n   -d: specify the physical display ID to capture\nIf FILENAME ends with .png it will be saved as a png.\nIf FILENAME is not given, the results will be printed to stdout.\n",
                    )?;
                    return Ok(1);
                }
                f => file = Some(f.to_string()),
            }
        }
        if let Some(f) = &file {
            png |= f.ends_with(".png");
        }
        let data = self.handset.screencap(png).map_err(|Gone| Flow::Gone)?;
        match file {
            None => {
                self.write(ctx, 1, &data)?.ok();
                Ok(0)
            }
            Some(path) if Handset::is_writable_path(&path) => {
                self.handset.write_file(&path, &data, false);
                Ok(0)
            }
            Some(path) => {
                self.err(
                    ctx,
                    &format!("Error opening file: {path} (Permission denied)\n"),
                )?;
                Ok(1)
            }
        }
    }

    pub(super) fn cmd_input(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        // `input [<source>] [-d DISPLAY] <command> ...`
        let mut rest = args;
        if let Some(first) = rest.first()
            && INPUT_SOURCES.contains(&first.as_str())
        {
            rest = &rest[1..];
        }
        if rest.first().map(String::as_str) == Some("-d") {
            rest = rest.get(2..).unwrap_or(&[]);
        }
        let Some(command) = rest.first() else {
            self.err(ctx, INPUT_USAGE)?;
            return Ok(1);
        };
        let nums: Vec<Option<f32>> = rest[1..].iter().map(|a| a.parse::<f32>().ok()).collect();
        let point = |i: usize| -> Option<Point> {
            let x = nums.get(i).copied().flatten()?;
            let y = nums.get(i + 1).copied().flatten()?;
            (x >= 0.0 && y >= 0.0).then(|| Point::new(x as u32, y as u32))
        };
        let invalid = |this: &mut Self, ctx: &mut Ctx| -> CmdResult {
            this.err(
                ctx,
                &format!("Error: Invalid arguments for command: {command}\n{INPUT_USAGE}"),
            )?;
            Ok(1)
        };
        let h = self.handset;
        // A phone that refuses injection refuses key events too (counted refusals are taps').
        let touch = matches!(command.as_str(), "tap" | "swipe" | "motionevent");
        if (touch && h.refuse_injected_event()) || (command == "keyevent" && h.injection_refused())
        {
            // What `cmd input` prints for an exception (Android 12+), status 255.
            h.input_command().map_err(|Gone| Flow::Gone)?;
            let refusal = inject_events_refusal(h.latency().sdk);
            self.err(
                ctx,
                &format!("Exception occurred while executing '{command}':\n{refusal}\n"),
            )?;
            return Ok(255);
        }
        match command.as_str() {
            "tap" => {
                let Some(p) = point(0).filter(|_| nums.len() == 2) else {
                    return invalid(self, ctx);
                };
                h.input_command().map_err(|Gone| Flow::Gone)?;
                h.tap(p, TapSource::InputTap).map_err(|Gone| Flow::Gone)?;
                Ok(0)
            }
            "swipe" => {
                let (Some(from), Some(to)) = (point(0), point(2)) else {
                    return invalid(self, ctx);
                };
                let ms = nums.get(4).copied().flatten().unwrap_or(300.0);
                // A swipe longer than a minute is a typo, not a gesture.
                let duration = Duration::try_from_secs_f32(ms / 1000.0)
                    .unwrap_or_default()
                    .min(Duration::from_secs(60));
                h.input_command().map_err(|Gone| Flow::Gone)?;
                h.swipe(from, to, duration).map_err(|Gone| Flow::Gone)?;
                Ok(0)
            }
            "motionevent" => {
                let action = rest.get(1).map(|a| a.to_ascii_uppercase());
                let nums = &nums[1..];
                let p = match (
                    nums.first().copied().flatten(),
                    nums.get(1).copied().flatten(),
                ) {
                    (Some(x), Some(y)) if x >= 0.0 && y >= 0.0 => {
                        Some(Point::new(x as u32, y as u32))
                    }
                    _ => None,
                };
                let (Some(action), Some(p)) = (action, p) else {
                    return invalid(self, ctx);
                };
                if !matches!(action.as_str(), "DOWN" | "UP" | "MOVE" | "CANCEL") {
                    return invalid(self, ctx);
                }
                h.input_command().map_err(|Gone| Flow::Gone)?;
                h.motion(&action, p).map_err(|Gone| Flow::Gone)?;
                Ok(0)
            }
            "keyevent" => {
                let codes: Option<Vec<u32>> = rest[1..]
                    .iter()
                    .filter(|a| !a.starts_with("--"))
                    .map(|a| key_code(a))
                    .collect();
                let Some(codes) = codes.filter(|c| !c.is_empty()) else {
                    return invalid(self, ctx);
                };
                h.input_command().map_err(|Gone| Flow::Gone)?;
                for code in codes {
                    h.key_event(code).map_err(|Gone| Flow::Gone)?;
                }
                Ok(0)
            }
            "text" | "press" | "roll" | "keycombination" => {
                if rest.len() < 2 && command != "press" {
                    return invalid(self, ctx);
                }
                // Accepted and paid for; the sudoku app has no keyboard handling.
                h.input_command().map_err(|Gone| Flow::Gone)?;
                Ok(0)
            }
            _ => {
                self.err(
                    ctx,
                    &format!("Error: Unknown command: {command}\n{INPUT_USAGE}"),
                )?;
                Ok(1)
            }
        }
    }

    pub(super) fn cmd_wm(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let size = self.handset.size();
        match args.first().map(String::as_str) {
            Some("size") if args.len() == 1 => {
                self.out(
                    ctx,
                    &format!("Physical size: {}x{}\n", size.width, size.height),
                )?;
                Ok(0)
            }
            Some("density") if args.len() == 1 => {
                self.out(
                    ctx,
                    &format!("Physical density: {}\n", self.handset.density()),
                )?;
                Ok(0)
            }
            Some("size" | "density") if args.get(1).map(String::as_str) == Some("reset") => Ok(0),
            Some("dismiss-keyguard") => {
                self.handset.dismiss_keyguard();
                Ok(0)
            }
            Some("size" | "density") => {
                self.err(ctx, "Error: the simulated display cannot be resized\n")?;
                Ok(1)
            }
            _ => {
                self.err(ctx, "usage: wm [size|density] ...\n")?;
                Ok(1)
            }
        }
    }

    pub(super) fn cmd_getevent(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let mut labels = false;
        let mut list = false;
        let mut device = None;
        for a in args {
            if let Some(flags) = a.strip_prefix('-') {
                labels |= flags.contains('l');
                list |= flags.contains('p') || flags.contains('i');
            } else {
                device = Some(a.clone());
            }
        }
        if !list {
            // Streaming events would block until the host hangs up; no real finger ever
            // touches the simulated glass, so there is nothing to stream.
            self.err(
                ctx,
                "getevent: the simulated phone has no live events; use -p or -lp\n",
            )?;
            return Ok(1);
        }
        let devices: Vec<_> = touch::input_devices()
            .into_iter()
            .filter(|d| device.as_deref().is_none_or(|p| p == d.path))
            .collect();
        if devices.is_empty() {
            let path = device.unwrap_or_default();
            self.err(
                ctx,
                &format!("could not open {path}, No such file or directory\n"),
            )?;
            return Ok(1);
        }
        let text = touch::getevent_listing(&devices, labels);
        self.out(ctx, &text)?;
        Ok(0)
    }

    pub(super) fn cmd_dumpsys(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let section = args.get(1).map(String::as_str);
        match args.first().map(String::as_str) {
            Some("window") => {
                let h = self.handset;
                let text = match section {
                    Some("displays") => h.dumpsys_window(),
                    Some("windows") => h.dumpsys_windows(),
                    Some("policy") => h.dumpsys_window_policy(),
                    _ => h.dumpsys_window_policy() + &h.dumpsys_window() + &h.dumpsys_windows(),
                };
                self.out(ctx, &text)?;
                Ok(0)
            }
            Some("activity") => {
                self.out(ctx, &self.handset.dumpsys_activities())?;
                Ok(0)
            }
            Some("power") => {
                self.out(ctx, &self.handset.dumpsys_power())?;
                Ok(0)
            }
            Some(service) => {
                self.err(ctx, &format!("Can't find service: {service}\n"))?;
                Ok(0)
            }
            None => {
                self.err(
                    ctx,
                    "dumpsys: the simulated phone only dumps 'window', 'activity' and 'power'\n",
                )?;
                Ok(1)
            }
        }
    }

    pub(super) fn cmd_sendevent(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        if args.len() != 4 {
            self.err(ctx, "usage: sendevent DEVICE TYPE CODE VALUE\n")?;
            return Ok(1);
        }
        let h = self.handset;
        h.sendevent_process().map_err(|Gone| Flow::Gone)?;
        if let Err(e) = h.check_input_writable(&args[0]) {
            self.err(
                ctx,
                &format!("sendevent: {}: {}\n", args[0], e.errno_text()),
            )?;
            return Ok(1);
        }
        // toybox parses with atoi(): decimal only, hex silently becomes 0.
        let ev = EvdevEvent::new(atoi(&args[1]) as u16, atoi(&args[2]) as u16, atoi(&args[3]));
        match h.write_input(&args[0], &ev.to_record()) {
            Ok(()) => Ok(0),
            Err(InputWriteError::Gone) => Err(Flow::Gone),
            Err(e) => {
                self.err(ctx, &format!("sendevent: write: {}\n", e.errno_text()))?;
                Ok(1)
            }
        }
    }
}

const INPUT_SOURCES: &[&str] = &[
    "keyboard",
    "mouse",
    "joystick",
    "touchnavigation",
    "touchpad",
    "trackball",
    "dpad",
    "stylus",
    "gamepad",
    "touchscreen",
    "rotaryencoder",
];

const INPUT_USAGE: &str = "Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n\nThe commands and default sources are:\n      text <string> (Default: touchscreen)\n      keyevent [--longpress|--doubletap] <key code number or name> ... (Default: keyboard)\n      tap <x> <y> (Default: touchscreen)\n      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)\n      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)\n";

/// C `atoi`: optional sign and leading decimal digits; anything else ends the number.
pub(super) fn atoi(s: &str) -> i32 {
    let s = s.trim_start();
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let mut n: i64 = 0;
    for b in digits.bytes().take_while(u8::is_ascii_digit) {
        n = (n * 10 + (b - b'0') as i64).min(i64::from(i32::MAX) + 1);
    }
    let n = if neg { -n } else { n };
    n.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// The SecurityException a phone that refuses injection throws (scrcpy #1865, MIUI).
pub(super) const INJECT_EVENTS_REFUSAL: &str = "java.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission";

/// The SecurityException's text on Android `sdk`: from Android 12 the input manager injects
/// through `injectInputEventToTarget` and words it anew (scrcpy #4900, JankBenchX #6).
pub(super) fn inject_events_refusal(sdk: u32) -> &'static str {
    if sdk >= 31 {
        "java.lang.SecurityException: Injecting input events requires the caller (or the source of the instrumentation, if any) to have the INJECT_EVENTS permission."
    } else {
        INJECT_EVENTS_REFUSAL
    }
}

/// An `input keyevent` argument as a key code: a number, or a `KEYCODE_` name (with or without
/// the prefix, as `input` takes it); a name the sim does not know is KEYCODE_UNKNOWN (0).
fn key_code(arg: &str) -> Option<u32> {
    if let Ok(n) = arg.parse::<u32>() {
        return Some(n);
    }
    let name = arg.strip_prefix("KEYCODE_").unwrap_or(arg);
    let code = match name.to_ascii_uppercase().as_str() {
        "HOME" => 3,
        "BACK" => 4,
        "POWER" => 26,
        "MENU" => 82,
        "SLEEP" => 223,
        "WAKEUP" => 224,
        "ENTER" => 66,
        "APP_SWITCH" => 187,
        // KEYCODE_UNKNOWN: `input` sends it, and nothing happens.
        _ => 0,
    };
    Some(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handset::HandsetConfig;
    use crate::{Latency, Skin, SudokuApp, puzzles};
    use std::sync::{Arc, Mutex};

    /// Runs `command` on a phone showing the app of `skin`; returns stdout.
    fn run_on_app(skin: &str, preset: &str, command: &str) -> String {
        let puzzle = puzzles::parse(puzzles::named("easy").unwrap()).unwrap();
        let app = SudokuApp::new(
            puzzle,
            Skin::named(skin).unwrap(),
            crate::geometry::Size::new(720, 1280),
        )
        .unwrap();
        let config = HandsetConfig {
            latency: Latency::named(preset).unwrap(),
            ..HandsetConfig::default()
        };
        let h = Handset::new(Arc::new(Mutex::new(app)), config);
        let mut io = super::super::tests::TestIo::default();
        Shell::new(&h, &mut io).run(command);
        String::from_utf8_lossy(&io.stdout).into_owned()
    }

    #[test]
    fn dumpsys_names_the_focused_app_by_its_package_per_skin() {
        let windows = run_on_app("light", "android12", "dumpsys window windows");
        assert!(
            windows.contains(
                "  mCurrentFocus=Window{e5f6a7b u0 app.sim.sudoku.classic/.MainActivity}\n"
            ),
            "{windows}"
        );
        assert!(windows.contains("mFocusedApp=ActivityRecord{"), "{windows}");
        assert!(!windows.contains("mCurrentRotation"), "{windows}");
        let all = run_on_app("numfirst", "android9", "dumpsys window");
        assert!(
            all.contains("mCurrentRotation=0")
                && all.contains("u0 app.sim.sudokufree/.MainActivity}"),
            "{all}"
        );
        let displays = run_on_app("numfirst", "android9", "dumpsys window displays");
        assert!(!displays.contains("mCurrentFocus"), "{displays}");
        let old = run_on_app("wood", "android9", "dumpsys activity activities");
        assert!(
            old.contains("    mResumedActivity: ActivityRecord{4d3c2b1 u0 app.sim.sudokuduel/.MainActivity t12}\n")
                && !old.contains("  ResumedActivity:"),
            "{old}"
        );
        let new = run_on_app("dark", "android12", "dumpsys activity activities");
        assert!(
            new.contains("  ResumedActivity: ActivityRecord{4d3c2b1 u0 app.sim.sudoku.night/"),
            "{new}"
        );
    }

    #[test]
    fn every_skin_is_an_app_of_its_own_package() {
        let packages: std::collections::HashSet<&str> = Skin::names()
            .iter()
            .map(|n| Skin::named(n).unwrap().package())
            .collect();
        assert_eq!(packages.len(), Skin::names().len());
    }

    #[test]
    fn atoi_reads_decimal_only_like_toybox() {
        assert_eq!(atoi("57"), 57);
        assert_eq!(atoi("-1"), -1);
        assert_eq!(atoi("0x39"), 0);
        assert_eq!(atoi("ffffffff"), 0);
        assert_eq!(atoi("12abc"), 12);
    }
}
