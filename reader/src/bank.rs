//! The glyph bank: the digits 1-9 of a few hundred free typefaces (regular, bold, light, rounded,
//! condensed, serif, monospace, handwriting), normalised like a cell's digit patch and embedded in
//! the binary (`assets/glyph-bank.png`, made by `tools/glyph_bank.py`; typefaces and licences in
//! `assets/glyph-bank.tsv`). It lets the reader put a digit on a shape without any app's
//! templates: it scores a patch against every typeface's drawing of each digit.

use super::patch::{PATCH_H, PATCH_W};
use std::sync::OnceLock;

const N: usize = PATCH_W * PATCH_H;
const PNG: &[u8] = include_bytes!("../assets/glyph-bank.png");

/// The decoded bank: `faces` rows of nine zero-mean, unit-length digit vectors (slightly
/// blurred, so that stroke weight matters less than shape).
pub struct Bank {
    faces: usize,
    units: Vec<f32>,
    /// Each unit vector at half resolution ([`coarse`]), and the length of what that loses: a
    /// cheap bound on every correlation, so that only the few drawings that could be a digit's
    /// best are correlated in full.
    coarse: Vec<f32>,
    lost: Vec<f32>,
    /// The same at a quarter resolution ([`coarser`]): a looser bound, but a table small
    /// enough to stay in the CPU's cache, tried before the half-resolution one.
    coarser: Vec<f32>,
    lost_more: Vec<f32>,
}

/// Length of a [`coarse`] vector.
const C: usize = N / 4;
/// Length of a [`coarser`] vector.
const C4: usize = N / 16;

/// A feature vector projected onto patches that are constant over `k` x `k` blocks, in
/// coordinates where the dot product of two projections is the dot product of their block
/// vectors (each block's sum over `k`). With `lost` the length of what the projection drops,
/// the correlation of `a` and `b` lies within `lost(a) * lost(b)` of that dot product.
fn blocks(feat: &[f32], k: usize) -> (Vec<f32>, f32) {
    let mut c = Vec::with_capacity(N / (k * k));
    for by in 0..PATCH_H / k {
        for bx in 0..PATCH_W / k {
            let mut sum = 0.0;
            for y in 0..k {
                for x in 0..k {
                    sum += feat[(k * by + y) * PATCH_W + k * bx + x];
                }
            }
            c.push(sum / k as f32);
        }
    }
    let kept: f32 = c.iter().map(|v| v * v).sum();
    let all: f32 = feat.iter().map(|v| v * v).sum();
    (c, (all - kept).max(0.0).sqrt())
}

/// [`blocks`] of 2x2: the half-resolution bound.
fn coarse(feat: &[f32]) -> (Vec<f32>, f32) {
    blocks(feat, 2)
}

/// [`blocks`] of 4x4: the quarter-resolution bound.
fn coarser(feat: &[f32]) -> (Vec<f32>, f32) {
    blocks(feat, 4)
}

impl std::fmt::Debug for Bank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bank").field("faces", &self.faces).finish()
    }
}

/// The embedded bank, decoded on first use.
pub fn bank() -> &'static Bank {
    static BANK: OnceLock<Bank> = OnceLock::new();
    BANK.get_or_init(|| Bank::decode(PNG).expect("the embedded glyph bank is a valid PNG"))
}

impl Bank {
    fn decode(png: &[u8]) -> Option<Bank> {
        let img = image::load_from_memory(png).ok()?.to_luma8();
        let (w, h) = (img.width() as usize, img.height() as usize);
        if w != 9 * PATCH_W || h % PATCH_H != 0 || h == 0 {
            return None;
        }
        let faces = h / PATCH_H;
        let raw = img.as_raw();
        let mut units = Vec::with_capacity(faces * 9 * N);
        let mut patch = vec![0u8; N];
        for f in 0..faces {
            for d in 0..9 {
                for y in 0..PATCH_H {
                    let row = (f * PATCH_H + y) * w + d * PATCH_W;
                    patch[y * PATCH_W..(y + 1) * PATCH_W].copy_from_slice(&raw[row..row + PATCH_W]);
                }
                units.extend(feature(&patch));
            }
        }
        Some(Bank::of(faces, units))
    }

    fn of(faces: usize, units: Vec<f32>) -> Bank {
        let (mut coarse_all, mut lost) = (Vec::with_capacity(faces * 9 * C), Vec::new());
        let (mut coarser_all, mut lost_more) = (Vec::with_capacity(faces * 9 * C4), Vec::new());
        for u in units.chunks_exact(N) {
            let (c, l) = coarse(u);
            coarse_all.extend(c);
            lost.push(l);
            let (c, l) = coarser(u);
            coarser_all.extend(c);
            lost_more.push(l);
        }
        Bank {
            faces,
            units,
            coarse: coarse_all,
            lost,
            coarser: coarser_all,
            lost_more,
        }
    }

