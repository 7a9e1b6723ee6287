//! Apps that celebrate: after the last digit most apps cover the board with a completion card.
//! `play` must call that solved (every move before the last was seen on the board), at once and
//! with exit 0, on every skin and both input orders, from an empty config (learning included),
//! also when the app fades or pops each digit in (no frame caught halfway decides anything).

use crate::support::{self, agent, outcome};
use std::time::{Duration, Instant};
use sudoku_agent::geometry::Size;
use sudoku_sim::habits::{Animation, AnimationStyle, Habits};
use sudoku_sim::{EntryOrder, SimServer, SudokuApp};
use support::adb_server::{self, AdbServer};
use support::play_rig::{self as rig, PHONE_SIZE, SMALL_SIZE};

/// `play --json` from empty config and working folders on the phone `sim`: exit code, the
/// JSON (when it exited 0), stderr and the wall time in seconds.
fn play_fresh(
    adb: &AdbServer,
    sim: &SimServer<SudokuApp>,
) -> (i32, serde_json::Value, String, f64) {
    let folder = support::temp_dir("end-folder");
    let started = Instant::now();
    let (code, out, err) = outcome(agent().current_dir(&folder).args([
        "play",
        "--json",
        "-P",
        &adb.port().to_string(),
        "-s",
        &sim.serial(),
    ]));
    let json = serde_json::from_str(&out).unwrap_or(serde_json::Value::Null);
    (code, json, err, started.elapsed().as_secs_f64())
}

fn phone(skin: &str, size: Size, end_card: bool) -> SudokuApp {
    animated_phone(skin, size, end_card, None)
}

fn animated_phone(
    skin: &str,
    size: Size,
    end_card: bool,
    animation: Option<AnimationStyle>,
) -> SudokuApp {
    let mut phone = rig::phone(skin, size, "easy");
    phone
        .set_habits(Habits {
            end_card,
            animation: animation.map(|style| Animation {
                style,
                duration: Duration::from_millis(250),
            }),
            // A counter the app keeps: a digit caught halfway and typed again would show here.
            lives: Some(3),
            ..Habits::default()
        })
        .unwrap();
    phone
}

// One test per screen size, so the two run side by side.
#[test]
fn an_end_card_after_the_last_digit_is_a_success_on_every_skin_at_720x1280_fading_or_popping_in() {
    end_card_on_every_skin(0);
}

#[test]
fn an_end_card_after_the_last_digit_is_a_success_on_every_skin_at_1080x2340_fading_or_popping_in() {
    end_card_on_every_skin(1);
}

/// Every skin at one size (`turn` 0: the small one), fading and popping by turns (the other
/// size takes the other turn), behind an end card after the last digit.
fn end_card_on_every_skin(turn: usize) {
    let adb = adb_server::shared();
    let mut orders = Vec::new();
    let size = [SMALL_SIZE, PHONE_SIZE][turn];
    let runs = rig::playable_skins()
        .enumerate()
        .map(|(i, skin)| (i + turn, skin, size));
    for (i, skin, size) in runs {
        let style = [AnimationStyle::Fade, AnimationStyle::Pop][i % 2];
        let phone = animated_phone(skin, size, true, Some(style));
        let sim = rig::serve(phone, "instant", None, adb.addr());
        let (code, json, err, secs) = play_fresh(&adb, &sim);
        let run = format!("{skin} {size} {style:?}");
        assert_eq!(code, 0, "{run}: {err}");
        let (solved, card, mistakes) =
            sim.with_screen(|p| (p.is_solved(), p.end_card_shown(), p.mistakes()));
        assert!(solved && card, "{run}: {err}");
        assert_eq!(mistakes, 0, "{run}: {err}");
        assert_eq!(json["end_screen"], true, "{run}: {json}");
        assert!(!err.contains("ad or a dialog"), "{run}: {err}");
        assert!(!err.contains("re-learned"), "{run}: {err}");
        orders.push(sim.with_screen(|p| p.skin().input_order()));
        eprintln!("{run}: solved behind the end card in {secs:.1} s");
    }
    assert!(orders.contains(&EntryOrder::CellFirst) && orders.contains(&EntryOrder::NumberFirst));
}

#[test]
fn the_end_card_costs_at_most_a_look_more_than_a_board_left_in_view() {
    let adb = adb_server::shared();
    for (skin, size) in [("light", PHONE_SIZE), ("numfirst", SMALL_SIZE)] {
        let mut runs = Vec::new();
        for end_card in [false, true] {
            let sim = rig::serve(phone(skin, size, end_card), "instant", None, adb.addr());
            let (code, json, err, secs) = play_fresh(&adb, &sim);
            assert_eq!(code, 0, "{skin} {size} card {end_card}: {err}");
            assert!(sim.with_screen(|p| p.is_solved()));
            // With the board in view the last look reads it; behind the card it cannot.
            assert_eq!(json["verified"], !end_card, "{json}");
            assert_eq!(json["end_screen"], end_card, "{json}");
            runs.push((json["checks"].as_u64().unwrap(), secs));
        }
        let [(checks_off, off), (checks_on, on)] = runs[..] else {
            unreachable!()
        };
        eprintln!(
            "{skin} {size}: card off {off:.1} s, {checks_off} checks; card on {on:.1} s, {checks_on} checks"
        );
        // The last look meets the card: the rows, the whole screen and one look after a settle.
        assert!(checks_on <= checks_off + 2, "{checks_off} -> {checks_on}");
    }
}

#[test]
fn visualize_calls_an_end_card_after_the_searchs_last_move_solved() {
    let adb = adb_server::shared();
    for skin in ["light", "numfirst"] {
        let (code, out, err) = outcome(agent().args([
            "visualize",
            "--device",
            &format!("sim:{skin}"),
            "--sim-size",
            "720x1280",
            "--sim-puzzle",
            "easy",
            "--sim-faults",
            "end-card",
            "-P",
            &adb.port().to_string(),
        ]));
        assert_eq!(code, 0, "{skin}: {err}");
        assert!(
            out.contains("solved (the app now shows its end screen"),
            "{skin}: {out}"
        );
        // The board printed is the replayed one, complete.
        assert!(
            !out.lines().take(13).any(|l| l.contains('.')),
            "{skin}: {out}"
        );
    }
}
