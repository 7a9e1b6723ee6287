//! Puzzles the simulated phone ships with, and the small backtracker the app uses to judge
//! digits (real apps know their answer). The project's observable solver lives in `sudoku`; this
//! one only has to be correct and quick, so the simulator does not depend on it. Also: moving a
//! puzzle so one digit's givens stand in two corners, and the shape and givens of a samurai
//! puzzle (five overlapping grids) for the screen the agent must refuse.

use crate::board::{Board, Cell};

/// Built-in puzzles as (name, 81 chars with `0` for empty), easiest first.
pub fn builtin() -> &'static [(&'static str, &'static str)] {
    BUILTIN
}

/// The built-in puzzle called `name`.
pub fn named(name: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, p)| *p)
}

const BUILTIN: &[(&str, &str)] = &[
    // Kaggle 1M set, rows 1 and 2.
    (
        "easy",
        "004300209005009001070060043006002087190007400050083000600000105003508690042910300",
    ),
    (
        "easy2",
        "040100050107003960520008000000000017000906800803050620090060543600080700250097100",
    ),
    // The Fassor Sudoku screenshot in /work/shared/real-screens (dan4am_fassor_test_image.png).
    (
        "medium",
        "900400000008029400007800003170500040000098007850007600603901000000000009400200080",
    ),
    // Sudoku.com "Hard" (infinitechaos_sudokucom_ss1.jpg).
    (
        "hard",
        "007000302200005010000801400010096008760000049000000000000103000801060000000700063",
    ),
    // Level 52 of the app in labuladong's Auto.js demo: it has more than one solution.
    (
        "l52",
        "000009000629300840005000090953000000000604000000900732040006070390020104200400080",
    ),
    // AI Escargot (Inkala 2006): many thousand backtracking steps.
    (
        "escargot",
        "100007090030020008009600500005300900010080002600004000300000010040000007007000300",
    ),
];

/// Parses an 81-character puzzle: digits 1-9, and `0` or `.` for empty cells; whitespace is
/// ignored. `None` on any other character or length.
pub fn parse(text: &str) -> Option<Board> {
    let mut cells = [0u8; 81];
    let mut n = 0;
    for ch in text.chars().filter(|c| !c.is_whitespace()) {
        let d = match ch {
            '.' | '0' => 0,
            '1'..='9' => ch as u8 - b'0',
            _ => return None,
        };
        *cells.get_mut(n)? = d;
        n += 1;
    }
    (n == 81).then(|| Board::from_cells(cells)).flatten()
}

/// The same puzzle moved so that one digit's givens stand in both far corners (r1c1 and r9c9):
/// rows and columns are reordered (bands and stacks among themselves, rows inside a band and
/// columns inside a stack), moves that keep every rule and the solution's uniqueness. `None`
/// when no digit has two givens in different bands and stacks.
pub fn with_corners_alike(puzzle: &Board) -> Option<Board> {
    let givens: Vec<(Cell, u8)> = Cell::all()
        .filter_map(|c| puzzle.get(c).map(|d| (c, d)))
        .collect();
    let (a, b) = givens.iter().find_map(|&(a, d)| {
        givens
            .iter()
            .find(|&&(b, e)| e == d && a.row() / 3 != b.row() / 3 && a.col() / 3 != b.col() / 3)
            .map(|&(b, _)| (a, b))
    })?;
    let rows = first_and_last(a.row(), b.row());
    let cols = first_and_last(a.col(), b.col());
    let mut out = Board::empty();
    for cell in Cell::all() {
        let from = Cell::new(rows[cell.row()], cols[cell.col()])?;
        out.set(cell, puzzle.get(from));
    }
    Some(out)
}

/// An order of the nine lines (rows or columns) that keeps bands whole and puts line `first`
/// first and line `last` (in another band) last: `order[new] = old`.
fn first_and_last(first: usize, last: usize) -> [usize; 9] {
    let (fb, lb) = (first / 3, last / 3);
    let middle = 3 - fb - lb;
    let band = |b: usize, lead: Option<usize>, tail: Option<usize>| {
        let mut lines: Vec<usize> = (3 * b..3 * b + 3)
            .filter(|&l| Some(l) != lead && Some(l) != tail)
            .collect();
        if let Some(l) = lead {
            lines.insert(0, l);
        }
        if let Some(l) = tail {
            lines.push(l);
        }
        lines
    };
    let order: Vec<usize> = [
        band(fb, Some(first), None),
        band(middle, None, None),
        band(lb, None, Some(last)),
    ]
    .concat();
    order.try_into().expect("three bands of three lines")
}

// A samurai puzzle: five 9x9 grids overlapping at their corner boxes.

/// Cells across (and down) a samurai puzzle.
pub const SPAN: usize = 21;

