//! `play`: solve the game on the phone and verify it, with a progress bar; `--dry-run` draws the
//! plan instead of tapping.

use super::choose::profile_for;
use super::open::open_phone;
use crate::cli::PlayArgs;
use crate::phone::{Phone, claim, stop_on_ctrl_c};
use crate::plan::overlay::draw_plan;
use crate::play::{Assessment, FirstRead, PlayOptions, PlayReport, Step, read_and_plan};
use crate::profile::remember_order;
use anyhow::{Context, Result};
use image::RgbaImage;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The options `play` was given; pacing comes from the calibration of each phone.
fn play_options(args: &PlayArgs) -> Result<PlayOptions> {
    Ok(PlayOptions {
        dry_run: args.dry_run,
        keep_entries: args.keep_entries,
        any_solution: args.any_solution,
        recheck_after: Duration::from_millis(args.recheck_after_ms),
        pacing: None,
        moves_per_call: 0,
        wait: Duration::try_from_secs_f64(args.wait).map_err(|_| {
            anyhow::anyhow!(
                "--wait {} is not a number of seconds: pass 0 or more",
                args.wait
            )
        })?,
    })
}

/// `play`: solve the game on the phone and verify it.
pub(super) fn run(args: PlayArgs) -> Result<ExitCode> {
    let options = play_options(&args)?;
    if args.all {
        // `play --all` refuses --dry-run before it plays.
        return super::fleet::run(&args, &options);
    }
    // Declared before the device so that the device (its shell sessions) goes first.
    let mut sim_session = None;
    let mut device = open_phone(&args.device, &args.sim, &mut sim_session)?;
    // This phone is ours (a second agent exits at once) and its screen is on, before learning.
    let _claim = claim(device.as_mut(), "play", &|line: &str| errln!("{line}"))?;
    // The screenshot that checked the profile is the one play starts from.
    let chosen = profile_for(
        device.as_mut(),
        args.calibration.as_deref(),
        &|line: &str| errln!("{line}"),
    )?;
    // Ctrl-C finishes the move in flight, then stops: a half-entered move is never left.
    let stop = stop_on_ctrl_c()?;
    let options = PlayOptions {
        pacing: chosen.profile.calibration.pacing,
        ..options
    };
    let say = |line: &str| errln!("{line}");
    let mut phone = Phone::new(device.as_mut(), &chosen.profile, &stop, &say);
    let started = Instant::now();
    let mut screen_for_dry_run = None;
    let result = if args.dry_run {
        let (screen, report) = plan_only(chosen.first, &mut phone, &options)?;
        screen_for_dry_run = Some(screen);
        Ok(report)
    } else {
        play_with_bar(chosen.first, &mut phone, &options)
    };
    let host_time = started.elapsed();
    let device_time = sim_session.as_ref().map(|(s, preset)| (s.clock(), *preset));
    if let Some((clock, preset)) = device_time {
        errln!(
            "simulated phone: {:.2} s of device time (virtual clock, latency preset {preset}), {:.2} s of host time",
            clock.as_secs_f64(),
            host_time.as_secs_f64()
        );
    }
    let report = result?;
    if let Some(order) = report.relearned_order {
        errln!("{}", remember_order(&chosen.source, order));
    }
    say_notes(&report.assessment);
    if let Some(screen) = &screen_for_dry_run {
        show_plan(screen, &report.assessment, &args.overlay)?;
    }
    let input = device.input_description();
    print_outcome(&args, &report, &input, started, device_time.map(|(c, _)| c))?;
    Ok(ExitCode::SUCCESS)
}

