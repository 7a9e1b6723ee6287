//! The phone's touch hardware and the part of Android's input stack that turns raw contacts into
//! taps: the input devices `getevent -lp` lists, the 24-byte `input_event` record, a protocol-B
//! (slotted multi-touch) decoder whose frames end at `SYN_REPORT`, and the mapping of raw panel
//! coordinates to screen pixels as inputflinger's `TouchInputMapper` does it. A contact that lifts
//! close to where it went down is a tap; one that travelled further than the touch slop is a
//! swipe, which a sudoku grid ignores.

use crate::geometry::{Point, Size};

pub const EV_SYN: u16 = 0;
pub const EV_KEY: u16 = 1;
pub const EV_ABS: u16 = 3;
pub const SYN_REPORT: u16 = 0;
pub const BTN_TOUCH: u16 = 330;
pub const BTN_TOOL_FINGER: u16 = 325;
pub const ABS_MT_SLOT: u16 = 47;
pub const ABS_MT_TOUCH_MAJOR: u16 = 48;
pub const ABS_MT_POSITION_X: u16 = 53;
pub const ABS_MT_POSITION_Y: u16 = 54;
pub const ABS_MT_TRACKING_ID: u16 = 57;
pub const ABS_MT_PRESSURE: u16 = 58;

/// Size of `struct input_event` written by a 64-bit process (arm64 userspace).
pub const RECORD_SIZE: usize = 24;

/// One `struct input_event` (the timestamp is ignored: the kernel stamps events itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EvdevEvent {
    pub kind: u16,
    pub code: u16,
    pub value: i32,
}

impl EvdevEvent {
    pub const fn new(kind: u16, code: u16, value: i32) -> Self {
        EvdevEvent { kind, code, value }
    }

    /// Decodes a 64-bit `input_event`: `i64 tv_sec, i64 tv_usec, u16 type, u16 code, i32 value`.
    pub fn from_record(record: &[u8; RECORD_SIZE]) -> Self {
        EvdevEvent {
            kind: u16::from_le_bytes([record[16], record[17]]),
            code: u16::from_le_bytes([record[18], record[19]]),
            value: i32::from_le_bytes([record[20], record[21], record[22], record[23]]),
        }
    }

    /// Encodes a 64-bit `input_event` with a zero timestamp.
    pub fn to_record(self) -> [u8; RECORD_SIZE] {
        let mut r = [0u8; RECORD_SIZE];
        r[16..18].copy_from_slice(&self.kind.to_le_bytes());
        r[18..20].copy_from_slice(&self.code.to_le_bytes());
        r[20..24].copy_from_slice(&self.value.to_le_bytes());
        r
    }
}

/// One absolute axis as the kernel describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AbsAxis {
    pub name: &'static str,
    pub code: u16,
    pub min: i32,
    pub max: i32,
}

/// One `/dev/input/eventN` node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputDevice {
    pub path: &'static str,
    pub name: &'static str,
    pub keys: Vec<(&'static str, u16)>,
    pub axes: Vec<AbsAxis>,
    pub props: Vec<&'static str>,
}

