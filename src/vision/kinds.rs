//! Givens vs player entries, told apart on each screen by itself: the big digits are grouped
//! by how they are drawn (ink colour, a disc under the digit, stroke thickness), so a theme
//! change that recolours everything does not flip them, and no stored colour is needed.
//!
//! Groups are read as follows. A group of two or more cells that all show one glyph, beside a
//! larger group, is a same-number highlight (the app marks every 5 when a 5 is selected): its
//! cells are [`DigitKind::Unknown`], since the highlight hides how they were drawn, unless it
//! kept their ink and that ink is one kind's only (it just put a tint or a disc under them); a
//! lone digit on a disc of its own in another group's ink is judged the same way. Of the
//! remaining groups one holds the givens, the others are entries ([`givens_group`]): the only
//! group big enough for a puzzle's givens (17 or more, counting the digits a highlight hides),
//! else the group the drawing marks as givens (on a disc or a tinted cell, a bolder stroke, the
//! theme's neutral ink beside an accent colour), whatever the sizes: late in a game the entries
//! outnumber the givens. When every digit is drawn alike, or nothing says which style is the
//! givens', the split is [`InkSplit::Indistinguishable`] and no guess is made.
//! [`calibrated_kinds`] does the same for the calibrated reader, with the calibration's stored
//! colours deciding where the screen still draws them (a finished board, where entries outnumber
//! givens), the screen's own split where the theme changed, and the screen's own rule among
//! digits in the given ink that differ only by a disc or a stroke (the stored colours cannot).

use super::cells::{CellInk, InkFeatures};
use super::patch::ncc;
use super::screen::colour_distance;

/// What a big digit is, by how it is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DigitKind {
    Given,
    Entry,
    /// Drawn in a style that hides its kind (a same-number highlight).
    Unknown,
}

/// The given/entry split of one screen.
#[derive(Debug, Clone, PartialEq)]
pub enum InkSplit {
    /// Givens and entries cannot be told apart here: every big digit is drawn alike, or two
    /// styles could each be the givens' and nothing in the drawing says which.
    Indistinguishable,
    /// Per cell, row by row: the kind of each big digit (`None` for cells without one).
    Split(Vec<Option<DigitKind>>),
}

/// Two digits are drawn alike when their inks and discs are this close (RGB distance).
const SAME_COLOUR: f64 = 48.0;
/// Bold and regular strokes differ at least by this ratio.
const SAME_STROKE: f32 = 1.3;
/// Patches of one glyph correlate at least this well.
const SAME_GLYPH: f32 = 0.85;

fn alike(a: &InkFeatures, b: &InkFeatures) -> bool {
    let discs = match (a.disc, b.disc) {
        (None, None) => true,
        (Some(x), Some(y)) => colour_distance(x, y) <= SAME_COLOUR,
        _ => false,
    };
    discs && colour_distance(a.ink, b.ink) <= SAME_COLOUR
}

/// Splits one colour group in two by stroke thickness when the strokes fall in two clearly
/// separate bands (bold givens, regular entries); `None` when they do not.
fn split_by_stroke(group: &[usize], features: &[Option<InkFeatures>]) -> Option<[Vec<usize>; 2]> {
    let f = |i: usize| features[i].as_ref();
    let mut sorted: Vec<(f32, usize)> = group
        .iter()
        .filter_map(|&i| Some((f(i)?.stroke, i)))
        .collect();
    if sorted.len() < 3 {
        return None;
    }
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let resolution = group
        .iter()
        .filter_map(|&i| Some(f(i)?.resolution))
        .fold(f32::MAX, f32::min);
    let mean = |v: &[(f32, usize)]| v.iter().map(|p| p.0).sum::<f32>() / v.len() as f32;
    let var = |v: &[(f32, usize)]| {
        let m = mean(v);
        v.iter().map(|p| (p.0 - m).powi(2)).sum::<f32>()
    };
    // The two-means split with the least spread inside the bands.
    let k = (1..sorted.len()).min_by(|&a, &b| {
        let cost = |k: usize| var(&sorted[..k]) + var(&sorted[k..]);
        cost(a).total_cmp(&cost(b))
    })?;
    let (lo, hi) = sorted.split_at(k);
    let (mlo, mhi) = (mean(lo), mean(hi));
    let gap = hi[0].0 - lo[lo.len() - 1].0;
    let clear = mhi >= SAME_STROKE * mlo.max(1e-3)
        && gap >= 0.5 * (mhi - mlo)
        && (mhi - mlo) * resolution >= 1.2;
    clear.then(|| [lo, hi].map(|v| v.iter().map(|p| p.1).collect()))
}

