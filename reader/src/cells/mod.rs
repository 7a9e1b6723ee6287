//! Cutting the 81 cells out of a located grid and cleaning them: the cell is cut a little inside
//! its lines, its background is the median brightness, ink is whatever differs from it clearly,
//! ink touching the cut edge (line remnants, highlight edges) is dropped, and components tall
//! enough to be a big digit are told apart from small pencil notes by height. The big digit is
//! normalised into a fixed-size patch (aspect kept, centred) for template matching (`patch`).
//! How a cell's samples split into ink and background is `segment`; what the digit's ink looks
//! like (for telling givens from entries) is `features`.

mod features;
mod segment;

pub use features::InkFeatures;
use segment::{INK_AMP, notes_in_frame, run_together, segment};

use super::VisionError;
use super::locate::Grid;
use super::patch::{Component, components, ink_span, normalise_span};
use super::screen::Screen;
use crate::board::Cell;
use crate::geometry::Rect;
use image::RgbaImage;

/// A big digit, normalised: ink strength 0..=255 in a `PATCH_W` x `PATCH_H` patch.
#[derive(Debug, Clone, PartialEq)]
pub struct DigitPatch {
    pub pixels: Vec<u8>,
    /// Where the digit's ink is on the screen.
    pub bbox: Rect,
    /// Mean colour of the digit's solid ink.
    pub ink: [u8; 3],
}

/// What one cell holds after cleaning.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CellInk {
    pub digit: Option<DigitPatch>,
    /// Small marks (pencil notes) that are not part of a big digit.
    pub notes: bool,
    /// Short straight dashes inside the cell, as killer-sudoku cage outlines are drawn.
    pub dashes: usize,
}

/// Cleans all 81 cells of `grid`, row by row, at a known big-digit height (`big_min`, a
/// fraction of a cell, as a profile records it; `None` for the usual 30%), keeping each
/// digit's ink features (the calibrated reader tells givens from
/// entries by them, as the screen draws them). Marks at least `big_min` of a cell tall are big
/// digits, looked at finely enough to keep their shape.
pub(crate) fn cut_cells_with_features(
    img: &Screen,
    grid: &Grid,
    big_min: Option<f32>,
) -> (Vec<CellInk>, Vec<Option<InkFeatures>>) {
    let pitch = grid.pitch();
    let usual = ((pitch / 50.0).floor() as u32).max(1);
    let (stride, big_min) = match big_min.filter(|&h| h < BIG_MIN) {
        Some(h) => (((h / 0.7 * pitch / 28.0).floor() as u32).clamp(1, usual), h),
        None => (usual, BIG_MIN),
    };
    Cell::all()
        .map(
            |c| match sample_cell_every(img, grid.cell_rect(c), pitch, stride) {
                Some(sample) => sample.finish(img, big_min),
                None => (CellInk::default(), None),
            },
        )
        .unzip()
}

/// How tall (fraction of a cell) a mark must be to count as a big digit on this screen: the
/// usual 30%, or less when the screen's digits are small (see `cut_cells_adaptive_on`).
pub fn big_digit_height(img: &RgbaImage, grid: &Grid) -> f32 {
    let img = &Screen::new(img);
    let pitch = grid.pitch();
    let samples: Vec<Option<CellSample>> = Cell::all()
        .map(|c| sample_cell(img, grid.cell_rect(c), pitch))
        .collect();
    big_digit_min(&samples)
}

/// The big digit's ink features of one cell-sized rectangle `rect` (at least `big_min` of a
/// cell tall), `None` when it holds none: for looking just outside a lattice.
pub(crate) fn digit_features_in(
    img: &Screen,
    rect: Rect,
    pitch: f32,
    big_min: f32,
) -> Option<InkFeatures> {
    sample_cell(img, rect, pitch)?.finish(img, big_min).1
}

/// Shortest big digit, as a fraction of the cell, when the screen gives no better idea.
pub const BIG_MIN: f32 = 0.3;

