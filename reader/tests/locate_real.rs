//! The grid finder and cell classifier on every real screenshot in `../shared/real-screens/`,
//! with no calibration: the grid must be found and the 81 cells' occupancy (big digit or not)
//! must match the MANIFEST exactly, which proves the grid is right without needing digit labels.
//! The killer-sudoku shot must be refused. Prints one line per image (grid, occupancy, the
//! given/entry split) so a failure names the image and the cells.

use crate::support::screens::{Screenshot, screenshots};
use sudoku_reader::stages::find_grid_and_cells;
use sudoku_reader::{ScreenCells, VisionError};

const WHO: &str = "the grid finder's real-screen tests (reader/tests/locate_real.rs)";

/// Cells whose occupancy differs from the truth (81 digits, '0' empty), as "r1c2=digit".
fn wrong_cells(screen: &ScreenCells, truth: &str) -> Vec<String> {
    screen
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
        .collect()
}

/// The screenshots of `shared/real-screens`, classic ones first, the killer-sudoku shot apart.
fn manifest() -> Option<(Vec<Screenshot>, Vec<Screenshot>)> {
    Some(
        screenshots(&["real-screens"], WHO)?
            .into_iter()
            .partition(Screenshot::classic),
    )
}

#[test]
fn every_real_screenshot_has_its_grid_found_and_its_occupied_cells_exactly_right() {
    let Some((classic, killer)) = manifest() else {
        return;
    };
    let mut failures = Vec::new();
    for shot in &classic {
        let (name, truth, img) = (&shot.name, &shot.truth, shot.image());
        match find_grid_and_cells(&img, None) {
            Err(e) => {
                eprintln!("{name:<48} grid NO   ({e})");
                failures.push(format!("{name}: {e}"));
            }
            Ok(screen) => {
                let wrong = wrong_cells(&screen, truth);
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
    for shot in &killer {
        let (name, img) = (&shot.name, shot.image());
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

/// A calibration made at one screen size must not stop reading at another: each screenshot is
/// rescaled (to 70% and, for small ones, 150%), read with the grid of the original size as a
/// stale hint, and must give the same occupancy. Every other screenshot, to keep debug test
/// time down; `VISION_LOCATE_ALL=1` takes them all.
#[test]
fn a_rescaled_screenshot_has_its_grid_refound_even_with_a_stale_hint() {
    let Some((classic, _)) = manifest() else {
        return;
    };
    let mut failures = Vec::new();
    let step = if std::env::var_os("VISION_LOCATE_ALL").is_some() {
        1
    } else {
        2
    };
    for shot in classic.iter().step_by(step) {
        let (name, truth, img) = (&shot.name, &shot.truth, shot.image());
        let Ok(original) = find_grid_and_cells(&img, None) else {
            failures.push(format!("{name}: no grid at its own size"));
            continue;
        };
        let scale = if img.width().min(img.height()) < 700 {
            1.5
        } else {
            0.7
        };
        let (w, h) = (
            (img.width() as f32 * scale) as u32,
            (img.height() as f32 * scale) as u32,
        );
        let small = image::imageops::resize(&img, w, h, image::imageops::FilterType::Triangle);
        match find_grid_and_cells(&small, Some(original.grid.rect())) {
            Ok(screen) => {
                let wrong = wrong_cells(&screen, truth);
                eprintln!("{name:<48} at {w}x{h}: {} wrong", wrong.len());
                if !wrong.is_empty() {
                    failures.push(format!("{name} at {w}x{h}: {}", wrong.join(" ")));
                }
            }
            Err(e) => failures.push(format!("{name} at {w}x{h}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