/// The digits of one screen grouped by how they are drawn: greedily by ink and disc colour
/// against each group's first member, in reading order, then each group split in two when its
/// strokes fall in two clear bands.
fn style_groups(features: &[Option<InkFeatures>]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, f) in features.iter().enumerate() {
        let Some(f) = f else { continue };
        match groups
            .iter_mut()
            .find(|g| features[g[0]].as_ref().is_some_and(|r| alike(r, f)))
        {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups
        .into_iter()
        .flat_map(|g| match split_by_stroke(&g, features) {
            Some([lo, hi]) => vec![hi, lo],
            None => vec![g],
        })
        .collect()
}

/// The fewest givens of a puzzle with one solution: a smaller group cannot be the givens.
const MIN_GIVENS: usize = 17;
/// Below this chroma (RGB max minus min) an ink is the theme's neutral text colour (a navy as
/// dark as Sudoku.com's givens, 45, included).
const NEUTRAL_CHROMA: i32 = 60;
/// An accent ink is at least this much more chromatic than the neutral one.
const ACCENT_GAP: i32 = 60;
/// Cells tinted under one group differ from the other group's cells by this much brightness.
const TINT_LUMA: f32 = 8.0;

fn luma(c: [u8; 3]) -> f32 {
    0.299 * c[0] as f32 + 0.587 * c[1] as f32 + 0.114 * c[2] as f32
}

/// The value `q` of the way up `v` (0: lowest, 1: highest).
fn quantile(mut v: Vec<f32>, q: f32) -> f32 {
    v.sort_by(f32::total_cmp);
    let k = ((v.len().max(1) - 1) as f32 * q).round() as usize;
    v.get(k).copied().unwrap_or(0.0)
}

fn median(v: Vec<f32>) -> f32 {
    quantile(v, 0.5)
}

/// How a group of digits is drawn, as the cues of [`looks_given`] need it: medians, so that
/// the few digits of a group under a selection or row highlight do not move it.
struct Drawn {
    chroma: i32,
    ink_luma: f32,
    cell_luma: f32,
    /// The brightness of the cells under the group's darker and lighter fifths: a tint drawn
    /// under a whole group keeps the two close, one shared by both kinds (every other box
    /// shaded, the selected cell's row, column and box) spreads them.
    cell_low: f32,
    cell_high: f32,
    on_discs: bool,
    stroke: f32,
    resolution: f32,
}

fn drawn(g: &[usize], features: &[Option<InkFeatures>]) -> Drawn {
    let fs: Vec<&InkFeatures> = g.iter().filter_map(|&i| features[i].as_ref()).collect();
    let ink = group_ink(g, features);
    Drawn {
        chroma: *ink.iter().max().unwrap_or(&0) as i32 - *ink.iter().min().unwrap_or(&0) as i32,
        ink_luma: luma(ink),
        cell_luma: median(fs.iter().map(|f| luma(f.background)).collect()),
        cell_low: quantile(fs.iter().map(|f| luma(f.background)).collect(), 0.2),
        cell_high: quantile(fs.iter().map(|f| luma(f.background)).collect(), 0.8),
        on_discs: 2 * fs.iter().filter(|f| f.disc.is_some()).count() > fs.len(),
        stroke: median(fs.iter().map(|f| f.stroke).collect()),
        resolution: fs.iter().map(|f| f.resolution).fold(f32::MAX, f32::min),
    }
}

/// What the drawing says of two groups of digits: `Some(true)` when `a` is drawn as givens
/// beside `b`, `Some(false)` the reverse, `None` when the cues are silent or disagree. Apps mark
/// their givens, each in its own way: a disc under them (Saku, SUD<3KU), a tinted cell (Open
/// Sudoku, shaded apps), a bolder stroke (Privacy Friendly Sudoku), or the theme's neutral ink
/// with entries in an accent colour (Sudoku.com, Material Sudoku). Open Sudoku draws its givens
/// in slate blue and its entries black, on untinted cells: there the ink and the tint disagree
/// and nothing is said.
fn looks_given(a: &Drawn, b: &Drawn) -> Option<bool> {
    let disc = (a.on_discs != b.on_discs).then_some(a.on_discs);
    // The paper is the theme's extreme (white, or near black); a tint moves a cell towards the
    // ink. It speaks only when (nearly) all of one group's cells are tinted beside (nearly) all
    // of the other's, and only on bare digits: a disc already said it.
    let (a_tinted, b_tinted) = if a.cell_luma > a.ink_luma {
        (
            a.cell_high + TINT_LUMA <= b.cell_low,
            b.cell_high + TINT_LUMA <= a.cell_low,
        )
    } else {
        (
            a.cell_low >= b.cell_high + TINT_LUMA,
            b.cell_low >= a.cell_high + TINT_LUMA,
        )
    };
    let tint = (!a.on_discs && !b.on_discs && a_tinted != b_tinted).then_some(a_tinted);
    let (thin, thick) = (a.stroke.min(b.stroke), a.stroke.max(b.stroke));
    let stroke = (thick >= SAME_STROKE * thin.max(1e-3)
        && (thick - thin) * a.resolution.min(b.resolution) >= 1.2)
        .then_some(a.stroke > b.stroke);
    let ink = if a.chroma <= NEUTRAL_CHROMA && b.chroma >= a.chroma + ACCENT_GAP {
        Some(true)
    } else if b.chroma <= NEUTRAL_CHROMA && a.chroma >= b.chroma + ACCENT_GAP {
        Some(false)
    } else {
        None
    };
    let votes: Vec<bool> = [disc, tint, stroke, ink].into_iter().flatten().collect();
    let first = *votes.first()?;
    votes.iter().all(|&v| v == first).then_some(first)
}

/// Which of `candidates` (indices into `groups`) holds the givens, `hidden` digits being of a
/// kind the screen hides: the only group with room for a puzzle's givens, or, when several
/// have, the one the drawing marks as givens beside every other ([`looks_given`]). `None`
/// when nothing decides: the sizes would only be a guess (early in a game the givens lead, late
/// the entries do).
fn givens_group(
    groups: &[Vec<usize>],
    candidates: &[usize],
    hidden: usize,
    features: &[Option<InkFeatures>],
) -> Option<usize> {
    let roomy: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&n| groups[n].len() + hidden >= MIN_GIVENS)
        .collect();
    let pool = if roomy.is_empty() { candidates } else { &roomy };
    if let [only] = pool {
        return Some(*only);
    }
    let styles: Vec<Drawn> = pool.iter().map(|&n| drawn(&groups[n], features)).collect();
    (0..pool.len())
        .find(|&a| {
            (0..pool.len()).all(|b| a == b || looks_given(&styles[a], &styles[b]) == Some(true))
        })
        .map(|a| pool[a])
}

