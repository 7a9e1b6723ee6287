//! Finding the 9x9 grid from pixels alone. Grid lines are thin ridges (darker, or in dark themes
//! brighter, than the pixels a few steps to either side) that run far along one axis, so each
//! row and column of the screen gets a "line coverage" profile; ten equally spaced peaks in x and
//! in y with the same pitch form the grid. Pairs of candidates are then scored in 2D (how much
//! of each of the 20 lines is really there between the outer lines), which rejects keypads,
//! toolbars and text. Works on any resolution, light or dark theme, thin or thick lines.
//! Where outer or thin lines are missing, `candidates` builds the lattice from the inner box
//! lines alone.

use super::VisionError;
use super::ridges::{EITHER, Ridges, STEPS, bits_of, coverage, ridges};
use super::screen::Screen;
use crate::board::Cell;
use crate::geometry::Rect;
use image::RgbaImage;

/// The located grid: the centres of its 10 vertical and 10 horizontal lines, in screen pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    pub xs: [f32; 10],
    pub ys: [f32; 10],
    /// Mean coverage of the 20 lines, 0..1: how sure we are this is a grid.
    pub strength: f32,
    /// True when the grid lines are brighter than the cells (dark themes).
    pub bright_lines: bool,
}

impl Grid {
    /// A grid with equally spaced lines filling `rect` (used when only the rectangle is known).
    pub fn from_rect(rect: Rect) -> Grid {
        let step =
            |o: u32, span: u32| std::array::from_fn(|i| o as f32 + span as f32 * i as f32 / 9.0);
        Grid {
            xs: step(rect.x, rect.width),
            ys: step(rect.y, rect.height),
            strength: 0.0,
            bright_lines: false,
        }
    }

    /// The outer rectangle, from the first to the last line centre.
    pub fn rect(&self) -> Rect {
        let (x0, y0) = (self.xs[0].round().max(0.0), self.ys[0].round().max(0.0));
        let (x1, y1) = (self.xs[9].round(), self.ys[9].round());
        Rect::new(
            x0 as u32,
            y0 as u32,
            (x1 - x0).max(1.0) as u32,
            (y1 - y0).max(1.0) as u32,
        )
    }

    /// Mean cell size in pixels.
    pub fn pitch(&self) -> f32 {
        (self.xs[9] - self.xs[0] + self.ys[9] - self.ys[0]) / 18.0
    }

    /// The rectangle between the line centres around `cell`.
    pub fn cell_rect(&self, cell: Cell) -> Rect {
        let (r, c) = (cell.row(), cell.col());
        let x0 = self.xs[c].round().max(0.0);
        let y0 = self.ys[r].round().max(0.0);
        let x1 = self.xs[c + 1].round().max(x0 + 1.0);
        let y1 = self.ys[r + 1].round().max(y0 + 1.0);
        Rect::new(x0 as u32, y0 as u32, (x1 - x0) as u32, (y1 - y0) as u32)
    }
}

/// Finds the sudoku grid anywhere on the screen.
pub fn locate_grid(img: &RgbaImage) -> Result<Grid, VisionError> {
    locate_grid_on(&Screen::new(img))
}

/// [`locate_grid`] on a screen whose brightness plane the caller shares.
pub(crate) fn locate_grid_on(img: &Screen) -> Result<Grid, VisionError> {
    search_screen(img, &[&[0, 1], &[EITHER]])
}

/// [`locate_grid`] for boards of tiles or shaded cells where some of the ten lines each way are
/// no line but a step between two shades (boxes told apart by shade, the board's edge against
/// the page): a line may be a ridge of either polarity or a step. It proves less than lines
/// alone, so callers check the cells before trusting it (as `scan` does).
pub(crate) fn locate_grid_stepped_on(img: &Screen) -> Result<Grid, VisionError> {
    search_screen(img, &[&[STEPS]])
}

