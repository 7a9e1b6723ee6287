//! `play --all`: every phone attached to the adb server at once, a thread per phone, each with
//! the profile of the app on its screen (learned when missing, exactly as `play` does) or, with
//! `--calibration FILE|DIR`, the given calibration that reads its screen best (both chosen by
//! `profile::choice`); one summary table. `visualize --all` shares its phones, rows and table.
//! The adb server is the fleet layer (a USB hub host running `adb -a nodaemon server`, or STF's
//! remote connect): `-H/-P` reach it wherever it runs.

use super::choose::{Candidate, best_candidate, candidates, profile_for};
use super::open::adb_options;
use crate::cli::PlayArgs;
use crate::device::adb::{AdbDevice, AdbServer, NO_DEVICE_HINT};
use crate::phone::{Phone, claim, stop_on_ctrl_c};
use crate::play::{PlayOptions, play_from};
use crate::profile::remember_order;
use anyhow::{Result, bail};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// One phone's line of the summary (`play --all`, `visualize --all`).
pub(super) struct Row {
    pub serial: String,
    /// The profile's name, or the calibration file's.
    pub profile: String,
    pub moves: String,
    pub taps: String,
    pub seconds: f64,
    /// `visualize --all`: the estimate said before the replay, and what the replay took.
    pub estimated: Option<Duration>,
    pub replayed: Option<Duration>,
    pub result: Result<(), String>,
}

impl Row {
    pub fn new(serial: &str) -> Row {
        Row {
            serial: serial.to_string(),
            profile: "-".into(),
            moves: "-".into(),
            taps: "-".into(),
            seconds: 0.0,
            estimated: None,
            replayed: None,
            result: Ok(()),
        }
    }

    /// Completes the row of one phone's run begun at `started`: `fill` notes what a run that
    /// went well did; a failure is said with the serial and kept for the table.
    pub fn finish<T>(
        mut self,
        started: Instant,
        outcome: Result<T>,
        fill: impl FnOnce(&mut Row, T),
    ) -> Row {
        self.seconds = started.elapsed().as_secs_f64();
        match outcome {
            Ok(report) => fill(&mut self, report),
            Err(e) => {
                errln!("{}: {e:#}", self.serial);
                self.result = Err(format!("{e:#}"));
            }
        }
        self
    }
}

/// The phones ready on the adb server `-H/-P` names, and the input method asked for.
pub(super) struct Phones {
    pub server: AdbServer,
    pub serials: Vec<String>,
    pub input: Option<crate::device::InputKind>,
}

/// Every phone attached to the adb server and ready; an error when there is none, or when one
/// phone was named (`--all` means all of them).
pub(super) fn attached(device: &crate::cli::DeviceArgs) -> Result<Phones> {
    let mut adb = adb_options(device)?;
    if adb.serial.is_some() {
        bail!("--all uses every attached phone: drop -s / adb:SERIAL, or drop --all");
    }
    adb.serial = None;
    let server = AdbServer::connect(&adb)?;
    let serials: Vec<String> = server
        .devices()?
        .into_iter()
        .filter(|d| d.state == "device")
        .map(|d| d.serial)
        .collect();
    if serials.is_empty() {
        bail!(NO_DEVICE_HINT);
    }
    Ok(Phones {
        server,
        serials,
        input: adb.input,
    })
}

/// The rows of the phones' threads, in the order of `serials`; a thread that panicked gets a
/// failed row instead of taking the others down.
pub(super) fn join(
    threads: Vec<std::thread::ScopedJoinHandle<'_, Row>>,
    serials: &[String],
) -> Vec<Row> {
    threads
        .into_iter()
        .zip(serials)
        .map(|(t, serial)| {
            t.join().unwrap_or_else(|_| Row {
                result: Err("the thread for this phone panicked".into()),
                ..Row::new(serial)
            })
        })
        .collect()
}

/// `path` with the serial in its name (`progress.json` -> `progress-127.0.0.1_6101.json`), so
/// phones of one run keep their own files.
pub(super) fn file_for(path: &Path, serial: &str) -> PathBuf {
    let safe: String = serial
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let stem = path.file_stem().map_or_else(
        || "progress".to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{safe}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{safe}"),
    };
    path.with_file_name(name)
}

