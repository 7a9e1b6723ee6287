//! `play` on a 55-empty puzzle, per latency preset and input backend, through the real adb server,
//! each twice: on a cell-first app (skin `light`) and on a number-first one (skin `numfirst`), so
//! the two input orders stand side by side.
//!
//! The simulated phone runs in a child process (this binary again, in phone mode), so the CPU
//! time measured here is the host side only: `AdbDevice` (adb_client), screenshot transfer and
//! decode, reading, solving, planning, tapping. Columns:
//! * device: time on the phone's virtual clock (latency model of `sim::latency`, screenshots
//!   included), from the first screenshot to the verifying one; opening the phone comes before
//!   and is not counted (probing, and for `inject` the one-time push and JVM start: 0.3 s on the
//!   phone presets);
//! * speedup: the preset's first row's device time (one `input tap` per tap) divided by this row's (2.0x = twice as fast), and the same against the Android 9
//!   baseline; both against a row of the same skin;
//! * host CPU: this process's CPU time (`getrusage`) during `play`, and the same
//!   minus the raw screenshot decode (measured separately on a frame of the same size);
//! * wall: host elapsed time; with evdev through a `dd` stream the hold and gap are slept on
//!   the host, so wall time, not the phone's clock, shows that pacing;
//! * round trips: adb requests that waited for the phone (`AdbStats::round_trips`);
//! * overtaken: taps whose DOWN reached the app before the previous tap's click ran (the click
//!   waits for the next frame, `sudoku_sim::latency`): 0 when the pacing is safe on phones.
//!
//! Pacing is the device layer's default per method (tap/batch/stream: no hold or gap, 100 ms
//! settle; evdev: 10 ms hold, 21 ms gap after a key that a cell tap follows, else 5 ms, 100 ms
//! settle; inject: 21 ms after such a key, else none, 60 ms settle), the checks fetching only the
//! grid's rows (most of them only the rows their batch changed); the settle is waited only when
//! a check's first look disagrees with the plan. Run: `cargo bench --bench play`;
//! with `PLAY_BENCH_STAGES=1` it also prints the CPU of one screenshot and one read, and the
//! stage timings of each run, on stderr.

#[path = "../sim/tests/support/adb_server.rs"]
mod adb_server;
#[path = "../tests/support/play_rig.rs"]
mod play_rig;
// Served phones and the solving taps: the same as the tests' (`tests/support/sim_phone.rs`).
#[allow(dead_code)]
#[path = "../tests/support/sim_phone.rs"]
mod sim_phone;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};
use sudoku_agent::device::adb::AdbDevice;
use sudoku_agent::device::{InputKind, Pacing};
use sudoku_agent::profile::Profile;

/// 55 empty cells, one solution (magictour top1465).
const PUZZLE: &str =
    "9..7..3...5..2..1...7.....93..6..7...6..5..3...2..8..61..4..6...4..6..8...6..3..4";
/// The apps played: cell-first (the one the targets are for), then number-first.
const SKINS: [&str; 2] = ["light", "numfirst"];
/// Set to `<preset> <skin>` in the child process that runs the simulated phone.
const PHONE_MODE: &str = "PLAY_BENCH_PHONE";

/// Targets from issues 5 and 12 (device time, screenshots included, on the cell-first app);
/// issue 23 withdrew the injector's 1.5 s (checks every 8 taps are worth their time) for 4.0 s,
/// from 5.07 s.
const ANDROID9_EVDEV_TARGET: Duration = Duration::from_millis(2500);
const ANDROID12_STREAM_TARGET: Duration = Duration::from_millis(7000);
const ANDROID12_INJECT_TARGET: Duration = Duration::from_millis(4000);
const HOST_CPU_TARGET: Duration = Duration::from_millis(100);

