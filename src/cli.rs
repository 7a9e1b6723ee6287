//! Command-line types (clap derive) and nothing else; doc comments become `--help`.

use clap::{Parser, Subcommand};

/// Plays sudoku on an Android phone over ADB: reads the screen, solves the puzzle, taps the
/// answer in, and can replay the backtracking search move by move.
#[derive(Debug, Parser)]
#[command(name = "sudoku-agent", version, propagate_version = true)]
pub struct Cli {
    /// More diagnostics on stderr (-v info, -vv debug, -vvv trace).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {}
