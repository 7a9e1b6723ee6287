//! Digit templates: one normalised patch per digit, cut from the app's own screen by
//! `calibrate`, stored as `1.png`..`9.png` (dark ink on white, `PATCH_W` x `PATCH_H`) in a profile
//! folder, and matched by normalised cross-correlation. A digit may also have a second shape,
//! `N-keypad.png`, cut from the keypad button: apps often draw player entries in the keypad's
//! weight rather than the givens' (bold givens, regular entries).

use super::patch::{PATCH_H, PATCH_W};
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
        // In eight lanes (`bank::dot`): a sum kept in order cannot use vector instructions.
        let dot = |t: &Option<Vec<f32>>| t.as_ref().map(|t| super::bank::dot(t, &v));
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
            let (w, h) = dimensions(&path)?;
            if (w, h) != (PATCH_W as u32, PATCH_H as u32) {
                bail!(
                    "template {} is {w}x{h}, expected {PATCH_W}x{PATCH_H}; re-run `sudoku-agent calibrate`",
                    path.display()
                );
            }
            let img = decode(&path)?;
            *slot = Some(img.pixels().map(|p| 255 - p[0]).collect());
        }
        let mut alt: [Option<Vec<u8>>; 9] = Default::default();
        for (d, slot) in alt.iter_mut().enumerate() {
            let path = dir.join(format!("{}-keypad.png", d + 1));
            if !path.exists() {
                continue;
            }
            // A second shape of another size is not one of ours: skipped, unread.
            if dimensions(&path)? == (PATCH_W as u32, PATCH_H as u32) {
                *slot = Some(decode(&path)?.pixels().map(|p| 255 - p[0]).collect());
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

/// A template's size from its file header, before any decoding: a huge picture put in the
/// profile folder is refused without spending its decode time and memory.
fn dimensions(path: &Path) -> Result<(u32, u32)> {
    image::ImageReader::open(path)
        .and_then(|r| r.with_guessed_format())
        .with_context(|| format!("cannot read template {}", path.display()))?
        .into_dimensions()
        .with_context(|| format!("cannot read template {}", path.display()))
}

/// Decodes a template whose header said it is patch-sized (limits keep a lying header honest).
fn decode(path: &Path) -> Result<GrayImage> {
    let mut reader = image::ImageReader::open(path)
        .and_then(|r| r.with_guessed_format())
        .with_context(|| format!("cannot read template {}", path.display()))?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(PATCH_W as u32);
    limits.max_image_height = Some(PATCH_H as u32);
    reader.limits(limits);
    Ok(reader
        .decode()
        .with_context(|| format!("cannot read template {}", path.display()))?
        .to_luma8())
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

    /// CRC-32 (PNG's, ISO-HDLC) of `bytes`.
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    /// A PNG whose header says `w` x `h` (8-bit grey) and whose pixels are a tiny stand-in: what a
    /// decoder would have to allocate for is in the header alone.
    fn png_claiming(w: u32, h: u32) -> Vec<u8> {
        let small = GrayImage::from_pixel(4, 4, Luma([255]));
        let mut png = Vec::new();
        small
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        // Signature (8), IHDR length (4) and type (4), then width and height; CRC after 13 bytes.
        png[16..20].copy_from_slice(&w.to_be_bytes());
        png[20..24].copy_from_slice(&h.to_be_bytes());
        let crc = crc32(&png[12..29]);
        png[29..33].copy_from_slice(&crc.to_be_bytes());
        png
    }

    #[test]
    fn a_huge_template_is_refused_by_its_header_size_before_decoding() {
        let dir = std::env::temp_dir().join(format!("sa-templates-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let patch = vec![0u8; N];
        Templates::new(std::array::from_fn(|_| Some(patch.clone())))
            .save(&dir)
            .unwrap();
        std::fs::write(dir.join("5.png"), png_claiming(60_000, 60_000)).unwrap();
        let err = format!("{:#}", Templates::load(&dir).unwrap_err());
        assert!(
            err.contains("5.png is 60000x60000, expected") && err.contains("calibrate"),
            "{err}"
        );
        // A huge second shape is skipped the same way, and the patch-sized ones still load.
        std::fs::copy(dir.join("4.png"), dir.join("5.png")).unwrap();
        std::fs::write(dir.join("5-keypad.png"), png_claiming(60_000, 60_000)).unwrap();
        let t = Templates::load(&dir).unwrap();
        assert!(t.missing().is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
