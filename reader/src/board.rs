//! Board types: `Cell` (one of the 81 positions) and `Board` (81 cells, 0 = empty), with parsing
//! and printing of the usual text forms.

use serde::{Deserialize, Serialize};

/// One of the 81 cells, numbered row by row from 0 (top left) to 80 (bottom right).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
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
    /// Human numbering, as users count: `r3c7`.
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

    pub fn filled_count(&self) -> usize {
        self.cells.iter().filter(|&&d| d != 0).count()
    }

    pub fn is_complete(&self) -> bool {
        self.filled_count() == 81
    }

    /// The 81-character form, `.` for empty cells.
    pub fn to_line(&self) -> String {
        self.cells
            .iter()
            .map(|&d| if d == 0 { '.' } else { (b'0' + d) as char })
            .collect()
    }
}

/// Why a text could not be read as a board. Positions are 1-based, as users count.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("row {row}, column {col}: {found:?} is not a digit (use 1-9, and . or 0 for empty)")]
    NotADigit { row: usize, col: usize, found: char },
    #[error("found {found} cells, expected 81 (one puzzle of 81 characters, or 9 rows of 9)")]
    WrongCellCount { found: usize },
    #[error("row {row} has {found} cells, expected 9")]
    WrongRowLength { row: usize, found: usize },
    #[error("found {found} rows, expected 9")]
    WrongRowCount { found: usize },
}

/// One puzzle line of a puzzle-list file: the 81-character puzzle, then an optional label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleLine<'a> {
    /// 1-based line number in the text.
    pub line: usize,
    /// The puzzle, or why it could not be read.
    pub board: Result<Board, ParseError>,
    /// Whatever followed the puzzle on its line (trimmed, may be empty).
    pub label: &'a str,
}

/// Reads a puzzle list (one 81-character puzzle per line, an optional label after a space, `#`
/// comments and blank lines skipped), the format of the files in `shared/puzzles/`.
pub fn puzzle_lines(text: &str) -> impl Iterator<Item = PuzzleLine<'_>> {
    text.lines().enumerate().filter_map(|(i, raw)| {
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            return None;
        }
        let (puzzle, label) = content
            .split_once(char::is_whitespace)
            .unwrap_or((content, ""));
        Some(PuzzleLine {
            line: i + 1,
            board: Board::parse(puzzle),
            label: label.trim(),
        })
    })
}

/// Whether `text` looks like a puzzle list (one puzzle per line) rather than one board written as
/// 9 rows: its first word that is not grid frame is longer than a row.
pub fn is_puzzle_list(text: &str) -> bool {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .flat_map(str::split_whitespace)
        .find(|word| !word.chars().all(is_frame_char))
        .is_some_and(|first| first.chars().count() > 9)
}

/// Characters of the boxed grid's frame, skipped when reading the 9-row form back.
fn is_frame_char(c: char) -> bool {
    matches!(c, '|' | '-' | '+' | '=' | ':') || ('\u{2500}'..='\u{257F}').contains(&c)
}

