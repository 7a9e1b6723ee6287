//! The one way from a screenshot to a board: [`read`]. Every command, calibrate, profile
//! learning and fitting go through it, so the same screenshot and hints give the same answer
//! wherever it is read.
//!
//! With a profile's [`Place`] on a screenshot of its size the calibrated path comes first (all
//! ten lines each way near the profile's grid, cells cut at its digit size, matched against its
//! templates), then the full search with the profile's grid and templates as hints; either way
//! the grid must be where the profile taps ([`ReadError::Moved`] otherwise). On another screen
//! size only the templates help (a scaled rectangle can sit a few pixels off). With no place,
//! the full search ([`super::find_grid_and_cells`]) and the glyph bank.

use super::hints::{Hints, Place, frame_mismatch};
use super::locate::{Grid, grid_offset, grid_tolerance, near};
use super::recognize::{
    MIN_CLUES, ReadError, Recognition, calibrated_cells, read_cells, read_screen,
    with_calibrated_kinds,
};
use super::scan::{ScreenCells, find_grid_and_cells_on};
use super::screen::Screen;
use super::templates::Templates;
use crate::geometry::Size;
use image::RgbaImage;

/// A read together with what it saw on the way (the grid and its cells, when a grid was
/// found), so that a picture can show why a read was refused and calibrate can cut templates
/// from the cells.
#[derive(Debug, Clone)]
pub struct Seen {
    pub screen: Option<ScreenCells>,
    pub result: Result<Recognition, ReadError>,
}

impl Seen {
    fn refused(screen: Option<ScreenCells>, e: ReadError) -> Seen {
        Seen {
            screen,
            result: Err(e),
        }
    }
}

/// Reads the board on `img`. Refuses, naming the cells and their two best candidates, whenever
/// the evidence is not clear: never a silently wrong board, and with a profile's place never a
/// board whose grid is not where the profile taps.
pub fn read(img: &RgbaImage, hints: Option<&Hints>) -> Seen {
    // One brightness plane (and a half-size one) for every stage of this read.
    let img = &Screen::new(img);
    let hints = hints.copied().unwrap_or_default();
    let size = Size::new(img.width(), img.height());
    match hints.place {
        Some(place) => match frame_mismatch(size, place.screen) {
            None => read_at_place(img, place, hints),
            Some(frame) if hints.other_sizes => read_resized(img, frame, hints),
            Some(frame) => Seen::refused(None, ReadError::WrongScreen(frame)),
        },
        None => read_anywhere(img, hints),
    }
}

/// The full search: finds the grid (near `hints.grid` first), groups the big digits by shape
/// and labels the groups jointly from the glyph bank, checked against the keypad (when one is
/// found and no templates are given) and the hints.
fn read_anywhere(img: &Screen, hints: Hints) -> Seen {
    match find_grid_and_cells_on(img, hints.grid) {
        Ok(screen) => Seen {
            result: read_screen(img, &screen, hints),
            screen: Some(screen),
        },
        Err(e) => Seen::refused(None, e.into()),
    }
}

