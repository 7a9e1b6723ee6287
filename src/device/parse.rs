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

/// What `wm size` reports: the panel's physical size and an optional `wm size WxH` override.
/// Both are in the display's natural orientation (usually portrait).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DisplaySize {
    pub physical: Size,
    pub override_size: Option<Size>,
}

impl DisplaySize {
    /// The size apps and `input` work in: the override when there is one.
    pub fn effective(&self) -> Size {
        self.override_size.unwrap_or(self.physical)
    }
}

/// Parses `wm size`: `Physical size: 1080x2340` plus, when overridden, `Override size: 720x1560`.
pub fn wm_size(text: &str) -> Result<DisplaySize, ParseError> {
    let field = |label: &str| {
        text.lines()
            .filter_map(|l| l.trim().strip_prefix(label))
            .filter_map(|v| v.trim().parse::<Size>().ok())
            .next()
    };
    let physical = field("Physical size:").ok_or_else(|| unexpected("wm size", text))?;
    Ok(DisplaySize {
        physical,
        override_size: field("Override size:"),
    })
}

/// What `wm density` reports, in dots per inch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Density {
    pub physical: u32,
    pub override_density: Option<u32>,
}

impl Density {
    pub fn effective(&self) -> u32 {
        self.override_density.unwrap_or(self.physical)
    }
}

/// Parses `wm density`: `Physical density: 440` plus an optional `Override density: 480`.
pub fn wm_density(text: &str) -> Result<Density, ParseError> {
    let field = |label: &str| {
        text.lines()
            .filter_map(|l| l.trim().strip_prefix(label))
            .filter_map(|v| v.trim().parse::<u32>().ok())
            .next()
    };
    let physical = field("Physical density:").ok_or_else(|| unexpected("wm density", text))?;
    Ok(Density {
        physical,
        override_density: field("Override density:"),
    })
}

/// The value printed by `getprop NAME`: the trimmed text, `None` when the property is unset
/// (getprop prints an empty line).
pub fn getprop_value(text: &str) -> Option<&str> {
    let v = text.trim();
    (!v.is_empty()).then_some(v)
}

/// Parses the listing printed by a bare `getprop`: lines `[ro.build.version.sdk]: [28]`.
pub fn getprop_listing(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|l| {
            let (key, value) = l.trim().split_once("]: [")?;
            let key = key.strip_prefix('[')?;
            let value = value.strip_suffix(']')?;
            Some((key.to_string(), value.to_string()))
        })
        .collect()
}

/// Parses `getprop ro.build.version.sdk` (`28`) into the API level.
pub fn sdk_level(text: &str) -> Result<u32, ParseError> {
    getprop_value(text)
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| unexpected("getprop ro.build.version.sdk", text))
}

/// Display rotation, clockwise from the natural orientation (Surface.ROTATION_*).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rotation {
    #[default]
    R0,
    R90,
    R180,
    R270,
}

impl Rotation {
    /// From quarter turns (0..=3, as in `mRotation=1`) or degrees (90, 180, 270).
    pub fn from_number(n: u32) -> Option<Rotation> {
        match n {
            0 => Some(Rotation::R0),
            1 | 90 => Some(Rotation::R90),
            2 | 180 => Some(Rotation::R180),
            3 | 270 => Some(Rotation::R270),
            _ => None,
        }
    }

    pub fn degrees(self) -> u32 {
        match self {
            Rotation::R0 => 0,
            Rotation::R90 => 90,
            Rotation::R180 => 180,
            Rotation::R270 => 270,
        }
    }

    /// True for 90 and 270: width and height swap.
    pub fn is_sideways(self) -> bool {
        matches!(self, Rotation::R90 | Rotation::R270)
    }

    /// A natural-orientation size as seen in this rotation.
    pub fn apply(self, natural: Size) -> Size {
        if self.is_sideways() {
            Size::new(natural.height, natural.width)
        } else {
            natural
        }
    }
}

/// Finds the display rotation in `dumpsys window displays`: `mCurrentRotation=ROTATION_90` on
/// newer builds, `mCurrentRotation=1` or `mRotation=1` on older ones. The first match wins
/// (the default display is listed first).
pub fn rotation(dumpsys: &str) -> Option<Rotation> {
    for key in ["mCurrentRotation=", "mRotation="] {
        for (i, _) in dumpsys.match_indices(key) {
            // Whole keys only: `mRotation=` must not match inside `mLastRotation=`.
            let before = dumpsys[..i].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &dumpsys[i + key.len()..];
            let token: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let digits = token.strip_prefix("ROTATION_").unwrap_or(&token);
            if let Some(r) = digits.parse().ok().and_then(Rotation::from_number) {
                return Some(r);
            }
        }
    }
    None
}

