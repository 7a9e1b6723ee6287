//! `visualize`: replay the backtracking search on the phone move by move (time the phone,
//! estimate, confirm, replay with a progress bar, resume), on one phone or on every phone of the
//! adb server at once (`--all`, through the fleet code of `play --all`), or draw it as a GIF
//! without a phone.

use super::choose::{DEFAULT_FILE, Source, load_file, profile_for};
use super::fleet;
use super::format::{count, duration};
use super::open::{load_screenshot, open_phone};
use crate::cli::VisualizeArgs;
use crate::device::Device;
use crate::device::adb::AdbDevice;
use crate::error::BoardProblem;
use crate::phone::{Phone, Say, claim, refuse_dark, stop_on_ctrl_c};
use crate::plan::{Layout, Move, count_taps};
use crate::profile::Profile;
use crate::profile::calibration::InputOrder;
use crate::profile::remember_order;
use crate::sudoku::Board;
use crate::sudoku::report::describe_conflicts;
use crate::visualize::estimate::{Costs, Estimate, estimate, pacing_for};
use crate::visualize::gif::{GifOptions, sampled_steps, search_gif};
use crate::visualize::measure::measure;
use crate::visualize::record::{Prepared, prepare_fresh, prepare_resume, record_search};
use crate::visualize::resume::State;
use crate::visualize::session::{self, Replay, ReplayOptions, ReplayReport};
use anyhow::{Context, Result, bail};
use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, Sender};
use std::time::Duration;
use sudoku_reader::Recognition;

/// Replays estimated to take longer than this are started only after a yes (or with --yes).
const LONG: Duration = Duration::from_secs(120);

