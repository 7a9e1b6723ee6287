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
    Ok(image::open(path)
        .with_context(|| {
            format!(
                "cannot read the screenshot {}: pass an existing PNG with --device file:PATH",
                path.display()
            )
        })?
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
}