/// The grid search over the whole screen with the profile phases `phases` (see [`search`]).
fn search_screen(img: &Screen, phases: &[&[usize]]) -> Result<Grid, VisionError> {
    let (w, h) = img.dimensions();
    let short = w.min(h) as f32;
    if short < 90.0 {
        return Err(VisionError::NoGrid(format!(
            "the image is only {w}x{h} pixels"
        )));
    }
    let region = Rect::new(0, 0, w, h);
    // A grid spans at least ~45% of the short side and fits inside it.
    search(
        img,
        region,
        (short / 20.0).max(9.0),
        short / 9.0 + 2.0,
        phases,
    )
}

/// Finds the grid close to where calibration saw it: each of the 20 lines is looked for only in
/// a narrow band around its calibrated place (fast: a read costs a few hundred thousand pixel
/// tests), and refused when the lines are not there (a popup, another screen, a moved grid).
pub fn locate_grid_near(img: &RgbaImage, expected: Rect) -> Result<Grid, VisionError> {
    near(&Screen::new(img), expected, true)
}

/// [`locate_grid_near`] on a screen whose brightness plane the caller shares; not `strict`, it
/// also accepts a grid whose outer lines are missing (edge to edge, no border, a bar over a
/// line): only the inner box lines 3 and 6 must be there. That proves less, so callers check
/// the cells before trusting it (as `scan` does).
pub(crate) fn near(img: &Screen, expected: Rect, strict: bool) -> Result<Grid, VisionError> {
    let (iw, ih) = img.dimensions();
    if !expected.fits_in(crate::geometry::Size::new(iw, ih)) {
        return Err(VisionError::NoGrid(
            "the calibrated grid lies outside this screen".into(),
        ));
    }
    let short = iw.min(ih) as f32;
    let d = ((short / 120.0).round() as i64).clamp(2, 12);
    let pitch = (expected.width + expected.height) as f32 / 18.0;
    let band = ((pitch * 0.12).round() as i64).max(3);
    // One line, both polarities: (position, coverage) of the best spot in its band.
    // The gap between boxes of tiles is wider than a line: its middle has the gap on both
    // sides at `d`, so each line is also looked at with sides this far out (see `seen`).
    let wide = ((pitch * 0.16).round() as i64).max(2 * d);
    let find = |d: i64, vertical: bool, at: f32, from: u32, to: u32| -> [(f32, f32); 2] {
        let limit = if vertical { iw } else { ih } as i64;
        let step = ((to - from) as usize / 300).max(2);
        let c = at.round() as i64;
        // Spots of the band whose both sides are on the screen; the others count nothing.
        let testable = (c - band).max(d)..(c + band + 1).min(limit - d);
        let samples = if testable.is_empty() {
            0
        } else {
            (from..to).step_by(step).len()
        };
        let width = (2 * band + 1) as usize;
        let mut prof = [vec![0u32; width], vec![0u32; width]];
        // A line darker (0) or lighter (1) than both sides by over 12 at `v` between `m1`, `m2`.
        let hits = |v: u8, m1: u8, m2: u8| {
            let (v, m1, m2) = (v as i16, m1 as i16, m2 as i16);
            ((m1.min(m2) - v > 12) as u32, (v - m1.max(m2) > 12) as u32)
        };
        if !testable.is_empty() {
            let first = (testable.start - (c - band)) as usize;
            let (k0, k1, d) = (testable.start as usize, testable.end as usize, d as usize);
            let [dark, light] = &mut prof;
            let (dark, light) = (&mut dark[first..], &mut light[first..]);
            if vertical {
                // Each screen row fetched once: it holds every spot of the band.
                for a in (from..to).step_by(step) {
                    let row = img.row(a);
                    let sides = row[k0 - d..k1 - d].iter().zip(&row[k0 + d..k1 + d]);
                    let spots = row[k0..k1].iter().zip(sides);
                    for ((n0, n1), (&v, (&m1, &m2))) in
                        dark.iter_mut().zip(light.iter_mut()).zip(spots)
                    {
                        let (h0, h1) = hits(v, m1, m2);
                        *n0 += h0;
                        *n1 += h1;
                    }
                }
            } else {
                for (k, (n0, n1)) in (k0..k1).zip(dark.iter_mut().zip(light.iter_mut())) {
                    let (row, above, below) = (
                        img.row(k as u32),
                        img.row((k - d) as u32),
                        img.row((k + d) as u32),
                    );
                    for a in (from..to).step_by(step) {
                        let a = a as usize;
                        let (h0, h1) = hits(row[a], above[a], below[a]);
                        *n0 += h0;
                        *n1 += h1;
                    }
                }
            }
        }
        prof.map(|prof| {
            let peak = prof.iter().copied().max().unwrap_or(0);
            // At the very image edge a line cannot be tested (its far side is off the screen):
            // trust calibration there, as the full search does.
            let at_edge = c - d < 0 || c + d >= limit;
            if at_edge || peak == 0 || samples == 0 {
                return (at, if at_edge { 1.0 } else { 0.0 });
            }
            let (mut sw, mut swx) = (0f32, 0f32);
            for (i, &v) in prof.iter().enumerate() {
                if v * 2 >= peak {
                    sw += v as f32;
                    swx += v as f32 * (c - band + i as i64) as f32;
                }
            }
            (swx / sw, peak as f32 / samples as f32)
        })
    };
    let ex = |i: usize| expected.x as f32 + expected.width as f32 * i as f32 / 9.0;
    let ey = |i: usize| expected.y as f32 + expected.height as f32 * i as f32 / 9.0;
    // A line as thin lines are found; one seen on less than half its length is looked at
    // again with wide sides (a box gap of tiles), and each polarity keeps the better.
    let seen = |vertical: bool, at: f32, from: u32, to: u32| -> [(f32, f32); 2] {
        let thin = find(d, vertical, at, from, to);
        if thin.iter().any(|l| l.1 >= 0.5) {
            return thin;
        }
        let wider = find(wide, vertical, at, from, to);
        std::array::from_fn(|p| {
            if wider[p].1 > thin[p].1 {
                wider[p]
            } else {
                thin[p]
            }
        })
    };
    let vs: Vec<[(f32, f32); 2]> = (0..10)
        .map(|i| seen(true, ex(i), expected.y, expected.bottom()))
        .collect();
    let hs: Vec<[(f32, f32); 2]> = (0..10)
        .map(|i| seen(false, ey(i), expected.x, expected.right()))
        .collect();
    let mut best: Option<(f32, Grid)> = None;
    for (polarity, bright) in [false, true].into_iter().enumerate() {
        let mut v: Vec<(f32, f32)> = vs.iter().map(|l| l[polarity]).collect();
        let mut h: Vec<(f32, f32)> = hs.iter().map(|l| l[polarity]).collect();
        place_unseen_lines(&mut v);
        place_unseen_lines(&mut h);
        let boxes: &[usize] = if strict { &[0, 3, 6, 9] } else { &[3, 6] };
        // Relaxed, a box line may be seen on less of its length: on a board of tiles the gaps
        // cross it every pitch, and a highlighted row or column of tiles can be as pale as the
        // gap (3 grey levels apart on one app look), so 0.58 of it is all there is to see, a
        // highlighted row takes another ninth and a highlighted box a third (0.38 measured).
        // A highlighted column of such tiles beside a box line hides all of it: relaxed, one
        // of the two inner box lines of each axis is enough (the caller checks the cells).
        let box_min = if strict { 0.5 } else { 0.3 };
        let boxes_ok = if strict {
            boxes
                .iter()
                .all(|&i| v[i].1 >= box_min && h[i].1 >= box_min)
        } else {
            [&v, &h]
                .iter()
                .all(|l| boxes.iter().any(|&i| l[i].1 >= box_min))
        };
        let score: f32 = v.iter().chain(&h).map(|l| (l.1 / 0.9).min(1.0)).sum();
        log::debug!("near grid (bright {bright}): score {score:.2} v {v:.2?} h {h:.2?}");
        let min_score = if strict { 13.0 } else { 5.0 };
        if boxes_ok && score >= min_score && best.as_ref().is_none_or(|(b, _)| score > *b) {
            let grid = Grid {
                xs: std::array::from_fn(|i| v[i].0.clamp(0.0, iw as f32)),
                ys: std::array::from_fn(|i| h[i].0.clamp(0.0, ih as f32)),
                strength: score / 20.0,
                bright_lines: bright,
            };
            best = Some((score, grid));
        }
    }
    best.map(|(_, g)| g).ok_or_else(|| {
        VisionError::NoGrid(format!(
            "the grid lines are not where calibration put them ({}x{} at {},{}): is something covering the board?",
            expected.width, expected.height, expected.x, expected.y
        ))
    })
}

