//! Calibrating from one screenshot of an app, the one way every command learns an app (the
//! `calibrate` command and `play`'s first-time learning alike): the reader without calibration
//! ([`sudoku_reader::read`], told the user's `--givens` through its hints) finds the grid, cuts the
//! cells and labels the digits; the templates are the mean of each digit's cells (the keypad's
//! glyph for a digit the board lacks), the keypad is found with them, and the result must read
//! its own screen back exactly. Produces a `Calibration`, its `Templates` and an overlay
//! picture. Deterministic: the same screen gives the same file.

use crate::geometry::{Point, Rect, Size};
use crate::profile::Profile;
use crate::profile::calibration::{Calibration, FORMAT_VERSION, InputOrder, Keypad, Thresholds};
use crate::sudoku::{Board, Cell};
use anyhow::{Result, anyhow, bail};
use image::RgbaImage;
use sudoku_reader::stages::draw_calibration;
use sudoku_reader::stages::{BIG_MIN, big_digit_height};
use sudoku_reader::stages::{Glyph, find_keypad, glyphs_outside};
use sudoku_reader::stages::{PATCH_H, PATCH_W};
use sudoku_reader::stages::{colour_distance, rule_conflicts};
use sudoku_reader::{CellInk, CellKind, Grid, Hints, ReadError, Templates};

/// What the user told calibrate.
#[derive(Debug, Clone)]
pub struct CalibrateOptions {
    pub profile: String,
    /// The board's big digits, when the reader cannot label them: they reach the reader as
    /// its `givens` hint.
    pub givens: Option<Board>,
    pub erase: Option<Point>,
    pub notes: Option<Point>,
    pub input_order: InputOrder,
}

impl Default for CalibrateOptions {
    /// The `default` profile (an empty name is not a valid profile), nothing else told.
    fn default() -> Self {
        CalibrateOptions {
            profile: "default".into(),
            givens: None,
            erase: None,
            notes: None,
            input_order: InputOrder::default(),
        }
    }
}

/// Who labelled the digits the templates were cut from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelSource {
    /// The reader without calibration, on its own (its glyph bank, checked against the keypad).
    Reader,
    /// The `--givens` the user typed.
    Givens,
}

/// Everything calibrate found.
#[derive(Debug, Clone)]
pub struct Calibrated {
    pub calibration: Calibration,
    pub templates: Templates,
    pub grid: Grid,
    /// The board as labelled on the calibration screen.
    pub board: Board,
    pub labelled_by: LabelSource,
    /// Digits whose template came from the keypad glyph (absent from the board).
    pub from_keypad: Vec<u8>,
    pub overlay: RgbaImage,
    /// Centre and box of each digit key, as drawn on the overlay.
    pub keys: Option<[(Point, Rect); 9]>,
    /// Rule clashes on the calibration screen (a player's mistaken entries), with the digit.
    pub conflicts: Vec<(Cell, Cell, u8)>,
}

impl Calibrated {
    /// The profile calibrated: the calibration with its templates.
    pub fn profile(&self) -> Profile {
        Profile::new(self.calibration.clone(), self.templates.clone())
    }

    /// Records erase, notes and input order found after calibrating (by `calibrate --probe`):
    /// the same calibration and overlay as when they are given as options.
    pub fn set_controls(
        &mut self,
        img: &RgbaImage,
        erase: Option<Point>,
        notes: Option<Point>,
        input_order: InputOrder,
    ) -> Result<()> {
        self.calibration.input_order = input_order;
        if let Some(k) = &mut self.calibration.keypad {
            k.erase = erase;
            k.notes = notes;
        }
        self.calibration.validate()?;
        self.overlay = draw_calibration(img, &self.grid, self.keys.as_ref(), erase, notes);
        Ok(())
    }
}

/// Recognition thresholds written by calibrate.
pub const MIN_SCORE: f64 = 0.7;
pub const MIN_MARGIN: f64 = 0.05;
pub const KIND_DISTANCE: f64 = 60.0;

fn mean_patch(patches: &[&[u8]]) -> Vec<u8> {
    let n = patches.len() as u32;
    (0..PATCH_W * PATCH_H)
        .map(|i| ((patches.iter().map(|p| p[i] as u32).sum::<u32>() + n / 2) / n) as u8)
        .collect()
}

fn mean_colour(cs: &[[u8; 3]]) -> [u8; 3] {
    let n = cs.len().max(1) as u32;
    std::array::from_fn(|k| ((cs.iter().map(|c| c[k] as u32).sum::<u32>() + n / 2) / n) as u8)
}

