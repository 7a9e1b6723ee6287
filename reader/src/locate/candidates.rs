//! Candidate grids from the two inner box lines of each axis (lines 3 and 6), for boards whose
//! outer lines are missing or whose thin lines are too faint to see: the lattice they fix is
//! scored by how much of its 20 lines is there, and its cells are for the caller to check.

use super::{Grid, Lattice, refine};
use crate::geometry::Rect;
use crate::ridges::{bits_of, coverage, ridges};
use crate::screen::Screen;

impl Grid {
    /// A candidate of `locate_grid_candidates_on` that is little more than its four inner box
    /// lines (a '#'): where the board ends is inferred, not seen, so its cells must show it.
    pub fn sparse(&self) -> bool {
        self.strength < FULL_SCORE / 20.0
    }
}

/// Strong line positions of one profile: local maxima, at least `gap` apart, strongest first.
fn peaks(profile: &[f32], gap: usize, keep: usize) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..profile.len()).filter(|&i| profile[i] > 0.0).collect();
    idx.sort_by(|&a, &b| profile[b].total_cmp(&profile[a]).then(a.cmp(&b)));
    let mut out: Vec<usize> = Vec::new();
    for i in idx {
        if out.iter().all(|&o| o.abs_diff(i) > gap) {
            out.push(i);
            if out.len() == keep {
                break;
            }
        }
    }
    out
}

/// Ridge pixels in long runs within `r` of `at`: a line's length times its thickness.
fn mass(profile: &[f32], at: f32, r: usize) -> f32 {
    let c = at.round() as i64;
    (c - r as i64..=c + r as i64)
        .filter(|&i| i >= 0 && (i as usize) < profile.len())
        .map(|i| profile[i as usize])
        .sum()
}

/// Are the inner box lines (3 and 6) of a lattice clearly heavier than its thin lines? This is
/// what tells the real grid from one shifted by a cell when an outer line is missing.
fn boxes_stand_out(lines: &[f32; 10], profile: &[f32], r: usize) -> bool {
    let m: Vec<f32> = lines.iter().map(|&p| mass(profile, p, r)).collect();
    let mut thin: Vec<f32> = [1, 2, 4, 5, 7, 8].iter().map(|&i| m[i]).collect();
    thin.sort_by(f32::total_cmp);
    m[3].min(m[6]) >= 1.15 * thin[3]
}

/// The least score of 20 lines a candidate of [`locate_grid_candidates_on`] needs: its four
/// inner box lines, nearly whole.
const SPARSE_SCORE: f32 = 3.6;
/// Below this score of 20 a candidate is little more than its inner box lines.
const FULL_SCORE: f32 = 5.0;