/// Top-left cells (row, column) of the five 9x9 grids: four corners and the centre.
pub const GRIDS: [(usize, usize); 5] = [(0, 0), (0, 12), (12, 0), (12, 12), (6, 6)];

/// Whether cell (row, col) of the 21x21 square belongs to one of the five grids.
pub fn in_a_grid(row: usize, col: usize) -> bool {
    GRIDS
        .iter()
        .any(|&(r, c)| (r..r + 9).contains(&row) && (c..c + 9).contains(&col))
}

/// A valid samurai solution thinned to about a third of its cells, symmetric about the centre.
/// The solution is one pattern over the whole square, `(3 (r mod 3) + r div 3 + c) mod 9`,
/// which is a sudoku in any 9x9 window starting on a box boundary (the five grids start on
/// rows and columns 0, 6 and 12), with its digits relabelled by the seed.
pub(crate) fn samurai_givens(seed: u64) -> [[u8; SPAN]; SPAN] {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut labels: Vec<u8> = (1..=9).collect();
    for i in (1..9).rev() {
        labels.swap(i, (next() % (i as u64 + 1)) as usize);
    }
    let mut givens = [[0u8; SPAN]; SPAN];
    for r in 0..SPAN {
        for c in 0..SPAN {
            let (mr, mc) = (SPAN - 1 - r, SPAN - 1 - c);
            if (r, c) > (mr, mc) || !in_a_grid(r, c) || next() % 100 >= 36 {
                continue;
            }
            for (r, c) in [(r, c), (mr, mc)] {
                givens[r][c] = labels[(3 * (r % 3) + r / 3 + c) % 9];
            }
        }
    }
    givens
}

/// What the app knows about its puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Answer {
    /// Exactly one solution: digits are judged against it.
    Unique(Board),
    /// Several solutions (like L52): digits are judged by the rules only.
    Several,
}

/// Why a board cannot be a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(super) enum PuzzleError {
    #[error("two equal digits share a row, column or box at {0}")]
    Conflict(Cell),
    #[error("the puzzle has no solution")]
    NoSolution,
}

/// Finds whether `board` has zero, one or several solutions.
pub(super) fn analyse(board: &Board) -> Result<Answer, PuzzleError> {
    if let Some(cell) = first_conflict(board) {
        return Err(PuzzleError::Conflict(cell));
    }
    let mut search = Search::new(board);
    let mut first = None;
    let found = search.run(&mut first, 2);
    match (found, first) {
        (0, _) | (_, None) => Err(PuzzleError::NoSolution),
        (1, Some(solution)) => Ok(Answer::Unique(solution)),
        _ => Ok(Answer::Several),
    }
}

/// The 20 cells sharing a row, column or box with `cell`.
pub(super) fn peers(cell: Cell) -> impl Iterator<Item = Cell> {
    Cell::all().filter(move |&o| {
        o != cell
            && (o.row() == cell.row() || o.col() == cell.col() || o.box_index() == cell.box_index())
    })
}

/// The first cell whose digit repeats in its row, column or box.
pub(super) fn first_conflict(board: &Board) -> Option<Cell> {
    Cell::all().find(|&c| {
        board
            .get(c)
            .is_some_and(|d| peers(c).any(|p| board.get(p) == Some(d)))
    })
}

/// Bitmask backtracker with fewest-candidates-first, counting solutions up to a limit.
struct Search {
    cells: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
}

impl Search {
    fn new(board: &Board) -> Search {
        let mut s = Search {
            cells: *board.cells(),
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
        };
        for i in 0..81 {
            if s.cells[i] != 0 {
                s.flip(i, s.cells[i]);
            }
        }
        s
    }

    fn flip(&mut self, i: usize, d: u8) {
        let bit = 1 << d;
        self.rows[i / 9] ^= bit;
        self.cols[i % 9] ^= bit;
        self.boxes[i / 27 * 3 + i % 9 / 3] ^= bit;
    }

    fn candidates(&self, i: usize) -> u16 {
        !(self.rows[i / 9] | self.cols[i % 9] | self.boxes[i / 27 * 3 + i % 9 / 3]) & 0b11_1111_1110
    }

