//! Solver benchmark (`cargo bench --bench solver`): puzzles per second for our `fast` strategy and,
//! side by side in the same run, for the `sudoku` crate (jczsolve-based; AGPL, a dev-dependency
//! used only here), first solution and proving uniqueness (`--unique`); guesses and steps of
//! `fast`; and `naive` on a sample. Single thread. Prints a table; takes about 3 minutes.
//!
//! Timing alternates passes of the two fast solvers over the same puzzles until each has run for
//! a while, so a noisy shared machine slows both alike and the ratio stays meaningful.
//! `SOLVER_BENCH_SECONDS` sets the time per measurement (default 5 s); `SOLVER_BENCH_SETS` (a
//! comma-separated list of set names) runs only those sets.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use sudoku_agent::sudoku::{Board, Outcome, SolveOptions, Strategy, puzzle_lines, solve_with};

/// Puzzle sets and how many of their puzzles to use (`None` = all).
const SETS: [(&str, Option<usize>); 4] = [
    ("17_clue", Some(10_000)),
    ("magictour_top1465", None),
    ("forum_hardest_1106", None),
    ("kaggle_10k", None),
];
/// Naive runs on the first puzzles of each set (`SOLVER_BENCH_NAIVE` overrides, 0 skips it), each
/// with this step cap.
const NAIVE_SAMPLE: usize = 20;
const NAIVE_CAP: u64 = 1_000_000;

/// `shared/puzzles` beside the repository (or beside any folder above it, for worktrees).
fn puzzles_dir() -> PathBuf {
    let beside = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/puzzles"));
    if beside.is_dir() {
        return beside;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("shared/puzzles"))
        .find(|dir| dir.is_dir())
        .expect("shared/puzzles beside the repository")
}

