//! `play` on the in-process simulated phone: how the workflow spaces its calls to the device
//! (pacing, moves per call, Ctrl-C), which the end-to-end tests through adb cannot see.

use crate::support;
use sudoku_agent::plan::Move;
use sudoku_agent::play::{PlayReport, WATCH_TAPS, play};

use image::RgbaImage;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use sudoku_agent::device::sim::SimDevice;
use sudoku_agent::device::{Device, Input, InputKind, Pacing};
use sudoku_agent::geometry::{Point, Size};
use sudoku_agent::phone::Phone;
use sudoku_agent::profile::Profile;
use support::play_rig::{self as rig, SMALL_SIZE};

/// The simulated phone, recording every `tap_all` call with the pacing in force.
struct Recorder {
    phone: SimDevice,
    pacing: Option<Pacing>,
    calls: Vec<(usize, Option<Pacing>)>,
    input: Input,
    /// Raised after this many calls (a Ctrl-C arriving mid-play).
    stop_after: Option<(usize, Arc<AtomicBool>)>,
    /// For each screenshot, the `tap_all` calls made before it.
    looks: Vec<usize>,
}

impl Device for Recorder {
    fn screenshot(&mut self) -> anyhow::Result<RgbaImage> {
        self.looks.push(self.calls.len());
        self.phone.screenshot()
    }
    fn screen_size(&mut self) -> anyhow::Result<Size> {
        self.phone.screen_size()
    }
    fn tap_all(&mut self, taps: &[Point]) -> anyhow::Result<()> {
        self.calls.push((taps.len(), self.pacing));
        if let Some((n, stop)) = &self.stop_after
            && self.calls.len() == *n
        {
            stop.store(true, Ordering::SeqCst);
        }
        self.phone.tap_all(taps)
    }
    fn input(&self) -> Input {
        self.input
    }
    fn set_pacing(&mut self, pacing: Pacing) {
        self.pacing = Some(pacing);
    }
}

fn recorder(input: Input) -> Recorder {
    Recorder {
        phone: SimDevice::new(rig::phone("light", SMALL_SIZE, "easy")),
        pacing: None,
        calls: Vec::new(),
        input,
        stop_after: None,
        looks: Vec::new(),
    }
}

/// The taps of each stretch between two screenshots (the last: after the last one).
fn taps_between_looks(device: &Recorder) -> Vec<usize> {
    let mut stretches = vec![0];
    let mut looks = device.looks.iter().peekable();
    for (i, (taps, _)) in device.calls.iter().enumerate() {
        while looks.next_if(|&&at| at <= i).is_some() {
            stretches.push(0);
        }
        *stretches.last_mut().unwrap() += taps;
    }
    stretches.extend(looks.map(|_| 0));
    stretches
}

const PACING: Pacing = Pacing {
    hold_ms: 10,
    gap_ms: 5,
    settle_ms: 400,
};

/// `play` on `device` with `skin`'s calibration and the rig's options, its pacing replaced by
/// `pacing` when given.
fn play_on(
    device: &mut dyn Device,
    skin: &str,
    pacing: Option<Pacing>,
    stop: &Arc<AtomicBool>,
) -> anyhow::Result<PlayReport> {
    let (cal, templates) = rig::calibration(skin, SMALL_SIZE);
    let mut options = rig::options(&cal);
    if pacing.is_some() {
        options.pacing = pacing;
    }
    let profile = Profile::new(cal, templates);
    let mut phone = Phone::new(device, &profile, stop, &|line| eprintln!("{line}"));
    play(&mut phone, &options, &mut |_| {})
}

/// The moves of each checked batch in a cell-first app: the first move alone (it proves the
/// input order), then one digit's moves at a time (a batch breaks where the digit changes) in
/// at most WATCH_TAPS taps (two a move, and one more where the next move's digit differs: the
/// selection parked on a given), and the last move alone (after it most apps cover the board
/// with an end card).
fn batches(moves: &[Move]) -> Vec<usize> {
    let taps = |i: usize| {
        2 + usize::from(
            moves
                .get(i + 1)
                .is_some_and(|m| m.digit() != moves[i].digit()),
        )
    };
    let mut batches = vec![1];
    let mut sent = 1;
    while sent + 1 < moves.len() {
        let (mut n, mut used) = (1, taps(sent));
        while sent + n + 1 < moves.len()
            && moves[sent + n].digit() == moves[sent].digit()
            && used + taps(sent + n) <= WATCH_TAPS
        {
            used += taps(sent + n);
            n += 1;
        }
        batches.push(n);
        sent += n;
    }
    if moves.len() > 1 {
        batches.push(1);
    }
    batches
}

