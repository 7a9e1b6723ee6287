//! Simulated phone benchmark (`cargo bench --bench sim`): host-side tap rate and screenshot
//! transfer time through a private `adb` server with adb_client's `ADBServerDevice`, against
//! the measured floors in notes/adb-protocol.md section 6, and the virtual device clock each
//! latency preset charges for one fixed tap sequence on every input path.

#[path = "../tests/support/adb_server.rs"]
mod adb_server;

use adb_client::ADBDeviceExt;
use adb_client::server_device::ADBServerDevice;
use std::io;
use std::time::{Duration, Instant};
use sudoku_agent::geometry::{Point, Size};
use sudoku_agent::sim::latency::PRESETS;
use sudoku_agent::sim::shell::{Ending, Shell, ShellIo};
use sudoku_agent::sim::touch::{self, TOUCHSCREEN};
use sudoku_agent::sim::{Key, Latency, Phone, SimConfig, SimServer, Skin, puzzles};
use sudoku_agent::sudoku::Cell;

const SIZE: Size = Size::new(1080, 2340);
/// Floors measured on this hardware against an instant fake (notes/adb-protocol.md 6), p50.
const FLOOR_TAP_MS: f64 = 0.88;
const FLOOR_PNG_MS: f64 = 1.96;

fn phone() -> Phone {
    let puzzle = puzzles::parse(puzzles::named("easy").unwrap()).unwrap();
    Phone::new(puzzle, Skin::default(), SIZE).unwrap()
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

struct Stats {
    p50: f64,
    p90: f64,
    mean: f64,
}

fn measure(n: usize, mut f: impl FnMut(usize)) -> Stats {
    let mut times = Vec::with_capacity(n);
    for i in 0..n {
        let t = Instant::now();
        f(i);
        times.push(t.elapsed());
    }
    let mean = times.iter().sum::<Duration>().as_secs_f64() * 1000.0 / n as f64;
    times.sort();
    Stats {
        p50: percentile(&times, 0.5),
        p90: percentile(&times, 0.9),
        mean,
    }
}

/// The fixed sequence: 20 moves on the first 20 empty cells, cell then digit (40 taps).
fn tap_sequence(phone: &Phone) -> Vec<Point> {
    let board = phone.board();
    Cell::all()
        .filter(|&c| board.get(c).is_none())
        .take(20)
        .enumerate()
        .flat_map(|(i, c)| {
            [
                phone.cell_center(c),
                phone.key_center(Key::Digit(i as u8 % 9 + 1)),
            ]
        })
        .collect()
}

/// Shell I/O for driving the handset in-process: fixed stdin, output discarded.
struct Feed(Vec<Vec<u8>>);

impl ShellIo for Feed {
    fn read_stdin(&mut self) -> Option<Vec<u8>> {
        (!self.0.is_empty()).then(|| self.0.remove(0))
    }
    fn write_output(&mut self, _fd: u8, _data: &[u8]) -> io::Result<()> {
        Ok(())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn host_side(adb: &adb_server::AdbServer) {
    let sim = SimServer::start(phone(), SimConfig::default()).unwrap();
    adb.connect(&sim.serial());
    let mut device = ADBServerDevice::new(sim.serial(), Some(adb.addr()));
    let taps = sim.with_screen(|p| tap_sequence(p));
    let cmds: Vec<String> = taps
        .iter()
        .map(|p| format!("input tap {} {}", p.x, p.y))
        .collect();
    for c in cmds.iter().take(20) {
        device.shell_command(c, None, None).unwrap();
    }
    let n_taps = 600;
    let tap = measure(n_taps, |i| {
        device
            .shell_command(&cmds[i % cmds.len()], None, None)
            .unwrap();
    });
    let taps_per_s = 1000.0 / tap.mean;

    // First screenshot after a change: render + PNG encode + transfer.
    let mut png = Vec::new();
    let t = Instant::now();
    device
        .shell_command(&"screencap -p", Some(&mut png), None)
        .unwrap();
    let fresh_ms = t.elapsed().as_secs_f64() * 1000.0;
    let png_len = png.len();
    let shot = measure(60, |_| {
        let mut buf = Vec::with_capacity(png_len);
        device
            .shell_command(&"screencap -p", Some(&mut buf), None)
            .unwrap();
        assert_eq!(buf.len(), png_len);
    });
    let raw = measure(10, |_| {
        let mut buf = Vec::with_capacity(16 + 1080 * 2340 * 4);
        device
            .shell_command(&"screencap", Some(&mut buf), None)
            .unwrap();
        assert_eq!(buf.len(), 16 + 1080 * 2340 * 4);
    });

    println!(
        "\nHost side through the adb server (adb_client ADBServerDevice, instant preset, 1080x2340)"
    );
    println!(
        "{:<44} {:>9} {:>9} {:>9} {:>9} {:>12}",
        "operation", "p50 ms", "p90 ms", "mean ms", "floor ms", "p50 / floor"
    );
    let row = |name: &str, s: &Stats, floor: Option<f64>| {
        let (f, r) = match floor {
            Some(f) => (format!("{f:.2}"), format!("{:.2}x", s.p50 / f)),
            None => ("-".into(), "-".into()),
        };
        println!(
            "{name:<44} {:>9.2} {:>9.2} {:>9.2} {f:>9} {r:>12}",
            s.p50, s.p90, s.mean
        );
    };
    row(
        &format!("shell_command(\"input tap X Y\") x{n_taps}"),
        &tap,
        Some(FLOOR_TAP_MS),
    );
    row(
        &format!("shell_command(\"screencap -p\"), {png_len} B"),
        &shot,
        Some(FLOOR_PNG_MS),
    );
    row("shell_command(\"screencap\") raw, 10108816 B", &raw, None);
    println!(
        "taps/s: {taps_per_s:.0}; first screenshot after a change (render + encode + transfer): {fresh_ms:.1} ms"
    );
}

/// One input path: how a host would send the fixed tap sequence as (session command, stdin).
fn path_scripts(name: &str, taps: &[Point]) -> Vec<(String, Vec<Vec<u8>>)> {
    match name {
        "adb shell input tap (one per tap)" => taps
            .iter()
            .map(|p| (format!("input tap {} {}", p.x, p.y), vec![]))
            .collect(),
        "cmd input tap lines, long-lived shell" => {
            let lines: String = taps
                .iter()
                .map(|p| format!("cmd input tap {} {}; echo __ok=$?\n", p.x, p.y))
                .collect();
            vec![(String::new(), vec![lines.into_bytes()])]
        }
        "sendevent lines, long-lived shell" => {
            let lines: String = taps
                .iter()
                .enumerate()
                .flat_map(|(i, &p)| touch::tap_events(p, SIZE, i as i32 + 1))
                .map(|e| {
                    format!(
                        "sendevent {TOUCHSCREEN} {} {} {}\n",
                        e.kind, e.code, e.value
                    )
                })
                .collect();
            vec![(String::new(), vec![lines.into_bytes()])]
        }
        _ => {
            let records: Vec<u8> = taps
                .iter()
                .enumerate()
                .flat_map(|(i, &p)| touch::tap_events(p, SIZE, i as i32 + 1))
                .flat_map(|e| e.to_record())
                .collect();
            vec![(
                format!("dd of={TOUCHSCREEN} ibs=4096 obs=24 status=none"),
                vec![records],
            )]
        }
    }
}

fn virtual_clock() {
    const PATHS: [&str; 4] = [
        "adb shell input tap (one per tap)",
        "cmd input tap lines, long-lived shell",
        "sendevent lines, long-lived shell",
        "raw input_event records via dd",
    ];
    let taps = tap_sequence(&phone());
    println!(
        "\nVirtual device clock for the fixed sequence: {} taps (20 moves, cell then digit), 1080x2340",
        taps.len()
    );
    print!("{:<40}", "path");
    for p in PRESETS {
        print!(" {:>18}", p.name);
    }
    println!();
    for path in PATHS {
        print!("{path:<40}");
        for preset in PRESETS {
            let sim = SimServer::start(
                phone(),
                SimConfig {
                    latency: preset.clone(),
                    ..SimConfig::default()
                },
            )
            .unwrap();
            let mut refused = false;
            for (command, stdin) in path_scripts(path, &taps) {
                let mut io = Feed(stdin);
                let ending = Shell::new(sim.handset(), &mut io).run(&command);
                refused |= ending != Ending::Exit(0);
            }
            let landed = sim.taps().len();
            if refused || landed != taps.len() {
                print!(" {:>18}", format!("refused ({landed} taps)"));
            } else {
                let total = sim.clock().as_secs_f64();
                print!(
                    " {:>18}",
                    format!(
                        "{total:.3} s ({:.1} ms/tap)",
                        total * 1000.0 / taps.len() as f64
                    )
                );
            }
        }
        println!();
    }
    print!("{:<40}", "screencap -p / raw screencap");
    for p in PRESETS {
        let px = SIZE.width as u64 * SIZE.height as u64;
        print!(
            " {:>18}",
            format!(
                "{:.0} / {:.0} ms",
                p.screencap(px, true).as_secs_f64() * 1000.0,
                p.screencap(px, false).as_secs_f64() * 1000.0
            )
        );
    }
    println!();
    let _ = Latency::default();
}

fn main() {
    let t = Instant::now();
    let adb = adb_server::AdbServer::start();
    host_side(&adb);
    drop(adb);
    virtual_clock();
    println!("\n(bench ran in {:.1} s)", t.elapsed().as_secs_f64());
}
