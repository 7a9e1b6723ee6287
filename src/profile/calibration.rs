//! `calibration.toml`: everything measured about one app on one screen (screen size, grid
//! rectangle, keypad buttons, input order, digit templates, recognition thresholds, tap pacing).
//! Load, validate, save, and `check_frame` to refuse screenshots of another size or rotation.

use crate::device::Pacing;
use crate::geometry::{Point, Rect, Size};
use anyhow::{Context, Result, bail, ensure};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use sudoku_reader::Hints;
use sudoku_reader::Templates;
use sudoku_reader::stages::{Place, frame_mismatch};

/// The version written by this build; other versions are refused with a re-calibrate message.
pub const FORMAT_VERSION: u32 = 1;

/// Longest screen side accepted in a calibration (the largest screenshot read is as large).
pub const MAX_SCREEN_SIDE: u32 = crate::device::file::MAX_SCREENSHOT_SIDE;

/// Longest finger-down time in `[pacing]`: a second is already a long press in most apps.
pub const MAX_HOLD_MS: u32 = 1_000;

/// Longest gap or settle time in `[pacing]`: ten seconds per tap is already unusable.
pub const MAX_PAUSE_MS: u32 = 10_000;

/// A profile name is a plain name, used as a folder name: letters, digits, `-`, `_` and `.`,
/// 1 to 64 of them, not `.` or `..` and no separators, so `templates/<profile>/` stays inside
/// the templates folder (`--profile ../../../x` wrote outside it).
pub fn check_profile_name(name: &str) -> std::result::Result<(), String> {
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
    if name.is_empty() || name.len() > 64 {
        return Err(format!("'{name}' must be 1 to 64 characters long"));
    }
    if let Some(c) = name.chars().find(|&c| !plain(c)) {
        return Err(format!(
            "'{}' may hold only letters, digits, '-', '_' and '.', not {c:?}",
            name.escape_debug()
        ));
    }
    if name.starts_with('.') {
        return Err(format!("'{name}' must not start with '.'"));
    }
    Ok(())
}

/// `value` must be a finite number in `lo..=hi`; the error names `field`.
fn check_range(field: &str, value: f64, lo: f64, hi: f64) -> Result<()> {
    ensure!(
        value.is_finite() && (lo..=hi).contains(&value),
        "{field} = {value} must be a number from {lo} to {hi}"
    );
    Ok(())
}

/// `ms` must be at most `max` milliseconds; the error names `field`.
fn check_ms(field: &str, ms: u32, max: u32) -> Result<()> {
    ensure!(ms <= max, "{field} = {ms} must be at most {max} ms");
    Ok(())
}

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
#[serde(deny_unknown_fields)]
pub struct Keypad {
    /// Centres of the buttons for digits 1..=9, in order.
    pub digits: [Point; 9],
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub erase: Option<Point>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<Point>,
}

/// How digits are matched (`[recognition]`): vision's own type, handed to it with the grid.
pub use sudoku_reader::Thresholds;

// Unknown keys are refused rather than ignored: a misspelt `min_scor` would otherwise leave the
// default in force without a word.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Calibration {
    pub format_version: u32,
    /// Template profile name; the templates are in `templates/<profile>/` next to the file.
    pub profile: String,
    /// Template folder, relative to the calibration file (the TOML key is `templates`).
    #[serde(rename = "templates")]
    pub templates_dir: String,
    pub input_order: InputOrder,
    /// The screen size (portrait) everything below was measured on.
    pub screen: Size,
    pub grid: Rect,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keypad: Option<Keypad>,
    /// How digits are matched (the TOML table is `[recognition]`).
    #[serde(rename = "recognition")]
    pub thresholds: Thresholds,
    /// Tap timing for apps that need it; absent means the input method's own defaults, which
    /// suit ordinary apps (a hold on `input` turns every tap into a slower swipe).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pacing: Option<Pacing>,
}

impl Calibration {
    /// Reads and validates a calibration file the user names; an error says which command
    /// writes it.
    pub fn load(path: &Path) -> Result<Calibration> {
        Calibration::read(path).map_err(|e| {
            anyhow::anyhow!(
                "{e:#}; run `sudoku-agent calibrate --out {}` to write it",
                path.display()
            )
        })
    }

