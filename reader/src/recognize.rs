//! Classifying the cleaned cells: each big digit is matched against the templates by normalised
//! cross-correlation and kept only when the best score and its margin over the runner-up clear
//! the calibrated thresholds; the ink colour tells givens from player entries. A board that is
//! unsure anywhere, or breaks a rule, is an error naming the cells: never a silently wrong board.
//! A located grid's cells are read either way: matched against a calibration's templates
//! ([`read_grid`], the fast path of `reader::read`), or labelled jointly from the glyph bank
//! (`read_screen`, digits labelled by `glyphs`). `reader::read` chooses between them.

use super::VisionError;
use super::bank::{Bank, bank};
use super::cells::{CellInk, InkFeatures, check_not_killer, cut_cells_with_features};
use super::glyphs::{Label, Reference, label_with, mean_patch};
use super::hints::{Hints, Thresholds};
use super::keypad;
use super::kinds::{
    DigitKind, InkSplit, StoredInks, calibrated_kinds, mistaken_entry, mistaken_pair,
};
use super::locate::Grid;
pub use super::locate::{grid_offset, grid_tolerance};
use super::scan::ScreenCells;
use super::screen::Screen;
pub use super::screen::colour_distance;
use super::templates::Templates;
use crate::board::{Board, Cell};
use crate::geometry::Rect;
use image::RgbaImage;
use serde::Serialize;

/// What a cell holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CellKind {
    Empty,
    Given,
    Entry,
}

/// The reading of one cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reading {
    pub cell: String,
    pub digit: Option<u8>,
    pub kind: CellKind,
    /// Correlation with the best template (0 for empty cells).
    pub score: f32,
    /// Lead of the best template over the runner-up.
    pub margin: f32,
    pub runner_up: Option<u8>,
    /// Small pencil marks seen in the cell.
    pub notes: bool,
}

/// A whole board as read from the screen.
#[derive(Debug, Clone, PartialEq)]
pub struct Recognition {
    pub board: Board,
    pub readings: Vec<Reading>,
    pub grid: Grid,
    /// Pairs of cells sharing a row, column or box that hold the same digit, with that digit,
    /// as [`rule_conflicts`] lists them. The board is shown as it is on the screen: after the
    /// rule check of [`super::read`], at least one cell of each pair is a player's
    /// [`CellKind::Entry`] (a mistake the app shows), never two givens.
    pub clashes: Vec<(Cell, Cell, u8)>,
}

impl Recognition {
    /// The givens only (player entries removed).
    pub fn givens(&self) -> Board {
        let mut b = self.board;
        for (cell, r) in Cell::all().zip(&self.readings) {
            if r.kind != CellKind::Given {
                b.set(cell, None);
            }
        }
        b
    }

    /// `cell` shows pencil notes and no digit.
    pub fn noted(&self, cell: Cell) -> bool {
        self.board.get(cell).is_none() && self.readings[cell.index()].notes
    }

    /// The cells that show pencil notes and no digit, in cell order.
    pub fn noted_cells(&self) -> Vec<Cell> {
        Cell::all().filter(|&c| self.noted(c)).collect()
    }
}

/// A cell the reader is not sure about.
#[derive(Debug, Clone, PartialEq)]
pub struct Doubt {
    pub cell: Cell,
    pub best: (u8, f32),
    pub second: (u8, f32),
}

/// Why a board could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReadError {
    #[error(transparent)]
    Vision(#[from] VisionError),
    #[error("{0}")]
    WrongScreen(String),
    #[error("the grid is {by:.0} px from where the calibration has it ({}x{} at {},{}): the app's layout or the screen changed, so its cells and keys are not where they would be tapped; re-learn it (`sudoku-agent profiles remove NAME`) or re-run `sudoku-agent calibrate`", .expected.width, .expected.height, .expected.x, .expected.y)]
    Moved { by: f32, expected: Rect },
    #[error("the board as read breaks the rules: {}; check the screen or re-run `sudoku-agent calibrate`", describe_conflicts(.0))]
    Conflict(Vec<(Cell, Cell, u8)>),
    /// Cells whose digit is not clear, each with its two best candidates and their scores.
    #[error("unsure which digit is in {}: {}; run `sudoku-agent calibrate` on this screen of the app (with --givens if it cannot label them)", plural(.0.len()), describe_doubts(.0))]
    Unsure(Vec<Doubt>),
}

