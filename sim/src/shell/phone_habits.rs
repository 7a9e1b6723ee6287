//! Tests of the phone's habits through its shell, on the sudoku app: frames that trail the
//! input (`lag`), a screen that starts off (`screen-off`) or locked (`lock-screen`), refused
//! injection (`input-refused`), and BACK from the messaging app the banner opened.

use super::tests::TestIo;
use super::*;
use crate::handset::HandsetConfig;
use crate::{Key, Latency, Skin, SudokuApp, puzzles};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A phone running the light app on the easy puzzle with `habits`, at the `preset`.
fn phone(habits: &str, preset: &str) -> (Arc<Mutex<SudokuApp>>, Handset) {
    let puzzle = puzzles::parse(puzzles::named("easy").unwrap()).unwrap();
    let size = crate::geometry::Size::new(720, 1280);
    let mut app = SudokuApp::new(puzzle, Skin::named("light").unwrap(), size).unwrap();
    let faults: crate::faults::Faults = habits.parse().unwrap();
    faults.apply(&mut app).unwrap();
    let app = Arc::new(Mutex::new(app));
    let config = HandsetConfig {
        latency: Latency::named(preset).unwrap(),
        ..HandsetConfig::default()
    };
    (app.clone(), Handset::new(app, config))
}

/// Runs `command`; returns its ending, stdout and stderr.
fn sh(h: &Handset, command: &str) -> (Ending, String, String) {
    let mut io = TestIo::default();
    let ending = Shell::new(h, &mut io).run(command);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (ending, text(&io.stdout), text(&io.stderr))
}

fn screencap(h: &Handset) -> Vec<u8> {
    h.screencap(false).unwrap()
}

/// `input tap` at the centre of `cell` (row, col) and then of the key of digit 1.
fn tap_cell_and_1(app: &Arc<Mutex<SudokuApp>>, h: &Handset, (r, c): (usize, usize)) {
    let (at, key) = {
        let a = app.lock().unwrap();
        let cell = crate::Cell::new(r, c).unwrap();
        (a.cell_center(cell), a.key_center(Key::Digit(1)))
    };
    sh(h, &format!("input tap {} {}", at.x, at.y));
    sh(h, &format!("input tap {} {}", key.x, key.y));
}

/// An empty cell of the easy puzzle.
fn empty_cell(app: &Arc<Mutex<SudokuApp>>) -> (usize, usize) {
    let a = app.lock().unwrap();
    let c = crate::Cell::all()
        .find(|&c| a.board().get(c).is_none())
        .unwrap();
    (c.row(), c.col())
}

#[test]
fn with_lag_a_screencap_shows_the_screen_as_it_was_that_long_ago() {
    let (app, h) = phone("lag=300", "android12");
    let before = screencap(&h);
    let cell = empty_cell(&app);
    tap_cell_and_1(&app, &h, cell);
    assert!(
        app.lock()
            .unwrap()
            .board()
            .get(crate::Cell::new(cell.0, cell.1).unwrap())
            == Some(1)
    );
    // A raw screencap costs 250 ms of device time: taken at once, it still shows the old frame.
    assert_eq!(screencap(&h), before, "the frame trails the taps");
    h.sleep(Duration::from_millis(300));
    let now = screencap(&h);
    assert_ne!(now, before, "300 ms later the taps show");
    let (_, plain) = phone("", "android12");
    assert_eq!(
        plain.screencap(false).unwrap(),
        before,
        "the first frame is the app's"
    );
}

#[test]
fn a_screen_that_starts_off_is_black_asleep_and_deaf_until_woken() {
    let (app, h) = phone("screen-off", "android12");
    let raw = screencap(&h);
    assert!(raw[16..].chunks(4).all(|px| px == [0, 0, 0, 255]));
    let (_, power, _) = sh(&h, "dumpsys power");
    assert!(
        power.contains("  mWakefulness=Asleep\n") && power.contains("Display Power: state=OFF")
    );
    tap_cell_and_1(&app, &h, empty_cell(&app));
    assert!(
        app.lock().unwrap().taps().is_empty(),
        "a dark screen takes no taps"
    );
    let (ending, _, _) = sh(&h, "input keyevent KEYCODE_WAKEUP");
    assert_eq!(ending, Ending::Exit(0));
    let (_, power, _) = sh(&h, "dumpsys power");
    assert!(power.contains("  mWakefulness=Awake\n") && power.contains("Display Power: state=ON"));
    assert!(screencap(&h)[16..].chunks(4).any(|px| px != [0, 0, 0, 255]));
    tap_cell_and_1(&app, &h, empty_cell(&app));
    assert_eq!(app.lock().unwrap().taps().len(), 2);
    sh(&h, "input keyevent 26");
    assert!(!h.awake(), "POWER turns it off again");
    sh(&h, "input keyevent 224");
    assert!(h.awake());
}

#[test]
fn a_plain_phone_says_it_is_awake_and_unlocked() {
    let (_, h) = phone("", "android9");
    let (_, power, _) = sh(&h, "dumpsys power");
    assert!(power.contains("mWakefulness=Awake"));
    let (_, window, _) = sh(&h, "dumpsys window");
    assert!(window.contains("mDreamingLockscreen=false") && window.contains("showing=false"));
}

