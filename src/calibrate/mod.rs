//! Learning an app on a phone, the content of a `Calibration`: `screenshot` measures the grid,
//! keypad, templates and ink colours on one screenshot; `probe` (`calibrate --probe`) finds the
//! input order, erase button and notes toggle by trying them on the phone.

pub mod probe;
mod screenshot;

pub use screenshot::{
    CalibrateOptions, Calibrated, KIND_DISTANCE, LabelSource, MIN_MARGIN, MIN_SCORE,
    calibrate_image, calibrate_read,
};
