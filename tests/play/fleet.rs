//! `play --all`: simulated phones of different skins on one adb server, solved at once, one
//! table; each with its own learned profile, or with calibrations given.

use crate::support::adb_server::AdbServer;
use crate::support::play_rig::{self as rig, SMALL_SIZE};
use crate::support::{self, agent, outcome, temp_dir};
use std::path::{Path, PathBuf};
use std::time::Instant;
use sudoku_sim::{SimServer, SudokuApp};

/// A phone of each skin in `skins` (a fresh "easy" puzzle at the small size) on `server`.
fn phones(server: &AdbServer, skins: &[&str]) -> Vec<SimServer<SudokuApp>> {
    skins
        .iter()
        .map(|skin| rig::serve_easy(skin, SMALL_SIZE, server.addr()))
        .collect()
}

/// `play --all` on `server`'s phones, with `--calibration` when given: exit code, stdout,
/// stderr and the seconds it took.
fn play_all(server: &AdbServer, calibration: Option<&Path>) -> (i32, String, String, f64) {
    let started = Instant::now();
    let port = server.port().to_string();
    let mut play = agent();
    play.args(["play", "--all", "-P", &port]);
    if let Some(calibration) = calibration {
        play.arg("--calibration").arg(calibration);
    }
    let (code, out, err) = outcome(&mut play);
    (code, out, err, started.elapsed().as_secs_f64())
}

/// A private adb server, and a folder named from `name` with a calibration of each of `skins`.
fn calibrated_for(name: &str, skins: &[&str]) -> (AdbServer, PathBuf) {
    let dir = temp_dir(name);
    for skin in skins {
        rig::write_calibration(&dir, skin, SMALL_SIZE);
    }
    (AdbServer::start(), dir)
}

