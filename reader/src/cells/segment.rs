//! Splitting one cell's samples into background and ink: the polarity and contrast of the ink,
//! a second look at the other polarity or at the ink clear of the cut, a flat badge under notes
//! cut away, and which marks could be (part of) a big digit by their shape.

use super::{BBox, CellSample, boxed, median};
use crate::geometry::Rect;
use crate::patch::{Component, components};

/// A cell whose ink differs at least this much from its background (grey levels) holds marks.
pub(super) const INK_AMP: i16 = 45;
/// Between this and [`INK_AMP`] a cell is faint: only a mark as tall as the screen's big digits
/// counts there (JPEG ringing, textures and highlight edges stay below it or stay small).
pub(super) const FAINT_AMP: i16 = 24;

/// Splits the cell's samples into background and ink components.
pub(super) fn segment(
    lum: Vec<u8>,
    origin: (u32, u32),
    stride: u32,
    size: (usize, usize),
    pitch: f32,
    dashes: usize,
) -> CellSample {
    let bg = median(&lum) as i16;
    let (mut dark, mut bright) = (0i16, 0i16);
    for &v in &lum {
        dark = dark.max(bg - v as i16);
        bright = bright.max(v as i16 - bg);
    }
    // Ink has the polarity of the strongest difference from the background; unless all that
    // ink touches the cut (the dark corners of a rounded tile that is lit as selected) and the
    // other polarity shows a mark clear of it (the thin digit on that tile).
    let (strong, weak) = if dark >= bright {
        ((-1i16, dark), (1, bright))
    } else {
        ((1, bright), (-1i16, dark))
    };
    let mut sample = CellSample {
        origin,
        stride,
        w: size.0,
        h: size.1,
        diff: Vec::new(),
        amp: 0,
        labels: Vec::new(),
        comps: Vec::new(),
        pitch,
        dashes,
        rect: Rect::new(0, 0, 0, 0),
    };
    sample.ink_as(&lum, bg, strong);
    sample.ink_clear_of_cut(&lum, bg, strong.0);
    if weak.1 >= FAINT_AMP && !sample.has_digit_like() {
        let first = (
            std::mem::take(&mut sample.diff),
            sample.amp,
            std::mem::take(&mut sample.labels),
            std::mem::take(&mut sample.comps),
        );
        sample.ink_as(&lum, bg, weak);
        if !sample.has_digit_like() {
            (sample.diff, sample.amp, sample.labels, sample.comps) = first;
        }
    }
    sample
}

impl CellSample {
    /// Segments the cell's brightness `lum` as ink of polarity `sign` (-1 darker, 1 brighter
    /// than `bg`) and contrast `amp`.
    pub(super) fn ink_as(&mut self, lum: &[u8], bg: i16, (sign, amp): (i16, i16)) {
        self.diff = lum
            .iter()
            .map(|&v| ((v as i16 - bg) * sign) as f32)
            .collect();
        self.amp = amp;
        // Faint cells (a digit in a colour close to its highlighted cell's, a dimmed screen) are
        // still segmented, with a threshold relative to their own contrast; `finish` then takes
        // only a big digit from them, never notes.
        (self.labels, self.comps) = if amp < FAINT_AMP {
            (Vec::new(), Vec::new())
        } else {
            let floor = if amp >= INK_AMP { 30.0 } else { 0.0 };
            let threshold = (amp as f32 * 0.45).max(floor);
            let mask: Vec<bool> = self.diff.iter().map(|&d| d > threshold).collect();
            components(&mask, self.w, self.h)
        };
        if let Some(level) = self.badge_level() {
            // Only what is drawn on or beside the badge, clearly stronger than it, is ink.
            let threshold = (level + amp as f32) / 2.0;
            let mask: Vec<bool> = self.diff.iter().map(|&d| d > threshold).collect();
            (self.labels, self.comps) = components(&mask, self.w, self.h);
        }
    }

