//! [`Strategy::Naive`]: the textbook backtracker. Empty cells in row-major order, digits 1 to 9,
//! digits that break a rule skipped, undo on failure; nothing else, so its step count is the one
//! the classic demos print.

use super::{BOX_OF, Run};
use crate::sudoku::{Board, SolveObserver};

impl<O: SolveObserver> Run<'_, O> {
    /// The textbook backtracker, iterative so its depth never matters.
    pub(super) fn naive(&mut self, puzzle: &Board) {
        if !puzzle.conflicts().is_empty() {
            return;
        }
        let mut cells = *puzzle.cells();
        // Digits used per row, column and box, bit d for digit d.
        let (mut rows, mut cols, mut boxes) = ([0u16; 9], [0u16; 9], [0u16; 9]);
        let mut empty = Vec::with_capacity(81);
        for (i, &d) in cells.iter().enumerate() {
            let (r, c, b) = (i / 9, i % 9, BOX_OF[i] as usize);
            if d == 0 {
                empty.push(i);
            } else {
                rows[r] |= 1 << d;
                cols[c] |= 1 << d;
                boxes[b] |= 1 << d;
            }
        }
        let n = empty.len();
        let mut k = 0usize; // position in `empty` being filled
        let mut from = 1u8; // first digit to try there
        loop {
            if k == n {
                if self.found_solution(Board::from_cells(cells).expect("digits 0..=9")) {
                    return;
                }
                // Look for another solution: treat this one as a dead end.
                if n == 0 {
                    return;
                }
                k -= 1;
                let i = empty[k];
                from = cells[i] + 1;
                if self.naive_take_back(&mut cells, &mut rows, &mut cols, &mut boxes, i) {
                    return;
                }
                continue;
            }
            let i = empty[k];
            let (r, c, b) = (i / 9, i % 9, BOX_OF[i] as usize);
            // The smallest digit >= `from` that no rule forbids (bits 1..=9 of `free`).
            let free = !(rows[r] | cols[c] | boxes[b]) & (0x3FE & (!0u16 << from));
            match free.trailing_zeros() as u8 {
                d @ 1..=9 => {
                    if self.emit_set(i, d).is_err() {
                        return;
                    }
                    cells[i] = d;
                    rows[r] |= 1 << d;
                    cols[c] |= 1 << d;
                    boxes[b] |= 1 << d;
                    k += 1;
                    from = 1;
                }
                _ => {
                    if k == 0 {
                        return; // every digit of the first empty cell failed: no (more) solutions
                    }
                    k -= 1;
                    let j = empty[k];
                    from = cells[j] + 1;
                    if self.naive_take_back(&mut cells, &mut rows, &mut cols, &mut boxes, j) {
                        return;
                    }
                }
            }
        }
    }

    /// Empties cell `i` and reports it; `true` when the observer stopped the search.
    fn naive_take_back(
        &mut self,
        cells: &mut [u8; 81],
        rows: &mut [u16; 9],
        cols: &mut [u16; 9],
        boxes: &mut [u16; 9],
        i: usize,
    ) -> bool {
        let d = cells[i];
        cells[i] = 0;
        rows[i / 9] &= !(1 << d);
        cols[i % 9] &= !(1 << d);
        boxes[BOX_OF[i] as usize] &= !(1 << d);
        self.emit_cancel(i).is_err()
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::*;
    use super::super::{Strategy, solve_with};
    use crate::sudoku::{Board, puzzle_lines};

    /// An independent, plain recursive textbook backtracker that counts its placements.
    fn reference_naive_steps(cells: &mut [u8; 81], steps: &mut u64) -> bool {
        let Some(i) = cells.iter().position(|&d| d == 0) else {
            return true;
        };
        let (r, c) = (i / 9, i % 9);
        for d in 1..=9u8 {
            let clash = (0..9).any(|k| {
                cells[r * 9 + k] == d
                    || cells[k * 9 + c] == d
                    || cells[(r / 3 * 3 + k / 3) * 9 + c / 3 * 3 + k % 3] == d
            });
            if !clash {
                cells[i] = d;
                *steps += 1;
                if reference_naive_steps(cells, steps) {
                    return true;
                }
                cells[i] = 0;
            }
        }
        false
    }

    #[test]
    fn naive_step_count_matches_a_reference_implementation() {
        let kaggle = std::fs::read_to_string(puzzles_dir().join("kaggle_10k.txt")).unwrap();
        let mut puzzles: Vec<Board> = vec![board(EASY), board(L52), board(DEAD_END)];
        puzzles.extend(puzzle_lines(&kaggle).take(5).map(|l| l.board.unwrap()));
        for puzzle in puzzles {
            let mut cells = *puzzle.cells();
            let mut steps = 0;
            let solved = reference_naive_steps(&mut cells, &mut steps);
            let outcome = solve_with(&puzzle, Strategy::Naive, &mut ());
            assert_eq!(outcome.stats().sets, steps, "{puzzle:?}");
            assert_ends_like_reference(outcome, solved, &cells);
        }
    }
}
