//! `visualize`: replay the backtracking search on the phone move by move (estimate, confirm,
//! replay with a progress bar, resume), or draw it as a GIF without a phone.

use super::format::{count, duration};
use super::open::{load_screenshot, open_phone};
use super::profiles::{DEFAULT_FILE, calibration_for, load_file};
use crate::calibration::InputOrder;
use crate::cli::VisualizeArgs;
use crate::error::BoardProblem;
use crate::plan::Move;
use crate::plan::count_taps;
use crate::sudoku::Board;
use crate::sudoku::report::describe_conflicts;
use crate::vision::read_board;
use crate::visualize::estimate::{Costs, estimate, pacing_for};
use crate::visualize::gif::{GifOptions, sampled_steps, search_gif};
use crate::visualize::measure::measure;
use crate::visualize::record::{prepare_fresh, prepare_resume, record_search};
use crate::visualize::resume::State;
use crate::visualize::session::{self, ReplayOptions, Session};
use anyhow::{Context, Result, bail};
use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Replays estimated to take longer than this are started only after a yes (or with --yes).
const LONG: Duration = Duration::from_secs(120);

/// `visualize`: replay the backtracking search on the phone move by move, or write it as a GIF.
pub(super) fn run(args: VisualizeArgs) -> Result<ExitCode> {
    let max_steps = (args.max_steps != 0).then_some(args.max_steps);
    if let Some(path) = &args.gif {
        return visualize_gif(&args, path, max_steps);
    }
    // Declared before the device so that the device (its shell sessions) goes first.
    let mut sim_session = None;
    let mut device = open_phone(&args.device, &args.sim, &mut sim_session)?;
    let (cal, templates) = calibration_for(device.as_mut(), args.calibration.as_deref())?;
    let layout = crate::play::layout(&cal)?;
    let description = device.input_description();
    let input = device.input();
    let screen = device.screenshot().context("cannot take a screenshot")?;
    let recognition = read_board(&screen, &cal, &templates)
        .map_err(|e| BoardProblem(format!("cannot read the board, nothing was tapped: {e}")))?;
    let (prepared, mut state) = if args.resume {
        let state = State::load(&args.state)?;
        let prepared = prepare_resume(&recognition, &state)?;
        (prepared, state)
    } else {
        let prepared = prepare_fresh(&recognition, args.strategy, max_steps)?;
        let state = State::new(
            &prepared.search.puzzle,
            prepared.search.strategy,
            max_steps,
            prepared.search.events.len(),
            description.clone(),
        );
        (prepared, state)
    };
    let search = &prepared.search;
    let moves = search.moves();
    let start = prepared.start;
    let pacing = pacing_for(&cal, input);
    let check_every = args.check_every as usize;
    let mut options = ReplayOptions {
        check_every,
        moves_per_second: args.moves_per_second,
        pacing,
        checkpoint_settle_ms: pacing.settle_ms,
        state_file: Some(args.state.clone()),
        ..ReplayOptions::default()
    };
    let steps_before = moves[..start]
        .iter()
        .filter(|m| matches!(m, Move::Set { .. }))
        .count();
    errln!(
        "search: {}, {} steps and {} cancels = {} moves, {} taps ({})",
        search.strategy,
        count(search.steps),
        count(search.cancels),
        count(moves.len() as u64),
        count(count_taps(&moves, cal.input_order) as u64),
        match cal.input_order {
            InputOrder::CellFirst => "cell then digit",
            InputOrder::NumberFirst => "digit then cell",
        }
    );
    if args.resume {
        if args.strategy != search.strategy {
            errln!(
                "note: resuming the interrupted {} search (--strategy is ignored with --resume)",
                search.strategy
            );
        }
        errln!(
            "resuming after move {} of {} (step {}){}",
            count(start as u64),
            count(moves.len() as u64),
            count(steps_before as u64),
            if prepared.as_recorded {
                String::new()
            } else {
                format!(
                    "; the screen was not where {} said ({} moves sent), it matches this step",
                    args.state.display(),
                    state.sent
                )
            }
        );
    }
    let mut session = Session {
        device: device.as_mut(),
        calibration: &cal,
        templates: &templates,
        layout,
    };
    let known = Costs::known(input, &pacing);
    let guess = estimate(&moves[start..], cal.input_order, &known, &options);
    let can_ask = args.yes || std::io::stdin().is_terminal();
    // On a phone the figure at the prompt is timed on it (see `measure` for what is tapped and
    // why the board is left as it is); the method's known costs only for devices without
    // timing, and when the run will be refused anyway (no one to ask, already too long).
    let measured = if input.kind().is_some()
        && session.device.shows_taps()
        && start < moves.len()
        && (can_ask || guess.total <= LONG)
    {
        measure(&mut session, &recognition, &options)?
    } else {
        None
    };
    let costs = measured.as_ref().map_or(known, |m| m.costs);
    let estimate = estimate(&moves[start..], cal.input_order, &costs, &options);
    if let Some(m) = &measured {
        errln!(
            "timed the phone with {} taps on given cells (the board is unchanged): {:.0} ms a tap, {:.0} ms a call, {:.2} s a checkpoint (the input method's figures said {:.1} s)",
            m.taps,
            m.costs.per_tap.as_secs_f64() * 1e3,
            m.costs.per_call.as_secs_f64() * 1e3,
            m.costs.checkpoint.as_secs_f64(),
            guess.total.as_secs_f64()
        );
        let taps_per_move = estimate.taps as f64 / estimate.moves.max(1) as f64;
        options.first_per_move = Some(m.costs.per_tap.mul_f64(taps_per_move) + m.costs.per_call);
    }
    errln!(
        "input: {description}; estimated {} ({:.1} s) for {} moves ({:.1} moves/s), checked every {check_every} moves",
        duration(estimate.total),
        estimate.total.as_secs_f64(),
        count(estimate.moves as u64),
        if estimate.per_move.is_zero() {
            0.0
        } else {
            1.0 / estimate.per_move.as_secs_f64()
        }
    );
    if estimate.total > LONG && !args.yes {
        let stdin = std::io::stdin();
        if !stdin.is_terminal() {
            bail!(
                "this replay takes about {}: pass --yes to start it without asking (there is no terminal to ask on), or use --strategy fast or --max-steps",
                duration(estimate.total)
            );
        }
        {
            use std::io::Write as _;
            let mut err = std::io::stderr().lock();
            let _ = write!(
                err,
                "this takes about {}; start? [y/N] ",
                duration(estimate.total)
            );
            let _ = err.flush();
        }
        let mut answer = String::new();
        stdin
            .read_line(&mut answer)
            .context("cannot read the answer")?;
        if !matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
            errln!("nothing was tapped");
            return Ok(ExitCode::from(2));
        }
    }

    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = Arc::clone(&stop);
        // Ctrl-C finishes the batch in flight (a fraction of a second), saves progress, stops.
        ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst))
            .context("cannot install the Ctrl-C handler")?;
    }
    state.device = description.clone();
    let bar = indicatif::ProgressBar::new(moves.len() as u64)
        .with_message(format!("step {}", count(steps_before as u64)))
        .with_style(
            indicatif::ProgressStyle::with_template(
                "{prefix} [{bar:30}] {pos}/{len} moves ({percent}%), {msg}, {per_sec}, eta {eta}",
            )
            .expect("static progress template")
            .progress_chars("=> "),
        );
    bar.set_prefix("replaying");
    bar.set_position(start as u64);
    bar.reset_eta();
    let mut counted = start;
    let mut steps = steps_before;
    let result = session::replay_moves(
        &mut session,
        &search.puzzle,
        &moves,
        start,
        &options,
        Some(state),
        &stop,
        &mut |done| {
            steps += moves[counted..done]
                .iter()
                .filter(|m| matches!(m, Move::Set { .. }))
                .count();
            counted = done;
            bar.set_message(format!("step {}", count(steps as u64)));
            bar.set_position(done as u64);
        },
    );
    bar.finish_and_clear();
    if let Some((session, preset)) = &sim_session {
        errln!(
            "simulated phone: {:.2} s of device time (virtual clock, latency preset {preset})",
            session.clock().as_secs_f64()
        );
    }
    let report = result?;
    let _ = std::fs::remove_file(&args.state);
    out!("{}", report.final_board);
    outln!(
        "replayed {} moves ({} steps) of the {} search with {} taps via {} in {} ({:.1} s); {} checkpoints matched the screen",
        count((report.done - start) as u64),
        count(search.steps - steps_before as u64),
        search.strategy,
        count(report.taps_sent as u64),
        description,
        duration(report.elapsed),
        report.elapsed.as_secs_f64(),
        report.checkpoints
    );
    outln!("the search took {} steps", count(search.steps));
    Ok(ExitCode::SUCCESS)
}

