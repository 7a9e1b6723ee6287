//! The puzzles that more than one test file (or a bench) solves, as 81 characters ('.' or '0'
//! empty), each with what makes it useful.

/// The classic example puzzle (Wikipedia's "Sudoku" article): one solution, quick to solve.
pub const CLASSIC: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
/// Kaggle row 1: 316 naive moves.
pub const KAGGLE_1: &str =
    "004300209005009001070060043006002087190007400050083000600000105003508690042910300";
/// Kaggle row 2: 143 naive moves, a short replay.
pub const KAGGLE_2: &str =
    "040100050107003960520008000000000017000906800803050620090060543600080700250097100";
/// Level 52 of the classic Auto.js demo (two solutions): 128 mrv moves.
pub const L52: &str =
    "000009000629300840005000090953000000000604000000900732040006070390020104200400080";
