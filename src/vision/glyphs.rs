//! Labelling the big digits of one screen without the app's templates. The digits on a screen
//! come in at most nine shapes (a few more when givens and entries use two weights), one per
//! digit, so the patches are first grouped by shape, and the groups are then given digits
//! JOINTLY: the one-to-one assignment of groups to 1-9 that the glyph bank (and, when found, the
//! keypad) likes best. A group whose digit could change at little cost, or on which two
//! independent sources disagree, is a doubt: the caller refuses and names its cells.

use super::bank::{Bank, bank, dot, feature};
use super::holes;
use super::patch::ncc;
use crate::sudoku::Cell;

/// Shape groups of a screen's digit patches.
#[derive(Debug, Clone, PartialEq)]
pub struct Clusters {
    /// Group of each patch, in input order.
    pub of: Vec<usize>,
    /// Mean patch of each group.
    pub centroids: Vec<Vec<u8>>,
}

impl Clusters {
    pub fn len(&self) -> usize {
        self.centroids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.centroids.is_empty()
    }

    /// Indices of the patches in group `k`.
    pub fn members(&self, k: usize) -> impl Iterator<Item = usize> + '_ {
        self.of
            .iter()
            .enumerate()
            .filter(move |(_, g)| **g == k)
            .map(|(i, _)| i)
    }
}

/// Two patches of one screen at least this alike are the same glyph.
const SAME_GLYPH: f32 = 0.85;
/// Two patches this alike are one glyph even where the rules say they cannot be.
const IDENTICAL: f32 = 0.95;

pub(crate) fn mean_patch(patches: &[&[u8]]) -> Vec<u8> {
    let n = patches.len().max(1) as u32;
    (0..patches.first().map_or(0, |p| p.len()))
        .map(|i| ((patches.iter().map(|p| p[i] as u32).sum::<u32>() + n / 2) / n) as u8)
        .collect()
}

/// Groups patches by shape: each joins the most alike group when it matches it well and sees
/// none of its cells (two cells in one row, column or box never hold the same digit), else
/// starts a new group. Then, while there are more than nine groups, the two most alike groups
/// that never see each other merge (one digit drawn in two weights; see [`best_merge`] for a
/// player's mistake drawn in another weight).
pub fn cluster(bank: &Bank, patches: &[&[u8]], cells: &[Cell]) -> Clusters {
    let mut of: Vec<usize> = Vec::with_capacity(patches.len());
    let mut members: Vec<Vec<usize>> = Vec::new();
    let mut centroids: Vec<Vec<u8>> = Vec::new();
    // The digit the bank clearly reads each group's mean as, worked out when first wanted.
    let mut group_digit: Vec<Option<Option<usize>>> = Vec::new();
    for (i, p) in patches.iter().enumerate() {
        // A near-identical glyph joins even a group it sees: that is a player's mistake on the
        // board (a digit twice in a row), not two digits.
        let best = most_alike_group(bank, p, &centroids, &mut group_digit, |k, s| {
            s >= IDENTICAL || !members[k].iter().any(|&j| cells[j].sees(cells[i]))
        });
        match best {
            Some((k, s)) if s >= SAME_GLYPH => {
                members[k].push(i);
                let ps: Vec<&[u8]> = members[k].iter().map(|&j| patches[j]).collect();
                centroids[k] = mean_patch(&ps);
                group_digit[k] = None;
                of.push(k);
            }
            _ => {
                members.push(vec![i]);
                centroids.push(p.to_vec());
                group_digit.push(None);
                of.push(centroids.len() - 1);
            }
        }
    }
    while centroids.len() > 9 {
        let Some((a, b)) = best_merge(bank, &members, &centroids, cells, &mut group_digit) else {
            break;
        };
        let moved = members.remove(b);
        members[a].extend(moved);
        centroids.remove(b);
        group_digit.remove(b);
        group_digit[a] = None;
        let ps: Vec<&[u8]> = members[a].iter().map(|&j| patches[j]).collect();
        centroids[a] = mean_patch(&ps);
    }
    let mut of = vec![0; patches.len()];
    for (k, m) in members.iter().enumerate() {
        for &i in m {
            of[i] = k;
        }
    }
    Clusters { of, centroids }
}

/// The group (index and alikeness) whose mean `p` is most like among those `allowed`, passing
/// over a group that is only alike (below [`IDENTICAL`]) when the bank clearly reads `p` as
/// one digit and the group's mean as another: small digits of one typeface (a thin 3 and a bold
/// 8, a 5 and a 6, 13 to 30 px tall) can match above [`SAME_GLYPH`], and a patch that joins
/// the wrong group takes its digit. `group_digit` caches the bank's reading of each mean.
fn most_alike_group(
    bank: &Bank,
    p: &[u8],
    centroids: &[Vec<u8>],
    group_digit: &mut [Option<Option<usize>>],
    allowed: impl Fn(usize, f32) -> bool,
) -> Option<(usize, f32)> {
    let mut own: Option<Option<usize>> = None;
    let mut best: Option<(usize, f32)> = None;
    for (k, c) in centroids.iter().enumerate() {
        let s = ncc(c, p);
        if !allowed(k, s) || best.is_some_and(|b| b.1 >= s) {
            continue;
        }
        if (SAME_GLYPH..IDENTICAL).contains(&s) {
            let mine = *own.get_or_insert_with(|| clear_digit(bank, p));
            let theirs = *group_digit[k].get_or_insert_with(|| clear_digit(bank, c));
            if mine.is_some() && theirs.is_some() && mine != theirs {
                continue;
            }
        }
        best = Some((k, s));
    }
    best
}

