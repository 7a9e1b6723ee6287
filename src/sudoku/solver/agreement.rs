//! What every completion of a board agrees on. A board with several completions (a variant's
//! givens read as classic, or an app whose generator allows several answers) has one the app
//! wants and we cannot tell which; a digit is safe to type only in a cell where every
//! completion puts the same digit, since it is right whatever the app's answer is.
//!
//! A cell is agreed when no completion puts another digit there: for each empty cell and each of
//! its other candidates, the board with that digit written in must have no solution. Every
//! completion found on the way disagrees with the first one in many cells at once, so most
//! cells are settled by a few searches.

use super::{Outcome, SolveOptions, Strategy, solve_with};
use crate::sudoku::{Board, Cell};

/// The cells on which every completion of a board agrees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agreement {
    /// The board with the digit of every agreed empty cell written in (the input's digits kept).
    pub agreed: Board,
    /// Empty cells of the input where completions differ, in row-major order.
    pub open: Vec<Cell>,
}

/// What every completion of `board` agrees on; `None` when it has no completion (or the search
/// could not finish: every search here runs to the end without a step budget only on boards the
/// fast solver settles in a few thousand steps, and a budget-stopped search is taken as "may have
/// one", so that cell stays open).
pub fn agreement(board: &Board) -> Option<Agreement> {
    let first = match complete(board) {
        Completion::Found(first) => first,
        Completion::None | Completion::Unknown => return None,
    };
    // seen[cell] holds the digits some completion puts there (bit d).
    let mut seen = [0u16; 81];
    note(&mut seen, &first);
    for cell in Cell::all().filter(|&c| board.get(c).is_none()) {
        let i = cell.index();
        for digit in 1..=9u8 {
            if seen[i] & (1 << digit) != 0 || !fits(board, cell, digit) {
                continue;
            }
            let mut trial = *board;
            trial.set(cell, Some(digit));
            match complete(&trial) {
                Completion::Found(other) => note(&mut seen, &other),
                // Not proved impossible: the cell may take it.
                Completion::Unknown => seen[i] |= 1 << digit,
                Completion::None => {}
            }
        }
    }
    let mut agreed = *board;
    let mut open = Vec::new();
    for cell in Cell::all().filter(|&c| board.get(c).is_none()) {
        if seen[cell.index()].count_ones() == 1 {
            agreed.set(cell, first.get(cell));
        } else {
            open.push(cell);
        }
    }
    Some(Agreement { agreed, open })
}

/// Marks each digit of `solution` as one some completion puts in its cell.
fn note(seen: &mut [u16; 81], solution: &Board) {
    for (bits, &d) in seen.iter_mut().zip(solution.cells()) {
        *bits |= 1 << d;
    }
}

enum Completion {
    Found(Board),
    None,
    Unknown,
}

/// One completion of `board`, searched with the fast solver under the default step budget.
fn complete(board: &Board) -> Completion {
    let options = SolveOptions {
        strategy: Strategy::Fast,
        ..SolveOptions::default()
    };
    match solve_with(board, options, &mut ()) {
        Outcome::Solved { board, .. } | Outcome::Multiple { first: board, .. } => {
            Completion::Found(board)
        }
        Outcome::NoSolution { .. } => Completion::None,
        Outcome::Stopped { .. } => Completion::Unknown,
    }
}

/// Whether `digit` in the empty `cell` breaks no rule with the digits already on `board`.
fn fits(board: &Board, cell: Cell, digit: u8) -> bool {
    Cell::all().all(|other| other == cell || !cell.sees(other) || board.get(other) != Some(digit))
}

#[cfg(test)]
mod tests {
    use super::*;

    const UNIQUE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn a_puzzle_with_one_solution_agrees_everywhere() {
        let board = Board::parse(UNIQUE).unwrap();
        let got = agreement(&board).unwrap();
        assert!(got.open.is_empty());
        assert!(got.agreed.is_complete());
        assert!(got.agreed.is_solution_of(&board));
    }

    #[test]
    fn a_deadly_rectangle_leaves_exactly_its_four_cells_open() {
        // A solved grid with the four corners of a swappable rectangle emptied: two
        // completions, which differ only there.
        let solved =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let mut board = Board::parse(solved).unwrap();
        let rect = find_rectangle(&board).expect("this grid has a swappable rectangle");
        for &c in &rect {
            board.set(c, None);
        }
        let got = agreement(&board).unwrap();
        let mut open = got.open.clone();
        open.sort_by_key(|c| c.index());
        let mut want = rect.to_vec();
        want.sort_by_key(|c| c.index());
        assert_eq!(open, want);
        assert_eq!(got.agreed, board, "nothing else was empty");
    }

    #[test]
    fn an_emptied_board_agrees_on_nothing_and_an_unsolvable_one_has_no_agreement() {
        let got = agreement(&Board::empty()).unwrap();
        assert_eq!(got.open.len(), 81);
        let clash = Board::parse(&format!("11{}", ".".repeat(79))).unwrap();
        assert_eq!(agreement(&clash), None);
    }

    #[test]
    fn agreed_digits_are_those_of_every_completion() {
        // Remove givens from a unique puzzle until it has several completions; every agreed
        // digit must equal the unique puzzle's solution digit (one of the completions) and
        // appear in a second, different completion too.
        let puzzle = Board::parse(UNIQUE).unwrap();
        let solution = match super::super::solve(&puzzle) {
            Outcome::Solved { board, .. } => board,
            other => panic!("unexpected {other:?}"),
        };
        let mut board = puzzle;
        for cell in Cell::all().filter(|&c| puzzle.get(c).is_some()).take(8) {
            board.set(cell, None);
        }
        let got = agreement(&board).unwrap();
        assert!(!got.open.is_empty(), "eight givens fewer leaves choices");
        for cell in Cell::all() {
            if let Some(d) = got.agreed.get(cell) {
                assert_eq!(Some(d), solution.get(cell));
            }
        }
        let unique = SolveOptions {
            unique: true,
            ..SolveOptions::default()
        };
        match solve_with(&board, unique, &mut ()) {
            Outcome::Multiple { first, second, .. } => {
                for cell in Cell::all().filter(|c| got.agreed.get(*c).is_some()) {
                    assert_eq!(first.get(cell), second.get(cell));
                }
                assert!(got.open.iter().any(|&c| first.get(c) != second.get(c)));
            }
            other => panic!("expected several completions, got {other:?}"),
        }
    }

    /// Four cells (r1,c1) (r1,c2) (r2,c1) (r2,c2) in exactly two boxes whose digits swap:
    /// a at (r1,c1) and (r2,c2), b at (r1,c2) and (r2,c1).
    fn find_rectangle(board: &Board) -> Option<[Cell; 4]> {
        let at = |r, c| board.get(Cell::new(r, c).unwrap()).unwrap();
        for r1 in 0..9 {
            for r2 in r1 + 1..9 {
                for c1 in 0..9 {
                    for c2 in c1 + 1..9 {
                        let boxes = [(r1, c1), (r1, c2), (r2, c1), (r2, c2)]
                            .map(|(r, c)| Cell::new(r, c).unwrap().box_index());
                        let mut distinct = boxes.to_vec();
                        distinct.sort();
                        distinct.dedup();
                        if distinct.len() == 2
                            && at(r1, c1) == at(r2, c2)
                            && at(r1, c2) == at(r2, c1)
                        {
                            return Some(
                                [(r1, c1), (r1, c2), (r2, c1), (r2, c2)]
                                    .map(|(r, c)| Cell::new(r, c).unwrap()),
                            );
                        }
                    }
                }
            }
        }
        None
    }
}