#[test]
fn play_all_solves_three_phones_of_different_skins_at_once_and_prints_one_table() {
    let skins = ["light", "numfirst", "wood"];
    let (server, dir) = calibrated_for("fleet", &skins);
    let sims = phones(&server, &skins);
    let (code, stdout, stderr, secs) = play_all(&server, Some(&dir));
    eprintln!("play --all on 3 phones in {secs:.1} s:\n{stdout}");
    assert_eq!(code, 0, "{stderr}\n{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "a header and a row per phone: {stdout}");
    assert!(lines[0].starts_with("SERIAL"), "{stdout}");
    for (sim, skin) in sims.iter().zip(skins) {
        assert!(sim.with_screen(|p| p.is_solved()), "{skin} not solved");
        let row = lines
            .iter()
            .find(|l| l.starts_with(&sim.serial()))
            .unwrap_or_else(|| panic!("no row for {skin}: {stdout}"));
        assert!(row.contains(skin) && row.ends_with("solved"), "{row}");
    }
}

#[test]
fn play_all_learns_each_apps_profile_once_and_solves_every_phone_with_it() {
    let server = AdbServer::start();
    // Two phones of one app: one learns, the other waits and reuses the stored profile.
    let skins = ["light", "numfirst", "wood", "light"];
    let sims = phones(&server, &skins);
    let (code, stdout, stderr, secs) = play_all(&server, None);
    eprintln!("play --all on 4 phones, learning 3 profiles, in {secs:.1} s:\n{stdout}");
    assert_eq!(code, 0, "{stderr}\n{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 5, "a header and a row per phone: {stdout}");
    assert!(lines[0].contains("PROFILE"), "{stdout}");
    for sim in &sims {
        let package = sim.with_screen(|p| p.skin().package());
        assert!(sim.with_screen(|p| p.is_solved()), "{package} not solved");
        let row = lines
            .iter()
            .find(|l| l.starts_with(&sim.serial()))
            .unwrap_or_else(|| panic!("no row for {package}: {stdout}"));
        assert!(
            row.contains(&format!("{package}-{SMALL_SIZE}")) && row.ends_with("solved"),
            "{row}"
        );
    }
    let learned = support::lines_with(&stderr, ": learned ");
    assert_eq!(learned.len(), 3, "one learning per app: {stderr}");
    for l in &learned {
        assert!(sims.iter().any(|s| l.starts_with(&s.serial())), "{l}");
    }
}

/// Screenshots the phone took (`screencap`, raw or PNG) before the first `input tap`. Later
/// ones (checks every few taps, retakes of a frame caught mid-draw) depend on timing.
fn screencaps_before_the_first_tap(sim: &SimServer<SudokuApp>) -> usize {
    let log = sim.command_log();
    assert!(
        log.iter().any(|c| c.starts_with("input tap")),
        "no `input tap` in {log:?}"
    );
    log.iter()
        .take_while(|c| !c.starts_with("input tap"))
        .filter(|c| c.starts_with("screencap"))
        .count()
}

#[test]
fn play_all_starts_from_the_screenshot_its_calibration_was_chosen_on_as_play_does() {
    // Two identical phones, one after the other: one with --all (first, while it is the only
    // phone the server knows), one played alone. The calibration check's screenshot and read
    // are where play starts in both, so both take the same screenshots before the first tap.
    let server = AdbServer::start();
    let dir = temp_dir("fleet-first-read");
    let file = rig::write_calibration(&dir, "light", SMALL_SIZE);
    let port = server.port().to_string();
    let mut counts = Vec::new();
    for all in [true, false] {
        let sim = rig::serve_easy("light", SMALL_SIZE, server.addr());
        let mut cmd = agent();
        // No recheck of a first read that a loaded machine made slow: the counts are then the
        // same on any machine.
        cmd.args(["play", "-P", &port, "--recheck-after-ms", "600000"]);
        cmd.args(["--input", "tap", "--calibration"]);
        if all {
            cmd.arg(&dir).arg("--all");
        } else {
            cmd.arg(&file).args(["-s", &sim.serial()]);
        }
        let out = cmd.output().expect("run sudoku-agent");
        assert_eq!(
            out.status.code(),
            Some(0),
            "all={all}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(sim.with_screen(|p| p.is_solved()), "all={all}: not solved");
        counts.push(screencaps_before_the_first_tap(&sim));
        drop(sim);
    }
    assert!(
        counts[1] >= 1,
        "play reads the screen before tapping: {counts:?}"
    );
    assert_eq!(counts[0], counts[1], "--all, then play alone: {counts:?}");
}

/// A phone of `skin` showing a fresh "easy" puzzle, each command costing what it costs on an
/// Android 12 phone, for real (the run lasts seconds, long enough to be interrupted).
fn slow_phone(server: &AdbServer, skin: &str) -> SimServer<SudokuApp> {
    let sim = SimServer::start(
        rig::phone(skin, SMALL_SIZE, "easy"),
        sudoku_sim::SimConfig {
            realtime: true,
            ..support::sim_phone::config("android12")
        },
    )
    .unwrap();
    sim.connect_adb_server(server.addr()).unwrap();
    sim
}

#[test]
fn ctrl_c_stops_every_phone_of_play_all_between_moves_within_a_second() {
    use std::io::Read as _;
    use std::time::Duration;
    // Cell-first apps: a move half entered would leave an empty cell selected.
    let skins = ["light", "dark", "thick"];
    let (server, dir) = calibrated_for("fleet-ctrl-c", &skins);
    let sims: Vec<_> = skins.iter().map(|s| slow_phone(&server, s)).collect();
    let port = server.port().to_string();
    let mut child = agent()
        .args([
            "play",
            "--all",
            "-P",
            &port,
            "--input",
            "tap",
            "--calibration",
        ])
        .arg(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run sudoku-agent");
    // Mid-run: every phone has taken a few moves' taps.
    let began = Instant::now();
    while sims.iter().any(|s| s.taps().len() < 8) {
        assert!(
            began.elapsed() < Duration::from_secs(60),
            "the phones did not start: {:?}",
            sims.iter().map(|s| s.taps().len()).collect::<Vec<_>>()
        );
        if let Some(status) = child.try_wait().unwrap() {
            panic!("play --all ended before Ctrl-C: {status}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let sent = Instant::now();
    // SAFETY: kill(2) with the pid of a child this test started and has not reaped yet.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    // When each phone took its last tap, watched until the program ends.
    let mut counts: Vec<usize> = sims.iter().map(|s| s.taps().len()).collect();
    let mut last_tap = vec![Duration::ZERO; sims.len()];
    let status = loop {
        for (i, sim) in sims.iter().enumerate() {
            let n = sim.taps().len();
            if n != counts[i] {
                counts[i] = n;
                last_tap[i] = sent.elapsed();
            }
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            sent.elapsed() < Duration::from_secs(30),
            "play --all still runs 30 s after Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(5));
    };
    let ended = sent.elapsed();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    eprintln!("Ctrl-C: last taps {last_tap:?} after it, the program ended after {ended:?}");
    assert_eq!(status.code(), Some(1), "{stderr}");
    for ((sim, skin), last) in sims.iter().zip(skins).zip(&last_tap) {
        assert!(
            *last < Duration::from_secs(1),
            "{skin} took a tap {last:?} after Ctrl-C"
        );
        let (solved, half_entered) = sim.with_screen(|p| {
            let board = p.board();
            (
                p.is_solved(),
                p.selected().filter(|&c| board.get(c).is_none()),
            )
        });
        assert!(!solved, "{skin} was solved before Ctrl-C stopped it");
        assert_eq!(
            half_entered, None,
            "{skin}: a cell selected and no digit entered"
        );
        let said = format!("{}: stopped by the user after", sim.serial());
        assert!(
            stderr.lines().any(|l| l.starts_with(&said)),
            "no line `{said} ...` on stderr:\n{stderr}"
        );
    }
}
