//! The reader's stages that callers beyond [`read`](crate::read) still use, re-exported from the
//! private modules that own them: a calibrator finds the keypad and cuts digit templates from a
//! read's cells, a phone session watches the screen settle and compares frames, and pictures are
//! drawn over a read. Everything else in the crate is private; this list is the seam to shrink.

pub use crate::bank::{bank, feature};
pub use crate::cells::{BIG_MIN, big_digit_height};
pub use crate::glyphs::label;
pub use crate::hints::{Place, frame_mismatch};
pub use crate::keypad::{
    Glyph, find_keypad, find_keys, glyphs_outside, selected_key, verified_keypad,
};
pub use crate::locate::{locate_grid, locate_grid_near};
pub use crate::overlay::{draw_calibration, draw_seen};
pub use crate::patch::{PATCH_H, PATCH_W, components};
pub use crate::recognize::{
    MIN_CLUES, colour_distance, grid_offset, grid_tolerance, read_grid, rule_conflicts,
};
pub use crate::scan::find_grid_and_cells;
pub use crate::screen::Boundaries;

/// When a screen has settled: two reads agree, within these bounds.
pub mod settling {
    pub use crate::settling::{LIMIT, MIN_WAIT, STEP, STILL_SPAN, Settling, still_around};
}
