//! How taps reach the phone: the five `InputMethod` backends and their pure encodings into shell
//! command lines (for `inject`, the injector's protocol lines: `protocol/injector.rs`). The
//! inverse, `decode` (what taps and timing a command line makes), lives in the test-only `decode`
//! module: only the tests here need it; the simulated phone has its own.
//!
//! * `inject`: our own injector (`injector/`), run with `app_process`, fed `tap X Y HOLD` lines;
//!   a few ms per tap on any Android, where the phone allows injection.
//! * `tap`: one `input tap X Y` per shell command; works everywhere, slowest (a JVM per tap up to
//!   Android 11).
//! * `batch`: many taps joined with `&&` into one shell command (saves adb round trips; the
//!   first failure stops the rest).
//! * `stream`: `cmd input tap X Y` lines fed to one long-lived shell (Android 12+, no `sh`
//!   wrapper, no JVM).
//! * `evdev`: raw `input_event` records for the touchscreen node, protocol A or B, written with
//!   `printf '\ooo...' | dd of=/dev/input/eventN ibs=4096 obs=24` (dd re-blocks so every
//!   `write()` is a whole record); only where the shell user may write the node (Android <= 9).
//!
//! Pacing is encoded as `sleep` commands on the phone, so timings do not depend on the link.

use crate::device::protocol::injector;
use crate::device::protocol::input_kind::InputKind;
use crate::device::protocol::pacing::{Pacing, tap_waits};
use crate::device::protocol::parse::{AbsInfo, Rotation, Touchscreen, codes::*};
use crate::device::protocol::shell_line::MAX_BATCH_CHARS;
use crate::geometry::{Point, Size};

#[cfg(test)]
pub(crate) mod decode;

mod evdev;
pub use evdev::*;

/// A way of tapping, with what it needs to know about the phone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputMethod {
    Tap,
    Batch,
    Stream,
    Evdev(Box<EvdevTarget>),
    /// The on-device injector (the session lives with the device).
    Inject,
}

/// A tap that cannot be encoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    #[error("tap at ({x}, {y}) is outside the {screen} screen")]
    OffScreen { x: u32, y: u32, screen: Size },
}

/// Refuses the first tap outside `screen`: raw events there would land on the panel's edge.
fn all_on_screen(taps: &[Point], screen: Size) -> Result<(), EncodeError> {
    match taps
        .iter()
        .find(|p| p.x >= screen.width || p.y >= screen.height)
    {
        Some(p) => Err(EncodeError::OffScreen {
            x: p.x,
            y: p.y,
            screen,
        }),
        None => Ok(()),
    }
}

