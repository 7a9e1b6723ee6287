//! Whether a located 9x9 is divided into the classic 3x3 boxes. A jigsaw (irregular) sudoku
//! draws its regions' walls thick where the regions meet, wandering off the box lines; its
//! digits obey other regions, so reading it as classic gives a wrong solution. Each wall between
//! two neighbouring cells is weighed (how much it differs from the paper either side, across a
//! narrow band around it), the weights are split into heavy and light, and a board whose light
//! walls join its cells into nine regions of nine that are not the boxes is refused. A board
//! drawn with one weight of line (no thick box lines) is never refused here: nothing tells its
//! regions.

use super::locate::Grid;
use super::screen::Screen;

/// The heavy walls' mean weight over the light ones' at least: below it the board draws one
/// weight of line, and nothing tells where its regions are.
const CONTRAST: f32 = 1.6;

/// Are this grid's regions not the 3x3 boxes? The cells joined across light walls must make
/// exactly nine regions of nine cells, and not the boxes: the shape of a jigsaw's regions, which
/// the stray heavy walls of a classic board (notes, highlights, a selected cell) never make.
pub fn irregular(img: &Screen, grid: &Grid) -> bool {
    let walls = walls(img, grid);
    if walls.is_empty() {
        return false;
    }
    let weights: Vec<f32> = walls.iter().map(|w| w.weight).collect();
    let Some(split) = split(&weights) else {
        return false;
    };
    let regions = regions(&walls, split);
    let boxes = (0..81).map(|i| (i / 27) * 3 + (i % 9) / 3);
    let same_as_boxes = boxes.zip(&regions).all(|(b, &r)| regions[r_of_box(b)] == r);
    nine_of_nine(&regions) && !same_as_boxes
}

/// A cell of box `b` (its top-left one), to compare region labels box by box.
fn r_of_box(b: usize) -> usize {
    (b / 3) * 27 + (b % 3) * 3
}

/// Each cell's region label: cells joined across every wall lighter than `split`.
fn regions(walls: &[Wall], split: f32) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..81).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for w in walls.iter().filter(|w| w.weight < split) {
        let (a, b) = (root(&mut parent, w.cells.0), root(&mut parent, w.cells.1));
        parent[a] = b;
    }
    (0..81).map(|i| root(&mut parent, i)).collect()
}

/// Exactly nine regions of nine cells each.
fn nine_of_nine(regions: &[usize]) -> bool {
    let mut sizes = std::collections::HashMap::new();
    for &r in regions {
        *sizes.entry(r).or_insert(0usize) += 1;
    }
    sizes.len() == 9 && sizes.values().all(|&n| n == 9)
}

/// The wall between two neighbouring cells.
#[derive(Debug, Clone, Copy)]
struct Wall {
    weight: f32,
    /// The two cells it parts, as row-major indices.
    cells: (usize, usize),
}

/// The 144 inner walls (72 upright between columns, 72 across between rows) with their
/// weights; none when the grid runs off the screen.
fn walls(img: &Screen, grid: &Grid) -> Vec<Wall> {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let pitch = grid.pitch();
    // The band either side of the line: narrow enough to miss digits and the notes drawn in
    // a cell's outer thirds, wide enough for a thick wall and a lattice a few pixels off.
    let band = ((pitch / 9.0).round() as i64).max(3);
    let inside = |x: f32, y: f32| {
        let (x, y) = (x.round() as i64, y.round() as i64);
        x - band >= 0 && y - band >= 0 && x + band < w && y + band < h
    };
    if !inside(grid.xs[0], grid.ys[0]) || !inside(grid.xs[9], grid.ys[9]) {
        return Vec::new();
    }
    let luma = |x: i64, y: i64| f32::from(img.row(y as u32)[x as usize]);
    let mut walls = Vec::with_capacity(144);
    for line in 1..9 {
        for cell in 0..9 {
            for upright in [true, false] {
                let (at, lines) = if upright {
                    (grid.xs[line], &grid.ys)
                } else {
                    (grid.ys[line], &grid.xs)
                };
                let (from, to) = (lines[cell], lines[cell + 1]);
                // Samples along the middle of the wall, clear of the crossing lines.
                let samples: Vec<f32> = (1..8)
                    .map(|k| {
                        let along = (from + (to - from) * (0.2 + 0.6 * k as f32 / 8.0)).round();
                        let across = at.round() as i64;
                        let pixel = |d: i64| {
                            if upright {
                                luma(across + d, along as i64)
                            } else {
                                luma(along as i64, across + d)
                            }
                        };
                        band_weight(pixel, band)
                    })
                    .collect();
                let cells = if upright {
                    (cell * 9 + line - 1, cell * 9 + line)
                } else {
                    ((line - 1) * 9 + cell, line * 9 + cell)
                };
                walls.push(Wall {
                    weight: median(samples),
                    cells,
                });
            }
        }
    }
    walls
}

/// How much a band of `2 * band + 1` pixels across a wall differs from the paper at its two
/// ends (either polarity: dark lines on light paper, light gaps between dark tiles).
fn band_weight(pixel: impl Fn(i64) -> f32, band: i64) -> f32 {
    let (a, b) = (pixel(-band), pixel(band));
    let paper = (a + b) / 2.0;
    (-band + 1..band)
        .map(|d| (pixel(d) - paper).abs())
        .sum::<f32>()
}

fn median(mut v: Vec<f32>) -> f32 {
    v.sort_by(f32::total_cmp);
    v[v.len() / 2]
}