/// The givens' and the entries' inks from the kinds the reader told: the mean ink of each (a
/// board played nearly to the end has more entries than givens, so the larger colour group is
/// not always the givens). No entry ink where the entries are drawn in the givens' colour (the
/// reader told them apart by their cells' paper). With no given told (every digit's kind
/// hidden), the mean ink of all digits.
fn inks_by_kind(
    givens: &[[u8; 3]],
    entries: &[[u8; 3]],
    all: &[[u8; 3]],
) -> ([u8; 3], Option<[u8; 3]>) {
    if givens.is_empty() {
        return (mean_colour(all), None);
    }
    let given = mean_colour(givens);
    let entry = (!entries.is_empty())
        .then(|| mean_colour(entries))
        .filter(|&e| colour_distance(e, given) >= KIND_DISTANCE);
    (given, entry)
}

/// Calibrates on one screenshot: what the reader without calibration finds there (grid, cells,
/// labelled digits and their kinds; `opts.givens` label the digits when given), made into
/// templates, a keypad and a calibration that reads the screenshot back exactly.
pub fn calibrate_image(img: &RgbaImage, opts: &CalibrateOptions) -> Result<Calibrated> {
    let seen = sudoku_reader::read(img, Some(&Hints::typed(opts.givens.as_ref())));
    let (screen, read) = match (seen.screen, seen.result) {
        (Some(screen), Ok(read)) => (screen, read),
        (_, Err(e @ ReadError::Unsure(_))) if opts.givens.is_none() => {
            bail!(
                "{e}; label them with `sudoku-agent calibrate --givens <81 chars>` (the board's digits, row by row)"
            )
        }
        (_, Err(e)) => return Err(anyhow!(e)),
        (None, Ok(_)) => bail!("no sudoku grid found on the screenshot"),
    };
    if let Some(givens) = &opts.givens {
        check_givens(givens, &screen.cells)?;
    }
    let labelled = Labelled {
        board: read.board,
        kinds: read.readings.iter().map(|r| r.kind).collect(),
        by: if opts.givens.is_some() {
            LabelSource::Givens
        } else {
            LabelSource::Reader
        },
    };
    let refs = mean_patches(&screen.cells, &read.board);
    let keypad = find_keypad(&glyphs_outside(img, &screen.grid), &refs, true);
    finish(img, opts, screen.grid, &screen.cells, labelled, keypad)
}

/// What calibrate knows of the board's digits: their labels, their kinds as the reader told
/// them (in cell order), and who labelled them.
struct Labelled {
    board: Board,
    kinds: Vec<CellKind>,
    by: LabelSource,
}

/// The mean patch of each digit 1..=9 among the digit `cells` labelled by `board` (`None`: not
/// on the board).
fn mean_patches(cells: &[CellInk], board: &Board) -> Vec<Option<Vec<u8>>> {
    (1..=9u8)
        .map(|d| {
            let ps: Vec<&[u8]> = Cell::all()
                .filter(|c| board.get(*c) == Some(d))
                .filter_map(|c| cells[c.index()].digit.as_ref())
                .map(|p| p.pixels.as_slice())
                .collect();
            (!ps.is_empty()).then(|| mean_patch(&ps))
        })
        .collect()
}

/// The `--givens` the user typed must have a digit exactly where the screen has one.
fn check_givens(givens: &Board, cells: &[CellInk]) -> Result<()> {
    let wrong: Vec<String> = Cell::all()
        .filter_map(|cell| {
            let seen = cells[cell.index()].digit.is_some();
            (seen != givens.get(cell).is_some()).then(|| {
                format!(
                    "{cell} ({})",
                    if seen {
                        "digit on screen, empty in --givens"
                    } else {
                        "empty on screen, digit in --givens"
                    }
                )
            })
        })
        .collect();
    if !wrong.is_empty() {
        bail!("--givens does not match the screen at {}", wrong.join(", "));
    }
    Ok(())
}

