//! Givens vs player entries, told apart on each screen by itself: the big digits are grouped
//! by how they are drawn (ink colour, a disc under the digit, stroke thickness), so a theme
//! change that recolours everything does not flip them, and no stored colour is needed.
//!
//! Groups are read as follows. A group of two or more cells that all show one glyph, beside a
//! larger group, is a same-number highlight (the app marks every 5 when a 5 is selected): its
//! cells are [`DigitKind::Unknown`], since the highlight hides how they were drawn, unless it
//! kept their ink and that ink is one kind's only (it just put a tint or a disc under them); a
//! lone digit on a disc of its own in another group's ink, or drawn the other way round from
//! the screen's digits (the selected cell), is judged the same way. Digits of one ink whose
//! cells take two tints, the fewer scattered as entries are, are two groups. Of the remaining
//! groups one holds the givens, the others are entries ([`givens_group`]): the only group big
//! enough for a puzzle's givens (17 or more, counting the digits a highlight hides), else the
//! group the drawing marks as givens (on a disc or a tinted cell, a bolder stroke, the theme's
//! neutral ink beside an accent colour or a faint grey), whatever the sizes: late in a game the
//! entries outnumber the givens. When every digit is drawn alike, or nothing says which style
//! is the givens', the split is [`InkSplit::Indistinguishable`] and no guess is made.
//! [`calibrated_kinds`] does the same for the calibrated reader, with the calibration's stored
//! colours deciding where the screen still draws them (a finished board, where entries outnumber
//! givens), the screen's own split where the theme changed, and the screen's own rule among
//! digits in the given ink that differ only by a disc or a stroke (the stored colours cannot).

use super::cells::{CellInk, InkFeatures};
use super::locate::Grid;
use super::patch::ncc;
use super::screen::colour_distance;
use crate::board::Cell;
use image::RgbaImage;

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
    // A "disc" in the colour of the other digit's own cell is no mark one can see: the cell's
    // corners differed (a tile's gap, a grid cut a little wide), not what lies under the digit.
    let discs = match (a.disc, b.disc) {
        (None, None) => true,
        (Some(x), Some(y)) => colour_distance(x, y) <= SAME_COLOUR,
        (Some(x), None) => colour_distance(x, b.background) <= SAME_TINT,
        (None, Some(y)) => colour_distance(y, a.background) <= SAME_TINT,
    };
    discs && (colour_distance(a.ink, b.ink) <= SAME_COLOUR || same_grey(a.ink, b.ink))
}

/// Two greys (or blacks, or whites) this close in brightness are one ink: a thin digit's ink
/// measured through JPEG blur reads a little lighter than its neighbours', and no app draws two
/// kinds in greys this close.
const SAME_GREY_LUMA: f32 = 40.0;
/// An ink with at most this chroma (RGB max minus min) is a grey.
const GREY_CHROMA: i32 = 24;

