//! Every place the command layer opens a simulated phone: `--device sim[:SKIN]` in-process (for
//! `read`, `calibrate`, `screenshot`) or served through the adb server (for `play` and
//! `visualize`), and the `sim` subcommand that serves one until Ctrl-C. The only file here that
//! names the `sudoku_sim` crate.

use super::open::adb_options;
use crate::cli::{DeviceArgs, SimArgs, SimPhoneArgs};
use crate::device::Device;
use crate::device::adb::AdbOptions;
use crate::device::sim::SimDevice;
use crate::device::sim_adb::{AdbSim, NoAdb};
use crate::geometry::Size;
use anyhow::{Context, Result, anyhow};
use std::process::ExitCode;
use sudoku_sim::faults::Faults;
use sudoku_sim::{Latency, SimConfig, SimServer, Skin, SudokuApp, puzzles};

/// The in-process simulated phone showing the built-in "easy" puzzle on a 1080x2340 screen.
pub(super) fn open_in_process(skin: Option<&str>) -> Result<Box<dyn Device>> {
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
    Ok(Box::new(SimDevice::new(SudokuApp::new(
        puzzle,
        skin,
        sudoku_sim::Size::new(1080, 2340),
    )?)))
}

/// A running simulated phone served through the adb server, with its latency preset's name.
pub(super) type SimSession = (AdbSim, &'static str);

/// The simulated phone that `sim` and `--device sim` options describe, checked once.
struct SimSetup {
    puzzle: sudoku_sim::Board,
    skin: Skin,
    size: Size,
    latency: Latency,
    faults: Faults,
}

impl SimSetup {
    /// `flag` is how the options are spelled in messages (`--` or `--sim-`).
    fn parse(
        puzzle: &str,
        skin: &str,
        size: Size,
        latency: &str,
        faults: &[String],
        flag: &str,
    ) -> Result<SimSetup> {
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

    /// A fresh phone showing the puzzle, with the app-side faults and habits switched on.
    fn phone(&self) -> Result<SudokuApp> {
        let mut phone = SudokuApp::new(self.puzzle, self.skin.clone(), self.size.into())?;
        self.faults
            .apply(&mut phone)
            .map_err(|e| anyhow!("the simulated phone's faults: {e}"))?;
        Ok(phone)
    }
}

/// `--device sim[:SKIN]` for play: the simulated phone served on 127.0.0.1 and opened through
/// the adb server (started if none runs), like a phone on a cable; in-process, with a warning,
/// when adb is not installed. Returns the device and the running session with its preset.
#[allow(clippy::type_complexity)]
pub(super) fn open_through_adb(
    skin: Option<&str>,
    sim: &SimPhoneArgs,
    args: &DeviceArgs,
) -> Result<(Box<dyn Device>, Option<SimSession>)> {
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
            errln!("warning: {NoAdb}");
            Ok((Box::new(SimDevice::new(phone()?)), None))
        }
        Err(e) => Err(e.context("cannot start the simulated phone behind the adb server")),
    }
}

/// `sim`: serves the simulated phone on 127.0.0.1 until Ctrl-C.
pub(super) fn run(args: SimArgs) -> Result<ExitCode> {
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
    errln!(
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
                    errln!("the phone dropped its connection (drop-after fault); Ctrl-C to quit");
                }
            }
        }
    }
    server.stop();
    errln!(
        "stopped: {} taps, {} command lines, virtual clock {:.3} s",
        server.taps().len(),
        server.command_log().len(),
        server.clock().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
