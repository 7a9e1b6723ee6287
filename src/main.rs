//! The `sudoku-agent` binary: parse the command line, run it, print any error chain once, and map
//! the outcome to an exit code (0 done, 1 board unreadable or unsolvable, 2 usage, device or I/O).

use clap::Parser;
use std::io::Write;
use std::process::ExitCode;
use sudoku_agent::{app, cli::Cli, error};

fn main() -> ExitCode {
    let cli = Cli::parse();
    app::init_logging(cli.verbose);
    match app::run(cli) {
        Ok(code) => code,
        // The reader of stdout went away (`| head -1`): it has what it wanted, so exit quietly.
        Err(err) if app::output::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // One line, whatever a serial or a phone's answer inside it contains.
            // Ignored if stderr is closed too: there is nobody left to tell.
            let _ = writeln!(
                std::io::stderr(),
                "error: {}",
                error::one_line(&format!("{err:#}"))
            );
            ExitCode::from(error::exit_code_for(&err))
        }
    }
}
