//! The `sudoku-agent` binary: parse the command line, run it, print any error chain once, and map
//! the outcome to an exit code (0 done, 1 board unreadable or unsolvable, 2 usage, device or I/O).

use clap::Parser;
use std::process::ExitCode;
use sudoku_agent::{app, cli::Cli, error};

fn main() -> ExitCode {
    let cli = Cli::parse();
    app::init_logging(cli.verbose);
    match app::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(error::exit_code_for(&err))
        }
    }
}
