//! Recording the search to replay and deciding, from the screen, where the replay starts: a
//! fresh run from the givens, or a resumed one at the step the screen shows.

use super::resume::{State, find_resume_point};
use crate::error::BoardProblem;
use crate::plan::Move;
use crate::sudoku::{
    Board, Cell, Outcome, Recorder, SolveEvent, SolveOptions, StopReason, Strategy, solve_with,
};
use anyhow::{Result, anyhow, bail};
use sudoku_reader::Recognition;

/// A recorded search, ready to replay.
#[derive(Debug, Clone)]
pub struct Search {
    pub puzzle: Board,
    pub strategy: Strategy,
    pub max_steps: Option<u64>,
    pub events: Vec<SolveEvent>,
    pub solution: Board,
    /// `Set` events: the steps people count.
    pub steps: u64,
    pub cancels: u64,
}

impl Search {
    /// The events as moves for the phone.
    pub fn moves(&self) -> Vec<Move> {
        self.events.iter().map(|&e| Move::from(e)).collect()
    }
}

/// Runs the search from `puzzle`, recording every event; refuses puzzles without a solution and
/// searches beyond the step budget.
pub fn record_search(puzzle: &Board, strategy: Strategy, max_steps: Option<u64>) -> Result<Search> {
    search_within(puzzle, strategy, max_steps, |max_steps| {
        BoardProblem(format!(
            "the {strategy} search needs more than {max_steps} steps; raise --max-steps (0 = no limit) or use --strategy fast; nothing was tapped"
        ))
        .into()
    })
}

/// [`record_search`] with the error for a search past its budget made by `over_budget`.
fn search_within(
    puzzle: &Board,
    strategy: Strategy,
    max_steps: Option<u64>,
    over_budget: impl FnOnce(u64) -> anyhow::Error,
) -> Result<Search> {
    // The naive search on a board without a solution runs into any budget, and advising a bigger
    // one would run for ages; the fast solver settles it in microseconds, so ask it first.
    if strategy != Strategy::Fast && has_no_solution(puzzle) {
        return Err(no_solution(puzzle));
    }
    let mut recorder = Recorder::new();
    let options = SolveOptions {
        strategy,
        max_steps,
        unique: false,
    };
    let outcome = solve_with(puzzle, options, &mut recorder);
    let stats = *outcome.stats();
    let solution = match outcome {
        Outcome::Solved { board, .. } | Outcome::Multiple { first: board, .. } => board,
        Outcome::NoSolution { .. } => return Err(no_solution(puzzle)),
        Outcome::Stopped {
            reason: StopReason::StepBudget { max_steps },
            ..
        } => return Err(over_budget(max_steps)),
        Outcome::Stopped { .. } => bail!("the search stopped early"),
    };
    Ok(Search {
        puzzle: *puzzle,
        strategy,
        max_steps,
        events: recorder.events,
        solution,
        steps: stats.sets,
        cancels: stats.cancels,
    })
}

/// True when the fast solver proves that `puzzle` has no solution (it needs no step budget).
pub fn has_no_solution(puzzle: &Board) -> bool {
    let fast = SolveOptions {
        strategy: Strategy::Fast,
        max_steps: None,
        unique: false,
    };
    matches!(
        solve_with(puzzle, fast, &mut ()),
        Outcome::NoSolution { .. }
    )
}

fn no_solution(puzzle: &Board) -> anyhow::Error {
    BoardProblem(format!(
        "this board has no solution ({}); check the screen, or re-run `sudoku-agent calibrate` if digits were misread; nothing was tapped",
        puzzle.to_line()
    ))
    .into()
}

/// The error for a screen that shows entries before a fresh run.
pub fn refuse_entries(entries: &[Cell]) -> anyhow::Error {
    let cells: Vec<String> = entries.iter().take(8).map(Cell::to_string).collect();
    anyhow!(BoardProblem(format!(
        "the board already has {} player entries ({}{}); if an earlier visualize run was interrupted continue it with --resume, else clear them in the app (or start a new game) and retry; if they are really the puzzle's givens, the calibration belongs to another app: re-run `sudoku-agent calibrate`; nothing was tapped",
        entries.len(),
        cells.join(", "),
        if entries.len() > 8 { ", ..." } else { "" }
    )))
}

/// What to replay, decided from the screen before anything is tapped.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub search: Search,
    /// Moves already on the screen (0 for a fresh run).
    pub start: usize,
    /// For a resumed run: whether the screen matched where the state file said.
    pub as_recorded: bool,
}

