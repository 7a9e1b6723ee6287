//! The inverse of the encodings, for tests only: shell text and raw event writes back into the
//! taps they make and their timing, so every method is checked by round trip.

use super::*;

/// Parses `input_event` records; `None` when the bytes are not a whole number of records.
pub fn parse_events(bytes: &[u8], layout: EventLayout) -> Option<Vec<InputEvent>> {
    let len = layout.record_len();
    if !bytes.len().is_multiple_of(len) {
        return None;
    }
    Some(
        bytes
            .chunks_exact(len)
            .map(|r| {
                let t = len - 8;
                InputEvent {
                    kind: u16::from_le_bytes([r[t], r[t + 1]]),
                    code: u16::from_le_bytes([r[t + 2], r[t + 3]]),
                    value: i32::from_le_bytes([r[t + 4], r[t + 5], r[t + 6], r[t + 7]]),
                }
            })
            .collect(),
    )
}

impl EvdevTarget {
    /// Raw panel coordinates to the screen pixel (current orientation) they land on.
    pub fn raw_to_screen(&self, raw: (i32, i32)) -> Point {
        let n = self.natural();
        let axis = |r: i32, len: u32, a: &AbsInfo| {
            let off = (r as i64 - a.min as i64).max(0) as u64;
            (((2 * off + 1) * len as u64 / (2 * a.span() as u64)) as u32).min(len - 1)
        };
        let (nx, ny) = (
            axis(raw.0, n.width, &self.touchscreen.x),
            axis(raw.1, n.height, &self.touchscreen.y),
        );
        match self.rotation {
            Rotation::R0 => Point::new(nx, ny),
            Rotation::R90 => Point::new(ny, n.width - 1 - nx),
            Rotation::R180 => Point::new(n.width - 1 - nx, n.height - 1 - ny),
            Rotation::R270 => Point::new(n.height - 1 - ny, nx),
        }
    }

    /// Inverse of [`EvdevTarget::encode_raw`].
    pub fn decode_raw(&self, writes: &[RawWrite]) -> Result<Timeline, DecodeError> {
        let mut tl = Timeline::default();
        let mut touch = TouchDecoder::default();
        for w in writes {
            self.feed_records(&w.bytes, &mut touch, &mut tl)?;
            tl.end_ms += w.then_wait_ms as u64;
        }
        Ok(tl)
    }

    /// Feeds one write's records to `touch`, adding to `tl` each tap they complete.
    fn feed_records(
        &self,
        bytes: &[u8],
        touch: &mut TouchDecoder,
        tl: &mut Timeline,
    ) -> Result<(), DecodeError> {
        let events =
            parse_events(bytes, self.layout).ok_or(DecodeError::PartialRecord(bytes.len()))?;
        for e in events {
            if let Some((raw, down_ms)) = touch.feed(e, tl.end_ms) {
                tl.taps.push(TimedTap {
                    at: self.raw_to_screen(raw),
                    down_ms,
                    hold_ms: (tl.end_ms - down_ms) as u32,
                });
            }
        }
        Ok(())
    }
}

impl InputMethod {
    /// Decodes shell text produced by [`InputMethod::encode`] (or typed by hand in the same
    /// forms, with `echo` status markers) back into the taps it makes, with their timing.
    pub fn timeline(&self, commands: &[String]) -> Result<Timeline, DecodeError> {
        let mut tl = Timeline::default();
        let mut touch = TouchDecoder::default();
        for command in commands {
            for part in command
                .split("&&")
                .flat_map(|p| p.split(';'))
                .map(str::trim)
                .filter(|p| !p.is_empty())
            {
                let words: Vec<&str> = part.split_whitespace().collect();
                let words = match words.as_slice() {
                    ["cmd", "input", rest @ ..] => rest,
                    ["input", rest @ ..] => rest,
                    other => other,
                };
                let num = |s: &str| {
                    s.parse::<u32>()
                        .map_err(|_| DecodeError::Unknown(part.to_string()))
                };
                match words {
                    ["tap", x, y] => tl.taps.push(TimedTap {
                        at: Point::new(num(x)?, num(y)?),
                        down_ms: tl.end_ms,
                        hold_ms: 0,
                    }),
                    ["swipe", x1, y1, x2, y2, ms] if x1 == x2 && y1 == y2 => {
                        let hold = num(ms)?;
                        tl.taps.push(TimedTap {
                            at: Point::new(num(x1)?, num(y1)?),
                            down_ms: tl.end_ms,
                            hold_ms: hold,
                        });
                        tl.end_ms += hold as u64;
                    }
                    ["sleep", s] => {
                        tl.end_ms +=
                            parse_sleep(s).ok_or_else(|| DecodeError::Unknown(part.to_string()))?
                    }
                    ["echo", ..] => {}
                    ["printf", ..] => {
                        let bytes = printf_bytes(part)
                            .ok_or_else(|| DecodeError::Unknown(part.to_string()))?;
                        let InputMethod::Evdev(t) = self else {
                            return Err(DecodeError::Unknown(part.to_string()));
                        };
                        t.feed_records(&bytes, &mut touch, &mut tl)?;
                    }
                    _ => return Err(DecodeError::Unknown(part.to_string())),
                }
            }
        }
        Ok(tl)
    }

