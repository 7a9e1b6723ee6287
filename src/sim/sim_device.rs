//! The simulated phone as an in-process `Device`: screenshots are fresh renders and taps go
//! straight to the app, with no ADB in between. Fast enough for unit tests of later stages.

use super::{Phone, Screen};
use crate::device::Device;
use crate::geometry::{Point, Size};
use anyhow::{Result, ensure};
use image::RgbaImage;

/// A `Device` backed by a [`Phone`] in this process.
#[derive(Debug)]
pub struct SimDevice {
    phone: Phone,
}

impl SimDevice {
    pub fn new(phone: Phone) -> SimDevice {
        SimDevice { phone }
    }

    /// The app, to inspect its state or set up a test.
    pub fn phone(&self) -> &Phone {
        &self.phone
    }

    pub fn phone_mut(&mut self) -> &mut Phone {
        &mut self.phone
    }

    pub fn into_phone(self) -> Phone {
        self.phone
    }
}

impl Device for SimDevice {
    fn screenshot(&mut self) -> Result<RgbaImage> {
        Ok(self.phone.render())
    }

    fn screen_size(&mut self) -> Result<Size> {
        Ok(self.phone.size())
    }

    /// Taps every point in order; refuses the whole batch if any point is off the screen, as
    /// `input tap` would fail on it.
    fn tap_all(&mut self, taps: &[Point]) -> Result<()> {
        let size = self.phone.size();
        if let Some(p) = taps
            .iter()
            .find(|p| p.x >= size.width || p.y >= size.height)
        {
            ensure!(
                false,
                "tap at ({}, {}) is outside the {size} screen",
                p.x,
                p.y
            );
        }
        for &p in taps {
            self.phone.tap(p);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Hit, Key, SUPPORTED_SIZES, Skin, puzzles};
    use crate::sudoku::Cell;

    fn device() -> SimDevice {
        let board = puzzles::parse(puzzles::named("medium").unwrap()).unwrap();
        SimDevice::new(Phone::new(board, Skin::default(), SUPPORTED_SIZES[0]).unwrap())
    }

    #[test]
    fn taps_reach_the_phone_in_order() {
        let mut d = device();
        let c = Cell::new(0, 1).unwrap();
        let taps = [
            d.phone().cell_center(c),
            d.phone().key_center(Key::Digit(6)),
        ];
        d.tap_all(&taps).unwrap();
        assert_eq!(d.phone().taps(), &taps);
        assert_eq!(d.phone().hits(), &[Hit::Cell(c), Hit::Key(Key::Digit(6))]);
        assert_eq!(d.screen_size().unwrap(), SUPPORTED_SIZES[0]);
    }

    #[test]
    fn a_batch_with_an_off_screen_tap_is_refused_whole() {
        let mut d = device();
        let inside = d.phone().cell_center(Cell::new(0, 1).unwrap());
        let err = d.tap_all(&[inside, Point::new(5, 1280)]).unwrap_err();
        assert!(
            err.to_string().contains("outside the 720x1280 screen"),
            "{err}"
        );
        assert!(d.phone().taps().is_empty());
    }
}