/// One cell's ink components, before the screen decides how tall a big digit is.
pub(crate) struct CellSample {
    origin: (u32, u32),
    stride: u32,
    w: usize,
    h: usize,
    /// Ink strength in samples (signed difference from the background, ink positive).
    diff: Vec<f32>,
    amp: i16,
    labels: Vec<u32>,
    comps: Vec<Component>,
    /// Cell size in samples.
    pitch: f32,
    dashes: usize,
    /// The cell between its line centres, where [`CellSample::notes_near_lines`] looks.
    rect: Rect,
}

/// Samples and segments one cell; `None` when it is too small or off the screen.
pub(crate) fn sample_cell(img: &Screen, rect: Rect, pitch: f32) -> Option<CellSample> {
    // Big cells are looked at every `stride` pixels: a digit 50 px tall holds all the detail the
    // 24x32 patch keeps, and reading stays fast at 1440x3200.
    sample_cell_every(img, rect, pitch, ((pitch / 50.0).floor() as u32).max(1))
}

/// [`sample_cell`] looking at every `stride`-th pixel.
fn sample_cell_every(img: &Screen, rect: Rect, pitch: f32, stride: u32) -> Option<CellSample> {
    // The dash band starts just inside the lines; the digit is looked for further in.
    let outer = (pitch * 0.025).round() as u32 + 1;
    let inner = (pitch * 0.07).round() as u32 + 1;
    if rect.width <= 2 * inner + 4 || rect.height <= 2 * inner + 4 {
        return None;
    }
    let (ox, oy) = (rect.x + outer, rect.y + outer);
    let (ow, oh) = (rect.width - 2 * outer, rect.height - 2 * outer);
    if ox + ow > img.width() || oy + oh > img.height() {
        return None;
    }
    let lum = luma_sampled(img, (ox, oy), (ow, oh), stride);
    let (sw, sh) = (ow, oh);
    let (ow, oh) = (ow.div_ceil(stride) as usize, oh.div_ceil(stride) as usize);
    let small_pitch = pitch / stride as f32;
    let dashes = cage_dashes(&lum, ow, oh, small_pitch);
    let lum = hue_when_flat(img, lum, (ox, oy), (sw, sh), stride);
    let k = ((inner - outer) as f32 / stride as f32).round() as usize;
    if ow <= 2 * k + 4 || oh <= 2 * k + 4 {
        return None;
    }
    let cut = |k: usize| {
        let (w, h) = (ow - 2 * k, oh - 2 * k);
        let mut sub = Vec::with_capacity(w * h);
        for y in 0..h {
            sub.extend_from_slice(&lum[(y + k) * ow + k..(y + k) * ow + k + w]);
        }
        let origin = (ox + k as u32 * stride, oy + k as u32 * stride);
        let mut sample = segment(sub, origin, stride, (w, h), small_pitch, dashes);
        sample.rect = rect;
        sample
    };
    let sample = cut(k);
    // A big mark the cut clips (a large or handwritten digit drawn down to the lines) is
    // looked at once more in the wider cut just inside the lines: free-standing there, it is
    // the digit. Lines and highlight edges reach that cut too, and stay clipped.
    if k > 0 && !sample.has_digit_like() && sample.clips_a_big_mark() {
        let wider = cut(0);
        if wider.has_digit_like() {
            return Some(wider);
        }
    }
    Some(sample)
}

