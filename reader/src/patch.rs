//! A digit's ink as a patch: the 8-connected components of an ink mask, where a digit's ink
//! really ends (to a fraction of a sample), its normalisation into the fixed-size patch that
//! templates and the glyph bank compare, and that comparison (normalised cross-correlation).
//! Shared by the cell cutter (`cells`) and the keypad search (`keypad`).

/// Size of a normalised digit patch.
pub const PATCH_W: usize = 24;
pub const PATCH_H: usize = 32;
/// A connected component of a binary mask.
#[derive(Debug, Clone, Copy)]
pub struct Component {
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

/// 8-connected components of `mask` (`w` x `h`, row-major). Labels start at 1; 0 is background;
/// components are numbered in the reading order of their first pixel. Found by runs: each
/// row's runs of set pixels, joined to the runs they touch in the row above (union-find, each
/// component's root its first run), then labelled a run at a time. A screen's masks hold long
/// runs (button faces, bars), which a pixel-by-pixel flood fill visited nine neighbours each.
pub fn components(mask: &[bool], w: usize, h: usize) -> (Vec<u32>, Vec<Component>) {
    let mut comps = Vec::new();
    // Runs (y, x0, x1 inclusive) in reading order; `row_start[y]` is row y's first run.
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    let mut row_start = Vec::with_capacity(h + 1);
    for y in 0..h {
        row_start.push(runs.len());
        let row = &mask[y * w..(y + 1) * w];
        let mut x = 0;
        while let Some(a) = next_set(row, x) {
            let b = row[a..].iter().position(|&m| !m).map_or(w, |k| a + k);
            runs.push((y, a, b - 1));
            x = b;
        }
    }
    row_start.push(runs.len());
    // Each run's parent; a root is the first run of its component (the smaller index wins).
    let mut parent: Vec<usize> = (0..runs.len()).collect();
    let root = |parent: &mut [usize], mut i: usize| {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    };
    for y in 1..h {
        let (above, here) = (
            row_start[y - 1]..row_start[y],
            row_start[y]..row_start[y + 1],
        );
        let mut j = above.start;
        for i in here {
            let (_, a, b) = runs[i];
            // Runs above that end left of `a - 1` touch neither this run nor any after it.
            while j < above.end && runs[j].2 + 1 < a {
                j += 1;
            }
            let mut k = j;
            while k < above.end && runs[k].1 <= b + 1 {
                let (ri, rk) = (root(&mut parent, i), root(&mut parent, k));
                let (lo, hi) = (ri.min(rk), ri.max(rk));
                parent[hi] = lo;
                k += 1;
            }
        }
    }
    // Labels in the order the roots come in reading order, then each run's pixels. The label
    // plane grows in reading order with the runs (background zeroed just before the next run),
    // so that each of its bytes is written once, not zeroed whole first and then filled.
    let mut labels: Vec<u32> = Vec::with_capacity(w * h);
    let mut label_of = vec![0u32; runs.len()];
    for (i, &(y, a, b)) in runs.iter().enumerate() {
        let r = root(&mut parent, i);
        if r == i {
            comps.push(Component {
                x0: usize::MAX,
                y0: y,
                x1: 0,
                y1: y,
                area: 0,
                label: comps.len() as u32 + 1,
            });
            label_of[i] = comps.len() as u32;
        } else {
            label_of[i] = label_of[r];
        }
        let label = label_of[i];
        let c = &mut comps[label as usize - 1];
        c.x0 = c.x0.min(a);
        c.x1 = c.x1.max(b);
        c.y1 = y;
        c.area += b - a + 1;
        labels.resize(y * w + a, 0);
        labels.resize(y * w + b + 1, label);
    }
    labels.resize(w * h, 0);
    (labels, comps)
}

/// The first `true` in `mask` at or after `from`. Blocks of 32 pixels without ink (most of a
/// cell or a screen) are passed over with one test the compiler vectorises.
fn next_set(mask: &[bool], from: usize) -> Option<usize> {
    let mut i = from;
    while i + 32 <= mask.len() && !mask[i..i + 32].iter().fold(false, |a, &b| a | b) {
        i += 32;
    }
    mask[i..].iter().position(|&m| m).map(|k| i + k)
}

/// Resamples the ink strength inside `bbox` (local coordinates of a `w`-wide strength buffer)
/// into a centred `PATCH_W` x `PATCH_H` patch, keeping the aspect ratio; 4x4 samples per output
/// pixel so that both shrinking and enlarging stay smooth.
pub(crate) fn normalise(strength: &[f32], w: usize, bbox: (usize, usize, usize, usize)) -> Vec<u8> {
    let (bx0, by0, bx1, by1) = bbox;
    let span = [bx0, by0, bx1 + 1, by1 + 1].map(|v| v as f32);
    normalise_span(strength, w, span)
}

/// [`normalise`] over a box with fractional edges `[x0, y0, x1, y1]` (the ink runs from `x0`
/// to `x1`, pixel `x` covering `x..x + 1`), so that where a small digit's ink really ends, not
/// the whole samples a threshold kept, sets its size in the patch. Every sample read must be
/// inside the buffer.
pub(super) fn normalise_span(strength: &[f32], w: usize, span: [f32; 4]) -> Vec<u8> {
    let [fx0, fy0, fx1, fy1] = span;
    let (bw, bh) = (fx1 - fx0, fy1 - fy0);
    let scale = (PATCH_H as f32 / bh).min(PATCH_W as f32 / bw);
    let ox = (PATCH_W as f32 - bw * scale) / 2.0;
    let oy = (PATCH_H as f32 - bh * scale) / 2.0;
    let xs = sub_sample_sources(PATCH_W * 4, ox, fx0, bw, scale);
    let ys = sub_sample_sources(PATCH_H * 4, oy, fy0, bh, scale);
    let mut out = vec![0u8; PATCH_W * PATCH_H];
    // Each output pixel sums its sub-samples row by row, left to right, as one loop over both
    // would: a whole patch row at a time, each source row's samples gathered first (0 where a
    // sub-sample falls outside: adding 0 leaves a sum as it was), then added column by column.
    // A source row sub-sampled again (a patch larger than the digit's samples takes each row
    // several times) keeps what was gathered from it.
    let mut gathered = [[0f32; PATCH_W]; 4];
    let mut gathered_from = None;
    for (ty, dst) in out.chunks_exact_mut(PATCH_W).enumerate() {
        let mut sums = [0f32; PATCH_W];
        for &y in ys[ty * 4..ty * 4 + 4].iter().flatten() {
            if gathered_from != Some(y) {
                let row = &strength[y * w..(y + 1) * w];
                for (j, g) in gathered.iter_mut().enumerate() {
                    for (tx, v) in g.iter_mut().enumerate() {
                        *v = xs[tx * 4 + j].map_or(0.0, |x| row[x]);
                    }
                }
                gathered_from = Some(y);
            }
            for g in &gathered {
                for (sum, v) in sums.iter_mut().zip(g) {
                    *sum += v;
                }
            }
        }
        for (d, sum) in dst.iter_mut().zip(sums) {
            *d = (sum / 16.0 * 255.0).round().clamp(0.0, 255.0) as u8;
        }
    }
    out
}

/// Source column (or row) of each of the `n` sub-samples (4 per output pixel) along one axis of
/// [`normalise_span`], `None` outside the box: the patch starts `o` before the box, which
/// starts at `start` and is `len` long, at `scale` patch pixels per sample. The whole part of
/// the box's edge is added after flooring, so whole-sample boxes sample exactly as they always
/// did.
fn sub_sample_sources(n: usize, o: f32, start: f32, len: f32, scale: f32) -> Vec<Option<usize>> {
    let (whole, part) = (start.floor(), start - start.floor());
    (0..n)
        .map(|i| {
            let v = ((i as f32 + 0.5) / 4.0 - o) / scale;
            (v >= 0.0 && v < len).then(|| (whole + (v + part).floor()) as usize)
        })
        .collect()
}
/// Where a digit's ink ends, to a fraction of a sample: `[x0, y0, x1, y1]` around `bb` (whole
/// samples), and `strength` filled in the ring of samples just outside it that this reaches.
///
/// A digit some twenty samples tall moves by a fraction of a sample from cell to cell, and the
/// box its thresholded ink gives grows or shrinks by a whole sample with it: 5% of its height,
/// which stretched an 8 in a disc at 720x1280 until it matched its own template at 0.81 and a 3
/// at 0.78 (0.99 in the other cells). Anti-aliasing tells where the ink ends: the outermost row
/// (or column) of the box covered only in part, and the one beyond it touched in part.
pub(super) fn ink_span(
    strength: &mut [f32],
    near: &[bool],
    diff: &[f32],
    (w, h): (usize, usize),
    bb: (usize, usize, usize, usize),
    amp: f32,
    peak: f32,
) -> [f32; 4] {
    let whole = [bb.0, bb.1, bb.2 + 1, bb.3 + 1].map(|v| v as f32);
    if peak <= 0.0 {
        return whole;
    }
    // Coverage of a sample: its strength against the digit's own solid ink; a trace below a
    // tenth is noise (JPEG ringing), not ink.
    let cover = |x: usize, y: usize| {
        let s = if near[y * w + x] {
            (diff[y * w + x] / amp).clamp(0.0, 1.0)
        } else {
            0.0
        };
        ((s / peak - 0.1) / 0.9).clamp(0.0, 1.0)
    };
    let row = |y: usize| (bb.0..=bb.2).map(|x| cover(x, y)).fold(0f32, f32::max);
    let col = |x: usize| (bb.1..=bb.3).map(|y| cover(x, y)).fold(0f32, f32::max);
    // How far an edge moves: out by the coverage beyond it, in by what its own line lacks.
    let shift = |inside: f32, outside: Option<f32>| outside.unwrap_or(0.0) - (1.0 - inside);
    let top = shift(row(bb.1), (bb.1 > 0).then(|| row(bb.1 - 1)));
    let bottom = shift(row(bb.3), (bb.3 + 1 < h).then(|| row(bb.3 + 1)));
    let left = shift(col(bb.0), (bb.0 > 0).then(|| col(bb.0 - 1)));
    let right = shift(col(bb.2), (bb.2 + 1 < w).then(|| col(bb.2 + 1)));
    let span = [
        whole[0] - left,
        whole[1] - top,
        whole[2] + right,
        whole[3] + bottom,
    ];
    if span[2] - span[0] < 1.0 || span[3] - span[1] < 1.0 {
        return whole;
    }
    // The ring just outside the box is sampled where the span reaches into it.
    let (rx0, ry0) = (bb.0.saturating_sub(1), bb.1.saturating_sub(1));
    let (rx1, ry1) = ((bb.2 + 1).min(w - 1), (bb.3 + 1).min(h - 1));
    for y in ry0..=ry1 {
        for x in rx0..=rx1 {
            let outside = x < bb.0 || x > bb.2 || y < bb.1 || y > bb.3;
            if outside && near[y * w + x] {
                strength[y * w + x] = (diff[y * w + x] / amp).clamp(0.0, 1.0);
            }
        }
    }
    span
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
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_are_eight_connected_with_boxes_and_areas() {
        #[rustfmt::skip]
        let mask = [
            1, 0, 0, 1,
            0, 1, 0, 1,
            0, 0, 0, 0,
        ].map(|v| v == 1);
        let (labels, comps) = components(&mask, 4, 3);
        assert_eq!(comps.len(), 2);
        assert_eq!((comps[0].x0, comps[0].y1, comps[0].area), (0, 1, 2));
        assert_eq!((comps[1].x0, comps[1].height(), comps[1].area), (3, 2, 2));
        assert_eq!(labels[5], labels[0]);
    }

    /// The components by a pixel-by-pixel flood fill, as they were first found: the oracle
    /// the run-based [`components`] must equal.
    fn components_by_flood(mask: &[bool], w: usize, h: usize) -> (Vec<u32>, Vec<Component>) {
        let mut labels = vec![0u32; w * h];
        let mut comps: Vec<Component> = Vec::new();
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
            stack.push((start % w, start / w));
            while let Some((x, y)) = stack.pop() {
                (c.x0, c.x1) = (c.x0.min(x), c.x1.max(x));
                (c.y0, c.y1) = (c.y0.min(y), c.y1.max(y));
                c.area += 1;
                for ny in y.saturating_sub(1)..=(y + 1).min(h - 1) {
                    for nx in x.saturating_sub(1)..=(x + 1).min(w - 1) {
                        let j = ny * w + nx;
                        if mask[j] && labels[j] == 0 {
                            labels[j] = label;
                            stack.push((nx, ny));
                        }
                    }
                }
            }
            comps.push(c);
        }
        (labels, comps)
    }

