//! A screenshot's brightness and colours as every stage reads them: one formula for the
//! brightness of a pixel (integer weights 77, 150, 29 of 256, Rec. 601), the [`Screen`] that
//! makes a screenshot's brightness plane once (and a half-size screen, made lazily) for every
//! stage of one read, and the distance between two colours.

use crate::geometry::{Point, Rect};
use image::RgbaImage;
use std::borrow::Cow;
use std::cell::OnceCell;
use std::ops::Deref;

/// A screenshot with its brightness plane, shared by every stage of a read (locating lines,
/// cutting cells, the keypad, the overrun check) so that each pixel is converted once. The
/// plane is made a row at a time, when a stage first wants the row: a calibrated read that
/// looks only at the grid converts only the grid's rows. Derefs to the RGBA image for the
/// stages that want colour.
pub struct Screen<'a> {
    img: Cow<'a, RgbaImage>,
    rows: Vec<OnceCell<Box<[u8]>>>,
    half: OnceCell<Box<Screen<'static>>>,
}

impl<'a> Screen<'a> {
    pub fn new(img: &'a RgbaImage) -> Screen<'a> {
        Screen::of(Cow::Borrowed(img))
    }

    fn of(img: Cow<'a, RgbaImage>) -> Screen<'a> {
        Screen {
            rows: (0..img.height()).map(|_| OnceCell::new()).collect(),
            img,
            half: OnceCell::new(),
        }
    }

    /// The brightness of each pixel of row `y` (converted on the first call for that row).
    #[inline]
    pub fn row(&self, y: u32) -> &[u8] {
        self.rows[y as usize].get_or_init(|| {
            let w = self.img.width() as usize;
            let start = y as usize * w * 4;
            let mut out = vec![0u8; w];
            luma_row(&self.img.as_raw()[start..start + w * 4], &mut out);
            out.into_boxed_slice()
        })
    }

    /// The brightness of a rectangle, row-major (`width * height` bytes), from the plane.
    pub fn luma_region(&self, x0: u32, y0: u32, w: u32, h: u32) -> Vec<u8> {
        let (x0, w) = (x0 as usize, w as usize);
        let mut out = Vec::with_capacity(w * h as usize);
        for y in y0..y0 + h {
            out.extend_from_slice(&self.row(y)[x0..x0 + w]);
        }
        out
    }

    /// This screen at half size in each direction (each pixel the mean of a 2x2 block), with
    /// its own brightness plane: made once, on the first call.
    pub fn half(&self) -> &Screen<'static> {
        self.half
            .get_or_init(|| Box::new(Screen::of(Cow::Owned(half_size(&self.img)))))
    }
}

impl Deref for Screen<'_> {
    type Target = RgbaImage;
    fn deref(&self) -> &RgbaImage {
        &self.img
    }
}

/// `img` at half size in each direction, each pixel the mean of a 2x2 block (rounded half up).
pub(crate) fn half_size(img: &RgbaImage) -> RgbaImage {
    let (w, h) = (img.width() / 2, img.height() / 2);
    let raw = img.as_raw();
    let stride = img.width() as usize * 4;
    // Grown a row at a time, each row zeroed just before it is written (one pass over the
    // memory, where zeroing the whole image first was a second).
    let row_len = w as usize * 4;
    let mut out = Vec::with_capacity(row_len * h as usize);
    for y in 0..h as usize {
        out.resize((y + 1) * row_len, 0);
        let dst = &mut out[y * row_len..];
        let top = &raw[2 * y * stride..2 * y * stride + w as usize * 8];
        let bottom = &raw[(2 * y + 1) * stride..(2 * y + 1) * stride + w as usize * 8];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of every x86_64 CPU.
        let done = unsafe { half_row_sse2(top, bottom, dst) };
        #[cfg(not(target_arch = "x86_64"))]
        let done = 0;
        for (i, d) in dst.iter_mut().enumerate().skip(done * 4) {
            let (x, k) = (i / 4 * 8, i % 4);
            let sum = top[x + k] as u16 + top[x + 4 + k] as u16;
            let sum = sum + bottom[x + k] as u16 + bottom[x + 4 + k] as u16;
            *d = ((sum + 2) / 4) as u8;
        }
    }
    RgbaImage::from_raw(w, h, out).expect("buffer sized to the image")
}