/// The phone's input devices: power key, volume keys, the touchscreen (`/dev/input/event2`) and a
/// fingerprint sensor, like a typical handset. The touch panel's raw ranges are the sensor's own
/// (a 1440x3200-class panel at 10x resolution), not the screen size, so a host must scale.
pub fn input_devices() -> Vec<InputDevice> {
    vec![
        InputDevice {
            path: "/dev/input/event0",
            name: "qpnp_pon",
            keys: vec![("KEY_VOLUMEDOWN", 114), ("KEY_POWER", 116)],
            axes: vec![],
            props: vec![],
        },
        InputDevice {
            path: "/dev/input/event1",
            name: "gpio-keys",
            keys: vec![("KEY_VOLUMEUP", 115)],
            axes: vec![],
            props: vec![],
        },
        InputDevice {
            path: TOUCHSCREEN,
            name: "fts_ts",
            keys: vec![
                ("BTN_TOOL_FINGER", BTN_TOOL_FINGER),
                ("BTN_TOUCH", BTN_TOUCH),
            ],
            axes: vec![
                AbsAxis::new("ABS_MT_SLOT", ABS_MT_SLOT, 0, 9),
                AbsAxis::new("ABS_MT_TOUCH_MAJOR", ABS_MT_TOUCH_MAJOR, 0, 255),
                AbsAxis::new("ABS_MT_POSITION_X", ABS_MT_POSITION_X, 0, PANEL_MAX_X),
                AbsAxis::new("ABS_MT_POSITION_Y", ABS_MT_POSITION_Y, 0, PANEL_MAX_Y),
                AbsAxis::new("ABS_MT_TRACKING_ID", ABS_MT_TRACKING_ID, 0, 65535),
                AbsAxis::new("ABS_MT_PRESSURE", ABS_MT_PRESSURE, 0, 255),
            ],
            props: vec!["INPUT_PROP_DIRECT"],
        },
        InputDevice {
            path: "/dev/input/event3",
            name: "uinput-fpc",
            keys: vec![("KEY_HOME", 102)],
            axes: vec![],
            props: vec![],
        },
    ]
}

impl AbsAxis {
    const fn new(name: &'static str, code: u16, min: i32, max: i32) -> Self {
        AbsAxis {
            name,
            code,
            min,
            max,
        }
    }
}

/// The touchscreen node.
pub const TOUCHSCREEN: &str = "/dev/input/event2";
pub const PANEL_MAX_X: i32 = 14399;
pub const PANEL_MAX_Y: i32 = 31999;
const SLOTS: usize = 10;

/// `getevent -p` / `getevent -lp` output for `devices` (`labels` = `-l`: names instead of hex).
pub fn getevent_listing(devices: &[InputDevice], labels: bool) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for (i, dev) in devices.iter().enumerate() {
        let _ = writeln!(out, "add device {}: {}", i + 1, dev.path);
        let _ = writeln!(out, "  name:     \"{}\"", dev.name);
        let _ = writeln!(out, "  events:");
        if !dev.keys.is_empty() {
            let _ = write!(out, "    KEY (0001):");
            for (name, code) in &dev.keys {
                if labels {
                    let _ = write!(out, " {name:<21}");
                } else {
                    let _ = write!(out, " {code:04x}");
                }
            }
            out.push('\n');
        }
        for (j, axis) in dev.axes.iter().enumerate() {
            let prefix = if j == 0 {
                "    ABS (0003): "
            } else {
                "                "
            };
            let label = if labels {
                format!("{:<22}", axis.name)
            } else {
                format!("{:04x}  ", axis.code)
            };
            let _ = writeln!(
                out,
                "{prefix}{label}: value 0, min {}, max {}, fuzz 0, flat 0, resolution 0",
                axis.min, axis.max
            );
        }
        if !dev.props.is_empty() {
            let _ = writeln!(out, "  input props:");
            for p in &dev.props {
                if labels {
                    let _ = writeln!(out, "    {p}");
                } else {
                    let _ = writeln!(out, "    <none>");
                }
            }
        }
    }
    out
}

/// Raw panel position -> screen pixel, as `TouchInputMapper` computes it for rotation 0:
/// `scale = screen / (max - min + 1)`, `px = (raw - min) * scale`.
pub fn raw_to_pixel(raw_x: i32, raw_y: i32, screen: Size) -> Point {
    let map = |raw: i32, max: i32, span: u32| {
        let raw = raw.clamp(0, max) as u64;
        ((raw * span as u64) / (max as u64 + 1)).min(span as u64 - 1) as u32
    };
    Point::new(
        map(raw_x, PANEL_MAX_X, screen.width),
        map(raw_y, PANEL_MAX_Y, screen.height),
    )
}

/// The inverse of `raw_to_pixel` (what a host should send for pixel `p`): the raw value at the
/// centre of the pixel's span, so that it maps back to exactly `p`.
pub fn pixel_to_raw(p: Point, screen: Size) -> (i32, i32) {
    let map = |px: u32, max: i32, span: u32| {
        ((2 * px as u64 + 1) * (max as u64 + 1) / (2 * span as u64)) as i32
    };
    (
        map(p.x, PANEL_MAX_X, screen.width),
        map(p.y, PANEL_MAX_Y, screen.height),
    )
}