fn main() {
    if let Ok(phone) = std::env::var(PHONE_MODE) {
        let (preset, skin) = phone.split_once(' ').expect("<preset> <skin> [habits]");
        let (skin, habits) = skin.split_once(' ').unwrap_or((skin, ""));
        phone_mode(preset, skin, habits);
        return;
    }
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let adb = adb_server::AdbServer::start();
    let calibrations = SKINS.map(|skin| play_rig::calibration(skin, play_rig::PHONE_SIZE));
    let decode = decode_cost();
    println!(
        "play: {} empty cells, skins {} (cell first) and {} (number first), {}; raw screenshot decode {:.1} ms each",
        PUZZLE.chars().filter(|&c| c == '.').count(),
        SKINS[0],
        SKINS[1],
        play_rig::PHONE_SIZE,
        ms(decode)
    );
    println!(
        "{:<10} {:<7} {:<8} {:>6} {:>5} {:>10} {:>8} {:>9} {:>9} {:>12} {:>11} {:>6} {:>9} {:>7}",
        "preset",
        "input",
        "skin",
        "moves",
        "taps",
        "device s",
        "speedup",
        "vs a9 tap",
        "host CPU",
        "CPU-decode",
        "round trips",
        "shots",
        "overtaken",
        "wall s"
    );
    let mut rows = Vec::new();
    let mut android9_baseline = [None; SKINS.len()];
    let presets: [(&str, &[InputKind]); 4] = [
        (
            "android9",
            &[
                InputKind::Tap,
                InputKind::Batch,
                InputKind::Evdev,
                InputKind::Inject,
            ],
        ),
        (
            "android10",
            &[InputKind::Tap, InputKind::Batch, InputKind::Inject],
        ),
        (
            "android12",
            &[
                InputKind::Tap,
                InputKind::Batch,
                InputKind::Stream,
                InputKind::Inject,
            ],
        ),
        (
            "android14",
            &[
                InputKind::Tap,
                InputKind::Batch,
                InputKind::Stream,
                InputKind::Inject,
            ],
        ),
    ];
    for (preset, inputs) in presets {
        let mut baseline = [None; SKINS.len()];
        for &input in inputs {
            // The two input orders side by side: each backend on both apps.
            for (s, skin) in SKINS.into_iter().enumerate() {
                let (cal, templates) = &calibrations[s];
                let row = run_one(&adb, (preset, skin), input, cal, templates, decode);
                let base = *baseline[s].get_or_insert(row.device);
                let a9: Duration = *android9_baseline[s].get_or_insert(row.device);
                println!(
                    "{:<10} {:<7} {:<8} {:>6} {:>5} {:>10.2} {:>7.1}x {:>8.1}x {:>7.0}ms {:>10.0}ms {:>11} {:>6} {:>9} {:>7.2}",
                    preset,
                    input.name(),
                    skin,
                    row.moves,
                    row.taps,
                    row.device.as_secs_f64(),
                    base.as_secs_f64() / row.device.as_secs_f64(),
                    a9.as_secs_f64() / row.device.as_secs_f64(),
                    ms(row.cpu),
                    ms(row.cpu_without_decode),
                    row.round_trips,
                    row.screenshots,
                    row.overtaken,
                    row.wall.as_secs_f64()
                );
                rows.push((preset, skin, input, row));
            }
        }
    }
    println!();
    all_habits(&adb, &calibrations, decode);
    println!();
    for (preset, _, input, row) in rows.iter().filter(|r| r.1 == SKINS[0]) {
        let target = match (*preset, input) {
            ("android9", InputKind::Evdev) => Some(ANDROID9_EVDEV_TARGET),
            ("android12", InputKind::Stream) => Some(ANDROID12_STREAM_TARGET),
            ("android12", InputKind::Inject) => Some(ANDROID12_INJECT_TARGET),
            _ => None,
        };
        if let Some(t) = target {
            println!(
                "target {preset} {} {}: device {:.2} s <= {:.1} s: {}; host CPU apart from decode {:.0} ms <= {:.0} ms: {}",
                input.name(),
                SKINS[0],
                row.device.as_secs_f64(),
                t.as_secs_f64(),
                verdict(row.device <= t),
                ms(row.cpu_without_decode),
                ms(HOST_CPU_TARGET),
                verdict(row.cpu_without_decode <= HOST_CPU_TARGET)
            );
        }
    }
}

