//! Puzzles with several answers: the simulated app takes a given out of a unique puzzle and
//! counts as a mistake any digit that differs from its own answer (the original solution).
//! `play` must fill only the cells every completion agrees on, count no mistake, and end with
//! one line saying why it stopped (exit 1, never "solved"); `--any-solution` fills one. A board
//! that is not classic (jigsaw regions) is refused before any tap.

use crate::support;
use sudoku_agent::sudoku::{Board, agreement};
use sudoku_sim::habits::Habits;
use sudoku_sim::{SimServer, SudokuApp};
use support::adb_server::{self, AdbServer};
use support::play_rig::{self as rig, SMALL_SIZE};

/// `skin` showing the easy puzzle less one given: several completions.
fn multi_answer_phone(skin: &str) -> SudokuApp {
    let mut phone = rig::phone(skin, SMALL_SIZE, "easy");
    phone
        .set_habits(Habits {
            multi_answer: true,
            ..Habits::default()
        })
        .unwrap();
    phone
}

/// `play` with the calibration of `skin` and `extra` arguments: exit code, stdout, stderr.
fn play(
    adb: &AdbServer,
    sim: &SimServer<SudokuApp>,
    skin: &str,
    extra: &[&str],
) -> (i32, String, String) {
    let dir = support::temp_dir("answers");
    let cal = rig::write_calibration(&dir, skin, SMALL_SIZE);
    support::play_cli(&dir, adb.port(), sim, &cal, extra)
}

#[test]
fn several_answers_fill_only_the_agreed_cells_count_no_mistake_and_exit_one() {
    let adb = adb_server::shared();
    for skin in ["light", "numfirst"] {
        let phone = multi_answer_phone(skin);
        let givens: Board = phone.givens().into();
        let agreed = agreement(&givens).expect("the givens have completions");
        assert!(!agreed.open.is_empty(), "{skin}: several completions");
        let sim = rig::serve(phone, "instant", None, adb.addr());
        let (code, out, err) = play(&adb, &sim, skin, &[]);
        let (solved, mistakes, board) =
            sim.with_screen(|p| (p.is_solved(), p.mistakes(), Board::from(p.board())));
        assert_eq!(
            mistakes, 0,
            "{skin}: no mistake on the app's counter: {err}"
        );
        assert_eq!(code, 1, "{skin}: {out}{err}");
        assert!(!solved, "{skin}: the open cells stay open: {err}");
        assert!(!out.contains("solved"), "{skin}: never solved: {out}");
        assert_eq!(
            board.diff(&agreed.agreed),
            Vec::new(),
            "{skin}: the agreed cells filled, the open ones left empty: {err}"
        );
        let why = support::lines_with(&err, "completions that differ in");
        assert_eq!(why.len(), 1, "{skin}: one line says why: {err}");
        assert!(why[0].contains("--any-solution"), "{}", why[0]);
        eprintln!("{skin}: exit {code}, {}", why[0]);
    }
}

#[test]
fn any_solution_fills_one_completion_as_before() {
    let adb = adb_server::shared();
    let phone = multi_answer_phone("light");
    let sim = rig::serve(phone, "instant", None, adb.addr());
    let (code, out, err) = play(&adb, &sim, "light", &["--any-solution"]);
    let (full, mistakes) =
        sim.with_screen(|p| (Board::from(p.board()).filled_count(), p.mistakes()));
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("filling one valid completion"), "{err}");
    assert_eq!(full, 81, "one completion filled: {err}");
    eprintln!("--any-solution: exit {code}, {mistakes} mistakes on the app's counter");
}

/// `skin` at `size` showing the easy puzzle drawn as a jigsaw: thick walls off the box lines.
fn jigsaw_phone(skin: &str, size: sudoku_agent::geometry::Size) -> SudokuApp {
    let mut phone = rig::phone(skin, size, "easy");
    phone
        .set_habits(Habits {
            jigsaw: true,
            ..Habits::default()
        })
        .unwrap();
    phone
}

#[test]
fn a_jigsaw_board_is_refused_in_one_line_before_any_tap_learned_or_calibrated() {
    let adb = adb_server::shared();
    for (skin, size) in [("light", SMALL_SIZE), ("numfirst", rig::PHONE_SIZE)] {
        // From an empty config learning refuses it before probing (exit 2); with the app's
        // calibration play refuses the board it reads (exit 1: it cannot be read).
        for calibrated in [false, true] {
            let sim = rig::serve(jigsaw_phone(skin, size), "instant", None, adb.addr());
            let (code, err) = if calibrated {
                let dir = support::temp_dir("jigsaw");
                let cal = rig::write_calibration(&dir, skin, size);
                let (code, _, err) = support::play_cli(&dir, adb.port(), &sim, &cal, &[]);
                (code, err)
            } else {
                super::play_fresh(&adb, &sim)
            };
            let run = format!("{skin} {size} calibrated {calibrated}");
            let last = err
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            assert_eq!(code, if calibrated { 1 } else { 2 }, "{run}: {err}");
            assert!(last.contains("jigsaw"), "{run}: {last}");
            assert!(sim.with_screen(|p| p.taps().is_empty()), "{run}: tapped");
            eprintln!("{run}: {last}");
        }
    }
}
