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
    assert!(
        counts.get("exact").copied().unwrap_or(0) >= 20,
        "{counts:?}"
    );
}
