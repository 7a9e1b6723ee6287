//! The `inject` input method, transport-free: sudoku-agent's own touch injector (`injector/`, a
//! 5 KB dex embedded here) and where it lives on the phone, the shell commands that push and
//! start it, and its line protocol (`injector/README.md`): taps with their pacing as command
//! lines, and the injector's answers as typed values. The adb session that carries them is
//! `device/adb/injector.rs`.
//!
//! The dex runs as `CLASSPATH=<path> app_process / sudokuagent.Injector` under the shell user and
//! injects MotionEvents through Android's input manager: no JVM per tap as `input tap` costs up to
//! Android 11, no process per tap as `cmd input tap` costs from 12
//! (`../shared/notes/injector.md`).

use crate::device::protocol::pacing::{Pacing, tap_waits};
use crate::device::protocol::shell_line::MAX_BATCH_CHARS;
use crate::geometry::Point;

/// The assembled injector (`injector/build.sh`; `tests/injector/mod.rs` checks it matches its
/// source).
pub const DEX: &[u8] = include_bytes!("../../../injector/injector.dex");

/// The class `app_process` starts.
pub const MAIN_CLASS: &str = "sudokuagent.Injector";

/// The protocol version the injector announces in its `ready` line.
pub const PROTOCOL_VERSION: &str = "1";

/// Where pushed files may live: writable by the shell user on every Android version.
pub const REMOTE_DIR: &str = "/data/local/tmp";

/// File name prefix of every injector version on the phone (`rm /data/local/tmp/sudoku-agent-injector-*`
/// removes them all).
pub const FILE_PREFIX: &str = "sudoku-agent-injector-";

/// `/data/local/tmp/sudoku-agent-injector-<hash>.dex`, the hash being the first 6 bytes of the
/// dex's own SHA-1 signature (header bytes 12..32): a new build gets a new name, so it is pushed
/// once and a stale copy is never run.
pub fn remote_path() -> String {
    let hash: String = DEX[12..18].iter().map(|b| format!("{b:02x}")).collect();
    format!("{REMOTE_DIR}/{FILE_PREFIX}{hash}.dex")
}

/// The command that runs the injector from `path`.
pub fn launch_command(path: &str) -> String {
    format!("CLASSPATH={path} app_process / {MAIN_CLASS}")
}

/// Shell commands that write `bytes` to `path` (`printf` with an octal escape per byte, the first
/// truncating, the rest appending), each at most [`MAX_BATCH_CHARS`] long: plain shell commands
/// every adbd runs, each acknowledged with its exit status, and `printf` exists on every Android
/// the injector is for (toybox, 6+).
pub fn push_commands(bytes: &[u8], path: &str) -> Vec<String> {
    let overhead = "printf '' >> ".len() + path.len();
    let per_command = (MAX_BATCH_CHARS - overhead) / 4;
    bytes
        .chunks(per_command.max(1))
        .enumerate()
        .map(|(i, chunk)| {
            let escaped: String = chunk.iter().map(|b| format!("\\{b:03o}")).collect();
            let redirect = if i == 0 { ">" } else { ">>" };
            format!("printf '{escaped}' {redirect} {path}")
        })
        .collect()
}

/// `ViewConfiguration.DOUBLE_TAP_TIMEOUT`: a second tap on the same spot within this of the first
/// one's UP may be taken as a double tap (`GestureDetector.isConsideredDoubleTap`).
pub const DOUBLE_TAP_TIMEOUT_MS: u32 = 300;

/// Taps as protocol lines: `tap X Y HOLD` each, `sleep GAP` between taps and `sleep SETTLE`
/// after the last (waits timed on the phone, like the shell methods' `sleep`), then `sync TOKEN`,
/// whose echo tells that everything before it is done.
///
/// The pacing's gap is what spaces taps: the injector's WAIT_FOR_FINISH (InputDispatcher
/// `injectInputEvent` waits for `pendingForegroundDispatches == 0`) returns once the app has
/// handled the UP, which it does as the event arrives (ViewRootImpl `enqueueInputEvent(..,
/// processImmediately = true)`; only MOVE is batched to vsync), but the click that UP posted runs
/// after the next frame ([`crate::device::protocol::pacing::INJECT_GAP_MS`]). Two taps in a row on
/// the same spot are kept a double-tap timeout apart, so an app with double-tap semantics sees two
/// taps.
pub fn encode(taps: &[Point], pacing: &Pacing, sync_token: u64) -> Vec<String> {
    let waits = tap_waits(taps, pacing, None, 0);
    encode_waits(taps, pacing.hold_ms, &waits, sync_token)
}