/// A player's mistake repeats a digit its row, column or box already holds, and is often drawn
/// in another weight than the givens: its group sees the given's group in a cell or two.
const MISTAKE_CLASHES: usize = 2;
/// Two groups that see each other are this alike at least to be one digit and a mistake.
const MISTAKE_ALIKE: f32 = 0.6;
/// ... and this much more alike than any two groups that never see each other.
const MISTAKE_LEAD: f32 = 0.2;

/// The digit the bank clearly reads a patch as (score and margin), if any.
fn clear_digit(bank: &Bank, patch: &[u8]) -> Option<usize> {
    let s = bank.best_per_digit(&feature(patch));
    clear_scores(&s).then(|| best_two(&s)[0].0)
}

/// The two groups to merge next (indices, `a < b`): the most alike that never see each other,
/// unless two that see each other in at most [`MISTAKE_CLASHES`] pairs of cells are clearly
/// more alike ([`MISTAKE_ALIKE`], [`MISTAKE_LEAD`]) and the bank clearly reads both as one
/// digit: that digit drawn in two weights, one of its cells a player's mistake. Alikeness alone
/// is not enough: two digits of one typeface (a 5 and a 6) can be as alike as one digit in two.
/// `group_digit` caches the bank's reading of each mean, as in [`most_alike_group`].
fn best_merge(
    bank: &Bank,
    members: &[Vec<usize>],
    centroids: &[Vec<u8>],
    cells: &[Cell],
    group_digit: &mut [Option<Option<usize>>],
) -> Option<(usize, usize)> {
    let k = centroids.len();
    // Two groups the bank clearly reads as two digits stay apart (see `most_alike_group`).
    let digits: Vec<Option<usize>> = centroids
        .iter()
        .zip(group_digit.iter_mut())
        .map(|(c, d)| *d.get_or_insert_with(|| clear_digit(bank, c)))
        .collect();
    let two_digits =
        |a: usize, b: usize| digits[a].is_some() && digits[b].is_some() && digits[a] != digits[b];
    let mut apart: Option<(f32, usize, usize)> = None;
    let mut clashing: Vec<(f32, usize, usize)> = Vec::new();
    for a in 0..k {
        for b in a + 1..k {
            let clashes = members[a]
                .iter()
                .map(|&i| {
                    members[b]
                        .iter()
                        .filter(|&&j| cells[i].sees(cells[j]))
                        .count()
                })
                .sum::<usize>();
            let s = ncc(&centroids[a], &centroids[b]);
            match clashes {
                0 if !two_digits(a, b) && apart.is_none_or(|(bs, _, _)| s > bs) => {
                    apart = Some((s, a, b))
                }
                0 => {}
                n if n <= MISTAKE_CLASHES => clashing.push((s, a, b)),
                _ => {}
            }
        }
    }
    let floor = apart.map_or(MISTAKE_ALIKE, |(bs, _, _)| {
        (bs + MISTAKE_LEAD).max(MISTAKE_ALIKE)
    });
    clashing.sort_by(|x, y| y.0.total_cmp(&x.0));
    let mistake = clashing
        .iter()
        .take_while(|&&(s, _, _)| s >= floor)
        .find(|&&(_, a, b)| {
            let da = clear_digit(bank, &centroids[a]);
            da.is_some() && da == clear_digit(bank, &centroids[b])
        });
    match mistake {
        Some(&(_, a, b)) => Some((a, b)),
        None => apart.map(|(_, a, b)| (a, b)),
    }
}

/// How well each group looks like each digit: `scores[group][digit - 1]`.
pub type Scores = Vec<[f32; 9]>;

/// Bank scores of each centroid: the best correlation with any typeface's drawing of the digit.
pub fn bank_scores(bank: &Bank, centroids: &[Vec<u8>]) -> Scores {
    centroids
        .iter()
        .map(|c| bank.best_per_digit(&feature(c)))
        .collect()
}

/// The best one-to-one assignment of groups to digits and how sure it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    /// Digit (1..=9) of each group.
    pub digit: Vec<u8>,
    /// For each group: how much the total score drops when that group must take another digit
    /// (the rest re-assigned at best), and the digit it then takes.
    pub margin: Vec<f32>,
    pub runner_up: Vec<u8>,
}

