//! A screenshot file as a device: screenshots return the picture (re-read each time, so it can
//! be replaced between calls), taps are recorded and never sent anywhere. Used by `--device
//! file:PNG`, dry runs and tests.

use crate::device::Device;
use crate::geometry::{Point, Size};
use anyhow::{Result, anyhow, bail};
use image::{ImageDecoder, RgbaImage};
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub struct FileDevice {
    path: PathBuf,
    size: Size,
    taps: Vec<Point>,
}

impl FileDevice {
    /// Opens the picture once to check it is readable and learn its size.
    pub fn open(path: &Path) -> Result<FileDevice> {
        let img = read_screenshot(path)?;
        Ok(FileDevice {
            path: path.to_path_buf(),
            size: Size::new(img.width(), img.height()),
            taps: Vec::new(),
        })
    }

    /// Every tap received so far, in order.
    pub fn taps(&self) -> &[Point] {
        &self.taps
    }
}

/// Longest side of a picture taken as a phone screenshot (4K phones are 3840 pixels tall).
pub const MAX_SCREENSHOT_SIDE: u32 = 5000;

/// Most memory one screenshot may take to decode: a 16-bit RGBA picture of the largest size.
const MAX_DECODE_BYTES: u64 = MAX_SCREENSHOT_SIDE as u64 * MAX_SCREENSHOT_SIDE as u64 * 8;

/// What to do instead, the end of every message about a file that is not a usable screenshot.
const PASS_A_SCREENSHOT: &str =
    "pass a PNG or JPEG screenshot, such as one saved by `adb exec-out screencap -p > shot.png`";

/// Reads a screenshot file (PNG or JPEG; any format this build decodes), refusing it by the
/// size in its header before decoding: an 8000x8000 PNG took 2.6 s and 443 MB to decode only to
/// be refused afterwards, and a header claiming 2^31 x 2^31 must not reach an allocation.
/// Every command that takes a screenshot file comes here (`read`/`calibrate`/`visualize
/// --image`, `--device file:`). Each failure is one line: what the file is and what to pass.
pub fn read_screenshot(path: &Path) -> Result<RgbaImage> {
    let name = path.display();
    let file =
        File::open(path).map_err(|e| anyhow!("cannot open {name}: {e}; {PASS_A_SCREENSHOT}"))?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut reader = BufReader::new(file);
    let head = reader
        .fill_buf()
        .map_err(|e| anyhow!("cannot read {name}: {e}; {PASS_A_SCREENSHOT}"))?
        .to_vec();
    if head.is_empty() {
        bail!("{name} is empty (0 bytes); {PASS_A_SCREENSHOT}");
    }
    let format = match image::guess_format(&head) {
        Ok(format) if format.reading_enabled() => format,
        Ok(format) => bail!(
            "{name} is a {} image, which this program does not read; {PASS_A_SCREENSHOT}",
            format_name(format)
        ),
        Err(_) => bail!(
            "{name} is not a PNG or JPEG image (its first bytes are {}); {PASS_A_SCREENSHOT}",
            first_bytes(&head)
        ),
    };
    let kind = format_name(format);
    // The PNG decoder sizes its buffers from the header as it opens: check it first.
    if let Some((w, h)) = png_header_size(&head) {
        refuse_larger_than_a_phone(&name, kind, w, h)?;
    }
    let mut reader = image::ImageReader::with_format(reader, format);
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SCREENSHOT_SIDE);
    limits.max_image_height = Some(MAX_SCREENSHOT_SIDE);
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    reader.limits(limits);
    let unreadable = |e: image::ImageError| unreadable(&name, kind, len, e);
    let decoder = reader.into_decoder().map_err(unreadable)?;
    let (w, h) = decoder.dimensions();
    refuse_larger_than_a_phone(&name, kind, w, h)?;
    Ok(image::DynamicImage::from_decoder(decoder)
        .map_err(unreadable)?
        .to_rgba8())
}

/// "PNG", "JPEG", "GIF": a format as people write it.
fn format_name(format: image::ImageFormat) -> &'static str {
    format
        .extensions_str()
        .first()
        .map_or("unknown", |e| match *e {
            "jpg" => "JPEG",
            "png" => "PNG",
            "gif" => "GIF",
            "webp" => "WebP",
            "bmp" => "BMP",
            "tiff" | "tif" => "TIFF",
            _ => "other",
        })
}