/// The weight that best splits `weights` into light and heavy (Otsu's rule on the values), when
/// the heavy ones weigh at least [`CONTRAST`] times the light ones.
fn split(weights: &[f32]) -> Option<f32> {
    let mut v = weights.to_vec();
    v.sort_by(f32::total_cmp);
    let n = v.len();
    let total: f32 = v.iter().sum();
    let mut below = 0.0;
    let mut best: Option<(f32, usize)> = None;
    for i in 1..n {
        below += v[i - 1];
        let (n0, n1) = (i as f32, (n - i) as f32);
        let (m0, m1) = (below / n0, (total - below) / n1);
        let between = n0 * n1 * (m1 - m0) * (m1 - m0);
        if best.is_none_or(|(b, _)| between > b) {
            best = Some((between, i));
        }
    }
    let (_, i) = best?;
    let light = v[..i].iter().sum::<f32>() / i as f32;
    let heavy = v[i..].iter().sum::<f32>() / (n - i) as f32;
    (heavy >= CONTRAST * light.max(1.0)).then_some(v[i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgba, RgbaImage};
    use imageproc::drawing::draw_filled_rect_mut;
    use imageproc::rect::Rect;

    const PITCH: u32 = 60;
    const AT: u32 = 30;

    /// A 9x9 board of `PITCH` px cells, thin lines everywhere and thick walls between cells of
    /// different regions (`region(row, col)`), and the lattice through the lines' middles.
    fn board(region: impl Fn(usize, usize) -> usize) -> (RgbaImage, Grid) {
        let side = AT * 2 + 9 * PITCH;
        let mut img = RgbaImage::from_pixel(side, side, Rgba([250, 250, 250, 255]));
        let ink = Rgba([40, 40, 40, 255]);
        for i in 0..10 {
            let at = (AT + i * PITCH) as i32;
            let len = 9 * PITCH + 1;
            draw_filled_rect_mut(&mut img, Rect::at(at, AT as i32).of_size(1, len), ink);
            draw_filled_rect_mut(&mut img, Rect::at(AT as i32, at).of_size(len, 1), ink);
        }
        for r in 0..9 {
            for c in 0..9 {
                let (x, y) = (
                    (AT + c as u32 * PITCH) as i32,
                    (AT + r as u32 * PITCH) as i32,
                );
                if c < 8 && region(r, c) != region(r, c + 1) {
                    draw_filled_rect_mut(
                        &mut img,
                        Rect::at(x + PITCH as i32 - 2, y - 2).of_size(5, PITCH + 5),
                        ink,
                    );
                }
                if r < 8 && region(r, c) != region(r + 1, c) {
                    draw_filled_rect_mut(
                        &mut img,
                        Rect::at(x - 2, y + PITCH as i32 - 2).of_size(PITCH + 5, 5),
                        ink,
                    );
                }
            }
        }
        let grid = Grid::from_rect(crate::geometry::Rect::new(AT, AT, 9 * PITCH, 9 * PITCH));
        (img, grid)
    }

    /// Nine regions of nine cells that wander off the boxes: in each band of three rows,
    /// `AAAABBBCC / AAABBBCCC / AABBBCCCC`.
    fn jigsaw(r: usize, c: usize) -> usize {
        let k = r % 3;
        let region = if c < 4 - k {
            0
        } else if c < 7 - k {
            1
        } else {
            2
        };
        r / 3 * 3 + region
    }

    #[test]
    fn a_board_whose_heavy_walls_make_no_nine_regions_of_nine_is_regular() {
        // The old staircase: regions of 4, 3 and 2 cells in a row: stray heavy walls.
        let (img, grid) = board(|r, c| r / 3 * 4 + (c + r % 3) / 3);
        assert!(!irregular(&Screen::new(&img), &grid));
    }

    #[test]
    fn a_classic_board_with_thick_box_lines_is_regular() {
        let (img, grid) = board(|r, c| r / 3 * 3 + c / 3);
        assert!(!irregular(&Screen::new(&img), &grid));
    }

    #[test]
    fn a_board_of_one_line_weight_is_never_refused() {
        let (img, grid) = board(|_, _| 0);
        assert!(!irregular(&Screen::new(&img), &grid));
    }

    #[test]
    fn thick_walls_that_wander_off_the_box_lines_are_irregular_regions() {
        let (img, grid) = board(jigsaw);
        assert!(irregular(&Screen::new(&img), &grid));
    }

    #[test]
    fn a_selected_cell_outlined_thick_on_a_classic_board_stays_regular() {
        let (mut img, grid) = board(|r, c| r / 3 * 3 + c / 3);
        let ink = Rgba([30, 90, 200, 255]);
        let (x, y) = ((AT + 4 * PITCH) as i32, (AT + 4 * PITCH) as i32);
        for (dx, dy, w, h) in [
            (0, 0, PITCH, 4),
            (0, PITCH - 3, PITCH, 4),
            (0, 0, 4, PITCH),
            (PITCH - 3, 0, 4, PITCH),
        ] {
            draw_filled_rect_mut(
                &mut img,
                Rect::at(x - 1 + dx as i32, y - 1 + dy as i32).of_size(w, h),
                ink,
            );
        }
        assert!(!irregular(&Screen::new(&img), &grid));
    }

    #[test]
    fn the_split_needs_heavy_walls_clearly_heavier() {
        assert_eq!(split(&[10.0; 20]), None);
        let mut v = vec![10.0; 100];
        v.extend([40.0; 40]);
        let s = split(&v).unwrap();
        assert!(s > 10.0 && s <= 40.0);
    }
}