/// Coverage below which a line searched for in its band was not seen there: the best spot of
/// such a band is noise (a column of pencil notes, a digit's stroke), not a line.
const UNSEEN_LINE: f32 = 0.15;

/// Moves each line of one axis that was not seen (coverage below [`UNSEEN_LINE`]) to where the
/// seen lines put it: between its nearest seen neighbours, or one mean pitch of the seen lines
/// on from the last seen line. A thin line that shows no contrast against a highlighted row or
/// column, or the missing outer line of a borderless card, then stays on the lattice instead of
/// jumping to a column of notes a few pixels off. Coverages are kept, so scoring is unchanged.
fn place_unseen_lines(lines: &mut [(f32, f32)]) {
    let seen: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].1 >= UNSEEN_LINE)
        .collect();
    let (Some(&first), Some(&last)) = (seen.first(), seen.last()) else {
        return;
    };
    if first == last {
        return;
    }
    let pitch = (lines[last].0 - lines[first].0) / (last - first) as f32;
    for i in 0..lines.len() {
        if lines[i].1 >= UNSEEN_LINE {
            continue;
        }
        let before = seen.iter().rev().find(|&&j| j < i);
        let after = seen.iter().find(|&&j| j > i);
        lines[i].0 = match (before, after) {
            (Some(&a), Some(&b)) => {
                lines[a].0 + (lines[b].0 - lines[a].0) * (i - a) as f32 / (b - a) as f32
            }
            (Some(&a), None) => lines[a].0 + pitch * (i - a) as f32,
            (None, Some(&b)) => lines[b].0 - pitch * (b - i) as f32,
            (None, None) => lines[i].0,
        };
    }
}

