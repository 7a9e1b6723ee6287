//! Vision benchmark (`cargo bench --bench vision`): how long reading a 1080x2340 screenshot takes
//! after decoding (decode timed on its own), a full grid search without calibration, and
//! `calibrate`, on a simulated-phone screen (PNG) and a real Sudoku.com screenshot (JPEG); then the
//! full simulator sweep (every skin at every size, 20 random busy puzzles each), as a table.
//! Timings are medians of repeated runs (wall clock) plus the mean CPU time of a read; on a
//! shared machine compare rows of one run. `VISION_BENCH_SKIP_SWEEP=1` skips the sweep;
//! `VISION_BENCH_REAL=1` prints every real screenshot's read and CPU time instead;
//! `VISION_BENCH_PROFILE=<png>` only reads that screenshot in a loop (for `perf record`), with
//! `VISION_BENCH_PROFILE_CALIBRATED=1` through a calibration made on it first.

#[path = "../reader/benches/support/cpu.rs"]
mod cpu;
use cpu::ms;
// `sim_sweep` finds `../shared` through it; the bench skips what is missing, even under CI.
#[allow(dead_code)]
#[path = "../tests/support/shared.rs"]
mod shared;
#[path = "../tests/support/sim_sweep.rs"]
mod sim_sweep;
// The simulated app as the tests build it (`sim_phone` names the adb server beside it).
#[path = "../sim/tests/support/adb_server.rs"]
mod adb_server;
#[allow(dead_code)]
#[path = "../tests/support/sim_phone.rs"]
mod sim_phone;

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;
use sudoku_agent::calibrate::{CalibrateOptions, calibrate_image};
use sudoku_agent::geometry::Size;
use sudoku_agent::sudoku::{Cell, Outcome, solve};
use sudoku_reader::stages::label;
use sudoku_reader::stages::verified_keypad;
use sudoku_reader::stages::{find_grid_and_cells, locate_grid};
use sudoku_sim::{SUPPORTED_SIZES, Screen, Skin};

/// Median duration of `f` over runs filling about `budget` (at least 5 runs, at most 2000).
fn median<T>(budget: Duration, f: impl FnMut() -> T) -> (Duration, usize) {
    cpu::median(budget, 2000, f)
}

/// Mean CPU time of `f` over enough runs to use about 3 s of CPU.
fn cpu_mean<T>(f: impl FnMut() -> T) -> Option<Duration> {
    cpu::cpu_mean(Duration::from_secs(3), 10, f)
}

fn real_screen() -> Option<Vec<u8>> {
    let path = shared::find("real-screens/infinitechaos_sudokucom_ss1.jpg")?;
    std::fs::read(path).ok()
}

fn sim_screen() -> (Vec<u8>, Vec<u8>) {
    let board = sim_phone::puzzle("medium");
    let mut phone = sim_phone::phone("light", Size::new(1080, 2340), "medium");
    let encode = |img: image::RgbaImage| {
        let mut png = Vec::new();
        img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        png
    };
    let fresh = encode(phone.render());
    let empty: Vec<Cell> = Cell::all().filter(|&c| board.get(c).is_none()).collect();
    let Outcome::Solved {
        board: solution, ..
    } = solve(&board)
    else {
        panic!("the medium puzzle has a solution")
    };
    for &c in empty.iter().step_by(4) {
        phone.set_entry(c.into(), solution.get(c));
    }
    phone.set_notes(empty[1].into(), 0b1010_1010);
    phone.select(Some(empty[5].into()));
    (fresh, encode(phone.render()))
}

