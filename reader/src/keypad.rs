//! Finding the digit keypad for calibration: glyphs outside the grid that look like the board's
//! digits, of one size, isolated (not part of a word or a clock), laid out in one to three rows
//! that hold nine glyphs in reading order (1x9, 3x3, 5+4, ...). The i-th glyph is digit i+1.
//! A key drawn selected (its digit in the other polarity, or no glyph of its own on a disc) is
//! found too, and [`selected_key`] tells which key the screen shows selected.

use super::bank::Bank;
use super::locate::Grid;
use super::patch::{Component, PATCH_H, PATCH_W, components, normalise};
use super::screen::Screen;
use super::templates::{Templates, unit_vector};
use crate::geometry::{Point, Rect};
use image::RgbaImage;

/// One glyph found outside the grid.
#[derive(Debug, Clone, PartialEq)]
pub struct Glyph {
    pub bbox: Rect,
    pub patch: Vec<u8>,
    /// Lighter than its surroundings (light digits on dark buttons).
    pub bright: bool,
}

impl Glyph {
    pub fn centre(&self) -> Point {
        self.bbox.center()
    }
}

/// All plausible digit-sized glyphs outside the grid, in both polarities.
pub fn glyphs_outside(img: &RgbaImage, grid: &Grid) -> Vec<Glyph> {
    glyphs_outside_sampled(&Screen::new(img), grid, 1, f32::INFINITY)
}

/// [`glyphs_outside`] looked for in `s` x `s` blocks, for reading: keys stay tens of samples
/// tall on large screens, the whole-screen passes cost a quarter or less, and boxes are exact
/// to `s` pixels (calibrate, which records key centres, looks at every pixel). A glyph is at
/// least a fifth of a cell tall, or 80% of `digit_px` (the board's digits' height in pixels)
/// where the board's digits are smaller than that.
fn glyphs_outside_sampled(img: &Screen, grid: &Grid, s: usize, digit_px: f32) -> Vec<Glyph> {
    let (w, h) = (img.width() as usize / s, img.height() as usize / s);
    let pitch = grid.pitch() / s as f32;
    let least = (pitch * 0.2).min(0.8 * digit_px / s as f32);
    let lum = block_luma(img, s);
    let integral = integral_image(&lum, w, h);
    let rad = ((pitch * 0.5) as usize).max(4);
    let gr = grid.rect();
    let (gx0, gx1) = (gr.x as usize, gr.right() as usize + 3);
    let (gy0, gy1) = (gr.y as usize, gr.bottom() as usize + 3);
    // The local mean's box around (x, y), clipped to the screen.
    let window = |x: usize, y: usize| {
        let (x0, x1) = (x.saturating_sub(rad), (x + rad + 1).min(w));
        let (y0, y1) = (y.saturating_sub(rad), (y + rad + 1).min(h));
        (x0, x1, y0, y1)
    };
    // Brightness over the local mean (about one cell around), zero inside the grid. Only the
    // glyphs found below need it, so it is worked out for their boxes alone.
    let diff = |x: usize, y: usize| -> f32 {
        if y * s + 3 + s >= gy0 && y * s <= gy1 && x * s + 3 + s >= gx0 && x * s <= gx1 {
            return 0.0;
        }
        let (x0, x1, y0, y1) = window(x, y);
        let (top, bottom) = (&integral[y0 * (w + 1)..], &integral[y1 * (w + 1)..]);
        let sum = bottom[x1] + top[x0] - top[x1] - bottom[x0];
        let mean = sum as f32 / ((x1 - x0) * (y1 - y0)) as f32;
        lum[y * w + x] as f32 - mean
    };
    // Samples clearly darker or lighter than that local mean, outside the grid.
    let masks = contrast_masks(&lum, &integral, (w, h), rad, (s, gx0, gx1, gy0, gy1));
    let mut out = Vec::new();
    for (sign, mask) in [-1f32, 1.0].into_iter().zip(&masks) {
        let (labels, comps) = components(mask, w, h);
        // Neighbours that could be letters or digits (not button borders or separators).
        let tall: Vec<&Component> = comps
            .iter()
            .filter(|c| c.height() as f32 >= pitch * 0.12 && c.width() * 8 >= c.height())
            .collect();
        for c in &comps {
            let (cw, ch) = (c.width() as f32, c.height() as f32);
            if ch < least || ch > pitch * 1.3 || cw > ch * 1.0 || cw < ch * 0.08 {
                continue;
            }
            if (c.area as f32) < 0.12 * cw * ch {
                continue;
            }
            // A glyph inside a word or number has a neighbour of similar height close beside it.
            let crowded = tall.iter().any(|o| {
                let oh = o.height() as f32;
                if o.label == c.label || oh < 0.5 * ch || oh > 1.5 * ch {
                    return false;
                }
                let overlap = (c.y1.min(o.y1) as f32 - c.y0.max(o.y0) as f32).max(0.0);
                if overlap < 0.5 * ch.min(o.height() as f32) {
                    return false;
                }
                let gap = if o.x0 > c.x1 {
                    o.x0 - c.x1
                } else {
                    c.x0.saturating_sub(o.x1)
                };
                (gap as f32) < 0.3 * ch
            });
            if crowded {
                continue;
            }
            let bw = c.width();
            let mut strength = vec![0f32; bw * c.height()];
            let mut amp = 1f32;
            for y in c.y0..=c.y1 {
                for x in c.x0..=c.x1 {
                    if labels[y * w + x] == c.label {
                        amp = amp.max(diff(x, y) * sign);
                    }
                }
            }
            for y in c.y0..=c.y1 {
                for x in c.x0..=c.x1 {
                    let near = (y.saturating_sub(1)..=(y + 1).min(h - 1)).any(|yy| {
                        (x.saturating_sub(1)..=(x + 1).min(w - 1))
                            .any(|xx| labels[yy * w + xx] == c.label)
                    });
                    if near {
                        strength[(y - c.y0) * bw + x - c.x0] =
                            (diff(x, y) * sign / amp).clamp(0.0, 1.0);
                    }
                }
            }
            let patch = normalise(&strength, bw, (0, 0, bw - 1, c.height() - 1));
            debug_assert_eq!(patch.len(), PATCH_W * PATCH_H);
            out.push(Glyph {
                bbox: Rect::new(
                    (c.x0 * s) as u32,
                    (c.y0 * s) as u32,
                    (c.width() * s) as u32,
                    (c.height() * s) as u32,
                ),
                patch,
                bright: sign > 0.0,
            });
        }
    }
    out
}

