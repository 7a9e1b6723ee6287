//! [`Strategy::Mrv`]: the "most constrained variable" backtracker of The Algorithm Design Manual.
//! At every step it fills the empty cell with the fewest candidates (ties in row-major order),
//! trying those candidates in ascending order, and deduces nothing else. A cell left with no
//! candidate is the most constrained of all, so it is chosen at once and ends the branch: that
//! look-ahead is all the pruning it does, which keeps its step count the algorithm's own.

use super::{BOX_OF, Halt, Run};
use crate::sudoku::{Board, SolveObserver};

/// The board and the digits used per row, column and box (bit d for digit d).
struct Grid {
    cells: [u8; 81],
    rows: [u16; 9],
    cols: [u16; 9],
    boxes: [u16; 9],
    /// The puzzle's empty cells, row-major; the scan for the next cell skips filled ones.
    empty: Vec<u8>,
}

impl Grid {
    fn new(puzzle: &Board) -> Grid {
        let mut grid = Grid {
            cells: [0; 81],
            rows: [0; 9],
            cols: [0; 9],
            boxes: [0; 9],
            empty: Vec::with_capacity(81),
        };
        for (i, &d) in puzzle.cells().iter().enumerate() {
            if d == 0 {
                grid.empty.push(i as u8);
            } else {
                grid.put(i, d);
            }
        }
        grid
    }

    /// Digits 1..=9 no rule forbids in cell `i`, as bits 1..=9.
    #[inline]
    fn candidates(&self, i: usize) -> u16 {
        !(self.rows[i / 9] | self.cols[i % 9] | self.boxes[BOX_OF[i] as usize]) & 0x3FE
    }

    #[inline]
    fn put(&mut self, i: usize, d: u8) {
        self.cells[i] = d;
        self.rows[i / 9] |= 1 << d;
        self.cols[i % 9] |= 1 << d;
        self.boxes[BOX_OF[i] as usize] |= 1 << d;
    }

    #[inline]
    fn take_back(&mut self, i: usize, d: u8) {
        self.cells[i] = 0;
        self.rows[i / 9] &= !(1 << d);
        self.cols[i % 9] &= !(1 << d);
        self.boxes[BOX_OF[i] as usize] &= !(1 << d);
    }

    /// The empty cell with the fewest candidates, first in row-major order among equals, and its
    /// candidates; `None` when the board is full.
    fn most_constrained(&self) -> Option<(usize, u16)> {
        let mut best: Option<(usize, u16)> = None;
        let mut fewest = u32::MAX;
        for &i in &self.empty {
            let i = i as usize;
            if self.cells[i] != 0 {
                continue;
            }
            let free = self.candidates(i);
            let n = free.count_ones();
            if n < fewest {
                fewest = n;
                best = Some((i, free));
                if n == 0 {
                    break; // nothing can be more constrained: this branch is dead
                }
            }
        }
        best
    }
}

