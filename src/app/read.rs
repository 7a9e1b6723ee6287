//! `read`: the board on a screenshot, as a line and a grid or as JSON, with an optional overlay.

use super::open::{load_screenshot, open_device};
use super::profiles::{DEFAULT_FILE, calibration_for, load_file};
use crate::cli::ReadArgs;
use crate::error::BoardProblem;
use crate::vision::{CellKind, read_board};
use anyhow::{Context, Result};
use std::path::Path;
use std::process::ExitCode;

/// `read`: prints the board on a screenshot (81 chars, then a grid; `--json` for every cell).
pub(super) fn run(args: ReadArgs) -> Result<ExitCode> {
    // A screenshot file is read with the calibration file; a phone with the profile of its app.
    let (img, source, cal, templates) = match &args.image {
        Some(path) => {
            let file = args
                .calibration
                .as_deref()
                .unwrap_or(Path::new(DEFAULT_FILE));
            let (cal, templates) = load_file(file)?;
            (
                load_screenshot(path)?,
                path.display().to_string(),
                cal,
                templates,
            )
        }
        None => {
            let mut phone = open_device(&args.device)?;
            let (cal, templates) = calibration_for(phone.as_mut(), args.calibration.as_deref())?;
            let img = phone
                .screenshot()
                .with_context(|| format!("cannot take a screenshot of {}", args.device.device))?;
            (
                img,
                format!("the screen of {}", args.device.device),
                cal,
                templates,
            )
        }
    };
    let rec = read_board(&img, &cal, &templates)
        .map_err(|e| anyhow::Error::new(BoardProblem(format!("cannot read {source}: {e}"))))?;
    if let Some(path) = &args.overlay {
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
