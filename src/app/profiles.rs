//! `profiles` (list, show, remove the stored profiles) and `calibration_for`, the one way
//! `play`, `visualize` and `read` on a phone (and each phone of `play --all`) get their
//! calibration: `--calibration FILE` when given, else the profile of the app on screen, learned
//! and stored when there is none, and learned again when it no longer reads the screen.

use crate::calibration::{Calibration, InputOrder};
use crate::cli::{ProfilesAction, ProfilesArgs};
use crate::device::Device;
use crate::play::MIN_CLUES;
use crate::profile::learn::learn;
use crate::profile::{ProfileKey, Store};
use crate::vision::{Hints, Templates, read_any, read_board};
use anyhow::{Context, Result};
use image::RgbaImage;
use std::path::Path;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

/// The calibration file read from a screenshot file when `--calibration` is not given.
pub(super) const DEFAULT_FILE: &str = "calibration.toml";

/// The calibration and templates to read and tap `device` with: `explicit` when given, else
/// the stored profile of the app on screen, else one learned now (one stderr line says what
/// and where it went).
pub(super) fn calibration_for(
    device: &mut dyn Device,
    explicit: Option<&Path>,
) -> Result<(Calibration, Templates)> {
    let chosen = profile_for(device, explicit, "")?;
    Ok((chosen.calibration, chosen.templates))
}

/// A calibration chosen for a phone, and what to call it in a table.
pub(super) struct Chosen {
    pub calibration: Calibration,
    pub templates: Templates,
    /// The profile's name, or the calibration file's.
    pub name: String,
}

/// [`calibration_for`], with `who` (e.g. "SERIAL: ") before every line it prints, for
/// `--all`. A stored profile that no longer reads the screen (an app update moved the grid, a
/// theme changed the digits) is learned again, once, saying so in one line.
pub(super) fn profile_for(
    device: &mut dyn Device,
    explicit: Option<&Path>,
    who: &str,
) -> Result<Chosen> {
    if let Some(path) = explicit {
        let (calibration, templates) = load_file(path)?;
        return Ok(Chosen {
            calibration,
            templates,
            name: path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into(),
            ),
        });
    }
    let package = device.foreground_app().unwrap_or_else(|e| {
        log::warn!("cannot tell which app is on screen ({e:#}); using the screen size alone");
        None
    });
    let screen = device
        .screen_size()
        .context("cannot read the screen size")?;
    let key = ProfileKey::new(package, screen);
    let name = key.name();
    let store = Store::open_default()?;
    // Two phones of one app and size in `--all`: the second waits for the first to store the
    // profile, then uses it, instead of both probing and writing the same files.
    let lock = learning_lock(&name);
    let _learning = lock.lock().unwrap_or_else(|e| e.into_inner());
    let why = match store.find(&key)? {
        Some(profile) => {
            let shot = device.screenshot().context("cannot take a screenshot")?;
            match stale(&shot, &profile.calibration, &profile.templates) {
                None => {
                    log::info!("using profile {name} ({})", profile.path.display());
                    return Ok(Chosen {
                        calibration: profile.calibration,
                        templates: profile.templates,
                        name,
                    });
                }
                Some(why) => {
                    format!("profile {name} no longer reads this screen ({why}): learning it again")
                }
            }
        }
        None => format!("no profile for {name}: learning it on the phone"),
    };
    errln!("{who}{why}");
    let learned = learn(device)?;
    let path = store.save(&key, &learned.calibration, &learned.templates)?;
    errln!(
        "{who}learned {name}: {}; stored in {}",
        learned.summary(),
        path.display()
    );
    Ok(Chosen {
        calibration: learned.calibration,
        templates: learned.templates,
        name,
    })
}

/// The lock held while the profile `name` is looked up and, when missing, learned.
fn learning_lock(name: &str) -> Arc<Mutex<()>> {
    static LOCKS: Mutex<Vec<(String, Arc<Mutex<()>>)>> = Mutex::new(Vec::new());
    let mut locks = LOCKS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, l)) = locks.iter().find(|(n, _)| n == name) {
        return Arc::clone(l);
    }
    let l = Arc::new(Mutex::new(()));
    locks.push((name.to_string(), Arc::clone(&l)));
    l
}

/// Why a stored profile no longer fits the app on `screen`, when it does not: it cannot read a
/// board that the no-calibration reader can, or the grid is no longer where the profile has it
/// (the keypad learned with it would be off too). `None` also when nothing reads the screen (an
/// ad, a menu): that is not the profile's fault, and play says so itself.
fn stale(screen: &RgbaImage, cal: &Calibration, templates: &Templates) -> Option<String> {
    match read_board(screen, cal, templates) {
        // Fewer digits than any sudoku has: the profile's digit size or templates no longer see
        // this app's digits (an empty read is not a board).
        Ok(rec) if rec.board.filled_count() < MIN_CLUES => read_any(screen, Hints::default())
            .ok()
            .map(|_| format!("it sees only {} digits", rec.board.filled_count())),
        Ok(rec) => {
            let g = cal.grid;
            let moved = [
                rec.grid.xs[0] - g.x as f32,
                rec.grid.ys[0] - g.y as f32,
                rec.grid.xs[9] - (g.x + g.width) as f32,
                rec.grid.ys[9] - (g.y + g.height) as f32,
            ]
            .into_iter()
            .fold(0f32, |m, d| m.max(d.abs()));
            // A few pixels is the locator's own wobble; a fiftieth of the grid is a new layout.
            (moved > (g.width as f32 / 50.0).max(4.0)).then(|| {
                format!(
                    "the grid moved {moved:.0} px from {}x{} at {},{}",
                    g.width, g.height, g.x, g.y
                )
            })
        }
        Err(e) => read_any(screen, Hints::default())
            .ok()
            .map(|_| e.to_string()),
    }
}

/// A calibration file and the templates next to it.
pub(super) fn load_file(path: &Path) -> Result<(Calibration, Templates)> {
    let cal = Calibration::load(path)?;
    let templates = Templates::load(&cal.templates_dir(path))?;
    Ok((cal, templates))
}

/// `profiles`: list, show or remove stored profiles.
pub(super) fn run(args: ProfilesArgs) -> Result<ExitCode> {
    let store = Store::open_default()?;
    match args.action.unwrap_or(ProfilesAction::List) {
        ProfilesAction::List => {
            let names = store.list()?;
            if names.is_empty() {
                errln!(
                    "no profiles in {}; `play` learns the app on screen the first time",
                    store.root().display()
                );
            }
            for name in names {
                match store.load(&name) {
                    Ok(p) => outln!("{name}\t{}\t{}", describe(&p.calibration), p.path.display()),
                    Err(e) => outln!("{name}\tunusable: {e:#}"),
                }
            }
        }
        ProfilesAction::Show { name } => {
            let p = store.load(&name)?;
            outln!("# {}", p.path.display());
            print!("{}", p.calibration.to_toml()?);
            outln!(
                "# templates: {}/1.png..9.png",
                p.calibration.templates_dir(&p.path).display()
            );
        }
        ProfilesAction::Remove { name } => {
            let dir = store.remove(&name)?;
            outln!("removed {name} ({})", dir.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Input order and controls in a few words, for the list.
fn describe(cal: &Calibration) -> String {
    let order = match cal.input_order {
        InputOrder::CellFirst => "cell-first",
        InputOrder::NumberFirst => "number-first",
    };
    let erase = cal
        .keypad
        .as_ref()
        .and_then(|k| k.erase)
        .map_or("no erase".to_string(), |e| format!("erase {},{}", e.x, e.y));
    format!("{order}, {erase}")
}
