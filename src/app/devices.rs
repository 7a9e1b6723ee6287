//! `devices`: every phone the adb server knows, as a table or JSON.

use crate::cli::DevicesArgs;
use crate::device::Device;
use crate::device::adb::{AdbDevice, AdbOptions, AdbServer, NO_DEVICE_HINT};
use anyhow::Result;
use std::process::ExitCode;

/// `devices`: every phone the adb server knows, with what a user checks first.
pub(super) fn run(args: DevicesArgs) -> Result<ExitCode> {
    let options = AdbOptions {
        host: args.server.host,
        port: args.server.port,
        ..AdbOptions::default()
    };
    let server = AdbServer::connect(&options)?;
    let listed = server.devices()?;
    let mut rows = Vec::new();
    for d in &listed {
        let mut row = serde_json::json!({ "serial": d.serial, "state": d.state, "model": d.model });
        if d.state == "device" {
            match AdbDevice::open_serial(server.clone(), &d.serial, None) {
                Ok(mut phone) => {
                    let info = phone.info().clone();
                    row["model"] = info.model.clone().into();
                    row["android"] = info.release.clone().into();
                    row["sdk"] = info.sdk.into();
                    row["screen"] = phone.screen_size()?.to_string().into();
                    row["input"] = phone.input_description().into();
                }
                Err(e) => {
                    eprintln!("{}: {e:#}", d.serial);
                    row["error"] = format!("{e:#}").into();
                }
            }
        }
        rows.push(row);
    }
    if args.json {
        println!("{}", serde_json::Value::Array(rows));
        return Ok(ExitCode::SUCCESS);
    }
    if rows.is_empty() {
        eprintln!("{NO_DEVICE_HINT}");
        return Ok(ExitCode::SUCCESS);
    }
    let cell = |r: &serde_json::Value, k: &str| match &r[k] {
        serde_json::Value::String(s) if !s.is_empty() => s.clone(),
        serde_json::Value::Null => "-".to_string(),
        v if !v.is_string() => v.to_string(),
        _ => "-".to_string(),
    };
    let table: Vec<[String; 6]> = std::iter::once(
        ["SERIAL", "STATE", "MODEL", "ANDROID", "SCREEN", "INPUT"].map(String::from),
    )
    .chain(rows.iter().map(|r| {
        let android = match (&r["android"], &r["sdk"]) {
            (serde_json::Value::String(a), serde_json::Value::Number(n)) => {
                format!("{a} (API {n})")
            }
            _ => "-".into(),
        };
        [
            cell(r, "serial"),
            cell(r, "state"),
            cell(r, "model"),
            android,
            cell(r, "screen"),
            cell(r, "input"),
        ]
    }))
    .collect();
    let widths: Vec<usize> = (0..6)
        .map(|i| {
            table
                .iter()
                .map(|r| r[i].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for r in &table {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        println!("{}", line.join("  ").trim_end());
    }
    Ok(ExitCode::SUCCESS)
}
