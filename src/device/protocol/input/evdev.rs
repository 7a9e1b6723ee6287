//! The `evdev` method's raw side: `input_event` records (32- or 64-bit layout) and the mapping
//! from screen pixels to the touchscreen's axes, rotation and slots.

use super::*;

/// Size of one `struct input_event` as written by the process calling `write()` (`dd` here).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventLayout {
    /// 64-bit userspace (arm64-v8a, x86_64): 24 bytes.
    Bits64,
    /// 32-bit userspace (armeabi-v7a, x86): 16 bytes.
    Bits32,
}

impl EventLayout {
    /// From `getprop ro.product.cpu.abi`: 32-bit only for a known 32-bit ABI, since every
    /// phone sold for years runs 64-bit userspace.
    pub fn for_abi(abi: &str) -> EventLayout {
        let abi = abi.trim();
        let bits32 = !abi.contains("64")
            && ["armeabi", "x86", "mips"]
                .iter()
                .any(|a| abi.starts_with(a));
        if bits32 {
            EventLayout::Bits32
        } else {
            EventLayout::Bits64
        }
    }

    pub fn record_len(self) -> usize {
        match self {
            EventLayout::Bits64 => 24,
            EventLayout::Bits32 => 16,
        }
    }
}

/// One `struct input_event` without its timestamp (zero: the kernel stamps events).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputEvent {
    pub kind: u16,
    pub code: u16,
    pub value: i32,
}

impl InputEvent {
    pub const fn new(kind: u16, code: u16, value: i32) -> Self {
        InputEvent { kind, code, value }
    }
}

/// Serialises events as little-endian `input_event` records with zero timestamps.
pub fn event_bytes(events: &[InputEvent], layout: EventLayout) -> Vec<u8> {
    let time_len = layout.record_len() - 8;
    let mut out = Vec::with_capacity(events.len() * layout.record_len());
    for e in events {
        out.extend(std::iter::repeat_n(0u8, time_len));
        out.extend_from_slice(&e.kind.to_le_bytes());
        out.extend_from_slice(&e.code.to_le_bytes());
        out.extend_from_slice(&e.value.to_le_bytes());
    }
    out
}

/// Everything needed to turn screen pixels into raw touchscreen events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvdevTarget {
    pub touchscreen: Touchscreen,
    pub layout: EventLayout,
    /// The screen in its current orientation, in the pixels taps are given in (the screenshot's).
    pub screen: Size,
    pub rotation: Rotation,
    /// Tracking id of the first tap of the next `encode`; each tap takes a new one.
    pub first_tracking_id: i32,
}

impl EvdevTarget {
    pub(super) fn natural(&self) -> Size {
        self.rotation.apply(self.screen)
    }

    /// Screen pixel (current orientation) to raw panel coordinates, through the pixel centre so
    /// that `raw_to_screen` inverts it exactly whenever the panel has at least one raw step per
    /// pixel.
    pub fn screen_to_raw(&self, p: Point) -> (i32, i32) {
        let n = self.natural();
        let (nx, ny) = match self.rotation {
            Rotation::R0 => (p.x, p.y),
            Rotation::R90 => (n.width - 1 - p.y, p.x),
            Rotation::R180 => (n.width - 1 - p.x, n.height - 1 - p.y),
            Rotation::R270 => (p.y, n.height - 1 - p.x),
        };
        let axis = |v: u32, len: u32, a: &AbsInfo| {
            a.min + ((2 * v as u64 + 1) * a.span() as u64 / (2 * len as u64)) as i32
        };
        (
            axis(nx, n.width, &self.touchscreen.x),
            axis(ny, n.height, &self.touchscreen.y),
        )
    }

    pub(super) fn tracking_id(&self, i: usize) -> i32 {
        let (min, max) = self
            .touchscreen
            .tracking_id
            .map_or((0, 65535), |t| (t.min.max(0), t.max.max(0)));
        let span = (max as i64 - min as i64 + 1).max(1);
        (min as i64 + (self.first_tracking_id as i64 + i as i64 - min as i64).rem_euclid(span))
            as i32
    }