/// `sleep` argument for a duration in ms: `0.04`, `1.5`, `2`.
pub fn sleep_arg(ms: u32) -> String {
    let s = format!("{}.{:03}", ms / 1000, ms % 1000);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl InputMethod {
    pub fn kind(&self) -> InputKind {
        match self {
            InputMethod::Tap => InputKind::Tap,
            InputMethod::Batch => InputKind::Batch,
            InputMethod::Stream => InputKind::Stream,
            InputMethod::Evdev(_) => InputKind::Evdev,
            InputMethod::Inject => InputKind::Inject,
        }
    }

    /// One tap (with its hold) as a shell snippet.
    fn tap_snippet(&self, p: Point, i: usize, pacing: &Pacing) -> String {
        let prefix = if matches!(self, InputMethod::Stream) {
            "cmd input"
        } else {
            "input"
        };
        match self {
            InputMethod::Evdev(t) => {
                let down = t.write_command(&t.down_frame(p, t.tracking_id(i)));
                let up = t.write_command(&t.up_frame());
                if pacing.hold_ms > 0 {
                    format!("{down} && sleep {} && {up}", sleep_arg(pacing.hold_ms))
                } else {
                    format!("{down} && {up}")
                }
            }
            _ if pacing.hold_ms > 0 => {
                format!(
                    "{prefix} swipe {x} {y} {x} {y} {}",
                    pacing.hold_ms,
                    x = p.x,
                    y = p.y
                )
            }
            _ => format!("{prefix} tap {} {}", p.x, p.y),
        }
    }

    /// Encodes taps as shell text. `tap`: one command per tap. `batch`: the same snippets joined
    /// with ` && ` into as few commands as fit [`MAX_BATCH_CHARS`]. `stream`, `evdev`: one line per
    /// tap for a long-lived shell; `inject`: the injector's lines ending in `sync 0`. The gap
    /// follows every tap but the last, the settle the last.
    pub fn encode(&self, taps: &[Point], pacing: &Pacing) -> Result<Vec<String>, EncodeError> {
        let waits = tap_waits(taps, pacing, None, 0);
        self.encode_waits(taps, pacing.hold_ms, &waits)
    }

    /// [`Self::encode`] with the wait after each tap given ([`tap_waits`]).
    pub fn encode_waits(
        &self,
        taps: &[Point],
        hold_ms: u32,
        waits: &[u32],
    ) -> Result<Vec<String>, EncodeError> {
        let pacing = Pacing {
            hold_ms,
            ..Pacing::NONE
        };
        if let InputMethod::Inject = self {
            return Ok(injector::encode_waits(taps, hold_ms, waits, 0));
        }
        if let InputMethod::Evdev(t) = self {
            all_on_screen(taps, t.screen)?;
        }
        let per_tap: Vec<String> = taps
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let mut s = self.tap_snippet(p, i, &pacing);
                let wait = waits[i];
                if wait > 0 {
                    s.push_str(" && sleep ");
                    s.push_str(&sleep_arg(wait));
                }
                s
            })
            .collect();
        if !matches!(self, InputMethod::Batch) {
            return Ok(per_tap);
        }
        let mut commands: Vec<String> = Vec::new();
        for snippet in per_tap {
            match commands.last_mut() {
                Some(c) if c.len() + 2 + snippet.len() <= MAX_BATCH_CHARS => {
                    c.push_str(" && ");
                    c.push_str(&snippet);
                }
                _ => commands.push(snippet),
            }
        }
        Ok(commands)
    }
}

#[cfg(test)]
mod tests {
    use super::decode::*;
    use super::*;
    use crate::device::protocol::parse::{getevent_devices, touchscreen};
    use crate::geometry::Rect;

    fn pts(v: &[(u32, u32)]) -> Vec<Point> {
        v.iter().map(|&(x, y)| Point::new(x, y)).collect()
    }

    fn events(v: &[(u16, u16, i32)]) -> Vec<InputEvent> {
        v.iter()
            .map(|&(kind, code, value)| InputEvent::new(kind, code, value))
            .collect()
    }

    const NO_PACING: Pacing = Pacing {
        hold_ms: 0,
        gap_ms: 0,
        settle_ms: 0,
    };
    const PACED: Pacing = Pacing {
        hold_ms: 40,
        gap_ms: 20,
        settle_ms: 150,
    };

    #[test]
    fn tap_method_sends_one_input_tap_per_command() {
        let taps = pts(&[(100, 200), (300, 400)]);
        assert_eq!(
            InputMethod::Tap.encode(&taps, &NO_PACING).unwrap(),
            ["input tap 100 200", "input tap 300 400"]
        );
        assert_eq!(
            InputMethod::Tap.encode(&taps, &PACED).unwrap(),
            [
                "input swipe 100 200 100 200 40 && sleep 0.02",
                "input swipe 300 400 300 400 40 && sleep 0.15"
            ]
        );
        assert!(InputMethod::Tap.encode(&[], &PACED).unwrap().is_empty());
    }

