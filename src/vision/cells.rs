//! Cutting the 81 cells out of a located grid and cleaning them: the cell is cut a little inside
//! its lines, its background is the median brightness, ink is whatever differs from it clearly,
//! ink touching the cut edge (line remnants, highlight edges) is dropped, and components tall
//! enough to be a big digit are told apart from small pencil notes by height. The big digit is
//! normalised into a fixed-size patch (aspect kept, centred) for template matching.

use super::locate::Grid;
use crate::geometry::Rect;
use crate::sudoku::Cell;
use image::RgbaImage;

/// Size of a normalised digit patch.
pub const PATCH_W: usize = 24;
pub const PATCH_H: usize = 32;

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

/// A connected component of a binary mask.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Component {
    pub x0: usize,
    pub y0: usize,
    pub x1: usize,
    pub y1: usize,
    pub area: usize,
    pub label: u32,
}

impl Component {
    pub fn width(&self) -> usize {
        self.x1 - self.x0 + 1
    }
    pub fn height(&self) -> usize {
        self.y1 - self.y0 + 1
    }
}

/// 8-connected components of `mask` (`w` x `h`, row-major). Labels start at 1; 0 is background.
pub(crate) fn components(mask: &[bool], w: usize, h: usize) -> (Vec<u32>, Vec<Component>) {
    let mut labels = vec![0u32; w * h];
    let mut comps = Vec::new();
    let mut stack = Vec::new();
    for start in 0..w * h {
        if !mask[start] || labels[start] != 0 {
            continue;
        }
        let label = comps.len() as u32 + 1;
        let mut c = Component {
            x0: usize::MAX,
            y0: usize::MAX,
            x1: 0,
            y1: 0,
            area: 0,
            label,
        };
        labels[start] = label;
        stack.push(start);
        while let Some(i) = stack.pop() {
            let (x, y) = (i % w, i / w);
            c.x0 = c.x0.min(x);
            c.x1 = c.x1.max(x);
            c.y0 = c.y0.min(y);
            c.y1 = c.y1.max(y);
            c.area += 1;
            for dy in -1i64..=1 {
                for dx in -1i64..=1 {
                    let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                    if nx < 0 || ny < 0 || nx >= w as i64 || ny >= h as i64 {
                        continue;
                    }
                    let j = ny as usize * w + nx as usize;
                    if mask[j] && labels[j] == 0 {
                        labels[j] = label;
                        stack.push(j);
                    }
                }
            }
        }
        comps.push(c);
    }
    (labels, comps)
}

/// Resamples the ink strength inside `bbox` (local coordinates of a `w`-wide strength buffer)
/// into a centred `PATCH_W` x `PATCH_H` patch, keeping the aspect ratio; 4x4 samples per output
/// pixel so that both shrinking and enlarging stay smooth.
pub(crate) fn normalise(strength: &[f32], w: usize, bbox: (usize, usize, usize, usize)) -> Vec<u8> {
    let (bx0, by0, bx1, by1) = bbox;
    let (bw, bh) = ((bx1 - bx0 + 1) as f32, (by1 - by0 + 1) as f32);
    let scale = (PATCH_H as f32 / bh).min(PATCH_W as f32 / bw);
    let ox = (PATCH_W as f32 - bw * scale) / 2.0;
    let oy = (PATCH_H as f32 - bh * scale) / 2.0;
    let mut out = vec![0u8; PATCH_W * PATCH_H];
    for ty in 0..PATCH_H {
        for tx in 0..PATCH_W {
            let mut sum = 0f32;
            for sy in 0..4 {
                for sx in 0..4 {
                    let u = tx as f32 + (sx as f32 + 0.5) / 4.0;
                    let v = ty as f32 + (sy as f32 + 0.5) / 4.0;
                    let x = (u - ox) / scale;
                    let y = (v - oy) / scale;
                    if x < 0.0 || y < 0.0 || x >= bw || y >= bh {
                        continue;
                    }
                    sum += strength[(by0 + y as usize) * w + bx0 + x as usize];
                }
            }
            out[ty * PATCH_W + tx] = (sum / 16.0 * 255.0).round().clamp(0.0, 255.0) as u8;
        }
    }
    out
}