/// Digit sets (bit d = digit d + 1) by how many digits they hold.
fn sets_by_size() -> &'static [Vec<usize>; 10] {
    static SETS: std::sync::OnceLock<[Vec<usize>; 10]> = std::sync::OnceLock::new();
    SETS.get_or_init(|| {
        let mut by: [Vec<usize>; 10] = Default::default();
        for used in 0..512usize {
            by[used.count_ones() as usize].push(used);
        }
        by
    })
}

/// `rest[i][used]`: the best total score assigning groups `i..` to distinct digits not in
/// `used`, for every set of `i` used digits (right to left, the last group first).
fn best_rests(scores: &Scores) -> Vec<[f32; 512]> {
    let k = scores.len();
    let mut rest = vec![[f32::NEG_INFINITY; 512]; k + 1];
    rest[k] = [0.0; 512];
    for i in (0..k).rev() {
        for &used in &sets_by_size()[i] {
            let mut best = f32::NEG_INFINITY;
            for d in 0..9 {
                if used & (1 << d) == 0 {
                    best = best.max(scores[i][d] + rest[i + 1][used | 1 << d]);
                }
            }
            rest[i][used] = best;
        }
    }
    rest
}

/// `first[i][used]`: the best total score assigning groups `..i` to exactly the digits in
/// `used` (a set of `i` digits), left to right: the mirror of [`best_rests`].
fn best_firsts(scores: &Scores) -> Vec<[f32; 512]> {
    let k = scores.len();
    let mut first = vec![[f32::NEG_INFINITY; 512]; k + 1];
    first[0][0] = 0.0;
    for i in 0..k {
        for &used in &sets_by_size()[i] {
            let here = first[i][used];
            if here == f32::NEG_INFINITY {
                continue;
            }
            for d in 0..9 {
                if used & (1 << d) == 0 {
                    let to = &mut first[i + 1][used | 1 << d];
                    *to = to.max(here + scores[i][d]);
                }
            }
        }
    }
    first
}

/// The best total score with group `g` forced to each digit (the other groups at best): the
/// best first groups on some digits, `g` on its digit, the best rest on the digits left.
fn best_forced(scores: &Scores, first: &[[f32; 512]], rest: &[[f32; 512]], g: usize) -> [f32; 9] {
    let mut forced = [f32::NEG_INFINITY; 9];
    for &used in &sets_by_size()[g] {
        let before = first[g][used];
        if before == f32::NEG_INFINITY {
            continue;
        }
        for (d, f) in forced.iter_mut().enumerate() {
            if used & (1 << d) == 0 {
                *f = f.max(before + scores[g][d] + rest[g + 1][used | 1 << d]);
            }
        }
    }
    forced
}

/// Assigns at most nine groups to distinct digits, maximising the summed scores (exact, by
/// dynamic programming over the set of used digits), and measures each group's margin.
pub fn assign(scores: &Scores) -> Option<Assignment> {
    let k = scores.len();
    if k == 0 || k > 9 {
        return None;
    }
    let (first, rest) = (best_firsts(scores), best_rests(scores));
    let forced: Vec<[f32; 9]> = (0..k)
        .map(|g| best_forced(scores, &first, &rest, g))
        .collect();
    let mut digit = Vec::with_capacity(k);
    let mut margin = Vec::with_capacity(k);
    let mut runner_up = Vec::with_capacity(k);
    // The optimum gives each group its digit; ties are broken towards the lower digit.
    let total = rest[0][0];
    let mut used = 0usize;
    for (g, row) in forced.iter().enumerate() {
        let mut chosen = None;
        for d in 0..9 {
            if used & (1 << d) != 0 {
                continue;
            }
            // Consistent with the optimum given the earlier choices.
            let prefix: f32 = (0..g).map(|h| scores[h][digit[h] as usize - 1]).sum();
            if (prefix + scores[g][d] + rest[g + 1][used | 1 << d] - total).abs() < 1e-4 {
                chosen = Some(d);
                break;
            }
        }
        let d = chosen?;
        used |= 1 << d;
        digit.push(d as u8 + 1);
        let (alt, alt_total) = (0..9)
            .filter(|&e| e != d)
            .map(|e| (e, row[e]))
            .fold((d, f32::NEG_INFINITY), |a, b| if b.1 > a.1 { b } else { a });
        margin.push(total - alt_total);
        runner_up.push(alt as u8 + 1);
    }
    Some(Assignment {
        digit,
        margin,
        runner_up,
    })
}

/// A digit put on one patch, with the evidence for it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Label {
    pub digit: u8,
    /// The digit it would be otherwise.
    pub runner_up: u8,
    /// Bank correlation of its group with `digit`.
    pub score: f32,
    /// How much worse the best labelling with another digit for its group is.
    pub margin: f32,
    /// Whether the label is clear enough to print.
    pub sure: bool,
}

/// Below this bank correlation a group is no clear digit.
pub const MIN_SCORE: f32 = 0.6;
/// Below this margin a group's digit is not clearly better than its runner-up.
pub const MIN_MARGIN: f32 = 0.08;

/// A group's digit below [`MIN_SCORE`] is still sure at this score when its holes rule out the
/// digit the bank ranks next (two sources agreeing, as with a reference).
const HELD_SCORE: f32 = 0.5;