fn cell_value(c: char) -> Option<u8> {
    match c {
        '.' | '0' => Some(0),
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

impl Board {
    /// Reads a board from text, in either of two forms:
    /// - 81 characters, `1`-`9` for givens and `.` or `0` for empty cells; whitespace is ignored;
    /// - 9 lines of 9 cells (`8 0 0 0 0 0 0 0 0`), chosen when the first line holds at most 9
    ///   cells; frame characters (`| - +`) and lines holding only frame characters are ignored,
    ///   so the output of [`Board::to_grid`] reads back.
    pub fn parse(text: &str) -> Result<Board, ParseError> {
        let rows: Vec<&str> = text
            .lines()
            .filter(|l| l.chars().any(|c| !c.is_whitespace() && !is_frame_char(c)))
            .collect();
        let cells_in = |line: &str| {
            line.chars()
                .filter(|&c| !c.is_whitespace() && !is_frame_char(c))
                .count()
        };
        // The 9-row form when there are several lines and the first looks like one row;
        // otherwise 81 characters, wrapped or not.
        let row_form = rows.len() > 1 && cells_in(rows[0]) <= 9;
        let mut cells = [0u8; 81];
        if !row_form {
            let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
            for (i, &c) in chars.iter().enumerate() {
                let value = cell_value(c).ok_or(ParseError::NotADigit {
                    row: i / 9 + 1,
                    col: i % 9 + 1,
                    found: c,
                })?;
                if i < 81 {
                    cells[i] = value;
                }
            }
            if chars.len() != 81 {
                return Err(ParseError::WrongCellCount { found: chars.len() });
            }
        } else {
            for (r, line) in rows.iter().enumerate() {
                let chars: Vec<char> = line
                    .chars()
                    .filter(|&c| !c.is_whitespace() && !is_frame_char(c))
                    .collect();
                for (col, &c) in chars.iter().enumerate() {
                    let value = cell_value(c).ok_or(ParseError::NotADigit {
                        row: r + 1,
                        col: col + 1,
                        found: c,
                    })?;
                    if r < 9 && col < 9 {
                        cells[r * 9 + col] = value;
                    }
                }
                if chars.len() != 9 {
                    return Err(ParseError::WrongRowLength {
                        row: r + 1,
                        found: chars.len(),
                    });
                }
            }
            if rows.len() != 9 {
                return Err(ParseError::WrongRowCount { found: rows.len() });
            }
        }
        Ok(Board { cells })
    }

    /// The 9-row form: one row per line, cells separated by spaces, `0` for empty.
    pub fn to_rows(&self) -> String {
        let mut out = String::with_capacity(9 * 18);
        for row in self.cells.chunks(9) {
            let line: Vec<String> = row.iter().map(|d| d.to_string()).collect();
            out.push_str(&line.join(" "));
            out.push('\n');
        }
        out
    }

    /// A boxed 9x9 grid for people, `.` for empty cells; [`Board::parse`] reads it back.
    pub fn to_grid(&self) -> String {
        const RULE: &str = "+-------+-------+-------+\n";
        let mut out = String::with_capacity(13 * 26);
        for (r, row) in self.cells.chunks(9).enumerate() {
            if r % 3 == 0 {
                out.push_str(RULE);
            }
            for (c, &d) in row.iter().enumerate() {
                if c % 3 == 0 {
                    out.push_str("| ");
                }
                out.push(if d == 0 { '.' } else { (b'0' + d) as char });
                out.push(' ');
            }
            out.push_str("|\n");
        }
        out.push_str(RULE);
        out
    }

    /// Every pair of filled cells that share a row, column or box and hold the same digit, each
    /// pair once with the lower cell first, in row-major order. Empty when no rule is broken.
    pub fn conflicts(&self) -> Vec<(Cell, Cell)> {
        let mut pairs = Vec::new();
        for a in Cell::all() {
            let Some(d) = self.get(a) else { continue };
            for b in Cell::all().skip(a.index() + 1) {
                if self.get(b) == Some(d) && a.sees(b) {
                    pairs.push((a, b));
                }
            }
        }
        pairs
    }

    /// Whether `self` is a complete board that breaks no rule and keeps every given of `puzzle`.
    pub fn is_solution_of(&self, puzzle: &Board) -> bool {
        self.is_complete()
            && self.conflicts().is_empty()
            && puzzle
                .cells
                .iter()
                .zip(&self.cells)
                .all(|(&given, &d)| given == 0 || given == d)
    }
}

impl Cell {
    /// Whether `other` is a different cell in the same row, column or box (a "peer").
    pub fn sees(self, other: Cell) -> bool {
        self != other
            && (self.row() == other.row()
                || self.col() == other.col()
                || self.box_index() == other.box_index())
    }
}

impl std::fmt::Display for Board {
    /// The boxed grid of [`Board::to_grid`].
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_grid())
    }
}

impl std::str::FromStr for Board {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Board, ParseError> {
        Board::parse(s)
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", self.to_line())
    }
}

