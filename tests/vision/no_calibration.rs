//! Real screenshots read with NO calibration (`vision::read_any`), from both folders of
//! `../shared` (`real-screens` and `real-screens-2`, 61 screenshots of 32 apps): a classic
//! screenshot reads exactly as its MANIFEST grid or is refused (issue 24 wants every one exact;
//! the count read exactly may only grow), the killer-sudoku shot is refused, and a wrong board
//! is never acceptable. Where a MANIFEST's notes give a givens mask, the kind of
//! each digit is checked against it. Prints one line per image.

use crate::support::{self, outcome, shared};
use std::collections::HashMap;
use std::path::PathBuf;
use sudoku_agent::vision;
use sudoku_agent::vision::{CellKind, ReadError, VisionError};

const WHO: &str = "the no-calibration real-screen tests (tests/vision/no_calibration.rs)";

/// The folders of real screenshots, each with a MANIFEST.tsv in one format.
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

/// One screenshot of a MANIFEST: its path, name and 81 digits ('0' empty; fewer for a killer
/// sudoku), and its givens mask when the notes give one (81 of 'G' given, 'E' the player's
/// entry, '.' empty).
struct Screenshot {
    path: PathBuf,
    name: String,
    truth: String,
    mask: Option<String>,
}

/// Every screenshot of both folders; `None` (after saying so, or failing under CI) when one is
/// not on this machine.
fn screenshots() -> Option<Vec<Screenshot>> {
    let mut out = Vec::new();
    for folder in FOLDERS {
        let dir = shared::require(&format!("{folder}/MANIFEST.tsv"), WHO)?
            .parent()?
            .to_path_buf();
        let text = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split('\t').collect();
            let (Some(name), Some(truth)) = (f.first(), f.get(5)) else {
                continue;
            };
            let mask = f
                .get(7)
                .and_then(|n| n.split("givens_mask=").nth(1))
                .and_then(|m| m.get(..81))
                .filter(|m| m.bytes().all(|b| matches!(b, b'G' | b'E' | b'.')))
                .map(str::to_owned);
            out.push(Screenshot {
                path: dir.join(name),
                name: name.to_string(),
                truth: truth.to_string(),
                mask,
            });
        }
    }
    Some(out)
}

#[test]
fn real_screenshots_of_both_folders_read_exactly_without_calibration_never_wrong() {
    let Some(shots) = screenshots() else { return };
    let (mut wrong, mut killers_refused) = (Vec::new(), 0);
    let mut counts: HashMap<String, usize> = HashMap::new();
    for shot in &shots {
        let img = image::open(&shot.path).unwrap().to_rgba8();
        let result = vision::read(&img, None).result;
        let killer = shot.truth.len() != 81;
        let verdict = match (&result, killer) {
            (Err(ReadError::Vision(VisionError::Killer(_))), true) => "refused (killer)".into(),
            (Err(ReadError::Vision(VisionError::NoGrid(_))), _) => "no grid".to_string(),
            (Err(e), _) => format!("refused: {e}"),
            (Ok(rec), false) if rec.board.to_line().replace('.', "0") == shot.truth => {
                "exact".to_string()
            }
            (Ok(rec), _) => {
                let got = rec.board.to_line();
                wrong.push(format!("{}: read {got} expected {}", shot.name, shot.truth));
                format!("WRONG {got}")
            }
        };
        killers_refused += usize::from(verdict == "refused (killer)");
        let key = verdict.split([':', ' ']).next().unwrap_or("").to_string();
        *counts.entry(key).or_default() += 1;
        eprintln!("{:50} {verdict}", shot.name);
    }
    eprintln!("{counts:?}");
    assert!(wrong.is_empty(), "WRONG boards:\n{}", wrong.join("\n"));
    // Only the killer-sudoku shot is refused as killer; every other refusal is a classic board
    // not read. Issue 24 wants all of them exact, and all are.
    let classic = shots.iter().filter(|s| s.truth.len() == 81).count();
    let exact = counts.get("exact").copied().unwrap_or(0);
    assert!(classic >= 60, "{classic} classic screenshots");
    assert!(
        exact >= EXACT.min(classic),
        "{exact} of {classic} exact (was {EXACT}): {counts:?}"
    );
    assert_eq!(
        killers_refused,
        shots.len() - classic,
        "the killer-sudoku shot is refused as killer"
    );
}

