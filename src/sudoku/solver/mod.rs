//! The backtracking solver, in three strategies, reporting every move to a [`SolveObserver`].
//!
//! - [`Strategy::Naive`] (`naive.rs`) is the textbook backtracker of the classic demos: empty cells
//!   in row-major order, digits 1 to 9, digits that break a rule skipped, undo on failure. Its step
//!   count (the number of `Set` events) is the "search took N steps" figure.
//! - [`Strategy::Mrv`] (`mrv.rs`) is the other classic backtracker: the empty cell with the fewest
//!   candidates first (ties in row-major order), its candidates in ascending order, no other
//!   deduction.
//! - [`Strategy::Fast`] (`fast.rs`) propagates singles and box/line eliminations before each
//!   guess. Cells it fills by propagation are reported as `Set`s too, and taken back with
//!   `Cancel`s on backtrack. It allocates nothing while searching, and with the `()` observer the
//!   events compile away.
//!
//! This file holds what they share: options, outcomes, the step budget and the event bookkeeping.
//! Whatever the strategy, replaying the events onto the puzzle reproduces the solver's board at
//! every point. Every search is bounded by a step budget ([`DEFAULT_MAX_STEPS`] unless the caller
//! says otherwise), so no puzzle can make it run forever.

mod agreement;
mod fast;
mod mrv;
mod naive;

use super::{Board, Cell, SolveEvent, SolveObserver};
pub use agreement::{Agreement, agreement};
use std::fmt;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// Step budget used when none is given: ten million `Set`s, about half a second of `naive` in a
/// release build. `fast` never comes close (at most a few thousand steps on the hardest sets);
/// `naive` needs a few hundred on everyday puzzles but exhausts it on puzzles built against it,
/// such as the anti-backtracker, and on many 17-clue ones.
pub const DEFAULT_MAX_STEPS: u64 = 10_000_000;

/// How the solver searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Strategy {
    /// The textbook backtracker: row-major cells, digits 1 to 9, no propagation.
    Naive,
    /// Most-constrained cell first (fewest candidates, ties row-major), digits ascending, no
    /// other deduction.
    Mrv,
    /// Bitmask candidates, naked and hidden singles, locked candidates, fewest-candidate cell first.
    #[default]
    Fast,
}

impl Strategy {
    pub const ALL: [Strategy; 3] = [Strategy::Naive, Strategy::Mrv, Strategy::Fast];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::Naive => "naive",
            Strategy::Mrv => "mrv",
            Strategy::Fast => "fast",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name given is not a strategy.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown strategy {0:?} (expected naive, mrv or fast)")]
pub struct UnknownStrategy(pub String);

impl std::str::FromStr for Strategy {
    type Err = UnknownStrategy;
    fn from_str(s: &str) -> Result<Strategy, UnknownStrategy> {
        Strategy::ALL
            .into_iter()
            .find(|st| st.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownStrategy(s.to_string()))
    }
}

/// What to solve with and how far to go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolveOptions {
    pub strategy: Strategy,
    /// Stop after this many `Set`s; `None` searches without limit.
    pub max_steps: Option<u64>,
    /// Keep searching after the first solution to prove there is no second one.
    pub unique: bool,
}

impl Default for SolveOptions {
    /// `fast`, [`DEFAULT_MAX_STEPS`], first solution only.
    fn default() -> Self {
        SolveOptions {
            strategy: Strategy::Fast,
            max_steps: Some(DEFAULT_MAX_STEPS),
            unique: false,
        }
    }
}

impl From<Strategy> for SolveOptions {
    fn from(strategy: Strategy) -> Self {
        SolveOptions {
            strategy,
            ..SolveOptions::default()
        }
    }
}

/// What the search cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SolveStats {
    /// `Set` events: the "steps" of the search.
    pub sets: u64,
    /// `Cancel` events: fills taken back.
    pub cancels: u64,
    /// Sets the search chose while another candidate of the cell was still untried. `naive` and
    /// `mrv` deduce nothing, so for them every set counts; for `fast` these are its guesses.
    pub guesses: u64,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
}

/// Why a search stopped before it was finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// The observer returned `ControlFlow::Break`.
    Observer,
    /// The step budget ran out.
    StepBudget { max_steps: u64 },
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::Observer => f.write_str("stopped by the observer"),
            StopReason::StepBudget { max_steps } => {
                write!(f, "step budget exhausted after {max_steps} steps")
            }
        }
    }
}

