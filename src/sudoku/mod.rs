//! The game itself, independent of any phone: board types, parsing and printing, rule checks, and
//! the observable backtracking solver.

pub mod board;
pub mod observer;
pub mod report;
pub mod solver;

pub use board::{Board, Cell};
pub use board::{ParseError, PuzzleLine, is_puzzle_list, puzzle_lines};
pub use observer::{Recorder, SolveEvent, SolveObserver, observe, replay};
pub use solver::{
    Agreement, DEFAULT_MAX_STEPS, Outcome, SolveOptions, SolveStats, StopReason, Strategy,
    UnknownStrategy, agreement, solve, solve_with,
};
