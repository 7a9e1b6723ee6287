//! Hardening through the real binary (issue 14): a closed stdout, out-of-range options, unsafe
//! profile names and control characters in error messages end in a clear one-line error or a
//! quiet exit, never a panic.

mod bad_input;

use crate::support;
use std::path::Path;
use std::process::Output;
use sudoku_agent::geometry::Size;
use sudoku_sim::Screen;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn no_panic(o: &Output) {
    assert!(!stderr(o).contains("panicked"), "{}", stderr(o));
    assert_ne!(o.status.code(), Some(101), "{}", stderr(o));
}

/// A screenshot the shipped calibration reads: light skin, 1080x2340, "medium".
fn shot(dir: &Path) -> std::path::PathBuf {
    let mut app = support::sim_phone::phone("light", Size::new(1080, 2340), "medium");
    let path = dir.join("medium.png");
    app.render().save(&path).unwrap();
    path
}

#[test]
fn read_into_a_closed_pipe_exits_quietly_instead_of_panicking() {
    let dir = support::temp_dir("hardening-pipe");
    let shot = shot(&dir);
    let cal = Path::new(ROOT).join("calibration.toml");
    for json in [false, true] {
        let mut cmd = support::agent();
        cmd.arg("read")
            .arg("--image")
            .arg(&shot)
            .arg("--calibration")
            .arg(&cal);
        if json {
            cmd.arg("--json");
        }
        let o = support::into_closed(&mut cmd, true, false);
        no_panic(&o);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stderr(&o), "", "json {json}");
    }
}

#[test]
fn a_moves_per_second_no_duration_can_hold_is_refused_at_parse_time_naming_the_flag() {
    for rate in ["1e-20", "0", "-1", "NaN", "inf", "1e300"] {
        let o = support::agent()
            .args(["visualize", "--device", "sim", "--yes"])
            .arg(format!("--moves-per-second={rate}"))
            .output()
            .unwrap();
        no_panic(&o);
        assert_eq!(o.status.code(), Some(2), "{rate}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("--moves-per-second"),
            "{rate}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_profile_name_with_separators_or_dot_dot_is_refused_and_nothing_is_written() {
    let dir = support::temp_dir("hardening-profile");
    let shot = shot(&dir);
    let out = dir.join("deep/er/calibration.toml");
    for bad in ["../../../x", "a/b", "..", ""] {
        let o = support::agent()
            .arg("calibrate")
            .arg("--image")
            .arg(&shot)
            .arg("--out")
            .arg(&out)
            .args(["--profile", bad])
            .output()
            .unwrap();
        no_panic(&o);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(stderr(&o).contains("--profile"), "{bad}: {}", stderr(&o));
    }
    assert!(!dir.join("x").exists() && !dir.join("deep").exists());
}

#[test]
fn an_error_about_a_serial_with_a_newline_stays_on_one_line() {
    let server = support::adb_server::shared();
    let o = support::agent()
        .args([
            "screenshot",
            "-P",
            &server.port().to_string(),
            "-s",
            "fake\nserial",
        ])
        .arg("-o")
        .arg(support::temp_dir("hardening-serial").join("s.png"))
        .output()
        .unwrap();
    no_panic(&o);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("fake\\nserial"), "{err}");
}

#[test]
fn play_on_a_screenshot_file_ends_with_advice_about_the_file_not_the_app() {
    let dir = support::temp_dir("hardening-file-play");
    let shot = shot(&dir);
    let o = support::agent()
        .arg("play")
        .arg(format!("--device=file:{}", shot.display()))
        .arg("--calibration")
        .arg(Path::new(ROOT).join("calibration.toml"))
        .output()
        .unwrap();
    no_panic(&o);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("screenshot file"), "{err}");
    assert!(!err.contains("input settings"), "{err}");
}

#[test]
fn play_says_the_plan_before_the_first_tap() {
    // Our own adb server: the default one (5037) is the user's, and a test must not start it.
    let server = support::adb_server::shared();
    let o = support::agent()
        .args(["play", "--device", "sim", "--sim-puzzle", "easy", "-P"])
        .arg(server.port().to_string())
        .output()
        .unwrap();
    no_panic(&o);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    // First the app is learned (a fresh config dir), then the board read and the plan, then
    // the taps' result.
    let lines: Vec<&str> = err.lines().collect();
    let read = lines
        .iter()
        .position(|l| l.starts_with("read from the screen"));
    let plan = lines.iter().position(|l| l.starts_with("tapping "));
    let done = lines.iter().position(|l| l.contains("of device time"));
    assert!(read.is_some() && read < plan, "{err}");
    assert!(plan.is_some() && plan < done, "{err}");
    // The board's nine rows sit between the two.
    let rows = lines[read.unwrap()..plan.unwrap()]
        .iter()
        .filter(|l| l.starts_with("| "))
        .count();
    assert_eq!(rows, 9, "{err}");
    let plan = lines[plan.unwrap()];
    assert!(
        plan.contains(" moves (") && plan.contains(" taps) via "),
        "{err}"
    );
}

#[test]
fn a_closed_stderr_does_not_turn_a_diagnostic_into_a_panic() {
    // `2>&1 | head -1`: after the first line both streams are a closed pipe.
    let dead_end =
        ".......................................................................912345678.";
    let server = support::adb_server::shared();
    let port = server.port().to_string();
    for args in [
        vec!["solve", "-s", "naive", "--max-steps", "1000", dead_end],
        vec!["play", "--device", "sim", "-P", &port],
    ] {
        let o = support::into_closed(support::agent().args(&args), true, true);
        assert_ne!(o.status.code(), Some(101), "{args:?}");
    }
}