    #[test]
    fn batch_method_joins_taps_and_splits_long_batches() {
        let pacing = Pacing {
            hold_ms: 0,
            gap_ms: 50,
            settle_ms: 1000,
        };
        assert_eq!(
            InputMethod::Batch
                .encode(&pts(&[(1, 2), (3, 4), (5, 6)]), &pacing)
                .unwrap(),
            [
                "input tap 1 2 && sleep 0.05 && input tap 3 4 && sleep 0.05 && input tap 5 6 && sleep 1"
            ]
        );
        let many: Vec<Point> = (0..500).map(|i| Point::new(1000 + i, 2000 + i)).collect();
        let commands = InputMethod::Batch.encode(&many, &NO_PACING).unwrap();
        assert!(commands.len() > 1);
        assert!(commands.iter().all(|c| c.len() <= MAX_BATCH_CHARS));
        assert_eq!(InputMethod::Batch.decode(&commands).unwrap(), many);
    }

    #[test]
    fn stream_method_writes_cmd_input_lines() {
        assert_eq!(
            InputMethod::Stream
                .encode(
                    &pts(&[(10, 20), (30, 40)]),
                    &Pacing {
                        hold_ms: 0,
                        gap_ms: 5,
                        settle_ms: 0
                    }
                )
                .unwrap(),
            ["cmd input tap 10 20 && sleep 0.005", "cmd input tap 30 40"]
        );
    }

    #[test]
    fn the_gap_follows_only_a_tap_off_the_board_that_a_board_tap_follows() {
        let board = Rect::new(0, 0, 100, 100);
        let (cell, key, other_key) = (Point::new(10, 10), Point::new(50, 500), Point::new(80, 500));
        let pacing = Pacing {
            hold_ms: 0,
            gap_ms: 21,
            settle_ms: 60,
        };
        // Cell-first: cell, key, cell, key; then a key followed by another key.
        let taps = [cell, key, cell, key, other_key];
        assert_eq!(tap_waits(&taps, &pacing, Some(board), 0), [0, 21, 0, 0, 60]);
        // Raw events keep their own floor where no click is at stake.
        assert_eq!(tap_waits(&taps, &pacing, Some(board), 5), [5, 21, 5, 5, 60]);
        // Without a board every tap keeps the gap, as `encode` does.
        assert_eq!(tap_waits(&taps, &pacing, None, 0), [21, 21, 21, 21, 60]);
        let lines = InputMethod::Inject
            .encode_waits(&taps, 0, &tap_waits(&taps, &pacing, Some(board), 0))
            .unwrap();
        assert_eq!(
            lines,
            [
                "tap 10 10 0",
                "tap 50 500 0",
                "sleep 21",
                "tap 10 10 0",
                "tap 50 500 0",
                "tap 80 500 0",
                "sleep 60",
                "sync 0"
            ]
        );
    }

    #[test]
    fn sleep_arguments_are_short_and_exact() {
        assert_eq!(sleep_arg(40), "0.04");
        assert_eq!(sleep_arg(5), "0.005");
        assert_eq!(sleep_arg(1000), "1");
        assert_eq!(sleep_arg(1500), "1.5");
        for ms in [0, 1, 9, 10, 99, 100, 999, 1001, 12345] {
            assert_eq!(parse_sleep(&sleep_arg(ms)), Some(ms as u64));
        }
        assert_eq!(parse_sleep("0.0001"), None);
    }

    use crate::device::protocol::parse::MIX2_TOUCHSCREEN as MIX2;

    fn target(
        getevent: &str,
        screen: Size,
        rotation: Rotation,
        layout: EventLayout,
    ) -> EvdevTarget {
        EvdevTarget {
            touchscreen: touchscreen(&getevent_devices(getevent)).unwrap(),
            layout,
            screen,
            rotation,
            first_tracking_id: 7,
        }
    }

    /// The Mix 2's panel, upright, on a 64-bit phone: what most tests below tap on.
    fn portrait() -> EvdevTarget {
        target(
            MIX2,
            Size::new(1080, 2160),
            Rotation::R0,
            EventLayout::Bits64,
        )
    }