/// Plays the board on `device` to the end with `PACING` and `skin`'s calibration; the phone
/// must be solved.
fn play_paced(device: &mut Recorder, skin: &str) -> PlayReport {
    let stop = Arc::new(AtomicBool::new(false));
    let report = play_on(device, skin, Some(PACING), &stop).unwrap();
    assert!(device.phone.phone().is_solved());
    report
}

#[test]
fn no_settle_is_spent_before_a_checking_screenshot_only_the_gap_after_each_tap() {
    for (kind, per_call) in [
        (InputKind::Tap, 1),
        (InputKind::Batch, 4),
        (InputKind::Stream, 8),
        (InputKind::Evdev, 8),
    ] {
        let mut device = recorder(Input::Method(kind));
        let report = play_paced(&mut device, "light");
        // The first move alone, then checked batches of one digit's moves sent per_call at a
        // time, and the last move alone.
        let batches = batches(&report.assessment.moves);
        let calls: usize = batches.iter().map(|b| b.div_ceil(per_call)).sum();
        assert_eq!(device.calls.len(), calls, "{kind:?}");
        // The in-process phone shows every tap at once: one look per batch, none again.
        assert_eq!(report.checks, batches.len(), "{kind:?}: one look per batch");
        for (_, pacing) in &device.calls {
            // The settle is paid only when a look disagrees with the plan (`look_again`).
            assert_eq!(
                *pacing,
                Some(Pacing {
                    settle_ms: PACING.gap_ms,
                    ..PACING
                }),
                "{kind:?}"
            );
        }
        let taps: usize = device.calls.iter().map(|c| c.0).sum();
        assert_eq!(taps, report.taps_sent);
    }
}

#[test]
fn a_number_first_board_is_checked_every_eight_taps_rather_than_every_four_moves() {
    let mut device = Recorder {
        phone: SimDevice::new(rig::phone("numfirst", SMALL_SIZE, "easy")),
        ..recorder(Input::Method(InputKind::Tap))
    };
    let report = play_paced(&mut device, "numfirst");
    let moves = report.assessment.moves.len();
    // One tap a move while the digit in hand stays: fewer looks than one per four moves.
    assert!(
        report.checks < batches(&report.assessment.moves).len(),
        "{} checks for {moves} moves",
        report.checks
    );
    // Never more than WATCH_TAPS taps between two looks, and a look after the last.
    let stretches = taps_between_looks(&device);
    assert!(
        stretches.iter().all(|&n| n <= WATCH_TAPS),
        "{stretches:?} taps between looks"
    );
    assert_eq!(stretches.last(), Some(&0), "the last batch was looked at");
}

/// A phone whose rows-only screenshots come back wrong (a `tail` that counts differently).
struct WrongRows(Recorder);

impl Device for WrongRows {
    fn screenshot(&mut self) -> anyhow::Result<RgbaImage> {
        self.0.screenshot()
    }
    fn screenshot_rows(&mut self, _rows: std::ops::Range<u32>) -> anyhow::Result<RgbaImage> {
        let size = self.0.screen_size()?;
        Ok(RgbaImage::from_pixel(
            size.width,
            size.height,
            image::Rgba([255, 255, 255, 255]),
        ))
    }
    fn screen_size(&mut self) -> anyhow::Result<Size> {
        self.0.screen_size()
    }
    fn tap_all(&mut self, taps: &[Point]) -> anyhow::Result<()> {
        self.0.tap_all(taps)
    }
    fn input(&self) -> Input {
        self.0.input
    }
}

#[test]
fn rows_only_screenshots_that_do_not_read_where_the_whole_screen_does_give_way_to_whole_ones() {
    let mut device = WrongRows(recorder(Input::Method(InputKind::Stream)));
    let stop = Arc::new(AtomicBool::new(false));
    let report = play_on(&mut device, "light", None, &stop).unwrap();
    assert!(device.0.phone.phone().is_solved());
    assert_eq!(report.interruptions, 0, "no ad was imagined");
    // One extra look, the whole screen's, where the rows failed the first time.
    assert_eq!(report.checks, batches(&report.assessment.moves).len() + 1);
}

#[test]
fn ctrl_c_stops_after_the_call_in_flight_and_says_how_to_finish() {
    let stop = Arc::new(AtomicBool::new(false));
    let mut device = recorder(Input::Method(InputKind::Tap));
    device.stop_after = Some((3, stop.clone()));
    let err = play_on(&mut device, "light", None, &stop).unwrap_err();
    assert_eq!(
        err.to_string().split(" of ").next().unwrap(),
        "stopped by the user after 3"
    );
    assert!(err.to_string().contains("re-run play"), "{err}");
    assert_eq!(device.calls.len(), 3);
    // Whole moves only: three cells filled, none half-entered.
    assert_eq!(device.phone.phone().moves().len(), 3);
}

