//! Pure parsers for what a phone prints: `wm size`, `wm density`, `getprop`, `getevent -lp`,
//! `dumpsys window` rotation, raw `screencap` frames and the `; echo __rc=$?` status marker we
//! append to shell commands. No I/O here; every parser is tested byte for byte on literal output.

use crate::geometry::Size;
use image::RgbaImage;
use std::collections::{BTreeMap, BTreeSet};

/// Something a phone printed that we could not understand.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("unexpected `{command}` output: {output:?}")]
    Unexpected {
        command: &'static str,
        output: String,
    },
    #[error("raw screencap is {len} bytes, too short for a header")]
    ScreencapTooShort { len: usize },
    #[error(
        "raw screencap of {width}x{height} (format {format}) is {len} bytes, expected {width}x{height}x{bpp} plus a 12- or 16-byte header"
    )]
    ScreencapLength {
        width: u32,
        height: u32,
        format: u32,
        bpp: u32,
        len: usize,
    },
    #[error(
        "raw screencap has pixel format {0}, which we cannot read (known: 1 RGBA_8888, 2 RGBX_8888, 3 RGB_888, 4 RGB_565, 5 BGRA_8888)"
    )]
    ScreencapFormat(u32),
    #[error("the PNG screenshot is damaged ({0})")]
    Png(String),
}

fn unexpected(command: &'static str, output: &str) -> ParseError {
    let mut output: String = output.trim().chars().take(200).collect();
    if output.is_empty() {
        output = "(nothing)".into();
    }
    ParseError::Unexpected { command, output }
}

mod display;
mod getevent;
mod screencap;
pub use display::*;
pub use getevent::*;
pub use screencap::*;

/// The status marker appended to shell commands whose exit status matters (adb_client drops
/// exit codes): run `CMD; echo __rc=$?`.
pub const STATUS_MARKER: &str = "__rc=";

/// Appends the status marker to a shell command.
pub fn with_status_marker(command: &str) -> String {
    format!("{command}; echo {STATUS_MARKER}$?")
}

/// Splits output of a command run [`with_status_marker`] into the command's own output and its
/// exit status. `None` means the marker is missing: the shell never reached it (the device went
/// away, or the connection dropped).
pub fn split_status(output: &[u8]) -> (&[u8], Option<i32>) {
    let trimmed = output.strip_suffix(b"\n").unwrap_or(output);
    let trimmed = trimmed.strip_suffix(b"\r").unwrap_or(trimmed);
    let marker = STATUS_MARKER.as_bytes();
    let Some(at) = trimmed.windows(marker.len()).rposition(|w| w == marker) else {
        return (output, None);
    };
    let digits = &trimmed[at + marker.len()..];
    let status = std::str::from_utf8(digits)
        .ok()
        .and_then(|d| d.parse::<i32>().ok());
    match status {
        Some(rc) if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) => {
            (&output[..at], Some(rc))
        }
        _ => (output, None),
    }
}

/// Real `getevent -lp` of a Mi Mix 2's touchscreen (LineageOS 17.1), as quoted in
/// android-input.md: the panel both the parser and the `evdev` encoding are tested on.
#[cfg(test)]
pub(crate) const MIX2_TOUCHSCREEN: &str = "add device 7: /dev/input/event1
  name:     \"synaptics_dsx\"
  events:
    KEY (0001): KEY_WAKEUP            BTN_TOOL_FINGER       BTN_TOUCH
    ABS (0003): ABS_X                 : value 0, min 0, max 1079, fuzz 0, flat 0, resolution 0
                ABS_Y                 : value 0, min 0, max 2159, fuzz 0, flat 0, resolution 0
                ABS_MT_SLOT           : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0
                ABS_MT_TOUCH_MAJOR    : value 0, min 0, max 255, fuzz 0, flat 0, resolution 0
                ABS_MT_POSITION_X     : value 0, min 0, max 1079, fuzz 0, flat 0, resolution 0
                ABS_MT_POSITION_Y     : value 0, min 0, max 2159, fuzz 0, flat 0, resolution 0
                ABS_MT_TRACKING_ID    : value 0, min 0, max 65535, fuzz 0, flat 0, resolution 0
  input props:
    INPUT_PROP_DIRECT
";

#[cfg(test)]
mod tests {
    use super::codes::*;
    use super::*;

    #[test]
    fn wm_size_reads_physical_and_override() {
        assert_eq!(
            wm_size("Physical size: 1080x2340\n"),
            Ok(DisplaySize {
                physical: Size::new(1080, 2340),
                overridden: None
            })
        );
        let both = wm_size("Physical size: 1440x3200\nOverride size: 1080x2400\n").unwrap();
        assert_eq!(both.physical, Size::new(1440, 3200));
        assert_eq!(both.effective(), Size::new(1080, 2400));
        assert!(matches!(
            wm_size("cmd: Can't find service: window\n"),
            Err(ParseError::Unexpected { .. })
        ));
        assert!(wm_size("").is_err());
    }