/// Cleans all 81 cells, deciding from the whole screen how tall a big digit is: the big digits
/// of one screen share one font size, so the tallest marks found in many cells give it, and a
/// mark well below that height is a pencil note. This reads small digits (down to ~12% of a
/// cell, as in apps that draw digits in discs) that the fixed 30% rule drops, and never makes
/// the rule stricter than that. Returns each cell's ink and, for digit cells, its features.
pub(crate) fn cut_cells_adaptive_on(
    img: &Screen,
    grid: &Grid,
) -> (Vec<CellInk>, Vec<Option<InkFeatures>>) {
    let pitch = grid.pitch();
    // The usual stride (see `sample_cell`), but never coarser than the finest the second look
    // below can ask for (the one for digits BIG_MIN / 0.7 of a cell tall): where that second
    // look is certain (cells 100 to 130 px, most phones), the first one is already made at
    // its resolution instead of twice.
    let usual = ((pitch / 50.0).floor() as u32).max(1);
    let finest = ((BIG_MIN / 0.7 * pitch / 28.0).floor() as u32).max(1);
    let mut samples: Vec<Option<CellSample>> = Cell::all()
        .map(|c| sample_cell_every(img, grid.cell_rect(c), pitch, usual.min(finest)))
        .collect();
    let big_min = big_digit_min(&samples);
    // Small digits (in discs, say) need finer sampling to keep their shape: at least ~28
    // samples from top to bottom.
    let stride = samples
        .iter()
        .flatten()
        .map(|s| s.stride)
        .max()
        .unwrap_or(1);
    let digit_px = big_min / 0.7 * pitch;
    let fine = ((digit_px / 28.0).floor() as u32).max(1);
    if fine < stride {
        // Only cells with ink are worth a second look.
        for (sample, c) in samples.iter_mut().zip(Cell::all()) {
            if sample.as_ref().is_some_and(|s| !s.comps.is_empty()) {
                *sample = sample_cell_every(img, grid.cell_rect(c), pitch, fine);
            }
        }
    }
    samples
        .into_iter()
        .map(|s| match s {
            Some(s) => s.finish(img, big_min),
            None => (CellInk::default(), None),
        })
        .unzip()
}

/// Height (fraction of a cell) from which a mark counts as a big digit on this screen.
fn big_digit_min(samples: &[Option<CellSample>]) -> f32 {
    // Every cell's tallest free-standing mark; a sudoku shows at least 17 big digits, so the
    // 17th tallest is the height of a big digit even if a few cells hold odd tall marks.
    let mut tallest: Vec<f32> = samples
        .iter()
        .flatten()
        .filter_map(|s| s.tallest())
        .collect();
    tallest.sort_by(|a, b| b.total_cmp(a));
    let Some(&h) = tallest.get(16) else {
        return BIG_MIN;
    };
    (0.7 * h).clamp(SMALLEST_BIG, BIG_MIN)
}

/// The least height (fraction of a cell) a big digit is ever taken from: tablets draw digits
/// an eighth of their large cells tall, thin lines around them.
const SMALLEST_BIG: f32 = 0.08;

/// Brightness of every `stride`-th pixel of a `size` rectangle at `origin`, row-major.
fn luma_sampled(img: &Screen, origin: (u32, u32), size: (u32, u32), stride: u32) -> Vec<u8> {
    if stride == 1 {
        return img.luma_region(origin.0, origin.1, size.0, size.1);
    }
    let (w, h) = (
        size.0.div_ceil(stride) as usize,
        size.1.div_ceil(stride) as usize,
    );
    let mut out = Vec::with_capacity(w * h);
    for j in 0..h {
        let row = img.row(origin.1 + (j as u32) * stride);
        out.extend((0..w).map(|i| row[origin.0 as usize + i * stride as usize]));
    }
    out
}

/// The cell's samples as their colour distance from the cell's own colour (ink darker) when
/// their brightness is flat: an ink as bright as its cell but of another hue (a same-number
/// highlight's green digit on a light blue selected cell) shows no mark in brightness. A cell
/// with any brightness contrast, or flat in colour too, keeps its brightness.
fn hue_when_flat(
    img: &Screen,
    lum: Vec<u8>,
    origin: (u32, u32),
    size: (u32, u32),
    stride: u32,
) -> Vec<u8> {
    let bg = median(&lum) as i16;
    let spread = lum
        .iter()
        .map(|&v| (v as i16 - bg).abs())
        .max()
        .unwrap_or(0);
    if spread >= segment::FAINT_AMP {
        return lum;
    }
    let (w, h) = (size.0.div_ceil(stride), size.1.div_ceil(stride));
    let pixels: Vec<[u8; 3]> = (0..h)
        .flat_map(|j| (0..w).map(move |i| (i, j)))
        .map(|(i, j)| {
            let p = img
                .get_pixel(origin.0 + i * stride, origin.1 + j * stride)
                .0;
            [p[0], p[1], p[2]]
        })
        .collect();
    let channel = |k: usize| median(&pixels.iter().map(|p| p[k]).collect::<Vec<u8>>());
    let paper = [channel(0), channel(1), channel(2)];
    pixels
        .iter()
        .map(|p| {
            let far = (0..3).map(|k| p[k].abs_diff(paper[k])).max().unwrap_or(0);
            255 - far
        })
        .collect()
}

