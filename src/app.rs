//! One function per subcommand, and the only place that chooses implementations (which device,
//! which strategy, which input method). Everything here wires pure stages together.

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
    match cli.command {}
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