fn plural(n: usize) -> String {
    if n == 1 {
        "1 cell".into()
    } else {
        format!("{n} cells")
    }
}

fn describe_doubts(d: &[Doubt]) -> String {
    d.iter()
        .map(|d| match (d.best.0, d.second.0) {
            // No digit at all: the shapes could not be told apart (more than nine of them).
            (0, _) => format!("{} (no digit fits)", d.cell),
            (_, 0) => format!(
                "{} ({} at {:.2}, nothing else fits)",
                d.cell, d.best.0, d.best.1
            ),
            _ => format!(
                "{} ({} or {} at {:.2} and {:.2})",
                d.cell, d.best.0, d.second.0, d.best.1, d.second.1
            ),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn describe_conflicts(c: &[(Cell, Cell, u8)]) -> String {
    c.iter()
        .map(|(a, b, d)| format!("{d} in {a} and {b}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Pairs of cells sharing a row, column or box that hold the same digit, with that digit.
pub fn rule_conflicts(board: &Board) -> Vec<(Cell, Cell, u8)> {
    board
        .conflicts()
        .into_iter()
        .filter_map(|(a, b)| Some((a, b, board.get(a)?)))
        .collect()
}

/// The fewest givens a sudoku with one solution can have (McGuire et al., 2012): a read with
/// fewer digits missed some.
pub const MIN_CLUES: usize = 17;

/// `rec` with each digit's kind (given or entry) told as the calibrated reader tells it
/// ([`calibrated_kinds`]): the inks measured on this app where the screen still draws them (one
/// screen's own inks can leave the two apart, as on shaded cells), the screen's own split where
/// the theme changed, and a digit a same-number highlight recoloured counted as a given.
/// The kinds changed, the clashes are checked again ([`settle_clashes`]).
pub(super) fn with_calibrated_kinds(
    mut rec: Recognition,
    screen: &ScreenCells,
    th: &Thresholds,
) -> Result<Recognition, ReadError> {
    let split = Some(&screen.split);
    set_calibrated_kinds(
        &mut rec.readings,
        &screen.cells,
        &screen.features,
        th,
        split,
    );
    settle_clashes(&mut rec, &screen.features)?;
    Ok(rec)
}

/// The rule check of a read: givens never break the rules, so of two clashing digits that
/// both read as givens one is a player's mistake where the drawing says which
/// ([`mistaken_entry`]), and it becomes an entry (both, when two drawn alike are, see
/// [`mistaken_pair`]). Sets `rec.clashes` to every clash; a clash
/// left between two givens is [`ReadError::Conflict`] (a misread, or a screen whose entries
/// cannot be told from its givens).
fn settle_clashes(
    rec: &mut Recognition,
    features: &[Option<InkFeatures>],
) -> Result<(), ReadError> {
    let clashes = rule_conflicts(&rec.board);
    let digits: Vec<Option<u8>> = rec.readings.iter().map(|r| r.digit).collect();
    let given = |readings: &[Reading], c: Cell| readings[c.index()].kind == CellKind::Given;
    for &(a, b, _) in &clashes {
        if !(given(&rec.readings, a) && given(&rec.readings, b)) {
            continue;
        }
        if let Some(i) = mistaken_entry(a.index(), b.index(), &digits, features) {
            rec.readings[i].kind = CellKind::Entry;
        } else if mistaken_pair(a.index(), b.index(), &digits, features) {
            rec.readings[a.index()].kind = CellKind::Entry;
            rec.readings[b.index()].kind = CellKind::Entry;
        }
    }
    let between_givens: Vec<_> = clashes
        .iter()
        .copied()
        .filter(|&(a, b, _)| given(&rec.readings, a) && given(&rec.readings, b))
        .collect();
    if !between_givens.is_empty() {
        return Err(ReadError::Conflict(between_givens));
    }
    rec.clashes = clashes;
    Ok(())
}

/// Sets each reading's kind. Where this screen tells a digit's kind by itself (`split`, the
/// reader's rule without calibration: inks, discs, tints, the empty cells' paper), that kind
/// stands, and a digit whose kind it sees hidden by a highlight counts as a given, as without
/// calibration. The stored inks ([`calibrated_kinds`] on the cells' ink features) decide where
/// the screen's digits cannot be told apart, or no split was made. A calibration stores two
/// inks, so it cannot see entries drawn in the givens' ink on another paper, nor a given drawn
/// in the selection's colours.
fn set_calibrated_kinds(
    readings: &mut [Reading],
    cells: &[CellInk],
    features: &[Option<InkFeatures>],
    th: &Thresholds,
    split: Option<&InkSplit>,
) {
    let digits: Vec<Option<u8>> = readings.iter().map(|r| r.digit).collect();
    let stored = StoredInks {
        given: th.given_ink,
        entry: th.entry_ink,
        distance: th.kind_distance,
    };
    let kinds = calibrated_kinds(&digits, cells, features, stored);
    for (i, (r, kind)) in readings.iter_mut().zip(kinds).enumerate() {
        let kind = split.and_then(|s| s.kind(i)).or(kind);
        r.kind = match (r.digit, kind) {
            (None, _) => CellKind::Empty,
            (Some(_), Some(DigitKind::Entry)) => CellKind::Entry,
            (Some(_), Some(_)) => CellKind::Given,
            // A digit the cut gave no features (not expected): its colour alone decides.
            (Some(_), None) => r.kind,
        };
    }
}

/// Reads the cells of an already located grid, with the rule check ([`settle_clashes`]): a
/// player's clashing entries are returned in `clashes`, clashing givens refused.
pub fn read_grid(
    img: &RgbaImage,
    grid: Grid,
    templates: &Templates,
    th: &Thresholds,
) -> Result<Recognition, ReadError> {
    read_cells(
        &calibrated_cells(&Screen::new(img), grid, th),
        templates,
        th,
    )
}

/// The cells of a located grid cut the calibrated way (at the calibration's digit size).
pub(super) fn calibrated_cells(img: &Screen, grid: Grid, th: &Thresholds) -> ScreenCells {
    let (cells, features) = cut_cells_with_features(img, &grid, th.big_digit.map(|h| h as f32));
    ScreenCells::new(img, grid, cells, features)
}

/// The calibrated cells of a located grid matched against `templates`, with the rule check.
pub(super) fn read_cells(
    screen: &ScreenCells,
    templates: &Templates,
    th: &Thresholds,
) -> Result<Recognition, ReadError> {
    let features = &screen.features;
    let split = Some(&screen.split);
    let cut = (&screen.cells[..], &features[..], split);
    let mut rec = read_inks_with(cut, screen.grid.clone(), templates, th)?;
    settle_clashes(&mut rec, features)?;
    Ok(rec)
}

/// The cells already cut read without the rule check, with each digit's ink features, by which the screen's givens and entries are
/// told apart ([`calibrated_kinds`]): the stored colours where this screen still draws them,
/// the screen's own split where the theme changed; a digit whose kind a same-number highlight
/// hides counts as a given, as the glyph-bank reader counts it; the screen's own split first,
/// where one was made.
fn read_inks_with(
    (inks, features, split): (&[CellInk], &[Option<InkFeatures>], Option<&InkSplit>),
    grid: Grid,
    templates: &Templates,
    th: &Thresholds,
) -> Result<Recognition, ReadError> {
    check_not_killer(inks)?;
    let mut board = Board::empty();
    let mut readings = Vec::with_capacity(81);
    let mut doubts = Vec::new();
    for (cell, ink) in Cell::all().zip(inks) {
        let reading = classify(ink, templates, th);
        if let Some(p) = &ink.digit
            && (reading.score < th.min_score as f32 || reading.margin < th.min_margin as f32)
        {
            let [best, second] = templates.best_two(&p.pixels);
            doubts.push(Doubt { cell, best, second });
        }
        board.set(cell, reading.digit);
        readings.push(Reading {
            cell: cell.to_string(),
            ..reading
        });
    }
    if !doubts.is_empty() {
        return Err(ReadError::Unsure(doubts));
    }
    set_calibrated_kinds(&mut readings, inks, features, th, split);
    Ok(Recognition {
        clashes: rule_conflicts(&board),
        board,
        readings,
        grid,
    })
}

/// Labels the digits of a located grid's cells from the glyph bank (the full search's read):
/// groups the big digits by shape and labels the groups jointly, checked against the
/// calibration's templates, the user's `--givens` or the keypad, whichever is given or found.
pub(super) fn read_screen(
    img: &Screen,
    screen: &ScreenCells,
    hints: Hints,
) -> Result<Recognition, ReadError> {
    let (grid, inks) = (screen.grid.clone(), &screen.cells);
    let (digit_cells, patches) = screen.digit_patches();
    // No sudoku has a unique answer with fewer than 17 clues: fewer digits means the digits were
    // not seen (too small, too faint), and an empty board would be a wrong board.
    if digit_cells.len() < 17 {
        return Err(ReadError::WrongScreen(format!(
            "only {} digits seen on the board, too few for a sudoku; the digits may be too small or faint to read without calibration",
            digit_cells.len()
        )));
    }
    let bank: &Bank = hints.bank.unwrap_or_else(|| bank());
    // The board's digits' median height: keys are looked for down to about that size.
    let mut heights: Vec<u32> = digit_cells
        .iter()
        .filter_map(|c| inks[c.index()].digit.as_ref().map(|p| p.bbox.height))
        .collect();
    heights.sort_unstable();
    let digit_px = heights[heights.len() / 2] as f32;
    let references = references(img, &grid, hints, bank, &digit_cells, (&patches, digit_px));
    let labels = label_with(bank, &patches, &digit_cells, &references);
    let board = sure_board(&digit_cells, &labels, hints.givens)?;
    let readings = screen_readings(screen, &board, &digit_cells, &labels);
    let mut rec = Recognition {
        board,
        readings,
        grid,
        clashes: Vec::new(),
    };
    settle_clashes(&mut rec, &screen.features)?;
    Ok(rec)
}

/// The shapes the screen's digit groups are labelled against besides the glyph bank: the
/// calibration's templates, the user's `--givens` (the mean patch of each digit they name),
/// and the keypad (when no templates are given and one is found in a verified order).
fn references(
    img: &Screen,
    grid: &Grid,
    hints: Hints,
    bank: &Bank,
    digit_cells: &[Cell],
    (patches, digit_px): (&[&[u8]], f32),
) -> Vec<Reference<'static>> {
    let mut references = Vec::new();
    if let Some(t) = hints.templates {
        references.push(Reference {
            name: "the calibration's templates",
            shapes: (1..=9).map(|d| t.get(d).map(<[u8]>::to_vec)).collect(),
        });
    }
    if let Some(g) = hints.givens {
        references.push(Reference {
            name: "--givens",
            shapes: (1..=9u8)
                .map(|d| {
                    let ps: Vec<&[u8]> = digit_cells
                        .iter()
                        .zip(patches)
                        .filter(|(c, _)| g.get(**c) == Some(d))
                        .map(|(_, p)| *p)
                        .collect();
                    (!ps.is_empty()).then(|| mean_patch(&ps))
                })
                .collect(),
        });
    }
    let keys = if hints.templates.is_none() {
        keypad::verified_keypad_on(img, grid, bank, digit_px)
    } else {
        None
    };
    if let Some(keys) = keys {
        references.push(Reference {
            name: "the keypad",
            shapes: keys.into_iter().map(Some).collect(),
        });
    }
    references
}

/// The board of the labels (the user's `--givens` overriding them), or [`ReadError::Unsure`]
/// naming each cell whose label is not sure.
fn sure_board(
    digit_cells: &[Cell],
    labels: &[Label],
    givens: Option<&Board>,
) -> Result<Board, ReadError> {
    let mut board = Board::empty();
    let mut doubts = Vec::new();
    for (cell, l) in digit_cells.iter().zip(labels) {
        match givens.and_then(|g| g.get(*cell)) {
            Some(d) => board.set(*cell, Some(d)),
            None if l.sure => board.set(*cell, Some(l.digit)),
            None => doubts.push(Doubt {
                cell: *cell,
                best: (l.digit, l.score),
                second: (l.runner_up, l.score - l.margin),
            }),
        }
    }
    if doubts.is_empty() {
        Ok(board)
    } else {
        Err(ReadError::Unsure(doubts))
    }
}

/// The 81 readings of a labelled screen. Entries only where this screen's inks tell them
/// apart; a digit whose kind is hidden (a same-number highlight) or a screen drawing both
/// alike counts as a given.
fn screen_readings(
    screen: &ScreenCells,
    board: &Board,
    digit_cells: &[Cell],
    labels: &[Label],
) -> Vec<Reading> {
    let mut readings: Vec<Reading> = Cell::all()
        .map(|cell| Reading {
            cell: cell.to_string(),
            digit: None,
            kind: CellKind::Empty,
            score: 0.0,
            margin: 0.0,
            runner_up: None,
            notes: screen.cells[cell.index()].notes,
        })
        .collect();
    for (cell, l) in digit_cells.iter().zip(labels) {
        let r = &mut readings[cell.index()];
        r.digit = board.get(*cell);
        r.kind = match screen.split.kind(cell.index()) {
            Some(DigitKind::Entry) => CellKind::Entry,
            _ => CellKind::Given,
        };
        r.score = l.score;
        r.margin = l.margin;
        r.runner_up = Some(l.runner_up).filter(|&d| d != 0);
    }
    readings
}

fn classify(ink: &CellInk, templates: &Templates, th: &Thresholds) -> Reading {
    let Some(p) = &ink.digit else {
        return Reading {
            cell: String::new(),
            digit: None,
            kind: CellKind::Empty,
            score: 0.0,
            margin: 0.0,
            runner_up: None,
            notes: ink.notes,
        };
    };
    let [best, second] = templates.best_two(&p.pixels);
    let kind = ink_kind(p.ink, th);
    Reading {
        cell: String::new(),
        digit: Some(best.0),
        kind,
        score: best.1,
        margin: best.1 - second.1.max(0.0),
        runner_up: (second.0 != 0).then_some(second.0),
        notes: ink.notes,
    }
}

fn ink_kind(ink: [u8; 3], th: &Thresholds) -> CellKind {
    let to_given = colour_distance(ink, th.given_ink);
    match th.entry_ink {
        Some(e) if colour_distance(ink, e) < to_given => CellKind::Entry,
        _ if to_given > th.kind_distance => CellKind::Entry,
        _ => CellKind::Given,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_conflicts_name_both_cells_of_each_clash() {
        let mut b = Board::empty();
        let c = |r, k| Cell::new(r, k).unwrap();
        b.set(c(0, 0), Some(5));
        b.set(c(0, 8), Some(5));
        b.set(c(2, 2), Some(5));
        b.set(c(4, 4), Some(7));
        let clashes = rule_conflicts(&b);
        assert_eq!(clashes, vec![(c(0, 0), c(0, 8), 5), (c(0, 0), c(2, 2), 5)]);
        let text = ReadError::Conflict(clashes).to_string();
        assert!(
            text.contains("5 in r1c1 and r1c9, 5 in r1c1 and r3c3"),
            "{text}"
        );
    }

    #[test]
    fn ink_colour_tells_givens_from_entries() {
        let th = Thresholds {
            min_score: 0.7,
            min_margin: 0.05,
            given_ink: [30, 30, 30],
            entry_ink: None,
            kind_distance: 60.0,
            big_digit: None,
        };
        assert_eq!(ink_kind([40, 35, 30], &th), CellKind::Given);
        assert_eq!(ink_kind([20, 90, 200], &th), CellKind::Entry);
        let with_entry = Thresholds {
            entry_ink: Some([60, 60, 60]),
            ..th
        };
        assert_eq!(ink_kind([55, 55, 55], &with_entry), CellKind::Entry);
    }

    /// A read of `board`, every digit a given, each drawn in black on `tint(cell index)`.
    fn read_of(
        board: &Board,
        tint: impl Fn(usize) -> [u8; 3],
    ) -> (Recognition, Vec<Option<InkFeatures>>) {
        let readings = Cell::all()
            .map(|c| Reading {
                cell: c.to_string(),
                digit: board.get(c),
                kind: board.get(c).map_or(CellKind::Empty, |_| CellKind::Given),
                score: 1.0,
                margin: 1.0,
                runner_up: None,
                notes: false,
            })
            .collect();
        let features = Cell::all()
            .map(|c| {
                board.get(c).map(|_| InkFeatures {
                    ink: [0; 3],
                    background: tint(c.index()),
                    weight: 0.2,
                    height: 0.5,
                    stroke: 0.12,
                    disc: None,
                    resolution: 40.0,
                })
            })
            .collect();
        let rec = Recognition {
            board: *board,
            readings,
            grid: Grid::from_rect(Rect::new(0, 0, 900, 900)),
            clashes: Vec::new(),
        };
        (rec, features)
    }

    #[test]
    fn noted_cells_are_the_empty_cells_that_show_pencil_notes() {
        let mut board = Board::empty();
        let c = |r, k| Cell::new(r, k).unwrap();
        board.set(c(0, 0), Some(5));
        let (mut rec, _) = read_of(&board, |_| [250; 3]);
        // Notes flagged on a digit's cell (a stray mark beside it) do not count.
        rec.readings[0].notes = true;
        rec.readings[c(4, 7).index()].notes = true;
        assert!(rec.noted(c(4, 7)));
        assert!(!rec.noted(c(0, 0)));
        assert!(!rec.noted(c(0, 1)));
        assert_eq!(rec.noted_cells(), vec![c(4, 7)]);
    }

    #[test]
    fn a_players_clashing_entry_is_returned_with_the_clash_and_clashing_givens_are_refused() {
        let solved = Board::parse(
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        )
        .unwrap();
        let c = |r, k| Cell::new(r, k).unwrap();
        // The player typed 5 in r1c3 (the solution's 4): it clashes with the 5 in r1c1.
        let mut board = solved;
        board.set(c(0, 2), Some(5));
        // Entries on white cells (r1c3 and the last row), givens on grey ones.
        let entry_tint = |i: usize| {
            if i == 2 || i >= 72 {
                [250; 3]
            } else {
                [200; 3]
            }
        };
        let (mut rec, features) = read_of(&board, entry_tint);
        settle_clashes(&mut rec, &features).unwrap();
        assert_eq!(rec.readings[2].kind, CellKind::Entry);
        assert_eq!(rec.readings[0].kind, CellKind::Given);
        let clashed: Vec<(Cell, Cell, u8)> = rec.clashes.clone();
        assert!(clashed.contains(&(c(0, 0), c(0, 2), 5)), "{clashed:?}");
        assert!(
            clashed
                .iter()
                .all(|&(a, b, _)| a == c(0, 2) || b == c(0, 2))
        );
        // The same clash with every digit drawn alike: two givens clash, which never happens.
        let (mut rec, features) = read_of(&board, |_| [200; 3]);
        let err = settle_clashes(&mut rec, &features).unwrap_err();
        assert!(matches!(err, ReadError::Conflict(ref p) if p.contains(&(c(0, 0), c(0, 2), 5))));
    }

    #[test]
    fn a_doubt_where_no_digit_fits_says_so_instead_of_naming_digit_zero() {
        let cell = Cell::new(0, 1).unwrap();
        let doubt = |best, second| Doubt { cell, best, second };
        let text = describe_doubts(&[
            doubt((0, 0.0), (0, 0.0)),
            doubt((7, 0.6), (0, 0.0)),
            doubt((8, 0.5), (2, 0.45)),
        ]);
        assert_eq!(
            text,
            "r1c2 (no digit fits), r1c2 (7 at 0.60, nothing else fits), r1c2 (8 or 2 at 0.50 and 0.45)"
        );
    }
}
