//! Learning an app on the phone, the one way both `calibrate --probe` and `play`'s first-time
//! learning do it: calibrate on a screenshot (see [`calibrate_image`]: the reader without
//! calibration, templates cut from its cells, the keypad), then probe on one empty cell for the
//! input order, the erase button and the notes toggle, putting the cell back and checking that
//! a fresh read equals the first (see `calibrate::probe`).

use super::probe::{Probed, probe_waiting};
use super::{CalibrateOptions, Calibrated, calibrate_image};
use crate::device::Device;
use crate::phone::settle::first_board;
use crate::profile::Profile;
use crate::profile::calibration::InputOrder;
use anyhow::{Context, Result};
use image::RgbaImage;

/// An app learned on the phone: what calibrating its screen found (the controls the probe
/// found included), and what the probe did.
#[derive(Debug, Clone)]
pub struct LearnedApp {
    pub calibrated: Calibrated,
    pub probed: Probed,
}

/// How long learning waits for an ad or a dialog over the board to be closed (as `play` does
/// by default).
const COVER_WAIT: std::time::Duration = std::time::Duration::from_secs(60);

/// Learns the app on `device`'s screen from a screenshot of its board at rest (a level-start
/// cascade over, see [`first_board`]), then as [`learn_from`].
pub fn learn(device: &mut dyn Device, opts: &CalibrateOptions) -> Result<LearnedApp> {
    let screen = first_board(device)?;
    learn_from(device, &screen, opts)
}

/// Learns the app on `device` from `screen`, a screenshot of it: calibrates on it, then probes
/// the phone; an ad or a dialog that covers the board meanwhile is waited for (see
/// [`probe_waiting`]).
pub fn learn_from(
    device: &mut dyn Device,
    screen: &RgbaImage,
    opts: &CalibrateOptions,
) -> Result<LearnedApp> {
    let mut calibrated = calibrate_image(screen, opts)
        .context("cannot learn this app from its screen; open a puzzle in the app")?;
    let probed = probe_waiting(
        device,
        &calibrated.calibration,
        &calibrated.templates,
        COVER_WAIT,
    )
    .context("cannot learn this app's controls by probing")?;
    calibrated.set_controls(screen, Some(probed.erase), probed.notes, probed.input_order)?;
    Ok(LearnedApp { calibrated, probed })
}

impl LearnedApp {
    /// The profile learned: the calibration with its templates.
    pub fn profile(&self) -> Profile {
        self.calibrated.profile()
    }

    /// What was learned, in a few words: grid, keypad, order, erase, notes, probe cost.
    pub fn summary(&self) -> String {
        let cal = &self.calibrated.calibration;
        let g = cal.grid;
        let order = match cal.input_order {
            InputOrder::CellFirst => "cell-first",
            InputOrder::NumberFirst => "number-first",
        };
        let p = &self.probed;
        let notes = match p.notes {
            Some(n) => format!("notes at {},{}", n.x, n.y),
            None => "no notes toggle".to_string(),
        };
        format!(
            "grid {}x{} at {},{}, {order}, erase at {},{}, {notes} ({} probe taps in {}, board put back)",
            g.width, g.height, g.x, g.y, p.erase.x, p.erase.y, p.taps, p.cell
        )
    }
}