    #[test]
    fn components_by_runs_equal_a_flood_fill_on_random_masks() {
        // Masks from sparse to dense, with rows that start and end set and U shapes that join
        // late, from a fixed linear congruential sequence.
        let mut seed = 12345u64;
        for case in 0..200 {
            let (w, h) = (1 + case % 37, 1 + case * 7 % 23);
            let density = (case % 10) as u64;
            let mask: Vec<bool> = (0..w * h)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (seed >> 33) % 10 < density
                })
                .collect();
            let (labels, comps) = components(&mask, w, h);
            let (want_labels, want) = components_by_flood(&mask, w, h);
            assert_eq!(labels, want_labels, "case {case}");
            let boxes = |c: &[Component]| -> Vec<_> {
                c.iter()
                    .map(|c| (c.x0, c.y0, c.x1, c.y1, c.area, c.label))
                    .collect()
            };
            assert_eq!(boxes(&comps), boxes(&want), "case {case}");
        }
    }

    /// [`normalise_span`]'s sums as first written, one output pixel at a time: the oracle the
    /// row-at-a-time sums must equal bit for bit.
    fn normalise_by_pixel(strength: &[f32], w: usize, span: [f32; 4]) -> Vec<u8> {
        let [fx0, fy0, fx1, fy1] = span;
        let (bw, bh) = (fx1 - fx0, fy1 - fy0);
        let scale = (PATCH_H as f32 / bh).min(PATCH_W as f32 / bw);
        let (ox, oy) = (
            (PATCH_W as f32 - bw * scale) / 2.0,
            (PATCH_H as f32 - bh * scale) / 2.0,
        );
        let (xs, ys) = (
            sub_sample_sources(PATCH_W * 4, ox, fx0, bw, scale),
            sub_sample_sources(PATCH_H * 4, oy, fy0, bh, scale),
        );
        let mut out = vec![0u8; PATCH_W * PATCH_H];
        for ty in 0..PATCH_H {
            for tx in 0..PATCH_W {
                let mut sum = 0f32;
                for y in ys[ty * 4..ty * 4 + 4].iter().flatten() {
                    for x in xs[tx * 4..tx * 4 + 4].iter().flatten() {
                        sum += strength[y * w + x];
                    }
                }
                out[ty * PATCH_W + tx] = (sum / 16.0 * 255.0).round().clamp(0.0, 255.0) as u8;
            }
        }
        out
    }

    #[test]
    fn patches_sum_their_samples_as_one_pixel_at_a_time_would() {
        // Boxes wide and tall, small and large, whole and fractional, over uneven strengths.
        let (w, h) = (61, 83);
        let strength: Vec<f32> = (0..w * h)
            .map(|i| (i * 7919 % 1000) as f32 / 999.0)
            .collect();
        for span in [
            [0.0, 0.0, 61.0, 83.0],
            [3.0, 5.0, 9.0, 40.0],
            [2.4, 1.7, 50.2, 20.9],
            [10.5, 10.25, 12.75, 80.0],
            [0.3, 0.6, 60.9, 82.1],
        ] {
            assert_eq!(
                normalise_span(&strength, w, span),
                normalise_by_pixel(&strength, w, span),
                "{span:?}"
            );
        }
    }

    #[test]
    fn ncc_is_one_for_the_same_shape_and_minus_one_for_its_negative() {
        let a: Vec<u8> = (0..96).map(|i| (i * 7 % 256) as u8).collect();
        let neg: Vec<u8> = a.iter().map(|v| 255 - v).collect();
        assert!((ncc(&a, &a) - 1.0).abs() < 1e-5);
        assert!((ncc(&a, &neg) + 1.0).abs() < 1e-5);
        assert_eq!(ncc(&a, &[9; 96]), 0.0);
    }

    #[test]
    fn normalising_keeps_the_aspect_and_centres_the_digit() {
        // A 4 wide, 8 tall solid block becomes a 16x32 block centred in the 24x32 patch.
        let strength = vec![1.0f32; 4 * 8];
        let patch = normalise(&strength, 4, (0, 0, 3, 7));
        let ink_cols: Vec<usize> = (0..PATCH_W)
            .filter(|&x| patch[PATCH_H / 2 * PATCH_W + x] > 128)
            .collect();
        assert_eq!(ink_cols, (4..20).collect::<Vec<_>>());
    }
}