/// The habits of a game in progress that an app may show all at once (issue 33), the ad closed
/// by the phone's user 0.3 s after it shows.
const ALL_HABITS: &str = "end-card,fade=250,lives=3,same-ink,wrong-pair,selected-key,ad-after=9";

/// android12 through the injector on both apps: the plain board against the same board with
/// [`ALL_HABITS`], side by side, device time as a ratio.
fn all_habits(
    adb: &adb_server::AdbServer,
    calibrations: &[(
        sudoku_agent::profile::calibration::Calibration,
        sudoku_reader::Templates,
    )],
    decode: Duration,
) {
    println!("all habits at once ({ALL_HABITS}), android12 inject:");
    for (s, skin) in SKINS.into_iter().enumerate() {
        let (cal, templates) = &calibrations[s];
        let plain = run_one(
            adb,
            ("android12", skin),
            InputKind::Inject,
            cal,
            templates,
            decode,
        );
        let busy = run_one(
            adb,
            ("android12", &format!("{skin} {ALL_HABITS}")),
            InputKind::Inject,
            cal,
            templates,
            decode,
        );
        println!(
            "{skin:<8} plain {:.2} s device, {} taps, {} shots; all habits {:.2} s device, {} taps, {} shots: {:.2}x the plain time",
            plain.device.as_secs_f64(),
            plain.taps,
            plain.screenshots,
            busy.device.as_secs_f64(),
            busy.taps,
            busy.screenshots,
            busy.device.as_secs_f64() / plain.device.as_secs_f64()
        );
    }
}

fn verdict(ok: bool) -> &'static str {
    if ok { "met" } else { "MISSED" }
}

struct Row {
    moves: usize,
    taps: usize,
    device: Duration,
    cpu: Duration,
    cpu_without_decode: Duration,
    round_trips: u64,
    screenshots: u64,
    overtaken: u64,
    wall: Duration,
}

fn run_one(
    adb: &adb_server::AdbServer,
    (preset, skin): (&str, &str),
    input: InputKind,
    cal: &sudoku_agent::profile::calibration::Calibration,
    templates: &sudoku_reader::Templates,
    decode: Duration,
) -> Row {
    let mut phone = PhoneProcess::spawn(preset, skin);
    let serial = phone.serial.clone();
    let port: u16 = serial.rsplit(':').next().unwrap().parse().unwrap();
    sim_connect(adb.addr(), port);
    let mut device = AdbDevice::open_serial(
        sudoku_agent::device::adb::AdbServer { addr: adb.addr() },
        &serial,
        Some(input),
    )
    .unwrap_or_else(|e| panic!("{preset} {input} {skin}: {e:#}"));
    let mut options = play_rig::options(cal);
    options.pacing = Some(Pacing::default_for(input));
    if std::env::var_os("PLAY_BENCH_STAGES").is_some() {
        use sudoku_agent::device::Device;
        let t = process_cpu();
        let shot = device.screenshot().unwrap();
        let profile = Profile::new(cal.clone(), templates.clone());
        let t1 = process_cpu();
        profile.read(&shot).result.unwrap();
        let t2 = process_cpu();
        eprintln!(
            "{preset} {} {skin}: one screenshot {:.1} ms CPU (decode included), one read {:.1} ms CPU",
            input.name(),
            ms(t1 - t),
            ms(t2 - t1)
        );
    }
    let before = device.stats();
    let clock = phone.ask("clock");
    let cpu = process_cpu();
    let wall = Instant::now();
    let report = play_rig::play(&mut device, cal, templates, &options)
        .unwrap_or_else(|e| panic!("{preset} {input} {skin}: {e:#}"));
    let wall = wall.elapsed();
    let cpu = process_cpu() - cpu;
    let device_time = Duration::from_micros(phone.ask("clock") - clock);
    assert_eq!(
        phone.ask("solved"),
        1,
        "{preset} {input} {skin}: not solved"
    );
    let overtaken = phone.ask("overtaken");
    let stats = device.stats();
    if std::env::var_os("PLAY_BENCH_STAGES").is_some() {
        eprintln!("{preset} {} {skin}: {:?}", input.name(), report.timings);
    }
    drop(device);
    let screenshots = stats.screenshots - before.screenshots;
    Row {
        moves: report.assessment.moves.len(),
        taps: report.taps_sent,
        device: device_time,
        cpu,
        cpu_without_decode: cpu.saturating_sub(decode * screenshots as u32),
        round_trips: stats.round_trips() - before.round_trips(),
        screenshots,
        overtaken,
        wall,
    }
}