/// The first bytes of a file in hex, and as text when they are printable (an HTML page, a note).
fn first_bytes(head: &[u8]) -> String {
    let first = &head[..head.len().min(8)];
    let hex: Vec<String> = first.iter().map(|b| format!("{b:02x}")).collect();
    let text: String = first.iter().map(|&b| b as char).collect();
    if first.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        format!("{}, \"{}\"", hex.join(" "), text)
    } else {
        hex.join(" ")
    }
}

/// Width and height from a PNG's IHDR chunk, when `head` starts with one.
fn png_header_size(head: &[u8]) -> Option<(u32, u32)> {
    if head.len() < 24 || !head.starts_with(b"\x89PNG\r\n\x1a\n") || &head[12..16] != b"IHDR" {
        return None;
    }
    let be = |at: usize| u32::from_be_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
    Some((be(16), be(20)))
}

fn refuse_larger_than_a_phone(
    name: &impl std::fmt::Display,
    kind: &str,
    w: u32,
    h: u32,
) -> Result<()> {
    if w.max(h) > MAX_SCREENSHOT_SIDE {
        bail!(
            "{name} is a {kind} image of {w}x{h} pixels, larger than any phone screen ({MAX_SCREENSHOT_SIDE} pixels a side at most); {PASS_A_SCREENSHOT}"
        );
    }
    Ok(())
}

/// The one line for a file whose decoding failed: cut short, too large, or damaged.
fn unreadable(
    name: &impl std::fmt::Display,
    kind: &str,
    len: u64,
    e: image::ImageError,
) -> anyhow::Error {
    let cut_short = match &e {
        image::ImageError::IoError(io) => io.kind() == std::io::ErrorKind::UnexpectedEof,
        _ => false,
    };
    if cut_short {
        return anyhow!(
            "{name} is a {kind} image cut short (the file ends after {len} bytes, before the picture does); take the screenshot again, or {PASS_A_SCREENSHOT}"
        );
    }
    if let image::ImageError::Limits(_) = e {
        return anyhow!(
            "{name} is a {kind} image too large for any phone screen (over {MAX_SCREENSHOT_SIDE} pixels a side, or {} MB to decode); {PASS_A_SCREENSHOT}",
            MAX_DECODE_BYTES >> 20
        );
    }
    // The error's own line only: its source repeats it ("Invalid PNG signature.: Invalid PNG signature.").
    anyhow!("{name} is a damaged {kind} image ({e}); {PASS_A_SCREENSHOT}")
}

impl Device for FileDevice {
    fn screenshot(&mut self) -> Result<RgbaImage> {
        let img = read_screenshot(&self.path)?;
        self.size = Size::new(img.width(), img.height());
        Ok(img)
    }

    fn screen_size(&mut self) -> Result<Size> {
        Ok(self.size)
    }

    fn tap_all(&mut self, taps: &[Point]) -> Result<()> {
        if let Some(p) = taps
            .iter()
            .find(|p| p.x >= self.size.width || p.y >= self.size.height)
        {
            bail!(
                "refusing to tap at ({}, {}): outside the {} screenshot {}",
                p.x,
                p.y,
                self.size,
                self.path.display()
            );
        }
        self.taps.extend_from_slice(taps);
        Ok(())
    }

    fn shows_taps(&self) -> bool {
        false
    }

