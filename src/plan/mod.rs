//! Turning moves into taps: a move is "put this digit in this cell" or "empty this cell"; a plan
//! is the exact list of screen points to tap for a list of moves on a given app layout, in
//! cell-first or number-first order. Pure functions only: the device layer sends the taps.
//!
//! Every point a plan contains is a cell centre or a keypad button centre of the layout, so a
//! plan can never tap outside the calibrated grid and keypad. The layout comes from a
//! calibration ([`layout`]); `overlay` draws a plan over a screenshot.

pub mod overlay;

use crate::geometry::{Point, Rect};
use crate::sudoku::{Board, Cell, SolveEvent};
use serde::{Deserialize, Serialize};

/// A plan needed the erase button and the layout has none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "the app's erase button is not calibrated: re-run `sudoku-agent calibrate` and give its position"
)]
pub struct NoEraseButton;

/// A calibration without a keypad: no digit can be typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "the calibration has no keypad: re-run `sudoku-agent calibrate` on a screen that shows the digit buttons"
)]
pub struct NoKeypad;

use crate::profile::calibration::Calibration;
pub use crate::profile::calibration::InputOrder;

/// Where things are on the screen, as far as tapping is concerned.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Layout {
    /// The 81 cells.
    pub grid: Rect,
    /// Centres of the keypad buttons for digits 1..=9, in digit order.
    pub digits: [Point; 9],
    /// Centre of the erase (clear) button, when the app has one.
    pub erase: Option<Point>,
    pub order: InputOrder,
    /// A given of the board on screen, where a cell-first plan parks the selection when the
    /// key changes (see [`targets`]); `None`: no parking.
    #[serde(default)]
    pub park: Option<Cell>,
}

/// The tap layout of a calibration; refuses a calibration without a keypad.
pub fn layout(cal: &Calibration) -> Result<Layout, NoKeypad> {
    let keypad = cal.keypad.as_ref().ok_or(NoKeypad)?;
    Ok(Layout {
        grid: cal.grid,
        digits: keypad.digits,
        erase: keypad.erase,
        order: cal.input_order,
        park: None,
    })
}

/// One change to the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Move {
    Set { cell: Cell, digit: u8 },
    Erase { cell: Cell },
}

impl Move {
    pub fn cell(self) -> Cell {
        match self {
            Move::Set { cell, .. } | Move::Erase { cell } => cell,
        }
    }

    /// The digit it puts in: the key a move is typed with (`None`: the erase key).
    pub fn digit(self) -> Option<u8> {
        match self {
            Move::Set { digit, .. } => Some(digit),
            Move::Erase { .. } => None,
        }
    }
}

impl From<SolveEvent> for Move {
    /// A solver `Set` is a placement; a `Cancel` is an erase of the same cell.
    fn from(event: SolveEvent) -> Move {
        match event {
            SolveEvent::Set { cell, digit } => Move::Set { cell, digit },
            SolveEvent::Cancel { cell } => Move::Erase { cell },
        }
    }
}

/// What a tap hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Target {
    Cell(Cell),
    Digit(u8),
    Erase,
}

impl Target {
    /// A keypad button (a digit or erase), not a cell.
    pub fn is_key(self) -> bool {
        !matches!(self, Target::Cell(_))
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Cell(c) => write!(f, "cell {c}"),
            Target::Digit(d) => write!(f, "key {d}"),
            Target::Erase => write!(f, "erase"),
        }
    }
}

/// A tap: where, and what it is meant to hit (for dry runs, overlays and checks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tap {
    pub at: Point,
    pub target: Target,
}

/// A plan: the taps, and for each move the index of its last tap (so a run interrupted after
/// tap `i` knows which moves are complete).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Plan {
    pub taps: Vec<Tap>,
    pub move_ends: Vec<usize>,
}

impl Plan {
    /// The number of moves whose taps all lie before `taps_done`.
    pub fn moves_done(&self, taps_done: usize) -> usize {
        self.move_ends.partition_point(|&end| end < taps_done)
    }
}