/// The integral image of `lum` (`w` x `h`), `(w + 1) x (h + 1)` with a zero first row and
/// column, for the local mean over about one cell. Grown a row at a time (each row zeroed just
/// before it is summed: one pass over the memory).
fn integral_image(lum: &[u8], w: usize, h: usize) -> Vec<u32> {
    let mut integral = Vec::with_capacity((w + 1) * (h + 1));
    integral.resize(w + 1, 0u32);
    for y in 0..h {
        integral.resize((y + 2) * (w + 1), 0);
        let (above, here) = integral.split_at_mut((y + 1) * (w + 1));
        let above = &above[y * (w + 1) + 1..];
        let mut row = 0u32;
        for ((out, &up), &v) in here[1..]
            .iter_mut()
            .zip(above)
            .zip(&lum[y * w..(y + 1) * w])
        {
            row += v as u32;
            *out = up + row;
        }
    }
    integral
}

/// The samples of `lum` (`w` x `h`) darker and lighter than the mean of the box of radius `rad`
/// around them by over 30 levels, from its `integral` image; none where the grid is (`grid`:
/// the sampling step and the grid's bounds in screen pixels, as `glyphs_outside_sampled`
/// gives them). One pass in integers: `lum - sum / area > 30` is
/// `lum * area > sum + 30 * area`, the same test as in floats (a box holds at most ~10^5
/// samples, so `sum / area` is never within float rounding of the threshold without being
/// on it). Row by row, so that the box's rows and the grid's columns are worked out once per
/// row.
fn contrast_masks(
    lum: &[u8],
    integral: &[u32],
    (w, h): (usize, usize),
    rad: usize,
    (s, gx0, gx1, gy0, gy1): (usize, usize, usize, usize, usize),
) -> [Vec<bool>; 2] {
    // Grown a row at a time, each row zeroed just before it is written.
    let mut masks = [Vec::with_capacity(w * h), Vec::with_capacity(w * h)];
    for y in 0..h {
        for mask in &mut masks {
            mask.resize((y + 1) * w, false);
        }
        let (y0, y1) = (y.saturating_sub(rad), (y + rad + 1).min(h));
        let rows = (y1 - y0) as u32;
        let (top, bottom) = (&integral[y0 * (w + 1)..], &integral[y1 * (w + 1)..]);
        let row_in_grid = y * s + 3 + s >= gy0 && y * s <= gy1;
        // Columns skipped as inside the grid: `x * s + 3 + s >= gx0 && x * s <= gx1`.
        let skip = if row_in_grid {
            (gx0.saturating_sub(3 + s)).div_ceil(s)..(gx1 / s + 1).min(w)
        } else {
            0..0
        };
        let lum_row = &lum[y * w..(y + 1) * w];
        let [dark, bright] = &mut masks;
        let (dark, bright) = (
            &mut dark[y * w..(y + 1) * w],
            &mut bright[y * w..(y + 1) * w],
        );
        for part in [0..skip.start.min(w), skip.end.max(skip.start)..w] {
            // Where the box lies whole inside the row its area is one number and its corners
            // are four shifted slices of the integral: a loop the compiler vectorises. The
            // clipped boxes at the row's ends are worked out one by one.
            let lo = part.start.max(rad);
            let hi = part.end.min(w.saturating_sub(rad + 1)).max(lo);
            for x in (part.start..lo.min(part.end)).chain(hi.max(part.start)..part.end) {
                let (x0, x1) = (x.saturating_sub(rad), (x + rad + 1).min(w));
                let area = (x1 - x0) as u32 * rows;
                let sum = bottom[x1] + top[x0] - top[x1] - bottom[x0];
                let v = lum_row[x] as u32;
                dark[x] = sum > (v + 30) * area;
                bright[x] = v * area > sum + 30 * area;
            }
            if lo < hi {
                let area = (2 * rad + 1) as u32 * rows;
                let (near, far) = (lo - rad..hi - rad, lo + rad + 1..hi + rad + 1);
                let corners = bottom[far.clone()]
                    .iter()
                    .zip(&top[near.clone()])
                    .zip(&top[far])
                    .zip(&bottom[near]);
                let masks = dark[lo..hi].iter_mut().zip(&mut bright[lo..hi]);
                for ((((&b1, &t0), &t1), &b0), (&v, (dk, br))) in
                    corners.zip(lum_row[lo..hi].iter().zip(masks))
                {
                    let sum = b1 + t0 - t1 - b0;
                    let v = v as u32;
                    *dk = sum > (v + 30) * area;
                    *br = v * area > sum + 30 * area;
                }
            }
        }
    }
    masks
}

