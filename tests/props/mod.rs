//! Property tests (issue 14): whatever a user types or a phone answers, the parsers return a
//! value or an error and never panic. A quick run is part of `cargo test` (256 cases per
//! property, raise it with `PROPTEST_CASES`); a failure prints its shrunk case (no file kept).

use proptest::prelude::*;
use sudoku_agent::device::protocol::parse;
use sudoku_agent::profile::calibration::Calibration;
use sudoku_agent::sudoku::{Board, is_puzzle_list, puzzle_lines};

use crate::support::proptest_config::config;

/// Text made of the pieces real inputs are made of, so the parsers get past their first checks.
fn text_of(pieces: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(pieces).prop_map(str::to_string),
            1 => any::<String>(),
            1 => (any::<i64>()).prop_map(|n| n.to_string()),
        ],
        0..40,
    )
    .prop_map(|v| v.concat())
}

const BOARD_PIECES: &[&str] = &[
    "1",
    "2",
    "5",
    "9",
    "0",
    ".",
    "x",
    " ",
    "\n",
    "\r\n",
    "|",
    "+",
    "-",
    "#",
    "\t",
    "530070000600195000098000060800060003400080001700020006060000280000419005000080079",
    "---------+---------+---------",
];

const CALIBRATION: &str = include_str!("../../calibration.toml");

/// `calibration.toml` with some numbers replaced by hostile values (NaN, infinities, negative,
/// huge, floats for integers) and sometimes an extra key or a cut.
fn hostile_calibration() -> impl Strategy<Value = String> {
    let value = prop_oneof![
        Just("nan".to_string()),
        Just("inf".to_string()),
        Just("-inf".to_string()),
        Just("-1".to_string()),
        Just("4294967295".to_string()),
        Just("4294967290".to_string()),
        Just("18446744073709551615".to_string()),
        Just("0".to_string()),
        Just("1e308".to_string()),
        Just("\"x\"".to_string()),
        any::<u32>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|f| format!("{f:?}")),
    ];
    let numbers = CALIBRATION
        .split(|c: char| !c.is_ascii_digit() && c != '.')
        .filter(|t| !t.is_empty())
        .count();
    (
        prop::collection::vec((0..numbers, value), 0..6),
        prop::option::of("[a-z_]{1,8} = [0-9]{1,3}\n"),
        prop::option::of(0..CALIBRATION.len()),
    )
        .prop_map(|(edits, extra, cut)| {
            let mut tokens: Vec<String> = Vec::new();
            let mut current = String::new();
            let mut index = Vec::new();
            for c in CALIBRATION.chars() {
                let number = c.is_ascii_digit() || c == '.';
                if number != current.chars().all(|c| c.is_ascii_digit() || c == '.')
                    && !current.is_empty()
                {
                    tokens.push(std::mem::take(&mut current));
                }
                current.push(c);
            }
            tokens.push(current);
            for (i, t) in tokens.iter().enumerate() {
                if t.chars().all(|c| c.is_ascii_digit() || c == '.') {
                    index.push(i);
                }
            }
            for (n, v) in edits {
                if let Some(&i) = index.get(n) {
                    tokens[i] = v;
                }
            }
            let mut text = tokens.concat();
            if let Some(extra) = extra {
                text.insert_str(0, &extra);
            }
            if let Some(cut) = cut {
                let mut cut = cut.min(text.len());
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                text.truncate(cut);
            }
            text
        })
}

/// Everything a loaded calibration is used for right away must hold for a validated one.
fn use_calibration(cal: &Calibration) {
    let _ = cal.check_frame(cal.screen);
    for row in 0..9 {
        for col in 0..9 {
            let cell = cal.grid.grid_cell(row, col);
            assert!(cell.fits_in(cal.screen), "{cell:?}");
        }
    }
    let _ = sudoku_agent::plan::layout(cal);
    let _ = cal.to_toml();
}

/// A raw `screencap` frame: a header of any width, height and format (sometimes a real one),
/// pixels of about the right length, sometimes cut or padded.
fn raw_frame() -> impl Strategy<Value = Vec<u8>> {
    (
        prop_oneof![1..64u32, any::<u32>()],
        prop_oneof![1..64u32, any::<u32>()],
        prop_oneof![1..6u32, any::<u32>()],
        any::<bool>(),
        -20i64..20,
        any::<u8>(),
    )
        .prop_map(|(w, h, format, colorspace, slack, fill)| {
            let mut bytes = Vec::new();
            for word in [w, h, format] {
                bytes.extend(word.to_le_bytes());
            }
            if colorspace {
                bytes.extend(1u32.to_le_bytes());
            }
            let pixels = (u64::from(w) * u64::from(h)).min(64 * 64) * 4;
            let len = (pixels as i64 + slack).max(0) as usize;
            bytes.resize(bytes.len() + len, fill);
            bytes
        })
}

