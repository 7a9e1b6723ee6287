//! One function per subcommand, and the only place that chooses implementations (which device,
//! which strategy, which input method). Everything here wires pure stages together.

use crate::cli::{Cli, Command, DeviceArgs, DevicesArgs, ScreenshotArgs, SolveArgs};
use crate::device::adb::{AdbDevice, AdbOptions, AdbServer, NO_DEVICE_HINT, ScreenshotMode};
use crate::device::file::FileDevice;
use crate::device::{Device, DeviceSpec};
use anyhow::{Context, Result, bail};
use std::process::ExitCode;
use std::time::Instant;

/// Starts `env_logger` at the level asked for with `-v`, unless `RUST_LOG` says otherwise.
pub fn init_logging(verbose: u8) {
    let level = match verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(level))
        .format_timestamp(None)
        .init();
}

/// Runs one subcommand; `Ok` carries the exit code for outcomes that are not errors.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Read(args) => read(args),
        Command::Calibrate(args) => calibrate(args),
        Command::Solve(args) => solve(&args),
        Command::Devices(args) => devices(args),
        Command::Screenshot(args) => screenshot(args),
        Command::Play(args) => play(args),
        Command::Sim(args) => sim(args),
        Command::Visualize(args) => visualize(args),
    }
}

/// How to reach the adb server and which phone, from the device options.
pub fn adb_options(args: &DeviceArgs) -> Result<AdbOptions> {
    let serial = match (&args.device, &args.serial) {
        (DeviceSpec::AdbSerial(a), Some(b)) if a != b => {
            bail!("--device adb:{a} and -s {b} name different phones: pass only one")
        }
        (DeviceSpec::AdbSerial(a), _) => Some(a.clone()),
        (_, s) => s.clone(),
    };
    Ok(AdbOptions {
        host: args.server.host.clone(),
        port: args.server.port,
        serial,
        input: args.input.kind(),
        adb_program: None,
    })
}

/// Opens the phone the device options name: the one place that picks a `Device` implementation.
pub fn open_device(args: &DeviceArgs) -> Result<Box<dyn Device>> {
    Ok(match &args.device {
        DeviceSpec::Adb | DeviceSpec::AdbSerial(_) => {
            Box::new(AdbDevice::open(&adb_options(args)?)?)
        }
        DeviceSpec::File(path) => Box::new(FileDevice::open(path)?),
        DeviceSpec::Sim(skin) => Box::new(open_sim(skin.as_deref())?),
    })
}

/// The in-process simulated phone showing the built-in "easy" puzzle on a 1080x2340 screen.
fn open_sim(skin: Option<&str>) -> Result<crate::sim::SimDevice> {
    use crate::sim::{Phone, SimDevice, Skin, puzzles};
    let name = skin.unwrap_or(Skin::names()[0]);
    let skin = Skin::named(name).with_context(|| {
        format!(
            "the simulated phone has no skin '{name}': use one of {}",
            Skin::names().join(", ")
        )
    })?;
    let puzzle = puzzles::named("easy")
        .and_then(puzzles::parse)
        .context("the built-in puzzle 'easy' is missing")?;
    Ok(SimDevice::new(Phone::new(
        puzzle,
        skin,
        crate::geometry::Size::new(1080, 2340),
    )?))
}

