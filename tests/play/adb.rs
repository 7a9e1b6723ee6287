//! `play` end to end through the real ADB stack: the Debian `adb` server (one private server per
//! test binary) carries every screenshot and tap between `AdbDevice` (adb_client) and the
//! simulated phone. A board counts as solved when the app's own state says so and when its
//! pixels, read back through adb, show the solution.

use crate::support;

use sudoku_agent::device::{Device, InputKind};
use sudoku_agent::geometry::{Point, Size};
use sudoku_agent::phone::Phone;
use sudoku_agent::profile::Profile;
use sudoku_agent::sudoku::{Board, Cell, Outcome, solve};
use sudoku_sim::{SimServer, Skin, SudokuApp, TapSource};
use support::adb_server;
use support::play_rig::{self as rig, PHONE_SIZE, SMALL_SIZE};

/// The solution of the phone's puzzle.
fn solution_of(sim: &SimServer<SudokuApp>) -> Board {
    match solve(&Board::from(sim.with_screen(|p| p.givens()))) {
        Outcome::Solved { board, .. } => board,
        other => panic!("the test puzzle must have one solution: {other:?}"),
    }
}

/// Whether `digit` in `cell` breaks no rule with the digits already on `board`.
fn allows(board: &Board, cell: Cell, digit: u8) -> bool {
    Cell::all().all(|o| o == cell || !cell.sees(o) || board.get(o) != Some(digit))
}

/// Two player entries: one right, one wrong (a digit that breaks no rule on its own, so the
/// app keeps it and play must erase it).
fn add_right_and_wrong_entries(sim: &SimServer<SudokuApp>) -> (Cell, Cell) {
    let solution = solution_of(sim);
    let board = sim.with_screen(|p| p.board());
    let mut empty = Cell::all().filter(|&c| board.get(c.into()).is_none());
    let right = empty.next().unwrap();
    let wrong = empty
        .find(|&c| (1..=9).any(|d| Some(d) != solution.get(c) && allows(&board.into(), c, d)))
        .unwrap();
    let digit = (1..=9)
        .find(|&d| Some(d) != solution.get(wrong) && allows(&board.into(), wrong, d))
        .unwrap();
    sim.with_screen(|p| {
        p.set_entry(right.into(), solution.get(right));
        p.set_entry(wrong.into(), Some(digit));
    });
    (right, wrong)
}

/// Checks the end state: solved in the app, and solved in the pixels adb carries.
fn assert_solved(sim: &SimServer<SudokuApp>, device: &mut dyn Device, skin: &str, size: Size) {
    assert!(
        sim.with_screen(|p| p.is_solved()),
        "{skin}: the app is not solved: {}",
        sim.with_screen(|p| p.board()).to_line()
    );
    let (cal, templates) = rig::calibration(skin, size);
    let screen = device.screenshot().unwrap();
    let seen = Profile::new(cal, templates).read(&screen).result.unwrap();
    assert_eq!(seen.board, solution_of(sim), "{skin}: pixels read back");
}

fn expected_source(input: InputKind) -> TapSource {
    match input {
        InputKind::Evdev => TapSource::RawEvents,
        InputKind::Inject => TapSource::Injected,
        _ => TapSource::InputTap,
    }
}