/// Whether a shape's bank scores read clearly as one digit (score and margin).
fn clear_scores(s: &[f32; 9]) -> bool {
    let [(_, best), (_, second)] = best_two(s);
    best >= MIN_SCORE && best - second >= MIN_MARGIN
}

/// A second, independent source of digit shapes: `shapes[d - 1]` drawn as digit d (keypad
/// buttons in their verified order, or a calibration's templates).
pub struct Reference<'a> {
    pub name: &'a str,
    pub shapes: Vec<Option<Vec<u8>>>,
}

/// Scores of each centroid against a reference's shapes (digits it lacks score -1).
fn reference_scores(centroids: &[Vec<u8>], r: &Reference) -> Scores {
    let feats: Vec<Option<Vec<f32>>> = r.shapes.iter().map(|s| s.as_deref().map(feature)).collect();
    centroids
        .iter()
        .map(|c| {
            let f = feature(c);
            std::array::from_fn(|d| {
                feats
                    .get(d)
                    .and_then(|t| t.as_ref())
                    .map_or(-1.0, |t| dot(t, &f))
            })
        })
        .collect()
}

/// The best digit (0-based) of one group's scores and its score, and the runner-up's.
fn best_two(s: &[f32; 9]) -> [(usize, f32); 2] {
    let best = (0..9).fold(0, |b, d| if s[d] > s[b] { d } else { b });
    let second = (0..9)
        .filter(|&d| d != best)
        .map(|d| (d, s[d]))
        .fold((0, f32::NEG_INFINITY), |x, y| if y.1 > x.1 { y } else { x });
    [(best, s[best]), second]
}

/// Gives groups that lost the one-to-one assignment (one digit drawn in two weights: more
/// groups than digits) their own best digit, when it fits clearly better and the groups then
/// sharing a digit never see each other. Groups that share a digit are free of the one-to-one
/// rule that measured their margins (which digit the one left over went to), so each is then
/// measured on its own scores.
fn share_digits(scores: &Scores, a: &mut Assignment, groups: &[Vec<Cell>]) {
    for g in 0..scores.len() {
        let [(best, best_s), _] = best_two(&scores[g]);
        let current = a.digit[g] as usize - 1;
        if best == current || best_s < scores[g][current] + 0.15 {
            continue;
        }
        let sharing: Vec<usize> = (0..scores.len())
            .filter(|&h| h != g && a.digit[h] as usize == best + 1)
            .collect();
        let clash = sharing.iter().any(|&h| {
            groups[g]
                .iter()
                .any(|c| groups[h].iter().any(|e| c.sees(*e)))
        });
        if clash {
            continue;
        }
        a.digit[g] = best as u8 + 1;
        for h in sharing.into_iter().chain([g]) {
            let [(own, own_s), (second, second_s)] = best_two(&scores[h]);
            if own == best {
                a.margin[h] = own_s - second_s;
                a.runner_up[h] = second as u8 + 1;
            }
        }
    }
}

/// Labels the digit patches of one screen (`cells[i]` holds `patches[i]`): groups by shape,
/// assigns groups to digits jointly from the glyph bank, and checks every label against each
/// `reference` that is given. A label is sure when no reference disagrees and either the bank
/// or an agreeing reference is clear (score and margin).
pub fn label(patches: &[&[u8]], cells: &[Cell], references: &[Reference]) -> Vec<Label> {
    label_with(bank(), patches, cells, references)
}

/// [`label`] with another glyph bank (to measure how the reader copes with unseen typefaces).
pub fn label_with(
    bank: &Bank,
    patches: &[&[u8]],
    cells: &[Cell],
    references: &[Reference],
) -> Vec<Label> {
    let clusters = cluster(bank, patches, cells);
    let groups: Vec<Vec<Cell>> = (0..clusters.len())
        .map(|k| clusters.members(k).map(|i| cells[i]).collect())
        .collect();
    let Some(mut labels) = bank_labels(bank, &clusters, &groups) else {
        // More than nine shapes that cannot merge: nothing is sure.
        let none = Label {
            digit: 0,
            runner_up: 0,
            score: 0.0,
            margin: 0.0,
            sure: false,
        };
        return vec![none; patches.len()];
    };
    let disputed = check_references(&mut labels, &clusters, &groups, references);
    for (l, &d) in labels.iter_mut().zip(&disputed) {
        l.sure &= !d;
    }
    last_digit_left(&mut labels, &disputed, !references.is_empty());
    patch_labels(bank, &clusters, patches, &labels)
}

