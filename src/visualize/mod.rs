//! Showing the search: turning the solver's Set/Cancel events into something people watch, on
//! the phone (`record` the search, `estimate` its cost, replay it move by move in `session`,
//! resumable through `resume`) or locally as an animated GIF.

pub mod estimate;
pub mod gif;
pub mod record;
pub mod resume;
pub mod session;