/// Mean brightness of each `s` x `s` block of `img`, row-major (the screen at 1/s size).
fn block_luma(img: &Screen, s: usize) -> Vec<u8> {
    let (iw, ih) = (img.width() as usize, img.height() as usize);
    if s == 1 {
        return img.luma_region(0, 0, iw as u32, ih as u32);
    }
    let (w, h) = (iw / s, ih / s);
    let mut sums = vec![0u32; w];
    let mut out = Vec::with_capacity(w * h);
    for by in 0..h {
        sums.iter_mut().for_each(|v| *v = 0);
        for y in by * s..(by + 1) * s {
            let row_luma = &img.row(y as u32)[..w * s];
            if s == 2 {
                for (sum, pair) in sums.iter_mut().zip(row_luma.chunks_exact(2)) {
                    *sum += pair[0] as u32 + pair[1] as u32;
                }
            } else {
                for (sum, block) in sums.iter_mut().zip(row_luma.chunks_exact(s)) {
                    *sum += block.iter().map(|&v| v as u32).sum::<u32>();
                }
            }
        }
        let n = (s * s) as u32;
        if n == 4 {
            // A constant divisor: a shift, where a division by a variable costs ~20 cycles.
            out.extend(sums.iter().map(|v| (v / 4) as u8));
        } else {
            out.extend(sums.iter().map(|v| (v / n) as u8));
        }
    }
    out
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Picks the nine keypad glyphs, in digit order 1..=9, among `glyphs`. `references` are digit
/// shapes from the board: when `labelled`, `references[i]` is digit i+1 (or empty); otherwise they
/// are unlabelled shape clusters, and the keypad must match nine of them one to one.
pub fn find_keypad(
    glyphs: &[Glyph],
    references: &[Option<Vec<u8>>],
    labelled: bool,
) -> Option<[Glyph; 9]> {
    let refs: Vec<Option<Vec<f32>>> = references
        .iter()
        .map(|r| r.as_deref().map(unit_vector))
        .collect();
    let units: Vec<Vec<f32>> = glyphs.iter().map(|g| unit_vector(&g.patch)).collect();
    let best_ref = |gi: usize| {
        refs.iter()
            .enumerate()
            .filter_map(|(k, r)| r.as_ref().map(|r| (k, dot(r, &units[gi]))))
            .fold((usize::MAX, -1f32), |a, b| if b.1 > a.1 { b } else { a })
    };
    let scored: Vec<usize> = (0..glyphs.len())
        .filter(|&i| best_ref(i).1 >= 0.4)
        .collect();
    let cands = one_per_place(glyphs, &scored, |i| best_ref(i).1);
    for &i in &cands {
        log::debug!(
            "keypad candidate {:?} best {:?}",
            glyphs[i].bbox,
            best_ref(i)
        );
    }
    let mut best: Option<(f32, Vec<usize>)> = None;
    // Eight keys found and the ninth placed where the lattice has a gap (see [`ninth_key`]).
    let mut filled: Option<(f32, [Glyph; 9])> = None;
    // Keys of one polarity first; then of either, for a keypad with one key drawn selected.
    let seeds = cands.iter().flat_map(|&s| [(s, true), (s, false)]);
    for (seed, one_polarity) in seeds {
        let hs = glyphs[seed].bbox.height as f32;
        let mut same: Vec<usize> = cands
            .iter()
            .copied()
            .filter(|&i| {
                (glyphs[i].bbox.height as f32 - hs).abs() <= 0.15 * hs
                    && (!one_polarity || glyphs[i].bright == glyphs[seed].bright)
            })
            .collect();
        same.sort_by_key(|&i| (glyphs[i].centre().y, glyphs[i].centre().x));
        // Rows: glyphs whose centres are within half a glyph height.
        let mut rows: Vec<Vec<usize>> = Vec::new();
        for i in same {
            let cy = glyphs[i].centre().y as f32;
            match rows.last_mut() {
                Some(r) if (glyphs[r[0]].centre().y as f32 - cy).abs() < hs * 0.5 => r.push(i),
                _ => rows.push(vec![i]),
            }
        }
        for r in &mut rows {
            r.sort_by_key(|&i| glyphs[i].centre().x);
        }
        for start in 0..rows.len() {
            let mut pick: Vec<usize> = Vec::new();
            let mut ys: Vec<u32> = Vec::new();
            for r in &rows[start..] {
                ys.push(glyphs[r[0]].centre().y);
                pick.extend(r);
                if pick.len() >= 9 {
                    break;
                }
            }
            // Rows of keys lie close: no more than four glyph heights between two, or 1.5
            // times the keys' step along their rows (keys spaced wide, with a count under
            // each, at 1080x2340), so not a status bar's icon far above the keypad. Asked of
            // the new ways only (either polarity, a ninth key placed), so that keypads found
            // before are found as before.
            let reach = (4.0 * hs).max(1.5 * row_step(glyphs, &rows[start..start + ys.len()]));
            let close = ys.windows(2).all(|p| (p[1].abs_diff(p[0]) as f32) <= reach);
            if !close && !one_polarity {
                continue;
            }
            if pick.len() == 8 && labelled && close {
                let found = ninth_key(glyphs, &pick, (references, &refs), &units);
                if let Some((score, keys)) =
                    found.filter(|f| filled.as_ref().is_none_or(|b| f.0 > b.0))
                {
                    filled = Some((score, keys));
                }
            }
            if pick.len() != 9 {
                continue;
            }
            let score = if labelled {
                pick.iter()
                    .enumerate()
                    .map(|(d, &g)| {
                        refs.get(d)
                            .and_then(|r| r.as_ref())
                            .map_or(0.5, |r| dot(r, &units[g]))
                    })
                    .sum::<f32>()
                    / 9.0
            } else {
                let mut used = vec![false; refs.len()];
                let mut s = 0.0;
                for &g in &pick {
                    let (k, v) = best_ref(g);
                    if used[k] {
                        s -= 0.5;
                    }
                    used[k] = true;
                    s += v;
                }
                s / 9.0
            };
            if best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((score, pick));
            }
        }
    }
    let complete = best
        .filter(|(score, _)| *score >= KEYPAD_SCORE)
        .map(|(_, pick)| std::array::from_fn(|d| glyphs[pick[d]].clone()));
    log::debug!(
        "keypad: complete {}, filled {:?}",
        complete.is_some(),
        filled.as_ref().map(|f| f.0)
    );
    complete.or_else(|| filled.filter(|f| f.0 >= KEYPAD_SCORE).map(|f| f.1))
}

