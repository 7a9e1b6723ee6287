//! `play` when the phone does not behave as calibrated, through the real adb server: an app
//! whose input order changed since calibration (checked after the first move, re-learned with at
//! most one wrong digit), a keypad that changed (a clear stop), and an interstitial ad mid-play
//! (noticed within a batch, waited out, and the board finished in the same run).

use crate::support::adb_server;
use crate::support::play_rig::{self as rig, SMALL_SIZE};
use std::time::{Duration, Instant};
use sudoku_agent::device::InputKind;
use sudoku_agent::profile::calibration::InputOrder;
use sudoku_sim::{AppMove, Hit, Key, Screen, SimServer, SudokuApp};

/// Cells that ever received a digit that is not the solution's (a retry in the same cell
/// counts once).
fn wrong_digits(sim: &SimServer<SudokuApp>, solution: &sudoku_sim::Board) -> usize {
    let cells: std::collections::HashSet<sudoku_sim::Cell> = sim.with_screen(|p| {
        p.moves()
            .iter()
            .filter_map(|m| match m {
                AppMove::Set { cell, digit } if solution.get(*cell) != Some(*digit) => Some(*cell),
                _ => None,
            })
            .collect()
    });
    cells.len()
}

fn solution_of(skin: &str) -> sudoku_sim::Board {
    let mut p = rig::phone(skin, SMALL_SIZE, "easy");
    let mut board = p.board();
    let solved = sudoku_agent::sudoku::solve(&sudoku_agent::sudoku::Board::from(board));
    let sudoku_agent::sudoku::Outcome::Solved { board: s, .. } = solved else {
        panic!("easy has one solution")
    };
    for c in sudoku_sim::Cell::all() {
        board.set(c, s.get(c.into()));
    }
    let _ = p.render();
    board
}

#[test]
fn a_stale_input_order_costs_at_most_one_wrong_digit_then_is_relearned_and_the_board_solved() {
    let adb = adb_server::shared();
    for (skin, true_order) in [
        ("light", InputOrder::CellFirst),
        ("numfirst", InputOrder::NumberFirst),
    ] {
        let (mut cal, templates) = rig::calibration(skin, SMALL_SIZE);
        assert_eq!(cal.input_order, true_order);
        cal.input_order = match true_order {
            InputOrder::CellFirst => InputOrder::NumberFirst,
            InputOrder::NumberFirst => InputOrder::CellFirst,
        };
        let sim = rig::serve_easy(skin, SMALL_SIZE, adb.addr());
        let mut device = rig::open(&sim, adb.addr(), InputKind::Stream);
        let report = rig::play(&mut device, &cal, &templates, &rig::options(&cal))
            .unwrap_or_else(|e| panic!("{skin}: {e:#}"));
        let wrong = wrong_digits(&sim, &solution_of(skin));
        eprintln!(
            "stale order on {skin}: relearned {:?}, {} wrong digits, {} taps, {} checks",
            report.relearned_order, wrong, report.taps_sent, report.checks
        );
        assert!(sim.with_screen(|p| p.is_solved()), "{skin}");
        assert_eq!(report.relearned_order, Some(true_order), "{skin}");
        assert!(wrong <= 1, "{skin}: {wrong} wrong digits");
    }
}

#[test]
fn a_changed_keypad_stops_early_with_a_message_naming_the_keypad() {
    let adb = adb_server::shared();
    let (mut cal, templates) = rig::calibration("light", SMALL_SIZE);
    // Every key moved one place: the app's keypad is not the calibrated one.
    let keypad = cal.keypad.as_mut().unwrap();
    keypad.digits.rotate_left(1);
    let sim = rig::serve_easy("light", SMALL_SIZE, adb.addr());
    let mut device = rig::open(&sim, adb.addr(), InputKind::Stream);
    let err = format!(
        "{:#}",
        rig::play(&mut device, &cal, &templates, &rig::options(&cal)).unwrap_err()
    );
    let wrong = wrong_digits(&sim, &solution_of("light"));
    eprintln!("changed keypad: {wrong} wrong digits; {err}");
    crate::support::assert_mentions(&err, &["Likely cause", "keypad"]);
    assert!(wrong <= 1, "{wrong} wrong digits");
}

