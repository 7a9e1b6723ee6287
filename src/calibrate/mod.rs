//! Learning an app on a phone, the content of a `Calibration`: `screenshot` measures the grid,
//! keypad, templates and ink colours on one screenshot through the reader without calibration;
//! `probe` (`calibrate --probe`) finds the input order, erase button and notes toggle by trying
//! them on the phone; `learn` is the two together, the one way `calibrate --probe` and `play`
//! learn an app on a phone.

pub mod learn;
pub mod probe;
mod screenshot;

pub use learn::{LearnedApp, learn, learn_from};
pub use screenshot::{
    CalibrateOptions, Calibrated, KIND_DISTANCE, LabelSource, MIN_MARGIN, MIN_SCORE,
    calibrate_image,
};