const GETEVENT_PIECES: &[&str] = &[
    "add device 1: /dev/input/event1\n",
    "add device 2: /dev/input/event2;reboot\n",
    "add device 3:\n",
    "  name:     \"synaptics_dsx\"\n",
    "  name: \"uinput-fpc\"\n",
    "  events:\n",
    "    KEY (0001): BTN_TOUCH BTN_TOOL_FINGER BTN_TOOL_PEN 014a\n",
    "    ABS (0003): ABS_MT_SLOT           : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0\n",
    "                ABS_MT_POSITION_X     : value 0, min 0, max 1079, fuzz 0, flat 0, resolution 0\n",
    "                ABS_MT_POSITION_Y     : value 0, min 0, max 2159, fuzz 0, flat 0, resolution 0\n",
    "                0035  : value 0, min -5, max 99999999999, fuzz 0, flat 0, resolution 0\n",
    "                ABS_MT_TRACKING_ID    : value 0, min 0, max 65535\n",
    "  input props:\n",
    "    INPUT_PROP_DIRECT\n",
    "could not open /dev/input/event4, Permission denied\n",
    "):",
    "(",
    ":",
    " ",
    "\n",
];

const SHELL_PIECES: &[&str] = &[
    "Physical size: ",
    "Override size: ",
    "Physical density: ",
    "Override density: ",
    "1080x2340",
    "x",
    "0x0",
    "4294967295x4294967295",
    "[ro.build.version.sdk]: [",
    "]",
    "[",
    ": ",
    "mRotation=",
    "mCurrentRotation=ROTATION_",
    "mCurrentOrientation=",
    "rotation=",
    "270",
    "-90",
    "__rc=",
    "\r",
    "\n",
    " ",
];

proptest! {
    #![proptest_config(config())]

    #[test]
    fn board_parsing_never_panics(text in text_of(BOARD_PIECES)) {
        if let Ok(board) = Board::parse(&text) {
            prop_assert_eq!(Board::parse(&board.to_line()).ok(), Some(board));
            let _ = board.conflicts();
        }
        let _ = is_puzzle_list(&text);
        for line in puzzle_lines(&text) {
            let _ = line.board.map(|b| b.to_grid());
        }
    }

    #[test]
    fn any_text_as_calibration_toml_never_panics(text in any::<String>()) {
        if let Ok(cal) = toml::from_str::<Calibration>(&text)
            && cal.validate().is_ok()
        {
            use_calibration(&cal);
        }
    }

    #[test]
    fn a_calibration_with_hostile_values_is_refused_or_usable_never_a_panic(
        text in hostile_calibration()
    ) {
        if let Ok(cal) = toml::from_str::<Calibration>(&text)
            && cal.validate().is_ok()
        {
            use_calibration(&cal);
        }
    }

    #[test]
    fn raw_screencap_frames_of_any_header_or_length_never_panic(bytes in raw_frame()) {
        if let Ok(img) = parse::raw_screencap(&bytes) {
            prop_assert!(img.width() > 0 && img.height() > 0);
        }
    }

    #[test]
    fn raw_and_png_screencap_of_any_bytes_never_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..512)
    ) {
        let _ = parse::raw_screencap(&bytes);
        let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
        png.extend(&bytes);
        png.extend(b"IEND\xae\x42\x60\x82");
        let _ = parse::png_screencap(&png);
        let _ = parse::png_screencap(&bytes);
    }

    #[test]
    fn getevent_listings_never_panic_and_only_event_nodes_become_touchscreens(
        text in text_of(GETEVENT_PIECES)
    ) {
        let devices = parse::getevent_devices(&text);
        if let Some(t) = parse::touchscreen(&devices) {
            prop_assert!(sudoku_agent::device::protocol::shell_line::is_input_node(&t.path), "{}", t.path);
            let _ = t.x.span();
        }
    }

    #[test]
    fn wm_getprop_dumpsys_and_status_parsers_never_panic(text in text_of(SHELL_PIECES)) {
        if let Ok(size) = parse::wm_size(&text) {
            let _ = size.effective();
        }
        if let Ok(density) = parse::wm_density(&text) {
            let _ = density.effective();
        }
        let _ = parse::getprop_value(&text);
        let _ = parse::getprop_listing(&text);
        let _ = parse::sdk_level(&text);
        if let Some(r) = parse::rotation(&text) {
            let _ = r.apply(sudoku_agent::geometry::Size::new(1080, 2340));
        }
        let _ = parse::split_status(text.as_bytes());
    }
}