/// `visualize`: replay the backtracking search on the phone move by move, or write it as a GIF.
pub(super) fn run(args: VisualizeArgs) -> Result<ExitCode> {
    if let Some(path) = &args.gif {
        let max_steps = (args.max_steps != 0).then_some(args.max_steps);
        return visualize_gif(&args, path, max_steps);
    }
    if args.all {
        return run_all(&args);
    }
    // Declared before the device so that the device (its shell sessions) goes first.
    let mut sim_session = None;
    let mut device = open_phone(&args.device, &args.sim, &mut sim_session)?;
    // This phone is ours (a second agent exits at once) and its screen is on, before learning.
    let _claim = claim(device.as_mut(), "visualize", &|line: &str| errln!("{line}"))?;
    let can_ask = args.yes || std::io::stdin().is_terminal();
    let mut ready = prepare(device.as_mut(), &args, &args.state, "", can_ask)?;
    if !confirm(ready.estimate.total, args.yes, "this takes")? {
        errln!("nothing was tapped");
        return Ok(ExitCode::from(2));
    }
    // Ctrl-C finishes the batch in flight (a fraction of a second), saves progress, stops.
    let stop = stop_on_ctrl_c()?;
    let bar = indicatif::ProgressBar::new(ready.moves.len() as u64)
        .with_message(format!("step {}", count(ready.steps_before as u64)))
        .with_style(
            indicatif::ProgressStyle::with_template(
                "{prefix} [{bar:30}] {pos}/{len} moves ({percent}%), {msg}, {per_sec}, eta {eta}",
            )
            .expect("static progress template")
            .progress_chars("=> "),
        );
    bar.set_prefix("replaying");
    bar.set_position(ready.start as u64);
    bar.reset_eta();
    // The bar's ETA follows the replay's own pace; when that pace says the whole run will be
    // far from the estimate the user agreed to, one line says so (once, after an eighth).
    let (first, total, estimated) = (ready.start, ready.moves.len(), ready.estimate.total);
    let began = std::time::Instant::now();
    let mut corrected = false;
    let say = |line: &str| errln!("{line}");
    let result = replay(
        device.as_mut(),
        &mut ready,
        (&stop, &say),
        &mut |done, steps| {
            bar.set_message(format!("step {}", count(steps as u64)));
            bar.set_position(done as u64);
            let elapsed = began.elapsed();
            if !corrected && (done - first) * 8 >= total - first && elapsed > Duration::from_secs(5)
            {
                corrected = true;
                let projected = elapsed.mul_f64((total - first) as f64 / (done - first) as f64);
                if projected.abs_diff(estimated) * 10 > estimated * 3 {
                    bar.println(format!(
                    "at this phone's pace the replay takes about {} in all, not {} as estimated",
                    duration(projected),
                    duration(estimated)
                ));
                }
            }
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
    let search = &ready.prepared.search;
    out!("{}", report.final_board);
    outln!(
        "replayed {} moves ({} steps) of the {} search with {} taps via {} in {} ({:.1} s); {} checks matched the screen",
        count((report.done - ready.start) as u64),
        count(search.steps - ready.steps_before as u64),
        search.strategy,
        count(report.taps_sent as u64),
        ready.description,
        duration(report.elapsed),
        report.elapsed.as_secs_f64(),
        report.checks
    );
    if report.end_screen {
        outln!("solved (the app now shows its end screen after the last move)");
    }
    if let Some(order) = report.relearned_order {
        errln!("{}", remember_order(&ready.source, order));
    }
    outln!("the search took {} steps", count(search.steps));
    Ok(ExitCode::SUCCESS)
}

/// One phone made ready to replay: read, searched, timed and estimated; nothing tapped but the
/// timing taps on given cells.
struct Ready {
    profile: Profile,
    layout: Layout,
    /// The profile's name, or the calibration file's.
    name: String,
    /// Where the calibration came from: where a re-learned input order is saved.
    source: Source,
    description: String,
    prepared: Prepared,
    moves: Vec<Move>,
    start: usize,
    steps_before: usize,
    state: State,
    options: ReplayOptions,
    estimate: Estimate,
}

/// Reads the phone's board, records the search (or finds where an interrupted one is), times the
/// phone and says what the replay will take; `who` goes before every line ("SERIAL: " with
/// --all). `can_ask`: whether a long replay may be started (--yes or a terminal to ask on);
/// when not, and the method's known figures already say it is long, the phone is not timed.
fn prepare(
    device: &mut dyn Device,
    args: &VisualizeArgs,
    state_file: &Path,
    who: &str,
    can_ask: bool,
) -> Result<Ready> {
    let chosen = profile_for(device, args.calibration.as_deref(), &|line: &str| {
        errln!("{who}{line}")
    })?;
    let profile = chosen.profile;
    let cal = &profile.calibration;
    let layout = crate::plan::layout(cal)?;
    let description = device.input_description();
    let input = device.input();
    // The screenshot that checked the profile is the one the replay starts from.
    let recognition = match chosen.first {
        Some(first) => first.recognition,
        None => {
            let screen = device.screenshot().context("cannot take a screenshot")?;
            refuse_dark(device, &screen)?;
            profile.read(&screen).result.map_err(|e| {
                BoardProblem(format!("cannot read the board, nothing was tapped: {e}"))
            })?
        }
    };
    let (prepared, mut state) = search(args, &recognition, state_file, &description)?;
    state.device = description.clone();
    let moves = prepared.search.moves();
    let start = prepared.start;
    let pacing = pacing_for(cal, input);
    let mut options = ReplayOptions {
        check_every: args.check_every as usize,
        moves_per_second: args.moves_per_second,
        pacing,
        check_settle_ms: pacing.settle_ms,
        state_file: Some(state_file.to_path_buf()),
        ..ReplayOptions::default()
    };
    say_search(
        who,
        args,
        state_file,
        &prepared,
        &state,
        &moves,
        cal.input_order,
    );
    // Only timing taps on given cells here, nothing a stop would cut short; Ctrl-C before the
    // replay ends the program.
    let (stop, say) = (AtomicBool::new(false), |line: &str| errln!("{who}{line}"));
    let mut phone = Phone::new(device, &profile, &stop, &say);
    let estimate = estimate_replay(
        &mut phone,
        &recognition,
        &moves[start..],
        &mut options,
        &description,
        who,
        can_ask,
    )?;
    Ok(Ready {
        profile,
        layout,
        name: chosen.name,
        source: chosen.source,
        description,
        steps_before: sets_before(&moves, start),
        moves,
        start,
        state,
        options,
        estimate,
        prepared,
    })
}

/// The search to replay: recorded afresh from the board read, or, with --resume, the
/// interrupted one from the state file and where the screen shows it got to.
fn search(
    args: &VisualizeArgs,
    recognition: &Recognition,
    state_file: &Path,
    description: &str,
) -> Result<(Prepared, State)> {
    let max_steps = (args.max_steps != 0).then_some(args.max_steps);
    Ok(if args.resume {
        let state = State::load(state_file)?;
        let prepared = prepare_resume(recognition, &state)?;
        (prepared, state)
    } else {
        let prepared = prepare_fresh(recognition, args.strategy, max_steps)?;
        let state = State::new(
            &prepared.search.puzzle,
            prepared.search.strategy,
            max_steps,
            prepared.search.events.len(),
            description.to_string(),
        );
        (prepared, state)
    })
}

/// The search steps (set moves, not cancels) among the first `start` moves.
fn sets_before(moves: &[Move], start: usize) -> usize {
    moves[..start]
        .iter()
        .filter(|m| matches!(m, Move::Set { .. }))
        .count()
}

/// Says the search in one line (steps, cancels, moves, taps) and, with --resume, where it
/// resumes.
fn say_search(
    who: &str,
    args: &VisualizeArgs,
    state_file: &Path,
    prepared: &Prepared,
    state: &State,
    moves: &[Move],
    input_order: InputOrder,
) {
    let search = &prepared.search;
    let start = prepared.start;
    errln!(
        "{who}search: {}, {} steps and {} cancels = {} moves, {} taps ({})",
        search.strategy,
        count(search.steps),
        count(search.cancels),
        count(moves.len() as u64),
        count(count_taps(moves, input_order) as u64),
        match input_order {
            InputOrder::CellFirst => "cell then digit",
            InputOrder::NumberFirst => "digit then cell",
        }
    );
    if args.resume {
        if args.strategy != search.strategy {
            errln!(
                "{who}note: resuming the interrupted {} search (--strategy is ignored with --resume)",
                search.strategy
            );
        }
        errln!(
            "{who}resuming after move {} of {} (step {}){}",
            count(start as u64),
            count(moves.len() as u64),
            count(sets_before(moves, start) as u64),
            if prepared.as_recorded {
                String::new()
            } else {
                format!(
                    "; the screen was not where {} said ({} moves sent), it matches this step",
                    state_file.display(),
                    state.sent
                )
            }
        );
    }
}

/// What replaying `moves` will take, said in one line: timed on the phone when it can be (see
/// `measure` for what is tapped and why the board is left as it is), which also sizes the
/// first batch (`options.first_per_move`); the input method's known costs for devices without
/// timing, and when the run will be refused anyway (no one to ask, already too long).
fn estimate_replay(
    phone: &mut Phone,
    recognition: &Recognition,
    moves: &[Move],
    options: &mut ReplayOptions,
    description: &str,
    who: &str,
    can_ask: bool,
) -> Result<Estimate> {
    let input = phone.device.input();
    let input_order = phone.profile.calibration.input_order;
    let known = Costs::known(input, phone.device.tap_cost(&options.pacing));
    let guess = estimate(moves, input_order, &known, options);
    let measured = if input.kind().is_some()
        && phone.device.shows_taps()
        && !moves.is_empty()
        && (can_ask || guess.total <= LONG)
    {
        measure(phone, recognition, options)?
    } else {
        None
    };
    let costs = measured.as_ref().map_or(known, |m| m.costs);
    let estimate = estimate(moves, input_order, &costs, options);
    if let Some(m) = &measured {
        errln!(
            "{who}timed the phone with {} taps on given cells (the board is unchanged): {:.0} ms a tap, {:.0} ms a call, {:.2} s a check (the input method's figures said {:.1} s)",
            m.taps,
            m.costs.per_tap.as_secs_f64() * 1e3,
            m.costs.per_call.as_secs_f64() * 1e3,
            m.costs.check.as_secs_f64(),
            guess.total.as_secs_f64()
        );
        let taps_per_move = estimate.taps as f64 / estimate.moves.max(1) as f64;
        options.first_per_move = Some(m.costs.per_tap.mul_f64(taps_per_move) + m.costs.per_call);
    }
    errln!(
        "{who}input: {description}; estimated {} ({:.1} s) for {} moves ({:.1} moves/s), checked every {} moves",
        duration(estimate.total),
        estimate.total.as_secs_f64(),
        count(estimate.moves as u64),
        if estimate.per_move.is_zero() {
            0.0
        } else {
            1.0 / estimate.per_move.as_secs_f64()
        },
        options.check_every
    );
    Ok(estimate)
}

/// Whether a replay of `total` may start: at once when short or with `yes`; else the answer to
/// "`what` about ...; start?" on the terminal. Without a terminal, an error saying to pass --yes.
fn confirm(total: Duration, yes: bool, what: &str) -> Result<bool> {
    if total <= LONG || yes {
        return Ok(true);
    }
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        bail!(
            "{what} about {}: pass --yes to start without asking (there is no terminal to ask on), or use --strategy fast or --max-steps",
            duration(total)
        );
    }
    {
        use std::io::Write as _;
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "{what} about {}; start? [y/N] ", duration(total));
        let _ = err.flush();
    }
    let mut answer = String::new();
    stdin
        .read_line(&mut answer)
        .context("cannot read the answer")?;
    Ok(matches!(
        answer.trim().to_ascii_lowercase().as_str(),
        "y" | "yes"
    ))
}

