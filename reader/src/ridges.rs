//! Ridge maps of a screen region, what the grid search reads: per pixel, whether it lies on a
//! thin line darker or brighter than the pixels a few steps to either side, horizontally and
//! vertically; per row and column, how many such pixels run far along it; and how much of one
//! line is present between two points ([`coverage`]).

use super::screen::Screen;
use crate::geometry::Rect;

pub(super) const H_DARK: u8 = 1;
pub(super) const H_BRIGHT: u8 = 2;
pub(super) const V_DARK: u8 = 4;
pub(super) const V_BRIGHT: u8 = 8;
/// A step in brightness across the pixel (the two sides `d` away differ clearly): where two
/// shades of cells or tiles meet with no line drawn between them.
pub(super) const H_STEP: u8 = 16;
pub(super) const V_STEP: u8 = 32;

/// Profile index of lines of either polarity ([`Ridges::add_either`]): some apps draw a grid
/// whose lines are lighter than the cells in one place and darker in another (grey tiles on a
/// black page, box lines lighter grey), so neither polarity alone sees all ten lines.
pub(super) const EITHER: usize = 2;
/// Profile index of lines of either polarity or steps between shades ([`Ridges::add`]): a
/// board of tiles whose boxes differ in shade, where a box's edge is a step, not a line.
pub(super) const STEPS: usize = 3;

/// The (horizontal, vertical) ridge bits of a profile index: 0 dark, 1 bright, [`EITHER`]
/// both, [`STEPS`] both or a step.
pub(super) fn bits_of(polarity: usize) -> (u8, u8) {
    match polarity {
        0 => (H_DARK, V_DARK),
        1 => (H_BRIGHT, V_BRIGHT),
        EITHER => (H_DARK | H_BRIGHT, V_DARK | V_BRIGHT),
        _ => (H_DARK | H_BRIGHT | H_STEP, V_DARK | V_BRIGHT | V_STEP),
    }
}

/// Ridge masks of one screen region plus run-length profiles.
pub(super) struct Ridges {
    pub(super) x0: u32,
    pub(super) y0: u32,
    pub(super) w: usize,
    pub(super) h: usize,
    /// Pixels within `d` of the region edge cannot be tested.
    pub(super) d: usize,
    pub(super) bits: Vec<u8>,
    /// Per row: pixels in long horizontal runs, [dark, bright, either, steps] (the last two
    /// empty until [`Ridges::add`]).
    pub(super) rows: [Vec<f32>; 4],
    /// Per column: pixels in long vertical runs, [dark, bright, either, steps].
    pub(super) cols: [Vec<f32>; 4],
    min_run: usize,
}

impl Ridges {
    /// Fills the profiles of `polarity` ([`EITHER`] or [`STEPS`]): runs of pixels with any of
    /// its bits. Only searches that found nothing with fewer bits pay for it.
    pub(super) fn add(&mut self, polarity: usize) {
        if !self.rows[polarity].is_empty() {
            return;
        }
        let (w, h, min_run) = (self.w, self.h, self.min_run);
        let (hb, vb) = bits_of(polarity);
        let mut rows = vec![0f32; h];
        let mut cols = vec![0f32; w];
        let mut col_run = vec![0usize; w];
        for (y, row) in self.bits.chunks_exact(w).enumerate() {
            add_runs(
                row,
                (hb, vb),
                min_run,
                &mut rows[y],
                &mut cols,
                &mut col_run,
            );
        }
        end_runs(&mut cols, &col_run, min_run);
        self.rows[polarity] = rows;
        self.cols[polarity] = cols;
    }
}

