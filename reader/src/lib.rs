//! sudoku-reader reads a sudoku screenshot: it finds the 9x9 grid on any screen (a phone, a
//! tablet, a web page), cuts each cell, labels its digit and tells the puzzle's givens from the
//! player's entries. Like ZXing's readers it has one entry, [`read`]`(image, hints)`, which
//! returns what it found (the [`Recognition`]: board, per-cell readings and any clashes, and the
//! grid and cells it saw on the way) or a typed error ([`ReadError`]: no grid, a killer or
//! multi-grid puzzle, a doubtful cell, a screen of another size than the hints', ...). It never
//! returns a board it is unsure of. [`Hints`] are optional: an app's digit templates, the grid's
//! place and thresholds measured by a calibration, or the digits the user typed; without them the
//! reader is complete, labelling digits from the glyphs of many free typefaces (`bank`) and the
//! app's own keypad as a second source.
//!
//! ```no_run
//! let img = image::open("screenshot.png")?.to_rgba8();
//! match sudoku_reader::read(&img, None).result {
//!     Ok(found) => println!("{}", found.board.to_line()), // 81 characters, '.' empty
//!     Err(e) => eprintln!("{e}"), // one line saying what to do next
//! }
//! # Ok::<(), image::ImageError>(())
//! ```
//!
//! Everything here is a pure function of pixels: nothing knows which app (or which simulated
//! skin) drew the screen, nor what a profile is: callers hand it [`Hints`] (templates, a grid
//! place, [`Thresholds`]). The crate depends on its own plain types only: `geometry` (points,
//! sizes, rectangles in screen pixels) and `board` (cells and boards, with their text forms).
//!
//! With a profile's place on a screen of its size [`read`] (`reader`) reads the calibrated way
//! first (`recognize::read_grid`: the grid's lines near the profile's, cells cut at its digit
//! size, matched against its templates) and never returns a board whose grid moved from where
//! the profile taps; otherwise, and as its fallback, the full search:
//! `scan::find_grid_and_cells` finds the grid (outer lines optional) and the cells, `kinds`
//! tells givens from entries by how each screen draws them, and `glyphs` labels the digits of
//! one screen jointly from `bank`, the embedded digit glyphs of many free typefaces (and
//! `holes`, which digits a shape's closed loops rule out), checked against the keypad or the
//! templates. `locate` finds grid lines, `cells` turns each cell into a normalised ink patch,
//! `templates` stores the reference digits, `keypad` finds the digit buttons (and confirms
//! their order). `unlined` finds grids whose lines are not all drawn (no outer border, or cells
//! told apart by shading alone) once the line search has failed; `locate::locate_grid_stepped`
//! last of all takes a step between two shades for a line (tiles whose boxes differ in shade).
//! `overrun` refuses a 9x9 whose lines run on into another grid (samurai and other multi-grid
//! puzzles). `overlay` draws any read, refused ones included. `screen` holds the one brightness
//! formula, the [`Screen`] that a read makes once and hands every stage (its brightness plane,
//! converted a row at a time as stages want rows, and a half-size screen made lazily for the
//! grid search), and the colour distance every stage uses. Imports run one way: `geometry` and
//! `board` first; `screen`, `patch`, `ridges`, `hints`, `holes` at the bottom; `locate`,
//! `cells`, `kinds`, `unlined`, `overrun`, `scan` above them; `recognize`, then `reader` and
//! `overlay` on top. With the `sim` feature, `sim` converts these types to and from the
//! simulated phone's (`sudoku-sim`), for the agent's in-process phone and its tests.

mod bank;
pub mod board;
mod cells;
pub mod geometry;
mod glyphs;
mod hints;
mod holes;
mod keypad;
mod kinds;
mod locate;
mod overlay;
mod overrun;
mod patch;
mod reader;
mod recognize;
mod regions;
mod ridges;
mod scan;
mod screen;
mod settling;
#[cfg(feature = "sim")]
mod sim;
pub mod stages;
mod templates;
mod unlined;

pub use cells::{CellInk, DigitPatch, InkFeatures};
pub use hints::{Hints, Thresholds};
pub use kinds::{DigitKind, InkSplit};
pub use locate::Grid;
pub use reader::{Seen, read};
pub use recognize::{CellKind, ReadError, Reading, Recognition};
pub use scan::ScreenCells;
pub use screen::Screen;
pub use templates::Templates;

/// Why a screenshot could not be turned into a grid.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum VisionError {
    #[error("no sudoku grid found on the screen ({0}); open the puzzle in the app and try again")]
    NoGrid(String),
    #[error(
        "this looks like a killer sudoku (cage outlines inside {0} cells); only classic sudoku can be read"
    )]
    Killer(usize),
    #[error(
        "this looks like a samurai or other multi-grid sudoku (the grid's lines run on beyond its 9x9); only classic sudoku can be read"
    )]
    MultiGrid,
    #[error(
        "this looks like a jigsaw sudoku (thick walls between cells off the 3x3 box lines: irregular regions); only classic sudoku can be read"
    )]
    Irregular,
}
