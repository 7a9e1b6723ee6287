//! Grouping one screen's digit patches by shape: each patch joins the most alike group whose
//! cells it does not see, and groups merge until at most nine are left (one digit drawn in two
//! weights, or a player's mistake repeating a digit).

use super::assign::best_two;
use super::clear_scores;
use crate::bank::{Bank, feature};
use crate::board::Cell;
use crate::patch::ncc;

/// Shape groups of a screen's digit patches.
#[derive(Debug, Clone, PartialEq)]
pub struct Clusters {
    /// Group of each patch, in input order.
    pub of: Vec<usize>,
    /// Mean patch of each group.
    pub centroids: Vec<Vec<u8>>,
}

impl Clusters {
    pub(crate) fn len(&self) -> usize {
        self.centroids.len()
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
pub(super) const SAME_GLYPH: f32 = 0.85;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bank::bank;
    use crate::glyphs::drawn;

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
}
