//! Keypad order as a second source, on drawn screens: a landscape screen with the keypad in two
//! columns (read down the columns, or across the rows) reads exactly; a keypad whose order is
//! permuted is not trusted, and the board still reads exactly (never as a permutation); a
//! reference that contradicts the glyph bank makes the reader refuse, naming both candidates.

use ab_glyph::{FontRef, PxScale};
use image::{Rgba, RgbaImage};
use imageproc::drawing::{draw_filled_rect_mut, draw_text_mut};
use imageproc::rect::Rect;
use sudoku_reader as vision;
use sudoku_reader::board::Board;
use sudoku_reader::stages::locate_grid;
use sudoku_reader::stages::verified_keypad;
use sudoku_reader::{Hints, ReadError, Templates};

const PUZZLE: &str =
    "900400000008029400007800003170500040000098007850007600603901000000000009400200080";
const CELL: i32 = 80;
const GRID_AT: (i32, i32) = (40, 40);
const INK: Rgba<u8> = Rgba([40, 40, 40, 255]);

fn font() -> FontRef<'static> {
    FontRef::try_from_slice(include_bytes!("../../assets/fonts/Roboto-Regular.ttf")).unwrap()
}

/// A 1600x800 landscape screen: the grid on the left, `keys` (digit, x, y) on the right.
fn screen(keys: &[(u8, i32, i32)]) -> RgbaImage {
    let mut img = RgbaImage::from_pixel(1600, 800, Rgba([250, 250, 250, 255]));
    let f = font();
    let (gx, gy) = GRID_AT;
    for i in 0..10 {
        let w = if i % 3 == 0 { 4 } else { 2 };
        let at = i * CELL - w as i32 / 2;
        draw_filled_rect_mut(
            &mut img,
            Rect::at(gx + at, gy).of_size(w, 9 * CELL as u32),
            INK,
        );
        draw_filled_rect_mut(
            &mut img,
            Rect::at(gx, gy + at).of_size(9 * CELL as u32, w),
            INK,
        );
    }
    for (i, ch) in PUZZLE.chars().enumerate() {
        if ch == '0' {
            continue;
        }
        let (r, c) = ((i / 9) as i32, (i % 9) as i32);
        let (x, y) = (gx + c * CELL + 24, gy + r * CELL + 8);
        draw_text_mut(
            &mut img,
            INK,
            x,
            y,
            PxScale::from(62.0),
            &f,
            &ch.to_string(),
        );
    }
    for &(d, x, y) in keys {
        draw_text_mut(&mut img, INK, x, y, PxScale::from(70.0), &f, &d.to_string());
    }
    img
}

fn truth() -> Board {
    PUZZLE.parse().unwrap()
}

/// Two columns, 1-5 down the left one and 6-9 down the right one.
fn two_columns_down() -> Vec<(u8, i32, i32)> {
    (1..=9u8)
        .map(|d| {
            let i = d as i32 - 1;
            (d, 1150 + (i / 5) * 220, 60 + (i % 5) * 140)
        })
        .collect()
}

/// Two columns read across: 1 2 / 3 4 / ... / 9.
fn two_columns_across() -> Vec<(u8, i32, i32)> {
    (1..=9u8)
        .map(|d| {
            let i = d as i32 - 1;
            (d, 1150 + (i % 2) * 220, 60 + (i / 2) * 140)
        })
        .collect()
}

/// The screen with `keys` and the keypad the reader verified on it, if any.
fn keypad_of(keys: &[(u8, i32, i32)]) -> (RgbaImage, Option<[Vec<u8>; 9]>) {
    let img = screen(keys);
    let grid = locate_grid(&img).unwrap();
    let shapes = verified_keypad(&img, &grid);
    (img, shapes)
}

/// `img` read with `shapes` as the calibration's digit templates.
fn read_with(
    img: &RgbaImage,
    shapes: [Option<Vec<u8>>; 9],
) -> Result<vision::Recognition, ReadError> {
    let templates = Templates::new(shapes);
    let hints = Hints {
        templates: Some(&templates),
        ..Hints::default()
    };
    vision::read(img, Some(&hints)).result
}