/// Event types and codes from `linux/input-event-codes.h` that we read or write.
pub mod codes {
    pub const EV_SYN: u16 = 0x00;
    pub const EV_KEY: u16 = 0x01;
    pub const EV_ABS: u16 = 0x03;
    pub const SYN_REPORT: u16 = 0;
    pub const SYN_MT_REPORT: u16 = 2;
    pub const BTN_TOOL_PEN: u16 = 0x140;
    pub const BTN_TOOL_FINGER: u16 = 0x145;
    pub const BTN_TOUCH: u16 = 0x14a;
    pub const BTN_STYLUS: u16 = 0x14b;
    pub const ABS_X: u16 = 0x00;
    pub const ABS_Y: u16 = 0x01;
    pub const ABS_PRESSURE: u16 = 0x18;
    pub const ABS_MT_SLOT: u16 = 0x2f;
    pub const ABS_MT_TOUCH_MAJOR: u16 = 0x30;
    pub const ABS_MT_TOUCH_MINOR: u16 = 0x31;
    pub const ABS_MT_WIDTH_MAJOR: u16 = 0x32;
    pub const ABS_MT_WIDTH_MINOR: u16 = 0x33;
    pub const ABS_MT_ORIENTATION: u16 = 0x34;
    pub const ABS_MT_POSITION_X: u16 = 0x35;
    pub const ABS_MT_POSITION_Y: u16 = 0x36;
    pub const ABS_MT_TOOL_TYPE: u16 = 0x37;
    pub const ABS_MT_BLOB_ID: u16 = 0x38;
    pub const ABS_MT_TRACKING_ID: u16 = 0x39;
    pub const ABS_MT_PRESSURE: u16 = 0x3a;
    pub const ABS_MT_DISTANCE: u16 = 0x3b;
    pub const INPUT_PROP_POINTER: u16 = 0;
    pub const INPUT_PROP_DIRECT: u16 = 1;
}

use codes::*;

/// `getevent -l` labels for the codes a touchscreen choice depends on; other labels are kept out
/// (unknown labels are simply not recorded).
fn label_code(kind: &str, label: &str) -> Option<u16> {
    let table: &[(&str, u16)] = match kind {
        "KEY" => &[
            ("BTN_TOOL_PEN", BTN_TOOL_PEN),
            ("BTN_TOOL_FINGER", BTN_TOOL_FINGER),
            ("BTN_TOUCH", BTN_TOUCH),
            ("BTN_STYLUS", BTN_STYLUS),
        ],
        "ABS" => &[
            ("ABS_X", ABS_X),
            ("ABS_Y", ABS_Y),
            ("ABS_PRESSURE", ABS_PRESSURE),
            ("ABS_MT_SLOT", ABS_MT_SLOT),
            ("ABS_MT_TOUCH_MAJOR", ABS_MT_TOUCH_MAJOR),
            ("ABS_MT_TOUCH_MINOR", ABS_MT_TOUCH_MINOR),
            ("ABS_MT_WIDTH_MAJOR", ABS_MT_WIDTH_MAJOR),
            ("ABS_MT_WIDTH_MINOR", ABS_MT_WIDTH_MINOR),
            ("ABS_MT_ORIENTATION", ABS_MT_ORIENTATION),
            ("ABS_MT_POSITION_X", ABS_MT_POSITION_X),
            ("ABS_MT_POSITION_Y", ABS_MT_POSITION_Y),
            ("ABS_MT_TOOL_TYPE", ABS_MT_TOOL_TYPE),
            ("ABS_MT_BLOB_ID", ABS_MT_BLOB_ID),
            ("ABS_MT_TRACKING_ID", ABS_MT_TRACKING_ID),
            ("ABS_MT_PRESSURE", ABS_MT_PRESSURE),
            ("ABS_MT_DISTANCE", ABS_MT_DISTANCE),
        ],
        "PROP" => &[
            ("INPUT_PROP_POINTER", INPUT_PROP_POINTER),
            ("INPUT_PROP_DIRECT", INPUT_PROP_DIRECT),
        ],
        _ => &[],
    };
    table
        .iter()
        .find(|(name, _)| *name == label)
        .map(|&(_, c)| c)
}

