//! `app_process` on the simulated phone. Like the real command it takes `[VM options] PARENT_DIR
//! CLASS [args]`, looks CLASS up in the dex files named by `CLASSPATH` and runs its `main`. The one
//! program the simulated phone can run is sudoku-agent's touch injector (`injector/`), recognised by
//! the class its pushed dex defines. Its line protocol (`injector/README.md`) is spoken by this
//! file's own code, never the agent's, so the two sides are checked against each other, and its
//! taps reach the app through the input-manager path (`TapSource::Injected`) with the preset's
//! JVM start and per-event costs. Which input manager the program reports follows the preset's
//! Android version (`InputManagerGlobal` from 14).

use super::android::INJECT_EVENTS_REFUSAL;
use super::{CmdResult, Ctx, Flow, Shell, Stdin};
use crate::geometry::Point;
use crate::handset::Gone;
use std::time::Duration;

/// The injector's main class, as `app_process` is given it.
const INJECTOR_CLASS: &str = "sudokuagent.Injector";

/// The injector's state between lines: where the finger is, when one is down.
type Touch = Option<Point>;

impl Shell<'_> {
    pub(super) fn cmd_app_process(&mut self, args: &[String], ctx: &mut Ctx) -> CmdResult {
        let mut rest = args.iter().skip_while(|a| a.starts_with('-'));
        let (Some(_parent_dir), Some(class)) = (rest.next(), rest.next()) else {
            self.err(
                ctx,
                "Usage: app_process [java-options] cmd-dir start-class-name [options]\n",
            )?;
            return Ok(1);
        };
        let classpath = ctx
            .env
            .iter()
            .rev()
            .find(|(k, _)| k == "CLASSPATH")
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        self.handset
            .app_process_start()
            .map_err(|Gone| Flow::Gone)?;
        let found = classpath.split(':').filter(|p| !p.is_empty()).any(|path| {
            self.handset
                .read_file(path)
                .is_some_and(|dex| defines_class(&dex, class))
        });
        if !found {
            // What the runtime prints for a main class it cannot load.
            self.err(
                ctx,
                &format!(
                    "Exception in thread \"main\" java.lang.ClassNotFoundException: Didn't find class \"{class}\" on path: DexPathList[[dex file \"{classpath}\"],nativeLibraryDirectories=[/system/lib64, /system/lib64]]\n"
                ),
            )?;
            return Ok(1);
        }
        if class != INJECTOR_CLASS {
            self.err(
                ctx,
                &format!(
                    "app_process: the simulated phone runs no Java program but {INJECTOR_CLASS}, not {class}\n"
                ),
            )?;
            return Ok(1);
        }
        self.run_injector(ctx)
    }

    fn run_injector(&mut self, ctx: &mut Ctx) -> CmdResult {
        let manager = if self.handset.latency().input_manager_global {
            "android.hardware.input.InputManagerGlobal"
        } else {
            "android.hardware.input.InputManager"
        };
        self.out(ctx, &format!("ready 1 {manager}\n"))?;
        let mut touch: Touch = None;
        while let Some(line) = self.read_command_line(ctx) {
            let answer = self.injector_answer(line.trim(), &mut touch)?;
            self.out(ctx, &format!("{answer}\n"))?;
            if answer.starts_with("refused ") {
                return Ok(2);
            }
        }
        // Stdin closed with a finger down: the injector cancels the gesture.
        if let Some(at) = touch {
            self.handset
                .inject_motion("CANCEL", at)
                .map_err(|Gone| Flow::Gone)?;
        }
        Ok(0)
    }

    /// One protocol line of the command's stdin, without its newline.
    fn read_command_line(&mut self, ctx: &mut Ctx) -> Option<String> {
        match &mut ctx.stdin {
            Stdin::Session => self.input.read_line(),
            Stdin::Buffer(data, pos) => {
                if *pos >= data.len() {
                    return None;
                }
                let rest = &data[*pos..];
                let end = rest.iter().position(|&b| b == b'\n');
                let line = String::from_utf8_lossy(&rest[..end.unwrap_or(rest.len())]).into_owned();
                *pos += end.map_or(rest.len(), |e| e + 1);
                Some(line)
            }
            Stdin::Empty => None,
        }
    }

    /// The injector's answer to one command, with its effect on the phone.
    fn injector_answer(&mut self, line: &str, touch: &mut Touch) -> Result<String, Flow> {
        let fields: Vec<&str> = line.split(' ').collect();
        let bad = |why: &str| Ok(format!("bad {why}: {line}"));
        let h = self.handset;
        let inject =
            |action: &str, at: Point| h.inject_motion(action, at).map_err(|Gone| Flow::Gone);
        match fields.as_slice() {
            ["sync", _] => Ok(line.to_string()),
            ["sleep", ms] => match ms.parse::<i64>() {
                Err(_) => bad("not a number"),
                Ok(ms) if ms < 0 => bad("negative sleep"),
                Ok(ms) => {
                    h.sleep(Duration::from_millis(ms as u64));
                    Ok("ok".into())
                }
            },
            ["tap", x, y, rest @ ..] if rest.len() <= 1 => {
                let hold = match rest.first().map(|h| h.parse::<i64>()) {
                    None => 0,
                    Some(Err(_)) => return bad("not a number"),
                    Some(Ok(ms)) if ms < 0 => return bad("negative hold"),
                    Some(Ok(ms)) => ms as u64,
                };
                let (Some(x), Some(y)) = (coordinate(x), coordinate(y)) else {
                    return bad("not a number");
                };
                if touch.is_some() {
                    return bad("a touch is already down");
                }
                if h.refuse_injected_event() {
                    return Ok(refusal());
                }
                let Some(at) = self.on_screen(x, y) else {
                    return Ok(NOT_DELIVERED.into());
                };
                inject("DOWN", at)?;
                h.sleep(Duration::from_millis(hold));
                inject("UP", at)?;
                Ok("ok".into())
            }
            [action @ ("down" | "move" | "up"), x, y] => {
                let (Some(x), Some(y)) = (coordinate(x), coordinate(y)) else {
                    return bad("not a number");
                };
                match (*action, touch.is_some()) {
                    ("down", true) => return bad("a touch is already down"),
                    ("move" | "up", false) => return bad("no touch is down"),
                    _ => {}
                }
                // A gesture is one event for `input-refused=N`: its DOWN is counted.
                let refused = if *action == "down" {
                    h.refuse_injected_event()
                } else {
                    h.injection_refused()
                };
                if refused {
                    return Ok(refusal());
                }
                let Some(at) = self.on_screen(x, y) else {
                    return Ok(NOT_DELIVERED.into());
                };
                inject(&action.to_ascii_uppercase(), at)?;
                *touch = (*action != "up").then_some(at);
                Ok("ok".into())
            }
            ["sync" | "sleep" | "tap" | "down" | "move" | "up", ..] => {
                bad("wrong number of fields")
            }
            _ => bad("unknown command"),
        }
    }

    /// The pixel a display coordinate falls on; `None` off the screen, where Android finds no
    /// window to deliver to.
    fn on_screen(&self, x: f32, y: f32) -> Option<Point> {
        let size = self.handset.size();
        (x >= 0.0 && y >= 0.0 && x < size.width as f32 && y < size.height as f32)
            .then(|| Point::new(x as u32, y as u32))
    }
}