/// One finger on the glass, in screen pixels, from touch-down to lift.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Contact {
    down: Point,
    last: Point,
    moved: bool,
}

impl Contact {
    fn start(at: Point) -> Self {
        Contact {
            down: at,
            last: at,
            moved: false,
        }
    }

    fn move_to(&mut self, at: Point, slop: u32) {
        let dx = at.x.abs_diff(self.down.x) as u64;
        let dy = at.y.abs_diff(self.down.y) as u64;
        if dx * dx + dy * dy > slop as u64 * slop as u64 {
            self.moved = true;
        }
        self.last = at;
    }

    /// The tap this contact makes when it lifts, if it stayed within the slop.
    fn lift(self) -> Option<Point> {
        (!self.moved).then_some(self.last)
    }
}

/// Per-slot kernel state (values persist between frames, as in the kernel).
#[derive(Debug, Clone, Copy)]
struct Slot {
    tracking_id: i32,
    x: i32,
    y: i32,
    pressure: i32,
    /// Tracking id and contact as of the last `SYN_REPORT`.
    reported_id: i32,
    contact: Option<Contact>,
}

impl Default for Slot {
    fn default() -> Self {
        Slot {
            tracking_id: -1,
            x: 0,
            y: 0,
            pressure: 0,
            reported_id: -1,
            contact: None,
        }
    }
}

/// Decodes the touchscreen's event stream (protocol B) into taps in screen pixels. A slot touches
/// when it has a tracking id, BTN_TOUCH is 1 and pressure is above 0 (the panel declares both,
/// so Android treats anything else as hovering); a tap is emitted when the touch ends.
#[derive(Debug, Clone)]
pub struct TouchReader {
    screen: Size,
    slop: u32,
    slots: [Slot; SLOTS],
    slot: usize,
    btn_touch: bool,
}

impl TouchReader {
    /// `slop` is the touch slop in pixels (8 dp on Android).
    pub fn new(screen: Size, slop: u32) -> Self {
        TouchReader {
            screen,
            slop,
            slots: [Slot::default(); SLOTS],
            slot: 0,
            btn_touch: false,
        }
    }

    /// Feeds one event; returns the taps completed by it (only `SYN_REPORT` completes any).
    pub fn feed(&mut self, ev: EvdevEvent) -> Vec<Point> {
        match (ev.kind, ev.code) {
            // The kernel ignores out-of-range slots; so do we (later axes go to the old slot).
            (EV_ABS, ABS_MT_SLOT) if (0..SLOTS as i32).contains(&ev.value) => {
                self.slot = ev.value as usize;
            }
            (EV_ABS, ABS_MT_TRACKING_ID) => self.slots[self.slot].tracking_id = ev.value.max(-1),
            (EV_ABS, ABS_MT_POSITION_X) => self.slots[self.slot].x = ev.value,
            (EV_ABS, ABS_MT_POSITION_Y) => self.slots[self.slot].y = ev.value,
            (EV_ABS, ABS_MT_PRESSURE) => self.slots[self.slot].pressure = ev.value,
            (EV_KEY, BTN_TOUCH) => self.btn_touch = ev.value != 0,
            (EV_SYN, SYN_REPORT) => return self.sync(),
            _ => {}
        }
        Vec::new()
    }

    fn sync(&mut self) -> Vec<Point> {
        let mut taps = Vec::new();
        for slot in &mut self.slots {
            let touching = slot.tracking_id >= 0 && self.btn_touch && slot.pressure > 0;
            let at = raw_to_pixel(slot.x, slot.y, self.screen);
            // A new tracking id in a slot without a -1 in between is a lift plus a new touch.
            if slot.tracking_id != slot.reported_id
                && let Some(contact) = slot.contact.take()
            {
                taps.extend(contact.lift());
            }
            slot.reported_id = slot.tracking_id;
            match (&mut slot.contact, touching) {
                (Some(contact), true) => contact.move_to(at, self.slop),
                (None, true) => slot.contact = Some(Contact::start(at)),
                (contact @ Some(_), false) => taps.extend(contact.take().and_then(Contact::lift)),
                (None, false) => {}
            }
        }
        taps
    }
}

