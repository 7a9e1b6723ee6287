//! Every command that reads a screenshot goes through the one reader (`vision::read`): `read
//! --image`, `visualize --gif --image`, `play --device file:` and `calibrate` print the same 81
//! digits for the same screenshot and calibration, and refuse alike a screen whose grid moved
//! from where the calibration taps (before the one reader, `read` printed a board there that
//! `visualize` and `play` refused).

use crate::support;
use std::path::Path;
use sudoku_agent::geometry::Size;
use sudoku_agent::sudoku::Board;
use sudoku_sim::{Screen, puzzles};

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The 81 digits on the line of `stdout` that starts with `prefix`, up to the next space.
fn board_after(stdout: &str, prefix: &str) -> String {
    let line = stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no line starting {prefix:?} in {stdout}"));
    line.trim_matches(['"', ' '])
        .split([' ', '"'])
        .next()
        .unwrap()
        .to_string()
}

/// What each command prints (or why it refuses) for `shot` with the calibration `cal`.
fn reads(shot: &Path, cal: &Path, dir: &Path) -> Vec<(&'static str, i32, String, String)> {
    let gif = dir.join("search.gif");
    let plan = dir.join("plan.png");
    let device = format!("file:{}", shot.display());
    let runs: [(&str, Vec<&str>); 3] = [
        (
            "read",
            vec!["read", "--image", p(shot), "--calibration", p(cal)],
        ),
        (
            "visualize",
            vec![
                "visualize",
                "--image",
                p(shot),
                "--calibration",
                p(cal),
                "--gif",
                p(&gif),
            ],
        ),
        (
            "play",
            vec![
                "play",
                "--device",
                &device,
                "--calibration",
                p(cal),
                "--dry-run",
                "--overlay",
                p(&plan),
                "--json",
            ],
        ),
    ];
    runs.into_iter()
        .map(|(name, args)| {
            let (code, out, err) = support::outcome(support::agent().args(&args));
            (name, code, out, err)
        })
        .collect()
}

#[test]
fn read_visualize_play_and_calibrate_print_the_same_board_and_refuse_a_moved_grid_alike() {
    let dir = support::temp_dir("one-reader");
    let puzzle: Board = puzzles::parse(puzzles::named("medium").unwrap())
        .unwrap()
        .into();
    let mut phone = support::sim_phone::phone("light", Size::new(1080, 2340), "medium");
    let img = phone.render();
    let shot = dir.join("screen.png");
    img.save(&shot).unwrap();
    let cal = dir.join("calibration.toml");

    let (code, out, err) = support::outcome(support::agent().args([
        "calibrate",
        "--image",
        p(&shot),
        "--out",
        p(&cal),
    ]));
    assert_eq!(code, 0, "{out}{err}");
    let mut boards = vec![("calibrate", board_after(&out, "board:"))];
    for (name, code, out, err) in reads(&shot, &cal, &dir) {
        assert_eq!(code, 0, "{name}: {out}{err}");
        let board = match name {
            "read" => out.lines().next().unwrap_or_default().to_string(),
            "visualize" => board_after(&out, &format!("read {}:", shot.display())),
            _ => board_after(&out, "\"read\":"),
        };
        boards.push((name, board));
    }
    for (name, board) in &boards {
        assert_eq!(*board, puzzle.to_line(), "{name}: {boards:?}");
    }

    // The same screen with its grid 60 px lower (a banner above it, say): the calibration taps
    // where the grid was, so no command prints a board.
    let mut moved = image::RgbaImage::from_pixel(img.width(), img.height(), image::Rgba([255; 4]));
    image::imageops::overlay(&mut moved, &img, 0, 60);
    let moved_shot = dir.join("moved.png");
    moved.save(&moved_shot).unwrap();
    for (name, code, out, err) in reads(&moved_shot, &cal, &dir) {
        assert_eq!(code, 1, "{name}: {out}{err}");
        assert!(
            err.contains("from where the calibration has it"),
            "{name}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