/// The mean ink of a group of digits.
fn group_ink(g: &[usize], features: &[Option<InkFeatures>]) -> [u8; 3] {
    let inks: Vec<[u8; 3]> = g.iter().filter_map(|&i| Some(features[i]?.ink)).collect();
    let n = inks.len().max(1) as u32;
    std::array::from_fn(|k| (inks.iter().map(|c| c[k] as u32).sum::<u32>() / n) as u8)
}

/// The colours a calibration stored for givens and entries, and how far from the givens' a
/// digit must be to count as an entry.
#[derive(Debug, Clone, Copy)]
pub struct StoredInks {
    pub given: [u8; 3],
    pub entry: Option<[u8; 3]>,
    pub distance: f64,
}

/// Givens vs entries for a calibrated read (`digits` as the templates read them, `features`
/// row by row): each group of alike digits is judged as a whole. When some group is drawn in
/// the stored given colour, the stored colours hold on this screen: groups near a stored
/// colour take its kind; a group near neither that holds one digit in two or more cells is a
/// same-number highlight that recoloured them ([`DigitKind::Unknown`]: it hides their kind);
/// any other group is entries. Groups in the given colour that differ by a disc or a stroke
/// (which the stored inks do not record) are told apart by the screen: the largest holds the
/// givens, other groups of two or more digits are entries. When no group is in the stored given
/// colour (the app's theme changed since calibration), the stored colours say nothing and the
/// screen is split by itself ([`InkSplit::of`]), so a theme change does not turn every given
/// into an entry.
pub fn calibrated_kinds(
    digits: &[Option<u8>],
    cells: &[CellInk],
    features: &[Option<InkFeatures>],
    stored: StoredInks,
) -> Vec<Option<DigitKind>> {
    let groups = style_groups(features);
    let mean_ink = |g: &[usize]| group_ink(g, features);
    let to_given = |c: [u8; 3]| colour_distance(c, stored.given);
    let to_entry = |c: [u8; 3]| stored.entry.map_or(f64::MAX, |e| colour_distance(c, e));
    let holds = groups
        .iter()
        .any(|g| to_given(mean_ink(g)) <= stored.distance);
    if !holds {
        let split = InkSplit::of(cells, features);
        return (0..features.len())
            .map(|i| {
                features[i].map(|_| match split {
                    // Drawn alike: nothing marks entries (as the calibration saw no second ink).
                    InkSplit::Indistinguishable => DigitKind::Given,
                    InkSplit::Split(_) => split.kind(i).unwrap_or(DigitKind::Given),
                })
            })
            .collect();
    }
    // Groups of several digits first: near a stored colour they take its kind, any other is
    // entries (a colour the calibration never saw). Then groups of one digit (two or more
    // cells): a same-number highlight that only put a disc or a tint under digits keeps their
    // ink and takes the kind of the groups drawn in that ink; one that recoloured them hides
    // the kind, even when the calibration stored that colour as the entries' (learned from a
    // highlight on the calibration screen).
    let inks: Vec<[u8; 3]> = groups.iter().map(|g| mean_ink(g)).collect();
    let one_digit = |g: &[usize]| g.len() >= 2 && g.iter().all(|&i| digits[i] == digits[g[0]]);
    let mut decided: Vec<Option<DigitKind>> = (0..groups.len())
        .map(|n| {
            let (dg, de) = (to_given(inks[n]), to_entry(inks[n]));
            (!one_digit(&groups[n])).then_some(if dg <= stored.distance && dg <= de {
                DigitKind::Given
            } else {
                DigitKind::Entry
            })
        })
        .collect();
    // The calibration stores inks only, so groups in the given ink that this screen tells apart
    // by a disc or a stroke (Saku: givens on grey discs, entries bare, one ink) all look like
    // givens to it: among them the screen's own rule decides, as without calibration
    // ([`givens_group`]), and the others are entries; when it cannot, all stay givens, as the
    // calibration has them. A lone digit drawn otherwise stays a given: it may as well be a
    // given a highlight put on a disc of its own.
    let in_given_ink: Vec<usize> = (0..groups.len())
        .filter(|&n| decided[n] == Some(DigitKind::Given) && groups[n].len() >= 2)
        .collect();
    let hidden: usize = (0..groups.len())
        .filter(|&n| decided[n].is_none())
        .map(|n| groups[n].len())
        .sum();
    if let Some(givens) = givens_group(&groups, &in_given_ink, hidden, features) {
        for &n in in_given_ink.iter().filter(|&&n| n != givens) {
            decided[n] = Some(DigitKind::Entry);
        }
    }
    // A digit's ink measured on a tinted disc shifts a little: settled groups within the
    // calibration's own tolerance are the same ink, and must agree.
    let settled = decided.clone();
    for (n, k) in decided.iter_mut().enumerate() {
        if k.is_none() {
            let near: Vec<DigitKind> = (0..groups.len())
                .filter(|&m| colour_distance(inks[m], inks[n]) <= stored.distance)
                .filter_map(|m| settled[m])
                .collect();
            *k = Some(match near.first() {
                Some(&first) if near.iter().all(|&x| x == first) => first,
                _ => DigitKind::Unknown,
            });
        }
    }
    let mut kinds = vec![None; features.len()];
    for (g, k) in groups.iter().zip(decided) {
        for &i in g {
            kinds[i] = k;
        }
    }
    kinds
}

