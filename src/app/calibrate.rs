//! `calibrate`: measures the app on the screen (and, with `--probe`, by tapping the phone) and
//! keeps what it found where the next run looks for it: on a phone, the stored profile of the
//! app on screen (the one `play`, `visualize` and `read` pick); with `--out`, or from a
//! screenshot file (no app to key a profile on), a calibration file for `--calibration`. An
//! overlay picture shows what was found.

use super::choose::DEFAULT_FILE;
use super::open::{load_screenshot, open_device};
use crate::calibrate::{CalibrateOptions, Calibrated, LabelSource, calibrate_image, learn_from};
use crate::cli::{CalibrateArgs, InputOrderArg};
use crate::device::{Device, DeviceSpec};
use crate::phone::{Claim, claim, refuse_dark};
use crate::profile::calibration::InputOrder;
use crate::profile::{Profile, ProfileKey, Store};
use anyhow::{Context, Result, bail};
use image::RgbaImage;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Where calibrate keeps what it found.
enum Target {
    /// The profile of the app on the phone's screen now.
    Profile(ProfileKey),
    /// A calibration file, its templates in a folder next to it.
    File(PathBuf),
}

/// `calibrate`: measures the app and stores it as its profile, or writes a calibration file.
pub(super) fn run(args: CalibrateArgs) -> Result<ExitCode> {
    // The claim on the phone (one agent per phone) is held until calibrate ends.
    let (img, source, mut phone, _claim) = screen(&args)?;
    let target = target(&args, &mut phone)?;
    let opts = CalibrateOptions {
        profile: match &target {
            Target::Profile(key) => key.name(),
            Target::File(out) => template_folder(&args, out),
        },
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
    // The one way an app is learned: on a phone with --probe, as `play` learns it the first
    // time (calibrate on the screenshot, then probe); else the screenshot alone.
    let done = match (args.probe, phone.as_deref_mut()) {
        (false, _) => {
            calibrate_image(&img, &opts).with_context(|| format!("cannot calibrate on {source}"))?
        }
        (true, None) => bail!("--probe needs a phone to tap (--device), not --image"),
        (true, Some(phone)) => {
            let learned = learn_from(phone, &img, &opts)
                .with_context(|| format!("calibrate --probe on {source}"))?;
            let found = &learned.probed;
            errln!(
                "probed with {} in {}: {} taps, {} screenshots",
                found.digit,
                found.cell,
                found.taps,
                found.screenshots
            );
            learned.calibrated
        }
    };
    print_summary(&done, args.probe)?;
    match &target {
        Target::Profile(key) => store_profile(&done, key, args.overlay.as_deref()),
        Target::File(out) => write_file(&done, out, args.overlay.as_deref(), &args),
    }
}

/// Where this run keeps what it finds: `--out` when given; else on a phone the profile of the
/// app on its screen; else (`--image`, a `file:` device: no app to key a profile on)
/// `calibration.toml` here, as before profiles existed.
fn target(args: &CalibrateArgs, phone: &mut Phone) -> Result<Target> {
    if let Some(out) = &args.out {
        return Ok(Target::File(out.clone()));
    }
    let screenshot_file = matches!(args.device.device, DeviceSpec::File(_));
    match phone {
        Some(phone) if !screenshot_file => {
            if let Some(name) = &args.profile {
                bail!(
                    "--profile {name} names the templates folder of a calibration file: add --out FILE to write one (a phone's profile is named after its app and screen size)"
                );
            }
            ProfileKey::of(phone.as_mut()).map(Target::Profile)
        }
        _ => Ok(Target::File(PathBuf::from(DEFAULT_FILE))),
    }
}

/// Stores what was found as the profile for `key` (replacing the one there), the overlay in its
/// folder unless `overlay` says where.
fn store_profile(done: &Calibrated, key: &ProfileKey, overlay: Option<&Path>) -> Result<ExitCode> {
    let path = Store::open_default()?.save(
        key,
        &Profile::new(done.calibration.clone(), done.templates.clone()),
    )?;
    let folder = path.parent().unwrap_or(Path::new("."));
    let overlay = overlay.map_or_else(|| folder.join("overlay.png"), Path::to_path_buf);
    done.overlay
        .save(&overlay)
        .with_context(|| format!("cannot write overlay {}", overlay.display()))?;
    outln!(
        "stored profile {} in {}: play, visualize and read use it next (--out FILE writes a calibration file instead)",
        key.name(),
        path.display()
    );
    outln!("wrote {}", overlay.display());
    Ok(ExitCode::SUCCESS)
}

/// Writes the calibration file `out`, its templates and the overlay.
fn write_file(
    done: &Calibrated,
    out: &Path,
    overlay: Option<&Path>,
    args: &CalibrateArgs,
) -> Result<ExitCode> {
    done.calibration.save(out)?;
    let tdir = done.calibration.templates_at(out);
    done.templates.save(&tdir)?;
    let overlay = overlay.map_or_else(
        || {
            let stem = out
                .file_stem()
                .map_or("calibration".into(), |s| s.to_string_lossy().into_owned());
            out.with_file_name(format!("{stem}-overlay.png"))
        },
        Path::to_path_buf,
    );
    done.overlay
        .save(&overlay)
        .with_context(|| format!("cannot write overlay {}", overlay.display()))?;
    outln!("wrote {}", out.display());
    outln!("wrote {}/1.png..9.png", tdir.display());
    outln!("wrote {}", overlay.display());
    if args.out.is_none() {
        errln!(
            "a screenshot has no app to store a profile for: `--calibration {}` uses this file (on a phone, calibrate stores the app's profile)",
            out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The phone `calibrate` taps with `--probe`, when there is one.
type Phone = Option<Box<dyn Device>>;

/// The screenshot to calibrate on (`--image`, else the phone's screen), what to call it, the
/// phone when there is one (for `--probe`), and the claim on it: taken before the screenshot, so a
/// second agent on the phone exits at once and a dark screen is woken first.
fn screen(args: &CalibrateArgs) -> Result<(RgbaImage, String, Phone, Option<Claim>)> {
    Ok(match &args.image {
        Some(path) => (
            load_screenshot(path)?,
            path.display().to_string(),
            None,
            None,
        ),
        None => {
            let mut device = open_device(&args.device)?;
            let claimed = claim(device.as_mut(), "calibrate", &|line: &str| errln!("{line}"))?;
            let img = device
                .screenshot()
                .with_context(|| format!("cannot take a screenshot of {}", args.device.device))?;
            refuse_dark(device.as_ref(), &img)?;
            (
                img,
                format!("the screen of {}", args.device.device),
                Some(device),
                Some(claimed),
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
            let order = match cal.input_order {
                InputOrder::CellFirst => "cell-first",
                InputOrder::NumberFirst => "number-first",
            };
            if probed {
                outln!("input order: {order} (probed)");
            } else {
                outln!(
                    "input order: {order} (as given, not tried: `sudoku-agent calibrate --probe` finds it on the phone)"
                );
            }
        }
        None => outln!("keypad: not found (this calibration can read boards but not tap digits)"),
    }
    let source = match done.labelled_by {
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

/// The template folder name of the calibration file `out`: `--profile`, else the file's stem
/// (`default` for the shipped `calibration.toml`), so a calibration written to `other.toml`
/// never overwrites the templates of `calibration.toml`.
fn template_folder(args: &CalibrateArgs, out: &Path) -> String {
    if let Some(p) = &args.profile {
        return p.clone();
    }
    match out.file_stem().and_then(|s| s.to_str()) {
        Some("calibration") | None => "default".to_string(),
        Some(stem) => stem.to_string(),
    }
}