    /// Reads and validates a calibration file; an error names the file and what is wrong with
    /// it, and leaves the remedy to the caller (a stored profile is learned again).
    pub fn read(path: &Path) -> Result<Calibration> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read calibration {}", path.display()))?;
        let cal: Calibration = toml::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "calibration {} is not valid ({})",
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
    pub fn templates_at(&self, calibration_path: &Path) -> PathBuf {
        let base = calibration_path.parent().unwrap_or(Path::new("."));
        base.join(&self.templates_dir)
    }

    /// Checks every value's range (naming the field) and that the values make sense together.
    pub fn validate(&self) -> Result<()> {
        ensure!(
            self.format_version == FORMAT_VERSION,
            "format version {} is not {FORMAT_VERSION}",
            self.format_version
        );
        check_profile_name(&self.profile).map_err(|e| anyhow::anyhow!("profile: {e}"))?;
        let max = MAX_SCREEN_SIDE;
        ensure!(
            (1..=max).contains(&self.screen.width) && (1..=max).contains(&self.screen.height),
            "screen {} is not a phone screen (1 to {max} pixels a side)",
            self.screen
        );
        // Checked sums: a grid x near u32::MAX used to wrap and pass.
        let g = self.grid;
        let right = g.x.checked_add(g.width);
        let bottom = g.y.checked_add(g.height);
        ensure!(
            right.is_some_and(|r| r <= self.screen.width)
                && bottom.is_some_and(|b| b <= self.screen.height),
            "grid (x {}, y {}, width {}, height {}) does not fit the {} screen",
            g.x,
            g.y,
            g.width,
            g.height,
            self.screen
        );
        ensure!(
            g.width >= 45 && g.height >= 45,
            "grid {}x{} is too small (45 pixels a side at least)",
            g.width,
            g.height
        );
        let ratio = g.width as f64 / g.height as f64;
        ensure!(
            (0.85..=1.15).contains(&ratio),
            "grid {}x{} is not square",
            g.width,
            g.height
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
        let r = &self.thresholds;
        check_range("recognition.min_score", r.min_score, 0.0, 1.0)?;
        check_range("recognition.min_margin", r.min_margin, 0.0, 1.0)?;
        // The farthest two RGB colours can be is 255 * sqrt(3), about 441.7.
        check_range("recognition.kind_distance", r.kind_distance, 0.0, 442.0)?;
        if let Some(h) = r.big_digit {
            check_range("recognition.big_digit", h, 0.05, 1.0)?;
        }
        if let Some(p) = &self.pacing {
            check_ms("pacing.hold_ms", p.hold_ms, MAX_HOLD_MS)?;
            check_ms("pacing.gap_ms", p.gap_ms, MAX_PAUSE_MS)?;
            check_ms("pacing.settle_ms", p.settle_ms, MAX_PAUSE_MS)?;
        }
        ensure!(!self.templates_dir.is_empty(), "no template folder given");
        Ok(())
    }

    /// Refuses a screen of another size or orientation than the one calibrated.
    pub fn check_frame(&self, size: Size) -> Result<()> {
        match frame_mismatch(size, self.screen) {
            Some(why) => bail!("{why}"),
            None => Ok(()),
        }
    }

    /// The centre of `cell` on the calibrated grid: where a tap on it lands, and where its
    /// pixels are watched while the screen settles (the one formula for it).
    pub fn cell_centre(&self, cell: crate::sudoku::Cell) -> crate::geometry::Point {
        self.grid.grid_cell(cell.row(), cell.col()).center()
    }

    /// Most of a cell's side, to compare frames in (leaving out the grid lines around it).
    pub fn cell_side(&self) -> u32 {
        self.grid.width / 11
    }

    /// What the reader is told of this calibration (`sudoku_reader::read`): its templates, and its grid
    /// place and thresholds, which make the read fast and pin the grid to where it taps.
    pub fn hints<'a>(&'a self, templates: &'a Templates) -> Hints<'a> {
        Hints {
            templates: Some(templates),
            place: Some(Place {
                screen: self.screen,
                grid: self.grid,
                thresholds: &self.thresholds,
            }),
            ..Hints::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Calibration {
        Calibration {
            profile: "default".into(),
            templates_dir: "templates/default".into(),
            input_order: InputOrder::CellFirst,
            screen: Size::new(1080, 2340),
            grid: Rect::new(20, 400, 1040, 1040),
            keypad: Some(Keypad {
                digits: std::array::from_fn(|i| Point::new(60 + 110 * i as u32, 1800)),
                erase: Some(Point::new(300, 1650)),
                notes: None,
            }),
            ..crate::profile::tests::calibration()
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
        for (frame, says) in [
            (Size::new(2340, 1080), "rotated"),
            (Size::new(720, 1280), "720x1280"),
        ] {
            let err = cal.check_frame(frame).unwrap_err().to_string();
            assert!(err.contains(says) && err.contains("calibrate"), "{err}");
        }
    }

    #[test]
    fn a_keypad_button_inside_the_grid_is_invalid() {
        let mut cal = sample();
        cal.keypad.as_mut().unwrap().digits[0] = Point::new(500, 500);
        assert!(cal.validate().is_err());
    }

    /// Loads `text` as a calibration file and returns the error as the user would see it.
    fn load_error(text: &str) -> String {
        let dir = std::env::temp_dir().join(format!(
            "sudoku-agent-cal-{}-{:x}",
            std::process::id(),
            text.len() ^ text.bytes().map(usize::from).sum::<usize>() << 16
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("calibration.toml");
        std::fs::write(&path, text).unwrap();
        format!("{:#}", Calibration::load(&path).unwrap_err())
    }

    fn edited(from: &str, to: &str) -> String {
        let text = sample().to_toml().unwrap();
        assert!(text.contains(from), "{text}");
        text.replacen(from, to, 1)
    }

    #[test]
    fn a_grid_whose_edge_would_wrap_past_u32_max_is_refused_naming_the_grid() {
        let err = load_error(&edited("x = 20\n", "x = 4294967290\n"));
        assert!(
            err.contains("grid") && err.contains("does not fit"),
            "{err}"
        );
    }

    #[test]
    fn thresholds_that_are_nan_negative_or_infinite_are_refused_naming_the_field() {
        for (from, to, field) in [
            (
                "min_score = 0.7",
                "min_score = nan",
                "recognition.min_score",
            ),
            (
                "min_margin = 0.05",
                "min_margin = -0.05",
                "recognition.min_margin",
            ),
            (
                "kind_distance = 60.0",
                "kind_distance = inf",
                "recognition.kind_distance",
            ),
            (
                "kind_distance = 60.0",
                "kind_distance = nan",
                "recognition.kind_distance",
            ),
            (
                "kind_distance = 60.0",
                "kind_distance = -1.0",
                "recognition.kind_distance",
            ),
        ] {
            let err = load_error(&edited(from, to));
            assert!(err.contains(field), "{to}: {err}");
        }
    }

    #[test]
    fn unknown_keys_are_refused_naming_the_key() {
        let err = load_error(&edited(
            "min_score = 0.7",
            "min_scor = 0.9\nmin_score = 0.7",
        ));
        assert!(err.contains("min_scor"), "{err}");
        let err = load_error(&format!(
            "{}\nextra = 1\n",
            edited("[grid]", "[grid]\nz = 3")
        ));
        assert!(err.contains('z') && err.contains("unknown field"), "{err}");
    }

    #[test]
    fn a_huge_hold_time_is_refused_naming_the_field() {
        let text = format!(
            "{}\n[pacing]\nhold_ms = 4000000000\ngap_ms = 5\nsettle_ms = 100\n",
            sample().to_toml().unwrap()
        );
        let err = load_error(&text);
        assert!(err.contains("pacing.hold_ms"), "{err}");
    }

    #[test]
    fn a_profile_name_is_a_plain_name() {
        for good in ["default", "sudoku.com-dark", "App_2", "v1.2"] {
            assert_eq!(check_profile_name(good), Ok(()), "{good}");
        }
        for bad in [
            "",
            "..",
            ".",
            "../../../x",
            "a/b",
            "a\\b",
            ".hidden",
            "x y",
            "é",
            "a\nb",
        ] {
            assert!(check_profile_name(bad).is_err(), "{bad:?}");
        }
        let mut cal = sample();
        cal.profile = "../x".into();
        assert!(cal.validate().unwrap_err().to_string().contains("profile"));
    }
}
