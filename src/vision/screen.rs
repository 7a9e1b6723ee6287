//! A screenshot's brightness and colours as every stage reads them: one formula for the
//! brightness of a pixel (integer weights 77, 150, 29 of 256, Rec. 601), and the distance
//! between two colours.

use crate::geometry::Point;
use image::RgbaImage;

/// Two frames alike in the square of side `side` around `at`: no colour channel moved by more
/// than a few levels. A digit fading or popping in changes by tens of levels between frames,
/// so callers wait for this before they read what a tap did.
pub fn still_around(a: &RgbaImage, b: &RgbaImage, at: Point, side: u32) -> bool {
    const STILL: u8 = 6;
    let half = side / 2;
    let (x0, y0) = (at.x.saturating_sub(half), at.y.saturating_sub(half));
    let x1 = (at.x + half).min(a.width().min(b.width()));
    let y1 = (at.y + half).min(a.height().min(b.height()));
    (y0..y1).all(|y| {
        (x0..x1).all(|x| {
            let (p, q) = (a.get_pixel(x, y).0, b.get_pixel(x, y).0);
            (0..3).all(|k| p[k].abs_diff(q[k]) <= STILL)
        })
    })
}

/// The brightness of a rectangle of `img` as a row-major buffer (`width * height` bytes).
pub(crate) fn luma_region(img: &RgbaImage, x0: u32, y0: u32, w: u32, h: u32) -> Vec<u8> {
    let raw = img.as_raw();
    let stride = img.width() as usize * 4;
    let w = w as usize;
    let mut out = vec![0u8; w * h as usize];
    if w == 0 {
        return out;
    }
    for (y, dst) in (y0 as usize..).zip(out.chunks_exact_mut(w)) {
        let start = y * stride + x0 as usize * 4;
        luma_row(&raw[start..start + w * 4], dst);
    }
    out
}

/// The brightness of each RGBA pixel of `rgba` into `out` (one byte per pixel). Written into a
/// slice of known length rather than collected, so that the compiler vectorises it: every
/// stage's brightness plane goes through here.
#[inline]
pub(crate) fn luma_row(rgba: &[u8], out: &mut [u8]) {
    // Each pixel as one little-endian word, its channels taken out by shifts: this
    // vectorises better than four byte loads per pixel.
    for (o, p) in out.iter_mut().zip(rgba.chunks_exact(4)) {
        let v = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
        let (r, g, b) = (v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff);
        *o = ((r * 77 + g * 150 + b * 29) >> 8) as u8;
    }
}

/// Euclidean distance between two RGB colours.
pub fn colour_distance(a: [u8; 3], b: [u8; 3]) -> f64 {
    a.iter()
        .zip(&b)
        .map(|(&x, &y)| (x as f64 - y as f64).powi(2))
        .sum::<f64>()
        .sqrt()
}
