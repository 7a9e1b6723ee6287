//! Givens vs player entries on real screenshots whose MANIFEST notes say which digits are
//! givens: read with a calibration made on a screen of the same app in another theme (light
//! calibrated, dark read, and back), the givens must come out as the givens: a theme change or a
//! same-number highlight must not turn them into entries. Without calibration, the reader's own
//! tests check the same (`reader/tests/real_screens.rs`).

use crate::support::perturb::{Shot, shot};
use crate::support::shared;
use sudoku_agent::calibrate::{CalibrateOptions, Calibrated, calibrate_image};
use sudoku_reader::{CellKind, Recognition};

/// Material Sudoku, one puzzle in a light and a dark theme, each with a same-digit highlight.
const MATERIAL_GIVENS: &str =
    "910030000000600002070002054305000060006040100020000405850100040200004000000020086";
const LIGHT: &str = "materialsudoku_light_inprogress_1080x2160.png";
const DARK: &str = "materialsudoku_dark_inprogress_1080x2160.png";

const WHO: &str = "the kinds tests on real screenshots (tests/vision/kinds.rs)";

/// The screenshot `name` of `shared/real-screens`, decoded; `None` when it is not on this
/// machine, after saying so (under CI that fails the test instead).
fn real(name: &str) -> Option<Shot> {
    shared::require(&format!("real-screens/{name}"), WHO)?;
    shot(name)
}

/// `shot` calibrated as `calibrate` does by default.
fn calibrated(shot: &Shot) -> Calibrated {
    let options = CalibrateOptions {
        profile: "kinds".into(),
        ..Default::default()
    };
    calibrate_image(&shot.img, &options)
        .unwrap_or_else(|e| panic!("calibrate on {}: {e:#}", shot.name))
}

/// `to` read at any size with `cal`, the calibration made on `from`.
fn read_as(cal: &Calibrated, from: &Shot, to: &Shot) -> Recognition {
    cal.profile()
        .read_any_size(&to.img)
        .result
        .unwrap_or_else(|e| panic!("{} with {}'s calibration: {e}", to.name, from.name))
}

fn givens_line(rec: &Recognition) -> String {
    rec.givens().to_line().replace('.', "0")
}

fn entries(rec: &Recognition) -> Vec<String> {
    rec.readings
        .iter()
        .filter(|r| r.kind == CellKind::Entry)
        .map(|r| r.cell.clone())
        .collect()
}

#[test]
fn givens_stay_givens_when_a_calibration_from_the_other_theme_reads_the_screen() {
    let (Some(light), Some(dark)) = (real(LIGHT), real(DARK)) else {
        return;
    };
    let mut failures = Vec::new();
    for (from, to) in [
        (&light, &dark),
        (&dark, &light),
        (&light, &light),
        (&dark, &dark),
    ] {
        let done = calibrated(from);
        let rec = read_as(&done, from, to);
        assert_eq!(
            rec.board.to_line().replace('.', "0"),
            *to.truth.as_ref().unwrap()
        );
        eprintln!(
            "{} calibrated on {}: entries {:?}",
            to.name,
            from.name,
            entries(&rec)
        );
        if givens_line(&rec) != MATERIAL_GIVENS {
            failures.push(format!(
                "{} calibrated on {}: givens {} expected {MATERIAL_GIVENS}",
                to.name,
                from.name,
                givens_line(&rec)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Saku: givens in grey discs, entries bare, the picked digit (3) white on dark teal discs.
const SAKU: &str = "saku_inprogress_mistake_1080x2400.jpg";
const SAKU_GIVENS: &str =
    "003256098007189004090000125040020906008603451070940283080312047002500819164790502";

#[test]
fn digits_recoloured_by_a_same_number_highlight_are_never_called_entries() {
    let Some(s) = real(SAKU) else {
        return;
    };
    let free = sudoku_reader::read(&s.img, None).result.unwrap();
    let done = calibrated(&s);
    let calibrated = done.profile().read_any_size(&s.img).result.unwrap();
    eprintln!("{SAKU} no calibration: entries {:?}", entries(&free));
    assert_eq!(givens_line(&free), SAKU_GIVENS);
    assert_eq!(entries(&free), ["r3c1", "r7c1"]);
    // Whatever else it gets right, the calibrated reader must never call the highlighted givens
    // (white on dark teal) entries.
    eprintln!("{SAKU} calibrated: entries {:?}", entries(&calibrated));
    for (cell, (g, r)) in SAKU_GIVENS.bytes().zip(&calibrated.readings).enumerate() {
        assert!(
            g == b'0' || r.kind == CellKind::Given,
            "given r{}c{} read as {:?}",
            cell / 9 + 1,
            cell % 9 + 1,
            r.kind
        );
    }
}

/// Saku's finished board: the same puzzle, every digit bare and in one ink.
const SAKU_DONE: &str = "saku_completed_1080x2400.jpg";

#[test]
fn a_calibration_on_either_saku_screen_tells_discless_entries_from_givens_on_both() {
    let (Some(progress), Some(done)) = (real(SAKU), real(SAKU_DONE)) else {
        return;
    };
    // Without calibration: the two bare entries of the game in progress, and nothing to tell
    // apart on the finished board (all 81 digits drawn alike count as givens).
    let free_done = sudoku_reader::read(&done.img, None).result.unwrap();
    assert!(entries(&free_done).is_empty(), "{:?}", entries(&free_done));
    for from in [&progress, &done] {
        let cal = calibrated(from);
        for to in [&progress, &done] {
            let rec = read_as(&cal, from, to);
            eprintln!(
                "{} calibrated on {}: entries {:?}",
                to.name,
                from.name,
                entries(&rec)
            );
            assert_eq!(
                rec.board.to_line().replace('.', "0"),
                *to.truth.as_ref().unwrap()
            );
            if to.name == SAKU {
                assert_eq!(
                    givens_line(&rec),
                    SAKU_GIVENS,
                    "calibrated on {}",
                    from.name
                );
                assert_eq!(
                    entries(&rec),
                    ["r3c1", "r7c1"],
                    "calibrated on {}",
                    from.name
                );
            } else {
                assert_eq!(givens_line(&rec), givens_line(&free_done));
                assert!(entries(&rec).is_empty(), "calibrated on {}", from.name);
            }
        }
    }
}