/// The pointer of `input motionevent DOWN|MOVE|UP X Y` (display pixels, no panel mapping).
#[derive(Debug, Clone, Default)]
pub struct MotionPointer {
    contact: Option<Contact>,
}

impl MotionPointer {
    pub fn down(&mut self, at: Point) {
        self.contact = Some(Contact::start(at));
    }

    pub fn move_to(&mut self, at: Point, slop: u32) {
        if let Some(c) = &mut self.contact {
            c.move_to(at, slop);
        }
    }

    /// Ends the gesture; a tap if the pointer stayed within the slop.
    pub fn up(&mut self, at: Point, slop: u32) -> Option<Point> {
        let mut contact = self.contact.take()?;
        contact.move_to(at, slop);
        contact.lift()
    }

    /// `input motionevent CANCEL`: the gesture ends without a tap.
    pub fn cancel(&mut self) {
        self.contact = None;
    }
}

/// The event sequence of one tap at `p` on the touchscreen (protocol B), as frames ending in
/// `SYN_REPORT`. Used by tests and the benchmark to drive the raw path like a host would.
pub fn tap_events(p: Point, screen: Size, tracking_id: i32) -> Vec<EvdevEvent> {
    let (x, y) = pixel_to_raw(p, screen);
    vec![
        EvdevEvent::new(EV_ABS, ABS_MT_SLOT, 0),
        EvdevEvent::new(EV_ABS, ABS_MT_TRACKING_ID, tracking_id),
        EvdevEvent::new(EV_ABS, ABS_MT_POSITION_X, x),
        EvdevEvent::new(EV_ABS, ABS_MT_POSITION_Y, y),
        EvdevEvent::new(EV_ABS, ABS_MT_PRESSURE, 60),
        EvdevEvent::new(EV_ABS, ABS_MT_TOUCH_MAJOR, 6),
        EvdevEvent::new(EV_KEY, BTN_TOUCH, 1),
        EvdevEvent::new(EV_SYN, SYN_REPORT, 0),
        EvdevEvent::new(EV_ABS, ABS_MT_TRACKING_ID, -1),
        EvdevEvent::new(EV_KEY, BTN_TOUCH, 0),
        EvdevEvent::new(EV_SYN, SYN_REPORT, 0),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCREEN: Size = Size::new(1080, 2340);

    fn feed_all(d: &mut TouchReader, events: &[EvdevEvent]) -> Vec<Point> {
        events.iter().flat_map(|&e| d.feed(e)).collect()
    }

    /// A tap's events at `p` but those `dropped` picks: the broken taps some drivers send.
    fn tap_without(
        p: Point,
        tracking_id: i32,
        dropped: impl Fn(&EvdevEvent) -> bool,
    ) -> Vec<EvdevEvent> {
        let mut events = tap_events(p, SCREEN, tracking_id);
        events.retain(|e| !dropped(e));
        events
    }

    #[test]
    fn input_event_record_is_24_little_endian_bytes() {
        let ev = EvdevEvent::new(EV_ABS, ABS_MT_TRACKING_ID, -1);
        let r = ev.to_record();
        assert_eq!(&r[16..], &[3, 0, 57, 0, 0xff, 0xff, 0xff, 0xff]);
        assert_eq!(EvdevEvent::from_record(&r), ev);
    }

    #[test]
    fn raw_coordinates_map_to_pixels_and_back_exactly() {
        for p in [
            Point::new(0, 0),
            Point::new(540, 1170),
            Point::new(1079, 2339),
        ] {
            let (x, y) = pixel_to_raw(p, SCREEN);
            assert_eq!(raw_to_pixel(x, y, SCREEN), p);
        }
        assert_eq!(
            raw_to_pixel(PANEL_MAX_X, PANEL_MAX_Y, SCREEN),
            Point::new(1079, 2339)
        );
        assert_eq!(raw_to_pixel(7200, 16000, SCREEN), Point::new(540, 1170));
    }

    #[test]
    fn a_protocol_b_tap_is_reported_when_the_finger_lifts() {
        let mut d = TouchReader::new(SCREEN, 22);
        let events = tap_events(Point::new(300, 900), SCREEN, 7);
        let (down, up) = events.split_at(8);
        assert!(feed_all(&mut d, down).is_empty());
        assert_eq!(feed_all(&mut d, up), vec![Point::new(300, 900)]);
    }

    #[test]
    fn two_taps_in_a_row_are_two_taps() {
        let mut d = TouchReader::new(SCREEN, 22);
        let mut events = tap_events(Point::new(10, 20), SCREEN, 1);
        events.extend(tap_events(Point::new(500, 600), SCREEN, 2));
        assert_eq!(
            feed_all(&mut d, &events),
            vec![Point::new(10, 20), Point::new(500, 600)]
        );
    }

    #[test]
    fn a_contact_without_btn_touch_or_pressure_only_hovers() {
        let mut d = TouchReader::new(SCREEN, 22);
        let no_btn = tap_without(Point::new(300, 900), 1, |e| e.code == BTN_TOUCH);
        assert!(feed_all(&mut d, &no_btn).is_empty());
        let no_pressure = tap_without(Point::new(300, 900), 2, |e| e.code == ABS_MT_PRESSURE);
        let mut d = TouchReader::new(SCREEN, 22);
        assert!(feed_all(&mut d, &no_pressure).is_empty());
    }

    #[test]
    fn position_sent_in_a_later_frame_than_the_tracking_id_makes_a_swipe_not_a_tap() {
        let mut d = TouchReader::new(SCREEN, 22);
        let (x, y) = pixel_to_raw(Point::new(800, 2000), SCREEN);
        let events = [
            EvdevEvent::new(EV_ABS, ABS_MT_TRACKING_ID, 1),
            EvdevEvent::new(EV_ABS, ABS_MT_PRESSURE, 50),
            EvdevEvent::new(EV_KEY, BTN_TOUCH, 1),
            EvdevEvent::new(EV_SYN, SYN_REPORT, 0),
            EvdevEvent::new(EV_ABS, ABS_MT_POSITION_X, x),
            EvdevEvent::new(EV_ABS, ABS_MT_POSITION_Y, y),
            EvdevEvent::new(EV_SYN, SYN_REPORT, 0),
            EvdevEvent::new(EV_ABS, ABS_MT_TRACKING_ID, -1),
            EvdevEvent::new(EV_KEY, BTN_TOUCH, 0),
            EvdevEvent::new(EV_SYN, SYN_REPORT, 0),
        ];
        assert!(feed_all(&mut d, &events).is_empty());
    }

    #[test]
    fn nothing_happens_before_syn_report() {
        let mut d = TouchReader::new(SCREEN, 22);
        let events = tap_without(Point::new(1, 1), 1, |e| e.kind == EV_SYN);
        assert!(feed_all(&mut d, &events).is_empty());
    }

    #[test]
    fn motion_events_tap_unless_the_pointer_travels() {
        let mut p = MotionPointer::default();
        p.down(Point::new(100, 100));
        p.move_to(Point::new(105, 103), 22);
        assert_eq!(p.up(Point::new(104, 104), 22), Some(Point::new(104, 104)));
        p.down(Point::new(100, 100));
        assert_eq!(p.up(Point::new(400, 100), 22), None);
        assert_eq!(p.up(Point::new(1, 1), 22), None);
    }

    #[test]
    fn getevent_lists_the_touchscreen_with_its_own_ranges() {
        let text = getevent_listing(&input_devices(), true);
        assert!(text.contains("add device 3: /dev/input/event2\n  name:     \"fts_ts\""));
        assert!(text.contains(
            "                ABS_MT_POSITION_X     : value 0, min 0, max 14399, fuzz 0, flat 0, resolution 0\n"
        ));
        assert!(text.contains("    INPUT_PROP_DIRECT\n"));
        let hex = getevent_listing(&input_devices(), false);
        assert!(hex.contains("0035  : value 0, min 0, max 14399"));
    }
}
