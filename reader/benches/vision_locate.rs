//! Grid finding and cell classification without calibration (`cargo bench -p sudoku-reader
//! --bench vision_locate`): for the real 1080x2400 screenshots (and every other real screenshot, for
//! the spread), the median time after decode of `find_grid_and_cells` with no hint (full
//! search), with the grid's own rectangle as a calibration hint, and of `locate_grid` alone.
//! Wall-clock medians, plus the mean CPU time of this thread (from /proc, so a busy shared
//! machine inflates it less); compare rows of one run. `VISION_LOCATE_ONLY=1080x2400` keeps
//! the screenshots whose name contains that text.

#[path = "support/cpu.rs"]
mod cpu;
use cpu::ms;

use std::path::PathBuf;
use std::time::Duration;
use sudoku_reader::stages::{find_grid_and_cells, locate_grid};

/// Median duration of `f` over runs filling about `budget` (at least 5 runs, at most 500).
fn median<T>(budget: Duration, f: impl FnMut() -> T) -> Duration {
    cpu::median(budget, 500, f).0
}

/// Mean CPU time of `f` over enough runs to use about 1.5 s of CPU.
fn cpu_mean<T>(f: impl FnMut() -> T) -> Option<Duration> {
    cpu::cpu_mean(Duration::from_millis(1500), 1, f)
}

fn main() {
    let Some(dir) = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|d| d.join("shared/real-screens"))
        .find(|d| d.is_dir())
    else {
        println!("no real screenshots on this machine");
        return;
    };
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".png") || n.ends_with(".jpg") || n.ends_with(".jpeg"))
        .collect();
    names.sort();
    // The 1080x2400 screens first: the size the targets are set for.
    names.sort_by_key(|n| !n.contains("1080x2400"));
    if let Ok(only) = std::env::var("VISION_LOCATE_ONLY") {
        names.retain(|n| n.contains(&only));
    }
    let budget = Duration::from_millis(1500);
    println!("grid + cells without calibration, real screenshots (release, wall-clock medians)");
    println!(
        "{:<48} {:>10} {:>11} {:>8} {:>9} {:>8} {:>10}",
        "screen", "size", "no hint ms", "cpu", "hint ms", "cpu", "locate ms"
    );
    for name in names {
        let img = image::open(dir.join(&name)).unwrap().to_rgba8();
        let size = format!("{}x{}", img.width(), img.height());
        let Ok(found) = find_grid_and_cells(&img, None) else {
            println!("{name:<48} {size:>10}   refused");
            continue;
        };
        let hint = found.grid.rect();
        let cold = median(budget, || find_grid_and_cells(&img, None));
        let warm = median(budget, || find_grid_and_cells(&img, Some(hint)));
        let locate = median(budget, || locate_grid(&img));
        let cold_cpu = cpu_mean(|| find_grid_and_cells(&img, None));
        let warm_cpu = cpu_mean(|| find_grid_and_cells(&img, Some(hint)));
        let cpu = |d: Option<Duration>| d.map_or("-".into(), ms);
        println!(
            "{name:<48} {size:>10} {:>11} {:>8} {:>9} {:>8} {:>10}",
            ms(cold),
            cpu(cold_cpu),
            ms(warm),
            cpu(warm_cpu),
            ms(locate)
        );
    }
}
