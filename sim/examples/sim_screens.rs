//! Renders the simulated phone in every skin and size, plain and in a busy game state (selection,
//! entries, notes, popup...), to PNGs in a folder, and prints how long each render took.
//! `cargo run --release -p sudoku-sim --example sim_screens -- /tmp/screens [puzzle-name] [skin]`

use std::time::{Duration, Instant};
use sudoku_sim::Cell;
use sudoku_sim::{Key, SUPPORTED_SIZES, Screen, Skin, SudokuApp, puzzles};

#[path = "support/game.rs"]
mod game;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let out = std::path::PathBuf::from(args.next().unwrap_or_else(|| "sim-screens".into()));
    let puzzle = args.next().unwrap_or_else(|| "medium".into());
    let only = args.next();
    std::fs::create_dir_all(&out)?;
    let board = puzzles::parse(puzzles::named(&puzzle).unwrap_or(&puzzle))
        .ok_or_else(|| anyhow::anyhow!("no puzzle {puzzle}"))?;
    println!(
        "{:<10} {:>10} {:>10} {:>10}",
        "skin", "size", "first ms", "next ms"
    );
    for name in Skin::names()
        .iter()
        .filter(|n| only.as_deref().is_none_or(|o| o == **n))
    {
        for size in SUPPORTED_SIZES {
            let mut phone = SudokuApp::new(board, Skin::named(name).unwrap(), size)?;
            let t = Instant::now();
            let plain = phone.render();
            let first = t.elapsed();
            plain.save(out.join(format!("{name}-{size}.png")))?;
            play_a_little(&mut phone);
            let runs = 10;
            let t = Instant::now();
            let mut busy = phone.render();
            for _ in 1..runs {
                busy = phone.render();
            }
            let next = t.elapsed() / runs;
            busy.save(out.join(format!("{name}-{size}-busy.png")))?;
            phone.set_popup(true);
            phone
                .render()
                .save(out.join(format!("{name}-{size}-popup.png")))?;
            phone.set_popup(false);
            solve_by_probing(&mut phone);
            let solved = out.join(format!("{name}-{size}-solved.png"));
            phone.render().save(solved)?;
            println!(
                "{name:<10} {size:>10} {:>10.1} {:>10.1}",
                ms(first),
                ms(next)
            );
        }
    }
    Ok(())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Picks a cell, writes a few digits, notes some candidates, so every drawing path shows.
fn play_a_little(phone: &mut SudokuApp) {
    let empty = game::play_a_little(phone, 6, 5, 20);
    phone.set_notes(empty[12], 0b11_1111_1110);
    phone.set_mistake_limit(Some(3));
    phone.set_elapsed(Duration::from_secs(127));
}

/// Fills every empty cell with the one digit the app accepts under a mistake limit.
fn solve_by_probing(phone: &mut SudokuApp) {
    let givens = phone.givens();
    for c in Cell::all().filter(|&c| givens.get(c).is_none()) {
        let digit = (1..=9u8).find(|&d| {
            let mut probe = SudokuApp::new(givens, Skin::default(), SUPPORTED_SIZES[0]).unwrap();
            probe.set_mistake_limit(Some(9));
            probe.select(Some(c));
            let at = probe.key_center(Key::Digit(d));
            probe.tap(at);
            probe.board().get(c) == Some(d)
        });
        phone.set_entry(c, digit);
    }
}
