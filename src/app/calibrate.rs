//! `calibrate`: measures the app on a screenshot (and, with `--probe`, by tapping the phone) and
//! writes the calibration, its templates and an overlay.

use super::open::{load_screenshot, open_device};
use crate::calibrate::{CalibrateOptions, Calibrated, LabelSource, calibrate_image};
use crate::cli::{CalibrateArgs, InputOrderArg};
use crate::device::Device;
use crate::profile::calibration::InputOrder;
use anyhow::{Context, Result, bail};
use image::RgbaImage;
use std::process::ExitCode;

/// `calibrate`: measures the app on a screenshot and writes calibration, templates and overlay.
pub(super) fn run(args: CalibrateArgs) -> Result<ExitCode> {
    let (img, source, mut phone) = screen(&args)?;
    let opts = CalibrateOptions {
        profile: template_folder(&args),
        givens: args
            .givens
            .as_deref()
            .map(|g| crate::sudoku::Board::parse(g).map_err(|e| anyhow::anyhow!("--givens: {e}")))
            .transpose()?,
        erase: args.erase,
        notes: args.notes,
        input_order: match args.input_order {
            InputOrderArg::CellFirst => InputOrder::CellFirst,
            InputOrderArg::NumberFirst => InputOrder::NumberFirst,
        },
    };
    let mut done =
        calibrate_image(&img, &opts).with_context(|| format!("cannot calibrate on {source}"))?;
    if args.probe {
        let Some(phone) = phone.as_deref_mut() else {
            bail!("--probe needs a phone to tap (--device), not --image");
        };
        let found = crate::calibrate::probe::probe(phone, &done.calibration, &done.templates)
            .context("calibrate --probe")?;
        errln!(
            "probed with {} in {}: {} taps, {} screenshots",
            found.digit,
            found.cell,
            found.taps,
            found.screenshots
        );
        done.set_controls(&img, Some(found.erase), found.notes, found.input_order)?;
    }
    done.calibration.save(&args.out)?;
    let tdir = done.calibration.templates_dir(&args.out);
    done.templates.save(&tdir)?;
    let overlay = args.overlay.clone().unwrap_or_else(|| {
        let stem = args
            .out
            .file_stem()
            .map_or("calibration".into(), |s| s.to_string_lossy().into_owned());
        args.out.with_file_name(format!("{stem}-overlay.png"))
    });
    done.overlay
        .save(&overlay)
        .with_context(|| format!("cannot write overlay {}", overlay.display()))?;
    print_summary(&done, args.probe)?;
    outln!("wrote {}", args.out.display());
    outln!("wrote {}/1.png..9.png", tdir.display());
    outln!("wrote {}", overlay.display());
    Ok(ExitCode::SUCCESS)
}

/// The phone `calibrate` taps with `--probe`, when there is one.
type Phone = Option<Box<dyn Device>>;

/// The screenshot to calibrate on (`--image`, else the phone's screen), what to call it, and the
/// phone when there is one (for `--probe`).
fn screen(args: &CalibrateArgs) -> Result<(RgbaImage, String, Phone)> {
    Ok(match &args.image {
        Some(path) => (load_screenshot(path)?, path.display().to_string(), None),
        None => {
            let mut device = open_device(&args.device)?;
            let img = device
                .screenshot()
                .with_context(|| format!("cannot take a screenshot of {}", args.device.device))?;
            (
                img,
                format!("the screen of {}", args.device.device),
                Some(device),
            )
        }
    })
}

/// What was found, on stdout: grid, keypad and controls, the board and how it was labelled.
fn print_summary(done: &Calibrated, probed: bool) -> Result<()> {
    let cal = &done.calibration;
    let g = cal.grid;
    outln!(
        "grid: {}x{} at {},{} (cell {:.1} px) on a {} screen",
        g.width,
        g.height,
        g.x,
        g.y,
        done.grid.pitch(),
        cal.screen
    );
    match &cal.keypad {
        Some(k) => {
            let keys: Vec<String> = k
                .digits
                .iter()
                .enumerate()
                .map(|(d, p)| format!("{}@{},{}", d + 1, p.x, p.y))
                .collect();
            outln!("keypad: {}", keys.join(" "));
            if let Some(e) = k.erase {
                outln!("erase: {},{}", e.x, e.y);
            }
            if let Some(n) = k.notes {
                outln!("notes: {},{}", n.x, n.y);
            }
            if probed {
                let order = match cal.input_order {
                    InputOrder::CellFirst => "cell-first",
                    InputOrder::NumberFirst => "number-first",
                };
                outln!("input order: {order} (probed)");
            }
        }
        None => outln!("keypad: not found (this calibration can read boards but not tap digits)"),
    }
    let source = match done.labelled_by {
        LabelSource::Keypad => "labelled through the keypad glyphs",
        LabelSource::Givens => "labelled by --givens",
        LabelSource::Reader => "labelled by the reader without calibration",
    };
    let extra = if done.from_keypad.is_empty() {
        String::new()
    } else {
        let ds: Vec<String> = done.from_keypad.iter().map(|d| d.to_string()).collect();
        format!("; digits {} taken from keypad glyphs", ds.join(","))
    };
    outln!("board: {} ({source}{extra})", done.board.to_line());
    if !done.conflicts.is_empty() {
        let list: Vec<String> = done
            .conflicts
            .iter()
            .map(|(a, b, d)| format!("{d} in {a} and {b}"))
            .collect();
        outln!(
            "note: the board breaks the rules ({}): a player's mistake; calibrated anyway",
            list.join(", ")
        );
    }
    Ok(())
}

/// The template folder name: `--profile`, else the `--out` file's stem (`default` for the
/// shipped `calibration.toml`), so a calibration written to `other.toml` never overwrites the
/// templates of `calibration.toml`.
fn template_folder(args: &CalibrateArgs) -> String {
    if let Some(p) = &args.profile {
        return p.clone();
    }
    match args.out.file_stem().and_then(|s| s.to_str()) {
        Some("calibration") | None => "default".to_string(),
        Some(stem) => stem.to_string(),
    }
}