fn same_grey(a: [u8; 3], b: [u8; 3]) -> bool {
    let chroma =
        |c: [u8; 3]| *c.iter().max().unwrap_or(&0) as i32 - *c.iter().min().unwrap_or(&0) as i32;
    chroma(a) <= GREY_CHROMA
        && chroma(b) <= GREY_CHROMA
        && (luma(a) - luma(b)).abs() < SAME_GREY_LUMA
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

/// Splits one group of digits drawn alike by the tint of their cells, when the tint marks a kind
/// (Open Sudoku and GNOME Sudoku put their givens on grey cells, entries on white ones): the
/// cells fall in two tints far apart, each tight, and the fewer (two or more) are scattered as
/// entries are, never two in one row, column or box. A tint the app puts for another reason is
/// not taken: the selected cell's row and column (every digit of the group there in the tint),
/// with its box and at most one other digit or one glyph beside, a same-number highlight (one
/// glyph), or shaded boxes (no box holds both tints).
///
/// A lone digit is taken too when it sits on the paper of the empty cells (`paper`) while the
/// rest of its ink is tinted: that app tints its givens' cells, and this one is the player's.
/// A selection or a highlight tints cells away from the paper, never back to it.
fn split_by_tint(
    group: &[usize],
    features: &[Option<InkFeatures>],
    one_glyph: &dyn Fn(&[usize]) -> bool,
    paper: Option<[u8; 3]>,
) -> Option<[Vec<usize>; 2]> {
    let mut tints: Vec<(f32, usize)> = group
        .iter()
        .filter_map(|&i| Some((luma(features[i]?.background), i)))
        .collect();
    if tints.len() < 5 {
        return None;
    }
    tints.sort_by(|a, b| a.0.total_cmp(&b.0));
    let k = (1..tints.len())
        .max_by(|&a, &b| (tints[a].0 - tints[a - 1].0).total_cmp(&(tints[b].0 - tints[b - 1].0)))?;
    let (lo, hi) = tints.split_at(k);
    let gap = hi[0].0 - lo[lo.len() - 1].0;
    let spread = |v: &[(f32, usize)]| v[v.len() - 1].0 - v[0].0;
    if gap < TINT_LUMA || spread(lo).max(spread(hi)) * 2.0 >= gap {
        return None;
    }
    let ids = |v: &[(f32, usize)]| -> Vec<usize> { v.iter().map(|p| p.1).collect() };
    let (most, few) = if lo.len() >= hi.len() {
        (ids(lo), ids(hi))
    } else {
        (ids(hi), ids(lo))
    };
    let cell = |i: usize| Cell::new(i / 9, i % 9);
    let sees = |a: usize, b: usize| match (cell(a), cell(b)) {
        (Some(x), Some(y)) => x.sees(y),
        _ => false,
    };
    let box_of = |i: usize| (i / 27, (i % 9) / 3);
    // Shaded boxes: each box in one tint, so no box holds both.
    let boxes_pure = few
        .iter()
        .all(|&a| most.iter().all(|&b| box_of(a) != box_of(b)));
    let on_paper = |i: usize| {
        paper
            .zip(features[i])
            .is_some_and(|(p, f)| (luma(f.background) - luma(p)).abs() < TINT_LUMA / 2.0)
    };
    if let [lone] = few[..]
        && on_paper(lone)
    {
        log::debug!("kinds: a lone digit of its ink on the empty cells' paper: {lone}");
        return (!boxes_pure).then_some([most, few]);
    }
    let scattered = few.len() >= 2
        && few
            .iter()
            .all(|&a| few.iter().all(|&b| a == b || !sees(a, b)));
    if !scattered || one_glyph(&few) {
        return None;
    }
    // The selected cell `c` tints its row and column (every digit of the group there is in the
    // tint), often its box too, and maybe every cell of its digit.
    let selection = (0..81).any(|c| {
        let line = |i: usize| i / 9 == c / 9 || i % 9 == c % 9;
        most.iter().all(|&i| !line(i)) && {
            let rest: Vec<usize> = few
                .iter()
                .copied()
                .filter(|&i| i != c && !sees(i, c))
                .collect();
            rest.len() <= 1 || one_glyph(&rest)
        }
    });
    let split = !selection && !boxes_pure;
    if split {
        log::debug!(
            "kinds: {} digits of one ink on another tint: {few:?}",
            few.len()
        );
    }
    split.then_some([most, few])
}

/// The colour of the screen's empty cells (no big digit, no notes): per colour channel the
/// median over them of each cell's mean at nine points of its middle half, clear of the lines.
/// `None` with fewer than five such cells.
pub(crate) fn paper_colour(img: &RgbaImage, grid: &Grid, cells: &[CellInk]) -> Option<[u8; 3]> {
    let mut means: Vec<[u8; 3]> = Vec::new();
    for (cell, ink) in Cell::all().zip(cells) {
        if ink.digit.is_some() || ink.notes {
            continue;
        }
        let r = grid.cell_rect(cell);
        let mut sum = [0u32; 3];
        for fy in [1, 2, 3] {
            for fx in [1, 2, 3] {
                let x = (r.x + r.width * (fx + 1) / 8).min(img.width().saturating_sub(1));
                let y = (r.y + r.height * (fy + 1) / 8).min(img.height().saturating_sub(1));
                let p = img.get_pixel(x, y).0;
                (0..3).for_each(|k| sum[k] += p[k] as u32);
            }
        }
        means.push(sum.map(|v| (v / 9) as u8));
    }
    if means.len() < 5 {
        return None;
    }
    Some([0, 1, 2].map(|k| {
        let mut v: Vec<u8> = means.iter().map(|m| m[k]).collect();
        v.sort_unstable();
        v[v.len() / 2]
    }))
}

/// The fewest givens of a puzzle with one solution: a smaller group cannot be the givens.
const MIN_GIVENS: usize = 17;
/// Below this chroma (RGB max minus min) an ink is the theme's neutral text colour (a navy as
/// dark as Sudoku.com's givens, 45, included).
const NEUTRAL_CHROMA: i32 = 60;
/// An accent ink is at least this much more chromatic than the neutral one.
const ACCENT_GAP: i32 = 60;
/// Two neutral inks on one paper whose contrasts differ by this much brightness are a strong and
/// a faint ink.
const FAINT_LUMA: f32 = 60.0;
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
/// Sudoku, shaded apps), a bolder stroke (Privacy Friendly Sudoku), the theme's neutral ink
/// with entries in an accent colour (Sudoku.com, Material Sudoku), or a strong neutral ink with
/// entries in a faint grey. Open Sudoku draws its givens in slate blue and its entries black,
/// on untinted cells: there the ink and the tint disagree and nothing is said.
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
    // Two neutral inks on one paper: the fainter one (grey beside black, or beside white on a
    // dark theme) is the player's; the givens stand out most.
    let same_paper = !a.on_discs
        && !b.on_discs
        && (a.cell_luma - b.cell_luma).abs() < TINT_LUMA
        && a.chroma.max(b.chroma) <= NEUTRAL_CHROMA;
    let contrast = |d: &Drawn| (d.ink_luma - d.cell_luma).abs();
    let faint = (same_paper && (contrast(a) - contrast(b)).abs() >= FAINT_LUMA)
        .then(|| contrast(a) > contrast(b));
    let votes: Vec<bool> = [disc, tint, stroke, ink, faint]
        .into_iter()
        .flatten()
        .collect();
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
/// same-number highlight that recoloured them ([`DigitKind::Unknown`]: it hides their kind), and
/// so is a lone digit in the selected cell's reversed colours; any other group is entries. Groups in the given colour that differ by a disc or a stroke
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
    // The selected cell in the app's selection colours hides its kind too.
    let largest = (0..groups.len())
        .max_by_key(|&g| (groups[g].len(), std::cmp::Reverse(g)))
        .unwrap_or(0);
    let selected = lone_inverted(&groups, features, largest);
    let mut decided: Vec<Option<DigitKind>> = (0..groups.len())
        .map(|n| {
            let (dg, de) = (to_given(inks[n]), to_entry(inks[n]));
            let hidden =
                one_digit(&groups[n]) || (selected[n] && n != largest && dg > stored.distance);
            (!hidden).then_some(if dg <= stored.distance && dg <= de {
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

/// Which of `groups` are a lone digit drawn the other way round from the screen's digits (those
/// of group `largest`): dark on a light tint where they are light on a dark paper, or the
/// reverse. That is the selected cell in the app's selection colours, which hide its kind.
fn lone_inverted(
    groups: &[Vec<usize>],
    features: &[Option<InkFeatures>],
    largest: usize,
) -> Vec<bool> {
    let polarity = |f: &InkFeatures| {
        let (ink, paper) = (luma(f.ink), luma(f.background));
        ((ink - paper).abs() >= POLARITY_LUMA).then_some(ink > paper)
    };
    let Some(main) = groups.get(largest) else {
        return vec![false; groups.len()];
    };
    let (l, d) = main
        .iter()
        .filter_map(|&i| polarity(features[i].as_ref()?))
        .fold((0usize, 0usize), |(l, d), light| {
            (l + light as usize, d + !light as usize)
        });
    let light = match (l, d) {
        (l, 0) if l > 0 => true,
        (0, d) if d > 0 => false,
        _ => return vec![false; groups.len()],
    };
    groups
        .iter()
        .map(|g| {
            g.len() == 1
                && features[g[0]]
                    .as_ref()
                    .and_then(polarity)
                    .is_some_and(|p| p != light)
        })
        .collect()
}

/// A digit stands out from its cell, lighter or darker, by this much brightness.
const POLARITY_LUMA: f32 = 40.0;
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

/// Of two clashing digits drawn alike (ink and cell tint) that nothing yet calls an entry and
/// [`mistaken_entry`] cannot tell apart: both are the player's, when their ink is rare on the
/// screen (at most half its digits share it: not the givens') and a digit equal to them is drawn
/// in another ink (so theirs is no same-number highlight, which restyles every one of them).
/// Two wrong entries of one digit in one row, say.
pub fn mistaken_pair(
    a: usize,
    b: usize,
    digits: &[Option<u8>],
    features: &[Option<InkFeatures>],
) -> bool {
    let (Some(fa), Some(fb)) = (features[a], features[b]) else {
        return false;
    };
    if colour_distance(fa.ink, fb.ink) > SAME_COLOUR
        || colour_distance(fa.background, fb.background) > SAME_TINT
    {
        return false;
    }
    let drawn: Vec<usize> = (0..features.len())
        .filter(|&i| features[i].is_some())
        .collect();
    let alike =
        |i: usize| features[i].is_some_and(|f| colour_distance(f.ink, fa.ink) <= SAME_COLOUR);
    let rare = drawn.iter().filter(|&&i| alike(i)).count() * 2 <= drawn.len();
    let left_out = drawn
        .iter()
        .any(|&i| digits[i].is_some() && digits[i] == digits[a] && !alike(i));
    rare && left_out
}

/// Whether the digits of `g` (indices into `cells`) show one glyph: every patch linked to the
/// first through patches that correlate well. Small digits sampled at different sub-pixel
/// phases can fall short of each other directly and still both match a third.
fn one_glyph(cells: &[CellInk], g: &[usize]) -> bool {
    let patch = |i: usize| cells[i].digit.as_ref().map(|d| d.pixels.as_slice());
    let same = |a: usize, b: usize| match (patch(a), patch(b)) {
        (Some(a), Some(b)) => ncc(a, b) >= SAME_GLYPH,
        _ => false,
    };
    let Some((&first, others)) = g.split_first() else {
        return false;
    };
    let mut linked = vec![first];
    let mut rest: Vec<usize> = others.to_vec();
    while let Some(k) = rest
        .iter()
        .position(|&i| linked.iter().any(|&j| same(i, j)))
    {
        linked.push(rest.swap_remove(k));
    }
    rest.is_empty()
}

impl InkSplit {
    /// Splits the digits of one screen (`cells` and `features` row by row, as returned by
    /// `cells::cut_cells_adaptive_on`).
    pub fn of(cells: &[CellInk], features: &[Option<InkFeatures>]) -> InkSplit {
        InkSplit::on_paper(cells, features, None)
    }

    /// [`InkSplit::of`] knowing the colour of the screen's empty cells ([`paper_colour`]),
    /// which tells a lone entry on bare paper among givens on tinted cells.
    pub fn on_paper(
        cells: &[CellInk],
        features: &[Option<InkFeatures>],
        paper: Option<[u8; 3]>,
    ) -> InkSplit {
        let one_glyph = |g: &[usize]| one_glyph(cells, g);
        let groups: Vec<Vec<usize>> = style_groups(features)
            .into_iter()
            .flat_map(|g| match split_by_tint(&g, features, &one_glyph, paper) {
                Some([most, few]) => vec![most, few],
                None => vec![g],
            })
            .collect();
        if groups.len() <= 1 {
            return InkSplit::Indistinguishable;
        }
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
        let largest = (0..groups.len())
            .max_by_key(|&g| (groups[g].len(), std::cmp::Reverse(g)))
            .unwrap_or(0);
        let inverted = lone_inverted(&groups, features, largest);
        let highlight: Vec<bool> = (0..groups.len())
            .map(|n| (groups[n].len() >= 2 && one_glyph(&groups[n])) || restyled(n) || inverted[n])
            .collect();
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
mod tests;
