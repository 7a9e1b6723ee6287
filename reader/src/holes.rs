//! Holes in a digit's drawing: the paper a stroke closes all round. Typefaces differ in shape
//! (a handwritten 2 and 8 can correlate alike with every printed face) but agree on holes: an
//! 8 has two, a 4, 6 or 9 one at most, a 1, 2, 3, 5 or 7 none. A digit drawn bold or small
//! may have a hole filled in, never one added, so the holes a patch shows are a floor: a shape
//! with more holes than a digit ever has is not that digit.

use super::patch::{PATCH_H, PATCH_W};
use image::{GrayImage, Luma};
use imageproc::region_labelling::{Connectivity, connected_components};

/// The most holes each digit (1..=9, index `digit - 1`) has in a plain typeface.
pub const MOST: [usize; 9] = [0, 0, 0, 1, 0, 1, 0, 2, 1];

/// Paper is a patch value below this (the patch is ink strength, 255 full ink)...
const PAPER: u8 = 128;
/// ... and a hole holds a pixel this clearly paper, ...
const CLEAR_PAPER: u8 = 64;
/// ... and at least this many paper pixels of the 24 x 32 patch (a speck in a blot is no hole).
const MIN_AREA: usize = 6;

/// The holes in a digit patch: 4-connected areas of paper (imageproc's labelling) that do not
/// reach the patch's edge, each large enough and clearly paper somewhere.
pub fn holes(patch: &[u8]) -> usize {
    debug_assert_eq!(patch.len(), PATCH_W * PATCH_H);
    let (w, h) = (PATCH_W as u32, PATCH_H as u32);
    let paper = GrayImage::from_fn(w, h, |x, y| {
        Luma([u8::from(patch[(y * w + x) as usize] < PAPER)])
    });
    let labels = connected_components(&paper, Connectivity::Four, Luma([0u8]));
    // Per label: area, reaches the edge, holds a clearly paper pixel.
    let mut areas: Vec<(usize, bool, bool)> = Vec::new();
    for (x, y, l) in labels.enumerate_pixels() {
        let l = l[0] as usize;
        if l == 0 {
            continue;
        }
        if areas.len() < l {
            areas.resize(l, (0, false, false));
        }
        let a = &mut areas[l - 1];
        a.0 += 1;
        a.1 |= x == 0 || y == 0 || x == w - 1 || y == h - 1;
        a.2 |= patch[(y * w + x) as usize] < CLEAR_PAPER;
    }
    areas
        .iter()
        .filter(|&&(area, edge, clear)| !edge && clear && area >= MIN_AREA)
        .count()
}

/// Taken off a digit's bank score for a shape with more holes than that digit ever has:
/// enough to turn the close calls of a typeface the bank lacks (a handwritten 8 that
/// correlates with 2s as well as with 8s), not a clear reading.
pub const PENALTY: f32 = 0.2;

/// Does the typeface draw holes as plain typefaces do? Every group the bank reads clearly
/// (`clear` on its scores, `scores[group][digit - 1]`) has no more holes than its digit, and
/// no group has more than two. Outline and inline typefaces put holes in every digit; a clear
/// 2 with a loop (a curly typeface) says this one does not follow the rule either.
pub fn plain(scores: &[[f32; 9]], holes: &[usize], clear: impl Fn(&[f32; 9]) -> bool) -> bool {
    scores.iter().zip(holes).all(|(s, &h)| {
        let best = (0..9).fold(0, |b, d| if s[d] > s[b] { d } else { b });
        h <= 2 && (h <= MOST[best] || !clear(s))
    })
}

/// `scores` with [`PENALTY`] taken off every digit a group has more holes than.
pub fn penalise(scores: &mut [[f32; 9]], holes: &[usize]) {
    for (s, &h) in scores.iter_mut().zip(holes) {
        for (d, v) in s.iter_mut().enumerate() {
            if h > MOST[d] {
                *v -= PENALTY;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A patch drawn from rows of text: '#' full ink, '+' half, anything else paper; centred.
    fn patch(rows: &[&str]) -> Vec<u8> {
        let mut p = vec![0u8; PATCH_W * PATCH_H];
        let (oy, ox) = ((PATCH_H - rows.len()) / 2, (PATCH_W - rows[0].len()) / 2);
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                p[(oy + y) * PATCH_W + ox + x] = match c {
                    '#' => 255,
                    '+' => 150,
                    _ => 0,
                };
            }
        }
        p
    }

    #[test]
    fn an_eight_has_two_holes_a_six_one_and_a_two_none() {
        let eight = patch(&[
            " ###### ", "##    ##", "##    ##", "##    ##", " ###### ", "##    ##", "##    ##",
            "##    ##", " ###### ",
        ]);
        let six = patch(&[
            " ###### ", "##      ", "##      ", "####### ", "##    ##", "##    ##", "##    ##",
            " ###### ",
        ]);
        let two = patch(&[
            " ###### ", "##    ##", "      ##", "     ## ", "   ##   ", " ##     ", "##      ",
            "########",
        ]);
        assert_eq!(holes(&eight), 2);
        assert_eq!(holes(&six), 1);
        assert_eq!(holes(&two), 0);
    }

    #[test]
    fn a_speck_of_paper_or_a_gap_half_inked_is_no_hole() {
        // A 2x2 pocket in a blot is too small; a ring closed by half ink is closed.
        let blot = patch(&["######", "##  ##", "##  ##", "######"]);
        assert_eq!(holes(&blot), 0);
        let ring = patch(&[
            "###+####", "##    ##", "##    ##", "##    ##", "##    ##", "########",
        ]);
        assert_eq!(holes(&ring), 1);
        let open = patch(&[
            "###  ###", "##    ##", "##    ##", "##    ##", "##    ##", "########",
        ]);
        assert_eq!(holes(&open), 0);
    }

    #[test]
    fn a_typeface_whose_clear_digits_have_holes_they_should_not_is_not_plain() {
        let clear = |s: &[f32; 9]| s.iter().any(|&v| v > 0.8);
        let mut two = [0.5; 9];
        two[1] = 0.9;
        let mut unclear = [0.5; 9];
        unclear[1] = 0.6;
        // A clear 2 with no hole, an unclear shape with one: plain.
        assert!(plain(&[two, unclear], &[0, 1], clear));
        // A clear 2 with a hole: not plain; three holes: never plain.
        assert!(!plain(&[two, unclear], &[1, 1], clear));
        assert!(!plain(&[unclear], &[3], clear));
    }

    #[test]
    fn holes_take_the_penalty_off_the_digits_that_never_have_them() {
        let mut s = [[0.7f32; 9]];
        penalise(&mut s, &[1]);
        for d in 1..=9 {
            let want = if MOST[d - 1] >= 1 { 0.7 } else { 0.7 - PENALTY };
            assert!((s[0][d - 1] - want).abs() < 1e-6, "digit {d}");
        }
    }
}
