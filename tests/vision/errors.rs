//! The ways reading can fail, each with a clear error: no grid, a blank screen, a popup over the
//! grid, another screen size than calibrated, missing templates, an ambiguous cell, and a board
//! that breaks the rules. Boards are drawn here with a real font (DejaVu Sans) on plain images.

use crate::support;
use crate::support::boards::CLASSIC as PUZZLE;
use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::{Rgba, RgbaImage};
use imageproc::drawing::{draw_filled_rect_mut, draw_text_mut};
use imageproc::rect::Rect as DrawRect;
use sudoku_agent::calibrate::{CalibrateOptions, Calibrated, calibrate_image};
use sudoku_agent::profile::Profile;
use sudoku_agent::sudoku::{Board, Cell};
use sudoku_reader::stages::locate_grid;
use sudoku_reader::stages::read_grid;
use sudoku_reader::{ReadError, Templates, VisionError};

fn board(line: &str) -> Board {
    Board::parse(line).unwrap()
}

fn font() -> FontRef<'static> {
    FontRef::try_from_slice(include_bytes!("../../assets/fonts/DejaVuSans.ttf")).unwrap()
}

/// A plain phone-like screen: a grid at (40, 300) with 80 px cells, thin and thick dark lines,
/// the board's digits, and a 1..9 keypad row below.
fn draw_screen(b: &Board) -> RgbaImage {
    let mut img = RgbaImage::from_pixel(800, 1400, Rgba([250, 250, 250, 255]));
    let (x0, y0, s) = (40i32, 300i32, 80i32);
    let dark = Rgba([40, 40, 40, 255]);
    for i in 0..10 {
        let t = if i % 3 == 0 { 5 } else { 2 };
        draw_filled_rect_mut(
            &mut img,
            DrawRect::at(x0 + i * s - t / 2, y0).of_size(t as u32, 9 * s as u32 + 2),
            dark,
        );
        draw_filled_rect_mut(
            &mut img,
            DrawRect::at(x0, y0 + i * s - t / 2).of_size(9 * s as u32 + 2, t as u32),
            dark,
        );
    }
    let f = font();
    let scale = PxScale::from(54.0);
    let centre_text = |img: &mut RgbaImage, cx: i32, cy: i32, text: &str| {
        let sf = f.as_scaled(scale);
        let w: f32 = text.chars().map(|c| sf.h_advance(f.glyph_id(c))).sum();
        draw_text_mut(img, dark, cx - (w / 2.0) as i32, cy - 32, scale, &f, text);
    };
    for cell in Cell::all() {
        if let Some(d) = b.get(cell) {
            let cx = x0 + cell.col() as i32 * s + s / 2;
            let cy = y0 + cell.row() as i32 * s + s / 2;
            centre_text(&mut img, cx, cy, &d.to_string());
        }
    }
    for d in 1..=9 {
        centre_text(&mut img, x0 + (d - 1) * s + s / 2, 1150, &d.to_string());
    }
    img
}

/// The drawn `PUZZLE` screen and the calibration made on it (digits labelled by its keypad).
fn calibrated_puzzle() -> (RgbaImage, Calibrated) {
    let img = draw_screen(&board(PUZZLE));
    let done = support::calibrate(&img);
    (img, done)
}

#[test]
fn a_drawn_board_calibrates_through_its_keypad_and_reads_back() {
    let (img, done) = calibrated_puzzle();
    assert_eq!(done.board.to_line(), PUZZLE);
    let rec = done.profile().read(&img).result.unwrap();
    assert_eq!(rec.board.to_line(), PUZZLE);
    let keys = done.calibration.keypad.unwrap().digits;
    assert!(keys.iter().all(|p| p.y.abs_diff(1150) < 40), "{keys:?}");
}

#[test]
fn a_blank_screen_has_no_grid() {
    let img = RgbaImage::from_pixel(1080, 2340, Rgba([255, 255, 255, 255]));
    assert!(matches!(locate_grid(&img), Err(VisionError::NoGrid(_))));
    let err = calibrate_image(&img, &CalibrateOptions::default()).unwrap_err();
    assert!(
        format!("{err:#}").contains("no sudoku grid found"),
        "{err:#}"
    );
}

#[test]
fn a_menu_with_buttons_and_text_has_no_grid() {
    let mut img = RgbaImage::from_pixel(720, 1280, Rgba([245, 245, 245, 255]));
    let f = font();
    for (i, label) in ["New game", "Continue", "Statistics", "Settings 1 2 3"]
        .iter()
        .enumerate()
    {
        let y = 300 + i as i32 * 180;
        draw_filled_rect_mut(
            &mut img,
            DrawRect::at(100, y).of_size(520, 120),
            Rgba([60, 120, 200, 255]),
        );
        draw_text_mut(
            &mut img,
            Rgba([255, 255, 255, 255]),
            140,
            y + 30,
            50.0,
            &f,
            label,
        );
    }
    let err = locate_grid(&img).unwrap_err();
    assert!(err.to_string().starts_with("no sudoku grid found"), "{err}");
}