/// Classic screenshots of both folders read exactly (of 60): all of them since helal's
/// handwritten digits drawn down to the lines are cut whole.
const EXACT: usize = 60;

/// Given/entry kinds, wherever a MANIFEST's givens mask says which digit is which: prints each
/// screenshot's digits whose kind differs from its mask letter. Issue 24 wants every kind right,
/// and every one is (a lone entry in the givens' ink on the empty cells' paper was the last).
#[test]
fn the_kinds_of_the_digits_read_match_the_manifests_givens_mask_on_most_screenshots() {
    let Some(shots) = screenshots() else { return };
    let right = kinds_right(&shots, "no calibration", |_, img| {
        vision::read(img, None).result.ok()
    });
    assert!(right >= RIGHT_KINDS, "{right} (was {RIGHT_KINDS})");
}

/// The kinds with a profile: each masked screenshot is calibrated on itself (as `play` learns
/// an app on its first screen) and read again with that calibration's hints, the calibrated
/// path's stored inks and all. A screenshot without some digit and no keypad to cut it from
/// cannot be calibrated on (calibrate says so): that is no kind read wrong.
#[test]
fn with_a_calibration_made_on_the_same_screen_every_kind_matches_the_givens_mask() {
    use sudoku_agent::calibrate::{CalibrateOptions, calibrate_image};
    let Some(shots) = screenshots() else { return };
    let options = CalibrateOptions {
        profile: "kinds".into(),
        ..Default::default()
    };
    let right = kinds_right(&shots, "its own calibration", |shot, img| {
        let done = calibrate_image(img, &options)
            .map_err(|e| eprintln!("{:50} not calibrated: {e:#}", shot.name))
            .ok()?;
        let hints = done.calibration.hints(&done.templates);
        let rec = vision::read(img, Some(&hints))
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

/// How many masked screenshots `read` (`None`: nothing read, not counted) gives every kind
/// right; prints each screenshot's wrong kinds, and fails when fewer than 16 were read.
fn kinds_right(
    shots: &[Screenshot],
    how: &str,
    read: impl Fn(&Screenshot, &image::RgbaImage) -> Option<vision::Recognition>,
) -> usize {
    let (mut checked, mut failures) = (0, Vec::new());
    for shot in shots {
        let Some(mask) = &shot.mask else { continue };
        let img = image::open(&shot.path).unwrap().to_rgba8();
        let Some(rec) = read(shot, &img) else {
            continue;
        };
        checked += 1;
        let bad = kinds_wrong(&rec, mask);
        eprintln!("{:50} {how}: {} kinds wrong", shot.name, bad.len());
        if !bad.is_empty() {
            failures.push(format!("{}: {}", shot.name, bad.join(", ")));
        }
    }
    let right = checked - failures.len();
    eprintln!("{how}: {right} of {checked} screenshots with every kind right");
    eprintln!("{}", failures.join("\n"));
    assert!(checked >= 16, "only {checked} screenshots with a mask read");
    right
}

/// Screenshots with a givens mask whose every kind was read right when the test was written
/// (of 16): raise it as the reader improves.
const RIGHT_KINDS: usize = 16;

/// Screenshots with a givens mask whose every kind a calibration made on the screen itself
/// reads right (of the 16 it calibrates on): all of them since a given in the selected cell's
/// reversed colours (Natalia's dark theme) hides its kind with a profile too.
const RIGHT_KINDS_CALIBRATED: usize = 16;

/// The cells of `rec` whose kind differs from `mask`'s letter ('G' given, 'E' entry, '.' empty).
fn kinds_wrong(rec: &vision::Recognition, mask: &str) -> Vec<String> {
    rec.readings
        .iter()
        .zip(mask.bytes())
        .filter_map(|(r, m)| {
            let want = match m {
                b'G' => CellKind::Given,
                b'E' => CellKind::Entry,
                _ => CellKind::Empty,
            };
            (r.kind != want).then(|| format!("{} {want:?} read {:?}", r.cell, r.kind))
        })
        .collect()
}

/// Unseen typefaces: for each screen, the bank loses the quarter of its typefaces that look most
/// like the screen's digits (the app's own font and its near relatives), and the whole reader
/// (the keypad as its second source, as a new user's first read has it) must still read the
/// board exactly, or refuse it, never wrong, and never refuse where it reads the board exactly
/// with the whole bank (both folders). Prints how many screens stay exact.
#[test]
fn without_the_typefaces_nearest_the_apps_font_the_reader_stays_exact_or_refuses() {
    use sudoku_agent::sudoku::Cell;
    use sudoku_agent::vision::bank::{bank, feature};
    use sudoku_agent::vision::{Hints, find_grid_and_cells, read};
    let Some(shots) = screenshots() else { return };
    let full = bank();
    let (mut exact, mut refused, mut wrong, mut lost) = (0, 0, Vec::new(), Vec::new());
    for shot in shots.iter().filter(|s| s.truth.len() == 81) {
        let (name, truth) = (&shot.name, &shot.truth);
        let img = image::open(&shot.path).unwrap().to_rgba8();
        let Ok(screen) = find_grid_and_cells(&img, None) else {
            continue;
        };
        let inks = screen.cells;
        // How like the screen's digits each typeface is, under the true labels of the cells
        // the search cut a digit from.
        let drawn: Vec<(Vec<f32>, u8)> = Cell::all()
            .filter_map(|c| {
                let patch = inks[c.index()].digit.as_ref()?;
                let d = truth.as_bytes()[c.index()]
                    .checked_sub(b'0')
                    .filter(|&d| d > 0)?;
                Some((feature(&patch.pixels), d))
            })
            .collect();
        if drawn.len() < 17 {
            continue;
        }
        let mut likeness: Vec<(f32, usize)> = (0..full.faces())
            .map(|f| {
                let s: f32 = drawn
                    .iter()
                    .map(|(a, d)| {
                        let b = full.feature_of(f, *d);
                        a.iter().zip(&b).map(|(x, y)| x * y).sum::<f32>()
                    })
                    .sum();
                (s, f)
            })
            .collect();
        likeness.sort_by(|a, b| b.0.total_cmp(&a.0));
        let drop: Vec<usize> = likeness[..full.faces() / 4].iter().map(|x| x.1).collect();
        let reduced = full.without(&drop);
        let board_of = |hints: Option<&Hints>| {
            read(&img, hints)
                .result
                .map(|rec| rec.board.to_line().replace('.', "0"))
        };
        let unseen = board_of(Some(&Hints {
            bank: Some(&reduced),
            ..Hints::default()
        }));
        let verdict = match unseen {
            Ok(board) if board == *truth => {
                exact += 1;
                "exact".to_string()
            }
            Ok(board) => {
                wrong.push(format!("{name}: read {board}"));
                "WRONG".to_string()
            }
            Err(e) => {
                refused += 1;
                // Screens the whole bank reads exactly must stay exact without their nearest
                // quarter.
                if board_of(None).is_ok_and(|b| b == *truth) {
                    lost.push(format!("{name}: {e}"));
                }
                format!("refused ({e})")
            }
        };
        eprintln!("{name:50} nearest quarter of typefaces left out: {verdict}");
    }
    eprintln!(
        "unseen-typeface check: {exact} exact, {refused} refused, {} wrong",
        wrong.len()
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(
        lost.is_empty(),
        "exact with every typeface, refused without the nearest quarter:\n{}",
        lost.join("\n")
    );
}

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