fn load(name: &str, limit: Option<usize>) -> (Vec<Board>, usize) {
    let path = puzzles_dir().join(format!("{name}.txt"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let all: Vec<Board> = puzzle_lines(&text)
        .map(|l| l.board.expect("puzzle files hold valid puzzles"))
        .collect();
    let total = all.len();
    (
        all.into_iter().take(limit.unwrap_or(usize::MAX)).collect(),
        total,
    )
}

/// Seconds spent in `ours` and `theirs`, alternating whole passes until each had `budget`.
fn race(
    budget: Duration,
    mut ours: impl FnMut() -> usize,
    mut theirs: impl FnMut() -> usize,
) -> (f64, f64, usize) {
    let (mut t_ours, mut t_theirs, mut passes) = (Duration::ZERO, Duration::ZERO, 0);
    while passes < 2 || t_ours < budget || t_theirs < budget {
        let start = Instant::now();
        black_box(ours());
        t_ours += start.elapsed();
        let start = Instant::now();
        black_box(theirs());
        t_theirs += start.elapsed();
        passes += 1;
    }
    (t_ours.as_secs_f64(), t_theirs.as_secs_f64(), passes)
}

fn main() {
    let budget = Duration::from_secs_f64(
        std::env::var("SOLVER_BENCH_SECONDS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(5.0),
    );
    let fast = SolveOptions::default();
    let fast_unique = SolveOptions {
        unique: true,
        ..fast
    };
    let naive = SolveOptions {
        strategy: Strategy::Naive,
        max_steps: Some(NAIVE_CAP),
        unique: false,
    };
    println!(
        "solver benchmark: single thread, release; naive on the first {NAIVE_SAMPLE} puzzles of \
         each set, capped at {NAIVE_CAP} steps each\n"
    );
    println!(
        "| {:<18} | {:>13} | {:>9} | {:>9} | {:>10} | {:>11} | {:>11} | {:>12} | {:>9} | {:>10} | {:>9} | {:>10} | {:>9} | {:>6} |",
        "set",
        "puzzles",
        "fast p/s",
        "crate p/s",
        "fast/crate",
        "unique p/s",
        "crate u p/s",
        "unique ratio",
        "guesses",
        "fast steps",
        "naive p/s",
        "naive mean",
        "naive max",
        "capped"
    );
    println!("|{}|", ["---"; 14].join("|"));
    let only: Option<Vec<String>> = std::env::var("SOLVER_BENCH_SETS")
        .ok()
        .map(|s| s.split(',').map(str::to_string).collect());
    let started = Instant::now();
    for (name, limit) in SETS {
        if only
            .as_ref()
            .is_some_and(|only| !only.iter().any(|o| o == name))
        {
            continue;
        }
        let (boards, total) = load(name, limit);
        let theirs: Vec<sudoku::Sudoku> = boards
            .iter()
            .map(|b| sudoku::Sudoku::from_bytes(*b.cells()).expect("digits 0..=9"))
            .collect();

        // Correctness first, and the step statistics, outside the timed loops.
        let (mut sum, mut max, mut guesses) = (0u64, 0u64, 0u64);
        for (b, s) in boards.iter().zip(&theirs) {
            let outcome = solve_with(b, fast, &mut ());
            let Outcome::Solved { board, stats } = outcome else {
                panic!("{name}: fast did not solve {b:?}: {outcome:?}");
            };
            assert!(board.is_solution_of(b), "{name}: bad solution for {b:?}");
            let unique = solve_with(b, fast_unique, &mut ());
            assert!(
                matches!(unique, Outcome::Solved { .. }),
                "{name}: {b:?} is not unique for fast: {unique:?}"
            );
            assert!(
                s.solution().is_some(),
                "{name}: the crate found no unique solution"
            );
            sum += stats.sets;
            max = max.max(stats.sets);
            guesses += stats.guesses;
        }
        // Our solver with `options` against the crate's solving call on the same boards.
        let race_on = |options: SolveOptions, theirs_solves: fn(sudoku::Sudoku) -> bool| {
            race(
                budget,
                || {
                    boards
                        .iter()
                        .filter(|b| {
                            matches!(
                                solve_with(black_box(b), options, &mut ()),
                                Outcome::Solved { .. }
                            )
                        })
                        .count()
                },
                || {
                    theirs
                        .iter()
                        .filter(|s| theirs_solves(black_box(**s)))
                        .count()
                },
            )
        };
        let first = race_on(fast, |s| s.some_solution().is_some());
        let unique = race_on(fast_unique, |s| s.solution().is_some());
        let rates = |(t_ours, t_theirs, passes): (f64, f64, usize)| {
            let n = (boards.len() * passes) as f64;
            (n / t_ours, n / t_theirs)
        };
        let (ours_rate, theirs_rate) = rates(first);
        let (ours_u, theirs_u) = rates(unique);

        let naive_sample = std::env::var("SOLVER_BENCH_NAIVE")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(NAIVE_SAMPLE);
        let sample = &boards[..naive_sample.min(boards.len())];
        let start = Instant::now();
        let (mut n_sum, mut n_max, mut capped) = (0u64, 0u64, 0usize);
        for b in sample {
            let outcome = solve_with(b, naive, &mut ());
            if let Outcome::Solved { board, .. } = &outcome {
                assert!(board.is_solution_of(b));
            } else {
                capped += 1;
            }
            n_sum += outcome.stats().sets;
            n_max = n_max.max(outcome.stats().sets);
        }
        let naive_rate = sample.len() as f64 / start.elapsed().as_secs_f64();

        let count = if boards.len() < total {
            format!("{} of {total}", boards.len())
        } else {
            total.to_string()
        };
        println!(
            "| {:<18} | {:>13} | {:>9.0} | {:>9.0} | {:>9.2}x | {:>11.0} | {:>11.0} | {:>11.2}x | {:>9.2} | {:>10.1} | {:>9.1} | {:>10.0} | {:>9} | {:>3}/{:<2} |",
            name,
            count,
            ours_rate,
            theirs_rate,
            ours_rate / theirs_rate,
            ours_u,
            theirs_u,
            ours_u / theirs_u,
            guesses as f64 / boards.len() as f64,
            sum as f64 / boards.len() as f64,
            naive_rate,
            n_sum as f64 / sample.len() as f64,
            n_max,
            capped,
            sample.len()
        );
    }
    println!(
        "\np/s = puzzles per second; first solution: fast vs the crate's some_solution; unique: \
         fast --unique vs the crate's solution (both search on for a second solution); \
         guesses = fast's guesses per puzzle (first solution); steps = Set events (cells filled, \
         propagation included).\ntotal time {:.0} s",
        started.elapsed().as_secs_f64()
    );
}
