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
    /// Read the board from a screenshot: prints it as 81 characters and as a 9x9 grid
    /// (entries in parentheses); exit code 1 when it cannot be read exactly.
    Read(ReadArgs),
    /// Measure the app on screen now: find the grid and keypad, cut digit templates (and, with
    /// --probe, try the input order, erase and notes). On a phone it is stored as the app's
    /// profile, the one play, visualize and read use next; with --out, or on a screenshot file,
    /// a calibration file is written instead (for --calibration), with an overlay to check.
    Calibrate(CalibrateArgs),
    /// Solve a puzzle (or a list of puzzles) and print the solution, the steps and the time.
    Solve(SolveArgs),
    /// List attached phones: serial, state, model, Android version, screen size, input method.
    Devices(DevicesArgs),
    /// Save the phone's screen as a PNG.
    Screenshot(ScreenshotArgs),
    /// Solve the game on the phone: capture, read, solve, tap the solution in, verify.
    Play(PlayArgs),
    /// Run the simulated phone: a fake ADB device on 127.0.0.1 showing a sudoku app.
    Sim(SimArgs),
    /// Replay the backtracking search on the phone move by move (every set and every cancel),
    /// with a step counter; or write it as an animated GIF with --gif (no phone needed).
    Visualize(VisualizeArgs),
    /// The apps learned so far (one profile per app package and screen size, in the user's
    /// config directory or $SUDOKU_AGENT_CONFIG_DIR): list them, show one, remove one.
    Profiles(ProfilesArgs),
}

/// Arguments of `profiles`.
#[derive(Debug, Args)]
pub struct ProfilesArgs {
    #[command(subcommand)]
    pub action: Option<ProfilesAction>,
}

/// What `profiles` does (list when none is given).
#[derive(Debug, Subcommand)]
pub enum ProfilesAction {
    /// List the stored profiles: name (package-WxH), input order, erase, where stored.
    List,
    /// Print one profile (its profile.toml) and where its templates are.
    Show {
        /// The profile's name, as `profiles list` prints it.
        name: String,
    },
    /// Delete one profile; the app is learned again the next time it is played.
    Remove {
        /// The profile's name, as `profiles list` prints it.
        name: String,
    },
}

/// Arguments of `play`.
#[derive(Debug, Args)]
#[command(
    after_help = "Exit status: 0 solved and verified, 1 the board could not be read, solved or verified, 2 usage or device error."
)]
pub struct PlayArgs {
    #[command(flatten)]
    pub device: DeviceArgs,
    /// Calibration of the app (its templates folder is resolved next to it), instead of the
    /// profile of the app on screen, which is learned and stored the first time.
    #[arg(long, value_name = "TOML")]
    pub calibration: Option<std::path::PathBuf>,
    /// Print the planned taps and draw them over the screenshot (see --overlay) without
    /// touching the phone.
    #[arg(long)]
    pub dry_run: bool,
    /// Where --dry-run draws the planned taps.
    #[arg(long, value_name = "PNG", default_value = "plan.png")]
    pub overlay: std::path::PathBuf,
    /// Refuse instead of correcting player entries that disagree with the solution.
    #[arg(long)]
    pub keep_entries: bool,
    /// When the givens have several completions (a variant's extra rule, or an app that allows
    /// several answers), fill one of them; the app may want another and count each cell where
    /// they differ as a mistake. Without it only the cells every completion agrees on are filled.
    #[arg(long)]
    pub any_solution: bool,
    /// Play on every phone attached to the adb server at once (a thread per phone) and print one
    /// table. Each phone uses the profile of the app on its screen (learned when missing);
    /// --calibration may name a file or a folder instead: each phone then uses the *.toml in it
    /// that reads its screen best.
    #[arg(long)]
    pub all: bool,
    /// When an ad or a dialog covers the board mid-play: seconds to wait for it to be closed
    /// (by hand; the agent never taps it) before giving up.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 60.0,
        value_parser = parse_wait,
        allow_negative_numbers = true,
    )]
    pub wait: f64,
    /// A first screenshot older than this (milliseconds) is taken again before the first tap.
    /// Hidden: for tests, whose timing must not depend on how loaded the machine is.
    #[arg(long, value_name = "MS", default_value_t = 500, hide = true)]
    pub recheck_after_ms: u64,
    /// Print a JSON summary on stdout.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub sim: SimPhoneArgs,
}

