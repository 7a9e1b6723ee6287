//! Profiles: what was learned about one app on one phone (today's `Calibration` with its digit
//! templates), kept in the user's config directory (the platform's convention through the
//! `directories` crate, or `$SUDOKU_AGENT_CONFIG_DIR`), one folder per app package and screen
//! size: `profiles/<package>-<W>x<H>/profile.toml` and `templates/1.png..9.png` beside it, so two
//! apps never share templates. `fit` checks one against the screen and carries one over from
//! another screen size; `remember` writes back what a run re-learned. Learning one is
//! `calibrate::learn`; the rule every command uses to pick one for a phone is `app::choose`,
//! beside the commands: this folder sits below both.

pub mod calibration;
pub mod fit;
pub mod remember;

pub use remember::{Source, remember_order};

use crate::device::Device;
use crate::geometry::Size;
use crate::profile::calibration::Calibration;
use anyhow::{Context, Result, bail};
use image::RgbaImage;
use std::path::{Path, PathBuf};
use sudoku_reader::{self, Hints, Seen, Templates};

/// Overrides the config directory (tests, portable installs).
pub const CONFIG_DIR_ENV: &str = "SUDOKU_AGENT_CONFIG_DIR";

/// The file of a profile inside its folder, and the templates folder next to it.
const FILE: &str = "profile.toml";
const TEMPLATES: &str = "templates";

/// Where the agent keeps its settings: `$SUDOKU_AGENT_CONFIG_DIR`, else the platform's config
/// directory (`~/.config/sudoku-agent` on Linux).
pub fn config_dir() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os(CONFIG_DIR_ENV).filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "sudoku-agent")
        .map(|p| p.config_dir().to_path_buf())
        .with_context(|| {
            format!("no home directory to keep profiles in; set {CONFIG_DIR_ENV} to a folder")
        })
}

/// One line when profiles have no home of the user's to go to (HOME unset and no
/// `$SUDOKU_AGENT_CONFIG_DIR`): where they go instead, or that none can be kept; `None` otherwise.
/// Without it they went silently to the account's home from the password database (/root).
pub fn config_dir_note() -> Option<String> {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    if set(CONFIG_DIR_ENV) || !cfg!(unix) || set("HOME") {
        return None;
    }
    Some(match config_dir() {
        Ok(dir) => format!(
            "HOME is not set: profiles are kept in {}; set {CONFIG_DIR_ENV} to keep them elsewhere",
            dir.join("profiles").display()
        ),
        Err(_) => format!(
            "HOME is not set and this account has no home folder: no profile can be kept; set {CONFIG_DIR_ENV} to a folder to keep them"
        ),
    })
}

/// Which app on which screen a profile is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileKey {
    /// The app's Android package (`unknown-app` when the phone did not say).
    pub package: String,
    pub screen: Size,
}

impl ProfileKey {
    pub fn new(package: Option<String>, screen: Size) -> ProfileKey {
        ProfileKey {
            package: package.unwrap_or_else(|| "unknown-app".to_string()),
            screen,
        }
    }

    /// The key of the app on `device`'s screen now: its package (when the phone says) and the
    /// screen size.
    pub fn of(device: &mut dyn Device) -> Result<ProfileKey> {
        let package = device.foreground_app().unwrap_or_else(|e| {
            log::warn!("cannot tell which app is on screen ({e:#}); using the screen size alone");
            None
        });
        let screen = device
            .screen_size()
            .context("cannot read the screen size")?;
        Ok(ProfileKey::new(package, screen))
    }

    /// The profile's name, also its folder: `package-WxH`.
    pub fn name(&self) -> String {
        format!("{}-{}", self.package, self.screen)
    }
}

/// What was learned about one app on one phone, loaded once: its calibration (grid, keypad,
/// input order, pacing, thresholds) and the digit templates cut from its screen. The one value
/// the commands pass around; it reads a screenshot the calibrated way ([`Profile::read`]), so no
/// caller builds the reader's hints by hand.
#[derive(Debug, Clone)]
pub struct Profile {
    pub calibration: Calibration,
    pub templates: Templates,
}

impl Profile {
    pub fn new(calibration: Calibration, templates: Templates) -> Profile {
        Profile {
            calibration,
            templates,
        }
    }

    /// What the reader is told of this profile: its templates, its grid place and thresholds.
    pub fn hints(&self) -> Hints<'_> {
        self.calibration.hints(&self.templates)
    }

    /// Reads `screen` with this profile (the fast calibrated path first; never a board whose
    /// grid moved from where the profile taps).
    pub fn read(&self, screen: &RgbaImage) -> Seen {
        sudoku_reader::read(screen, Some(&self.hints()))
    }

    /// Reads `screen`, which may be of another size than the profile's, for a caller that taps
    /// nothing: the profile's place where the sizes match, its templates alone elsewhere.
    pub fn read_any_size(&self, screen: &RgbaImage) -> Seen {
        sudoku_reader::read(screen, Some(&self.hints().any_size()))
    }

    /// Reads `screen` with the profile's templates alone, the grid searched anywhere: a screen
    /// of another size, where a rectangle scaled from the profile's can sit a few pixels off.
    pub fn read_templates_only(&self, screen: &RgbaImage) -> Seen {
        let hints = Hints {
            templates: Some(&self.templates),
            ..Hints::default()
        };
        sudoku_reader::read(screen, Some(&hints))
    }
}