/// Counts short straight dashes in the band just inside the cell's lines, where killer sudoku
/// draws its dashed cage outlines (and classic apps draw nothing).
fn cage_dashes(lum: &[u8], w: usize, h: usize, pitch: f32) -> usize {
    let band = (pitch * 0.16).round() as usize;
    let bg = median(lum) as i16;
    // Only the band is looked at (its rows whole, else its two ends of each row), and the
    // mask is made only when the count asks for the components.
    // Faint enough for a killer's grey dashes on a screenshot scaled down (21-27 levels at
    // 360 px wide), still above a JPEG's ringing and a wood texture's grain.
    let differs = |v: u8| (v as i16 - bg).abs() > 20;
    let band_of = |y: usize| -> [std::ops::Range<usize>; 2] {
        if y < band || y + band >= h {
            [0..w, 0..0]
        } else {
            [0..band.min(w), w.saturating_sub(band).max(band.min(w))..w]
        }
    };
    let mut differing = 0usize;
    for y in 0..h {
        let row = &lum[y * w..(y + 1) * w];
        for part in band_of(y) {
            differing += row[part].iter().filter(|&&v| differs(v)).count();
        }
    }
    // Cage outlines put many pixels in the band; a classic cell has next to none.
    if (differing as f32) < pitch * 0.5 {
        return 0;
    }
    let mut mask = vec![false; w * h];
    for y in 0..h {
        for part in band_of(y) {
            for x in part {
                mask[y * w + x] = differs(lum[y * w + x]);
            }
        }
    }
    let (_, comps) = components(&mask, w, h);
    let (lo, hi) = ((pitch * 0.05).max(3.0), pitch * 0.25);
    comps
        .iter()
        .filter(|c| {
            let touches = c.x0 == 0 || c.y0 == 0 || c.x1 == w - 1 || c.y1 == h - 1;
            let (cw, ch) = (c.width() as f32, c.height() as f32);
            let long = cw.max(ch);
            !touches && long >= lo && long <= hi && long >= 2.5 * cw.min(ch)
        })
        .count()
}

/// The lower median of `v` (0 when empty), from a histogram of its values.
fn median(v: &[u8]) -> u8 {
    // Four histograms filled in turn: a flat cell puts every sample in one bin, and with one
    // histogram each count waits on the one before it (a store and a load of the same bin).
    let mut hist = [[0u32; 256]; 4];
    let mut quads = v.chunks_exact(4);
    for q in &mut quads {
        hist[0][q[0] as usize] += 1;
        hist[1][q[1] as usize] += 1;
        hist[2][q[2] as usize] += 1;
        hist[3][q[3] as usize] += 1;
    }
    for &x in quads.remainder() {
        hist[0][x as usize] += 1;
    }
    let mut acc = 0usize;
    for i in 0..256 {
        acc += hist.iter().map(|h| h[i] as usize).sum::<usize>();
        if acc * 2 >= v.len() {
            return i as u8;
        }
    }
    255
}

impl CellSample {
    /// Height of the tallest free-standing mark, as a fraction of the cell.
    fn tallest(&self) -> Option<f32> {
        self.comps
            .iter()
            .filter(|c| self.digit_like(c) && c.height() as f32 >= self.pitch * 0.1)
            .map(|c| c.height() as f32 / self.pitch)
            .reduce(f32::max)
    }

