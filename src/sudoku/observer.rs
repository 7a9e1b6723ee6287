//! What the solver reports while it searches: `SolveEvent`s pushed to a `SolveObserver`, which can
//! also stop the search. `()` observes nothing and costs nothing.

use super::Cell;
use std::ops::ControlFlow;

/// One move of the search, in the order the solver makes it. Replaying the events onto the puzzle
/// reproduces the solver's board at every point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SolveEvent {
    /// The solver wrote `digit` into the empty `cell`.
    Set { cell: Cell, digit: u8 },
    /// The solver took back the digit it had written into `cell`.
    Cancel { cell: Cell },
}

/// Receives every move of the search; returning `ControlFlow::Break(())` stops it.
pub trait SolveObserver {
    /// `true` when `on_event` does nothing and never stops the search, as for `()`: the solver
    /// then skips building the events (and walking its trail to report take-backs one by one).
    const IGNORES_EVENTS: bool = false;

    fn on_event(&mut self, event: SolveEvent) -> ControlFlow<()>;
}

impl SolveObserver for () {
    const IGNORES_EVENTS: bool = true;

    #[inline(always)]
    fn on_event(&mut self, _event: SolveEvent) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

/// Any `FnMut(SolveEvent) -> ControlFlow<()>` closure is an observer.
impl<F: FnMut(SolveEvent) -> ControlFlow<()>> SolveObserver for F {
    #[inline]
    fn on_event(&mut self, event: SolveEvent) -> ControlFlow<()> {
        self(event)
    }
}

/// Adapts a closure that never stops the search: `&mut observe(|e| println!("{e:?}"))`.
pub fn observe<F: FnMut(SolveEvent)>(mut f: F) -> impl SolveObserver {
    move |event| {
        f(event);
        ControlFlow::Continue(())
    }
}

/// Collects every event, optionally stopping the search after `limit` events.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recorder {
    pub events: Vec<SolveEvent>,
    /// Stop the search once this many events have been recorded.
    pub limit: Option<usize>,
}

impl Recorder {
    pub fn new() -> Recorder {
        Recorder::default()
    }

    /// A recorder that stops the search after `limit` events.
    pub fn with_limit(limit: usize) -> Recorder {
        Recorder {
            events: Vec::new(),
            limit: Some(limit),
        }
    }

    /// Applies the recorded events to `puzzle`, giving the board the solver was in after the last one.
    pub fn replay_onto(&self, puzzle: &super::Board) -> super::Board {
        replay(puzzle, &self.events)
    }
}

impl SolveObserver for Recorder {
    fn on_event(&mut self, event: SolveEvent) -> ControlFlow<()> {
        self.events.push(event);
        match self.limit {
            Some(limit) if self.events.len() >= limit => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        }
    }
}

/// Applies `events` to `puzzle` in order: `Set` writes the digit, `Cancel` empties the cell.
pub fn replay(puzzle: &super::Board, events: &[SolveEvent]) -> super::Board {
    let mut board = *puzzle;
    for event in events {
        match *event {
            SolveEvent::Set { cell, digit } => board.set(cell, Some(digit)),
            SolveEvent::Cancel { cell } => board.set(cell, None),
        }
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::Board;

    #[test]
    fn a_recorder_with_a_limit_stops_after_that_many_events() {
        let mut r = Recorder::with_limit(2);
        let cell = Cell::from_index(3).unwrap();
        assert!(r.on_event(SolveEvent::Set { cell, digit: 4 }).is_continue());
        assert!(r.on_event(SolveEvent::Cancel { cell }).is_break());
        assert_eq!(r.events.len(), 2);
        assert_eq!(r.replay_onto(&Board::empty()), Board::empty());
    }

    #[test]
    fn closures_observe_every_event() {
        let mut seen = 0;
        let mut obs = observe(|_| seen += 1);
        let cell = Cell::from_index(0).unwrap();
        assert!(obs.on_event(SolveEvent::Cancel { cell }).is_continue());
        drop(obs);
        assert_eq!(seen, 1);
    }
}
