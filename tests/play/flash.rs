//! An overlay that flashes (a toast, an ad closed at once, a "streak" card) and swallows the
//! one tap that comes while it shows. In a number-first app a lost key tap would make every
//! cell after it take the old digit: `play` taps a new digit's key only right after a check saw
//! the board clear, and enters cells that took no digit once more. Nothing it types may be a
//! digit the app counts as a mistake.

use crate::support::adb_server;
use crate::support::play_rig::{self as rig, PHONE_SIZE, SMALL_SIZE};
use sudoku_sim::habits::Habits;
use sudoku_sim::{EntryOrder, Hit, Skin, SudokuApp};

#[test]
fn a_flashing_overlay_that_swallows_a_tap_every_five_digits_costs_a_number_first_app_no_mistake() {
    let adb = adb_server::shared();
    let number_first: Vec<&str> = rig::playable_skins()
        .filter(|&s| Skin::named(s).unwrap().input_order() == EntryOrder::NumberFirst)
        .collect();
    assert!(!number_first.is_empty());
    for (i, &skin) in number_first.iter().enumerate() {
        let size = [SMALL_SIZE, PHONE_SIZE][i % 2];
        let mut phone: SudokuApp = rig::phone(skin, size, "easy");
        phone
            .set_habits(Habits {
                flash_every: Some(5),
                lives: Some(3),
                ..Habits::default()
            })
            .unwrap();
        let sim = rig::serve(phone, "instant", None, adb.addr());
        let (code, err) = super::play_fresh(&adb, &sim);
        let (solved, mistakes, swallowed) = sim.with_screen(|p| {
            let swallowed = p.hits().iter().filter(|&&h| h == Hit::Flash).count();
            (p.is_solved(), p.mistakes(), swallowed)
        });
        assert_eq!(mistakes, 0, "{skin} {size}: {err}");
        assert_eq!(code, 0, "{skin} {size}: {err}");
        assert!(solved, "{skin} {size}: {err}");
        // The overlay did take taps: the run met it, and went on.
        assert!(swallowed > 0, "{skin} {size}: no tap was swallowed");
        let again = err.lines().filter(|l| l.contains("took no digit")).count();
        eprintln!("{skin} {size}: solved, {swallowed} taps swallowed, {again} cells entered again");
    }
}