/// The median distance between the centres of neighbouring glyphs (indices into `glyphs`) of
/// `rows` (each left to right): a keypad's step along its rows; 0 with no row of two.
fn row_step(glyphs: &[Glyph], rows: &[Vec<usize>]) -> f32 {
    let mut steps: Vec<u32> = rows
        .iter()
        .flat_map(|r| r.windows(2))
        .map(|p| glyphs[p[1]].centre().x.abs_diff(glyphs[p[0]].centre().x))
        .collect();
    steps.sort_unstable();
    steps.get(steps.len() / 2).map_or(0.0, |&s| s as f32)
}

/// Where a keypad's missing key may be, as x and y, given its other keys `members`: in each
/// row and each column, one median step before its first key and after its last, and midway
/// between two keys 1.6 steps or more apart.
fn gap_places(members: &[&Glyph]) -> Vec<(f32, f32)> {
    let at = |c: &Glyph, by_rows: bool| {
        let p = c.centre();
        if by_rows {
            (p.x as f32, p.y as f32)
        } else {
            (p.y as f32, p.x as f32)
        }
    };
    let mut places: Vec<(f32, f32)> = Vec::new();
    // A place along a line and across it, as x and y.
    let xy = |along: f32, across: f32, by_rows: bool| {
        if by_rows {
            (along, across)
        } else {
            (across, along)
        }
    };
    for by_rows in [true, false] {
        let lines = lines(members, by_rows);
        let mut gaps: Vec<f32> = lines
            .iter()
            .flat_map(|l| {
                l.windows(2)
                    .map(|p| at(members[p[1]], by_rows).0 - at(members[p[0]], by_rows).0)
            })
            .collect();
        gaps.sort_by(f32::total_cmp);
        let Some(&step) = gaps.get(gaps.len() / 2) else {
            continue;
        };
        for l in &lines {
            let (first, last) = (
                at(members[l[0]], by_rows),
                at(members[l[l.len() - 1]], by_rows),
            );
            places.push(xy(first.0 - step, first.1, by_rows));
            places.push(xy(last.0 + step, last.1, by_rows));
            for p in l.windows(2) {
                let (a, b) = (at(members[p[0]], by_rows), at(members[p[1]], by_rows));
                if b.0 - a.0 >= 1.6 * step {
                    places.push(xy((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0, by_rows));
                }
            }
        }
    }
    places
}

/// Of `scored` glyphs (indices) at one place (one's box holding the other's centre), the one
/// with the highest `score`: a selected key draws its digit in the other polarity (light on a
/// filled face or disc), and the face or disc itself can pass for a glyph where the digit is.
fn one_per_place(glyphs: &[Glyph], scored: &[usize], score: impl Fn(usize) -> f32) -> Vec<usize> {
    scored
        .iter()
        .copied()
        .filter(|&i| {
            !scored.iter().any(|&j| {
                j != i
                    && (glyphs[j].bbox.contains(glyphs[i].centre())
                        || glyphs[i].bbox.contains(glyphs[j].centre()))
                    && (score(j), j) > (score(i), i)
            })
        })
        .collect()
}

/// A reference shape as a unit vector (`None`: no reference for that digit).
type Units = Option<Vec<f32>>;

/// The least mean likeness to the board's digits of a keypad's nine glyphs.
const KEYPAD_SCORE: f32 = 0.45;

/// A keypad of nine from `eight` of its glyphs (indices into `glyphs`, rows top to bottom) and
/// the ninth key's place, where its glyph was not found: a selected key drawn so that its digit
/// is no glyph of its own (a disc it touches, a look unlike the rest). The ninth goes where the
/// lattice of the eight has a gap (between two keys of a row or column twice as far apart as
/// the rest, or one spacing past a line's end), and only where each of the eight then is the
/// digit its place in reading order says by its best likeness to `refs` (labelled, digit
/// order). Its glyph is the board's shape of its digit, centred on its place. The score as in
/// [`find_keypad`], the missing glyph counting 0.5.
fn ninth_key(
    glyphs: &[Glyph],
    eight: &[usize],
    (raw, refs): (&[Option<Vec<u8>>], &[Units]),
    units: &[Vec<f32>],
) -> Option<(f32, [Glyph; 9])> {
    let members: Vec<&Glyph> = eight.iter().map(|&i| &glyphs[i]).collect();
    let median = |mut v: Vec<u32>| {
        v.sort_unstable();
        v.get(v.len() / 2).copied()
    };
    let (w, h) = (
        median(members.iter().map(|g| g.bbox.width).collect())?,
        median(members.iter().map(|g| g.bbox.height).collect())?,
    );
    let places = gap_places(&members);
    let mut best: Option<(f32, [Glyph; 9])> = None;
    for (x, y) in places {
        if x < w as f32 / 2.0 || y < h as f32 / 2.0 {
            continue;
        }
        let bbox = Rect::new(
            (x - w as f32 / 2.0) as u32,
            (y - h as f32 / 2.0) as u32,
            w,
            h,
        );
        if members
            .iter()
            .any(|g| g.bbox.contains(bbox.center()) || bbox.contains(g.centre()))
        {
            continue;
        }
        let ghost = Glyph {
            bbox,
            patch: Vec::new(),
            bright: false,
        };
        let mut nine: Vec<&Glyph> = members.clone();
        nine.push(&ghost);
        let order = lines(&nine, true).concat();
        let d = order.iter().position(|&k| k == 8)?;
        let mut score = 0.5;
        let mut agree = true;
        for (pos, &k) in order.iter().enumerate().filter(|&(_, &k)| k != 8) {
            let unit = &units[eight[k]];
            let best_digit = refs
                .iter()
                .enumerate()
                .filter_map(|(r, v)| v.as_ref().map(|v| (r, dot(v, unit))))
                .max_by(|a, b| a.1.total_cmp(&b.1));
            agree &= best_digit.is_some_and(|(r, _)| r == pos);
            score += refs
                .get(pos)
                .and_then(|r| r.as_ref())
                .map_or(0.5, |r| dot(r, unit));
        }
        let shape = raw.get(d).and_then(|r| r.as_ref());
        if !agree || shape.is_none() {
            continue;
        }
        let score = score / 9.0;
        if best.as_ref().is_none_or(|b| score > b.0) {
            let ghost = Glyph {
                patch: shape?.clone(),
                ..ghost
            };
            let keys: [Glyph; 9] = std::array::from_fn(|p| {
                if order[p] == 8 {
                    ghost.clone()
                } else {
                    nine[order[p]].clone()
                }
            });
            best = Some((score, keys));
        }
    }
    best
}

/// Orders of reading a keypad's glyphs: rows top to bottom (each left to right), columns left to
/// right (each top to bottom), for 1x9, 2x5, 5+4, 3x3 and two-column landscape layouts.
fn reading_orders(glyphs: &[&Glyph]) -> Vec<Vec<usize>> {
    let mut orders: Vec<Vec<usize>> = [true, false]
        .map(|by_rows| lines(glyphs, by_rows).concat())
        .into();
    orders.dedup();
    orders
}

/// The lines of `glyphs` (indices): rows top to bottom, each left to right (or, not `by_rows`,
/// columns left to right, each top to bottom). A glyph joins the line whose first glyph's centre
/// is within half the tallest glyph's height of its own.
fn lines(glyphs: &[&Glyph], by_rows: bool) -> Vec<Vec<usize>> {
    let h = glyphs.iter().map(|g| g.bbox.height).max().unwrap_or(1) as f32;
    // Primary coordinate groups glyphs into lines; the secondary orders within a line.
    let key = |g: &Glyph| {
        let c = g.centre();
        if by_rows {
            (c.y as f32, c.x as f32)
        } else {
            (c.x as f32, c.y as f32)
        }
    };
    let mut idx: Vec<usize> = (0..glyphs.len()).collect();
    idx.sort_by(|&a, &b| key(glyphs[a]).0.total_cmp(&key(glyphs[b]).0));
    let mut lines: Vec<Vec<usize>> = Vec::new();
    for i in idx {
        let p = key(glyphs[i]).0;
        match lines.last_mut() {
            Some(l) if (key(glyphs[l[0]]).0 - p).abs() < h * 0.5 => l.push(i),
            _ => lines.push(vec![i]),
        }
    }
    for l in &mut lines {
        l.sort_by(|&a, &b| key(glyphs[a]).1.total_cmp(&key(glyphs[b]).1));
    }
    lines
}

/// Do the nine `glyphs` lie on the lattice of a keypad: R rows of C keys (the [`lines`] of
/// each way), all full but the last? A glyph off the keys' rows or columns (a word's letter
/// beside them) adds a line the nine cannot fill.
fn on_a_lattice(glyphs: &[&Glyph]) -> bool {
    let (rows, cols) = (lines(glyphs, true).len(), lines(glyphs, false).len());
    let n = glyphs.len();
    rows * cols >= n && ((rows - 1) * cols < n || rows * (cols - 1) < n)
}

/// The centres of the nine digit keys on `img`, in digit order, found as calibrate finds them with
/// an app's own digit `templates` as the labelled shapes: how a stored profile's keypad is
/// checked against the screen (an app update can move the keypad and nothing else).
pub fn find_keys(img: &RgbaImage, grid: &Grid, templates: &Templates) -> Option<[Point; 9]> {
    let img = &Screen::new(img);
    let refs: Vec<Option<Vec<u8>>> = (1..=9)
        .map(|d| templates.get(d).map(<[u8]>::to_vec))
        .collect();
    // Sampled as for reading: centres to a few pixels are plenty to tell a key that moved.
    let s = ((grid.pitch() / 40.0) as usize).max(1);
    find_keypad(
        &glyphs_outside_sampled(img, grid, s, f32::INFINITY),
        &refs,
        true,
    )
    .map(|keys| keys.map(|g| g.centre()))
}

/// The digit key `img` draws selected, among the nine keys centred at `keys` (digit order): the
/// one key whose colours differ clearly from the other eight's, whatever the look (a filled
/// face, a ring, a disc, a tile). Each key is seen as the share of its box (the lattice's step
/// each way, so a ring at the key's edge is inside) in each of 64 coarse colours, which the digit's own shape barely moves;
/// a key is selected when its median distance to the others is large and clearly above every
/// other key's. `None` when no key stands out, or more than one does.
pub fn selected_key(img: &RgbaImage, keys: &[Point; 9]) -> Option<u8> {
    // The lattice's step along x (keys side by side) and along y (keys one above the other);
    // a keypad of one line has the one step both ways.
    let step = |across: fn(Point) -> u32, along: fn(Point) -> u32| {
        keys.iter()
            .flat_map(|&a| {
                keys.iter()
                    .map(move |&b| (across(a).abs_diff(across(b)), along(a).abs_diff(along(b))))
            })
            .filter(|&(d, side)| d > 0 && side * 2 < d)
            .map(|(d, _)| d)
            .min()
    };
    let (sx, sy) = (step(|p| p.x, |p| p.y), step(|p| p.y, |p| p.x));
    let (sx, sy) = (sx.or(sy)?, sy.or(sx)?);
    let (half_x, half_y) = (
        (sx / 2).saturating_sub(1).max(2),
        (sy / 2).saturating_sub(1).max(2),
    );
    let histogram = |c: Point| -> [f32; 64] {
        let mut h = [0f32; 64];
        let xs = c.x.saturating_sub(half_x)..(c.x + half_x).min(img.width());
        let ys = c.y.saturating_sub(half_y)..(c.y + half_y).min(img.height());
        let n = (xs.len() * ys.len()).max(1) as f32;
        for y in ys {
            for x in xs.clone() {
                let p = img.get_pixel(x, y).0;
                h[usize::from(p[0] >> 6) * 16
                    + usize::from(p[1] >> 6) * 4
                    + usize::from(p[2] >> 6)] += 1.0 / n;
            }
        }
        h
    };
    let hists: Vec<[f32; 64]> = keys.iter().map(|&k| histogram(k)).collect();
    let apart =
        |a: &[f32; 64], b: &[f32; 64]| a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum::<f32>();
    let medians: Vec<f32> = (0..9)
        .map(|i| {
            let mut d: Vec<f32> = (0..9)
                .filter(|&j| j != i)
                .map(|j| apart(&hists[i], &hists[j]))
                .collect();
            d.sort_by(f32::total_cmp);
            d[d.len() / 2]
        })
        .collect();
    let (key, &far) = medians
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))?;
    let next = (0..9)
        .filter(|&i| i != key)
        .map(|i| medians[i])
        .fold(0f32, f32::max);
    log::debug!("selected key: medians {medians:.2?}");
    (far >= SELECTED_APART && far >= 1.6 * next && far - next >= 0.1).then_some(key as u8 + 1)
}