/// A phone whose rows-only screenshots hold just the rows asked for (the rest black, as a
/// `screencap | tail | head` frame), recording each range.
struct RowsOnly {
    inner: Recorder,
    fetched: Vec<std::ops::Range<u32>>,
}

impl Device for RowsOnly {
    fn screenshot(&mut self) -> anyhow::Result<RgbaImage> {
        self.inner.screenshot()
    }
    fn screenshot_rows(&mut self, rows: std::ops::Range<u32>) -> anyhow::Result<RgbaImage> {
        self.fetched.push(rows.clone());
        let mut img = self.inner.screenshot()?;
        for (_, y, p) in img.enumerate_pixels_mut() {
            if !rows.contains(&y) {
                *p = image::Rgba([0, 0, 0, 255]);
            }
        }
        Ok(img)
    }
    fn screen_size(&mut self) -> anyhow::Result<Size> {
        self.inner.screen_size()
    }
    fn tap_all(&mut self, taps: &[Point]) -> anyhow::Result<()> {
        self.inner.tap_all(taps)
    }
    fn input(&self) -> Input {
        self.inner.input
    }
}

#[test]
fn most_checks_fetch_only_the_rows_their_batch_changed_and_the_checks_around_the_last_move_all_of_them()
 {
    let mut device = RowsOnly {
        inner: recorder(Input::Method(InputKind::Inject)),
        fetched: Vec::new(),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let report = play_on(&mut device, "light", None, &stop).unwrap();
    assert!(device.inner.phone.phone().is_solved());
    assert_eq!(report.interruptions, 0);
    let (cal, _) = rig::calibration("light", SMALL_SIZE);
    let all = sudoku_agent::play::check_rows(&cal);
    let lens: Vec<usize> = device.fetched.iter().map(|r| r.len()).collect();
    let partial = lens.iter().filter(|&&n| n < all.len()).count();
    eprintln!(
        "rows fetched per check: {lens:?} (all the grid's: {})",
        all.len()
    );
    // The first check (the order) and the two around the last move see the whole grid.
    assert_eq!(device.fetched[0], all);
    assert!(
        device.fetched[device.fetched.len() - 2..]
            .iter()
            .all(|r| *r == all)
    );
    // A batch of a cell-first app fills a few rows: most checks fetch a fraction.
    assert!(partial * 2 >= lens.len(), "{lens:?}");
    // All in all, under 75% of the rows checks fetched before (the whole band every time). A
    // batch holds one digit's moves, one a row, so it spans more rows than a row-by-row batch
    // would (under 60% in row order, 69% by digit on this board).
    let fetched: usize = lens.iter().sum();
    assert!(fetched * 100 < lens.len() * all.len() * 75, "{lens:?}");
}

/// A number-first phone that ignores every tap on one key (a dialog's corner over it, a key the
/// app greys out).
struct DeadKey {
    inner: Recorder,
    key: Point,
}

impl Device for DeadKey {
    fn screenshot(&mut self) -> anyhow::Result<RgbaImage> {
        self.inner.screenshot()
    }
    fn screen_size(&mut self) -> anyhow::Result<Size> {
        self.inner.screen_size()
    }
    fn tap_all(&mut self, taps: &[Point]) -> anyhow::Result<()> {
        let live: Vec<Point> = taps.iter().copied().filter(|&p| p != self.key).collect();
        self.inner.tap_all(&live)
    }
    fn input(&self) -> Input {
        self.inner.input
    }
}

#[test]
fn a_number_first_key_that_never_looks_selected_stops_the_run_before_any_cell_of_its_digit() {
    let (cal, _) = rig::calibration("numfirst", SMALL_SIZE);
    let key = cal.keypad.as_ref().unwrap().digits[8];
    let mut device = DeadKey {
        inner: Recorder {
            phone: SimDevice::new(rig::phone("numfirst", SMALL_SIZE, "easy")),
            ..recorder(Input::Method(InputKind::Tap))
        },
        key,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let err = play_on(&mut device, "numfirst", None, &stop)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("key 9 does not look selected after 3 taps"),
        "{err}"
    );
    let phone = device.inner.phone.phone();
    // The digits before 9 went in, and no cell meant for a 9 took the digit still selected.
    assert_eq!(phone.mistakes(), 0, "{err}");
    assert!(phone.wrong_entries().is_empty(), "{err}");
    assert!(!phone.is_solved());
}
