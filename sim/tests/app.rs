//! The simulated sudoku app seen from outside: taps in, pixels out. Checks that moves show up in
//! the rendered frame where they should, that entries and givens are told apart by colour, that
//! the popup and end banner are drawn, and that each skin still renders exactly like its golden.
//!
//! Goldens live in `tests/golden/` (one per skin at 1080x2340, plus light at 720x1280). They are
//! regenerated only on request, after a deliberate change to the look:
//! `SUDOKU_AGENT_BLESS=1 cargo test -p sudoku-sim --test app goldens`, then review the PNGs and commit them.

use image::{Rgba, RgbaImage};
use std::path::PathBuf;
use std::time::Duration;
use sudoku_sim::{AppMove, Board, Cell, Key, Screen, Size, Skin, SudokuApp, puzzles};

const MEDIUM: &str =
    "900400000008029400007800003170500040000098007850007600603901000000000009400200080";
const SMALL: Size = Size::new(720, 1280);
const TALL: Size = Size::new(1080, 2340);

fn medium() -> Board {
    puzzles::parse(MEDIUM).unwrap()
}

fn cell(r: usize, c: usize) -> Cell {
    Cell::new(r, c).unwrap()
}

/// Cell pitch in pixels, from the centres the phone reports.
fn pitch(p: &SudokuApp) -> u32 {
    p.cell_center(cell(0, 1)).x - p.cell_center(cell(0, 0)).x
}

/// The square around a cell's centre, a little inside its lines.
fn cell_patch(img: &RgbaImage, p: &SudokuApp, c: Cell) -> Vec<Rgba<u8>> {
    let centre = p.cell_center(c);
    let half = pitch(p) * 2 / 5;
    let mut out = Vec::new();
    for y in centre.y - half..centre.y + half {
        for x in centre.x - half..centre.x + half {
            out.push(*img.get_pixel(x, y));
        }
    }
    out
}

/// How many pixels of a cell differ between two frames.
fn changed(a: &RgbaImage, b: &RgbaImage, p: &SudokuApp, c: Cell) -> usize {
    let (pa, pb) = (cell_patch(a, p, c), cell_patch(b, p, c));
    pa.iter().zip(&pb).filter(|(x, y)| x != y).count()
}

fn distance(a: Rgba<u8>, b: Rgba<u8>) -> u32 {
    (0..3)
        .map(|i| (a[i] as i32 - b[i] as i32).unsigned_abs())
        .sum()
}

/// The ink colour of a digit in a cell: the pixel furthest from the cell's background (taken at
/// the patch corner).
fn ink(patch: &[Rgba<u8>]) -> Rgba<u8> {
    let bg = patch[0];
    *patch.iter().max_by_key(|&&px| distance(px, bg)).unwrap()
}

fn solution_digit(p: &SudokuApp, c: Cell) -> u8 {
    // The only digit the app accepts under a mistake limit is the solution's.
    (1..=9u8)
        .find(|&d| {
            let mut probe = SudokuApp::new(p.givens(), Skin::default(), SMALL).unwrap();
            probe.set_mistake_limit(Some(9));
            probe.select(Some(c));
            let at = probe.key_center(Key::Digit(d));
            probe.tap(at);
            probe.board().get(c) == Some(d)
        })
        .unwrap()
}

#[test]
fn tapping_a_cell_then_a_digit_draws_the_digit_in_that_cell_only() {
    let mut p = SudokuApp::new(medium(), Skin::default(), SMALL).unwrap();
    let target = cell(4, 3);
    let at = p.cell_center(target);
    p.tap(at);
    let before = p.render();
    let at = p.key_center(Key::Digit(3));
    p.tap(at);
    let after = p.render();
    assert!(changed(&before, &after, &p, target) > 50, "no digit drawn");
    // Cells outside the selected cell's row, column, box and digit are untouched.
    assert_eq!(changed(&before, &after, &p, cell(0, 0)), 0);
    assert_eq!(
        p.moves(),
        &[AppMove::Set {
            cell: target,
            digit: 3
        }]
    );
}

