//! The game itself, independent of any phone: board types, parsing and printing, rule checks, and
//! the observable backtracking solver.

pub mod board;
pub mod observer;

pub use board::{Board, Cell};
pub use observer::{SolveEvent, SolveObserver};
