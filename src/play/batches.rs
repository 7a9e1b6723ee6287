//! How a plan is cut into checked batches: at most [`WATCH_TAPS`] taps between two looks at
//! the screen, a new digit (or erase) only right after a look that saw the board clear (and,
//! number-first, its key looking selected), and the last move alone; and which cells a look may
//! leave for the next one (still being drawn).

use crate::plan::{Move, Plan};
use crate::sudoku::{Board, Cell};
use std::time::Duration;

/// Taps per checked batch after the first move: an ad which appears mid-batch takes at most
/// this many taps before the agent notices. Whole moves only (one move may exceed it alone).
pub const WATCH_TAPS: usize = 8;

/// Moves per checked batch in a cell-first app (two taps a move); a number-first app, with one
/// tap a move while the digit stays, fits more moves in [`WATCH_TAPS`].
pub const WATCH_MOVES: usize = WATCH_TAPS / 2;

/// Where the checked batch that starts at move `done` (tap `taps_done`) of `plan` ends: the
/// moves it completes and the taps it sends (`(moves end, taps end)`, both exclusive). As many
/// whole moves as fit in [`WATCH_TAPS`] taps (at least one). The last move goes alone, after a
/// check of all the others: most apps cover the solved board with an end card at once, so it is
/// the one move no check can see.
///
/// A move whose key differs from the one before (a new digit, or erase) opens a batch, right
/// after a check saw the board clear. In a cell-first app a lost cell tap makes the key that
/// follows land in the cell selected before, which within a batch already holds that digit; at
/// the batch's start that cell is a given (the plan parks the selection there when the key
/// changes, `plan::targets`), which no key changes: the first tap after a check may be lost
/// too, unseen by the check.
///
/// In a number-first app whose keypad shows the key selected (`key_last`), the new key's tap
/// ends the batch before instead (when it fits in the taps), so the check after it sees whether
/// the key took before any cell of its digit is tapped: a lost key tap would make those cells
/// take the old digit, and the first tap after a check may be lost unseen. A batch that would
/// start with a key tap (a fresh plan's first, a key tapped again, one that did not fit) is that
/// key alone.
pub(super) fn batch_end(
    moves: &[Move],
    plan: &Plan,
    (done, taps_done): (usize, usize),
    key_last: bool,
) -> (usize, usize) {
    let is_key = |tap: usize| plan.taps.get(tap).is_some_and(|t| t.target.is_key());
    let first_tap = |m: usize| if m == 0 { 0 } else { plan.move_ends[m - 1] + 1 };
    if key_last && taps_done == first_tap(done) && is_key(taps_done) {
        return (done, taps_done + 1);
    }
    let mut end = done + 1;
    while end < moves.len()
        && plan.move_ends[end] < taps_done + WATCH_TAPS
        && moves[end].digit() == moves[end - 1].digit()
    {
        end += 1;
    }
    let end = end.min(moves.len());
    let end = if end == moves.len() && end - done > 1 {
        end - 1
    } else {
        end
    };
    let taps_end = plan.move_ends[end - 1] + 1;
    if key_last && end < moves.len() && is_key(taps_end) && taps_end < taps_done + WATCH_TAPS {
        return (end, taps_end + 1);
    }
    (end, taps_end)
}

/// How long after its taps a digit may still be appearing: apps fade or pop digits in over
/// 100-400 ms.
pub(super) const DRAWING: Duration = Duration::from_millis(500);

