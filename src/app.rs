//! One function per subcommand, and the only place that chooses implementations (which device,
//! which strategy, which input method). Everything here wires pure stages together.

use crate::cli::{Cli, Command};
use anyhow::Result;
use std::process::ExitCode;

/// Starts `env_logger` at the level asked for with `-v`, unless `RUST_LOG` says otherwise.
pub fn init_logging(verbose: u8) {
    let level = match verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(level))
        .format_timestamp(None)
        .init();
}

/// Runs one subcommand; `Ok` carries the exit code for outcomes that are not errors.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Read(args) => read(args),
        Command::Calibrate(args) => calibrate(args),
    }
}

/// Loads a screenshot file. The seam for reading from a device: once the device layer lands,
/// `read` and `calibrate` take their screenshot from `Device::screenshot()` here instead.
fn load_screenshot(path: &std::path::Path) -> Result<image::RgbaImage> {
    use anyhow::Context;
    Ok(image::open(path)
        .with_context(|| format!("cannot open screenshot {}", path.display()))?
        .to_rgba8())
}

/// `read`: prints the board on a screenshot (81 chars, then a grid; `--json` for every cell).
pub fn read(args: crate::cli::ReadArgs) -> Result<ExitCode> {
    use crate::vision::{CellKind, Templates, read_board};
    let cal = crate::calibration::Calibration::load(&args.calibration)?;
    let templates = Templates::load(&cal.templates_dir(&args.calibration))?;
    let img = load_screenshot(&args.image)?;
    let rec = read_board(&img, &cal, &templates).map_err(|e| {
        anyhow::Error::new(BoardProblem(format!("cannot read {}: {e}", args.image.display())))
    })?;
    if let Some(path) = &args.overlay {
        use anyhow::Context;
        crate::vision::overlay::draw_reading(&img, &rec)
            .save(path)
            .with_context(|| format!("cannot write overlay {}", path.display()))?;
    }
    if args.json {
        let json = serde_json::json!({
            "board": rec.board.to_line(),
            "givens": rec.givens().to_line(),
            "grid": rec.grid.rect(),
            "cells": rec.readings,
        });
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        println!("{}", rec.board.to_line());
        for (r, row) in rec.readings.chunks(9).enumerate() {
            if r % 3 == 0 && r > 0 {
                println!("---------+---------+---------");
            }
            let line: Vec<String> = row
                .chunks(3)
                .map(|b| {
                    b.iter()
                        .map(|c| match (c.digit, c.kind) {
                            (Some(d), CellKind::Entry) => format!("({d})"),
                            (Some(d), _) => format!(" {d} "),
                            (None, _) => " . ".to_string(),
                        })
                        .collect::<String>()
                })
                .collect();
            println!("{}", line.join("|"));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Parses an 81-character board ('.' or '0' for empty). Private until `Board::parse` lands.
fn parse_board81(s: &str) -> Result<crate::sudoku::Board> {
    let s = s.trim();
    let cells: Vec<u8> = s
        .chars()
        .map(|c| match c {
            '.' | '0' => Some(0),
            '1'..='9' => Some(c as u8 - b'0'),
            _ => None,
        })
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(|| anyhow::anyhow!("board '{s}' has characters other than 1-9, '.' and '0'"))?;
    let cells: [u8; 81] = cells
        .try_into()
        .map_err(|v: Vec<u8>| anyhow::anyhow!("a board has 81 cells, '{s}' has {}", v.len()))?;
    crate::sudoku::Board::from_cells(cells).ok_or_else(|| anyhow::anyhow!("bad board '{s}'"))
}

/// `calibrate`: measures the app on a screenshot and writes calibration, templates and overlay.
pub fn calibrate(args: crate::cli::CalibrateArgs) -> Result<ExitCode> {
    use crate::calibrate::{CalibrateOptions, LabelSource, calibrate_image};
    use anyhow::Context;
    let img = load_screenshot(&args.image)?;
    let opts = CalibrateOptions {
        profile: args.profile.clone(),
        givens: args.givens.as_deref().map(parse_board81).transpose()?,
        erase: args.erase,
        notes: args.notes,
        input_order: match args.input_order {
            crate::cli::InputOrderArg::CellFirst => crate::calibration::InputOrder::CellFirst,
            crate::cli::InputOrderArg::NumberFirst => crate::calibration::InputOrder::NumberFirst,
        },
    };
    let done = calibrate_image(&img, &opts)
        .with_context(|| format!("cannot calibrate on {}", args.image.display()))?;
    let cal = &done.calibration;
    done.calibration.save(&args.out)?;
    let tdir = cal.templates_dir(&args.out);
    done.templates.save(&tdir)?;
    let overlay = args.overlay.clone().unwrap_or_else(|| {
        let stem = args.out.file_stem().map_or("calibration".into(), |s| s.to_string_lossy().into_owned());
        args.out.with_file_name(format!("{stem}-overlay.png"))
    });
    done.overlay.save(&overlay).with_context(|| format!("cannot write overlay {}", overlay.display()))?;
    let g = cal.grid;
    println!(
        "grid: {}x{} at {},{} (cell {:.1} px) on a {} screen",
        g.width,
        g.height,
        g.x,
        g.y,
        done.grid.pitch(),
        cal.screen
    );
    match &cal.keypad {
        Some(k) => {
            let keys: Vec<String> =
                k.digits.iter().enumerate().map(|(d, p)| format!("{}@{},{}", d + 1, p.x, p.y)).collect();
            println!("keypad: {}", keys.join(" "));
            if let Some(e) = k.erase {
                println!("erase: {},{}", e.x, e.y);
            }
            if let Some(n) = k.notes {
                println!("notes: {},{}", n.x, n.y);
            }
        }
        None => println!("keypad: not found (this calibration can read boards but not tap digits)"),
    }
    let source = match done.labelled_by {
        LabelSource::Keypad => "labelled through the keypad glyphs",
        LabelSource::Givens => "labelled by --givens",
    };
    let extra = if done.from_keypad.is_empty() {
        String::new()
    } else {
        let ds: Vec<String> = done.from_keypad.iter().map(|d| d.to_string()).collect();
        format!("; digits {} taken from keypad glyphs", ds.join(","))
    };
    println!("board: {} ({source}{extra})", done.board.to_line());
    println!("wrote {}", args.out.display());
    println!("wrote {}/1.png..9.png", tdir.display());
    println!("wrote {}", overlay.display());
    Ok(ExitCode::SUCCESS)
}

/// Exit code for an error that reached `main`: 1 when the board could not be read or solved
/// (marked with `BoardProblem` in the chain), 2 for usage, device and I/O errors.
pub fn exit_code_for(err: &anyhow::Error) -> u8 {
    if err.chain().any(|e| e.is::<BoardProblem>()) {
        1
    } else {
        2
    }
}

/// Marks an error as "the board could not be read or solved" (exit code 1).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BoardProblem(pub String);