/// Plays one board on `skin` with `input`, player entries present, and checks the result.
fn solve_with_entries(skin: &str, size: Size, latency: &str, input: InputKind) {
    let adb = adb_server::shared();
    let sim = rig::serve(rig::phone(skin, size, "easy"), latency, None, adb.addr());
    let (right, wrong) = add_right_and_wrong_entries(&sim);
    let (cal, templates) = rig::calibration(skin, size);
    let mut device = rig::open(&sim, adb.addr(), input);
    assert_eq!(device.input_method().kind(), input);
    let report = rig::play(&mut device, &cal, &templates, &rig::options(&cal))
        .unwrap_or_else(|e| panic!("{skin} {latency} {input:?}: {e:#}"));
    let a = &report.assessment;
    assert_eq!(
        a.wrong_entries,
        vec![wrong],
        "{skin}: the wrong entry is found"
    );
    assert!(
        a.moves.iter().all(|m| m.cell() != right),
        "{skin}: the right entry is left alone"
    );
    assert_eq!(report.moves_done, a.moves.len());
    assert_eq!(report.final_board, Some(solution_of(&sim)));
    assert_solved(&sim, &mut device, skin, size);
    // Every tap the app got is a planned one, in order, by the expected path.
    let taps = sim.taps();
    let planned: Vec<Point> = a.plan.taps.iter().map(|t| t.at).collect();
    let got: Vec<Point> = taps.iter().map(|t| t.at.into()).collect();
    assert_eq!(got, planned, "{skin} {input:?}: taps as planned");
    assert!(
        taps.iter().all(|t| t.source == expected_source(input)),
        "{skin} {input:?}: tap sources {:?}",
        taps.iter().map(|t| t.source).collect::<Vec<_>>()
    );
    assert!(device.stats().taps as usize >= planned.len());
}

#[test]
fn every_skin_ends_solved_with_right_and_wrong_entries_corrected() {
    // 1080x2340, the size the shipped calibration is for; the backends take turns.
    let inputs = [InputKind::Stream, InputKind::Evdev, InputKind::Batch];
    for (i, skin) in rig::playable_skins().enumerate() {
        solve_with_entries(skin, PHONE_SIZE, "instant", inputs[i % inputs.len()]);
    }
}

#[test]
fn android9_and_android12_solve_cell_first_and_number_first_with_each_method_they_allow() {
    // Android 9 has no long-lived `input` stream; Android 12 has no evdev.
    let android9 = [InputKind::Tap, InputKind::Batch, InputKind::Evdev];
    let android12 = [InputKind::Tap, InputKind::Batch, InputKind::Stream];
    for (skin, latency, inputs) in [
        ("light", "android9", android9),
        ("light", "android12", android12),
        ("numfirst", "android9", android9),
        ("numfirst", "android12", android12),
    ] {
        for input in inputs {
            solve_with_entries(skin, SMALL_SIZE, latency, input);
        }
    }
}

#[test]
fn every_android_preset_solves_through_the_injector_cell_first_and_number_first() {
    for latency in ["android9", "android10", "android12", "android14"] {
        solve_with_entries("light", SMALL_SIZE, latency, InputKind::Inject);
    }
    solve_with_entries("numfirst", SMALL_SIZE, "android14", InputKind::Inject);
}

#[test]
fn the_android12_preset_refuses_evdev_and_android9_refuses_stream() {
    let adb = adb_server::shared();
    for (latency, input, advice) in [
        ("android12", InputKind::Evdev, "--input stream"),
        ("android9", InputKind::Stream, "--input batch"),
    ] {
        let sim = rig::serve(
            rig::phone("light", SMALL_SIZE, "easy"),
            latency,
            None,
            adb.addr(),
        );
        let err = sudoku_agent::device::adb::AdbDevice::open_serial(
            sudoku_agent::device::adb::AdbServer { addr: adb.addr() },
            &sim.serial(),
            Some(input),
        )
        .unwrap_err();
        assert!(format!("{err:#}").contains(advice), "{latency}: {err:#}");
        assert!(sim.taps().is_empty());
    }
}

#[test]
fn a_device_dropped_mid_play_stops_cleanly_and_a_rerun_finishes_the_board() {
    // `tap` runs one command line per tap; `stream` feeds lines into one long-lived shell.
    for input in [InputKind::Tap, InputKind::Stream] {
        drop_mid_play_then_rerun(input);
    }
}

