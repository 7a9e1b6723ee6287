//! `play`: solve the game on the phone and verify it, with a progress bar; `--dry-run` draws the
//! plan instead of tapping.

use super::open::open_phone;
use crate::calibration::Calibration;
use crate::cli::PlayArgs;
use crate::play::{PlayOptions, PlayReport, Timings, assess, draw_plan};
use crate::vision::Templates;
use anyhow::{Context, Result};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// `play`: solve the game on the phone and verify it.
pub(super) fn run(args: PlayArgs) -> Result<ExitCode> {
    let cal = Calibration::load(&args.calibration)?;
    let templates = Templates::load(&cal.templates_dir(&args.calibration))?;
    // Declared before the device so that the device (its shell sessions) goes first.
    let mut sim_session = None;
    let mut device = open_phone(&args.device, &args.sim, &mut sim_session)?;
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = Arc::clone(&stop);
        // Ctrl-C finishes the move in flight, then stops: a half-entered move is never left.
        ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst))
            .context("cannot install the Ctrl-C handler")?;
    }
    let options = PlayOptions {
        dry_run: args.dry_run,
        keep_entries: args.keep_entries,
        recheck_after: Duration::from_millis(500),
        pacing: cal.pacing,
        moves_per_call: 0,
    };
    let bar = indicatif::ProgressBar::new(0).with_style(
        indicatif::ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} moves, {elapsed} (eta {eta})",
        )
        .expect("static progress template")
        .progress_chars("=> "),
    );
    bar.set_prefix("tapping");
    let started = Instant::now();
    let mut screen_for_dry_run = None;
    let result = if args.dry_run {
        let screen = device.screenshot().context("cannot take a screenshot")?;
        let mut timings = Timings::default();
        let assessment = assess(&screen, &cal, &templates, &options, &mut timings)?;
        screen_for_dry_run = Some(screen);
        Ok(PlayReport {
            assessment,
            moves_done: 0,
            taps_sent: 0,
            final_board: None,
            timings,
        })
    } else {
        crate::play::play(
            device.as_mut(),
            &cal,
            &templates,
            &options,
            &stop,
            &mut |done, total| {
                bar.set_length(total as u64);
                bar.set_position(done as u64);
            },
        )
    };
    bar.finish_and_clear();
    let host_time = started.elapsed();
    let device_time = sim_session.as_ref().map(|(s, preset)| (s.clock(), *preset));
    if let Some((clock, preset)) = device_time {
        eprintln!(
            "simulated phone: {:.2} s of device time (virtual clock, latency preset {preset}), {:.2} s of host time",
            clock.as_secs_f64(),
            host_time.as_secs_f64()
        );
    }
    let report = result?;
    let a = &report.assessment;
    if a.multiple_solutions {
        eprintln!("note: this puzzle has more than one solution; filling one valid completion");
    }
    if !a.wrong_entries.is_empty() {
        eprintln!(
            "note: corrected {} player entries that disagreed with the solution",
            a.wrong_entries.len()
        );
    }
    if let Some(screen) = &screen_for_dry_run {
        draw_plan(screen, &a.plan)
            .save(&args.overlay)
            .with_context(|| format!("cannot write {}", args.overlay.display()))?;
        for (i, t) in a.plan.taps.iter().enumerate() {
            println!("{:4} tap {:5} {:5}  {}", i + 1, t.at.x, t.at.y, t.target);
        }
        eprintln!(
            "dry run: {} moves, {} taps planned, drawn on {}; nothing was tapped",
            a.moves.len(),
            a.plan.taps.len(),
            args.overlay.display()
        );
    }
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
            "input": device.input_description(),
            "verified": report.final_board.is_some(),
            "timings_ms": report.timings,
            "total_ms": started.elapsed().as_secs_f64() * 1000.0,
            "device_time_ms": device_time.map(|(c, _)| c.as_secs_f64() * 1000.0),
        });
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else if !args.dry_run {
        print!("{}", a.solution);
        println!(
            "solved: {} moves, {} taps via {} in {:.2} s; the screen was re-read and shows the solution",
            a.moves.len(),
            report.taps_sent,
            device.input_description(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}