    /// Keeps the marks at least `big_min` of a cell tall as the big digit and normalises it.
    fn finish(&self, img: &Screen, big_min: f32) -> (CellInk, Option<InkFeatures>) {
        let (mut cell, big) = self.big_marks(big_min);
        if big.is_empty() {
            cell.notes = cell.notes || self.notes_near_lines(img, big_min);
            return (cell, None);
        }
        let mut bb = (usize::MAX, usize::MAX, 0usize, 0usize);
        for c in &big {
            bb = (
                bb.0.min(c.x0),
                bb.1.min(c.y0),
                bb.2.max(c.x1),
                bb.3.max(c.y1),
            );
        }
        if cell.notes && run_together(bb) {
            return (cell, None);
        }
        let (kept, near) = self.digit_masks(&big, bb);
        let (mut strength, area, peak) = self.strength(&kept, &near, bb);
        let (w, stride, (x0, y0)) = (self.w, self.stride, self.origin);
        // The solid ink: the digit's strongest pixels. The cell's contrast may come from
        // something stronger than the digit (the dark arc of a rounded grid corner), so
        // "strong" is measured against the digit's own peak, not the cell's.
        let solid_ink = boxed(bb)
            .filter(|&(x, y)| kept[y * w + x] && strength[y * w + x] >= 0.8 * peak && peak > 0.0);
        let ink = self.mean_colour(img, solid_ink).unwrap_or([0, 0, 0]);
        let background = self.background(img, bb).unwrap_or(ink);
        let disc = (self.distance_to_cell(img, background) > 24.0).then_some(background);
        let bh = (bb.3 - bb.1 + 1) as f32;
        let features = InkFeatures {
            ink,
            background,
            weight: area / (bh * bh),
            height: bh / self.pitch,
            stroke: self.stroke(&strength, area, bb),
            disc,
            resolution: bh,
        };
        let span = ink_span(
            &mut strength,
            &near,
            &self.diff,
            (w, self.h),
            bb,
            self.amp as f32,
            peak,
        );
        cell.digit = Some(DigitPatch {
            pixels: normalise_span(&strength, w, span),
            bbox: Rect::new(
                x0 + bb.0 as u32 * stride,
                y0 + bb.1 as u32 * stride,
                (bb.2 - bb.0 + 1) as u32 * stride,
                (bb.3 - bb.1 + 1) as u32 * stride,
            ),
            ink,
        });
        (cell, Some(features))
    }

    /// The cell without its digit (its notes flag and dashes) and the marks at least `big_min`
    /// of a cell tall, the big digit's parts.
    fn big_marks(&self, big_min: f32) -> (CellInk, Vec<&Component>) {
        let (w, h, pitch) = (self.w, self.h, self.pitch);
        let big_min = pitch * big_min;
        let note_min = (pitch * 0.07).max(3.0).min(big_min * 0.6);
        let mut cell = CellInk {
            dashes: self.dashes,
            ..CellInk::default()
        };
        let mut big: Vec<&Component> = Vec::new();
        for c in &self.comps {
            let (cw, ch) = (c.width() as f32, c.height() as f32);
            if self.touches(c) {
                // Notes sit near the cell edge and may be clipped by the cut; lines and
                // highlight edges that reach the cut are long, and the arc of a rounded grid
                // corner runs from one side of the cut to the next.
                let across_corner = (c.x0 == 0 || c.x1 == w - 1) && (c.y0 == 0 || c.y1 == h - 1);
                if !across_corner && ch >= note_min && cw.max(ch) < pitch * 0.28 {
                    cell.notes = true;
                }
                continue;
            }
            // A bare upright stroke far off the cell's middle is a line between cells (a box
            // separator drawn in the gap of a board of tiles), not a 1: digits are centred.
            let off_middle = ((c.x0 + c.x1) as f32 / 2.0 - (w - 1) as f32 / 2.0).abs();
            if cw * 6.0 <= ch && off_middle > pitch * 0.25 {
                continue;
            }
            if ch >= big_min && cw <= pitch * 0.85 && cw >= 2.0 {
                big.push(c);
            } else if ch >= note_min && ch < big_min {
                cell.notes = true;
            }
        }
        // A faint cell gives a big digit, or notes only where its marks look like notes.
        if self.amp < INK_AMP {
            cell.notes = big.is_empty() && self.faint_notes(note_min, big_min);
        }
        (cell, big)
    }

