//! Notes mode in the probe: a probe digit that went in as a pencil note (a player left notes
//! mode on) and the button that switches it off ([`switch_notes_off`]), and the notes toggle
//! among the buttons that change their own look ([`find_notes`]).

use super::{Probe, Trial, changed_around, look_for_frame, with_button};
use crate::geometry::Point;
use crate::profile::calibration::InputOrder;
use crate::sudoku::Cell;
use anyhow::{Result, anyhow, bail};
use image::RgbaImage;
use sudoku_reader::Recognition;

/// How the probe's digit went into its cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Entered {
    Digit,
    /// As a pencil note: the app's notes mode is on.
    Note,
}

/// The probe's digit as the cell shows it: whole, as a pencil note, or not (yet).
pub(super) fn entered_as(r: &Recognition, cell: Cell, digit: u8) -> Option<Entered> {
    if r.board.get(cell) == Some(digit) {
        Some(Entered::Digit)
    } else if r.noted(cell) {
        Some(Entered::Note)
    } else {
        None
    }
}

/// The probe's digit went in as a pencil note: the app's notes mode is on (a player left it
/// so). The note is taken out again by the same taps (a note toggles), then each of the first
/// `near` `candidates` (the buttons beside the keypad; all when none is near) is tried: tapped,
/// and the digit entered again. The one after which the digit goes in whole, whose own look
/// changed, is the notes toggle, now off; the digit stays, as after [`find_input_order`]. After
/// any other button the note is taken out again and the button put back when its look changed.
pub(super) fn switch_notes_off(
    s: &mut Probe,
    trial: Trial,
    order: InputOrder,
    (candidates, near): (&[Point], usize),
    side: u32,
) -> Result<Point> {
    let Trial { cell, digit, .. } = trial;
    // The buttons beside the keypad; all of them when none is near.
    let buttons = if near > 0 {
        &candidates[..near]
    } else {
        candidates
    };
    let stuck = |what: &str| {
        anyhow!(
            "notes mode is on in the app (the digit went into {cell} as a pencil note) and {what}: switch notes off in the app, clear {cell}, and re-run"
        )
    };
    // The screen with notes mode on: each button's own look is compared with it.
    let mut before =
        take_note_out(s, trial, order).map_err(|_| stuck("the note would not come out"))?;
    for &button in buttons {
        let what = format!("tapping the button at {},{}", button.x, button.y);
        s.tap(&[button])?;
        let (img, r) = enter_once_more(s, trial, order, &what)?;
        let own_look = changed_around(&before, &img, button, side) > 0.05;
        // The screen after this button's trial, the probe cell clear again.
        let now = match r.board.get(cell) {
            Some(d) if d == digit && own_look => {
                s.phone.say(&format!(
                    "notes mode was on in the app: switched it off with the button at {},{}",
                    button.x, button.y
                ));
                return Ok(button);
            }
            Some(d) if d == digit => {
                // Whole, but the button shows no state of its own (a hint?): not a toggle.
                bail!(
                    "{what} then entering {digit} put it into {cell} whole, but the button shows no on/off look: switch notes off in the app, erase {cell}, and re-run"
                )
            }
            Some(d) => bail!("{what} put {d} into {cell}; erase it in the app"),
            None if r.noted(cell) => {
                take_note_out(s, trial, order).map_err(|_| stuck("the note would not come out"))?
            }
            None => img,
        };
        before = if changed_around(&before, &now, button, side) > 0.05 {
            s.tap(&[button])?;
            s.look(&what)?.0
        } else {
            now
        };
    }
    Err(stuck(&format!(
        "none of the {} buttons near the keypad switched it off",
        buttons.len()
    )))
}

/// Enters the probe's digit once more after a button: cell then digit; number-first, the cell
/// alone (the digit is held), then digit and cell when the button let go of it.
fn enter_once_more(
    s: &mut Probe,
    trial: Trial,
    order: InputOrder,
    after: &str,
) -> Result<(RgbaImage, Recognition)> {
    let Trial { cell, at, key, .. } = trial;
    match order {
        InputOrder::CellFirst => s.tap(&[at, key])?,
        InputOrder::NumberFirst => {
            s.tap(&[at])?;
            let (img, r) = look_for_frame(s, after, cell, trial.digit)?;
            if r.board.get(cell).is_some() || r.noted(cell) {
                return Ok((img, r));
            }
            s.tap(&[key, at])?;
        }
    }
    look_for_frame(s, after, cell, trial.digit)
}

/// Takes the probe's pencil note out again (in notes mode the same taps toggle it off): the
/// digit is held by then in a number-first app, so the cell alone. Returns the screen after;
/// errs when the cell still shows anything.
fn take_note_out(s: &mut Probe, trial: Trial, order: InputOrder) -> Result<RgbaImage> {
    let Trial { cell, at, key, .. } = trial;
    match order {
        InputOrder::CellFirst => s.tap(&[at, key])?,
        InputOrder::NumberFirst => s.tap(&[at])?,
    }
    let (img, r) = s.look("taking the pencil note out")?;
    if r.board.get(cell).is_some() || r.readings[cell.index()].notes {
        bail!("{cell} still shows a mark");
    }
    Ok(img)
}

/// Notes: a toggle that makes the digit go in small. Cleared with erase, toggled back off.
pub(super) fn find_notes(
    s: &mut Probe,
    trial: Trial,
    order: InputOrder,
    erase: Point,
    toggles: &[Point],
) -> Result<Option<Point>> {
    let Trial { cell, at, key, .. } = trial;
    for &toggle in toggles {
        let enter = match order {
            InputOrder::CellFirst => vec![toggle, at, key],
            InputOrder::NumberFirst => vec![toggle, key, at],
        };
        s.tap(&enter)?;
        let (_, r) = s.look("trying the toggle as notes")?;
        let noted = r.noted(cell);
        if r.board.get(cell).is_some() || noted {
            s.tap(&with_button(order, trial, erase))?;
        }
        s.tap(&[toggle])?;
        let (_, r) = s.look("turning the toggle back off")?;
        if r.board.get(cell).is_some() || r.readings[cell.index()].notes {
            bail!("erase did not clear {cell} after trying notes; clear it in the app");
        }
        if noted {
            return Ok(Some(toggle));
        }
    }
    Ok(None)
}
