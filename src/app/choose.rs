//! Which calibration a command uses on a phone: `--calibration FILE` when given (fitted to this
//! screen size when it can be), else the stored profile of the app on screen, learned and stored
//! when there is none, and learned again when it no longer reads the screen; for `play --all`
//! with calibrations given, the one that reads the phone's screen best ([`best_candidate`]).
//! Lines worth telling the user go to a `say` callback; the command layer prints them. It sits
//! beside the commands, above the profile store, `play` (whose first read it hands on) and
//! `calibrate` (which learns).

use crate::calibrate::{CalibrateOptions, learn};
use crate::device::Device;
use crate::geometry::Size;
use crate::play::FirstRead;
use crate::profile::calibration::Calibration;
use crate::profile::fit::{self, Verdict};
pub use crate::profile::remember::Source;
use crate::profile::{CONFIG_DIR_ENV, Profile, ProfileKey, Store, Stored, config_dir_note};
use anyhow::{Context, Result, anyhow, bail};
use image::RgbaImage;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use sudoku_reader::{Recognition, Templates};

/// The calibration file read from a screenshot file when `--calibration` is not given.
pub const DEFAULT_FILE: &str = "calibration.toml";

/// A calibration chosen for a phone, and what to call it in a table.
pub struct Chosen {
    pub profile: Profile,
    /// The profile's name, or the calibration file's.
    pub name: String,
    /// Where it came from, which is where what a run re-learns goes (see `remember`).
    pub source: Source,
    /// The screenshot the choice was checked on and its read, for `play` to start from.
    pub first: Option<FirstRead>,
}