/// A code printed by getevent: four hex digits (`0035`, plain `-p`) or a label (`-lp`).
fn code_of(kind: &str, token: &str) -> Option<u16> {
    let token = token.trim_end_matches('*');
    if token.len() == 4 && token.chars().all(|c| c.is_ascii_hexdigit()) {
        u16::from_str_radix(token, 16).ok()
    } else {
        label_code(kind, token)
    }
}

/// One axis as `getevent -p` prints it: `value 0, min 0, max 1079, fuzz 0, flat 0, resolution 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AbsInfo {
    pub value: i32,
    pub min: i32,
    pub max: i32,
    pub fuzz: i32,
    pub flat: i32,
    pub resolution: i32,
}

impl AbsInfo {
    /// Number of distinct values, `max - min + 1` (at least 1).
    pub fn span(&self) -> u32 {
        (self.max as i64 - self.min as i64 + 1).clamp(1, u32::MAX as i64) as u32
    }
}

fn parse_abs_info(tail: &str) -> Option<AbsInfo> {
    let mut info = AbsInfo::default();
    let mut seen = 0;
    for part in tail.split(',') {
        let (name, value) = part.trim().split_once(' ')?;
        let value: i32 = value.trim().parse().ok()?;
        match name {
            "value" => info.value = value,
            "min" => info.min = value,
            "max" => info.max = value,
            "fuzz" => info.fuzz = value,
            "flat" => info.flat = value,
            "resolution" => info.resolution = value,
            _ => continue,
        }
        seen += 1;
    }
    (seen >= 3).then_some(info)
}

/// One input device from `getevent -lp` / `getevent -p`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct InputDevice {
    /// `/dev/input/eventN`
    pub path: String,
    pub name: String,
    pub keys: BTreeSet<u16>,
    pub abs: BTreeMap<u16, AbsInfo>,
    pub props: BTreeSet<u16>,
}

/// Parses `getevent -lp` (labels) or `getevent -p` (hex codes) into its devices.
pub fn getevent_devices(text: &str) -> Vec<InputDevice> {
    let mut devices: Vec<InputDevice> = Vec::new();
    // Which block the continuation lines belong to: "KEY", "ABS", "PROP" or another kind.
    let mut section = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix("add device ") {
            let path = rest.split_once(':').map_or("", |(_, p)| p).trim();
            devices.push(InputDevice {
                path: path.to_string(),
                ..Default::default()
            });
            section.clear();
            continue;
        }
        let Some(dev) = devices.last_mut() else {
            continue;
        };
        if let Some(name) = trimmed.strip_prefix("name:") {
            dev.name = name.trim().trim_matches('"').to_string();
            section.clear();
            continue;
        }
        if trimmed == "events:" {
            section.clear();
            continue;
        }
        if trimmed == "input props:" {
            section = "PROP".into();
            continue;
        }
        let mut body = trimmed;
        // `KEY (0001): ...`, `SW  (0005): ...`: a new event-type block.
        if let Some(close) = trimmed.find("):")
            && let Some(open) = trimmed[..close].rfind('(')
            && let kind = trimmed[..open].trim()
            && !kind.is_empty()
            && kind.chars().all(|c| c.is_ascii_uppercase())
        {
            section = kind.to_string();
            body = trimmed[close + 2..].trim();
        } else if !line.starts_with(' ') && !line.starts_with('\t') {
            // Anything else at column 0 (errors such as `could not open ...`) ends the block.
            section.clear();
            continue;
        }
        match section.as_str() {
            "KEY" => dev
                .keys
                .extend(body.split_whitespace().filter_map(|t| code_of("KEY", t))),
            "ABS" => {
                if let Some((code, tail)) = body.split_once(':')
                    && let (Some(code), Some(info)) =
                        (code_of("ABS", code.trim()), parse_abs_info(tail))
                {
                    dev.abs.insert(code, info);
                }
            }
            "PROP" => {
                if let Some(code) = code_of("PROP", body) {
                    dev.props.insert(code);
                }
            }
            _ => {}
        }
    }
    devices
}

