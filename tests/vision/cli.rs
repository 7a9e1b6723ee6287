//! The `calibrate` and `read` subcommands through the real binary, and the shipped defaults: the
//! top-level `calibration.toml` and `templates/default/` are exactly what `calibrate` writes for
//! the simulated phone's light skin at 1080x2340 (set `UPDATE_SHIPPED_CALIBRATION=1` to rewrite
//! them after a deliberate change to calibration or to the simulator's drawing).

use crate::support;
use crate::support::sim_phone::phone;
use std::path::{Path, PathBuf};
use sudoku_agent::geometry::Size;
use sudoku_agent::profile::calibration::Calibration;
use sudoku_agent::sudoku::{Board, Cell};
use sudoku_sim::{Hit, Key, Screen, SudokuApp, puzzles};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn scratch(name: &str) -> PathBuf {
    crate::support::temp_dir(&format!("vision-cli-{name}"))
}

fn medium() -> Board {
    puzzles::parse(puzzles::named("medium").unwrap())
        .unwrap()
        .into()
}

/// The screen the shipped calibration is made from: light skin, 1080x2340, a fresh "medium".
fn light_phone() -> SudokuApp {
    phone("light", Size::new(1080, 2340), "medium")
}

fn run(args: &[&str]) -> (i32, String, String) {
    support::outcome(support::agent().args(args))
}

/// `read --image IMAGE --calibration CAL` and `extra` arguments, run to its end.
fn read(image: &Path, cal: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["read", "--image", p(image), "--calibration", p(cal)];
    args.extend_from_slice(extra);
    run(&args)
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn shipped_calibration_and_templates_are_what_calibrate_writes_for_the_light_skin() {
    let dir = scratch("shipped");
    let shot = dir.join("light-1080x2340.png");
    light_phone().render().save(&shot).unwrap();
    let out = dir.join("calibration.toml");
    let overlay = dir.join("overlay.png");
    // Where a user looking at the screenshot sees the erase and notes buttons.
    let buttons = ["--erase", "366,1530", "--notes", "712,1530"];
    let args = [
        "calibrate",
        "--image",
        p(&shot),
        "--out",
        p(&out),
        "--overlay",
        p(&overlay),
    ];
    let (code, stdout, stderr) = run(&[&args[..], &buttons[..]].concat());
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("labelled by the reader without calibration"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("wrote {}", p(&overlay))),
        "{stdout}"
    );
    assert!(overlay.exists());

    let root = Path::new(ROOT);
    let mut files = vec![PathBuf::from("calibration.toml")];
    for entry in std::fs::read_dir(dir.join("templates/default")).unwrap() {
        files.push(Path::new("templates/default").join(entry.unwrap().file_name()));
    }
    files.sort();
    if std::env::var_os("UPDATE_SHIPPED_CALIBRATION").is_some() {
        std::fs::create_dir_all(root.join("templates/default")).unwrap();
        for f in &files {
            std::fs::copy(dir.join(f), root.join(f)).unwrap();
        }
    }
    for f in &files {
        let made = std::fs::read(dir.join(f)).unwrap();
        let shipped = std::fs::read(root.join(f))
            .unwrap_or_else(|e| panic!("{} is not shipped: {e}", f.display()));
        assert!(
            made == shipped,
            "{} differs from what calibrate writes",
            f.display()
        );
    }
    let shipped_count = std::fs::read_dir(root.join("templates/default"))
        .unwrap()
        .count();
    assert_eq!(
        shipped_count,
        files.len() - 1,
        "stray files in templates/default"
    );

    // Calibrating again on the same screen writes the same bytes.
    let again = dir.join("again.toml");
    let args = [
        "calibrate",
        "--image",
        p(&shot),
        "--out",
        p(&again),
        "--overlay",
        p(&overlay),
        // Same template folder as calibration.toml (by default it follows --out's name).
        "--profile",
        "default",
    ];
    let (code, ..) = run(&[&args[..], &buttons[..]].concat());
    assert_eq!(code, 0);
    assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&out).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_shipped_keypad_erase_and_notes_points_hit_those_buttons_on_the_phone() {
    let cal = Calibration::load(&Path::new(ROOT).join("calibration.toml")).unwrap();
    let keypad = cal.keypad.expect("the shipped calibration has a keypad");
    let mut phone = light_phone();
    let mut expected = Vec::new();
    for (d, &point) in keypad.digits.iter().enumerate() {
        phone.tap(point.into());
        expected.push(Hit::Key(Key::Digit(d as u8 + 1)));
    }
    for (point, key) in [(keypad.erase, Key::Erase), (keypad.notes, Key::Notes)] {
        phone.tap(point.expect("erase and notes are calibrated").into());
        expected.push(Hit::Key(key));
    }
    assert_eq!(phone.hits(), &expected[..]);
}