fn drop_mid_play_then_rerun(input: InputKind) {
    // Its own adb server: a phone vanishing mid-stream can crash adb 29.0.6 (a use-after-free in
    // its socket code), and a crash must not fail the other tests sharing a server.
    let adb = adb_server::AdbServer::start();
    let (cal, templates) = rig::calibration("light", SMALL_SIZE);
    // The phone vanishes when command line 41 arrives: after opening and a few screenshots,
    // in the middle of the taps.
    let sim = rig::serve(
        rig::phone("light", SMALL_SIZE, "easy"),
        "instant",
        Some(40),
        adb.addr(),
    );
    let mut device = rig::open(&sim, adb.addr(), input);
    // The plan play will follow, to check that the phone got nothing else.
    let shown = device.screenshot().unwrap();
    let planned = sudoku_agent::play::assess(
        &shown,
        &Profile::new(cal.clone(), templates.clone()),
        &rig::options(&cal),
        &mut Default::default(),
    )
    .unwrap()
    .plan;
    let err = rig::play(&mut device, &cal, &templates, &rig::options(&cal)).unwrap_err();
    let text = format!("{err:#}");
    assert!(
        // The drop lands on a tap or on a check's screenshot, as the plan's taps fall.
        (text.contains("stopped taking taps") || text.contains("cannot take a screenshot"))
            && text.contains("re-run play"),
        "{input:?}: {text}"
    );
    assert_eq!(sudoku_agent::error::exit_code_for(&err), 2, "{text}");
    assert!(sim.is_gone());
    // No stray taps: what the app got is a prefix of the plan, and nothing after the drop.
    let got: Vec<Point> = sim.taps().iter().map(|t| t.at.into()).collect();
    assert!(!got.is_empty(), "{input:?}: the drop should come mid-play");
    assert!(
        got.len() < planned.taps.len(),
        "{input:?}: the drop came too late"
    );
    let prefix: Vec<Point> = planned.taps[..got.len()].iter().map(|t| t.at).collect();
    assert_eq!(got, prefix, "{input:?}: taps that were not planned");
    let (givens, entries, solved) = sim.with_screen(|p| (p.givens(), p.entries(), p.is_solved()));
    assert!(!solved);
    drop(device);
    drop(sim);

    // The phone comes back (same game state, new connection): a re-run finishes the board.
    let mut phone =
        SudokuApp::new(givens, Skin::named("light").unwrap(), SMALL_SIZE.into()).unwrap();
    for c in Cell::all() {
        if let Some(d) = entries.get(c.into()) {
            phone.set_entry(c.into(), Some(d));
        }
    }
    let sim = rig::serve(phone, "instant", None, adb.addr());
    let mut device = rig::open(&sim, adb.addr(), input);
    let report = rig::play(&mut device, &cal, &templates, &rig::options(&cal)).unwrap();
    assert!(report.moves_done > 0 && report.moves_done < planned.move_ends.len());
    assert_solved(&sim, &mut device, "light", SMALL_SIZE);
}

#[test]
fn a_popup_over_the_grid_is_refused_without_a_single_tap() {
    let adb = adb_server::shared();
    let (cal, templates) = rig::calibration("light", SMALL_SIZE);
    let mut phone = rig::phone("light", SMALL_SIZE, "easy");
    phone.set_popup(true);
    let sim = rig::serve(phone, "instant", None, adb.addr());
    let mut device = rig::open(&sim, adb.addr(), InputKind::Stream);
    let err = rig::play(&mut device, &cal, &templates, &rig::options(&cal)).unwrap_err();
    assert_eq!(sudoku_agent::error::exit_code_for(&err), 1, "{err:#}");
    assert!(format!("{err:#}").contains("nothing was tapped"), "{err:#}");
    assert!(sim.taps().is_empty(), "taps: {:?}", sim.taps());
    assert_eq!(device.stats().taps, 0);
}

