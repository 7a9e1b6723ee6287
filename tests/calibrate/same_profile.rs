//! One learning path: every simulated skin, learned through `calibrate --probe` and through a
//! first `play` (each from an empty config dir of its own, through the real adb server), gives
//! the same profile: the same grid, digit keys, input order and erase button, and templates
//! alike digit by digit.

use crate::support::{self, agent};
use std::path::{Path, PathBuf};
use sudoku_agent::profile::Profile;
use sudoku_agent::profile::calibration::Calibration;
use sudoku_reader::Templates;
use support::adb_server::{self, AdbServer};
use support::play_rig::{self as rig, SMALL_SIZE};

/// Templates of one digit this alike (normalised correlation) are the same drawing.
const ALIKE: f64 = 0.9;

/// Runs `sudoku-agent ARGS -P PORT -s SERIAL` on a fresh phone showing `skin`, from an empty
/// folder with an empty config dir, and loads the profile it stored.
fn learned_by(adb: &AdbServer, skin: &str, args: &[&str]) -> (Profile, PathBuf) {
    let config = support::temp_dir("same-profile-config");
    let folder = support::temp_dir("same-profile-folder");
    let sim = rig::serve_easy(skin, SMALL_SIZE, adb.addr());
    let (code, _, err) = support::outcome(
        agent()
            .current_dir(&folder)
            .env("SUDOKU_AGENT_CONFIG_DIR", &config)
            .args(args)
            .args(["-P", &adb.port().to_string(), "-s", &sim.serial()]),
    );
    assert_eq!(code, 0, "{skin}: {args:?}: {err}");
    let name = format!("{}-{SMALL_SIZE}", sim.with_screen(|p| p.skin().package()));
    let path = config.join("profiles").join(name).join("profile.toml");
    (load(&path), path)
}

fn load(path: &Path) -> Profile {
    let calibration = Calibration::load(path).unwrap_or_else(|e| panic!("{e:#}"));
    let templates = Templates::load(&calibration.templates_at(path)).unwrap();
    Profile::new(calibration, templates)
}

/// Normalised correlation of two equally sized grey patches (1: the same drawing).
fn correlation(a: &[u8], b: &[u8]) -> f64 {
    let mean = |p: &[u8]| p.iter().map(|&v| v as f64).sum::<f64>() / p.len() as f64;
    let (ma, mb) = (mean(a), mean(b));
    let (mut ab, mut aa, mut bb) = (0.0, 0.0, 0.0);
    for (&x, &y) in a.iter().zip(b) {
        let (x, y) = (x as f64 - ma, y as f64 - mb);
        ab += x * y;
        aa += x * x;
        bb += y * y;
    }
    ab / (aa * bb).sqrt().max(f64::MIN_POSITIVE)
}

/// What differs between the two profiles of `skin`, one line each (none: the same profile).
fn differences(skin: &str, calibrated: &Profile, played: &Profile) -> Vec<String> {
    let (c, p) = (&calibrated.calibration, &played.calibration);
    let mut wrong = Vec::new();
    if c.grid != p.grid {
        wrong.push(format!("{skin}: grid {:?} vs {:?}", c.grid, p.grid));
    }
    let keys = |cal: &Calibration| cal.keypad.as_ref().map(|k| (k.digits, k.erase));
    if keys(c) != keys(p) || keys(c).is_none() {
        wrong.push(format!("{skin}: keys {:?} vs {:?}", keys(c), keys(p)));
    }
    if c.input_order != p.input_order {
        wrong.push(format!(
            "{skin}: order {:?} vs {:?}",
            c.input_order, p.input_order
        ));
    }
    for d in 1..=9 {
        match (calibrated.templates.get(d), played.templates.get(d)) {
            (Some(a), Some(b)) if a.len() == b.len() => {
                let r = correlation(a, b);
                eprintln!("{skin}: digit {d} templates correlate {r:.4}");
                if r <= ALIKE {
                    wrong.push(format!("{skin}: digit {d} templates correlate {r:.3}"));
                }
            }
            (a, b) => wrong.push(format!(
                "{skin}: digit {d} template {:?} vs {:?} pixels",
                a.map(<[u8]>::len),
                b.map(<[u8]>::len)
            )),
        }
    }
    wrong
}

#[test]
fn every_skin_learned_by_calibrate_probe_and_by_a_first_play_gives_the_same_profile() {
    let adb = adb_server::shared();
    let mut wrong = Vec::new();
    for skin in sudoku_sim::Skin::names() {
        let (calibrated, at) = learned_by(&adb, skin, &["calibrate", "--probe"]);
        let (played, _) = learned_by(&adb, skin, &["play", "--dry-run"]);
        let found = differences(skin, &calibrated, &played);
        eprintln!(
            "{skin}: {} ({})",
            if found.is_empty() {
                "the same profile"
            } else {
                "profiles differ"
            },
            at.display()
        );
        wrong.extend(found);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
