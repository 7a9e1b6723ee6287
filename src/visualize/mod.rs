//! Showing the search: turning the solver's Set/Cancel events into something people watch, on
//! the phone (move by move, `session`, resumable through `resume`) or locally as an animated GIF.

pub mod gif;
pub mod resume;
pub mod session;
