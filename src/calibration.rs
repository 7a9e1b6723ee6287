//! `calibration.toml`: everything measured about one app on one screen (screen size, grid
//! rectangle, keypad buttons, input order, digit templates, recognition thresholds, tap pacing).
//! Load, validate, save, and `check_frame` to refuse screenshots of another size or rotation.

use crate::device::Pacing;
use crate::geometry::{Point, Rect, Size};
use anyhow::{Context, Result, bail, ensure};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The version written by this build; other versions are refused with a re-calibrate message.
pub const FORMAT_VERSION: u32 = 1;

/// Whether a digit is entered by tapping the cell then the digit, or the digit then the cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum InputOrder {
    #[default]
    CellFirst,
    NumberFirst,
}

/// The app's buttons outside the grid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Keypad {
    /// Centres of the buttons for digits 1..=9, in order.
    pub digits: [Point; 9],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub erase: Option<Point>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<Point>,
}

/// Where the digit templates live and how they are matched.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Recognition {
    /// Lowest correlation accepted for a digit.
    pub min_score: f64,
    /// Lowest lead of the best digit over the runner-up.
    pub min_margin: f64,
    /// Ink colour of the givens seen at calibration.
    pub given_ink: [u8; 3],
    /// Ink colour of player entries, when calibration saw some.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry_ink: Option<[u8; 3]>,
    /// Digits farther than this (RGB distance) from `given_ink` are player entries.
    pub kind_distance: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    pub format_version: u32,
    /// Template profile name; the templates are in `templates/<profile>/` next to the file.
    pub profile: String,
    /// Template folder, relative to the calibration file.
    pub templates: String,
    pub input_order: InputOrder,
    /// The screen size (portrait) everything below was measured on.
    pub screen: Size,
    pub grid: Rect,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keypad: Option<Keypad>,
    pub recognition: Recognition,
    /// Tap timing for apps that need it; absent means the input method's own defaults, which
    /// suit ordinary apps (a hold on `input` turns every tap into a slower swipe).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pacing: Option<Pacing>,
}

impl Calibration {
    /// Reads and validates a calibration file.
    pub fn load(path: &Path) -> Result<Calibration> {
        let text = std::fs::read_to_string(path).with_context(|| {
            format!(
                "cannot read calibration {}; run `sudoku-agent calibrate` first",
                path.display()
            )
        })?;
        let cal: Calibration = toml::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "calibration {} is not valid ({}); re-run `sudoku-agent calibrate`",
                path.display(),
                e.message()
            )
        })?;
        cal.validate()
            .with_context(|| format!("calibration {} is not usable", path.display()))?;
        Ok(cal)
    }

    /// Writes the file (creating its folder).
    pub fn save(&self, path: &Path) -> Result<()> {
        self.validate()?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        std::fs::write(path, self.to_toml()?)
            .with_context(|| format!("cannot write calibration {}", path.display()))
    }

    pub fn to_toml(&self) -> Result<String> {
        Ok(format!(
            "# Written by `sudoku-agent calibrate`; re-run it rather than editing by hand.\n{}",
            toml::to_string(self).context("cannot encode calibration")?
        ))
    }

    /// The template folder for a calibration loaded from `calibration_path`.
    pub fn templates_dir(&self, calibration_path: &Path) -> PathBuf {
        let base = calibration_path.parent().unwrap_or(Path::new("."));
        base.join(&self.templates)
    }

    /// Checks that the values make sense together.
    pub fn validate(&self) -> Result<()> {
        ensure!(
            self.format_version == FORMAT_VERSION,
            "format version {} is not {FORMAT_VERSION}; re-run `sudoku-agent calibrate`",
            self.format_version
        );
        ensure!(
            self.grid.width >= 45 && self.grid.height >= 45 && self.grid.fits_in(self.screen),
            "grid {:?} does not fit a {} screen",
            self.grid,
            self.screen
        );
        let ratio = self.grid.width as f64 / self.grid.height as f64;
        ensure!(
            (0.85..=1.15).contains(&ratio),
            "grid {:?} is not square",
            self.grid
        );
        if let Some(k) = &self.keypad {
            let inside = |p: &Point| p.x < self.screen.width && p.y < self.screen.height;
            let all = k.digits.iter().chain(&k.erase).chain(&k.notes);
            for p in all {
                ensure!(
                    inside(p),
                    "keypad button {p:?} is off the {} screen",
                    self.screen
                );
                ensure!(
                    !self.grid.contains(*p),
                    "keypad button {p:?} lies inside the grid"
                );
            }
        }
        let r = &self.recognition;
        ensure!(
            (0.0..=1.0).contains(&r.min_score) && (0.0..=1.0).contains(&r.min_margin),
            "recognition thresholds must lie in 0..1"
        );
        ensure!(!self.templates.is_empty(), "no template folder given");
        Ok(())
    }

    /// Refuses a screen of another size or orientation than the one calibrated.
    pub fn check_frame(&self, size: Size) -> Result<()> {
        if size == self.screen {
            return Ok(());
        }
        if size == Size::new(self.screen.height, self.screen.width) {
            bail!(
                "the screen is rotated ({size}, calibrated in {}); turn the phone back or re-run `sudoku-agent calibrate`",
                self.screen
            );
        }
        bail!(
            "the screen is {size} but the calibration was measured on {}; re-run `sudoku-agent calibrate` on this screen",
            self.screen
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Calibration {
        Calibration {
            format_version: FORMAT_VERSION,
            profile: "default".into(),
            templates: "templates/default".into(),
            input_order: InputOrder::CellFirst,
            screen: Size::new(1080, 2340),
            grid: Rect::new(20, 400, 1040, 1040),
            keypad: Some(Keypad {
                digits: std::array::from_fn(|i| Point::new(60 + 110 * i as u32, 1800)),
                erase: Some(Point::new(300, 1650)),
                notes: None,
            }),
            recognition: Recognition {
                min_score: 0.7,
                min_margin: 0.05,
                given_ink: [0, 0, 0],
                entry_ink: None,
                kind_distance: 60.0,
            },
            pacing: None,
        }
    }

    #[test]
    fn calibration_survives_a_toml_round_trip() {
        let cal = sample();
        let text = cal.to_toml().unwrap();
        let back: Calibration = toml::from_str(&text).unwrap();
        assert_eq!(back, cal);
    }

    #[test]
    fn another_screen_size_or_rotation_is_refused_with_a_recalibrate_hint() {
        let cal = sample();
        assert!(cal.check_frame(Size::new(1080, 2340)).is_ok());
        let rotated = cal
            .check_frame(Size::new(2340, 1080))
            .unwrap_err()
            .to_string();
        assert!(
            rotated.contains("rotated") && rotated.contains("calibrate"),
            "{rotated}"
        );
        let other = cal
            .check_frame(Size::new(720, 1280))
            .unwrap_err()
            .to_string();
        assert!(
            other.contains("720x1280") && other.contains("calibrate"),
            "{other}"
        );
    }

    #[test]
    fn a_keypad_button_inside_the_grid_is_invalid() {
        let mut cal = sample();
        cal.keypad.as_mut().unwrap().digits[0] = Point::new(500, 500);
        assert!(cal.validate().is_err());
    }
}
