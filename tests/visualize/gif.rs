//! `visualize --gif`: the search drawn locally with no phone, checked by decoding the file and
//! looking at the pixels of its first and last frames.

use crate::support;
use crate::support::boards::KAGGLE_1 as EASY;
use image::RgbaImage;
use sudoku_agent::sudoku::{Board, Cell, Strategy};
use sudoku_agent::visualize::record::record_search;

/// Geometry of the clean style at the default 40 px cells: margin 10, header 40.
const CELL: u32 = 40;
const MARGIN: u32 = 10;
const HEADER: u32 = 40;
const BACKGROUND: [u8; 3] = [250, 250, 247];

/// Pixels in the middle of a cell that are ink (far from the background).
fn ink(img: &RgbaImage, cell: Cell) -> usize {
    let (x0, y0) = (
        MARGIN + cell.col() as u32 * CELL,
        HEADER + MARGIN + cell.row() as u32 * CELL,
    );
    let mut n = 0;
    for y in y0 + CELL / 5..y0 + CELL * 4 / 5 {
        for x in x0 + CELL / 5..x0 + CELL * 4 / 5 {
            let px = img.get_pixel(x, y).0;
            if (0..3).any(|i| px[i].abs_diff(BACKGROUND[i]) > 80) {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn visualize_gif_draws_the_puzzle_first_and_the_solved_board_last() {
    let (path, stdout) = support::gif_of(
        "sa-visualize-gif",
        &["visualize", "--puzzle", EASY, "--gif-frames", "25"],
    );
    let puzzle = Board::parse(EASY).unwrap();
    let search = record_search(&puzzle, Strategy::Naive, None).unwrap();
    assert!(
        stdout.contains(&format!("{} steps", search.steps)) && stdout.contains("25 frames"),
        "{stdout}"
    );
    let frames = support::gif_frames(&path);
    assert_eq!(
        frames.len(),
        25,
        "the search has {} moves, sampled to 25",
        search.events.len()
    );
    let (first, last) = (frames[0].buffer(), frames[24].buffer());
    assert_eq!(
        first.dimensions(),
        (9 * CELL + 2 * MARGIN, 9 * CELL + 2 * MARGIN + HEADER)
    );
    for cell in Cell::all() {
        let given = puzzle.get(cell).is_some();
        assert_eq!(ink(first, cell) > 10, given, "first frame, {cell}");
        assert!(ink(last, cell) > 10, "last frame, {cell} is filled");
    }
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

#[test]
fn visualize_gif_without_a_puzzle_says_what_it_needs() {
    let out = support::agent()
        .args(["visualize", "--gif", "never.gif"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    support::assert_mentions(&stderr, &["--puzzle", "--image"]);
    assert!(!std::path::Path::new("never.gif").exists());
}

#[test]
fn visualize_gif_reads_the_puzzle_from_a_screenshot() {
    use sudoku_agent::calibrate::{CalibrateOptions, calibrate_image};
    use sudoku_sim::{Key, Screen, Skin, SudokuApp};
    let dir = support::temp_dir("sa-visualize-gif-img");
    let puzzle = Board::parse(EASY).unwrap();
    let size = sudoku_agent::geometry::Size::new(720, 1280);
    let mut phone =
        SudokuApp::new(puzzle.into(), Skin::named("light").unwrap(), size.into()).unwrap();
    let screen = phone.render();
    let options = CalibrateOptions {
        profile: "default".into(),
        erase: Some(phone.key_center(Key::Erase).into()),
        ..CalibrateOptions::default()
    };
    let done = calibrate_image(&screen, &options).unwrap();
    let cal = dir.join("calibration.toml");
    done.calibration.save(&cal).unwrap();
    done.templates
        .save(&done.calibration.templates_at(&cal))
        .unwrap();
    let shot = dir.join("screen.png");
    screen.save(&shot).unwrap();
    let gif = dir.join("search.gif");
    support::stdout_of_success(
        support::agent()
            .args(["visualize", "--strategy", "fast", "--image"])
            .arg(&shot)
            .arg("--calibration")
            .arg(&cal)
            .arg("--gif")
            .arg(&gif),
    );
    let search = record_search(&puzzle, Strategy::Fast, None).unwrap();
    let frames = support::gif_frames(&gif);
    assert_eq!(frames.len(), search.events.len() + 1);
    let first = frames[0].buffer();
    for cell in Cell::all() {
        assert_eq!(ink(first, cell) > 10, puzzle.get(cell).is_some(), "{cell}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
