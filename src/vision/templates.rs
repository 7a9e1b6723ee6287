//! Digit templates: one normalised patch per digit, cut from the app's own screen by
//! `calibrate`, stored as `1.png`..`9.png` (dark ink on white, `PATCH_W` x `PATCH_H`) in a profile
//! folder, and matched by normalised cross-correlation. A digit may also have a second shape,
//! `N-keypad.png`, cut from the keypad button: apps often draw player entries in the keypad's
//! weight rather than the givens' (bold givens, regular entries).

use super::cells::{PATCH_H, PATCH_W};
use anyhow::{Context, Result, bail};
use image::{GrayImage, Luma};
use std::path::Path;

const N: usize = PATCH_W * PATCH_H;

/// The nine reference digits of one profile.
#[derive(Debug, Clone, PartialEq)]
pub struct Templates {
    raw: [Option<Vec<u8>>; 9],
    alt: [Option<Vec<u8>>; 9],
    /// Zero-mean, unit-length copies of `raw` and `alt`, ready for dot products.
    unit: [Option<Vec<f32>>; 9],
    alt_unit: [Option<Vec<f32>>; 9],
}

/// Zero-mean, unit-length version of a patch (all zeros when it is flat).
pub(crate) fn unit_vector(patch: &[u8]) -> Vec<f32> {
    let mean = patch.iter().map(|&v| v as f32).sum::<f32>() / patch.len() as f32;
    let mut v: Vec<f32> = patch.iter().map(|&p| p as f32 - mean).collect();
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
    v
}

impl Templates {
    /// Templates from patches, index 0 holding digit 1; `None` where a digit is unknown.
    pub fn new(raw: [Option<Vec<u8>>; 9]) -> Templates {
        Templates::with_alternates(raw, Default::default())
    }

    /// Templates with a second shape for some digits (see the module doc).
    pub fn with_alternates(raw: [Option<Vec<u8>>; 9], alt: [Option<Vec<u8>>; 9]) -> Templates {
        let unit = std::array::from_fn(|i| raw[i].as_deref().map(unit_vector));
        let alt_unit = std::array::from_fn(|i| alt[i].as_deref().map(unit_vector));
        Templates {
            raw,
            alt,
            unit,
            alt_unit,
        }
    }

    /// The patch of `digit` (1..=9), if known.
    pub fn get(&self, digit: u8) -> Option<&[u8]> {
        self.raw.get(digit as usize - 1)?.as_deref()
    }

    /// Digits that have no template.
    pub fn missing(&self) -> Vec<u8> {
        (1..=9).filter(|&d| self.get(d).is_none()).collect()
    }

    /// The two best digits for a patch with their correlation, best first.
    pub fn best_two(&self, patch: &[u8]) -> [(u8, f32); 2] {
        let v = unit_vector(patch);
        let mut best = [(0u8, -1f32), (0u8, -1f32)];
        let dot = |t: &Option<Vec<f32>>| {
            t.as_ref()
                .map(|t| t.iter().zip(&v).map(|(a, b)| a * b).sum::<f32>())
        };
        for i in 0..9 {
            let s = match (dot(&self.unit[i]), dot(&self.alt_unit[i])) {
                (Some(a), Some(b)) => a.max(b),
                (Some(a), None) => a,
                _ => continue,
            };
            if s > best[0].1 {
                best[1] = best[0];
                best[0] = (i as u8 + 1, s);
            } else if s > best[1].1 {
                best[1] = (i as u8 + 1, s);
            }
        }
        best
    }

    /// Reads `1.png`..`9.png` from `dir`; every digit must be there.
    pub fn load(dir: &Path) -> Result<Templates> {
        let mut raw: [Option<Vec<u8>>; 9] = Default::default();
        let mut missing = Vec::new();
        for (d, slot) in raw.iter_mut().enumerate() {
            let path = dir.join(format!("{}.png", d + 1));
            if !path.exists() {
                missing.push(format!("{}.png", d + 1));
                continue;
            }
            let img = image::open(&path)
                .with_context(|| format!("cannot read template {}", path.display()))?
                .to_luma8();
            if img.dimensions() != (PATCH_W as u32, PATCH_H as u32) {
                bail!(
                    "template {} is {}x{}, expected {PATCH_W}x{PATCH_H}; re-run `sudoku-agent calibrate`",
                    path.display(),
                    img.width(),
                    img.height()
                );
            }
            *slot = Some(img.pixels().map(|p| 255 - p[0]).collect());
        }
        let mut alt: [Option<Vec<u8>>; 9] = Default::default();
        for (d, slot) in alt.iter_mut().enumerate() {
            let path = dir.join(format!("{}-keypad.png", d + 1));
            if !path.exists() {
                continue;
            }
            let img = image::open(&path)
                .with_context(|| format!("cannot read template {}", path.display()))?
                .to_luma8();
            if img.dimensions() == (PATCH_W as u32, PATCH_H as u32) {
                *slot = Some(img.pixels().map(|p| 255 - p[0]).collect());
            }
        }
        if !missing.is_empty() {
            bail!(
                "digit templates missing in {}: {}; re-run `sudoku-agent calibrate` to cut them",
                dir.display(),
                missing.join(", ")
            );
        }
        Ok(Templates::with_alternates(raw, alt))
    }

    /// Writes `1.png`..`9.png` into `dir` (created if needed); unknown digits are skipped.
    pub fn save(&self, dir: &Path) -> Result<()> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create template folder {}", dir.display()))?;
        let all = self
            .raw
            .iter()
            .enumerate()
            .map(|(d, r)| (format!("{}.png", d + 1), r));
        let alts = self
            .alt
            .iter()
            .enumerate()
            .map(|(d, r)| (format!("{}-keypad.png", d + 1), r));
        for (name, raw) in all.chain(alts) {
            let Some(raw) = raw else { continue };
            debug_assert_eq!(raw.len(), N);
            let img = GrayImage::from_fn(PATCH_W as u32, PATCH_H as u32, |x, y| {
                Luma([255 - raw[y as usize * PATCH_W + x as usize]])
            });
            let path = dir.join(name);
            img.save(&path)
                .with_context(|| format!("cannot write template {}", path.display()))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bar(at: usize) -> Vec<u8> {
        (0..N)
            .map(|i| if i % PATCH_W == at { 255 } else { 0 })
            .collect()
    }

    #[test]
    fn best_two_ranks_digits_by_correlation_and_uses_second_shapes() {
        let mut raw: [Option<Vec<u8>>; 9] = Default::default();
        raw[0] = Some(bar(3));
        raw[6] = Some(bar(5));
        let mut alt: [Option<Vec<u8>>; 9] = Default::default();
        alt[3] = Some(bar(12));
        raw[3] = Some(bar(20));
        let t = Templates::with_alternates(raw, alt);
        assert_eq!(t.missing(), vec![2, 3, 5, 6, 8, 9]);
        let [best, second] = t.best_two(&bar(3));
        assert_eq!(best.0, 1);
        assert!((best.1 - 1.0).abs() < 1e-3, "{best:?}");
        assert!(second.1 < 0.1);
        assert_eq!(
            t.best_two(&bar(12))[0].0,
            4,
            "the keypad shape of 4 matches"
        );
    }
}