/// Two digits sit on one cell tint when their backgrounds are this close (RGB distance).
const SAME_TINT: f64 = 20.0;

/// Of two clashing digits (indices into `features`, row by row) that nothing yet calls an entry,
/// the one that is the player's mistake, when the drawing says so: givens never clash, and an
/// app draws its entries apart from its givens (ink or cell tint), often the clashing pair
/// both in one alarm colour. On each of ink and cell tint where the two differ, count the
/// screen's digits drawn like each: the one drawn like clearly fewer (at most half) is the
/// entry, when every differing cue agrees. `None` when they are drawn alike, the cues disagree,
/// or the rarer style is a same-number highlight (two or more digits, all one digit), which
/// can hide a given: then the clash stays a refusal.
pub fn mistaken_entry(
    a: usize,
    b: usize,
    digits: &[Option<u8>],
    features: &[Option<InkFeatures>],
) -> Option<usize> {
    let (fa, fb) = (features[a]?, features[b]?);
    type Cue = fn(&InkFeatures) -> [u8; 3];
    let cues: [(Cue, f64); 2] = [(|f| f.ink, SAME_COLOUR), (|f| f.background, SAME_TINT)];
    let mut verdict = None;
    for (cue, near) in cues {
        if colour_distance(cue(&fa), cue(&fb)) <= near {
            continue;
        }
        let alike = |x: &InkFeatures| -> Vec<usize> {
            (0..features.len())
                .filter(|&i| features[i].is_some_and(|f| colour_distance(cue(&f), cue(x)) <= near))
                .collect()
        };
        let (la, lb) = (alike(&fa), alike(&fb));
        let (rare, rare_set) = if la.len() * 2 <= lb.len() {
            (a, la)
        } else if lb.len() * 2 <= la.len() {
            (b, lb)
        } else {
            return None;
        };
        let highlight =
            rare_set.len() >= 2 && rare_set.iter().all(|&i| digits[i] == digits[rare_set[0]]);
        if highlight || verdict.is_some_and(|v| v != rare) {
            return None;
        }
        verdict = Some(rare);
    }
    verdict
}

impl InkSplit {
    /// Splits the digits of one screen (`cells` and `features` row by row, as returned by
    /// [`super::cells::cut_cells_adaptive`]).
    pub fn of(cells: &[CellInk], features: &[Option<InkFeatures>]) -> InkSplit {
        let groups = style_groups(features);
        if groups.len() <= 1 {
            return InkSplit::Indistinguishable;
        }
        // One glyph: every patch linked to the first through patches that correlate well. Small
        // digits sampled at different sub-pixel phases can fall short of each other directly
        // and still both match a third.
        let one_glyph = |g: &[usize]| {
            let patch = |i: usize| cells[i].digit.as_ref().map(|d| d.pixels.as_slice());
            let same = |a: usize, b: usize| match (patch(a), patch(b)) {
                (Some(a), Some(b)) => ncc(a, b) >= SAME_GLYPH,
                _ => false,
            };
            let mut linked = vec![g[0]];
            let mut rest: Vec<usize> = g[1..].to_vec();
            while let Some(k) = rest
                .iter()
                .position(|&i| linked.iter().any(|&j| same(i, j)))
            {
                linked.push(rest.swap_remove(k));
            }
            rest.is_empty()
        };
        let inks: Vec<[u8; 3]> = groups.iter().map(|g| group_ink(g, features)).collect();
        // A lone digit on a disc of its own in another group's ink may be that group's digit
        // under a highlight (the selected digit, shown once) as well as an entry: it is judged
        // like a highlight, by its ink.
        let restyled = |n: usize| {
            let (g, first) = (&groups[n], features[groups[n][0]].as_ref());
            g.len() == 1
                && first.is_some_and(|f| f.disc.is_some())
                && (0..groups.len())
                    .any(|m| m != n && colour_distance(inks[m], inks[n]) <= SAME_COLOUR)
        };
        let highlight: Vec<bool> = (0..groups.len())
            .map(|n| (groups[n].len() >= 2 && one_glyph(&groups[n])) || restyled(n))
            .collect();
        let largest = (0..groups.len())
            .max_by_key(|&g| (groups[g].len(), std::cmp::Reverse(g)))
            .unwrap_or(0);
        // The largest group is never a highlight (a screen with one digit everywhere is not a
        // game); the others are candidates unless they look like one.
        let candidates: Vec<usize> = (0..groups.len())
            .filter(|&n| n == largest || !highlight[n])
            .collect();
        let hidden: usize = (0..groups.len())
            .filter(|&n| !candidates.contains(&n))
            .map(|n| groups[n].len())
            .sum();
        let Some(givens) = givens_group(&groups, &candidates, hidden, features) else {
            return InkSplit::Indistinguishable;
        };
        let settled: Vec<Option<DigitKind>> = (0..groups.len())
            .map(|n| {
                if n == givens {
                    Some(DigitKind::Given)
                } else if highlight[n] && n != largest {
                    None
                } else {
                    Some(DigitKind::Entry)
                }
            })
            .collect();
        let mut kinds = vec![None; features.len()];
        let mut entries = 0;
        for (n, g) in groups.iter().enumerate() {
            // A highlight that only put a disc or a tint under the digits keeps their ink, and
            // with it the kind of the groups drawn in that ink; one that recoloured them hides it.
            let kind = settled[n].unwrap_or_else(|| {
                let near: Vec<DigitKind> = (0..groups.len())
                    .filter(|&m| colour_distance(inks[m], inks[n]) <= SAME_COLOUR)
                    .filter_map(|m| settled[m])
                    .collect();
                match near.first() {
                    Some(&first) if near.iter().all(|&k| k == first) => first,
                    _ => DigitKind::Unknown,
                }
            });
            if settled[n] == Some(DigitKind::Entry) {
                entries += g.len();
            }
            for &i in g {
                kinds[i] = Some(kind);
            }
        }
        if entries == 0 {
            // Only highlights differ from the rest: nothing tells entries apart.
            return InkSplit::Indistinguishable;
        }
        InkSplit::Split(kinds)
    }