/// The notes on the board as read: several solutions, and the player's entries corrected.
fn say_notes(a: &Assessment) {
    if a.multiple_solutions {
        errln!("note: this puzzle has more than one solution; filling one valid completion");
    }
    if !a.wrong_entries.is_empty() {
        let named: Vec<String> = a
            .wrong_entries
            .iter()
            .map(|&c| {
                let digit = |b: &crate::sudoku::Board| b.get(c).map_or('.', |d| (b'0' + d) as char);
                format!(
                    "{c} {} -> {}",
                    digit(&a.recognition.board),
                    digit(&a.solution)
                )
            })
            .collect();
        errln!(
            "note: corrected {} player entries that disagreed with the solution: {}",
            a.wrong_entries.len(),
            named.join(", ")
        );
    }
}

/// The result on stdout: the JSON summary with `--json`, else the solved board and one line.
fn print_outcome(
    args: &PlayArgs,
    report: &PlayReport,
    input: &str,
    started: Instant,
    device_time: Option<std::time::Duration>,
) -> Result<()> {
    let a = &report.assessment;
    if args.json {
        let json = serde_json::json!({
            "read": a.recognition.board.to_line(),
            "solution": a.solution.to_line(),
            "multiple_solutions": a.multiple_solutions,
            "wrong_entries": a.wrong_entries.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            "moves": a.moves.len(),
            "moves_done": report.moves_done,
            "taps": report.taps_sent,
            "dry_run": args.dry_run,
            "input": input,
            "verified": report.final_board.is_some(),
            "end_screen": report.end_screen,
            "timings_ms": report.timings,
            "total_ms": started.elapsed().as_secs_f64() * 1000.0,
            "checks": report.checks,
            "interruptions": report.interruptions,
            "relearned_order": report.relearned_order.map(|o| format!("{o:?}")),
            "device_time_ms": device_time.map(|c| c.as_secs_f64() * 1000.0),
        });
        outln!("{}", serde_json::to_string_pretty(&json)?);
    } else if !args.dry_run {
        out!("{}", a.solution);
        let (head, checked) = if report.end_screen {
            (
                "solved (the app now shows its end screen)",
                "every move before the last was seen on the board",
            )
        } else {
            ("solved", "the screen was re-read and shows the solution")
        };
        outln!(
            "{head}: {} moves, {} taps via {} in {:.2} s; {checked}",
            a.moves.len(),
            report.taps_sent,
            input,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// `--dry-run`: the board read (from the screenshot that checked the profile when there is one)
/// and the plan, with the screen to draw it on; nothing is tapped.
fn plan_only(
    first: Option<FirstRead>,
    phone: &mut Phone,
    options: &PlayOptions,
) -> Result<(RgbaImage, PlayReport)> {
    let (report, _, screen) = read_and_plan(first, phone, options)?;
    Ok((screen, report))
}

/// Plays on the phone: the board read and the plan on stderr before the first tap, then a
/// progress bar, cleared at the end.
fn play_with_bar(
    first: Option<FirstRead>,
    phone: &mut Phone,
    options: &PlayOptions,
) -> Result<PlayReport> {
    // The bar appears once the plan is known (a bar made before showed a full "0/0 moves"), and
    // the plan is said before the first tap: moves, input method, estimated time.
    let mut bar: Option<indicatif::ProgressBar> = None;
    let device = &*phone.device;
    let input_description = device.input_description();
    let pacing = (phone.profile.calibration.pacing)
        .or_else(|| device.pacing())
        .unwrap_or(crate::device::Pacing::NONE);
    let costs = PlanCosts {
        // The gap is counted apart: the device keeps it only after keys.
        per_tap: device.tap_cost(&crate::device::Pacing {
            gap_ms: 0,
            ..pacing
        }),
        gap: Duration::from_millis(u64::from(pacing.gap_ms)),
        check: device.input().check_cost(),
    };
    let result = crate::play::play_from(first, phone, options, &mut |step| match step {
        // The board read and the plan, on stderr before the first tap.
        Step::Planned(a) => {
            errln!("read from the screen:\n{}", a.recognition.board);
            errln!(
                "{}",
                plan_line(&a.moves, &a.plan, &costs, &input_description)
            );
        }
        Step::Moves { done, total } => {
            bar.get_or_insert_with(|| tapping_bar(total))
                .set_position(done as u64);
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    result
}

/// `--dry-run`'s output: the plan drawn on the screen (`overlay`), the taps on stdout, a line
/// saying nothing was tapped.
fn show_plan(screen: &RgbaImage, a: &Assessment, overlay: &Path) -> Result<()> {
    draw_plan(screen, &a.plan)
        .save(overlay)
        .with_context(|| format!("cannot write {}", overlay.display()))?;
    for (i, t) in a.plan.taps.iter().enumerate() {
        outln!("{:4} tap {:5} {:5}  {}", i + 1, t.at.x, t.at.y, t.target);
    }
    errln!(
        "dry run: {} moves, {} taps planned, drawn on {}; nothing was tapped",
        a.moves.len(),
        a.plan.taps.len(),
        overlay.display()
    );
    Ok(())
}

/// What the plan line counts a tap, a gap and a check at.
struct PlanCosts {
    /// A tap on this device, hold included, gap not ([`crate::device::Device::tap_cost`]).
    per_tap: Duration,
    /// The pacing's gap, kept only after a key that a cell tap follows (the wait for the app's
    /// click).
    gap: Duration,
    /// A check's screenshot and read.
    check: Duration,
}

/// What is about to be tapped, said before the first tap: moves, the plan's taps, input
/// method, and the time that takes: each tap's cost, the gap after each key a cell tap follows,
/// and the checks the run makes when every move lands ([`crate::play::planned_checks`]).
fn plan_line(
    moves: &[crate::plan::Move],
    plan: &crate::plan::Plan,
    costs: &PlanCosts,
    input_description: &str,
) -> String {
    use crate::plan::Target;
    let taps = plan.taps.len();
    let key_then_cell = plan
        .taps
        .windows(2)
        .filter(|w| {
            !matches!(w[0].target, Target::Cell(_)) && matches!(w[1].target, Target::Cell(_))
        })
        .count();
    let checks = crate::play::planned_checks(moves, plan);
    let estimate = costs.per_tap.saturating_mul(taps as u32)
        + costs.gap.saturating_mul(key_then_cell as u32)
        + costs.check.saturating_mul(checks as u32);
    format!(
        "tapping {} moves ({taps} taps) via {input_description}, about {}",
        moves.len(),
        super::format::duration(estimate)
    )
}

fn tapping_bar(total: usize) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(total as u64).with_style(
        indicatif::ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} moves, {elapsed} (eta {eta})",
        )
        .expect("static progress template")
        .progress_chars("=> "),
    );
    bar.set_prefix("tapping");
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{Input, InputKind, Pacing};
    use crate::plan::Target;

    #[test]
    fn the_plan_line_names_moves_method_and_estimate() {
        let cell = crate::sudoku::Cell::from_index(0).unwrap();
        let tap = |target| crate::plan::Tap {
            at: crate::geometry::Point::new(1, 1),
            target,
        };
        let plan = crate::plan::Plan {
            taps: (0..51)
                .flat_map(|_| [tap(Target::Cell(cell)), tap(Target::Digit(1))])
                .collect(),
            move_ends: (0..51).map(|i| 2 * i + 1).collect(),
        };
        let moves = vec![crate::plan::Move::Set { cell, digit: 1 }; 51];
        let stream = Input::Method(InputKind::Stream);
        let costs = PlanCosts {
            per_tap: stream.tap_cost(&Pacing::NONE),
            gap: Duration::ZERO,
            check: stream.check_cost(),
        };
        let line = plan_line(&moves, &plan, &costs, "stream");
        assert!(
            line.starts_with("tapping 51 moves (102 taps) via stream, about"),
            "{line}"
        );
        // 102 taps at 50 ms each; checks at 0.15 s: the first move alone, 13 batches of four
        // moves of one digit, the last move alone.
        assert_eq!(crate::play::planned_checks(&moves, &plan), 15);
        assert!(line.ends_with("about 7 seconds"), "{line}");
    }
}
