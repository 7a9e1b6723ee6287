//! Input backends through the real adb server and the simulated phone: for a 55-empty puzzle
//! entered cell-first (110 taps) on every phone preset with every input method it offers, the
//! simulated device time (taps alone, and with a raw screenshot before and after), host wall
//! time, host CPU of
//! the calling thread, adb round trips, and the ratio to one `input tap` per adb command on the
//! same preset, with each method's default pacing (no settle; the gap only after a key that a
//! cell tap follows), and the taps on the board that overtook a key's pending click
//! (`sudoku_sim::latency`). Run with `cargo bench --bench device_input`.

#[path = "../sim/tests/support/adb_server.rs"]
mod adb_server;
// Served phones and the solving taps: the same as the tests' (`tests/support/sim_phone.rs`).
#[allow(dead_code)]
#[path = "../tests/support/sim_phone.rs"]
mod sim_phone;

use std::time::{Duration, Instant};
use sudoku_agent::device::adb::{AdbDevice, AdbOptions};
use sudoku_agent::device::{Device, InputKind, Pacing};
use sudoku_agent::geometry::{Point, Rect, Size};
use sudoku_agent::sudoku::Cell;

/// magictour top1465 #1 with 55 empty cells.
const PUZZLE: &str =
    "9..7..3...5..2..1...7.....93..6..7...6..5..3...2..8..61..4..6...4..6..8...6..3..4";

/// CPU time of the calling thread (Linux), to leave out the simulated phone's own threads.
fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map(Duration::from_nanos)
        .unwrap_or_default()
}

struct Row {
    preset: &'static str,
    method: String,
    description: String,
    device_taps: Duration,
    device_total: Duration,
    wall: Duration,
    cpu: Duration,
    round_trips: u64,
    overtaken: u64,
}

fn run(server: &adb_server::AdbServer, preset: &'static str, kind: InputKind) -> Row {
    let phone = sim_phone::phone("light", Size::new(1080, 2340), PUZZLE);
    let taps = sim_phone::solving_taps(&phone);
    assert_eq!(taps.len(), 110);
    // The board's rectangle from its corner cells' centres.
    let (first, last): (Point, Point) = (
        phone.cell_center(Cell::new(0, 0).unwrap().into()).into(),
        phone.cell_center(Cell::new(8, 8).unwrap().into()).into(),
    );
    let pitch = (last.x - first.x) / 8;
    let board = Rect::new(
        first.x - pitch / 2,
        first.y - pitch / 2,
        pitch * 9,
        pitch * 9,
    );
    let sim = sim_phone::served(phone, preset, None, server);
    let options = AdbOptions {
        port: Some(server.port()),
        serial: Some(sim.serial()),
        input: Some(kind),
        ..AdbOptions::default()
    };
    let mut device = AdbDevice::open(&options).expect("open");
    // The method's own pacing (the injector's gap, evdev's hold and gap), without the settle,
    // and the board, after whose taps no gap is needed.
    device.set_pacing(Pacing {
        settle_ms: 0,
        ..Pacing::default_for(kind)
    });
    device.set_board(Some(board));
    let before = device.stats().round_trips();
    let (clock0, wall0, cpu0) = (sim.clock(), Instant::now(), thread_cpu());
    device.screenshot().expect("screenshot");
    let taps_start = sim.clock();
    device.tap_all(&taps).expect("tap");
    let device_taps = sim.clock() - taps_start;
    device.screenshot().expect("screenshot");
    let row = Row {
        preset,
        method: kind.to_string(),
        description: device.input_description(),
        device_taps,
        device_total: sim.clock() - clock0,
        wall: wall0.elapsed(),
        cpu: thread_cpu() - cpu0,
        round_trips: device.stats().round_trips() - before,
        overtaken: sim.overtaken(),
    };
    assert!(
        sim.with_screen(|p| p.is_solved()),
        "{preset} {kind}: not solved"
    );
    row
}

fn main() {
    let server = adb_server::shared();
    use InputKind::{Batch, Evdev, Inject, Stream, Tap};
    let plan: [(&str, &[InputKind]); 4] = [
        ("android9", &[Tap, Batch, Evdev, Inject]),
        ("android10", &[Tap, Batch, Inject]),
        ("android12", &[Tap, Batch, Stream, Inject]),
        ("android14", &[Tap, Batch, Stream, Inject]),
    ];
    println!(
        "{:<10} {:<7} {:>11} {:>13} {:>9} {:>9} {:>6} {:>7} {:>9}",
        "preset",
        "input",
        "device taps",
        "device +2shot",
        "host wall",
        "host cpu",
        "trips",
        "vs tap",
        "overtaken"
    );
    let mut notes = Vec::new();
    for (preset, kinds) in plan {
        let mut baseline = None;
        for &kind in kinds {
            let r = run(&server, preset, kind);
            let base = *baseline.get_or_insert(r.device_total);
            println!(
                "{:<10} {:<7} {:>10.2}s {:>12.2}s {:>7.1}ms {:>7.1}ms {:>6} {:>6.1}x {:>9}",
                r.preset,
                r.method,
                r.device_taps.as_secs_f64(),
                r.device_total.as_secs_f64(),
                r.wall.as_secs_f64() * 1e3,
                r.cpu.as_secs_f64() * 1e3,
                r.round_trips,
                base.as_secs_f64() / r.device_total.as_secs_f64(),
                r.overtaken
            );
            notes.push(format!("{preset} {}: {}", r.method, r.description));
        }
    }
    println!(
        "\ndevice: simulated phone clock (taps alone; with a raw screenshot before and after)"
    );
    println!("host cpu: the calling thread only (the simulated phone runs in this process too)");
    for n in notes {
        println!("{n}");
    }
}