/// How far (L1, 0 to 2) a selected key's colours are from the other keys' at least: a ring of
/// two pixels round a key moves 0.14 to 0.25; a digit's shape, a counter under it, or a
/// checkerboard of two whites, a few hundredths (a thin 1 among bold digits up to 0.12, which
/// the margin over the next key's, 0.1, keeps out).
const SELECTED_APART: f32 = 0.12;

/// The keypad's nine digit shapes in digit order 1..=9, only when two independent sources agree
/// on that order: the keypad's layout (read by rows or by columns) and the glyph bank's joint
/// labelling of the nine glyphs. A keypad in any other order (or none) gives `None`.
pub fn verified_keypad(img: &RgbaImage, grid: &Grid) -> Option<[Vec<u8>; 9]> {
    verified_keypad_on(&Screen::new(img), grid, super::bank::bank(), f32::INFINITY)
}

/// [`verified_keypad`] on a screen whose brightness plane the caller shares, with `bank`, on a
/// board whose digits are `digit_px` tall: keys as small as those (a tablet's, or a phone's
/// scaled down) are looked for too, with samples fine enough to keep their shape.
pub(crate) fn verified_keypad_on(
    img: &Screen,
    grid: &Grid,
    bank: &Bank,
    digit_px: f32,
) -> Option<[Vec<u8>; 9]> {
    let s = ((grid.pitch() / 40.0).min(digit_px / 20.0) as usize).max(1);
    order_keypad_with(bank, &glyphs_outside_sampled(img, grid, s, digit_px))
        .map(|keys| keys.map(|g| g.patch))
}

