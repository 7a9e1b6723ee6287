//! Finding the grid and classifying its cells with no calibration (placeholder, being built).

use super::VisionError;
use super::cells::{CellInk, cut_cells};
use super::ink::InkSplit;
use super::locate::{Grid, locate_grid};
use crate::geometry::Rect;
use image::RgbaImage;

/// A located grid with its 81 cleaned cells (row by row) and the given/entry split.
#[derive(Debug, Clone)]
pub struct ScreenCells {
    pub grid: Grid,
    pub cells: Vec<CellInk>,
    pub split: InkSplit,
}

/// Finds the grid (near `hint` first when given) and classifies its cells.
pub fn find_grid_and_cells(img: &RgbaImage, hint: Option<Rect>) -> Result<ScreenCells, VisionError> {
    let _ = hint;
    let grid = locate_grid(img)?;
    let cells = cut_cells(img, &grid);
    super::recognize::check_not_killer(&cells)?;
    let split = InkSplit::of(&cells);
    Ok(ScreenCells { grid, cells, split })
}