    /// The ink level of a badge among the cell's marks, if one is there: a solid shape (a disc
    /// or tile drawn under a highlighted note, say) filling its box at one flat level clearly
    /// below the cell's strongest ink, which is drawn on or beside it. A darker screen (a gamma
    /// curve, a theme) can lift such a badge over the ink threshold, where with the notes on it
    /// it makes one tall mark, a big digit that is none. A glyph never fills its box like
    /// that, and the digit of a cell is its strongest ink, never something weaker under it.
    pub(super) fn badge_level(&self) -> Option<f32> {
        let amp = self.amp as f32;
        if self.amp < INK_AMP {
            return None;
        }
        let w = self.w;
        let band = amp * 0.08;
        self.comps
            .iter()
            .filter(|c| !self.touches(c))
            .find_map(|c| {
                let at = |x: usize, y: usize| {
                    (self.labels[y * w + x] == c.label).then(|| self.diff[y * w + x])
                };
                let values: Vec<f32> = boxed((c.x0, c.y0, c.x1, c.y1))
                    .filter_map(|(x, y)| at(x, y))
                    .collect();
                // The most common level below three quarters of the contrast, in bins of a
                // twentieth of it (the strongest ink, drawn on the badge, may cover more).
                let mut bins = [0usize; 21];
                for &v in &values {
                    bins[((v / amp * 20.0).round() as usize).min(20)] += 1;
                }
                let mode = (0..=15).max_by_key(|&b| bins[b])? as f32 * amp / 20.0;
                let flat: Vec<(usize, usize)> = boxed((c.x0, c.y0, c.x1, c.y1))
                    .filter(|&(x, y)| at(x, y).is_some_and(|v| (v - mode).abs() <= band))
                    .collect();
                if (flat.len() as f32) < values.len() as f32 * 0.3 {
                    return None;
                }
                // The badge's box: where most of the flat level lies (the anti-aliased edges of
                // the ink on it pass through that level too, in thin lines beyond it).
                let (mut xs, mut ys): (Vec<usize>, Vec<usize>) = flat.iter().copied().unzip();
                xs.sort_unstable();
                ys.sort_unstable();
                let (lo, hi) = (flat.len() / 20, flat.len() - 1 - flat.len() / 20);
                let bb = (xs[lo], ys[lo], xs[hi], ys[hi]);
                let (bw, bh) = (bb.2 + 1 - bb.0, bb.3 + 1 - bb.1);
                // A badge is a disc or a tile, about as wide as tall; a flat level in a long
                // thin box is a stroke (a small 1's stem, 2-3 samples wide, is one flat level).
                if (bw.min(bh) as f32) < self.pitch * 0.12 || 2 * bw.min(bh) < bw.max(bh) {
                    return None;
                }
                // The badge with what is drawn on it fills its box as a disc fills its square.
                let solid = boxed(bb)
                    .filter(|&(x, y)| at(x, y).is_some_and(|v| v >= mode - band))
                    .count();
                (solid as f32 >= 0.7 * (bw * bh) as f32).then_some(mode)
            })
    }

    /// When the cell's strongest ink all touches the cut (the dark arc of a rounded grid
    /// corner, a thick line's remnant) and a clear mark stands apart from it at a lower contrast
    /// (a thin coloured digit or pencil notes beside that arc), segments again at the contrast
    /// of what stands apart: a threshold set by the arc broke a small digit into note-sized
    /// pieces. What touches the cut stays what it was, ink that `finish` leaves out.
    pub(super) fn ink_clear_of_cut(&mut self, lum: &[u8], bg: i16, sign: i16) {
        let (w, h) = (self.w, self.h);
        let touching: Vec<bool> = std::iter::once(false)
            .chain(self.comps.iter().map(|c| self.touches(c)))
            .collect();
        if !touching.iter().any(|&t| t) {
            return;
        }
        // The touching ink and two samples around it (its anti-aliased rim) are left out.
        let mut near_cut = vec![false; w * h];
        for (i, _) in self
            .labels
            .iter()
            .enumerate()
            .filter(|&(_, &l)| touching[l as usize])
        {
            let (x, y) = (i % w, i / w);
            for yy in y.saturating_sub(2)..=(y + 2).min(h - 1) {
                near_cut[yy * w + x.saturating_sub(2)..=yy * w + (x + 2).min(w - 1)].fill(true);
            }
        }
        let clear = self
            .diff
            .iter()
            .zip(&near_cut)
            .filter(|&(_, &n)| !n)
            .map(|(&d, _)| d as i16)
            .max()
            .unwrap_or(0);
        if clear >= INK_AMP && (clear as f32) < 0.8 * self.amp as f32 {
            self.ink_as(lum, bg, (sign, clear));
        }
    }

