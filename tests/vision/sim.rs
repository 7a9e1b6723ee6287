//! The simulated phone, seen only through its pixels: each skin at a screen size is calibrated
//! once (keypad labels) and then read in busy states (entries, notes, a selected cell with
//! row/column/box highlights, and a same-number highlight), with that calibration and with none,
//! digits and given/entry kinds alike. The quick test covers every skin and every size (each
//! skin at one size) with two puzzles, to keep debug test time down; the full sweep (every skin
//! at every size, 20 random puzzles each) is `#[ignore]`d here (`cargo test --release --test tests
//! vision::sim -- --ignored`) and also run by `cargo bench --bench vision`, which prints a table.

use crate::support::sim_sweep::{random_puzzles, sweep};
use sudoku_sim::{SUPPORTED_SIZES, Skin};

fn run(puzzles_per_screen: usize, every_size: bool) {
    let puzzles = random_puzzles(puzzles_per_screen, 0x5eed_0001);
    let mut failures = Vec::new();
    for (i, skin) in Skin::names().iter().enumerate() {
        for (j, size) in SUPPORTED_SIZES.iter().enumerate() {
            if !every_size && j != i % SUPPORTED_SIZES.len() {
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
#[ignore = "full sweep, 20 puzzles per skin and size: run with --release -- --ignored"]
fn every_skin_at_every_size_reads_twenty_random_busy_boards_exactly() {
    run(20, true);
}
