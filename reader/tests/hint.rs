//! A calibrated grid passed to the reader as a hint (`Hints::grid`): tried first, but a lattice
//! found near it counts only when it is the hint's own rectangle. A lattice one row off the real
//! grid still has centred digits in its cells; taken, it would lose a row of the board.

use crate::support::{board_of, puzzle};
use sudoku_reader::geometry::Rect;
use sudoku_reader::stages::find_grid_and_cells;
use sudoku_reader::stages::grid_offset;
use sudoku_reader::{Hints, read};
use sudoku_sim::{Screen as _, Size, Skin, SudokuApp};

#[test]
fn a_lattice_a_row_off_the_hint_is_refused_and_the_whole_board_is_read() {
    for skin in Skin::names() {
        let mut phone = SudokuApp::new(
            puzzle("easy"),
            Skin::named(skin).unwrap(),
            Size::new(1080, 2340),
        )
        .unwrap();
        let img = phone.render();
        let truth = find_grid_and_cells(&img, None).unwrap().grid;
        let r = truth.rect();
        for hint in [
            Rect::new(r.x, r.y + r.height / 9, r.width, r.height),
            Rect::new(r.x, r.y - r.height / 9, r.width, r.height),
        ] {
            let found = find_grid_and_cells(&img, Some(hint)).unwrap().grid;
            assert!(
                grid_offset(&found, r) <= 3.0,
                "{skin}: hint {hint:?} gave {:?}, the grid is {r:?}",
                found.rect()
            );
            let hints = Hints {
                grid: Some(hint),
                ..Hints::default()
            };
            let rec = read(&img, Some(&hints)).result.unwrap();
            assert_eq!(rec.board, board_of(puzzle("easy")), "{skin}: hint {hint:?}");
        }
    }
}