#[test]
fn read_prints_the_board_the_grid_and_json_with_the_shipped_calibration() {
    let dir = scratch("read");
    let mut phone = light_phone();
    let entry = Cell::new(0, 1).unwrap();
    phone.set_entry(entry.into(), Some(1));
    phone.set_notes(Cell::new(0, 2).unwrap().into(), 0b0010_0110);
    phone.select(Some(entry.into()));
    let shot = dir.join("busy.png");
    phone.render().save(&shot).unwrap();
    let cal = Path::new(ROOT).join("calibration.toml");
    let overlay = dir.join("read.png");

    let (code, stdout, stderr) = read(&shot, &cal, &["--overlay", p(&overlay)]);
    assert_eq!(code, 0, "{stderr}");
    let mut expected = medium();
    expected.set(entry, Some(1));
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], expected.to_line());
    assert_eq!(lines[1], " 9 (1) . | 4  .  . | .  .  . ", "{stdout}");
    assert!(overlay.exists());

    let (code, stdout, _) = read(&shot, &cal, &["--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["board"], expected.to_line());
    assert_eq!(json["givens"], medium().to_line());
    let cells = json["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 81);
    assert_eq!(cells[1]["kind"], "entry");
    assert_eq!(cells[0]["kind"], "given");
    assert_eq!(cells[2]["kind"], "empty");
    assert_eq!(cells[2]["notes"], true);
    assert!(cells[0]["score"].as_f64().unwrap() > 0.9);
    assert!(cells[0]["margin"].as_f64().unwrap() > 0.05);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unreadable_screens_exit_1_and_setup_problems_exit_2_with_one_line() {
    let dir = scratch("errors");
    let cal = Path::new(ROOT).join("calibration.toml");
    let blank = dir.join("blank.png");
    image::RgbaImage::from_pixel(1080, 2340, image::Rgba([255, 255, 255, 255]))
        .save(&blank)
        .unwrap();
    let (code, _, stderr) = read(&blank, &cal, &[]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("not where calibration put them"),
        "{stderr}"
    );

    let small = dir.join("small.png");
    image::RgbaImage::new(720, 1280).save(&small).unwrap();
    let (code, _, stderr) = read(&small, &cal, &[]);
    assert_eq!(code, 1, "{stderr}");
    support::assert_mentions(&stderr, &["720x1280", "re-run `sudoku-agent calibrate`"]);

    // A calibration whose templates folder is empty.
    let lonely = dir.join("calibration.toml");
    std::fs::copy(&cal, &lonely).unwrap();
    let (code, _, stderr) = read(&blank, &lonely, &[]);
    assert_eq!(code, 2, "{stderr}");
    support::assert_mentions(&stderr, &["templates missing", "1.png"]);

    let (code, _, stderr) = read(&blank, &dir.join("none.toml"), &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("run `sudoku-agent calibrate --out")
            && stderr.contains("none.toml` to write it"),
        "{stderr}"
    );

    let (code, _, stderr) = run(&[
        "calibrate",
        "--image",
        p(&blank),
        "--out",
        p(&dir.join("c.toml")),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("no sudoku grid found"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The cells named in a refusal ("r3c5 (4 or 9)"), as (row, column) from 0.
fn named_cells(message: &str) -> Vec<(usize, usize)> {
    let b = message.as_bytes();
    (0..b.len().saturating_sub(5))
        .filter(|&i| {
            b[i] == b'r'
                && b[i + 1].is_ascii_digit()
                && b[i + 2] == b'c'
                && b[i + 3].is_ascii_digit()
                && b[i + 4] == b' '
                && b[i + 5] == b'('
        })
        .map(|i| ((b[i + 1] - b'1') as usize, (b[i + 3] - b'1') as usize))
        .collect()
}

#[test]
fn a_refused_read_still_writes_the_overlay_with_the_refused_cells_crossed_out() {
    let dir = scratch("refused-overlay");
    // The shipped calibration with the templates of 4 and 9 swapped: its templates contradict
    // the glyph bank, so a read of another screen size refuses the 4s and 9s.
    let root = Path::new(ROOT);
    std::fs::copy(root.join("calibration.toml"), dir.join("calibration.toml")).unwrap();
    let templates = dir.join("templates/default");
    std::fs::create_dir_all(&templates).unwrap();
    for d in 1..=9 {
        let from = root.join(format!("templates/default/{d}.png"));
        let to = match d {
            4 => 9,
            9 => 4,
            d => d,
        };
        std::fs::copy(from, templates.join(format!("{to}.png"))).unwrap();
    }
    let mut phone = phone("light", Size::new(720, 1280), "medium");
    let screen = phone.render();
    let shot = dir.join("small.png");
    screen.save(&shot).unwrap();
    let overlay = dir.join("refused.png");
    let (code, stdout, stderr) = read(
        &shot,
        &dir.join("calibration.toml"),
        &["--overlay", p(&overlay)],
    );
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(p(&overlay)), "{stderr}");
    let named = named_cells(&stderr);
    assert!(!named.is_empty(), "{stderr}");

    // The overlay's pixels: a red cross through the centre of each named cell, none through a
    // cell that was read.
    let drawn = image::open(&overlay).unwrap().to_rgba8();
    let grid = sudoku_reader::stages::locate_grid(&screen).unwrap();
    let red_near_centre = |r: usize, c: usize| {
        let centre = grid.cell_rect(Cell::new(r, c).unwrap()).center();
        (centre.y - 2..=centre.y + 2).any(|y| {
            (centre.x - 2..=centre.x + 2).any(|x| drawn.get_pixel(x, y).0 == [255, 0, 0, 255])
        })
    };
    let board = medium();
    for &(r, c) in &named {
        let digit = board.get(Cell::new(r, c).unwrap());
        assert!(
            matches!(digit, Some(4 | 9)),
            "r{}c{} holds {digit:?}",
            r + 1,
            c + 1
        );
        assert!(
            red_near_centre(r, c),
            "r{}c{} is not crossed out",
            r + 1,
            c + 1
        );
    }
    let read = Cell::all()
        .find(|c| matches!(board.get(*c), Some(d) if d != 4 && d != 9))
        .unwrap();
    assert!(
        !red_near_centre(read.row(), read.col()),
        "{read} is crossed out"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
