//! Real phone screenshots from public repositories (`../shared/real-screens/`): for each app,
//! calibrate on one screenshot, then every classic screenshot of that app must read exactly as
//! its MANIFEST grid; every screenshot with a sibling of the same app (MANIFEST app column)
//! reads exactly with a calibration made on the sibling, also rescaled to another resolution.
//! The killer-sudoku shot must be refused. Reads with no calibration are the reader's own tests
//! (`reader/tests/real_screens.rs`).

use crate::support::{self, shared};
use std::collections::HashMap;
use sudoku_agent::calibrate::{CalibrateOptions, LabelSource, calibrate_image};
use sudoku_agent::sudoku::Board;
use sudoku_reader::{ReadError, Recognition, VisionError};

const WHO: &str = "the real-screen tests (tests/vision/real_screens.rs)";

/// Each screenshot's 81 digits ('.' empty) by file name.
fn manifest() -> Option<HashMap<String, String>> {
    let rows = shared::manifest(WHO)?;
    Some(
        rows.iter()
            .filter_map(|f| Some((f.first()?.clone(), f.get(5)?.replace('0', "."))))
            .collect(),
    )
}

fn board(line: &str) -> Board {
    Board::parse(line).unwrap()
}

/// One app: the screenshot to calibrate on, whether its keypad is on screen to label the
/// templates (otherwise `--givens` from the manifest is used), and every screenshot to read.
struct App {
    calibrate_on: &'static str,
    keypad_labels: bool,
    reads: &'static [&'static str],
}

const APPS: &[App] = &[
    App {
        calibrate_on: "dan4am_fassor_test_image.png",
        keypad_labels: true,
        reads: &[
            "dan4am_fassor_test_image.png",
            "dan4am_fassor_tests_screen.png",
        ],
    },
    App {
        calibrate_on: "infinitechaos_sudokucom_ss1.jpg",
        keypad_labels: true,
        reads: &[
            "infinitechaos_sudokucom_ss1.jpg",
            "infinitechaos_sudokucom_ss2.jpg",
            "infinitechaos_sudokucom_ss4.jpg",
        ],
    },
    App {
        calibrate_on: "dolphywind_sudokucom_easy.png",
        keypad_labels: true,
        reads: &["dolphywind_sudokucom_easy.png"],
    },
    App {
        calibrate_on: "almass_volcano_screen.png",
        keypad_labels: true,
        reads: &["almass_volcano_screen.png"],
    },
    App {
        calibrate_on: "gameautomators_volcano_sudo.png",
        keypad_labels: true,
        reads: &["gameautomators_volcano_sudo.png"],
    },
    App {
        calibrate_on: "snlagr_sudoku-adb_screen.png",
        keypad_labels: true,
        reads: &["snlagr_sudoku-adb_screen.png"],
    },
    App {
        calibrate_on: "secuso_pfs_notes_portrait.png",
        keypad_labels: true,
        reads: &["secuso_pfs_notes_portrait.png"],
    },
    // No keypad in these frames: a GIF frame cropped above the keypad, a grid crop, a web crop.
    App {
        calibrate_on: "labuladong_autojs_app_L52_a.png",
        keypad_labels: false,
        reads: &["labuladong_autojs_app_L52_a.png"],
    },
    App {
        calibrate_on: "nabeeluppel_sudokucom_gridcrop.png",
        keypad_labels: false,
        reads: &["nabeeluppel_sudokucom_gridcrop.png"],
    },
    App {
        calibrate_on: "desktop_jehez_sudokucom_web.png",
        keypad_labels: false,
        reads: &["desktop_jehez_sudokucom_web.png"],
    },
];

/// One read of `what`, against its MANIFEST line `expected`: "ok" on stderr, or a line in
/// `failures`.
fn tally(
    read: Result<Recognition, ReadError>,
    expected: &str,
    what: &str,
    failures: &mut Vec<String>,
) {
    match read {
        Ok(rec) if rec.board.to_line() == expected => eprintln!("ok   {what}"),
        Ok(rec) => failures.push(format!(
            "WRONG {what}: read {} expected {expected}",
            rec.board.to_line()
        )),
        Err(e) => failures.push(format!("{what}: {e}")),
    }
}