/// [`encode`] with the wait after each tap given ([`tap_waits`]: the gap only where a touch could
/// overtake a button's click); twice on the same spot still waits out the double-tap timeout.
pub fn encode_waits(taps: &[Point], hold_ms: u32, waits: &[u32], sync_token: u64) -> Vec<String> {
    let mut lines = Vec::with_capacity(taps.len() * 2 + 1);
    for (i, p) in taps.iter().enumerate() {
        lines.push(format!("tap {} {} {}", p.x, p.y, hold_ms));
        let wait = match taps.get(i + 1) {
            Some(next) if next == p => waits[i].max(DOUBLE_TAP_TIMEOUT_MS + 1),
            _ => waits[i],
        };
        if wait > 0 {
            lines.push(format!("sleep {wait}"));
        }
    }
    lines.push(format!("sync {sync_token}"));
    lines
}

/// One line the injector prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Started: the protocol version and the input manager class it injects through.
    Ready {
        version: String,
        manager: String,
    },
    Ok,
    /// The echo of `sync TOKEN`.
    Sync(String),
    /// A command it did not accept (nothing injected).
    Bad(String),
    /// Android did not deliver an event.
    Fail(String),
    /// Android refused injection; the text says what the user can do. The injector has exited.
    Refused(String),
    /// No input manager at start-up. The injector has exited.
    Error(String),
    /// Anything else (the runtime's own messages when the program could not start).
    Other(String),
}

impl Answer {
    pub fn parse(line: &str) -> Answer {
        let line = line.trim_end_matches(['\r', '\n']);
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.to_string();
        match word {
            "ready" => {
                let (version, manager) = rest.split_once(' ').unwrap_or((&rest, ""));
                Answer::Ready {
                    version: version.to_string(),
                    manager: manager.to_string(),
                }
            }
            "ok" if rest.is_empty() => Answer::Ok,
            "sync" => Answer::Sync(rest),
            "bad" => Answer::Bad(rest),
            "fail" => Answer::Fail(rest),
            "refused" => Answer::Refused(rest),
            "error" => Answer::Error(rest),
            _ => Answer::Other(line.to_string()),
        }
    }
}

