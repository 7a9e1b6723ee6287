//! Reading a screenshot: locate the 9x9 grid, cut and clean each cell, and classify its digit by
//! template matching against digits cut from the app's own screen.
//!
//! Everything here is a pure function of pixels: nothing knows which app (or which simulated
//! skin) drew the screen. `locate` finds the grid lines, `cells` turns each cell into a
//! normalised ink patch, `templates` stores the reference digits, `recognize` classifies and
//! checks, and `keypad` finds the digit buttons (and confirms their order). With no calibration,
//! `scan::find_grid_and_cells` finds the grid (outer lines optional) and the cells, `ink` tells
//! givens from entries by how each screen draws them, and `glyphs` labels the digits of one
//! screen jointly from `bank`, the embedded digit glyphs of many free typefaces
//! (`recognize::read_any`). `unlined` finds grids whose lines are not all drawn (no outer
//! border, or cells told apart by shading alone) once the line search has failed.
//! `recognize::read_board` is the one reader of a calibrated app: the fast calibrated path when
//! the grid is where the calibration has it, else `read_any`'s search with the calibration's
//! grid and templates as hints, and never a board whose grid moved from where the calibration
//! taps. `recognize::read_calibrated` (for `read`) also takes a calibration made at another
//! screen size. `overlay` draws any read, refused ones included.

pub mod bank;
pub mod cells;
pub mod glyphs;
pub mod keypad;
pub mod kinds;
pub mod locate;
pub mod overlay;
pub mod patch;
pub mod recognize;
mod ridges;
pub mod scan;
pub mod templates;
pub mod unlined;

pub use cells::{CellInk, DigitPatch, InkFeatures, cut_cells, cut_cells_adaptive};
pub use kinds::{DigitKind, InkSplit};
pub use locate::{
    Grid, locate_grid, locate_grid_candidates, locate_grid_near, locate_grid_near_relaxed,
};
pub use recognize::{
    CellKind, Hints, ReadError, Reading, Recognition, Seen, read_any, read_any_seen, read_board,
    read_calibrated,
};
pub use scan::{ScreenCells, find_grid_and_cells};
pub use templates::Templates;

use image::RgbaImage;

/// Why a screenshot could not be turned into a grid.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum VisionError {
    #[error("no sudoku grid found on the screen ({0}); open the puzzle in the app and try again")]
    NoGrid(String),
    #[error(
        "this looks like a killer sudoku (cage outlines inside {0} cells); only classic sudoku can be read"
    )]
    Killer(usize),
}

/// The brightness of a rectangle of `img` as a row-major buffer (`width * height` bytes).
pub(crate) fn luma_region(img: &RgbaImage, x0: u32, y0: u32, w: u32, h: u32) -> Vec<u8> {
    let raw = img.as_raw();
    let stride = img.width() as usize * 4;
    let w = w as usize;
    let mut out = vec![0u8; w * h as usize];
    if w == 0 {
        return out;
    }
    for (y, dst) in (y0 as usize..).zip(out.chunks_exact_mut(w)) {
        let start = y * stride + x0 as usize * 4;
        luma_row(&raw[start..start + w * 4], dst);
    }
    out
}

/// The brightness of each RGBA pixel of `rgba` into `out` (one byte per pixel). Written into a
/// slice of known length rather than collected, so that the compiler vectorises it: every
/// stage's brightness plane goes through here.
#[inline]
pub(crate) fn luma_row(rgba: &[u8], out: &mut [u8]) {
    // Each pixel as one little-endian word, its channels taken out by shifts: this
    // vectorises better than four byte loads per pixel.
    for (o, p) in out.iter_mut().zip(rgba.chunks_exact(4)) {
        let v = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
        let (r, g, b) = (v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff);
        *o = ((r * 77 + g * 150 + b * 29) >> 8) as u8;
    }
}
