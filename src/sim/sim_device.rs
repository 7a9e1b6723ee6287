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
