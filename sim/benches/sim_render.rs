//! How long the simulated phone takes to draw a frame, per skin and screen size: the first frame
//! (which also draws the cached background) and the median of later frames of a game in
//! progress. Each is also given as a ratio to copying a frame-sized buffer, measured side by side,
//! so the figures compare across machines. Target: a 1080x2340 frame well under 30 ms.
//! `cargo bench -p sudoku-sim --bench sim_render`

use std::hint::black_box;
use std::time::{Duration, Instant};
use sudoku_sim::{SUPPORTED_SIZES, Screen, Skin, SudokuApp, puzzles};

#[path = "../examples/support/game.rs"]
mod game;

const RUNS: usize = 15;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let board = puzzles::parse(puzzles::named("medium").expect("built in")).expect("valid");
    println!(
        "{:<9} {:>10} {:>9} {:>9} {:>9} {:>8}",
        "skin", "size", "first ms", "frame ms", "copy ms", "ratio"
    );
    for name in Skin::names() {
        for size in SUPPORTED_SIZES {
            let skin = Skin::named(name).expect("listed");
            let mut phone = SudokuApp::new(board, skin, size).expect("supported");
            // A game in progress: 12 entries, 10 cells of notes, notes mode on.
            game::play_a_little(&mut phone, 12, 10, 30);
            let t = Instant::now();
            black_box(phone.render());
            let first = t.elapsed();
            let bytes = vec![7u8; size.width as usize * size.height as usize * 4];
            let (mut frames, mut copies) = (Vec::new(), Vec::new());
            for _ in 0..RUNS {
                let t = Instant::now();
                black_box(phone.render());
                frames.push(t.elapsed());
                let t = Instant::now();
                black_box(bytes.clone());
                copies.push(t.elapsed());
            }
            let (frame, copy) = (median(frames), median(copies));
            println!(
                "{name:<9} {size:>10} {:>9.1} {:>9.1} {:>9.2} {:>7.0}x",
                ms(first),
                ms(frame),
                ms(copy),
                frame.as_secs_f64() / copy.as_secs_f64()
            );
        }
    }
}
