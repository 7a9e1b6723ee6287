//! `profiles`: list, show or remove the stored profiles (how a command chooses one is
//! `app::choose`).

use crate::cli::{ProfilesAction, ProfilesArgs};
use crate::profile::Store;
use crate::profile::calibration::{Calibration, InputOrder};
use anyhow::Result;
use std::process::ExitCode;

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
                    Ok(p) => outln!(
                        "{name}\t{}\t{}",
                        describe(&p.profile.calibration),
                        p.path.display()
                    ),
                    Err(e) => outln!("{name}\tunusable: {e:#}"),
                }
            }
        }
        ProfilesAction::Show { name } => {
            let p = store.load(&name)?;
            outln!("# {}", p.path.display());
            print!("{}", p.profile.calibration.to_toml()?);
            outln!(
                "# templates: {}/1.png..9.png",
                p.profile.calibration.templates_at(&p.path).display()
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