/// Ten equally spaced line positions along one axis (region coordinates).
#[derive(Debug, Clone, Copy)]
struct Lattice {
    p0: f32,
    s: f32,
    score: f32,
}

fn max_filter(v: &[f32], r: usize) -> Vec<f32> {
    (0..v.len())
        .map(|i| {
            let lo = i.saturating_sub(r);
            let hi = (i + r + 1).min(v.len());
            v[lo..hi].iter().copied().fold(0.0, f32::max)
        })
        .collect()
}

/// How present a line at `p` is: coverage 0..1, or 1 when `p` falls in the untestable strip at
/// the image edge (a grid cropped right at its outer lines). `covered[i]` is the coverage of a
/// line at pixel `i` (the filtered profile over the full coverage of one lattice's span).
fn line_strength(covered: &[f32], p: f32, d: usize, r: usize, edge: (bool, bool)) -> f32 {
    let n = covered.len() as f32;
    if p < -(r as f32) - 1.0 || p > n + r as f32 {
        return 0.0;
    }
    if (edge.0 && p < (d + r) as f32) || (edge.1 && p > n - 1.0 - (d + r) as f32) {
        return 1.0;
    }
    covered[round_index(p, covered.len())]
}

/// `p.round().clamp(0.0, len - 1.0) as usize` without a call to the C library's `roundf` (the
/// grid search does this millions of times): exact, since `p - trunc(p)` is exact in f32.
fn round_index(p: f32, len: usize) -> usize {
    if p <= 0.0 {
        return 0;
    }
    if p >= len as f32 {
        return len - 1;
    }
    // Through 32-bit integers (exact below `len`): one instruction each way, where 64-bit
    // unsigned conversions take several with branches.
    let t = p as i32;
    let i = t as usize + (p - t as f32 >= 0.5) as usize;
    i.min(len - 1)
}

