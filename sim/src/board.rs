//! The simulated app's own sudoku board: `Cell` (one of the 81 positions) and `Board` (81 cells,
//! 0 = empty). The phone keeps its own types rather than the agent's, as a real app would.

/// One of the 81 cells, numbered row by row from 0 (top left) to 80 (bottom right).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell at 0-based `row` and `col`; `None` outside 0..9.
    pub fn new(row: usize, col: usize) -> Option<Cell> {
        (row < 9 && col < 9).then(|| Cell((row * 9 + col) as u8))
    }

    /// The cell with row-major index `index` (0..81).
    pub fn from_index(index: usize) -> Option<Cell> {
        (index < 81).then_some(Cell(index as u8))
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }

    pub fn row(self) -> usize {
        self.index() / 9
    }

    pub fn col(self) -> usize {
        self.index() % 9
    }

    /// The 3x3 box, numbered 0..9 row by row.
    pub fn box_index(self) -> usize {
        self.row() / 3 * 3 + self.col() / 3
    }

    /// All 81 cells in row-major order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..81u8).map(Cell)
    }
}

impl std::fmt::Display for Cell {
    /// Human numbering: `r3c7`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "r{}c{}", self.row() + 1, self.col() + 1)
    }
}

/// A 9x9 board; each cell holds 0 (empty) or a digit 1..=9.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [u8; 81],
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

impl Board {
    pub const fn empty() -> Self {
        Board { cells: [0; 81] }
    }

    /// A board from 81 values, each 0..=9; `None` if any value is out of range.
    pub fn from_cells(cells: [u8; 81]) -> Option<Board> {
        cells.iter().all(|&d| d <= 9).then_some(Board { cells })
    }

    pub fn cells(&self) -> &[u8; 81] {
        &self.cells
    }

    /// The digit in `cell`, or `None` when it is empty.
    pub fn get(&self, cell: Cell) -> Option<u8> {
        match self.cells[cell.index()] {
            0 => None,
            d => Some(d),
        }
    }

    /// Puts `digit` (1..=9) into `cell`, or empties it with `None`.
    pub fn set(&mut self, cell: Cell, digit: Option<u8>) {
        let d = digit.unwrap_or(0);
        debug_assert!(d <= 9, "digit out of range: {d}");
        self.cells[cell.index()] = d;
    }

    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&d| d != 0)
    }

    /// The 81-character form, `.` for empty cells.
    pub fn to_line(&self) -> String {
        self.cells
            .iter()
            .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
            .collect()
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", self.to_line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_number_row_by_row_and_know_their_box() {
        let c = Cell::new(4, 7).unwrap();
        assert_eq!((c.index(), c.row(), c.col(), c.box_index()), (43, 4, 7, 5));
        assert_eq!(Cell::from_index(43), Some(c));
        assert_eq!(Cell::new(9, 0), None);
        assert_eq!(Cell::all().count(), 81);
        assert_eq!(c.to_string(), "r5c8");
    }

    #[test]
    fn a_board_holds_digits_and_prints_as_one_line() {
        let mut b = Board::empty();
        let c = Cell::new(0, 2).unwrap();
        b.set(c, Some(7));
        assert_eq!(b.get(c), Some(7));
        assert!(b.to_line().starts_with("..7."));
        assert!(!b.is_complete());
        assert!(Board::from_cells([10; 81]).is_none());
    }
}