/// Cleans all 81 cells of `grid`, row by row.
pub fn cut_cells(img: &RgbaImage, grid: &Grid) -> Vec<CellInk> {
    let pitch = grid.pitch();
    Cell::all()
        .map(|c| cut_cell(img, grid.cell_rect(c), pitch))
        .collect()
}

/// Cleans one cell whose rectangle between line centres is `rect`.
pub fn cut_cell(img: &RgbaImage, rect: Rect, pitch: f32) -> CellInk {
    // The dash band starts just inside the lines; the digit is looked for further in.
    let outer = (pitch * 0.025).round() as u32 + 1;
    let inner = (pitch * 0.07).round() as u32 + 1;
    if rect.width <= 2 * inner + 4 || rect.height <= 2 * inner + 4 {
        return CellInk::default();
    }
    let (ox, oy) = (rect.x + outer, rect.y + outer);
    let (ow, oh) = (rect.width - 2 * outer, rect.height - 2 * outer);
    if ox + ow > img.width() || oy + oh > img.height() {
        return CellInk::default();
    }
    let lum = super::luma_region(img, ox, oy, ow, oh);
    let (ow, oh) = (ow as usize, oh as usize);
    let dashes = cage_dashes(&lum, ow, oh, pitch);
    let k = (inner - outer) as usize;
    let (w, h) = (ow - 2 * k, oh - 2 * k);
    let sub: Vec<u8> = (0..h)
        .flat_map(|y| lum[(y + k) * ow + k..(y + k) * ow + k + w].iter().copied())
        .collect();
    let mut cell = cut_digit(img, sub, (ox + k as u32, oy + k as u32), (w, h), pitch);
    cell.dashes = dashes;
    cell
}

/// Counts short straight dashes in the band just inside the cell's lines, where killer sudoku
/// draws its dashed cage outlines (and classic apps draw nothing).
fn cage_dashes(lum: &[u8], w: usize, h: usize, pitch: f32) -> usize {
    let band = (pitch * 0.16).round() as usize;
    let bg = median(lum) as i16;
    let mask: Vec<bool> = (0..w * h)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            let in_band = x < band || y < band || x + band >= w || y + band >= h;
            in_band && (lum[i] as i16 - bg).abs() > 25
        })
        .collect();
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

fn median(v: &[u8]) -> u8 {
    let mut hist = [0usize; 256];
    for &x in v {
        hist[x as usize] += 1;
    }
    let mut acc = 0;
    for (i, &n) in hist.iter().enumerate() {
        acc += n;
        if acc * 2 >= v.len() {
            return i as u8;
        }
    }
    255
}