    #[test]
    fn wm_density_reads_physical_and_override() {
        assert_eq!(
            wm_density("Physical density: 440\n").unwrap().effective(),
            440
        );
        let d = wm_density("Physical density: 560\r\nOverride density: 480\r\n").unwrap();
        assert_eq!((d.physical, d.overridden), (560, Some(480)));
        assert!(wm_density("Physical density: ?").is_err());
    }

    #[test]
    fn getprop_values_and_listings_parse() {
        assert_eq!(getprop_value("28\n"), Some("28"));
        assert_eq!(getprop_value("\n"), None);
        assert_eq!(sdk_level("31\r\n"), Ok(31));
        assert!(sdk_level("\n").is_err());
        let listing = getprop_listing(
            "[ro.build.version.release]: [9]\n[ro.product.model]: [Pixel 3a]\n[empty]: []\ngarbage\n",
        );
        assert_eq!(listing.len(), 3);
        assert_eq!(listing["ro.product.model"], "Pixel 3a");
        assert_eq!(listing["empty"], "");
    }

    #[test]
    fn rotation_reads_new_and_old_dumpsys_forms() {
        let new = "  mDisplayId=0 mCurrentRotation=ROTATION_90 mLastOrientation=0\n";
        assert_eq!(rotation(new), Some(Rotation::R90));
        assert_eq!(rotation("mCurrentRotation=ROTATION_0"), Some(Rotation::R0));
        assert_eq!(
            rotation("    mRotation=3 mAltOrientation=false\n"),
            Some(Rotation::R270)
        );
        assert_eq!(rotation("mCurrentRotation=2\n"), Some(Rotation::R180));
        // `mCurrentRotation` is preferred over an unrelated `mRotation` elsewhere.
        assert_eq!(
            rotation("mRotation=0\nmCurrentRotation=ROTATION_270\n"),
            Some(Rotation::R270)
        );
        // `mLastRotation=` and friends are not `mRotation=`.
        assert_eq!(rotation("mLastRotation=1 mSeamlessRotation=2"), None);
        assert_eq!(rotation("WINDOW MANAGER DISPLAY CONTENTS\n"), None);
        assert_eq!(
            Rotation::R90.apply(Size::new(1080, 2340)),
            Size::new(2340, 1080)
        );
    }

    /// A node with only the two MT position axes, as a fingerprint sensor or a pen digitizer
    /// declares them.
    fn two_axis_device(
        number: u32,
        path: &str,
        name: &str,
        keys: &str,
        max: (u32, u32),
        props: &str,
    ) -> String {
        format!(
            "add device {number}: {path}
  name:     \"{name}\"
  events:
    KEY (0001): {keys}
    ABS (0003): ABS_MT_POSITION_X     : value 0, min 0, max {}, fuzz 0, flat 0, resolution 0
                ABS_MT_POSITION_Y     : value 0, min 0, max {}, fuzz 0, flat 0, resolution 0
  input props:
    {props}
",
            max.0, max.1
        )
    }

    /// The Mix 2's `getevent -lp` with a fingerprint node before it and a pen digitizer after.
    fn getevent_lp() -> String {
        let fpc = two_axis_device(
            1,
            "/dev/input/event4",
            "uinput-fpc",
            "KEY_UP KEY_LEFT KEY_RIGHT KEY_DOWN",
            (100, 100),
            "<none>",
        );
        let pen = two_axis_device(
            8,
            "/dev/input/event6",
            "wacom_pen",
            "BTN_TOOL_PEN BTN_STYLUS BTN_TOUCH",
            (20000, 30000),
            "INPUT_PROP_DIRECT",
        );
        format!("{fpc}{MIX2_TOUCHSCREEN}{pen}")
    }

    #[test]
    fn getevent_labelled_output_yields_the_synaptics_touchscreen() {
        let devices = getevent_devices(&getevent_lp());
        assert_eq!(devices.len(), 3);
        assert_eq!(devices[1].path, "/dev/input/event1");
        assert_eq!(devices[1].name, "synaptics_dsx");
        assert_eq!(
            devices[1].keys,
            BTreeSet::from([BTN_TOOL_FINGER, BTN_TOUCH])
        );
        assert_eq!(devices[1].abs.len(), 7);
        let t = touchscreen(&devices).unwrap();
        assert_eq!(t.path, "/dev/input/event1");
        assert_eq!((t.x.min, t.x.max, t.y.max), (0, 1079, 2159));
        assert!(t.protocol_b() && t.direct && t.btn_touch && t.btn_tool_finger);
        assert_eq!(t.tracking_id.unwrap().max, 65535);
        assert_eq!(t.touch_major.unwrap().max, 255);
        assert_eq!(t.pressure, None);
    }