impl Board {
    /// The cells whose content differs between `self` and `other`, in row order: the one place
    /// that compares two boards cell by cell (what changed on screen, what a check missed).
    pub fn diff(&self, other: &Board) -> Vec<Cell> {
        Cell::all()
            .filter(|&c| self.get(c) != other.get(c))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_numbering_is_row_major_with_boxes_row_by_row() {
        let c = Cell::new(4, 7).unwrap();
        assert_eq!((c.index(), c.row(), c.col(), c.box_index()), (43, 4, 7, 5));
        assert_eq!(c.to_string(), "r5c8");
        assert!(Cell::new(9, 0).is_none());
    }

    const EASY: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn line_form_round_trips_and_accepts_zero_for_empty() {
        let b = Board::parse(EASY).unwrap();
        assert_eq!(b.to_line(), EASY);
        assert_eq!(b.filled_count(), 30);
        let zeros = EASY.replace('.', "0");
        assert_eq!(Board::parse(&zeros).unwrap(), b);
        let spaced = format!("  {}\n{}  ", &EASY[..40], &EASY[40..]);
        assert_eq!(Board::parse(&spaced).unwrap(), b);
    }

    #[test]
    fn row_form_and_boxed_grid_read_back_to_the_same_board() {
        let b = Board::parse(EASY).unwrap();
        let rows = b.to_rows();
        assert!(rows.starts_with("5 3 0 0 7 0 0 0 0\n"));
        assert_eq!(Board::parse(&rows).unwrap(), b);
        let grid = b.to_grid();
        assert_eq!(grid.lines().count(), 13);
        assert_eq!(grid.lines().nth(1), Some("| 5 3 . | . 7 . | . . . |"));
        assert_eq!(Board::parse(&grid).unwrap(), b);
        assert_eq!(b.to_string(), grid);
        assert_eq!(EASY.parse::<Board>().unwrap(), b);
    }

    #[test]
    fn a_bad_character_is_reported_with_its_row_and_column() {
        let mut bad = EASY.to_string();
        bad.replace_range(24..25, "x"); // row 3, column 7
        let err = Board::parse(&bad).unwrap_err();
        assert_eq!(
            err,
            ParseError::NotADigit {
                row: 3,
                col: 7,
                found: 'x'
            }
        );
        assert!(
            err.to_string()
                .starts_with("row 3, column 7: 'x' is not a digit")
        );
        let mut rows = Board::parse(EASY).unwrap().to_rows();
        rows = rows.replacen("4 0 0 8", "4 0 ? 8", 1);
        assert_eq!(
            Board::parse(&rows).unwrap_err(),
            ParseError::NotADigit {
                row: 5,
                col: 3,
                found: '?'
            }
        );
    }

    #[test]
    fn wrong_lengths_say_how_many_cells_or_rows_were_found() {
        assert_eq!(
            Board::parse(&EASY[..80]).unwrap_err(),
            ParseError::WrongCellCount { found: 80 }
        );
        assert_eq!(
            Board::parse(&format!("{EASY}1")).unwrap_err(),
            ParseError::WrongCellCount { found: 82 }
        );
        assert_eq!(
            Board::parse("").unwrap_err(),
            ParseError::WrongCellCount { found: 0 }
        );
        let rows = Board::parse(EASY).unwrap().to_rows();
        let short_row = rows.replacen("5 3 0 0 7 0 0 0 0", "5 3 0 0 7 0 0 0", 1);
        assert_eq!(
            Board::parse(&short_row).unwrap_err(),
            ParseError::WrongRowLength { row: 1, found: 8 }
        );
        let eight_rows: String = rows.lines().take(8).map(|l| format!("{l}\n")).collect();
        assert_eq!(
            Board::parse(&eight_rows).unwrap_err(),
            ParseError::WrongRowCount { found: 8 }
        );
        assert!(
            ParseError::WrongCellCount { found: 80 }
                .to_string()
                .contains("found 80 cells")
        );
    }

    #[test]
    fn conflicts_name_every_pair_of_clashing_givens() {
        assert!(Board::parse(EASY).unwrap().conflicts().is_empty());
        // r1c1 = 5 clashes with a 5 in its row (r1c9), its column (r9c1) and its box (r2c2).
        let mut b = Board::empty();
        let c = |r, c| Cell::new(r, c).unwrap();
        for cell in [c(0, 0), c(0, 8), c(8, 0), c(1, 1)] {
            b.set(cell, Some(5));
        }
        let pairs = b.conflicts();
        assert_eq!(
            pairs,
            vec![(c(0, 0), c(0, 8)), (c(0, 0), c(1, 1)), (c(0, 0), c(8, 0))]
        );
        assert_eq!(pairs[0].0.to_string(), "r1c1");
    }

    #[test]
    fn a_solution_must_be_complete_valid_and_keep_the_givens() {
        let puzzle = Board::parse(EASY).unwrap();
        let solution = Board::parse(
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        )
        .unwrap();
        assert!(solution.is_solution_of(&puzzle));
        assert!(!puzzle.is_solution_of(&puzzle));
        let mut broken = solution;
        broken.set(Cell::new(0, 0).unwrap(), Some(3));
        assert!(!broken.is_solution_of(&puzzle));
        // A valid grid that changes a given is not a solution of this puzzle.
        let mut other = Board::empty();
        other.set(Cell::new(0, 0).unwrap(), Some(1));
        assert!(!solution.is_solution_of(&other));
    }

    #[test]
    fn puzzle_lists_skip_comments_and_keep_labels() {
        let text = format!(
            "# header\n\n{EASY} easy one\n{}  # trailing\nnot-a-puzzle\n",
            EASY.replace('.', "0")
        );
        assert!(is_puzzle_list(&text));
        let board = Board::parse(EASY).unwrap();
        assert!(!is_puzzle_list(&board.to_rows()));
        assert!(!is_puzzle_list(&board.to_grid()));
        assert!(!is_puzzle_list(&board.to_rows().replace(' ', "")));
        // A mistyped first puzzle still reads as a list, so the error names that line.
        assert!(is_puzzle_list(&format!("{}\n{EASY}\n", &EASY[..80])));
        let lines: Vec<_> = puzzle_lines(&text).collect();
        assert_eq!(lines.len(), 3);
        assert_eq!((lines[0].line, lines[0].label), (3, "easy one"));
        assert_eq!(lines[1].board, Board::parse(EASY));
        assert_eq!(lines[1].label, "");
        assert!(lines[2].board.is_err());
    }
}
