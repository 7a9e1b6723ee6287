//! What a cut digit's ink looks like, measured for telling givens from entries: its colour, the
//! colour around it (a disc or highlight), its stroke weight and thickness, and its height.

use super::{BBox, CellSample, boxed};
use crate::patch::Component;
use crate::screen::colour_distance;
use image::RgbaImage;

/// What tells one digit's ink from another's on the same screen, so that givens and player
/// entries can be told apart by clustering (see `super::kinds`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InkFeatures {
    /// Mean colour of the solid ink.
    pub ink: [u8; 3],
    /// Mean colour just around the digit (a disc, a highlight, or the cell).
    pub background: [u8; 3],
    /// Stroke weight: ink area over the square of the digit's height (bold fonts are higher).
    pub weight: f32,
    /// The digit's height as a fraction of the cell.
    pub height: f32,
    /// Stroke thickness over the digit's height (median horizontal run of ink): bold givens
    /// and regular entries differ here even in one colour.
    pub stroke: f32,
    /// The colour of a disc or badge drawn under the digit, when the digit's surroundings
    /// differ from the cell's corners (a highlighted cell is tinted to its corners: no disc).
    pub disc: Option<[u8; 3]>,
    /// The digit's height in the samples the stroke was measured on: a stroke difference
    /// below a sample or two is noise.
    pub resolution: f32,
}

