//! The game itself, independent of any phone: board types, parsing and printing, rule checks, and
//! the observable backtracking solver.

pub mod observer;
pub mod report;
pub mod solver;

/// Cells and boards are the reader's types (`sudoku_reader::board`), so that a read board is
/// the board the solver takes.
pub use sudoku_reader::board;

pub use board::{Board, Cell};
pub use board::{ParseError, PuzzleLine, is_puzzle_list, puzzle_lines};
pub use observer::{Recorder, SolveEvent, SolveObserver, observe, replay};
pub use solver::{
    Agreement, DEFAULT_MAX_STEPS, Outcome, SolveOptions, SolveStats, StopReason, Strategy,
    UnknownStrategy, agreement, solve, solve_with,
};