/// Replays a prepared phone; `progress` gets the moves done and the search steps shown.
fn replay(
    device: &mut dyn Device,
    ready: &mut Ready,
    (stop, say): (&AtomicBool, &Say<'_>),
    progress: &mut dyn FnMut(usize, usize),
) -> Result<ReplayReport> {
    let mut phone = Phone::new(device, &ready.profile, stop, say);
    let mut replay = Replay {
        phone: &mut phone,
        layout: ready.layout.clone(),
    };
    let moves = &ready.moves;
    let mut counted = ready.start;
    let mut steps = ready.steps_before;
    session::replay_moves(
        &mut replay,
        &ready.prepared.search.puzzle,
        moves,
        ready.start,
        &ready.options,
        Some(ready.state.clone()),
        &mut |done| {
            steps += moves[counted..done]
                .iter()
                .filter(|m| matches!(m, Move::Set { .. }))
                .count();
            counted = done;
            progress(done, steps);
        },
    )
}

/// `visualize --all`: every phone on the adb server at once, a thread each; one question when
/// any replay is long (the longest estimate), one table at the end. Each phone keeps its
/// progress in its own state file (the serial added to --state's name), for `-s SERIAL --resume`.
fn run_all(args: &VisualizeArgs) -> Result<ExitCode> {
    let phones = fleet::attached(&args.device)?;
    let can_ask = args.yes || std::io::stdin().is_terminal();
    let stop = stop_on_ctrl_c()?;
    errln!(
        "replaying on {} phones at once through the adb server at {}",
        phones.serials.len(),
        phones.server.addr
    );
    let (told, estimates) = std::sync::mpsc::channel::<Option<Duration>>();
    let (goes, go_rxs): (Vec<_>, Vec<_>) = phones
        .serials
        .iter()
        .map(|_| std::sync::mpsc::channel::<bool>())
        .unzip();
    let rows = std::thread::scope(|scope| {
        let threads: Vec<_> = phones
            .serials
            .iter()
            .zip(go_rxs)
            .map(|(serial, go)| {
                let (told, stop, phones) = (told.clone(), &stop, &phones);
                scope.spawn(move || replay_one(args, phones, serial, can_ask, &told, &go, stop))
            })
            .collect();
        drop(told);
        // Every phone says its estimate (or that it failed) before any replay starts.
        let longest = estimates.iter().take(phones.serials.len()).flatten().max();
        let start = match longest {
            Some(longest) => confirm(longest, args.yes, "the longest of these replays takes")
                .unwrap_or_else(|e| {
                    errln!("{e:#}");
                    false
                }),
            None => false,
        };
        for tx in &goes {
            let _ = tx.send(start);
        }
        fleet::join(threads, &phones.serials)
    });
    fleet::report(&rows, true, "did not finish")
}

/// One phone of `visualize --all`: prepared, its estimate told (`None` when that failed), then
/// replayed if `go` says so; its row of the table.
fn replay_one(
    args: &VisualizeArgs,
    phones: &fleet::Phones,
    serial: &str,
    can_ask: bool,
    told: &Sender<Option<Duration>>,
    go: &Receiver<bool>,
    stop: &AtomicBool,
) -> fleet::Row {
    let mut row = fleet::Row::new(serial);
    let state_file = fleet::file_for(&args.state, serial);
    let started = std::time::Instant::now();
    let outcome = (|| -> Result<ReplayReport> {
        let readied = (|| {
            let mut device = AdbDevice::open_serial(phones.server.clone(), serial, phones.input)?;
            let claimed = claim(&mut device, "visualize", &|line: &str| {
                errln!("{serial}: {line}")
            })?;
            let ready = prepare(
                &mut device,
                args,
                &state_file,
                &format!("{serial}: "),
                can_ask,
            )?;
            anyhow::Ok((device, ready, claimed))
        })();
        let _ = told.send(readied.as_ref().ok().map(|(_, r, _)| r.estimate.total));
        // The claim is held until the replay ends.
        let (mut device, mut ready, _claim) = readied?;
        row.profile = ready.name.clone();
        row.estimated = Some(ready.estimate.total);
        if !go.recv().unwrap_or(false) {
            bail!("not started; nothing was tapped but the timing taps on given cells");
        }
        let say = |line: &str| errln!("{serial}: {line}");
        let report =
            replay(&mut device, &mut ready, (stop, &say), &mut |_, _| {}).with_context(|| {
                format!(
                    "continue with `sudoku-agent visualize -s {serial} --resume --state {}`",
                    state_file.display()
                )
            })?;
        let _ = std::fs::remove_file(&state_file);
        if let Some(order) = report.relearned_order {
            errln!("{serial}: {}", remember_order(&ready.source, order));
        }
        Ok(report)
    })();
    row.finish(started, outcome, |row, report| {
        row.moves = count(report.done as u64);
        row.taps = count(report.taps_sent as u64);
        row.replayed = Some(report.elapsed);
    })
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
            let profile = load_file(file)?;
            let img = load_screenshot(image)?;
            let rec = profile
                .read(&img)
                .result
                .map_err(|e| BoardProblem(format!("cannot read {}: {e}", image.display())))?;
            outln!("read {}: {}", image.display(), rec.board.to_line());
            rec.givens()
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
