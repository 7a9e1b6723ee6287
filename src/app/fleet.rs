//! `play --all`: every phone attached to the adb server at once, a thread per phone, each with
//! the profile of the app on its screen (learned when missing, exactly as `play` does) or, with
//! `--calibration FILE|DIR`, the given calibration that reads its screen best; one summary table.
//! The adb server is the fleet layer (a USB hub host running `adb -a nodaemon server`, or STF's
//! remote connect): `-H/-P` reach it wherever it runs.

use super::open::adb_options;
use super::profiles::{Chosen, profile_for};
use crate::calibration::Calibration;
use crate::cli::PlayArgs;
use crate::device::Device;
use crate::device::adb::{AdbDevice, AdbServer, NO_DEVICE_HINT};
use crate::play::{PlayOptions, play};
use crate::vision::{Templates, read_board};
use anyhow::{Context, Result, anyhow, bail};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A calibration the fleet may use, with its templates.
struct Candidate {
    path: PathBuf,
    cal: Calibration,
    templates: Templates,
}

/// One phone's line of the summary.
struct Row {
    serial: String,
    /// The profile's name, or the calibration file's.
    profile: String,
    moves: String,
    taps: String,
    seconds: f64,
    result: Result<(), String>,
}

/// The calibrations named by `--calibration`: the file, or every `*.toml` in the folder.
fn candidates(path: &Path) -> Result<Vec<Candidate>> {
    let files: Vec<PathBuf> = if path.is_dir() {
        let mut v: Vec<PathBuf> = std::fs::read_dir(path)
            .with_context(|| format!("cannot list {}", path.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        v.sort();
        v
    } else {
        vec![path.to_path_buf()]
    };
    let loaded: Vec<Candidate> = files
        .into_iter()
        .map(|path| {
            let cal = Calibration::load(&path)?;
            let templates = Templates::load(&cal.templates_dir(&path))?;
            Ok(Candidate {
                path,
                cal,
                templates,
            })
        })
        .collect::<Result<_>>()?;
    if loaded.is_empty() {
        bail!(
            "no calibration (*.toml) in {}: run `sudoku-agent calibrate --out {}/APP.toml` for each app",
            path.display(),
            path.display()
        );
    }
    Ok(loaded)
}

/// `play --all`.
pub(super) fn run(args: &PlayArgs, options: &PlayOptions) -> Result<ExitCode> {
    if args.dry_run {
        bail!("--dry-run shows one phone's plan: pass -s SERIAL instead of --all");
    }
    let mut adb = adb_options(&args.device)?;
    if adb.serial.is_some() {
        bail!("--all plays every attached phone: drop -s / adb:SERIAL, or drop --all");
    }
    adb.serial = None;
    let server = AdbServer::connect(&adb)?;
    let ready: Vec<String> = server
        .devices()?
        .into_iter()
        .filter(|d| d.state == "device")
        .map(|d| d.serial)
        .collect();
    if ready.is_empty() {
        bail!(NO_DEVICE_HINT);
    }
    // Each phone's profile, unless calibrations are given.
    let candidates = match &args.calibration {
        Some(path) => candidates(path)?,
        None => Vec::new(),
    };
    let stop = Arc::new(AtomicBool::new(false));
    errln!(
        "playing on {} phones at once through the adb server at {}",
        ready.len(),
        server.addr
    );
    let rows: Vec<Row> = std::thread::scope(|scope| {
        let threads: Vec<_> = ready
            .iter()
            .map(|serial| {
                let (server, candidates, stop) = (server.clone(), &candidates, &stop);
                let input = adb.input;
                scope.spawn(move || play_one(server, serial, input, candidates, options, stop))
            })
            .collect();
        threads
            .into_iter()
            .zip(&ready)
            .map(|(t, serial)| {
                t.join().unwrap_or_else(|_| Row {
                    serial: serial.clone(),
                    profile: "-".into(),
                    moves: "-".into(),
                    taps: "-".into(),
                    seconds: 0.0,
                    result: Err("the thread for this phone panicked".into()),
                })
            })
            .collect()
    });
    print_table(&rows)?;
    let failed = rows.iter().filter(|r| r.result.is_err()).count();
    if failed > 0 {
        errln!("{failed} of {} phones were not solved", rows.len());
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn play_one(
    server: AdbServer,
    serial: &str,
    input: Option<crate::device::InputKind>,
    candidates: &[Candidate],
    options: &PlayOptions,
    stop: &Arc<AtomicBool>,
) -> Row {
    let started = Instant::now();
    let mut row = Row {
        serial: serial.to_string(),
        profile: "-".into(),
        moves: "-".into(),
        taps: "-".into(),
        seconds: 0.0,
        result: Ok(()),
    };
    let outcome = (|| -> Result<crate::play::PlayReport> {
        let mut device = AdbDevice::open_serial(server, serial, input)?;
        let chosen = if candidates.is_empty() {
            profile_for(&mut device, None, &format!("{serial}: "))?
        } else {
            best_candidate(&mut device, candidates)?
        };
        row.profile = chosen.name.clone();
        let options = PlayOptions {
            pacing: chosen.calibration.pacing,
            ..options.clone()
        };
        play(
            &mut device,
            &chosen.calibration,
            &chosen.templates,
            &options,
            stop,
            &mut |_| {},
        )
    })();
    row.seconds = started.elapsed().as_secs_f64();
    match outcome {
        Ok(report) => {
            row.moves = report.moves_done.to_string();
            row.taps = report.taps_sent.to_string();
        }
        Err(e) => {
            errln!("{serial}: {e:#}");
            row.result = Err(format!("{e:#}"));
        }
    }
    row
}

/// The given calibration that reads this phone's screen best: its digits match its templates
/// most closely, and the grid sits where it was calibrated (apps can look alike).
fn best_candidate(device: &mut AdbDevice, candidates: &[Candidate]) -> Result<Chosen> {
    let shot = device.screenshot().context("cannot take a screenshot")?;
    let chosen = candidates
        .iter()
        .filter_map(|c| {
            let rec = read_board(&shot, &c.cal, &c.templates).ok()?;
            Some((fit(&rec, &c.cal), c))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
        .ok_or_else(|| {
            anyhow!(
                "none of the {} calibrations reads this phone's screen: calibrate its app, or drop --calibration to learn it",
                candidates.len()
            )
        })?;
    Ok(Chosen {
        calibration: chosen.cal.clone(),
        templates: chosen.templates.clone(),
        name: chosen.path.file_name().map_or_else(
            || chosen.path.display().to_string(),
            |n| n.to_string_lossy().into(),
        ),
    })
}

/// How well a calibration fits a screen it could read: the mean template score of the digits
/// read, less a penalty per pixel the grid moved from where it was calibrated.
fn fit(rec: &crate::vision::Recognition, cal: &Calibration) -> f32 {
    let digits: Vec<f32> = rec
        .readings
        .iter()
        .filter(|r| r.digit.is_some())
        .map(|r| r.score)
        .collect();
    let mean = digits.iter().sum::<f32>() / digits.len().max(1) as f32;
    let g = cal.grid;
    let offset = (rec.grid.xs[0] - g.x as f32).abs()
        + (rec.grid.ys[0] - g.y as f32).abs()
        + (rec.grid.xs[9] - (g.x + g.width) as f32).abs()
        + (rec.grid.ys[9] - (g.y + g.height) as f32).abs();
    mean - offset / 100.0
}

fn print_table(rows: &[Row]) -> Result<()> {
    let table: Vec<[String; 6]> = std::iter::once(
        ["SERIAL", "PROFILE", "MOVES", "TAPS", "SECONDS", "RESULT"].map(String::from),
    )
    .chain(rows.iter().map(|r| {
        [
            r.serial.clone(),
            r.profile.clone(),
            r.moves.clone(),
            r.taps.clone(),
            format!("{:.1}", r.seconds),
            match &r.result {
                Ok(()) => "solved".to_string(),
                Err(e) => format!("failed: {}", e.chars().take(80).collect::<String>()),
            },
        ]
    }))
    .collect();
    for line in super::format::columns(&table) {
        outln!("{line}");
    }
    Ok(())
}
