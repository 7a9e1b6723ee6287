//! What `play` does when the phone around the game interferes mid-play (issue 34, items 2-4),
//! through the real adb server and a simulated android12 phone with its habits switched on: a
//! message banner as tall as a two-line heads-up, timed to slide in while the agent taps (over
//! the first row on the edge-to-edge skin, over the header on another), the game pausing behind
//! a Resume card when it comes back, and the screen timing out. Each run must solve with no
//! mistake, never tap the banner except once that it undid with BACK, and never tap the Paused
//! card but its Resume button.

use crate::support::{self, agent, outcome};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use sudoku_sim::EntryOrder;
use sudoku_sim::faults::Faults;
use sudoku_sim::{Hit, SimServer, SudokuApp};
use support::adb_server;
use support::play_rig::{self as rig, PHONE_SIZE};

/// The `--wait` the runs get. A run that waits it out has waited for something that was not
/// there (a cover read as hidden digits): every wait here ends when the habit's cover goes,
/// within seconds, so a run shorter than [`WAIT_SECS`] proves none ran out.
const WAIT_SECS: u32 = 60;

/// What one run did, as the simulated phone recorded it.
#[derive(Debug)]
struct Measured {
    code: i32,
    seconds: f64,
    banner_came: bool,
    banner_taps: usize,
    taps_in_messaging: usize,
    taps_on_pause_card: usize,
    resumes: usize,
    backs: usize,
    /// `dumpsys window windows` asked (the app in front, once before the taps and at each check).
    front_asks: usize,
    solved: bool,
    mistakes: u32,
}

/// `play` on a `skin` phone at 1080x2340 with `faults` switched on (android12 latency), with a
/// calibration for it; what happened, and the agent's output. With `stray`, the banner is
/// tapped once as soon as it shows (as a tap of the agent's would, had the banner covered a
/// cell it was tapping): the messaging app comes in front mid-batch.
fn run(skin: &str, faults: &str, stray: bool) -> (Measured, String) {
    run_in(skin, None, faults, stray)
}

/// [`run`] with the app switched to take `order` (the calibration keeps the skin's own order,
/// which the agent re-learns from its first move when they differ).
fn run_in(skin: &str, order: Option<EntryOrder>, faults: &str, stray: bool) -> (Measured, String) {
    let adb = adb_server::shared();
    let dir = support::temp_dir("phone-around");
    let cal = rig::write_calibration(&dir, skin, PHONE_SIZE);
    let mut phone = rig::phone(skin, PHONE_SIZE, "easy");
    if let Some(order) = order {
        phone.set_input_order(order);
    }
    let parsed: Faults = faults.parse().expect("faults");
    parsed.apply(&mut phone).expect("habits apply");
    let sim: SimServer<SudokuApp> = rig::serve(phone, "android12", None, adb.addr());
    let started = Instant::now();
    let playing = AtomicBool::new(true);
    let (code, out, err) = std::thread::scope(|scope| {
        if stray {
            scope.spawn(|| support::sim_phone::tap_banner_once(&sim, &playing));
        }
        let ran = outcome(agent().current_dir(&dir).args([
            "play",
            "-P",
            &adb.port().to_string(),
            "-s",
            &sim.serial(),
            "--calibration",
            cal.to_str().unwrap(),
            "--wait",
            &WAIT_SECS.to_string(),
        ]));
        playing.store(false, Ordering::SeqCst);
        ran
    });
    let seconds = started.elapsed().as_secs_f64();
    let backs = sim
        .command_log()
        .iter()
        .filter(|c| c.contains("keyevent KEYCODE_BACK") || c.ends_with("keyevent 4"))
        .count();
    let front_asks = sim
        .command_log()
        .iter()
        .filter(|c| c.contains("dumpsys window windows"))
        .count();
    let measured = sim.with_screen(|app| {
        let count = |want: fn(&Hit) -> bool| app.hits().iter().filter(|h| want(h)).count();
        Measured {
            code,
            seconds,
            banner_came: app.banner_came(),
            banner_taps: count(|h| matches!(h, Hit::Banner)),
            taps_in_messaging: count(|h| matches!(h, Hit::OtherApp)),
            taps_on_pause_card: count(|h| matches!(h, Hit::Paused)),
            resumes: count(|h| matches!(h, Hit::Key(sudoku_sim::Key::Resume))),
            backs,
            front_asks,
            solved: app.is_solved(),
            mistakes: app.mistakes(),
        }
    });
    eprintln!(
        "{skin} {order:?} {faults}: {:.1} s, {measured:?}",
        measured.seconds
    );
    (measured, format!("{out}{err}"))
}

