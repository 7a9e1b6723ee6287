//! A game in progress (issue 33): `play` from an empty config on a simulated phone whose game
//! starts with a digit key selected (in each look an app draws it with), or with two wrong
//! entries of one digit clashing with each other, or with a same-number highlight that recolours
//! every equal digit in the app's accent. Learning finds the keypad and probes without
//! typing a digit that is not the solution; play corrects the entries; the app's mistake counter
//! ends where it started.

use crate::support;
use sudoku_agent::geometry::Size;
use sudoku_sim::habits::{Habits, KeyChoice, KeyLook};
use support::adb_server::{self, AdbServer};
use support::play_rig::{self as rig, PHONE_SIZE, SMALL_SIZE};

/// Plays `skin` at `size` with `habits` on, android12 latency, from an empty config, and
/// checks: exit 0, solved, no mistake counted beyond the ones the game started with. Returns
/// stderr.
fn plays_cleanly(adb: &AdbServer, skin: &str, size: Size, habits: Habits, what: &str) -> String {
    let mut phone = rig::phone(skin, size, "easy");
    phone.set_habits(habits).expect("habits apply");
    let counted = phone.mistakes();
    let sim = rig::serve(phone, "android12", None, adb.addr());
    let started = std::time::Instant::now();
    let (code, err) = super::play_fresh(adb, &sim);
    let (solved, mistakes, left) =
        sim.with_screen(|p| (p.is_solved(), p.mistakes(), p.wrong_entries()));
    assert_eq!(
        mistakes, counted,
        "{skin} {what}: no digit of ours was a mistake: {err}"
    );
    assert_eq!(code, 0, "{skin} {what}: {err}");
    assert!(solved, "{skin} {what}: {err}");
    assert!(left.is_empty(), "{skin} {what}: {left:?} still wrong");
    eprintln!(
        "{skin} {what}: exit 0, solved, {mistakes} mistakes, {:.1} s",
        started.elapsed().as_secs_f32()
    );
    err
}

/// Every skin, in its own input order, starting with its most-given digit's key selected and
/// drawn `look`, at 720x1280; and a third of the skins (a different third for each look, so
/// that every skin is played once) at 1080x2340 too, where keys spaced wide with a count under
/// each put the keypad's rows over four digit heights apart.
fn every_skin_with_a_key_selected(look: KeyLook) {
    let adb = adb_server::shared();
    let third = [KeyLook::Filled, KeyLook::Outlined, KeyLook::Disc]
        .iter()
        .position(|&l| l == look)
        .expect("a look of the three");
    for (i, skin) in rig::playable_skins().enumerate() {
        let habits = Habits {
            selected_key: Some(KeyChoice::MostGiven),
            key_look: Some(look),
            ..Habits::default()
        };
        let what = format!("selected key {look:?}");
        plays_cleanly(&adb, skin, SMALL_SIZE, habits, &what);
        if i % 3 == third {
            plays_cleanly(
                &adb,
                skin,
                PHONE_SIZE,
                habits,
                &format!("{what} at 1080x2340"),
            );
        }
    }
}

#[test]
fn a_game_with_a_key_selected_as_a_filled_face_is_learned_and_solved_with_no_mistake() {
    every_skin_with_a_key_selected(KeyLook::Filled);
}

#[test]
fn a_game_with_a_key_selected_as_a_ring_is_learned_and_solved_with_no_mistake() {
    every_skin_with_a_key_selected(KeyLook::Outlined);
}

#[test]
fn a_game_with_a_key_selected_as_a_disc_is_learned_and_solved_with_no_mistake() {
    every_skin_with_a_key_selected(KeyLook::Disc);
}

// The highlight's ink may be as bright as the selected cell under it (a green digit on a light
// blue cell): the probe must still see the digit it entered. The two sizes in turn: alone at
// the small one, with a key selected at the large (one test each, so they run side by side).
#[test]
fn every_skin_whose_same_number_highlight_recolours_digits_is_learned_and_solved_cleanly() {
    let adb = adb_server::shared();
    let habits = Habits {
        same_ink: true,
        ..Habits::default()
    };
    for skin in rig::playable_skins() {
        plays_cleanly(&adb, skin, SMALL_SIZE, habits, "same-ink");
    }
}

#[test]
fn every_skin_whose_same_number_highlight_recolours_digits_is_learned_and_solved_cleanly_with_a_key_selected()
 {
    let adb = adb_server::shared();
    let habits = Habits {
        same_ink: true,
        selected_key: Some(KeyChoice::MostGiven),
        ..Habits::default()
    };
    for skin in rig::playable_skins() {
        let what = "same-ink with a key selected";
        plays_cleanly(&adb, skin, PHONE_SIZE, habits, what);
    }
}

#[test]
fn two_wrong_entries_of_one_digit_in_a_row_are_corrected_in_one_line_with_no_mistake() {
    let adb = adb_server::shared();
    for skin in ["light", "numfirst"] {
        let habits = Habits {
            wrong_pair: true,
            ..Habits::default()
        };
        let phone = {
            let mut p = rig::phone(skin, SMALL_SIZE, "easy");
            p.set_habits(habits).expect("habits apply");
            p
        };
        let wrong = phone.wrong_entries();
        assert_eq!(
            wrong.len(),
            2,
            "{skin}: the game starts with two wrong entries"
        );
        let err = plays_cleanly(&adb, skin, SMALL_SIZE, habits, "wrong pair");
        let named: Vec<&str> = err
            .lines()
            .filter(|l| l.contains("corrected 2 player entries"))
            .filter(|l| wrong.iter().all(|c| l.contains(&c.to_string())))
            .collect();
        assert_eq!(named.len(), 1, "{skin}: {wrong:?} in one line: {err}");
    }
}

#[test]
fn a_number_first_game_whose_selected_key_no_empty_cell_takes_is_probed_with_no_mistake() {
    let adb = adb_server::shared();
    // A key whose digit no empty cell takes: the probe selects its own digit first, with a
    // given selected (so that a cell-first app has nowhere to put it).
    let mut phone = rig::phone("numfirst", SMALL_SIZE, "easy");
    let solved = sudoku_agent::sudoku::solve(&rig::puzzle("easy"));
    let solution = *solved.solution().expect("one solution");
    let cells = |d: u8| -> Vec<sudoku_sim::Cell> {
        sudoku_agent::sudoku::Cell::all()
            .filter(|&c| solution.get(c) == Some(d))
            .filter_map(|c| sudoku_sim::Cell::from_index(c.index()))
            .collect()
    };
    // The first digit's cells all filled, as a player would have, and its key selected.
    let digit = 1;
    for c in cells(digit) {
        phone.set_entry(c, Some(digit));
    }
    let habits = Habits {
        selected_key: Some(KeyChoice::Digit(digit)),
        ..Habits::default()
    };
    phone.set_habits(habits).expect("habits apply");
    let counted = phone.mistakes();
    let sim = rig::serve(phone, "android12", None, adb.addr());
    let (code, err) = super::play_fresh(&adb, &sim);
    let (solved, mistakes) = sim.with_screen(|p| (p.is_solved(), p.mistakes()));
    assert_eq!(mistakes, counted, "{err}");
    assert_eq!(code, 0, "{err}");
    assert!(solved, "{err}");
}