/// The injector's answer when injectInputEvent returns false.
const NOT_DELIVERED: &str =
    "fail Android did not deliver the event (injectInputEvent returned false)";

/// The injector's one line when Android throws a SecurityException, after which it exits 2.
fn refusal() -> String {
    format!(
        "refused Android refused to inject touches ({INJECT_EVENTS_REFUSAL}). In Developer options enable \"USB debugging (Security settings)\" (Xiaomi, Redmi, POCO and some other phones need it to simulate input), reboot the phone and retry."
    )
}

/// A coordinate as Java's `Float.parseFloat` reads the host's numbers (plain decimals).
fn coordinate(s: &str) -> Option<f32> {
    s.parse::<f32>().ok().filter(|v| v.is_finite())
}

/// Whether `bytes` is a dex file defining `class` (dotted name): the dex magic, and the class's
/// type descriptor among its strings.
fn defines_class(bytes: &[u8], class: &str) -> bool {
    let descriptor = format!("L{};", class.replace('.', "/"));
    bytes.starts_with(b"dex\n")
        && bytes
            .windows(descriptor.len())
            .any(|w| w == descriptor.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::super::Ending;
    use super::super::tests::run;
    use super::*;

    /// Puts a stand-in dex defining the injector class at `path`, then runs `command`.
    fn with_dex(path: &str, command: &str) -> String {
        format!("printf 'dex\\n035\\000Lsudokuagent/Injector;\\000' > {path}; {command}")
    }

    const LAUNCH: &str = "CLASSPATH=/data/local/tmp/i.dex app_process / sudokuagent.Injector";

    #[test]
    fn a_dex_defines_the_classes_whose_descriptors_it_holds() {
        let dex = b"dex\n035\0....Lsudokuagent/Injector;\0...";
        assert!(defines_class(dex, "sudokuagent.Injector"));
        assert!(!defines_class(dex, "sudokuagent.Other"));
        assert!(!defines_class(
            b"PK\x03\x04Lsudokuagent/Injector;",
            "sudokuagent.Injector"
        ));
    }

    #[test]
    fn the_injector_answers_its_protocol_and_taps_through_the_input_manager() {
        let stdin =
            "tap 10 20 40\ndown 30 40\nmove 31 41\nup 31 41\nsleep 5\nsync 7\nfly\nup 1 1\n";
        let (ending, out, err, taps) = run(
            "android12",
            &with_dex("/data/local/tmp/i.dex", LAUNCH),
            vec![stdin.as_bytes().to_vec()],
        );
        assert_eq!(err, "");
        assert_eq!(
            out.lines().collect::<Vec<_>>(),
            [
                "ready 1 android.hardware.input.InputManager",
                "ok",
                "ok",
                "ok",
                "ok",
                "ok",
                "sync 7",
                "bad unknown command: fly",
                "bad no touch is down: up 1 1",
            ]
        );
        assert_eq!(taps, [Point::new(10, 20), Point::new(31, 41)]);
        assert_eq!(ending, Ending::Exit(0));
    }

    #[test]
    fn a_phone_refusing_injection_gets_one_refused_line_and_the_injector_exits() {
        let (screen, h) = crate::handset::test_screen::handset("android12");
        h.set_injection_refused(true);
        let mut io = super::super::tests::TestIo {
            stdin: vec![b"tap 1 2\ntap 3 4\n".to_vec()].into(),
            ..Default::default()
        };
        let ending = Shell::new(&h, &mut io).run(&with_dex("/data/local/tmp/i.dex", LAUNCH));
        let out = String::from_utf8_lossy(&io.stdout).into_owned();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "{out}");
        assert!(lines[1].starts_with("refused ") && lines[1].contains("INJECT_EVENTS"));
        assert_eq!(ending, Ending::Exit(2));
        assert!(screen.lock().unwrap().taps.is_empty());
    }

    #[test]
    fn android14_reports_input_manager_global() {
        let (_, out, _, _) = run(
            "android14",
            &with_dex("/data/local/tmp/i.dex", LAUNCH),
            vec![],
        );
        assert_eq!(out, "ready 1 android.hardware.input.InputManagerGlobal\n");
    }

    #[test]
    fn without_the_pushed_dex_the_class_is_not_found() {
        let (ending, out, err, _) = run("android12", LAUNCH, vec![b"tap 1 1\n".to_vec()]);
        assert_eq!(out, "");
        assert!(
            err.contains("ClassNotFoundException: Didn't find class \"sudokuagent.Injector\""),
            "{err}"
        );
        assert_eq!(ending, Ending::Exit(1));
    }

    #[test]
    fn an_open_gesture_is_cancelled_when_stdin_closes_and_off_screen_events_fail() {
        let stdin = "down 5 5\ntap -1 3\n";
        let (_, out, _, taps) = run(
            "instant",
            &with_dex(
                "/sdcard/i.dex",
                "CLASSPATH=/sdcard/i.dex app_process / sudokuagent.Injector",
            ),
            vec![stdin.as_bytes().to_vec()],
        );
        assert_eq!(
            out.lines().skip(1).collect::<Vec<_>>(),
            ["ok", "bad a touch is already down: tap -1 3"]
        );
        assert!(taps.is_empty(), "a cancelled gesture is no tap: {taps:?}");
        let (_, out, _, _) = run(
            "instant",
            &with_dex(
                "/sdcard/i.dex",
                "CLASSPATH=/sdcard/i.dex app_process / sudokuagent.Injector",
            ),
            vec![b"tap 99999 3\n".to_vec()],
        );
        assert_eq!(out.lines().nth(1), Some(NOT_DELIVERED));
    }
}
