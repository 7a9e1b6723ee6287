//! The `solve` subcommand end to end: the built binary, its output and its exit codes.

use crate::support;
use crate::support::boards::{CLASSIC as EASY, L52};
use std::path::PathBuf;
use std::process::Output;

const EASY_SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
const ANTI_BACKTRACKER: &str =
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";
const DEAD_END: &str =
    "12345678.........9...............................................................";

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    support::fed(support::agent().args(args), stdin.unwrap_or(""))
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn named_hard_file() -> PathBuf {
    crate::support::shared::puzzles().join("named_hard.txt")
}

#[test]
fn a_puzzle_argument_prints_the_grid_steps_and_time_and_exits_0() {
    let o = run(&["solve", EASY], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("| 5 3 4 | 6 7 8 | 9 1 2 |"), "{out}");
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("solved with fast: "), "{last}");
    support::assert_mentions(last, &[" sets, ", " cancels) in "]);
}

#[test]
fn stdin_takes_a_line_or_the_nine_row_form() {
    let o = run(
        &["solve", "--strategy", "naive"],
        Some(&format!("{EASY}\n")),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("solved with naive: "));
    let rows: String = EASY
        .as_bytes()
        .chunks(9)
        .map(|r| {
            let cells: Vec<String> = r
                .iter()
                .map(|&c| {
                    if c == b'.' {
                        "0".into()
                    } else {
                        (c as char).to_string()
                    }
                })
                .collect();
            cells.join(" ") + "\n"
        })
        .collect();
    let o = run(&["solve", "-"], Some(&rows));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("| 5 3 4 | 6 7 8 | 9 1 2 |"));
}