/// `play --all`.
pub(super) fn run(args: &PlayArgs, options: &PlayOptions) -> Result<ExitCode> {
    if args.dry_run {
        bail!("--dry-run shows one phone's plan: pass -s SERIAL instead of --all");
    }
    let phones = attached(&args.device)?;
    // Each phone's profile, unless calibrations are given.
    let candidates = match &args.calibration {
        Some(path) => candidates(path)?,
        None => Vec::new(),
    };
    // One Ctrl-C handler for every phone: each stops between moves, none with a move half
    // entered, and says so on its own line.
    let stop = stop_on_ctrl_c()?;
    errln!(
        "playing on {} phones at once through the adb server at {}",
        phones.serials.len(),
        phones.server.addr
    );
    let rows: Vec<Row> = std::thread::scope(|scope| {
        let threads: Vec<_> = phones
            .serials
            .iter()
            .map(|serial| {
                let (server, candidates, stop) = (phones.server.clone(), &candidates, &stop);
                let input = phones.input;
                scope.spawn(move || play_one(server, serial, input, candidates, options, stop))
            })
            .collect();
        join(threads, &phones.serials)
    });
    report(&rows, false, "were not solved")
}

fn play_one(
    server: AdbServer,
    serial: &str,
    input: Option<crate::device::InputKind>,
    candidates: &[Candidate],
    options: &PlayOptions,
    stop: &AtomicBool,
) -> Row {
    let started = Instant::now();
    let mut row = Row::new(serial);
    let outcome = (|| -> Result<crate::play::PlayReport> {
        let mut device = AdbDevice::open_serial(server, serial, input)?;
        // One lock per phone, held for its whole run; the screen woken before learning.
        let _claim = claim(&mut device, "play", &|line: &str| {
            errln!("{serial}: {line}")
        })?;
        let chosen = if candidates.is_empty() {
            profile_for(&mut device, None, &|line: &str| errln!("{serial}: {line}"))?
        } else {
            best_candidate(&mut device, candidates)?
        };
        row.profile = chosen.name.clone();
        let options = PlayOptions {
            pacing: chosen.profile.calibration.pacing,
            ..options.clone()
        };
        let say = |line: &str| errln!("{serial}: {line}");
        let mut phone = Phone::new(&mut device, &chosen.profile, stop, &say);
        let report = play_from(chosen.first, &mut phone, &options, &mut |_| {})?;
        if let Some(order) = report.relearned_order {
            errln!("{serial}: {}", remember_order(&chosen.source, order));
        }
        Ok(report)
    })();
    row.finish(started, outcome, |row, report| {
        row.moves = report.moves_done.to_string();
        row.taps = report.taps_sent.to_string();
    })
}

/// The summary table, then the exit status: 1 when some phone failed, said as "N of M phones
/// `not_done`".
pub(super) fn report(rows: &[Row], estimates: bool, not_done: &str) -> Result<ExitCode> {
    print_table(rows, estimates)?;
    let failed = rows.iter().filter(|r| r.result.is_err()).count();
    if failed > 0 {
        errln!("{failed} of {} phones {not_done}", rows.len());
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// The summary: a row per phone; `estimates` adds what was estimated before each replay next to
/// what it took (`visualize --all`).
fn print_table(rows: &[Row], estimates: bool) -> Result<()> {
    let secs =
        |d: Option<Duration>| d.map_or("-".to_string(), |d| format!("{:.1}", d.as_secs_f64()));
    let header = [
        "SERIAL",
        "PROFILE",
        "MOVES",
        "TAPS",
        "ESTIMATED",
        "REPLAYED",
        "SECONDS",
        "RESULT",
    ]
    .map(String::from);
    let table: Vec<[String; 8]> = std::iter::once(header)
        .chain(rows.iter().map(|r| {
            [
                r.serial.clone(),
                r.profile.clone(),
                r.moves.clone(),
                r.taps.clone(),
                secs(r.estimated),
                secs(r.replayed),
                format!("{:.1}", r.seconds),
                match &r.result {
                    Ok(()) => "solved".to_string(),
                    Err(e) => format!("failed: {}", e.chars().take(80).collect::<String>()),
                },
            ]
        }))
        .collect();
    let lines = if estimates {
        super::format::columns(&table)
    } else {
        let short: Vec<[String; 6]> = table
            .into_iter()
            .map(|[a, b, c, d, _, _, g, h]| [a, b, c, d, g, h])
            .collect();
        super::format::columns(&short)
    };
    for line in lines {
        outln!("{line}");
    }
    Ok(())
}