/// The short name of an input manager class for messages (`InputManagerGlobal`).
pub fn short_manager(manager: &str) -> &str {
    manager.rsplit('.').next().unwrap_or(manager)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::protocol::input::decode::{TimedTap, Timeline};

    /// The taps and waits of [`encode`]d lines, as the phone would carry them out (the round trip).
    fn timeline(lines: &[String]) -> Result<Timeline, String> {
        let mut tl = Timeline::default();
        for line in lines {
            let fields: Vec<&str> = line.split(' ').collect();
            let num = |s: &str| {
                s.parse::<u32>()
                    .map_err(|_| format!("not a number in {line:?}"))
            };
            match fields.as_slice() {
                ["tap", x, y, hold] => {
                    let hold = num(hold)?;
                    tl.taps.push(TimedTap {
                        at: Point::new(num(x)?, num(y)?),
                        down_ms: tl.end_ms,
                        hold_ms: hold,
                    });
                    tl.end_ms += u64::from(hold);
                }
                ["sleep", ms] => tl.end_ms += u64::from(num(ms)?),
                ["sync", _] => {}
                _ => return Err(format!("not an injector command: {line:?}")),
            }
        }
        Ok(tl)
    }

    #[test]
    fn the_dex_is_named_after_its_own_signature_under_data_local_tmp() {
        assert!(DEX.starts_with(b"dex\n035\0"));
        let path = remote_path();
        assert!(
            path.starts_with("/data/local/tmp/sudoku-agent-injector-"),
            "{path}"
        );
        assert!(path.ends_with(".dex"));
        assert_eq!(
            path.len(),
            "/data/local/tmp/sudoku-agent-injector-".len() + 12 + 4
        );
        assert_eq!(
            launch_command("/data/local/tmp/x.dex"),
            "CLASSPATH=/data/local/tmp/x.dex app_process / sudokuagent.Injector"
        );
    }

    #[test]
    fn push_commands_write_every_byte_once_in_short_printf_commands() {
        let bytes: Vec<u8> = (0..=255u8).cycle().take(5000).collect();
        let commands = push_commands(&bytes, "/data/local/tmp/f");
        assert!(commands.len() > 1);
        assert!(commands[0].ends_with("' > /data/local/tmp/f"));
        assert!(
            commands[1..]
                .iter()
                .all(|c| c.ends_with("' >> /data/local/tmp/f"))
        );
        assert!(commands.iter().all(|c| c.len() <= MAX_BATCH_CHARS));
        let mut written = Vec::new();
        for c in &commands {
            let body = &c["printf '".len()..c.rfind('\'').unwrap()];
            for esc in body.split('\\').skip(1) {
                written.push(u8::from_str_radix(esc, 8).unwrap());
            }
        }
        assert_eq!(written, bytes);
    }

    #[test]
    fn taps_become_tap_and_sleep_lines_ending_in_a_sync() {
        let pacing = Pacing {
            hold_ms: 20,
            gap_ms: 5,
            settle_ms: 100,
        };
        let lines = encode(&[Point::new(1, 2), Point::new(3, 4)], &pacing, 9);
        assert_eq!(
            lines,
            ["tap 1 2 20", "sleep 5", "tap 3 4 20", "sleep 100", "sync 9"]
        );
        let tl = timeline(&lines).unwrap();
        assert_eq!(tl.end_ms, 20 + 5 + 20 + 100);
        assert_eq!(tl.taps[1].at, Point::new(3, 4));
        assert_eq!(tl.taps[1].down_ms, 25);
        let none = Pacing {
            hold_ms: 0,
            gap_ms: 0,
            settle_ms: 0,
        };
        assert_eq!(
            encode(&[Point::new(5, 6)], &none, 1),
            ["tap 5 6 0", "sync 1"]
        );
    }

    #[test]
    fn taps_follow_each_other_without_waits_except_twice_on_the_same_spot() {
        let none = Pacing {
            hold_ms: 0,
            gap_ms: 0,
            settle_ms: 0,
        };
        let (a, b) = (Point::new(1, 2), Point::new(3, 4));
        assert_eq!(
            encode(&[a, b, a, a], &none, 3),
            [
                "tap 1 2 0",
                "tap 3 4 0",
                "tap 1 2 0",
                "sleep 301",
                "tap 1 2 0",
                "sync 3"
            ]
        );
        let slow = Pacing {
            gap_ms: 500,
            ..none
        };
        assert_eq!(
            encode(&[a, a], &slow, 4),
            ["tap 1 2 0", "sleep 500", "tap 1 2 0", "sync 4"]
        );
    }

    #[test]
    fn answers_are_read_into_their_kinds() {
        assert_eq!(
            Answer::parse("ready 1 android.hardware.input.InputManagerGlobal\n"),
            Answer::Ready {
                version: "1".into(),
                manager: "android.hardware.input.InputManagerGlobal".into()
            }
        );
        assert_eq!(Answer::parse("ok"), Answer::Ok);
        assert_eq!(Answer::parse("sync 12\r\n"), Answer::Sync("12".into()));
        assert_eq!(
            Answer::parse("refused Android refused ... retry."),
            Answer::Refused("Android refused ... retry.".into())
        );
        assert_eq!(
            Answer::parse("bad unknown command: x"),
            Answer::Bad("unknown command: x".into())
        );
        assert!(matches!(
            Answer::parse("Exception in thread \"main\" java.lang.ClassNotFoundException"),
            Answer::Other(_)
        ));
        assert_eq!(
            short_manager("android.hardware.input.InputManager"),
            "InputManager"
        );
    }
}
