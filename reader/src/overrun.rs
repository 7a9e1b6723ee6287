//! Lines that run on beyond a located 9x9 grid. In a samurai or any other multi-grid puzzle
//! several 9x9 grids share boxes, so the lines of one continue into its neighbour: such a 9x9
//! is no standalone sudoku (its digits are constrained by cells outside it) and is refused, as
//! killer sudoku is. A classic board's lines stop at its outer border.

use super::locate::Grid;
use super::screen::Screen;

/// How many lines of one side (a box's four) must continue for the grid to run on.
const LINES: usize = 4;
/// How much of the stretch beyond the border a continuing line covers.
const COVERED: f32 = 0.6;
/// How much darker (or brighter) than the pixels either side a line is.
const CONTRAST: i16 = 12;

/// Do a box's worth of the grid's lines in a row run on straight past one of its outer lines,
/// for most of the next three cells, with a line across them one cell out (the walls of the
/// other grid's cells)?
pub fn lines_run_on(img: &Screen, grid: &Grid) -> bool {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let p = grid.pitch();
    let d = ((p / 8.0).round() as i64).clamp(2, 12);
    // A line is looked for this far either side of where the grid's lines put it: the grids
    // of a samurai screen are drawn each on its own, a pixel or two apart, and the lattice
    // found can sit a pixel or two off a thick line's centre.
    let r = ((p / 12.0).round() as i64).clamp(2, 6);
    let luma = |x: i64, y: i64| img.row(y as u32)[x as usize] as i16;
    // Is there a line across the point `along` of a line at `across` (horizontal lines when
    // `horizontal`), within `r` of it?
    let ridge_at = |horizontal: bool, along: i64, c: i64| {
        let at = |k: i64| {
            if horizontal {
                luma(along, k)
            } else {
                luma(k, along)
            }
        };
        let (v, a, b) = (at(c), at(c - d), at(c + d));
        a.min(b) - v > CONTRAST || v - a.max(b) > CONTRAST
    };
    let ridge = |horizontal: bool, along: i64, across: i64| {
        (across - r..=across + r).any(|c| ridge_at(horizontal, along, c))
    };
    // Each line where the screen draws it across the grid: a lattice fixed by its box lines
    // alone (thin lines too faint to fit) can have a pitch a few percent off, which puts its
    // outer lines several pixels beside the real ones, too far for `r`.
    let snap = |horizontal: bool, at: f32, lo: f32, hi: f32| -> f32 {
        let span = if horizontal { h } else { w };
        let limit = if horizontal { w } else { h };
        let (lo, hi) = (lo.max(0.0) as i64, (hi as i64).min(limit - 1));
        let step = ((hi - lo) / 40).max(1);
        let samples: Vec<i64> = (lo..=hi).step_by(step as usize).collect();
        let reach = (p / 4.0).round() as i64;
        let c0 = at.round() as i64;
        let best = (c0 - reach..=c0 + reach)
            .filter(|&c| c - d >= 0 && c + d < span)
            .map(|c| {
                let hits = samples
                    .iter()
                    .filter(|&&k| ridge_at(horizontal, k, c))
                    .count();
                (hits, -(c - c0).abs(), c)
            })
            .max();
        match best {
            Some((hits, _, c)) if hits * 2 >= samples.len() && !samples.is_empty() => c as f32,
            _ => at,
        }
    };
    let xs: Vec<f32> = grid
        .xs
        .iter()
        .map(|&x| snap(false, x, grid.ys[0], grid.ys[9]))
        .collect();
    let ys: Vec<f32> = grid
        .ys
        .iter()
        .map(|&y| snap(true, y, grid.xs[0], grid.xs[9]))
        .collect();
    // The stretch beyond one outer line: from a fifth of a cell past it to three cells past it,
    // clipped to the image; too short a stretch says nothing.
    let covered = |horizontal: bool, across: f32, from: f32, dir: f32| -> f32 {
        let (limit, span) = if horizontal { (w, h) } else { (h, w) };
        let c = across.round() as i64;
        if c - r - d < 0 || c + r + d >= span {
            return 0.0;
        }
        let (a, b) = (from + dir * 0.2 * p, from + dir * 3.0 * p);
        let (lo, hi) = (a.min(b).max(0.0) as i64, (a.max(b) as i64).min(limit - 1));
        if hi - lo < p as i64 {
            return 0.0;
        }
        let step = ((hi - lo) / 60).max(1);
        let samples: Vec<i64> = (lo..=hi).step_by(step as usize).collect();
        let hits = samples.iter().filter(|&&k| ridge(horizontal, k, c)).count();
        hits as f32 / samples.len() as f32
    };
    // A line across the stretch, parallel to the outer line one cell beyond it, between the
    // lines `a` and `b` of the grid (the other grid's cells have their own walls there).
    let wall = |horizontal: bool, at: f32, a: f32, b: f32| -> bool {
        let (limit, span) = if horizontal { (w, h) } else { (h, w) };
        let c = at.round() as i64;
        if c - r - d < 0 || c + r + d >= span {
            return false;
        }
        let (lo, hi) = (a.max(0.0) as i64, (b as i64).min(limit - 1));
        let step = ((hi - lo) / 40).max(1);
        let samples: Vec<i64> = (lo..=hi).step_by(step as usize).collect();
        let hits = samples.iter().filter(|&&k| ridge(horizontal, k, c)).count();
        !samples.is_empty() && hits as f32 >= COVERED * samples.len() as f32
    };
    let sides = [
        (true, &ys, xs[0], -1.0),
        (true, &ys, xs[9], 1.0),
        (false, &xs, ys[0], -1.0),
        (false, &xs, ys[9], 1.0),
    ];
    sides.into_iter().any(|(horizontal, lines, from, dir)| {
        let running: Vec<bool> = lines
            .iter()
            .map(|&at| covered(horizontal, at, from, dir) >= COVERED)
            .collect();
        // A box's worth of lines in a row, walled off one cell out: another grid's cells.
        (0..=10 - LINES).any(|i| {
            running[i..i + LINES].iter().all(|&r| r) && {
                let walled = wall(!horizontal, from + dir * p, lines[i], lines[i + LINES - 1]);
                if walled {
                    log::debug!("lines {i}.. run on past the grid's outer line at {from:.0}");
                }
                walled
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Rect;
    use image::{Rgba, RgbaImage};

    /// Draws a 9x9 grid of 30 px cells at (`x0`, `y0`): box lines 3 px, others 1 px.
    fn draw_grid(img: &mut RgbaImage, x0: u32, y0: u32) {
        for i in 0..10u32 {
            let t = if i % 3 == 0 { 3 } else { 1 };
            for k in 0..t {
                let at = i * 30 + k;
                for a in 0..=270 {
                    img.put_pixel(x0 + at - t / 2, y0 + a, Rgba([40, 40, 40, 255]));
                    img.put_pixel(x0 + a, y0 + at - t / 2, Rgba([40, 40, 40, 255]));
                }
            }
        }
    }

    #[test]
    fn a_classic_grid_stops_at_its_border_and_grids_sharing_a_box_run_on() {
        let mut img = RgbaImage::from_pixel(600, 700, Rgba([250, 250, 250, 255]));
        draw_grid(&mut img, 40, 100);
        let first = Grid::from_rect(Rect::new(40, 100, 270, 270));
        assert!(!lines_run_on(&Screen::new(&img), &first));
        // A second grid sharing the first one's bottom-right box, as in a samurai puzzle.
        draw_grid(&mut img, 220, 280);
        let second = Grid::from_rect(Rect::new(220, 280, 270, 270));
        assert!(lines_run_on(&Screen::new(&img), &first));
        assert!(lines_run_on(&Screen::new(&img), &second));
    }

    #[test]
    fn a_grid_at_the_image_edge_or_in_a_frame_of_its_line_colour_does_not_run_on() {
        let mut img = RgbaImage::from_pixel(290, 600, Rgba([40, 40, 40, 255]));
        for y in 100..=370 {
            for x in 10..=280 {
                img.put_pixel(x, y, Rgba([250, 250, 250, 255]));
            }
        }
        draw_grid(&mut img, 10, 100);
        assert!(!lines_run_on(
            &Screen::new(&img),
            &Grid::from_rect(Rect::new(10, 100, 270, 270))
        ));
    }
}
