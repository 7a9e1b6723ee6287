//! The simulated-phone sweep shared by `tests/vision/sim.rs` and `benches/vision.rs`: for one
//! skin and screen size, calibrate once on a fresh puzzle (keypad labels, no help), then read
//! random puzzles in busy states (player entries, pencil notes, a selected cell with its
//! highlights) and compare every cell (digit, given or entry) with what the phone was told to
//! show, read with the calibration and again with none (`read_any`). The vision code only ever
//! sees rendered pixels.

use std::time::{Duration, Instant};
use sudoku_agent::calibrate::{CalibrateOptions, LabelSource, calibrate_image};
use sudoku_agent::geometry::Size;
use sudoku_agent::sudoku::{Board, Cell, Outcome, puzzle_lines, solve};
use sudoku_reader::{CellKind, Recognition};
use sudoku_sim::{Hit, Key, Screen, Skin, SudokuApp};

/// xorshift64*: small, seeded, good enough to pick puzzles and cells.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `n` random puzzles with their solutions: typical ones (kaggle) and sparse ones (17 givens,
/// so that some digits are missing from the board) alternately, from the repository's puzzle
/// sets (`tests/data/puzzles`).
pub fn random_puzzles(n: usize, seed: u64) -> Vec<(Board, Board)> {
    let mut rng = Rng::new(seed);
    let pools: Vec<Vec<Board>> = ["kaggle_10k.txt", "17_clue_first_5000.txt"]
        .iter()
        .map(|name| {
            let path = super::shared::puzzles().join(name);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            puzzle_lines(&text)
                .take(5000)
                .filter_map(|l| l.board.ok())
                .collect()
        })
        .collect();
    let mut out = Vec::new();
    while out.len() < n {
        let pool = &pools[out.len() % pools.len()];
        let puzzle = pool[rng.below(pool.len())];
        if let Outcome::Solved { board, .. } = solve(&puzzle) {
            out.push((puzzle, board));
        }
    }
    out
}

/// What one skin and size gave.
pub struct Sweep {
    pub cells_read: usize,
    pub boards_read: usize,
    pub wrong: Vec<String>,
    pub calibrate: Duration,
    pub reads: Vec<Duration>,
    /// Boards read exactly (digits and kinds) with no calibration, and what went wrong there.
    pub free_boards: usize,
    pub free_wrong: Vec<String>,
    pub min_score: f32,
    pub min_margin: f32,
    /// Digits whose given/entry kind the screen hid (a recolouring same-number highlight).
    pub kind_hidden: usize,
    /// Boards showing at least as many entries as givens.
    pub entries_lead: usize,
    /// Of `wrong` and `free_wrong`, the boards the reader refused (an error, never a board).
    pub refused: usize,
    pub free_refused: usize,
}