    /// Some component could be (part of) a big digit ([`CellSample::digit_like`]).
    pub(super) fn has_digit_like(&self) -> bool {
        self.comps.iter().any(|c| self.digit_like(c))
    }

    /// A mark the cut clips on one side or two, as tall as a big digit (0.4 of a cell) and no
    /// wider than one: a digit drawn close to the lines (a handwritten 4's bar and tail can
    /// reach two), or a line, an edge or a corner seen end on.
    pub(super) fn clips_a_big_mark(&self) -> bool {
        let (w, h) = (self.w, self.h);
        self.comps.iter().any(|c| {
            let sides = [c.x0 == 0, c.y0 == 0, c.x1 == w - 1, c.y1 == h - 1];
            let (cw, ch) = (c.width() as f32, c.height() as f32);
            (1..=2).contains(&sides.iter().filter(|&&s| s).count())
                && ch >= self.pitch * 0.4
                && cw <= self.pitch * 0.85
                && cw >= 2.0
        })
    }

    pub(super) fn touches(&self, c: &Component) -> bool {
        c.x0 == 0 || c.y0 == 0 || c.x1 == self.w - 1 || c.y1 == self.h - 1
    }

    /// Pencil notes in a faint cell (its ink [`FAINT_AMP`] to [`INK_AMP`] off the background):
    /// see [`faint_notes`].
    pub(super) fn faint_notes(&self, note_min: f32, big_min: f32) -> bool {
        faint_notes(
            &self.comps,
            (self.w, self.h),
            self.pitch,
            (note_min, big_min),
        )
    }

    /// Could `c` be (part of) a big digit by its shape alone?
    pub(super) fn digit_like(&self, c: &Component) -> bool {
        let (cw, ch) = (c.width() as f32, c.height() as f32);
        !self.touches(c) && cw <= self.pitch * 0.85 && cw >= 2.0 && ch >= cw * 0.5
    }
}

/// Whether the big marks in `bb` are wider than tall, as printed digits are not (the widest,
/// a 4, is about as wide as tall): in a cell that also holds small marks, pencil notes run
/// together into one mark as tall as a digit (on a badge that a darker screen lifts to the
/// ink's level, say). Apps draw notes in empty cells only.
pub(super) fn run_together(bb: BBox) -> bool {
    let (w, h) = (bb.2 + 1 - bb.0, bb.3 + 1 - bb.1);
    w as f32 > 1.15 * h as f32
}

/// Are there pencil notes in `lum` (a cell's samples between its line centres, `size`) as ink
/// of polarity `sign` and contrast `amp` off `bg`? At [`INK_AMP`] or more, one note-sized mark
/// clear of the frame's edge (lines, highlight edges and a corner's arc reach it); fainter
/// (small notes on a tile lit as selected, blurred on a small screen) as [`faint_notes`] says.
pub(super) fn notes_in_frame(
    lum: &[u8],
    size: (usize, usize),
    bg: i16,
    (sign, amp): (i16, i16),
    pitch: f32,
    heights: (f32, f32),
) -> bool {
    if amp < FAINT_AMP {
        return false;
    }
    let floor = if amp >= INK_AMP { 30.0 } else { 0.0 };
    let threshold = (amp as f32 * 0.45).max(floor);
    let mask: Vec<bool> = lum
        .iter()
        .map(|&v| ((v as i16 - bg) * sign) as f32 > threshold)
        .collect();
    let (_, comps) = components(&mask, size.0, size.1);
    if amp >= INK_AMP {
        !note_heights(&comps, size, pitch, heights).is_empty()
    } else {
        faint_notes(&comps, size, pitch, heights)
    }
}