    fn input_description(&self) -> String {
        format!("recorded (file {})", self.path.display())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_device_returns_the_picture_and_records_taps_inside_it() {
        let dir =
            std::env::temp_dir().join(format!("sudoku-agent-file-device-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("screen.png");
        let img = RgbaImage::from_pixel(4, 3, image::Rgba([1, 2, 3, 255]));
        img.save(&path).unwrap();
        let mut dev = FileDevice::open(&path).unwrap();
        assert_eq!(dev.screen_size().unwrap(), Size::new(4, 3));
        assert_eq!(dev.screenshot().unwrap(), img);
        dev.tap_all(&[Point::new(0, 0), Point::new(3, 2)]).unwrap();
        let err = dev
            .tap_all(&[Point::new(1, 1), Point::new(4, 0)])
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("refusing to tap at (4, 0)"), "{err}");
        assert_eq!(dev.taps(), &[Point::new(0, 0), Point::new(3, 2)]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_file_says_what_to_pass() {
        let err = FileDevice::open(Path::new("/nonexistent/x.png")).unwrap_err();
        let err = format!("{err:#}");
        assert!(
            err.starts_with("cannot open /nonexistent/x.png: ") && err.contains("screencap -p"),
            "{err}"
        );
    }

    /// `bytes` written to a file of its own, and the one-line error of reading it.
    fn refusal(name: &str, bytes: &[u8]) -> String {
        let dir = std::env::temp_dir().join(format!(
            "sudoku-agent-refusal-{}-{name}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let err = format!("{:#}", read_screenshot(&path).unwrap_err());
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(
            !err.contains('\n') && err.ends_with(PASS_A_SCREENSHOT),
            "{err}"
        );
        err
    }

    #[test]
    fn a_header_of_2_to_the_31_pixels_a_side_is_refused_by_its_size_before_decoding() {
        let err = refusal("huge.png", &png_header(1 << 31, 1 << 31));
        assert!(
            err.contains("is a PNG image of 2147483648x2147483648 pixels, larger than any phone"),
            "{err}"
        );
    }

    #[test]
    fn a_picture_cut_short_is_called_cut_short() {
        let mut png = Vec::new();
        RgbaImage::from_fn(64, 64, |x, y| {
            image::Rgba([x as u8 * 4, y as u8 * 4, 7, 255])
        })
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
        let half = &png[..png.len() / 2];
        let err = refusal("cut.png", half);
        assert!(
            err.contains(&format!(
                "is a PNG image cut short (the file ends after {} bytes",
                half.len()
            )),
            "{err}"
        );
    }

    #[test]
    fn bytes_of_no_picture_format_are_named_once_by_their_first_bytes() {
        let err = refusal(
            "noise.png",
            &[0xca, 0xf7, 0xf2, 0xb8, 0x90, 0x2b, 0x15, 0xb8, 0, 1],
        );
        assert!(
            err.contains(
                "is not a PNG or JPEG image (its first bytes are ca f7 f2 b8 90 2b 15 b8)"
            ),
            "{err}"
        );
        let err = refusal("note.png", b"<html><body>404</body></html>");
        assert!(
            err.contains("3c 68 74 6d 6c 3e 3c 62, \"<html><b\""),
            "{err}"
        );
        assert!(refusal("empty.png", b"").contains("is empty (0 bytes)"));
    }

    #[test]
    fn a_damaged_png_says_what_its_decoder_found_once() {
        let mut png = png_header(4, 4);
        png[30] ^= 0xff; // a byte of the IHDR chunk: its checksum no longer matches
        let err = refusal("damaged.png", &png);
        assert!(err.contains("is a damaged PNG image ("), "{err}");
        let inner = &err[err.find('(').unwrap() + 1..err.find(')').unwrap()];
        assert_eq!(err.matches(inner).count(), 1, "{err}");
    }

    /// A PNG claiming `w`x`h` pixels with no pixel data (an empty IDAT): only a reader that
    /// refuses by the header answers quickly; decoding it fails.
    fn png_header(w: u32, h: u32) -> Vec<u8> {
        let chunk = |kind: &[u8], data: &[u8]| {
            let body = [kind, data].concat();
            let crc = body.iter().fold(!0u32, |mut c, &b| {
                c ^= u32::from(b);
                for _ in 0..8 {
                    c = if c & 1 == 1 {
                        (c >> 1) ^ 0xEDB8_8320
                    } else {
                        c >> 1
                    };
                }
                c
            });
            [
                &(data.len() as u32).to_be_bytes()[..],
                &body,
                &(!crc).to_be_bytes(),
            ]
            .concat()
        };
        let ihdr = [&w.to_be_bytes()[..], &h.to_be_bytes(), &[8, 6, 0, 0, 0]].concat();
        [
            &b"\x89PNG\r\n\x1a\n"[..],
            &chunk(b"IHDR", &ihdr),
            &chunk(b"IDAT", &[]),
            &chunk(b"IEND", &[]),
        ]
        .concat()
    }

    #[test]
    fn a_picture_larger_than_any_phone_is_refused_by_its_header_size() {
        let dir = std::env::temp_dir().join(format!("sudoku-agent-huge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("huge.png");
        std::fs::write(&path, png_header(8000, 8000)).unwrap();
        let err = format!("{:#}", read_screenshot(&path).unwrap_err());
        assert!(
            err.contains("8000x8000") && err.contains("larger than any phone"),
            "{err}"
        );
        let err = format!("{:#}", FileDevice::open(&path).unwrap_err());
        assert!(err.contains("8000x8000"), "{err}");
    }
}
