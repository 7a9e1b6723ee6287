//! The looks that real screenshot sets lack, checked on their pixels: the board as tiles with
//! gaps and no lines, a board card whose rounded corners hold highlighted givens, every skin on
//! a scaled-down 320x640 screen, and a samurai puzzle of five overlapping grids; and taps on the
//! new boards landing in the cells drawn there.

use image::{Rgba, RgbaImage};
use sudoku_sim::puzzles::{GRIDS, SPAN, in_a_grid};
use sudoku_sim::{
    Board, Cell, EntryOrder, Hit, Key, Point, Rect, SUPPORTED_SIZES, SamuraiScreen, Screen, Size,
    Skin, SudokuApp, puzzles,
};

const SMALL: Size = Size::new(320, 640);
const TALL: Size = Size::new(1080, 2340);

fn medium() -> Board {
    puzzles::parse(puzzles::named("medium").unwrap()).unwrap()
}

fn cell(r: usize, c: usize) -> Cell {
    Cell::new(r, c).unwrap()
}

fn app(skin: &str, puzzle: Board, size: Size) -> SudokuApp {
    SudokuApp::new(puzzle, Skin::named(skin).unwrap(), size).unwrap()
}

fn inside(r: Rect, p: Point) -> bool {
    p.x >= r.x && p.x < r.right() && p.y >= r.y && p.y < r.bottom()
}

/// A pixel of the screen background: left of the grid, half way down it.
fn backdrop(img: &RgbaImage, p: &SudokuApp) -> Rgba<u8> {
    let g = p.grid_rect();
    *img.get_pixel(g.x / 2, g.y + g.height / 2)
}

#[test]
fn tiles_stand_apart_on_the_background_with_no_line_anywhere() {
    for size in [TALL, SMALL] {
        let mut p = app("tiles", medium(), size);
        let img = p.render();
        let bg = backdrop(&img, &p);
        let g = p.grid_rect();
        let rects: Vec<Rect> = Cell::all().map(|c| p.cell_rect(c)).collect();
        let mut gap_pixels = 0;
        for y in g.y..g.bottom() {
            for x in g.x..g.right() {
                if !rects.iter().any(|&r| inside(r, Point::new(x, y))) {
                    assert_eq!(*img.get_pixel(x, y), bg, "{size}: ({x}, {y}) between tiles");
                    gap_pixels += 1;
                }
            }
        }
        // Eight gaps each way, at least two pixels wide even on the small screen (the 64 places
        // where they cross counted once).
        let least = 2 * 8 * 2 * g.width as usize - 64 * 2 * 2;
        assert!(gap_pixels >= least, "{size}: {gap_pixels}");
        // Tiles have rounded corners, and boxes alternate between two shades.
        let edge = |c: Cell| {
            let r = p.cell_rect(c);
            *img.get_pixel(r.x + 1, r.y + r.height - r.height / 5)
        };
        for c in Cell::all() {
            let r = p.cell_rect(c);
            assert_eq!(
                *img.get_pixel(r.x, r.y),
                bg,
                "{size}: {c}'s corner is square"
            );
            let same = [cell(0, 0), cell(0, 3)][c.box_index() % 2];
            assert_eq!(edge(c), edge(same), "{size}: {c}");
        }
        assert_ne!(
            edge(cell(0, 0)),
            edge(cell(0, 3)),
            "{size}: boxes look alike"
        );
        assert_ne!(edge(cell(0, 0)), bg, "{size}");
    }
}

