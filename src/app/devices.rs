//! `devices`: every phone the adb server knows, as a table or JSON, with whether it takes
//! injected input (a phone that refuses it shows "input refused", and the setting to turn on is
//! said once on stderr).

use crate::cli::DevicesArgs;
use crate::device::Device;
use crate::device::adb::{
    AdbDevice, AdbOptions, AdbServer, InputProbe, ListedDevice, NO_DEVICE_HINT,
};
use crate::device::protocol::refusal;
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
    // Each phone is probed on a thread of its own: one that stops answering costs the adb
    // deadline once, not once per phone after it.
    let rows: Vec<serde_json::Value> = std::thread::scope(|scope| {
        let probes: Vec<_> = listed
            .iter()
            .map(|d| {
                let server = server.clone();
                scope.spawn(move || describe_row(server, d))
            })
            .collect();
        probes
            .into_iter()
            .map(|p| p.join().unwrap_or_else(|_| serde_json::json!({})))
            .collect()
    });
    let failed = rows.iter().any(|r| !r["error"].is_null());
    if args.json {
        outln!("{}", serde_json::Value::Array(rows));
        return Ok(exit_code(failed));
    }
    if rows.is_empty() {
        errln!("{NO_DEVICE_HINT}");
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
    for line in super::format::columns(&table) {
        outln!("{line}");
    }
    Ok(exit_code(failed))
}

/// 1 when a phone that should answer did not (its error is on stderr and in its row).
fn exit_code(failed: bool) -> ExitCode {
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// One phone's row: what `adb devices -l` says, and for a ready phone what probing it found.
fn describe_row(server: AdbServer, d: &ListedDevice) -> serde_json::Value {
    let mut row = serde_json::json!({ "serial": d.serial, "state": d.state, "model": d.model });
    if d.state != "device" {
        return row;
    }
    let probed = AdbDevice::open_serial(server, &d.serial, None).and_then(|mut phone| {
        let info = phone.info().clone();
        row["model"] = info.model.clone().into();
        row["android"] = info.release.clone().into();
        row["sdk"] = info.sdk.into();
        row["screen"] = phone.screen_size()?.to_string().into();
        // A no-op key (`input keyevent 0`): the injector starts on a refusing phone and is
        // refused only at its first touch, so asking Android is the one way to know before
        // `play` does. A fresh process per command, so nothing remembered would do.
        let probe = phone.probe_input()?;
        row["input_refused"] = (probe != InputProbe::Accepted).into();
        row["input"] = match probe {
            InputProbe::Accepted => phone.input_description(),
            InputProbe::Refused => "input refused".to_string(),
            InputProbe::RawEventsOnly => "evdev (input refused)".to_string(),
        }
        .into();
        if probe != InputProbe::Accepted {
            errln!(
                "{}",
                crate::error::one_line(&format!(
                    "{}: Android refuses injected input: {}",
                    d.serial,
                    refusal::advice(info.maker())
                ))
            );
        }
        Ok(())
    });
    if let Err(e) = probed {
        errln!(
            "{}",
            crate::error::one_line(&format!("{}: {e:#}", d.serial))
        );
        row["error"] = format!("{e:#}").into();
    }
    row
}
