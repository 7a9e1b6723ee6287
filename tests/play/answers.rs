//! Puzzles with several answers: the simulated app takes a given out of a unique puzzle and
//! counts as a mistake any digit that differs from its own answer (the original solution).
//! `play` must fill only the cells every completion agrees on, count no mistake, and end with
//! one line saying why it stopped (exit 1, never "solved"); `--any-solution` fills one.

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
