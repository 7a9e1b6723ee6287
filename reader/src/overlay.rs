//! Pictures for people: what calibration found (grid, cells, keypad, erase) and what a read
//! recognised, drawn over the screenshot so a glance tells whether to trust it.

use super::kinds::DigitKind;
use super::locate::Grid;
use super::reader::Seen;
use super::recognize::{CellKind, ReadError, Recognition};
use super::scan::ScreenCells;
use crate::board::Cell;
use crate::geometry::Point;
use ab_glyph::FontRef;
use image::{Rgba, RgbaImage};
use imageproc::drawing::{
    draw_cross_mut, draw_hollow_rect_mut, draw_line_segment_mut, draw_text_mut,
};
use imageproc::rect::Rect as DrawRect;

const GRID: Rgba<u8> = Rgba([0, 200, 0, 255]);
const KEY: Rgba<u8> = Rgba([30, 90, 255, 255]);
const GIVEN: Rgba<u8> = Rgba([230, 0, 0, 255]);
const ENTRY: Rgba<u8> = Rgba([255, 0, 200, 255]);
const UNKNOWN: Rgba<u8> = Rgba([255, 140, 0, 255]);
const REFUSED: Rgba<u8> = Rgba([255, 0, 0, 255]);

fn font() -> FontRef<'static> {
    FontRef::try_from_slice(include_bytes!("../../assets/fonts/Roboto-Medium.ttf"))
        .expect("the embedded Roboto font parses")
}

fn thick_rect(img: &mut RgbaImage, x: i32, y: i32, w: u32, h: u32, colour: Rgba<u8>, t: i32) {
    for k in 0..t {
        let (ww, hh) = (w as i32 - 2 * k, h as i32 - 2 * k);
        if ww > 0 && hh > 0 {
            draw_hollow_rect_mut(
                img,
                DrawRect::at(x + k, y + k).of_size(ww as u32, hh as u32),
                colour,
            );
        }
    }
}

fn draw_grid(img: &mut RgbaImage, grid: &Grid) {
    let t = (grid.pitch() / 40.0).ceil().max(1.0) as i32;
    for i in 0..10 {
        for k in -t / 2..=t / 2 {
            let (x, y) = (grid.xs[i] + k as f32, grid.ys[i] + k as f32);
            draw_line_segment_mut(img, (x, grid.ys[0]), (x, grid.ys[9]), GRID);
            draw_line_segment_mut(img, (grid.xs[0], y), (grid.xs[9], y), GRID);
        }
    }
}

/// Calibration overlay: grid lines, keypad glyph boxes labelled 1..9, erase and notes buttons.
pub fn draw_calibration(
    screen: &RgbaImage,
    grid: &Grid,
    keys: Option<&[(Point, crate::geometry::Rect); 9]>,
    erase: Option<Point>,
    notes: Option<Point>,
) -> RgbaImage {
    let mut img = screen.clone();
    draw_grid(&mut img, grid);
    let font = font();
    let size = (grid.pitch() * 0.35).max(10.0);
    if let Some(keys) = keys {
        for (d, (centre, b)) in keys.iter().enumerate() {
            thick_rect(
                &mut img,
                b.x as i32 - 3,
                b.y as i32 - 3,
                b.width + 6,
                b.height + 6,
                KEY,
                3,
            );
            draw_cross_mut(&mut img, KEY, centre.x as i32, centre.y as i32);
            let label = format!("{}", d + 1);
            draw_text_mut(
                &mut img,
                KEY,
                b.right() as i32 + 4,
                b.y as i32 - 4,
                size,
                &font,
                &label,
            );
        }
    }
    for (p, name) in [(erase, "erase"), (notes, "notes")] {
        if let Some(p) = p {
            let r = (size * 0.6) as i32;
            thick_rect(
                &mut img,
                p.x as i32 - r,
                p.y as i32 - r,
                2 * r as u32,
                2 * r as u32,
                KEY,
                3,
            );
            draw_text_mut(
                &mut img,
                KEY,
                p.x as i32 + r + 4,
                p.y as i32 - r,
                size,
                &font,
                name,
            );
        }
    }
    img
}

/// Read overlay: grid lines and, in each cell's corner, the digit read (red given, magenta
/// entry) or `n` for notes.
pub fn draw_reading(screen: &RgbaImage, rec: &Recognition) -> RgbaImage {
    let mut img = screen.clone();
    draw_grid(&mut img, &rec.grid);
    let font = font();
    let size = (rec.grid.pitch() * 0.32).max(9.0);
    for (cell, r) in Cell::all().zip(&rec.readings) {
        let c = rec.grid.cell_rect(cell);
        let (x, y) = (c.x as i32 + 3, c.y as i32 + 1);
        match (r.digit, r.kind) {
            (Some(d), kind) => {
                let colour = if kind == CellKind::Entry {
                    ENTRY
                } else {
                    GIVEN
                };
                draw_text_mut(&mut img, colour, x, y, size, &font, &d.to_string());
            }
            (None, _) if r.notes => draw_text_mut(&mut img, KEY, x, y, size, &font, "n"),
            _ => {}
        }
    }
    img
}