#[test]
fn the_card_opens_on_a_digit_whose_highlight_fills_both_rounded_corner_cells() {
    for size in [TALL, SMALL] {
        let moved = puzzles::with_corners_alike(&medium()).unwrap();
        let d = moved.get(cell(0, 0)).unwrap();
        assert_eq!(moved.get(cell(8, 8)), Some(d));
        let mut p = app("card", moved, size);
        let selected = p.selected().expect("the card opens with a cell selected");
        assert_eq!(moved.get(selected), Some(d), "{size}");
        assert!(![cell(0, 0), cell(8, 8)].contains(&selected), "{size}");
        let lit = p.render();
        p.select(None);
        let plain = p.render();
        let bg = backdrop(&plain, &p);
        // Under the digit, inside its cell: the tint of the same-number highlight.
        let tint = |img: &RgbaImage, c: Cell| {
            let r = p.cell_rect(c);
            *img.get_pixel(r.x + r.width / 2, r.bottom() - 3)
        };
        let other = Cell::all()
            .find(|&c| c != selected && moved.get(c) == Some(d) && c.row() % 8 != 0)
            .unwrap();
        for corner in [cell(0, 0), cell(8, 8)] {
            assert_ne!(
                tint(&lit, corner),
                tint(&plain, corner),
                "{size}: {corner} not lit"
            );
            assert_eq!(tint(&lit, corner), tint(&lit, other), "{size}: {corner}");
            // The card's rounded corner cuts the highlight as it cuts the card.
            let r = p.cell_rect(corner);
            let outer = if corner.row() == 0 {
                Point::new(r.x, r.y)
            } else {
                Point::new(r.right() - 1, r.bottom() - 1)
            };
            assert_eq!(*lit.get_pixel(outer.x, outer.y), bg, "{size}: {corner}");
        }
        // The tint keeps the ink: the corner digit is still drawn.
        let r = p.cell_rect(cell(0, 0));
        let inked = (r.y..r.bottom())
            .flat_map(|y| (r.x..r.right()).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                let px = lit.get_pixel(x, y);
                px[0] > 200 && px[1] > 200 && px[2] > 200
            })
            .count();
        assert!(
            inked > (r.width * r.height / 40) as usize,
            "{size}: {inked}"
        );
    }
}

#[test]
fn the_card_opens_with_nothing_selected_when_no_corner_holds_a_given() {
    let mut bare = medium();
    for (r, c) in [(0, 0), (0, 8), (8, 0), (8, 8)] {
        bare.set(cell(r, c), None);
    }
    assert_eq!(app("card", bare, TALL).selected(), None);
    assert_eq!(app("light", medium(), TALL).selected(), None);
}

#[test]
fn every_skin_fits_a_small_board_and_its_keys_on_the_320x640_screen() {
    assert!(SUPPORTED_SIZES.contains(&SMALL));
    for name in Skin::names() {
        let mut p = app(name, medium(), SMALL);
        let img = p.render();
        assert_eq!(img.dimensions(), (320, 640));
        let g = p.grid_rect();
        assert!(g.right() <= 320 && g.bottom() <= 640, "{name}: {g:?}");
        assert!((250..=320).contains(&g.width), "{name}: {} px", g.width);
        // Givens are drawn and empty cells are plain, each inside its own cell.
        for c in Cell::all() {
            let r = p.cell_rect(c);
            let centre = r.center();
            let half = r.width * 3 / 10;
            let patch: Vec<Rgba<u8>> = (centre.y - half..centre.y + half)
                .flat_map(|y| (centre.x - half..centre.x + half).map(move |x| (x, y)))
                .map(|(x, y)| *img.get_pixel(x, y))
                .collect();
            let plain = patch.iter().all(|&px| px == patch[0]);
            assert_eq!(plain, medium().get(c).is_none(), "{name}: {c}");
        }
        for key in (1..=9).map(Key::Digit).chain([Key::Erase, Key::Notes]) {
            let at = p.key_center(key);
            assert!(at.y > g.bottom() && at.y < 640, "{name}: {key:?}");
            p.tap(at);
            assert_eq!(p.hits().last(), Some(&Hit::Key(key)), "{name}: {key:?}");
        }
    }
}

/// Taps every cell at its centre and just inside its four corners, and a digit into an empty
/// cell in the skin's input order.
fn taps_land_in_their_cells(name: &str, size: Size) {
    let mut p = app(name, medium(), size);
    for c in Cell::all() {
        let r = p.cell_rect(c);
        let (x1, y1) = (r.right() - 1, r.bottom() - 1);
        for at in [
            r.center(),
            Point::new(r.x, r.y),
            Point::new(x1, r.y),
            Point::new(r.x, y1),
            Point::new(x1, y1),
        ] {
            p.tap(at);
            assert_eq!(
                p.hits().last(),
                Some(&Hit::Cell(c)),
                "{name} {size}: {at:?}"
            );
        }
    }
    // A tap in the gap right of a tile goes to that tile or its neighbour.
    let (a, b) = (p.cell_rect(cell(4, 4)), p.cell_rect(cell(4, 5)));
    let gap = Point::new((a.right() + b.x) / 2, a.center().y);
    p.tap(gap);
    let hit = p.hits().last().copied();
    assert!(
        [Some(Hit::Cell(cell(4, 4))), Some(Hit::Cell(cell(4, 5)))].contains(&hit),
        "{name} {size}: {hit:?}"
    );
    let target = Cell::all().find(|&c| medium().get(c).is_none()).unwrap();
    let (digit, at) = (p.key_center(Key::Digit(5)), p.cell_center(target));
    match p.input_order() {
        EntryOrder::CellFirst => [at, digit].into_iter().for_each(|t| p.tap(t)),
        EntryOrder::NumberFirst => [digit, at].into_iter().for_each(|t| p.tap(t)),
    }
    assert_eq!(p.board().get(target), Some(5), "{name} {size}");
}

