//! How solve results are shown: one-line descriptions for people, JSON for programs, and the
//! totals over a list of puzzles. Pure formatting; the `solve` subcommand does the I/O.

use super::{Board, Outcome, SolveEvent, SolveOptions, StopReason, Strategy, solve_with};
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

/// Every strategy's run on one puzzle, for `solve --compare`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comparison {
    pub puzzle: Board,
    pub label: String,
    /// One outcome per strategy, in [`Strategy::ALL`] order.
    pub runs: Vec<(Strategy, Outcome)>,
}

/// Solves `puzzle` with every strategy under the same step budget and `unique` setting.
pub fn compare(puzzle: &Board, label: &str, max_steps: Option<u64>, unique: bool) -> Comparison {
    let runs = Strategy::ALL
        .into_iter()
        .map(|strategy| {
            let options = SolveOptions {
                strategy,
                max_steps,
                unique,
            };
            (strategy, solve_with(puzzle, options, &mut ()))
        })
        .collect();
    Comparison {
        puzzle: *puzzle,
        label: label.to_string(),
        runs,
    }
}

/// One strategy's cell of the comparison table: `45267 / 45203, 3.10 ms` (sets / cancels,
/// time), prefixed with `over budget:` (or the outcome) when it did not simply solve.
pub fn comparison_cell(outcome: &Outcome) -> String {
    let st = outcome.stats();
    let cost = format!(
        "{} / {}, {}",
        st.sets,
        st.cancels,
        format_duration(st.elapsed)
    );
    match outcome {
        Outcome::Solved { .. } => cost,
        Outcome::Stopped {
            reason: StopReason::StepBudget { .. },
            ..
        } => format!("over budget: {cost}"),
        other => format!("{}: {cost}", other.kind()),
    }
}

/// The comparison as a Markdown table, one row per puzzle and one column per strategy.
pub fn comparison_table(rows: &[Comparison]) -> String {
    let mut table: Vec<Vec<String>> = vec![
        std::iter::once("puzzle".to_string())
            .chain(Strategy::ALL.map(|s| format!("{s}: sets / cancels, time")))
            .collect(),
    ];
    for row in rows {
        let name = if row.label.is_empty() {
            row.puzzle.to_line()
        } else {
            row.label.clone()
        };
        table.push(
            std::iter::once(name)
                .chain(row.runs.iter().map(|(_, o)| comparison_cell(o)))
                .collect(),
        );
    }
    let widths: Vec<usize> = (0..table[0].len())
        .map(|c| {
            table
                .iter()
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (text, &w))| {
                let pad = " ".repeat(w - text.chars().count());
                if c == 0 {
                    format!("{text}{pad}")
                } else {
                    format!("{pad}{text}")
                }
            })
            .collect();
        format!("| {} |", padded.join(" | "))
    };
    let mut out = vec![line(&table[0])];
    out.push(format!(
        "|{}|",
        widths
            .iter()
            .enumerate()
            .map(|(c, &w)| if c == 0 {
                "-".repeat(w + 2)
            } else {
                format!("{}:", "-".repeat(w + 1))
            })
            .collect::<Vec<_>>()
            .join("|")
    ));
    out.extend(table[1..].iter().map(|r| line(r)));
    out.join("\n")
}

/// The JSON record of one comparison: the puzzle and, per strategy, its outcome and cost.
pub fn comparison_json(row: &Comparison) -> Value {
    let mut strategies = serde_json::Map::new();
    for (strategy, outcome) in &row.runs {
        let st = outcome.stats();
        strategies.insert(
            strategy.name().to_string(),
            json!({
                "outcome": outcome.kind(),
                "over_budget": matches!(
                    outcome,
                    Outcome::Stopped { reason: StopReason::StepBudget { .. }, .. }
                ),
                "sets": st.sets,
                "cancels": st.cancels,
                "elapsed_ms": st.elapsed.as_secs_f64() * 1e3,
            }),
        );
    }
    let mut v = json!({
        "puzzle": row.puzzle.to_line(),
        "strategies": strategies,
    });
    if !row.label.is_empty() {
        v["label"] = json!(row.label);
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
    fn a_comparison_runs_every_strategy_and_marks_naive_over_budget() {
        let anti = Board::parse(
            "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
        )
        .unwrap();
        let row = compare(&anti, "anti", Some(5_000), false);
        let names: Vec<Strategy> = row.runs.iter().map(|(s, _)| *s).collect();
        assert_eq!(names, Strategy::ALL);
        let naive = &row.runs[0].1;
        assert!(comparison_cell(naive).starts_with("over budget: 5000 / "));
        let table = comparison_table(std::slice::from_ref(&row));
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 3, "{table}");
        assert!(lines[0].contains("naive: sets / cancels, time"), "{table}");
        assert!(lines[2].starts_with("| anti "), "{table}");
        let v = comparison_json(&row);
        assert_eq!(v["label"], "anti");
        assert_eq!(v["strategies"]["naive"]["over_budget"], true);
        assert_eq!(v["strategies"]["naive"]["sets"], 5000);
        assert_eq!(v["strategies"]["fast"]["outcome"], "solved");
        let fast = &row.runs[2].1;
        assert_eq!(v["strategies"]["fast"]["cancels"], fast.stats().cancels);
    }

    #[test]
    fn conflicts_are_described_pair_by_pair() {
        let mut b = Board::empty();
        b.set(Cell::new(0, 0).unwrap(), Some(5));
        b.set(Cell::new(0, 8).unwrap(), Some(5));
        assert_eq!(describe_conflicts(&b), "r1c1 and r1c9 both hold 5");
    }
}
