//! Real screenshots read with NO calibration (`vision::read_any`): every screenshot whose grid
//! is found must read exactly as its MANIFEST grid or be refused; a wrong board is never
//! acceptable. The killer-sudoku shot must be refused. Prints one line per image.

use crate::support::{self, outcome, shared};
use std::collections::HashMap;
use sudoku_agent::vision::{Hints, ReadError, VisionError, read_any};

const WHO: &str = "the no-calibration real-screen tests (tests/vision/no_calibration.rs)";

/// (file name, 81 digits with '0' for empty, fewer for a killer sudoku) of each screenshot.
fn manifest() -> Option<Vec<(String, String)>> {
    let rows = shared::manifest(WHO)?;
    Some(
        rows.iter()
            .filter_map(|f| Some((f.first()?.clone(), f.get(5)?.clone())))
            .collect(),
    )
}

#[test]
fn real_screenshots_read_exactly_or_are_refused_without_calibration_never_wrong() {
    let Some(manifest) = manifest() else { return };
    let mut wrong = Vec::new();
    let mut counts: HashMap<String, usize> = HashMap::new();
    for (name, truth) in &manifest {
        let img = shared::real_screen(name);
        let result = read_any(&img, Hints::default());
        let killer = truth.len() != 81;
        let verdict = match (&result, killer) {
            (Err(ReadError::Vision(VisionError::Killer(_))), true) => "refused (killer)".into(),
            (Err(ReadError::Vision(VisionError::NoGrid(_))), _) => "no grid".to_string(),
            (Err(e), _) => format!("refused: {e}"),
            (Ok(rec), false) if rec.board.to_line().replace('.', "0") == *truth => {
                "exact".to_string()
            }
            (Ok(rec), _) => {
                let got = rec.board.to_line();
                wrong.push(format!("{name}: read {got} expected {truth}"));
                format!("WRONG {got}")
            }
        };
        let key = verdict.split([':', ' ']).next().unwrap_or("").to_string();
        *counts.entry(key).or_default() += 1;
        eprintln!("{name:50} {verdict}");
    }
    eprintln!("{counts:?}");
    assert!(wrong.is_empty(), "WRONG boards:\n{}", wrong.join("\n"));
    // Every classic screenshot reads exactly; only the killer-sudoku shot is refused.
    let classic = manifest.iter().filter(|(_, t)| t.len() == 81).count();
    assert_eq!(
        counts.get("exact").copied().unwrap_or(0),
        classic,
        "{counts:?}"
    );
    assert_eq!(
        counts.get("refused").copied().unwrap_or(0),
        manifest.len() - classic,
        "{counts:?}"
    );
}

/// Unseen typefaces: for each screen, the bank loses the quarter of its typefaces that look most
/// like the screen's digits (the app's own font and its near relatives), and the labels must
/// still be right or refused, never wrong. Prints how many screens stay exact.
#[test]
fn without_the_typefaces_nearest_the_apps_font_labels_stay_right_or_are_refused() {
    use sudoku_agent::sudoku::Cell;
    use sudoku_agent::vision::bank::{bank, feature};
    use sudoku_agent::vision::find_grid_and_cells;
    use sudoku_agent::vision::glyphs::label_with;
    let Some(manifest) = manifest() else { return };
    let full = bank();
    let (mut exact, mut refused, mut wrong) = (0, 0, Vec::new());
    for (name, truth) in manifest.iter().filter(|(_, t)| t.len() == 81) {
        let img = shared::real_screen(name);
        let Ok(screen) = find_grid_and_cells(&img, None) else {
            continue;
        };
        let inks = screen.cells;
        let cells: Vec<Cell> = Cell::all()
            .filter(|c| inks[c.index()].digit.is_some())
            .collect();
        if cells.len() < 17 {
            continue;
        }
        let patches: Vec<&[u8]> = cells
            .iter()
            .map(|c| inks[c.index()].digit.as_ref().unwrap().pixels.as_slice())
            .collect();
        let digits: Vec<u8> = cells
            .iter()
            .map(|c| truth.as_bytes()[c.index()] - b'0')
            .collect();
        // How like the screen's digits each typeface is, under the true labels.
        let mut likeness: Vec<(f32, usize)> = (0..full.faces())
            .map(|f| {
                let s: f32 = patches
                    .iter()
                    .zip(&digits)
                    .map(|(p, &d)| {
                        let a = feature(p);
                        let b = full.feature_of(f, d);
                        a.iter().zip(&b).map(|(x, y)| x * y).sum::<f32>()
                    })
                    .sum();
                (s, f)
            })
            .collect();
        likeness.sort_by(|a, b| b.0.total_cmp(&a.0));
        let drop: Vec<usize> = likeness[..full.faces() / 4].iter().map(|x| x.1).collect();
        let reduced = full.without(&drop);
        let labels = label_with(&reduced, &patches, &cells, &[]);
        let bad: Vec<String> = labels
            .iter()
            .zip(&digits)
            .zip(&cells)
            .filter(|((l, d), _)| l.sure && l.digit != **d)
            .map(|((l, d), c)| format!("{c}={d} read {}", l.digit))
            .collect();
        let unsure = labels.iter().filter(|l| !l.sure).count();
        let verdict = if !bad.is_empty() {
            wrong.push(format!("{name}: {}", bad.join(", ")));
            "WRONG".to_string()
        } else if unsure > 0 {
            refused += 1;
            format!("refused ({unsure} cells)")
        } else {
            exact += 1;
            "exact".to_string()
        };
        eprintln!("{name:50} nearest quarter of typefaces left out: {verdict}");
    }
    eprintln!(
        "unseen-typeface check: {exact} exact, {refused} refused, {} wrong",
        wrong.len()
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
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