/// The reader, with no calibration, reads the board drawn on `img` exactly.
fn assert_reads_truth(img: &RgbaImage) {
    let rec = vision::read(img, None).result.unwrap();
    assert_eq!(rec.board, truth());
}

#[test]
fn a_landscape_two_column_keypad_is_ordered_and_the_board_reads_exactly() {
    for keys in [two_columns_down(), two_columns_across()] {
        let (img, shapes) = keypad_of(&keys);
        let shapes = shapes.expect("the keypad is found and verified");
        // Each verified shape is the key drawn with that digit.
        let again = keypad_of(&keys).1.unwrap();
        assert_eq!(shapes, again);
        assert_reads_truth(&img);
    }
}

#[test]
fn a_verified_two_column_keypad_puts_each_key_on_its_own_digit() {
    // Draw the keypad alone with one digit missing from each position in turn would be
    // costly; instead compare each verified shape with the same digit drawn on the board.
    let (img, shapes) = keypad_of(&two_columns_down());
    let rec = read_with(&img, shapes.unwrap().map(Some)).unwrap();
    assert_eq!(rec.board, truth(), "keypad shapes agree with the bank");
}

#[test]
fn a_permuted_keypad_is_not_trusted_and_the_board_is_never_permuted() {
    // A keypad in a scrambled order: reading it by rows or columns would label 1 as 4 etc.
    let order = [4u8, 9, 2, 3, 5, 7, 8, 1, 6];
    let keys: Vec<(u8, i32, i32)> = order
        .iter()
        .enumerate()
        .map(|(i, &d)| (d, 1100 + (i as i32 % 3) * 150, 120 + (i as i32 / 3) * 160))
        .collect();
    let (img, shapes) = keypad_of(&keys);
    assert!(shapes.is_none());
    assert_reads_truth(&img);
}

#[test]
fn a_reference_that_contradicts_the_bank_makes_the_reader_refuse_with_both_candidates() {
    let (img, shapes) = keypad_of(&two_columns_down());
    let mut shapes = shapes.unwrap().map(Some);
    // Templates with 4 and 9 swapped: a calibration that would print a permuted board.
    shapes.swap(3, 8);
    let err = read_with(&img, shapes).unwrap_err();
    let ReadError::Unsure(doubts) = &err else {
        panic!("{err}")
    };
    let b = truth();
    assert!(!doubts.is_empty());
    for d in doubts {
        let t = b.get(d.cell).unwrap();
        assert!(t == 4 || t == 9, "{err}");
        let pair = [d.best.0, d.second.0];
        assert!(pair.contains(&4) && pair.contains(&9), "{err}");
    }
    assert!(err.to_string().contains("4 or 9") || err.to_string().contains("9 or 4"));
}

#[test]
fn a_3x3_keypad_with_a_letter_beside_its_middle_row_is_verified_key_by_key() {
    // A button's label right of the keypad, in line with its middle row, splits the row order
    // (1 2 3 4 5 6 B 7 8 9); the keys read down their columns are nine in a row.
    let keys: Vec<(u8, i32, i32)> = (1..=9u8)
        .map(|d| {
            let i = d as i32 - 1;
            (d, 1000 + (i % 3) * 150, 120 + (i / 3) * 160)
        })
        .collect();
    let plain = screen(&keys);
    let grid = locate_grid(&plain).unwrap();
    let expected = verified_keypad(&plain, &grid).expect("the plain keypad is verified");
    for letter in ["B", "S", "Z"] {
        let mut img = plain.clone();
        draw_text_mut(
            &mut img,
            INK,
            1450,
            280,
            PxScale::from(70.0),
            &font(),
            letter,
        );
        let shapes = verified_keypad(&img, &grid);
        assert_eq!(shapes.as_ref(), Some(&expected), "with {letter} beside it");
    }
}