/// `devices`: every phone the adb server knows, with what a user checks first.
fn devices(args: DevicesArgs) -> Result<ExitCode> {
    let options = AdbOptions {
        host: args.server.host,
        port: args.server.port,
        ..AdbOptions::default()
    };
    let server = AdbServer::connect(&options)?;
    let listed = server.devices()?;
    let mut rows = Vec::new();
    for d in &listed {
        let mut row = serde_json::json!({ "serial": d.serial, "state": d.state, "model": d.model });
        if d.state == "device" {
            match AdbDevice::open_serial(server.clone(), &d.serial, None) {
                Ok(mut phone) => {
                    let info = phone.info().clone();
                    row["model"] = info.model.clone().into();
                    row["android"] = info.release.clone().into();
                    row["sdk"] = info.sdk.into();
                    row["screen"] = phone.screen_size()?.to_string().into();
                    row["input"] = phone.input_description().into();
                }
                Err(e) => {
                    eprintln!("{}: {e:#}", d.serial);
                    row["error"] = format!("{e:#}").into();
                }
            }
        }
        rows.push(row);
    }
    if args.json {
        println!("{}", serde_json::Value::Array(rows));
        return Ok(ExitCode::SUCCESS);
    }
    if rows.is_empty() {
        eprintln!("{NO_DEVICE_HINT}");
        return Ok(ExitCode::SUCCESS);
    }
    let cell = |r: &serde_json::Value, k: &str| match &r[k] {
        serde_json::Value::String(s) if !s.is_empty() => s.clone(),
        serde_json::Value::Null => "-".to_string(),
        v if !v.is_string() => v.to_string(),
        _ => "-".to_string(),
    };
    let table: Vec<[String; 6]> = std::iter::once(
        ["SERIAL", "STATE", "MODEL", "ANDROID", "SCREEN", "INPUT"].map(String::from),
    )
    .chain(rows.iter().map(|r| {
        let android = match (&r["android"], &r["sdk"]) {
            (serde_json::Value::String(a), serde_json::Value::Number(n)) => {
                format!("{a} (API {n})")
            }
            _ => "-".into(),
        };
        [
            cell(r, "serial"),
            cell(r, "state"),
            cell(r, "model"),
            android,
            cell(r, "screen"),
            cell(r, "input"),
        ]
    }))
    .collect();
    let widths: Vec<usize> = (0..6)
        .map(|i| {
            table
                .iter()
                .map(|r| r[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for r in &table {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        println!("{}", line.join("  ").trim_end());
    }
    Ok(ExitCode::SUCCESS)
}

/// The screenshot `read` and `calibrate` work on: the `--image` file, else a fresh one from the
/// phone the device options name. Also returns how to name it in messages.
fn screen_source(
    image: Option<&std::path::Path>,
    device: &DeviceArgs,
) -> Result<(image::RgbaImage, String)> {
    match image {
        Some(path) => Ok((load_screenshot(path)?, path.display().to_string())),
        None => {
            let mut phone = open_device(device)?;
            let img = phone
                .screenshot()
                .with_context(|| format!("cannot take a screenshot of {}", device.device))?;
            Ok((img, format!("the screen of {}", device.device)))
        }
    }
}

/// Loads a screenshot file.
fn load_screenshot(path: &std::path::Path) -> Result<image::RgbaImage> {
    use anyhow::Context;
    Ok(image::open(path)
        .with_context(|| format!("cannot open screenshot {}", path.display()))?
        .to_rgba8())
}

/// `read`: prints the board on a screenshot (81 chars, then a grid; `--json` for every cell).
pub fn read(args: crate::cli::ReadArgs) -> Result<ExitCode> {
    use crate::vision::{CellKind, Templates, read_board};
    let (img, source) = screen_source(args.image.as_deref(), &args.device)?;
    // No --calibration and no calibration.toml here: read any app's screen with no calibration.
    let default = std::path::PathBuf::from("calibration.toml");
    let rec = match args
        .calibration
        .or_else(|| default.exists().then_some(default))
    {
        Some(path) => {
            let cal = crate::calibration::Calibration::load(&path)?;
            read_board(&img, &cal, &Templates::load(&cal.templates_dir(&path))?)
        }
        None => crate::vision::read_any(&img, crate::vision::Hints::default()),
    }
    .map_err(|e| anyhow::Error::new(BoardProblem(format!("cannot read {source}: {e}"))))?;
    if let Some(path) = &args.overlay {
        use anyhow::Context;
        crate::vision::overlay::draw_reading(&img, &rec)
            .save(path)
            .with_context(|| format!("cannot write overlay {}", path.display()))?;
    }
    if args.json {
        let json = serde_json::json!({
            "board": rec.board.to_line(),
            "givens": rec.givens().to_line(),
            "grid": rec.grid.rect(),
            "cells": rec.readings,
        });
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        println!("{}", rec.board.to_line());
        for (r, row) in rec.readings.chunks(9).enumerate() {
            if r % 3 == 0 && r > 0 {
                println!("---------+---------+---------");
            }
            let line: Vec<String> = row
                .chunks(3)
                .map(|b| {
                    b.iter()
                        .map(|c| match (c.digit, c.kind) {
                            (Some(d), CellKind::Entry) => format!("({d})"),
                            (Some(d), _) => format!(" {d} "),
                            (None, _) => " . ".to_string(),
                        })
                        .collect::<String>()
                })
                .collect();
            println!("{}", line.join("|"));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `screenshot`: save the current screen as a PNG.
fn screenshot(args: ScreenshotArgs) -> Result<ExitCode> {
    let started = Instant::now();
    let img = match &args.device.device {
        DeviceSpec::Adb | DeviceSpec::AdbSerial(_) => {
            let mut phone = AdbDevice::open(&adb_options(&args.device)?)?;
            if args.png {
                phone.set_screenshot_mode(ScreenshotMode::Png);
            }
            phone.screenshot()?
        }
        _ => open_device(&args.device)?.screenshot()?,
    };
    img.save_with_format(&args.output, image::ImageFormat::Png)
        .with_context(|| {
            format!(
                "cannot write {}: check the folder exists and is writable",
                args.output.display()
            )
        })?;
    eprintln!(
        "saved {} ({}x{}) in {} ms",
        args.output.display(),
        img.width(),
        img.height(),
        started.elapsed().as_millis()
    );
    Ok(ExitCode::SUCCESS)
}

/// `calibrate`: measures the app on a screenshot and writes calibration, templates and overlay.
pub fn calibrate(args: crate::cli::CalibrateArgs) -> Result<ExitCode> {
    use crate::calibrate::{CalibrateOptions, LabelSource, calibrate_image};
    use anyhow::Context;
    let mut phone = None;
    let (img, source) = match &args.image {
        Some(path) => (load_screenshot(path)?, path.display().to_string()),
        None => {
            let mut device = open_device(&args.device)?;
            let img = device
                .screenshot()
                .with_context(|| format!("cannot take a screenshot of {}", args.device.device))?;
            phone = Some(device);
            (img, format!("the screen of {}", args.device.device))
        }
    };
    let opts = CalibrateOptions {
        profile: args.profile.clone(),
        givens: args
            .givens
            .as_deref()
            .map(|g| crate::sudoku::Board::parse(g).map_err(|e| anyhow::anyhow!("--givens: {e}")))
            .transpose()?,
        erase: args.erase,
        notes: args.notes,
        input_order: match args.input_order {
            crate::cli::InputOrderArg::CellFirst => crate::calibration::InputOrder::CellFirst,
            crate::cli::InputOrderArg::NumberFirst => crate::calibration::InputOrder::NumberFirst,
        },
    };
    let mut done =
        calibrate_image(&img, &opts).with_context(|| format!("cannot calibrate on {source}"))?;
    if args.probe {
        let Some(phone) = phone.as_deref_mut() else {
            bail!("--probe needs a phone to tap (--device), not --image");
        };
        let found = crate::probe::probe(phone, &done.calibration, &done.templates)
            .context("calibrate --probe")?;
        eprintln!(
            "probed with {} in {}: {} taps, {} screenshots",
            found.digit, found.cell, found.taps, found.screenshots
        );
        done.set_controls(&img, Some(found.erase), found.notes, found.input_order)?;
    }
    let cal = &done.calibration;
    done.calibration.save(&args.out)?;
    let tdir = cal.templates_dir(&args.out);
    done.templates.save(&tdir)?;
    let overlay = args.overlay.clone().unwrap_or_else(|| {
        let stem = args
            .out
            .file_stem()
            .map_or("calibration".into(), |s| s.to_string_lossy().into_owned());
        args.out.with_file_name(format!("{stem}-overlay.png"))
    });
    done.overlay
        .save(&overlay)
        .with_context(|| format!("cannot write overlay {}", overlay.display()))?;
    let g = cal.grid;
    println!(
        "grid: {}x{} at {},{} (cell {:.1} px) on a {} screen",
        g.width,
        g.height,
        g.x,
        g.y,
        done.grid.pitch(),
        cal.screen
    );
    match &cal.keypad {
        Some(k) => {
            let keys: Vec<String> = k
                .digits
                .iter()
                .enumerate()
                .map(|(d, p)| format!("{}@{},{}", d + 1, p.x, p.y))
                .collect();
            println!("keypad: {}", keys.join(" "));
            if let Some(e) = k.erase {
                println!("erase: {},{}", e.x, e.y);
            }
            if let Some(n) = k.notes {
                println!("notes: {},{}", n.x, n.y);
            }
            if args.probe {
                let order = match cal.input_order {
                    crate::calibration::InputOrder::CellFirst => "cell-first",
                    crate::calibration::InputOrder::NumberFirst => "number-first",
                };
                println!("input order: {order} (probed)");
            }
        }
        None => println!("keypad: not found (this calibration can read boards but not tap digits)"),
    }
    let source = match done.labelled_by {
        LabelSource::Keypad => "labelled through the keypad glyphs",
        LabelSource::Givens => "labelled by --givens",
    };
    let extra = if done.from_keypad.is_empty() {
        String::new()
    } else {
        let ds: Vec<String> = done.from_keypad.iter().map(|d| d.to_string()).collect();
        format!("; digits {} taken from keypad glyphs", ds.join(","))
    };
    println!("board: {} ({source}{extra})", done.board.to_line());
    println!("wrote {}", args.out.display());
    println!("wrote {}/1.png..9.png", tdir.display());
    println!("wrote {}", overlay.display());
    Ok(ExitCode::SUCCESS)
}

/// `play`: solve the game on the phone and verify it.
pub fn play(args: crate::cli::PlayArgs) -> Result<ExitCode> {
    use crate::play::{PlayOptions, draw_plan};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    let cal = crate::calibration::Calibration::load(&args.calibration)?;
    let templates = crate::vision::Templates::load(&cal.templates_dir(&args.calibration))?;
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
        recheck_after: std::time::Duration::from_millis(500),
        pacing: cal.pacing.as_ref().map(|p| crate::device::Pacing {
            hold_ms: p.hold_ms,
            gap_ms: p.gap_ms,
            settle_ms: p.settle_ms,
        }),
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
        let mut timings = crate::play::Timings::default();
        let assessment = crate::play::assess(&screen, &cal, &templates, &options, &mut timings)?;
        screen_for_dry_run = Some(screen);
        Ok(crate::play::PlayReport {
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

/// A running simulated phone served through the adb server, with its latency preset's name.
type SimSession = (crate::sim::adb_session::AdbSim, &'static str);

/// The phone for `play` and `visualize`: `--device sim[:SKIN]` is served through the adb server
/// like a phone on a cable (its session goes into `session`, which the caller must declare
/// before the device so that the device closes first); anything else is `open_device`.
fn open_phone(
    args: &DeviceArgs,
    sim: &crate::cli::SimPhoneArgs,
    session: &mut Option<SimSession>,
) -> Result<Box<dyn Device>> {
    match &args.device {
        DeviceSpec::Sim(skin) => {
            let (device, opened) = open_sim_for_play(skin.as_deref(), sim, args)?;
            *session = opened;
            Ok(device)
        }
        _ => open_device(args),
    }
}

/// The simulated phone that `sim` and `--device sim` options describe, checked once.
struct SimSetup {
    puzzle: crate::sudoku::Board,
    skin: crate::sim::Skin,
    size: crate::geometry::Size,
    latency: crate::sim::Latency,
    faults: crate::sim::faults::Faults,
}

impl SimSetup {
    /// `flag` is how the options are spelled in messages (`--` or `--sim-`).
    fn parse(
        puzzle: &str,
        skin: &str,
        size: crate::geometry::Size,
        latency: &str,
        faults: &[String],
        flag: &str,
    ) -> Result<SimSetup> {
        use crate::sim::{Skin, puzzles};
        use anyhow::anyhow;
        let text = puzzles::named(puzzle).unwrap_or(puzzle);
        let board = puzzles::parse(text).ok_or_else(|| {
            let names: Vec<&str> = puzzles::builtin().iter().map(|(n, _)| *n).collect();
            anyhow!(
                "{flag}puzzle '{puzzle}' is neither 81 digits (with . or 0 for empty cells) nor a built-in puzzle ({})",
                names.join(", ")
            )
        })?;
        let skin = Skin::named(skin).ok_or_else(|| {
            anyhow!(
                "the simulated phone has no skin '{skin}': use one of {}",
                Skin::names().join(", ")
            )
        })?;
        Ok(SimSetup {
            puzzle: board,
            skin,
            size,
            latency: latency
                .parse()
                .map_err(|e: String| anyhow!("{flag}latency: {e}"))?,
            faults: faults
                .join(",")
                .parse()
                .map_err(|e: String| anyhow!("{flag}faults: {e}"))?,
        })
    }

    /// A fresh phone showing the puzzle, with the app-side faults switched on.
    fn phone(&self) -> Result<crate::sim::Phone> {
        let mut phone = crate::sim::Phone::new(self.puzzle, self.skin.clone(), self.size)?;
        phone.set_popup(self.faults.popup);
        phone.set_mistake_limit(self.faults.mistake_limit);
        Ok(phone)
    }
}

/// `--device sim[:SKIN]` for play: the simulated phone served on 127.0.0.1 and opened through
/// the adb server (started if none runs), like a phone on a cable; in-process, with a warning,
/// when adb is not installed. Returns the device and the running session with its preset.
#[allow(clippy::type_complexity)]
fn open_sim_for_play(
    skin: Option<&str>,
    sim: &crate::cli::SimPhoneArgs,
    args: &DeviceArgs,
) -> Result<(Box<dyn Device>, Option<SimSession>)> {
    use crate::sim::adb_session::{AdbSim, NoAdb};
    use crate::sim::{SimConfig, SimDevice, Skin};
    let setup = SimSetup::parse(
        &sim.sim_puzzle,
        skin.unwrap_or(Skin::names()[0]),
        sim.sim_size,
        &sim.sim_latency,
        &sim.sim_faults,
        "--sim-",
    )?;
    let (latency, faults) = (setup.latency.clone(), setup.faults);
    let phone = || setup.phone();
    let preset = latency.name;
    let config = SimConfig {
        port: None,
        latency,
        realtime: false,
        drop_after: faults.drop_after,
    };
    let options = AdbOptions {
        serial: None,
        ..adb_options(args)?
    };
    match AdbSim::start(phone()?, config, &options) {
        Ok(session) => {
            let device = session.open_device(args.input.kind())?;
            log::info!(
                "simulated phone {} through the adb server at {}",
                session.sim().serial(),
                session.adb_server().addr
            );
            Ok((Box::new(device), Some((session, preset))))
        }
        Err(e) if e.chain().any(|c| c.is::<NoAdb>()) => {
            eprintln!("warning: {NoAdb}");
            Ok((Box::new(SimDevice::new(phone()?)), None))
        }
        Err(e) => Err(e.context("cannot start the simulated phone behind the adb server")),
    }
}

/// `sim`: serves the simulated phone on 127.0.0.1 until Ctrl-C.
pub fn sim(args: crate::cli::SimArgs) -> Result<ExitCode> {
    use crate::sim::{SimConfig, SimServer};
    use anyhow::Context;

    let setup = SimSetup::parse(
        &args.puzzle,
        &args.skin,
        args.size,
        &args.latency,
        &args.faults,
        "--",
    )?;
    let (latency, faults) = (setup.latency.clone(), setup.faults);
    let phone = setup.phone()?;
    let preset = latency.name;
    let mut server = SimServer::start(
        phone,
        SimConfig {
            port: args.port,
            latency,
            realtime: args.realtime,
            drop_after: faults.drop_after,
        },
    )?;

    let (stop_tx, stop_rx) = std::sync::mpsc::channel();
    ctrlc::set_handler(move || {
        let _ = stop_tx.send(());
    })
    .context("could not install the Ctrl-C handler")?;

    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "serial: {}", server.serial())?;
    writeln!(out, "adb connect {}", server.serial())?;
    out.flush()?;
    drop(out);
    eprintln!(
        "simulated phone running: skin {}, {}, latency {preset}{}; Ctrl-C stops it",
        args.skin,
        args.size,
        if args.realtime { " (realtime)" } else { "" }
    );

    let mut reported_gone = false;
    loop {
        match stop_rx.recv_timeout(std::time::Duration::from_millis(200)) {
            Ok(()) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if server.is_gone() && !reported_gone {
                    reported_gone = true;
                    eprintln!(
                        "the phone dropped its connection (drop-after fault); Ctrl-C to quit"
                    );
                }
            }
        }
    }
    server.stop();
    eprintln!(
        "stopped: {} taps, {} command lines, virtual clock {:.3} s",
        server.taps().len(),
        server.command_log().len(),
        server.clock().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// Exit code for an error that reached `main`: 1 when the board could not be read or solved
/// (marked with `BoardProblem` in the chain), 2 for usage, device and I/O errors.
pub fn exit_code_for(err: &anyhow::Error) -> u8 {
    if err.chain().any(|e| e.is::<BoardProblem>()) {
        1
    } else {
        2
    }
}

/// Marks an error as "the board could not be read or solved" (exit code 1).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BoardProblem(pub String);

/// `solve`: reads one puzzle (argument, `--file` or stdin) or a list of them, solves each, prints
/// the solution, steps and time (or JSON), and exits 1 unless every puzzle was solved.
pub fn solve(args: &SolveArgs) -> Result<ExitCode> {
    use crate::sudoku::{Board, SolveOptions, is_puzzle_list, puzzle_lines, report};
    use anyhow::Context;
    use std::io::{IsTerminal, Read, Write};

    let text = match (&args.puzzle, &args.file) {
        (Some(p), _) if p != "-" => p.clone(),
        (_, Some(path)) => std::fs::read_to_string(path)
            .with_context(|| format!("cannot read puzzle file {}", path.display()))?,
        _ => {
            let mut stdin = std::io::stdin();
            if stdin.is_terminal() {
                anyhow::bail!(
                    "no puzzle given: pass one as an argument, use --file, or pipe puzzles on stdin"
                );
            }
            let mut text = String::new();
            stdin
                .read_to_string(&mut text)
                .context("cannot read stdin")?;
            text
        }
    };
    let options = SolveOptions {
        strategy: args.strategy,
        max_steps: (args.max_steps != 0).then_some(args.max_steps),
        unique: args.unique,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    // Solves one board, streaming the trace if asked: to stdout, or to stderr under --json.
    // With `record`, every event is also kept (for --gif).
    let run = |board: &Board,
               out: &mut dyn Write,
               mut record: Option<&mut Vec<crate::sudoku::SolveEvent>>|
     -> Result<crate::sudoku::Outcome> {
        use crate::sudoku::{SolveEvent, solve_with};
        use std::ops::ControlFlow;
        if !args.trace {
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
        let sink: &mut dyn Write = if args.json { &mut err } else { out };
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
    };

    if is_puzzle_list(&text) && puzzle_lines(&text).nth(1).is_some() {
        if args.gif.is_some() {
            anyhow::bail!("--gif takes a single puzzle, not a list");
        }
        let mut tally = report::Tally::default();
        let mut records = Vec::new();
        for line in puzzle_lines(&text) {
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
                        let record = serde_json::json!({"line": line.line, "outcome": "invalid", "error": why});
                        records.push(record);
                    } else {
                        writeln!(out, "line {}: invalid: {why}", line.line)?;
                    }
                    continue;
                }
            };
            let outcome = run(&board, &mut out, None)?;
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
        return Ok(ExitCode::SUCCESS);
    }

    // One puzzle: a single line (label allowed) or the 9-row form.
    let board = match puzzle_lines(&text).next() {
        Some(line) if is_puzzle_list(&text) => line.board,
        _ => Board::parse(&text),
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
    let outcome = run(&board, &mut out, args.gif.is_some().then_some(&mut events))?;
    if let Some(path) = &args.gif {
        let options = crate::visualize::gif::GifOptions {
            max_frames: args.gif_frames,
            ..Default::default()
        };
        let gif = crate::visualize::gif::search_gif(&board, &events, &options)?;
        std::fs::write(path, gif)
            .with_context(|| format!("cannot write the GIF to {}", path.display()))?;
        eprintln!("wrote {} ({} moves)", path.display(), events.len());
    }
    let description = report::describe(&outcome, args.strategy);
    if args.json {
        let doc = report::outcome_json(&board, "", args.strategy, &outcome);
        writeln!(out, "{doc:#}")?;
    } else {
        match &outcome {
            crate::sudoku::Outcome::Multiple { first, second, .. } => {
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
    match outcome {
        crate::sudoku::Outcome::Solved { .. } => Ok(ExitCode::SUCCESS),
        crate::sudoku::Outcome::Stopped {
            reason: crate::sudoku::StopReason::StepBudget { .. },
            ..
        } => Err(BoardProblem(format!(
            "{description}; raise it with --max-steps (0 = no limit)"
        ))
        .into()),
        _ => Err(BoardProblem(description).into()),
    }
}

/// `visualize`: replay the backtracking search on the phone move by move, or write it as a GIF.
pub fn visualize(args: crate::cli::VisualizeArgs) -> Result<ExitCode> {
    use crate::visualize::resume::State;
    use crate::visualize::session::{self, ReplayOptions, Session};
    use std::io::IsTerminal;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    let max_steps = (args.max_steps != 0).then_some(args.max_steps);
    if let Some(path) = &args.gif {
        return visualize_gif(&args, path, max_steps);
    }
    let cal = crate::calibration::Calibration::load(&args.calibration)?;
    let templates = crate::vision::Templates::load(&cal.templates_dir(&args.calibration))?;
    let layout = crate::play::layout(&cal)?;
    // Declared before the device so that the device (its shell sessions) goes first.
    let mut sim_session = None;
    let mut device = open_phone(&args.device, &args.sim, &mut sim_session)?;
    let description = device.input_description();
    let screen = device.screenshot().context("cannot take a screenshot")?;
    let recognition = crate::vision::read_board(&screen, &cal, &templates)
        .map_err(|e| BoardProblem(format!("cannot read the board, nothing was tapped: {e}")))?;
    let (prepared, mut state) = if args.resume {
        let state = State::load(&args.state)?;
        let prepared = session::prepare_resume(&recognition, &state)?;
        (prepared, state)
    } else {
        let prepared = session::prepare_fresh(&recognition, args.strategy, max_steps)?;
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
    let pacing = session::pacing_for(&cal, &description);
    let check_every = args.check_every as usize;
    let estimate = session::estimate(
        &moves[start..],
        cal.input_order,
        &description,
        &pacing,
        check_every,
        args.moves_per_second,
    );
    let steps_before = moves[..start]
        .iter()
        .filter(|m| matches!(m, crate::replay::Move::Set { .. }))
        .count();
    eprintln!(
        "search: {}, {} steps and {} cancels = {} moves, {} taps ({})",
        search.strategy,
        thousands(search.steps),
        thousands(search.cancels),
        thousands(moves.len() as u64),
        thousands(session::count_taps(&moves, cal.input_order) as u64),
        match cal.input_order {
            crate::calibration::InputOrder::CellFirst => "cell then digit",
            crate::calibration::InputOrder::NumberFirst => "digit then cell",
        }
    );
    if args.resume {
        if args.strategy != search.strategy {
            eprintln!(
                "note: resuming the interrupted {} search (--strategy is ignored with --resume)",
                search.strategy
            );
        }
        eprintln!(
            "resuming after move {} of {} (step {}){}",
            thousands(start as u64),
            thousands(moves.len() as u64),
            thousands(steps_before as u64),
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
    eprintln!(
        "input: {description}; estimated {} for {} moves ({:.1} moves/s), checked every {check_every} moves",
        session::human_duration(estimate.total),
        thousands(estimate.moves as u64),
        if estimate.per_move.is_zero() {
            0.0
        } else {
            1.0 / estimate.per_move.as_secs_f64()
        }
    );
    if estimate.total > std::time::Duration::from_secs(120) && !args.yes {
        let stdin = std::io::stdin();
        if !stdin.is_terminal() {
            bail!(
                "this replay takes about {}: pass --yes to start it without asking (there is no terminal to ask on), or use --strategy fast or --max-steps",
                session::human_duration(estimate.total)
            );
        }
        eprint!(
            "this takes about {}; start? [y/N] ",
            session::human_duration(estimate.total)
        );
        let mut answer = String::new();
        stdin
            .read_line(&mut answer)
            .context("cannot read the answer")?;
        if !matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
            eprintln!("nothing was tapped");
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
    let options = ReplayOptions {
        check_every,
        moves_per_second: args.moves_per_second,
        pacing,
        checkpoint_settle_ms: pacing.settle_ms,
        state_file: Some(args.state.clone()),
        ..ReplayOptions::default()
    };
    let bar = indicatif::ProgressBar::new(moves.len() as u64)
        .with_message(format!("step {}", thousands(steps_before as u64)))
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
    let mut session = Session {
        device: device.as_mut(),
        calibration: &cal,
        templates: &templates,
        layout,
    };
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
                .filter(|m| matches!(m, crate::replay::Move::Set { .. }))
                .count();
            counted = done;
            bar.set_message(format!("step {}", thousands(steps as u64)));
            bar.set_position(done as u64);
        },
    );
    bar.finish_and_clear();
    if let Some((session, preset)) = &sim_session {
        eprintln!(
            "simulated phone: {:.2} s of device time (virtual clock, latency preset {preset})",
            session.clock().as_secs_f64()
        );
    }
    let report = result?;
    let _ = std::fs::remove_file(&args.state);
    print!("{}", report.final_board);
    println!(
        "replayed {} moves ({} steps) of the {} search with {} taps via {} in {}; {} checkpoints matched the screen",
        thousands((report.done - start) as u64),
        thousands(search.steps - steps_before as u64),
        search.strategy,
        thousands(report.taps_sent as u64),
        description,
        session::human_duration(report.elapsed),
        report.checkpoints
    );
    println!("the search took {} steps", thousands(search.steps));
    Ok(ExitCode::SUCCESS)
}

/// `visualize --gif`: the search drawn locally, from --puzzle or a screenshot.
fn visualize_gif(
    args: &crate::cli::VisualizeArgs,
    path: &std::path::Path,
    max_steps: Option<u64>,
) -> Result<ExitCode> {
    let puzzle = match (&args.puzzle, &args.image) {
        (Some(text), _) => crate::sudoku::Board::parse(text)
            .map_err(|e| BoardProblem(format!("cannot read --puzzle: {e}")))?,
        (None, Some(image)) => {
            let cal = crate::calibration::Calibration::load(&args.calibration)?;
            let templates = crate::vision::Templates::load(&cal.templates_dir(&args.calibration))?;
            let img = load_screenshot(image)?;
            crate::vision::read_board(&img, &cal, &templates)
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
            crate::sudoku::report::describe_conflicts(&puzzle)
        ))
        .into());
    }
    let search = crate::visualize::session::record_search(&puzzle, args.strategy, max_steps)?;
    let options = crate::visualize::gif::GifOptions {
        max_frames: args.gif_frames,
        ..Default::default()
    };
    let gif = crate::visualize::gif::search_gif(&puzzle, &search.events, &options)?;
    std::fs::write(path, gif)
        .with_context(|| format!("cannot write the GIF to {}", path.display()))?;
    let frames = crate::visualize::gif::sampled_steps(search.events.len(), args.gif_frames).len();
    println!(
        "wrote {}: {} search, {} steps, {} moves, {frames} frames",
        path.display(),
        search.strategy,
        thousands(search.steps),
        thousands(search.events.len() as u64)
    );
    Ok(ExitCode::SUCCESS)
}

/// `12,702`.
fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod device_tests {
    use super::*;
    use crate::cli::{AdbServerArgs, InputArg};

    fn args(device: &str, serial: Option<&str>) -> DeviceArgs {
        DeviceArgs {
            device: device.parse().unwrap(),
            server: AdbServerArgs::default(),
            serial: serial.map(str::to_string),
            input: InputArg::Auto,
        }
    }

    #[test]
    fn device_sim_opens_the_simulated_phone_in_each_skin() {
        let mut phone = open_device(&args("sim:numfirst", None)).unwrap();
        assert_eq!(
            phone.screen_size().unwrap(),
            crate::geometry::Size::new(1080, 2340)
        );
        assert_eq!(phone.screenshot().unwrap().dimensions(), (1080, 2340));
        let err = open_device(&args("sim:nope", None))
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("no skin 'nope'") && err.contains("light"),
            "{err}"
        );
    }

    #[test]
    fn serial_from_device_and_dash_s_must_agree() {
        assert_eq!(
            adb_options(&args("adb:abc", None))
                .unwrap()
                .serial
                .as_deref(),
            Some("abc")
        );
        assert_eq!(
            adb_options(&args("adb", Some("xyz")))
                .unwrap()
                .serial
                .as_deref(),
            Some("xyz")
        );
        assert!(adb_options(&args("adb:abc", Some("abc"))).is_ok());
        let err = adb_options(&args("adb:abc", Some("xyz")))
            .unwrap_err()
            .to_string();
        assert!(err.contains("pass only one"), "{err}");
    }
}