#[test]
fn a_calibration_for_another_screen_size_is_refused_without_a_tap() {
    let adb = adb_server::shared();
    let (cal, templates) = rig::calibration("light", SMALL_SIZE);
    let sim = rig::serve_easy("light", PHONE_SIZE, adb.addr());
    let mut device = rig::open(&sim, adb.addr(), InputKind::Stream);
    let err = rig::play(&mut device, &cal, &templates, &rig::options(&cal)).unwrap_err();
    let text = format!("{err:#}");
    support::assert_mentions(&text, &["1080x2340", "720x1280", "calibrate"]);
    assert!(sim.taps().is_empty());
}

#[test]
fn an_unsolvable_read_is_refused_without_a_tap() {
    let adb = adb_server::shared();
    let (cal, templates) = rig::calibration("light", SMALL_SIZE);
    // An app that draws its entries as its givens: one wrong entry (breaking no rule by
    // itself) reads as a given, and makes the puzzle, which has exactly one solution,
    // unsolvable as read.
    let skin = Skin::named("light").unwrap().entries_drawn_as_givens();
    let phone = SudokuApp::new(rig::puzzle("easy").into(), skin, SMALL_SIZE.into()).unwrap();
    let sim = rig::serve(phone, "instant", None, adb.addr());
    let solution = solution_of(&sim);
    let board = sim.with_screen(|p| p.board());
    let (cell, digit) = Cell::all()
        .filter(|&c| board.get(c.into()).is_none())
        .find_map(|c| {
            (1..=9)
                .find(|&d| Some(d) != solution.get(c) && allows(&board.into(), c, d))
                .map(|d| (c, d))
        })
        .unwrap();
    sim.with_screen(|p| p.set_entry(cell.into(), Some(digit)));
    let mut device = rig::open(&sim, adb.addr(), InputKind::Stream);
    let err = rig::play(&mut device, &cal, &templates, &rig::options(&cal)).unwrap_err();
    assert_eq!(sudoku_agent::error::exit_code_for(&err), 1, "{err:#}");
    assert!(format!("{err:#}").contains("no solution"), "{err:#}");
    assert!(sim.taps().is_empty());
}

#[test]
fn keep_entries_refuses_a_wrong_entry_without_a_tap() {
    let adb = adb_server::shared();
    let (cal, templates) = rig::calibration("light", SMALL_SIZE);
    let sim = rig::serve_easy("light", SMALL_SIZE, adb.addr());
    let (_, wrong) = add_right_and_wrong_entries(&sim);
    let mut device = rig::open(&sim, adb.addr(), InputKind::Batch);
    let options = sudoku_agent::play::PlayOptions {
        keep_entries: true,
        ..rig::options(&cal)
    };
    let err = rig::play(&mut device, &cal, &templates, &options).unwrap_err();
    assert!(format!("{err:#}").contains(&wrong.to_string()), "{err:#}");
    assert!(sim.taps().is_empty());
}

#[test]
fn play_tells_the_board_it_read_and_its_plan_before_the_first_tap() {
    let adb = adb_server::shared();
    let sim = rig::serve_easy("light", SMALL_SIZE, adb.addr());
    let (cal, templates) = rig::calibration("light", SMALL_SIZE);
    let mut device = rig::open(&sim, adb.addr(), InputKind::Stream);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let profile = Profile::new(cal.clone(), templates);
    let mut phone = Phone::new(&mut device, &profile, &stop, &|_| {});
    let mut told = None;
    sudoku_agent::play::play(&mut phone, &rig::options(&cal), &mut |step| {
        if let sudoku_agent::play::Step::Planned(a) = step {
            told = Some((a.recognition.board, a.moves.len(), sim.taps().len()));
        }
    })
    .unwrap();
    let (board, moves, taps_before) = told.expect("the plan is told");
    assert_eq!(board, Board::from(sim.with_screen(|p| p.givens())));
    assert_eq!(moves, board.to_line().matches('.').count());
    assert_eq!(taps_before, 0, "told before the first tap");
    assert!(sim.with_screen(|p| p.is_solved()));
}