/// Candidate grids whose outer lines may be missing (edge to edge under an app bar, a taskbar
/// over the bottom line, no outer border, lines drawn only between boxes), best first.
///
/// Every sudoku draws the two inner box lines of each axis (lines 3 and 6) most clearly, and
/// those two alone fix the whole lattice: the box size is their distance, the outer lines lie
/// one box further out. So pairs of strong parallel lines are tried, in x and y with the same
/// box size, and scored by how much of all 20 lattice lines is really there; an outer line is
/// allowed to be absent. Callers should check the cells (digits centred in cells) before
/// trusting a candidate, since fewer lines are required than by [`locate_grid`]. `img`'s
/// brightness plane is the caller's, shared.
pub(crate) fn locate_grid_candidates_on(img: &Screen) -> Vec<Grid> {
    let (iw, ih) = img.dimensions();
    let short = iw.min(ih) as f32;
    if short < 90.0 {
        return Vec::new();
    }
    let d = ((short / 120.0).round() as usize).clamp(2, 12);
    let r = ((short / 400.0).round() as usize).clamp(2, 5);
    let min_run = ((short / 60.0) as usize).max(5);
    let region = Rect::new(0, 0, iw, ih);
    let rd = ridges(img, region, d, 12, min_run);
    // A box is a third of a grid that spans 35%..102% of the short side.
    let (b_min, b_max) = (short * 0.35 / 3.0, short * 1.02 / 3.0);
    let gap = ((short / 60.0) as usize).max(r * 2);
    let mut found: Vec<(f32, Grid)> = Vec::new();
    for polarity in 0..2 {
        let (hbit, vbit) = bits_of(polarity);
        // Pairs of strong lines one box apart, each covering most of a 3-box span; the
        // heaviest (thickest, most complete) pairs first, since box lines are drawn boldest.
        let pairs = |prof: &[f32]| -> Vec<(usize, usize)> {
            let pk = peaks(prof, gap, 14);
            let mut out = Vec::new();
            for &a in &pk {
                for &b in &pk {
                    let span = b as f32 - a as f32;
                    if span < b_min || span > b_max {
                        continue;
                    }
                    if prof[a].min(prof[b]) >= 0.45 * 3.0 * span {
                        let m = mass(prof, a as f32, r).min(mass(prof, b as f32, r));
                        out.push((m, a, b));
                    }
                }
            }
            out.sort_by(|x, y| y.0.total_cmp(&x.0));
            out.into_iter().take(10).map(|(_, a, b)| (a, b)).collect()
        };
        let (px, py) = (pairs(&rd.cols[polarity]), pairs(&rd.rows[polarity]));
        log::trace!("pairs x {px:?} y {py:?}");
        for &(xa, xb) in &px {
            for &(ya, yb) in &py {
                let (sx, sy) = ((xb - xa) as f32, (yb - ya) as f32);
                if (sx - sy).abs() > 0.08 * sx.max(sy) {
                    continue;
                }
                let lx = Lattice {
                    p0: xa as f32 - sx,
                    s: sx / 3.0,
                    score: 0.0,
                };
                let ly = Lattice {
                    p0: ya as f32 - sy,
                    s: sy / 3.0,
                    score: 0.0,
                };
                // The grid must lie on the screen (an outer line may sit just past its edge).
                let inside = |l: &Lattice, n: usize| {
                    l.p0 >= -0.5 * l.s && l.p0 + 9.0 * l.s <= n as f32 + 0.5 * l.s
                };
                if !inside(&lx, rd.w) || !inside(&ly, rd.h) {
                    continue;
                }
                let xs = refine(&lx, &rd.cols[polarity], r, d);
                let ys = refine(&ly, &rd.rows[polarity], r, d);
                let (x0, x1) = (xs[0].max(0.0), xs[9].min(rd.w as f32));
                let (y0, y1) = (ys[0].max(0.0), ys[9].min(rd.h as f32));
                let cov_h: Vec<f32> = ys
                    .iter()
                    .map(|&y| coverage(&rd, true, y, x0, x1, hbit, r))
                    .collect();
                let cov_v: Vec<f32> = xs
                    .iter()
                    .map(|&x| coverage(&rd, false, x, y0, y1, vbit, r))
                    .collect();
                let boxes_ok = [3, 6].iter().all(|&i| cov_h[i] >= 0.6 && cov_v[i] >= 0.6)
                    && boxes_stand_out(&xs, &rd.cols[polarity], r)
                    && boxes_stand_out(&ys, &rd.rows[polarity], r);
                let score: f32 = cov_h.iter().chain(&cov_v).map(|c| (c / 0.9).min(1.0)).sum();
                log::trace!(
                    "relaxed candidate polarity {polarity} x {xs:.0?} y {ys:.0?}: {score:.2}"
                );
                log::trace!(
                    "  boxes_ok {boxes_ok} cov_h {cov_h:.2?} cov_v {cov_v:.2?} stand {} {}",
                    boxes_stand_out(&xs, &rd.cols[polarity], r),
                    boxes_stand_out(&ys, &rd.rows[polarity], r)
                );
                // The four inner box lines alone (a '#', the thin lines too faint to see)
                // score about 4: kept, as sparse (see `Grid::sparse`).
                if !boxes_ok || score < SPARSE_SCORE {
                    continue;
                }
                let clamp = |v: [f32; 10], max: usize| v.map(|p| p.clamp(0.0, max as f32));
                let grid = Grid {
                    xs: clamp(xs, rd.w),
                    ys: clamp(ys, rd.h),
                    strength: score / 20.0,
                    bright_lines: polarity == 1,
                };
                let dup = found.iter().any(|(_, g)| {
                    (g.xs[0] - grid.xs[0]).abs() < 0.3 * lx.s
                        && (g.ys[0] - grid.ys[0]).abs() < 0.3 * ly.s
                        && (g.pitch() - grid.pitch()).abs() < 0.1 * lx.s
                });
                if !dup {
                    found.push((score, grid));
                }
            }
        }
    }
    found.sort_by(|a, b| b.0.total_cmp(&a.0));
    found.into_iter().map(|(_, g)| g).take(6).collect()
}
