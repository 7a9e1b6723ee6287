//! The simulated phone, seen only through its pixels: each skin at a screen size is calibrated
//! once (keypad labels) and then read in busy states (entries, notes, a selected cell with
//! row/column/box highlights, and a same-number highlight), with that calibration and with none,
//! digits and given/entry kinds alike. The quick test covers every skin at one of the three phone
//! sizes in turn and every skin on the scaled-down 320x640 screen, with two puzzles, to keep
//! debug test time down; the full sweep (every skin at every size, 20 random puzzles each) is
//! `#[ignore]`d here (`cargo test --release --test tests sudoku_reader::sim -- --ignored`) and also run
//! by `cargo bench --bench vision`, which prints a table; `VISION_SWEEP_ONLY=discs@720x1280` (a
//! skin, a size, or both) keeps those rows of it. Beside the sweep: a same-number highlight on
//! givens in both corner cells (every skin and size). The simulated screens the reader alone
//! reads with no calibration (samurai, red mistakes, notes on tiles) are the reader's own tests
//! (`reader/tests/sim.rs`).

use crate::support::sim_sweep::{random_puzzles, sweep};
use sudoku_agent::calibrate::{CalibrateOptions, calibrate_image};
use sudoku_agent::sudoku::Board;
use sudoku_reader::stages::locate_grid_near;
use sudoku_reader::stages::read_grid;
use sudoku_sim::puzzles::{named, parse, with_corners_alike};
use sudoku_sim::{Cell as SimCell, SUPPORTED_SIZES, Screen, Size, Skin, SudokuApp};

/// The scaled-down screen, where boards are 280 to 320 px wide.
const SMALL: Size = Size::new(320, 640);