    /// Pencil notes the cut leaves out: a note drawn close to the cell's lines lies partly or
    /// wholly between them and the cut, or is clipped by the cut on two sides as a rounded
    /// corner's arc is. Looks at the whole cell between its line centres at the sample's
    /// stride, at the contrast of what lies clear of the lines: a note-sized mark there that
    /// stays clear of the cell's edge is a note (lines, highlight edges and a card's corner
    /// arc all reach that edge).
    fn notes_near_lines(&self, img: &Screen, big_min: f32) -> bool {
        let (r, stride) = (self.rect, self.stride);
        if r.width < 8 || r.height < 8 || r.right() > img.width() || r.bottom() > img.height() {
            return false;
        }
        let lum = luma_sampled(img, (r.x, r.y), (r.width, r.height), stride);
        let (w, h) = (
            r.width.div_ceil(stride) as usize,
            r.height.div_ceil(stride) as usize,
        );
        // The contrast is measured inside the cut that leaves the lines out (`sample_cell`).
        let m =
            ((self.pitch * stride as f32 * 0.025).round() as usize + 1).div_ceil(stride as usize);
        if w <= 2 * m + 2 || h <= 2 * m + 2 {
            return false;
        }
        let bg = median(&lum) as i16;
        let (mut dark, mut bright) = (0i16, 0i16);
        for y in m..h - m {
            for &v in &lum[y * w + m..y * w + w - m] {
                dark = dark.max(bg - v as i16);
                bright = bright.max(v as i16 - bg);
            }
        }
        let big = self.pitch * big_min;
        let note_min = (self.pitch * 0.07).max(3.0).min(big * 0.6);
        // Both polarities, the stronger first: the dark rounded corners of a tile lit as
        // selected are the strongest contrast there, the light notes on it the other.
        let mut inks = [(-1, dark), (1, bright)];
        inks.sort_by_key(|&(_, amp)| -amp);
        inks.into_iter()
            .any(|ink| notes_in_frame(&lum, (w, h), bg, ink, self.pitch, (note_min, big)))
    }
}

/// A box of samples, inclusive: (x0, y0, x1, y1).
type BBox = (usize, usize, usize, usize);

/// The samples of `bb`, row by row.
fn boxed(bb: BBox) -> impl Iterator<Item = (usize, usize)> + Clone {
    (bb.1..=bb.3).flat_map(move |y| (bb.0..=bb.2).map(move |x| (x, y)))
}

