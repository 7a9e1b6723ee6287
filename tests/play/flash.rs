//! An overlay that flashes (a toast, an ad closed at once, a "streak" card) and swallows the
//! one tap that comes while it shows. In a number-first app a lost key tap would make every
//! cell after it take the old digit: `play` taps a new digit's key at the end of a batch and
//! taps no cell of it until a check sees the key selected, and enters cells that took no digit
//! once more. In a cell-first app a lost
//! cell tap would make the key after it land in the cell selected before: the moves go digit by
//! digit, and a new digit starts right after a check. Nothing it types may be a digit the app
//! counts as a mistake.

use crate::support::adb_server::{self, AdbServer};
use crate::support::play_rig::{self as rig, PHONE_SIZE, SMALL_SIZE};
use std::time::Duration;
use sudoku_agent::geometry::Size;
use sudoku_sim::habits::Habits;
use sudoku_sim::{EntryOrder, Hit, Skin, SudokuApp};

#[test]
fn a_flashing_overlay_that_swallows_a_tap_every_five_digits_costs_no_mistake_in_either_input_order()
{
    let adb = adb_server::shared();
    let order = |s: &str| Skin::named(s).unwrap().input_order();
    let number_first = rig::playable_skins().filter(|&s| order(s) == EntryOrder::NumberFirst);
    // Every number-first skin, and two cell-first ones (one at each size).
    let cell_first = rig::playable_skins()
        .filter(|&s| order(s) == EntryOrder::CellFirst)
        .take(2);
    let skins: Vec<&str> = number_first.chain(cell_first).collect();
    assert!(skins.len() >= 3, "{skins:?}");
    for (i, &skin) in skins.iter().enumerate() {
        let size = [SMALL_SIZE, PHONE_SIZE][i % 2];
        let phone: SudokuApp = rig::phone(skin, size, "easy");
        let run = format!("{skin} {size}");
        let (err, swallowed) = play_solved_without_mistakes(&adb, phone, Habits::default(), &run);
        // The overlay did take taps: the run met it, and went on.
        assert!(swallowed > 0, "{skin} {size}: no tap was swallowed");
        let again = err.lines().filter(|l| l.contains("took no digit")).count();
        eprintln!("{skin} {size}: solved, {swallowed} taps swallowed, {again} cells entered again");
    }
}

#[test]
fn an_overlay_whose_scrim_the_board_reads_through_is_waited_out_before_the_next_tap_in_either_input_order()
 {
    // The dark skin's digits still read under the scrim, and an overlay that shows for 0.25 s is
    // still there when the check right after its digit looks: the check must see the dimming,
    // or the next tap goes to the overlay and the one after it lands where it should not.
    let adb = adb_server::shared();
    for (order, size) in [
        (EntryOrder::CellFirst, PHONE_SIZE),
        (EntryOrder::NumberFirst, SMALL_SIZE),
    ] {
        let mut phone: SudokuApp = rig::phone("dark", size, "easy");
        phone.set_input_order(order);
        let flash = Habits {
            flash_for: Some(Duration::from_millis(250)),
            ..Habits::default()
        };
        let run = format!("dark {order:?} {size}");
        let (_, swallowed) = play_solved_without_mistakes(&adb, phone, flash, &run);
        eprintln!("{run}: solved, {swallowed} taps swallowed");
    }
}

#[test]
fn a_first_tap_after_a_check_that_the_app_drops_unseen_puts_no_digit_in_the_wrong_cell() {
    // Input blocked for 0.4 s after every fifth digit, with nothing on screen: the check after
    // a batch cannot see it, and the next batch's first tap is dropped. In a cell-first app
    // that is the new digit's cell tap: its key would land in the cell filled last, unless the
    // selection was parked on a given.
    let runs = [("light", PHONE_SIZE), ("dark", SMALL_SIZE)];
    play_with_an_unseen_block(&runs, EntryOrder::CellFirst);
}

#[test]
fn a_key_tap_that_a_number_first_app_drops_unseen_is_seen_on_the_keypad_before_any_cell_takes_the_old_digit()
 {
    // The same unseen block in a number-first app: the tap dropped may be the new digit's key,
    // after which the cells would take the old digit. The key's tap ends the batch before, and
    // the check after it sees whether the key looks selected.
    let runs = [("numfirst", PHONE_SIZE), ("wood", SMALL_SIZE)];
    play_with_an_unseen_block(&runs, EntryOrder::NumberFirst);
}

/// Plays each skin at its size (apps of input `order`) with input blocked unseen for 0.4 s
/// after every fifth digit: solved, no mistake, and some tap was dropped.
fn play_with_an_unseen_block(runs: &[(&str, Size)], order: EntryOrder) {
    let adb = adb_server::shared();
    for &(skin, size) in runs {
        let phone: SudokuApp = rig::phone(skin, size, "easy");
        assert_eq!(phone.input_order(), order);
        let unseen = Habits {
            flash_for: Some(Duration::from_millis(400)),
            flash_unseen: true,
            ..Habits::default()
        };
        let run = format!("{skin} {size}");
        let (err, swallowed) = play_solved_without_mistakes(&adb, phone, unseen, &run);
        assert!(swallowed > 0, "{run}: no tap was dropped");
        let keys = err.lines().filter(|l| l.contains("look selected")).count();
        let again = err.lines().filter(|l| l.contains("took no digit")).count();
        eprintln!(
            "{run}: solved, {swallowed} taps dropped, {keys} keys and {again} cells tapped again"
        );
    }
}

#[test]
fn a_number_first_app_that_marks_no_selected_key_is_said_once_and_played_as_before() {
    // The light skin draws no selected key; switched to number-first, the keypad never changes.
    let adb = adb_server::shared();
    let mut phone: SudokuApp = rig::phone("light", SMALL_SIZE, "easy");
    phone.set_input_order(EntryOrder::NumberFirst);
    phone.set_habits(Habits::default()).unwrap();
    let sim = rig::serve(phone, "instant", None, adb.addr());
    let (code, err) = super::play_fresh(&adb, &sim);
    let (solved, mistakes) = sim.with_screen(|p| (p.is_solved(), p.mistakes()));
    assert_eq!((code, solved, mistakes), (0, true, 0), "{err}");
    let said = err
        .lines()
        .filter(|l| l.contains("the selected key cannot be told apart"))
        .count();
    assert_eq!(said, 1, "{err}");
}

/// Plays `phone` with an overlay flashing every five digits (drawn or not, for as long as
/// `flash` says) and three lives, and checks the game ends solved, with no mistake on the
/// app's counter and exit code 0. Returns play's stderr and how many taps the overlay
/// swallowed.
fn play_solved_without_mistakes(
    adb: &AdbServer,
    mut phone: SudokuApp,
    flash: Habits,
    run: &str,
) -> (String, usize) {
    phone
        .set_habits(Habits {
            flash_every: Some(5),
            lives: Some(3),
            ..flash
        })
        .unwrap();
    let sim = rig::serve(phone, "instant", None, adb.addr());
    let (code, err) = super::play_fresh(adb, &sim);
    let (solved, mistakes, swallowed) = sim.with_screen(|p| {
        let swallowed = p.hits().iter().filter(|&&h| h == Hit::Flash).count();
        (p.is_solved(), p.mistakes(), swallowed)
    });
    assert_eq!(mistakes, 0, "{run}: {err}");
    assert_eq!(code, 0, "{run}: {err}");
    assert!(solved, "{run}: {err}");
    (err, swallowed)
}