/// Finds and normalises the big digit in `lum` (`w` x `h`, whose top-left is `origin` on the
/// screen).
fn cut_digit(
    img: &RgbaImage,
    lum: Vec<u8>,
    origin: (u32, u32),
    size: (usize, usize),
    pitch: f32,
) -> CellInk {
    let (x0, y0) = origin;
    let (w, h) = size;
    let bg = median(&lum) as i16;
    let (mut dark, mut bright) = (0i16, 0i16);
    for &v in &lum {
        dark = dark.max(bg - v as i16);
        bright = bright.max(v as i16 - bg);
    }
    // Ink has the polarity of the strongest difference from the background.
    let (sign, amp) = if dark >= bright {
        (-1i16, dark)
    } else {
        (1, bright)
    };
    if amp < 45 {
        return CellInk::default();
    }
    let threshold = (amp as f32 * 0.45).max(30.0);
    let diff: Vec<f32> = lum
        .iter()
        .map(|&v| ((v as i16 - bg) * sign) as f32)
        .collect();
    let mask: Vec<bool> = diff.iter().map(|&d| d > threshold).collect();
    let (labels, comps) = components(&mask, w, h);

    let big_min = pitch * 0.3;
    let note_min = (pitch * 0.07).max(3.0);
    let mut cell = CellInk::default();
    let mut big: Vec<&Component> = Vec::new();
    for c in &comps {
        let touches = c.x0 == 0 || c.y0 == 0 || c.x1 == w - 1 || c.y1 == h - 1;
        let (cw, ch) = (c.width() as f32, c.height() as f32);
        if touches {
            // Notes sit near the cell edge and may be clipped by the cut; lines and highlight
            // edges that reach the cut are long.
            if ch >= note_min && cw.max(ch) < pitch * 0.28 {
                cell.notes = true;
            }
            continue;
        }
        if ch >= big_min && cw <= pitch * 0.85 && cw >= 2.0 {
            big.push(c);
        } else if ch >= note_min && ch < big_min {
            cell.notes = true;
        }
    }
    if big.is_empty() {
        return cell;
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
    // Broken strokes (JPEG, thin fonts) are small pieces inside the digit's box.
    let mut keep = vec![false; comps.len() + 1];
    for c in &comps {
        let inside = c.x0 + 1 >= bb.0 && c.y0 + 1 >= bb.1 && c.x1 <= bb.2 + 1 && c.y1 <= bb.3 + 1;
        if big.iter().any(|b| b.label == c.label) || inside {
            keep[c.label as usize] = true;
        }
    }
    let kept = |x: usize, y: usize| keep[labels[y * w + x] as usize];
    // Soft strength near the kept ink (anti-aliased edges), zero elsewhere.
    let (nx0, ny0) = (bb.0.saturating_sub(1), bb.1.saturating_sub(1));
    let (nx1, ny1) = ((bb.2 + 1).min(w - 1), (bb.3 + 1).min(h - 1));
    let mut near = vec![false; w * h];
    for y in ny0..=ny1 {
        for x in nx0..=nx1 {
            if kept(x, y) {
                for yy in y.saturating_sub(1)..=(y + 1).min(h - 1) {
                    for xx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                        near[yy * w + xx] = true;
                    }
                }
            }
        }
    }
    let mut strength = vec![0f32; w * h];
    let (mut rgb, mut n) = ([0u64; 3], 0u64);
    for y in bb.1..=bb.3 {
        for x in bb.0..=bb.2 {
            if !near[y * w + x] {
                continue;
            }
            let s = (diff[y * w + x] / amp as f32).clamp(0.0, 1.0);
            strength[y * w + x] = s;
            if s >= 0.8 && kept(x, y) {
                let p = img.get_pixel(x0 + x as u32, y0 + y as u32);
                for k in 0..3 {
                    rgb[k] += p[k] as u64;
                }
                n += 1;
            }
        }
    }
    let ink = if n > 0 {
        rgb.map(|v| (v / n) as u8)
    } else {
        [0, 0, 0]
    };
    cell.digit = Some(DigitPatch {
        pixels: normalise(&strength, w, bb),
        bbox: Rect::new(
            x0 + bb.0 as u32,
            y0 + bb.1 as u32,
            (bb.2 - bb.0 + 1) as u32,
            (bb.3 - bb.1 + 1) as u32,
        ),
        ink,
    });
    cell
}

/// Normalised cross-correlation of two equally sized patches, -1..=1 (0 when one is flat).
pub fn ncc(a: &[u8], b: &[u8]) -> f32 {
    let n = a.len() as f32;
    let ma = a.iter().map(|&v| v as f32).sum::<f32>() / n;
    let mb = b.iter().map(|&v| v as f32).sum::<f32>() / n;
    let (mut ab, mut aa, mut bb) = (0f32, 0f32, 0f32);
    for (&x, &y) in a.iter().zip(b) {
        let (dx, dy) = (x as f32 - ma, y as f32 - mb);
        ab += dx * dy;
        aa += dx * dx;
        bb += dy * dy;
    }
    if aa <= 0.0 || bb <= 0.0 {
        0.0
    } else {
        ab / (aa * bb).sqrt()
    }
}