/// Calibrates `skin` at `size` on the first puzzle, then reads every puzzle (the first one too)
/// in a random busy state.
pub fn sweep(skin: &str, size: Size, puzzles: &[(Board, Board)], seed: u64) -> Sweep {
    let mut rng = Rng::new(seed);
    let skin = Skin::named(skin).expect("a simulator skin");
    let mut result = Sweep {
        cells_read: 0,
        boards_read: 0,
        wrong: Vec::new(),
        calibrate: Duration::ZERO,
        reads: Vec::new(),
        free_boards: 0,
        free_wrong: Vec::new(),
        min_score: 1.0,
        min_margin: 1.0,
        kind_hidden: 0,
        entries_lead: 0,
        refused: 0,
        free_refused: 0,
    };
    let mut phone = SudokuApp::new(puzzles[0].0.into(), skin.clone(), size.into()).unwrap();
    let fresh = phone.render();
    let t = Instant::now();
    let done = match calibrate_image(
        &fresh,
        &CalibrateOptions {
            profile: "sweep".into(),
            ..Default::default()
        },
    ) {
        Ok(d) => d,
        Err(e) => {
            result.refused += 1;
            result.wrong.push(format!("calibrate: {e:#}"));
            return result;
        }
    };
    result.calibrate = t.elapsed();
    if done.labelled_by != LabelSource::Reader {
        result
            .wrong
            .push("calibrate did not label with the reader alone".into());
    }
    // The keypad centres found from pixels must land on the phone's digit buttons, in order.
    match &done.calibration.keypad {
        Some(k) => {
            for &point in &k.digits {
                phone.tap(point.into());
            }
            let want: Vec<Hit> = (1..=9).map(|d| Hit::Key(Key::Digit(d))).collect();
            if phone.hits() != &want[..] {
                result
                    .wrong
                    .push(format!("keypad taps hit {:?}", phone.hits()));
            }
        }
        None => result.wrong.push("calibrate found no keypad".into()),
    }
    for (k, (puzzle, solution)) in puzzles.iter().enumerate() {
        let mut phone = SudokuApp::new((*puzzle).into(), skin.clone(), size.into()).unwrap();
        let mut expected = *puzzle;
        let mut noted = Vec::new();
        for cell in Cell::all().filter(|&c| puzzle.get(c).is_none()) {
            match rng.below(10) {
                0..=2 => {
                    phone.set_entry(cell.into(), solution.get(cell));
                    expected.set(cell, solution.get(cell));
                }
                3..=5 => {
                    let mask = (rng.next() as u16 & 0x1ff).max(1) << 1;
                    phone.set_notes(cell.into(), mask);
                    noted.push(cell);
                }
                _ => {}
            }
        }
        phone.select(Cell::from_index(rng.below(81)).map(Into::into));
        let shot = phone.render();
        // What each cell must read as: its digit, and its kind where the screen shows it (a
        // same-number highlight that draws givens and entries in one ink hides it; such cells
        // must still read their digit, as either kind).
        let hidden: Vec<bool> = Cell::all().map(|c| phone.kind_hidden(c.into())).collect();
        result.kind_hidden += hidden.iter().filter(|&&h| h).count();
        // Kinds are judged on every board, also where the entries outnumber the givens (a
        // reader taking the largest style for the givens swaps them there).
        if 2 * puzzle.filled_count() <= expected.filled_count() {
            result.entries_lead += 1;
        }
        let misread = |rec: &Recognition, cell: Cell, calibrated: bool| -> Option<String> {
            let r = &rec.readings[cell.index()];
            let kind = match (puzzle.get(cell), expected.get(cell)) {
                (Some(_), _) => CellKind::Given,
                (None, Some(_)) => CellKind::Entry,
                _ => CellKind::Empty,
            };
            let kind_ok = r.kind == kind || (hidden[cell.index()] && r.kind != CellKind::Empty);
            // Only cells without a digit report notes; a noted cell must say so, a plain one
            // must not (judged on the calibrated read).
            let notes_ok = !calibrated || r.digit.is_some() || r.notes == noted.contains(&cell);
            (r.digit != expected.get(cell) || !kind_ok || !notes_ok).then(|| {
                format!(
                    "{cell}: read {:?} {:?} notes {} expected {:?} {kind:?}{} notes {}",
                    r.digit,
                    r.kind,
                    r.notes,
                    expected.get(cell),
                    if hidden[cell.index()] {
                        " (kind hidden)"
                    } else {
                        ""
                    },
                    noted.contains(&cell)
                )
            })
        };
        match sudoku_reader::read(&shot, None).result {
            Ok(r) => {
                let bad: Vec<String> = Cell::all().filter_map(|c| misread(&r, c, false)).collect();
                if bad.is_empty() {
                    result.free_boards += 1;
                } else {
                    result.free_wrong.push(format!(
                        "puzzle {k} without calibration: {}",
                        bad.join("; ")
                    ));
                }
            }
            Err(e) => {
                result.free_refused += 1;
                result
                    .free_wrong
                    .push(format!("puzzle {k} without calibration: {e}"))
            }
        }
        let t = Instant::now();
        let read = done.profile().read(&shot).result;
        result.reads.push(t.elapsed());
        let rec = match read {
            Ok(r) => r,
            Err(e) => {
                result.refused += 1;
                result.wrong.push(format!("puzzle {k}: {e}"));
                continue;
            }
        };
        result.boards_read += 1;
        for cell in Cell::all() {
            let r = &rec.readings[cell.index()];
            match misread(&rec, cell, true) {
                Some(w) => result.wrong.push(format!("puzzle {k} {w}")),
                None => result.cells_read += 1,
            }
            if r.digit.is_some() {
                result.min_score = result.min_score.min(r.score);
                result.min_margin = result.min_margin.min(r.margin);
            }
        }
    }
    result
}
