//! `solve`: one puzzle or a list of them, solved locally (no phone), as text or JSON, with an
//! optional trace and GIF of the search.

use crate::cli::SolveArgs;
use crate::error::BoardProblem;
use crate::sudoku::{
    Board, Outcome, SolveEvent, SolveOptions, StopReason, is_puzzle_list, puzzle_lines, report,
    solve_with,
};
use crate::visualize::gif::{GifOptions, search_gif};
use anyhow::{Context, Result, bail};
use std::io::{IsTerminal, Read, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;

/// `solve`: reads one puzzle (argument, `--file` or stdin) or a list of them, solves each, prints
/// the solution, steps and time (or JSON), and exits 1 unless every puzzle was solved.
pub(super) fn run(args: &SolveArgs) -> Result<ExitCode> {
    let text = puzzle_text(args)?;
    let options = SolveOptions {
        strategy: args.strategy,
        max_steps: (args.max_steps != 0).then_some(args.max_steps),
        unique: args.unique,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.compare {
        return compare(&text, options.max_steps, args, &mut out);
    }
    let solver = Solver { args, options };
    if is_puzzle_list(&text) && puzzle_lines(&text).nth(1).is_some() {
        return solve_list(&text, &solver, &mut out);
    }
    solve_single(&text, &solver, &mut out)
}

/// The puzzle text: the argument, else `--file`, else stdin (refused when it is a terminal).
fn puzzle_text(args: &SolveArgs) -> Result<String> {
    Ok(match (&args.puzzle, &args.file) {
        (Some(p), _) if p != "-" => p.clone(),
        (_, Some(path)) => std::fs::read_to_string(path)
            .with_context(|| format!("cannot read puzzle file {}", path.display()))?,
        _ => {
            let mut stdin = std::io::stdin();
            if stdin.is_terminal() {
                bail!(
                    "no puzzle given: pass one as an argument, use --file, or pipe puzzles on stdin"
                );
            }
            let mut text = String::new();
            stdin
                .read_to_string(&mut text)
                .context("cannot read stdin")?;
            text
        }
    })
}

/// Solves boards as the options say, streaming the trace if asked.
struct Solver<'a> {
    args: &'a SolveArgs,
    options: SolveOptions,
}

impl Solver<'_> {
    /// Solves one board, streaming the trace if asked: to `out`, or to stderr under --json.
    /// With `record`, every event is also kept (for --gif).
    fn solve(
        &self,
        board: &Board,
        out: &mut dyn Write,
        mut record: Option<&mut Vec<SolveEvent>>,
    ) -> Result<Outcome> {
        let options = self.options;
        if !self.args.trace {
            return Ok(match record {
                None => solve_with(board, options, &mut ()),
                Some(events) => solve_with(board, options, &mut |e| {
                    events.push(e);
                    ControlFlow::Continue(())
                }),
            });
        }
        let stderr = std::io::stderr();
        let mut err = std::io::BufWriter::new(stderr.lock());
        let sink: &mut dyn Write = if self.args.json { &mut err } else { out };
        let mut failed = None;
        // A trace nobody can read (closed pipe) stops the search instead of running on.
        let mut trace = |e: SolveEvent| match writeln!(sink, "{}", report::event_line(&e)) {
            Ok(()) => {
                if let Some(events) = record.as_deref_mut() {
                    events.push(e);
                }
                ControlFlow::Continue(())
            }
            Err(e) => {
                failed = Some(e);
                ControlFlow::Break(())
            }
        };
        let outcome = solve_with(board, options, &mut trace);
        sink.flush()?;
        match failed {
            Some(e) => Err(e).context("cannot write the trace"),
            None => Ok(outcome),
        }
    }
}

/// A list of puzzles: a line (or a JSON record) per puzzle and a summary; an error unless every
/// puzzle was solved.
fn solve_list(text: &str, solver: &Solver, out: &mut dyn Write) -> Result<ExitCode> {
    let args = solver.args;
    if args.gif.is_some() {
        bail!("--gif takes a single puzzle, not a list");
    }
    let mut tally = report::Tally::default();
    let mut records = Vec::new();
    for line in puzzle_lines(text) {
        let readable = match line.board {
            Ok(b) if b.conflicts().is_empty() => Ok(b),
            Ok(b) => Err(format!(
                "givens break the rules: {}",
                report::describe_conflicts(&b)
            )),
            Err(e) => Err(e.to_string()),
        };
        let board = match readable {
            Ok(board) => board,
            Err(why) => {
                tally.invalid += 1;
                if args.json {
                    let record =
                        serde_json::json!({"line": line.line, "outcome": "invalid", "error": why});
                    records.push(record);
                } else {
                    writeln!(out, "line {}: invalid: {why}", line.line)?;
                }
                continue;
            }
        };
        let outcome = solver.solve(&board, out, None)?;
        tally.add(&outcome);
        if args.json {
            let mut v = report::outcome_json(&board, line.label, args.strategy, &outcome);
            v["line"] = serde_json::json!(line.line);
            records.push(v);
        } else {
            let solution = outcome.solution().map(Board::to_line).unwrap_or_default();
            let label = if line.label.is_empty() {
                String::new()
            } else {
                format!(" {}", line.label)
            };
            writeln!(
                out,
                "line {}{label}: {} {solution}",
                line.line,
                report::describe(&outcome, args.strategy)
            )?;
        }
    }
    if args.json {
        let doc = serde_json::json!({"results": records, "summary": tally.to_json()});
        writeln!(out, "{doc:#}")?;
    } else {
        writeln!(out, "{}", tally.summary())?;
    }
    out.flush()?;
    if !tally.all_solved() {
        return Err(BoardProblem(format!(
            "{} of {} puzzles were not solved",
            tally.total() - tally.solved,
            tally.total()
        ))
        .into());
    }
    Ok(ExitCode::SUCCESS)
}