pub(super) fn ridges(
    img: &Screen,
    region: Rect,
    d: usize,
    contrast: i16,
    min_run: usize,
) -> Ridges {
    let (w, h) = (region.width as usize, region.height as usize);
    let lum = img.luma_region(region.x, region.y, region.width, region.height);
    let mut bits = vec![0u8; w * h];
    let mut rows = [vec![0f32; h], vec![0f32; h], Vec::new(), Vec::new()];
    let mut cols = [vec![0f32; w], vec![0f32; w], Vec::new(), Vec::new()];
    let mut col_run = [vec![0usize; w], vec![0usize; w]];
    for y in 0..h {
        if y >= d && y + d < h && w > 2 * d {
            let row = &lum[y * w..(y + 1) * w];
            let up = &lum[(y - d) * w..(y - d + 1) * w];
            let dn = &lum[(y + d) * w..(y + d + 1) * w];
            let out = &mut bits[y * w..(y + 1) * w];
            for x in d..w - d {
                let v = row[x] as i16;
                let (u, n) = (up[x] as i16, dn[x] as i16);
                let (l, r) = (row[x - d] as i16, row[x + d] as i16);
                let mut b = 0u8;
                if u.min(n) - v > contrast {
                    b |= H_DARK;
                }
                if v - u.max(n) > contrast {
                    b |= H_BRIGHT;
                }
                if l.min(r) - v > contrast {
                    b |= V_DARK;
                }
                if v - l.max(r) > contrast {
                    b |= V_BRIGHT;
                }
                if (u - n).abs() > contrast {
                    b |= H_STEP;
                }
                if (l - r).abs() > contrast {
                    b |= V_STEP;
                }
                out[x] = b;
            }
        }
        let out = &bits[y * w..(y + 1) * w];
        for p in 0..2 {
            let (rows, cols, runs) = (&mut rows[p], &mut cols[p], &mut col_run[p]);
            add_runs(out, bits_of(p), min_run, &mut rows[y], cols, runs);
        }
    }
    for p in 0..2 {
        end_runs(&mut cols[p], &col_run[p], min_run);
    }
    Ridges {
        x0: region.x,
        y0: region.y,
        w,
        h,
        d,
        bits,
        rows,
        cols,
        min_run,
    }
}

/// Adds one row of ridge bits to the run-length profiles: to `row_total` its runs of `hb` at
/// least `min_run` long; to `cols` the runs of `vb` this row ends (`col_run`: each column's
/// run so far, carried from row to row).
#[inline]
fn add_runs(
    row: &[u8],
    (hb, vb): (u8, u8),
    min_run: usize,
    row_total: &mut f32,
    cols: &mut [f32],
    col_run: &mut [usize],
) {
    let mut run = 0usize;
    for (x, &b) in row.iter().enumerate() {
        if b & hb != 0 {
            run += 1;
        } else {
            if run >= min_run {
                *row_total += run as f32;
            }
            run = 0;
        }
        if b & vb != 0 {
            col_run[x] += 1;
        } else {
            if col_run[x] >= min_run {
                cols[x] += col_run[x] as f32;
            }
            col_run[x] = 0;
        }
    }
    if run >= min_run {
        *row_total += run as f32;
    }
}

/// Adds to `cols` the runs still open after the last row.
fn end_runs(cols: &mut [f32], col_run: &[usize], min_run: usize) {
    for (c, &run) in cols.iter_mut().zip(col_run) {
        if run >= min_run {
            *c += run as f32;
        }
    }
}

/// Fraction of a line that is present between `from` and `to` along it, looking `r` pixels either
/// side of `at` across it. Lines in the untestable edge strip count as present.
pub(super) fn coverage(
    rd: &Ridges,
    horizontal: bool,
    at: f32,
    from: f32,
    to: f32,
    bit: u8,
    r: usize,
) -> f32 {
    let (along_len, across_len) = if horizontal {
        (rd.w, rd.h)
    } else {
        (rd.h, rd.w)
    };
    let c = at.round() as i64;
    let edge = (rd.d + r) as i64;
    if c < edge || c >= across_len as i64 - edge {
        return 1.0;
    }
    let a0 = from.round().max(0.0) as usize;
    let a1 = (to.round().max(0.0) as usize).min(along_len);
    if a1 <= a0 {
        return 0.0;
    }
    let mut hit = 0usize;
    for a in a0..a1 {
        let found = (c - r as i64..=c + r as i64).any(|k| {
            let k = k as usize;
            let idx = if horizontal {
                k * rd.w + a
            } else {
                a * rd.w + k
            };
            rd.bits[idx] & bit != 0
        });
        if found {
            hit += 1;
        }
    }
    hit as f32 / (a1 - a0) as f32
}
