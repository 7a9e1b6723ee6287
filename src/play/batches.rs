//! How a plan is cut into checked batches: at most [`WATCH_TAPS`] taps between two looks at
//! the screen, a new digit (or erase) only right after a look that saw the board clear, and
//! the last move alone; and which cells a look may leave for the next one (still being drawn).

use crate::plan::{Move, Plan};
use crate::sudoku::{Board, Cell};
use std::time::Duration;

/// Taps per checked batch after the first move: an ad which appears mid-batch takes at most
/// this many taps before the agent notices. Whole moves only (one move may exceed it alone).
pub const WATCH_TAPS: usize = 8;

/// Moves per checked batch in a cell-first app (two taps a move); a number-first app, with one
/// tap a move while the digit stays, fits more moves in [`WATCH_TAPS`].
pub const WATCH_MOVES: usize = WATCH_TAPS / 2;

/// Where the checked batch that starts at move `done` (tap `taps_done`) of `plan` ends: as many
/// whole moves as fit in [`WATCH_TAPS`] taps (at least one). The last move goes alone, after a
/// check of all the others: most apps cover the solved board with an end card at once, so it is
/// the one move no check can see.
///
/// A move whose key differs from the one before (a new digit, or erase) opens a batch, right
/// after a check saw the board clear. Within a batch a lost tap then does no harm: in a
/// number-first app a key tap lost under an overlay that flashed would make the cells after it
/// take the old digit, and in a cell-first app a lost cell tap makes the key that follows land
/// in the cell selected before, which already holds that digit. At the batch's start that cell
/// is a given (the plan parks the selection there when the key changes, `plan::targets`), which
/// no key changes: the first tap after a check may be lost too, unseen by the check.
pub(super) fn batch_end(moves: &[Move], plan: &Plan, done: usize, taps_done: usize) -> usize {
    let mut end = done + 1;
    while end < moves.len()
        && plan.move_ends[end] < taps_done + WATCH_TAPS
        && moves[end].digit() == moves[end - 1].digit()
    {
        end += 1;
    }
    let end = end.min(moves.len());
    if end == moves.len() && end - done > 1 {
        end - 1
    } else {
        end
    }
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

/// How many checks tapping `moves` by `plan` takes when every move lands: the first move alone
/// (it proves the input order), then one a batch ([`batch_end`]).
pub fn planned_checks(moves: &[Move], plan: &Plan) -> usize {
    let (mut done, mut checks) = (0, 0);
    while done < moves.len() {
        let upto = if done == 0 {
            1
        } else {
            batch_end(moves, plan, done, plan.move_ends[done - 1] + 1)
        };
        done = upto;
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

    /// The moves per batch of a whole run in which every move lands.
    fn batch_sizes(moves: &[Move], order: InputOrder) -> Vec<usize> {
        let plan = plan_of(moves, order);
        let mut sizes = vec![1];
        let mut done = 1;
        while done < moves.len() {
            let end = batch_end(moves, &plan, done, plan.move_ends[done - 1] + 1);
            sizes.push(end - done);
            done = end;
        }
        assert_eq!(sizes.len(), planned_checks(moves, &plan));
        sizes
    }

    /// One move setting `digits[i]` in cell `i`, for each `i`.
    fn sets(digits: &[u8]) -> Vec<Move> {
        digits.iter().enumerate().map(|(i, &d)| set(i, d)).collect()
    }

    #[test]
    fn a_cell_first_batch_holds_one_digits_moves_four_at_most_and_the_last_move_goes_alone() {
        // Three 1s, six 2s, two 3s.
        let digits = [1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3];
        let moves = sets(&digits);
        assert_eq!(
            batch_sizes(&moves, InputOrder::CellFirst),
            [1, 2, 4, 2, 1, 1]
        );
    }

    #[test]
    fn a_number_first_batch_starts_with_its_key_and_holds_up_to_eight_taps() {
        let digits = [1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3];
        let moves = sets(&digits);
        // 1 | 1 1 | key 2 + seven 2s | 2 2 | key 3 + 3 | 3
        assert_eq!(
            batch_sizes(&moves, InputOrder::NumberFirst),
            [1, 2, 7, 2, 1, 1]
        );
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
