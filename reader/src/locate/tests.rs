use super::*;
use image::Rgba;

/// A 9x9 grid with 30 px cells at (25, 140) on a 320x600 screen; box lines 3 px, others 1 px.
fn drawn_grid(bg: [u8; 3], line: [u8; 3]) -> RgbaImage {
    let mut img = RgbaImage::from_pixel(320, 600, Rgba([bg[0], bg[1], bg[2], 255]));
    let px = Rgba([line[0], line[1], line[2], 255]);
    for i in 0..10u32 {
        let t = if i % 3 == 0 { 3 } else { 1 };
        for k in 0..t {
            let at = i * 30 + k;
            for a in 0..=270 {
                img.put_pixel(25 + at - t / 2, 140 + a, px);
                img.put_pixel(25 + a, 140 + at - t / 2, px);
            }
        }
    }
    img
}

#[test]
fn a_drawn_grid_is_found_to_the_pixel_in_light_and_dark_themes() {
    for (bg, line, bright) in [([250; 3], [40; 3], false), ([20; 3], [200; 3], true)] {
        let grid = locate_grid(&drawn_grid(bg, line)).unwrap();
        assert_eq!(grid.bright_lines, bright);
        assert_within(&grid, 25.0, 140.0, 1.0);
        let near = locate_grid_near(&drawn_grid(bg, line), grid.rect()).unwrap();
        assert_eq!(near.rect(), grid.rect());
    }
}

#[test]
fn a_blank_or_tiny_screen_has_no_grid() {
    let blank = RgbaImage::from_pixel(320, 600, Rgba([255; 4]));
    assert!(matches!(locate_grid(&blank), Err(VisionError::NoGrid(_))));
    assert!(locate_grid_near(&blank, Rect::new(25, 140, 270, 270)).is_err());
    assert!(locate_grid(&RgbaImage::new(40, 40)).is_err());
}

#[test]
fn cell_rectangles_run_between_line_centres() {
    let grid = Grid::from_rect(Rect::new(10, 20, 90, 90));
    assert_eq!(
        grid.cell_rect(Cell::new(0, 0).unwrap()),
        Rect::new(10, 20, 10, 10)
    );
    assert_eq!(
        grid.cell_rect(Cell::new(8, 8).unwrap()),
        Rect::new(90, 100, 10, 10)
    );
    assert_eq!(grid.pitch(), 10.0);
}

/// A 9x9 grid of 30 px cells at (`x0`, `y0`) on a `w` x `h` white screen; box lines 3 px,
/// others 1 px; `bottom` of the bottom line's length is drawn (a faint or broken line).
fn grid_at(w: u32, h: u32, x0: u32, y0: u32, bottom: f32) -> RgbaImage {
    let mut img = RgbaImage::from_pixel(w, h, Rgba([250, 250, 250, 255]));
    let ink = Rgba([40, 40, 40, 255]);
    for i in 0..10u32 {
        let t = if i % 3 == 0 { 3 } else { 1 };
        let len = if i == 9 { (270.0 * bottom) as u32 } else { 270 };
        for k in 0..t {
            let at = i * 30 + k;
            for a in 0..=270 {
                img.put_pixel(x0 + at - t / 2, y0 + a, ink);
                if a <= len {
                    img.put_pixel(x0 + a, y0 + at - t / 2, ink);
                }
            }
        }
    }
    img
}

/// The grid's lines lie within `tolerance` px of a 30 px lattice from (`x0`, `y0`).
fn assert_within(grid: &Grid, x0: f32, y0: f32, tolerance: f32) {
    for i in 0..10 {
        assert!(
            (grid.xs[i] - (x0 + 30.0 * i as f32)).abs() <= tolerance,
            "{grid:?}"
        );
        assert!(
            (grid.ys[i] - (y0 + 30.0 * i as f32)).abs() <= tolerance,
            "{grid:?}"
        );
    }
}

fn assert_at(grid: &Grid, x0: f32, y0: f32) {
    assert_within(grid, x0, y0, 1.5);
}

#[test]
fn the_image_edge_one_cell_above_a_grid_is_not_taken_for_its_top_line() {
    // The top of the image lies one cell above the grid, whose bottom line is broken: the
    // lattice from the image edge down (its top line on trust) would drop the last row.
    let img = grid_at(320, 330, 25, 30, 0.54);
    assert_at(&locate_grid(&img).unwrap(), 25.0, 30.0);
}

#[test]
fn a_margin_that_hides_the_outer_lines_never_gives_a_grid_shifted_by_a_cell() {
    // Margins of the lines' own colour one cell wide on both sides: the outer vertical
    // lines do not show, the image edges lie one cell outside the grid.
    let mut img = grid_at(330, 600, 30, 140, 1.0);
    for y in 0..600 {
        for x in (0..30).chain(301..330) {
            img.put_pixel(x, y, Rgba([40, 40, 40, 255]));
        }
    }
    if let Ok(grid) = locate_grid(&img) {
        assert_at(&grid, 30.0, 140.0);
    }
    assert_at(
        &locate_grid_candidates_on(&Screen::new(&img))[0],
        30.0,
        140.0,
    );
}

#[test]
fn a_grid_without_outer_lines_is_fixed_by_its_box_lines() {
    // Lines 1..8 only (no border), box lines 3 px, thin lines 1 px, 30 px cells at (25, 140).
    let mut img = RgbaImage::from_pixel(320, 600, Rgba([250, 250, 250, 255]));
    for i in 1..9u32 {
        let t = if i % 3 == 0 { 3 } else { 1 };
        for k in 0..t {
            let at = i * 30 + k;
            for a in 0..=270 {
                img.put_pixel(25 + at - t / 2, 140 + a, Rgba([40, 40, 40, 255]));
                img.put_pixel(25 + a, 140 + at - t / 2, Rgba([40, 40, 40, 255]));
            }
        }
    }
    let grid = &locate_grid_candidates_on(&Screen::new(&img))[0];
    assert_at(grid, 25.0, 140.0);
}

#[test]
fn lines_not_seen_near_their_place_take_the_places_the_seen_lines_give_them() {
    // Lines 0..2 and 4 unseen (noise a few pixels off), the rest seen on a 34 px pitch.
    let seen = |i: usize| (6.5 + 34.0 * i as f32, 0.9);
    let mut lines: Vec<(f32, f32)> = (0..10).map(seen).collect();
    for (i, off) in [(0, 4.5), (1, -3.3), (2, -3.4), (4, 2.0)] {
        lines[i] = (lines[i].0 + off, 0.01);
    }
    place_unseen_lines(&mut lines);
    for (i, &(at, coverage)) in lines.iter().enumerate() {
        assert!((at - seen(i).0).abs() < 0.01, "line {i} at {at}");
        assert!(coverage == 0.9 || coverage == 0.01);
    }
}