    /// The DOWN frame of a tap: tracking id and position in the same frame, then SYN_REPORT.
    pub fn down_frame(&self, p: Point, tracking_id: i32) -> Vec<InputEvent> {
        let t = &self.touchscreen;
        let (x, y) = self.screen_to_raw(p);
        let mut f = Vec::new();
        let abs = |code, value| InputEvent::new(EV_ABS, code, value);
        if t.protocol_b() {
            f.push(abs(ABS_MT_SLOT, 0));
        }
        if t.protocol_b() || t.tracking_id.is_some() {
            f.push(abs(ABS_MT_TRACKING_ID, tracking_id));
        }
        f.push(abs(ABS_MT_POSITION_X, x));
        f.push(abs(ABS_MT_POSITION_Y, y));
        // Android treats a contact as hovering when a declared pressure is <= 0.
        if let Some(m) = t.touch_major {
            f.push(abs(
                ABS_MT_TOUCH_MAJOR,
                (m.min + (m.max - m.min) / 8).max(m.min + 1).min(m.max),
            ));
        }
        if let Some(p) = t.pressure {
            f.push(abs(
                ABS_MT_PRESSURE,
                (p.min + (p.max - p.min) / 2).max(1).min(p.max.max(1)),
            ));
        }
        if !t.protocol_b() {
            f.push(InputEvent::new(EV_SYN, SYN_MT_REPORT, 0));
        }
        self.end_frame(&mut f, 1);
        f
    }

    /// The UP frame: release the contact (tracking id -1, or an empty MT report in protocol A).
    pub fn up_frame(&self) -> Vec<InputEvent> {
        let t = &self.touchscreen;
        let mut f = Vec::new();
        if t.protocol_b() {
            f.push(InputEvent::new(EV_ABS, ABS_MT_SLOT, 0));
            f.push(InputEvent::new(EV_ABS, ABS_MT_TRACKING_ID, -1));
        } else {
            f.push(InputEvent::new(EV_SYN, SYN_MT_REPORT, 0));
        }
        self.end_frame(&mut f, 0);
        f
    }

    /// Ends a frame: the touch buttons the panel declares pressed (1) or released (0), then
    /// SYN_REPORT.
    fn end_frame(&self, f: &mut Vec<InputEvent>, pressed: i32) {
        let t = &self.touchscreen;
        if t.btn_touch {
            f.push(InputEvent::new(EV_KEY, BTN_TOUCH, pressed));
        }
        if t.btn_tool_finger {
            f.push(InputEvent::new(EV_KEY, BTN_TOOL_FINGER, pressed));
        }
        f.push(InputEvent::new(EV_SYN, SYN_REPORT, 0));
    }

    /// Shell command writing one frame to the node (see the module doc for why `dd`).
    pub fn write_command(&self, frame: &[InputEvent]) -> String {
        let bytes = event_bytes(frame, self.layout);
        let escaped: String = bytes.iter().map(|b| format!("\\{b:03o}")).collect();
        format!(
            "printf '{escaped}' | dd of={} ibs=4096 obs={} 2>/dev/null",
            crate::device::protocol::shell_line::quote(&self.touchscreen.path),
            self.layout.record_len()
        )
    }
}

/// One `write()` of a raw event stream and the wait after it (the `evdev` fallback for phones
/// without `printf`: a long-lived `dd of=NODE` fed records, timed by the host).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawWrite {
    pub bytes: Vec<u8>,
    pub then_wait_ms: u32,
}

impl EvdevTarget {
    /// The command that receives a raw stream: `dd` re-blocks whatever arrives into whole records.
    pub fn stream_command(&self) -> String {
        format!(
            "dd of={} ibs=4096 obs={}",
            crate::device::protocol::shell_line::quote(&self.touchscreen.path),
            self.layout.record_len()
        )
    }

    /// Taps as raw frame writes: DOWN, hold, UP, gap (settle after the last).
    pub fn encode_raw(
        &self,
        taps: &[Point],
        pacing: &Pacing,
    ) -> Result<Vec<RawWrite>, EncodeError> {
        let waits = super::tap_waits(taps, pacing, None, 0);
        self.encode_raw_waits(taps, pacing.hold_ms, &waits)
    }

    /// [`Self::encode_raw`] with the wait after each tap's UP given (`tap_waits`).
    pub fn encode_raw_waits(
        &self,
        taps: &[Point],
        hold_ms: u32,
        waits: &[u32],
    ) -> Result<Vec<RawWrite>, EncodeError> {
        super::all_on_screen(taps, self.screen)?;
        let mut out = Vec::with_capacity(taps.len() * 2);
        for (i, &p) in taps.iter().enumerate() {
            out.push(RawWrite {
                bytes: event_bytes(&self.down_frame(p, self.tracking_id(i)), self.layout),
                then_wait_ms: hold_ms,
            });
            out.push(RawWrite {
                bytes: event_bytes(&self.up_frame(), self.layout),
                then_wait_ms: waits[i],
            });
        }
        Ok(out)
    }
}