/// `adb connect` through the smart socket (no `adb` process).
fn sim_connect(adb: std::net::SocketAddrV4, port: u16) {
    let mut client = adb_client::server::ADBServer::new_from_path(adb, Some("/bin/true".into()));
    client
        .connect_device(std::net::SocketAddrV4::new(
            std::net::Ipv4Addr::LOCALHOST,
            port,
        ))
        .unwrap();
}

/// CPU time of one raw screenshot decode (16-byte header + RGBA rows to an image).
fn decode_cost() -> Duration {
    let size = play_rig::PHONE_SIZE;
    let mut raw = Vec::new();
    for word in [size.width, size.height, 1, 1] {
        raw.extend_from_slice(&word.to_le_bytes());
    }
    raw.resize(16 + (size.width * size.height * 4) as usize, 200);
    let n = 10;
    let cpu = process_cpu();
    for _ in 0..n {
        std::hint::black_box(sudoku_agent::device::protocol::parse::raw_screencap(&raw).unwrap());
    }
    (process_cpu() - cpu) / n
}

/// User + system CPU time of this process (`getrusage`, microseconds).
fn process_cpu() -> Duration {
    // SAFETY: getrusage only writes the struct we pass.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::getrusage(libc::RUSAGE_SELF, &mut usage), 0);
        usage
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The simulated phone in a child process: prints its serial, then answers `clock` (virtual
/// microseconds), `solved` (1 or 0) and `overtaken` (taps) on stdin/stdout until stdin closes.
struct PhoneProcess {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    serial: String,
}

impl PhoneProcess {
    fn spawn(preset: &str, skin: &str) -> PhoneProcess {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .env(PHONE_MODE, format!("{preset} {skin}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut serial = String::new();
        stdout.read_line(&mut serial).unwrap();
        PhoneProcess {
            child,
            stdin,
            stdout,
            serial: serial.trim().to_string(),
        }
    }

    fn ask(&mut self, question: &str) -> u64 {
        writeln!(self.stdin, "{question}").unwrap();
        let mut answer = String::new();
        self.stdout.read_line(&mut answer).unwrap();
        answer.trim().parse().unwrap()
    }
}

impl Drop for PhoneProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Serves the phone until stdin closes; `habits` is a `--sim-faults` list. The phone's user
/// closes an ad 0.3 s after it shows, as people do.
fn phone_mode(preset: &str, skin: &str, habits: &str) {
    use sudoku_sim::{Key, Screen, SimServer};
    let mut phone = play_rig::phone(skin, play_rig::PHONE_SIZE, PUZZLE);
    let faults: sudoku_sim::faults::Faults = habits.parse().expect("a habit list");
    faults.apply(&mut phone).expect("habits the phone can take");
    let sim = SimServer::start(phone, sim_phone::config(preset)).unwrap();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            loop {
                if sim.with_screen(|p| p.ad_shown()) {
                    std::thread::sleep(Duration::from_millis(300));
                    sim.with_screen(|p| {
                        let at = p.key_center(Key::AdClose);
                        p.tap(at);
                    });
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        answer_questions(&sim);
        std::process::exit(0);
    });
}

/// Answers the bench's questions about `sim` on stdin/stdout until stdin closes.
fn answer_questions(sim: &sudoku_sim::SimServer<sudoku_sim::SudokuApp>) {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", sim.serial()).unwrap();
    out.flush().unwrap();
    for line in std::io::stdin().lock().lines() {
        let answer = match line.unwrap().trim() {
            "clock" => sim.clock().as_micros() as u64,
            "solved" => sim.with_screen(|p| p.is_solved()) as u64,
            "overtaken" => sim.overtaken(),
            _ => 0,
        };
        writeln!(out, "{answer}").unwrap();
        out.flush().unwrap();
    }
}