/// The moves that turn the `screen` board (givens and entries as read) into `solution`:
/// empty cells get their digit; entries that disagree are erased and rewritten. Cells are visited
/// row by row. Entries that disagree are returned separately too, so a caller that must keep
/// them can refuse instead.
pub fn moves_to_fill(screen: &Board, solution: &Board) -> (Vec<Move>, Vec<Cell>) {
    let mut moves = Vec::new();
    let mut wrong = Vec::new();
    for cell in Cell::all() {
        let want = solution.get(cell);
        match (screen.get(cell), want) {
            (None, Some(digit)) => moves.push(Move::Set { cell, digit }),
            (Some(have), Some(digit)) if have != digit => {
                wrong.push(cell);
                moves.push(Move::Erase { cell });
                moves.push(Move::Set { cell, digit });
            }
            _ => {}
        }
    }
    (moves, wrong)
}

/// Reorders fill moves so each digit's moves come together: erases first, then placements
/// grouped by digit (a number-first app selects each digit once; see `play::assess_read` for
/// cell-first). Only for moves that do not depend on each other's order (filling a known
/// solution), never for a replayed search.
pub fn group_by_digit(moves: &[Move]) -> Vec<Move> {
    let mut out: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| matches!(m, Move::Erase { .. }))
        .collect();
    for d in 1..=9 {
        out.extend(
            moves
                .iter()
                .copied()
                .filter(|m| matches!(m, Move::Set { digit, .. } if *digit == d)),
        );
    }
    out
}

/// What each tap for `moves` hits, in order, and for each move the index of its last tap: the
/// sequence [`plan`] places on the screen, without positions.
///
/// Cell-first: every move taps its cell, then the digit or erase button; the cell is tapped
/// even when it is already selected, because some apps move the selection after an entry.
/// Where the next move takes another key, the move ends by selecting `park` (a given, which no
/// key changes): if the next move's cell tap is lost (an app that drops the first tap while
/// an animation plays), its key lands on the given and does nothing, instead of putting the
/// new digit in the cell just filled. A plan starts on the park too: it is made after a look at
/// the screen (at the start, or to go on after lost taps or a cover), when the selection may be
/// on any cell, often the one filled last.
/// Number-first: the digit (or erase tool) is tapped only when it changes, then the cell (`play`
/// sends that key tap at the end of the batch before, and checks it on the keypad).
pub fn targets(moves: &[Move], order: InputOrder, park: Option<Cell>) -> (Vec<Target>, Vec<usize>) {
    let key = |m: &Move| match *m {
        Move::Set { digit, .. } => Target::Digit(digit),
        Move::Erase { .. } => Target::Erase,
    };
    // A park cell the plan itself changes is no given.
    let park = park.filter(|&p| moves.iter().all(|m| m.cell() != p));
    let mut taps = Vec::with_capacity(2 * moves.len());
    let mut move_ends = Vec::with_capacity(moves.len());
    let mut tool: Option<Target> = None;
    if let (Some(p), InputOrder::CellFirst, false) = (park, order, moves.is_empty()) {
        taps.push(Target::Cell(p));
    }
    for (i, m) in moves.iter().enumerate() {
        let wanted = key(m);
        match order {
            InputOrder::CellFirst => {
                taps.push(Target::Cell(m.cell()));
                taps.push(wanted);
                if let Some(p) = park
                    && moves.get(i + 1).is_some_and(|next| key(next) != wanted)
                {
                    taps.push(Target::Cell(p));
                }
            }
            InputOrder::NumberFirst => {
                if tool != Some(wanted) {
                    taps.push(wanted);
                    tool = Some(wanted);
                }
                taps.push(Target::Cell(m.cell()));
            }
        }
        move_ends.push(taps.len() - 1);
    }
    (taps, move_ends)
}

/// Taps needed for `moves` in this input order (number-first taps a key only when it changes).
pub fn count_taps(moves: &[Move], order: InputOrder) -> usize {
    targets(moves, order, None).0.len()
}