    #[test]
    fn a_touchscreen_outside_dev_input_event_n_is_never_chosen() {
        for path in ["/dev/input/event1;reboot", "/sdcard/x", "$(id)", ""] {
            let text = getevent_lp().replace("/dev/input/event1", path);
            let chosen = touchscreen(&getevent_devices(&text));
            assert!(chosen.is_none_or(|t| t.path != path), "{path:?}");
        }
    }

    #[test]
    fn getevent_hex_output_parses_like_the_labelled_one() {
        let hex = "add device 1: /dev/input/event2
  name:     \"goodix_ts\"
  events:
    KEY (0001): 008f  0145  014a 
    ABS (0003): 002f  : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0
                0035  : value 0, min 0, max 143999, fuzz 0, flat 0, resolution 0
                0036  : value 0, min 0, max 319999, fuzz 0, flat 0, resolution 0
                0039  : value -1, min 0, max 65535, fuzz 0, flat 0, resolution 0
                003a  : value 0, min 0, max 255, fuzz 0, flat 0, resolution 0
  input props:
    0001
could not get driver version for /dev/input/mice, Not a typewriter
";
        let devices = getevent_devices(hex);
        assert_eq!(devices.len(), 1);
        let t = touchscreen(&devices).unwrap();
        assert_eq!(t.name, "goodix_ts");
        assert_eq!((t.x.max, t.y.max), (143999, 319999));
        assert_eq!(t.x.span(), 144000);
        assert_eq!(t.tracking_id.unwrap().value, -1);
        assert_eq!(t.pressure.unwrap().max, 255);
        assert!(t.protocol_b() && t.direct && t.btn_touch);
    }

    #[test]
    fn touchscreen_without_slots_is_protocol_a_and_indirect_ones_are_a_last_resort() {
        let text = "add device 1: /dev/input/event0
  name:     \"old_ts\"
  events:
    SW  (0005): 0002 
    ABS (0003): ABS_MT_TOUCH_MAJOR    : value 0, min 0, max 15, fuzz 0, flat 0, resolution 0
                ABS_MT_POSITION_X     : value 0, min 0, max 479, fuzz 0, flat 0, resolution 0
                ABS_MT_POSITION_Y     : value 0, min 0, max 799, fuzz 0, flat 0, resolution 0
  input props:
    <none>
";
        let t = touchscreen(&getevent_devices(text)).unwrap();
        assert!(!t.protocol_b() && !t.direct && !t.btn_touch);
        assert_eq!(
            touchscreen(&getevent_devices(
                "add device 1: /dev/input/event0\n  name:     \"gpio-keys\"\n"
            )),
            None
        );
        assert_eq!(touchscreen(&[]), None);
    }

    fn raw(
        width: u32,
        height: u32,
        format: u32,
        colorspace: Option<u32>,
        pixels: &[u8],
    ) -> Vec<u8> {
        let mut v = Vec::new();
        for w in [width, height, format].into_iter().chain(colorspace) {
            v.extend_from_slice(&w.to_le_bytes());
        }
        v.extend_from_slice(pixels);
        v
    }

    #[test]
    fn rows_cut_on_the_phone_become_a_whole_frame_with_the_edge_rows_repeated() {
        // 2x4 RGBA, row y filled with y+1.
        let px: Vec<u8> = (0..4u8).flat_map(|y| [y + 1; 8]).collect();
        let whole = raw(2, 4, 1, Some(1), &px);
        let layout = RawLayout::of(&whole).unwrap();
        assert_eq!(
            (layout.header.len(), layout.width, layout.height),
            (16, 2, 4)
        );
        assert_eq!(
            layout.rows_command(1..3),
            "screencap | tail -c +25 | head -c 16"
        );
        // What that command prints: bytes 25.. (1-based) of the frame, 16 of them.
        let sent = &whole[24..40];
        let img = layout.frame_from_rows(1..3, sent).unwrap();
        let rows: Vec<u8> = (0..4).map(|y| img.get_pixel(0, y)[0]).collect();
        assert_eq!(rows, [2, 2, 3, 3]);
        assert!(layout.frame_from_rows(1..3, &sent[..8]).is_err());
        assert_eq!(layout.clamp(3..9), 3..4);
        let old = raw(2, 4, 1, None, &px);
        assert_eq!(RawLayout::of(&old).unwrap().header.len(), 12);
        assert!(RawLayout::of(&whole[..30]).is_none());
    }

