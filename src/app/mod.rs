//! The command layer: one file per subcommand, each wiring pure stages together, plus `open`,
//! the one place that picks implementations (which device, the simulated phone or not, which
//! input method), `fleet`, what `play --all` and `visualize --all` share, `output`, how results
//! and diagnostics are written, and `format`, how numbers and durations are shown.

#[macro_use]
pub mod output;

mod calibrate;
mod choose;
mod devices;
mod fleet;
pub mod format;
mod open;
mod play;
mod profiles;
mod read;
mod screenshot;
mod sim;
mod solve;
mod visualize;

use crate::cli::{Cli, Command};
use anyhow::Result;
use std::process::ExitCode;

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
        Command::Read(args) => read::run(args),
        Command::Calibrate(args) => calibrate::run(args),
        Command::Solve(args) => solve::run(&args),
        Command::Devices(args) => devices::run(args),
        Command::Screenshot(args) => screenshot::run(args),
        Command::Play(args) => play::run(args),
        Command::Sim(args) => sim::run(args),
        Command::Visualize(args) => visualize::run(args),
        Command::Profiles(args) => profiles::run(args),
    }
}