/// The simulated phone of `--device sim[:SKIN]`: served on 127.0.0.1 and reached through the adb
/// server (-H/-P), like a phone on a cable.
#[derive(Debug, Clone, Args)]
pub struct SimPhoneArgs {
    /// With --device sim: the puzzle on the simulated phone, a built-in name (easy, easy2,
    /// medium, hard, l52, escargot) or 81 characters.
    #[arg(long, value_name = "NAME|81CHARS", default_value = "easy")]
    pub sim_puzzle: String,
    /// With --device sim: what device work costs on its virtual clock: instant, android9,
    /// android10, android12 or android14 (reported at the end next to the host time).
    #[arg(long, value_name = "PRESET", default_value = "instant")]
    pub sim_latency: String,
    /// With --device sim: its screen size (720x1280, 1080x2340, 1440x3200, or a scaled-down
    /// 320x640).
    #[arg(long, value_name = "WxH", default_value = "1080x2340")]
    pub sim_size: crate::geometry::Size,
    /// With --device sim: faults and habits to switch on, comma-separated. Faults: popup,
    /// drop-after=N, mistake-limit=N, ad-after=N. App habits: end-card, fade=MS, pop=MS, lives=N,
    /// flash=N, flash-ms=MS, flash-unseen, wrong-start, same-ink, keep-notes, notes-on, selected-key[=D],
    /// key-look=filled|outlined|disc, intro=MS, wrong-pair, banner=N, pause-card, multi-answer,
    /// jigsaw, tiles. Phone habits: lag=MS, screen-off, screen-off-after=N, lock-screen,
    /// input-refused[=N].
    #[arg(long, value_name = "FAULTS", value_delimiter = ',')]
    pub sim_faults: Vec<String>,
}

/// Where the adb server is.
#[derive(Debug, Clone, Default, Args)]
pub struct AdbServerArgs {
    /// Host of the adb server [default: 127.0.0.1].
    #[arg(short = 'H', long = "adb-host", value_name = "HOST")]
    pub host: Option<String>,
    /// Port of the adb server [default: $ANDROID_ADB_SERVER_PORT, else 5037]. A local server is
    /// started when none runs.
    #[arg(
        short = 'P',
        long = "adb-port",
        value_name = "PORT",
        value_parser = parse_adb_port,
        allow_negative_numbers = true,
    )]
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
    /// How taps reach the phone: auto picks the fastest it allows (inject when our on-device
    /// injector starts, else evdev on Android 9 and older where permitted, stream on Android
    /// 12+, else batch).
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
    /// Our on-device injector, pushed to /data/local/tmp and run with app_process: a few ms per
    /// tap (any Android where the phone allows injection).
    Inject,
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
            InputArg::Inject => Some(InputKind::Inject),
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

/// Arguments of `read`.
#[derive(Debug, clap::Args)]
pub struct ReadArgs {
    /// Screenshot to read (PNG or JPEG), instead of taking one from the phone.
    #[arg(long, value_name = "PNG", conflicts_with_all = SCREEN_SOURCE_ARGS)]
    pub image: Option<std::path::PathBuf>,
    /// The phone to take the screenshot from (when no --image is given).
    #[command(flatten)]
    pub device: DeviceArgs,
    /// Calibration file (its templates folder is resolved next to it) [default: with --image,
    /// calibration.toml; on a phone, the profile of the app on screen, learned the first time].
    #[arg(long, value_name = "TOML")]
    pub calibration: Option<std::path::PathBuf>,
    /// Print JSON with every cell's digit, kind, score and margin.
    #[arg(long)]
    pub json: bool,
    /// Also draw what was read over the screenshot into this PNG.
    #[arg(long, value_name = "PNG")]
    pub overlay: Option<std::path::PathBuf>,
}