/// A fresh run: the screen must show the givens only; the search starts from them.
pub fn prepare_fresh(
    screen: &Recognition,
    strategy: Strategy,
    max_steps: Option<u64>,
) -> Result<Prepared> {
    let givens = screen.givens();
    let entries = givens.diff(&screen.board);
    if !entries.is_empty() {
        return Err(refuse_entries(&entries));
    }
    Ok(Prepared {
        search: record_search(&givens, strategy, max_steps)?,
        start: 0,
        as_recorded: true,
    })
}

/// A resumed run: the same search again, continued from the step the screen shows.
pub fn prepare_resume(screen: &Recognition, state: &State) -> Result<Prepared> {
    let (puzzle, strategy) = state.search()?;
    if screen.givens() != puzzle {
        return Err(BoardProblem(format!(
            "the screen shows another puzzle than the interrupted run ({} instead of {}); open that puzzle again, or start without --resume",
            screen.givens().to_line(),
            puzzle.to_line()
        ))
        .into());
    }
    // The file is data anyone can edit: the search is bounded by the moves it records.
    let search = search_within(&puzzle, strategy, Some(state.step_budget()), |budget| {
        BoardProblem(format!(
            "the progress file does not fit this search: the {strategy} search needs more than the {budget} steps it allows (moves {}, max_steps {}); start without --resume",
            state.moves,
            state.max_steps.map_or("none".to_string(), |m| m.to_string())
        ))
        .into()
    })?;
    if search.events.len() != state.moves {
        bail!(
            "this build's {strategy} search has {} moves but the interrupted run had {}; start without --resume",
            search.events.len(),
            state.moves
        );
    }
    let point = find_resume_point(&puzzle, &search.events, &screen.board, state)
        .ok_or_else(|| {
            BoardProblem(format!(
                "the board on screen matches no step of the {strategy} search (progress file: {} of {} moves sent); start again without --resume on a fresh puzzle",
                state.sent, state.moves
            ))
        })?;
    Ok(Prepared {
        search,
        start: point.index,
        as_recorded: point.as_recorded,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const EASY2: &str =
        "040100050107003960520008000000000017000906800803050620090060543600080700250097100";

    /// What recording a naive search of `puzzle` within `max_steps` says to refuse it.
    fn refusal(puzzle: &str, max_steps: u64) -> String {
        let puzzle = Board::parse(puzzle).unwrap();
        record_search(&puzzle, Strategy::Naive, Some(max_steps))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn a_search_past_the_step_budget_is_refused_before_any_tap() {
        let err = refusal(EASY2, 5);
        assert!(err.contains("more than 5 steps"), "{err}");
    }

    /// Row 9 holds 1-8 and column 9 already has its 9 higher up: the last cell has no digit left,
    /// which the naive search only finds after filling almost the whole board.
    const LATE_DEAD_END: &str =
        ".......................................................................912345678.";

    #[test]
    fn a_board_without_a_solution_is_called_so_instead_of_asking_for_more_steps() {
        let err = refusal(LATE_DEAD_END, 1000);
        assert!(err.contains("has no solution"), "{err}");
        assert!(!err.contains("--max-steps"), "{err}");
    }

    /// What the screen shows: `givens` as givens, nothing else.
    fn screen_of(givens: &Board) -> Recognition {
        use sudoku_reader::{CellKind, Grid, Reading};
        let readings = Cell::all()
            .map(|c| Reading {
                cell: c.to_string(),
                digit: givens.get(c),
                kind: match givens.get(c) {
                    Some(_) => CellKind::Given,
                    None => CellKind::Empty,
                },
                score: 1.0,
                margin: 1.0,
                runner_up: None,
                notes: false,
            })
            .collect();
        Recognition {
            board: *givens,
            readings,
            grid: Grid {
                xs: [0.0; 10],
                ys: [0.0; 10],
                strength: 1.0,
                bright_lines: false,
            },
            clashes: Vec::new(),
        }
    }

    #[test]
    fn a_progress_file_edited_to_no_step_limit_searches_no_further_than_its_moves() {
        let puzzle = Board::parse(EASY2).unwrap();
        let search = record_search(&puzzle, Strategy::Naive, None).unwrap();
        assert!(search.events.len() > 5, "the sample search must be longer");
        let mut state = State::new(&puzzle, Strategy::Naive, None, 5, "sim".into());
        assert_eq!(state.step_budget(), 5);
        let err = prepare_resume(&screen_of(&puzzle), &state)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("progress file does not fit") && err.contains("without --resume"),
            "{err}"
        );
        assert!(!err.contains("--max-steps"), "{err}");
        // The file as the run wrote it (no limit asked for) resumes as before.
        state.moves = search.events.len();
        let prepared = prepare_resume(&screen_of(&puzzle), &state).unwrap();
        assert_eq!(prepared.start, 0);
        assert_eq!(prepared.search.events, search.events);
    }
}