/// How a search ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A solution (with `unique`: the only one).
    Solved { board: Board, stats: SolveStats },
    /// No solution exists (this includes givens that already break a rule).
    NoSolution { stats: SolveStats },
    /// With `unique`: two different solutions were found.
    Multiple {
        first: Board,
        second: Board,
        stats: SolveStats,
    },
    /// The search was stopped before it finished.
    Stopped {
        reason: StopReason,
        stats: SolveStats,
    },
}

impl Outcome {
    pub fn stats(&self) -> &SolveStats {
        match self {
            Outcome::Solved { stats, .. }
            | Outcome::NoSolution { stats }
            | Outcome::Multiple { stats, .. }
            | Outcome::Stopped { stats, .. } => stats,
        }
    }

    /// The (first) solution found, if any.
    pub fn solution(&self) -> Option<&Board> {
        match self {
            Outcome::Solved { board, .. } => Some(board),
            Outcome::Multiple { first, .. } => Some(first),
            _ => None,
        }
    }

    /// A short word for summaries and JSON: solved, no-solution, multiple, stopped.
    pub fn kind(&self) -> &'static str {
        match self {
            Outcome::Solved { .. } => "solved",
            Outcome::NoSolution { .. } => "no-solution",
            Outcome::Multiple { .. } => "multiple",
            Outcome::Stopped { .. } => "stopped",
        }
    }
}

/// Solves `board` with the default options (`fast`, first solution, default step budget).
pub fn solve(board: &Board) -> Outcome {
    solve_with(board, SolveOptions::default(), &mut ())
}

/// Solves `board`, pushing every `Set` and `Cancel` to `observer` in the order the solver makes
/// them. `options` may be a [`SolveOptions`] or just a [`Strategy`].
///
/// With `unique`, the search goes on after the first solution, so its events take that solution
/// back again; the solutions are in the returned [`Outcome`].
pub fn solve_with<O: SolveObserver>(
    board: &Board,
    options: impl Into<SolveOptions>,
    observer: &mut O,
) -> Outcome {
    let options = options.into();
    let started = Instant::now();
    let mut run = Run {
        observer,
        sets: 0,
        cancels: 0,
        guesses: 0,
        max_steps: options.max_steps.unwrap_or(u64::MAX),
        stop: None,
        wanted: if options.unique { 2 } else { 1 },
        solutions: [Board::empty(); 2],
        found: 0,
        cells: *board.cells(),
    };
    match options.strategy {
        Strategy::Naive => run.naive(board),
        Strategy::Mrv => run.mrv(board),
        Strategy::Fast => run.fast(board),
    }
    let stats = SolveStats {
        sets: run.sets,
        cancels: run.cancels,
        guesses: match options.strategy {
            Strategy::Fast => run.guesses,
            Strategy::Naive | Strategy::Mrv => run.sets,
        },
        elapsed: started.elapsed(),
    };
    match (run.stop, run.found) {
        (Some(reason), _) => Outcome::Stopped { reason, stats },
        (None, 0) => Outcome::NoSolution { stats },
        (None, 1) => Outcome::Solved {
            board: run.solutions[0],
            stats,
        },
        (None, _) => Outcome::Multiple {
            first: run.solutions[0],
            second: run.solutions[1],
            stats,
        },
    }
}

/// The search's bookkeeping, shared by every strategy: counts, budget, observer, solutions.
struct Run<'o, O> {
    observer: &'o mut O,
    sets: u64,
    cancels: u64,
    guesses: u64,
    max_steps: u64,
    stop: Option<StopReason>,
    /// Solutions to find before stopping: 1, or 2 to prove uniqueness.
    wanted: usize,
    solutions: [Board; 2],
    found: usize,
    /// The puzzle with every `Set` written in: at a solution, the solution (each empty cell's
    /// latest `Set` is the one on the current path).
    cells: [u8; 81],
}

/// A search step failed: `Dead` means backtrack, `Halt` means stop everything (solutions found,
/// budget spent, or observer said stop).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Halt {
    Dead,
    Done,
}