/// The calibration and templates to read and tap `device` with: `explicit` when given, else
/// the stored profile of the app on screen, else one learned now (`say` is told what and where
/// it went). A stored profile that no longer reads the screen (an app update moved the grid or
/// the keypad, a theme changed the digits) is learned again, once, saying so in one line; one
/// made on another screen size of the same app is fitted to this one when this screen's grid and
/// keys allow (one line), else the app is learned at this size. A stored profile that cannot
/// be loaded (a damaged file or template) is learned again the same way. A calibration file of
/// another size is fitted the same way, or refused.
pub fn profile_for(
    device: &mut dyn Device,
    explicit: Option<&Path>,
    say: &dyn Fn(&str),
) -> Result<Chosen> {
    if let Some(path) = explicit {
        let profile = load_file(path)?;
        return explicit_fitted(device, profile, path, say);
    }
    let key = ProfileKey::of(device)?;
    let (name, screen) = (key.name(), key.screen);
    let store = Store::open_default()?;
    if let Some(note) = config_dir_note() {
        say(&note);
    }
    // Two phones of one app and size in `--all`: the second waits for the first to store the
    // profile, then uses it, instead of both probing and writing the same files.
    let lock = learning_lock(&name);
    let _learning = lock.lock().unwrap_or_else(|e| e.into_inner());
    let source = Source::Profile(key.clone());
    let found = store
        .find(&key)
        .map_err(|e| format!("profile {name} cannot be loaded ({e:#}): learning it again"));
    let why = match found {
        Err(why) => why,
        Ok(Some(stored)) => {
            let shot = Shot::take(device)?;
            match fit::check(&shot.image, &stored.profile) {
                Verdict::Fits(rec) => {
                    log::info!("using profile {name} ({})", stored.path.display());
                    return Ok(Chosen {
                        first: Some(shot.read(*rec)),
                        profile: stored.profile,
                        name,
                        source,
                    });
                }
                // Not the profile's fault (an ad, a menu): play says so itself.
                Verdict::Unreadable(_) => {
                    log::info!("using profile {name} ({})", stored.path.display());
                    return Ok(Chosen {
                        profile: stored.profile,
                        name,
                        source,
                        first: None,
                    });
                }
                Verdict::Stale(why) => {
                    format!("profile {name} no longer reads this screen ({why}): learning it again")
                }
            }
        }
        Ok(None) => match other_size(&store, &key) {
            Some(other) => {
                let shot = Shot::take(device)?;
                match fit::fit_to_screen(&shot.image, &other.profile) {
                    Ok((calibration, rec)) => {
                        let profile = Profile::new(calibration, other.profile.templates);
                        let stored = match store.save(&key, &profile) {
                            Ok(path) => format!("stored as {name} in {}", path.display()),
                            Err(e) => not_saved(&store, &e),
                        };
                        say(&format!(
                            "fitted profile {} to this {screen} screen (grid and keys found on it): {stored}",
                            other.name,
                        ));
                        return Ok(Chosen {
                            first: Some(shot.read(rec)),
                            profile,
                            name,
                            source,
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
    // A dark screen is said as such before learning reads it as "no grid".
    Shot::take(device)?;
    say(&why);
    let learned = learn(device, &CalibrateOptions::default())?;
    let profile = learned.profile();
    // A disk that will not take the profile does not stop the run: it plays with what it learned.
    let stored = match store.save(&key, &profile) {
        Ok(path) => format!("stored in {}", path.display()),
        Err(e) => not_saved(&store, &e),
    };
    say(&format!("learned {name}: {}; {stored}", learned.summary()));
    Ok(Chosen {
        profile,
        name,
        source,
        first: None,
    })
}

/// The end of the line saying a profile was learned or fitted when it could not be stored: that
/// this run goes on with it, and how to keep it next time.
fn not_saved(store: &Store, why: &anyhow::Error) -> String {
    format!(
        "could not save it in {} ({}): playing with what was learned; set {CONFIG_DIR_ENV} to a folder you can write to keep profiles there",
        store.root().display(),
        crate::error::one_line(&format!("{why:#}")),
    )
}

/// A profile of the same app on another screen size to fit to this one; one that cannot be
/// loaded is passed over (the app is learned at this size instead).
fn other_size(store: &Store, key: &ProfileKey) -> Option<Stored> {
    store.find_other_size(key).unwrap_or_else(|e| {
        log::warn!("{e:#}; learning the app at this size");
        None
    })
}

/// A calibration the user named: used as it is on its own screen size (the first read handed
/// on when it reads), fitted to this screen on another size when it fits, and refused when its
/// keypad is no longer where it taps (nothing is learned in its place: the file is the user's
/// choice).
fn explicit_fitted(
    device: &mut dyn Device,
    profile: Profile,
    path: &Path,
    say: &dyn Fn(&str),
) -> Result<Chosen> {
    let name = file_name(path);
    let source = Source::File(path.to_path_buf());
    let shot = Shot::take(device)?;
    let size = Size::new(shot.image.width(), shot.image.height());
    if size != profile.calibration.screen {
        match fit::fit_to_screen(&shot.image, &profile) {
            Ok((fitted, rec)) => {
                say(&format!(
                    "calibration {name} ({}) fitted to this {size} screen (grid and keys found on it)",
                    profile.calibration.screen
                ));
                return Ok(Chosen {
                    first: Some(shot.read(rec)),
                    profile: Profile::new(fitted, profile.templates),
                    name,
                    source,
                });
            }
            // Unfitted, it still reads (`read` takes any size) but play refuses to tap with it.
            Err(why) => {
                log::warn!("calibration {name} does not fit this {size} screen: {why}");
                return Ok(Chosen {
                    profile,
                    name,
                    source,
                    first: None,
                });
            }
        }
    }
    let first = match fit::check(&shot.image, &profile) {
        Verdict::Fits(rec) => Some(shot.read(*rec)),
        Verdict::Stale(why) if why.starts_with("the keypad") => bail!(
            "calibration {name} does not fit this screen ({why}); nothing was tapped: `sudoku-agent calibrate --probe --out {}` measures it again, or drop --calibration to use the app's profile",
            path.display()
        ),
        // Play refuses an unreadable or moved board itself, naming why.
        Verdict::Stale(_) | Verdict::Unreadable(_) => None,
    };
    Ok(Chosen {
        profile,
        name,
        source,
        first,
    })
}

/// A screenshot and what taking it cost.
pub struct Shot {
    pub image: RgbaImage,
    taken: Instant,
    capture_ms: f64,
}

impl Shot {
    pub fn take(device: &mut dyn Device) -> Result<Shot> {
        let started = Instant::now();
        let image = device.screenshot().context("cannot take a screenshot")?;
        // A black screenshot is a dark screen, never "no grid".
        crate::phone::refuse_dark(device, &image)?;
        Ok(Shot {
            image,
            taken: Instant::now(),
            capture_ms: started.elapsed().as_secs_f64() * 1000.0,
        })
    }

    /// This screenshot with its read, for play to start from.
    pub fn read(self, recognition: Recognition) -> FirstRead {
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
pub fn load_file(path: &Path) -> Result<Profile> {
    let cal = Calibration::load(path)?;
    let templates = Templates::load(&cal.templates_at(path))?;
    Ok(Profile::new(cal, templates))
}

/// A calibration file's name, for messages and tables.
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    )
}

/// A calibration `play --all` may use, with its templates.
pub struct Candidate {
    path: PathBuf,
    profile: Profile,
}

/// The calibrations named by `--calibration`: the file, or every `*.toml` in the folder.
pub fn candidates(path: &Path) -> Result<Vec<Candidate>> {
    let files: Vec<PathBuf> = if path.is_dir() {
        let mut v: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("cannot list {}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        v.sort();
        v
    } else {
        vec![path.to_path_buf()]
    };
    let loaded: Vec<Candidate> = files
        .into_iter()
        .map(|path| {
            let profile = load_file(&path)?;
            Ok(Candidate { path, profile })
        })
        .collect::<Result<_>>()?;
    if loaded.is_empty() {
        bail!(
            "no calibration (*.toml) in {}: run `sudoku-agent calibrate --out {}/APP.toml` for each app",
            path.display(),
            path.display()
        );
    }
    Ok(loaded)
}

/// The given calibration that reads this phone's screen best: its digits match its templates
/// most closely, and the grid sits where it was calibrated (apps can look alike).
pub fn best_candidate(device: &mut dyn Device, candidates: &[Candidate]) -> Result<Chosen> {
    let shot = Shot::take(device)?;
    // Only a calibration that fits (its templates are these digits, its grid and keys are
    // where it taps) is a candidate: another app's can read a board through the glyph bank.
    let (rec, chosen) = candidates
        .iter()
        .filter_map(|c| match fit::check(&shot.image, &c.profile) {
            Verdict::Fits(rec) => Some((match_score(&rec, &c.profile.calibration), rec, c)),
            _ => None,
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, rec, c)| (rec, c))
        .ok_or_else(|| {
            let folder = candidates
                .first()
                .and_then(|c| c.path.parent())
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            anyhow!(
                "none of the {} calibrations reads this phone's screen: `sudoku-agent calibrate --probe --out {}` adds its app, or drop --calibration to use each app's profile",
                candidates.len(),
                folder.join("APP.toml").display()
            )
        })?;
    Ok(Chosen {
        profile: chosen.profile.clone(),
        name: file_name(&chosen.path),
        source: Source::File(chosen.path.clone()),
        // Play starts from this screenshot and its read: no second capture before the first tap.
        first: Some(shot.read(*rec)),
    })
}

/// How closely a calibration matches a screen it could read: the mean template score of the
/// digits read, less a penalty per pixel the grid moved from where it was calibrated.
fn match_score(rec: &Recognition, cal: &Calibration) -> f32 {
    let digits: Vec<f32> = rec
        .readings
        .iter()
        .filter(|r| r.digit.is_some())
        .map(|r| r.score)
        .collect();
    let mean = digits.iter().sum::<f32>() / digits.len().max(1) as f32;
    let g = cal.grid;
    let offset = (rec.grid.xs[0] - g.x as f32).abs()
        + (rec.grid.ys[0] - g.y as f32).abs()
        + (rec.grid.xs[9] - (g.x + g.width) as f32).abs()
        + (rec.grid.ys[9] - (g.y + g.height) as f32).abs();
    mean - offset / 100.0
}