/// The user: sees the ad (it must come within `within` of `started`), closes it a second later.
fn close_the_ad_once_shown(sim: &SimServer<SudokuApp>, started: Instant, within: Duration) {
    while !sim.with_screen(|p| p.ad_shown()) {
        assert!(started.elapsed() < within, "no ad came");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_secs(1));
    sim.with_screen(|p| {
        let at = p.key_center(Key::AdClose);
        p.tap(at);
    });
}

#[test]
fn an_ad_mid_play_is_waited_out_and_the_board_finished_in_the_same_run() {
    let adb = adb_server::shared();
    let (cal, templates) = rig::calibration("light", SMALL_SIZE);
    let mut phone = rig::phone("light", SMALL_SIZE, "easy");
    phone.set_ad_after(Some(12));
    let sim = rig::serve(phone, "instant", None, adb.addr());
    let mut device = rig::open(&sim, adb.addr(), InputKind::Stream);
    let started = Instant::now();
    let (report, closed_after) = std::thread::scope(|s| {
        let closer = s.spawn(|| {
            close_the_ad_once_shown(&sim, started, Duration::from_secs(30));
            started.elapsed()
        });
        let report = rig::play(&mut device, &cal, &templates, &rig::options(&cal));
        (report, closer.join().unwrap())
    });
    let report = report.unwrap_or_else(|e| panic!("{e:#}"));
    let into_ad = sim.with_screen(|p| p.hits().iter().filter(|h| **h == Hit::Ad).count());
    eprintln!(
        "ad after 12 digits: {into_ad} taps into the ad, closed at {:.1} s, solved at {:.1} s, {} interruption(s), {} taps, {} checks",
        closed_after.as_secs_f64(),
        started.elapsed().as_secs_f64(),
        report.interruptions,
        report.taps_sent,
        report.checks
    );
    assert!(sim.with_screen(|p| p.is_solved()));
    assert_eq!(report.interruptions, 1);
    assert!(into_ad <= 8, "{into_ad} taps went into the ad");
}

#[test]
fn an_ad_while_learning_the_app_is_waited_out_and_the_app_learned_and_solved_after_it() {
    let adb = adb_server::shared();
    for skin in ["light", "numfirst"] {
        let mut phone = rig::phone(skin, SMALL_SIZE, "easy");
        // The ad comes with the first digit placed: the probe's own.
        phone.set_ad_after(Some(1));
        let sim = rig::serve(phone, "instant", None, adb.addr());
        let folder = crate::support::temp_dir("ad-learning");
        let started = Instant::now();
        let (code, err) = std::thread::scope(|s| {
            let closer = s.spawn(|| {
                close_the_ad_once_shown(&sim, started, Duration::from_secs(60));
            });
            let (code, _, err) =
                crate::support::outcome(crate::support::agent().current_dir(&folder).args([
                    "play",
                    "-P",
                    &adb.port().to_string(),
                    "-s",
                    &sim.serial(),
                ]));
            closer.join().unwrap();
            (code, err)
        });
        assert_eq!(code, 0, "{skin}: {err}");
        assert!(err.contains("while learning the app"), "{skin}: {err}");
        assert!(err.contains("the board is back"), "{skin}: {err}");
        assert!(err.contains("learned "), "{skin}: {err}");
        let (solved, mistakes) = sim.with_screen(|p| (p.is_solved(), p.mistakes()));
        assert!(solved, "{skin}: {err}");
        assert_eq!(mistakes, 0, "{skin}: {err}");
        assert_eq!(wrong_digits(&sim, &solution_of(skin)), 0, "{skin}: {err}");
    }
}