/// Reading with no calibration (`read_any`: grid search, glyph bank, keypad check) at 1080x2400,
/// beside the calibrated read of the same screen (`read_board`, with a calibration that
/// `calibrate_image` made from it), in one run.
fn no_calibration(budget: Duration) {
    println!();
    println!(
        "read after decode with no calibration vs with one: wall-clock medians and mean CPU per read"
    );
    println!(
        "{:<38} {:>10} {:>10} {:>10} {:>10}",
        "screen", "no cal. ms", "no cal cpu", "calib. ms", "calib. cpu"
    );
    let mut phone = sim_phone::phone("light", Size::new(1080, 2340), "medium");
    let mut screens: Vec<(&str, image::RgbaImage)> =
        vec![("simulator light 1080x2340", phone.render())];
    let real = shared::find("real-screens/opensudoku2_phone_standard_1080x2400.png");
    if let Some(img) = real.and_then(|p| image::open(p).ok()) {
        screens.push(("Open Sudoku 2 phone 1080x2400 (real)", img.to_rgba8()));
    }
    for (name, img) in &screens {
        if let Err(e) = sudoku_reader::read(img, None).result {
            println!("{name:<38} not read without calibration: {e}");
            continue;
        }
        let (free, n) = median(budget, || sudoku_reader::read(img, None).result);
        let free_cpu = cpu_mean(|| sudoku_reader::read(img, None).result);
        let opts = CalibrateOptions {
            profile: "bench".into(),
            ..Default::default()
        };
        let calibrated = calibrate_image(img, &opts)
            .ok()
            .filter(|done| done.profile().read(img).result.is_ok());
        let with = calibrated.map(|done| {
            let read = || done.profile().read(img).result;
            (median(budget, read).0, cpu_mean(read))
        });
        let cpu = |d: Option<Duration>| d.map_or("-".into(), ms);
        println!(
            "{name:<38} {:>10} {:>10} {:>10} {:>10}   ({n} timed reads)",
            ms(free),
            cpu(free_cpu),
            with.as_ref().map_or("-".into(), |w| ms(w.0)),
            cpu(with.and_then(|w| w.1)),
        );
        // Where the time goes (CPU means, steadier than wall time on a busy machine): grid and
        // cells, the keypad check, the labelling.
        let screen = find_grid_and_cells(img, None).unwrap();
        let (grid, inks) = (screen.grid, screen.cells);
        let cut = cpu_mean(|| find_grid_and_cells(img, None).unwrap());
        let keys = cpu_mean(|| verified_keypad(img, &grid));
        let cells: Vec<Cell> = Cell::all()
            .filter(|c| inks[c.index()].digit.is_some())
            .collect();
        let patches: Vec<&[u8]> = cells
            .iter()
            .filter_map(|c| inks[c.index()].digit.as_ref().map(|p| p.pixels.as_slice()))
            .collect();
        let labels = cpu_mean(|| label(&patches, &cells, &[]));
        println!(
            "  no calibration, CPU: grid and cells {} ms + keypad check {} ms + labelling {} ms",
            cpu(cut),
            cpu(keys),
            cpu(labels)
        );
    }
}

/// `VISION_BENCH_PROFILE=<screenshot>`: reads that screenshot with no calibration in a loop for
/// about 20 s of CPU and prints nothing else, for `perf record` on the bench binary.
fn profile_loop(path: &str) {
    let img = image::open(path).expect("a readable screenshot").to_rgba8();
    let calibrated = std::env::var_os("VISION_BENCH_PROFILE_CALIBRATED").map(|_| {
        let opts = CalibrateOptions {
            profile: "bench".into(),
            ..Default::default()
        };
        calibrate_image(&img, &opts).expect("the screenshot calibrates")
    });
    let profile = calibrated.as_ref().map(|done| done.profile());
    let start = cpu::thread_cpu().unwrap_or_default();
    let mut n = 0;
    while cpu::thread_cpu().unwrap_or_default() - start < Duration::from_secs(20) {
        let seen = match &profile {
            Some(profile) => profile.read(&img),
            None => sudoku_reader::read(&img, None),
        };
        black_box(seen.result.ok());
        n += 1;
    }
    println!("{n} reads of {path}");
}

/// `VISION_BENCH_REAL=1`: every real screenshot in `shared/real-screens` read with no
/// calibration, each with its verdict against the MANIFEST grid and its mean CPU per read.
fn real_screens_table() {
    let Some(dir) =
        shared::find("real-screens/MANIFEST.tsv").and_then(|m| m.parent().map(PathBuf::from))
    else {
        println!("no shared/real-screens on this machine");
        return;
    };
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
    println!(
        "{:<48} {:>11} {:>8}  verdict",
        "real screenshot", "size", "cpu ms"
    );
    for line in manifest.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (Some(name), Some(truth)) = (f.first(), f.get(5)) else {
            continue;
        };
        let Ok(img) = image::open(dir.join(name)) else {
            continue;
        };
        let img = img.to_rgba8();
        let verdict = match sudoku_reader::read(&img, None).result {
            Ok(rec) if rec.board.to_line().replace('.', "0") == *truth => "exact".to_string(),
            Ok(rec) => format!("WRONG {}", rec.board.to_line()),
            Err(e) => format!("refused: {e}"),
        };
        // Whole 10 ms ticks of CPU over at least 0.3 s of reads.
        let start = cpu::thread_cpu().unwrap_or_default();
        let mut n = 0u32;
        while cpu::thread_cpu().unwrap_or_default() - start < Duration::from_millis(300) {
            black_box(sudoku_reader::read(&img, None).result.ok());
            n += 1;
        }
        let cpu = (cpu::thread_cpu().unwrap_or_default() - start) / n;
        let size = format!("{}x{}", img.width(), img.height());
        let verdict: String = verdict.chars().take(90).collect();
        println!("{name:<48} {size:>11} {:>8}  {verdict}", ms(cpu));
    }
}