#[test]
fn a_puzzle_file_with_many_lines_solves_each_and_prints_a_summary() {
    let file = named_hard_file();
    let o = run(&["solve", "--file", file.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(
        out.lines()
            .filter(|l| l.contains(": solved with fast"))
            .count(),
        10,
        "{out}"
    );
    assert!(
        out.lines()
            .last()
            .unwrap()
            .starts_with("10 puzzles: 10 solved, "),
        "{out}"
    );
}

#[test]
fn a_list_with_bad_lines_reports_them_and_exits_1() {
    let clash = EASY.replacen('.', "5", 1);
    let list = format!(
        "# mixed\n{EASY} ok\n{DEAD_END} dead\n{}\n{clash}\n",
        &EASY[..80]
    );
    let o = run(&["solve"], Some(&list));
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("line 2 ok: solved"), "{out}");
    assert!(out.contains("line 3 dead: no solution"), "{out}");
    assert!(out.contains("line 4: invalid: found 80 cells"), "{out}");
    assert!(out.contains("line 5: invalid: givens break the rules: r1c1 and r1c3 both hold 5"));
    assert!(out.contains("4 puzzles: 1 solved, 1 no solution, 0 multiple, 0 stopped, 2 invalid"));
    assert!(stderr(&o).contains("3 of 4 puzzles were not solved"));
}

#[test]
fn unreadable_conflicting_and_unsolvable_puzzles_exit_1_with_the_reason() {
    let mut bad = EASY.to_string();
    bad.replace_range(24..25, "x");
    let clash = EASY.replacen('.', "5", 1); // r1c3 = 5 beside r1c1 = 5
    for (puzzle, reason) in [
        (bad.as_str(), "row 3, column 7: 'x' is not a digit"),
        (&EASY[..79], "found 79 cells, expected 81"),
        (&clash, "r1c1 and r1c3 both hold 5"),
    ] {
        let o = run(&["solve", puzzle], None);
        assert_eq!(o.status.code(), Some(1), "{puzzle}");
        assert!(stderr(&o).contains(reason), "{}", stderr(&o));
    }

    let o = run(&["solve", DEAD_END], None);
    assert_eq!(o.status.code(), Some(1));
    // The result once, on stdout; stderr does not say it again.
    assert!(stdout(&o).contains("no solution"), "{}", stdout(&o));
    assert!(!stderr(&o).contains("no solution"), "{}", stderr(&o));
}

#[test]
fn unique_rejects_a_puzzle_with_two_solutions() {
    let o = run(&["solve", "--unique", L52], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("more than one solution"));
    let o = run(&["solve", "--unique", EASY], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn naive_runs_out_of_its_default_step_budget_on_the_anti_backtracker() {
    let o = run(&["solve", "--strategy", "naive", ANTI_BACKTRACKER], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("step budget exhausted after 10000000 steps"),
        "{}",
        stdout(&o)
    );
    let o = run(
        &[
            "solve",
            "-s",
            "naive",
            "--max-steps",
            "1000",
            ANTI_BACKTRACKER,
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("step budget exhausted after 1000 steps"));
    assert!(stderr(&o).contains("--max-steps"));
}

/// Row 9 holds 1-8 and column 9 has its 9 higher up: naive backtracking only meets the dead end
/// in the last cell, long after any budget; the fast solver proves it at once.
const LATE_DEAD_END: &str =
    ".......................................................................912345678.";

#[test]
fn a_naive_search_on_a_board_without_a_solution_says_so_instead_of_asking_for_more_steps() {
    let o = run(
        &["solve", "-s", "naive", "--max-steps", "1000", LATE_DEAD_END],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no solution"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("raise"), "{}", stderr(&o));
}

#[test]
fn a_closed_stdout_ends_the_command_quietly_instead_of_panicking() {
    for args in [
        vec!["solve", EASY],
        vec!["solve", "--json", EASY],
        vec!["solve", "--trace", EASY],
    ] {
        let o = support::into_closed(support::agent().args(&args), true, false);
        let err = stderr(&o);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_ne!(o.status.code(), Some(101), "{args:?}: {err}");
    }
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(
        run(&["solve", "--strategy", "slow", EASY], None)
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        run(&["solve", "--max-steps", "lots", EASY], None)
            .status
            .code(),
        Some(2)
    );
    let o = run(&["solve", "--file", "/nonexistent/puzzles.txt"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read puzzle file"));
}

#[test]
fn json_output_carries_the_solution_and_the_counts() {
    let o = run(&["solve", "--json", EASY], None);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["outcome"], "solved");
    assert_eq!(v["solution"], EASY_SOLUTION);
    assert_eq!(v["strategy"], "fast");
    assert!(v["sets"].as_u64().unwrap() >= 51);
    let list = format!("{EASY}\n{DEAD_END}\n");
    let o = run(&["solve", "--json", "-s", "naive"], Some(&list));
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["summary"]["solved"], 1);
    assert_eq!(v["results"][1]["outcome"], "no-solution");
}

#[test]
fn the_trace_replayed_onto_the_puzzle_gives_the_printed_solution() {
    for strategy in ["naive", "mrv", "fast"] {
        let o = run(&["solve", "--trace", "-s", strategy, L52], None);
        assert_eq!(o.status.code(), Some(0));
        let out = stdout(&o);
        let mut cells: Vec<u8> = L52.bytes().map(|b| b - b'0').collect();
        let cell = |w: &str| {
            let b = w.as_bytes(); // r3c7
            ((b[1] - b'1') * 9 + (b[3] - b'1')) as usize
        };
        let mut moves = 0;
        for line in out.lines() {
            match line.split(' ').collect::<Vec<_>>().as_slice() {
                ["set", c, d] => cells[cell(c)] = d.parse().unwrap(),
                ["cancel", c] => cells[cell(c)] = 0,
                _ => continue,
            }
            moves += 1;
        }
        assert!(moves > 50, "{strategy}");
        let replayed: String = cells.iter().map(|d| (b'0' + d) as char).collect();
        let printed: String = out
            .lines()
            .filter(|l| l.starts_with("| "))
            .flat_map(|l| l.chars().filter(char::is_ascii_digit))
            .collect();
        assert_eq!(replayed, printed, "{strategy}");
    }
}

#[test]
fn compare_prints_every_strategy_side_by_side_and_naive_over_budget() {
    let o = run(
        &["solve", "--compare", "--max-steps", "20000"],
        Some(&format!("{L52} level52\n{ANTI_BACKTRACKER} anti\n")),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    for name in ["naive", "mrv", "fast"] {
        assert!(
            lines[0].contains(&format!("{name}: sets / cancels, time")),
            "{out}"
        );
    }
    assert!(lines[2].starts_with("| level52 "), "{out}");
    // naive needs 12702 sets and 12650 cancels on level 52; mrv 90 and 38.
    assert!(lines[2].contains("12702 / 12650, "), "{out}");
    assert!(lines[2].contains("90 / 38, "), "{out}");
    assert!(lines[3].starts_with("| anti "), "{out}");
    assert!(lines[3].contains("over budget: 20000 / "), "{out}");
}

#[test]
fn compare_json_gives_each_strategy_its_outcome_steps_and_time() {
    let o = run(&["solve", "--compare", "--json", L52], None);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let result = &v["results"][0];
    assert_eq!(result["puzzle"].as_str().unwrap().len(), 81);
    let mrv = &result["strategies"]["mrv"];
    assert_eq!(
        (mrv["sets"].as_u64(), mrv["cancels"].as_u64()),
        (Some(90), Some(38))
    );
    assert_eq!(mrv["outcome"], "solved");
    assert_eq!(mrv["over_budget"], false);
    for name in ["naive", "fast"] {
        assert_eq!(result["strategies"][name]["outcome"], "solved", "{name}");
        assert!(result["strategies"][name]["elapsed_ms"].as_f64().is_some());
    }
    let clash = run(&["solve", "--compare", "--strategy", "fast", L52], None);
    assert_eq!(
        clash.status.code(),
        Some(2),
        "--compare runs every strategy"
    );
}