/// Cells sent less than [`DRAWING`] ago (`recent`, aligned with `unverified`, the moves since
/// the last verified one) that show nothing yet, and nothing else amiss: the app may still be
/// drawing them (digits that fade or pop in), or their taps were lost. Rather than wait for the
/// screen to settle, the run goes on and a later check looks at them again (waiting then, once
/// they are older, if they are still blank; a lost tap is entered again). Returns the index in
/// `unverified` of the first move whose cell differs; `None` when a cell shows a wrong digit,
/// is blank longer than an app takes to draw, or missed before.
///
/// The next batch cannot harm a blank cell: it starts with a cell tap (cell-first) or with its
/// digit's key (number-first), so no key of it lands there unless its own first tap is lost too.
pub(super) fn blank_while_drawn(
    unverified: &[Move],
    recent: &[bool],
    (expected, seen, differ): (&Board, &Board, &[Cell]),
    missed: &[Cell],
) -> Option<usize> {
    let blank = |c: &Cell| {
        seen.get(*c).is_none()
            && expected.get(*c).is_some()
            && !missed.contains(c)
            && unverified
                .iter()
                .zip(recent)
                .any(|(m, &recent)| recent && m.cell() == *c)
    };
    if !differ.iter().all(blank) {
        return None;
    }
    unverified.iter().position(|m| differ.contains(&m.cell()))
}