/// Which glyphs can matter to [`order_keypad_with`], decided by size alone before the costly glyph
/// bank scores them: a key belongs to nine glyphs of one height (within 15%), so a glyph with
/// fewer such neighbours is never a key. A glyph that could hide a key (its box holds the key's
/// centre, the overlap rule below) is kept too, with whatever could hide it in turn, so the
/// result is the same as scoring every glyph.
fn worth_scoring(glyphs: &[Glyph]) -> Vec<bool> {
    let h: Vec<f32> = glyphs.iter().map(|g| g.bbox.height as f32).collect();
    let near = |i: usize, s: usize| (h[i] - h[s]).abs() <= 0.15 * h[s];
    let big_class: Vec<bool> = (0..glyphs.len())
        .map(|s| (0..glyphs.len()).filter(|&j| near(j, s)).count() >= 9)
        .collect();
    let mut worth: Vec<bool> = (0..glyphs.len())
        .map(|i| (0..glyphs.len()).any(|s| big_class[s] && near(i, s)))
        .collect();
    loop {
        let mut grew = false;
        for i in 0..glyphs.len() {
            if !worth[i]
                && (0..glyphs.len())
                    .any(|j| worth[j] && glyphs[i].bbox.contains(glyphs[j].centre()))
            {
                worth[i] = true;
                grew = true;
            }
        }
        if !grew {
            return worth;
        }
    }
}

