//! A calibrated grid passed to the reader as a hint (`Hints::grid`): tried first, but a lattice
//! found near it counts only when it is the hint's own rectangle. A lattice one row off the real
//! grid still has centred digits in its cells; taken, it would lose a row of the board.

use crate::support::play_rig as rig;
use sudoku_agent::geometry::{Rect, Size};
use sudoku_agent::vision;
use sudoku_agent::vision::recognize::grid_offset;
use sudoku_agent::vision::{Hints, find_grid_and_cells};
use sudoku_sim::Screen as _;

#[test]
fn a_lattice_a_row_off_the_hint_is_refused_and_the_whole_board_is_read() {
    for skin in sudoku_sim::Skin::names() {
        let mut phone = rig::phone(skin, Size::new(1080, 2340), "easy");
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
            let rec = vision::read(&img, Some(&hints)).result.unwrap();
            assert_eq!(rec.board, rig::puzzle("easy"), "{skin}: hint {hint:?}");
        }
    }
}