#[test]
fn entries_are_drawn_in_another_colour_than_givens_on_every_skin() {
    for name in Skin::names() {
        let mut p = SudokuApp::new(medium(), Skin::named(name).unwrap(), SMALL).unwrap();
        // r1c2 is empty, r1c1 holds a given 9.
        p.set_entry(cell(0, 1), Some(9));
        let img = p.render();
        let given = ink(&cell_patch(&img, &p, cell(0, 0)));
        let entry = ink(&cell_patch(&img, &p, cell(0, 1)));
        assert!(
            distance(given, entry) > 60,
            "{name}: given {given:?} vs entry {entry:?}"
        );
    }
}

#[test]
fn number_first_taps_through_the_screen_seam_change_the_screenshot() {
    let mut p = SudokuApp::new(medium(), Skin::named("numfirst").unwrap(), SMALL).unwrap();
    let target = cell(0, 1);
    let digit = solution_digit(&p, target);
    let (key, at) = (p.key_center(Key::Digit(digit)), p.cell_center(target));
    assert_eq!(Screen::size(&p), SMALL);
    let before = Screen::render(&mut p);
    Screen::tap(&mut p, key);
    Screen::tap(&mut p, at);
    let after = Screen::render(&mut p);
    assert_eq!(after.dimensions(), (720, 1280));
    assert_eq!(p.board().get(target), Some(digit));
    assert!(changed(&before, &after, &p, target) > 50, "no digit drawn");
}

#[test]
fn the_popup_darkens_the_grid_and_takes_taps_until_closed() {
    let mut p = SudokuApp::new(medium(), Skin::default(), SMALL).unwrap();
    let plain = p.render();
    p.set_popup(true);
    let covered = p.render();
    let corner = p.cell_center(cell(0, 0));
    let bright = |img: &RgbaImage| {
        let px = img.get_pixel(corner.x - pitch(&p) / 3, corner.y - pitch(&p) / 3);
        px[0] as u32 + px[1] as u32 + px[2] as u32
    };
    assert!(
        bright(&covered) < bright(&plain) * 3 / 4,
        "the dim layer is missing"
    );
    let at = p.cell_center(cell(0, 1));
    p.tap(at);
    assert_eq!(p.selected(), None);
    let at = p.key_center(Key::PopupClose);
    p.tap(at);
    assert!(!p.popup_shown());
    assert!(p.render() == plain, "closing the popup restores the frame");
}

#[test]
fn completing_the_board_replaces_the_keypad_with_the_solved_banner() {
    let mut p = SudokuApp::new(medium(), Skin::default(), SMALL).unwrap();
    let before = p.render();
    let empty: Vec<Cell> = Cell::all()
        .filter(|&c| p.givens().get(c).is_none())
        .collect();
    let mut probe = p.givens();
    // Fill by the probe so the test does not need a solver: each cell's accepted digit.
    for &c in &empty {
        let d = solution_digit(&p, c);
        probe.set(c, Some(d));
        p.set_entry(c, Some(d));
    }
    assert!(p.is_solved());
    let after = p.render();
    let key = p.key_center(Key::Digit(5));
    assert_ne!(
        before.get_pixel(key.x, key.y),
        after.get_pixel(key.x, key.y)
    );
    assert_eq!(p.board(), probe);
}

#[test]
fn pencil_notes_are_drawn_small_in_their_own_ninth_of_the_cell() {
    let mut p = SudokuApp::new(medium(), Skin::default(), SMALL).unwrap();
    let c = cell(0, 1);
    let plain = p.render();
    p.set_notes(c, 1 << 1);
    let one = p.render();
    p.set_notes(c, 1 << 9);
    let nine = p.render();
    // Where did the ink change, relative to the cell centre?
    let centre = p.cell_center(c);
    let half = (pitch(&p) / 2 - 2) as i64;
    let ink_box = |img: &RgbaImage| {
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        for dy in -half..half {
            for dx in -half..half {
                let (x, y) = ((centre.x as i64 + dx) as u32, (centre.y as i64 + dy) as u32);
                if img.get_pixel(x, y) != plain.get_pixel(x, y) {
                    xs.push(dx);
                    ys.push(dy);
                }
            }
        }
        (
            *xs.iter().max().unwrap(),
            *ys.iter().max().unwrap(),
            *xs.iter().min().unwrap(),
            *ys.iter().min().unwrap(),
        )
    };
    let (max_x, max_y, _, _) = ink_box(&one);
    assert!(
        max_x < -half / 3 && max_y < -half / 3,
        "note 1 must sit top left"
    );
    let (_, _, min_x, min_y) = ink_box(&nine);
    assert!(
        min_x > half / 3 && min_y > half / 3,
        "note 9 must sit bottom right"
    );
}

