//! A refused injected event is a lost tap: the simulated android12 phone refuses one event
//! mid-game (`input-refused=N`); `play` looks at the screen, enters what is missing and solves
//! the board with no mistake, whatever the input method.

use crate::support;
use sudoku_sim::habits::{Habits, PhoneHabits, Refusal};
use support::adb_server;
use support::play_rig::{self as rig, SMALL_SIZE};

#[test]
fn one_refused_event_mid_game_is_entered_again_and_the_board_is_solved() {
    let adb = adb_server::shared();
    let dir = support::temp_dir("refused");
    for (skin, input) in [
        ("light", Some("tap")),
        ("light", None),
        ("numfirst", Some("tap")),
        ("numfirst", None),
    ] {
        let cal = rig::write_calibration(&dir, skin, SMALL_SIZE);
        let mut phone = rig::phone(skin, SMALL_SIZE, "easy");
        phone
            .set_habits(Habits {
                phone: PhoneHabits {
                    input_refused: Some(Refusal::Nth(9)),
                    ..PhoneHabits::default()
                },
                ..Habits::default()
            })
            .unwrap();
        let sim = rig::serve(phone, "android12", None, adb.addr());
        let extra: Vec<&str> = input.map(|i| vec!["--input", i]).unwrap_or_default();
        let (code, out, err) = support::play_cli(&dir, adb.port(), &sim, &cal, &extra);
        let (solved, mistakes) = sim.with_screen(|p| (p.is_solved(), p.mistakes()));
        let method = input.unwrap_or("default");
        assert_eq!(code, 0, "{skin} {method}: {out}{err}");
        assert!(solved, "{skin} {method}: {err}");
        assert_eq!(mistakes, 0, "{skin} {method}: {err}");
        assert!(
            err.contains("the phone refused a tap"),
            "{skin} {method}: the refusal was seen and its cells entered again: {err}"
        );
        eprintln!("{skin} {method}: exit {code}, solved, 0 mistakes");
    }
}
