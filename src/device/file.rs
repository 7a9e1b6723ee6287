//! A screenshot file as a device: screenshots return the picture (re-read each time, so it can
//! be replaced between calls), taps are recorded and never sent anywhere. Used by `--device
//! file:PNG`, dry runs and tests.

use crate::device::Device;
use crate::geometry::{Point, Size};
use anyhow::{Context, Result, bail};
use image::RgbaImage;
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
        let img = load(path)?;
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

fn load(path: &Path) -> Result<RgbaImage> {
    read_screenshot(path).with_context(|| {
        format!(
            "cannot read the screenshot {}: pass an existing PNG with --device file:PATH",
            path.display()
        )
    })
}

/// Longest side of a picture taken as a phone screenshot (4K phones are 3840 pixels tall).
pub const MAX_SCREENSHOT_SIDE: u32 = 5000;

/// Reads a screenshot file, refusing it by the size in its header before decoding: an 8000x8000
/// PNG took 2.6 s and 443 MB to decode only to be refused afterwards.
pub fn read_screenshot(path: &Path) -> Result<RgbaImage> {
    let open = || -> Result<image::ImageReader<std::io::BufReader<std::fs::File>>> {
        image::ImageReader::open(path)
            .with_context(|| format!("cannot open {}", path.display()))?
            .with_guessed_format()
            .with_context(|| format!("cannot read {}", path.display()))
    };
    let (w, h) = open()?
        .into_dimensions()
        .with_context(|| format!("{} is not a readable picture", path.display()))?;
    if w.max(h) > MAX_SCREENSHOT_SIDE {
        bail!(
            "{} is {w}x{h} pixels, larger than any phone screen ({MAX_SCREENSHOT_SIDE} pixels a side at most); pass a screenshot of the phone",
            path.display()
        );
    }
    let mut reader = open()?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SCREENSHOT_SIDE);
    limits.max_image_height = Some(MAX_SCREENSHOT_SIDE);
    reader.limits(limits);
    Ok(reader
        .decode()
        .with_context(|| format!("{} is not a readable picture", path.display()))?
        .to_rgba8())
}

impl Device for FileDevice {
    fn screenshot(&mut self) -> Result<RgbaImage> {
        let img = load(&self.path)?;
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
        assert!(format!("{err:#}").contains("--device file:PATH"));
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
