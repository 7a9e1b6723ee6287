//! The reader's integration tests, one binary, one module per area; `support` holds what they
//! share. They see only pixels: real screenshots from `../shared` and screens drawn here or
//! rendered by the simulated phone (`sudoku-sim`, a dev-dependency that never depends on the
//! reader). Tests that run the agent's binary or calibrate stay in the agent's `tests/`.

mod support;

mod hint;
mod keypad;
mod locate_real;
mod perturbed;
mod real_screens;
mod sim;