    /// The kind of the digit in cell `index` (row by row), if the split knows it.
    pub fn kind(&self, index: usize) -> Option<DigitKind> {
        match self {
            InkSplit::Indistinguishable => None,
            InkSplit::Split(k) => k.get(index).copied().flatten(),
        }
    }

    /// One line for people: "indistinguishable" or "givens 27, entries 3 (r1c4 r4c2 r8c9)".
    pub fn summary(&self) -> String {
        let InkSplit::Split(kinds) = self else {
            return "indistinguishable".into();
        };
        let cells = |k: DigitKind| -> Vec<String> {
            (0..kinds.len())
                .filter(|&i| kinds[i] == Some(k))
                .map(|i| format!("r{}c{}", i / 9 + 1, i % 9 + 1))
                .collect()
        };
        let (e, u) = (cells(DigitKind::Entry), cells(DigitKind::Unknown));
        let mut s = format!(
            "givens {}, entries {} ({})",
            cells(DigitKind::Given).len(),
            e.len(),
            e.join(" ")
        );
        if !u.is_empty() {
            s += &format!(", highlighted {} ({})", u.len(), u.join(" "));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Rect;
    use crate::vision::DigitPatch;

    fn feat(ink: [u8; 3], disc: Option<[u8; 3]>, stroke: f32) -> InkFeatures {
        InkFeatures {
            ink,
            background: disc.unwrap_or([255; 3]),
            weight: 0.2,
            height: 0.5,
            stroke,
            disc,
            resolution: 40.0,
        }
    }

    /// A bare digit of `ink` on a cell of colour `cell`.
    fn feat_on(ink: [u8; 3], cell: [u8; 3], stroke: f32) -> InkFeatures {
        InkFeatures {
            background: cell,
            ..feat(ink, None, stroke)
        }
    }

    /// 20 givens drawn `given` in cells 0, 4, 8.., then `entries` entries drawn `entry` in the
    /// other cells (a late game: 17 to 25 givens, twice as many entries).
    fn late_game(
        given: InkFeatures,
        entry: InkFeatures,
        entries: usize,
    ) -> Vec<(usize, usize, InkFeatures)> {
        let mut s: Vec<_> = (0..20).map(|i| (i * 4, i % 9, given)).collect();
        s.extend(
            (0..81)
                .filter(|i| i % 4 != 0 || *i > 76)
                .take(entries)
                .map(|i| (i, i % 9, entry)),
        );
        s
    }

    /// A digit patch whose shape is `glyph` (different glyphs do not correlate).
    fn cell(glyph: usize) -> CellInk {
        let pixels = (0..crate::vision::patch::PATCH_W * crate::vision::patch::PATCH_H)
            .map(|i| {
                if (i * 7 + glyph * 13).is_multiple_of(glyph + 3) {
                    255
                } else {
                    0
                }
            })
            .collect();
        CellInk {
            digit: Some(DigitPatch {
                pixels,
                bbox: Rect::new(0, 0, 10, 20),
                ink: [0; 3],
            }),
            ..CellInk::default()
        }
    }

    fn screen(styles: &[(usize, usize, InkFeatures)]) -> (Vec<CellInk>, Vec<Option<InkFeatures>>) {
        let mut cells = vec![CellInk::default(); 81];
        let mut features = vec![None; 81];
        for &(i, glyph, f) in styles {
            cells[i] = cell(glyph);
            features[i] = Some(f);
        }
        (cells, features)
    }

    #[test]
    fn digits_drawn_alike_are_indistinguishable_not_guessed() {
        let black = feat([30; 3], None, 0.2);
        let s: Vec<_> = (0..20).map(|i| (i * 4, i % 9, black)).collect();
        let (cells, features) = screen(&s);
        assert_eq!(InkSplit::of(&cells, &features), InkSplit::Indistinguishable);
    }

    #[test]
    fn a_second_ink_colour_marks_entries_whatever_the_theme() {
        for (given, entry) in [([30; 3], [33, 150, 243]), ([158; 3], [232; 3])] {
            let mut s: Vec<_> = (0..20)
                .map(|i| (i * 4, i % 9, feat(given, None, 0.2)))
                .collect();
            s.push((1, 3, feat(entry, None, 0.2)));
            s.push((2, 5, feat(entry, None, 0.2)));
            let (cells, features) = screen(&s);
            let split = InkSplit::of(&cells, &features);
            assert_eq!(split.kind(0), Some(DigitKind::Given));
            assert_eq!(split.kind(1), Some(DigitKind::Entry));
            assert_eq!(split.kind(2), Some(DigitKind::Entry));
            assert_eq!(split.kind(3), None);
        }
    }

    #[test]
    fn a_same_number_highlight_is_unknown_and_a_disc_alone_can_mark_givens() {
        let grey_disc = Some([218, 228, 224]);
        let mut s: Vec<_> = (0..20)
            .map(|i| (i * 4, i % 7, feat([3; 3], grey_disc, 0.2)))
            .collect();
        // Entries: same ink, no disc. Highlight: every 3 in white on a teal disc.
        s.push((1, 2, feat([3; 3], None, 0.2)));
        s.push((2, 4, feat([3; 3], None, 0.2)));
        for i in [5, 6, 7] {
            s.push((i, 8, feat([238; 3], Some([0, 105, 96]), 0.2)));
        }
        let (cells, features) = screen(&s);
        let split = InkSplit::of(&cells, &features);
        assert_eq!(split.kind(0), Some(DigitKind::Given));
        assert_eq!(split.kind(1), Some(DigitKind::Entry));
        assert_eq!(split.kind(5), Some(DigitKind::Unknown));
        assert!(
            split.summary().contains("highlighted 3"),
            "{}",
            split.summary()
        );
    }

    #[test]
    fn a_highlight_that_keeps_the_ink_keeps_the_kind_without_calibration() {
        // Givens dark on grey discs, entries teal and bare; the picked 8 on teal discs, each
        // digit keeping its ink.
        let teal = [0, 137, 123];
        let hl_disc = Some([143, 211, 201]);
        let mut s: Vec<_> = (0..20)
            .map(|i| (i * 4, i % 7, feat([30; 3], Some([218, 228, 224]), 0.2)))
            .collect();
        s.push((1, 2, feat(teal, None, 0.2)));
        s.push((2, 4, feat(teal, None, 0.2)));
        s.push((3, 7, feat([32; 3], hl_disc, 0.2)));
        s.push((5, 7, feat([32; 3], hl_disc, 0.2)));
        s.push((6, 7, feat(teal, hl_disc, 0.2)));
        s.push((7, 7, feat(teal, hl_disc, 0.2)));
        let (cells, features) = screen(&s);
        let split = InkSplit::of(&cells, &features);
        assert_eq!(split.kind(3), Some(DigitKind::Given));
        assert_eq!(split.kind(5), Some(DigitKind::Given));
        assert_eq!(split.kind(6), Some(DigitKind::Entry));
        assert_eq!(split.kind(7), Some(DigitKind::Entry));
        assert_eq!(split.kind(1), Some(DigitKind::Entry));
        // The picked digit shown once: a lone given on a highlight disc stays a given.
        let s: Vec<_> = s.into_iter().filter(|&(i, ..)| i != 5).collect();
        let (cells, features) = screen(&s);
        let split = InkSplit::of(&cells, &features);
        assert_eq!(split.kind(3), Some(DigitKind::Given));
        assert_eq!(split.kind(1), Some(DigitKind::Entry));
    }

    /// The digit each test cell shows (cells 0.. in reading order hold glyph `i % 9`).
    fn digits_of(styles: &[(usize, usize, InkFeatures)]) -> Vec<Option<u8>> {
        let mut d = vec![None; 81];
        for &(i, glyph, _) in styles {
            d[i] = Some(glyph as u8 + 1);
        }
        d
    }

    #[test]
    fn a_theme_changed_since_calibration_does_not_turn_givens_into_entries() {
        let stored = StoredInks {
            given: [30; 3],
            entry: Some([33, 150, 243]),
            distance: 60.0,
        };
        // Dark theme now: light grey givens, light blue entries; no digit in a stored colour.
        let mut s: Vec<_> = (0..20)
            .map(|i| (i * 4, i % 9, feat([225; 3], None, 0.2)))
            .collect();
        s.push((1, 3, feat([130, 190, 255], None, 0.2)));
        s.push((2, 5, feat([130, 190, 255], None, 0.2)));
        let (cells, features) = screen(&s);
        let kinds = calibrated_kinds(&digits_of(&s), &cells, &features, stored);
        assert_eq!(kinds[0], Some(DigitKind::Given));
        assert_eq!(kinds[4], Some(DigitKind::Given));
        assert_eq!(kinds[1], Some(DigitKind::Entry));
        assert_eq!(kinds[3], None);
    }

    #[test]
    fn a_highlight_keeps_the_kind_of_its_ink_and_hides_it_when_it_recolours_the_digit() {
        // Calibrated with givens only: entries are whatever is far from the given colour.
        let stored = StoredInks {
            given: [30; 3],
            entry: None,
            distance: 60.0,
        };
        let mut s: Vec<_> = (0..20)
            .map(|i| (i * 4, i % 7, feat([30; 3], None, 0.2)))
            .collect();
        // Teal entries of several digits; the picked 8 sits on a disc: two entries keep the
        // teal ink, two givens are recoloured white on a dark disc.
        s.push((1, 2, feat([0, 137, 123], None, 0.2)));
        s.push((2, 4, feat([0, 137, 123], None, 0.2)));
        s.push((3, 7, feat([0, 137, 123], Some([143, 211, 201]), 0.2)));
        s.push((5, 7, feat([0, 137, 123], Some([143, 211, 201]), 0.2)));
        s.push((6, 7, feat([250; 3], Some([0, 105, 92]), 0.2)));
        s.push((7, 7, feat([250; 3], Some([0, 105, 92]), 0.2)));
        let (cells, features) = screen(&s);
        let kinds = calibrated_kinds(&digits_of(&s), &cells, &features, stored);
        assert_eq!(kinds[0], Some(DigitKind::Given));
        assert_eq!(kinds[1], Some(DigitKind::Entry));
        assert_eq!(kinds[3], Some(DigitKind::Entry));
        assert_eq!(kinds[5], Some(DigitKind::Entry));
        assert_eq!(kinds[6], Some(DigitKind::Unknown));
        assert_eq!(kinds[7], Some(DigitKind::Unknown));
    }

    #[test]
    fn entries_in_the_given_ink_told_apart_by_a_missing_disc_are_entries_after_calibration() {
        // Calibrated on a screen whose digits all share one ink (Saku): only a disc marks givens.
        let stored = StoredInks {
            given: [30; 3],
            entry: None,
            distance: 60.0,
        };
        let grey_disc = Some([218, 228, 224]);
        let mut s: Vec<_> = (0..20)
            .map(|i| (i * 4, i % 7, feat([30; 3], grey_disc, 0.2)))
            .collect();
        s.push((1, 2, feat([32; 3], None, 0.2)));
        s.push((2, 4, feat([28; 3], None, 0.2)));
        for i in [5, 6, 7] {
            s.push((i, 8, feat([238; 3], Some([0, 105, 96]), 0.2)));
        }
        let (cells, features) = screen(&s);
        let kinds = calibrated_kinds(&digits_of(&s), &cells, &features, stored);
        assert_eq!(kinds[0], Some(DigitKind::Given));
        assert_eq!(kinds[4], Some(DigitKind::Given));
        assert_eq!(kinds[1], Some(DigitKind::Entry));
        assert_eq!(kinds[2], Some(DigitKind::Entry));
        assert_eq!(kinds[5], Some(DigitKind::Unknown));
        // One bare digit alone says nothing: it may be a given a highlight restyled.
        let s: Vec<_> = s.into_iter().filter(|&(i, ..)| i != 2).collect();
        let (cells, features) = screen(&s);
        let kinds = calibrated_kinds(&digits_of(&s), &cells, &features, stored);
        assert_eq!(kinds[1], Some(DigitKind::Given));
    }

    #[test]
    fn bold_givens_and_regular_entries_of_one_colour_are_split_by_stroke() {
        let mut s: Vec<_> = (0..20)
            .map(|i| (i * 4, i % 9, feat([0; 3], None, 0.18 + 0.002 * i as f32)))
            .collect();
        for i in [1, 2, 3, 5] {
            s.push((i, i, feat([0; 3], None, 0.12)));
        }
        let (cells, features) = screen(&s);
        let split = InkSplit::of(&cells, &features);
        assert_eq!(split.kind(0), Some(DigitKind::Given));
        assert_eq!(split.kind(5), Some(DigitKind::Entry));
        // A spread of strokes without two bands stays one style.
        let s: Vec<_> = (0..30)
            .map(|i| (i * 2, i % 9, feat([0; 3], None, 0.19 + 0.0015 * i as f32)))
            .collect();
        let (cells, features) = screen(&s);
        assert_eq!(InkSplit::of(&cells, &features), InkSplit::Indistinguishable);
    }

    #[test]
    fn neutral_givens_outnumbered_by_accent_entries_are_still_the_givens() {
        // Light theme: near-black givens, blue entries; dark theme: light grey and light blue.
        for (given, entry, cell) in [
            ([30; 3], [33, 150, 243], [255; 3]),
            ([225; 3], [130, 190, 255], [30; 3]),
        ] {
            let s = late_game(feat_on(given, cell, 0.12), feat_on(entry, cell, 0.12), 45);
            let (cells, features) = screen(&s);
            let split = InkSplit::of(&cells, &features);
            assert_eq!(split.kind(0), Some(DigitKind::Given), "{given:?}");
            assert_eq!(split.kind(76), Some(DigitKind::Given));
            assert_eq!(split.kind(1), Some(DigitKind::Entry));
            assert!(
                split.summary().starts_with("givens 20, entries 45"),
                "{}",
                split.summary()
            );
        }
    }

    #[test]
    fn a_disc_a_tinted_cell_or_a_bolder_stroke_marks_outnumbered_givens() {
        let ink = [20; 3];
        for (given, entry) in [
            (
                feat(ink, Some([218, 228, 224]), 0.12),
                feat(ink, None, 0.12),
            ),
            // Two neutral inks: the tint decides (a tint alone, in one ink, is no style apart).
            (
                feat_on([90; 3], [208, 252, 248], 0.12),
                feat_on(ink, [255; 3], 0.12),
            ),
            (feat(ink, None, 0.19), feat(ink, None, 0.12)),
        ] {
            let (cells, features) = screen(&late_game(given, entry, 45));
            let split = InkSplit::of(&cells, &features);
            assert_eq!(split.kind(0), Some(DigitKind::Given), "{given:?}");
            assert_eq!(split.kind(1), Some(DigitKind::Entry), "{given:?}");
        }
    }

    #[test]
    fn two_styles_that_could_both_be_the_givens_with_no_cue_or_clashing_cues_are_unknown() {
        // Two neutral inks alike in all else; then Open Sudoku's look: slate givens on tinted
        // cells, black entries on white ones (the tint says one thing, the inks the other).
        let cases = [
            (
                feat_on([150; 3], [20; 3], 0.12),
                feat_on([235; 3], [20; 3], 0.12),
            ),
            (
                feat_on([65, 109, 133], [208, 252, 248], 0.12),
                feat_on([0; 3], [255; 3], 0.12),
            ),
        ];
        for (given, entry) in cases {
            let (cells, features) = screen(&late_game(given, entry, 45));
            assert_eq!(InkSplit::of(&cells, &features), InkSplit::Indistinguishable);
            // With too few entries to be the givens, the sizes alone decide.
            let (cells, features) = screen(&late_game(given, entry, 10));
            let split = InkSplit::of(&cells, &features);
            assert_eq!(split.kind(0), Some(DigitKind::Given), "{given:?}");
            assert_eq!(split.kind(1), Some(DigitKind::Entry), "{given:?}");
        }
    }

    #[test]
    fn tints_shared_by_both_kinds_do_not_outvote_the_inks() {
        // Every other box shaded and the selected cell's peers tinted: more entries than givens
        // happen to stand on them, which says nothing of their kind.
        let (white, shade) = ([255; 3], [234, 241, 251]);
        let mut s = late_game(
            feat_on([17; 3], white, 0.12),
            feat_on([30, 99, 196], white, 0.12),
            45,
        );
        for (n, style) in s.iter_mut().enumerate() {
            let shaded = if style.0 % 4 == 0 {
                n % 3 == 0
            } else {
                n % 3 != 0
            };
            if shaded {
                style.2.background = shade;
            }
        }
        let (cells, features) = screen(&s);
        let split = InkSplit::of(&cells, &features);
        assert_eq!(split.kind(0), Some(DigitKind::Given));
        assert_eq!(split.kind(1), Some(DigitKind::Entry));
    }

    #[test]
    fn entries_in_the_given_ink_outnumbering_givens_on_discs_are_entries_after_calibration() {
        let stored = StoredInks {
            given: [30; 3],
            entry: None,
            distance: 60.0,
        };
        let s = late_game(
            feat([30; 3], Some([218, 228, 224]), 0.12),
            feat([30; 3], None, 0.12),
            45,
        );
        let (cells, features) = screen(&s);
        let kinds = calibrated_kinds(&digits_of(&s), &cells, &features, stored);
        assert_eq!(kinds[0], Some(DigitKind::Given));
        assert_eq!(kinds[76], Some(DigitKind::Given));
        assert_eq!(kinds[1], Some(DigitKind::Entry));
        assert_eq!(
            kinds
                .iter()
                .filter(|k| **k == Some(DigitKind::Entry))
                .count(),
            45
        );
    }

    /// 81 cells: 30 givens in black on grey cells (digits 1-9 in turn), then `entries` entries
    /// in black on white cells, the rest empty.
    fn board_with_entries(entries: usize) -> (Vec<Option<u8>>, Vec<Option<InkFeatures>>) {
        let mut digits = vec![None; 81];
        let mut features = vec![None; 81];
        for i in 0..30 + entries {
            digits[i] = Some((i % 9) as u8 + 1);
            let cell = if i < 30 { [200; 3] } else { [250; 3] };
            features[i] = Some(feat_on([0; 3], cell, 0.12));
        }
        (digits, features)
    }

    #[test]
    fn of_two_clashing_digits_in_one_alarm_colour_the_one_on_the_rarer_tint_is_the_entry() {
        let (mut digits, mut features) = board_with_entries(4);
        let red = [240, 60, 50];
        // Cell 2 (a given, grey cell) and cell 31 (an entry, white cell), both drawn red.
        digits[31] = digits[2];
        features[2] = Some(feat_on(red, [200; 3], 0.12));
        features[31] = Some(feat_on(red, [250; 3], 0.12));
        assert_eq!(mistaken_entry(2, 31, &digits, &features), Some(31));
        assert_eq!(mistaken_entry(31, 2, &digits, &features), Some(31));
        // An entry in its own ink on a given's tint: the ink alone says which.
        features[31] = Some(feat_on(red, [200; 3], 0.12));
        features[2] = Some(feat_on([0; 3], [200; 3], 0.12));
        assert_eq!(mistaken_entry(2, 31, &digits, &features), Some(31));
    }

    #[test]
    fn clashing_digits_drawn_alike_or_in_a_same_number_highlight_name_no_entry() {
        let (mut digits, mut features) = board_with_entries(0);
        // Two givens drawn alike (a misread, say): nothing says which is wrong.
        digits[1] = digits[0];
        assert_eq!(mistaken_entry(0, 1, &digits, &features), None);
        // A same-number highlight (every 1 on a blue disc) may hide a given: no verdict.
        let blue = [120, 160, 250];
        for i in (0..30).filter(|i| digits[*i] == Some(1)) {
            features[i] = Some(feat_on([0; 3], blue, 0.12));
        }
        let other = (0..30).find(|i| digits[*i] == Some(2)).unwrap();
        digits[other] = Some(1);
        assert_eq!(mistaken_entry(0, other, &digits, &features), None);
    }
}