/// Arguments of `calibrate`.
#[derive(Debug, clap::Args)]
pub struct CalibrateArgs {
    /// Screenshot of the app showing a puzzle (PNG or JPEG), instead of taking one from the phone.
    #[arg(long, value_name = "PNG", conflicts_with_all = SCREEN_SOURCE_ARGS)]
    pub image: Option<std::path::PathBuf>,
    /// The phone to take the screenshot from (when no --image is given).
    #[command(flatten)]
    pub device: DeviceArgs,
    /// Find the erase button and the input order by trying them on the phone: selects an empty
    /// cell, enters a digit, tries the buttons until one clears it, and leaves the board as it
    /// was (checked by a final read).
    #[arg(long, conflicts_with_all = ["image", "erase", "notes", "input_order"])]
    pub probe: bool,
    /// The board's big digits, 81 characters row by row ('.' or '0' empty), to label the
    /// templates when the keypad cannot.
    #[arg(long, value_name = "81 CHARS")]
    pub givens: Option<String>,
    /// Template folder name of a calibration file: templates go to templates/<profile>/ next to
    /// --out [default: the name of --out without .toml, `default` for calibration.toml], so
    /// calibrations written to different files keep their own templates. (A phone's profile is
    /// named after its app and screen size.)
    #[arg(long, value_parser = parse_profile)]
    pub profile: Option<String>,
    /// Write a calibration file here (for --calibration) instead of storing the app's profile
    /// [default: the profile on a phone; calibration.toml from --image or a file: device].
    #[arg(long, value_name = "TOML")]
    pub out: Option<std::path::PathBuf>,
    /// Centre of the erase button, as X,Y screen pixels.
    #[arg(long, value_name = "X,Y", value_parser = parse_point)]
    pub erase: Option<crate::geometry::Point>,
    /// Centre of the notes (pencil) toggle, as X,Y screen pixels.
    #[arg(long, value_name = "X,Y", value_parser = parse_point)]
    pub notes: Option<crate::geometry::Point>,
    /// How the app takes a digit: tap the cell then the digit, or the digit then the cell.
    #[arg(long, value_enum, default_value = "cell-first")]
    pub input_order: InputOrderArg,
    /// Overlay picture path [default: next to --out, named <out>-overlay.png; overlay.png in
    /// the profile's folder].
    #[arg(long, value_name = "PNG")]
    pub overlay: Option<std::path::PathBuf>,
}

/// Options that pick the phone; `--image` excludes them (one screenshot source only).
const SCREEN_SOURCE_ARGS: [&str; 4] = ["device", "serial", "host", "port"];

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum InputOrderArg {
    CellFirst,
    NumberFirst,
}

/// A profile name that is safe as a folder name (see `check_profile_name`).
pub fn parse_profile(s: &str) -> Result<String, String> {
    crate::profile::calibration::check_profile_name(s)?;
    Ok(s.to_string())
}

fn parse_point(s: &str) -> Result<crate::geometry::Point, String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("'{s}' is not a point like 540,1900"))?;
    let n = |v: &str| {
        v.trim()
            .parse::<u32>()
            .map_err(|_| format!("'{s}' is not a point like 540,1900"))
    };
    Ok(crate::geometry::Point::new(n(x)?, n(y)?))
}

/// Input and search options of `solve`.
#[derive(Debug, Args)]
#[command(
    after_help = "Exit status: 0 solved, 1 unsolvable, invalid, ambiguous (--unique) or stopped, 2 usage."
)]
pub struct SolveArgs {
    /// The puzzle: 81 characters, 1-9 for givens and . or 0 for empty cells. Without it (or with
    /// `-`), the puzzle is read from --file or stdin.
    pub puzzle: Option<String>,

    /// Read from this file: one 81-character puzzle per line (a label may follow after a space;
    /// `#` starts a comment), or one board written as 9 rows of 9.
    #[arg(short, long, conflicts_with = "puzzle")]
    pub file: Option<PathBuf>,

    /// Search strategy.
    #[arg(short, long, value_enum, default_value_t = crate::sudoku::Strategy::Fast)]
    pub strategy: crate::sudoku::Strategy,

    /// Print every set and cancel move as it happens (to stderr with --json).
    #[arg(long)]
    pub trace: bool,

    /// Print machine-readable JSON on stdout.
    #[arg(long)]
    pub json: bool,

    /// Prove the solution is unique by searching for a second one.
    #[arg(long)]
    pub unique: bool,

    /// Solve each puzzle with every strategy (naive, mrv, fast) under the same --max-steps and
    /// print their steps (sets / cancels) and times side by side; with --json, as JSON.
    #[arg(long, conflicts_with_all = ["strategy", "trace", "gif"])]
    pub compare: bool,

    /// Give up after this many steps (set moves) per puzzle; 0 means no limit.
    #[arg(long, value_name = "N", default_value_t = crate::sudoku::DEFAULT_MAX_STEPS)]
    pub max_steps: u64,

    /// Also write the search as an animated GIF (one puzzle only; long searches are sampled).
    #[arg(long, value_name = "OUT.gif")]
    pub gif: Option<PathBuf>,

    /// Most frames in the GIF; longer searches are sampled evenly.
    #[arg(long, value_name = "N", default_value_t = 300, requires = "gif")]
    pub gif_frames: usize,
}