/// Each group's label from the glyph bank alone (its shape, and its holes where the typeface
/// draws them plainly), assigned jointly; `None` when more than nine groups are left.
fn bank_labels(bank: &Bank, clusters: &Clusters, groups: &[Vec<Cell>]) -> Option<Vec<Label>> {
    let bank_only = bank_scores(bank, &clusters.centroids);
    // Holes settle what shapes leave close (a handwritten 2 and 8), in a typeface that draws
    // them as plain ones do.
    let hole_counts: Vec<usize> = clusters.centroids.iter().map(|c| holes::holes(c)).collect();
    let by_holes = holes::plain(&bank_only, &hole_counts, clear_scores);
    let mut shape_scores = bank_only.clone();
    if by_holes {
        holes::penalise(&mut shape_scores, &hole_counts);
    }
    let mut by_bank = assign(&shape_scores)?;
    share_digits(&shape_scores, &mut by_bank, groups);
    Some(
        (0..clusters.len())
            .map(|g| {
                let d = by_bank.digit[g];
                let score = shape_scores[g][d as usize - 1];
                // A weak score is made up for by holes that rule out the bank's own runner-up.
                let held = by_holes && score >= HELD_SCORE && {
                    let mut others = bank_only[g];
                    others[d as usize - 1] = f32::NEG_INFINITY;
                    let [(rival, _), _] = best_two(&others);
                    hole_counts[g] > holes::MOST[rival]
                };
                log::debug!(
                    "group {g}: bank {d} ({score:.2}, margin {:.2}), {} holes{}",
                    by_bank.margin[g],
                    hole_counts[g],
                    if by_holes {
                        ""
                    } else {
                        " (not used: the typeface draws holes its own way)"
                    }
                );
                Label {
                    digit: d,
                    runner_up: by_bank.runner_up[g],
                    score,
                    margin: by_bank.margin[g],
                    sure: (score >= MIN_SCORE || held) && by_bank.margin[g] >= MIN_MARGIN,
                }
            })
            .collect(),
    )
}

/// Checks each group's label against every reference: an agreeing clear reference makes a weak
/// label sure; one that reads the group as another digit disputes it (returned per group).
fn check_references(
    labels: &mut [Label],
    clusters: &Clusters,
    groups: &[Vec<Cell>],
    references: &[Reference],
) -> Vec<bool> {
    let mut disputed = vec![false; labels.len()];
    for r in references {
        let scores = reference_scores(&clusters.centroids, r);
        let Some(mut by_ref) = assign(&scores) else {
            continue;
        };
        share_digits(&scores, &mut by_ref, groups);
        for (g, l) in labels.iter_mut().enumerate() {
            let d = by_ref.digit[g];
            log::debug!(
                "group {g} ({} cells): bank {} ({:.2}, margin {:.2}), {} {} ({:.2}, margin {:.2})",
                groups[g].len(),
                l.digit,
                l.score,
                l.margin,
                r.name,
                d,
                scores[g][d as usize - 1],
                by_ref.margin[g]
            );
            let ref_score = scores[g][d as usize - 1];
            if d == l.digit {
                // Two independent sources agree: a clear reference makes up for a weak bank, and
                // so do two weak margins that together are clear (summed over both sources, the
                // digit beats every other by at least the sum of the two margins).
                l.sure |= ref_score >= MIN_SCORE
                    && (by_ref.margin[g] >= MIN_MARGIN
                        || agree_clearly(l, ref_score, by_ref.margin[g]));
            } else if ref_score < MIN_SCORE {
                // The reference draws no digit like this shape (its best is a poor match): it
                // says nothing of it, as where no reference was found; the bank alone decides,
                // only when it is clear.
                log::debug!(
                    "group {g}: {} has nothing like it ({} at {ref_score:.2})",
                    r.name,
                    d
                );
            } else {
                log::debug!(
                    "group {g}: bank says {} ({:.2}), {} says {}",
                    l.digit,
                    l.score,
                    r.name,
                    d
                );
                l.runner_up = d;
                disputed[g] = true;
            }
        }
    }
    disputed
}

/// Each patch's label: its group's, unless it is unlike its group's mean (see below).
fn patch_labels(
    bank: &Bank,
    clusters: &Clusters,
    patches: &[&[u8]],
    labels: &[Label],
) -> Vec<Label> {
    // A patch unlike its group's mean (groups merged to fit nine digits) must also look like
    // the group's digit by itself. One that is the same glyph as another group, sure of the
    // digit the bank reads the patch as too, is that digit: a player's mistake, kept out of its
    // digit's group by the cell it clashes with, then merged wherever there was room.
    clusters
        .of
        .iter()
        .zip(patches)
        .map(|(&g, p)| {
            let mut l = labels[g];
            if ncc(p, &clusters.centroids[g]) < SAME_GLYPH {
                let own = bank.best_per_digit(&feature(p));
                let mine = own[l.digit as usize - 1];
                let [(best, best_s), _] = best_two(&own);
                if best + 1 != l.digit as usize && best_s > mine - MIN_MARGIN {
                    let twin = (0..labels.len()).find(|&h| {
                        h != g
                            && labels[h].sure
                            && labels[h].digit as usize == best + 1
                            && ncc(p, &clusters.centroids[h]) >= SAME_GLYPH
                    });
                    match twin {
                        Some(h) => {
                            log::debug!(
                                "a patch of group {g} is the glyph of group {h}, {}",
                                best + 1
                            );
                            l = labels[h];
                        }
                        None => {
                            l.runner_up = best as u8 + 1;
                            l.sure = false;
                        }
                    }
                }
            }
            l
        })
        .collect()
}