fn main() {
    if std::env::var_os("VISION_BENCH_REAL").is_some() {
        return real_screens_table();
    }
    if let Some(path) = std::env::var_os("VISION_BENCH_PROFILE") {
        return profile_loop(&path.to_string_lossy());
    }
    let budget = Duration::from_secs(2);
    println!("vision benchmark (release), 1080x2340 screenshots; wall-clock medians, CPU mean");
    println!(
        "{:<30} {:>10} {:>9} {:>9} {:>10} {:>10}",
        "screen", "decode ms", "read ms", "read cpu", "locate ms", "calib. ms"
    );
    let (fresh, busy) = sim_screen();
    let mut inputs = vec![("simulator light (PNG)", fresh.clone(), fresh)];
    inputs.push(("simulator light, busy (PNG)", inputs[0].1.clone(), busy));
    if let Some(jpg) = real_screen() {
        inputs.push(("Sudoku.com ss1 (JPEG)", jpg.clone(), jpg));
    }
    for (name, calib_bytes, read_bytes) in &inputs {
        let calib_img = image::load_from_memory(calib_bytes).unwrap().to_rgba8();
        let (decode, _) = median(budget, || image::load_from_memory(read_bytes).unwrap());
        let img = image::load_from_memory(read_bytes).unwrap().to_rgba8();
        let opts = CalibrateOptions {
            profile: "bench".into(),
            ..Default::default()
        };
        let (calibrate, _) = median(budget, || calibrate_image(&calib_img, &opts).unwrap());
        let done = calibrate_image(&calib_img, &opts).unwrap();
        let (read, n) = median(budget, || done.profile().read(&img).result);
        let cpu = cpu_mean(|| done.profile().read(&img).result);
        let (locate, _) = median(budget, || locate_grid(&img).unwrap());
        println!(
            "{name:<30} {:>10} {:>9} {:>9} {:>10} {:>10}   ({n} timed reads)",
            ms(decode),
            ms(read),
            cpu.map_or("-".into(), ms),
            ms(locate),
            ms(calibrate)
        );
    }

    no_calibration(budget);

    if std::env::var_os("VISION_BENCH_SKIP_SWEEP").is_some() {
        return;
    }
    println!();
    println!(
        "simulator sweep: one calibrate per skin and size, 20 random busy puzzles each, read with it and with no calibration"
    );
    println!(
        "{:<9} {:>10} {:>8} {:>10} {:>9} {:>10} {:>10} {:>9} {:>9}",
        "skin",
        "size",
        "boards",
        "cells ok",
        "wrong",
        "min score",
        "min margin",
        "read ms",
        "no calib."
    );
    let puzzles = sim_sweep::random_puzzles(20, 0x5eed_0001);
    let mut all_wrong = 0;
    for (i, skin) in Skin::names().iter().enumerate() {
        for (j, size) in SUPPORTED_SIZES.iter().enumerate() {
            let s = sim_sweep::sweep(skin, (*size).into(), &puzzles, 77 + (i * 3 + j) as u64);
            let mut reads = s.reads.clone();
            reads.sort();
            let read = reads.get(reads.len() / 2).copied().unwrap_or_default();
            println!(
                "{skin:<9} {size:>10} {:>5}/{:<2} {:>10} {:>9} {:>10.3} {:>10.3} {:>9} {:>6}/{:<2}",
                s.boards_read,
                puzzles.len(),
                s.cells_read,
                s.wrong.len(),
                s.min_score,
                s.min_margin,
                ms(read),
                s.free_boards,
                puzzles.len()
            );
            for w in s.wrong.iter().chain(&s.free_wrong).take(5) {
                println!("    {w}");
            }
            all_wrong += s.wrong.len() + s.free_wrong.len();
        }
    }
    println!("cells or boards wrong in the sweep: {all_wrong}");
}
