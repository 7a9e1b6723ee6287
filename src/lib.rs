//! sudoku-agent plays sudoku on an Android phone over ADB.
//!
//! ```text
//! Device::screenshot() -> RgbaImage
//!   -> vision::locate_grid            -> Grid (pixel rect of the 81 cells)
//!   -> vision::read_board(&img, &Calibration, &Templates)
//!                                     -> Recognition { board, readings[81] }
//!   -> sudoku::solve_with(&board, strategy, &mut observer)
//!                                     -> Outcome::Solved(board) | NoSolution | Multiple | Stopped
//!        observer receives SolveEvent::Set { cell, digit } / Cancel { cell } as the search runs
//!   -> replay::plan(moves, &Calibration) -> Vec<Tap>
//!   -> Device::tap_all(&taps)          (encoded by an InputMethod into shell commands)
//!   -> screenshot again, read again, compare: verified or a clear error
//! ```
//! Only the two ends touch the outside world; every stage between is a pure function.

pub mod app;
pub mod calibrate;
pub mod calibration;
pub mod cli;
pub mod device;
pub mod geometry;
pub mod play;
pub mod probe;
pub mod replay;
pub mod sudoku;
pub mod vision;
pub mod visualize;
