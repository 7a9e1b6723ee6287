//! A refused injected event is a lost tap: the simulated android12 phone refuses one event
//! mid-game (`input-refused=N`); `play` looks at the screen, enters what is missing and solves
//! the board with no mistake, whatever the input method. A phone that refuses every injected
//! event ends `play` in one line naming the setting, with no tap (Android 9 falls back to raw
//! events, which are no injection, and solves).

use crate::support::{self, agent, outcome};
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

#[test]
fn a_phone_that_refuses_every_injected_tap_ends_play_in_one_line_naming_the_setting_with_no_tap() {
    let adb = adb_server::shared();
    let dir = support::temp_dir("refused-all");
    // Learning meets the refusal on its probe; a stored calibration meets it on the first
    // batch, where the injector's exit races its refusal answer.
    for (preset, learn) in [
        ("android12", true),
        ("android12", false),
        ("android9", false),
    ] {
        let mut phone = rig::phone("light", SMALL_SIZE, "easy");
        phone
            .set_habits(Habits {
                phone: PhoneHabits {
                    input_refused: Some(Refusal::Every),
                    ..PhoneHabits::default()
                },
                ..Habits::default()
            })
            .unwrap();
        let sim = rig::serve(phone, preset, None, adb.addr());
        let port = adb.port().to_string();
        let serial = sim.serial();
        let cal = rig::write_calibration(&dir, "light", SMALL_SIZE);
        let mut args = vec!["play", "-P", &port, "-s", &serial];
        if !learn {
            args.extend(["--calibration", cal.to_str().unwrap()]);
        }
        let (code, out, err) = outcome(agent().current_dir(&dir).args(args));
        let run = format!("{preset} learn {learn}");
        let (solved, mistakes, taps) =
            sim.with_screen(|p| (p.is_solved(), p.mistakes(), p.taps().len()));
        if preset == "android9" {
            // Raw events are no injection: auto falls back to them and solves.
            assert_eq!((code, solved, mistakes), (0, true, 0), "{run}: {out}{err}");
            eprintln!("{run}: solved through raw events");
            continue;
        }
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        assert_eq!(code, 2, "{run}: {err}");
        assert_eq!(taps, 0, "{run}: the board was not touched");
        support::assert_mentions(
            last,
            &[
                "refuses injected taps",
                "nothing was tapped",
                "Developer options",
            ],
        );
        eprintln!("{run}: {last}");
    }
}