    #[test]
    fn raw_screencap_reads_12_and_16_byte_headers() {
        let px = [1, 2, 3, 4, 5, 6, 7, 8];
        for cs in [None, Some(1)] {
            let img = raw_screencap(&raw(2, 1, 1, cs, &px)).unwrap();
            assert_eq!(img.dimensions(), (2, 1));
            assert_eq!(img.as_raw(), &px.to_vec());
        }
        let img = raw_screencap(&raw(1, 2, 2, Some(1), &px)).unwrap();
        assert_eq!(
            img.as_raw(),
            &vec![1, 2, 3, 255, 5, 6, 7, 255],
            "RGBX gets opaque alpha"
        );
        let img = raw_screencap(&raw(2, 1, 5, Some(0), &px)).unwrap();
        assert_eq!(
            img.as_raw(),
            &vec![3, 2, 1, 4, 7, 6, 5, 8],
            "BGRA is swapped"
        );
        let img = raw_screencap(&raw(2, 1, 3, None, &[10, 20, 30, 40, 50, 60])).unwrap();
        assert_eq!(img.as_raw(), &vec![10, 20, 30, 255, 40, 50, 60, 255]);
        // RGB_565: pure red 0xf800, pure green 0x07e0, pure blue 0x001f, a mid grey.
        let img = raw_screencap(&raw(
            4,
            1,
            4,
            Some(1),
            &[0x00, 0xf8, 0xe0, 0x07, 0x1f, 0x00, 0x10, 0x84],
        ))
        .unwrap();
        assert_eq!(
            img.as_raw(),
            &vec![
                255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 132, 130, 132, 255
            ]
        );
    }

    #[test]
    fn raw_screencap_refuses_a_header_whose_size_overflows() {
        let mut bytes = Vec::new();
        for word in [u32::MAX, u32::MAX, 1] {
            bytes.extend(word.to_le_bytes());
        }
        bytes.extend([0; 16]);
        assert!(matches!(
            raw_screencap(&bytes),
            Err(ParseError::ScreencapLength { .. })
        ));
    }

    #[test]
    fn raw_screencap_refuses_truncated_padded_and_unknown_frames() {
        let px = [0u8; 8];
        let mut short = raw(2, 1, 1, Some(1), &px);
        short.pop();
        assert!(matches!(
            raw_screencap(&short),
            Err(ParseError::ScreencapLength { len: 23, .. })
        ));
        let mut long = raw(2, 1, 1, Some(1), &px);
        long.extend_from_slice(&[0; 4]);
        assert!(matches!(
            raw_screencap(&long),
            Err(ParseError::ScreencapLength { .. })
        ));
        assert_eq!(
            raw_screencap(&raw(2, 1, 9, None, &px)),
            Err(ParseError::ScreencapFormat(9))
        );
        assert_eq!(
            raw_screencap(b"short"),
            Err(ParseError::ScreencapTooShort { len: 5 })
        );
        assert!(raw_screencap(&raw(0, 0, 1, Some(1), &[])).is_err());
    }

    #[test]
    fn png_screencap_decodes_whole_pngs_and_refuses_damaged_ones() {
        let img = RgbaImage::from_pixel(3, 2, image::Rgba([9, 8, 7, 255]));
        let mut png = Vec::new();
        img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        assert_eq!(png_screencap(&png).unwrap(), img);
        assert!(matches!(
            png_screencap(&png[..png.len() - 3]),
            Err(ParseError::Png(_))
        ));
        assert!(matches!(png_screencap(b""), Err(ParseError::Png(m)) if m == "no data"));
        assert!(png_screencap(b"/system/bin/sh: screencap: not found\n").is_err());
    }

    #[test]
    fn status_marker_splits_output_and_exit_status() {
        assert_eq!(
            with_status_marker("input tap 1 2"),
            "input tap 1 2; echo __rc=$?"
        );
        assert_eq!(split_status(b"__rc=0\n"), (&b""[..], Some(0)));
        assert_eq!(
            split_status(b"hello\n__rc=127\n"),
            (&b"hello\n"[..], Some(127))
        );
        assert_eq!(
            split_status(b"no newline__rc=3\r\n"),
            (&b"no newline"[..], Some(3))
        );
        assert_eq!(
            split_status(b"__rc=0\nlater\n"),
            (&b"__rc=0\nlater\n"[..], None)
        );
        assert_eq!(split_status(b""), (&b""[..], None));
        assert_eq!(split_status(b"__rc=\n"), (&b"__rc=\n"[..], None));
    }
}