/// The multi-touch screen to inject raw events into, with what it declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Touchscreen {
    pub path: String,
    pub name: String,
    pub x: AbsInfo,
    pub y: AbsInfo,
    /// `ABS_MT_SLOT` present: protocol B (slots); absent: protocol A.
    pub slot: Option<AbsInfo>,
    pub tracking_id: Option<AbsInfo>,
    pub pressure: Option<AbsInfo>,
    pub touch_major: Option<AbsInfo>,
    pub btn_touch: bool,
    pub btn_tool_finger: bool,
    pub direct: bool,
}

impl Touchscreen {
    pub fn protocol_b(&self) -> bool {
        self.slot.is_some()
    }

    /// `None` unless the device has both MT axes and its path is `/dev/input/eventN`: the path
    /// is written into shell commands (`dd of=PATH`), so nothing else is taken from the phone.
    fn from_device(d: &InputDevice) -> Option<Touchscreen> {
        if !super::shell_quote::is_input_node(&d.path) {
            log::info!(
                "ignoring input device at {:?}: not /dev/input/eventN",
                d.path
            );
            return None;
        }
        Some(Touchscreen {
            path: d.path.clone(),
            name: d.name.clone(),
            x: *d.abs.get(&ABS_MT_POSITION_X)?,
            y: *d.abs.get(&ABS_MT_POSITION_Y)?,
            slot: d.abs.get(&ABS_MT_SLOT).copied(),
            tracking_id: d.abs.get(&ABS_MT_TRACKING_ID).copied(),
            pressure: d.abs.get(&ABS_MT_PRESSURE).copied(),
            touch_major: d.abs.get(&ABS_MT_TOUCH_MAJOR).copied(),
            btn_touch: d.keys.contains(&BTN_TOUCH),
            btn_tool_finger: d.keys.contains(&BTN_TOOL_FINGER),
            direct: d.props.contains(&INPUT_PROP_DIRECT),
        })
    }
}

/// Picks the touchscreen: a device with `ABS_MT_POSITION_X/Y`, not a pen-only digitizer and not a
/// `uinput-*` node (fingerprint sensors), preferring `INPUT_PROP_DIRECT`; the first listed wins a tie.
pub fn touchscreen(devices: &[InputDevice]) -> Option<Touchscreen> {
    let usable = devices.iter().filter(|d| {
        let pen_only = d.keys.contains(&BTN_TOOL_PEN) && !d.keys.contains(&BTN_TOOL_FINGER);
        !pen_only && !d.name.starts_with("uinput")
    });
    let candidates: Vec<Touchscreen> = usable.filter_map(Touchscreen::from_device).collect();
    candidates
        .iter()
        .find(|t| t.direct)
        .or_else(|| candidates.first())
        .cloned()
}

/// Pixel formats of `screencap` raw output (`android/graphics` PixelFormat values).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PixelFormat {
    Rgba8888,
    Rgbx8888,
    Rgb888,
    Rgb565,
    Bgra8888,
}

impl PixelFormat {
    pub fn from_code(code: u32) -> Option<PixelFormat> {
        Some(match code {
            1 => PixelFormat::Rgba8888,
            2 => PixelFormat::Rgbx8888,
            3 => PixelFormat::Rgb888,
            4 => PixelFormat::Rgb565,
            5 => PixelFormat::Bgra8888,
            _ => return None,
        })
    }

    pub fn bytes_per_pixel(self) -> u32 {
        match self {
            PixelFormat::Rgb565 => 2,
            PixelFormat::Rgb888 => 3,
            _ => 4,
        }
    }
}