    /// Counts solutions up to `limit`, keeping the first in `first`.
    fn run(&mut self, first: &mut Option<Board>, limit: usize) -> usize {
        let best = (0..81)
            .filter(|&i| self.cells[i] == 0)
            .min_by_key(|&i| self.candidates(i).count_ones());
        let Some(i) = best else {
            first.get_or_insert_with(|| Board::from_cells(self.cells).expect("digits stay 1..=9"));
            return 1;
        };
        let mut found = 0;
        let mut cands = self.candidates(i);
        while cands != 0 && found < limit {
            let d = cands.trailing_zeros() as u8;
            cands &= cands - 1;
            self.cells[i] = d;
            self.flip(i, d);
            found += self.run(first, limit - found);
            self.flip(i, d);
            self.cells[i] = 0;
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moving_a_puzzle_to_alike_corners_keeps_its_digits_and_its_one_solution() {
        for (name, text) in builtin() {
            let puzzle = parse(text).unwrap();
            let moved = with_corners_alike(&puzzle).unwrap_or_else(|| panic!("{name}"));
            let corner = |r, c| moved.get(Cell::new(r, c).unwrap());
            assert!(corner(0, 0).is_some(), "{name}");
            assert_eq!(corner(0, 0), corner(8, 8), "{name}");
            let count = |b: &Board| b.cells().iter().filter(|&&d| d > 0).count();
            assert_eq!(count(&moved), count(&puzzle), "{name}");
            assert_eq!(
                analyse(&moved).is_ok_and(|a| matches!(a, Answer::Unique(_))),
                analyse(&puzzle).is_ok_and(|a| matches!(a, Answer::Unique(_))),
                "{name}"
            );
        }
        let lone = parse(&format!("1{}", "0".repeat(80))).unwrap();
        assert_eq!(with_corners_alike(&lone), None);
    }

    #[test]
    fn every_builtin_puzzle_parses_and_has_a_solution() {
        for (name, text) in builtin() {
            let board = parse(text).unwrap_or_else(|| panic!("{name} does not parse"));
            let answer = analyse(&board).unwrap_or_else(|e| panic!("{name}: {e}"));
            if let Answer::Unique(solution) = answer {
                assert!(solution.is_complete() && first_conflict(&solution).is_none());
                for c in Cell::all() {
                    if let Some(d) = board.get(c) {
                        assert_eq!(solution.get(c), Some(d), "{name} changes a given");
                    }
                }
            }
        }
    }

    #[test]
    fn l52_has_several_solutions_and_the_others_one() {
        for (name, text) in builtin() {
            let answer = analyse(&parse(text).unwrap()).unwrap();
            assert_eq!(matches!(answer, Answer::Several), *name == "l52", "{name}");
        }
    }

    #[test]
    fn the_builtin_list_includes_l52_verbatim() {
        assert_eq!(
            named("l52"),
            Some(
                "000009000629300840005000090953000000000604000000900732040006070390020104200400080"
            )
        );
    }

    #[test]
    fn conflicting_and_dead_end_boards_are_refused() {
        let mut dup = "11".to_string();
        dup.push_str(&"0".repeat(79));
        assert_eq!(
            analyse(&parse(&dup).unwrap()),
            Err(PuzzleError::Conflict(Cell::new(0, 0).unwrap()))
        );
        // Row 1 holds 1..8 and column 9 a 9 lower down: r1c9 has no candidate.
        let dead = format!("12345678{}9{}", "0".repeat(9), "0".repeat(63));
        assert_eq!(
            analyse(&parse(&dead).unwrap()),
            Err(PuzzleError::NoSolution)
        );
    }

    #[test]
    fn parse_accepts_dots_and_refuses_bad_text() {
        assert!(parse(&".".repeat(81)).is_some());
        assert!(parse(&"0".repeat(80)).is_none());
        assert!(parse(&"0".repeat(82)).is_none());
        assert!(parse(&format!("x{}", "0".repeat(80))).is_none());
    }

    #[test]
    fn every_grid_of_the_samurai_givens_keeps_the_rules() {
        let g = samurai_givens(7);
        for &(r0, c0) in &GRIDS {
            for i in 0..9 {
                let row: Vec<u8> = (0..9).map(|j| g[r0 + i][c0 + j]).collect();
                let col: Vec<u8> = (0..9).map(|j| g[r0 + j][c0 + i]).collect();
                let bx: Vec<u8> = (0..9)
                    .map(|j| g[r0 + 3 * (i / 3) + j / 3][c0 + 3 * (i % 3) + j % 3])
                    .collect();
                for unit in [row, col, bx] {
                    let mut seen = [false; 10];
                    for d in unit.into_iter().filter(|&d| d > 0) {
                        assert!(!seen[d as usize], "grid at {r0},{c0}: {d} twice");
                        seen[d as usize] = true;
                    }
                }
            }
        }
        let filled = (0..SPAN * SPAN)
            .filter(|i| g[i / SPAN][i % SPAN] > 0)
            .count();
        let cells = (0..SPAN * SPAN)
            .filter(|i| in_a_grid(i / SPAN, i % SPAN))
            .count();
        assert_eq!(cells, 369);
        assert!((90..=170).contains(&filled), "{filled} givens");
        assert!(
            (0..SPAN * SPAN).all(|i| in_a_grid(i / SPAN, i % SPAN) || g[i / SPAN][i % SPAN] == 0)
        );
    }
}