/// [`round_index`] for `p` known to lie in `0.0..len` (the batched lattices' lines): the
/// same index without the edge tests.
#[inline]
fn round_inside(p: f32) -> usize {
    let t = p as i32;
    t as usize + (p - t as f32 >= 0.5) as usize
}

/// The best few lattices of one profile, best first, no two alike.
fn best_lattices(
    profile: &[f32],
    d: usize,
    r: usize,
    s_range: (f32, f32),
    edge: (bool, bool),
) -> Vec<Lattice> {
    let filtered = max_filter(profile, r);
    let n = profile.len() as f32;
    let mut all = Vec::new();
    let mut s = s_range.0;
    let mut covered = vec![0f32; filtered.len()];
    // Lattices whose lines all lie this far inside the profile need none of `line_strength`'s
    // edge cases: their lines' strengths are plain look-ups.
    let mut sums: Vec<f32> = Vec::new();
    let (inner_lo, inner_hi) = ((d + r) as f32, n - 2.0 - (d + r) as f32);
    while s <= s_range.1 {
        let norm = 9.0 * s * 0.85;
        for (c, &f) in covered.iter_mut().zip(&filtered) {
            *c = (f / norm).min(1.0);
        }
        let lo = -(r as f32) - 1.0;
        let hi = n + r as f32 - 9.0 * s;
        let mut p0 = lo.ceil();
        // The three best offsets for this pitch, best first (earlier offsets first on ties).
        let mut best: Vec<Lattice> = Vec::with_capacity(4);
        let (mut last_bar, mut first_check) = (f32::NAN, 0);
        let insert = |best: &mut Vec<Lattice>, p0: f32, score: f32| {
            if score > 4.0 && (best.len() < 3 || score > best[2].score) {
                let at = best
                    .iter()
                    .position(|b| score > b.score)
                    .unwrap_or(best.len());
                best.insert(at, Lattice { p0, s, score });
                best.truncate(3);
            }
        };
        // The offsets whose lines all lie this far inside: `first..=last`.
        let first = p0.max(inner_lo.ceil());
        let last = hi.min(inner_hi - 9.0 * s).floor();
        while p0 <= hi {
            // The offsets whose lines all lie inside are scored side by side: each score is
            // the sum of ten shifted copies of `covered` (line i of offset p0 at p0 plus i
            // pitches, rounded), added in line order as one by one, then kept in order.
            if p0 == first && first <= last {
                let count = (last - first) as usize + 1;
                let start = first as usize;
                sums.clear();
                sums.resize(count, 0.0);
                for i in 0..10 {
                    let at = start + round_inside(i as f32 * s);
                    for (sum, c) in sums.iter_mut().zip(&covered[at..at + count]) {
                        *sum += c;
                    }
                }
                for (k, &score) in sums.iter().enumerate() {
                    insert(&mut best, first + k as f32, score);
                }
                p0 = last + 1.0;
                continue;
            }
            // A lattice that cannot beat the third best (or 4) even with every line still to
            // come at full strength is dropped early; the rest sum their lines in order.
            let bar = if best.len() < 3 {
                4.0
            } else {
                best[2].score.max(4.0)
            };
            if bar != last_bar {
                // Before line `first_check` the lines still to come alone reach the bar, so no
                // lattice can be dropped there (scores are never negative).
                last_bar = bar;
                first_check = (0..10)
                    .find(|&i| (9 - i) as f32 + 1e-3 <= bar)
                    .unwrap_or(10);
            }
            let mut score = 0f32;
            for i in 0..10 {
                score += line_strength(&covered, p0 + i as f32 * s, d, r, edge);
                if i >= first_check && score + (9 - i) as f32 + 1e-3 <= bar {
                    break;
                }
            }
            insert(&mut best, p0, score);
            p0 += 1.0;
        }
        all.extend(best);
        s += 0.5;
    }
    all.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.p0.total_cmp(&b.p0))
            .then(a.s.total_cmp(&b.s))
    });
    let mut out: Vec<Lattice> = Vec::new();
    for l in all {
        let dup = out
            .iter()
            .any(|o| (o.s - l.s).abs() < 0.06 * o.s && (o.p0 - l.p0).abs() < o.s * 0.5);
        if !dup {
            out.push(l);
            if out.len() == 6 {
                break;
            }
        }
    }
    out
}