/// Notes among faint marks `comps` (in a frame of `size` samples): two or more note-sized marks
/// clear of the frame's edge, two of them of one height, as notes in one font are. Highlight
/// edges and a rounded tile's corners reach the edge; JPEG ringing and textures leave specks
/// of any size.
fn faint_notes(comps: &[Component], size: (usize, usize), pitch: f32, heights: (f32, f32)) -> bool {
    let mut hs = note_heights(comps, size, pitch, heights);
    hs.sort_by(f32::total_cmp);
    hs.windows(2).any(|p| p[1] - p[0] <= (0.2 * p[1]).max(1.0))
}

/// Heights of the marks in `comps` that could be notes: clear of the frame's edge, from
/// `note_min` to below `big` samples tall, and smaller than 0.28 of a cell each way.
fn note_heights(
    comps: &[Component],
    (w, h): (usize, usize),
    pitch: f32,
    (note_min, big): (f32, f32),
) -> Vec<f32> {
    comps
        .iter()
        .filter(|c| c.x0 > 0 && c.y0 > 0 && c.x1 < w - 1 && c.y1 < h - 1)
        .filter(|c| {
            let (cw, ch) = (c.width() as f32, c.height() as f32);
            ch >= note_min && ch < big && cw.max(ch) < pitch * 0.28
        })
        .map(|c| c.height() as f32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 20 x 20 frame of a tile lit as selected (108) with dark corners (20, as the gaps
    /// around a rounded tile), and light marks at `level` in the given boxes (x, y, w, h).
    fn frame(level: u8, marks: &[(usize, usize, usize, usize)]) -> Vec<u8> {
        let mut lum = vec![108u8; 20 * 20];
        for (x, y) in [(0, 0), (19, 0), (0, 19), (19, 19)] {
            lum[y * 20 + x] = 20;
        }
        for &(x0, y0, w, h) in marks {
            for y in y0..y0 + h {
                lum[y * 20 + x0..y * 20 + x0 + w].fill(level);
            }
        }
        lum
    }

    fn notes(lum: &[u8]) -> bool {
        let bright = lum.iter().map(|&v| v as i16 - 108).max().unwrap();
        // The dark corners are the stronger ink; the reader tries both, as here.
        [(-1, 88), (1, bright)]
            .into_iter()
            .any(|ink| notes_in_frame(lum, (20, 20), 108, ink, 20.0, (3.0, 8.0)))
    }

    #[test]
    fn faint_notes_on_a_tile_lit_as_selected_are_notes_beside_its_dark_corners() {
        // Three note-sized marks 40 levels over the tile: fainter than ink usually is.
        let three = frame(148, &[(3, 3, 2, 5), (13, 3, 3, 5), (13, 12, 3, 5)]);
        assert!(notes(&three));
    }

    #[test]
    fn a_lone_faint_speck_or_the_tiles_own_corners_are_no_notes() {
        assert!(!notes(&frame(108, &[])));
        assert!(!notes(&frame(148, &[(8, 8, 2, 5)])));
        // Two faint marks of very different heights are no font's notes.
        assert!(!notes(&frame(148, &[(3, 3, 2, 3), (13, 3, 3, 7)])));
        // One mark at ink's full contrast is a note, as before.
        assert!(notes(&frame(200, &[(8, 8, 2, 5)])));
    }
}
