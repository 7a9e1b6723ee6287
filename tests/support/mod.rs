//! What the integration tests share: a private adb server per test binary, the simulated phone
//! and calibration rigs, `../shared` beside the checkout, and the one way to run the
//! `sudoku-agent` binary.

// Helpers for both crates' tests: the simulated phone's crate keeps them.
#[path = "../../sim/tests/support/adb_server.rs"]
pub mod adb_server;
pub mod boards;
// The reader's helpers for its real screenshots: the reader's crate keeps them (only some of
// their functions are used here).
#[allow(dead_code)]
#[path = "../../reader/tests/support/perturb.rs"]
pub mod perturb;
pub mod play_rig;
#[path = "../../sim/tests/support/proptest_config.rs"]
pub mod proptest_config;
#[allow(dead_code)]
#[path = "../../reader/tests/support/screens.rs"]
pub mod screens;
pub mod shared;
pub mod sim_phone;
pub mod sim_sweep;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use sudoku_agent::calibrate::{CalibrateOptions, Calibrated, calibrate_image};

/// A fresh folder of its own under the system temp dir. Every test of this binary runs in one
/// process, in parallel threads: a folder named by the process id alone was shared, and two tests
/// writing the same templates raced (one read a half-written `4.png`).
pub fn temp_dir(name: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("sudoku-agent-{name}-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The `sudoku-agent` binary, kept off the caller's phones and adb server (`ANDROID_SERIAL`,
/// `ANDROID_ADB_SERVER_PORT` removed), with a config dir of its own, and without a terminal on
/// stdin.
pub fn agent() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sudoku-agent"));
    c.env_remove("ANDROID_SERIAL")
        .env_remove("ANDROID_ADB_SERVER_PORT")
        // Profiles learned in a test stay in the test: never the user's config dir, and never
        // one test's profile in another (tests that reuse one set their own dir after this).
        .env("SUDOKU_AGENT_CONFIG_DIR", temp_dir("config"))
        .stdin(Stdio::null());
    c
}

/// Runs `command` to its end: exit code (-1 when killed by a signal), stdout, stderr.
pub fn outcome(command: &mut Command) -> (i32, String, String) {
    let Output {
        status,
        stdout,
        stderr,
    } = command
        .output()
        .unwrap_or_else(|e| panic!("{command:?} runs: {e}"));
    (
        status.code().unwrap_or(-1),
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    )
}

/// `img` calibrated as `calibrate` does by default (digits labelled through the keypad), under
/// a test profile name.
pub fn calibrate(img: &image::RgbaImage) -> Calibrated {
    let opts = CalibrateOptions {
        profile: "t".into(),
        ..Default::default()
    };
    calibrate_image(img, &opts).unwrap_or_else(|e| panic!("{e:#}"))
}

/// Runs `command`, which must exit 0 (the test fails with its stderr otherwise): its stdout.
pub fn stdout_of_success(command: &mut Command) -> String {
    let (code, out, err) = outcome(command);
    assert_eq!(code, 0, "{command:?}: {err}");
    out
}

/// Every frame of the animated GIF at `path`, decoded.
pub fn gif_frames(path: &std::path::Path) -> Vec<image::Frame> {
    use image::AnimationDecoder;
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    image::codecs::gif::GifDecoder::new(std::io::BufReader::new(file))
        .unwrap()
        .into_frames()
        .collect_frames()
        .unwrap()
}

/// The lines of `text` (a command's stderr, mostly) that contain `needle`.
pub fn lines_with<'a>(text: &'a str, needle: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.contains(needle)).collect()
}

/// `sudoku-agent play` in `dir` on the simulated phone `sim` through the adb server on `port`,
/// with the calibration at `calibration` and `extra` arguments: exit code, stdout, stderr.
pub fn play_cli(
    dir: &std::path::Path,
    port: u16,
    sim: &sudoku_sim::SimServer<sudoku_sim::SudokuApp>,
    calibration: &std::path::Path,
    extra: &[&str],
) -> (i32, String, String) {
    let mut play = agent();
    play.current_dir(dir)
        .args(["play", "-P", &port.to_string(), "-s", &sim.serial()])
        .arg("--calibration")
        .arg(calibration)
        .args(extra);
    outcome(&mut play)
}

/// Runs `command` with `input` on its stdin to its end: its output. A command may exit before
/// reading all of `input` (a refusal): the broken pipe is not an error here.
pub fn fed(command: &mut Command, input: &str) -> Output {
    use std::io::Write;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{command:?} runs: {e}"));
    let mut stdin = child.stdin.take().expect("a piped stdin");
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// Runs `command` with its stdout, its stderr or both closed from the start (`2>&1 | head -0`
/// and the like): its output, what was not closed captured.
pub fn into_closed(command: &mut Command, stdout: bool, stderr: bool) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{command:?} runs: {e}"));
    if stdout {
        drop(child.stdout.take());
    }
    if stderr {
        drop(child.stderr.take());
    }
    child.wait_with_output().unwrap()
}

/// `sudoku-agent ARGS --gif FILE`, which must exit 0, with FILE in a fresh folder named for
/// `name`: FILE and the command's stdout.
pub fn gif_of(name: &str, args: &[&str]) -> (PathBuf, String) {
    let path = temp_dir(name).join("search.gif");
    let stdout = stdout_of_success(agent().args(args).arg("--gif").arg(&path));
    (path, stdout)
}

/// `text` (a command's output, an error) mentions every one of `words`: the test fails naming
/// the first missing one and showing `text` otherwise.
pub fn assert_mentions(text: &str, words: &[&str]) {
    if let Some(missing) = words.iter().find(|w| !text.contains(*w)) {
        panic!("{missing:?} is not in: {text}");
    }
}