/// How many checks tapping `moves` by `plan` takes when every move lands and each key looks
/// selected: the first move alone (it proves the input order), then one a batch
/// ([`batch_end`], a number-first key last).
pub fn planned_checks(moves: &[Move], plan: &Plan) -> usize {
    let (mut done, mut checks) = (0, 0);
    let mut taps_done = 0;
    while done < moves.len() {
        (done, taps_done) = if done == 0 {
            (1, plan.move_ends[0] + 1)
        } else {
            batch_end(moves, plan, (done, taps_done), true)
        };
        checks += 1;
    }
    checks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Point;
    use crate::plan::{self, InputOrder, targets};

    fn set(index: usize, digit: u8) -> Move {
        Move::Set {
            cell: Cell::from_index(index).unwrap(),
            digit,
        }
    }

    /// A plan with only the targets filled in (the points do not matter to batching).
    fn plan_of(moves: &[Move], order: InputOrder) -> Plan {
        let (targets, move_ends) = targets(moves, order, None);
        Plan {
            taps: targets
                .into_iter()
                .map(|target| plan::Tap {
                    at: Point::new(0, 0),
                    target,
                })
                .collect(),
            move_ends,
        }
    }

    /// The moves and the taps of each batch of a whole run in which every move lands and every
    /// key looks selected.
    fn batches_of(moves: &[Move], order: InputOrder) -> Vec<(usize, usize)> {
        let plan = plan_of(moves, order);
        let mut sizes = vec![(1, plan.move_ends[0] + 1)];
        let (mut done, mut taps_done) = (1, plan.move_ends[0] + 1);
        while done < moves.len() {
            let (end, taps_end) = batch_end(moves, &plan, (done, taps_done), true);
            assert!(taps_end - taps_done <= WATCH_TAPS);
            sizes.push((end - done, taps_end - taps_done));
            (done, taps_done) = (end, taps_end);
        }
        assert_eq!(taps_done, plan.taps.len());
        assert_eq!(sizes.len(), planned_checks(moves, &plan));
        sizes
    }

    /// The moves per batch of a whole run in which every move lands.
    fn batch_sizes(moves: &[Move], order: InputOrder) -> Vec<usize> {
        batches_of(moves, order).into_iter().map(|b| b.0).collect()
    }

    /// One move setting `digits[i]` in cell `i`, for each `i`.
    fn sets(digits: &[u8]) -> Vec<Move> {
        digits.iter().enumerate().map(|(i, &d)| set(i, d)).collect()
    }

    #[test]
    fn a_cell_first_batch_holds_one_digits_moves_four_at_most_and_the_last_move_goes_alone() {
        // Three 1s, six 2s, two 3s.
        let moves = sets(&[1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3]);
        assert_eq!(
            batch_sizes(&moves, InputOrder::CellFirst),
            [1, 2, 4, 2, 1, 1]
        );
    }

    #[test]
    fn a_number_first_batch_ends_with_the_next_digits_key_and_holds_up_to_eight_taps() {
        let moves = sets(&[1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3]);
        // key 1 + 1 | 1 1 + key 2 | eight 2s | 2 + key 3 | 3 | 3
        assert_eq!(
            batches_of(&moves, InputOrder::NumberFirst),
            [(1, 2), (2, 3), (8, 8), (1, 2), (1, 1), (1, 1)]
        );
    }

    #[test]
    fn a_number_first_key_that_does_not_fit_after_the_cells_goes_alone_before_them() {
        let moves = sets(&[1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2]);
        // key 1 + 1 | eight 1s | key 2 | 2 | 2
        assert_eq!(
            batches_of(&moves, InputOrder::NumberFirst),
            [(1, 2), (8, 8), (0, 1), (1, 1), (1, 1)]
        );
        // A fresh plan (after lost taps or a cover) starts with its key alone too.
        let plan = plan_of(&moves, InputOrder::NumberFirst);
        assert_eq!(batch_end(&moves, &plan, (0, 0), true), (0, 1));
        // Without the key check (an app that shows no selected key) the key opens the batch.
        assert_eq!(batch_end(&moves, &plan, (0, 0), false), (7, 8));
        assert_eq!(batch_end(&moves, &plan, (1, 2), false), (9, 10));
    }

    #[test]
    fn erasing_is_a_key_of_its_own_so_erases_and_digits_never_share_a_batch() {
        let moves = [
            set(0, 4),
            Move::Erase {
                cell: Cell::from_index(1).unwrap(),
            },
            Move::Erase {
                cell: Cell::from_index(2).unwrap(),
            },
            set(1, 4),
            set(2, 4),
        ];
        assert_eq!(batch_sizes(&moves, InputOrder::CellFirst), [1, 2, 1, 1]);
    }

    /// The board `moves` make from empty, with the cells `blank` left out.
    fn board_without(moves: &[Move], blank: &[usize]) -> Board {
        let mut board = plan::apply(&Board::empty(), moves);
        for &i in blank {
            board.set(Cell::from_index(i).unwrap(), None);
        }
        board
    }

    #[test]
    fn blank_cells_sent_moments_ago_are_looked_at_again_at_a_later_check() {
        // Moves 0-1 were verified before; 2-3 were sent a while ago, 4-7 moments ago.
        let moves: Vec<Move> = (0..8).map(|i| set(i, 5)).collect();
        let expected = plan::apply(&Board::empty(), &moves);
        let unverified = &moves[2..];
        let recent = [false, false, true, true, true, true];
        let seen = board_without(&moves, &[6, 7]);
        let differ = expected.diff(&seen);
        assert_eq!(
            blank_while_drawn(unverified, &recent, (&expected, &seen, &differ), &[]),
            Some(4),
            "moves 2-5 verified, 6 and 7 looked at next time"
        );
        // A cell missed before is not waited for twice.
        let missed = [Cell::from_index(7).unwrap()];
        assert_eq!(
            blank_while_drawn(unverified, &recent, (&expected, &seen, &differ), &missed),
            None
        );
    }

    #[test]
    fn a_cell_blank_longer_than_a_drawing_takes_or_a_wrong_digit_is_no_reason_to_go_on() {
        let moves: Vec<Move> = (0..8).map(|i| set(i, 5)).collect();
        let expected = plan::apply(&Board::empty(), &moves);
        let recent = [false, false, true, true, true, true];
        // Cell 3 was sent a while ago.
        let seen = board_without(&moves, &[3, 7]);
        let differ = expected.diff(&seen);
        assert_eq!(
            blank_while_drawn(&moves[2..], &recent, (&expected, &seen, &differ), &[]),
            None
        );
        // A digit where the plan has another.
        let mut seen = board_without(&moves, &[]);
        seen.set(Cell::from_index(6).unwrap(), Some(4));
        let differ = expected.diff(&seen);
        assert_eq!(
            blank_while_drawn(&moves[2..], &recent, (&expected, &seen, &differ), &[]),
            None
        );
    }
}
