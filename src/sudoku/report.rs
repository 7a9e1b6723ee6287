//! How solve results are shown: one-line descriptions for people, JSON for programs, and the
//! totals over a list of puzzles. Pure formatting; the `solve` subcommand does the I/O.

use super::{Board, Outcome, SolveEvent, Strategy};
use serde_json::{Value, json};
use std::time::Duration;

/// A duration at a readable scale: `850 µs`, `12.3 ms`, `4.56 s`.
pub fn format_duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1e-3 {
        format!("{:.0} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

/// One trace line: `set r3c7 5` or `cancel r3c7`.
pub fn event_line(event: &SolveEvent) -> String {
    match event {
        SolveEvent::Set { cell, digit } => format!("set {cell} {digit}"),
        SolveEvent::Cancel { cell } => format!("cancel {cell}"),
    }
}

/// `solved with fast: 61 steps (61 sets, 0 cancels) in 21 µs`, or what went wrong.
pub fn describe(outcome: &Outcome, strategy: Strategy) -> String {
    let st = outcome.stats();
    let cost = format!(
        "{} steps ({} sets, {} cancels) in {}",
        st.sets,
        st.sets,
        st.cancels,
        format_duration(st.elapsed)
    );
    match outcome {
        Outcome::Solved { .. } => format!("solved with {strategy}: {cost}"),
        Outcome::NoSolution { .. } => format!("no solution ({strategy}: {cost})"),
        Outcome::Multiple { .. } => {
            format!("more than one solution ({strategy}: {cost})")
        }
        Outcome::Stopped { reason, .. } => format!("{reason} ({strategy}: {cost})"),
    }
}

/// The JSON record of one puzzle: input, outcome, solutions, steps and time.
pub fn outcome_json(puzzle: &Board, label: &str, strategy: Strategy, outcome: &Outcome) -> Value {
    let st = outcome.stats();
    let mut v = json!({
        "puzzle": puzzle.to_line(),
        "strategy": strategy.name(),
        "outcome": outcome.kind(),
        "solution": outcome.solution().map(Board::to_line),
        "sets": st.sets,
        "cancels": st.cancels,
        "elapsed_ms": st.elapsed.as_secs_f64() * 1e3,
    });
    if !label.is_empty() {
        v["label"] = json!(label);
    }
    match outcome {
        Outcome::Multiple { second, .. } => v["second_solution"] = json!(second.to_line()),
        Outcome::Stopped { reason, .. } => v["reason"] = json!(reason.to_string()),
        _ => {}
    }
    v
}

/// Totals over many puzzles.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    pub solved: usize,
    pub no_solution: usize,
    pub multiple: usize,
    pub stopped: usize,
    /// Lines that could not be read, or whose givens break a rule.
    pub invalid: usize,
    pub sets: u64,
    pub max_sets: u64,
    pub elapsed: Duration,
}

impl Tally {
    pub fn add(&mut self, outcome: &Outcome) {
        match outcome {
            Outcome::Solved { .. } => self.solved += 1,
            Outcome::NoSolution { .. } => self.no_solution += 1,
            Outcome::Multiple { .. } => self.multiple += 1,
            Outcome::Stopped { .. } => self.stopped += 1,
        }
        let st = outcome.stats();
        self.sets += st.sets;
        self.max_sets = self.max_sets.max(st.sets);
        self.elapsed += st.elapsed;
    }

    pub fn total(&self) -> usize {
        self.solved + self.no_solution + self.multiple + self.stopped + self.invalid
    }

    pub fn all_solved(&self) -> bool {
        self.solved == self.total()
    }

    /// `3 puzzles: 2 solved, 1 no solution, 0 multiple, 0 stopped, 0 invalid; steps mean 40.5,
    /// max 61; solving time 1.2 ms`.
    pub fn summary(&self) -> String {
        let searched = (self.total() - self.invalid).max(1) as f64;
        format!(
            "{} puzzles: {} solved, {} no solution, {} multiple, {} stopped, {} invalid; \
             steps mean {:.1}, max {}; solving time {}",
            self.total(),
            self.solved,
            self.no_solution,
            self.multiple,
            self.stopped,
            self.invalid,
            self.sets as f64 / searched,
            self.max_sets,
            format_duration(self.elapsed)
        )
    }

    pub fn to_json(&self) -> Value {
        json!({
            "puzzles": self.total(),
            "solved": self.solved,
            "no_solution": self.no_solution,
            "multiple": self.multiple,
            "stopped": self.stopped,
            "invalid": self.invalid,
            "sets": self.sets,
            "max_sets": self.max_sets,
            "elapsed_ms": self.elapsed.as_secs_f64() * 1e3,
        })
    }
}

/// `r1c1 and r1c9 both hold 5; r1c1 and r2c2 both hold 5`.
pub fn describe_conflicts(board: &Board) -> String {
    board
        .conflicts()
        .iter()
        .map(|&(a, b)| {
            let d = board.get(a).unwrap_or(0);
            format!("{a} and {b} both hold {d}")
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sudoku::{Cell, solve};

    #[test]
    fn descriptions_name_the_strategy_steps_and_time() {
        let outcome = solve(&Board::empty());
        let text = describe(&outcome, Strategy::Fast);
        assert!(text.starts_with("solved with fast: "), "{text}");
        assert!(text.contains(" cancels) in "), "{text}");
        let v = outcome_json(&Board::empty(), "", Strategy::Fast, &outcome);
        assert_eq!(v["outcome"], "solved");
        assert_eq!(v["solution"].as_str().unwrap().len(), 81);
        assert_eq!(format_duration(Duration::from_micros(1500)), "1.500 ms");
        let cell = Cell::new(2, 6).unwrap();
        assert_eq!(
            event_line(&SolveEvent::Set { cell, digit: 5 }),
            "set r3c7 5"
        );
    }

    #[test]
    fn conflicts_are_described_pair_by_pair() {
        let mut b = Board::empty();
        b.set(Cell::new(0, 0).unwrap(), Some(5));
        b.set(Cell::new(0, 8).unwrap(), Some(5));
        assert_eq!(describe_conflicts(&b), "r1c1 and r1c9 both hold 5");
    }
}