/// A profile as stored: its name (also its folder), its `profile.toml`, and what it holds.
#[derive(Debug, Clone)]
pub struct Stored {
    pub name: String,
    pub profile: Profile,
    /// Its `profile.toml`.
    pub path: PathBuf,
}

/// The profiles folder.
#[derive(Debug, Clone)]
pub struct Store {
    root: PathBuf,
}

/// Refuses names that would leave the profiles folder (`..`, separators) or are empty.
fn check_name(name: &str) -> Result<()> {
    let plain = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\'])
        && !name.contains('\0');
    if !plain {
        bail!(
            "'{name}' is not a profile name (a plain name such as app.package-1080x2340); see `sudoku-agent profiles list`"
        );
    }
    Ok(())
}

impl Store {
    /// The profiles folder in the user's config directory.
    pub fn open_default() -> Result<Store> {
        Ok(Store::at(config_dir()?.join("profiles")))
    }

    pub fn at(root: impl Into<PathBuf>) -> Store {
        Store { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The `profile.toml` of the profile called `name`.
    pub fn file(&self, name: &str) -> Result<PathBuf> {
        check_name(name)?;
        Ok(self.root.join(name).join(FILE))
    }

    /// The profile for `key`, when one is stored.
    pub fn find(&self, key: &ProfileKey) -> Result<Option<Stored>> {
        let name = key.name();
        if !self.file(&name)?.is_file() {
            return Ok(None);
        }
        self.load(&name).map(Some)
    }

    /// A profile of the same app made on another screen size, when one is stored (the one of
    /// the closest shape first). An unknown app has none: its profiles may be other apps'.
    pub fn find_other_size(&self, key: &ProfileKey) -> Result<Option<Stored>> {
        if key.package == ProfileKey::new(None, key.screen).package {
            return Ok(None);
        }
        let prefix = format!("{}-", key.package);
        let aspect = |s: Size| s.height as f32 / s.width.max(1) as f32;
        let mut sizes: Vec<(Size, String)> = self
            .list()?
            .into_iter()
            .filter_map(|name| {
                let (w, h) = name.strip_prefix(&prefix)?.split_once('x')?;
                let size = Size::new(w.parse().ok()?, h.parse().ok()?);
                (size != key.screen).then_some((size, name))
            })
            .collect();
        sizes.sort_by(|a, b| {
            let d = |s: Size| (aspect(s) - aspect(key.screen)).abs();
            d(a.0).total_cmp(&d(b.0)).then(a.1.cmp(&b.1))
        });
        match sizes.first() {
            Some((_, name)) => self.load(name).map(Some),
            None => Ok(None),
        }
    }

    /// The profile called `name`.
    pub fn load(&self, name: &str) -> Result<Stored> {
        let path = self.file(name)?;
        if !path.is_file() {
            bail!("no profile '{name}'; `sudoku-agent profiles list` shows the stored ones");
        }
        let calibration = Calibration::read(&path)?;
        let templates = Templates::load(&calibration.templates_at(&path))?;
        Ok(Stored {
            name: name.to_string(),
            profile: Profile::new(calibration, templates),
            path,
        })
    }

    /// Stores `calibration` and `templates` as the profile for `key` (replacing one there);
    /// returns its `profile.toml`.
    pub fn save(&self, key: &ProfileKey, profile: &Profile) -> Result<PathBuf> {
        let name = key.name();
        let path = self.file(&name)?;
        let templates = &profile.templates;
        let mut cal = profile.calibration.clone();
        cal.profile = name;
        cal.templates_dir = TEMPLATES.to_string();
        templates.save(&cal.templates_at(&path))?;
        cal.save(&path)?;
        Ok(path)
    }

    /// The names of the stored profiles, sorted.
    pub fn list(&self) -> Result<Vec<String>> {
        let entries = match std::fs::read_dir(&self.root) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => {
                return Err(e).with_context(|| format!("cannot list {}", self.root.display()));
            }
        };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.path().join(FILE).is_file())
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        names.sort();
        Ok(names)
    }