#[test]
fn taps_on_tiles_on_the_card_and_on_the_small_screen_land_in_the_cells_drawn_there() {
    for size in [TALL, SMALL] {
        taps_land_in_their_cells("tiles", size);
        taps_land_in_their_cells("card", size);
    }
    for name in Skin::names() {
        taps_land_in_their_cells(name, SMALL);
    }
}

#[test]
fn a_samurai_screen_draws_five_overlapping_grids_whose_lines_run_on_past_each_nine() {
    let mut s = SamuraiScreen::new(Skin::named("numfirst").unwrap(), TALL, 11).unwrap();
    let img = s.render();
    assert_eq!(img.dimensions(), (1080, 2340));
    let q = s.square();
    let pitch = q.width as f32 / SPAN as f32;
    let at = |i: usize| (i as f32 * pitch).round() as u32;
    let centre = |r: usize, c: usize| {
        let half = ((at(1) - at(0)) / 2) as f32;
        Point::new(q.x + at(c) + half as u32, q.y + at(r) + half as u32)
    };
    let bg = *img.get_pixel(q.x / 2, q.y + q.height / 2);
    let cell_bg = |r: usize, c: usize| {
        let p = centre(r, c);
        *img.get_pixel(p.x - (pitch * 0.35) as u32, p.y - (pitch * 0.35) as u32)
    };
    let ink = |r: usize, c: usize| {
        let p = centre(r, c);
        let half = (pitch * 0.3) as u32;
        let paper = cell_bg(r, c);
        (p.y - half..p.y + half)
            .flat_map(|y| (p.x - half..p.x + half).map(move |x| (x, y)))
            .filter(|&(x, y)| *img.get_pixel(x, y) != paper)
            .count()
    };
    let givens = *s.givens();
    for (r, row) in givens.iter().enumerate() {
        for (c, &d) in row.iter().enumerate() {
            if !in_a_grid(r, c) {
                assert_eq!(cell_bg(r, c), bg, "({r}, {c}) lies outside the grids");
                assert_eq!(d, 0);
            } else {
                assert_ne!(cell_bg(r, c), bg, "({r}, {c})");
                assert_eq!(ink(r, c) > 0, d > 0, "({r}, {c})");
            }
        }
    }
    // The centre grid's top box line is the top-left grid's row line, and runs on left of it.
    let (r0, c0) = GRIDS[4];
    let y = q.y + at(r0);
    let line = *img.get_pixel(q.x + at(c0) - at(1) / 2 - at(3), y);
    assert_ne!(
        line,
        cell_bg(r0, c0 - 4),
        "the line stops at the centre grid"
    );
    assert!(givens.iter().flatten().filter(|&&d| d > 0).count() > 90);
    s.tap(centre(10, 10));
    assert_eq!(s.render(), img, "a tap changes nothing");
}

#[test]
fn a_samurai_screen_renders_in_every_skin_and_size() {
    for (i, name) in Skin::names().iter().enumerate() {
        let size = SUPPORTED_SIZES[i % SUPPORTED_SIZES.len()];
        let mut s = SamuraiScreen::new(Skin::named(name).unwrap(), size, i as u64).unwrap();
        let img = s.render();
        assert_eq!(Screen::size(&s), size);
        assert_eq!(img.dimensions(), (size.width, size.height));
        let q = s.square();
        assert!(
            q.right() <= size.width && q.bottom() < size.height,
            "{name}"
        );
    }
    assert!(SamuraiScreen::new(Skin::default(), Size::new(100, 100), 1).is_err());
}