/// One row of [`half_size`] for whole runs of four output pixels (from two rows of eight
/// input pixels); returns how many output pixels it made. Channels widened to 16 bits, the
/// two rows added, then each pixel's pair: the scalar sums, rounded and shifted the same way.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn half_row_sse2(top: &[u8], bottom: &[u8], dst: &mut [u8]) -> usize {
    use std::arch::x86_64::*;
    let zero = _mm_setzero_si128();
    let two = _mm_set1_epi16(2);
    let load = |bytes: &[u8]| {
        let q: &[u8; 16] = bytes.try_into().expect("16 bytes");
        // SAFETY: `q` is 16 readable bytes, which an unaligned load reads exactly.
        unsafe { _mm_loadu_si128(q.as_ptr().cast()) }
    };
    let mut done = 0;
    let blocks = top.chunks_exact(32).zip(bottom.chunks_exact(32));
    for (d, (t, b)) in dst.chunks_exact_mut(16).zip(blocks) {
        // Two output pixels (8 channel sums, rounded) from 16 bytes of each row.
        let two_pixels = |t: &[u8], b: &[u8]| {
            let (t, b) = (load(t), load(b));
            let lo = _mm_add_epi16(_mm_unpacklo_epi8(t, zero), _mm_unpacklo_epi8(b, zero));
            let hi = _mm_add_epi16(_mm_unpackhi_epi8(t, zero), _mm_unpackhi_epi8(b, zero));
            let sums = _mm_add_epi16(_mm_unpacklo_epi64(lo, hi), _mm_unpackhi_epi64(lo, hi));
            _mm_srli_epi16(_mm_add_epi16(sums, two), 2)
        };
        let bytes = _mm_packus_epi16(
            two_pixels(&t[..16], &b[..16]),
            two_pixels(&t[16..], &b[16..]),
        );
        let d: &mut [u8; 16] = d.try_into().expect("16 bytes");
        // SAFETY: `d` is 16 writable bytes, which an unaligned store writes exactly.
        unsafe { _mm_storeu_si128(d.as_mut_ptr().cast(), bytes) };
        done += 4;
    }
    done
}

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

/// The brightness along the boundaries between the cells of a grid on one frame (its lines, or
/// the gaps between tiles), kept instead of the frame: what a later frame's dimming is measured
/// against ([`Boundaries::ratio`]). Digits, notes and most highlights lie inside cells, so
/// between two frames of the same board the ratio stays near 1; a scrim (a dialog's or a
/// flashing overlay's dimming) moves it by a third or more.
#[derive(Debug, Clone, PartialEq)]
pub struct Boundaries {
    grid: Rect,
    size: (u32, u32),
    /// Per screen row from the grid's top: the summed brightness at the ten vertical
    /// boundaries (empty when the grid lies off the frame).
    columns: Vec<u64>,
    /// Per horizontal boundary on the frame: its screen row, its summed brightness along the
    /// grid (every second pixel) and how many pixels that is.
    lines: Vec<(u32, u64, u64)>,
}

impl Boundaries {
    /// The boundaries of `grid` on `img`.
    pub fn of(img: &RgbaImage, grid: Rect) -> Boundaries {
        let (w, h) = img.dimensions();
        let x1 = (grid.x + grid.width).min(w);
        let y1 = (grid.y + grid.height).min(h);
        let at = |x: u32, y: u32| {
            let p = img.get_pixel(x, y).0;
            luma(p[0], p[1], p[2]) as u64
        };
        let (mut columns, mut lines) = (Vec::new(), Vec::new());
        if grid.x < x1 {
            let xs: Vec<u32> = (0..=9)
                .map(|i| (grid.x + i * grid.width / 9).min(x1 - 1))
                .collect();
            columns = (grid.y..y1)
                .map(|y| xs.iter().map(|&x| at(x, y)).sum())
                .collect();
            lines = (0..=9)
                .map(|i| grid.y + i * grid.height / 9)
                .filter(|&y| y < y1)
                .map(|y| {
                    let xs = (grid.x..x1).step_by(2);
                    (y, xs.clone().map(|x| at(x, y)).sum(), xs.count() as u64)
                })
                .collect();
        }
        Boundaries {
            grid,
            size: (w, h),
            columns,
            lines,
        }
    }

