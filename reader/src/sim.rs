//! Conversions between this crate's geometry and board types and the simulated phone's
//! (`sudoku-sim`), which keeps its own on purpose so that it never shares code with what it
//! tests. They live here because the rules of Rust allow a conversion between two types only in
//! a crate that owns one of them, and the phone must not depend on the reader: the agent's
//! in-process phone and its tests pass points, sizes, cells and boards across with `.into()`.

use crate::board::{Board, Cell};
use crate::geometry::{Point, Size};

/// Both directions between two types built alike from the same two fields with `new`.
macro_rules! both_ways {
    ($ours:ty, $theirs:ty, $a:ident, $b:ident) => {
        impl From<$theirs> for $ours {
            fn from(v: $theirs) -> $ours {
                <$ours>::new(v.$a, v.$b)
            }
        }

        impl From<$ours> for $theirs {
            fn from(v: $ours) -> $theirs {
                <$theirs>::new(v.$a, v.$b)
            }
        }
    };
}

both_ways!(Point, sudoku_sim::Point, x, y);
both_ways!(Size, sudoku_sim::Size, width, height);

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