#[test]
fn a_popup_over_the_grid_is_refused_not_read() {
    let (img, done) = calibrated_puzzle();
    let mut popup = img.clone();
    draw_filled_rect_mut(
        &mut popup,
        DrawRect::at(120, 500).of_size(560, 400),
        Rgba([255, 255, 255, 255]),
    );
    draw_text_mut(
        &mut popup,
        Rgba([0, 0, 0, 255]),
        200,
        650,
        48.0,
        &font(),
        "Well done!",
    );
    let err = done.profile().read(&popup).result.unwrap_err();
    assert!(
        matches!(err, ReadError::Vision(VisionError::NoGrid(_))),
        "{err:?}"
    );
}

#[test]
fn a_screen_of_another_size_or_rotation_is_refused_with_a_recalibrate_hint() {
    let (img, done) = calibrated_puzzle();
    let rotated = image::imageops::rotate90(&img);
    let err = done.profile().read(&rotated).result.unwrap_err();
    assert!(err.to_string().contains("rotated"), "{err}");
    let bigger = RgbaImage::new(1080, 2340);
    let err = done.profile().read(&bigger).result.unwrap_err();
    assert!(
        err.to_string().contains("1080x2340") && err.to_string().contains("calibrate"),
        "{err}"
    );
}

#[test]
fn missing_templates_are_named_with_a_recalibrate_hint() {
    let (_, done) = calibrated_puzzle();
    let dir = support::temp_dir("vision-missing-templates");
    done.templates.save(&dir).unwrap();
    assert_eq!(Templates::load(&dir).unwrap(), done.templates);
    std::fs::remove_file(dir.join("7.png")).unwrap();
    let err = Templates::load(&dir).unwrap_err().to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(err.contains("7.png") && err.contains("calibrate"), "{err}");
}

#[test]
fn an_ambiguous_cell_is_an_error_naming_it_and_its_two_best_digits() {
    let (img, done) = calibrated_puzzle();
    // Make 8 and 3 indistinguishable: every 8 on the board is now a coin toss.
    let mut raw: [Option<Vec<u8>>; 9] =
        std::array::from_fn(|i| done.templates.get(i as u8 + 1).map(|t| t.to_vec()));
    raw[2] = raw[7].clone();
    let confused = Templates::new(raw);
    // The templates alone (the calibrated cut at the calibrated grid) name every doubtful cell.
    let grid = locate_grid(&img).unwrap();
    let err = read_grid(&img, grid, &confused, &done.calibration.thresholds).unwrap_err();
    let ReadError::Unsure(doubts) = &err else {
        panic!("{err:?}")
    };
    let eights: Vec<Cell> = Cell::all()
        .filter(|&c| board(PUZZLE).get(c) == Some(8))
        .collect();
    let threes: Vec<Cell> = Cell::all()
        .filter(|&c| board(PUZZLE).get(c) == Some(3))
        .collect();
    let named: Vec<Cell> = doubts.iter().map(|d| d.cell).collect();
    assert_eq!(named.len(), eights.len() + threes.len(), "{err}");
    assert!(
        eights.iter().chain(&threes).all(|c| named.contains(c)),
        "{err}"
    );
    let text = err.to_string();
    support::assert_mentions(&text, &["r5c4 (", "3 ", "8 "]);
    // The one calibrated reader then labels the digits as the reader without calibration does
    // (the glyph bank, the templates a second source that must not disagree): the board as it
    // is, never a guess between 3 and 8.
    let rec = Profile::new(done.calibration.clone(), confused)
        .read(&img)
        .result
        .unwrap();
    assert_eq!(rec.board, board(PUZZLE));
}

#[test]
fn a_board_that_breaks_a_rule_is_reported_with_its_cells() {
    let good = board(PUZZLE);
    let img = draw_screen(&good);
    let done = support::calibrate(&img);
    let mut bad = good;
    bad.set(Cell::new(0, 8).unwrap(), Some(5)); // a second 5 in row 1
    let err = done.profile().read(&draw_screen(&bad)).result.unwrap_err();
    assert!(matches!(err, ReadError::Conflict(_)), "{err:?}");
    assert!(err.to_string().contains("5 in r1c1 and r1c9"), "{err}");
}
