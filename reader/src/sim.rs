//! Conversions between this crate's geometry and board types and the simulated phone's
//! (`sudoku-sim`), which keeps its own on purpose so that it never shares code with what it
//! tests. They live here because the rules of Rust allow a conversion between two types only in
//! a crate that owns one of them, and the phone must not depend on the reader: the agent's
//! in-process phone and its tests pass points, sizes, cells and boards across with `.into()`.

use crate::board::{Board, Cell};
use crate::geometry::{Point, Size};

impl From<sudoku_sim::Point> for Point {
    fn from(p: sudoku_sim::Point) -> Point {
        Point::new(p.x, p.y)
    }
}

impl From<Point> for sudoku_sim::Point {
    fn from(p: Point) -> sudoku_sim::Point {
        sudoku_sim::Point::new(p.x, p.y)
    }
}

impl From<sudoku_sim::Size> for Size {
    fn from(s: sudoku_sim::Size) -> Size {
        Size::new(s.width, s.height)
    }
}

impl From<Size> for sudoku_sim::Size {
    fn from(s: Size) -> sudoku_sim::Size {
        sudoku_sim::Size::new(s.width, s.height)
    }
}

impl From<sudoku_sim::Cell> for Cell {
    fn from(c: sudoku_sim::Cell) -> Cell {
        Cell::from_index(c.index()).expect("both sides number 81 cells alike")
    }
}

impl From<Cell> for sudoku_sim::Cell {
    fn from(c: Cell) -> sudoku_sim::Cell {
        sudoku_sim::Cell::from_index(c.index()).expect("both sides number 81 cells alike")
    }
}

impl From<sudoku_sim::Board> for Board {
    fn from(b: sudoku_sim::Board) -> Board {
        Board::from_cells(*b.cells()).expect("both sides hold digits 0..=9")
    }
}

impl From<Board> for sudoku_sim::Board {
    fn from(b: Board) -> sudoku_sim::Board {
        sudoku_sim::Board::from_cells(*b.cells()).expect("both sides hold digits 0..=9")
    }
}