impl clap::ValueEnum for crate::sudoku::Strategy {
    fn value_variants<'a>() -> &'a [Self] {
        &crate::sudoku::Strategy::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        use crate::sudoku::Strategy;
        let help = match self {
            Strategy::Naive => "textbook backtracking: row-major cells, digits 1-9, no deduction",
            Strategy::Mrv => {
                "most-constrained cell first (fewest candidates, ties row-major), digits ascending, no deduction"
            }
            Strategy::Fast => {
                "candidate bitmasks, naked and hidden singles, locked candidates, fewest-candidate cell first"
            }
        };
        Some(clap::builder::PossibleValue::new(self.name()).help(help))
    }
}

/// Run the simulated phone in the foreground: a fake ADB device on 127.0.0.1 showing a sudoku
/// app, for `adb connect`. Ctrl-C stops it.
#[derive(Debug, clap::Args)]
pub struct SimArgs {
    /// The puzzle: 81 characters (digits, `.` or `0` for empty) or a built-in name (easy, easy2,
    /// medium, hard, l52, escargot).
    #[arg(long, default_value = "easy")]
    pub puzzle: String,
    /// The app's look: light, dark, thick (3x3 keypad), numfirst (number-first input), wood,
    /// edge (grid edge to edge, bare digits and an icon column), discs (small digits in discs,
    /// keys with counters), shaded (no grid lines, cells told apart by shading), tiles (rounded
    /// tiles with gaps, no lines, number-first) or card (a board on a rounded card, dark).
    #[arg(long, default_value = "light")]
    pub skin: String,
    /// Screen size in pixels: 720x1280, 1080x2340, 1440x3200 or a scaled-down 320x640.
    #[arg(long, default_value = "1080x2340")]
    pub size: crate::geometry::Size,
    /// What device work costs on the virtual clock: instant (nothing; /dev/input writable),
    /// android9 (`input` 300 ms, raw events allowed), android10 (`input` 300 ms, no `cmd input`,
    /// /dev/input refused), android12 (`input` 50 ms, /dev/input refused) or android14 (as 12,
    /// injection through InputManagerGlobal); app_process 300 ms, an injected tap 5.6 ms.
    #[arg(long, default_value = "instant")]
    pub latency: String,
    /// Really sleep for the modelled costs, as a phone would take them.
    #[arg(long)]
    pub realtime: bool,
    /// Port on 127.0.0.1 (default: a free one). 5555-5585 are refused: adb scans them for
    /// emulators and the phone would show up twice.
    #[arg(long)]
    pub port: Option<u16>,
    /// Faults, comma-separated: popup (a dialog covers the grid), drop-after=N (the device
    /// vanishes on command line N+1), mistake-limit=N (wrong digits are rejected), ad-after=N;
    /// the app's habits: end-card, fade=MS, pop=MS, lives=N, flash=N, flash-ms=MS, flash-unseen,
    /// wrong-start, same-ink, keep-notes, notes-on, selected-key[=D], key-look=filled|outlined|disc,
    /// intro=MS, wrong-pair, banner=N, pause-card, multi-answer, jigsaw, tiles; the phone's:
    /// lag=MS, screen-off, screen-off-after=N, lock-screen, input-refused[=N].
    #[arg(long, value_delimiter = ',')]
    pub faults: Vec<String>,
}

