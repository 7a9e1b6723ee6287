//! Learning a profile on the phone, with no help from the user: read the screen (calibrate from
//! this screenshot: grid, digit templates, keypad), then probe on one empty cell for the input
//! order, the erase button and the notes toggle, putting the cell back and checking that a fresh
//! read equals the first (see `calibrate::probe`).

use crate::calibrate::probe::{Probed, probe};
use crate::calibrate::{CalibrateOptions, calibrate_image};
use crate::calibration::{Calibration, InputOrder};
use crate::device::Device;
use crate::vision::Templates;
use anyhow::{Context, Result};

/// A profile learned on the phone, and what the probe did.
#[derive(Debug, Clone)]
pub struct Learned {
    pub calibration: Calibration,
    pub templates: Templates,
    pub probed: Probed,
}

/// Learns the app on `device`'s screen.
pub fn learn(device: &mut dyn Device) -> Result<Learned> {
    let screen = device.screenshot().context("cannot take a screenshot")?;
    let mut done = calibrate_image(&screen, &CalibrateOptions::default()).context(
        "cannot learn this app from its screen; open a puzzle in the app (or pass --calibration FILE)",
    )?;
    let probed = probe(device, &done.calibration, &done.templates)
        .context("cannot learn this app's controls by probing")?;
    done.set_controls(
        &screen,
        Some(probed.erase),
        probed.notes,
        probed.input_order,
    )?;
    Ok(Learned {
        calibration: done.calibration,
        templates: done.templates,
        probed,
    })
}

impl Learned {
    /// What was learned, in a few words: grid, keypad, order, erase, notes, probe cost.
    pub fn summary(&self) -> String {
        let cal = &self.calibration;
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
