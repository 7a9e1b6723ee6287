//! Real screenshots where the reader with no calibration meets the agent: a calibration made on
//! each masked screenshot of `../shared` (`real-screens` and `real-screens-2`) reads every kind
//! as its MANIFEST's givens mask says, `read` with no calibration file prints the board, and a
//! screen whose player entries break a rule calibrates and reports the clash. The reader's own
//! reads of the real screenshots are its tests (`reader/tests/real_screens.rs`).

use crate::support::screens::{kinds_right, screenshots};
use crate::support::{self, outcome, shared};
const WHO: &str = "the no-calibration real-screen tests (tests/vision/no_calibration.rs)";

/// The folders of real screenshots the calibrated kinds are checked on.
const FOLDERS: [&str; 2] = ["real-screens", "real-screens-2"];

/// (file name, 81 digits with '0' for empty, fewer for a killer sudoku) of each screenshot of
/// `shared/real-screens`.
fn manifest() -> Option<Vec<(String, String)>> {
    let rows = shared::manifest(WHO)?;
    Some(
        rows.iter()
            .filter_map(|f| Some((f.first()?.clone(), f.get(5)?.clone())))
            .collect(),
    )
}

/// The kinds with a profile: each masked screenshot is calibrated on itself (as `play` learns
/// an app on its first screen) and read again with that calibration's hints, the calibrated
/// path's stored inks and all. A screenshot without some digit and no keypad to cut it from
/// cannot be calibrated on (calibrate says so): that is no kind read wrong.
#[test]
fn with_a_calibration_made_on_the_same_screen_every_kind_matches_the_givens_mask() {
    use sudoku_agent::calibrate::{CalibrateOptions, calibrate_image};
    let Some(shots) = screenshots(&FOLDERS, WHO) else {
        return;
    };
    let options = CalibrateOptions {
        profile: "kinds".into(),
        ..Default::default()
    };
    let right = kinds_right(&shots, "its own calibration", |shot, img| {
        let done = calibrate_image(img, &options)
            .map_err(|e| eprintln!("{:50} not calibrated: {e:#}", shot.name))
            .ok()?;
        let rec = done
            .profile()
            .read(img)
            .result
            .unwrap_or_else(|e| panic!("{}: refused with its calibration: {e}", shot.name));
        assert_eq!(
            rec.board.to_line().replace('.', "0"),
            shot.truth,
            "{}",
            shot.name
        );
        Some(rec)
    });
    assert!(
        right >= RIGHT_KINDS_CALIBRATED,
        "{right} (was {RIGHT_KINDS_CALIBRATED})"
    );
}

/// Screenshots with a givens mask whose every kind a calibration made on the screen itself
/// reads right (of the 16 it calibrates on): all of them since a given in the selected cell's
/// reversed colours (Natalia's dark theme) hides its kind with a profile too.
const RIGHT_KINDS_CALIBRATED: usize = 16;

#[test]
fn read_with_no_calibration_file_prints_the_board() {
    let name = "dan4am_fassor_test_image.png";
    let Some(manifest) = manifest() else { return };
    let truth = &manifest.iter().find(|(n, _)| n == name).unwrap().1;
    let cwd = support::temp_dir("no-calibration");
    let path = shared::find("real-screens").unwrap().join(name);
    let (code, stdout, stderr) = outcome(
        support::agent()
            .arg("read")
            .arg("--image")
            .arg(path)
            .current_dir(&cwd),
    );
    std::fs::remove_dir_all(&cwd).unwrap();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout.lines().next().unwrap(), truth.replace('0', "."));
}

#[test]
fn a_screen_whose_player_entries_break_a_rule_calibrates_and_reports_the_clash() {
    let name = "opensudoku2_phone_dark_error_1080x2400.png";
    let Some(_) = shared::require(&format!("real-screens/{name}"), WHO) else {
        return;
    };
    let done = support::calibrate(&shared::real_screen(name));
    // The player's wrong 4 in r7c6 repeats the 4 in r7c8.
    assert!(
        done.conflicts
            .iter()
            .any(|(a, b, d)| *d == 4 && [a.to_string(), b.to_string()].contains(&"r7c6".into())),
        "{:?}",
        done.conflicts
    );
    assert_eq!(
        done.board.to_line().replace('.', "0"),
        "060001907100007230080000406018002004070040090900100780607004040051600009809300020"
    );
}
