//! Writing back what a run re-learned about the app (the input order, from its first move) to
//! where its calibration came from, so that the next run starts from it: the stored profile is
//! updated; a calibration file the user named with `--calibration` is theirs and left as it is,
//! and the line names the command that updates it. Each call gives the one line to print.

use crate::profile::calibration::{Calibration, InputOrder};
use crate::profile::{ProfileKey, Store};
use std::path::PathBuf;

/// Where a run's calibration came from, which is where what it re-learns goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The stored profile of this app and screen size (found, fitted or learned now).
    Profile(ProfileKey),
    /// A calibration file the user named with `--calibration`.
    File(PathBuf),
}

/// Saves `order`, re-learned during a run, to `source`; returns the line that says where it
/// went (or why it was not saved). Never fails: the run's own outcome stands either way.
pub fn remember_order(source: &Source, order: InputOrder) -> String {
    match Store::open_default() {
        Ok(store) => remember_order_in(&store, source, order),
        Err(e) => not_saved(source, &e),
    }
}

/// [`remember_order`] with the profiles kept in `store`.
fn remember_order_in(store: &Store, source: &Source, order: InputOrder) -> String {
    let takes = describe(order);
    match source {
        Source::Profile(key) => {
            let saved = store.file(&key.name()).and_then(|path| {
                let mut cal = Calibration::read(&path)?;
                cal.input_order = order;
                cal.save(&path)?;
                Ok(path)
            });
            match saved {
                Ok(path) => format!(
                    "saved to profile {}: the app takes {takes} ({}); the next run starts with it",
                    key.name(),
                    path.display()
                ),
                Err(e) => not_saved(source, &e),
            }
        }
        Source::File(path) => format!(
            "the app takes {takes}; {} is left as it is (named by --calibration): `sudoku-agent calibrate --probe --out {}` updates it, or drop --calibration to use the app's profile",
            path.display(),
            path.display()
        ),
    }
}

/// The line when saving failed: the next run finds the order again from its first move.
fn not_saved(source: &Source, e: &anyhow::Error) -> String {
    let what = match source {
        Source::Profile(key) => format!("profile {}", key.name()),
        Source::File(path) => path.display().to_string(),
    };
    format!(
        "the re-learned input order was not saved to {what} ({e:#}); `sudoku-agent calibrate --probe` stores it"
    )
}

/// An input order in the words of the lines above.
fn describe(order: InputOrder) -> &'static str {
    match order {
        InputOrder::CellFirst => "the cell first, then the digit",
        InputOrder::NumberFirst => "the digit first, then the cell",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Size;
    use crate::profile::ProfileKey;
    use crate::profile::tests::{calibration, temp_store as store, templates};

    fn ordered(order: InputOrder) -> Calibration {
        Calibration {
            input_order: order,
            ..calibration()
        }
    }

    #[test]
    fn a_re_learned_order_is_written_to_the_stored_profile_and_said_in_one_line() {
        let store = store("remember-profile");
        let key = ProfileKey::new(Some("com.one.sudoku".into()), Size::new(720, 1280));
        store
            .save(
                &key,
                &crate::profile::Profile::new(ordered(InputOrder::NumberFirst), templates(7)),
            )
            .unwrap();
        let line = remember_order_in(&store, &Source::Profile(key.clone()), InputOrder::CellFirst);
        assert!(
            line.starts_with(
                "saved to profile com.one.sudoku-720x1280: the app takes the cell first"
            ),
            "{line}"
        );
        assert!(!line.contains('\n'), "{line}");
        let stored = store.find(&key).unwrap().unwrap();
        assert_eq!(
            stored.profile.calibration.input_order,
            InputOrder::CellFirst
        );
        assert_eq!(
            stored.profile.templates,
            templates(7),
            "the templates are kept"
        );
        std::fs::remove_dir_all(store.root()).unwrap();
    }

    #[test]
    fn a_calibration_file_is_left_alone_and_the_line_names_the_command_that_updates_it() {
        let store = store("remember-file");
        let path = store.root().join("mine.toml");
        ordered(InputOrder::NumberFirst).save(&path).unwrap();
        let before = std::fs::read(&path).unwrap();
        let line = remember_order_in(&store, &Source::File(path.clone()), InputOrder::CellFirst);
        assert_eq!(std::fs::read(&path).unwrap(), before);
        assert!(
            line.contains(&format!(
                "`sudoku-agent calibrate --probe --out {}`",
                path.display()
            )),
            "{line}"
        );
        std::fs::remove_dir_all(store.root()).unwrap();
    }

    #[test]
    fn a_profile_that_is_gone_is_not_saved_and_the_line_names_calibrate() {
        let store = store("remember-gone");
        let key = ProfileKey::new(Some("com.gone".into()), Size::new(720, 1280));
        let line = remember_order_in(&store, &Source::Profile(key), InputOrder::CellFirst);
        assert!(
            line.starts_with(
                "the re-learned input order was not saved to profile com.gone-720x1280"
            ) && line.ends_with("`sudoku-agent calibrate --probe` stores it"),
            "{line}"
        );
    }
}
