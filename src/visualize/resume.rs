//! Progress of a `visualize` run on disk, and finding where to continue: a small JSON state file
//! written before and after every batch of taps, and the search for the step whose board matches
//! the screen. The same board occurs at several steps of a search (a digit set and cancelled
//! leaves the board as it was), so the recorded progress picks among them.

use crate::sudoku::{Board, SolveEvent, Strategy};
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The state file's format version.
pub const STATE_VERSION: u32 = 1;

/// What a run has done so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub version: u32,
    /// The givens the search started from, 81 characters.
    pub puzzle: String,
    /// Search settings, so `--resume` replays the very same search.
    pub strategy: String,
    pub max_steps: Option<u64>,
    /// Moves (set and cancel events) in the whole search.
    pub moves: usize,
    /// Moves the last check saw on the screen.
    pub confirmed: usize,
    /// Moves whose taps the device acknowledged.
    pub sent: usize,
    /// End of the batch being sent (equal to `sent` between batches): a failure can leave the
    /// screen anywhere in `sent..=sending`.
    pub sending: usize,
    /// The device as described when the run started, for messages.
    pub device: String,
}

impl State {
    pub fn new(
        puzzle: &Board,
        strategy: Strategy,
        max_steps: Option<u64>,
        moves: usize,
        device: String,
    ) -> State {
        State {
            version: STATE_VERSION,
            puzzle: puzzle.to_line(),
            strategy: strategy.name().to_string(),
            max_steps,
            moves,
            confirmed: 0,
            sent: 0,
            sending: 0,
            device,
        }
    }

    /// The puzzle and strategy recorded, checked.
    pub fn search(&self) -> Result<(Board, Strategy)> {
        let puzzle = Board::parse(&self.puzzle)
            .ok()
            .context("the state file's puzzle is damaged")?;
        let strategy = self
            .strategy
            .parse()
            .ok()
            .context("the state file's strategy is damaged")?;
        Ok((puzzle, strategy))
    }

    /// The step budget to search again with: the recorded one, and never more than the recorded
    /// move count, since a search sets a digit at most once per move it records. A file edited to
    /// `max_steps: null` (no limit) thus cannot start an endless naive search.
    pub fn step_budget(&self) -> u64 {
        let moves = self.moves as u64;
        self.max_steps.map_or(moves, |m| m.min(moves))
    }

    /// Reads a state file; a missing one says how to start instead.
    pub fn load(path: &Path) -> Result<State> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => bail!(
                "no saved progress in {}: run `sudoku-agent visualize` without --resume to start (or pass --state FILE)",
                path.display()
            ),
            Err(e) => {
                return Err(e).with_context(|| format!("cannot read {}", path.display()));
            }
        };
        let state: State = serde_json::from_str(&text).with_context(|| {
            format!(
                "{} is not a visualize state file; delete it and start without --resume",
                path.display()
            )
        })?;
        if state.version != STATE_VERSION {
            bail!(
                "{} was written by another version (format {}); start without --resume",
                path.display(),
                state.version
            );
        }
        Ok(state)
    }

    /// Writes the file through a temporary one, so a crash never leaves half a file.
    pub fn save(&self, path: &Path) -> Result<()> {
        let tmp = path.with_extension("json.tmp");
        let text = serde_json::to_string_pretty(self).expect("plain data serialises");
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, path))
            .with_context(|| format!("cannot write the progress file {}", path.display()))
    }
}

/// Where to continue, and how sure we are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResumePoint {
    /// Moves already on the screen.
    pub index: usize,
    /// The match lies where the recorded progress says (else it was searched for further away).
    pub as_recorded: bool,
}

/// The number of events after which the board equals `screen`, chosen with the recorded
/// progress. Within the window the failure can have left (`sent..=sending`, then
/// `confirmed..=sending`), the latest matching step wins: continuing from an earlier one would
/// repeat moves, while a later one with the same board only skips moves that undo each other.
/// Outside it, the match nearest to `sent` is taken. `None` when no step shows this board.
pub fn find_resume_point(
    puzzle: &Board,
    events: &[SolveEvent],
    screen: &Board,
    state: &State,
) -> Option<ResumePoint> {
    let matches = matching_steps(puzzle, events, screen);
    let sending = state.sending.min(events.len());
    for lo in [state.sent.min(sending), state.confirmed.min(sending)] {
        if let Some(&k) = matches.iter().rev().find(|&&k| (lo..=sending).contains(&k)) {
            return Some(ResumePoint {
                index: k,
                as_recorded: true,
            });
        }
    }
    matches
        .into_iter()
        .min_by_key(|&k| k.abs_diff(state.sent))
        .map(|index| ResumePoint {
            index,
            as_recorded: false,
        })
}