/// `visualize --gif`: the search drawn locally, from --puzzle or a screenshot.
fn visualize_gif(args: &VisualizeArgs, path: &Path, max_steps: Option<u64>) -> Result<ExitCode> {
    let puzzle = match (&args.puzzle, &args.image) {
        (Some(text), _) => {
            Board::parse(text).map_err(|e| BoardProblem(format!("cannot read --puzzle: {e}")))?
        }
        (None, Some(image)) => {
            let file = args
                .calibration
                .as_deref()
                .unwrap_or(Path::new(DEFAULT_FILE));
            let (cal, templates) = load_file(file)?;
            let img = load_screenshot(image)?;
            read_board(&img, &cal, &templates)
                .map_err(|e| BoardProblem(format!("cannot read {}: {e}", image.display())))?
                .givens()
        }
        (None, None) => {
            bail!("--gif needs the puzzle: pass --puzzle 81CHARS or --image SCREENSHOT.png")
        }
    };
    if !puzzle.conflicts().is_empty() {
        return Err(BoardProblem(format!(
            "the givens break the rules: {}; fix the puzzle and try again",
            describe_conflicts(&puzzle)
        ))
        .into());
    }
    let search = record_search(&puzzle, args.strategy, max_steps)?;
    let options = GifOptions {
        max_frames: args.gif_frames,
        ..Default::default()
    };
    let gif = search_gif(&puzzle, &search.events, &options)?;
    std::fs::write(path, gif)
        .with_context(|| format!("cannot write the GIF to {}", path.display()))?;
    let frames = sampled_steps(search.events.len(), args.gif_frames).len();
    outln!(
        "wrote {}: {} search, {} steps, {} moves, {frames} frames",
        path.display(),
        search.strategy,
        count(search.steps),
        count(search.events.len() as u64)
    );
    Ok(ExitCode::SUCCESS)
}