    /// Every point comes back from raw panel steps to the pixel it was sent as.
    fn assert_round_trips(t: &EvdevTarget, points: &[(u32, u32)]) {
        for p in pts(points) {
            assert_eq!(t.raw_to_screen(t.screen_to_raw(p)), p);
        }
    }

    #[test]
    fn evdev_frames_follow_protocol_b_byte_for_byte() {
        let t = portrait();
        let down = t.down_frame(Point::new(540, 1200), 7);
        assert_eq!(
            down,
            events(&[
                (3, 47, 0),
                (3, 57, 7),
                (3, 53, 540),
                (3, 54, 1200),
                (3, 48, 31),
                (1, 330, 1),
                (1, 325, 1),
                (0, 0, 0)
            ])
        );
        assert_eq!(
            t.up_frame(),
            events(&[(3, 47, 0), (3, 57, -1), (1, 330, 0), (1, 325, 0), (0, 0, 0)])
        );
        let bytes = event_bytes(&down[1..2], EventLayout::Bits64);
        assert_eq!(
            bytes,
            [
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 57, 0, 7, 0, 0, 0
            ]
        );
        let bytes32 = event_bytes(&t.up_frame()[1..2], EventLayout::Bits32);
        assert_eq!(
            bytes32,
            [0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 57, 0, 255, 255, 255, 255]
        );
        assert_eq!(
            parse_events(&bytes32, EventLayout::Bits32).unwrap(),
            [InputEvent::new(3, 57, -1)]
        );
        assert_eq!(parse_events(&bytes[..23], EventLayout::Bits64), None);
    }

    #[test]
    fn a_touchscreen_path_the_shell_would_interpret_is_quoted_in_dd_commands() {
        let mut t = portrait();
        t.touchscreen.path = "/dev/input/event1; reboot".into();
        let cmd = t.write_command(&t.up_frame());
        assert!(
            cmd.contains("dd of='/dev/input/event1; reboot' ibs="),
            "{cmd}"
        );
        assert_eq!(
            t.stream_command(),
            "dd of='/dev/input/event1; reboot' ibs=4096 obs=24"
        );
    }

    #[test]
    fn evdev_lines_write_whole_records_through_dd_with_the_hold_between_frames() {
        let t = portrait();
        let lines = InputMethod::Evdev(Box::new(t.clone()))
            .encode(&pts(&[(1, 2)]), &PACED)
            .unwrap();
        assert_eq!(lines.len(), 1);
        let parts: Vec<&str> = lines[0].split(" && ").collect();
        assert_eq!(parts.len(), 4);
        assert!(parts[0].starts_with("printf '\\000\\000"));
        assert!(parts[0].ends_with("' | dd of=/dev/input/event1 ibs=4096 obs=24 2>/dev/null"));
        assert_eq!(
            printf_bytes(parts[0]).unwrap(),
            event_bytes(&t.down_frame(Point::new(1, 2), 7), EventLayout::Bits64)
        );
        assert_eq!(parts[1], "sleep 0.04");
        assert_eq!(parts[2], t.write_command(&t.up_frame()));
        assert_eq!(parts[3], "sleep 0.15");
        let tl = InputMethod::Evdev(Box::new(t)).timeline(&lines).unwrap();
        assert_eq!(
            tl.taps,
            [TimedTap {
                at: Point::new(1, 2),
                down_ms: 0,
                hold_ms: 40
            }]
        );
        assert_eq!(tl.end_ms, 190);
    }

    #[test]
    fn evdev_gives_each_tap_a_new_tracking_id_within_the_declared_range() {
        let mut t = portrait();
        t.first_tracking_id = 65534;
        assert_eq!(
            [t.tracking_id(0), t.tracking_id(1), t.tracking_id(2)],
            [65534, 65535, 0]
        );
    }

