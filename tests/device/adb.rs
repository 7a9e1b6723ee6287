//! The device layer through the real `adb` server: a simulated phone (`SimServer`, the fake adbd
//! on 127.0.0.1) is `adb connect`ed to a private server, and `AdbDevice` (adb_client) lists it,
//! takes screenshots (raw and PNG) and taps it with every input method the phone allows. The
//! app on the phone is a small test screen that draws a dot where it is tapped, so each check
//! looks both at what the phone recorded and at the pixels that come back.

use crate::support;
use crate::support::adb_server;

use adb_server::AdbServer as PrivateServer;
use image::{Rgba, RgbaImage};
use std::sync::Arc;
use sudoku_agent::device::adb::{
    AdbDevice, AdbOptions, InputProbe, NO_DEVICE_HINT, ScreenshotMode,
};
use sudoku_agent::device::{
    AdbServerGone, Device, InputKind, Key as PhoneKey, Pacing, ScreenState, TapsRefused,
    wake_screen,
};
use sudoku_agent::geometry::{Point, Rect, Size};
use sudoku_sim::{Key, Screen, SimServer, Skin, SudokuApp, TapSource, puzzles};
use support::sim_phone::{phone as app_of, served, solving_taps};

const SCREEN: Size = Size::new(360, 640);
const DOT: Rgba<u8> = Rgba([200, 0, 30, 255]);

/// A screen with a gradient (so pixel order and channels are checked) and a 3x3 dot per tap.
struct DotScreen {
    taps: Vec<Point>,
}

impl Screen for DotScreen {
    fn size(&self) -> sudoku_sim::Size {
        SCREEN.into()
    }

    fn render(&mut self) -> RgbaImage {
        let mut img = RgbaImage::from_fn(SCREEN.width, SCREEN.height, |x, y| {
            Rgba([(x % 256) as u8, (y % 256) as u8, ((x + y) % 199) as u8, 255])
        });
        for p in &self.taps {
            for dy in 0..3 {
                for dx in 0..3 {
                    let (x, y) = ((p.x + dx).saturating_sub(1), (p.y + dy).saturating_sub(1));
                    if x < SCREEN.width && y < SCREEN.height {
                        img.put_pixel(x, y, DOT);
                    }
                }
            }
        }
        img
    }

    fn tap(&mut self, at: sudoku_sim::Point) {
        self.taps.push(at.into());
    }

    /// The upper half is a board view that acts on touches itself; below are buttons.
    fn acts_on_touch(&self, at: sudoku_sim::Point) -> bool {
        Point::from(at).y < BOARD.height
    }
}

/// The part of `DotScreen` that acts on touches at once.
const BOARD: Rect = Rect::new(0, 0, 360, 320);

/// A simulated phone with the `preset` latency, connected to `server`.
fn phone(server: &PrivateServer, preset: &str) -> SimServer<DotScreen> {
    served(DotScreen { taps: Vec::new() }, preset, None, server)
}

/// No hold, gap or settle: the simulated phone registers every tap at once.
const NO_PACING: Pacing = Pacing {
    hold_ms: 0,
    gap_ms: 0,
    settle_ms: 0,
};

fn options(server: &PrivateServer, serial: &str, input: Option<InputKind>) -> AdbOptions {
    AdbOptions {
        port: Some(server.port()),
        serial: Some(serial.to_string()),
        input,
        ..AdbOptions::default()
    }
}

fn agent(server: &PrivateServer, args: &[&str]) -> std::process::Output {
    support::agent()
        .args(args)
        .args(["-P", &server.port().to_string()])
        .env_remove("ANDROID_SERIAL")
        .env_remove("ANDROID_ADB_SERVER_PORT")
        .output()
        .expect("run sudoku-agent")
}

/// Points spread over the screen, including its corners.
fn sample_taps() -> Vec<Point> {
    vec![
        Point::new(0, 0),
        Point::new(359, 639),
        Point::new(180, 320),
        Point::new(17, 600),
        Point::new(300, 41),
        Point::new(180, 320),
    ]
}

