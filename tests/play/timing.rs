//! The app's and the phone's timing (issue 33, items 3 and 4), through the real adb server and
//! `play` from an empty config: a level-start cascade (`intro`) is waited out before the first
//! read, and on a phone whose screenshots trail the input (`lag`) no digit of ours is taken for
//! lost (in a number-first app a re-tap would erase it): solved, no mistake, exit 0. With a
//! profile learned on an earlier game, a cascade or entries still popping in are waited out
//! before the first tap as well.

use crate::support::{self, agent, outcome};
use sudoku_sim::AppMove;
use sudoku_sim::faults::Faults;
use sudoku_sim::{SimServer, SudokuApp};
use support::adb_server::{self, AdbServer};
use support::play_rig::{self as rig, SMALL_SIZE};

/// A 720x1280 phone of `skin` with `habits` switched on, behind the shared adb server.
fn served(skin: &str, habits: &str, adb: &AdbServer) -> SimServer<SudokuApp> {
    let mut phone = rig::phone(skin, SMALL_SIZE, "easy");
    let faults: Faults = habits.parse().expect("habits");
    faults.apply(&mut phone).expect("habits apply");
    rig::serve(phone, "instant", None, adb.addr())
}

/// `play` from an empty config on `sim`: exit code and stderr, with the time it took.
fn play_fresh(adb: &AdbServer, sim: &SimServer<SudokuApp>) -> (i32, String, f64) {
    let started = std::time::Instant::now();
    let (code, _, err) = outcome(agent().current_dir(support::temp_dir("timing")).args([
        "play",
        "-P",
        &adb.port().to_string(),
        "-s",
        &sim.serial(),
    ]));
    (code, err, started.elapsed().as_secs_f64())
}

/// The cells the app saw erased other than the probe's cell (the first cell learning set):
/// a digit of ours that a re-tap took out.
fn erased_of_ours(app: &SudokuApp) -> Vec<String> {
    let probe = app.moves().iter().find_map(|m| match m {
        AppMove::Set { cell, .. } => Some(*cell),
        _ => None,
    });
    app.moves()
        .iter()
        .filter_map(|m| match m {
            AppMove::Erase { cell } if Some(*cell) != probe => Some(format!("{cell:?}")),
            _ => None,
        })
        .collect()
}

/// `play` on `skin` with `habits` from an empty config: exit 0, solved, no mistake, no digit of
/// ours erased.
fn plays_cleanly(skin: &str, habits: &str) {
    let adb = adb_server::shared();
    let sim = served(skin, habits, &adb);
    let (code, err, secs) = play_fresh(&adb, &sim);
    let (solved, mistakes, erased) =
        sim.with_screen(|app| (app.is_solved(), app.mistakes(), erased_of_ours(app)));
    assert_eq!(code, 0, "{skin} {habits}: {err}");
    assert!(solved, "{skin} {habits}: {err}");
    assert_eq!(mistakes, 0, "{skin} {habits}: {err}");
    assert!(
        erased.is_empty(),
        "{skin} {habits}: erased {erased:?}: {err}"
    );
    eprintln!("{skin} {habits}: exit 0 in {secs:.1} s, solved, 0 mistakes");
}

#[test]
fn a_level_start_cascade_is_waited_out_and_the_game_is_learned_and_solved() {
    plays_cleanly("light", "intro=1500");
    plays_cleanly("numfirst", "intro=1500");
}

#[test]
fn a_board_still_drawn_when_play_starts_with_a_stored_profile_is_waited_out_before_the_first_tap() {
    let adb = adb_server::shared();
    for skin in ["light", "numfirst"] {
        // The profile comes from an earlier game with nothing animated.
        let config = support::temp_dir("timing-config");
        let play = |sim: &SimServer<SudokuApp>| super::play_with_profiles(&adb, sim, &config);
        let (code, err) = play(&served(skin, "end-card", &adb));
        assert_eq!(code, 0, "{skin}, learning: {err}");
        // A cascade read half drawn, too few digits to read, and a resumed game whose player
        // entries pop in as it opens.
        for habits in ["intro=1500", "intro=3000", "wrong-pair,pop=250"] {
            let sim = served(skin, habits, &adb);
            let counted = sim.with_screen(|app| app.mistakes());
            let (code, err) = play(&sim);
            let (solved, mistakes) = sim.with_screen(|app| (app.is_solved(), app.mistakes()));
            assert!(!err.contains("learned "), "{skin} {habits}: {err}");
            assert_eq!(mistakes, counted, "{skin} {habits}: {err}");
            assert_eq!(code, 0, "{skin} {habits}: {err}");
            assert!(solved, "{skin} {habits}: {err}");
            eprintln!("{skin} {habits} with a stored profile: exit 0, solved, no mistake");
        }
    }
}

#[test]
fn frames_that_trail_the_input_erase_no_digit_of_ours_in_a_number_first_app() {
    plays_cleanly("numfirst", "lag=250");
}

#[test]
fn frames_that_trail_the_input_cost_no_mistake_in_a_cell_first_app() {
    plays_cleanly("light", "lag=250");
}

#[test]
fn frames_that_trail_the_input_show_the_end_card_only_while_the_last_move_settles_and_that_is_the_end()
 {
    // The first look after the last move still shows the board; the card comes during the
    // settle (it was waited out as a cover for the whole --wait, then exit 1).
    plays_cleanly("light", "lag=250,end-card");
    plays_cleanly("numfirst", "lag=250,end-card");
}

/// The grid `play` said it learned ("grid WxH at X,Y"), as (x, y, width, height).
fn learned_grid(err: &str) -> Option<(i64, i64, i64, i64)> {
    let line = err.lines().find(|l| l.starts_with("learned "))?;
    let rest = line.split(": grid ").nth(1)?;
    let mut words = rest.split([' ', ',']);
    let (w, h) = words.next()?.split_once('x')?;
    let at = words.nth(1)?;
    let y = words.next()?;
    Some((
        at.parse().ok()?,
        y.parse().ok()?,
        w.parse().ok()?,
        h.parse().ok()?,
    ))
}

#[test]
fn a_board_of_tiles_is_placed_within_2_px_and_solved_in_both_orders_at_two_sizes() {
    let adb = adb_server::shared();
    for size in [SMALL_SIZE, rig::PHONE_SIZE] {
        for skin in ["light", "numfirst"] {
            let mut phone = rig::phone(skin, size, "easy");
            let faults: Faults = "tiles".parse().expect("habits");
            faults.apply(&mut phone).expect("habits apply");
            let truth = phone.grid_rect();
            let sim = rig::serve(phone, "instant", None, adb.addr());
            let (code, err, secs) = play_fresh(&adb, &sim);
            let (solved, mistakes) = sim.with_screen(|app| (app.is_solved(), app.mistakes()));
            assert_eq!(code, 0, "{skin} {size}: {err}");
            assert!(
                solved && mistakes == 0,
                "{skin} {size}: {mistakes} mistakes: {err}"
            );
            let (x, y, w, h) = learned_grid(&err).unwrap_or_else(|| panic!("{err}"));
            let want = [truth.x, truth.y, truth.width, truth.height].map(i64::from);
            let learned = [x, y, w, h];
            let off = learned.iter().zip(want).map(|(a, b)| (a - b).abs()).max();
            assert!(
                off <= Some(2),
                "{skin} {size}: learned {x},{y} {w}x{h}, drawn {truth:?}"
            );
            eprintln!(
                "{skin} {size} tiles: exit 0 in {secs:.1} s, solved, 0 mistakes, grid {w}x{h} at {x},{y}"
            );
        }
    }
}
