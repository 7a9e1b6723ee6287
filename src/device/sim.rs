//! The simulated phone (the `sudoku-sim` crate) as an in-process `Device`: screenshots are fresh
//! renders and taps go straight to the app, with no ADB in between. Fast enough for unit tests of
//! later stages. The conversions between the reader's geometry and board types and the phone's
//! own are `From` impls in the reader crate (its `sim` feature): Rust allows them only in a crate
//! that owns one of the two types.

use crate::device::{Device, Key};
use crate::geometry::{Point, Size};
use anyhow::{Result, ensure};
use image::RgbaImage;
use sudoku_sim::{Screen, SudokuApp};

/// A `Device` backed by a [`SudokuApp`] in this process.
#[derive(Debug)]
pub struct SimDevice {
    phone: SudokuApp,
}

impl SimDevice {
    pub fn new(phone: SudokuApp) -> SimDevice {
        SimDevice { phone }
    }

    /// The app, to inspect its state or set up a test.
    pub fn phone(&self) -> &SudokuApp {
        &self.phone
    }

    pub fn phone_mut(&mut self) -> &mut SudokuApp {
        &mut self.phone
    }

    pub fn into_phone(self) -> SudokuApp {
        self.phone
    }
}

impl Device for SimDevice {
    fn screenshot(&mut self) -> Result<RgbaImage> {
        Ok(self.phone.render())
    }

    fn screen_size(&mut self) -> Result<Size> {
        Ok(self.phone.size().into())
    }

    /// Taps every point in order; refuses the whole batch if any point is off the screen, as
    /// `input tap` would fail on it.
    fn tap_all(&mut self, taps: &[Point]) -> Result<()> {
        let size = Size::from(self.phone.size());
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
            self.phone.tap(p.into());
        }
        Ok(())
    }

    fn foreground_app(&mut self) -> Result<Option<String>> {
        Ok(Some(self.phone.skin().package().to_string()))
    }

    /// Taken and changes nothing, as the phone's shell answers `input keyevent`: the app has no
    /// key handling and its screen never sleeps.
    fn press_key(&mut self, _key: Key) -> Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::{Board, Cell};
    use sudoku_sim::{Hit, Key, SUPPORTED_SIZES, Skin, puzzles};

    fn device() -> SimDevice {
        let board = puzzles::parse(puzzles::named("medium").unwrap()).unwrap();
        SimDevice::new(SudokuApp::new(board, Skin::default(), SUPPORTED_SIZES[0]).unwrap())
    }

    #[test]
    fn taps_reach_the_phone_in_order() {
        let mut d = device();
        let c = sudoku_sim::Cell::new(0, 1).unwrap();
        let taps = [
            d.phone().cell_center(c),
            d.phone().key_center(Key::Digit(6)),
        ];
        d.tap_all(&taps.map(Point::from)).unwrap();
        assert_eq!(d.phone().taps(), &taps);
        assert_eq!(d.phone().hits(), &[Hit::Cell(c), Hit::Key(Key::Digit(6))]);
        assert_eq!(d.screen_size().unwrap(), SUPPORTED_SIZES[0].into());
    }

    #[test]
    fn a_batch_with_an_off_screen_tap_is_refused_whole() {
        let mut d = device();
        let inside = d
            .phone()
            .cell_center(Cell::new(0, 1).unwrap().into())
            .into();
        let err = d.tap_all(&[inside, Point::new(5, 1280)]).unwrap_err();
        assert!(
            err.to_string().contains("outside the 720x1280 screen"),
            "{err}"
        );
        assert!(d.phone().taps().is_empty());
    }

    #[test]
    fn points_cells_and_boards_convert_both_ways_unchanged() {
        let board = puzzles::parse(puzzles::named("medium").unwrap()).unwrap();
        assert_eq!(sudoku_sim::Board::from(Board::from(board)), board);
        let cell = Cell::new(4, 7).unwrap();
        assert_eq!(Cell::from(sudoku_sim::Cell::from(cell)), cell);
        let p = Point::new(3, 9);
        assert_eq!(Point::from(sudoku_sim::Point::from(p)), p);
    }
}