    /// How much brighter `later` (the same grid on a later frame of the same size) is than these
    /// boundaries within the screen rows `rows`: the ratio of their mean brightness, each lifted
    /// by 8 levels so that a near-black board does not swing it. `None` when `rows` miss the
    /// grid, or the frames differ in grid or size.
    pub fn ratio(&self, later: &Boundaries, rows: std::ops::Range<u32>) -> Option<f32> {
        if later.grid != self.grid || later.size != self.size || self.columns.is_empty() {
            return None;
        }
        let top = self.grid.y;
        let y0 = rows.start.max(top);
        let y1 = rows.end.min(top + self.columns.len() as u32);
        if y0 >= y1 {
            return None;
        }
        let (mut sum_a, mut sum_b, mut n) = (0u64, 0u64, 0u64);
        for y in (y0..y1).step_by(2) {
            let i = (y - top) as usize;
            sum_a += self.columns[i];
            sum_b += later.columns[i];
            n += 10;
        }
        for (a, b) in self.lines.iter().zip(&later.lines) {
            if (y0..y1).contains(&a.0) {
                sum_a += a.1;
                sum_b += b.1;
                n += a.2;
            }
        }
        let mean = |sum: u64| sum as f32 / n as f32 + 8.0;
        Some(mean(sum_b) / mean(sum_a))
    }
}

/// The brightness of each RGBA pixel of `rgba` into `out` (one byte per pixel): the one
/// conversion, which [`Screen`] makes once per row of a screenshot. Sixteen pixels at a time
/// with SSE2 on x86_64 (the compiler gathers the channels byte by byte otherwise, about nine
/// instructions a pixel against four), the rest one by one: the same bytes either way.
#[inline]
fn luma_row(rgba: &[u8], out: &mut [u8]) {
    let n = out.len().min(rgba.len() / 4);
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of every x86_64 CPU.
    let done = unsafe { luma_row_sse2(&rgba[..n * 4], &mut out[..n]) };
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    for (o, p) in out[done..n]
        .iter_mut()
        .zip(rgba[done * 4..].chunks_exact(4))
    {
        *o = luma(p[0], p[1], p[2]);
    }
}

/// The brightness of one pixel: the formula every stage uses (Rec. 601 weights of 256). Sums
/// in 16 bits: the weights add up to 256, so 255 * 256 fits.
#[inline]
fn luma(r: u8, g: u8, b: u8) -> u8 {
    ((r as u16 * 77 + g as u16 * 150 + b as u16 * 29) >> 8) as u8
}

/// [`luma_row`] for whole runs of 16 pixels; returns how many pixels it converted. Each pixel's
/// channels widened to 16 bits are multiplied by the weights and summed in pairs (`pmaddwd`),
/// the pairs added, shifted and packed back to bytes: exactly the scalar formula.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn luma_row_sse2(rgba: &[u8], out: &mut [u8]) -> usize {
    use std::arch::x86_64::*;
    let weights = _mm_set_epi16(0, 29, 150, 77, 0, 29, 150, 77);
    let zero = _mm_setzero_si128();
    let mut done = 0;
    for (o, p) in out.chunks_exact_mut(16).zip(rgba.chunks_exact(64)) {
        // The brightness of pixels 4k..4k + 4 as four 32-bit lanes.
        let four = |k: usize| {
            let q: &[u8; 16] = p[16 * k..16 * k + 16].try_into().expect("16 bytes");
            // SAFETY: `q` is 16 readable bytes, which an unaligned load reads exactly.
            let a = unsafe { _mm_loadu_si128(q.as_ptr().cast()) };
            // [r*77 + g*150, b*29] per pixel; the pair's sum lands in the pixel's even lane.
            let sums = |v: __m128i| {
                let m = _mm_madd_epi16(v, weights);
                _mm_add_epi32(m, _mm_srli_epi64(m, 32))
            };
            let (lo, hi) = (
                sums(_mm_unpacklo_epi8(a, zero)),
                sums(_mm_unpackhi_epi8(a, zero)),
            );
            let even = _mm_shuffle_ps(_mm_castsi128_ps(lo), _mm_castsi128_ps(hi), 0b10_00_10_00);
            _mm_srli_epi32(_mm_castps_si128(even), 8)
        };
        let bytes = _mm_packus_epi16(
            _mm_packs_epi32(four(0), four(1)),
            _mm_packs_epi32(four(2), four(3)),
        );
        let o: &mut [u8; 16] = o.try_into().expect("16 bytes");
        // SAFETY: `o` is 16 writable bytes, which an unaligned store writes exactly.
        unsafe { _mm_storeu_si128(o.as_mut_ptr().cast(), bytes) };
        done += 16;
    }
    done
}