/// Arguments of `visualize`.
#[derive(Debug, Args)]
#[command(
    after_help = "Exit status: 0 replayed and verified, 1 the board could not be read or solved, or the screen stopped matching the search, 2 usage, device error or stopped."
)]
pub struct VisualizeArgs {
    #[command(flatten)]
    pub device: DeviceArgs,
    #[command(flatten)]
    pub sim: SimPhoneArgs,
    /// Replay on every phone attached to the adb server at once (a thread per phone, each with
    /// its own profile and state file: the serial is added to --state's name) and print one
    /// table with each phone's estimate and replay time; one question when any replay is long.
    #[arg(long, conflicts_with = "gif")]
    pub all: bool,
    /// Calibration of the app (its templates folder is resolved next to it) [default: with
    /// --gif --image, calibration.toml; on a phone, the profile of the app on screen, learned
    /// the first time].
    #[arg(long, value_name = "TOML")]
    pub calibration: Option<PathBuf>,
    /// Search strategy to show: naive is the textbook search (many steps), fast the clever one.
    #[arg(long, value_enum, default_value_t = crate::sudoku::Strategy::Naive)]
    pub strategy: crate::sudoku::Strategy,
    /// Refuse searches of more steps (set moves) than this; 0 means no limit.
    #[arg(long, value_name = "N", default_value_t = crate::sudoku::DEFAULT_MAX_STEPS)]
    pub max_steps: u64,
    /// Slow the replay down to at most this many moves per second [default: as fast as the
    /// input method allows, with the calibration's [pacing] when it has one].
    #[arg(long, value_name = "RATE", value_parser = parse_rate)]
    pub moves_per_second: Option<f64>,
    /// Re-read the screen and compare it with the replayed board every N moves (and at the end).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 200,
        value_parser = parse_check_every,
        allow_negative_numbers = true,
    )]
    pub check_every: u64,
    /// Start without asking, however long the replay takes.
    #[arg(short, long)]
    pub yes: bool,
    /// Continue an interrupted run: re-read the board on screen and carry on from the step it
    /// shows, with no move repeated.
    #[arg(long)]
    pub resume: bool,
    /// Progress file written during the run, read by --resume.
    #[arg(long, value_name = "FILE", default_value = "visualize-progress.json")]
    pub state: PathBuf,
    /// Write the search as an animated GIF instead of replaying it on the phone (from --puzzle
    /// or --image; no phone needed).
    #[arg(long, value_name = "OUT.gif")]
    pub gif: Option<PathBuf>,
    /// The puzzle for --gif: 81 characters, 1-9 for givens and . or 0 for empty cells.
    #[arg(
        long,
        value_name = "81 CHARS",
        requires = "gif",
        conflicts_with = "image"
    )]
    pub puzzle: Option<String>,
    /// A screenshot to read the puzzle from for --gif (with --calibration).
    #[arg(long, value_name = "PNG", requires = "gif")]
    pub image: Option<PathBuf>,
    /// Most frames in the GIF; longer searches are sampled evenly.
    #[arg(long, value_name = "N", default_value_t = 300)]
    pub gif_frames: usize,
}

/// Slowest and fastest `--moves-per-second` accepted: one move per 100 s to a million a second.
/// Below the floor the pause per move no longer fits a `Duration` (1e-20 panicked).
pub const RATE_RANGE: std::ops::RangeInclusive<f64> = 0.01..=1_000_000.0;

/// A finite number of moves per second within [`RATE_RANGE`].
fn parse_rate(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(r) if RATE_RANGE.contains(&r) => Ok(r),
        _ => Err(format!(
            "--moves-per-second '{s}' is not a rate from {} to {} moves per second, like 5 or 0.5",
            RATE_RANGE.start(),
            RATE_RANGE.end()
        )),
    }
}

/// `-P`: the adb server's port, 1 to 65535; 0 would reach adb as a variable the user never set
/// ("$ANDROID_ADB_SERVER_PORT must be a positive number").
fn parse_adb_port(s: &str) -> Result<u16, String> {
    match s.trim().parse::<u16>() {
        Ok(port) if port > 0 => Ok(port),
        _ => Err(
            "-P/--adb-port is the port of the adb server (adb's default is 5037): pass a number from 1 to 65535"
                .into(),
        ),
    }
}

/// `--check-every`: moves between two reads of the screen, 1 or more.
fn parse_check_every(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(
            "--check-every is the number of moves replayed between two reads of the screen: pass a whole number, 1 or more (default 200)"
                .into(),
        ),
    }
}

/// `--wait`: seconds to wait for a cover over the board to go, 0 or more (and few enough for a
/// `Duration`).
fn parse_wait(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(secs) if std::time::Duration::try_from_secs_f64(secs).is_ok() => Ok(secs),
        _ => Err(
            "--wait is how long to wait for an ad or a dialog over the board to be closed: pass a number of seconds, 0 or more, like 60 or 0.5"
                .into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// The habit names the simulated phone takes, from its own help line.
    fn sim_habit_names() -> Vec<&'static str> {
        sudoku_sim::habits::HABITS_HELP
            .trim_start_matches("habits are ")
            .split(", ")
            .map(|item| item.split(['=', '[']).next().unwrap_or(item).trim())
            .collect()
    }

    #[test]
    fn the_help_of_both_sim_fault_flags_names_every_habit_the_simulated_phone_has() {
        let mut cli = Cli::command();
        for command in ["play", "sim"] {
            let help = cli
                .find_subcommand_mut(command)
                .expect("a subcommand")
                .render_long_help()
                .to_string()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            for habit in sim_habit_names() {
                assert!(
                    help.contains(habit),
                    "`{command} --help` lacks the habit {habit}"
                );
            }
        }
    }
}
