//! What the reader's integration tests share: `../shared` beside the checkout (`shared`), its
//! real screenshots and their MANIFESTs (`screens`), the robustness sweep's perturbations
//! (`perturb`), and the simulated phone's boards in the reader's own type.

pub mod perturb;
pub mod screens;
pub mod shared;

use sudoku_reader::board::Board;

/// The simulated phone's board as the reader's: the phone keeps its own types on purpose.
pub fn board_of(b: sudoku_sim::Board) -> Board {
    Board::from_cells(*b.cells()).expect("both sides hold digits 0..=9")
}

/// The simulated phone's built-in puzzle `name` (`easy`, `medium`, ...).
pub fn puzzle(name: &str) -> sudoku_sim::Board {
    let text = sudoku_sim::puzzles::named(name).expect("a built-in puzzle");
    sudoku_sim::puzzles::parse(text).expect("a board")
}