    #[test]
    fn evdev_maps_pixels_to_a_finer_panel_and_back() {
        // Android 14 goodix panel: 144000 x 320000 raw steps on a 1080x2400 screen.
        let goodix = MIX2
            .replace("max 1079", "max 143999")
            .replace("max 2159", "max 319999");
        let t = target(
            &goodix,
            Size::new(1080, 2400),
            Rotation::R0,
            EventLayout::Bits64,
        );
        assert_eq!(t.screen_to_raw(Point::new(0, 0)), (66, 66));
        assert_eq!(t.screen_to_raw(Point::new(1079, 2399)), (143933, 319933));
        assert_round_trips(&t, &[(0, 0), (540, 1200), (1079, 2399), (7, 13)]);
    }

    #[test]
    fn evdev_rotation_follows_the_android_input_table() {
        // Natural portrait 1080x2160 panel, 1:1 raw; screen rotated to landscape 2160x1080.
        let land = Size::new(2160, 1080);
        let r90 = target(MIX2, land, Rotation::R90, EventLayout::Bits64);
        let r270 = target(MIX2, land, Rotation::R270, EventLayout::Bits64);
        let r180 = target(
            MIX2,
            Size::new(1080, 2160),
            Rotation::R180,
            EventLayout::Bits64,
        );
        // (sx, sy) = (10, 20): 90 -> (W_nat-1-sy, sx), 270 -> (sy, H_nat-1-sx), 180 -> both flipped.
        assert_eq!(r90.screen_to_raw(Point::new(10, 20)), (1079 - 20, 10));
        assert_eq!(r270.screen_to_raw(Point::new(10, 20)), (20, 2159 - 10));
        assert_eq!(
            r180.screen_to_raw(Point::new(10, 20)),
            (1079 - 10, 2159 - 20)
        );
        for t in [&r90, &r270] {
            assert_round_trips(t, &[(0, 0), (2159, 1079), (10, 20), (2000, 3)]);
        }
    }

    #[test]
    fn evdev_refuses_taps_off_the_screen() {
        let t = portrait();
        assert_eq!(
            InputMethod::Evdev(Box::new(t)).encode(&pts(&[(5, 5), (1080, 5)]), &NO_PACING),
            Err(EncodeError::OffScreen {
                x: 1080,
                y: 5,
                screen: Size::new(1080, 2160)
            })
        );
    }

    #[test]
    fn evdev_protocol_a_panels_get_mt_reports_and_decode_back() {
        let old = "add device 1: /dev/input/event0
  name:     \"old_ts\"
  events:
    ABS (0003): ABS_MT_POSITION_X     : value 0, min 0, max 479, fuzz 0, flat 0, resolution 0
                ABS_MT_POSITION_Y     : value 0, min 0, max 799, fuzz 0, flat 0, resolution 0
                ABS_MT_PRESSURE       : value 0, min 0, max 255, fuzz 0, flat 0, resolution 0
  input props:
    <none>
";
        let t = target(old, Size::new(480, 800), Rotation::R0, EventLayout::Bits32);
        assert_eq!(
            t.down_frame(Point::new(3, 4), 0),
            events(&[(3, 53, 3), (3, 54, 4), (3, 58, 127), (0, 2, 0), (0, 0, 0)])
        );
        assert_eq!(t.up_frame(), events(&[(0, 2, 0), (0, 0, 0)]));
        let m = InputMethod::Evdev(Box::new(t));
        let taps = pts(&[(3, 4), (479, 799), (240, 400)]);
        let lines = m.encode(&taps, &PACED).unwrap();
        assert!(lines[0].contains("obs=16"));
        assert_eq!(m.decode(&lines).unwrap(), taps);
    }