fn assert_taps_landed(
    sim: &SimServer<DotScreen>,
    device: &mut AdbDevice,
    taps: &[Point],
    source: TapSource,
) {
    let recorded = sim.taps();
    assert_eq!(
        recorded
            .iter()
            .map(|t| Point::from(t.at))
            .collect::<Vec<_>>(),
        taps,
        "{}",
        device.input_description()
    );
    assert!(recorded.iter().all(|t| t.source == source), "{recorded:?}");
    let img = device.screenshot().expect("screenshot after tapping");
    for p in taps {
        assert_eq!(
            img.get_pixel(p.x, p.y),
            &DOT,
            "no dot at {p:?} with {}",
            device.input_description()
        );
    }
}

#[test]
fn devices_lists_the_simulated_phone_with_its_version_screen_and_input() {
    // A server of its own: on the shared one, other tests' phones come and go (and `devices`
    // exits 1 when one of them stops answering mid-probe).
    let server = PrivateServer::start();
    let sim = phone(&server, "android12");
    let out = agent(&server, &["devices"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let row = text
        .lines()
        .find(|l| l.starts_with(&sim.serial()))
        .unwrap_or_else(|| panic!("{text}"));
    let cols: Vec<&str> = row
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        cols,
        [
            sim.serial().as_str(),
            "device",
            "SimPhone",
            "12 (API 31)",
            "360x640",
            "inject (InputManager)"
        ]
    );

    let out = agent(&server, &["devices", "--json"]);
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["serial"] == sim.serial().as_str())
        .unwrap();
    assert_eq!(
        (row["sdk"].as_u64(), row["screen"].as_str()),
        (Some(31), Some("360x640"))
    );

    // A phone that refuses injected input says so in its row, and the setting on stderr.
    let refusing = phone(&server, "android12");
    refusing.handset().set_injection_refused(true);
    let out = agent(&server, &["devices"]);
    let (text, err) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    let row = text
        .lines()
        .find(|l| l.starts_with(&refusing.serial()))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(row.trim_end().ends_with("input refused"), "{row}");
    assert!(
        err.contains(&format!(
            "{}: Android refuses injected input",
            refusing.serial()
        )) && err.contains("\"USB debugging (Security settings)\""),
        "{err}"
    );
    assert!(refusing.taps().is_empty(), "devices tapped nothing");
}

