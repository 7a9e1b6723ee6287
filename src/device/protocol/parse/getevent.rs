//! `getevent -lp` / `-p`: input devices, their axes, and which one is the touchscreen.

use super::*;

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
        if !crate::device::protocol::shell_line::is_input_node(&d.path) {
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
