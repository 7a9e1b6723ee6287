//! `profiles` (list, show, remove the stored profiles) and `calibration_for`, the one way
//! `play`, `visualize` and `read` on a phone (and each phone of `play --all`) get their
//! calibration: `--calibration FILE` when given, else the profile of the app on screen, learned
//! and stored when there is none, and learned again when it no longer reads the screen.

use crate::cli::{ProfilesAction, ProfilesArgs};
use crate::device::Device;
use crate::geometry::Size;
use crate::play::FirstRead;
use crate::profile::calibration::{Calibration, InputOrder};
use crate::profile::fit::{self, Verdict};
use crate::profile::learn::learn;
use crate::profile::{ProfileKey, Store};
use crate::vision::{Recognition, Templates};
use anyhow::{Context, Result};
use image::RgbaImage;
use std::path::Path;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Instant;

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
    /// The screenshot the choice was checked on and its read, for `play` to start from.
    pub first: Option<FirstRead>,
}

/// [`calibration_for`], with `who` (e.g. "SERIAL: ") before every line it prints, for
/// `--all`. A stored profile that no longer reads the screen (an app update moved the grid or
/// the keypad, a theme changed the digits) is learned again, once, saying so in one line; one
/// made on another screen size of the same app is fitted to this one when this screen's grid and
/// keys allow (one line), else the app is learned at this size. A calibration file of another
/// size is fitted the same way, or refused.
pub(super) fn profile_for(
    device: &mut dyn Device,
    explicit: Option<&Path>,
    who: &str,
) -> Result<Chosen> {
    if let Some(path) = explicit {
        let (calibration, templates) = load_file(path)?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        return explicit_fitted(device, calibration, templates, name, who);
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
            let shot = Shot::take(device)?;
            match fit::check(&shot.image, &profile.calibration, &profile.templates) {
                Verdict::Fits(rec) => {
                    log::info!("using profile {name} ({})", profile.path.display());
                    return Ok(Chosen {
                        first: Some(shot.read(*rec)),
                        calibration: profile.calibration,
                        templates: profile.templates,
                        name,
                    });
                }
                // Not the profile's fault (an ad, a menu): play says so itself.
                Verdict::Unreadable(_) => {
                    log::info!("using profile {name} ({})", profile.path.display());
                    return Ok(Chosen {
                        calibration: profile.calibration,
                        templates: profile.templates,
                        name,
                        first: None,
                    });
                }
                Verdict::Stale(why) => {
                    format!("profile {name} no longer reads this screen ({why}): learning it again")
                }
            }
        }
        None => match store.find_other_size(&key)? {
            Some(other) => {
                let shot = Shot::take(device)?;
                match fit::fit_to_screen(&shot.image, &other.calibration, &other.templates) {
                    Ok((calibration, rec)) => {
                        let path = store.save(&key, &calibration, &other.templates)?;
                        errln!(
                            "{who}fitted profile {} to this {screen} screen (grid and keys found on it): stored as {name} in {}",
                            other.name,
                            path.display()
                        );
                        return Ok(Chosen {
                            first: Some(shot.read(rec)),
                            calibration,
                            templates: other.templates,
                            name,
                        });
                    }
                    Err(why) => format!(
                        "no profile for {name}, and {} does not fit this screen ({why}): learning it on the phone",
                        other.name
                    ),
                }
            }
            None => format!("no profile for {name}: learning it on the phone"),
        },
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
        first: None,
    })
}

/// A calibration the user named: used as it is on its own screen size (the first read handed
/// on when it reads), fitted to this screen on another size when it fits, and refused when its
/// keypad is no longer where it taps (nothing is learned in its place: the file is the user's
/// choice).
fn explicit_fitted(
    device: &mut dyn Device,
    calibration: Calibration,
    templates: Templates,
    name: String,
    who: &str,
) -> Result<Chosen> {
    let shot = Shot::take(device)?;
    let size = Size::new(shot.image.width(), shot.image.height());
    if size != calibration.screen {
        match fit::fit_to_screen(&shot.image, &calibration, &templates) {
            Ok((fitted, rec)) => {
                errln!(
                    "{who}calibration {name} ({}) fitted to this {size} screen (grid and keys found on it)",
                    calibration.screen
                );
                return Ok(Chosen {
                    first: Some(shot.read(rec)),
                    calibration: fitted,
                    templates,
                    name,
                });
            }
            // Unfitted, it still reads (`read` takes any size) but play refuses to tap with it.
            Err(why) => {
                log::warn!("calibration {name} does not fit this {size} screen: {why}");
                return Ok(Chosen {
                    calibration,
                    templates,
                    name,
                    first: None,
                });
            }
        }
    }
    let first = match fit::check(&shot.image, &calibration, &templates) {
        Verdict::Fits(rec) => Some(shot.read(*rec)),
        Verdict::Stale(why) if why.starts_with("the keypad") => anyhow::bail!(
            "calibration {name} does not fit this screen ({why}); nothing was tapped: re-run `sudoku-agent calibrate`"
        ),
        // Play refuses an unreadable or moved board itself, naming why.
        Verdict::Stale(_) | Verdict::Unreadable(_) => None,
    };
    Ok(Chosen {
        calibration,
        templates,
        name,
        first,
    })
}

/// A screenshot and what taking it cost.
pub(super) struct Shot {
    pub image: RgbaImage,
    taken: Instant,
    capture_ms: f64,
}

impl Shot {
    pub(super) fn take(device: &mut dyn Device) -> Result<Shot> {
        let started = Instant::now();
        let image = device.screenshot().context("cannot take a screenshot")?;
        Ok(Shot {
            image,
            taken: Instant::now(),
            capture_ms: started.elapsed().as_secs_f64() * 1000.0,
        })
    }

    /// This screenshot with its read, for play to start from.
    pub(super) fn read(self, recognition: Recognition) -> FirstRead {
        FirstRead {
            read_ms: self.taken.elapsed().as_secs_f64() * 1000.0,
            screen: self.image,
            recognition,
            taken: self.taken,
            capture_ms: self.capture_ms,
        }
    }
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