#[test]
fn raw_and_png_screenshots_match_the_phone_render_pixel_for_pixel() {
    let server = adb_server::shared();
    let sim = phone(&server, "android12");
    let expected = sim.with_screen(|s| s.render());
    let mut device = AdbDevice::open(&options(&server, &sim.serial(), None)).expect("open");
    assert_eq!(device.screen_size().unwrap(), SCREEN);
    assert_eq!(device.screenshot().unwrap(), expected);
    device.set_screenshot_mode(ScreenshotMode::Png);
    assert_eq!(device.screenshot().unwrap(), expected);
    assert!(
        sim.command_log().iter().any(|c| c == "screencap"),
        "{:?}",
        sim.command_log()
    );
    assert!(sim.command_log().iter().any(|c| c == "screencap -p"));

    let dir = crate::support::temp_dir("device-adb");
    let out_png = dir.join("shot.png");
    let serial = sim.serial();
    for extra in [&[][..], &["--png"][..]] {
        let mut args = vec!["screenshot", "-s", &serial, "-o", out_png.to_str().unwrap()];
        args.extend_from_slice(extra);
        let out = agent(&server, &args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(image::open(&out_png).unwrap().to_rgba8(), expected);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A [`phone`] with the `preset` latency on `server`, opened with `input`.
fn opened(
    server: &PrivateServer,
    preset: &str,
    input: Option<InputKind>,
) -> (SimServer<DotScreen>, AdbDevice) {
    let sim = phone(server, preset);
    let device = AdbDevice::open(&options(server, &sim.serial(), input)).expect("open");
    (sim, device)
}

/// [`opened`] with `kind` (the injector when `None`: auto picks it on both presets), unpaced.
fn open_unpaced(
    server: &PrivateServer,
    preset: &str,
    kind: Option<InputKind>,
) -> (SimServer<DotScreen>, AdbDevice) {
    let (sim, mut device) = opened(server, preset, kind);
    assert_eq!(
        device.input_method().kind(),
        kind.unwrap_or(InputKind::Inject),
        "auto picks the injector on {preset}"
    );
    device.set_pacing(NO_PACING);
    (sim, device)
}

/// The input methods both Android 9 and 12 offer (auto picks the injector), each with where its
/// taps come from on the phone.
const ON_EVERY_PRESET: [(Option<InputKind>, TapSource); 4] = [
    (None, TapSource::Injected),
    (Some(InputKind::Inject), TapSource::Injected),
    (Some(InputKind::Batch), TapSource::InputTap),
    (Some(InputKind::Tap), TapSource::InputTap),
];

#[test]
fn every_input_method_android9_allows_lands_its_taps() {
    let server = adb_server::shared();
    for (kind, source) in [(Some(InputKind::Evdev), TapSource::RawEvents)]
        .into_iter()
        .chain(ON_EVERY_PRESET)
    {
        let (sim, mut device) = open_unpaced(&server, "android9", kind);
        if device.input_method().kind() == InputKind::Evdev {
            // The phone's shell has printf: the main path, not the dd-stream fallback.
            let description = device.input_description();
            assert!(description.ends_with("printf)"), "{description}");
        }
        device.tap_all(&sample_taps()).expect("tap");
        assert_taps_landed(&sim, &mut device, &sample_taps(), source);
    }
}

#[test]
fn every_input_method_android12_allows_lands_its_taps_and_evdev_is_refused() {
    let server = adb_server::shared();
    for (kind, source) in [(Some(InputKind::Stream), TapSource::InputTap)]
        .into_iter()
        .chain(ON_EVERY_PRESET)
    {
        let (sim, mut device) = open_unpaced(&server, "android12", kind);
        device.tap_all(&sample_taps()).expect("tap");
        // A second call reuses the long-lived shell.
        device.tap_all(&[Point::new(5, 6)]).expect("tap again");
        let mut all = sample_taps();
        all.push(Point::new(5, 6));
        assert_taps_landed(&sim, &mut device, &all, source);
    }
    let sim = phone(&server, "android12");
    let err =
        AdbDevice::open(&options(&server, &sim.serial(), Some(InputKind::Evdev))).unwrap_err();
    let msg = format!("{err:#}");
    support::assert_mentions(
        &msg,
        &["--input evdev is not possible", "use --input stream"],
    );
}

#[test]
fn held_taps_and_pacing_reach_the_phone_as_sleeps_on_its_clock() {
    let server = adb_server::shared();
    let (sim, mut device) = opened(&server, "android12", Some(InputKind::Stream));
    device.set_pacing(Pacing {
        hold_ms: 40,
        gap_ms: 100,
        settle_ms: 250,
    });
    let before = sim.clock();
    device
        .tap_all(&[Point::new(10, 10), Point::new(20, 20)])
        .expect("tap");
    let spent = sim.clock() - before;
    // Two 40 ms holds, one 100 ms gap, 250 ms settle, plus the modelled `cmd input` cost.
    assert!(spent.as_millis() >= 430, "{spent:?}");
    assert_eq!(
        sim.taps()
            .iter()
            .map(|t| Point::from(t.at))
            .collect::<Vec<_>>(),
        [Point::new(10, 10), Point::new(20, 20)]
    );
}

#[test]
fn the_injectors_pacing_lets_each_click_run_before_the_next_touch() {
    let server = adb_server::shared();
    let (sim, mut device) = opened(&server, "android12", Some(InputKind::Inject));
    // A cell, then a key, six times over, as a cell-first app is played.
    let taps: Vec<Point> = (0..12)
        .map(|i| Point::new(20 + 30 * i, if i % 2 == 0 { 100 } else { 500 }))
        .collect();
    device.tap_all(&taps).expect("tap");
    assert_eq!(sim.taps().len(), 12);
    assert_eq!(sim.overtaken(), 0, "a touch overtook a pending click");
    // Told where the board is, the gap follows only the keys: still nothing overtaken, sooner.
    device.set_board(Some(BOARD));
    let (before, clock) = (sim.taps().len(), sim.clock());
    device.tap_all(&taps).expect("tap");
    let with_board = sim.clock() - clock;
    assert_eq!(sim.taps().len(), before + 12);
    assert_eq!(sim.overtaken(), 0, "a touch overtook a pending click");
    let gap = u64::from(device.pacing().gap_ms);
    device.set_board(None);
    let clock = sim.clock();
    device.tap_all(&taps).expect("tap");
    let everywhere = sim.clock() - clock;
    assert!(
        everywhere.as_millis() as u64 >= with_board.as_millis() as u64 + 5 * gap,
        "{everywhere:?} with a gap after every tap, {with_board:?} after keys only"
    );
    // Without the gap the injector outruns the app's frames, as it would on a phone.
    let pacing = device.pacing();
    device.set_pacing(Pacing {
        gap_ms: 0,
        ..pacing
    });
    device.tap_all(&taps).expect("tap");
    assert!(sim.overtaken() > 3, "{}", sim.overtaken());
}

#[test]
fn taps_outside_the_screen_are_refused_before_anything_is_sent() {
    let server = adb_server::shared();
    let (sim, mut device) = opened(&server, "android9", None);
    let err = device
        .tap_all(&[Point::new(1, 1), Point::new(360, 5)])
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("refusing to tap at (360, 5)"), "{err}");
    assert!(sim.taps().is_empty());
}

#[test]
fn no_device_and_two_devices_say_what_to_do() {
    // A server of our own: the shared one has other tests' phones attached.
    let server = Arc::new(PrivateServer::start());
    let err = AdbDevice::open(&AdbOptions {
        port: Some(server.port()),
        ..AdbOptions::default()
    })
    .unwrap_err();
    assert_eq!(err.to_string(), NO_DEVICE_HINT);
    let out = agent(
        &server,
        &["screenshot", "-o", "/nonexistent/never-written.png"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        format!("error: {NO_DEVICE_HINT}")
    );

    let a = phone(&server, "instant");
    let b = phone(&server, "instant");
    let err = AdbDevice::open(&AdbOptions {
        port: Some(server.port()),
        ..AdbOptions::default()
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.starts_with("2 devices attached: ") && err.ends_with("pass -s SERIAL to pick one"),
        "{err}"
    );
    assert!(
        err.contains(&a.serial()) && err.contains(&b.serial()),
        "{err}"
    );
    let mut device = AdbDevice::open(&options(&server, &b.serial(), None)).expect("open by serial");
    device.tap_all(&[Point::new(3, 4)]).unwrap();
    assert_eq!(b.taps().len(), 1);
    assert!(a.taps().is_empty());
}

#[test]
fn a_phone_that_vanishes_mid_stream_gives_a_clear_error_and_no_more_taps() {
    // Its own adb server: a phone vanishing mid-stream can crash adb 29.0.6 (a use-after-free in
    // its socket code), and a crash must not fail the other tests sharing a server.
    let server = PrivateServer::start();
    let sim = served(
        DotScreen { taps: Vec::new() },
        "android12",
        Some(8),
        &server,
    );
    let mut device =
        AdbDevice::open(&options(&server, &sim.serial(), Some(InputKind::Stream))).expect("open");
    device.set_pacing(NO_PACING);
    let taps: Vec<Point> = (0..20).map(|i| Point::new(10 + i, 10)).collect();
    let err = format!("{:#}", device.tap_all(&taps).unwrap_err());
    assert!(
        err.contains("lost") || err.contains("gone") || err.contains("ended"),
        "{err}"
    );
    assert!(sim.is_gone());
    let landed = sim.taps();
    assert!(landed.len() < taps.len());
    assert_eq!(
        landed.iter().map(|t| Point::from(t.at)).collect::<Vec<_>>(),
        taps[..landed.len()]
    );
}

/// The real simulated app (light skin, cell-first, 1080x2340) with the built-in easy puzzle.
fn app() -> (SudokuApp, Vec<Point>) {
    let phone = app_of("light", Size::new(1080, 2340), "easy");
    let taps = solving_taps(&phone);
    (phone, taps)
}

#[test]
fn the_simulated_app_is_solved_through_adb_with_the_fastest_method_of_each_preset() {
    let server = adb_server::shared();
    // The fastest on every preset is the on-device injector.
    for preset in ["android9", "android10", "android12", "android14"] {
        let (phone, taps) = app();
        let sim = served(phone, preset, None, &server);
        let mut device = AdbDevice::open(&options(&server, &sim.serial(), None)).expect("open");
        assert_eq!(device.input_method().kind(), InputKind::Inject, "{preset}");
        device.set_pacing(NO_PACING);
        device.tap_all(&taps).expect("tap the solution in");
        assert!(
            sim.with_screen(|p| p.is_solved()),
            "{preset}: board not solved: {}",
            sim.with_screen(|p| p.board().to_line())
        );
        assert_eq!(
            device.screenshot().unwrap(),
            sim.with_screen(|p| p.render()),
            "{preset}: pixels differ"
        );
    }
}

#[test]
fn the_injector_is_pushed_once_per_version_and_reports_its_input_manager() {
    let server = adb_server::shared();
    for (preset, manager) in [
        ("android10", "inject (InputManager)"),
        ("android14", "inject (InputManagerGlobal)"),
    ] {
        let sim = phone(&server, preset);
        let pushes = || {
            sim.command_log()
                .iter()
                .filter(|c| c.starts_with("printf") && c.contains("sudoku-agent-injector-"))
                .count()
        };
        let mut device = AdbDevice::open(&options(&server, &sim.serial(), None)).expect("open");
        assert_eq!(device.input_description(), manager);
        let first = pushes();
        assert!(first > 1, "{preset}: pushed in {first} commands");
        assert!(
            sim.command_log()
                .iter()
                .all(|c| !c.contains("sudoku-agent-injector-")
                    || c.contains("/data/local/tmp/sudoku-agent-injector-")),
            "only under /data/local/tmp"
        );
        device.tap_all(&sample_taps()).expect("tap");
        drop(device);
        let mut again = AdbDevice::open(&options(&server, &sim.serial(), None)).expect("reopen");
        assert_eq!(
            pushes(),
            first,
            "{preset}: the same version is not pushed again"
        );
        again.tap_all(&[Point::new(5, 6)]).expect("tap again");
        let mut all = sample_taps();
        all.push(Point::new(5, 6));
        assert_taps_landed(&sim, &mut again, &all, TapSource::Injected);
    }
}

#[test]
fn a_phone_that_refuses_injection_falls_back_under_auto_and_says_what_to_enable() {
    let server = adb_server::shared();
    // Android 9 with raw events allowed: auto's fallback, evdev, is not injection and works.
    let sim = phone(&server, "android9");
    sim.handset().set_injection_refused(true);
    let mut device = AdbDevice::open(&options(&server, &sim.serial(), None)).expect("open");
    assert_eq!(device.input_method().kind(), InputKind::Inject);
    device.tap_all(&sample_taps()).expect("falls back and taps");
    assert_eq!(device.input_method().kind(), InputKind::Evdev);
    assert_taps_landed(&sim, &mut device, &sample_taps(), TapSource::RawEvents);

    // Asked for explicitly, the refusal is the error, in one line with the fix.
    let sim = phone(&server, "android12");
    sim.handset().set_injection_refused(true);
    let mut device =
        AdbDevice::open(&options(&server, &sim.serial(), Some(InputKind::Inject))).expect("open");
    let msg = format!("{:#}", device.tap_all(&sample_taps()).unwrap_err());
    assert!(
        msg.contains("INJECT_EVENTS") && msg.contains("\"USB debugging (Security settings)\""),
        "{msg}"
    );
    assert_eq!(msg.lines().count(), 1, "{msg}");
    assert!(sim.taps().is_empty());
}

// Moved here from the simulated phone's own tests when it became the `sudoku-sim` crate: these
// drive it with the agent (its `sim` command and its `AdbDevice`), which that crate never links.

/// The sudoku app on the default skin, served and connected to the private adb server.
fn connected_app(server: &PrivateServer, latency: &str) -> SimServer<SudokuApp> {
    let puzzle = puzzles::parse(puzzles::named("easy").unwrap()).unwrap();
    let phone = SudokuApp::new(puzzle, Skin::default(), sudoku_sim::Size::new(1080, 2340)).unwrap();
    served(phone, latency, None, server)
}

/// The first empty cell of the app's puzzle and a digit for it.
fn empty_cell(sim: &SimServer<SudokuApp>) -> (sudoku_sim::Cell, u8) {
    let board = sim.with_screen(|p| p.board());
    let cell = sudoku_sim::Cell::all()
        .find(|&c| board.get(c).is_none())
        .unwrap();
    (cell, 5)
}

#[test]
fn sim_subcommand_prints_the_connect_line_and_stops_cleanly_on_ctrl_c() {
    let adb = adb_server::shared();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-agent"))
        .args([
            "sim",
            "--skin",
            "dark",
            "--size",
            "720x1280",
            "--latency",
            "android9",
        ])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Read;
    let mut stdout = child.stdout.take().unwrap();
    let mut text = String::new();
    let mut buf = [0u8; 256];
    while !text.contains("adb connect") {
        let n = stdout.read(&mut buf).unwrap();
        assert!(n > 0, "sim exited early: {text}");
        text.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    while !text.ends_with('\n') {
        let n = stdout.read(&mut buf).unwrap();
        text.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    let serial = text
        .lines()
        .find_map(|l| l.strip_prefix("adb connect "))
        .unwrap()
        .trim()
        .to_string();
    adb.connect(&serial);
    let out = adb.device(
        &serial,
        &["shell", "wm size; getprop ro.build.version.release"],
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Physical size: 720x1280\n9\n"
    );

    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let status = child.wait().unwrap();
    assert!(
        status.success(),
        "sim should exit 0 on Ctrl-C, got {status:?}"
    );
}

/// Taps an empty cell and a digit for it through `device`: the digit must land, from exactly
/// those two taps, both raw touchscreen events.
fn assert_a_move_lands_as_raw_events(sim: &SimServer<SudokuApp>, device: &mut AdbDevice) {
    let (cell, digit) = empty_cell(sim);
    let (at, key) = sim.with_screen(|p| (p.cell_center(cell), p.key_center(Key::Digit(digit))));
    device.tap_all(&[at.into(), key.into()]).unwrap();
    assert_eq!(sim.with_screen(|p| p.board().get(cell)), Some(digit));
    let taps = sim.taps();
    assert_eq!(taps.iter().map(|t| t.at).collect::<Vec<_>>(), [at, key]);
    assert!(taps.iter().all(|t| t.source == TapSource::RawEvents));
}

#[test]
fn the_device_layer_takes_the_printf_evdev_path_on_android9_and_its_taps_land() {
    let adb = adb_server::shared();
    let sim = connected_app(&adb, "android9");
    let mut device =
        AdbDevice::open(&options(&adb, &sim.serial(), Some(InputKind::Evdev))).unwrap();
    // The phone's shell has printf, so the adapter writes records with `printf | dd`, not the
    // host-timed `dd` stream it keeps for phones without printf.
    let description = device.input_description();
    assert!(description.ends_with("printf)"), "{description}");
    assert_a_move_lands_as_raw_events(&sim, &mut device);
    let log = sim.command_log();
    assert!(
        log.iter()
            .any(|l| l.starts_with("printf '\\") && l.contains("| dd of=/dev/input/event")),
        "{log:?}"
    );
}

#[test]
fn a_phone_without_printf_gets_the_dd_stream_fallback_and_its_taps_land() {
    let adb = adb_server::shared();
    let sim = connected_app(&adb, "android9");
    sim.handset().set_printf(false);
    let mut device =
        AdbDevice::open(&options(&adb, &sim.serial(), Some(InputKind::Evdev))).unwrap();
    let description = device.input_description();
    assert!(description.ends_with("dd stream)"), "{description}");
    assert_a_move_lands_as_raw_events(&sim, &mut device);
}

#[test]
fn refused_input_ends_in_one_typed_line_naming_the_setting_and_nothing_is_tapped() {
    let server = adb_server::shared();
    // Auto on Android 12: the injector is refused, then `cmd input` alike; the methods asked for
    // are refused at their first line.
    let cases = [
        ("android12", None),
        ("android12", Some(InputKind::Stream)),
        ("android9", Some(InputKind::Batch)),
        ("android9", Some(InputKind::Tap)),
    ];
    for (preset, input) in cases {
        let sim = phone(&server, preset);
        sim.handset().set_injection_refused(true);
        let mut device = AdbDevice::open(&options(&server, &sim.serial(), input)).expect("open");
        device.set_pacing(NO_PACING);
        let err = device.tap_all(&sample_taps()).unwrap_err();
        let msg = format!("{err:#}");
        let refused = err
            .downcast_ref::<TapsRefused>()
            .unwrap_or_else(|| panic!("{preset} {input:?}: {msg}"));
        assert_eq!((refused.sent, refused.total), (0, sample_taps().len()));
        assert!(refused.ends_run(), "{msg}");
        assert_eq!(msg.lines().count(), 1, "{msg}");
        assert!(
            msg.contains("nothing was tapped")
                && msg.contains("\"USB debugging (Security settings)\""),
            "{msg}"
        );
        assert!(sim.taps().is_empty(), "{preset} {input:?}");
    }
}

#[test]
fn the_simulated_phone_reads_as_on_takes_keys_and_names_its_serial() {
    let server = adb_server::shared();
    let (sim, mut device) = opened(&server, "android12", Some(InputKind::Stream));
    // The simulated phone has no `dumpsys power`: what is not understood reads as on.
    assert_eq!(device.screen_state().unwrap(), ScreenState::On);
    wake_screen(&mut device, &|said| panic!("said {said:?}")).expect("on: nothing to do");
    device.press_key(PhoneKey::Wakeup).expect("wake key");
    device.press_key(PhoneKey::Back).expect("back key");
    let log = sim.command_log();
    assert!(
        log.iter()
            .any(|c| c.contains("input keyevent KEYCODE_WAKEUP"))
            && log
                .iter()
                .any(|c| c.contains("input keyevent KEYCODE_BACK")),
        "{log:?}"
    );
    assert_eq!(device.serial(), Some(sim.serial()));
    assert_eq!(device.probe_input().unwrap(), InputProbe::Accepted);
    assert!(sim.taps().is_empty());
}

#[test]
fn an_adb_server_killed_mid_run_is_named_with_how_to_start_it_again() {
    // Its own server: this test stops it.
    let server = PrivateServer::start();
    let (_sim, mut device) = opened(&server, "android12", Some(InputKind::Stream));
    device.set_pacing(NO_PACING);
    device.tap_all(&[Point::new(5, 5)]).expect("tap");
    assert!(server.run(&["kill-server"]).status.success());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while server.is_listening() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let start = format!("`adb -P {} start-server`", server.port());
    let tapped = device.tap_all(&[Point::new(6, 6)]).unwrap_err();
    let shot = device.screenshot().unwrap_err();
    for err in [tapped, shot] {
        let msg = format!("{err:#}");
        assert!(err.downcast_ref::<AdbServerGone>().is_some(), "{msg}");
        assert!(
            msg.contains("stopped (connection refused") && msg.contains(&start),
            "{msg}"
        );
        assert!(!msg.contains("check the phone"), "{msg}");
    }
    // Back up, so the server's own check at the end does not report a crash.
    assert!(server.run(&["start-server"]).status.success());
}

#[test]
fn a_refusal_after_taps_have_landed_is_a_lost_tap_the_caller_may_retry() {
    let server = adb_server::shared();
    for (preset, input) in [
        ("android12", None),
        ("android12", Some(InputKind::Stream)),
        ("android9", Some(InputKind::Batch)),
    ] {
        let sim = phone(&server, preset);
        let mut device = AdbDevice::open(&options(&server, &sim.serial(), input)).expect("open");
        device.set_pacing(NO_PACING);
        device.tap_all(&sample_taps()).expect("taps land first");
        sim.handset().set_injection_refused(true);
        let err = device.tap_all(&[Point::new(7, 8)]).unwrap_err();
        let msg = format!("{err:#}");
        let refused = err
            .downcast_ref::<TapsRefused>()
            .unwrap_or_else(|| panic!("{preset} {input:?}: {msg}"));
        assert_eq!((refused.sent, refused.total), (0, 1), "{msg}");
        assert!(!refused.ends_run(), "{msg}");
        assert!(msg.contains("after 0 of 1 taps"), "{msg}");
        assert_eq!(sim.taps().len(), sample_taps().len());
        // Allowed again, the same device takes taps.
        sim.handset().set_injection_refused(false);
        device.tap_all(&[Point::new(7, 8)]).expect("taps again");
        assert_eq!(sim.taps().len(), sample_taps().len() + 1);
    }
}