#[test]
fn the_lock_screen_shows_the_keyguard_takes_no_taps_and_goes_with_menu() {
    let (app, h) = phone("lock-screen", "android12");
    let (_, policy, _) = sh(&h, "dumpsys window policy");
    assert!(policy.contains("mDreamingLockscreen=true") && policy.contains("      showing=true\n"));
    let (_, windows, _) = sh(&h, "dumpsys window windows");
    assert!(windows.contains("mCurrentFocus=Window{e5f6a7b u0 NotificationShade}"));
    let locked = screencap(&h);
    let app_frame = {
        let mut a = app.lock().unwrap();
        crate::Screen::render(&mut *a)
    };
    assert_ne!(
        &locked[16..],
        app_frame.as_raw().as_slice(),
        "the keyguard, not the app"
    );
    tap_cell_and_1(&app, &h, empty_cell(&app));
    assert!(app.lock().unwrap().taps().is_empty());
    sh(&h, "input keyevent KEYCODE_MENU");
    assert!(!h.locked());
    let (_, policy, _) = sh(&h, "dumpsys window");
    assert!(policy.contains("mDreamingLockscreen=false"));
    assert_eq!(&screencap(&h)[16..], app_frame.as_raw().as_slice());
    let (_, h) = phone("lock-screen", "android9");
    sh(&h, "input swipe 360 1100 360 300");
    assert!(!h.locked(), "a swipe up dismisses an insecure keyguard");
}

#[test]
fn refused_input_prints_the_security_exception_and_raw_events_still_work_on_android9() {
    let (app, h) = phone("input-refused", "android12");
    let (ending, _, err) = sh(&h, "input tap 100 600");
    assert_eq!(ending, Ending::Exit(255));
    assert!(
        err.contains("java.lang.SecurityException: Injecting input events requires the caller (or the source of the instrumentation, if any) to have the INJECT_EVENTS permission."),
        "{err}"
    );
    let (ending, _, _) = sh(&h, "cmd input motionevent DOWN 100 600");
    assert_eq!(ending, Ending::Exit(255));
    assert!(app.lock().unwrap().taps().is_empty());
    let (app, h) = phone("input-refused", "android9");
    let (_, _, err) = sh(&h, "input tap 100 600");
    assert!(
        err.contains("Injecting to another application requires INJECT_EVENTS"),
        "{err}"
    );
    let records: Vec<u8> = crate::touch::tap_events(crate::Point::new(100, 600), h.size(), 1)
        .into_iter()
        .flat_map(|e| e.to_record())
        .collect();
    h.write_input(crate::touch::TOUCHSCREEN, &records).unwrap();
    assert_eq!(
        app.lock().unwrap().taps().len(),
        1,
        "raw events still reach the app"
    );
}

#[test]
fn input_refused_n_refuses_only_the_nth_injected_event() {
    let (app, h) = phone("input-refused=2", "android12");
    let endings: Vec<Ending> = (0..3).map(|_| sh(&h, "input tap 100 600").0).collect();
    assert_eq!(
        endings,
        [Ending::Exit(0), Ending::Exit(255), Ending::Exit(0)]
    );
    assert_eq!(app.lock().unwrap().taps().len(), 2);
}

#[test]
fn back_returns_from_the_messaging_app_the_banner_opened() {
    let (app, h) = phone("banner=1", "android12");
    tap_cell_and_1(&app, &h, empty_cell(&app));
    let banner = {
        let mut a = app.lock().unwrap();
        assert!(a.banner_shown());
        a.banner_rect().center()
    };
    sh(&h, &format!("input tap {} {}", banner.x, banner.y));
    let (_, windows, _) = sh(&h, "dumpsys window windows");
    assert!(
        windows.contains("com.google.android.apps.messaging/"),
        "{windows}"
    );
    let (_, activities, _) = sh(&h, "dumpsys activity activities");
    assert!(activities.contains("com.google.android.apps.messaging/"));
    sh(&h, "input keyevent KEYCODE_BACK");
    let (_, windows, _) = sh(&h, "dumpsys window windows");
    assert!(windows.contains("app.sim.sudoku.classic/.MainActivity"));
}

#[test]
fn a_screen_that_times_out_goes_dark_after_its_nth_tap_and_wakes_on_the_key() {
    let (app, h) = phone("screen-off-after=2", "android12");
    assert!(h.awake());
    tap_cell_and_1(&app, &h, empty_cell(&app));
    assert!(!h.awake(), "dark right after the second tap");
    assert_eq!(
        app.lock().unwrap().taps().len(),
        2,
        "both taps reached the app"
    );
    assert!(screencap(&h)[16..].chunks(4).all(|px| px == [0, 0, 0, 255]));
    tap_cell_and_1(&app, &h, empty_cell(&app));
    assert_eq!(
        app.lock().unwrap().taps().len(),
        2,
        "a dark screen takes no taps"
    );
    sh(&h, "input keyevent KEYCODE_WAKEUP");
    assert!(h.awake());
    tap_cell_and_1(&app, &h, empty_cell(&app));
    assert_eq!(app.lock().unwrap().taps().len(), 4, "it goes dark once");
    assert!(h.awake());
}
