//! `read`: the board on a screenshot, as a line and a grid or as JSON, with an optional overlay.

use super::choose::{DEFAULT_FILE, load_file, profile_for};
use super::open::{load_screenshot, open_device};
use crate::cli::ReadArgs;
use crate::error::BoardProblem;
use anyhow::{Context, Result};
use std::path::Path;
use std::process::ExitCode;
use sudoku_reader::CellKind;
use sudoku_reader::stages::draw_seen;

/// `read`: prints the board on a screenshot (81 chars, then a grid; `--json` for every cell).
pub(super) fn run(args: ReadArgs) -> Result<ExitCode> {
    // A screenshot file is read with the calibration file (--calibration, else calibration.toml
    // when it exists, else with no calibration); a phone with the profile of its app. A
    // calibration made at another screen size still helps (its templates and grid as hints).
    let (img, source, calibration) = match &args.image {
        Some(path) => {
            let default = Path::new(DEFAULT_FILE);
            let file = args
                .calibration
                .as_deref()
                .or_else(|| default.exists().then_some(default));
            let calibration = file.map(load_file).transpose()?;
            (
                load_screenshot(path)?,
                path.display().to_string(),
                calibration,
            )
        }
        None => {
            let mut phone = open_device(&args.device)?;
            let chosen = profile_for(
                phone.as_mut(),
                args.calibration.as_deref(),
                &|line: &str| errln!("{line}"),
            )?;
            // The screenshot the profile was checked on is the screen now: no second capture.
            let img = match chosen.first {
                Some(first) => first.screen,
                None => phone.screenshot().with_context(|| {
                    format!("cannot take a screenshot of {}", args.device.device)
                })?,
            };
            (
                img,
                format!("the screen of {}", args.device.device),
                Some(chosen.profile),
            )
        }
    };
    // `read` taps nothing: a calibration of another screen size still lends its templates.
    let seen = match &calibration {
        Some(profile) => profile.read_any_size(&img),
        None => sudoku_reader::read(&img, None),
    };
    // The overlay is written whatever the outcome: a refused read is when it helps most.
    if let Some(path) = &args.overlay {
        draw_seen(&img, &seen)
            .save(path)
            .with_context(|| format!("cannot write overlay {}", path.display()))?;
    }
    let rec = seen.result.map_err(|e| {
        let shown = args.overlay.as_ref().map_or(String::new(), |p| {
            format!(" (the overlay {} shows the cells)", p.display())
        });
        anyhow::Error::new(BoardProblem(format!("cannot read {source}: {e}{shown}")))
    })?;
    if args.json {
        let json = serde_json::json!({
            "board": rec.board.to_line(),
            "givens": rec.givens().to_line(),
            "grid": rec.grid.rect(),
            "cells": rec.readings,
        });
        outln!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        outln!("{}", rec.board.to_line());
        for (r, row) in rec.readings.chunks(9).enumerate() {
            if r % 3 == 0 && r > 0 {
                outln!("---------+---------+---------");
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
            outln!("{}", line.join("|"));
        }
    }
    Ok(ExitCode::SUCCESS)
}
