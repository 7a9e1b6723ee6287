//! `screencap` output, raw frames (12- or 16-byte header) and PNG, and the rows of a raw frame
//! cut on the phone (`RawLayout`), so only the rows wanted cross the cable.

use super::*;

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

/// What a whole raw frame looked like (its header, size and pixel size), so the next frames can
/// be cut on the phone to some rows: `screencap | tail -c +N | head -c M` (raw rows are tightly
/// packed, `../shared/notes/android-input.md` 9.3) and put back into a whole frame here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawLayout {
    pub header: Vec<u8>,
    pub width: u32,
    pub height: u32,
    pub bpp: u32,
}

impl RawLayout {
    /// The layout of a whole raw frame; `None` when it is not one.
    pub fn of(bytes: &[u8]) -> Option<RawLayout> {
        if bytes.len() < 12 {
            return None;
        }
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let (width, height) = (word(0), word(4));
        let bpp = PixelFormat::from_code(word(8))?.bytes_per_pixel();
        let pixels = (width as usize)
            .checked_mul(height as usize)?
            .checked_mul(bpp as usize)?;
        let header = bytes.len().checked_sub(pixels)?;
        (matches!(header, 12 | 16) && width > 0 && height > 0).then(|| RawLayout {
            header: bytes[..header].to_vec(),
            width,
            height,
            bpp,
        })
    }

    fn row_bytes(&self) -> usize {
        (self.width * self.bpp) as usize
    }

    /// `rows` clamped to the frame.
    pub fn clamp(&self, rows: std::ops::Range<u32>) -> std::ops::Range<u32> {
        rows.start.min(self.height)..rows.end.min(self.height)
    }

    /// The command that prints only `rows` of the screen (clamped to the frame).
    pub fn rows_command(&self, rows: std::ops::Range<u32>) -> String {
        let rows = self.clamp(rows);
        let skip = self.header.len() + rows.start as usize * self.row_bytes();
        let take = (rows.end - rows.start) as usize * self.row_bytes();
        format!("screencap | tail -c +{} | head -c {take}", skip + 1)
    }

    /// The whole frame from `data`, what [`Self::rows_command`] printed for `rows`: the rows
    /// above and below are copies of the nearest row sent (the reader looks only near the
    /// grid). Refused when `data` is not exactly those rows.
    pub fn frame_from_rows(
        &self,
        rows: std::ops::Range<u32>,
        data: &[u8],
    ) -> Result<RgbaImage, ParseError> {
        let rows = self.clamp(rows);
        let row = self.row_bytes();
        let sent = (rows.end - rows.start) as usize;
        let total = self.header.len() + self.height as usize * row;
        if sent == 0 || data.len() != sent * row {
            return Err(ParseError::ScreencapLength {
                width: self.width,
                height: sent as u32,
                format: u32::from_le_bytes([
                    self.header[8],
                    self.header[9],
                    self.header[10],
                    self.header[11],
                ]),
                bpp: self.bpp,
                len: data.len(),
            });
        }
        let mut whole = Vec::with_capacity(total);
        whole.extend_from_slice(&self.header);
        for y in 0..self.height {
            let k = (y.clamp(rows.start, rows.end - 1) - rows.start) as usize;
            whole.extend_from_slice(&data[k * row..(k + 1) * row]);
        }
        raw_screencap(&whole)
    }
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