impl<O: SolveObserver> Run<'_, O> {
    pub(super) fn mrv(&mut self, puzzle: &Board) {
        if !puzzle.conflicts().is_empty() {
            return;
        }
        let mut grid = Grid::new(puzzle);
        // Every level takes back its own fills, so an exhausted search ends on the puzzle.
        let _ = self.mrv_search(&mut grid);
    }

    /// Fills the most constrained cell with each of its candidates in turn and recurses; the
    /// depth is at most the 81 cells. Returns `Err(Dead)` once every candidate failed (after
    /// taking them back), `Err(Done)` when the search is over.
    fn mrv_search(&mut self, grid: &mut Grid) -> Result<(), Halt> {
        let Some((i, mut free)) = grid.most_constrained() else {
            let board = Board::from_cells(grid.cells).expect("digits 0..=9");
            return Err(if self.found_solution(board) {
                Halt::Done
            } else {
                Halt::Dead
            });
        };
        while free != 0 {
            let d = free.trailing_zeros() as u8;
            free &= free - 1;
            self.emit_set(i, d)?;
            grid.put(i, d);
            match self.mrv_search(grid) {
                Err(Halt::Dead) => {}
                other => return other,
            }
            grid.take_back(i, d);
            self.emit_cancel(i)?;
        }
        Err(Halt::Dead)
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::*;
    use super::super::{Outcome, Strategy, solve_with};
    use crate::sudoku::{Board, Recorder, SolveEvent, puzzle_lines};

    /// An independent, plain recursive most-constrained-first backtracker that counts its
    /// placements and take-backs: candidates found by looking along the row, column and box.
    fn reference_mrv(cells: &mut [u8; 81], sets: &mut u64, cancels: &mut u64) -> bool {
        let allowed = |cells: &[u8; 81], i: usize| -> [bool; 10] {
            let (r, c) = (i / 9, i % 9);
            let mut ok = [true; 10];
            ok[0] = false;
            for k in 0..9 {
                ok[cells[r * 9 + k] as usize] = false;
                ok[cells[k * 9 + c] as usize] = false;
                ok[cells[(r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3] as usize] = false;
            }
            ok
        };
        let mut best: Option<(usize, [bool; 10], usize)> = None;
        for i in (0..81).filter(|&i| cells[i] == 0) {
            let ok = allowed(cells, i);
            let n = ok.iter().filter(|&&b| b).count();
            if best.is_none_or(|(_, _, fewest)| n < fewest) {
                best = Some((i, ok, n));
            }
        }
        let Some((i, ok, _)) = best else {
            return true;
        };
        let digits = (1..=9u8).filter(|&d| ok[d as usize]);
        for d in digits {
            cells[i] = d;
            *sets += 1;
            if reference_mrv(cells, sets, cancels) {
                return true;
            }
            cells[i] = 0;
            *cancels += 1;
        }
        false
    }

    #[test]
    fn mrv_step_counts_match_a_reference_implementation() {
        let seventeen =
            std::fs::read_to_string(puzzles_dir().join("17_clue_first_5000.txt")).unwrap();
        let kaggle = std::fs::read_to_string(puzzles_dir().join("kaggle_10k.txt")).unwrap();
        let mut puzzles: Vec<Board> = [EASY, L52, ANTI_BACKTRACKER, DEAD_END].map(board).to_vec();
        puzzles.extend(puzzle_lines(&seventeen).take(2).map(|l| l.board.unwrap()));
        puzzles.extend(puzzle_lines(&kaggle).take(3).map(|l| l.board.unwrap()));
        // AI Escargot and Everest (the anti-backtracker opens the list).
        puzzles.extend(named_hard().into_iter().skip(1).take(2).map(|(b, _)| b));
        for puzzle in puzzles {
            let mut cells = *puzzle.cells();
            let (mut sets, mut cancels) = (0, 0);
            let solved = reference_mrv(&mut cells, &mut sets, &mut cancels);
            let outcome = solve_with(&puzzle, Strategy::Mrv, &mut ());
            assert_eq!(outcome.stats().sets, sets, "{puzzle:?}");
            assert_eq!(outcome.stats().cancels, cancels, "{puzzle:?}");
            assert_ends_like_reference(outcome, solved, &cells);
        }
    }

    #[test]
    fn mrv_fills_the_forced_cells_first() {
        // EASY's first move: the empty cell with fewest candidates, not the first empty cell.
        let puzzle = board(EASY);
        let mut recorder = Recorder::with_limit(1);
        solve_with(&puzzle, Strategy::Mrv, &mut recorder);
        let SolveEvent::Set { cell, .. } = recorder.events[0] else {
            panic!("a set comes first");
        };
        let count = |i: usize| {
            (1..=9u8)
                .filter(|&d| {
                    let c = crate::sudoku::Cell::from_index(i).unwrap();
                    !crate::sudoku::Cell::all().any(|p| p.sees(c) && puzzle.get(p) == Some(d))
                })
                .count()
        };
        let fewest = (0..81)
            .filter(|&i| puzzle.cells()[i] == 0)
            .map(count)
            .min()
            .unwrap();
        assert_eq!(count(cell.index()), fewest);
        assert!(fewest < count(2), "r1c3 is not the most constrained cell");
    }

    #[test]
    fn mrv_honours_the_step_budget() {
        let outcome = anti_backtracker_within(Strategy::Mrv, 30);
        assert!(
            matches!(outcome, Outcome::Stopped { stats, .. } if stats.sets == 30),
            "{outcome:?}"
        );
    }
}