/// The taps for `moves`, in order, on `layout` (see [`targets`] for the order).
pub fn plan(moves: &[Move], layout: &Layout) -> Result<Plan, NoEraseButton> {
    let (targets, move_ends) = targets(moves, layout.order, layout.park);
    let taps = targets
        .into_iter()
        .map(|target| {
            let at = match target {
                Target::Cell(cell) => layout.grid.grid_cell(cell.row(), cell.col()).center(),
                Target::Digit(d) => layout.digits[usize::from(d.clamp(1, 9)) - 1],
                Target::Erase => layout.erase.ok_or(NoEraseButton)?,
            };
            Ok(Tap { at, target })
        })
        .collect::<Result<_, _>>()?;
    Ok(Plan { taps, move_ends })
}

/// Applies moves to a board, as the app should: the board the screen must show afterwards.
pub fn apply(board: &Board, moves: &[Move]) -> Board {
    let mut b = *board;
    for &m in moves {
        match m {
            Move::Set { cell, digit } => b.set(cell, Some(digit)),
            Move::Erase { cell } => b.set(cell, None),
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout_for(order: InputOrder) -> Layout {
        let digits = std::array::from_fn(|i| Point::new(50 + 100 * i as u32, 1200));
        Layout {
            grid: Rect::new(0, 100, 900, 900),
            digits,
            erase: Some(Point::new(950, 1200)),
            order,
            park: None,
        }
    }

    fn cell(r: usize, c: usize) -> Cell {
        Cell::new(r, c).unwrap()
    }

    fn set(r: usize, c: usize, digit: u8) -> Move {
        Move::Set {
            cell: cell(r, c),
            digit,
        }
    }

    #[test]
    fn a_cell_first_plan_selects_the_park_given_first_and_where_the_key_changes_and_only_there() {
        let (a, b, c, g) = (cell(0, 1), cell(0, 2), cell(4, 4), cell(8, 8));
        let moves = [
            Move::Erase { cell: c },
            Move::Set { cell: a, digit: 3 },
            Move::Set { cell: b, digit: 3 },
            Move::Set { cell: c, digit: 4 },
        ];
        let (taps, ends) = targets(&moves, InputOrder::CellFirst, Some(g));
        use Target::{Cell as At, Digit, Erase};
        assert_eq!(
            taps,
            vec![
                At(g),
                At(c),
                Erase,
                At(g),
                At(a),
                Digit(3),
                At(b),
                Digit(3),
                At(g),
                At(c),
                Digit(4)
            ]
        );
        assert_eq!(ends, vec![3, 5, 8, 10]);
        // Number-first needs none (the key comes first), nor a park cell the plan changes.
        let plain = targets(&moves, InputOrder::NumberFirst, None);
        assert_eq!(targets(&moves, InputOrder::NumberFirst, Some(g)), plain);
        let no_park = targets(&moves, InputOrder::CellFirst, None);
        assert_eq!(targets(&moves, InputOrder::CellFirst, Some(a)), no_park);
    }

    #[test]
    fn cell_first_taps_the_cell_then_the_key_for_every_move() {
        let moves = [set(0, 0, 5), Move::Erase { cell: cell(0, 0) }];
        let p = plan(&moves, &layout_for(InputOrder::CellFirst)).unwrap();
        let points: Vec<_> = p.taps.iter().map(|t| (t.at.x, t.at.y)).collect();
        assert_eq!(points, [(50, 150), (450, 1200), (50, 150), (950, 1200)]);
        assert_eq!(p.move_ends, [1, 3]);
    }

    #[test]
    fn number_first_taps_a_key_only_when_the_tool_changes() {
        let moves = [
            set(0, 0, 3),
            set(8, 8, 3),
            Move::Erase { cell: cell(8, 8) },
            set(4, 4, 7),
        ];
        let p = plan(&moves, &layout_for(InputOrder::NumberFirst)).unwrap();
        let targets: Vec<_> = p.taps.iter().map(|t| t.target).collect();
        assert_eq!(
            targets,
            [
                Target::Digit(3),
                Target::Cell(cell(0, 0)),
                Target::Cell(cell(8, 8)),
                Target::Erase,
                Target::Cell(cell(8, 8)),
                Target::Digit(7),
                Target::Cell(cell(4, 4)),
            ]
        );
        assert_eq!(p.move_ends, [1, 2, 4, 6]);
        assert_eq!(p.moves_done(3), 2);
        assert_eq!(p.moves_done(7), 4);
    }

    #[test]
    fn every_planned_tap_is_a_cell_centre_or_a_key_centre() {
        let l = layout_for(InputOrder::CellFirst);
        let moves: Vec<Move> = Cell::all()
            .map(|c| Move::Set {
                cell: c,
                digit: (c.index() % 9 + 1) as u8,
            })
            .collect();
        for t in plan(&moves, &l).unwrap().taps {
            let ok = match t.target {
                Target::Cell(c) => l.grid.grid_cell(c.row(), c.col()).contains(t.at),
                Target::Digit(d) => l.digits[d as usize - 1] == t.at,
                Target::Erase => l.erase == Some(t.at),
            };
            assert!(ok, "{t:?}");
        }
    }

    #[test]
    fn erasing_without_an_erase_button_is_refused_before_any_tap() {
        let mut l = layout_for(InputOrder::CellFirst);
        l.erase = None;
        assert!(plan(&[set(0, 0, 1)], &l).is_ok());
        assert_eq!(
            plan(&[Move::Erase { cell: cell(0, 0) }], &l),
            Err(NoEraseButton)
        );
    }

    #[test]
    fn fill_moves_write_empty_cells_and_rewrite_wrong_entries() {
        let solution = Board::from_cells(std::array::from_fn(|i| {
            ((i / 9 * 3 + i / 27 + i % 9) % 9 + 1) as u8
        }))
        .unwrap();
        let mut screen = solution;
        screen.set(cell(0, 0), None);
        let wrong_digit = solution.get(cell(2, 2)).unwrap() % 9 + 1;
        screen.set(cell(2, 2), Some(wrong_digit));
        let (moves, wrong) = moves_to_fill(&screen, &solution);
        assert_eq!(wrong, [cell(2, 2)]);
        assert_eq!(moves.len(), 3);
        assert_eq!(apply(&screen, &moves), solution);
    }

    #[test]
    fn grouping_by_digit_keeps_erases_first_and_loses_no_move() {
        let moves = [
            set(0, 0, 9),
            Move::Erase { cell: cell(1, 1) },
            set(1, 1, 2),
            set(0, 1, 9),
        ];
        let grouped = group_by_digit(&moves);
        assert_eq!(grouped[0], Move::Erase { cell: cell(1, 1) });
        assert_eq!(grouped[1], set(1, 1, 2));
        assert_eq!(grouped.len(), moves.len());
    }

    #[test]
    fn solver_events_become_set_and_erase_moves() {
        let c = cell(3, 4);
        assert_eq!(
            Move::from(SolveEvent::Set { cell: c, digit: 4 }),
            Move::Set { cell: c, digit: 4 }
        );
        assert_eq!(
            Move::from(SolveEvent::Cancel { cell: c }),
            Move::Erase { cell: c }
        );
    }

    #[test]
    fn number_first_taps_a_key_only_when_it_changes() {
        let c = |i| Cell::from_index(i).unwrap();
        let moves = [
            Move::Set {
                cell: c(0),
                digit: 3,
            },
            Move::Set {
                cell: c(1),
                digit: 3,
            },
            Move::Erase { cell: c(1) },
            Move::Erase { cell: c(0) },
            Move::Set {
                cell: c(0),
                digit: 4,
            },
        ];
        assert_eq!(count_taps(&moves, InputOrder::CellFirst), 10);
        assert_eq!(count_taps(&moves, InputOrder::NumberFirst), 8);
    }
}
