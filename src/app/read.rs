//! `read`: the board on a screenshot, as a line and a grid or as JSON, with an optional overlay.

use super::open::screen_source;
use crate::calibration::Calibration;
use crate::cli::ReadArgs;
use crate::error::BoardProblem;
use crate::vision::{CellKind, Templates, read_board};
use anyhow::{Context, Result};
use std::process::ExitCode;

/// `read`: prints the board on a screenshot (81 chars, then a grid; `--json` for every cell).
pub(super) fn run(args: ReadArgs) -> Result<ExitCode> {
    let (img, source) = screen_source(args.image.as_deref(), &args.device)?;
    // No --calibration and no calibration.toml here: read any app's screen with no calibration.
    let default = std::path::PathBuf::from("calibration.toml");
    let rec = match args
        .calibration
        .or_else(|| default.exists().then_some(default))
    {
        Some(path) => {
            let cal = Calibration::load(&path)?;
            read_board(&img, &cal, &Templates::load(&cal.templates_dir(&path))?)
        }
        None => crate::vision::read_any(&img, crate::vision::Hints::default()),
    }
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
