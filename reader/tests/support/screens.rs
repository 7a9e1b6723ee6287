//! The real screenshots of `../shared` (`real-screens`, `real-screens-2`, `real-screens-3`), each
//! folder with a MANIFEST.tsv in one format: file name, source repository, path in it, pixel
//! size, app, 81 digits ('0' empty; fewer for a killer sudoku), how the grid was read, notes
//! (which may hold a givens mask). Also how the kinds read compare with a mask. Shared by the
//! reader's tests and the agent's (which include this file).

use std::path::PathBuf;
use sudoku_reader::{CellKind, Recognition};

/// Every folder of real screenshots, in the order they were collected.
pub const ALL: [&str; 3] = ["real-screens", "real-screens-2", "real-screens-3"];

/// One screenshot of a MANIFEST: its path, name and 81 digits ('0' empty; fewer for a killer
/// sudoku), and its givens mask when the notes give one (81 of 'G' given, 'E' the player's
/// entry, '.' empty).
pub struct Screenshot {
    pub path: PathBuf,
    pub name: String,
    pub truth: String,
    pub mask: Option<String>,
}

impl Screenshot {
    /// The screenshot, decoded.
    pub fn image(&self) -> image::RgbaImage {
        image::open(&self.path)
            .unwrap_or_else(|e| panic!("{}: {e}", self.path.display()))
            .to_rgba8()
    }

    /// Whether it shows a classic 9x9 board (the MANIFEST gives 81 digits).
    pub fn classic(&self) -> bool {
        self.truth.len() == 81
    }
}

/// Every screenshot of `folders`; `None` (after saying so, or failing under CI) when one is not
/// on this machine.
pub fn screenshots(folders: &[&str], who: &str) -> Option<Vec<Screenshot>> {
    let mut out = Vec::new();
    for folder in folders {
        let dir = super::shared::require(&format!("{folder}/MANIFEST.tsv"), who)?
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

/// How many masked screenshots `read` (`None`: nothing read, not counted) gives every kind
/// right; prints each screenshot's wrong kinds, and fails when fewer than 16 were read.
pub fn kinds_right(
    shots: &[Screenshot],
    how: &str,
    read: impl Fn(&Screenshot, &image::RgbaImage) -> Option<Recognition>,
) -> usize {
    let (mut checked, mut failures) = (0, Vec::new());
    for shot in shots {
        let Some(mask) = &shot.mask else { continue };
        let Some(rec) = read(shot, &shot.image()) else {
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

/// The cells of `rec` whose kind differs from `mask`'s letter ('G' given, 'E' entry, '.' empty).
fn kinds_wrong(rec: &Recognition, mask: &str) -> Vec<String> {
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