    /// Deletes the profile called `name` (its folder); returns the folder.
    pub fn remove(&self, name: &str) -> Result<PathBuf> {
        let path = self.file(name)?;
        if !path.is_file() {
            bail!("no profile '{name}'; `sudoku-agent profiles list` shows the stored ones");
        }
        let dir = self.root.join(name);
        std::fs::remove_dir_all(&dir)
            .with_context(|| format!("cannot remove {}", dir.display()))?;
        Ok(dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Rect;
    use crate::profile::calibration::{FORMAT_VERSION, InputOrder, Thresholds};

    /// A calibration for store tests (no keypad).
    pub(super) fn calibration() -> Calibration {
        Calibration {
            format_version: FORMAT_VERSION,
            profile: "x".into(),
            templates_dir: "elsewhere".into(),
            input_order: InputOrder::NumberFirst,
            screen: Size::new(720, 1280),
            grid: Rect::new(10, 200, 700, 700),
            keypad: None,
            thresholds: Thresholds {
                min_score: 0.7,
                min_margin: 0.05,
                given_ink: [0, 0, 0],
                entry_ink: None,
                kind_distance: 60.0,
                big_digit: None,
            },
            pacing: None,
        }
    }

    /// Nine templates, every pixel `fill`.
    pub(super) fn templates(fill: u8) -> Templates {
        let patch = vec![fill; sudoku_reader::stages::PATCH_W * sudoku_reader::stages::PATCH_H];
        Templates::new(std::array::from_fn(|_| Some(patch.clone())))
    }

    /// An empty store of its own under the temp dir.
    pub(super) fn temp_store(name: &str) -> Store {
        let dir = std::env::temp_dir().join(format!(
            "sudoku-agent-profile-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        Store::at(dir)
    }

    #[test]
    fn two_apps_on_one_screen_keep_their_own_calibration_and_templates() {
        let store = temp_store("two-apps");
        let size = Size::new(720, 1280);
        let a = ProfileKey::new(Some("com.one.sudoku".into()), size);
        let b = ProfileKey::new(Some("org.two.sudoku".into()), size);
        assert!(store.find(&a).unwrap().is_none());
        let path = store
            .save(&a, &Profile::new(calibration(), templates(10)))
            .unwrap();
        assert_eq!(
            path,
            store
                .root()
                .join("com.one.sudoku-720x1280")
                .join("profile.toml")
        );
        let mut other = calibration();
        other.input_order = InputOrder::CellFirst;
        store
            .save(&b, &Profile::new(other, templates(200)))
            .unwrap();
        let got_a = store.find(&a).unwrap().unwrap();
        let got_b = store.find(&b).unwrap().unwrap();
        assert_eq!(
            got_a.profile.calibration.input_order,
            InputOrder::NumberFirst
        );
        assert_eq!(got_b.profile.calibration.input_order, InputOrder::CellFirst);
        assert_eq!(got_a.profile.templates.get(1).unwrap()[0], 10);
        assert_eq!(got_b.profile.templates.get(1).unwrap()[0], 200);
        assert_eq!(got_a.profile.calibration.templates_dir, "templates");
        assert_eq!(
            store.list().unwrap(),
            vec!["com.one.sudoku-720x1280", "org.two.sudoku-720x1280"]
        );
        store.remove("com.one.sudoku-720x1280").unwrap();
        assert_eq!(store.list().unwrap(), vec!["org.two.sudoku-720x1280"]);
        assert!(store.remove("com.one.sudoku-720x1280").is_err());
        std::fs::remove_dir_all(store.root()).unwrap();
    }

    #[test]
    fn names_that_leave_the_profiles_folder_are_refused() {
        let store = temp_store("names");
        for bad in ["", "..", ".", "../x", "a/b", "a\\b"] {
            let err = store.file(bad).unwrap_err().to_string();
            assert!(err.contains("not a profile name"), "{bad}: {err}");
        }
        assert!(
            store.list().unwrap().is_empty(),
            "no folder yet is no profiles"
        );
    }

    #[test]
    fn a_profile_of_the_same_app_at_another_size_is_found_closest_shape_first() {
        let store = temp_store("other-size");
        let app = |w, h| ProfileKey::new(Some("com.one.sudoku".into()), Size::new(w, h));
        store
            .save(&app(720, 1280), &Profile::new(calibration(), templates(1)))
            .unwrap();
        let mut tall = calibration();
        tall.screen = Size::new(1080, 2400);
        store
            .save(&app(1080, 2400), &Profile::new(tall, templates(2)))
            .unwrap();
        store
            .save(
                &ProfileKey::new(Some("org.other".into()), Size::new(1080, 2340)),
                &Profile::new(calibration(), templates(3)),
            )
            .unwrap();
        let found = store.find_other_size(&app(1080, 2340)).unwrap().unwrap();
        assert_eq!(found.name, "com.one.sudoku-1080x2400");
        assert_eq!(found.profile.templates.get(1).unwrap()[0], 2);
        let none = ProfileKey::new(Some("net.third".into()), Size::new(1080, 2340));
        assert!(store.find_other_size(&none).unwrap().is_none());
        let unknown = ProfileKey::new(None, Size::new(720, 1280));
        assert!(store.find_other_size(&unknown).unwrap().is_none());
        std::fs::remove_dir_all(store.root()).unwrap();
    }

    #[test]
    fn an_unknown_app_still_gets_a_key_by_screen() {
        let key = ProfileKey::new(None, Size::new(1080, 2340));
        assert_eq!(key.name(), "unknown-app-1080x2340");
    }
}
