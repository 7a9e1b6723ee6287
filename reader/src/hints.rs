//! What the reader may be told besides the screenshot: the digits the user typed, an app's digit
//! templates, and where a profile measured the grid (on which screen size, with which
//! recognition thresholds). Plain data handed down by the caller, so that vision never needs to
//! know what a profile or a calibration file is.

use super::bank::Bank;
use super::templates::Templates;
use crate::board::Board;
use crate::geometry::{Rect, Size};
use serde::{Deserialize, Serialize};

/// How the calibrated reader matches digits and tells givens from entries (a calibration's
/// `[recognition]` table).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Thresholds {
    /// Lowest correlation accepted for a digit.
    pub min_score: f64,
    /// Lowest lead of the best digit over the runner-up.
    pub min_margin: f64,
    /// Ink colour of the givens seen at calibration.
    pub given_ink: [u8; 3],
    /// Ink colour of player entries, when calibration saw some.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry_ink: Option<[u8; 3]>,
    /// Digits farther than this (RGB distance) from `given_ink` are player entries.
    pub kind_distance: f64,
    /// Shortest big digit as a fraction of the cell, for apps that draw small digits (in
    /// discs, say); absent means the usual 0.3.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub big_digit: Option<f64>,
}

/// Where a profile measured the grid: on a screenshot of `screen`'s size the grid must be at
/// `grid` (a profile taps there), and the cells are first read the calibrated way with
/// `thresholds`. A screenshot of another size is refused, unless [`Hints::other_sizes`].
#[derive(Debug, Clone, Copy)]
pub struct Place<'a> {
    pub screen: Size,
    pub grid: Rect,
    pub thresholds: &'a Thresholds,
}

/// What the reader may use besides the screenshot; all optional.
#[derive(Debug, Clone, Copy, Default)]
pub struct Hints<'a> {
    /// The board's digits as the user typed them (`--givens`): they override the shapes.
    pub givens: Option<&'a Board>,
    /// The app's own digit templates from a calibration: a further source of evidence, which
    /// takes the keypad's place as the second source (the keypad is then not looked for).
    pub templates: Option<&'a Templates>,
    /// A grid rectangle in this screenshot's pixels tried first, never required.
    pub grid: Option<Rect>,
    /// A profile's grid place: with `templates`, the fast calibrated read, and never a board
    /// whose grid moved from it.
    pub place: Option<Place<'a>>,
    /// For a caller that taps nothing (`read`): a screenshot of another size than `place`'s is
    /// read with the templates alone instead of refused.
    pub other_sizes: bool,
    /// The glyph bank the full search labels digits and orders the keypad with; `None`: the
    /// embedded one. Another bank measures how the reader copes with typefaces it has not
    /// seen (a bank with the app's own font left out).
    pub bank: Option<&'a Bank>,
}

impl<'a> Hints<'a> {
    /// Only the digits the user typed (`--givens`), which override the shapes; none: no hints.
    pub fn typed(givens: Option<&'a Board>) -> Hints<'a> {
        Hints {
            givens,
            ..Hints::default()
        }
    }

    /// These hints, for a caller that taps nothing ([`Hints::other_sizes`]).
    pub fn any_size(self) -> Hints<'a> {
        Hints {
            other_sizes: true,
            ..self
        }
    }
}

/// Why a screenshot of `size` is not one a profile measured on `measured` can be used on as it
/// is (`None` when the sizes are the same): turned, or another size.
pub fn frame_mismatch(size: Size, measured: Size) -> Option<String> {
    if size == measured {
        return None;
    }
    if size == Size::new(measured.height, measured.width) {
        return Some(format!(
            "the screen is rotated ({size}, calibrated in {measured}); turn the phone back or re-run `sudoku-agent calibrate` (with --out FILE for a calibration file)"
        ));
    }
    Some(format!(
        "the screen is {size} but the calibration was measured on {measured}; re-run `sudoku-agent calibrate` on this screen (with --out FILE for a calibration file)"
    ))
}