impl<O: SolveObserver> Run<'_, O> {
    /// Reports a fill; `Err(Done)` when the budget or the observer stops the search.
    #[inline(always)]
    fn emit_set(&mut self, cell: usize, digit: u8) -> Result<(), Halt> {
        if self.sets >= self.max_steps {
            self.stop = Some(StopReason::StepBudget {
                max_steps: self.max_steps,
            });
            return Err(Halt::Done);
        }
        self.sets += 1;
        self.cells[cell] = digit;
        if O::IGNORES_EVENTS {
            return Ok(());
        }
        let cell = Cell::from_index(cell).expect("cell index below 81");
        if self.observer.on_event(SolveEvent::Set { cell, digit }) == ControlFlow::Break(()) {
            self.stop = Some(StopReason::Observer);
            return Err(Halt::Done);
        }
        Ok(())
    }

    /// Reports that a fill was taken back.
    #[inline(always)]
    fn emit_cancel(&mut self, cell: usize) -> Result<(), Halt> {
        self.cancels += 1;
        if O::IGNORES_EVENTS {
            return Ok(());
        }
        let cell = Cell::from_index(cell).expect("cell index below 81");
        if self.observer.on_event(SolveEvent::Cancel { cell }) == ControlFlow::Break(()) {
            self.stop = Some(StopReason::Observer);
            return Err(Halt::Done);
        }
        Ok(())
    }

    /// Records a solution; `true` when enough have been found.
    fn found_solution(&mut self, board: Board) -> bool {
        self.solutions[self.found] = board;
        self.found += 1;
        self.found >= self.wanted
    }
}

/// The box (0..9, row-major) of each cell.
const BOX_OF: [u8; 81] = {
    let mut t = [0u8; 81];
    let mut i = 0;
    while i < 81 {
        t[i] = ((i / 27) * 3 + (i % 9) / 3) as u8;
        i += 1;
    }
    t
};

#[cfg(test)]
pub(crate) mod fixtures {
    //! Puzzles and helpers the strategies' tests share.
    use super::{Outcome, SolveOptions, Strategy, solve_with};
    use crate::sudoku::{Board, puzzle_lines};
    use std::path::PathBuf;

    pub(crate) const EASY: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    /// Level 52 of a well-known app demo; it has more than one solution.
    pub(crate) const L52: &str =
        "000009000629300840005000090953000000000604000000900732040006070390020104200400080";
    pub(crate) const ANTI_BACKTRACKER: &str =
        "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
    /// Row 1 holds 1-8 and column 9 holds a 9 lower down, so r1c9 has no digit left.
    pub(crate) const DEAD_END: &str =
        "12345678.........9...............................................................";

    pub(crate) fn board(s: &str) -> Board {
        Board::parse(s).unwrap()
    }

