//! Calibrating from one screenshot of an app: find the grid and the keypad, cut
//! digit templates from the board's digits (labelled by the glyph bank, checked against the
//! keypad when its order is confirmed, or by the `--givens` the user typed), fill missing digits from the keypad, measure ink colours, check
//! that the templates read the calibration screen back exactly, and produce a `Calibration`,
//! its `Templates` and an overlay picture. Deterministic: the same screen gives the same file.

use crate::geometry::{Point, Rect, Size};
use crate::profile::calibration::{Calibration, FORMAT_VERSION, InputOrder, Keypad, Thresholds};
use crate::sudoku::{Board, Cell};
use crate::vision;
use crate::vision::cells::{big_digit_height, cut_cells};
use crate::vision::glyphs::{Reference, label};
use crate::vision::keypad::{Glyph, find_keypad, glyphs_outside, order_keypad};
use crate::vision::patch::{PATCH_H, PATCH_W};
use crate::vision::recognize::{MIN_CLUES, colour_distance, read_inks, rule_conflicts};
use crate::vision::{
    CellInk, CellKind, Grid, ReadError, Recognition, ScreenCells, Templates, VisionError, overlay,
};
use anyhow::{Result, anyhow, bail};
use image::RgbaImage;

/// What the user told calibrate.
#[derive(Debug, Clone)]
pub struct CalibrateOptions {
    pub profile: String,
    /// The board's big digits, when the keypad cannot label them.
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

/// How the templates were labelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelSource {
    Keypad,
    Givens,
    /// The reader without calibration (`vision::read` without hints), as `play` learns an app.
    Reader,
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
        self.overlay = overlay::draw_calibration(img, &self.grid, self.keys.as_ref(), erase, notes);
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
/// reader told them apart by their cells' paper). `None` without a given.
fn inks_by_kind(givens: &[[u8; 3]], entries: &[[u8; 3]]) -> Option<([u8; 3], Option<[u8; 3]>)> {
    if givens.is_empty() {
        return None;
    }
    let given = mean_colour(givens);
    let entry = (!entries.is_empty())
        .then(|| mean_colour(entries))
        .filter(|&e| colour_distance(e, given) >= KIND_DISTANCE);
    Some((given, entry))
}

/// Splits digit ink colours into givens (the larger group) and entries, when two clearly
/// different colours are present.
fn ink_colours(inks: &[[u8; 3]]) -> ([u8; 3], Option<[u8; 3]>) {
    let all = mean_colour(inks);
    let Some(&far) = inks
        .iter()
        .max_by(|a, b| colour_distance(**a, all).total_cmp(&colour_distance(**b, all)))
    else {
        return ([0, 0, 0], None);
    };
    let Some(&other) = inks
        .iter()
        .max_by(|a, b| colour_distance(**a, far).total_cmp(&colour_distance(**b, far)))
    else {
        return (all, None);
    };
    let (mut c0, mut c1) = (far, other);
    let mut groups = (Vec::new(), Vec::new());
    for _ in 0..8 {
        groups = (Vec::new(), Vec::new());
        for &i in inks {
            if colour_distance(i, c0) <= colour_distance(i, c1) {
                groups.0.push(i);
            } else {
                groups.1.push(i);
            }
        }
        c0 = mean_colour(&groups.0);
        c1 = mean_colour(&groups.1);
    }
    if groups.1.is_empty() || groups.0.is_empty() || colour_distance(c0, c1) < KIND_DISTANCE {
        return (all, None);
    }
    if groups.0.len() >= groups.1.len() {
        (c0, Some(c1))
    } else {
        (c1, Some(c0))
    }
}

/// Calibrates on one screenshot.
pub fn calibrate_image(img: &RgbaImage, opts: &CalibrateOptions) -> Result<Calibrated> {
    // The grid the one reader finds (`vision::read` with no hints; a killer sudoku or a screen
    // with no grid is refused there). Its cells are cut again at this screen's digit size, as a
    // read with the new calibration will cut them, so the templates are what those reads see;
    // where that cut finds too few digits for a sudoku (edge-to-edge grids, small digits in
    // discs), the reader's own cells.
    let seen = vision::read(img, None);
    // The kinds the reader told (when it read the board): which digits are givens.
    let kinds = seen.result.as_ref().ok().map(kinds_of);
    let screen = match (seen.screen, seen.result) {
        (_, Err(e @ ReadError::Vision(VisionError::Killer(_)))) | (None, Err(e)) => {
            return Err(anyhow!(e));
        }
        (Some(screen), _) => screen,
        (None, Ok(_)) => bail!("no sudoku grid found on the screenshot"),
    };
    let grid = screen.grid;
    let sized = cut_cells(img, &grid, Some(big_digit_height(img, &grid)));
    let inks = if sized.iter().filter(|c| c.digit.is_some()).count() >= MIN_CLUES {
        sized
    } else {
        screen.cells
    };
    let digit_cells: Vec<(Cell, &crate::vision::DigitPatch)> = Cell::all()
        .zip(&inks)
        .filter_map(|(c, ink)| ink.digit.as_ref().map(|p| (c, p)))
        .collect();
    if digit_cells.len() < 5 {
        bail!(
            "only {} digits on the board; calibrate on a puzzle that shows its givens",
            digit_cells.len()
        );
    }
    let patches: Vec<&[u8]> = digit_cells
        .iter()
        .map(|(_, p)| p.pixels.as_slice())
        .collect();
    let glyphs = glyphs_outside(img, &grid);

    let (labels, keypad, labelled_by) = if let Some(givens) = &opts.givens {
        let labels = labels_from_givens(givens, &inks, &digit_cells)?;
        let keypad = find_keypad(&glyphs, &mean_patches(&patches, &labels), true);
        (labels, keypad, LabelSource::Givens)
    } else {
        let (labels, verified) = labels_from_bank(&patches, &digit_cells, &glyphs)?;
        let keypad =
            verified.or_else(|| find_keypad(&glyphs, &mean_patches(&patches, &labels), true));
        (labels, keypad, LabelSource::Keypad)
    };

    let mut board = Board::empty();
    for (k, (cell, _)) in digit_cells.iter().enumerate() {
        board.set(*cell, Some(labels[k]));
    }
    let labelled = Labelled {
        board,
        kinds,
        by: labelled_by,
    };
    finish(img, opts, grid, &inks, labelled, keypad)
}

/// What calibrate knows of the board's digits: their labels, their kinds where the reader told
/// them, and who labelled them.
struct Labelled {
    board: Board,
    kinds: Option<Vec<CellKind>>,
    by: LabelSource,
}

/// Each cell's kind as `rec` read it, in cell order.
fn kinds_of(rec: &Recognition) -> Vec<CellKind> {
    rec.readings.iter().map(|r| r.kind).collect()
}

/// The mean patch of each digit 1..=9 among `patches` labelled `labels` (`None`: not on the
/// board).
fn mean_patches(patches: &[&[u8]], labels: &[u8]) -> Vec<Option<Vec<u8>>> {
    (1..=9u8)
        .map(|d| {
            let ps: Vec<&[u8]> = (0..patches.len())
                .filter(|&k| labels[k] == d)
                .map(|k| patches[k])
                .collect();
            (!ps.is_empty()).then(|| mean_patch(&ps))
        })
        .collect()
}

/// The labels of the board's digit cells from the `--givens` the user typed, which must have a
/// digit exactly where the screen has one.
fn labels_from_givens(
    givens: &Board,
    inks: &[CellInk],
    digit_cells: &[(Cell, &crate::vision::DigitPatch)],
) -> Result<Vec<u8>> {
    let mut wrong = Vec::new();
    for cell in Cell::all() {
        let seen = inks[cell.index()].digit.is_some();
        if seen != givens.get(cell).is_some() {
            wrong.push(format!(
                "{cell} ({})",
                if seen {
                    "digit on screen, empty in --givens"
                } else {
                    "empty on screen, digit in --givens"
                }
            ));
        }
    }
    if !wrong.is_empty() {
        bail!("--givens does not match the screen at {}", wrong.join(", "));
    }
    let mut labels = vec![0u8; digit_cells.len()];
    for (k, (cell, _)) in digit_cells.iter().enumerate() {
        labels[k] = givens.get(*cell).unwrap_or(0);
    }
    Ok(labels)
}

/// The labels of the board's digit cells from the glyph bank, and the keypad when the bank
/// confirms its layout order (a second source that must agree).
fn labels_from_bank(
    patches: &[&[u8]],
    digit_cells: &[(Cell, &crate::vision::DigitPatch)],
    glyphs: &[Glyph],
) -> Result<(Vec<u8>, Option<[Glyph; 9]>)> {
    let cells: Vec<Cell> = digit_cells.iter().map(|(c, _)| *c).collect();
    // The glyph bank labels the board's shapes jointly; a keypad whose layout order the bank
    // confirms is a second source that must agree.
    let verified = order_keypad(glyphs);
    let references: Vec<Reference> = verified
        .iter()
        .map(|k| Reference {
            name: "the keypad",
            shapes: k.iter().map(|g| Some(g.patch.clone())).collect(),
        })
        .collect();
    let found = label(patches, &cells, &references);
    let unsure: Vec<String> = cells
        .iter()
        .zip(&found)
        .filter(|(_, l)| !l.sure)
        .map(|(c, l)| format!("{c} ({} or {})", l.digit, l.runner_up))
        .collect();
    if !unsure.is_empty() {
        bail!(
            "unsure which digit is in {}; pass --givens <81 chars> (the board's digits, row by row) to label them",
            unsure.join(", ")
        );
    }
    let mut labels = vec![0u8; digit_cells.len()];
    for (slot, l) in labels.iter_mut().zip(&found) {
        *slot = l.digit;
    }
    Ok((labels, verified))
}

/// Calibrates on a screenshot that the reader without calibration has read (`screen` is the grid
/// and cells it found, `read` its labelled board): the templates are cut from its labelled
/// digits, the keypad is found with them. The path `play` learns an app by, so that every app
/// `vision::read` reads without hints can be learned.
pub fn calibrate_read(
    img: &RgbaImage,
    screen: &ScreenCells,
    read: &crate::vision::Recognition,
    opts: &CalibrateOptions,
) -> Result<Calibrated> {
    let grid = screen.grid.clone();
    let refs: Vec<Option<Vec<u8>>> = (1..=9u8)
        .map(|d| {
            let ps: Vec<&[u8]> = Cell::all()
                .filter(|c| read.board.get(*c) == Some(d))
                .filter_map(|c| screen.cells[c.index()].digit.as_ref())
                .map(|p| p.pixels.as_slice())
                .collect();
            (!ps.is_empty()).then(|| mean_patch(&ps))
        })
        .collect();
    let keypad = find_keypad(&glyphs_outside(img, &grid), &refs, true);
    let labelled = Labelled {
        board: read.board,
        kinds: Some(kinds_of(read)),
        by: LabelSource::Reader,
    };
    finish(img, opts, grid, &screen.cells, labelled, keypad)
}

/// The rest of calibrating once the grid, its cells and their digits are known: templates
/// (keypad glyphs for digits not on the board), ink colours, the calibration, checked by reading
/// the cells back with the new templates.
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
    let digit_cells: Vec<(Cell, &crate::vision::DigitPatch)> = Cell::all()
        .zip(inks)
        .filter_map(|(c, ink)| ink.digit.as_ref().map(|p| (c, p)))
        .filter(|(c, _)| board.get(*c).is_some())
        .collect();
    let patches: Vec<&[u8]> = digit_cells
        .iter()
        .map(|(_, p)| p.pixels.as_slice())
        .collect();
    let labels: Vec<u8> = digit_cells
        .iter()
        .map(|(c, _)| board.get(*c).unwrap_or(0))
        .collect();
    // A player's mistake on the screen is reported, not refused: the templates are still good.
    let conflicts = rule_conflicts(&board);

