//! sudoku-agent plays sudoku on an Android phone over ADB.
//!
//! ```text
//! Phone { device, profile, stop flag, messages }   (phone: one session per phone)
//! Device::screenshot() -> RgbaImage
//!   -> profile.read(&img) = sudoku_reader::read(&img, Some(&profile.hints()))   (None: no profile)
//!                                     -> Seen { screen: grid and cells seen,
//!                                               result: Recognition { board, readings[81],
//!                                                                     grid, clashes } }
//!   -> sudoku::solve_with(&board, SolveOptions, &mut observer)
//!                                     -> Outcome::Solved { board } | NoSolution | Multiple | Stopped
//!        observer receives SolveEvent::Set { cell, digit } / Cancel { cell } as the search runs
//!   -> plan::moves_to_fill(&board, &solution) -> Vec<Move>
//!   -> plan::plan(&moves, &Layout)    -> Plan { taps: Vec<Tap>, move_ends }
//!        (Layout = plan::layout(&Calibration): grid, keypad, erase, input order)
//!   -> Device::tap_all(&points)       (encoded by an InputMethod into shell commands; the
//!                                      device's typed `Input` decides batching and pacing)
//!   -> screenshot again, read again, Board::diff: verified or a clear error
//! ```
//! `sudoku_reader::read` is the only way from pixels to a board: `read`, `play`, `visualize`,
//! `calibrate` (the one calibrator, also `play`'s first-time learning) and profile fitting all
//! call it, through `Profile::read` when there is a profile; the reader depends on its own
//! geometry and board types only (a profile hands it `Hints`). Only the two ends touch the outside world; every stage between is a pure
//! function. `play` and `visualize` are the two workflows over a `phone::Phone` (capture, read,
//! waiting out covers, cell centres, taps, the Ctrl-C stop flag, messages prefixed with the
//! serial under `--all`); `app` (one file per subcommand) wires them to the command line and is
//! the one place that picks a device; stages report errors through `error`, never through `app`.
//!
//! Modules: `cli` (clap types), `app` (subcommands), `error` (stage errors, exit codes),
//! `sudoku`, `profile` (what is learned about an app: its `calibration` with its templates, stored
//! per app and screen; `app::choose` picks one for a phone) and `calibrate` (learning it),
//! `plan` (moves to taps), `phone` (the session over one phone, and covers over its board),
//! `play`, `visualize` (record, estimate, replay, resume, gif),
//! `device` (trait, adb, input encodings, parsers, file, and the glue to the simulated phone),
//! `geometry`. The reader is its own crate, `sudoku_reader` (in `reader/`: `read`, its hints and
//! what it returns, and `stages` for the calibrator and the session; its `geometry` is
//! re-exported here), and so is the simulated phone, `sudoku_sim` (in `sim/`):
//! independent peers that never import the agent; the tests drive the phone through the real
//! adb server.

pub mod app;
pub mod calibrate;
pub mod cli;
pub mod device;
pub mod error;
pub mod phone;
pub mod plan;
pub mod play;
pub mod profile;
pub mod sudoku;
pub mod visualize;

/// Points, sizes and rectangles: the reader's own types (`sudoku_reader::geometry`), used by
/// every stage that places or cuts something.
pub use sudoku_reader::geometry;
