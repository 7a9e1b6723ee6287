//! Labelling the big digits of one screen without the app's templates. The digits on a screen
//! come in at most nine shapes (a few more when givens and entries use two weights), one per
//! digit, so the patches are first grouped by shape, and the groups are then given digits
//! JOINTLY: the one-to-one assignment of groups to 1-9 that the glyph bank (and, when found, the
//! keypad) likes best. A group whose digit could change at little cost, or on which two
//! independent sources disagree, is a doubt: the caller refuses and names its cells.

mod assign;
mod cluster;

pub use assign::{Scores, assign};
use assign::{best_two, share_digits};
use cluster::SAME_GLYPH;
pub(crate) use cluster::mean_patch;
pub use cluster::{Clusters, cluster};

use super::bank::{Bank, bank, dot, feature};
use super::holes;
use super::patch::ncc;
use crate::board::Cell;

/// Bank scores of each centroid: the best correlation with any typeface's drawing of the digit.
pub fn bank_scores(bank: &Bank, centroids: &[Vec<u8>]) -> Scores {
    centroids
        .iter()
        .map(|c| bank.best_per_digit(&feature(c)))
        .collect()
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

/// Digit `digit` as the embedded bank's typeface `face` draws it (an ink-strength patch).
#[cfg(test)]
fn drawn(face: usize, digit: usize) -> Vec<u8> {
    use crate::patch::{PATCH_H, PATCH_W};
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
}