#[test]
fn selecting_a_cell_tints_its_row_column_and_box_only() {
    let mut p = SudokuApp::new(medium(), Skin::default(), SMALL).unwrap();
    let plain = p.render();
    let at = p.cell_center(cell(4, 3));
    p.tap(at);
    let selected = p.render();
    let bg_at = |img: &RgbaImage, c: Cell| {
        let centre = p.cell_center(c);
        let off = pitch(&p) * 2 / 5;
        *img.get_pixel(centre.x - off, centre.y - off)
    };
    for c in Cell::all() {
        let related = c.row() == 4 || c.col() == 3 || c.box_index() == 4;
        let tinted = bg_at(&plain, c) != bg_at(&selected, c);
        assert_eq!(tinted, related, "{c}");
    }
}

#[test]
fn the_largest_screen_renders_at_its_full_size() {
    let mut p = SudokuApp::new(
        medium(),
        Skin::named("thick").unwrap(),
        Size::new(1440, 3200),
    )
    .unwrap();
    let img = p.render();
    assert_eq!(img.dimensions(), (1440, 3200));
    assert!(pitch(&p) > 140, "cells scale with the screen");
}

// ---------------------------------------------------------------------------------------------
// Goldens

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// A game in progress that shows every drawing path: entries, notes, a selection with its
/// highlights, the notes toggle, a mistake counter and a running timer.
fn busy_phone(skin: &str, size: Size) -> SudokuApp {
    let mut p = SudokuApp::new(medium(), Skin::named(skin).unwrap(), size).unwrap();
    p.set_mistake_limit(Some(3));
    p.set_elapsed(Duration::from_secs(127));
    for (c, d) in [
        (cell(0, 1), 2),
        (cell(1, 0), 3),
        (cell(4, 4), 6),
        (cell(8, 8), 7),
    ] {
        p.set_entry(c, Some(d));
    }
    p.set_notes(cell(0, 2), 1 << 1 | 1 << 5 | 1 << 6);
    p.set_notes(cell(6, 1), 0b11_1111_1110);
    p.set_notes(cell(7, 4), 1 << 3 | 1 << 5 | 1 << 8);
    let at = p.cell_center(cell(4, 4));
    p.tap(at);
    if p.input_order() == sudoku_sim::EntryOrder::NumberFirst {
        let at = p.key_center(Key::Digit(6));
        p.tap(at);
    }
    let at = p.key_center(Key::Notes);
    p.tap(at);
    p
}

fn check_golden(name: &str, img: &RgbaImage) {
    let path = golden_dir().join(format!("{name}.png"));
    if std::env::var_os("SUDOKU_AGENT_BLESS").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(golden_dir()).unwrap();
        img.save(&path).unwrap();
        return;
    }
    let want = image::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; bless with SUDOKU_AGENT_BLESS=1", path.display()))
        .to_rgba8();
    if want != *img {
        let out = std::env::temp_dir().join(format!("sim-golden-actual-{name}.png"));
        img.save(&out).unwrap();
        let differing = if want.dimensions() == img.dimensions() {
            want.pixels()
                .zip(img.pixels())
                .filter(|(a, b)| a != b)
                .count()
        } else {
            usize::MAX
        };
        panic!(
            "{name} differs from its golden in {differing} pixels; actual frame saved to {}",
            out.display()
        );
    }
}

#[test]
fn goldens_every_skin_renders_exactly_as_committed() {
    for name in Skin::names() {
        check_golden(&format!("{name}-{TALL}"), &busy_phone(name, TALL).render());
    }
    check_golden(
        &format!("light-{SMALL}"),
        &busy_phone("light", SMALL).render(),
    );
}