/// Every `k` (0 = the puzzle) such that the first `k` events turn `puzzle` into `target`.
pub fn matching_steps(puzzle: &Board, events: &[SolveEvent], target: &Board) -> Vec<usize> {
    let mut board = *puzzle;
    let mut out = Vec::new();
    if board == *target {
        out.push(0);
    }
    for (i, e) in events.iter().enumerate() {
        match *e {
            SolveEvent::Set { cell, digit } => board.set(cell, Some(digit)),
            SolveEvent::Cancel { cell } => board.set(cell, None),
        }
        if board == *target {
            out.push(i + 1);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::{Cell, replay};

    fn cell(i: usize) -> Cell {
        Cell::from_index(i).unwrap()
    }

    /// Set a, set b, cancel b, set b=2, cancel b, cancel a, set a=2.
    fn events() -> Vec<SolveEvent> {
        use SolveEvent::*;
        vec![
            Set {
                cell: cell(0),
                digit: 1,
            },
            Set {
                cell: cell(1),
                digit: 3,
            },
            Cancel { cell: cell(1) },
            Set {
                cell: cell(1),
                digit: 4,
            },
            Cancel { cell: cell(1) },
            Cancel { cell: cell(0) },
            Set {
                cell: cell(0),
                digit: 2,
            },
        ]
    }

    fn state(confirmed: usize, sent: usize, sending: usize) -> State {
        State {
            confirmed,
            sent,
            sending,
            ..State::new(&Board::empty(), Strategy::Naive, None, 7, "sim".into())
        }
    }

    #[test]
    fn a_board_seen_at_several_steps_matches_all_of_them() {
        let ev = events();
        let after_first = replay(&Board::empty(), &ev[..1]);
        assert_eq!(
            matching_steps(&Board::empty(), &ev, &after_first),
            [1, 3, 5]
        );
        assert_eq!(
            matching_steps(&Board::empty(), &ev, &Board::empty()),
            [0, 6]
        );
    }

    /// Where a replay of [`events`] resumes when the screen shows the board after `shown` of
    /// them.
    fn resume_after(shown: usize, state: &State) -> Option<ResumePoint> {
        let ev = events();
        let screen = replay(&Board::empty(), &ev[..shown]);
        find_resume_point(&Board::empty(), &ev, &screen, state)
    }

    #[test]
    fn the_latest_match_inside_the_batch_in_flight_is_chosen_so_no_move_repeats() {
        let p = resume_after(1, &state(0, 1, 4));
        assert_eq!(
            p,
            Some(ResumePoint {
                index: 3,
                as_recorded: true
            })
        );
        // Between batches (Ctrl-C), the recorded count itself.
        assert_eq!(resume_after(1, &state(0, 1, 1)).unwrap().index, 1);
    }

    #[test]
    fn a_match_outside_the_recorded_window_is_the_one_nearest_the_progress() {
        let p = resume_after(7, &state(1, 2, 3));
        assert_eq!(
            p,
            Some(ResumePoint {
                index: 7,
                as_recorded: false
            })
        );
        let ev = events();
        let mut other = Board::empty();
        other.set(cell(80), Some(9));
        assert_eq!(
            find_resume_point(&Board::empty(), &ev, &other, &state(0, 0, 0)),
            None
        );
    }

    #[test]
    fn state_files_round_trip_and_a_missing_one_says_how_to_start() {
        let dir = std::env::temp_dir().join(format!("sa-resume-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.json");
        let s = state(2, 4, 6);
        s.save(&path).unwrap();
        assert_eq!(State::load(&path).unwrap(), s);
        assert_eq!(s.search().unwrap().1, Strategy::Naive);
        let err = State::load(&dir.join("none.json")).unwrap_err().to_string();
        assert!(err.contains("without --resume"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