    /// Number of typefaces.
    pub fn faces(&self) -> usize {
        self.faces
    }

    /// The unit vector of `digit` (1..=9) in typeface `face`.
    fn unit(&self, face: usize, digit: u8) -> &[f32] {
        let at = (face * 9 + digit as usize - 1) * N;
        &self.units[at..at + N]
    }

    /// Correlation of a patch's feature vector (see [`feature`]) with every typeface's drawing
    /// of every digit: `out[face * 9 + digit - 1]`.
    pub fn correlations(&self, feat: &[f32]) -> Vec<f32> {
        self.units.chunks_exact(N).map(|u| dot(u, feat)).collect()
    }

    /// For each digit, the best correlation of `feat` with any typeface's drawing of it.
    ///
    /// The same numbers as the maximum over [`Bank::correlations`], found faster: a drawing is
    /// correlated in full only when its quarter-resolution bound, then its half-resolution one,
    /// say it could beat the best so far (the slack covers rounding).
    pub fn best_per_digit(&self, feat: &[f32]) -> [f32; 9] {
        let (c4f, lost4_f) = coarser(feat);
        let (cf, lost_f) = coarse(feat);
        // The quarter-resolution bound of every drawing, four at a time (see `dot4`).
        let mut bound: Vec<f32> = Vec::with_capacity(self.lost_more.len());
        let quads = self.coarser.chunks_exact(4 * C4);
        let rest = quads.remainder();
        for (quad, lost) in quads.zip(self.lost_more.chunks_exact(4)) {
            let dots = dot4(quad, &c4f);
            bound.extend(dots.iter().zip(lost).map(|(d, l)| d + l * lost4_f + 1e-4));
        }
        let done = bound.len();
        for (c, l) in rest.chunks_exact(C4).zip(&self.lost_more[done..]) {
            bound.push(dot(c, &c4f) + l * lost4_f + 1e-4);
        }
        let full = |i: usize| dot(&self.units[i * N..(i + 1) * N], feat);
        let mut best = [-1f32; 9];
        // Start each digit from the drawing with the highest bound, then the rest in order,
        // each passed over as soon as a bound says it cannot beat the best so far.
        for (d, slot) in best.iter_mut().enumerate() {
            let first = (0..self.faces)
                .map(|f| f * 9 + d)
                .max_by(|&a, &b| bound[a].total_cmp(&bound[b]));
            if let Some(i) = first {
                *slot = slot.max(full(i));
            }
        }
        for (i, &b) in bound.iter().enumerate() {
            let d = i % 9;
            if b <= best[d] {
                continue;
            }
            let half = dot(&self.coarse[i * C..(i + 1) * C], &cf) + self.lost[i] * lost_f + 1e-4;
            if half > best[d] {
                best[d] = best[d].max(full(i));
            }
        }
        best
    }

    /// The bank without the typefaces in `drop` (to measure how the reader copes with
    /// typefaces it has never seen).
    pub fn without(&self, drop: &[usize]) -> Bank {
        let keep: Vec<usize> = (0..self.faces).filter(|f| !drop.contains(f)).collect();
        let mut units = Vec::with_capacity(keep.len() * 9 * N);
        for &f in &keep {
            units.extend_from_slice(&self.units[f * 9 * N..(f + 1) * 9 * N]);
        }
        Bank::of(keep.len(), units)
    }

    /// Digit `digit` of typeface `face` as a feature vector (tests and diagnostics).
    pub fn feature_of(&self, face: usize, digit: u8) -> Vec<f32> {
        self.unit(face, digit).to_vec()
    }
}

/// Dot product in eight independent lanes, so that the compiler can use vector instructions
/// (a plain float sum must keep its order and cannot).
pub(crate) fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    acc.iter().sum::<f32>() + tail
}

/// [`dot`] of each of the four `b`-long vectors in `quad` with `b`, worked side by side: one
/// dot product is a chain of additions, each waiting for the last, where four independent
/// chains keep the CPU busy. Each is summed exactly as [`dot`] sums it (the same lanes in the
/// same order), so the same bits; with AVX where the CPU has it (one register per chain, no
/// fused multiply-add).
fn dot4(quad: &[f32], b: &[f32]) -> [f32; 4] {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx") {
        // SAFETY: the CPU has AVX, checked just above.
        return unsafe { dot4_avx(quad, b) };
    }
    dot4_lanes(quad, b)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
fn dot4_avx(quad: &[f32], b: &[f32]) -> [f32; 4] {
    dot4_lanes(quad, b)
}