/// Moves each lattice line to the centroid of the profile near it, so uneven line widths and
/// rounding do not shift the cells. Untestable edge lines are extrapolated.
fn refine(l: &Lattice, profile: &[f32], r: usize, d: usize) -> [f32; 10] {
    let n = profile.len();
    let mut out = [0f32; 10];
    let mut known = [false; 10];
    for (i, o) in out.iter_mut().enumerate() {
        let p = l.p0 + i as f32 * l.s;
        *o = p;
        let c = p.round() as i64;
        let rr = (r + 1) as i64;
        if c - rr < d as i64 || c + rr >= (n - d) as i64 {
            continue;
        }
        let (mut sw, mut swx) = (0f32, 0f32);
        let peak = (c - rr..=c + rr)
            .map(|j| profile[j as usize])
            .fold(0.0, f32::max);
        for j in c - rr..=c + rr {
            let v = profile[j as usize];
            if v >= peak * 0.5 {
                sw += v;
                swx += v * j as f32;
            }
        }
        if sw > 0.0 {
            *o = swx / sw;
            known[i] = true;
        }
    }
    // Lines we could not see sit one mean pitch from their neighbours.
    if !known[0] && known[1] {
        out[0] = out[1] - l.s;
    }
    if !known[9] && known[8] {
        out[9] = out[8] + l.s;
    }
    out
}

/// Is a line at `p` (across an axis of `n` pixels) too close to the edge to be tested, as
/// [`coverage`] sees it?
fn in_edge_strip(p: f32, n: usize, d: usize, r: usize) -> bool {
    let c = p.round() as i64;
    let edge = (d + r) as i64;
    c < edge || c >= n as i64 - edge
}

/// One line search over a region: its ridge maps and the fixed sizes every lattice check uses.
struct Search<'a> {
    rd: &'a Ridges,
    /// Ridge distance and line radius (pixels).
    d: usize,
    r: usize,
    /// Which region sides are the real image border (only there can an outer line hide).
    edge_x: (bool, bool),
    edge_y: (bool, bool),
    /// The image size, where outer lines cut off by its edge are clamped.
    size: (u32, u32),
}

/// A lattice pair checked in 2D: its score, its grid, and which outer lines it takes on trust
/// (in the untestable strip at the image edge: [x start, x end, y start, y end]).
type Checked = (f32, Grid, [bool; 4]);

/// The grid search over `region`, trying the profile indices of each phase in turn until one
/// gives a grid.
fn search(
    img: &Screen,
    region: Rect,
    s_min: f32,
    s_max: f32,
    phases: &[&[usize]],
) -> Result<Grid, VisionError> {
    let (iw, ih) = img.dimensions();
    let short = iw.min(ih) as f32;
    let d = ((short / 120.0).round() as usize).clamp(2, 12);
    let r = ((short / 400.0).round() as usize).clamp(2, 5);
    let min_run = ((short / 60.0) as usize).max(5);
    let mut rd = ridges(img, region, d, 12, min_run);
    let mut best: Option<(f32, Grid)> = None;
    // Lines of one polarity first; a grid whose lines are lighter than its cells in places and
    // darker in others only when neither alone gives a grid.
    for &polarities in phases {
        if best.is_some() {
            break;
        }
        for &p in polarities.iter().filter(|&&p| p >= EITHER) {
            rd.add(p);
        }
        let search = Search {
            rd: &rd,
            d,
            r,
            edge_x: (region.x == 0, region.right() == iw),
            edge_y: (region.y == 0, region.bottom() == ih),
            size: (iw, ih),
        };
        for &polarity in polarities {
            for (lx, ly) in search.likeliest_pairs(polarity, (s_min, s_max)) {
                let Some(checked) = search.evaluate(polarity, &lx, &ly) else {
                    continue;
                };
                let (score, grid) = search.one_cell_in(polarity, &lx, &ly, checked);
                if best.as_ref().is_none_or(|(b, _)| score > *b + 1e-3) {
                    best = Some((score, grid));
                }
            }
        }
    }
    best.map(|(_, g)| g).ok_or_else(|| {
        VisionError::NoGrid("no 10 x 10 equally spaced lines forming a square".into())
    })
}

