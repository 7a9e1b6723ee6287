//! Real screenshots read with NO calibration (`vision::read_any`): every screenshot whose grid
//! is found must read exactly as its MANIFEST grid or be refused; a wrong board is never
//! acceptable. The killer-sudoku shot must be refused. Prints one line per image.

use std::collections::HashMap;
use std::path::PathBuf;
use sudoku_agent::vision::{Hints, ReadError, VisionError, read_any};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|d| d.join("shared/real-screens"))
        .find(|d| d.is_dir())
        .unwrap_or_else(|| PathBuf::from("/work/shared/real-screens"))
}

fn manifest() -> Option<Vec<(String, String)>> {
    let text = std::fs::read_to_string(dir().join("MANIFEST.tsv")).ok()?;
    Some(
        text.lines()
            .skip(1)
            .filter_map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                Some((f.first()?.to_string(), f.get(5)?.to_string()))
            })
            .collect(),
    )
}

#[test]
fn real_screenshots_read_exactly_or_are_refused_without_calibration_never_wrong() {
    let Some(manifest) = manifest() else {
        eprintln!("skipped: {} is not on this machine", dir().display());
        return;
    };
    let mut wrong = Vec::new();
    let mut counts: HashMap<String, usize> = HashMap::new();
    for (name, truth) in &manifest {
        let img = image::open(dir().join(name)).unwrap().to_rgba8();
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
    let Some(manifest) = manifest() else {
        eprintln!("skipped: {} is not on this machine", dir().display());
        return;
    };
    let full = bank();
    let (mut exact, mut refused, mut wrong) = (0, 0, Vec::new());
    for (name, truth) in manifest.iter().filter(|(_, t)| t.len() == 81) {
        let img = image::open(dir().join(name)).unwrap().to_rgba8();
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
    let Some(manifest) = manifest() else {
        eprintln!("skipped: {} is not on this machine", dir().display());
        return;
    };
    let truth = &manifest.iter().find(|(n, _)| n == name).unwrap().1;
    let cwd = std::env::temp_dir().join(format!("no-calibration-{}", std::process::id()));
    std::fs::create_dir_all(&cwd).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-agent"))
        .args(["read", "--image"])
        .arg(dir().join(name))
        .current_dir(&cwd)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&cwd).unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.lines().next().unwrap(), truth.replace('0', "."));
}

#[test]
fn a_screen_whose_player_entries_break_a_rule_calibrates_and_reports_the_clash() {
    use sudoku_agent::calibrate::{CalibrateOptions, calibrate_image};
    let name = "opensudoku2_phone_dark_error_1080x2400.png";
    let path = dir().join(name);
    if !path.exists() {
        eprintln!("skipped: {} is not on this machine", path.display());
        return;
    }
    let img = image::open(path).unwrap().to_rgba8();
    let done = calibrate_image(
        &img,
        &CalibrateOptions {
            profile: "t".into(),
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e:#}"));
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
