//! Showing the search: turning the solver's Set/Cancel events into something people watch, on
//! the phone (taps, in `replay`) or locally as an animated GIF.

pub mod gif;