impl Search<'_> {
    /// The likeliest pairs of x and y lattices of one polarity (0 dark lines, 1 bright): square
    /// cells only, so that the 2D check (the costly part) runs on few.
    fn likeliest_pairs(&self, polarity: usize, s_range: (f32, f32)) -> Vec<(Lattice, Lattice)> {
        let (rd, d, r) = (self.rd, self.d, self.r);
        let xl = best_lattices(&rd.cols[polarity], d, r, s_range, self.edge_x);
        let yl = best_lattices(&rd.rows[polarity], d, r, s_range, self.edge_y);
        let mut pairs: Vec<(Lattice, Lattice)> = xl
            .iter()
            .flat_map(|lx| yl.iter().map(move |ly| (*lx, *ly)))
            .filter(|(lx, ly)| (lx.s - ly.s).abs() <= 0.1 * lx.s.max(ly.s))
            .collect();
        pairs.sort_by(|a, b| (b.0.score + b.1.score).total_cmp(&(a.0.score + a.1.score)));
        pairs.truncate(8);
        pairs
    }

    /// One lattice pair checked in 2D: [`Checked`] when its box and outer lines are clearly
    /// there.
    fn evaluate(&self, polarity: usize, lx: &Lattice, ly: &Lattice) -> Option<Checked> {
        let (rd, r) = (self.rd, self.r);
        let (hbit, vbit) = bits_of(polarity);
        let xs = refine(lx, &rd.cols[polarity], r, self.d);
        let ys = refine(ly, &rd.rows[polarity], r, self.d);
        let cov_h: Vec<f32> = ys
            .iter()
            .map(|&y| coverage(rd, true, y, xs[0], xs[9], hbit, r))
            .collect();
        let cov_v: Vec<f32> = xs
            .iter()
            .map(|&x| coverage(rd, false, x, ys[0], ys[9], vbit, r))
            .collect();
        let score: f32 = cov_h.iter().chain(&cov_v).map(|c| (c / 0.9).min(1.0)).sum();
        log::trace!(
            "grid candidate polarity {polarity} x {:.1}+{:.2} y {:.1}+{:.2}: {score:.2} h {cov_h:.2?} v {cov_v:.2?}",
            lx.p0,
            lx.s,
            ly.p0,
            ly.s
        );
        // Box and outer lines must be clearly there; thin lines may be faint.
        let boxes_ok = [0, 3, 6, 9]
            .iter()
            .all(|&i| cov_h[i] >= 0.5 && cov_v[i] >= 0.5);
        if !boxes_ok || score < 13.0 {
            return None;
        }
        let (edge_x, edge_y) = (self.edge_x, self.edge_y);
        let trust = [
            edge_x.0 && in_edge_strip(xs[0], rd.w, rd.d, r),
            edge_x.1 && in_edge_strip(xs[9], rd.w, rd.d, r),
            edge_y.0 && in_edge_strip(ys[0], rd.h, rd.d, r),
            edge_y.1 && in_edge_strip(ys[9], rd.h, rd.d, r),
        ];
        // A line taken on trust stands for the grid's outer line only beside a line that
        // is really there: a margin's or a bar's edge one cell from a grid whose outer line
        // does not show makes a lattice shifted by one cell, its first inner line missing.
        let beside = [cov_v[1], cov_v[8], cov_h[1], cov_h[8]];
        if trust.iter().zip(beside).any(|(&t, c)| t && c < 0.5) {
            log::trace!("  an outer line on trust beside a missing line: refused");
            return None;
        }
        let shift = |v: [f32; 10], o: u32| v.map(|p| p + o as f32);
        // An outer line cut off by the image edge sits on that edge.
        let clamp = |v: [f32; 10], max: u32| v.map(|p| p.clamp(0.0, max as f32));
        let grid = Grid {
            xs: clamp(shift(xs, rd.x0), self.size.0),
            ys: clamp(shift(ys, rd.y0), self.size.1),
            strength: score / 20.0,
            bright_lines: polarity == 1,
        };
        Some((score, grid, trust))
    }

    /// A lattice with an outer line on trust is also tried one cell further in on that axis:
    /// when that one's far outer line is really there (and its box lines), it is the grid, and
    /// the trusted line was an edge one cell off the grid (the image edge a cell above the
    /// grid, a status bar's edge). Returns the score and grid to keep.
    fn one_cell_in(
        &self,
        polarity: usize,
        lx: &Lattice,
        ly: &Lattice,
        (score, grid, trust): Checked,
    ) -> (f32, Grid) {
        let inward = |l: &Lattice, dir: f32| Lattice {
            p0: l.p0 + dir * l.s,
            ..*l
        };
        let mut tries = Vec::new();
        for (k, dir) in [(0, 1.0), (1, -1.0)] {
            // The far outer line of the shifted lattice, which must be seen.
            let far = 1 - k;
            if trust[k] {
                tries.push((inward(lx, dir), *ly, far));
            }
            if trust[2 + k] {
                tries.push((*lx, inward(ly, dir), 2 + far));
            }
        }
        for (tx, ty, far) in tries {
            if let Some((s2, g2, t2)) = self.evaluate(polarity, &tx, &ty)
                && !t2[far]
                && !t2.iter().zip(&trust).any(|(&a, &b)| a && !b)
            {
                log::trace!("  one cell further in, all its outer lines seen: {s2:.2}");
                return (s2, g2);
            }
        }
        (score, grid)
    }
}