    /// The repository's small puzzle sets (`tests/data/puzzles`): a fresh clone tests itself.
    pub(crate) fn puzzles_dir() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/puzzles")
    }

    /// Solves the anti-backtracker with `strategy`, stopping after `max_steps` fills.
    pub(crate) fn anti_backtracker_within(strategy: Strategy, max_steps: u64) -> Outcome {
        let options = SolveOptions {
            strategy,
            max_steps: Some(max_steps),
            unique: false,
        };
        solve_with(&board(ANTI_BACKTRACKER), options, &mut ())
    }

    /// Asserts that `outcome` ends as a reference search did: solved to its `cells`, or with no
    /// solution when it found none.
    pub(crate) fn assert_ends_like_reference(outcome: Outcome, solved: bool, cells: &[u8; 81]) {
        match outcome {
            Outcome::Solved { board, .. } => {
                assert!(solved);
                assert_eq!(board.cells(), cells);
            }
            Outcome::NoSolution { .. } => assert!(!solved),
            other => panic!("unexpected {other:?}"),
        }
    }

    pub(crate) fn named_hard() -> Vec<(Board, String)> {
        let text = std::fs::read_to_string(puzzles_dir().join("named_hard.txt")).unwrap();
        puzzle_lines(&text)
            .map(|l| (l.board.unwrap(), l.label.to_string()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::*;
    use super::*;
    use crate::sudoku::{Recorder, replay};

    #[test]
    fn replaying_the_events_reproduces_the_solution_for_every_strategy() {
        let mut cases: Vec<(Board, Strategy)> = named_hard()
            .into_iter()
            .map(|(b, _)| (b, Strategy::Fast))
            .collect();
        cases.extend([EASY, L52].map(|s| (board(s), Strategy::Naive)));
        cases.extend([EASY, L52, ANTI_BACKTRACKER].map(|s| (board(s), Strategy::Mrv)));
        cases.push((board(L52), Strategy::Fast));
        for (puzzle, strategy) in cases {
            let mut recorder = Recorder::new();
            let outcome = solve_with(&puzzle, strategy, &mut recorder);
            let solution = outcome.solution().copied().expect("solved");
            assert_eq!(recorder.replay_onto(&puzzle), solution);
            let sets = recorder
                .events
                .iter()
                .filter(|e| matches!(e, SolveEvent::Set { .. }))
                .count() as u64;
            assert_eq!(sets, outcome.stats().sets);
            assert_eq!(recorder.events.len() as u64 - sets, outcome.stats().cancels);
        }
    }

    #[test]
    fn every_prefix_of_the_events_is_a_legal_board_state() {
        // Sets only go into empty cells and never break a rule; cancels only empty filled cells.
        for strategy in Strategy::ALL {
            let puzzle = board(L52);
            let mut recorder = Recorder::new();
            solve_with(&puzzle, strategy, &mut recorder);
            let mut b = puzzle;
            for e in &recorder.events {
                match *e {
                    SolveEvent::Set { cell, digit } => {
                        assert_eq!(b.get(cell), None);
                        let clash = Cell::all().any(|p| p.sees(cell) && b.get(p) == Some(digit));
                        assert!(!clash, "{strategy} {e:?}");
                        b.set(cell, Some(digit));
                    }
                    SolveEvent::Cancel { cell } => {
                        assert_eq!(puzzle.get(cell), None);
                        assert!(b.get(cell).is_some());
                        b.set(cell, None);
                    }
                }
            }
        }
    }

    #[test]
    fn an_observer_can_stop_the_search_and_replay_matches_where_it_stopped() {
        for strategy in Strategy::ALL {
            let puzzle = board(ANTI_BACKTRACKER);
            let mut recorder = Recorder::with_limit(50);
            let outcome = solve_with(&puzzle, strategy, &mut recorder);
            assert_eq!(recorder.events.len(), 50);
            assert!(matches!(
                outcome,
                Outcome::Stopped {
                    reason: StopReason::Observer,
                    ..
                }
            ));
            assert_eq!(
                replay(&puzzle, &recorder.events).filled_count(),
                puzzle.filled_count() + outcome.stats().sets as usize
                    - outcome.stats().cancels as usize
            );
        }
    }

    #[test]
    fn the_step_budget_stops_naive_on_the_anti_backtracker() {
        let outcome = anti_backtracker_within(Strategy::Naive, 20_000);
        let Outcome::Stopped { reason, stats } = outcome else {
            panic!("expected a stop, got {outcome:?}");
        };
        assert_eq!(stats.sets, 20_000);
        assert_eq!(
            reason.to_string(),
            "step budget exhausted after 20000 steps"
        );
        assert_eq!(SolveOptions::default().max_steps, Some(DEFAULT_MAX_STEPS));
    }

    #[test]
    fn unique_finds_a_second_solution_when_there_is_one() {
        for strategy in Strategy::ALL {
            let options = SolveOptions {
                strategy,
                unique: true,
                ..SolveOptions::default()
            };
            let puzzle = board(L52);
            match solve_with(&puzzle, options, &mut ()) {
                Outcome::Multiple { first, second, .. } => {
                    assert!(first.is_solution_of(&puzzle) && second.is_solution_of(&puzzle));
                    assert_ne!(first, second);
                }
                other => panic!("{strategy}: {other:?}"),
            }
            let easy = board(EASY);
            let mut recorder = Recorder::new();
            let outcome = solve_with(&easy, options, &mut recorder);
            assert!(matches!(outcome, Outcome::Solved { .. }), "{strategy}");
            // The search went on past the solution and took it back.
            assert_eq!(recorder.replay_onto(&easy), easy);
        }
    }

    #[test]
    fn unsolvable_and_conflicting_boards_have_no_solution() {
        let mut clash = board(EASY);
        clash.set(Cell::new(0, 2).unwrap(), Some(5));
        for strategy in Strategy::ALL {
            for puzzle in [board(DEAD_END), clash] {
                let mut recorder = Recorder::new();
                let outcome = solve_with(&puzzle, strategy, &mut recorder);
                assert!(
                    matches!(outcome, Outcome::NoSolution { .. }),
                    "{strategy}: {outcome:?}"
                );
                assert_eq!(recorder.replay_onto(&puzzle), puzzle);
            }
        }
    }

    #[test]
    fn empty_and_already_solved_boards_are_solved() {
        for strategy in Strategy::ALL {
            let outcome = solve_with(&Board::empty(), strategy, &mut ());
            assert!(outcome.solution().unwrap().is_solution_of(&Board::empty()));
            let full = *outcome.solution().unwrap();
            let again = solve_with(&full, strategy, &mut ());
            assert_eq!(again.solution(), Some(&full));
            assert_eq!(again.stats().sets, 0);
        }
    }

    #[test]
    fn strategies_parse_from_and_print_as_their_names() {
        assert_eq!("naive".parse::<Strategy>(), Ok(Strategy::Naive));
        assert_eq!("FAST".parse::<Strategy>(), Ok(Strategy::Fast));
        assert!("quick".parse::<Strategy>().is_err());
        assert_eq!(Strategy::default().to_string(), "fast");
    }
}
