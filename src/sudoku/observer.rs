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
    fn on_event(&mut self, event: SolveEvent) -> ControlFlow<()>;
}

impl SolveObserver for () {
    #[inline(always)]
    fn on_event(&mut self, _event: SolveEvent) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}
