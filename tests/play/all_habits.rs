//! A game in progress on an app that does everything at once (issue 33): every simulated skin,
//! in both input orders, the two sizes taking turns, with an end card, digits fading or popping
//! in, a mistake counter of 3 lives that keeps wrong digits in red, the same-number highlight,
//! an ad after 9 placed digits that the user closes at once, two wrong player entries of one
//! digit in one row, and a digit key selected and notes mode left on at start. From an empty
//! config (so learning meets all of it too) `play` must exit 0 with the board solved, no mistake
//! of its own on the app's counter, notes mode off and no tap after the end card came. Each
//! run's time is printed beside the same game with no habits.
use crate::support;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use sudoku_sim::habits::{Animation, AnimationStyle, Habits, KeyChoice};
use sudoku_sim::{EntryOrder, Hit, Key, Screen, SimServer, SudokuApp};
use support::adb_server::{self, AdbServer};
use support::play_rig::{self as rig, PHONE_SIZE, SMALL_SIZE};

/// After how many placed digits the ad comes.
const AD_AFTER: u32 = 9;

/// `skin` at `size` in `order`, with every habit of a game in progress switched on.
fn busy_phone(
    skin: &str,
    size: sudoku_agent::geometry::Size,
    order: EntryOrder,
    i: usize,
) -> SudokuApp {
    let mut phone = rig::phone(skin, size, "easy");
    phone.set_input_order(order);
    phone.set_ad_after(Some(AD_AFTER));
    phone
        .set_habits(Habits {
            end_card: true,
            animation: Some(Animation {
                style: [AnimationStyle::Fade, AnimationStyle::Pop][i % 2],
                duration: Duration::from_millis(250),
            }),
            lives: Some(3),
            same_ink: true,
            wrong_pair: true,
            selected_key: Some(KeyChoice::MostGiven),
            notes_on: true,
            ..Habits::default()
        })
        .unwrap_or_else(|e| panic!("{skin} {size}: {e}"));
    phone
}

/// `play` from an empty config while a user closes an ad a moment after it shows: exit code,
/// stderr, the wall time and whether an ad came.
fn play_closing_the_ad(adb: &AdbServer, sim: &SimServer<SudokuApp>) -> (i32, String, f64, bool) {
    let started = Instant::now();
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        let user = s.spawn(|| {
            let mut came = false;
            while !done.load(Ordering::Relaxed) {
                if sim.with_screen(|p| p.ad_shown()) {
                    came = true;
                    std::thread::sleep(Duration::from_millis(300));
                    sim.with_screen(|p| {
                        let at = p.key_center(Key::AdClose);
                        p.tap(at);
                    });
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            came
        });
        let (code, err) = super::play_fresh(adb, sim);
        done.store(true, Ordering::Relaxed);
        let came = user.join().unwrap();
        (code, err, started.elapsed().as_secs_f64(), came)
    })
}

// One test per input order, so the two run side by side.
#[test]
fn every_skin_cell_first_with_all_habits_at_once_is_solved_with_no_mistake_of_ours() {
    every_skin_with_all_habits(EntryOrder::CellFirst);
}

#[test]
fn every_skin_number_first_with_all_habits_at_once_is_solved_with_no_mistake_of_ours() {
    every_skin_with_all_habits(EntryOrder::NumberFirst);
}

/// Every skin in `order`, the two sizes and the two animations taking turns (the other order
/// takes the other turn), each run beside the same game with no habits.
fn every_skin_with_all_habits(order: EntryOrder) {
    let adb = adb_server::shared();
    let turn = usize::from(order == EntryOrder::NumberFirst);
    let runs = rig::playable_skins()
        .enumerate()
        .map(|(i, skin)| (i + turn, skin, order));
    let mut failures = Vec::new();
    for (i, skin, order) in runs {
        let size = [SMALL_SIZE, PHONE_SIZE][i % 2];
        // The same game with no habits first, for the time it takes.
        let mut plain = rig::phone(skin, size, "easy");
        plain.set_input_order(order);
        let sim = rig::serve(plain, "instant", None, adb.addr());
        let (plain_code, plain_err, plain_secs, _) = play_closing_the_ad(&adb, &sim);
        assert_eq!(
            plain_code, 0,
            "{skin} {size} {order:?} with no habits: {plain_err}"
        );
        let phone = busy_phone(skin, size, order, i);
        let counted = phone.mistakes();
        let sim = rig::serve(phone, "instant", None, adb.addr());
        let (code, err, secs, ad_came) = play_closing_the_ad(&adb, &sim);
        let (solved, mistakes, after_end, notes_on) = sim.with_screen(|p| {
            let after_end = p.hits().iter().filter(|h| **h == Hit::EndCard).count();
            (p.is_solved(), p.mistakes(), after_end, p.notes_mode())
        });
        let run = format!("{skin} {size} {order:?}");
        eprintln!(
            "{run}: exit {code}, solved {solved}, mistakes {counted} -> {mistakes}, {after_end} taps after the end, notes on {notes_on}, ad {ad_came}; {secs:.1} s against {plain_secs:.1} s with no habits ({:.2}x)",
            secs / plain_secs
        );
        let ok = code == 0 && solved && mistakes == counted && after_end == 0 && !notes_on;
        if !ok {
            let last = err
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            failures.push(format!(
                "{run}: exit {code}, mistakes {counted} -> {mistakes}: {last}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} runs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