#[inline(always)]
fn dot4_lanes(quad: &[f32], b: &[f32]) -> [f32; 4] {
    let n = b.len();
    debug_assert!(quad.len() == 4 * n && n.is_multiple_of(8));
    let (a0, rest) = quad.split_at(n);
    let (a1, rest) = rest.split_at(n);
    let (a2, a3) = rest.split_at(n);
    let mut acc = [[0f32; 8]; 4];
    let chunks = a0.chunks_exact(8).zip(a1.chunks_exact(8));
    let chunks = chunks.zip(a2.chunks_exact(8)).zip(a3.chunks_exact(8));
    for ((((x0, x1), x2), x3), y) in chunks.zip(b.chunks_exact(8)) {
        for k in 0..8 {
            acc[0][k] += x0[k] * y[k];
            acc[1][k] += x1[k] * y[k];
            acc[2][k] += x2[k] * y[k];
            acc[3][k] += x3[k] * y[k];
        }
    }
    // `dot` adds its (here empty) tail, an empty sum: -0.0, which leaves any sum as it is.
    let tail: f32 = std::iter::empty::<f32>().sum();
    acc.map(|lanes| lanes.iter().sum::<f32>() + tail)
}

/// The comparable form of a digit patch: a 3x3 box blur (shape over stroke weight), zero mean,
/// unit length (all zeros when flat).
pub fn feature(patch: &[u8]) -> Vec<f32> {
    debug_assert_eq!(patch.len(), N);
    let mut v = vec![0f32; N];
    for y in 0..PATCH_H {
        for x in 0..PATCH_W {
            let mut s = 0u32;
            let mut n = 0u32;
            for yy in y.saturating_sub(1)..=(y + 1).min(PATCH_H - 1) {
                for xx in x.saturating_sub(1)..=(x + 1).min(PATCH_W - 1) {
                    s += patch[yy * PATCH_W + xx] as u32;
                    n += 1;
                }
            }
            v[y * PATCH_W + x] = s as f32 / n as f32;
        }
    }
    let mean = v.iter().sum::<f32>() / N as f32;
    v.iter_mut().for_each(|x| *x -= mean);
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_bank_decodes_into_many_typefaces() {
        let b = bank();
        assert!(b.faces() >= 50, "{} faces", b.faces());
    }

    #[test]
    fn four_dot_products_side_by_side_give_the_same_bits_as_one_at_a_time() {
        let b = bank();
        // Coarse drawings of the bank against the coarse form of a few of its own drawings,
        // and against a vector of awkward magnitudes.
        let odd: Vec<f32> = (0..C)
            .map(|i| ((i * 37 % 101) as f32 - 50.0) * 1e-3)
            .collect();
        let probes = [coarse(b.unit(3, 5)).0, coarse(b.unit(40, 8)).0, odd];
        for probe in &probes {
            for quad in b.coarse.chunks_exact(4 * C).step_by(5) {
                let side_by_side = dot4(quad, probe);
                for (k, c) in quad.chunks_exact(C).enumerate() {
                    assert_eq!(side_by_side[k].to_bits(), dot(c, probe).to_bits());
                }
            }
        }
        // The same at quarter resolution.
        let probe = coarser(b.unit(7, 2)).0;
        for quad in b.coarser.chunks_exact(4 * C4).step_by(5) {
            let side_by_side = dot4(quad, &probe);
            for (k, c) in quad.chunks_exact(C4).enumerate() {
                assert_eq!(side_by_side[k].to_bits(), dot(c, &probe).to_bits());
            }
        }
    }

    #[test]
    fn the_best_per_digit_is_the_best_full_correlation() {
        let b = bank();
        for (f, d) in [(0, 1), (17, 4), (101, 9)] {
            let feat = b.feature_of(f, d);
            let mut best = [-1f32; 9];
            for (i, s) in b.correlations(&feat).iter().enumerate() {
                best[i % 9] = best[i % 9].max(*s);
            }
            assert_eq!(
                b.best_per_digit(&feat).map(f32::to_bits),
                best.map(f32::to_bits)
            );
        }
    }

    #[test]
    fn every_bank_digit_is_its_own_best_match_across_typefaces() {
        let b = bank();
        // Leave the face out: its digits must still be recognised by the other faces, for
        // nearly every face (a handful of decorative faces may not be).
        let mut wrong = 0;
        let faces: Vec<usize> = (0..b.faces()).step_by(7).collect();
        for &f in &faces {
            for d in 1..=9u8 {
                let feat = b.feature_of(f, d);
                let corr = b.correlations(&feat);
                let mut best = [-1f32; 9];
                for (i, s) in corr.iter().enumerate() {
                    if i / 9 != f {
                        best[i % 9] = best[i % 9].max(*s);
                    }
                }
                let top = (0..9).max_by(|&a, &c| best[a].total_cmp(&best[c])).unwrap();
                if top as u8 + 1 != d {
                    wrong += 1;
                }
            }
        }
        assert!(
            wrong * 20 <= faces.len() * 9,
            "{wrong} of {} digits misread",
            faces.len() * 9
        );
    }
}
