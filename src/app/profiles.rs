//! `profiles` (list, show, remove the stored profiles) and `calibration_for`, the one way
//! `play`, `visualize` and `read` on a phone get their calibration: `--calibration FILE` when
//! given, else the profile of the app on screen, learned and stored when there is none.

use crate::calibration::{Calibration, InputOrder};
use crate::cli::{ProfilesAction, ProfilesArgs};
use crate::device::Device;
use crate::profile::learn::learn;
use crate::profile::{ProfileKey, Store};
use crate::vision::Templates;
use anyhow::{Context, Result};
use std::path::Path;
use std::process::ExitCode;

/// The calibration file read from a screenshot file when `--calibration` is not given.
pub(super) const DEFAULT_FILE: &str = "calibration.toml";

/// The calibration and templates to read and tap `device` with: `explicit` when given, else
/// the stored profile of the app on screen, else one learned now (one stderr line says what
/// and where it went).
pub(super) fn calibration_for(
    device: &mut dyn Device,
    explicit: Option<&Path>,
) -> Result<(Calibration, Templates)> {
    if let Some(path) = explicit {
        return load_file(path);
    }
    let package = device.foreground_app().unwrap_or_else(|e| {
        log::warn!("cannot tell which app is on screen ({e:#}); using the screen size alone");
        None
    });
    let screen = device
        .screen_size()
        .context("cannot read the screen size")?;
    let key = ProfileKey::new(package, screen);
    let store = Store::open_default()?;
    if let Some(profile) = store.find(&key)? {
        log::info!(
            "using profile {} ({})",
            profile.name,
            profile.path.display()
        );
        return Ok((profile.calibration, profile.templates));
    }
    errln!("no profile for {}: learning it on the phone", key.name());
    let learned = learn(device)?;
    let path = store.save(&key, &learned.calibration, &learned.templates)?;
    errln!(
        "learned {}: {}; stored in {}",
        key.name(),
        learned.summary(),
        path.display()
    );
    Ok((learned.calibration, learned.templates))
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