    let (templates, from_keypad) = templates_for(&patches, &labels, keypad.as_ref())?;

    let ink_list: Vec<[u8; 3]> = digit_cells.iter().map(|(_, p)| p.ink).collect();
    let (given_ink, entry_ink) = match &kinds {
        Some(kinds) => {
            let of_kind = |kind| -> Vec<[u8; 3]> {
                digit_cells
                    .iter()
                    .filter(|(c, _)| kinds.get(c.index()) == Some(&kind))
                    .map(|(_, p)| p.ink)
                    .collect()
            };
            inks_by_kind(&of_kind(CellKind::Given), &of_kind(CellKind::Entry))
                .unwrap_or_else(|| ink_colours(&ink_list))
        }
        None => ink_colours(&ink_list),
    };
    let calibration = calibration_for(img, opts, &grid, keypad.as_ref(), given_ink, entry_ink);
    calibration.validate()?;

    // The templates must read their own screen back exactly.
    let check = read_back(img, inks, &grid, &calibration, &templates)?;
    if check != board {
        bail!(
            "the new templates read {} instead of {}; pass --givens to label the digits",
            check.to_line(),
            board.to_line()
        );
    }

    let keys: Option<[(Point, Rect); 9]> = keypad
        .as_ref()
        .map(|k| std::array::from_fn(|d| (k[d].centre(), k[d].bbox)));
    let overlay = overlay::draw_calibration(img, &grid, keys.as_ref(), opts.erase, opts.notes);
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

/// The board the new calibration reads on its own screen, through the one reader
/// ([`vision::read`], as every later read will). Where that reader refuses without naming a
/// doubtful cell (a player's mistake clashing with a given drawn alike, or a board too sparse
/// for a sudoku), the cells the templates were cut from, read as the templates see them: the
/// templates are still good.
fn read_back(
    img: &RgbaImage,
    inks: &[CellInk],
    grid: &Grid,
    calibration: &Calibration,
    templates: &Templates,
) -> Result<Board> {
    let refused = |e| anyhow!("the new templates do not read the calibration screen back: {e}");
    match vision::read(img, Some(&calibration.hints(templates))).result {
        Ok(rec) => Ok(rec.board),
        Err(e @ ReadError::Unsure(_)) => Err(refused(e)),
        Err(_) => read_inks(inks, grid.clone(), templates, &calibration.recognition)
            .map(|rec| rec.board)
            .map_err(refused),
    }
}

/// The templates: the mean patch of each digit on the board, the keypad's glyph for a digit
/// that is not (those digits are returned too), and the keypad's glyphs as alternates for the
/// rest. Refused when a digit has neither.
fn templates_for(
    patches: &[&[u8]],
    labels: &[u8],
    keypad: Option<&[Glyph; 9]>,
) -> Result<(Templates, Vec<u8>)> {
    let means = mean_patches(patches, labels);
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
        templates: format!("templates/{}", opts.profile),
        input_order: opts.input_order,
        screen: size,
        grid: grid.rect(),
        keypad: keypad.map(|k| Keypad {
            digits: std::array::from_fn(|d| k[d].centre()),
            erase: opts.erase,
            notes: opts.notes,
        }),
        recognition: Thresholds {
            min_score: MIN_SCORE,
            min_margin: MIN_MARGIN,
            given_ink,
            entry_ink,
            kind_distance: KIND_DISTANCE,
            big_digit: {
                let h = crate::vision::cells::big_digit_height(img, grid);
                (h < crate::vision::cells::BIG_MIN).then_some(h as f64)
            },
        },
        pacing: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_clearly_different_ink_colours_split_into_givens_and_entries() {
        let mut inks = vec![[20, 20, 20]; 6];
        inks.extend([[30, 90, 220]; 3]);
        assert_eq!(ink_colours(&inks), ([20, 20, 20], Some([30, 90, 220])));
        assert_eq!(ink_colours(&[[20, 20, 20], [25, 22, 20]]).1, None);
    }
}