/// Solved, exit 0, no mistake; the banner came; at most one tap on it, and one BACK for it.
fn assert_clean_through_banner(m: &Measured, said: &str) {
    assert_eq!(m.code, 0, "{m:?}\n{said}");
    assert!(m.solved && m.mistakes == 0, "{m:?}\n{said}");
    assert!(
        m.banner_came,
        "the banner was timed to come mid-play: {m:?}"
    );
    assert!(m.banner_taps <= 1, "{m:?}\n{said}");
    assert_eq!(
        m.backs, m.banner_taps,
        "one BACK per banner tap: {m:?}\n{said}"
    );
    assert_eq!(m.taps_on_pause_card, 0, "{m:?}\n{said}");
    assert!(
        m.seconds < f64::from(WAIT_SECS) * 0.75,
        "no wait may run out its --wait {WAIT_SECS} s: {m:?}\n{said}"
    );
    // Asked before the first tap and at the checks after it.
    assert!(m.front_asks >= 2, "{m:?}\n{said}");
}

#[test]
fn a_banner_over_the_header_only_is_never_tapped_and_the_board_is_solved() {
    // On the light skin the banner (8-112 dp) ends above the grid (from 119 dp).
    for faults in ["banner=3", "banner=3,pause-card"] {
        let (m, said) = run("light", faults, false);
        assert_clean_through_banner(&m, &said);
        assert_eq!(m.banner_taps, 0, "light {faults}: {m:?}\n{said}");
        assert_eq!(m.taps_in_messaging, 0, "light {faults}: {m:?}\n{said}");
    }
}

#[test]
fn a_banner_over_the_first_row_as_the_agent_is_about_to_tap_it_is_waited_out_in_either_input_order()
{
    // On the edge-to-edge skin the banner (8-112 dp) covers row 1 (80-124 dp). It comes right
    // after the first digit, which is checked alone; the batches after it tap row 1 (cell-first:
    // the next one; number-first: re-learned from the first move, then row 1's digits). The
    // agent must not tap it (it looks over the targets before each batch, and waits while
    // digits it saw are hidden); a tap that hits it anyway (it came mid-batch) is undone with
    // one BACK.
    for order in [EntryOrder::CellFirst, EntryOrder::NumberFirst] {
        for faults in ["banner=1", "banner=1,pause-card"] {
            let (m, said) = run_in("edge", Some(order), faults, false);
            assert_clean_through_banner(&m, &said);
            eprintln!("edge {order:?} {faults}: {} banner taps", m.banner_taps);
        }
    }
}

#[test]
fn messaging_opened_by_a_banner_tap_mid_batch_is_left_with_one_back_and_the_board_is_solved() {
    for skin in ["edge", "light"] {
        let (m, said) = run(skin, "banner=3", true);
        assert_clean_through_banner(&m, &said);
        assert_eq!(m.banner_taps, 1, "{skin}: {m:?}\n{said}");
        assert!(
            said.contains("com.google.android.apps.messaging came to the front"),
            "{skin}: {said}"
        );
    }
}

#[test]
fn a_game_paused_on_coming_back_is_resumed_by_its_round_button_and_the_board_is_solved() {
    for skin in ["edge", "light"] {
        let (m, said) = run(skin, "banner=3,pause-card", true);
        assert_clean_through_banner(&m, &said);
        assert_eq!(m.banner_taps, 1, "{skin}: {m:?}\n{said}");
        assert_eq!(m.resumes, 1, "{skin}: {m:?}\n{said}");
        assert!(said.contains("board unchanged"), "{skin}: {said}");
    }
}

#[test]
fn a_screen_that_times_out_mid_play_is_woken_said_so_and_the_board_is_solved() {
    let (m, said) = run("light", "screen-off-after=20", false);
    assert_eq!(m.code, 0, "{m:?}\n{said}");
    assert!(m.solved && m.mistakes == 0, "{m:?}\n{said}");
    assert!(said.contains("the screen was off: woke it"), "{said}");
    assert!(!said.contains("lattice"), "{said}");
}

#[test]
fn a_cover_that_hides_digits_first_is_waited_out_as_a_cover_not_for_the_whole_wait() {
    // On the edge-to-edge skin, from an empty config: a tap of ours meets the banner and the
    // game comes back behind its Paused card, or an overlay flashes every five digits and stays
    // until a tap. The first check after either reads a board missing digits, then no board:
    // a cover, waited out as one (seconds), not a 60 s wait for the digits to show.
    let adb = adb_server::shared();
    for faults in ["banner=3,pause-card", "flash=5,lives=3"] {
        let mut phone = rig::phone("edge", PHONE_SIZE, "easy");
        let parsed: Faults = faults.parse().expect("faults");
        parsed.apply(&mut phone).expect("habits apply");
        let sim = rig::serve(phone, "instant", None, adb.addr());
        let started = Instant::now();
        let (code, err) = super::play_fresh(&adb, &sim);
        let secs = started.elapsed().as_secs_f64();
        let (solved, mistakes) = sim.with_screen(|p| (p.is_solved(), p.mistakes()));
        assert_eq!((code, solved, mistakes), (0, true, 0), "{faults}: {err}");
        assert!(
            secs < 45.0,
            "{faults}: no wait may run out play's 60 s --wait ({secs:.1} s)\n{err}"
        );
        eprintln!("edge {faults}: solved in {secs:.1} s");
    }
}
