//! Command-line types (clap derive) and nothing else; doc comments become `--help`.

use crate::device::{DeviceSpec, InputKind};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

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
pub enum Command {
    /// List attached phones: serial, state, model, Android version, screen size, input method.
    Devices(DevicesArgs),
    /// Save the phone's screen as a PNG.
    Screenshot(ScreenshotArgs),
}

/// Where the adb server is.
#[derive(Debug, Clone, Default, Args)]
pub struct AdbServerArgs {
    /// Host of the adb server [default: 127.0.0.1].
    #[arg(short = 'H', long = "adb-host", value_name = "HOST")]
    pub host: Option<String>,
    /// Port of the adb server [default: $ANDROID_ADB_SERVER_PORT, else 5037]. A local server is
    /// started when none runs.
    #[arg(short = 'P', long = "adb-port", value_name = "PORT")]
    pub port: Option<u16>,
}

/// Which phone to use and how to tap it; flattened into every subcommand that needs a phone.
#[derive(Debug, Clone, Args)]
pub struct DeviceArgs {
    /// The phone: adb (a phone through the adb server), adb:SERIAL, sim[:SKIN] (the built-in
    /// simulated phone) or file:SCREENSHOT.png (read a picture, record taps).
    #[arg(long, value_name = "SPEC", default_value = "adb")]
    pub device: DeviceSpec,
    #[command(flatten)]
    pub server: AdbServerArgs,
    /// Serial of the phone as `adb devices` lists it [default: $ANDROID_SERIAL, else the only
    /// phone attached].
    #[arg(short = 's', long = "serial", value_name = "SERIAL")]
    pub serial: Option<String>,
    /// How taps reach the phone: auto picks the fastest it allows (evdev on Android 9 and older
    /// where permitted, stream on Android 12+, else batch).
    #[arg(long, value_enum, value_name = "METHOD", default_value_t = InputArg::Auto)]
    pub input: InputArg,
}

/// `--input` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum InputArg {
    /// Probe the phone and pick the fastest method.
    Auto,
    /// One `input tap` per adb command (slow, works everywhere).
    Tap,
    /// Many `input tap`s per adb command.
    Batch,
    /// `cmd input tap` lines into one long-lived shell (Android 12+).
    Stream,
    /// Raw touchscreen events written to /dev/input (Android 9 and older, or rooted).
    Evdev,
}

impl InputArg {
    /// The method asked for; `None` for auto.
    pub fn kind(self) -> Option<InputKind> {
        match self {
            InputArg::Auto => None,
            InputArg::Tap => Some(InputKind::Tap),
            InputArg::Batch => Some(InputKind::Batch),
            InputArg::Stream => Some(InputKind::Stream),
            InputArg::Evdev => Some(InputKind::Evdev),
        }
    }
}

#[derive(Debug, Clone, Args)]
pub struct DevicesArgs {
    #[command(flatten)]
    pub server: AdbServerArgs,
    /// Print JSON (one array of objects) instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Args)]
pub struct ScreenshotArgs {
    #[command(flatten)]
    pub device: DeviceArgs,
    /// Where to write the PNG.
    #[arg(short, long, value_name = "PNG", default_value = "screenshot.png")]
    pub output: PathBuf,
    /// Ask the phone for a PNG (`screencap -p`) instead of raw pixels: slower, for phones whose
    /// raw format cannot be read.
    #[arg(long)]
    pub png: bool,
}