fn run(puzzles_per_screen: usize, every_size: bool) {
    let puzzles = random_puzzles(puzzles_per_screen, 0x5eed_0001);
    // The rows `VISION_SWEEP_ONLY` keeps are read with the seeds they have in the whole sweep.
    let only = std::env::var("VISION_SWEEP_ONLY").unwrap_or_default();
    let mut failures = Vec::new();
    for (i, skin) in Skin::names().iter().enumerate() {
        for (j, size) in SUPPORTED_SIZES.iter().enumerate() {
            // Quick: each skin at one of the three phone sizes in turn, and every skin on the
            // small screen.
            if !every_size && j != i % 3 && *size != SMALL {
                continue;
            }
            if *size == SMALL && SMALL_SCREEN_GAPS.contains(skin) {
                eprintln!("{skin:>9} {size:>10}: left out (SMALL_SCREEN_GAPS)");
                continue;
            }
            if !only
                .split('@')
                .all(|part| *skin == part || size.to_string() == part || part.is_empty())
            {
                continue;
            }
            let s = sweep(skin, (*size).into(), &puzzles, 77 + (i * 3 + j) as u64);
            eprintln!(
                "{skin:>9} {size:>10}: {} of {} boards, {} cells exact; min score {:.3}, min margin {:.3}; without calibration {} of {} boards exact ({} with entries >= givens); {} digits of hidden kind",
                s.boards_read,
                puzzles.len(),
                s.cells_read,
                s.min_score,
                s.min_margin,
                s.free_boards,
                puzzles.len(),
                s.entries_lead,
                s.kind_hidden
            );
            if NOT_YET_READ.contains(&(skin, &size.to_string())) {
                // Refused boards only: any board read must be exact.
                if s.wrong.len() > s.refused || s.free_wrong.len() > s.free_refused {
                    failures.push(format!(
                        "{skin} {size} (not yet read) misread a board: {:?} {:?}",
                        s.wrong, s.free_wrong
                    ));
                }
                if s.refused + s.free_refused == 0 {
                    failures.push(format!("{skin} {size} now reads: take it off NOT_YET_READ"));
                }
                continue;
            }
            failures.extend(s.wrong.iter().map(|w| format!("{skin} {size}: {w}")));
            failures.extend(s.free_wrong.iter().map(|w| format!("{skin} {size}: {w}")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_skin_and_every_size_reads_busy_boards_exactly_after_one_calibration() {
    run(2, false);
}

#[test]
fn a_small_digit_in_a_disc_at_the_grid_corner_matches_its_template_as_well_as_elsewhere() {
    // The discs skin at 720x1280 draws digits about 19 px tall. Calibrated on one puzzle, the
    // given 8 in r9c1 of another (easy2 with its 2s and 8s swapped) fell between pixels so that
    // its thresholded box lost a row: 0.81 with the 8 template, 0.78 with the 3, refused.
    let skin = Skin::named("discs").unwrap();
    let size = SUPPORTED_SIZES[0];
    let board = |text: &str| parse(text).expect("a puzzle");
    let calibrated = SudokuApp::new(board(named("easy").unwrap()), skin.clone(), size)
        .unwrap()
        .render();
    let options = CalibrateOptions {
        profile: "corner".into(),
        ..Default::default()
    };
    let done = calibrate_image(&calibrated, &options).unwrap();
    let swapped: String = named("easy2")
        .unwrap()
        .chars()
        .map(|c| match c {
            '2' => '8',
            '8' => '2',
            c => c,
        })
        .collect();
    let shot = SudokuApp::new(board(&swapped), skin, size)
        .unwrap()
        .render();
    let grid = locate_grid_near(&shot, done.calibration.grid).unwrap();
    let th = &done.calibration.thresholds;
    let rec = read_grid(&shot, grid, &done.templates, th).unwrap();
    let corner = &rec.readings[72];
    assert_eq!((corner.cell.as_str(), corner.digit), ("r9c1", Some(8)));
    let least = rec
        .readings
        .iter()
        .filter(|r| r.digit.is_some())
        .map(|r| r.score)
        .fold(1.0f32, f32::min);
    assert!(
        corner.score >= 0.93 && least >= 0.9,
        "r9c1 scores {:.3}, the least digit {least:.3}",
        corner.score
    );
}

#[test]
#[ignore = "full sweep, 20 puzzles per skin and size: run with --release -- --ignored"]
fn every_skin_at_every_size_reads_twenty_random_busy_boards_exactly() {
    run(20, true);
}

/// Skins at sizes whose busy boards the reader refuses in the sweep today (some or all of them):
/// the sweep still reads them and asserts that every board it does not read is refused, never
/// misread, and that something still is refused (else the entry must go). The vision helper is
/// making them read; then they leave this list. Empty since the glyph grouping keeps apart
/// patches the bank clearly reads as two digits (tiles 1440x3200 was "unsure" in one board of
/// two; its thin entries and bold givens swapped 3s and 8s at every size in the full sweep).
const NOT_YET_READ: &[(&str, &str)] = &[];

/// The same for the screen with highlighted givens in both corner cells (the test below); empty
/// since the reader finds boards of tiles (tiles 720x1280 was refused, "no sudoku grid found").
const NOT_YET_READ_CORNERS: &[(&str, &str)] = &[];

/// Skins whose busy boards on the 320x640 screen the reader gets wrong today, left out of the
/// quick sweep until it reads them (issue 24). Empty: discs (a thin entry beside the card's
/// dark corner arc, thresholded at the arc's contrast, broke into notes), shaded (notes close
/// to the lines, outside the cut) and card (thin lines unseen against a highlighted column,
/// the calibrated grid took a column of notes for them) read now.
const SMALL_SCREEN_GAPS: &[&str] = &[];

#[test]
fn highlighted_givens_in_both_corner_cells_are_read_in_every_skin() {
    // The same-number highlight lights one digit's givens in r1c1 and r9c9 (on the card skin
    // its tint follows the card's rounded corners); every skin at every size.
    let mut failures = Vec::new();
    for (i, (puzzle, _)) in random_puzzles(Skin::names().len(), 0x5eed_0002)
        .iter()
        .enumerate()
    {
        let name = Skin::names()[i];
        let board = with_corners_alike(&(*puzzle).into()).expect("two givens of one digit");
        let digit = board.get(SimCell::new(0, 0).unwrap());
        for size in SUPPORTED_SIZES {
            let mut phone = SudokuApp::new(board, Skin::named(name).unwrap(), size).unwrap();
            let lit = SimCell::all().find(|&c| board.get(c) == digit && c.row() % 8 != 0);
            phone.select(lit);
            let read = sudoku_reader::read(&phone.render(), None).result;
            let want: Board = board.into();
            let listed = NOT_YET_READ_CORNERS.contains(&(name, &size.to_string()));
            let outcome = match &read {
                Ok(r) if r.board == want => "exact",
                Ok(_) => "WRONG",
                Err(_) => "refused",
            };
            eprintln!("corners {name} {size}: {outcome}");
            match (outcome, listed) {
                ("exact", false) | ("refused", true) => {}
                ("exact", true) => failures.push(format!(
                    "{name} {size} now reads: take it off NOT_YET_READ_CORNERS"
                )),
                _ => failures.push(format!(
                    "{name} {size}: {outcome} {:?}",
                    read.err().map(|e| e.to_string())
                )),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
