//! Grids that the line search cannot see as drawn: no lines at all, only cells of different
//! shades side by side (a checkerboard of tones, givens on grey). Where two shades meet there
//! is a step in brightness; drawn as a dark ridge in an "edge picture", every such boundary
//! becomes a line the usual search ([`super::locate`]) finds. Used only after the line search
//! failed, and a grid found this way is trusted only when its cells look like a sudoku.

use super::locate::{Grid, locate_grid};
use super::screen::Screen;
use crate::geometry::Rect;
use image::RgbaImage;

/// How much a brightness step darkens the edge picture: a step of 5 grey levels (the faintest
/// shading apps use to tell cells apart) passes the line search's contrast of 12.
const GAIN: u16 = 3;

/// The brightness steps of `img` inside `region` as dark ridges on white (white elsewhere): each
/// pixel is darkened by the larger of its brightness differences across it, left to right and
/// top to bottom. A step between two flat shades becomes a ridge two pixels wide.
pub fn shading_edges(img: &Screen, region: Rect) -> RgbaImage {
    let (iw, ih) = img.dimensions();
    let mut out = RgbaImage::from_pixel(iw, ih, image::Rgba([255, 255, 255, 255]));
    let x1 = region.right().min(iw);
    let y1 = region.bottom().min(ih);
    if x1 < region.x + 3 || y1 < region.y + 3 {
        return out;
    }
    let (w, h) = ((x1 - region.x) as usize, (y1 - region.y) as usize);
    let lum = img.luma_region(region.x, region.y, w as u32, h as u32);
    let stride = iw as usize * 4;
    let buf: &mut [u8] = &mut out;
    for y in 1..h - 1 {
        let row = &lum[y * w..(y + 1) * w];
        let up = &lum[(y - 1) * w..y * w];
        let dn = &lum[(y + 1) * w..(y + 2) * w];
        let base = (region.y as usize + y) * stride + region.x as usize * 4;
        for x in 1..w - 1 {
            let gx = row[x + 1].abs_diff(row[x - 1]);
            let gy = dn[x].abs_diff(up[x]);
            let v = 255u16.saturating_sub(gx.max(gy) as u16 * GAIN) as u8;
            let i = base + x * 4;
            buf[i..i + 3].fill(v);
        }
    }
    out
}

/// The grid anywhere on `img`, found from shading boundaries (its cells are for the caller to
/// check).
pub fn locate_shaded(img: &Screen) -> Option<Grid> {
    // Big screens are searched at half size, as the line search does.
    let short = img.width().min(img.height());
    let small = (short >= 1000).then(|| img.half());
    let search = small.unwrap_or(img);
    let (w, h) = search.dimensions();
    let edges = shading_edges(search, Rect::new(0, 0, w, h));
    let grid = locate_grid(&edges).ok()?;
    Some(match small {
        Some(_) => grid.scaled_up(2.0, img.dimensions()),
        None => grid,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_between_two_shades_becomes_a_dark_ridge_and_flat_areas_stay_white() {
        let mut img = RgbaImage::from_pixel(40, 20, image::Rgba([240, 240, 240, 255]));
        for y in 0..20 {
            for x in 20..40 {
                img.put_pixel(x, y, image::Rgba([228, 228, 228, 255]));
            }
        }
        let e = shading_edges(&Screen::new(&img), Rect::new(0, 0, 40, 20));
        assert_eq!(e.get_pixel(10, 10)[0], 255);
        assert_eq!(e.get_pixel(30, 10)[0], 255);
        assert!(e.get_pixel(19, 10)[0] <= 255 - 12 * GAIN as u8 + 1);
        assert!(e.get_pixel(20, 10)[0] <= 255 - 12 * GAIN as u8 + 1);
        // Outside the region nothing is drawn.
        let part = shading_edges(&Screen::new(&img), Rect::new(0, 0, 10, 20));
        assert_eq!(part.get_pixel(19, 10)[0], 255);
    }
}