/// Do a bank label `l` and a reference that gives the same digit at `ref_score` with margin
/// `ref_margin` make that digit clear together? Both must read it well and prefer it, and their
/// margins add up to a clear one.
fn agree_clearly(l: &Label, ref_score: f32, ref_margin: f32) -> bool {
    l.score >= MIN_SCORE
        && ref_score >= MIN_SCORE
        && l.margin > 0.0
        && ref_margin > 0.0
        && l.margin + ref_margin >= MIN_MARGIN
}

/// Nine shapes, eight of them surely eight different digits: the ninth is the digit left, when
/// the bank and a reference both gave it that digit (a weak score or margin is then no doubt).
/// Without a reference, or with a reference that disagreed, nothing is concluded: a ninth
/// group may be a digit drawn in a second weight on a board that lacks some digit.
fn last_digit_left(labels: &mut [Label], disputed: &[bool], referenced: bool) {
    let unsure: Vec<usize> = (0..labels.len()).filter(|&g| !labels[g].sure).collect();
    let [g] = unsure[..] else { return };
    let digits: u16 = labels.iter().fold(0, |m, l| m | 1 << l.digit);
    if labels.len() != 9 || digits.count_ones() != 9 || !referenced || disputed[g] {
        return;
    }
    log::debug!(
        "group {g}: {} is the digit left by eight sure groups, and both sources give it",
        labels[g].digit
    );
    labels[g].sure = true;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_sources_that_agree_with_weak_margins_make_a_digit_clear_when_the_margins_add_up() {
        let bank = |margin: f32| Label {
            digit: 8,
            runner_up: 9,
            score: 0.98,
            margin,
            sure: false,
        };
        assert!(agree_clearly(&bank(0.02), 0.86, 0.07));
        assert!(!agree_clearly(&bank(0.02), 0.86, 0.05));
        // Each source must prefer the digit and read it well.
        assert!(!agree_clearly(&bank(-0.01), 0.86, 0.12));
        assert!(!agree_clearly(&bank(0.02), 0.5, 0.07));
    }

    #[test]
    fn the_ninth_shape_takes_the_digit_eight_sure_ones_leave_only_when_both_sources_gave_it() {
        let label = |d: u8, sure: bool| Label {
            digit: d,
            runner_up: if d == 8 { 2 } else { 8 },
            score: if sure { 0.8 } else { 0.56 },
            margin: if sure { 0.2 } else { 0.03 },
            sure,
        };
        let nine: Vec<Label> = (1..=9).map(|d| label(d, d != 8)).collect();
        let sure_after = |labels: &[Label], disputed: &[bool], referenced: bool| {
            let mut l = labels.to_vec();
            last_digit_left(&mut l, disputed, referenced);
            l[7].sure
        };
        assert!(sure_after(&nine, &[false; 9], true));
        // No reference, or one that gave the group another digit: no conclusion.
        assert!(!sure_after(&nine, &[false; 9], false));
        let mut disputed = [false; 9];
        disputed[7] = true;
        assert!(!sure_after(&nine, &disputed, true));
        // Two unsure groups, or eight shapes (a digit missing from the board), leave it.
        let mut two = nine.clone();
        two[1].sure = false;
        assert!(!sure_after(&two, &[false; 9], true));
        assert!(!sure_after(&nine[..8], &[false; 8], true));
    }

    #[test]
    fn joint_assignment_beats_each_group_taking_its_own_best_digit() {
        // Groups 0 and 1 both look most like a 1, but group 0 is a much better 1 and group 1 is
        // nearly as good a 7: jointly, 0 -> 1 and 1 -> 7.
        let mut scores = vec![[0.0f32; 9]; 2];
        scores[0][0] = 0.9;
        scores[0][6] = 0.3;
        scores[1][0] = 0.8;
        scores[1][6] = 0.75;
        let a = assign(&scores).unwrap();
        assert_eq!(a.digit, vec![1, 7]);
        // Swapping costs (0.9 + 0.75) - (0.3 + 0.8) = 0.55 for both groups.
        assert!((a.margin[0] - 0.55).abs() < 1e-4, "{:?}", a.margin);
        assert_eq!(a.runner_up[0], 7);
    }

    #[test]
    fn shapes_group_together_but_never_across_cells_that_see_each_other() {
        let bar =
            |w: usize| -> Vec<u8> { (0..768).map(|i| if i % 24 < w { 255 } else { 0 }).collect() };
        // `alike` matches `a` at 0.91: the same glyph by shape, not identical.
        let (a, alike) = (bar(8), bar(7));
        let b: Vec<u8> = (0..768)
            .map(|i| if i / 24 < 10 { 255 } else { 0 })
            .collect();
        let c = |r, k| Cell::new(r, k).unwrap();
        let patches: Vec<&[u8]> = vec![&a, &b, &alike, &a];
        // The third patch shares row 0 with the first: it cannot be the same digit.
        let cells = [c(0, 0), c(4, 4), c(0, 5), c(8, 8)];
        assert_eq!(cluster(bank(), &patches, &cells).of, vec![0, 1, 2, 0]);
        // An identical glyph in the same row is one digit twice (a player's mistake).
        let patches: Vec<&[u8]> = vec![&a, &b, &a, &a];
        assert_eq!(cluster(bank(), &patches, &cells).of, vec![0, 1, 0, 0]);
    }

    /// Digit `digit` as the embedded bank's typeface `face` draws it (an ink-strength patch).
    fn drawn(face: usize, digit: usize) -> Vec<u8> {
        use crate::vision::patch::{PATCH_H, PATCH_W};
        let png = include_bytes!("../../assets/glyph-bank.png");
        let img = image::load_from_memory(png).unwrap().to_luma8();
        (0..PATCH_H)
            .flat_map(|y| (0..PATCH_W).map(move |x| (x, y)))
            .map(|(x, y)| {
                img.get_pixel(
                    ((digit - 1) * PATCH_W + x) as u32,
                    (face * PATCH_H + y) as u32,
                )[0]
            })
            .collect()
    }

    #[test]
    fn a_reference_with_nothing_like_a_shape_leaves_it_to_the_bank_and_one_that_reads_it_otherwise_disputes_it()
     {
        let c = |r, k| Cell::new(r, k).unwrap();
        let (one, two, nine) = (drawn(0, 1), drawn(0, 2), drawn(0, 9));
        let patches: Vec<&[u8]> = vec![&one, &two, &nine];
        let cells = [c(0, 0), c(4, 4), c(8, 8)];
        let alone = label_with(bank(), &patches, &cells, &[]);
        assert!(alone.iter().all(|l| l.sure), "{alone:?}");
        assert_eq!(alone[2].digit, 9);
        // A keypad whose 9 was not cut (no shape for it): the 9 goes to some other digit the
        // reference reads poorly, which says nothing of it.
        let shapes = |nine: Option<&Vec<u8>>| -> Vec<Option<Vec<u8>>> {
            (1..=9)
                .map(|d| match d {
                    1 => Some(one.clone()),
                    2 => Some(two.clone()),
                    9 => nine.cloned(),
                    _ => None,
                })
                .collect()
        };
        let blank = Reference {
            name: "a keypad without its 9",
            shapes: shapes(None),
        };
        let labels = label_with(bank(), &patches, &cells, &[blank]);
        assert!(labels[2].sure && labels[2].digit == 9, "{labels:?}");
        // A reference that draws this shape as its 2 (and no 9) reads it well: a dispute.
        let mut swapped = shapes(None);
        swapped[1] = Some(nine.clone());
        swapped[0] = Some(two.clone());
        let credible = Reference {
            name: "a keypad drawing it as a 2",
            shapes: swapped,
        };
        let labels = label_with(bank(), &patches, &cells, &[credible]);
        assert!(!labels[2].sure, "{labels:?}");
    }

    /// The merge the clustering would make next, from a fresh cache of the bank's readings.
    fn merge_of(
        members: &[Vec<usize>],
        centroids: &[Vec<u8>],
        cells: &[Cell],
    ) -> Option<(usize, usize)> {
        best_merge(
            bank(),
            members,
            centroids,
            cells,
            &mut vec![None; centroids.len()],
        )
    }

    #[test]
    fn a_players_mistake_in_another_weight_merges_with_the_digit_it_repeats_and_only_then() {
        let c = |r, k| Cell::new(r, k).unwrap();
        // Group 0: a 2 in r1c1; group 1: the 2 drawn thinner in r1c6, the player's mistake
        // repeating it in its row; group 2: a 7 in r5c5.
        let two = drawn(0, 2);
        let thin: Vec<u8> = two.iter().map(|&v| if v < 200 { 0 } else { v }).collect();
        let centroids = vec![two.clone(), thin, drawn(0, 7)];
        let cells = [c(0, 0), c(0, 5), c(4, 4)];
        let members = vec![vec![0], vec![1], vec![2]];
        assert!(ncc(&centroids[0], &centroids[1]) >= MISTAKE_ALIKE);
        assert_eq!(merge_of(&members, &centroids, &cells), Some((0, 1)));
        // Three clashes are no mistake: the two groups are two digits.
        let cells = [c(0, 0), c(0, 5), c(4, 4), c(1, 1), c(2, 2), c(1, 5)];
        let members = vec![vec![0, 4], vec![1, 3, 5], vec![2]];
        assert_ne!(merge_of(&members, &centroids, &cells), Some((0, 1)));
        // The two most alike digits of the typeface, as alike as a mistake, are two digits.
        let (a, b) = (1..=9)
            .flat_map(|a| (a + 1..=9).map(move |b| (a, b)))
            .max_by(|x, y| {
                let s = |p: &(usize, usize)| ncc(&drawn(0, p.0), &drawn(0, p.1));
                s(x).total_cmp(&s(y))
            })
            .unwrap();
        let centroids = vec![drawn(0, a), drawn(0, b), drawn(0, 1 + (b % 9))];
        let cells = [c(0, 0), c(0, 5), c(4, 4)];
        let members = vec![vec![0], vec![1], vec![2]];
        assert!(
            ncc(&centroids[0], &centroids[1]) >= MISTAKE_ALIKE,
            "{a} {b}"
        );
        assert_ne!(merge_of(&members, &centroids, &cells), Some((0, 1)));
    }

    #[test]
    fn two_digits_the_bank_reads_clearly_stay_apart_however_alike_their_shapes() {
        // Of the bank's own drawings, two digits of one typeface alike enough to be one glyph
        // by shape alone (a thin 3 and a bold 8 do so at 13 to 30 px on a screen).
        let faces = bank().faces();
        let pair = (0..faces)
            .flat_map(|f| (1..=9).flat_map(move |a| (a + 1..=9).map(move |b| (f, a, b))))
            .find(|&(f, a, b)| {
                let (pa, pb) = (drawn(f, a), drawn(f, b));
                let s = ncc(&pa, &pb);
                (SAME_GLYPH..IDENTICAL).contains(&s)
                    && clear_digit(bank(), &pa) == Some(a - 1)
                    && clear_digit(bank(), &pb) == Some(b - 1)
            });
        let (f, a, b) = pair.expect("two digits of one face alike above SAME_GLYPH");
        let (pa, pb) = (drawn(f, a), drawn(f, b));
        let c = |r, k| Cell::new(r, k).unwrap();
        let patches: Vec<&[u8]> = vec![&pa, &pb, &pa];
        let cells = [c(0, 0), c(4, 4), c(8, 8)];
        assert_eq!(cluster(bank(), &patches, &cells).of, vec![0, 1, 0]);
        let members = vec![vec![0], vec![1]];
        let centroids = vec![pa, pb];
        assert_eq!(merge_of(&members, &centroids, &cells), None);
    }

    #[test]
    fn two_groups_that_share_a_digit_are_each_measured_on_their_own_scores() {
        // Two shapes of a 6 (9 groups, the board has no 5): one-to-one, one of them must take
        // the 5, and either may, so the 6 the other keeps has no margin. Once the group on the 5
        // takes its own best digit, the 6, each is as sure as its own 6 beats its next digit.
        let mut scores = vec![[0.1f32; 9]; 9];
        for (g, row) in scores.iter_mut().enumerate().take(7) {
            row[if g < 4 { g } else { g + 2 }] = 0.95;
        }
        scores[7][5] = 0.94;
        scores[7][4] = 0.7;
        scores[8][5] = 0.92;
        scores[8][4] = 0.71;
        let mut a = assign(&scores).unwrap();
        assert!(a.margin[7].min(a.margin[8]) < 0.05, "{:?}", a.margin);
        let cell = |r, c| Cell::new(r, c).unwrap();
        let mut groups: Vec<Vec<Cell>> = (0..9).map(|g| vec![cell(g, g)]).collect();
        groups[7] = vec![cell(0, 1)];
        groups[8] = vec![cell(4, 5)];
        share_digits(&scores, &mut a, &groups);
        assert_eq!(a.digit[7..], [6, 6]);
        assert!((a.margin[7] - 0.24).abs() < 1e-4, "{:?}", a.margin);
        assert!((a.margin[8] - 0.21).abs() < 1e-4, "{:?}", a.margin);
        assert_eq!(a.runner_up[7..], [5, 5]);
    }

    #[test]
    fn the_best_score_with_a_group_forced_to_a_digit_is_the_best_of_all_assignments_with_it() {
        // Brute force over every one-to-one assignment of five groups, pseudo-random scores.
        let mut seed = 7u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (seed >> 16) as f32 / 65_536.0
        };
        let scores: Scores = (0..5).map(|_| std::array::from_fn(|_| next())).collect();
        let (first, rest) = (best_firsts(&scores), best_rests(&scores));
        fn all(
            scores: &Scores,
            g: usize,
            used: usize,
            sum: f32,
            out: &mut Vec<(Vec<usize>, f32)>,
            ds: &mut Vec<usize>,
        ) {
            if g == scores.len() {
                out.push((ds.clone(), sum));
                return;
            }
            for d in (0..9).filter(|d| used & (1 << d) == 0) {
                ds.push(d);
                all(scores, g + 1, used | 1 << d, sum + scores[g][d], out, ds);
                ds.pop();
            }
        }
        let mut every = Vec::new();
        all(&scores, 0, 0, 0.0, &mut every, &mut Vec::new());
        for g in 0..5 {
            let forced = best_forced(&scores, &first, &rest, g);
            for (d, got) in forced.iter().enumerate() {
                let want = every
                    .iter()
                    .filter(|(ds, _)| ds[g] == d)
                    .map(|(_, s)| *s)
                    .fold(f32::NEG_INFINITY, f32::max);
                assert!(
                    (got - want).abs() < 1e-5,
                    "group {g} digit {d}: {got} vs {want}"
                );
            }
        }
    }
}
