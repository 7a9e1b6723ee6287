//! A game left in notes mode (issue 33, start from any state): players often leave an app's
//! pencil switched on. From an empty config, learning sees its first digit go in as a pencil
//! note, finds the button that switches notes off and leaves it off, and play solves. With a
//! profile learned on an earlier game, play sees its first digit go in as a note, switches notes
//! off with the learned button and enters that cell again; a profile that knows no notes button
//! stops in one line saying what to do. Notes are no mistake: the app's counter stays at 0, and
//! no run leaves notes mode on.

use crate::support;
use sudoku_sim::habits::Habits;
use sudoku_sim::{SimServer, SudokuApp};
use support::adb_server::{self, AdbServer};
use support::play_rig::{self as rig, SMALL_SIZE};

/// `skin` at the small size in notes mode, served with android12 latency.
fn in_notes_mode(adb: &AdbServer, skin: &str) -> SimServer<SudokuApp> {
    let mut phone = rig::phone(skin, SMALL_SIZE, "easy");
    phone
        .set_habits(Habits {
            notes_on: true,
            ..Habits::default()
        })
        .expect("habits apply");
    assert!(phone.notes_mode(), "{skin}: the game starts in notes mode");
    rig::serve(phone, "android12", None, adb.addr())
}

/// Exit 0, solved, no mistake, notes mode off at the end.
fn assert_solved_with_notes_off(sim: &SimServer<SudokuApp>, run: &str, code: i32, err: &str) {
    let (solved, mistakes, notes_on) =
        sim.with_screen(|p| (p.is_solved(), p.mistakes(), p.notes_mode()));
    assert_eq!(mistakes, 0, "{run}: notes are no mistake: {err}");
    assert_eq!(code, 0, "{run}: {err}");
    assert!(solved, "{run}: {err}");
    assert!(!notes_on, "{run}: notes mode is left off: {err}");
}

/// Every playable skin whose index has `parity`, learned from an empty config in notes mode.
fn every_skin_learned_in_notes_mode(parity: usize) {
    let adb = adb_server::shared();
    for skin in rig::playable_skins().skip(parity).step_by(2) {
        let sim = in_notes_mode(&adb, skin);
        let started = std::time::Instant::now();
        let (code, err) = super::play_fresh(&adb, &sim);
        assert_solved_with_notes_off(&sim, skin, code, &err);
        assert!(
            err.contains("notes mode was on in the app: switched it off"),
            "{skin}: learning says it switched notes off: {err}"
        );
        eprintln!(
            "{skin}: learned in notes mode, solved, 0 mistakes, {:.1} s",
            started.elapsed().as_secs_f32()
        );
    }
}

// Half the skins each, so the two run side by side.
#[test]
fn a_game_left_in_notes_mode_is_learned_with_notes_switched_off_and_solved_on_every_other_skin() {
    every_skin_learned_in_notes_mode(0);
}

#[test]
fn a_game_left_in_notes_mode_is_learned_with_notes_switched_off_and_solved_on_the_other_skins() {
    every_skin_learned_in_notes_mode(1);
}

#[test]
fn a_learned_profile_switches_notes_mode_off_with_its_button_at_the_first_check_and_solves() {
    let adb = adb_server::shared();
    for skin in ["light", "numfirst"] {
        // The profile comes from an earlier game, played as it was left: notes off.
        let config = support::temp_dir("notes-config");
        let plain = rig::serve(
            rig::phone(skin, SMALL_SIZE, "easy"),
            "android12",
            None,
            adb.addr(),
        );
        let (code, err) = super::play_with_profiles(&adb, &plain, &config);
        assert_eq!(code, 0, "{skin}, learning on a plain game: {err}");
        drop(plain);
        let sim = in_notes_mode(&adb, skin);
        let (code, err) = super::play_with_profiles(&adb, &sim, &config);
        assert_solved_with_notes_off(&sim, skin, code, &err);
        assert!(
            !err.contains("learned "),
            "{skin}: the stored profile is used: {err}"
        );
        let said: Vec<&str> = err
            .lines()
            .filter(|l| l.contains("notes mode is on in the app") && l.contains("switching it off"))
            .collect();
        assert_eq!(said.len(), 1, "{skin}: said once: {err}");
    }
}

#[test]
fn a_profile_without_a_notes_button_stops_in_one_line_with_no_mistake() {
    let adb = adb_server::shared();
    let dir = support::temp_dir("notes-none");
    for skin in ["light", "numfirst"] {
        // Calibrated from a screenshot with the controls told: no notes button known.
        let cal = rig::write_calibration(&dir, skin, SMALL_SIZE);
        let sim = in_notes_mode(&adb, skin);
        let (code, out, err) = support::play_cli(&dir, adb.port(), &sim, &cal, &[]);
        let (mistakes, wrong) = sim.with_screen(|p| (p.mistakes(), p.wrong_entries()));
        assert_ne!(code, 0, "{skin}: {out}{err}");
        assert_eq!(mistakes, 0, "{skin}: notes are no mistake: {err}");
        assert!(wrong.is_empty(), "{skin}: {wrong:?}");
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        assert!(
            last.contains("notes mode is on in the app") && last.contains("switch notes off"),
            "{skin}: the last line says what to do: {err}"
        );
    }
}
