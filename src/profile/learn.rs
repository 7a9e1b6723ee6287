//! Learning a profile on the phone, with no help from the user: read the screen with the reader
//! that needs no calibration and calibrate from that read (grid, digit templates cut from its
//! labelled digits, keypad), then probe on one empty cell for the input
//! order, the erase button and the notes toggle, putting the cell back and checking that a fresh
//! read equals the first (see `calibrate::probe`).

use crate::calibrate::probe::{Probed, probe_waiting};
use crate::calibrate::{CalibrateOptions, Calibrated, calibrate_image, calibrate_read};
use crate::device::Device;
use crate::profile::Profile;
use crate::profile::calibration::InputOrder;
use crate::vision;
use anyhow::{Context, Result, anyhow, bail};
use image::RgbaImage;

/// A profile learned on the phone, and what the probe did.
#[derive(Debug, Clone)]
pub struct Learned {
    pub profile: Profile,
    pub probed: Probed,
}

/// How long learning waits for an ad or a dialog over the board to be closed (as `play` does
/// by default).
const COVER_WAIT: std::time::Duration = std::time::Duration::from_secs(60);

/// Learns the app on `device`'s screen; an ad or a dialog that covers the board meanwhile is
/// waited for (see [`probe_waiting`]).
pub fn learn(device: &mut dyn Device) -> Result<Learned> {
    let screen = device.screenshot().context("cannot take a screenshot")?;
    let mut done = calibrate_screen(&screen)?;
    let probed = probe_waiting(device, &done.calibration, &done.templates, COVER_WAIT)
        .context("cannot learn this app's controls by probing")?;
    done.set_controls(
        &screen,
        Some(probed.erase),
        probed.notes,
        probed.input_order,
    )?;
    Ok(Learned {
        profile: Profile::new(done.calibration, done.templates),
        probed,
    })
}

/// Calibrates on `screen` through the reader without calibration: its grid, its cells and its
/// labelled digits (templates cut from them), kept when the calibrated reader then reads the
/// same board with them. Where that reader refuses the screen (or the result does not read it
/// back), calibrate's own search and labelling are tried.
pub fn calibrate_screen(screen: &RgbaImage) -> Result<Calibrated> {
    let opts = CalibrateOptions::default();
    let seen = vision::read(screen, None);
    let through_reader = match (&seen.screen, &seen.result) {
        (Some(cells), Ok(read)) => calibrate_read(screen, cells, read, &opts).and_then(|done| {
            let again = vision::read(screen, Some(&done.calibration.hints(&done.templates)))
                .result
                .map_err(|e| anyhow!("its templates do not read the screen back: {e}"))?;
            if again.board != read.board {
                bail!(
                    "its templates read {} instead of {}",
                    again.board.to_line(),
                    read.board.to_line()
                );
            }
            Ok(done)
        }),
        (_, Err(e)) => Err(anyhow!("{e}")),
        (None, Ok(_)) => Err(anyhow!("no grid")),
    };
    match through_reader {
        Ok(done) => Ok(done),
        Err(why) => {
            log::info!(
                "learning from the reader without calibration failed ({why:#}); calibrating on its own"
            );
            calibrate_image(screen, &opts).context(
                "cannot learn this app from its screen; open a puzzle in the app (or pass --calibration FILE)",
            )
        }
    }
}

impl Learned {
    /// What was learned, in a few words: grid, keypad, order, erase, notes, probe cost.
    pub fn summary(&self) -> String {
        let cal = &self.profile.calibration;
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