/// What the grid finder and cell classifier saw, before any digit is labelled: the grid, a box
/// around each big digit (red given, magenta entry, orange highlighted or unknown, blue when the
/// screen draws givens and entries alike), `n` for pencil notes, and a cross over each cell in
/// `refused` (index row by row) so a user sees which cells stopped the read. `labels` (row by
/// row, optional) writes the digit read in the cell's corner.
pub fn draw_cells(
    screen: &RgbaImage,
    cells: &ScreenCells,
    labels: Option<&[Option<u8>]>,
    refused: &[usize],
) -> RgbaImage {
    let mut img = screen.clone();
    draw_grid(&mut img, &cells.grid);
    let font = font();
    let size = (cells.grid.pitch() * 0.32).max(9.0);
    let t = (cells.grid.pitch() / 40.0).ceil().max(1.0) as i32;
    for (i, (cell, ink)) in Cell::all().zip(&cells.cells).enumerate() {
        let c = cells.grid.cell_rect(cell);
        let (x, y) = (c.x as i32 + 3, c.y as i32 + 1);
        if let Some(p) = &ink.digit {
            let colour = match cells.split.kind(i) {
                Some(DigitKind::Given) => GIVEN,
                Some(DigitKind::Entry) => ENTRY,
                Some(DigitKind::Unknown) => UNKNOWN,
                None => KEY,
            };
            thick_rect(
                &mut img,
                p.bbox.x as i32 - t,
                p.bbox.y as i32 - t,
                p.bbox.width + 2 * t as u32,
                p.bbox.height + 2 * t as u32,
                colour,
                t,
            );
            if let Some(Some(d)) = labels.and_then(|l| l.get(i)) {
                draw_text_mut(&mut img, colour, x, y, size, &font, &d.to_string());
            }
        } else if ink.notes {
            draw_text_mut(&mut img, KEY, x, y, size, &font, "n");
        }
        if refused.contains(&i) {
            for k in -t..=t {
                let (x0, y0) = (c.x as f32 + k as f32, c.y as f32);
                let (x1, y1) = (c.right() as f32 + k as f32, c.bottom() as f32);
                draw_line_segment_mut(&mut img, (x0, y0), (x1, y1), REFUSED);
                draw_line_segment_mut(&mut img, (x0, y1), (x1, y0), REFUSED);
            }
        }
    }
    img
}

/// The cells a refused read names, row-major index first, with what to write beside the
/// cross: the two best candidates (`4/9`) of an unsure cell, `=5` for a cell in a clash.
pub fn refused_cells(err: &ReadError) -> Vec<(usize, String)> {
    match err {
        ReadError::Unsure(doubts) => doubts
            .iter()
            .map(|d| (d.cell.index(), format!("{}/{}", d.best.0, d.second.0)))
            .collect(),
        ReadError::Conflict(clashes) => clashes
            .iter()
            .flat_map(|(a, b, d)| [(a.index(), format!("={d}")), (b.index(), format!("={d}"))])
            .collect(),
        ReadError::Vision(_) | ReadError::WrongScreen(_) | ReadError::Moved { .. } => Vec::new(),
    }
}

/// Overlay of any read, refused or not: a read board as [`draw_reading`]; a refused one as
/// [`draw_cells`] with each refused cell crossed out and its two best candidates (or its
/// clashing digit) written in red under the cell's top edge; a screen with no grid with the
/// reason written at the top.
pub fn draw_seen(screen: &RgbaImage, seen: &Seen) -> RgbaImage {
    let err = match &seen.result {
        Ok(rec) => return draw_reading(screen, rec),
        Err(e) => e,
    };
    let Some(cells) = &seen.screen else {
        let mut img = screen.clone();
        let size = (screen.width().min(screen.height()) as f32 / 30.0).max(10.0);
        let text = format!("not read: {err}");
        draw_text_mut(&mut img, REFUSED, 4, 4, size, &font(), &text);
        return img;
    };
    let refused = refused_cells(err);
    let indices: Vec<usize> = refused.iter().map(|(i, _)| *i).collect();
    let mut img = draw_cells(screen, cells, None, &indices);
    let font = font();
    let size = (cells.grid.pitch() * 0.3).max(9.0);
    for (i, text) in &refused {
        let Some(cell) = Cell::all().nth(*i) else {
            continue;
        };
        let c = cells.grid.cell_rect(cell);
        let x = c.x as i32 + (c.width as i32 - (size * 0.55 * text.len() as f32) as i32) / 2;
        draw_text_mut(&mut img, REFUSED, x, c.y as i32 + 1, size, &font, text);
    }
    img
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::InkSplit;
    use crate::geometry::Rect;

    #[test]
    fn the_cells_overlay_draws_the_grid_and_crosses_refused_cells() {
        let screen = RgbaImage::from_pixel(200, 200, Rgba([255; 4]));
        let grid = Grid::from_rect(Rect::new(10, 10, 180, 180));
        let cells = ScreenCells {
            grid: grid.clone(),
            cells: vec![Default::default(); 81],
            features: vec![None; 81],
            split: InkSplit::Indistinguishable,
        };
        let out = draw_cells(&screen, &cells, None, &[40]);
        assert_eq!(*out.get_pixel(10, 100), GRID);
        // Cell 40 is r5c5, whose centre lies on both diagonals of its cross.
        let c = grid.cell_rect(Cell::new(4, 4).unwrap()).center();
        assert_eq!(*out.get_pixel(c.x, c.y), REFUSED);
        assert_eq!(*out.get_pixel(25, 25), Rgba([255; 4]));
    }
}