/// On a screenshot of the profile's size. The fast calibrated path first; a board of 17 digits
/// or more from there is the read. Otherwise (an edge-to-edge or unlined grid, digits the fixed
/// cut does not see) the full search, with the profile's rectangle as a hint (it is this
/// screen's own, so a lattice found there must match it; see `scan::find_grid_and_cells`) and
/// its templates as the second source, the kinds told as the calibrated reader tells them.
fn read_at_place(img: &Screen, place: Place, hints: Hints) -> Seen {
    // Only a grid with all its lines is read the fast way. One without (edge to edge, shading
    // only) is left to the search, which checks the cells it cuts: the unlined grid found near
    // the calibrated one cut a real screen (Good Sudoku, notes in every empty cell) off by a
    // few pixels, and the fixed cut read 28 of its 35 digits as a board.
    let (fast_screen, fast) = match (hints.templates, near(img, place.grid, true)) {
        // A game that is not classic is refused here too: the full search checks the regions
        // where it finds a grid, and a profile learned on a classic board must not read a
        // jigsaw board of the same app as one.
        (Some(_), Ok(grid)) if crate::regions::irregular(img, &grid) => {
            return Seen::refused(None, crate::VisionError::Irregular.into());
        }
        (Some(templates), Ok(grid)) => read_fast(img, grid, templates, place),
        (None, _) => (None, Err(ReadError::WrongScreen("no templates".into()))),
        (_, Err(e)) => (None, Err(e.into())),
    };
    let fast = match fast {
        Ok(rec) if rec.board.filled_count() >= MIN_CLUES => {
            return Seen {
                result: at_place(rec, place),
                screen: fast_screen,
            };
        }
        Ok(rec) => ReadError::WrongScreen(format!(
            "only {} digits seen where the calibration puts the grid, too few for a sudoku",
            rec.board.filled_count()
        )),
        Err(e) => e,
    };
    let seen = read_anywhere(
        img,
        Hints {
            grid: Some(place.grid),
            ..hints
        },
    );
    match (seen.result, fast) {
        (Ok(rec), _) => {
            let result = match &seen.screen {
                Some(screen) => with_calibrated_kinds(rec, screen, place.thresholds),
                None => Ok(rec),
            };
            Seen {
                result: result.and_then(|rec| at_place(rec, place)),
                screen: seen.screen,
            }
        }
        // Cells a reader named are the reason: the templates' doubts or clashes where the
        // calibration has the grid first. (A clash the fixed ink rule calls one between givens
        // can be a player's mistaken entry, which the search tells apart by this screen's inks,
        // and reads as the board it is: play then corrects it.)
        (Err(_), fast @ (ReadError::Unsure(_) | ReadError::Conflict(_))) => {
            Seen::refused(fast_screen.or(seen.screen), fast)
        }
        (Err(e @ (ReadError::Unsure(_) | ReadError::Conflict(_))), _) => {
            Seen::refused(seen.screen, e)
        }
        (Err(_), fast) => Seen::refused(fast_screen.or(seen.screen), fast),
    }
}

/// The calibrated path on a located grid: cells cut at the profile's digit size, each matched
/// against its templates, the kinds by its inks, with the rule check.
fn read_fast(
    img: &Screen,
    grid: Grid,
    templates: &Templates,
    place: Place,
) -> (Option<ScreenCells>, Result<Recognition, ReadError>) {
    let screen = calibrated_cells(img, grid, place.thresholds);
    let result = read_cells(&screen, templates, place.thresholds);
    (Some(screen), result)
}

/// On a screenshot of another size than the profile's: the full search with its templates as
/// the second source, no grid hint (a scaled rectangle can sit a few pixels off, and the full
/// search has read every real screenshot exactly). A refusal that names no cells says the size
/// differs (`frame`) and why the search refused.
fn read_resized(img: &Screen, frame: String, hints: Hints) -> Seen {
    let seen = read_anywhere(
        img,
        Hints {
            grid: None,
            place: None,
            ..hints
        },
    );
    let result = match seen.result {
        Ok(rec) => Ok(rec),
        Err(e @ (ReadError::Unsure(_) | ReadError::Conflict(_))) => Err(e),
        Err(e) => Err(ReadError::WrongScreen(format!(
            "{frame} (read without it: {e})"
        ))),
    };
    Seen {
        screen: seen.screen,
        result,
    }
}

/// `rec`, when its grid is where the profile taps; else [`ReadError::Moved`].
fn at_place(rec: Recognition, place: Place) -> Result<Recognition, ReadError> {
    let by = grid_offset(&rec.grid, place.grid);
    if by > grid_tolerance(place.grid) {
        return Err(ReadError::Moved {
            by,
            expected: place.grid,
        });
    }
    Ok(rec)
}