/// Decodes raw `screencap` output: `u32 width, height, format, [colorspace]` (12-byte header
/// before Android 8.1, 16 after) then tightly packed rows. The header length is derived from the
/// total length, so truncated or padded frames are refused instead of shifted.
pub fn raw_screencap(bytes: &[u8]) -> Result<RgbaImage, ParseError> {
    if bytes.len() < 12 {
        return Err(ParseError::ScreencapTooShort { len: bytes.len() });
    }
    let word = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let (width, height, code) = (word(0), word(4), word(8));
    let format = PixelFormat::from_code(code).ok_or(ParseError::ScreencapFormat(code))?;
    let bpp = format.bytes_per_pixel();
    // Checked: a header of 0xffffffff x 0xffffffff overflowed u64 (a panic in debug builds, and
    // in release a wrapped length that could pass and then fail `from_raw`).
    let pixels = (width as u64)
        .checked_mul(height as u64)
        .and_then(|n| n.checked_mul(bpp as u64));
    let header = pixels.and_then(|p| (bytes.len() as u64).checked_sub(p));
    let header = match header {
        Some(h @ (12 | 16)) if width > 0 && height > 0 => h as usize,
        _ => {
            return Err(ParseError::ScreencapLength {
                width,
                height,
                format: code,
                bpp,
                len: bytes.len(),
            });
        }
    };
    let data = &bytes[header..];
    let rgba: Vec<u8> = match format {
        PixelFormat::Rgba8888 => data.to_vec(),
        PixelFormat::Rgbx8888 => {
            let mut v = data.to_vec();
            v.chunks_exact_mut(4).for_each(|p| p[3] = 255);
            v
        }
        PixelFormat::Bgra8888 => data
            .chunks_exact(4)
            .flat_map(|p| [p[2], p[1], p[0], p[3]])
            .collect(),
        PixelFormat::Rgb888 => data
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        PixelFormat::Rgb565 => data
            .chunks_exact(2)
            .flat_map(|p| {
                let v = u16::from_le_bytes([p[0], p[1]]);
                let (r, g, b) = ((v >> 11) & 0x1f, (v >> 5) & 0x3f, v & 0x1f);
                // Replicate the high bits into the low ones so that 0x1f maps to 255.
                let r = ((r << 3) | (r >> 2)) as u8;
                let g = ((g << 2) | (g >> 4)) as u8;
                let b = ((b << 3) | (b >> 2)) as u8;
                [r, g, b, 255]
            })
            .collect(),
    };
    Ok(RgbaImage::from_raw(width, height, rgba).expect("length checked above"))
}

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
const PNG_IEND: &[u8] = b"IEND\xae\x42\x60\x82";

/// Decodes `screencap -p` output after checking it is one whole PNG (signature at the start,
/// `IEND` chunk at the end), which catches truncated transfers and PTY-mangled line endings.
pub fn png_screencap(bytes: &[u8]) -> Result<RgbaImage, ParseError> {
    if !bytes.starts_with(PNG_SIGNATURE) {
        let what = if bytes.is_empty() {
            "no data".to_string()
        } else {
            format!("{} bytes without a PNG signature", bytes.len())
        };
        return Err(ParseError::Png(what));
    }
    if !bytes.ends_with(PNG_IEND) {
        return Err(ParseError::Png(format!(
            "{} bytes without the final IEND chunk",
            bytes.len()
        )));
    }
    image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
        .map(|img| img.to_rgba8())
        .map_err(|e| ParseError::Png(e.to_string()))
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wm_size_reads_physical_and_override() {
        assert_eq!(
            wm_size("Physical size: 1080x2340\n"),
            Ok(DisplaySize {
                physical: Size::new(1080, 2340),
                override_size: None
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
        assert_eq!((d.physical, d.override_density), (560, Some(480)));
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

    /// Real `getevent -lp` from a Mi Mix 2 (LineageOS 17.1) as quoted in android-input.md, with
    /// a fingerprint node and a pen digitizer added around it.
    const GETEVENT_LP: &str = "add device 1: /dev/input/event4
  name:     \"uinput-fpc\"
  events:
    KEY (0001): KEY_UP                KEY_LEFT              KEY_RIGHT             KEY_DOWN
    ABS (0003): ABS_MT_POSITION_X     : value 0, min 0, max 100, fuzz 0, flat 0, resolution 0
                ABS_MT_POSITION_Y     : value 0, min 0, max 100, fuzz 0, flat 0, resolution 0
  input props:
    <none>
add device 7: /dev/input/event1
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
add device 8: /dev/input/event6
  name:     \"wacom_pen\"
  events:
    KEY (0001): BTN_TOOL_PEN          BTN_STYLUS            BTN_TOUCH
    ABS (0003): ABS_MT_POSITION_X     : value 0, min 0, max 20000, fuzz 0, flat 0, resolution 0
                ABS_MT_POSITION_Y     : value 0, min 0, max 30000, fuzz 0, flat 0, resolution 0
  input props:
    INPUT_PROP_DIRECT
";

    #[test]
    fn getevent_labelled_output_yields_the_synaptics_touchscreen() {
        let devices = getevent_devices(GETEVENT_LP);
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
            let text = GETEVENT_LP.replace("/dev/input/event1", path);
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