    #[test]
    fn every_method_round_trips_taps_and_timing() {
        let screen = Size::new(1080, 2160);
        let methods = [
            InputMethod::Tap,
            InputMethod::Batch,
            InputMethod::Stream,
            InputMethod::Evdev(Box::new(target(
                MIX2,
                screen,
                Rotation::R0,
                EventLayout::Bits64,
            ))),
            InputMethod::Evdev(Box::new(target(
                MIX2,
                Size::new(2160, 1080),
                Rotation::R90,
                EventLayout::Bits32,
            ))),
        ];
        let taps = pts(&[(0, 0), (540, 1000), (1079, 1079), (77, 901), (540, 1000)]);
        for m in &methods {
            for pacing in [NO_PACING, PACED] {
                let lines = m.encode(&taps, &pacing).unwrap();
                let tl = m.timeline(&lines).unwrap();
                assert_eq!(
                    tl.taps.iter().map(|t| t.at).collect::<Vec<_>>(),
                    taps,
                    "{:?}",
                    m.kind()
                );
                assert!(tl.taps.iter().all(|t| t.hold_ms == pacing.hold_ms));
                let n = taps.len() as u64;
                let expected = n * pacing.hold_ms as u64
                    + (n - 1) * pacing.gap_ms as u64
                    + pacing.settle_ms as u64;
                assert_eq!(tl.end_ms, expected, "{:?}", m.kind());
            }
        }
    }

    #[test]
    fn evdev_raw_stream_writes_whole_frames_and_round_trips() {
        let t = portrait();
        assert_eq!(
            t.stream_command(),
            "dd of=/dev/input/event1 ibs=4096 obs=24"
        );
        let taps = pts(&[(1, 2), (1079, 2159), (540, 1080)]);
        let writes = t.encode_raw(&taps, &PACED).unwrap();
        assert_eq!(writes.len(), 6);
        assert_eq!(
            writes[0].bytes,
            event_bytes(&t.down_frame(Point::new(1, 2), 7), EventLayout::Bits64)
        );
        assert_eq!(
            writes[1].bytes,
            event_bytes(&t.up_frame(), EventLayout::Bits64)
        );
        assert_eq!(
            writes.iter().map(|w| w.then_wait_ms).collect::<Vec<_>>(),
            [40, 20, 40, 20, 40, 150]
        );
        let tl = t.decode_raw(&writes).unwrap();
        assert_eq!(tl.taps.iter().map(|t| t.at).collect::<Vec<_>>(), taps);
        assert!(tl.taps.iter().all(|t| t.hold_ms == 40));
        assert_eq!(tl.end_ms, 3 * 40 + 2 * 20 + 150);
        assert!(t.encode_raw(&pts(&[(0, 2160)]), &PACED).is_err());
    }

    #[test]
    fn decode_accepts_status_markers_and_rejects_other_commands() {
        let lines = vec!["input tap 5 6; echo __rc=$?".to_string()];
        assert_eq!(InputMethod::Tap.decode(&lines).unwrap(), pts(&[(5, 6)]));
        assert!(matches!(
            InputMethod::Tap.decode(&["rm -rf /".to_string()]),
            Err(DecodeError::Unknown(_))
        ));
        assert!(
            InputMethod::Tap
                .decode(&["input tap 5".to_string()])
                .is_err()
        );
        assert!(
            InputMethod::Tap
                .decode(&["printf '\\000' | dd of=/dev/input/event1".to_string()])
                .is_err()
        );
    }

    #[test]
    fn event_layout_follows_the_abi_and_defaults_to_64_bit() {
        assert_eq!(EventLayout::for_abi("arm64-v8a"), EventLayout::Bits64);
        assert_eq!(EventLayout::for_abi("x86_64"), EventLayout::Bits64);
        assert_eq!(EventLayout::for_abi("armeabi-v7a"), EventLayout::Bits32);
        assert_eq!(EventLayout::for_abi("x86"), EventLayout::Bits32);
        assert_eq!(EventLayout::for_abi(""), EventLayout::Bits64);
    }
}