impl Grid {
    /// This lattice moved a cell: `right` (or left) when `across`, else down (or up). Its first
    /// (last) line on that axis is dropped and one put a cell beyond its last (first), the cell
    /// there as wide as the one it is beside.
    pub(crate) fn slid_a_cell(&self, across: bool, forward: bool) -> Grid {
        let slide = |v: &[f32; 10]| -> [f32; 10] {
            if forward {
                std::array::from_fn(|i| if i < 9 { v[i + 1] } else { 2.0 * v[9] - v[8] })
            } else {
                std::array::from_fn(|i| if i > 0 { v[i - 1] } else { 2.0 * v[0] - v[1] })
            }
        };
        let mut g = self.clone();
        if across {
            g.xs = slide(&self.xs);
        } else {
            g.ys = slide(&self.ys);
        }
        g
    }

    /// This grid, found on a screen scaled down by `factor` (2 for [`half_size`]), in the
    /// coordinates of the full screen.
    pub(crate) fn scaled_up(&self, factor: f32, full: (u32, u32)) -> Grid {
        let up = |v: [f32; 10], max: u32| {
            v.map(|p| (p * factor + (factor - 1.0) / 2.0).clamp(0.0, max as f32))
        };
        Grid {
            xs: up(self.xs, full.0),
            ys: up(self.ys, full.1),
            ..self.clone()
        }
    }
}

/// How far (pixels, largest of the four outer edges) the grid found on a screen is from
/// `expected`, where a calibration has it.
pub fn grid_offset(found: &Grid, expected: Rect) -> f32 {
    let g = expected;
    [
        found.xs[0] - g.x as f32,
        found.ys[0] - g.y as f32,
        found.xs[9] - (g.x + g.width) as f32,
        found.ys[9] - (g.y + g.height) as f32,
    ]
    .into_iter()
    .fold(0f32, |m, d| m.max(d.abs()))
}

/// The most a grid may sit from where the calibration has it and still be tapped there: a few
/// pixels is the locator's own wobble, a fiftieth of the grid is a new layout.
pub fn grid_tolerance(expected: Rect) -> f32 {
    (expected.width as f32 / 50.0).max(4.0)
}

mod candidates;

pub(crate) use candidates::locate_grid_candidates_on;

#[cfg(test)]
mod tests;
