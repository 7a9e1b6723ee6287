//! Simulated phone benchmark (`cargo bench -p sudoku-sim --bench sim`): host-side tap rate and screenshot
//! transfer time through a private `adb` server with adb_client's `ADBServerDevice`, against
//! the measured floors in notes/adb-protocol.md section 6, and the virtual device clock each
//! latency preset charges for one fixed tap sequence on every input path.

#[path = "../tests/support/adb_server.rs"]
mod adb_server;

use adb_client::ADBDeviceExt;
use adb_client::server_device::ADBServerDevice;
use std::collections::HashMap;
use std::io::{self, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use sudoku_sim::Cell;
use sudoku_sim::adbd::{A_CLSE, A_CNXN, A_OKAY, A_OPEN, A_WRTE, Message, packet, shell_packet};
use sudoku_sim::geometry::{Point, Size};
use sudoku_sim::latency::PRESETS;
use sudoku_sim::shell::{Ending, Shell, ShellIo};
use sudoku_sim::touch::{self, TOUCHSCREEN};
use sudoku_sim::{Key, Latency, SimConfig, SimServer, Skin, SudokuApp, puzzles};

const SIZE: Size = Size::new(1080, 2340);
/// Floors measured on this hardware against an instant fake (notes/adb-protocol.md 6), p50.
const FLOOR_TAP_MS: f64 = 0.88;
const FLOOR_PNG_MS: f64 = 1.96;

fn phone() -> SudokuApp {
    let puzzle = puzzles::parse(puzzles::named("easy").unwrap()).unwrap();
    SudokuApp::new(puzzle, Skin::default(), SIZE).unwrap()
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

struct Stats {
    p10: f64,
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
    stats(times)
}

fn stats(mut times: Vec<Duration>) -> Stats {
    let n = times.len();
    let mean = times.iter().sum::<Duration>().as_secs_f64() * 1000.0 / n as f64;
    times.sort();
    Stats {
        p10: percentile(&times, 0.1),
        p50: percentile(&times, 0.5),
        p90: percentile(&times, 0.9),
        mean,
    }
}

/// The fixed sequence: 20 moves on the first 20 empty cells, cell then digit (40 taps).
fn tap_sequence(phone: &SudokuApp) -> Vec<Point> {
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

/// The reference device: the least a device can do, measured side by side with ours under the
/// same machine load. It answers every OPEN with a canned shell v2 reply (the PNG for
/// `screencap -p`, else nothing) and an exit status, one event loop per connection, like the
/// minimal fake the notes' floors were measured against.
fn reference_device(png: Arc<Mutex<Vec<u8>>>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for tcp in listener.incoming().flatten() {
            let png = png.clone();
            std::thread::spawn(move || {
                let _ = reference_connection(tcp, &png);
            });
        }
    });
    port
}

fn reference_connection(mut tcp: TcpStream, png: &Mutex<Vec<u8>>) -> io::Result<()> {
    tcp.set_nodelay(true)?;
    let mut reader = io::BufReader::new(tcp.try_clone()?);
    let mut next_id = 1u32;
    // Per open stream: the host's id and the chunks still to send.
    let mut streams: HashMap<u32, (u32, Vec<Vec<u8>>)> = HashMap::new();
    let send = |tcp: &mut TcpStream, m: Message| tcp.write_all(&m.encode(false));
    loop {
        let Ok(msg) = Message::read_from(&mut reader, false) else {
            return Ok(());
        };
        match msg.command {
            A_CNXN => send(
                &mut tcp,
                Message::new(
                    A_CNXN,
                    0x0100_0001,
                    1 << 20,
                    &b"device::ro.product.name=ref;features=shell_v2,cmd\0"[..],
                ),
            )?,
            A_OPEN => {
                let local = next_id;
                next_id += 1;
                let mut reply = Vec::new();
                if msg.payload.windows(12).any(|w| w == b"screencap -p") {
                    reply.extend(shell_packet(packet::STDOUT, &png.lock().unwrap()));
                }
                reply.extend(shell_packet(packet::EXIT, &[0]));
                let mut chunks: Vec<Vec<u8>> = reply.chunks(1 << 20).map(<[u8]>::to_vec).collect();
                chunks.reverse();
                send(&mut tcp, Message::new(A_OKAY, local, msg.arg0, Vec::new()))?;
                let first = chunks.pop().unwrap();
                send(&mut tcp, Message::new(A_WRTE, local, msg.arg0, first))?;
                streams.insert(local, (msg.arg0, chunks));
            }
            A_OKAY => {
                if let Some((remote, chunks)) = streams.get_mut(&msg.arg1) {
                    let remote = *remote;
                    match chunks.pop() {
                        Some(c) => send(&mut tcp, Message::new(A_WRTE, msg.arg1, remote, c))?,
                        None => {
                            streams.remove(&msg.arg1);
                            send(&mut tcp, Message::new(A_CLSE, msg.arg1, remote, Vec::new()))?;
                        }
                    }
                }
            }
            A_CLSE => {
                streams.remove(&msg.arg1);
            }
            _ => {}
        }
    }
}

/// Runs `ours` and `reference` alternately `n` times each, so both see the same load.
fn side_by_side(
    n: usize,
    mut ours: impl FnMut(usize),
    mut reference: impl FnMut(usize),
) -> (Stats, Stats) {
    let (mut a, mut b) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for i in 0..n {
        // Alternate who goes first, so neither always pays for the other's clean-up.
        if i % 2 == 1 {
            let t = Instant::now();
            reference(i);
            b.push(t.elapsed());
        }
        let t = Instant::now();
        ours(i);
        a.push(t.elapsed());
        if i % 2 == 0 {
            let t = Instant::now();
            reference(i);
            b.push(t.elapsed());
        }
    }
    (stats(a), stats(b))
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
    let ref_png = Arc::new(Mutex::new(Vec::new()));
    let ref_port = reference_device(ref_png.clone());
    let ref_serial = format!("127.0.0.1:{ref_port}");
    adb.connect(&ref_serial);
    let mut reference = ADBServerDevice::new(ref_serial, Some(adb.addr()));
    for _ in 0..20 {
        reference
            .shell_command(&"input tap 1 1", None, None)
            .unwrap();
    }

    let n_taps = 1000;
    let (tap, ref_tap) = side_by_side(
        n_taps,
        |i| {
            device
                .shell_command(&cmds[i % cmds.len()], None, None)
                .unwrap();
        },
        |i| {
            reference
                .shell_command(&cmds[i % cmds.len()], None, None)
                .unwrap();
        },
    );
    // First screenshot after a change: render + PNG encode + transfer.
    let mut png = Vec::new();
    let t = Instant::now();
    device
        .shell_command(&"screencap -p", Some(&mut png), None)
        .unwrap();
    let fresh_ms = t.elapsed().as_secs_f64() * 1000.0;
    let png_len = png.len();
    *ref_png.lock().unwrap() = png;

    // Screenshots without taps in between: the frame is rendered once and served from cache.
    let shoot = |dev: &mut ADBServerDevice| {
        let mut buf = Vec::with_capacity(png_len);
        dev.shell_command(&"screencap -p", Some(&mut buf), None)
            .unwrap();
        assert_eq!(buf.len(), png_len);
    };
    let (shot, ref_shot) = side_by_side(60, |_| shoot(&mut device), |_| shoot(&mut reference));
    let raw = measure(10, |_| {
        let mut buf = Vec::with_capacity(16 + 1080 * 2340 * 4);
        device
            .shell_command(&"screencap", Some(&mut buf), None)
            .unwrap();
        assert_eq!(buf.len(), 16 + 1080 * 2340 * 4);
    });

    println!(
        "\nHost side through the adb server (adb_client ADBServerDevice, instant preset, 1080x2340),\nside by side with a minimal reference device (canned replies) under the same load;\nratio = ours / reference (target <= 1.5x); floor = notes/adb-protocol.md section 6 p50 (ms)"
    );
    println!(
        "{:<36} {:>7} {:>7} {:>7} {:>7} {:>8} {:>8} {:>9} {:>9} {:>6}",
        "operation",
        "p10 ms",
        "p50 ms",
        "p90 ms",
        "mean ms",
        "ref p10",
        "ref p50",
        "p10 ratio",
        "p50 ratio",
        "floor"
    );
    let row = |name: &str, s: &Stats, r: Option<&Stats>, floor: Option<f64>| {
        let cells = match r {
            Some(r) => [
                format!("{:.2}", r.p10),
                format!("{:.2}", r.p50),
                format!("{:.2}x", s.p10 / r.p10),
                format!("{:.2}x", s.p50 / r.p50),
            ],
            None => ["-".into(), "-".into(), "-".into(), "-".into()],
        };
        let floor = floor.map_or("-".into(), |f| format!("{f:.2}"));
        println!(
            "{name:<36} {:>7.2} {:>7.2} {:>7.2} {:>7.2} {:>8} {:>8} {:>9} {:>9} {floor:>6}",
            s.p10, s.p50, s.p90, s.mean, cells[0], cells[1], cells[2], cells[3]
        );
    };
    row(
        &format!("input tap (shell_command) x{n_taps}"),
        &tap,
        Some(&ref_tap),
        Some(FLOOR_TAP_MS),
    );
    row(
        &format!("screencap -p, {png_len} B"),
        &shot,
        Some(&ref_shot),
        Some(FLOOR_PNG_MS),
    );
    row("screencap raw, 10108816 B", &raw, None, None);
    println!(
        "taps/s: {:.0} (reference {:.0}); first screenshot after a change (render + encode + transfer): {fresh_ms:.1} ms",
        1000.0 / tap.mean,
        1000.0 / ref_tap.mean
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
