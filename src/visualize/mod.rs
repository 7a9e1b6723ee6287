//! Showing the search: turning the solver's Set/Cancel events into something people watch, on
//! the phone (`record` the search, `estimate` its cost from figures `measure` timed on the phone,
//! replay it move by move in `session`, resumable through `resume`) or locally as an animated GIF.

pub mod estimate;
pub mod gif;
pub mod measure;
pub mod record;
pub mod resume;
pub mod session;