/// The rest of calibrating once the grid, its cells and their digits are known: templates
/// (keypad glyphs for digits not on the board), ink colours, the calibration, checked by reading
/// the screenshot back with the new templates.
fn finish(
    img: &RgbaImage,
    opts: &CalibrateOptions,
    grid: Grid,
    inks: &[CellInk],
    labelled: Labelled,
    keypad: Option<[Glyph; 9]>,
) -> Result<Calibrated> {
    let Labelled {
        board,
        kinds,
        by: labelled_by,
    } = labelled;
    let digit_cells: Vec<(Cell, &sudoku_reader::DigitPatch)> = Cell::all()
        .zip(inks)
        .filter_map(|(c, ink)| ink.digit.as_ref().map(|p| (c, p)))
        .filter(|(c, _)| board.get(*c).is_some())
        .collect();
    // A player's mistake on the screen is reported, not refused: the templates are still good.
    let conflicts = rule_conflicts(&board);

    let (templates, from_keypad) = templates_for(inks, &board, keypad.as_ref())?;

    let of_kind = |kind| -> Vec<[u8; 3]> {
        digit_cells
            .iter()
            .filter(|(c, _)| kinds.get(c.index()) == Some(&kind))
            .map(|(_, p)| p.ink)
            .collect()
    };
    let all: Vec<[u8; 3]> = digit_cells.iter().map(|(_, p)| p.ink).collect();
    let (given_ink, entry_ink) =
        inks_by_kind(&of_kind(CellKind::Given), &of_kind(CellKind::Entry), &all);
    let calibration = calibration_for(img, opts, &grid, keypad.as_ref(), given_ink, entry_ink);
    calibration.validate()?;

    // The templates must read their own screen back exactly, through the one reader as every
    // later read will.
    let refused = |e| anyhow!("the new templates do not read the calibration screen back: {e}");
    let check = Profile::new(calibration.clone(), templates.clone())
        .read(img)
        .result
        .map_err(refused)?
        .board;
    if check != board {
        bail!(
            "the new templates read {} instead of {}; label the digits with `sudoku-agent calibrate --givens <81 chars>`",
            check.to_line(),
            board.to_line()
        );
    }

    let keys: Option<[(Point, Rect); 9]> = keypad
        .as_ref()
        .map(|k| std::array::from_fn(|d| (k[d].centre(), k[d].bbox)));
    let overlay = draw_calibration(img, &grid, keys.as_ref(), opts.erase, opts.notes);
    Ok(Calibrated {
        calibration,
        templates,
        grid,
        board,
        labelled_by,
        from_keypad,
        overlay,
        keys,
        conflicts,
    })
}

/// The templates: the mean patch of each digit on the board, the keypad's glyph for a digit
/// that is not (those digits are returned too), and the keypad's glyphs as alternates for the
/// rest. Refused when a digit has neither.
fn templates_for(
    cells: &[CellInk],
    board: &Board,
    keypad: Option<&[Glyph; 9]>,
) -> Result<(Templates, Vec<u8>)> {
    let means = mean_patches(cells, board);
    let mut raw: [Option<Vec<u8>>; 9] = Default::default();
    let mut from_keypad = Vec::new();
    for (d, mean) in (1..=9u8).zip(means) {
        if mean.is_some() {
            raw[d as usize - 1] = mean;
        } else if let Some(keys) = keypad {
            raw[d as usize - 1] = Some(keys[d as usize - 1].patch.clone());
            from_keypad.push(d);
        }
    }
    let alt: [Option<Vec<u8>>; 9] = std::array::from_fn(|d| {
        let on_board = !from_keypad.contains(&(d as u8 + 1));
        keypad.filter(|_| on_board).map(|k| k[d].patch.clone())
    });
    let templates = Templates::with_alternates(raw, alt);
    let missing = templates.missing();
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().map(|d| d.to_string()).collect();
        bail!(
            "no template for digit(s) {}: they are not on the board and no keypad was found; calibrate on a screen showing them",
            list.join(", ")
        );
    }
    Ok((templates, from_keypad))
}

/// The calibration of what was found on `img`, with the user's options (not yet validated).
fn calibration_for(
    img: &RgbaImage,
    opts: &CalibrateOptions,
    grid: &Grid,
    keypad: Option<&[Glyph; 9]>,
    given_ink: [u8; 3],
    entry_ink: Option<[u8; 3]>,
) -> Calibration {
    let size = Size::new(img.width(), img.height());
    Calibration {
        format_version: FORMAT_VERSION,
        profile: opts.profile.clone(),
        templates_dir: format!("templates/{}", opts.profile),
        input_order: opts.input_order,
        screen: size,
        grid: grid.rect(),
        keypad: keypad.map(|k| Keypad {
            digits: std::array::from_fn(|d| k[d].centre()),
            erase: opts.erase,
            notes: opts.notes,
        }),
        thresholds: Thresholds {
            min_score: MIN_SCORE,
            min_margin: MIN_MARGIN,
            given_ink,
            entry_ink,
            kind_distance: KIND_DISTANCE,
            big_digit: {
                let h = big_digit_height(img, grid);
                (h < BIG_MIN).then_some(h as f64)
            },
        },
        pacing: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_entry_ink_is_kept_only_when_it_differs_clearly_from_the_givens_ink() {
        let (givens, entries) = ([[20, 20, 20]; 6], [[30, 90, 220]; 3]);
        let all = [givens.as_slice(), entries.as_slice()].concat();
        assert_eq!(
            inks_by_kind(&givens, &entries, &all),
            ([20, 20, 20], Some([30, 90, 220]))
        );
        assert_eq!(inks_by_kind(&givens, &[[25, 22, 20]], &all).1, None);
        assert_eq!(
            inks_by_kind(&[], &[], &[[10, 10, 10], [30, 30, 30]]),
            ([20, 20, 20], None)
        );
    }
}
