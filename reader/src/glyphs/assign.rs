//! The one-to-one assignment of shape groups to the digits 1-9 that maximises their summed
//! scores (exact, by dynamic programming over the set of used digits), each group's margin
//! (what the total loses when it must take another digit), and groups that may share a digit.

use crate::board::Cell;

/// How well each group looks like each digit: `scores[group][digit - 1]`.
pub type Scores = Vec<[f32; 9]>;

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

/// The best digit (0-based) of one group's scores and its score, and the runner-up's.
pub(super) fn best_two(s: &[f32; 9]) -> [(usize, f32); 2] {
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
pub(super) fn share_digits(scores: &Scores, a: &mut Assignment, groups: &[Vec<Cell>]) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