/// One puzzle (a single line, label allowed, or the 9-row form): the solution and how it went,
/// the search as a GIF with --gif; exit 1 unless solved.
fn solve_single(text: &str, solver: &Solver, out: &mut dyn Write) -> Result<ExitCode> {
    let args = solver.args;
    let board = match puzzle_lines(text).next() {
        Some(line) if is_puzzle_list(text) => line.board,
        _ => Board::parse(text),
    }
    .map_err(|e| BoardProblem(format!("cannot read the puzzle: {e}")))?;
    if !board.conflicts().is_empty() {
        return Err(BoardProblem(format!(
            "the givens break the rules: {}; fix the puzzle and try again",
            report::describe_conflicts(&board)
        ))
        .into());
    }
    let mut events = Vec::new();
    let outcome = solver.solve(&board, out, args.gif.is_some().then_some(&mut events))?;
    if let Some(path) = &args.gif {
        let options = GifOptions {
            max_frames: args.gif_frames,
            ..Default::default()
        };
        let gif = search_gif(&board, &events, &options)?;
        std::fs::write(path, gif)
            .with_context(|| format!("cannot write the GIF to {}", path.display()))?;
        errln!("wrote {} ({} moves)", path.display(), events.len());
    }
    let description = report::describe(&outcome, args.strategy);
    if args.json {
        let doc = report::outcome_json(&board, "", args.strategy, &outcome);
        writeln!(out, "{doc:#}")?;
    } else {
        match &outcome {
            Outcome::Multiple { first, second, .. } => {
                write!(out, "{first}\n{second}")?;
            }
            other => {
                if let Some(solution) = other.solution() {
                    write!(out, "{solution}")?;
                }
            }
        }
        writeln!(out, "{description}")?;
    }
    out.flush()?;
    Ok(exit_code(&outcome, &board))
}

/// The exit code for one puzzle's outcome. The outcome is the result and is on stdout already;
/// stderr gets only what adds to it (exit status 1 says the rest), not the same sentence again.
fn exit_code(outcome: &Outcome, board: &Board) -> ExitCode {
    match outcome {
        Outcome::Solved { .. } => ExitCode::SUCCESS,
        Outcome::Stopped {
            reason: StopReason::StepBudget { .. },
            ..
        } if crate::visualize::record::has_no_solution(board) => {
            errln!(
                "this board has no solution (the fast solver proves it); more --max-steps would not help"
            );
            ExitCode::from(1)
        }
        Outcome::Stopped {
            reason: StopReason::StepBudget { .. },
            ..
        } => {
            errln!("raise the step limit with --max-steps (0 = no limit), or use --strategy fast");
            ExitCode::from(1)
        }
        _ => ExitCode::from(1),
    }
}

/// `solve --compare`: every strategy on every puzzle, side by side (a table, or JSON), under the
/// same step budget; exits 1 if a puzzle cannot be read or no strategy solved it.
fn compare(
    text: &str,
    max_steps: Option<u64>,
    args: &SolveArgs,
    out: &mut dyn Write,
) -> Result<ExitCode> {
    // (line number, label, the board or why it cannot be searched)
    let puzzles: Vec<(usize, String, Result<Board, String>)> = if is_puzzle_list(text) {
        puzzle_lines(text)
            .map(|l| {
                (
                    l.line,
                    l.label.to_string(),
                    l.board.map_err(|e| e.to_string()),
                )
            })
            .collect()
    } else {
        vec![(
            1,
            String::new(),
            Board::parse(text).map_err(|e| e.to_string()),
        )]
    };
    let mut rows = Vec::new();
    let mut records = Vec::new();
    let mut problems = Vec::new();
    for (line, label, board) in puzzles {
        let board = board.and_then(|b| {
            if b.conflicts().is_empty() {
                Ok(b)
            } else {
                Err(format!(
                    "givens break the rules: {}",
                    report::describe_conflicts(&b)
                ))
            }
        });
        match board {
            Ok(board) => {
                let row = report::compare(&board, &label, max_steps, args.unique);
                if !row.runs.iter().any(|(_, o)| o.solution().is_some()) {
                    problems.push(format!("line {line}: no strategy found a solution"));
                }
                let mut v = report::comparison_json(&row);
                v["line"] = serde_json::json!(line);
                records.push(v);
                rows.push(row);
            }
            Err(why) => {
                records.push(serde_json::json!({"line": line, "outcome": "invalid", "error": why}));
                problems.push(format!("line {line}: invalid: {why}"));
            }
        }
    }
    if args.json {
        writeln!(out, "{:#}", serde_json::json!({ "results": records }))?;
    } else {
        if !rows.is_empty() {
            writeln!(out, "{}", report::comparison_table(&rows))?;
        }
        for problem in &problems {
            writeln!(out, "{problem}")?;
        }
    }
    out.flush()?;
    if problems.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        Err(BoardProblem(format!(
            "{} of {} puzzles were not solved by any strategy or could not be read",
            problems.len(),
            records.len()
        ))
        .into())
    }
}