/// Euclidean distance between two RGB colours.
pub fn colour_distance(a: [u8; 3], b: [u8; 3]) -> f64 {
    a.iter()
        .zip(&b)
        .map(|(&x, &y)| (x as f64 - y as f64).powi(2))
        .sum::<f64>()
        .sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    /// A 9x9 board of 10 px cells at (5, 5) on a 100x100 screen: grey lines on a light ground.
    fn board() -> RgbaImage {
        RgbaImage::from_fn(100, 100, |x, y| {
            let on_line = |v: u32| (5..=95).contains(&v) && (v - 5).is_multiple_of(10);
            if on_line(x) || on_line(y) {
                Rgba([90, 90, 90, 255])
            } else {
                Rgba([240, 240, 240, 255])
            }
        })
    }

    #[test]
    fn a_row_converts_as_the_formula_says_pixel_by_pixel() {
        // 37 pixels: two runs of 16 and a tail, every channel value and weight exercised.
        let rgba: Vec<u8> = (0..37 * 4).map(|i| (i * 97 % 256) as u8).collect();
        let mut out = vec![0u8; 37];
        luma_row(&rgba, &mut out);
        for (o, p) in out.iter().zip(rgba.chunks_exact(4)) {
            let (r, g, b) = (p[0] as u32, p[1] as u32, p[2] as u32);
            assert_eq!(*o as u32, (r * 77 + g * 150 + b * 29) >> 8);
        }
        let white = [255u8; 16 * 4];
        let mut out = [0u8; 16];
        luma_row(&white, &mut out);
        assert_eq!(out, [255; 16]);
    }

    #[test]
    fn half_size_takes_each_2x2_blocks_mean_rounded_half_up() {
        // 19x5: runs of four output pixels, a tail, and an odd last row and column left out.
        let img = RgbaImage::from_fn(19, 5, |x, y| {
            let v = |k: u32| ((x * 53 + y * 97 + k * 31) * 89 % 256) as u8;
            image::Rgba([v(0), v(1), v(2), v(3)])
        });
        let half = half_size(&img);
        assert_eq!(half.dimensions(), (9, 2));
        for (x, y, p) in half.enumerate_pixels() {
            for k in 0..4 {
                let at = |dx: u32, dy: u32| img.get_pixel(2 * x + dx, 2 * y + dy).0[k] as u32;
                let sum = at(0, 0) + at(1, 0) + at(0, 1) + at(1, 1);
                assert_eq!(p.0[k] as u32, (sum + 2) / 4, "({x}, {y}) channel {k}");
            }
        }
    }

    fn ratio(a: &RgbaImage, b: &RgbaImage, grid: Rect, rows: std::ops::Range<u32>) -> Option<f32> {
        Boundaries::of(a, grid).ratio(&Boundaries::of(b, grid), rows)
    }

    #[test]
    fn ink_inside_cells_leaves_the_boundary_brightness_as_it_was() {
        let a = board();
        let mut b = a.clone();
        for (x, y) in (27..33).flat_map(|x| (47..53).map(move |y| (x, y))) {
            b.put_pixel(x, y, Rgba([0, 0, 0, 255]));
        }
        let ratio = ratio(&a, &b, Rect::new(5, 5, 90, 90), 0..100).unwrap();
        assert!((ratio - 1.0).abs() < 1e-6, "{ratio}");
    }

    #[test]
    fn a_scrim_over_the_rows_looked_at_shows_in_the_boundary_brightness() {
        let a = board();
        let mut b = a.clone();
        for y in 40..60 {
            for x in 0..100 {
                let p = b.get_pixel_mut(x, y);
                for v in &mut p.0[..3] {
                    *v = (*v as u16 * 141 / 256) as u8;
                }
            }
        }
        let grid = Rect::new(5, 5, 90, 90);
        let dimmed = ratio(&a, &b, grid, 40..60).unwrap();
        assert!((0.5..0.65).contains(&dimmed), "{dimmed}");
        // Rows the scrim missed, and rows off the grid, say nothing of it.
        assert_eq!(ratio(&a, &b, grid, 0..40), Some(1.0));
        assert_eq!(ratio(&a, &b, grid, 96..100), None);
    }
}