    /// The tap positions of [`InputMethod::timeline`].
    pub fn decode(&self, commands: &[String]) -> Result<Vec<Point>, DecodeError> {
        Ok(self
            .timeline(commands)?
            .taps
            .into_iter()
            .map(|t| t.at)
            .collect())
    }
}

/// A tap as the phone would see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimedTap {
    pub at: Point,
    /// Finger down, ms after the start of the encoded commands (counting only `sleep`s and holds).
    pub down_ms: u64,
    pub hold_ms: u32,
}

/// Decoded taps plus the total time the phone spends sleeping and holding.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Timeline {
    pub taps: Vec<TimedTap>,
    pub end_ms: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("not a tap command: {0:?}")]
    Unknown(String),
    #[error("{0} bytes is not a whole number of input_event records")]
    PartialRecord(usize),
}

pub(super) fn parse_sleep(s: &str) -> Option<u64> {
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if frac.len() > 3 || !frac.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let frac_ms: u64 = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<3}").parse().ok()?
    };
    Some(whole * 1000 + frac_ms)
}

/// The bytes of `printf '<escapes and plain text>' | ...` (octal `\ooo`, `\\`, plain chars).
pub(super) fn printf_bytes(part: &str) -> Option<Vec<u8>> {
    let body = part.strip_prefix("printf '")?;
    let body = &body[..body.find('\'')?];
    let b = body.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            let digits = b[i + 1..]
                .iter()
                .take(3)
                .take_while(|c| (b'0'..=b'7').contains(c))
                .count();
            if digits == 0 {
                out.push(*b.get(i + 1)?);
                i += 2;
            } else {
                let v = b[i + 1..i + 1 + digits]
                    .iter()
                    .fold(0u32, |v, d| v * 8 + (d - b'0') as u32);
                out.push(u8::try_from(v).ok()?);
                i += 1 + digits;
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

/// Follows raw multi-touch events (protocol A or B) and reports each finished contact: the raw
/// position it was last at and when it went down. Only the first contact is tracked.
#[derive(Debug, Default)]
pub struct TouchDecoder {
    slot: i32,
    /// Tracking id of slot 0 (protocol B); `None` when up.
    id: Option<i32>,
    pos: (i32, i32),
    frame_had_contact: bool,
    mt_report_seen: bool,
    down_since: Option<u64>,
    pending_release: bool,
}

impl TouchDecoder {
    /// Feeds one event at time `now_ms`; returns `Some((raw position, down time))` when a
    /// contact ends with this event's SYN_REPORT.
    pub fn feed(&mut self, e: InputEvent, now_ms: u64) -> Option<((i32, i32), u64)> {
        match (e.kind, e.code) {
            (EV_ABS, ABS_MT_SLOT) => self.slot = e.value,
            (EV_ABS, _) if self.slot != 0 => {}
            (EV_ABS, ABS_MT_TRACKING_ID) => {
                if e.value < 0 {
                    self.pending_release = self.id.is_some();
                    self.id = None;
                } else {
                    self.id = Some(e.value);
                    self.frame_had_contact = true;
                }
            }
            (EV_ABS, ABS_MT_POSITION_X) => {
                self.pos.0 = e.value;
                self.frame_had_contact = true;
            }
            (EV_ABS, ABS_MT_POSITION_Y) => {
                self.pos.1 = e.value;
                self.frame_had_contact = true;
            }
            (EV_SYN, SYN_MT_REPORT) => self.mt_report_seen = true,
            (EV_SYN, SYN_REPORT) => {
                let protocol_a = self.mt_report_seen;
                let released = if protocol_a {
                    // Protocol A: a frame without any contact data lifts the finger.
                    !self.frame_had_contact && self.down_since.is_some()
                } else {
                    std::mem::take(&mut self.pending_release)
                };
                let touching = if protocol_a {
                    self.frame_had_contact
                } else {
                    self.id.is_some()
                };
                self.frame_had_contact = false;
                self.mt_report_seen = false;
                if released {
                    let down = self.down_since.take().unwrap_or(now_ms);
                    return Some((self.pos, down));
                }
                if touching && self.down_since.is_none() {
                    self.down_since = Some(now_ms);
                }
            }
            _ => {}
        }
        None
    }
}