/// The nine keypad glyphs of [`verified_keypad`] in digit order, among glyphs already found
/// outside the grid, by the glyphs of `bank`.
fn order_keypad_with(bank: &Bank, glyphs: &[Glyph]) -> Option<[Glyph; 9]> {
    let worth = worth_scoring(glyphs);
    // Glyphs the bank takes for a clear digit, each with its best score per digit.
    let top = |s: &[f32; 9]| s.iter().cloned().fold(-1f32, f32::max);
    let mut digit_like: Vec<(usize, [f32; 9])> = glyphs
        .iter()
        .enumerate()
        .filter(|(i, _)| worth[*i])
        .map(|(i, g)| (i, bank.best_per_digit(&super::bank::feature(&g.patch))))
        .filter(|(_, s)| top(s) >= super::glyphs::MIN_SCORE)
        .collect();
    // A highlighted key draws its digit in the other polarity; where both polarities found
    // something at one place, the more digit-like one is the digit.
    digit_like.sort_by(|a, b| top(&b.1).total_cmp(&top(&a.1)));
    let mut kept: Vec<(usize, [f32; 9])> = Vec::new();
    for (i, s) in digit_like {
        let c = glyphs[i].centre();
        if !kept.iter().any(|(k, _)| glyphs[*k].bbox.contains(c)) {
            kept.push((i, s));
        }
    }
    let digit_like = kept;
    let mut best: Option<(f32, [Glyph; 9])> = None;
    let mut seen_sets: Vec<Vec<usize>> = Vec::new();
    for &(seed, _) in &digit_like {
        let hs = glyphs[seed].bbox.height as f32;
        let same: Vec<(usize, [f32; 9])> = digit_like
            .iter()
            .filter(|(i, _)| (glyphs[*i].bbox.height as f32 - hs).abs() <= 0.15 * hs)
            .cloned()
            .collect();
        let set: Vec<usize> = same.iter().map(|(i, _)| *i).collect();
        if same.len() < 9 || seen_sets.contains(&set) {
            continue;
        }
        seen_sets.push(set);
        let members: Vec<&Glyph> = same.iter().map(|(i, _)| &glyphs[*i]).collect();
        for order in reading_orders(&members) {
            // Nine glyphs in a row of the reading order; the bank must label them 1..=9 in turn.
            for window in order.windows(9) {
                let scores: Vec<[f32; 9]> = window.iter().map(|&g| same[g].1).collect();
                let Some(a) = super::glyphs::assign(&scores) else {
                    continue;
                };
                let clear = a.margin.iter().all(|&m| m >= super::glyphs::MIN_MARGIN);
                // The labels must run 1..=9 in this reading order, or in one of the nine glyphs
                // alone when they lie on a lattice of keys: a 3x3 keypad read down its columns
                // is a window of the column order (a word beside its rows can split the row
                // order) and still reads 1..=9 by its own rows.
                let runs_on = |o: &[usize]| {
                    o.iter()
                        .enumerate()
                        .all(|(d, &k)| a.digit[k] as usize == d + 1)
                };
                let nine: Vec<&Glyph> = window.iter().map(|&g| members[g]).collect();
                let agrees = runs_on(&(0..9).collect::<Vec<_>>())
                    || (on_a_lattice(&nine) && reading_orders(&nine).iter().any(|o| runs_on(o)));
                log::debug!(
                    "keypad window: digits {:?} margins {:.2?}",
                    a.digit,
                    a.margin
                );
                if !(clear && agrees) {
                    continue;
                }
                let total: f32 = a.margin.iter().sum();
                if best.as_ref().is_none_or(|(b, _)| total > *b) {
                    let mut by_digit = [0usize; 9];
                    for (k, &d) in a.digit.iter().enumerate() {
                        by_digit[d as usize - 1] = window[k];
                    }
                    best = Some((total, by_digit.map(|g| members[g].clone())));
                }
            }
        }
    }
    best.map(|(_, k)| k)
}

#[cfg(test)]
mod tests;