/// Refuses cage grids: classic cells never hold dashed outlines.
pub(crate) fn check_not_killer(inks: &[CellInk]) -> Result<(), VisionError> {
    let caged = inks.iter().filter(|c| c.dashes >= 3).count();
    if caged >= 12 {
        Err(VisionError::Killer(caged))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One cell whose rectangle between line centres is `rect`, cleaned at the usual height.
    fn cut_cell(img: &RgbaImage, rect: Rect, pitch: f32) -> CellInk {
        let img = &Screen::new(img);
        match sample_cell(img, rect, pitch) {
            Some(sample) => sample.finish(img, BIG_MIN).0,
            None => CellInk::default(),
        }
    }
    use image::Rgba;

    /// A 60x60 white cell with `marks` (x, y, w, h) drawn in dark grey.
    fn cell_with(marks: &[(u32, u32, u32, u32)]) -> RgbaImage {
        let mut img = RgbaImage::from_pixel(60, 60, Rgba([255; 4]));
        for &(x, y, w, h) in marks {
            for yy in y..y + h {
                for xx in x..x + w {
                    img.put_pixel(xx, yy, Rgba([30, 30, 30, 255]));
                }
            }
        }
        img
    }

    /// The grid's top and left lines of a cell at a rounded grid corner, joined by an arc that
    /// bulges into the cell from the cut's top edge round to its left edge.
    const ROUNDED_CORNER: [(u32, u32, u32, u32); 6] = [
        (14, 0, 46, 2),
        (0, 14, 2, 46),
        (12, 0, 2, 7),
        (0, 12, 7, 2),
        (5, 5, 9, 2),
        (5, 5, 2, 9),
    ];

    #[test]
    fn a_rounded_corner_arc_is_no_note_but_a_note_clipped_on_one_side_is() {
        let rect = Rect::new(0, 0, 60, 60);
        let corner = cut_cell(&cell_with(&ROUNDED_CORNER), rect, 60.0);
        assert_eq!(corner, CellInk::default());
        let clipped = cut_cell(&cell_with(&[(5, 20, 4, 8)]), rect, 60.0);
        assert!(clipped.digit.is_none() && clipped.notes);
    }

    #[test]
    fn a_note_between_the_cut_and_the_lines_or_clipped_on_two_sides_is_a_note() {
        let rect = Rect::new(0, 0, 60, 60);
        // Wholly outside the cut (5..55), then across its bottom right corner.
        for note in [(51, 20, 3, 8), (50, 50, 5, 8)] {
            let cell = cut_cell(
                &cell_with(&[note, (0, 0, 60, 2), (0, 0, 2, 60)]),
                rect,
                60.0,
            );
            assert!(cell.digit.is_none() && cell.notes, "{note:?}");
        }
    }

    #[test]
    fn a_faint_digit_beside_a_dark_corner_arc_is_read_at_its_own_contrast() {
        let rect = Rect::new(0, 0, 60, 60);
        // A thin light-grey digit: 85 grey levels from the cell, the arc 225.
        let mut img = cell_with(&ROUNDED_CORNER);
        for y in 15..45 {
            for x in 27..30 {
                img.put_pixel(x, y, Rgba([170, 170, 170, 255]));
            }
        }
        let cell = cut_cell(&img, rect, 60.0);
        let patch = cell.digit.expect("a big digit");
        assert_eq!(patch.bbox, Rect::new(27, 15, 3, 30));
        assert!(!cell.notes);
    }

    #[test]
    fn a_digit_drawn_down_to_the_lines_is_kept_and_a_mark_running_into_them_is_not() {
        let rect = Rect::new(0, 0, 60, 60);
        // The usual cut of a 60 px cell keeps rows 5 to 54: this digit reaches row 55.
        let low = cut_cell(&cell_with(&[(26, 14, 8, 42)]), rect, 60.0);
        assert_eq!(
            low.digit.expect("a big digit").bbox,
            Rect::new(26, 14, 8, 42)
        );
        // A bar that runs on into the line stays clipped in the wider cut too.
        let into_line = cut_cell(&cell_with(&[(26, 20, 8, 40)]), rect, 60.0);
        assert!(into_line.digit.is_none(), "{into_line:?}");
    }

    #[test]
    fn a_bare_stroke_near_the_cells_side_is_a_separator_and_one_in_its_middle_a_digit() {
        let rect = Rect::new(0, 0, 60, 60);
        // 2 px wide and 20 tall: a box separator in the gap beside a tile, then a plain 1.
        let beside = cut_cell(&cell_with(&[(46, 20, 2, 20)]), rect, 60.0);
        assert!(beside.digit.is_none(), "{beside:?}");
        let middle = cut_cell(&cell_with(&[(29, 20, 2, 20)]), rect, 60.0);
        assert_eq!(middle.digit.expect("a 1").bbox, Rect::new(29, 20, 2, 20));
    }

    #[test]
    fn a_tall_mark_is_a_digit_small_marks_are_notes_and_edge_lines_are_dropped() {
        let rect = Rect::new(0, 0, 60, 60);
        let empty = cut_cell(&cell_with(&[(0, 0, 60, 2)]), rect, 60.0);
        assert_eq!(empty, CellInk::default());
        let digit = cut_cell(&cell_with(&[(25, 15, 8, 30), (0, 0, 2, 60)]), rect, 60.0);
        let patch = digit.digit.expect("a big digit");
        assert_eq!(patch.bbox, Rect::new(25, 15, 8, 30));
        assert_eq!(patch.ink, [30, 30, 30]);
        assert!(!digit.notes);
        let notes = cut_cell(&cell_with(&[(10, 10, 4, 8), (40, 30, 4, 8)]), rect, 60.0);
        assert!(notes.digit.is_none() && notes.notes);
    }

    #[test]
    fn notes_on_a_badge_as_dark_as_ink_stay_notes() {
        let rect = Rect::new(0, 0, 60, 60);
        // A grey disc as tall as a big digit under three black notes that run across it.
        let mut img = cell_with(&[(20, 22, 3, 8), (29, 22, 3, 8), (38, 22, 3, 8)]);
        for y in 0..60i32 {
            for x in 0..60i32 {
                let inside = (x - 30).pow(2) + (y - 30).pow(2) <= 11 * 11;
                if inside && img.get_pixel(x as u32, y as u32)[0] == 255 {
                    img.put_pixel(x as u32, y as u32, Rgba([140, 140, 140, 255]));
                }
            }
        }
        let cell = cut_cell(&img, rect, 60.0);
        assert!(cell.digit.is_none() && cell.notes, "{cell:?}");
        // Notes run together by a stroke into one mark as tall as a digit but wider, beside
        // another note; with no other mark in its cell it stays a digit.
        let joined = [
            (15, 20, 4, 20),
            (27, 20, 4, 20),
            (39, 20, 4, 20),
            (15, 38, 28, 2),
        ];
        let beside = [&joined[..], &[(10, 46, 4, 6)]].concat();
        let cell = cut_cell(&cell_with(&beside), rect, 60.0);
        assert!(cell.digit.is_none() && cell.notes, "{cell:?}");
        assert!(cut_cell(&cell_with(&joined), rect, 60.0).digit.is_some());
    }

    #[test]
    fn small_digits_are_big_digits_when_the_screen_shows_nothing_taller() {
        // 40 px cells; 20 cells hold a 9 px tall mark (22% of the cell), 5 hold 3 px notes.
        let mut img = RgbaImage::from_pixel(400, 400, Rgba([255; 4]));
        let grid = Grid::from_rect(Rect::new(20, 20, 360, 360));
        let mark = |img: &mut RgbaImage, i: usize, w: u32, h: u32| {
            let r = grid.cell_rect(Cell::all().nth(i).unwrap());
            let (x0, y0) = (r.x + (r.width - w) / 2, r.y + (r.height - h) / 2);
            for y in y0..y0 + h {
                for x in x0..x0 + w {
                    img.put_pixel(x, y, Rgba([20, 20, 20, 255]));
                }
            }
        };
        for i in 0..20 {
            mark(&mut img, i * 4, 4, 9);
        }
        for i in 0..5 {
            mark(&mut img, i * 4 + 2, 2, 3);
        }
        let (cells, features) = cut_cells_adaptive_on(&Screen::new(&img), &grid);
        for (i, c) in cells.iter().enumerate() {
            let digit = i % 4 == 0 && i < 80;
            assert_eq!(c.digit.is_some(), digit, "cell {i}");
            assert_eq!(features[i].is_some(), digit, "cell {i}");
        }
        assert!(cells[2].notes);
        // The fixed rule (30% of the cell) sees none of them.
        assert!(
            cut_cells_with_features(&Screen::new(&img), &grid, None)
                .0
                .iter()
                .all(|c| c.digit.is_none())
        );
        let f = features[0].unwrap();
        assert_eq!(f.ink, [20, 20, 20]);
        assert!(f.disc.is_none());
    }

    #[test]
    fn the_median_is_the_lower_middle_value_as_a_sort_gives_it() {
        for n in [0usize, 1, 2, 3, 4, 5, 7, 8, 61, 400] {
            let v: Vec<u8> = (0..n).map(|i| ((i * 7919) % 251) as u8 / 3 * 3).collect();
            let mut sorted = v.clone();
            sorted.sort_unstable();
            let expected = if n == 0 { 0 } else { sorted[(n - 1) / 2] };
            assert_eq!(median(&v), expected, "{n} values");
        }
        assert_eq!(median(&[9; 50]), 9);
    }
}