impl CellSample {
    /// Which samples are the digit's ink (the big marks and the broken strokes inside their
    /// box `bb`), and which lie next to that ink (its anti-aliased edge).
    pub(super) fn digit_masks(&self, big: &[&Component], bb: BBox) -> (Vec<bool>, Vec<bool>) {
        let (w, h) = (self.w, self.h);
        // Broken strokes (JPEG, thin fonts) are small pieces inside the digit's box.
        let mut keep = vec![false; self.comps.len() + 1];
        for c in &self.comps {
            let inside =
                c.x0 + 1 >= bb.0 && c.y0 + 1 >= bb.1 && c.x1 <= bb.2 + 1 && c.y1 <= bb.3 + 1;
            if big.iter().any(|b| b.label == c.label) || inside {
                keep[c.label as usize] = true;
            }
        }
        let kept: Vec<bool> = self.labels.iter().map(|&l| keep[l as usize]).collect();
        let (nx0, ny0) = (bb.0.saturating_sub(1), bb.1.saturating_sub(1));
        let (nx1, ny1) = ((bb.2 + 1).min(w - 1), (bb.3 + 1).min(h - 1));
        let mut near = vec![false; w * h];
        for y in ny0..=ny1 {
            for x in nx0..=nx1 {
                if kept[y * w + x] {
                    for yy in y.saturating_sub(1)..=(y + 1).min(h - 1) {
                        for xx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                            near[yy * w + xx] = true;
                        }
                    }
                }
            }
        }
        (kept, near)
    }

    /// Soft ink strength 0..1 near the kept ink (anti-aliased edges), zero elsewhere; with its
    /// sum (the digit's area) and the kept ink's peak.
    pub(super) fn strength(&self, kept: &[bool], near: &[bool], bb: BBox) -> (Vec<f32>, f32, f32) {
        let w = self.w;
        let mut strength = vec![0f32; w * self.h];
        let mut area = 0f32;
        let amp = self.amp as f32;
        for (x, y) in boxed(bb) {
            if near[y * w + x] {
                let s = (self.diff[y * w + x] / amp).clamp(0.0, 1.0);
                strength[y * w + x] = s;
                area += s;
            }
        }
        let peak = boxed(bb)
            .filter(|&(x, y)| kept[y * w + x])
            .map(|(x, y)| strength[y * w + x])
            .fold(0f32, f32::max);
        (strength, area, peak)
    }

    /// The screen pixel under sample `(x, y)`.
    pub(super) fn pixel<'i>(&self, img: &'i RgbaImage, x: usize, y: usize) -> &'i image::Rgba<u8> {
        let (x0, y0) = self.origin;
        img.get_pixel(x0 + x as u32 * self.stride, y0 + y as u32 * self.stride)
    }

    /// The mean screen colour of the samples `at`, `None` when there are none.
    pub(super) fn mean_colour(
        &self,
        img: &RgbaImage,
        at: impl Iterator<Item = (usize, usize)>,
    ) -> Option<[u8; 3]> {
        let (mut rgb, mut n) = ([0u64; 3], 0u64);
        for (x, y) in at {
            let p = self.pixel(img, x, y);
            for k in 0..3 {
                rgb[k] += p[k] as u64;
            }
            n += 1;
        }
        (n > 0).then(|| rgb.map(|v| (v / n) as u8))
    }

    /// The colour of the ring just outside the digit's box: the disc or cell the digit sits on.
    pub(super) fn background(&self, img: &RgbaImage, bb: BBox) -> Option<[u8; 3]> {
        let (w, h, amp) = (self.w, self.h, self.amp as f32);
        let pad = ((bb.3 - bb.1 + 1) / 8).max(2);
        let (rx0, ry0) = (bb.0.saturating_sub(pad), bb.1.saturating_sub(pad));
        let (rx1, ry1) = ((bb.2 + pad).min(w - 1), (bb.3 + pad).min(h - 1));
        let ring = boxed((rx0, ry0, rx1, ry1)).filter(|&(x, y)| {
            let outside = x < bb.0 || x > bb.2 || y < bb.1 || y > bb.3;
            outside && self.diff[y * w + x] < amp * 0.2
        });
        self.mean_colour(img, ring)
    }

    /// How far `background` is from the cell's own colour, taken from the corner closest to
    /// it (one corner may lie outside a rounded grid card). Only flat corners count when there
    /// are any: one the card's dark arc crosses averages to a grey that can pass for a disc's
    /// colour.
    pub(super) fn distance_to_cell(&self, img: &RgbaImage, background: [u8; 3]) -> f64 {
        let (w, h) = (self.w, self.h);
        let k = (w.min(h) / 10).max(2);
        let corner = |cx: usize, cy: usize| {
            let (mut lo, mut hi) = ([u8::MAX; 3], [0u8; 3]);
            let square = move || boxed((cx, cy, cx + k - 1, cy + k - 1));
            for (x, y) in square() {
                let p = self.pixel(img, x, y);
                for i in 0..3 {
                    (lo[i], hi[i]) = (lo[i].min(p[i]), hi[i].max(p[i]));
                }
            }
            let flat = (0..3).all(|i| hi[i] - lo[i] <= 40);
            let mean = self.mean_colour(img, square()).unwrap_or([0, 0, 0]);
            (mean, flat)
        };
        let corners = [(0, 0), (w - k, 0), (0, h - k), (w - k, h - k)].map(|(x, y)| corner(x, y));
        let any_flat = corners.iter().any(|c| c.1);
        corners
            .iter()
            .filter(|c| c.1 || !any_flat)
            .map(|c| colour_distance(background, c.0))
            .fold(f64::MAX, f64::min)
    }

    /// Stroke thickness over the digit's height, whatever the glyph: a stroke of width t and
    /// length L has area tL and about 2L edge pixels, so t = 2 * area / edge.
    pub(super) fn stroke(&self, strength: &[f32], area: f32, bb: BBox) -> f32 {
        let (w, h) = (self.w, self.h);
        let solid = |x: usize, y: usize| strength[y * w + x] >= 0.5;
        let edge = boxed(bb)
            .filter(|&(x, y)| {
                solid(x, y)
                    && (x == 0
                        || y == 0
                        || x + 1 == w
                        || y + 1 == h
                        || !solid(x - 1, y)
                        || !solid(x + 1, y)
                        || !solid(x, y - 1)
                        || !solid(x, y + 1))
            })
            .count();
        let bh = (bb.3 - bb.1 + 1) as f32;
        if edge > 0 {
            2.0 * area / edge as f32 / bh
        } else {
            0.0
        }
    }
}