#[test]
fn every_classic_real_screenshot_reads_exactly_after_one_calibration_per_app() {
    let Some(manifest) = manifest() else { return };
    let mut failures = Vec::new();
    for app in APPS {
        let img = shared::real_screen(app.calibrate_on);
        let opts = CalibrateOptions {
            profile: "test".into(),
            givens: (!app.keypad_labels).then(|| board(&manifest[app.calibrate_on])),
            ..Default::default()
        };
        let done = match calibrate_image(&img, &opts) {
            Ok(d) => d,
            Err(e) => {
                failures.push(format!("calibrate on {}: {e:#}", app.calibrate_on));
                continue;
            }
        };
        let expected_source = if app.keypad_labels {
            LabelSource::Reader
        } else {
            LabelSource::Givens
        };
        assert_eq!(done.labelled_by, expected_source, "{}", app.calibrate_on);
        for name in app.reads {
            let shot = shared::real_screen(name);
            let read = done.profile().read(&shot).result;
            tally(read, &manifest[*name], name, &mut failures);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_killer_sudoku_screenshot_is_refused_not_misread() {
    let killer = "libresudoku_killer_inprogress.jpg";
    let Some(_) = shared::require(&format!("real-screens/{killer}"), WHO) else {
        return;
    };
    let img = shared::real_screen(killer);
    let err = calibrate_image(&img, &CalibrateOptions::default()).unwrap_err();
    assert!(format!("{err:#}").contains("killer sudoku"), "{err:#}");
    let grid = sudoku_reader::stages::locate_grid(&img).unwrap();
    let err = sudoku_reader::read(&img, None).result.unwrap_err();
    assert!(
        matches!(err, sudoku_reader::ReadError::Vision(VisionError::Killer(n)) if n >= 12),
        "{err:?} at {:?}",
        grid.rect()
    );
}

#[test]
fn a_screenshot_of_another_size_than_calibrated_is_refused() {
    let Some(_) = manifest() else { return };
    let img = shared::real_screen("dan4am_fassor_test_image.png");
    let done = support::calibrate(&img);
    let other = shared::real_screen("infinitechaos_sudokucom_ss1.jpg");
    let err = done.profile().read(&other).result.unwrap_err();
    assert!(matches!(err, ReadError::WrongScreen(_)), "{err:?}");
    assert!(
        err.to_string().contains("re-run `sudoku-agent calibrate`"),
        "{err}"
    );
}

/// The app of each classic screenshot: the MANIFEST app column up to its first detail
/// (package, platform, theme), so "Open Sudoku 2 (org...), phone, dark" is "Open Sudoku 2".
fn apps_of_screens() -> Option<Vec<(String, String)>> {
    let rows = shared::manifest(WHO)?;
    Some(
        rows.iter()
            .filter_map(|f| {
                let (name, app, grid) = (f.first()?, f.get(4)?, f.get(5)?);
                let app = app.split(['(', ',', ';']).next()?.trim().to_lowercase();
                (grid.len() == 81).then(|| (name.clone(), app))
            })
            .collect(),
    )
}

/// Calibrates on `img`: through the keypad when it labels the digits, else with the board's
/// digits from the manifest as `--givens` (a frame with no keypad on it).
fn calibrate_either(
    img: &image::RgbaImage,
    truth: &str,
) -> Result<sudoku_agent::calibrate::Calibrated, String> {
    let keypad = CalibrateOptions {
        profile: "sibling".into(),
        ..Default::default()
    };
    calibrate_image(img, &keypad)
        .or_else(|_| {
            calibrate_image(
                img,
                &CalibrateOptions {
                    givens: Some(board(truth)),
                    ..keypad.clone()
                },
            )
        })
        .map_err(|e| format!("{e:#}"))
}

/// `img` scaled by `factor` (to another resolution of the same screen).
fn rescaled(img: &image::RgbaImage, factor: f32) -> image::RgbaImage {
    let (w, h) = (
        (img.width() as f32 * factor).round() as u32,
        (img.height() as f32 * factor).round() as u32,
    );
    image::imageops::resize(img, w, h, image::imageops::FilterType::Triangle)
}

#[test]
fn every_screenshot_with_a_sibling_reads_exactly_with_the_siblings_calibration_also_rescaled() {
    let (Some(manifest), Some(apps)) = (manifest(), apps_of_screens()) else {
        return;
    };
    let mut by_app: HashMap<&str, Vec<&str>> = HashMap::new();
    for (name, app) in &apps {
        by_app.entry(app).or_default().push(name);
    }
    let mut groups: Vec<Vec<&str>> = by_app.into_values().filter(|g| g.len() > 1).collect();
    groups.iter_mut().for_each(|g| g.sort());
    groups.sort();
    let (mut failures, mut reads) = (Vec::new(), 0);
    for group in &groups {
        // Each screenshot is read with the calibration of the next one in its group.
        let calibrated: Vec<_> = group
            .iter()
            .map(|n| calibrate_either(&shared::real_screen(n), &manifest[*n]))
            .collect();
        for (i, name) in group.iter().enumerate() {
            let j = (i + 1) % group.len();
            let sibling = group[j];
            let done = match &calibrated[j] {
                Ok(d) => d,
                Err(e) => {
                    failures.push(format!("calibrate on {sibling}: {e}"));
                    continue;
                }
            };
            let img = shared::real_screen(name);
            // Larger screens are read at two thirds of their size, small ones at one and a half.
            let factor = if img.width().min(img.height()) >= 900 {
                2.0 / 3.0
            } else {
                1.5
            };
            for (what, shot) in [
                ("as shot", img.clone()),
                ("rescaled", rescaled(&img, factor)),
            ] {
                reads += 1;
                let size = format!("{}x{}", shot.width(), shot.height());
                let read = done.profile().read_any_size(&shot).result;
                let said = format!("{name} {what} ({size}) with the calibration of {sibling}");
                tally(read, &manifest[*name], &said, &mut failures);
            }
        }
    }
    eprintln!("{reads} reads, {} failures", failures.len());
    assert!(groups.len() >= 6, "{groups:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// How `play` and `calibrate` learn an app (`calibrate::calibrate_image`): from the read of the
/// reader without calibration. Every real screenshot that reader reads
/// exactly is learned, and the learned calibration reads it back exactly through the one
/// calibrated reader.
#[test]
fn real_screenshots_the_reader_without_calibration_reads_are_learned_and_read_back() {
    let Some(manifest) = manifest() else { return };
    let mut names: Vec<&String> = manifest.keys().collect();
    names.sort();
    let (mut through_reader, mut by_calibrate) = (0, 0);
    let mut failures = Vec::new();
    for name in names {
        let truth = &manifest[name];
        if truth.len() != 81 {
            continue;
        }
        let img = shared::real_screen(name);
        if sudoku_reader::read(&img, None).result.map(|r| r.board) != Ok(board(truth)) {
            continue;
        }
        let done = match calibrate_image(&img, &CalibrateOptions::default()) {
            Ok(done) => done,
            Err(e) => {
                failures.push(format!("{name}: not learned: {e:#}"));
                continue;
            }
        };
        match done.labelled_by {
            LabelSource::Reader => through_reader += 1,
            _ => by_calibrate += 1,
        }
        match done.profile().read(&img).result {
            Ok(rec) if rec.board == board(truth) => {
                eprintln!(
                    "{name:50} learned ({:?}), reads back exactly",
                    done.labelled_by
                )
            }
            Ok(rec) => failures.push(format!("{name}: reads back {}", rec.board.to_line())),
            Err(e) => failures.push(format!("{name}: does not read back: {e}")),
        }
    }
    eprintln!(
        "learned through the reader without calibration: {through_reader}; by calibrate's own search: {by_calibrate}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        through_reader >= 20,
        "only {through_reader} through the reader"
    );
}
