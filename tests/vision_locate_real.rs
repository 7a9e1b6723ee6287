//! The grid finder and cell classifier on every real screenshot in `/work/shared/real-screens/`,
//! with no calibration: the grid must be found and the 81 cells' occupancy (big digit or not)
//! must match the MANIFEST exactly, which proves the grid is right without needing digit labels.
//! The killer-sudoku shot must be refused. Prints one line per image (grid, occupancy, the
//! given/entry split) so a failure names the image and the cells.

use std::path::PathBuf;
use sudoku_agent::vision::{VisionError, find_grid_and_cells};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|d| d.join("shared/real-screens"))
        .find(|d| d.is_dir())
        .unwrap_or_else(|| PathBuf::from("/work/shared/real-screens"))
}

/// (file name, 81 digits with '0' for empty) of each classic screenshot, and the killer shots.
fn manifest() -> Option<(Vec<(String, String)>, Vec<String>)> {
    let text = std::fs::read_to_string(dir().join("MANIFEST.tsv")).ok()?;
    let (mut classic, mut killer) = (Vec::new(), Vec::new());
    for l in text.lines().skip(1) {
        let f: Vec<&str> = l.split('\t').collect();
        let (Some(name), Some(grid)) = (f.first(), f.get(5)) else {
            continue;
        };
        if grid.len() == 81 {
            classic.push((name.to_string(), grid.to_string()));
        } else {
            killer.push(name.to_string());
        }
    }
    Some((classic, killer))
}

#[test]
fn every_real_screenshot_has_its_grid_found_and_its_occupied_cells_exactly_right() {
    let Some((classic, killer)) = manifest() else {
        eprintln!("skipped: {} is not on this machine", dir().display());
        return;
    };
    let mut failures = Vec::new();
    for (name, truth) in &classic {
        let img = image::open(dir().join(name)).unwrap().to_rgba8();
        match find_grid_and_cells(&img, None) {
            Err(e) => {
                eprintln!("{name:<48} grid NO   ({e})");
                failures.push(format!("{name}: {e}"));
            }
            Ok(screen) => {
                let wrong: Vec<String> = screen
                    .cells
                    .iter()
                    .zip(truth.bytes())
                    .enumerate()
                    .filter(|(_, (ink, t))| ink.digit.is_some() != (*t != b'0'))
                    .map(|(i, (ink, t))| {
                        let seen = if ink.digit.is_some() {
                            "digit"
                        } else {
                            "empty"
                        };
                        format!("r{}c{}={seen}(truth {})", i / 9 + 1, i % 9 + 1, t as char)
                    })
                    .collect();
                let r = screen.grid.rect();
                eprintln!(
                    "{name:<48} grid yes {}x{}@{},{}  occupancy {}  split {}",
                    r.width,
                    r.height,
                    r.x,
                    r.y,
                    if wrong.is_empty() {
                        "exact".to_string()
                    } else {
                        format!("WRONG {}", wrong.join(" "))
                    },
                    screen.split.summary(),
                );
                if !wrong.is_empty() {
                    failures.push(format!("{name}: {}", wrong.join(" ")));
                }
            }
        }
    }
    for name in &killer {
        let img = image::open(dir().join(name)).unwrap().to_rgba8();
        match find_grid_and_cells(&img, None) {
            Err(VisionError::Killer(n)) => eprintln!("{name:<48} refused as killer ({n} cells)"),
            other => failures.push(format!(
                "{name}: a killer sudoku must be refused, got {:?}",
                other.map(|s| s.grid.rect())
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
